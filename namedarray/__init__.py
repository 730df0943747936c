"""namedarray: NumPy with named axes, on JAX.

``import namedarray as np`` runs NumPy programs; names on axes say what a
reduction or contraction is over, and named operations are collectives, so
the same line runs on one device or sharded over a mesh (see docs/index.md).

>>> import namedarray as np
>>> x = np.ones((4, 3)).tag("batch", None)
>>> x.sum(axis="batch")
array([4., 4., 4.])
"""
from __future__ import annotations

import numpy as _onp

from . import _config
from ._config import set_dtype_defaults, dtype_defaults
from .core.array import NamedArray
from ._dispatch import ufunc
from ._elementwise import UFUNCS, where, result_type, clip
from ._elementwise import *  # noqa: F401,F403  (the ufunc table)
from .reductions import *  # noqa: F401,F403
from .reductions import REDUCTIONS, average, quantile, percentile, nanquantile, nanpercentile  # noqa: F401
from .reductions import cumsum, cumprod, nancumsum, nancumprod, cumulative_sum, cumulative_prod  # noqa: F401
from ._indexing import nonzero
from . import parallel
from .mapping.local import nmap
from .mapping.mesh import shard
from ._array_api import __array_namespace_info__
from . import _frontend
from ._frontend import *  # noqa: F401,F403
globals().update(_frontend.declare(globals()))
from .einsum import einsum, einsum_path, dot, matmul, tensordot, vecdot, inner, outer, matvec, vecmat  # noqa: E402
from . import linalg, fft, random  # noqa: F401
linalg.matmul, linalg.vecdot, linalg.tensordot = matmul, vecdot, tensordot

ndarray = NamedArray

# dtypes, scalar types and constants are NumPy's own objects
for _n in dir(_onp):
    if _n.startswith("_") or _n in globals():
        continue
    _v = getattr(_onp, _n, None)
    if isinstance(_v, type) or isinstance(_v, (float, int)) or _v is None and _n == "newaxis":
        globals()[_n] = _v
newaxis = None
pi, e, inf, nan, euler_gamma = _onp.pi, _onp.e, _onp.inf, _onp.nan, _onp.euler_gamma

from . import _methods  # noqa: E402
_methods.install(globals())

__version__ = "0.1.0"
__array_api_version__ = "2024.12"
del _n, _v

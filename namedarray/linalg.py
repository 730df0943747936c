"""``numpy.linalg`` over NamedArrays: named axes are batch axes (mapped over).

>>> import namedarray as np
>>> a = np.stack([np.eye(2), 2 * np.eye(2)], axis="b")
>>> np.linalg.det(a).named_shape
{'b': 2}
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ._dispatch import wrap

LinAlgError = onp.linalg.LinAlgError

_NAMES = [n for n in dir(onp.linalg) if not n.startswith("_") and callable(
    getattr(onp.linalg, n)) and not isinstance(getattr(onp.linalg, n), type)
    and hasattr(jnp.linalg, n)]
globals().update({n: wrap(getattr(jnp.linalg, n), n) for n in _NAMES})
__all__ = _NAMES + ["LinAlgError"]

"""namedarray: NumPy with named axes, on JAX.

``import namedarray as np`` runs NumPy programs; names on axes say what a
reduction or contraction is over, and named operations are collectives, so
the same line runs on one device or sharded over a mesh (see docs/index.md).

>>> import namedarray as np
>>> x = np.ones((4, 3)).tag("batch", None)
>>> x.sum(axis="batch")
array([4., 4., 4.])

This module is the public namespace only: the layers live in ``core/``,
``placement.py``, ``parallel/``, ``frontend/`` (with ``linalg``, ``fft``,
``random``) and ``mapping/`` (docs/design.md §3).
"""
from __future__ import annotations

from . import fft, lib, linalg, nn, parallel, random, testing, typing
from ._array_api import __array_namespace_info__
from .core.config import dtype_defaults, set_dtype_defaults
from .frontend import char, emath, ma, rec, strings
from .frontend.autodiff import grad, value_and_grad
from .frontend.scan import fold, scan
from .namespace import *  # noqa: F401,F403  (NumPy's namespace)
from .mapping import nmap, reshard, shard

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

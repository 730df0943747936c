"""``numpy.ma``: NumPy's own masked arrays (a mask over host data, a class
NumPy's functions answer for, ``engines/numpy_data.py``).  NamedArray arguments are
given to NumPy as NumPy arrays; results are NumPy's.

>>> import namedarray as np
>>> a = np.ma.arange(3)
>>> a[1] = np.ma.masked
>>> np.ma.concatenate([a, np.arange(2)]).mask
array([False,  True, False, False, False])
>>> np.ma.masked_less(np.arange(3), 1).sum()
np.int64(3)
"""
from __future__ import annotations

import numpy as onp

from .engines.numpy_data import numpy_module

_NAMES = numpy_module(onp.ma, __name__)
__all__ = sorted(_NAMES)


def __getattr__(name):
    """NumPy's ``numpy.ma`` names, read from ``_NAMES`` (PEP 562)."""
    try:
        return _NAMES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__():
    return __all__

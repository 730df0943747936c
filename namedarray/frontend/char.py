"""``numpy.char``: NumPy's own functions, for string arrays (data JAX cannot
hold, so NumPy's own arrays on the host, DESIGN §6c).  NamedArray arguments
are given to NumPy as NumPy arrays; results are NumPy's.

>>> import namedarray as np
>>> np.char.upper(["a", "b"])
array(['A', 'B'], dtype='<U1')
>>> "upper" in dir(np.char)
True
"""
from __future__ import annotations

import numpy as onp

from .engines.numpy_data import numpy_module

_NAMES = numpy_module(onp.char, __name__)
__all__ = sorted(_NAMES)


def __getattr__(name):
    """NumPy's ``numpy.char`` names, read from ``_NAMES`` (PEP 562)."""
    try:
        return _NAMES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__():
    return __all__

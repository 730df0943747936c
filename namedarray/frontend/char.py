"""``numpy.char``: every name of NumPy's module, each raising the one
``TypeError`` for data namedarray cannot hold (string arrays have no JAX dtype;
``np.asarray`` of such data raises it too).  Keep such data in NumPy and
convert numeric results with ``np.asarray``.

>>> import namedarray as np
>>> np.char.upper(["a", "b"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
TypeError: char.upper: numpy.char (string arrays) is not supported: namedarray arrays hold ...
>>> "upper" in dir(np.char)
True
"""
from __future__ import annotations

import numpy as onp

from .engines.args import unsupported_module

_NAMES = unsupported_module(onp.char, "string arrays", __name__)
globals().update(_NAMES)
__all__ = sorted(_NAMES)


def __dir__():
    return __all__

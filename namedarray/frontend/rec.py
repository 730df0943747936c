"""``numpy.rec``: every name of NumPy's module, each raising the one
``TypeError`` for data namedarray cannot hold (record arrays have no JAX dtype;
``np.asarray`` of such data raises it too).  Keep such data in NumPy and
convert numeric results with ``np.asarray``.

>>> import namedarray as np
>>> np.rec.fromarrays([[1, 2], [3.0, 4.0]], names="a,b")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
TypeError: rec.fromarrays: numpy.rec (record arrays) is not supported: namedarray arrays hold ...
>>> "fromarrays" in dir(np.rec)
True
"""
from __future__ import annotations

import numpy as onp

from .engines.args import unsupported_module

_NAMES = unsupported_module(onp.rec, "record arrays", __name__)
globals().update(_NAMES)
__all__ = sorted(_NAMES)


def __dir__():
    return __all__

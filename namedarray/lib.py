"""``numpy.lib``'s public submodules that NumPy programs reach for:
``stride_tricks`` and ``scimath`` (also ``namedarray.emath``).

>>> import namedarray as np
>>> np.lib.stride_tricks.sliding_window_view(np.arange(4.0), 2).shape
(3, 2)
"""
from __future__ import annotations

from .frontend import emath as scimath, stride_tricks

__all__ = ["scimath", "stride_tricks"]

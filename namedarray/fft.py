"""``numpy.fft`` over NamedArrays: named axes are mapped over.

>>> import namedarray as np
>>> np.fft.fft(np.ones(4)).real
array([4., 0., 0., 0.])
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ._dispatch import wrap

_NAMES = [n for n in dir(onp.fft) if not n.startswith("_") and callable(
    getattr(onp.fft, n)) and hasattr(jnp.fft, n)]
globals().update({n: wrap(getattr(jnp.fft, n), n, named="keep") for n in _NAMES})
__all__ = _NAMES

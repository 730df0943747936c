"""Window functions (NumPy's ``bartlett``, ``blackman``, ``hamming``,
``hanning``, ``kaiser``), with NumPy's empty window for ``M < 1``.

>>> import namedarray as np
>>> np.hanning(3), np.hanning(0).dtype
(array([0., 1., 0.]), dtype('float64'))
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import positional


def _window(name):
    jfn = getattr(jnp, name)

    def f(M, *args):
        if M < 1:       # NumPy: an empty float64 window
            return positional(jnp.zeros(0, onp.float64))
        return positional(jfn(M, *args))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``: ``M < 1`` gives an empty window, as in NumPy."
    return f


# jax.numpy: M < 1 is not NumPy's empty float64 window
bartlett, blackman, hamming, hanning = (_window(n) for n in ("bartlett", "blackman",
                                                              "hamming", "hanning"))


_kaiser = _window("kaiser")


def kaiser(M, beta):
    """``numpy.kaiser``: ``M < 1`` gives an empty window, as in NumPy."""
    return _kaiser(M, beta)


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]

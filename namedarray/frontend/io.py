"""Input and output through NumPy's own readers and writers (on the host).

>>> import io
>>> import namedarray as np
>>> f = io.BytesIO()
>>> np.save(f, np.arange(3)); _ = f.seek(0)
>>> np.load(f)
array([0, 1, 2])
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import positional
from .creation import asarray


def save(file, arr, allow_pickle=True):
    onp.save(file, onp.asarray(asarray(arr)), allow_pickle=allow_pickle)


def savez(file, *args, **kwds):
    onp.savez(file, *[onp.asarray(asarray(a)) for a in args],
              **{k: onp.asarray(asarray(v)) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    onp.savez_compressed(file, *[onp.asarray(asarray(a)) for a in args],
                         **{k: onp.asarray(asarray(v)) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kw):
    onp.savetxt(fname, onp.asarray(asarray(X)), *args, **kw)


def _from_numpy(fn):
    def f(*args, **kw):
        r = fn(*args, **kw)
        return positional(jnp.asarray(r)) if isinstance(r, onp.ndarray) else r
    f.__name__ = f.__qualname__ = fn.__name__
    f.__doc__ = f"``numpy.{fn.__name__}``; the result is a NamedArray."
    return f


load = _from_numpy(onp.load)


loadtxt = _from_numpy(onp.loadtxt)


genfromtxt = _from_numpy(onp.genfromtxt)


fromregex = _from_numpy(onp.fromregex)


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

"""Introspection and conversion to text: ``shape``, ``ndim``, ``size`` (of the
positional axes), ``array2string``, ``real_if_close``, ...

>>> import namedarray as np
>>> x = np.ones((2, 3)).tag(None, "b")
>>> np.shape(x), np.ndim(x), np.size(x)
((2,), 1, 2)
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, operand, rewrap
from .creation import asarray


def shape(a):
    """``numpy.shape``: the positional shape."""
    x = operand(a)
    return x.shape if isinstance(x, NamedArray) else ()


def isscalar(element):
    """``numpy.isscalar``; a 0-d positional array counts as a scalar too (what a
    full reduction or ``x[i]`` of a vector returns: NumPy's scalars).

    >>> import namedarray as np
    >>> np.isscalar(np.sum(np.arange(3.0))), np.isscalar(3), np.isscalar(np.ones(1))
    (True, True, False)
    """
    if isinstance(element, NamedArray):
        return not element.dims and not element.mapped
    return onp.isscalar(element)


def ndim(a):
    """``numpy.ndim``: the number of positional axes."""
    return len(shape(a))


def size(a, axis=None):
    """``numpy.size``: positional elements."""
    s = shape(a)
    if axis is None:
        return int(onp.prod(s))
    return s[axis]


def real_if_close(a, tol=100):
    """``numpy.real_if_close``."""
    x = asarray(a)
    if not jnp.iscomplexobj(x.data):
        return x
    eps = onp.finfo(x.dtype).eps * (tol if tol > 1 else 1)
    if bool(jnp.all(jnp.abs(x.data.imag) < eps)):
        return rewrap(x, x.data.real)
    return x


def isfortran(a):
    return False


def array2string(a, *args, **kw):
    return onp.array2string(onp.asarray(asarray(a)), *args, **kw)


def array_repr(a, *args, **kw):
    return onp.array_repr(onp.asarray(asarray(a)), *args, **kw)


def array_str(a, *args, **kw):
    return onp.array_str(onp.asarray(asarray(a)), *args, **kw)


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

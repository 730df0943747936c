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

from ..core import config
from ..core.array import NamedArray, operand, rewrap
from .creation import asarray


def shape(a):
    """``numpy.shape``: the positional shape."""
    x = operand(a)
    return x.shape if isinstance(x, NamedArray) else ()


def ndim(a):
    """``numpy.ndim``: the number of positional axes."""
    return len(shape(a))


def size(a, axis=None):
    """``numpy.size``: positional elements."""
    s = shape(a)
    if axis is None:
        return int(onp.prod(s))
    return s[axis]


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe"):
    """``numpy.astype``: elementwise conversion that keeps the array's layout
    (one ``convert``, never a transpose).  ``dtype`` may be a NumPy dtype, an
    ML dtype (``np.bfloat16``, ``jnp.float8_e4m3fn``, ...) or its name.

    >>> import namedarray as np
    >>> np.astype(np.arange(3.0), "bfloat16")
    array([0, 1, 2], dtype=bfloat16)
    """
    a = asarray(x)
    try:
        dt = onp.dtype(dtype)
    except TypeError:
        raise TypeError(f"astype: {dtype!r} is not a dtype") from None
    if not config.holds(dt):
        raise TypeError(f"astype: cannot convert to dtype {dt}; namedarray holds "
                        "numeric, bool and ML (bfloat16, float8_*) data only")
    if not onp.can_cast(a.dtype, dt, casting):
        raise TypeError(f"astype: cannot cast array data from {a.dtype} to {dt} "
                        f"according to the rule {casting!r}")
    if a.dtype == dt and not copy:
        return a
    return rewrap(a, a.data.astype(dt))


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

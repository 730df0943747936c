"""``numpy.emath`` (``numpy.lib.scimath``): functions whose result is complex
where the real function leaves its domain (``sqrt(-1) == 1j``).

As in NumPy, the result dtype depends on the values: a real input with an
element outside the real domain becomes complex (``complex64`` for the narrow
dtypes NumPy names, ``complex128`` otherwise).  That decision is read from
the data, so a real input being traced by ``jax.jit`` raises ``TypeError``
(cast it to complex first); complex inputs work everywhere.

>>> import namedarray as np
>>> np.emath.sqrt(np.array([4.0, -1.0]))
array([2.+0.j, 0.+1.j])
>>> np.emath.log10(100.0)
np.float64(2.0)
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp

from .. import parallel
from .creation import asarray
from .elementwise import UFUNCS

# NumPy's scimath widens these to complex64, everything else to complex128
_NARROW = {onp.dtype(t) for t in ("float32", "int8", "int16", "uint8", "uint16")}


def _any(fn, mask):
    r = parallel.pany(mask, tuple(mask.named_shape)) if mask.named_shape else mask
    if isinstance(r.data, jax.core.Tracer):
        raise TypeError(f"emath.{fn}: whether the result is complex depends on the values, "
                        "which are not known while tracing (jax.jit, nmap); cast the input "
                        "to a complex dtype first")
    return bool(jnp.any(r.data))


def _complex(fn, x, outside):
    """``x`` as an array, complex where ``outside(x)`` holds for some element."""
    x = asarray(x)
    if x.dtype.kind == "c" or not _any(fn, outside(x)):
        return x
    return x.astype(onp.complex64 if x.dtype in _NARROW else onp.complex128)


def _negative(x):
    return UFUNCS["less"](x, 0)


def _beyond_one(x):
    return UFUNCS["greater"](UFUNCS["absolute"](x), 1)


def _unary(name, outside, ufunc=None):
    uf = UFUNCS[ufunc or name]

    def f(x):
        return uf(_complex(name, x, outside))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.emath.{name}``: ``numpy.{ufunc or name}``, complex where the "
                 "input leaves the real domain.")
    return f


sqrt = _unary("sqrt", _negative)
log = _unary("log", _negative)
log2 = _unary("log2", _negative)
log10 = _unary("log10", _negative)
arccos = _unary("arccos", _beyond_one)
arcsin = _unary("arcsin", _beyond_one)
arctanh = _unary("arctanh", _beyond_one)


def logn(n, x):
    """``numpy.emath.logn``: the logarithm of ``x`` to base ``n``.

    >>> import namedarray as np
    >>> np.emath.logn(2, [4, 8])
    array([2., 3.])
    """
    return UFUNCS["true_divide"](log(x), log(n))


def power(x, p):
    """``numpy.emath.power``: ``x ** p``, complex for negative ``x``; a negative
    integer ``p`` gives a float result.

    >>> import namedarray as np
    >>> np.emath.power([2, 4], -1)
    array([0.5 , 0.25])
    """
    x = _complex("power", x, _negative)
    p = asarray(p)
    if p.dtype.kind in "iu" and _any("power", _negative(p)):
        p = UFUNCS["multiply"](p, 1.0)
    return UFUNCS["power"](x, p)


__all__ = ["arccos", "arcsin", "arctanh", "log", "log10", "log2", "logn", "power", "sqrt"]

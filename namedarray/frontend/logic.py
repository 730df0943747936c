"""Truth of whole arrays: ``allclose``, ``array_equal``, ``array_equiv`` (and
``isclose``, ``isneginf``, ``isposinf``, ``isreal``, elementwise).

As in NumPy, the whole-array tests return a Python ``bool``: every element
counts, named axes included.  Under ``jax.jit`` (or inside ``nmap``) the
answer is not known while tracing, so they return the 0-d bool array instead,
which ``jax.lax.cond`` and ``where`` take.  A Python int no 64-bit integer
holds is taken as NumPy takes it: compared exactly (``array_equal``), or as a
float (``isclose``).

>>> import namedarray as np
>>> np.allclose(np.arange(3.0), [0, 1, 2.0000001])
True
>>> np.array_equal(np.arange(3).tag("i"), np.arange(3).tag("i"))
True
>>> np.array_equiv(np.ones((2, 3)), np.ones(3))
True
"""
from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from .. import parallel
from ..core.array import NamedArray, new
from .creation import asarray
from .elementwise import UFUNCS
from .engines import host
from .engines.declare import _checked, _real_only
from .engines.select import result_type

def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.isclose``: ``|a - b| <= atol + rtol * |b|`` elementwise (aligned
    by name), NumPy's algorithm on namedarray's ufuncs: NumPy 2's scalar rules
    (a Python float next to a float32 array is a float32), ``atol``/``rtol``
    arrays broadcast, and NumPy's warning for a tolerance that is not finite."""
    # NumPy makes ``b`` inexact (a Python int a float), and ``a``'s arithmetic
    # with it is then inexact too: an int too big for an array is a float of
    # the other operand's inexact dtype (float16's inf for 2**64)
    if _beyond_64_bits(a) or _beyond_64_bits(b):
        other = b if _beyond_64_bits(a) else a
        dt = result_type(0.0 if _beyond_64_bits(other) else asarray(other), 0.0)
        with onp.errstate(over="ignore"):
            a, b = (onp.asarray(float(v), dt) if _beyond_64_bits(v) else v for v in (a, b))
    if all(type(v) is not NamedArray and isinstance(v, (int, float, complex, onp.generic))
           for v in (a, b)):
        # two Python or NumPy scalars (not namedarray's, which pass isinstance as
        # NumPy's do): NumPy's bool scalar (its own answer, on the host)
        return onp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    r = host.whole("isclose", (a, b), {"rtol": rtol, "atol": atol, "equal_nan": equal_nan})
    if r is not None:       # data living on the host: NumPy's own (no compilation)
        return r
    x, y, atol, rtol = (v if type(v) is not NamedArray and isinstance(
        v, (int, float, complex)) else asarray(v) for v in (a, b, atol, rtol))
    shapes = [v.shape for v in (x, y, atol, rtol) if isinstance(v, NamedArray)]
    try:
        onp.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"isclose: operands could not be broadcast together with "
                         f"shapes {' '.join(map(str, shapes))}") from None
    if isinstance(y, NamedArray):
        y = y.astype(result_type(y, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    _check_tolerances(atol, rtol)
    u = UFUNCS
    with onp.errstate(invalid="ignore"):    # (Python operators: Python scalars stay so)
        r = u["less_equal"](abs(x - y), atol + rtol * abs(y)) & u["isfinite"](y) | (
            u["equal"](x, y))
        if equal_nan:
            r = r | (u["isnan"](x) & u["isnan"](y))
    return r[()] if r.ndim == 0 and not r.names else r


def _check_tolerances(atol, rtol):
    """NumPy's warning (or error, as ``errstate(invalid=)`` says) for a
    tolerance that is not finite (values known now only)."""
    hs = []
    for v in (atol, rtol):
        d = v.data if isinstance(v, NamedArray) else v
        if isinstance(d, jax.core.Tracer):
            return
        hs.append(onp.asarray(d))
    if all(onp.all(onp.isfinite(h)) for h in hs):
        return
    msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    mode = onp.geterr()["invalid"]
    if mode == "warn":
        warnings.warn(f"isclose: {msg}", RuntimeWarning, stacklevel=3)
    elif mode == "raise":
        raise FloatingPointError(f"isclose: {msg}")
    elif mode == "print":
        print(msg)


def _beyond_64_bits(v) -> bool:
    return type(v) is int and not -2**63 <= v < 2**64


def _equal_to_int(x: NamedArray, v: int):
    """``x == v`` for a Python int no integer dtype holds, exactly (NumPy
    compares through Python objects): only a float equal to ``v`` is."""
    if x.dtype.kind not in "fc" or float(v) != v:
        return UFUNCS["logical_and"](x, False)
    return UFUNCS["equal"](x.astype(onp.result_type(x.dtype, onp.float64)), float(v))


def _equal(a1, a2):
    """The elementwise equality and the two operands as arrays."""
    if _beyond_64_bits(a1) and _beyond_64_bits(a2):
        return asarray(a1 == a2), asarray(0), asarray(0)
    if _beyond_64_bits(a2):
        a1, a2 = a2, a1
    if _beyond_64_bits(a1):
        y = asarray(a2)
        return _equal_to_int(y, a1), asarray(0), y
    x, y = asarray(a1), asarray(a2)
    return UFUNCS["equal"](x, y), x, y


def _whole(r: NamedArray):
    """``r`` reduced over all its axes, positional and named: a Python bool, or
    the 0-d array when it is being traced."""
    t = parallel.pall(r, tuple(r.named_shape)) if r.named_shape else r
    t = t if t.ndim == 0 else new(jnp.all(t.data), ())
    if isinstance(t.data, jax.core.Tracer):
        return t
    return bool(t.data)


def _nan_equal(x, y, eq):
    if x.dtype.kind not in "fc" and y.dtype.kind not in "fc":
        return eq
    both = UFUNCS["logical_and"](UFUNCS["isnan"](x), UFUNCS["isnan"](y))
    return UFUNCS["logical_or"](eq, both)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.allclose``: whether every element of ``a`` is close to ``b``'s
    (a Python bool; aligned by name)."""
    return _whole(asarray(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """``numpy.array_equal``: same shape (and named shape) and elements (a
    Python bool)."""
    try:
        x, y = (asarray(0 if _beyond_64_bits(v) else v) for v in (a1, a2))
    except (TypeError, ValueError):
        return False
    if x.shape != y.shape or x.named_shape != y.named_shape:
        return False
    eq, x, y = _equal(a1, a2)
    return _whole(_nan_equal(x, y, eq) if equal_nan else eq)


def array_equiv(a1, a2):
    """``numpy.array_equiv``: whether the arrays broadcast to one shape with equal
    elements (a Python bool; a name with two sizes does not broadcast)."""
    try:
        eq = _equal(a1, a2)[0]
    except (TypeError, ValueError):
        return False
    return _whole(eq)


_isneginf = _checked("isneginf", _real_only("isneginf"))


_isposinf = _checked("isposinf", _real_only("isposinf"))


# jax.numpy: complex data accepted (NumPy: TypeError); out= by keyword only
def isneginf(x, out=None):
    """``numpy.isneginf``; ``out`` may be given by position as in NumPy."""
    return _isneginf(x, out=out)


def isposinf(x, out=None):
    """``numpy.isposinf``; ``out`` may be given by position as in NumPy."""
    return _isposinf(x, out=out)


__all__ = ["allclose", "array_equal", "array_equiv", "isclose", "isneginf", "isposinf"]


def isreal(x):
    """``numpy.isreal``: ``imag(x) == 0`` as NumPy forms it, so of NumPy's
    kind: a Python number's own ``.imag`` compared (a Python ``bool``:
    ``np.isreal(2.0)`` is ``True``), else the array's (of a scalar or a 0-d
    array, NumPy's scalar).

    >>> import namedarray as np
    >>> np.isreal(2.0), np.isreal(np.asarray([1, 1j]))
    (True, array([ True, False]))
    """
    if type(x) in (int, float, complex, bool):
        return x.imag == 0
    return UFUNCS["equal"](asarray(x).imag, 0)

"""Elementwise functions: one table of NumPy ufuncs over the ``ufunc`` engine.

Each NumPy ufunc that ``jax.numpy`` implements becomes a
``namedarray.ufunc`` (``frontend/engines/ufunc.py``): NumPy's dtype
resolution, alignment of named axes by name, broadcasting of positional axes
by NumPy's rules.

>>> import namedarray as np
>>> x = np.arange(3.0).tag("i")
>>> y = np.arange(2.0).tag("j")
>>> (x * y).named_shape
{'i': 3, 'j': 2}
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import operand
from ..core.align import align_plan
from .engines.select import result_type, where
from .engines.ufunc import ufunc
from .engines.loops import complex_quotient, runtime_zero, special

# NumPy ufuncs with signatures (matmul, vecdot, ...) live in namedarray/einsum.
_GUFUNCS = {"matmul", "vecdot", "matvec", "vecmat", "isnat"}
# integer x // 0, x % 0: NumPy gives 0 (with a warning); XLA gives garbage
_INT_DIV = {"floor_divide", "remainder", "mod", "fmod", "divmod"}


class _SafeIntDiv:
    """``jnp`` division-like ufunc whose integer results are 0 where y == 0
    (one compiled computation)."""

    def __init__(self, jfn):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._safe = jax.jit(self._impl)

    def _impl(self, x, y):
        zero = y == 0
        r = self._f(x, jnp.where(zero, jnp.ones_like(y), y))
        if isinstance(r, tuple):
            return tuple(jnp.where(zero, jnp.zeros_like(v), v) for v in r)
        return jnp.where(zero, jnp.zeros_like(r), r)

    def __call__(self, x, y):
        x, y = jnp.asarray(x), jnp.asarray(y)
        if not jnp.issubdtype(jnp.result_type(x, y), jnp.integer):
            return self._f(x, y)
        return self._safe(x, y)

    def __getattr__(self, k):
        return getattr(self._f, k)


class _UnsignedGcd:
    """``jnp.gcd``/``jnp.lcm`` computed on the magnitudes as unsigned integers:
    ``abs`` of a signed minimum (``-128`` in int8) is negative, and the
    Euclidean loop on it never ends.  Results wrap back to the signed dtype as
    NumPy's do (``gcd(int8(-128), 0) == -128``).  (``reduce``/``accumulate``:
    the ufunc engine's fold, as for every binary ufunc.)"""

    def __init__(self, jfn):
        self._f = jfn
        self.__name__ = jfn.__name__

    def __call__(self, x, y):
        x, y = jnp.asarray(x), jnp.asarray(y)
        dt = jnp.result_type(x, y)
        if not jnp.issubdtype(dt, jnp.signedinteger):
            return self._f(x, y)
        u = jnp.dtype(f"uint{jnp.dtype(dt).itemsize * 8}")
        r = self._f(jnp.abs(x.astype(dt)).astype(u), jnp.abs(y.astype(dt)).astype(u))
        return r.astype(dt)

    def __getattr__(self, k):
        return getattr(self._f, k)


class _IntPower:
    """``jnp.power`` whose integer-integer case multiplies over every bit of the
    exponent (``jax.numpy`` stops at 6 bits, so exponents from 64 on were
    wrong), wrapping on overflow as NumPy does.  A negative exponent (reached
    only under ``jax.jit``, eager calls raise) gives 0, or ±1 for bases ±1."""

    def __init__(self, jfn):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._int = jax.jit(self._impl)

    @staticmethod
    def _impl(x, y):
        dt = jnp.result_type(x, y)
        b, e = jnp.broadcast_arrays(x.astype(dt), y.astype(dt))
        acc = jnp.ones_like(b)
        neg = e < 0 if jnp.issubdtype(dt, jnp.signedinteger) else jnp.zeros_like(e, bool)
        e = jnp.where(neg, 0, e)
        for _ in range(jnp.dtype(dt).itemsize * 8):
            acc = jnp.where(e & 1, acc * b, acc)
            b = b * b
            e = e >> 1
        one = jnp.ones_like(acc)
        inv = jnp.where(x == 1, one, jnp.where(x == -1, jnp.where(y & 1, -one, one),
                                               jnp.zeros_like(acc)))
        return jnp.where(neg, inv, acc)

    def __call__(self, x, y):
        if type(y) is int and 0 <= y < 2 ** 31 and hasattr(x, "dtype") and \
                jnp.issubdtype(x.dtype, jnp.integer):
            return jax.lax.integer_pow(x, y)      # exact square-and-multiply
        if type(y) is int and hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jnp.inexact):
            return self._f(x, y)      # jnp.power: integer_pow for a Python int, as jnp's
        x, y = jnp.asarray(x), jnp.asarray(y)
        if jnp.issubdtype(jnp.result_type(x, y), jnp.integer):
            return self._int(x, y)
        return self._f(x, y)

    def __getattr__(self, k):
        return getattr(self._f, k)


@jax.custom_batching.custom_vmap
def _quotient(x, y):
    """``lax.div`` of two operands of one shape and dtype that XLA divides
    as given: both reach the division through an optimization barrier, which
    hides a broadcast, a constant, a ``sqrt``, ``exp``, ``pow`` or a division
    on either side from XLA's algebraic simplifier (``x / bcast(y)`` would
    become ``x * bcast(1 / y)``, ``x / sqrt(y)`` ``x * rsqrt(y)``, ``(a / b) /
    c`` ``a / (b * c)``).  The barrier is taken out after the simplifier and
    before fusion: the compiled loop is the plain division."""
    x, y = jax.lax.optimization_barrier((x, y))
    return jax.lax.div(x, y)


@_quotient.def_vmap
def _quotient_vmap(size, batched, x, y):
    # an unbatched operand is broadcast before the barrier (jax's own rule would
    # broadcast it after the barrier, where XLA sees it)
    x, y = (v if b else jnp.broadcast_to(v, (size,) + v.shape)
            for v, b in zip((x, y), batched))
    return _quotient(x, y), True


@jax.custom_jvp
def _barrier_div(x, y):
    """``_quotient`` of two operands of one dtype and rank, broadcast."""
    shape = jnp.broadcast_shapes(x.shape, y.shape)
    return _quotient(jnp.broadcast_to(x, shape), jnp.broadcast_to(y, shape))


# derivatives as JAX's own division has them, so a gradient compiles to the same
# graph as with jnp.divide (NumPy defines no derivative bits to keep)
_barrier_div.defjvps(
    lambda g, q, x, y: jax.lax.div(g, y),
    lambda g, q, x, y: jax.lax.mul(jax.lax.mul(jax.lax.neg(g), x),
                                   jax.lax.integer_pow(y, -2)))


@jax.custom_jvp
def _smith_div(x, y, zero):
    """``complex_quotient`` of two operands of one shape and complex dtype."""
    return complex_quotient(x, y, zero)


# derivatives as JAX's own division has them (the branches' would be NaN where
# a part of ``y`` is zero)
_smith_div.defjvps(
    lambda g, q, x, y, zero: jax.lax.div(g, y),
    lambda g, q, x, y, zero: jax.lax.mul(jax.lax.mul(jax.lax.neg(g), x),
                                         jax.lax.integer_pow(y, -2)),
    None)


def exact_divide(x, y, zero=None):
    """``x / y`` as NumPy divides (integers as ``jnp.true_divide``), in the
    operands' result dtype: real floating operands by ``_barrier_div``,
    complex ones by NumPy's loop (``complex_quotient``; its products rounded
    apart given a runtime ``zero``).  Under JAX's dtype defaults, JAX's
    division (``jnp.true_divide``: what ``jax.numpy`` code compiles to)."""
    dt = jnp.result_type(x, y)
    if not jnp.issubdtype(dt, jnp.inexact) or config._state["mode"] != "numpy":
        return jnp.true_divide(x, y)
    x, y = jnp.asarray(x, dt), jnp.asarray(y, dt)
    if jnp.issubdtype(dt, jnp.complexfloating):
        x, y = jnp.broadcast_arrays(x, y)
        return _smith_div(x, y, jnp.zeros((), jnp.int32) if zero is None else zero)
    nd = max(x.ndim, y.ndim)
    x = x.reshape((1,) * (nd - x.ndim) + x.shape)
    y = y.reshape((1,) * (nd - y.ndim) + y.shape)
    return _barrier_div(x, y)


_SCALARS = (bool, int, float, complex)


class _ExactDivide:
    """``jnp.true_divide`` that divides as NumPy does: XLA rewrites a real
    division by a broadcast or a constant (``x / 3.0``, a row over a matrix, a
    literal under ``jax.jit``), by a square root or an exponential, or of a
    quotient, into a multiplication by a reciprocal, 1 ulp off on about a
    third of the values, and divides complex numbers by another algorithm than
    NumPy's (``(inf+infj) / 1j`` is ``inf-infj`` there, ``nan+nanj`` in
    NumPy).  Inexact operands go through ``exact_divide``: no extra operation
    per element for real ones, eager or compiled."""

    def __init__(self, jfn):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._real = compiled = jax.jit(exact_divide)
        self._complex = lambda x, y: compiled(x, y, runtime_zero(x, y))
        self._by_types: dict = {}

    def for_types(self, types):
        """The function that ``__call__`` runs on operands of ``types`` (dtypes,
        or the types of Python scalars); under JAX's dtype defaults,
        ``jnp.true_divide`` itself (JAX's division, as ``jax.numpy``'s)."""
        if config._state["mode"] != "numpy":
            return self._f
        key = tuple(types)
        fn = self._by_types.get(key)
        if fn is None:
            dt = jnp.result_type(*key)
            fn = self._by_types[key] = (
                self._real if jnp.issubdtype(dt, jnp.floating) else
                self._complex if jnp.issubdtype(dt, jnp.complexfloating) else self._f)
        return fn

    def __call__(self, x, y):
        tx, ty = getattr(x, "dtype", None), getattr(y, "dtype", None)
        tx = type(x) if tx is None else tx
        ty = type(y) if ty is None else ty
        if (tx in _SCALARS or isinstance(tx, onp.dtype)) and (
                ty in _SCALARS or isinstance(ty, onp.dtype)):
            return self.for_types((tx, ty))(x, y)
        return self.for_types((jnp.result_type(x, y),))(x, y)

    def __getattr__(self, k):
        return getattr(self._f, k)


def _make(name):
    jfn = special(name, getattr(jnp, name))
    if name in ("divide", "true_divide"):
        jfn = _ExactDivide(jfn)
    elif name in _INT_DIV:
        jfn = _SafeIntDiv(jfn)
    elif name in ("gcd", "lcm"):
        jfn = _UnsignedGcd(jfn)
    elif name in ("power", "pow"):
        jfn = _IntPower(jfn)
    return ufunc(name, jfn, getattr(onp, name))


# NumPy's ufuncs that jax.numpy has, one row each (the gufuncs, _GUFUNCS, are
# namedarray/einsum's)
absolute = _make("absolute")
add = _make("add")
arccos = _make("arccos")
arccosh = _make("arccosh")
arcsin = _make("arcsin")
arcsinh = _make("arcsinh")
arctan = _make("arctan")
arctan2 = _make("arctan2")
arctanh = _make("arctanh")
bitwise_and = _make("bitwise_and")
bitwise_count = _make("bitwise_count")
bitwise_or = _make("bitwise_or")
bitwise_xor = _make("bitwise_xor")
cbrt = _make("cbrt")
ceil = _make("ceil")
conjugate = _make("conjugate")
copysign = _make("copysign")
cos = _make("cos")
cosh = _make("cosh")
deg2rad = _make("deg2rad")
degrees = _make("degrees")
divide = _make("divide")
divmod = _make("divmod")
equal = _make("equal")
exp = _make("exp")
exp2 = _make("exp2")
expm1 = _make("expm1")
fabs = _make("fabs")
float_power = _make("float_power")
floor = _make("floor")
floor_divide = _make("floor_divide")
fmax = _make("fmax")
fmin = _make("fmin")
fmod = _make("fmod")
frexp = _make("frexp")
gcd = _make("gcd")
greater = _make("greater")
greater_equal = _make("greater_equal")
heaviside = _make("heaviside")
hypot = _make("hypot")
invert = _make("invert")
isfinite = _make("isfinite")
isinf = _make("isinf")
isnan = _make("isnan")
lcm = _make("lcm")
ldexp = _make("ldexp")
left_shift = _make("left_shift")
less = _make("less")
less_equal = _make("less_equal")
log = _make("log")
log10 = _make("log10")
log1p = _make("log1p")
log2 = _make("log2")
logaddexp = _make("logaddexp")
logaddexp2 = _make("logaddexp2")
logical_and = _make("logical_and")
logical_not = _make("logical_not")
logical_or = _make("logical_or")
logical_xor = _make("logical_xor")
maximum = _make("maximum")
minimum = _make("minimum")
modf = _make("modf")
multiply = _make("multiply")
negative = _make("negative")
nextafter = _make("nextafter")
not_equal = _make("not_equal")
positive = _make("positive")
power = _make("power")
rad2deg = _make("rad2deg")
radians = _make("radians")
reciprocal = _make("reciprocal")
remainder = _make("remainder")
right_shift = _make("right_shift")
rint = _make("rint")
sign = _make("sign")
signbit = _make("signbit")
sin = _make("sin")
sinh = _make("sinh")
spacing = _make("spacing")
sqrt = _make("sqrt")
square = _make("square")
subtract = _make("subtract")
tan = _make("tan")
tanh = _make("tanh")
trunc = _make("trunc")

# NumPy's aliases: the same objects, as in NumPy (np.conj is np.conjugate)
abs = absolute
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atan2 = arctan2
atanh = arctanh
bitwise_invert = invert
bitwise_left_shift = left_shift
bitwise_not = invert
bitwise_right_shift = right_shift
conj = conjugate
mod = remainder
pow = power
true_divide = divide

#: every ufunc above by each of its names, aliases included
UFUNCS = {name: f for name, f in sorted(globals().items())
          if isinstance(f, ufunc) and not name.startswith("_")}


def clip(a, min=onp._NoValue, max=onp._NoValue, out=None, *, a_min=onp._NoValue,
         a_max=onp._NoValue, **kwargs):
    """``numpy.clip``: ``minimum(maximum(a, min), max)`` with NumPy dtypes.

    The signature is the Array API's, ``clip(x, min, max)``: a single
    positional bound is ``min`` (``clip(x, 0)``, which NumPy refuses, asking
    for ``a_max``). NumPy's ``a_min``/``a_max`` keywords work as in NumPy
    (both or neither, never with ``min``/``max``); ``kwargs`` are the ufunc
    keywords (``casting``, ``dtype``, ``where``, ...), as NumPy's clip ufunc
    takes them.

    >>> import namedarray as np
    >>> np.clip(np.arange(5), 1, 3)
    array([1, 1, 2, 3, 3])
    >>> np.clip(np.arange(5), max=2)
    array([0, 1, 2, 2, 2])
    """
    no = onp._NoValue
    if a_min is no and a_max is no:
        lo, hi = (None if min is no else min), (None if max is no else max)
    elif a_min is no or a_max is no:
        raise TypeError("clip: clip() missing 1 required positional argument: "
                        f"'{'a_min' if a_min is no else 'a_max'}'")
    elif min is not no or max is not no:
        raise ValueError("clip: Passing `min` or `max` keyword argument when `a_min` and "
                         "`a_max` are provided is forbidden.")
    else:
        lo, hi = a_min, a_max
    r = operand(a)
    if lo is None and hi is None and getattr(r, "dtype", None) == onp.bool_:
        # NumPy clips without bounds by its `positive` ufunc, which has no bool loop
        raise TypeError("clip: bool arrays cannot be clipped without a bound (NumPy's "
                        "'positive' has no bool loop)")
    kind = onp.dtype(getattr(r, "dtype", onp.float64)).kind
    if kind in "iu":     # a Python int bound beyond the dtype on the side that
        info = onp.iinfo(r.dtype)   # clips nothing is dropped, as NumPy drops it
        lo = None if type(lo) is int and lo < info.min else lo
        hi = None if type(hi) is int and hi > info.max else hi
    align_plan("clip", [r, lo, hi])    # a name's sizes checked as the user's arguments
    steps = [(UFUNCS[f], v) for f, v in (("maximum", lo), ("minimum", hi)) if v is not None]
    inner = {k: v for k, v in kwargs.items() if k in ("dtype", "casting")}
    try:
        if not steps:
            return UFUNCS["positive"](r, out=out, **kwargs)
        for f, v in steps[:-1]:
            r = f(r, v, **inner)
        f, v = steps[-1]
        return f(r, v, out=out, **kwargs)
    except (TypeError, ValueError) as e:       # the error is clip's
        msg = str(e).split(": ", 1)
        raise type(e)("clip: " + msg[-1 if msg[0] in ("maximum", "minimum", "positive")
                                     else 0]) from None


def fix(x, out=None):
    """``numpy.fix``: round toward zero."""
    return UFUNCS["trunc"](x, out=out)


__all__ = sorted(UFUNCS) + ["UFUNCS", "clip", "fix", "result_type", "where"]

"""NumPy's general mathematical functions that are not ufuncs (NumPy's
``numpy/lib/_function_base_impl.py``: ``gradient``, ``trapezoid``, ``diff``,
``angle``, ``unwrap``, ``i0``, ``interp``, ``piecewise``; and beside them
``convolve``, ``correlate``, ``round``, ``trace``, ``frompyfunc``), each with
NumPy's checks and NumPy's dtypes where ``jax.numpy``'s differ (a comment at
each function says how).

>>> import namedarray as np
>>> np.convolve(np.asarray([1, 2, 3]), np.asarray([0, 1]))
array([0, 1, 2, 3])
>>> np.trapezoid(np.asarray([100, 100], dtype=np.int8))   # int8 sum wraps, as in NumPy
np.float64(-28.0)
"""
from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import NamedArray, positional
from .creation import asarray
from .elementwise import exact_divide
from .engines.args import numpy_args
from .engines.assign import assigned
from .engines.declare import _checked, _decl, _real_only
from .engines.dispatch import DOUBLES, FLOATS
from .engines.generic import generic, wrap
from .manipulation import _inplace


def _by_parts(jfn, conj):
    """``jfn`` (``jax.numpy``'s convolve or correlate) with complex operands as
    four real ones combined as NumPy's complex products are, ``ac - bd`` and
    ``ad + bc`` (XLA's complex convolution takes three real ones, ``c(a + b)``
    ..., whose sum overflows or meets ``0 * inf`` where NumPy's products do not);
    ``conj``: the second operand is conjugated (correlate)."""
    def f(a, v, mode, **kw):
        a, v = jnp.asarray(a), jnp.asarray(v)
        dt = jnp.result_type(a, v)
        if not jnp.issubdtype(dt, jnp.complexfloating):
            return jfn(a, v, mode, **kw)
        a, v = a.astype(dt), v.astype(dt)
        ar, ai, vr, vi = a.real, a.imag, v.real, v.imag
        s = -1 if conj else 1
        re = jfn(ar, vr, mode) - s * jfn(ai, vi, mode)
        im = s * jfn(ar, vi, mode) + jfn(ai, vr, mode)
        return jax.lax.complex(re, im)
    f.__name__ = f.__qualname__ = jfn.__name__
    return f


def _real_points(x, xp, fp, *args, **kw):
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(xp):
        raise TypeError("interp: x and xp must be real (NumPy cannot cast complex data "
                        "to float64 with the rule 'safe'); fp may be complex")
    return (x, xp, fp, *args), kw


_jdiff = numpy_args(jnp.diff, "diff")     # (prepend/append in the common dtype)


def _diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff``: order 0 is ``a`` itself, prepend/append ignored."""
    if n == 0:
        return jnp.asarray(a)
    return _jdiff(a, n, axis, prepend, append)


_diff.__name__ = _diff.__qualname__ = "diff"
_wdiff = wrap(_diff, "diff", named="keep")


# jax.numpy: n=0 still adds prepend/append
def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff``: order 0 gives ``a`` itself (as NumPy, whatever it is), a
    negative order is NumPy's ``ValueError``; ``axis`` may name an axis."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n!r}")
    return _wdiff(a, n, axis, prepend, append)


@functools.lru_cache(maxsize=None)
def _angle_dtype(dt):
    return onp.angle(onp.zeros(0, dt)).dtype


def _angle(z, deg=False):
    """``jnp.angle`` in NumPy's dtype: of real data, ``arctan2(0, z)``'s
    (float16 for int8 and float16; jnp gave float64)."""
    z = jnp.asarray(z)
    r = jnp.angle(z, deg)
    if z.dtype.kind in "biuf" and config.numpy_dtypes():
        r = r.astype(_angle_dtype(z.dtype))
    return r


_angle.__name__ = _angle.__qualname__ = "angle"
_angle.__signature__ = inspect.signature(onp.angle)
# jax.numpy: float64 for small real dtypes (NumPy: arctan2's dtype)
angle = wrap(numpy_args(_angle, "angle"), "angle")
# jax.numpy: complex data accepted (NumPy: TypeError)
unwrap = _checked("unwrap", _real_only("unwrap"))


def _lerp_at(slope, x, dx, dy, dx1, dy1):
    """NumPy's ``slope*(x - dx[j]) + dy[j]`` (each product rounded apart: no
    fused multiply-add), from the right end where that is NaN, ``dy[j]`` where
    both are NaN and the two values agree."""
    r = jax.lax.optimization_barrier(slope * (x - dx)) + dy
    r2 = jax.lax.optimization_barrier(slope * (x - dx1)) + dy1
    r2 = jnp.where(jnp.isnan(r2) & (dy == dy1), dy, r2)
    return jnp.where(jnp.isnan(r), r2, r)


def _interp(x, xp, fp, left=None, right=None, period=None):
    """NumPy's ``interp`` (``arr_interp`` in ``compiled_base.c``): float64 (or
    complex128) data, each point's interval by NumPy's search (the last ``xp``
    at most ``x``), an exact sample point or the last one taken as it is,
    otherwise the slope times the offset plus the value, retried from the right
    end where that is NaN; complex values part by part."""
    x, xp, fp = (jnp.asarray(v) for v in (x, xp, fp))
    (x, xp, fp), _ = _real_points(x, xp, fp)
    cplx = fp.dtype.kind == "c"
    fp = fp.astype(onp.complex128 if cplx else onp.float64)
    x, xp = x.astype(onp.float64), xp.astype(onp.float64)
    if period is not None:
        if not isinstance(period, jax.core.Tracer) and period == 0:
            raise ValueError("interp: period must be a non-zero value")
        period = abs(period)
        left = right = None
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("interp: Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("interp: fp and xp are not of the same length")
        x, xp = x % period, xp % period
        order = jnp.argsort(xp, stable=True)
        xp, fp = xp[order], fp[order]
        xp = jnp.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = jnp.concatenate((fp[-1:], fp, fp[0:1]))
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("interp: object too deep for desired array (xp and fp must be "
                         "1-d)")
    n = xp.shape[0]
    if n == 0:
        raise ValueError("interp: array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("interp: fp and xp are not of the same length.")
    lval = fp[0] if left is None else jnp.asarray(left, fp.dtype)
    rval = fp[-1] if right is None else jnp.asarray(right, fp.dtype)
    if n == 1:
        return jnp.where(x < xp[0], lval, jnp.where(x > xp[0], rval, fp[0]))
    j = jnp.clip(jnp.searchsorted(xp, x, side="right") - 1, 0, n - 2)
    dx, dx1, dy, dy1 = xp[j], xp[j + 1], fp[j], fp[j + 1]
    if cplx:
        inv = exact_divide(1.0, dx1 - dx)
        parts = [_lerp_at(jax.lax.optimization_barrier((p(dy1) - p(dy)) * inv), x, dx,
                          p(dy), dx1, p(dy1)) for p in (jnp.real, jnp.imag)]
        mid = jax.lax.complex(*parts)
    else:
        mid = _lerp_at(exact_divide(dy1 - dy, dx1 - dx), x, dx, dy, dx1, dy1)
    r = jnp.where(x == xp[-1], fp[-1], jnp.where(dx == x, dy, mid))
    r = jnp.where(x < xp[0], lval, jnp.where(x > xp[-1], rval, r))
    return jnp.where(jnp.isnan(x), x.astype(r.dtype), r)


_interp.__name__ = _interp.__qualname__ = "interp"
# jax.numpy: complex x or xp accepted (NumPy: TypeError), other non-finite
# results (no retry from the right end), a fused multiply-add
interp = wrap(numpy_args(_interp, "interp"), "interp")
_convolve = wrap(numpy_args(_by_parts(jnp.convolve, False), "convolve"), "convolve")
_correlate = wrap(numpy_args(_by_parts(jnp.correlate, True), "correlate"), "correlate")


_CONV_MODES = ("valid", "same", "full")


def _conv_mode(mode):
    """NumPy's ``mode`` of convolve/correlate as its name: one of the names,
    or its number 0, 1, 2 (NumPy's errors otherwise)."""
    if isinstance(mode, str):
        if mode not in _CONV_MODES:
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate "
                             f"mode (got {mode!r})")
        return mode
    if isinstance(mode, (int, onp.integer)) and not isinstance(mode, (bool, onp.bool_)):
        if not 0 <= mode <= 2:
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2 "
                             f"(got {mode})")
        return _CONV_MODES[int(mode)]
    raise TypeError(f"convolve/correlate mode not understood (got {mode!r})")


def _int_conv(name, f):
    def g(a, v, mode="full" if name == "convolve" else "valid"):
        try:
            mode = _conv_mode(mode)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{name}: {e}") from None
        for what, x in (("a", a), ("v", v)):
            if onp.size(x) == 0 and not getattr(x, "names", ()):
                raise ValueError(f"{name}: {what} cannot be empty")
        da, dv = getattr(a, "dtype", None), getattr(v, "dtype", None)
        if da is None:
            da = onp.asarray(a).dtype
        if dv is None:
            dv = onp.asarray(v).dtype
        want = onp.result_type(da, dv)
        if want.kind in "biu":   # exact integer accumulation, NumPy's dtype
            return f(a, v, mode, preferred_element_type=want)
        a, v = asarray(a).astype(want), asarray(v).astype(want)
        r = f(a, v, mode)
        if name == "convolve" and not (a.names or v.names) and not isinstance(
                r.data, jax.core.Tracer) and a.ndim == v.ndim == 1 and \
                not bool(jnp.isfinite(r.data).all()):
            r = _convolve_by_products(a.data, v.data, mode, r)
        return r
    g.__name__ = g.__qualname__ = name
    g.__doc__ = (f"``numpy.{name}``: computed in NumPy's result dtype (integer inputs "
                 "exactly); complex products as NumPy forms them.")
    return g


def _convolve_by_products(a, v, mode, fast):
    """A non-finite ``convolve`` formed as NumPy's sums of products form it:
    every product rounded on its own (XLA's fused multiply-add turns
    ``1e200 * 1e200 + -inf`` into ``-inf``; NumPy's ``inf + -inf`` is ``nan``)."""
    n, m = a.shape[0], v.shape[0]
    k = (jnp.arange(n)[:, None] + jnp.arange(m)[None, :]).ravel()
    full = jnp.zeros(n + m - 1, fast.dtype).at[k].add((a[:, None] * v[None, :]).ravel())
    lo = {"full": 0, "same": (min(n, m) - 1) // 2, "valid": min(n, m) - 1}[mode]
    return positional(full[lo:lo + fast.shape[0]])


# jax.numpy: integers accumulated in floats, complex products by XLA's three-term form
convolve = _int_conv("convolve", _convolve)
correlate = _int_conv("correlate", _correlate)


_cross = wrap(numpy_args(jnp.cross, "cross"), "cross")


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """``numpy.cross`` (NumPy's common dtype of ``a`` and ``b``); a 0-d
    operand is NumPy's ``ValueError``.

    >>> import namedarray as np
    >>> np.cross([1, 0, 0], [0, 1, 0])
    array([0, 0, 1])
    """
    if onp.ndim(a) == 0 or onp.ndim(b) == 0:
        raise ValueError("cross: At least one array has zero dimension")
    return _cross(a, b, axisa, axisb, axisc, axis)


_piecewise = wrap(jnp.piecewise, "piecewise")


# jax.numpy: a Python int out of the data's range wraps (NumPy: OverflowError)
def piecewise(x, condlist, funclist, *args, **kw):
    """``numpy.piecewise``; a value that is no function is assigned as NumPy
    assigns it (a Python int the data's integer dtype cannot hold raises
    ``OverflowError``: ``engines/assign.py``)."""
    x = asarray(x)
    # NumPy's reading of condlist: one condition (a scalar, or a sequence
    # of scalars for an array x) is a list of one; then a bool array
    scalar = onp.ndim(condlist) == 0
    first = None if scalar or not len(condlist) else condlist[0]
    if scalar or (x.ndim != 0 and not (
            isinstance(first, list) or (isinstance(first, (NamedArray, onp.ndarray))
                                        and onp.ndim(first) != 0))):
        condlist = [condlist]
    cond = asarray(condlist).astype(bool)
    n, n2 = (cond.shape[0] if cond.ndim else 1), len(funclist)
    if n != n2 and n != n2 - 1:
        raise ValueError(f"piecewise: with {n} condition(s), either {n} or {n + 1} "
                         "functions are expected")
    if x.ndim == 0 and cond.ndim == 1:     # conditions on a 0-d x: one element each
        cond = cond.reshape((n,))
    # (a function may give a Python number, as NumPy's assignment takes it)
    # (a value: cast as NumPy's assignment casts it, its errors first)
    funcs = [functools.partial(_as_array, f) if callable(f) else assigned(
        "piecewise", x.dtype, f).data for f in funclist]
    return _piecewise(x, list(cond) if cond.ndim > x.ndim else cond, funcs, *args, **kw)


def _as_array(f, *args, **kw):
    r = f(*args, **kw)
    return r.data if isinstance(r, NamedArray) else jnp.asarray(r)


_select = _decl("select")


# jax.numpy: integer conditions accepted (NumPy: TypeError)
def select(condlist, choicelist, default=0):
    """``numpy.select``; every condition must be a boolean array, as in NumPy."""
    if len(condlist) != len(choicelist):
        raise ValueError("select: list of cases must be same length as list of "
                         "conditions")
    if len(condlist) == 0:
        raise ValueError("select: select with an empty condition list is not possible")
    for i, c in enumerate(condlist):
        dt = getattr(c, "dtype", None)
        if (onp.asarray(c).dtype if dt is None else onp.dtype(dt)) != onp.bool_:
            raise TypeError(f"select: invalid entry {i} in condlist: should be boolean "
                            "ndarray")
    return _select(condlist, choicelist, default)


# jax.numpy: none (an object ufunc runs on the host)
def frompyfunc(func, /, nin, nout, *, identity=onp._NoValue):
    """``numpy.frompyfunc``: NumPy's object ufunc of ``func``, over the host data
    (NumPy's own ufunc; its results are NumPy's object arrays).

    >>> import namedarray as np
    >>> np.frompyfunc(oct, 1, 1)(np.asarray([10, 30, 100]))
    array(['0o12', '0o36', '0o144'], dtype=object)
    """
    # (identity=None, given: a reorderable ufunc without identity; not given:
    # not reorderable, as NumPy tells them apart)
    kw = {} if identity is onp._NoValue else {"identity": identity}
    # (given NamedArrays, it runs on NumPy copies of them: NumPy's protocol
    # hands them to NamedArray.__array_ufunc__, engines/foreign.py)
    return onp.frompyfunc(func, nin, nout, **kw)


def _weak_type(v):
    """The dtype NumPy 2 gives ``v`` in arithmetic with an array: a Python
    scalar is weak (its kind only), anything else its own dtype."""
    return v if type(v) in (int, float, complex, bool) else asarray(v).dtype


def _trapezoid(y, x=None, dx=1.0, axis=-1):
    """``numpy.trapezoid``'s arithmetic on ``jax`` arrays: neighbours added in
    ``y``'s dtype (integers wrap, bools or), times the spacing in NumPy's
    promoted dtype, halved, summed."""
    nd = y.ndim
    if nd == 0:
        raise IndexError("trapezoid: too many indices for array: array is 0-dimensional")
    if not -nd <= axis < nd:
        raise onp.exceptions.AxisError(f"trapezoid: axis {axis} is out of bounds for an "
                                       f"array with {nd} positional dimensions")
    axis %= nd
    n = y.shape[axis]
    s = jax.lax.slice_in_dim(y, min(1, n), n, axis=axis) + jax.lax.slice_in_dim(
        y, 0, max(n - 1, 0), axis=axis)
    if x is None:
        d = dx
        dt = onp.result_type(_weak_type(dx), s.dtype)
    else:
        d = jnp.diff(x) if x.ndim == 1 else jnp.diff(x, axis=axis)
        if x.ndim == 1:
            d = d.reshape([-1 if i == axis else 1 for i in range(nd)])
        dt = onp.result_type(d.dtype, s.dtype)
    prod = jnp.asarray(d).astype(dt) * s.astype(dt)
    half = onp.result_type(dt, 2.0)
    return jnp.sum(prod.astype(half) / jnp.asarray(2.0, half), axis=axis).astype(half)


# jax.numpy: neighbours added in a wider dtype (NumPy: y's dtype, integers wrap)
trapezoid = wrap(numpy_args(_trapezoid, "trapezoid"), "trapezoid", named="reduce")


trapezoid.__doc__ = (_trapezoid.__doc__ + "\n\n``axis`` may name an axis (it is "
                     "reduced).")


_jround = wrap(numpy_args(jnp.round, "round"), "round")


def _int_round(d, decimals):
    """NumPy's integer round to ``decimals < 0``: divided by 10**-decimals in
    float64, rounded half to even, multiplied back, cast (wrapping) to the
    integer dtype."""
    f = float(10 ** -decimals)
    r = jnp.rint(d.astype(onp.float64) / f) * f
    return r.astype(onp.int64).astype(d.dtype) if d.dtype != onp.uint64 else r.astype(
        d.dtype)


@functools.partial(jax.jit, static_argnums=1)
def _float_round(d, decimals):
    """NumPy's round of floating data: ``rint(x * 10**decimals) / 10**decimals``
    (``decimals < 0``: ``rint(x / 10**-decimals) * 10**-decimals``) in the
    data's dtype, each complex part apart; the division correctly rounded
    (XLA multiplies by the reciprocal of a constant divisor instead:
    ``round(float32(2059889.0), 2)`` was 1 ulp off)."""
    if jnp.iscomplexobj(d):
        return jax.lax.complex(_float_round(d.real, decimals), _float_round(d.imag, decimals))
    if decimals == 0:
        return jnp.rint(d)
    f = jnp.asarray(float(10 ** abs(decimals)), d.dtype)
    if decimals > 0:
        return exact_divide(jnp.rint(d * f), f)
    return jnp.rint(exact_divide(d, f)) * f


# jax.numpy: bool data, integers to decimals < 0 in other dtypes and steps, a
# division by a constant rounded as a multiplication
def around(a, decimals=0, out=None):
    """``numpy.round``: bool data rounds to float16 (decimals 0 only, as in
    NumPy), integers to negative ``decimals`` in NumPy's float64 steps,
    floating data in NumPy's steps (:func:`_float_round`)."""
    x = asarray(a)
    if x.dtype == onp.bool_:
        if decimals != 0:
            raise TypeError(f"round: bool data rounds only to decimals=0, got {decimals}")
        r = x.astype(onp.float16)
    elif x.dtype.kind in "iu" and decimals < 0:
        r = generic("round", lambda d: _int_round(d, decimals), (x,), {})
    elif x.dtype.kind in "fc" and type(decimals) is int:
        r = generic("round", lambda d: _float_round(d, decimals), (x,), {})
    else:
        return _jround(x, decimals, out=out)
    return r if out is None else _jround(r, 0, out=out)


round = around     # noqa: A001  (NumPy's name)


round.__doc__ = around.__doc__


_ji0 = wrap(numpy_args(jnp.i0, "i0"), "i0")


# jax.numpy: complex input accepted, integers not in float64
def i0(x):
    """``numpy.i0``: complex input is NumPy's ``TypeError``; bool and integer
    data in float64."""
    v = asarray(x)
    if v.dtype.kind == "c":
        raise TypeError("i0: i0 not supported for complex values")
    return _ji0(v.astype(onp.float64) if v.dtype.kind in "biu" else v)


def _spacing(fn, f, axes, varargs):
    """NumPy's spacings: one scalar per axis, or a 1-d coordinate array's
    differences (a scalar when they are all equal)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and onp.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if n != len(axes):
        raise TypeError(f"{fn}: invalid number of arguments ({n} spacings for "
                        f"{len(axes)} axes)")
    out = []
    for ax, v in zip(axes, varargs):
        if onp.ndim(v) == 0:
            out.append(v)
            continue
        d = asarray(v).data
        if d.ndim != 1:
            raise ValueError(f"{fn}: distances must be either scalars or 1d")
        if len(d) != f.shape[ax]:
            raise ValueError(f"{fn}: when 1d, distances must match the length of the "
                             "corresponding dimension")
        if d.dtype.kind in "iu":
            d = d.astype(onp.float64)
        dd = jnp.diff(d)
        if not isinstance(dd, jax.core.Tracer) and bool((dd == dd[0]).all()):
            dd = dd[0]
        out.append(dd)
    return out


def _gradient_axis(f, axis, h, edge_order, otype):
    """One axis of NumPy's gradient: central differences inside, one-sided
    first or second order differences at the ends."""
    def at(i):
        return jax.lax.index_in_dim(f, i, axis, keepdims=True) if isinstance(i, int) else \
            jax.lax.slice_in_dim(f, i.start or 0, f.shape[axis] + (i.stop or 0), axis=axis)

    def col(v):       # a 1-d spacing array along `axis`
        return v.reshape([-1 if i == axis else 1 for i in range(f.ndim)]) if jnp.ndim(v) else v
    uniform = jnp.ndim(h) == 0
    if uniform:
        inner = exact_divide(at(slice(2, 0)) - at(slice(0, -2)), 2.0 * h)
    else:
        d1, d2 = col(h[:-1]), col(h[1:])
        inner = (-d2 / (d1 * (d1 + d2)) * at(slice(0, -2)) + (d2 - d1) / (d1 * d2) *
                 at(slice(1, -1)) + d1 / (d2 * (d1 + d2)) * at(slice(2, 0)))
    if edge_order == 1:
        # (NumPy's division: a complex difference by a real spacing is Smith's)
        first = exact_divide(at(1) - at(0), h if uniform else h[0])
        last = exact_divide(at(-1 % f.shape[axis]) - at(-2 % f.shape[axis]),
                            h if uniform else h[-1])
    else:
        n = f.shape[axis]
        if uniform:
            a, b, c = -1.5 / h, 2.0 / h, -0.5 / h
            a2, b2, c2 = 0.5 / h, -2.0 / h, 1.5 / h
        else:
            d1, d2 = h[0], h[1]
            a, b, c = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)), (d1 + d2) / (d1 * d2),
                       -d1 / (d2 * (d1 + d2)))
            d1, d2 = h[-2], h[-1]
            a2, b2, c2 = (d2 / (d1 * (d1 + d2)), -(d2 + d1) / (d1 * d2),
                          (2.0 * d2 + d1) / (d2 * (d1 + d2)))
        first = a * at(0) + b * at(1) + c * at(2)
        last = a2 * at(n - 3) + b2 * at(n - 2) + c2 * at(n - 1)
    return jnp.concatenate([v.astype(otype) for v in (first, inner, last)], axis=axis)


def _gradient(f, *varargs, axis=None, edge_order=1):
    """``numpy.gradient``'s arithmetic: bool data raises where NumPy
    subtracts it, integers compute in float64, ``edge_order`` 1 or 2, scalar
    or coordinate spacings."""
    fn = "gradient"
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    for ax in axes:
        if not -nd <= ax < nd:
            raise onp.exceptions.AxisError(f"{fn}: axis {ax} is out of bounds for an array "
                                           f"with {nd} positional dimensions")
    axes = tuple(ax % nd for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{fn}: repeated axis")
    h = _spacing(fn, f, axes, varargs)
    if edge_order > 2:
        raise ValueError(f"{fn}: 'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind in "biu":
        f = f.astype(onp.float64) if otype.kind != "b" else f
        otype = onp.dtype(onp.float64)
    out = []
    for ax, hx in zip(axes, h):
        if f.shape[ax] < edge_order + 1:
            raise ValueError(f"{fn}: shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required")
        if f.dtype == onp.bool_ and (edge_order == 1 or jnp.ndim(hx) == 0):
            # (only second-order differences over uneven spacing never subtract)
            raise TypeError(f"{fn}: bool data cannot be subtracted (NumPy's boolean "
                            "subtract is not supported); cast it to a number dtype")
        out.append(_gradient_axis(f, ax, hx, edge_order, otype))
    return out[0] if len(axes) == 1 else tuple(out)


# jax.numpy: no edge_order=2, bool data not refused, other integer dtypes
gradient = wrap(numpy_args(_gradient, "gradient"), "gradient", named="keep")


gradient.__doc__ = _gradient.__doc__ + "\n\n``axis`` may name an axis (it is kept)."


def _nan_to_num_data(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """jax.numpy's nan_to_num replaces one after another (``nan=np.inf``
    would then be rewritten by ``posinf``); NumPy's each from the input's
    own NaNs and infinities."""
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        return x
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return jax.lax.complex(_nan_to_num_data(x.real, copy, nan, posinf, neginf),
                               _nan_to_num_data(x.imag, copy, nan, posinf, neginf))
    info = jnp.finfo(x.dtype)
    big = jnp.where(x > 0, jnp.asarray(info.max if posinf is None else posinf, x.dtype),
                    jnp.asarray(info.min if neginf is None else neginf, x.dtype))
    return jnp.where(jnp.isnan(x), jnp.asarray(nan, x.dtype), jnp.where(jnp.isinf(x), big, x))


# jax.numpy: replaces NaN, then +inf, then -inf in turn (a replacement can be
# replaced again)
_nan_to_num = wrap(numpy_args(_nan_to_num_data, "nan_to_num"), "nan_to_num")


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """``numpy.nan_to_num``; ``copy=False`` writes the result into ``x`` (a
    NamedArray) and returns ``x``, as NumPy does.

    >>> import namedarray as np
    >>> z = np.array([np.nan, np.inf]); _ = np.nan_to_num(z, copy=False, posinf=7.0); z
    array([0., 7.])
    """
    res = _nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)
    if copy or not isinstance(x, NamedArray):
        return res
    if x.dtype.kind in "fc":
        _inplace("nan_to_num", x, res)
    return x


# jax.numpy: float32 for small integer dtypes (NumPy: float64)
sinc = wrap(numpy_args(jnp.sinc, "sinc"), "sinc")

# (bool and integer data in float64)
gradient.computes = trapezoid.computes = angle.computes = unwrap.computes = FLOATS
i0.computes = sinc.computes = FLOATS
interp.computes = DOUBLES

__all__ = ["select", "nan_to_num", "frompyfunc", "piecewise", "convolve", "correlate", "cross",
           "trace", "angle",
           "unwrap", "interp", "diff", "gradient", "around", "round", "i0", "trapezoid", "sinc"]

"""NumPy functions computed with NumPy's own steps where ``jax.numpy`` takes a
shortcut with another result: the dtype NumPy's intermediate arithmetic gives
(``trapezoid`` adds neighbours in the integer dtype, ``polyder`` multiplies by
an ``int64`` range, ``sort_complex`` picks ``complex64`` only for the
narrowest integers), NumPy's data-dependent dtypes (``roots`` and ``poly`` are
real when the result is), and NumPy's shapes for 0-d and 1-d input.

>>> import namedarray as np
>>> np.trapezoid(np.asarray([100, 100], dtype=np.int8))   # int8 sum wraps, as in NumPy
np.float64(-28.0)
>>> np.roots(np.asarray([1.0, -3.0, 2.0]))
array([2., 1.])
>>> np.polyder(np.asarray([True, True, False]))
array([2, 1])
"""
from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, positional
from .function_base import convolve
from .creation import arange, asarray
from .elementwise import UFUNCS, exact_divide
from .engines.args import np_asarray, numpy_args, numpy_promoted
from .engines.generic import generic, wrap
from .joining import concatenate

_jpoly = wrap(numpy_args(jnp.poly, "poly"), "poly")


def _plain(fn, a):
    """``a`` as a positional NamedArray (the functions here take no names)."""
    x = asarray(a)
    if x.names:
        raise ValueError(f"{fn}: takes positional arrays only; the argument has named "
                         f"axes {x.named_shape} (map over them with nmap)")
    return x


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


trapezoid = wrap(numpy_args(_trapezoid, "trapezoid"), "trapezoid", named="reduce")
trapezoid.__doc__ = (_trapezoid.__doc__ + "\n\n``axis`` may name an axis (it is "
                     "reduced).")


def _complex_of(dt):
    """``numpy.sort_complex``'s result dtype for real data."""
    dt = onp.dtype(dt)
    if dt.kind == "c":
        return dt
    return onp.dtype(onp.complex64 if dt.char in "bhBH" else onp.complex128)


def sort_complex(a):
    """``numpy.sort_complex``: sorted along the last axis, as ``complex64``
    for int8/int16/uint8/uint16 data and ``complex128`` for other real data."""
    x = asarray(a)
    want = _complex_of(x.dtype)
    return generic("sort_complex", lambda d: _complex_sorted(d).astype(want), (x,), {})


def _complex_sorted(d):
    """Sorted along the last axis in NumPy's order; complex values by where
    their NaNs are (``R + Rj``, ``R + nanj``, ``nan + Rj``, ``nan + nanj``),
    then by the parts that are not NaN."""
    if d.dtype.kind != "c":
        return jnp.sort(d, axis=-1)
    re, im = d.real, d.imag
    group = jnp.isnan(im).astype(onp.int8) + 2 * jnp.isnan(re).astype(onp.int8)
    keys = (jnp.where(jnp.isnan(im), 0, im), jnp.where(jnp.isnan(re), 0, re), group)
    return jnp.take_along_axis(d, jnp.lexsort(keys, axis=-1), axis=-1)


def _atleast_1d(fn, a):
    x = _plain(fn, a)
    return x.reshape(1) if x.ndim == 0 else x


def _padded(a, n):
    """``a`` with ``n`` leading zeros of its dtype."""
    if n <= 0:
        return a
    return concatenate([positional(jnp.zeros(n, a.dtype)), a])


def _keeps_poly1d(f):
    """NumPy's rule for the polynomial functions: given a ``numpy.poly1d``
    among the arguments, they return ``poly1d`` objects (host data, as
    NumPy's own class holds it), so ``np.polyder(np.poly1d([1, 1]))(2.)``
    can be called; otherwise arrays."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        out = f(*args, **kwargs)
        if not any(isinstance(a, onp.poly1d) for a in (*args, *kwargs.values())):
            return out
        outs = out if isinstance(out, tuple) else (out,)
        if any(isinstance(o.data, jax.core.Tracer) for o in outs):
            raise TypeError(f"{f.__name__}: a numpy.poly1d result cannot hold a traced "
                            "value; under a JAX transformation pass the coefficients "
                            "(p.coeffs) as an array instead of the poly1d")
        polys = tuple(onp.poly1d(onp.asarray(o.data)) for o in outs)
        return polys if isinstance(out, tuple) else polys[0]
    return g


def _poly_sum(fn, op):
    def f(a1, a2):
        x, y = _atleast_1d(fn, a1), _atleast_1d(fn, a2)
        diff = len(y) - len(x)
        return UFUNCS[op](_padded(x, diff), _padded(y, -diff))
    f.__name__ = f.__qualname__ = fn
    f.__doc__ = (f"``numpy.{fn}``: 1-d coefficients (0-d ones are 1-d), the shorter "
                 f"padded with leading zeros, then ``{op}`` with NumPy's dtypes.")
    return _keeps_poly1d(f)


polyadd = _poly_sum("polyadd", "add")
polysub = _poly_sum("polysub", "subtract")


def _poly1d(fn, a):
    """The coefficients as ``numpy.poly1d`` keeps them: 1-d, leading zeros
    trimmed (eagerly), none left is ``[0]``."""
    x = _atleast_1d(fn, a)
    if x.ndim != 1:
        raise ValueError(f"{fn}: polynomial must be 1d only (got shape {x.shape})")
    if isinstance(x.data, jax.core.Tracer):
        return x
    nz = onp.nonzero(onp.asarray(x.data))[0]
    return x[int(nz[0]):] if len(nz) else positional(jnp.zeros(1, x.dtype))


@_keeps_poly1d
def polymul(a1, a2):
    """``numpy.polymul``: the convolution of the coefficients as ``poly1d``
    keeps them (leading zeros trimmed, none left is ``[0]``), integer inputs
    exact in NumPy's integer dtype."""
    x, y = _poly1d("polymul", a1), _poly1d("polymul", a2)
    dt = onp.result_type(x.dtype, y.dtype)
    return convolve(x.astype(dt), y.astype(dt))


@_keeps_poly1d
def polydiv(u, v):
    """``numpy.polydiv``: long division in NumPy's dtypes (each input plus
    ``0.0``, then their common type), the remainder's leading (near-)zeros
    trimmed eagerly as NumPy trims them."""
    x = UFUNCS["add"](_atleast_1d("polydiv", u), 0.0)
    y = UFUNCS["add"](_atleast_1d("polydiv", v), 0.0)
    for a in (x, y):
        if a.size == 0:
            raise IndexError("polydiv: index 0 is out of bounds for axis 0 with size 0 "
                             "(no coefficients)")
    w = onp.result_type(x.dtype, y.dtype)
    m, n = len(x) - 1, len(y) - 1
    scale = (1.0 / y.data[0]).astype(w)
    vd = y.data.astype(w)
    q = jnp.zeros(max(m - n + 1, 1), w)
    r = x.data.astype(w)
    for k in range(m - n + 1):
        d = scale * r[k]
        q = q.at[k].set(d)
        r = r.at[k:k + n + 1].add(-(d * vd))
    if not isinstance(r, jax.core.Tracer):
        while r.shape[-1] > 1 and bool(jnp.abs(r[0]) <= 1e-8):
            r = r[1:]
    return positional(q), positional(r)


@_keeps_poly1d
def polyder(p, m=1):
    """``numpy.polyder``: each step multiplies by NumPy's ``int64`` range, so
    bool and integer coefficients give ``int64`` (and ``float32`` ones
    ``float64``), as in NumPy."""
    m = int(m)
    if m < 0:
        raise ValueError("polyder: order of derivative must be positive (see polyint)")
    x = _plain("polyder", p)
    if x.ndim == 0:
        raise TypeError("polyder: len() of unsized object (p is 0-d)")
    for _ in range(m):
        n = len(x) - 1
        x = UFUNCS["multiply"](x[:-1], arange(n, 0, -1))
    return x


@_keeps_poly1d
def polyint(p, m=1, k=None):
    """``numpy.polyint``: each step divides by NumPy's ``int64`` range and
    appends the constant (float64 ``k``); ``m=0`` returns ``p`` as it is."""
    m = int(m)
    if m < 0:
        raise ValueError("polyint: order of integral must be positive (see polyder)")
    ks = onp.zeros(m, float) if k is None else onp.atleast_1d(onp.asarray(k))
    if len(ks) == 1 and m > 1:
        ks = ks[0] * onp.ones(m, float)
    if len(ks) < m:
        raise ValueError("polyint: k must be a scalar or a rank-1 array of length 1 or >m")
    x = _plain("polyint", p)
    for i in range(m):
        y = UFUNCS["true_divide"](x, arange(len(x), 0, -1))
        x = concatenate([y, positional(np_asarray([ks[i]]))])
    return x


def _real_if_all_real(fn, r, dt):
    """Eigenvalues as NumPy's ``eigvals`` returns them: real (``dt``) when
    every imaginary part is zero; under a transformation, complex."""
    if isinstance(r, jax.core.Tracer) or r.size == 0 or bool(jnp.any(r.imag != 0)):
        return r
    return r.real.astype(dt)


def roots(p):
    """``numpy.roots``: the companion matrix's eigenvalues, real when all of
    them are (``float64``, or ``float32`` for float32 coefficients), complex
    otherwise; leading and trailing zero coefficients as in NumPy."""
    x = _plain("roots", p)
    if x.ndim == 0:      # NumPy's dispatcher iterates over p
        raise TypeError("roots: p must be a sequence of coefficients (got a 0-d array)")
    if x.ndim != 1:
        raise ValueError("roots: input must be a rank-1 array")
    h = onp.asarray(x.data)
    nz = onp.nonzero(h)[0]
    if len(nz) == 0:
        return positional(jnp.zeros(0))
    trailing = len(h) - nz[-1] - 1
    d = x.data[int(nz[0]):int(nz[-1]) + 1]
    if d.dtype.kind not in "fc":
        d = d.astype(onp.float64)
    n = len(d)
    if n > 1:
        a = jnp.diag(jnp.ones(n - 2, d.dtype), -1).at[0, :].set(-d[1:] / d[0])
        if not isinstance(a, jax.core.Tracer) and not bool(jnp.isfinite(a).all()):
            raise onp.linalg.LinAlgError("roots: the companion matrix contains infs or "
                                         "NaNs (eigvals needs finite input)")
        if d.dtype == onp.float16:
            raise TypeError("roots: array type float16 is unsupported in linalg (cast to "
                            "float32 first)")
        # a 1x1 companion matrix is its own eigenvalue (XLA's eigvals loses
        # the magnitude of a huge one)
        r = a[0] if n == 2 else _real_if_all_real("roots", jnp.linalg.eigvals(a), d.dtype)
    else:
        r = jnp.zeros(0, onp.float64)
    return positional(jnp.concatenate([r, jnp.zeros(trailing, r.dtype)]))


def _mintype(dt):
    """``numpy.mintypecode(dt.char)``: float32/complex64 stay, others are
    float64 (complex128 for complex)."""
    dt = onp.dtype(dt)
    return dt if dt.char in "fFdD" else onp.dtype(onp.complex128 if dt.kind == "c"
                                                  else onp.float64)


def poly(seq_of_zeros):
    """``numpy.poly``: the coefficients of the monic polynomial with these
    roots, in ``mintypecode`` of their dtype (``float64`` for float16 and
    integers), real when complex roots come in conjugate pairs; no roots give
    ``1.0``; a square matrix gives its characteristic polynomial."""
    x = asarray(seq_of_zeros)
    if x.names:
        return _jpoly(x)
    if x.ndim == 0:      # NumPy's dispatcher iterates over the roots
        raise TypeError("poly: seq_of_zeros must be a sequence (got a 0-d array)")
    d = x.data
    if d.ndim == 2 and d.shape[0] == d.shape[1] and d.shape[0]:
        d = jnp.linalg.eigvals(d.astype(_mintype(d.dtype)))
    elif d.ndim != 1:
        raise ValueError("poly: input must be 1d or non-empty square 2d array")
    else:
        d = d.astype(_mintype(d.dtype))
    if len(d) == 0:
        return positional(jnp.asarray(1.0, onp.float64))
    a = jnp.ones(1, d.dtype)
    for i in range(len(d)):
        a = jnp.convolve(a, jnp.stack([jnp.ones((), d.dtype), -d[i]]), mode="full")
    if a.dtype.kind == "c" and not isinstance(a, jax.core.Tracer):
        r = d.astype(onp.complex128)
        if bool(jnp.all(jnp.sort(r) == jnp.sort(r.conj()))):
            a = a.real
    return positional(a)


def _tri(name):
    jfn = getattr(jnp, name)

    def run(d, k=0):
        if d.ndim == 0:
            raise TypeError(f"{name}: a 0-d array has no triangle (NumPy needs at least "
                            "1 dimension)")
        if d.ndim == 1:       # NumPy's mask is tri(n, n): a 1-d array broadcasts
            d = jnp.broadcast_to(d, (d.shape[0],) * 2)
        return jfn(d, k)

    def f(m, k=0):
        return generic(name, run, (asarray(m),), {"k": k})
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: of the last two axes; a 1-d array is its (n, n) "
                 "broadcast, as in NumPy.")
    return f


tril, triu = _tri("tril"), _tri("triu")


def _window(name):
    jfn = getattr(jnp, name)

    def f(M, *args):
        if M < 1:       # NumPy: an empty float64 window
            return positional(jnp.zeros(0, onp.float64))
        return positional(jfn(M, *args))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``: ``M < 1`` gives an empty window, as in NumPy."
    return f


bartlett, blackman, hamming, hanning = (_window(n) for n in ("bartlett", "blackman",
                                                              "hamming", "hanning"))
kaiser = _window("kaiser")
_jmeshgrid = wrap(numpy_args(jnp.meshgrid, "meshgrid"), "meshgrid")


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """``numpy.meshgrid``: each input flattened (0-d and n-d ones too), as
    NumPy reshapes them."""
    xs = [asarray(x) for x in xi]
    xs = [x.ravel() if x.ndim != 1 else x for x in xs]
    return _jmeshgrid(*xs, copy=copy, sparse=sparse, indexing=indexing)


_jkron = wrap(numpy_args(jnp.kron, "kron"), "kron")


def kron(a, b):
    """``numpy.kron``; of two bool arrays, bool (their products are ``and``)."""
    x, y = asarray(a), asarray(b)
    dt = onp.result_type(x.dtype, y.dtype)
    if dt == onp.bool_:
        return _jkron(x.astype(onp.uint8), y.astype(onp.uint8)).astype(onp.bool_)
    return _jkron(x.astype(dt), y.astype(dt))


_jround = wrap(numpy_args(jnp.round, "round"), "round")


def _int_round(d, decimals):
    """NumPy's integer round to ``decimals < 0``: divided by 10**-decimals in
    float64, rounded half to even, multiplied back, cast (wrapping) to the
    integer dtype."""
    f = float(10 ** -decimals)
    r = jnp.rint(d.astype(onp.float64) / f) * f
    return r.astype(onp.int64).astype(d.dtype) if d.dtype != onp.uint64 else r.astype(
        d.dtype)


def around(a, decimals=0, out=None):
    """``numpy.round``: bool data rounds to float16 (decimals 0 only, as in
    NumPy), integers to negative ``decimals`` in NumPy's float64 steps."""
    x = asarray(a)
    if x.dtype == onp.bool_:
        if decimals != 0:
            raise TypeError(f"round: bool data rounds only to decimals=0, got {decimals}")
        r = x.astype(onp.float16)
    elif x.dtype.kind in "iu" and decimals < 0:
        r = generic("round", lambda d: _int_round(d, decimals), (x,), {})
    else:
        return _jround(x, decimals, out=out)
    return r if out is None else _jround(r, 0, out=out)


round = around     # noqa: A001  (NumPy's name)
round.__doc__ = around.__doc__
_ji0 = wrap(numpy_args(jnp.i0, "i0"), "i0")


def i0(x):
    """``numpy.i0``: complex input is NumPy's ``TypeError``; bool and integer
    data in float64."""
    v = asarray(x)
    if v.dtype.kind == "c":
        raise TypeError("i0: not supported for complex values")
    return _ji0(v.astype(onp.float64) if v.dtype.kind in "biu" else v)


def _float64_data(a):
    """Bool or integer data, or no real data, as float64 (NumPy computes
    these edges in float64)."""
    x = asarray(a)
    return x.astype(onp.float64) if x.dtype.kind in "biu" or (
        x.size == 0 and x.dtype.kind == "f") else x


def _float_counts(name):
    jfn = wrap(numpy_args(getattr(jnp, name), name), name)

    def f(*args, **kwargs):
        args = [_float64_data(a) for a in args[:2 if name == "histogram2d" else 1]] + list(
            args[2 if name == "histogram2d" else 1:])
        n = args[0].shape[0] if args[0].ndim else 1
        bins = kwargs.get("bins", args[2 if name == "histogram2d" else 1] if len(args) > (
            2 if name == "histogram2d" else 1) else 10)
        if n == 0 and kwargs.get("range") is None and not isinstance(bins, (list, tuple)) \
                and onp.ndim(bins) == 0:     # NumPy's edges of no data span [0, 1]
            d = 2 if name == "histogram2d" else (args[0].shape[1] if args[0].ndim > 1 else 1)
            kwargs = {**kwargs, "range": [(0.0, 1.0)] * d}
        hist, *edges = jfn(*args, **kwargs)
        return (hist.astype(onp.float64), *edges)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: counts (and densities) are float64, and edges "
                 "computed from integer data (or none) float64, as in NumPy.")
    return f


histogram2d, histogramdd = _float_counts("histogram2d"), _float_counts("histogramdd")


def _set_op(name):
    jfn = wrap(numpy_args(getattr(jnp, name), name), name)

    def f(ar1, ar2, *args, **kwargs):
        x, y = asarray(ar1), asarray(ar2)
        dt = onp.result_type(x.dtype, y.dtype)
        return jfn(x.astype(dt), y.astype(dt), *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: the two inputs are joined in their common dtype, "
                 "as NumPy's concatenation joins them.")
    return f


intersect1d, union1d, setxor1d = (_set_op(n) for n in ("intersect1d", "union1d",
                                                      "setxor1d"))
_jix = wrap(numpy_args(jnp.ix_, "ix_"), "ix_")


def ix_(*args):
    """``numpy.ix_``: a bool sequence stands for its nonzero positions (read
    on the host), as in NumPy."""
    xs = []
    for a in args:
        x = asarray(a)
        if x.dtype == onp.bool_:
            if x.ndim != 1:
                raise ValueError("ix_: cross index must be 1 dimensional")
            x = positional(jnp.asarray(onp.nonzero(onp.asarray(x.data))[0], onp.intp))
        xs.append(x)
    return _jix(*xs)


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


gradient = wrap(_gradient, "gradient", named="keep")
gradient.__doc__ = _gradient.__doc__ + "\n\n``axis`` may name an axis (it is kept)."


def _polyval(p, x):
    """``numpy.polyval``'s dtype: Horner's steps start from ``zeros_like(x)``,
    so with no coefficients the result is ``x``'s dtype, and otherwise NumPy's
    common dtype of ``p`` and ``x``."""
    p, x = jnp.asarray(p), jnp.asarray(x)
    if p.size == 0:
        return jnp.zeros_like(x)
    p, x = numpy_promoted([p, x])
    return jnp.polyval(p, x)


_polyval.__name__ = _polyval.__qualname__ = "polyval"
_polyval.__signature__ = inspect.signature(onp.polyval)
_polyval_at = wrap(numpy_args(_polyval, "polyval"), "polyval")


@functools.wraps(_polyval_at)
def polyval(p, x):
    if isinstance(x, onp.poly1d):   # p of a polynomial: NumPy's poly1d composition
        if isinstance(p, NamedArray):
            if isinstance(p.data, jax.core.Tracer):
                raise TypeError("polyval: a numpy.poly1d result cannot hold a traced "
                                "value; under a JAX transformation pass x's coefficients "
                                "(x.coeffs) as an array instead of the poly1d")
            p = onp.asarray(p)
        return onp.polyval(p, x)
    return _polyval_at(p, x)


def _finite(d) -> bool:
    return isinstance(d, jax.core.Tracer) or bool(jnp.isfinite(d).all())


def _lapack_scale(b):
    """The power of two LAPACK's least squares divides ``b`` by first when its
    largest magnitude is outside [2**-500, 2**500] (``1e307`` data would
    overflow the solve's products), else 1; exact, undone on the result."""
    m = jnp.max(jnp.abs(jnp.where(jnp.isfinite(b), b, 0)), initial=0)
    s = jnp.exp2(jnp.floor(jnp.log2(jnp.where(m > 0, m, 1))))
    return jnp.where((s > 2.0**500) | (s < 2.0**-500), s, 1).astype(m.dtype)


def _polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """``numpy.polyfit`` in NumPy's dtypes: ``x + 0.0`` sets ``rcond``'s
    epsilon, the Vandermonde matrix is ``float64`` (``complex128``), ``y`` is
    solved in ``float64`` (``float16`` is refused, as NumPy's ``lstsq`` refuses
    it).  On concrete data, NumPy's LAPACK outcomes: a non-finite matrix (``x``
    or ``w``) raises ``LinAlgError``, and a non-finite ``y * w`` makes every
    coefficient NaN."""
    x, y = jnp.asarray(x), jnp.asarray(y)
    xi = onp.result_type(x.dtype, 0.0)           # x + 0.0, as NumPy 2 promotes it
    if onp.result_type(y.dtype, 0.0) == onp.float16:
        raise TypeError("polyfit: array type float16 is unsupported in linalg (cast y "
                        "to float32 first)")
    wide = onp.result_type(x.dtype, y.dtype, onp.float64)
    if rcond is None and x.ndim == 1:
        rcond = len(x) * float(onp.finfo(xi).eps)
    if w is not None:
        w = jnp.asarray(w)
        if w.dtype.kind == "c" and wide.kind != "c":
            raise TypeError("polyfit: complex weights for real data (NumPy cannot cast "
                            "the weighted matrix to float64)")
        w = w.astype(wide)
    y = y.astype(wide)
    rhs = y if w is None else y * (w if y.ndim == 1 else w[:, None])
    s = _lapack_scale(rhs)
    r = jnp.polyfit(x.astype(wide), y / s, deg, rcond, full, w, cov)
    if full:
        r = (r[0] * s, r[1] * s * s) + tuple(r[2:])
    elif cov:
        r = (r[0] * s, r[1] * s * s)
    else:
        r = r * s
    if cov and not full and wide.kind == "c" and x.dtype.kind != "c" and (
            w is None or w.dtype.kind != "c"):
        r = (r[0], r[1].real)      # NumPy's: the real matrix's, times real residuals
    lhs = x if w is None else jnp.concatenate([x.ravel(), w.ravel()])
    if not _finite(lhs):
        raise onp.linalg.LinAlgError("polyfit: SVD did not converge in Linear Least "
                                     "Squares (x or w is not finite)")
    if _finite(rhs):
        return r
    nan = jnp.asarray(onp.nan, wide)   # LAPACK's: every coefficient NaN
    if full:       # (and the residuals of the columns that are not finite)
        bad = ~jnp.isfinite(rhs).all(axis=0)
        resid = jnp.where(bad, nan, r[1]) if r[1].size else r[1]
        return (jnp.full_like(r[0], nan), resid.astype(r[1].dtype)) + tuple(r[2:])
    if cov:
        return tuple(jnp.full_like(v, nan) for v in r)
    return jnp.full_like(r, nan)


_polyfit.__name__ = _polyfit.__qualname__ = "polyfit"
_polyfit.__signature__ = inspect.signature(onp.polyfit)
polyfit = wrap(numpy_args(_polyfit, "polyfit"), "polyfit")


__all__ = ["polyval", "polyfit", "gradient", "tril", "triu", "bartlett", "blackman", "hamming", "hanning", "kaiser",
           "meshgrid", "kron", "around", "round", "i0", "histogram2d", "histogramdd",
           "intersect1d", "union1d", "setxor1d", "ix_",
           "trapezoid", "sort_complex", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "roots", "poly"]

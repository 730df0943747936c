"""Polynomials (NumPy's ``numpy/lib/_polynomial_impl.py``): ``polyval``,
``polyfit``, ``polyadd``, ``polysub``, ``polymul``, ``polydiv``, ``polyder``,
``polyint``, ``roots``, ``poly``, computed with NumPy's own steps where
``jax.numpy`` takes a shortcut with another result: the dtype NumPy's
intermediate arithmetic gives (``polyder`` multiplies by an ``int64`` range),
NumPy's data-dependent dtypes (``roots`` and ``poly`` are real when the result
is), NumPy's shapes for 0-d and 1-d input, and ``numpy.poly1d`` results for
``poly1d`` arguments.

>>> import namedarray as np
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

from ..core.array import NamedArray, positional, zero_dim_array
from .creation import arange, asarray
from .elementwise import UFUNCS
from .engines.args import np_asarray, numpy_args, numpy_promoted
from .engines.dispatch import DOUBLES, FLOATS
from .engines.generic import wrap
from .function_base import convolve
from .joining import concatenate

_jpoly = wrap(numpy_args(jnp.poly, "poly"), "poly")


def _plain(fn, a):
    """``a`` as a positional NamedArray (the functions here take no names)."""
    x = asarray(a)
    if x.names:
        raise ValueError(f"{fn}: takes positional arrays only; the argument has named "
                         f"axes {x.named_shape} (map over them with nmap)")
    return x


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


# jax.numpy: its own dtypes for 0-d and mixed coefficients; no poly1d results
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


# jax.numpy: leading zeros kept, integers not exact in NumPy's dtype
@_keeps_poly1d
def polymul(a1, a2):
    """``numpy.polymul``: the convolution of the coefficients as ``poly1d``
    keeps them (leading zeros trimmed, none left is ``[0]``), integer inputs
    exact in NumPy's integer dtype."""
    x, y = _poly1d("polymul", a1), _poly1d("polymul", a2)
    dt = onp.result_type(x.dtype, y.dtype)
    return convolve(x.astype(dt), y.astype(dt))


# jax.numpy: other dtypes, the remainder's leading zeros kept
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


# jax.numpy: bool and integer coefficients not multiplied in int64
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


# jax.numpy: other dtypes (NumPy divides by an int64 range, k in float64)
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


# jax.numpy: complex roots even where all are real
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


# jax.numpy: complex coefficients for conjugate roots, other dtypes
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
        return 1.0      # NumPy's Python float
    a = jnp.ones(1, d.dtype)
    for i in range(len(d)):
        a = jnp.convolve(a, jnp.stack([jnp.ones((), d.dtype), -d[i]]), mode="full")
    if a.dtype.kind == "c" and not isinstance(a, jax.core.Tracer):
        r = d.astype(onp.complex128)
        if bool(jnp.all(jnp.sort(r) == jnp.sort(r.conj()))):
            a = a.real
    return positional(a)


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


# jax.numpy: no poly1d composition, another dtype for no coefficients
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
    r = _polyval_at(p, x)
    if (p.shape if isinstance(p, NamedArray) else onp.shape(p))[:1] == (0,) and \
            isinstance(r, NamedArray) and not r.dims and not r.mapped:
        return zero_dim_array(r)    # (NumPy's zeros_like(x), no product: an array)
    return r


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
# jax.numpy: float16 accepted, no LAPACK scaling, other NaN and inf outcomes
polyfit = wrap(numpy_args(_polyfit, "polyfit"), "polyfit")
# what NumPy computes in beyond the operands' dtypes: polydiv and poly add 0.0
# (integers in float64), polyint's constants are float64 (any data in double)
polydiv.computes = poly.computes = FLOATS
polyint.computes = DOUBLES


__all__ = ["polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "roots", "poly"]

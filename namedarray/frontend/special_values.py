"""Special values of elementwise functions that ``jax.numpy`` gets wrong and
NumPy gets right: complex infinities and NaNs of ``exp``, ``log``, ``sqrt``,
``sign``, the hyperbolic and inverse functions (C99 Annex G, which the Array API
standard requires), and the signed zeros of float ``remainder`` (the sign of
the divisor), ``floor_divide`` (the sign of the quotient) and ``sign`` (+0).

Each entry wraps the ``jax.numpy`` ufunc: the plain result, then the special
inputs replaced, in one compiled call for the dtypes concerned (others are
the ``jax.numpy`` call itself).

>>> import namedarray as np
>>> complex(np.exp(np.asarray(complex(float("-inf"), float("nan")))))
0j
>>> float(np.remainder(-0.0, 2.0)), float(np.floor_divide(-0.0, 2.0))
(0.0, -0.0)
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

_NAN = float("nan")
_INF = float("inf")


def _c(re, im):
    return jax.lax.complex(re, im)


def _fix_exp(c):
    def fix(z, r):
        a, b = z.real, z.imag
        odd = jnp.isinf(b) | jnp.isnan(b)
        r = jnp.where((a == -_INF) & odd, _c(jnp.full_like(a, c), jnp.copysign(0.0, b)), r)
        return jnp.where((a == _INF) & odd, _c(jnp.full_like(a, _INF),
                                               jnp.full_like(a, _NAN)), r)
    return fix


def _fix_log(z, r):
    a, b = z.real, z.imag
    bad = (jnp.isinf(a) & jnp.isnan(b)) | (jnp.isnan(a) & jnp.isinf(b))
    return jnp.where(bad, _c(jnp.full_like(a, _INF), jnp.full_like(a, _NAN)), r)


def _fix_sqrt(z, r):
    a, b = z.real, z.imag
    nb = jnp.isnan(b)
    r = jnp.where(jnp.isinf(b), _c(jnp.full_like(a, _INF), b), r)
    r = jnp.where((a == -_INF) & nb, _c(jnp.full_like(a, _NAN), jnp.full_like(a, _INF)), r)
    return jnp.where((a == _INF) & nb, _c(jnp.full_like(a, _INF), jnp.full_like(a, _NAN)), r)


def _nan2(a):
    return _c(jnp.full_like(a, _NAN), jnp.full_like(a, _NAN))


def _fix_acos(z, r):
    a, b = z.real, z.imag
    na, nb = jnp.isnan(a), jnp.isnan(b)
    r = jnp.where(na | nb, _nan2(a), r)
    r = jnp.where((a == 0) & nb, _c(jnp.full_like(a, math.pi / 2), b), r)
    r = jnp.where(jnp.isinf(a) & nb, _c(b, jnp.full_like(a, -_INF)), r)
    return jnp.where(na & jnp.isinf(b), _c(a, -b), r)


def _fix_acosh(z, r):
    a, b = z.real, z.imag
    na, nb = jnp.isnan(a), jnp.isnan(b)
    r = jnp.where(na | nb, _nan2(a), r)
    r = jnp.where((a == 0) & nb, _c(b, jnp.full_like(a, math.pi / 2)), r)
    inf_nan = _c(jnp.full_like(a, _INF), jnp.full_like(a, _NAN))
    return jnp.where((jnp.isinf(a) & nb) | (na & jnp.isinf(b)), inf_nan, r)


def _fix_asinh(z, r):
    a, b = z.real, z.imag
    na, nb = jnp.isnan(a), jnp.isnan(b)
    r = jnp.where(na | nb, _nan2(a), r)
    r = jnp.where(na & (b == 0), _c(a, b), r)
    r = jnp.where(jnp.isinf(a) & nb, _c(a, b), r)
    return jnp.where(na & jnp.isinf(b), _c(jnp.full_like(a, _INF), a), r)


def _fix_atanh(z, r):
    a, b = z.real, z.imag
    nan2 = _c(jnp.full_like(a, _NAN), jnp.full_like(a, _NAN))
    nb = jnp.isnan(b)
    r = jnp.where((jnp.isnan(a) & ~jnp.isinf(b)) | (jnp.isfinite(a) & (a != 0) & nb),
                  nan2, r)
    zero = ((a == 0) | jnp.isinf(a)) & nb
    return jnp.where(zero, _c(jnp.copysign(0.0, a), jnp.full_like(a, _NAN)), r)


def _fix_cosh(z, r):
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    r = jnp.where((a == 0) & odd, _c(jnp.full_like(a, _NAN), jnp.zeros_like(a)), r)
    return jnp.where(jnp.isinf(a) & odd, _c(jnp.full_like(a, _INF), jnp.full_like(a, _NAN)), r)


def _fix_sinh(z, r):
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    return jnp.where(((a == 0) | jnp.isinf(a)) & odd, _c(a, jnp.full_like(a, _NAN)), r)


def _fix_tanh(z, r):
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    r = jnp.where((a == 0) & odd, _c(a, jnp.full_like(a, _NAN)), r)
    return jnp.where(jnp.isinf(a) & jnp.isfinite(b),
                     _c(jnp.copysign(1.0, a), jnp.copysign(0.0, jnp.sin(2 * b))), r)


def _fix_sign(z, r):
    return jnp.where(z == 0, jnp.zeros_like(r), r)     # +0 (+ 0j), whatever zeros z has


def _times_i(z):
    return _c(-z.imag, z.real)


def _upper(jfn, z):
    """``jfn(z)`` with the sign of a zero imaginary part respected on branch cuts:
    ``f(conj(z)) == conj(f(z))`` for these functions, and ``jax.numpy`` is right
    in the upper half-plane (+0 included)."""
    r = jfn(_c(z.real, jnp.abs(z.imag)))
    return jnp.where(jnp.signbit(z.imag), jnp.conj(r), r)


def _odd_upper(jfn, z):
    """``_upper`` for odd functions (``asinh``, ``atanh``), whose branch cuts lie
    along the imaginary axis: ``f(z) == -f(-z)`` puts the real part at +0 or
    above, where ``jax.numpy`` is right."""
    neg = jnp.signbit(z.real)
    r = _upper(jfn, jnp.where(neg, -z, z))
    return jnp.where(neg, -r, r)


def _via(inner, fix):
    """``-i f(i z)``: ``asin`` from ``asinh``, ``atan`` from ``atanh`` (C99)."""
    def f(z):
        w = _times_i(z)
        v = fix(w, _odd_upper(inner, w))
        return _c(v.imag, -v.real)
    return f


_COMPLEX = {
    "exp": _fix_exp(0.0), "expm1": _fix_exp(-1.0), "log": _fix_log, "log1p": _fix_log,
    "sqrt": _fix_sqrt, "arccos": _fix_acos, "acos": _fix_acos, "arccosh": _fix_acosh,
    "acosh": _fix_acosh, "arcsinh": _fix_asinh, "asinh": _fix_asinh,
    "arctanh": _fix_atanh, "atanh": _fix_atanh, "cosh": _fix_cosh, "sinh": _fix_sinh,
    "tanh": _fix_tanh, "sign": _fix_sign,
}
# branch cuts: the sign of a zero imaginary part (real part, for the odd ones)
# picks the side
_CUTS = {"sqrt": _upper, "log": _upper, "arccos": _upper, "acos": _upper,
         "arccosh": _upper, "acosh": _upper, "arcsinh": _odd_upper, "asinh": _odd_upper,
         "arctanh": _odd_upper, "atanh": _odd_upper}
# computed whole from another function
_VIA = {"arcsin": _via(jnp.arcsinh, _fix_asinh), "asin": _via(jnp.arcsinh, _fix_asinh),
        "arctan": _via(jnp.arctanh, _fix_atanh), "atan": _via(jnp.arctanh, _fix_atanh)}


def _fix_remainder(x, y, r):
    return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), y), r)


def _fix_floor_divide(x, y, r):
    return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), x / y), r)


_FLOAT = {"remainder": _fix_remainder, "mod": _fix_remainder,
          "floor_divide": _fix_floor_divide, "sign": _fix_sign}


class _Special:
    """A ``jax.numpy`` ufunc whose special values are corrected for the dtype
    kinds in ``kind`` (``"c"``: complex, ``"f"``: real floating)."""

    def __init__(self, jfn, fix, kind, cut=None, whole=None):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._kind = kind
        # the jitted implementation behind jax.numpy's ufunc (skips its re-checks)
        props = getattr(jfn, "_ufunc__static_props", None) if isinstance(
            jfn, jnp.ufunc) else None
        self._plain = (props or {}).get("call") or jfn
        if whole is not None:
            self._fixed = jax.jit(whole)
        elif cut is not None:
            self._fixed = jax.jit(lambda z: fix(z, cut(jfn, z)))
        else:
            self._fixed = jax.jit(lambda *a: fix(*a, jfn(*a)))

    def __call__(self, *args):
        for a in args:
            dt = getattr(a, "dtype", None)
            k = dt.kind if dt is not None else (
                "c" if isinstance(a, complex) else "f" if isinstance(a, float) else "i")
            if k in self._kind or (k == "V" and "f" in self._kind):   # V: bfloat16, ...
                return self._fixed(*args)
        return self._plain(*args)

    def __getattr__(self, k):
        return getattr(self._f, k)


def special(name, jfn):
    """``jfn`` (the ``jax.numpy`` ufunc ``name``) with its special values fixed,
    or ``jfn`` itself when it has none to fix."""
    if name in _COMPLEX:
        kind = "cf" if name in _FLOAT else "c"
        return _Special(jfn, _COMPLEX[name], kind, cut=_CUTS.get(name))
    if name in _VIA:
        return _Special(jfn, None, "c", whole=_VIA[name])
    if name in _FLOAT:
        return _Special(jfn, _FLOAT[name], "f")
    return jfn

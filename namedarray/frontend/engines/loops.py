"""NumPy's ufunc loops where ``jax.numpy``'s differ, under the elementwise
declarations (``frontend/elementwise.py``) and the selection engine: the
special values of elementwise functions that ``jax.numpy`` gets wrong and
NumPy gets right: complex infinities, NaNs and signed zeros of ``exp``,
``log``, ``sqrt``, the circular, hyperbolic and inverse functions (C99 Annex G,
which the Array API standard requires), complex ``sign`` and ``power`` computed as
NumPy computes them, and the signed zeros of float ``remainder`` (the sign of
the divisor), ``floor_divide`` (the sign of the quotient; ``floor(x1 / x2)``
where an operand is infinite, as the Array API requires), ``divmod`` (both)
and ``sign`` (+0),
and NumPy's integer ``reciprocal``.

Each entry wraps the ``jax.numpy`` ufunc: the plain result, then the special
inputs replaced (or the whole function, for ``sign``, ``power``, ``arcsin``,
``arctan``), in one compiled call for the dtypes concerned (others are the
``jax.numpy`` call itself).

>>> import namedarray as np
>>> complex(np.exp(np.asarray(complex(float("-inf"), float("nan")))))
0j
>>> complex(np.sign(np.asarray(complex(0, float("inf"))))), complex(np.exp(np.asarray(-0j)))
(1j, (1-0j))
>>> complex(1 ** np.asarray(complex(0, float("inf"))))
(nan+nanj)
>>> float(np.remainder(-0.0, 2.0)), float(np.floor_divide(-0.0, 2.0))
(0.0, -0.0)
>>> float(np.floor_divide(np.inf, 2.0)), float(np.floor_divide(1.0, -np.inf))
(inf, -0.0)
>>> complex(np.exp2(np.asarray(complex(float("inf"), 0)))), float(np.modf(np.inf)[0])
((inf+0j), 0.0)
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends

_NAN = float("nan")
_INF = float("inf")


def _c(re, im):
    return jax.lax.complex(re, im)


def _fix_exp(c):
    def fix(z, r):
        a, b = z.real, z.imag
        odd = jnp.isinf(b) | jnp.isnan(b)
        # a zero imaginary part keeps its sign (exp(conj(z)) == conj(exp(z))), and
        # expm1(±0 ± 0j) is z itself
        re = jnp.where((a == 0) & (b == 0), a, r.real) if c else r.real
        r = _c(re, jnp.where(b == 0, b, r.imag))
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
    r = jnp.where(zero, _c(jnp.copysign(0.0, a), jnp.full_like(a, _NAN)), r)
    # NaN ± inf j: ±i pi/2 with NumPy's +0 real part (C99 leaves its sign open)
    return jnp.where(jnp.isnan(a) & jnp.isinf(b),
                     _c(jnp.zeros_like(a), jnp.copysign(math.pi / 2, b)), r)


def _fix_asin(z, r):
    """NumPy's ``asin(±inf + nan j)``: ``nan + inf j`` (C99 leaves the sign of
    the infinite part open; ``-i asinh(i z)`` gives ``nan - inf j``)."""
    a = z.real
    return jnp.where(jnp.isinf(a) & jnp.isnan(z.imag),
                     _c(jnp.full_like(a, _NAN), jnp.full_like(a, _INF)), r)


def _fix_atan(z, r):
    """NumPy's ``atan(±inf + nan j)``: ``±pi/2 + 0 j`` (C99 leaves the sign of
    the zero open; ``-i atanh(i z)`` gives ``-0``)."""
    a = z.real
    return jnp.where(jnp.isinf(a) & jnp.isnan(z.imag),
                     _c(jnp.copysign(math.pi / 2, a), jnp.zeros_like(a)), r)


def _sinh(x):
    """``sinh`` keeping a zero's sign (a TPU's ``sinh(-0.0)`` is ``+0.0``;
    NumPy's is ``-0.0``)."""
    return jnp.where(x == 0, x, jnp.sinh(x))


def _expm1(x):
    """``expm1`` keeping a zero's sign (a TPU's ``expm1(-0.0)`` is ``+0.0``,
    float32, bfloat16 and float16; NumPy's is ``-0.0``)."""
    return jnp.where(x == 0, x, jnp.expm1(x))


def _tanh(x):
    """``tanh`` keeping a zero's sign, as ``_sinh``."""
    return jnp.where(x == 0, x, jnp.tanh(x))


def _finite_hyperbolic(a, b, r, re, im):
    """``re(a) * cos(b) + im(a) * sin(b) j`` where ``a + bj`` is finite with
    ``|a| < 22``, NumPy's formula for ``sinh`` (``re, im = sinh, cosh``) and
    ``cosh`` (``cosh, sinh``) there; elsewhere ``r``.  (XLA's complex
    ``sinh``/``cosh`` take ``(e^z -/+ e^-z) / 2``, which loses a small
    ``sinh(a)``: ``sinh(1e-20 + 0.5j).real`` was 0.)"""
    near = (jnp.abs(a) < 22) & jnp.isfinite(b)
    return jnp.where(near, _c(re(a) * jnp.cos(b), im(a) * jnp.sin(b)), r)


def _cosh_special(z, r):
    """``r``, ``cosh(z)``, with C99's special values (NumPy's zero signs):
    ``cosh(±0 + iy) = cos(y) ± 0i sin(y)`` and ``cosh(x ± 0i) = cosh(x) ±
    0i sinh(x)``, an infinite or NaN ``x`` too.  (A TPU's ``cos(1-0j)`` was
    ``0.5403023-0j``, its ``sinh(-0.0)`` being ``+0.0``.)"""
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    r = jnp.where(a == 0, _c(r.real, a * jnp.sin(b)), r)
    r = jnp.where((a == 0) & odd, _c(jnp.full_like(a, _NAN), jnp.zeros_like(a)), r)
    r = jnp.where(jnp.isinf(a) & odd, _c(jnp.full_like(a, _INF), jnp.full_like(a, _NAN)), r)
    # (the zero's sign times x's; a NaN x: the zero's)
    return jnp.where(b == 0, _c(jnp.cosh(a), jnp.where(_signbit(a) & ~jnp.isnan(a), -b, b)), r)


def _sinh_special(z, r):
    """``r``, ``sinh(z)``, with C99's special values (NumPy's signs):
    ``sinh(±0 + i inf) = ±0 + i NaN``, ``sinh(±inf + i inf) = +inf + i NaN``
    (an infinite or NaN imaginary part), ``sinh(±0 + iy) = ±0 cos(y) + i
    sin(y)``, ``sinh(x ± 0i) = sinh(x) ± 0i`` (an infinite or NaN ``x`` too).
    (A TPU's ``sin(1-0j)`` was ``0.84147096+0j``.)"""
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    r = jnp.where(a == 0, _c(a * jnp.cos(b), r.imag), r)
    r = jnp.where(((a == 0) | jnp.isinf(a)) & odd,
                  _c(jnp.where(a == 0, a, jnp.abs(a)), jnp.full_like(a, _NAN)), r)
    return jnp.where(b == 0, _c(_sinh(a), b), r)


def _fix_cosh(z, r):
    return _cosh_special(z, _finite_hyperbolic(z.real, z.imag, r, jnp.cosh, _sinh))


def _fix_sinh(z, r):
    return _sinh_special(z, _finite_hyperbolic(z.real, z.imag, r, _sinh, jnp.cosh))


def _fix_tanh(z, r):
    """C99's ``tanh`` at the special values, with NumPy's signs of zeros:
    ``tanh(±0 + iy) = ±0 + i tan(y)``, ``tanh(x ± 0i) = tanh(x) ± 0i`` (``x``
    infinite or NaN too), ``tanh(±inf + iy) = ±1 + 0i sin(2y)`` (``y``
    infinite or NaN: the sign of ``y``, as the C library; a TPU's
    ``tanh(inf+nanj)`` was ``nan+nanj``)."""
    a, b = z.real, z.imag
    odd = jnp.isinf(b) | jnp.isnan(b)
    r = _c(jnp.where(a == 0, a, r.real), r.imag)
    r = jnp.where((a == 0) & odd, _c(a, jnp.full_like(a, _NAN)), r)
    r = jnp.where(jnp.isinf(a), _c(jnp.copysign(1.0, a), jnp.copysign(
        0.0, jnp.where(jnp.isfinite(b), jnp.sin(2 * b), b))), r)
    return jnp.where(b == 0, _c(_tanh(a), b), r)


def _fix_sign(z, r):
    return jnp.where(z == 0, jnp.zeros_like(r), r)     # +0 (+ 0j), whatever zeros z has


def _sign(z):
    """NumPy's ``sign``: ``z / |z|`` for complex ``z``, with its answers at
    infinities (``sign(x + inf j) == 1j``; both parts infinite: NaN) and at
    zero (``0j``); real ``sign`` with +0 at zeros."""
    if not jnp.issubdtype(z.dtype, jnp.complexfloating):
        return _fix_sign(z, jnp.sign(z))
    a, b = z.real, z.imag
    h = jnp.hypot(a, b)
    zero, one = jnp.zeros_like(a), jnp.ones_like(a)
    r = _c(a / h, b / h)
    r = jnp.where(h == 0, _c(zero, zero), r)
    ia, ib = jnp.isinf(a), jnp.isinf(b)
    r = jnp.where(ib, _c(zero, jnp.where(b > 0, one, -one)), r)
    r = jnp.where(ia, _c(jnp.where(a > 0, one, -one), zero), r)
    return jnp.where(jnp.isnan(h) | (ia & ib), _nan2(a), r)


# -- complex power, as NumPy's npy_cpow ---------------------------------------------
def cmul(ar, ai, br, bi):
    """NumPy's complex product: the plain formula (``inf * 0`` gives NaN).  XLA
    on the CPU may fuse a product and the sum into one multiply-add (see
    docs/differences.md): the last bit, or an overflow, can differ."""
    return ar * br - ai * bi, ar * bi + ai * br


def _cmul_c99(a, b, c, d):
    """The C library's complex product (C99 Annex G): a NaN result from the
    plain formula is recovered as an infinity when an operand is infinite."""
    ac, bd, ad, bc = a * c, b * d, a * d, b * c
    x, y = ac - bd, ad + bc

    def box(u, v):       # an infinite part becomes ±1, a NaN part ±0, the rest 0
        iu, iv = jnp.isinf(u), jnp.isinf(v)
        return (jnp.copysign(iu.astype(u.dtype), u), jnp.copysign(iv.astype(v.dtype), v))

    def unnan(u):
        return jnp.where(jnp.isnan(u), jnp.copysign(jnp.zeros_like(u), u), u)

    inf_ab = jnp.isinf(a) | jnp.isinf(b)
    inf_cd = jnp.isinf(c) | jnp.isinf(d)
    ba, bb = box(a, b)
    bc_, bd_ = box(c, d)
    a2 = jnp.where(inf_ab, ba, jnp.where(inf_cd, unnan(a), a))
    b2 = jnp.where(inf_ab, bb, jnp.where(inf_cd, unnan(b), b))
    c2 = jnp.where(inf_cd, bc_, jnp.where(inf_ab, unnan(c), c))
    d2 = jnp.where(inf_cd, bd_, jnp.where(inf_ab, unnan(d), d))
    over = ~(inf_ab | inf_cd) & (jnp.isinf(ac) | jnp.isinf(bd) | jnp.isinf(ad)
                                 | jnp.isinf(bc))
    a2, b2, c2, d2 = (jnp.where(over, unnan(v), w) for v, w in
                      ((a, a2), (b, b2), (c, c2), (d, d2)))
    recalc = jnp.isnan(x) & jnp.isnan(y) & (inf_ab | inf_cd | over)
    return (jnp.where(recalc, _INF * (a2 * c2 - b2 * d2), x),
            jnp.where(recalc, _INF * (a2 * d2 + b2 * c2), y))


def _cinv(br, bi):
    """NumPy's ``1 / b`` (Smith's division, its zero case included)."""
    abr, abi = jnp.abs(br), jnp.abs(bi)
    big = abr >= abi
    rat = jnp.where(big, bi / br, br / bi)
    scl = 1.0 / jnp.where(big, br + bi * rat, bi + br * rat)
    # (1 + 0 rat) scl, (0 - rat) scl | (rat + 0) scl, (0 rat - 1) scl, spelled out
    # so that no algebraic rewrite loses a zero's sign or an inf * 0 NaN
    fin = jnp.where(jnp.isfinite(rat), scl, _NAN)
    unsigned = jnp.where(rat == 0, jnp.zeros_like(rat), rat)      # rat + 0
    re = jnp.where(big, fin, unsigned * scl)
    im = jnp.where(big, jnp.where(rat == 0, jnp.zeros_like(rat), -rat) * scl, -fin)
    both0 = (abr == 0) & (abi == 0)
    return jnp.where(both0, 1.0 / abr, re), jnp.where(both0, 0.0 / abi, im)


def _power(x, y):
    """NumPy's complex ``power``: ``z ** 0 == 1``; ``0 ** w`` is 0 for
    ``w.real > 0``, else NaN; a small integer exponent multiplies (square and
    multiply, as NumPy, so infinities come out as NumPy's); otherwise the C
    library's ``exp(w * log(z))``."""
    dt = jnp.result_type(x, y)
    if not jnp.issubdtype(dt, jnp.complexfloating):
        return jnp.power(x, y)
    x, y = jnp.broadcast_arrays(jnp.asarray(x, dt), jnp.asarray(y, dt))
    ar, ai, br, bi = x.real, x.imag, y.real, y.imag
    # general case: cexp(w * clog(z)) with the C library's product
    lr, li = _upper(jnp.log, x).real, _upper(jnp.log, x).imag
    lz = _fix_log(x, _c(lr, li))
    pr, pi = _cmul_c99(br, bi, lz.real, lz.imag)
    w = _c(pr, pi)
    r = _fix_exp(0.0)(w, jnp.exp(w))
    rr, ri = r.real, r.imag
    # small integer exponents
    small = (bi == 0) & (br > -100) & (br < 100) & (jnp.trunc(br) == br)
    n = jnp.where(small, jnp.abs(br), 0).astype(jnp.int32)
    qr, qi = jnp.ones_like(ar), jnp.zeros_like(ar)
    sr, si = ar, ai
    for bit in range(7):               # |n| < 100 < 2**7
        on = (n >> bit) & 1 == 1
        mr, mi = cmul(qr, qi, sr, si)
        qr, qi = jnp.where(on, mr, qr), jnp.where(on, mi, qi)
        sr, si = cmul(sr, si, sr, si)
    vr, vi = _cinv(qr, qi)
    qr, qi = jnp.where(br < 0, vr, qr), jnp.where(br < 0, vi, qi)
    sq_r, sq_i = cmul(ar, ai, ar, ai)
    cu_r, cu_i = cmul(ar, ai, sq_r, sq_i)
    for k, (ur, ui) in ((1, (ar, ai)), (2, (sq_r, sq_i)), (3, (cu_r, cu_i))):
        qr, qi = jnp.where(br == k, ur, qr), jnp.where(br == k, ui, qi)
    rr, ri = jnp.where(small, qr, rr), jnp.where(small, qi, ri)
    # zero base, zero exponent
    zero, one = jnp.zeros_like(ar), jnp.ones_like(ar)
    z0 = (ar == 0) & (ai == 0)
    rr = jnp.where(z0, jnp.where(br > 0, zero, _NAN), rr)
    ri = jnp.where(z0, jnp.where(br > 0, zero, _NAN), ri)
    w0 = (br == 0) & (bi == 0)
    return _c(jnp.where(w0, one, rr), jnp.where(w0, zero, ri))


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


def _via(inner, fix, own):
    """``-i f(i z)``: ``asin`` from ``asinh``, ``atan`` from ``atanh`` (C99),
    then ``own``, the function's own special values where NumPy's differ."""
    def f(z):
        w = _times_i(z)
        v = fix(w, _odd_upper(inner, w))
        return own(z, _c(v.imag, -v.real))
    return f


def _rotated(jfn, special):
    """``jfn(z)`` (``sin``, ``tan``) with the special values of ``-i f(i z)``
    (C99's definition from ``f``: ``sinh``, ``tanh``): ``special(w, r)`` fixes
    ``r = f(w)`` at ``w = i z``, here ``i jfn(z)``."""
    def f(z):
        v = special(_times_i(z), _times_i(jfn(z)))
        return _c(v.imag, -v.real)
    return f


def _sin(z):
    """``sin`` with the special values of ``-i sinh(i z)``, and NumPy's
    ``NaN + inf j`` where the imaginary part is infinite and the real part is
    not finite (C99 leaves that infinity's sign open)."""
    r = _rotated(jnp.sin, _sinh_special)(z)
    return jnp.where(jnp.isinf(z.imag) & ~jnp.isfinite(z.real),
                     _c(r.real, jnp.abs(r.imag)), r)


def _cos(z):
    """``cos`` with the special values of ``cosh(i z)`` (C99)."""
    return _cosh_special(_times_i(z), jnp.cos(z))


_COMPLEX = {
    "exp": _fix_exp(0.0), "expm1": _fix_exp(-1.0), "log": _fix_log, "log1p": _fix_log,
    "sqrt": _fix_sqrt, "arccos": _fix_acos, "acos": _fix_acos, "arccosh": _fix_acosh,
    "acosh": _fix_acosh, "arcsinh": _fix_asinh, "asinh": _fix_asinh,
    "arctanh": _fix_atanh, "atanh": _fix_atanh, "cosh": _fix_cosh, "sinh": _fix_sinh,
    "tanh": _fix_tanh,
}
# branch cuts: the sign of a zero imaginary part (real part, for the odd ones)
# picks the side
_CUTS = {"sqrt": _upper, "log": _upper, "log2": _upper, "log10": _upper, "log1p": _upper,
         "arccos": _upper, "acos": _upper,
         "arccosh": _upper, "acosh": _upper, "arcsinh": _odd_upper, "asinh": _odd_upper,
         "arctanh": _odd_upper, "atanh": _odd_upper}
_BITS = {jnp.dtype(jnp.float64): jnp.int64, jnp.dtype(jnp.float32): jnp.int32}
_ZERO: list = []


def runtime_zero(*operands):
    """An int32 zero on the device, given to a compiled call as an argument (a
    value the compiler cannot see, for :func:`unfused`); a NumPy zero where an
    operand is traced (a device array would be captured as a constant of the
    enclosing computation, which JAX's dispatch then passes wrongly)."""
    if any(isinstance(v, jax.core.Tracer) for v in operands):
        return onp.int32(0)
    if not _ZERO:
        _ZERO.append(jax.device_put(onp.int32(0)))
    return _ZERO[0]


def unfused(x, zero):
    """``x`` unchanged, through an integer operation on the runtime ``zero``:
    XLA on a CPU would otherwise fuse a product and the sum that uses it into
    one fused multiply-add, rounded once where NumPy rounds twice.  (Under a
    trace a literal zero is folded away, and the product may fuse.)"""
    if x.dtype.kind == "c":
        return _c(unfused(x.real, zero), unfused(x.imag, zero))
    it = _BITS.get(x.dtype)
    if it is None or x.dtype == onp.float64 and _lacks_float64_bits():
        return x        # (a TPU's float64 is a pair of float32s: no bits to pass)
    return jax.lax.bitcast_convert_type(
        jax.lax.bitcast_convert_type(x, it) ^ zero.astype(it), x.dtype)


def complex_quotient(x, y, zero):
    """NumPy's complex ``x / y`` loop (Smith's: the ratio of ``y``'s parts,
    then a reciprocal; the parts over ``|y.real|`` where ``y`` is 0), operands
    of one complex dtype, each operation rounded as there."""
    x, y = jnp.broadcast_arrays(x, y)
    xr, xi, yr, yi, zero = jax.lax.optimization_barrier(
        (x.real, x.imag, y.real, y.imag, zero))
    big = jnp.abs(yr) >= jnp.abs(yi)
    p, q = jnp.where(big, yr, yi), jnp.where(big, yi, yr)
    u, v = jnp.where(big, xr, xi), jnp.where(big, xi, xr)
    rat = q / p
    scl = 1 / (p + unfused(q * rat, zero))
    w = unfused(u * rat, zero)
    re = (u + unfused(v * rat, zero)) * scl
    im = jnp.where(big, v - w, w - v) * scl
    # y == 0: the parts over |y.real| (times 1 / +0 = inf: the same values, one
    # division fewer)
    at0 = (yr == 0) & (yi == 0)
    inf = 1 / jnp.abs(yr)
    return _c(jnp.where(at0, xr * inf, re), jnp.where(at0, xi * inf, im))


def _reciprocal(z, zero):
    """NumPy's complex ``reciprocal`` loop (Smith's ratio; ``inf + inf j`` and
    ``nan + inf j`` give NaN, as there); its integer loop is ``1 / x``
    truncated (1, -1 or 0), and ``1 / 0`` (an infinity converted) is the
    minimum of a 32- or 64-bit signed type and 0 otherwise (XLA's integer
    division gave the maximum)."""
    if not jnp.issubdtype(z.dtype, jnp.complexfloating):
        if z.dtype == jnp.bool_:
            z = z.astype(jnp.int8)
        info = jnp.iinfo(z.dtype)
        at0 = info.min if info.min < 0 and info.bits >= 32 else 0
        r = jnp.where(z == 1, 1, jnp.where(z == 0, at0, 0))
        if info.min < 0:
            r = jnp.where(z == -1, -1, r)
        return r.astype(z.dtype)
    return _complex_reciprocal(z, zero)


@jax.custom_jvp
def _complex_reciprocal(z, zero):
    a, b, zero = jax.lax.optimization_barrier((z.real, z.imag, zero))
    big = jnp.abs(a) >= jnp.abs(b)
    p, q = jnp.where(big, a, b), jnp.where(big, b, a)
    r = q / p
    # (through a barrier: XLA would rewrite ``(q / p) / d`` as ``q / (p * d)``)
    r, d = jax.lax.optimization_barrier((r, p + unfused(q * r, zero)))
    return _c(jnp.where(big, 1 / d, r / d), jnp.where(big, -r / d, -1 / d))


# the derivative of jax.numpy's reciprocal (the branches' would be NaN at a zero part)
_complex_reciprocal.defjvps(
    lambda g, r, z, zero: g * (-1 * jax.lax.integer_pow(z, -2)), None)


def _exp2(z):
    """``exp(z ln 2)``, the product taken part by part (``inf + 0j`` stays
    ``inf + 0j``), the exponential with C99's special values."""
    w = _c(z.real * math.log(2), z.imag * math.log(2))
    return _COMPLEX["exp"](w, jnp.exp(w))


def _beyond(a, b, is_max):
    """Where ``b`` is lexicographically beyond ``a`` (above for a maximum,
    below for a minimum): NumPy's complex order; on a tie ``a`` stays."""
    x, y = (b, a) if is_max else (a, b)
    return (y.real < x.real) | ((y.real == x.real) & (y.imag < x.imag))


def _fix_extreme(is_max):
    """maximum/minimum propagate a NaN held in either part, the first
    operand's first (jnp compares past a NaN imaginary part); else the
    lexicographic extreme, the first operand on a tie (of signed zeros)."""
    def fix(a, b, r):
        r = jnp.where(_beyond(a, b, is_max), b, a)
        return jnp.where(jnp.isnan(a), a, jnp.where(jnp.isnan(b), b, r))
    return fix


_COMPLEX.update(maximum=_fix_extreme(True), minimum=_fix_extreme(False))


def _fix_nan_extreme(is_max):
    """fmax/fmin as NumPy's loop: an operand with a NaN in either part is left
    out (the first where both have one), else the second operand where it is
    lexicographically beyond the first, else the first (a tie of signed zeros
    keeps the first; jnp's fmin kept a NaN imaginary part, ``fmin(nanj, 1)``
    was nanj, and took the second of ties)."""
    def fix(a, b, r):
        r = jnp.where(_beyond(a, b, is_max), b, a)
        na, nb = jnp.isnan(a), jnp.isnan(b)
        return jnp.where(na, jnp.where(nb, a, b), jnp.where(nb, a, r))
    return fix


_COMPLEX.update(fmax=_fix_nan_extreme(True), fmin=_fix_nan_extreme(False))


# computed whole from another function
_ASIN, _ATAN = _via(jnp.arcsinh, _fix_asinh, _fix_asin), _via(jnp.arctanh, _fix_atanh, _fix_atan)
_VIA = {"arcsin": _ASIN, "asin": _ASIN, "arctan": _ATAN, "atan": _ATAN,
        "power": _power, "pow": _power, "float_power": _power, "sign": _sign, "reciprocal": _reciprocal,
        "exp2": _exp2, "sin": _sin, "cos": _cos, "tan": _rotated(jnp.tan, _fix_tanh)}


def _lacks_float64_bits() -> bool:
    """Whether the default device cannot take float64 apart by its bits (a
    TPU: the capability table's ``float_bits``, under ``jax.jit`` too)."""
    return not backends.cpu_only() and backends.status(
        backends.accelerator(), "float_bits", "float64") == backends.ABSENT


def _signbit(x):
    """``jnp.signbit(x)`` of real floats; where the default device cannot
    take float64 apart by its bits (a TPU: the capability table's
    ``float_bits``, under ``jax.jit`` too), the sign read by comparisons
    instead (a zero's by the sign of ``1 / x``; a NaN's counts as positive,
    never asked here: these fixes look at zeros and infinities only)."""
    if x.dtype == onp.float64 and _lacks_float64_bits():
        return (x < 0) | ((x == 0) & (1 / x < 0))
    return jnp.signbit(x)


def _signed_zero(like, s):
    """A zero of ``like``'s dtype and shape with the sign of ``s``."""
    zero = jnp.zeros_like(like)
    return jnp.where(_signbit(s), -zero, zero)


def _by_infinity(x, y, r):
    """``r`` where ``y`` is infinite and ``x`` finite made NumPy's remainder
    (``x``, or ``y`` where their signs differ and ``x`` is not 0): a TPU's
    float remainder by an infinity is NaN, where NumPy's ``fmod`` is ``x``."""
    fin = jnp.isinf(y) & jnp.isfinite(x)
    at = jnp.where((x == 0) | (_signbit(x) == _signbit(y)), x, y)
    return jnp.where(fin, at.astype(r.dtype), r), fin


def _fix_remainder(x, y, r):
    r, _ = _by_infinity(x, y, r)
    return jnp.where(r == 0, _signed_zero(r, y), r)


def _fix_fmod(x, y, r):
    """``fmod(x, ±inf)`` of finite ``x`` is ``x`` (a TPU's is NaN)."""
    return jnp.where(jnp.isinf(y) & jnp.isfinite(x), jnp.asarray(x).astype(r.dtype), r)


def _zero_quotient(x, y, r):
    """A zero floor quotient ``r`` has the sign of ``x / y`` (not NaN where
    ``r`` is 0): negative where the signs of ``x`` and ``y`` differ.  No
    division: a second use of one would keep XLA from fusing it."""
    zero = jnp.zeros_like(r)
    return jnp.where(r == 0, jnp.where(_signbit(x) != _signbit(y), -zero, zero), r)


def _fix_floor_divide(x, y, r):
    """NumPy's zeros; where an operand is infinite the result is ``floor(x /
    y)``, NumPy's definition and the Array API's special values (``inf // 2 ==
    inf``, ``1 // -inf == -0.0``; NumPy's loop gives NaN and -1.0 there)."""
    r = _zero_quotient(x, y, r)
    return jnp.where(jnp.isinf(x) | jnp.isinf(y), jnp.floor(x / y).astype(r.dtype), r)


def _fix_divmod(x, y, r):
    """NumPy's zeros of both parts (its NaN and -1.0 quotients at infinities
    stay: ``divmod`` is NumPy's, as ``remainder`` is); a finite ``x`` by an
    infinity is NumPy's ``(0, x)`` or ``(-1, y)`` (a TPU's remainder there is
    NaN, and the quotient made of it)."""
    m, fin = _by_infinity(x, y, r[1])
    q = jnp.where(fin, jnp.where(m == y, -1, 0).astype(r[0].dtype), r[0])
    return _zero_quotient(x, y, q), jnp.where(m == 0, _signed_zero(m, y), m)


def _fix_modf(x, r):
    """A zero fractional part (of an integer, of an infinity: jnp gives NaN)
    has the sign of ``x`` (``modf(-3.0) == (-0.0, -3.0)``)."""
    frac = jnp.where(jnp.isinf(x), jnp.zeros_like(x), r[0])
    return jnp.where(frac == 0, _signed_zero(x, x), frac), r[1]


def _fix_spacing(x, r):
    """``spacing(±0)`` is the smallest positive subnormal; of ±inf, NaN."""
    r = jnp.where(x == 0, jnp.abs(r), r)
    return jnp.where(jnp.isinf(x), jnp.full_like(r, _NAN), r)


_FLOAT = {"remainder": _fix_remainder, "mod": _fix_remainder,
          "floor_divide": _fix_floor_divide, "divmod": _fix_divmod, "modf": _fix_modf,
          "fmod": _fix_fmod,
          "spacing": _fix_spacing}


def _fix_abs(z, r):
    """``|z|`` is inf where a part is infinite, even if the other is NaN (hypot)."""
    return jnp.where(jnp.isinf(z.real) | jnp.isinf(z.imag), jnp.full_like(r, _INF), r)


def _complex_order(first, second):
    """NumPy's complex comparison: by the real parts (where neither imaginary
    part is NaN), then by the imaginary parts (jnp ignores a NaN there)."""
    def fix(a, b, r):
        a, b = jnp.asarray(a), jnp.asarray(b)
        ok = ~jnp.isnan(a.imag) & ~jnp.isnan(b.imag)
        return (first(a.real, b.real) & ok) | ((a.real == b.real) & second(a.imag, b.imag))
    return fix


_COMPLEX.update(absolute=_fix_abs, abs=_fix_abs, log2=_fix_log, log10=_fix_log,
                greater=_complex_order(jnp.greater, jnp.greater),
                greater_equal=_complex_order(jnp.greater, jnp.greater_equal),
                less=_complex_order(jnp.less, jnp.less),
                less_equal=_complex_order(jnp.less, jnp.less_equal))


class _Special:
    """A ``jax.numpy`` ufunc whose special values are corrected for the dtype
    kinds in ``kind`` (``"c"``: complex, ``"f"``: real floating)."""

    def __init__(self, jfn, fix, kind, cut=None, whole=None, zero=False):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._kind = kind
        # the jitted implementation behind jax.numpy's ufunc (skips its re-checks)
        props = getattr(jfn, "_ufunc__static_props", None) if isinstance(
            jfn, jnp.ufunc) else None
        self._plain = (props or {}).get("call") or jfn
        if zero:            # ``whole`` rounds as NumPy given a runtime zero
            compiled = jax.jit(whole)
            self._fixed = lambda *a: compiled(*a, runtime_zero(*a))
        elif whole is not None:
            self._fixed = jax.jit(whole)
        elif cut is not None:
            self._fixed = jax.jit(lambda z: fix(z, cut(jfn, z)))
        else:
            # (the operands behind a barrier: XLA folds jnp's floor division by a
            # constant zero of bool data to -1.0, NumPy's NaN, inside a jit)
            self._fixed = jax.jit(lambda *a: fix(*a, jfn(*jax.lax.optimization_barrier(a))))

    def __call__(self, *args):
        for a in args:
            dt = getattr(a, "dtype", None)
            k = dt.kind if dt is not None else (
                "c" if isinstance(a, complex) else "f" if isinstance(a, float) else "i")
            if k in self._kind or (k == "V" and "f" in self._kind):   # V: bfloat16, ...
                return self._fixed(*args)
        return self._plain(*args)

    def for_types(self, types):
        """The function that ``__call__`` runs on operands of ``types`` (dtypes,
        or the types of Python scalars): the ufunc engine's fast path calls it
        directly."""
        for t in types:
            k = (("c" if t is complex else "f" if t is float else "i")
                 if isinstance(t, type) else t.kind)
            if k in self._kind or (k == "V" and "f" in self._kind):
                return self._fixed
        return self._plain.for_types(types) if isinstance(self._plain, _Special) else \
            self._plain

    def accumulate(self, a, axis=0, dtype=None):
        """NumPy's ``accumulate``: a left fold of the corrected function where
        ``a`` is of a corrected kind (``maximum.accumulate`` of complex data
        keeps a NaN once met), else ``jax.numpy``'s."""
        a = jnp.asarray(a, dtype)
        k = a.dtype.kind
        if k in self._kind or (k == "V" and "f" in self._kind):
            return running(self._fixed, a, axis)
        return self._f.accumulate(a, axis=axis)

    def __getattr__(self, k):
        return getattr(self._f, k)


def running(f, a, axis):
    """NumPy's ``accumulate`` of the binary ``f`` along ``axis``: a left fold
    in order, ``out[i] = f(out[i - 1], a[i])``, the first element as it is
    (an associative scan regroups the steps, which changes special values:
    a complex product with an infinite part, a NaN a comparison drops)."""
    x = jnp.moveaxis(a, axis, 0)
    if x.shape[0] > 1:
        _, rest = jax.lax.scan(lambda c, v: (f(c, v),) * 2, x[0], x[1:])
        x = jnp.concatenate([x[:1], rest.astype(x.dtype)])
    return jnp.moveaxis(x, 0, axis)


def _log2(x):
    """``log2`` of real floats exact at powers of two (``jax.numpy``'s
    ``log(x) / log(2)`` gives ``log2(8.0) == 2.9999999999999996``): the
    exponent plus the ``log2`` of the mantissa taken in ``[sqrt(1/2),
    sqrt(2))``; zeros, negatives, infinities and NaN as ``jax.numpy`` has them."""
    m, e = jnp.frexp(x)
    low = m < math.sqrt(0.5)
    m = jnp.where(low, m * 2, m)
    r = (e - low).astype(x.dtype) + jnp.log(m) / jnp.asarray(math.log(2), x.dtype)
    return jnp.where(jnp.isfinite(x) & (x > 0), r, jnp.log2(x))


# real floating: computed whole by another formula (the complex fixes apply after)
_REAL = {"log2": _log2, "sinh": _sinh, "expm1": _expm1}


def special(name, jfn):
    """``jfn`` (the ``jax.numpy`` ufunc ``name``) with its special values fixed,
    or ``jfn`` itself when it has none to fix."""
    if name in _REAL:
        jfn = _Special(jfn, None, "f", whole=_REAL[name])
    if name in _COMPLEX:
        return _Special(jfn, _COMPLEX[name], "c", cut=_CUTS.get(name))
    if name in _VIA:
        kind = {"sign": "cf", "reciprocal": "cbiu"}.get(name, "c")
        return _Special(jfn, None, kind, whole=_VIA[name], zero=name == "reciprocal")
    if name in _FLOAT:
        return _Special(jfn, _FLOAT[name], "f")
    return jfn

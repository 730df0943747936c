"""Elementwise results equal to NumPy's bit for bit where XLA's defaults differ:
complex ``sign``, ``power`` and ``exp`` at special values (infinities, NaN,
signed zeros), and true division by a broadcast divisor (``x / 3.0``), which
XLA would turn into a multiplication by the reciprocal."""
from __future__ import annotations

import os

import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from support import emulates, shapes, traced_lacks

INF, NAN = float("inf"), float("nan")


def _compiled(f):
    """``jax.jit(f)``; where the default device lacks complex128 (a TPU), a
    traced call in it is the capability table's TypeError, and the compiled
    semantics are then checked on the CPU backend, as that error advises."""
    jitted = jax.jit(f)
    if not traced_lacks("any", onp.complex128):
        return jitted

    def run(*args):
        try:
            return jitted(*args)
        except TypeError as e:
            if "no implementation of this operation on complex128" not in str(e):
                raise
        with jax.default_device(jax.devices("cpu")[0]):
            return jax.jit(f)(*args)
    return run


def _same(want, got, rtol):
    """Per part: both NaN, or equal with the same sign (zeros included), or
    close for nonzero finite parts (libm and XLA round differently)."""
    for w, g in ((want.real, got.real), (want.imag, got.imag)):
        nan = onp.isnan(w) & onp.isnan(g)
        exact = (w == g) & (onp.signbit(w) == onp.signbit(g))
        close = onp.isfinite(w) & (w != 0) & onp.isclose(w, g, rtol=rtol, atol=0)
        bad = ~(nan | exact | close)
        assert not bad.any(), list(zip(want[bad], got[bad]))[:10]


_GRID = [0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -2.0, 2.5, 0.5, INF, -INF, NAN]
_TOL = {"complex64": 1e-4, "complex128": 1e-12}


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_power_special_values_match_numpy(dt):
    z = onp.array([complex(a, b) for a in _GRID for b in _GRID], dtype=dt)
    x, y = onp.meshgrid(z, z, indexing="ij")
    with onp.errstate(all="ignore"):
        want = onp.power(x, y)
    _same(want, onp.asarray(np.power(np.asarray(x), np.asarray(y))), _TOL[dt])
    # the reported case, with a Python int base, and under jax.jit
    w = onp.asarray([complex(0, INF)], dtype=dt)
    with onp.errstate(all="ignore"):
        ref = 1 ** w
    _same(ref, onp.asarray(1 ** np.asarray(w)), 0)
    _same(ref, onp.asarray(_compiled(lambda v: 1 ** v)(np.asarray(w))), 0)
    assert onp.isnan(ref).all()


def test_complex_power_small_integer_exponents_multiply_as_numpy():
    # NumPy multiplies for integer exponents |n| < 100: infinities and zeros follow
    # the product formula, not exp(n log z)
    z = onp.array([complex(INF, 0), complex(0, INF), complex(-1, 0), complex(0, -1),
                   complex(1e-3, 2), complex(-0.0, 1)])
    for n in (-7, -3, -2, -1, 1, 2, 3, 4, 5, 99, 100, 2.5):
        with onp.errstate(all="ignore"):
            want = onp.power(z, complex(n))
        _same(want, onp.asarray(np.power(np.asarray(z), complex(n))), 1e-12)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_sign_and_exp_zero_signs_match_numpy(dt):
    g = [0.0, -0.0, 1.5, -1.5, 1e30, -1e30, 800.0, -800.0, INF, -INF, NAN]
    z = onp.array([complex(a, b) for a in g for b in g], dtype=dt)
    with onp.errstate(all="ignore"):
        for fn in ("sign", "exp"):
            want = getattr(onp, fn)(z)
            _same(want, onp.asarray(getattr(np, fn)(np.asarray(z))), _TOL[dt])
            jitted = _compiled(lambda v: getattr(np, fn)(v))
            _same(want, onp.asarray(jitted(np.asarray(z))), _TOL[dt])
    # the reported cases
    s = complex(np.sign(np.asarray(complex(0, INF))))
    assert s == 1j and not onp.signbit(s.real)
    e = complex(np.exp(np.asarray(-0j)))
    assert e == 1 and onp.signbit(e.imag) and onp.signbit(onp.exp(-0j).imag)
    assert float(np.sign(np.asarray(-0.0))) == 0 and not onp.signbit(np.sign(np.asarray(-0.0)))


def test_expm1_of_zeros_keeps_their_signs():
    z = onp.array([0j, complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0)])
    got = onp.asarray(np.expm1(np.asarray(z)))
    with onp.errstate(all="ignore"):
        _same(onp.expm1(z), got, 0)


# -- true division by a broadcast divisor ---------------------------------------------
def _normal(dt):
    return st.floats(-1e4, 1e4, width=onp.dtype(dt).itemsize * 8, allow_subnormal=False)


def _divisor(dt):
    return _normal(dt).filter(lambda v: abs(v) > 1e-3)


def _assert_bitwise(want, got):
    want, got = onp.asarray(want), onp.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    # a subnormal quotient is flushed to zero by XLA on the CPU
    ok = (want == got) | (onp.isnan(want) & onp.isnan(got)) | (
        (onp.abs(want) < onp.finfo(want.dtype).tiny) & (got == 0))
    assert ok.all(), list(zip(want[~ok], got[~ok]))[:5]


@given(st.sampled_from(["float16", "float32", "float64"]).flatmap(
    lambda dt: st.tuples(hnp.arrays(dt, shapes(max_side=6), elements=_normal(dt)),
                         _divisor(dt))))
def test_division_by_a_scalar_is_exact(xd):
    x, d = xd
    with onp.errstate(all="ignore"):
        want = x / x.dtype.type(d)
        _assert_bitwise(want, np.asarray(x) / x.dtype.type(d))
        _assert_bitwise(want, np.divide(np.asarray(x), np.asarray(d, dtype=x.dtype)))
        _assert_bitwise(want, _compiled(lambda v: v / x.dtype.type(d))(np.asarray(x)))
        if x.dtype == onp.float64:
            _assert_bitwise(x / d, np.asarray(x) / d)          # a Python float


@given(hnp.arrays("float64", shapes(min_dims=2, max_side=5), elements=_normal("float64")),
       st.data())
def test_division_by_a_broadcast_row_is_exact(x, data):
    row = data.draw(hnp.arrays("float64", x.shape[-1:], elements=_divisor("float64")))
    _assert_bitwise(x / row, np.asarray(x) / np.asarray(row))
    named = np.asarray(x).tag("b", *[None] * (x.ndim - 1)) / np.asarray(row)
    _assert_bitwise(x / row, named.untag("b"))


def test_division_by_three_many_values():
    x = onp.random.default_rng(3).standard_normal(10_000)
    for dt in ("float32", "float64"):
        a = x.astype(dt)
        _assert_bitwise(a / a.dtype.type(3), np.asarray(a) / a.dtype.type(3))
    _assert_bitwise(x / 3.0, np.asarray(x) / 3.0)
    i = onp.arange(-500, 500)
    _assert_bitwise(i / 3, np.asarray(i) / 3)


@pytest.mark.parametrize("fn", ["exp2", "reciprocal"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_exp2_and_reciprocal_special_values_match_numpy(fn, dt):
    grid = _GRID + [700.0, -800.0, 1e300, -1e-300]
    with onp.errstate(all="ignore"):     # 1e300 overflows complex64
        z = onp.array([complex(a, b) for a in grid for b in grid], dt)
        want = getattr(onp, fn)(z)
    _same(want, onp.asarray(getattr(np, fn)(np.asarray(z))), _TOL[dt])


def test_modf_of_infinities_is_a_signed_zero_and_the_infinity():
    frac, whole = np.modf(np.asarray([INF, -INF, NAN, 2.5]))
    onp.testing.assert_array_equal(onp.signbit(onp.asarray(frac)[:2]), [False, True])
    onp.testing.assert_array_equal(frac, [0.0, -0.0, NAN, 0.5])
    onp.testing.assert_array_equal(whole, [INF, -INF, NAN, 2.0])


@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64,
                                onp.uint8, onp.uint16, onp.uint32, onp.uint64])
def test_integer_reciprocal(dt):
    """NumPy's integer loop: 1 / x truncated, 1 / 0 the signed minimum of 32-
    and 64-bit types and 0 otherwise (XLA's division gave the maximum)."""
    vals = [0, 1] if dt is onp.bool_ else (
        [0, 1, 2, 3, 255] if onp.dtype(dt).kind == "u" else [0, 1, 2, -1, -2, 127])
    x = onp.array(vals, dt)
    with onp.errstate(all="ignore"):
        exp = onp.reciprocal(x)
    got = np.reciprocal(np.asarray(x))
    assert got.dtype == exp.dtype
    onp.testing.assert_array_equal(onp.asarray(got), exp)


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("dt", [onp.complex64, onp.complex128])
def test_complex_maximum_minimum_propagate_nan_in_either_part(op, dt):
    n = onp.nan
    a = onp.asarray([1, complex(0, n), complex(n, 0), 2 + 1j, 1 + 1j, complex(n, 1)], dt)
    b = onp.asarray([complex(0, n), 1, 1, complex(2, n), 1 + 2j, complex(1, n)], dt)
    f, g = getattr(np, op), getattr(onp, op)
    for x, y in ((a, b), (b, a), (a, onp.float16(1)), (onp.float16(1), b)):
        got = f(np.asarray(x), np.asarray(y))
        exp = g(x, y)
        assert onp.asarray(got).dtype == exp.dtype
        onp.testing.assert_array_equal(onp.asarray(got).real, exp.real)
        onp.testing.assert_array_equal(onp.asarray(got).imag, exp.imag)


def test_complex_float_power_of_zero_is_numpy_s():
    # 0 ** w is 0 for w.real > 0, NaN otherwise; computed in complex128
    b = onp.asarray([0, 0, 1, 2, 0])
    e = onp.asarray([1 + 1j, 1j, 0, 2 + 1j, -1], onp.complex64)
    with onp.errstate(all="ignore"):
        exp = onp.float_power(b, e)
    got = onp.asarray(np.float_power(np.asarray(b), np.asarray(e)))
    assert got.dtype == exp.dtype
    onp.testing.assert_allclose(got, exp, rtol=1e-12, equal_nan=True)
    assert complex(np.float_power(np.asarray(False), 1 + 1j)) == 0


@pytest.mark.parametrize("other", [3, -2, 2.5, 0.3 - 1j, onp.complex64(1.7 + 0.3j),
                                   onp.asarray([2.5, -1.5, 0.5], onp.float32),
                                   onp.asarray([1 - 2j, 0.5j, 3], onp.complex64)])
def test_complex64_float_power_in_complex128(other):
    # NumPy's float_power loops are d and D only: complex64 operands are
    # computed in complex128, to complex128 precision
    x = onp.asarray([1.1 + 2.3j, 3 - 1j, -0.7 + 0.2j], onp.complex64)
    for a, b in ((x, other), (other, x)):
        exp = onp.float_power(a, b)
        got = onp.asarray(np.float_power(*(np.asarray(v) if isinstance(v, onp.ndarray)
                                           else v for v in (a, b))))
        assert got.dtype == exp.dtype == onp.complex128
        onp.testing.assert_allclose(got, exp, rtol=1e-14, atol=0)


@pytest.mark.parametrize("name", ["prod", "nanprod"])
@pytest.mark.parametrize("value", [complex(float("nan"), float("inf")), complex(1, float("inf")),
                                   complex(float("inf"), 0), complex(2, 3)])
def test_complex_product_of_one_element_multiplies_from_the_identity(name, value):
    """NumPy's loop forms ``(1+0j) * x``: an infinite part makes its partner NaN
    (XLA returned a lone element as it is: ``prod([nan+infj])`` was ``nan+infj``)."""
    for dt in (onp.complex64, onp.complex128):
        a = onp.array([[value]], dt)
        for axis in (None, 0, 1, (0, 1)):
            want = getattr(onp, name)(a, axis=axis)
            got = getattr(np, name)(np.asarray(a), axis=axis)
            onp.testing.assert_array_equal(onp.asarray(got), want)
            jitted = _compiled(lambda x: getattr(np, name)(x, axis=axis))(np.asarray(a))
            onp.testing.assert_array_equal(onp.asarray(jitted), want)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("decimals", [-3, -1, 0, 1, 2, 3, 5, 8])
def test_round_gives_numpys_bits_compiled(dt, decimals):
    """``round`` divides by ``10**decimals`` correctly rounded, as NumPy does
    (XLA multiplied by the reciprocal: under ``jit``, a quarter to a half of
    float32/float64 values were 1 ulp off, ``round(float32(2059889.0), 2)``
    among them)."""
    # compiled for a TPU: its float32 division is an ulp off, and its float16
    # steps keep float32's precision unless XLA's excess precision is off
    # (checked there: NumPy's bits with XLA_FLAGS=--xla_allow_excess_precision=false)
    tpu = jax.default_backend() == "tpu"
    if tpu and dt == "float16" and \
            "xla_allow_excess_precision=false" not in os.environ.get("XLA_FLAGS", ""):
        pytest.skip("a TPU keeps float32's precision between float16 steps (XLA's excess "
                    "precision; docs/differences.md)")
    ulps = 1 if tpu and dt in ("float32", "complex64") else 0
    rng = onp.random.default_rng(decimals + 10)
    a = (rng.standard_normal(500) * 10.0 ** rng.integers(-3, 8, 500)).astype(dt)
    if a.dtype.kind == "c":
        a = a + 1j * a[::-1]
    with onp.errstate(all="ignore"):
        a[:5] = [INF, -INF, NAN, -0.0, 2059889.0]
        want = onp.round(a, decimals)
    got = onp.asarray(_compiled(lambda x: np.round(x, decimals))(np.asarray(a)))
    assert got.dtype == want.dtype
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        same = (g == w) & (onp.signbit(g) == onp.signbit(w)) | onp.isnan(g) & onp.isnan(w)
        if ulps:
            with onp.errstate(all="ignore"):
                same |= onp.abs(g - w) <= ulps * onp.spacing(onp.abs(w))
        assert same.all(), list(zip(a[~same], g[~same], w[~same]))[:5]


_CPLX = [complex(-INF, -INF), complex(INF, INF), complex(-INF, 0), complex(INF, 0),
         complex(0, -INF), complex(NAN, 0), complex(0, NAN), complex(1, 2), complex(1, -2),
         complex(-0.0, 0), complex(NAN, 5)]


@pytest.mark.parametrize("name", ["fmin", "fmax", "minimum", "maximum"])
def test_complex_elementwise_extremes_compiled(name):
    """Compiled, complex fmin/fmax/minimum/maximum are NumPy's on every pair of
    special values: an operand with a NaN part left out (fmin/fmax) or kept
    (minimum/maximum), else the lexicographic extreme, the first operand on a
    tie of signed zeros (``fmin(nanj, 1)`` was nanj; the long fuzz, seed 29,
    host tier off; ``minimum(0j, -0j)`` was -0j)."""
    vals = [0.0, -0.0, 1.0, -1.0, onp.inf, -onp.inf, onp.nan]
    cs = [complex(a, b) for a in vals for b in vals]
    x = onp.array([a for a in cs for b in cs], onp.complex128)
    y = onp.array([b for a in cs for b in cs], onp.complex128)
    want = getattr(onp, name)(x, y)
    got = onp.asarray(_compiled(getattr(np, name))(np.asarray(x), np.asarray(y)))
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        assert (onp.isnan(g) == onp.isnan(w)).all(), name
        ok = onp.isnan(w) | ((g == w) & (onp.signbit(g) == onp.signbit(w)))
        assert ok.all(), (name, x[~ok][:3], y[~ok][:3], got[~ok][:3], want[~ok][:3])


@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin", "max",
                                  "min", "nanmax", "nanmin"])
def test_complex_extremes_with_infinite_parts_compiled(name):
    """Compiled (under ``jax.jit``), the complex extremes and their indices
    with infinite and NaN parts are NumPy's: an infinite imaginary part of
    the real extreme no longer ties with the filler of the other elements
    (``max([0, 1-infj])`` was 0j, ``argmax`` 0; the long fuzz, seed 29, host
    tier off), and ``nanargmax`` reads a NaN as NumPy does, -inf+0j."""
    rng = onp.random.default_rng(29)
    vals = [0.0, 1.0, -1.0, onp.inf, -onp.inf, onp.nan]
    f = _compiled(lambda x: getattr(np, name)(x))
    for _ in range(60):
        dt = rng.choice([onp.complex64, onp.complex128])
        z = onp.array([complex(rng.choice(vals), rng.choice(vals))
                       for _ in range(rng.integers(1, 5))], dtype=dt)
        try:
            with onp.errstate(all="ignore"):
                want = getattr(onp, name)(z)
        except ValueError:          # an all-NaN slice (jit: JAX's -1, documented)
            continue
        got = onp.asarray(f(np.asarray(z)))
        assert got.tobytes() == onp.asarray(want).tobytes() or (
            onp.isnan(got) and onp.isnan(want)), (name, z, got, want)


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin", "nanmax", "nanmin", "ptp"])
def test_complex_extremes_are_the_element_numpys_fold_picks(name):
    """A complex max/min is an element: the lexicographic extreme (the first
    of ties), the first NaN (``nanmax``: NaNs left out, an all-NaN slice's
    first element).  jnp starts from ``-inf+0j``, which beat ``-inf-infj``:
    ``max([-inf-infj])`` was ``-inf+0j`` compiled (the long fuzz, seed 17)."""
    rng = onp.random.default_rng(3)
    f = getattr(np, name)
    for _ in range(5):
        shape = tuple(rng.integers(1, 4, rng.integers(1, 3)))
        for dt in (onp.complex64, onp.complex128):
            a = onp.array(rng.choice(_CPLX, size=shape)).astype(dt)
            for axis in [None, *range(a.ndim)] + ([(0, 1)] if a.ndim > 1 else []):
                with onp.errstate(all="ignore"):
                    want = getattr(onp, name)(a, axis=axis)
                for kd in (False, True):
                    got = _compiled(lambda x: f(x, axis=axis, keepdims=kd))(np.asarray(a))
                    w = onp.expand_dims(want, axis if axis is not None else
                                        tuple(range(a.ndim))) if kd else want
                    _same(onp.asarray(w), onp.asarray(got), rtol=0)


@pytest.mark.parametrize("fn, complex_fns", [("sinh", ("sinh", "cosh")),
                                             ("expm1", ("expm1",))])
def test_zero_signs_kept_where_the_backend_drops_them(monkeypatch, fn, complex_fns):
    """A TPU's ``sinh(-0.0)`` and ``expm1(-0.0)`` are ``+0.0`` (seen on a TPU
    v5e: float32, bfloat16, float16, and in complex64 ``sinh``/``cosh``
    parts); NumPy's are ``-0.0``.  Built on a ``jax.numpy`` function that
    does so here, namedarray's compiled kernels keep NumPy's zero signs (bit
    for bit), and give the backend's own values elsewhere (a TPU's float32
    ``sinh`` is ~1,700 units in the last place from NumPy's:
    docs/differences.md)."""
    import jax.numpy as jnp
    from namedarray.frontend.engines import loops
    real = getattr(jnp, fn)

    def drops(x):                   # the backend's function, a zero's sign dropped
        return jnp.where(x == 0, jnp.zeros_like(x), real(x))

    def kernel(name):               # namedarray's, built on that backend
        monkeypatch.setattr(jnp, name, drops if name == fn else getattr(jnp, name))
        return jax.jit(loops.special(name, getattr(jnp, name)))

    parts = [-0.0, 0.0, 0.5, -1.5, -0.0, 2.0, 0.0]
    # (not float64 where the device only emulates it, as float32 pairs: a TPU's
    # transfer alone loses a zero's sign)
    for dt in ("float16", "bfloat16", "float32") + (() if emulates(onp.float64)
                                                    else ("float64",)):
        h = onp.array(parts, jnp.dtype(dt))
        got = onp.asarray(kernel(fn)(h))
        zero = h == 0
        assert onp.array_equal(onp.signbit(got[zero]), onp.signbit(h[zero])), (dt, got)
        if dt != "bfloat16":                                  # (f(±0) is ±0 in NumPy)
            assert onp.array_equal(onp.signbit(getattr(onp, fn)(h)), onp.signbit(got))
        own = onp.asarray(jax.jit(real)(h)).astype("float64")
        onp.testing.assert_allclose(got[~zero].astype("float64"), own[~zero],
                                    rtol=4 * float(jnp.finfo(dt).eps), err_msg=dt)
    z = onp.array([complex(a, b) for a, b in zip(parts, parts[::-1])], "complex64")
    for f in complex_fns:
        got = onp.asarray(kernel(f)(z))
        want = getattr(onp, f)(z)
        assert onp.array_equal(onp.signbit(got.real), onp.signbit(want.real)) and \
            onp.array_equal(onp.signbit(got.imag), onp.signbit(want.imag)), (f, got, want)


_SPECIAL = [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN]
_CIRCULAR_TOL = {"complex64": 1e-3, "complex128": 1e-12}


@pytest.mark.parametrize("fn", ["sin", "tan", "tanh", "cos", "sinh", "cosh", "arcsin",
                                "arctan", "arctanh", "arcsinh", "arccos", "arccosh"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_trigonometric_special_values_on_a_device_are_numpys(fn, dt):
    """Complex ``sin``, ``tan``, ``tanh`` (and ``cos``, ``sinh``, ``cosh``,
    and the inverse functions) of data on a device, eager and under
    ``jax.jit``, are NumPy's at every pair of ±0, ±1, ±inf and NaN parts: the
    zeros with NumPy's signs (XLA's ``sin(-0+0j)`` and ``tan(-0+0j)`` were
    ``0j``, ``tanh(0-0j)`` was ``0j``, ``sin(inf+0j)`` was ``nan+nanj`` for
    NumPy's ``nan+0j``; ``arcsin(inf+nanj)`` was ``nan-infj`` for NumPy's
    ``nan+infj``, ``arctan(inf+nanj)`` and ``arctanh(nan+infj)`` had a -0 part
    for NumPy's +0, signs C99 leaves open), infinities and NaNs where NumPy
    has them; other parts to a tolerance that holds on a TPU."""
    import jax.numpy as jnp
    z = onp.array([complex(a, b) for a in _SPECIAL for b in _SPECIAL], dtype=dt)
    with onp.errstate(all="ignore"):
        want = getattr(onp, fn)(z)
    # (complex128 where a TPU lacks it on the CPU device: the transfer alone
    # would lose zero signs)
    on = jax.devices("cpu")[0] if traced_lacks("any", dt) else None
    data = jax.device_put(z, on) if on else jnp.asarray(z)
    _same(want, onp.asarray(getattr(np, fn)(np.asarray(data))), _CIRCULAR_TOL[dt])
    jitted = _compiled(lambda a: getattr(np, fn)(np.asarray(a)).data)
    _same(want, onp.asarray(jitted(data)), _CIRCULAR_TOL[dt])


@pytest.mark.parametrize("fn", ["sinh", "cosh"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_hyperbolic_of_small_parts_on_a_device_is_numpys(fn, dt):
    """Complex ``sinh``/``cosh`` of data on a device (the compiled path) are
    NumPy's for finite arguments with small parts, where XLA's
    ``(e^z -/+ e^-z) / 2`` lost them (``sinh(1e-20 + 0.5j).real`` was 0; a
    numerical-derivatives library's complex-step Hessian was 0.8% off)."""
    import jax.numpy as jnp
    # finite parts, |real| < 22 (NumPy's formula's range), products normal numbers
    small = 1e-150 if dt == "complex128" else 1e-15
    parts = [0.0, -0.0, small, -1e-12, 1e-9, 3e-5, 0.5, -1.5, 7.0, 21.5]
    z = onp.array([complex(a, b) for a in parts for b in parts], dtype=dt)
    with onp.errstate(all="ignore"):
        want = getattr(onp, fn)(z)
    # (on the device; complex128 where a TPU lacks it on the CPU device, as a
    # TPU holds it as float32 pairs and the transfer alone loses zero signs)
    on = jax.devices("cpu")[0] if traced_lacks("any", dt) else None
    got = getattr(np, fn)(np.asarray(jax.device_put(z, on) if on else jnp.asarray(z)))
    _same(want, onp.asarray(got), _TOL[dt])

"""``floor_divide`` (the function, ``//`` and ``//=``): NumPy's bits wherever
both operands are finite and for integers; ``floor(x1 / x2)`` where an operand
is infinite, the Array API standard's special values (NumPy's loop gives NaN
or -1.0 there).  ``remainder`` and ``divmod`` stay NumPy's."""
import operator

import jax
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray.testing import strategies as nst
from support import emulates

INF, NAN = float("inf"), float("nan")
FLOATS = ["float16", "float32", "float64"]
INTS = [onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.uint16, onp.uint32,
        onp.uint64]
SHAPES = [(), (0,), (3, 4)]


def _ifloordiv(a, b):
    a = np.asarray(a, copy=True)
    a //= b
    return a


FORMS = {
    "function": np.floor_divide,
    "operator": operator.floordiv,
    "in-place": _ifloordiv,
    "jit": jax.jit(lambda a, b: a // b),
}

# every floor_divide special case of the standard: (x1, x2, result)
SPEC = [
    # the six where NumPy's loop differs (NaN, or -1.0)
    (INF, 2.5, INF), (INF, -2.5, -INF), (-INF, 2.5, -INF), (-INF, -2.5, INF),
    (2.5, -INF, -0.0), (-2.5, INF, -0.0),
    (INF, 0.5, INF), (-INF, 3.0, -INF), (1.0, -INF, -0.0), (-1.0, INF, -0.0),
    (INF, 1e4, INF), (1e4, -INF, -0.0),
    # the others, already NumPy's
    (2.5, INF, 0.0), (-2.5, -INF, 0.0), (NAN, 2.5, NAN), (2.5, NAN, NAN), (NAN, NAN, NAN),
    (INF, INF, NAN), (INF, -INF, NAN), (-INF, INF, NAN), (-INF, -INF, NAN),
    (0.0, 0.0, NAN), (0.0, -0.0, NAN), (-0.0, 0.0, NAN), (-0.0, -0.0, NAN),
    (0.0, 2.5, 0.0), (-0.0, 2.5, -0.0), (0.0, -2.5, -0.0), (-0.0, -2.5, 0.0),
    (2.5, 0.0, INF), (2.5, -0.0, -INF), (-2.5, 0.0, -INF), (-2.5, -0.0, INF),
    (INF, 0.0, INF), (INF, -0.0, -INF), (0.0, INF, 0.0), (-0.0, INF, -0.0),
    (0.0, -INF, -0.0), (-0.0, -INF, 0.0),
    (2.5, 2.0, 1.0), (-2.5, 2.0, -2.0), (2.5, -2.0, -2.0), (-2.5, -2.0, 1.0),
    (0.5, 2.0, 0.0), (-0.5, -2.0, 0.0), (0.5, -2.0, -1.0),
]


def _same(got, want):
    """Equal values with equal sign bits (any NaN matches any NaN)."""
    got, want = onp.asarray(got), onp.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    nan = onp.zeros(want.shape, bool)
    if want.dtype.kind == "f":
        nan = onp.isnan(want)
        assert (onp.isnan(got) == nan).all(), (got, want)
    g, w = got[~nan], want[~nan]
    bits = f"u{want.dtype.itemsize}"
    bad = g.view(bits) != w.view(bits)
    assert not bad.any(), (g[bad][:4], w[bad][:4])


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("dt", FLOATS)
def test_spec_special_cases(form, dt):
    x1 = onp.array([c[0] for c in SPEC], dt)
    x2 = onp.array([c[1] for c in SPEC], dt)
    want = onp.array([c[2] for c in SPEC], dt)
    _same(FORMS[form](np.asarray(x1), np.asarray(x2)), want)
    # one element at a time (0-d)
    for a, b, w in SPEC[:6]:
        a0, b0 = np.asarray(onp.array(a, dt)), np.asarray(onp.array(b, dt))
        _same(FORMS[form](a0, b0), onp.array(w, dt))
    # a Python float on either side: x // 2.5, x // -2.5, 2.5 // x, -2.5 // x
    infs = np.asarray(onp.array([INF, -INF], dt))
    for s in (2.5, -2.5):
        if form == "jit":       # the Python float a constant of the traced function
            left, right = jax.jit(lambda u: u // s)(infs), jax.jit(lambda v: s // v)(infs)
        elif form == "in-place":
            left, right = _ifloordiv(infs, s), None
        else:
            left, right = FORMS[form](infs, s), FORMS[form](s, infs)
        _same(left, onp.array([INF, -INF] if s > 0 else [-INF, INF], dt))
        if right is not None:
            _same(right, onp.array([0.0, -0.0] if s > 0 else [-0.0, 0.0], dt))


def test_spec_cases_keep_names_and_hold_under_vmap():
    x1 = onp.array([INF, -INF, 2.5, -2.5, 7.0])
    x2 = onp.array([2.5, 2.5, -INF, INF, 2.0])
    want = onp.array([INF, -INF, -0.0, -0.0, 3.0])
    r = np.asarray(x1).tag("i") // np.asarray(x2).tag("i")
    assert r.named_shape == {"i": 5}
    _same(r.untag("i"), want)
    f = jax.vmap(lambda a, b: np.floor_divide(a, b).data)
    if not emulates(onp.float64):   # (there vmap computes on the emulation, whose
        _same(f(x1, x2), want)      # division of infinities is NaN: docs/differences.md)
        _same(jax.jit(f)(x1, x2), want)
    # a boolean-mask selection goes through the same definition
    a = np.asarray(x1)
    m = onp.array([True, True, True, True, False])
    _same(a[m] // np.asarray(x2)[m], want[m])
    _same(a[m] // 2.5, onp.array([INF, -INF, 1.0, -1.0]))


def test_remainder_and_divmod_stay_numpys():
    x1 = onp.array([INF, -INF, 2.5, -2.5, 2.5, NAN, 0.0, -0.0, 7.0])
    x2 = onp.array([2.5, -2.5, -INF, INF, INF, 1.0, -INF, 3.0, -2.0])
    with onp.errstate(all="ignore"):
        want_r = onp.remainder(x1, x2)
        want_d = onp.divmod(x1, x2)
    _same(np.remainder(np.asarray(x1), np.asarray(x2)), want_r)
    for got, want in zip(np.divmod(np.asarray(x1), np.asarray(x2)), want_d):
        _same(got, want)


def _finite(dt):
    return st.floats(width=onp.dtype(dt).itemsize * 8, allow_nan=False,
                     allow_infinity=False, allow_subnormal=False)


@st.composite
def _pairs(draw, elements):
    """Two named arrays of one drawn float dtype and layout, and their data."""
    dt = draw(st.sampled_from(FLOATS))
    # few layouts (each compiles once): a scalar, an empty and a small array
    x = draw(nst.named_arrays(dtypes=[dt], names=("a",),
                              shape=draw(st.sampled_from(SHAPES))))
    a = draw(hnp.arrays(x.data.dtype, x.data.shape, elements=elements(dt)))
    b = draw(hnp.arrays(x.data.dtype, x.data.shape, elements=elements(dt)))
    return np.NamedArray(a, dims=x.dims), np.NamedArray(b, dims=x.dims), a, b


def _results(x, y):
    # (compiled for a backend whose float remainder is inexact, a TPU's, the
    # quotient is that backend's: docs/differences.md)
    traced = () if emulates(x.dtype, "remainder") else (FORMS["jit"](x, y),)
    for r in (np.floor_divide(x, y), x // y, *traced):
        assert r.dims == x.dims
        yield r.data


@settings(max_examples=20)
@given(_pairs(_finite))
def test_finite_operands_give_numpys_bits(case):
    x, y, a, b = case
    with onp.errstate(all="ignore"):
        want = onp.floor_divide(a, b)
    for got in _results(x, y):
        _same(got, want)


def _with_infinities(dt):
    return st.one_of(_finite(dt), st.sampled_from([INF, -INF, NAN, 0.0, -0.0]))


@settings(max_examples=20)
@given(_pairs(_with_infinities))
def test_infinite_operands_give_floor_of_the_quotient(case):
    x, y, a, b = case
    inf = onp.isinf(a) | onp.isinf(b)
    with onp.errstate(all="ignore"):
        want = onp.where(inf, onp.floor(a / b), onp.floor_divide(a, b))
    for got in _results(x, y):
        _same(got, want)
    # divmod and remainder: NumPy's everywhere (NaN and -1.0 quotients included)
    with onp.errstate(all="ignore"):
        want_q, want_r = onp.divmod(a, b)
    got_q, got_r = np.divmod(x, y)
    _same(got_q.data, want_q)
    _same(got_r.data, want_r)
    _same(np.remainder(x, y).data, want_r)


@settings(max_examples=20)
@given(st.sampled_from(INTS), st.data())
def test_integers_give_numpys_bits(dt, data):
    """Division by zero (0, as NumPy) and the signed minimum by -1 included."""
    info = onp.iinfo(dt)
    special = [0, 1, info.max] + ([info.min, -1] if info.min else [])
    el = st.one_of(st.integers(info.min, info.max), st.sampled_from(special))
    shape = data.draw(st.sampled_from(SHAPES))
    a = data.draw(hnp.arrays(dt, shape, elements=el))
    b = data.draw(hnp.arrays(dt, shape, elements=el))
    with onp.errstate(all="ignore"):
        want = onp.floor_divide(a, b)
    for got in _results(np.asarray(a), np.asarray(b)):
        _same(got, want)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "mod", "divmod", "fmod"])
@pytest.mark.parametrize("v", [False, True, 0, 3, 0.0, -1.5])
def test_a_constant_divisor_under_jit_is_numpys(name, v):
    """Under ``jit`` a Python divisor is a constant XLA folds into the
    program: jnp's floor division of bool data by a constant 0.0 was -1.0
    there (NumPy: NaN); every divisor, 0.0 included, gives NumPy's value."""
    a = onp.asarray(v)
    for d in (0.0, -0.0, 2.0, 0.5):
        with onp.errstate(all="ignore"):
            want = getattr(onp, name)(a, d)
        got = jax.jit(lambda x: getattr(np, name)(x, d))(np.asarray(a))
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            onp.testing.assert_array_equal(onp.asarray(g), w)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_remainders_by_an_infinity_do_not_trust_the_backends_remainder(dt, monkeypatch):
    """A TPU's float remainder (``lax.rem``) of a finite number by an infinity
    is NaN (seen on a TPU v5e: ``fmod.outer`` and ``divmod.outer`` of float32
    data gave NaN where NumPy gives ``x``, 0 and -1).  With a remainder that
    does so here, ``fmod``, ``remainder`` and ``divmod``, called and as
    ``outer``, still give NumPy's bits."""
    from jax._src.lax import lax as _lax
    real = _lax.rem

    def tpus_rem(x, y):
        return jax.numpy.where(jax.numpy.isinf(y) & jax.numpy.isfinite(x), NAN, real(x, y))
    monkeypatch.setattr(_lax, "rem", tpus_rem)
    vals = onp.array([-0.0, 0.0, 1.5, -2.5, INF, -INF, NAN, 3.0, -7.25], dt)  # (a new shape: traced anew)
    a, b = (v.ravel() for v in onp.meshgrid(vals, vals))
    # (on the device; float64 at its home where the device only emulates it:
    # a TPU's float64 loses a zero's sign in the transfer itself)
    put = (lambda u: u) if emulates(onp.dtype(dt)) else jax.device_put
    x, y, v = (np.asarray(put(u)) for u in (a, b, vals))
    with onp.errstate(all="ignore"):
        for name in ("fmod", "remainder", "divmod"):
            for got, want in ((getattr(np, name)(x, y), getattr(onp, name)(a, b)),
                              (getattr(np, name).outer(v, v),
                               getattr(onp, name).outer(vals, vals))):
                for g, w in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, want))):
                    _same(g, w)

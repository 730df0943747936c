"""histogram / histogram_bin_edges against NumPy bit for bit: edges by NumPy's
linspace in its dtypes, counts by its offset-then-correct rule, densities
``n / widths / n.sum()`` (float16 and float32 data included)."""
import warnings

import jax
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np

DTYPES = [onp.float16, onp.float32, onp.float64, onp.int8, onp.int64, onp.uint8,
          onp.uint64, onp.bool_]
RANGES = [None, (-1.5, 2.25), (-2, 3), (onp.float32(-0.3), onp.float32(0.7)), (1.0, 1.0),
          (0, 300)]


def _both(fn, x, **kw):
    """NumPy's result (or exception) and ours, on the same arguments."""
    ours = {k: np.asarray(v) if isinstance(v, onp.ndarray) else v for k, v in kw.items()}
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = getattr(onp, fn)(x, **kw)
        except Exception as e:     # noqa: BLE001 -- NumPy's (builtin) class is the oracle
            with pytest.raises(next(c for c in type(e).__mro__ if c.__module__ == "builtins")):
                getattr(np, fn)(np.asarray(x), **ours)
            return None, None
        return exp, getattr(np, fn)(np.asarray(x), **ours)


def _identical(got, exp):
    for g, e in zip(got if isinstance(got, tuple) else (got,),
                    exp if isinstance(exp, tuple) else (exp,)):
        g = onp.asarray(g)
        assert (g.dtype, g.shape) == (e.dtype, e.shape), (g.dtype, e.dtype, g.shape, e.shape)
        onp.testing.assert_array_equal(g, e)


@settings(max_examples=max(4, settings.default.max_examples // 3))
@given(data=st.data())
def test_histogram_is_numpys_bit_for_bit(data):
    dt = data.draw(st.sampled_from(DTYPES))
    scale = data.draw(st.sampled_from([1e-3, 1.0, 10.0, 1e3]))
    vals = data.draw(st.lists(st.floats(-3, 3, width=32), min_size=0, max_size=9))
    with onp.errstate(all="ignore"):
        x = (onp.asarray(vals, onp.float64) * scale).astype(dt)
    kw = {"bins": data.draw(st.integers(1, 12)),
          "range": data.draw(st.sampled_from(RANGES)),
          "density": data.draw(st.booleans())}
    exp, got = _both("histogram", x, **kw)
    if exp is not None:
        _identical(got, exp)
    kw.pop("density")
    exp, got = _both("histogram_bin_edges", x, **kw)
    if exp is not None:
        _identical(got, exp)


@pytest.mark.parametrize("wdt", [onp.float16, onp.float32, onp.int8, onp.int64, onp.bool_])
@pytest.mark.parametrize("bins", [5, [-2.0, 0.5, 1.0, 3.0]])
def test_weighted_densities_are_numpys(wdt, bins):
    rng = onp.random.default_rng(0)
    x = rng.normal(size=40).astype(onp.float32)
    w = (rng.normal(size=40) * 3).astype(wdt)
    for density in (False, True):     # bool weights over given edges: TypeError
        exp, got = _both("histogram", x, bins=bins, weights=w, density=density)
        if exp is not None:
            _identical(got, exp)


def test_histogram_under_jit_is_the_eager_result():
    x = onp.asarray([0.3, 1.2, 2.5, 2.5, 0.1, 1.7], onp.float16)
    for kw in ({"bins": 3, "density": True}, {"bins": 4, "range": (0, 3)},
               {"bins": [0.0, 1.0, 3.0]}):
        got = jax.jit(lambda v, kw=kw: np.histogram(v, **kw))(np.asarray(x))
        if jax.default_backend() == "cpu":
            _identical(got, onp.histogram(x, **kw))
        else:   # (compiled for an accelerator, float16 steps may keep float32's
            # precision, XLA's excess precision, and float64 is emulated: NumPy's
            # answer to float16's precision; eager calls are NumPy's bit for bit)
            for g, e in zip(got, onp.histogram(x, **kw)):
                assert onp.asarray(g).dtype == e.dtype
                onp.testing.assert_allclose(onp.asarray(g), e, rtol=1e-3)
    same = onp.full(3, 2, onp.int8)      # one value: the edges span it +- 0.5
    got = jax.jit(lambda v: np.histogram_bin_edges(v, bins=4))(np.asarray(same))
    _identical(got, onp.histogram_bin_edges(same, bins=4))


@pytest.mark.parametrize("x, kw, exc, msg", [
    (onp.asarray([1.0, onp.nan]), {}, ValueError,
     r"histogram: autodetected range of \[nan, nan\] is not finite"),
    (onp.asarray([1 + 1j, complex(onp.nan, -1)]), {}, ValueError,
     "histogram: autodetected range of"),
    (onp.asarray([1.0, 2.0]), {"bins": 0}, ValueError,
     r"histogram: `bins` must be positive, when an integer \(got 0\)"),
    (onp.asarray([1.0, 2.0]), {"bins": 3.0}, TypeError,
     "histogram: `bins` must be an integer, a string, or an array"),
    (onp.asarray([1.0, 2.0]), {"bins": [3, 1]}, ValueError,
     "histogram: `bins` must increase monotonically, when an array"),
    (onp.asarray([1.0, 2.0]), {"bins": [[3, 1]]}, ValueError,
     "histogram: `bins` must be 1d, when an array"),
    (onp.asarray([1.0, 2.0]), {"range": (2, 1)}, ValueError,
     "histogram: max must be larger than min in range parameter"),
    (onp.asarray([1.0, 2.0]), {"weights": onp.ones(3)}, ValueError,
     "histogram: weights should have the same shape as a"),
    (onp.asarray([0.0, 1e-7], onp.float16), {"bins": 9}, ValueError,
     "histogram: Too many bins for data range. Cannot create 9 finite-sized bins"),
])
def test_histogram_errors_are_numpys(x, kw, exc, msg):
    with pytest.raises(exc):
        onp.histogram(x, **kw)
    ours = {k: np.asarray(v) if isinstance(v, onp.ndarray) else v for k, v in kw.items()}
    with pytest.raises(exc, match=msg):
        np.histogram(np.asarray(x), **ours)


def test_complex_data_bins_outside_the_edges_raise_as_numpy():
    # the bin of complex data comes from the real part of a complex offset
    x = onp.asarray([0, 1 - 2j, 1 + 1j])
    with pytest.raises(ValueError):
        onp.histogram(x, bins=3)
    with pytest.raises(ValueError, match="histogram: 'list' argument must have no negative"):
        np.histogram(np.asarray(x), bins=3)


@pytest.mark.parametrize("est", ["auto", "fd", "doane", "scott", "stone", "rice",
                                 "sturges", "sqrt"])
@pytest.mark.parametrize("dt", [onp.float32, onp.int16, onp.bool_])
def test_string_estimators_are_numpys(est, dt):
    x = (onp.random.default_rng(1).normal(size=50) * 5).astype(dt)
    for kw in ({}, {"range": (-1.0, 2.0), "density": True}):
        exp, got = _both("histogram", x, bins=est, **kw)
        _identical(got, exp)
    exp, got = _both("histogram_bin_edges", x, bins=est)
    _identical(got, exp)


def test_string_estimators_errors():
    x = onp.arange(5.0)
    for kw, exc in (({"bins": "bogus"}, ValueError), ({"bins": "auto", "weights": x}, TypeError)):
        exp, got = _both("histogram", x, **kw)      # NumPy's class
        assert exp is None
    with pytest.raises(ValueError, match="histogram: 'bogus' is not a valid estimator"):
        np.histogram(np.asarray(x), bins="bogus")
    with pytest.raises(TypeError, match="histogram: bins='auto' estimates the number of bins "
                       "from the data's values, .* pass an int bins"):
        jax.jit(lambda v: np.histogram(v, bins="auto"))(np.asarray(x))


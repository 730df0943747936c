"""The statistics family as NumPy computes it (docs/design.md §5a rules 1, 6, 7;
§6): ``cov``/``corrcoef`` (their dtypes, weights checks, warnings), ``interp``
(NumPy's non-finite rules), ``linspace``/``logspace``/``geomspace`` (NumPy's
order of operations), ``histogramdd``/``histogram2d``, ``bincount`` and
``piecewise`` argument reading, and the warnings of the nan order statistics.
NumPy is the oracle throughout."""
import warnings

import jax
import numpy as onp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import namedarray as np
from namedarray.core import backends


def _same(e, r):
    e, r = onp.asarray(e), onp.asarray(r)
    return e.dtype == r.dtype and e.shape == r.shape and onp.array_equal(e, r, equal_nan=True)


def _compiled(f, *arrays, **kwargs):
    """``f(*arrays, **kwargs)`` under ``jax.jit`` (the compiled path, whatever
    the eager host tier does)."""
    return jax.jit(lambda *a: f(*a, **kwargs))(*[np.asarray(a) for a in arrays])


def _on_device(f, *arrays, **kwargs):
    """``f`` of ``arrays`` with a named axis ``"r"`` of size 1 in front (the
    eager device path, whatever the host tier does), the name taken off."""
    return f(*[np.asarray(a[None]).tag("r", *[None] * a.ndim) for a in arrays],
             **kwargs).untag("r")[0]


def _warnings(f, *args, **kwargs):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f(*args, **kwargs)
    return r, [(x.category, str(x.message).split(": ", 1)[-1]) for x in w
               if x.category is not DeprecationWarning]


def _np(v):
    return np.asarray(v) if isinstance(v, onp.ndarray) else v


# -- cov / corrcoef ------------------------------------------------------------

_X1 = onp.array([[0, 2], [1, 1], [2, 0]]).T


@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
@pytest.mark.parametrize("dt", [onp.float16, onp.float32, onp.float64])
def test_cov_dtype_keyword(fn, dt):
    r = getattr(np, fn)(np.asarray(_X1.astype(dt)), dtype=dt)
    assert r.dtype == getattr(onp, fn)(_X1.astype(dt), dtype=dt).dtype == dt


@pytest.mark.parametrize("kw", [
    {"fweights": onp.array([1.0, 4.0, 1.0])},            # integral floats: accepted
    {"fweights": [1, 4, 1], "aweights": [0.5, 1.0, 2.0]},
    {"aweights": onp.array([1.0, 4.0, 1.0]), "ddof": 2},
    {"bias": True}, {"rowvar": False}, {"ddof": 0}])
def test_cov_weights_as_numpy(kw):
    e = onp.cov(_X1, **kw)
    r = np.cov(np.asarray(_X1), **{k: _np(v) for k, v in kw.items()})
    assert r.dtype == e.dtype and onp.allclose(onp.asarray(r), e, rtol=1e-14)


@pytest.mark.parametrize("kw, exc, msg", [
    ({"fweights": [1.5, 4, 1]}, TypeError, "cov: fweights must be integer"),
    ({"fweights": [-1, 1, 1]}, ValueError, "cov: fweights cannot be negative"),
    ({"aweights": [-1.0, 1, 1]}, ValueError, "cov: aweights cannot be negative"),
    ({"aweights": onp.ones((2, 3))}, RuntimeError,
     "cov: cannot handle multidimensional aweights"),
    ({"fweights": [1, 1]}, RuntimeError,
     "cov: incompatible numbers of samples and fweights"),
    ({"ddof": 1.5}, ValueError, "cov: ddof must be integer")])
def test_cov_checks_as_numpy(kw, exc, msg):
    with pytest.raises(exc):
        onp.cov(_X1, **kw)
    with pytest.raises(exc, match=msg):
        np.cov(np.asarray(_X1), **{k: _np(v) for k, v in kw.items()})


def test_cov_without_degrees_of_freedom():
    # NumPy multiplies by 1 / 0: infinities, with its warning
    e, we = _warnings(onp.cov, _X1, ddof=5)
    r, wr = _warnings(np.cov, np.asarray(_X1), ddof=5)
    assert _same(e, r)
    assert (RuntimeWarning, "Degrees of freedom <= 0 for slice") in wr
    for data in (onp.array([]), onp.zeros((2, 0)), onp.zeros((0, 2))):
        for fn in ("cov", "corrcoef"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert _same(getattr(onp, fn)(data), getattr(np, fn)(np.asarray(data)))


def test_corrcoef_complex_and_extreme():
    x = onp.array([[1, 2, 3], [1j, 2j, 3j]])
    assert onp.allclose(onp.asarray(np.corrcoef(np.asarray(x))), onp.corrcoef(x))
    x = [[1e-100, 1e100], [1e100, 1e-100]]
    assert _same(onp.corrcoef(x), np.corrcoef(x))


def test_cov_over_a_named_axis_is_cov_of_each_slice():
    d = onp.random.default_rng(0).standard_normal((4, 3, 6))
    r = np.cov(np.asarray(d).tag("b", None, None))
    e = onp.stack([onp.cov(v) for v in d])
    assert onp.allclose(onp.asarray(r.untag("b")), e, rtol=1e-13)


# -- interp -------------------------------------------------------------------

_FINITE_AND_NOT = [0.0, 1.0, -1.0, 2.5, onp.inf, -onp.inf, onp.nan, 1e300]


@pytest.mark.parametrize("xp", [[0.0, 1.0], [0.0, 1.0, 2.0], [-onp.inf, 0.0, 1.0],
                                [0.0, 1.0, onp.inf], [1.0], list(range(7))])
@pytest.mark.parametrize("fp0", [[0.0, 1.0], [onp.inf, onp.inf], [1.0, onp.inf],
                                 [-onp.inf, onp.inf], [onp.nan, 1.0], [1 + 1j, 2 - 1j],
                                 [onp.inf + 1j, 2j]])
def test_interp_non_finite_as_numpy(xp, fp0):
    fp = onp.array((fp0 * 4)[:len(xp)])
    x = onp.array(_FINITE_AND_NOT)
    for kw in ({}, {"left": -7, "right": 9}):
        e = onp.interp(x, onp.array(xp), fp, **kw)
        assert _same(e, np.interp(np.asarray(x), np.asarray(onp.array(xp)),
                                  np.asarray(fp), **kw))
        if onp.iscomplexobj(fp) and backends.status(
                backends.accelerator() or "cpu", "any", "complex128") == backends.ABSENT:
            with pytest.raises(TypeError, match="interp: .* on complex128 data"):
                _compiled(np.interp, x, onp.array(xp), fp, **kw)   # (the table's)
        else:
            assert _same(e, _compiled(np.interp, x, onp.array(xp), fp, **kw))


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(-80, 80).map(lambda i: i / 8), min_size=2, max_size=8,
                unique=True),
       st.lists(st.one_of(st.sampled_from([onp.inf, -onp.inf, onp.nan]),
                          st.integers(-1000, 1000).map(lambda i: i / 8)),
                min_size=8, max_size=8),
       st.lists(st.integers(-200, 200).map(lambda i: i / 7), min_size=1, max_size=6))
def test_interp_as_numpy(xp, fp, x):
    # (values on a grid: XLA flushes denormal results to zero)
    xp = onp.sort(onp.array(xp))
    fp = onp.array(fp[:len(xp)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = onp.interp(onp.array(x), xp, fp)
        assert _same(e, np.interp(np.asarray(onp.array(x)), np.asarray(xp), np.asarray(fp)))
        e = onp.interp(onp.array(x), xp, fp, period=3.5)
        assert _same(e, np.interp(np.asarray(onp.array(x)), np.asarray(xp),
                                  np.asarray(fp), period=3.5))


@pytest.mark.parametrize("args, kw, msg", [
    ((0, [], []), {}, "interp: array of sample points is empty"),
    ((0, [0], [1, 2]), {}, "interp: fp and xp are not of the same length"),
    ((0, [0, 1], [1, 2]), {"period": 0}, "interp: period must be a non-zero value")])
def test_interp_errors_as_numpy(args, kw, msg):
    with pytest.raises(ValueError):
        onp.interp(*args, **kw)
    with pytest.raises(ValueError, match=msg):
        np.interp(*args, **kw)


# -- linspace / logspace / geomspace ---------------------------------------------

@pytest.mark.parametrize("start, stop", [(0.0, 1.0), (-3.5, 10.0), (7.0, -2.25),
                                         (0.0, 1e-300)])
@pytest.mark.parametrize("num", [0, 1, 5, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_bits_as_numpy(start, stop, num, endpoint):
    e = onp.linspace(start, stop, num, endpoint)
    assert _same(e, np.linspace(start, stop, num, endpoint))
    s, t = onp.array([start, -1.0]), onp.array([stop, 3.0])
    e = onp.linspace(s, t, num, endpoint, axis=-1)
    assert _same(e, np.linspace(np.asarray(s), np.asarray(t), num, endpoint, axis=-1))
    assert _same(e, _on_device(np.linspace, s, t, num=num, endpoint=endpoint, axis=-1))


def test_linspace_divides_first_where_any_step_underflows():
    # NumPy's rule is over the whole array: one zero step (here 0 / 6) makes
    # every row arange / div * delta
    start = onp.array([0.0, 0.8132702392002724, 1.0])
    stop = onp.array([0.0, 2.738266731833165, 1.0])
    e = onp.linspace(start, stop, 7)
    assert _same(e, np.linspace(np.asarray(start), np.asarray(stop), 7))
    assert _same(e, _on_device(np.linspace, start, stop, num=7, axis=-1).T)


def test_logspace_and_geomspace_of_arrays_are_their_elements():
    start, stop = onp.array([0.0, 1.0]), onp.array([6.0, 7.0])
    r = np.logspace(np.asarray(start), np.asarray(stop), 6)
    each = onp.stack([onp.asarray(np.logspace(a, b, 6)) for a, b in zip(start, stop)], 1)
    assert _same(each, r)
    stop, base = onp.array([2, 3]), onp.array([1, 2])
    for axis in (0, 1, -1):
        r = np.logspace(1, np.asarray(stop), num=6, base=np.asarray(base), axis=axis)
        each = onp.stack([onp.asarray(np.logspace(1, s, num=6, base=b))
                          for s, b in zip(stop, base)], axis=(axis + 1) % r.ndim)
        assert _same(each, r)
    start = onp.array([1.e0, 32., 1j, -4j, 1 + 1j, -1])
    stop = onp.array([1.e4, 2., 16j, -324j, 10000 + 10000j, 1])
    r = np.geomspace(np.asarray(start), np.asarray(stop), 5)
    each = onp.stack([onp.asarray(np.geomspace(a, b, 5)) for a, b in zip(start, stop)], 1)
    assert _same(each, r)


def test_geomspace_computes_in_its_dtype():
    # a complex dtype makes a negative-to-positive sequence a spiral (NumPy's
    # dtype joins the computation; it was NaN)
    assert onp.allclose(onp.asarray(np.geomspace(-1, 1, num=3, dtype=complex)),
                        onp.geomspace(-1, 1, num=3, dtype=complex))
    for dt in (onp.float16, onp.float32, onp.int8):
        e = onp.geomspace(dt(1), dt(100), 3)
        assert np.geomspace(np.asarray(dt(1)), np.asarray(dt(100)), 3).dtype == e.dtype


# -- histograms, bincount, piecewise ------------------------------------------------

_RNG = onp.random.default_rng(0)
_DD = [_RNG.standard_normal((20, 3)), _RNG.integers(0, 10, (20, 2)),
       _RNG.standard_normal((20, 2)).astype(onp.float32)]


def _hist_same(e, r):
    e = [e[0], *e[1]] if isinstance(e[1], list) else list(e)
    r = [r[0], *r[1]] if isinstance(r[1], list) else list(r)
    return len(e) == len(r) and all(_same(a, b) for a, b in zip(e, r))


@pytest.mark.parametrize("k", range(len(_DD)))
@pytest.mark.parametrize("kw", [{}, {"bins": "list", "density": True},
                                {"weights": _RNG.random(20), "range": "unit"}])
def test_histogramdd_as_numpy(k, kw):
    d = _DD[k]
    kw = dict(kw)
    if kw.get("bins") == "list":
        kw["bins"] = [2] * d.shape[1]
    if kw.get("range") == "unit":
        kw["range"] = [(-1, 1)] * d.shape[1]
    e = onp.histogramdd(d, **kw)
    assert _hist_same(e, np.histogramdd(np.asarray(d), **{k: _np(v) for k, v in kw.items()}))
    # a sequence of coordinate arrays
    e = onp.histogramdd(list(d.T), bins=[2] * d.shape[1])
    assert _hist_same(e, np.histogramdd([np.asarray(v) for v in d.T], bins=[2] * d.shape[1]))
    e = onp.histogram2d(d[:, 0], d[:, 1], bins=[3, 4], density=True)
    assert _hist_same(e, np.histogram2d(np.asarray(d[:, 0]), np.asarray(d[:, 1]),
                                        bins=[3, 4], density=True))


@pytest.mark.parametrize("sample, bins", [
    (([], []), ([0, 1], [0, 1])),
    ((onp.array([0, 1, 2]), onp.array([0, 1, 2])), (onp.array([0, 2, 2]), 1)),
    ((onp.array([0, 10, 20]), onp.array([0, 1.0, 2.0])),
     (onp.array([0, 5, 15, 20]), onp.array([0, 0.5, 1.5, 2.0]))),
    ((onp.array([0]), onp.array([2**60])), (onp.array([-1, 1]), 2**60 + onp.array([-1, 1]))),
    ([1.0], [[0.0, 0.5, 1.0]]), ([0.9999999995], [[0.0, 0.5, 1.0]])])
def test_histogramdd_given_edges(sample, bins):
    e = onp.histogramdd(sample, bins=bins)
    r = np.histogramdd(type(sample)(_np(v) for v in sample) if isinstance(sample, tuple)
                       else sample, bins=type(bins)(_np(v) for v in bins))
    assert _hist_same(e, r)


@pytest.mark.parametrize("bins, msg", [
    ([-1, 2, 4, 5], r"`bins\[0\]` must be positive"),
    ([1, 1, 1, [1, 2, 3, -3]], r"`bins\[3\]` must be monotonically increasing"),
    ([2, 2], "The dimension of bins must be equal to the dimension of the sample")])
def test_histogramdd_errors(bins, msg):
    x = onp.arange(8).reshape(2, 4)
    with pytest.raises(ValueError):
        onp.histogramdd(x, bins=bins)
    with pytest.raises(ValueError, match="histogramdd: " + msg):
        np.histogramdd(np.asarray(x), bins=bins)
    vals = np.asarray(onp.ones((5, 2)))
    with pytest.raises(ValueError, match="histogramdd: supplied range of"):
        np.histogramdd(vals, range=[[0.0, 1.0], [0.25, onp.inf]])


def test_bincount_reads_sequences_as_numpy():
    for minlength in (0, 3):
        assert _same(onp.bincount([], minlength=minlength),
                     np.bincount([], minlength=minlength))
    with pytest.warns(DeprecationWarning, match="Non-integer input passed to bincount"):
        assert _same(onp.array([0, 1]), np.bincount([1.0]))
    assert _same(onp.bincount(onp.array([True, False])),
                 np.bincount(np.asarray(onp.array([True, False]))))
    with pytest.raises(TypeError, match="bincount: Cannot cast array data from "
                                        r"dtype\('float64'\) to dtype\('int64'\)"):
        np.bincount(np.asarray([1.0, 2.0]))


def test_piecewise_reads_conditions_as_numpy():
    for args in (([1, 2], [True, False], [2]), ([1, 2], [True, False], [2, 3]),
                 (5, [True, False], [1, 0]), (5, [False, False, True], [1, 2, 3]),
                 ([1, 2], [[True, False], [False, True]], [3, 4])):
        assert _same(onp.piecewise(*args), np.piecewise(*args))
    x = np.array(3)
    r = np.piecewise(x, x > 3, [4, 0])
    assert r.ndim == 0 and int(r) == 0
    assert _same(onp.piecewise([0, 0], [[False, True]], [lambda v: -1]),
                 np.piecewise([0, 0], [[False, True]], [lambda v: -1]))
    with pytest.raises(ValueError, match="piecewise: with 1 condition"):
        np.piecewise([1, 2], [[True, False]], [3, 4, 5])


def test_i0_complex_message_has_numpys_wording():
    with pytest.raises(TypeError, match="i0 not supported for complex values"):
        np.i0(np.asarray([1j]))


# -- warnings of the nan statistics ---------------------------------------------------

_NDAT = onp.array([[0.6244, onp.nan, 0.2692, 0.0116, onp.nan, 0.1170],
                   [onp.nan, onp.nan, onp.nan, 0.1042, onp.nan, -0.5954]])


@pytest.mark.parametrize("fn", ["nanvar", "nanstd"])
@pytest.mark.parametrize("ddof", [0, 1, 2, 4])
def test_nanvar_warns_without_degrees_of_freedom(fn, ddof):
    e, we = _warnings(getattr(onp, fn), _NDAT, axis=1, ddof=ddof)
    r, wr = _warnings(getattr(np, fn), np.asarray(_NDAT), axis=1, ddof=ddof)
    assert _same(e, r) or onp.allclose(e, onp.asarray(r), equal_nan=True)
    assert we == wr


@pytest.mark.parametrize("fn, q", [("nanmedian", ()), ("nanquantile", (0.5,)),
                                   ("nanpercentile", (50,)), ("nanquantile", ([0.2, 0.7],))])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_order_statistics_warn_once_per_all_nan_slice(fn, q, axis):
    a = onp.full((3, 3), onp.nan)
    a[1, 2] = 1.0
    e, we = _warnings(getattr(onp, fn), a, *q, axis=axis)
    r, wr = _warnings(getattr(np, fn), np.asarray(a), *q, axis=axis)
    assert _same(e, r)
    assert we == wr


def test_weighted_quantile_cdf_is_correctly_rounded():
    # 49 / 98 is exactly 0.5: the cdf must meet q there (XLA's reciprocal
    # multiplication made it 1 ulp off, and picked the next value)
    col = onp.random.default_rng(1).random(99)
    w = onp.ones(99)
    w[0] = 0
    for axis in (0, 1):
        data = onp.stack([col] * 2, axis=1 - axis)
        ww = onp.stack([w] * 2, axis=1 - axis)
        e = onp.percentile(data, 50, axis=axis, weights=ww, method="inverted_cdf")
        assert _same(e, np.percentile(np.asarray(data), 50, axis=axis,
                                      weights=np.asarray(ww), method="inverted_cdf"))
        assert _same(e, _compiled(lambda d, w: np.percentile(
            d, 50, axis=axis, weights=w, method="inverted_cdf"), data, ww))


@pytest.mark.parametrize("fn", ["sum", "mean", "var", "std", "median", "nanmedian",
                                "nanvar", "cumsum", "nancumsum", "argmax"])
def test_an_integer_array_is_an_axis(fn):
    # NumPy reads axis= by operator.index: np.arange(4)[1] is axis 1
    d = onp.arange(12.0).reshape(3, 4)
    e = getattr(onp, fn)(d, axis=1)
    assert _same(e, getattr(np, fn)(np.asarray(d), axis=np.arange(4)[1]))
    assert _same(e, getattr(np, fn)(np.asarray(d), axis=onp.int64(1)))


def test_argument_checks_as_numpy():
    c = [onp.array([1, 0]), onp.array([0, 1], dtype=bool)]
    with pytest.raises(TypeError):
        onp.select(c, [onp.array([1, 2]), onp.array([3, 4])])
    with pytest.raises(TypeError, match="select: invalid entry 0 in condlist: should be "
                                        "boolean ndarray"):
        np.select([np.asarray(v) for v in c], [np.asarray([1, 2]), np.asarray([3, 4])])
    x = [0, 1, 2]
    assert np.diff(x, n=0) is x
    with pytest.raises(ValueError, match="diff: order must be non-negative"):
        np.diff(x, n=-1)
    for fn in ("median", "nanmedian"):
        with pytest.raises(ValueError, match=f"{fn}: repeated axis"):
            getattr(np, fn)(np.ones((3, 5)), axis=(1, -1))
    assert _same(onp.gradient([1, 2, 4, 7]), np.gradient([1, 2, 4, 7]))


@pytest.mark.parametrize("fn", ["percentile", "nanpercentile", "quantile", "nanquantile"])
def test_order_statistics_of_a_q_known_only_when_run(fn):
    """Under ``jit`` a q given as a list, a tuple or a traced array is known
    only when the program runs: a percentile still divides it by 100 (it
    was used undivided, so every percentile above 1 was the maximum)."""
    x = onp.random.default_rng(0).standard_normal(37) * 7.3
    q = [3, 30, 70, 99.9] if "percentile" in fn else [0.03, 0.3, 0.7, 0.999]
    want = getattr(onp, fn)(x, q)
    f = getattr(np, fn)
    for got in (jax.jit(lambda a: f(a, q))(np.asarray(x)),
                jax.jit(lambda a: f(a, tuple(q)))(np.asarray(x)),
                jax.jit(lambda a, v: f(a, v))(np.asarray(x), np.asarray(q)),
                jax.jit(lambda a, v: f(a, v))(np.asarray(x), np.asarray(q[1]))):
        onp.testing.assert_allclose(onp.asarray(got), want[:onp.asarray(got).size]
                                    if onp.asarray(got).ndim else want[1], rtol=1e-15)

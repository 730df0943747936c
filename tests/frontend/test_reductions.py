"""Reductions: positional calls equal NumPy; named calls equal the positional call
on the physical dimension holding the name (values and dtype)."""
import re
import warnings

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from jax.test_util import check_grads

import namedarray as np
from namedarray.testing import strategies as nst
from support import NAMES, arrays, assert_same, shapes

INT = [onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8]
FLOAT = [onp.float16, onp.float32, onp.float64]
CPLX = [onp.complex64, onp.complex128]
ANY = [onp.bool_] + INT + FLOAT + CPLX

# name -> (dtypes, accepts tuple axis, allows empty reductions)
TABLE = {
    "sum": (ANY, True, True), "prod": (ANY, True, True), "mean": (INT + FLOAT, True, False),
    "max": (INT + FLOAT + [onp.bool_], True, False), "min": (INT + FLOAT, True, False),
    "amax": (INT + FLOAT, True, False), "amin": (INT + FLOAT, True, False),
    "any": (ANY, True, True), "all": (ANY, True, True),
    "std": (INT + FLOAT, True, False), "var": (INT + FLOAT + CPLX, True, False),
    "ptp": (INT[2:] + FLOAT, True, False), "median": (INT + FLOAT, True, False),
    "count_nonzero": (ANY, True, True), "nansum": (FLOAT, True, True),
    "nanmean": (FLOAT[1:], True, False), "nanmax": (FLOAT, True, False),
    "nanmin": (FLOAT, True, False), "nanprod": (FLOAT, True, True),
    "nanstd": (FLOAT[1:], True, False), "nanvar": (FLOAT[1:], True, False),
    "nanmedian": (FLOAT[1:], True, False),
    "argmax": (INT + FLOAT, False, False), "argmin": (INT + FLOAT, False, False),
    "nanargmax": (FLOAT, False, False), "nanargmin": (FLOAT, False, False),
}
CUMULATIVE = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
              "cumulative_prod"]


def tol(dt, out):
    dt, out = onp.dtype(dt), onp.dtype(out)
    if out.kind in "iub":
        return dict(rtol=0, atol=0)
    low = any(d.kind in "fc" and d.itemsize <= (4 if d.kind == "f" else 8) for d in (dt, out))
    return dict(rtol=2e-2, atol=2e-2) if low else dict(rtol=1e-9, atol=1e-9)


def np_call(name, data, axis, **kw):
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(onp, name)(data, axis=axis, **kw)


def check(res, ref, dt=None):
    ref = onp.asarray(ref)
    assert res.dtype == ref.dtype, (res.dtype, ref.dtype)
    onp.testing.assert_allclose(onp.asarray(res, dtype=ref.dtype), ref, equal_nan=True,
                                **tol(dt or ref.dtype, ref.dtype))


@st.composite
def case(draw, name, min_dims=0, min_names=0, max_names=0):
    """(dtype, physical NumPy data, dims) of a drawn array for ``name``."""
    dtypes, tuples, empty = TABLE[name]
    x = draw(nst.named_arrays(dtypes=dtypes, names=NAMES, min_dims=min_dims, max_dims=3,
                              min_side=0 if empty else 1, max_side=4,
                              min_names=min_names, max_names=max_names))
    return x.dtype, onp.asarray(x.data), list(x.dims)


@pytest.mark.parametrize("name", sorted(TABLE))
@given(data=st.data())
def test_positional_matches_numpy(name, data):
    dt, a, _ = data.draw(case(name))
    _, tuples, _ = TABLE[name]
    nd = a.ndim
    axis = data.draw(st.one_of(st.none(), st.integers(-nd, nd - 1) if nd else st.none()))
    kd = data.draw(st.booleans()) if name not in ("count_nonzero",) else False
    kw = {"keepdims": True} if kd else {}
    ref = np_call(name, a, axis, **kw)
    res = getattr(np, name)(np.asarray(a), axis=axis, **kw)
    check(res, ref, dt)


@st.composite
def named_case(draw, name):
    dt, a, tags = draw(case(name, min_dims=1, min_names=1, max_names=None))
    nd = a.ndim
    slots = [i for i, t in enumerate(tags) if t is not None]
    _, tuples, _ = TABLE[name]
    pos = [i for i in range(nd) if tags[i] is None]
    if tuples:
        chosen = draw(st.lists(st.sampled_from(range(nd)), min_size=1, max_size=nd,
                               unique=True))
    else:
        chosen = [draw(st.sampled_from(slots))]
    # axis entries: names for named dims, positional index for the others
    axis = tuple(tags[i] if tags[i] is not None else pos.index(i) for i in chosen)
    return dt, a, tags, chosen, axis


def expected(name, a, tags, chosen, keepdims, **kw):
    """NumPy on the physical data, rearranged like the named result."""
    ref = onp.asarray(np_call(name, a, tuple(chosen) if len(chosen) > 1 else chosen[0],
                              keepdims=keepdims, **kw))
    if keepdims:  # named reduced dims disappear; positional ones stay size 1
        ref = ref.squeeze(axis=tuple(i for i in chosen if tags[i] is not None))
        left = [t for i, t in enumerate(tags) if not (t is not None and i in chosen)]
    else:
        left = [t for i, t in enumerate(tags) if i not in chosen]
    names = [t for t in left if t is not None]
    perm = [left.index(n) for n in names] + [i for i, t in enumerate(left) if t is None]
    return ref.transpose(perm), names


@pytest.mark.parametrize("name", sorted(TABLE))
@given(data=st.data())
def test_named_matches_positional_on_physical_dim(name, data):
    dt, a, tags, chosen, axis = data.draw(named_case(name))
    x = np.asarray(a).tag(*tags)
    kd = data.draw(st.booleans()) if name != "count_nonzero" else False
    kw = {"keepdims": True} if kd else {}
    ax = axis if len(axis) > 1 else axis[0]
    res = getattr(np, name)(x, axis=ax, **kw)
    ref, names = expected(name, a, tags, chosen, kd)
    check(res.untag(*names), ref, dt)


@pytest.mark.parametrize("name", CUMULATIVE)
@given(data=st.data())
def test_cumulative_keeps_the_name(name, data):
    dt = data.draw(st.sampled_from(INT + FLOAT))
    shape = data.draw(shapes(1, 3, 0, 4))
    a = data.draw(arrays(dt, shape))
    i = data.draw(st.integers(0, a.ndim - 1))
    tags = [None] * a.ndim
    tags[i] = "t"
    x = np.asarray(a).tag(*tags)
    res = getattr(np, name)(x, axis="t")
    assert res.named_shape == {"t": a.shape[i]}
    ref = getattr(onp, name)(a, axis=i)
    check(res.untag("t"), onp.moveaxis(ref, i, 0), dt)
    check(getattr(np, name)(np.asarray(a), axis=i), ref, dt)


@given(data=st.data())
def test_quantiles(data):
    a = data.draw(arrays(onp.float64, data.draw(shapes(2, 3, 1, 4))))
    q = data.draw(st.sampled_from([0.5, [0.1, 0.9]]))
    x = np.asarray(a).tag("q0", *([None] * (a.ndim - 1)))
    for name, scale in [("quantile", 1), ("percentile", 100), ("nanquantile", 1),
                        ("nanpercentile", 100)]:
        qq = onp.asarray(q) * scale
        res = getattr(np, name)(x, qq, axis="q0")
        check(res, getattr(onp, name)(a, qq, axis=0))
        check(getattr(np, name)(np.asarray(a), qq, axis=1), getattr(onp, name)(a, qq, axis=1))


def test_reduction_options():
    a = onp.arange(12.0).reshape(3, 4)
    x = np.asarray(a).tag("r", None)
    w = a > 4
    check(np.sum(x, axis="r", where=np.asarray(w).tag("r", None)), onp.sum(a, 0, where=w))
    check(np.sum(x, axis=("r", 0), initial=5.0), onp.sum(a, initial=5.0))
    check(np.max(x, axis="r", initial=100.0), onp.max(a, 0, initial=100.0))
    check(np.sum(x, axis="r", dtype=np.float32), onp.sum(a, 0, dtype=onp.float32))
    check(np.std(x, axis="r", ddof=1), onp.std(a, 0, ddof=1))
    check(np.var(x, axis=("r", 0), ddof=2), onp.var(a, ddof=2))
    check(np.mean(x, axis=None).untag("r"), a.mean(1))  # None: positional axes only
    check(np.average(x, axis="r"), onp.average(a, axis=0))
    check(np.logsumexp(x, axis="r"), onp.log(onp.exp(a).sum(0)))
    # methods and axis=None keep names
    assert x.sum().named_shape == {"r": 3}
    check(x.sum().untag("r"), a.sum(1))
    check(np.argmax(x).untag("r"), onp.argmax(a, axis=1))
    assert np.sum(np.ones(3, dtype=np.int8)).dtype == onp.int64


def test_errors():
    x = np.zeros((2, 3)).tag("a", None)
    with pytest.raises(ValueError, match=r"sum: axis name 'a' given twice in "
                                         r"axis=\('a', 'a'\)"):
        x.sum(axis=("a", "a"))
    with pytest.raises(ValueError, match=r"mean: axis name 'q' is not an axis of the "
                                         r"operand \(the array has named axes \{'a': 2\}\)"):
        x.mean(axis="q")
    with pytest.raises(ValueError, match=r"squeeze: axis='a' names an axis, but this "
                                         r"function takes positional axes only"):
        np.squeeze(x, axis="a")
    with pytest.raises(TypeError, match=r"sum: axis got the int 3 as an axis name"):
        from namedarray.placement import resolve
        resolve("sum", x, (3,))
    with pytest.raises(ValueError, match=r"sum: duplicate value in 'axis'"):
        x.sum(axis=(0, -1))


# -- gradients ---------------------------------------------------------------
_NO_TPU_SCAN = pytest.mark.cpu_only("float64 cumulative scans under a transform: a TPU "
                                     "has none (the capability table's TypeError)")


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "std", "var",
                                  "logsumexp", "median", "ptp",
                                  pytest.param("cumsum", marks=_NO_TPU_SCAN),
                                  pytest.param("cumprod", marks=_NO_TPU_SCAN),
                                  "nansum", "nanmean", "amax"])
def test_named_reduction_gradients(name):
    rng = onp.random.default_rng(0)
    a = rng.normal(size=(3, 4)) + 2.0
    fn = getattr(np, name)

    def f(d):
        r = fn(np.NamedArray(d, dims=("r", None)), axis="r")
        return (r.untag("r") if r.names else r).data

    check_grads(f, (jnp.asarray(a),), order=1, modes=["rev", "fwd"])
    # and equal to the positional gradient
    g_named = jax.grad(lambda d: f(d).sum())(jnp.asarray(a))
    jfn = jax.scipy.special.logsumexp if name == "logsumexp" else getattr(jnp, name)
    g_pos = jax.grad(lambda d: jfn(d, axis=0).sum())(jnp.asarray(a))
    onp.testing.assert_allclose(g_named, g_pos, rtol=1e-6)


def test_prod_gradient_with_zeros():
    a = jnp.asarray([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]])
    g = jax.grad(lambda d: np.prod(np.NamedArray(d, ("r", None)), axis="r").sum().data)(a)
    onp.testing.assert_allclose(g, jax.grad(lambda d: jnp.prod(d, 0).sum())(a))


# -- the compiled program: same reduce as the positional call ------------------
def test_named_reduction_lowers_to_the_positional_reduce():
    d = jnp.ones((8, 16, 4))
    x = np.NamedArray(d, dims=(None, "b", None))     # b is physical dim 1
    named = jax.jit(lambda v: v.sum(axis=("b", 1))).lower(x).as_text()
    pos = jax.jit(lambda v: jnp.sum(v, axis=(1, 2))).lower(d).as_text()
    ops = lambda t: sorted(re.findall(r"stablehlo\.(\w+)", t))  # noqa: E731
    assert ops(named) == ops(pos)
    assert named.count("stablehlo.reduce") == 1


_ZERO_D_OK = ["sum", "prod", "max", "min", "amax", "amin", "any", "all", "nansum", "nanmax",
              "nanmin", "nanprod", "count_nonzero", "ptp", "argmax", "argmin", "nanargmax",
              "nanargmin", "nanmean", "nanstd", "nanvar", "cumsum", "cumprod", "nancumsum",
              "nancumprod", "cumulative_sum", "cumulative_prod"]
_ZERO_D_RAISES = ["mean", "std", "var", "median", "nanmedian", "average"]


@pytest.mark.parametrize("name", _ZERO_D_OK + _ZERO_D_RAISES)
@pytest.mark.parametrize("dt", [onp.float64, onp.int8])
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_axis_of_a_zero_d_array(name, dt, axis):
    """NumPy's ufunc reductions and accumulations take axis 0 (or -1) of a 0-d
    array as the whole array; the others (and nanmean of integers) raise
    AxisError, as every reduction does for axis 1 (jnp: an IndexError)."""
    x = onp.asarray(dt(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exp = getattr(onp, name)(x, axis=axis)
        except onp.exceptions.AxisError:
            # (nanmean of integers is NumPy's mean, and says so)
            with pytest.raises(onp.exceptions.AxisError,
                               match=rf"(nan)?{name.removeprefix('nan')}: axis {axis} "):
                getattr(np, name)(np.asarray(x), axis=axis)
            return
    got = getattr(np, name)(np.asarray(x), axis=axis)
    assert (got.dtype, got.shape) == (exp.dtype, exp.shape)
    onp.testing.assert_array_equal(onp.asarray(got), exp)


def test_cumulative_functions_of_a_zero_d_array():
    """The Array API's cumulative_sum takes any 0-d array as its 1-d view."""
    got = np.cumulative_sum(np.asarray(3), include_initial=True)
    assert got.shape == (2,) and got.tolist() == [0, 3]
    assert np.cumulative_prod(np.asarray(2.0)).tolist() == [2.0]


def test_nan_moments_and_extremes_follow_numpy():
    """nanvar/nanstd of integers are var/std (ddof >= n gives inf; of floats,
    NaN); nanmax checks a Python int initial; median of a 0-d array with
    keepdims stays 0-d; average with weights summing to zero raises."""
    x = np.asarray(onp.array([[0, 1]], onp.int8))
    assert float(np.nanstd(x, ddof=2)) == onp.inf
    assert onp.isnan(float(np.nanvar(np.asarray([0.0, 1.0, onp.nan]), ddof=2)))
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        np.nanmax(np.asarray(onp.uint8(0)), where=np.asarray(False), initial=-1)
    assert np.median(np.asarray(0.0), keepdims=True).shape == ()
    with pytest.raises(ZeroDivisionError, match="average: weights sum to zero"):
        np.average(np.asarray([1.0, 2.0]), weights=np.asarray([1, -1]))
    a = np.asarray(onp.array([[1j, onp.nan], [2, 3]], onp.complex64))
    assert np.argmax(a, keepdims=True).shape == (1, 1)
    assert np.nanargmax(a, keepdims=True).tolist() == [[3]]


@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.uint8, onp.int32, onp.float16,
                                onp.float32, onp.complex64])
@pytest.mark.parametrize("shape, axis", [((0,), -1), ((3,), 0), ((2, 3), 0), ((2, 3), -1)])
@pytest.mark.parametrize("dx", [1.0, 2])
def test_trapezoid_is_numpys_arithmetic(dt, shape, axis, dx):
    """Neighbours added in the data's dtype (int8 wraps, bool ors), times dx
    in NumPy's promotion, halved: jnp gave float32 for narrow integers and
    IndexError for empty data."""
    x = (onp.arange(onp.prod(shape)).reshape(shape) * 60 % 130).astype(dt)
    with onp.errstate(all="ignore"):
        exp = onp.trapezoid(x, dx=dx, axis=axis)
    got = np.trapezoid(np.asarray(x), dx=dx, axis=axis)
    assert (got.dtype, got.shape) == (exp.dtype, exp.shape)
    onp.testing.assert_allclose(onp.asarray(got), exp, rtol=1e-3)
    with pytest.raises(IndexError, match="trapezoid: too many indices"):
        np.trapezoid(np.asarray(1.0))


@pytest.mark.parametrize("call", [
    lambda m, x: m.histogram(x), lambda m, x: m.histogram_bin_edges(x, bins=3),
    lambda m, x: m.histogram2d(x, x, bins=2), lambda m, x: m.histogramdd(x.reshape(-1, 1), 2)])
@pytest.mark.parametrize("x", [onp.zeros(0), onp.zeros(0, onp.int8), onp.array([1, 3], onp.int8),
                               onp.array([0.5, 1.0], onp.float16)])
def test_histograms_are_numpys(call, x):
    """No data spans [0, 1]; histogram2d/dd counts are float64 and edges of
    integer data float64."""
    exp = call(onp, x)
    got = call(np, np.asarray(x))
    for e, g in zip(jax.tree_util.tree_leaves(exp), jax.tree_util.tree_leaves(got)):
        e, g = onp.asarray(e), onp.asarray(g)
        assert (g.dtype, g.shape) == (e.dtype, e.shape)
        onp.testing.assert_allclose(g, e, rtol=1e-3)


@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.float32, onp.float64])
@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("args, kw", [((), {}), ((0.5,), {}), ((), {"axis": 0}),
                                      ((onp.array([0.0, 1.0, 3.0]),), {"axis": 0}),
                                      ((onp.array([0, 2, 4]),), {"axis": 0})])
def test_gradient_is_numpys(dt, edge_order, args, kw):
    """edge_order=2 (jnp refused it), coordinate spacings, integers in
    float64, and bool data raising wherever NumPy subtracts it."""
    x = (onp.arange(12).reshape(3, 4) ** 2 % 7).astype(dt)
    try:
        exp = onp.gradient(x, *args, edge_order=edge_order, **kw)
    except TypeError:
        with pytest.raises(TypeError, match="gradient: bool data cannot be subtracted"):
            np.gradient(np.asarray(x), *args, edge_order=edge_order, **kw)
        return
    got = np.gradient(np.asarray(x), *args, edge_order=edge_order, **kw)
    for e, g in zip(exp if isinstance(exp, tuple) else (exp,),
                    got if isinstance(got, tuple) else (got,)):
        assert (g.dtype, g.shape) == (e.dtype, e.shape)
        onp.testing.assert_allclose(onp.asarray(g), e, rtol=1e-5, atol=1e-12)


_N = onp.nan
COMPLEX_MEDIAN_CASES = [
    [1 + 2j, 3, 1 + 1j, 2 + 5j], [1 + 2j, 3, 1 + 1j], [complex(_N, 0), 1 + 1j],
    [complex(_N, 1), complex(_N, 0), complex(1, _N)],
    [complex(1, _N), complex(_N, _N), complex(_N, 2)],
    [1 + 1j, complex(1, _N), 3, 2 + 2j, complex(_N, 0)],
    [complex(0, onp.inf)], [complex(0, onp.inf), 1]]


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("case", COMPLEX_MEDIAN_CASES, ids=range(len(COMPLEX_MEDIAN_CASES)))
def test_median_of_complex_sorts_lexicographically(fn, case):
    # NumPy orders complex values by real, then imaginary part, NaNs last
    y = onp.asarray(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got, exp = getattr(np, fn)(np.asarray(y)), getattr(onp, fn)(y)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    onp.testing.assert_array_equal(onp.asarray(got), exp)      # NaN matches NaN
    if not onp.isnan(exp) or onp.isinf(exp):
        # the mean of the middle values by NumPy's complex division: nan + inf j
        onp.testing.assert_array_equal(onp.asarray(got).real, exp.real)
        onp.testing.assert_array_equal(onp.asarray(got).imag, exp.imag)


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_median_of_complex_along_axes(fn, axis, keepdims):
    y = onp.asarray([[1 + 1j, 2j, 3, 3 - 1j], [3, 4j, complex(_N, 1), 2 + 2j]],
                    onp.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(np, fn)(np.asarray(y), axis=axis, keepdims=keepdims)
        exp = getattr(onp, fn)(y, axis=axis, keepdims=keepdims)
    assert_same(got, exp)


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_median_of_complex_axis_checks(fn):
    y = onp.zeros(1, complex)
    assert_same(getattr(np, fn)(np.asarray(y), axis=0), getattr(onp, fn)(y, axis=0))
    with pytest.raises(onp.exceptions.AxisError, match=f"{fn}: axis 1 is out of bounds"):
        getattr(np, fn)(np.asarray(y), axis=1)


@given(st.data())
def test_moments_with_an_integer_dtype_are_numpy_s(data):
    """mean/var/std with an integer or bool ``dtype=`` follow NumPy's steps: the
    elements cast to it (truncated) and summed there, the sums divided in
    float64 and cast back.  (Casts of NaNs or out-of-range floats are C's
    undefined behaviour in NumPy; the data stays in range.)"""
    dt = data.draw(st.sampled_from([onp.int8, onp.int16, onp.int64, onp.uint8, bool]))
    src = data.draw(st.sampled_from([onp.float64, onp.float32, onp.int32, bool]))
    shape = data.draw(st.sampled_from([(5,), (2, 3), (3, 1, 2)]))
    # (squared deviations within int8: NumPy casts larger ones as C does, undefined)
    vals = data.draw(st.lists(st.integers(0, 800).map(lambda i: i / 100), min_size=6,
                              max_size=6))
    x = (onp.resize(onp.asarray(vals), shape) * (1 if src is bool else 1.37)).astype(src)
    axis = data.draw(st.sampled_from([None, 0, -1]))
    for name in ("mean", "var", "std"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ref = getattr(onp, name)(x, axis=axis, dtype=dt)
            except TypeError as e:
                with pytest.raises(TypeError, match=re.escape(str(e)[:30])):
                    getattr(np, name)(np.asarray(x), axis=axis, dtype=dt)
                continue
        assert_same(getattr(np, name)(np.asarray(x), axis=axis, dtype=dt), ref)


def test_mean_with_an_integer_dtype_truncates_each_element_first():
    x = np.asarray([1.5, 2.5, 7.9, 3.2, -4.7, 8.8])
    assert_same(np.mean(x, dtype=np.int8), onp.int8(2))      # (1+2+7+3-4+8) // 6
    assert_same(np.mean(np.asarray([18.0] * 6), dtype=np.int64), onp.int64(18))
    assert_same(np.var(x, dtype=np.int8), onp.int8(20))
    assert_same(np.std(np.asarray([1.0, 2.0, 4.0]), dtype=np.int8), onp.int8(1))
    assert_same(np.mean(np.asarray(False), dtype=bool), onp.False_)
    with pytest.raises(TypeError, match=r"std: Cannot cast ufunc 'sqrt' output from "
                       r"dtype\('float32'\) to dtype\('int16'\)"):
        np.std(x.reshape(2, 3), axis=1, dtype=np.int16)
    with pytest.raises(TypeError, match="var: numpy boolean subtract"):
        np.var(np.asarray([True, False]), dtype=bool)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_nan_moments_of_inexact_data_take_an_inexact_dtype_only(name):
    x = np.asarray([1.5, onp.nan, 7.9])
    for dt in (onp.int8, bool):
        with pytest.raises(TypeError, match=f"{name}: If a is inexact, then dtype must "
                           "be inexact"):
            getattr(np, name)(x, dtype=dt)
        with pytest.raises(TypeError, match="If a is inexact"):
            getattr(onp, name)(onp.asarray(x), dtype=dt)
    got = getattr(np, name)(x, dtype=onp.float32)
    assert got.dtype == onp.float32
    onp.testing.assert_allclose(onp.asarray(got), getattr(onp, name)(
        onp.asarray(x), dtype=onp.float32), rtol=1e-6)
    ints = onp.asarray([1, 2, 7])
    assert_same(getattr(np, name)(np.asarray(ints), dtype=onp.int8),
                getattr(onp, name)(ints, dtype=onp.int8))


@settings(max_examples=12)     # (each example runs four moments on a new shape)
@given(st.data())
def test_moments_with_another_float_dtype_are_numpy_s(data):
    """var/std/nanvar/nanstd with a real floating ``dtype=`` other than the
    data's follow NumPy's steps: the mean summed in ``dtype``, the deviations
    in the common type (nanvar: the data's), their squares summed in
    ``dtype``; ``var(16777217.0, dtype=float32)`` is 1.0, not 0.0.  Complex
    data: the mean of the real parts, with NumPy's ComplexWarning (jax.numpy
    refused the call)."""
    src = data.draw(st.sampled_from([onp.complex64, onp.complex128, onp.float16,
                                     onp.float32, onp.float64, onp.int16]))
    dt = data.draw(st.sampled_from([onp.float32, onp.float64]))
    shape = data.draw(st.sampled_from([(5,), (2, 3), (3, 1, 2)]))
    x = onp.asarray(data.draw(nst.named_arrays(dtypes=[src], shape=shape, max_names=0)).data)
    if data.draw(st.booleans()) and x.dtype.kind in "fc":
        x = x.copy()
        x.flat[0] = complex(1, onp.nan) if x.dtype.kind == "c" else onp.nan
    kw = data.draw(st.sampled_from([{}, {"axis": 0}, {"axis": -1, "ddof": 1},
                                    {"axis": 0, "keepdims": True}, {"ddof": 9}]))
    for name in ("var", "std", "nanvar", "nanstd"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = getattr(onp, name)(x, dtype=dt, **kw)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = getattr(np, name)(np.asarray(x), dtype=dt, **kw)
        complex_warned = [w for w in seen if issubclass(w.category,
                                                        onp.exceptions.ComplexWarning)]
        assert len(complex_warned) == (x.dtype.kind == "c" and x.dtype != dt), name
        assert got.dtype == ref.dtype and got.shape == ref.shape, name
        onp.testing.assert_allclose(onp.asarray(got), ref, rtol=1e-5, err_msg=name)


def test_moments_keep_the_data_s_precision_in_the_deviations():
    x = onp.asarray(16777217.0)         # float32 rounds it to 16777216
    for name in ("var", "nanvar"):
        assert_same(getattr(np, name)(np.asarray(x), dtype=onp.float32),
                    getattr(onp, name)(x, dtype=onp.float32))
        assert float(getattr(np, name)(np.asarray(x), dtype=onp.float32)) == 1.0
    with pytest.warns(onp.exceptions.ComplexWarning, match="var: Casting complex"):
        got = np.var(np.asarray([1 + 2j, 3 - 1j], onp.complex64), dtype=onp.float32)
    assert float(got) == onp.var(onp.asarray([1 + 2j, 3 - 1j], onp.complex64),
                                 dtype=onp.float32) == 3.5


@pytest.mark.parametrize("call", [
    lambda m, x: m.sum(x, dtype=bool), lambda m, x: m.prod(x, dtype=bool),
    lambda m, x: m.nansum(x, dtype=bool), lambda m, x: m.nanprod(x, dtype=bool),
    lambda m, x: m.mean(x, dtype=bool), lambda m, x: m.add.reduce(x, dtype=bool),
    lambda m, x: m.multiply.reduce(x, axis=1, dtype=bool),
    lambda m, x: m.trace(x, dtype=bool), lambda m, x: x.sum(axis=0, dtype=bool)])
def test_complex_data_reduced_as_bool_is_true_where_either_part_is(call):
    """A complex number cast to bool is true where either part is nonzero
    (XLA's cast read the real part only: sum([2j, 3j], dtype=bool) was False)."""
    x = onp.array([[2j, 3j], [1 + 0j, 1j]])
    assert_same(call(np, np.asarray(x)), call(onp, x))
    x[1, 1] = 0
    assert_same(call(np, np.asarray(x)), call(onp, x))


def test_complex_data_reduced_as_bool_over_a_name():
    x = np.asarray(onp.array([2j, 3j])).tag("i")
    assert bool(np.sum(x, axis="i", dtype=bool)) is True
    assert bool(np.nmap(lambda v: np.prod(v, axis="i", dtype=bool))(x)) is True


@pytest.mark.parametrize("dt", [onp.int8, onp.int64, onp.float64, onp.float32, onp.float16])
def test_mean_is_numpy_s_correctly_rounded_quotient(dt):
    """The sum over the count by a true division (XLA would multiply by the
    reciprocal of a constant count: 1.6666666666666665 for [0, 0, 5]), eager,
    under jit, with axes, keepdims and where=."""
    a = onp.array([[0, 0, 5], [1, 1, 1], [2, 3, 3]], dt)
    x = np.asarray(a)
    for kw in ({}, {"axis": 1}, {"axis": (0, 1), "keepdims": True},
               {"axis": 0, "where": a > 0}):
        want = onp.mean(a, **kw)
        got = np.mean(x, **kw)
        assert got.dtype == want.dtype
        onp.testing.assert_array_equal(got, want)
    assert repr(x[0].mean()) == repr(a[0].mean())
    jitted = float(jax.jit(lambda v: v.mean())(x[0]))
    if jax.default_backend() == "cpu":
        assert jitted == float(a[0].mean())
    else:   # (compiled for a TPU: its division, float64's emulated one too, is not
        # correctly rounded; docs/differences.md)
        assert jitted == pytest.approx(float(a[0].mean()), rel=1e-6)
    b = a.astype(onp.float64)
    b[0, 1] = onp.nan
    onp.testing.assert_array_equal(np.nanmean(np.asarray(b), axis=1), onp.nanmean(b, axis=1))


def test_mean_divides_by_a_constant_count():
    """Without ``where=`` (nor NaNs skipped) every element counts: the count
    is the reduced size, a constant of the program, not a sum of ones
    reduced at run time (a 64-bit reduce under NumPy's dtypes, which an
    accelerator emulates); named, positional, one axis, several or all."""
    a = onp.arange(24.0).reshape(2, 3, 4) * 7.0      # exact sums: the quotients are NumPy's
    x = np.asarray(a)
    for f, want in ((lambda v: np.mean(v, axis=1), a.mean(axis=1)),
                    (lambda v: np.mean(v, axis=(0, -1), keepdims=True),
                     a.mean(axis=(0, 2), keepdims=True)),
                    (lambda v: v.mean(), a.mean()),
                    (lambda v: v.tag("i", None, None).mean(axis="i"), a.mean(axis=0))):
        onp.testing.assert_array_equal(jax.jit(f)(x), want)
        text = str(jax.make_jaxpr(f)(x))
        assert text.count("reduce_sum") == 1 and "int64" not in text, text
    assert str(jax.make_jaxpr(lambda v: np.mean(v, axis=1, where=a > 9))(x)).count(
        "reduce_sum") == 2                         # with where=: the count is counted


@pytest.mark.parametrize("dt", [onp.int64, onp.float64, onp.complex128, onp.bool_])
def test_var_std_take_numpy_s_steps(dt):
    """Two elements (one summation order): NumPy's bits, every ddof, count
    less ddof at 0 dividing by 0 as NumPy's."""
    r = onp.random.default_rng(3)
    for _ in range(20):
        a = r.integers(0, 10, (4, 2)).astype(dt)
        for f in ("var", "std"):
            for ddof in (0, 1):
                want = getattr(onp, f)(a, axis=1, ddof=ddof)
                got = getattr(np, f)(np.asarray(a), axis=1, ddof=ddof)
                assert got.dtype == want.dtype
                onp.testing.assert_array_equal(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        onp.testing.assert_array_equal(np.var(np.asarray([1.0, 3.0]), ddof=2),
                                       onp.var([1.0, 3.0], ddof=2))

"""Reductions where jax.numpy alone differs from NumPy: where= with named axes
and lists, complex NaN and order, var/std with ddof >= n, all-NaN nanargmax,
mean with an integer dtype of an empty array, percentile/quantile dtypes, list
q and range checks, median of empty arrays."""
import subprocess
import sys
import warnings

import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as np
from support import arrays, assert_same, subprocess_env

NAN = complex(onp.nan, 0)


@pytest.mark.parametrize("fn", ["sum", "max", "min", "mean", "prod", "any"])
@pytest.mark.parametrize("axis,np_axis", [("b", 0), (("b", 0), (0, 1)), (("b", 1), (0, 2)),
                                          (None, (1, 2)), (1, 2)])
def test_where_with_a_named_axis(fn, axis, np_axis):
    y = onp.arange(24.0).reshape(2, 3, 4)
    w = onp.arange(12).reshape(3, 4) % 3 == 0
    kw = {"initial": -1.0} if fn in ("max", "min") else {}
    r = getattr(np, fn)(np.asarray(y).tag("b", None, None), axis=axis, where=w, **kw)
    if "b" in r.named_shape:
        r = r.untag("b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(r, getattr(onp, fn)(y, axis=np_axis, where=w, **kw), close=True)


def test_where_list():
    assert_same(np.sum(np.arange(3), where=[True, False, True]),
                onp.sum(onp.arange(3), where=[True, False, True]))


@pytest.mark.parametrize("data", [[1 + 1j, NAN, 2], [complex(1, onp.nan), 3, NAN],
                                  [1 + 1j, 1 + 3j, 1 - 1j], [2, 1 + 5j, 2 - 1j]])
@pytest.mark.parametrize("fn", ["max", "min", "argmax", "argmin"])
def test_complex_order_and_nan(data, fn):
    y = onp.asarray(data)
    assert_same(getattr(np, fn)(np.asarray(y)), getattr(onp, fn)(y))
    y2 = onp.stack([y, y[::-1]])
    for ax in (0, 1):
        assert_same(getattr(np, fn)(np.asarray(y2), axis=ax), getattr(onp, fn)(y2, axis=ax))


@pytest.mark.parametrize("fn", ["var", "std"])
@pytest.mark.parametrize("ddof", [1, 2, 3])
def test_moments_with_ddof_at_least_n(fn, ddof):
    for y in (onp.asarray([1.0, 2.0]), onp.asarray([1.0, 1.0]), onp.ones((2, 3))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_same(getattr(np, fn)(np.asarray(y), ddof=ddof),
                        getattr(onp, fn)(y, ddof=ddof))
            assert_same(getattr(np, fn)(np.asarray(y), axis=0, ddof=ddof),
                        getattr(onp, fn)(y, axis=0, ddof=ddof))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
def test_all_nan_slice_raises(fn):
    with pytest.raises(ValueError, match=f"{fn}: All-NaN slice encountered"):
        getattr(np, fn)(np.asarray([onp.nan, onp.nan]))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(np, fn)(np.asarray([[1.0, onp.nan], [onp.nan, onp.nan]]), axis=1)
    assert_same(getattr(np, fn)(np.asarray([onp.nan, 1.0])),
                getattr(onp, fn)(onp.asarray([onp.nan, 1.0])))


def test_mean_empty_int_with_int_dtype_does_not_kill_the_process():
    code = ("import warnings, numpy as onp, namedarray as np\n"
            "warnings.simplefilter('ignore')\n"
            "r = np.mean(np.asarray(onp.array([], int)), dtype=np.int8)\n"
            "e = onp.mean(onp.array([], int), dtype=onp.int8)\n"
            "assert r.dtype == e.dtype and int(r) == int(e), (r, e)\n"
            "assert int(np.mean(np.arange(5), dtype=np.int8)) == 2\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env=subprocess_env())
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])


@given(st.sampled_from([onp.int8, onp.int64, onp.uint8, onp.bool_, onp.float32,
                        onp.float64]),
       st.sampled_from(["percentile", "quantile", "nanpercentile", "nanquantile"]),
       st.data())
def test_quantiles_like_numpy(dt, fn, data):
    y = data.draw(arrays(dt, (5,)))
    top = 100 if "percentile" in fn else 1
    q = data.draw(st.sampled_from([top * 0.3, [0, top * 0.5, top], onp.asarray(top * 0.25)]))
    try:
        getattr(onp, fn)(y, q)
    except TypeError:
        with pytest.raises(TypeError, match=fn):
            getattr(np, fn)(np.asarray(y), q)
        return
    assert_same(getattr(np, fn)(np.asarray(y), q), getattr(onp, fn)(y, q), close=True)
    assert_same(getattr(np, fn)(y.tolist(), q), getattr(onp, fn)(y.tolist(), q),
                close=True)


def test_quantile_range_and_empty():
    with pytest.raises(ValueError, match=r"percentile: Percentiles must be in the range "
                                         r"\[0, 100\]"):
        np.percentile(np.arange(3.0), 150)
    with pytest.raises(ValueError, match=r"quantile: Quantiles must be in the range"):
        np.quantile(np.arange(3.0), [0.5, -0.1])
    with pytest.raises(IndexError):
        onp.percentile(onp.asarray([]), 50)
    with pytest.raises(IndexError, match="percentile: index -1 is out of bounds"):
        np.percentile(np.asarray([]), 50)


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 0)])
def test_median_of_empty(fn, shape, axis):
    with pytest.warns(RuntimeWarning) if 0 not in onp.sum(
            onp.zeros(shape), axis=axis, keepdims=False).shape + (1,) else \
            warnings.catch_warnings():
        r = getattr(np, fn)(np.zeros(shape), axis=axis)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(r, getattr(onp, fn)(onp.zeros(shape), axis=axis))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
def test_nanarg_complex(fn):
    y = onp.asarray([[1 + 1j, NAN, 1 + 3j], [NAN, 2 - 1j, 2 + 0j]])
    assert_same(getattr(np, fn)(np.asarray(y)), getattr(onp, fn)(y))
    for ax in (0, 1):
        assert_same(getattr(np, fn)(np.asarray(y), axis=ax), getattr(onp, fn)(y, axis=ax))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(np, fn)(np.asarray([NAN, NAN]))


@pytest.mark.parametrize("fn", ["max", "min", "amax", "amin"])
def test_initial_must_fit_the_integer_dtype(fn):
    x = np.asarray(onp.uint8([5, 1]))
    with pytest.raises(OverflowError, match=r"Python integer -2 out of bounds for uint8"):
        getattr(np, fn)(x, initial=-2)
    assert int(getattr(np, fn)(x, initial=3)) == getattr(onp, fn)(onp.uint8([5, 1]), initial=3)

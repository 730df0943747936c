"""NumPy protocols and the Array API standard namespace."""
import pickle

import array_api_compat
import numpy as onp
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import namedarray as np

xps = make_strategies_namespace(np, api_version="2023.12")


def test_namespace_resolution():
    x = np.ones(3)
    assert array_api_compat.array_namespace(x) is np
    assert x.__array_namespace__() is np
    info = np.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == onp.float64
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert info.default_device() in info.devices()
    with pytest.raises(ValueError, match=r"dtypes: unknown kind 'text'"):
        info.dtypes(kind="text")
    assert np.__array_api_version__ == "2024.12"
    assert x.to_device(info.default_device()).device == info.default_device()


ELEMS = {"allow_subnormal": False}   # XLA on CPU flushes subnormals to zero


@given(xps.arrays(dtype=xps.real_dtypes(), shape=xps.array_shapes(max_dims=3, max_side=4),
                  elements=ELEMS), st.data())
def test_hypothesis_array_api_strategies_against_numpy(x, data):
    assert isinstance(x, np.NamedArray)
    a = onp.asarray(x)
    y = data.draw(xps.arrays(dtype=x.dtype, shape=x.shape, elements=ELEMS))
    b = onp.asarray(y)
    with onp.errstate(all="ignore"):
        for got, want in [(np.add(x, y), a + b), (np.multiply(x, y), a * b),
                          (np.maximum(x, y), onp.maximum(a, b)),
                          (np.abs(x), onp.abs(a)), (np.negative(x), -a),
                          (np.sum(x), onp.sum(a)), (np.max(x) if a.size else None,
                                                     onp.max(a) if a.size else None)]:
            if got is None:
                continue
            assert onp.asarray(got).dtype == onp.asarray(want).dtype
            # sums may associate differently from NumPy's pairwise summation; a
            # result below the normal range is flushed to zero by XLA on CPU
            w = onp.asarray(want)
            tiny = onp.finfo(w.dtype).tiny if w.dtype.kind == "f" else 0
            onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-5, atol=tiny)


@given(xps.arrays(dtype=xps.floating_dtypes(), shape=xps.array_shapes(min_dims=1, max_dims=2,
                                                                       max_side=4)))
def test_array_api_functions_match_numpy(x):
    a = onp.asarray(x)
    onp.testing.assert_array_equal(np.permute_dims(x, tuple(range(a.ndim))[::-1]), a.T)
    onp.testing.assert_array_equal(np.concat([x, x]), onp.concatenate([a, a]))
    onp.testing.assert_array_equal(np.astype(x, np.float64), a.astype(onp.float64))
    assert np.isdtype(x.dtype, "real floating")


def test_numpy_protocols_dispatch_and_keep_names():
    x = np.arange(6.0).reshape(2, 3).tag("b", None)
    r = onp.exp(x)
    assert isinstance(r, np.NamedArray) and r.named_shape == {"b": 2}
    onp.testing.assert_allclose(r.untag("b"), onp.exp(onp.arange(6.0).reshape(2, 3)))
    s = onp.sum(x, axis="b")
    onp.testing.assert_array_equal(s, [3.0, 5.0, 7.0])
    c = onp.concatenate([np.ones(2), np.zeros(2)])
    assert isinstance(c, np.NamedArray)
    onp.testing.assert_array_equal(c, [1, 1, 0, 0])
    assert float(onp.linalg.det(np.eye(3) * 2)) == pytest.approx(8.0)
    assert int(onp.add.reduce(np.arange(4))) == 6
    out = np.zeros(3)
    onp.add(np.ones(3), 1, out=out)
    onp.testing.assert_array_equal(out, [2, 2, 2])


def test_ndarray_odds_and_ends():
    x = np.arange(3.0)
    assert 2.0 in x and 5.0 not in x
    assert pickle.loads(pickle.dumps(x.tag("i"))).dims == ("i",)
    assert x.tobytes() == onp.arange(3.0).tobytes()
    assert x.strides == onp.arange(3.0).strides and x.base is None
    onp.testing.assert_array_equal(onp.from_dlpack(x), onp.arange(3.0))
    with pytest.raises(NotImplementedError, match=r"getfield: NamedArrays do not expose raw "
                                                  r"memory"):
        x.getfield(onp.float32)

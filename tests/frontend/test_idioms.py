"""NumPy idioms of real programs, against NumPy: index tricks (``mgrid``,
``ogrid``, ``r_``, ``c_``, ``s_``, ``index_exp``), whole-array truth as Python
bools, scalars from full reductions, ``True_``/``False_``."""
import jax
import numpy as onp
import pytest

import namedarray as np

X8 = onp.arange(3, dtype=onp.int8)

INDEX_TRICKS = [
    lambda m, x: m.r_[1:4], lambda m, x: m.r_[1, 2.5], lambda m, x: m.r_[x, 1],
    lambda m, x: m.r_[0:1:5j], lambda m, x: m.c_[x, x], lambda m, x: m.r_["0,2", x, x],
    lambda m, x: m.r_[-1:1:6j, [0] * 3, 5, 6], lambda m, x: m.c_[[1, 2, 3], [4, 5, 6]],
    lambda m, x: m.r_[x.astype(float), True], lambda m, x: m.r_[[]],
    lambda m, x: m.c_[1:3], lambda m, x: m.r_["-1,2,0", x, x],
    lambda m, x: m.r_["1,2,0", [1, 2], [3, 4]], lambda m, x: m.r_[x[0], 1],
    lambda m, x: m.c_[m.ones((2, 2)), x[:2]], lambda m, x: m.mgrid[0:2, 0:3],
    lambda m, x: m.mgrid[0:1:4j, 0:5:2], lambda m, x: m.mgrid[0.5:2],
    lambda m, x: m.ogrid[0:5], lambda m, x: m.ogrid[0:2, 0:3:4j],
    lambda m, x: m.arange(10)[m.s_[2:8:3]], lambda m, x: m.arange(10)[m.index_exp[::-2]],
]


@pytest.mark.parametrize("k", range(len(INDEX_TRICKS)))
def test_index_tricks_match_numpy(k):
    f = INDEX_TRICKS[k]
    want = f(onp, X8)
    got = f(np, np.asarray(X8))
    for g, w in zip(got if isinstance(want, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        assert isinstance(g, np.NamedArray)
        assert g.dtype == w.dtype and g.shape == w.shape
        onp.testing.assert_array_equal(onp.asarray(g), w)


def test_index_tricks_errors_and_jit():
    with pytest.raises(OverflowError, match="1000 out of bounds for int8"):
        np.r_[np.asarray(X8), 1000]
    with pytest.raises(TypeError, match=r"r_: the directive 'r' builds a numpy.matrix"):
        np.r_["r", 1, 2]
    with pytest.raises(ValueError, match=r"r_: unknown special directive 'a,b'"):
        np.r_["a,b", 1]
    with pytest.raises(TypeError, match=r"mgrid: each index must be a slice"):
        np.mgrid[3]
    # a 0-d array as a grid bound
    onp.testing.assert_array_equal(np.mgrid[0:np.sum(np.ones(3))], onp.mgrid[0:3.0])
    r, c = jax.jit(lambda a: (np.r_[a, 0:2], np.c_[a, a]))(np.arange(2.0))
    onp.testing.assert_array_equal(r, onp.r_[onp.arange(2.0), 0:2])
    onp.testing.assert_array_equal(c, onp.c_[onp.arange(2.0), onp.arange(2.0)])
    assert np.s_ is onp.s_ and np.index_exp is onp.index_exp


@pytest.mark.parametrize("a, b, kw", [
    ([1.0, 2.0], [1.0, 2.0 + 1e-9], {}), ([1.0, onp.nan], [1.0, onp.nan], {}),
    ([1.0, onp.nan], [1.0, onp.nan], {"equal_nan": True}), ([[1, 2]], [1, 2], {}),
    ([1, 2], [1, 2, 3], {}), ([1, 2], [1, 3], {}), (3, 3.0, {}), ([], [], {}),
    ([1 + 1j, onp.nan], [1 + 1j, onp.nan], {"equal_nan": True}),
])
def test_whole_array_truth_is_a_python_bool(a, b, kw):
    for fn in ("allclose", "array_equal", "array_equiv"):
        k = kw if fn != "array_equiv" else {}
        try:
            want = getattr(onp, fn)(onp.asarray(a), onp.asarray(b), **k)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(np, fn)(a, b, **k)
            continue
        got = getattr(np, fn)(np.asarray(a), b, **k)
        assert type(got) is bool and got == bool(want), (fn, a, b, k)
        # numpy's own functions dispatch here and give the same
        assert getattr(onp, fn)(np.asarray(a), np.asarray(b), **k) is got


def test_whole_array_truth_with_names_and_under_jit():
    x = np.arange(6.0).reshape(2, 3).tag("i", None)
    assert np.array_equal(x, x + 0) is True
    assert np.array_equal(x, x.rename(i="j")) is False
    assert np.array_equiv(x, np.arange(3.0) + 3 * np.arange(2.0).tag("i")) is True
    assert np.array_equiv(x, x[:2]) is False                 # shapes do not broadcast
    assert np.allclose(x, x + 1e-12) is True
    assert np.allclose(x, x + x.untag("i")[0]) is False      # one row differs
    r = jax.jit(lambda a, b: np.allclose(a, b))(x, x)
    assert isinstance(r, np.NamedArray) and r.shape == () and bool(r)
    r = np.nmap(lambda a: np.array_equal(a, a * 1), axes=["i"])(x)
    assert bool(r)


def test_full_reduction_is_a_numpy_like_scalar():
    x = np.arange(4.0)
    s, w = np.sum(x), onp.sum(onp.arange(4.0))
    assert np.isscalar(s) and onp.isscalar(w)
    assert not np.isscalar(x) and not np.isscalar(x.tag("i").sum())
    for spec in (".3f", ">10", "e", "", "g"):
        assert f"{s:{spec}}" == f"{w:{spec}}"
    i, v = np.sum(np.arange(4)), onp.sum(onp.arange(4))
    assert f"{i:05d}" == f"{v:05d}" and "%d|%.2f|%s" % (i, s, s) == "%d|%.2f|%s" % (v, w, w)
    assert float(s) == 6.0 and [10, 20, 30][np.argmax(x[:3])] == 30
    assert {s: 1}[6.0] == 1 and set(np.array([1, 2, 2])) == {1, 2}
    assert hash(s) == hash(w)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    # still an array under jax.jit and as a JAX input
    r = jax.jit(lambda a: np.sum(a) * 2)(x)
    assert np.isscalar(r) and float(r) == 12.0
    assert float(jax.numpy.add(s, 1)) == 7.0


def test_true_false():
    assert np.True_ is onp.True_ and np.False_ is onp.False_
    onp.testing.assert_array_equal(np.arange(3)[np.array([np.True_, np.False_, np.True_])],
                                   [0, 2])

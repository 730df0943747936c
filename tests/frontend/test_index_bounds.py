"""Out-of-range integer indices raise NumPy's IndexError in eager calls whatever
holds them (list, NumPy, jax.Array, NamedArray); advanced indices that do not
broadcast raise IndexError; scalar booleans index as in NumPy.  Under jax.jit
JAX's rules apply (documented), and ``take`` offers ``mode=``."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as np
from support import assert_same

HOLDERS = {"list": list, "numpy": onp.asarray, "jax": jnp.asarray, "named": np.asarray}


def _raises_like_numpy(ours, theirs, match):
    with pytest.raises(IndexError) as e_np:
        theirs()
    with pytest.raises(IndexError, match=match) as e:
        ours()
    assert str(e_np.value) in str(e.value)


@pytest.mark.parametrize("holder", HOLDERS)
@pytest.mark.parametrize("bad", [5, 7, -6])
def test_getitem_setitem_out_of_bounds(holder, bad):
    h = HOLDERS[holder]
    x, y = np.arange(5), onp.arange(5)
    msg = f"__getitem__: index {bad} is out of bounds for axis 0 with size 5"
    _raises_like_numpy(lambda: x[h([1, bad])], lambda: y[[1, bad]], msg)

    def ours():
        x[h([1, bad])] = 3

    def theirs():
        y[[1, bad]] = 3
    _raises_like_numpy(ours, theirs, f"__setitem__: index {bad} is out of bounds")
    assert_same(x, y)   # nothing written


@pytest.mark.parametrize("holder", HOLDERS)
def test_functions_out_of_bounds(holder):
    h = HOLDERS[holder]
    ix = h([1, 7])
    with pytest.raises(IndexError, match="take: index 7 is out of bounds for axis 0 with "
                                         "size 5"):
        np.take(np.arange(5), ix)
    with pytest.raises(IndexError, match="put: index 7 is out of bounds"):
        np.put(np.arange(5), ix, 3)
    x = np.arange(5)
    with pytest.raises(IndexError, match=r"add.at: index 7 is out of bounds for axis 0"):
        np.add.at(x, ix, 3)
    assert_same(x, onp.arange(5))
    with pytest.raises(IndexError, match="take_along_axis: index 7 is out of bounds for "
                                         "axis 1 with size 5"):
        np.take_along_axis(np.arange(10).reshape(2, 5), h([[7], [0]]), axis=1)
    with pytest.raises(IndexError, match="put_along_axis: index 7 is out of bounds"):
        np.put_along_axis(np.arange(10).reshape(2, 5), h([[7], [0]]), 0, axis=1)


@given(st.lists(st.integers(-8, 8), max_size=5), st.sampled_from(list(HOLDERS)))
def test_take_like_numpy(ind, holder):
    y = onp.arange(10, 15)
    try:
        exp = onp.take(y, onp.asarray(ind, dtype=onp.intp))
    except IndexError:
        with pytest.raises(IndexError):
            np.take(np.asarray(y), HOLDERS[holder](ind) if ind else onp.asarray(
                ind, onp.intp))
        return
    assert_same(np.take(np.asarray(y), onp.asarray(ind, onp.intp)), exp)
    assert_same(np.asarray(y)[onp.asarray(ind, onp.intp)], y[onp.asarray(ind, onp.intp)])


def test_under_jit_jax_rules_and_take_modes():
    x = np.arange(5)
    # gather: clamped; take's default under jit: JAX's fill value
    assert jax.jit(lambda a, i: a[i])(x, jnp.asarray([7])).tolist() == [4]
    assert jax.jit(lambda a, i: np.take(a, i))(x, jnp.asarray([7])).tolist() == [
        onp.iinfo(onp.int64).min]
    assert np.take(x, jnp.asarray([7, -9]), mode="clip").tolist() == [4, 0]
    assert np.take(x, jnp.asarray([7]), mode="wrap").tolist() == [2]
    assert np.take(x, jnp.asarray([7]), mode="fill").tolist() == [onp.iinfo(onp.int64).min]
    with pytest.raises(ValueError, match="take: mode must be 'raise', 'wrap', 'clip' or "
                                         "'fill', got 'foo'"):
        np.take(x, [1], mode="foo")


def test_fancy_indices_that_do_not_broadcast():
    with pytest.raises(IndexError, match=r"__getitem__: shape mismatch: indexing arrays "
                                         r"could not be broadcast together with shapes "
                                         r"\(2,\) \(3,\)"):
        np.zeros((3, 3))[np.asarray([0, 1]), np.asarray([0, 1, 2])]


@pytest.mark.parametrize("idx", [
    (None, True), (None, onp.True_), (None, False), (True, None), (Ellipsis, None, True),
    (0, None, True), (None, True, [0, 1]), (True, [1, 0]), True, False, onp.False_,
    (slice(None), True, 1)])
def test_scalar_booleans(idx):
    y = onp.arange(6).reshape(2, 3)
    x = np.asarray(y)
    assert_same(x[idx], y[idx])
    y2, x2 = y.copy(), np.asarray(y)
    y2[idx] = -1
    x2[idx] = -1
    assert_same(x2, y2)


@pytest.mark.parametrize("dt", [onp.int8, onp.uint8, onp.int16, onp.uint64])
def test_narrow_index_dtypes_on_a_long_axis(dt):
    y = onp.arange(300)
    ix = onp.asarray([1, 5, 127], dt) if dt in (onp.uint8, onp.uint64) else \
        onp.asarray([1, -5, 127], dt)
    for h in (onp.asarray, jnp.asarray, np.asarray):
        assert_same(np.asarray(y)[h(ix)], y[ix])

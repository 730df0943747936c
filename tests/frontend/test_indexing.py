"""Indexing against NumPy: basic slices, ellipsis, newaxis, boolean masks, integer
arrays, assignment through all of them, in-place aliasing, take/put/where/nonzero;
and the named variant (the index applies to the positional axes of every named
slice)."""
import math

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from support import ALL_DTYPES, arrays, assert_same

SHAPES = [(4,), (2, 3), (3, 1, 2), (0, 3), (2, 0)]


same = assert_same


@st.composite
def index_for(draw, shape):
    """A NumPy index for ``shape``: basic, advanced or mixed."""
    kind = draw(st.sampled_from(["basic", "int", "bool", "mixed", "ellipsis"]))
    if kind == "basic":
        return draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True,
                                      allow_ellipsis=True))
    if kind == "ellipsis":
        return (Ellipsis, draw(st.integers(-shape[-1], shape[-1] - 1))) if shape[-1] \
            else (Ellipsis, slice(None, None, -1))
    if kind == "bool":
        return draw(hnp.arrays(onp.bool_, shape[:draw(st.integers(1, len(shape)))]))
    n = shape[0]
    if n == 0:
        return (slice(None),)
    ints = draw(st.lists(st.integers(-n, n - 1), min_size=0, max_size=4))
    if kind == "int":
        return onp.asarray(ints, dtype=onp.intp) if draw(st.booleans()) else ints
    return (onp.asarray(ints, dtype=onp.intp), slice(None, None, -1)) if len(shape) > 1 \
        else (onp.asarray(ints, dtype=onp.intp),)


@settings(max_examples=40)
@given(data=st.data())
def test_getitem(data):
    shape = data.draw(st.sampled_from(SHAPES))
    x = data.draw(arrays(data.draw(st.sampled_from(ALL_DTYPES)), shape))
    idx = data.draw(index_for(shape))
    same(np.asarray(x)[idx], x[idx])


@settings(max_examples=40)
@given(data=st.data())
def test_setitem_and_aliasing(data):
    shape = data.draw(st.sampled_from(SHAPES))
    dt = data.draw(st.sampled_from(ALL_DTYPES))
    x = data.draw(arrays(dt, shape))
    idx = data.draw(index_for(shape))
    region = x[idx]
    if isinstance(idx, list) and len(set(i % shape[0] for i in idx)) < len(idx):
        idx = sorted(set(i % shape[0] for i in idx))   # duplicates: order unspecified
        region = x[idx]
    v = data.draw(arrays(dt, data.draw(st.sampled_from(
        [(), region.shape, region.shape[1:]]))))
    e = x.copy()
    e[idx] = v
    a = np.asarray(x.copy())
    alias = a
    a[idx] = np.asarray(v)
    same(alias, e)
    # a Python scalar value
    e2 = x.copy()
    e2[idx] = 1
    a2 = np.asarray(x.copy())
    a2[idx] = 1
    same(a2, e2)


@settings(max_examples=20)
@given(dt=st.sampled_from([onp.int8, onp.int64, onp.float32, onp.complex64]),
       data=st.data())
def test_inplace_operators_alias(dt, data):
    x = data.draw(arrays(dt, (2, 3)))
    a = np.asarray(x.copy())
    y = a
    a += 1
    a *= 2
    a -= np.asarray(x)
    e = x.copy()
    e += 1
    e *= 2
    e -= x
    assert y is a
    same(y, e)
    if dt is not onp.complex64:
        a //= 3
        e //= 3
        same(y, e)


def test_inplace_cast_error():
    a = np.arange(3)
    with pytest.raises(TypeError, match="__iadd__: cannot cast the result from float64 to "
                                        "the target's int64"):
        a += 1.5


def test_index_errors():
    a = np.arange(24).reshape(2, 3, 4)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 2"):
        a[5]
    with pytest.raises(IndexError, match="index -3 is out of bounds for axis 0 with size 2"):
        a[-3]
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 3"):
        a[:, 7]
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 2"):
        a[[0, 5]]
    with pytest.raises(IndexError, match="too many indices for array: array is 3-dim"):
        a[0, 0, 0, 0]
    with pytest.raises(IndexError, match="only integers, slices"):
        a[1.0]
    with pytest.raises(IndexError, match="__setitem__: index 10 is out of bounds"):
        a[0, 0, 10] = 1
    with pytest.raises(IndexError, match="boolean index did not match"):
        a[onp.array([True, False, True])]


@settings(max_examples=20)
@given(data=st.data())
def test_take_put_where_nonzero(data):
    dt = data.draw(st.sampled_from(ALL_DTYPES))
    shape = data.draw(st.sampled_from([(5,), (2, 3)]))
    x = data.draw(arrays(dt, shape))
    a = np.asarray(x)
    n = x.size
    idx = data.draw(st.lists(st.integers(-n, n - 1), max_size=4))
    same(np.take(a, idx), onp.take(x, idx))
    same(np.take(a, [0, 1], axis=-1), onp.take(x, [0, 1], axis=-1))
    big = [n + 3, -n - 2]
    for mode in ("wrap", "clip"):
        same(np.take(a, big, mode=mode), onp.take(x, big, mode=mode))
    with pytest.raises(IndexError, match=f"take: index {n + 3} is out of bounds"):
        np.take(a, big)
    # put (in place, aliasing)
    e = x.copy()
    onp.put(e, idx, x.ravel()[:1])
    p = np.asarray(x.copy())
    alias = p
    np.put(p, idx, np.asarray(x.ravel()[:1]))
    same(alias, e)
    # where / nonzero / argwhere / flatnonzero
    m = data.draw(arrays(onp.bool_, shape))
    same(np.where(np.asarray(m), a, 0), onp.where(m, x, 0))
    same(np.where(np.asarray(m), a, 2.5), onp.where(m, x, 2.5))
    same(np.nonzero(a), onp.nonzero(x))
    same(np.where(a), onp.where(x))
    same(np.argwhere(a), onp.argwhere(x))
    same(np.flatnonzero(a), onp.flatnonzero(x))
    same(np.compress([True, False], a, axis=0), onp.compress([True, False], x, axis=0))
    same(np.extract(np.asarray(m), a), onp.extract(m, x))


@settings(max_examples=15)
@given(data=st.data())
def test_take_and_put_along_axis(data):
    x = data.draw(arrays(onp.float32, (3, 4)))
    axis = data.draw(st.integers(-2, 1))
    idx = onp.argsort(x, axis=axis)
    same(np.take_along_axis(np.asarray(x), np.asarray(idx), axis=axis),
         onp.take_along_axis(x, idx, axis=axis))
    e = x.copy()
    onp.put_along_axis(e, idx[:1] if axis in (0, -2) else idx[:, :1], 7.0, axis=axis)
    a = np.asarray(x.copy())
    np.put_along_axis(a, np.asarray(idx[:1] if axis in (0, -2) else idx[:, :1]), 7.0,
                      axis=axis)
    same(a, e)


def test_place_putmask_fill_diagonal_copyto():
    x = onp.arange(6).reshape(2, 3)
    for f in (lambda m, a: m.place(a, a > 2, [7, 8]),
              lambda m, a: m.putmask(a, a > 2, [7, 8]),
              lambda m, a: m.fill_diagonal(a, 9),
              lambda m, a: m.copyto(a, 2.5, casting="unsafe"),
              lambda m, a: m.copyto(a, [1, 2, 3], where=a > 1)):
        e = x.copy()
        f(onp, e)
        a = np.asarray(x.copy())
        f(np, a)
        same(a, e)
    with pytest.raises(TypeError, match="copyto: cannot cast from float64 to int64"):
        np.copyto(np.arange(3), 2.5)


@given(data=st.data())
def test_writes_through_basic_slices_reach_the_base(data):
    """As with NumPy views, a write into a basic slice reaches the array it was taken
    from (chained too); fancy indexing copies, as in NumPy."""
    shape = data.draw(st.sampled_from([(4,), (3, 4), (2, 3, 4)]))
    ref = onp.arange(onp.prod(shape)).reshape(shape)
    a = np.asarray(ref.copy())
    idx = tuple(data.draw(st.sampled_from([slice(1, None), slice(None, None, 2), 0, -1,
                                            slice(None)])) for _ in shape[:-1]) + (
        data.draw(st.sampled_from([slice(None), slice(1, 3)])),)
    v_ref, v = ref[idx], a[idx]
    v_ref[...] = -1
    v[...] = -1
    sub_ref, sub = v_ref[..., :1], v[..., :1]   # a slice of a slice
    sub_ref += 100
    sub += 100
    same(a, ref)
    f_ref, f = ref[[0]], a[[0]]             # fancy: a copy in both
    f_ref[...] = 7
    f[...] = 7
    same(a, ref)


def test_slice_sees_later_writes_to_its_base():
    """As NumPy's views: a slice reads its base's newer writes."""
    a, e = np.arange(6).reshape(2, 3), onp.arange(6).reshape(2, 3)
    row, erow = a[0], e[0]
    a[0, 0] = 99
    e[0, 0] = 99
    same(row, erow)
    # a view as another dtype reads the same bits, and a write into it
    # stores its bits into the base (numpy-100 exercise 53)
    same(a.view(np.int32), onp.asarray(a).view(onp.int32))
    v, ev = a.view(np.int32), e.view(onp.int32)
    v[0, 1] = -1
    ev[0, 1] = -1
    a[1, 2] = 7
    e[1, 2] = 7
    same(a, e)
    same(v, ev)
    z, ez = np.arange(4, dtype=np.float32), onp.arange(4, dtype=onp.float32)
    z.view(np.int32)[:] = z.view(np.int32) + 1
    ez.view(onp.int32)[:] = ez.view(onp.int32) + 1
    same(z, ez)


# --------------------------------------------------------------------------
# named variant
# --------------------------------------------------------------------------
@settings(max_examples=25)
@given(data=st.data())
def test_named_getitem_setitem(data):
    pos = data.draw(st.sampled_from([(4,), (2, 3)]))
    arr = data.draw(arrays(onp.int16, (2,) + pos))           # axis 0 is named "b"
    x = np.NamedArray(onp.moveaxis(arr, 0, -1), (None,) * len(pos) + ("b",))
    idx = data.draw(index_for(pos))
    if isinstance(idx, list):
        idx = sorted(set(i % pos[0] for i in idx))
    idx_t = idx if isinstance(idx, tuple) else (idx,)
    exp = onp.stack([s[idx] for s in arr])
    res = x[idx]
    assert res.named_shape == {"b": 2}
    same(res.untag("b"), exp)
    e = arr.copy()
    for s in e:
        s[idx] = 5
    x[idx] = 5
    same(x.untag("b"), e)
    # a named value broadcasts by name into the region
    v = np.NamedArray(onp.array([1, 2], onp.int16), ("b",))
    x[idx_t] = v
    for i, s in enumerate(e):
        s[idx] = i + 1
    same(x.untag("b"), e)


def test_named_index_arrays_and_errors():
    data = onp.arange(12).reshape(3, 4)
    x = np.asarray(data)
    i = np.NamedArray(onp.array([0, 2]), ("k",))
    r = x[i]
    assert r.named_shape == {"k": 2}
    same(r.untag("k"), data[[0, 2]])
    with pytest.raises(TypeError, match="__setitem__: an index with named axes"):
        x[i] = 0
    y = np.zeros(3)
    with pytest.raises(ValueError, match="named axes"):
        y[0:2] = np.NamedArray(onp.ones((2, 2)), ("b", None))
    with pytest.raises(TypeError, match="nonzero: the array has named axes"):
        np.nonzero(np.NamedArray(onp.ones((2, 2)), ("b", None)))


def test_setitem_scalar_rules():
    a = np.zeros(3, dtype=np.int8)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        a[0] = 300
    with pytest.raises(TypeError, match="cannot assign the complex"):
        np.zeros(2)[0] = 1j
    e = onp.zeros(3, dtype=onp.int8)
    e[1] = 2.7
    a[1] = 2.7
    same(a, e)
    b = np.zeros(2, dtype=bool)
    b[0] = 5
    same(b, onp.array([True, False]))
    x = np.NamedArray(onp.zeros((2, 3), onp.int16), ("b", None))
    x[0] = 2.9
    same(x.untag("b"), onp.array([[2, 2], [0, 0], [0, 0]], onp.int16).T)


@pytest.mark.parametrize("shape, index, value_shape", [
    ((2, 2), 0, (1, 2)), ((2, 3), (slice(None), 1), (1, 1, 2)), ((3,), slice(0, 2), (1, 1)),
    ((2, 2, 2), (0, slice(None)), (1, 1, 2, 2))])
def test_assignment_drops_the_values_leading_ones_as_numpy(shape, index, value_shape):
    a, b = onp.zeros(shape), np.zeros(shape)
    a[index] = onp.arange(1, 1 + math.prod(value_shape)).reshape(value_shape)
    b[index] = np.arange(1, 1 + math.prod(value_shape)).reshape(value_shape)
    onp.testing.assert_array_equal(onp.asarray(b), a)


def test_assignment_of_a_value_that_does_not_fit_names_the_shapes():
    c = np.zeros((2, 2))
    # (NumPy writes the shapes without spaces)
    with pytest.raises(ValueError, match=r"__setitem__: could not broadcast input array "
                                         r"from shape \(2,2\) into shape \(2,\)"):
        c[0] = np.ones((2, 2))


def test_a_writes_error_that_is_not_the_shapes_is_not_reported_as_them(monkeypatch):
    # (JAX's "incompatible devices" error of a write was reported as
    # "could not broadcast input array from shape () into shape (3,)")
    from namedarray.frontend import index_assign

    def refused(d, idx, v):
        raise ValueError("Received incompatible devices for jitted computation")
    monkeypatch.setattr(index_assign, "_scatter", refused)
    c = np.asarray(jax.device_put(jnp.zeros((4, 3)), jax.devices()[0]))   # (compiled)
    with pytest.raises(ValueError, match="^Received incompatible devices"):
        c[0] = 1.0
    with pytest.raises(ValueError, match=r"^__setitem__: could not broadcast input array "
                                         r"from shape \(2,2\) into shape \(3,\)"):
        c[0] = np.ones((2, 2))

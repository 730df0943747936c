"""Sorting, searching and set functions against NumPy (values and dtypes), and the
named variant (sorting along a named axis equals sorting the dimension holding it;
sorting positional axes maps over the names)."""
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from support import arrays, assert_same

REAL = [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.float16,
        onp.float32, onp.float64]
SHAPES = [(0,), (5,), (2, 3), (3, 0), (2, 1, 3)]


same = assert_same


@st.composite
def with_nan(draw, dt, shape):
    x = draw(arrays(dt, shape))
    if onp.dtype(dt).kind == "f" and x.size and draw(st.booleans()):
        x = x.copy()
        x.flat[draw(st.integers(0, x.size - 1))] = onp.nan
    return x


@settings(max_examples=30)
@given(data=st.data())
def test_sort_argsort(data):
    dt = data.draw(st.sampled_from(REAL))
    shape = data.draw(st.sampled_from(SHAPES))
    x = data.draw(with_nan(dt, shape))
    a = np.asarray(x)
    axis = data.draw(st.sampled_from([None, -1, 0]))
    same(np.sort(a, axis=axis), onp.sort(x, axis=axis))
    same(np.argsort(a, axis=axis, kind="stable"), onp.argsort(x, axis=axis, kind="stable"))
    same(np.argsort(a, axis=axis, stable=True), onp.argsort(x, axis=axis, stable=True))
    e = x.copy()
    e.sort()
    m = np.asarray(x.copy())
    m.sort()
    same(m, e)
    if x.ndim:
        same(np.lexsort((a,)), onp.lexsort((x,)))


@settings(max_examples=25)
@given(data=st.data())
def test_partition(data):
    dt = data.draw(st.sampled_from([onp.int16, onp.int64, onp.float32, onp.float64]))
    x = data.draw(arrays(dt, data.draw(st.sampled_from([(5,), (2, 4)]))))
    kth = data.draw(st.integers(0, x.shape[-1] - 1))
    p = onp.asarray(np.partition(np.asarray(x), kth))
    e = onp.partition(x, kth)
    # NumPy only fixes the kth element and the sides' contents
    onp.testing.assert_array_equal(p[..., kth], e[..., kth])
    onp.testing.assert_array_equal(onp.sort(p[..., :kth], -1), onp.sort(e[..., :kth], -1))
    assert p.dtype == e.dtype
    ap = np.argpartition(np.asarray(x), kth)
    assert onp.asarray(ap).dtype == onp.argpartition(x, kth).dtype
    onp.testing.assert_array_equal(onp.take_along_axis(x, onp.asarray(ap), -1)[..., kth],
                                   e[..., kth])


@settings(max_examples=25)
@given(data=st.data())
def test_searchsorted(data):
    dt = data.draw(st.sampled_from([onp.int8, onp.int64, onp.uint8, onp.float32,
                                    onp.float64]))
    a = onp.sort(data.draw(arrays(dt, data.draw(st.sampled_from([(0,), (1,), (6,)])))))
    v = data.draw(arrays(data.draw(st.sampled_from([dt, onp.float64])),
                         data.draw(st.sampled_from([(), (3,), (2, 2)]))))
    for side in ("left", "right"):
        same(np.searchsorted(np.asarray(a), np.asarray(v), side=side),
             onp.searchsorted(a, v, side=side))
    same(np.searchsorted(a.tolist(), 2), onp.searchsorted(a.tolist(), 2))
    if a.size:
        s = onp.argsort(a[::-1], kind="stable")
        same(np.searchsorted(np.asarray(a[::-1]), np.asarray(v), sorter=np.asarray(s)),
             onp.searchsorted(a[::-1], v, sorter=s))


@settings(max_examples=25)
@given(data=st.data())
def test_unique_family(data):
    dt = data.draw(st.sampled_from(REAL))
    x = data.draw(arrays(dt, data.draw(st.sampled_from([(0,), (6,), (2, 3)]))))
    a = np.asarray(x)
    same(np.unique(a), onp.unique(x))
    same(np.unique(a, return_index=True, return_inverse=True, return_counts=True),
         onp.unique(x, return_index=True, return_inverse=True, return_counts=True))
    # NumPy >= 2.3 does not sort unique_values; the set and dtype are the contract
    uv = onp.asarray(np.unique_values(a))
    assert uv.dtype == onp.unique_values(x).dtype
    onp.testing.assert_array_equal(onp.sort(uv), onp.sort(onp.unique_values(x)))
    for name in ("unique_counts", "unique_inverse", "unique_all"):
        r, e = getattr(np, name)(a), getattr(onp, name)(x)
        assert r._fields == e._fields
        same(tuple(r), tuple(e))
    if x.ndim == 2:
        same(np.unique(a, axis=0), onp.unique(x, axis=0))


@settings(max_examples=25)
@given(data=st.data())
def test_set_operations(data):
    dt = data.draw(st.sampled_from([onp.int8, onp.int64, onp.uint8, onp.float32]))
    x = data.draw(arrays(dt, data.draw(st.sampled_from([(0,), (5,), (2, 3)]))))
    y = data.draw(arrays(dt, data.draw(st.sampled_from([(0,), (4,)]))))
    a, b = np.asarray(x), np.asarray(y)
    same(np.isin(a, b), onp.isin(x, y))
    same(np.isin(a, b, invert=True), onp.isin(x, y, invert=True))
    same(np.isin(a, y.tolist()), onp.isin(x, y.tolist()))
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        same(getattr(np, name)(a, b), getattr(onp, name)(x, y))
    same(np.intersect1d(a, b, return_indices=True),
         onp.intersect1d(x, y, return_indices=True))
    same(np.intersect1d(x.tolist(), [1, 2]), onp.intersect1d(x.tolist(), [1, 2]))


def test_errors():
    with pytest.raises(ValueError, match="sort: kind must be one of"):
        np.sort(np.arange(3), kind="bogus")
    with pytest.raises(ValueError, match="argsort: order= sorts structured arrays"):
        np.argsort(np.arange(3), order="f")
    x = np.NamedArray(onp.ones((2, 3)), ("b", None))
    with pytest.raises(ValueError, match="sort: axis=None flattens the positional axes"):
        np.sort(x, axis=None)
    with pytest.raises(ValueError, match="sort: axis name 'c' is not an axis of the operand"):
        np.sort(x, axis="c")


# --------------------------------------------------------------------------
# named variant
# --------------------------------------------------------------------------
@settings(max_examples=20)
@given(data=st.data())
def test_named_sort(data):
    dt = data.draw(st.sampled_from([onp.int16, onp.float32]))
    arr = data.draw(with_nan(dt, (3, 2, 4)))          # axis 0 is named "b"
    x = np.NamedArray(onp.moveaxis(arr, 0, -1), (None, None, "b"))
    # along the named axis == along the dimension holding it, name kept
    r = np.sort(x, axis="b")
    assert r.named_shape == {"b": 3}
    same(r.untag("b"), onp.sort(arr, axis=0))
    same(np.argsort(x, axis="b").untag("b"), onp.argsort(arr, axis=0, kind="stable"))
    # along a positional axis: mapped over the names
    same(np.sort(x, axis=-1).untag("b"), onp.sort(arr, axis=-1))
    same(np.argsort(x, axis=0).untag("b"), onp.argsort(arr, axis=1, kind="stable"))
    m = np.NamedArray(onp.moveaxis(arr, 0, -1), (None, None, "b"))
    m.sort(axis=0)
    same(m.untag("b"), onp.sort(arr, axis=1))
    # searchsorted of named queries into a positional sorted array
    s = onp.sort(arr[0, 0])
    same(np.searchsorted(np.asarray(s), x).untag("b"),
         onp.stack([onp.searchsorted(s, arr[i]) for i in range(3)]))


@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@pytest.mark.parametrize("values, kth", [
    (onp.int8([-1, -1, 0]), -1),                       # kth from the end
    (onp.int8([-128, 5, 3]), 0),                       # the integer minimum
    (onp.array([-2**63, 0]), 0),
    (onp.array([3.0, onp.nan, 1.0, 2.0]), [0, 2]),     # several kth; NaN last
])
def test_partition_equals_numpy(fn, values, kth):
    got = onp.asarray(getattr(np, fn)(np.asarray(values), kth))
    ref = getattr(onp, fn)(values, kth)
    if fn == "argpartition":
        got, ref = values[got], values[ref]
    for k in onp.atleast_1d(kth):
        onp.testing.assert_array_equal(got[k], ref[k])
    onp.testing.assert_array_equal(onp.sort(got), onp.sort(ref))


def test_partition_kth_errors():
    with pytest.raises(ValueError, match=r"partition: kth\(=-1\) out of bounds \(3\)"):
        np.partition(np.zeros(3), -4)
    with pytest.raises(TypeError, match=r"argpartition: kth must be an integer"):
        np.argpartition(np.zeros(3), 1.0)
    assert np.partition(np.zeros((1, 0)), 5).shape == (1, 0)    # NumPy: no check


def test_insert_index_out_of_bounds_is_numpys_index_error():
    onp.testing.assert_array_equal(np.insert(np.array([1, 2]), -1, 9), [1, 9, 2])
    onp.testing.assert_array_equal(np.insert(np.arange(3), [0, 3], 9), [9, 0, 1, 2, 9])
    with pytest.raises(IndexError, match=r"insert: index 4 is out of bounds for axis 0 "
                                         r"with size 1"):
        np.insert(np.asarray([3]), 4, -1)
    with pytest.raises(IndexError, match=r"insert: index -3 is out of bounds"):
        np.insert(np.asarray([3]), -3, -1)


@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.uint16, onp.int32, onp.float16,
                                onp.float32, onp.complex64, onp.complex128])
def test_sort_complex_dtypes_and_nan_order(dt):
    """complex64 only for int8/int16/uint8/uint16 (complex128 for float16 and
    float32 too); NaNs in NumPy's order: R + Rj, R + nanj, nan + Rj, nan + nanj."""
    x = onp.array([3, 1, 2, 0]).astype(dt)
    exp = onp.sort_complex(x)
    got = np.sort_complex(np.asarray(x))
    assert got.dtype == exp.dtype
    onp.testing.assert_array_equal(onp.asarray(got), exp)
    n = onp.nan
    z = onp.array([complex(n, n), complex(n, -1), complex(-1, n), 2 + 1j, 2, 1, complex(0, n)])
    onp.testing.assert_array_equal(onp.asarray(np.sort_complex(np.asarray(z))),
                                   onp.sort_complex(z))


@pytest.mark.parametrize("name", ["intersect1d", "union1d", "setxor1d", "setdiff1d"])
def test_set_operations_of_mixed_dtypes(name):
    """Joined in the common dtype (float16 with int16 is float32, as NumPy's
    concatenation gives)."""
    x, y = onp.array([0, 2, 1], onp.float16), onp.array([1, 3], onp.int16)
    exp = getattr(onp, name)(x, y)
    got = getattr(np, name)(np.asarray(x), np.asarray(y))
    assert got.dtype == exp.dtype
    onp.testing.assert_array_equal(onp.asarray(got), exp)


def test_partition_method_is_in_place_and_writes_through_a_view():
    x = onp.asarray([[9.0, 3.0, 7.0, 1.0, 5.0], [2.0, 8.0, 6.0, 4.0, 0.0]])
    a = np.asarray(x.copy())
    w = a[:, 1:]                       # a view: the partition reaches a
    assert w.partition(1, axis=1) is None
    e = x.copy()
    e[:, 1:].partition(1, axis=1)
    got = onp.asarray(a)
    assert (got[:, 0] == e[:, 0]).all() and (got[:, 2] == e[:, 2]).all()   # the kth element
    assert (onp.sort(got, axis=1) == onp.sort(e, axis=1)).all()
    assert (got[:, 1:2] <= got[:, 2:3]).all() and (got[:, 3:] >= got[:, 2:3]).all()

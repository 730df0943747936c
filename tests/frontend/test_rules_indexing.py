"""NumPy's indexing rules, with NumPy as the oracle: the flat iterator's own
index rules (``a.flat[i]``), the kind of a 0-d result (scalar or 0-d array),
NumPy's limits on advanced indices, the memory order of a fancy-index result,
the casts of an assigned value, and what a view holds."""
import re
import sys
import warnings

import numpy as onp
import pytest

import namedarray as np


def _both(f):
    """``f(module)`` for NumPy and namedarray: (result or exception, warnings)."""
    out = []
    for m in (onp, np):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = f(m)
            except Exception as e:       # noqa: BLE001  (compared below)
                r = e
        out.append((r, sorted({type(x.message).__name__ for x in w})))
    return out


# -- a.flat[idx] ------------------------------------------------------------
FLAT_GET = [0, -1, onp.int8(3), (), Ellipsis, (1,), (slice(1, 3),), slice(1, 3),
            slice(None, None, -1), slice(10, 5), [1, 3], [-1, -2], [True, 1], [],
            [[1, 2]], "bool_mask", "int2d", "uint8"]


def _flat_index(m, spec):
    if spec == "bool_mask":
        k = m.zeros(9, dtype=bool)
        k[::2] = True
        return k
    if spec == "int2d":
        return m.array([[1, 2], [3, 4]])
    if spec == "uint8":
        return m.array([1, 2], dtype=m.uint8)
    return spec


@pytest.mark.parametrize("spec", FLAT_GET, ids=repr)
def test_flat_getitem_matches_numpy(spec):
    (want, ww), (got, gw) = _both(
        lambda m: m.arange(9).reshape(3, 3).flat[_flat_index(m, spec)])
    assert gw == ww
    onp.testing.assert_array_equal(onp.asarray(got), want)
    assert onp.ndim(got) == onp.ndim(want)
    assert repr(got).startswith("array") == repr(want).startswith("array")


@pytest.mark.parametrize("spec, warning", [
    (True, "0-dimensional boolean index"), (False, "0-dimensional boolean index"),
    (1.0, "Invalid non-array indices"), ([1.0, 2.0], "Invalid non-array indices")])
def test_flat_deprecated_indices_warn_as_numpy(spec, warning):
    a, b = onp.arange(9), np.arange(9)
    with pytest.warns(DeprecationWarning, match=warning):
        want = a.flat[spec]
    with pytest.warns(DeprecationWarning, match=warning):
        got = b.flat[spec]
    onp.testing.assert_array_equal(onp.asarray(got), want)


@pytest.mark.parametrize("spec, match", [
    (None, r"only integers, slices \(`:`\), ellipsis \(`\.\.\.`\) and integer or "
           r"boolean arrays are valid indices"),
    ("a", r"only integers, slices \(`:`\), ellipsis \(`\.\.\.`\) and integer"),
    ((1, 2), "too many indices for flat iterator: flat iterator is 1-dimensional, "
             "but 2 were indexed"),
    ([True, True], "boolean indices for iterators are not supported"),
    (onp.True_, "boolean indices for iterators are not supported"),
    (9, "index 9 is out of bounds for size 9"),
    ([1, 10], "index 10 is out of bounds for size 9"),
    (onp.zeros(10, bool), "boolean index did not match indexed flat iterator"),
    (onp.zeros((3, 3), bool), "too many indices for flat iterator"),
    (onp.array([1.5]), r"arrays used as indices must be of integer \(or boolean\) type"),
])
def test_flat_index_errors_as_numpy(spec, match):
    with pytest.raises(IndexError, match=match):
        onp.arange(9).reshape(3, 3).flat[spec]
    with pytest.raises(IndexError, match=match):
        np.arange(9).reshape(3, 3).flat[spec]
    with pytest.raises(IndexError, match=match):
        np.arange(9).reshape(3, 3).flat[spec] = 1


@pytest.mark.parametrize("spec, value", [
    (slice(None, 5), [10, 20]), ([1, 2, 3], [10, 20, 30, 40, 50]), (Ellipsis, 7),
    ("int2d", [[7], [8]]), ("bool_mask", 30), (slice(None, None, -1), [1, 2, 3]),
    ([], [1, 2]), (-1, 5)], ids=repr)
def test_flat_setitem_repeats_values_as_numpy(spec, value):
    a, b = onp.arange(9).reshape(3, 3), np.arange(9).reshape(3, 3)
    a.flat[_flat_index(onp, spec)] = value
    b.flat[_flat_index(np, spec)] = value
    onp.testing.assert_array_equal(onp.asarray(b), a)


def test_flat_assign_empty_tuple_raises():
    with pytest.raises(IndexError, match="Assigning to a flat iterator with a 0-D index"):
        np.arange(9).flat[()] = 1


def test_flat_result_is_a_copy():
    a = np.arange(9).reshape(3, 3)
    r = a.flat[1:3]
    r[0] = 100
    assert int(a[0, 1]) == 1


# -- the kind of a 0-d result -----------------------------------------------
@pytest.mark.parametrize("expr", [
    "z[...]", "z[()]", "z[(...,)]", "a[1, ...]", "a[1]", "a[m.array(1)]",
    "a[m.array(1), ...]", "z.T", "z.reshape(())", "c.real", "m.transpose(z)",
    "z.view()", "m.squeeze(m.array([5]))"])
def test_zero_d_results_are_numpy_kinds(expr):
    def run(m):
        z, a, c = m.array(5), m.arange(3), m.array(1 + 2j)   # noqa: F841  (eval)
        return eval(expr)
    (want, _), (got, _) = _both(run)
    assert repr(got) == repr(want)
    assert np.isscalar(got) == onp.isscalar(want)


def test_ellipsis_of_zero_d_is_a_view():
    z = np.array(5)
    v = z[...]
    v[()] = 7
    assert int(z) == 7 and v.base is z


# -- NumPy's limits on advanced indices -------------------------------------
@pytest.mark.parametrize("ndim, num, index, match", [
    (1, 64, True, "when no subspace is given, the number of index arrays cannot be "
                  "above 63, but 64 index arrays found"),
    (1, 65, False, r"too many advanced \(array\) indices\. This probably means you are "
                   r"indexing with too many booleans\. \(more than 64 found\)"),
    (64, 32, True, r"number of dimensions must be within \[0, 64\], indexing result "
                   "would have 65"),
    (64, 64, onp.array([0]), "when no subspace is given, the number of index arrays "
                             "cannot be above 63, but 64 index arrays found"),
])
def test_too_many_advanced_indices_as_numpy(ndim, num, index, match):
    for m in (onp, np):
        arr = m.ones((1,) * ndim)
        with pytest.raises(IndexError, match=match):
            arr[(index,) * num]
        with pytest.raises(IndexError, match=match):
            arr[(index,) * num] = 1.0


@pytest.mark.parametrize("ndim, num, index", [(1, 32, True), (64, 63, onp.array([0])),
                                              (3, 2, onp.array([0]))])
def test_advanced_indices_within_limits(ndim, num, index):
    want = onp.ones((1,) * ndim)[(index,) * num]
    got = np.ones((1,) * ndim)[(index,) * num]
    assert got.shape == want.shape


# -- memory order of a fancy-index result -----------------------------------
@pytest.mark.parametrize("make", [
    lambda m: (m.arange(10), m.arange(10).reshape(5, 2).T, lambda a, b: a[b]),
    lambda m: (m.arange(10).reshape(-1, 1), m.arange(10).reshape(5, 2).T,
               lambda a, b: a[b, 0]),
    lambda m: (m.arange(30), m.arange(24).reshape(2, 3, 4).transpose(1, 0, 2),
               lambda a, b: a[b]),
    lambda m: (m.arange(10), m.arange(10).reshape(2, 5), lambda a, b: a[b]),
])
def test_fancy_index_result_follows_index_memory_order(make):
    a, b, f = make(onp)
    want = f(a, b)
    a, b, f = make(np)
    got = f(a, b)
    onp.testing.assert_array_equal(onp.asarray(got), want)
    assert got.strides == want.strides
    assert got.flags.f_contiguous == want.flags.f_contiguous
    assert got.flags.c_contiguous == want.flags.c_contiguous
    got[(0,) * got.ndim] = 100          # a result, not a view of the operand
    assert int(a.max()) < 100


# -- the cast of an assigned value ------------------------------------------
def test_object_values_are_converted_as_numpy():
    for m in (onp, np):
        arr = m.zeros(10)
        mask = m.zeros(10, dtype=bool)
        mask[:4] = True
        arr[mask] = onp.ones(4, dtype=object)
        arr[[5, 6]] = onp.array([2, 3], dtype=object)
    onp.testing.assert_array_equal(onp.asarray(arr), [1, 1, 1, 1, 0, 2, 3, 0, 0, 0])


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8"])
@pytest.mark.parametrize("value", [
    lambda m: m.array([2 + 1j]), lambda m: onp.complex128(2 + 1j),
    lambda m: onp.complex64(2 + 1j)], ids=["array", "complex128", "complex64"])
@pytest.mark.parametrize("index", [slice(0, 1), ([0],), "mask"], ids=["slice", "list", "mask"])
def test_complex_to_real_assignment_warns_as_numpy(dtype, value, index):
    res = []
    for m in (onp, np):
        a = m.zeros(3, dtype=dtype)
        idx = m.array([True, False, False]) if index == "mask" else index
        with pytest.warns(onp.exceptions.ComplexWarning, match="discards the imaginary"):
            a[idx] = value(m)
        res.append(onp.asarray(a))
    onp.testing.assert_array_equal(res[1], res[0])


def test_complex_to_bool_assignment_is_silent_and_python_complex_raises():
    for m in (onp, np):
        a = m.zeros(2, dtype=bool)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            a[:] = m.array([1j, 0])
        assert a.tolist() == [True, False]
    with pytest.raises(TypeError, match="complex"):
        np.zeros(2)[0] = 1j


def test_non_native_byte_order_index():
    idx = onp.array([[0, -1], [0, 1]], dtype=">i8")
    a = onp.arange(6).reshape(3, 2)
    onp.testing.assert_array_equal(onp.asarray(np.asarray(a)[idx]), a[idx])


def test_ravel_multi_index_of_no_entries_checks_none():
    coords = (onp.array(-1), onp.empty((0, 1, 1), int))
    want = onp.ravel_multi_index(coords, (3, 0))
    got = np.ravel_multi_index(coords, (3, 0))
    assert got.shape == want.shape == (0, 1, 1)
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        np.ravel_multi_index(([1, 5], [0, 1]), (3, 4))


# -- what a view holds; __array_wrap__ --------------------------------------
@pytest.mark.parametrize("expr", ["a[1:]", "a.T", "a[...]", "a.reshape(-1)"])
def test_view_holds_its_base_once(expr):
    a = np.zeros((3, 4))
    before = sys.getrefcount(a)
    v = eval(expr, {"a": a})
    assert v.base is a
    assert sys.getrefcount(a) == before + 1


def test_array_wrap_as_numpy():
    a, b = onp.arange(3.0), np.arange(3.0)
    for args in [(onp.array(2.0),), (onp.array(2.0), None, True),
                 (onp.array([2.0]), None, True)]:
        want, got = a.__array_wrap__(*args), b.__array_wrap__(*args)
        assert repr(got) == repr(want)


# -- einsum's memory order (NumPy's iterator, order="K") ---------------------
@pytest.mark.parametrize("spec, make", [
    ("ij,jk->ki", lambda m: (m.arange(6.0).reshape(2, 3), m.arange(12.0).reshape(3, 4))),
    ("ij,jk", lambda m: (m.arange(6.0).reshape(2, 3), m.arange(12.0).reshape(3, 4))),
    ("i,j->ji", lambda m: (m.arange(3.0), m.arange(4.0))),
    ("...ft,mf->...mt", lambda m: (m.ones((2, 3, 5), order="F"), m.ones((4, 3), order="F"))),
    ("ijk->kj", lambda m: (m.ones((2, 3, 4)).transpose(2, 0, 1),)),
    ("bij,bjk->bki", lambda m: (m.ones((2, 3, 4)), m.ones((2, 4, 5)).transpose(0, 2, 1).copy()
                                .transpose(0, 2, 1))),
])
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
def test_einsum_memory_order_as_numpy(spec, make, order):
    want = onp.einsum(spec, *make(onp), order=order, optimize=False)
    got = np.einsum(spec, *make(np), order=order)
    onp.testing.assert_allclose(onp.asarray(got), want)
    assert got.strides == want.strides
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)


def test_einsum_layout_is_the_spec_order_under_jit():
    import jax
    x, y = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    r = jax.jit(lambda a, b: np.einsum("ij,jk->ki", a, b))(x, y)
    onp.testing.assert_allclose(onp.asarray(r), onp.einsum("ij,jk->ki", onp.asarray(x),
                                                            onp.asarray(y)))


# -- ndarray(shape, buffer=...) ---------------------------------------------
def test_ndarray_over_an_immutable_buffer_is_a_read_only_copy():
    buf = onp.array([1, 2, 3], dtype=onp.int32).tobytes()
    want = onp.ndarray((2,), onp.int32, buf, offset=4)
    got = np.ndarray((2,), np.int32, buf, offset=4)
    onp.testing.assert_array_equal(onp.asarray(got), want)
    assert got.flags.writeable is want.flags.writeable is False
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        got[0] = 5
    obj = np.ndarray(buffer=b"\0" * onp.intp(0).itemsize, shape=1, dtype=object)
    assert type(obj) is onp.ndarray and obj.tolist() == [None]     # NumPy's own


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(shape=(2,), dtype=onp.int32, buffer=bytearray(8)), TypeError,
     "ndarray: buffer= of a writable buffer is not supported"),
    (dict(shape=(3,), dtype=onp.int32, buffer=b"\0" * 8), TypeError,
     "buffer is too small"),
    (dict(shape=(2,), buffer=[1, 2]), TypeError, "must support the buffer protocol"),
])
def test_ndarray_buffer_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        np.ndarray(**kwargs)


# -- the eager tier: indexing small data moves it on the host ---------------
def test_eager_indexing_of_small_data_compiles_nothing(caplog):
    import logging

    import jax

    from namedarray.frontend.engines import host
    if not host.ENABLED:
        pytest.skip("NAMEDARRAY_HOST_TIER=off: every eager call compiles")
    pairs = [(onp.arange(n * 3.0).reshape(n, 3), np.arange(n * 3.0).reshape(n, 3))
             for n in range(16, 25)]
    b = pairs.pop(0)[1]         # (per dtype, once: a Python scalar's conversion)
    b[[0, -1], 1:], b.__setitem__((np.array([0, 1]), slice(1, None)), 5)
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level(logging.DEBUG, logger="jax"):
            for a, b in pairs:
                onp.testing.assert_array_equal(onp.asarray(b[[0, -1], 1:]), a[[0, -1], 1:])
                b[np.array([0, 1]), 1:] = 5
                b[1:, [2]] = [[7.0]]
                a[onp.array([0, 1]), 1:] = 5
                a[1:, [2]] = [[7.0]]
                onp.testing.assert_array_equal(onp.asarray(b), a)
    finally:
        jax.config.update("jax_log_compiles", False)
    assert [r.getMessage()[:60] for r in caplog.records if "Compiling" in r.getMessage()] == []


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64",
                                   "bool", "float16", "float32", "float64"])
@pytest.mark.parametrize("size", [4, 70_000])       # living on the host, on a device
def test_assigned_sequences_are_read_into_the_dtype_as_numpy_reads_them(dtype, size):
    """``a[:2] = [v, 1]``: NumPy reads the list straight into ``a``'s dtype
    (``OverflowError`` for a Python int beyond it, ``ValueError`` for a NaN
    into integers; a float truncated into integers), on both paths."""
    for v in (300, -1, 2**40, 2**64, 1.7, -2.5, float("nan"), True):
        a, b = onp.zeros(size, dtype), np.zeros(size, dtype)
        try:
            a[:2] = [v, 1]
        except (OverflowError, ValueError) as e:
            with pytest.raises(type(e), match=re.escape(str(e))):
                b[:2] = [v, 1]
            continue
        b[:2] = [v, 1]
        onp.testing.assert_array_equal(onp.asarray(b[:3]), a[:3])

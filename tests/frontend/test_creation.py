"""Array creation and NamedArray methods/properties against NumPy: values, dtypes,
repr of positional arrays, scalar conversion, iteration; named *_like creation."""
import operator
import warnings

import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from support import ALL_DTYPES, arrays, assert_same

SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 1)]
DTYPES = [None] + ALL_DTYPES


def both(f):
    """``f(numpy)`` and ``f(namedarray)`` agree: same error type, or same result."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e = f(onp)
    except (TypeError, ValueError, OverflowError) as err:
        with pytest.raises(type(err) if not isinstance(err, TypeError) else TypeError):
            f(np)
        return
    same(f(np), e)


def same(res, exp):
    assert_same(res, exp, close=True)


@settings(max_examples=25)
@given(shape=st.sampled_from(SHAPES + [3, 0]), dt=st.sampled_from(DTYPES),
       fill=st.one_of(st.integers(-3, 3), st.floats(-3, 3), st.booleans()))
def test_filled(shape, dt, fill):
    for name in ("zeros", "ones"):
        same(getattr(np, name)(shape, dtype=dt), getattr(onp, name)(shape, dtype=dt))
    e = onp.empty(shape, dtype=dt)
    r = np.empty(shape, dtype=dt)
    assert r.shape == e.shape and r.dtype == e.dtype
    if not (dt is not None and onp.dtype(dt).kind in "biu" and isinstance(fill, float)):
        both(lambda m: m.full(shape, fill, dtype=dt))
    same(np.full(shape, fill), onp.full(shape, fill))
    same(np.full(shape, onp.int8(2)), onp.full(shape, onp.int8(2)))


@settings(max_examples=25)
@given(dt=st.sampled_from(ALL_DTYPES), shape=st.sampled_from(SHAPES), data=st.data(),
       out_dt=st.sampled_from(DTYPES))
def test_like(dt, shape, data, out_dt):
    x = data.draw(arrays(dt, shape))
    a = np.asarray(x)
    same(np.zeros_like(a, dtype=out_dt), onp.zeros_like(x, dtype=out_dt))
    same(np.ones_like(a, dtype=out_dt), onp.ones_like(x, dtype=out_dt))
    same(np.full_like(a, 1, dtype=out_dt), onp.full_like(x, 1, dtype=out_dt))
    r = np.empty_like(a, dtype=out_dt)
    assert r.shape == x.shape and r.dtype == onp.empty_like(x, dtype=out_dt).dtype


@settings(max_examples=40)
@given(start=st.one_of(st.integers(-5, 5), st.floats(-5, 5), st.just(onp.int8(3)),
                       st.just(onp.float32(1.5))),
       stop=st.one_of(st.none(), st.integers(-5, 8), st.floats(-5, 8)),
       step=st.one_of(st.none(), st.sampled_from([1, 2, -1, 0.5, -0.75])),
       dt=st.sampled_from([None, onp.int16, onp.float32, onp.float64]))
def test_arange(start, stop, step, dt):
    args = (start,) if stop is None and step is None else (start, stop, step) if \
        stop is not None else (start,)
    if dt is not None and onp.dtype(dt).kind in "iu" and not all(
            isinstance(v, (int, onp.integer)) for v in args if v is not None):
        return  # NumPy's quirk: values from the first two elements cast to int
    try:
        e = onp.arange(*args, dtype=dt)
    except (ValueError, TypeError, ZeroDivisionError):
        return
    same(np.arange(*args, dtype=dt), e)


@settings(max_examples=30)
@given(start=st.floats(-5, 5), stop=st.floats(-5, 5), num=st.integers(0, 7),
       endpoint=st.booleans(), dt=st.sampled_from([None, onp.float32, onp.float64]))
def test_spaces(start, stop, num, endpoint, dt):
    same(np.linspace(start, stop, num, endpoint=endpoint, dtype=dt),
         onp.linspace(start, stop, num, endpoint=endpoint, dtype=dt))
    r, s = np.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    e, es = onp.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    same(r, e)
    if num > 1 or endpoint is False and num:
        onp.testing.assert_allclose(float(s), float(es), rtol=1e-12)
    same(np.logspace(start / 5, stop / 5, num, endpoint=endpoint),
         onp.logspace(start / 5, stop / 5, num, endpoint=endpoint))
    same(np.logspace(0, 2, num, base=2.0), onp.logspace(0, 2, num, base=2.0))
    lo, hi = abs(start) + 0.5, abs(stop) + 0.5
    same(np.geomspace(lo, hi, num, endpoint=endpoint),
         onp.geomspace(lo, hi, num, endpoint=endpoint))
    same(np.linspace([0, 1], [start, stop], num), onp.linspace([0, 1], [start, stop], num))


@settings(max_examples=25)
@given(n=st.integers(0, 4), m=st.one_of(st.none(), st.integers(0, 4)),
       k=st.integers(-3, 3), dt=st.sampled_from(DTYPES))
def test_matrices(n, m, k, dt):
    same(np.eye(n, m, k=k, dtype=dt or float), onp.eye(n, m, k=k, dtype=dt or float))
    same(np.identity(n, dtype=dt), onp.identity(n, dtype=dt))
    same(np.tri(n, m, k), onp.tri(n, m, k))
    same(np.tri(n, m, k, dtype=dt or float), onp.tri(n, m, k, dtype=dt or float))
    v = onp.arange(1, n + 1).astype(dt or onp.int64)
    same(np.diag(np.asarray(v), k), onp.diag(v, k))
    same(np.diag(v.tolist(), k), onp.diag(v.tolist(), k))
    sq = onp.arange(n * (m or n)).astype(dt or float).reshape(n, m or n)
    same(np.diag(np.asarray(sq), k), onp.diag(sq, k))
    same(np.tril(np.asarray(sq), k), onp.tril(sq, k))
    same(np.triu(np.asarray(sq), k), onp.triu(sq, k))
    same(np.diagflat(v.tolist(), k), onp.diagflat(v.tolist(), k))
    same(np.tril_indices(n, k, m), onp.tril_indices(n, k, m))
    same(np.indices((n, 2)), onp.indices((n, 2)))
    same(np.vander(v, 3), onp.vander(v, 3))


@settings(max_examples=30)
@given(dt=st.sampled_from(DTYPES), data=st.data())
def test_array_asarray(dt, data):
    shape = data.draw(st.sampled_from(SHAPES))
    x = data.draw(arrays(data.draw(st.sampled_from(ALL_DTYPES)), shape))
    nested = x.tolist()
    for obj in (x, nested):
        for name in ("array", "asarray"):
            both(lambda m: getattr(m, name)(obj, dtype=dt))
    same(np.array(nested, ndmin=3), onp.array(nested, ndmin=3))
    same(np.array([1, 2.5, True]), onp.array([1, 2.5, True]))
    same(np.array(2 ** 63), onp.array(2 ** 63))
    same(np.asarray(onp.float32(3)), onp.asarray(onp.float32(3)))
    a = np.asarray(x)
    c = np.array(a)
    c2 = a.copy()
    assert c is not a and c2 is not a
    same(c, x)
    same(np.copy(a), x)


def test_fromfunction_and_friends():
    same(np.fromfunction(lambda i, j: i + 2 * j, (2, 3)),
         onp.fromfunction(lambda i, j: i + 2 * j, (2, 3)))
    same(np.fromfunction(lambda i, j: i * j, (2, 3), dtype=int),
         onp.fromfunction(lambda i, j: i * j, (2, 3), dtype=int))
    same(np.fromiter(range(4), dtype=float), onp.fromiter(range(4), dtype=float))
    same(np.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8),
         onp.frombuffer(b"\x01\x02\x03\x04", dtype=onp.uint8))
    same(np.meshgrid([1, 2], [3.0, 4, 5], sparse=True),
         onp.meshgrid([1, 2], [3.0, 4, 5], sparse=True))


def test_creation_errors():
    with pytest.raises(ValueError, match="zeros: negative dimensions are not allowed"):
        np.zeros(-1)
    with pytest.raises(TypeError, match="ones: shape must be an int or a sequence of ints"):
        np.ones(3.0)
    with pytest.raises(ZeroDivisionError, match="arange: step must not be 0"):
        np.arange(0, 5, 0)
    assert type(np.array([None])) is onp.ndarray       # NumPy's own (#24)
    assert type(np.array([[1], [1, 2]], dtype=object)) is onp.ndarray


# --------------------------------------------------------------------------
# methods and properties
# --------------------------------------------------------------------------
@settings(max_examples=40)
@given(dt=st.sampled_from(ALL_DTYPES), shape=st.sampled_from(SHAPES + [(1,), (1, 1)]),
       data=st.data())
def test_methods_properties(dt, shape, data):
    x = data.draw(arrays(dt, shape))
    a = np.asarray(x)
    assert repr(a) == repr(x)
    assert str(a) == str(x)
    assert a.tolist() == x.tolist()
    assert a.shape == x.shape and a.ndim == x.ndim and a.size == x.size
    assert a.dtype == x.dtype and a.itemsize == x.itemsize and a.nbytes == x.nbytes
    same(a.T, x.T)
    same(a.real, x.real)
    same(a.imag, x.imag)
    same(a.flatten(), x.flatten())
    to = data.draw(st.sampled_from(ALL_DTYPES))
    if onp.dtype(to).kind == "u" and x.dtype.kind in "fc":
        x = abs(x).real.astype(x.dtype)   # negative float -> unsigned is undefined in C
        a = np.asarray(x)
    with onp.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same(a.astype(to), x.astype(to))
    if onp.can_cast(dt, to, "same_kind"):
        same(a.astype(to, casting="same_kind"), x.astype(to, casting="same_kind"))
    else:
        with pytest.raises(TypeError, match=f"astype: cannot cast array data from {x.dtype}"):
            a.astype(to, casting="same_kind")
    if x.size == 1:
        assert a.item() == x.item()
        assert bool(a) == bool(x)
    if x.ndim == 0:
        if x.dtype.kind != "c":
            assert float(a) == float(x) and int(a) == int(x)
        else:
            assert complex(a) == complex(x)
    if x.ndim:
        assert len(a) == len(x)
        for r, e in zip(a, x):
            same(r, e)
        assert len(list(a)) == len(x)
    else:
        with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
            len(a)
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(a).__next__()
        if x.dtype.kind in "iu":
            assert operator.index(a) == operator.index(x)


def test_fill_and_copy_alias():
    a = np.zeros(3, dtype=np.int16)
    alias = a
    a.fill(7)
    same(alias, onp.full(3, 7, onp.int16))
    c = a.copy()
    c[0] = 1
    same(a, onp.full(3, 7, onp.int16))
    with pytest.raises(TypeError, match="bool: the array has named axes"):
        bool(np.NamedArray(onp.ones(2), ("b",)))


# --------------------------------------------------------------------------
# named variant
# --------------------------------------------------------------------------
@settings(max_examples=15)
@given(dt=st.sampled_from(ALL_DTYPES), out_dt=st.sampled_from(DTYPES), data=st.data())
def test_named_like_and_astype(dt, out_dt, data):
    arr = data.draw(arrays(dt, (2, 3)))
    if out_dt is not None and onp.dtype(out_dt).kind == "u" and arr.dtype.kind in "fc":
        arr = abs(arr).real.astype(arr.dtype)  # negative float -> unsigned: undefined
    x = np.NamedArray(arr, ("b", None))
    for name in ("zeros_like", "ones_like"):
        r = getattr(np, name)(x, dtype=out_dt)
        assert r.named_shape == {"b": 2} and r.shape == (3,)
        same(r.untag("b"), getattr(onp, name)(arr, dtype=out_dt))
    r = np.full_like(x, 1, dtype=out_dt)
    same(r.untag("b"), onp.full_like(arr, 1, dtype=out_dt))
    with onp.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same(x.astype(out_dt or float).untag("b"), arr.astype(out_dt or float))
    c = x.copy()
    assert c.named_shape == x.named_shape
    same(c.untag("b"), arr)
    assert "dims=" in repr(x) and "'b': 2" in repr(x)
    # a NamedArray inside a list stacks by name
    s = np.asarray([x, x])
    assert s.named_shape == {"b": 2}
    same(s.untag("b"), onp.stack([arr, arr], axis=1))


@settings(max_examples=40)
@given(start=st.floats(-1e3, 1e3), stop=st.floats(-1e3, 1e3), num=st.integers(0, 9),
       endpoint=st.booleans(), shape=st.sampled_from([(), (2,), (2, 1)]),
       axis=st.sampled_from([0, -1]),
       dt=st.sampled_from([None, onp.int32, onp.int64, onp.float32]))
def test_linspace_has_numpys_bits(start, stop, num, endpoint, shape, axis, dt):
    """NumPy's arithmetic (arange * step + start, a true division): every
    sample has NumPy's bits, so an integer dtype floors to NumPy's values
    (``linspace(-1, 5, 3, endpoint=False, dtype=int32)`` is [-1, 1, 3])."""
    a, b = onp.full(shape, start), onp.asarray(stop)
    ref = onp.linspace(a, b, num, endpoint=endpoint, axis=axis, dtype=dt)
    got = onp.asarray(np.linspace(a, b, num, endpoint=endpoint, axis=axis, dtype=dt))
    assert got.dtype == ref.dtype
    onp.testing.assert_array_equal(got, ref)
    onp.testing.assert_array_equal(np.linspace(-1, 5, 3, endpoint=False, dtype=onp.int32),
                                   [-1, 1, 3])


@pytest.mark.parametrize("start,stop", [(1, -8), (-1, -1000), (1j, 1000j), (-3 + 1j, 0.5),
                                        (8, 2.5)])
@pytest.mark.parametrize("num", [0, 1, 2, 3, 5])
def test_geomspace_is_numpys(start, stop, num):
    """Ends divided by the sign of start, exact ends (geomspace(1, -8, 2) was
    [nan, nan]; NumPy: [1, -8])."""
    with onp.errstate(all="ignore"):
        exp = onp.geomspace(start, stop, num)
    got = onp.asarray(np.geomspace(start, stop, num))
    assert (got.dtype, got.shape) == (exp.dtype, exp.shape)
    onp.testing.assert_allclose(got, exp, rtol=1e-12, equal_nan=True)


def test_geomspace_refuses_zero():
    with pytest.raises(ValueError, match="geomspace: a geometric sequence cannot include zero"):
        np.geomspace(0, 1000j, 0)


@pytest.mark.parametrize("src", [
    "np.arange(2**63)", "np.arange(2**63 - 2, 2**63)", "np.arange(-3, dtype=np.uint64)",
    "np.arange(-3, 5, 2, dtype=np.uint64)", "np.full_like(np.asarray(np.int8([1])), 1j)",
    "np.full_like(np.asarray([True]), 2**63)", "np.full_like(np.asarray([1.0]), 2**64)"])
def test_big_python_ints_and_casts_in_creation(src):
    """Python ints beyond int64 follow NumPy's own path (float64 bounds) or its
    OverflowError; a complex fill of a real array drops the imaginary part."""
    res = []
    for mod in (onp, np):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                res.append(onp.asarray(eval(src, {"np": mod})))
            except OverflowError:
                res.append("OverflowError")
    exp, got = res
    if isinstance(exp, str):
        assert got == exp
    else:
        assert (got.dtype, got.shape) == (exp.dtype, exp.shape)
        onp.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("v", [2**63, 2**64, -2**70, 2**200, 2**1100])
@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "bool"])
def test_full_of_an_int_beyond_int64(v, dt):
    """A Python int beyond int64 with an inexact dtype is its Python float (inf
    where the dtype's range ends, OverflowError beyond a float's); bool takes a C
    long only (OverflowError), as NumPy's unsafe copy."""
    try:
        exp = onp.full(3, v, dtype=dt)
    except OverflowError:
        with pytest.raises(OverflowError, match="full: .*too large to convert to"):
            np.full(3, v, dtype=dt)
        return
    got = onp.asarray(np.full(3, v, dtype=dt))
    assert got.dtype == exp.dtype
    onp.testing.assert_array_equal(got, exp)


def test_full_of_complex_into_bool_reads_both_parts():
    for v in (1j, 0j, onp.complex64(2 - 0j), onp.asarray([0j, 1j])):
        w = np.asarray(v) if isinstance(v, onp.ndarray) else v
        assert_same(np.full(2, w, dtype=bool), onp.full(2, v, dtype=bool))
        assert_same(np.full_like(np.zeros(2, bool), w), onp.full_like(onp.zeros(2, bool), v))



# -- the scalar rule (core.array.zero_dim_array): NumPy's scalars and 0-d arrays
_SCALAR_CASES = [
    ("full reduction", lambda m: m.arange(6).sum()),
    ("float mean", lambda m: m.asarray([1.0, 2.5, -4.25]).mean()),
    ("integer index", lambda m: m.asarray([3.5, -1.0])[1]),
    ("bool any", lambda m: m.asarray([False, True]).any()),
    ("complex index", lambda m: m.asarray([1 + 2j, 3j], m.complex64)[0]),
    ("median", lambda m: m.median(m.asarray([3.0, 1.0, 2.0]))),
    ("argmax", lambda m: m.argmax(m.asarray([[1, 5], [7, 0]]))),
    ("scalar arithmetic", lambda m: m.arange(4).sum() * 2),
    ("asarray of a scalar", lambda m: m.asarray(m.arange(6).sum())),
    ("array of an int", lambda m: m.array(7)),
    ("asarray of a float", lambda m: m.asarray(-166.09640474436813)),
    ("array with dtype", lambda m: m.array(3, dtype=m.int8)),
    ("0-d array plus one", lambda m: m.asarray(5) + 1),
    ("reduction of a 0-d array", lambda m: m.asarray(5.0).sum()),
]


@pytest.mark.parametrize("make", [c[1] for c in _SCALAR_CASES], ids=[c[0] for c in _SCALAR_CASES])
def test_scalars_and_0d_arrays_print_and_answer_as_numpy(make):
    got, want = make(np), make(onp)
    assert repr(got) == repr(want)
    assert str(got) == str(want)
    assert repr((got, 1)) == repr((want, 1))          # full digits inside a tuple
    assert np.isscalar(got) == onp.isscalar(want)
    assert (got.ndim, got.shape, got.dtype) == (onp.ndim(want), onp.shape(want), want.dtype)


def test_a_named_reduction_is_a_scalar_a_named_array_is_not():
    x = np.arange(6.0).tag("i").sum("i")    # a named reduction is 0-d and positional
    assert np.isscalar(x) and repr(x) == "np.float64(15.0)"
    y = np.asarray([1.0, 2.0]).tag("i")
    assert not np.isscalar(y) and not np.isscalar(np.asarray(3.0))


def test_scalars_stay_device_values_under_jit():
    import jax
    s = jax.jit(lambda x: x.sum())(np.arange(4.0))
    assert isinstance(s, np.NamedArray) and repr(s) == repr(onp.arange(4.0).sum())
    assert jax.jit(lambda a: a * 2)(np.asarray(3.0)).item() == 6.0


def test_asarray_of_a_0d_array_is_the_array():
    a = np.asarray(3.0)
    assert np.asarray(a) is a and np.asanyarray(a) is a
    s = np.arange(3.0).sum()
    assert np.asarray(s) is not s and repr(np.asarray(s)) == repr(onp.asarray(onp.arange(3.0).sum()))

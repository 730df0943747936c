"""Rules that NumPy's own ``numpy/lib`` tests exercise, checked over each
family with NumPy as the oracle: read-only arrays (``setflags`` and
``flags.writeable``), a reduction's exact ``out=`` shape, nan_to_num and
real_if_close, delete/insert's reading of ``obj`` and memory order, the
``order=`` of functions declared from jax.numpy, ravel/unravel index checks,
ix_, vander's exact powers, warnings NumPy gives, and seeded random draws
given namedarray arguments."""
from __future__ import annotations

import warnings

import numpy as onp
import pytest

import namedarray as np


def _same(a, b):
    a = onp.asarray(a)
    assert a.dtype == onp.asarray(b).dtype and a.shape == onp.shape(b), (a, b)
    onp.testing.assert_array_equal(a, b)


def _warnings(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f()
    return r, [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]


# -- read-only arrays ---------------------------------------------------------
_WRITES = {
    "setitem": (lambda m, a: a.__setitem__(0, 1), "assignment destination is read-only"),
    "iadd": (lambda m, a: a.__iadd__(1), "output array is read-only"),
    "out": (lambda m, a: m.add(a, 1, out=a), "output array is read-only"),
    "reduce_out": (lambda m, a: m.sum(m.ones((2, 3)), axis=0, out=a),
                   "output array is read-only"),
    "fill": (lambda m, a: a.fill(1), "read-only"),
    "copyto": (lambda m, a: m.copyto(a, 1), "read-only"),
    "put": (lambda m, a: m.put(a, [0], 1), "read-only"),
    "putmask": (lambda m, a: m.putmask(a, a > 0, 1), "read-only"),
    "sort": (lambda m, a: a.sort(), "read-only"),
    "ufunc_at": (lambda m, a: m.add.at(a, [0], 1), "read-only"),
    "byteswap": (lambda m, a: a.byteswap(True), "read-only"),
    "view_setitem": (lambda m, a: a[1:].__setitem__(0, 1), "read-only"),
    "transpose_setitem": (lambda m, a: a.T.__setitem__(0, 1), "read-only"),
    "flat": (lambda m, a: a.flat.__setitem__(0, 1), "read-only"),
}


@pytest.mark.parametrize("how", sorted(_WRITES))
def test_a_read_only_array_refuses_every_write(how):
    write, msg = _WRITES[how]
    # (NumPy 2.4's ufunc.at writes into a read-only array: its bug, not followed)
    for lib in (onp, np) if how != "ufunc_at" else (np,):
        a = lib.arange(3.0)
        a.setflags(write=False)
        assert not a.flags.writeable
        with pytest.raises(ValueError, match=msg):
            write(lib, a)
        _same(a, onp.arange(3.0))


def test_setflags_follows_numpy():
    a = np.arange(3.0)
    a.setflags(write=False)
    v = a[1:]
    assert not v.flags.writeable        # a view of a read-only array is read-only
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
        v.setflags(write=True)
    a.setflags(write=True)
    a[0] = 5
    v.setflags(write=True)              # its base is writeable again
    v[0] = 7
    _same(a, onp.array([5.0, 7.0, 2.0]))
    with pytest.raises(ValueError, match="cannot set WRITEBACKIFCOPY flag to True"):
        a.setflags(uic=True)
    # flags.writeable = ... is setflags (NumPy's idiom)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        a[0] = 1
    a.flags["W"] = True
    a[0] = 1
    assert a.flags.writeable and a.flags["WRITEABLE"]
    with pytest.raises(AttributeError, match="flags: 'c_contiguous' cannot be set"):
        a.flags.c_contiguous = False
    # a read-only result stays read-only; a copy is writeable
    b = np.broadcast_to(a, (2, 3))
    assert not b.flags.writeable
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        b.setflags(write=True)
    c = np.arange(3)
    c.setflags(write=False)
    assert c.copy().flags.writeable and np.array(c).flags.writeable


@pytest.mark.parametrize("make", [lambda m: m.arange(6.0)[m.arange(6.0) > 2],
                                  lambda m: m.arange(6.0)[[1, 2]],
                                  lambda m: m.arange(6.0).reshape(2, 3).T,
                                  lambda m: m.eye(3, order="F"), lambda m: m.array(2.0)])
def test_every_kind_of_array_takes_setflags(make):
    for lib in (onp, np):
        a = make(lib)
        assert a.flags.writeable
        a.setflags(write=False)
        assert not a.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            a[...] = 1
        a.setflags(write=True)
        a[...] = 1
        _same(a, onp.ones(a.shape))
    for s in (np.float64(1.5), np.sum(np.arange(3))):   # a scalar is a value
        assert not s.flags.writeable
        s.setflags(write=False)
        s.setflags(write=True)
        assert not s.flags.writeable


def test_a_failed_write_through_a_view_changes_nothing():
    a = np.arange(3.0)
    v = a[1:]
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        v[0] = 9
    _same(v, onp.array([1.0, 2.0]))
    _same(a, onp.arange(3.0))


# -- a reduction's out= has the result's shape exactly ------------------------
@pytest.mark.parametrize("fn, ufunc", [("sum", "add"), ("mean", "add"), ("prod", "multiply"),
                                       ("max", "maximum"), ("nanmax", "fmax"),
                                       ("nanmin", "fmin"), ("all", "logical_and"),
                                       ("std", "add"), ("median", "add"), ("nansum", "add")])
def test_a_reduction_out_is_not_broadcast_to(fn, ufunc):
    d = onp.ones((2, 3))
    for out in (onp.zeros((1, 3)), onp.zeros(())):
        with pytest.raises(ValueError, match="wrong number of dimensions"):
            getattr(onp, fn)(d, axis=0, out=out)
        with pytest.raises(ValueError, match=f"{fn}: output parameter for reduction "
                                             f"operation {ufunc} has the wrong number of "
                                             "dimensions"):
            getattr(np, fn)(np.asarray(d), axis=0, out=np.asarray(out))
    with pytest.raises(ValueError, match=f"{fn}: the output operand of shape \\(4,\\)"):
        getattr(np, fn)(np.asarray(d), axis=0, out=np.zeros(4))
    o = np.zeros(3)
    assert getattr(np, fn)(np.asarray(d), axis=0, out=o) is o


@pytest.mark.parametrize("fn", ["argmax", "nanargmin"])
def test_an_arg_reduction_out_must_match(fn):
    with pytest.raises(ValueError, match="output array does not match result of np.arg"):
        getattr(onp, fn)(onp.ones((2, 3)), axis=0, out=onp.zeros((1, 3), int))
    with pytest.raises(ValueError, match=f"{fn}: output array does not match result of "
                                         f"np.{fn.removeprefix('nan')}"):
        getattr(np, fn)(np.ones((2, 3)), axis=0, out=np.zeros((1, 3), int))


def test_nanmedian_and_quantile_out_broadcast_as_numpy():
    d = onp.ones((2, 3))
    _same(np.nanmedian(np.asarray(d), axis=0, out=np.zeros((2, 3))),
          onp.nanmedian(d, axis=0, out=onp.zeros((2, 3))))
    _same(np.percentile(np.asarray(d), 50, axis=0, out=np.zeros((1, 3))),
          onp.percentile(d, 50, axis=0, out=onp.zeros((1, 3))))


# -- warnings ------------------------------------------------------------------
@pytest.mark.parametrize("fn", ["nanmin", "nanmax"])
@pytest.mark.parametrize("data, axis", [(onp.array(onp.nan), None),
                                        (onp.full((3, 3), onp.nan), 0),
                                        (onp.array([[1, onp.nan], [onp.nan, onp.nan]]), 0),
                                        (onp.array([1.0, onp.nan]), None)])
@pytest.mark.parametrize("dtype", ["e", "f", "d"])
def test_all_nan_slice_warns_as_numpy(fn, data, axis, dtype):
    d = data.astype(dtype)
    e, ew = _warnings(lambda: getattr(onp, fn)(d, axis=axis))
    r, rw = _warnings(lambda: getattr(np, fn)(np.asarray(d), axis=axis))
    _same(r, e)
    assert rw == ew


@pytest.mark.parametrize("shape, axis", [((0,), None), ((1, 1, 0), None), ((1, 1, 0), 2),
                                         ((0, 3), 0), ((0, 3), 1)])
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_median_of_empty_warns_as_numpy(fn, shape, axis):
    e, ew = _warnings(lambda: getattr(onp, fn)(onp.zeros(shape), axis=axis))
    r, rw = _warnings(lambda: getattr(np, fn)(np.zeros(shape), axis=axis))
    _same(r, e)
    assert rw == ew


@pytest.mark.parametrize("fn", ["histogram", "histogram_bin_edges"])
def test_bool_histogram_warns(fn):
    for lib in (onp, np):
        with pytest.warns(RuntimeWarning, match="Converting input from bool"):
            r = getattr(lib, fn)(lib.array([True, True, False]))
    _same(r[0] if fn == "histogram" else r,
          getattr(onp, fn)(onp.array([1, 1, 0], onp.uint8))[0] if fn == "histogram"
          else onp.histogram_bin_edges(onp.array([1, 1, 0], onp.uint8)))


# -- nan_to_num, real_if_close -------------------------------------------------
@pytest.mark.parametrize("kw", [{}, {"nan": onp.inf, "posinf": 999},
                                {"nan": 10, "posinf": 20, "neginf": 30},
                                {"neginf": onp.nan}])
@pytest.mark.parametrize("dtype", ["e", "f", "d", "F", "D"])
def test_nan_to_num_replaces_from_the_input(kw, dtype):
    d = onp.array([-onp.inf, onp.nan, onp.inf, 1.5]).astype(dtype)
    if dtype in "FD":
        with onp.errstate(invalid="ignore"):
            d = d + 1j * d[::-1]
    e = onp.nan_to_num(d, **kw)
    _same(np.nan_to_num(np.asarray(d), **kw), e)
    x = np.asarray(d)
    assert np.nan_to_num(x, copy=False, **kw) is x
    _same(x, e)


def test_nan_to_num_kinds():
    for v in (1, 1.0, 1 + 1j, True, complex(onp.inf, onp.nan)):
        r, e = np.nan_to_num(v), onp.nan_to_num(v)
        assert np.isscalar(r) and repr(r) == repr(e)
    assert repr(np.nan_to_num([1])) == repr(onp.nan_to_num([1]))


@pytest.mark.parametrize("tol", [100, 1e-6, 0.5, 1])
@pytest.mark.parametrize("im", [1e-15, 1e-7, 1e-3])
def test_real_if_close_tolerance(tol, im):
    d = onp.array([0.25, 0.5]) + 1j * im
    _same(np.real_if_close(np.asarray(d), tol=tol), onp.real_if_close(d, tol=tol))


# -- delete and insert -----------------------------------------------------------
_OBJ = [[100], [-100], True, False, [False] * 4, [True, False, False, True, False],
        onp.array([1.0, 2.0]), onp.array([], dtype=float), [], 1.0, -6, [0, -1, 2, 2],
        onp.array([[0, 1], [2, 1]]), slice(1, -1, 2), onp.array([True, False])]


@pytest.mark.parametrize("fn", ["delete", "insert"])
@pytest.mark.parametrize("k", range(len(_OBJ)))
def test_delete_and_insert_read_obj_as_numpy(fn, k):
    obj = _OBJ[k]
    args = (9,) if fn == "insert" else ()
    try:
        e = getattr(onp, fn)(onp.arange(5), obj, *args)
    except (ValueError, IndexError, TypeError) as ex:
        with pytest.raises(type(ex), match=f"^{fn}: "):
            getattr(np, fn)(np.arange(5), obj, *args)
        return
    except AttributeError:      # (NumPy's insert of a bool list: NumPy's own bug)
        return
    _same(getattr(np, fn)(np.arange(5), obj, *args), e)


@pytest.mark.parametrize("call", [lambda m, k: m.delete(k, slice(60, None), axis=1),
                                  lambda m, k: m.delete(k, [0], axis=1),
                                  lambda m, k: m.insert(k, 1, 0, axis=1),
                                  lambda m, k: m.delete(k, 1, axis=0)])
def test_delete_and_insert_keep_fortran_order(call):
    for order in ("C", "F"):
        e = call(onp, onp.arange(10).reshape(2, 5, order=order))
        r = call(np, np.arange(10).reshape(2, 5, order=order))
        _same(r, e)
        assert (r.flags.c_contiguous, r.flags.f_contiguous) == (
            e.flags.c_contiguous, e.flags.f_contiguous)


@pytest.mark.parametrize("trim", ["front", "", "fbx", "back"])
def test_trim_zeros_trim_argument(trim):
    with pytest.raises(ValueError, match="unexpected character"):
        onp.trim_zeros(onp.array([0, 1, 0]), trim)
    with pytest.raises(ValueError, match=r"trim_zeros: unexpected character\(s\) in `trim`"):
        np.trim_zeros(np.array([0, 1, 0]), trim)
    _same(np.trim_zeros(np.array([0, 1, 0]), "B"), onp.trim_zeros(onp.array([0, 1, 0]), "B"))


# -- order= of functions declared from jax.numpy ---------------------------------
@pytest.mark.parametrize("order", ["C", "F", "c", "f"])
def test_eye_order(order):
    e, r = onp.eye(4, 3, k=-1, order=order), np.eye(4, 3, k=-1, order=order)
    _same(r, e)
    assert (r.flags.c_contiguous, r.flags.f_contiguous) == (
        e.flags.c_contiguous, e.flags.f_contiguous)


# -- index tricks -----------------------------------------------------------------
_UNRAVEL = [(0.5, (2, 2)), ([], (2, 2)), (onp.array([]), (2, 2)),
            (1, (2 ** 32 - 1, 2 ** 31 + 1)), ([0], ()), ([1], ()), (0, ()), ([1], (2, 1, 0)),
            (-1, (2, 2)), (onp.array([], dtype=int), (10, 3, 5)), (1621, (6, 7, 8, 9))]
_HALF = onp.iinfo(onp.intp).max // 2
_RAVEL = [(([], []), (10, 3)), ((onp.array([]), onp.array([])), (5, 3)), ((0.1, 0.0), (2, 2)),
          (([0], [0]), (_HALF + 1, 2)), (([0], [0]), (_HALF, 2)),
          (onp.zeros((3, 1), dtype=onp.intp), (2, 1, 0)), (([], ["abc"]), (10, 3)),
          ((onp.array([], dtype=int), onp.array([], dtype=int)), (5, 3))]


def _compare(f, g):
    try:
        e = f()
    except (ValueError, TypeError) as ex:
        with pytest.raises(type(ex)):
            g()
        return
    r = g()
    if isinstance(e, tuple):
        assert len(r) == len(e)
        for a, b in zip(r, e):
            _same(a, b)
    else:
        _same(r, e)


@pytest.mark.parametrize("k", range(len(_UNRAVEL)))
def test_unravel_index_checks(k):
    idx, shape = _UNRAVEL[k]
    _compare(lambda: onp.unravel_index(idx, shape), lambda: np.unravel_index(idx, shape))


@pytest.mark.parametrize("mode", ["raise", "clip", "wrap"])
@pytest.mark.parametrize("k", range(len(_RAVEL)))
def test_ravel_multi_index_checks(k, mode):
    idx, dims = _RAVEL[k]
    _compare(lambda: onp.ravel_multi_index(idx, dims, mode=mode),
             lambda: np.ravel_multi_index(idx, dims, mode=mode))


def test_unravel_index_messages():
    with pytest.raises(TypeError, match="unravel_index: indices must be integral: the "
                                        "provided empty sequence was inferred as float"):
        np.unravel_index([], (2, 2))
    with pytest.raises(TypeError, match="unravel_index: only int indices permitted"):
        np.unravel_index(0.5, (2, 2))
    with pytest.raises(ValueError, match="unravel_index: multiple indices are not supported "
                                         "for 0d arrays"):
        np.unravel_index([0], ())
    with pytest.raises(ValueError, match="ravel_multi_index: invalid dims"):
        np.ravel_multi_index(([0], [0]), (_HALF + 1, 2))
    with pytest.raises(ValueError, match="ravel_multi_index: cannot unravel if shape has "
                                         "zero entries"):
        np.ravel_multi_index(onp.zeros((3, 1), dtype=onp.intp), (2, 1, 0), mode="clip")


@pytest.mark.parametrize("args", [(range(0),), ([],), (onp.array([], onp.float32),),
                                  ([1, 2], onp.array([1.5]), [True, False, True])])
def test_ix_dtypes(args):
    e = onp.ix_(*args)
    r = np.ix_(*[np.asarray(a) if isinstance(a, onp.ndarray) else a for a in args])
    assert len(r) == len(e)
    for a, b in zip(r, e):
        _same(a, b)
    with pytest.raises(ValueError, match="ix_: Cross index must be 1 dimensional"):
        np.ix_([[1, 2]])


# -- vander: NumPy's sequential products -------------------------------------------
@pytest.mark.parametrize("x", [[1.0 + 1j, 1.0 - 1j], [0.1, 0.3, 1.7], [11, -12, 13],
                               [0.1 + 0.7j, -3.3 + 0.2j]])
@pytest.mark.parametrize("N", [None, 0, 1, 5])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander_is_exact(x, N, increasing):
    _same(np.vander(np.array(x), N, increasing), onp.vander(onp.array(x), N, increasing))


# -- set operations ------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [onp.int32, onp.int64])
def test_isin_table_range_overflow(dtype):
    a = onp.array([-1, 2, 3, 4, 5], dtype=dtype)
    b = onp.array([-1, onp.iinfo(dtype).max], dtype=dtype)
    with pytest.raises(RuntimeError, match="exceed the maximum integer"):
        onp.isin(a, b, kind="table")
    with pytest.raises(RuntimeError, match="isin: You have specified kind='table'"):
        np.isin(np.asarray(a), np.asarray(b), kind="table")
    for kind in (None, "sort"):
        _same(np.isin(np.asarray(a), np.asarray(b), kind=kind), onp.isin(a, b, kind=kind))


def test_host_data_arguments():
    _same(np.isin([None], np.array([1] * 10)), onp.isin([None], onp.array([1] * 10)))
    a = np.full((4, 3), None)
    assert a.dtype == object
    for mode in ("edge", "symmetric", "reflect", "wrap"):
        assert np.pad(a, ((2, 3), (3, 2)), mode=mode).shape == (9, 8)

    class Like:
        def __array__(self, dtype=None, copy=None):
            return np.arange(3)
    _same(np.asarray(Like()), onp.arange(3))
    _same(np.intersect1d(Like(), Like()), onp.arange(3))


# -- seeded random streams: NumPy's numbers given namedarray arguments -------------
def test_seeded_draws_take_namedarray_arguments():
    size = np.geomspace(10, 100, num=4).round().astype(int)[1]      # np.int64(22)
    _same(np.random.RandomState(3).normal(0, 2, size=size),
          onp.random.RandomState(3).normal(0, 2, size=22))
    _same(np.random.default_rng(1).normal(np.zeros(3), np.ones(3)),
          onp.random.default_rng(1).normal(onp.zeros(3), onp.ones(3)))
    x, h = np.arange(6), onp.arange(6)
    np.random.RandomState(0).shuffle(x)
    onp.random.RandomState(0).shuffle(h)
    _same(x, h)
    o = np.zeros(3)
    assert np.random.default_rng(0).standard_normal(out=o) is o
    _same(o, onp.random.default_rng(0).standard_normal(3))


# -- Python numbers JAX cannot hold: a Fraction q is NumPy's (DESIGN 6c) ------------
@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("dtype", [onp.int8, onp.int64, onp.float32, onp.float64])
@pytest.mark.parametrize("method", ["linear", "lower", "midpoint"])
def test_quantile_of_a_fraction_q_is_numpys(fn, dtype, method):
    from fractions import Fraction
    q = Fraction(1, 3) if "quantile" in fn else Fraction(100, 3)
    h = onp.arange(12, dtype=dtype).reshape(3, 4)
    answered = 0
    for a, qq, kw in [(h, q, {}), (h, q, {"axis": -1}), (h, q, {"axis": 0, "keepdims": True}),
                      (h, [q, q], {}), ([Fraction(i, 2) for i in range(8)], q, {}),
                      ([Fraction(i, 2) for i in range(8)], [[q]], {})]:
        try:        # (NumPy's own algorithm refuses some: the same error here)
            want = getattr(onp, fn)(a, qq, method=method, **kw)
        except (TypeError, AttributeError) as e:
            with pytest.raises(type(e)):
                getattr(np, fn)(np.asarray(a) if a is h else a, qq, method=method, **kw)
            continue
        got = getattr(np, fn)(np.asarray(a) if a is h else a, qq, method=method, **kw)
        assert type(got) is type(want), (got, want)
        assert onp.shape(got) == onp.shape(want) and onp.array_equal(got, want), (got, want)
        answered += 1
    assert answered >= 2


def test_quantile_of_named_data_refuses_a_fraction_q():
    from fractions import Fraction
    with pytest.raises(TypeError, match="quantile: q must be real numbers"):
        np.quantile(np.arange(8.0).tag("b"), Fraction(1, 2), axis="b")


# -- apply_along_axis: a NumPy subclass result (np.ma) keeps its class, as NumPy's -----
_MA_FUNCS = {
    "to2d": lambda m: lambda x: m.ma.masked_where((x[::-1] * x[1:, None]) % 5 == 0,
                                                   x[::-1] * x[1:, None]),
    "same": lambda m: lambda x: m.ma.masked_where(x % 3 == 0, x * 2),
    "scalar": lambda m: lambda x: m.ma.masked_array(x.sum(), mask=x.sum() > 20),
}


@pytest.mark.parametrize("name", sorted(_MA_FUNCS))
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [onp.int64, onp.float32])
def test_apply_along_axis_keeps_a_masked_result(name, axis, dtype):
    h = onp.arange(24, dtype=dtype).reshape(4, 6)
    want = onp.apply_along_axis(_MA_FUNCS[name](onp), axis, h)
    got = np.apply_along_axis(_MA_FUNCS[name](np), axis, np.asarray(h))
    assert type(got) is type(want) is onp.ma.MaskedArray
    assert got.dtype == want.dtype and got.shape == want.shape
    onp.testing.assert_array_equal(got.mask, want.mask)
    onp.testing.assert_array_equal(got.data, want.data)
    # a plain result stays a NamedArray
    assert isinstance(np.apply_along_axis(lambda x: x * 2, axis, np.asarray(h)), np.NamedArray)


# -- a list mixing arrays with values JAX cannot hold is NumPy's array (DESIGN 6c) -----
_MIXED = [lambda m, b: [b, None], lambda m, b: [[b, None]], lambda m, b: [b, "a"],
          lambda m, b: [b, 2**70], lambda m, b: [m.arange(2), [None, 1]],
          lambda m, b: (b, b"x")]


@pytest.mark.parametrize("fn", ["array", "asarray", "asanyarray", "ascontiguousarray"])
@pytest.mark.parametrize("k", range(len(_MIXED)))
def test_a_list_of_arrays_and_host_values_is_numpys(fn, k):
    from fractions import Fraction
    for b0 in (0, 1.5, Fraction(1, 2)):
        try:
            want = getattr(onp, fn)(_MIXED[k](onp, onp.array(b0)))
        except Exception as e:      # (NumPy's error, the same here)
            with pytest.raises(type(e)):
                getattr(np, fn)(_MIXED[k](np, np.array(b0)))
            continue
        got = getattr(np, fn)(_MIXED[k](np, np.array(b0)))
        assert type(got) is onp.ndarray and got.dtype == want.dtype, (got, want)
        assert got.shape == want.shape and str(got) == str(want)

"""NumPy idioms of real programs, against NumPy: index tricks (``mgrid``,
``ogrid``, ``r_``, ``c_``, ``s_``, ``index_exp``), whole-array truth as Python
bools, scalars from full reductions, ``True_``/``False_``."""
import warnings

import jax
import numpy as onp
import pytest

import namedarray as np
from support import traced_lacks

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


VIEW_SOURCES = [onp.arange(12, dtype=onp.int32).reshape(3, 4) - 5,
                onp.linspace(-2, 2, 8).reshape(2, 4),
                (onp.arange(4) + 1j * onp.arange(4)).astype(onp.complex64),
                onp.array([True, False, True, True]), onp.float64(1.5)]


@pytest.mark.parametrize("k", range(len(VIEW_SOURCES)))
@pytest.mark.parametrize("dt", ["uint32", "float32", "int8", "int64", "uint16", "bool",
                                "complex64", "complex128", "float16"])
def test_view_reinterprets_bits_as_numpy(k, dt):
    a = onp.asarray(VIEW_SOURCES[k])
    try:
        want = a.view(dt)
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e), match="view: "):
            np.asarray(a).view(dt)
        return
    got = np.asarray(a).view(dt)
    assert got.dtype == want.dtype and got.shape == want.shape
    onp.testing.assert_array_equal(onp.asarray(got), want)
    if want.dtype == a.dtype:
        return
    if want.dtype.kind not in "iu":
        with pytest.raises(ValueError, match=r"assignment destination is read-only: this "
                                             r"array is the result of view\("):
            got[...] = 0
        assert not got.flags.writeable
        return
    # a write into an integer view stores its bits into the base, as NumPy's
    # shared memory does
    x, e = np.asarray(a), a.copy()
    v, ev = x.view(dt), e.view(dt)
    part = (Ellipsis, slice(0, 1)) if want.ndim else Ellipsis
    v[part] = want[..., -1:] if want.ndim else want
    ev[part] = want[..., -1:] if want.ndim else want
    assert v.flags.writeable
    for mine, numpys in ((x, e), (v, ev)):
        onp.testing.assert_array_equal(onp.asarray(mine).reshape(-1).view(onp.uint8),
                                       numpys.reshape(-1).view(onp.uint8))


def test_view_keeps_names_and_type_argument():
    a = onp.arange(6, dtype=onp.int32).reshape(2, 3)
    x = np.asarray(a).tag("i", None)
    onp.testing.assert_array_equal(x.view(np.uint8).untag("i"), a.view(onp.uint8))
    v = np.asarray(a).view(np.ndarray)
    assert isinstance(v, np.NamedArray) and v.dtype == a.dtype
    with pytest.raises(TypeError, match=r"view: string dtype <U1 is not supported"):
        np.asarray(a).view("U1")


@pytest.mark.parametrize("shape, window, axis", [
    ((5,), 3, None), ((2, 3), 2, 1), ((2, 3), (2, 2), None), ((4, 5), (2, 3), (1, 0)),
    ((4,), 4, None), ((4,), 0, None), ((3, 4), (2, 2), (1, 1)), ((0, 3), 2, 1),
])
def test_sliding_window_view_matches_numpy(shape, window, axis):
    a = onp.arange(int(onp.prod(shape)), dtype=float).reshape(shape)
    want = onp.lib.stride_tricks.sliding_window_view(a, window, axis=axis)
    got = np.lib.stride_tricks.sliding_window_view(np.asarray(a), window, axis=axis)
    assert got.shape == want.shape
    onp.testing.assert_array_equal(onp.asarray(got), want)
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        got[...] = 1


def test_sliding_window_view_names_errors_and_jit():
    a = onp.arange(12.0).reshape(3, 4)
    x = np.asarray(a).tag("b", None)
    got = np.lib.stride_tricks.sliding_window_view(x, 2)
    assert got.named_shape == {"b": 3}
    onp.testing.assert_array_equal(got.untag("b"),
                                   onp.lib.stride_tricks.sliding_window_view(a, 2, axis=1))
    f = jax.jit(lambda v: np.lib.stride_tricks.sliding_window_view(v, 3).sum(axis=-1))
    onp.testing.assert_array_equal(f(np.arange(5.0)), [3.0, 6.0, 9.0])
    for bad, err in [(dict(window_shape=5), "window shape cannot be larger"),
                     (dict(window_shape=-1), "cannot contain negative values"),
                     (dict(window_shape=(2, 2)), "must provide window_shape for all")]:
        with pytest.raises(ValueError, match=err):
            np.lib.stride_tricks.sliding_window_view(np.arange(4), **bad)
    with pytest.raises(ValueError, match="writeable=True"):
        np.lib.stride_tricks.sliding_window_view(np.arange(4), 2, writeable=True)


@pytest.mark.parametrize("shape, strides", [
    ((3, 2), (8, 8)), ((2, 2), (16, 8)), ((4,), (0,)), ((2, 3), (8, 16)), (None, None),
    ((0, 3), (8, 8)),
])
def test_as_strided_matches_numpy(shape, strides):
    a = onp.arange(6, dtype=onp.int64)
    want = onp.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)
    got = np.lib.stride_tricks.as_strided(np.asarray(a), shape=shape, strides=strides)
    assert got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(onp.asarray(got), want)
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        got[...] = 1


def test_as_strided_errors():
    x = np.arange(6)
    with pytest.raises(ValueError, match=r"as_strided: shape \(4,\) with strides \(16,\) "
                                         r"reaches element 6 of an array of 6 elements"):
        np.lib.stride_tricks.as_strided(x, shape=(4,), strides=(16,))
    with pytest.raises(ValueError, match="not multiples of the itemsize"):
        np.lib.stride_tricks.as_strided(x, shape=(2,), strides=(4,))
    with pytest.raises(TypeError, match="untag them first"):
        np.lib.stride_tricks.as_strided(x.tag("i"))


EMATH = [("sqrt", [4.0, -1.0, 0.0]), ("sqrt", [4, 9]), ("sqrt", -1), ("log", [-1.0, 1.0]),
         ("log2", [-8, 8]), ("log10", [100.0]), ("log10", [-100.0]),
         ("arccos", [2.0, 0.5]), ("arcsin", [-2, 0]), ("arctanh", [0.5, 2.0]),
         ("sqrt", onp.array([-1.0], onp.float32)), ("sqrt", onp.array([-4], onp.int16)),
         ("sqrt", onp.array([-1 + 0j]))]


@pytest.mark.parametrize("fn, a", EMATH)
def test_emath_matches_numpy(fn, a):
    want = getattr(onp.emath, fn)(a)
    got = getattr(np.emath, fn)(a)
    assert onp.asarray(got).dtype == onp.asarray(want).dtype
    onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-6)


def test_emath_logn_power_and_tracing():
    for got, want in [(np.emath.logn(2, [4, 8, -2]), onp.emath.logn(2, [4, 8, -2])),
                      (np.emath.power([2, 4], -1), onp.emath.power([2, 4], -1)),
                      (np.emath.power([-4, 4], 0.5), onp.emath.power([-4, 4], 0.5)),
                      (np.emath.power([-2, 3], 2), onp.emath.power([-2, 3], 2))]:
        assert got.dtype == want.dtype
        onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-12, atol=1e-15)
    assert np.lib.scimath is np.emath
    with pytest.raises(TypeError, match=r"emath.sqrt: whether the result is complex depends "
                                        r"on the values"):
        jax.jit(np.emath.sqrt)(np.arange(3.0))
    if traced_lacks("any", onp.complex128):     # (a TPU: the capability table's error)
        with pytest.raises(TypeError, match="^sqrt: TPU's XLA backend has no implementation"):
            jax.jit(np.emath.sqrt)(np.asarray([-4 + 0j]))
        return
    r = jax.jit(np.emath.sqrt)(np.asarray([-4 + 0j]))
    onp.testing.assert_allclose(onp.asarray(r), [2j])


_REC = [("a", "i4"), ("b", "f8")]
# data JAX cannot hold is NumPy's own ndarray (#24): NumPy's result, NumPy's type
HOST_DATA = [
    lambda m: m.zeros(3, dtype="U5"),
    lambda m: m.zeros(3, dtype=_REC),
    lambda m: m.ones(2, dtype="M8[D]"),
    lambda m: m.empty(2, dtype=object),
    lambda m: m.full(3, "a"),
    lambda m: m.full(3, 1, dtype="S2"),
    lambda m: m.array(["a", "b"]),
    lambda m: m.array([(1, 2.0)], dtype=_REC),
    lambda m: m.asarray(onp.zeros(2, dtype=_REC)),
    lambda m: m.array(onp.datetime64("2020")),
    lambda m: m.array([None]),
    lambda m: m.array([[1], [1, 2]], dtype=object),
    lambda m: m.arange("2020-01", "2020-03", dtype="datetime64[D]"),
    lambda m: m.astype(m.ones(2), _REC),
    lambda m: m.zeros_like(m.ones(2), dtype="U3"),
    lambda m: m.empty_like(m.ones(2), dtype="m8[s]").shape,
    lambda m: m.linspace(0, 1, 3, dtype="U3"),
    lambda m: m.eye(2, dtype="U2"),
    lambda m: m.frombuffer(b"ab", dtype="S1"),
    lambda m: m.fromiter(iter(["a"]), dtype="U1"),
    lambda m: m.concatenate([m.array([1, None]), m.arange(2)]),
    lambda m: m.where(m.array([True, False]), m.array(["a", "b"]), "c"),
    lambda m: m.sort(m.array(["b", "a", "c"])),
    lambda m: m.unique(m.array(["b", "a", "b"])),
    lambda m: m.diff(m.array(["2020-01-01", "2020-03-01"], dtype="M8[D]")),
    lambda m: m.datetime64("2020-01-01") + m.arange(3),
    lambda m: m.arange(2) * m.array([1, 2.5], dtype=object),
    lambda m: m.add.reduce(m.array([1, 2], dtype=object)),
    lambda m: m.add.outer(m.array(["a"], dtype=object), m.array(["b", "c"], dtype=object)),
    lambda m: m.isnat(m.array(["NaT", "2020"], dtype="M8[D]")),
    lambda m: m.busday_count("2020-01-01", "2020-02-01"),
    lambda m: m.is_busday(m.array(["2020-01-04", "2020-01-06"], dtype="M8[D]")),
    lambda m: m.busday_offset("2020-01-03", 1),
    lambda m: m.datetime_as_string(m.array(["2020-01-01"], dtype="M8[D]")),
]


@pytest.mark.parametrize("make", HOST_DATA)
def test_data_jax_cannot_hold_is_numpys(make):
    want, got = make(onp), make(np)
    assert type(got) is type(want)
    if isinstance(want, onp.ndarray):
        assert got.dtype == want.dtype
    onp.testing.assert_array_equal(got, want)


def test_mixing_host_and_device_data_raises_numpys_error():
    with pytest.raises(TypeError) as want:
        onp.array(["a"]) + onp.arange(2)
    with pytest.raises(TypeError) as got:
        np.array(["a"]) + np.arange(2)
    assert str(got.value) == str(want.value)


def test_a_device_array_cannot_be_viewed_as_host_data():
    with pytest.raises(TypeError, match=r"^view: string dtype <U1.* is not supported: "
                                        r"namedarray arrays hold bool, numeric and ML"):
        np.arange(2).view("U1")


def test_ml_dtypes_are_held():
    import ml_dtypes
    for dt in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.int4):
        assert np.zeros(2, dtype=dt).dtype == dt
        assert np.asarray(onp.ones(2, dtype=dt)).dtype == dt
        assert np.ones(2).astype(dt).dtype == dt


def test_predicates_align_by_name():
    u = np.arange(6.0).reshape(2, 3).tag("b", "f")
    assert np.allclose(u, u.untag("f", "b").tag("f", "b")) is True
    assert np.array_equal(u, np.arange(3.0).tag("f")) is False


# NumPy's classes over numeric data (matrix, ma.MaskedArray) are NumPy's: every
# function, ufunc and operator given one answers as NumPy's; the polynomial
# functions given a poly1d return one (#24)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    _M = onp.matrix("1 2; 3 4")
_MA = onp.ma.masked_less(onp.arange(4.0), 2)
HOST_CLASSES = [
    lambda m: m.asmatrix("1 2; 3 4"),
    lambda m: m.bmat([[_M, _M], [_M, _M]]),
    lambda m: m.bmat(m.arange(4).reshape(2, 2)),
    lambda m: m.array(_M, subok=True),
    lambda m: m.asanyarray(_M),
    lambda m: m.asarray(_M),
    lambda m: m.array(_MA),
    lambda m: m.copy(_M),
    lambda m: m.arange(4).reshape(2, 2) * _M,
    lambda m: _M * m.arange(4).reshape(2, 2),
    lambda m: _M ** 2 - m.ones((2, 2)),
    lambda m: m.ones((2, 2)) @ _M,
    lambda m: _M @ m.ones((2, 2)),
    lambda m: m.multiply(_M, m.arange(4).reshape(2, 2)),
    lambda m: m.dot(m.arange(4).reshape(2, 2), _M),
    lambda m: m.sum(_M, axis=0),
    lambda m: m.linalg.inv(_M),
    lambda m: m.concatenate([_MA, m.arange(2.0)]),
    lambda m: m.arange(4.0) + _MA,
    lambda m: m.ma.masked_less(m.arange(4), 2),
    lambda m: m.ma.concatenate([_MA, m.arange(2.0)]),
    lambda m: m.polyval([3, 0, 1], m.poly1d(5)),
    lambda m: m.polyadd(m.poly1d([1, 2]), m.arange(2)),
    lambda m: m.array([[1, 2], [3, 4]], dtype=object, ndmax=1),
    lambda m: m.array([[1, 2], [3, 4]], ndmax=2),
    lambda m: m.linalg.outer(m.array(["a", "b"], dtype=object), [1, 2]),
]


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("make", HOST_CLASSES)
def test_numpy_s_classes_are_answered_by_numpy(make):
    want, got = make(onp), make(np)
    if type(want) is onp.ndarray and want.dtype.kind != "O":
        assert type(got) is np.NamedArray          # a plain array: the device's
    else:
        assert type(got) is type(want)
    assert onp.asarray(got).dtype == onp.asarray(want).dtype
    onp.testing.assert_array_equal(onp.asarray(got), onp.asarray(want))
    if isinstance(want, onp.ma.MaskedArray):
        onp.testing.assert_array_equal(got.mask, want.mask)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_bmat_names_blocks_in_the_callers_variables():
    A, B = onp.asmatrix("1 1; 1 1"), np.eye(2)     # noqa: F841 (named in the string)
    onp.testing.assert_array_equal(np.bmat("A,B; B,A"), onp.bmat("A,B; B,A"))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_asmatrix_of_a_device_array_raises():
    # NumPy's matrix would be a view: a later write to the array would not show
    with pytest.raises(TypeError, match=r"^asmatrix: data is a NamedArray, which NumPy's "
                                        r"matrix cannot view .*np.matrix\(data\) makes a copy"):
        np.asmatrix(np.eye(2))
    assert type(np.matrix(np.eye(2))) is onp.matrix


def test_numpy_arrays_matmul_device_arrays():
    a, b = onp.arange(4.0).reshape(2, 2), np.arange(4.0).reshape(2, 2)
    got = a @ b
    assert type(got) is np.NamedArray
    onp.testing.assert_array_equal(onp.asarray(got), a @ a)


@pytest.mark.parametrize("mod", ["char", "strings", "rec"])
def test_string_and_record_modules_are_numpy_s(mod):
    """np.char, np.strings, np.rec have NumPy's names: NumPy's own functions
    (NamedArray arguments given as NumPy arrays) and NumPy's classes."""
    ours, theirs = getattr(np, mod), getattr(onp, mod)
    names = set(getattr(theirs, "__all__", None) or
                [n for n in dir(theirs) if not n.startswith("_")])
    assert names and set(dir(ours)) == names
    for n in names:
        if isinstance(getattr(theirs, n), type):
            assert getattr(ours, n) is getattr(theirs, n)


@pytest.mark.parametrize("call", [
    lambda m: m.char.upper(m.array(["ab", "c"])),
    lambda m: m.char.add(["a", "b"], ["x", "y"]),
    lambda m: m.char.str_len(m.array(["ab", "c"])),
    lambda m: m.strings.find(m.array(["abc", "cab"]), "b"),
    lambda m: m.strings.multiply(m.array(["ab"]), m.arange(3)),
    lambda m: m.char.center(m.array(["a"]), 5, "*"),
    lambda m: m.rec.fromarrays([m.arange(2), m.array(["a", "b"])], names="n,s").n,
])
def test_string_and_record_modules_answer_as_numpy(call):
    got, want = call(np), call(onp)
    assert type(got) is type(want) and got.dtype == want.dtype
    onp.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call", [
    lambda m: m.nancumsum(1), lambda m: m.nancumprod([1, m.nan, 2.5]),
    lambda m: m.real(1 + 1j), lambda m: m.imag(1 + 1j), lambda m: m.real(5),
    lambda m: m.cov([1, 2, 3.5]), lambda m: m.corrcoef([1, 2, 3.5], [2, 1, 0]),
    lambda m: m.cross([1, 2], [4, 5]),
    lambda m: m.piecewise(m.array(-2), [m.array(-2) < 0, m.array(-2) >= 0],
                          [lambda x: -x, lambda x: x]),
    lambda m: m.linalg.matrix_rank(m.ones((4,))), lambda m: m.linalg.matrix_rank(m.zeros(4)),
    lambda m: m.array([1, 2, 2.5])[:2].astype(int, casting="same_value"),
    lambda m: m.array([0.5, m.nan]).astype(m.float32, casting="same_value"),
])
def test_results_print_as_numpy_s(call):
    """Python numbers, 0-d arrays and scalars where NumPy gives each."""
    got, want = call(np), call(onp)
    assert repr(got) == repr(want) and type(got).__name__ in (type(want).__name__, "NamedArray")


@pytest.mark.parametrize("v, dt, msg", [
    ([1, 2, 2.5], int, "double to long"), ([300], onp.uint8, "long to ubyte"),
    ([1e300], onp.float32, "double to float"), ([onp.nan], int, "double to long"),
    ([1 + 1j], float, "cdouble to double")])
def test_same_value_casting_raises_numpy_s_error(v, dt, msg):
    e = onp.array(v)
    with pytest.raises(ValueError, match=f"could not cast 'same_value' {msg}"):
        e.astype(dt, casting="same_value")
    with pytest.raises(ValueError, match=f"could not cast 'same_value' {msg}"):
        np.array(v).astype(dt, casting="same_value")
    with pytest.raises(ValueError, match="astype: casting='same_value' checks the values"):
        jax.jit(lambda x: x.astype(dt, casting="same_value"))(np.array(v))


def test_ufunc_aliases_are_one_object_and_flags_are_numpy_s():
    for a, b in (("conj", "conjugate"), ("bitwise_not", "invert"), ("abs", "absolute"),
                 ("pow", "power"), ("bitwise_invert", "invert")):
        assert getattr(np, a) is getattr(np, b) and getattr(np, a).__name__ == getattr(onp, a).__name__
    for shape in [(2, 3), (3,), (1, 4), (0, 2), ()]:
        x, e = np.zeros(shape), onp.zeros(shape)
        assert str(x.flags) == str(e.flags), shape
        v, ev = np.arange(6).reshape(2, 3), onp.arange(6).reshape(2, 3)
        assert str(v.flags) == str(ev.flags)


@pytest.mark.parametrize("call", [
    lambda m: m.trim_zeros([0, 1, 2, 0]), lambda m: m.trim_zeros((0, 1.5, 0), "f"),
    lambda m: m.trim_zeros([0, 0]), lambda m: m.real(True), lambda m: m.imag(True),
    lambda m: m.real(False),
])
def test_python_sequences_and_bools_give_numpy_s_python_values(call):
    got, want = call(np), call(onp)
    assert type(got) is type(want) and got == want, (got, want)


def test_atleast_nd_gives_back_an_array_that_has_the_dimensions():
    x, y, s = np.asarray([1.0, 2.0]), np.ones((2, 2)), np.asarray(3.0)
    assert np.atleast_1d(x) is x and np.atleast_2d(y) is y and np.atleast_3d(y) is not y
    a, b = np.atleast_1d(x, s)
    assert a is x and b.shape == (1,) and float(b[0]) == 3.0
    assert np.atleast_2d(x).shape == (1, 2) and np.atleast_3d(y).shape == (2, 2, 1)


@pytest.mark.parametrize("mode, order", [(("clip", "wrap"), "C"), (("wrap", "clip"), "F"),
                                         (["wrap", "raise"], "C")])
def test_ravel_multi_index_takes_a_mode_per_dimension(mode, order):
    idx = onp.array([[3, 6, 6], [4, 5, 1]])
    want = onp.ravel_multi_index(idx, (7, 6) if "raise" in mode else (4, 6), mode=mode,
                                 order=order)
    got = np.ravel_multi_index(np.asarray(idx), (7, 6) if "raise" in mode else (4, 6),
                               mode=mode, order=order)
    assert got.dtype == want.dtype
    onp.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"ravel_multi_index: mode=\('clip',\) must give "
                       r"one of 'raise', 'wrap', 'clip' for each of the 2 dimensions"):
        np.ravel_multi_index(idx, (4, 6), mode=("clip",))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        np.ravel_multi_index(idx, (4, 6), mode=("raise", "wrap"))


def test_a_0d_array_is_not_iterable_as_numpy_s():
    # iter() itself raises, so numpy.iterable (and matplotlib) see a scalar
    for m in (np, onp):
        s, v = m.sum(m.ones(3)), m.asarray(2.0)
        assert not onp.iterable(s) and not onp.iterable(v) and onp.iterable(m.ones(2))
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(v)
    assert [float(e) for e in np.arange(3.0)] == [0.0, 1.0, 2.0]


def test_nested_iters_is_numpy_s():
    def walk(m):
        i, j = m.nested_iters(m.arange(12).reshape(2, 3, 2), [[1], [0, 2]],
                              flags=["multi_index"])
        return [(i.multi_index, j.multi_index, int(y)) for _ in i for y in j]
    assert walk(np) == walk(onp)
    # a device array is read on the host: a write flag is refused, never lost
    with pytest.raises(ValueError, match="write flag set is read-only"):
        np.nested_iters(np.arange(4).reshape(2, 2), [[0], [1]], op_flags=["readwrite"])


def test_ndarray_is_the_array_type_and_numpy_s_constructor():
    x = np.ndarray((2, 3), np.int32)
    assert x.shape == (2, 3) and x.dtype == onp.int32 and isinstance(x, np.ndarray)
    assert isinstance(np.arange(3)[1:], np.ndarray) and not isinstance([1], np.ndarray)
    assert np.ndarray((2,), order="F").flags.f_contiguous
    # over an immutable buffer: a read-only copy (NumPy's array over bytes is
    # read-only too); a writable one would be shared, which a device array cannot
    assert np.ndarray((2,), buffer=b"\0" * 16).tolist() == [0.0, 0.0]
    with pytest.raises(TypeError, match=r"ndarray: buffer= of a writable buffer is not "
                       r"supported"):
        np.ndarray((2,), buffer=bytearray(16))


def test_ndarray_subclass_check_is_the_array_type_s():
    assert issubclass(type(np.arange(3)[1:]), np.ndarray) and not issubclass(int, np.ndarray)


def test_a_subclass_of_ndarray_is_refused_not_dropped():
    # NumPy keeps the subclass through operations; namedarray cannot, so making
    # one raises instead of returning a plain array that lost its methods
    class Quantity(np.ndarray):
        def unit(self):
            return "m"
    msg = (r"is a subclass of np.ndarray; namedarray does not keep subclasses \(every "
           r"result is a NamedArray")
    with pytest.raises(TypeError, match=r"view: type=Quantity " + msg):
        np.arange(3.0).view(Quantity)
    with pytest.raises(TypeError, match=r"Quantity: class Quantity " + msg):
        Quantity((2,))
    # np.ndarray itself, NamedArray and the package's own kinds stay valid view types
    x = np.arange(3)
    assert x.view(np.ndarray).tolist() == [0, 1, 2]
    assert x.view(type=np.NamedArray).tolist() == [0, 1, 2]
    assert x.view(type(x[1:])).tolist() == [0, 1, 2]
    # no array is an instance of the subclass (np.ndarray's own check is wider)
    assert not isinstance(x, Quantity) and not issubclass(type(x), Quantity)
    assert isinstance(x, np.ndarray) and issubclass(Quantity, np.ndarray)


def test_numpys_c_functions_stay_functions_as_class_attributes():
    # `array = np.array` in a class body (NumPy's tests do it): NumPy's C
    # functions do not bind as methods, and neither do namedarray's
    import types

    names = [n for n in dir(onp) if not n.startswith("_") and hasattr(np, n) and
             isinstance(getattr(onp, n), (types.BuiltinFunctionType, onp.ufunc))]
    assert {"array", "asarray", "zeros", "empty", "arange", "matmul", "add"} <= set(names)

    class Holder:
        array, zeros, arange = np.array, np.zeros, np.arange

    h = Holder()
    a = h.array([[1, 2]], dtype=np.float32)
    assert a.dtype == np.float32 and a.shape == (1, 2)
    assert h.zeros(3).tolist() == [0.0] * 3 and h.arange(2, dtype=int).tolist() == [0, 1]
    every = type("Every", (), {n: getattr(np, n) for n in names})()
    assert [n for n in names if isinstance(getattr(every, n), types.MethodType)] == []
    # still functions to JAX, pickle and inspect
    import inspect
    import pickle
    assert jax.jit(np.zeros, static_argnums=0)(3).tolist() == [0.0] * 3
    assert pickle.loads(pickle.dumps(np.array)) is np.array
    assert list(inspect.signature(np.zeros).parameters)[:2] == ["shape", "dtype"]


class _NumPysArrayLike:
    """Another library's array_like (a pandas ``Series``, a user's class):
    ``__array__`` gives NumPy's array."""

    def __init__(self, v):
        self.v = v

    def __array__(self, dtype=None, copy=None):
        return onp.asarray(self.v, dtype=dtype)


class _NamedArrayLike(_NumPysArrayLike):
    """A class written for ``import namedarray as np``: ``__array__`` gives
    ``np.asarray(...)``, a NamedArray."""

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.v, dtype=dtype)


#: functions that read files, print, or need arguments of another kind
_NOT_ONE_ARRAY = {"save", "savez", "savez_compressed", "savetxt", "load", "loadtxt",
                  "genfromtxt", "fromfile", "fromregex", "info", "show_config",
                  "show_runtime", "get_include", "setbufsize", "seterr", "seterrcall",
                  "memmap", "frompyfunc", "vectorize", "printoptions", "set_printoptions",
                  "piecewise", "apply_along_axis", "apply_over_axes", "fromfunction", "test",
                  "from_dlpack"}


@pytest.mark.parametrize("cls", [_NumPysArrayLike, _NamedArrayLike])
def test_another_librarys_array_like_is_read_as_an_array_everywhere(cls):
    """Every public function reads an object with ``__array__`` as NumPy does,
    as its array (``flip``, ``zeros_like``, ``stack`` of them); where NumPy
    takes it as the object it is (``iterable``, ``result_type``) or would
    write into it (``copyto``, ``out=``), it is not converted."""
    from namedarray.namespace import NAMESPACE
    warnings.simplefilter("ignore")
    wrong = []
    for name, f in sorted(NAMESPACE.items()):
        if not callable(f) or isinstance(f, type) or name in _NOT_ONE_ARRAY:
            continue
        v = [0, 1, 1, 3] if name == "bincount" else [[0, 1, 1], [2, 0, 1]]
        try:
            want = f(np.asarray(v))
        except Exception:       # noqa: BLE001 -- needs other arguments
            continue
        try:
            got = f(cls(v))
        except Exception as e:      # noqa: BLE001 -- NumPy's own error is right
            try:
                getattr(onp, name)(_NumPysArrayLike(v))
            except type(e):
                continue
            except Exception:       # noqa: BLE001
                pass
            wrong.append((name, repr(e)[:100]))
            continue
        if name in ("iterable", "bmat"):        # (the object itself: NumPy's answer)
            want = getattr(onp, name)(_NumPysArrayLike(v))
        if repr(got) != repr(want):
            wrong.append((name, repr(got)[:60], repr(want)[:60]))
    assert not wrong
    stacked = np.stack([cls([1, 2]), cls([3, 4])])
    assert stacked.tolist() == [[1, 2], [3, 4]]
    assert np.fft.fft(cls([1.0, 2.0])).tolist() == [3, -1]
    assert float(np.linalg.det(cls([[2.0, 1.0], [1.0, 3.0]]))) == pytest.approx(5.0)
    out = np.zeros(3)
    np.clip(cls([1.0, 5.0, -2.0]), 0, 2, out=out)
    assert out.tolist() == [1, 2, 0]
    with pytest.raises(TypeError, match="^copyto: dst must be a NamedArray"):
        np.copyto(cls([0.0, 0.0]), np.ones(2))
    with pytest.raises(TypeError, match="^clip: return arrays must be of ArrayType .out= got "):
        np.clip(np.ones(3), 0, 2, cls([0.0, 0.0, 0.0]))

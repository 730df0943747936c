"""NumPy's rules for the core families, each over the family rather than one
case (NumPy is the oracle): per-axis arguments of ``pad``, casting and
``out=`` of the joining functions and the ufuncs, memory orders, index
normalization, einsum's views and paths, ``isclose``'s scalar rules, the
floating-point error state on empty results, exact ``log2``."""
import warnings

import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np


def _same(r, e):
    r, e = onp.asarray(r), onp.asarray(e)
    assert r.dtype == e.dtype and r.shape == e.shape, (r, e)
    onp.testing.assert_array_equal(r, e)


# -- pad: every per-axis argument read as NumPy reads it ----------------------
_WIDTHS = [2, (1,), (1, 2), [[1, 2]], [[1], [2]], ((1,), (2,)), [[1, 0], [2, 3]],
           onp.array([[1], [3]])]


@pytest.mark.parametrize("width", _WIDTHS)
@pytest.mark.parametrize("mode", ["constant", "edge", "linear_ramp", "maximum", "mean",
                                  "median", "minimum", "reflect", "symmetric", "wrap"])
def test_pad_width_forms(width, mode):
    x = onp.arange(12.0).reshape(3, 4)
    _same(np.pad(np.asarray(x), width, mode), onp.pad(x, width, mode))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["constant_values", "end_values", "stat_length"]),
       st.sampled_from([3, (1, 2), [[1], [2]], [[1, 2], [3, 1]], ((2,), (1,))]),
       st.sampled_from([onp.int64, onp.float64]))
def test_pad_value_forms(key, value, dtype):
    mode = {"constant_values": "constant", "end_values": "linear_ramp",
            "stat_length": "mean"}[key]
    x = onp.arange(12, dtype=dtype).reshape(3, 4) * 3
    _same(np.pad(np.asarray(x), ((1, 2), (2, 1)), mode, **{key: value}),
          onp.pad(x, ((1, 2), (2, 1)), mode, **{key: value}))


@pytest.mark.parametrize("width, match", [
    ((1, 2, 3, 4), "operands could not be broadcast together"),
    (((1,), (2,), (3,)), "operands could not be broadcast together"),
    ([[[1], [2]], [[1], [2]], [[1], [2]]], "more dimensions than allowed")])
@pytest.mark.parametrize("mode", ["constant", "edge", "linear_ramp"])
def test_pad_misshaped_width(width, match, mode):
    with pytest.raises(ValueError, match=r"^pad: .*" + match):
        np.pad(np.ones((2, 2)), width, mode)


@pytest.mark.parametrize("mode", ["mean", "median", "minimum", "maximum"])
@pytest.mark.parametrize("length", [-2, (3, -1), ((5, 2), (-2, 3))])
def test_pad_negative_stat_length(mode, length):
    with pytest.raises(ValueError, match="^pad: index can't contain negative values"):
        np.pad(np.arange(30).reshape(6, 5), 2, mode, stat_length=length)


@pytest.mark.parametrize("mode", ["mean", "median"])
@pytest.mark.parametrize("length", [0, (1, 0), ((0, 2), (1, 0))])
def test_pad_zero_stat_length_is_nan(mode, length):
    x = onp.arange(12.0).reshape(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        e = onp.pad(x, ((1, 2), (2, 1)), mode, stat_length=length)
    _same(np.pad(np.asarray(x), ((1, 2), (2, 1)), mode, stat_length=length), e)


@pytest.mark.parametrize("mode", ["minimum", "maximum"])
def test_pad_zero_stat_length_of_extremes_raises(mode):
    with pytest.raises(ValueError, match="^pad: stat_length of 0 yields no value"):
        np.pad(np.asarray([1.0, 2.0]), 1, mode, stat_length=(1, 0))


@pytest.mark.parametrize("mode", [1, None, True, object()])
def test_pad_mode_not_a_string(mode):
    with pytest.raises(ValueError, match=f"^pad: mode '{mode}' is not supported"):
        np.pad(np.arange(3), 1, mode=mode)


def test_pad_uint64_constant_and_memory_order():
    a = np.full(5, 2**64 - 1, dtype=np.uint64)
    _same(np.pad(a, 1, constant_values=a.min()), onp.full(7, 2**64 - 1, onp.uint64))
    for mode in ("constant", "edge", "mean"):
        assert np.pad(np.ones((5, 10), order="F"), 2, mode).flags.f_contiguous
        assert np.pad(np.ones((5, 10)), 2, mode).flags.c_contiguous


# -- numpy.lib.* functions given our arrays dispatch here -----------------------
def test_numpy_lib_functions_dispatch():
    x = np.arange(5)
    _same(onp.lib.stride_tricks.sliding_window_view(x, 3),
          onp.lib.stride_tricks.sliding_window_view(onp.arange(5), 3))
    _same(onp.lib.scimath.sqrt(np.asarray([-4.0])), onp.lib.scimath.sqrt([-4.0]))


def test_broadcast_to_negative_shape():
    for shape in (-1, (-1,), (-1, 2)):
        with pytest.raises(ValueError, match="^broadcast_to: all elements of broadcast "
                                             "shape must be non-negative"):
            np.broadcast_to(np.zeros(1), shape)


def test_broadcast_to_beyond_the_machines_memory_is_a_memory_error():
    """NumPy's broadcast_to is a view; namedarray's result owns its memory:
    one larger than the machine is NumPy's MemoryError before anything is
    allocated (where the system lets a huge allocation through, filling it
    exhausted the machine: NumPy's ``test_integer_split_2D_rows_greater_max_int32``)."""
    for data in ([0], np.asarray(jnp.zeros(1, "float32"))):     # (a list, device data)
        with pytest.raises(MemoryError, match=r"^broadcast_to: Unable to allocate [0-9.e+]+ "
                                              r"GiB for an array with shape \(1099511627776, "
                                              r"2\) and data type (int64|float32): more than "
                                              r"this machine's .* GiB \(NumPy's broadcast_to "
                                              r"is a view"):
            np.broadcast_to(data, (1 << 40, 2))


def test_stride_tricks_beyond_the_machines_memory_are_memory_errors():
    """NumPy's windows and strided views take no memory; namedarray's
    read-only copies must fit: NumPy's MemoryError before anything is made."""
    x = np.arange(4)
    cases = {"sliding_window_view": lambda: np.lib.stride_tricks.sliding_window_view(
                 np.zeros(1 << 21), (1 << 20,)),
             "as_strided": lambda: np.lib.stride_tricks.as_strided(
                 x, shape=(1 << 40, 2), strides=(0, 8))}
    for fn, call in cases.items():
        with pytest.raises(MemoryError, match=rf"^{fn}: Unable to allocate [0-9.e+]+ GiB .*"
                                              r"NumPy's result is a view"):
            call()


def test_apply_along_axis_sequence_result():
    x = onp.array([[1, 2], [3, 4]])
    for f in (lambda v: (v[1], v[0]), lambda v: [v.sum(), v.max()]):
        for ax in (0, 1):
            _same(np.apply_along_axis(f, ax, np.asarray(x)), onp.apply_along_axis(f, ax, x))


# -- the joining family: casting=, dtype=, out=, sequences, memory order --------
_JOIN = ["concatenate", "stack", "hstack", "vstack"]


@pytest.mark.parametrize("fn", _JOIN)
@pytest.mark.parametrize("casting", ["no", "safe", "same_kind", "unsafe"])
def test_join_casting(fn, casting):
    a, b = onp.array([1, 2, 3]), onp.array([2.5, 3.5, 4.5])
    try:
        e = getattr(onp, fn)((a, b), casting=casting, dtype=onp.int64)
    except TypeError as err:
        with pytest.raises(TypeError, match=f"^{fn}: " + str(err).replace("(", r"\(")
                           .replace(")", r"\)")):
            getattr(np, fn)((np.asarray(a), np.asarray(b)), casting=casting,
                            dtype=np.int64)
        return
    _same(getattr(np, fn)((np.asarray(a), np.asarray(b)), casting=casting,
                          dtype=np.int64), e)


@pytest.mark.parametrize("fn", ["stack", "hstack", "vstack", "dstack", "column_stack"])
def test_join_refuses_iterators(fn):
    with pytest.raises(TypeError, match=f'^{fn}: arrays to stack must be passed as a '
                                        '"sequence" type'):
        getattr(np, fn)(np.ones(2) for _ in range(2))


def test_join_out_and_dtype():
    a, b = np.asarray([1, 2]), np.asarray([3, 4])
    for out in (np.empty(5), np.empty((4, 1)), np.empty((1, 4))):
        with pytest.raises(ValueError, match="^concatenate: Output array is the wrong shape"):
            np.concatenate((a, b), out=out)
    with pytest.raises(TypeError, match=r"concatenate\(\) only takes `out` or `dtype`"):
        np.concatenate((a, b), out=np.empty(4), dtype=np.float64)
    out = np.zeros(4, np.int64)
    np.concatenate((np.asarray([1.5, 2.5]), b), out=out, casting="unsafe")
    _same(out, onp.array([1, 2, 3, 4]))
    with pytest.raises(ValueError, match=r"^concatenate: all the input arrays must have "
                                         r"same number of dimensions, but the array at "
                                         r"index 0 has 1 dimension\(s\) and the array at "
                                         r"index 1 has 2 dimension\(s\)"):
        np.concatenate((a, np.ones((1, 2))))
    with pytest.raises(ValueError, match="along dimension 0, the array at index 0 has size "
                                         "1 and the array at index 1 has size 2"):
        np.concatenate((np.ones((1, 2)), np.ones((2, 1))), axis=1)


@pytest.mark.parametrize("fn", ["concatenate", "vstack", "hstack", "column_stack", "append",
                                "stack", "dstack", "block"])
def test_join_memory_order(fn):
    def call(m, a):
        if fn == "append":
            return m.append(a, a, axis=0)
        if fn == "block":
            return m.block([[a, a], [a, a]])
        return getattr(m, fn)([a, a])
    e = call(onp, onp.zeros((3, 3), order="F"))
    r = call(np, np.zeros((3, 3), order="F"))
    assert r.flags.f_contiguous == e.flags.f_contiguous   # (NumPy's stack: neither)


# -- ufuncs: the output cast follows casting= ----------------------------------
@pytest.mark.parametrize("uf", ["add", "subtract", "multiply", "divide", "maximum",
                                "hypot"])
def test_ufunc_out_casting(uf):
    x, y = onp.arange(1.0, 5.0), onp.full(4, 1.5)
    with pytest.raises(TypeError, match=f"^{uf}: Cannot cast ufunc '{uf}' output from "
                                        r"dtype\('float64'\) to dtype\('int64'\) with "
                                        "casting rule 'same_kind'"):
        getattr(np, uf)(np.asarray(x), np.asarray(y), out=np.zeros(4, np.int64))
    out, o = np.zeros(4, np.int64), onp.zeros(4, onp.int64)
    r = getattr(np, uf)(np.asarray(x), np.asarray(y), out=out, casting="unsafe")
    getattr(onp, uf)(x, y, out=o, casting="unsafe")
    assert r is out
    _same(out, o)


def test_ufunc_argument_counts_and_out_tuples():
    with pytest.raises(TypeError, match=r"^hypot: hypot\(\) takes from 2 to 3 positional "
                                        "arguments but 1 was given"):
        np.hypot(1)
    with pytest.raises(TypeError, match="but 4 were given"):
        np.hypot(1, 2, 3, 4)
    with pytest.raises(TypeError, match="^add: casting must be str, not NoneType"):
        np.add(np.ones(2), 1, casting=None)
    q = np.zeros(3, np.int64)
    r = np.divmod(np.asarray([7.0, 8, 9]), 2.0, out=(q, None), casting="unsafe")
    assert r[0] is q
    _same(r[1], onp.array([1.0, 0.0, 1.0]))


def test_clip_takes_ufunc_keywords():
    a = np.arange(6, dtype=np.int32)
    out = np.zeros(6, np.int32)
    with pytest.raises(TypeError, match="^clip: Cannot cast ufunc"):
        a.clip(onp.float64(0), onp.float64(2), out)
    a.clip(onp.float64(0), onp.float64(2), out, casting="unsafe")
    _same(out, onp.clip(onp.arange(6, dtype=onp.int32), 0, 2))
    with pytest.raises(ValueError, match="^clip: casting must be one of"):
        np.clip(a, 1, 8, casting="garbage")
    with pytest.raises(TypeError, match="^clip: casting must be str"):
        np.clip(a, 1, 8, casting=None)
    _same(np.clip(a, 1, 3, dtype=np.float32),
          onp.clip(onp.arange(6, dtype=onp.int32), 1, 3, dtype=onp.float32))
    w = onp.arange(6) > 3
    _same(np.clip(a, 2, None, where=np.asarray(w), out=np.zeros(6, np.int32)),
          onp.clip(onp.arange(6, dtype=onp.int32), 2, None, where=w,
                   out=onp.zeros(6, onp.int32)))


def test_choose_casts_into_out():
    a = onp.array([0, 1, 2, 1])
    choices = (onp.arange(4), onp.ones(4) * 1.5, 7)
    out, o = np.zeros(4, np.int32), onp.zeros(4, onp.int32)
    np.choose(np.asarray(a), choices, out=out)
    onp.choose(a, choices, out=o)
    _same(out, o)


@pytest.mark.parametrize("uf", ["floor_divide", "remainder", "fmod", "divmod"])
@pytest.mark.parametrize("dtype", ["int8", "int64", "float64"])
def test_error_state_looks_at_the_result_elements_only(uf, dtype):
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        getattr(np, uf)(np.zeros(0, dtype), 0)
        with pytest.raises(FloatingPointError, match=f"divide by zero encountered in {uf}"):
            getattr(np, uf)(np.ones(2, "int64"), 0)


def test_log2_exact_and_log_branch_cuts():
    for i in range(-1022, 1024, 7):
        assert float(np.log2(2.0 ** i)) == i
    assert float(np.log2(np.float32(2.0 ** 20))) == 20
    z = onp.array([complex(-0.5, -0.0), complex(-0.5, 0.0), complex(-1.5, -0.0)])
    for f in ("log2", "log10", "log1p"):
        r = onp.asarray(getattr(np, f)(np.asarray(z)))
        onp.testing.assert_allclose(r, getattr(onp, f)(z), rtol=1e-15)
        assert (onp.signbit(r.imag) == onp.signbit(getattr(onp, f)(z).imag)).all()


def test_negative_nan_keeps_its_sign_in_masked_assignment():
    for dt in (np.float32, np.float64):
        m = np.asarray([True, False, True])
        a = np.ones(3, dt)
        a[m] = np.nan
        b = np.ones(3, dt)
        b[m] = -np.nan
        assert onp.signbit(onp.asarray(b)).tolist() == [True, False, True]


# -- memory order strings, reshape/moveaxis/rollaxis arguments -------------------
@pytest.mark.parametrize("order", ["f", "F", "c", "a", "k"])
def test_order_in_either_case(order):
    x = onp.arange(6).reshape(2, 3)
    up = order.upper()
    _same(np.ravel(np.asarray(x), order=order), onp.ravel(x, order=up))
    _same(np.asarray(x).flatten(order), x.flatten(up))
    if up in "CF":
        _same(np.reshape(np.arange(6), (2, 3), order=order),
              onp.reshape(onp.arange(6), (2, 3), order=up))
        assert np.zeros((2, 2), order=order).flags.f_contiguous == (up == "F")


def test_reshape_arguments():
    a = np.arange(24).reshape(2, 3, 4)
    with pytest.raises(TypeError, match=r"^reshape: reshape\(\) missing 1 required "
                                        "positional argument: 'shape'"):
        np.reshape(a)
    for shape in ((True, -1), (onp.True_, -1)):
        with pytest.raises(TypeError, match="^reshape: shape must be ints"):
            np.reshape(a, shape)
    for kw in ({"copy": True}, {"order": "F", "copy": True}, {"order": "F"}):
        assert not np.shares_memory(np.reshape(a, (12, 2), **kw), a)
    assert not np.shares_memory(a.reshape((12, 2), copy=True), a)
    assert np.shares_memory(np.reshape(a, (12, 2), copy=False), a)
    assert np.shares_memory(np.reshape(a.T, (24,), order="F", copy=False), a)
    with pytest.raises(ValueError, match="^reshape: Unable to avoid creating a copy"):
        np.reshape(a.T, (24,), copy=False)


def test_axis_moves_name_the_argument():
    x = np.zeros((1, 2, 3))
    with pytest.raises(onp.exceptions.AxisError, match="^moveaxis: source: axis 3 is out"):
        np.moveaxis(x, 3, 0)
    with pytest.raises(onp.exceptions.AxisError, match="^moveaxis: destination: axis -4"):
        np.moveaxis(x, 0, -4)
    with pytest.raises(ValueError, match="repeated axis in `source`"):
        np.moveaxis(x, [0, -3], [0, 1])
    a = np.ones((1, 2, 3, 4))
    for axis, start in ((0, 5), (0, -5)):
        with pytest.raises(onp.exceptions.AxisError, match="^rollaxis: 'start' arg requires "
                                                          r"-4 <= start < 5"):
            np.rollaxis(a, axis, start)
    for axis, start in ((0, 4), (0, -4), (3, -1), (2, 4)):
        assert np.rollaxis(a, axis, start).shape == onp.rollaxis(onp.ones((1, 2, 3, 4)), axis,
                                                                 start).shape


def test_along_axis_indices():
    a, ai = np.ones((10, 10)), np.ones((10, 2), np.intp)
    for bad in (ai.astype(bool), ai.astype(float)):
        with pytest.raises(IndexError, match="^take_along_axis: `indices` must be an "
                                             "integer array"):
            np.take_along_axis(a, bad, axis=1)
    with pytest.raises(ValueError, match="^put_along_axis: when axis=None, `indices` must "
                                         "have a single dimension"):
        np.put_along_axis(np.ones((2, 3)), np.asarray([[0], [1]]), 1, axis=None)


# -- indexing: NumPy's reading of an index ------------------------------------
class _Zero:
    def __index__(self):
        return 0


class _ArrayLike:
    def __array__(self, dtype=None, copy=None):
        return onp.array(0)


class _Tuple(tuple):
    pass


def test_index_normalization():
    a = np.arange(25.0).reshape(5, 5)
    assert float(a[_Zero(), _Zero()]) == 0.0
    assert float(a[_Zero(), _ArrayLike()]) == 0.0
    assert a[_Tuple(([1], [1]))].shape == (1,)
    assert a[_Tuple(([1], [1])), ].shape == (2, 1, 5)
    b = np.zeros(5)
    b[_Zero()] = 3
    assert float(b[0]) == 3
    with pytest.raises(TypeError, match="^__getitem__: slice indices must be integers"):
        a[::0.0]
    with pytest.raises(IndexError, match="valid indices"):
        a[0.0:, 0.0]
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape "
                                         r"\(100,100\) into shape \(3,4,5,2,7\)$"):
        np.zeros((3, 4, 5, 6, 7))[..., [1, 2], slice(None)] = np.zeros((100, 100))


# -- einsum: views, NumPy's paths, its errors --------------------------------
@pytest.mark.parametrize("args", [("...",), ("ij",), ("ji",), ([0, 1],), ([1, 0],),
                                  ("ii->i",), ([0, 0], [0])])
def test_einsum_of_one_operand_summing_nothing_is_a_view(args):
    a = np.arange(9).reshape(3, 3)
    r = np.einsum(*args[:1], a, *args[1:]) if isinstance(args[0], str) else \
        np.einsum(a, *args)
    assert r.base is a.base
    e = onp.einsum(*args[:1], onp.arange(9).reshape(3, 3), *args[1:]) if isinstance(
        args[0], str) else onp.einsum(onp.arange(9).reshape(3, 3), *args)
    _same(r, e)
    r[...] = 0
    assert int(a.sum()) == 36 - int(e.sum())


def test_einsum_that_sums_is_a_copy():
    a = np.arange(9).reshape(3, 3)
    for spec in ("ii", "ij->i"):
        assert not np.shares_memory(np.einsum(spec, a), a)


_SIZES = dict(zip("abcdefghij", [2, 3, 4, 5, 4, 3, 2, 6, 5, 4]))


@pytest.mark.parametrize("spec, optimize", [
    ("acdf,jbje,gihb,hfac,gfac,gifabc,hfac", "greedy"),
    ("chd,bde,agbc,hiad,bdi,cgh,agdb", "optimal"),
    ("dcc,fce,ea,dbf->ab", "optimal"), ("dcc,fce,ea,dbf->ab", False),
    ("a,b,c->abc", ("greedy", 0)), ("eb,cb,fb->cef", True),
    ("dcc,fce,ea,dbf->ab", ["einsum_path", (0, 2), (0, 2), (0, 1)]),
    ("cab,cdd->ab", ["einsum_path", (1,), (0, 1)])])
def test_einsum_path_is_numpys(spec, optimize):
    rng = onp.random.RandomState(0)
    ops = [rng.rand(*[_SIZES[c] for c in t]) for t in spec.split("->")[0].split(",")]
    path, report = np.einsum_path(spec, *ops, optimize=optimize)
    assert path == onp.einsum_path(spec, *ops, optimize=optimize)[0]
    if not isinstance(optimize, tuple):
        onp.testing.assert_allclose(onp.asarray(np.einsum(spec, *ops, optimize=optimize)),
                                    onp.einsum(spec, *ops), rtol=1e-12)


def test_einsum_errors():
    with pytest.raises(ValueError, match="^einsum: No input operands"):
        np.einsum()
    with pytest.raises(ValueError, match="^einsum_path: No input operands"):
        np.einsum_path()
    with pytest.raises(TypeError, match="^einsum: subscripts must be a str"):
        np.einsum(0, 0)
    with pytest.raises(ValueError, match="^einsum: casting must be one of"):
        np.einsum("", 0, casting="blah")
    with pytest.raises(TypeError, match="^einsum: out must be an array"):
        np.einsum("", 0, out="test")
    ops = [onp.ones((2, 2))] * 4
    for f in (np.einsum, np.einsum_path):
        with pytest.raises(RuntimeError, match="Invalid einsum_path is specified"):
            f("ab,bc,cd,de->ae", *ops, optimize=["einsum_path", (2, 3), (0, 1)])
    with pytest.raises(TypeError, match="^einsum: Cannot cast einsum output"):
        np.einsum("i,i", np.ones(3), np.ones(3), out=np.zeros((), np.float32))


def test_einsum_memory_order():
    a, b = np.ones((2, 3, 5), order="F"), np.ones((4, 3), order="F")
    assert np.einsum("...ft,mf->...mt", a, b, order="a").flags.f_contiguous
    assert np.einsum("...ft,mf->...mt", a, b, order="f").flags.f_contiguous
    assert np.einsum("...ft,mf->...mt", a, b, order="c").flags.c_contiguous


# -- isclose: NumPy's algorithm, NumPy 2's scalar rules ------------------------
def test_isclose_scalar_rules_and_tolerances():
    below_one = float(1.0 - onp.finfo("f8").eps)
    f32 = np.array(below_one, "f4")
    assert np.isclose(f32, below_one, atol=0, rtol=0)
    assert np.isclose(f32, 2, atol=0, rtol=below_one / 2)
    assert not np.isclose(f32, np.float64(below_one), atol=0, rtol=0)
    x, y = onp.array([2.1, 2.1, 2.1, 2.1, 5, onp.nan]), onp.array([2, 2, 2, 2, onp.nan, 5])
    atol, rtol = [0.11, 0.09, 1e-8, 1e-8, 1, 1], [1e-8, 1e-8, 0.06, 0.04, 1, 1]
    _same(np.isclose(np.asarray(x), np.asarray(y), rtol=rtol, atol=atol),
          onp.isclose(x, y, rtol=rtol, atol=atol))
    with pytest.raises(ValueError, match="^isclose: operands could not be broadcast"):
        np.isclose(np.asarray(x), np.asarray(y), atol=np.asarray([1e-8, 1e-8]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        np.isclose(np.asarray(x), np.asarray(x), atol=onp.nan, rtol=1)
    assert len(w) == 1 and "One of rtol or atol is not valid" in str(w[0].message)

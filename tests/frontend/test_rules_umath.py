"""NumPy's answers where NumPy's own ``_core/test_umath.py`` and
``_core/test_numeric.py`` found differences, checked over each family with
NumPy as the oracle: ufunc ``signature=``/``sig=``, the error state of a
fold (``floor_divide.reduce``, ...), ``reduce`` with ``where=`` and no
identity, integer powers of NumPy's arrays, ``reduceat`` of no indices,
the signed zero of ``.real``/``.imag`` writes, ``clip``'s signature,
``var``/``std`` ``correction``, the empty-slice warnings of mean/var/std,
``np.broadcast``, convolve/correlate ``mode`` and empty inputs, ``cross``
of 0-d operands, ``choose`` of bools, and the memory order of the
``*_like`` functions."""
import inspect
import warnings

import numpy as onp
import pytest

import namedarray as np


def _same(r, e):
    r = onp.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape
    onp.testing.assert_array_equal(r, e)


def _outcome(f, *args, **kw):
    """(result, None) or (None, (exception type, message)) of ``f``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args, **kw), None
    except Exception as e:      # noqa: BLE001 -- compared with NumPy's
        return None, (type(e), str(e))


# -- ufunc signature= / sig= --------------------------------------------------
_SIGS = [(None, None, "l"), "ll->l", (None, None, "?"), "dd->?", ("d", "d", None),
         "ff->f", ("f", None, None), "f"]


@pytest.mark.parametrize("sig", _SIGS)
@pytest.mark.parametrize("name", ["equal", "add", "maximum"])
def test_ufunc_signature_is_numpys(name, sig, key="signature"):
    a, b = [1, 2], onp.array([1, 4])
    e, eerr = _outcome(getattr(onp, name), a, b, **{key: sig})
    r, rerr = _outcome(getattr(np, name), a, np.asarray(b), **{key: sig})
    if eerr is not None:
        # (the standard class NumPy's error derives from: UFuncTypeError, TypeError)
        assert rerr is not None and issubclass(eerr[0], rerr[0]) and eerr[1] in rerr[1]
        assert rerr[1].startswith(f"{name}: ")
    else:
        assert rerr is None, rerr
        _same(r, e)


def test_ufunc_no_loop_and_object_signature():
    with pytest.raises(TypeError, match="^equal: No loop matching"):
        np.equal(1, 1, dtype=np.int64)
    with pytest.raises(TypeError, match="^equal: No loop matching"):
        np.equal(1, 1, sig=(None, None, "l"))
    assert np.equal(1, [1], signature=(None, None, "O")).dtype == object
    with pytest.raises(TypeError, match="cannot specify both 'signature' and 'dtype'"):
        np.add(1, 2, signature="dd->d", dtype=float)


# -- the error state of a fold ------------------------------------------------
_FOLD_DATA = [[1e308, -1e308, 1e308], [1.0, 0, 0], [0.0, 0, 1], [2, 3, 0], [2, -3, 0],
              [-128, 1, -1]]


@pytest.mark.parametrize("data", _FOLD_DATA)
@pytest.mark.parametrize("name", ["subtract", "divide", "remainder", "fmod",
                                  "floor_divide", "power"])
def test_fold_reduce_error_state_is_numpys(name, data):
    dt = onp.int8 if data == [-128, 1, -1] else None
    x = onp.array(data, dtype=dt)
    with onp.errstate(all="raise"):
        e, eerr = _outcome(getattr(onp, name).reduce, x)
        r, rerr = _outcome(getattr(np, name).reduce, np.asarray(x))
    if name == "power" and data[0] == 1e308:
        eerr = rerr     # (NumPy's flag there is the processor's: fperr.py)
    if eerr is not None:
        assert rerr is not None and rerr[0] is eerr[0] and eerr[1] in rerr[1], (rerr, eerr)
    else:
        assert rerr is None, rerr
        if not (name == "power" and x.dtype.kind == "f" and x.size > 2):
            # (NumPy 2.4's float power.reduce of 3 or more is x[0] ** x[-1]: a bug)
            _same(r, onp.asarray(e))


@pytest.mark.parametrize("dt", ["b", "l", "B"])
def test_floor_divide_reduce_raises_in_reduce(dt):
    fo = onp.iinfo(dt)
    with np.errstate(divide="raise", over="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in reduce"):
            np.floor_divide.reduce(np.asarray(onp.arange(-100, 100).astype(dt)))
        if fo.min:
            with pytest.raises(FloatingPointError, match="overflow encountered in reduce"):
                np.floor_divide.reduce(np.array([fo.min, 1, -1], dtype=dt))
    with np.errstate(divide="ignore"):
        a = onp.array([fo.max, 1, 2, 1, 1, 2, 3], dtype=dt)
        assert np.floor_divide.reduce(np.asarray(a)) == onp.floor_divide.reduce(a)


@pytest.mark.parametrize("name", ["subtract", "divide", "power", "maximum", "arctan2",
                                  "floor_divide"])
def test_reduce_where_without_identity_is_numpys_error(name):
    x = onp.array([[1.0, 0], [2, 3]])
    with pytest.raises(ValueError) as e:
        getattr(onp, name).reduce(x, axis=1, where=[True, False])
    with pytest.raises(ValueError, match=f"^{name}.reduce: ") as r:
        getattr(np, name).reduce(np.asarray(x), axis=1, where=np.asarray([True, False]))
    assert str(e.value) in str(r.value)
    _same(np.add.reduce(np.asarray(x), axis=1, where=np.asarray([True, False])),
          onp.add.reduce(x, axis=1, where=[True, False]))


@pytest.mark.parametrize("dt", list(onp.typecodes["Integer"]))
def test_integer_to_negative_power_of_numpy_arrays(dt):
    a = onp.array([0, 1, 2, 3], dtype=dt)
    b = onp.array([0, 1, 2, -3], dtype=dt)
    one, minusone = onp.array(1, dtype=dt), onp.array(-1, dtype=dt)
    for x, y in [(a, b), (a, minusone), (one, b), (one, minusone), (np.asarray(a), b),
                 (a, np.asarray(b))]:
        with pytest.raises(ValueError, match="^power: integers to negative integer powers"):
            np.power(x, y)
    _same(np.power(a, onp.array([0, 1, 2, 3], dt)), onp.power(a, onp.array([0, 1, 2, 3], dt)))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "logical_and"])
@pytest.mark.parametrize("shape, axis", [((5, 2), 0), ((5, 2), 1), ((0,), 0)])
def test_reduceat_of_no_indices_is_empty(name, shape, axis):
    x = onp.ones(shape)
    e = getattr(onp, name).reduceat(x, [], axis=axis)
    _same(getattr(np, name).reduceat(np.asarray(x), [], axis=axis), e)


# -- .real / .imag writes keep the other part bit for bit ---------------------
@pytest.mark.parametrize("part", ["real", "imag"])
@pytest.mark.parametrize("value", [-0.0, onp.inf, -onp.inf, onp.nan, 2.5])
def test_part_write_keeps_signed_zero_and_infinities(part, value):
    e = onp.array([1 + 2j, -0.0 - 0.0j, onp.inf + 1j])
    r = np.asarray(e.copy())
    setattr(e, part, value)
    setattr(r, part, value)
    h = onp.asarray(r)
    onp.testing.assert_array_equal(h, e)
    for f in (onp.real, onp.imag):
        assert (onp.signbit(f(h)) == onp.signbit(f(e))).all()


def test_branch_cut_side_of_a_masked_copy():
    x = np.atleast_1d(-0.5).astype(complex)[np.asarray([True])]
    x.imag = -0.0
    assert onp.signbit(onp.asarray(np.log(x)).imag).all()


# -- clip: NumPy's signature ---------------------------------------------------
def test_clip_is_numpys_signature():
    a = onp.arange(5)
    x = np.asarray(a)
    for args, kw in [((), {}), ((), {"min": 2, "max": 3}), ((), {"min": None, "max": 2}),
                     ((1, 3), {}), ((None, 2), {}), ((), {"a_min": 1, "a_max": 3}),
                     ((), {"max": 2})]:
        _same(np.clip(x, *args, **kw), onp.clip(a, *args, **kw))
        _same(x.clip(*args[:1], **{k: v for k, v in kw.items() if k in ("min", "max")}),
              a.clip(*args[:1], **{k: v for k, v in kw.items() if k in ("min", "max")}))
    # one positional bound is the Array API's min (NumPy asks for a_max there)
    _same(np.clip(x, 2), onp.clip(a, min=2))
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a_min'"):
        np.clip(x, a_max=2)
    with pytest.raises(ValueError, match="Passing `min` or `max` keyword argument when "
                                         "`a_min` and `a_max` are provided is forbidden."):
        np.clip(x, a_min=2, a_max=3, max=3)
    assert list(inspect.signature(np.clip).parameters)[:3] == ["a", "min", "max"]


# -- var/std/nanvar/nanstd: correction, empty slices -------------------------
@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_correction_is_ddof(name):
    a = onp.array([[1.0, 2, 4], [3, 5, 9]])
    for kw in ({"correction": 1}, {"correction": 0, "axis": 1}, {"ddof": 1}):
        onp.testing.assert_allclose(getattr(np, name)(np.asarray(a), **kw),
                                    getattr(onp, name)(a, **kw))
    with pytest.raises(ValueError, match=f"^{name}: ddof and correction can't be provided "
                                         "simultaneously."):
        getattr(np, name)(np.asarray(a), ddof=1, correction=0)


@pytest.mark.parametrize("name, args, kw", [
    ("mean", ([],), {}), ("std", ([],), {}), ("var", ([],), {}),
    ("mean", (onp.ones((0, 3)),), {"axis": 1}), ("mean", (onp.ones((0, 3)),), {"axis": 0}),
    ("var", ([1.0],), {"ddof": 1}), ("std", ([1.0, 2],), {"ddof": 1}),
    ("var", (onp.ones((2, 3)),), {"axis": 0, "ddof": 2}),
    ("var", (onp.ones((2, 3)),), {"axis": (0, 1), "correction": 6}),
    ("mean", (onp.ones((2, 0)),), {"axis": 0}), ("mean", (5.0,), {})])
def test_empty_slice_warnings_are_numpys(name, args, kw):
    def messages(m, a):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            getattr(m, name)(*a, **kw)
        return [str(x.message) for x in w if "encountered" not in str(x.message)]
    ours = [np.asarray(a) if isinstance(a, onp.ndarray) else a for a in args]
    assert messages(np, ours) == messages(onp, args)


def test_astype_of_a_list_is_numpys_type_error():
    with pytest.raises(TypeError, match="Input should be a NumPy array or scalar"):
        np.astype([1, 2], np.float64)
    _same(np.astype(np.arange(3), np.float32), onp.arange(3).astype(onp.float32))


def test_nonzero_of_0d_is_numpys_message():
    with pytest.raises(ValueError, match="Calling nonzero on 0d arrays is not allowed"):
        np.nonzero(np.array(0))


# -- np.broadcast --------------------------------------------------------------
def test_broadcast_object_is_numpys():
    arrs = [np.empty((6, 7)), np.empty((5, 6, 1)), np.empty((7,)), np.empty((5, 1, 7))]
    for mit in (np.broadcast(*arrs), np.broadcast(np.broadcast(*arrs[:2]),
                                                  np.broadcast(*arrs[2:])),
                np.broadcast(arrs[0], np.broadcast(*arrs[1:-1]), arrs[-1])):
        assert (mit.shape, mit.ndim, mit.nd, mit.numiter, mit.size) == ((5, 6, 7), 3, 3, 4,
                                                                         210)
        assert all(a is it.base for a, it in zip(arrs, mit.iters))
    a, b = onp.arange(3), onp.array([[10], [20]])
    got = [tuple(int(v) for v in t) for t in np.broadcast(np.asarray(a), np.asarray(b))]
    assert got == [tuple(int(v) for v in t) for t in onp.broadcast(a, b)]
    with pytest.raises(ValueError, match="^broadcast: keyword arguments not accepted"):
        np.broadcast(1, x=1)
    with pytest.raises(ValueError, match="at most 64 array objects"):
        np.broadcast(*[np.ones(1)] * 65)
    with pytest.raises(ValueError, match=r"shape mismatch: .* arg 0 with shape \(2, 3\) "
                                         r"and arg 1 with shape \(4,\)"):
        np.broadcast(np.ones((2, 3)), np.ones(4))
    assert str(inspect.signature(np.broadcast)) == str(inspect.signature(onp.broadcast))


# -- convolve / correlate / cross / choose ------------------------------------
@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid", 0, 1, 2, onp.int64(1), "f", "v",
                                  "FULL", -1, 3, None, True, 2.0])
def test_convolve_mode_is_numpys(name, mode):
    d, k = onp.arange(10.0), onp.array([1.0, 2, 3])
    e, eerr = _outcome(getattr(onp, name), d, k, mode=mode)
    r, rerr = _outcome(getattr(np, name), np.asarray(d), np.asarray(k), mode=mode)
    if eerr is not None:
        assert rerr is not None and rerr[0] is eerr[0] and eerr[1] in rerr[1], (rerr, eerr)
        assert rerr[1].startswith(f"{name}: ")
    else:
        assert rerr is None, rerr
        onp.testing.assert_allclose(onp.asarray(r), e)


@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_convolve_empty_input_names_the_argument(name):
    with pytest.raises(ValueError, match=f"^{name}: a cannot be empty"):
        getattr(np, name)(np.array([]), np.array([1, 2]))
    with pytest.raises(ValueError, match=f"^{name}: v cannot be empty"):
        getattr(np, name)(np.array([1, 2]), np.array([]))


@pytest.mark.parametrize("a, b", [(0, [1, 2]), ([1, 2], 3), (0, 0)])
def test_cross_of_0d_is_numpys_error(a, b):
    with pytest.raises(ValueError, match="^cross: At least one array has zero dimension"):
        np.cross(a, b)
    _same(np.cross([1, 0, 0], [0, 1, 0]), onp.cross([1, 0, 0], [0, 1, 0]))
    i8, i16 = onp.array([1, 2, 3], onp.int8), onp.array([3, 4, 5], onp.int16)
    _same(np.cross(np.asarray(i8), np.asarray(i16)), onp.cross(i8, i16))


@pytest.mark.parametrize("a", [[True, False], [0, 1], [1.0, 0.0]])
def test_choose_index_dtypes_are_numpys(a):
    choices = ([5, 6], [7, 8])
    e, eerr = _outcome(onp.choose, onp.array(a), choices)
    r, rerr = _outcome(np.choose, np.array(a), choices)
    if eerr is not None:
        assert rerr is not None and rerr[0] is eerr[0] and eerr[1] in rerr[1]
    else:
        _same(r, e)


def test_frompyfunc_identity_none_is_reorderable():
    mul = lambda a, b: a * b  # noqa: E731
    for kw, ok in (({"identity": 1}, True), ({"identity": None}, True), ({}, False)):
        u = np.frompyfunc(mul, nin=2, nout=1, **kw)
        if ok:
            assert u.reduce(onp.ones((2, 2)), axis=(0, 1)) == 1
        else:
            with pytest.raises(ValueError, match="not reorderable"):
                u.reduce(onp.ones((2, 2)), axis=(0, 1))


# -- the *_like functions: NumPy's memory order --------------------------------
def _sources():
    return [(onp.arange(6.0).reshape(2, 3), lambda m: m.arange(6.0).reshape(2, 3)),
            (onp.arange(6.0).reshape((2, 3), order="F"),
             lambda m: m.arange(6.0).reshape((2, 3), order="F")),
            (onp.arange(24.0).reshape((2, 3, 4), order="F"),
             lambda m: m.arange(24.0).reshape((2, 3, 4), order="F")),
            (None, lambda m: m.arange(24.0).reshape(2, 3, 4).swapaxes(0, 1))]


@pytest.mark.parametrize("name, extra", [("zeros_like", ()), ("ones_like", ()),
                                         ("empty_like", ()), ("full_like", (7,))])
def test_like_functions_follow_numpys_memory_order(name, extra):
    for _, make in _sources():
        e_src, r_src = make(onp), make(np)
        for order in ("K", "F", "A", None):
            for shape in (None, (5, 6, 7)):
                kw = {"order": order} if order is not None else {}
                if shape is not None:
                    kw["shape"] = shape
                e = getattr(onp, name)(e_src, *extra, **kw)
                r = getattr(np, name)(r_src, *extra, **kw)
                assert r.shape == e.shape and r.dtype == e.dtype
                assert (r.flags.c_contiguous, r.flags.f_contiguous) == (
                    e.flags.c_contiguous, e.flags.f_contiguous), (order, shape)
                assert r.strides == e.strides, (order, shape)
                if name != "empty_like":
                    _same(r, e)
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match=f"^{name}: order must be one of"):
        getattr(np, name)(x, *extra, order="X")
    with pytest.raises(TypeError, match=f"^{name}: order must be str"):
        getattr(np, name)(x, *extra, order=1)


def test_property_docstrings_are_numpys():
    # NumPy's text, less its examples (they print NumPy's own arrays)
    for k in ("T", "mT", "real", "imag", "flat"):
        ours, numpys = getattr(np.ndarray, k).__doc__, getattr(onp.ndarray, k).__doc__
        assert ours and numpys.startswith(ours) and ">>>" not in ours


@pytest.mark.parametrize("on_device", [False, True])
@pytest.mark.parametrize("shape, order", [((2, 3), "C"), ((2, 3), "F"), ((2, 3, 4), "F")])
def test_numpy_conversion_keeps_memory_order(on_device, shape, order):
    # numpy.asarray / numpy.array of an array give NumPy's memory order: a
    # Fortran-ordered array stays Fortran-ordered (NumPy's own block() and
    # concatenate then keep it), whether its data lives on the host or a device
    import jax
    flat = onp.arange(float(onp.prod(shape)))
    e_src = flat.reshape(shape, order=order)
    r_src = np.asarray(flat).reshape(shape, order=order)
    if on_device:
        r_src = np.array(np.asarray(jax.device_put(e_src)), order=order)
    for convert in (onp.asarray, onp.array, lambda a: onp.array(a, copy=True)):
        got, want = convert(r_src), convert(e_src)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
            want.flags.c_contiguous, want.flags.f_contiguous)
        onp.testing.assert_array_equal(got, want)
    blocks = [[[r_src, r_src]]] if len(shape) == 3 else [[r_src, r_src]]
    assert onp.block(blocks).flags.f_contiguous == (order == "F")


def test_ufuncs_equal_numpys_and_follow_the_override_protocol():
    import numpy
    assert np.add == numpy.add and numpy.add == np.add and np.add != numpy.subtract
    assert {numpy.add: 1}[np.add] == 1 and np.add in {numpy.add}

    class Overrides:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return ufunc, method, inputs, kwargs

    o = Overrides()
    assert np.multiply(1, o) == (np.multiply, "__call__", (1, o), {})
    assert np.multiply.reduce(o, 0, None, None, False) == (
        np.multiply, "reduce", (o,), {"axis": 0, "dtype": None, "keepdims": False})
    assert np.add.accumulate(o, axis=1)[1:] == ("accumulate", (o,), {"axis": 1})
    assert np.add.outer(o, 2)[1:3] == ("outer", (o, 2))
    assert np.add.reduceat(o, [0])[1] == "reduceat"
    assert np.add.at(o, [0], 1)[1] == "at"
    x = np.arange(3.0)
    assert np.add.reduce(x, out=None) == 3.0    # (no override: namedarray's own)

    class OptsOut:
        __array_ufunc__ = None

    with pytest.raises(TypeError, match="operand 'OptsOut' does not support ufuncs"):
        np.add.reduce(OptsOut())


def test_index_whose_array_is_namedarrays():
    class ArrayLike:
        def __array__(self, dtype=None, copy=None):
            return np.array(0)

    a = np.arange(4.0).reshape(2, 2)
    assert a[ArrayLike(), 1] == 1.0 and a[1, ArrayLike()] == 2.0
    onp.testing.assert_array_equal(a[[1, 0], ArrayLike()], [2.0, 0.0])


# -- dtype=/casting= before values: Python scalars cast into the loop --------
@pytest.mark.parametrize("name", ["power", "add", "multiply", "subtract", "float_power"])
def test_python_scalars_are_cast_into_the_dtype_loop(name):
    """A Python scalar above the loop ``dtype=`` names is cast as NumPy casts
    it (the imaginary part dropped, a float truncated), and NumPy's errors
    about the loop come before those about values, for every such ufunc."""
    for b in (0j, 1j, 1.5 + 2j, 2.7, -1.5, -0.5):
        for dt in (onp.int8, onp.uint8, onp.float16, onp.float32, onp.int64):
            for a in (onp.False_, onp.array(False), onp.array([3, 1], onp.int16),
                      onp.zeros(0, onp.int8)):
                with warnings.catch_warnings(), onp.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    try:
                        want = getattr(onp, name)(a, b, dtype=dt, casting="unsafe")
                    except (TypeError, ValueError) as e:
                        with pytest.raises(next(c for c in type(e).__mro__
                                                if c.__module__ == "builtins")):
                            getattr(np, name)(np.asarray(a), b, dtype=dt, casting="unsafe")
                        continue
                    got = getattr(np, name)(np.asarray(a), b, dtype=dt, casting="unsafe")
                assert onp.asarray(got).dtype == onp.asarray(want).dtype, (a, b, dt)
                onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-6,
                                            err_msg=f"{name}({a!r}, {b}, dtype={dt})")
    with pytest.raises(TypeError, match=r"^power: Cannot cast ufunc 'power' input 0 from "
                                        r"dtype\('bool'\) to dtype\('int8'\) with casting "
                                        r"rule 'no'"):
        np.power(np.asarray(False), np.asarray(onp.int8(-1)), casting="no")
    with pytest.raises(TypeError, match=r"^power: Cannot cast ufunc 'power' output from "
                                        r"dtype\('int64'\) to dtype\('bool'\)"):
        np.power(np.arange(3), -1, out=np.zeros(3, bool))    # before the negative power


@pytest.mark.parametrize("name", ["power", "pow"])
def test_power_errors_come_in_numpys_order(name):
    """A Python int's OverflowError, then out='s casting error, then the error
    about negative integer exponents: NumPy's order (the first one raised)."""
    cases = [((onp.uint8(0), -1), OverflowError, "Python integer -1 out of bounds"),
             ((onp.arange(3, dtype=onp.int8), -1), TypeError, "Cannot cast ufunc"),
             ((onp.arange(3, dtype=onp.uint8), 2), TypeError, "Cannot cast ufunc")]
    for (base, exp), kind, message in cases:
        for lib in (onp, np):
            b = base if lib is onp else np.asarray(base)
            out = lib.zeros(onp.shape(base), bool)
            with pytest.raises(kind, match=message):
                getattr(lib, name)(b, exp, out=out)

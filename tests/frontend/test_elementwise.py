"""Elementwise ufuncs against NumPy: values and dtypes, Python scalars (NumPy 2
weak promotion), out=/where=, ufunc methods, and the named variant (operands
aligned by name, checked against NumPy broadcasting)."""
import warnings

import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from namedarray.frontend import elementwise
from namedarray.frontend.engines.ufunc import ufunc
from support import ALL_DTYPES, NAMES, arrays

INT = [onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8]
FLOAT = [onp.float16, onp.float32, onp.float64]
CPLX = [onp.complex64, onp.complex128]
REAL = [onp.bool_] + INT + FLOAT
# a pool of shapes (0-d and 0-size included): XLA compiles per shape, so a small
# pool keeps the file fast while values and dtypes vary freely
SHAPES = [(), (0,), (1,), (3,), (2, 3), (0, 3), (2, 1, 3)]


def pool_shapes():
    return st.sampled_from(SHAPES)


def broadcast_partner(shape):
    """A shape that broadcasts with ``shape``."""
    return st.sampled_from([shape, shape[1:], (1,) + shape[1:], ()])

UNARY = ["negative", "positive", "absolute", "sign", "invert", "logical_not", "square",
         "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
         "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "rint",
         "isfinite", "isinf", "isnan", "signbit", "conjugate", "fabs", "reciprocal",
         "spacing", "bitwise_count"]
# transcendental functions: complex branch cuts differ in signed zeros; real only
REAL_ONLY = {"cbrt", "exp2", "expm1", "log2", "log10", "log1p", "arcsin", "arccos",
             "arctan", "arcsinh", "arccosh", "arctanh", "tan", "sqrt", "log", "spacing"}
BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
          "fmod", "power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
          "copysign", "nextafter", "logaddexp", "logaddexp2", "heaviside", "equal",
          "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
          "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "left_shift", "right_shift", "gcd", "lcm", "float_power", "ldexp"]
INEXACT_BINARY = {"true_divide", "arctan2", "hypot", "logaddexp", "logaddexp2",
                  "float_power", "power"}


def _tol(dt):
    dt = onp.dtype(dt)
    if dt.kind not in "fc":
        return dict(rtol=0, atol=0)
    k = dt.itemsize if dt.kind == "f" else dt.itemsize // 2
    return {2: dict(rtol=2e-2, atol=2e-2), 4: dict(rtol=2e-5, atol=1e-5),
            8: dict(rtol=1e-10, atol=1e-10)}[k]


def assert_same(res, exp, tol_dtype=None):
    """``res`` (namedarray) equals NumPy's ``exp``: dtype exactly, values close."""
    if isinstance(exp, tuple):
        assert isinstance(res, tuple) and len(res) == len(exp)
        for r, e in zip(res, exp):
            assert_same(r, e, tol_dtype)
        return
    exp = onp.asarray(exp)
    assert isinstance(res, np.NamedArray), type(res)
    assert not res.names
    got = onp.asarray(res)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    tol = _tol(tol_dtype or exp.dtype)
    if exp.dtype.kind in "fc":
        onp.testing.assert_allclose(got, exp, equal_nan=True, **tol)
    else:
        onp.testing.assert_array_equal(got, exp)


def _numpy(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kw)


def _check(name, *args, **kw):
    """Run ``name`` in NumPy and namedarray: same error type, or same result."""
    nf, f = getattr(onp, name), getattr(np, name)
    try:
        exp = _numpy(nf, *args, **kw)
    except (TypeError, ValueError, OverflowError) as e:
        kind = OverflowError if isinstance(e, OverflowError) else (
            TypeError if isinstance(e, TypeError) else ValueError)
        with pytest.raises(kind, match=name):
            f(*[np.asarray(a) if isinstance(a, onp.ndarray) else a for a in args], **kw)
        return None
    res = f(*[np.asarray(a) if isinstance(a, onp.ndarray) else a for a in args], **kw)
    ins = [onp.asarray(a).dtype for a in args if isinstance(a, onp.ndarray)]
    # float16 inputs computed in float32 by XLA then rounded: compare at the
    # input precision, not the (possibly wider) output precision
    tol_dt = min(ins + [onp.asarray(exp if not isinstance(exp, tuple) else exp[0]).dtype],
                 key=lambda d: onp.dtype(d).itemsize if onp.dtype(d).kind in "fc" else 99)
    assert_same(res, exp, tol_dt)
    return res


# --------------------------------------------------------------------------
# positional ufuncs
# --------------------------------------------------------------------------
@pytest.mark.parametrize("name", UNARY)
@settings(max_examples=6)
@given(data=st.data())
def test_unary(name, data):
    dts = REAL if name in REAL_ONLY else ALL_DTYPES
    dt = data.draw(st.sampled_from(dts))
    x = data.draw(arrays(dt, data.draw(pool_shapes())))
    if name == "reciprocal" and onp.dtype(dt).kind in "biu":
        x = onp.where(x == 0, 1, x).astype(dt)  # integer 1/0 is undefined in NumPy
    _check(name, x)


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=6)
@given(data=st.data())
def test_binary(name, data):
    dts = REAL if name in INEXACT_BINARY - {"true_divide"} or name in (
        "fmod", "nextafter", "copysign", "heaviside", "floor_divide", "remainder",
        "maximum", "minimum", "fmax", "fmin", "less", "less_equal", "greater",
        "greater_equal") else ALL_DTYPES
    d1, d2 = data.draw(st.sampled_from(dts)), data.draw(st.sampled_from(dts))
    s1 = data.draw(pool_shapes())
    s2 = data.draw(broadcast_partner(s1))
    x, y = data.draw(arrays(d1, s1)), data.draw(arrays(d2, s2))
    if name in ("power", "ldexp", "left_shift", "right_shift") and y.dtype.kind in "iu":
        y = abs(y)  # negative integer powers/shifts are errors or undefined
    _check(name, x, y)


@pytest.mark.parametrize("name", ["add", "subtract", "true_divide", "floor_divide",
                                  "power", "maximum", "less", "bitwise_and"])
@settings(max_examples=12)
@given(data=st.data())
def test_python_scalar_weak_promotion(name, data):
    dt = data.draw(st.sampled_from(ALL_DTYPES))
    x = data.draw(arrays(dt, data.draw(pool_shapes())))
    s = data.draw(st.one_of(st.booleans(), st.integers(-3, 3), st.integers(-400, 400),
                            st.floats(-3, 3), st.complex_numbers(max_magnitude=3)))
    if name == "power" and dt is onp.float16 and not isinstance(s, bool):
        s = round(abs(s.real)) if isinstance(s, complex) else s
    args = (x, s) if data.draw(st.booleans()) else (s, x)
    if name == "power" and args[1] is x and x.dtype.kind in "iu":
        args = (x, s)
    _check(name, *args)


def test_negative_integer_power_message():
    with pytest.raises(ValueError, match="power: integers to negative integer powers"):
        np.arange(3) ** -1


def test_python_int_out_of_bounds_messages():
    x = np.arange(3, dtype=np.int8)
    with pytest.raises(OverflowError, match="add: Python integer 300 out of bounds for int8"):
        x + 300
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        np.arange(3, dtype=np.uint8) + (-1)
    # comparisons compare exactly, as in NumPy 2
    assert_same(x == 300, onp.arange(3, dtype=onp.int8) == 300)
    assert_same(x < 300, onp.arange(3, dtype=onp.int8) < 300)


def test_bool_and_unsupported_loops_raise_typeerror():
    with pytest.raises(TypeError, match="negative"):
        -np.array([True, False])
    with pytest.raises(TypeError, match="bitwise_and"):
        np.bitwise_and(np.arange(3.0), 1)


@settings(max_examples=10)
@given(dt=st.sampled_from(INT), data=st.data())
def test_integer_division_by_zero_is_zero(dt, data):
    x = data.draw(arrays(dt, (6,)))
    y = data.draw(arrays(dt, (6,)))
    for name in ("floor_divide", "remainder", "fmod"):
        _check(name, x, y)
    _check("divmod", x, y)


# --------------------------------------------------------------------------
# out= and where=
# --------------------------------------------------------------------------
@settings(max_examples=10)
@given(dt=st.sampled_from(REAL), shape=pool_shapes(), data=st.data())
def test_out_and_where(dt, shape, data):
    x, y = data.draw(arrays(dt, shape)), data.draw(arrays(dt, shape))
    mask = data.draw(arrays(onp.bool_, shape))
    exp_add = _numpy(onp.add, x, y)
    out = np.zeros(shape, dtype=exp_add.dtype)
    alias = out
    r = np.add(np.asarray(x), np.asarray(y), out=out)
    assert r is out and alias is out
    assert_same(out, exp_add)
    # where=: untouched entries keep out's previous values
    base = data.draw(arrays(exp_add.dtype, shape))
    eo = base.copy()
    _numpy(onp.add, x, y, out=eo, where=mask)
    o = np.asarray(base.copy())
    np.add(np.asarray(x), np.asarray(y), out=o, where=np.asarray(mask))
    assert_same(o, eo)
    # positional out
    o2 = np.asarray(base.copy())
    np.multiply(np.asarray(x), np.asarray(y), o2)
    assert_same(o2, _numpy(onp.multiply, x, y).astype(exp_add.dtype))


def test_out_may_be_numpy_s_array():
    # an nditer's operand: the result is written into NumPy's memory
    def prog(m):
        o1, o2, o3, o4 = onp.full(3, 9.0), onp.full(2, 9.0), onp.zeros(2), onp.zeros((2, 3))
        r1 = m.add(m.ones(3), 1, out=o1, where=m.array([True, False, True]))
        r2 = m.sum(m.ones((2, 2)), axis=0, out=o2)
        r3 = m.divmod(m.arange(2.0), 2, out=(o3, onp.zeros(2)))
        m.multiply(m.arange(3), 2, o4)
        assert r1 is o1 and r2 is o2 and r3[0] is o3
        return o1, o2, o3, o4
    for g, w in zip(prog(np), prog(onp)):
        assert type(g) is onp.ndarray
        onp.testing.assert_array_equal(g, w)
    with pytest.raises(TypeError, match=r"^add: Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int64'\) with "
                                        r"casting rule 'same_kind'"):
        np.add(np.ones(3), 1, out=onp.zeros(3, int))


def test_out_casting_error():
    out = np.zeros(3, dtype=np.int64)
    with pytest.raises(TypeError, match="divide: Cannot cast ufunc 'divide' output from "
                                        "dtype\\('float64'\\)"):
        np.true_divide(np.arange(3), 2, out=out)


def test_dtype_argument():
    for dt in (onp.float32, onp.int16, onp.complex64):
        assert_same(np.add(np.arange(3), np.arange(3), dtype=dt),
                    onp.add(onp.arange(3), onp.arange(3), dtype=dt))


# --------------------------------------------------------------------------
# ufunc methods
# --------------------------------------------------------------------------
METHOD_UFUNCS = ["add", "multiply", "maximum", "subtract", "logical_and", "bitwise_xor"]


@pytest.mark.parametrize("name", METHOD_UFUNCS)
@settings(max_examples=10)
@given(data=st.data())
def test_reduce_accumulate(name, data):
    dts = [d for d in REAL if not (name.startswith("bitwise") and d in FLOAT)]
    dt = data.draw(st.sampled_from(dts))
    shape = data.draw(st.sampled_from([(3,), (2, 3), (2, 1, 3)]))
    x = data.draw(arrays(dt, shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    nu, u = getattr(onp, name), getattr(np, name)
    if name == "subtract" and dt is onp.bool_:
        with pytest.raises(TypeError, match="subtract"):
            u.accumulate(np.asarray(x), axis=axis)
        return
    assert_same(u.accumulate(np.asarray(x), axis=axis), _numpy(nu.accumulate, x, axis=axis))
    if name != "subtract":
        assert_same(u.reduce(np.asarray(x), axis=axis), _numpy(nu.reduce, x, axis=axis))


@pytest.mark.parametrize("name", ["add", "subtract", "power", "less"])
@settings(max_examples=10)
@given(data=st.data())
def test_outer(name, data):
    d1, d2 = data.draw(st.sampled_from(INT + FLOAT)), data.draw(st.sampled_from(INT + FLOAT))
    x = data.draw(arrays(d1, data.draw(st.sampled_from([(), (3,), (2, 3), (0,)]))))
    y = data.draw(arrays(d2, data.draw(st.sampled_from([(), (2,), (0,)]))))
    if name == "power":
        y = abs(y)
    exp = _numpy(getattr(onp, name).outer, x, y)
    tol = min([onp.dtype(d) for d in (d1, d2) if onp.dtype(d).kind == "f"] + [exp.dtype],
              key=lambda d: d.itemsize if d.kind in "fc" else 99)
    assert_same(getattr(np, name).outer(np.asarray(x), np.asarray(y)), exp, tol)


@settings(max_examples=10)
@given(dt=st.sampled_from(INT + FLOAT), data=st.data())
def test_at(dt, data):
    n = 4
    x = data.draw(arrays(dt, (n,)))
    idx = data.draw(st.lists(st.integers(-n, n - 1), min_size=3, max_size=3))
    v = data.draw(arrays(dt, (len(idx),)))
    for name in ("add", "multiply", "maximum", "subtract"):
        e = x.copy()
        getattr(onp, name).at(e, idx, v)
        a = np.asarray(x.copy())
        alias = a
        getattr(np, name).at(a, idx, np.asarray(v))
        assert_same(alias, e)
    e = x.copy()
    onp.negative.at(e, idx)
    a = np.asarray(x.copy())
    np.negative.at(a, idx)
    assert_same(a, e)


@settings(max_examples=8)
@given(data=st.data())
def test_reduceat(data):
    n = 5
    x = data.draw(arrays(onp.int16, (n, 2)))
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5))
    for name in ("add", "maximum", "multiply"):
        assert_same(getattr(np, name).reduceat(np.asarray(x), idx),
                    getattr(onp, name).reduceat(x, idx))
    with pytest.raises(IndexError, match=f"reduceat for axis 0 with size {n}"):
        np.add.reduceat(np.asarray(x), [n])


# --------------------------------------------------------------------------
# named operands: aligned by name, checked against NumPy broadcasting
# --------------------------------------------------------------------------
@st.composite
def named_operand(draw, sizes, dtypes, max_pos=2):
    """(numpy data, dims) with a random subset of the names, random physical order."""
    names = draw(st.lists(st.sampled_from(sorted(sizes)), unique=True))
    pos = draw(st.sampled_from([(), (3,), (2, 3), (1, 3)][:max_pos + 2]))
    dt = draw(st.sampled_from(dtypes))
    dims = [None] * len(pos) + names
    shape = list(pos) + [sizes[n] for n in names]
    perm = draw(st.permutations(range(len(dims))))
    dims = tuple(dims[i] for i in perm)
    data = draw(arrays(dt, tuple(shape[i] for i in perm)))
    return data, dims


def front(data, dims, union, npos):
    """NumPy array: ``union`` names in front (size 1 where absent), then the
    positional axes right-aligned to ``npos``."""
    pos = [i for i, d in enumerate(dims) if d is None]
    order = [dims.index(n) for n in union if n in dims] + pos
    a = onp.transpose(data, order)
    shp = []
    k = 0
    for n in union:
        if n in dims:
            shp.append(a.shape[k])
            k += 1
        else:
            shp.append(1)
    pshape = a.shape[k:]
    return a.reshape(tuple(shp) + (1,) * (npos - len(pshape)) + pshape)


def check_named(fn_na, fn_np, ops, tol_dt=None):
    """``fn_na`` on NamedArrays == ``fn_np`` on the NumPy arrays with the names in front."""
    union = sorted({d for _, dims in ops for d in dims if d is not None})
    npos = max(sum(d is None for d in dims) for _, dims in ops)
    res = fn_na(*[np.NamedArray(d, dims) for d, dims in ops])
    exp = _numpy(fn_np, *[front(d, dims, union, npos) for d, dims in ops])
    shp = onp.broadcast_shapes(*[front(d, dims, union, npos).shape for d, dims in ops])
    results = res if isinstance(res, tuple) else (res,)
    exps = exp if isinstance(exp, tuple) else (exp,)
    for r, e in zip(results, exps):
        e = onp.asarray(e)
        if tol_dt is None:
            tol_dt = min([d.dtype for d, _ in ops if d.dtype.kind in "fc"] + [e.dtype],
                         key=lambda d: d.itemsize if d.kind in "fc" else 99)
        assert set(r.names) == set(union)
        assert r.named_shape == dict(zip(union, shp[:len(union)]))
        assert_same(r.untag(*union), onp.broadcast_to(e, shp), tol_dt)


@pytest.mark.parametrize("name", ["add", "true_divide", "less", "divmod", "power"])
@settings(max_examples=10)
@given(data=st.data())
def test_named_binary(name, data):
    sizes = dict(zip(NAMES, data.draw(st.permutations([1, 2, 3, 2]))))
    dts = INT + FLOAT
    a = data.draw(named_operand(sizes, dts))
    b = data.draw(named_operand(sizes, dts))
    if name == "power" and b[0].dtype.kind in "iu":
        b = (abs(b[0]), b[1])
    try:
        onp.broadcast_shapes(a[0].shape[:0] + tuple(s for s, d in zip(a[0].shape, a[1])
                                                    if d is None),
                             tuple(s for s, d in zip(b[0].shape, b[1]) if d is None))
    except ValueError:
        with pytest.raises(ValueError):
            getattr(np, name)(np.NamedArray(*a), np.NamedArray(*b))
        return
    check_named(getattr(np, name), getattr(onp, name), [a, b])


@pytest.mark.parametrize("name", ["negative", "sin", "isnan", "invert", "modf"])
@settings(max_examples=6)
@given(data=st.data())
def test_named_unary(name, data):
    sizes = dict(zip(NAMES, data.draw(st.permutations([1, 2, 3, 2]))))
    dts = INT if name == "invert" else FLOAT
    a = data.draw(named_operand(sizes, dts))
    if not any(a[1]):
        a = (a[0][None], ("a",) + a[1]) if sizes["a"] == 1 else a
    check_named(getattr(np, name), getattr(onp, name), [a])


@settings(max_examples=10)
@given(data=st.data())
def test_named_scalar_and_plain_operands(data):
    sizes = dict(zip(NAMES, data.draw(st.permutations([1, 2, 3, 2]))))
    a = data.draw(named_operand(sizes, INT))
    x = np.NamedArray(*a)
    names = list(x.names)
    exp = front(a[0], a[1], names, x.ndim)
    assert_same((x * 2).untag(*names), exp * 2)
    assert_same((2.5 - x).untag(*names), 2.5 - exp)
    plain = onp.arange(3, dtype=onp.int16)
    if x.ndim == 0 or x.shape[-1] in (1, 3):
        exp1 = front(a[0], a[1], names, max(x.ndim, 1))
        assert_same((x + plain).untag(*names), exp1 + plain)


def test_named_size_mismatch_message():
    x = np.NamedArray(onp.zeros((2, 3)), ("a", None))
    y = np.NamedArray(onp.zeros((4,)), ("a",))
    with pytest.raises(ValueError, match=r"add: axis name 'a' has size 2 in argument 0"):
        np.add(x, y)


def test_named_out_and_inplace_alias():
    x = np.NamedArray(onp.arange(6.0).reshape(2, 3), ("a", None))
    alias = x
    x += np.NamedArray(onp.ones(2), ("a",))
    assert alias is x
    onp.testing.assert_array_equal(onp.asarray(alias.untag("a")),
                                   onp.arange(6.0).reshape(2, 3) + 1)
    out = np.zeros_like(x)
    np.multiply(x, 2, out=out)
    assert out.named_shape == {"a": 2}
    onp.testing.assert_array_equal(onp.asarray(out.untag("a")),
                                   (onp.arange(6.0).reshape(2, 3) + 1) * 2)
    with pytest.raises(ValueError, match="named axes"):
        y = np.zeros(3)
        y += np.NamedArray(onp.ones((2, 3)), ("b", None))


def test_named_where_and_clip():
    c = np.NamedArray(onp.array([True, False]), ("a",))
    x = np.arange(3.0)
    r = np.where(c, x, -1)
    exp = onp.where(onp.array([True, False])[:, None], onp.arange(3.0), -1)
    assert_same(r.untag("a"), exp)
    assert_same(np.clip(np.arange(5, dtype=np.int8), 1, 3),
                onp.clip(onp.arange(5, dtype=onp.int8), 1, 3))


def test_i0_of_complex_is_numpys_type_error():
    with pytest.raises(TypeError, match="i0: i0 not supported for complex values"):
        np.i0(np.asarray([1j]))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
@pytest.mark.parametrize("data, kw", [
    ([12, 18, 24], {}), ([[4, 6], [10, 15]], {"axis": 1}), ([[4, 6], [10, 15]], {"axis": None}),
    ([[4, 6], [10, 15]], {"axis": 0, "keepdims": True}), ([3, 9], {"initial": 2}),
    ([], {}), (onp.asarray([-128, 0, 64], onp.int8), {}),
])
def test_gcd_lcm_reduce_as_numpy(name, data, kw):
    a = onp.asarray(data, None if isinstance(data, onp.ndarray) else onp.int64)
    try:
        want = getattr(onp, name).reduce(a, **kw)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e).replace("'", ".")):
            getattr(np, name).reduce(np.asarray(a), **kw)
        return
    got = getattr(np, name).reduce(np.asarray(a), **kw)
    assert repr(got) == repr(want)


def test_ufunc_table_follows_numpy():
    """elementwise.py declares every NumPy ufunc that jax.numpy has (gufuncs
    aside) under each of NumPy's names, and no other: an alias is the same
    object exactly where NumPy's is, named as NumPy names it."""
    numpy_s = {n: f for n in dir(onp) if isinstance(f := getattr(onp, n), onp.ufunc)
               and f.__name__ not in elementwise._GUFUNCS and hasattr(jnp, f.__name__)}
    ours = {n: f for n, f in vars(elementwise).items()
            if isinstance(f, ufunc) and not n.startswith("_")}
    assert not set(numpy_s) - set(ours), "NumPy ufuncs without a row"
    assert not set(ours) - set(numpy_s), "rows that are not NumPy ufuncs"
    assert elementwise.UFUNCS.keys() == ours.keys()
    for n, f in ours.items():
        assert elementwise.UFUNCS[n] is f
        assert f.__name__ == numpy_s[n].__name__, n
        same_as = {m for m in ours if ours[m] is f}
        assert same_as == {m for m in numpy_s if numpy_s[m] is numpy_s[n]}, n

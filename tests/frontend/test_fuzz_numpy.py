"""Differential fuzz against NumPy: drawn functions, dtypes (every integer
width, uint64 included, floats, complex, bool), shapes (0-size, 0-d), axes,
index arrays in and out of range, NumPy scalars and big Python ints as
operands.  Each call must give NumPy's value and dtype, or raise NumPy's
exception class.  ``HYPOTHESIS_PROFILE=fuzz`` runs it long; ``ci`` runs a small
fixed slice."""
import warnings

import numpy as onp
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray.testing.strategies import DTYPES, elements

UNARY = ["negative", "absolute", "sqrt", "exp", "log1p", "sign", "floor", "isnan",
         "logical_not", "invert", "square", "positive", "conjugate", "rint"]
BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
          "power", "maximum", "minimum", "equal", "less", "greater_equal", "not_equal",
          "bitwise_and", "left_shift", "gcd", "lcm", "arctan2", "hypot", "logaddexp"]
REDUCE = ["sum", "prod", "mean", "max", "min", "argmax", "argmin", "any", "all", "std",
          "var", "median", "ptp", "cumsum", "nanmax", "nanargmin", "count_nonzero"]

SHAPES = hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)


@st.composite
def arrays(draw, shape=None):
    dt = onp.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(SHAPES) if shape is None else shape
    return draw(hnp.arrays(dt, shape, elements=elements(dt, small=draw(st.booleans())
                                                        and dt.kind != "f")))


@st.composite
def operands(draw, like):
    kind = draw(st.sampled_from(["array", "array", "pyint", "bigint", "pyfloat",
                                 "npscalar"]))
    if kind == "array":
        return draw(arrays(shape=draw(st.sampled_from([like.shape, like.shape[1:], ()]))))
    if kind == "pyint":
        return draw(st.integers(-300, 300))
    if kind == "bigint":
        return draw(st.sampled_from([2**63 - 1, 2**63, -2**63, 2**64 - 1, 2**64, -2**70]))
    if kind == "pyfloat":
        return draw(st.floats(-1e3, 1e3))
    dt = onp.dtype(draw(st.sampled_from(DTYPES)))
    return dt.type(draw(elements(dt)))


def ours(v):
    return np.asarray(v) if isinstance(v, onp.ndarray) else v


def check(f_np, f_ours):
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = f_np()
        except Exception as e:    # NumPy's class, or a subclass of it
            with pytest.raises(type(e) if type(e).__module__ == "builtins" else (
                    TypeError, ValueError, IndexError, OverflowError)):
                f_ours()
            return
        got = f_ours()
    exp = onp.asarray(exp)
    g = onp.asarray(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape, (g.dtype, exp.dtype, g.shape,
                                                           exp.shape)
    if exp.dtype.kind in "fc":
        tol = 1e-2 if exp.dtype.itemsize <= 4 else 1e-9
        if exp.dtype == onp.complex64:
            tol = 1e-2
        onp.testing.assert_allclose(g, exp, rtol=tol, atol=tol, equal_nan=True)
    else:
        onp.testing.assert_array_equal(g, exp)


@given(st.sampled_from(UNARY), arrays())
def test_unary(fn, x):
    check(lambda: getattr(onp, fn)(x), lambda: getattr(np, fn)(ours(x)))


@given(st.sampled_from(BINARY), st.data())
def test_binary(fn, data):
    x = data.draw(arrays())
    y = data.draw(operands(x))
    if data.draw(st.booleans()):
        x, y = y, x
    if not isinstance(x, onp.ndarray) and not isinstance(y, onp.ndarray):
        return
    check(lambda: getattr(onp, fn)(x, y), lambda: getattr(np, fn)(ours(x), ours(y)))


@given(st.sampled_from(REDUCE), st.data())
def test_reductions(fn, data):
    x = data.draw(arrays())
    axis = data.draw(st.sampled_from([None] + list(range(-x.ndim, x.ndim))))
    check(lambda: getattr(onp, fn)(x, axis=axis), lambda: getattr(np, fn)(ours(x),
                                                                         axis=axis))


@given(st.data())
def test_integer_indexing(data):
    x = data.draw(arrays(shape=data.draw(hnp.array_shapes(min_dims=1, max_dims=2,
                                                          max_side=4))))
    n = x.shape[0]
    ix = onp.asarray(data.draw(st.lists(st.integers(-n - 2, n + 2), max_size=4)),
                     dtype=onp.intp)
    holder = data.draw(st.sampled_from([list, onp.asarray, np.asarray]))
    ixo = holder(ix.tolist()) if len(ix) else ix
    check(lambda: x[ix], lambda: np.asarray(x)[ixo])
    check(lambda: onp.take(x, ix, axis=0), lambda: np.take(np.asarray(x), ixo, axis=0))

    def set_np():
        y = x.copy()
        y[ix] = 0
        return y

    def set_ours():
        y = np.asarray(x)
        y[ixo] = 0
        return y
    check(set_np, set_ours)

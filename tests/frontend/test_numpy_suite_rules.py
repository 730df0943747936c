"""Rules that NumPy's own unit tests check (``tests/numpy_suite``), each
stated generally and compared with NumPy.

* NumPy's ufuncs are ``np.ufunc``s (``isinstance(numpy.add, np.ufunc)``), as
  NumPy's arrays are ``np.ndarray``s, and equal to namedarray's of the same name.
* A ufunc of another library (one namedarray has no counterpart of: SciPy's
  special functions, a C extension's loops) given NamedArrays runs NumPy's
  call on NumPy copies of them (NumPy's ``__array_ufunc__`` protocol): NumPy's
  values and errors, its outputs written into NamedArrays; traced or named
  operands raise ``TypeError``.
* ``__array_ufunc__`` called with something that is not a ufunc raises
  ``TypeError``.
* An ``out=`` or ``where=`` that overrides ufuncs takes the call, as an
  operand does (NumPy's protocol asks inputs, outputs and the mask).
"""
from __future__ import annotations

import jax
import numpy
import pytest
from hypothesis import given, settings, strategies as st
from numpy._core import _umath_tests as ut

import namedarray as np
from namedarray import NamedArray


# -- NumPy's ufuncs are np.ufunc's ------------------------------------------
def test_numpy_ufuncs_are_ufuncs():
    umath = [v for v in vars(numpy._core.umath).values() if isinstance(v, numpy.ufunc)]
    assert umath and all(isinstance(u, np.ufunc) for u in umath)
    assert isinstance(np.add, np.ufunc) and type(np.add) is np.ufunc
    assert not isinstance(numpy.sum, np.ufunc) and not isinstance(1, np.ufunc)
    assert np.add == numpy.add and numpy.add == np.add and np.add != np.subtract


@pytest.mark.parametrize("uf", [numpy.maximum, numpy.logical_and, numpy.greater])
def test_numpy_ufunc_accumulate_on_namedarrays(uf):
    a = numpy.array([0, 1, 1, 0, 2] * 4, dtype=numpy.int32)
    got = uf.accumulate(np.asarray(a), dtype="?")
    assert isinstance(got, np.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), uf.accumulate(a, dtype="?"))


# -- another library's ufuncs ------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=6))
def test_foreign_gufunc_values(xs):
    a = numpy.array(xs)
    got = ut.inner1d(np.asarray(a), np.asarray(a[::-1]))
    want = ut.inner1d(a, a[::-1])
    assert isinstance(got, NamedArray) and np.isscalar(got) == numpy.isscalar(want)
    assert float(got) == float(want)


def test_foreign_ufunc_methods_raise_numpys_error():
    a = np.arange(3.0)
    for call in (lambda: ut.always_error(a, a), lambda: ut.always_error.outer(a, a),
                 lambda: ut.always_error.reduce(a), lambda: ut.always_error.accumulate(a),
                 lambda: ut.always_error.reduceat(a, [0, 1]),
                 lambda: ut.always_error.at(a, [0, 1, 2], a),
                 lambda: ut.always_error_gufunc(a, 0.0)):
        with pytest.raises(RuntimeError, match="How unexpected"):
            call()


def test_foreign_ufunc_outputs_are_written():
    a = numpy.arange(5.0)
    out = np.zeros(5)
    assert ut.cumsum(np.asarray(a), out=out) is out
    numpy.testing.assert_array_equal(numpy.asarray(out), ut.cumsum(a))
    # a foreign ufunc of one of NumPy's names is still the foreign one
    m = numpy.arange(6.0).reshape(2, 3)
    got = ut.matmul(np.asarray(m), np.asarray(m.T))
    assert isinstance(got, np.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), ut.matmul(m, m.T))
    # ``at`` writes into its NamedArray, as into NumPy's
    f = numpy.frompyfunc(lambda u, v: u + v, 2, 1)
    x, want = np.zeros(4), numpy.zeros(4)
    f.at(want, [0, 0, 2], 1.5)
    f.at(x, [0, 0, 2], 1.5)
    numpy.testing.assert_array_equal(numpy.asarray(x), want)


def test_foreign_ufunc_of_another_library():
    sp = pytest.importorskip("scipy.special")
    x = numpy.linspace(0.5, 4.0, 5)
    got = sp.gammaln(np.asarray(x))
    assert isinstance(got, np.ndarray) and got.dtype == numpy.float64
    numpy.testing.assert_array_equal(numpy.asarray(got), sp.gammaln(x))
    s = sp.gammaln(np.float64(3.0))
    assert np.isscalar(s) and float(s) == sp.gammaln(3.0)


def test_foreign_ufunc_refuses_traced_and_named_operands():
    x = np.arange(3.0)
    with pytest.raises(TypeError, match=r"inner1d: not one of namedarray's ufuncs, it "
                                        r"runs on NumPy copies of its operands, which "
                                        r"traced values \(jit, grad, vmap, nmap\) have "
                                        r"none of; call it outside the transform"):
        jax.jit(lambda v: ut.inner1d(v, v))(x)
    with pytest.raises(TypeError, match=r"inner1d: not one of namedarray's ufuncs, it "
                                        r"runs on NumPy copies of positional arrays "
                                        r"\(untag the named axes \{'a': 3\} first\)"):
        ut.inner1d(x.tag("a"), x.tag("a"))
    f = np.frompyfunc(lambda v: v + 1, 1, 1)       # (NumPy's object ufunc: the same)
    with pytest.raises(TypeError, match="not one of namedarray's ufuncs"):
        jax.jit(lambda v: f(v))(x)


# -- the protocol's arguments ------------------------------------------------
def test_array_ufunc_called_with_no_ufunc():
    a = np.array(1)
    with pytest.raises(TypeError):
        a.__array_ufunc__()
    with pytest.raises(TypeError):
        a.__array_ufunc__(1, 2)
    assert int(a.__array_ufunc__(np.add, "__call__", a, a)) == 2


class _Raises:
    def __array_ufunc__(self, *args, **kwargs):
        raise ValueError("oops")


@pytest.mark.parametrize("call", [
    lambda m, o: m.negative(1, out=o),
    lambda m, o: m.negative(o),
    lambda m, o: m.divide(1.0, o),
    lambda m, o: m.add(1, 2, where=o),
    lambda m, o: m.add(m.ones(2), 2, out=(o,)),
])
def test_out_and_where_overrides_take_the_call(call):
    with pytest.raises(ValueError, match="oops"):
        call(numpy, _Raises())
    with pytest.raises(ValueError, match="oops"):
        call(np, _Raises())


def test_numpy_gufuncs_stay_namedarrays_functions():
    # NumPy's own gufuncs (and its ufuncs namedarray has a function of the
    # name for) run namedarray's function, traced too; a foreign one of the
    # same name does not
    x = np.ones((2, 2))
    got = jax.jit(lambda v: numpy.matmul(v, v))(x)
    assert isinstance(got, NamedArray)
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.full((2, 2), 2.0))
    with pytest.raises(TypeError, match="matmul: not one of namedarray's ufuncs"):
        jax.jit(lambda v: ut.matmul(v, v))(x)

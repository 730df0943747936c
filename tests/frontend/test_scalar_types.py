"""namedarray's scalars pass NumPy's and Python's ``isinstance`` checks as
NumPy's scalars do, and arrays (0-d arrays included) fail them as NumPy's do.

A scalar reports NumPy's scalar type of its dtype as its ``__class__``
(``core/array.py``, ``NamedArray.__class__``), which ``isinstance`` reads:
``isinstance(n, (int, np.integer))``, ``np.generic``, ``numbers.Integral``,
``float`` (NumPy's float64 is one) take NumPy's branch, with the namespace's
names and NumPy's own alike, for every dtype and every way a scalar arises,
its data on the host or on a device.  ``type(s)`` stays ``NamedArray`` (and
``isinstance(s, NamedArray)`` true); a traced scalar is an array there.
"""
from __future__ import annotations

import copy
import fractions
import numbers
import pickle

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray.core.array import is_value

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
#: NumPy's abstract scalar types, Python's number ABCs and types, every
#: concrete scalar type (the array type: the namespace's ``ndarray``, NAMES)
CLASSES = [onp.generic, onp.number, onp.integer, onp.signedinteger, onp.unsignedinteger,
           onp.inexact, onp.floating, onp.complexfloating, onp.bool_, numbers.Number,
           numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral, bool, int,
           float, complex] + [onp.dtype(d).type for d in DTYPES]
#: the same through the namespace (namedarray.integer, ...; ndarray is namedarray's)
NAMES = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
         "floating", "complexfloating", "bool_", "ndarray"] + DTYPES


def _scalars(dt):
    """(how, namedarray's scalar of value 1 or True of ``dt``): every way one arises."""
    a = onp.ones(3, dt)
    x = np.asarray(a)
    d = np.asarray(jnp.asarray(a))      # data on a device
    m = np.asarray(onp.ones((2, 2), dt))
    yield "element read", x[1]
    yield "element of a 2-d array", m[1, 0]
    yield "iteration", next(iter(x))
    yield "full reduction", np.max(x)
    yield "method reduction", x.min()
    yield "element of device data", d[2]
    yield "reduction of device data", d.max()
    yield "device scalar", np.NamedArray(jnp.asarray(a[0]))
    yield "ufunc of a scalar", np.positive(x[0]) if dt != "bool" else np.logical_and(x[0], x[1])
    yield "scalar arithmetic", (x[0] * x[1]) if dt != "bool" else (x[0] & x[1])
    yield "copy of a scalar", copy.copy(x[0])
    yield "pickled scalar", pickle.loads(pickle.dumps(x[0]))


def _arrays(dt):
    """(how, an array of ``dt``): none of them is one of NumPy's scalars."""
    a = onp.ones(3, dt)
    yield "array", np.asarray(a)
    yield "0-d array", np.asarray(a[0])
    yield "0-d array of a scalar", np.asarray(np.asarray(a)[0])
    yield "0-d array on a device", np.asarray(jnp.asarray(a[0]))
    yield "0-d view", np.asarray(a)[1:2].reshape(())
    yield "named 0-d value", np.asarray(a).tag("b")


@pytest.mark.parametrize("dt", DTYPES)
def test_scalars_pass_numpys_isinstance_checks(dt):
    ref = onp.ones((), dt)[()]
    want = [isinstance(ref, c) for c in CLASSES]
    for how, s in _scalars(dt):
        assert type(s) is np.NamedArray and is_value(s), how
        assert isinstance(s, np.NamedArray), how
        got = [isinstance(s, c) for c in CLASSES]
        assert got == want, (dt, how, [c for c, g, w in zip(CLASSES, got, want) if g != w])
        got = [isinstance(s, getattr(np, n)) for n in NAMES]
        assert got == [isinstance(ref, getattr(onp, n)) for n in NAMES], (dt, how)
        assert s.__class__ is type(ref) and not isinstance(s, onp.ndarray), (dt, how)


@pytest.mark.parametrize("dt", DTYPES)
def test_arrays_fail_the_scalar_checks(dt):
    want = [isinstance(onp.ones((), dt), c) for c in CLASSES]   # NumPy's 0-d array
    for how, x in _arrays(dt):
        assert isinstance(x, np.NamedArray) and isinstance(x, np.ndarray), how
        assert [isinstance(x, c) for c in CLASSES] == want, (dt, how)
        assert [isinstance(x, getattr(np, n)) for n in NAMES] == [
            isinstance(onp.ones((), dt), getattr(onp, n)) for n in NAMES], (dt, how)
        assert x.__class__ is type(x), (dt, how)


def test_the_idioms_take_numpys_branch():
    n = np.arange(5).sum()
    assert isinstance(n, (int, onp.integer)) and isinstance(n, np.integer)
    assert isinstance(n, numbers.Integral) and not isinstance(n, int)
    assert not isinstance(n, np.ndarray) and not isinstance(n, onp.ndarray)
    f = np.linspace(0.0, 1.0, 3)[1]
    assert isinstance(f, float) and isinstance(f, numbers.Real) and isinstance(f, np.floating)
    f32 = np.ones(2, np.float32)[0]
    assert not isinstance(f32, float) and isinstance(f32, np.floating)
    z = np.ones(2, complex)[0]
    assert isinstance(z, complex) and isinstance(z, numbers.Complex)
    b = np.arange(3)[1] > 0
    assert isinstance(b, np.bool_) and not isinstance(b, (bool, numbers.Number))
    # NumPy's own scalars (namedarray.float64 is numpy.float64) pass as before
    assert isinstance(np.float64(2.0), float) and isinstance(np.int64(3), np.integer)
    # Python's number types read a scalar as NumPy's: Fraction takes a float64
    # as a float and an int64 as Rational, as with NumPy's scalars
    q = fractions.Fraction(1, 3)
    assert repr(q + f) == repr(q + onp.float64(0.5)) == "np.float64(0.8333333333333333)"
    assert q ** np.arange(4)[3] == fractions.Fraction(1, 27)
    # the common dispatch: a scalar goes NumPy's way
    kind = lambda v: "int" if isinstance(v, (int, np.integer)) else "array"  # noqa: E731
    assert kind(n) == kind(onp.int64(10)) == "int" and kind(np.arange(2)) == "array"


def test_a_scalar_keeps_its_protocols():
    s = np.arange(5).sum()
    assert repr(s) == "np.int64(10)" and str(s) == "10" and hash(s) == hash(onp.int64(10))
    t = pickle.loads(pickle.dumps(s))
    assert type(t) is np.NamedArray and is_value(t) and int(t) == 10
    leaves, tree = jax.tree_util.tree_flatten({"n": s})
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)
    back = jax.tree_util.tree_unflatten(tree, leaves)["n"]
    assert type(back) is np.NamedArray and isinstance(back, np.integer)
    assert int(jax.jit(lambda v: v * 2)(s)) == 20
    # traced, a scalar has no value: it is an array there, not NumPy's scalar
    seen = []
    jax.jit(lambda v: seen.append((isinstance(v, onp.generic), isinstance(v, np.ndarray),
                                   isinstance(v, np.NamedArray))) or v)(s)
    assert seen == [(False, True, True)]
    assert np.isscalar(s) and onp.isscalar(s) and not onp.isscalar(np.asarray(s))

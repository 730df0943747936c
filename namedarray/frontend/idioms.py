"""NumPy's index helpers and predicates as NumPy programs use them:
``mgrid``/``ogrid``/``r_``/``c_`` give NamedArrays, ``s_``/``index_exp`` and
``True_``/``False_`` are NumPy's own objects, and ``allclose``,
``array_equal``, ``array_equiv`` return Python bools.

>>> import namedarray as np
>>> np.mgrid[0:2, 0:3].shape, np.r_[1:3, 7], np.allclose(np.ones(2), 1.0)
((2, 2, 3), array([1, 2, 7]), True)
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, align, operand
from .engines.results import wrap_result

True_, False_ = onp.True_, onp.False_
s_, index_exp = onp.s_, onp.index_exp


def _plain(v):
    if isinstance(v, NamedArray):
        return v._plain("index helper")
    if isinstance(v, tuple):
        return tuple(_plain(i) for i in v)
    return v


class _Grid:
    """An object that indexes (``mgrid[0:2, 0:3]``) and answers with NamedArrays."""

    def __init__(self, name, jobj):
        self._name, self._j = name, jobj

    def __getitem__(self, key):
        return wrap_result(self._j[_plain(key)])

    def __repr__(self):
        return f"<namedarray {self._name}>"


mgrid = _Grid("mgrid", jnp.mgrid)
ogrid = _Grid("ogrid", jnp.ogrid)
r_ = _Grid("r_", jnp.r_)
c_ = _Grid("c_", jnp.c_)


def _pair(fn, a, b):
    """The two operands' data, named axes aligned by name."""
    ops = [operand(a), operand(b)]
    if any(isinstance(o, NamedArray) and (o.names or o.mapped) for o in ops):
        ops = [o if isinstance(o, NamedArray) else operand(jnp.asarray(o)) for o in ops]
        return align(fn, ops)[0]
    return [o.data if isinstance(o, NamedArray) else jnp.asarray(o) for o in ops]


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.allclose``: a Python bool."""
    x, y = _pair("allclose", a, b)
    return bool(jnp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """``numpy.array_equal``: a Python bool."""
    if isinstance(a1, NamedArray) and isinstance(a2, NamedArray) and \
            a1.named_shape != a2.named_shape:
        return False
    x, y = _pair("array_equal", a1, a2)
    return bool(jnp.array_equal(x, y, equal_nan=equal_nan))


def array_equiv(a1, a2):
    """``numpy.array_equiv``: a Python bool."""
    x, y = _pair("array_equiv", a1, a2)
    return bool(jnp.array_equiv(x, y))


__all__ = ["True_", "False_", "s_", "index_exp", "mgrid", "ogrid", "r_", "c_",
           "allclose", "array_equal", "array_equiv"]

"""Joining arrays: ``stack``, ``concatenate`` (an ``axis`` may be a name), the
``*stack`` family and ``append``, in NumPy's result dtype.

>>> import namedarray as np
>>> np.stack([np.zeros(2), np.ones(2)], axis="k").named_shape
{'k': 2}
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, positional, rewrap, unknown_name
from .engines.args import np_asarray, numpy_args
from .engines.generic import generic, wrap
from .engines.out import store_out
from .engines.select import result_type


def _join_check(fn, xs, axis, new_axis):
    if not xs:
        raise ValueError(f"{fn}: need at least one array to {fn}")
    nds = [x.ndim for x in xs]
    if new_axis:
        shapes = {x.shape for x in xs}
        if len(shapes) > 1:
            raise ValueError(f"{fn}: all input arrays must have the same shape, got "
                             f"{[x.shape for x in xs]}")
    elif axis is not None:
        if len(set(nds)) > 1:
            raise ValueError(f"{fn}: all the input arrays must have the same number of "
                             f"dimensions, got shapes {[x.shape for x in xs]}")
        if nds[0] == 0:
            raise ValueError(f"{fn}: zero-dimensional arrays cannot be concatenated")
        ax = normalize_axis(fn, axis, nds[0])
        for i, x in enumerate(xs):
            if x.shape[:ax] + x.shape[ax + 1:] != xs[0].shape[:ax] + xs[0].shape[ax + 1:]:
                raise ValueError(
                    f"{fn}: all the input array dimensions except for the concatenation "
                    f"axis must match exactly, but along dimension "
                    f"{next(j for j in range(nds[0]) if j != ax and x.shape[j] != xs[0].shape[j])}"
                    f", the array at index 0 has shape {xs[0].shape} and the array at "
                    f"index {i} has shape {x.shape}")


def operands(arrays):
    if isinstance(arrays, NamedArray):
        return [arrays[i] for i in range(len(arrays))]
    return [a if isinstance(a, NamedArray) else positional(np_asarray(a)) for a in arrays]


def join_dtype(xs, dtype):
    return dtype if dtype is not None else result_type(*xs)


def cast_all(xs, dtype=None):
    dt = join_dtype(xs, dtype)
    return [x if x.dtype == dt else rewrap(x, x.data.astype(dt)) for x in xs]


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.stack``; ``axis="name"`` stacks along a new *named* axis."""
    xs = operands(arrays)
    _join_check("stack", xs, axis, True)
    dt = join_dtype(xs, dtype)
    if isinstance(axis, str):
        res = generic("stack", jnp.stack, (xs,), {"axis": 0, "dtype": dt})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    normalize_axis("stack", axis, xs[0].ndim + 1)
    res = generic("stack", jnp.stack, (xs,), {"axis": axis, "dtype": dt})
    return store_out("stack", out, res)


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate``; ``axis="name"`` joins along a named axis."""
    xs = operands(arrays)
    if isinstance(axis, str):
        for i, x in enumerate(xs):
            if axis not in x.named_shape:
                raise unknown_name("concatenate", "axis", axis, x, f"argument {i}")
        parts = [x.untag(axis) for x in xs]
        res = generic("concatenate", jnp.concatenate, (parts,),
                       {"axis": 0, "dtype": join_dtype(xs, dtype)})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    _join_check("concatenate", xs, axis, False)
    res = generic("concatenate", jnp.concatenate, (xs,),
                   {"axis": axis, "dtype": join_dtype(xs, dtype)})
    return store_out("concatenate", out, res)


def concat(arrays, /, *, axis=0):
    """``numpy.concat`` (the Array API's name): ``concatenate``, NumPy's
    dtype promotion included (``jnp.concat`` promoted int16 with float16 to
    float16; NumPy gives float32)."""
    return concatenate(arrays, axis=axis)


def _stacker(name):
    jfn = getattr(jnp, name)

    def f(tup, *, dtype=None, casting="same_kind"):
        xs = operands(tup)
        if not xs:
            raise ValueError(f"{name}: need at least one array to concatenate")
        return generic(name, jfn, (cast_all(xs, dtype),), {})
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}`` (NumPy's result dtype); named axes are mapped over."
    return f


hstack = _stacker("hstack")


vstack = _stacker("vstack")


dstack = _stacker("dstack")


column_stack = _stacker("column_stack")


def append(arr, values, axis=None):
    """``numpy.append`` (NumPy's result dtype); ``axis`` may name an axis
    (``concatenate`` along it).

    >>> import namedarray as np
    >>> np.append(np.zeros(2).tag("b"), np.ones(1).tag("b"), axis="b").named_shape
    {'b': 3}
    """
    if isinstance(axis, str):
        return concatenate([arr, values], axis=axis)
    xs = cast_all(operands([arr, values]))
    if axis is not None:
        _join_check("append", xs, axis, False)
    return generic("append", jnp.append, (xs[0], xs[1]), {"axis": axis})


_insert = wrap(numpy_args(jnp.insert, "insert"), "insert")


def insert(arr, obj, values, axis=None):
    """``numpy.insert``; an integer index outside ``[-n, n]`` is NumPy's
    ``IndexError`` (``jax.numpy`` clips it, which would insert elsewhere).

    >>> import namedarray as np
    >>> np.insert(np.array([1, 2]), -1, 9)
    array([1, 9, 2])
    """
    x = operands([arr])[0]
    if not isinstance(obj, slice):
        idx = onp.asarray(obj.data if isinstance(obj, NamedArray) else obj)
        if idx.dtype.kind in "iu" and idx.size:
            n = x.size if axis is None else x.shape[normalize_axis("insert", axis,
                                                                    x.ndim)]
            bad = idx[(idx < -n) | (idx > n)]
            if bad.size:
                ax = 0 if axis is None else axis
                raise IndexError(f"insert: index {bad.flat[0]} is out of bounds for "
                                 f"axis {ax} with size {n}")
    if isinstance(values, (int, float, complex, list, tuple)):
        try:        # NumPy casts host values as numpy.array(values, dtype=arr.dtype)
            onp.array(values, dtype=x.dtype)
        except OverflowError as e:
            raise OverflowError(f"insert: {e}") from None
    return _insert(x, obj, values, axis=axis)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    return vstack(tup, dtype=dtype, casting=casting)


__all__ = ["stack", "concatenate", "concat", "hstack", "vstack", "dstack", "column_stack", "append",
           "insert", "row_stack"]

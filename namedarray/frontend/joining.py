"""Joining arrays: ``stack``, ``concatenate`` (an ``axis`` may be a name, see
``engines/join.py``), the ``*stack`` family, ``block`` and ``append``, in
NumPy's result dtype.

>>> import namedarray as np
>>> np.stack([np.zeros(2), np.ones(2)], axis="k").named_shape
{'k': 2}
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, operand, rewrap
from .engines.args import numpy_args, numpy_promoted
from .engines.generic import generic, wrap
from .engines.join import (_join_check, _out_shape, concatenate, join_dtype, joined_order,
                           operands)
from .engines.out import store_out
from .engines.views import contiguous, fortran


def cast_all(xs, dtype=None, casting="same_kind", fn="concatenate"):
    dt = join_dtype(xs, dtype, casting, fn)
    return [x if x.dtype == dt else rewrap(x, x.data.astype(dt)) for x in xs]


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.stack``; ``axis="name"`` stacks along a new *named* axis."""
    xs = operands(arrays, "stack")
    _join_check("stack", xs, axis, True)
    dt = join_dtype(xs, dtype, casting, "stack", out)
    if isinstance(axis, str):
        res = generic("stack", jnp.stack, (xs,), {"axis": 0, "dtype": dt})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    normalize_axis("stack", axis, xs[0].ndim + 1)
    res = generic("stack", jnp.stack, (xs,), {"axis": axis, "dtype": dt})
    return store_out("stack", out, _out_shape("stack", out, res))


def concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concat`` (NumPy's alias of ``concatenate``), NumPy's dtype
    promotion included (``jnp.concat`` promoted int16 with float16 to
    float16; NumPy gives float32)."""
    return concatenate(arrays, axis=axis, out=out, dtype=dtype, casting=casting)


def _stacker(name):
    jfn = getattr(jnp, name)

    def f(tup, *, dtype=None, casting="same_kind"):
        xs = operands(tup, name)
        if not xs:
            raise ValueError(f"{name}: need at least one array to concatenate")
        res = generic(name, jfn, (cast_all(xs, dtype, casting, name),), {})
        # (dstack joins along a new axis of each part: C order, as NumPy's)
        return res if name == "dstack" else joined_order(xs, res)
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
    res = generic("append", jnp.append, (xs[0], xs[1]), {"axis": axis})
    return res if axis is None else joined_order(xs, res)


_insert = wrap(numpy_args(jnp.insert, "insert"), "insert")
_delete = wrap(numpy_args(jnp.delete, "delete"), "delete")


def _index_obj(fn, x, obj, axis):
    """``obj`` of ``numpy.insert``/``numpy.delete`` as NumPy reads it: a
    slice; or integer indices (a Python int stays one), each in ``[-n, n)``
    (insert: ``[-n, n]``), else NumPy's ``IndexError``; an empty list or
    tuple is no index; another non-integer dtype is NumPy's ``IndexError``;
    a boolean ``obj`` is a mask (delete's: of the axis's length), one-dimensional
    (NumPy's ``ValueError`` otherwise)."""
    if isinstance(obj, slice):
        return obj
    n = x.size if axis is None else x.shape[normalize_axis(fn, axis, x.ndim)]
    if isinstance(obj, NamedArray):
        obj = obj._plain(fn)
    idx = onp.asarray(obj)
    if idx.size == 0 and isinstance(obj, (list, tuple)):
        idx = idx.astype(onp.intp)
    if idx.dtype == bool and fn == "delete":
        if idx.ndim != 1 or idx.size != n:
            raise ValueError(
                f"delete: boolean array argument obj to delete must be one dimensional "
                f"and match the axis length of {n} (got shape {idx.shape})")
        return onp.flatnonzero(idx)
    if idx.dtype == bool or idx.ndim > 1 and fn == "insert":
        if idx.ndim != 1:
            raise ValueError(f"insert: {'boolean' if idx.dtype == bool else 'index'} array "
                             f"argument obj to insert must be one dimensional (got shape "
                             f"{idx.shape})")
        return onp.flatnonzero(idx)
    if idx.dtype.kind not in "iu":
        if fn == "insert" and idx.ndim == 0:
            raise TypeError(f"insert: slice indices must be integers or None or have an "
                            f"__index__ method (got obj={obj!r})")
        raise IndexError(f"{fn}: arrays used as indices must be of integer (or boolean) "
                         f"type (got obj of dtype {idx.dtype})")
    top = n + 1 if fn == "insert" else n
    bad = idx[(idx < -n) | (idx >= top)]
    if bad.size:
        raise IndexError(f"{fn}: index {bad.flat[0]} is out of bounds for axis "
                         f"{0 if axis is None else axis} with size {n}")
    return int(idx) if idx.ndim == 0 and not isinstance(obj, onp.ndarray) else idx


def _kept_order(x, res):
    """``res`` in NumPy's memory order for insert/delete: Fortran where
    ``x`` is Fortran- and not C-contiguous."""
    if res.ndim > 1 and x.ndim > 1 and not x.names and contiguous(x, "F") and \
            not contiguous(x, "C"):
        return fortran(res)
    return res


def insert(arr, obj, values, axis=None):
    """``numpy.insert``; an integer index outside ``[-n, n]`` is NumPy's
    ``IndexError`` (``jax.numpy`` clips it, which would insert elsewhere).

    >>> import namedarray as np
    >>> np.insert(np.array([1, 2]), -1, 9)
    array([1, 9, 2])
    """
    x = operands([arr])[0]
    obj = _index_obj("insert", x, obj, axis)
    if isinstance(values, (int, float, complex, list, tuple)):
        try:        # NumPy casts host values as numpy.array(values, dtype=arr.dtype)
            onp.array(values, dtype=x.dtype)
        except OverflowError as e:
            raise OverflowError(f"insert: {e}") from None
    return _kept_order(x, _insert(x, obj, values, axis=axis))


def delete(arr, obj, axis=None):
    """``numpy.delete``: NumPy's reading of ``obj`` (a boolean mask of the
    axis's length, integer indices in range) and NumPy's memory order.

    >>> import namedarray as np
    >>> np.delete(np.arange(5), [True, False, False, True, False])
    array([1, 2, 4])
    """
    x = operand(arr)
    return _kept_order(x, _delete(x, _index_obj("delete", x, obj, axis), axis=axis))


def row_stack(tup, *, dtype=None, casting="same_kind"):
    return vstack(tup, dtype=dtype, casting=casting)


def _block(arrays):
    """``numpy.block``: the nested blocks joined, in NumPy's common dtype of
    them (``jnp.block`` gives float16 for int16 with float16 blocks).

    >>> import namedarray as np
    >>> np.block([[np.ones(2, dtype=np.int16)], [np.ones(2, dtype=np.float16)]]).dtype
    dtype('float32')
    """
    return jnp.block(numpy_promoted(arrays))


_block.__name__ = _block.__qualname__ = "block"


_jblock = wrap(_block, "block")


# jax.numpy: its own promotion (float16 for int16 with float16 blocks)
def block(arrays):
    """``numpy.block`` in NumPy's common dtype of the blocks, and in Fortran
    order where every block is Fortran-contiguous (NumPy's joined layout).

    >>> import namedarray as np
    >>> np.block([[np.ones(2, dtype=np.int16)], [np.ones(2, dtype=np.float16)]]).dtype
    dtype('float32')
    """
    res = _jblock(arrays)
    parts = [v for v in _blocks(arrays) if isinstance(v, NamedArray)]
    return joined_order(parts, res) if parts and isinstance(res, NamedArray) else res


def _blocks(a):
    if isinstance(a, list):
        for v in a:
            yield from _blocks(v)
    else:
        yield a


__all__ = ["stack", "concatenate", "concat", "hstack", "vstack", "dstack",
           "column_stack", "append", "insert", "delete", "row_stack", "block"]

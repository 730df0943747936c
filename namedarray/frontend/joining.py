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

from ..core.array import NamedArray, normalize_axis, rewrap
from .engines.args import numpy_args, numpy_promoted
from .engines.generic import generic, wrap
from .engines.join import (_join_check, _out_shape, concatenate, join_dtype, joined_order,
                           operands)
from .engines.out import store_out


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
           "column_stack", "append", "insert", "row_stack", "block"]

"""Indexing: ``x[idx]`` and ``x[idx] = v`` on the positional axes.

Named axes ride along: the index is applied to the leading (positional)
physical axes and full slices are appended for the trailing named ones.
Assignment rebinds ``x.data`` functionally (``.at[].set``), so every Python
name that holds ``x`` sees the change, as in NumPy.
"""
from __future__ import annotations

import jax.numpy as jnp

from ._core import NamedArray, new, operand, positional
from ._dispatch import vmap_names, wrap_result


def _data_index(idx):
    if isinstance(idx, NamedArray):
        return idx.data
    if isinstance(idx, list):
        return jnp.asarray(idx) if idx and not any(
            isinstance(i, (slice, type(Ellipsis), type(None))) for i in idx) else idx
    if isinstance(idx, tuple):
        return tuple(_data_index(i) for i in idx)
    return idx


def _named_index(idx) -> bool:
    if isinstance(idx, NamedArray):
        return bool(idx.names)
    if isinstance(idx, tuple):
        return any(_named_index(i) for i in idx)
    return False


def _full(idx, k):
    """Index for the physical data: ``idx`` on the positional axes, ``:`` on k names."""
    if not k:
        return idx
    idx = idx if isinstance(idx, tuple) else (idx,)
    if not any(i is Ellipsis for i in idx):
        idx = idx + (Ellipsis,)
    return idx + (slice(None),) * k


def getitem(x: NamedArray, idx):
    if _named_index(idx):
        # named index arrays: map over their names (and x's)
        return vmap_names("__getitem__", lambda d, i: d[i], (x, idx), {})
    idx = _data_index(idx)
    k = len(x.dims) - x.dims.count(None)
    if not k:
        return positional(x.data[idx])
    res = x.data[_full(idx, k)]
    return new(res, (None,) * (res.ndim - k) + x.dims[len(x.dims) - k:])


def setitem(x: NamedArray, idx, value):
    if _named_index(idx):
        raise TypeError("__setitem__: an index with named axes is not supported; "
                        "index with positional arrays")
    idx = _data_index(idx)
    value = operand(value)
    k = len(x.dims) - x.dims.count(None)
    if not k and not (isinstance(value, NamedArray) and value.names):
        v = value.data if isinstance(value, NamedArray) else value
        x.data = x.data.at[idx].set(jnp.asarray(v).astype(x.dtype) if not isinstance(
            v, (int, float, bool, complex)) else v)
        return
    region = getitem(x, idx)
    region._assign("__setitem__", value if isinstance(value, NamedArray)
                   else positional(jnp.asarray(value)))
    x.data = x.data.at[_full(idx, k)].set(region.data)


def nonzero(a):
    """``numpy.nonzero`` (positional arrays only: the result size is data dependent)."""
    x = operand(a)
    if isinstance(x, NamedArray) and x.names:
        raise TypeError(f"nonzero: the array has named axes {x.named_shape}; the number "
                        "of nonzeros differs per name, untag them first")
    return wrap_result(jnp.nonzero(x.data if isinstance(x, NamedArray) else x))

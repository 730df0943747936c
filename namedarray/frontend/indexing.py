"""Indexing: ``x[idx]`` and ``x[idx] = v`` on the positional axes.

Named axes ride along: the index is applied to the leading (positional)
physical axes and full slices are appended for the trailing named ones.
Assignment rebinds ``x.data`` functionally (``.at[].set``), so every Python
name that holds ``x`` sees the change, as in NumPy.
"""
from __future__ import annotations

import operator

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, new, operand, positional, rewrap, view
from .engines.generic import vmap_names
from .engines.results import wrap_result
from .index_rules import check_bounds, check_broadcast, scalar_bools, wide_index


def _data_index(idx):
    if isinstance(idx, NamedArray):
        return wide_index(idx.data)
    if isinstance(idx, (jax.Array, onp.ndarray)):
        return wide_index(idx)
    if isinstance(idx, list):
        if any(isinstance(i, (slice, type(Ellipsis), type(None))) for i in idx):
            return idx
        h = onp.asarray([i.tolist() if isinstance(i, NamedArray) else i for i in idx])
        return jnp.asarray(h.astype(onp.intp) if h.size == 0 else h)
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


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
              "and integer or boolean arrays are valid indices")


def check_index(fn, shape, idx):
    """NumPy's static index errors: out-of-bounds ints (and host integer arrays),
    float indices, too many indices.  Device index arrays are not synced."""
    items = idx if isinstance(idx, tuple) else (idx,)
    consumed = []
    for it in items:
        if it is None:
            consumed.append(0)
        elif it is Ellipsis:
            consumed.append(-1)
        elif isinstance(it, (bool, onp.bool_)):
            consumed.append(0)
        elif isinstance(it, (NamedArray, jax.Array, onp.ndarray, list)):
            dt = getattr(it, "dtype", None)
            if dt is None:
                h = onp.asarray(it)
                dt = h.dtype if h.size else onp.dtype(onp.intp)
            consumed.append(len(getattr(it, "shape", onp.shape(it))) if dt == bool else 1)
            if dt != bool and onp.dtype(dt).kind not in "iu":
                raise IndexError(f"{fn}: {_BAD_INDEX}; got an array of dtype {dt}")
        elif isinstance(it, slice):
            consumed.append(1)
        else:
            try:
                operator.index(it)
            except TypeError:
                raise IndexError(f"{fn}: {_BAD_INDEX}; got {it!r}") from None
            consumed.append(1)
    if consumed.count(-1) > 1:
        raise IndexError(f"{fn}: an index can only have a single ellipsis ('...')")
    check_broadcast(fn, items)
    used = sum(c for c in consumed if c > 0)
    if used > len(shape):
        raise IndexError(f"{fn}: too many indices for array: array is {len(shape)}-"
                         f"dimensional, but {used} were indexed")
    ax = 0
    for it, c in zip(items, consumed):
        if c == -1:
            ax += len(shape) - used
            continue
        if c and isinstance(it, (NamedArray, jax.Array)) and it.dtype != bool:
            check_bounds(fn, it, shape[ax], f"axis {ax}")
        elif c and not isinstance(it, (slice, NamedArray, jax.Array)):
            if isinstance(it, (list, onp.ndarray)):
                h = onp.asarray(it)
                if h.dtype != bool and h.size:
                    lo, hi = h.min(), h.max()
                    bad = lo if lo < -shape[ax] else (hi if hi >= shape[ax] else None)
                    if bad is not None:
                        raise IndexError(f"{fn}: index {bad} is out of bounds for axis "
                                         f"{ax} with size {shape[ax]}")
                elif h.dtype == bool and h.shape != tuple(shape[ax:ax + c]):
                    raise IndexError(
                        f"{fn}: boolean index did not match indexed array along axis "
                        f"{ax}; size of axis is {shape[ax]} but size of corresponding "
                        f"boolean axis is {h.shape[0] if h.ndim else 0}")
            else:
                i = operator.index(it)
                if not -shape[ax] <= i < shape[ax]:
                    raise IndexError(f"{fn}: index {i} is out of bounds for axis {ax} "
                                     f"with size {shape[ax]}")
        ax += c


def getitem(x: NamedArray, idx):
    res = _take(x, idx)
    if res.dims.count(None) and _basic(idx):
        # a basic slice: writes into it reach x (NumPy's views, for writes)
        return view(res.data, res.dims, x, idx, res.mapped)
    return res


def getitem_data(base: NamedArray, src, idx):
    """The data of ``base[idx]`` when ``base`` holds ``src`` (a view re-reads)."""
    return _take(new(src, base.dims, base.mapped), idx).data


def _basic(idx) -> bool:
    for i in (idx if isinstance(idx, tuple) else (idx,)):
        if not (i is None or i is Ellipsis or isinstance(i, slice) or (
                isinstance(i, (int, onp.integer)) and not isinstance(i, bool))):
            return False
    return True


def _take(x: NamedArray, idx):
    check_index("__getitem__", x.shape, idx)
    expanded = scalar_bools(x, idx)
    if expanded is not None:
        return _take(*expanded)
    if _named_index(idx):
        # named index arrays: map over their names (and x's)
        return vmap_names("__getitem__", lambda d, i: d[i], (x, idx), {})
    idx = _data_index(idx)
    k = len(x.dims) - x.dims.count(None)
    if not k:
        return new(x.data[idx], (None,) * x.data[idx].ndim, x.mapped) if x.mapped else \
            positional(x.data[idx])
    res = x.data[_full(idx, k)]
    return new(res, (None,) * (res.ndim - k) + x.dims[len(x.dims) - k:], x.mapped)


def setitem(x: NamedArray, idx, value):
    check_index("__setitem__", x.shape, idx)
    if _named_index(idx):
        raise TypeError("__setitem__: an index with named axes is not supported; "
                        "index with positional arrays")
    expanded = scalar_bools(x, idx)
    if expanded is not None:
        x2, idx2 = expanded
        setitem(x2, idx2, value)
        x.data = x2.data.reshape(x.data.shape)
        return
    idx = _data_index(idx)
    value = _setitem_value(x.dtype, operand(value))
    k = len(x.dims) - x.dims.count(None)
    if not k and not value.names:
        x.data = x.data.at[idx].set(value.data)
        return
    region = _take(x, idx)
    region._assign("__setitem__", value)
    x.data = x.data.at[_full(idx, k)].set(region.data)


def _setitem_value(dtype, value):
    """The value cast to the target dtype as NumPy's assignment casts (unsafe for
    arrays; a Python int must fit an integer target, a complex needs a complex one)."""
    if isinstance(value, NamedArray):
        return value if value.dtype == dtype else rewrap(value, value.data.astype(dtype))
    dt = onp.dtype(dtype)
    if type(value) is int and dt.kind in "iu":
        info = onp.iinfo(dt)
        if not info.min <= value <= info.max:
            raise OverflowError(f"__setitem__: Python integer {value} out of bounds for {dt}")
    if isinstance(value, float) and dt.kind in "iub" and not onp.isfinite(value):
        raise ValueError(f"__setitem__: cannot convert float {value} to integer (the "
                         f"array's dtype is {dt})".replace("float nan", "float NaN"))
    if isinstance(value, complex) and dt.kind != "c":
        raise TypeError(f"__setitem__: cannot assign the complex {value!r} to an array of "
                        f"dtype {dt}")
    return positional(jnp.asarray(value).astype(dtype))


def nonzero(a):
    """``numpy.nonzero`` (positional arrays only: the result size is data dependent)."""
    x = operand(a)
    if isinstance(x, NamedArray) and x.names:
        raise TypeError(f"nonzero: the array has named axes {x.named_shape}; the number "
                        "of nonzeros differs per name, untag them first")
    return wrap_result(jnp.nonzero(x.data if isinstance(x, NamedArray) else x))

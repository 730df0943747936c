"""``x[idx]`` computed on the positional axes: the one gather (or slice) on the
physical data, named axes riding along as trailing full slices; an index with
named axes through the gather engine (``engines/gather.py``: its names folded
into the index arrays, so that a lookup is ``jax.numpy``'s gather); the int
fast path, and small eager data indexed by NumPy on the host (the eager tier).
Also the index helpers that reads (``indexing.py``), writes
(``index_assign.py``) and named indexing (``index_named.py``) share.
"""
from __future__ import annotations

import jax
import numpy as onp

from ..core import backends
from ..core.array import NamedArray, View, host_view_of, new, positional
from .engines import host
from .engines.args import to_device
from .engines.gather import advanced_block, index_names
from .engines.index_rules import FLAT, check_index, scalar_bools, wide_index


def _data_index(idx, shape=None, like=None):
    """The index as ``jax.numpy`` takes it (arrays and lists as arrays, wide
    enough for the axes of ``shape``; None: for any axis), its arrays on the
    device of the data ``like`` indexes where given (``backends.beside``: an
    index made at int64's home, the CPU of a TPU machine, meets data there)."""
    if like is not None:
        d = _data_index(idx, shape)
        items = backends.beside(like, d if type(d) is tuple else (d,))
        return items if type(d) is tuple else items[0]
    if isinstance(idx, NamedArray):
        return wide_index(idx.data, shape)
    if isinstance(idx, (jax.Array, onp.ndarray)):
        return wide_index(idx, shape)
    if isinstance(idx, list):
        if any(isinstance(i, (slice, type(Ellipsis), type(None))) for i in idx):
            return idx
        h = onp.asarray([i.tolist() if isinstance(i, NamedArray) else i for i in idx])
        return to_device(h.astype(onp.intp) if h.size == 0 else h, fresh=True)
    if isinstance(idx, tuple):
        return tuple(_data_index(i, shape) for i in idx)
    return idx


def _lists_as_arrays(idx):
    """An index with its lists (index arrays NumPy reads from a sequence) as
    arrays; NamedArray items are left as they are."""
    if isinstance(idx, tuple):
        return tuple(_lists_as_arrays(i) if isinstance(i, list) else i for i in idx)
    if isinstance(idx, list):
        return _data_index(idx)
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


def _is_flat(x) -> bool:
    """Whether ``x`` is ``a.flat`` (NumPy's flat iterator: its own index rules)."""
    return type(x) is View and x._what == FLAT


def _has_ellipsis(idx) -> bool:
    return idx is Ellipsis or (isinstance(idx, tuple) and any(i is Ellipsis for i in idx))


def getitem_data(base: NamedArray, src, idx):
    """The data of ``base[idx]`` when ``base`` holds ``src`` (a view re-reads)."""
    return _take(new(src, base.dims, base.mapped), idx).data


def _basic(idx) -> bool:
    for i in (idx if isinstance(idx, tuple) else (idx,)):
        if not (i is None or i is Ellipsis or isinstance(i, slice) or (
                isinstance(i, (int, onp.integer)) and not isinstance(i, bool))):
            return False
    return True


_SINGLE = jax.sharding.SingleDeviceSharding


_I32 = 2 ** 31


@jax.jit
def _int_take(d, *ints):
    """``d[i, j, ...]`` for in-bounds non-negative ints, as traced arguments:
    one compiled program per shape and number of ints, whatever their values
    (an eager ``d[i]`` in JAX dispatches a slice and a squeeze, ~10x slower)."""
    for i in ints:
        d = jax.lax.dynamic_index_in_dim(d, i, 0, keepdims=False)
    return d


def _ints(shape, idx):
    """``idx`` as a tuple of non-negative Python ints when it is an int or a
    tuple of ints (checked in bounds), else None."""
    items = idx if type(idx) is tuple else (idx,)
    if not items or len(items) > len(shape) or any(
            type(i) is not int or not -_I32 <= i < _I32 for i in items):
        return None
    return tuple(i + n if i < 0 else i for i, n in zip(items, shape))


def _take(x: NamedArray, idx):
    check_index("__getitem__", x.shape, idx)
    if not x.mapped and len(x.dims) == x.dims.count(None) and not isinstance(
            x.data, jax.core.Tracer) and type(x.data.sharding) is _SINGLE:
        ints = _ints(x.shape, idx)
        if ints is not None:
            return positional(_int_take(x.data, *ints))
    expanded = scalar_bools(x, idx)
    if expanded is not None:
        return _take(*expanded)
    if _named_index(idx):
        # named index arrays: one gather, their names folded in, x's ride along
        idx = _lists_as_arrays(idx)
        return index_names("__getitem__", lambda d, i: d[_full(_data_index(i, x.shape, d),
                                                                   d.ndim - x.ndim)],
                           x, idx, lambda i: advanced_block(x.ndim, i))
    idx = _data_index(idx, x.shape, x.data)
    k = len(x.dims) - x.dims.count(None)
    if not k:
        return new(x.data[idx], (None,) * x.data[idx].ndim, x.mapped) if x.mapped else \
            positional(x.data[idx])
    res = x.data[_full(idx, k)]
    return new(res, (None,) * (res.ndim - k) + x.dims[len(x.dims) - k:], x.mapped)


def _resident_items(idx):
    """The index as NumPy takes it on the host where every part of it may
    (ints, slices, ``None``, ``...``, integer or boolean arrays living on the
    host, NumPy's integer arrays, lists of Python ints), else None."""
    items = []
    for it in (idx if type(idx) is tuple else (idx,)):
        t = type(it)
        if t is int or t is slice or it is None or it is Ellipsis:
            items.append(it)
        elif t is NamedArray and it._host is not None and it.dtype.kind in "biu":
            items.append(it._host)
        elif t is View and it.dtype.kind in "biu" and not it.mapped and \
                it.dims.count(None) == len(it.dims) and host_view_of(it) is not None and \
                host_view_of(it).flags.c_contiguous:
            # NumPy's view of host data (``i[-3:]``); in C order, as a result
            # living on the host is laid out (NumPy's follows the index's order)
            items.append(host_view_of(it))
        elif t is onp.ndarray and it.dtype.kind in "iu":     # (a mask: a selection)
            items.append(it)
        elif t is list and it and all(type(v) is int for v in it):
            items.append(onp.asarray(it))
        else:
            return None
    return tuple(items)



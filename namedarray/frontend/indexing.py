"""Indexing: ``x[idx]`` (its views, its host-tier reads, ``a.flat[idx]``; the
gather itself is ``index_take.py``'s, assignment ``index_assign.py``'s, named
indexing and ``x.at`` ``index_named.py``'s); ``choose``, and the functions
whose result size is data dependent (``compress``, ``extract``, ``argwhere``,
``flatnonzero``: selections, see ``engines/selection.py``).

Named axes ride along: the index is applied to the leading (positional)
physical axes and full slices are appended for the trailing named ones.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as onp

from ..core.array import (NamedArray, View, host_root, new, normalize_axis, operand,
                          positional, rewrap, zero_dim_array)
from ..core.derived import view
from ..core.align import align_plan, meet
from .engines import host, selection
from .engines.args import as_data, numpy_args, numpy_promoted
from .engines.gather import in_order
from .engines.generic import wrap
from .engines.index_rules import flat_index, numpy_index
from .engines.masks import _device_mask, _plain, compact, size_error, traced
from .engines.out import store_out
from .engines.results import reraise
from .engines.selection import Selection, lazy, padded
from .engines import views
from .engines.views import laid_out, memory_axes
from .index_named import dict_key, named_getitem
from .index_take import _basic, _has_ellipsis, _is_flat, _resident_items, _take


_make = object.__new__


def getitem(x: NamedArray, idx):
    if type(idx) is int:
        h = x._host
        if h is not None and h.ndim == 1 and type(x) is NamedArray:
            # an element of a vector on the host: NumPy's scalar, as the buffer of
            # namedarray's (core.array.on_host, made inline: an eager loop's read)
            try:
                r = h[idx]
            except IndexError:
                pass        # (the compiled path raises namedarray's error)
            else:
                y = _make(NamedArray)
                y._dev = None
                y._host = r
                y.dims = y.mapped = ()
                y._array0d = y._ro = False
                return y
    h, root = host_root(x)
    if h is None and _resident_items(idx) is not None and (
            type(x) is NamedArray and host.read_in_place(x) or
            type(x) is View and views.read_in_place(x)):  # (a host index: NumPy reads it)
        h, root = host_root(x)
    if h is not None:       # living on the host: NumPy's copy, where it is one
        r = _resident_take(h, idx)
        if r is not None:
            return r
    if _is_flat(x):
        return _flat_getitem(x, idx)
    idx = numpy_index(idx)
    dk = dict_key(idx)
    if dk is not None:
        return named_getitem(x, idx, *dk)
    if selection.is_mask(idx):
        return selection.select(x, idx)
    if h is not None and _basic(idx):
        v = _resident_view(x, h, root, idx)
        if v is not None:
            return v
    res = _take(x, idx)
    if _basic(idx) and (res.dims.count(None) or _has_ellipsis(idx)):
        # a basic slice: writes into it reach x (NumPy's views, for writes);
        # with an ellipsis a 0-d result is an array (a view), not a scalar
        v = view(res.data, res.dims, x, idx, res.mapped)
        if not v.dims and not v.mapped:
            v._array0d = True
        return v
    if not res.dims and not res.mapped and _has_ellipsis(idx):
        return zero_dim_array(res)      # (x[np.array(1), ...]: NumPy's 0-d array)
    return _index_order(res, idx)


def _index_order(res, idx):
    """The result of an advanced index laid out in memory as NumPy lays it
    out: in the memory order of its one index array (a view of another order,
    such as a transposed one) where the result has that array's axes only."""
    items = idx if isinstance(idx, tuple) else (idx,)
    arrays = [i for i in items if isinstance(i, NamedArray) or (
        not isinstance(i, (int, onp.integer, slice)) and i is not Ellipsis)]
    if len(arrays) != 1 or type(arrays[0]) is not View or arrays[0].ndim < 2 or \
            arrays[0].dtype == bool or res.ndim != arrays[0].ndim or res.names:
        return res
    return laid_out(res, memory_axes(arrays[0], "K"))


def _flat_getitem(x, idx):
    """``a.flat[idx]``: a copy (NumPy's flat iterator never gives a view)."""
    idx = flat_index("__getitem__", x.size, idx)
    if selection.is_mask(idx):
        return selection.select(x, idx)
    return _take(x, idx)


def _numpy_getitem(h, idx):
    """NumPy's ``h[idx]`` of the host buffer ``h``; None where the index has a
    part that does not live on the host or NumPy raises (the compiled path
    then gives namedarray's answer or error)."""
    items = _resident_items(idx)
    if items is None:
        return None
    try:
        return h[items]
    except (IndexError, TypeError, ValueError):
        return None


def _resident_take(h, idx):
    """``x[idx]`` of data ``h`` living on the host, where NumPy's result is a
    copy (an element, an advanced index): NumPy's, living on the host too;
    None where NumPy's result is a view (the view path) or NumPy raises (the
    compiled path gives namedarray's error)."""
    r = _numpy_getitem(h, idx)
    if r is None:
        return None
    if isinstance(r, onp.generic):
        return host.kept(onp.asarray(r), fresh=True)
    if r.size > host.HOST_SIZE or onp.may_share_memory(r, h) or (
            not r.size and host.memory_owner(r) is host.memory_owner(h)):
        return None     # (NumPy's view, an empty one too: the view path)
    x = host.kept(r, fresh=r.base is None)
    return zero_dim_array(x) if not r.ndim else x       # (NumPy's 0-d array)


def _resident_view(x, h, root, idx):
    """``x[idx]`` of ``x`` living on the host (data ``h``, held by ``root``),
    for a basic index whose NumPy result is a view: the view, its data
    NumPy's (no program compiles)."""
    r = _numpy_getitem(h, idx)
    if type(r) is not onp.ndarray:
        return None
    v = view(None, (None,) * r.ndim, x, idx, (), hosted=(r, root))
    if not v.dims:
        v._array0d = True
    return v


# --------------------------------------------------------------------------
# the functions whose result size is data dependent, and choose
# --------------------------------------------------------------------------
_jcompress = wrap(numpy_args(jnp.compress, "compress"), "compress")


_jextract = wrap(numpy_args(jnp.extract, "extract"), "extract")


def _flat(x):
    """``x`` with its positional axes raveled (named axes ride along)."""
    return new(x.data.reshape((-1,) + x.data.shape[x.ndim:]), (None,) + x.names, x.mapped)


def _condition(c):
    """A 1-d-or-more condition as a bool NamedArray (host conditions stay on the host
    until here; NumPy reads nonzero as true)."""
    if isinstance(c, (list, tuple, onp.ndarray)):
        h = onp.asarray(c)
        return positional(_device_mask(h if h.dtype == bool else h != 0))
    c = operand(c)
    if not isinstance(c, NamedArray):
        return None
    return c if c.dtype == bool else positional(c.data != 0) if not (
        c.names or c.mapped) else None


def compress(condition, a, axis=None, out=None):
    """``numpy.compress``: with a full-length condition along ``axis`` 0 (or the
    raveled array), a selection that stays full-size until its size is needed;
    along another axis (or with a shorter condition), the exact result gathered
    in a power-of-two bucket (one compilation per bucket, not per count).

    >>> import namedarray as np
    >>> np.compress([True, False, True], np.arange(6).reshape(3, 2), axis=0)
    array([[0, 1],
           [4, 5]])
    >>> np.compress([False, True], np.arange(6).reshape(2, 3), axis=1)
    array([[1],
           [4]])
    """
    x = operand(a)
    if axis is not None and not (isinstance(x, NamedArray) and (
            x.ndim or x.names or x.mapped)) and onp.ndim(
            x.data if isinstance(x, NamedArray) else x) == 0:
        # NumPy takes a 0-d array along an axis as its 1-element ravel
        a = x = positional(jnp.reshape(x.data if isinstance(x, NamedArray) else
                                       jnp.asarray(x), (1,)))
    c = _condition(condition)
    if isinstance(x, NamedArray) and c is not None and out is None and c.ndim == 1 and \
            not lazy(x) and not lazy(c) and (axis is None or (
                isinstance(axis, (int, onp.integer)) and x.ndim)):
        ax = 0 if axis is None else normalize_axis("compress", axis, x.ndim)
        t = _flat(x) if axis is None else x
        if ax == 0 and t.shape[0] == c.shape[0]:
            return Selection(_plain(t), c, 1)
        if not (t.names or t.mapped or traced(t.data, c.data)):
            n = t.shape[ax]
            ch = onp.asarray(c.data)
            if ch[n:].any():
                if math.prod(t.shape[:ax]) == 0:   # NumPy's take loops over the
                    return positional(jnp.zeros(        # axes before: it checks nothing
                        t.shape[:ax] + (int(onp.count_nonzero(ch)),) + t.shape[ax + 1:],
                        t.dtype))
                raise IndexError(f"compress: index {n + int(onp.argmax(ch[n:]))} is out "
                                 f"of bounds for axis {ax} with size {n}")
            mh = onp.zeros(n, bool)
            mh[: min(ch.size, n)] = ch[:n]
            return positional(compact(t.data, mh, ax))
    return _jcompress(condition, a, axis=axis, out=out)


def extract(condition, arr):
    """``numpy.extract``: the raveled ``arr`` where ``condition`` is nonzero, as a
    selection.

    >>> import namedarray as np
    >>> np.extract(np.arange(5) % 2 == 0, np.arange(5) * 10)
    array([ 0, 20, 40])
    """
    x = operand(arr)
    c = _condition(condition)
    if isinstance(x, NamedArray) and c is not None and not (x.names or x.mapped) and \
            not lazy(x) and not lazy(c) and c.size == x.size:
        return Selection(_flat(x), _flat(c), 1)
    return _jextract(condition, arr)


def _host(fn, a):
    x = operand(a)
    if isinstance(x, NamedArray) and (x.names or x.mapped):
        raise TypeError(f"{fn}: the array has named axes {x.named_shape}; the number of "
                        "nonzeros differs per name, untag them first")
    d = x.data if isinstance(x, NamedArray) else jnp.asarray(x)
    if traced(d):
        raise size_error(fn, "np.where(a != 0, x, other), or jax.numpy."
                         f"{fn}(a, size=N)", "its result")
    return onp.asarray(d)


def argwhere(a):
    """``numpy.argwhere``, found on the host (one transfer, no compilation per count).

    >>> import namedarray as np
    >>> np.argwhere(np.asarray([[0, 1], [2, 0]]))
    array([[0, 1],
           [1, 0]])
    """
    return padded(onp.argwhere(_host("argwhere", a)))[0]


def flatnonzero(a):
    """``numpy.flatnonzero``, found on the host.

    >>> import namedarray as np
    >>> np.flatnonzero(np.asarray([0, 2, 0, 3]))
    array([1, 3])
    """
    return padded(onp.flatnonzero(_host("flatnonzero", a)))[0]


_choose = wrap(numpy_args(jnp.choose, "choose"), "choose")


def _choose_aligned(a, choices, mode):
    """``choose`` with named axes as one ``jax.numpy.choose`` on the physical
    data, the index and every choice aligned by name (a name one lacks is a
    size-1 axis, broadcast): jax.numpy's gather on that layout, not a gather
    mapped over each name.  None where nothing has physical names (or a
    choice is not an array or a scalar)."""
    a = operand(as_data(a))
    stacked = isinstance(choices, NamedArray)
    if not isinstance(a, NamedArray) or not (stacked and choices.ndim or isinstance(
            choices, (list, tuple))):
        return None
    items = numpy_promoted([choices] if stacked else [operand(as_data(c)) for c in choices])
    if not all(isinstance(c, (NamedArray, int, float, complex)) for c in items) or \
            not any(isinstance(o, NamedArray) and o.names for o in [a, *items]):
        return None
    met, mapped = meet("choose", [a, *items])
    a, items = met[0], met[1:]
    names = [d for d in align_plan("choose", [o for o in met if isinstance(o, NamedArray)])[1]
             if d is not None]
    # each choice's positional axes (a stacked array's: those after the first)
    ranks = [(c.ndim - stacked) if isinstance(c, NamedArray) else 0 for c in items]
    rank = max([a.ndim, *ranks])
    datas = [in_order(c, names, rank - r) if isinstance(c, NamedArray) else c
             for c, r in zip(items, ranks)]
    if stacked:
        # (n, 1.., rest) from (1.., n, rest): moving size-1 axes is a reshape
        d, pad = datas[0], rank - ranks[0]
        datas = d.reshape((d.shape[pad],) + d.shape[:pad] + d.shape[pad + 1:])
    try:
        res = jnp.choose(in_order(a, names, rank - a.ndim), datas, mode=mode)
    except (ValueError, TypeError) as e:
        reraise("choose", e)
    return new(res, (None,) * rank + tuple(names), mapped)


# jax.numpy: out= is cast as NumPy's ufuncs cast (NumPy's choose casts into it)
def choose(a, choices, out=None, mode="raise"):
    """``numpy.choose``; the result is cast into ``out=`` whatever its dtype,
    as NumPy's ``choose`` writes it (an unsafe cast).

    >>> import namedarray as np
    >>> o = np.zeros(3, dtype=np.int32)
    >>> np.choose(np.asarray([0, 1, 0]), (np.zeros(3), np.full(3, 2.5)), out=o)
    array([0, 2, 0], dtype=int32)
    """
    dt = onp.dtype(a.dtype if hasattr(a, "dtype") else onp.asarray(a).dtype)
    if dt == onp.bool_:
        # NumPy casts the index array to intp safely: bools are indices 0 and 1
        a = a.astype(onp.intp) if hasattr(a, "astype") else onp.asarray(a, onp.intp)
    elif not onp.can_cast(dt, onp.intp, "safe"):
        raise TypeError(f"choose: Cannot cast array data from {dt!r} to "
                        f"{onp.dtype(onp.intp)!r} according to the rule 'safe'")
    res = _choose_aligned(a, choices, mode)
    if res is None:
        res = _choose(a, choices, mode=mode)
    if out is not None and hasattr(out, "dtype") and isinstance(res, NamedArray) and \
            res.dtype != out.dtype:
        res = rewrap(res, res.data.astype(out.dtype))
    return store_out("choose", out, res)


__all__ = ["compress", "extract", "argwhere", "flatnonzero", "choose"]

"""Indexing: ``x[idx]`` and ``x[idx] = v`` on the positional axes; the
functions whose result size is data dependent (``compress``, ``extract``,
``argwhere``, ``flatnonzero``: selections, see ``engines/selection.py``).

Named axes ride along: the index is applied to the leading (positional)
physical axes and full slices are appended for the trailing named ones.
Assignment rebinds ``x.data`` functionally (``.at[].set``), so every Python
name that holds ``x`` sees the change, as in NumPy.
"""
from __future__ import annotations

import functools
import math
import operator

import jax
import jax.numpy as jnp
import numpy as onp

from .. import parallel
from ..core import hooks
from ..core.array import (NamedArray, View, check_writeable, host_root, meet,
                          merge_mapped, new, on_host,
                          normalize_axis, operand, positional, rewrap, view,
                          writeable, zero_dim_array)
from ..core.sharding import explicit_mesh, unshard
from ..placement import implied
from .engines import selection
from .engines.args import numpy_args
from .engines.generic import index_names, wrap
from .engines.out import store_out
from .engines.masks import _device_mask, _plain, compact, size_error, traced
from .engines.selection import Selection, lazy, padded
from .engines.views import laid_out, memory_axes
from .engines import host
from .engines.args import to_device
from .engines.assign import assigned, check_scalar
from ..core.cache import Cache
from .engines.index_rules import (FLAT, check_index, flat_index, numpy_index, scalar_bools,
                                  wide_index)


def _data_index(idx):
    if isinstance(idx, NamedArray):
        return wide_index(idx.data)
    if isinstance(idx, (jax.Array, onp.ndarray)):
        return wide_index(idx)
    if isinstance(idx, list):
        if any(isinstance(i, (slice, type(Ellipsis), type(None))) for i in idx):
            return idx
        h = onp.asarray([i.tolist() if isinstance(i, NamedArray) else i for i in idx])
        return to_device(h.astype(onp.intp) if h.size == 0 else h, fresh=True)
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


_make = object.__new__


def _is_flat(x) -> bool:
    """Whether ``x`` is ``a.flat`` (NumPy's flat iterator: its own index rules)."""
    return type(x) is View and x._what == FLAT


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
        key = _index_key(x, idx)
        if key is not None:
            r = host.within_budget(_HOST_SPENT, key, _host_take, x, idx)
            if r is not None:
                return r
    expanded = scalar_bools(x, idx)
    if expanded is not None:
        return _take(*expanded)
    if _named_index(idx):
        # named index arrays: map over their names, x's others ride along
        return index_names("__getitem__", lambda d, i: d[_full(_data_index(i), d.ndim - x.ndim)],
                           x, idx)
    idx = _data_index(idx)
    k = len(x.dims) - x.dims.count(None)
    if not k:
        return new(x.data[idx], (None,) * x.data[idx].ndim, x.mapped) if x.mapped else \
            positional(x.data[idx])
    res = x.data[_full(idx, k)]
    return new(res, (None,) * (res.ndim - k) + x.dims[len(x.dims) - k:], x.mapped)


def setitem(x: NamedArray, idx, value):
    """``x[idx] = value``; on data placed on an Explicit mesh outside
    ``jax.set_mesh``, inside that mesh (eager JAX updates such data only there)."""
    check_writeable("__setitem__", x)
    if resident_set(x, idx, value):
        return
    d = x.data
    if isinstance(d, jax.Array) and not isinstance(d, jax.core.Tracer) and \
            not isinstance(d.sharding, _SINGLE) and jax.sharding.get_abstract_mesh().empty:
        mesh = explicit_mesh((d,))
        if mesh is not None:
            with jax.set_mesh(mesh):
                return _setitem(x, idx, value)
    return _setitem(x, idx, value)


def _flat_getitem(x, idx):
    """``a.flat[idx]``: a copy (NumPy's flat iterator never gives a view)."""
    idx = flat_index("__getitem__", x.size, idx)
    if selection.is_mask(idx):
        return selection.select(x, idx)
    return _take(x, idx)


def _flat_setitem(x, idx, value):
    """``a.flat[idx] = value``: the values of ``value`` in order, repeated over
    the selected elements as NumPy's flat iterator repeats them."""
    fn = "__setitem__"
    idx = flat_index(fn, x.size, idx, assign=True)
    v = operand(_from_strings(x.dtype, value))
    if not isinstance(v, NamedArray) or v.names or v.size == 1:
        return _setitem(x, idx, value, False)
    if isinstance(idx, (int, onp.integer)):
        raise ValueError(f"{fn}: Error setting single item of array: a.flat[i] = v takes "
                         f"one value, got {v.size}")
    if idx is Ellipsis:
        shape = (x.size,)
    elif isinstance(idx, slice):
        shape = (len(range(*idx.indices(x.size))),)
    elif getattr(idx, "dtype", None) == bool:
        d = getattr(idx, "data", idx)
        if traced(d):
            return _setitem(x, idx, value, False)
        shape = (int(onp.count_nonzero(onp.asarray(d))),)
    else:
        shape = tuple(idx.shape)
    n = math.prod(shape)
    if v.size == 0:
        if n:
            raise ValueError(f"{fn}: could not broadcast input array from shape (0,) into "
                             f"shape ({n},)")
        return None
    if v.size != n or v.shape != shape:
        value = positional(jnp.resize(v.data.reshape(-1), n).reshape(shape))
    return _setitem(x, idx, value, False)


def _setitem(x: NamedArray, idx, value, flat=True):
    if flat and _is_flat(x):
        return _flat_setitem(x, idx, value)
    idx = numpy_index(idx)
    value = _from_strings(x.dtype, value)
    dk = dict_key(idx)
    if dk is not None:
        x.data = named_update("__setitem__", x, *dk, "set", assigned(
            "__setitem__", x.dtype, operand(value)))
        return
    if selection.is_mask(idx) and _set_masked(x, idx, value):
        return
    check_index("__setitem__", x.shape, idx)
    if _named_index(idx):
        raise TypeError("__setitem__: an index with named axes is not supported; "
                        "index with positional arrays")
    expanded = scalar_bools(x, idx)
    if expanded is not None:
        x2, idx2 = expanded
        _setitem(x2, idx2, value)
        x.data = x2.data.reshape(x.data.shape)
        return
    idx = _data_index(idx)
    value = assigned("__setitem__", x.dtype, value if type(value) in (
        list, tuple, onp.ndarray) else operand(value))   # (host data: converted on the host)
    k = len(x.dims) - x.dims.count(None)
    if not k and not value.names:
        key = None if x.mapped or isinstance(value.data, jax.core.Tracer) or not isinstance(
            x.data, jax.Array) or isinstance(x.data, jax.core.Tracer) else _index_key(x, idx)
        if key is not None:
            data = host.within_budget(_HOST_SPENT, ("set", value.data.shape) + key, _host_set,
                                      x, idx, value.data)
            if data is not None:
                x.data = data
                return
        try:
            data = _scatter(x.data, idx, value.data)
        except ValueError:
            # NumPy drops a value's leading size-1 dimensions that the
            # indexed region lacks (``a[0] = ones((1, 2))`` into a row of 2)
            v = value.data.reshape(_without_leading_ones(value.data.shape))
            try:
                data = _scatter(x.data, idx, v)
            except ValueError:
                sh = lambda t: str(tuple(t)).replace(" ", "")  # noqa: E731  (NumPy's)
                raise ValueError(f"__setitem__: could not broadcast input array from shape "
                                 f"{sh(value.data.shape)} into shape "
                                 f"{sh(x.data[idx].shape)}") from None
        x.data = data
        return
    region = _take(x, idx)
    region._assign("__setitem__", value)
    x.data = x.data.at[_full(idx, k)].set(region.data)


#: the seconds of host runs of ``x[idx]`` spent per (shape, dtype, index form)
_HOST_SPENT = Cache()


def _index_key(x, idx):
    """The key of the program ``x[idx]`` compiles (shape, dtype and the index's
    form: its ints and slices, its arrays' shapes), or None where the index
    holds something else (names, a traced bound)."""
    out = [x.data.shape, x.data.dtype]
    for it in (idx if type(idx) is tuple else (idx,)):
        if it is None or it is Ellipsis or type(it) is int or type(it) is bool:
            out.append(it)
        elif type(it) is slice:
            if not all(v is None or type(v) is int for v in (it.start, it.stop, it.step)):
                return None
            out.append((it.start, it.stop, it.step))
        elif type(it) is NamedArray or type(it) is View:
            if it.dims.count(None) != len(it.dims) or it.mapped:
                return None
            out.append((it.data.shape, it.data.dtype))
        elif type(it) is onp.ndarray or (isinstance(it, jax.Array) and
                                          not isinstance(it, jax.core.Tracer)):
            out.append((it.shape, it.dtype))
        elif type(it) is list and all(type(v) is int for v in it):
            out.append(("list", len(it)))
        else:
            return None
    return tuple(out)


def _resident_items(idx):
    """The index as NumPy takes it on the host where every part of it may
    (ints, slices, ``None``, ``...``, arrays living on the host), else None."""
    items = []
    for it in (idx if type(idx) is tuple else (idx,)):
        t = type(it)
        if t is int or t is slice or it is None or it is Ellipsis:
            items.append(it)
        elif t is NamedArray and it._host is not None and it.dtype.kind in "biu":
            items.append(it._host)
        else:
            return None
    return tuple(items)


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


def element_writes(general):
    """NamedArray's ``__setitem__``: ``general(x, idx, value)`` with a short
    path in front, in one frame, for the commonest write of an eager loop:
    ``x[i] = value`` for an int ``i`` into a vector living on the host whose
    buffer is its own (no device array shares it), of a scalar of the same
    dtype living there or a Python float into floats, written in place as
    :func:`resident_set` writes it, without its general checks."""
    def setitem(self, idx, value):  # (NamedArray's method)
        if type(idx) is int:
            h = self._host
            if h is not None and self._dev is None and h.ndim == 1 and not self._ro and \
                    type(self) is NamedArray:
                t = type(value)
                if t is NamedArray:
                    v = value._host
                    ok = v is not None and v.dtype is h.dtype
                else:
                    v = value
                    ok = t is float and h.dtype.kind in "fc"
                if ok:
                    try:
                        h[idx] = v
                        return
                    except (IndexError, TypeError, ValueError):
                        pass        # (nothing was written: the general path raises)
        general(self, idx, value)
    setitem.__name__ = setitem.__qualname__ = "__setitem__"
    return setitem


def resident_set(x, idx, value) -> bool:
    """``x[idx] = value`` by NumPy on the host buffer of ``x`` (written in
    place while no device array shares it, else a copy is written): whether
    it ran there.  ``x``: an array living on the host, or a view of one
    (written through, in place only).  The value: a Python number of ``x``'s
    kind or below, or an array living on the host that NumPy's ``same_kind``
    cast takes."""
    h, root = host_root(x)
    items = _resident_items(idx) if h is not None else None
    if items is None:
        return False
    t = type(value)
    if t is NamedArray or t is View:
        v = host_root(value)[0]
        if v is None or value.mapped or not onp.can_cast(v.dtype, x.dtype, "same_kind"):
            return False
    elif t is float or t is int or t is bool:
        v = value
        if (t is float and x.dtype.kind in "biu") or (t is int and x.dtype.kind == "b"):
            return False
    else:
        return False
    own = root._dev is None        # (no device array shares the buffer)
    if x is not root and not (own and writeable(x)) or _is_flat(x):
        return False        # (a view writes through to the compiled base)
    out = h if own else onp.array(h)
    try:
        out[items] = v
    except (IndexError, TypeError, ValueError, OverflowError):
        return False        # (nothing was written: the compiled path raises)
    if not own:
        root._dev, root._host = None, out
    return True


def _host_take(x, idx):
    """``x[idx]`` by NumPy on the host buffer: eager, small data on a CPU
    (``host.buffer``), where indexing only moves data, so NumPy's result is
    the compiled one bit for bit and no program compiles for a new shape (the
    eager tier, DESIGN.md 5a); None where it may not run there."""
    h = host.buffer(x.data)
    items = _host_items(idx)
    if h is None or items is None:
        return None
    try:
        r = h[items]
    except (IndexError, TypeError, ValueError):
        return None         # (the compiled path raises namedarray's error)
    return positional(to_device(onp.asarray(r)))      # (a copy: r may be a view of h)


def _host_items(idx):
    """The index with its device arrays as their host buffers (None: one is not
    on the host)."""
    items = []
    for it in (idx if type(idx) is tuple else (idx,)):
        if isinstance(it, NamedArray):
            it = it.data
        if isinstance(it, jax.Array):
            it = host.buffer(it)
            if it is None:
                return None
        items.append(it)
    return tuple(items)


def _host_set(x, idx, v):
    """``x[idx] = v`` (``v`` already of ``x``'s dtype) by NumPy on a host copy
    of the buffer, as :func:`_host_take`: the new data, or None."""
    h, hv, items = host.buffer(x.data), host.buffer(v), _host_items(idx)
    if h is None or hv is None or items is None:
        return None
    out = onp.array(h)
    try:
        out[items] = hv
    except (IndexError, TypeError, ValueError):
        return None
    return to_device(out, fresh=True)


def _scatter(d, idx, v):
    """``d.at[idx].set(v)`` keeping ``d``'s placement: data whose type names
    Explicit mesh axes keeps them (JAX asks for the update's ``out_sharding``)."""
    s = jax.typeof(d).sharding
    if any(s.spec) and any(t == jax.sharding.AxisType.Explicit
                           for t in s.mesh.axis_types):
        return d.at[idx].set(v, out_sharding=s)
    return d.at[idx].set(v)


def _without_leading_ones(shape) -> tuple:
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return tuple(shape[i:])


def _set_masked(x, idx, value) -> bool:
    """``x[mask] = value`` with ``where`` (see ``selection.assign``); False when the
    value has the selection's data-dependent length."""
    if selection.assign(x, idx, value, functools.partial(assigned, "__setitem__"),
                        functools.partial(check_scalar, "__setitem__")):
        return True
    if selection.traced(getattr(idx, "data", idx)) and not selection.lazy(idx):
        raise selection.size_error("x[mask] = value (a value with one entry per selected "
                                   "element)")
    return False


def _from_strings(dtype, value):
    """A value of strings (``x[0] = "1.5"``) or of Python objects converted to
    the array's dtype as NumPy's assignment converts them (NumPy's
    ``ValueError`` where one does not parse: ``could not convert string to
    float: 'a'``)."""
    if isinstance(value, (str, bytes)):
        return onp.array(value, dtype=dtype)
    if isinstance(value, (list, tuple, onp.ndarray)):
        try:
            h = onp.asarray(value)
        except (TypeError, ValueError):
            return value        # ragged: the assignment's own error
        if h.dtype.kind in "USO":    # (objects: converted one by one, as NumPy does)
            return onp.array(value, dtype=dtype)
    return value


# --------------------------------------------------------------------------
# named indexing: x[{"seq": slice(0, 16), "head": 0}], x.at[{...}].set(v)
# --------------------------------------------------------------------------
_AT_OPS = ("set", "add", "subtract", "multiply", "divide", "power", "min", "max")


def dict_key(idx):
    """``(names -> entries, the positional rest)`` when ``idx`` is a dict or a tuple
    holding one dict among positional indices; ``None`` otherwise."""
    if isinstance(idx, dict):
        return idx, ()
    if isinstance(idx, tuple) and any(isinstance(i, dict) for i in idx):
        dicts = [i for i in idx if isinstance(i, dict)]
        if len(dicts) > 1:
            raise IndexError("__getitem__: an index can hold one dict of named indices; "
                             f"got {len(dicts)}, merge them into one")
        return dicts[0], tuple(i for i in idx if not isinstance(i, dict))
    return None


def _entry(fn, x, name, e):
    """One dict entry, checked: ``("int", i)``, ``("slice", s)``, ``("array", a)`` for
    a positional index array (0-d or 1-d), ``("named", a)`` for one with names
    (its own, or names an enclosing map holds)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"{fn}: a named index maps axis names to indices; got the key "
                        f"{name!r} (index positional axes with a tuple: x[{{...}}, 0])")
    if name not in x.named_shape:
        raise IndexError(f"{fn}: {name!r} is not an axis of the array, which has named axes "
                         f"{x.named_shape} (positional shape {x.shape})")
    size = x.named_shape[name]
    where = f"axis {name!r} with size {size}"
    if isinstance(e, slice):
        return ("slice", e)
    if isinstance(e, (bool, onp.bool_)) or e is None or e is Ellipsis:
        raise IndexError(f"{fn}: the index of axis {name!r} is {e!r}; a named index takes "
                         "an int, a slice, an integer array or a NamedArray")
    if isinstance(e, NamedArray) and (e.names or e.mapped):
        _check_int_array(fn, name, e.dtype)
        if e.ndim > 1:
            raise IndexError(f"{fn}: the index of axis {name!r} has named axes "
                             f"{e.named_shape} and positional shape {e.shape}; at most one "
                             "positional axis (it keeps the name)")
        return ("named", e)
    if isinstance(e, NamedArray):
        e = e.data
    if isinstance(e, (list, tuple, onp.ndarray, onp.generic)):
        h = onp.asarray(e)
        if h.size == 0:
            h = h.astype(onp.intp)
        _check_int_array(fn, name, h.dtype)
        if h.size and (h.min() < -size or h.max() >= size):
            bad = h.min() if h.min() < -size else h.max()
            raise IndexError(f"{fn}: index {bad} is out of bounds for {where}")
        if h.ndim == 0:
            return ("int", int(h))
        e = jnp.asarray(h)
    if isinstance(e, jax.Array):
        _check_int_array(fn, name, e.dtype)
        if e.ndim > 1:
            raise IndexError(f"{fn}: the index of axis {name!r} has shape {e.shape}; a "
                             "positional index array has at most one axis (it keeps the "
                             "name); name its axes (.tag) to index by name")
        return ("array", e)
    try:
        i = operator.index(e)
    except TypeError:
        raise IndexError(f"{fn}: the index of axis {name!r} is {e!r}; a named index takes "
                         "an int, a slice, an integer array or a NamedArray") from None
    if not -size <= i < size:
        raise IndexError(f"{fn}: index {i} is out of bounds for {where}")
    return ("int", i)


def _check_int_array(fn, name, dtype):
    if onp.dtype(dtype).kind not in "iu":
        raise IndexError(f"{fn}: the index of axis {name!r} has dtype {onp.dtype(dtype)}; "
                         "named indices are integers (for a mask use np.where)")


def _whole(fn, x, names):
    """``x`` with the mapped ``names`` gathered into whole physical named axes."""
    names = [n for n in names if n in dict(x.mapped)]
    if not names:
        return x
    g = parallel.gather_names(fn, x, names, last=True)
    return g.tag(*([None] * (g.ndim - len(names))), *names)


def _plan(fn, x, entries):
    """The physical index of ``x.data`` for ``entries``, the dims of what it selects
    and that region's physical shape.

    Ints and slices index their dimension in place.  Otherwise every dimension
    gets an integer array shaped to broadcast onto the result's axes (an outer,
    by-name index): ``x``'s kept axes in their order, then the names that only
    the named indices have."""
    if all(e[0] in ("int", "slice") for e in entries.values()):
        full, dims, shape = [], [], []
        for d, size in zip(x.dims, x.data.shape):
            e = entries.get(d) if d is not None else None
            if e is None or e[0] == "slice":
                full.append(slice(None) if e is None else e[1])
                dims.append(d)
                shape.append(size if e is None else len(range(*e[1].indices(size))))
            else:
                full.append(e[1])
        return tuple(full), tuple(dims), tuple(shape)
    kept = [d for d in x.dims if d is None or d not in entries or _ndim(entries[d])]
    # a named index's own names take the place of the axis it indexes (as NumPy
    # puts an index array's axes), so an embedding lookup emb[{"vocab": ids}]
    # comes out (ids' names..., embed) with no transpose
    out = [d for d in x.dims if d is None]
    for d in x.dims:
        e = entries.get(d) if d is not None else None
        if e is not None and e[0] == "named":
            for n in e[1].names:
                if n in entries:
                    raise IndexError(f"{fn}: the index of one axis is named {n!r}, which "
                                     "is itself indexed; index it in a separate step")
            for n in e[1].dims:
                n = d if n is None else n
                if (n == d or n not in x.dims) and n not in out:
                    out.append(n)
        elif d is not None and d in kept:
            out.append(d)
    # the dimensions before the first and after the last advanced one keep basic
    # slices (NumPy puts the advanced block's axes in its place), so a row
    # lookup stays a gather of whole rows
    shared = {n for e in entries.values() if e[0] == "named" for n in e[1].names}
    adv = [k for k, d in enumerate(x.dims) if d is not None and (
        d in shared or (d in entries and entries[d][0] != "slice"))]
    pre, post = adv[0], len(x.dims) - 1 - adv[-1]
    if tuple(out[:pre]) != x.dims[:pre] or (post and tuple(out[-post:]) != x.dims[-post:]):
        pre = post = 0        # the by-name layout is not NumPy's: index every axis
    mid = out[pre:len(out) - post]
    rank = len(mid)
    full, sizes = [], []
    for k, (d, size) in enumerate(zip(x.dims, x.data.shape)):
        e = entries.get(d) if d is not None else None
        if k < pre or k >= len(x.dims) - post:
            s = slice(None) if e is None else e[1]
            full.append(s)
            sizes.append(len(range(*s.indices(size))))
            continue
        axis = k - pre if d is None else mid.index(d) if d in mid else None
        if e is None:
            full.append(_at(jnp.arange(size), rank, axis))
        elif e[0] == "int":
            full.append(jnp.asarray(e[1]))
        elif e[0] == "slice":
            full.append(_at(jnp.arange(*e[1].indices(size)), rank, axis))
        elif e[0] == "array":
            full.append(_at(e[1], rank, axis) if e[1].ndim else e[1])
        else:
            a = e[1]
            src = [d if dd is None else dd for dd in a.dims]   # its positional axis is d's
            perm = sorted(range(len(src)), key=lambda j: mid.index(src[j]))
            idx = a.data if perm == list(range(len(perm))) else jax.lax.transpose(a.data, perm)
            shape = [1] * rank
            for j in perm:
                shape[mid.index(src[j])] = a.data.shape[j]
            full.append(idx.reshape(shape))
    arrays = [f for f in full if not isinstance(f, slice)]
    shape = tuple(sizes[:pre]) + tuple(jnp.broadcast_shapes(*(f.shape for f in arrays))) \
        + tuple(sizes[pre:])
    return tuple(full), tuple(out), shape


def _at(a, rank, axis):
    shape = [1] * rank
    shape[axis] = a.shape[0]
    return a.reshape(shape)


def _ndim(e):
    """The number of axes an entry leaves in place of its name (0 or 1)."""
    if e[0] == "int":
        return 0
    if e[0] == "slice":
        return 1
    return e[1].ndim


def _prepare(fn, x, d):
    """``x`` (whole along the mapped names it is indexed by) and its checked entries."""
    entries = {name: _entry(fn, x, name, e) for name, e in d.items()}
    named = [e[1] for e in entries.values() if e[0] == "named"]
    if named:
        met, _ = meet(fn, [x, *named])
        x, named = met[0], met[1:]
        it = iter(named)
        entries = {k: (e[0], next(it)) if e[0] == "named" else e for k, e in entries.items()}
    x = _whole(fn, x, list(entries))
    # JAX slices no dimension an Explicit mesh partitions: those ints and
    # slices index the whole axis
    x = _unsharded(x, [n for n, e in entries.items() if e[0] in ("int", "slice")])
    return x, entries


def _unsharded(x, names):
    """``x`` with the dimensions of ``names`` whole where an Explicit mesh
    partitions them."""
    d = unshard(x.data, [x.dims.index(n) for n in names if n in x.dims])
    return x if d is x.data else new(d, x.dims, x.mapped)


def named_getitem(x: NamedArray, idx, d, rest):
    """``x[{"name": index, ...}]``, with the positional ``rest`` applied first."""
    fn = "__getitem__"
    base = x
    if rest:
        x = _take(x, rest if len(rest) > 1 else rest[0])
    x, entries = _prepare(fn, x, d)
    full, dims, _ = _plan(fn, x, entries)
    mapped = merge_mapped(fn, [x] + [e[1] for e in entries.values() if e[0] == "named"])
    where = implied(dims, [x] + [e[1] for e in entries.values() if e[0] == "named"])
    res = new(x.data[full] if where is None else x.data.at[full].get(out_sharding=where),
              dims, mapped)
    basic = all(e[0] in ("int", "slice") for e in entries.values()) and _basic(rest)
    if dims.count(None) and basic and not gathered_any(base, entries):
        # ints and slices: writes into the result reach x (NumPy's views, for writes)
        return view(res.data, res.dims, base, idx, res.mapped)
    return res


def gathered_any(x, entries):
    return any(n in dict(x.mapped) for n in entries)


def named_update(fn, x: NamedArray, d, rest, op, value):
    """The data of ``x`` with ``op`` (``"set"``, ``"add"``, ...) applied at the
    named index ``d`` (and the positional ``rest``): ``x.at[{...}].op(value)``."""
    if op not in _AT_OPS:
        raise AttributeError(f"{fn}: no update {op!r}; use one of {', '.join(_AT_OPS)}")
    if rest:
        if op != "set" and not _basic(rest):
            raise NotImplementedError(
                f"{fn}: .at[...].{op} with a positional index array next to a named index "
                "would drop repeated positions; index the positional axes by name (.tag) "
                "or use .set")
        r = rest if len(rest) > 1 else rest[0]
        sub = _take(x, r)
        sub = new(named_update(fn, sub, d, (), op, value), sub.dims, sub.mapped)
        return _positional_update(fn, x, r, "set", sub)
    g, entries = _prepare(fn, x, d)
    for e in entries.values():
        if e[0] == "named" and set(e[1].names) - set(g.named_shape):
            raise IndexError(f"{fn}: an index has named axes {e[1].named_shape} that the "
                             f"array (named shape {x.named_shape}) lacks; an update writes "
                             "within the array's axes")
    full, dims, shape = _plan(fn, g, entries)
    gathered = [n for n in entries if n in dict(x.mapped)]
    value = operand(value)
    if isinstance(value, NamedArray):
        value = _whole(fn, value, gathered)
    mapped = merge_mapped(fn, [g] + [e[1] for e in entries.values() if e[0] == "named"])
    vdata = _aligned_value(fn, dims, shape, mapped, value, g.dtype)
    data = getattr(g.data.at[full], op)(vdata)
    out = new(data, g.dims, g.mapped)
    if gathered:
        out = hooks.localize(fn, out, gathered)
    return order_like(out, x).data


def _aligned_value(fn, dims, shape, mapped, value, dtype):
    """``value`` broadcast to the layout of a region with ``dims``, physical
    ``shape`` and ``mapped`` names, cast to ``dtype``."""
    n = dims.count(None)
    want = dims[n:]
    named = {**dict(zip(want, shape[n:])), **dict(mapped)}
    if not isinstance(value, NamedArray):
        v = jnp.asarray(value, dtype=dtype)
        if v.ndim > n:
            raise ValueError(f"{fn}: could not broadcast a value of shape {v.shape} to the "
                             f"indexed shape {shape[:n]}")
        v = v.reshape((1,) * (n - v.ndim) + v.shape + (1,) * len(want))
        try:
            return jnp.broadcast_to(v, shape)
        except ValueError:
            raise ValueError(f"{fn}: could not broadcast a value of shape {jnp.shape(value)} "
                             f"to the indexed shape {shape[:n]}") from None
    extra = [d for d in value.named_shape if d not in named]
    if extra:
        raise ValueError(f"{fn}: the value has named axes {value.named_shape} that the "
                         f"indexed region (named shape {named}) lacks")
    if mapped:
        value = meet(fn, [new(jnp.zeros((), dtype), (), mapped), value])[0][1]
    vpos, have = value.ndim, value.names
    if vpos > n:
        raise ValueError(f"{fn}: could not broadcast the value of shape {value.shape} to "
                         f"the indexed shape {shape[:n]}")
    order = [w for w in want if w in have]
    v = value.data
    if tuple(order) != have:
        v = jax.lax.transpose(v, tuple(range(vpos)) + tuple(vpos + have.index(w)
                                                            for w in order))
    v = v.reshape((1,) * (n - vpos) + v.shape[:vpos] + tuple(
        v.shape[vpos + order.index(w)] if w in have else 1 for w in want))
    try:
        v = jnp.broadcast_to(v, shape)
    except ValueError:
        raise ValueError(f"{fn}: could not broadcast the value (shape {value.shape}, named "
                         f"shape {value.named_shape}) to the indexed region (shape "
                         f"{shape[:n]}, named shape {named})") from None
    return v.astype(dtype)


def order_like(y, x):
    """``y`` with its named dimensions in ``x``'s physical order."""
    if y.names == x.names:
        return y
    n = y.ndim
    perm = tuple(range(n)) + tuple(n + y.names.index(w) for w in x.names)
    return new(jax.lax.transpose(y.data, perm), x.dims, y.mapped)


def _positional_update(fn, x, idx, op, value):
    """The data of ``x`` with ``op`` applied at the positional index ``idx``."""
    check_index(fn, x.shape, idx)
    if _named_index(idx):
        raise TypeError(f"{fn}: a positional index with named axes is not supported in an "
                        "update; index those axes by name: x.at[{{'name': index}}]")
    region = jax.eval_shape(lambda a: _take(a, idx), x)
    didx = _full(_data_index(idx), len(x.names))
    vdata = _aligned_value(fn, region.dims, region.data.shape, region.mapped,
                           operand(value), x.dtype)
    return getattr(x.data.at[didx], op)(vdata)


class _Updater:
    """``x.at[index]``: ``set``, ``add``, ``subtract``, ``multiply``, ``divide``,
    ``power``, ``min``, ``max`` return a new array (``x`` is unchanged), ``get``
    returns ``x[index]``; the index may name axes: ``x.at[{"seq": 0}].add(1)``."""

    __slots__ = ("x", "idx")

    def __init__(self, x, idx):
        self.x, self.idx = x, idx

    def get(self):
        return _take(self.x, self.idx) if dict_key(self.idx) is None else \
            _copy(named_getitem(self.x, self.idx, *dict_key(self.idx)))

    def __getattr__(self, op):
        if op not in _AT_OPS:
            raise AttributeError(f"at[...]: no update {op!r}; use get or one of "
                                 f"{', '.join(_AT_OPS)}")

        def update(value):
            x, key = self.x, self.idx
            dk = dict_key(key)
            fn = f"at[...].{op}"
            data = named_update(fn, x, *dk, op, value) if dk is not None else \
                _positional_update(fn, x, key, op, value)
            return new(data, x.dims, x.mapped)
        return update


def _copy(x):
    return new(x.data, x.dims, x.mapped)


class _At:
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def __getitem__(self, idx):
        return _Updater(self.x, idx)


def at(x: NamedArray):
    """``x.at[index].set(v)`` and friends: a functional update (JAX's ``.at``),
    by position or by name.

    >>> import namedarray as np
    >>> x = np.zeros((2, 3)).tag("b", "s")
    >>> x.at[{"s": 1}].add(5).untag("b", "s")
    array([[0., 5., 0.],
           [0., 5., 0.]])
    """
    return _At(x)


# --------------------------------------------------------------------------
# the functions whose result size is data dependent
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
    res = _choose(a, choices, mode=mode)
    if out is not None and hasattr(out, "dtype") and isinstance(res, NamedArray) and \
            res.dtype != out.dtype:
        res = rewrap(res, res.data.astype(out.dtype))
    return store_out("choose", out, res)


__all__ = ["compress", "extract", "argwhere", "flatnonzero", "choose"]

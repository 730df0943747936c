"""Assignment: ``x[idx] = v`` (and ``a.flat[idx] = v``).  It rebinds ``x.data``
functionally (``.at[].set``), so every Python name that holds ``x`` sees the
change, as in NumPy; small data living on the host is written there by NumPy
(in place while no device array shares its buffer).  Values are cast as
NumPy's assignment casts them, with NumPy's errors.
"""
from __future__ import annotations

import functools
import math
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import backends
from ..core.array import (NamedArray, View, check_writeable, host_root, new, operand, positional,
                          writeable)
from ..core.sharding import explicit_mesh
from .engines import host, selection
from .engines.assign import assigned, check_scalar
from .engines.index_rules import check_index, flat_index, numpy_index, scalar_bools
from .engines.masks import traced
from .index_named import dict_key, named_update
from .index_take import (_SINGLE, _data_index, _full, _is_flat, _named_index,
                         _resident_items, _take)


def setitem(x: NamedArray, idx, value):
    """``x[idx] = value``; on data placed on an Explicit mesh outside
    ``jax.set_mesh``, inside that mesh (eager JAX updates such data only there)."""
    check_writeable("__setitem__", x)
    if type(x) is NamedArray and x._host is None and _resident_items(idx) is not None:
        host.read_in_place(x)           # (an index living on the host: NumPy writes it)
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
    idx = _data_index(idx, x.shape, x.data)
    value = assigned("__setitem__", x.dtype, value if type(value) in (
        list, tuple, onp.ndarray) else operand(value))   # (host data: converted on the host)
    k = len(x.dims) - x.dims.count(None)
    items = idx if type(idx) is tuple else (idx,)
    if not k and not value.names:
        x.data = backends.written(x.data, (value.data, *items), functools.partial(
            _write, idx_is_tuple=type(idx) is tuple))
        return
    region = _take(x, idx)
    region._assign("__setitem__", value)
    x.data = backends.written(x.data, (region.data, *_full(items, k)),
                              lambda d, a: d.at[a[1:]].set(a[0]))


def _write(d, items, idx_is_tuple):
    """``d[idx] = v`` for ``items`` ``(v, *idx)``, as NumPy writes it: a
    value's leading size-1 dimensions that the indexed region lacks dropped
    (``a[0] = ones((1, 2))`` into a row of 2), else NumPy's error."""
    v, *ix = items
    idx = tuple(ix) if idx_is_tuple else ix[0]
    try:
        return _scatter(d, idx, v)
    except ValueError as e:
        w = v.reshape(_without_leading_ones(v.shape))
        try:
            return _scatter(d, idx, w)
        except ValueError:
            region = d[idx].shape
            if len(w.shape) <= len(region) and all(
                    a in (1, b) for a, b in zip(w.shape[::-1], region[::-1])):
                raise e from None           # (not the shapes: JAX's error as it is)
            sh = lambda t: str(tuple(t)).replace(" ", "")  # noqa: E731  (NumPy's)
            raise ValueError(f"__setitem__: could not broadcast input array from shape "
                             f"{sh(v.shape)} into shape {sh(region)}") from None


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


_NUMBERS = frozenset((int, float, bool))


def _numbers(v) -> bool:
    """Whether ``v`` is a (nested) list or tuple of Python ints, floats, bools."""
    return type(v) in _NUMBERS or (type(v) is list or type(v) is tuple) and bool(v) and \
        all(map(_numbers, v))


def _numbers_into(dtype, value):
    """A (nested) list or tuple of Python numbers read straight into ``dtype``
    as NumPy reads an assigned sequence (``numpy.asarray(value, dtype)``: a
    Python int beyond an integer dtype is NumPy's ``OverflowError``, a NaN
    into integers its ``ValueError``); None for any other value, or where
    NumPy warns (an overflow to inf: the compiled path gives namedarray's
    warning)."""
    if not _numbers(value):
        return None
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            h = onp.asarray(value, dtype=dtype)
    except (OverflowError, ValueError) as e:
        raise type(e)(f"__setitem__: {e}") from None
    return None if seen else h


def resident_set(x, idx, value) -> bool:
    """``x[idx] = value`` by NumPy on the host buffer of ``x`` (written in
    place while no device array shares it, else a copy is written): whether
    it ran there.  ``x``: an array living on the host, or a view of one
    (written through, in place only).  The value: a Python number of ``x``'s
    kind or below, an array living on the host (or NumPy's own, no larger
    than ``x``) that NumPy's ``same_kind`` cast takes, or a (nested) list of
    Python numbers read into ``x``'s dtype."""
    h, root = host_root(x)
    items = _resident_items(idx) if h is not None else None
    if items is None:
        return False
    t = type(value)
    if t is NamedArray or t is View:
        v = host_root(value)[0]
        if v is None:
            v = _read_back(value, h.size)
        if v is None or value.mapped or not onp.can_cast(v.dtype, x.dtype, "same_kind"):
            return False
    elif t is float or t is int or t is bool:
        v = value
        if (t is float and x.dtype.kind in "biu") or (t is int and x.dtype.kind == "b"):
            return False
    elif t is list or t is tuple:
        v = _numbers_into(x.dtype, value)
        if v is None:
            return False
    elif t is onp.ndarray or isinstance(value, onp.generic):
        v = value       # (NumPy's own small array: written as NumPy writes it)
        if v.dtype not in host.RESIDENT_DTYPES or v.size > h.size or \
                not onp.can_cast(v.dtype, x.dtype, "same_kind"):
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


def _read_back(value, most):
    """NumPy's array of a positional NamedArray's (or view's) concrete device
    data of at most ``most`` elements (a value written into data living on the host,
    which then stays there: reading it back costs less than moving the
    target to the device and scattering there), else None."""
    d = value.data if type(value) is View else value._dev
    if not isinstance(d, jax.Array) or isinstance(d, jax.core.Tracer) or d.size > most \
            or value.dims.count(None) != len(value.dims):
        return None
    return onp.asarray(d)


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

"""NumPy's index rules that ``jax.numpy`` does not keep: bounds of integer index
arrays, broadcasting of advanced indices, scalar booleans.

An eager call (``x[i]``, ``x[i] = v``, ``take``, ``put``, ``ufunc.at``,
``take_along_axis``, ...) with an out-of-range integer index raises
``IndexError`` as NumPy does, whether the indices are a list, a NumPy array, a
``jax.Array`` or a NamedArray (a device array is checked with one small
reduction).  Under ``jax.jit`` the indices are abstract and cannot be checked:
JAX's rules apply there (a gather clamps an out-of-range index, a scatter drops
it; ``take`` takes ``mode="fill"``/``"clip"``/``"wrap"`` to choose).

>>> import namedarray as np
>>> np.arange(5)[np.asarray([1, 7])]
Traceback (most recent call last):
    ...
IndexError: __getitem__: index 7 is out of bounds for axis 0 with size 5
"""
from __future__ import annotations

import operator

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.array import NamedArray, new


def concrete(v) -> bool:
    """Whether ``v`` (an array, a NamedArray) holds values known now (not a tracer)."""
    d = v.data if isinstance(v, NamedArray) else v
    return not isinstance(d, jax.core.Tracer)


def _first_bad(v, size: int):
    """The first entry of an integer index array ``v`` outside ``[-size, size)``
    as a Python int, or None (none, not integer, or abstract under a
    transformation)."""
    d = v.data if isinstance(v, NamedArray) else v
    if isinstance(d, jax.core.Tracer):
        return None
    if isinstance(d, jax.Array):
        if d.size == 0 or not jnp.issubdtype(d.dtype, jnp.integer):
            return None
        found = _bad_device(d, onp.int64(size))
        if isinstance(found[0], jax.core.Tracer):
            return None     # a concrete index closed over by a jit: staged, unchecked
        anybad, first = jax.device_get(found)
        return int(first) if anybad else None
    h = onp.asarray(d)
    if h.size == 0 or h.dtype.kind not in "iu":
        return None
    bad = h[(h < -size) | (h >= size)]
    return int(bad.flat[0]) if bad.size else None


@jax.jit
def _bad_device(d, size):
    d = d.ravel()
    if d.dtype == jnp.uint64:
        bad = d >= size.astype(jnp.uint64)
    else:
        d = d.astype(jnp.int64)
        bad = (d < -size) | (d >= size)
    return jnp.any(bad), d[jnp.argmax(bad)]


def check_bounds(fn: str, ind, size: int, what: str):
    """Raise NumPy's ``IndexError`` if an integer index array ``ind`` has an
    entry outside ``[-size, size)``; ``what`` names the axis ("axis 0")."""
    bad = _first_bad(ind, size)
    if bad is not None:
        raise IndexError(f"{fn}: index {bad} is out of bounds for {what} with size {size}")


def wide_index(d):
    """An integer index array narrower than ``intp`` widened to it (``jax.numpy``
    normalizes negative entries in the index dtype, which overflows when the
    axis is longer than that dtype holds)."""
    if isinstance(d, (jax.Array, onp.ndarray)) and d.dtype.kind in "iu" and \
            d.dtype.itemsize < 8:
        return d.astype(onp.intp)
    return d


def check_broadcast(fn: str, items):
    """NumPy's ``IndexError`` for advanced (integer) indices that do not broadcast."""
    shapes = []
    for it in items:
        if isinstance(it, (NamedArray, jax.Array, onp.ndarray, list)):
            dt = getattr(it, "dtype", None)
            if dt is None:
                h = onp.asarray(it)
                dt = h.dtype if h.size else onp.dtype(onp.intp)
                shape = h.shape
            else:
                shape = tuple(it.shape)
            if dt != bool:
                shapes.append(shape)
    if len(shapes) > 1:
        try:
            onp.broadcast_shapes(*shapes)
        except ValueError:
            raise IndexError(
                f"{fn}: shape mismatch: indexing arrays could not be broadcast together "
                f"with shapes {' '.join(map(str, shapes))}") from None


def _scalar_bool(it) -> bool:
    return isinstance(it, (bool, onp.bool_)) or (
        isinstance(it, onp.ndarray) and it.ndim == 0 and it.dtype == bool)


def scalar_bools(x: NamedArray, idx):
    """An index with scalar booleans rewritten as NumPy reads them: each adds an
    axis of length 1 that a 1-element (``True``) or empty (``False``) integer
    index then selects.  Returns ``(x with those axes, index)``, or ``None``
    when ``idx`` has no scalar boolean."""
    items = idx if isinstance(idx, tuple) else (idx,)
    if not any(_scalar_bool(it) for it in items):
        return None
    used = sum(0 if it is None or it is Ellipsis or _scalar_bool(it) else (
        getattr(it, "ndim", onp.ndim(it)) if getattr(it, "dtype", None) == bool else 1)
        for it in items)
    data, ax, out = x.data, 0, []
    for it in items:
        if _scalar_bool(it):
            data = jnp.expand_dims(data, ax)
            out.append(onp.zeros(1 if bool(it) else 0, onp.intp))
            ax += 1
        elif it is Ellipsis:
            ax += x.ndim - used
            out.append(it)
        elif it is None:
            out.append(it)
        else:
            ax += getattr(it, "ndim", onp.ndim(it)) if getattr(it, "dtype", None) == bool \
                else 1
            out.append(it)
    count = sum(1 for it in items if _scalar_bool(it))
    dims = (None,) * (x.ndim + count) + x.names
    return new(data, dims, x.mapped), tuple(out)


_PLAIN = (int, slice, type(None), type(Ellipsis), list, str, dict, bool, NamedArray)


def numpy_index(idx):
    """An index as NumPy reads it: a tuple subclass is a tuple (of items); an
    item that is no array, number or slice but has ``__index__`` is that int,
    and one with ``__array__`` is that array."""
    if type(idx) is tuple:
        if all(type(i) in _PLAIN for i in idx):
            return idx
        return tuple(_index_item(i) for i in idx)
    if type(idx) in _PLAIN:
        return idx
    if isinstance(idx, tuple) and not hasattr(idx, "_fields"):
        return tuple(_index_item(i) for i in idx)
    return _index_item(idx)


def _index_item(i):
    if isinstance(i, tuple):        # a sequence inside the index: an array index
        return list(i)
    if type(i) in _PLAIN or isinstance(i, (NamedArray, jax.Array, onp.ndarray, onp.generic,
                                           list, slice)):
        return i
    if hasattr(i, "__index__"):
        try:
            return operator.index(i)
        except TypeError:
            return i
    if hasattr(i, "__array__"):
        return onp.asarray(i)
    return i


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
              "and integer or boolean arrays are valid indices")


def check_index(fn, shape, idx):
    """NumPy's static index errors: out-of-bounds ints (and host integer arrays),
    float indices, too many indices.  Device index arrays are not synced."""
    items = idx if isinstance(idx, tuple) else (idx,)
    consumed = []
    bad_slice = None
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
            for part in (it.start, it.stop, it.step):
                if part is not None and not isinstance(part, (NamedArray, jax.Array)):
                    try:
                        operator.index(part)
                    except TypeError:
                        bad_slice = bad_slice or it
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
    if bad_slice is not None:       # (after the items' IndexErrors, as NumPy)
        raise TypeError(f"{fn}: slice indices must be integers or None or have an "
                        f"__index__ method (got {bad_slice!r})")

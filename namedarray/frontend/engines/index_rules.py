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

import math
import operator
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.array import NamedArray, host_array, new
from .fperr import _stacklevel


def concrete(v) -> bool:
    """Whether ``v`` (an array, a NamedArray) holds values known now (not a tracer)."""
    d = v.data if isinstance(v, NamedArray) else v
    return not isinstance(d, jax.core.Tracer)


def _first_bad(v, size: int):
    """The first entry of an integer index array ``v`` outside ``[-size, size)``
    as a Python int, or None (none, not integer, or abstract under a
    transformation)."""
    if isinstance(v, NamedArray) and v._host is not None:
        d = host_array(v._host)     # (living on the host: checked there)
    else:
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


def wide_index(d, shape=None):
    """An integer index array narrower than ``intp`` widened to it where an axis
    of ``shape`` (None: any axis) is longer than its dtype holds (``jax.numpy``
    normalizes negative entries in the index dtype, which overflows there;
    elsewhere the index stays as it is, as jax.numpy's gather takes it); a
    host one of non-native byte order (``>i8``, which JAX cannot hold) read in
    native order."""
    if isinstance(d, (jax.Array, onp.ndarray)) and d.dtype.kind in "iu" and \
            d.dtype.itemsize < 8 and (shape is None or max(shape, default=0) > onp.iinfo(
                d.dtype).max):
        return d.astype(onp.intp)
    if isinstance(d, onp.ndarray) and not d.dtype.isnative:
        return d.astype(d.dtype.newbyteorder("="))
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
    if hasattr(i, "__array__"):     # (which may give one of namedarray's arrays)
        a = i.__array__()
        return a if isinstance(a, NamedArray) else onp.asarray(a)
    return i


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
              "and integer or boolean arrays are valid indices")


MAXDIMS = 64     # NumPy's NPY_MAXDIMS (and NPY_MAXARGS): its limits on an index


def _check_limits(fn, shape, items, consumed, used):
    """NumPy's limits on advanced indexing (its iterator takes at most 64
    operands, its arrays at most 64 dimensions): more than 64 advanced
    indices, a result of more than 64 dimensions, or 64 or more index arrays
    with no subspace (no axes left, or only axes of length 1) raise
    ``IndexError``, as in NumPy (``jax.numpy`` has no such limit)."""
    arrays, fancy_nd = 0, 0
    for it, c in zip(items, consumed):
        if _scalar_bool(it):
            arrays, fancy_nd = arrays + 1, max(fancy_nd, 1)
        elif isinstance(it, (NamedArray, jax.Array, onp.ndarray, list)):
            nd = len(getattr(it, "shape", onp.shape(it)))
            boolean = nd and c == nd and (getattr(it, "dtype", None) == bool or (
                isinstance(it, list) and onp.asarray(it).dtype == bool))
            arrays += nd if boolean else 1
            fancy_nd = max(fancy_nd, 1 if boolean else nd)
    if arrays < MAXDIMS - 1 and len(shape) + len(items) < MAXDIMS:
        return      # (the common case)
    left, ax = [], 0        # the sizes of the axes a slice keeps or no index consumes
    for it, c in zip(items, consumed):
        if c == -1:
            left += shape[ax:ax + len(shape) - used]
            ax += len(shape) - used
        elif c > 0:
            if isinstance(it, slice):
                try:
                    left.append(len(range(*it.indices(shape[ax]))))
                except TypeError:
                    left.append(shape[ax])
            ax += c
    left += shape[ax:]
    ndim = len(left) + sum(1 for it in items if it is None) + fancy_nd
    if ndim > MAXDIMS:
        raise IndexError(f"{fn}: number of dimensions must be within [0, {MAXDIMS}], "
                         f"indexing result would have {ndim}")
    if arrays > MAXDIMS:
        raise IndexError(f"{fn}: too many advanced (array) indices. This probably means "
                         f"you are indexing with too many booleans. (more than {MAXDIMS} "
                         "found)")
    if arrays > MAXDIMS - 1 and math.prod(left) <= 1:
        raise IndexError(f"{fn}: when no subspace is given, the number of index arrays "
                         f"cannot be above {MAXDIMS - 1}, but {arrays} index arrays found")


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
    _check_limits(fn, shape, items, consumed, used)
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


# --------------------------------------------------------------------------
# a.flat[idx]: NumPy's flat iterator reads an index by its own rules
# --------------------------------------------------------------------------
FLAT = "ndarray.flat"       # the ``_what`` of the view ``a.flat`` gives

_FLAT_BAD = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean "
             "arrays are valid indices")
_FLAT_BOOLS = ("boolean indices for iterators are not supported because of previous "
               "behavior that was confusing (valid boolean indices are expected to "
               "work in the future)")


def _flat_deprecated(what):
    msg = ("Indexing flat iterators with a 0-dimensional boolean index is deprecated "
           "and may be removed in a future version. (Deprecated NumPy 2.4)"
           if what == "bool" else
           "Invalid non-array indices for iterator objects are deprecated and will be "
           "removed in a future version. (Deprecated NumPy 2.4)")
    warnings.warn(msg, DeprecationWarning, stacklevel=_stacklevel())


def _flat_bounds(fn, h, size):
    bad = _first_bad(h, size)
    if bad is not None:
        raise IndexError(f"{fn}: index {bad} is out of bounds for size {size}")


def flat_index(fn: str, size: int, idx, assign: bool = False):
    """``a.flat[idx]`` as an index of the flat (1-d) view of ``size`` elements,
    with NumPy's flat-iterator rules: ``()`` and ``...`` are all elements (an
    assignment with ``()`` raises), a 1-tuple is its item, ``None`` and more
    than one index raise; a Python ``True``/``False`` (or 0-d boolean array)
    is element 0 / nothing, with NumPy's ``DeprecationWarning``, while
    NumPy's boolean scalar and a list of booleans raise; a boolean array must
    be 1-d of ``size`` entries; a float or a list of floats is truncated to
    integers with a ``DeprecationWarning``; an integer out of range raises.

    >>> import namedarray as np
    >>> a = np.arange(6).reshape(2, 3)
    >>> a.flat[[1, 4]]
    array([1, 4])
    >>> a.flat[None]
    Traceback (most recent call last):
        ...
    IndexError: __getitem__: only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid indices
    """
    if isinstance(idx, tuple):
        if not idx:
            if assign:
                raise IndexError(f"{fn}: Assigning to a flat iterator with a 0-D index is "
                                 "not supported (assign all elements with a.flat[...] = v)")
            return Ellipsis
        if len(idx) > 1:
            if any(i is None or i is Ellipsis for i in idx):
                raise IndexError(f"{fn}: {_FLAT_BAD}")
            raise IndexError(f"{fn}: too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {len(idx)} were indexed")
        idx = idx[0]
    if idx is Ellipsis or isinstance(idx, slice):
        return idx
    if idx is None or isinstance(idx, (str, bytes, dict)):
        raise IndexError(f"{fn}: {_FLAT_BAD}")
    if isinstance(idx, NamedArray) and not idx.dims and not getattr(idx, "_array0d", False) \
            and not idx.mapped and idx.dtype == bool:
        raise IndexError(f"{fn}: {_FLAT_BOOLS}")       # NumPy's boolean scalar
    if isinstance(idx, bool) or (isinstance(idx, (NamedArray, jax.Array, onp.ndarray)) and
                                 idx.ndim == 0 and idx.dtype == bool):
        _flat_deprecated("bool")
        return 0 if bool(idx) else slice(0, 0)
    if isinstance(idx, onp.bool_):
        raise IndexError(f"{fn}: {_FLAT_BOOLS}")
    if isinstance(idx, (NamedArray, jax.Array, onp.ndarray)):
        dt = onp.dtype(idx.dtype)
        if dt == bool:
            if idx.ndim > 1:
                raise IndexError(f"{fn}: too many indices for flat iterator: flat iterator "
                                 f"is 1-dimensional, but {idx.ndim} were indexed")
            if idx.shape[0] not in (0, size):
                raise IndexError(f"{fn}: boolean index did not match indexed flat iterator "
                                 f"along axis 0; size of axis is {size} but size of "
                                 f"corresponding boolean axis is {idx.shape[0]}")
            return idx if idx.shape[0] else onp.zeros(0, onp.intp)
        if dt.kind not in "iu":
            raise IndexError(f"{fn}: arrays used as indices must be of integer (or boolean) "
                             f"type; got dtype {dt}")
        _flat_bounds(fn, idx, size)
        return idx
    if isinstance(idx, (float, onp.floating)):
        _flat_deprecated("float")
        idx = int(idx)
    if hasattr(idx, "__index__") and not hasattr(idx, "__len__"):
        i = operator.index(idx)
        if not -size <= i < size:
            raise IndexError(f"{fn}: index {i} is out of bounds for size {size}")
        return i
    try:        # a sequence (a list, another flat iterator): an index array
        h = onp.asarray(idx)
    except (TypeError, ValueError):
        raise IndexError(f"{fn}: {_FLAT_BAD}") from None
    if h.size == 0:
        return h.astype(onp.intp)
    if h.dtype == bool:
        raise IndexError(f"{fn}: {_FLAT_BOOLS}")
    if h.dtype.kind == "f":
        _flat_deprecated("float")
        h = h.astype(onp.intp)
    elif h.dtype.kind not in "iu":
        raise IndexError(f"{fn}: {_FLAT_BAD}")
    _flat_bounds(fn, h, size)
    return h

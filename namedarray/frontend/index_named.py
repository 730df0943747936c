"""Named indexing: ``x[{"seq": slice(0, 16), "head": 0}]``, index arrays and
NamedArray indices by name (an outer, by-name gather), and the functional
updates ``x.at[...]`` by position or by name (``set``, ``add``, ...).
"""
from __future__ import annotations

import operator

import jax
import jax.numpy as jnp
import numpy as onp

from .. import parallel
from ..core import backends, hooks
from ..core.array import NamedArray, new, operand
from ..core.derived import view
from ..core.align import meet, merge_mapped
from ..core.sharding import unshard
from ..placement import implied
from .engines.generic import beside
from .engines.index_rules import check_index
from .index_take import _basic, _data_index, _full, _named_index, _take


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
    full = backends.beside(x.data, full)
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
        value = beside((g, _whole(fn, value, gathered)))[1]
    mapped = merge_mapped(fn, [g] + [e[1] for e in entries.values() if e[0] == "named"])
    vdata = _aligned_value(fn, dims, shape, mapped, value, g.dtype)
    data = backends.written(g.data, (vdata, *full),
                            lambda d, a: getattr(d.at[a[1:]], op)(a[0]))
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
    didx = _full(_data_index(idx, x.shape, x.data), len(x.names))
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

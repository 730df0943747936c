"""Parallel collective primitives over axis names.

Each primitive takes one name or a tuple of names (a tuple acts as one
flattened axis, in C order) and asks the placement layer where every name
lives for its operand (``namedarray.placement``):

* a **physical** named dimension -> the primitive's batching rule (``psum``
  reduces that dimension; ``all_gather`` makes it positional; ``ppermute``
  moves along it);
* **mapped** by an enclosing ``nmap`` -> the ``jax.lax`` collective over the
  map's axes (a vmap axis, mesh axes, or both when maps nest);
* a **block** of a split name (a local block here times mesh axes) -> the
  local step over the block, then the collective.

Every named reduction, contraction, fft and gather of the frontend comes here;
this is the one route from a name to a collective.

>>> import namedarray as np
>>> from namedarray import parallel
>>> x = np.arange(6.0).reshape(2, 3).tag("i", "j")
>>> parallel.psum(x, "i").named_shape
{'j': 3}
>>> np.nmap(lambda v: parallel.psum(v, "i"))(x).named_shape   # the same, mapped
{'j': 3}
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax import lax
from jax._src.lax.parallel import all_gather_invariant

from ..core import backends, config, hooks
from ..core.array import NamedArray, new, operand, positional
from ..core.sharding import unshard
from ..core.vmap import batched, gather_vmap, held_at, primitive, psum_vmap
from ..placement import instance_index, localize, resolve, vary

__all__ = ["psum", "pmean", "pmax", "pmin", "pprod", "pany", "pall", "pargmax",
           "pargmin", "all_gather", "all_to_all", "ppermute", "pshuffle",
           "axis_index", "axis_size", "gather_names", "scatter_names", "local_names"]


def _names(axis_name):
    return (axis_name,) if isinstance(axis_name, str) else tuple(axis_name)


def _as_named(x):
    x = operand(x)
    return x if isinstance(x, NamedArray) else positional(jnp.asarray(x))


def _each(one, x):
    """Apply ``one`` to every NamedArray leaf of the pytree ``x``."""
    if isinstance(x, NamedArray) or not isinstance(x, (list, tuple, dict)):
        return one(x)
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))


def _over_groups(collective, data, b):
    """``collective(data, group, kind, size)`` over each of the binding's axis
    groups, minor first (a vmap axis and mesh axes cannot share one collective)."""
    for g, kind, size in zip(reversed(b.groups), reversed(b.kinds), reversed(b.sizes)):
        data = collective(data, g, kind, size)
    return data


def _axis(group):
    return group if len(group) > 1 else group[0]


def _gathers(family, dtype) -> bool:
    """Whether the devices of the mesh in scope lack the all-reduce
    ``family`` for ``dtype`` (``backends.TABLE``: a TPU's reduces 64-bit
    types by sum only, and uint64 not at all): then the reduction of the
    gathered blocks, the same answer at an all-gather's cost.  The mesh's
    platform is the abstract mesh's (a CPU mesh on a TPU machine all-reduces
    every dtype); where no mesh says, the machine's accelerator's."""
    if backends.cpu_only():
        return False
    platform = backends.mesh_platform() or backends.accelerator()
    return platform is not None and backends.lacks(
        platform, family, (dtype,), False) is not None


def _psum_group(x, group, kind, size):
    if kind == "vmap":
        return psum_vmap.bind(x, axis=group[0])
    if _gathers("allreduce_sum", x.dtype):
        return jnp.sum(all_gather_invariant(x, tuple(group), axis=0), axis=0, dtype=x.dtype)
    return lax.psum(x, group)


def _all_gather_group(x, group, kind, size, tiled=False, dim=0):
    """``lax.all_gather`` into axis ``dim`` (stacked, or ``tiled``)."""
    if kind == "vmap":
        return gather_vmap.bind(x, axis=group[0], size=size, tiled=tiled, dim=dim)
    # the gathered value is the same on every device: its transpose takes
    # this device's slice (lax.all_gather's would sum over the devices)
    return all_gather_invariant(x, tuple(group), axis=dim, tiled=tiled)


# --------------------------------------------------------------------------
# reductions over names
# --------------------------------------------------------------------------
def _vmap_chooser(red):
    """``red`` (``jnp.max``/``jnp.min``) over one vmapped name."""
    p = primitive(f"p{red.__name__}_vmap")
    batched(p, lambda x, d, size, *, axis: (x if d is None else red(x, axis=d), None))
    return p


def _group_chooser(coll, red):
    """``coll`` (``lax.pmax``/``pmin``) over a group of mesh axes, ``red``
    over a vmapped name, or of the gathered blocks (:func:`_gathers`)."""
    vmap_prim = _vmap_chooser(red)

    def chooser(x, group, kind, size):
        if kind == "vmap":
            return vmap_prim.bind(x, axis=group[0])
        if _gathers("allreduce_max", x.dtype):
            return red(all_gather_invariant(x, tuple(group), axis=0), axis=0)
        return coll(x, group)
    return chooser


_pmax_group = _group_chooser(lax.pmax, jnp.max)
_pmin_group = _group_chooser(lax.pmin, jnp.min)


def _differentiable(chooser):
    """JAX has no derivative for pmax/pmin: the tangent of the chosen value,
    shared equally among ties (as ``jnp.max``'s)."""
    prim = jax.custom_jvp(chooser, nondiff_argnums=(1, 2, 3))

    @prim.defjvp
    def _jvp(group, kind, size, primals, tangents):
        (x,), (t,) = primals, tangents
        m = chooser(x, group, kind, size)
        eq = x == m
        tsum = _psum_group(jnp.where(eq, t, jnp.zeros_like(t)), group, kind, size)
        cnt = _psum_group(eq.astype(t.dtype), group, kind, size)
        return m, tsum / cnt
    return prim


def _pprod_group(x, group, kind, size):
    return jnp.prod(_all_gather_group(x, group, kind, size), axis=0)


def _reducer(fn, local, collective, repeat=None):
    """A reduction primitive: ``local`` over the operand's physical and block
    dimensions, then ``collective`` over each enclosing map's axes.
    ``repeat(data, k)`` is the reduction of ``k`` copies of ``data`` (a value
    that does not vary along a split name stands for each element of its block)."""
    def prim(x, axis_name):
        def one(v):
            v = _as_named(v)
            places = resolve(fn, v, _names(axis_name))
            v = vary(v, [p.name for p in places if p.kind == "invariant"])
            phys = tuple(p.dim for p in places if p.dim is not None)
            data = local(v.data, phys) if phys else v.data
            dims = tuple(d for i, d in enumerate(v.dims) if i not in phys)
            mapped = dict(v.mapped)
            dt = data.dtype   # kept, as the local step keeps it (psum of bool is any)
            for p in places:
                if p.binding is None:
                    continue
                if p.kind == "invariant" and p.binding.physical and repeat is not None:
                    data = repeat(data, p.binding.block).astype(dt)
                if dt == jnp.bool_:
                    data = _over_groups(collective, data.astype(jnp.int32), p.binding) != 0
                else:
                    data = _over_groups(collective, data, p.binding).astype(dt)
                mapped.pop(p.name, None)
            return new(data, dims, tuple(mapped.items()))
        return _each(one, x)
    prim.__name__ = prim.__qualname__ = fn
    return prim


def _keep_dtype(red):
    return lambda d, ax: red(d, axis=ax).astype(d.dtype)


psum = _reducer("psum", _keep_dtype(jnp.sum), _psum_group, lambda d, k: d * k)
pmax = _reducer("pmax", lambda d, ax: jnp.max(d, axis=ax), _differentiable(_pmax_group))
pmin = _reducer("pmin", lambda d, ax: jnp.min(d, axis=ax), _differentiable(_pmin_group))
pprod = _reducer("pprod", _keep_dtype(jnp.prod), _pprod_group, lambda d, k: d ** k)
pany = _reducer("pany", lambda d, ax: jnp.any(d, axis=ax), _pmax_group)
pall = _reducer("pall", lambda d, ax: jnp.all(d, axis=ax), _pmin_group)
psum.__doc__ = """Sum over the named axes (``lax.psum``; the dtype is kept).

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.psum(np.arange(6.0).reshape(2, 3).tag("i", None), "i")
array([3., 5., 7.])
"""
pmax.__doc__ = """Maximum over the named axes (differentiable, unlike ``lax.pmax``).

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.pmax(np.asarray([3, 1, 2]).tag("i"), "i")
np.int64(3)
"""
pmin.__doc__ = """Minimum over the named axes (differentiable, unlike ``lax.pmin``).

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.pmin(np.asarray([3, 1, 2]).tag("i"), "i")
np.int64(1)
"""
pprod.__doc__ = """Product over the named axes.

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.pprod(np.asarray([2, 3, 4]).tag("i"), "i")
np.int64(24)
"""
pany.__doc__ = """Logical or over the named axes.

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.pany(np.asarray([False, True]).tag("i"), "i")
np.True_
"""
pall.__doc__ = """Logical and over the named axes.

>>> import namedarray as np
>>> from namedarray import parallel
>>> parallel.pall(np.asarray([False, True]).tag("i"), "i")
np.False_
"""


def pmean(x, axis_name):
    """Mean over the named axes.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pmean(np.asarray([1.0, 2.0, 6.0]).tag("i"), "i")
    np.float64(3.0)
    """
    def one(v):
        v = _as_named(v)
        n = 1   # how many values psum adds up
        for p in resolve("pmean", v, _names(axis_name)):
            if p.kind == "physical":
                n *= v.data.shape[p.dim]
            elif p.kind == "mapped":   # one value per instance of the map
                n *= math.prod(p.binding.sizes)
            else:
                n *= p.binding.size
        if not jnp.issubdtype(v.dtype, jnp.inexact):
            # the mean of the values, not of their sum in the input dtype (a
            # bool sum is any; an int8 one overflows), as lax.pmean
            v = new(v.data.astype(jnp.result_type(float)), v.dims, v.mapped)
        s = psum(v, axis_name)
        d = s.data
        if jnp.issubdtype(d.dtype, jnp.complexfloating):
            # NumPy's complex division by a real count: each part times 1 / n, an
            # infinite part makes the other NaN (XLA's division keeps inf+infj)
            r = 1 / jnp.asarray(n, d.real.dtype)
            d = lax.complex((d.real + d.imag * 0) * r, (d.imag - d.real * 0) * r)
        else:
            d = d / n
        return new(d, s.dims, s.mapped)
    return _each(one, x)


def _arg(fn, better):
    def prim(x, axis_name):
        names = _names(axis_name)
        x = _as_named(x)
        g = gather_names(fn, x, names)
        k = len(names)
        d = g.data.reshape((-1,) + g.data.shape[k:]) if k != 1 else g.data
        return new(better(d, axis=0), g.dims[k:], g.mapped)
    prim.__name__ = prim.__qualname__ = fn
    what = "maximum" if better is jnp.argmax else "minimum"
    prim.__doc__ = f"""Index of the {what} over the named axes (flat, C order over
    the names given).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.{fn}(np.asarray([[1, 5], [7, 0]]).tag("i", "j"), ("i", "j"))
    np.int64({2 if what == "maximum" else 3})
    """
    return prim


pargmax = _arg("pargmax", jnp.argmax)
pargmin = _arg("pargmin", jnp.argmin)


def local_names(fn, x: NamedArray, names):
    """Split ``names`` into those that are whole physical axes of ``x`` (a
    reduction over them is local) and the others, with their global sizes: a
    block of a split name or a name mapped away (local step, then a collective)."""
    whole, elsewhere = [], {}
    for p in resolve(fn, x, names):
        if p.kind == "physical":
            whole.append(p.name)
        else:
            elsewhere[p.name] = p.binding.size
    return tuple(whole), elsewhere


# --------------------------------------------------------------------------
# sizes and indices
# --------------------------------------------------------------------------
def axis_size(axis_name, x=None) -> int:
    """Global size of the named axes (the product for a tuple): ``psum(1, name)``.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.axis_size(("i", "j"), np.zeros((2, 3)).tag("i", "j"))
    6
    """
    x = _as_named(x) if x is not None else None
    size = 1
    for p in resolve("axis_size", x, _names(axis_name)):
        size *= p.binding.size if p.binding is not None else x.data.shape[p.dim]
    return size


def axis_index(axis_name):
    """This instance's index along names bound by an enclosing map;
    ``axis_index(("i", "j")) == i * size_j + j``.  A split name gives this
    device's block of indices.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.zeros((2, 3)).tag("i", "j")
    >>> np.nmap(lambda v: parallel.axis_index(("i", "j")) + v)(x).untag("i", "j")
    array([[0., 1., 2.],
           [3., 4., 5.]])
    """
    dt = jnp.int64 if config.numpy_dtypes() else jnp.int32
    data, dims, mapped = jnp.zeros((), dt), (), {}
    for p in resolve("axis_index", None, _names(axis_name)):
        b = p.binding
        i = instance_index(b).astype(dt)
        if b.physical:   # a split name: this device's block of global indices
            i = i * b.block + jnp.arange(b.block, dtype=dt)
            data = data.reshape(data.shape + (1,))
            dims = dims + (p.name,)
        data = data * b.size + i
        mapped[p.name] = b.size
    return new(data, dims, tuple(mapped.items()))


# --------------------------------------------------------------------------
# data movement
# --------------------------------------------------------------------------
def gather_names(fn, x: NamedArray, names, last=False, named=False) -> NamedArray:
    """Make ``names`` the leading positional axes of ``x`` (``last``: the
    trailing ones, which leaves a name next to the positional axes where it
    is; ``named``: whole named axes), in order: the whole axis, wherever it
    lives ("forget the mapping", as xmap's ``all_gather``).
    A mapped name is gathered over its map's axes, a split name's blocks are
    concatenated in global order, and a value that does not vary along a bound
    name is repeated along it.  Each gathered name goes straight to its place,
    after the positional axes and the names gathered before it; with
    ``named``, where the ``vmap`` over it holds it when that is past the
    positional axes (:func:`~namedarray.core.vmap.held_at`), so that the
    einsum engine's gather-compute-part round over vmapped names moves no
    data."""
    x = _as_named(x)
    resolve(fn, x, names)             # every name checked before any moves
    whole, gathered = [], 0
    for name in names:
        # each name where it lives now: gathering one moves the others' dims
        (p,) = resolve(fn, x, (name,))
        b = p.binding
        if b is None:
            whole.append(p.name)
            continue
        d = x.data
        if p.kind == "block":
            for g in reversed(b.groups):
                d = all_gather_invariant(d, tuple(g), axis=p.dim, tiled=True)
            x = new(d, x.dims, _without(x.mapped, p.name))
            continue
        at = x.ndim + gathered
        if named and b.kinds[-1] == "vmap":    # where the map holds it, if known (and
            held = held_at(d, b.groups[-1][0], x.ndim)    # past the positional axes)
            at = at if held is None else held
        if p.kind == "invariant":
            d = jnp.broadcast_to(jnp.expand_dims(d, at), d.shape[:at] + (b.size,) + d.shape[at:])
        else:
            groups = zip(reversed(b.groups), reversed(b.kinds), reversed(b.sizes))
            for k, (g, kind, size) in enumerate(groups):   # minor group first
                d = _all_gather_group(d, g, kind, size, tiled=k > 0, dim=at)
        x = new(d, x.dims[:at] + (p.name,) + x.dims[at:], _without(x.mapped, p.name))
        gathered += 1
    if not last and not named:
        return x.untag(*names)
    if whole:   # a whole axis partitioned over Explicit mesh axes: gather it
        x = new(unshard(x.data, [x.dims.index(n) for n in whole]), x.dims, x.mapped)
    if named:
        return x
    n = x.ndim
    rest = tuple(d for d in x.names if d not in names)
    perm = tuple(range(n)) + tuple(x.dims.index(d) for d in tuple(names) + rest)
    d = x.data if perm == tuple(range(len(perm))) else lax.transpose(x.data, perm)
    return new(d, (None,) * (n + len(names)) + rest, x.mapped)


def vmapped_names(fn, x: NamedArray, names) -> list:
    """Those of ``names`` that ``x`` holds mapped by local ``nmap`` s only
    (``vmap``-ed, no mesh axis): gathering them moves a batch dimension into
    the data, no communication."""
    mapped = dict(x.mapped)
    return [p.name for p in resolve(fn, x, [n for n in names if n in mapped])
            if p.kind == "mapped" and all(k == "vmap" for k in p.binding.kinds)]


def _without(mapped, name):
    return tuple((n, s) for n, s in mapped if n != name)


def scatter_names(fn, y: NamedArray, names, like: NamedArray, last=False) -> NamedArray:
    """Inverse of :func:`gather_names`: the leading (``last``: trailing)
    positional axes of ``y`` get the names back, and each name ``like`` held
    only part of (mapped, or a block) is cut back to this instance's part --
    unless the operation changed its length (``diff``), which leaves the whole
    axis here."""
    k = len(names)
    pos = (None,) * (y.ndim - k)
    out = y.tag(*pos, *names) if last else y.tag(*names, *pos)
    had = dict(like.mapped)
    back = [n for n in names if n in had and out.named_shape[n] == had[n]]
    return localize(fn, out, back) if back else out


def all_gather(x, axis_name, *, axis=0, tiled=False):
    """Gather the values along the named axes into positional axis ``axis``.

    The name is "forgotten": the result holds every value of the name and no
    longer varies along it.  ``tiled=True`` concatenates into axis ``axis``
    instead of stacking a new one.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.arange(6.0).reshape(2, 3).tag("i", None)
    >>> np.nmap(lambda v: parallel.all_gather(v, "i", tiled=True))(x)
    array([0., 1., 2., 3., 4., 5.])
    """
    def one(v):
        v = _as_named(v)
        names = _names(axis_name)
        g = gather_names("all_gather", v, names)
        k = len(names)
        d = g.data
        if k > 1:
            d = d.reshape((-1,) + d.shape[k:])
        n = v.ndim
        ax = axis if axis >= 0 else axis + n + (0 if tiled else 1)
        if tiled:
            if n == 0:
                raise ValueError("all_gather: tiled=True needs a positional axis to "
                                 "concatenate into; the operand is 0-d")
            d = jnp.moveaxis(d, 0, ax)
            shp = d.shape
            d = d.reshape(shp[:ax] + (shp[ax] * shp[ax + 1],) + shp[ax + 2:])
            return new(d, (None,) * n + g.dims[k + n:], g.mapped)
        d = jnp.moveaxis(d, 0, ax)
        return new(d, (None,) * (n + 1) + g.dims[k + n:], g.mapped)
    return _each(one, x)


def _along_flat(fn, v, names, op):
    """Run ``op(data, size)`` on the whole axis ``names`` flattened (C order)
    into leading axis 0 of ``data``; give the names back, each cut to this
    instance's part where ``v`` held only part of it."""
    g = gather_names(fn, v, names)
    k = len(names)
    shape = g.data.shape[:k]
    d = op(g.data.reshape((-1,) + g.data.shape[k:]), math.prod(shape))
    return scatter_names(fn, new(d.reshape(shape + d.shape[1:]), g.dims, g.mapped),
                         names, v)


def ppermute(x, axis_name, perm):
    """Send data along a name: for each ``(src, dst)`` pair, ``out[dst] = in[src]``;
    destinations nobody sends to get zeros.  A tuple of names is one axis (C order).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.arange(3.0).tag("i")
    >>> parallel.ppermute(x, "i", [(0, 1), (1, 2)]).untag("i")
    array([0., 0., 1.])
    """
    perm = [tuple(map(int, p)) for p in perm]
    dsts = [d for _, d in perm]
    if len(set(dsts)) != len(dsts) or len({s for s, _ in perm}) != len(perm):
        raise ValueError(f"ppermute: perm {perm} sends from or to one index twice")
    names = _names(axis_name)

    def one(v):
        v = _as_named(v)
        places = resolve("ppermute", v, names)
        size = math.prod(p.binding.size if p.binding is not None else v.data.shape[p.dim]
                         for p in places)
        for s, d in perm:
            if not (0 <= s < size and 0 <= d < size):
                raise ValueError(f"ppermute: pair {(s, d)} is out of range for axis "
                                 f"{axis_name!r} of size {size}")
        (p, *more) = places
        b = p.binding
        # one collective when the name is mapped over one mesh group;
        # otherwise move along the gathered axis (lax's collectives over a
        # vmapped name do not compose with shard_map's varying-axes types)
        if not more and p.kind == "mapped" and b.kinds == ("mesh",):
            return new(lax.ppermute(v.data, b.groups[0], perm), v.dims, v.mapped)
        src, mask = [0] * size, [False] * size
        for s, d in perm:
            src[d], mask[d] = s, True

        def move(d, _):
            moved = jnp.take(d, jnp.asarray(src), axis=0)
            keep = jnp.asarray(mask).reshape((-1,) + (1,) * (moved.ndim - 1))
            return jnp.where(keep, moved, jnp.zeros((), moved.dtype))
        return _along_flat("ppermute", v, names, move)
    return _each(one, x)


def pshuffle(x, axis_name, perm):
    """``out[i] = in[perm[i]]`` along the name (``lax.pshuffle``).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pshuffle(np.arange(3.0).tag("i"), "i", [2, 0, 1]).untag("i")
    array([2., 0., 1.])
    """
    perm = [int(i) for i in perm]
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"pshuffle: perm {perm} is not a permutation of range({len(perm)})")
    return ppermute(x, axis_name, [(s, d) for d, s in enumerate(perm)])


def all_to_all(x, axis_name, split_axis, concat_axis, *, tiled=False):
    """Exchange a positional axis with a named one (``lax.all_to_all``): the
    positional ``split_axis`` is scattered over the name, and the name's
    values are concatenated along positional ``concat_axis``.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.arange(4.0).reshape(2, 2).tag("i", None)
    >>> parallel.all_to_all(x, "i", 0, 0).untag("i")
    array([[0., 2.],
           [1., 3.]])
    """
    names = _names(axis_name)

    def one(v):
        v = _as_named(v)
        places = resolve("all_to_all", v, names)
        n = v.ndim
        if n == 0:
            raise ValueError("all_to_all: the operand is 0-d; it needs a positional "
                             "split_axis")
        s, c = split_axis % n, concat_axis % n
        p = places[0]
        if len(places) == 1 and p.kind == "mapped" and p.binding.kinds == ("mesh",):
            if v.shape[s] % p.binding.size or (not tiled and v.shape[s] != p.binding.size):
                _bad_split(v, s, p.binding.size, tiled, axis_name)
            d = lax.all_to_all(v.data, p.binding.groups[0], s, c, tiled=tiled)
            return new(d, v.dims, v.mapped)

        def exchange(d, size):        # d: (name, *positional, *named)
            if d.shape[1 + s] % size or (not tiled and d.shape[1 + s] != size):
                _bad_split(v, s, size, tiled, axis_name)
            if tiled:
                shp = d.shape
                d = d.reshape(shp[:1 + s] + (size, shp[1 + s] // size) + shp[2 + s:])
            d = jnp.moveaxis(d, 1 + s, 0)        # (new name, old name, ...)
            d = jnp.moveaxis(d, 1, 1 + c)        # old name just before concat_axis
            if tiled:
                shp = d.shape
                d = d.reshape(shp[:1 + c] + (shp[1 + c] * shp[2 + c],) + shp[3 + c:])
            return d
        return _along_flat("all_to_all", v, names, exchange)
    return _each(one, x)


def _bad_split(v, s, size, tiled, axis_name):
    raise ValueError(
        f"all_to_all: split_axis {s} has size {v.shape[s]}, which "
        f"{'must be divisible by' if tiled else 'must equal'} the size {size} of "
        f"axis {axis_name!r}")


hooks.gather = gather_names

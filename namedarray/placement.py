"""Placement: where does an axis name live?

A name is a name wherever it lives (docs/design.md §2b).  For one operand, every
name an operation reduces, gathers or permutes over is in one of four places:

``physical``  a whole dimension of the operand's data: the primitive's batching
              rule applies (``psum`` reduces that dimension, ``all_gather``
              makes it positional, ``ppermute`` moves along it);
``block``     a dimension of the data holding this instance's *block* of a name
              an enclosing map splits (a local block times mesh axes): the
              local step over the dimension, then the collective;
``mapped``    not a dimension of the data, because an enclosing map took it
              away (``vmap``, or a mesh axis that holds one element): the
              ``jax.lax`` collective over the map's axes;
``invariant`` bound by an enclosing map, but the operand does not vary along
              it (a fresh array, a value already reduced over it): the
              collective still runs (``psum(1, "b")`` is the size of ``"b"``).

The maps in ``namedarray.mapping`` write the binding stack with :func:`bind`;
this module is the only reader of it.  ``namedarray.parallel`` asks
:func:`resolve` where each name lives, :func:`localize` cuts this instance's
part out of a whole axis, and :func:`instance_index` says which part that is.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

from .core import hooks
from .core.array import check_name, new
from .core.sharding import abstract_mesh, mesh_axes, one_mesh, reshard, sharding_of
from .core.vmap import index_vmap as _index_vmap, part_vmap as _part_vmap, vary as _vary


@dataclasses.dataclass(frozen=True)
class Binding:
    """How the enclosing maps bind a name.

    ``groups`` are the JAX axis names a collective over the name runs over,
    major to minor: ``(("b",),)`` for a name ``vmap``-ed by a local ``nmap``,
    ``(("x", "y"),)`` for a name partitioned over two mesh axes, and both,
    outer first, when maps nest.  ``sizes`` gives each group's size.  ``block``
    is how many elements of the name each instance holds in a physical
    dimension (``physical=True``: a split name, docs/design.md §2b); when
    ``physical`` is false the innermost map removed the dimension.
    """
    name: str
    groups: tuple
    sizes: tuple
    kinds: tuple           # "vmap" or "mesh", one per group
    block: int = 1
    physical: bool = False

    @property
    def size(self) -> int:
        """The global size of the name."""
        return self.block * math.prod(self.sizes)

    def vmapped(self, size: int) -> "Binding":
        """This binding after a local map also ``vmap``s the name's local part
        (``size`` elements: the block, or the whole name when unbound)."""
        return Binding(self.name, self.groups + ((self.name,),), self.sizes + (size,),
                       self.kinds + ("vmap",), 1, False)


def vmap_binding(name: str, size: int, whole: bool = False) -> Binding:
    """A name ``vmap``-ed by a local ``nmap`` (nested in whatever binds it
    already).  ``whole``: the arguments hold the name as a whole axis (sliced,
    flipped, fresh: it was gathered), which shadows an enclosing binding, so
    the new map binds it afresh."""
    outer = bindings().get(name)
    if outer is not None and outer.groups and not whole:
        if size != outer.block:
            raise ValueError(f"nmap: axis {name!r} has {size} elements here, but the "
                             f"enclosing map holds a block of {outer.block}")
        return outer.vmapped(size)
    return Binding(name, ((name,),), (size,), ("vmap",))


class _State(threading.local):
    stack: dict = {}


_state = _State()


def bindings() -> dict:
    """The names bound by enclosing maps (this thread): name -> :class:`Binding`."""
    return _state.stack


def vmapped_only() -> tuple:
    """The names that local ``nmap`` s alone bind (one ``vmap`` each, no mesh
    axis, no enclosing split), outermost map first: an instance holds one
    element of each, and ``vmap`` keeps its batch dimension leading."""
    return tuple(n for n, b in _state.stack.items() if b.kinds == ("vmap",))


def mesh_only(names) -> dict:
    """Those of ``names`` that enclosing mesh maps alone bind (a mesh group,
    no local ``vmap`` among their maps) -> their :class:`Binding`: an
    instance holds a part of each (a split name's block, one element of
    another), found by :func:`instance_index`."""
    bound = _state.stack
    return {n: bound[n] for n in names
            if n in bound and bound[n].groups and "vmap" not in bound[n].kinds}


@contextlib.contextmanager
def bind(new_bindings: dict):
    """Bind names for the duration of a map's body."""
    old = bindings()
    _state.stack = {**old, **new_bindings}
    try:
        yield
    finally:
        _state.stack = old


class Place(NamedTuple):
    name: str
    kind: str                 # "physical", "block", "mapped" or "invariant"
    dim: int | None           # the operand's physical dimension, if any
    binding: Binding | None   # the enclosing maps' binding, if any


def resolve(fn: str, x, names, arg: str = "axis") -> list:
    """Where each of ``names`` lives for operand ``x`` (a NamedArray or None)."""
    out = []
    dims = x.dims if x is not None else ()
    mapped = dict(x.mapped) if x is not None else {}
    bound = bindings()
    seen = set()
    for n in names:
        check_name(fn, arg, n)
        if n in seen:
            raise ValueError(f"{fn}: axis name {n!r} given twice in {arg}={tuple(names)!r}")
        seen.add(n)
        b = bound.get(n)
        if n in dims:
            dim = dims.index(n)
            if b is not None and b.physical and n in mapped:
                if x.data.shape[dim] != b.block:
                    raise ValueError(
                        f"{fn}: axis {n!r} has {x.data.shape[dim]} elements here, but the "
                        f"enclosing nmap holds blocks of {b.block} of its {b.size}")
                out.append(Place(n, "block", dim, b))
            else:   # a whole axis (fresh, or gathered) shadows the binding
                out.append(Place(n, "physical", dim, None))
            continue
        if b is None:
            if x is not None and n in mapped:
                raise ValueError(f"{fn}: axis {n!r} is mapped by an nmap that has "
                                 "already returned; use the array inside that nmap")
            have = (f"the array has named axes {x.named_shape}" if x is not None
                    else "the operand has no named axes")
            raise ValueError(
                f"{fn}: axis name {n!r} is not an axis of the operand ({have}) and "
                f"no enclosing nmap binds it (bound: {sorted(bound) or 'none'})")
        out.append(Place(n, "mapped" if n in mapped else "invariant", None, b))
    return out


def instance_index(b: Binding):
    """This instance's index along the bound part of a name (major to minor):
    a mesh group's ``lax.axis_index``, a vmapped one's batched index."""
    idx = None
    for g, size, kind in zip(b.groups, b.sizes, b.kinds):
        if kind == "vmap":
            idx = _index_vmap.bind(jnp.zeros((), jnp.int32) if idx is None else idx * size,
                                   axis=g[0])
        else:
            i = lax.axis_index(g if len(g) > 1 else g[0])
            idx = i if idx is None else idx * size + i
    return jnp.zeros((), jnp.int32) if idx is None else idx


def vary(x, names):
    """``x``, which does not vary along ``names``, entering a computation with
    values that do (as ``shard_map``'s ``pvary``): the same values, but a
    gradient taken inside the map sums the instances' cotangents, so a value
    every instance shares gets its whole gradient, as in the unmapped run.
    (On a mesh, JAX inserts its own ``pvary``.)"""
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        return x
    bound = bindings()
    d = x.data
    for n in names:
        b = bound.get(n)
        for g, kind in zip(b.groups, b.kinds) if b is not None else ():
            if kind == "vmap":
                d = _vary.bind(d, axis=g[0])
    return x if d is x.data else new(d, x.dims, x.mapped)


def localize(fn: str, x, names):
    """Cut this instance's part out of whole physical axes ``names`` of ``x``
    (a fresh or gathered array meeting mapped ones): a split name keeps its
    block, a vmapped name loses its dimension.  Sizes are checked.  Names are
    cut in ``x``'s physical order, so a block laid out in the maps' nesting
    order (as random draws are) is cut without a transpose."""
    bound = bindings()
    mapped = dict(x.mapped)
    for n in sorted(names, key=lambda n: x.dims.index(n) if n in x.dims else -1):
        b = bound.get(n)
        if b is None or n in mapped or n not in x.dims:
            continue
        dim = x.dims.index(n)
        have = x.data.shape[dim]
        if have != b.size:
            raise ValueError(
                f"{fn}: axis name {n!r} has size {have} in an operand (named shape "
                f"{x.named_shape}), but the enclosing nmap binds it with size {b.size}")
        if not b.groups:
            continue          # nothing partitions it: the whole axis is this part
        if b.kinds == ("vmap",):   # one local map: the axis becomes its batch dimension
            d = _part_vmap.bind(jnp.moveaxis(x.data, dim, 0), axis=b.groups[0][0],
                                size=b.size, tiled=False)
            x = new(d, x.dims[:dim] + x.dims[dim + 1:], x.mapped + ((n, b.size),))
            continue
        i = instance_index(b)
        x = vary(x, [n])
        if b.physical:
            d = lax.dynamic_slice_in_dim(x.data, i * b.block, b.block, axis=dim)
            x = new(d, x.dims, x.mapped + ((n, b.size),))
        else:
            d = lax.dynamic_index_in_dim(x.data, i, axis=dim, keepdims=False)
            x = new(d, x.dims[:dim] + x.dims[dim + 1:], x.mapped + ((n, b.size),))
    return x


def contraction(a, b, dn):
    """Where a ``lax.dot_general(a, b, dn)`` of data on an Explicit mesh
    runs: ``(a, b, out_sharding)``, the operands resharded where they
    disagree, and None when neither is on such a mesh.

    The output's dimensions keep their operands' mesh axes (a batch or free
    name stays where it lives) and a contracted dimension's axes are reduced
    away: the sharding JAX's own rule gives where it has one, and the one the
    output's names imply where JAX would ask for ``out_sharding`` (a contracted
    dimension that is partitioned).  A dimension both operands hold must sit
    on the same mesh axes: a whole one is cut to the other's partition (a
    local slice), two different partitions are both gathered; a mesh axis two
    free dimensions would hold in the output stays with the left operand's."""
    a, b = one_mesh((a, b))
    sa, sb = mesh_axes(a), mesh_axes(b)
    if not any(sa) and not any(sb):
        return a, b, None
    mesh = abstract_mesh(a) if any(sa) else abstract_mesh(b)
    sa, sb = list(sa), list(sb)
    (ca, cb), (ba, bb) = dn
    for i, j in zip(ca + ba, cb + bb):
        if sa[i] == sb[j]:
            continue
        used_a = {m for k, t in enumerate(sa) if k != i for m in t}
        used_b = {m for k, t in enumerate(sb) if k != j for m in t}
        if not sa[i] and not used_a & set(sb[j]):
            sa[i] = sb[j]
        elif not sb[j] and not used_b & set(sa[i]):
            sb[j] = sa[i]
        else:
            sa[i] = sb[j] = ()
    free_a = [i for i in range(len(sa)) if i not in ca + ba]
    free_b = [j for j in range(len(sb)) if j not in cb + bb]
    taken = {m for i in tuple(ba) + tuple(free_a) for m in sa[i]}
    for j in free_b:
        if taken & set(sb[j]):
            sb[j] = ()
        taken |= set(sb[j])
    out = [sa[i] for i in ba] + [sa[i] for i in free_a] + [sb[j] for j in free_b]
    return (_onto(a, sa, mesh), _onto(b, sb, mesh), sharding_of(mesh, out))


def _onto(data, axes, mesh):
    """``data`` on ``mesh``'s axes ``axes``.  Data on no mesh (an unsharded
    parameter under ``jit`` outside ``jax.set_mesh``) is put on it whole, so
    that the dot's transpose (its gradient) finds the mesh in the operand's
    type rather than asking for an ``out_sharding``."""
    if abstract_mesh(data) is None and isinstance(data, jax.core.Tracer):
        return jax.sharding.reshard(data, sharding_of(mesh, axes))
    return reshard(data, axes, mesh)


def implied(dims, operands):
    """The sharding the names ``dims`` of a result imply (each name on the
    Explicit mesh axes an operand gives it, a mesh axis once, positional
    dimensions whole), for an operation JAX asks ``out_sharding`` of (a
    gather by partitioned indices); None when no operand is on such a mesh.
    ``operands``: NamedArrays or ``(data, dims)`` pairs."""
    where, mesh = {}, None
    for x in operands:
        data, ds = (x.data, x.dims) if hasattr(x, "dims") else x
        axes = mesh_axes(data)
        if any(axes):
            mesh = mesh or abstract_mesh(data)
            for d, a in zip(ds, axes):
                if d is not None and a:
                    where.setdefault(d, a)
    if mesh is None:
        return None
    out, taken = [], set()
    for d in dims:
        a = where.get(d, ()) if d is not None else ()
        a = () if taken & set(a) else a
        taken |= set(a)
        out.append(a)
    return sharding_of(mesh, out)


hooks.localize = localize
hooks.vary = vary

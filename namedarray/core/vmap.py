"""The nested ``vmap`` over axis names (the local ``nmap`` and the generic
engine's mapping of named axes both build it here), and the primitives that
run collectives over a vmapped name with location-transparent gradients.

>>> import jax.numpy as jnp
>>> from namedarray.core.vmap import nested_vmap
>>> f = nested_vmap(lambda a: a.sum(), ["i", "j"], [(1, ("i", "j"))])
>>> f(jnp.ones((3, 2, 4))).shape      # positional (3,), names i=2, j=4 -> (j, i)
(4, 2)
>>> nested_vmap(lambda a: a.sum(), ["i", "j"], [(1, ("i", "j"))],
...             keep_order=True)(jnp.ones((3, 2, 4))).shape       # -> (i, j)
(2, 4)
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax._src.interpreters import ad, batching, mlir
from jax.extend.core import Primitive
from jax.sharding import PartitionSpec

from .sharding import on_their_mesh, unshard


def nested_vmap(f, union, layouts, *, keep_order=False, tail=0):
    """``f`` vmapped over each name of ``union`` (the first name outermost).

    ``layouts`` has one ``(ndim, names)`` per array argument: its positional
    ndim and the names of its trailing dimensions, in ``union`` order.  Each
    level maps to ``out_axes=-1``, so results end with the names in reverse
    ``union`` order; with ``keep_order`` level ``k`` maps to the place before
    the names mapped inside it, so results end with the names in ``union``
    order (the layout rule: a mapped function keeps its operands' order),
    before the last ``tail`` dimensions of ``f``'s results.
    """
    g = f
    for lv in range(len(union) - 1, -1, -1):
        out = lv - len(union) - tail if keep_order else -1
        g = jax.vmap(g, in_axes=_level_axes(union, layouts, lv), out_axes=out)
    return on_their_mesh(g) if union else g


def _level_axes(union, layouts, lv):
    """Each argument's axis that the level of ``union[lv]`` maps (None where
    the argument lacks the name): its place once the outer levels took
    theirs.  Names not in ``union`` stay."""
    name, out = union[lv], []
    for nd, names in layouts:
        if name in names:
            remaining = [w for w in names if w not in union or union.index(w) >= lv]
            out.append(nd + remaining.index(name))
        else:
            out.append(None)
    return tuple(out)


def lean_vmap(f, union, layouts, *, axis_names=False, tail=0):
    """:func:`nested_vmap` with ``keep_order`` for ``f`` returning a list (or a
    tuple) of arrays, in which an output that does not vary along a name lacks
    that name's dimension: the call returns
    ``(outputs, names)``, ``names[j]`` the names (in ``union`` order) that
    output ``j`` ends with, before its last ``tail`` dimensions.
    ``layouts`` has one ``(ndim, names)`` per array argument, ``names`` its
    trailing dimensions' names in any order (names not in ``union`` stay).

    ``jax.vmap`` broadcasts an unbatched output to the map's size; a caller
    that drops the copies again by taking element 0 (the local ``nmap``, for
    a loss a collective made invariant) leaves a gradient that pads a zero
    cotangent to the product of every name's size and sums it back, which
    XLA does not always fold: a mesh ``nmap`` of an MoE loss allocated 32 GiB
    for it.  Here each level infers its outputs' batch dimensions instead,
    so nothing is broadcast.

    >>> import jax.numpy as jnp
    >>> g = lean_vmap(lambda a: (a, a.sum() * 0 + 1.0), ["i", "j"], [(1, ("i", "j"))])
    >>> [o.shape for o in g(jnp.ones((3, 2, 4)))[0]], g(jnp.ones((3, 2, 4)))[1]
    ([(3, 2, 4), (2, 4)], [('i', 'j'), ('i', 'j')])
    >>> g = lean_vmap(lambda a: [jnp.float32(1.0)], ["i"], [(0, ("i",))])
    >>> g(jnp.ones(2))[0][0].shape, g(jnp.ones(2))[1]
    ((), [()])
    """
    n = len(union)
    held = {}           # level -> whether each output varies along its name

    def outer(g, lv, in_axes):
        vm = jax.vmap(g, in_axes=in_axes, out_axes=batching.infer,
                      **({"axis_name": union[lv]} if axis_names else {}))

        def level(*args):
            outs, axes = vm(*args)
            inner = [held[k] for k in range(lv + 1, n)]
            res = []
            for j, (o, ax) in enumerate(zip(outs, axes)):
                if ax is not None:
                    dst = o.ndim - 1 - tail - sum(h[j] for h in inner)
                    o = o if ax == dst else jnp.moveaxis(o, ax, dst)
                res.append(jnp.asarray(o))      # (a Python scalar f returned too)
            held[lv] = [ax is not None for ax in axes]
            return res
        return level

    g = f
    for lv in range(n - 1, -1, -1):
        g = outer(g, lv, _level_axes(union, layouts, lv))

    def run(*args):
        outs = g(*args)
        return outs, [tuple(union[k] for k in range(n) if held[k][j])
                      for j in range(len(outs))]
    return on_their_mesh(run) if union else run


# --------------------------------------------------------------------------
# collectives over a vmapped name, with gradients that do not depend on it
# --------------------------------------------------------------------------
# Inside a map, a value either varies along a mapped name (batched) or does
# not (unbatched), as shard_map's varying-axes types say on a mesh.  JAX
# transposes psum to psum; under vmap that is right for a cotangent that varies
# along the name (each instance's contribution, to be summed), but a cotangent
# that does not vary -- the seed of a jax.grad taken inside the map, of a loss
# a collective made invariant -- stands for one value: summing it over the
# instances would multiply the unmapped gradient by their number.  These
# primitives decide when vmap batches them (so also under jax.jit):
#
# * ``psum_vmap``: the sum over the instances; its transpose ``cotangent_sum``
#   sums a cotangent over the instances only where it varies;
# * ``vary``: an invariant value entering a computation with varying ones (as
#   shard_map's ``pvary``): the identity, whose transpose sums the instances'
#   cotangents (a parameter shared by every instance gets the whole gradient);
# * ``gather_vmap``: ``lax.all_gather``, whose transpose ``own_slice`` takes this
#   instance's part (it does not sum the copies every instance holds);
# * ``part_vmap``: this instance's part of a whole axis of a value every
#   instance shares (what ``own_slice`` does to an invariant cotangent): free
#   under vmap, the axis becomes the batch dimension, and its transpose is
#   ``gather_vmap``.  So work on whole arrays between a gather and a part --
#   the einsum engine's contraction over vmapped names, its gradient
#   included -- runs once, as one ``dot_general``, not per instance.
def _same_aval(x, **params):
    return x


def primitive(name, abstract=_same_aval):
    p = Primitive(f"namedarray_{name}")
    p.def_abstract_eval(abstract)
    return p


cotangent_sum = primitive("cotangent_sum")       # sum where it varies
cotangent_sum.def_impl(_same_aval)
mlir.register_lowering(cotangent_sum, lambda ctx, x, **params: [x])
psum_vmap = primitive("psum_vmap")               # lax.psum over one vmapped name
vary = primitive("vary_vmap")                    # invariant -> varying


def _reshaped(x, shape, spec):
    """The aval ``x`` with ``shape``, its dimensions on the mesh axes ``spec``
    (an Explicit sharding is part of the type)."""
    s = getattr(x, "sharding", None)
    if s is None or not hasattr(s, "spec"):
        return x.update(shape=shape)
    return x.update(shape=shape, sharding=s.update(spec=PartitionSpec(*spec)))


def _spec(x):
    s = getattr(x, "sharding", None)
    spec = tuple(getattr(s, "spec", ()))
    return spec + (None,) * (x.ndim - len(spec))


# The gather and the parts work on one axis, ``dim``, of the value, wherever
# it lies: a name gathered into the data or cut back out of it stays where
# the map holds it (its batch dimension), so a gather-compute-part round of
# the einsum engine moves no data (at axis 0 they cost a transpose each way,
# and more for every enclosing level in a map over many names).  A gathered
# or sliced axis is whole; the other dimensions keep their mesh axes.
def _gather_aval(x, *, axis, size, tiled, dim):
    shape, spec = list(x.shape), list(_spec(x))
    if tiled:
        shape[dim] *= size
        spec[dim] = None
    else:
        shape.insert(dim, size)
        spec.insert(dim, None)
    return _reshaped(x, tuple(shape), spec)


def _slice_aval(ct, *, axis, size, tiled, dim):
    shape, spec = list(ct.shape), list(_spec(ct))
    if tiled:
        shape[dim] //= size
        spec[dim] = None
    else:
        del shape[dim], spec[dim]
    return _reshaped(ct, tuple(shape), spec)


gather_vmap = primitive("all_gather_vmap", _gather_aval)   # lax.all_gather at dim
own_slice = primitive("own_slice_vmap", _slice_aval)       # its transpose
part_vmap = primitive("part_vmap", _slice_aval)            # whole axis dim -> my part


def batched(p, rule, on_axis=None):
    """``rule(x, d, size, **params)`` at the vmap level of ``params["axis"]``; at
    other levels the primitive is carried through that level's batch
    dimension where it lies, as one more dimension of the value.

    ``on_axis(**params)`` says what the primitive does to the value's axis
    ``params["dim"]``: ``"new"`` (a new axis there), ``"on"`` (resizes it),
    ``"drop"`` (removes it); ``None`` (the default) for a primitive that keeps
    the shape.  At another level the axis is renumbered around that level's
    batch dimension, which never moves."""
    def batch(axis_data, vals, dims, **params):
        (x,), (d,) = vals, dims
        if axis_data.name != params["axis"]:
            kind = on_axis(**params) if on_axis is not None and d is not None else None
            if kind is None:
                return p.bind(x, **params), d
            k = params["dim"]
            if kind == "new":       # before the value's axis k (here at k + (k >= d))
                at = k if k <= d else k + 1
                return p.bind(x, **{**params, "dim": at}), d + 1 if at <= d else d
            at = k if k < d else k + 1
            out = p.bind(x, **{**params, "dim": at})
            return out, d - 1 if kind == "drop" and at < d else d
        return rule(x, d, axis_data.size, **params)
    batching.fancy_primitive_batchers[p] = batch


def held_at(data, name, lo):
    """The axis (at least ``lo``) at which :data:`gather_vmap` over the vmapped
    ``name`` puts the gathered axis of ``data`` where that map holds it
    already, so that the gather moves nothing; ``None`` when no axis does
    (or ``data`` does not vary along ``name``).

    Each enclosing level ``data`` varies along renumbers the axis around its
    batch dimension (``batched``'s ``"new"``), innermost first."""
    levels = []
    t = data
    while True:
        if isinstance(t, ad.JVPTracer):     # a derivative inside the map: its primal
            t = t.primal
            continue
        if not isinstance(t, batching.BatchTracer):
            return None
        levels.append((t._trace.axis_data.name, t.batch_dim))
        if levels[-1][0] == name:
            break
        t = t.val
    *inner, (_, want) = levels
    for k in range(lo, jnp.ndim(data) + 1):
        at = k
        for _, d in inner:
            at = at if at <= d else at + 1
        if at == want:
            return k
    return None


def _split(x, dim, size):
    """Axis ``dim`` of ``x`` as ``(size, rest)``."""
    return x.reshape(x.shape[:dim] + (size, x.shape[dim] // size) + x.shape[dim + 1:])


def _cotangent_sum_rule(x, d, size, *, axis):
    return (x, None) if d is None else (x.sum(d, dtype=x.dtype), None)


def _psum_rule(x, d, size, *, axis):
    return (x * size if d is None else x.sum(d, dtype=x.dtype)), None


def _gather_rule(x, d, n, *, axis, size, tiled, dim):
    # the gathered axis is whole, as a physical one is: on an Explicit mesh
    # that partitions the batch dimension, it is gathered there too (an
    # operation that needs the whole axis, ``sort``, ``cumsum``, ``roll``,
    # refuses a partitioned one)
    if d is None:
        x = jnp.broadcast_to(jnp.expand_dims(x, dim), x.shape[:dim] + (size,) + x.shape[dim:])
    else:
        x = unshard(jnp.moveaxis(x, d, dim), (dim, dim + 1) if tiled else (dim,))
    if tiled:
        x = x.reshape(x.shape[:dim] + (x.shape[dim] * x.shape[dim + 1],) + x.shape[dim + 2:])
    return x, None


def _own_slice_rule(ct, d, n, *, axis, size, tiled, dim):
    if d is not None:
        ct = ct.sum(d, dtype=ct.dtype)   # contributions from every instance
    return (_split(ct, dim, size) if tiled else ct), dim


def _part_rule(x, d, n, *, axis, size, tiled, dim):
    if d is None:                      # shared by every instance: axis dim is the map's
        return (_split(x, dim, size) if tiled else x), dim
    # each instance holds its own whole axis: take the diagonal (its own part)
    x = jnp.moveaxis(jnp.moveaxis(x, d, 0), dim + 1, 1)
    i = jnp.arange(n)
    if tiled:
        return jnp.moveaxis(_split(x, 1, size)[i, i], 1, dim + 1), 0
    return x[i, i], 0


# ``index_vmap``: ``x`` plus this instance's index along a vmapped name, as
# ``lax.axis_index``, but decided when vmap batches it: under a ``jax.jit``
# inside a ``shard_map``, JAX types ``lax.axis_index`` of a vmap axis as
# varying along that (non-mesh) axis, and the next operation meeting a mesh
# value fails an assertion in ``pvary``.
index_vmap = primitive("index_vmap")


def _index_rule(x, d, n, *, axis):
    i = jnp.arange(n, dtype=x.dtype)
    if d is None:
        return x[None] + i.reshape((n,) + (1,) * x.ndim), 0
    x = jnp.moveaxis(x, d, 0)
    return x + i.reshape((n,) + (1,) * (x.ndim - 1)), 0


batched(index_vmap, _index_rule)
batched(cotangent_sum, _cotangent_sum_rule)
batched(psum_vmap, _psum_rule)
batched(gather_vmap, _gather_rule, lambda *, tiled, **_: "on" if tiled else "new")
batched(own_slice, _own_slice_rule, lambda *, tiled, **_: "on" if tiled else "drop")
batched(part_vmap, _part_rule, lambda *, tiled, **_: "on" if tiled else "drop")
batched(vary, lambda x, d, size, *, axis: (x, d))
ad.deflinear2(cotangent_sum, lambda ct, x, **kw: (cotangent_sum.bind(ct, **kw),))
ad.deflinear2(psum_vmap, lambda ct, x, **kw: (cotangent_sum.bind(ct, **kw),))
ad.deflinear2(gather_vmap, lambda ct, x, **kw: (own_slice.bind(ct, **kw),))
ad.deflinear2(vary, lambda ct, x, **kw: (psum_vmap.bind(ct, **kw),))
ad.deflinear2(own_slice, lambda ct, x, **kw: (gather_vmap.bind(ct, **kw),))
ad.deflinear2(part_vmap, lambda ct, x, **kw: (gather_vmap.bind(ct, **kw),))

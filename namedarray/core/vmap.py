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


def nested_vmap(f, union, layouts, *, axis_names=False, level=None, keep_order=False,
                tail=0):
    """``f`` vmapped over each name of ``union`` (the first name outermost).

    ``layouts`` has one ``(ndim, names)`` per array argument: its positional
    ndim and the names of its trailing dimensions, in ``union`` order.  Each
    level maps to ``out_axes=-1``, so results end with the names in reverse
    ``union`` order; with ``keep_order`` level ``k`` maps to the place before
    the names mapped inside it, so results end with the names in ``union``
    order (the layout rule: a mapped function keeps its operands' order),
    before the last ``tail`` dimensions of ``f``'s results.
    ``axis_names=True`` sets each level's JAX ``axis_name`` to the name;
    ``level(g, name, mapped_args)`` may wrap the function mapped at each level
    (before it is vmapped).
    """
    g = f
    for lv in range(len(union) - 1, -1, -1):
        name = union[lv]
        in_axes = []
        for n, want in layouts:
            if name in want:
                remaining = [w for w in want if union.index(w) >= lv]
                in_axes.append(n + remaining.index(name))
            else:
                in_axes.append(None)
        if level is not None:
            g = level(g, name, [k for k, ax in enumerate(in_axes) if ax is not None])
        kw = {"axis_name": name} if axis_names else {}
        out = lv - len(union) - tail if keep_order else -1
        g = jax.vmap(g, in_axes=tuple(in_axes), out_axes=out, **kw)
    return on_their_mesh(g) if union else g


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


# a gathered or sliced axis 0 is whole; the other dimensions keep their mesh axes
def _gather_aval(x, *, axis, size, tiled):
    if tiled:
        return _reshaped(x, (size * x.shape[0],) + x.shape[1:], (None,) + _spec(x)[1:])
    return _reshaped(x, (size,) + x.shape, (None,) + _spec(x))


def _slice_aval(ct, *, axis, size, tiled):
    if tiled:
        return _reshaped(ct, (ct.shape[0] // size,) + ct.shape[1:], (None,) + _spec(ct)[1:])
    return _reshaped(ct, ct.shape[1:], _spec(ct)[1:])


gather_vmap = primitive("all_gather_vmap", _gather_aval)   # lax.all_gather, axis 0
own_slice = primitive("own_slice_vmap", _slice_aval)       # its transpose
part_vmap = primitive("part_vmap", _slice_aval)            # whole axis 0 -> my part


def batched(p, rule):
    """``rule(x, d, size, **params)`` at the vmap level of ``params["axis"]``; at
    other levels the primitive is carried through, with that level's batch
    dimension moved last (the primitives work on axis 0)."""
    def batch(axis_data, vals, dims, **params):
        (x,), (d,) = vals, dims
        if axis_data.name != params["axis"]:
            if d is None:
                return p.bind(x, **params), None
            y = p.bind(jnp.moveaxis(x, d, -1), **params)
            return y, y.ndim - 1
        return rule(x, d, axis_data.size, **params)
    batching.fancy_primitive_batchers[p] = batch


def _cotangent_sum_rule(x, d, size, *, axis):
    return (x, None) if d is None else (x.sum(d, dtype=x.dtype), None)


def _psum_rule(x, d, size, *, axis):
    return (x * size if d is None else x.sum(d, dtype=x.dtype)), None


def _gather_rule(x, d, n, *, axis, size, tiled):
    # the gathered axis is whole, as a physical one is: on an Explicit mesh
    # that partitions the batch dimension, it is gathered there too (an
    # operation that needs the whole axis, ``sort``, ``cumsum``, ``roll``,
    # refuses a partitioned one)
    x = jnp.broadcast_to(x, (size,) + x.shape) if d is None else unshard(
        jnp.moveaxis(x, d, 0), (0, 1) if tiled else (0,))
    return (x.reshape((-1,) + x.shape[2:]) if tiled else x), None


def _own_slice_rule(ct, d, n, *, axis, size, tiled):
    if d is not None:
        ct = ct.sum(d, dtype=ct.dtype)   # contributions from every instance
    if tiled:
        ct = ct.reshape((size, ct.shape[0] // size) + ct.shape[1:])
    return ct, 0


def _part_rule(x, d, n, *, axis, size, tiled):
    if d is None:                      # shared by every instance: axis 0 is the map's
        return (x.reshape((size, x.shape[0] // size) + x.shape[1:]) if tiled else x), 0
    # each instance holds its own whole axis: take the diagonal (its own part)
    x = jnp.moveaxis(x, d, 0)
    i = jnp.arange(n)
    if tiled:
        x = x.reshape((n, size, x.shape[1] // size) + x.shape[2:])
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
batched(gather_vmap, _gather_rule)
batched(own_slice, _own_slice_rule)
batched(part_vmap, _part_rule)
batched(vary, lambda x, d, size, *, axis: (x, d))
ad.deflinear2(cotangent_sum, lambda ct, x, **kw: (cotangent_sum.bind(ct, **kw),))
ad.deflinear2(psum_vmap, lambda ct, x, **kw: (cotangent_sum.bind(ct, **kw),))
ad.deflinear2(gather_vmap, lambda ct, x, **kw: (own_slice.bind(ct, **kw),))
ad.deflinear2(vary, lambda ct, x, **kw: (psum_vmap.bind(ct, **kw),))
ad.deflinear2(own_slice, lambda ct, x, **kw: (gather_vmap.bind(ct, **kw),))
ad.deflinear2(part_vmap, lambda ct, x, **kw: (gather_vmap.bind(ct, **kw),))

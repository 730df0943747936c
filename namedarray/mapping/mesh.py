"""Scale-out: named axes on a device mesh.

``nmap(f, mesh, axis_resources={"batch": "data"})`` runs ``f`` under
``jax.shard_map``.  Each logical name is partitioned over its mesh axes: on
every device it is a *split* name (DESIGN.md placement (c)), a local block in a
physical named dimension, bound to the mesh axes.  Positional code never sees
it (named axes ride along), and every parallel primitive composes a local step
over the block with a mesh step: a named sum is one local reduce and one
all-reduce, a named contraction one ``dot_general`` over the block and one
all-reduce, as a hand-written ``shard_map`` would do.

Outputs keep the names they still carry, partitioned over the same mesh axes;
an output that lost a name (reduced over it) is replicated.  The whole mapped
call is one cached ``jax.jit``.

``shard(x, mesh, axis_resources)`` is the global view: the data is placed with
a ``NamedSharding`` derived from the names and XLA partitions every operation.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec

from ..core.array import NamedArray, align, new, positional
from ..core.dims import order_names as _order
from ..placement import Binding, bind

def resources(fn, mesh, axis_resources) -> dict:
    """Validate ``axis_resources`` against ``mesh``: name -> tuple of mesh axes.

    >>> import jax
    >>> resources("nmap", jax.make_mesh((1,), ("data",)), {"batch": "data"})
    {'batch': ('data',)}
    """
    if mesh is None:
        raise ValueError(f"{fn}: axis_resources={axis_resources!r} needs a mesh")
    out, owner = {}, {}
    for name, axes in dict(axis_resources or {}).items():
        axes = (axes,) if isinstance(axes, str) else tuple(axes)
        for a in axes:
            if a not in mesh.axis_names:
                raise ValueError(
                    f"{fn}: axis_resources maps {name!r} to mesh axis {a!r}, but the mesh "
                    f"has axes {dict(zip(mesh.axis_names, mesh.axis_sizes))}")
            if a in owner:
                raise ValueError(
                    f"{fn}: mesh axis {a!r} is given to both {owner[a]!r} and {name!r} in "
                    "axis_resources; each mesh axis can partition one name")
            owner[a] = name
        out[name] = axes
    return out


def _mesh_size(mesh, axes):
    shape = dict(zip(mesh.axis_names, mesh.axis_sizes))
    return math.prod(shape[a] for a in axes)


def _spec_entry(axes):
    if not axes:
        return None
    return axes[0] if len(axes) == 1 else axes


def _check_divisible(fn, mesh, res, sizes):
    for name, axes in res.items():
        if name in sizes and sizes[name] % _mesh_size(mesh, axes):
            raise ValueError(
                f"{fn}: axis {name!r} has size {sizes[name]}, which is not divisible by "
                f"the {_mesh_size(mesh, axes)} devices of mesh axes {axes}")


def shard(x, mesh, axis_resources) -> NamedArray:
    """Place ``x``'s data on ``mesh``, each named axis partitioned over its mesh axes.

    >>> import jax, namedarray as np
    >>> mesh = jax.make_mesh((1,), ("data",))
    >>> y = np.shard(np.ones((4, 3)).tag("batch", None), mesh, {"batch": "data"})
    >>> y.sum(axis="batch").shape
    (3,)
    """
    if not isinstance(x, NamedArray):
        x = positional(jnp.asarray(x))
    res = resources("shard", mesh, axis_resources)
    for name in res:
        if name not in x.names:
            raise ValueError(f"shard: axis_resources names {name!r}, but the array has "
                             f"named axes {x.named_shape}")
    _check_divisible("shard", mesh, res, x.named_shape)
    spec = PartitionSpec(*[_spec_entry(res.get(d, ())) if d is not None else None
                           for d in x.dims])
    return new(jax.device_put(x.data, NamedSharding(mesh, spec)), x.dims)


def _auto(mesh):
    """The same devices and axes with Auto axis types (``jax.make_mesh`` defaults to
    Explicit, whose sharding-typed results would leak out of nmap and demand a
    ``jax.set_mesh`` context from every later operation and gradient)."""
    auto = jax.sharding.AxisType.Auto
    if all(t == auto for t in mesh.axis_types):
        return mesh
    return jax.sharding.Mesh(mesh.devices, mesh.axis_names,
                             axis_types=(auto,) * len(mesh.axis_names))


def _call_mesh(mesh):
    """The mesh to run on: the user's own inside its ``jax.set_mesh`` context
    (shard_map must match the context), otherwise its Auto-typed twin."""
    ctx = jax.sharding.get_abstract_mesh()
    if not ctx.empty and ctx == mesh.abstract_mesh:
        return mesh
    return _auto(mesh)


def mesh_nmap(f, mesh, axis_resources):
    """``nmap(f, mesh, axis_resources)``: ``f`` under one jitted ``shard_map``.

    >>> import jax, namedarray as np
    >>> mesh = jax.make_mesh((1,), ("data",))
    >>> x = np.ones((4, 3)).tag("batch", None)
    >>> mesh_nmap(lambda v: v.sum(axis="batch"), mesh, {"batch": "data"})(x)
    array([4., 4., 4.])
    """
    res = resources("nmap", mesh, axis_resources)
    user_mesh = mesh
    cache: dict = {}

    def mapped(*args, **kwargs):
        mesh = _call_mesh(user_mesh)
        is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_na)
        arr_idx = [i for i, v in enumerate(leaves) if is_na(v) or isinstance(v, jax.Array)]
        named = [leaves[i] for i in arr_idx if is_na(leaves[i]) and leaves[i].names]
        _, udims = align("nmap", named)
        union = [d for d in udims if d is not None]
        sizes = {}
        for x in named:
            sizes.update(x.named_shape)
        for name in res:
            if name not in sizes:
                raise ValueError(f"nmap: axis_resources names {name!r}, but no argument has "
                                 f"that axis (named axes: {sizes})")
        _check_divisible("nmap", mesh, res, sizes)
        datas, layouts = [], []
        for i in arr_idx:
            x = leaves[i] if is_na(leaves[i]) else positional(leaves[i])
            want = tuple(d for d in union if d in x.names)
            if x.names != want:
                x = new(*_order(x, want))
            spec = PartitionSpec(*([None] * x.ndim), *[_spec_entry(res.get(d, ()))
                                                       for d in want])
            datas.append(jax.device_put(x.data, NamedSharding(mesh, spec)))
            layouts.append((x.ndim, want, spec))
        static = [None if k in arr_idx else v for k, v in enumerate(leaves)]
        try:
            key = (mesh is user_mesh, tree, tuple(layouts), tuple(static),
                   tuple(sorted(sizes.items())))
            hash(key)
        except TypeError:
            key = None
        entry = cache.get(key) if key is not None else None
        if entry is None:
            abstract = [jax.ShapeDtypeStruct(d.shape, d.dtype,
                                             sharding=NamedSharding(mesh, spec))
                        for d, (_, _, spec) in zip(datas, layouts)]
            entry = _build(f, mesh, res, tree, leaves, arr_idx, layouts, union, sizes,
                           abstract)
            if key is not None:
                cache[key] = entry
        fn, (otree, dims) = entry
        flat = fn(*datas)
        return jax.tree_util.tree_unflatten(otree, [new(v, d) for v, d in zip(flat, dims)])
    return mapped


def _build(f, mesh, res, tree, leaves, arr_idx, layouts, union, sizes, abstract):
    """One jitted shard_map program for this argument structure, the output tree
    and each output's dims.

    Inside, every name keeps its physical dimension: a name in
    ``axis_resources`` holds this device's block and is bound (``local=True``)
    to its mesh axes, so primitives reduce the block and then the mesh; other
    names are ordinary local axes."""
    # names not in axis_resources are bound too, with no mesh axes: whole on
    # every device (axis_index and the collectives still see them)
    binding = {n: Binding(n, (res[n],), (_mesh_size(mesh, res[n]),), kind="mesh",
                          local=True, block=sizes[n] // _mesh_size(mesh, res[n]))
               if n in res else Binding(n, (), (), kind="mesh", local=True, block=sizes[n])
               for n in union}
    info = []

    def body(*datas):
        full = list(leaves)
        for i, d, (nd, want, _) in zip(arr_idx, datas, layouts):
            full[i] = new(d, (None,) * nd + want)
        a, kw = jax.tree_util.tree_unflatten(tree, full)
        with bind(binding):
            r = f(*a, **kw)
        flat, otree = jax.tree_util.tree_flatten(r, is_leaf=lambda v: isinstance(v, NamedArray))
        flat = [v if isinstance(v, NamedArray) else positional(jnp.asarray(v)) for v in flat]
        info.append((otree, [v.dims for v in flat]))
        return [v.data for v in flat]

    in_specs = tuple(spec for _, _, spec in layouts)
    # pass 1 (abstract) learns the outputs' dims; pass 2 partitions each output's
    # named dimensions over their mesh axes (an output without a name was reduced
    # over it: replicated)
    probe = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec(),
                          check_vma=False)
    jax.eval_shape(probe, *abstract)
    otree, dims = info[-1]
    out_specs = [PartitionSpec(*[_spec_entry(res.get(d, ())) if d is not None else None
                                 for d in ds]) for ds in dims]
    sm = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=out_specs,
                       check_vma=False)
    return jax.jit(sm), (otree, dims)

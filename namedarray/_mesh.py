"""Scale-out: named axes on a device mesh.

``nmap(f, mesh, axis_resources={"batch": "data"})`` runs ``f`` under
``jax.shard_map``.  Each logical name is partitioned over its mesh axes; a
name larger than its mesh axes is *split*: every device holds a local block,
which is itself ``vmap``-ed, so positional code in ``f`` never sees it.  The
name is then bound to two axis groups, ``(mesh axes, block)``, and every
parallel primitive composes a local step with a mesh step (JAX refuses one
collective over a vmap axis and mesh axes together).

Outputs: each output leaves the ``shard_map`` with one leading dimension per
mapped name (a uniform ``out_specs`` prefix, so the output structure need not
be known in advance); names an output does not vary along (after a ``psum``,
say: the block's vmap batching says so) are dropped afterwards, so the result
equals the unmapped run.  The whole mapped call is one cached ``jax.jit``.

``shard(x, mesh, axis_resources)`` is the global view: the data is placed with
a ``NamedSharding`` derived from the names and XLA partitions every operation.
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec

from ._core import NamedArray, align, new, positional
from ._nmap import _order, _probe
from ._placement import Binding, bind

_BLOCK = "{}@block"   # JAX vmap axis name of a split name's local block


def resources(fn, mesh, axis_resources) -> dict:
    """Validate ``axis_resources`` against ``mesh``: name -> tuple of mesh axes."""
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
    and each output's dims."""
    info = []
    blocks = {n: sizes[n] // _mesh_size(mesh, res[n]) if n in res else sizes[n]
              for n in union}
    vmap_name = {n: _BLOCK.format(n) if n in res else n for n in union}
    binding = {}
    for n in union:
        if n in res:
            binding[n] = Binding(n, (res[n], (vmap_name[n],)),
                                 (_mesh_size(mesh, res[n]), blocks[n]), kind="mesh")
        else:
            binding[n] = Binding(n, ((n,),), (sizes[n],))

    def body(drop, *datas):
        varying_block = {}
        out_dims = []

        def inner(*ds):
            full = list(leaves)
            for i, d in zip(arr_idx, ds):
                full[i] = positional(d)
            a, kw = jax.tree_util.tree_unflatten(tree, full)
            with bind(binding):
                r = f(*a, **kw)
            flat, otree = jax.tree_util.tree_flatten(
                r, is_leaf=lambda v: isinstance(v, NamedArray))
            flat = [v if isinstance(v, NamedArray) else positional(jnp.asarray(v))
                    for v in flat]
            out_dims.append((otree, [v.dims for v in flat]))
            return [v.data for v in flat]

        g = inner
        for level in range(len(union) - 1, -1, -1):
            name = union[level]
            in_axes = []
            for nd, want, _ in layouts:
                if name in want:
                    remaining = [w for w in want if union.index(w) >= level]
                    in_axes.append(nd + remaining.index(name))
                else:
                    in_axes.append(None)
            mapped_args = [k for k, ax in enumerate(in_axes) if ax is not None]
            g = jax.vmap(_probe(g, name, varying_block, mapped_args), in_axes=tuple(in_axes),
                         out_axes=0, axis_name=vmap_name[name])
        flat = g(*datas)
        # per output and name: does it vary along the name? Every collective over a
        # name runs over its block too, so the block's vmap batching tells.
        vary = [tuple(varying_block.get(n, [True] * len(flat))[j] for n in union)
                for j in range(len(flat))]
        otree, dims = out_dims[-1]
        info.append((otree, dims, vary))
        if drop is None:
            return flat
        # second pass: drop the (local, unsharded) block dims of invariant names
        return [v[tuple(slice(None) if keep else 0 for keep in vr)]
                for v, vr in zip(flat, drop)]

    in_specs = tuple(spec for _, _, spec in layouts)
    # check_vma=False: JAX 0.10's varying-axes check rejects a mesh collective
    # inside the block's vmap (pvary under batching).
    # Pass 1 (abstract) learns the outputs and which names each varies along;
    # pass 2 is the real program with exact out_specs.
    probe = jax.shard_map(functools.partial(body, None), mesh=mesh, in_specs=in_specs,
                          out_specs=PartitionSpec(), check_vma=False)
    jax.eval_shape(probe, *abstract)
    otree, dims, vary = info[-1]
    out_specs = [PartitionSpec(*[_spec_entry(res.get(n, ())) for n, keep in zip(union, vr)
                                 if keep]) for vr in vary]
    sm = jax.shard_map(functools.partial(body, vary), mesh=mesh, in_specs=in_specs,
                       out_specs=out_specs, check_vma=False)

    def program(*datas):
        flat = sm(*datas)
        out = []
        for v, vr in zip(flat, vary):
            k = sum(vr)
            out.append(jnp.moveaxis(v, tuple(range(k)), tuple(range(v.ndim - k, v.ndim)))
                       if k else v)
        return out
    kept = [tuple(n for n, keep in zip(union, vr) if keep) for vr in vary]
    return jax.jit(program), (otree, [d + k for d, k in zip(dims, kept)])

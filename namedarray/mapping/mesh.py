"""Scale-out: named axes on a device mesh.

``nmap(f, mesh, axis_resources={"batch": "data"})`` runs ``f`` under
``jax.shard_map``.  Each logical name is partitioned over its mesh axes: on
every device it is a *split* name (docs/design.md §2b), a local block in a
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

import functools
import math

import jax
import jax.numpy as jnp
import numpy as onp
from jax.sharding import NamedSharding, PartitionSpec

from ..core.array import NamedArray, new, positional, rewrap
from ..core.align import align, meet
from ..core.cache import Cache
from ..core.sharding import abstract_mesh
from ..parallel import gather_names
from ..placement import Binding, bind, bindings, localize
from .local import check_axes, check_sizes, is_named, local_nmap

def resources(fn, mesh, axis_resources) -> dict:
    """Validate ``axis_resources`` against ``mesh``: name -> tuple of mesh axes.
    Two names may share a mesh axis (one partitions it at a time, as in xmap);
    :func:`check_shared` refuses a call that has both."""
    if mesh is None:
        raise ValueError(f"{fn}: axis_resources={axis_resources!r} needs a mesh")
    out = {}
    for name, axes in dict(axis_resources or {}).items():
        axes = (axes,) if isinstance(axes, str) else tuple(axes)
        for a in axes:
            if a not in mesh.axis_names:
                raise ValueError(
                    f"{fn}: axis_resources maps {name!r} to mesh axis {a!r}, but the mesh "
                    f"has axes {dict(zip(mesh.axis_names, mesh.axis_sizes))}")
        if len(set(axes)) != len(axes):
            raise ValueError(f"{fn}: axis_resources maps {name!r} to mesh axes {axes}, "
                             "which repeat")
        out[name] = axes
    return out


def check_shared(fn, res, present):
    """The names of this call that ``res`` partitions: no mesh axis twice."""
    owner = {}
    for name, axes in res.items():
        if name not in present:
            continue
        for a in axes:
            if a in owner:
                raise ValueError(
                    f"{fn}: mesh axis {a!r} would partition both {owner[a]!r} and {name!r}, "
                    "and this call has both axes; give them different mesh axes")
            owner[a] = name
    return {n: axes for n, axes in res.items() if n in present}


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


def shard(tree, mesh, axis_resources):
    """Place the data of every NamedArray in ``tree`` on ``mesh``, each named axis
    partitioned over its mesh axes (``axis_resources``: a name to one mesh axis or
    a tuple of them).

    ``tree`` is a NamedArray or any pytree of them (a dict of parameters, an
    optimizer state); the result has the same structure.  An array that lacks
    a name is replicated along that name's mesh axes; positional axes are
    replicated; plain (JAX or NumPy) arrays in a container are placed
    replicated, and other leaves are returned as they are.  Operations on the
    result run partitioned, and equal the unsharded run.

    The mesh keeps its axis types.  On a mesh with Explicit axes
    (``jax.make_mesh``'s default) the placement is part of the data's type
    (``jax.typeof(y.data)`` shows ``8@data``) and every named
    operation gives the sharding its names imply, inside ``jax.set_mesh`` and
    outside it; on an Auto mesh the compiler chooses.  (Under ``jit`` outside
    ``jax.set_mesh``, data not yet on the mesh is constrained on the mesh's
    Auto twin: JAX places a jitted call's Explicit values only inside a mesh
    context.)

    >>> import jax, namedarray as np
    >>> mesh = jax.make_mesh((1,), ("data",))
    >>> y = np.shard(np.ones((4, 3)).tag("batch", None), mesh, {"batch": "data"})
    >>> y.sum(axis="batch").shape
    (3,)
    >>> jax.typeof(y.data)
    ShapedArray(float64[3,4@data])
    >>> p = np.shard({"w": np.ones((3, 2)).tag("f", "o"), "b": np.zeros(2).tag("o")},
    ...              mesh, {"o": "data"})
    >>> p["w"].data.sharding.spec
    P(None, 'data')
    """
    res = resources("shard", mesh, axis_resources)
    return _place("shard", tree, res, lambda x: mesh)


def reshard(tree, axis_resources):
    """Move every NamedArray in ``tree`` (a NamedArray or a pytree of them) to
    other mesh axes of the mesh it is on: ``axis_resources`` says where each
    name goes, as for :func:`shard`, and a name it leaves out becomes whole on
    every device.  Eager and under ``jit``; inside ``jax.set_mesh`` an array
    not yet on a mesh is placed on the context's mesh.

    >>> import jax, namedarray as np
    >>> mesh = jax.make_mesh((1, 1), ("data", "model"))
    >>> x = np.shard(np.ones((4, 2)).tag("batch", "embed"), mesh, {"batch": "data"})
    >>> jax.typeof(np.reshard(x, {"batch": "model", "embed": "data"}).data)
    ShapedArray(float64[4@model,2@data])
    """
    def mesh_of(x):
        m = getattr(getattr(x.data, "sharding", None), "mesh", None)
        if isinstance(x.data, jax.core.Tracer) or not isinstance(m, jax.sharding.Mesh):
            m = abstract_mesh(x.data)
            if m is None:    # inside jax.set_mesh: its mesh
                ctx = (jax.sharding.get_abstract_mesh() if isinstance(x.data, jax.core.Tracer)
                       else jax.sharding.get_mesh())
                m = None if ctx.empty else ctx
        if m is None or not m.axis_names:
            raise ValueError(
                f"reshard: an array with named axes {x.named_shape} is not on a mesh "
                "(and no jax.set_mesh context gives one); place it with "
                "np.shard(x, mesh, axis_resources)")
        resources("reshard", m, axis_resources)
        return m
    return _place("reshard", tree, None, mesh_of, axis_resources)


def _place(fn, tree, res, mesh_of, axis_resources=None):
    """``shard``/``reshard``: each NamedArray leaf of ``tree`` placed by its names
    on ``mesh_of(leaf)`` (``res``: the resources, or None to read them against
    each leaf's own mesh)."""
    if not isinstance(tree, NamedArray) and _is_array(tree):
        tree = positional(jnp.asarray(tree))     # one plain array: a positional NamedArray

    def one(x):
        if isinstance(x, NamedArray):
            mesh = mesh_of(x)
            return _shard_one(fn, x, mesh, res if res is not None else
                              resources(fn, mesh, axis_resources))
        if fn == "shard" and _is_array(x):
            mesh = mesh_of(x)
            return _put(x if isinstance(x, jax.Array) else jnp.asarray(x),
                        NamedSharding(mesh, PartitionSpec()))
        return x
    return jax.tree_util.tree_map(one, tree, is_leaf=is_named_array)


def is_named_array(x) -> bool:
    return isinstance(x, NamedArray)


def _is_array(x) -> bool:
    return isinstance(x, (jax.Array, onp.ndarray, onp.generic))


def _shard_one(fn, x, mesh, res):
    if x.mapped:
        raise ValueError(f"{fn}: an array is mapped over {dict(x.mapped)} by an enclosing "
                         f"nmap; {fn} places whole arrays, call it outside the map")
    used = check_shared(fn, res, x.named_shape)
    _check_divisible(fn, mesh, used, x.named_shape)
    spec = PartitionSpec(*[_spec_entry(used.get(d, ())) if d is not None else None
                           for d in x.dims])
    return rewrap(x, _put(x.data, NamedSharding(mesh, spec)))


def _put(data, sharding):
    """``data`` placed with ``sharding``: eagerly a ``device_put``; under ``jit``
    a ``reshard`` (Explicit axes: the sharding enters the value's type) or a
    constraint (Auto axes, or data a jitted call outside ``jax.set_mesh`` has
    on no mesh yet, which JAX cannot give Explicit axes there); the value of
    an eager ``grad`` is there to move, with ``device_put`` too (a constraint
    met data committed to one device with JAX's "incompatible devices")."""
    if not isinstance(data, jax.core.Tracer):
        return jax.device_put(data, sharding)
    mesh = sharding.mesh
    explicit = any(t == jax.sharding.AxisType.Explicit for t in mesh.axis_types)
    if explicit and (abstract_mesh(data) is not None
                     or not jax.sharding.get_abstract_mesh().empty):
        return jax.sharding.reshard(data, sharding)
    if explicit:
        sharding = NamedSharding(_auto(mesh), sharding.spec)
    if _of_an_eager_grad(data):
        return jax.device_put(data, sharding)
    return jax.lax.with_sharding_constraint(data, sharding)


def _of_an_eager_grad(t) -> bool:
    """Whether ``t`` is a value of eager ``grad`` transforms only (primals to
    a concrete array; an eager ``vmap``'s or a staged tracer holds a ``val``)."""
    while isinstance(t, jax.core.Tracer) and not hasattr(t, "val"):
        t = getattr(t, "primal", None)
    return isinstance(t, jax.Array) and not isinstance(t, jax.core.Tracer)


def _auto(mesh):
    """The same devices and axes with Auto axis types (``jax.make_mesh`` defaults to
    Explicit, whose sharding-typed results would leak out of nmap and demand a
    ``jax.set_mesh`` context from every later operation and gradient)."""
    auto = jax.sharding.AxisType.Auto
    if all(t == auto for t in mesh.axis_types):
        return mesh
    return jax.sharding.Mesh(mesh.devices, mesh.axis_names,
                             axis_types=(auto,) * len(mesh.axis_names))


def _call_mesh(mesh, arrays):
    """The mesh to run on: the user's own inside its ``jax.set_mesh`` context
    (shard_map must match the context) or when an argument's type is on it
    already (the results then join the user's other values there: typed on
    the twin, a parameter updated by a gradient of the map would meet the
    user's batch in the next step, and JAX refuses values of two meshes),
    otherwise its Auto-typed twin."""
    ctx = jax.sharding.get_abstract_mesh()
    if not ctx.empty and ctx == mesh.abstract_mesh:
        return mesh
    if any(abstract_mesh(x.data) == mesh.abstract_mesh for x in arrays):
        return mesh
    return _auto(mesh)


_PROGRAMS = Cache(512)   # (f, mesh, resources, call structure) -> compiled program


def mesh_nmap(f, mesh, axis_resources, axes=None):
    """``f`` with the names in ``axis_resources`` partitioned over ``mesh``
    (``shard_map``), and the other names listed in ``axes`` vmapped inside."""
    res = resources("nmap", mesh, axis_resources)
    listed = None if axes is None else tuple(
        a for a in ((axes,) if isinstance(axes, str) else axes) if a not in res)
    user_mesh = mesh

    @functools.wraps(f)
    def mapped(*args, **kwargs):
        check_sizes("nmap", args, kwargs)
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_named)
        arr_idx = [i for i, v in enumerate(leaves) if is_named(v) or isinstance(v, jax.Array)]
        arrays = [leaves[i] if is_named(leaves[i]) else positional(leaves[i]) for i in arr_idx]
        arrays, _ = meet("nmap", arrays)
        present = {}
        for x in arrays:
            present.update(x.named_shape)
        check_axes("nmap", listed, present)
        # names to map that no mesh axis partitions are vmapped inside
        extra = listed if listed is not None else tuple(n for n in present if n not in res)
        inner = local_nmap(f, extra) if extra else f
        fkey = (f, extra, tuple(sorted(res.items())))
        for name, ax in res.items():
            shared = any(set(ax) & set(o) for n, o in res.items() if n != name)
            if name not in present and not shared:
                raise ValueError(f"nmap: axis_resources names {name!r}, but no argument has "
                                 f"that axis (named axes: {present})")
        used = check_shared("nmap", res, present)
        _check_divisible("nmap", user_mesh, used, present)
        if any(b.kinds and "mesh" in b.kinds for b in bindings().values()):
            return _nested(inner, user_mesh, used, leaves, tree, arr_idx, arrays)
        mesh = _call_mesh(user_mesh, arrays)
        align("nmap", [x for x in arrays if x.names])    # the arguments must meet
        datas, layouts = [], []
        for x in arrays:
            if x.mapped:
                raise ValueError(f"nmap: an argument is mapped over {dict(x.mapped)} by an "
                                 "enclosing local nmap; a mesh nmap cannot run inside one")
            # each argument keeps its own order of names: reordering it to a
            # common order would transpose it (and its gradient) outside the map
            want = x.names
            spec = PartitionSpec(*([None] * x.ndim), *[_spec_entry(used.get(d, ()))
                                                       for d in want])
            datas.append(jax.device_put(x.data, NamedSharding(mesh, spec)))
            layouts.append((x.ndim, want, spec))
        static = [None if k in arr_idx else v for k, v in enumerate(leaves)]
        try:
            key = (fkey, mesh, tree, tuple(layouts), tuple(static),
                   tuple(sorted(present.items())))
            hash(key)
        except TypeError:
            key = None
        entry = _PROGRAMS.get(key) if key is not None else None
        if entry is None:
            abstract = [jax.ShapeDtypeStruct(d.shape, d.dtype,
                                             sharding=NamedSharding(mesh, spec))
                        for d, (_, _, spec) in zip(datas, layouts)]
            entry = _build(inner, mesh, used, tree, leaves, arr_idx, layouts, present,
                           abstract)
            if key is not None:
                _PROGRAMS.put(key, entry)
        fn, (otree, dims) = entry
        try:
            flat = fn(*datas)
        except ValueError as e:
            if "out_specs" not in str(e):
                raise
            raise ValueError(
                f"nmap: an output of {getattr(f, '__name__', 'the function')!r} varies "
                f"across the devices of the mesh axes {tuple(used.values())} but does "
                "not carry the name mapped there (it was computed from .data or a "
                "jax.Array): return it as a NamedArray that keeps the name, or "
                "reduce it over the name inside the map") from None
        if mesh is not user_mesh and any(abstract_mesh(x.data) is not None for x in arrays) \
                and not any(isinstance(v, jax.core.Tracer) for v in flat):
            # Explicit arguments ran on the Auto twin outside jax.set_mesh: the
            # results go back to the user's mesh, each name where the map put it
            flat = [jax.device_put(v, NamedSharding(user_mesh, v.sharding.spec)) for v in flat]
        return jax.tree_util.tree_unflatten(otree, [new(v, d) for v, d in zip(flat, dims)])
    return mapped


def _split_bindings(mesh, used, sizes):
    return {n: Binding(n, (axes,), (_mesh_size(mesh, axes),), ("mesh",),
                       block=sizes[n] // _mesh_size(mesh, axes), physical=True)
            for n, axes in used.items()}


def _build(f, mesh, used, tree, leaves, arr_idx, layouts, sizes, abstract):
    """One jitted shard_map program for this argument structure, the output tree
    and each output's dims.

    Inside, a partitioned name keeps its physical dimension, holding this
    device's block, bound to its mesh axes, so primitives reduce the block and
    then the mesh; other names are ordinary whole axes."""
    binding = _split_bindings(mesh, used, sizes)
    info = []

    def body(*datas):
        full = list(leaves)
        for i, d, (nd, want, _) in zip(arr_idx, datas, layouts):
            # a raw jax.Array argument (a PRNG key, a table) reaches f as it came
            full[i] = new(d, (None,) * nd + want, tuple(
                (n, sizes[n]) for n in want if n in binding)) if is_named(leaves[i]) else d
        a, kw = jax.tree_util.tree_unflatten(tree, full)
        with bind(binding):
            r = f(*a, **kw)
        flat, otree = jax.tree_util.tree_flatten(r, is_leaf=is_named)
        flat = [v if is_named(v) else positional(jnp.asarray(v)) for v in flat]
        info.append((otree, [(v.dims, dict(v.mapped)) for v in flat]))
        return [v.data for v in flat]

    in_specs = tuple(spec for _, _, spec in layouts)
    # pass 1 (abstract) learns the outputs' dims; pass 2 partitions each output
    # dimension that holds this device's block of a name; a whole axis (gathered,
    # or fresh) and a name reduced away are replicated
    probe = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec(),
                          check_vma=False)
    jax.eval_shape(probe, *abstract)
    otree, outs = info[-1]
    out_specs = [PartitionSpec(*[_spec_entry(used[d]) if d in binding and d in held else None
                                 for d in ds]) for ds, held in outs]
    # check_vma: shard_map's varying-axes types make a gradient taken inside
    # the map sum a shared value's cotangent over the devices exactly once
    sm = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=out_specs,
                       check_vma=True)
    return jax.jit(sm), (otree, [ds for ds, _ in outs])


def _nested(f, mesh, used, leaves, tree, arr_idx, arrays):
    """A mesh nmap inside another: the enclosing ``shard_map`` already runs on
    every device, so the new names are split by taking this device's block
    along their (unused) mesh axes, and gathered back on the way out."""
    taken = {a: n for n, b in bindings().items() if "mesh" in b.kinds
             for g, k in zip(b.groups, b.kinds) if k == "mesh" for a in g}
    for name, axes in used.items():
        clash = [a for a in axes if a in taken]
        if clash:
            raise ValueError(f"nmap: mesh axes {clash} for {name!r} already partition "
                             f"{taken[clash[0]]!r} in an enclosing nmap; nested mesh maps "
                             "need disjoint mesh axes")
    sizes = {}
    for x in arrays:
        sizes.update(x.named_shape)
    binding = _split_bindings(mesh, used, sizes)
    full = list(leaves)
    for i, x in zip(arr_idx, arrays):
        for n in used:
            if n in dict(x.mapped):
                raise ValueError(f"nmap: axis {n!r} is already mapped by an enclosing nmap")
        if is_named(leaves[i]):
            with bind(binding):
                full[i] = localize("nmap", x, [n for n in used if n in x.names])
    a, kw = jax.tree_util.tree_unflatten(tree, full)
    with bind(binding):
        r = f(*a, **kw)

        def whole(v):
            if not is_named(v):
                return v
            names = [n for n in used if n in v.names and n in dict(v.mapped)]
            if not names:
                return v
            k = v.ndim
            return gather_names("nmap", v, names).tag(*names, *([None] * k))
        return jax.tree_util.tree_map(whole, r, is_leaf=is_named)

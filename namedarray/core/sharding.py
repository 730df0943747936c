"""Explicit sharding: which mesh axes hold each dimension of an array's data.

On a mesh whose axes are ``Explicit`` (``jax.make_mesh``'s default) an array's
sharding is part of its type: ``jax.typeof(a)`` is ``float32[8@data,4]``.
These helpers read that type (for a concrete array and for a tracer alike) and
change it (``jax.sharding.reshard``, which works eagerly, under ``jit``, inside
``jax.set_mesh`` and outside it).  On an ``Auto`` mesh, or on one device, the
type holds no mesh axes and every helper is a no-op: the compiler decides.

>>> import jax, jax.numpy as jnp
>>> from jax.sharding import NamedSharding, PartitionSpec as P
>>> mesh = jax.make_mesh((1,), ("data",))
>>> a = jax.device_put(jnp.zeros((4, 3)), NamedSharding(mesh, P("data")))
>>> mesh_axes(a)
(('data',), ())
>>> mesh_axes(unshard(a, [0]))
((), ())
"""
from __future__ import annotations

import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec


def _entry(e) -> tuple:
    if e is None:
        return ()
    return (e,) if isinstance(e, str) else tuple(e)


def _aval_sharding(data):
    aval = getattr(data, "aval", None)
    s = getattr(aval, "sharding", None)
    return s if isinstance(s, NamedSharding) else None


def beneath(t):
    """The value beneath the tracers of eager transforms (an eager ``vmap``'s
    or ``grad``'s, whose operations run at once): a concrete ``jax.Array``;
    a staged tracer (``jax.jit``: its value is not there yet) as it is;
    anything else unchanged."""
    while isinstance(t, jax.core.Tracer):
        v = getattr(t, "val", None)     # (a staged tracer's is a jaxpr variable)
        v = v if isinstance(v, (jax.Array, jax.core.Tracer)) else getattr(t, "primal", None)
        if v is None:
            return t
        t = v
    return t


def mesh_axes(data) -> tuple:
    """One tuple of Explicit mesh axes per dimension of ``data`` (empty for a
    dimension no Explicit mesh axis partitions, and for data not on a mesh)."""
    s = _aval_sharding(data)
    ndim = getattr(data, "ndim", 0)
    if s is None or s.mesh.empty:
        return ((),) * ndim
    spec = tuple(s.spec) + (None,) * (ndim - len(s.spec))
    return tuple(_entry(e) for e in spec)


def abstract_mesh(data):
    """The (abstract) mesh of ``data``'s type, or None when its type holds none."""
    s = _aval_sharding(data)
    return None if s is None or s.mesh.empty else s.mesh


def spec_entry(axes):
    """A ``PartitionSpec`` entry for a tuple of mesh axes."""
    if not axes:
        return None
    return axes[0] if len(axes) == 1 else tuple(axes)


def sharding_of(mesh, axes) -> NamedSharding:
    """The sharding that puts dimension ``i`` on mesh axes ``axes[i]``."""
    return NamedSharding(mesh, PartitionSpec(*[spec_entry(a) for a in axes]))


def reshard(data, axes, mesh=None):
    """``data`` with dimension ``i`` on the Explicit mesh axes ``axes[i]`` of
    ``mesh`` (default: the mesh of its type); the same data when its type
    already says so."""
    if tuple(axes) == mesh_axes(data):
        return data
    return jax.sharding.reshard(data, sharding_of(mesh or abstract_mesh(data), axes))


def unshard(data, dims):
    """``data`` with dimensions ``dims`` whole on every device (an all-gather
    along them where they are partitioned), the other dimensions kept."""
    have = mesh_axes(data)
    if not any(have[d] for d in dims):
        return data
    return reshard(data, tuple(() if i in dims else a for i, a in enumerate(have)))


def explicit_mesh(leaves):
    """The concrete mesh with Explicit axes that one of ``leaves`` (concrete
    ``jax.Array`` s) is placed on, or None."""
    for v in leaves:
        s = getattr(v, "sharding", None)
        if isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer) and \
                isinstance(s, NamedSharding) and any(
                    t == jax.sharding.AxisType.Explicit for t in s.mesh.axis_types):
            return s.mesh
    return None


def on_their_mesh(f):
    """``f`` run inside ``jax.set_mesh`` of the Explicit mesh one of its
    (concrete) array arguments is placed on, when no mesh is set: eager JAX
    makes a value of such a mesh's type (``zeros_like`` of a sharded array
    under ``vmap``, an update of one) only inside it."""
    @functools.wraps(f)
    def g(*args):
        if jax.sharding.get_abstract_mesh().empty:
            mesh = explicit_mesh(args)
            if mesh is not None:
                with jax.set_mesh(mesh):
                    return f(*args)
        return f(*args)
    return g


def _is_explicit(mesh) -> bool:
    return any(t == jax.sharding.AxisType.Explicit for t in mesh.axis_types)


def one_mesh(datas):
    """``datas`` on one mesh, for an operation that meets them: where one is
    on a mesh with Explicit axes, data on its twin with other axis types (the
    same axis names and sizes: an ``Auto`` mesh, say) is moved onto it, whole
    on every device (JAX refuses operands on two meshes).  Data on no mesh
    passes as it is."""
    meshes = [abstract_mesh(d) for d in datas]
    target = next((m for m in meshes if m is not None and _is_explicit(m)), None)
    if target is None or all(m is None or m == target for m in meshes):
        return list(datas)
    return [jax.sharding.reshard(d, sharding_of(target, ((),) * d.ndim))
            if m is not None and m != target and m.axis_names == target.axis_names
            and m.axis_sizes == target.axis_sizes else d for d, m in zip(datas, meshes)]


def agree(datas):
    """Aligned operands of an elementwise operation (broadcast by NumPy's
    rules), resharded where their Explicit mesh axes would clash: each result
    dimension lives where the first operand partitioning it puts it, unless
    an earlier dimension holds that mesh axis already (then it is whole); an
    operand partitioning a dimension otherwise is moved there.  JAX's own
    rule where the operands agree; scalars and unplaced data pass."""
    datas = one_mesh(datas)
    axes = [mesh_axes(d) if _aval_sharding(d) is not None else None for d in datas]
    if not any(a is not None and any(a) for a in axes):
        return datas
    ndim = max(len(a) for a in axes if a is not None)
    out, taken = [], set()
    for k in range(ndim):
        pick = ()
        for d, a in zip(datas, axes):
            i = k - (ndim - len(a)) if a is not None else -1
            if i >= 0 and a[i] and d.shape[i] != 1 and not taken & set(a[i]):
                pick = a[i]
                break
        out.append(pick)
        taken |= set(pick)
    mesh = next(abstract_mesh(d) for d, a in zip(datas, axes) if a is not None and any(a))
    res = []
    for d, a in zip(datas, axes):
        if a is not None:
            off = ndim - len(a)
            want = tuple(out[off + i] if t and t != out[off + i] else t
                         for i, t in enumerate(a))
            if want != a:
                d = reshard(d, want, mesh)
        res.append(d)
    return res


def placed_dims(dims, data):
    """``dims`` as text with each partitioned dimension's size and mesh axes
    (``batch:8@data``, ``batch:8@(data,model)``, JAX's notation), or None when
    no Explicit mesh axis partitions ``data``."""
    axes = mesh_axes(data)
    if not any(axes):
        return None
    out = []
    for d, n, a in zip(dims, data.shape, axes):
        where = "" if not a else "@" + (a[0] if len(a) == 1 else "(" + ",".join(a) + ")")
        out.append(f"{d}:{n}{where}" if where or d is not None else "None")
    return "(" + ", ".join(out) + ")"


def sortable(data):
    """``data`` for a sort or a product along an axis: whole on every device.
    JAX's derivatives of ``sort`` (its index array) and of ``prod`` (a
    reshape) drop the operand's Explicit sharding of the *other* dimensions
    and then refuse the mismatch, and whether a value will be differentiated
    is not known when it is sorted (a ``jit`` hides it), so the operand is
    gathered (data on no Explicit mesh passes as it is)."""
    if any(mesh_axes(data)):
        return unshard(data, range(data.ndim))
    return data


def agree_names(datas, dims):
    """``datas`` (``dims[k]``: the name of each dimension of ``datas[k]``, None
    for a positional one) with every name on one partition: a name two of them
    place on different Explicit mesh axes is made whole in each (``vmap``
    over a name needs its inputs partitioned alike)."""
    datas = one_mesh(datas)
    axes = [mesh_axes(d) for d in datas]
    seen: dict = {}
    for a, ds in zip(axes, dims):
        for t, n in zip(a, ds):
            if n is not None:
                seen.setdefault(n, set()).add(t)
    clash = {n for n, ts in seen.items() if len(ts) > 1}
    if not clash:
        return list(datas)
    return [unshard(d, [i for i, n in enumerate(ds) if n in clash])
            for d, ds in zip(datas, dims)]

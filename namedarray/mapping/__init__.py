"""The top layer: ``nmap`` runs a function with named axes mapped, locally
(``local.py``: ``jax.vmap``) or over a device mesh (``mesh.py``:
``jax.shard_map``); ``shard`` places an array's data on a mesh by its names.

>>> import namedarray as np
>>> x = np.arange(6.0).reshape(2, 3).tag("b", None)
>>> np.nmap(lambda v: v.sum(axis="b"))(x)
array([3., 5., 7.])
"""
from __future__ import annotations

from .local import local_nmap
from .mesh import mesh_nmap, reshard, shard

__all__ = ["nmap", "reshard", "shard"]


def nmap(f, axes=None, mesh=None, axis_resources=None):
    """Map ``f`` over named axes of its arguments.

    Inside ``f`` a mapped name is invisible to positional code but still in
    every array's ``named_shape`` with its global size, and every named
    operation over it is a collective; the result equals the unmapped ``f``.

    ``axes`` lists the names to map (default: all the arguments' names); the
    others stay ordinary named axes inside ``f`` (sliceable, renameable).
    Without ``mesh`` the names are ``vmap``-ed.  With ``mesh`` and
    ``axis_resources={"batch": "data"}`` (a logical name to one mesh axis or a
    tuple of them) ``f`` runs under ``shard_map``: each such name is
    partitioned over its mesh axes, split into a local block per device when
    it is larger (its size must divide evenly); names in ``axes`` but not in
    ``axis_resources`` are ``vmap``-ed inside, and other names stay whole.
    Maps nest: a local ``nmap`` inside a mesh one maps the local block, and a
    mesh ``nmap`` inside another takes mesh axes the outer one leaves free.

    Outputs come back as NamedArrays carrying the mapped names they vary
    along (a name reduced by a collective inside ``f`` is gone, as in the
    unmapped run); raw JAX outputs inside an enclosing map keep that map's
    names, so ``np.nmap(jax.nn.gelu)(h)`` works at any depth.

    Cost of the default.  Mapping every name is what raw JAX code needs (it
    must see positional axes only) and costs what mapping the batch name
    costs, gradients included: a contraction over ``vmap``-ed names runs on
    the whole arrays (the batch dimensions move into the data and back, for
    free), so it and its gradient are one ``dot_general`` each, not a
    weight's gradient formed per instance and summed over the map.

    Gradients equal the unmapped run's on every placement, whether taken
    outside the map (``jax.grad`` of a loss built from ``nmap(f)(x)``) or
    inside it (``nmap(jax.grad(loss))``): a value every instance shares (a
    parameter, a loss a collective made invariant) stands for one value, and
    its gradient is summed over the instances once.  On a mesh this is
    ``shard_map``'s varying-axes typing (``check_vma``); under a local map the
    alignment of a shared value with mapped ones does the same.

    >>> import jax, namedarray as np
    >>> x = np.arange(8.0).reshape(4, 2).tag("b", None)
    >>> mesh = jax.make_mesh((1,), ("data",))
    >>> np.nmap(lambda v: v - v.mean(axis="b"), mesh=mesh,
    ...         axis_resources={"b": "data"})(x).named_shape
    {'b': 4}
    """
    if mesh is not None or axis_resources is not None:
        return mesh_nmap(f, mesh, axis_resources, axes)
    return local_nmap(f, axes)

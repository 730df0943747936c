"""How JAX's tree utilities and raw transforms see a NamedArray: a pytree
node with one leaf, its data, and ``(dims, mapped)`` as the node's data.

A JAX primitive handed a NamedArray (``jax.lax.top_k(x, 2)``) takes its data
when it has no named axes (:func:`_as_jax_value`), as ``jax.numpy`` does.

``jax.jit``, ``jax.grad`` and optax's ``tree.map`` pass the leaf through
whole.  ``jax.vmap``, ``jax.lax.map`` and ``jax.lax.scan`` take or add the
leaf's leading axis; :func:`_unflatten` says what that means for the names
(the leading positional axis, or an error where a name would be sliced).
"""
from __future__ import annotations

import sys

import jax
from jax._src import dtypes as _dtypes
from jax._src.array import ArrayImpl as _CONCRETE
from jax._src.interpreters import batching as _batching, partial_eval as _pe

from .array import NamedArray, View, new


# A jitted call flattens every NamedArray argument and unflattens every
# NamedArray result in Python (a registered node has no C++ path), so these
# two functions are the whole per-call cost of a pytree of NamedArrays over
# one of jax.Arrays (``benchmarks/bench_dispatch.py``): each reads slots
# directly and builds the NamedArray in place, without a property or a call.
_make = object.__new__


def _flatten(x):
    d = x._dev
    if d is None:           # data living on the host: its device array, made once
        d = x.data
    return (d,), (x.dims, x.mapped)


def _flatten_view(x):
    return (x.data,), (x.dims, x.mapped)


def _unflatten(aux, children):
    """A NamedArray around ``children``'s one leaf (see :func:`_rebuild`)."""
    (data,) = children
    # a concrete array with one dimension per dim (a jitted call's result):
    # ``len(aval.shape)`` reads what ``ndim``'s two properties would
    if type(data) is _CONCRETE and len(data.aval.shape) == len(aux[0]):
        x = _make(NamedArray)
        x._dev = data
        x._host = None
        x.dims, x.mapped = aux
        x._array0d = x._ro = False
        return x
    return _rebuild(aux, data)


def _rebuild(aux, data):
    """A NamedArray around the leaf ``data``.  Raw JAX transforms
    (``jax.vmap``, ``jax.lax.map``, ``jax.lax.scan``) take or add the leaf's
    leading axis, which is the leading positional axis (positional axes are
    physically first): the dims follow.  Where the array has no positional
    axis the leading axis holds a name, and taking it would slice whichever
    name is stored first: that is an error.

    A leaf with fewer axes than ``dims`` is either such a slice or the result
    of a function of the leaves (``jax.tree.map(jnp.sum, params)``, as optax
    computes norms).  A 0-d result of a function is a positional scalar.  A
    0-d leaf that a transform made (a batched value inside ``jax.vmap``, an
    argument of a ``scan`` body) may be either: it becomes a
    :class:`_SlicedLeaf`, which optax's ``tree.map``-then-``tree.reduce``
    flattens again untouched, and which raises as soon as code uses it."""
    dims, mapped = aux
    nd = getattr(data, "ndim", None)
    if nd is not None and isinstance(nd, int) and nd != len(dims):
        if nd == len(dims) + 1:
            return new(data, (None,) + dims, mapped)
        if nd == len(dims) - 1 and dims[0] is None:
            return new(data, dims[1:], mapped)
        if 0 < nd < len(dims):
            raise ValueError(_sliced_message(dims) if dims[0] is not None else (
                f"a function of the leaves (jax.tree.map) gave a leaf with {nd} axes for a "
                f"NamedArray with dims {dims}: which axes it removed is unknown. Apply it to "
                f"the NamedArray itself (NumPy functions keep the names), or untag the "
                f"names first"))
        if nd == 0 and _made_by_a_transform(data):
            leaf = object.__new__(_SlicedLeaf)
            for k, v in (("_dev", data), ("_host", None), ("dims", dims), ("mapped", mapped)):
                object.__setattr__(leaf, k, v)
            return leaf
        if nd == 0:
            return new(data, (), mapped)
    return new(data, dims, mapped)


def _sliced_message(dims):
    return (f"a raw JAX transform (jax.vmap, jax.lax.map, jax.lax.scan) or a function "
            f"of the leaves took the leading axis of a NamedArray with named axes {dims} "
            f"and no positional axis: it would slice the name {dims[0]!r} only because "
            f"it is stored first. Map over a name with np.nmap(f, axes={dims[0]!r}), or "
            f"make it positional first with x.untag({dims[0]!r})")


def _made_by_a_transform(data) -> bool:
    """Whether ``data`` is a value a transform handed in: a batched value of a
    ``vmap``, or an argument of a traced body (a ``scan`` slice) rather than
    the output of an operation."""
    if isinstance(data, _batching.BatchTracer):
        return not isinstance(data.batch_dim, _batching.NotMapped)
    return isinstance(data, _pe.DynamicJaxprTracer) and data.parent is None


class _SlicedLeaf(NamedArray):
    """A 0-d leaf of a NamedArray whose names a raw JAX transform may have
    sliced (see :func:`_unflatten`): it flattens as a NamedArray does, and any
    other use raises the error naming ``np.nmap`` and ``untag``."""

    __slots__ = ()

    def __getattribute__(self, name):
        raise ValueError(_sliced_message(object.__getattribute__(self, "dims")))

    def __repr__(self):
        return "<NamedArray sliced by a raw JAX transform>"


def _flatten_sliced(x):
    get = object.__getattribute__
    return (get(x, "_dev"),), (get(x, "dims"), get(x, "mapped"))


def _as_jax_value(x):
    """The value a JAX primitive (``jax.lax.exp``, ``jax.lax.top_k``, ...) binds
    for the NamedArray ``x``: its data when it has no named axes.  Named axes
    have no place in a JAX function's positional view: say what to use."""
    if x.dims.count(None) != len(x.dims):
        caller = sys._getframe(1)
        prim = caller.f_locals.get("self") if caller.f_code.co_name == "bind" else None
        what = f"jax.lax.{prim}" if prim is not None else "a JAX function"
        raise ValueError(
            f"{what} was given a NamedArray with named axes {x.named_shape}; JAX's "
            f"functions see positional axes only. Use the namedarray function with "
            f"axis=<name> (for instance np.top_k(x, k, axis={x.names[0]!r})), make the "
            f"names positional first with x.untag(...), or map the JAX function over "
            f"the names with np.nmap(fn)(x)")
    return _dtypes.canonicalize_value(x.data)


_dtypes.register_canonicalize_value_handler(NamedArray, _as_jax_value)
jax.tree_util.register_pytree_node(NamedArray, _flatten, _unflatten)
jax.tree_util.register_pytree_node(View, _flatten_view, _unflatten)
jax.tree_util.register_pytree_node(_SlicedLeaf, _flatten_sliced, _unflatten)

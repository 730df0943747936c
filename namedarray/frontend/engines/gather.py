"""The gather engine: an index holding named axes (``x[tokens]`` with
``tokens`` a NamedArray, ``take(x, tokens, axis=0)``) as the one gather (or
scatter, for its gradient) ``jax.numpy`` emits for the same physical operation.

The names of the index that ``x`` lacks are folded into the index arrays as
trailing dimensions (they broadcast together by name, positional axes by
NumPy's rules), so the gather takes a whole index array at once: a lookup
``emb.untag("vocab")[tokens]`` is ``jnp.take(emb, tokens, axis=0)``, a gather
with a one-column index.  Mapping over those names instead (``vmap`` of a
scalar lookup) gives a gather whose index has a column per dimension of the
operand, and its gradient a scatter that a TPU cannot emit natively (a serial
loop, one step per token; the CPU hides it).  Only the names ``x`` has too are
mapped (``vmap``: one lookup per element of the name, a batched gather).
"""
from __future__ import annotations

import jax
import numpy as onp

from ...core.array import NamedArray
from ...core.align import align_plan, meet
from ...core.vmap import nested_vmap
from .results import wrap_result


def _is_na(v) -> bool:
    return isinstance(v, NamedArray)


def _is_index_array(v) -> bool:
    return isinstance(v, (NamedArray, jax.Array, onp.ndarray))


def index_names(fn, run, x, index, block=None):
    """``run(data, index)``: a gather (or update) of ``x`` at ``index``, an index
    (a NamedArray, or a pytree holding some) with named axes.

    ``x``'s names that no index array has ride along as trailing dimensions of
    ``run``'s operand (``run`` must index its leading, positional axes only, and
    leave them trailing).  The index's names that ``x`` lacks are folded into
    the index arrays when ``block(index)`` says where ``run`` puts the index
    arrays' (broadcast) dimensions in its result; ``run`` then sees every index
    array with those names as trailing dimensions, left-padded to the same
    number of positional axes.  The names ``x`` shares with the index are
    mapped (``vmap``).  The result: its positional axes, then the shared names,
    then the folded ones (the index's order), then the riding names -- so
    ``emb.untag("vocab")[tokens]`` comes out as ``jax.numpy``'s ``emb[tokens]``,
    with no transpose of the operand or of the result.  Without ``block``
    (or with an index array of booleans) every name of the index is mapped.
    """
    leaves, tree = jax.tree_util.tree_flatten(index, is_leaf=_is_na)
    arr_idx = [i for i, v in enumerate(leaves) if _is_na(v)]
    met, mapped = meet(fn, [x] + [leaves[i] for i in arr_idx])
    x = met[0]
    for i, v in zip(arr_idx, met[1:]):
        leaves[i] = v
    named_idx = [i for i, v in enumerate(leaves) if _is_na(v) and v.names]
    align_plan(fn, [x] + [leaves[i] for i in named_idx])      # the sizes agree
    union = [d for d in align_plan(fn, [leaves[i] for i in named_idx])[1] if d is not None]
    arrays = [i for i, v in enumerate(leaves) if _is_index_array(v)]
    free = [d for d in union if d not in x.names]
    at = None
    if free and block is not None and not any(leaves[i].dtype == bool for i in arrays):
        at = block(jax.tree_util.tree_unflatten(tree, leaves))
    else:
        free = []
    shared = [d for d in union if d not in free]
    n = x.ndim
    ride = tuple(d for d in x.names if d not in union)
    d = x.data
    if x.names != ride + tuple(shared):
        d = jax.lax.transpose(d, tuple(range(n)) + tuple(
            n + x.names.index(w) for w in ride + tuple(shared)))
    layouts = [(n + len(ride), tuple(shared))]
    datas = [d]
    # the positional axes every index array has once left-padded (NumPy's broadcast)
    rank = max((leaves[i].ndim for i in arrays), default=0) if free else 0
    vmapped = []
    for i in arrays:
        v = leaves[i]
        if not _is_na(v):
            if free:
                leaves[i] = v.reshape((1,) * (rank - v.ndim) + v.shape + (1,) * len(free))
            continue
        want = tuple(w for w in shared if w in v.names)
        a = in_order(v, free, rank - v.ndim if free else 0, want)
        if want:
            vmapped.append(i)
            layouts.append((rank + len(free) if free else v.ndim, want))
            datas.append(a)
        else:
            leaves[i] = a
    plain = [v.data if _is_na(v) else v for v in leaves]
    start = None if at is None else at + rank     # where run puts the folded names

    def call(dx, *ds):
        full = list(plain)
        for i, a in zip(vmapped, ds):
            full[i] = a
        r = run(dx, jax.tree_util.tree_unflatten(tree, full))
        if free:
            # the folded names go after the positional axes (before the riding ones)
            end = r.ndim - len(ride)
            stop = start + len(free)
            if stop != end:
                r = jax.lax.transpose(r, tuple(range(start)) + tuple(range(stop, end)) +
                                      tuple(range(start, stop)) + tuple(range(end, r.ndim)))
        return r

    f = nested_vmap(call, shared, layouts, keep_order=True, tail=len(free) + len(ride))
    return wrap_result(f(*datas), tuple(shared) + tuple(free) + ride, mapped)


def advanced_block(ndim, index):
    """Where NumPy's ``a[index]`` (``a`` with ``ndim`` axes, ``index`` holding at
    least one integer array) puts the broadcast dimensions of its index arrays:
    in place of the first one when the arrays and ints are adjacent, else in
    front (NumPy's rule, read off NumPy on a stand-in of one element)."""
    items = index if type(index) is tuple else (index,)
    stand = []
    for it in items:
        if _is_index_array(it) or isinstance(it, list):
            stand.append(onp.zeros(2, onp.intp))
        elif isinstance(it, slice):
            stand.append(slice(None))
        elif it is None or it is Ellipsis:
            stand.append(it)
        else:
            stand.append(0)
    dummy = onp.lib.stride_tricks.as_strided(onp.zeros(1, onp.int8), (1,) * ndim,
                                             (0,) * ndim)
    return dummy[tuple(stand)].shape.index(2)


def in_order(v, names, pad=0, then=()):
    """``v``'s data with its names in the order of ``names`` (a size-1 axis for a
    name it lacks) and ``pad`` size-1 positional axes in front; then the names
    ``then`` (which ``v`` has), in that order."""
    d = v.data
    have = tuple(n for n in names if n in v.names) + tuple(then)
    if v.names != have:
        d = jax.lax.transpose(d, tuple(range(v.ndim)) + tuple(
            v.ndim + v.names.index(n) for n in have))
    size = dict(zip(have, d.shape[v.ndim:]))     # (physical: a split name's local block)
    return d.reshape((1,) * pad + d.shape[:v.ndim] + tuple(
        size.get(n, 1) for n in names) + tuple(size[n] for n in then))

"""``nmap``: run a function with the named axes of its arguments mapped.

Inside ``f`` the named axes are invisible to positional code, and every named
operation on them (``x.sum("batch")``, ``parallel.psum``, named einsum) is a
collective over the enclosing map.  Without a mesh the names are ``vmap``-ed
(with ``axis_name`` set to the name, so raw ``jax.lax`` collectives work too).

>>> import namedarray as np
>>> x = np.arange(6.0).reshape(2, 3).tag("b", None)
>>> y = np.nmap(lambda v: v - v.mean(axis="b"))(x)
>>> bool(np.allclose(y.untag("b"), (x - x.mean(axis="b")).untag("b")))
True
"""
from __future__ import annotations

import functools

import jax

from ..core.array import NamedArray, align, new, positional
from ..core.dims import order_names as _order
from ..core.vmap import nested_vmap
from ..placement import Binding, bind
from .mesh import mesh_nmap

try:  # to tell which outputs a collective made invariant along a name
    from jax._src.interpreters.batching import BatchTracer as _BatchTracer
except ImportError:  # pragma: no cover
    class _BatchTracer:  # every output then keeps every mapped name
        pass


def nmap(f, mesh=None, axis_resources=None):
    """Map ``f`` over the named axes of its arguments.

    Without ``mesh`` the names are ``vmap``-ed.  With ``mesh`` and
    ``axis_resources={"batch": "data"}`` (a logical name to one mesh axis or a
    tuple of them) ``f`` runs under ``shard_map``: each such name is partitioned
    over its mesh axes, split into a local block per device when it is larger
    (its size must divide evenly); names not listed are ``vmap``-ed locally.

    Outputs come back as NamedArrays carrying the mapped names they vary
    along (a name reduced by a collective inside ``f`` is gone, as in the
    unmapped run).

    >>> import namedarray as np
    >>> x = np.arange(6.0).reshape(2, 3).tag("b", None)
    >>> np.nmap(lambda v: v * 2)(x).named_shape  # positional code sees shape (3,)
    {'b': 2}
    >>> np.nmap(lambda v: v.sum(axis="b"))(x)  # a collective: the name is gone
    array([3., 5., 7.])
    """
    if mesh is not None or axis_resources is not None:
        return mesh_nmap(f, mesh, axis_resources)

    @functools.wraps(f)
    def mapped(*args, **kwargs):
        is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_na)
        idx = [i for i, v in enumerate(leaves) if is_na(v) and v.names]
        if not idx:
            return f(*args, **kwargs)
        _, udims = align("nmap", [leaves[i] for i in idx])
        union = [d for d in udims if d is not None]
        sizes = {}
        arrays = []
        for i in idx:
            x = leaves[i]
            want = tuple(d for d in union if d in x.names)
            x = x if x.names == want else new(*_order(x, want))
            sizes.update(x.named_shape)
            arrays.append((x.data, x.ndim, want))
        out_dims = []

        def body(*datas):
            full = list(leaves)
            for i, d in zip(idx, datas):
                full[i] = positional(d)
            a, k = jax.tree_util.tree_unflatten(tree, full)
            with bind({n: Binding(n, ((n,),), (sizes[n],)) for n in union}):
                res = f(*a, **k)
            flat, otree = jax.tree_util.tree_flatten(res, is_leaf=is_na)
            out_dims.append((otree, [v.dims if is_na(v) else None for v in flat]))
            return [v.data if is_na(v) else v for v in flat]

        varying = {}
        g = nested_vmap(body, union, [(n, want) for _, n, want in arrays], axis_names=True,
                        level=lambda g, name, mapped_args: _probe(g, name, varying, mapped_args))
        flat = g(*[d for d, _, _ in arrays])
        otree, dims = out_dims[-1]
        tail = tuple(reversed(union))
        out = []
        for j, (v, d) in enumerate(zip(flat, dims)):
            d = d if d is not None else (None,) * (v.ndim - len(tail))
            # a name the output does not vary along (after a psum, say) is dropped,
            # so nmap(f)(x) equals the unmapped f on x
            keep = tuple(nm for nm in tail if varying.get(nm, [True] * len(flat))[j])
            if keep != tail:
                idx = (slice(None),) * len(d) + tuple(
                    slice(None) if nm in keep else 0 for nm in tail)
                v = v[idx]
            out.append(new(v, d + keep))
        return jax.tree_util.tree_unflatten(otree, out)
    return mapped


def _probe(inner, name, varying, mapped_args):
    """Record, for each output, whether it varies along the name this vmap level
    maps (a collective's result comes back unbatched)."""
    def level(*datas):
        outs = inner(*datas)
        trace = next((datas[k]._trace for k in mapped_args
                      if isinstance(datas[k], _BatchTracer)), None)
        varying[name] = [trace is None or (isinstance(o, _BatchTracer) and o._trace is trace
                                           and o.batch_dim is not None) for o in outs]
        return outs
    return level

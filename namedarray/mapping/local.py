"""The local map: ``nmap`` without a mesh ``vmap``s named axes away.

Inside ``f`` a mapped name is invisible to positional code (raw ``jax.numpy``
code sees one instance), yet every array still knows it: it is in
``named_shape`` with its global size (``NamedArray.mapped``), named operations
over it are collectives (``axis_name`` is the name, so raw ``jax.lax``
collectives work too), and whole axes meeting it are cut to this instance's
part.  Maps nest: a name an enclosing mesh map splits into blocks is mapped
over the block, and its collectives compose both steps.

>>> import namedarray as np
>>> x = np.arange(6.0).reshape(2, 3).tag("b", None)
>>> y = np.nmap(lambda v: v - v.mean(axis="b"))(x)
>>> bool(np.allclose(y.untag("b"), (x - x.mean(axis="b")).untag("b")))
True
"""
from __future__ import annotations

import functools

import jax

from ..core.array import NamedArray, new
from ..core.align import align, merge_mapped
from ..core.dims import order_names
from ..core.sharding import unshard
from ..core.vmap import nested_vmap
from ..placement import bind, bindings, localize, vmap_binding

try:  # to tell which outputs a collective made invariant along a name
    from jax._src.interpreters.batching import BatchTracer as _BatchTracer
except ImportError:  # pragma: no cover
    class _BatchTracer:  # every output then keeps every mapped name
        pass


def is_named(v):
    return isinstance(v, NamedArray)


def _is_array(v):
    return isinstance(v, (jax.Array, jax.core.Tracer))


def check_sizes(fn, args, kwargs):
    """Each name has one size across the arguments; an error names the
    arguments as the user passed them (``argument 1['w']``), not pytree leaves."""
    seen = {}
    flat, _ = jax.tree_util.tree_flatten_with_path((args, kwargs), is_leaf=is_named)
    for path, v in flat:
        if not is_named(v):
            continue
        where = _describe(path)
        for n, s in v.named_shape.items():
            if n in seen and seen[n][0] != s:
                s0, w0, shape0 = seen[n]
                raise ValueError(
                    f"{fn}: axis name {n!r} has size {s0} in {w0} (named shape {shape0}) "
                    f"but size {s} in {where} (named shape {v.named_shape})")
            seen.setdefault(n, (s, where, v.named_shape))


def _describe(path):
    """``((args, kwargs), key path)`` -> ``argument 0``, ``keyword argument 'w'[0]``."""
    top, first, *rest = path
    tail = jax.tree_util.keystr(tuple(rest))
    if top.idx == 0:
        return f"argument {first.idx}{tail}"
    return f"keyword argument {first.key!r}{tail}"


def _localized(ops):
    """The arguments with whole axes of names an enclosing map holds part of
    cut to this instance's part.  An argument that does not vary along a
    mapped name enters as it is: the operation that combines it with varying
    values marks it (a gradient then sums the instances' cotangents only
    where the program made it meet them).  Returns (operands, the union of
    their mapped names)."""
    mapped = merge_mapped("nmap", ops)
    if not mapped:
        return ops, ()
    return [localize("nmap", x, [d for d, _ in mapped if d in x.dims]) for x in ops], mapped


def check_axes(fn, axes, present):
    """``axes`` as a tuple of names, each one an axis of some argument."""
    if axes is None:
        return None
    axes = (axes,) if isinstance(axes, str) else tuple(axes)
    for a in axes:
        if not isinstance(a, str):
            raise TypeError(f"{fn}: axes must be axis names, got {a!r}")
        if a not in present:
            raise ValueError(f"{fn}: axes names {a!r}, but no argument has that axis "
                             f"(named axes: {present})")
    return axes


def local_nmap(f, axes=None):
    """``f`` with the named axes listed in ``axes`` (all when ``None``) vmapped."""
    @functools.wraps(f)
    def mapped(*args, **kwargs):
        check_sizes("nmap", args, kwargs)
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_named)
        idx = [i for i, v in enumerate(leaves) if is_named(v)]
        met, outer_mapped = _localized([leaves[i] for i in idx])
        for i, v in zip(idx, met):
            leaves[i] = v
        named = [leaves[i] for i in idx if leaves[i].names]
        _, udims, _ = align("nmap", named)
        present = {}
        for v in met:
            present.update(v.named_shape)
        want = check_axes("nmap", axes, present)
        union = [d for d in udims if d is not None and (want is None or d in want)]
        if not union:    # nothing left to map here: raw outputs keep the outer maps' names
            res = f(*args, **kwargs)
            if not outer_mapped:
                return res
            return jax.tree_util.tree_map(
                lambda v: new(v, (None,) * v.ndim, outer_mapped) if _is_array(v) else v,
                res, is_leaf=is_named)
        outer = bindings()
        sizes = {}
        for v in named:
            sizes.update(zip(v.dims, v.data.shape))
        # a name no argument holds mapped is a whole axis here (it was
        # gathered): this map binds it afresh, whatever binds it outside
        held = {n for i in idx for n, _ in leaves[i].mapped}
        whole = {n for n in union if n not in held}
        binding = {n: vmap_binding(n, sizes[n], n in whole) for n in union}
        arrays, in_idx = [], []
        for i in idx:
            v = leaves[i]
            have = tuple(d for d in union if d in v.names)
            if not have:
                continue
            rest = tuple(d for d in v.names if d not in union)
            v = order_names(v, rest + have)
            inner = (v.dims[:v.ndim + len(rest)],
                     tuple((n, s) for n, s in v.mapped if n not in have)
                     + tuple((n, binding[n].size) for n in have))
            arrays.append((v.data, len(inner[0]), have, inner))
            in_idx.append(i)
        out_info = []

        def body(*datas):
            full = list(leaves)
            for i, d, (_, _, _, (dims, mp)) in zip(in_idx, datas, arrays):
                full[i] = new(d, dims, mp)
            a, k = jax.tree_util.tree_unflatten(tree, full)
            with bind(binding):
                res = f(*a, **k)
            flat, otree = jax.tree_util.tree_flatten(res, is_leaf=is_named)
            out_info.append((otree, [(v.dims, v.mapped) if is_named(v) else None
                                     for v in flat]))
            return [v.data if is_named(v) else v for v in flat]

        varying = {}
        g = nested_vmap(body, union, [(n, have) for _, n, have, _ in arrays],
                        axis_names=True, keep_order=True,
                        level=lambda g, name, args: _probe(g, name, varying, args))
        flat = g(*[d for d, _, _, _ in arrays])
        otree, infos = out_info[-1]
        tail = tuple(union)     # the layout rule: results keep the operands' order
        out = []
        for j, (v, info) in enumerate(zip(flat, infos)):
            # a raw output (of raw JAX code) has the enclosing maps' names, as
            # every function of mapped operands does
            dims, mp = info if info is not None else ((None,) * (v.ndim - len(tail)),
                                                      outer_mapped)
            # an output keeps the mapped names it has (its annotation) or varies
            # along; one it lost (reduced by a psum, say) is dropped, so
            # nmap(f)(x) equals the unmapped f on x
            has = dict(mp)
            keep = tuple(nm for nm in tail
                         if nm in has or varying.get(nm, [True] * len(flat))[j])
            if keep != tail:
                # (JAX slices no dimension an Explicit mesh partitions)
                v = unshard(v, [len(dims) + k for k, nm in enumerate(tail) if nm not in keep])
                v = v[(slice(None),) * len(dims) + tuple(
                    slice(None) if nm in keep else 0 for nm in tail)]
            for nm in keep:
                if nm in dims:
                    raise ValueError(
                        f"nmap: output {j} of {getattr(f, '__name__', 'f')} has axis {nm!r} "
                        "both as a whole axis and varying along the map over it; "
                        "reduce or gather one of them")
            mp = tuple((n, s) for n, s in mp if n not in union) + tuple(
                (n, outer[n].size) for n in keep if n in outer and n not in whole)
            out.append(new(v, dims + keep, mp))
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

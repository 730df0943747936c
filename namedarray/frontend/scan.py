"""``scan`` and ``fold``: ``jax.lax.scan`` over a named axis.

``scan(f, init, xs, axis="layer")`` runs ``carry, y = f(carry, x)`` once per
index of the axis named ``axis``: ``x`` is ``xs`` (a pytree of NamedArrays,
e.g. stacked layer parameters) with that axis indexed away.  It is one
``lax.scan``, so it traces ``f`` once, works under ``jax.jit`` and inside
``nmap``, and differentiates (``np.grad``).  The carry keeps its names (and
its layout: ``f`` may return it in any physical order); the outputs ``ys``
are stacked along a new axis named ``axis``.  ``jax.lax.scan`` itself would
scan whichever axis a NamedArray's data stores first.

>>> import namedarray as np
>>> w = np.asarray([[1.0, 0.0], [2.0, 1.0], [0.5, 0.5]]).tag("layer", "embed")
>>> h, ys = np.scan(lambda h, w: (h * w + 1, h.sum(axis="embed")), np.ones(2).tag("embed"),
...                 w, axis="layer")
>>> h.untag("embed"), ys.untag("layer")
(array([3.5, 2. ]), array([2., 3., 7.]))
>>> np.fold(lambda h, w: h * w, np.ones(2).tag("embed"), w, axis="layer").untag("embed")
array([1., 0.])
"""
from __future__ import annotations

import jax

from ..core import hooks
from ..core.array import NamedArray, check_name, new, positional

_is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731


def _slices(fn, xs, axis):
    """Each leaf of ``xs`` with ``axis`` moved to the front of its data, and the
    (dims, mapped) of one slice; the length of the axis."""
    leaves, tree = jax.tree_util.tree_flatten_with_path(xs, is_leaf=_is_na)
    datas, metas, sizes = [], [], {}
    for p, x in leaves:
        if not isinstance(x, NamedArray) or axis not in x.named_shape:
            have = x.named_shape if isinstance(x, NamedArray) else type(x).__name__
            raise ValueError(f"{fn}: every leaf of xs must be a NamedArray with axis "
                             f"{axis!r}; xs{jax.tree_util.keystr(p)} has "
                             f"{have}")
        sizes[f"xs{jax.tree_util.keystr(p)}"] = x.named_shape[axis]
        u = _enter(fn, x.untag(axis))   # the axis in front (gathered if a map held part)
        datas.append(u.data)
        metas.append((u.dims[1:], u.mapped))
    if len(set(sizes.values())) > 1:
        raise ValueError(f"{fn}: axis {axis!r} has different sizes in xs: {sizes}")
    return datas, metas, tree, next(iter(sizes.values()), None)


def _conform(fn, got, want, path):
    """The carry ``f`` returned, in the layout of the carry it was given."""
    if not isinstance(want, NamedArray):
        return got
    if not isinstance(got, NamedArray):
        raise TypeError(f"{fn}: f returned {type(got).__name__} for the carry's NamedArray "
                        f"at carry{path}")
    if (got.named_shape != want.named_shape or got.shape != want.shape
            or got.dtype != want.dtype):
        raise TypeError(
            f"{fn}: f must return the carry as it was given; at carry{path} it was given "
            f"named shape {want.named_shape}, shape {want.shape}, dtype {want.dtype} and "
            f"returned named shape {got.named_shape}, shape {got.shape}, dtype {got.dtype}")
    extra = [n for n, _ in got.mapped if n not in dict(want.mapped)]
    if extra:
        raise TypeError(f"{fn}: f returned the carry at carry{path} mapped along "
                        f"{extra}, which the carry it was given is not")
    missing = [n for n, _ in want.mapped if n not in dict(got.mapped)]
    if missing:
        got = hooks.vary(got, missing)
    if got.dims != want.dims:
        n = got.ndim
        perm = tuple(range(n)) + tuple(got.dims.index(d) for d in want.dims[n:])
        got = new(jax.lax.transpose(got.data, perm), want.dims, got.mapped)
    return got


def _enter(fn, x):
    """``x`` with its whole axes of names an enclosing map binds cut to this
    instance's part (as alignment cuts them when they meet mapped values):
    done before the scan, so that the carry's layout is the same in and out."""
    return hooks.localize(fn, x, list(x.names)) if isinstance(x, NamedArray) else x


def _stacked(fn, y, axis):
    if not isinstance(y, NamedArray):
        y = positional(y)
    if axis in y.named_shape:
        raise ValueError(f"{fn}: f's output already has axis {axis!r} (named shape "
                         f"{y.named_shape}); ys are stacked along a new axis {axis!r}")
    return y


def scan(f, init, xs, axis, *, length=None, reverse=False, unroll=1):
    """``jax.lax.scan`` over the axis named ``axis`` of ``xs``: returns
    ``(carry, ys)``, ``ys`` stacked along a new axis named ``axis``.

    ``xs`` is a pytree whose every leaf is a NamedArray with ``axis`` (or
    ``None``, with ``length`` given); ``init`` a pytree of NamedArrays (and
    JAX values); ``f(carry, x) -> (carry, y)``.  ``reverse`` and ``unroll``
    are ``lax.scan``'s.
    """
    return _scan("scan", f, init, xs, axis, length, reverse, unroll)


def fold(f, init, xs, axis, *, reverse=False, unroll=1):
    """The carry of a scan with ``f(carry, x) -> carry`` (no outputs): e.g.
    ``fold(block, h, stacked_params, axis="layer")`` applies every layer."""
    return _scan("fold", lambda c, x: (f(c, x), None), init, xs, axis, None, reverse,
                 unroll)[0]


def _scan(fn, f, init, xs, axis, length, reverse, unroll):
    check_name(fn, "axis", axis)
    if xs is None:
        datas, metas, tree, n = [], [], jax.tree_util.tree_structure(None), None
    else:
        datas, metas, tree, n = _slices(fn, xs, axis)
    if length is not None and n is not None and length != n:
        raise ValueError(f"{fn}: length={length} but axis {axis!r} has size {n}")
    length = n if length is None else length
    if length is None:
        raise ValueError(f"{fn}: xs has no leaves; give length=")
    want, ctree = jax.tree_util.tree_flatten_with_path(init, is_leaf=_is_na)
    want = [(jax.tree_util.keystr(p), _enter(fn, v)) for p, v in want]
    ys_meta = []

    def body(carry, ds):
        x = jax.tree_util.tree_unflatten(tree, [new(d, dims, mapped)
                                                for d, (dims, mapped) in zip(ds, metas)])
        c, y = f(jax.tree_util.tree_unflatten(ctree, carry), x)
        got, gtree = jax.tree_util.tree_flatten(c, is_leaf=_is_na)
        if gtree != ctree:
            raise TypeError(f"{fn}: f must return the carry with the structure it was "
                            f"given: {ctree}, got {gtree}")
        got = [_conform(fn, g, w, p) for g, (p, w) in zip(got, want)]
        ys, ytree = jax.tree_util.tree_flatten(y, is_leaf=_is_na)
        ys = [_stacked(fn, v, axis) for v in ys]
        ys_meta[:] = [ytree, [(v.dims, v.mapped) for v in ys]]
        return got, [v.data for v in ys]

    datas = _varying_like([v for _, v in want], datas)
    out, ys = jax.lax.scan(body, [v for _, v in want], datas, length=length,
                           reverse=reverse, unroll=unroll)
    ytree, ymeta = ys_meta
    stacked = [new(*_front(d, dims, axis), mapped) for d, (dims, mapped) in zip(ys, ymeta)]
    return (jax.tree_util.tree_unflatten(ctree, out),
            jax.tree_util.tree_unflatten(ytree, stacked))


def _varying(d) -> frozenset:
    """The mesh axes along which ``d`` varies inside ``shard_map`` (empty elsewhere)."""
    t = getattr(jax.typeof(d), "manual_axis_type", None)
    return t.varying if t is not None else getattr(jax.typeof(d), "vma", frozenset())


def _varying_like(carry, xs):
    """``xs`` cast once, before the loop, to vary along the mesh axes the carry
    varies along (a mesh ``nmap``'s batch): otherwise each step's slice of a
    replicated ``xs`` (stacked layer weights) meets the carry through its own
    implicit ``pvary`` and the backward pass keeps every varying slice as a
    residual (a copy of the weights per step).  The values and the gradient
    (``pvary``'s transpose sums the instances' cotangents) are the same."""
    axes = frozenset().union(*(_varying(c) for c in jax.tree_util.tree_leaves(carry)))
    if not axes:
        return xs
    return [jax.lax.pcast(d, tuple(sorted(axes - _varying(d))), to="varying")
            if axes - _varying(d) else d for d in xs]


def _front(data, dims, axis):
    """``data`` with a new leading axis named by the scan, in the canonical layout
    (positional axes first: a transpose only when a ``y`` has positional axes)."""
    n = dims.count(None)
    if n:
        data = jax.lax.transpose(data, tuple(range(1, n + 1)) + (0,) + tuple(
            range(n + 1, data.ndim)))
    return data, dims[:n] + (axis,) + dims[n:]


__all__ = ["scan", "fold"]

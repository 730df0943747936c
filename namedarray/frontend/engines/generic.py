"""The generic engine: every NumPy function that is not a ufunc, a reduction or
a contraction is ``wrap(jnp.f)``.

With no named axes anywhere, the ``jax.numpy`` function runs on ``.data``
directly (the fast path); otherwise it is ``jax.vmap``-ed over the named axes,
so positional code never sees them.  A *name* in an ``axis`` argument goes to
:func:`along_names`: gather the names (through the parallel primitives), run
the positional function, scatter the names back.

>>> import jax.numpy as jnp
>>> import namedarray as np
>>> from namedarray.frontend.engines.generic import wrap
>>> flip = wrap(jnp.flip, named="keep")
>>> x = np.arange(6).reshape(2, 3).tag(None, "j")
>>> flip(x, axis="j").untag("j")
array([[2, 5],
       [1, 4],
       [0, 3]])
"""
from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp

from ... import parallel
from ...core import backends
from ...core.array import NamedArray, new, normalize_axis, operand, positional
from ...core.align import align, meet
from ...core.dims import has_names as axis_has_names
from ...core.sharding import agree_names
from ...core.vmap import nested_vmap
from .out import store_out
from .results import RUNTIME_ERRORS, reraise, wrap_result


def has_names(v) -> bool:
    """Whether ``v`` (a NamedArray or a list/tuple of them) has named axes."""
    if isinstance(v, NamedArray):
        return v.dims.count(None) != len(v.dims) or bool(v.mapped)
    if isinstance(v, (list, tuple)):
        return any(has_names(i) for i in v)
    return False


def _strip(v):
    """NamedArray -> data (positional ones only; called on the fast path)."""
    if isinstance(v, NamedArray):
        return v.data
    if isinstance(v, list):
        return [_strip(i) for i in v]
    if type(v) is tuple:
        return tuple(_strip(i) for i in v)
    return v


def generic(fn, jfn, args, kwargs, axis_pos=None, named=None, axis_kw="axis"):
    """Run the positional ``jfn`` on NamedArray arguments: directly when nothing
    is named, vmapped over the named axes otherwise; a name in the ``axis``
    argument (at ``axis_pos`` or ``axis_kw``) is gathered first (``named``:
    ``"keep"`` gives it back, ``"reduce"`` does not, ``None`` refuses it)."""
    if axis_pos is not None:
        axis = _get_axis(args, kwargs, axis_pos, axis_kw)
        if axis_has_names(axis):
            if named is None:
                raise ValueError(f"{fn}: axis={axis!r} names an axis, but this function "
                                 "takes positional axes only")
            return along_names(fn, lambda *a, **k: generic(fn, jfn, a, k), args, kwargs,
                               axis_pos, axis_kw, keep=named == "keep")
    if not any(has_names(a) for a in args) and not any(
            has_names(v) for v in kwargs.values()):
        try:
            flat = [_strip(a) for a in args]
            if not backends.cpu_only() and flat:    # (operands at different homes meet)
                flat = list(backends.beside(None, flat))
            return wrap_result(jfn(*flat, **{k: _strip(v) for k, v in kwargs.items()}))
        except (ValueError, TypeError, IndexError, *RUNTIME_ERRORS) as e:
            reraise(fn, e)
    return vmap_names(fn, jfn, args, kwargs)


def beside(ops):
    """The operands ``ops`` (NamedArrays and Python values) with their data
    moved beside one another (``core.backends.beside``: a value made at its
    dtype's home meeting data on a mesh of CPU devices joins the mesh)."""
    datas = backends.beside(None, [o._dev if isinstance(o, NamedArray) else o for o in ops])
    return [new(d, o.dims, o.mapped) if isinstance(o, NamedArray) and d is not o._dev else o
            for o, d in zip(ops, datas)]


def vmap_names(fn, jfn, args, kwargs):
    """Run ``jfn`` with every named axis of every argument vmapped away.

    Output layout: positional axes first, then the names in the union order of
    the operands (alignment's order), so a gather by a named index comes out as
    ``jax.numpy``'s (the index's names, then the array's): no transpose.
    """
    is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_na)
    arr_idx = [i for i, v in enumerate(leaves) if is_na(v)]
    met, mapped = meet(fn, [leaves[i] for i in arr_idx])
    if not backends.cpu_only():     # (operands at different homes meet)
        met = beside(met)
    for i, v in zip(arr_idx, met):
        leaves[i] = v
    named_idx = [i for i, v in enumerate(leaves) if is_na(v) and v.names]
    _, udims, _ = align(fn, [leaves[i] for i in named_idx])
    union = [d for d in udims if d is not None]
    arrays = []
    for i in named_idx:
        x = leaves[i]
        n = x.ndim
        want = tuple(d for d in union if d in x.names)
        d = x.data
        if x.names != want:
            d = jax.lax.transpose(d, tuple(range(n)) + tuple(n + x.names.index(w) for w in want))
        arrays.append((d, n, want))
    datas = agree_names([d for d, _, _ in arrays], [(None,) * n + w for _, n, w in arrays])
    arrays = [(d, n, w) for d, (_, n, w) in zip(datas, arrays)]

    def call(*datas):
        full = list(leaves)
        for i, dd in zip(named_idx, datas):
            full[i] = dd
        full = [v.data if is_na(v) else v for v in full]
        a, k = jax.tree_util.tree_unflatten(tree, full)
        return jfn(*a, **k)

    f = nested_vmap(call, union, [(n, want) for _, n, want in arrays], keep_order=True)
    return wrap_result(f(*[d for d, _, _ in arrays]), tuple(union), mapped)


def along_names(fn, run, args, kwargs, axis_pos, axis_kw, keep=True):
    """Gather -> run -> scatter: run the positional ``run(*args, **kwargs)`` along
    the named axes of its ``axis`` argument.

    The names become the trailing positional axes of ``args[0]`` (a name next
    to the positional axes stays where it is: no transpose), and of every
    other array argument that has them all (``take_along_axis``'s indices); the
    parallel layer gathers names bound by an enclosing map.  The ``axis`` argument is
    rewritten in the order given (it pairs with ``s`` in fft, and a matrix
    norm's two axes are rows then columns), and with ``keep`` the names are given
    back to the result (otherwise the function consumed them).
    """
    axis = _get_axis(args, kwargs, axis_pos, axis_kw)
    x = operand(args[0])
    if not isinstance(x, NamedArray):
        x = positional(jnp.asarray(x))
    single = isinstance(axis, str)
    axes = (axis,) if single else tuple(axis)
    names = list(dict.fromkeys(a for a in axes if isinstance(a, str)))
    n = x.ndim
    new_axes = tuple(n + names.index(a) if isinstance(a, str) else normalize_axis(
        fn, a, n) for a in axes)
    g = parallel.gather_names(fn, x, names, last=True)
    new_axis = new_axes[0] if single else new_axes
    args = (g,) + tuple(parallel.gather_names(fn, a, names, last=True)
                        if isinstance(a, NamedArray) and all(m in a.named_shape for m in names)
                        else a for a in args[1:])
    if axis_kw in kwargs or len(args) <= axis_pos:
        kwargs = {**kwargs, axis_kw: new_axis}
    else:
        args = args[:axis_pos] + (new_axis,) + args[axis_pos + 1:]
    res = run(*args, **kwargs)
    if keep:
        res = jax.tree_util.tree_map(lambda r: parallel.scatter_names(fn, r, names, x,
                                                                      last=True), res,
                                     is_leaf=lambda v: isinstance(v, NamedArray))
    return res


def _get_axis(args, kwargs, axis_pos, axis_kw):
    return kwargs[axis_kw] if axis_kw in kwargs else (
        args[axis_pos] if len(args) > axis_pos else None)


def jit_static(f, static, like=None):
    """``jax.jit(f)`` with ``static`` argument names; a call whose static value
    is unhashable (a list for ``axes``, say) runs ``f`` eagerly instead."""
    jf = jax.jit(f, static_argnames=list(static))

    @functools.wraps(like or f)
    def g(*args, **kwargs):
        try:
            return jf(*args, **kwargs)
        except (TypeError, ValueError) as e:
            if "hashable" not in str(e):
                raise
            return f(*args, **kwargs)
    return g


def wrap(jfn, name=None, named=None, axis_kw="axis"):
    """Declare a NumPy function over NamedArrays from its ``jax.numpy`` twin.

    ``named`` says what a *named* axis argument means: ``"keep"`` (the axis
    survives, e.g. ``sort``, ``cumsum``: the name is given back), ``"reduce"``
    (the axis is consumed), or ``None`` (names are refused).
    """
    name = name or jfn.__name__
    axis_pos = None
    try:
        params = list(inspect.signature(jfn).parameters)
        if axis_kw in params:
            axis_pos = params.index(axis_kw)
    except (TypeError, ValueError):
        pass

    @functools.wraps(jfn)
    def f(*args, out=None, **kwargs):
        return store_out(name, out, generic(name, jfn, args, kwargs, axis_pos, named, axis_kw))
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = (f"``numpy.{name}`` on NamedArrays; named axes are mapped over"
                 + (", and ``axis`` may name them." if named else ".")
                 + f"\n\nSee ``numpy.{name}`` for the semantics.")
    try:
        f.__signature__ = inspect.signature(jfn)
    except (TypeError, ValueError):
        pass
    return f

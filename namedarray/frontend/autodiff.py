"""Gradients of functions that return a 0-d NamedArray: ``grad`` and
``value_and_grad``, with JAX's signatures.

``jax.grad`` accepts NamedArrays (and dicts, lists, ... of them) as
parameters, since a NamedArray is a pytree, but it wants a JAX array as the
*output*, and JAX offers no supported way to let another type stand for one.
These take a function whose loss is a 0-d NamedArray (or a JAX scalar) and
give the gradients as the parameters' own structure: NamedArrays with the
parameters' names.  The loss may carry names an enclosing ``nmap`` has mapped
(each instance then differentiates its own loss, as ``jax.grad`` does inside
``jax.vmap``); any other axis left on the loss is an error: reduce it first.

>>> import namedarray as np
>>> w = np.arange(3.0).tag("k")
>>> np.grad(lambda w: (w * w).sum(axis="k"))(w).untag("k")
array([0., 2., 4.])
>>> loss, g = np.value_and_grad(lambda p: (p["w"] ** 2).sum(axis="k"))({"w": w})
>>> loss, g["w"].named_shape
(array(5.), {'k': 3})
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp

from ..core.array import NamedArray, new


def _loss_of(fn, out, has_aux):
    """The loss the function returned (without its aux)."""
    if has_aux:
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"{fn}: with has_aux=True the function must return a pair "
                            f"(loss, aux), got {type(out).__name__}")
        out = out[0]
    return out


def _blocks(fn, loss):
    """The names of a loss's physical axes, all of them blocks of instances of
    a split map (one loss per instance); anything else left on it is an error."""
    if not isinstance(loss, NamedArray) or not loss.dims:
        return ()
    bound = dict(loss.mapped)
    if loss.ndim or any(n not in bound for n in loss.names):
        raise TypeError(
            f"{fn}: the function must return a scalar loss (a 0-d array); it returned "
            f"positional shape {loss.shape} and named axes "
            f"{ {n: loss.named_shape[n] for n in loss.names if n not in bound} }; reduce "
            "them first, e.g. loss.sum() or loss.mean(axis=name)")
    return loss.names


def _data(x):
    return x.data if isinstance(x, NamedArray) else x


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """``jax.value_and_grad`` for a function returning a 0-d NamedArray.

    Returns ``f(*args) -> (value, grads)`` (with ``has_aux``:
    ``((value, aux), grads)``): ``value`` as the function returned it, ``grads``
    shaped like the parameters selected by ``argnums`` (an int or a tuple of
    ints), NamedArrays with their names.
    """
    return _value_and_grad("value_and_grad", fun, argnums, has_aux, holomorphic, allow_int)


def _value_and_grad(fn, fun, argnums, has_aux, holomorphic, allow_int):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    blocked = []

    def split(*args, **kwargs):
        out = fun(*args, **kwargs)
        loss = _loss_of(fn, out, has_aux)
        if _blocks(fn, loss):
            blocked.append(True)
            return _data(loss).sum(), out     # (redone per instance below)
        return _data(loss), out

    vg = jax.value_and_grad(split, argnums, has_aux=True, holomorphic=holomorphic,
                            allow_int=allow_int)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        blocked.clear()
        (_, out), grads = vg(*args, **kwargs)
        if blocked:
            # a map that splits a name into local blocks hands each device a
            # block of instances: the loss has those names as axes, one loss
            # per instance, and each instance has its own gradient
            return _blocked(fn, fun, nums, has_aux, args, kwargs, isinstance(argnums, int))
        return out, grads

    return run


def _blocked(fn, fun, nums, has_aux, args, kwargs, single):
    """Per-instance gradients when each device holds a block of instances: the
    gradient of each instance's loss (one ``vjp``, vmapped over one-hot
    cotangents), given back with the block's names; a parameter that holds
    the block itself gets each instance's slice of its own gradient."""
    def f(*dyn):
        a = list(args)
        for i, v in zip(nums, dyn):
            a[i] = v
        out = fun(*a, **kwargs)
        return _data(_loss_of(fn, out, has_aux)), out

    dyn = [args[i] for i in nums]
    loss_data, vjp, out = jax.vjp(f, *dyn, has_aux=True)
    loss = _loss_of(fn, out, has_aux)
    names, block = loss.names, loss_data.shape
    k, J = len(block), math.prod(block)
    eye = jnp.eye(J, dtype=loss_data.dtype).reshape((J,) + block)
    is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731
    flat = jax.vmap(lambda ct: [_data(g) for g in jax.tree_util.tree_leaves(
        vjp(ct), is_leaf=is_na)])(eye)
    leaves, tree = jax.tree_util.tree_flatten(tuple(dyn), is_leaf=is_na)
    bound = dict(loss.mapped)
    grads = []
    for p, g in zip(leaves, flat):
        dims = p.dims if is_na(p) else (None,) * jnp.ndim(p)
        mapped = dict(p.mapped) if is_na(p) else {}
        g = g.reshape(block + g.shape[1:])
        own = [n for n in names if n in dims]
        for a, n in enumerate(names):     # the diagonal: instance j's own slice
            if n in own:
                d = k + dims.index(n)
                shape = [1] * g.ndim
                shape[a], shape[d] = g.shape[a], g.shape[d]
                g = g * jnp.eye(g.shape[a], dtype=g.dtype).reshape(shape)
        g = g.sum(axis=tuple(a for a, n in enumerate(names) if n in own))
        rest = [n for n in names if n not in own]
        g = jnp.moveaxis(g, tuple(range(len(rest))), tuple(range(g.ndim - len(rest), g.ndim)))
        mapped.update({n: bound[n] for n in rest})
        grads.append(new(g, dims + tuple(rest), tuple(mapped.items())))
    grads = jax.tree_util.tree_unflatten(tree, grads)
    return out, grads[0] if single else grads


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """``jax.grad`` for a function returning a 0-d NamedArray: the gradients
    (with ``has_aux``: ``(grads, aux)``) as NamedArrays with the parameters'
    names; see :func:`value_and_grad`."""
    vg = _value_and_grad("grad", fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        value, grads = vg(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return run


__all__ = ["grad", "value_and_grad"]

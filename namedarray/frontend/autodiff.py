"""Gradients of functions that return a 0-d NamedArray: ``grad`` and
``value_and_grad``, with JAX's signatures.

``jax.grad`` accepts NamedArrays (and dicts, lists, ... of them) as
parameters, since a NamedArray is a pytree, but it wants a JAX array as the
*output*, and JAX offers no supported way to let another type stand for one.
These take a function whose loss is a 0-d NamedArray (or a JAX scalar) and
give the gradients as the parameters' own structure: NamedArrays with the
parameters' names.  Inside an ``nmap`` the loss may vary along the mapped names (one loss per
instance); the gradient is then that of the sum of the instances' losses,
as under ``shard_map``: an input that is the instance's own gets its own
gradient, a value every instance shares (a parameter) the sum of all the
instances' contributions, on every placement.  Any other axis left on the
loss is an error: reduce it first.

>>> import namedarray as np
>>> w = np.arange(3.0).tag("k")
>>> np.grad(lambda w: (w * w).sum(axis="k"))(w).untag("k")
array([0., 2., 4.])
>>> loss, g = np.value_and_grad(lambda p: (p["w"] ** 2).sum(axis="k"))({"w": w})
>>> loss, g["w"].named_shape
(np.float64(5.0), {'k': 3})
"""
from __future__ import annotations

import functools

import jax

from ..core.array import NamedArray
from ..core.sharding import explicit_mesh


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
        left = {n: loss.named_shape[n] for n in loss.names if n not in bound}
        axes = (*range(loss.ndim), *left)       # loss.sum() would keep the named ones
        raise TypeError(
            f"{fn}: the function must return a scalar loss (a 0-d array); it returned "
            f"positional shape {loss.shape} and named axes {left}; reduce them first, "
            f"e.g. loss.mean(axis={axes[0] if len(axes) == 1 else axes!r})")
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
    def split(*args, **kwargs):
        out = fun(*args, **kwargs)
        loss = _loss_of(fn, out, has_aux)
        # a map that splits a name into blocks leaves the block on the loss:
        # one loss per instance, summed (the instances' losses add up)
        return (_data(loss).sum() if _blocks(fn, loss) else _data(loss)), out

    vg = jax.value_and_grad(split, argnums, has_aux=True, holomorphic=holomorphic,
                            allow_int=allow_int)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        # eager JAX differentiates data on an Explicit mesh only inside
        # jax.set_mesh of that mesh (the loss's cotangent is placed on it)
        mesh = None
        if jax.sharding.get_abstract_mesh().empty:
            mesh = explicit_mesh(jax.tree_util.tree_leaves((args, kwargs)))
        if mesh is None:
            (_, out), grads = vg(*args, **kwargs)
        else:
            with jax.set_mesh(mesh):
                (_, out), grads = vg(*args, **kwargs)
        return out, grads

    return run


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

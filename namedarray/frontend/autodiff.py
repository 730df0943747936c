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

import jax

from ..core.array import NamedArray


def _loss(fn, out, has_aux):
    """The JAX scalar to differentiate, and what to hand back as the value."""
    if has_aux:
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"{fn}: with has_aux=True the function must return a pair "
                            f"(loss, aux), got {type(out).__name__}")
        out = out[0]
    if isinstance(out, NamedArray):
        if out.dims:
            raise TypeError(
                f"{fn}: the function must return a scalar loss (a 0-d array); it returned "
                f"positional shape {out.shape} and named axes "
                f"{ {n: out.named_shape[n] for n in out.names} }; reduce them first, "
                "e.g. loss.sum() or loss.mean(axis=name)")
        return out.data
    return out


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
        return _loss(fn, out, has_aux), out

    vg = jax.value_and_grad(split, argnums, has_aux=True, holomorphic=holomorphic,
                            allow_int=allow_int)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        (_, out), grads = vg(*args, **kwargs)
        if has_aux:
            return (out[0], out[1]), grads
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

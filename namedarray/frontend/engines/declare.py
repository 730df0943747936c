"""Declaring a NumPy function over ``jax.numpy``'s: the table's declaration
(``_decl``: ``wrap(numpy_args(jnp.f))``), and the same after NumPy's checks
of the arguments (``_checked``), where ``jax.numpy`` answers bad input with
garbage, an XLA error or the wrong class; ``_host``: an argument's values on
the host, where a check reads them.
"""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.array import NamedArray, normalize_axis
from .args import numpy_args
from .generic import wrap


def _decl(name, named=None):
    return wrap(numpy_args(getattr(jnp, name), name), name, named=named)


def _checked(name, check):
    """``jnp.<name>`` after ``check(*args, **kw)``, which raises NumPy's error,
    returns the arguments to pass on, or returns the result itself (an
    array); NumPy's signature kept."""
    jfn = getattr(jnp, name)

    def f(*args, **kw):
        checked = check(*args, **kw)
        if isinstance(checked, jax.Array):
            return checked
        args, kw = checked
        return jfn(*args, **kw)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = jfn.__doc__
    f.__signature__ = inspect.signature(getattr(onp, name))
    return wrap(numpy_args(f, name), name)


def _real_only(name):
    sig = inspect.signature(getattr(onp, name))

    def check(x, *args, **kw):
        axis = sig.bind(x, *args, **kw).arguments.get("axis")
        if type(axis) is int:       # (NumPy's AxisError first)
            normalize_axis(name, axis, jnp.ndim(x))
        if jnp.iscomplexobj(x):
            raise TypeError(f"{name}: complex data is not supported (NumPy's loop has "
                            "no complex type)")
        return (x, *args), kw
    return check


def _host(v):
    """``v``'s values on the host, or None under a transformation."""
    d = v.data if isinstance(v, NamedArray) else v
    if isinstance(d, jax.core.Tracer):
        return None
    return onp.asarray(d)

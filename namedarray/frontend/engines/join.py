"""Joining arrays along an axis, under the engines that join their parts
(``ufunc.reduceat``) and the joining declarations (``frontend/joining.py``):
``concatenate`` with NumPy's checks and result dtype; an ``axis`` may be a name.
"""
from __future__ import annotations

import jax.numpy as jnp

from ...core.array import NamedArray, normalize_axis, positional, unknown_name
from .args import np_asarray
from .generic import generic
from .out import store_out
from .select import result_type


def _join_check(fn, xs, axis, new_axis):
    if not xs:
        raise ValueError(f"{fn}: need at least one array to {fn}")
    nds = [x.ndim for x in xs]
    if new_axis:
        shapes = {x.shape for x in xs}
        if len(shapes) > 1:
            raise ValueError(f"{fn}: all input arrays must have the same shape, got "
                             f"{[x.shape for x in xs]}")
    elif axis is not None:
        if len(set(nds)) > 1:
            raise ValueError(f"{fn}: all the input arrays must have the same number of "
                             f"dimensions, got shapes {[x.shape for x in xs]}")
        if nds[0] == 0:
            raise ValueError(f"{fn}: zero-dimensional arrays cannot be concatenated")
        ax = normalize_axis(fn, axis, nds[0])
        for i, x in enumerate(xs):
            if x.shape[:ax] + x.shape[ax + 1:] != xs[0].shape[:ax] + xs[0].shape[ax + 1:]:
                raise ValueError(
                    f"{fn}: all the input array dimensions except for the concatenation "
                    f"axis must match exactly, but along dimension "
                    f"{next(j for j in range(nds[0]) if j != ax and x.shape[j] != xs[0].shape[j])}"
                    f", the array at index 0 has shape {xs[0].shape} and the array at "
                    f"index {i} has shape {x.shape}")


def operands(arrays):
    if isinstance(arrays, NamedArray):
        return [arrays[i] for i in range(len(arrays))]
    return [a if isinstance(a, NamedArray) else positional(np_asarray(a)) for a in arrays]


def join_dtype(xs, dtype):
    return dtype if dtype is not None else result_type(*xs)


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate``; ``axis="name"`` joins along a named axis."""
    xs = operands(arrays)
    if isinstance(axis, str):
        for i, x in enumerate(xs):
            if axis not in x.named_shape:
                raise unknown_name("concatenate", "axis", axis, x, f"argument {i}")
        parts = [x.untag(axis) for x in xs]
        res = generic("concatenate", jnp.concatenate, (parts,),
                       {"axis": 0, "dtype": join_dtype(xs, dtype)})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    _join_check("concatenate", xs, axis, False)
    res = generic("concatenate", jnp.concatenate, (xs,),
                   {"axis": axis, "dtype": join_dtype(xs, dtype)})
    return store_out("concatenate", out, res)

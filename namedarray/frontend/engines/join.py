"""Joining arrays along an axis, under the engines that join their parts
(``ufunc.reduceat``) and the joining declarations (``frontend/joining.py``):
``concatenate`` with NumPy's checks and result dtype; an ``axis`` may be a name.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ...core.array import NamedArray, View, normalize_axis, positional, unknown_name
from .args import np_asarray
from .generic import generic
from .out import store_out
from .select import result_type
from .views import fortran, memory_axes


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
            i = next(i for i, n in enumerate(nds) if n != nds[0])
            raise ValueError(f"{fn}: all the input arrays must have same number of "
                             f"dimensions, but the array at index 0 has {nds[0]} "
                             f"dimension(s) and the array at index {i} has {nds[i]} "
                             f"dimension(s)")
        if nds[0] == 0:
            raise ValueError(f"{fn}: zero-dimensional arrays cannot be concatenated")
        ax = normalize_axis(fn, axis, nds[0])
        for i, x in enumerate(xs):
            if x.shape[:ax] + x.shape[ax + 1:] != xs[0].shape[:ax] + xs[0].shape[ax + 1:]:
                j = next(j for j in range(nds[0]) if j != ax and x.shape[j] != xs[0].shape[j])
                raise ValueError(
                    f"{fn}: all the input array dimensions except for the concatenation "
                    f"axis must match exactly, but along dimension {j}, the array at "
                    f"index 0 has size {xs[0].shape[j]} and the array at index {i} has "
                    f"size {x.shape[j]}")


def operands(arrays, fn=None):
    """The parts to join as NamedArrays; ``fn``: a function of NumPy's stack
    family, which refuses an iterator (NumPy reads a sequence only)."""
    if isinstance(arrays, NamedArray):
        return [arrays[i] for i in range(len(arrays))]
    if fn is not None and not hasattr(arrays, "__getitem__"):
        raise TypeError(f'{fn}: arrays to stack must be passed as a "sequence" type such '
                        f"as list or tuple (got {type(arrays).__name__})")
    return [a if isinstance(a, NamedArray) else positional(np_asarray(a)) for a in arrays]


def join_dtype(xs, dtype, casting="same_kind", fn="concatenate", out=None):
    """The dtype the parts are joined in: NumPy's common dtype of them, or
    ``dtype`` (``out``'s dtype), where every part casts to it under
    ``casting`` (NumPy's ``TypeError`` otherwise)."""
    if out is not None and dtype is not None:
        raise TypeError(f"{fn}: {fn}() only takes `out` or `dtype` as an argument, but "
                        "both were provided.")
    if out is not None:
        dtype = out.dtype
    if dtype is None:
        return result_type(*xs)
    dtype = onp.dtype(dtype)
    for i, x in enumerate(xs):
        try:
            ok = onp.can_cast(x.dtype, dtype, casting)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{fn}: casting={casting!r}: {e}") from None
        if not ok:
            raise TypeError(f"{fn}: Cannot cast array data from {x.dtype!r} to {dtype!r} "
                            f"according to the rule {casting!r} (array at index {i})")
    return dtype


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate``; ``axis="name"`` joins along a named axis."""
    xs = operands(arrays)
    if isinstance(axis, str):
        for i, x in enumerate(xs):
            if axis not in x.named_shape:
                raise unknown_name("concatenate", "axis", axis, x, f"argument {i}")
        parts = [x.untag(axis) for x in xs]
        res = generic("concatenate", jnp.concatenate, (parts,),
                       {"axis": 0, "dtype": join_dtype(xs, dtype, casting)})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    _join_check("concatenate", xs, axis, False)
    res = generic("concatenate", jnp.concatenate, (xs,),
                   {"axis": axis, "dtype": join_dtype(xs, dtype, casting, out=out)})
    if out is None:
        return joined_order(xs, res)
    return store_out("concatenate", out, _out_shape("concatenate", out, res))


def joined_order(xs, res):
    """``res`` (the parts ``xs`` joined along an axis they have) in NumPy's
    memory order of such a join: Fortran order where every part lies in
    memory with its axes reversed (Fortran order, or a view of such an
    array; only a view can be), C order otherwise."""
    if res.ndim < 2 or not any(type(x) is View for x in xs):
        return res
    rev = tuple(range(res.ndim))[::-1]
    if all(type(x) is View and x.ndim == res.ndim and memory_axes(x, "K") == rev
           for x in xs):
        return fortran(res)
    return res


def _out_shape(fn, out, res):
    """``res``, where ``out`` (if any) has its shape exactly: a joining
    function's ``out=`` does not broadcast (NumPy's ``ValueError``)."""
    if isinstance(out, (NamedArray, onp.ndarray)) and out.shape != res.shape:
        raise ValueError(f"{fn}: Output array is the wrong shape (out has shape "
                         f"{out.shape}, the result {res.shape})")
    return res

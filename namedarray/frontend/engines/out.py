"""NumPy's ``out=``: the one path every engine and function writes results through.

>>> import namedarray as np
>>> o = np.zeros(3)
>>> np.add(np.ones(3), 1, out=o) is o, o
(True, array([2., 2., 2.]))
"""
from __future__ import annotations

import numpy as onp

from ...core.array import NamedArray, operand, rewrap


def store_out(fn, out, res):
    """Write ``res`` into ``out`` (a NamedArray or a tuple of them) and return
    ``out``; with ``out=None`` return ``res``."""
    if out is None:
        return res
    if isinstance(out, tuple):
        if len(out) == 1 and not isinstance(res, tuple):
            out = out[0]
        else:
            return tuple(store_out(fn, o, r) for o, r in zip(out, res))
    if type(out) is onp.ndarray and isinstance(res, NamedArray) and not res.names:
        return _store_numpy(fn, out, res)
    if not isinstance(out, NamedArray):
        raise TypeError(f"{fn}: out must be a NamedArray or NumPy's array, got "
                        f"{type(out).__name__}")
    if out.shape != res.shape:
        try:
            joint = onp.broadcast_shapes(out.shape, res.shape)
        except ValueError:
            raise ValueError(f"{fn}: operands could not be broadcast together with shapes "
                             f"{res.shape} {out.shape} (the result and out=)") from None
        if joint != out.shape:
            raise ValueError(f"{fn}: non-broadcastable output operand with shape "
                             f"{out.shape} doesn't match the broadcast shape {res.shape}")
    out._assign(fn, res if isinstance(res, NamedArray) else operand(res))
    return out


def cast_out(fn, out, res, casting, what):
    """NumPy's output casting: each result (of ``what``, a ufunc or einsum)
    cast to its ``out=``'s dtype where ``casting`` allows it (NumPy's
    ``TypeError`` otherwise)."""
    if isinstance(res, tuple):
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(cast_out(fn, o, r, casting, what)
                     for o, r in zip(outs, res)) + res[len(outs):]
    if isinstance(out, tuple):
        out = out[0]
    if out is None or not isinstance(res, NamedArray) or not hasattr(out, "dtype") or \
            out.dtype == res.dtype:
        return res
    if not onp.can_cast(res.dtype, out.dtype, casting):
        raise TypeError(f"{fn}: Cannot cast {what} output from {res.dtype!r} to "
                        f"{out.dtype!r} with casting rule '{casting}'")
    return rewrap(res, res.data.astype(out.dtype))


def _store_numpy(fn, out, res):
    """``out=`` a NumPy array (an ``nditer``'s operand): the result written
    into its memory, NumPy-cast ('same_kind')."""
    if not onp.can_cast(res.dtype, out.dtype, "same_kind"):
        raise TypeError(f"{fn}: cannot cast the result from {res.dtype} to the target's "
                        f"{out.dtype} with casting rule 'same_kind'")
    try:
        onp.copyto(out, onp.asarray(res), casting="unsafe")
    except ValueError as e:
        raise ValueError(f"{fn}: {e} (the result and out=)") from None
    return out

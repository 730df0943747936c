"""NumPy's ``out=``: the one path every engine and function writes results through.

>>> import namedarray as np
>>> o = np.zeros(3)
>>> np.add(np.ones(3), 1, out=o) is o, o
(True, array([2., 2., 2.]))
"""
from __future__ import annotations

import numpy as onp

from ...core.array import NamedArray, check_writeable, operand, rewrap


def out_entries(fn, out, nout):
    """A ufunc's ``out=`` as NumPy reads it: None, one array (one output),
    or a tuple of one entry (an array or None) per output; NumPy's errors
    for any other form."""
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(f"{fn}: the 'out' tuple must have exactly one entry per "
                             f"ufunc output ({nout}, got {len(out)})")
        entries = out
        if nout == 1:
            out = out[0]
    elif nout > 1:
        raise TypeError(f"{fn}: 'out' must be a tuple of arrays (one per each of its "
                        f"{nout} outputs, None where NumPy allocates it)")
    else:
        entries = (out,)
    for o in entries:
        if o is not None and not isinstance(o, (NamedArray, onp.ndarray, onp.generic, bool,
                                                int, float, complex)):
            raise TypeError(f"{fn}: return arrays must be of ArrayType (out= got "
                            f"{type(o).__name__}; pass an array)")
    return out


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
    check_writeable(fn, out, "output array")
    out._assign(fn, res if isinstance(res, NamedArray) else operand(res))
    return out


#: the ufunc NumPy names in a reduction's ``out=`` error (others: ``add``)
_REDUCING_UFUNC = {"prod": "multiply", "nanprod": "multiply", "cumprod": "multiply",
                   "max": "maximum", "amax": "maximum", "ptp": "maximum", "min": "minimum",
                   "amin": "minimum", "nanmax": "fmax", "nanmin": "fmin",
                   "all": "logical_and", "any": "logical_or"}


def store_reduced(fn, out, res):
    """``store_out`` for a reduction: NumPy's ``out=`` of a reduction has the
    result's shape exactly (it is never broadcast to; NumPy's nanmedian
    broadcasts)."""
    if out is None or isinstance(out, tuple) or not hasattr(out, "shape") or \
            not isinstance(res, NamedArray) or out.shape == res.shape or fn == "nanmedian":
        return store_out(fn, out, res)
    if fn in ("argmax", "argmin", "nanargmax", "nanargmin"):
        raise ValueError(f"{fn}: output array does not match result of "
                         f"np.{fn.removeprefix('nan')} (out= has shape {out.shape}, the "
                         f"result {res.shape})")
    if len(out.shape) != res.ndim:
        raise ValueError(
            f"{fn}: output parameter for reduction operation "
            f"{_REDUCING_UFUNC.get(fn, 'add')} has the wrong number of dimensions: Found "
            f"{len(out.shape)} but expected {res.ndim}")
    raise ValueError(f"{fn}: the output operand of shape {out.shape} does not match the "
                     f"result's shape {res.shape} (a reduction's out= is not broadcast to)")


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
    check_out_cast(fn, what, res.dtype, out, casting)
    return rewrap(res, res.data.astype(out.dtype))


def check_out_cast(fn, what, dtype, out, casting):
    """NumPy's ``TypeError`` where a result of ``dtype`` may not be cast to
    ``out``'s dtype under ``casting``."""
    if not onp.can_cast(dtype, out.dtype, casting):
        raise TypeError(f"{fn}: Cannot cast {what} output from {onp.dtype(dtype)!r} to "
                        f"{out.dtype!r} with casting rule '{casting}'")


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

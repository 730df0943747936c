"""Padding arrays (NumPy's ``numpy/lib/_arraypad_impl.py``): ``pad``, with
NumPy's checks and NumPy's ramps where ``jax.numpy``'s differ.

>>> import namedarray as np
>>> np.pad(np.asarray([1, 2]), 1, mode="edge")
array([1, 1, 2, 2])
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, positional
from .creation import asarray, linspace
from .engines.declare import _decl


_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
              "reflect", "symmetric", "wrap", "empty")


_pad = _decl("pad")


# jax.numpy: other errors for unknown modes and empty axes; integer ramps differ
def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad``; an unknown ``mode`` raises ``ValueError`` as in NumPy."""
    if isinstance(mode, str) and mode not in _PAD_MODES:
        raise ValueError(f"pad: mode '{mode}' is not supported")
    x = asarray(array)
    if isinstance(pad_width, dict):
        pad_width = _pad_dict(x, pad_width)
    if callable(mode):
        return _pad_by_function(x, pad_width, mode, kwargs)
    if not isinstance(pad_width, NamedArray) and onp.asarray(pad_width).dtype.kind not in "iu":
        raise TypeError(f"pad: `pad_width` must be of integral type (got {pad_width!r})")
    if x.size == 0 and mode not in ("constant", "empty"):
        try:
            widths = onp.broadcast_to(onp.asarray(pad_width), (x.ndim, 2))
        except ValueError:
            widths = None      # jax.numpy's error for a pad_width of the wrong shape
        for ax in range(x.ndim if widths is not None else 0):
            if x.shape[ax] == 0 and widths[ax].any():
                raise ValueError(f"pad: can't extend empty axis {ax} using modes other "
                                 f"than 'constant' or 'empty' (mode={mode!r})")
        if widths is not None:     # only non-empty axes grow: the result is empty
            return _pad(x, pad_width, "constant")
    if mode == "linear_ramp" and x.dtype.kind in "iu" and not x.names and \
            set(kwargs) <= {"end_values"}:
        return _linear_ramp(x, pad_width, kwargs.get("end_values", 0))
    if mode in ("mean", "median") and x.dtype.kind in "iu" and not x.names:
        return _int_stat_pad(x, pad_width, mode, kwargs)
    return _pad(x, pad_width, mode, **kwargs)


def _int_stat_pad(x, pad_width, mode, kwargs):
    """``mean``/``median`` padding of integers as NumPy pads them: the
    statistic in float64, rounded half to even into the data's dtype; the data
    itself copied as it is (never through a float)."""
    stat = _pad(x.astype(onp.float64), pad_width, mode, **kwargs).data
    inside = _pad(asarray(jnp.ones(x.shape, bool)), pad_width, "constant").data
    data = _pad(x, pad_width, "constant").data
    return positional(jnp.where(inside, data, jnp.round(stat).astype(x.dtype)))


def _pad_by_function(x, pad_width, mode, kwargs):
    """``pad`` with a Python function as ``mode``: NumPy's padding over the host
    data (the function fills NumPy's 1-d vectors in place, as NumPy calls it)."""
    if x.names or isinstance(x.data, jax.core.Tracer):
        raise TypeError(f"pad: mode={getattr(mode, '__name__', mode)!r} (a function) "
                        "fills NumPy's vectors on the host: it takes a concrete array "
                        f"without named axes (got named shape {x.named_shape}"
                        f"{', traced' if isinstance(x.data, jax.core.Tracer) else ''})")
    return asarray(onp.pad(onp.asarray(x.data), pad_width, mode, **kwargs))


def _pad_dict(x, pad_width):
    """NumPy 2's ``pad_width={axis: width}``: the axes not named get no padding;
    a width is one int (both sides) or a ``(before, after)`` pair of ints."""
    seq = [(0, 0)] * x.ndim
    for axis, width in pad_width.items():
        ax = normalize_axis("pad", axis, x.ndim)
        if type(width) is int:
            seq[ax] = width, width
        elif isinstance(width, tuple) and len(width) == 2 and all(
                type(w) is int for w in width):
            seq[ax] = width
        else:
            raise TypeError(f"pad: pad_width={pad_width!r}: the width of axis {axis} must "
                            f"be an int or a (before, after) pair of ints, got {width!r}")
    return seq


def _linear_ramp(x, pad_width, end_values):
    """``pad(x, mode="linear_ramp")`` of an integer array, NumPy's way: axis by
    axis, each ramp ``linspace(end value, edge, width, endpoint=False)`` in
    NumPy's arithmetic floored to the dtype (``jax.numpy``'s ramp differs in
    the last bit, a whole unit once floored)."""
    try:
        widths = onp.broadcast_to(onp.asarray(pad_width), (x.ndim, 2))
        ends = onp.broadcast_to(onp.asarray(end_values), (x.ndim, 2))
    except ValueError:
        raise ValueError(f"pad: pad_width={pad_width!r} and end_values={end_values!r} "
                         f"must broadcast to shape ({x.ndim}, 2)") from None
    if (widths < 0).any():
        raise ValueError(f"pad: index can't contain negative values (pad_width="
                         f"{pad_width!r})")
    for ax in range(x.ndim):
        parts = []
        for side, (w, end) in enumerate(zip(widths[ax], ends[ax])):
            edge = jnp.take(x.data, jnp.asarray([0 if side == 0 else -1]), axis=ax)
            ramp = linspace(end, positional(jnp.squeeze(edge, ax)), int(w),
                            endpoint=False, dtype=x.dtype, axis=ax).data
            parts.append(ramp if side == 0 else jnp.flip(ramp, ax))
        x = positional(jnp.concatenate([parts[0], x.data, parts[1]], axis=ax))
    return x


__all__ = ["pad"]

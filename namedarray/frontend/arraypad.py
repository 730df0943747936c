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
from .engines.generic import generic
from .engines.views import fortran


_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
              "reflect", "symmetric", "wrap", "empty")


_pad = _decl("pad")


# jax.numpy: other errors for unknown modes and empty axes; integer ramps differ;
# only some shapes of the per-axis arguments; no stat_length of 0
def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad``; an unknown ``mode`` raises ``ValueError`` as in NumPy.  The
    result keeps a Fortran-ordered array's memory order, as NumPy's does."""
    x = asarray(array)
    res = _padded(x, pad_width, mode, **kwargs)
    f = x.flags if x.ndim > 1 and not x.names else None
    return fortran(res) if f is not None and f.f_contiguous and not f.c_contiguous else res


def _padded(array, pad_width, mode, **kwargs):
    if not callable(mode) and not (isinstance(mode, str) and mode in _PAD_MODES):
        raise ValueError(f"pad: mode '{mode}' is not supported")
    x = asarray(array)
    if isinstance(pad_width, dict):
        pad_width = _pad_dict(x, pad_width)
    if callable(mode):
        return _pad_by_function(x, pad_width, mode, kwargs)
    if not isinstance(pad_width, NamedArray) and onp.asarray(pad_width).dtype.kind not in "iu":
        raise TypeError(f"pad: `pad_width` must be of integral type (got {pad_width!r})")
    pad_width = _as_pairs("pad_width", pad_width, x.ndim, as_index=True)
    for key in ("constant_values", "end_values", "stat_length"):
        if key in kwargs:
            kwargs[key] = _as_pairs(key, kwargs[key], x.ndim, as_index=key == "stat_length")
    if x.size == 0 and mode not in ("constant", "empty"):
        for ax in range(x.ndim if isinstance(pad_width, tuple) else 0):
            if x.shape[ax] == 0 and any(pad_width[ax]):
                raise ValueError(f"pad: can't extend empty axis {ax} using modes other "
                                 f"than 'constant' or 'empty' (mode={mode!r})")
        if isinstance(pad_width, tuple):   # only non-empty axes grow: the result is empty
            return _pad(x, pad_width, "constant")
    if mode in ("mean", "median") and isinstance(kwargs.get("stat_length"), tuple) and \
            any(0 in p for p in kwargs["stat_length"]):
        return _no_stat_pad(x, pad_width, mode, kwargs["stat_length"])
    if mode == "linear_ramp" and x.dtype.kind in "iu" and not x.names and \
            set(kwargs) <= {"end_values"}:
        return _linear_ramp(x, pad_width, kwargs.get("end_values", 0))
    if mode in ("mean", "median") and (x.dtype.kind in "iu" or x.dtype == onp.float16) \
            and not x.names:
        return _stat_pad(x, pad_width, mode, kwargs)
    return _pad(x, pad_width, mode, **kwargs)


def _as_pairs(arg, v, ndim, as_index=False):
    """NumPy's reading of a per-axis argument of ``pad`` (``pad_width``,
    ``stat_length``, ``constant_values``, ``end_values``): one value, one
    ``(before, after)`` pair, or anything that broadcasts to ``(ndim, 2)``
    (``[[1], [2]]`` is one value per axis); ``as_index``: rounded to ints, not
    negative.  A tuple of ``ndim`` pairs (NumPy's values; a 0-d array's: an
    empty ``(0, 2)`` array), or ``v`` itself where it is traced (``jax.numpy``
    reads it, or says it cannot)."""
    if v is None:
        return v
    d = v.data if isinstance(v, NamedArray) else v
    if isinstance(d, jax.core.Tracer) or any(isinstance(i, jax.core.Tracer) for i in (
            d if isinstance(d, (list, tuple)) else ())):
        return v
    a = onp.asarray(d)
    if as_index:
        a = onp.round(a).astype(onp.intp, copy=False)
        if a.size and a.min() < 0:
            raise ValueError(f"pad: index can't contain negative values ({arg}={v!r})")
    if a.ndim < 3 and a.size == 1:
        a = a.reshape(1)
    elif a.ndim < 3 and a.size == 2 and a.shape != (2, 1):
        a = a.reshape(2)
    try:
        pairs = onp.broadcast_to(a, (ndim, 2))
    except ValueError as e:
        raise ValueError(f"pad: {arg}={v!r} must broadcast to shape ({ndim}, 2): "
                         f"{e}") from None
    if not ndim:
        return pairs          # (0, 2): no axis
    # (indices as Python ints; values as NumPy's scalars: a uint64 beyond int64 stays one)
    return tuple((p[0], p[1]) for p in (pairs.tolist() if as_index else pairs))


def _no_stat_pad(x, pad_width, mode, stat_length):
    """``mean``/``median`` padding where a ``stat_length`` is 0: that side's
    statistic is of no values, NaN, as in NumPy (axis by axis, as NumPy pads:
    a later axis's statistic reads the earlier axes' padding)."""
    if x.dtype.kind not in "fc":
        raise ValueError(f"pad: stat_length of 0 yields no value for padding: the {mode} "
                         f"of no values is NaN, which {x.dtype} data cannot hold")

    def run(d):
        for ax in range(d.ndim):
            widths = ((0, 0),) * ax + (pad_width[ax],) + ((0, 0),) * (d.ndim - ax - 1)
            lengths = ((1, 1),) * ax + (tuple(max(n, 1) for n in stat_length[ax]),) + (
                (1, 1),) * (d.ndim - ax - 1)
            d = jnp.pad(d, widths, mode, stat_length=lengths)
            n = d.shape[ax]
            before, after = pad_width[ax]
            pos = jnp.arange(n).reshape((n,) + (1,) * (d.ndim - ax - 1))
            empty = ((pos < before) & (stat_length[ax][0] == 0)) | (
                (pos >= n - after) & (stat_length[ax][1] == 0))
            d = jnp.where(empty, jnp.asarray(onp.nan, d.dtype), d)
        return d
    return generic("pad", run, (x,), {})


def _stat_pad(x, pad_width, mode, kwargs):
    """``mean``/``median`` padding in the precision NumPy's statistic has:
    of integers float64, rounded half to even into the data's dtype; of
    float16 float32 (NumPy's mean of half precision accumulates in float32, so
    the mean of the middle pair near float16's maximum does not overflow);
    the data itself copied as it is (never through a float)."""
    wide = onp.float32 if x.dtype == onp.float16 else onp.float64
    stat = _pad(x.astype(wide), pad_width, mode, **kwargs).data
    inside = _pad(asarray(jnp.ones(x.shape, bool)), pad_width, "constant").data
    data = _pad(x, pad_width, "constant").data
    if x.dtype.kind in "iu":
        stat = jnp.round(stat)
    return positional(jnp.where(inside, data, stat.astype(x.dtype)))


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

"""Statistics beside the reduction table (``frontend/reductions.py``):
``average`` (weights aligned by name) and the order statistics ``quantile``,
``percentile``, ``nanquantile``, ``nanpercentile`` in NumPy's result dtypes.

>>> import namedarray as np
>>> np.average(np.arange(4.0), weights=[1, 1, 1, 5])
np.float64(2.25)
"""
from __future__ import annotations

import builtins  # the namespace defines its own any
import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as _onp

from ..core import config
from ..core.array import NamedArray, normalize_axis, operand
from .elementwise import UFUNCS
from .engines.args import np_asarray
from .engines.out import store_out
from .engines.reduction import reduction, whole_axes
from .engines.select import result_type
from .reductions import REDUCTIONS, _zero_d_axis


@functools.lru_cache(maxsize=None)
def _quantile_dtype(name, dtype, q_dtype, method):
    """NumPy's result dtype for ``name`` (found once on a tiny input)."""
    np_fn = getattr(_onp, name)
    with warnings.catch_warnings(), _onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        q = 50 if "percentile" in name else 0.5
        q = q if q_dtype is None else _onp.asarray(q, q_dtype)   # None: a Python scalar
        try:
            return np_fn(_onp.ones(2, dtype), q, method=method).dtype
        except TypeError as e:
            raise TypeError(f"{name}: {e}") from None


def _quantile(jfn, name):
    top = 100 if "percentile" in name else 1
    what = "Percentiles" if top == 100 else "Quantiles"

    def f(a, q, axis=None, out=None, overwrite_input=False, method="linear",
          keepdims=False, *, weights=None, interpolation=None):
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = NamedArray(np_asarray(a))
        qq = np_asarray(q) if isinstance(q, (list, tuple)) else q
        if isinstance(qq, NamedArray):
            qq = qq._plain(name)
        if weights is not None or interpolation is not None:
            raise TypeError(f"{name}: weights= and interpolation= are not supported; use "
                            "method=")
        qh = None if isinstance(qq, jax.core.Tracer) else _onp.asarray(qq)
        if qh is not None:
            if qh.dtype.kind not in "biuf":
                raise TypeError(f"{name}: q must be real numbers, got dtype {qh.dtype}")
            if qh.size and not ((qh >= 0) & (qh <= top)).all():
                raise ValueError(f"{name}: {what} must be in the range [0, {top}]")
        if x.size == 0 and not x.names and name.startswith("nan"):
            # NumPy's: the nanmean of the empty data (whatever q)
            return store_out(name, out, REDUCTIONS["nanmean"](x, axis, keepdims=keepdims))
        if config.numpy_dtypes() and x.dtype.kind in "biuf":
            weak = isinstance(q, (int, float)) and not isinstance(q, _onp.generic)
            want = _quantile_dtype(name, x.dtype, None if weak else (
                qh.dtype if qh is not None else _onp.float64), method)
            if x.dtype != want:
                x = x.astype(want)
        if x.size == 0 and not x.names:     # an empty slice: NumPy's IndexError
            axes = range(x.ndim) if axis is None else (
                axis if isinstance(axis, (tuple, list)) else (axis,))
            if builtins.any(type(ax) is int and -x.ndim <= ax < x.ndim and x.shape[ax] == 0
                            for ax in axes):
                raise IndexError(f"{name}: index -1 is out of bounds for axis 0 with "
                                 "size 0")
        q_arg = qq if qh is None else jnp.asarray(qh)
        keepdims = keepdims and x.ndim > 0      # (jnp gives a 0-d array shape (1,))
        res = reduction(whole_axes(lambda d, axis, **kw: jfn(d, q_arg, axis, method=method,
                                                             **kw)),
                        name)(x, axis, keepdims=keepdims)
        return store_out(name, out, res)
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = (f"``numpy.{name}``; ``axis`` may mix ints and axis names; ``q`` may be "
                 "a list.\n\n"
                 f"    >>> import namedarray as np\n"
                 f"    >>> np.{name}(np.arange(5), {[30, 60] if top == 100 else [0.3, 0.6]})"
                 "\n    array([1.2, 2.4])\n")
    return f


for _n in ("quantile", "percentile", "nanquantile", "nanpercentile"):
    globals()[_n] = _quantile(getattr(jnp, _n), _n)


def _ones_like_names(a):
    """True of ``a``'s shape and names (``a * 0 + 1`` would be NaN at an
    infinity): weights broadcast by it keep their dtype."""
    return UFUNCS["logical_or"](UFUNCS["isnan"](a), True)


def _weights_along(a, axis, weights):
    """Positional ``weights`` of another shape than ``a``: NumPy's rule, they
    are the weights along the (int) ``axis``, laid out as those axes of ``a``
    (named weights align by name instead)."""
    x = operand(a)
    w = weights if isinstance(weights, NamedArray) else operand(np_asarray(weights))
    if w.names or w.shape == x.shape or (axis is not None and builtins.any(
            isinstance(k, str) for k in (axis if isinstance(axis, tuple) else (axis,)))):
        return weights
    if axis is None:
        raise TypeError(f"average: Axis must be specified when shapes of a and weights "
                        f"differ (a: {x.shape}, weights: {w.shape})")
    axes = tuple(normalize_axis("average", k, x.ndim)
                 for k in (axis if isinstance(axis, tuple) else (axis,)))
    if w.shape != tuple(x.shape[k] for k in axes):
        raise ValueError(f"average: Shape of weights must be consistent with shape of a "
                         f"along specified axis (a: {x.shape}, axis={axis!r}, weights: "
                         f"{w.shape})")
    w = w.transpose(tuple(_onp.argsort(axes).tolist()))
    return w.reshape(tuple(s if k in axes else 1 for k, s in enumerate(x.shape)))


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """``numpy.average``; ``axis`` may name axes (weights aligned by name)."""
    if weights is None:
        avg = REDUCTIONS["mean"](a, axis, keepdims=keepdims)
        if avg.size == 0:       # NumPy scales by a.size / avg.size there
            raise ZeroDivisionError("average: division by zero (the result is empty)")
        if returned:
            x = operand(a)
            cnt = REDUCTIONS["sum"](_ones_like_names(x).astype(avg.dtype), axis,
                                    keepdims=keepdims)
            return avg, cnt
        return avg
    _same_sizes("average", a, weights)
    weights = _weights_along(a, axis, weights)
    # NumPy's result dtype: the data's and the weights' (with float64 for
    # integer data); the weights and the products are summed in it
    adt, wdt = (_onp.dtype(getattr(v, "dtype", None) or np_asarray(v).dtype)
                for v in (a, weights))
    rt = result_type(adt, wdt, *((_onp.float64,) if adt.kind in "biu" else ()))
    wsum = REDUCTIONS["sum"](UFUNCS["multiply"](weights, _ones_like_names(a)), axis,
                             dtype=rt, keepdims=keepdims)
    if not isinstance(wsum.data, jax.core.Tracer) and bool((wsum.data == 0).any()):
        raise ZeroDivisionError("average: weights sum to zero, can't be normalized")
    num = REDUCTIONS["sum"](UFUNCS["multiply"](a, weights, dtype=rt), axis,
                            keepdims=keepdims)
    avg = UFUNCS["true_divide"](num, wsum)
    if returned:
        return avg, wsum.astype(avg.dtype)
    return avg


average = _zero_d_axis(average)


def _same_sizes(fn, a, weights):
    """A name that ``a`` and ``weights`` share has one size (the error names
    them as the user did)."""
    if isinstance(a, NamedArray) and isinstance(weights, NamedArray):
        for n, s in weights.named_shape.items():
            if a.named_shape.get(n, s) != s:
                raise ValueError(
                    f"{fn}: axis name {n!r} has size {a.named_shape[n]} in a (named shape "
                    f"{a.named_shape}) but size {s} in weights (named shape "
                    f"{weights.named_shape})")


__all__ = ["average", "quantile", "percentile", "nanquantile", "nanpercentile"]

"""Statistics beside the reduction table (``reductions/table.py``):
``average`` (weights aligned by name) and the order statistics ``quantile``,
``percentile``, ``nanquantile``, ``nanpercentile`` in NumPy's result dtypes.

>>> import namedarray as np
>>> np.average(np.arange(4.0), weights=[1, 1, 1, 5])
np.float64(2.25)
"""
from __future__ import annotations

import builtins  # the namespace defines its own any
import functools
import math
import warnings

import jax
import jax.numpy as jnp
import numpy as _onp

from ..core import config
from ..core.array import NamedArray, normalize_axis, operand, positional, zero_dim_array
from ..frontend.elementwise import UFUNCS
from ..frontend.elementwise import exact_divide
from ..frontend.engines.args import check_dtype, np_asarray, unsupported
from ..frontend.engines.dispatch import DOUBLES, FLOATS, Computes
from ..frontend.creation import asarray
from ..frontend.engines.generic import generic, wrap
from ..frontend.engines.out import store_out
from .engine import reduction, whole_axes
from ..frontend.engines.select import result_type
from ..frontend.joining import stack
from .table import REDUCTIONS, _zero_d_axis, warn_all_nan


@functools.lru_cache(maxsize=None)
def _quantile_dtype(name, dtype, q_dtype, method):
    """NumPy's result dtype for ``name`` (found once on a tiny input)."""
    np_fn = getattr(_onp, name)
    with warnings.catch_warnings(), _onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        # a Python int or float (weakly typed), or an array of that dtype
        q = q_dtype(0) if isinstance(q_dtype, type) else _onp.zeros((), q_dtype)
        try:
            return np_fn(_onp.ones(2, dtype), q, method=method).dtype
        except TypeError as e:
            raise TypeError(f"{name}: {e}") from None


# NumPy's quantile methods (Hyndman & Fan): the virtual index of ``q`` among
# ``n`` sorted values.  The discrete ones give integer positions, which are
# taken, never interpolated, so integer data keeps every bit.
_HF = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5), "weibull": (0, 0),
       "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
            "normal_unbiased", "lower", "higher", "midpoint", "nearest")


def _to_boundaries(index, keep_previous):
    prev = jnp.floor(index)
    return jnp.maximum(jnp.where(keep_previous(index - prev, prev), prev, prev + 1),
                       0).astype(jnp.int64)


def _virtual_index(method, n, q):
    """The (float or int) virtual index, computed in ``q``'s dtype as NumPy does."""
    if method == "linear":
        return (n - 1) * q
    if q.dtype.kind not in "f":
        q = q.astype(jnp.float64)
    if method == "inverted_cdf":
        return _to_boundaries(n * q - 1, lambda g, p: g == 0)
    if method == "closest_observation":
        return _to_boundaries(n * q - 1 - 0.5, lambda g, p: (g == 0) & (p % 2 == 1))
    if method == "averaged_inverted_cdf":
        return n * q - 1
    if method in ("lower", "higher", "nearest"):
        f = {"lower": jnp.floor, "higher": jnp.ceil, "nearest": jnp.round}[method]
        return f((n - 1) * q).astype(jnp.int64)
    if method == "midpoint":
        return 0.5 * (jnp.floor((n - 1) * q) + jnp.ceil((n - 1) * q))
    alpha, beta = _HF[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _gamma(method, v, prev):
    g = (v.astype(jnp.float64) - prev).astype(v.dtype)
    if method == "averaged_inverted_cdf":
        g = jnp.where(g == 0, 0.5, 1.0).astype(v.dtype)
    elif method == "midpoint":
        g = jnp.where(v % 1 == 0, 0.0, 0.5).astype(v.dtype)
    return g


def _lerp(a, b, t, weak):
    """NumPy's interpolation: the difference in the data's dtype (integers
    wrap as NumPy's do), the rest in NumPy's promotion of data and weight; a
    weak weight (a Python float ``q``) is a Python float there, ``1 - t``
    included, cast to the data's float dtype only where it meets the data."""
    rt = (a.dtype if a.dtype.kind == "f" else _onp.dtype(_onp.float64)) if weak else \
        _onp.result_type(a.dtype, t.dtype)
    diff = (b - a).astype(rt)
    a, b = a.astype(rt), b.astype(rt)
    return jnp.where(t >= 0.5, b - diff * (1 - t).astype(rt), a + diff * t.astype(rt))


def _quantile_sorted(s, n, q, method, weak, weights):
    """Quantiles ``q`` (any shape) of ``s`` sorted along axis 0 with ``n``
    valid (leading) values per slice (an int or an array of the other axes)."""
    rest = s.shape[1:]
    qb = q.reshape(q.shape + (1,) * len(rest))
    last = jnp.asarray(n) - 1

    def take(idx):
        idx = jnp.clip(jnp.where(idx < 0, last, idx), 0, max(s.shape[0] - 1, 0))
        idx = jnp.broadcast_to(idx, q.shape + rest).reshape((q.size,) + rest)
        return jnp.take_along_axis(s, idx, axis=0).reshape(q.shape + rest)

    if weights is not None:
        cdf = jnp.cumsum(weights, axis=0, dtype=jnp.float64)
        cdf = exact_divide(cdf, cdf[-1])    # (correctly rounded: cdf == q is exact)
        if q.dtype.kind == "f":
            cdf = cdf.astype(q.dtype)
        cdf = jnp.where(cdf == 0, -1, cdf)
        below = cdf[(slice(None),) + (None,) * q.ndim] < qb
        return take(jnp.minimum(below.sum(axis=0), last))
    nn = n if isinstance(n, int) else (n.astype(q.dtype) if q.dtype.kind == "f" else n)
    v = _virtual_index(method, nn, qb)
    if method in _DISCRETE or v.dtype.kind in "iu":
        return take(v)
    prev = jnp.floor(v)
    above, below = v >= nn - 1, v < 0
    prev = jnp.where(above, -1, jnp.where(below, 0, prev)).astype(jnp.int64)
    nxt = jnp.where(above, -1, jnp.where(below, 0, prev + 1))
    g = _gamma(method, v, jnp.where(prev < 0, last, prev))
    return _lerp(take(prev), take(nxt), g, weak)


def _quantile_data(d, q, axis, method, keepdims, nan, weak, weights):
    """NumPy's quantile of jax data ``d`` over int ``axis`` (None, int, tuple)."""
    axes = tuple(range(d.ndim)) if axis is None else tuple(
        k % d.ndim for k in (axis if isinstance(axis, tuple) else (axis,)))
    kept = [k for k in range(d.ndim) if k not in axes]
    moved = jnp.transpose(d, axes + tuple(kept))
    flat = moved.reshape((math.prod(d.shape[k] for k in axes),) +
                         tuple(d.shape[k] for k in kept))
    w = None
    if weights is not None:
        w = jnp.transpose(weights, axes + tuple(kept)).reshape(flat.shape)
        order = jnp.argsort(flat, axis=0)
        s, w = jnp.take_along_axis(flat, order, 0), jnp.take_along_axis(w, order, 0)
    else:
        s = jnp.sort(flat, axis=0)
    inexact = s.dtype.kind in "fc"
    n = flat.shape[0]
    if nan and inexact:
        n = jnp.sum(~jnp.isnan(flat), axis=0)
        if w is not None:
            w = jnp.where(jnp.isnan(s), 0, w)
    res = _quantile_sorted(s, n, q, method, weak, w)
    if inexact and s.shape[0]:
        bad = (n == 0) if nan else jnp.isnan(s[-1])
        res = jnp.where(bad, jnp.asarray(jnp.nan, res.dtype), res)
    if keepdims:
        res = res.reshape(q.shape + tuple(1 if k in axes else d.shape[k]
                                          for k in range(d.ndim)))
    return res


def _quantile(name):
    """The order statistic ``name`` (quantile, percentile and their nan
    versions) in NumPy's result dtype; ``axis`` may mix ints and names."""
    top = 100 if "percentile" in name else 1
    what = "Percentiles" if top == 100 else "Quantiles"
    nan = name.startswith("nan")

    def f(a, q, axis=None, out=None, overwrite_input=False, method="linear",
          keepdims=False, *, weights=None, interpolation=None):
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = NamedArray(np_asarray(a))
        if interpolation is not None:
            raise TypeError(f"{name}: interpolation= was removed from NumPy; use "
                            f"method={interpolation!r}")
        if method not in _METHODS:
            raise ValueError(f"{name}: {method!r} is not a valid method. Use one of: "
                             f"{', '.join(_METHODS)}")
        weak = type(q) in (int, float)
        qq = np_asarray(q) if isinstance(q, (list, tuple)) else q
        if isinstance(qq, NamedArray):
            qq = qq._plain(name)
        qh = None if isinstance(qq, jax.core.Tracer) else _onp.asarray(qq)
        if qh is not None:
            if qh.dtype == object and not x.names:
                raise unsupported(name, "q of dtype object (Fraction, Decimal)")
            if qh.dtype.kind not in "biuf":
                raise TypeError(f"{name}: q must be real numbers, got dtype {qh.dtype}")
            if qh.size and not ((qh >= 0) & (qh <= top)).all():
                raise ValueError(f"{name}: {what} must be in the range [0, {top}]")
        if x.dtype.kind == "c":
            raise TypeError(f"{name}: a must be an array of real numbers (got "
                            f"{x.dtype} data)")
        if x.size == 0 and not x.names and nan:
            # NumPy's: the nanmean of the empty data (whatever q)
            return store_out(name, out, REDUCTIONS["nanmean"](x, axis, keepdims=keepdims))
        want = None
        if config.numpy_dtypes() and x.dtype.kind in "biuf":
            want = _quantile_dtype(name, x.dtype, type(q) if weak else (
                qh.dtype if qh is not None else _onp.float64), method)
        if x.size == 0 and not x.names:     # an empty slice: NumPy's IndexError
            axes = range(x.ndim) if axis is None else (
                axis if isinstance(axis, (tuple, list)) else (axis,))
            if builtins.any(type(ax) is int and -x.ndim <= ax < x.ndim and x.shape[ax] == 0
                            for ax in axes):
                raise IndexError(f"{name}: index -1 is out of bounds for axis 0 with "
                                 "size 0")
        if top == 100:      # NumPy's q / 100 (on the host where q is known)
            qj = exact_divide(qq, 100) if qh is None else _onp.true_divide(qh, 100)
        else:
            qj = qq if qh is None else qh
        qj = jnp.asarray(qj)
        w = None
        if weights is not None:
            w = _quantile_weights(name, x, axis, method, weights)
        keepdims = keepdims and x.ndim > 0

        def engine(qv):
            return whole_axes(lambda d, axis, keepdims=False: _quantile_data(
                d, qv, axis, method, keepdims, nan, weak, w))
        run = engine(qj)
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        if not x.names and all(k is None or isinstance(k, int) for k in axes):
            if axis is not None:
                axis = tuple(normalize_axis(name, k, x.ndim) for k in axes)
                if len(set(axis)) < len(axis):
                    raise ValueError(f"{name}: repeated axis in axis={axes}")
            res = positional(run(x.data, axis, keepdims=keepdims))
        else:   # named axes: the reduction engine (which keeps the input dtype)
            if want is not None and want != x.dtype:
                x = x.astype(want)
            if qj.ndim:     # one reduction per q (the engine keeps no leading q axes)
                parts = [reduction(engine(qv), name)(x, axis, keepdims=keepdims)
                         for qv in qj.reshape(-1)]
                res = stack(parts).reshape(qj.shape + parts[0].shape)
            else:
                res = reduction(run, name)(x, axis, keepdims=keepdims)
        if nan and x.dtype.kind == "f" and not isinstance(res.data, jax.core.Tracer) and \
                bool(jnp.isnan(res.data).any()):
            # (the data's slices of NaNs only: on the host where it is positional)
            warn_all_nan(_onp.isnan(_onp.asarray(x.data)).all(axis=axis) if not x.names
                         else REDUCTIONS["all"](UFUNCS["isnan"](x), axis).data, 3)
        if want is not None and res.dtype != want:
            res = res.astype(want)
        if w is not None and res.ndim == 0:
            res = zero_dim_array(res)       # (NumPy's weighted path fills an array)
        return store_out(name, out, res)
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = (f"``numpy.{name}``; ``axis`` may mix ints and axis names; ``q`` may be "
                 "a list.\n\n"
                 f"    >>> import namedarray as np\n"
                 f"    >>> np.{name}(np.arange(5), {[30, 60] if top == 100 else [0.3, 0.6]})"
                 "\n    array([1.2, 2.4])\n")
    return f


def _quantile_weights(name, x, axis, method, weights):
    """NumPy's checks of quantile ``weights=``; the weights as jax data of
    ``x``'s shape (positional arrays only)."""
    if method != "inverted_cdf":
        raise ValueError(f"{name}: Only method 'inverted_cdf' supports weights. Got: "
                         f"{method}.")
    if x.names or isinstance(weights, NamedArray) and weights.names:
        raise ValueError(f"{name}: weights= is supported for positional arrays only "
                         "(untag the named axes first)")
    if isinstance(axis, list):
        axis = tuple(axis)
    w = _weights_along(x, axis, weights, name)
    w = w.data if isinstance(w, NamedArray) else jnp.asarray(np_asarray(w))
    if not isinstance(w, jax.core.Tracer):
        if bool((w < 0).any()):
            raise ValueError(f"{name}: Weights must be non-negative.")
        tot = jnp.sum(jnp.broadcast_to(w, x.shape).astype(jnp.float64),
                      axis=None if axis is None else axis)
        if not bool(jnp.isfinite(tot).all()) or bool((tot == 0).any()):
            raise ValueError(f"{name}: Weights included NaN, inf or were all zero.")
    return jnp.broadcast_to(w, x.shape)


# -- the order statistics: one row each
quantile = _quantile("quantile")
percentile = _quantile("percentile")
nanquantile = _quantile("nanquantile")
nanpercentile = _quantile("nanpercentile")


def _ones_like_names(a):
    """True of ``a``'s shape and names (``a * 0 + 1`` would be NaN at an
    infinity): weights broadcast by it keep their dtype."""
    return UFUNCS["logical_or"](UFUNCS["isnan"](a), True)


def _weights_along(a, axis, weights, fn="average"):
    """Positional ``weights`` of another shape than ``a``: NumPy's rule, they
    are the weights along the (int) ``axis``, laid out as those axes of ``a``
    (named weights align by name instead)."""
    x = operand(a)
    w = weights if isinstance(weights, NamedArray) else operand(np_asarray(weights))
    if w.names or w.shape == x.shape or (axis is not None and builtins.any(
            isinstance(k, str) for k in (axis if isinstance(axis, tuple) else (axis,)))):
        return weights
    if axis is None:
        raise TypeError(f"{fn}: Axis must be specified when shapes of a and weights "
                        f"differ (a: {x.shape}, weights: {w.shape})")
    axes = tuple(normalize_axis(fn, k, x.ndim)
                 for k in (axis if isinstance(axis, tuple) else (axis,)))
    if w.shape != tuple(x.shape[k] for k in axes):
        raise ValueError(f"{fn}: Shape of weights must be consistent with shape of a "
                         f"along specified axis (a: {x.shape}, axis={axis!r}, weights: "
                         f"{w.shape})")
    w = w.transpose(tuple(_onp.argsort(axes).tolist()))
    return w.reshape(tuple(s if k in axes else 1 for k, s in enumerate(x.shape)))


@_zero_d_axis
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


def _known(v):
    """``v``'s values on the host, or None under a transformation."""
    return None if isinstance(v, jax.core.Tracer) else _onp.asarray(v)


def _cov_weights(fn, kind, w, n):
    """NumPy's checks of ``fweights``/``aweights`` (read as float64)."""
    w = jnp.asarray(w, _onp.float64)
    h = _known(w)
    if kind == "fweights" and h is not None and not (h == _onp.around(h)).all():
        raise TypeError(f"{fn}: fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"{fn}: cannot handle multidimensional {kind}")
    if w.shape[0] != n:
        raise RuntimeError(f"{fn}: incompatible numbers of samples and {kind}")
    if h is not None and (h < 0).any():
        raise ValueError(f"{fn}: {kind} cannot be negative")
    return w


def _cov_data(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
              aweights=None, dtype=None, fn="cov"):
    """NumPy's ``cov`` step by step (``numpy/lib/_function_base_impl.py``): the
    data in ``result_type(m, y, float64)`` (or ``dtype``), the weighted mean
    subtracted, ``X @ (X * w).T.conj()`` times ``1 / fact``."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError(f"{fn}: ddof must be integer")
    m = jnp.asarray(m)
    if m.ndim > 2:
        raise ValueError(f"{fn}: m has more than 2 dimensions")
    if y is not None:
        y = jnp.asarray(y)
        if y.ndim > 2:
            raise ValueError(f"{fn}: y has more than 2 dimensions")
    if dtype is None:
        dtype = _onp.result_type(m.dtype, *(() if y is None else (y.dtype,)), _onp.float64)
    dtype = _onp.dtype(dtype)
    if dtype.kind != "c" and builtins.any(v is not None and v.dtype.kind == "c"
                                          for v in (m, y)):
        warnings.warn(f"{fn}: Casting complex values to real discards the imaginary part",
                      _onp.exceptions.ComplexWarning, stacklevel=4)
        m, y = m.real, None if y is None else y.real
    X = jnp.atleast_2d(m).astype(dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return jnp.zeros((0, 0), _onp.float64)
    if y is not None:
        y = jnp.atleast_2d(y).astype(dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = jnp.concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    n = X.shape[1]
    w = None
    if fweights is not None:
        w = _cov_weights(fn, "fweights", fweights, n)
    if aweights is not None:
        aweights = _cov_weights(fn, "aweights", aweights, n)
        w = aweights if w is None else w * aweights
    if w is None:       # NumPy's mean (half precision summed in float32)
        comp = _onp.float32 if dtype == _onp.float16 else None
        avg = exact_divide(jnp.sum(X, axis=1, dtype=comp),
                           jnp.asarray(n, X.real.dtype if comp is None else comp))
        avg = avg.astype(dtype)
        fact = jnp.asarray(float(n - ddof))
    else:               # NumPy's average(X, axis=1, weights=w, returned=True)
        rt = _onp.result_type(dtype, w.dtype)
        w_sum = jnp.sum(w.astype(rt))
        avg = exact_divide(jnp.sum(X.astype(rt) * w.astype(rt), axis=1), w_sum)
        w_sum = w_sum.real if rt.kind == "c" else w_sum
        fact = w_sum if ddof == 0 else w_sum - ddof if aweights is None else \
            w_sum - ddof * exact_divide(jnp.sum(w * aweights), w_sum)
    h = _known(fact)
    if h is not None and h <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=4)
    fact = jnp.where(fact <= 0, 0.0, fact)
    X = (X - avg[:, None].astype(X.dtype)).astype(X.dtype)      # (NumPy's X -= avg)
    X_T = X.T if w is None else (X * w).T
    c = jnp.matmul(X, X_T.conj(), precision=jax.lax.Precision.HIGHEST)
    with _onp.errstate(divide="ignore"):
        scale = exact_divide(jnp.asarray(1.0), fact.astype(_onp.float64))
    c = (c * scale.astype(_onp.result_type(c.dtype, _onp.float64))).astype(c.dtype)
    return jnp.squeeze(c)


def _corrcoef_data(x, y=None, rowvar=True, dtype=None):
    """NumPy's ``corrcoef``: ``cov`` over the outer product of the standard
    deviations, the real and imaginary parts clipped to [-1, 1]."""
    c = _cov_data(x, y, rowvar, dtype=dtype, fn="corrcoef")
    if c.ndim == 0:     # a scalar covariance: nan where it is nan, inf or 0
        return exact_divide(c, c)
    if c.ndim != 2:
        raise ValueError("corrcoef: Input must be 1- or 2-d.")
    stddev = jnp.sqrt(jnp.diagonal(c).real)
    c = exact_divide(c, stddev[:, None].astype(c.dtype))
    c = exact_divide(c, stddev[None, :].astype(c.dtype))
    if c.dtype.kind == "c":
        return jax.lax.complex(jnp.clip(c.real, -1, 1), jnp.clip(c.imag, -1, 1))
    return jnp.clip(c, -1, 1)


def _data_args(values):
    """List and tuple arguments as NumPy's arrays."""
    return [np_asarray(v) if isinstance(v, (list, tuple)) else v for v in values]


_cov = wrap(_cov_data, "cov")
_corrcoef = wrap(_corrcoef_data, "corrcoef")


# jax.numpy: fweights must have an integer dtype, dtype= and weights cast with
# the data, other rounding (its own mean and normalization)
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """``numpy.cov`` computed as NumPy computes it (its dtypes, weights checks,
    warning and ``1 / fact`` scaling); named axes are mapped over.

    >>> import namedarray as np
    >>> np.cov([[0, 1, 2], [2, 1, 0]], fweights=[1.0, 4.0, 1.0])
    array([[ 0.4, -0.4],
           [-0.4,  0.4]])
    """
    check_dtype("cov", dtype)
    m, y, fweights, aweights = _data_args((m, y, fweights, aweights))
    return _cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """``numpy.corrcoef`` computed as NumPy computes it (from ``cov``)."""
    check_dtype("corrcoef", dtype)
    x, y = _data_args((x, y))
    return _corrcoef(x, y, rowvar, dtype)


def _q_given_as_a_list(args, kwargs):
    """The dtype of a ``q`` given as a list (NumPy's array of it: float64 for
    floats, int64 for ints), which the order statistics compute in with the
    data's: float16 data at ``q=[0.25, 0.5]`` computes in float64."""
    q = args[1] if len(args) > 1 else kwargs.get("q")
    if type(q) in (list, tuple) and config.numpy_dtypes():
        try:
            dt = _onp.asarray(q).dtype
        except (TypeError, ValueError):     # (ragged: the function's own error)
            return ()
        return (dt,) if dt.kind in "iuf" else ()
    return ()


average.computes = FLOATS       # (bool and integer data in float64)
quantile.computes = percentile.computes = nanquantile.computes = \
    nanpercentile.computes = Computes(True, _q_given_as_a_list)
cov.computes = corrcoef.computes = DOUBLES

__all__ = ["average", "quantile", "percentile", "nanquantile", "nanpercentile", "cov",
           "corrcoef"]


# jax.numpy: its own dtypes, no out=; here the sum reduction's
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """``numpy.trace``: the sum of the diagonal, by the ``sum`` reduction (its
    dtypes, its ``dtype=`` casts, ``out=``); named axes are batch axes.

    >>> import namedarray as np
    >>> np.trace(np.asarray([[2j, 1], [1, 0]]), dtype=bool)
    np.True_
    """
    x = asarray(a)
    if x.ndim >= 2 and type(axis1) is int and type(axis2) is int and \
            all(-x.ndim <= v < x.ndim for v in (axis1, axis2)) and \
            axis1 % x.ndim == axis2 % x.ndim:
        raise ValueError(f"trace: axis1 and axis2 cannot be the same (axis1={axis1}, "
                         f"axis2={axis2})")
    d = generic("trace", lambda v: jnp.diagonal(v, offset, axis1, axis2), (x,), {})
    return REDUCTIONS["sum"](d, -1, dtype=dtype, out=out)

"""Reductions and cumulative functions: a table over one engine.

>>> import namedarray as np
>>> x = np.arange(6, dtype=np.int8).reshape(2, 3).tag("b", None)
>>> x.sum(axis="b")
array([3, 5, 7])
>>> x.sum(axis="b").dtype
dtype('int64')
>>> np.argmax(x, axis=("b", 0)).shape
()
"""
from __future__ import annotations

import builtins  # the module defines its own any/all/sum
import inspect

import jax.numpy as jnp
import numpy as _onp
from jax import lax
from jax.scipy.special import logsumexp as _jlogsumexp

from .. import parallel
from ..core import config
from ..core.array import NamedArray, new, operand
from .elementwise import UFUNCS
from .engines.generic import wrap
from .engines.reduction import REDUCE_OF_UFUNC, numpy_dtype, reduction


def _logsumexp_coll(x, names):
    """Combine local ``logsumexp`` results over mapped names: the max, then
    the sum of the rescaled exponentials (two collectives)."""
    m = lax.stop_gradient(parallel.pmax(x, names).data)
    m = jnp.where(jnp.isfinite(m), m, 0)
    s = parallel.psum(new(jnp.exp(x.data - m), x.dims, x.mapped), names)
    return new(m + jnp.log(s.data), s.dims, s.mapped)


def _logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, where=None):
    """``log(sum(exp(a)))`` computed stably (``scipy.special.logsumexp``)."""
    return _jlogsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign,
                       where=where)


def _truth(jfn):
    """jnp.any/all read only the real part of complex input; NumPy tests != 0."""
    def f(a, axis=None, out=None, keepdims=False, *, where=None):
        if jnp.iscomplexobj(a):
            a = a != 0
        return jfn(a, axis=axis, keepdims=keepdims, where=where)
    f.__name__ = jfn.__name__
    return f


# name -> (jax.numpy function, collective for names bound by nmap, options)
_TABLE = {
    "sum": (jnp.sum, parallel.psum, {}),
    "prod": (jnp.prod, parallel.pprod, {}),
    "mean": (jnp.mean, parallel.pmean, {}),
    "max": (jnp.max, parallel.pmax, {}),
    "min": (jnp.min, parallel.pmin, {}),
    "amax": (jnp.amax, parallel.pmax, {}),
    "amin": (jnp.amin, parallel.pmin, {}),
    "any": (_truth(jnp.any), parallel.pany, {}),
    "all": (_truth(jnp.all), parallel.pall, {}),
    "nansum": (jnp.nansum, parallel.psum, {}),
    "nanmax": (jnp.nanmax, None, {}),
    "nanmin": (jnp.nanmin, None, {}),
    "nanprod": (jnp.nanprod, parallel.pprod, {}),
    "count_nonzero": (jnp.count_nonzero, parallel.psum, {}),
    "logsumexp": (_logsumexp, _logsumexp_coll, {}),
    "std": (jnp.std, None, {}),
    "var": (jnp.var, None, {}),
    "nanstd": (jnp.nanstd, None, {}),
    "nanvar": (jnp.nanvar, None, {}),
    "nanmean": (jnp.nanmean, None, {}),
    "ptp": (jnp.ptp, None, {}),
    "median": (jnp.median, None, {}),
    "nanmedian": (jnp.nanmedian, None, {}),
    "argmax": (jnp.argmax, None, {"flat_none": True, "takes_tuple": False}),
    "argmin": (jnp.argmin, None, {"flat_none": True, "takes_tuple": False}),
    "nanargmax": (jnp.nanargmax, None, {"flat_none": True, "takes_tuple": False}),
    "nanargmin": (jnp.nanargmin, None, {"flat_none": True, "takes_tuple": False}),
}

REDUCTIONS = {name: reduction(jfn, name, coll, **opts)
              for name, (jfn, coll, opts) in _TABLE.items()}


def _moment(name):
    """var/std over names bound by nmap as two collective means (a small
    all-reduce each on a mesh) instead of gathering the whole axis."""
    general = REDUCTIONS[name]

    def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
          correction=None, **kw):
        names = (axis,) if isinstance(axis, str) else tuple(
            v for v in (axis if isinstance(axis, (tuple, list)) else ()) if isinstance(v, str))
        x = operand(a)
        if (not names or where is not None or kw or out is not None or
                not isinstance(x, NamedArray) or builtins.any(
                    n not in dict(x.mapped) for n in names)):
            return general(a, axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                           where=where, correction=correction, **kw)
        ddof = correction if correction is not None else ddof
        mean = REDUCTIONS["mean"]
        m = mean(x, axis, dtype=dtype, keepdims=True)
        d = UFUNCS["subtract"](x, m)
        sq = UFUNCS["square"](UFUNCS["absolute"](d)) if jnp.iscomplexobj(d.data) else \
            UFUNCS["square"](d)
        v = mean(sq, axis, dtype=dtype, keepdims=keepdims)
        n = 1
        for ax in (axis if isinstance(axis, (tuple, list)) else (axis,)):
            n *= parallel.axis_size(ax) if isinstance(ax, str) else x.shape[ax]
        if ddof:
            v = UFUNCS["multiply"](v, n / (n - ddof) if n > ddof else float("inf"))
        return UFUNCS["sqrt"](v) if name == "std" else v
    f.__name__ = f.__qualname__ = name
    f.__doc__ = general.__doc__
    return f


REDUCTIONS["var"] = _moment("var")
REDUCTIONS["std"] = _moment("std")
globals().update(REDUCTIONS)

REDUCE_OF_UFUNC.update({"add": REDUCTIONS["sum"], "multiply": REDUCTIONS["prod"],
                   "maximum": REDUCTIONS["max"], "minimum": REDUCTIONS["min"],
                   "logical_and": REDUCTIONS["all"], "logical_or": REDUCTIONS["any"]})


def _quantile(jfn, name):
    def f(a, q, axis=None, *args, **kwargs):
        # q is the second argument; reduce over axis with q bound
        return reduction(lambda d, axis, *ar, **kw: jfn(d, q, axis, *ar, **kw),
                         name)(a, axis, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = f"``numpy.{name}``; ``axis`` may mix ints and axis names."
    return f


for _n in ("quantile", "percentile", "nanquantile", "nanpercentile"):
    globals()[_n] = _quantile(getattr(jnp, _n), _n)

# cumulative and shape-keeping functions along an axis: a named axis is kept
_KEEP = ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
         "cumulative_prod")


def _numpy_typed(name):
    """The jax.numpy cumulative function, accumulating in NumPy's dtype."""
    jfn, np_fn = getattr(jnp, name), getattr(_onp, name)

    def f(a, axis=None, dtype=None, **kw):
        if dtype is None and config.numpy_dtypes():
            dtype = numpy_dtype(name, np_fn, a.dtype, None, ())
        return jfn(a, axis=axis, dtype=dtype, **kw)
    f.__name__ = name
    f.__signature__ = inspect.signature(jfn)
    return f


for _n in _KEEP:
    globals()[_n] = wrap(_numpy_typed(_n), _n, named="keep")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """``numpy.average``; ``axis`` may name axes (weights aligned by name)."""
    if weights is None:
        avg = REDUCTIONS["mean"](a, axis, keepdims=keepdims)
        if returned:
            x = operand(a)
            cnt = REDUCTIONS["sum"](UFUNCS["add"](UFUNCS["multiply"](x, 0), 1).astype(
                avg.dtype), axis, keepdims=keepdims)
            return avg, cnt
        return avg
    wsum = REDUCTIONS["sum"](UFUNCS["multiply"](weights, UFUNCS["add"](
        UFUNCS["multiply"](a, 0), 1)), axis, keepdims=keepdims)
    num = REDUCTIONS["sum"](UFUNCS["multiply"](a, weights), axis, keepdims=keepdims)
    avg = UFUNCS["true_divide"](num, wsum)
    if returned:
        return avg, wsum.astype(avg.dtype)
    return avg


__all__ = sorted(REDUCTIONS) + sorted(_KEEP) + [
    "REDUCTIONS", "average", "quantile", "percentile", "nanquantile", "nanpercentile"]

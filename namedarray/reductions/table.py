"""Reductions and cumulative functions: a table over one engine (``average``
and the quantiles: ``reductions/statistics.py``).

Each public function is one row at the end of the module, which names it:
``_reduction`` (NumPy's signature and result dtype by ``engine.reduction``,
the row's ``jax.numpy`` engine and collective, then its rules, each a keyword,
always applied in one order) or ``_cumulative``.

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
import functools
import inspect
import math
import operator
import warnings

import jax

import jax.numpy as jnp
import numpy as _onp
from jax import lax
from jax.scipy.special import logsumexp as _jlogsumexp

from .. import parallel
from ..core import config
from ..core.array import NamedArray, View, new, normalize_axis, operand
from ..frontend.elementwise import UFUNCS, _barrier_div, exact_divide
from ..frontend.engines import fperr
from ..frontend.engines.args import np_asarray, numpy_args
from ..frontend.engines.dispatch import FLOATS
from ..frontend.engines.loops import cmul
from ..frontend.engines.generic import wrap
from .engine import (REDUCE_OF_UFUNC, index_axis, numpy_dtype, reduction,
                     whole_axes)
from .folds import from_identity, numpy_typed


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
        if not keepdims and where is None:
            return jfn(a, axis)   # jax.numpy's fast call (keywords cost a slower dispatch)
        return jfn(a, axis=axis, keepdims=keepdims, where=where)
    f.__name__ = jfn.__name__
    return f


def _ptp(a, axis=None, out=None, keepdims=False):
    """``jnp.ptp`` with NumPy's TypeError for bool data (its maximum less its
    minimum is a boolean subtract), after NumPy's axis checks."""
    if a.dtype == jnp.bool_:
        _check_axes("ptp", axis, a.ndim)
        jnp.max(a, axis=axis)       # (an empty axis: its ValueError first, as NumPy's)
        raise TypeError("ptp: numpy boolean subtract, the `-` operator, is not supported, "
                        "use the bitwise_xor, the `^` operator, or the logical_xor "
                        "function instead.")
    if jnp.iscomplexobj(a):     # NumPy's maximum less its minimum, NaNs propagated
        return (_complex_nan(jnp.max, True)(a, axis, keepdims=keepdims) -
                _complex_nan(jnp.min, False)(a, axis, keepdims=keepdims))
    return jnp.ptp(a, axis=axis, keepdims=keepdims)


def _check_axes(fn, axis, ndim):
    """NumPy's AxisError for an int ``axis`` out of range (axis 0 or -1 of a
    0-d array is the whole array), before the other argument checks."""
    for ax in (axis if isinstance(axis, (tuple, list)) else (axis,)):
        if type(ax) is int and not (ndim == 0 and ax in (0, -1)):
            normalize_axis(fn, ax, ndim)


def _initial_fits(initial, dtype):
    """A Python int ``initial`` must fit an integer result's dtype (NumPy's
    OverflowError; jnp would wrap it)."""
    if type(initial) is int and _onp.dtype(dtype).kind in "iu":
        info = jnp.iinfo(dtype)
        if not info.min <= initial <= info.max:
            raise OverflowError(f"Python integer {initial} out of bounds for "
                                f"{_onp.dtype(dtype)}")


def _nan_extreme(jfn, is_max):
    """nanmax/nanmin (``is_max``) with NumPy's check of a Python int
    ``initial``, complex input in NumPy's order (:func:`_complex_nan`; NaNs
    left out, an all-NaN slice its first element), and NumPy's "All-NaN
    slice encountered" RuntimeWarning (once, where a result is NaN: eagerly
    only)."""
    @functools.wraps(jfn)
    def f(a, axis=None, out=None, keepdims=False, initial=None, where=None):
        if jnp.iscomplexobj(a) and initial is None and where is None and a.size:
            _check_axes(jfn.__name__, axis, a.ndim)
            t, axes = _reduced_last(a, axis)
            nan = jnp.isnan(t)
            worst = complex(-jnp.inf, -jnp.inf) if is_max else complex(jnp.inf, jnp.inf)
            filled = jnp.where(nan, jnp.asarray(worst, t.dtype), t)
            i = _complex_arg(jnp.argmax if is_max else jnp.argmin, is_max)(filled, -1)
            r = jnp.take_along_axis(filled, i[..., None], -1)[..., 0]
            r = jnp.where(jnp.all(nan, -1), t[..., 0], r)   # (fmax's fold: the first)
            r = jnp.expand_dims(r, axes) if keepdims else r
        elif not keepdims and initial is None and where is None:
            r = jfn(a, axis)
        else:
            _check_axes(jfn.__name__, axis, a.ndim)
            _initial_fits(initial, a.dtype)
            r = jfn(a, axis=axis, keepdims=keepdims, initial=initial, where=where)
        if _onp.dtype(r.dtype).kind in "fc" and not isinstance(r, jax.core.Tracer) and \
                bool(jnp.isnan(r).any()):
            warnings.warn("All-NaN slice encountered", RuntimeWarning,
                          stacklevel=fperr._stacklevel())
        return r
    return f


def _reduced_last(a, axis):
    """``(t, axes)``: ``a`` with the reduced ``axes`` (``axis``: None, an int
    or a tuple) made one last axis, in C order; the others first, in order."""
    axes = tuple(range(a.ndim)) if axis is None else (
        tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))
    axes = tuple(ax % a.ndim for ax in axes) if a.ndim else ()
    keep = [i for i in range(a.ndim) if i not in axes]
    t = jnp.transpose(a, keep + list(axes)).reshape(tuple(a.shape[i] for i in keep) + (-1,))
    return t, axes


def _complex_nan(jfn, is_max):
    """jnp.max/min (``is_max``) of complex input in NumPy's order: NumPy's
    fold picks an element, the lexicographic extreme (real part, then
    imaginary part; the first of ties) or the first NaN met along the axis.
    (jnp ignores a NaN, and starts from ``-inf+0j``/``inf+0j``, which wins
    over ``-inf-infj``: ``max([-inf-infj])`` was ``-inf+0j``.)  A Python int
    ``initial`` must fit an integer array's dtype (NumPy's OverflowError; jnp
    would wrap it)."""
    @functools.wraps(jfn)
    def f(a, axis=None, out=None, keepdims=False, initial=None, where=None):
        if not keepdims and initial is None and where is None:
            r = jfn(a, axis)   # jax.numpy's fast call (keywords cost a slower dispatch)
        else:
            _check_axes(jfn.__name__, axis, a.ndim)
            _initial_fits(initial, a.dtype)
            r = jfn(a, axis=axis, keepdims=keepdims, initial=initial, where=where)
        kind = _onp.dtype(r.dtype).kind       # (cheaper than jnp's dtype predicates)
        if kind != "c" or where is not None or a.size == 0:
            return r
        t, axes = _reduced_last(a, axis)
        if initial is None:
            i = _complex_arg(jnp.argmax if is_max else jnp.argmin, is_max)(t, -1)
            r = jnp.take_along_axis(t, i[..., None], -1)[..., 0]
            return jnp.expand_dims(r, axes) if keepdims else r
        nan = jnp.isnan(t)
        first = jnp.take_along_axis(t, jnp.argmax(nan, -1)[..., None], -1)[..., 0]
        first = jnp.where(jnp.any(nan, -1), first, 0)
        if keepdims:
            first = jnp.expand_dims(first, axes)
        return jnp.where(jnp.isnan(first), first, r)
    return f


def _complex_arg(jfn, is_max):
    """argmax/argmin of complex input in NumPy's lexicographic order (real part,
    then imaginary part; the first NaN wins)."""
    @functools.wraps(jfn)
    def f(a, axis=None, out=None, keepdims=False):
        if not jnp.iscomplexobj(a):
            return jfn(a, axis=axis, keepdims=keepdims)
        r = _lexicographic_arg(jnp.real(a), jnp.imag(a), axis, keepdims, is_max)
        nan = jnp.isnan(a)
        first_nan = jnp.argmax(nan, axis=axis, keepdims=keepdims)
        return jnp.where(jnp.any(nan, axis=axis, keepdims=keepdims), first_nan, r)
    return f


def _lexicographic_arg(re, im, axis, keepdims, is_max):
    """The index of the lexicographic extreme of ``re + im j`` (real part, then
    imaginary part; the first of ties), on the parts: no complex operation is
    compiled (a TPU's compiler aborted on ``nanargmax`` of complex64 data)."""
    if axis is None:     # the flat index; keepdims keeps every axis as 1
        r = _lexicographic_arg(re.ravel(), im.ravel(), 0, False, is_max)
        return r.reshape((1,) * re.ndim) if keepdims else r
    best = jnp.max if is_max else jnp.min
    m = best(re, axis=axis, keepdims=True)
    inf = -jnp.inf if is_max else jnp.inf
    tied = re == m
    # the first of the tied real parts with the extreme imaginary part (a
    # filler would tie with an infinite one: max([0, 1-infj]) is 1-infj)
    mi = best(jnp.where(tied, im, inf), axis=axis, keepdims=True)
    return jnp.argmax(tied & (im == mi), axis=axis, keepdims=keepdims)


def _moment_in(name, a, axis, dtype, ddof, keepdims, where, in_place=False):
    """NumPy's ``_var``/``_std`` with an inexact ``dtype=`` other than the
    data's: the mean summed in ``dtype``; the deviations from it in the data's
    and ``dtype``'s common type (``var(float64 data, dtype=float32)`` keeps the
    data's precision there); their squares (of real data, ``x * x`` by
    NumPy's formula, complex ones too; of complex data the squared
    magnitudes) summed in ``dtype`` and divided by the count less ``ddof`` in
    ``dtype`` (a complex one by a complex count: ``inf / (n + 0j)`` is
    ``inf+nanj``, as NumPy's division).  Complex data into a real ``dtype``: the
    sum's cast drops the imaginary parts (NumPy's ComplexWarning), so the mean
    is the real parts'.  ``in_place``: the deviations are in the data's dtype
    (``_nanvar`` writes them into its copy of the data)."""
    dt = _onp.dtype(dtype)
    if a.dtype.kind == "c" and dt.kind != "c":
        warnings.warn(f"{name}: Casting complex values to real discards the imaginary "
                      "part", _onp.exceptions.ComplexWarning, stacklevel=4)
    m = exact_divide(jnp.sum(a if dt.kind == "c" else a.real, axis=axis, dtype=dt,
                             keepdims=True, where=where),
                     _count(a, axis, True, where).astype(dt))
    rt = _onp.result_type(a.dtype, dt)
    x = a.astype(rt) - m.astype(rt)
    xt = _onp.dtype(a.dtype) if in_place else rt
    x = x.astype(xt)
    if xt.kind != "c":
        sq = x * x
    elif a.dtype.kind != "c":       # (real data: NumPy squares the complex deviations)
        sq = lax.complex(*cmul(x.real, x.imag, x.real, x.imag))
    else:
        sq = x.real * x.real + x.imag * x.imag
    s = jnp.sum(sq, axis=axis, dtype=dt, keepdims=keepdims, where=where)
    v = exact_divide(s, jnp.maximum(_count(a, axis, keepdims, where) - ddof, 0).astype(dt))
    if not name.endswith("std"):
        return v
    return UFUNCS["sqrt"]._jfn(v) if dt.kind == "c" else jnp.sqrt(v)


def _moment_in_dtype(a, dtype, kw) -> bool:
    """Whether var/std of ``a`` take NumPy's steps of ``_moment_in``: an
    inexact ``dtype=`` other than the data's, or any complex one (a complex
    result, divided by a complex count)."""
    if dtype is None or kw or not config.numpy_dtypes():
        return False
    dt = _onp.dtype(dtype)
    return dt.kind == "c" or (dt.kind == "f" and _onp.dtype(a.dtype) != dt)


def _ddof(name, ddof, correction):
    """The ``ddof`` of var/std/nanvar/nanstd given ``ddof`` and the Array
    API's ``correction`` (its other name), at most one of them, as NumPy."""
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously.")
    return correction


def _nan_moment(jfn):
    """nanvar/nanstd with a real ``dtype=`` other than the data's as NumPy's
    ``_nanvar``: ``_moment_in`` over the values that are not NaN, NaN where
    the degrees of freedom are not positive."""
    @functools.wraps(jfn)
    def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
          correction=None, **kw):
        ddof = _ddof(jfn.__name__, ddof, correction)
        if not _moment_in_dtype(a, dtype, kw):
            return jfn(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                       where=where, **kw)
        ok = ~jnp.isnan(a)
        ok = ok if where is None else ok & where
        r = _moment_in(jfn.__name__, jnp.where(ok, a, 0), axis, dtype, ddof,
                       keepdims, ok, in_place=True)
        return jnp.where(_count(a, axis, keepdims, ok) - ddof > 0, r, jnp.nan)
    return f


@functools.partial(jax.jit, static_argnames=("name", "axis", "ddof", "keepdims"))
def _numpy_moment(a, where, *, name, axis, ddof, keepdims):
    """NumPy's ``_var``/``_std`` in the data's dtype (float64 for integers and
    bools): the mean and the variance each a sum over a count by the correctly
    rounded division (``jnp.var`` multiplies by reciprocals of constant counts,
    1 ulp off for ~40% of small-integer data), squared magnitudes of complex
    deviations as ``re * re + im * im``; ``ddof`` at least the count divides
    by 0 (inf, or NaN for a zero sum), as NumPy."""
    dt = a.dtype if jnp.issubdtype(a.dtype, jnp.inexact) else \
        jax.dtypes.canonicalize_dtype(jnp.float64)
    real = jnp.finfo(dt).dtype
    m = _mean_quotient(a, where, axis=axis, res=dt, keepdims=True, nan=False)
    x = a.astype(dt) - m
    sq = x.real * x.real + x.imag * x.imag if jnp.iscomplexobj(x) else x * x
    # each square rounded apart, as NumPy's (XLA would fuse it into the sum's FMA)
    s = jnp.sum(jax.lax.optimization_barrier(sq), axis=axis, keepdims=keepdims,
                where=where)
    v = exact_divide(s, jnp.maximum(_count(a, axis, keepdims, where) - ddof, 0).astype(real))
    return jnp.sqrt(v) if name == "std" else v


def _moment_ddof(jfn):
    """var/std with ``ddof`` at least the count: NumPy divides by 0 (inf, or
    NaN for a zero sum of squares); jnp gives NaN."""
    @functools.wraps(jfn)
    def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
          correction=None, **kw):
        ddof = _ddof(jfn.__name__, ddof, correction)
        if _integral(a, dtype) and not kw:
            return _integral_moment(jfn.__name__, a, axis, dtype, ddof, keepdims, where)
        if _moment_in_dtype(a, dtype, kw):
            return _moment_in(jfn.__name__, a, axis, dtype, ddof, keepdims, where)
        if not kw and config.numpy_dtypes() and (dtype is None or _onp.dtype(dtype) == a.dtype) \
                and a.dtype not in (jnp.float16, jnp.bfloat16):
            return _numpy_moment(a, where, name=jfn.__name__, ddof=ddof, keepdims=bool(keepdims),
                                 axis=tuple(axis) if isinstance(axis, list) else axis)
        r = jfn(a, axis=axis, dtype=dtype, ddof=0, keepdims=keepdims, where=where, **kw)
        if not ddof:
            return r
        ones = jnp.ones(jnp.shape(a), jnp.int64)
        n = jnp.sum(ones if where is None else jnp.where(where, ones, 0), axis=axis,
                    keepdims=keepdims)
        scale = n / jnp.maximum(n - ddof, 0)
        if jfn is jnp.std:
            return (r * jnp.sqrt(scale)).astype(r.dtype)
        return (r * scale).astype(r.dtype)
    return f


def _nan_arg(jfn):
    """nanargmax/nanargmin: an all-NaN slice raises NumPy's ValueError in an
    eager call (under jax.jit, JAX's -1)."""
    is_max = jfn is jnp.nanargmax

    @functools.wraps(jfn)
    def f(a, axis=None, out=None, keepdims=False):
        if jnp.iscomplexobj(a):     # NumPy's steps: a NaN is -inf (+inf) + 0j, then
            nan = jnp.isnan(a)      # argmax (argmin) in NumPy's order, on the parts
            r = _lexicographic_arg(jnp.where(nan, -jnp.inf if is_max else jnp.inf, a.real),
                                   jnp.where(nan, 0, a.imag), axis, keepdims, is_max)
            r = jnp.where(jnp.all(nan, axis=axis, keepdims=keepdims), -1, r)
        else:
            r = jfn(a, axis=axis, keepdims=keepdims)
        if not isinstance(a, jax.core.Tracer) and jnp.issubdtype(a.dtype, jnp.inexact) \
                and bool(jnp.any(r == -1)):
            raise ValueError(f"{jfn.__name__}: All-NaN slice encountered")
        return r
    return f


def _integral(a, dtype) -> bool:
    """Whether ``dtype=`` is an integer or bool type: NumPy then computes the
    moments' sums in that type (its own steps below; complex data cast by
    its real parts)."""
    return dtype is not None and _onp.dtype(dtype).kind in "biu" and \
        config.numpy_dtypes()


def _count(a, axis, keepdims, where):
    ones = jnp.ones(jnp.shape(a), jnp.int64)
    return jnp.sum(ones if where is None else jnp.where(where, ones, 0), axis=axis,
                   keepdims=keepdims)


def _quotient_in(s, n, dtype):
    """NumPy's ``true_divide(s, n)`` (float64, exactly rounded) cast unsafely into
    the integer or bool ``dtype`` (a NaN or infinite quotient: C's undefined
    cast, 0 here)."""
    q = _barrier_div(s.astype(jnp.float64), jnp.asarray(n, jnp.float64))
    if _onp.dtype(dtype) == bool:
        return q != 0
    return jnp.where(jnp.isfinite(q), q, 0).astype(dtype)


def _integral_mean(a, axis, dtype, keepdims, where):
    """NumPy's ``_mean`` with an integer or bool ``dtype``: the elements cast to
    it and summed there (wrapping), the sum divided in float64, cast back."""
    if jnp.iscomplexobj(a) and _onp.dtype(dtype) == bool:
        a = a != 0      # true where either part is (XLA's cast reads the real part)
    s = jnp.sum(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    return _quotient_in(s, _count(a, axis, keepdims, where), dtype)


def _integral_moment(name, a, axis, dtype, ddof, keepdims, where):
    """NumPy's ``_var``/``_std`` with an integer or bool ``dtype``: the mean in
    that type, the squared deviations summed in it, the sum divided and cast."""
    m = _integral_mean(a, axis, dtype, True, where)
    dt = _onp.result_type(a.dtype, dtype)
    if dt == bool:
        raise TypeError(f"{name}: numpy boolean subtract, the `-` operator, is not "
                        "supported, use the bitwise_xor, the `^` operator, or the "
                        "logical_xor function instead.")
    x = a.astype(dt) - m.astype(dt)
    sq = x.real * x.real + x.imag * x.imag if dt.kind == "c" else x * x
    s = jnp.sum(sq, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    v = _quotient_in(s, jnp.maximum(_count(a, axis, keepdims, where) - ddof, 0), dtype)
    if name == "var":
        return v
    root = _onp.sqrt(_onp.zeros(0, dtype)).dtype
    if v.ndim:      # NumPy's sqrt into the integer result array (a 0-d one is a scalar)
        raise TypeError(f"std: Cannot cast ufunc 'sqrt' output from {root!r} to "
                        f"{_onp.dtype(dtype)!r} with casting rule 'same_kind'")
    r = jnp.sqrt(v.astype(root)).astype(jnp.float64)
    return r != 0 if _onp.dtype(dtype) == bool else r.astype(dtype)


def _divided_mean(jfn, total):
    """mean/nanmean of inexact results: the sum (in the computation dtype:
    float32 for half precision) over the count by NumPy's division, correctly
    rounded (``jnp.mean``'s ``lax.div`` by a constant count becomes a
    multiplication by its reciprocal in XLA, 1 ulp off: ``mean([0, 0, 5])``);
    complex parts each over ``n`` as NumPy's complex division does (an
    infinite part makes the other NaN, ``mean([inf+infj])`` is ``nan+nanj``)."""
    @functools.wraps(jfn)
    def f(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None, **kw):
        res = _onp.dtype(dtype) if dtype is not None else (
            jnp.result_type(a) if jnp.issubdtype(jnp.result_type(a), jnp.inexact)
            else jax.dtypes.canonicalize_dtype(jnp.float64))
        if kw or not jnp.issubdtype(res, jnp.inexact):
            return jfn(a, axis, dtype, out, keepdims, where=where, **kw)
        if isinstance(axis, list):
            axis = tuple(axis)
        return _mean_quotient(a, where, axis=axis, res=res, keepdims=bool(keepdims),
                              nan=total is jnp.nansum)
    return f


@functools.partial(jax.jit, static_argnames=("axis", "res", "keepdims", "nan"))
def _mean_quotient(a, where, *, axis, res, keepdims, nan):
    comp = jnp.float32 if res in (jnp.float16, jnp.bfloat16) else res
    s = (jnp.nansum if nan else jnp.sum)(a, axis=axis, dtype=comp, keepdims=keepdims,
                                         where=where)
    if where is None and not nan:
        # every element counts: the count is the reduced size, a constant (a
        # count of ones reduced at run time was a 64-bit reduce in the program)
        shape = jnp.shape(a)
        axes = range(len(shape)) if axis is None else (axis,) if isinstance(axis, int) \
            else axis
        n = jnp.asarray(math.prod(shape[k] for k in axes), s.real.dtype)
        return exact_divide(s, n).astype(res)
    ok = ~jnp.isnan(a) if nan else jnp.ones(jnp.shape(a), bool)
    n = jnp.sum(ok if where is None else ok & where, axis=axis, keepdims=keepdims,
                dtype=jnp.int64 if config.numpy_dtypes() else None)
    return exact_divide(s, n.astype(s.real.dtype)).astype(res)


def _warn_empty_nanmean(jfn):
    """nanmean's "Mean of empty slice" warning, as NumPy's (eager calls)."""
    @functools.wraps(jfn)
    def f(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None, **kw):
        r = jfn(a, axis, dtype, out, keepdims, where=where, **kw)
        if not isinstance(r, jax.core.Tracer) and jnp.issubdtype(r.dtype, jnp.inexact) \
                and bool(jnp.isnan(r).any()):
            ok = ~jnp.isnan(a) if where is None else ~jnp.isnan(a) & where
            if bool((jnp.sum(ok, axis=axis, keepdims=keepdims) == 0).any()):
                warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        return r
    return f


def _mean_int(jfn):
    """mean with an integer ``dtype=``: NumPy's own steps (``_integral_mean``;
    XLA's integer division of an empty sum by 0 kills the process)."""
    @functools.wraps(jfn)
    def f(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None, **kw):
        if dtype is None and not keepdims and where is None and not kw:
            return jfn(a, axis)   # jax.numpy's fast call (keywords cost a slower dispatch)
        if _integral(a, dtype) and not kw:
            return _integral_mean(a, axis, dtype, keepdims, where)
        if dtype is not None and jnp.issubdtype(dtype, jnp.integer):
            r = jfn(a, axis=axis, dtype=jnp.float64 if config.numpy_dtypes() else None,
                    keepdims=keepdims, where=where, **kw)
            return jnp.where(jnp.isfinite(r), r, 0).astype(dtype)
        return jfn(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where, **kw)
    return f


def _empty_median(jfn):
    """median of an empty slice: NaN with NumPy's RuntimeWarning (jnp raises
    an XLA gather error)."""
    @functools.wraps(jfn)
    def f(a, axis=None, out=None, overwrite_input=False, keepdims=False):
        keepdims = keepdims and a.ndim > 0      # jnp gives a 0-d array shape (1,)
        if a.size == 0:
            shape = jnp.sum(jnp.zeros(a.shape, bool), axis=axis, keepdims=keepdims).shape
            if 0 not in shape:
                warnings.warn("Mean of empty slice", RuntimeWarning,
                              stacklevel=fperr._stacklevel())
                if jfn is jnp.median:   # NumPy's mean of the empty slice: 0/0 (nanmean: quiet)
                    fperr.report("scalar divide" if shape == () else "divide", 8,
                                 (8, _onp.geterr()))
            dt = a.dtype if jnp.issubdtype(a.dtype, jnp.inexact) else jnp.float64
            return jnp.full(shape, jnp.nan, dt)
        return _sorted_median(a, axis, keepdims, jfn is jnp.nanmedian)
    return f


def _sorted_median(a, axis, keepdims, skip_nan):
    """median/nanmedian as NumPy takes them: the middle value of the sorted
    slice, or the mean of the two middle ones (``jnp.median`` averaged one
    value with itself, which overflows: the median of ``[3e38]`` in float32
    was inf).  Complex data in NumPy's sort order: by real part, then
    imaginary part, values holding a NaN last (``a + nanj``, then ``nan +
    bj``, then ``nan + nanj``).  median: a slice holding a NaN gives its last
    value in that order; nanmedian: the NaNs are left out (a slice of NaNs
    only is NaN, with NumPy's RuntimeWarning)."""
    axes = tuple(range(a.ndim)) if axis is None else (
        tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))
    for ax in axes:
        if not -builtins.max(a.ndim, 1) <= ax < builtins.max(a.ndim, 1):
            raise _onp.exceptions.AxisError(
                f"{'nanmedian' if skip_nan else 'median'}: axis {ax} is out of bounds for "
                f"array of dimension {a.ndim}")
    axes = tuple(ax % a.ndim for ax in axes) if a.ndim else ()
    if len(set(axes)) < len(axes):
        raise ValueError(f"{'nanmedian' if skip_nan else 'median'}: repeated axis")
    r, k = _median_of(a, axes, keepdims, skip_nan)
    if skip_nan and not isinstance(k, jax.core.Tracer):
        warn_all_nan(k == 0)
    return r


def warn_all_nan(empty, stacklevel=5):
    """NumPy's "All-NaN slice encountered" RuntimeWarning of the nan order
    statistics (nanmedian, nanquantile, nanpercentile): one per slice of NaNs
    only (``empty``: true at each such slice; NumPy takes the slices one by
    one, a whole-array reduction is one slice)."""
    for _ in range(int(_onp.sum(_onp.asarray(empty)))):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=stacklevel)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _median_of(a, axes, keepdims, skip_nan):
    """``_sorted_median`` over the normalized ``axes``, compiled; and the count
    of values it took the middle of."""
    keep = [i for i in range(a.ndim) if i not in axes]
    t = jnp.transpose(a, keep + list(axes)).reshape(
        tuple(a.shape[i] for i in keep) + (-1,))
    if jnp.iscomplexobj(t):
        re, im = jnp.real(t), jnp.imag(t)
        nre, nim = jnp.isnan(re), jnp.isnan(im)
        cls = jnp.where(nre, 2, 0) + jnp.where(nim, 1, 0)
        cls = jnp.where(nre & ~nim, 2, jnp.where(~nre & nim, 1, cls))
        order = jnp.lexsort((jnp.where(nim, 0, im), jnp.where(nre, 0, re), cls), axis=-1)
        srt = jnp.take_along_axis(t, order, -1)
        nan = nre | nim
        ct = t.dtype
    else:
        srt = jnp.sort(t, axis=-1)      # (NaNs last)
        nan = jnp.isnan(t)
        # NumPy's mean of the middle values: in float64 for integers, float32
        # for half precision
        ct = t.dtype if t.dtype.kind == "f" and t.dtype.itemsize > 2 else (
            jnp.float32 if t.dtype.kind == "f" else jnp.result_type(float))
    n = t.shape[-1]
    if skip_nan:
        k = jnp.sum(~nan, axis=-1, keepdims=True)
    else:
        # (full_like: where t is partitioned over Explicit mesh axes, so is k)
        k = jnp.full_like(t[..., :1], n, dtype=jnp.asarray(n).dtype)
    lo = jnp.take_along_axis(srt, jnp.maximum((k - 1) // 2, 0), -1)[..., 0].astype(ct)
    hi = jnp.take_along_axis(srt, jnp.maximum(k // 2, 0) % n, -1)[..., 0].astype(ct)
    # NumPy's mean of the middle value(s): their sum over the count (a complex
    # division: an infinite part makes the other NaN)
    odd = (k[..., 0] % 2) == 1
    tot = jnp.where(odd, lo, lo + hi)
    r = exact_divide(tot, jnp.where(odd, 1, 2).astype(tot.real.dtype))
    if skip_nan:
        r = jnp.where(k[..., 0] == 0, jnp.asarray(jnp.nan, r.dtype), r)
    else:
        last = srt[..., -1].astype(r.dtype)
        r = jnp.where(jnp.isnan(last), last, r)
    r = r.astype(a.dtype if a.dtype.kind in "fc" else ct)
    if keepdims:
        r = jnp.expand_dims(r, axes)
    return r, k


def _scalar_axis(jfn, name):
    """NumPy's ufunc reductions take axis 0 (or -1) of a 0-d array as the whole
    array (``np.sum(np.float64(2), axis=0)`` is 2.0); another int is NumPy's
    ``AxisError``."""
    @functools.wraps(jfn)
    def f(a, axis=None, *args, **kw):
        if type(axis) is int and a.ndim == 0:
            if axis not in (0, -1):
                raise _onp.exceptions.AxisError(
                    f"{name}: axis {axis} is out of bounds for an array with 0 "
                    "positional dimensions")
            axis = None
        return jfn(a, axis, *args, **kw)
    return f


def _zero_d_axis(f):
    """``f`` with NumPy's answer to an int ``axis`` of a 0-d array: its
    ``AxisError``, unless a ``where=`` is given with axis 0 or -1 (NumPy then
    counts by a ufunc reduce, which takes it as the whole array)."""
    @functools.wraps(f)
    def g(a, axis=None, *args, **kw):
        if type(axis) is int:
            nd = getattr(a, "ndim", None)
            if nd is None:
                a = np_asarray(a)
                nd = a.ndim
            if nd == 0:
                if axis in (0, -1) and kw.get("where", True) is not True:
                    axis = None
                else:
                    raise _onp.exceptions.AxisError(
                        f"{f.__name__}: axis {axis} is out of bounds for an array with "
                        "0 positional dimensions")
        return f(a, axis, *args, **kw)
    return g


_SIGS = {n: inspect.signature(getattr(_onp, n)) for n in ("mean", "var", "std")}


def _empty_slice(f):
    """mean/var/std with NumPy's warnings that depend on the shape alone:
    "Mean of empty slice" where a slice has no element (mean), "Degrees of
    freedom <= 0 for slice" where it has ``ddof`` or fewer (var, std);
    positional arrays, integer axes and no ``where=`` (the counts are then
    known without reading data)."""
    name, sig = f.__name__, _SIGS[f.__name__]

    @functools.wraps(f)
    def g(*args, **kw):
        r = f(*args, **kw)
        a = args[0] if args else kw.get("a")
        if (type(a) is NamedArray or type(a) is View) and (a.names or a.mapped or (
                a.size and len(args) < 5 and not kw.get("ddof") and not kw.get("correction"))):
            return r    # (named, or no slice can be empty or within the default ddof)
        try:
            b = sig.bind(*args, **kw).arguments
        except TypeError:
            return r
        a, axis = b.get("a"), b.get("axis")
        if b.get("where", True) is not True or (isinstance(a, NamedArray) and type(
                a) not in (NamedArray, View)) or getattr(a, "names", ()) or getattr(
                    a, "mapped", ()):     # (a mask's selection: its size is the data's)
            return r
        shape = _onp.shape(a) if hasattr(a, "shape") else _onp.shape(np_asarray(a))
        try:    # (integer axes, as NumPy reads them: operator.index; names: no count)
            axes = range(len(shape)) if axis is None else [operator.index(k) for k in (
                axis if isinstance(axis, (tuple, list)) else (axis,))]
            n = math.prod(shape[k] for k in axes)
        except (TypeError, IndexError):
            return r
        if name == "mean":
            if n == 0:
                warnings.warn("Mean of empty slice", RuntimeWarning,
                              stacklevel=fperr._stacklevel())
        else:
            c = b.get("correction")
            ddof = b.get("ddof", 0) if c is None else c
            if isinstance(ddof, (int, float)) and ddof >= n:
                warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                              stacklevel=fperr._stacklevel())
        return r
    return g


def _mean_part(a, axis=None, dtype=None, keepdims=False, **kw):
    """What each instance of a map sums for a mean over mapped names: its part,
    in the mean's computation dtype (half precision sums in float32)."""
    if dtype is None and a.dtype in (jnp.float16, jnp.bfloat16):
        dtype = jnp.float32
    return jnp.sum(a, axis, dtype=dtype, keepdims=keepdims)


def _mean_of_parts(s, names, count):
    """The mean over names bound by nmap from each instance's sum of its
    ``count`` elements: one ``psum``, one division by the whole count, as the
    physical mean divides (a mean of means rounds twice, and a complex
    infinity would spread NaN to the other part twice)."""
    return UFUNCS["true_divide"](parallel.psum(s, names),
                                 count * parallel.axis_size(names, s))


def _moment(general, name):
    """var/std over names bound by nmap as two collective means (a small
    all-reduce each on a mesh) instead of gathering the whole axis; any other
    call is ``general``'s."""
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
        ddof = _ddof(name, ddof, correction)
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


def _exact_as(nan_f, f, name):
    """nanmean, nanvar, nanstd (``nan_f``) of bool or integer data (which has
    no NaN) are NumPy's mean, var, std (``f``): their ddof and 0-d axis rules
    included; inexact data takes an inexact ``dtype=`` only (NumPy's
    TypeError)."""
    @functools.wraps(nan_f)
    def g(a, *args, **kw):
        dt = getattr(a, "dtype", None)
        if dt is None:
            a = np_asarray(a)
            dt = a.dtype
        if _onp.dtype(dt).kind in "biu":
            return f(a, *args, **kw)
        want = kw.get("dtype", args[1] if len(args) > 1 else None)
        if want is not None and _onp.dtype(want).kind not in "fc":
            raise TypeError(f"{name}: If a is inexact, then dtype must be inexact "
                            f"(got dtype={_onp.dtype(want)} for {_onp.dtype(dt)} data)")
        r = nan_f(a, *args, **kw)
        if name != "nanmean" and not isinstance(getattr(r, "data", r), jax.core.Tracer) \
                and bool(jnp.isnan(getattr(r, "data", r)).any()):
            _warn_dof(name, a, args, kw)
        return r
    return g


_NANVAR = inspect.signature(_onp.nanvar)


def _warn_dof(name, a, args, kw):
    """NumPy's "Degrees of freedom <= 0 for slice." RuntimeWarning of nanvar
    and nanstd (once, where the values that are not NaN of some slice number
    ``ddof`` or fewer)."""
    b = _NANVAR.bind(a, *args, **kw).arguments
    ddof = b.get("correction") if b.get("correction") is not None else b.get("ddof", 0)
    ok = UFUNCS["logical_not"](UFUNCS["isnan"](a))
    if b.get("where") is not None:
        ok = UFUNCS["logical_and"](ok, b["where"])
    n = REDUCTIONS["sum"](ok, b.get("axis"))
    if bool(jnp.any(jnp.asarray(n.data) <= ddof)):
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=3)


# name -> the collective of its row (None: a name bound by nmap is gathered first)
_COLLECTIVE: dict = {}


def _reduction(name, engine, collective=None, *, scalar_axis=False, moments=False,
               zero_d_axis=False, empty_slice=False, exact_as=None, **options):
    """The reduction ``name`` run by ``engine`` (a ``jax.numpy`` twin taking
    ``(data, axis, ...)``), its NumPy signature and result dtype by
    ``reduction``; ``collective`` and ``options`` as ``reduction`` takes them.
    The row's rules, always in this order:

    * ``scalar_axis``: axis 0 or -1 of a 0-d array is the whole array (the
      reductions NumPy builds on a ufunc's reduce);
    * ``moments``: var/std over mapped names by two collective means;
    * ``zero_d_axis``: an int axis of a 0-d array is NumPy's AxisError;
    * ``empty_slice``: NumPy's warnings of an empty slice (mean, var, std);
    * ``exact_as``: bool and integer data take that (final) function.
    """
    _COLLECTIVE[name] = collective
    f = reduction(_scalar_axis(engine, name) if scalar_axis else engine, name, collective,
                  **options)
    if moments:
        f = _moment(f, name)
    if zero_d_axis:
        f = _zero_d_axis(f)
    if empty_slice:
        f = _empty_slice(f)
    if exact_as is not None:
        f = _exact_as(f, exact_as, name)
    return f


def _cumulative(name):
    """The cumulative function ``name`` along an axis (a named axis is kept),
    accumulating in NumPy's result dtype."""
    return wrap(numpy_args(numpy_typed(name), name), name, named="keep")


# -- the reductions (from here on, ``sum``, ``max``, ``any``, ... name these)
sum = _reduction("sum", jnp.sum, parallel.psum, scalar_axis=True)
prod = _reduction("prod", whole_axes(from_identity(jnp.prod)), parallel.pprod,
                  scalar_axis=True)
mean = _reduction("mean", _mean_int(_divided_mean(jnp.mean, jnp.sum)), _mean_of_parts,
                  local=_mean_part, zero_d_axis=True, empty_slice=True)
max = _reduction("max", _complex_nan(jnp.max, True), parallel.pmax, scalar_axis=True)
min = _reduction("min", _complex_nan(jnp.min, False), parallel.pmin, scalar_axis=True)
amax = _reduction("amax", _complex_nan(jnp.amax, True), parallel.pmax, scalar_axis=True)
amin = _reduction("amin", _complex_nan(jnp.amin, False), parallel.pmin, scalar_axis=True)
any = _reduction("any", _truth(jnp.any), parallel.pany, scalar_axis=True)
all = _reduction("all", _truth(jnp.all), parallel.pall, scalar_axis=True)
nansum = _reduction("nansum", jnp.nansum, parallel.psum, scalar_axis=True)
nanmax = _reduction("nanmax", _nan_extreme(jnp.nanmax, True), scalar_axis=True)
nanmin = _reduction("nanmin", _nan_extreme(jnp.nanmin, False), scalar_axis=True)
nanprod = _reduction("nanprod", whole_axes(from_identity(jnp.nanprod, nan=True)),
                     parallel.pprod,
                     scalar_axis=True)
count_nonzero = _reduction("count_nonzero", jnp.count_nonzero, parallel.psum,
                           scalar_axis=True)
logsumexp = _reduction("logsumexp", _logsumexp, _logsumexp_coll)
std = _reduction("std", _moment_ddof(jnp.std), moments=True, zero_d_axis=True,
                 empty_slice=True)
var = _reduction("var", _moment_ddof(jnp.var), moments=True, zero_d_axis=True,
                 empty_slice=True)
nanstd = _reduction("nanstd", _nan_moment(jnp.nanstd), scalar_axis=True, exact_as=std)
nanvar = _reduction("nanvar", _nan_moment(jnp.nanvar), scalar_axis=True, exact_as=var)
nanmean = _reduction("nanmean", _warn_empty_nanmean(_divided_mean(jnp.nanmean, jnp.nansum)),
                     scalar_axis=True, exact_as=mean)
ptp = _reduction("ptp", _ptp, scalar_axis=True)
median = _reduction("median", whole_axes(_empty_median(jnp.median)), zero_d_axis=True)
nanmedian = _reduction("nanmedian", whole_axes(_empty_median(jnp.nanmedian)),
                       zero_d_axis=True)
argmax = _reduction("argmax", _complex_arg(jnp.argmax, True), flat_none=True,
                    takes_tuple=False, scalar_axis=True)
argmin = _reduction("argmin", _complex_arg(jnp.argmin, False), flat_none=True,
                    takes_tuple=False, scalar_axis=True)
nanargmax = _reduction("nanargmax", _nan_arg(jnp.nanargmax), flat_none=True,
                       takes_tuple=False, scalar_axis=True)
nanargmin = _reduction("nanargmin", _nan_arg(jnp.nanargmin), flat_none=True,
                       takes_tuple=False, scalar_axis=True)

for _f in (mean, nanmean, var, nanvar, std, nanstd, median, nanmedian):
    _f.computes = FLOATS     # (bool and integer data in float64)
del _f

REDUCTIONS = {
    "sum": sum, "prod": prod, "mean": mean, "max": max, "min": min, "amax": amax,
    "amin": amin, "any": any, "all": all, "nansum": nansum, "nanmax": nanmax,
    "nanmin": nanmin, "nanprod": nanprod, "count_nonzero": count_nonzero,
    "logsumexp": logsumexp, "std": std, "var": var, "nanstd": nanstd, "nanvar": nanvar,
    "nanmean": nanmean, "ptp": ptp, "median": median, "nanmedian": nanmedian,
    "argmax": argmax, "argmin": argmin, "nanargmax": nanargmax, "nanargmin": nanargmin,
}

# the reduction each ufunc's reduce is (np.add.reduce is np.sum's engine)
REDUCE_OF_UFUNC.update(add=sum, multiply=prod, maximum=max, minimum=min, logical_and=all,
                       logical_or=any)

# -- the cumulative functions
cumsum = _cumulative("cumsum")
cumprod = _cumulative("cumprod")
nancumsum = _cumulative("nancumsum")
nancumprod = _cumulative("nancumprod")
cumulative_sum = _cumulative("cumulative_sum")
cumulative_prod = _cumulative("cumulative_prod")


__all__ = sorted(REDUCTIONS) + ["cumprod", "cumsum", "cumulative_prod", "cumulative_sum",
                                "nancumprod", "nancumsum", "REDUCTIONS"]

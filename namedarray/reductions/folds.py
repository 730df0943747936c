"""NumPy's order of a running total and of a complex product, where XLA's
order gives other special values (the rows of ``reductions/table.py`` use
them).

NumPy's loops fold left to right: ``cumsum`` that overflows stays ``inf``
where XLA's tree-ordered scan can meet the opposite infinity first (NaN); a
complex product with an infinite part depends on the order and on whether
the identity ``1+0j`` is multiplied in.  These functions follow NumPy's loop
where the result could differ, and keep XLA's otherwise.

>>> import jax.numpy as jnp
>>> numpy_typed("cumsum")(jnp.array([1e308, 1e308, -1e308]))
Array([1.e+308,     inf,     inf], dtype=float64)
"""
from __future__ import annotations

import builtins
import functools
import inspect
import math

import jax
import jax.numpy as jnp
import numpy as _onp
from jax import lax

from ..core import config
from ..core.array import normalize_axis
from ..frontend.engines.loops import cmul, running
from .engine import index_axis, numpy_dtype


_PRODUCTS = ("cumprod", "nancumprod", "cumulative_prod")


def _running_total(name, a, axis, dtype, include_initial=False):
    """A running sum or product (``name``'s) formed as NumPy's loop forms it:
    left to right, the first element as it is, NaNs of the ``nan*`` forms as
    the identity.  (XLA's scan combines in a tree order, starting from the
    identity: a complex product with an infinite part depends on both,
    ``cumprod([infj])`` was ``nan+infj`` there, and a sum that overflows
    meets the opposite infinity, NaN where NumPy's running sum stays
    ``inf``.)"""
    if dtype is not None:
        a = a.astype(dtype)
    if axis is None:
        if name.startswith("cumulative") and a.ndim > 1:
            return getattr(jnp, name)(a, axis=axis)       # (jnp's error)
        a, axis = a.ravel(), 0
    axis = normalize_axis(name, axis, a.ndim)
    product = name in _PRODUCTS
    if name.startswith("nan"):
        a = jnp.where(jnp.isnan(a), jnp.ones((), a.dtype) if product else
                      jnp.zeros((), a.dtype), a)
    return _running(a, axis, bool(include_initial), product)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _running(a, axis, include_initial, product):
    x = running(jnp.multiply if product else jnp.add, a, axis)
    if include_initial:
        edge = x.shape[:axis] + (1,) + x.shape[axis + 1:]
        x = jnp.concatenate([jnp.ones(edge, x.dtype) if product else
                             jnp.zeros(edge, x.dtype), x], axis=axis)
    return x


def _overflowed(name, a, axis, dtype, r, kw):
    """Whether XLA's cumulative ``r`` may differ from NumPy's running one: a
    value of it not finite before the data's first NaN (an overflow, or an
    infinity met, where the tree order can cancel to NaN)."""
    if name.startswith("nan"):
        seen = False
    else:
        count = jnp.cumulative_sum if name.startswith("cumulative") else jnp.cumsum
        seen = count(jnp.isnan(a).astype(jnp.int32), axis=axis, **kw) > 0
    return jnp.any(~jnp.isfinite(r) & ~seen)


def numpy_typed(name):
    """The jax.numpy cumulative function, accumulating in NumPy's dtype; a
    complex product, and an inexact one XLA's order overflowed, as NumPy's
    running one (``_running_total``)."""
    jfn, np_fn = getattr(jnp, name), getattr(_onp, name)

    def f(a, axis=None, dtype=None, **kw):
        axis = index_axis(axis)
        if not hasattr(a, "dtype"):        # a Python scalar or list: NumPy's asarray
            a = jnp.asarray(_onp.asarray(a))
        if dtype is None and config.numpy_dtypes():
            dtype = numpy_dtype(name, np_fn, a.dtype, None, ())
        if a.ndim == 0 and (name.startswith("cumulative") or (
                type(axis) is int and axis in (0, -1))):
            # NumPy accumulates a 0-d array as its 1-d view (axis 0 or -1; the
            # Array API's cumulative functions take any 0-d input)
            a, axis = a.reshape(1), 0 if axis in (None, 0, -1, (0,), (-1,)) else axis
        rt = jnp.result_type(a.dtype, *(() if dtype is None else (dtype,)))
        if name in _PRODUCTS and jnp.issubdtype(rt, jnp.complexfloating):
            return _running_total(name, a, axis, dtype, **kw)
        r = jfn(a, axis=axis, dtype=dtype, **kw)
        if not jnp.issubdtype(r.dtype, jnp.inexact) or not r.size:
            return r
        x = a if dtype is None else a.astype(dtype)
        bad = _overflowed(name, x, axis, dtype, r, kw)
        if not isinstance(bad, jax.core.Tracer):       # eager: the running one if needed
            return _running_total(name, a, axis, dtype, **kw) if bool(bad) else r
        return lax.cond(bad, lambda: _running_total(name, a, axis, dtype, **kw),
                        lambda: r)
    f.__name__ = name
    f.__signature__ = inspect.signature(np_fn)      # (out= is the wrapper's)
    return f


def from_identity(jfn, nan=False):
    """``jnp.prod``/``jnp.nanprod`` (``nan``) whose complex product is NumPy's
    fold: from the identity (or ``initial=``), each element ``where=`` selects
    multiplied in order by NumPy's formula.  A lone element is NumPy's ``(1+0j)
    * x``, which turns an infinite part's partner into NaN (``prod([nan+infj])``
    is ``nan+nanj``, ``nanprod([1+infj])`` ``nan+infj``), where XLA returns the
    element as it is; with ``initial=`` or ``where=`` the unselected elements
    are not multiplied at all (XLA's 1+0j in their place would turn an
    infinite ``initial`` into NaN parts).  (Longer products without either
    multiply in XLA's loop, as NumPy's.)"""
    @functools.wraps(jfn)
    def f(d, axis=None, dtype=None, *args, **kwargs):
        if not args and kwargs.get("out") is None and (
                kwargs.get("initial") is not None or kwargs.get("where") is not None) and \
                jnp.issubdtype(d.dtype if dtype is None else jnp.dtype(dtype),
                               jnp.complexfloating):
            return _complex_fold(d, axis, dtype, nan, **kwargs)
        r = jfn(d, axis, dtype, *args, **kwargs)
        if not jnp.issubdtype(r.dtype, jnp.complexfloating) or args or builtins.any(
                kwargs.get(k) is not None for k in ("initial", "where", "out")):
            return r
        axes = range(d.ndim) if axis is None else (
            axis if isinstance(axis, (tuple, list)) else (axis,))
        if math.prod(d.shape[k] for k in axes) != 1:
            return r
        zero = jnp.zeros((), r.real.dtype)
        return lax.complex(r.real - zero * r.imag, r.imag + zero * r.real)
    return f


def _complex_fold(d, axis, dtype, nan, keepdims=False, initial=None, where=None, **_):
    """NumPy's complex product reduction: from ``initial`` (the identity 1+0j
    if none) each element ``where`` selects multiplied in, in C order of the
    reduced axes, by NumPy's formula (``loops.cmul``); ``nan``: NaNs count as
    one (``nanprod``)."""
    if dtype is not None:
        d = d.astype(dtype)
    if nan:
        d = jnp.where(jnp.isnan(d), jnp.ones((), d.dtype), d)
    axes = tuple(range(d.ndim)) if axis is None else tuple(
        normalize_axis("prod", a, d.ndim) for a in (
            axis if isinstance(axis, (tuple, list)) else (axis,)))
    keep = tuple(i for i in range(d.ndim) if i not in axes)
    w = jnp.ones(d.shape, bool) if where is None else jnp.broadcast_to(
        jnp.asarray(where, bool), d.shape)
    out_shape = tuple(d.shape[i] for i in keep)
    x = jnp.transpose(d, axes + keep).reshape(
        (math.prod(d.shape[i] for i in axes),) + out_shape)
    m = jnp.transpose(w, axes + keep).reshape(x.shape)

    def step(c, v):
        xv, mv = v
        re, im = cmul(c.real, c.imag, xv.real, xv.imag)
        return jnp.where(mv, lax.complex(re, im), c), None
    start = jnp.broadcast_to(jnp.asarray(1 if initial is None else initial, d.dtype),
                             out_shape)
    r, _ = lax.scan(step, start, (x, m))
    return jnp.expand_dims(r, axes) if keepdims else r

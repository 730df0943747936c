"""Sorting: ``sort`` and ``argsort`` (stable; ``axis`` may name an axis, which
is kept), ``top_k`` (``jax.lax.top_k``; a named axis is consumed), ``partition`` and ``argpartition`` (``kth`` counted from the end when
negative, or a sequence of positions), ``lexsort`` and ``sort_complex``.
``searchsorted``, ... are declared in the table (``namedarray/namespace.py``),
``unique`` with the set routines (``frontend/setops.py``).

>>> import namedarray as np
>>> np.sort(np.array([[3, 1], [2, 0]]).tag("i", None), axis="i").untag("i")
array([[2, 0],
       [3, 1]])
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import NamedArray, canonical, new, rewrap
from ..core.sharding import mesh_axes, sortable
from .creation import asarray
from .engines.declare import _decl
from .engines.dispatch import COMPLEXES
from .engines.generic import generic, wrap


_KINDS = ("quicksort", "mergesort", "heapsort", "stable", None)


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """``numpy.sort`` (stable); ``axis`` may name an axis (sorted along it, name
    kept); ``descending=True`` sorts from largest to smallest, equal elements
    keeping their order (the Array API's ``sort``).

    >>> import namedarray as np
    >>> np.sort(np.array([1, 3, 2]), descending=True)
    array([3, 2, 1])
    """
    return _SORT("sort", a, axis, kind, order, stable, descending)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """``numpy.argsort`` (stable); ``axis`` may name an axis; ``descending=True``
    as in ``sort``.

    >>> import namedarray as np
    >>> np.argsort(np.array([1, 3, 1]), descending=True)
    array([1, 0, 2])
    """
    return _SORT("argsort", a, axis, kind, order, stable, descending)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.partition``: the element at each ``kth`` position is where a sort
    would put it, smaller ones before, larger after.  ``kth`` may be negative
    (from the end) or a sequence; ``axis`` may name an axis (name kept).

    >>> import namedarray as np
    >>> np.partition(np.array([-1, -1, 0]), -1)
    array([-1, -1,  0])
    """
    return _PARTITION("partition", a, kth, axis, kind, order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.argpartition``: the indices that would partition ``a`` (see
    ``partition``).

    >>> import namedarray as np
    >>> np.argpartition(np.array([3, 1, 2]), -1)[-1]
    np.int64(0)
    """
    return _PARTITION("argpartition", a, kth, axis, kind, order)


def top_k(x, k, axis=-1):
    """``jax.lax.top_k``: ``(values, indices)`` of the ``k`` largest entries
    along ``axis`` (lower index first among equals), on a last positional axis
    of length ``k``.  ``axis`` may name an axis: it is consumed (gathered
    first where a map binds it) and the indices count along it.

    >>> import namedarray as np
    >>> x = np.array([[1., 5., 3.], [4., 0., 2.]]).tag("b", "vocab")
    >>> v, i = np.top_k(x, 2, axis="vocab")
    >>> v.untag("b"), i.untag("b")
    (array([[5., 3.],
           [4., 2.]]), array([[1, 2],
           [0, 2]], dtype=int32))
    """
    if not isinstance(k, (int, onp.integer)) or isinstance(k, bool) or k < 0:
        raise ValueError(f"top_k: k must be a non-negative integer, got {k!r}")
    if isinstance(x, NamedArray) and isinstance(axis, str) and axis in x.dims and \
            axis not in dict(x.mapped) and not any(mesh_axes(x.data)):
        return _top_k_where_it_lies(x, int(k), x.dims.index(axis))
    return _TOP_K(x, int(k), axis=axis)


def _top_k_where_it_lies(x, k, dim):
    """``top_k`` along a whole named axis that is physical dimension ``dim``:
    one ``lax.top_k`` along that dimension, as ``jax.numpy`` code runs it on
    the same layout (``probs`` laid out (batch, seq, expert) is ranked along
    its last dimension), the results laid out with the new positional axis
    of length ``k`` last among the positional ones.  The generic route would
    move the name in front of the other names first, and ``lax.top_k``
    along a leading dimension lowers as a transpose, the top-k of the
    transposed operand, and a transpose back."""
    dims = x.dims[:dim] + (None,) + x.dims[dim + 1:]
    return tuple(new(*canonical(r, dims), x.mapped)
                 for r in jax.lax.top_k(x.data, k, axis=dim))


def _lax_top_k(operand, k, axis=-1):
    return tuple(jax.lax.top_k(operand, k, axis=axis))


_TOP_K = wrap(_lax_top_k, "top_k", named="reduce")


def _check_kth(fn, kth, n):
    """NumPy's checks of ``kth`` (ints in ``[-n, n)``) for an axis of length ``n``."""
    ks = tuple(onp.atleast_1d(onp.asarray(kth)).ravel().tolist())
    if not all(isinstance(k, int) and not isinstance(k, bool) for k in ks):
        raise TypeError(f"{fn}: kth must be an integer or a sequence of integers, "
                        f"got {kth!r}")
    for k in ks:
        if not -n <= k < n:
            raise ValueError(f"{fn}: kth(={k + n if k < 0 else k}) out of bounds ({n})")


def _operand(fn, a, axis, order, verb):
    """``a`` as a NamedArray, after the checks sorting and partitioning share."""
    if order is not None:
        raise ValueError(f"{fn}: order= {verb} structured arrays, which namedarray does "
                         "not have")
    x = asarray(a)
    if axis is None and x.names:
        raise ValueError(f"{fn}: axis=None flattens the positional axes; the array also "
                         f"has named axes {x.named_shape}, which stay")
    return rewrap(x, sortable(x.data))


def _PARTITION(fn, a, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"{fn}: kind must be 'introselect', got {kind!r}")
    x = _operand(fn, a, axis, order, "partitions")

    def run(d, axis=-1):
        if axis is None:
            d, axis = d.ravel(), 0
        n = d.shape[axis]
        if d.size == 0:     # NumPy checks no kth against an empty array
            return d.astype(onp.intp) if fn == "argpartition" else d
        _check_kth(fn, kth, n)
        # a stable sort puts every kth where it belongs; jax.numpy's partition
        # negates the values (wrong at the integer minimum) and takes one kth
        return (jnp.argsort if fn == "argpartition" else jnp.sort)(d, axis=axis,
                                                                    stable=True)

    res = wrap(run, fn, named="keep")(x, axis=axis)
    return res.astype(onp.intp) if fn == "argpartition" and config.numpy_dtypes() else res


def _SORT(fn, a, axis, kind, order, stable, descending=False):
    if kind not in _KINDS:
        raise ValueError(f"{fn}: kind must be one of {_KINDS[:-1]}, got {kind!r}")
    x = _operand(fn, a, axis, order, "sorts")
    if fn == "argsort" and x.ndim == 0 and type(axis) is int and axis in (0, -1):
        axis = None     # NumPy's argsort takes axis 0 of a 0-d array as its 1-d view
    jfn = getattr(jnp, fn)
    f = wrap(lambda d, axis=-1: jfn(d, axis=axis, stable=True, descending=bool(descending)),
             fn, named="keep")
    res = f(x, axis=axis)
    return res.astype(onp.intp) if fn == "argsort" and config.numpy_dtypes() else res


_lexsort = _decl("lexsort")


# jax.numpy: an axis out of range is not NumPy's AxisError
def lexsort(keys, axis=-1):
    """``numpy.lexsort``; an ``axis`` outside the keys' dimensions raises
    ``AxisError`` (a 1-d ``keys`` is a sequence of 0-d keys)."""
    k = keys if isinstance(keys, (list, tuple)) else asarray(keys)
    if len(k) == 0:
        raise TypeError("lexsort: need a sequence of keys with len > 0")
    nd = (asarray(k[0]).ndim if len(k) else 1) if isinstance(k, (list, tuple)) else max(
        k.ndim - 1, 0)
    if isinstance(axis, int) and not -max(nd, 1) <= axis < max(nd, 1):
        raise onp.exceptions.AxisError(f"lexsort: axis {axis} is out of bounds for array "
                                       f"of dimension {nd}")
    return _lexsort(keys, axis)


def _complex_of(dt):
    """``numpy.sort_complex``'s result dtype for real data."""
    dt = onp.dtype(dt)
    if dt.kind == "c":
        return dt
    return onp.dtype(onp.complex64 if dt.char in "bhBH" else onp.complex128)


# jax.numpy: another dtype for small integers, another order of NaNs
def sort_complex(a):
    """``numpy.sort_complex``: sorted along the last axis, as ``complex64``
    for int8/int16/uint8/uint16 data and ``complex128`` for other real data."""
    x = asarray(a)
    want = _complex_of(x.dtype)
    return generic("sort_complex", lambda d: _complex_sorted(d).astype(want), (x,), {})


def _complex_sorted(d):
    """Sorted along the last axis in NumPy's order; complex values by where
    their NaNs are (``R + Rj``, ``R + nanj``, ``nan + Rj``, ``nan + nanj``),
    then by the parts that are not NaN."""
    if d.dtype.kind != "c":
        return jnp.sort(d, axis=-1)
    re, im = d.real, d.imag
    group = jnp.isnan(im).astype(onp.int8) + 2 * jnp.isnan(re).astype(onp.int8)
    keys = (jnp.where(jnp.isnan(im), 0, im), jnp.where(jnp.isnan(re), 0, re), group)
    return jnp.take_along_axis(d, jnp.lexsort(keys, axis=-1), axis=-1)


sort_complex.computes = COMPLEXES

__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

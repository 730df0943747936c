"""``numpy.lib.stride_tricks``: ``sliding_window_view`` and ``as_strided``.

JAX arrays do not share memory, so these are gathers: the values are NumPy's,
and the result is read-only (a write raises ``ValueError``, as writing into
NumPy's read-only views does).

>>> import namedarray as np
>>> np.lib.stride_tricks.sliding_window_view(np.arange(5), 3)
array([[0, 1, 2],
       [1, 2, 3],
       [2, 3, 4]])
"""
from __future__ import annotations

import operator

import jax.numpy as jnp
import numpy as onp

from ..core.array import normalize_axis, positional
from ..core.derived import read_only
from .creation import asarray
from .engines.generic import generic
from .engines.results import check_fits


def _ints(fn, arg, v):
    try:
        return tuple(operator.index(i) for i in (v if onp.iterable(v) else (v,)))
    except TypeError:
        raise TypeError(f"{fn}: {arg} must be an int or a tuple of ints, got {v!r}") from None


#: what a result larger than the machine means here (NumPy's is a view)
_COPIES = (" (NumPy's result is a view of x that takes no memory; namedarray's is a "
           "read-only copy, which must fit)")


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """``numpy.lib.stride_tricks.sliding_window_view``: every window of
    ``window_shape`` over the positional ``axis`` (all axes by default), the
    window's axes last; named axes ride along.  Read-only.

    >>> import namedarray as np
    >>> np.lib.stride_tricks.sliding_window_view(np.arange(6).reshape(2, 3), 2, axis=1)
    array([[[0, 1],
            [1, 2]],
    <BLANKLINE>
           [[3, 4],
            [4, 5]]])
    """
    fn = "sliding_window_view"
    if writeable:
        raise ValueError(f"{fn}: writeable=True asks for a view that writes into x; "
                         "namedarray arrays do not share memory, so the windows are a "
                         "read-only copy (write into x itself)")
    a = asarray(x)
    window = _ints(fn, "window_shape", window_shape)
    if any(w < 0 for w in window):
        raise ValueError(f"{fn}: `window_shape` cannot contain negative values, got "
                         f"{window}")
    if axis is None:
        if len(window) != a.ndim:
            raise ValueError(f"{fn}: Since axis is `None`, must provide window_shape for "
                             f"all dimensions of `x`; got {len(window)} window_shape "
                             f"elements and `x.ndim` is {a.ndim}.")
        axes = tuple(range(a.ndim))
    else:
        axes = tuple(normalize_axis(fn, i, a.ndim) for i in _ints(fn, "axis", axis))
        if len(window) != len(axes):
            raise ValueError(f"{fn}: Must provide matching length window_shape and axis; "
                             f"got {len(window)} window_shape elements and {len(axes)} "
                             "axes elements.")
    shape = list(a.shape)
    for ax, w in zip(axes, window):
        if shape[ax] < w:
            raise ValueError(f"{fn}: window shape cannot be larger than input array "
                             f"shape (window {window} over axes {axes} of shape {a.shape})")
        shape[ax] -= w - 1
    check_fits(fn, (*shape, *window), a.dtype, _COPIES)

    def windows(d):
        for ax, w in zip(axes, window):
            n = d.shape[ax] - w + 1
            idx = onp.arange(n)[:, None] + onp.arange(w)[None, :]
            d = jnp.moveaxis(jnp.take(d, jnp.asarray(idx), axis=ax), ax + 1, -1)
        return d

    r = generic(fn, windows, (a,), {})
    return read_only(r, fn)


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """``numpy.lib.stride_tricks.as_strided`` over ``x``'s C-ordered elements
    (byte strides as NumPy reads them).  Strides that reach outside ``x`` raise
    ``ValueError`` (NumPy would read foreign memory).  Read-only.

    >>> import namedarray as np
    >>> np.lib.stride_tricks.as_strided(np.arange(4), shape=(3, 2), strides=(8, 8))
    array([[0, 1],
           [1, 2],
           [2, 3]])
    """
    fn = "as_strided"
    a = asarray(x)
    if a.names or a.mapped:
        raise TypeError(f"{fn}: the array has named axes {a.named_shape}; strides address "
                        "positional memory, untag them first")
    item = a.dtype.itemsize
    shape = a.shape if shape is None else _ints(fn, "shape", shape)
    if strides is None:
        strides = onp.empty(0, a.dtype).strides if not shape else onp.empty(
            shape, a.dtype).strides
    strides = _ints(fn, "strides", strides)
    if len(strides) != len(shape):
        raise ValueError(f"{fn}: shape {shape} and strides {strides} differ in length")
    if any(s % item for s in strides):
        raise ValueError(f"{fn}: strides {strides} are not multiples of the itemsize "
                         f"{item} of {a.dtype}")
    check_fits(fn, shape, onp.dtype(onp.intp) if item < 8 else a.dtype, _COPIES)
    idx = onp.zeros(shape, onp.intp)
    for k, (n, s) in enumerate(zip(shape, strides)):
        step = onp.arange(n, dtype=onp.intp) * (s // item)
        idx = idx + step.reshape((n,) + (1,) * (len(shape) - k - 1))
    if idx.size and (idx.min() < 0 or idx.max() >= a.size):
        raise ValueError(f"{fn}: shape {shape} with strides {strides} reaches element "
                         f"{int(idx.max() if idx.max() >= a.size else idx.min())} of an "
                         f"array of {a.size} elements")
    data = jnp.ravel(a.data)[jnp.asarray(idx)] if idx.size else jnp.zeros(shape, a.dtype)
    return read_only(positional(data), fn)


__all__ = ["as_strided", "sliding_window_view"]

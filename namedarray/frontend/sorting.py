"""Sorting: ``sort`` and ``argsort`` (stable; ``axis`` may name an axis, which
is kept).  ``partition``, ``searchsorted``, ``unique``, ... are declared in the
table (``frontend/namespace.py``).

>>> import namedarray as np
>>> np.sort(np.array([[3, 1], [2, 0]]).tag("i", None), axis="i").untag("i")
array([[2, 0],
       [3, 1]])
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core import config
from .creation import asarray
from .engines.generic import wrap


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


def _SORT(fn, a, axis, kind, order, stable, descending=False):
    if kind not in _KINDS:
        raise ValueError(f"{fn}: kind must be one of {_KINDS[:-1]}, got {kind!r}")
    if order is not None:
        raise ValueError(f"{fn}: order= sorts structured arrays, which namedarray does "
                         "not have")
    x = asarray(a)
    if axis is None and x.names:
        raise ValueError(f"{fn}: axis=None flattens the positional axes; the array also "
                         f"has named axes {x.named_shape}, which stay")
    jfn = getattr(jnp, fn)
    f = wrap(lambda d, axis=-1: jfn(d, axis=axis, stable=True, descending=bool(descending)),
             fn, named="keep")
    res = f(x, axis=axis)
    return res.astype(onp.intp) if fn == "argsort" and config.numpy_dtypes() else res


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

"""Set routines (NumPy's ``numpy/lib/_arraysetops_impl.py``): ``unique``,
``intersect1d``, ``union1d``, ``setxor1d``, ``isin``, ``ediff1d``, in NumPy's
dtypes and with NumPy's answers where ``jax.numpy``'s differ.

>>> import namedarray as np
>>> np.union1d(np.asarray([1, 3], dtype=np.int8), np.asarray([2.5]))
array([1. , 2.5, 3. ])
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, operand, positional
from .engines.args import numpy_args
from .engines.generic import wrap
from .engines.masks import _to_device, traced
from .engines.selection import padded


_junique = wrap(numpy_args(jnp.unique, "unique"), "unique")


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True, **kwargs):
    """``numpy.unique``: found on the host for a concrete positional array (one
    transfer, no compilation per count); ``jax.numpy.unique`` otherwise (its
    ``size=`` gives a static size under ``jax.jit``).

    >>> import namedarray as np
    >>> np.unique(np.asarray([3, 1, 3, 2]), return_counts=True)
    (array([1, 2, 3]), array([1, 1, 2]))
    """
    x = operand(ar) if not isinstance(ar, (list, tuple)) else positional(
        _to_device(onp.asarray(ar)))
    if kwargs or not isinstance(x, NamedArray) or x.names or x.mapped or traced(x.data):
        return _junique(ar, return_index, return_inverse, return_counts, axis,
                        equal_nan=equal_nan, sorted=sorted, **kwargs)
    r = onp.unique(onp.asarray(x.data), return_index, return_inverse, return_counts, axis,
                   equal_nan=equal_nan, sorted=sorted)
    if axis is not None and normalize_axis("unique", axis, x.ndim) != 0:
        # the values' data-dependent length is not their first axis: exact arrays
        return (tuple(positional(_to_device(v)) for v in r) if isinstance(r, tuple)
                else positional(_to_device(r)))
    if not isinstance(r, tuple):
        return padded(r)[0]
    # the values, first indices and counts have the data-dependent length; the
    # inverse has the input's shape
    inv = 1 + return_index if return_inverse else None
    sized = padded(*[v for i, v in enumerate(r) if i != inv])
    it = iter(sized)
    return tuple(positional(_to_device(v)) if i == inv else next(it)
                 for i, v in enumerate(r))


__all__ = ["unique"]

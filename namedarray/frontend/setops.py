"""Set routines (NumPy's ``numpy/lib/_arraysetops_impl.py``): ``unique``,
``intersect1d``, ``union1d``, ``setxor1d``, ``isin``, ``ediff1d``, in NumPy's
dtypes and with NumPy's answers where ``jax.numpy``'s differ.

>>> import namedarray as np
>>> np.union1d(np.asarray([1, 3], dtype=np.int8), np.asarray([2.5]))
array([1. , 2.5, 3. ])
"""
from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, operand, positional
from .creation import asarray
from .engines import host
from .engines.args import numpy_args
from .engines.declare import _checked, _decl
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


_isin = _decl("isin")


def _same_kind_ends(ary, to_end=None, to_begin=None):
    ary = jnp.asarray(ary)
    for arg, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is not None and not onp.can_cast(onp.asarray(v).dtype if not hasattr(
                v, "dtype") else v.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"ediff1d: dtype of `{arg}` must be compatible with input "
                            "`ary` under the `same_kind` rule.")
    return (ary, to_end, to_begin), {}


# jax.numpy: to_begin/to_end of another kind accepted
ediff1d = _checked("ediff1d", _same_kind_ends)


# jax.numpy: a set of test elements is not NumPy's one object scalar
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """``numpy.isin``; a ``set`` (or ``frozenset``, ``dict``) of test elements is
    one object scalar for NumPy, which no element equals (NumPy's docs advise
    ``list(the_set)``), so the answer is all False (True with ``invert``).
    ``kind`` picks NumPy's algorithm, never its answer: it is checked as NumPy
    checks it."""
    if isinstance(test_elements, (set, frozenset, dict)):
        test_elements = onp.zeros(0, bool)
    # (as arrays first: a sequence of data namedarray cannot hold is NumPy's to answer)
    element, test_elements = asarray(element), asarray(test_elements)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: Invalid kind: {kind!r}. Please use None, 'sort' or "
                         "'table'.")
    if kind == "table" and any(asarray(v).dtype.kind not in "biu"
                               for v in (element, test_elements)):
        raise ValueError("isin: The 'table' method is only supported for boolean or "
                         "integer arrays. Please select 'sort' or None for kind.")
    if kind == "table":
        t = asarray(test_elements)
        if t.size and t.dtype.kind in "iu" and not isinstance(t.data, jax.core.Tracer):
            # NumPy's table of the range of test_elements, in their dtype (where
            # the values are known: a traced call is not checked)
            lo, hi = int(t.data.min()), int(t.data.max())
            if hi - lo > onp.iinfo(t.dtype).max:
                raise RuntimeError(
                    "isin: You have specified kind='table', but the range of values in "
                    f"`ar2` or `ar1` exceed the maximum integer of the datatype ({lo} to "
                    f"{hi} in {t.dtype}). Please set `kind` to None or 'sort'.")
    return _isin(element, test_elements, assume_unique, invert)


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def _unique_result(name, cls):
    """``numpy.<name>``: NumPy's named tuple (``jax.numpy`` names its own
    ``_UniqueCountsResult``); NumPy's own function on data living on the host
    (its data-dependent lengths compile nothing there); ``jax.numpy``'s
    ``size=``/``fill_value=`` for ``jit``."""
    jf = _decl(name)

    def f(x, /, **kwargs):
        r = None if kwargs else host.whole(name, (x,), {})
        return cls(*(jf(x, **kwargs) if r is None else r))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``, as NumPy's ``{cls.__name__}``."
    return f


unique_all = _unique_result("unique_all", UniqueAllResult)
unique_counts = _unique_result("unique_counts", UniqueCountsResult)
unique_inverse = _unique_result("unique_inverse", UniqueInverseResult)


def _set_op(name):
    jfn = wrap(numpy_args(getattr(jnp, name), name), name)

    def f(ar1, ar2, *args, **kwargs):
        x, y = asarray(ar1), asarray(ar2)
        dt = onp.result_type(x.dtype, y.dtype)
        r = jfn(x.astype(dt), y.astype(dt), *args, **kwargs)
        if isinstance(r, tuple):    # intersect1d's indices: NumPy's intp
            return (r[0],) + tuple(i.astype(onp.intp) for i in r[1:])
        return r
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: the two inputs are joined in their common dtype, "
                 "as NumPy's concatenation joins them.")
    return f


# jax.numpy: the inputs not joined in their common dtype
intersect1d, union1d, setxor1d = (_set_op(n) for n in ("intersect1d", "union1d",
                                                      "setxor1d"))


__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "isin", "ediff1d", "intersect1d", "union1d", "setxor1d"]

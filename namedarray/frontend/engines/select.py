"""Dtype resolution and elementwise choice, under the ufunc engine (its
``where=`` argument) and the functions that cast to a common dtype.

>>> import namedarray as np
>>> np.result_type(np.arange(3, dtype=np.int8), 1.0)
dtype('float64')
>>> np.where(np.arange(3) > 0, np.arange(3).tag("i"), -1).named_shape
{'i': 3}
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ...core import config
from ...core.array import NamedArray, new, operand, positional
from ...core.align import align
from . import selection


def result_type(*args):
    """``numpy.result_type`` (NumPy 2 rules: Python scalars are weak); with an
    ML dtype (``bfloat16``, ``float8_*``) among them, JAX's rules."""
    conv = [a.dtype if isinstance(a, NamedArray) else a for a in args]
    if config.numpy_dtypes() and not config.any_ml(conv):
        return onp.result_type(*conv)
    return jnp.result_type(*conv)


def _numpy_cast(v, dt):
    """A Python int beyond ``int64`` as ``numpy.where`` casts it to ``dt``:
    through ``uint64`` (wrapping, as C casts), or as a Python object (an
    integer ``dt`` then raises NumPy's ``OverflowError``)."""
    if type(v) is not int or -2**63 <= v < 2**63:
        return v
    with onp.errstate(over="ignore"):
        try:
            return onp.asarray(onp.asarray(v).astype(dt))
        except OverflowError as e:
            raise OverflowError(f"where: {e} (the Python int {v} as {onp.dtype(dt)})") \
                from None


class _NotGiven:
    """An argument left out (``None`` is a value: NumPy's object array of it)."""

    def __repr__(self):
        return "<no value>"


_NOT_GIVEN = _NotGiven()


def where(condition, x=_NOT_GIVEN, y=_NOT_GIVEN, /):
    """``numpy.where``: elementwise choice, aligned by name; one-argument form
    is ``nonzero``."""
    if x is _NOT_GIVEN and y is _NOT_GIVEN:
        return nonzero(condition)
    if x is _NOT_GIVEN or y is _NOT_GIVEN:
        raise ValueError("where: either both or neither of x and y should be given")
    ops = [operand(condition), operand(x), operand(y)]
    dt = result_type(ops[1], ops[2])
    ops[1:] = [_numpy_cast(o, dt) for o in ops[1:]]
    ops[1:] = [new(o.data.astype(dt), o.dims, o.mapped) if isinstance(o, NamedArray) else o
               for o in ops[1:]]
    if all(not isinstance(o, NamedArray) or not (o.names or o.mapped) for o in ops):
        datas = [o.data if isinstance(o, NamedArray) else o for o in ops]
        return positional(jnp.where(datas[0], datas[1], datas[2]).astype(dt))
    datas, dims, mapped = align("where", ops)
    return new(jnp.where(*datas).astype(dt), dims, mapped)


def nonzero(a):
    """``numpy.nonzero`` (positional arrays only: the result size is data dependent).

    The positions are found on the host (one transfer, no compilation per count).

    >>> import namedarray as np
    >>> np.nonzero(np.asarray([0, 3, 0, 5]))
    (array([1, 3]),)
    """
    x = operand(a)
    if isinstance(x, NamedArray) and x.names:
        raise TypeError(f"nonzero: the array has named axes {x.named_shape}; the number "
                        "of nonzeros differs per name, untag them first")
    d = x.data if isinstance(x, NamedArray) else jnp.asarray(x)
    if d.ndim == 0:
        raise ValueError("nonzero: Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    if selection.traced(d):
        raise selection.size_error("nonzero", "np.where(a != 0, x, other), or "
                                   "jax.numpy.nonzero(a, size=N)", "its result")
    return selection.padded(*onp.nonzero(onp.asarray(d)))

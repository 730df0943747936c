"""Elementwise functions: one table of NumPy ufuncs over the ``ufunc`` engine.

Each NumPy ufunc that ``jax.numpy`` implements becomes a
``namedarray._dispatch.ufunc``: NumPy's dtype resolution, alignment of named
axes by name, broadcasting of positional axes by NumPy's rules.

>>> import namedarray as np
>>> x = np.arange(3.0).tag("i")
>>> y = np.arange(2.0).tag("j")
>>> (x * y).named_shape
{'i': 3, 'j': 2}
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ._core import NamedArray, align, new, operand, positional
from ._dispatch import ufunc

# NumPy ufuncs with signatures (matmul, vecdot, ...) live in namedarray/einsum.
_GUFUNCS = {"matmul", "vecdot", "matvec", "vecmat", "isnat"}

UFUNCS = {
    name: ufunc(name, getattr(jnp, name), getattr(onp, name))
    for name in sorted(dir(onp))
    if isinstance(getattr(onp, name), onp.ufunc) and name not in _GUFUNCS
    and hasattr(jnp, name)
}
globals().update(UFUNCS)


def where(condition, x=None, y=None, /):
    """``numpy.where``: elementwise choice, aligned by name; one-argument form
    is ``nonzero``."""
    if x is None and y is None:
        from ._indexing import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    ops = [operand(condition), operand(x), operand(y)]
    dt = result_type(ops[1], ops[2])
    ops[1:] = [new(o.data.astype(dt), o.dims) if isinstance(o, NamedArray) else o
               for o in ops[1:]]
    if all(not isinstance(o, NamedArray) or not o.names for o in ops):
        datas = [o.data if isinstance(o, NamedArray) else o for o in ops]
        return positional(jnp.where(datas[0], datas[1], datas[2]).astype(dt))
    datas, dims = align("where", ops)
    return new(jnp.where(*datas).astype(dt), dims)


def result_type(*args):
    """``numpy.result_type`` (NumPy 2 rules: Python scalars are weak)."""
    from . import _config
    conv = [a.dtype if isinstance(a, NamedArray) else a for a in args]
    if _config.numpy_dtypes():
        return onp.result_type(*conv)
    return jnp.result_type(*conv)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None):
    """``numpy.clip``: ``minimum(maximum(a, a_min), a_max)`` with NumPy dtypes."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    r = operand(a)
    if lo is not None:
        r = UFUNCS["maximum"](r, lo)
    if hi is not None:
        r = UFUNCS["minimum"](r, hi)
    if out is not None:
        out._assign("clip", r)
        return out
    return r


def _all_named(*ops):
    return align("broadcast", [operand(o) for o in ops])

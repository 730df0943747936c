"""Ufuncs namedarray has no counterpart of, given NamedArrays: another
library's (SciPy's special functions, a C extension's loops) and NumPy's
object ufuncs (``frompyfunc``).  NumPy's ``__array_ufunc__`` protocol hands
such a call to ``NamedArray.__array_ufunc__``, which comes here
(``hooks.foreign_ufunc``): the ufunc's method runs on NumPy copies of the
operands (``numpy_data.numpy_call``), its writes into NamedArrays (``out=``,
``at``'s array) kept, and its new numeric results are NamedArrays; data JAX
cannot hold stays NumPy's (docs/design.md §6c).

>>> import namedarray as np
>>> from numpy._core import _umath_tests as ut
>>> ut.inner1d(np.arange(3.0), np.ones(3))
np.float64(3.0)
"""
from __future__ import annotations

import jax
import numpy as onp

from ...core import hooks
from ...core.array import NamedArray, on_host, positional, zero_dim_array
from .args import to_device
from .host import ENABLED, HOST_SIZE, RESIDENT_DTYPES, kept
from .numpy_data import _host_only, numpy_call


def _numbers(r):
    """The ufunc's NumPy result as namedarray's (a NamedArray of the data JAX
    holds, NumPy's scalar as namedarray's scalar); data JAX cannot hold,
    NumPy's array classes and the NamedArrays written stay as they are."""
    if isinstance(r, tuple):
        return tuple(map(_numbers, r))
    scalar = isinstance(r, onp.generic)
    if not scalar and type(r) is not onp.ndarray or _host_only(r, classes=False):
        return r
    h = onp.asarray(r)
    if ENABLED and h.dtype in RESIDENT_DTYPES and h.size <= HOST_SIZE:
        x = on_host(r) if scalar else kept(h, fresh=r.base is None)
    else:
        x = positional(to_device(h))
    return x if scalar or h.ndim else zero_dim_array(x)


def foreign_ufunc(uf, method, inputs, kwargs):
    """``uf``'s ``method`` (``"__call__"``, ``"reduce"``, ``"at"``, ...) on
    NumPy copies of the NamedArrays among ``inputs`` and ``kwargs``: NumPy's
    answer or NumPy's error.  Named, mapped or traced operands have no NumPy
    copy to give: ``TypeError``."""
    name = getattr(uf, "__name__", "ufunc")
    outs = kwargs.get("out", ())
    for v in (*inputs, *(outs if type(outs) is tuple else (outs,))):
        if isinstance(v, NamedArray) and (v.names or v.mapped):
            raise TypeError(f"{name}: not one of namedarray's ufuncs, it runs on NumPy "
                            f"copies of positional arrays (untag the named axes "
                            f"{v.named_shape} first)")
    try:
        r = numpy_call(name, inputs, kwargs, None if method == "__call__" else method,
                       f=uf)
    except jax.errors.TracerArrayConversionError:
        raise TypeError(f"{name}: not one of namedarray's ufuncs, it runs on NumPy "
                        "copies of its operands, which traced values (jit, grad, "
                        "vmap, nmap) have none of; call it outside the transform") \
            from None
    return _numbers(r)


hooks.foreign_ufunc = foreign_ufunc

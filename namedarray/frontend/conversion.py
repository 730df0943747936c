"""Introspection and conversion to text: ``shape``, ``ndim``, ``size`` (of the
positional axes), ``array2string``, ``real_if_close``, ...

>>> import namedarray as np
>>> x = np.ones((2, 3)).tag(None, "b")
>>> np.shape(x), np.ndim(x), np.size(x)
((2,), 1, 2)
"""
from __future__ import annotations

import sys

import jax.numpy as jnp
from jax.core import Tracer
import numpy as onp

from ..core import config
from ..core.array import NamedArray, is_scalar, normalize_axis, operand, rewrap, unknown_name
from .creation import asarray
from .engines.args import unsupported_dtype


def shape(a):
    """``numpy.shape``: the positional shape."""
    x = operand(a)
    return x.shape if isinstance(x, NamedArray) else ()


def isscalar(element):
    """``numpy.isscalar``; a 0-d positional result counts as a scalar too (what
    a full reduction or ``x[i]`` of a vector returns: NumPy's scalars), the
    0-d arrays ``array``/``asarray`` make do not (see ``zero_dim_array``).

    >>> import namedarray as np
    >>> np.isscalar(np.sum(np.arange(3.0))), np.isscalar(3), np.isscalar(np.ones(1))
    (True, True, False)
    >>> np.isscalar(np.asarray(3.0))
    False
    """
    if isinstance(element, NamedArray):
        return is_scalar(element)
    return onp.isscalar(element)


def common_type(*arrays):
    """``numpy.common_type``: the inexact scalar type of the arrays' dtypes.

    >>> import namedarray as np
    >>> np.common_type(np.arange(3), np.ones(2, np.float32))
    <class 'numpy.float64'>
    """
    return onp.common_type(*(onp.empty(0, a.dtype) if isinstance(a, NamedArray) else a
                             for a in arrays))


class _FinfoType(type):
    # NumPy's finfo objects (ml_dtypes' for the ML dtypes) are instances
    def __instancecheck__(cls, x):
        return isinstance(x, onp.finfo)

    def __subclasscheck__(cls, c):
        return issubclass(c, onp.finfo)


class finfo(metaclass=_FinfoType):
    """``numpy.finfo``: machine limits of a floating dtype (or an array's; a
    complex dtype gives its real part's), as NumPy's own object: one per
    dtype, its limits NumPy scalars of that dtype, ``str`` its table.  The ML
    dtypes (``bfloat16``, ``float8_*``) have ``ml_dtypes``' (JAX's
    ``jnp.finfo``), which is NumPy's for NumPy's dtypes.

    >>> import namedarray as np
    >>> f = np.finfo(np.float32)
    >>> f.eps, f.bits, f.dtype, f is np.finfo(np.ones(2, np.float32))
    (np.float32(1.1920929e-07), 32, dtype('float32'), True)
    >>> type(np.finfo(np.bfloat16).max).__name__
    'bfloat16'
    """

    def __new__(cls, dtype):
        if isinstance(dtype, NamedArray):
            dtype = dtype.dtype
        try:
            return jnp.finfo(dtype)
        except (TypeError, ValueError) as e:
            raise type(e)(f"finfo: {e}") from None


def ndim(a):
    """``numpy.ndim``: the number of positional axes."""
    return len(shape(a))


def size(a, axis=None):
    """``numpy.size``: the number of positional elements, or the size of
    ``axis``: a positional axis, a name (its size), or a tuple of them (the
    product).

    >>> import namedarray as np
    >>> x = np.zeros((2, 3)).tag("b", None)
    >>> np.size(x), np.size(x, "b"), np.size(x, ("b", 0))
    (3, 2, 6)
    """
    s = shape(a)
    if axis is None:
        return int(onp.prod(s))
    x = a if isinstance(a, NamedArray) else None
    out = 1
    for ax in (axis if isinstance(axis, tuple) else (axis,)):
        if isinstance(ax, str):
            if x is None or ax not in x.named_shape:
                raise (unknown_name("size", "axis", ax, x) if x is not None else ValueError(
                    f"size: axis {ax!r} is a name, but the array has no named axes "
                    f"(shape {s})"))
            out *= x.named_shape[ax]
        else:
            out *= s[normalize_axis("size", ax, len(s))]
    return out


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe"):
    """``numpy.astype``: elementwise conversion that keeps the array's layout
    (one ``convert``, never a transpose).  ``dtype`` may be a NumPy dtype, an
    ML dtype (``np.bfloat16``, ``jnp.float8_e4m3fn``, ...) or its name.

    >>> import namedarray as np
    >>> np.astype(np.arange(3.0), "bfloat16")
    array([0, 1, 2], dtype=bfloat16)
    """
    if not (hasattr(x, "dtype") or onp.isscalar(x)):     # (a list: NumPy's TypeError)
        raise TypeError("astype: Input should be a NumPy array or scalar. It is a "
                        f"{type(x)} instead.")
    a = asarray(x)
    try:
        dt = onp.dtype(dtype)
    except TypeError:
        raise TypeError(f"astype: {dtype!r} is not a dtype") from None
    if not config.holds(dt):
        raise unsupported_dtype("astype", dt)
    if casting == "same_value":
        return _same_value(a, dt)
    if not onp.can_cast(a.dtype, dt, casting):
        raise TypeError(f"astype: cannot cast array data from {a.dtype} to {dt} "
                        f"according to the rule {casting!r}")
    if a.dtype == dt and not copy:
        return a
    return rewrap(a, a.data.astype(dt))


#: NumPy's C names of its types, as its casting errors print them
_C_NAMES = dict(zip("?bBhHiIlLqQefdgFDG", (
    "bool", "byte", "ubyte", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
    "ulonglong", "half", "float", "double", "longdouble", "cfloat", "cdouble", "clongdouble")))


def _same_value(a, dt):
    """``astype(dt, casting="same_value")``: the cast, where every value survives
    it (casting back gives it again; NaN stays NaN), or NumPy's ``ValueError``."""
    if isinstance(a.data, Tracer):
        raise ValueError("astype: casting='same_value' checks the values; under a "
                         "trace use casting='unsafe' and compare the round trip")
    d = a.data.real if a.dtype.kind == "c" and dt.kind != "c" else a.data
    r = d.astype(dt)
    back = r.astype(a.dtype)
    same = (back == a.data) | (jnp.isnan(back) & jnp.isnan(a.data)
                               if jnp.issubdtype(a.dtype, jnp.inexact) else False)
    if not bool(jnp.all(same)):
        raise ValueError(f"could not cast 'same_value' {_C_NAMES.get(a.dtype.char, a.dtype)} "
                         f"to {_C_NAMES.get(dt.char, dt)}")
    return rewrap(a, r)


def real_if_close(a, tol=100):
    """``numpy.real_if_close``."""
    x = asarray(a)
    if not jnp.iscomplexobj(x.data):
        return x
    # NumPy's: tol > 1 counts machine epsilons, else it is the bound itself
    eps = onp.finfo(x.dtype).eps * tol if tol > 1 else tol
    if bool(jnp.all(jnp.abs(x.data.imag) < eps)):
        return rewrap(x, x.data.real)
    return x


def isfortran(a):
    """``numpy.isfortran``: Fortran-contiguous and not C-contiguous (a
    transpose, as NumPy's)."""
    f = operand(a).flags
    return bool(f.f_contiguous and not f.c_contiguous)


def array2string(a, *args, **kw):
    return onp.array2string(onp.asarray(asarray(a)), *args, **kw)


def array_repr(a, *args, **kw):
    return onp.array_repr(onp.asarray(asarray(a)), *args, **kw)


def array_str(a, *args, **kw):
    return onp.array_str(onp.asarray(asarray(a)), *args, **kw)


# -- NumPy's matrix: a class over host data (engines/host.py) ---------------
def asmatrix(data, dtype=None):
    """``numpy.asmatrix``: NumPy's matrix over the host data ``data`` (a
    string, a list, a NumPy array), without a copy as NumPy's.  A NamedArray
    cannot be viewed so (its data is on the device, and a later write to it
    would not show): ``np.matrix(x)`` makes the copy."""
    if isinstance(data, NamedArray):
        raise TypeError("asmatrix: data is a NamedArray, which NumPy's matrix cannot "
                        "view (a later write to it would not show); np.matrix(data) "
                        "makes a copy")
    return onp.asmatrix(data, dtype)


def bmat(obj, ldict=None, gdict=None):
    """``numpy.bmat``: NumPy's matrix of the blocks ``obj`` (a string names
    them in the caller's variables, as in NumPy)."""
    if isinstance(obj, str) and gdict is None:
        caller = sys._getframe(1)
        ldict, gdict = caller.f_locals, caller.f_globals
    if isinstance(obj, NamedArray):
        obj = onp.asarray(obj)
    return onp.bmat(obj, ldict, gdict)


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

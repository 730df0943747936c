"""NumPy's assignment cast: what a value written into an array of a dtype
becomes (``x[i] = v``, ``put``, ``place``, ``putmask``, ``fill_diagonal``,
``put_along_axis``, ``piecewise``), and NumPy's errors for the values it refuses.

* A Python number, or a list or tuple of them, is converted as NumPy converts
  it (``numpy.array(v, dtype)``): an int must fit an integer dtype
  (``OverflowError``; any int fits a bool or a float: ``True``, ``inf``), a NaN
  is no integer (``ValueError``), nor is an infinity (``OverflowError``), a
  complex needs a complex or bool target (``TypeError``; into bool, its truth).
* NumPy's scalars and arrays, and NamedArrays, are cast unsafely: a complex
  into a real target is its real part (with NumPy's ``ComplexWarning``), into
  bool its truth; a negative int into an unsigned type wraps.  ``place`` and
  ``putmask`` take an *array* (not a scalar, not a list) only where it casts
  ``"safe"``ly (NumPy's ``TypeError``).

The value is cast before it meets the array, so the array's own elements never
pass through another dtype (``place`` of floats into int64 data keeps the
unselected elements' bits beyond 2**53).

>>> import numpy
>>> assigned("put", numpy.dtype("uint64"), numpy.int8(-3)).data
Array(18446744073709551613, dtype=uint64)
>>> assigned("put", numpy.dtype("int8"), 300)
Traceback (most recent call last):
OverflowError: put: Python integer 300 out of bounds for int8
"""
from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends, config
from ...core.array import NamedArray, is_scalar, positional, rewrap
from .args import to_device
from .fperr import _stacklevel

_PY_NUMBERS = (bool, int, float, complex)


def _host_leaves(v) -> bool:
    """Whether ``v`` is a Python number, NumPy's scalar or array, or a (nested)
    list or tuple of those: data NumPy converts on the host."""
    if type(v) in _PY_NUMBERS or isinstance(v, (onp.generic, onp.ndarray)):
        return True
    return type(v) in (list, tuple) and all(_host_leaves(e) for e in v)


def check_cast(fn, src, dtype, casting):
    """NumPy's ``TypeError`` where an array of ``src`` may not be written into
    one of ``dtype`` under ``casting``."""
    if casting != "unsafe" and not onp.can_cast(src, dtype, casting):
        raise TypeError(f"{fn}: Cannot cast array data from dtype('{onp.dtype(src)}') to "
                        f"dtype('{onp.dtype(dtype)}') according to the rule '{casting}'")


def assigned(fn, dtype, value, casting="unsafe") -> NamedArray:
    """``value`` cast to ``dtype`` as NumPy's assignment casts it (see the
    module), a NamedArray; ``casting`` applies to arrays (NumPy's or
    NamedArrays that are not scalars)."""
    dt = onp.dtype(dtype)
    if isinstance(value, NamedArray):
        if not is_scalar(value):
            check_cast(fn, value.dtype, dt, casting)
        if value.dtype == dt:
            return value
        # (cast where ``dt`` lives: a TPU's compiler aborts on complex128)
        where, (d,) = backends.at_home((dt,), (value.data,), config.numpy_dtypes())
        if jnp.iscomplexobj(d) and dt.kind != "c":
            if dt.kind == "b":
                d = d != 0
            else:
                warnings.warn(f"{fn}: Casting complex values to real discards the imaginary "
                              "part", onp.exceptions.ComplexWarning, stacklevel=_stacklevel())
                d = jnp.real(d)
        with where:
            return rewrap(value, d.astype(dt))
    if isinstance(value, jax.Array):
        return assigned(fn, dt, positional(value), casting)
    if not _host_leaves(value):     # (a list holding NamedArrays or traced values)
        check_scalar(fn, dt, value)
        return assigned(fn, dt, positional(jnp.asarray(value)), "unsafe")
    if type(value) is onp.ndarray:
        check_cast(fn, value.dtype, dt, casting)
    return positional(to_device(numpy_cast(fn, dt, value), fresh=True))


def numpy_cast(fn, dtype, value):
    """NumPy's conversion of host data ``value`` (Python numbers, NumPy's
    scalars and arrays, lists of them) to ``dtype``, its errors named by
    ``fn``: a NumPy array."""
    try:
        return onp.array(value, dtype=dtype)
    except TypeError as e:
        if "complex" in str(e):
            raise TypeError(f"{fn}: cannot assign the complex {value!r} to an array of "
                            f"dtype {onp.dtype(dtype)} ({e})") from None
        raise TypeError(f"{fn}: {e}") from None
    except (ValueError, OverflowError) as e:
        raise type(e)(f"{fn}: {e}") from None


def check_scalar(fn, dtype, value):
    """NumPy's errors for assigning the Python number ``value`` (or a list of
    them) to an array of ``dtype``; nothing for any other value."""
    if type(value) in _PY_NUMBERS or type(value) in (list, tuple) and _host_leaves(value):
        numpy_cast(fn, dtype, value)

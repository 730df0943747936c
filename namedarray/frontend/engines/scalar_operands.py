"""A scalar's operators where Python's arithmetic answers, not a ufunc.

NumPy's scalar given an operand that no array holds (a ``Fraction``, a
``Decimal``, ``None``, a string, any object) answers with that operand's own
arithmetic on the scalar, or with NumPy's object loop (the scalar's value as
a Python number): ``Fraction(1, 3) + numpy.float64(3)`` is
``numpy.float64(3.33...)`` (``Fraction`` takes a ``float``, and NumPy's
float64 is one), ``numpy.int64(3) + Fraction(1, 3)`` is ``Fraction(10, 3)``,
``numpy.float64(2) == None`` is ``False``.  Python's ``complex`` operators
take NumPy's float64 too: ``1j + numpy.float64(2)`` is Python's ``(2+1j)``.

Here such an operator of namedarray's scalar is Python's operator on NumPy's
scalar of the same value (read from the device where the scalar lives
there), in the floating-point error state NumPy's scalar would meet
(``engines/fperr.py``): NumPy's answer, NumPy's scalars in it as
namedarray's.  A traced scalar has no value: with an object a ``TypeError``
says so; with a Python ``complex`` the ufunc answers (``complex128``, the
same value), and ``s == None`` is the array's ``False``.

>>> import namedarray as np
>>> from fractions import Fraction
>>> s = np.arange(4)[3]
>>> s + Fraction(1, 3), 1j + np.sqrt(4.0), np.sum(np.ones(2)) == None
(Fraction(10, 3), (2+1j), False)
"""
from __future__ import annotations

import operator

import jax
import numpy as onp

from ...core.array import NamedArray, positional
from ...core.config import holds
from . import fperr
from .host import creates, made
from .numpy_data import foreign
from .args import to_device

#: operand types that namedarray's operators take as data, not as objects
_DATA = (NamedArray, onp.ndarray, onp.generic, jax.Array, list, tuple, bool, int, float,
         complex)
_FLOAT64 = onp.dtype(onp.float64)
#: Python's operators of ``complex`` that take a ``float`` (so NumPy's float64)
_COMPLEX_TAKES_FLOAT = frozenset((operator.add, operator.sub, operator.mul,
                                  operator.truediv, operator.pow, operator.eq,
                                  operator.ne))
_EQUALITY = (operator.eq, operator.ne)


def python_answers(py, s, other, reflected: bool) -> bool:
    """Whether Python's arithmetic, not a ufunc, answers the operator ``py``
    of NumPy's scalar of the dtype of namedarray's scalar ``s`` with
    ``other`` (``py(other, s)`` where ``reflected``): ``other`` is an object
    no array holds, or a Python ``complex`` before a float64 (whose forward
    operator takes NumPy's float64, a ``float``)."""
    t = type(other)
    if t is complex:
        return reflected and py in _COMPLEX_TAKES_FLOAT and s.dtype == _FLOAT64
    return not isinstance(other, _DATA) and not foreign(other) and not (
        hasattr(t, "__array_ufunc__") or hasattr(t, "__array_function__") or
        hasattr(t, "__jax_array__"))


def numpys_answer(py, s, other, reflected: bool, name: str):
    """NumPy's answer of the operator ``py`` (the ufunc ``name``'s) of
    namedarray's scalar ``s`` with ``other`` where :func:`python_answers`:
    Python's operator on NumPy's scalar of ``s``'s value, its NumPy scalars
    as namedarray's; None where a traced ``s`` is answered as an array is
    (a Python ``complex``: the ufunc; ``== None``: ``False``)."""
    h = s._host
    if h is None:
        d = s.data
        if isinstance(d, jax.core.Tracer):
            if type(other) is complex or other is None and py in _EQUALITY:
                return None     # (the ufunc's answer, or the array's to None)
            raise TypeError(
                f"{name}: NumPy answers a scalar with a {type(other).__name__} operand "
                f"by Python's arithmetic on the scalar's value, which a traced scalar "
                f"(under jax.jit, grad or vmap) does not have; convert the operand to "
                f"a number or an array first (float(v), np.asarray(v, dtype))")
        h = onp.asarray(d)
    v = h[()]       # (NumPy's scalar: of a 0-d buffer, or the buffer itself)
    a, b = (other, v) if reflected else (v, other)
    r = py(a, b) if fperr.state() is not None else fperr.call_ignoring(py, a, b)
    return tuple(map(_ours, r)) if type(r) is tuple else _ours(r)


def _ours(r):
    """NumPy's scalar ``r`` of a dtype namedarray holds as namedarray's
    scalar (on the host where new data is made there); anything else as it is."""
    if not isinstance(r, onp.generic) or not holds(r.dtype):
        return r
    h = onp.array(r)
    return made(h, fresh=True) if creates(()) else positional(to_device(h, fresh=True))

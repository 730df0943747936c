"""``numpy.typing`` under namedarray's name: NumPy's annotation objects, so
that a program importing them from ``numpy.typing`` runs with ``namedarray``
in NumPy's place.

They are annotations, read by a type checker, and NumPy's own: a NamedArray is
an ``ArrayLike`` (NumPy reads it through ``__array__``), and ``NDArray[...]``
names NumPy's array type (namedarray's own is ``namedarray.NamedArray``).

>>> import namedarray as np
>>> from namedarray.typing import ArrayLike, NDArray
>>> NDArray[np.float64] == __import__("numpy").typing.NDArray[np.float64]
True
"""
from numpy.typing import ArrayLike, DTypeLike, NBitBase, NDArray

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]

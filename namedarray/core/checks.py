"""The checks of axis arguments every layer shares: names (non-empty str),
a ``dims`` tuple, positions (NumPy's ``AxisError`` out of range), and the
error for a name an array lacks.

>>> from namedarray.core.checks import check_dims, normalize_axis
>>> check_dims("tag", ("batch", None), 2), normalize_axis("sum", -1, 3)
(('batch', None), 2)
"""
from __future__ import annotations

import operator

import numpy as onp


def check_name(fn: str, arg: str, name) -> str:
    if isinstance(name, str) and name:
        return name
    if isinstance(name, (int, onp.integer)) and not isinstance(name, bool):
        raise TypeError(
            f"{fn}: {arg} got the int {name!r} as an axis name; names must be "
            "non-empty str (ints denote positional axes)")
    raise TypeError(f"{fn}: {arg} got {name!r} as an axis name; names must be non-empty str")


def check_dims(fn: str, dims, ndim: int) -> tuple:
    dims = tuple(dims)
    if len(dims) != ndim:
        raise ValueError(
            f"{fn}: dims has {len(dims)} entries {dims!r} but the data has "
            f"{ndim} dimensions")
    seen = set()
    for d in dims:
        if d is None:
            continue
        check_name(fn, "dims", d)
        if d in seen:
            raise ValueError(f"{fn}: duplicate axis name {d!r} in dims {dims!r}")
        seen.add(d)
    return dims


def unknown_name(fn: str, arg: str, name, x: "NamedArray", of: str = "the array"):
    return ValueError(
        f"{fn}: {arg} {name!r} is not an axis of {of}, which has named axes "
        f"{x.named_shape} (positional shape {x.shape})")


def normalize_axis(fn: str, axis, ndim: int) -> int:
    """A positional axis in ``range(ndim)`` (NumPy's ``AxisError`` out of it); a
    name here is an error: this argument takes positions only."""
    if isinstance(axis, str):
        raise TypeError(f"{fn}: axis {axis!r} is a name, but this argument takes a "
                         "positional axis (an int) only")
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"{fn}: axis must be an int or a name, got {axis!r}") from None
    if not -ndim <= a < ndim:
        raise onp.exceptions.AxisError(
            f"{fn}: axis {a} is out of bounds for an array with {ndim} positional "
            "dimensions")
    return a % ndim if ndim else 0

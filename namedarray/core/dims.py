"""Axis arguments: ints (positional axes), names (str), or tuples mixing both.

One parser for every family that takes ``axis``/``axes`` (reductions, the
generic engine, fft, linalg's norms).

>>> from namedarray.core.dims import has_names, split_axis
>>> has_names(("b", 0)), has_names(1)
(True, False)
>>> split_axis("sum", (0, "b", -1), 3)
((0, 2), ('b',), False)
"""
from __future__ import annotations

import jax

from .array import new, normalize_axis


def has_names(axis) -> bool:
    """Whether an ``axis`` argument names an axis (a str, or a tuple/list with one)."""
    if isinstance(axis, str):
        return True
    if isinstance(axis, (tuple, list)):
        return any(isinstance(a, str) for a in axis)
    return False


def split_axis(fn, axis, ndim):
    """An ``axis`` argument -> ``(ints, names, scalar)``.

    ``ints``: the positional axes, normalized (``None`` for ``axis=None``: all of
    them); ``names``: the names, in the order given; ``scalar``: the argument was
    a single int or name rather than a tuple.
    """
    if axis is None:
        return None, (), False
    if isinstance(axis, str):
        return (), (axis,), True
    if isinstance(axis, (tuple, list)):
        ints, names = [], []
        for a in axis:
            (names if isinstance(a, str) else ints).append(a)
        ints = [normalize_axis(fn, a, ndim) for a in ints]
        if len(set(ints)) != len(ints):
            raise ValueError(f"{fn}: duplicate value in 'axis': {tuple(axis)!r}")
        return tuple(ints), tuple(names), False
    return (normalize_axis(fn, axis, ndim),), (), True


def order_names(x, want):
    """``x`` with its named dimensions transposed to the order ``want``."""
    if x.names == want:
        return x
    n = x.ndim
    perm = tuple(range(n)) + tuple(n + x.names.index(w) for w in want)
    return new(jax.lax.transpose(x.data, perm), x.dims[:n] + want, x.mapped)

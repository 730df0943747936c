"""Alignment by name: operands brought to one layout, positional axes then
names (docs/design.md §2; the layout rule is ``core/array.py``'s).

Positional axes broadcast by NumPy's rules (left-padded with 1s), names by
name.  The result's names are those of the operand with the most names (then
the most elements) in its own order, then the names only the others have:
that operand is not moved, the others, usually broadcast onto it, are
reshaped.  Alignment reads an operand's ``dims``, ``data`` and ``mapped``
only: any :class:`Aligned` (``NamedArray`` is one); other operands (Python
scalars) pass through.

>>> import namedarray as np
>>> x, y = np.ones((2, 3)).tag("a", "b"), np.ones(3).tag("b")
>>> align("add", [x, y])[1]
('a', 'b')
"""
from __future__ import annotations

import jax

from . import hooks
from .cache import Cache
from .sharding import agree


class Aligned:
    """What alignment reads of an operand: ``dims`` (None for a positional
    dimension, positional ones first), ``data`` and ``mapped`` (the names an
    enclosing map holds part of, with their global sizes)."""
    __slots__ = ()


def merge_mapped(fn: str, ops) -> tuple:
    """The union of the operands' mapped names (sizes must agree)."""
    out: dict = {}
    for x in ops:
        if isinstance(x, Aligned):
            for n, s in x.mapped:
                if out.setdefault(n, s) != s:
                    raise ValueError(f"{fn}: axis name {n!r} is mapped with sizes "
                                     f"{out[n]} and {s}")
    return tuple(out.items())


def meet(fn: str, ops):
    """Operands meeting names an enclosing map holds only part of: whole axes
    of those names are cut to this instance's part, and an operand that does
    not vary along one is marked as entering the map's instances (so that a
    gradient taken inside the map sums over them).  Returns (operands, the
    union of their mapped names)."""
    if not any(isinstance(x, Aligned) and x.mapped for x in ops):
        return ops, ()
    mapped = merge_mapped(fn, ops)
    out = []
    for x in ops:
        if isinstance(x, Aligned):
            x = hooks.localize(fn, x, [d for d, _ in mapped if d in x.dims])
            have = dict(x.mapped)
            x = hooks.vary(x, [d for d, _ in mapped if d not in have])
        out.append(x)
    return out, mapped


def _layout(ops, order) -> tuple:
    """The result's names in physical order: those of the operand with the most
    names (then the most elements) in its own order, so that it is not
    transposed and the others, usually broadcast onto it, are reshaped; then
    the names only the others have, in the order met."""
    anchor, best = None, None
    for x in ops:
        if isinstance(x, Aligned):
            key = (len(x.dims) - x.dims.count(None), x.data.size)
            if best is None or key > best:
                anchor, best = x, key
    if anchor is None:
        return tuple(order)
    mine = anchor.dims[anchor.dims.count(None):]
    if len(mine) == len(order):
        return mine
    return mine + tuple(d for d in order if d not in mine)


def align(fn: str, ops):
    """Bring NamedArray operands to one layout: (P positional) + names.

    Returns (list of data/scalars, result dims, result mapped names).
    Positional axes broadcast by NumPy's rules (left-padded with 1s); names
    broadcast by name.  A whole axis meeting a name an enclosing map holds
    only part of is cut to this instance's part (placement's ``localize``).
    """
    ops, mapped = meet(fn, ops)
    steps, dims = align_plan(fn, ops)
    return agree([apply_step(x.data, st) if st is not None else x
                  for x, st in zip(ops, steps)]), dims, mapped


def apply_step(data, step):
    """One operand's alignment step: ``(perm or None, shape or None)``."""
    perm, shape = step
    if perm is not None:
        data = jax.lax.transpose(data, perm)
    if shape is not None:
        data = jax.lax.reshape(data, shape)
    return data


_PLANS = Cache()


def align_plan(fn: str, ops):
    """How :func:`align` moves each operand (``None`` for a scalar, else a
    ``(perm, shape)`` step for :func:`apply_step`) and the result dims; pure
    layout arithmetic, cached by the operands' dims and shapes."""
    key = tuple((x.dims, x.data.shape) if isinstance(x, Aligned) else None for x in ops)
    hit = _PLANS.get(key)
    if hit is None:
        hit = _plan(fn, ops)
        _PLANS.put(key, hit)
    return hit


def _plan(fn, ops):
    sizes: dict = {}
    owner: dict = {}
    order: list = []
    P = 0
    for k, x in enumerate(ops):
        if not isinstance(x, Aligned):
            continue
        n = x.dims.count(None)
        P = max(P, n)
        for d, s in zip(x.dims[n:], x.data.shape[n:]):
            if d in sizes:
                if sizes[d] != s:
                    j = owner[d]
                    raise ValueError(
                        f"{fn}: axis name {d!r} has size {ops[j].named_shape[d]} in "
                        f"argument {j} (named shape {ops[j].named_shape}) but size "
                        f"{x.named_shape[d]} in argument {k} (named shape "
                        f"{x.named_shape})")
            else:
                sizes[d] = s
                owner[d] = k
                order.append(d)
    names = _layout(ops, order)
    steps = []
    for x in ops:
        if not isinstance(x, Aligned):
            steps.append(None)
            continue
        n = x.dims.count(None)
        mine = x.dims[n:]
        shape = x.data.shape
        perm = shp = None
        if mine != names:
            if len(mine) == len(names):
                perm = tuple(range(n)) + tuple(n + mine.index(d) for d in names)
            else:
                if mine:
                    want = [d for d in names if d in mine]
                    if tuple(want) != mine:
                        perm = tuple(range(n)) + tuple(n + mine.index(d) for d in want)
                shp = (1,) * (P - n) + shape[:n] + tuple(
                    sizes[d] if d in mine else 1 for d in names)
        elif n < P and names:
            shp = (1,) * (P - n) + shape
        steps.append((perm, shp))
    return tuple(steps), (None,) * P + names

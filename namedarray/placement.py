"""Placement: where does an axis name live?

Every name an operation is asked to reduce, gather or permute over is found in
one of three places (DESIGN.md §3):

(a) ``physical`` -- a dimension of the operand's data: the primitive's
    batching rule applies (``psum`` reduces that dimension, ``all_gather``
    turns it into a positional axis, ``ppermute`` gathers along it);
(b) ``bound``    -- mapped by an enclosing ``nmap``: the ``jax.lax``
    collective over the JAX axis name(s) (a vmap axis or mesh axes);
(c) ``split``    -- both: a local block in a physical dimension times mesh
    axes; the local step and the mesh step compose.

``nmap`` records what it binds in a context stack; the collectives in
``namedarray.parallel`` ask :func:`resolve` and never look at the stack.
"""
from __future__ import annotations

import contextlib
import dataclasses
import threading
from typing import NamedTuple

from .core.array import check_name


@dataclasses.dataclass(frozen=True)
class Binding:
    """How an enclosing map binds a name.

    ``groups`` are the JAX axis names to run collectives over, major to minor:
    ``((name,),)`` for a name ``vmap``-ed by a local ``nmap``; ``((mesh axes),)``
    for a name partitioned over a mesh.  ``local=True`` marks a *split* name
    (placement (c)): it is also a physical dimension of the operands, a local
    block of ``block`` elements on each device, so every primitive composes a
    local step over that dimension with a mesh step over ``groups``.
    """
    name: str
    groups: tuple
    sizes: tuple
    kind: str = "vmap"   # "vmap" or "mesh"
    local: bool = False
    block: int = 1

    @property
    def axes(self) -> tuple:
        return tuple(a for g in self.groups for a in g)

    @property
    def size(self) -> int:
        """The global size of the name."""
        n = self.block
        for s in self.sizes:
            n *= s
        return n


class _State(threading.local):
    stack: dict = {}


_state = _State()


def bindings() -> dict:
    """The names bound by enclosing maps (this thread)."""
    return _state.stack


@contextlib.contextmanager
def bind(new: dict):
    old = bindings()
    _state.stack = {**old, **new}
    try:
        yield
    finally:
        _state.stack = old


class Place(NamedTuple):
    name: str
    dim: int | None        # physical dimension in the operand, if any
    binding: Binding | None  # enclosing map binding, if any


def resolve(fn: str, x, names) -> list:
    """Places of ``names`` for operand ``x`` (a NamedArray or None)."""
    out = []
    dims = x.dims if x is not None else ()
    bound = bindings()
    seen = set()
    for n in names:
        check_name(fn, "axis", n)
        if n in seen:
            raise ValueError(f"{fn}: axis name {n!r} given twice in axis={tuple(names)!r}")
        seen.add(n)
        dim = dims.index(n) if n in dims else None
        b = bound.get(n)
        if b is not None and dim is not None and not b.local:
            b = None  # a physical axis shadows an outer binding of the same name
        if dim is None and b is None:
            if x is not None:
                have = f"the array has named axes {x.named_shape}"
            else:
                have = "the operand has no named axes"
            raise ValueError(
                f"{fn}: axis name {n!r} is not an axis of the operand ({have}) and "
                f"no enclosing nmap binds it (bound: {sorted(bound) or 'none'})")
        out.append(Place(n, dim, b))
    return out

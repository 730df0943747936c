"""The programs of deferred selection expressions (``engines/selection.py``):
one compiled call per expression structure (products kept apart from the sums
that use them, as NumPy rounds them), or, for small programs of exact
operations on a CPU, NumPy's own loops on the host buffers (see
``engines/host.py``); Python scalars packed into one runtime operand per type.
"""
from __future__ import annotations

import struct

import jax
import jax.numpy as jnp
import numpy as onp

from jax._src.lax.lax import _convert_element_type

from ...core.array import positional
from ...core.cache import Cache
from . import host
from .args import put_at_home, to_device
from .loops import unfused


def _on_host(prog, dtypes, outs, leaves, consts):
    """The program ``prog`` run by NumPy on the host buffers of ``leaves``, or
    None where it may not run there (see engines/host.py)."""
    views = []
    for a in leaves:
        h = host.view(a)
        if h is None:
            return None
        views.append(h)
    nodes = []

    def get(r):
        return nodes[r[1]] if r[0] == "n" else views[r[1]] if r[0] == "l" else \
            consts[r[0]][r[1]]

    with onp.errstate(all="ignore"):
        for (op, refs), dt in zip(prog, dtypes):
            args = [get(r) for r in refs]
            if op[0] == "engine":       # the static scalars in their places
                it = iter(args)
                args = [next(it) if s is _ARRAY else s[1] for s in op[2]]
            v = host.apply(onp.bitwise_and if op[0] == "and" else _NUMPY[op[1].__name__],
                           dt, args)
            if v is None:
                return None
            nodes.append(v)
    return tuple(to_device(get(r), fresh=True) for r in outs)


_PACKS = Cache(256)


_PACK_DTYPES = {float: onp.float64, int: onp.int64, complex: onp.complex128}


def _pack(t, values):
    """The Python scalars ``values`` of type ``t`` as one device array (kept
    for the next call with the same values: a loop transfers nothing)."""
    # (a float's bits: NaN's sign and payload too, which ``float.hex`` drops)
    key = (t, struct.pack(f"<{len(values)}d", *values) if t is float else struct.pack(
        f"<{2 * len(values)}d", *(p for v in values for p in (v.real, v.imag)))
        if t is complex else tuple(values))
    key = (key, jax.config.jax_default_device)     # (made where the program runs)
    d = _PACKS.get(key)
    if d is None:
        d = _PACKS.put(key, put_at_home(onp.asarray(values, _PACK_DTYPES[t])))
    return d


_EXACT_OPS: dict = {}


_NUMPY = {name: getattr(onp, name) for name in host.EXACT}


def _exact_op(op) -> bool:
    """Whether the deferred operation ``op`` is one of ``host.EXACT`` on real data."""
    r = _EXACT_OPS.get(op)
    if r is None:
        kind = op[0]
        r = kind == "and" or (kind in ("fast", "engine") and op[1].__name__ in host.EXACT and
                              (kind == "engine" or op[2].kind in "biuf"))
        _EXACT_OPS[op] = r
    return r


def _program(nleaves, types, prog, outs):
    fns = [(_op_fn(op), refs) for op, refs in prog]
    used = {r[1] for _, refs in prog for r in refs if r[0] == "n"}

    def run(*args):
        leaves = args[:nleaves]
        packs = dict(zip(types, args[nleaves:]))
        zero = packs[int][-1]
        nodes, outputs = [], []

        def get(r, out=False):
            if r[0] == "n":
                return (outputs if out else nodes)[r[1]]
            if r[0] == "l":
                return leaves[r[1]]
            # a Python scalar: weakly typed, as eager JAX takes one
            c = packs[r[0]][r[1]]
            return _convert_element_type(c, c.dtype, weak_type=True)

        for i, (f, refs) in enumerate(fns):
            v = f(*[get(r) for r in refs])
            outputs.append(v)
            nodes.append(unfused(v, zero) if i in used else v)
        return tuple(get(r, True) for r in outs)

    return jax.jit(run)


def _op_fn(op):
    """The function of the deferred operation ``op``."""
    kind = op[0]
    if kind == "fast":          # the ufunc engine's fast path: no cast of an operand
        _, uf, out_dt = op
        impl = uf._impl
        return lambda *a: _cast(impl(*a), out_dt)
    if kind == "engine":        # the engine itself, static Python scalars in place
        _, uf, slots = op

        def f(*a):
            it = iter(a)
            args = [positional(next(it)) if s is _ARRAY else s[1] for s in slots]
            return uf._call(*args).data
        return f
    if kind == "and":
        return jax.lax.bitwise_and
    if kind == "put":           # y[mask] = v: v cast to y's dtype, where
        return lambda y, m, v: jnp.where(m.reshape(m.shape + (1,) * (y.ndim - m.ndim)),
                                         v.astype(y.dtype), y)
    raise ValueError(f"evaluate: unknown deferred operation {op!r}")


def _cast(r, dt):
    return r if r.dtype == dt else r.astype(dt)


class _ArraySlot:
    """Marks an array operand among the static ones of an ``engine`` operation."""

    def __repr__(self):
        return "<array>"


_ARRAY = _ArraySlot()


_ENGINE_DTYPES = Cache()


def _engine_dtype(uf, slots, dtypes):
    """The result dtype of ``uf`` on arrays of ``dtypes`` among the static
    ``slots`` (NumPy's errors raised here, when the operation is written)."""
    key = (uf, slots, dtypes)
    dt = _ENGINE_DTYPES.get(key)
    if dt is None:
        it = iter(dtypes)
        specs = [jax.ShapeDtypeStruct((), next(it)) for s in slots if s is _ARRAY]
        dt = jax.eval_shape(_op_fn(("engine", uf, slots)), *specs).dtype
        _ENGINE_DTYPES.put(key, dt)
    return dt

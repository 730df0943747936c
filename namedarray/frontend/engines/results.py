"""Results of the engines: JAX values back as NamedArrays, JAX errors as NumPy's."""
from __future__ import annotations

import contextlib
import math
import os

import jax
import numpy as onp

from ...core.array import new, positional


def wrap_result(r, names=(), mapped=()):
    """A ``jax.numpy`` result (arrays, tuples, named tuples, lists) as NamedArrays
    whose trailing dimensions are named ``names`` (none: positional) and that
    hold ``mapped`` names of an enclosing map."""
    if isinstance(r, jax.Array):
        if not names and not mapped:
            return positional(r)
        return new(r, (None,) * (r.ndim - len(names)) + tuple(names), mapped)
    if isinstance(r, tuple):
        items = [wrap_result(v, names, mapped) for v in r]
        return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
    if isinstance(r, list):
        return [wrap_result(v, names, mapped) for v in r]
    return r


def fast_result(r, out_dt, dims, mapped=()):
    """A result with known dims (the fast paths' constructor), cast to ``out_dt``."""
    return new(r if r.dtype == out_dt else r.astype(out_dt), dims, mapped)


def finish(res, out_dt, dims, mapped=()):
    """``res`` cast to ``out_dt`` (if given) with ``dims`` (``None``: positional)."""
    if out_dt is not None and res.dtype != out_dt:
        res = res.astype(out_dt)
    return positional(res) if dims is None else new(res, dims, mapped)


def _memory_bytes() -> int:
    """This machine's physical memory (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


def check_fits(fn, shape, dtype, why=""):
    """NumPy's ``MemoryError`` (naming ``fn``) where an array of ``shape`` and
    ``dtype`` needs more than this machine's memory: raised before anything
    is allocated (where the system lets an allocation exceed the memory,
    filling it would exhaust the machine instead); ``why``: what to do."""
    need = math.prod(int(n) for n in shape) * onp.dtype(dtype).itemsize
    have = _memory_bytes()
    if have and need > have:
        raise MemoryError(
            f"{fn}: Unable to allocate {need / 2**30:.3g} GiB for an array with shape "
            f"{tuple(int(n) for n in shape)} and data type {onp.dtype(dtype)}: more than "
            f"this machine's {have / 2**30:.3g} GiB{why}")


#: the JAX errors ``reraise`` translates, besides NumPy's own classes
RUNTIME_ERRORS = (jax.errors.JaxRuntimeError,)


@contextlib.contextmanager
def allocating(fn):
    """A block whose device allocation failure is NumPy's ``MemoryError``
    (naming ``fn``); JAX raises ``RESOURCE_EXHAUSTED``."""
    try:
        yield
    except RUNTIME_ERRORS as e:
        reraise(fn, e)


def reraise(fn, e):
    """Re-raise a JAX error from a positional call as the same type, naming
    ``fn``; a device allocation failure as NumPy's ``MemoryError``."""
    msg = str(e).split("\n--------------------")[0]
    msg = msg if msg.startswith(f"{fn}:") else f"{fn}: {msg}"
    if isinstance(e, RUNTIME_ERRORS):
        if "RESOURCE_EXHAUSTED" in msg:
            raise MemoryError(msg) from None
        raise e
    if "out of bounds" in msg and "axis" in msg and isinstance(e, ValueError):
        raise onp.exceptions.AxisError(msg) from None
    if "Cannot concatenate arrays with shapes" in msg:     # (NumPy's class)
        raise ValueError(msg) from None
    new = type(e)(msg)
    if getattr(e, "host_data", False):    # data namedarray cannot hold (args.unsupported)
        new.host_data = True
    raise new from None

"""Boolean masks and buckets for the selection engine (``engines/selection.py``):
a mask checked against the array it indexes, a host mask put on the device
once, compaction of a full buffer (taken on the host, or gathered into a
power-of-two bucket so that the gather compiles once per bucket), and the
error for a data-dependent size asked for under a trace.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.array import NamedArray, new, positional
from .args import to_device


_Tracer = jax.core.Tracer


_ALTERNATIVES = ("np.where(mask, x, other), x[mask].sum() (reductions take where=), "
                 "y[mask] = x[mask] ** 2 + c[mask], or jax.numpy.nonzero(mask, size=N)")


def size_error(what, alternative=_ALTERNATIVES, of="a boolean-mask selection"):
    """The error for a data-dependent size asked for under a trace."""
    return TypeError(
        f"{what}: the size of {of} depends on the data and is unknown under jax.jit "
        f"(or a map); use a size-free form instead: {alternative}")


def bucket(n: int) -> int:
    """The padded length for ``n`` elements: the next power of two (at least 1).

    >>> [bucket(n) for n in (0, 1, 3, 4, 5, 1000)]
    [1, 1, 4, 4, 8, 1024]
    """
    return 1 << max(n - 1, 0).bit_length()


def _concrete(f, *args):
    """``f(*args)`` on concrete arrays, concrete even inside a trace (the value
    may be cached, and a traced value must never outlive its trace)."""
    r = f(*args)
    if traced(*(r if isinstance(r, tuple) else (r,))):
        with jax.ensure_compile_time_eval():
            r = f(*args)
    return r


def _to_device(h):
    """The host array ``h`` on a device, concrete even inside a trace: its
    dtype's home (``core.backends.home_device``: NumPy's float64 stays on the
    CPU backend of a TPU machine, whose float64 is an approximation), else
    the default device."""
    return _concrete(to_device, h)


def traced(*arrays) -> bool:
    return any(isinstance(a, _Tracer) for a in arrays)


@functools.partial(jax.jit, static_argnames=("axis",))
def _gather(data, idx, axis):
    return jnp.take(data, idx, axis=axis)


def compact(data, mask_host, axis=0):
    """``data`` at the true positions of the 1-d host bool ``mask_host`` along
    ``axis``: taken on the host where the data is there already (a CPU device)
    or small, else gathered in a power-of-two bucket (one compilation per
    bucket, not per count) and cut to the count on the host."""
    idx = onp.flatnonzero(mask_host)
    n = idx.size
    shape = data.shape[:axis] + (n,) + data.shape[axis + 1:]
    if n == 0:
        return _to_device(onp.zeros(shape, data.dtype))
    if traced(data):    # a concrete mask on traced data: the size is static
        return jnp.take(data, jnp.asarray(idx), axis=axis)
    if data.size <= _HOST_TAKE or _on_cpu(data):
        # no compilation at all: the buffer comes to the host and is taken there
        return _to_device(onp.take(onp.asarray(data), idx, axis=axis))
    b = bucket(n)
    padded = onp.zeros(b, onp.int32 if data.shape[axis] < 2 ** 31 else onp.int64)
    padded[:n] = idx
    h = onp.asarray(_concrete(_gather, data, _to_device(padded), axis))
    return _to_device(h[(slice(None),) * axis + (slice(0, n),)])


#: buffers of at most this many elements are compacted on the host
_HOST_TAKE = 1 << 16


def _on_cpu(data) -> bool:
    """Whether the jax array ``data`` lives on CPU devices (its host copy is free)."""
    return all(d.platform == "cpu" for d in data.devices())


# masks that came from the host: converted once, so that ``z[m]`` and ``c[m]``
# share one device mask (and are recognised as the same mask)
_HOST_MASKS: list = []


def _device_mask(m):
    for h, copy, d in _HOST_MASKS:
        if h is m and onp.array_equal(copy, m):
            return d
    copy = m.copy()     # (a CPU device_put may share the host buffer)
    d = _to_device(copy)
    _HOST_MASKS.insert(0, (m, copy, d))
    del _HOST_MASKS[8:]
    return d


def _mask_array(fn, x, idx):
    """The mask as a positional-or-named NamedArray, checked against ``x``."""
    if isinstance(idx, onp.ndarray):
        m = positional(_device_mask(idx))
    elif isinstance(idx, jax.Array):
        m = positional(idx)
    else:
        m = _plain(idx)     # a snapshot: later writes to the mask do not reach it
    k = m.ndim
    mnames = tuple(m.named_shape)
    if mnames and k:
        raise IndexError(
            f"{fn}: a boolean mask with both positional axes {m.shape} and named axes "
            f"{m.named_shape} is not supported; use a positional mask, or a mask over "
            "one name")
    if mnames:
        if len(mnames) > 1:
            raise IndexError(f"{fn}: a boolean mask selects along one name at most; got "
                             f"named axes {m.named_shape}")
        name = mnames[0]
        if name not in x.named_shape:
            raise IndexError(f"{fn}: the mask's axis {name!r} is not an axis of the array "
                             f"(named shape {x.named_shape})")
        if x.named_shape[name] != m.named_shape[name]:
            raise IndexError(f"{fn}: boolean index did not match indexed array along axis "
                             f"{name!r}; size of axis is {x.named_shape[name]} but size of "
                             f"corresponding boolean axis is {m.named_shape[name]}")
        return m
    shape = x.shape
    if k > len(shape):
        raise IndexError(f"{fn}: too many indices for array: array is {len(shape)}-"
                         f"dimensional, but {k} were indexed")
    for ax, (a, b) in enumerate(zip(shape, m.shape)):
        if a != b:
            raise IndexError(
                f"{fn}: boolean index did not match indexed array along axis {ax}; "
                f"size of axis is {a} but size of corresponding boolean axis is {b}")
    return m


def _plain(x) -> NamedArray:
    """A NamedArray holding ``x``'s current data (a snapshot, not a view)."""
    return new(x.data, x.dims, x.mapped)

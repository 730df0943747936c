"""Elementwise functions: one table of NumPy ufuncs over the ``ufunc`` engine.

Each NumPy ufunc that ``jax.numpy`` implements becomes a
``namedarray._dispatch.ufunc``: NumPy's dtype resolution, alignment of named
axes by name, broadcasting of positional axes by NumPy's rules.

>>> import namedarray as np
>>> x = np.arange(3.0).tag("i")
>>> y = np.arange(2.0).tag("j")
>>> (x * y).named_shape
{'i': 3, 'j': 2}
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp

from . import _config
from .core.array import NamedArray, align, new, normalize_axis, operand, positional
from ._dispatch import ufunc

# NumPy ufuncs with signatures (matmul, vecdot, ...) live in namedarray/einsum.
_GUFUNCS = {"matmul", "vecdot", "matvec", "vecmat", "isnat"}

# --------------------------------------------------------------------------
# NumPy fidelity on top of the engine
# --------------------------------------------------------------------------
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
# integer x // 0, x % 0: NumPy gives 0 (with a warning); XLA gives garbage
_INT_DIV = {"floor_divide", "remainder", "mod", "fmod", "divmod"}


class _SafeIntDiv:
    """``jnp`` division-like ufunc whose integer results are 0 where y == 0
    (one compiled computation)."""

    def __init__(self, jfn):
        self._f = jfn
        self.__name__ = jfn.__name__
        self._safe = jax.jit(self._impl)

    def _impl(self, x, y):
        zero = y == 0
        r = self._f(x, jnp.where(zero, jnp.ones_like(y), y))
        if isinstance(r, tuple):
            return tuple(jnp.where(zero, jnp.zeros_like(v), v) for v in r)
        return jnp.where(zero, jnp.zeros_like(r), r)

    def __call__(self, x, y):
        x, y = jnp.asarray(x), jnp.asarray(y)
        if not jnp.issubdtype(jnp.result_type(x, y), jnp.integer):
            return self._f(x, y)
        return self._safe(x, y)

    def __getattr__(self, k):
        return getattr(self._f, k)


def _fits(v: int, dt) -> bool:
    info = onp.iinfo(dt)
    return info.min <= v <= info.max


class _ufunc(ufunc):
    """The engine's ufunc plus NumPy 2's scalar rules: a Python ``bool`` is a
    ``bool`` operand; a Python ``int`` that does not fit the integer loop it
    joins raises ``OverflowError`` (comparisons compare exactly instead);
    integers to negative Python-int powers raise ``ValueError``; integer
    division by zero gives 0; ``add``/``multiply`` ``accumulate`` small
    integers in the default integer, as ``numpy`` does."""

    def _call(self, *args, dtype=None, **kw):
        args = list(args)
        shapes = [a.shape for a in args[: self.nin] if isinstance(a, NamedArray)]
        if len(shapes) > 1:
            try:
                onp.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError(
                    f"{self.__name__}: operands could not be broadcast together with "
                    f"positional shapes {' '.join(map(str, shapes))}") from None
        for i, a in enumerate(args[: self.nin]):
            if isinstance(a, bool):
                args[i] = positional(jnp.asarray(a))
        ints = [i for i, a in enumerate(args[: self.nin])
                if type(a) is int and a != 0]
        if ints and _config.numpy_dtypes() and len(args) >= self.nin:
            ops = [operand(a) for a in args[: self.nin]]
            key = tuple(o.data.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
            in_dts, _ = self._loop(key + (dtype,))
            for i in ints:
                dt = onp.dtype(in_dts[i])
                if dt.kind not in "iu" or _fits(args[i], dt):
                    continue
                if self.__name__ in _COMPARISONS and dtype is None and _fits(args[i], onp.int64):
                    args[i] = positional(jnp.asarray(args[i], onp.int64))
                else:
                    raise OverflowError(f"{self.__name__}: Python integer {args[i]} out of "
                                        f"bounds for {dt}")
            if self.__name__ in ("power", "pow") and 1 in ints and args[1] < 0 and \
                    onp.dtype(in_dts[1]).kind in "iu" and getattr(ops[0], "size", 1):
                raise ValueError(f"{self.__name__}: integers to negative integer powers "
                                 f"are not allowed (exponent {args[1]})")
            if self.__name__ in ("power", "pow") and 1 in ints and args[1] < 0 and \
                    onp.dtype(in_dts[1]).kind in "iu":
                args[1] = -args[1]  # empty base: no element is raised, result empty
        return super()._call(*args, dtype=dtype, **kw)

    def accumulate(self, a, axis=0, dtype=None, out=None):
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = positional(jnp.asarray(x))
        if dtype is None and _config.numpy_dtypes():
            dtype = _accumulator_dtype(self.__name__, x.dtype)
            if dtype is None:
                dtype = self._loop((x.dtype, x.dtype, None))[1][0] if self.nin == 2 else None
        if dtype is not None and x.dtype != dtype:
            x = new(x.data.astype(dtype), x.dims)
        res = super().accumulate(x, axis=axis, dtype=None, out=None)
        if dtype is not None and res.dtype != dtype:
            res = new(res.data.astype(dtype), res.dims)
        if out is not None:
            from ._dispatch import _store_out
            return _store_out(f"{self.__name__}.accumulate", out, res)
        return res

    def at(self, a, indices, b=None):
        """``numpy.ufunc.at``: unbuffered in-place ``a[indices] op= b``."""
        fn = f"{self.__name__}.at"
        if isinstance(a, NamedArray) and not a.names:
            from ._indexing import _check_index
            _check_index(fn, a.shape, indices)
            indices = _host_index(indices)
            if any(getattr(i, "size", 1) == 0 for i in (
                    indices if isinstance(indices, tuple) else (indices,))):
                return None
            if b is not None and isinstance(b, (bool, int, float, complex)):
                b = positional(jnp.asarray(b, a.dtype))
        return super().at(a, indices, b)

    def reduceat(self, a, indices, axis=0, dtype=None, out=None):
        """``numpy.ufunc.reduceat`` with concrete ``indices`` (positional axis)."""
        from ._frontend import concatenate
        fn = f"{self.__name__}.reduceat"
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = positional(jnp.asarray(x))
        if isinstance(axis, str):
            raise ValueError(f"{fn}: axis={axis!r} names an axis; reduceat takes a "
                             "positional axis")
        ax = normalize_axis(fn, axis, x.ndim)
        idx = onp.asarray(indices._plain(fn) if isinstance(indices, NamedArray) else indices)
        if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
            raise TypeError(f"{fn}: indices must be a 1-d sequence of integers, got {indices!r}")
        n = x.shape[ax]
        for i in idx:
            if not 0 <= i < n:
                raise IndexError(f"{fn}: index {int(i)} out-of-bounds in reduceat for "
                                 f"axis {ax} with size {n}")
        parts = []
        for k, i in enumerate(idx):
            j = idx[k + 1] if k + 1 < len(idx) else n
            sl = (slice(None),) * ax
            if j > i:
                parts.append(self.reduce(x[sl + (slice(int(i), int(j)),)], axis=ax,
                                         dtype=dtype, keepdims=True))
            else:
                seg = x[sl + (slice(int(i), int(i) + 1),)]
                parts.append(self.reduce(seg, axis=ax, dtype=dtype, keepdims=True))
        if not parts:
            raise ValueError(f"{fn}: indices must not be empty")
        res = concatenate(parts, axis=ax)
        if out is not None:
            from ._dispatch import _store_out
            return _store_out(fn, out, res)
        return res


def _host_index(idx):
    """Lists in an index as NumPy reads them (an empty list is an intp index)."""
    if isinstance(idx, tuple):
        return tuple(_host_index(i) for i in idx)
    if isinstance(idx, list):
        h = onp.asarray(idx)
        return jnp.asarray(h.astype(onp.intp) if h.size == 0 else h)
    return idx


def _accumulator_dtype(name, dt):
    """NumPy's default accumulator for add/multiply: small ints -> the default int."""
    dt = onp.dtype(dt)
    if name not in ("add", "multiply") or dt.kind not in "biu":
        return None
    if dt.kind == "u":
        return onp.dtype(onp.uint) if dt.itemsize < onp.dtype(onp.uint).itemsize else dt
    return onp.dtype(onp.int_) if dt.kind == "b" or dt.itemsize < onp.dtype(
        onp.int_).itemsize else dt


def _make(name):
    jfn = getattr(jnp, name)
    if name in _INT_DIV:
        jfn = _SafeIntDiv(jfn)
    return _ufunc(name, jfn, getattr(onp, name))


UFUNCS = {
    name: _make(name)
    for name in sorted(dir(onp))
    if isinstance(getattr(onp, name), onp.ufunc) and name not in _GUFUNCS
    and hasattr(jnp, name)
}
globals().update(UFUNCS)


def where(condition, x=None, y=None, /):
    """``numpy.where``: elementwise choice, aligned by name; one-argument form
    is ``nonzero``."""
    if x is None and y is None:
        from ._indexing import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    ops = [operand(condition), operand(x), operand(y)]
    dt = result_type(ops[1], ops[2])
    ops[1:] = [new(o.data.astype(dt), o.dims) if isinstance(o, NamedArray) else o
               for o in ops[1:]]
    if all(not isinstance(o, NamedArray) or not o.names for o in ops):
        datas = [o.data if isinstance(o, NamedArray) else o for o in ops]
        return positional(jnp.where(datas[0], datas[1], datas[2]).astype(dt))
    datas, dims = align("where", ops)
    return new(jnp.where(*datas).astype(dt), dims)


def result_type(*args):
    """``numpy.result_type`` (NumPy 2 rules: Python scalars are weak)."""
    from . import _config
    conv = [a.dtype if isinstance(a, NamedArray) else a for a in args]
    if _config.numpy_dtypes():
        return onp.result_type(*conv)
    return jnp.result_type(*conv)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None):
    """``numpy.clip``: ``minimum(maximum(a, a_min), a_max)`` with NumPy dtypes."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    r = operand(a)
    if lo is not None:
        r = UFUNCS["maximum"](r, lo)
    if hi is not None:
        r = UFUNCS["minimum"](r, hi)
    if out is not None:
        out._assign("clip", r)
        return out
    return r

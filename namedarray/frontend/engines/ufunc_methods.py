"""The ufunc methods: ``reduce``, ``accumulate``, ``outer``, ``at`` and
``reduceat`` of NumPy's ufuncs over NamedArrays (integer axes; ``reduce``
over names goes through the reduction engine, ``core.hooks.ufunc_reduce``).

:class:`UfuncMethods` is the part of ``ufunc`` (``engines/ufunc.py``) that
these methods are; ``_Folds`` gives a binary ``jax.numpy`` function the
generic methods NumPy gives every binary ufunc.  Each method follows NumPy's
override protocol (``_defers``) and answers NumPy's classes with NumPy
(``numpy_data.host_method``).

>>> import namedarray as np
>>> np.add.accumulate(np.arange(4)), np.multiply.outer(np.arange(2), np.arange(3)).shape
(array([0, 1, 3, 6]), (2, 3))
"""
from __future__ import annotations

import contextlib
import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends, config, hooks
from ...core.array import (NamedArray, View, check_writeable, is_value, new,
                           normalize_axis, operand, positional, rewrap)
from .dispatch import routed
from .generic import generic
from .numpy_data import host_method
from .index_rules import check_index
from .join import concatenate
from .out import store_out

#: the operand types the fast path takes: arrays and views (a basic slice,
#: ``x[:, None]``, ``x.T``), whose ``data`` is current; a boolean-mask selection
#: or a deferred expression takes the general path
_ARRAYS = (NamedArray, View)
_PY_NUMBERS = frozenset((float, int, bool, complex))

_KNOWN_OVERRIDES = (NamedArray.__array_ufunc__, onp.ndarray.__array_ufunc__)


def _cast(x, dt):
    """``x`` with its data cast to ``dt`` (a method's ``dtype=``, NumPy's loop),
    at ``dt``'s home as every new array of an eager call: NumPy's float64 made
    from float32 data on a TPU goes to the CPU backend, where the method then
    runs (``copysign.reduce(.., dtype=float64)`` reads float64 sign bits,
    which a TPU lacks)."""
    _, (d,) = backends.at_home((onp.dtype(dt),), (x.data,), config.numpy_dtypes())
    return rewrap(x, d.astype(dt))


def _routed(method):
    """``method`` of a ufunc of a family of its own in the capability table
    (``core/backends.py``: a float remainder, the bit-level float functions)
    run where the table allows that family on its operands (``dispatch.routed``):
    a TPU's float32 remainder is inexact, so ``fmod.reduce`` of float32 data
    folds on the CPU backend under NumPy's dtype defaults, as ``fmod`` runs
    there.  Other ufuncs' methods run where their operands are (each array
    at its dtype's home already)."""
    calls = {}

    @functools.wraps(method)
    def m(self, *args, **kwargs):
        family = backends.FAMILY_OF.get(self.__name__, "any")
        if family == "any" or backends.cpu_only():
            return method(self, *args, **kwargs)
        f = calls.get(self.__name__)
        if f is None:
            f = calls[self.__name__] = routed(functools.partial(method, self),
                                              f"{self.__name__}.{method.__name__}", family)
        return f(*args, **kwargs)
    return m


def _beside(d):
    """A context making new arrays on the one device ``d`` is committed to
    (else nothing changes)."""
    if isinstance(d, jax.Array) and not isinstance(d, jax.core.Tracer) and \
            d.committed and len(d.devices()) == 1:
        return jax.default_device(next(iter(d.devices())))
    return contextlib.nullcontext()


def _overrides(args, kwargs) -> bool:
    """Whether an operand (or an ``out=``, or the ``where=`` mask: NumPy's
    protocol asks them too) is an object of another library that overrides
    ufuncs (``__array_ufunc__``, or ``None`` to opt out)."""
    if kwargs:
        outs = kwargs.get("out")
        args = args + (outs if type(outs) is tuple else (outs,)) + (kwargs.get("where"),)
    for a in args:
        t = type(a)
        if t not in _ARRAYS and t not in _PY_NUMBERS and hasattr(t, "__array_ufunc__") \
                and t.__array_ufunc__ not in _KNOWN_OVERRIDES:
            return True
    return False


def _defers(method):
    """A ufunc method that follows NumPy's override protocol: given an operand
    that overrides ufuncs, NumPy's method runs the protocol (the override gets
    NumPy's ufunc, equal to this one, and NumPy's normalized arguments)."""
    name = method.__name__

    @functools.wraps(method)
    def deferring(self, *args, **kwargs):
        if _overrides(args, kwargs):
            return getattr(self._np, name)(*args, **kwargs)
        return method(self, *args, **kwargs)
    return deferring


class UfuncMethods:
    """``ufunc``'s methods other than the call (the class is ``engines/ufunc.py``'s
    ``ufunc``: ``self`` has its ``_np``, ``_jfn``, ``_loop``, ``nin``, ``nout``)."""

    @host_method
    @_defers
    @_routed
    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        _check_out(f"{self.__name__}.reduce", out)
        x, dt = self._reduction("reduce", a, dtype)
        if dtype is not None and dt is not None and config.numpy_dtypes() and \
                self.__name__ not in ("add", "multiply"):     # (sum, prod take dtype=)
            # the operand cast to NumPy's loop (a complex is true where either part is)
            x, dtype = rewrap(x, x.data != 0) if dt == bool else _cast(x, dt), None
        elif dtype is not None and dt is not None and not backends.cpu_only() and \
                onp.dtype(dt) != x.dtype and dt != bool:
            x = _cast(x, dt)    # (the sum's dtype at its home: float64 on the CPU off a TPU)
        if isinstance(initial, NamedArray):
            initial = initial._plain(f"{self.__name__}.reduce")
        if hasattr(initial, "dtype"):       # in the reduction's dtype, as NumPy casts it
            initial = jnp.asarray(initial).astype(x.dtype if dtype is None else dtype)
        if initial is not None and self.__name__ in ("logical_and", "logical_or"):
            r = self(self.reduce(x, axis, keepdims=keepdims, where=where), initial)
            return store_out(f"{self.__name__}.reduce", out, r)
        n = x.ndim if axis is None else len(axis) if isinstance(axis, tuple) else 1
        if n > 1 and not self._reorderable(x.dtype):
            raise ValueError(f"{self.__name__}.reduce: reduction operation "
                             f"'{self._np.__name__}' is not reorderable, so at most one "
                             "axis may be specified")
        if where is not True and initial is None and self._np.identity is None:
            raise ValueError(f"{self.__name__}.reduce: reduction operation "
                             f"'{self._np.__name__}' does not have an identity, so to use a "
                             "where mask one has to specify 'initial'")
        if self.__name__ in ("power", "pow") and not x.names and not x.mapped and \
                x.ndim and isinstance(axis, (int, type(None))) and \
                onp.dtype(x.dtype if dtype is None else dtype).kind == "i" and \
                not isinstance(x.data, jax.core.Tracer):
            # the exponents the fold meets (all but the first element, or all
            # after an initial): a negative one is NumPy's ValueError
            d = x.data.ravel() if axis is None else jnp.moveaxis(x.data, axis, 0)
            if d.shape[0] and bool(_any_negative(d if initial is not None else d[1:])):
                raise ValueError(f"{self.__name__}.reduce: Integers to negative integer "
                                 "powers are not allowed.")
        return hooks.ufunc_reduce(self, x, axis=axis, dtype=dtype, out=out,
                                  keepdims=keepdims, initial=initial, where=where)

    def _reduction(self, meth, a, dtype):
        """NumPy's checks of ``reduce``, ``accumulate``, ``reduceat`` of ``a``:
        ``a`` as a NamedArray cast to NumPy's loop dtype for the reduction
        (unless ``dtype`` is given), and that dtype."""
        fn = f"{self.__name__}.{meth}"
        if self.nin != 2:
            raise ValueError(f"{fn}: {meth} only supported for binary functions")
        if self.nout != 1:
            raise ValueError(f"{fn}: {meth} only supported for functions returning a "
                             "single value")
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = positional(jnp.asarray(x))
        if not config.numpy_dtypes() or config.any_ml([x.dtype] + (
                [] if dtype is None else [onp.dtype(dtype)])):
            return x, dtype
        dt = self._probe(fn, meth, (onp.ones(2, x.dtype),) + (
            ([0],) if meth == "reduceat" else ()), {"dtype": dtype})
        if dtype is None and dt != x.dtype:
            x = _cast(x, dt)
        return x, dt

    def _probe(self, fn, meth, args, kwargs):
        """The dtype of NumPy's ``meth`` on the small stand-ins ``args`` (what
        its loop resolution gives), or NumPy's error for them, as a standard
        exception naming ``fn`` (cached by the stand-ins' types)."""
        key = (meth,) + tuple(getattr(a, "dtype", None) or type(a) for a in args) + tuple(
            kwargs.items())
        hit = self._probes.get(key)
        if hit is None:
            try:
                with onp.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    hit = onp.asarray(getattr(self._np, meth)(*args, **kwargs)).dtype
            except (TypeError, ValueError, OverflowError) as e:
                hit = e
            self._probes.put(key, hit)
        if isinstance(hit, Exception):
            base = next(t for t in type(hit).__mro__ if t.__module__ == "builtins")
            raise base(f"{fn}: {hit}")
        return hit

    def _reorderable(self, dt) -> bool:
        """Whether NumPy reduces this ufunc over several axes at once."""
        ok = self._reorder.get(dt)
        if ok is None:
            try:
                self._np.reduce(onp.zeros((1, 1), dt), axis=(0, 1))
                ok = True
            except ValueError as e:
                ok = "reorderable" not in str(e)
            except TypeError:
                ok = True
            self._reorder[dt] = ok
        return ok

    @host_method
    @_defers
    @_routed
    def accumulate(self, a, axis=0, dtype=None, out=None):
        _check_out(f"{self.__name__}.accumulate", out)
        x, _ = self._reduction("accumulate", a, dtype)
        if dtype is None and config.numpy_dtypes():
            dtype = _accumulator_dtype(self.__name__, x.dtype)
            if dtype is None:
                dtype = self._loop((x.dtype, x.dtype, None))[1][0] if self.nin == 2 else None
        if dtype is not None and x.dtype != dtype:
            x = _cast(x, dtype)
        res = generic(f"{self.__name__}.accumulate",
                      lambda d, axis: self._jfn.accumulate(d, axis=axis),
                      (x,), {"axis": axis}, axis_pos=1, named="keep")
        if dtype is not None and res.dtype != dtype:
            res = rewrap(res, res.data.astype(dtype))
        return store_out(f"{self.__name__}.accumulate", out, res)

    @host_method
    @_defers
    def outer(self, a, b, **kw):
        if self.nin != 2:
            raise ValueError(f"{self.__name__}.outer: outer product only supported for "
                             "binary functions")
        a, b = operand(a), operand(b)
        a = a if isinstance(a, NamedArray) else positional(jnp.asarray(a))
        b = b if isinstance(b, NamedArray) else positional(jnp.asarray(b))
        na, nb = a.ndim, b.ndim
        if na + nb > 64:
            raise ValueError(f"{self.__name__}.outer: maximum supported dimension for an "
                             f"ndarray is 64, but the result would have {na + nb} (NumPy's "
                             "limit)")
        ea = a.data.reshape(a.shape + (1,) * nb + a.data.shape[na:]) if nb else a.data
        b2 = rewrap(b, b.data)
        a2 = new(ea, (None,) * (na + nb) + a.names, a.mapped)
        return self(a2, b2, **kw)

    @host_method
    @_defers
    def at(self, a, indices, b=None):
        """``numpy.ufunc.at``: unbuffered in-place ``a[indices] = op(a[indices], b)``:
        a repeated index applies the operation again, each step computed in
        the ufunc's loop and cast back to ``a``'s dtype (``same_kind``)."""
        fn = f"{self.__name__}.at"
        if not isinstance(a, NamedArray) or is_value(a):
            raise TypeError(f"{fn}: first operand must be array (it is updated in place)")
        if self.nout != 1:
            raise ValueError(f"{fn}: only single output ufuncs supported")
        if self.nin == 2 and b is None:
            raise ValueError(f"{fn}: second operand needed for ufunc")
        if self.nin == 1 and b is not None:
            raise ValueError(f"{fn}: second operand provided when ufunc is unary")
        check_writeable(fn, a, "output array")
        if a.names:
            raise TypeError(f"{fn}: the target has named axes {a.named_shape}; untag them "
                            "first")
        check_index(fn, a.shape, indices)
        pos = jnp.arange(a.size).reshape(a.shape)[_index_data(_host_index(indices))]
        b = None if b is None else operand(b)
        args = () if b is None else (b,)
        if config.numpy_dtypes() and not config.any_ml(
                [a.dtype] + [o.dtype for o in args if isinstance(o, NamedArray)]):
            # NumPy's casting errors: its own at on stand-ins of these types
            # (a Python scalar as itself: its value decides)
            self._probe(fn, "at", (onp.ones(1, a.dtype), [0]) + tuple(
                onp.ones((), o.dtype) if isinstance(o, NamedArray) else o for o in args), {})
        if isinstance(b, NamedArray):
            if b.names:
                raise TypeError(f"{fn}: the operand has named axes {b.named_shape}; "
                                "untag them first")
            try:
                bd = jnp.broadcast_to(b.data, pos.shape).reshape(-1)
            except ValueError:
                raise ValueError(f"{fn}: operands could not be broadcast together with "
                                 f"shapes {pos.shape} {b.shape}") from None
        pos = pos.reshape(-1)
        if pos.size == 0:
            return None
        flat = a.data.reshape(-1)

        def step(flat, p, k):
            """``op`` on the elements at flat positions ``p`` (the ``k``-th operands)."""
            o = (positional(bd[k]),) if isinstance(b, NamedArray) else args
            r = self(positional(flat[p]), *o)
            return flat.at[p].set(r.data.astype(flat.dtype))

        if isinstance(pos, jax.core.Tracer):        # under jit: one element at a time
            flat = jax.lax.fori_loop(0, pos.size, lambda k, f: step(f, pos[k], k), flat)
        else:
            # NumPy's order: the r-th occurrence of each position in round r
            # (one round where no position repeats)
            hp = onp.asarray(pos)
            order = onp.argsort(hp, kind="stable")
            sp = hp[order]
            first = onp.r_[0, onp.flatnonzero(sp[1:] != sp[:-1]) + 1]
            rank = onp.empty_like(hp)
            rank[order] = onp.arange(hp.size) - onp.repeat(first, onp.diff(onp.r_[first,
                                                                              hp.size]))
            for r in range(int(rank.max()) + 1):
                k = onp.flatnonzero(rank == r) if r or rank.any() else slice(None)
                flat = step(flat, pos[k], k)
        a.data = flat.reshape(a.data.shape)

    @host_method
    @_defers
    @_routed
    def reduceat(self, a, indices, axis=0, dtype=None, out=None):
        """``numpy.ufunc.reduceat`` with concrete ``indices`` (positional axis)."""
        fn = f"{self.__name__}.reduceat"
        _check_out(fn, out)
        x, _ = self._reduction("reduceat", a, dtype)
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
            stop = int(j) if j > i else int(i) + 1
            parts.append(self.reduce(x[sl + (slice(int(i), stop),)], axis=ax,
                                     dtype=dtype, keepdims=True))
        if not parts:       # no slice: an empty result, in the reduction's dtype
            r = x[(slice(None),) * ax + (slice(0, 0),)]
            return store_out(fn, out, r if dtype is None else r.astype(dtype))
        return store_out(fn, out, concatenate(parts, axis=ax))


class _Folds:
    """A binary ``jax.numpy`` function with ``jax.numpy``'s generic ufunc
    methods (``reduce``, ``accumulate``: a fold in NumPy's order), which NumPy
    gives every binary ufunc (``fmax.reduce``, ``arctan2.accumulate``)."""

    def __init__(self, f, identity):
        self._f = f
        self._u = jnp.frompyfunc(f, 2, 1, identity=identity)
        self.__name__ = getattr(f, "__name__", "ufunc")

    def __call__(self, x, y):
        return self._f(x, y)

    def reduce(self, d, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=None):
        """A left fold over ``axis`` (several axes: one after another, in C
        order), from the first element or ``initial``."""
        d = jnp.asarray(d) if dtype is None else jnp.asarray(d).astype(dtype)
        axes = tuple(range(d.ndim)) if axis is None else (
            (axis,) if isinstance(axis, int) else tuple(axis))
        axes = tuple(sorted(a % d.ndim for a in axes)) if d.ndim else ()
        front = tuple(range(len(axes)))
        rest = tuple(n for i, n in enumerate(d.shape) if i not in axes)
        m = jnp.moveaxis(d, axes, front).reshape((-1,) + rest)
        w = None if where is None else jnp.moveaxis(jnp.broadcast_to(
            where, d.shape), axes, front).reshape(m.shape)
        if initial is None and m.shape[0] == 0:
            if self._u.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} "
                                 "which has no identity")
            initial = self._u.identity
        with _beside(d):    # (made where ``d`` lies: float64 off a TPU)
            seen = jnp.full(rest, initial is not None)
            start = jnp.zeros(rest, d.dtype) if initial is None else jnp.full(
                rest, initial, d.dtype)

        def step(c, xw):    # (the fold so far, whether it has a first element)
            acc, seen = c
            x, take = xw
            r = jnp.where(seen, self._f(acc, x).astype(d.dtype), x)
            return (jnp.where(take, r, acc), seen | take), None
        (r, seen), _ = jax.lax.scan(step, (start, seen), (
            m, jnp.ones(m.shape, bool) if w is None else w))
        if w is not None and not isinstance(seen, jax.core.Tracer) and not seen.all():
            raise ValueError(f"reduction operation '{self.__name__}' does not have an "
                             "identity, so to use a where mask one has to specify "
                             "'initial'")
        if keepdims:
            r = r.reshape(tuple(1 if i in axes else n for i, n in enumerate(d.shape)))
        return r

    def accumulate(self, *args, **kwargs):
        return self._u.accumulate(*args, **kwargs)

    def __getattr__(self, k):
        return getattr(self._f, k)


def _check_out(fn, out):
    """NumPy's error for ``out=`` a scalar (scalars are values, never written)
    or a read-only array (before the loop is chosen, as NumPy checks it)."""
    for o in out if isinstance(out, tuple) else (out,):
        if o is not None and (is_value(o) or isinstance(o, (onp.generic, bool, int, float,
                                                             complex))):
            raise TypeError(f"{fn}: return arrays must be of ArrayType (out= is a scalar, "
                            "which cannot be written; pass an array)")
        if isinstance(o, NamedArray):
            check_writeable(fn, o, "output array")


@jax.jit
def _any_negative(d):
    return jnp.any(d < 0)


def _index_data(idx):
    if isinstance(idx, tuple):
        return tuple(_index_data(i) for i in idx)
    if isinstance(idx, NamedArray):
        return idx._plain("index")
    if isinstance(idx, list):
        return jnp.asarray(idx)
    return idx


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

"""Boolean-mask selections: ``x[mask]`` stays full-size until a size is needed.

``x[mask]`` with a boolean mask (a NamedArray, a ``jax`` or a NumPy array)
returns a :class:`Selection`: the full-size data and the mask.  Elementwise
operations between selections of the same mask, and with scalars and arrays
that broadcast to them, reductions (``sum``, ``mean``, ``max``, ... through
``where=``), a selection of a selection (``v[v > 0]`` where ``v`` is one) and
``y[mask] = value`` all run on the full-size buffers, so their shapes never
depend on the data: a loop over changing masks compiles once, and the idioms
work under ``jax.jit``.

Elementwise operations on a selection are deferred (:class:`Deferred`): a
statement builds a small expression, and the expression runs as one compiled
call, cached by its structure, when something reads it (``y[mask] = ...``, a
reduction, materializing) or when it reaches ``_MAX_NODES`` operations.  The
combined mask of a selection of a selection is deferred too, so a loop like
``v = v[np.abs(v) < 2.5] * 1.05`` joins its statements into one expression,
mask and buffer evaluated together every few iterations in the same form.
Python numbers in it are runtime operands, weakly typed as eager JAX takes
them, so a loop hits the cache every iteration, and the values and dtypes are
those of the operations run one by one.  On a CPU, a small program of exact
operations runs in NumPy on the host buffers, with the same bits, until that
has cost about a compilation (see engines/host.py); then it compiles.

A selection becomes the exact NumPy array (one host sync, NumPy's order) when
code needs its elements: printing, iteration, ``numpy.asarray``, indexing it,
any function that does not know selections (every such path reads ``.data``,
which materializes, so nothing can see the full-size buffer).  Its ``shape``
and ``len`` need the count only.  Materializing takes the elements on the
host where the buffer is there already (a CPU) or small; otherwise it gathers
into a buffer whose length is a power of two (``bucket``), so the gather
compiles once per bucket, and the padding never leaves the host copy.  Results whose length depends on
the data (``nonzero``, ``argwhere``, ``flatnonzero``, ``unique``) are
selections of such padded buffers (:func:`padded`).  Under ``jax.jit`` a size
is unknown: asking for one raises a ``TypeError`` that names the size-free form.

Selections are what data on a device gets: small eager data living on the
host (engines/host.py) is indexed by NumPy there, exactly, with no program
to compile.

>>> import jax, numpy
>>> import namedarray as np
>>> x = np.asarray(jax.device_put(numpy.arange(6.0)))      # data on the device
>>> s = x[x % 2 == 0]
>>> type(s).__name__, s.dtype, (s * 2).sum()
('Selection', dtype('float64'), np.float64(12.0))
>>> x[x > 3] = x[x > 3] * 10
>>> x
array([ 0.,  1.,  2.,  3., 40., 50.])
>>> s.shape, s
((3,), array([0., 2., 4.]))

A shrinking working set: the iterations' statements join one deferred
expression (mask and values), evaluated every few iterations by one compiled
call, the same one every time.

>>> v = np.asarray(jax.device_put(numpy.asarray([0.5, -3.0, 2.0, 1.5, -0.25])))
>>> for _ in range(3):
...     v = v[np.abs(v) < 2.5] * 1.5
>>> v
array([ 1.6875 , -0.84375])
>>> i = np.flatnonzero(np.asarray(jax.device_put(numpy.arange(10))) % 4 == 1)  # bucket 4
>>> i, i.shape, (i * 2).max()
(array([1, 5, 9]), (3,), np.int64(18))

A mask with a named axis selects along that name; a reduction over the name
is still a named reduction (a collective under ``nmap``):

>>> y = np.arange(6.0).reshape(2, 3).tag("b", None)
>>> keep = np.asarray([True, False]).tag("b")
>>> y[keep].sum(axis="b")
array([0., 1., 2.])

The engine's other rooms: ``engines/masks.py`` (masks, buckets, compaction),
``engines/programs.py`` (the compiled and host programs of an expression),
``reductions/masked.py`` (reductions through ``where=``).  This module
keeps what calls itself in a circle: a :class:`Selection` settles through
:func:`evaluate`, which writes the :class:`Deferred` values that
:func:`_defer` and ``select`` build for it (about 700 lines).
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends, config
from ...core.cache import Cache
from ...core.array import NamedArray, new, operand, positional
from ...core.align import align
from . import host
from .masks import (_concrete, _mask_array, _on_cpu, _plain, _to_device, bucket, compact,
                    size_error, traced)
from .programs import _ARRAY, _engine_dtype, _exact_op, _on_host, _pack, _program


def is_mask(idx) -> bool:
    """Whether ``idx`` is one boolean array with at least one dimension."""
    if isinstance(idx, Selection):
        return idx._cache is None and idx.dtype == bool
    if isinstance(idx, (NamedArray, jax.Array, onp.ndarray)):
        return idx.dtype == bool and (len(idx.shape) > 0 or (
            isinstance(idx, NamedArray) and bool(idx.names or idx.mapped)))
    return False


def lazy(x) -> bool:
    """Whether ``x`` is a selection not yet materialized."""
    return type(x) is Selection and x._cache is None


def select(x, idx):
    """``x[idx]`` for a boolean mask ``idx``: a selection."""
    if lazy(idx):
        if lazy(x) and x._k and _same(x, idx) and idx._k == x._k and \
                not (idx._full.names or idx._full.mapped) and \
                idx._full.ndim <= x._full.ndim and \
                idx._full.shape == x._full.shape[:idx._full.ndim]:
            # a selection of a selection: the masks combine, the buffers stay
            t = idx._full.ndim - x._k
            if t:
                x._settle()
                m = x._mask.data
                m = m.reshape(m.shape + (1,) * t)
                return Selection(x._full, positional(jax.lax.bitwise_and(
                    m, idx._full.data)), x._k + t)
            # the new mask is deferred too: a loop's statements join one
            # expression, evaluated (with x's pending buffer, in one compiled
            # call) once it holds _MAX_NODES operations, so that it never grows
            # without bound and each evaluation has the same form
            m = x._mask
            both = Deferred(("and",), (_arg(m), _arg(idx._full)), m.shape, onp.dtype(bool))
            if both._nodes >= _MAX_NODES:
                evaluate((both, x._full) if pending(x._full) else (both,))
            return Selection(x._full, both, x._k)
        idx = idx._materialized()
    if lazy(x):
        x = x._materialized()
    m = _mask_array("__getitem__", x, idx)
    return Selection(_plain(x), m, m.ndim)


class Selection(NamedArray):
    """``x[mask]``: full-size data and a boolean mask, materialized on demand.

    While lazy, ``_full`` holds the data (the mask's ``_k`` positional axes in
    front, or the mask's name among its names), ``_mask`` the mask and
    ``_count`` the number of selected entries once known; ``_host`` the exact
    result where it is already on the host (see :func:`padded`).  After it is
    materialized, ``_cache`` is the exact array and the selection is that array.
    """

    __slots__ = ("_full", "_mask", "_k", "_count", "_cache", "_host")

    def __init__(self, full, mask, k, count=None, host=None):
        self._full, self._mask, self._k, self._count, self._cache = full, mask, k, count, None
        self._host = host

    # -- the NamedArray view: the materialized array --------------------------
    @property
    def data(self):
        return self._materialized().data

    @data.setter
    def data(self, value):
        self._materialized().data = value

    @property
    def dims(self):
        return self._materialized().dims

    @property
    def mapped(self):
        return self._materialized().mapped

    def _materialized(self, what="the elements of x[mask]") -> NamedArray:
        if self._cache is None:
            self._cache = self._build(what)
            self._full = self._mask = self._host = None
        return self._cache

    def _settle(self):
        """Evaluate the pending mask and full buffer together (one compiled
        call: they share their subexpressions)."""
        roots = tuple(r for r in (self._mask, self._full) if pending(r))
        if roots:
            evaluate(roots)

    def _build(self, what):
        if self._host is not None:      # the exact result is on the host already
            return positional(_to_device(self._host))
        self._settle()
        f, m = self._full, self._mask.data
        if traced(m):
            raise size_error(what)
        mh = onp.asarray(m).reshape(-1)
        self._count = int(mh.sum())
        if self._k:
            k = self._k
            d = f.data.reshape((math.prod(f.data.shape[:k]),) + f.data.shape[k:])
            return new(compact(d, mh, 0), (None,) * (1 + f.ndim - k) + f.names, f.mapped)
        ax = f.dims.index(_mname(self._mask))
        return new(compact(f.data, mh, ax), f.dims, f.mapped)

    # -- what needs the count only --------------------------------------------
    def count(self, what="the size of x[mask]") -> int:
        if self._count is None:
            self._settle()
            m = self._mask.data
            if traced(m):
                raise size_error(what)
            # counted on the host where the mask is there already (nothing to
            # compile), else on the device (only the count travels)
            self._count = int(onp.count_nonzero(onp.asarray(m)) if _on_cpu(m) else
                              _concrete(_count, m))
        return self._count

    @property
    def dtype(self):
        return self._full.dtype if self._cache is None else self._cache.dtype

    @property
    def ndim(self):
        if self._cache is not None:
            return self._cache.ndim
        return self._full.ndim - self._k + 1 if self._k else self._full.ndim

    @property
    def shape(self):
        if self._cache is not None:
            return self._cache.shape
        if self._k:
            return (self.count("x[mask].shape"),) + self._full.shape[self._k:]
        return self._full.shape

    @property
    def named_shape(self):
        if self._cache is not None:
            return self._cache.named_shape
        s = self._full.named_shape
        if not self._k:
            s[_mname(self._mask)] = self.count("x[mask].named_shape")
        return s

    @property
    def names(self):
        return self._full.names if self._cache is None else self._cache.names

    def _unsized(self) -> bool:
        """Whether the selection is lazy under a trace (its size unknown)."""
        if self._cache is not None:
            return False
        self._settle()
        return traced(self._mask.data, self._full.data)

    def __repr__(self):
        if self._unsized():
            return (f"Selection(full={self._full!r}, mask={self._mask!r}) (a boolean-mask "
                    "selection; its size is unknown under jax.jit)")
        return NamedArray.__repr__(self)

    def __str__(self):
        if self._unsized():
            return repr(self)
        return NamedArray.__str__(self)

    def __getitem__(self, idx):
        if is_mask(idx):
            return select(self, idx)
        return self._materialized("x[mask][index]")[idx]

    def __setitem__(self, idx, value):
        self._materialized("x[mask][index] = value")[idx] = value

    def setflags(self, write=None, align=None, uic=None):
        self._materialized().setflags(write, align, uic)

    @property
    def flags(self):
        return self._materialized().flags

    # -- lazy casts and in-place updates ----------------------------------------
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if self._cache is not None:
            return self._cache.astype(dtype, order, casting, subok, copy)
        return Selection(self._full.astype(dtype, order, casting), self._mask, self._k,
                         self._count)

    def _assign(self, fn, value):
        if self._cache is None and lazy(value) and _same(self, value) and \
                value._k == self._k and value._full.ndim <= self._full.ndim:
            tmp = _plain(self._full)
            tmp._assign(fn, value._pad(self._full.ndim))
            self._full = tmp
            return
        NamedArray._assign(self._materialized(), fn, value)

    def _pad(self, ndim):
        """The full buffer with unit axes after the mask's: ``ndim`` positional axes."""
        f = self._full
        extra = ndim - f.ndim
        if not extra or not self._k:
            return f
        k = self._k
        return new(f.data.reshape(f.data.shape[:k] + (1,) * extra + f.data.shape[k:]),
                   (None,) * extra + f.dims, f.mapped)


def _flatten(s):
    if s._cache is not None:
        c = s._cache
        return (c.data,), (None, c.dims, c.mapped)
    s._settle()
    f, m = s._full, s._mask
    return (f.data, m.data), ((f.dims, f.mapped, m.dims, s._k, s._count), None, None)


def _unflatten(aux, children):
    lazy_aux, dims, mapped = aux
    if lazy_aux is None:
        s = Selection(None, None, 0)
        s._cache = new(children[0], dims, mapped)
        return s
    fdims, fmapped, mdims, k, count = lazy_aux
    return Selection(new(children[0], fdims, fmapped), new(children[1], mdims), k, count)


jax.tree_util.register_pytree_node(Selection, _flatten, _unflatten)

_count = jax.jit(lambda m: jnp.sum(m, dtype=jnp.int32 if m.size < 2 ** 31 else jnp.int64))


def _mname(m):
    """The name a named mask selects along."""
    return next(iter(m.named_shape))


def _same(a, b) -> bool:
    """Whether two lazy selections have the same mask (the same mask buffer)."""
    return _same_mask(a._mask, b._mask)


def _same_mask(ma, mb) -> bool:
    """Whether two masks are the same (one deferred expression, or one buffer);
    a pending mask is not evaluated here."""
    if ma is mb:
        return True
    if pending(ma) or pending(mb):
        return False
    return ma.data is mb.data and ma.dims == mb.dims


# --------------------------------------------------------------------------
# deferred elementwise expressions: one compiled call per statement
# --------------------------------------------------------------------------
#: dtypes whose deferred results are checked equal to the eager ones (a Python
#: scalar converts to them in XLA exactly as on the host)
_DEFER_DTYPES = frozenset(onp.dtype(t) for t in (
    bool, onp.int32, onp.int64, onp.float32, onp.float64, onp.complex64, onp.complex128))
#: an expression evaluates once it holds this many operations
_MAX_NODES = 24
_I32 = 2 ** 31
class Deferred(NamedArray):
    """A positional array whose value is an elementwise expression not yet
    computed: the full buffer of a selection after ``s * 1.05`` or ``abs(s)``.

    ``_op`` names the operation (a hashable key, see :func:`_op_fn`) and
    ``_args`` its operands: jax arrays, other deferred arrays, and Python
    scalars (passed as runtime operands, weakly typed as eager JAX takes them).
    Reading ``data`` evaluates the expression as one cached compiled call (by
    the expression's structure, so a loop hits the cache every iteration) and
    keeps the value; an expression also evaluates when it reaches
    ``_MAX_NODES`` operations, so it never grows across iterations of a loop.
    """

    __slots__ = ("_val", "_op", "_args", "_shape", "_dtype", "_nodes")

    def __init__(self, op, args, shape, dtype):
        self._val, self._op, self._args = None, op, args
        self._shape, self._dtype = shape, dtype
        self._nodes = 1 + sum(a._nodes for a in args if type(a) is Deferred)   # pending
        self.dims, self.mapped = (None,) * len(shape), ()

    @property
    def data(self):
        if self._val is None:
            return evaluate((self,))[0]
        return self._val

    @data.setter
    def data(self, value):
        self._val, self._op, self._args, self._nodes = value, None, None, 0

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def named_shape(self):
        return {}


def _arg(x):
    """``x`` as an operand of a deferred operation: a deferred array itself,
    else its buffer."""
    return x if type(x) is Deferred else x.data


def _dshape(f):
    """The physical shape of a full buffer (a deferred one is not evaluated)."""
    return f._shape if type(f) is Deferred else f.data.shape


def pending(x) -> bool:
    """Whether ``x`` is a deferred expression not yet evaluated."""
    return type(x) is Deferred and x._val is None


_PROGRAMS = Cache(1024)


_C128 = onp.dtype(onp.complex128)


def evaluate(roots):
    """Evaluate the deferred ``roots`` (and what they share) in one compiled
    call, or, on small exact CPU data within the host budget, in NumPy on the
    host (the same bits; see engines/host.py)."""
    leaves, leaf_pos, prog, seen, dtypes = [], {}, [], {}, []
    consts = {float: [], int: [], complex: []}

    def ref(a):
        if type(a) is Deferred:
            if a._val is None:
                i = seen.get(id(a))
                if i is None:
                    refs = tuple(ref(b) for b in a._args)
                    prog.append((a._op, refs))
                    dtypes.append(a._dtype)
                    i = seen[id(a)] = ("n", len(prog) - 1)
                return i
            a = a._val
        if isinstance(a, jax.Array):
            i = leaf_pos.get(id(a))
            if i is None:
                i = leaf_pos[id(a)] = ("l", len(leaves))
                leaves.append(a)
            return i
        c = consts[type(a)]
        c.append(a)
        return (type(a), len(c) - 1)

    outs = tuple(ref(r) for r in roots)
    prog = tuple(prog)
    key = (len(leaves), tuple(t for t, v in consts.items() if v or t is int), prog, outs)
    vals = None
    if not consts[complex] and all(_exact_op(op) for op, _ in prog):
        vals = host.within_budget((key, tuple(a.shape for a in leaves)),
                                  _on_host, prog, dtypes, outs, leaves, consts)
    if vals is None:
        consts[int].append(0)       # the runtime zero of `unfused`
        fn = _PROGRAMS.get(key)
        if fn is None:
            fn = _PROGRAMS.put(key, _program(*key))
        # the program runs at its dtypes' home (a TPU lacks complex128, and
        # float64 under NumPy's dtype defaults: the CPU backend), its Python
        # scalars packed there
        where, leaves = backends.at_home(
            (*dtypes, *(a.dtype for a in leaves), *([_C128] if consts[complex] else [])),
            leaves, config.numpy_dtypes())
        with where:
            packs = tuple(_pack(t, v) for t, v in consts.items() if v)
            vals = _concrete(fn, *leaves, *packs)
    if not traced(*vals):       # (traced leaves: the value is the trace's)
        for r, v in zip(roots, vals):
            r.data = v
    return vals


def _defer(uf, fulls, args, ref):
    """``uf`` on the full buffers as a deferred expression; ``None`` where the
    eager call must run (a dtype or an operand outside the checked cases)."""
    if config._state["mode"] != "numpy" or uf.nout != 1 or len(args) != uf.nin:
        return None
    f0 = ref._full
    if f0.names or f0.mapped:
        return None
    shape = f0.shape
    if not math.prod(shape):
        return None
    ops, key, fast = [], [], uf._fast_ok
    for a, f in zip(args, fulls):
        if f is None:                   # a Python scalar
            t = type(a)
            ops.append(a)
            key.append(t)
            if t is bool or (t is int and not -_I32 <= a < _I32):
                fast = False
            continue
        d = f if type(f) is Deferred and f._val is None else f.data
        if type(d) is not Deferred and (traced(d) or not isinstance(d, jax.Array)):
            return None
        if d.dtype not in _DEFER_DTYPES:
            return None
        ops.append(d)
        key.append(d.dtype)
    key = tuple(key)
    out_dt = None
    if fast:
        out_dt = uf._fast.get(key)
        if out_dt is None:
            try:
                uf._loop(key + (None,))
            except TypeError:
                return None
            out_dt = uf._fast.get(key)
    if out_dt is not None:
        res = Deferred(("fast", uf, out_dt), tuple(ops), shape, out_dt)
    else:
        # the engine with static scalars: integers (an integer power is its own
        # operation in JAX) and booleans only, so that a loop does not compile
        # per value of a float
        if any(type(a) in (float, complex) for a in args):
            return None
        # (a static scalar with its type: True and 1 are equal keys in Python)
        slots = tuple(_ARRAY if f is not None else (type(a), a) for a, f in zip(args, fulls))
        arrays = tuple(o for o, f in zip(ops, fulls) if f is not None)
        dt = _engine_dtype(uf, slots, tuple(o.dtype for o in arrays))
        if dt not in _DEFER_DTYPES:
            return None
        res = Deferred(("engine", uf, slots), arrays, shape, dt)
    if res._nodes >= _MAX_NODES:
        evaluate((res,))
    return res


# --------------------------------------------------------------------------
# elementwise operations: on the full buffers
# --------------------------------------------------------------------------
_POWERS = ("power", "pow", "float_power", "ldexp")


def materialize_all(args):
    return [a._materialized() if lazy(a) else a for a in args]


def apply_ufunc(uf, args, kwargs):
    """``uf(*args, **kwargs)`` with at least one lazy selection among ``args``:
    on the full buffers when all selections share one mask and every other
    operand broadcasts to them; otherwise on the materialized selections.
    Positional full buffers of one shape with Python scalars give a deferred
    expression (evaluated when something reads it)."""
    if not kwargs:      # the common case, checked quickly: one mask, one shape, scalars
        ref = None
        for a in args:
            if type(a) is Selection:
                if a._cache is not None or (ref is not None and (
                        not _same_mask(a._mask, ref._mask) or a._k != ref._k or
                        a._full.dims != ref._full.dims or
                        _dshape(a._full) != _dshape(ref._full))):
                    break
                if ref is None:
                    ref = a
            elif not (type(a) in (float, complex, bool) or (type(a) is int and (
                    a >= 0 or uf.__name__ not in _POWERS))):
                break
        else:
            fulls = [a._full if type(a) is Selection else None for a in args]
            res = _defer(uf, fulls, args, ref)
            if res is None:
                res = uf(*[a._full if type(a) is Selection else a for a in args])
            if isinstance(res, tuple):
                return tuple(Selection(r, ref._mask, ref._k, ref._count) for r in res)
            return Selection(res, ref._mask, ref._k, ref._count)
    sels = [a for a in args if lazy(a)]
    ref = sels[0]
    if set(kwargs) - {"dtype"} or not all(_same(s, ref) and s._k == ref._k for s in sels) \
            or (uf.__name__ in _POWERS and
                any(type(a) is int and a < 0 for a in args)):
        return uf._call(*materialize_all(args), **kwargs)
    k = ref._k
    width = max(s._full.ndim for s in sels)
    tail = width - k if k else width
    try:
        tshape = onp.broadcast_shapes(*[s._full.shape[k:] for s in sels])
    except ValueError:
        return uf._call(*materialize_all(args), **kwargs)
    ops = []
    for a in args:
        if lazy(a):
            ops.append(a._pad(width))
            continue
        o = operand(a)
        if isinstance(o, NamedArray):
            if k:
                shp = o.shape
                if len(shp) == tail + 1 and shp[0] == 1:
                    o = new(o.data.reshape(o.data.shape[1:]), o.dims[1:], o.mapped)
                elif len(shp) > tail:
                    return uf._call(*materialize_all(args), **kwargs)
            elif _mname(ref._mask) in o.named_shape:
                return uf._call(*materialize_all(args), **kwargs)
            try:
                onp.broadcast_shapes(o.shape, tshape)
            except ValueError:
                return uf._call(*materialize_all(args), **kwargs)
        ops.append(o)
    res = uf(*ops, **kwargs)
    if isinstance(res, tuple):
        return tuple(Selection(r, ref._mask, k, ref._count) for r in res)
    return Selection(res, ref._mask, k, ref._count)


# --------------------------------------------------------------------------
# assignment: y[mask] = value, with where
# --------------------------------------------------------------------------
@jax.jit
def _put(y, m, v):
    return jnp.where(m.reshape(m.shape + (1,) * (y.ndim - m.ndim)), v, y)


def assign(x, idx, value, cast, check):
    """``x[idx] = value`` for a boolean mask ``idx``.  ``cast(dtype, value)`` is
    NumPy's assignment cast, ``check(dtype, scalar)`` its errors for a scalar.
    Returns False when the value's length is the selection's (data dependent):
    the caller then assigns by index."""
    if lazy(idx):
        return False
    m = _mask_array("__setitem__", x, idx)
    k = m.ndim
    shape = x.shape
    t = type(value)
    if t in (int, float, complex) and config._state["mode"] == "numpy" and \
            x.dtype in _DEFER_DTYPES and not (
            x.names or x.mapped or m.names or m.mapped or traced(x.data, m.data)) and (
            t is not int or -2 ** 63 <= value < 2 ** 63):
        # a Python number: the cast and the assignment, one compiled call
        # (the number a runtime operand: a loop's counter compiles nothing)
        check(x.dtype, value)
        put = Deferred(("put",), (x.data, m.data, value), x.data.shape, x.dtype)
        x.data = backends.kept_on(x.data, evaluate((put,))[0])
        return True
    if lazy(value) and not pending(value._mask) and value._mask.data is m.data and \
            value._k == k:
        v = value._full
        vt = v.shape[k:] if k else v.shape
        try:
            ok = onp.broadcast_shapes(vt, shape[k:] if k else shape) == (
                shape[k:] if k else shape) and len(vt) <= len(shape) - k
        except ValueError:
            ok = False
        if not ok:
            return False
        v = value._pad(len(shape) if k else v.ndim)
        if pending(v) and len(v.shape) == len(shape) and not (
                x.names or x.mapped or m.names or m.mapped):
            # the pending expression, its cast and the assignment: one compiled call
            put = Deferred(("put",), (x.data, m.data, v), x.data.shape, x.dtype)
            x.data = backends.kept_on(x.data, evaluate((put,))[0])
            return True
        v = cast(x.dtype, v)
    elif not lazy(value):
        # (a list is host data: NumPy's assignment converts its Python numbers)
        v = cast(x.dtype, value) if type(value) in (list, tuple) else operand(value)
        if isinstance(v, NamedArray):
            t = shape[k:]
            vs = v.shape
            if k and len(vs) == len(t) + 1 and vs[0] == 1:
                v = new(v.data.reshape(v.data.shape[1:]), v.dims[1:], v.mapped)
                vs = vs[1:]
            if (k and len(vs) > len(t)) or (not k and _mname(m) in v.named_shape):
                return False
            try:
                onp.broadcast_shapes(vs, t)
            except ValueError:
                return False
        v = cast(x.dtype, v)
    else:
        return False
    if not (x.names or x.mapped or v.names or v.mapped or m.names or m.mapped):
        x.data = backends.written(x.data, (m.data, v.data), lambda d, a: _put(d, *a))
        return True
    mw = m if not k else positional(m.data.reshape(m.shape + (1,) * (len(shape) - k)))
    target = _plain(x)
    datas, dims, mapped = align("__setitem__", [mw, v, target])
    x._assign("__setitem__", new(jnp.where(*datas), dims, mapped))
    return True


_PREFIXES = Cache(256)


def padded(*results):
    """Host results of one data-dependent length ``n`` (``nonzero``, ``unique``,
    ...) as selections of power-of-two buffers under one mask ``arange(bucket)
    < n``: operations on them compile once per bucket, not per length, and
    they show (and materialize to, without any device work) the exact results.

    >>> import numpy
    >>> (i,) = padded(numpy.asarray([1, 3, 4]))       # np.nonzero([0, 3, 0, 5, 7])
    >>> type(i).__name__, i._full.shape, i.shape, (i * 10).sum(), i
    ('Selection', (4,), (3,), np.int64(80), array([1, 3, 4]))
    """
    n = len(results[0])
    b = bucket(n)
    mask = _PREFIXES.get((b, n))
    if mask is None:
        mask = _PREFIXES.put((b, n), positional(_to_device(onp.arange(b) < n)))
    out = []
    for r in results:
        full = onp.zeros((b,) + r.shape[1:], r.dtype)
        full[:n] = r
        out.append(Selection(positional(_to_device(full)), mask, 1, n, r))
    return tuple(out)

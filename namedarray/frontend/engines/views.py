"""The view engine: what NumPy returns as a view of its argument (``a.T``,
``np.transpose``, ``np.reshape``, ``np.flip``, ``np.squeeze``,
``np.diagonal``, ...) is a core ``View`` of it here (docs/design.md §1): re-read
when its base changes, and a write into it reaches the base, or raises where
NumPy's view is read-only.

A write is stored back by the function's inverse when one is declared, else by
the *position map*: the function applied to the flat positions of the base
gives, for each element of the view, the base element it is (one scatter).
Whether a ``reshape``/``ravel`` of a view is itself a view follows NumPy: it
is when the result can be described by strides over the memory of the array
the chain of views starts from; otherwise it is a copy.

>>> import namedarray as np
>>> a = np.zeros((3, 3), int)
>>> np.fill_diagonal(np.fliplr(a), [1, 2, 3])
>>> a
array([[0, 0, 1],
       [0, 2, 0],
       [3, 0, 0]])
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.array import (NamedArray, View, host_root, host_view_of, is_value, new, on_host,
                           writeable, zero_dim_array)
from ...core.derived import derived, host_view
from . import host

_DATA = NamedArray.__dict__["_dev"]   # the slot behind .data


def viewed(fn, base, f, inv=None, writable=True, result=None, hosted=None):
    """``f(base)`` (or the ``result`` already computed) as a view of ``base``:
    re-read when ``base`` changes; a write stored back as ``inv(base, value)``
    (the base's new value), or through the position map of ``f`` when ``inv``
    is ``None``; ``writable=False``: read-only (a write raises); ``hosted``:
    NumPy's view of data living on the host, and its root (``derived``)."""
    r = f(base) if result is None else result
    if not isinstance(r, NamedArray) or r is base:
        return r
    dims, mapped = base.dims, base.mapped       # (not base: a view holds it once)
    read = lambda src: f(new(src, dims, mapped)).data  # noqa: E731
    if not writable:
        write = None
    elif inv is not None:
        write = lambda b, v: b._assign(fn, inv(b, v))  # noqa: E731
    else:
        write = lambda b, v: _scatter(fn, f, b, v)  # noqa: E731
    if hosted is None and type(r) is View and r._base is base and \
            host_view_of(r) is not None:
        hosted = r._hview, host_root(r)[1]      # (its data still NumPy's view)
    v = derived(None if hosted else r.data, r.dims, base, read, write, r.mapped, hosted)
    if not v.dims and not v.mapped and (write is None or not is_value(base)):
        v._array0d = True       # a 0-d view is NumPy's 0-d array, never its scalar
    # (of a scalar, a writable one is the scalar's method's result, a scalar:
    # np.squeeze(s), np.transpose(s), np.reshape(s, ()); core.derived.derived)
    return v


def _scatter(fn, f, b, v):
    """Store the view ``f(b)``'s new value ``v`` into ``b`` by the position map."""
    shape = b.data.shape
    pos = f(new(jnp.arange(math.prod(shape)).reshape(shape), b.dims, b.mapped))
    if pos.dims != v.dims or pos.data.shape != v.data.shape:
        raise ValueError(f"{fn}: assignment destination is read-only here (this view of "
                         f"named shape {b.named_shape} cannot write through to its base)")
    flat = b.data.reshape(-1).at[pos.data.reshape(-1)].set(
        v.data.reshape(-1).astype(b.data.dtype))
    b.data = flat.reshape(shape)


def _positions(x):
    """For each element of ``x`` (physical layout), its flat position in the
    array its chain of views starts from; ``None`` where that is not known (a
    traced program, a view that changes the dtype)."""
    if not isinstance(x, View) or x._base is None:
        if isinstance(x.data, jax.core.Tracer):
            return None
        return onp.arange(x.data.size).reshape(x.data.shape)
    base = _positions(x._base)
    if base is None or x._base.dtype != x.dtype:
        return None
    return onp.asarray(x._read(x._as_made(jnp.asarray(base))))    # (its base's shape then)


def read_in_place(v) -> bool:
    """Let the view ``v`` of positional data read its memory on the host:
    the array its chain of views starts from brought there
    (``host.read_in_place``: data JAX holds uncommitted on one CPU device),
    and ``v`` NumPy's view of that buffer where its elements are strided
    over it (:func:`_positions`), kept as its host view
    (``core.derived.host_view``); whether it does.  Before an element or a
    slice of the view is read (``errors[:, i]`` of a reshaped device result
    in a loop): each is then NumPy's, instead of a device call each."""
    if host_view_of(v) is not None:
        return True
    root = v
    while type(root) is View:
        root = root._base
    if type(root) is not NamedArray or v.mapped or any(v.dims) or \
            root._host is None and not host.read_in_place(root):
        return False
    h = root._host
    if type(h) is not onp.ndarray or not h.flags.c_contiguous or h.dtype != v.dtype:
        return False
    p = _positions(v)
    if p is None or not _strided(p):
        return False
    flat = h.reshape(-1)
    if not p.size:
        return bool(host_view(v, flat[:0].reshape(p.shape), root))
    strides = tuple(int(onp.diff(p, axis=k).flat[0]) * h.itemsize if p.shape[k] > 1 else 0
                    for k in range(p.ndim))
    host_view(v, onp.lib.stride_tricks.as_strided(flat[int(p.flat[0]):], p.shape, strides),
              root)
    return True


def _strided(p) -> bool:
    """Whether the positions ``p`` are ``offset + sum(i_k * stride_k)``."""
    if p.size == 0:
        return True
    for k in range(p.ndim):
        if p.shape[k] > 1:
            d = onp.diff(p, axis=k)
            if (d != d.flat[0]).any():
                return False
    return True


def set_view_data(v, data, dims):
    """Give the view ``v`` new data and dims read from its base as it is now
    (``x.shape = s`` of a view), without writing them back."""
    _DATA.__set__(v, data)
    v._hview = None         # (NumPy's view of the old shape: no longer its data)
    v.dims = dims
    v._seen = v._base.data


def stays_view(x, f, contiguous=False) -> bool:
    """Whether ``f(x)`` (a reshape of ``x``) is a view of ``x`` in NumPy: ``x``
    is no view, or the reshaped positions are still strided (``contiguous``:
    consecutive, NumPy's rule for ``ravel``)."""
    if not isinstance(x, View) or x._base is None:
        return True
    p = _positions(x)
    if p is None:
        return True
    q = onp.asarray(f(new(jnp.asarray(p), x.dims, x.mapped)).data)
    if contiguous:
        return bool((onp.diff(q.reshape(-1)) == 1).all())
    return _strided(q)


def fortran(x):
    """``x`` (a new positional array) laid out as NumPy's ``order="F"``: the
    transposed view of the transposed data, which it owns, so its flags, its
    memory order (``ravel(order="K")``) and its views are NumPy's."""
    if x.ndim < 2 or x.names:
        return x
    t = lambda a: new(a.data.T, a.dims, a.mapped)  # noqa: E731
    v = _on_host_in_order(x, tuple(range(x.ndim))[::-1], "order='F'", t, lambda b, w: t(w))
    if v is None:
        v = viewed("order='F'", t(x), t, lambda b, w: t(w))
    v._owns = "F"       # (its own memory, in Fortran order)
    return v


def _on_host_in_order(x, axes, fn, f, inv):
    """``x`` living on the host, with its memory in the order of ``axes``:
    the view ``f`` of a new buffer there (``x`` transposed by ``axes``, in C
    order), NumPy's view of it its data, so that it stays on the host as
    NumPy's array in that order does; None where ``x`` is not on the host."""
    if type(x) is not NamedArray or x._dev is not None or x._host is None or x.mapped:
        return None
    h = onp.asarray(x._host)
    base = on_host(onp.ascontiguousarray(h.transpose(axes)))
    hv = base._host.transpose(tuple(onp.argsort(axes).tolist()))
    return viewed(fn, base, f, inv, result=on_host(hv), hosted=(hv, base))


def laid_out(x, axes):
    """``x`` (a new positional array) with its memory in the order of ``axes``
    (``transpose(x, axes)`` read in C order is its memory, as ``memory_axes``
    gives it): NumPy's result of an operation that follows the memory order of
    an operand (``order="K"``).  The identity order: ``x`` itself."""
    axes = tuple(axes)
    if x.names or x.mapped or axes == tuple(range(x.ndim)):
        return x
    if axes == tuple(range(x.ndim))[::-1]:
        return fortran(x)
    inv = tuple(onp.argsort(axes).tolist())
    t = lambda a, p: new(a.data.transpose(p), a.dims, a.mapped)  # noqa: E731
    v = _on_host_in_order(x, axes, "order='K'", lambda a: t(a, inv), lambda b, w: t(w, axes))
    if v is None:
        v = viewed("order='K'", t(x, axes), lambda a: t(a, inv), lambda b, w: t(w, axes))
    v._owns = True
    return v


def contiguous(x, order) -> bool:
    """Whether ``x`` is ``order``-contiguous (``"C"`` or ``"F"``) as NumPy's flags say."""
    f = x.flags
    return f.c_contiguous if order == "C" else f.f_contiguous


class Flags:
    """NumPy's flags of ``x`` (read from ``stand_in``, a NumPy array laid out
    as ``x``); setting ``writeable`` (``x.flags.writeable = False``,
    ``x.flags["W"] = False``) is ``x.setflags(write=...)``, as in NumPy."""

    __slots__ = ("_x", "_f")
    _KEYS = {"writeable": "write", "w": "write", "aligned": "align", "a": "align",
             "writebackifcopy": "uic", "x": "uic"}

    def __init__(self, x, stand_in):
        stand_in.flags.writeable = writeable(x)
        object.__setattr__(self, "_x", x)
        object.__setattr__(self, "_f", stand_in.flags)

    def __getattr__(self, k):
        return getattr(self._f, k)

    def __getitem__(self, k):
        return self._f[k]

    def _set(self, k, v):
        key = self._KEYS.get(k.lower()) if isinstance(k, str) else None
        if key is None:
            raise AttributeError(f"flags: {k!r} cannot be set (NumPy sets only writeable, "
                                 "aligned and writebackifcopy)")
        self._x.setflags(**{key: bool(v)})
        if key == "write":
            self._f.writeable = writeable(self._x)

    __setattr__ = __setitem__ = _set

    def __eq__(self, other):
        return self._f == (other._f if isinstance(other, Flags) else other)

    def __repr__(self):
        return repr(self._f)


def array_flags(x):
    """NumPy's flags of the array ``x``: C-ordered, owning its data (a
    stand-in with each length capped at 2 has the same contiguity)."""
    return Flags(x, onp.empty(tuple(min(n, 2) for n in x.shape), x.dtype))


def view_flags(v):
    """NumPy's flags of the view ``v``: it does not own its data, it is
    writeable where writes reach its base, and C/Fortran-contiguous as its
    elements lie in the memory its chain of views starts from (C, where that
    is not known)."""
    shape = tuple(min(n, 2) for n in v.shape)   # a stand-in: the same contiguity
    if v._owns:     # its own memory, in Fortran order or the order of laid_out's axes
        axes = tuple(range(v.ndim))[::-1] if v._owns == "F" else memory_axes(v, "K")
        if axes == tuple(range(v.ndim))[::-1]:
            return Flags(v, onp.empty(shape, v.dtype, order="F"))
        f = onp.empty_like(onp.empty(tuple(shape[k] for k in axes), v.dtype).transpose(
            onp.argsort(axes)))
        return Flags(v, f)
    p = None if v.names else _positions(v)
    if p is None or p.size < 2 or (onp.diff(p.ravel()) == 1).all():
        f = onp.empty(shape, v.dtype)[...]
    elif (onp.diff(p.ravel(order="F")) == 1).all():
        f = onp.empty(shape[::-1], v.dtype).T
    else:
        f = onp.empty(shape + (2,), v.dtype)[..., 0]
    return Flags(v, f)


def view_strides(v):
    """NumPy's strides of the view ``v``: the steps between its elements in
    the memory its chain of views starts from (C strides where that is not
    known; a length-1 axis has its C stride)."""
    n = v.dtype.itemsize
    strides = [n * math.prod(v.shape[k + 1:]) for k in range(v.ndim)]
    p = None if v.names else _positions(v)
    if p is None or not _strided(p):
        return tuple(strides)
    for k in range(v.ndim):
        if v.shape[k] > 1:
            strides[k] = n * int(onp.take(p, [1], k).flat[0] - p.flat[0])
    return tuple(strides)


def memory_axes(x, order):
    """The axes of ``x`` in NumPy's ``order="A"`` or ``"K"`` (a permutation:
    ``transpose(x, axes)`` read in C order is NumPy's read): ``"A"``: all axes
    reversed when ``x`` is a Fortran-contiguous view, else C; ``"K"``: the
    axes by decreasing stride in the memory its views start from (a negative
    stride kept, as NumPy keeps it).  A traced array, a dtype-changing view
    or one with named axes has no known memory: C order."""
    axes = tuple(range(x.ndim))
    if x.ndim < 2 or x.names or not isinstance(x, View):
        return axes
    p = _positions(x)
    if p is None or p.size < 2:
        return axes
    if order == "A":
        return axes[::-1] if (onp.diff(p.ravel(order="F")) == 1).all() else axes
    strides = [int(onp.take(p, [1], k).flat[0] - p.flat[0]) if p.shape[k] > 1 else 0
               for k in axes]
    return tuple(sorted(axes, key=lambda k: -abs(strides[k])))


def view_function(fn, name, writable=True, operand=0, when=None, reshapes=None):
    """The public ``fn`` with its result a view of argument ``operand`` (a
    NamedArray): ``when(*args, **kwargs)`` says whether this call is a view;
    ``reshapes``: a copy where NumPy's reshape (``"reshape"``) or ravel
    (``"ravel"``) of that argument copies."""
    @functools.wraps(fn)
    def public(*args, **kwargs):
        v = host_view(args, kwargs)
        if v is not None:
            return v
        r = fn(*args, **kwargs)
        if len(args) <= operand or not isinstance(r, NamedArray):
            return r
        a = args[operand]
        if not isinstance(a, NamedArray) or r is a or kwargs.get("copy") is True or (
                when and not when(*args, **kwargs)):
            return r        # (copy=True: a copy, never a view)

        pre, post = args[:operand], args[operand + 1:]

        def f(x):
            return fn(*pre, x, *post, **kwargs)
        if reshapes and not stays_view(a, f, reshapes == "ravel"):
            return r
        return viewed(name, a, f, writable=writable, result=r)

    def host_view(args, kwargs):
        """NumPy's view (or copy) where the operand lives on the host, else
        None; the dispatcher asks first (``public.host_view``, which its
        wrappers' ``functools.wraps`` carries up)."""
        if len(args) > operand and host_root(args[operand])[0] is not None:
            return _host_view(args, kwargs)
        return None

    def _host_view(args, kwargs):
        """The view of an operand living on the host, its data NumPy's view
        (no program compiles), or NumPy's copy where NumPy copies (a reshape
        of a strided view); None on NumPy's error."""
        a = args[operand]
        if kwargs.get("copy") is True or (when and not when(*args, **kwargs)) or \
                is_value(a):        # (a scalar has no views: core.derived.derived)
            return None
        buf, root = host_root(a)
        hv = host.view_of(name, args, kwargs, buf)
        if hv is None:
            return None
        if hv is buf:
            return a
        if not onp.may_share_memory(hv, buf) and (hv.size or hv.base is None):
            # NumPy copies: its copy, a new array (an empty view shares no memory,
            # and is still a view: a read-only one refuses writes)
            x = host.kept(hv, fresh=True)
            return zero_dim_array(x) if not hv.ndim else x
        pre, post = args[:operand], args[operand + 1:]
        return viewed(name, a, lambda x: fn(*pre, x, *post, **kwargs), writable=writable,
                      result=on_host(hv), hosted=(hv, root))
    public.host_view = host_view
    return public


def _root(x):
    while isinstance(x, View) and x._base is not None:
        x = x._base
    return x


def _memory(fn, a):
    """``(root, positions)`` of ``a`` in the memory of the array its views
    start from (positions ``None``: not known; data that is no NamedArray: no
    memory a view could share)."""
    if not isinstance(a, NamedArray):
        if not hasattr(a, "__len__") and not hasattr(a, "__array__") and not isinstance(
                a, (int, float, complex, onp.generic)):
            raise TypeError(f"{fn}: expected an array, got {type(a).__name__}")
        return None, None
    return _root(a), _positions(a)


def shares_memory(a, b, /, max_work=None):
    """``numpy.shares_memory``: whether ``a`` and ``b`` are views with an element
    in common (of the same array; where the positions are not known, such as a
    view of another dtype, views of one array are taken to share).

    >>> import namedarray as np
    >>> x = np.arange(6)
    >>> np.shares_memory(x[::2], x), np.shares_memory(x[::2], x[1::2])
    (True, False)
    """
    (ra, pa), (rb, pb) = _memory("shares_memory", a), _memory("shares_memory", b)
    if ra is None or ra is not rb:
        return False
    if pa is None or pb is None:
        return True
    return bool(onp.intersect1d(pa.reshape(-1), pb.reshape(-1)).size)


def may_share_memory(a, b, /, max_work=None):
    """``numpy.may_share_memory``: whether the memory bounds of ``a`` and ``b``
    overlap (views of one array whose first and last elements interleave).

    >>> import namedarray as np
    >>> x = np.zeros((3, 4))
    >>> np.may_share_memory(x[:, 0], x[:, 1]), np.shares_memory(x[:, 0], x[:, 1])
    (True, False)
    """
    (ra, pa), (rb, pb) = (_memory("may_share_memory", a),
                          _memory("may_share_memory", b))
    if ra is None or ra is not rb:
        return False
    if pa is None or pb is None:
        return True
    if not pa.size or not pb.size:
        return False
    return bool(pa.min() <= pb.max() and pb.min() <= pa.max())

"""The ``NamedArray`` type: a JAX array plus a name (or ``None``) per dimension.

Layout invariant: positional dimensions come first physically, named ones
after them (in any order).  So positional axis ``i`` is physical dimension
``i``, ``x.shape == x.data.shape[:x.ndim]``, NumPy code indexes ``x.data``
directly, and ``jax.vmap`` over axis 0 maps the leading positional axis.
The constructor establishes the invariant; every operation keeps it.

The layout rule.  The order of the named dimensions is free (names align by
name), and it is chosen so that it never costs: under ``jax.jit`` a named
program has no transpose or copy that the same program written in
``jax.numpy`` lacks.  Each operation picks the order the hand-written program
would have, or the one its operands already have:

1. Alignment (``core/align.py``) keeps the operand with the most
   names (then the most elements) as it is; the others, usually broadcast
   onto it, are reshaped, and transposed only where their names' order
   differs.
2. A function mapped over names (the generic engine's ``vmap_names``, and
   ``nmap``'s local map) returns the names in alignment's order
   (``nested_vmap(keep_order=True)``), never reversed.
3. A gather or update by an index with names (``x.untag(n)[i]``,
   ``x[{n: i}]``, ``take``, ``take_along_axis``/``put_along_axis`` along a
   name, ``choose``, ``.at[{n: i}]``) is the one ``gather``/``scatter`` of the
   ``jax.numpy`` program: it is mapped over the index's names only, the
   array's other names ride along as trailing dimensions, so the result is
   the index's names, then the array's (``emb[tokens]``'s order); a lookup
   along a name indexes it where it lies.
4. Einsum gives its named outputs in the order the spec writes them after
   ``->`` (``"...{seq,heads}"``), the order a hand-written ``jnp.einsum``
   would produce and its consumers expect; XLA folds the transpose into the
   ``dot_general``'s layout.  (``dot_general``'s own order, batch dimensions
   first, was a third order matching neither operand nor spec: on the ViT
   model pair it cost a 1.16x step against 1.06x with the spec's order.)

``tests/frontend/test_gather_layout.py`` counts the HLO transposes of each
gather route against ``jax.numpy``'s, and ``tests/frontend/test_bench_model.py``
those of user-style model pairs.

Alignment by name, which the rule's first point is, is ``core/align.py``.
This module runs past 800 lines for one reason: the ``NamedArray`` class (the
properties, conversions and protocols NumPy and JAX ask an array for) and
``View`` belong with the invariant they keep, which nothing else may see half
of.  How JAX's tree utilities and raw transforms see a NamedArray is
``core/pytree.py``.
"""
from __future__ import annotations

import contextlib
import math
import sys

import jax
import jax.numpy as jnp
import numpy as onp

from . import backends, config, hooks
from .align import Aligned, align
from .checks import check_dims, check_name, normalize_axis, unknown_name  # noqa: F401
from .sharding import placed_dims, unshard

_SCALARS = (bool, int, float, complex)


def canonical(data, dims):
    """Transpose so positional dims come first; return (data, dims)."""
    pos = [i for i, d in enumerate(dims) if d is None]
    if pos == list(range(len(pos))):
        return data, dims
    named = [i for i, d in enumerate(dims) if d is not None]
    perm = pos + named
    return jax.lax.transpose(data, perm), tuple(dims[i] for i in perm)


def to_jax(x, dtype=None):
    if isinstance(x, NamedArray):
        if x.dims.count(None) != len(x.dims):
            raise TypeError(
                f"cannot convert a NamedArray with named axes {x.named_shape} "
                "to a plain array; call .untag(...) first")
        x = x.data
    elif not isinstance(x, (jax.Array, onp.ndarray, onp.generic)) and hasattr(
            type(x), "__array__"):
        x = x.__array__()       # (one giving a NamedArray: NumPy's asarray refuses it)
        if isinstance(x, NamedArray):
            return to_jax(x, dtype)
    if isinstance(x, (onp.ndarray, onp.generic)) and not backends.cpu_only():
        h = onp.asarray(x, dtype=dtype)
        home = backends.home_device((jax.dtypes.canonicalize_dtype(h.dtype),),
                                    config.numpy_dtypes())
        if home is not None:    # NumPy's data of a dtype the default device lacks
            return jax.device_put(h, home)
    if dtype is None:
        if isinstance(x, jax.Array):
            return x
        return jnp.asarray(x)
    return jnp.asarray(x, dtype=dtype)


def new(data, dims, mapped=()) -> "NamedArray":
    """Trusted constructor: ``dims`` valid and canonical for ``data``;
    ``mapped`` the ``(name, global size)`` pairs an enclosing map holds only
    this instance's part of (see :attr:`NamedArray.mapped`)."""
    x = object.__new__(NamedArray)
    x._dev = data
    x._host = None
    x.dims = dims
    x.mapped = mapped
    x._array0d = x._ro = False      # (set, so that reading them is cheap)
    return x


def on_host(h) -> "NamedArray":
    """NumPy's array ``h`` (a result of the host tier, owned by no one else)
    as a positional NamedArray that lives on the host: its device array is
    made when something first asks for ``.data`` (see :attr:`NamedArray.data`).

    ``h`` may be NumPy's scalar (``numpy.float64(1.5)``): the result is then
    namedarray's scalar, its buffer that scalar (a scalar is an immutable
    value, so it needs no array of its own: an eager loop's element reads and
    scalar arithmetic make none, ~120 ns each).  Code that needs NumPy's
    *array* of such a buffer reads it with :func:`host_array`."""
    x = object.__new__(NamedArray)
    x._dev = None
    x._host = h
    x.dims = (None,) * h.ndim
    x.mapped = ()
    x._array0d = x._ro = False
    return x


def host_array(h):
    """The buffer ``h`` of data living on the host as NumPy's array: ``h``
    itself, or a new read-only 0-d array of NumPy's scalar ``h`` (see
    :func:`on_host`)."""
    if type(h) is onp.ndarray or h is None:
        return h
    h = onp.asarray(h)
    h.flags.writeable = False
    return h


def zero_dim_array(x: "NamedArray") -> "NamedArray":
    """``x`` (0-d, positional) as NumPy's 0-d *array*, not its scalar.

    The scalar rule (this function and :func:`is_scalar` hold it): a 0-d
    positional NamedArray is what NumPy's scalars are here.  A full
    reduction, ``x[i]`` of a vector, ``median``, arithmetic on 0-d operands
    give one, as in NumPy, and it prints as NumPy's scalar does
    (``np.int64(15)``, ``str`` ``15``; ``np.isscalar`` is true) while staying a
    device value that works under ``jax.jit``.  Only the constructors
    (``array``, ``asarray``) and what ``load`` reads back give a 0-d *array*,
    which prints ``array(15)`` and is not ``isscalar``; an operation on it
    gives a scalar again, as NumPy's operations do.  Everything else (``ndim``
    0, ``shape`` ``()``, the methods, ``float()``/``int()``/``bool()``) is the
    same for both, and ``type()`` is NamedArray for both (NumPy's is
    ``np.int64`` or ``np.ndarray``); ``isinstance`` answers as for NumPy's
    (:attr:`NamedArray.__class__`).  A named or mapped 0-d value is never a
    scalar.

    >>> import namedarray as np
    >>> s = np.arange(6).sum()
    >>> s, str(s), np.isscalar(s), s.ndim
    (np.int64(15), '15', True, 0)
    >>> a = np.asarray(s)
    >>> a, str(a), np.isscalar(a), a + 1
    (array(15), '15', False, np.int64(16))
    >>> isinstance(s, np.integer), isinstance(a, np.integer), type(s) is type(a)
    (True, False, True)
    """
    if not is_scalar(x):
        return x            # an array already (``asarray(a) is a``, as in NumPy)
    h = x._host
    y = new(x.data, x.dims, x.mapped) if h is None else on_host(onp.array(h))
    y._array0d = True
    return y


def is_scalar(x: "NamedArray") -> bool:
    """Whether ``x`` is one of NumPy's scalars here: 0-d, positional, not
    made a 0-d array by :func:`zero_dim_array` (which states the rule)."""
    return not x.dims and not x.mapped and not getattr(x, "_array0d", False)


def rewrap(x: "NamedArray", data) -> "NamedArray":
    """``data`` in ``x``'s layout: its dims and its mapped names."""
    return new(data, x.dims, x.mapped)


def positional(data) -> "NamedArray":
    """``data`` as a NamedArray with positional axes only (:func:`new`)."""
    return new(data, (None,) * data.ndim)


def is_named(x) -> bool:
    return isinstance(x, NamedArray) and x.dims.count(None) != len(x.dims)


def operand(x):
    """An argument as a NamedArray, or a Python scalar kept weakly typed."""
    if isinstance(x, NamedArray):
        return x
    if isinstance(x, _SCALARS):
        return x
    return positional(to_jax(x))


# --------------------------------------------------------------------------
# the array type
# --------------------------------------------------------------------------
# JAX's functions that abstract a value they take as an array (they refuse
# objects with __jax_array__)
_ABSTRACTIFY = frozenset({"typeof", "shaped_abstractify", "canonicalize_value"})
_JAX_OPERATORS = "jax._src.numpy.array_methods"    # jax.Array's __mul__, __lt__, ...
NOT_A_JAX_ARRAY = (
    "a NamedArray was given to JAX where it needs a JAX array (for instance as the "
    "output of a function differentiated by jax.grad). For gradients of a function "
    "returning a 0-d NamedArray use namedarray.grad or namedarray.value_and_grad "
    "(same signatures as JAX's; gradients keep the parameters' names); otherwise "
    "pass x.data.")


def _numpy_repr(data) -> str:
    """NumPy's repr of ``data``; an ML dtype prints by name as a builtin one
    does (``dtype=bfloat16``), whatever ``ml_dtypes`` version renders it."""
    a = onp.asarray(data)
    return repr(a).replace(f"dtype={a.dtype!r}", f"dtype={a.dtype.name}").replace(
        f"dtype='{a.dtype.name}'", f"dtype={a.dtype.name}")


def _numpy_scalar_repr(data) -> str:
    """NumPy's repr of the scalar ``data`` holds (``np.float64(1.5)``)."""
    return repr(onp.asarray(data)[()])


#: (a type without ``__array_ufunc__``)
_NO_OVERRIDE = object()


class NamedArray(Aligned):
    """A JAX array whose dimensions are positional (``None``) or named.

    >>> import namedarray as np
    >>> x = np.NamedArray(np.ones((2, 3)).data, dims=("batch", None))
    >>> x.shape, x.named_shape
    ((3,), {'batch': 2})
    >>> (x + np.arange(3)).sum(axis="batch")
    array([2., 4., 6.])
    """

    __slots__ = ("_dev", "_host", "dims", "mapped", "_array0d", "_ro", "__weakref__")
    __array_priority__ = 1000

    @property
    def data(self):
        """The JAX array.  Small eager data the host tier made lives on the
        host as NumPy's buffer (``_host``) until something asks for this: its
        device array is made then, once, and kept beside the buffer, which is
        never written in place from then on (the device array may share its
        memory)."""
        d = self._dev
        if d is None:
            d = self._dev = hooks.to_device(self._host)
        return d

    @data.setter
    def data(self, value):
        self._dev = value
        self._host = None

    def __init__(self, data, dims=None):
        self._array0d = self._ro = False
        if isinstance(data, NamedArray):
            if dims is not None:
                raise ValueError("NamedArray: pass dims only for plain data; use "
                                 ".tag/.rename to name a NamedArray's axes")
            self.data, self.dims, self.mapped = data.data, data.dims, data.mapped
            return
        data = to_jax(data)
        dims = (None,) * data.ndim if dims is None else check_dims(
            "NamedArray", dims, data.ndim)
        self.data, self.dims = canonical(data, dims)
        self.mapped = ()

    # -- shape -------------------------------------------------------------
    @property
    def ndim(self) -> int:
        """Number of positional axes (named axes are not counted)."""
        return self.dims.count(None)

    @property
    def shape(self) -> tuple:
        """The positional shape: what NumPy code sees."""
        h = self._host
        return (h if h is not None else self.data).shape[: self.dims.count(None)]

    @property
    def size(self) -> int:
        """Number of elements over the positional axes."""
        return math.prod(self.shape)

    @property
    def named_shape(self) -> dict:
        """``{name: size}`` of the named axes, with global sizes: the same
        inside an ``nmap`` as outside it."""
        n = self.dims.count(None)
        shape = dict(zip(self.dims[n:], self.data.shape[n:]))
        if self.mapped:
            shape.update(self.mapped)
        return shape

    @property
    def names(self) -> tuple:
        """The names of the data's dimensions, in physical order (a name an
        enclosing ``nmap`` has mapped away is in :attr:`named_shape` only)."""
        return self.dims[self.dims.count(None):]

    @property
    def dtype(self):
        """The element type."""
        h = self._host
        return (h if h is not None else self.data).dtype

    @property
    def __class__(self):
        """``type(x)``; of one of NumPy's scalars (:func:`is_value`) whose
        value is known (not traced), NumPy's scalar type of its dtype
        (``numpy.float64``).  Python's ``isinstance`` (and an ABC's) reads
        this where ``type(x)`` is not the class asked about, so
        ``isinstance(s, numpy.integer)``, ``numpy.generic``,
        ``numbers.Integral``, ``float`` (NumPy's float64 is one) answer as for
        NumPy's scalar, while ``type(s)`` stays NamedArray and
        ``isinstance(s, NamedArray)`` true.  A 0-d array, a named or traced
        0-d value and every array are their own class, as NumPy's 0-d arrays
        are not ``numpy.generic``."""
        t = type(self)
        if t is not NamedArray or self.dims or self.mapped or self._array0d:
            return t
        h = self._host
        if h is not None:
            return h.dtype.type
        d = self._dev
        return t if isinstance(d, jax.core.Tracer) else d.dtype.type

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def device(self):
        return getattr(self.data, "device", None)

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    # -- names -------------------------------------------------------------
    def tag(self, *names) -> "NamedArray":
        """Name positional axes left to right (``None`` keeps one positional).

        >>> import namedarray as np
        >>> np.zeros((2, 3, 4)).tag("b", None, "f").named_shape
        {'b': 2, 'f': 4}
        """
        n = self.dims.count(None)
        if len(names) != n:
            raise ValueError(
                f"tag: got {len(names)} names {names!r} for {n} positional axes "
                f"(shape {self.shape}); pass None to keep an axis positional")
        dims = tuple(names) + self.dims[n:]
        check_dims("tag", dims, len(dims))
        for d in names:
            if d is not None and d in dict(self.mapped):
                raise ValueError(f"tag: the array already has axis {d!r} (named shape "
                                 f"{self.named_shape})")
        data, dims = canonical(self.data, dims)
        return new(data, dims, self.mapped)

    def untag(self, *names) -> "NamedArray":
        """Turn named axes into positional ones, in front, in the order given.

        >>> import namedarray as np
        >>> x = np.zeros((2, 3, 4)).tag("b", None, "f")
        >>> x.untag("f", "b").shape
        (4, 2, 3)
        """
        seen = set()
        for d in names:
            check_name("untag", "names", d)
            if d not in self.named_shape:
                raise unknown_name("untag", "name", d, self)
            if d in seen:
                raise ValueError(f"untag: axis name {d!r} given twice in {names!r}")
            seen.add(d)
        if self.mapped and any(d in dict(self.mapped) for d in names):
            return hooks.gather("untag", self, names)
        n = self.dims.count(None)
        src = [self.dims.index(d) for d in names]
        rest = [i for i in range(n, len(self.dims)) if self.dims[i] not in seen]
        perm = tuple(src) + tuple(range(n)) + tuple(rest)
        # positional axes are whole on every device: a name partitioned over
        # Explicit mesh axes is gathered
        data = unshard(self.data, src)
        if perm != tuple(range(len(perm))):
            data = jax.lax.transpose(data, perm)
        return new(data, (None,) * (len(names) + n) + tuple(self.dims[i] for i in rest),
                   self.mapped)

    def rename(self, mapping=None, /, **kw) -> "NamedArray":
        """Rename axes: ``x.rename(batch="b")`` or ``x.rename({"batch": "b"})``."""
        mapping = {**(mapping or {}), **kw}
        for old, nw in mapping.items():
            if old is None or old not in self.named_shape:
                raise unknown_name("rename", "name", old, self)
            check_name("rename", "new name", nw)
        moved = [old for old in mapping if old in dict(self.mapped)]
        if moved:   # a mapped name is renamed as a whole axis: gather it first
            x = hooks.gather("rename", self, moved)
            x = x.tag(*moved, *([None] * (x.ndim - len(moved))))
            return x.rename(mapping)
        dims = tuple(mapping.get(d, d) if d is not None else None for d in self.dims)
        away = tuple(n for n, _ in self.mapped if n not in self.dims)
        check_dims("rename", dims + away, len(dims) + len(away))
        return new(self.data, dims, self.mapped)

    # -- conversion --------------------------------------------------------
    def _plain(self, what, hint=""):
        """The data of a positional array (its host buffer where it lives on
        the host: to be read, never written)."""
        if self.dims.count(None) != len(self.dims):
            raise TypeError(
                f"{what}: the array has named axes {self.named_shape}; untag them "
                "first (x.untag(...)) or reduce over them" + hint)
        h = self._host
        return self.data if h is None else host_array(h)

    def __array__(self, dtype=None, copy=None):
        # named axes have no order, so a plain array of them needs one: untag
        h, _ = host_root(self)      # (data on the host is positional)
        if h is not None:           # (read-only, as a device buffer's is)
            out = h.view()
            out.flags.writeable = False
        else:
            out = onp.asarray(self._plain("__array__", f" (numpy.asarray(x.untag("
                                          f"{', '.join(map(repr, self.names))})) gives "
                                          "the axes in that order)"))
            if type(self) is View and self._owns == "F":    # a Fortran-ordered array
                out = onp.asfortranarray(out)   # (NumPy's memory order kept)
        if dtype is not None and out.dtype != onp.dtype(dtype):
            return out.astype(dtype)
        # the device's buffer is read-only: a copy asked for (``numpy.array(x)``)
        # is NumPy's own, writable
        return out.copy(order="K") if copy else out

    @property
    def __jax_array__(self):
        # JAX converts an array-like with this method, but while abstracting a
        # value it was handed as an array (a function's output under jax.grad,
        # ...) it only looks the name up, and raises a generic error: say why,
        # and what to use instead
        caller = sys._getframe(1)
        module = caller.f_globals.get("__name__", "")
        if caller.f_code.co_name in _ABSTRACTIFY and module.startswith("jax."):
            raise ValueError(NOT_A_JAX_ARRAY)
        if module == _JAX_OPERATORS and caller.f_code.co_name.startswith("_operator_"):
            # a jax.Array operator (``jnp.float32(2) * x``): given back as itself, not
            # an array to JAX, so JAX returns NotImplemented and Python calls the
            # reflected NamedArray operator, which keeps the names
            return self._itself
        return self._to_jax_array

    def _itself(self):
        return self

    def _to_jax_array(self):
        return self._plain("__jax_array__", "; an elementwise JAX function applies "
                           "with namedarray.nn.elementwise(fn)(x), any JAX function "
                           "with namedarray.nmap(fn)(x)")

    def __bool__(self):
        return bool(self._plain("bool"))

    def __int__(self):
        return int(self._plain("int"))

    def __float__(self):
        return float(self._plain("float"))

    def __complex__(self):
        return complex(self._plain("complex"))

    def __index__(self):
        d = self._plain("__index__")
        if d.ndim or not jnp.issubdtype(d.dtype, jnp.integer):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(d)

    def __hash__(self):
        # a 0-d array is what NumPy's scalars are here (full reductions, x[i] of a
        # vector): hashable by value, as they are; other arrays are not
        if self.dims or self.mapped:
            raise TypeError("unhashable type: 'NamedArray' (only 0-d arrays, NumPy's "
                            "scalars, are hashable)")
        return hash(self.item())

    def item(self, *args):
        return onp.asarray(self._plain("item")).item(*args)

    def tolist(self):
        return onp.asarray(self._plain("tolist")).tolist()

    def __iter__(self):
        shape = self.shape
        if not shape:      # (raised by iter(), as NumPy's: np.iterable(x) is False)
            raise TypeError("iteration over a 0-d array")
        if type(self) is NamedArray and self._dev is not None:
            hooks.iterated(self)
        return (self[i] for i in range(shape[0]))

    def __repr__(self):
        h = self._host
        if h is not None:
            return _numpy_scalar_repr(h) if is_scalar(self) else _numpy_repr(h)
        if isinstance(self.data, jax.core.Tracer):
            return f"NamedArray({self.data}, dims={self.dims})"
        if is_scalar(self):
            return _numpy_scalar_repr(self.data)     # see zero_dim_array
        if self.dims.count(None) == len(self.dims):
            return _numpy_repr(self.data)
        body = _numpy_repr(self.data).replace("\n", "\n" + " " * 5)
        dims = placed_dims(self.dims, self.data) or self.dims   # batch:8@data
        return (f"NamedArray(named_shape={self.named_shape}, shape={self.shape}, "
                f"dtype={self.dtype},\n     dims={dims},\n     data={body})")

    def __str__(self):
        # (a scalar prints as NumPy's scalar: its own str, not its 0-d array's,
        # which printoptions(legacy="1.13") tells apart)
        h = self._host      # (read once: a deferred selection's is gone once it settles)
        if h is not None:
            return str(h[()] if is_scalar(self) else h)
        if isinstance(self.data, jax.core.Tracer):
            return repr(self)
        if self.dims.count(None) == len(self.dims):
            h = onp.asarray(self.data)
            return str(h[()] if is_scalar(self) else h)
        return repr(self)

    def __format__(self, spec):
        if self.dims.count(None) == len(self.dims) and not self.dims:
            return format(onp.asarray(self._plain("format"))[()], spec)
        return format(str(self), spec)

    def __copy__(self):
        return self._same()

    def __deepcopy__(self, memo):
        return self._same()

    def _same(self):
        """A new NamedArray of the same data: the same (immutable) device
        array, or a copy of small data living on the host (NumPy's copy, ~1
        us; making the device array to share costs a transfer)."""
        h = self._host
        if h is None and type(self) is View and not self.names:
            hv = host_view_of(self)     # (NumPy's copy of a view: its memory order)
            if hv is not None and (hv.ndim < 2 or hv.flags.c_contiguous):
                h = onp.array(hv)
        x = new(self.data, self.dims, self.mapped) if h is None else \
            on_host(h.copy() if type(h) is onp.ndarray else h)
        x._array0d = self._array0d or type(self) is View    # (a 0-d array's copy is one)
        return x

    def __reduce__(self):
        return (NamedArray, (onp.array(self._plain("pickle")) if not self.names
                             else onp.asarray(self.data), self.dims))

    # -- NumPy's protocols: numpy functions on NamedArrays dispatch here -------
    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        name = getattr(uf, "__name__", None)
        if not isinstance(name, str) or not isinstance(method, str):
            raise TypeError("__array_ufunc__: takes a ufunc and the name of its method "
                            f"(got {type(uf).__name__} and {type(method).__name__})")
        outs = kwargs.get("out", ())
        for a in inputs + (outs if isinstance(outs, tuple) else (outs,)) + (
                kwargs.get("where"),):
            f = getattr(type(a), "__array_ufunc__", _NO_OVERRIDE)
            if f is not _NO_OVERRIDE and f is not NamedArray.__array_ufunc__ and \
                    f is not onp.ndarray.__array_ufunc__:
                return NotImplemented   # NumPy's protocol: the other override answers
        ours = hooks.namespace.UFUNCS.get(name)
        if ours is not None and not ours == uf:
            ours = None         # another library's ufunc of that name
        if ours is None:
            # NumPy's gufuncs (matmul, vecdot, ...): the namespace's functions
            ours = getattr(hooks.namespace, name, None) \
                if getattr(onp, name, None) is uf else None
            if ours is None or method != "__call__":
                # another library's ufunc: NumPy's call on NumPy copies
                return hooks.foreign_ufunc(uf, method, inputs, kwargs) \
                    if isinstance(uf, onp.ufunc) else NotImplemented
        if "out" in kwargs and isinstance(kwargs["out"], tuple) and len(kwargs["out"]) == 1:
            kwargs["out"] = kwargs["out"][0]
        if method == "__call__":
            return ours(*inputs, **kwargs)
        return getattr(ours, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        mod = hooks.namespace
        for part in func.__module__.split(".")[1:]:
            if part not in ("_core", "core", "lib", "_function_base_impl") and \
                    not part.startswith("_"):
                mod = getattr(mod, part, None)
                if mod is None:
                    return NotImplemented
        ours = getattr(mod, func.__name__, None)
        if ours is None or ours is func:
            return NotImplemented
        return ours(*args, **kwargs)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The DLPack capsule of the data (positional arrays).  JAX exports
        unversioned (DLPack 0.x) capsules, which every consumer reads, so a
        ``max_version`` below JAX's own minimum gets that same capsule."""
        self._plain("__dlpack__")
        return self.data.__dlpack__(stream=stream, dl_device=dl_device, copy=copy,
                            max_version=None if max_version is None or tuple(
                                max_version) < (1, 0) else max_version)

    def __dlpack_device__(self):
        """``(device type, device id)`` of the data, as DLPack numbers them."""
        return self.data.__dlpack_device__()

    def __contains__(self, value):
        return bool((self == value).any(axis=None).data.any())

    def __class_getitem__(cls, item):
        import types
        return types.GenericAlias(cls, item)

    def tobytes(self, order="C"):
        return onp.asarray(self._plain("tobytes")).tobytes(order)

    def tofile(self, fid, sep="", format="%s"):
        onp.asarray(self._plain("tofile")).tofile(fid, sep, format)

    def dumps(self):
        import pickle
        return pickle.dumps(self)

    def dump(self, file):
        import pickle
        with open(file, "wb") if isinstance(file, str) else contextlib.nullcontext(file) as f:
            pickle.dump(self, f)

    def byteswap(self, inplace=False):
        if inplace:
            check_writeable("byteswap", self, "array to be byte-swapped")
        swapped = jnp.asarray(onp.asarray(self._plain("byteswap")).byteswap())
        if inplace:
            self.data = swapped
            return self
        return rewrap(self, swapped)

    @property
    def strides(self):
        return onp.empty(self.shape, self.dtype).strides

    @property
    def base(self):
        return None     # never a view: slicing copies (docs/design.md §1)

    def _no_views(self, what, *a, **k):
        raise NotImplementedError(
            f"{what}: NamedArrays do not expose raw memory (JAX arrays are immutable "
            "buffers); use astype / .data or numpy.asarray(x) for a NumPy copy")

    getfield = lambda self, *a, **k: self._no_views("getfield")  # noqa: E731
    setfield = lambda self, *a, **k: self._no_views("setfield")  # noqa: E731

    def setflags(self, write=None, align=None, uic=None):
        """NumPy's ``setflags``: ``write=False`` makes the array read-only (a
        later write into it or into a view made of it since raises
        ``ValueError``); ``write=True`` undoes it where its base is writeable."""
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if align is False:
            raise ValueError("setflags: align=False is not supported (namedarray's "
                             "arrays are always aligned); leave align unset")
        if write is None or is_value(self):      # a scalar is a value: always read-only
            return
        if not write:
            self._ro = True
            return
        if isinstance(self, View) and not self._owns and not (
                self._write is not None and writeable(self._base)):
            raise ValueError(
                "cannot set WRITEABLE flag to True of this array" + (
                    f" (the result of {self._what} cannot write through to its source; "
                    "use a copy)" if getattr(self, "_what", None) else ""))
        self._ro = False
    ctypes = property(lambda self: self._no_views("ctypes"))

    def __setstate__(self, state):
        data, dims = state
        self.data, self.dims, self.mapped = jnp.asarray(data), tuple(dims), ()

    # -- mutation: rebind .data functionally --------------------------------
    def _assign(self, fn: str, value: "NamedArray"):
        """Store ``value`` (broadcast to self) into self, NumPy-cast to self.dtype."""
        check_writeable(fn, self)
        extra = set(value.names) - set(self.names)
        if extra:
            raise ValueError(
                f"{fn}: the value has named axes {value.named_shape} that the target "
                f"(named shape {self.named_shape}) lacks")
        if not onp.can_cast(value.dtype, self.dtype, "same_kind"):
            raise TypeError(
                f"{fn}: cannot cast the result from {value.dtype} to the target's "
                f"{self.dtype} with casting rule 'same_kind'")
        (_, data), dims, _ = align(fn, [self, value])
        data = jnp.broadcast_to(data, self.data.shape) if data.shape != self.data.shape else data
        n = self.dims.count(None)
        if dims[n:] != self.dims[n:]:
            perm = tuple(range(n)) + tuple(n + dims[n:].index(d) for d in self.dims[n:])
            data = jax.lax.transpose(data, perm)
        self.data = data.astype(self.dtype)


_DATA = NamedArray.__dict__["_dev"]   # the slot behind .data
_HOST = NamedArray.__dict__["_host"]


class View(NamedArray):
    """What a NumPy view returns here (a basic slice, ``.T``, ``.real``,
    ``reshape``, ``.flat``, ``view()``): its data is read from its base when
    the base has changed since (a write to the base is seen), and a write into
    it (``x[1:-1][mask] = 1``, ``row = x[0]; row += 1``, ``x.T[0] = 1``) also
    reaches the base, so neither write is lost or overwritten by a stale copy.
    ``read(base)`` gives the view's data from the base's; ``write(base, data)``
    stores the view's new data into the base (``None``: the result is
    read-only, as NumPy's ``diagonal`` and ``broadcast_to`` are, and a write
    raises ``ValueError``)."""

    __slots__ = ("_base", "_read", "_write", "_seen", "_what", "_base_shape", "_base_dims",
                 "_owns", "_hview", "_hbuf", "_hroot")

    @property
    def data(self):
        base = self._base
        if base is not None:
            src = base.data
            if src is not self._seen:
                with backends.where_it_lies(src):      # (not through a TPU)
                    _DATA.__set__(self, self._read(self._as_made(src)))
                self._seen = src
        d = _DATA.__get__(self)
        if d is None:       # a view of data on the host: its device data made now
            d = hooks.to_device(onp.array(self._hview))
            _DATA.__set__(self, d)
        return d

    @property
    def shape(self) -> tuple:
        hv = self._hview if _DATA.__get__(self) is None else None
        return hv.shape if hv is not None else self.data.shape[: self.dims.count(None)]

    @property
    def dtype(self):
        hv = self._hview if _DATA.__get__(self) is None else None
        return hv.dtype if hv is not None else self.data.dtype

    @property
    def base(self):
        """NumPy's ``base``: the array this view's data is read from (the
        first of a chain of views; ``None`` for one that owns its data, a
        Fortran-ordered array)."""
        if self._owns:
            return None
        b = self._base
        while type(b) is View and b._base is not None and not b._owns:
            b = b._base
        return b

    def _as_made(self, src):
        """The base's data in the shape it had when this view was made: a
        ``base.shape = s`` since then keeps its memory (C order), so the
        view still reads and writes the same elements."""
        shape = self._base_shape
        return src if shape is None or src.shape == shape else src.reshape(shape)

    @data.setter
    def data(self, value):
        if not writeable(self):     # (checked along the chain before anything changes)
            raise read_only_error(self)
        _DATA.__set__(self, value)
        self._hview = None
        base = self._base
        if self._base_shape is None or base.data.shape == self._base_shape:
            self._write(base, rewrap(self, value))
        else:       # the base was reshaped in place since: write in the old shape
            now = base.data.shape
            made = new(base.data.reshape(self._base_shape), self._base_dims, base.mapped)
            self._write(made, rewrap(self, value))
            base.data = made.data.reshape(now)
        self._seen = base.data



def is_value(x) -> bool:
    """Whether ``x`` is one of NumPy's scalars (:func:`is_scalar`), an
    immutable value: ``s += 1`` rebinds ``s``, ``s[...] = 1`` raises.  (A 0-d
    :class:`View` is a view of an array, so it is an array.)"""
    return type(x) is NamedArray and is_scalar(x)


def writeable(x) -> bool:
    """NumPy's ``x.flags.writeable``: ``False`` after ``x.setflags(write=False)``,
    for a view made of a read-only array, and for a read-only result (or a
    view whose writes would reach one; a scalar, which is a value)."""
    if is_value(x):
        return False
    while x is not None:
        if getattr(x, "_ro", False) or (isinstance(x, View) and x._write is None):
            return False
        x = x._base if isinstance(x, View) and not x._owns else None
    return True


def _read_only_origin(x):
    """What made the read-only result that ``x`` is or writes through to
    (``None``: made read-only by ``setflags``)."""
    while isinstance(x, View) and not getattr(x, "_ro", False):
        if x._write is None:
            return x._what
        x = x._base
    return None


def check_writeable(fn, x, what="assignment destination"):
    """NumPy's ``ValueError`` for a write into ``x`` where it is read-only
    (``setflags``, a read-only result, a view that writes into one), checked
    before anything else of the write, as NumPy checks it (a bool read-only
    array's ``+= 1`` is this error, not the cast's; so is a write into an
    empty one).  A scalar is a value: its own errors are its methods'."""
    if is_value(x) or writeable(x):
        return
    raise read_only_error(x, f"{fn}: {what}" if what != "assignment destination" else what)


def read_only_error(x, what="assignment destination") -> ValueError:
    """The ``ValueError`` of a write into the read-only ``x``, naming what
    made it read-only where a function did."""
    origin = _read_only_origin(x)
    return ValueError(
        f"{what} is read-only" + (
            f": this array is the result of {origin}, which cannot write through to "
            "its source here; write into a copy (x = x.copy())" if origin else ""))


def host_view_of(v):
    """NumPy's view of the host buffer that the view ``v`` reads, while the
    array its views start from still holds that buffer; else None."""
    hv = v._hview
    if hv is None:
        return None
    root = v._hroot if v._hroot is not None else v._base
    return hv if root._host is v._hbuf else None


def host_root(x):
    """``(x's data on the host, the NamedArray holding that buffer)``: of a
    NamedArray living on the host, or of a view of one (:func:`host_view`);
    else ``(None, None)``."""
    if type(x) is NamedArray:
        h = x._host
        return (host_array(h), x) if h is not None else (None, None)
    if type(x) is View:
        hv = host_view_of(x)
        if hv is not None:
            return hv, x._hroot if x._hroot is not None else x._base
    return None, None

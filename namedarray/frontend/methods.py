"""NamedArray's operators and methods, declared from the function tables.

The frontend installs them on the core type when it is imported
(``namedarray/namespace.py`` calls :func:`install`).

>>> import namedarray as np
>>> x = np.arange(6).reshape(2, 3)
>>> (x.T @ x).shape, x.sum(axis=0)
((3, 3), array([3, 5, 7]))
"""
from __future__ import annotations

import builtins
import math
import operator
import sys
import types

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import (NamedArray, View, check_writeable, host_root, is_scalar, is_value,
                          new, on_host, rewrap, zero_dim_array)
from ..core.derived import read_only
from . import index_assign, index_named, indexing
from .engines import host, numpy_data, views
from .engines.views import viewed
from .engines.index_rules import FLAT
from .engines.args import check_dtype, host_data_error, subclass_refused
from .engines.dispatch import on_cpu_where_lacking
from .engines.generic import generic
from .engines.numpy_data import HOST_CLASSES
from .engines.scalar_operands import numpys_answer, python_answers

_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "left_shift", "rshift": "right_shift", "divmod": "divmod",
}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
            "gt": "greater", "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}

# method name -> public function name (x.f(*a, **k) == namedarray.f(x, *a, **k))
_METHODS = [
    "sum", "prod", "mean", "max", "min", "any", "all", "std", "var", "argmax", "argmin",
    "cumsum", "cumprod", "ptp", "clip", "round", "nonzero",
    "swapaxes", "squeeze", "ravel", "repeat", "argsort", "take", "trace",
    "diagonal", "searchsorted", "compress", "choose", "dot", "argpartition",
]


def _bitcast(d, dt):
    """The bits of ``d`` as ``dt``, the last axis rescaled as NumPy's ``view``."""
    src = d.dtype
    if d.ndim == 0:         # same itemsize (checked by the caller)
        return _bitcast(d[None], dt)[0]
    if src.kind == "c":     # a complex is its real and imaginary parts, in that order
        part = jax.numpy.stack([d.real, d.imag], axis=-1)
        return _bitcast(part.reshape(d.shape[:-1] + (2 * d.shape[-1],)), dt)
    if dt.kind == "c":
        part = _bitcast(d, onp.dtype(f"f{dt.itemsize // 2}"))
        part = part.reshape(part.shape[:-1] + (part.shape[-1] // 2, 2))
        return jax.lax.complex(part[..., 0], part[..., 1])
    if src == onp.bool_:
        d, src = d.astype(onp.uint8), onp.dtype(onp.uint8)
    to = onp.dtype(onp.uint8) if dt == onp.bool_ else dt
    if to.itemsize < src.itemsize:
        r = jax.lax.bitcast_convert_type(d, to)
        r = r.reshape(d.shape[:-1] + (d.shape[-1] * (src.itemsize // to.itemsize),))
    elif to.itemsize > src.itemsize:
        k = to.itemsize // src.itemsize
        r = jax.lax.bitcast_convert_type(d.reshape(d.shape[:-1] + (d.shape[-1] // k, k)), to)
    else:
        r = jax.lax.bitcast_convert_type(d, to)
    return r != 0 if dt == onp.bool_ else r


def bitcast(x, dtype):
    """``x.view(dtype)``: the same bytes read as ``dtype``; a write into an
    integer view stores its bytes back into ``x`` (``Z.view(np.int32)[:] = ...``);
    a bool, floating or complex view is read-only (storing it back could
    change bytes it did not write)."""
    check_dtype("view", dtype)
    dt = onp.dtype(dtype)
    old = x.dtype.itemsize
    if dt.itemsize != old:
        if x.ndim == 0:
            raise ValueError(f"view: changing the dtype of a 0d array is only supported if "
                             f"the itemsize is unchanged ({x.dtype} to {dt})")
        if (x.shape[-1] * old) % dt.itemsize:
            raise ValueError(f"view: when changing to a larger dtype, its size must be a "
                             f"divisor of the total size in bytes of the last axis of the "
                             f"array (shape {x.shape}, {x.dtype} to {dt})")
    src = x.dtype
    f = lambda a: generic("view", lambda d: _bitcast(d, dt), (a,), {})  # noqa: E731
    integer = dt.kind in "iu"
    v = _host_dtype_view(x, dt, f, (lambda b, v: generic(
        "view", lambda d: _bitcast(d.astype(dt), src), (v,), {})) if integer else None)
    if v is not None:
        if not integer:
            v._what = f"view({dt})"
        return v
    if dt.kind not in "iu":
        # every bit pattern is an integer, so those views store back exactly;
        # a bool or floating view could normalize the bytes it did not write
        return read_only(f(x), f"view({dt})")
    return _viewed("view", x, f, lambda b, v: generic(
        "view", lambda d: _bitcast(d.astype(dt), src), (v,), {}))


def _host_dtype_view(x, dt, f, back):
    """``x.view(dt)`` of data living on the host: NumPy's view of its bytes
    (nothing compiles), read as ``f`` reads it and written back by ``back``
    (None: read-only) where it is no longer NumPy's; None where ``x`` does
    not live there (the compiled path answers); NumPy's ``ValueError`` where
    NumPy refuses."""
    h, root = host_root(x) if not is_value(x) and not x.mapped and \
        x.dims.count(None) == len(x.dims) else (None, None)
    if h is None:
        return None
    try:
        hv = h.view(dt)
    except ValueError as e:     # (a strided last axis: NumPy's view is refused)
        raise ValueError(f"view: {e} (the view's last axis is strided; view a "
                         "copy, x.copy().view(dtype))") from None
    return viewed("view", x, f, back, writable=back is not None, result=on_host(hv),
                  hosted=(hv, root))


def scalar_type(x) -> str:
    """The name of NumPy's scalar type of ``x``'s dtype (``'numpy.float64'``)."""
    return f"numpy.{onp.dtype(x.dtype).type.__name__}"


class _ScalarOnly:
    """An attribute that NumPy's scalars of some dtypes have and its arrays
    lack (``is_integer`` of a float, ``bit_count`` of an integer): NumPy's own
    scalar's, for a scalar of those dtypes; ``AttributeError`` otherwise."""

    def __init__(self, kinds, dtype=None):
        self.kinds, self.dtype = kinds, dtype

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, x, owner=None):
        if x is None:
            return self
        dt = onp.dtype(x.dtype)
        if not is_value(x) or dt.kind not in self.kinds or self.dtype not in (None, dt):
            what = scalar_type(x) if is_value(x) else "numpy.ndarray"
            raise AttributeError(f"'{what}' object has no attribute '{self.name}'")
        return getattr(onp.asarray(x.data)[()], self.name)


#: NumPy's scalar attributes that its arrays lack: name -> (dtype kinds, the one dtype)
SCALAR_ONLY = {"is_integer": ("fiu", None), "as_integer_ratio": ("f", None),
               "bit_count": ("iu", None), "numerator": ("iu", None),
               "denominator": ("iu", None), "hex": ("f", onp.dtype(onp.float64)),
               "fromhex": ("f", onp.dtype(onp.float64))}


def _immutable(fn, x):
    """NumPy's error for a write into the scalar ``x`` (scalars are values)."""
    if is_value(x):
        raise TypeError(f"{fn}: '{scalar_type(x)}' object does not support item "
                        "assignment (NumPy's scalars are immutable; np.array(s) is a "
                        "0-d array that does)")


def _viewed(what, x, f, back):
    """``views.viewed``; of a scalar, a new value (NumPy's scalars have no views)."""
    if not is_value(x):
        return viewed(what, x, f, back)
    r = f(x)
    return new(r.data, r.dims, r.mapped) if isinstance(r, View) else r


def _host_reshaped(what, x, f, back):
    """``x.reshape(...)``/``x.ravel()`` of data living on the host: NumPy's
    view (no position map compiled to decide it), written back through
    ``back`` as a reshape of the base is; NumPy's copy where NumPy copies."""
    r = f(x)        # (NumPy's view or copy on the host: views.view_function)
    if type(r) is not View:
        return r
    return viewed(what, x, f, back, result=r)


def _numpy_astype(a, *args):
    return a.astype(*args)


def _kind_of(x, r):
    """``r`` a 0-d array where ``x`` is one (a copy of a 0-d array is an array)."""
    return zero_dim_array(r) if (not is_scalar(x) and isinstance(r, NamedArray) and
                                 not r.dims and not r.mapped) else r


def _in_place_axis(method, axis):
    """The axis of an in-place ``sort``/``partition``: an int (or a name), as
    NumPy's methods take it (``None`` would flatten, which no in-place
    method can: NumPy's ``TypeError``)."""
    if isinstance(axis, str):
        return axis
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f"{method}: '{type(axis).__name__}' object cannot be interpreted as "
                        f"an integer (axis={axis!r}: the method works in place along one "
                        f"axis; np.{method} with axis=None gives a flattened copy)") from None


def _read_only_attribute(x, name):
    if is_value(x):
        raise AttributeError(f"attribute '{name}' of 'numpy.generic' objects is not "
                             "writable (a scalar is a value)")


def _flat(v):
    """``a.flat``: the flat view, marked so that indexing it follows NumPy's
    flat-iterator rules (``index_rules.flat_index``)."""
    if isinstance(v, View):
        v._what = FLAT
    return v


def _resize_flat(ns, x, v):
    """``x.flat = v``: the values of ``v`` repeated over ``x``'s elements."""
    v = ns["ravel"](ns["asarray"](v))
    if v.size == 0 or v.names:
        return v
    return ns["resize"](v, (x.size,))


def _store(fn, x, result):
    """``x op= y``: the result stored into ``x`` (NumPy's ``same_kind`` cast);
    on the host buffer where ``x`` and the result live on the host (an
    in-place operator in an eager loop compiles nothing, engines/host.py)."""
    if not index_assign.resident_set(x, Ellipsis, result):
        x._assign(fn, result)


def _defers(other) -> bool:
    """Whether an operator of an array with ``other`` returns NotImplemented,
    so that Python asks ``other`` (NumPy's rule, NEP 13: a class whose
    ``__array_ufunc__`` is None, ``pytest.approx``'s for one, takes over
    the operators; NumPy's functions refuse it)."""
    return getattr(type(other), "__array_ufunc__", False) is None


def install(ns: dict):
    uf = ns["UFUNCS"]

    def binary(f, py):
        # with one of NumPy's classes (matrix: ``*`` is a product), NumPy's operator
        call = f.binary
        ipy = getattr(operator, "i" + py.__name__.strip("_"), None)

        # a scalar with an object no array holds (a Fraction, None), or after a
        # Python complex: Python's arithmetic on NumPy's scalar (scalar_operands.py)
        def op(self, other):
            if type(other) is not NamedArray:
                if _defers(other):
                    return NotImplemented
                if isinstance(other, HOST_CLASSES):
                    return py(onp.asarray(self), other)
                if is_value(self) and python_answers(py, self, other, False):
                    return numpys_answer(py, self, other, False, f.__name__)
            return call(self, other, py)

        def rop(self, other):
            if type(other) is not NamedArray:
                if _defers(other):
                    return NotImplemented
                if isinstance(other, HOST_CLASSES):
                    return py(other, onp.asarray(self))
                if is_value(self) and python_answers(py, self, other, True):
                    r = numpys_answer(py, self, other, True, f.__name__)
                    if r is not None:
                        return r
            return call(other, self, py)

        op, rop = f._operators(py, op, rop)     # (a scalar's arithmetic, short)

        def iop(self, other):
            if is_value(self):     # a scalar is a value: `s += 1` is `s = s + 1`
                return op(self, other)
            check_writeable(f"__i{f.__name__}__", self, "output array")
            if type(other) is not NamedArray and isinstance(other, HOST_CLASSES):
                h = onp.array(self)         # NumPy's in-place operator, stored back
                self[...] = ipy(h, other)
                return self
            _store(f"__i{f.__name__}__", self, f(self, other))
            return self
        return op, rop, iop

    for short, name in _BINARY.items():
        if name == "divmod":
            op, rop, _ = binary(uf[name], divmod)
            NamedArray.__divmod__, NamedArray.__rdivmod__ = op, rop
            continue
        op, rop, iop = binary(uf[name], getattr(operator, f"{short}_"
                                                if short in ("and", "or") else short))
        setattr(NamedArray, f"__{short}__", op)
        setattr(NamedArray, f"__r{short}__", rop)
        setattr(NamedArray, f"__i{short}__", iop)
    for short, name in _COMPARE.items():
        setattr(NamedArray, f"__{short}__", binary(uf[name], getattr(operator, short))[0])
    for short, name in _UNARY.items():
        setattr(NamedArray, f"__{short}__", (lambda f: lambda self: f(self))(uf[name]))

    matmul = ns["matmul"]
    NamedArray.__matmul__ = lambda self, other: \
        NotImplemented if _defers(other) else matmul(self, other)
    NamedArray.__rmatmul__ = lambda self, other: \
        NotImplemented if _defers(other) else matmul(other, self)

    def imatmul(self, other):
        if is_value(self):
            return matmul(self, other)
        check_writeable("__imatmul__", self, "output array")
        _store("__imatmul__", self, matmul(self, other))
        return self
    NamedArray.__imatmul__ = imatmul
    NamedArray.__getitem__ = indexing.getitem
    def setitem(self, idx, value):
        _immutable("__setitem__", self)
        if type(value) not in numpy_data.PLAIN_VALUES:     # (data JAX cannot hold: NumPy's write)
            h = numpy_data.numpy_write(self, idx, value)
            if h is not None:
                value, idx = h, Ellipsis
        index_assign.setitem(self, idx, value)
    NamedArray.__setitem__ = index_assign.element_writes(setitem)
    for k, (kinds, dt) in SCALAR_ONLY.items():
        d = _ScalarOnly(kinds, dt)
        d.__set_name__(NamedArray, k)
        setattr(NamedArray, k, d)

    def trunc(self):
        """``math.trunc`` of a scalar."""
        return int(self) if self.dtype.kind in "biu" else math.trunc(float(self))

    def put(self, ind, v, mode="raise"):
        """``ndarray.put`` in place (of a scalar: of a copy, so nothing, as NumPy)."""
        if not is_value(self):
            ns["put"](self, ind, v, mode=mode)
    NamedArray.__trunc__, NamedArray.put = trunc, put
    NamedArray.at = property(index_named.at)

    for m in _METHODS:
        fn = ns[m]
        if isinstance(fn, types.FunctionType):    # binds as a method: no extra call
            setattr(NamedArray, m, fn)
            continue
        setattr(NamedArray, m, (lambda f: lambda self, *a, **k: f(self, *a, **k))(fn))
        getattr(NamedArray, m).__doc__ = f"``namedarray.{m}(self, ...)``"
        getattr(NamedArray, m).__name__ = m

    def conjugate(self):
        """``ndarray.conjugate``: of a complex array its conjugate, else the
        array itself (``a.conj() is a``, its dtype kept: a bool array's is bool,
        where ``np.conjugate``, the ufunc, gives int8)."""
        return ns["conjugate"](self) if self.dtype.kind == "c" else self
    NamedArray.conjugate = NamedArray.conj = conjugate

    def compress(self, condition, axis=None, out=None):
        return ns["compress"](condition, self, axis=axis, out=out)

    def clip(self, min=None, max=None, out=None, **kwargs):
        """``ndarray.clip``: bounds ``min``/``max`` (one may be given alone),
        as NumPy's method takes them."""
        return ns["clip"](self, min=min, max=max, out=out, **kwargs)
    NamedArray.clip = clip

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        if order not in ("C", None) or copy is not None:
            return ns["reshape"](self, shape, order=order, copy=copy)
        f = lambda a: ns["reshape"](a, shape)  # noqa: E731
        back = lambda b, v: ns["reshape"](v, b.shape)  # noqa: E731
        if not is_value(self) and host_root(self)[0] is not None:
            return _host_reshaped("reshape", self, f, back)
        if not views.stays_view(self, f):     # NumPy copies
            return f(self)
        return _viewed("reshape", self, f, back)

    def ravel(self, order="C"):
        if order not in ("C", None):
            return ns["ravel"](self, order=order)
        f = lambda a: ns["ravel"](a)  # noqa: E731
        back = lambda b, v: ns["reshape"](v, b.shape)  # noqa: E731
        if not is_value(self) and host_root(self)[0] is not None:
            return _host_reshaped("ravel", self, f, back)
        if not views.stays_view(self, f, contiguous=True):     # NumPy copies
            return f(self)
        return _viewed("ravel", self, f, back)

    def re(a):      # (complex128 data a user put on a TPU: its parts on the CPU)
        return generic("real", on_cpu_where_lacking(jnp.real, "real", (a.dtype,)), (a,), {})

    def im(a):
        return generic("imag", on_cpu_where_lacking(jnp.imag, "imag", (a.dtype,)), (a,), {})

    def _real(self):
        if not jnp.iscomplexobj(self.data):
            return _viewed("real", self, lambda a: rewrap(a, a.data), lambda b, v: v)
        return _viewed("real", self, lambda a: re(a), lambda b, v: _parts(re(b), im(b), v,
                                                                          None))

    def _imag(self):
        if not jnp.iscomplexobj(self.data):
            return read_only(im(self))
        return _viewed("imag", self, lambda a: im(a), lambda b, v: _parts(re(b), im(b), None,
                                                                          v))

    def _parts(r, i, new_r, new_i):
        """The complex array of real part ``r`` and imaginary part ``i``, one
        of them replaced (``new_r``/``new_i``, cast to the part's dtype): the
        parts kept bit for bit (``-0.0``, ``inf``, NaN), as NumPy writes them."""
        r = r if new_r is None else new_r.astype(r.dtype)
        i = i if new_i is None else new_i.astype(i.dtype)
        if r.dims == i.dims and r.mapped == i.mapped and r.data.shape == i.data.shape:
            return new(jax.lax.complex(r.data, i.data), r.dims, r.mapped)
        return generic("complex", jax.lax.complex, (r, i), {})

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        # to data namedarray cannot hold (object, str, longdouble): NumPy's
        # array on the host, as NumPy's astype gives (eagerly; traced: the
        # named TypeError)
        if type(self) is NamedArray and self._host is not None and copy is not False:
            # data living on the host: NumPy's cast (its answer where NumPy's
            # is namedarray's: no warning, a dtype namedarray holds on the host)
            h = host.held("astype", (self, dtype, order, casting, subok, True), {})
            if h is not None:
                if is_scalar(self):         # (NumPy's scalar: its astype gives one)
                    h[0][0] = h[0][0][()]
                try:
                    return _kind_of(self, host.answer(_numpy_astype, "astype", *h,
                                                      False, True))
                except host.Declined:
                    pass
        f = ns["astype"]
        try:
            r = getattr(f, "__wrapped__", f)(self, dtype, copy=copy, casting=casting)
        except TypeError as e:
            if not host_data_error(e) or isinstance(self.data, jax.core.Tracer):
                raise
            h = onp.asarray(self).astype(dtype, order, casting, subok, copy)
            return h[()] if is_scalar(self) else h       # a scalar's: NumPy's scalar
        return _kind_of(self, r)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        axes = axes if axes != () else None
        if axes is None:
            if not is_value(self) and host_root(self)[0] is not None:
                return ns["transpose"](self)    # (NumPy's view: views.view_function)
            return _viewed("transpose", self, lambda a: ns["transpose"](a, None),
                          lambda b, v: ns["transpose"](v, None))
        # names listed become positional in front of the others (np.transpose)
        names = [a for a in axes if isinstance(a, str)]
        k = len(names)
        inv = tuple(onp.argsort([names.index(a) if isinstance(a, str) else
                                 k + (a % self.ndim if self.ndim else a)
                                 for a in axes]).tolist())
        back = (lambda b, v: ns["transpose"](v, inv).tag(*names, *[None] * self.ndim)) \
            if names else (lambda b, v: ns["transpose"](v, inv))
        return _viewed("transpose", self, lambda a: ns["transpose"](a, axes), back)

    def sort(self, axis=-1, kind=None, order=None, *, descending=False, stable=None):
        """In-place sort, as ``numpy.ndarray.sort``."""
        axis = _in_place_axis("sort", axis)
        self._assign("sort", ns["sort"](self, axis=axis, kind=kind, order=order,
                                        descending=descending, stable=stable))

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """In-place partition, as ``numpy.ndarray.partition`` (see ``partition``)."""
        axis = _in_place_axis("partition", axis)
        self._assign("partition", ns["partition"](self, kth, axis=axis, kind=kind,
                                                  order=order))

    def view(self, dtype=None, type=None):
        if isinstance(dtype, builtins.type) and issubclass(dtype, NamedArray):
            dtype, type = None, dtype
        if type is not None and not (isinstance(type, builtins.type) and
                                     issubclass(type, NamedArray)):
            raise TypeError(f"view: type must be namedarray.ndarray, got {type!r}")
        if type is not None and not type.__module__.startswith("namedarray."):
            # a user's subclass (the package's own kinds, View, are NamedArrays)
            raise TypeError(subclass_refused("view", f"type={type.__name__}"))
        if dtype is None or onp.dtype(dtype) == self.dtype:
            f, back = (lambda a: rewrap(a, a.data)), (lambda b, v: v)
            v = _host_dtype_view(self, self.dtype, f, back)
            return v if v is not None else _viewed("view", self, f, back)
        return bitcast(self, dtype)

    def flatten(self, order="C"):
        return ns["ravel"](self, order=order).copy()     # a copy in NumPy, never a view

    def to_device(self, device, /, *, stream=None):
        return rewrap(self, jax.device_put(self.data, device))

    def __array_namespace__(self, *, api_version=None):
        return sys.modules[ns["__package__"]]

    def __array_wrap__(self, array, context=None, return_scalar=False, /):
        """``numpy.ndarray.__array_wrap__``: ``array`` as an array of this class
        (a 0-d one as a scalar with ``return_scalar=True``)."""
        r = ns["asarray"](array)
        return r[()] if return_scalar and r.ndim == 0 else r

    props = {
        "T": lambda self: transpose(self),
        "mT": lambda self: _viewed("mT", self, lambda a: ns["swapaxes"](a, -1, -2),
                                  lambda b, v: ns["swapaxes"](v, -1, -2)),
        "real": _real,
        "imag": _imag,
        "flat": lambda self: _flat(_viewed("flat", self, lambda a: ns["ravel"](a),
                                           lambda b, v: ns["reshape"](v, b.shape))),
    }
    def set_imag(self, value):
        _read_only_attribute(self, "imag")
        if not jnp.iscomplexobj(self.data):
            raise TypeError("imag: array does not have imaginary part to set")
        _imag(self)[...] = value

    # NumPy's settable attributes: `a.real = v` is `a.real[...] = v`
    def set_real(self, value):
        _read_only_attribute(self, "real")
        _real(self)[...] = value

    setters = {"real": set_real,
               "imag": set_imag,
               "flat": lambda self, v: _read_only_attribute(self, "flat") or props[
                   "flat"](self).__setitem__(Ellipsis, _resize_flat(ns, self, v))}
    for k, f in props.items():      # (NumPy's documentation, less its examples)
        doc = getattr(onp.ndarray, k).__doc__
        setattr(NamedArray, k, property(f, setters.get(k),
                                        doc=doc and doc.split("Examples\n")[0].rstrip()))
    NamedArray.flags = property(views.array_flags)
    View.flags = property(views.view_flags)
    View.strides = property(views.view_strides)
    def fill(self, value):
        if not is_value(self):     # (a scalar's fill fills a copy, as NumPy's)
            check_writeable("fill", self)
            if type(value) in (int, float, bool) and index_assign.resident_set(
                    self, Ellipsis, value):
                return      # (NumPy's, into data living on the host)
            self._assign("fill", ns["full_like"](self, value))

    def set_shape(self, shape):
        """``x.shape = s``: ``x`` reshaped in place (a view stays a view of its
        base), where NumPy can do it without a copy."""
        if is_value(self):
            raise AttributeError("attribute 'shape' of 'numpy.generic' objects is not "
                                 "writable (a scalar is a value; reshape it instead)")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        f = lambda a: ns["reshape"](a, shape)  # noqa: E731
        if not isinstance(self, View) or self._base is None:
            r = f(self)
            self.data, self.dims = r.data, r.dims
            return
        if not views.stays_view(self, f):
            raise AttributeError("shape: Incompatible shape for in-place modification. "
                                 "Use `.reshape()` to make a copy with the desired shape.")
        old, dims, read, write = self.shape, self.dims, self._read, self._write
        r = f(self)
        self._read = lambda src: f(new(read(src), dims, self.mapped)).data
        if write is not None:
            self._write = lambda b, v: write(b, ns["reshape"](v, old))
        views.set_view_data(self, r.data, r.dims)

    def resize(self, *new_shape, refcheck=True):
        """``ndarray.resize``: in place, in memory order (C, or Fortran for a
        Fortran-ordered array), new elements zero (``np.resize`` repeats instead)."""
        if len(new_shape) == 1 and not isinstance(new_shape[0], int):
            new_shape = tuple(new_shape[0])
        if is_value(self):         # (a scalar's resize resizes a copy, as NumPy's)
            return
        if isinstance(self, View) and self._owns:     # Fortran order: resize its memory
            owner = self._base
            resize(owner, *new_shape[::-1], refcheck=refcheck)
            views.set_view_data(self, owner.data.T, owner.dims)
            self._base_shape, self._base_dims = owner.data.shape, owner.dims
            return
        if isinstance(self, View) and self._base is not None:
            raise ValueError("resize: cannot resize this array: it does not own its data "
                             "(it is a view; use np.resize(a, new_shape) for a new array)")
        if self.names:
            raise ValueError(f"resize: the array has named axes {self.named_shape}; "
                             "resize works on positional arrays (untag them first)")
        for n in new_shape:
            if not isinstance(n, int) or isinstance(n, bool):
                raise TypeError(f"resize: new_shape must be integers, got {new_shape!r}")
            if n < 0:
                raise ValueError("resize: negative dimensions not allowed")
        flat = self.data.reshape(-1)
        size = int(onp.prod(new_shape, dtype=onp.int64))
        data = (flat[:size] if size <= flat.size else
                jnp.concatenate([flat, jnp.zeros(size - flat.size, flat.dtype)]))
        self.data, self.dims = data.reshape(new_shape), (None,) * len(new_shape)

    NamedArray.shape = property(NamedArray.shape.fget, set_shape,
                                doc=NamedArray.shape.__doc__)
    View.shape = property(View.shape.fget, set_shape, doc=NamedArray.shape.__doc__)

    # (``x == s`` calls ``s.__eq__(x)`` once x's ``__eq__`` declines: a scalar
    # cannot tell the sides apart, so both are NumPy's scalar's ``s == x``)
    def eq(self, other):
        if type(other) is not NamedArray and _defers(other):
            return NotImplemented
        if type(other) is not NamedArray and is_value(self) and python_answers(
                operator.eq, self, other, False):
            r = numpys_answer(operator.eq, self, other, False, "equal")
            if r is not None:
                return r
        if other is None:
            return ns["full"](self.shape, False) if not self.names else ns["full_like"](
                self, False, dtype=bool)
        return ns["equal"](self, other)

    def ne(self, other):
        if type(other) is not NamedArray and _defers(other):
            return NotImplemented
        if type(other) is not NamedArray and is_value(self) and python_answers(
                operator.ne, self, other, False):
            r = numpys_answer(operator.ne, self, other, False, "not_equal")
            if r is not None:
                return r
        if other is None:
            return ns["logical_not"](eq(self, None))
        return ns["not_equal"](self, other)
    NamedArray.__eq__, NamedArray.__ne__ = eq, ne
    for f in (reshape, astype, fill, sort, partition, view, flatten, to_device,
              __array_namespace__, __array_wrap__, transpose, compress, ravel, resize):
        setattr(NamedArray, f.__name__, f)
    def copy(self, order="C"):
        h = self._host if type(self) is NamedArray else None
        if h is not None and (order == "C" or self.ndim < 2):    # NumPy's copy, on the host
            return _kind_of(self, host.kept(h))
        if order == "C" or self.ndim < 2:
            return _kind_of(self, rewrap(self, jnp.array(self.data, copy=True)))
        return ns["copy"](self, order=order)     # NumPy's memory order
    NamedArray.copy = copy
    def round_(self, ndigits=None):
        # builtin round(): NumPy's scalars have it (round(s) a Python int, round(s, n)
        # a scalar of the dtype; not a bool or complex one), NumPy's arrays do not
        if not is_scalar(self) or self.dtype.kind in "bc":
            what = "numpy.ndarray" if not is_scalar(self) else f"numpy.{self.dtype.type.__name__}"
            raise TypeError(f"type {what} doesn't define __round__ method (round() of an "
                            f"array of shape {self.shape}: use np.round(a, decimals))"
                            if not is_scalar(self) else
                            f"type {what} doesn't define __round__ method")
        if ndigits is None and not isinstance(self.data, jax.core.Tracer):
            return round(self.item())
        return ns["round"](self, ndigits or 0)
    NamedArray.__round__ = round_

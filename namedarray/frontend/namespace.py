"""The table of NumPy names: the NumPy namespace, assembled from the frontend.

Every NumPy function that ``jax.numpy`` implements and that no module of the
frontend defines (ufuncs, reductions, einsum, creation, ...) is declared here
from one table: ``wrap(jnp.f, named=KIND)``.  ``KIND`` says what a *named*
``axis`` means (``"keep"``: the name survives, e.g. ``flip``; ``"reduce"``:
consumed).  Pure dtype/introspection helpers are NumPy's own functions, and
NumPy's dtypes, scalar types and constants are NumPy's own objects; the ML
dtypes (``bfloat16``, ``float8_*``) are JAX's (``ml_dtypes``), and ``finfo`` knows them.

Importing this module also installs ``NamedArray``'s methods and operators and
registers the frontend with the core layer (``core/hooks.py``).

>>> import namedarray as np
>>> np.flip(np.arange(3))
array([2, 1, 0])
>>> np.float32 is __import__("numpy").float32
True
"""
from __future__ import annotations

import builtins  # the namespace defines its own any
import functools
import inspect
import sys
import types

import jax.numpy as jnp
import numpy as onp

from .. import fft, linalg, random  # noqa: F401  (attributes: numpy.linalg.* dispatch here)
from . import emath as scimath, stride_tricks  # noqa: F401  (numpy.lib.*: the same)
from ..core import config, hooks
from ..core.array import NamedArray, View, is_scalar, new, read_only, zero_dim_array
from . import (arraypad, conversion, creation, elementwise, function_base, histograms,
               index_tricks, indexing, io, joining, logic, manipulation, methods)
from . import polynomial, setops, sorting, windows
from .. import einsum
from ..reductions import statistics, table as reductions
from .docstrings import document
from .engines.args import numpy_args, subclass_refused
from .engines.generic import wrap
from .engines.host import host_data, numpy_call
from .engines.select import nonzero
from .engines.ufunc import ufunc
from .engines.views import (fortran, may_share_memory, memory_axes, shares_memory,
                            view_function)
from .indexing import getitem_data, setitem

# what a named `axis` means for these functions
_KEEP = {"sort", "argsort", "flip", "roll", "diff",
         "take_along_axis", "unwrap", "apply_along_axis"}
_REDUCE = {"apply_over_axes"}

# NumPy's own helpers: they inspect dtypes/values and return Python objects
_NUMPY_OWN = [
    "can_cast", "promote_types", "issubdtype", "isdtype", "min_scalar_type",
    "mintypecode", "typename", "iterable", "get_printoptions",
    "set_printoptions", "printoptions", "seterr", "geterr", "seterrcall", "geterrcall",
    "getbufsize", "setbufsize", "format_float_positional", "format_float_scientific",
    "base_repr", "binary_repr", "info", "show_config", "show_runtime", "get_include",
    "datetime_data", "isnat", "busday_count", "busday_offset", "is_busday",
    "datetime_as_string", "nested_iters",
]


_MODULES = (elementwise, reductions, einsum, creation, joining, manipulation, sorting, io,
            conversion, indexing, setops, function_base, histograms, index_tricks, logic,
            polynomial, windows, arraypad, statistics)


def _host_args(f, name):
    """NumPy's own helper ``f`` (``numpy.name``) given NumPy's arrays for
    NamedArray arguments (``min_scalar_type(np.arange(4.0))``; a NamedArray
    ``out=`` receives NumPy's values: ``host.numpy_call``)."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        if builtins.any(isinstance(v, NamedArray) for v in (*args, *kwargs.values())):
            return numpy_call(name, args, kwargs)
        return f(*args, **kwargs)
    return g


def _declare(ns):
    """The NumPy functions ``ns`` lacks: NumPy's own helpers, then the table."""
    out = {}
    for n in _NUMPY_OWN:
        if hasattr(onp, n):
            out[n] = _host_args(getattr(onp, n), n)
    for n in sorted(dir(onp)):
        if n.startswith("_") or n in ns or n in out:
            continue
        v = getattr(onp, n)
        if isinstance(v, (type, onp.ufunc)) or not callable(v) or not hasattr(jnp, n):
            continue
        kind = "keep" if n in _KEEP else ("reduce" if n in _REDUCE else None)
        out[n] = wrap(numpy_args(getattr(jnp, n), n), n, named=kind)
    return out


# NumPy's keywords that choose memory layout, subclass or dispatch, never values
_LAYOUT_KEYWORDS = ("order", "subok", "like")


def _layout_keywords(f, n):
    """``f`` taking the ``order``/``subok``/``like`` that ``numpy.<n>`` takes
    and ``f`` lacks, checked as NumPy checks them (a layout of a device
    array is XLA's; no subclasses; ``like`` dispatches to this namespace)."""
    try:
        sig, have = inspect.signature(getattr(onp, n)), inspect.signature(f).parameters
    except (TypeError, ValueError):
        return f
    extra = [k for k in _LAYOUT_KEYWORDS if k in sig.parameters and k not in have]
    if not extra or builtins.any(p.kind is p.VAR_KEYWORD for p in have.values()):
        return f

    own = [p for p in have.values() if p.kind is p.KEYWORD_ONLY and
           p.name not in sig.parameters]       # (jax.numpy's extras: device=, ...)

    @functools.wraps(f)
    def g(*args, **kwargs):
        if not builtins.any(k in kwargs for k in extra) and len(args) <= builtins.min(
                list(sig.parameters).index(k) for k in extra):
            return f(*args, **kwargs)
        more = {p.name: kwargs.pop(p.name) for p in own if p.name in kwargs}
        b = sig.bind(*args, **kwargs)
        fortran_order = False
        for k in extra:
            v = b.arguments.pop(k, None)
            if k == "order" and v is not None and (not isinstance(v, str) or
                                                    v.upper() not in ("C", "F", "A", "K")):
                raise (TypeError if not isinstance(v, str) else ValueError)(
                    f"{n}: order must be one of 'C', 'F', 'A', or 'K' (got {v!r})")
            if k == "order" and v is not None:
                fortran_order = v.upper() == "F"
            if k == "like" and v is not None and not hasattr(v, "__array_function__"):
                raise TypeError(f"{n}: like= must be an array (with __array_function__) or "
                                f"None, got {type(v).__name__}")
        r = f(*b.args, **b.kwargs, **more)
        # order="F": the result laid out as NumPy's (its flags, ravel(order="K"), views)
        return fortran(r) if fortran_order and isinstance(r, NamedArray) else r
    params = list(sig.parameters.values())
    at = builtins.next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD),
                       len(params))
    g.__signature__ = sig.replace(parameters=params[:at] + own + params[at:])
    return g


def _order_case(f, n):
    """``f`` reading a memory ``order`` in either case, as NumPy reads it
    (``order="f"`` is ``"F"``; ``sort``'s ``order`` names fields instead)."""
    try:
        params = inspect.signature(f).parameters
    except (TypeError, ValueError):
        return f
    if "order" not in params or n in ("sort", "argsort", "partition", "argpartition"):
        return f
    names = list(params)
    pos = names.index("order") if builtins.all(
        params[k].kind is params[k].POSITIONAL_OR_KEYWORD
        for k in names[:names.index("order") + 1]) else None

    @functools.wraps(f)
    def g(*args, **kwargs):
        o = kwargs.get("order")
        if type(o) is str and o.islower():
            kwargs["order"] = o.upper()
        elif pos is not None and len(args) > pos and type(args[pos]) is str and \
                args[pos].islower():
            args = args[:pos] + (args[pos].upper(),) + args[pos + 1:]
        return f(*args, **kwargs)
    return g


def _numpy_objects(ns):
    """NumPy's dtypes, scalar types and constants that ``ns`` lacks."""
    out = {}
    for n in dir(onp):
        if n.startswith("_") or n in ns:
            continue
        v = getattr(onp, n, None)
        if isinstance(v, type) or isinstance(v, (float, int)):
            out[n] = v
    out["True_"], out["False_"] = onp.True_, onp.False_
    out["newaxis"] = None
    return out


def _c_order(a, *args, order="C", **kwargs):
    return order in ("C", None) and (len(args) < 2 or args[1] in ("C", None))


#: NumPy's functions whose result is a view of their (first) argument:
#: name -> view_function options (DESIGN.md §1; engines/views.py)
_VIEWS = {
    "transpose": {}, "permute_dims": {}, "matrix_transpose": {}, "swapaxes": {},
    "moveaxis": {}, "rollaxis": {}, "flip": {}, "fliplr": {}, "flipud": {}, "rot90": {},
    "squeeze": {}, "expand_dims": {}, "atleast_1d": {}, "atleast_2d": {},
    "atleast_3d": {},
    "reshape": {"when": _c_order, "reshapes": "reshape"},
    "ravel": {"when": lambda a, order="C": order in ("C", None),
              "reshapes": "ravel"},
    "diagonal": {"writable": False}, "broadcast_to": {"writable": False},
}   # (einsum's views: einsum/__init__.py)


def _memory_orders(ravel, reshape, transpose):
    """``ravel`` and ``reshape`` with NumPy's memory orders: ``"A"`` (and
    ``ravel``'s ``"K"``) read the array as its memory holds it
    (``memory_axes``): a transpose read in C order, a view where NumPy's is."""
    def ravel_(a, order="C"):
        if order not in ("A", "K") or not isinstance(a, NamedArray):
            return ravel(a, order="C" if order in ("A", "K") else order)
        axes = memory_axes(a, order)
        return ravel(a if axes == tuple(range(a.ndim)) else transpose(a, axes))

    def reshape_(a, shape=None, order="C", *, copy=None, **kwargs):
        if order == "A":
            order = "F" if isinstance(a, NamedArray) and a.ndim > 1 and \
                memory_axes(a, "A") != tuple(range(a.ndim)) else "C"
        if order == "F" and isinstance(a, NamedArray) and not a.names and \
                copy is not True and not kwargs:
            # F order is C order of the reversed axes: a view where NumPy's is
            sh = (shape,) if isinstance(shape, int) else tuple(shape)
            return transpose(reshape(transpose(a), sh[::-1], copy=copy))
        return reshape(a, shape, order=order, copy=copy, **kwargs)
    ravel_.__wrapped__, reshape_.__wrapped__ = ravel, reshape
    ravel_.__name__, reshape_.__name__ = "ravel", "reshape"
    ravel_.__doc__, reshape_.__doc__ = ravel.__doc__, reshape.__doc__
    return ravel_, reshape_


def _attribute(name):
    """``np.real(a)``, ``np.imag(a)``: the attribute of the array (a view); of a
    Python number, its own attribute (``np.real(1 + 1j)`` is ``1.0``), as NumPy."""
    def f(val):
        if type(val) in (int, float, complex, builtins.bool):  # bool is NumPy's here
            return getattr(val, name)
        if isinstance(val, onp.generic):        # a NumPy scalar's: a scalar
            return getattr(creation.asarray(val)[()], name)
        return getattr(val if isinstance(val, NamedArray) else creation.asarray(val), name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: ``asarray(val).{name}``, a view of an array (a "
                 f"Python number's own ``.{name}``).")
    return f


# The result kind of a 0-d result (DESIGN.md 1: NumPy's scalar or its 0-d
# array), where a function's engine does not already give NumPy's, measured
# over every public function on 0-d arrays and NumPy scalars
# (tests/frontend/test_fuzz_numpy.py compares the kind of every result):
#: functions whose 0-d results (also inside a tuple) are 0-d arrays, whatever
#: the arguments (NumPy builds them as arrays: ``zeros_like``, ``pad``, ``block``)
_ARRAY_0D = ("cov", "cross", "piecewise", "copy", "i0", "zeros", "ones", "empty", "full",
             "empty_like", "zeros_like", "ones_like", "full_like", "roll", "block", "pad",
             "isin", "select", "apply_along_axis", "broadcast_arrays", "unique_all",
             "unique_inverse", "unique", "where", "real_if_close", "tensordot")
#: functions whose 0-d result is NumPy's scalar even for a 0-d array argument
#: (a ufunc's result, or NumPy's ``m[()]``: ``flip``, ``nan_to_num``)
_SCALAR_0D = ("flip", "nan_to_num", "clip", "round", "around")
#: functions NumPy builds on its ``_ureduce`` (the quantile family), which
#: reshapes a ``keepdims=True`` result: a 0-d array then, never a scalar
_KEEPDIMS_0D = ("median", "nanmedian", "quantile", "nanquantile", "percentile",
                "nanpercentile")
# functions whose 0-d result is (a view or copy of) their *array* argument: a
# 0-d array in NumPy (``squeeze(ones((1, 1)))``; a scalar argument gives a scalar)
_KEEPS_0D = ("squeeze", "transpose", "permute_dims", "real", "imag", "trim_zeros",
             "diff", "astype")


def _keeps_0d(f):
    """``f`` giving a 0-d array (not a scalar) for a 0-d array argument: a
    0-d result, or the 0-d items of a tuple result (named tuples kept)."""
    def as_array(r):
        if isinstance(r, View):     # a fresh view: marked in place, so it stays one
            if r.ndim == 0:
                r._array0d = True
            return r
        if isinstance(r, NamedArray):
            return zero_dim_array(r) if r.ndim == 0 else r
        if isinstance(r, tuple):
            items = [as_array(v) for v in r]
            return type(r)(*items) if hasattr(r, "_fields") else type(r)(items)
        return r

    @functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        x = args[0] if args else None
        if isinstance(x, (onp.ndarray, list)) or (isinstance(x, NamedArray) and
                                                   not is_scalar(x)):
            return as_array(r)
        return r
    return g


def _atleast(f, n):
    """``atleast_{n}d`` giving back an array that already has ``n`` dimensions
    itself, as NumPy does (``np.atleast_1d(x) is x``)."""
    @functools.wraps(f)
    def g(*arys):
        if len(arys) > 1:
            return tuple(g(a) for a in arys)
        if len(arys) == 1 and isinstance(arys[0], NamedArray) and arys[0].ndim >= n:
            return arys[0]
        return f(*arys)
    return g


def _trim_zeros(f):
    """``trim_zeros`` of a list or tuple of Python numbers is NumPy's: a slice
    of that sequence (a list stays a list); of an array, an array."""
    @functools.wraps(f)
    def g(filt, trim="fb", axis=None):
        if not isinstance(trim, str) or trim.lower() not in ("fb", "bf", "f", "b"):
            raise ValueError(f"trim_zeros: unexpected character(s) in `trim`: {trim!r} "
                             "(use 'f', 'b' or 'fb')")
        trim = trim.lower()
        if type(filt) in (list, tuple) and builtins.all(
                type(v) in (int, float, complex, builtins.bool) for v in filt):
            return onp.trim_zeros(filt, trim, axis)
        return f(filt, trim, axis)
    return g


def _empty_broadcast(arrays) -> bool:
    """Whether the index arrays broadcast to no element."""
    try:
        shapes = [builtins.tuple(onp.shape(a)) for a in arrays]
        return builtins.bool(shapes) and onp.prod(onp.broadcast_shapes(*shapes)) == 0
    except (TypeError, ValueError):
        return False


def _ravel_multi_index(f, clip, remainder):
    """``ravel_multi_index`` with NumPy's per-dimension ``mode`` (a tuple:
    ``mode=("clip", "wrap")``)."""
    @functools.wraps(f)
    def g(multi_index, dims, mode="raise", order="C"):
        index_tricks.check_multi_index(multi_index, dims)
        if mode == "raise" and _empty_broadcast(multi_index):
            mode = "clip"       # (no entry to check: NumPy checks none, even -1)
        if not isinstance(mode, (tuple, list)):
            return f(multi_index, dims, mode=mode, order=order)
        dims = (dims,) if isinstance(dims, int) else tuple(dims)
        if len(mode) != len(dims) or not builtins.all(m in ("raise", "wrap", "clip")
                                                      for m in mode):
            raise ValueError(f"ravel_multi_index: mode={mode!r} must give one of 'raise', "
                             f"'wrap', 'clip' for each of the {len(dims)} dimensions")
        coords = [multi_index[k] for k in range(len(dims))]
        coords = tuple(clip(i, 0, d - 1) if m == "clip" else remainder(i, d) if m == "wrap"
                       else i for i, d, m in zip(coords, dims, mode))
        return f(coords, dims, mode="raise", order=order)
    return g


def _zero_dim_results(f, make):
    """``f`` with its 0-d positional results (a tuple's items too, named tuples
    kept) given as ``make`` gives them."""
    def kind(r):
        if isinstance(r, NamedArray):
            return make(r) if not r.dims and not r.mapped else r
        if isinstance(r, tuple):
            items = [kind(v) for v in r]
            return type(r)(*items) if hasattr(r, "_fields") else type(r)(items)
        return r

    @functools.wraps(f)
    def g(*args, **kwargs):
        return kind(f(*args, **kwargs))
    return g


def _array_0d(f):
    """``f`` with 0-d positional results made NumPy's 0-d arrays
    (``zero_dim_array``): ``np.cov([1, 2, 3.5])`` is ``array(1.58333333)``."""
    return _zero_dim_results(f, zero_dim_array)


def _keepdims_0d(f):
    """``f`` whose 0-d result with ``keepdims=True`` (a keyword, or in its
    place among the positional arguments) is NumPy's 0-d array."""
    at = list(inspect.signature(f).parameters).index("keepdims")
    array_0d = _array_0d(f)

    @functools.wraps(f)
    def g(*args, **kwargs):
        keep = kwargs.get("keepdims", args[at] if len(args) > at else False)
        return (array_0d if keep is True else f)(*args, **kwargs)
    return g


def _scalar_0d(f):
    """``f`` with 0-d positional results made NumPy's scalars (a fresh value,
    not a view): ``np.flip(np.array(2.5))`` is ``np.float64(2.5)``."""
    return _zero_dim_results(f, lambda r: new(r.data, (), ()) if not is_scalar(r) else r)


class _ArrayType(type):
    # NumPy's own ndarray (host data, an array from SciPy) is one too; a
    # user's subclass of np.ndarray has instances of its own only (none can
    # be made: namedarray keeps no subclasses)
    def __instancecheck__(cls, x):
        if cls is not ndarray:
            return type.__instancecheck__(cls, x)
        return isinstance(x, (NamedArray, onp.ndarray))

    def __subclasscheck__(cls, c):
        if cls is not ndarray:
            return type.__subclasscheck__(cls, c)
        return issubclass(c, (NamedArray, onp.ndarray))


class ndarray(NamedArray, metaclass=_ArrayType):
    """``numpy.ndarray``: every NamedArray is one (``isinstance(x,
    np.ndarray)``), and, called as NumPy's constructor with a shape, it makes
    an uninitialised array of that shape (here zeros; ``NamedArray(data)``
    wraps data):

    >>> import namedarray as np
    >>> np.ndarray((2, 3)).shape, isinstance(np.arange(3), np.ndarray)
    ((2, 3), True)
    """
    __slots__ = ()

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if cls is not ndarray:
            raise TypeError(subclass_refused(cls.__name__, f"class {cls.__name__}"))
        if buffer is not None:
            return _over_buffer(shape, dtype, buffer, offset, strides, order)
        if strides is not None or offset:
            raise TypeError("ndarray: offset= and strides= lay out a buffer, and no "
                            "buffer= is given (a new array is laid out by order=)")
        return creation.empty(shape, dtype, order="C" if order is None else order)


def _over_buffer(shape, dtype, buffer, offset, strides, order):
    """``numpy.ndarray(shape, dtype, buffer, ...)``: NumPy's own array over the
    buffer where namedarray cannot hold the dtype (object, strings: host data,
    DESIGN.md 6c); of an immutable buffer (``bytes``), a read-only copy (as
    NumPy's array over it, which no write can change either).  A writable
    buffer would be shared (a write through the array changes it), which a
    device array cannot do: ``TypeError``."""
    try:
        readonly = memoryview(buffer).readonly
    except TypeError:
        raise TypeError(f"ndarray: buffer= must support the buffer protocol (bytes, "
                        f"bytearray, memoryview), got {type(buffer).__name__}") from None
    h = onp.ndarray(shape, dtype, buffer, offset, strides, order)   # NumPy's checks
    if not config.holds(h.dtype):
        return h
    if not readonly:
        raise TypeError("ndarray: buffer= of a writable buffer is not supported: NumPy's "
                        "array would share its memory (writes reach the buffer), which a "
                        "device array cannot; np.frombuffer(buffer, dtype, offset=...)"
                        ".reshape(shape) makes a copy")
    return read_only(creation.array(h), "ndarray(buffer=...) of an immutable buffer")


def _namespace():
    ns = {n: getattr(m, n) for m in _MODULES for n in m.__all__}
    ns.update(NamedArray=NamedArray, ndarray=ndarray, ufunc=ufunc, nonzero=nonzero)
    ns.update(_declare(ns))
    ns.update(_numpy_objects(ns))
    # ML dtypes as JAX has them (ml_dtypes' types; finfo knows them)
    ns.update(config.ML_DTYPES)
    for n, opts in _VIEWS.items():
        ns[n] = view_function(ns[n], n, **opts)
    ns["ravel"], ns["reshape"] = _memory_orders(ns["ravel"], ns["reshape"], ns["transpose"])
    for n in _ARRAY_0D:
        ns[n] = _array_0d(ns[n])
    for n in _SCALAR_0D:
        ns[n] = _scalar_0d(ns[n])
    for n in _KEEPDIMS_0D:
        ns[n] = _keepdims_0d(ns[n])
    for k in (1, 2, 3):
        ns[f"atleast_{k}d"] = _atleast(ns[f"atleast_{k}d"], k)
    ns["trim_zeros"] = _trim_zeros(ns["trim_zeros"])
    ns["ravel_multi_index"] = _ravel_multi_index(ns["ravel_multi_index"], ns["clip"],
                                                 ns["remainder"])
    for n, v in ns.items():
        if callable(v) and not isinstance(v, (type, ufunc)) and not n.startswith("_") and \
                callable(getattr(onp, n, None)) and not isinstance(getattr(onp, n), type):
            ns[n] = _order_case(_layout_keywords(v, n), n)
    ns.update(real=_attribute("real"), imag=_attribute("imag"),
              shares_memory=shares_memory, may_share_memory=may_share_memory)
    for n in _KEEPS_0D:
        ns[n] = _keeps_0d(ns[n])
    # data JAX cannot hold (object, str, bytes, structured, datetime) is
    # NumPy's own ndarray, and every function given it answers as NumPy's
    # (bmat reads its caller's variables, so it is called directly)
    for n, v in ns.items():
        if callable(v) and not isinstance(v, (type, ufunc)) and not n.startswith("_") \
                and n != "bmat":
            ns[n] = host_data(v, n)
    for n, v in ns.items():
        if isinstance(getattr(onp, n, None), (types.BuiltinFunctionType, onp.ufunc)) and \
                isinstance(v, types.FunctionType):
            ns[n] = _Unbound(v)
    return ns


class _Unbound:
    """A function of NumPy's that is C code there (``array``, ``zeros``, the
    gufuncs ``matmul``, ``vecdot``, ...), which does not bind as a method: ``array = np.array`` in a class body
    keeps calling it as a function (a Python function would bind; a
    ``staticmethod`` object, which JAX's ``jit`` refuses, would not)."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def __get__(self, obj, cls=None):     # (a method descriptor that binds nothing)
        return self

    def __repr__(self):
        return f"<function {self.__name__}>"

    def __reduce__(self):
        return _public, (self.__name__,)


def _public(name):
    """The public function ``name`` (what a pickled one is read back as)."""
    return NAMESPACE[name]


#: every public NumPy name of the frontend, name -> object
NAMESPACE = _namespace()
globals().update(NAMESPACE)
__all__ = sorted(NAMESPACE)

methods.install({**NAMESPACE, "__package__": __name__.split(".")[0]})
hooks.namespace = sys.modules[__name__]
hooks.setitem = setitem
hooks.getitem_data = getitem_data

# each function's docstring: NumPy's documentation, then what names do here
document(NAMESPACE)
for _sub, _mod in (("linalg", linalg), ("fft", fft), ("random", random)):
    document({n: getattr(_mod, n) for n in _mod.__all__}, getattr(onp, _sub), _sub + ".")

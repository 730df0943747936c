"""The shared rules of NumPy's namespace, and the one composer that applies them.

Each public name of ``namedarray`` is declared once, by a ``def`` in a module of
the frontend or one row of a table, and bound in ``namedarray/namespace.py`` as
``name = compose("name", declaration)``.  :func:`compose` gives the declaration
the rules every NumPy function obeys, each decided by a table of names here:
which results are views (``_VIEWS``), NumPy's kind of a 0-d result (``_ARRAY_0D``,
``_SCALAR_0D``, ``_KEEPDIMS_0D``, ``_KEEPS_0D``), NumPy's layout keywords
(``order``/``subok``/``like``), data JAX cannot hold (NumPy's own answer,
``engines/numpy_data.py``), another library's array_likes (objects with ``__array__``,
read as arrays: ``numpy_data.array_likes``) and NumPy's C functions that do not bind
as methods.

>>> import namedarray as np
>>> np.flip(np.array(2.5)), np.zeros_like(np.array(2.5))   # NumPy's result kinds
(np.float64(2.5), array(0.))
"""
from __future__ import annotations

import builtins  # (the namespace's own any, all, ... are not these)
import functools
import inspect
import types

import jax.numpy as jnp
import numpy as onp

from ..core import hooks
from ..core.array import NamedArray, View, is_scalar, new, zero_dim_array
from . import creation, elementwise, index_tricks, manipulation
from .engines.args import numpy_args
from .engines.generic import wrap
from .engines.dispatch import dispatched
from .engines.numpy_data import numpy_call
from .engines.ufunc import ufunc
from .engines.views import fortran, memory_axes, view_function


def jax_numpy(name, named=None):
    """NumPy's function ``name`` as ``jax.numpy`` implements it, adapted by
    ``wrap``: ``named`` says what a *named* ``axis`` means (``"keep"``: the
    name survives, e.g. ``flip``; ``"reduce"``: it is consumed)."""
    return wrap(numpy_args(getattr(jnp, name), name), name, named=named)


def numpy_own(name):
    """NumPy's own helper ``numpy.name`` (it inspects dtypes, values or
    settings and returns Python objects), given NumPy's arrays for NamedArray
    arguments (``min_scalar_type(np.arange(4.0))``; a NamedArray ``out=``
    receives NumPy's values: ``numpy_data.numpy_call``)."""
    f = getattr(onp, name)

    @functools.wraps(f)
    def g(*args, **kwargs):
        if builtins.any(isinstance(v, NamedArray) for v in (*args, *kwargs.values())):
            return numpy_call(name, args, kwargs)
        return f(*args, **kwargs)
    g._numpy_own = True     # (the reference lists these apart; wrappers copy it)
    return g


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


def _c_order(a, *args, order="C", **kwargs):
    return order in ("C", None) and (len(args) < 2 or args[1] in ("C", None))


#: NumPy's functions whose result is a view of their (first) argument:
#: name -> view_function options (docs/design.md §1; engines/views.py)
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


def _memory_orders(name, f):
    """``ravel`` or ``reshape`` with NumPy's memory orders: ``"A"`` (and
    ``ravel``'s ``"K"``) read the array as its memory holds it
    (``memory_axes``): a transpose read in C order, a view where NumPy's is."""
    transpose = _view_transpose()

    def ravel(a, order="C"):
        if order not in ("A", "K") or not isinstance(a, NamedArray):
            return f(a, order="C" if order in ("A", "K") else order)
        axes = memory_axes(a, order)
        return f(a if axes == tuple(range(a.ndim)) else transpose(a, axes))

    def reshape(a, shape=None, order="C", *, copy=None, **kwargs):
        if order == "A":
            order = "F" if isinstance(a, NamedArray) and a.ndim > 1 and \
                memory_axes(a, "A") != tuple(range(a.ndim)) else "C"
        if order == "F" and isinstance(a, NamedArray) and not a.names and \
                copy is not True and not kwargs:
            # F order is C order of the reversed axes: a view where NumPy's is
            sh = (shape,) if isinstance(shape, int) else tuple(shape)
            return transpose(f(transpose(a), sh[::-1], copy=copy))
        return f(a, shape, order=order, copy=copy, **kwargs)
    g = {"ravel": ravel, "reshape": reshape}[name]
    g.__wrapped__, g.__name__, g.__qualname__, g.__doc__ = f, name, name, f.__doc__
    g.__module__ = "namedarray"
    return g


@functools.cache
def _view_transpose():
    return view_function(manipulation.transpose, "transpose", **_VIEWS["transpose"])


def attribute(name):
    """``np.real(a)``, ``np.imag(a)``: the attribute of the array (a view); of a
    Python number, its own attribute (``np.real(1 + 1j)`` is ``1.0``), as NumPy."""
    def f(val):
        if type(val) in (int, float, complex, builtins.bool):  # bool is NumPy's here
            return getattr(val, name)
        if isinstance(val, onp.generic):        # a NumPy scalar's: a scalar
            return getattr(creation.asarray(val)[()], name)
        return getattr(val if isinstance(val, NamedArray) else creation.asarray(val), name)
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = (f"``numpy.{name}``: ``asarray(val).{name}``, a view of an array (a "
                 f"Python number's own ``.{name}``).")
    return f


# The result kind of a 0-d result (docs/design.md §1: NumPy's scalar or its 0-d
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


class _Unbound:
    """A function of NumPy's that is C code there (``array``, ``zeros``, the
    gufuncs ``matmul``, ``vecdot``, ...), which does not bind as a method: ``array = np.array`` in a class body
    keeps calling it as a function (a Python function would bind; a
    ``staticmethod`` object, which JAX's ``jit`` refuses, would not)."""

    def __init__(self, fn, name):
        functools.update_wrapper(self, fn)
        self._public_name = name

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def __get__(self, obj, cls=None):     # (a method descriptor that binds nothing)
        return self

    def __repr__(self):
        return f"<function {self.__name__}>"

    def __reduce__(self):
        return _public, (self._public_name,)


def _public(name):
    """The public function ``name`` (what a pickled one is read back as)."""
    return hooks.namespace.NAMESPACE[name]



def _ravel_multi_index_modes(f):
    return _ravel_multi_index(f, elementwise.clip, elementwise.remainder)


#: rules that one function needs alone: name -> the wrapper that gives it
_OWN_RULE = {"ravel": functools.partial(_memory_orders, "ravel"),
             "reshape": functools.partial(_memory_orders, "reshape"),
             "atleast_1d": lambda f: _atleast(f, 1), "atleast_2d": lambda f: _atleast(f, 2),
             "atleast_3d": lambda f: _atleast(f, 3), "trim_zeros": _trim_zeros,
             "ravel_multi_index": _ravel_multi_index_modes}


def _numpy_function(name) -> bool:
    """Whether ``numpy.name`` is a function or a ufunc (not a type)."""
    v = getattr(onp, name, None)
    return callable(v) and not isinstance(v, type)


def compose(name, declared):
    """The public ``name`` of ``namedarray``: its declaration with the
    shared rules of NumPy's namespace applied, in this order: views, NumPy's
    memory orders and other rules of one function (``_OWN_RULE``), the kind of
    a 0-d result, NumPy's layout keywords, data JAX cannot hold (NumPy's own
    answer) and other libraries' array_likes, and no binding as a method
    where NumPy's function is C code.
    Types and ufuncs are their own declarations (returned as they are).  The
    result is pickled by its public name, as NumPy's functions are."""
    f = declared
    if isinstance(f, (type, ufunc)) or not callable(f):
        return f
    if name in _VIEWS:
        f = view_function(f, name, **_VIEWS[name])
    if name in _OWN_RULE:
        f = _OWN_RULE[name](f)
    if name in _ARRAY_0D:
        f = _array_0d(f)
    if name in _SCALAR_0D:
        f = _scalar_0d(f)
    if name in _KEEPDIMS_0D:
        f = _keepdims_0d(f)
    if _numpy_function(name):
        f = _order_case(_layout_keywords(f, name), name)
    if name in _KEEPS_0D:
        f = _keeps_0d(f)
    if name != "bmat":      # (bmat reads its caller's variables: called directly)
        f = dispatched(f, name)
    if isinstance(getattr(onp, name, None), (types.BuiltinFunctionType, onp.ufunc)) and \
            isinstance(f, types.FunctionType):
        return _Unbound(f, name)
    if isinstance(f, types.FunctionType) and f is not declared:
        # pickled by its public name, as NumPy's functions are (read back as itself)
        f.__module__, f.__qualname__ = "namedarray", name
    return f

"""Data JAX cannot hold: NumPy's own arrays and functions answer for it.

NumPy keeps some data in arrays no JAX array can hold: Python objects
(``None``, a ``Decimal``, a function: an object array), strings, bytes,
structured and datetime values, and NumPy's array classes whose numbers mean
something a NamedArray's do not (``matrix``, ``ma.MaskedArray``:
:data:`HOST_CLASSES`).  A call given such data is NumPy's own call on the
arguments as NumPy has them (:func:`numpy_call`): NumPy's result, NumPy's
error; writes into NamedArrays (``out=``, a writer's first argument) land in
them (docs/design.md §6c).  Another library's array_like (a pandas
``Series``, a class with ``__array__``: :func:`foreign`) is read as an
array, as NumPy's functions read it (:func:`array_likes`).

>>> import namedarray as np
>>> np.atleast_1d(None)
array([None], dtype=object)
"""
from __future__ import annotations

from collections.abc import Iterator
import functools
import inspect
import re

import jax
import numpy as onp

from ...core.array import NamedArray, View, is_scalar
from ...core import hooks
from ...core.config import WIDE, holds
from .args import _PY_PARAMS, host_data_error, untraced


def _to_numpy(v):
    """An argument with its NamedArrays (also inside lists and tuples) as
    NumPy's arrays, a scalar as NumPy's scalar (``format_float_positional``
    prints a float32 scalar's shortest digits, a 0-d array's float64 ones)."""
    if isinstance(v, NamedArray):
        return onp.asarray(v)[()] if is_scalar(v) else onp.asarray(v)
    if isinstance(v, (list, tuple)) and type(v) in (list, tuple):
        return type(v)(_to_numpy(e) for e in v)
    return v


_NUMPY = (onp.ndarray, onp.generic)
#: NumPy's array classes whose numbers mean something a NamedArray's do not
#: (``matrix``: ``*`` is a product; ``ma.MaskedArray``: masked entries):
#: NumPy's own functions answer for them
HOST_CLASSES = (onp.matrix, onp.ma.MaskedArray)


def _host_only(v, classes=True) -> bool:
    t = type(v)    # (by type: isinstance on a NamedArray costs a microsecond)
    if t is NamedArray or not issubclass(t, _NUMPY):
        return False
    if issubclass(t, HOST_CLASSES):
        return classes
    dt = v.dtype
    return not (dt.kind in "biufc" and dt.isnative and dt not in WIDE or holds(dt))


def any_host(vals, classes=True) -> bool:
    """Whether a NumPy array (or scalar) namedarray cannot hold, or one of
    :data:`HOST_CLASSES` (unless not ``classes``), is among ``vals`` or in a
    list or tuple among them."""
    for v in vals:
        t = type(v)
        if t is NamedArray:
            continue
        if t is list or t is tuple:
            for e in v:
                if _host_only(e, classes):
                    return True
        elif _host_only(v, classes):
            return True
    return False


#: NumPy's parameters that take no array data: Python structure (shapes,
#: axes, options: ``args._PY_PARAMS``), callables, files, iterables, outputs
_NOT_DATA = _PY_PARAMS | {"function", "iter", "file", "fname", "fid", "like", "casting",
                         "subok", "signature", "keepdims", "optimize", "formatter",
                         "converters", "usecols", "delimiter", "comments", "fmt",
                         "header", "footer", "newline", "encoding", "sep", "where"}
#: the parameters through which a function calls the user's code (its other
#: arguments go to that code as they are)
_CALLBACKS = frozenset(("func", "func1d", "pyfunc", "funclist", "function"))
#: NumPy's functions whose signature shows ``None`` defaults where the C
#: function tells a ``None`` given (data) from one left out (``where(c, None, 1)``)
_NONE_GIVEN_IS_DATA = frozenset(("where",))
_NONE = type(None)


@functools.cache
def data_params(fn):
    """Which arguments of NumPy's function ``fn`` are array data NumPy reads
    with ``asarray``: ``(positions, rest, keywords)``, ``positions`` a tuple
    (one per positional parameter: None for no data, else whether ``None``
    given there is data, NumPy's 0-d object array), ``rest`` that of ``*args``,
    ``keywords`` {name: that}; None for a function that calls the user's code
    (``apply_along_axis``: its arguments are the user's) or has no signature.
    ``None`` is data where the parameter is required or ``*args`` (an
    optional one given ``None`` may mean "not given": ``clip(a, None, 1)``).

    >>> import numpy
    >>> data_params(numpy.atleast_2d)
    ((), True, {})
    >>> data_params(numpy.clip)[0], data_params(numpy.where)[0]
    ((True, False, False, None), (True, True, True))
    """
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.name in _CALLBACKS for p in params):
        return None
    positions, rest, keywords = [], None, {}
    given = getattr(fn, "__name__", None) in _NONE_GIVEN_IS_DATA
    for p in params:
        role = None if p.name in _NOT_DATA else given or p.default is p.empty
        if p.kind is p.VAR_POSITIONAL:
            rest = role
        elif p.kind is not p.VAR_KEYWORD:
            if p.kind is not p.KEYWORD_ONLY:
                positions.append(role)
            if p.kind is not p.POSITIONAL_ONLY:
                keywords[p.name] = role
    return tuple(positions), rest, keywords


def object_value(v, none=True) -> bool:
    """Whether NumPy reads the Python value ``v`` (not an array, not a number
    JAX holds) as an array JAX cannot hold: an object array of a function, a
    ``Decimal``, a ``Fraction``, ``None`` (where ``none``), a list holding
    any of these.  Another library's array_like is an array (``foreign``)."""
    t = type(v)
    if t is list or t is tuple:     # (a list of numbers or arrays: by type, at C speed)
        return not _HELD.issuperset(map(type, v)) and any(object_value(e) for e in v)
    if t in _HELD:
        return False
    if t is _NONE:
        return none
    if isinstance(v, (NamedArray, onp.ndarray, onp.generic, jax.Array, Iterator)) or foreign(v):
        return False        # (an iterator: the compiled path's error, "must be a sequence")
    try:
        return _host_only(onp.asarray(v))
    except Exception:       # noqa: BLE001 -- NumPy cannot read it either: the compiled path's error
        return False


def objects_given(fn, args, kwargs) -> bool:
    """Whether the data among the ``args`` and ``kwargs`` of a call of NumPy's
    function ``fn`` (:func:`data_params`) holds Python objects NumPy keeps in
    an object array (:func:`object_value`, also inside lists and tuples).

    >>> import numpy
    >>> objects_given(numpy.atleast_2d, (None,), {}), objects_given(numpy.sum, (1,), {"axis": None})
    (True, False)
    """
    for v in args:
        if type(v) not in _HELD:
            break
    else:
        if not kwargs:
            return False
        for v in kwargs.values():
            if type(v) not in _HELD:
                break
        else:
            return False
    roles = data_params(fn)
    if roles is None or any(type(v) is NamedArray and (v.mapped or any(v.dims))
                            for v in (*args, *kwargs.values())):
        return False        # (named data: namedarray's own answer or error, never NumPy's)
    positions, rest, keywords = roles
    for i, v in enumerate(args):
        if type(v) in _HELD:
            continue
        role = positions[i] if i < len(positions) else rest
        if role is not None and object_value(v, role):
            return True
    for k, v in kwargs.items():
        if type(v) in _HELD:
            continue
        role = keywords.get(k)
        if role is not None and object_value(v, role):
            return True
    return False


def numpy_write(x, idx, value):
    """``x[idx] = value`` where ``value`` is data JAX cannot hold (one of
    :data:`HOST_CLASSES`, an array of a dtype namedarray has not, a Python
    object NumPy converts itself: :func:`object_value`): NumPy's write into
    a host copy of ``x``, to be stored back whole (NumPy reads a masked
    array's values as a plain array does, ``None`` into floats as NaN, a
    ``Decimal`` as its float, or raises its error); None where ``value`` is
    data namedarray holds, or ``x`` has names or is mapped.

    >>> import namedarray as np
    >>> numpy_write(np.zeros(2), 0, None)
    array([nan,  0.])
    """
    if not (_host_only(value) or object_value(value)) or x.mapped or \
            x.dims.count(None) != len(x.dims):
        return None
    h = onp.array(x)
    h[_to_numpy(idx)] = value
    return h


def numpy_call(name, args, kwargs, method=None, module=onp, f=None):
    """NumPy's ``name`` (or that ufunc's ``method``) on the arguments as NumPy
    has them: what a function given data namedarray cannot hold (object,
    string, bytes, structured, datetime) answers, NumPy's result or NumPy's
    error.  ``f``: the function itself, where it is no name of ``module``
    (another library's ufunc)."""
    f = getattr(module, name) if f is None else f
    first_out = f.nin if isinstance(f, onp.ufunc) and not method else _out_position(f)
    f = getattr(f, method) if method else f
    args, kwargs = list(args), dict(kwargs)
    # NamedArray outputs (a ufunc's positional ones, ``out=``, the array a
    # writer or ``ufunc.at`` writes into): NumPy writes a host copy, which
    # then goes into them
    writes = name in _WRITERS and not method or method == "at"
    outs = [(args, i) for i in range(first_out, len(args))] + [
        (kwargs, "out")] * ("out" in kwargs) + [(args, 0)] * (writes and bool(args))
    written = []
    for where, k in outs:
        for o in (where[k] if isinstance(where[k], tuple) else (where[k],)):
            if isinstance(o, NamedArray):
                written.append((o, onp.array(o)))
        where[k] = _writable(where[k], written)
    r = f(*[_to_numpy(a) for a in args], **{k: _to_numpy(v) for k, v in kwargs.items()})
    if not written:
        return r
    for o, h in written:
        o[...] = h
    outs = tuple(dict((id(h), o) for o, h in written).get(id(e), e)
                 for e in (r if isinstance(r, tuple) else (r,)))
    return outs if isinstance(r, tuple) else outs[0]


@functools.cache
def _out_position(f) -> int:
    """Where NumPy's function ``f`` takes ``out`` positionally (``fix(x, out)``),
    or a position past any call's arguments."""
    try:
        return list(inspect.signature(f).parameters).index("out")
    except (ValueError, TypeError):
        return 1 << 16


def _writable(v, written):
    """An output argument with its NamedArrays as their host copies in ``written``."""
    copies = {id(o): h for o, h in written}
    if isinstance(v, tuple):
        return tuple(copies.get(id(e), e) for e in v)
    return copies.get(id(v), v)


def host_method(m):
    """Ufunc method ``m`` (``reduce``, ``outer``, ...), which on data
    namedarray cannot hold is NumPy's ufunc's method."""
    @functools.wraps(m)
    def g(self, *args, **kwargs):
        if any_host(args) or kwargs and any_host(kwargs.values()):
            return numpy_call(self.__name__, args, kwargs, m.__name__)
        return m(self, *args, **kwargs)
    return g


#: the conversions whose result is a plain array (NumPy's ``subok=False``):
#: one of :data:`HOST_CLASSES` given to them is converted, as NumPy converts it
CONVERSIONS = frozenset(("array", "asarray", "ascontiguousarray", "asfortranarray",
                         "asarray_chkfinite", "copy"))


#: JAX's errors for a value whose dtype it cannot hold, met inside a function
#: (a list of ``Fraction``s, say, that no argument check saw): NumPy answers
_JAX_DTYPE_ERROR = re.compile(r"is not a valid JAX array type|JAX only supports number")


def numpy_answers(e, name, args, kwargs, method=None, module=onp):
    """NumPy's ``name`` (or that ufunc's ``method``) on the arguments, where
    namedarray's raised ``e`` for data it cannot hold (``args.unsupported``, or
    JAX's dtype error met inside the function, outside any trace); else ``e``."""
    if not (host_data_error(e) or untraced() and (
            _JAX_DTYPE_ERROR.search(str(e)) or not method and objects_given(
                getattr(module, name), args, kwargs))):
        raise e
    return numpy_call(name, args, kwargs, method, module)


#: argument types that are never another library's array_like (checked by
#: type first: nearly every argument is one of these)
_NATIVE = frozenset((NamedArray, View, onp.ndarray, bool, int, float, complex, str, bytes,
                     type(None), slice, range, type(Ellipsis), dict, list, tuple, onp.dtype,
                     type, *set(onp.sctypeDict.values()),
                     onp.poly1d))   # (the polynomial functions give a poly1d back)
#: the argument types that never hold Python objects NumPy keeps in an object
#: array (checked by type first: nearly every argument is one of these)
_HELD = _NATIVE - {type(None), list, tuple}
#: the values a write takes as they are, never NumPy's to write (checked by type)
PLAIN_VALUES = _HELD - {onp.ndarray}
#: functions that take an argument as the Python object it is (NumPy does not
#: convert it: ``iterable``, ``result_type``; ``asmatrix`` is NumPy's own on
#: it) or write into it (a converted copy would lose the write: NumPy raises)
_AS_GIVEN = frozenset(("iterable", "isscalar", "result_type", "can_cast", "common_type",
                       "mintypecode", "asmatrix", "copyto", "place", "put", "putmask",
                       "put_along_axis", "fill_diagonal", "from_dlpack", "frombuffer"))
#: NumPy's functions that write into their first argument
_WRITERS = frozenset(("copyto", "place", "put", "putmask", "put_along_axis",
                      "fill_diagonal"))
#: functions whose first argument is a sequence of arrays: its elements are
#: read as arrays, an array_like given in its place is not (NumPy iterates it,
#: and raises where it is no sequence)
_SEQUENCE_FIRST = frozenset(("concatenate", "concat", "stack", "hstack", "vstack",
                             "dstack", "column_stack", "row_stack", "lexsort",
                             "histogramdd"))


def foreign(v) -> bool:
    """Whether ``v`` is another library's array_like (a pandas ``Series``, a
    user's class with ``__array__``): an object NumPy's functions convert
    through ``__array__``, ``__array_interface__`` or ``__array_struct__``."""
    t = type(v)
    return t not in _NATIVE and (
        hasattr(t, "__array__") or hasattr(t, "__array_interface__") or
        hasattr(t, "__array_struct__")) and not isinstance(
            v, (NamedArray, onp.ndarray, onp.generic, jax.Array))


def _foreign_in(v) -> bool:
    """Whether ``v``, or the first element of a list or tuple ``v`` (a
    sequence of them: ``stack([s, t])``), is another library's array_like."""
    t = type(v)
    if t is list or t is tuple:
        return bool(v) and foreign(v[0])
    return t not in _NATIVE and foreign(v)


def _as_arrays(v):
    """``v`` with another library's array_likes (also in a list or tuple) as
    NamedArrays, as NumPy's functions read them (``asarray``)."""
    asarray = hooks.namespace.asarray
    t = type(v)
    if t is list or t is tuple:
        return t(asarray(e) if foreign(e) else e for e in v)
    return asarray(v) if foreign(v) else v


def array_likes(args, kwargs, out_at=1 << 16, sequence=False):
    """``(args, kwargs)`` with another library's array_likes among them
    (:func:`foreign`; also as the first element of a list or tuple) read as
    NumPy's functions read them, as arrays; not an ``out`` (by keyword, or at
    the position ``out_at``): a converted copy would lose the write, where
    NumPy raises; not the first argument itself where it is a ``sequence``
    of arrays (only its elements)."""
    for v in (*args, *kwargs.values()) if kwargs else args:    # (by type first: cheap)
        t = type(v)
        if t not in _NATIVE or (t is list or t is tuple) and v and type(v[0]) not in _NATIVE:
            break
    else:
        return args, kwargs
    if not (any(map(_foreign_in, args)) or kwargs and any(
            _foreign_in(v) for k, v in kwargs.items() if k != "out")):
        return args, kwargs
    return (tuple(_as_arrays(a) if i < out_at and not (
        i == 0 and sequence and type(a) is not list and type(a) is not tuple) else a
        for i, a in enumerate(args)),
            {k: v if k == "out" else _as_arrays(v) for k, v in kwargs.items()})


def numpy_module(module, home):
    """NumPy's ``module`` for data namedarray cannot hold (``numpy.char``,
    ``numpy.strings``, ``numpy.rec``): each public function is NumPy's, given
    NamedArray arguments as NumPy's arrays, and returns NumPy's result (host
    data); classes are NumPy's own.  Returns {name: object}.

    >>> import numpy
    >>> char = numpy_module(numpy.char, "namedarray.char")
    >>> char["upper"](["a", "b"])
    array(['A', 'B'], dtype='<U1')
    """
    names = getattr(module, "__all__", None) or [m for m in dir(module)
                                                 if not m.startswith("_")]
    short = module.__name__.removeprefix("numpy.")
    out = {}
    for n in names:
        v = getattr(module, n)
        if isinstance(v, type) or not callable(v):
            out[n] = v
            continue

        def g(*args, _f=v, **kwargs):
            return _f(*[_to_numpy(a) for a in args],
                      **{k: _to_numpy(w) for k, w in kwargs.items()})
        g.__name__ = g.__qualname__ = n
        g.__module__ = home
        g.__doc__ = (f"``numpy.{short}.{n}``: NumPy's own, on host data (NamedArray "
                     "arguments are given as NumPy arrays).")
        out[n] = g
    return out

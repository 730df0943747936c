"""Runs on the host: exact operations on new shapes compile nothing on a CPU.

XLA compiles a program for each new shape: tens of milliseconds on a CPU,
against microseconds for the operation itself.  NumPy code whose sizes depend
on the data (``v = v[np.abs(v) < 2.5] * 1.05``) meets a new shape at almost
every step.  On a CPU the device buffer is host memory, and the correctly
rounded operations (:data:`EXACT`: IEEE arithmetic, ``sqrt``, comparisons,
logic, rounding) have one right result whoever computes it.  So such an
operation on a shape (an eager ufunc), or a deferred selection program, runs
in NumPy on the host buffer until its host runs have cost
:data:`HOST_BUDGET` seconds, about what compiling it costs, and then
compiles.  This is the ski-rental rule: a shape met a few times never
compiles, a long loop compiles once, and no loop spends more than about twice
what the better choice in hindsight would.  A host run costs about 20 us
(operands read, checked for subnormals, the result put back on the device)
against 4-5 us for a compiled call and 20-100 ms for a compilation (plus its
tracing): the crossover is about 1,500 calls per shape.

Whole functions (:data:`FUNCTIONS`: creation from Python numbers, joins,
index searches, ``diff``/``outer``; each compiled result NumPy's bit for bit)
run in NumPy on small positional data too (:func:`whole`): those that are
one XLA program (:data:`ONE_PROGRAM`) within the budget, the composites
(``linspace``, ``eye``, ``tril``, ``concatenate``, ``array`` of a list, ...)
always, as NumPy's call beats even their warm dispatch (``linspace``: 18
programs to compile, 440 us warm, against 16 us on the host).

The answer never depends on the tier.  XLA on a CPU flushes subnormal numbers
to zero (operands and results) where NumPy keeps them, so a host run that
meets a subnormal anywhere is dropped and the compiled path runs; so is one
whose NumPy result dtype is not the compiled one.  Half-precision and complex
data (XLA may keep a chain of them in a wider type) and anything traced,
committed to a device, sharded, off the CPU or larger than :data:`HOST_SIZE`
never run on the host.  Moving data is exact for every dtype: ``zeros``,
``ones``, ``full`` and ``reshape`` of such data are made on the host too.

``NAMEDARRAY_HOST_TIER=off`` in the environment (before import) switches the
tier off: every eager call compiles, as under ``jit``, on a mesh or on an
accelerator, so that tests can check both paths give the same answers.

>>> import numpy
>>> import jax
>>> x = jax.device_put(numpy.asarray([0.5, -3.0, 2.0]))
>>> run(numpy.less, numpy.dtype(bool), (x, 1.0))
Array([ True,  True, False], dtype=bool)
>>> print(run(numpy.multiply, numpy.dtype("float64"), (x, 1e-310)))   # subnormal
None
"""
from __future__ import annotations

import functools
import inspect
import math
import os
import re
import time

import jax
import numpy as onp

from ...core.array import NamedArray, View, positional, zero_dim_array
from ...core.cache import Cache
from ...core.config import WIDE, holds, numpy_dtypes
from .args import default_device, host_data_error, to_device, untraced

#: the operations whose results are the correctly rounded ones (IEEE
#: arithmetic, comparisons, logic, rounding): any code generation, and NumPy,
#: give the same bits for them
EXACT = frozenset((
    "add", "subtract", "multiply", "divide", "true_divide", "negative", "positive",
    "absolute", "abs", "fabs", "square", "sqrt", "less", "less_equal", "greater",
    "greater_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor",
    "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert",
    "floor", "ceil", "trunc", "rint"))
#: the seconds of host runs of an operation (per shapes) or a program before
#: it compiles: about a small program's compilation on a CPU
HOST_BUDGET = 0.03
#: the largest buffer run on the host (NumPy's time there is still well under
#: a compilation's)
HOST_SIZE = 1 << 16
#: whether the host tier runs at all (``NAMEDARRAY_HOST_TIER=off``: never)
ENABLED = os.environ.get("NAMEDARRAY_HOST_TIER", "on").lower() not in ("off", "0", "false")
#: the dtypes run on the host.  Not complex: NumPy's complex multiply fuses
#: its products as the CPU's SIMD dispatch allows and XLA's fuses them another
#: way, so a host run and a compiled run could differ in the last bit
#: (docs/differences.md, "Rounding of fused multiply-adds")
HOST_DTYPES = frozenset(onp.dtype(t) for t in (
    bool, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.uint16, onp.uint32,
    onp.uint64, onp.float32, onp.float64))
_TINY = {onp.dtype(onp.float32): onp.finfo(onp.float32).tiny,
         onp.dtype(onp.float64): onp.finfo(onp.float64).tiny}
_Tracer = jax.core.Tracer
_Single = jax.sharding.SingleDeviceSharding


def buffer(a):
    """The host buffer of the JAX array ``a`` where it may be read on the host
    (outside a trace; uncommitted, on one CPU device, small), else None."""
    if not ENABLED or isinstance(a, _Tracer) or a.size > HOST_SIZE or not untraced():
        return None
    s = a.sharding
    if type(s) is not _Single or a.committed or next(iter(s.device_set)).platform != "cpu":
        return None
    return onp.asarray(a)


def view(a):
    """:func:`buffer` where ``a`` may run on the host (a :data:`HOST_DTYPES`
    dtype, no subnormal number), else None."""
    if a.dtype not in HOST_DTYPES:
        return None
    h = buffer(a)
    return None if h is None or _subnormal(h) else h


def creates(shape) -> bool:
    """Whether a new array of ``shape`` is made on the host (outside a trace,
    small, and new arrays go to a CPU device): no program compiles for it."""
    return (ENABLED and math.prod(shape) <= HOST_SIZE and untraced()
            and default_device().platform == "cpu")


def _subnormal(h) -> bool:
    tiny = _TINY.get(h.dtype)
    if tiny is None or not h.size:
        return False
    m = onp.abs(h)
    return bool(((m < tiny) & (m != 0)).any())


#: the operations whose result may be subnormal where no operand is
_UNDERFLOWS = frozenset(("add", "subtract", "multiply", "divide", "square"))


def apply(fn, dtype, args):
    """NumPy's ufunc ``fn`` on host buffers and Python scalars (inside
    ``numpy.errstate(all="ignore")``), or None where its result is not of
    ``dtype`` or holds a subnormal number."""
    try:
        r = onp.asarray(fn(*args))
    except (TypeError, ValueError, OverflowError):     # the compiled path's error
        return None
    if r.dtype != dtype or (fn.__name__ in _UNDERFLOWS and _subnormal(r)):
        return None
    return r


def run(fn, dtype, args):
    """NumPy's ``fn`` on the JAX arrays and Python scalars ``args``, as a new
    JAX array of ``dtype``; None where any array may not run on the host."""
    hs = []
    for a in args:
        if isinstance(a, jax.Array):
            a = view(a)
            if a is None:
                return None
        hs.append(a)
    with onp.errstate(all="ignore"):
        r = apply(fn, dtype, hs)
    return None if r is None else to_device(r, fresh=True)


def within_budget(spent: Cache, key, f, *args):
    """``f(*args)`` (a host run, None where it cannot run there) while the host
    runs of ``key`` have cost less than :data:`HOST_BUDGET`, else None; a
    key whose run was refused, or whose budget is spent, compiles from then on."""
    s = spent.get(key, 0.0)
    if s >= HOST_BUDGET:
        return None
    t0 = time.perf_counter()
    r = f(*args)
    spent.put(key, math.inf if r is None else s + time.perf_counter() - t0)
    return r


def on_host_first(fn, name, dtype, ins):
    """``fn`` (an eager operation on operands of types ``ins``, dtypes for
    arrays and Python types for scalars, whose result has ``dtype``) whose
    calls on a shape run NumPy's ``name`` on the host, where they can, within
    the budget (see the module's docstring)."""
    np_fn = getattr(onp, name)
    spent = Cache()
    done = Cache()          # the operand shapes that compile (checked first)

    def tiered(key, args):
        r = within_budget(spent, key, run, np_fn, dtype, args)
        if r is not None:
            return r
        done.put(key, True)
        return fn(*args)

    if len(ins) == 1:
        def call(a):
            key = a.shape
            return fn(a) if key in done else tiered(key, (a,))
    elif all(isinstance(t, onp.dtype) for t in ins):
        def call(a, b):
            key = (a.shape, b.shape)
            return fn(a, b) if key in done else tiered(key, (a, b))
    elif isinstance(ins[0], onp.dtype):     # an array and a Python scalar
        def call(a, b):
            key = a.shape
            return fn(a, b) if key in done else tiered(key, (a, b))
    else:
        def call(a, b):
            key = b.shape
            return fn(a, b) if key in done else tiered(key, (a, b))
    # for a caller that keeps its own table of warm calls: ``fn`` itself, and
    # whether the arrays' ``shapes`` compile (no host run is left to try)
    call.compiled = fn
    call.compiled_for = lambda shapes: (shapes[0] if len(shapes) == 1 else tuple(shapes)) in done
    return call


# -- whole functions whose NumPy answer is the compiled one ------------------
#: the functions that run whole in NumPy on small positional data on a CPU:
#: creation from Python numbers and new arrays made by moving data, finding
#: an index or one exact operation per element (``diff``, ``outer``,
#: ``kron``), whose compiled result is NumPy's bit for bit.  Not the
#: functions whose NumPy result is a view (``transpose``, ``reshape``;
#: ``diag`` of a matrix), nor ``max``/``min`` (NumPy's sign of a zero depends
#: on its SIMD loop), nor any sum or product of several elements, nor those
#: whose size depends on the data (``flatnonzero``, ``repeat``, ``delete``:
#: their compiled results are padded to size buckets, engines/masks.py).
FUNCTIONS = frozenset((
    "linspace", "arange", "eye", "identity", "tri", "tril", "triu", "diag",
    "zeros_like", "ones_like", "full_like", "concatenate", "stack", "hstack", "vstack",
    "column_stack", "append", "tile", "roll", "take", "where", "argmin", "argmax",
    "searchsorted", "diff", "ediff1d", "outer", "kron", "array"))
#: those of :data:`FUNCTIONS` that are one XLA program, cheaper warm than a
#: host run: they run on the host within :data:`HOST_BUDGET` per operand
#: shapes (the ski-rental rule), then compile.  The others (``linspace``: 18
#: programs in eager JAX, 16 us warm on the host against 440 us) always run
#: on the host.
ONE_PROGRAM = frozenset((
    "append", "tile", "roll", "take", "where", "argmin", "argmax", "searchsorted", "diff",
    "ediff1d", "outer", "kron"))
#: keywords that keep a call off the host (writes into ``out``, masks,
#: another array type, a device)
_OFF_KEYWORDS = frozenset(("out", "where", "like", "device", "subok", "copy", "ndmin",
                           "order"))
_NO = object()
_PLAIN = (bool, int, float, str, type(None))


def _host_arg(v):
    """The argument ``v`` as NumPy takes it on the host (NamedArrays, also in
    lists and tuples, as their host buffers), or ``_NO`` where it may not."""
    t = type(v)
    if t is NamedArray or t is View:     # (a selection's data is not its values)
        if v.mapped or v.dims.count(None) != len(v.dims):
            return _NO
        if t is View and v.ndim > 1 and v.flags.f_contiguous and not v.flags.c_contiguous:
            return _NO      # (Fortran order: the compiled path keeps NumPy's layout)
        h = view(v.data)
        return _NO if h is None else h
    if t in _PLAIN or t is onp.dtype or t is type:
        return v
    if t is list or t is tuple:
        out = [_host_arg(e) for e in v]
        return _NO if any(e is _NO for e in out) else t(out)
    if t is onp.ndarray or isinstance(v, onp.generic):
        return _NO if (v.dtype not in HOST_DTYPES or v.size > HOST_SIZE
                       or _subnormal(onp.asarray(v))) else v
    return _NO


def _shapes(v):
    """The shapes of the arrays in the argument ``v`` (also in lists)."""
    t = type(v)
    if t is list or t is tuple:
        return tuple(_shapes(e) for e in v)
    return v.shape if t is NamedArray or t is View else t


def whole(name, args, kwargs):
    """NumPy's ``name`` (one of :data:`FUNCTIONS`) run on the host, as a new
    NamedArray (a NumPy scalar stays one); None where it may not run there:
    a NamedArray with names, mapped or not on the host (:func:`view`),
    traced, a keyword of :data:`_OFF_KEYWORDS`, NumPy's error (the compiled
    path raises namedarray's), a floating-point exception, a result not of
    :data:`HOST_DTYPES`, larger than :data:`HOST_SIZE` or holding a subnormal.

    >>> import namedarray as np
    >>> whole("linspace", (0.0, 1.0, 3), {})
    array([0. , 0.5, 1. ])
    >>> print(whole("linspace", (0.0, 1.0, 3), {"out": None}))
    None
    """
    if not numpy_dtypes() or not creates(()) or (
            name == "array" and type(args[0] if args else None) not in (list, tuple)):
        return None
    hargs = [_host_arg(a) for a in args]
    hkw = {}
    for k, v in kwargs.items():
        if k in _OFF_KEYWORDS:
            return None
        hkw[k] = _host_arg(v)
    if any(a is _NO for a in hargs) or any(v is _NO for v in hkw.values()):
        return None
    if name == "diag" and hargs and onp.ndim(hargs[0]) != 1:
        return None         # NumPy's diagonal of a matrix is a view
    if name.endswith("_like") and args and type(args[0]) is View and args[0].ndim > 1 and \
            not args[0].flags.c_contiguous:
        return None         # (its memory order is the result's: the compiled path's)
    try:
        with onp.errstate(all="raise"):
            r = getattr(onp, name)(*hargs, **hkw)
    except (TypeError, ValueError, IndexError, OverflowError, ArithmeticError):
        return None
    scalar = isinstance(r, onp.generic)
    if not scalar and type(r) is not onp.ndarray:
        return None         # (``retstep=True``'s pair: the compiled path)
    r = onp.asarray(r)
    if r.dtype not in HOST_DTYPES or r.size > HOST_SIZE or _subnormal(r):
        return None
    x = positional(to_device(r, fresh=r.base is None and not scalar))
    return zero_dim_array(x) if r.ndim == 0 and not scalar else x


# -- data JAX cannot hold: NumPy's own arrays, NumPy's own functions ---------
def _to_numpy(v):
    """An argument with its NamedArrays (also inside lists and tuples) as
    NumPy's arrays."""
    if isinstance(v, NamedArray):
        return onp.asarray(v)
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


def numpy_call(name, args, kwargs, method=None, module=onp):
    """NumPy's ``name`` (or that ufunc's ``method``) on the arguments as NumPy
    has them: what a function given data namedarray cannot hold (object,
    string, bytes, structured, datetime) answers, NumPy's result or NumPy's error."""
    f = getattr(module, name)
    first_out = f.nin if isinstance(f, onp.ufunc) and not method else _out_position(f)
    f = getattr(f, method) if method else f
    args, kwargs = list(args), dict(kwargs)
    # NamedArray outputs (a ufunc's positional ones, ``out=``): NumPy writes a
    # host copy, which then goes into them
    outs = [(args, i) for i in range(first_out, len(args))] + [(kwargs, "out")] * (
        "out" in kwargs)
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
    if not (host_data_error(e) or _JAX_DTYPE_ERROR.search(str(e)) and untraced()):
        raise e
    return numpy_call(name, args, kwargs, method, module)


def host_data(f, name, module=onp):
    """``f`` (the namespace's ``name``), which on data namedarray cannot hold
    (``args.unsupported``'s error) or on one of :data:`HOST_CLASSES` answers
    as NumPy's ``name`` (of ``module``) does.

    >>> import namedarray as np
    >>> np.array(["a", "bc"]).dtype
    dtype('<U2')
    >>> np.concatenate([np.array([1, None]), np.arange(2)])
    array([1, None, 0, 1], dtype=object)
    >>> np.multiply(np.asmatrix("1 2"), 2)
    matrix([[2, 4]])
    """
    if not hasattr(module, name) or not callable(getattr(module, name)):
        return f
    converts = name in CONVERSIONS
    tier = ENABLED and module is onp and name in FUNCTIONS
    spent = Cache() if name in ONE_PROGRAM else None

    @functools.wraps(f)
    def g(*args, **kwargs):
        if tier:
            r = whole(name, args, kwargs) if spent is None else within_budget(
                spent, (_shapes(args), tuple(kwargs)), whole, name, args, kwargs)
            if r is not None:
                return r
        if any_host(args) or kwargs and any_host(kwargs.values()):
            if not converts or kwargs.get("subok") or any_host(args, False) or \
                    kwargs and any_host(kwargs.values(), False):
                return numpy_call(name, args, kwargs, module=module)
            # a conversion of one of NumPy's classes: its array, as NumPy's
            args = [onp.asarray(a) if isinstance(a, HOST_CLASSES) else a for a in args]
        try:
            return f(*args, **kwargs)
        except TypeError as e:
            return numpy_answers(e, name, args, kwargs, module=module)
    return g


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

"""The eager tiers: where small eager data lives, and what runs there.

XLA compiles a program for each new (function, shape, dtype): 20-100 ms on
a CPU, against microseconds for the operation itself, and NumPy programs
meet a new shape at almost every step.  So small eager data lives on the
host (docs/design.md §5a):

* **Where data lives.**  A new array made by an eager call, outside any
  transform, of at most :data:`HOST_SIZE` elements of a NumPy dtype
  (:data:`RESIDENT_DTYPES`), is NumPy's buffer on the host (on every
  machine: on one with an accelerator too)
  (:func:`kept`, ``NamedArray._host``).  Its device array is made once,
  when something asks for ``.data`` (a compiled function, ``jax.jit``,
  ``grad``, ``vmap``, a named axis, a mesh), and kept beside the buffer,
  which from then on is never written in place (a write copies it first).
  A scalar's buffer may be NumPy's scalar itself (an element read, a
  scalar's arithmetic: ``core.array.on_host``); a scalar is a value, so
  nothing writes into it, and NumPy's scalars have no views: what would be
  a view of one is a new array (``core.derived.derived``).
* **What runs there.**  An operation whose array operands live on the host
  (or are views of such data, or small CPU data beside them) runs NumPy's
  own function there: every ufunc and operator (``ufunc._on_host``, with
  NumPy's operator: ``z ** 2`` is ``square(z)``), the whole functions of
  :data:`FUNCTIONS` (creation, joins, sorting, sums and statistics,
  products of matrices, index helpers, histograms, windows, polynomials)
  and :data:`LINALG_FUNCTIONS`, indexing, views, and writes: ``x[i] =
  v``, ``x += y`` and writes through a view go into the buffer, in place
  while no device array shares it (``index_assign.resident_set``).  The result
  lives on the host too, so a NumPy program never pays a device round trip
  and compiles nothing.
* **The answer is NumPy's**, bit for bit: NumPy is the spec.  The compiled
  path (data on a device, traced, named, mapped, too large, on an
  accelerator) differs from it only as docs/differences.md says (XLA's
  rounding of transcendental functions, summation order, fused
  multiply-adds, subnormals flushed); :data:`OWN_ANSWERS` (``floor_divide``'s
  special values) are namedarray's on both paths.  A NumPy error, warning
  or floating-point exception, a result that is a view of an operand, or
  one of a dtype or size not kept, hands the call to the compiled path,
  which gives namedarray's error, warning or view.
* **No budget.**  NumPy's call plus about 1.5 us of wrapping is cheaper
  than a warm compiled dispatch (4-20 us) for every operation up to
  :data:`HOST_SIZE` elements (the crossover, measured with
  ``benchmarks/bench_first_run.py --calls``: ``sin`` of 65,536 float64 costs
  490 us in NumPy and 425 us compiled; ``x + y`` 15 us and 28 us).

Data on a device (a user's ``jax.Array``, a compiled result) computes where
it is: it is never read back to the host to run there (docs/design.md §7b:
data stays where the user put it; an eager ``x + y`` of arrays JAX made
costs what ``jax.numpy``'s does).  One family of programs still reads device
buffers: the deferred programs of the masked selections
(``engines/selection.py``), full-size buffers of a NumPy program's masked
loop, whose correctly rounded operations (:data:`EXACT`) run in NumPy on the
buffer of a shape until those runs have cost :data:`HOST_BUDGET` seconds,
about a compilation (:func:`within_budget`, the one budget), then compile.

``NAMEDARRAY_HOST_TIER=off`` in the environment (before import) switches the
tiers off: every eager call compiles, as under ``jit`` or on a mesh, so that
tests can check both paths.

>>> import namedarray as np
>>> x = np.linspace(0.0, 1.0, 3)
>>> x._host                              # NumPy's buffer: no device array yet
array([0. , 0.5, 1. ])
>>> print(x._dev)
None
"""
from __future__ import annotations

import math
import os
import time
import warnings

import jax
import numpy as onp

from ...core.array import (NamedArray, View, host_array, host_view_of, on_host, positional,
                           zero_dim_array)
from ...core import hooks
from ...core.cache import Cache
from ...core.config import numpy_dtypes
from . import fperr
from .args import to_device, untraced

#: the operations whose results are the correctly rounded ones (IEEE
#: arithmetic, comparisons, logic, rounding): any code generation, and NumPy,
#: give the same bits for them
EXACT = frozenset((
    "add", "subtract", "multiply", "divide", "true_divide", "negative", "positive",
    "absolute", "abs", "fabs", "square", "sqrt", "less", "less_equal", "greater",
    "greater_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor",
    "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert",
    "floor", "ceil", "trunc", "rint"))
#: the ufuncs whose answer here deliberately is not NumPy's loop's, with the
#: dtype kinds it concerns (the Array API's special values: ``floor_divide``
#: of real floats, docs/differences.md; ``expm1`` of complex infinities):
#: never run by NumPy on the host for those
OWN_ANSWERS = {"floor_divide": "f", "expm1": "c"}
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
#: the dtypes of data that lives on the host (:func:`kept`): NumPy's answer
#: is the spec, so complex data lives there too
RESIDENT_DTYPES = HOST_DTYPES | {onp.dtype(onp.complex64), onp.dtype(onp.complex128)}
_TINY = {onp.dtype(onp.float32): onp.finfo(onp.float32).tiny,
         onp.dtype(onp.float64): onp.finfo(onp.float64).tiny}
_Tracer = jax.core.Tracer
_Single = jax.sharding.SingleDeviceSharding


def _on_the_host(a) -> bool:
    """Whether the host may read the JAX array ``a`` where it is: the tiers are
    on, no trace runs, and JAX holds ``a`` uncommitted on one CPU device (whose
    memory is the host's); a user's committed data stays on its device."""
    if not ENABLED or isinstance(a, _Tracer) or not untraced():
        return False
    s = a.sharding
    return type(s) is _Single and not a.committed and \
        next(iter(s.device_set)).platform == "cpu"


def buffer(a):
    """The host buffer of the JAX array ``a`` where it may be read on the host
    (:func:`_on_the_host`) and is small, else None."""
    return onp.asarray(a) if a.size <= HOST_SIZE and _on_the_host(a) else None


#: the largest array (bytes) read in place by :func:`read_in_place`
IN_PLACE_BYTES = 1 << 27


def read_in_place(x, own=False) -> bool:
    """Let ``x`` live on the host from now on, where it is positional data (up
    to :data:`IN_PLACE_BYTES`) of a dtype that lives there, on one CPU device
    that JAX holds uncommitted (which :func:`buffer` reads for the host tier
    too): its buffer read in place (a CPU device's memory is the host's), its
    device array kept beside it, or with ``own`` a copy of it that no device
    array shares (writes through views of it then land in place); whether it
    does.  Before an element or a slice of such an array is read or written
    (``x[i]``, ``x[:, j]``, ``x[i] = v``) and, owned, before a Python loop
    over its rows (``for row in x``): each is then NumPy's, and so are the
    loop's small operations, instead of a device call each (~50 us to read,
    a copy of the whole array to write one element).  Operations on a whole
    array larger than :data:`HOST_SIZE` still run compiled; an accelerator's
    data, and a CPU device's a user committed there, stay where they are.
    Data read so is host data: its subnormal numbers are NumPy's from then
    on (the compiled path flushes them; :func:`view` keeps a device array
    holding them off the host to keep its answers the compiled ones)."""
    a = x._dev
    if a is None or x.mapped or any(x.dims) or a.dtype not in RESIDENT_DTYPES or \
            a.nbytes > IN_PLACE_BYTES or not _on_the_host(a):
        return False
    h = x._host
    if not own:
        x._host = onp.asarray(a) if h is None else h
    else:
        x._host, x._dev = onp.array(onp.asarray(a) if h is None else h), None
    return True


def _own_rows(x):
    read_in_place(x, own=True)


hooks.iterated = _own_rows


def view(a):
    """:func:`buffer` where ``a`` may run on the host (a :data:`HOST_DTYPES`
    dtype, no subnormal number), else None."""
    if a.dtype not in HOST_DTYPES:
        return None
    h = buffer(a)
    return None if h is None or _subnormal(h) else h


def kept(h, fresh=False):
    """NumPy's array ``h`` as a NamedArray that lives on the host (its device
    array made only when something asks for it, ``NamedArray.data``): a copy
    unless ``fresh`` (made here, held by no one else), C-ordered."""
    if not fresh or not h.flags.c_contiguous:
        h = onp.array(h, order="C")
    return on_host(h)


def made(h, fresh=False):
    """A new array made on the host (:func:`creates`), NumPy's ``h``: living
    there (:func:`kept`) where its dtype may, else on the device as JAX holds
    it (x64 off narrows 64-bit data)."""
    if h.dtype in RESIDENT_DTYPES and jax.dtypes.canonicalize_dtype(h.dtype) == h.dtype:
        return kept(h, fresh)
    return positional(to_device(h, fresh=fresh))


def readable(x):
    """The host buffer of the positional NamedArray or View ``x`` where it
    lives on the host: NumPy's own view where ``x`` is a view of data living
    there (NumPy sees its memory order), its buffer for an array; else None
    (data on a device computes where it is)."""
    if x.mapped or x.dims.count(None) != len(x.dims):
        return None
    if type(x) is View:
        return host_view_of(x)
    h = x._host
    return None if h is None else host_array(h)


def creates(shape) -> bool:
    """Whether a new array of ``shape`` is made on the host (outside a trace,
    small): no program compiles for it, on any machine (an accelerator's
    too: a NumPy program's small data never crosses to it and back)."""
    return ENABLED and math.prod(shape) <= HOST_SIZE and untraced()


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


#: the seconds of host runs spent per program key (:func:`within_budget`)
_SPENT = Cache()


def within_budget(key, f, *args):
    """``f(*args)`` (a host run of a masked selection's program, None where it
    cannot run there) while the host runs of ``key`` have cost less than
    :data:`HOST_BUDGET`, else None; a key whose run was refused, or whose
    budget is spent, compiles from then on."""
    s = _SPENT.get(key, 0.0)
    if s >= HOST_BUDGET:
        return None
    t0 = time.perf_counter()
    r = f(*args)
    _SPENT.put(key, math.inf if r is None else s + time.perf_counter() - t0)
    return r


# -- whole functions: NumPy's answer on small data ----------------------------
#: the functions that run whole in NumPy on small positional data on a CPU
#: (NumPy's call, 1-30 us, is cheaper than even a warm compiled dispatch of
#: their programs: ``linspace`` is 18 of them in eager JAX): creation from
#: Python numbers and new arrays made by moving data, index searches, sums,
#: statistics, sorting, products of matrices, set operations.  NumPy's answer
#: is the spec; where the compiled path rounds otherwise (sums in another
#: order, a fused multiply-add), the Differences page says so.  A result that
#: shares memory with an operand (NumPy's view: ``reshape``, ``diagonal``)
#: is not kept: the compiled path makes the view.
FUNCTIONS = frozenset((
    # creation and moving data
    "linspace", "logspace", "geomspace", "arange", "eye", "identity", "tri", "tril", "triu",
    "diag", "diagflat", "vander", "zeros_like", "ones_like", "full_like", "concatenate",
    "concat", "stack", "hstack", "vstack", "dstack", "column_stack", "append", "tile",
    "atleast_1d", "atleast_2d", "atleast_3d",
    "repeat", "roll", "take", "take_along_axis", "where", "select", "choose", "compress",
    "extract", "insert", "delete", "resize", "pad", "array", "copy", "flip", "rot90",
    "indices", "kron", "outer", "tensordot", "sort", "argsort", "lexsort", "partition",
    "argpartition", "unique", "unique_values", "isin", "intersect1d", "union1d",
    "setdiff1d", "setxor1d", "searchsorted", "digitize", "bincount", "histogram",
    "histogram_bin_edges", "nonzero", "flatnonzero", "argwhere", "count_nonzero",
    # index searches and reductions
    "argmin", "argmax", "nanargmin", "nanargmax", "sum", "prod", "mean", "std", "var",
    "max", "min", "amax", "amin", "ptp", "all", "any", "cumsum", "cumprod",
    "cumulative_sum", "cumulative_prod", "nansum", "nanprod", "nanmean", "nanstd",
    "nanvar", "nanmax", "nanmin", "nancumsum", "nancumprod", "average", "median",
    "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile", "corrcoef",
    "cov", "diff", "ediff1d", "gradient", "trapezoid", "interp", "convolve", "correlate",
    "polyval", "polyfit", "trace", "clip", "round", "around", "nan_to_num",
    # products of matrices
    "matmul", "dot", "vdot", "inner", "cross", "einsum", "vecdot", "matvec", "vecmat",
    # indices, histograms, windows, polynomials, comparisons
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
    "diag_indices", "diag_indices_from", "ravel_multi_index", "unravel_index",
    "histogram2d", "histogramdd", "kaiser", "hanning", "hamming", "blackman", "bartlett",
    "unwrap", "sort_complex", "meshgrid", "poly", "polyder", "polyint", "polyadd",
    "polysub", "polymul", "roots", "allclose", "array_equal", "array_equiv",
    "broadcast_arrays"))
#: namedarray's sorts are stable where no ``kind``/``stable`` is asked for
#: (the compiled path's, and the Array API's), among NumPy's valid answers
STABLE_SORTS = frozenset(("sort", "argsort"))
#: ``numpy.linalg``'s functions run the same way (their results NumPy's)
LINALG_FUNCTIONS = frozenset((
    "inv", "solve", "det", "norm", "pinv", "matrix_power", "cholesky", "eigvals",
    "eigvalsh", "matrix_rank", "multi_dot", "cond", "tensorsolve", "tensorinv", "trace",
    "matmul", "outer", "vecdot", "matrix_norm", "vector_norm", "cross", "diagonal", "lstsq",
    "svd", "svdvals", "qr", "slogdet", "eig", "eigh"))
#: ``numpy.fft``'s transforms run the same way (pocketfft's answers: the
#: compiled path's FFT rounds otherwise, docs/differences.md)
FFT_FUNCTIONS = frozenset((
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift"))
#: those whose result's memory order never follows their operands' (products
#: of matrices, linalg, index searches): a Fortran-ordered view goes in too
ANY_ORDER = frozenset((
    "matmul", "dot", "vdot", "inner", "outer", "kron", "tensordot", "inv", "solve", "det",
    "pinv", "matrix_power", "multi_dot", "norm", "cholesky", "trace", "nonzero", "eig",
    "eigh", "svd", "qr", "lstsq", "slogdet",
    "flatnonzero", "argwhere", "unique", "histogram", "histogram2d", "histogramdd"))
#: those whose NumPy call may warn (an empty slice, degrees of freedom): a
#: run that warns is dropped, and the compiled path gives namedarray's warning
_WARNS = frozenset((
    "mean", "std", "var", "nanmean", "nanstd", "nanvar", "nanmax", "nanmin", "nanargmax",
    "nanargmin", "average", "median", "nanmedian", "percentile", "nanpercentile",
    "quantile", "nanquantile", "corrcoef", "cov", "nansum", "nanprod", "polyfit", "cond",
    "gradient", "histogram", "histogram_bin_edges", "isclose"))
#: keywords that keep a call off the host (writes into ``out``, masks,
#: another array type, a device)
_OFF_KEYWORDS = frozenset(("out", "where", "like", "device", "subok", "copy", "ndmin",
                           "order"))
_NO = object()
_PLAIN = (bool, int, float, str, type(None), slice, range, type(Ellipsis))


def _host_arg(v, any_order=False):
    """The argument ``v`` as NumPy takes it on the host (NamedArrays living
    there, also in lists and tuples, as their host buffers), or ``_NO`` where
    it may not (data on a device, names, a map)."""
    t = type(v)
    if t is NamedArray:
        h = v._host
        if h is not None:
            return host_array(h)
    if t is NamedArray or t is View:     # (a selection's data is not its values)
        if t is View and not v.mapped and v.dims.count(None) == len(v.dims):
            hv = host_view_of(v)
            if hv is not None:      # NumPy's own view: NumPy sees its memory order
                return hv
        return _NO          # (data on a device computes where it is)
    if t in _PLAIN or t is type or t is complex or isinstance(v, onp.dtype):
        return v        # (NumPy's dtypes are instances of its subclasses: Float64DType)
    if isinstance(v, (int, float, complex)) and not isinstance(v, onp.generic):
        return v        # (a Python number of a user's class: NumPy's own reading)
    if t is list or t is tuple:
        out = [_host_arg(e, any_order) for e in v]
        return _NO if any(e is _NO for e in out) else t(out)
    if t is onp.ndarray or isinstance(v, onp.generic):
        return _NO if v.dtype not in RESIDENT_DTYPES or v.size > HOST_SIZE else v
    return _NO


def _buffers(v, out):
    """The NumPy arrays in the host argument ``v`` (also in lists), into ``out``."""
    if type(v) is onp.ndarray:
        out.append(v)
    elif type(v) is list or type(v) is tuple:
        for e in v:
            _buffers(e, out)
    return out


def _result(r, ins, any_order=False):
    """NumPy's result ``r`` as a NamedArray living on the host (a NumPy scalar
    as namedarray's scalar), a tuple (or NumPy's named tuple) of them; None
    where it is not kept: not
    NumPy's array, scalar or a tuple or list of them, of a dtype not kept, too large,
    in a memory order of its own unless ``any_order`` (LAPACK's Fortran order:
    then kept in C order, as the compiled path's), or sharing memory with one
    of the operands ``ins`` (a view)."""
    if type(r) is bool:             # (allclose, array_equal: Python's bool)
        return r
    if type(r) is list:             # (histogramdd's edges)
        out = [_result(e, ins, any_order) for e in r]
        return None if any(e is None for e in out) else out
    if isinstance(r, tuple):        # (NumPy's named tuples keep their class)
        out = tuple(_result(e, ins, any_order) for e in r)
        return None if any(e is None for e in out) else out if type(r) is tuple \
            else type(r)(*out)
    scalar = isinstance(r, onp.generic)
    if not scalar and type(r) is not onp.ndarray:
        return None         # (``retstep=True``'s pair, a list: the compiled path)
    r = onp.asarray(r)
    if r.dtype not in RESIDENT_DTYPES or r.size > HOST_SIZE or (
            r.ndim > 1 and not r.flags.c_contiguous and not any_order):
        return None         # (NumPy's memory order: the compiled path keeps it)
    # its own memory, no operand's (NumPy may give back an operand itself)
    fresh = scalar or (r.base is None and not any(r is h for h in ins))
    if not fresh and (any(onp.may_share_memory(r, h) for h in ins) or not r.size and any(
            memory_owner(r) is memory_owner(h) for h in ins if isinstance(h, onp.ndarray))):
        return None         # NumPy's view (an empty one too): the compiled path makes it
    x = kept(r, fresh)
    return zero_dim_array(x) if r.ndim == 0 and not scalar else x


def memory_owner(h):
    """The NumPy array owning ``h``'s memory (an empty view shares none with
    it, yet is a view: ``numpy.may_share_memory`` cannot tell)."""
    while isinstance(h.base, onp.ndarray):
        h = h.base
    return h


#: functions whose NumPy results are views of the operands where namedarray's
#: are new arrays (the compiled path's): on the host, copies of NumPy's views
_VIEWS_COPIED = frozenset({"broadcast_arrays"})


class Declined(Exception):
    """NumPy's answer on the host cannot be namedarray's: NumPy raised, warned
    or met a floating-point exception (the compiled path gives namedarray's
    error or warning), or its result is not one the host keeps (a view of an
    operand, a dtype or memory order of its own, too large: :func:`_result`).
    The dispatcher then runs the compiled path (``engines/dispatch.py``)."""


def held(name, args, kwargs, any_order=False):
    """The arguments of an eager call of NumPy's ``name`` as NumPy takes them
    on the host (NamedArrays, also in lists and tuples, as their host
    buffers), ``(args, kwargs)``, where every array among them lives there
    (under NumPy's dtype defaults, outside any trace); else None: a
    NamedArray with names, mapped or traced, data on a device, a keyword of
    :data:`_OFF_KEYWORDS` (writes into ``out``, masks, a device), a view in
    Fortran order unless the result's order is its own (``any_order``)."""
    if not numpy_dtypes() or not creates(()) or (
            name == "array" and type(args[0] if args else None) not in (list, tuple)):
        return None
    hargs = []
    for a in args:
        h = _host_arg(a, any_order)
        if h is _NO:
            return None
        hargs.append(h)
    hkw = {}
    for k, v in kwargs.items():
        if k in _OFF_KEYWORDS and (v is not None or k != "out"):    # (out=None: none)
            return None
        hkw[k] = h = _host_arg(v, any_order)
        if h is _NO:
            return None
    if name.endswith("_like") and args and type(args[0]) is View and args[0].ndim > 1 and \
            not args[0].flags.c_contiguous:
        return None         # (its memory order is the result's: the compiled path's)
    return hargs, hkw


def answer(fn, name, hargs, hkw, any_order=False, warns=False):
    """NumPy's function ``fn`` (``name``) on the host arguments :func:`held`
    gives, as a NamedArray living there (a NumPy scalar as namedarray's, a
    tuple or NumPy's named tuple of them); ``warns``: NumPy may warn
    (:data:`_WARNS`).  Raises :class:`Declined` where NumPy's answer cannot
    be namedarray's."""
    if name in STABLE_SORTS and hkw.get("stable") is None:
        if len(hargs) > 2:          # (``kind`` given by position)
            hargs[2] = "stable" if hargs[2] is None else hargs[2]
        elif hkw.get("kind") is None:
            hkw["kind"] = "stable"
    try:
        with fperr.raised():
            if warns:
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    r = fn(*hargs, **hkw)
            else:
                r, seen = fn(*hargs, **hkw), ()
    except Exception as e:      # noqa: BLE001 -- NumPy's error: the compiled path raises ours
        raise Declined(f"{name}: NumPy raised {type(e).__name__}") from e
    if seen:
        raise Declined(f"{name}: NumPy warned ({seen[0].category.__name__})")
    ins = []
    for a in hargs:
        _buffers(a, ins)
    for v in hkw.values():
        _buffers(v, ins)
    if name in _VIEWS_COPIED:
        r = type(r)(onp.array(e, order="C") for e in r)
    out = _result(r, ins, any_order)
    if out is None:
        raise Declined(f"{name}: NumPy's result is not kept on the host")
    return out


def whole(name, args, kwargs, module=onp):
    """NumPy's ``name`` (of ``module``) on the host, where :func:`held` finds
    its arguments there and NumPy's answer is namedarray's (:func:`answer`);
    else None.

    >>> import namedarray as np
    >>> whole("linspace", (0.0, 1.0, 3), {})
    array([0. , 0.5, 1. ])
    >>> print(whole("linspace", (0.0, 1.0, 3), {"out": None}))
    None
    """
    any_order = name in ANY_ORDER
    h = held(name, args, kwargs, any_order)
    if h is None:
        return None
    try:
        return answer(getattr(module, name), name, *h, any_order, name in _WARNS)
    except Declined:
        return None


_NOT_VIEWS = frozenset(("out", "where", "like", "device", "subok"))


def view_of(name, args, kwargs, buf):
    """NumPy's ``name`` on host arguments whose result is a view of the host
    buffer ``buf`` (``transpose``, ``reshape``, a basic slice) or, where NumPy
    copies (a reshape of a strided view), a new array of its dtype: NumPy's
    result, else None (NumPy's error, another kind of result: the compiled
    path)."""
    if not numpy_dtypes() or not untraced() or kwargs and (
            kwargs.get("copy") or not _NOT_VIEWS.isdisjoint(kwargs)):
        return None
    f = getattr(onp, name, None)
    if f is None or name == "reshape" and (len(args) < 2 or args[1] is None):
        return None         # (``reshape(a)``: namedarray's error)
    hargs, hkw = [], {}
    for a in args:
        h = _host_arg(a, True)
        if h is _NO:
            return None
        hargs.append(h)
    for k, v in kwargs.items():
        h = hkw[k] = _host_arg(v, True)
        if h is _NO:
            return None
    try:
        r = f(*hargs, **hkw)
    except Exception:       # noqa: BLE001 -- NumPy's error: the compiled path raises ours
        return None
    if type(r) is not onp.ndarray or r.dtype != buf.dtype:
        return None
    return r

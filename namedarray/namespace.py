"""NumPy's namespace: every public name of ``namedarray``, bound once here.

Each function is declared once, by a ``def`` in a module of the frontend or
one row of a table (``elementwise.py``'s ufuncs, ``reductions/table.py``, the
``jax.numpy`` rows below), and bound here as ``name = _c("name", declaration)``:
``rules.compose`` gives it the rules every NumPy function obeys (views, NumPy's
kind of 0-d results, layout keywords, data JAX cannot hold).  NumPy's dtypes,
scalar types and constants are NumPy's own objects; the ML dtypes
(``bfloat16``, ``float8_*``) are JAX's (``ml_dtypes``), and ``finfo`` knows them.
``tests/frontend/test_namespace.py`` checks that every NumPy function that
``jax.numpy`` implements has its row.

Importing this module also installs ``NamedArray``'s methods and operators and
registers the frontend with the core layer (``core/hooks.py``).

>>> import namedarray as np
>>> np.flip(np.arange(3))
array([2, 1, 0])
>>> np.float32 is __import__("numpy").float32
True
"""
import sys as _sys
import types as _types

import numpy as _onp

# (NumPy's numpy.linalg.*, numpy.fft.*, numpy.lib.* given NamedArrays dispatch to these)
from . import einsum as contractions, fft, linalg, random  # noqa: F401
from .frontend import emath as scimath, stride_tricks  # noqa: F401
from .core import config as _config, hooks as _hooks
from .core.array import NamedArray
from .core.derived import read_only as _read_only
from .reductions import statistics, table as reductions
from .reductions.table import REDUCTIONS
from .frontend import (arraypad, conversion, creation, elementwise, function_base, histograms,
               index_tricks, indexing, io, joining, logic, manipulation, polynomial, setops,
               sorting, windows)
from .frontend import methods as _methods
from .docstrings import document as _document
from .frontend.engines.args import subclass_refused as _subclass_refused
from .frontend.engines.select import nonzero as _nonzero
from .frontend.engines.ufunc import ufunc
from .frontend.engines.views import may_share_memory as _may_share_memory
from .frontend.engines.views import shares_memory as _shares_memory
from .frontend.index_assign import setitem as _setitem
from .frontend.index_take import getitem_data as _getitem_data
from .frontend.rules import attribute as _attribute, compose as _c, jax_numpy as _jax
from .frontend.rules import numpy_own as _own

# NumPy's dtypes, scalar types and constants: NumPy's own objects
from numpy import (
    False_, True_, bool, bool_, busdaycalendar, byte, bytes_, cdouble, character,
    clongdouble, complex128, complex64, complexfloating, csingle, datetime64, double,
    dtype, e, errstate, euler_gamma, flatiter, flexible, float16, float32, float64,
    floating, generic, half, iinfo, inexact, inf, int16, int32, int64, int8, int_, intc,
    integer, intp, little_endian, long, longdouble, longlong, matrix, memmap, nan,
    ndenumerate, ndindex, nditer, newaxis, number, object_, pi, poly1d, recarray,
    record, ScalarType, sctypeDict, short, signedinteger, single, str_, timedelta64,
    typecodes, ubyte, uint, uint16, uint32, uint64, uint8, uintc, uintp, ulong, ulonglong,
    unsignedinteger, ushort, vectorize, void)
# the ML dtypes as JAX has them (ml_dtypes' types; finfo knows them)
from ml_dtypes import (
    bfloat16, float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn,
    float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu)
# NumPy's ufuncs: namedarray.ufunc objects, one row each in elementwise.py's table
from .frontend.elementwise import (
    UFUNCS, abs, absolute, acos, acosh, add, arccos, arccosh, arcsin, arcsinh, arctan,
    arctan2, arctanh, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_count,
    bitwise_invert, bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift,
    bitwise_xor, cbrt, ceil, conj, conjugate, copysign, cos, cosh, deg2rad, degrees,
    divide, divmod, equal, exp, exp2, expm1, fabs, float_power, floor, floor_divide,
    fmax, fmin, fmod, frexp, gcd, greater, greater_equal, heaviside, hypot, invert,
    isfinite, isinf, isnan, lcm, ldexp, left_shift, less, less_equal, log, log10, log1p,
    log2, logaddexp, logaddexp2, logical_and, logical_not, logical_or, logical_xor,
    maximum, minimum, mod, modf, multiply, negative, nextafter, not_equal, positive,
    pow, power, rad2deg, radians, reciprocal, remainder, right_shift, rint, sign,
    signbit, sin, sinh, spacing, sqrt, square, subtract, tan, tanh, true_divide, trunc)

# extended precision, under the names this platform gives it
if hasattr(_onp, "float128"):
    float128, complex256 = _onp.float128, _onp.complex256
if hasattr(_onp, "float96"):
    float96, complex192 = _onp.float96, _onp.complex192


class _ArrayType(type):
    # NumPy's own ndarray (host data, an array from SciPy) is one too; a
    # user's subclass of np.ndarray has instances of its own only (none can
    # be made: namedarray keeps no subclasses).  namedarray's scalars are
    # NumPy's scalar types (NamedArray.__class__), which are no ndarray
    def __instancecheck__(cls, x):
        if cls is not ndarray:
            return type.__instancecheck__(cls, x)
        return isinstance(x, (NamedArray, _onp.ndarray)) and not isinstance(x, _onp.generic)

    def __subclasscheck__(cls, c):
        if cls is not ndarray:
            return type.__subclasscheck__(cls, c)
        return issubclass(c, (NamedArray, _onp.ndarray))


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
            raise TypeError(_subclass_refused(cls.__name__, f"class {cls.__name__}"))
        if buffer is not None:
            return _over_buffer(shape, dtype, buffer, offset, strides, order)
        if strides is not None or offset:
            raise TypeError("ndarray: offset= and strides= lay out a buffer, and no "
                            "buffer= is given (a new array is laid out by order=)")
        return creation.empty(shape, dtype, order="C" if order is None else order)


def _over_buffer(shape, dtype, buffer, offset, strides, order):
    """``numpy.ndarray(shape, dtype, buffer, ...)``: NumPy's own array over the
    buffer where namedarray cannot hold the dtype (object, strings: host data,
    docs/design.md §6c); of an immutable buffer (``bytes``), a read-only copy (as
    NumPy's array over it, which no write can change either).  A writable
    buffer would be shared (a write through the array changes it), which a
    device array cannot do: ``TypeError``."""
    try:
        readonly = memoryview(buffer).readonly
    except TypeError:
        raise TypeError(f"ndarray: buffer= must support the buffer protocol (bytes, "
                        f"bytearray, memoryview), got {type(buffer).__name__}") from None
    h = _onp.ndarray(shape, dtype, buffer, offset, strides, order)   # NumPy's checks
    if not _config.holds(h.dtype):
        return h
    if not readonly:
        raise TypeError("ndarray: buffer= of a writable buffer is not supported: NumPy's "
                        "array would share its memory (writes reach the buffer), which a "
                        "device array cannot; np.frombuffer(buffer, dtype, offset=...)"
                        ".reshape(shape) makes a copy")
    return _read_only(creation.array(h), "ndarray(buffer=...) of an immutable buffer")


# -- elementwise.py: NumPy's functions over its ufuncs
clip = _c("clip", elementwise.clip)
fix = _c("fix", elementwise.fix)
result_type = _c("result_type", elementwise.result_type)
where = _c("where", elementwise.where)

# -- reductions/table.py: the reduction table
all = _c("all", reductions.all)
amax = _c("amax", reductions.amax)
amin = _c("amin", reductions.amin)
any = _c("any", reductions.any)
argmax = _c("argmax", reductions.argmax)
argmin = _c("argmin", reductions.argmin)
count_nonzero = _c("count_nonzero", reductions.count_nonzero)
cumprod = _c("cumprod", reductions.cumprod)
cumsum = _c("cumsum", reductions.cumsum)
cumulative_prod = _c("cumulative_prod", reductions.cumulative_prod)
cumulative_sum = _c("cumulative_sum", reductions.cumulative_sum)
logsumexp = _c("logsumexp", reductions.logsumexp)
max = _c("max", reductions.max)
mean = _c("mean", reductions.mean)
median = _c("median", reductions.median)
min = _c("min", reductions.min)
nanargmax = _c("nanargmax", reductions.nanargmax)
nanargmin = _c("nanargmin", reductions.nanargmin)
nancumprod = _c("nancumprod", reductions.nancumprod)
nancumsum = _c("nancumsum", reductions.nancumsum)
nanmax = _c("nanmax", reductions.nanmax)
nanmean = _c("nanmean", reductions.nanmean)
nanmedian = _c("nanmedian", reductions.nanmedian)
nanmin = _c("nanmin", reductions.nanmin)
nanprod = _c("nanprod", reductions.nanprod)
nanstd = _c("nanstd", reductions.nanstd)
nansum = _c("nansum", reductions.nansum)
nanvar = _c("nanvar", reductions.nanvar)
prod = _c("prod", reductions.prod)
ptp = _c("ptp", reductions.ptp)
std = _c("std", reductions.std)
sum = _c("sum", reductions.sum)
var = _c("var", reductions.var)

# -- einsum/: einsum and the dot family (one dot_general each)
dot = _c("dot", contractions.dot)
einsum = _c("einsum", contractions.einsum)
einsum_path = _c("einsum_path", contractions.einsum_path)
inner = _c("inner", contractions.inner)
matmul = _c("matmul", contractions.matmul)
matvec = _c("matvec", contractions.matvec)
outer = _c("outer", contractions.outer)
tensordot = _c("tensordot", contractions.tensordot)
vecdot = _c("vecdot", contractions.vecdot)
vecmat = _c("vecmat", contractions.vecmat)

# -- creation.py
arange = _c("arange", creation.arange)
array = _c("array", creation.array)
asanyarray = _c("asanyarray", creation.asanyarray)
asarray = _c("asarray", creation.asarray)
asarray_chkfinite = _c("asarray_chkfinite", creation.asarray_chkfinite)
ascontiguousarray = _c("ascontiguousarray", creation.ascontiguousarray)
asfortranarray = _c("asfortranarray", creation.asfortranarray)
copy = _c("copy", creation.copy)
empty = _c("empty", creation.empty)
empty_like = _c("empty_like", creation.empty_like)
fromfunction = _c("fromfunction", creation.fromfunction)
frombuffer = _c("frombuffer", creation.frombuffer)
fromiter = _c("fromiter", creation.fromiter)
full = _c("full", creation.full)
full_like = _c("full_like", creation.full_like)
geomspace = _c("geomspace", creation.geomspace)
linspace = _c("linspace", creation.linspace)
logspace = _c("logspace", creation.logspace)
meshgrid = _c("meshgrid", creation.meshgrid)
ones = _c("ones", creation.ones)
ones_like = _c("ones_like", creation.ones_like)
require = _c("require", creation.require)
tri = _c("tri", creation.tri)
tril = _c("tril", creation.tril)
triu = _c("triu", creation.triu)
vander = _c("vander", creation.vander)
zeros = _c("zeros", creation.zeros)
zeros_like = _c("zeros_like", creation.zeros_like)

# -- joining.py
append = _c("append", joining.append)
block = _c("block", joining.block)
column_stack = _c("column_stack", joining.column_stack)
concat = _c("concat", joining.concat)
concatenate = _c("concatenate", joining.concatenate)
delete = _c("delete", joining.delete)
dstack = _c("dstack", joining.dstack)
hstack = _c("hstack", joining.hstack)
insert = _c("insert", joining.insert)
row_stack = _c("row_stack", joining.row_stack)
stack = _c("stack", joining.stack)
vstack = _c("vstack", joining.vstack)

# -- manipulation.py: shapes, and in-place writes
apply_along_axis = _c("apply_along_axis", manipulation.apply_along_axis)
array_split = _c("array_split", manipulation.array_split)
broadcast = _c("broadcast", manipulation.broadcast)
broadcast_to = _c("broadcast_to", manipulation.broadcast_to)
copyto = _c("copyto", manipulation.copyto)
diagonal = _c("diagonal", manipulation.diagonal)
dsplit = _c("dsplit", manipulation.dsplit)
fill_diagonal = _c("fill_diagonal", manipulation.fill_diagonal)
hsplit = _c("hsplit", manipulation.hsplit)
kron = _c("kron", manipulation.kron)
moveaxis = _c("moveaxis", manipulation.moveaxis)
packbits = _c("packbits", manipulation.packbits)
permute_dims = _c("permute_dims", manipulation.permute_dims)
place = _c("place", manipulation.place)
put = _c("put", manipulation.put)
put_along_axis = _c("put_along_axis", manipulation.put_along_axis)
putmask = _c("putmask", manipulation.putmask)
repeat = _c("repeat", manipulation.repeat)
reshape = _c("reshape", manipulation.reshape)
rollaxis = _c("rollaxis", manipulation.rollaxis)
split = _c("split", manipulation.split)
squeeze = _c("squeeze", manipulation.squeeze)
swapaxes = _c("swapaxes", manipulation.swapaxes)
take = _c("take", manipulation.take)
take_along_axis = _c("take_along_axis", manipulation.take_along_axis)
transpose = _c("transpose", manipulation.transpose)
unpackbits = _c("unpackbits", manipulation.unpackbits)
vsplit = _c("vsplit", manipulation.vsplit)

# -- sorting.py
argpartition = _c("argpartition", sorting.argpartition)
argsort = _c("argsort", sorting.argsort)
lexsort = _c("lexsort", sorting.lexsort)
partition = _c("partition", sorting.partition)
sort = _c("sort", sorting.sort)
sort_complex = _c("sort_complex", sorting.sort_complex)
top_k = _c("top_k", sorting.top_k)

# -- io.py
fromfile = _c("fromfile", io.fromfile)
fromregex = _c("fromregex", io.fromregex)
genfromtxt = _c("genfromtxt", io.genfromtxt)
load = _c("load", io.load)
loadtxt = _c("loadtxt", io.loadtxt)
save = _c("save", io.save)
savetxt = _c("savetxt", io.savetxt)
savez = _c("savez", io.savez)
savez_compressed = _c("savez_compressed", io.savez_compressed)

# -- conversion.py: conversion and printing
array2string = _c("array2string", conversion.array2string)
array_repr = _c("array_repr", conversion.array_repr)
array_str = _c("array_str", conversion.array_str)
asmatrix = _c("asmatrix", conversion.asmatrix)
astype = _c("astype", conversion.astype)
bmat = _c("bmat", conversion.bmat)
common_type = _c("common_type", conversion.common_type)
finfo = _c("finfo", conversion.finfo)
isfortran = _c("isfortran", conversion.isfortran)
isscalar = _c("isscalar", conversion.isscalar)
ndim = _c("ndim", conversion.ndim)
real_if_close = _c("real_if_close", conversion.real_if_close)
shape = _c("shape", conversion.shape)
size = _c("size", conversion.size)

# -- indexing.py: indexing and data-dependent sizes
argwhere = _c("argwhere", indexing.argwhere)
choose = _c("choose", indexing.choose)
compress = _c("compress", indexing.compress)
extract = _c("extract", indexing.extract)
flatnonzero = _c("flatnonzero", indexing.flatnonzero)

# -- setops.py
ediff1d = _c("ediff1d", setops.ediff1d)
intersect1d = _c("intersect1d", setops.intersect1d)
isin = _c("isin", setops.isin)
setxor1d = _c("setxor1d", setops.setxor1d)
union1d = _c("union1d", setops.union1d)
unique = _c("unique", setops.unique)
unique_all = _c("unique_all", setops.unique_all)
unique_counts = _c("unique_counts", setops.unique_counts)
unique_inverse = _c("unique_inverse", setops.unique_inverse)

# -- function_base.py
angle = _c("angle", function_base.angle)
around = _c("around", function_base.around)
convolve = _c("convolve", function_base.convolve)
correlate = _c("correlate", function_base.correlate)
cross = _c("cross", function_base.cross)
diff = _c("diff", function_base.diff)
frompyfunc = _c("frompyfunc", function_base.frompyfunc)
gradient = _c("gradient", function_base.gradient)
i0 = _c("i0", function_base.i0)
interp = _c("interp", function_base.interp)
nan_to_num = _c("nan_to_num", function_base.nan_to_num)
piecewise = _c("piecewise", function_base.piecewise)
round = _c("round", function_base.round)
select = _c("select", function_base.select)
trace = _c("trace", statistics.trace)
trapezoid = _c("trapezoid", function_base.trapezoid)
unwrap = _c("unwrap", function_base.unwrap)

# -- histograms.py
bincount = _c("bincount", histograms.bincount)
digitize = _c("digitize", histograms.digitize)
histogram = _c("histogram", histograms.histogram)
histogram2d = _c("histogram2d", histograms.histogram2d)
histogram_bin_edges = _c("histogram_bin_edges", histograms.histogram_bin_edges)
histogramdd = _c("histogramdd", histograms.histogramdd)

# -- index_tricks.py
c_ = _c("c_", index_tricks.c_)
index_exp = _c("index_exp", index_tricks.index_exp)
ix_ = _c("ix_", index_tricks.ix_)
mgrid = _c("mgrid", index_tricks.mgrid)
ogrid = _c("ogrid", index_tricks.ogrid)
r_ = _c("r_", index_tricks.r_)
s_ = _c("s_", index_tricks.s_)
unravel_index = _c("unravel_index", index_tricks.unravel_index)

# -- logic.py
allclose = _c("allclose", logic.allclose)
array_equal = _c("array_equal", logic.array_equal)
array_equiv = _c("array_equiv", logic.array_equiv)
isclose = _c("isclose", logic.isclose)
isneginf = _c("isneginf", logic.isneginf)
isposinf = _c("isposinf", logic.isposinf)
isreal = _c("isreal", logic.isreal)

# -- polynomial.py
poly = _c("poly", polynomial.poly)
polyadd = _c("polyadd", polynomial.polyadd)
polyder = _c("polyder", polynomial.polyder)
polydiv = _c("polydiv", polynomial.polydiv)
polyfit = _c("polyfit", polynomial.polyfit)
polyint = _c("polyint", polynomial.polyint)
polymul = _c("polymul", polynomial.polymul)
polysub = _c("polysub", polynomial.polysub)
polyval = _c("polyval", polynomial.polyval)
roots = _c("roots", polynomial.roots)

# -- windows.py
bartlett = _c("bartlett", windows.bartlett)
blackman = _c("blackman", windows.blackman)
hamming = _c("hamming", windows.hamming)
hanning = _c("hanning", windows.hanning)
kaiser = _c("kaiser", windows.kaiser)

# -- arraypad.py
pad = _c("pad", arraypad.pad)

# -- reductions/statistics.py: the quantile family and friends
average = _c("average", statistics.average)
corrcoef = _c("corrcoef", statistics.corrcoef)
cov = _c("cov", statistics.cov)
nanpercentile = _c("nanpercentile", statistics.nanpercentile)
nanquantile = _c("nanquantile", statistics.nanquantile)
percentile = _c("percentile", statistics.percentile)
quantile = _c("quantile", statistics.quantile)

# -- the engines' own (nonzero is the one-argument where)
nonzero = _c("nonzero", _nonzero)

# -- an array's attributes, and the views' memory checks
imag = _c("imag", _attribute("imag"))
may_share_memory = _c("may_share_memory", _may_share_memory)
real = _c("real", _attribute("real"))
shares_memory = _c("shares_memory", _shares_memory)

# -- jax.numpy's functions, adapted by ``wrap``: ``named`` says what a named
#    ``axis`` means ("keep": the name survives; "reduce": it is consumed)
apply_over_axes = _c("apply_over_axes", _jax("apply_over_axes", named="reduce"))
atleast_1d = _c("atleast_1d", _jax("atleast_1d"))
atleast_2d = _c("atleast_2d", _jax("atleast_2d"))
atleast_3d = _c("atleast_3d", _jax("atleast_3d"))
broadcast_arrays = _c("broadcast_arrays", _jax("broadcast_arrays"))
broadcast_shapes = _c("broadcast_shapes", _jax("broadcast_shapes"))
diag = _c("diag", _jax("diag"))
diag_indices = _c("diag_indices", _jax("diag_indices"))
diag_indices_from = _c("diag_indices_from", _jax("diag_indices_from"))
diagflat = _c("diagflat", _jax("diagflat"))
expand_dims = _c("expand_dims", _jax("expand_dims"))
eye = _c("eye", _jax("eye"))
flip = _c("flip", _jax("flip", named="keep"))
fliplr = _c("fliplr", _jax("fliplr"))
flipud = _c("flipud", _jax("flipud"))
from_dlpack = _c("from_dlpack", _jax("from_dlpack"))
fromstring = _c("fromstring", _jax("fromstring"))
identity = _c("identity", _jax("identity"))
indices = _c("indices", _jax("indices"))
iscomplex = _c("iscomplex", _jax("iscomplex"))
iscomplexobj = _c("iscomplexobj", _jax("iscomplexobj"))
isrealobj = _c("isrealobj", _jax("isrealobj"))
mask_indices = _c("mask_indices", _jax("mask_indices"))
matrix_transpose = _c("matrix_transpose", _jax("matrix_transpose"))
ravel = _c("ravel", _jax("ravel"))
ravel_multi_index = _c("ravel_multi_index", _jax("ravel_multi_index"))
resize = _c("resize", _jax("resize"))
roll = _c("roll", _jax("roll", named="keep"))
rot90 = _c("rot90", _jax("rot90"))
searchsorted = _c("searchsorted", _jax("searchsorted"))
setdiff1d = _c("setdiff1d", _jax("setdiff1d"))
sinc = _c("sinc", function_base.sinc)
tile = _c("tile", _jax("tile"))
tril_indices = _c("tril_indices", _jax("tril_indices"))
tril_indices_from = _c("tril_indices_from", _jax("tril_indices_from"))
trim_zeros = _c("trim_zeros", _jax("trim_zeros"))
triu_indices = _c("triu_indices", _jax("triu_indices"))
triu_indices_from = _c("triu_indices_from", _jax("triu_indices_from"))
unique_values = _c("unique_values", _jax("unique_values"))
unstack = _c("unstack", _jax("unstack"))
vdot = _c("vdot", _jax("vdot"))

# -- NumPy's own helpers (they inspect dtypes, values or settings), given
#    NumPy's arrays for NamedArray arguments
base_repr = _c("base_repr", _own("base_repr"))
binary_repr = _c("binary_repr", _own("binary_repr"))
busday_count = _c("busday_count", _own("busday_count"))
busday_offset = _c("busday_offset", _own("busday_offset"))
can_cast = _c("can_cast", _own("can_cast"))
datetime_as_string = _c("datetime_as_string", _own("datetime_as_string"))
datetime_data = _c("datetime_data", _own("datetime_data"))
format_float_positional = _c("format_float_positional", _own("format_float_positional"))
format_float_scientific = _c("format_float_scientific", _own("format_float_scientific"))
get_include = _c("get_include", _own("get_include"))
get_printoptions = _c("get_printoptions", _own("get_printoptions"))
getbufsize = _c("getbufsize", _own("getbufsize"))
geterr = _c("geterr", _own("geterr"))
geterrcall = _c("geterrcall", _own("geterrcall"))
info = _c("info", _own("info"))
is_busday = _c("is_busday", _own("is_busday"))
isdtype = _c("isdtype", _own("isdtype"))
isnat = _c("isnat", _own("isnat"))
issubdtype = _c("issubdtype", _own("issubdtype"))
iterable = _c("iterable", _own("iterable"))
min_scalar_type = _c("min_scalar_type", _own("min_scalar_type"))
mintypecode = _c("mintypecode", _own("mintypecode"))
nested_iters = _c("nested_iters", _own("nested_iters"))
printoptions = _c("printoptions", _own("printoptions"))
promote_types = _c("promote_types", _own("promote_types"))
set_printoptions = _c("set_printoptions", _own("set_printoptions"))
setbufsize = _c("setbufsize", _own("setbufsize"))
seterr = _c("seterr", _own("seterr"))
seterrcall = _c("seterrcall", _own("seterrcall"))
show_config = _c("show_config", _own("show_config"))
show_runtime = _c("show_runtime", _own("show_runtime"))
typename = _c("typename", _own("typename"))


#: every public NumPy name of the frontend, name -> object (this module's
#: names, less its modules and private names)
NAMESPACE = {n: v for n, v in sorted(vars().items())
             if not n.startswith("_") and not isinstance(v, _types.ModuleType)}
__all__ = list(NAMESPACE)

_methods.install({**NAMESPACE, "__package__": __name__.split(".")[0]})
_hooks.namespace = _sys.modules[__name__]
_hooks.setitem = _setitem
_hooks.getitem_data = _getitem_data

# each function's docstring: NumPy's documentation, then what names do here
_document(NAMESPACE)
for _sub, _mod in (("linalg", linalg), ("fft", fft), ("random", random)):
    _document({n: getattr(_mod, n) for n in _mod.__all__}, getattr(_onp, _sub), _sub + ".")

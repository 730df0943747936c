"""Array creation with NumPy's dtypes and errors: ``asarray``, ``array``,
``zeros``/``ones``/``empty``/``full`` (and ``full_like``), ``arange``,
``linspace``, ``logspace``, ``meshgrid``, ``fromfunction``, ``tril``/``triu``, ...

>>> import namedarray as np
>>> np.arange(3).dtype, np.zeros((2, 1)).shape
(dtype('int64'), (2, 1))
"""
from __future__ import annotations

import functools
import inspect
import math
import operator

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import (NamedArray, View, host_root, new, on_host, operand, positional,
                          rewrap, zero_dim_array)
from ..core.derived import read_only
from .elementwise import UFUNCS, exact_divide
from .engines import host
from .engines.args import check_dtype, np_asarray, numpy_args, to_device, unsupported_dtype
from .engines.declare import _decl
from .engines.dispatch import FLOATS
from .engines.generic import generic, wrap
from .engines.loops import runtime_zero, unfused
from .engines.results import allocating
from .engines.select import result_type
from .engines.views import contiguous, fortran, laid_out, memory_axes
from .joining import stack


# -- creation: NumPy semantics on top of jnp -------------------------------
def asarray(a, dtype=None, order=None, *, copy=None, device=None, like=None):
    """``numpy.asarray``; a NamedArray is returned as is (cast if ``dtype``);
    a 0-d result is NumPy's 0-d array, not its scalar (see ``zero_dim_array``).

    >>> import namedarray as np
    >>> np.arange(6).sum(), np.asarray(np.arange(6).sum())
    (np.int64(15), array(15))

    ``copy=True`` gives a new array, whose in-place operations leave ``a`` alone;
    ``copy=False`` refuses a cast.
    """
    return zero_dim_array(_asarray(a, dtype, copy))


def _asarray(a, dtype, copy):
    check_dtype("asarray", dtype)
    if isinstance(a, NamedArray):
        if dtype is None or a.dtype == dtype:
            return rewrap(a, a.data) if copy else a
        if copy is False:
            raise ValueError(f"asarray: copy=False but casting from {a.dtype} to "
                             f"{onp.dtype(dtype)} needs a copy")
        return rewrap(a, a.data.astype(dtype))
    if isinstance(a, (list, tuple)) and any(isinstance(v, NamedArray) for v in _leaves(a)):
        for v in _leaves(a):    # (None, str, Fraction beside arrays: NumPy's array)
            if not isinstance(v, NamedArray) and not config.holds(_leaf_dtype(v)):
                raise unsupported_dtype("asarray", _leaf_dtype(v), v)
        h = _on_host_stacked(a, dtype)
        return h if h is not None else _stack_nested(a, dtype)
    if isinstance(a, (jax.Array, onp.ndarray)) or hasattr(a, "__jax_array__"):
        if not config.holds(getattr(a, "dtype", onp.dtype(float))):
            raise unsupported_dtype("asarray", a.dtype, a)
        if type(a) is onp.ndarray and _host_cast(dtype):
            h = a if dtype is None else onp.asarray(a, dtype=dtype)
            fresh = h is not a and h.base is None
            if host.creates(h.shape):
                return host.made(h, fresh)
            return positional(to_device(h, fresh=fresh))
        return positional(jnp.asarray(a, dtype=dtype))
    if type(a) not in _PYTHON and hasattr(type(a), "__array__") and not isinstance(
            a, onp.generic):
        h = a.__array__() if dtype is None else a.__array__(dtype)
        if isinstance(h, (NamedArray, onp.ndarray)):    # another library's array_like:
            return asarray(h, dtype=dtype)              # its array, read as NumPy reads it
    if type(a) in _PYTHON and _host_cast(dtype) and host.creates(()):
        try:        # Python data: NumPy's array, made (and living) on the host
            h = onp.asarray(a, dtype=dtype)
        except Exception:       # noqa: BLE001 -- (np_asarray raises namedarray's error)
            h = None
        if h is not None and h.dtype in host.RESIDENT_DTYPES and h.size <= host.HOST_SIZE:
            return host.made(h, fresh=True)
    return positional(np_asarray(a, dtype=dtype))


#: Python data an array is made of on the host
_PYTHON = (list, tuple, int, float, complex, bool)


def _host_cast(dtype) -> bool:
    """Whether NumPy's cast to ``dtype`` on the host is ``jnp.asarray``'s: a
    NumPy dtype that JAX keeps as it is (x64 off narrows 64-bit ones)."""
    if dtype is None:
        return True
    try:
        dt = onp.dtype(dtype)
    except TypeError:
        return False
    return jax.dtypes.canonicalize_dtype(dt) == dt


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0,
          like=None):
    """``numpy.array``: a new array (a copy unless ``copy=False`` allows otherwise);
    ``ndmax`` (the depth of nesting read) is NumPy's reading of ``object``."""
    if ndmax:
        object = onp.array(object, dtype=dtype, ndmax=ndmax)
    x = asarray(object, dtype=dtype)
    if copy and isinstance(object, NamedArray):
        h = x._host if type(x) is NamedArray else None      # (living on the host)
        x = host.kept(h) if h is not None else rewrap(x, jnp.array(x.data, copy=True))
    if ndmin > x.ndim:
        x = new(x.data.reshape((1,) * (ndmin - x.ndim) + x.data.shape), (None,) * (
            ndmin - x.ndim) + x.dims, x.mapped)
    return zero_dim_array(_laid_out("array", x, object, order, copy))


def _laid_out(fn, x, src, order, copy):
    """``x`` (``src`` as an array) in NumPy's memory ``order``: ``"C"``/``"F"``
    (a copy where ``x`` is ``src`` and not so laid out), ``"K"``/``"A"``: a
    copy of a Fortran-ordered array is one too."""
    if x.ndim < 2 or x.names or order not in ("C", "F", "K", "A", None):
        return x
    if order in ("K", "A", None):
        if x is src or not (type(src) is View and src._owns):
            return x
        order = "F"
    if x is src:
        if contiguous(x, order):
            return x
        if copy is False:
            raise ValueError(f"{fn}: copy=False, but an array laid out in order "
                             f"{order!r} needs a copy")
    x = new(x.data, x.dims, x.mapped)
    return fortran(x) if order == "F" else x


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None):
    """``numpy.ascontiguousarray``: ``asarray``, at least 1-d and C-ordered
    (a copy of a Fortran-ordered or strided view) as in NumPy.

    >>> import namedarray as np
    >>> np.ascontiguousarray(3.0)
    array([3.])
    """
    return array(a, dtype=dtype, copy=None, order="C", ndmin=1)


def asfortranarray(a, dtype=None, *, like=None):
    """``numpy.asfortranarray``: ``asarray``, at least 1-d and Fortran-ordered
    as in NumPy.

    >>> import namedarray as np
    >>> np.asfortranarray(np.int8(3))
    array([3], dtype=int8)
    >>> np.asfortranarray(np.ones((2, 3))).flags.f_contiguous
    True
    """
    return array(a, dtype=dtype, copy=None, order="F", ndmin=1)


def _leaves(a):
    for v in a:
        if isinstance(v, (list, tuple)):
            yield from _leaves(v)
        else:
            yield v


def _leaf_dtype(v):
    """NumPy's dtype of one element of a nested list (``object`` for what it
    cannot read)."""
    try:
        return onp.asarray(v).dtype
    except Exception:       # noqa: BLE001 -- (NumPy's own error comes from NumPy)
        return onp.dtype(object)


def _on_host_stacked(a, dtype):
    """NumPy's array of the (nested) list ``a`` of arrays living on the host
    (and Python numbers), made there: one array, living there where it is
    small, else put on the device at once (never a device array per element,
    nor a program stacking them: a filter's list of its 12,000 states
    compiled one of 12,000 operands, for minutes); else None (data on a
    device, names, NumPy's error: :func:`_stack_nested`)."""
    held = host.held("array", (a,), {}) if _host_cast(dtype) else None
    if held is None:
        return None
    try:
        h = onp.asarray(held[0][0], dtype=dtype)
    except (TypeError, ValueError):
        return None
    if h.dtype == object:
        return None
    return host.made(h, fresh=True) if host.creates(h.shape) else \
        positional(to_device(h, fresh=True))


def _stack_nested(a, dtype):
    items = [_stack_nested(v, dtype) if isinstance(v, (list, tuple)) else operand(v)
             for v in a]
    res = stack(items)
    return res if dtype is None else res.astype(dtype)


def copy(a, order="K", subok=False):
    """``numpy.copy`` (in NumPy's memory ``order``)."""
    x = asarray(a)
    return _laid_out("copy", rewrap(x, jnp.array(x.data, copy=True)), x, order, True)


_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
          "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "ALIGNED", "ALIGNED": "ALIGNED",
          "W": "WRITEABLE", "WRITEABLE": "WRITEABLE", "O": "OWNDATA", "OWNDATA": "OWNDATA",
          "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """``numpy.require``: ``a`` as an array with the ``requirements`` flags
    (a copy where it lacks one), as NumPy's."""
    if not requirements:
        return asarray(a, dtype=dtype)
    try:
        req = {_FLAGS[r.upper()] for r in requirements}
    except KeyError as e:
        raise KeyError(f"require: requirements has {e.args[0]!r}, not one of "
                       f"{sorted(_FLAGS)}") from None
    req.discard("E")
    if {"C", "F"} <= req:
        raise ValueError('require: requirements cannot have both "C" and "F" order')
    order = "C" if "C" in req else "F" if "F" in req else "A"
    x = array(a, dtype=dtype, order=order, copy=None)
    if any(not x.flags[r] for r in req - {"C", "F"}):
        return copy(x, order=order)
    return x


def asarray_chkfinite(a, dtype=None, order=None):
    x = asarray(a, dtype=dtype)
    if x.names or not bool(jnp.all(jnp.isfinite(x.data))):
        if not x.names:
            raise ValueError("array must not contain infs or NaNs")
    return x


# -- creation with NumPy's dtypes and errors --------------------------------
def _shape_arg(fn, shape):
    """A shape argument as a tuple of ints, NumPy's errors for bad ones."""
    if isinstance(shape, NamedArray):
        shape = shape.tolist()
    try:
        dims = (operator.index(shape),)
    except TypeError:
        try:
            dims = tuple(operator.index(d) for d in shape)
        except TypeError:
            raise TypeError(f"{fn}: shape must be an int or a sequence of ints, got "
                            f"{shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"{fn}: negative dimensions are not allowed, got shape {dims}")
    return dims


def _creator(name):
    jfn = getattr(jnp, name)
    hfn = onp.ones if name == "ones" else onp.zeros     # (jax's empty is zeros)

    def f(shape, dtype=None, order="C", *, device=None, like=None):
        check_dtype(name, dtype)
        dims = _shape_arg(name, shape)
        dtype = float if dtype is None else dtype
        if host.creates(dims):      # on the host: no program to compile
            r = host.made(hfn(dims, dtype), fresh=True)
        else:
            with allocating(name):
                r = positional(jfn(dims, dtype=dtype))
        return fortran(r) if order == "F" else r
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``: a new positional array (default dtype float64)."
    return f


zeros = _creator("zeros")


ones = _creator("ones")


empty = _creator("empty")


def _big_int_fill(v, dt):
    """A Python int fill value as NumPy's unsafe copy into ``dt`` takes it: an
    integer type must hold it (``OverflowError``), bool takes a C long, inexact
    types its Python float (inf where the type's range ends; ``OverflowError``
    beyond a float's)."""
    if dt.kind in "iu":
        info = onp.iinfo(dt)
        if not info.min <= v <= info.max:
            raise OverflowError(f"full: Python integer {v} out of bounds for {dt}")
        return v
    if -2**63 <= v < 2**63:
        return v
    if dt.kind == "b":
        raise OverflowError(f"full: Python int too large to convert to C long ({v}); "
                            "pass a bool")
    try:
        return float(v)
    except OverflowError:
        raise OverflowError(f"full: int too large to convert to float ({v})") from None


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """``numpy.full``; the dtype is that of ``numpy.array(fill_value)`` by default."""
    r = _full(shape, fill_value, dtype)
    return fortran(r) if order == "F" else r


def _full(shape, fill_value, dtype):
    check_dtype("full", dtype)
    dims = _shape_arg("full", shape)
    if isinstance(fill_value, (str, bytes)) or fill_value is None:
        raise unsupported_dtype("full", onp.asarray(fill_value).dtype, fill_value)
    v = operand(fill_value)
    if isinstance(v, NamedArray):
        if v.names:
            res = generic("full", lambda d: jnp.full(dims, d, dtype=dtype), (v,), {})
            return res
        h = host.readable(v) if not v.mapped else None
        v = v.data if h is None else h      # (a fill living on the host stays there)
    else:
        if type(fill_value) is int and dtype is not None:
            v = _big_int_fill(fill_value, onp.dtype(dtype))
        if type(v) in (int, float, complex, bool) or isinstance(v, onp.generic):
            v = onp.asarray(v)      # (NumPy's reading of a number, on the host)
            if not config.holds(v.dtype):
                raise unsupported_dtype("full", v.dtype, fill_value)
        else:
            v = np_asarray(v)
    if dtype is not None and onp.dtype(dtype) == bool and v.dtype.kind == "c":
        v = v != 0       # NumPy: either part nonzero (XLA's cast reads the real part)
    if type(v) is onp.ndarray:
        if v.ndim == 0 and (dtype is None or onp.dtype(dtype) == v.dtype) and \
                host.creates(dims) and v.dtype in host.RESIDENT_DTYPES:
            return host.made(onp.full(dims, v), fresh=True)     # no program to compile
        v = to_device(v)
    with allocating("full"):
        return positional(jnp.full(dims, v, dtype=dtype if dtype is not None else v.dtype))


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    """``numpy.arange``: NumPy's result dtype (the default int or float64)."""
    check_dtype("arange", dtype)
    vals = [v.item() if isinstance(v, (NamedArray, jax.Array)) else v
            for v in (start, stop, step)]
    for v in vals:
        if v is not None and not isinstance(v, (int, float, complex, onp.generic)):
            raise TypeError(f"arange: start, stop and step must be scalars, got {v!r}")
    start, stop, step = vals
    if step is not None and step == 0:
        raise ZeroDivisionError("arange: step must not be 0")
    ints = [v for v in vals if type(v) is int]
    if any(not -2**63 <= v < 2**63 for v in ints):
        # beyond int64 NumPy takes its own path (float64 bounds, its length rule)
        args = [v for v in vals if v is not None]
        if stop is None and step is not None:
            args = [0] + args
        return positional(np_asarray(onp.arange(*args, dtype=dtype)))
    lo, hi, st = (0, start, 1) if stop is None else (start, stop, 1 if step is None else step)
    wrap_to = None
    if dtype is not None and onp.dtype(dtype).kind in "iu" and math.ceil((hi - lo) / st) > 0:
        # NumPy casts the first value and the second (start + step); the rest
        # are sums in the dtype, which wrap: arange(250, dtype=int8) ends at -7
        info, n = onp.iinfo(dtype), math.ceil((hi - lo) / st)
        for v in [lo] + ([lo + st] if n > 1 else []):
            if type(v) is int and not info.min <= v <= info.max:
                raise OverflowError(f"arange: Python integer {v} out of bounds for "
                                    f"{onp.dtype(dtype)}")
        if all(type(v) is int for v in (lo, hi, st)) and not all(
                info.min <= v <= info.max for v in (hi, lo + st * n)):
            wrap_to, dtype = onp.dtype(dtype), onp.int64
    if dtype is None:
        # the dtype NumPy gives these argument types: probe with empty ranges
        probe = [type(start)(0)] + ([type(stop)(0)] if stop is not None else []) + (
            [type(step)(1)] if step is not None else [])
        if stop is None and step is not None:
            probe = [0] + probe
        dtype = onp.arange(*probe).dtype
        if not config.numpy_dtypes():   # JAX's defaults: int32/float32, no warning
            dtype = jax.dtypes.canonicalize_dtype(dtype)
    else:
        natural = onp.arange(*([type(v)(0) for v in (start, stop) if v is not None] + (
            [type(step)(1)] if step is not None else []))).dtype
        dtype = onp.dtype(dtype)
        if natural.kind in "fc" and (dtype.kind in "fc" and natural.itemsize > dtype.itemsize
                                     or config.is_ml(dtype)):
            # NumPy computes the values in double precision, then casts
            return positional(arange(start, stop, step).data.astype(dtype))
    if onp.dtype(dtype).kind in "iu" and not all(
            isinstance(v, (int, onp.integer)) for v in (lo, hi, st)):
        # NumPy casts the first value and start + step (truncating); the rest
        # step by their difference: arange(-3, 3, 0.5, dtype=int) is -3, -2, ...
        n = max(math.ceil((hi - lo) / st), 0)
        first = int(lo)
        delta = int(lo + st) - first if n > 1 else 0
        with allocating("arange"):
            r = jnp.arange(n, dtype=onp.int64) * delta + first
        return positional(r.astype(dtype))
    args = [start] if stop is None else [start, stop]
    if step is not None:
        args = (args if stop is not None else [0, start]) + [step]
    if onp.dtype(dtype) == bool:
        return positional(jnp.asarray(onp.arange(*args, dtype=bool)))
    with allocating("arange"):
        r = jnp.arange(*args, dtype=dtype)
    return positional(r if wrap_to is None else r.astype(wrap_to))


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5, 6))
def _numpy_linspace(start, stop, num, endpoint, retstep, dt, axis, zero):
    """NumPy's linspace arithmetic, step by step, so that every sample has
    NumPy's bits: ``arange * (delta / div) + start`` (or, where any step of
    the whole array underflows to 0, ``arange / div * delta``), the last
    sample ``stop``; each division correctly rounded (XLA turns a division by
    a constant into a multiplication by its reciprocal)."""
    start, stop = jnp.asarray(start, dt), jnp.asarray(stop, dt)
    div = num - 1 if endpoint else num
    delta = stop - start
    y = jnp.arange(num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = exact_divide(delta, jnp.asarray(div, dt))
        y = jnp.where(jnp.any(step == 0),
                      exact_divide(y, jnp.asarray(div, dt)) * delta, y * step)
    else:
        step = jnp.full(delta.shape, jnp.nan, dt)
        y = y * delta
    y = unfused(y, zero) + start
    if endpoint and num > 1:
        y = y.at[-1].set(stop)
    y = jnp.moveaxis(y, 0, axis)
    return (y, step) if retstep else y


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``numpy.linspace``: computed in the inexact type of the inputs, then cast
    to ``dtype`` (integer dtypes floor, as in NumPy).  A name for ``axis`` puts
    the samples on a new named axis (as ``stack`` does).

    >>> import namedarray as np
    >>> np.linspace(np.zeros(2), 1.0, 5, axis="t").named_shape
    {'t': 5}
    """
    check_dtype("linspace", dtype)
    try:
        num = operator.index(num)
    except TypeError:
        raise TypeError(f"linspace: num={num!r}: '{type(num).__name__}' object cannot be "
                        "interpreted as an integer") from None
    if isinstance(axis, str):
        r = linspace(start, stop, num, endpoint, retstep, dtype, 0)
        vals = r[0] if retstep else r
        if axis in vals.named_shape:
            raise ValueError(
                f"linspace: axis={axis!r} would name the new axis of samples, but start "
                f"and stop already have an axis {axis!r} (named shape "
                f"{vals.named_shape}); pick another name")
        vals = vals.tag(axis, *[None] * (vals.ndim - 1))
        return (vals, r[1]) if retstep else vals
    if num < 0:
        raise ValueError(f"linspace: Number of samples, {num}, must be non-negative.")
    xs = [operand(v) for v in (start, stop)]
    dt = result_type(*xs, 1.0)      # (NumPy's: a Python number is weak)
    xs = [x if isinstance(x, NamedArray) else positional(np_asarray(x)) for x in xs]
    zero = runtime_zero(xs[0].data, xs[1].data)     # (an argument of the compiled call)
    r = generic("linspace", lambda a, b: _numpy_linspace(
        a, b, num, endpoint, retstep, dt, axis, zero), (xs[0], xs[1]), {})
    vals, step = (r if retstep else (r, None))
    if retstep and (num - 1 if endpoint else num) <= 0:
        step = float("nan")     # (NumPy's: no step of 0 or 1 sample, a Python nan)
    if dtype is not None and onp.dtype(dtype) != dt:
        if onp.dtype(dtype).kind in "iu":
            vals = rewrap(vals, jnp.floor(vals.data))
        vals = rewrap(vals, vals.data.astype(dtype))
    return (vals, step) if retstep else vals


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``numpy.geomspace`` as NumPy computes it: both ends divided by the sign
    of ``start`` (a negative or complex sequence), a log-spaced run between
    them, the ends exactly ``start`` and ``stop``; a zero end raises
    ``ValueError``.

    >>> import namedarray as np
    >>> np.geomspace(-1, -1000, 4)
    array([   -1.,   -10.,  -100., -1000.])
    """
    check_dtype("geomspace", dtype)
    xs = [operand(v) for v in (start, stop)]
    xs = [x if isinstance(x, NamedArray) else positional(np_asarray(x)) for x in xs]
    for x in xs:
        if not isinstance(x.data, jax.core.Tracer) and bool((x.data == 0).any()):
            raise ValueError("geomspace: a geometric sequence cannot include zero "
                             f"(start={start!r}, stop={stop!r})")
    if num < 0:
        raise ValueError(f"geomspace: Number of samples, {num}, must be non-negative.")
    # NumPy's computation dtype: of the ends, float(num) and dtype (a complex
    # dtype makes a negative sequence a spiral through the complex plane)
    # (NumPy's zeros((), dtype): float64 for no dtype)
    want = onp.dtype(dtype) if dtype is not None else (
        onp.dtype(onp.float64) if config.numpy_dtypes() else None)
    dt = result_type(*xs, float(num), *(() if want is None else (want,)))

    a, b = (x.astype(dt) for x in xs)
    # NumPy's steps, each by its ufunc: ends rotated by the sign of start,
    # a logspace between their logarithms, the ends set exactly, rotated back
    sign = UFUNCS["sign"](a)
    a, b = UFUNCS["true_divide"](a, sign), UFUNCS["true_divide"](b, sign)
    y = logspace(UFUNCS["log10"](a), UFUNCS["log10"](b), num, endpoint, 10.0, dt)

    def ends(y, a, b):
        if num > 0:
            y = y.at[0].set(a)
            if num > 1 and endpoint:
                y = y.at[-1].set(b)
        return y
    y = UFUNCS["multiply"](generic("geomspace", ends, (y, a, b), {}), sign)
    if axis != 0:
        y = generic("geomspace", lambda v: jnp.moveaxis(v, 0, axis), (y,), {})
    return y if dtype is None or onp.dtype(dtype) == dt else y.astype(dtype)


def _vander(d, N, increasing):
    """NumPy's powers: each column the previous one times ``x`` (its
    ``multiply.accumulate``), so ``(1+1j)**2`` is ``2j`` exactly (jax.numpy's
    complex power goes through exp and log)."""
    if d.ndim != 1:
        raise ValueError(f"vander: x must be a one-dimensional array or sequence (got "
                         f"{d.ndim} dimensions)")
    n = d.shape[0] if N is None else operator.index(N)
    if n <= 0 or d.dtype.kind not in "fc":
        return jnp.vander(d, n, increasing)
    _, cols = jax.lax.scan(lambda acc, _: (acc * d, acc), jnp.ones_like(d), None, length=n)
    return cols.T if increasing else cols[::-1].T


def vander(x, N=None, increasing=False):
    """``numpy.vander`` (result dtype ``promote_types(x.dtype, int)``)."""
    v = asarray(x)
    dt = onp.promote_types(v.dtype, onp.int_) if config.numpy_dtypes() else v.dtype
    return generic("vander", lambda d: _vander(d.astype(dt), N, increasing), (v,), {})


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """``numpy.tri`` (default dtype float64)."""
    check_dtype("tri", dtype)
    return positional(jnp.tri(N, M, k, dtype=dtype))


def _host_frombuffer(buffer, dtype=float, count=-1, offset=0):
    """``jnp.frombuffer`` whose data goes to its dtype's home (``to_device``:
    NumPy's float64 read from a buffer stays on the CPU backend of a TPU
    machine, whose float64 is an emulation)."""
    if isinstance(buffer, jax.Array) and not isinstance(buffer, jax.core.Tracer):
        buffer = onp.asarray(buffer)
    if isinstance(buffer, jax.Array):
        return jnp.frombuffer(buffer, dtype, count, offset)
    return to_device(onp.frombuffer(buffer, dtype, count, offset))


_host_frombuffer.__signature__ = inspect.signature(jnp.frombuffer)
_frombuffer = wrap(numpy_args(_host_frombuffer, "frombuffer"), "frombuffer")


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """``numpy.frombuffer``: NumPy's array shares the buffer's memory, which a
    device array cannot, so the result is a read-only copy (a write into it
    raises, never lost: NumPy's writes would reach the buffer).

    >>> import namedarray as np
    >>> x = np.frombuffer(b"\\x01\\x02", dtype=np.uint8)
    >>> x, x.flags.writeable
    (array([1, 2], dtype=uint8), False)
    """
    return read_only(_frombuffer(buffer, dtype, count, offset), "frombuffer")


def fromiter(iter, dtype, count=-1, *, like=None):
    """``numpy.fromiter`` (read on the host)."""
    check_dtype("fromiter", dtype)
    return positional(np_asarray(onp.fromiter(iter, dtype, count)))


_full_like = _decl("full_like")
_zeros_like, _ones_like, _empty_like = (_decl(n) for n in ("zeros_like", "ones_like",
                                                             "empty_like"))


def _made_like(fn, a, dtype, shape, device):
    """``fn`` (``zeros_like``, ``ones_like``, ``empty_like``) of ``a``, in C
    order: NumPy's, living on the host where ``a`` does (a view of data there
    too) and no device is asked for; else the compiled declaration's."""
    h = host_root(a)[0] if device is None and isinstance(a, NamedArray) else None
    if h is not None and host.creates(h.shape if shape is None else shape):
        r = (onp.ones_like if fn == "ones_like" else onp.zeros_like)(
            h, dtype, order="C", shape=shape)
        if r.dtype in host.RESIDENT_DTYPES:
            return on_host(r)
    return {"zeros_like": _zeros_like, "ones_like": _ones_like,
            "empty_like": _empty_like}[fn](a, dtype, shape=shape, device=device)


def _like_order(fn, a, r, order, shape):
    """``r``, the result of ``fn(a, ..., shape=shape)``, in NumPy's memory
    ``order``: ``"C"``, ``"F"``, ``"A"`` (``"F"`` where ``a`` is Fortran- and
    not C-contiguous), ``"K"`` (``a``'s order of strides, where ``r`` has
    ``a``'s number of dimensions; else C)."""
    if order is None:
        order = "K"
    if not isinstance(order, str):
        raise TypeError(f"{fn}: order must be str, not {type(order).__name__}")
    o = order.upper()
    if o not in ("C", "F", "A", "K"):
        raise ValueError(f"{fn}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if not isinstance(r, NamedArray) or r.ndim < 2 or r.names or r.mapped or o == "C":
        return r
    src = a if isinstance(a, (NamedArray, onp.ndarray)) and not getattr(
        a, "names", ()) else None
    if o == "A":
        o = "F" if src is not None and src.flags.f_contiguous and \
            not src.flags.c_contiguous else "C"
    if o == "K":
        if src is None or src.ndim != r.ndim:
            return r
        if isinstance(src, onp.ndarray):
            axes = sorted(range(src.ndim), key=lambda k: -abs(src.strides[k]))
        else:
            axes = memory_axes(src, "K")
        return laid_out(r, axes)
    return fortran(r) if o == "F" else r


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.zeros_like``, laid out in NumPy's memory ``order``.

    >>> import namedarray as np
    >>> np.zeros_like(np.ones((2, 3)), order="F").flags.f_contiguous
    True
    """
    check_dtype("zeros_like", dtype)
    return _like_order("zeros_like", a, _made_like("zeros_like", a, dtype, shape, device),
                       order, shape)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.ones_like``, laid out in NumPy's memory ``order``."""
    check_dtype("ones_like", dtype)
    return _like_order("ones_like", a, _made_like("ones_like", a, dtype, shape, device),
                       order, shape)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.empty_like`` (zeros here), laid out in NumPy's memory ``order``."""
    check_dtype("empty_like", dtype)
    return _like_order("empty_like", prototype, _made_like(
        "empty_like", prototype, dtype, shape, device), order, shape)


_fromfunction = _decl("fromfunction")


# jax.numpy: other casts of an out-of-range Python int and of a complex fill
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    """``numpy.full_like``; a Python int that does not fit raises ``OverflowError``."""
    dt = onp.dtype(dtype) if dtype is not None else (
        onp.dtype(a.dtype) if hasattr(a, "dtype") else onp.asarray(a).dtype)
    if type(fill_value) is int and dt.kind in "biu":
        info = onp.iinfo(dt if dt.kind != "b" else onp.int64)   # bool: NumPy's C long
        if not info.min <= fill_value <= info.max:
            raise OverflowError(f"full_like: Python integer {fill_value} out of bounds "
                                f"for {dt}")
    if type(fill_value) is complex and dt.kind != "c":
        # NumPy's cast: bool reads both parts, other types drop the imaginary part
        fill_value = bool(fill_value) if dt.kind == "b" else fill_value.real
    elif dt.kind == "b" and onp.dtype(getattr(fill_value, "dtype", onp.int8)).kind == "c":
        fill_value = asarray(fill_value) != 0
    return _like_order("full_like", a, _full_like(a, fill_value, dtype, shape=shape,
                                                  device=device), order, shape)


# jax.numpy: a scalar shape is not NumPy's TypeError
def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``numpy.fromfunction``; ``shape`` must be a sequence of sizes as in NumPy
    (``fromfunction(f, 3)`` is a ``TypeError``)."""
    try:
        shape = tuple(shape)
    except TypeError as e:
        raise TypeError(f"fromfunction: shape={shape!r} must be a sequence of sizes: "
                        f"{e}") from None
    return _fromfunction(function, shape, dtype=dtype, **kwargs)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``numpy.logspace`` as NumPy computes it: ``power(base, linspace(start,
    stop))`` (the ufunc ``power``); an array ``base`` broadcasts with
    ``start`` and ``stop``, one more axis at ``axis`` for the samples.

    >>> import namedarray as np
    >>> np.logspace(0, 3, 4)
    array([   1.,   10.,  100., 1000.])
    """
    check_dtype("logspace", dtype)
    if isinstance(base, (list, tuple)):
        base = np_asarray(base)
    if not isinstance(base, (float, int)) and onp.ndim(base):
        xs = [operand(v) for v in (start, stop, base)]
        xs = [x if isinstance(x, NamedArray) else positional(np_asarray(x)) for x in xs]
        nd = max(x.ndim for x in xs)
        start, stop, base = (x.reshape((1,) * (nd - x.ndim) + x.shape) for x in xs)
        base = generic("logspace", lambda v: jnp.expand_dims(v, axis), (base,), {})
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = UFUNCS["power"](base, y)
    return r if dtype is None else r.astype(dtype)


def _tri(name):
    jfn = getattr(jnp, name)

    def run(d, k=0):
        if d.ndim == 0:
            raise TypeError(f"{name}: a 0-d array has no triangle (NumPy needs at least "
                            "1 dimension)")
        if d.ndim == 1:       # NumPy's mask is tri(n, n): a 1-d array broadcasts
            d = jnp.broadcast_to(d, (d.shape[0],) * 2)
        return jfn(d, k)

    def f(m, k=0):
        return generic(name, run, (asarray(m),), {"k": k})
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: of the last two axes; a 1-d array is its (n, n) "
                 "broadcast, as in NumPy.")
    return f


# jax.numpy: a 1-d array refused (NumPy broadcasts it to (n, n))
tril, triu = _tri("tril"), _tri("triu")


_jmeshgrid = wrap(numpy_args(jnp.meshgrid, "meshgrid"), "meshgrid")


# jax.numpy: 0-d and n-d inputs refused (NumPy flattens them)
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """``numpy.meshgrid``: each input flattened (0-d and n-d ones too), as
    NumPy reshapes them.  ``copy=False`` gives NumPy's broadcast views as
    read-only results (a write into one raises instead of reaching the input)."""
    xs = [asarray(x) for x in xi]
    xs = [x.ravel() if x.ndim != 1 else x for x in xs]
    res = _jmeshgrid(*xs, copy=True, sparse=sparse, indexing=indexing)
    return res if copy else tuple(read_only(r, "meshgrid(copy=False)") for r in res)


linspace.computes = logspace.computes = geomspace.computes = FLOATS   # (integers: float64)

__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]   # (wrap's declarations: the package's __module__)

"""The rest of the NumPy namespace, declared over the generic engine.

Every NumPy function that ``jax.numpy`` implements and that no specialised
family (ufuncs, reductions, einsum) claims is declared here from one table:
``wrap(jnp.f, named=KIND)``.  ``KIND`` says what a *named* ``axis`` means
(``"keep"``: the name survives, e.g. ``sort``; ``"reduce"``: consumed).
Pure dtype/introspection helpers are NumPy's own functions.
"""
from __future__ import annotations

import functools
import math
import operator
import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from . import _config

from .core.array import NamedArray, new, normalize_axis, operand, positional, to_jax
from ._dispatch import _generic, wrap

# what a named `axis` means for these functions
_KEEP = {"sort", "argsort", "flip", "roll", "diff", "partition", "argpartition",
         "take_along_axis", "gradient", "unwrap", "apply_along_axis"}
_REDUCE = {"trapezoid", "apply_over_axes"}

# NumPy's own helpers: they inspect dtypes/values and return Python objects
_NUMPY_OWN = [
    "can_cast", "promote_types", "issubdtype", "isdtype", "min_scalar_type",
    "mintypecode", "typename", "isscalar", "iterable", "get_printoptions",
    "set_printoptions", "printoptions", "seterr", "geterr", "seterrcall", "geterrcall",
    "getbufsize", "setbufsize", "format_float_positional", "format_float_scientific",
    "base_repr", "binary_repr", "info", "show_config", "show_runtime", "get_include",
    "common_type", "datetime_data", "may_share_memory", "shares_memory",
]

_SKIP = {"isnat"}


def _declare(ns):
    out = {}
    for n in _NUMPY_OWN:
        if hasattr(onp, n):
            out[n] = getattr(onp, n)
    for n in sorted(dir(onp)):
        if n.startswith("_") or n in ns or n in out or n in _SKIP:
            continue
        v = getattr(onp, n)
        if isinstance(v, (type, onp.ufunc)) or not callable(v) or not hasattr(jnp, n):
            continue
        kind = "keep" if n in _KEEP else ("reduce" if n in _REDUCE else None)
        out[n] = wrap(_numpy_args(getattr(jnp, n), n), n, named=kind)
    return out


# -- NumPy's argument conventions for the jax.numpy functions ----------------
# parameters that are Python structure (shapes, axes, counts, options), never data
_PY_PARAMS = {
    "shape", "new_shape", "newshape", "axis", "axes", "axis1", "axis2", "axisa", "axisb",
    "axisc", "source", "destination", "reps", "pad_width", "indices_or_sections",
    "shift", "kth", "dtype", "mode", "order", "side", "kind", "method", "dims",
    "dimensions", "shapes", "subscripts", "funclist", "func", "func1d", "pyfunc",
    "excluded", "signature", "range", "size", "total_repeat_length", "ndmin", "n", "N",
    "M", "k", "num", "copy", "indexing", "sparse", "varargs", "out", "device",
    "out_sharding", "length", "bitorder", "edge_order", "ddof",
    "correction", "decimals", "deg", "base", "endpoint", "retstep", "sorted",
}
# parameters holding a sequence of arrays: convert each element
_SEQ_PARAMS = {"tup", "arrays", "choices", "condlist", "choicelist", "keys",
               "multi_index"}
# functions whose integer results are indices (NumPy: intp)
_INDEX_RESULT = {
    "argsort", "argpartition", "searchsorted", "argwhere", "flatnonzero", "nonzero",
    "lexsort", "digitize", "tril_indices", "triu_indices", "diag_indices",
    "tril_indices_from", "triu_indices_from", "diag_indices_from", "indices",
    "mask_indices", "unravel_index", "ravel_multi_index", "bincount",
}
# functions that return a list where NumPy returns a tuple
_TUPLE_RESULT = {"meshgrid", "broadcast_arrays", "atleast_1d", "atleast_2d",
                 "atleast_3d", "ix_", "unstack", "nonzero", "tril_indices",
                 "triu_indices", "diag_indices", "unravel_index"}
_NO_CONVERT = {"block", "array", "asarray", "piecewise", "apply_along_axis",
               "apply_over_axes", "vectorize", "frompyfunc", "fromfunction"}


def _is_data(v) -> bool:
    return isinstance(v, (list, tuple)) and not isinstance(v, NamedArray)


def _as_data(v):
    """A (nested) list/tuple argument as an array, as NumPy's ``asarray`` reads it."""
    if not _is_data(v):
        return v
    try:
        return _np_asarray(v)
    except (TypeError, ValueError):
        return [_as_data(e) for e in v]    # ragged: a sequence of arrays


def _np_asarray(v, dtype=None):
    """``numpy.asarray`` dtype inference, then onto the device."""
    try:
        h = onp.asarray(v, dtype=dtype)
    except (TypeError, ValueError, jax.errors.TracerArrayConversionError):
        return jnp.asarray(v, dtype=dtype)
    except Exception as e:  # noqa: BLE001 -- tracers raise JAX's own errors
        if "Tracer" in type(e).__name__:
            return jnp.asarray(v, dtype=dtype)
        raise
    if h.dtype.kind not in "biufc":
        raise TypeError(
            f"asarray: cannot make an array of dtype {h.dtype} (from {type(v).__name__} "
            f"{_short(v)}); namedarray holds numeric and bool data only (no object, "
            "string or datetime arrays)")
    return jnp.asarray(h)


def _short(v):
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _numpy_args(jfn, name):
    """``jfn`` taking NumPy's argument conventions: lists and tuples of data are
    arrays; index results are ``intp``; lists NumPy returns as tuples are tuples."""
    if name in _NO_CONVERT:
        return jfn
    try:
        sig = inspect.signature(jfn)
    except (TypeError, ValueError):
        return jfn
    params = list(sig.parameters.values())
    pos_names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
    var_pos = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), None)
    known = {p.name for p in params}
    idx_result = name in _INDEX_RESULT
    tup_result = name in _TUPLE_RESULT

    def conv(pname, v):
        if pname is None or pname in _PY_PARAMS or not _is_data(v):
            return v
        if pname in _SEQ_PARAMS:
            return type(v)(_as_data(e) for e in v) if isinstance(v, tuple) else [
                _as_data(e) for e in v]
        return _as_data(v)

    @functools.wraps(jfn)
    def f(*args, **kwargs):
        args = [conv(pos_names[i] if i < len(pos_names) else var_pos, a)
                for i, a in enumerate(args)]
        kwargs = {k: conv(k, v) if k in known else v for k, v in kwargs.items()}
        r = jfn(*args, **kwargs)
        if idx_result and "dtype" not in kwargs and _config.numpy_dtypes():
            r = _to_intp(r)
        if tup_result and isinstance(r, list):
            r = tuple(r)
        return r
    return f


def _to_intp(r):
    if isinstance(r, (list, tuple)):
        items = [_to_intp(v) for v in r]
        return type(r)(items) if not hasattr(r, "_fields") else type(r)(*items)
    if hasattr(r, "dtype") and jnp.issubdtype(r.dtype, jnp.integer) and r.dtype != onp.intp:
        return r.astype(onp.intp)
    return r


# -- creation: NumPy semantics on top of jnp -------------------------------
def asarray(a, dtype=None, order=None, *, copy=None, device=None, like=None):
    """``numpy.asarray``; a NamedArray is returned as is (cast if ``dtype``)."""
    if isinstance(a, NamedArray):
        return a if dtype is None or a.dtype == dtype else new(a.data.astype(dtype), a.dims)
    if isinstance(a, (list, tuple)) and any(isinstance(v, NamedArray) for v in _leaves(a)):
        return _stack_nested(a, dtype)
    if isinstance(a, (jax.Array, onp.ndarray)) or hasattr(a, "__jax_array__"):
        if getattr(a, "dtype", onp.dtype(float)).kind not in "biufc":
            raise TypeError(f"asarray: cannot hold dtype {a.dtype}; namedarray holds "
                            "numeric and bool data only (no object, string or datetime "
                            "arrays)")
        return positional(jnp.asarray(a, dtype=dtype))
    return positional(_np_asarray(a, dtype=dtype))


def array(object, dtype=None, *, copy=True, order="K", subok=True, ndmin=0, like=None):
    """``numpy.array``: a new array (a copy unless ``copy=False`` allows otherwise)."""
    x = asarray(object, dtype=dtype)
    if copy and isinstance(object, NamedArray):
        x = new(jnp.array(x.data, copy=True), x.dims)
    if ndmin > x.ndim:
        x = new(x.data.reshape((1,) * (ndmin - x.ndim) + x.data.shape), (None,) * (
            ndmin - x.ndim) + x.dims)
    return x


asanyarray = asarray
ascontiguousarray = asarray
asfortranarray = asarray


def _leaves(a):
    for v in a:
        if isinstance(v, (list, tuple)):
            yield from _leaves(v)
        else:
            yield v


def _stack_nested(a, dtype):
    from . import stack
    items = [_stack_nested(v, dtype) if isinstance(v, (list, tuple)) else operand(v)
             for v in a]
    res = stack(items)
    return res if dtype is None else res.astype(dtype)


def shape(a):
    """``numpy.shape``: the positional shape."""
    x = operand(a)
    return x.shape if isinstance(x, NamedArray) else ()


def ndim(a):
    """``numpy.ndim``: the number of positional axes."""
    return len(shape(a))


def size(a, axis=None):
    """``numpy.size``: positional elements."""
    s = shape(a)
    if axis is None:
        return int(onp.prod(s))
    return s[axis]


def copy(a, order="K", subok=False):
    """``numpy.copy``."""
    x = asarray(a)
    return new(jnp.array(x.data, copy=True), x.dims)


def copyto(dst, src, casting="same_kind", where=True):
    """``numpy.copyto``: writes into ``dst`` (rebinding its data)."""
    from ._elementwise import result_type, where as _where
    if not isinstance(dst, NamedArray):
        raise TypeError("copyto: dst must be a NamedArray (it is updated in place)")
    val = operand(src)
    if not isinstance(val, NamedArray):
        # a Python scalar is weak: it casts as it would promote with dst
        src_dt = result_type(onp.empty(0, dst.dtype), val)
        val = positional(jnp.asarray(val, src_dt))
    else:
        src_dt = val.dtype
    if not onp.can_cast(src_dt, dst.dtype, casting):
        raise TypeError(f"copyto: cannot cast from {onp.dtype(src_dt)} to {dst.dtype} "
                        f"according to the rule {casting!r}")
    val = new(val.data.astype(dst.dtype), val.dims)
    if where is not True:
        val = _where(where, val, dst)
    dst._assign("copyto", val)


def take(a, indices, axis=None, out=None, mode="raise"):
    """``numpy.take``; ``mode='raise'`` checks host indices (device index arrays
    are not synced: out-of-range entries give JAX's fill value)."""
    x = asarray(a)
    n = x.size if axis is None else x.shape[normalize_axis("take", axis, x.ndim)] \
        if not isinstance(axis, str) else None
    if mode in (None, "raise"):
        if n is not None:
            _check_host_indices("take", indices, n, "axis " + str(
                0 if axis is None else normalize_axis("take", axis, x.ndim)))
        mode = None
    elif mode not in ("wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    ind = _as_data(indices) if _is_data(indices) else indices
    res = _generic("take", lambda d, i: jnp.take(d, i, axis=axis, mode=mode),
                   (x, ind), {})
    if out is not None:
        out._assign("take", res)
        return out
    return res


def putmask(a, mask, values):
    """``numpy.putmask``: ``a[mask] = values`` with values repeated as needed."""
    if not isinstance(a, NamedArray) or a.names:
        raise TypeError("putmask: a must be a positional NamedArray (updated in place)")
    m = to_jax(mask).astype(bool)
    v = jnp.ravel(to_jax(values))
    flat = jnp.arange(a.size).reshape(a.shape)
    rep = jnp.resize(v, (a.size,)).reshape(a.shape).astype(a.dtype)
    a.data = jnp.where(m, rep, a.data)
    del flat


def fix(x, out=None):
    """``numpy.fix``: round toward zero."""
    from ._elementwise import UFUNCS
    return UFUNCS["trunc"](x, out=out)


def real_if_close(a, tol=100):
    """``numpy.real_if_close``."""
    x = asarray(a)
    if not jnp.iscomplexobj(x.data):
        return x
    eps = onp.finfo(x.dtype).eps * (tol if tol > 1 else 1)
    if bool(jnp.all(jnp.abs(x.data.imag) < eps)):
        return new(x.data.real, x.dims)
    return x


def row_stack(tup, *, dtype=None, casting="same_kind"):
    from . import vstack
    return vstack(tup, dtype=dtype, casting=casting)


def require(a, dtype=None, requirements=None, *, like=None):
    return asarray(a, dtype=dtype)


def asarray_chkfinite(a, dtype=None, order=None):
    x = asarray(a, dtype=dtype)
    if x.names or not bool(jnp.all(jnp.isfinite(x.data))):
        if not x.names:
            raise ValueError("array must not contain infs or NaNs")
    return x


def isfortran(a):
    return False


def array2string(a, *args, **kw):
    return onp.array2string(onp.asarray(asarray(a)), *args, **kw)


def array_repr(a, *args, **kw):
    return onp.array_repr(onp.asarray(asarray(a)), *args, **kw)


def array_str(a, *args, **kw):
    return onp.array_str(onp.asarray(asarray(a)), *args, **kw)


def save(file, arr, allow_pickle=True):
    onp.save(file, onp.asarray(asarray(arr)), allow_pickle=allow_pickle)


def savez(file, *args, **kwds):
    onp.savez(file, *[onp.asarray(asarray(a)) for a in args],
              **{k: onp.asarray(asarray(v)) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    onp.savez_compressed(file, *[onp.asarray(asarray(a)) for a in args],
                         **{k: onp.asarray(asarray(v)) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kw):
    onp.savetxt(fname, onp.asarray(asarray(X)), *args, **kw)


def _from_numpy(fn):
    def f(*args, **kw):
        r = fn(*args, **kw)
        return positional(jnp.asarray(r)) if isinstance(r, onp.ndarray) else r
    f.__name__ = f.__qualname__ = fn.__name__
    f.__doc__ = f"``numpy.{fn.__name__}``; the result is a NamedArray."
    return f


load = _from_numpy(onp.load)
loadtxt = _from_numpy(onp.loadtxt)
genfromtxt = _from_numpy(onp.genfromtxt)
fromregex = _from_numpy(onp.fromregex)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.stack``; ``axis="name"`` stacks along a new *named* axis."""
    xs = _operands(arrays)
    _join_check("stack", xs, axis, True)
    dt = _join_dtype(xs, dtype)
    if isinstance(axis, str):
        res = _generic("stack", jnp.stack, (xs,), {"axis": 0, "dtype": dt})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    normalize_axis("stack", axis, xs[0].ndim + 1)
    res = _generic("stack", jnp.stack, (xs,), {"axis": axis, "dtype": dt})
    if out is not None:
        out._assign("stack", res)
        return out
    return res


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate``; ``axis="name"`` joins along a named axis."""
    xs = _operands(arrays)
    if isinstance(axis, str):
        for i, x in enumerate(xs):
            if axis not in x.dims:
                from .core.array import unknown_name
                raise unknown_name("concatenate", f"axis (argument {i})", axis, x)
        parts = [x.untag(axis) for x in xs]
        res = _generic("concatenate", jnp.concatenate, (parts,),
                       {"axis": 0, "dtype": _join_dtype(xs, dtype)})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    _join_check("concatenate", xs, axis, False)
    res = _generic("concatenate", jnp.concatenate, (xs,),
                   {"axis": axis, "dtype": _join_dtype(xs, dtype)})
    if out is not None:
        out._assign("concatenate", res)
        return out
    return res




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

    def f(shape, dtype=None, order="C", *, device=None, like=None):
        dims = _shape_arg(name, shape)
        return positional(jfn(dims, dtype=float if dtype is None else dtype))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``: a new positional array (default dtype float64)."
    return f


zeros = _creator("zeros")
ones = _creator("ones")
empty = _creator("empty")


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """``numpy.full``; the dtype is that of ``numpy.array(fill_value)`` by default."""
    dims = _shape_arg("full", shape)
    v = operand(fill_value)
    if isinstance(v, NamedArray):
        if v.names:
            res = _generic("full", lambda d: jnp.full(dims, d, dtype=dtype), (v,), {})
            return res
        v = v.data
    else:
        if type(fill_value) is int and dtype is not None and onp.dtype(dtype).kind in "iu":
            info = onp.iinfo(dtype)
            if not info.min <= fill_value <= info.max:
                raise OverflowError(f"full: Python integer {fill_value} out of bounds for "
                                    f"{onp.dtype(dtype)}")
        v = _np_asarray(v)
    return positional(jnp.full(dims, v, dtype=dtype if dtype is not None else v.dtype))


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    """``numpy.arange``: NumPy's result dtype (the default int or float64)."""
    vals = [v.item() if isinstance(v, (NamedArray, jax.Array)) else v
            for v in (start, stop, step)]
    for v in vals:
        if v is not None and not isinstance(v, (int, float, complex, onp.generic)):
            raise TypeError(f"arange: start, stop and step must be scalars, got {v!r}")
    start, stop, step = vals
    if step is not None and step == 0:
        raise ZeroDivisionError("arange: step must not be 0")
    if dtype is None:
        # the dtype NumPy gives these argument types: probe with empty ranges
        probe = [type(start)(0)] + ([type(stop)(0)] if stop is not None else []) + (
            [type(step)(1)] if step is not None else [])
        if stop is None and step is not None:
            probe = [0] + probe
        dtype = onp.arange(*probe).dtype
    else:
        natural = onp.arange(*([type(v)(0) for v in (start, stop) if v is not None] + (
            [type(step)(1)] if step is not None else []))).dtype
        dtype = onp.dtype(dtype)
        if natural.kind in "fc" and dtype.kind in "fc" and natural.itemsize > dtype.itemsize:
            # NumPy computes the values in double precision, then casts
            return positional(arange(start, stop, step).data.astype(dtype))
    args = [start] if stop is None else [start, stop]
    if step is not None:
        args = (args if stop is not None else [0, start]) + [step]
    if onp.dtype(dtype) == bool:
        return positional(jnp.asarray(onp.arange(*args, dtype=bool)))
    return positional(jnp.arange(*args, dtype=dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``numpy.linspace``: computed in the inexact type of the inputs, then cast
    to ``dtype`` (integer dtypes floor, as in NumPy)."""
    xs = [operand(v) for v in (start, stop)]
    xs = [x if isinstance(x, NamedArray) else positional(_np_asarray(x)) for x in xs]
    dt = result_type(*xs, 1.0)
    r = _generic("linspace", lambda a, b: jnp.linspace(
        a, b, num, endpoint=endpoint, retstep=retstep, dtype=dt, axis=axis),
        (xs[0], xs[1]), {})
    vals, step = (r if retstep else (r, None))
    if dtype is not None and onp.dtype(dtype) != dt:
        if onp.dtype(dtype).kind in "iu":
            vals = new(jnp.floor(vals.data), vals.dims)
        vals = new(vals.data.astype(dtype), vals.dims)
    return (vals, step) if retstep else vals


def vander(x, N=None, increasing=False):
    """``numpy.vander`` (result dtype ``promote_types(x.dtype, int)``)."""
    v = asarray(x)
    dt = onp.promote_types(v.dtype, onp.int_) if _config.numpy_dtypes() else v.dtype
    return _generic("vander", lambda d: jnp.vander(d.astype(dt), N, increasing), (v,), {})


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """``numpy.tri`` (default dtype float64)."""
    return positional(jnp.tri(N, M, k, dtype=dtype))


def fromiter(iter, dtype, count=-1, *, like=None):
    """``numpy.fromiter`` (read on the host)."""
    return positional(_np_asarray(onp.fromiter(iter, dtype, count)))


# -- shape manipulation: NumPy's error types ---------------------------------
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """``numpy.reshape`` of the positional axes (named axes ride along)."""
    if shape is None:
        shape = newshape
    x = asarray(a)
    dims = (shape,) if isinstance(shape, (int, onp.integer)) else tuple(shape)
    try:
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError(f"reshape: shape must be ints, got {shape!r}") from None
    unknown = [i for i, d in enumerate(dims) if d == -1]
    known = math.prod(d for d in dims if d != -1)
    if len(unknown) > 1 or any(d < -1 for d in dims) or (
            known != x.size if not unknown else (known == 0 or x.size % known)):
        if not (unknown and known == 0 and x.size == 0 and len(unknown) == 1):
            raise ValueError(f"reshape: cannot reshape array of size {x.size} (shape "
                             f"{x.shape}) into shape {dims}")
    if order not in ("C", "F", "A", None):
        raise ValueError(f"reshape: order must be 'C', 'F' or 'A', got {order!r}")
    return _generic("reshape", jnp.reshape, (x, dims), {"order": order or "C"})


def transpose(a, axes=None):
    """``numpy.transpose`` of the positional axes."""
    x = asarray(a)
    if axes is not None:
        ax = tuple(normalize_axis("transpose", i, x.ndim) for i in axes)
        if sorted(ax) != list(range(x.ndim)):
            raise ValueError(f"transpose: axes {tuple(axes)} don't match an array with "
                             f"{x.ndim} positional dimensions (shape {x.shape})")
        axes = ax
    return _generic("transpose", jnp.transpose, (x, axes), {})


def swapaxes(a, axis1, axis2):
    """``numpy.swapaxes`` of two positional axes."""
    x = asarray(a)
    a1 = normalize_axis("swapaxes", axis1, x.ndim)
    a2 = normalize_axis("swapaxes", axis2, x.ndim)
    return _generic("swapaxes", jnp.swapaxes, (x, a1, a2), {})


def _join_check(fn, xs, axis, new_axis):
    if not xs:
        raise ValueError(f"{fn}: need at least one array to {fn}")
    nds = [x.ndim for x in xs]
    if new_axis:
        shapes = {x.shape for x in xs}
        if len(shapes) > 1:
            raise ValueError(f"{fn}: all input arrays must have the same shape, got "
                             f"{[x.shape for x in xs]}")
    elif axis is not None:
        if len(set(nds)) > 1:
            raise ValueError(f"{fn}: all the input arrays must have the same number of "
                             f"dimensions, got shapes {[x.shape for x in xs]}")
        if nds[0] == 0:
            raise ValueError(f"{fn}: zero-dimensional arrays cannot be concatenated")
        ax = normalize_axis(fn, axis, nds[0])
        for i, x in enumerate(xs):
            if x.shape[:ax] + x.shape[ax + 1:] != xs[0].shape[:ax] + xs[0].shape[ax + 1:]:
                raise ValueError(
                    f"{fn}: all the input array dimensions except for the concatenation "
                    f"axis must match exactly, but along dimension "
                    f"{next(j for j in range(nds[0]) if j != ax and x.shape[j] != xs[0].shape[j])}"
                    f", the array at index 0 has shape {xs[0].shape} and the array at "
                    f"index {i} has shape {x.shape}")


def _operands(arrays):
    if isinstance(arrays, NamedArray):
        return [arrays[i] for i in range(len(arrays))]
    return [a if isinstance(a, NamedArray) else positional(_np_asarray(a)) for a in arrays]


def _join_dtype(xs, dtype):
    from ._elementwise import result_type
    return dtype if dtype is not None else result_type(*xs)


def result_type(*args):
    from ._elementwise import result_type as rt
    return rt(*args)


def _cast_all(xs, dtype=None):
    dt = _join_dtype(xs, dtype)
    return [x if x.dtype == dt else new(x.data.astype(dt), x.dims) for x in xs]


def _stacker(name):
    jfn = getattr(jnp, name)

    def f(tup, *, dtype=None, casting="same_kind"):
        xs = _operands(tup)
        if not xs:
            raise ValueError(f"{name}: need at least one array to concatenate")
        return _generic(name, jfn, (_cast_all(xs, dtype),), {})
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}`` (NumPy's result dtype); named axes are mapped over."
    return f


hstack = _stacker("hstack")
vstack = _stacker("vstack")
dstack = _stacker("dstack")
column_stack = _stacker("column_stack")


def append(arr, values, axis=None):
    """``numpy.append`` (NumPy's result dtype)."""
    xs = _cast_all(_operands([arr, values]))
    return _generic("append", jnp.append, (xs[0], xs[1]), {"axis": axis})


def split(ary, indices_or_sections, axis=0):
    """``numpy.split``: equal sections, or split points (clipped like slices)."""
    return _split("split", ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    """``numpy.array_split``: like ``split``, sections may differ by one."""
    return _split("array_split", ary, indices_or_sections, axis, equal=False)


def _split(fn, ary, ios, axis, equal):
    x = asarray(ary)
    if isinstance(axis, str):
        raise ValueError(f"{fn}: axis={axis!r} names an axis; split along a positional "
                         "axis (untag it first)")
    ax = normalize_axis(fn, axis, x.ndim)
    n = x.shape[ax]
    if isinstance(ios, (int, onp.integer)):
        k = int(ios)
        if k <= 0:
            raise ValueError(f"{fn}: number of sections must be larger than 0, got {k}")
        if equal and n % k:
            raise ValueError(f"{fn}: array split does not result in an equal division "
                             f"(axis {ax} has size {n}, {k} sections)")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        bounds = list(onp.cumsum([0] + sizes))
        pairs = list(zip(bounds[:-1], bounds[1:]))
    else:
        idx = [int(i) for i in (ios.tolist() if isinstance(ios, NamedArray) else ios)]
        pairs = list(zip([0] + idx, idx + [None]))
    pre = (slice(None),) * ax
    return [x[pre + (slice(s, e),)] for s, e in pairs]


def hsplit(ary, indices_or_sections):
    """``numpy.hsplit``."""
    x = asarray(ary)
    if x.ndim == 0:
        raise ValueError("hsplit: hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, axis=1 if x.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """``numpy.vsplit``."""
    x = asarray(ary)
    if x.ndim < 2:
        raise ValueError("vsplit: vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    """``numpy.dsplit``."""
    x = asarray(ary)
    if x.ndim < 3:
        raise ValueError("dsplit: dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, axis=2)


# -- functions that write into their argument ---------------------------------
def _inplace(fn, target, res):
    if not isinstance(target, NamedArray):
        raise TypeError(f"{fn}: the target must be a NamedArray (it is updated in place), "
                        f"got {type(target).__name__}")
    target._assign(fn, res)


def put(a, ind, v, mode="raise"):
    """``numpy.put``: ``a.flat[ind] = v``, in place."""
    x = asarray(a)
    idx = _np_asarray(ind) if _is_data(ind) or isinstance(ind, (int, onp.integer)) else ind
    if mode == "raise":
        _check_host_indices("put", ind, x.size, "the flattened array")
        mode = None
    res = _generic("put", lambda d, i, w: jnp.put(d, i, w, mode=mode, inplace=False),
                   (x, idx, _as_data(v)), {})
    _inplace("put", a, res.astype(x.dtype))


def put_along_axis(arr, indices, values, axis):
    """``numpy.put_along_axis``, in place."""
    x = asarray(arr)
    res = _generic("put_along_axis", lambda d, i, w: jnp.put_along_axis(
        d, i, w, axis, inplace=False), (x, _as_data(indices), _as_data(values)), {})
    _inplace("put_along_axis", arr, res)


def place(arr, mask, vals):
    """``numpy.place``: ``arr[mask] = vals`` (vals cycled), in place."""
    x = asarray(arr)
    res = _generic("place", lambda d, m, w: jnp.place(d, m, w, inplace=False),
                   (x, _as_data(mask), _as_data(vals)), {})
    _inplace("place", arr, res)


def fill_diagonal(a, val, wrap=False):
    """``numpy.fill_diagonal``, in place."""
    x = asarray(a)
    res = _generic("fill_diagonal", lambda d, w: jnp.fill_diagonal(
        d, w, wrap=wrap, inplace=False), (x, _as_data(val)), {})
    _inplace("fill_diagonal", a, res)


def _check_host_indices(fn, ind, size, what):
    """NumPy's bounds check for indices known on the host (lists, ints, numpy)."""
    if isinstance(ind, (jax.Array, NamedArray)):
        return
    h = onp.asarray(ind)
    if h.size and h.dtype.kind in "iu":
        bad = h[(h < -size) | (h >= size)]
        if bad.size:
            raise IndexError(f"{fn}: index {bad.flat[0]} is out of bounds for {what} "
                             f"with size {size}")


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.sort``; ``axis`` may name an axis (sorted along it, name kept)."""
    return _SORT("sort", a, axis, kind, order, stable)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.argsort`` (stable); ``axis`` may name an axis."""
    return _SORT("argsort", a, axis, kind, order, stable)


_KINDS = ("quicksort", "mergesort", "heapsort", "stable", None)


def _SORT(fn, a, axis, kind, order, stable):
    if kind not in _KINDS:
        raise ValueError(f"{fn}: kind must be one of {_KINDS[:-1]}, got {kind!r}")
    if order is not None:
        raise ValueError(f"{fn}: order= sorts structured arrays, which namedarray does "
                         "not have")
    x = asarray(a)
    if axis is None and x.names:
        raise ValueError(f"{fn}: axis=None flattens the positional axes; the array also "
                         f"has named axes {x.named_shape}, which stay")
    jfn = getattr(jnp, fn)
    f = wrap(lambda d, axis=-1: jfn(d, axis=axis, stable=True), fn, named="keep")
    res = f(x, axis=axis)
    return res.astype(onp.intp) if fn == "argsort" and _config.numpy_dtypes() else res


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]


def declare(ns: dict) -> dict:
    """The table: every remaining NumPy name, for the package namespace ``ns``."""
    return _declare(ns)

"""The rest of the NumPy namespace, declared over the generic engine.

Every NumPy function that ``jax.numpy`` implements and that no specialised
family (ufuncs, reductions, einsum) claims is declared here from one table:
``wrap(jnp.f, named=KIND)``.  ``KIND`` says what a *named* ``axis`` means
(``"keep"``: the name survives, e.g. ``sort``; ``"reduce"``: consumed).
Pure dtype/introspection helpers are NumPy's own functions.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ._core import NamedArray, new, operand, positional, to_jax
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
        out[n] = wrap(getattr(jnp, n), n, named=kind)
    return out


# -- creation: NumPy semantics on top of jnp -------------------------------
def asarray(a, dtype=None, order=None, *, copy=None, device=None, like=None):
    """``numpy.asarray``; a NamedArray is returned as is (cast if ``dtype``)."""
    if isinstance(a, NamedArray):
        return a if dtype is None or a.dtype == dtype else new(a.data.astype(dtype), a.dims)
    if isinstance(a, (list, tuple)) and any(isinstance(v, NamedArray) for v in _leaves(a)):
        return _stack_nested(a, dtype)
    return positional(jnp.asarray(a, dtype=dtype))


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
    from ._elementwise import where as _where
    if not isinstance(dst, NamedArray):
        raise TypeError("copyto: dst must be a NamedArray (it is updated in place)")
    val = operand(src)
    if where is not True:
        val = _where(where, val, dst)
    dst._assign("copyto", val if isinstance(val, NamedArray) else positional(jnp.asarray(val)))


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
    if isinstance(axis, str):
        res = _generic("stack", jnp.stack, (list(arrays),), {"axis": 0, "dtype": dtype})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    res = _generic("stack", jnp.stack, (list(arrays),), {"axis": axis, "dtype": dtype})
    if out is not None:
        out._assign("stack", res)
        return out
    return res


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate``; ``axis="name"`` joins along a named axis."""
    arrays = list(arrays)
    if isinstance(axis, str):
        xs = [operand(a) for a in arrays]
        for i, x in enumerate(xs):
            if not isinstance(x, NamedArray) or axis not in x.dims:
                from ._core import unknown_name
                raise unknown_name("concatenate", f"axis (argument {i})", axis,
                                   x if isinstance(x, NamedArray) else positional(
                                       jnp.asarray(x)))
        parts = [x.untag(axis) for x in xs]
        res = _generic("concatenate", jnp.concatenate, (parts,), {"axis": 0, "dtype": dtype})
        return res.tag(axis, *([None] * (res.ndim - 1)))
    res = _generic("concatenate", jnp.concatenate, (arrays,), {"axis": axis, "dtype": dtype})
    if out is not None:
        out._assign("concatenate", res)
        return out
    return res


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]


def declare(ns: dict) -> dict:
    """The table: every remaining NumPy name, for the package namespace ``ns``."""
    return _declare(ns)

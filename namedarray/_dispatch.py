"""The dispatch engines: every public function is a thin declaration over one.

``ufunc``  elementwise: NumPy's dtype resolution, alignment by name,
           broadcasting; one ``jax.numpy`` call.
``wrap``   everything else: with no named axes anywhere, the ``jax.numpy``
           function runs on ``.data`` directly (the fast path); otherwise it is
           ``jax.vmap``-ed over the named axes, so positional code never sees
           them.  A *name* in an ``axis`` argument goes to :func:`named_axis`,
           which routes it through the parallel primitives.

Reductions have their own engine in ``namedarray/reductions``.
"""
from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from . import _config
from .core.array import NamedArray, align, new, operand, positional, to_jax

_SCALARS = (bool, int, float, complex)
_I32 = 2 ** 31


# --------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------
def wrap_result(r):
    if isinstance(r, jax.Array):
        return positional(r)
    if isinstance(r, tuple):
        items = [wrap_result(v) for v in r]
        return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
    if isinstance(r, list):
        return [wrap_result(v) for v in r]
    return r


def _store_out(fn, out, res):
    """NumPy's ``out=``: write into the given NamedArray(s), return them."""
    if isinstance(out, tuple):
        if len(out) == 1 and not isinstance(res, tuple):
            out = out[0]
        else:
            for o, r in zip(out, res):
                _store_out(fn, o, r)
            return out
    if not isinstance(out, NamedArray):
        raise TypeError(f"{fn}: out must be a NamedArray, got {type(out).__name__}")
    if out.shape != res.shape and jnp.broadcast_shapes(out.shape, res.shape) != out.shape:
        raise ValueError(f"{fn}: out has shape {out.shape} but the result has shape {res.shape}")
    out._assign(fn, res if isinstance(res, NamedArray) else operand(res))
    return out


def reraise(fn, e):
    """Re-raise a JAX error from a positional call as the same type, naming ``fn``."""
    msg = str(e).split("\n--------------------")[0]
    if "out of bounds" in msg and "axis" in msg and isinstance(e, ValueError):
        raise onp.exceptions.AxisError(f"{fn}: {msg}") from None
    raise type(e)(msg if msg.startswith(f"{fn}:") else f"{fn}: {msg}") from None


# --------------------------------------------------------------------------
# elementwise engine
# --------------------------------------------------------------------------
class ufunc:
    """A NumPy ufunc over NamedArrays: NumPy dtypes, alignment by name.

    >>> import namedarray as np
    >>> np.add(np.arange(3, dtype=np.int8), 1).dtype
    dtype('int8')
    """

    def __init__(self, name: str, jfn, np_ufunc):
        self.__name__ = self.__qualname__ = name
        self._jfn = jfn
        self._np = np_ufunc
        self.nin, self.nout = np_ufunc.nin, np_ufunc.nout
        self.nargs = np_ufunc.nargs
        self.identity = np_ufunc.identity
        self.ntypes, self.types = np_ufunc.ntypes, np_ufunc.types
        self.signature = None
        self._loops: dict = {}
        self._fast: dict = {}   # operand dtypes -> result dtype, when no cast is needed
        # the jitted implementation behind jax.numpy's ufunc (skips its re-checks)
        props = getattr(jfn, "_ufunc__static_props", None) if isinstance(
            jfn, jnp.ufunc) else None
        self._impl = (props or {}).get("call") or jfn
        # integer powers of Python ints have NumPy-specific errors: general path
        self._fast_ok = name not in ("power", "pow", "float_power", "ldexp")
        self.__doc__ = (f"``numpy.{name}`` on NamedArrays (named axes aligned by name).\n\n"
                        f"See ``numpy.{name}`` for the semantics.")

    def __repr__(self):
        return f"<namedarray ufunc '{self.__name__}'>"

    def _loop(self, key):
        loop = self._loops.get(key)
        if loop is None:
            *ins, dtype = key
            try:
                if dtype is not None:
                    dt = onp.dtype(dtype)
                    loop = ((dt,) * self.nin, (dt,) * self.nout)
                else:
                    r = self._np.resolve_dtypes(tuple(ins) + (None,) * self.nout)
                    loop = (r[: self.nin], r[self.nin:])
            except (TypeError, onp.exceptions.DTypePromotionError) as e:
                shown = ", ".join(getattr(t, "__name__", str(t)) for t in ins)
                raise TypeError(
                    f"{self.__name__}: not supported for the input types ({shown}): {e}"
                ) from None
            self._loops[key] = loop
            ins = key[:-1]
            if (dtype is None and self.nout == 1 and self._fast_ok and
                    any(isinstance(t, onp.dtype) for t in ins) and
                    all(t == d for t, d in zip(ins, loop[0]) if isinstance(t, onp.dtype)) and
                    # a Python int joins the fast path only where it cannot overflow
                    # (|v| < 2**31 is checked there): wide or inexact loop dtypes
                    all(d.kind in "fc" or d.itemsize >= 8 for t, d in zip(ins, loop[0])
                        if t is int)):
                self._fast[ins] = loop[1][0]
        return loop

    def __call__(self, *args, **kwargs):
        # fast path: positional NamedArrays (or an array and a Python scalar) whose
        # dtypes are already NumPy's loop dtypes: one jax call, no cast, no alignment
        if not kwargs and _config._state["mode"] == "numpy":
            n = len(args)
            try:
                if n == 1 == self.nin:
                    a = args[0]
                    if type(a) is NamedArray:          # elementwise: the layout is kept
                        d = a.data
                        out_dt = self._fast.get((d.dtype,))
                        if out_dt is not None:
                            return _result(self._impl(d), out_dt, a.dims)
                elif n == 2 == self.nin:
                    a, b = args
                    ta, tb = type(a), type(b)
                    if ta is NamedArray:
                        if tb is NamedArray:
                            ad, bd = a.data, b.data
                            da, db = a.dims, b.dims
                            # positional only (NumPy broadcasting), or one same layout
                            if (da == db and ad.shape == bd.shape) or (
                                    da.count(None) == len(da) and db.count(None) == len(db)):
                                out_dt = self._fast.get((ad.dtype, bd.dtype))
                                if out_dt is not None:
                                    return _result(self._impl(ad, bd), out_dt,
                                                   da if len(da) >= len(db) else db)
                        elif tb is float or (tb is int and -_I32 <= b < _I32):
                            ad = a.data
                            out_dt = self._fast.get((ad.dtype, tb))
                            if out_dt is not None:
                                return _result(self._impl(ad, b), out_dt, a.dims)
                    elif tb is NamedArray and (ta is float or (ta is int and -_I32 <= a < _I32)):
                        bd = b.data
                        out_dt = self._fast.get((ta, bd.dtype))
                        if out_dt is not None:
                            return _result(self._impl(a, bd), out_dt, b.dims)
            except Exception:  # noqa: BLE001  the general path gives NumPy's error
                pass
        return self._call(*args, **kwargs)

    def _call(self, *args, out=None, where=True, dtype=None, casting="same_kind",
              order="K", subok=True):
        nin = self.nin
        if len(args) != nin:
            if len(args) > nin and out is None:
                out = args[nin:] if len(args) - nin > 1 else args[nin]
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes {nin} positional arguments "
                                f"but {len(args)} were given")
        ops = [operand(a) for a in args]
        out_dts = None
        if _config.numpy_dtypes():
            key = tuple(o.data.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
            in_dts, out_dts = self._loop(key + (dtype,))
            for i, o in enumerate(ops):
                if isinstance(o, NamedArray):
                    if o.data.dtype != in_dts[i]:
                        ops[i] = new(o.data.astype(in_dts[i]), o.dims)
                elif not any(isinstance(p, NamedArray) for p in ops):
                    ops[i] = positional(jnp.asarray(o, in_dts[i]))
        elif dtype is not None:
            ops = [new(o.data.astype(dtype), o.dims) if isinstance(o, NamedArray)
                   else o for o in ops]
        if all(not isinstance(o, NamedArray) or o.dims.count(None) == len(o.dims)
               for o in ops):
            res = self._jfn(*[o.data if isinstance(o, NamedArray) else o for o in ops])
            dims = None
        else:
            datas, dims = align(self.__name__, ops)
            res = self._jfn(*datas)
        if self.nout == 1:
            res = _finish(res, out_dts[0] if out_dts else None, dims)
        else:
            res = tuple(_finish(r, out_dts[i] if out_dts else None, dims)
                        for i, r in enumerate(res))
        if where is not True:
            res = _where(self.__name__, where, res, out)
        if out is not None:
            return _store_out(self.__name__, out, res)
        return res

    # ufunc methods, integer axes; named ones go through the reduction engine
    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        from .reductions import ufunc_reduce
        return ufunc_reduce(self, a, axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                            initial=initial, where=where)

    def accumulate(self, a, axis=0, dtype=None, out=None):
        res = _generic(f"{self.__name__}.accumulate",
                       lambda d, axis: self._jfn.accumulate(d, axis=axis, dtype=dtype),
                       (operand(a),), {"axis": axis}, axis_pos=1, named="keep")
        return _store_out(self.__name__, out, res) if out is not None else res

    def outer(self, a, b, **kw):
        a, b = operand(a), operand(b)
        a = a if isinstance(a, NamedArray) else positional(jnp.asarray(a))
        b = b if isinstance(b, NamedArray) else positional(jnp.asarray(b))
        na, nb = a.ndim, b.ndim
        ea = a.data.reshape(a.shape + (1,) * nb + a.data.shape[na:]) if nb else a.data
        b2 = new(b.data, b.dims)
        a2 = new(ea, (None,) * (na + nb) + a.names)
        return self(a2, b2, **kw)

    def at(self, a, indices, b=None):
        if not isinstance(a, NamedArray):
            raise TypeError(f"{self.__name__}.at: the target must be a NamedArray "
                            "(it is updated in place)")
        if a.names:
            raise TypeError(f"{self.__name__}.at: the target has named axes "
                            f"{a.named_shape}; untag them first")
        idx = _index_data(indices)
        args = () if b is None else (to_jax(b).astype(a.dtype),)
        a.data = self._jfn.at(a.data, idx, *args, inplace=False).astype(a.dtype)


def _index_data(idx):
    if isinstance(idx, tuple):
        return tuple(_index_data(i) for i in idx)
    if isinstance(idx, NamedArray):
        return idx._plain("index")
    if isinstance(idx, list):
        return jnp.asarray(idx)
    return idx


def _result(r, out_dt, dims):
    """A positional result with known dims (the fast path's constructor)."""
    x = object.__new__(NamedArray)
    x.data = r if r.dtype == out_dt else r.astype(out_dt)
    x.dims = dims
    return x


def _finish(res, out_dt, dims):
    if out_dt is not None and res.dtype != out_dt:
        res = res.astype(out_dt)
    return positional(res) if dims is None else new(res, dims)


def _where(fn, where, res, out):
    from . import _elementwise as ew
    if out is None:
        base = jax.tree_util.tree_map(lambda r: new(jnp.zeros_like(r.data), r.dims), res,
                                      is_leaf=lambda v: isinstance(v, NamedArray))
    else:
        base = out
    if isinstance(res, tuple):
        return tuple(ew.where(where, r, b) for r, b in zip(res, base))
    return ew.where(where, res, base)


# --------------------------------------------------------------------------
# generic engine
# --------------------------------------------------------------------------
def _has_names(v) -> bool:
    if isinstance(v, NamedArray):
        return v.dims.count(None) != len(v.dims)
    if isinstance(v, (list, tuple)):
        return any(_has_names(i) for i in v)
    return False


def _strip(v):
    """NamedArray -> data (positional ones only; called on the fast path)."""
    if isinstance(v, NamedArray):
        return v.data
    if isinstance(v, list):
        return [_strip(i) for i in v]
    if type(v) is tuple:
        return tuple(_strip(i) for i in v)
    return v


def _axis_names(axis):
    if isinstance(axis, str):
        return True
    if isinstance(axis, (tuple, list)):
        return any(isinstance(a, str) for a in axis)
    return False


def _generic(fn, jfn, args, kwargs, axis_pos=None, named=None, axis_kw="axis"):
    if axis_pos is not None:
        axis = kwargs[axis_kw] if axis_kw in kwargs else (
            args[axis_pos] if len(args) > axis_pos else None)
        if _axis_names(axis):
            return named_axis(fn, jfn, args, kwargs, axis_pos, axis_kw, named)
    if not any(_has_names(a) for a in args) and not any(
            _has_names(v) for v in kwargs.values()):
        try:
            return wrap_result(jfn(*[_strip(a) for a in args],
                                   **{k: _strip(v) for k, v in kwargs.items()}))
        except (ValueError, TypeError, IndexError) as e:
            reraise(fn, e)
    return vmap_names(fn, jfn, args, kwargs)


def vmap_names(fn, jfn, args, kwargs):
    """Run ``jfn`` with every named axis of every argument vmapped away.

    Output layout: positional axes first, then the names (in reverse union order,
    as nested ``vmap(out_axes=-1)`` leaves them).
    """
    is_na = lambda v: isinstance(v, NamedArray)  # noqa: E731
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_na)
    named_idx = [i for i, v in enumerate(leaves) if is_na(v) and v.names]
    _, udims = align(fn, [leaves[i] for i in named_idx])
    union = [d for d in udims if d is not None]
    arrays = []
    for i in named_idx:
        x = leaves[i]
        n = x.ndim
        want = tuple(d for d in union if d in x.names)
        d = x.data
        if x.names != want:
            d = jax.lax.transpose(d, tuple(range(n)) + tuple(n + x.names.index(w) for w in want))
        arrays.append((d, n, want))

    def call(*datas):
        full = list(leaves)
        for i, dd in zip(named_idx, datas):
            full[i] = dd
        full = [v.data if is_na(v) else v for v in full]
        a, k = jax.tree_util.tree_unflatten(tree, full)
        return jfn(*a, **k)

    f = call
    for level in range(len(union) - 1, -1, -1):
        name = union[level]
        in_axes = []
        for d, n, want in arrays:
            if name in want:
                remaining = [w for w in want if union.index(w) >= level]
                in_axes.append(n + remaining.index(name))
            else:
                in_axes.append(None)
        f = jax.vmap(f, in_axes=tuple(in_axes), out_axes=-1)
    res = f(*[d for d, _, _ in arrays])
    out_names = tuple(reversed(union))
    k = len(out_names)

    def rewrap(r):
        if isinstance(r, jax.Array):
            return new(r, (None,) * (r.ndim - k) + out_names)
        if isinstance(r, tuple):
            items = [rewrap(v) for v in r]
            return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
        if isinstance(r, list):
            return [rewrap(v) for v in r]
        return r
    return rewrap(res)


def named_axis(fn, jfn, args, kwargs, axis_pos, axis_kw, kind):
    """A name in an ``axis`` argument: make the named axes positional through
    the parallel primitives (``all_gather`` semantics), run the positional
    function, and give names back to axes the function keeps."""
    if kind is None:
        raise ValueError(f"{fn}: axis={_get_axis(args, kwargs, axis_pos, axis_kw)!r} names "
                         "an axis, but this function takes positional axes only")
    from . import parallel
    axis = _get_axis(args, kwargs, axis_pos, axis_kw)
    axes = (axis,) if isinstance(axis, (str, int)) else tuple(axis)
    names = [a for a in axes if isinstance(a, str)]
    x = operand(args[0])
    if not isinstance(x, NamedArray):
        x = positional(jnp.asarray(x))
    from .core.array import normalize_axis
    g = parallel.gather_names(fn, x, names)
    k = len(names)
    # each entry in the order given: a name is its gathered axis, an int shifts by k
    new_axes = tuple(names.index(a) if isinstance(a, str) else k + normalize_axis(
        fn, a, x.ndim) for a in axes)
    new_axis = new_axes if (len(new_axes) > 1 or not isinstance(axis, (str, int))) else new_axes[0]
    args = (g,) + tuple(args[1:])
    if axis_kw in kwargs or len(args) <= axis_pos:
        kwargs = {**kwargs, axis_kw: new_axis}
    else:
        args = args[:axis_pos] + (new_axis,) + args[axis_pos + 1:]
    res = _generic(fn, jfn, args, kwargs)
    if kind == "keep":
        res = jax.tree_util.tree_map(lambda r: parallel.scatter_names(fn, r, names), res,
                                     is_leaf=lambda v: isinstance(v, NamedArray))
    return res


def _get_axis(args, kwargs, axis_pos, axis_kw):
    return kwargs[axis_kw] if axis_kw in kwargs else (
        args[axis_pos] if len(args) > axis_pos else None)


def jit_static(f, static, like=None):
    """``jax.jit(f)`` with ``static`` argument names; a call whose static value
    is unhashable (a list for ``axes``, say) runs ``f`` eagerly instead."""
    jf = jax.jit(f, static_argnames=list(static))

    @functools.wraps(like or f)
    def g(*args, **kwargs):
        try:
            return jf(*args, **kwargs)
        except (TypeError, ValueError) as e:
            if "hashable" not in str(e):
                raise
            return f(*args, **kwargs)
    return g


def wrap(jfn, name=None, named=None, axis_kw="axis"):
    """Declare a NumPy function over NamedArrays from its ``jax.numpy`` twin.

    ``named`` says what a *named* axis argument means: ``"keep"`` (the axis
    survives, e.g. ``sort``, ``cumsum``: the name is given back), ``"reduce"``
    (the axis is consumed), or ``None`` (names are refused).
    """
    name = name or jfn.__name__
    axis_pos = None
    try:
        params = list(inspect.signature(jfn).parameters)
        if axis_kw in params:
            axis_pos = params.index(axis_kw)
    except (TypeError, ValueError):
        pass

    @functools.wraps(jfn)
    def f(*args, out=None, **kwargs):
        res = _generic(name, jfn, args, kwargs, axis_pos, named, axis_kw)
        return _store_out(name, out, res) if out is not None else res
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    f.__doc__ = (f"``numpy.{name}`` on NamedArrays; named axes are mapped over"
                 + (", and ``axis`` may name them." if named else ".")
                 + f"\n\nSee ``numpy.{name}`` for the semantics.")
    try:
        f.__signature__ = inspect.signature(jfn)
    except (TypeError, ValueError):
        pass
    return f

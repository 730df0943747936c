"""One reduction engine.

``reduction(jfn, collective=...)`` declares a NumPy reduction from its
``jax.numpy`` twin.  The ``axis`` argument may mix ints and names:

* ints and ``None`` are positional axes (``None``: all positional axes; named
  axes are kept), which are physical dims ``0..ndim-1`` by the layout rule;
* a name that is a physical dimension of the operand joins the same single
  ``jax.numpy`` reduce (the batching rule of ``psum``: one reduce op in HLO);
* a name bound by an enclosing ``nmap`` is reduced locally first and then by
  the collective of the parallel layer (``psum``, ``pmax``, ...); reductions
  without one (``median``, ``std``, ...) ``all_gather`` the name first.
"""
from __future__ import annotations

import functools
import inspect
import math
import operator
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from .. import parallel
from ..core import config as _config, hooks
from ..core.cache import Cache
from ..core.array import NamedArray, View, new, normalize_axis, operand, positional
from ..core.align import align
from ..core.dims import has_names as _named_axis, split_axis
from ..core.sharding import sortable
from ..frontend.engines import fperr
from .masked import reduce as _reduce_selection
from ..frontend.engines.out import store_reduced as _store_out
from ..frontend.engines.results import RUNTIME_ERRORS, fast_result as _result, reraise
from ..frontend.engines.selection import lazy as _lazy

# ufunc name -> its reduction (add -> sum, ...): filled by reductions/table.py
REDUCE_OF_UFUNC: dict = {}

# reductions whose function of (data, axis) is jax.numpy computation only (no
# eager-only check or warning): the fast path calls it compiled with a static
# axis, which skips jax.numpy's Python argument handling on every call
_COMPILED = {"sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all"}


def _broadcasts_to(shape, target) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` (NumPy's rule)."""
    return len(shape) <= len(target) and all(
        s in (1, t) for s, t in zip(shape[::-1], target[::-1]))


def _split_axis(fn, axis, x):
    """-> (positional physical axes tuple or None for all, names tuple, was_scalar)"""
    return split_axis(fn, axis, x.ndim)


def whole_axes(jfn):
    """``jfn(data, axis, ...)`` given the reduced axes whole on every device
    (gathered where Explicit mesh axes partition them): for the reductions
    that sort (``median``, ``quantile``), which JAX refuses on a partitioned axis,
    and ``prod``, whose derivative JAX cannot take over one."""
    @functools.wraps(jfn)
    def f(d, axis=None, *args, **kwargs):
        return jfn(sortable(d), axis, *args, **kwargs)
    return f


def index_axis(axis):
    """``axis`` as NumPy reads it: an integer of any kind (a NumPy integer, a
    0-d integer array) by ``operator.index``; names, tuples and lists item by
    item; anything else as it is (for the caller's error)."""
    if axis is None or type(axis) in (int, str, bool):
        return axis
    if isinstance(axis, (tuple, list)):
        return type(axis)(index_axis(v) for v in axis)
    try:
        return operator.index(axis)
    except TypeError:
        return axis


def reduction(jfn, name=None, collective=None, flat_none=False, takes_tuple=True,
              local=None):
    """Declare a NumPy reduction over NamedArrays.

    ``collective``: the parallel primitive for names an enclosing map holds
    part of, called as ``collective(local_result, names)``; ``None`` -> gather
    the whole axes first.
    ``local``: what each instance reduces of its part before the collective,
    where that is not ``jfn`` (``mean``: the sum, then one division by the whole
    count, not a mean of means); the collective is then called as
    ``collective(local_result, names, count)``, ``count`` the elements each
    instance reduces along the other axes.
    ``flat_none``: the function flattens for ``axis=None`` (``argmax``).
    ``takes_tuple``: the ``jax.numpy`` function accepts a tuple ``axis``.
    """
    name = name or jfn.__name__
    params = list(inspect.signature(jfn).parameters)
    has_keepdims = "keepdims" in params

    np_fn = getattr(onp, name, None)
    wants: dict = {}   # input dtype -> NumPy's result dtype (plain calls, no cast first)
    fast = jax.jit(jfn, static_argnums=1) if name in _COMPILED else jfn
    checked = name in fperr.REDUCTIONS    # (by NumPy's floating-point error state)
    fp_state, fp_last = fperr.STATE, fperr.LAST

    @functools.wraps(jfn)
    def f(a, axis=None, *args, out=None, **kwargs):
        if axis is not None and type(axis) not in (int, str, tuple):
            axis = index_axis(axis)
        # fast path: a plain call over a positional axis, or over one physical name
        # (not where NumPy's error state asks for a check: engines/fperr.py)
        if type(a) in (NamedArray, View) and not args and not kwargs and out is None and (
                not checked or (fp_state.get() is fp_last[0] and fp_last[1] is None)):
            d, dims = a.data, a.dims
            want = wants.get(d.dtype)
            if want is not None:
                if (axis is None or type(axis) is int) and dims.count(None) == len(dims):
                    try:
                        r = fast(d, axis)
                    except (ValueError, TypeError):
                        return slow(a, axis)   # for the error message
                    return _result(r, want, (None,) * r.ndim, a.mapped)
                if type(axis) is str and axis in dims and not a.mapped:
                    i = dims.index(axis)
                    return _result(fast(d, i), want, dims[:i] + dims[i + 1:])
                if type(axis) is tuple and takes_tuple and not a.mapped:
                    plan = _tuple_plan(axis, dims, d.ndim)
                    if plan is not None:
                        return _result(fast(d, plan[0]), want, plan[1])
        return slow(a, axis, *args, out=out, **kwargs)

    def slow(a, axis=None, *args, out=None, **kwargs):
        kd = kwargs.get("keepdims", False)
        if not isinstance(kd, (bool, onp.bool_)):
            try:        # NumPy reads keepdims as an int
                kwargs = {**kwargs, "keepdims": bool(operator.index(kd))}
            except TypeError:
                raise TypeError(f"{name}: keepdims={kd!r}: '{type(kd).__name__}' object "
                                "cannot be interpreted as an integer") from None
        if kwargs.get("where") is not None and not isinstance(kwargs["where"], NamedArray):
            kwargs = {**kwargs, "where": positional(jnp.asarray(kwargs["where"], bool))}
        if _lazy(a):    # a boolean-mask selection: where= on the full buffer
            return _reduce_selection(name, slow, a, axis, args,
                                     kwargs if out is None else {**kwargs, "out": out})
        x = operand(a)
        if not isinstance(x, NamedArray):
            x = positional(jnp.asarray(x))
        w = kwargs.get("where")
        if w is not None and not _broadcasts_to(w.shape, x.shape):
            # NumPy broadcasts the mask to the operand, never the operand to the mask
            raise ValueError(f"{name}: where= of shape {w.shape} does not broadcast to "
                             f"the operand's shape {x.shape}")
        if kwargs.get("dtype") is not None and x.dtype.kind == "c" and \
                onp.dtype(kwargs["dtype"]) == bool and name not in ("var", "std"):
            # a complex number is true where either part is nonzero (XLA's cast to
            # bool reads the real part only); var/std subtract the mean in complex
            x = new(x.data != 0, x.dims, x.mapped)
        want = None
        if np_fn is not None and _config.numpy_dtypes():
            want = numpy_dtype(name, np_fn, x.dtype, kwargs.get("dtype"), args)
            if want.kind in "fc" and x.dtype.kind in "biu":
                x = new(x.data.astype(want), x.dims, x.mapped)  # compute as NumPy does
            elif not args and kwargs.get("dtype") is None:
                wants[x.dtype] = want
        if isinstance(axis, (list, tuple)) and len(axis) == 0:
            axis = ()
        positional_call = x.dims.count(None) == len(x.dims) and not _named_axis(axis)
        if positional_call:
            try:
                r = jfn(x.data, axis, *args, **_strip_kw(kwargs))
                res = new(r, (None,) * r.ndim, x.mapped)
            except (ValueError, TypeError, *RUNTIME_ERRORS) as e:
                if isinstance(axis, int) and not isinstance(axis, bool) and not (
                        x.ndim == 0 and axis in (0, -1)):   # (a 0-d array's whole)
                    normalize_axis(name, axis, x.ndim)
                reraise(name, e)
        else:
            res = _named(name, jfn, x, axis, args, kwargs, collective, flat_none,
                         takes_tuple, has_keepdims, local)
        if checked and not args and onp.all(onp.isfinite(kwargs.get("initial", 0))):
            st = fperr.state()
            if st is not None:
                w = kwargs.get("where")
                w = None if w is None else jnp.broadcast_to(w.data, x.data.shape) if (
                    positional_call and not w.names) else False
                if w is not False:
                    ax = (tuple(range(x.ndim)) if axis is None else axis) if \
                        positional_call else None
                    fperr.check_reduce(res.data, x.data, ax, kwargs.get("keepdims", False),
                                       w, st)
                else:       # a named mask: every element looked at is in x
                    fperr.check_reduce(res.data, x.data, None, False, None, st)
        if want is not None and res.dtype != want:
            res = new(res.data.astype(want), res.dims, res.mapped)
        return _store_out(name, out, res) if out is not None else res
    f.__name__ = f.__qualname__ = name
    f.__module__ = "namedarray"
    ref = f"numpy.{name}" if np_fn is not None else "scipy.special." + name
    f.__doc__ = (f"``{ref}``; ``axis`` may mix ints and axis names.\n\n"
                 f"See ``{ref}`` for the semantics.")
    if np_fn is not None:   # NumPy's signature, not jax.numpy's extras
        try:
            f.__signature__ = inspect.signature(np_fn)
        except (TypeError, ValueError):
            pass
    return f


_TUPLE_PLANS = Cache()


def _tuple_plan(axis, dims, ndim):
    """(jax.numpy's axis argument, result dims) of a reduction over a tuple
    ``axis`` of physical names and positional ints, cached by (axis, dims);
    ``None`` where the general path must decide (or raise)."""
    key = (axis, dims)
    plan = _TUPLE_PLANS.get(key, False)
    if plan is False:
        idx = _physical(axis, dims)
        plan = None if idx is None else (
            idx if len(idx) < ndim else None,   # all of them: jax.numpy's axis=None
            tuple(n for k, n in enumerate(dims) if k not in idx))
        _TUPLE_PLANS.put(key, plan)
    return plan


def _physical(axis, dims):
    """The physical dims of a tuple ``axis`` of names (physical ones) and in-range
    ints, or ``None`` where the general path must decide (or raise)."""
    npos = dims.count(None)
    idx = []
    for ax in axis:
        if type(ax) is str:
            if ax not in dims:
                return None
            idx.append(dims.index(ax))
        elif type(ax) is int and -npos <= ax < npos:
            idx.append(ax % npos)
        else:
            return None
    return tuple(idx) if len(set(idx)) == len(idx) else None


@functools.lru_cache(maxsize=None)
def _numpy_dtype(name, np_fn, dtype, dtype_kw, nargs):
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        args = (0.5,) * nargs
        kw = {} if dtype_kw is None else {"dtype": dtype_kw}
        return onp.asarray(np_fn(onp.ones(2, dtype), *args, axis=0, **kw)).dtype


def numpy_dtype(name, np_fn, dtype, dtype_kw, args):
    """The dtype NumPy's ``name`` gives for this input dtype (found once, by
    calling NumPy on a two-element array, then cached)."""
    try:
        return _numpy_dtype(name, np_fn, onp.dtype(dtype), None if dtype_kw is None
                            else onp.dtype(dtype_kw), len(args))
    except TypeError:
        return onp.dtype(dtype)


def _strip_kw(kwargs):
    return {k: (v.data if isinstance(v, NamedArray) and not v.names else v)
            for k, v in kwargs.items()}


def _named(fn, jfn, x, axis, args, kwargs, collective, flat_none, takes_tuple, has_kd,
           local=None):
    pos, names, scalar = _split_axis(fn, axis, x)
    keepdims = kwargs.get("keepdims", False)
    where = kwargs.get("where")
    if isinstance(where, NamedArray):
        # the mask broadcasts against the positional axes, by name on the named ones
        (wd, xd), dims, mapped = align(fn, [where, x])
        if xd.shape != wd.shape:
            xd = jnp.broadcast_to(xd, jnp.broadcast_shapes(xd.shape, wd.shape))
        x = new(xd, dims, mapped)
        kwargs = {**kwargs, "where": wd}
    # names that are not whole dimensions of the data: mapped away, or split
    # into blocks (the parallel layer says which, and complains if unknown)
    _, elsewhere = parallel.local_names(fn, x, names)
    partial = tuple(elsewhere)
    gathered = 0
    if partial and (collective is None or where is not None):
        # no collective for this reduction, or a mask that must meet the whole
        # axes (a mask varying along a name reduces each instance's part
        # differently): gather the whole axes first, the mask too.  A
        # reduction that flattens its axes (argmax) gathers every name, so
        # they flatten in the order given, as the physical call's do
        take = names if not takes_tuple else partial
        g = parallel.gather_names(fn, x, take)
        if where is not None:
            w = new(jnp.broadcast_to(kwargs["where"], x.data.shape), x.dims, x.mapped)
            kwargs = {**kwargs, "where": parallel.gather_names(fn, w, take).data}
        gathered = k = len(take)
        pos = tuple(k + i for i in (pos if pos is not None else range(x.ndim))) + \
            tuple(range(k))
        x = g
        names = tuple(n for n in names if n not in take)
        partial, elsewhere = (), {}
        scalar = False
    # physical dimensions (whole axes, and this instance's blocks of split
    # names) join the one local reduce; the collective then spans the maps
    phys = tuple(x.dims.index(n) for n in names if n in x.dims)
    if pos is None:
        pos = tuple(range(x.ndim))
        scalar = False
    all_axes = pos + phys
    data = x.data
    n = x.ndim
    count = None
    if partial and local is not None:
        jfn = local
        # (a split name's block counts in the collective's whole size)
        count = math.prod(data.shape[i] for i in all_axes if x.dims[i] not in partial)
    if flat_none and axis is None and n != 1:
        # jnp flattens everything for axis=None; flatten only the positional axes
        data = data.reshape((-1,) + data.shape[n:])
        if keepdims:
            kwargs = {**kwargs, "keepdims": False}
        res = jfn(data, 0, *args, **_strip_kw(kwargs))
        if keepdims:
            res = res.reshape((1,) * n + res.shape)
        return new(res, (None,) * (n if keepdims else 0) + x.dims[n:], x.mapped)
    if not takes_tuple and len(all_axes) != 1:
        # move all reduced axes to the front and flatten them into one
        keep = [i for i in range(data.ndim) if i not in all_axes]
        data = jnp.transpose(data, all_axes + tuple(keep)) if all_axes else data[None]
        data = data.reshape((-1,) + tuple(data.shape[len(all_axes) or 1:]) if all_axes
                            else data.shape)
        res = jfn(data, 0, *args, **_strip_kw({k: v for k, v in kwargs.items()
                                               if k != "keepdims"}))
        dims = tuple(x.dims[i] for i in keep)
        if keepdims:
            shp = list(res.shape)
            for i in sorted(pos):
                shp.insert(i, 1)
            res = res.reshape(shp)
            dims = (None,) * n + tuple(d for d in dims if d is not None)
        out = new(res, dims)
    else:
        ax = all_axes[0] if len(all_axes) == 1 and (scalar or not takes_tuple) else all_axes
        res = jfn(data, ax, *args, **_strip_kw(kwargs))
        if keepdims:
            removed = set(phys)
            dims = tuple(d for i, d in enumerate(x.dims) if i not in removed)
            if phys:
                res = res.squeeze(axis=phys)
        else:
            removed = set(all_axes)
            dims = tuple(d for i, d in enumerate(x.dims) if i not in removed)
        out = new(res, dims)
    if keepdims and gathered:   # the gathered names were axes of x only here
        out = new(out.data.reshape(out.data.shape[gathered:]), out.dims[gathered:])
    out = new(out.data, out.dims, tuple({**dict(x.mapped), **elsewhere}.items()))
    if partial:
        out = collective(out, partial) if count is None else collective(out, partial, count)
    return out


def ufunc_reduce(uf, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
                 where=True):
    """``ufunc.reduce`` of the checked operand ``a`` through the engine: the
    matching reduction of the table, else the ufunc's own fold, whose steps
    meet NumPy's floating-point error state as NumPy's loop meets them
    ("... encountered in reduce").  The ufunc calls it through
    ``core.hooks.ufunc_reduce`` (this layer sits above the ufunc engine)."""
    red = REDUCE_OF_UFUNC.get(uf.__name__)
    kw = {"keepdims": keepdims}
    if dtype is not None:
        kw["dtype"] = dtype
    if initial is not None:
        kw["initial"] = initial
    if where is not True:
        kw["where"] = where
    if red is not None:
        return red(a, axis, out=out, **kw)
    jred = lambda d, axis, **k: uf._jfn.reduce(d, axis=axis, **k)  # noqa: E731
    res = reduction(jred, name=f"{uf.__name__}.reduce")(a, axis, out=out, **kw)
    st = fperr.state()
    if st is not None and not a.names and not a.mapped and not _named_axis(axis):
        w = None if where is True else operand(where)
        if w is None or not getattr(w, "names", ()):
            d = a.data if dtype is None else a.data.astype(dtype)
            fperr.check_fold(uf._np.__name__, uf._jfn, d, axis,
                             None if w is None else jnp.asarray(getattr(w, "data", w)),
                             initial, st)
    return res


hooks.ufunc_reduce = ufunc_reduce

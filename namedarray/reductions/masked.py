"""Reductions of boolean-mask selections on their full buffers
(``engines/selection.py``): ``where=`` over the mask, or, along a named mask,
the unselected entries filled with the reduction's identity so that the named
reduction stays a plain one (a collective under ``nmap``).
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as onp

from ..core.array import new, positional
from ..core.align import align
from ..frontend.engines.masks import size_error, traced
from ..frontend.engines.selection import Selection, _mname


#: reductions that take ``where=`` (NumPy's set), computed on the full buffers
WHERE_REDUCTIONS = {"sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all",
                    "nansum", "nanprod", "nanmean", "std", "var", "nanstd", "nanvar"}


_NEEDS_INITIAL = {"max", "min", "amax", "amin"}


# --------------------------------------------------------------------------
# reductions: where= on the full buffers
# --------------------------------------------------------------------------
def reduce(name, run, s, axis, args, kwargs):
    """``run(x, axis, *args, **kwargs)`` (a reduction) of the lazy selection ``s``."""
    if name not in WHERE_REDUCTIONS or args or kwargs.get("out") is not None or \
            kwargs.get("where") is not None:
        return run(s._materialized(), axis, *args, **kwargs)
    f, k = s._full, s._k
    n = s.ndim
    single = axis is None or isinstance(axis, (int, str, onp.integer))
    axes = tuple(range(n)) if axis is None else ((axis,) if single else tuple(axis))
    pos, names = [], []
    for a in axes:
        if isinstance(a, str):
            names.append(a)
        else:
            try:
                i = int(a)
            except TypeError:
                return run(s._materialized(), axis, *args, **kwargs)
            if not -n <= i < n:
                return run(s._materialized(), axis, *args, **kwargs)  # NumPy's error
            pos.append(i % n)
    if k:
        consumed = 0 in pos
        full_pos = [j for i in pos for j in (range(k) if i == 0 else (k + i - 1,))]
    else:
        consumed = _mname(s._mask) in names
        full_pos = pos
    full_axis = tuple(full_pos) + tuple(names)
    if axis is not None and single and len(full_axis) == 1:
        full_axis = full_axis[0]
    if not consumed:    # the mask's axes survive: the result is a selection again
        return Selection(run(f, full_axis, **kwargs), s._mask, k, s._count)
    s._settle()         # the mask and the buffer: one call (they share their terms)
    f = s._full
    kw = dict(kwargs)
    fill = None
    if k:
        kw["where"] = _where_for(s._mask, f)
    elif name in _FILL:
        # along a name: the unselected entries become the identity, so the
        # reduction over the name is the plain named one (a collective in a map)
        fill = _FILL[name]
    elif _mname(s._mask) in f.dims:
        kw["where"] = s._mask
    else:
        return run(s._materialized(f"{name} of x[mask] over a name a map holds"), axis,
                   *args, **kwargs)
    if name in _NEEDS_INITIAL and kw.get("initial") is None:
        if s._count is None and traced(s._mask.data):
            raise size_error(f"{name} of x[mask]", f"x[mask].{name}(initial=v) or "
                             f"np.{name}(x, where=mask, initial=v)")
        if s.count() == 0:
            return run(s._materialized(), axis, **kwargs)       # NumPy's empty error
        kw["initial"] = _lowest(f.dtype) if name in ("max", "amax") else _highest(f.dtype)
    if fill is not None:
        (md, fd), dims, mapped = align(name, [s._mask, f])
        f = new(jnp.where(md, fd, jnp.asarray(fill(f.dtype), f.dtype)), dims, mapped)
    res = run(f, full_axis, **kw)
    if kwargs.get("keepdims") and k > 1:
        res = new(res.data.reshape((1,) + res.data.shape[k:]), res.dims[k - 1:], res.mapped)
    return res


_FILL = {"sum": lambda dt: 0, "nansum": lambda dt: 0, "prod": lambda dt: 1,
         "nanprod": lambda dt: 1, "any": lambda dt: False, "all": lambda dt: True,
         "max": lambda dt: _lowest(dt), "amax": lambda dt: _lowest(dt),
         "min": lambda dt: _highest(dt), "amin": lambda dt: _highest(dt)}


def _where_for(m, f):
    """The positional mask broadcast against ``f``'s positional axes (its
    names broadcast by name)."""
    npos = f.dims.count(None)
    return positional(m.data.reshape(m.data.shape + (1,) * (npos - m.ndim)))


def _extreme(dt, top):
    """The largest (``top``) or smallest value of ``dt``: the identity of min
    (or max)."""
    dt = onp.dtype(dt)
    if dt.kind == "b":
        return top
    if dt.kind in "iu":
        return onp.iinfo(dt).max if top else onp.iinfo(dt).min
    return onp.inf if top else -onp.inf


def _lowest(dt):
    return _extreme(dt, False)


def _highest(dt):
    return _extreme(dt, True)

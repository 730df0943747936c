"""Histograms: ``histogram``, ``histogram_bin_edges``, ``histogram2d``,
``histogramdd``, ``bincount`` and ``digitize``.

``histogram`` and ``histogram_bin_edges`` with NumPy's own steps
(``numpy/lib/_histograms_impl.py``), each in the dtype NumPy computes it in:
the outer edges (the data's extremes, or ``range`` as given), the edges by
NumPy's ``linspace`` in the promoted dtype, a value's bin from its offset over
the range (then corrected against the edges), densities ``n / widths / n.sum()``.
So edges, counts and densities of float16 or float32 data are NumPy's bit for bit,
not a float64 or a ``jax.numpy`` computation of them.  A string ``bins`` (NumPy's
estimators, 'auto', 'fd', ...) takes NumPy's estimate of the data's values, so it
needs concrete data (under ``jax.jit`` pass an int).

>>> import namedarray as np
>>> h, e = np.histogram(np.asarray([0.5, 1.0, 1.0], dtype=np.float16), bins=2)
>>> h, e
(array([1, 2]), array([0.5 , 0.75, 1.  ], dtype=float16))
>>> np.histogram(np.asarray([1, 2, 2, 5]), bins=[0, 2, 6], density=True)[0]
array([0.125 , 0.1875])
"""
from __future__ import annotations

import operator
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import NamedArray
from .creation import asarray
from .elementwise import exact_divide
from .engines.assign import check_cast
from .engines.declare import _checked, _decl, _host
from .engines.dispatch import FLOATS, Computes
from .engines.fperr import _stacklevel
from .engines.generic import wrap

_UNSIGNED = {onp.dtype(s): onp.dtype(u) for s, u in
             zip("bhilq", "BHILQ")}


def _cast(x, dt):
    """``x.astype(dt)`` rounded once, as NumPy casts: float64 to float16 goes
    through float32 rounded to odd (XLA's float64 -> float32 -> float16 would
    round twice)."""
    dt = onp.dtype(dt)
    if not (x.dtype == onp.float64 and dt == onp.float16):
        return x.astype(dt)
    r = x.astype(onp.float32)
    back = r.astype(onp.float64)
    r = jnp.where(jnp.abs(back) > jnp.abs(x), jnp.nextafter(r, jnp.zeros_like(r)), r)
    bits = jax.lax.bitcast_convert_type(r, onp.uint32)
    odd = jax.lax.bitcast_convert_type(bits | 1, onp.float32)
    r = jnp.where((r.astype(onp.float64) != x) & jnp.isfinite(x), odd, r)
    return r.astype(dt)


def _concrete(*vs):
    return not any(isinstance(v, jax.core.Tracer) for v in vs)


def _proto(v):
    """What NumPy's promotion sees of a ``range`` value: a Python scalar is weak
    (kept as it is), anything else its dtype."""
    if type(v) in (int, float, complex, bool):
        return v
    return onp.asarray(v.data if isinstance(v, NamedArray) else v).dtype


def _value(v):
    return v.data if isinstance(v, NamedArray) else v


def _outer_edges(fn, a, range):
    """NumPy's ``_get_outer_edges``: (first, last, their promotion protos)."""
    if range is not None:
        first, last = (_value(v) for v in range)
        if _concrete(first, last):
            if first > last:
                raise ValueError(f"{fn}: max must be larger than min in range parameter.")
            if not (onp.isfinite(first) and onp.isfinite(last)):
                raise ValueError(f"{fn}: supplied range of [{first}, {last}] is not finite")
            if first == last:
                first, last = first - 0.5, last + 0.5
        pf, pl = _proto(first), _proto(last)
        return first, last, pf, pl
    if a.size == 0:
        return 0, 1, 0, 1
    first, last = jnp.min(a), jnp.max(a)
    if a.dtype.kind == "c":    # NumPy's min and max of complex data: the first NaN
        nan = jnp.isnan(a.real) | jnp.isnan(a.imag)
        some = a[jnp.argmax(nan)]
        first, last = jnp.where(nan.any(), some, first), jnp.where(nan.any(), some, last)
    p = a.dtype
    if _concrete(a):
        if not (bool(jnp.isfinite(first)) and bool(jnp.isfinite(last))):
            raise ValueError(f"{fn}: autodetected range of [{first}, {last}] is not finite")
        if bool(first == last):
            p = onp.result_type(a.dtype, 0.5)
            first, last = first.astype(p) - 0.5, last.astype(p) + 0.5
    else:       # under a transformation the same, by value
        p = onp.result_type(a.dtype, 0.5)
        eq = first == last
        first = jnp.where(eq, first.astype(p) - 0.5, first.astype(p))
        last = jnp.where(eq, last.astype(p) + 0.5, last.astype(p))
    return first, last, p, p


def _linspace(first, last, pf, pl, num, dtype):
    """``numpy.linspace(first, last, num, dtype=dtype)``, step by step in
    NumPy's computation dtype."""
    dt = onp.result_type(pf, pl, 0.0)
    if dt.kind not in "fc":
        dt = onp.result_type(dt, float)
    start, stop = jnp.asarray(first, dt), jnp.asarray(last, dt)
    div = num - 1
    delta = stop - start
    step = exact_divide(delta, jnp.asarray(div, dt))
    y = jnp.arange(num, dtype=dt)
    y = jnp.where(step == 0, exact_divide(y, jnp.asarray(div, dt)) * delta, y * step)
    y = (y + start).at[-1].set(stop)
    return _cast(y, dtype)


def _equal_bins(fn, a, n, first, last, pf, pl):
    """The edges of ``n`` equal bins: NumPy's bin dtype and ``linspace``."""
    bin_type = onp.result_type(pf, pl, a.dtype)
    if bin_type.kind in "biu":
        bin_type = onp.result_type(bin_type, float)
    edges = _linspace(first, last, pf, pl, n + 1, bin_type)
    if _concrete(edges) and bool(jnp.any(jnp.greater_equal(edges[:-1], edges[1:]))):
        raise ValueError(f"{fn}: Too many bins for data range. Cannot create {n} "
                         "finite-sized bins.")
    return edges


def _as(v, p, dt):
    """A value of proto ``p`` in dtype ``dt`` (a Python int beyond ``dt``'s
    range stays out of it: clipped one past the end, for comparisons)."""
    if type(p) is int and onp.dtype(dt).kind in "iu":
        info = onp.iinfo(dt)
        return jnp.asarray(min(max(p, info.min), info.max), dt), p < info.min, p > info.max
    return jnp.asarray(v, dt), False, False


def _keep(a, first, last, pf, pl):
    """``(a >= first) & (a <= last)`` in NumPy's comparison dtypes."""
    lo, below, _ = _as(first, pf, onp.result_type(a.dtype, pf))
    hi, _, above = _as(last, pl, onp.result_type(a.dtype, pl))
    ge = jnp.ones(a.shape, bool) if below else jnp.greater_equal(a.astype(lo.dtype), lo)
    le = jnp.ones(a.shape, bool) if above else jnp.less_equal(a.astype(hi.dtype), hi)
    return ge & le


def _difference(x, y, dt):
    """NumPy's ``_unsigned_subtract``: ``x - y`` in ``dt``, wrapped into the
    unsigned type of a signed integer ``dt``."""
    u = _UNSIGNED.get(onp.dtype(dt))
    if u is None:
        return jnp.asarray(x, dt) - jnp.asarray(y, dt)
    return jnp.asarray(x, dt).astype(u) - jnp.asarray(y, dt).astype(u)


def _sum_weights(idx, keep, w, n, ntype):
    """``numpy.bincount(idx, weights=w)`` (float64 sums, complex parts apart)
    cast to ``ntype``; values outside the range (``keep`` False) count nothing."""
    if w is None:
        return jnp.zeros(n, ntype).at[idx].add(keep.astype(ntype))
    if ntype.kind == "c":
        re = jnp.zeros(n, onp.float64).at[idx].add(jnp.where(keep, w.real, 0))
        im = jnp.zeros(n, onp.float64).at[idx].add(jnp.where(keep, w.imag, 0))
        part = onp.empty(0, ntype).real.dtype
        return jax.lax.complex(re.astype(part), im.astype(part))
    s = jnp.zeros(n, onp.float64).at[idx].add(jnp.where(keep, w.astype(onp.float64), 0))
    return s.astype(ntype) if ntype.kind != "b" else s != 0


def _uniform_counts(fn, a, w, edges, n, first, last, pf, pl, ntype):
    """NumPy's counting over equal bins: a value's bin from its offset over the
    range (``(a - first) / (last - first) * n`` in NumPy's dtypes), then moved
    one down or up where the edges say otherwise."""
    keep = _keep(a, first, last, pf, pl)
    t = a.astype(edges.dtype)
    diff_dt = onp.result_type(edges.dtype, pf)
    den_dt = onp.result_type(pl, pf)
    den = _difference(last, first, den_dt)
    f_dt = onp.result_type(diff_dt, _UNSIGNED.get(den_dt, den_dt))
    f = exact_divide(_difference(t, first, diff_dt).astype(f_dt), den.astype(f_dt)) * jnp.asarray(
        n, f_dt)
    if f_dt.kind == "c":
        f = f.real
    idx = jnp.where(keep, f, 0).astype(onp.intp)
    idx = jnp.where(idx == n, n - 1, idx)
    first_look = idx
    idx = idx - jnp.less(t, edges[idx]).astype(idx.dtype)
    second_look = idx + 1
    up = jnp.greater_equal(t, edges[idx + 1]) & (idx != n - 1)
    idx = jnp.where(keep, idx + up.astype(idx.dtype), 0)
    if t.dtype.kind == "c" and _concrete(t):    # the real part's bin may be any
        _check_bins(fn, keep, first_look, second_look, idx, n)
    return _sum_weights(idx, keep, w, n, ntype)


def _check_bins(fn, keep, first, second, final, n):
    """NumPy's errors where complex data's bins (from the real part of a complex
    offset) fall outside the edges: IndexError looking them up, ValueError
    counting a negative one."""
    keep = onp.asarray(keep)
    for look in (first, second):
        v = onp.asarray(look)[keep]
        bad = v[(v < -(n + 1)) | (v > n)]
        if bad.size:
            raise IndexError(f"{fn}: index {bad[0]} is out of bounds for axis 0 with size "
                             f"{n + 1}")
    if (onp.asarray(final)[keep] < 0).any():
        raise ValueError(f"{fn}: 'list' argument must have no negative elements")


def _running_sum(fn, w, ntype):
    """``numpy.cumsum(w)`` added into ``ntype`` as NumPy's ``cum_n += ...``:
    floats one by one in their dtype (a scan; XLA's parallel prefix rounds
    otherwise), integers exactly; a bool total refused as NumPy refuses it."""
    cdt = onp.zeros(1, ntype).cumsum().dtype
    if not onp.can_cast(cdt, ntype, "same_kind"):
        raise TypeError(f"{fn}: Cannot cast ufunc 'add' output from dtype('{cdt}') to "
                        f"dtype('{ntype}') with casting rule 'same_kind'")
    if cdt.kind in "fc":
        def step(c, v):
            c = c + v
            return c, c
        return jax.lax.scan(step, jnp.zeros((), cdt), w.astype(cdt))[1].astype(ntype)
    return jnp.cumsum(w, dtype=cdt).astype(ntype)


def _edge_counts(fn, a, w, edges, ntype):
    """NumPy's counting over given edges: the sorted data searched for each
    edge (the last one inclusive), weights summed as differences of their
    running sum."""
    dt = onp.result_type(a.dtype, edges.dtype)
    order = jnp.argsort(a.astype(dt), stable=True)
    sa = a.astype(dt)[order]
    e = edges.astype(dt)
    pos = jnp.concatenate([jnp.searchsorted(sa, e[:-1], side="left"),
                           jnp.searchsorted(sa, e[-1:], side="right")])
    if w is None:
        return jnp.diff(pos.astype(ntype))
    cw = jnp.concatenate([jnp.zeros(1, ntype), _running_sum(fn, w[order], ntype)])
    return jnp.diff(cw[pos])


def _pairwise(x):
    """NumPy's pairwise sum of a 1-d float array: up to 8 values one by one,
    up to 128 in 8 running sums, longer ones halved (at a multiple of 8)."""
    n = x.shape[0]
    if n < 8:
        res = jnp.asarray(-0.0, x.dtype)
        for i in range(n):
            res = res + x[i]
        return res
    if n <= 128:
        m = n - n % 8
        r = x[:8]
        for i in range(8, m, 8):
            r = r + x[i:i + 8]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for i in range(m, n):
            res = res + x[i]
        return res
    h = n // 2 - (n // 2) % 8
    return _pairwise(x[:h]) + _pairwise(x[h:])


def _total(counts):
    """``counts.sum()`` as NumPy sums: integers exactly in its dtype, real
    floats pairwise (float16 in float32), complex by XLA."""
    dt = counts.dtype
    if dt.kind == "f":
        wide = onp.float32 if dt == onp.float16 else dt
        return _pairwise(counts.astype(wide)).astype(dt)
    return counts.sum().astype(onp.zeros(1, dt).sum().dtype)


def _estimated(fn, a, bins, range, weights):
    """The number of equal bins NumPy's estimator ``bins`` ('auto', 'fd',
    'doane', 'scott', 'stone', 'rice', 'sturges', 'sqrt') picks for the data:
    NumPy's own estimate of the values (they must be concrete)."""
    if not _concrete(a, weights):
        raise TypeError(f"{fn}: bins={bins!r} estimates the number of bins from the data's "
                        "values, which are not known under jax.jit/vmap or inside nmap; "
                        "pass an int bins (or the edges) instead")
    rng = None if range is None else tuple(onp.asarray(_value(v)).item() for v in range)
    w = None if weights is None else onp.asarray(weights)
    try:
        edges = onp.histogram_bin_edges(onp.asarray(a), bins, rng, w)
    except (ValueError, TypeError) as e:
        raise type(e)(f"{fn}: {e}") from None
    return len(edges) - 1


def _bins_arg(fn, bins):
    """``bins`` as NumPy reads it: (a count, None) or (None, 1-d edges)."""
    if onp.ndim(_value(bins)) == 0:
        try:
            n = operator.index(_value(bins))
        except TypeError:
            raise TypeError(f"{fn}: `bins` must be an integer, a string, or an array "
                            f"(got {bins!r})") from None
        if n < 1:
            raise ValueError(f"{fn}: `bins` must be positive, when an integer (got {n})")
        return n, None
    if onp.ndim(_value(bins)) != 1:
        raise ValueError(f"{fn}: `bins` must be 1d, when an array")
    edges = jnp.asarray(_value(bins))
    if _concrete(edges) and bool(jnp.any(jnp.greater(edges[:-1], edges[1:]))):
        raise ValueError(f"{fn}: `bins` must increase monotonically, when an array")
    return None, edges


def _from_bool(a):
    """NumPy's conversion of bool data to uint8 for a histogram, with its warning."""
    if a.dtype != bool:
        return a
    warnings.warn("Converting input from bool to <class 'numpy.uint8'> for "
                  "compatibility.", RuntimeWarning, stacklevel=_stacklevel())
    return a.astype(onp.uint8)


def _histogram(fn, a, bins, range, density, weights):
    """(counts, edges) of positional ``jax`` data, NumPy's steps."""
    if weights is not None:
        weights = jnp.asarray(weights)
        if weights.shape != jnp.shape(a):
            raise ValueError(f"{fn}: weights should have the same shape as a "
                             f"({weights.shape} vs {jnp.shape(a)}).")
        weights = jnp.ravel(weights)
    a = _from_bool(jnp.ravel(a))
    if isinstance(bins, str):
        bins = _estimated(fn, a, bins, range, weights)
    n, edges = _bins_arg(fn, bins)
    ntype = onp.dtype(onp.intp) if weights is None else onp.dtype(weights.dtype)
    if n is not None:
        first, last, pf, pl = _outer_edges(fn, a, range)
        edges = _equal_bins(fn, a, n, first, last, pf, pl)
        counts = _uniform_counts(fn, a, weights, edges, n, first, last, pf, pl, ntype)
    else:
        counts = _edge_counts(fn, a, weights, edges, ntype)
    if density:
        db = jnp.diff(edges).astype(onp.float64)
        r = exact_divide(counts, db)
        total = _total(counts)
        counts = exact_divide(r, total.astype(onp.result_type(r.dtype, total.dtype)))
    return counts, edges


def _edges_only(fn, a, bins, range, weights):
    weights = None if weights is None else jnp.asarray(weights)
    a = _from_bool(jnp.ravel(a))
    if isinstance(bins, str):
        bins = _estimated(fn, a, bins, range, weights)
    n, edges = _bins_arg(fn, bins)
    if n is None:
        return jnp.asarray(_value(bins))
    first, last, pf, pl = _outer_edges(fn, a, range)
    return _equal_bins(fn, a, n, first, last, pf, pl)


_hist = wrap(lambda a, bins, range, density, weights: _histogram(
    "histogram", a, bins, range, density, weights), "histogram")
_edges = wrap(lambda a, bins, range, weights: _edges_only(
    "histogram_bin_edges", a, bins, range, weights), "histogram_bin_edges")


def _float64_when(i, name, given=bool):
    """The dtypes (``engines.dispatch.Computes``) of a function that computes
    in float64 under NumPy's dtype rules, whatever the data, when its argument
    ``name`` (position ``i``; -1: always) is ``given`` (``density``: a
    histogram's densities; ``weights``: ``bincount``'s weighted counts): a
    TPU only emulates float64, not to the last bit."""
    def computes(args, kwargs):
        v = True if i < 0 else kwargs[name] if name in kwargs else (
            args[i] if len(args) > i else None)
        return (onp.dtype(onp.float64),) if given(v) and config.numpy_dtypes() else ()
    return computes


def histogram(a, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram``: counts ``intp`` (the weights' dtype when given),
    densities float64, edges in NumPy's dtype (float64 for bool and integer
    data), each step as NumPy computes it; a string ``bins`` needs concrete data."""
    w = None if weights is None else asarray(weights)
    return _hist(asarray(a), bins, range, density, w)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """``numpy.histogram_bin_edges``: the edges ``histogram`` uses; given edges
    are returned as they are."""
    return _edges(asarray(a), bins, range, weights)


_bincount = _decl("bincount")


def _real_bins(x, bins, right=False):
    for arg, v in (("x", x), ("bins", bins)):
        if jnp.iscomplexobj(v):
            raise TypeError(f"digitize: {arg} may not be complex (NumPy cannot cast "
                            "complex data to float64 with the rule 'safe')")
    b = jnp.asarray(bins)
    if b.ndim == 1 and b.shape[0] > 1 and not isinstance(b, jax.core.Tracer):
        d = onp.diff(onp.asarray(b))    # (where the bins are known: not traced)
        if not ((d >= 0).all() or (d <= 0).all()):
            raise ValueError(f"digitize: bins must be monotonically increasing or "
                             f"decreasing (got {onp.asarray(b).tolist()})")
    return (x, bins, right), {}


# jax.numpy: complex input and unsorted bins are not NumPy's errors
digitize = _checked("digitize", _real_bins)


# jax.numpy: negative input is not NumPy's ValueError; small integers overflow
def bincount(x, weights=None, minlength=0, *, length=None):
    """``numpy.bincount``; negative input raises ``ValueError`` as in NumPy."""
    if minlength is not None and not isinstance(minlength, (NamedArray, jax.Array)) and \
            operator.index(minlength) < 0:
        raise ValueError(f"bincount: 'minlength' must not be negative (got {minlength})")
    if isinstance(x, (list, tuple)):
        # NumPy reads a sequence as intp (non-integer values truncated, with
        # its DeprecationWarning); an array must cast to intp safely
        h = onp.asarray(x)
        if h.dtype.kind not in "biu" and h.size:
            warnings.warn("bincount: Non-integer input passed to bincount. In a future "
                          "version of NumPy, this will be an error. (Deprecated NumPy "
                          "2.1)", DeprecationWarning, stacklevel=2)
        x = h.astype(onp.intp) if h.dtype.kind not in "iu" else h
    dt = onp.dtype(getattr(x, "dtype", None) or onp.asarray(x).dtype)
    if dt.kind not in "biu":
        raise TypeError(f"bincount: Cannot cast array data from {dt!r} to "
                        f"{onp.dtype(onp.intp)!r} according to the rule 'safe'")
    if dt == bool:
        x = asarray(x).astype(onp.intp)
    h = _host(x)
    if h is not None and h.size and h.min() < 0:
        raise ValueError("bincount: 'list' argument must have no negative elements")
    if h is not None and h.size and (int(h.max()) + 1) * 8 > 2**63 - 1:
        # NumPy's error (its count overflows at the int64 maximum)
        raise ValueError("bincount: array is too big; `arr.size * arr.dtype.itemsize` "
                         f"is larger than the maximum possible size (the largest value "
                         f"is {int(h.max())})")
    kw = {} if length is None else {"length": length}
    if weights is not None and config.numpy_dtypes():
        # NumPy counts weights in double precision: any weights that cast to
        # float64 safely (float16, int8, bool: a float64 result), else TypeError
        w = asarray(weights)
        check_cast("bincount", w.dtype, onp.float64, "safe")
        weights = w.astype(onp.float64)
    if h is not None and h.dtype.kind in "iu" and h.dtype.itemsize < 8:
        # counted as intp, as NumPy does (jnp's max + 1 overflowed int8 at 127)
        x = asarray(x).astype(onp.intp)
    return _bincount(x, weights, minlength, **kw)


def _dd_edges(fn, col, b, rng, i):
    """NumPy's edges along one dimension of ``histogramdd``: ``b`` equal bins
    over the range (``linspace`` of the outer edges), or the given edges."""
    if onp.ndim(_value(b)) == 0:
        if _concrete(_value(b)) and b < 1:
            raise ValueError(f"{fn}: `bins[{i}]` must be positive, when an integer")
        first, last, pf, pl = _outer_edges(fn, col, rng)
        try:
            n = operator.index(_value(b))
        except TypeError:
            raise TypeError(f"{fn}: `bins[{i}]` must be an integer, when a scalar") from None
        return _linspace(first, last, pf, pl, n + 1, onp.result_type(pf, pl, 0.0))
    if onp.ndim(_value(b)) != 1:
        raise ValueError(f"{fn}: `bins[{i}]` must be a scalar or 1d array")
    e = jnp.asarray(_value(b))
    if _concrete(e) and bool(jnp.any(e[:-1] > e[1:])):
        raise ValueError(f"{fn}: `bins[{i}]` must be monotonically increasing, when an "
                         "array")
    return e


def _histogramdd(sample, bins=10, range=None, density=None, weights=None,
                 fn="histogramdd"):
    """NumPy's ``histogramdd`` (``numpy/lib/_histograms_impl.py``) on jax data
    ``sample`` of shape (N, D): each value's bin by ``searchsorted`` of the
    edges (the last edge inclusive), counted into float64 (weights summed in
    float64), outliers dropped, densities divided by each dimension's widths
    in turn, then by the total."""
    D = sample.shape[1]
    if weights is not None:
        weights = jnp.asarray(weights)
    if isinstance(bins, (list, tuple)) or onp.ndim(_value(bins)) > 0:
        if len(bins) != D:
            raise ValueError(f"{fn}: The dimension of bins must be equal to the "
                             "dimension of the sample x.")
    else:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError(f"{fn}: range argument must have one entry per dimension")
    edges = [_dd_edges(fn, sample[:, i], bins[i], range[i], i) for i in builtins_range(D)]
    nbin = tuple(e.shape[0] + 1 for e in edges)    # (an outlier bin at each end)
    flat = jnp.zeros((), onp.intp)
    for i, e in enumerate(edges):
        col = sample[:, i]
        k = jnp.searchsorted(e, col, side="right").astype(onp.intp)
        k = k - (col == e[-1]).astype(onp.intp)      # the last edge is inclusive
        flat = flat * nbin[i] + k
    total = 1
    for n in nbin:
        total *= n
    if weights is None:
        hist = jnp.zeros(total, onp.intp).at[flat].add(1).astype(onp.float64)
    else:
        hist = jnp.zeros(total, onp.float64).at[flat].add(weights.astype(onp.float64))
    hist = hist.reshape(nbin)[(slice(1, -1),) * D]
    if density:
        tot = hist.sum()
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = exact_divide(hist, jnp.diff(e).reshape(shape))
        hist = exact_divide(hist, tot)
    return hist, edges


builtins_range = range
_hdd = wrap(_histogramdd, "histogramdd")


def _sample_dd(sample):
    """``sample`` as NumPy reads it: an (N, D) array, or else a sequence of D
    coordinate arrays (``atleast_2d(sample).T``)."""
    x = sample if isinstance(sample, NamedArray) else asarray(sample)
    if isinstance(sample, (list, tuple)) or x.ndim != 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x
        x = x.T
    return x


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """``numpy.histogramdd`` as NumPy computes it: counts float64; edges of
    ``bins`` equal bins by NumPy's ``linspace`` in its dtype, given edges kept
    as they are (their dtype too)."""
    w = None if weights is None else asarray(weights)
    hist, edges = _hdd(_sample_dd(sample), bins, range, density, w)
    return hist, list(edges)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram2d``: ``histogramdd`` of ``[x, y]`` (one array of
    ``bins`` is the edges of both dimensions)."""
    x, y = asarray(x), asarray(y)
    if len(x) != len(y):
        raise ValueError("histogram2d: x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


histogram.computes = Computes(True, _float64_when(3, "density"))
# (histogramdd's counts are float64 whatever the data, NumPy's)
histogramdd.computes = histogram2d.computes = Computes(True, _float64_when(-1, ""))
bincount.computes = Computes(False, _float64_when(1, "weights", lambda w: w is not None))
digitize.computes = histogram_bin_edges.computes = FLOATS   # (NumPy's float64 edges)


__all__ = ["histogram", "histogram_bin_edges", "bincount", "digitize", "histogram2d",
           "histogramdd"]

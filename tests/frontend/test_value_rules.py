"""NumPy's rules over whole tables of functions (docs/design.md), each table
checked as a user meets it (small eager data on the host tier) and with
every call compiled (the same table in a process with
``NAMEDARRAY_HOST_TIER=off``): each ``table_*`` function runs its table
against NumPy and returns the rows that differ.

* the kind of a predicate's result (a Python ``bool`` where NumPy gives one);
* NumPy's own helpers (``format_float_positional``, ``min_scalar_type``, ...)
  given a scalar see NumPy's scalar, as NumPy's would;
* every write into a read-only array (NumPy's read-only views and whatever
  is made of them, ``setflags``) raises NumPy's ``ValueError`` before anything
  else is checked, empty ones included;
* every function that writes values into an array casts them as NumPy's
  assignment does (``engines/assign.py``);
* NumPy's methods and results of a kind: builtin ``round`` (arrays have none),
  the in-place ``sort``/``partition`` axis, ``linspace``'s step, ``conj`` of a
  real array (the array itself), ``bincount``'s float64 weights;
* NumPy's order and precision of special values: a running total or an
  accumulate is a left fold (an overflow stays ``inf``, a NaN a comparison
  meets stays), a complex product with ``where=``/``initial=`` multiplies only
  what it selects, a normalized transform scales each part by a real factor,
  a statistic of half precision is computed in float32, a complex ``dtype=``
  divides by a complex count; a scalar prints as NumPy's scalar.
"""
import json
import os
import subprocess
import sys
import warnings

import numpy as onp
import pytest

import namedarray as np
from namedarray.core.array import NamedArray, is_scalar

DTYPES = [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.uint16,
          onp.uint32, onp.uint64, onp.float16, onp.float32, onp.float64, onp.complex64,
          onp.complex128]


def kind(v):
    """What kind of value ``v`` is, as NumPy's rules name it."""
    if isinstance(v, NamedArray):
        return "scalar" if is_scalar(v) else "array"
    if isinstance(v, onp.generic):
        return "scalar"
    if isinstance(v, onp.ndarray):
        return "array"
    if isinstance(v, (tuple, list)):
        return [kind(e) for e in v]
    return type(v).__name__


def outcome(f, *args, rtol=None, **kwargs):
    """``f``'s result as (kind, dtype, shape, values) or ("raises", its builtin
    exception classes); ``rtol``: inexact values kept as an array, compared
    by ``_agree``."""
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            r = f(*args, **kwargs)
        except Exception as e:      # noqa: BLE001 -- the class is compared
            return ("raises", sorted(c.__name__ for c in type(e).__mro__
                                     if c.__module__ == "builtins" and c not in (
                                         Exception, BaseException, object)))
    if type(r) in (str, bytes, bool, int, float, complex, type(None)) or isinstance(
            r, (onp.dtype, type)):
        return (kind(r), repr(r))
    if isinstance(r, (tuple, list)):
        return [outcome(lambda e=e: e, rtol=rtol) for e in r]
    a = onp.asarray(r)
    if rtol is not None and a.dtype.kind in "fc":
        return (kind(r), str(a.dtype), a.shape, _Close(a, rtol))
    return (kind(r), str(a.dtype), a.shape, repr(a.tolist()))


class _Close:
    """Inexact values equal to ``rtol`` where finite, with the same special
    values (NaN, the sign of an infinity) in every part."""

    def __init__(self, a, rtol):
        self.a, self.rtol = a, rtol

    def __eq__(self, other):
        parts = (lambda v: (v.real, v.imag)) if self.a.dtype.kind == "c" else (
            lambda v: (v,))
        for x, y in zip(parts(self.a), parts(other.a)):
            x, y = x.astype(onp.float64), y.astype(onp.float64)
            if not (onp.array_equal(onp.isnan(x), onp.isnan(y)) and onp.array_equal(
                    onp.where(onp.isinf(x), x, 0), onp.where(onp.isinf(y), y, 0))):
                return False
            ok = onp.isfinite(x) & onp.isfinite(y)
            if not onp.allclose(x[ok], y[ok], rtol=self.rtol, atol=self.rtol):
                return False
        return True

    def __repr__(self):
        return repr(self.a.tolist())


def mine(v):
    """The namedarray twin of a NumPy argument: an array as a NamedArray, a
    NumPy scalar as namedarray's scalar."""
    if isinstance(v, onp.ndarray):
        return np.asarray(v)
    if isinstance(v, onp.generic):
        return np.asarray(v)[()]
    if isinstance(v, list):
        return [mine(e) for e in v]
    return v


def compare(rows, rtol=None):
    """The rows ``(label, numpy's call, namedarray's call)`` whose outcomes
    differ (inexact values to ``rtol``, if given)."""
    bad = []
    for label, want, got in rows:
        w, g = outcome(want, rtol=rtol), outcome(got, rtol=rtol)
        if w != g and not (w[0] == g[0] == "raises" and set(w[1]) & set(g[1])):
            bad.append(f"{label}: numpy {w}, namedarray {g}")
    return bad


def _values(dt):
    dt = onp.dtype(dt)
    if dt.kind == "b":
        return [True]
    if dt.kind in "iu":
        return [1, onp.iinfo(dt).max]
    if dt.kind == "f":
        return [0.1, 2.0, -0.0, onp.inf, onp.nan]
    return [0.1 + 2j, 3 + 0j, complex(onp.inf, 1)]


# ------------------------------------------------------------------- tables

def table_predicate_kinds():
    """``isreal`` is ``imag(x) == 0``: of a Python number a Python bool; the
    type and value predicates give NumPy's kinds for every operand kind."""
    operands = [2.0, 1j, 3, True, [1, 2j], [[1.5]]]
    for dt in (onp.bool_, onp.int8, onp.uint64, onp.float16, onp.float32, onp.complex64,
               onp.complex128):
        v = onp.asarray(_values(dt)[0], dtype=dt)
        operands += [v[()], v, v.reshape(1)]
    rows = []
    for name in ("isreal", "iscomplex", "isrealobj", "iscomplexobj", "isscalar", "isnan",
                 "isneginf", "real", "imag", "real_if_close"):
        for x in operands:
            rows.append((f"{name}({x!r})", lambda n=name, x=x: getattr(onp, n)(x),
                         lambda n=name, x=x: getattr(np, n)(mine(x))))
    for name in ("isreal", "iscomplex", "isrealobj", "iscomplexobj", "isscalar"):
        rows.append((f"{name}(2**70)", lambda n=name: getattr(onp, n)(2**70),
                     lambda n=name: getattr(np, n)(2**70)))
    return compare(rows)


def table_numpy_helpers_see_numpy_scalars():
    """NumPy's own helpers given namedarray's scalar answer as given NumPy's:
    ``format_float_positional`` of a float32 scalar prints its shortest
    digits (a 0-d array's are float64's), ``min_scalar_type`` reads the
    value, ..."""
    helpers = {
        "format_float_positional": lambda m, x: m.format_float_positional(x),
        "format_float_scientific": lambda m, x: m.format_float_scientific(x),
        "format_float_positional(precision=3)":
            lambda m, x: m.format_float_positional(x, precision=3, unique=False),
        "min_scalar_type": lambda m, x: m.min_scalar_type(x),
        "iterable": lambda m, x: m.iterable(x),
        "isnat": lambda m, x: m.isnat(x),
        "can_cast": lambda m, x: m.can_cast(x, m.float32),
        "binary_repr": lambda m, x: m.binary_repr(x),
        "base_repr": lambda m, x: m.base_repr(x, 3),
        "ndim": lambda m, x: m.ndim(x),
        "shape": lambda m, x: m.shape(x),
    }
    rows = []
    for dt in DTYPES:
        for v in _values(dt):
            for as_array in (False, True):
                x = onp.asarray(v, dtype=dt)
                x = x if as_array else x[()]
                for name, h in helpers.items():
                    rows.append((f"{name}({x!r})", lambda h=h, x=x: h(onp, x),
                                 lambda h=h, x=x: h(np, mine(x))))
    return compare(rows)


def _module(x):
    return onp if isinstance(x, onp.ndarray) else np


def _read_only(m, name, dt, shape):
    """NumPy's read-only results (``m``: numpy or namedarray)."""
    base = m.asarray(onp.arange(int(onp.prod(shape))).reshape(shape).astype(dt))
    if name == "setflags":
        base.setflags(write=False)
        return base
    return {"diagonal": lambda: base.diagonal(),
            "diagonal(1)": lambda: m.diagonal(base, 1),
            "linalg.diagonal": lambda: m.linalg.diagonal(base),
            "broadcast_to": lambda: m.broadcast_to(base, (2,) + shape),
            "sliding_window_view": lambda: m.lib.stride_tricks.sliding_window_view(
                base, 1, axis=0),
            "frombuffer": lambda: m.frombuffer(onp.arange(4, dtype=dt).tobytes(), dt),
            }[name]()


_MADE_OF = {"": lambda v: v, "[::-1]": lambda v: v[::-1], "[None].T": lambda v: v[None].T,
            "flip": lambda v: _module(v).flip(v)}
_WRITES = {
    "x[...] = 1": lambda x: x.__setitem__(Ellipsis, 1),
    "x[0] = 1": lambda x: x.__setitem__(0, 1),
    "x[[0]] = 1": lambda x: x.__setitem__([0], 1),
    "x[x > 0] = 1": lambda x: x.__setitem__(x > 0, 1),
    "x.flat[0] = 1": lambda x: x.flat.__setitem__(0, 1),
    "x.fill(1)": lambda x: x.fill(1),
    "x += 1": lambda x: x.__iadd__(1),
    "x.sort()": lambda x: x.sort(),
    "x.partition(0)": lambda x: x.partition(0),
    "put": lambda x: _module(x).put(x, [0], [5]),
    "copyto": lambda x: _module(x).copyto(x, 5),
    "place": lambda x: _module(x).place(x, x >= 0, [5]),
    "putmask": lambda x: _module(x).putmask(x, x >= 0, 5),
    "negative(x, out=x)": lambda x: _module(x).negative(x, out=x),
    "clip(x, 0, 1, out=x)": lambda x: _module(x).clip(x, 0, 1, out=x),
    "fill_diagonal": lambda x: _module(x).fill_diagonal(x, 3),
    "random.shuffle": lambda x: _module(x).random.shuffle(x),
}


def table_writes_into_read_only_arrays():
    """Every write form into every read-only result (and views made of it):
    NumPy's ``ValueError`` (checked first: a bool one's ``+= 1`` and an
    empty one's ``x[0] = 1`` too), never a write that is accepted."""
    rows = []
    for shape, dt in (((2, 3), onp.float64), ((1, 1), onp.bool_)):
        for name in ("diagonal", "diagonal(1)", "linalg.diagonal", "broadcast_to",
                     "sliding_window_view", "setflags", "frombuffer"):
            for made, f in _MADE_OF.items():
                for w, write in _WRITES.items():
                    def call(m, name=name, dt=dt, shape=shape, f=f, write=write):
                        x = f(_read_only(m, name, dt, shape))
                        write(x)
                        return x
                    rows.append((f"{name}{made} of {dt.__name__}{shape}: {w}",
                                 lambda c=call: c(onp), lambda c=call: c(np)))
    return compare(rows)


_ASSIGN_DTYPES = [onp.bool_, onp.int8, onp.uint64, onp.int64, onp.float16, onp.complex128]
_ASSIGN_VALUES = [True, -1, 300, 2**63, 1.5, onp.nan, onp.inf, 1j, [300], [1j],
                  onp.int8(-3), onp.complex64(1j), onp.array(1.5), onp.array([1], onp.int8),
                  onp.array([1.5]), onp.array([1j])]
# (not NumPy's NaN array into an integer dtype: C's undefined behaviour, saturating
# here: docs/differences.md, 'Casting floats that do not fit to integers')


def table_writers_cast_as_numpys_assignment():
    """``x[mask] = v``, ``put``, ``place``, ``putmask``,
    ``fill_diagonal``, ``put_along_axis``, ``copyto`` of every kind of value into
    every dtype: NumPy's values (a negative int8 into uint64 wraps, a complex
    into bool is its truth, 2**63 into bool or float16 fits) or NumPy's error
    (an int beyond an integer dtype, a NaN or infinity into one, a complex into
    a real one; an array ``place``/``putmask`` cannot cast safely)."""
    writers = {
        "x[mask] = v": lambda m, a, mask, v: a.__setitem__(mask, v),
        "put": lambda m, a, mask, v: m.put(a, [0], v),
        "place": lambda m, a, mask, v: m.place(a, mask, v),
        "putmask": lambda m, a, mask, v: m.putmask(a, mask, v),
        "fill_diagonal": lambda m, a, mask, v: m.fill_diagonal(a, v),
        "put_along_axis": lambda m, a, mask, v: m.put_along_axis(
            a, m.asarray(onp.zeros((1, 2), onp.intp)), v, 0),
        "copyto": lambda m, a, mask, v: m.copyto(a, v, where=mask),
    }
    rows = []
    for w, write in writers.items():
        for dt in _ASSIGN_DTYPES:
            for v in _ASSIGN_VALUES:
                def call(m, write=write, dt=dt, v=v):
                    big = onp.array([[2**62 + 1, 3], [5, 2**53 + 1]]) if dt == onp.int64 \
                        else onp.arange(4).reshape(2, 2)
                    a = m.array(big.astype(dt))
                    mask = m.asarray(onp.array([[True, False], [False, True]]))
                    write(m, a, mask, mine(v) if m is np else v)
                    return a
                rows.append((f"{w} of {v!r} into {dt.__name__}", lambda c=call: c(onp),
                             lambda c=call: c(np)))
    return compare(rows)


def table_methods_numpy_arrays_lack_or_refuse():
    """Builtin ``round`` of an array raises (NumPy's arrays have no
    ``__round__``; its scalars do: a Python int, or a scalar of the dtype);
    the in-place ``sort``/``partition`` take an integer axis only."""
    rows = []
    for dt in DTYPES:
        v = onp.asarray(_values(dt)[0], dtype=dt)
        for x in (v[()], v, v.reshape(1), v.reshape(1, 1)):
            for nd in ((), (None,), (1,), (-1,)):
                rows.append((f"round({x!r}, *{nd})", lambda x=x, nd=nd: round(x, *nd),
                             lambda x=x, nd=nd: round(mine(x), *nd)))
    for method in ("sort", "partition"):
        for axis in (None, (0,), 0, -1, 1.0, onp.int64(0)):
            args = (0,) if method == "partition" else ()

            def call(m, method=method, axis=axis, args=args):
                a = m.asarray(onp.array([[3, 1], [2, 0]]))
                getattr(a, method)(*args, axis=axis)
                return a
            rows.append((f"a.{method}(axis={axis!r})", lambda c=call: c(onp),
                         lambda c=call: c(np)))
    return compare(rows)


def table_linspace_step():
    """``linspace(..., retstep=True)``'s step: NumPy's scalar, or Python's
    ``nan`` where no step exists (0 samples, 1 with the endpoint)."""
    rows = []
    for start, stop in ((0, 1), (0.5, 2.0), ([0, 1], [2, 3]), (onp.float32(0), 1)):
        for num in (0, 1, 2, 5):
            for endpoint in (True, False):
                rows.append((f"linspace({start!r}, {stop!r}, {num}, {endpoint})",
                             lambda a=start, b=stop, n=num, e=endpoint: onp.linspace(
                                 a, b, n, e, retstep=True),
                             lambda a=start, b=stop, n=num, e=endpoint: np.linspace(
                                 mine(a), mine(b), n, e, retstep=True)))
    return compare(rows)


def table_array_methods_of_their_kind():
    """``conj``/``conjugate`` of a real array is the array itself (its dtype:
    a bool array's is bool; the ufunc gives int8); ``bincount`` counts
    weights in float64 (any weights that cast to it safely; else NumPy's
    ``TypeError``)."""
    rows = []
    for dt in DTYPES:
        v = onp.asarray(_values(dt)[0], dtype=dt)
        for x in (v[()], v, v.reshape(2 * (1,))):
            for m in ("conj", "conjugate"):
                rows.append((f"{x!r}.{m}()", lambda x=x, m=m: getattr(x, m)(),
                             lambda x=x, m=m: getattr(mine(x), m)()))
                if isinstance(x, onp.ndarray):      # (an array's own: the same array)
                    rows.append((f"{x!r}.{m}() is x", lambda x=x, m=m: getattr(x, m)() is x,
                                 lambda x=x, m=m: (lambda y: getattr(y, m)() is y)(mine(x))))
        w = onp.asarray([1, 0, 1]).astype(dt)
        rows.append((f"bincount(weights={w!r})",
                     lambda w=w: onp.bincount(onp.asarray([0, 1, 1]), weights=w),
                     lambda w=w: np.bincount(np.asarray([0, 1, 1]), weights=mine(w))))
    return compare(rows)


def table_pad_statistics_in_numpys_precision():
    """``pad``'s mean and median of integers in float64 (rounded into the
    dtype), of float16 in float32: near float16's maximum no overflow."""
    rows = []
    for data in (onp.array([60000, 65000, 65504], onp.float16),
                 onp.array([[60000, 65000], [65504, 1]], onp.float16),
                 onp.array([1, 2, 4], onp.int8), onp.array([2.5, -1.0, 3.0], onp.float32)):
        for mode in ("mean", "median", "maximum", "minimum"):
            for width in (1, (1, 2)):
                rows.append((f"pad({data!r}, {width}, {mode!r})",
                             lambda d=data, w=width, m=mode: onp.pad(d, w, mode=m),
                             lambda d=data, w=width, m=mode: np.pad(mine(d), w, mode=m)))
    return compare(rows)


_SPECIAL = [1.0, -2.0, 0.0, -0.0, onp.inf, -onp.inf, onp.nan, 3.5]


def table_accumulate_folds_in_order():
    """``ufunc.accumulate`` is NumPy's left fold, ``out[i] = f(out[i-1], x[i])``,
    with the ufunc's own special values: ``maximum.accumulate`` of complex data
    keeps a NaN once met (as of real data), ``fmax`` leaves one out."""
    rows = []
    cplx = onp.array([1, complex(onp.nan, 0), 2, complex(0, onp.nan), -1j, 3 + 1j])
    real = onp.array(_SPECIAL)
    for name in ("maximum", "minimum", "fmax", "fmin", "remainder", "floor_divide", "power",
                 "add"):
        for data in (cplx, real, cplx.reshape(2, 3), real.reshape(2, 4).astype(onp.float32)):
            if data.dtype.kind == "c" and name in ("remainder", "floor_divide"):
                continue
            for axis in range(data.ndim):
                rows.append((f"{name}.accumulate({data!r}, axis={axis})",
                             lambda n=name, d=data, a=axis: getattr(onp, n).accumulate(d, a),
                             lambda n=name, d=data, a=axis: getattr(np, n).accumulate(
                                 mine(d), a)))
    return compare(rows, rtol=1e-6)


def table_running_totals_follow_numpys_loop():
    """``cumsum``, ``cumprod`` and their ``nan`` and ``cumulative_`` forms are
    NumPy's running totals: a sum that overflows stays ``inf`` (an order that
    adds the opposite overflow first gives NaN), of every length (XLA's scan
    of a long axis combines in a tree)."""
    rows = []
    for dt in (onp.float16, onp.float32, onp.float64, onp.complex128):
        big = float(onp.finfo(dt).max)
        for n in (5, 142):
            d = onp.resize(onp.array([big, big / 2, -big, 1.0, -big / 3]), n).astype(dt)
            d2 = onp.resize(onp.array([big, 2.0, 0.5, big, -1.0]), n).astype(dt)
            for data in (d, d.reshape(2, -1) if n % 2 == 0 else d, d2, onp.where(
                    onp.arange(n) == 3, onp.nan, d).astype(dt)):
                for name in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                             "cumulative_prod"):
                    axes = [None, 0] if data.ndim == 1 else [0, 1]
                    for axis in axes:
                        rows.append((f"{name}({dt.__name__}[{data.shape}], axis={axis})",
                                     lambda f=name, x=data, a=axis: getattr(onp, f)(x, axis=a),
                                     lambda f=name, x=data, a=axis: getattr(np, f)(
                                         mine(x), axis=a)))
    return compare(rows, rtol=2e-3)


def table_complex_products_multiply_what_they_select():
    """A complex ``prod``/``nanprod`` with ``initial=`` or ``where=`` is NumPy's
    fold from ``initial`` (or 1+0j) over the selected elements only: an
    infinite ``initial`` with nothing selected is itself, not NaN parts."""
    z = onp.array([[-1j, 1j, complex(onp.inf, 1)], [2, complex(0, -onp.inf), 1e308]])
    masks = [None, onp.array([[True, False, True], [False, False, False]]),
             onp.zeros((2, 3), bool)]
    rows = []
    for name in ("prod", "nanprod"):
        for data in (z, z.astype(onp.complex64), onp.where(z == 2, onp.nan, z)):
            for initial in (None, 1e300, complex(onp.inf, onp.inf), -1, 2j):
                for where in masks:
                    for axis in (None, 0, 1):
                        if initial is None and where is None:
                            continue
                        kw = {"axis": axis}
                        if initial is not None:
                            kw["initial"] = initial
                        if where is not None:
                            kw["where"] = where
                        rows.append((f"{name}({data.dtype}, {kw})",
                                     lambda f=name, d=data, k=kw: getattr(onp, f)(d, **k),
                                     lambda f=name, d=data, k=kw: getattr(np, f)(
                                         mine(d), **{a: mine(v) for a, v in k.items()})))
    return compare(rows, rtol=1e-5)


def table_moments_with_an_inexact_dtype():
    """``var``/``std`` (and ``nan`` forms, ``mean``) with a ``dtype=`` of
    another precision or kind take NumPy's steps: a complex ``dtype=``
    divides by a complex count (``inf / (n+0j)`` is ``inf+nanj``)."""
    rows = []
    for data in (onp.array([1e300, -1e300, 1.0]), onp.array([1.0, 2.0, 4.0]),
                 onp.array([onp.inf, 1.0, 2.0]), onp.array([1 + 2j, 3, 1e200j]),
                 onp.array([[1.5, onp.nan], [2.0, 8.0]], onp.float32)):
        for name in ("var", "std", "nanvar", "nanstd", "mean", "nanmean"):
            for dt in (onp.complex128, onp.complex64, onp.float32, onp.float64):
                if data.dtype.kind == "c" and onp.dtype(dt).kind == "f" and \
                        name.startswith("nan"):
                    continue        # (NumPy's TypeError, compared elsewhere)
                rows.append((f"{name}({data!r}, dtype={dt.__name__})",
                             lambda f=name, d=data, t=dt: getattr(onp, f)(d, dtype=t),
                             lambda f=name, d=data, t=dt: getattr(np, f)(mine(d), dtype=t)))
    return compare(rows, rtol=1e-5)


def table_transforms_scale_each_part():
    """Every FFT with every ``norm`` of data holding infinities: NumPy's parts
    (a normalization scales real and imaginary parts by a real factor, so an
    infinite part's partner keeps its value); ``irfftn``/``irfft2`` over one
    axis of float16 data give float16, over more float32."""
    rows = []
    data = [onp.array([onp.inf, 1.0, 0.0, -2.0]), onp.array([[onp.inf, 1.0, 0.0],
                                                            [0.0, -onp.inf, 2.5]]),
            onp.array([[1.0, complex(onp.inf, 1.0)], [complex(2.0, -onp.inf), 0.0]])]
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn",
                 "ifftn", "rfft2", "rfftn", "irfft2", "irfftn"):
        for d in data:
            if (name.endswith("2") and d.ndim < 2) or (
                    d.dtype.kind == "c" and name in ("rfft", "ihfft", "rfft2", "rfftn")):
                continue
            for norm in (None, "ortho", "forward"):
                rows.append((f"fft.{name}({d!r}, norm={norm!r})",
                             lambda f=name, d=d, n=norm: getattr(onp.fft, f)(d, norm=n),
                             lambda f=name, d=d, n=norm: getattr(np.fft, f)(mine(d), norm=n)))
    half = onp.ones((2, 3), onp.float16)
    for name, kw in (("irfftn", {}), ("irfftn", {"axes": (1,)}), ("irfft2", {"axes": (0,)}),
                     ("irfft2", {}), ("irfft", {}), ("hfft", {})):
        for d in (half, half[0]):
            if name == "irfft2" and d.ndim < 2 or name == "irfftn" and "axes" in kw and \
                    d.ndim < 2:
                continue
            rows.append((f"fft.{name}(float16{d.shape}, {kw})",
                         lambda f=name, d=d, k=kw: getattr(onp.fft, f)(d, **k),
                         lambda f=name, d=d, k=kw: getattr(np.fft, f)(mine(d), **k)))
    return compare(rows, rtol=1e-3)


def table_scalars_print_as_numpys():
    """``str``/``repr`` of a scalar are NumPy's scalar's, a 0-d array's its
    array's, under every ``legacy`` print option (``"1.13"`` prints a float32
    scalar's shortest digits, a 0-d array's float64 ones)."""
    rows = []
    for legacy in (False, "1.13", "1.21"):
        for dt in (onp.float16, onp.float32, onp.float64, onp.complex64, onp.int8, onp.bool_):
            for v in (0.1, 1 / 3, 1e20):
                with onp.errstate(all="ignore"):
                    x = onp.array(v).astype(dt)
                for form in ("scalar", "0-d", "1-d"):
                    def show(m, x=x, form=form, legacy=legacy):
                        y = mine(x) if m is np else x
                        y = y[()] if form == "scalar" else y.reshape(1) if form == "1-d" else y
                        with onp.printoptions(legacy=legacy):
                            return str(y), repr(y)
                    rows.append((f"{form} {x!r} legacy={legacy}", lambda s=show: s(onp),
                                 lambda s=show: s(np)))
    return compare(rows)


def table_reductions_with_initial_none():
    """``initial=None`` is no initial value: a reduction without ``where=``
    answers as without it; with a ``where=`` mask NumPy's ``ValueError`` (the
    mask needs an initial value, identity or not)."""
    rows = []
    mask = onp.array([[True, False], [False, True]])
    for name in ("sum", "prod", "max", "min", "nansum", "nanprod", "nanmax", "nanmin"):
        for data in (onp.array([[1.5, -2.0], [onp.nan, 4.0]]), onp.array([[1, 2], [3, 4]])):
            for where in (None, mask):
                for axis in (None, 0):
                    kw = {"axis": axis, "initial": None}
                    if where is not None:
                        kw["where"] = where
                    rows.append((f"{name}({data.dtype}, {kw})",
                                 lambda f=name, d=data, k=kw: getattr(onp, f)(d, **k),
                                 lambda f=name, d=data, k=kw: getattr(np, f)(
                                     mine(d), **{a: mine(v) for a, v in k.items()})))
    return compare(rows)


def table_piecewise_values_cast_as_numpys_assignment():
    """``piecewise`` with values that are no function assigns them as NumPy's
    assignment does (an int beyond the data's integer dtype, a NaN or a
    complex into a real one: NumPy's error)."""
    rows = []
    for dt in _ASSIGN_DTYPES:
        for v in _ASSIGN_VALUES:
            if isinstance(v, (list, onp.ndarray)):
                continue
            x = onp.arange(4).astype(dt)
            rows.append((f"piecewise({dt.__name__}, value {v!r})",
                         lambda x=x, v=v: onp.piecewise(x, [x > 1], [v, 0]),
                         lambda x=x, v=v: np.piecewise(mine(x), [mine(x) > 1],
                                                       [mine(v), 0])))
    return compare(rows)


TABLES = sorted(n for n in dir() if n.startswith("table_"))


# ------------------------------------------------------------------- tests

@pytest.mark.parametrize("table", TABLES)
def test_table_as_a_user_meets_it(table):
    bad = globals()[table]()
    assert not bad, "\n".join(bad[:20]) + f"\n({len(bad)} rows)"


def run_all():
    """Every table's differing rows (what the compiled process prints)."""
    return {t: globals()[t]() for t in TABLES}


@pytest.fixture(scope="module")
def compiled():
    code = ("import json, sys; sys.path.insert(0, %r); import test_value_rules as t; "
            "print(json.dumps(t.run_all()))" % os.path.dirname(__file__))
    env = dict(os.environ, NAMEDARRAY_HOST_TIER="off", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("table", TABLES)
def test_table_with_every_call_compiled(table, compiled):
    bad = compiled[table]
    assert not bad, "\n".join(bad[:20]) + f"\n({len(bad)} rows)"

"""Differential fuzz against NumPy over every public function ``namedarray``
shares with ``numpy`` (top level, ``linalg``, ``fft``), enumerated from the two
namespaces so that a new function is picked up: it must join a family below or
the commented exclusion list (``test_every_public_function_is_fuzzed``).

Each family draws its arguments -- dtypes (every integer width, uint64
included, floats, complex, bool), shapes (0-size, 0-d), axes (out of range
too), index arrays in and out of range, NumPy scalars, namedarray's scalars
(``Scalar``), Python complex numbers and big Python ints as operands (of
functions and of Python's operators, forward, reflected and in place),
``out=``/``where=``/``dtype=``/``casting=`` on every ufunc -- and
each call must give NumPy's value, dtype and result kind (NumPy scalar, 0-d
array, tuple, Python value; tuples element by element), NumPy's repr for exact
results, leave every array argument as NumPy leaves it (written where NumPy
writes, untouched elsewhere: aliasing), or raise NumPy's exception class.
Deliberate deviations are in
``DEVIATIONS``; calls that once crashed or hung the interpreter run in a
subprocess with a timeout (``test_crash_candidates_in_a_subprocess``).

``HYPOTHESIS_PROFILE=fuzz`` runs it long (``-k`` a family or a function);
``ci`` runs a small fixed slice: a few examples of every function.
``NAMEDARRAY_FUZZ_JIT=1`` also runs every call under ``jax.jit``."""
import inspect
import operator
import os
import subprocess
import sys
import warnings

import jax
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from namedarray.core.array import NamedArray, is_scalar
from namedarray.testing import strategies as nst

DTYPES = list(nst.DTYPES)
#: the dtypes of namedarray's scalars
_HELD = frozenset(onp.dtype(d) for d in DTYPES)
INTS = [d for d in DTYPES if onp.dtype(d).kind in "iu"]
REALS = [d for d in DTYPES if onp.dtype(d).kind in "iuf"]
FLOATS = [d for d in DTYPES if onp.dtype(d).kind == "f"]
INEXACT = [d for d in DTYPES if onp.dtype(d).kind in "fc"]
BIG_INTS = [2**31, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, -2**70]

# every example of a function is one hypothesis example; the profile's budget is
# shared out over the functions (ci: one each; fuzz: 80 each)
PER_FUNCTION = settings(max_examples=max(1, settings.default.max_examples // 25))


# ---------------------------------------------------------------- the public set

def _functions(ours, theirs, prefix=""):
    out = set()
    for n in dir(theirs):
        if n.startswith("_") or not hasattr(ours, n):
            continue
        f = getattr(theirs, n)
        if callable(f) and not isinstance(f, type):
            out.add(prefix + n)
    return out


PUBLIC = (_functions(np, onp) | _functions(np.linalg, onp.linalg, "linalg.")
          | _functions(np.fft, onp.fft, "fft."))


def resolve(mod, name):
    for part in name.split("."):
        mod = getattr(mod, part)
    return mod


# ------------------------------------------------------------------ drawing

class Draw:
    """Argument drawing shared by the families (NumPy-side values)."""

    def __init__(self, data):
        self.data = data

    def __call__(self, strategy):
        return self.data.draw(strategy)

    def pick(self, seq):
        return self(st.sampled_from(list(seq)))

    def int(self, lo, hi):
        return self(st.integers(lo, hi))

    def bool(self):
        return self(st.booleans())

    def arr(self, dtypes=DTYPES, shape=None, min_dims=0, max_dims=2, min_side=0,
            max_side=3, small=None):
        """A positional array from ``namedarray.testing``'s strategy, as NumPy
        data (the oracle's input); ``small`` drawn unless given."""
        small = self.bool() if small is None else small
        return onp.asarray(self(nst.named_arrays(
            dtypes=dtypes, min_dims=min_dims, max_dims=max_dims, min_side=min_side,
            max_side=max_side, max_names=0, small=small, shape=shape)))

    def axis(self, x, none=True, bad=True):
        choices = ([None] if none else []) + list(range(-x.ndim, x.ndim))
        if bad or not choices:
            choices.append(x.ndim)      # out of range: AxisError
        return self.pick(choices)

    def scalar(self, x):
        """A scalar of ``x``'s dtype (its first element): NumPy's, or
        namedarray's (``Scalar``: what ``x[0]`` or ``x.sum()`` gives there)."""
        v = x.dtype.type(x.ravel()[0]) if x.size else x.dtype.type(0)
        return Scalar(v) if self.bool() else v

    def operand(self, like):
        """The other operand of a binary call: an array (same, trailing or 0-d
        shape), a Python int, a big Python int, a Python float or complex, a NumPy
        scalar or namedarray's scalar of any dtype."""
        kind = self.pick(["array", "array", "array", "pyint", "bigint", "pyfloat",
                          "pycomplex", "npscalar", "scalar"])
        if kind == "array":
            return self.arr(shape=self.pick([like.shape, like.shape[1:], ()]))
        if kind == "pyint":
            return self.int(-300, 300)
        if kind == "bigint":
            return self.pick(BIG_INTS)
        if kind == "pyfloat":
            return self(st.floats(-1e3, 1e3) | st.sampled_from([onp.inf, onp.nan, -0.0]))
        if kind == "pycomplex":
            return complex(self.int(-3, 3), self.int(-3, 3))
        dt = onp.dtype(self.pick(DTYPES))
        v = dt.type(self(nst.elements(dt, small=self.bool())))
        return Scalar(v) if kind == "scalar" else v

    def index(self, n, size=None, dtype=onp.intp):
        """An integer index array for an axis of length ``n``, in range or
        (sometimes) out of it."""
        lo, hi = (-n, n - 1) if self.bool() else (-n - 2, n + 2)
        if hi < lo:
            lo, hi = -2, 2
        k = self.int(0, 4) if size is None else size
        return onp.asarray([self.int(lo, hi) for _ in range(k)], dtype=dtype)


# ------------------------------------------------------------------ comparing

class Scalar:
    """A NumPy scalar operand that namedarray is given as its own scalar
    (``np.asarray(v)[()]``: what a full reduction or ``x[0]`` gives); NumPy
    is given the scalar itself."""

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Scalar({self.v!r})"


def plain(v):
    """The NumPy side of an argument (a ``Scalar`` its NumPy scalar)."""
    return v.v if isinstance(v, Scalar) else v


#: ``[True]``: NumPy's scalars of a dtype namedarray holds are given as
#: namedarray's scalars of the same value (test_fuzz_operands.py)
SCALARS = [False]


def ours(v):
    """The same argument for namedarray: NumPy arrays become NamedArrays (not
    NumPy's masked arrays: the user's own), ``Scalar``s namedarray's scalars,
    NumPy's scalars namedarray's where :data:`SCALARS`, containers are
    converted element by element, the rest is passed as is."""
    if isinstance(v, Scalar):
        return np.asarray(v.v)[()]
    if isinstance(v, onp.ma.MaskedArray):
        return v.copy()
    if isinstance(v, onp.ndarray):
        return np.asarray(v)
    if SCALARS[0] and type(v) is not NamedArray and isinstance(v, onp.generic) and \
            v.dtype in _HELD:
        return np.asarray(onp.array([v]))[0]    # (an element read: namedarray's scalar)
    if isinstance(v, list):
        return [ours(e) for e in v]
    if isinstance(v, tuple):
        return tuple(ours(e) for e in v)
    if isinstance(v, dict):
        return {k: ours(e) for k, e in v.items()}
    return v


def _tol(dt):
    dt = onp.dtype(dt)
    return 2e-2 if dt.itemsize <= 4 or dt == onp.complex64 else 1e-8


def same(got, exp, where="result", precision=None):
    """``got`` is NumPy's ``exp``: structure, dtype, shape and values (to the
    tolerance of the result's dtype, or of the dtype ``precision``)."""
    if isinstance(exp, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(exp), (where, got)
        for i, (g, e) in enumerate(zip(got, exp)):
            same(g, e, f"{where}[{i}]", precision)
        return
    if exp is None or isinstance(exp, (str, onp.dtype, type)):
        assert got == exp, (where, got, exp)
        return
    if isinstance(exp, onp.ma.MaskedArray):    # (the values under the mask are no data)
        assert isinstance(got, onp.ma.MaskedArray), (where, type(got))
        same(onp.ma.getmaskarray(got), onp.ma.getmaskarray(exp), f"{where} mask")
        same(got.compressed(), exp.compressed(), where, precision)
        return
    if isinstance(exp, bool):         # allclose, array_equal, ...: Python bools
        assert type(got) is bool and got == exp, (where, got, exp)
        return
    e = onp.asarray(exp)
    g = onp.asarray(got)
    assert (g.dtype, g.shape) == (e.dtype, e.shape), (where, g.dtype, e.dtype, g.shape,
                                                      e.shape)
    if e.dtype.kind in "fc":
        t = max(_tol(e.dtype), _tol(precision or e.dtype))
        onp.testing.assert_allclose(g, e, rtol=t, atol=t, equal_nan=True,
                                    err_msg=where)
    else:
        onp.testing.assert_array_equal(g, e, err_msg=where)


def result_kind(v):
    """What kind of value ``v`` is, as NumPy's rules name it: a NumPy scalar,
    an array (0-d ones too), a Python value by its type, a container of kinds."""
    if isinstance(v, (onp.generic, onp.ndarray, NamedArray)):
        if isinstance(v, onp.generic) or (isinstance(v, NamedArray) and is_scalar(v)):
            return "NumPy scalar"
        return "array"
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(result_kind(e) for e in v))
    return type(v).__name__


def _builtin_bases(exc):
    """The builtin classes an exception is (AxisError: ValueError, IndexError)."""
    return tuple(c for c in type(exc).__mro__ if c.__module__ == "builtins"
                 and c not in (Exception, BaseException, object)) or (Exception,)


#: set by test_fuzz_operands.py while it runs a family: ``(name, args) ->
#: args`` with the first array argument in another operand kind (NumPy's
#: masked array, Python objects in a sequence), None to leave the call out
OPERANDS = [None]
#: ``NAMEDARRAY_FUZZ_JIT=1``: every call is also run under ``jax.jit`` (its
#: NamedArray arguments traced) and must give NumPy's value there too, or
#: refuse (namedarray's error for what it cannot know under a trace)
JIT = os.environ.get("NAMEDARRAY_FUZZ_JIT", "") not in ("", "0")
_UNTRACEABLE = object()


def traced_call(f, args, kwargs):
    """``f(*args, **kwargs)`` under ``jax.jit``, its NamedArray arguments
    (positional or keyword) traced and the rest closed over; ``_UNTRACEABLE``
    where the call raises there (a refusal) or gives no arrays."""
    at = [i for i, a in enumerate(args) if isinstance(a, NamedArray)]
    kat = [k for k, v in kwargs.items() if isinstance(v, NamedArray)]

    def run(xs, kxs):
        a, k = list(args), dict(kwargs)
        for i, x in zip(at, xs):
            a[i] = x
        k.update(zip(kat, kxs))
        return f(*a, **k)
    try:
        return jax.jit(run)([args[i] for i in at], [kwargs[k] for k in kat])
    except Exception:       # noqa: BLE001 -- refused under a trace: not compared
        return _UNTRACEABLE


def check(name, args, kwargs=None, mutated=None, canonical=None, precision=None):
    """Call ``name`` in NumPy and in namedarray on the same arguments; compare
    the results (and the arguments listed in ``mutated``, for in-place calls),
    both through ``canonical`` where NumPy leaves part of the result
    unspecified, to the tolerance of the dtype ``precision`` if given."""
    kwargs = kwargs or {}
    if OPERANDS[0] is not None:     # (test_fuzz_operands.py: another operand kind)
        args = OPERANDS[0](name, tuple(plain(a) for a in args))
        if args is None:
            return
    a_ours = ours(list(args))
    k_ours = ours(kwargs)
    args, kwargs = tuple(plain(a) for a in args), {k: plain(v) for k, v in kwargs.items()}
    if deviation(name, args, kwargs):
        return
    f_np, f_ours = resolve(onp, name), resolve(np, name)
    a_np = [a.copy() if isinstance(a, onp.ndarray) else a for a in args]
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = f_np(*a_np, **kwargs)
        except Exception as e:    # NumPy's class, a builtin one it derives from
            with pytest.raises(_builtin_bases(e)):
                f_ours(*a_ours, **k_ours)
            return
        got = f_ours(*a_ours, **k_ours)
    if isinstance(kwargs.get("out"), onp.ndarray):      # written as NumPy writes it
        same(k_ours["out"], kwargs["out"], "out after the call", precision)
        if got is k_ours["out"]:
            got, exp = onp.asarray(got), kwargs["out"]
        else:
            assert exp is not kwargs["out"], "NumPy returns out; namedarray another value"
    if not deviation(name, args, kwargs, KINDS):
        assert result_kind(got) == result_kind(exp), ("result kind", result_kind(got),
                                                      result_kind(exp))
    if canonical is not None and OPERANDS[0] is None:   # (else NumPy's own call answers)
        got, exp = canonical(onp.asarray(got)), canonical(exp)
    same(got, exp, precision=precision)
    if canonical is None and isinstance(exp, (onp.ndarray, onp.generic)) and \
            exp.dtype.kind in "biu" and not deviation(name, args, kwargs, KINDS):
        assert repr(got) == repr(exp), ("repr", repr(got), repr(exp))   # exact values
    # every array argument after the call is NumPy's (written where NumPy
    # writes, untouched elsewhere: aliasing)
    for i, a in enumerate(a_np):
        if isinstance(a, onp.ndarray) or i in (mutated or ()):
            same(a_ours[i], a, f"argument {i} after the call")
    if JIT and not mutated and kwargs.get("out") is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = traced_call(f_ours, ours(list(args)), ours(kwargs))
        if traced is not _UNTRACEABLE and not deviation(name, args, kwargs, JIT_SHAPES) \
                and not _subnormal(list(args)) and not _subnormal(kwargs):
            if canonical is not None:
                traced = canonical(onp.asarray(traced))
            if type(exp) in (bool, int, float, complex) or isinstance(exp, onp.poly1d):
                # (a Python value or a poly1d is an array under jit: its value)
                t, e = onp.asarray(traced), onp.asarray(exp)
                assert t.shape == e.shape and ((t == e) | (t != t) & (e != e)).all(), (
                    "under jax.jit", t, e)
            else:
                same(traced, exp, "under jax.jit", precision=precision)


# -------------------------------------------------- deviations and open findings

def _kind(v):
    return onp.asarray(v).dtype.kind if isinstance(v, onp.ndarray) else None


def _narrow_int(v):
    """bool or an integer narrower than 64 bits (JAX computes their inexact
    results in float32 where NumPy uses float64)."""
    return isinstance(v, onp.ndarray) and (v.dtype.kind == "b" or (
        v.dtype.kind in "iu" and v.dtype.itemsize < 8))


def _big(v):
    return type(v) is int and not -2**63 <= v < 2**63


def _wrapping_difference(x):
    """Integer data two of whose values differ by more than its dtype holds."""
    x = onp.asarray(x)
    return x.dtype.kind in "iu" and x.size > 0 and (
        int(x.max()) - int(x.min()) > onp.iinfo(x.dtype).max)


# name -> (predicate on the NumPy-side (args, kwargs), reason): deliberate
# decisions (docs/differences.md); a matching call is not compared.
DEVIATIONS = {
    "empty": (lambda a, k: True, "values are unspecified in NumPy too"),
    "empty_like": (lambda a, k: True, "values are unspecified in NumPy too"),
    **{n: (lambda a, k: _wrapping_difference(a[0]),
           "docs/differences.md, 'Quantiles of narrow integers': NumPy subtracts "
           "neighbours in the integer dtype, which wraps "
           "(np.quantile(np.int8([-100, 100]), 0.5) is 128.0 there)")
       for n in ("quantile", "percentile", "nanquantile", "nanpercentile")},
    "full": (lambda a, k: _big(a[1]) and k.get("dtype") is None and not 0 <= a[1] < 2**64,
             "np.full(3, 2**64): NumPy makes an object array; object arrays are not "
             "supported (one clear TypeError)"),
}

# name -> (predicate, repro): deviations found by this fuzz and not fixed yet, or
# where NumPy's value is platform-defined (each text says which); a matching call
# is not compared, so that the rest of the function is.
# ``NAMEDARRAY_FUZZ_KNOWN=1`` compares them too (they fail).
KNOWN = {}


def _undefined_int_cast(a, k):
    """mean/var/std with an integer ``dtype=``, where NumPy's steps cast a NaN,
    an infinity or a float outside that type (C's undefined behaviour), divide
    by a zero count, or square deviations out of its range."""
    dt = None if k.get("dtype") is None else onp.dtype(k["dtype"])
    if dt is None:
        return False
    x = onp.asarray(a[0])
    if x.dtype.kind == "c":         # (NumPy casts the real parts; var/std square both)
        x = onp.concatenate([x.real.ravel(), x.imag.ravel()])
    if dt.kind not in "iu" or x.dtype.kind not in "fiub":
        return False
    if x.size == 0 or k.get("where") is not None or k.get("ddof") or k.get("correction"):
        return True
    with onp.errstate(all="ignore"):
        v = onp.trunc(x.astype(onp.float64))
        info = onp.iinfo(dt)
        return bool((~onp.isfinite(v) | (v < info.min) | (v > info.max)).any() or
                    (v.max() - v.min() + 1) ** 2 > info.max)


for _n in ("mean", "var", "std"):
    KNOWN[_n] = (_undefined_int_cast,
                 "platform-defined in NumPy: a NaN or out-of-range float cast to an "
                 "integer dtype is undefined behaviour in C; on x86-64 NumPy gives the "
                 "CPU's 'integer indefinite' (np.mean(np.asarray(onp.zeros(0, bool)), "
                 "dtype=int) is -2**63 there, 0 here: XLA's cast)")
def _nan_undefined_int_cast(a, k):
    """As ``_undefined_int_cast``; inexact data with an integer or bool
    ``dtype=`` is NumPy's TypeError, compared."""
    dt = k.get("dtype")
    if dt is not None and onp.dtype(dt).kind in "biu" and _kind(a[0]) == "f":
        return False
    return _undefined_int_cast(a, k)


for _n in ("nanmean", "nanvar", "nanstd"):
    KNOWN[_n] = (_nan_undefined_int_cast, KNOWN["mean"][1])


def _cast_out_of_range(a, k):
    """Inexact data cast by ``dtype=`` to an integer type it does not fit."""
    dt = k.get("dtype")
    if dt is None or onp.dtype(dt).kind not in "iu" or _kind(a[0]) not in ("f", "c"):
        return False
    info, v = onp.iinfo(dt), onp.asarray(a[0]).real
    return bool(((v <= info.min - 1) | (v >= info.max + 1) | onp.isnan(v)).any())


for _n in ("sum", "prod", "nansum", "nanprod", "cumsum", "cumprod", "nancumsum",
           "nancumprod", "cumulative_sum", "cumulative_prod"):
    KNOWN[_n] = (_cast_out_of_range,
                 "NumPy casts the data to the integer dtype first, and a NaN or "
                 "out-of-range float cast to an integer is undefined behaviour in C: on "
                 "x86-64 NumPy's value is the CPU's truncating conversion (through int32 "
                 "for narrower types, the 'integer indefinite' 0x80...0 outside, then "
                 "wrapped): np.sum(np.asarray(onp.float16([128.])), dtype=onp.int8) is "
                 "-128 there, 3e9 gives 0, 1e19 or NaN into int64 -2**63, -1. into uint64 "
                 "2**64 - 1; namedarray casts as XLA does (saturating: 127, 127, 2**63 - 1, "
                 "NaN 0, 0)")


def _round_out_of_range(a, k):
    """Integer data rounded to ``decimals < 0`` (NumPy's steps in float64)
    to a value its dtype does not hold: the float's cast back is C's
    undefined behaviour (np.round(np.int64(2**63 - 512), -1) is -2**63 on
    x86-64, with NumPy's "invalid value encountered in cast")."""
    x, d = onp.asarray(a[0]), k.get("decimals", 0)
    if x.dtype.kind not in "iu" or d >= 0 or not x.size:
        return False
    f = float(10 ** -d)
    v = onp.rint(x.astype(onp.float64) / f) * f
    lo = 0.0 if x.dtype.kind == "u" else -2.0 ** (x.dtype.itemsize * 8 - 1)
    hi = 2.0 ** (x.dtype.itemsize * 8) + lo       # (exact in float64)
    return bool(((v < lo) | (v >= hi)).any())


for _n in ("round", "around"):
    KNOWN[_n] = (_round_out_of_range,
                 "platform-defined in NumPy: the float64 result cast back to the "
                 "integer dtype is out of its range (C's undefined behaviour; x86-64 "
                 "gives -2**63); namedarray casts as XLA does, saturating "
                 "(docs/differences.md, 'Casting floats that do not fit to integers')")


def _array_cast_out_of_range(a, k):
    """``array``/``asarray`` of inexact data (an array or a list) with an
    integer ``dtype=`` that some value does not fit (or a NaN, an infinity)."""
    dt = k.get("dtype")
    if dt is None or onp.dtype(dt).kind not in "iu":
        return False
    v = onp.asarray(a[0])
    if v.dtype.kind not in "fc":
        return False
    info, v = onp.iinfo(dt), v.real
    with onp.errstate(all="ignore"):
        return bool(((v <= info.min - 1) | (v >= info.max + 1) | onp.isnan(v)).any())


for _n in ("array", "asarray"):
    KNOWN[_n] = (_array_cast_out_of_range,
                 "docs/differences.md, 'Casting floats that do not fit to integers': "
                 "undefined behaviour in C, platform-defined in NumPy (np.asarray("
                 "onp.float16(128.0), dtype=onp.int8) is -128 on x86-64); namedarray "
                 "casts as XLA does on both tiers (saturating: 127, NaN 0)")


def _sum_overflows(a, k):
    """Inexact coefficients with an inf or NaN, or whose products or their sum
    may overflow the result's dtype."""
    x, y = (onp.atleast_1d(v) for v in a[:2])
    dt = onp.result_type(x, y)
    if dt.kind not in "fc" or not (x.size and y.size):
        return False
    with onp.errstate(all="ignore"):
        big = onp.abs(x.astype(dt)).max() * onp.abs(y.astype(dt)).max() * min(x.size, y.size)
    return not big < onp.finfo(dt).max / 2


KNOWN["polymul"] = (_sum_overflows, "np.polymul(np.asarray([1e308j, 0]), "
                    "np.asarray([1e308, 0])) is [0+infj, 0, 0] (the products: 0 real part); "
                    "NumPy gives [nan+infj, 0, 0]: its convolution sums the products with "
                    "BLAS dot (OpenBLAS zdotu), whose inf/NaN pattern under overflow depends "
                    "on the kernel's summation order and lane combination (platform-defined)")
def _undefined_cast(src, dt):
    """An inexact ``src`` cast to the integer ``dt`` where a value is NaN,
    infinite or out of its range (C's undefined behaviour)."""
    src, dt = onp.asarray(src), onp.dtype(dt)
    if dt.kind not in "iu" or src.dtype.kind not in "fc" or not src.size:
        return False
    with onp.errstate(all="ignore"):
        v = onp.trunc(src.real.astype(onp.float64))
        info = onp.iinfo(dt)
        return bool((~onp.isfinite(v) | (v < info.min) | (v > info.max)).any())


KNOWN["astype"] = (lambda a, k: _undefined_cast(a[0], a[1]),
                   "platform-defined in NumPy: a NaN, infinite or out-of-range float cast "
                   "to an integer is undefined behaviour in C (np.float16(128).astype(int8) "
                   "is -128 on x86-64, 127 here: XLA saturates)")
KNOWN["copyto"] = (lambda a, k: k.get("casting") == "unsafe" and _undefined_cast(
    a[1], a[0].dtype), KNOWN["astype"][1])
KNOWN["roots"] = (lambda a, k: a[0].size > 2 and _kind(a[0]) in ("f", "c") and bool(
    (onp.abs(a[0][a[0] != 0]) > 1e100).any() or (onp.abs(a[0][a[0] != 0]) < 1e-100).any()),
    "np.roots(np.asarray([8e-147, 1., 1.])): XLA's eigvals of a companion matrix with "
    "entries near 1e146 differ from LAPACK's in the leading digits")


def _numerically_singular(a, k):
    """A square matrix (n >= 2) singular to its precision: condition number,
    from its exact values in float64, above ``1 / (n * eps)`` of its dtype."""
    m = onp.asarray(a[0])
    if m.ndim < 2 or m.shape[-1] != m.shape[-2] or m.shape[-1] < 2 or m.dtype.kind == "b":
        return False
    eps = onp.finfo(onp.result_type(m.dtype, onp.float32) if m.dtype.kind in "fc"
                    else onp.float64).eps
    with onp.errstate(all="ignore"):
        try:
            s = onp.linalg.svd(m.astype(onp.result_type(m.dtype, onp.float64)),
                               compute_uv=False)
        except onp.linalg.LinAlgError:
            return False
        return bool(~(s[..., 0] < s[..., -1] / (m.shape[-1] * eps)).all())


for _n in ("inv", "slogdet", "det", "cond", "solve", "tensorinv", "tensorsolve",
           "matrix_power"):
    KNOWN["linalg." + _n] = (
        _numerically_singular,
        "platform-defined: the LU factorization of a matrix singular to its precision "
        "ends in a rounding residue or an exact zero pivot, by the factorization's order "
        "of operations (LAPACK's getrf scales by 1/pivot): np.linalg.det(np.asarray("
        "[[6.125] * 2] * 2, dtype=np.float32)) is 5.4e-15 in NumPy, 0 here, and whether "
        "inv raises 'Singular matrix' follows")


KNOWN["polyfit"] = (
    lambda a, k: bool((onp.abs(onp.asarray(a[1])[onp.isfinite(a[1])]) > 1e150).any()),
    "data near the top of the range: np.polyfit(np.arange(4), [0, 4.6e307, 4.6e307, "
    "4.6e307], 2) overflows to inf in NumPy's steps around LAPACK (its column scaling "
    "and rescaling), and is finite here (the solve is scaled as LAPACK scales it)")


def _floor_divide_of_an_infinity(a, k):
    """A real floating floor division with an infinite operand (in the result's
    dtype: ``2**63 // float16`` divides an infinity), where the result is
    ``floor(x1 / x2)``: ``inf // 2`` is inf, ``1 // -inf`` is -0.0 (NumPy: NaN,
    -1.0)."""
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            dt = onp.asarray(onp.floor_divide(*a[:2])).dtype
            return dt.kind == "f" and any(
                bool(onp.isinf(onp.asarray(v).astype(dt)).any()) for v in a[:2])
        except Exception:     # noqa: BLE001 -- then NumPy's error is compared
            return False


DEVIATIONS["floor_divide"] = (_floor_divide_of_an_infinity,
                              "np.floor_divide(np.inf, 2.0) is inf, as floor(inf / 2.0) "
                              "and the Array API standard (NumPy: nan)")


def _complex_expm1_special(a, k):
    """Complex ``expm1`` of a non-finite part, or of a real part whose ``exp``
    overflows, where namedarray's answer is the Array API's (C99's ``cexpm1``):
    ``expm1(89+0j)`` in complex64 is inf+0j (NumPy's formula ``exp(re)*sin(im)``
    gives inf * 0 = NaN there)."""
    z = onp.asarray(a[0])
    if z.dtype.kind != "c" or not z.size:
        return False
    with onp.errstate(all="ignore"):
        big = onp.log(onp.finfo(z.real.dtype).max)
        return bool((~onp.isfinite(z.real) | ~onp.isfinite(z.imag) | (z.real > big)).any())


DEVIATIONS["expm1"] = (_complex_expm1_special,
                       "docs/differences.md, 'expm1 of complex infinities': the Array API's "
                       "special values (np.expm1(np.complex64(89+0j)) is inf+0j; NumPy: "
                       "inf+nanj)")


# name -> (predicate, reason): calls whose result kind (scalar, 0-d array,
# tuple, ...) is not compared
KINDS = {}

# name -> (predicate, reason): calls whose result under ``jax.jit`` is not
# compared (``NAMEDARRAY_FUZZ_JIT``): a shape NumPy makes from the values
JIT_SHAPES = {n: (lambda a, k: True, "docs/differences.md, 'Data-dependent shapes and "
                  "masks': under jit the leading zeros NumPy trims are kept")
              for n in ("polymul", "polydiv", "polyadd", "polysub", "trim_zeros")}


def _subnormal(v) -> bool:
    """A subnormal number in ``v`` (an array, a Python float, a container):
    compiled arithmetic flushes it to zero (docs/differences.md, 'Subnormal
    numbers on the CPU'), which the host tier does not, so under jit only."""
    if isinstance(v, (list, tuple)):
        return any(_subnormal(e) for e in v)
    if isinstance(v, dict):
        return any(_subnormal(e) for e in v.values())
    if not isinstance(v, (float, complex, onp.ndarray, onp.generic)):
        return False
    a = onp.asarray(v)
    if a.dtype.kind not in "fc" or not a.size:
        return False
    with onp.errstate(all="ignore"):
        parts = [a.real, a.imag] if a.dtype.kind == "c" else [a]
        return any(bool(((p != 0) & (onp.abs(p) < onp.finfo(p.dtype).tiny)).any())
                   for p in parts)


def deviation(name, args, kwargs, *tables):
    tables = tables or [DEVIATIONS] + (
        [] if os.environ.get("NAMEDARRAY_FUZZ_KNOWN") else [KNOWN])
    return any(t.get(name) is not None and t[name][0](args, kwargs) for t in tables)


# ------------------------------------------------------------------ families

def _ufuncs(nin):
    return sorted(n for n in PUBLIC if isinstance(getattr(onp, n, None), onp.ufunc)
                  and getattr(onp, n).nin == nin and getattr(onp, n).signature is None)


UNARY_UFUNCS = _ufuncs(1)
BINARY_UFUNCS = _ufuncs(2)

def _ufunc_cast_undefined(name):
    """A ufunc call whose inputs (``dtype=``) or results (``out=`` or
    ``dtype=`` of an integer type) meet a NaN, an infinity or a float outside
    that integer type: C's undefined behaviour in NumPy."""
    def predicate(a, k):
        out = k.get("out")
        targets = [onp.dtype(t) for t in (k.get("dtype"), getattr(out, "dtype", None))
                   if t is not None]
        if not any(t.kind in "iu" for t in targets):
            return False
        with warnings.catch_warnings(), onp.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:        # (in the loop's dtype, where dtype= names one)
                r = getattr(onp, name)(*a, **{key: k[key] for key in ("dtype", "casting")
                                              if key in k})
            except Exception:       # noqa: BLE001
                try:
                    r = getattr(onp, name)(*a)
                except Exception:   # noqa: BLE001 -- NumPy's error is compared
                    r = ()
        results = list(r if isinstance(r, tuple) else (r,)) + list(a)
        return any(_undefined_cast(v, t) for v in results for t in targets
                   if onp.asarray(v).dtype.kind in "fc")
    return predicate


def _error_order(name):
    """Calls found by ``test_ufunc_keywords`` where namedarray raises another
    exception class than NumPy (no wrong value), not fixed yet: a Python int
    outside the loop's type with ``dtype=``/``out=``/``casting=``
    (``np.less(np.int8(0), 2**31, dtype=np.int8)``: NumPy resolves the loop and
    its casting first, TypeError; here the int's range is checked first,
    OverflowError), or one array as ``out`` of a two-output ufunc (``np.modf(x,
    out=y)``: NumPy's TypeError, here AttributeError)."""
    def predicate(a, k):
        keys = any(key in k for key in ("dtype", "out", "casting"))
        return keys and any(type(v) is int and not -128 <= v < 128 for v in a) or (
            getattr(onp, name).nout > 1 and isinstance(k.get("out"), onp.ndarray))
    return predicate


def _complex_near_overflow(a, k):
    """Complex operands beyond 1e150, whose products cancel (``square(z)``:
    ``re*re - im*im``): docs/differences.md, 'Rounding of fused multiply-adds'."""
    return any(onp.asarray(v).dtype.kind == "c" and onp.asarray(v).size and
               float(onp.abs(onp.asarray(v)).max()) > 1e150 for v in a)


for _n in UNARY_UFUNCS + BINARY_UFUNCS:
    _cast, _order = _ufunc_cast_undefined(_n), _error_order(_n)
    _fma = _complex_near_overflow if _n in ("square", "multiply") else (lambda a, k: False)
    KNOWN[_n] = (lambda a, k, _cast=_cast, _order=_order, _fma=_fma: (
        _cast(a, k) or _order(a, k) or _fma(a, k)),
        KNOWN["astype"][1] + "; " + _error_order.__doc__ + "; " + _complex_near_overflow.__doc__)




@pytest.mark.parametrize("name", UNARY_UFUNCS)
@PER_FUNCTION
@given(data=st.data())
def test_unary_ufunc(name, data):
    d = Draw(data)
    x = d.arr()
    if d.pick([True, True, False]):
        check(name, (x,))
    else:     # a NumPy scalar operand, or namedarray's
        check(name, (d.scalar(x),))


@pytest.mark.parametrize("name", BINARY_UFUNCS)
@PER_FUNCTION
@given(data=st.data())
def test_binary_ufunc(name, data):
    d = Draw(data)
    x = d.arr()
    y = d.operand(x)
    if d.pick([False, False, True]):   # a scalar of x's dtype (a Python complex beside)
        x = d.scalar(x)
    if d.bool():
        x, y = y, x
    check(name, (x, y))


def _python_complex_first(x, y):
    """A Python complex before namedarray's float64 scalar: NumPy's float64 is
    a Python float, so Python's complex operator answers first (``1j +
    np.float64(2)`` is Python's ``(2+1j)``, ``0j != np.float64(0)`` its
    ``False``); namedarray's scalar is not one (docs/differences.md, 'Scalars
    and 0-d arrays'), and gives its scalar."""
    return type(x) is complex and isinstance(y, Scalar) and isinstance(y.v, float)


#: Python's binary operators -> the ufunc each is (its deviations apply)
OPERATORS = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
             "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
             "and_": "bitwise_and", "or_": "bitwise_or", "xor": "bitwise_xor",
             "lshift": "left_shift", "rshift": "right_shift", "lt": "less",
             "le": "less_equal", "eq": "equal", "ne": "not_equal", "gt": "greater",
             "ge": "greater_equal", "divmod": "divmod"}


@pytest.mark.parametrize("op", sorted(OPERATORS))
@PER_FUNCTION
@given(data=st.data())
def test_operator(op, data):
    """Python's operators between an array or a scalar (NumPy's, or
    namedarray's) and every operand kind (Python complex and big ints,
    NumPy's and namedarray's scalars of any dtype), forward, reflected and
    in place (a scalar rebinds, an array is written): NumPy's values, result
    kinds and exception classes."""
    d = Draw(data)
    x = d.arr()
    if d.bool():
        x = d.scalar(x)
    y = d.operand(onp.asarray(plain(x)))
    if d.bool():
        x, y = y, x
    inplace = op not in ("lt", "le", "eq", "ne", "gt", "ge", "divmod") and d.pick(
        [False, False, True])
    f = divmod if op == "divmod" else getattr(
        operator, ("i" + op.rstrip("_")) if inplace else op)
    a_np = [plain(v).copy() if isinstance(plain(v), onp.ndarray) else plain(v)
            for v in (x, y)]
    if deviation(OPERATORS[op], a_np, {}) or _python_complex_first(x, y):
        return
    a_ours = ours([x, y])
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = f(*a_np)
        except Exception as e:      # NumPy's class, a builtin one it derives from
            with pytest.raises(_builtin_bases(e)):
                f(*a_ours)
            return
        got = f(*a_ours)
    assert result_kind(got) == result_kind(exp), ("result kind", result_kind(got),
                                                  result_kind(exp))
    same(got, exp)
    if inplace and isinstance(a_np[0], onp.ndarray):
        same(a_ours[0], a_np[0], "the array written in place")


CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


@pytest.mark.parametrize("name", UNARY_UFUNCS + BINARY_UFUNCS)
@PER_FUNCTION
@given(data=st.data())
def test_ufunc_keywords(name, data):
    """``out=`` (an array of any dtype, written in place and returned),
    ``where=`` (with ``out``: elsewhere ``out`` keeps its values), ``dtype=``
    and ``casting=``, each drawn: NumPy's values in the result and in ``out``,
    or NumPy's exception class (a cast its casting rule forbids)."""
    d = Draw(data)
    x = d.arr()
    args = (x,) if getattr(onp, name).nin == 1 else (x, d.operand(x))
    kw = {}
    if d.bool():
        with warnings.catch_warnings(), onp.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                shape = onp.broadcast_shapes(*(onp.shape(plain(a)) for a in args))
            except ValueError:
                shape = x.shape
        kw["out"] = d.arr(shape=shape).copy()      # (writable)
        if d.bool():
            kw["where"] = d.arr(dtypes=[onp.bool_], shape=d.pick([shape, shape[1:], ()]))
    if d.pick([False, False, True]):
        kw["dtype"] = d.pick(DTYPES)
    if d.bool():
        kw["casting"] = d.pick(CASTINGS)
    # (values to the precision of NumPy's loop, which out= does not widen)
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            loop = getattr(onp, name)(*map(plain, args), **{
                k: kw[k] for k in ("dtype", "casting") if k in kw})
            loop = (loop[0] if isinstance(loop, tuple) else loop).dtype
        except Exception:       # noqa: BLE001 -- NumPy's error is compared
            loop = None
    check(name, args, kw, precision=loop if loop is not None and loop.kind in "fc" else None)


REDUCTIONS = ["sum", "prod", "mean", "max", "min", "amax", "amin", "any", "all", "std",
              "var", "ptp", "median", "count_nonzero", "nansum", "nanmean", "nanmax",
              "nanmin", "nanprod", "nanstd", "nanvar", "nanmedian", "argmax", "argmin",
              "nanargmax", "nanargmin", "average"]
ACC_DTYPES = [None, onp.int8, onp.int64, onp.uint64, onp.float32, onp.float64,
              onp.complex128, onp.bool_]


@pytest.mark.parametrize("name", REDUCTIONS)
@PER_FUNCTION
@given(data=st.data())
def test_reduction(name, data):
    """axis (int, tuple, out of range), keepdims, dtype, where (with initial),
    ddof: each drawn where NumPy's signature takes it."""
    d = Draw(data)
    x = d.arr()
    params = inspect.signature(resolve(onp, name)).parameters
    kw = {}
    axis = d.axis(x)
    if axis is not None and x.ndim > 1 and d.bool() and name not in (
            "argmax", "argmin", "nanargmax", "nanargmin"):
        axis = tuple(sorted({axis % x.ndim if axis < x.ndim else axis,
                             d.int(0, x.ndim - 1)}))
    kw["axis"] = axis
    if "keepdims" in params and d.bool():
        kw["keepdims"] = True
    if "dtype" in params and d.pick([False, False, True]):
        kw["dtype"] = d.pick(ACC_DTYPES)
    if "where" in params and d.pick([False, False, True]):
        kw["where"] = d.arr(dtypes=[onp.bool_], shape=d.pick([x.shape, x.shape[1:], ()]))
        if "initial" in params and name.endswith(("max", "min")):
            kw["initial"] = d.int(-5, 5)
        if d.bool():
            kw["where"] = kw["where"].tolist()
    if "ddof" in params and d.bool():
        kw["ddof"] = d.int(0, 3)
    if name == "average" and d.bool():
        kw["weights"] = d.arr(dtypes=REALS, shape=x.shape, small=True)
    check(name, (x,), kw)


CUMULATIVE = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
              "cumulative_prod", "diff", "ediff1d", "gradient", "trapezoid", "unwrap"]


@pytest.mark.parametrize("name", CUMULATIVE)
@PER_FUNCTION
@given(data=st.data())
def test_cumulative(name, data):
    d = Draw(data)
    x = d.arr(min_dims=1 if name in ("gradient", "unwrap") else 0,
              min_side=2 if name == "gradient" else 0)
    kw = {}
    if name in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                "cumulative_prod"):
        kw["axis"] = d.axis(x)
        if d.pick([False, False, True]):
            kw["dtype"] = d.pick(ACC_DTYPES)
        if name.startswith("cumulative") and d.bool():
            kw["include_initial"] = True
    elif name == "diff":
        kw.update(n=d.int(0, 3), axis=d.axis(x, none=False))
        if d.bool() and x.ndim:
            kw["prepend"] = d.arr(shape=x.shape[:-1] + (1,))
    elif name == "ediff1d":
        if d.bool():
            kw["to_begin"] = d.int(-3, 3)
    elif name == "gradient":
        kw["axis"] = d.axis(x)
        if d.bool():
            kw["edge_order"] = 2 if min(x.shape) >= 3 else 1
    elif name == "trapezoid":
        kw["axis"] = d.axis(x, none=False)
        if d.bool():
            kw["dx"] = d.pick([0.5, 2])
    elif name == "unwrap":
        kw["axis"] = d.axis(x, none=False)
        x = x.astype(onp.float64) if x.dtype.kind in "biu" else x
    check(name, (x,), kw)


SORTING = ["sort", "argsort", "partition", "argpartition", "lexsort", "searchsorted",
           "sort_complex", "argwhere", "nonzero", "flatnonzero", "digitize"]


@pytest.mark.parametrize("name", SORTING)
@PER_FUNCTION
@given(data=st.data())
def test_sorting_searching(name, data):
    d = Draw(data)
    if name in ("sort", "argsort"):
        x = d.arr(dtypes=REALS)
        kw = {"axis": d.axis(x)}
        if d.bool():
            kw["stable"] = True
        canonical = None
        if name == "argsort" and "stable" not in kw:
            def canonical(r):
                """What NumPy specifies of an unstable sort (its default): the
                values in the order ``r`` gives, and which indices ``r`` holds;
                the order of ties is left open (namedarray's sort is stable)."""
                axis = kw["axis"]
                if onp.ndim(x) == 0 or r.ndim == 0:
                    return (r,)         # (one element: no ties)
                v = x.ravel()[r] if axis is None else onp.take_along_axis(x, r, axis)
                return v, onp.sort(r, axis=-1 if axis is None else axis)
        return check(name, (x,), kw, canonical=canonical)
    if name in ("partition", "argpartition"):
        x = d.arr(dtypes=REALS, min_dims=1)
        axis = d.axis(x, none=False, bad=False)
        n = x.shape[axis]
        kth = d.int(-n - 1, n)

        def canonical(r):
            """What NumPy specifies: the values in sorted order, the value at
            ``kth``, nothing smaller after it and nothing larger before it."""
            v = onp.take_along_axis(x, r, axis) if name == "argpartition" else r
            if v.size == 0:
                return (onp.sort(v, axis),)
            at = onp.take(v, [kth], axis)
            k = kth % n
            before, after = onp.split(v, [k], axis)
            ordered = (onp.all(before <= at) | onp.any(onp.isnan(at))) & onp.all(at <= after)
            idx = (onp.sort(r, axis),) if name == "argpartition" else ()
            return (onp.sort(v, axis), at, bool(ordered)) + idx
        return check(name, (x, kth), {"axis": axis}, canonical=canonical)
    if name == "lexsort":
        x = d.arr(dtypes=[d for d in REALS if d != onp.float16], min_dims=1)
        return check(name, (x,), {"axis": d.axis(x, none=False)})
    if name == "searchsorted":
        a = onp.sort(d.arr(dtypes=REALS, min_dims=1, max_dims=1))
        v = d.arr(dtypes=REALS)
        return check(name, (a, v), {"side": d.pick(["left", "right"])})
    if name == "digitize":
        bins = onp.sort(d.arr(dtypes=FLOATS[1:], min_dims=1, max_dims=1, small=True))
        if d.bool():
            bins = bins[::-1].copy()
        return check(name, (d.arr(dtypes=REALS), bins), {"right": d.bool()})
    x = d.arr(dtypes=INEXACT if name == "sort_complex" else DTYPES,
              min_dims=1 if name == "sort_complex" else 0)
    check(name, (x,))


SETS = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
        "intersect1d", "union1d", "setdiff1d", "setxor1d", "isin"]


@pytest.mark.parametrize("name", SETS)
@PER_FUNCTION
@given(data=st.data())
def test_set_operation(name, data):
    d = Draw(data)
    dts = REALS if name != "isin" else DTYPES
    x = d.arr(dtypes=dts, small=True)
    if name == "unique":
        kw = {k: True for k in ("return_index", "return_inverse", "return_counts")
              if d.bool()}
        if d.bool():
            kw["axis"] = d.axis(x, none=False)
        return check(name, (x,), kw)
    if name == "unique_values":    # NumPy leaves the order unspecified
        return _check_sorted(x)
    if name.startswith("unique_"):
        return check(name, (x,))
    y = d.arr(dtypes=dts, small=True)
    kw = {}
    if name in ("intersect1d", "setdiff1d", "setxor1d", "isin") and d.bool():
        kw["assume_unique"] = False
    if name == "intersect1d" and d.bool():
        kw["return_indices"] = True
    if name == "isin" and d.bool():
        kw["invert"] = True
    check(name, (x, y), kw)


def _check_sorted(x):
    """unique_values: NumPy leaves the order unspecified; compare sorted."""
    exp = onp.sort(onp.unique_values(x))
    same(onp.sort(onp.asarray(np.unique_values(np.asarray(x)))), exp)


def _shape_like(d, x):
    if x.size == 0:
        return d.pick([(0,), (-1,), x.shape[::-1], (2, -1)])
    return d.pick([(-1,), (x.size,), (1, x.size), (x.size, 1), (-1, 1), x.shape[::-1],
                   (x.size + 1,)])


MANIPULATION = {
    "reshape": lambda d, x: ((x, _shape_like(d, x)), {}),
    "resize": lambda d, x: ((x, d.pick([(0,), (5,), (2, 3)])), {}),
    "ravel": lambda d, x: ((x,), {}),
    "transpose": lambda d, x: ((x,), {"axes": tuple(d(st.permutations(range(x.ndim))))}
                               if d.bool() else {}),
    "permute_dims": lambda d, x: ((x, tuple(i - x.ndim * d.int(0, 1) for i in
                                           d(st.permutations(range(x.ndim))))), {}),
    "matrix_transpose": lambda d, x: ((x,), {}),
    "swapaxes": lambda d, x: ((x, d.axis(x, none=False), d.axis(x, none=False)), {}),
    "moveaxis": lambda d, x: ((x, d.axis(x, none=False), d.axis(x, none=False)), {}),
    "rollaxis": lambda d, x: ((x, d.axis(x, none=False), d.int(0, x.ndim)), {}),
    "squeeze": lambda d, x: ((x,), {"axis": d.axis(x)}),
    "expand_dims": lambda d, x: ((x, d.int(-x.ndim - 2, x.ndim + 1)), {}),
    "flip": lambda d, x: ((x,), {"axis": d.axis(x)}),
    "fliplr": lambda d, x: ((x,), {}),
    "flipud": lambda d, x: ((x,), {}),
    "roll": lambda d, x: ((x, d.int(-4, 4)), {"axis": d.axis(x)}),
    "rot90": lambda d, x: ((x, d.int(-2, 5)), {}),
    "tile": lambda d, x: ((x, d.pick([0, 2, (2, 1), (1, 0, 2)])), {}),
    "repeat": lambda d, x: ((x, d.pick([0, 2, -1, [1] * (x.shape[0] if x.ndim else 1)])),
                            {"axis": d.axis(x)}),
    "broadcast_to": lambda d, x: ((x, d.pick([(2,) + x.shape, x.shape, (3,)])), {}),
    "broadcast_arrays": lambda d, x: ((x, d.arr(shape=d.pick([x.shape[1:], (), (2, 1)]))),
                                      {}),
    "atleast_1d": lambda d, x: ((x,), {}),
    "atleast_2d": lambda d, x: ((x,), {}),
    "atleast_3d": lambda d, x: ((x, d.arr()), {}),
    "concatenate": lambda d, x: (([x, d.arr(shape=x.shape)],), {"axis": d.axis(x)}),
    "concat": lambda d, x: (([x, d.arr(shape=x.shape)],), {"axis": d.axis(x)}),
    "stack": lambda d, x: (([x, d.arr(shape=x.shape)],), {"axis": d.int(-x.ndim - 2,
                                                                        x.ndim + 1)}),
    "hstack": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "vstack": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "row_stack": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "dstack": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "column_stack": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "block": lambda d, x: (([x, d.arr(shape=x.shape)],), {}),
    "append": lambda d, x: ((x, d.arr(shape=x.shape)), {"axis": d.axis(x)}),
    "split": lambda d, x: ((x, d.pick([1, 2, [1, 2]])), {"axis": d.axis(x, none=False)}),
    "array_split": lambda d, x: ((x, d.pick([1, 2, 3, [1, 2]])),
                                 {"axis": d.axis(x, none=False)}),
    "hsplit": lambda d, x: ((x, d.pick([1, 2, [1]])), {}),
    "vsplit": lambda d, x: ((x, d.pick([1, 2, [1]])), {}),
    "dsplit": lambda d, x: ((x, d.pick([1, 2, [1]])), {}),
    "unstack": lambda d, x: ((x,), {"axis": d.axis(x, none=False)}),
    "pad": lambda d, x: ((x, d.pick([0, 1, (1, 2), ((0, 1),) * x.ndim])),
                         {"mode": d.pick(["constant", "edge", "reflect", "wrap",
                                          "symmetric", "maximum", "mean"])}),
    "trim_zeros": lambda d, x: ((x,), {"trim": d.pick(["fb", "f", "b"])}),
    "delete": lambda d, x: ((x, d.index(x.shape[0] if x.ndim else 1)),
                            {"axis": d.axis(x, bad=False)}),
    "insert": lambda d, x: ((x, d.index(x.shape[0] + 1 if x.ndim else 1, size=1)[0],
                             d.int(-3, 3)), {"axis": d.axis(x, bad=False)}),
    "tril": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "triu": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "diag": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "diagflat": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "diagonal": lambda d, x: ((x,), {"offset": d.int(-2, 2)}),
    "trace": lambda d, x: ((x,), {"offset": d.int(-2, 2)}),
    "copy": lambda d, x: ((x,), {}),
    "astype": lambda d, x: ((x, d.pick(DTYPES)), {}),
    "asarray": lambda d, x: ((d.pick([x, x.tolist()]),), {"dtype": d.pick([None] + DTYPES)}
                             if d.bool() else {}),
    "array": lambda d, x: ((d.pick([x, x.tolist()]),), {"dtype": d.pick([None] + DTYPES)}
                           if d.bool() else {}),
    "asanyarray": lambda d, x: ((x.tolist(),), {}),
    "ascontiguousarray": lambda d, x: ((x,), {}),
    "asfortranarray": lambda d, x: ((x,), {}),
    "asarray_chkfinite": lambda d, x: ((x,), {}),
    "require": lambda d, x: ((x,), {}),
    "real_if_close": lambda d, x: ((x,), {}),
    "nan_to_num": lambda d, x: ((x,), {"nan": d.pick([0.0, 7])} if d.bool() else {}),
    "clip": lambda d, x: ((x, d.pick([None, -2, 0.5]), d.pick([None, 3, 2**63])), {}),
    "around": lambda d, x: ((x,), {"decimals": d.int(-2, 2)}),
    "round": lambda d, x: ((x,), {"decimals": d.int(-2, 2)}),
    "fix": lambda d, x: ((x,), {}),
    "real": lambda d, x: ((x,), {}),
    "imag": lambda d, x: ((x,), {}),
    "angle": lambda d, x: ((x,), {"deg": d.bool()}),
    "i0": lambda d, x: ((x,), {}),
    "sinc": lambda d, x: ((x,), {}),
    "packbits": lambda d, x: ((x,), {"axis": d.axis(x), "bitorder": d.pick(["big",
                                                                            "little"])}),
    "unpackbits": lambda d, x: ((x,), {"axis": d.axis(x)}),
}


@pytest.mark.parametrize("name", sorted(MANIPULATION))
@PER_FUNCTION
@given(data=st.data())
def test_manipulation_and_elementwise(name, data):
    """Reshaping, joining, splitting, padding, triangles, casts and the
    elementwise functions that are not ufuncs."""
    d = Draw(data)
    dts = DTYPES
    if name in ("packbits", "unpackbits"):
        dts = [onp.uint8, onp.bool_, onp.int8]
    x = d.arr(dtypes=dts, max_dims=3 if name in ("dstack", "dsplit", "atleast_3d") else 2)
    args, kw = MANIPULATION[name](d, x)
    check(name, args, kw)


#: NumPy's functions whose result is a view of their argument
VIEWS = ["transpose", "permute_dims", "matrix_transpose", "swapaxes", "moveaxis",
         "rollaxis", "squeeze", "expand_dims", "flip", "fliplr", "flipud", "rot90",
         "atleast_1d", "atleast_2d", "reshape", "ravel", "diagonal", "broadcast_to",
         "real", "imag"]


@pytest.mark.parametrize("name", VIEWS)
@PER_FUNCTION
@given(data=st.data())
def test_view_function_writes_through(name, data):
    """A write into the function form of a view reaches the base where
    NumPy's does, stays in the copy where NumPy's is a copy, and raises where
    NumPy's view is read-only; of the base (or of a strided slice of it)."""
    d = Draw(data)
    y = d.arr(dtypes=DTYPES, max_dims=3)
    args, kw = MANIPULATION[name](d, y)
    base, x = y.copy(), np.asarray(y.copy())
    sliced = d.bool() and base.ndim > 0
    src = (base[::-1] if sliced else base), (x[::-1] if sliced else x)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w = getattr(onp, name)(src[0], *args[1:], **kw)
    except Exception:       # refused input: the error is the other fuzz tests'
        return
    if not isinstance(w, onp.ndarray):      # (flip of a 0-d array is a scalar)
        return
    v = getattr(np, name)(src[1], *args[1:], **kw)
    val = (onp.arange(w.size) + 1).reshape(w.shape).astype(w.dtype)
    if not w.flags.writeable:
        if w.size:
            with pytest.raises(ValueError, match="read-only"):
                v[...] = val
    else:
        w[...] = val
        v[...] = val
        same(v, w, "the view")
    same(x, base, "the base")
    if base.size:
        base[(0,) * base.ndim] = 0
        x[(0,) * x.ndim] = 0
        same(v, w, "the view after a write to the base")


def _ix(d, x):
    return d.index(x.shape[0] if x.ndim else 1)


INDEXING = {
    "take": lambda d, x: ((x, _ix(d, x)), {"axis": d.pick([None, 0] if x.ndim else [None])}),
    "take_along_axis": lambda d, x: ((x, d.index(x.shape[0], size=x.shape[0]).reshape(
        (-1,) + (1,) * (x.ndim - 1)) * onp.ones(x.shape, onp.intp)), {"axis": 0}),
    "put": lambda d, x: ((x, d.index(max(x.size, 1)), d.int(-3, 3)), {}),
    "put_along_axis": lambda d, x: ((x, d.index(x.shape[0], size=1).reshape(
        (1,) * x.ndim), d.int(-3, 3), 0), {}),
    "choose": lambda d, x: ((d.index(2, size=3), [x.ravel()[:3], x.ravel()[:3] * 0]),
                            {"mode": d.pick(["raise", "wrap", "clip"])}),
    "compress": lambda d, x: ((d.arr(dtypes=[onp.bool_], shape=(d.int(0, 4),)), x),
                              {"axis": d.axis(x)}),
    "extract": lambda d, x: ((d.arr(dtypes=[onp.bool_], shape=x.shape), x), {}),
    "place": lambda d, x: ((x, d.arr(dtypes=[onp.bool_], shape=x.shape),
                            d.pick([[1], [1, 2], []])), {}),
    "putmask": lambda d, x: ((x, d.arr(dtypes=[onp.bool_], shape=x.shape),
                              d.pick([1, [1, 2]])), {}),
    "select": lambda d, x: (([x > 0, x < 0] if x.dtype.kind != "c" else [x == 0],
                             [x, x * 2] if x.dtype.kind != "c" else [x]),
                            {"default": d.int(-2, 2)}),
    "where": lambda d, x: ((d.arr(dtypes=[onp.bool_], shape=x.shape), x, d.operand(x)), {})
    if d.bool() else ((x,), {}),
    "ravel_multi_index": lambda d, x: (((d.index(3, size=2), d.index(3, size=2)), (3, 3)),
                                       {"mode": d.pick(["raise", "wrap", "clip"])}),
    "unravel_index": lambda d, x: ((d.index(7), (2, 3)), {}),
    "diag_indices_from": lambda d, x: ((x,), {}),
    "tril_indices_from": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "triu_indices_from": lambda d, x: ((x,), {"k": d.int(-2, 2)}),
    "fill_diagonal": lambda d, x: ((x, d.int(-3, 3)), {"wrap": d.bool()}),
    "copyto": lambda d, x: ((x, d.arr(shape=d.pick([x.shape, ()]))),
                            {"casting": d.pick(["same_kind", "unsafe"])}),
    "ix_": lambda d, x: ((d.index(3), d.arr(dtypes=[onp.bool_], shape=(2,))), {}),
    "indices": lambda d, x: ((x.shape,), {"sparse": d.bool()}),
    "piecewise": lambda d, x: ((x, [x > 0] if x.dtype.kind != "c" else [x == 0],
                                [d.int(-2, 2), d.int(-2, 2)]), {}),
}
IN_PLACE = {"put": [0], "put_along_axis": [0], "place": [0], "putmask": [0],
            "fill_diagonal": [0], "copyto": [0]}


@pytest.mark.parametrize("name", sorted(INDEXING))
@PER_FUNCTION
@given(data=st.data())
def test_indexing_function(name, data):
    """Index arrays in and out of range; the in-place ones compare the
    array they wrote into."""
    d = Draw(data)
    x = d.arr(min_dims=1 if name in ("take_along_axis", "put_along_axis") else 0,
              min_side=1 if name in ("take_along_axis", "put_along_axis") else 0)
    args, kw = INDEXING[name](d, x)
    check(name, args, kw, mutated=IN_PLACE.get(name))


def _shape(d):
    return d.pick([3, (0,), (2, 3), (), (1, 0, 2)])


CREATION = {
    "arange": lambda d: ((d.pick([0, 5, -3, 2.5, 2**63]),) if d.bool() else
                         (d.int(-3, 3), d.int(-5, 5), d.pick([1, 2, -1, 0.5, 0])),
                         {"dtype": d.pick([None, onp.int8, onp.float32, onp.uint64])}
                         if d.bool() else {}),
    "linspace": lambda d: ((d.int(-3, 3), d.pick([5, 2.5, [1, 2]]), d.int(0, 5)),
                           {"endpoint": d.bool(), "dtype": d.pick([None, onp.int32,
                                                                   onp.float32])}),
    "logspace": lambda d: ((d.int(-2, 2), d.int(-2, 2), d.int(0, 5)),
                           {"base": d.pick([10.0, 2])}),
    "geomspace": lambda d: ((d.pick([1, -1, 0, 1j]), d.pick([100, -8, 1000j]), d.int(0, 5)),
                            {}),
    "zeros": lambda d: ((_shape(d),), {"dtype": d.pick(DTYPES)}),
    "ones": lambda d: ((_shape(d),), {"dtype": d.pick(DTYPES)}),
    "empty": lambda d: ((_shape(d),), {"dtype": d.pick(DTYPES)}),
    "full": lambda d: ((_shape(d), d.pick([1, -1, 2.5, 300, 2**64, 1j, True])),
                       {"dtype": d.pick([None] + DTYPES)}),
    "eye": lambda d: ((d.int(0, 3),), {"M": d.pick([None, 2]), "k": d.int(-2, 2),
                                       "dtype": d.pick(DTYPES)}),
    "identity": lambda d: ((d.int(0, 3),), {"dtype": d.pick(DTYPES)}),
    "tri": lambda d: ((d.int(0, 3),), {"M": d.pick([None, 2]), "k": d.int(-2, 2)}),
    "zeros_like": lambda d: ((d.arr(),), {"dtype": d.pick([None] + DTYPES)}),
    "ones_like": lambda d: ((d.arr(),), {"dtype": d.pick([None] + DTYPES)}),
    "empty_like": lambda d: ((d.arr(),), {}),
    "full_like": lambda d: ((d.arr(), d.pick([1, -1, 2.5, 300, 2**64, 1j])), {}),
    "diag_indices": lambda d: ((d.int(0, 3), d.int(1, 3)), {}),
    "tril_indices": lambda d: ((d.int(0, 3), d.int(-2, 2)), {"m": d.pick([None, 2])}),
    "triu_indices": lambda d: ((d.int(0, 3), d.int(-2, 2)), {"m": d.pick([None, 2])}),
    "mask_indices": lambda d: ((d.int(0, 3), d.pick([onp.triu, onp.tril]), d.int(-1, 1)),
                               {}),
    "bartlett": lambda d: ((d.int(-1, 5),), {}),
    "blackman": lambda d: ((d.int(-1, 5),), {}),
    "hamming": lambda d: ((d.int(-1, 5),), {}),
    "hanning": lambda d: ((d.int(-1, 5),), {}),
    "kaiser": lambda d: ((d.int(-1, 5), d.pick([0, 5.0])), {}),
    "vander": lambda d: ((d.arr(dtypes=REALS, min_dims=1, max_dims=1, small=True),),
                         {"N": d.pick([None, 0, 3]), "increasing": d.bool()}),
    "meshgrid": lambda d: ((d.arr(max_dims=1), d.arr(max_dims=1)),
                           {"indexing": d.pick(["xy", "ij"]), "sparse": d.bool()}),
    "fromfunction": lambda d: ((lambda i, j: i * 2 + j, d.pick([(2, 3), (0, 2)])),
                               {"dtype": d.pick([float, int])}),
    "fromiter": lambda d: ((range(d.int(0, 4)), d.pick([onp.int8, float])), {}),
    "frombuffer": lambda d: ((bytes(range(d.pick([0, 8, 16]))), d.pick([onp.uint8,
                                                                        onp.int32])), {}),
    "fromstring": lambda d: ((d.pick(["1 2 3", "1,2", ""]),), {"sep": d.pick([" ", ","])}),
}


@pytest.mark.parametrize("name", sorted(CREATION))
@PER_FUNCTION
@given(data=st.data())
def test_creation(name, data):
    args, kw = CREATION[name](Draw(data))
    check(name, args, kw)


def _vec(d, dts=DTYPES, n=3):
    return d.arr(dtypes=dts, shape=(n,), small=True)


PRODUCTS = {
    "dot": lambda d, a: ((a, d.arr(shape=a.shape[::-1], small=True)), {}),
    "vdot": lambda d, a: ((a, d.arr(shape=a.shape, small=True)), {}),
    "inner": lambda d, a: ((a, d.arr(shape=a.shape, small=True)), {}),
    "outer": lambda d, a: ((a, d.arr(small=True)), {}),
    "matmul": lambda d, a: ((a, d.arr(shape=a.shape[::-1], small=True)), {}),
    "matvec": lambda d, a: ((a, d.arr(shape=a.shape[-1:], small=True)), {}),
    "vecmat": lambda d, a: ((d.arr(shape=a.shape[:1], small=True), a), {}),
    "vecdot": lambda d, a: ((a, d.arr(shape=a.shape, small=True)), {}),
    "tensordot": lambda d, a: ((a, d.arr(shape=a.shape, small=True)),
                               {"axes": d.pick([0, 1, 2])}),
    "kron": lambda d, a: ((a, d.arr(small=True)), {}),
    "einsum": lambda d, a: (("ij,ji->", a, d.arr(shape=a.shape[::-1], small=True)), {}),
    "cross": lambda d, a: ((_vec(d, REALS + [onp.complex128]), _vec(d, REALS)), {}),
    "convolve": lambda d, a: ((_vec(d, n=d.int(1, 3)), _vec(d, n=d.int(1, 3))),
                              {"mode": d.pick(["full", "same", "valid"])}),
    "correlate": lambda d, a: ((_vec(d, n=d.int(1, 3)), _vec(d, n=d.int(1, 3))),
                               {"mode": d.pick(["full", "same", "valid"])}),
    "linalg.cross": lambda d, a: ((_vec(d, REALS), _vec(d, REALS)), {}),
    "linalg.matmul": lambda d, a: ((a, d.arr(shape=a.shape[::-1], small=True)), {}),
    "linalg.outer": lambda d, a: ((_vec(d), _vec(d, n=2)), {}),
    "linalg.tensordot": lambda d, a: ((a, d.arr(shape=a.shape, small=True)),
                                      {"axes": d.pick([0, 1, 2])}),
    "linalg.vecdot": lambda d, a: ((a, d.arr(shape=a.shape, small=True)), {}),
    "linalg.diagonal": lambda d, a: ((a,), {"offset": d.int(-1, 1)}),
    "linalg.trace": lambda d, a: ((a,), {"offset": d.int(-1, 1)}),
    "linalg.matrix_transpose": lambda d, a: ((a,), {}),
    "linalg.multi_dot": lambda d, a: (([a, d.arr(shape=a.shape[::-1], small=True), a],),
                                      {}),
    "linalg.norm": lambda d, a: ((a,), {"ord": d.pick([None, 1, 2, onp.inf, "fro"]),
                                        "axis": d.pick([None, (0, 1)])}
                                 if d.bool() else {}),
    "linalg.vector_norm": lambda d, a: ((a,), {"ord": d.pick([2, 1, 0, onp.inf, 3])}),
    "linalg.matrix_norm": lambda d, a: ((a,), {"ord": d.pick(["fro", 1, onp.inf, "nuc",
                                                              2])}),
}
# square-matrix entry points of numpy.linalg
for _n in ["cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv",
           "matrix_rank", "pinv", "qr", "slogdet", "svd", "svdvals"]:
    PRODUCTS["linalg." + _n] = lambda d, a: ((a,), {})
PRODUCTS["linalg.matrix_power"] = lambda d, a: ((a, d.int(-2, 3)), {})
PRODUCTS["linalg.solve"] = lambda d, a: ((a, d.arr(shape=a.shape[:1], small=True)), {})
PRODUCTS["linalg.lstsq"] = lambda d, a: ((a, d.arr(shape=a.shape[:1], small=True)), {})
PRODUCTS["linalg.tensorinv"] = lambda d, a: ((a.reshape(a.shape + (1, 1)),), {"ind": 2})
PRODUCTS["linalg.tensorsolve"] = lambda d, a: ((a, d.arr(shape=a.shape[:1], small=True)),
                                               {})

# decompositions whose result is unique only up to signs / order: compare what is
SYMMETRIC = {"linalg.cholesky", "linalg.eigh", "linalg.eigvalsh"}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
@PER_FUNCTION
@given(data=st.data())
def test_products_and_linalg(name, data):
    d = Draw(data)
    n = d.int(0, 3)
    dts = DTYPES
    if name.startswith("linalg.") and name not in ("linalg.matmul", "linalg.outer",
                                                   "linalg.vecdot", "linalg.tensordot",
                                                   "linalg.cross", "linalg.diagonal",
                                                   "linalg.trace",
                                                   "linalg.matrix_transpose"):
        dts = [onp.float32, onp.float64, onp.complex128, onp.int64]
    a = d.arr(dtypes=dts, shape=d.pick([(n, n), (n, n), (2, n)]), small=True)
    if name in SYMMETRIC and a.shape[0] == a.shape[1]:
        a = a @ a.conj().T + onp.eye(n, dtype=a.dtype) * 3 if a.dtype.kind != "i" else a
    args, kw = PRODUCTS[name](d, a)
    if name in ("linalg.eig", "linalg.eigvals", "linalg.svd", "linalg.qr", "linalg.eigh"):
        return _check_decomposition(name, args)
    check(name, args, kw)


def _check_decomposition(name, args):
    """eig/eigh/svd/qr are unique up to order and signs: compare what is unique
    (the spectrum, sorted; the reconstruction), dtype and shape, or the error."""
    a = args[0]
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = resolve(onp, name)(a)
        except Exception as e:
            with pytest.raises(_builtin_bases(e)):
                resolve(np, name)(np.asarray(a))
            return
        got = resolve(np, name)(np.asarray(a))
    exp_t = exp if isinstance(exp, tuple) else (exp,)
    got_t = got if isinstance(got, tuple) else (got,)
    assert len(exp_t) == len(got_t)
    for g, e in zip(got_t, exp_t):
        assert (onp.asarray(g).dtype, onp.asarray(g).shape) == (e.dtype, e.shape)
    t = 1e-3 if exp_t[0].dtype.itemsize <= 8 else 1e-7
    if name in ("linalg.eig", "linalg.eigvals"):
        onp.testing.assert_allclose(onp.sort_complex(onp.asarray(got_t[0])),
                                    onp.sort_complex(exp_t[0]), rtol=t, atol=t)
    elif name == "linalg.eigh":      # (eigenvectors of a repeated eigenvalue: any basis)
        same(got_t[0], exp_t[0])
        w, v = (onp.asarray(x) for x in got_t)
        h = onp.tril(a) + onp.tril(a, -1).conj().T     # the triangle eigh reads
        onp.testing.assert_allclose((v * w) @ v.conj().T, h, rtol=t, atol=t * max(
            1.0, float(onp.abs(a).max(initial=0))))
    elif name == "linalg.svd":
        same(got_t[1], exp_t[1])
        u, s, vh = (onp.asarray(v) for v in got_t)
        k = min(a.shape)
        onp.testing.assert_allclose((u[:, :k] * s) @ vh[:k], a, rtol=t, atol=t)
    else:
        q, r = (onp.asarray(v) for v in got_t)
        onp.testing.assert_allclose(q @ r, a, rtol=t, atol=t)


FFT = sorted(n for n in PUBLIC if n.startswith("fft."))


@pytest.mark.parametrize("name", FFT)
@PER_FUNCTION
@given(data=st.data())
def test_fft(name, data):
    d = Draw(data)
    if name in ("fft.fftfreq", "fft.rfftfreq"):
        return check(name, (d.int(0, 5),), {"d": d.pick([1.0, 0.5, 2])})
    nd = 2 if name.endswith(("2", "n")) else 1
    x = d.arr(dtypes=REALS + INEXACT if name not in ("fft.ihfft",) else REALS,
              min_dims=nd if name not in ("fft.fftshift", "fft.ifftshift") else 0,
              max_dims=nd + 1, min_side=1, small=True)
    kw = {}
    if name in ("fft.fftshift", "fft.ifftshift"):
        kw["axes"] = d.axis(x)
    elif nd == 1:
        kw["axis"] = d.axis(x, none=False)
        if d.bool():
            kw["n"] = d.int(1, 5)
        kw["norm"] = d.pick([None, "ortho", "forward"])
    else:
        if d.bool():
            kw["s"] = (d.int(1, 4), d.int(1, 4))
            kw["axes"] = (-2, -1)
        kw["norm"] = d.pick([None, "ortho", "forward"])
    check(name, (x,), kw)


STATISTICS = {
    "percentile": lambda d, x: ((x, d.pick([50, [10, 90], 150, -1, 0, 100])),
                                {"axis": d.axis(x), "method": d.pick(
                                    ["linear", "lower", "higher", "nearest", "midpoint"])}),
    "nanpercentile": lambda d, x: ((x, d.pick([50, [10, 90], 150])), {"axis": d.axis(x)}),
    "quantile": lambda d, x: ((x, d.pick([0.5, [0.1, 0.9], 1.5])),
                              {"axis": d.axis(x), "keepdims": d.bool()}),
    "nanquantile": lambda d, x: ((x, d.pick([0.5, [0.1, 0.9]])), {"axis": d.axis(x)}),
    "histogram": lambda d, x: ((x,), {"bins": d.pick([3, [0, 1, 5], "auto", "fd"]),
                                      "density": d.bool()}),
    "histogram_bin_edges": lambda d, x: ((x,), {"bins": d.pick([3, [0, 1, 5], "sturges"])}),
    "histogram2d": lambda d, x: ((x.ravel(), x.ravel()[::-1].copy()), {"bins": d.int(1, 3)}),
    "histogramdd": lambda d, x: ((x.reshape(-1, 1),), {"bins": d.int(1, 3)}),
    "bincount": lambda d, x: ((x.ravel(),), {"minlength": d.int(0, 4)}),
    "corrcoef": lambda d, x: ((x,), {"rowvar": d.bool()}),
    "cov": lambda d, x: ((x,), {"rowvar": d.bool(), "ddof": d.pick([None, 0, 1])}),
    "interp": lambda d, x: ((x, onp.arange(3.0), onp.array([1.0, -1.0, 4.0])), {}),
}


@pytest.mark.parametrize("name", sorted(STATISTICS))
@PER_FUNCTION
@given(data=st.data())
def test_statistics(name, data):
    d = Draw(data)
    dts = REALS
    if name in ("bincount",):
        dts = INTS + [onp.bool_]
    elif name in ("corrcoef", "cov"):
        dts = DTYPES
    x = d.arr(dtypes=dts, small=True)
    if name == "bincount" and x.size and x.dtype != bool and d.bool():
        # a large value (not the whole range: NumPy's result of 2**31 zeros is
        # lazily zeroed memory, a device's is written)
        x = x.copy()
        x.flat[d.int(0, x.size - 1)] = min(onp.iinfo(x.dtype).max, 2**16)
    args, kw = STATISTICS[name](d, x)
    # NumPy interpolates quantiles with float16 differences (b - a rounded to
    # float16, then times a float64 weight): float16's precision, whatever the
    # result's dtype; namedarray interpolates in the result's dtype
    inexact_data = x.dtype.kind == "f" and ("quantile" in name or "percentile" in name)
    check(name, args, kw, precision=x.dtype if inexact_data else None)


PREDICATES = {
    "allclose": lambda d, x: ((x, d.operand(x)), {"equal_nan": d.bool()}),
    "isclose": lambda d, x: ((x, d.operand(x)), {"equal_nan": d.bool()}),
    "array_equal": lambda d, x: ((x, d.pick([x, d.operand(x)])), {"equal_nan": d.bool()}),
    "array_equiv": lambda d, x: ((x, d.pick([x, d.operand(x)])), {}),
    "iscomplex": lambda d, x: ((x,), {}),
    "isreal": lambda d, x: ((x,), {}),
    "iscomplexobj": lambda d, x: ((x,), {}),
    "isrealobj": lambda d, x: ((x,), {}),
    "isneginf": lambda d, x: ((x,), {}),
    "isposinf": lambda d, x: ((x,), {}),
    "ndim": lambda d, x: ((x,), {}),
    "shape": lambda d, x: ((x,), {}),
    "size": lambda d, x: ((x,), {"axis": d.pick([None, 0])} if x.ndim else {}),
    "isfortran": lambda d, x: ((x,), {}),
    "broadcast_shapes": lambda d, x: ((x.shape, d.pick([(), (2, 1), x.shape[::-1]])), {}),
    "can_cast": lambda d, x: ((x.dtype, d.pick(DTYPES)), {"casting": d.pick(
        ["safe", "same_kind", "unsafe", "equiv", "no"])}),
    "result_type": lambda d, x: ((x, d.pick(DTYPES), d.pick([1, 1.0, 2**40])), {}),
    "promote_types": lambda d, x: ((x.dtype, d.pick(DTYPES)), {}),
    "common_type": lambda d, x: ((x, d.arr()), {}),
    "min_scalar_type": lambda d, x: ((d.pick([0, -1, 300, 2**64 - 1, 1.5, 1j]),), {}),
    "mintypecode": lambda d, x: ((d.pick(["f", "d", "F", "fd", "Ff"]),), {}),
    "isdtype": lambda d, x: ((x.dtype, d.pick(["bool", "signed integer", "integral",
                                               "real floating", "complex floating",
                                               "numeric"])), {}),
    "issubdtype": lambda d, x: ((x.dtype, d.pick([onp.integer, onp.floating, onp.number,
                                                  onp.inexact, onp.bool_])), {}),
    "typename": lambda d, x: ((x.dtype.char,), {}),
    "poly": lambda d, x: ((x.ravel()[:3],), {}),
    "polyadd": lambda d, x: ((x.ravel(), d.arr(max_dims=1)), {}),
    "polysub": lambda d, x: ((x.ravel(), d.arr(max_dims=1)), {}),
    "polymul": lambda d, x: ((x.ravel(), d.arr(max_dims=1)), {}),
    "polydiv": lambda d, x: ((x.ravel(), d.arr(dtypes=FLOATS[1:], max_dims=1)), {}),
    "polyder": lambda d, x: ((x.ravel(), d.int(0, 2)), {}),
    "polyint": lambda d, x: ((x.ravel(), d.int(0, 2)), {}),
    "polyval": lambda d, x: ((x.ravel(), d.arr()), {}),
    "polyfit": lambda d, x: ((onp.arange(4).astype(d.pick([onp.int8, onp.int64, onp.float16,
                                                           onp.float32, onp.float64,
                                                           onp.complex128])),
                              d.arr(dtypes=FLOATS[1:], shape=(4,)), d.int(0, 2)),
                             {"full": d.pick([False, True])}),
    "roots": lambda d, x: ((x.ravel()[:4],), {}),
}


@pytest.mark.parametrize("name", sorted(PREDICATES))
@PER_FUNCTION
@given(data=st.data())
def test_predicates_dtypes_polynomials(name, data):
    d = Draw(data)
    x = d.arr()
    args, kw = PREDICATES[name](d, x)
    if name == "roots":
        return None if deviation(name, args, kw) else _check_roots(args[0])
    if name == "polyfit":
        return None if deviation(name, args, kw) else _check_polyfit(args, kw)
    check(name, args, kw)


def _check_polyfit(args, kw):
    """polyfit's coefficients to a tolerance scaled by the data (a coefficient
    that is 0 in exact arithmetic is a rounding residue of ``max |y|``)."""
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = onp.polyfit(*args, **kw)
        except Exception as e:
            with pytest.raises(_builtin_bases(e)):
                np.polyfit(*ours(list(args)), **kw)
            return
        got = np.polyfit(*ours(list(args)), **kw)
    got, exp = (v[:2] if kw.get("full") else (v,) for v in (got, exp))
    scale = max(1.0, float(onp.nanmax(onp.abs(onp.where(onp.isinf(args[1]), 0, args[1])),
                                      initial=0)))
    for power, g, e in zip((1, 2), got, exp):     # coefficients, squared residuals
        g = onp.asarray(g)
        assert (g.dtype, g.shape) == (e.dtype, e.shape)
        onp.testing.assert_allclose(g, e, rtol=1e-6,
                                    atol=min(1e-8 * scale * (scale if power == 2 else 1), 1e300))


def _check_roots(p):
    """roots come in an unspecified order: compare them sorted."""
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            exp = onp.roots(p)
        except Exception as e:
            with pytest.raises(_builtin_bases(e)):
                np.roots(np.asarray(p))
            return
        got = onp.asarray(np.roots(np.asarray(p)))
    assert (got.dtype, got.shape) == (exp.dtype, exp.shape)
    onp.testing.assert_allclose(onp.sort_complex(got), onp.sort_complex(exp), rtol=1e-3,
                                atol=1e-3)


CALLABLES = {
    "apply_along_axis": lambda d, x: ((onp.sum, d.axis(x, none=False), x), {}),
    "apply_over_axes": lambda d, x: ((onp.sum, x, [0]), {}),
}


@pytest.mark.parametrize("name", sorted(CALLABLES))
@PER_FUNCTION
@given(data=st.data())
def test_functions_taking_a_function(name, data):
    d = Draw(data)
    x = d.arr(min_dims=1, min_side=1)
    args, kw = CALLABLES[name](d, x)
    if name == "apply_along_axis":     # the function sees this library's arrays
        args = (lambda v: v.sum(),) + args[1:]
    elif name == "apply_over_axes":
        args = (lambda v, axis: v.sum(axis=axis, keepdims=True),) + args[1:]
    check(name, args, kw)


# Public functions outside every family, each with the reason.
EXCLUDED = {
    # files and text I/O: no array semantics to draw (tested in test_idioms)
    "load": "file I/O", "save": "file I/O", "savez": "file I/O",
    "savez_compressed": "file I/O", "savetxt": "file I/O", "loadtxt": "file I/O",
    "genfromtxt": "file I/O", "fromfile": "file I/O", "fromregex": "file I/O",
    # printing and process-wide settings: text or global state, not values
    "array2string": "printing", "array_repr": "printing", "array_str": "printing",
    "format_float_positional": "printing", "format_float_scientific": "printing",
    "base_repr": "text of a Python int", "binary_repr": "text of a Python int",
    "set_printoptions": "global state", "get_printoptions": "global state",
    "printoptions": "global state (a context manager)",
    "seterr": "global state", "geterr": "global state", "seterrcall": "global state",
    "geterrcall": "global state", "setbufsize": "global state",
    "getbufsize": "global state",
    "show_config": "prints the build", "show_runtime": "prints the build",
    "get_include": "C headers path", "info": "prints help",
    # no NumPy value to compare
    "datetime_data": "NumPy's own function of a dtype",
    "busday_count": "NumPy's own, on datetime data (host data; test_idioms)",
    "busday_offset": "NumPy's own, on datetime data (host data; test_idioms)",
    "is_busday": "NumPy's own, on datetime data (host data; test_idioms)",
    "datetime_as_string": "NumPy's own, on datetime data (host data; test_idioms)",
    "frompyfunc": "object arrays are not supported",
    "einsum_path": "returns NumPy's contraction plan text",
    "may_share_memory": "memory layout (views are emulated; test_views)",
    "shares_memory": "memory layout (views are emulated; test_views)",
    "from_dlpack": "takes a producer object (test_array_api)",
    "iterable": "a Python predicate on any object (test_idioms)",
    "isscalar": "a Python predicate on any object (test_idioms)",
    "asmatrix": "NumPy's matrix class, on host data (test_idioms)",
    "bmat": "NumPy's matrix class, on host data (test_idioms)",
    "nested_iters": "NumPy's own iterators, reading host copies (test_idioms)",
}

FAMILIES = {
    "unary_ufunc": UNARY_UFUNCS, "binary_ufunc": BINARY_UFUNCS, "reduction": REDUCTIONS,
    "cumulative": CUMULATIVE, "sorting": SORTING, "sets": SETS,
    "manipulation": sorted(MANIPULATION), "indexing": sorted(INDEXING),
    "creation": sorted(CREATION), "products_linalg": sorted(PRODUCTS), "fft": FFT,
    "statistics": sorted(STATISTICS), "predicates": sorted(PREDICATES),
    "callables": sorted(CALLABLES),
}


def test_every_public_function_is_fuzzed():
    """The families and the exclusion list partition the public functions
    shared with NumPy: a new function fails here until it is placed."""
    covered = [n for names in FAMILIES.values() for n in names]
    dup = sorted({n for n in covered if covered.count(n) > 1})
    assert not dup, f"in two families: {dup}"
    assert not set(covered) & set(EXCLUDED), sorted(set(covered) & set(EXCLUDED))
    unplaced = sorted(PUBLIC - set(covered) - set(EXCLUDED))
    assert not unplaced, f"public functions in no family: {unplaced}"
    stale = sorted((set(covered) | set(EXCLUDED) | set(KNOWN) | set(DEVIATIONS)) - PUBLIC)
    assert not stale, f"listed but not public in both: {stale}"


# ------------------------------------------- fixed findings, pinned

def test_common_type_takes_namedarrays():
    """It raised TypeError (no __array_function__ implementation)."""
    assert np.common_type(np.arange(3), np.ones(2, np.float32)) is onp.float64
    assert np.common_type(np.ones(2, np.float16)) is onp.float16
    assert np.common_type(np.ones(2, np.complex64), onp.ones(1)) is onp.complex128


@pytest.mark.parametrize("name,args", [
    ("polyder", ("P",)), ("polyint", ("P",)), ("polyadd", ("P", [1, 2])),
    ("polysub", ([1, 2], "P")), ("polymul", ("P", "P")), ("polydiv", ("P", [1, 1]))])
def test_poly1d_in_poly1d_out(name, args):
    """NumPy's polynomial functions return ``poly1d`` when given one, so the
    result can be called and printed as NumPy's; the coefficients are NumPy's."""
    def call(mod):
        return getattr(mod, name)(*[onp.poly1d([1, 1, 1, 1]) if a == "P" else a
                                    for a in args])
    got, want = call(np), call(onp)
    for g, w in zip(got if name == "polydiv" else [got], want if name == "polydiv" else [want]):
        assert type(g) is onp.poly1d and repr(g) == repr(w)
    assert np.polyder(np.poly1d([1, 1, 1, 1]))(2.) == 17.0
    assert type(np.polyder([1, 2, 3])) is np.NamedArray


def test_poly1d_result_under_jit_raises():
    with pytest.raises(TypeError, match=r"polyadd: a numpy.poly1d result cannot hold "
                                        r"a traced value.*p.coeffs"):
        jax.jit(lambda c: np.polyadd(onp.poly1d([1, 2]), c).data)(np.asarray([1., 2.]))
    with pytest.raises(TypeError, match=r"polyval: a numpy.poly1d result cannot hold "
                                        r"a traced value.*x.coeffs"):
        jax.jit(lambda c: np.polyval(c, onp.poly1d([1, 2])))(np.asarray([1., 2.]))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
@pytest.mark.parametrize("a,kw", [
    ([15, 25, 35], {}), ([[4, 6], [8, 12]], {"axis": 1}),
    ([[4, 6], [8, 12]], {"axis": 0, "keepdims": True}),
    (onp.array([-128, 0, 64], onp.int8), {}), (onp.zeros((0, 2), int), {"axis": 0})])
def test_gcd_lcm_reduce_and_accumulate(name, a, kw):
    """NumPy's gcd and lcm are ufuncs with reduce and accumulate."""
    uf, nuf = getattr(np, name), getattr(onp, name)
    try:
        want = nuf.reduce(onp.asarray(a), **kw)
    except ValueError as e:     # lcm has no identity: the same error, named
        with pytest.raises(ValueError, match=f"{name}.reduce: {e}"):
            uf.reduce(a, **kw)
        return
    got = uf.reduce(a, **kw)
    assert got.dtype == want.dtype and onp.array_equal(onp.asarray(got), want)
    acc = nuf.accumulate(onp.asarray(a), axis=kw.get("axis", 0))
    assert onp.array_equal(onp.asarray(uf.accumulate(a, axis=kw.get("axis", 0))), acc)


def test_ascontiguousarray_is_at_least_1d():
    """A 0-d input stayed 0-d (NumPy: shape (1,))."""
    for f in (np.ascontiguousarray, np.asfortranarray):
        assert f(np.asarray(3.0)).shape == (1,) and f(3).dtype == onp.int64
        x = np.arange(3.0)
        assert f(x) is x and f([1, 2], dtype=np.float32).dtype == onp.float32


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_sample_frequencies_of_zero_raise(name):
    """fftfreq(0) returned an empty array (NumPy divides by n * d)."""
    with pytest.raises(ZeroDivisionError, match=rf"{name}: n \* d is zero \(n=0, d=1.0\)"):
        getattr(np.fft, name)(0)
    with pytest.raises(ZeroDivisionError, match=rf"{name}: n \* d is zero \(n=4, d=0\)"):
        getattr(np.fft, name)(4, 0)


# ------------------------------------------- crash and hang candidates

# Calls that once killed or hung the interpreter: each runs in a fresh
# interpreter with a timeout and must print NumPy's answer (or NumPy's error).
CRASH_CANDIDATES = [
    "np.gcd(np.asarray(onp.array([-128, 3], onp.int8)), onp.int8(-128))",
    "np.lcm(np.asarray(onp.array([-128, 3], onp.int8)), onp.int8(-128))",
    "np.gcd(np.asarray(onp.array([-2**63], onp.int64)), -2**63)",
    "np.mean(np.asarray(onp.zeros(0, int)), dtype=onp.int8)",
    "np.mean(np.asarray(onp.zeros((0, 2), onp.int8)), axis=0, dtype=onp.int8)",
    "np.floor_divide(np.asarray(onp.array([-128], onp.int8)), onp.int8(-1))",
    "np.remainder(np.asarray(onp.array([-2**63], onp.int64)), -1)",
    "np.asarray(onp.arange(3)) + 2**64",
    "np.arange(2**63 - 2, 2**63 - 1)",
]

_RUNNER = """
import sys, warnings
import jax
import numpy as onp
import namedarray as np
warnings.simplefilter("ignore")
onp.seterr(all="ignore")
def run(mod, src):
    try:
        r = eval(src, {"np": mod, "onp": onp})
        return "value", onp.asarray(r).dtype.str, onp.asarray(r).tolist()
    except Exception as e:
        return "error", [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"]
for src in sys.argv[1:]:
    print("START", src, flush=True)
    exp, got = run(onp, src), run(np, src)
    if exp[0] == "error":
        ok = got[0] == "error" and exp[1][0] in got[1]
    else:
        ok = exp[:2] == got[:2] and onp.allclose(exp[2], got[2], equal_nan=True)
    print("OK" if ok else f"MISMATCH numpy={exp} namedarray={got}", flush=True)
"""


def test_crash_candidates_in_a_subprocess():
    """One fresh interpreter runs them in turn; a crash or a hang names the call
    it was in."""
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    try:
        p = subprocess.run([sys.executable, "-c", _RUNNER, *CRASH_CANDIDATES],
                           capture_output=True, text=True, timeout=300, env=env)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(), "timeout"
    lines = out.splitlines()
    started = [ln[6:] for ln in lines if ln.startswith("START ")]
    if rc != 0:
        pytest.fail(f"{'hangs' if rc == 'timeout' else f'crashed ({rc})'} in: "
                    f"{started[-1] if started else 'the import'}")
    bad = [(src, res) for src, res in zip(started, lines[1::2]) if res != "OK"]
    assert not bad and len(started) == len(CRASH_CANDIDATES), bad


@pytest.mark.parametrize("name", ["i0", "sinc", "poly", "corrcoef", "cov",
                                  "histogram_bin_edges"])
@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.int32, onp.float32])
def test_float64_results_of_narrow_data(name, dt):
    """NumPy computes these in float64 for bool and integer data (and cov,
    corrcoef in float64 for any real data); jax.numpy's promotion gave float32."""
    x = onp.array([1, 0, 1, 1], dt)
    check(name, (x,))


@pytest.mark.parametrize("bins", [3, [0, 1, 5]])
@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize("weights", [None, onp.array([1, 2, 3]), onp.array([0.5, 1, 2])])
def test_histogram_dtypes(bins, density, weights):
    """Counts are intp or the weights' dtype, densities float64, computed edges
    of integer data float64 and given edges as given."""
    check("histogram", (onp.array([1, 2, 3], onp.int8),),
          {"bins": bins, "density": density, "weights": weights})


# ------------------------------------------------- seeded random streams (#24)
# a stream seeded NumPy's way draws NumPy's exact numbers, dtypes and types
SEEDED_DRAWS = {
    "random": lambda d: ((), {"size": d.pick([None, 3, (2, 2)])}),
    "normal": lambda d: ((d.pick([0.0, -1.5]), d.pick([1.0, [0.5, 2.0]])),
                         {"size": d.pick([None, 2, (3, 2)])}),
    "uniform": lambda d: ((-1.0, d.pick([1.0, 4.0])), {"size": d.pick([None, 4])}),
    "poisson": lambda d: ((d.pick([0.5, 3.0, [1.0, 9.0]]),), {}),
    "binomial": lambda d: ((d.pick([1, 7]), d.pick([0.3, [0.1, 0.9]])), {}),
    "exponential": lambda d: ((d.pick([1.0, 2.5]),), {"size": d.pick([None, 3])}),
    "choice": lambda d: ((d.pick([5, [2.0, 4.0, 8.0]]),),
                         {"size": d.pick([None, 2]), "replace": d.pick([True, False])}),
    "permutation": lambda d: ((d.pick([6, [1, 2, 3, 4]]),), {}),
    "standard_normal": lambda d: ((), {"size": d.pick([None, 5])}),
}


@pytest.mark.parametrize("name", sorted(SEEDED_DRAWS))
@PER_FUNCTION
@given(data=st.data())
def test_seeded_stream_draws_numpys_numbers(name, data):
    d = Draw(data)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    make = data.draw(st.sampled_from(["RandomState", "default_rng"]), label="stream")
    args, kw = SEEDED_DRAWS[name](d)
    if make == "RandomState" and name == "random":
        name = "random_sample"
    want = getattr(getattr(onp.random, make)(seed), name)(*args, **kw)
    got = getattr(getattr(np.random, make)(seed), name)(*args, **kw)
    if isinstance(want, onp.ndarray | onp.generic):
        assert isinstance(got, np.NamedArray) and got.dtype == want.dtype, (got, want)
        # (a scalar draw is one of NumPy's scalar types, an array is an ndarray)
        assert isinstance(got, onp.generic) == isinstance(want, onp.generic), (got, want)
        assert isinstance(got, np.ndarray) == isinstance(want, onp.ndarray), (got, want)
        onp.testing.assert_array_equal(onp.asarray(got), want)
    else:
        assert type(got) is type(want) and got == want, (got, want)


#: results NumPy gives as scalars (a full reduction, integer indexing, item
#: access, ...): they must print and answer as NumPy's do (docs/design.md §1)
SCALAR_RESULTS = {
    "sum": lambda m, v: v.sum(), "np.sum": lambda m, v: m.sum(v),
    "max": lambda m, v: v.max(), "np.min": lambda m, v: m.min(v),
    "index": lambda m, v: v[(0,) * v.ndim], "index -1": lambda m, v: v[(-1,) * v.ndim],
    "argmax": lambda m, v: v.argmax(), "np.argmin": lambda m, v: m.argmin(v),
    "any": lambda m, v: v.any(), "np.all": lambda m, v: m.all(v),
    "count_nonzero": lambda m, v: m.count_nonzero(v), "item": lambda m, v: v.item(0),
    "mean": lambda m, v: v.mean(), "median": lambda m, v: m.median(v),
    "tuple": lambda m, v: (v.min(), v[(0,) * v.ndim]), "ptp": lambda m, v: m.ptp(v),
    "dot": lambda m, v: m.dot(v.ravel(), v.ravel()),
}


@pytest.mark.parametrize("name", sorted(SCALAR_RESULTS))
@PER_FUNCTION
@given(data=st.data())
def test_scalar_results_print_and_answer_as_numpy_s(name, data):
    """Small integer values (exact in every dtype and every summation order),
    so the values agree and what is compared is the result's kind: repr, str,
    isscalar, ndim, dtype, Python type for ``item``."""
    dt = data.draw(st.sampled_from([d for d in DTYPES if name not in ("median", "mean")
                                    or onp.dtype(d).kind != "c"]), label="dtype")
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3),
                            label="shape"))
    hi = 1 if name in ("dot",) else 5
    a = onp.asarray(data.draw(st.lists(st.integers(0, hi), min_size=int(onp.prod(shape)),
                                       max_size=int(onp.prod(shape))), label="values"),
                    ).reshape(shape).astype(dt)
    f = SCALAR_RESULTS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = f(onp, a)
        except Exception as e:      # noqa: BLE001 -- then namedarray raises it too
            with pytest.raises(type(e)):
                f(np, np.asarray(a))
            return
        got = f(np, np.asarray(a))
    for w, g in zip(want, got) if isinstance(want, tuple) else [(want, got)]:
        assert repr(g) == repr(w) and str(g) == str(w), (g, w)
        assert np.isscalar(g) == onp.isscalar(w) and np.ndim(g) == onp.ndim(w), (g, w)
        if isinstance(w, onp.generic):
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
        else:
            assert type(g) is type(w), (type(g), type(w))


def _host_arrays(data):
    """An array of a dtype JAX cannot hold: object, str, bytes, datetime64,
    timedelta64; 1-d or 2-d, 0-size included."""
    kind = data.draw(st.sampled_from(["object", "str", "bytes", "datetime64[D]",
                                      "timedelta64[s]"]), label="kind")
    shape = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2),
                            label="shape"))
    n = int(onp.prod(shape))
    ints = data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n), label="values")
    if kind == "object":
        vals = [None if i == 0 else (i, "x") if i == 6 else i for i in ints]
        a = onp.empty(n, object)
        a[:] = vals
    elif kind == "str":
        a = onp.array(["ab"[: i % 3] * (i // 2) for i in ints], dtype="U8")
    elif kind == "bytes":
        a = onp.array([b"x" * i for i in ints], dtype="S8")
    else:
        a = onp.array(ints, dtype="int64").astype(kind)
    return a.reshape(shape)


#: functions NumPy answers for on host data: (NumPy's callable on the module)
HOST_CALLS = {
    "concatenate": lambda m, a: m.concatenate([a, a], axis=0),
    "reshape": lambda m, a: m.reshape(a, (-1,)), "transpose": lambda m, a: m.transpose(a),
    "flip": lambda m, a: m.flip(a), "repeat": lambda m, a: m.repeat(a, 2),
    "where": lambda m, a: m.where(m.ones(a.shape, bool), a, a),
    "take": lambda m, a: m.take(a, [0], axis=0) if a.shape[0] else m.take(a, [], axis=0),
    "sort": lambda m, a: m.sort(a, axis=None) if a.dtype != object else m.ravel(a),
    "unique": lambda m, a: m.unique(a) if a.dtype != object else m.ravel(a),
    "array_equal": lambda m, a: m.array_equal(a, a.copy()),
    "stack": lambda m, a: m.stack([a, a]), "atleast_2d": lambda m, a: m.atleast_2d(a),
    "getitem": lambda m, a: a[::-1], "shape": lambda m, a: m.shape(a),
    "full_like": lambda m, a: m.full_like(a, a.flat[0]) if a.size else m.empty_like(a),
}


@pytest.mark.parametrize("name", sorted(HOST_CALLS))
@PER_FUNCTION
@given(data=st.data())
def test_host_dtypes_answer_as_numpy(name, data):
    """Data JAX cannot hold is NumPy's own array (docs/design.md §6c): namedarray's
    functions given it give NumPy's result, printed the same."""
    a = _host_arrays(data)
    try:
        want = HOST_CALLS[name](onp, a)
    except Exception as e:      # noqa: BLE001 -- then namedarray raises it too
        with pytest.raises(type(e)):
            HOST_CALLS[name](np, np.array(a))
        return
    got = HOST_CALLS[name](np, np.array(a))
    assert repr(got) == repr(want), (got, want)
    if isinstance(want, onp.ndarray):
        assert type(got) is onp.ndarray and got.dtype == want.dtype

"""Every Python operator of namedarray's scalars against NumPy's scalars.

Every Python operand type (bool, int, an int beyond int64, float, complex,
``Fraction``, ``Decimal``, NumPy's scalars) x every scalar dtype x every
operator (``+ - * / // % ** divmod``, the comparisons, ``& | ^ << >>``,
unary ``- + ~ abs``), forward, reflected and in place (``t = s; t += x``
rebinds ``t`` and leaves ``s``), for each form a scalar takes (an element
read living on the host, a reduction's 0-d buffer, data on a device): the
value, the dtype (NumPy's scalar: namedarray's scalar) or the Python type of
the result, NumPy's error type where NumPy raises, no warning NumPy does not
give (NumPy's default state warns about floating-point errors, namedarray's
does not: docs/differences.md).  Under ``jax.jit``, where the scalar is
traced: the eager result's dtype and value, or a ``TypeError`` naming the
function for an operand that only Python's arithmetic can answer.

The operators are parametrized with the dtypes, the operands looped over
inside.  ``NAMEDARRAY_EXHAUSTIVE=1`` (or ``HYPOTHESIS_PROFILE=fuzz``) adds
values (zero, negatives, the extremes, NaN, infinities, -0.0) and operands.
"""
from __future__ import annotations

import decimal
import fractions
import math
import operator
import os
import warnings

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray.core.array import is_value
from support import traced_lacks

EXHAUSTIVE = bool(os.environ.get("NAMEDARRAY_EXHAUSTIVE")) or \
    os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
          "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
          "pow": operator.pow, "divmod": divmod, "eq": operator.eq, "ne": operator.ne,
          "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
          "and": operator.and_, "or": operator.or_, "xor": operator.xor,
          "lshift": operator.lshift, "rshift": operator.rshift}
#: the ufunc each operator is (the name its errors give)
UFUNC = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
         "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "divmod": "divmod",
         "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
         "gt": "greater", "ge": "greater_equal", "and": "bitwise_and", "or": "bitwise_or",
         "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift"}
UNARY = {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert, "abs": abs}
#: the comparison Python calls on the right operand where the left one declines
SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
#: the in-place operators (NumPy's scalars have none: ``t op= x`` is ``t = t op x``)
INPLACE = {k: getattr(operator, f"i{k}") for k in BINARY
           if k not in ("divmod", "eq", "ne", "lt", "le", "gt", "ge")}

OPERANDS = [True, False, 3, -2, 2 ** 63, -(2 ** 70), 2.5, float("nan"), 1.5 - 2j,
            fractions.Fraction(1, 3), decimal.Decimal("1.5"), onp.float32(1.5),
            onp.int8(3), onp.uint64(5), onp.complex64(1j), onp.bool_(True),
            onp.float64(2.5), onp.int64(-4), onp.float16(2)]
if EXHAUSTIVE:
    OPERANDS += [0, 1, 255, 2 ** 31, -(2 ** 63), 2 ** 64 - 1, 2 ** 100, -0.0, 0.0, 1e300,
                 float("inf"), float("-inf"), 0j, complex("nan+1j"), 1e300j,
                 fractions.Fraction(-7, 2), fractions.Fraction(4), decimal.Decimal("-2"),
                 decimal.Decimal("NaN"), onp.uint8(200), onp.int16(-300), onp.uint32(7),
                 onp.complex128(2 - 1j), onp.float32("inf")]


def _values(dt):
    """The scalar values tested for ``dt``."""
    kind = onp.dtype(dt).kind
    if kind == "b":
        return [True, False] if EXHAUSTIVE else [True]
    if not EXHAUSTIVE:
        return [3]
    if kind == "u":
        return [3, 0, int(onp.iinfo(dt).max)]
    if kind == "i":
        return [3, 0, -2, int(onp.iinfo(dt).min), int(onp.iinfo(dt).max)]
    vals = [3, 0, -2.5, -0.0, float("inf"), float("-inf"), float("nan"),
            float(onp.finfo(dt).max)]
    return vals + ([complex(1.5, -2), complex("nan+1j")] if kind == "c" else [])


def _forms(dt, v):
    """namedarray's scalars of value ``v``: (form, scalar), each as met."""
    a = onp.array([v, v], dt)
    yield "element", np.asarray(a)[1]                  # an element read (host data)
    yield "reduction", np.max(np.asarray(a))           # a reduction's 0-d buffer
    yield "device", np.NamedArray(jnp.asarray(a[0]))   # data on a device


def _standard(e):
    """The standard exception type of ``e`` (NumPy's UFuncTypeError: TypeError)."""
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def _outcome(f, *args):
    """``("ok", result, warning categories)`` or ``("err", exception, [])``."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(*args)
        except Exception as e:      # noqa: BLE001 -- compared with NumPy's
            return "err", e, []
    return "ok", r, [m.category for m in w]


def _same_number(g, w) -> bool:
    """Equal bits, any NaN matching any NaN (parts of complex numbers apart)."""
    if isinstance(w, complex) or onp.iscomplexobj(w):
        return _same_number(g.real, w.real) and _same_number(g.imag, w.imag)
    if w != w:
        return g != g
    ga, wa = onp.asarray(g), onp.asarray(w)
    return ga.dtype == wa.dtype and ga.tobytes() == wa.tobytes() if ga.dtype.kind != "O" \
        else g == w


def _own(name, args, want):
    """(namedarray's answer, another it may give) where namedarray's
    deliberately is not NumPy's ``want`` (``host.OWN_ANSWERS``): ``//`` of
    real floats where an operand is infinite is ``floor(a / b)``
    (docs/differences.md, "Floor division of infinities"); where an operand
    becomes infinite only in NumPy's cast into the dtype (``1e300 //
    float32(3)``), either answer."""
    if name != "floordiv" or not isinstance(want, onp.generic) or want.dtype.kind != "f":
        return want, None
    dt = want.dtype
    with onp.errstate(all="ignore"):
        given = [bool(onp.isinf(x)) if isinstance(x, onp.generic) else math.isinf(float(x))
                 for x in args]
        a, b = (onp.asarray(x if isinstance(x, onp.generic) else float(x)).astype(dt)
                for x in args)
        if onp.isinf(a) or onp.isinf(b):
            return (onp.floor(a / b), None) if any(given) else (want, onp.floor(a / b))
    return want, None


def _rounded(name, dt, x, form) -> bool:
    """Whether the value is compared to rounding (:func:`_close`): XLA's
    (data on a device, float16's, which lives there, NumPy's float16 scalar
    operands, which the compiled path takes), or one where NumPy's scalar
    operator and its ufunc's loop differ in the last place (``**``, ``abs``
    of a complex: ``abs(numpy.complex64(z))`` is not always
    ``numpy.abs(numpy.complex64(z))``)."""
    return form == "device" or "float16" in (str(dt), type(x).__name__) or \
        name == "pow" or name == "abs" and onp.dtype(dt).kind == "c"


def _huge(name, label, v, dt) -> bool:
    """Whether the scalar ``v`` of ``dt`` divides (``x / s``) with a reciprocal
    below the normal range (its complex division's scale flushes on the CPU)."""
    return name in ("truediv", "floordiv", "mod", "divmod") and label.endswith(" s") and \
        isinstance(v, float) and onp.dtype(dt).kind in "fc" and \
        abs(v) * onp.finfo(dt).tiny > 1


def _check(got, want, what, sides=False, xla=None, huge=False):
    """namedarray's outcome ``got`` is NumPy's ``want``: the same error type;
    or NumPy's scalar as namedarray's scalar of that dtype and bits, a Python
    object of the same type and value, tuples element by element; warnings
    only of NumPy's categories, and all of NumPy's that are not about
    floating-point errors.  ``sides``: a comparison that Python's left operand
    declined (``1j == s``), which a scalar cannot tell from ``s == 1j``."""
    if want[0] == "err":
        assert got[0] == "err", (what, "NumPy raises", repr(want[1]), "got", got[1])
        assert isinstance(got[1], _standard(want[1])), (what, got[1], want[1])
        return
    assert got[0] == "ok", (what, "NumPy gives", want[1], "got", repr(got[1]))
    assert set(got[2]) <= set(want[2]), (what, got[2], want[2])
    assert {c for c in want[2] if not issubclass(c, RuntimeWarning)} <= set(got[2]), what
    try:
        _same(got[1], want[1], what, sides, xla, huge)
    except AssertionError:
        if want[3] is None:
            raise
        _same(got[1], want[3], what, sides, xla, huge)


def _same(g, w, what, sides=False, xla=None, huge=False):
    """``xla``: the operator's name where the value is XLA's (data on a
    device), within XLA's rounding of NumPy's (:func:`_close`)."""
    if isinstance(w, tuple):
        assert type(g) is tuple and len(g) == len(w), (what, g, w)
        for a, b in zip(g, w):
            _same(a, b, what, xla=xla, huge=huge)
        return
    if isinstance(w, onp.generic) or sides and type(w) is bool:
        # namedarray's scalar, or NumPy's own (Python code that read the scalar's
        # NumPy attributes: ``Fraction == s`` compares ``s.numerator``)
        assert type(g) is np.NamedArray and is_value(g) or type(g) is type(w), (
            what, repr(g), repr(w))
        h = onp.asarray(g)[()]
        assert h.dtype == onp.asarray(w).dtype, (what, h.dtype, onp.asarray(w).dtype)
        if xla:
            _close(onp.asarray(h), onp.asarray(w), xla, what, huge=huge)
        else:
            assert _same_number(h, onp.asarray(w)[()]), (what, h, w)
        return
    assert type(g) is type(w), (what, type(g), type(w), g, w)
    assert _same_number(g, w), (what, g, w)


def _cases(name, dt, operands=None):
    """(label, function of the scalar, the other operand or None) for every
    operand (and NumPy's scalar of ``dt``) and direction of operator ``name``."""
    if name in UNARY:
        return [("unary", UNARY[name], None)]
    f, out = BINARY[name], []
    for x in (OPERANDS if operands is None else operands) + [onp.array(3, dt)[()]]:
        label = f"{type(x).__name__}({x!r})"
        out.append((f"s {name} {label}", lambda s, x=x: f(s, x), x))
        out.append((f"{label} {name} s", lambda s, x=x: f(x, s), x))
        if name in INPLACE:
            out.append((f"t {name}= {label}", lambda s, x=x, i=INPLACE[name]: i(s, x), x))
    return out


def _numpys(name, label, x, ref):
    """NumPy's outcome of a case on NumPy's scalar ``ref`` (namedarray's own
    answer where it is deliberately not NumPy's: :func:`_own`)."""
    fn = dict((c[0], c[1]) for c in _cases(name, ref.dtype, [x] if x is not None else []))
    want = _outcome(fn[label], ref) + (None,)
    if want[0] == "ok":
        args = (ref,) if x is None else (x, ref) if label.endswith(" s") else (ref, x)
        value, other = _own(name, args, want[1])
        want = ("ok", value, want[2], other)
    return want


def _is_object(x) -> bool:
    """An operand no array holds, answered by Python's arithmetic (Fraction, Decimal)."""
    return x is not None and not isinstance(x, (bool, int, float, complex, onp.generic))


OPERATORS = list(BINARY) + list(UNARY)


@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.parametrize("dt", DTYPES)
def test_scalar_operators_are_numpys(dt, name):
    """Each form of namedarray's scalar, eager, against NumPy's scalar: the
    forms living on the host with every operand; the form on a device with
    the operands Python's arithmetic answers (every operand where exhaustive:
    the others compile, as under ``jax.jit``, below)."""
    for v in _values(dt):
        ref = onp.array(v, dt)[()]
        for label, fn, x in _cases(name, dt):
            want = _numpys(name, label, x, ref)
            sides = name in ("eq", "ne") and label.endswith(" s")
            for form, s in _forms(dt, v):
                if form == "device" and not (EXHAUSTIVE or _is_object(x) or type(x) is complex):
                    continue
                before = onp.asarray(s).tobytes()
                got = _outcome(fn, s)
                _check(got, want, (dt, v, form, label), sides,
                       name if _rounded(name, dt, x, form) else None, _huge(name, label, v, dt))
                assert onp.asarray(s).tobytes() == before, (dt, v, form, label, "changed s")


#: one operand of each Python type (the traced check; every operand where exhaustive)
TYPES = [True, 3, 2 ** 63, -(2 ** 70), 2.5, 1.5 - 2j, fractions.Fraction(1, 3),
         decimal.Decimal("1.5"), onp.float32(1.5), onp.uint64(5)]


@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.parametrize("dt", DTYPES[:-1] + [pytest.param("complex128", marks=pytest.mark.cpu_only(
    "complex128 under jax.jit: a TPU has no implementation of it (the table's TypeError)"))])
def test_scalar_operators_under_jit_are_numpys(dt, name):
    """A traced scalar (``jax.jit``) gives NumPy's result dtype, NumPy's error
    type, or a TypeError naming the function where only Python's arithmetic
    answers (an object operand); where exhaustive, compiled, NumPy's values
    too (to XLA's rounding of ``**`` and complex division, docs/differences.md)."""
    cases = _cases(name, dt, None if EXHAUSTIVE else TYPES)
    for v in _values(dt):
        ref = onp.array(v, dt)[()]
        errors, consts = {}, {}

        def body(d):
            out = []
            for i, (_, fn, _) in enumerate(cases):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        r = fn(np.NamedArray(d))
                    except Exception as e:      # noqa: BLE001 -- compared below
                        errors[i] = e
                        r = None
                if r is not None and not isinstance(r, (np.NamedArray, tuple)):
                    consts[i], r = r, None      # (an answer that is not the scalar's)
                out.append(r)
            return out

        d = jnp.asarray(onp.array(v, dt))
        traced = jax.jit(body)(d) if EXHAUSTIVE else jax.eval_shape(body, d)
        for i, (label, _, x) in enumerate(cases):
            what = (dt, v, label)
            want = _numpys(name, label, x, ref)
            if _is_object(x):       # Python's arithmetic on the value, which a trace lacks
                if label.endswith(" s"):
                    # ``x op s``: the object's own operator sees the traced scalar
                    # first, as a number it does not know (Fraction's ``**`` takes
                    # it for a float): its error, or NumPy's value, or the
                    # object's float with the scalar (_as_number; NumPy's
                    # may come from the scalar's own arithmetic inside
                    # the object's: Fraction(-7, 2) ** int8(3) raises the
                    # numerator in int8, -343 wrapping to -87)
                    if i not in errors:
                        alt = _as_number(name, x, ref)
                        assert want[0] == "ok" or alt is not None, (what, want[1])
                        if EXHAUSTIVE:
                            g = complex(onp.asarray(traced[i]))
                            assert any(_near(g, e) for e in (
                                complex(want[1]) if want[0] == "ok" else None, alt)
                                if e is not None), (what, g, want[1], alt)
                    continue
                # ``s op x``: a TypeError naming the function, or NumPy's error
                names = {getattr(np, UFUNC[n]).__name__
                         for n in (name, SWAPPED.get(name)) if n is not None}
                assert want[0] == "err" and isinstance(errors.get(i), _standard(
                    want[1])) or isinstance(errors.get(i), TypeError) and str(
                    errors[i]).split(":")[0] in names, (what, errors.get(i), want[1])
                continue
            if want[0] == "err":
                if type(x) is complex and i not in errors and label.endswith(" s"):
                    # Python's complex arithmetic raised on the value (``1j / s``
                    # of a zero): traced, the ufunc's IEEE answer
                    assert type(want[1]) in (ZeroDivisionError, OverflowError), what
                    continue
                if name == "pow" and label.endswith(" s") and i not in errors and \
                        isinstance(want[1], ValueError) and dt != "bool":
                    # an integer power by a negative traced exponent (known only
                    # when it runs): JAX's integer power, as ufunc._check_int_power
                    continue
                assert i in errors, (what, "NumPy raises", repr(want[1]))
                assert isinstance(errors[i], _standard(want[1])), (what, errors[i], want[1])
                continue
            w = want[1]
            if i in errors and _refused_by_the_table(errors[i], x, w, ref):
                continue
            assert i not in errors, (what, errors.get(i))
            if i in consts:         # (an answer that does not depend on the value)
                _same(consts[i], w, what)
                continue
            other = w if want[3] is None else want[3]
            for g, e, o in zip(*((traced[i], w, other) if isinstance(w, tuple) else
                                 ((traced[i],), (w,), (other,)))):
                e = onp.asarray(e)
                assert g.dtype == e.dtype, (what, g.dtype, e.dtype)
                if EXHAUSTIVE:
                    huge = _huge(name, label, v, dt)
                    try:
                        _close(onp.asarray(g), e, name, what, True, huge)
                    except AssertionError:
                        try:
                            _close(onp.asarray(g), onp.asarray(o), name, what, True, huge)
                        except AssertionError:
                            # XLA's own value of the operation under jit (its
                            # folding of a constant operand: ``x * True``)
                            xla = _jax_numpys(name, label, d, x, ref)
                            if xla is None or not _same_number(
                                    onp.asarray(g)[()], onp.asarray(xla).astype(g.dtype)[()]):
                                raise


def _refused_by_the_table(err, x, w, s) -> bool:
    """Whether ``err`` is the capability table's TypeError at trace time for a
    traced call with the scalar ``s`` that computes in complex128 (a Python
    complex operand, NumPy's loop or result), which the default device lacks
    (a TPU)."""
    if not traced_lacks("any", onp.complex128) or type(err) is not TypeError:
        return False
    c128 = onp.dtype(onp.complex128)
    try:
        loop = onp.result_type(s, x)
    except TypeError:
        loop = None
    return (type(x) is complex or loop == c128 or any(
        onp.asarray(e).dtype == c128 for e in (w if isinstance(w, tuple) else (w,)))) \
        and "XLA backend has no implementation" in str(err)


def _near(g, e) -> bool:
    """The complex numbers ``g`` and ``e`` part by part, to float32's rounding
    (a NaN part matching a NaN part)."""
    return all(onp.isclose(p(g), p(e), rtol=1e-5, equal_nan=True)
               for p in (lambda z: z.real, lambda z: z.imag))


def _as_number(name, x, ref):
    """``x op ref`` with the object ``x`` as the float it converts to (what
    its operator takes a number it does not know for), NumPy's scalar ``ref``
    the other operand (as complex; None where it raises)."""
    try:
        with warnings.catch_warnings(), onp.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return complex(BINARY[name](float(x), ref))
    except (TypeError, ValueError, ArithmeticError):
        return None


def _jax_numpys(name, label, d, x, ref):
    """``jax.numpy``'s value of the case under ``jax.jit``, on the operands
    cast to NumPy's loop dtype (the other operand a constant, as the traced
    scalar's Python operand is); None where it has none."""
    f = UNARY[name] if x is None else BINARY[name]
    try:
        dt = onp.result_type(ref, x) if x is not None else ref.dtype
        c = None if x is None else onp.asarray(x).astype(dt)
    except (TypeError, ValueError, OverflowError):
        return None
    if name in ("truediv", "pow") and dt.kind in "biu":
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return jax.jit(lambda t: f(t.astype(dt)) if c is None else f(c, t.astype(dt))
                           if label.endswith(" s") else f(t.astype(dt), c))(d)
        except Exception:       # noqa: BLE001 -- no such jax.numpy operation
            return None


def _close(g, w, name, what, jit=False, huge=False):
    """``g`` against NumPy's ``w`` where one is XLA's (data on a device, or
    ``jit``) or NumPy's scalar loop against its array loop: the same bits, or
    XLA's documented differences (docs/differences.md): a subnormal result
    flushed to zero on the CPU, also one inside a complex division by a
    ``huge`` divisor (its reciprocal's scale: a part flushed to zero, an
    infinite part times the flushed scale NaN); under ``jit`` XLA's folding of
    ``x + 0``, ``x - 0``, ``x * 1`` with a constant operand (the sign of a zero
    result, a complex NaN's other part); for ``**`` and ``abs`` of a complex
    (NumPy's own scalar and array loops differ in the last bit too) and complex
    division, rounding: a
    few units in the last place, scaled for ``**`` by the exponent's size (the
    error of ``exp(b * log(a))``)."""
    if _same_number(g[()], w[()]):
        return
    assert w.dtype.kind in "fc", (what, g, w)
    fi = onp.finfo(w.dtype)
    if jit and w.dtype.kind == "c" and onp.isnan(w.real) | onp.isnan(w.imag) and \
            onp.isnan(g.real) | onp.isnan(g.imag):
        return
    for a, b in ((g.real, w.real), (g.imag, w.imag)) if w.dtype.kind == "c" else ((g, w),):
        if _same_number(a[()], b[()]) or (a == 0 and (0 < abs(b) < fi.tiny or huge or
                                                      jit and b == 0)) or (
                huge and onp.isnan(a) and onp.isinf(b)):
            continue
        assert name in ("pow", "abs") or w.dtype.kind == "c", (what, g, w)
        assert onp.isnan(a) == onp.isnan(b) and (onp.isinf(b) <= (a == b)), (what, g, w)
        if onp.isfinite(b):
            scale = max(1.0, abs(math.log2(abs(b)))) if name == "pow" and b else 1.0
            assert abs(a - b) <= 8 * fi.eps * scale * max(abs(b), fi.tiny), (what, g, w)


class _TakesOver:
    """An operand that takes NumPy's operators over (``__array_ufunc__ =
    None``, as ``pytest.approx``'s classes do): each reflected operator
    answers with its name."""
    __array_ufunc__ = None

    def __eq__(self, other):
        return "eq"

    def __ne__(self, other):
        return "ne"

    __hash__ = object.__hash__


for _n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
           "or", "xor", "lshift", "rshift", "divmod"):
    setattr(_TakesOver, f"__r{_n}__", (lambda n: lambda self, other: "r" + n)(_n))
for _n, _r in (("lt", "gt"), ("le", "ge"), ("gt", "lt"), ("ge", "le")):
    setattr(_TakesOver, f"__{_n}__", (lambda n: lambda self, other: n)(_n))

_TAKEN_OVER = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "==",
               "!=", "<", "<=", ">", ">="]


@pytest.mark.parametrize("make", ["scalar", "0-d", "array"])
def test_an_operand_with_array_ufunc_none_takes_the_operators_over(make):
    """NumPy's rule (NEP 13): an operator of an array or a scalar with an
    operand whose ``__array_ufunc__`` is None returns NotImplemented, so
    Python asks the operand (``s == pytest.approx(3.0)`` is approx's answer,
    not a TypeError); NumPy's functions refuse it, and so does ``+=``."""
    h = {"scalar": onp.float64(3.0), "0-d": onp.array(3.0),
         "array": onp.array([1, 2])}[make]
    x = np.asarray(h)[()] if make == "scalar" else np.asarray(h)
    other = _TakesOver()
    for op in _TAKEN_OVER:
        want = eval(f"h {op} other")
        assert eval(f"x {op} other") == want, op
    assert divmod(x, other) == divmod(h, other) == "rdivmod"
    with pytest.raises(TypeError, match="__array_ufunc__=None"):
        onp.add(h, other)
    with pytest.raises(TypeError, match="__array_ufunc__=None"):
        np.add(x, other)
    if make != "scalar":
        with pytest.raises(TypeError):
            h += other
        with pytest.raises(TypeError):
            x += other
    assert (x == pytest.approx(h)) is True and (x != pytest.approx(h)) is False

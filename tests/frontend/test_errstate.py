"""NumPy's floating-point error state (``errstate``, ``seterr``,
``seterrcall``) in eager namedarray calls, against NumPy as the oracle."""
from __future__ import annotations

import itertools
import warnings

import jax
import numpy as onp
import pytest

import namedarray as np
from namedarray.frontend.elementwise import UFUNCS
from namedarray.frontend.engines import fperr

#: special operand values (no subnormal numbers: XLA's CPU reads them as zero)
VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 800.0, 1e308, -1e308, 1e-300,
          onp.inf, -onp.inf, onp.nan]
INTS = [0, 1, -1, 2, onp.iinfo(onp.int64).min]


def outcome(f, args, mode="warn"):
    """The RuntimeWarnings (in order), or the exception, of ``f(*args)``
    under ``errstate(all=mode)``."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with onp.errstate(all=mode):
            try:
                f(*args)
            except Exception as e:      # noqa: BLE001 -- compared with NumPy's
                return (type(e).__name__, str(e))
    return [str(m.message) for m in w if m.category is RuntimeWarning]


def _deviation(name, values, message):
    """The documented differences from NumPy's categories (engines/fperr.py):
    underflows NumPy meets inside other functions; ``floor_divide`` of an
    infinity (``floor(x / y)``, the Array API's value, where NumPy's loop
    gives NaN); ``logaddexp`` of a NaN, or of operands whose difference
    overflows (NumPy's loop reports what it meets inside); ``power`` with an
    infinite operand (what NumPy reports there depends on the processor's
    SIMD loop)."""
    if name in ("power", "float_power") and not onp.isfinite(values).all():
        return True
    if message.startswith("underflow") and name not in fperr._UNDERFLOWS and \
            name not in ("floor_divide", "divmod"):
        return True
    if name == "floor_divide" and any(onp.isinf(onp.asarray(values, onp.float64))):
        return True
    if name.startswith("logaddexp"):
        with onp.errstate(all="ignore"):
            return any(onp.isnan(values)) or onp.isinf(onp.subtract(*values)) and \
                onp.isfinite(values).all()
    return False


def _float_ufuncs():
    out = []
    for name, uf in sorted(UFUNCS.items()):
        np_uf = getattr(onp, name)
        if np_uf.__name__ != name:        # an alias (true_divide, pow, ...)
            continue
        if any(t.startswith("d" * uf.nin) for t in np_uf.types):
            out.append(name)
    return out


def placed(h, where):
    """NumPy's array ``h`` as namedarray's: living on the host (NumPy's own
    loop runs, its flags reported: ``fperr.call_reported``) or committed to
    the CPU device (the compiled call and its check, ``fperr.check``)."""
    if where == "host":
        return np.asarray(h)
    return np.asarray(jax.device_put(h, jax.devices("cpu")[0]))


@pytest.mark.parametrize("where", ["host", "device"])
@pytest.mark.parametrize("name", _float_ufuncs())
def test_ufunc_categories_are_numpys(name, where):
    """Each special value (pair) as a one-element float64 array: the same
    warnings, in NumPy's order, as NumPy's ufunc."""
    uf, np_uf = UFUNCS[name], getattr(onp, name)
    combos = [(v,) for v in VALUES] if uf.nin == 1 else itertools.product(VALUES, VALUES)
    checked = 0
    for values in combos:
        args = [onp.array([v]) for v in values]
        want = outcome(np_uf, args)
        if isinstance(want, tuple):     # NumPy refuses the operands
            continue
        want = [m for m in want if not _deviation(name, values, m)]
        got = [m for m in outcome(uf, [placed(a, where) for a in args])
               if not _deviation(name, values, m)]
        assert got == want, (name, values)
        checked += 1
    assert checked


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod",
                                  "reciprocal", "divide", "power", "multiply"])
@pytest.mark.parametrize("where", ["host", "device"])
def test_integer_operands_are_numpys(name, where):
    uf, np_uf = UFUNCS[name], getattr(onp, name)
    combos = [(v,) for v in INTS] if uf.nin == 1 else itertools.product(INTS, INTS)
    for values in combos:
        args = [onp.array([v]) for v in values]
        want = outcome(np_uf, args, "raise")
        if want and want[0] == "ValueError":      # integers to negative powers
            continue
        assert outcome(uf, [placed(a, where) for a in args], "raise") == want, values


def test_raise_gives_numpys_exception_after_warnings_before_it():
    a, b = onp.array([0.0, 1.0, 1e300]), onp.array([0.0, 0.0, 1e-300])
    for m in (onp, np):
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
            with m.errstate(divide="warn", over="raise", invalid="raise"):
                with pytest.raises(FloatingPointError,
                                   match="^overflow encountered in divide$"):
                    m.divide(m.asarray(a), m.asarray(b))


def test_call_mode_calls_with_numpys_arguments():
    a, b = onp.array([0.0, 1.0, 1e300]), onp.array([0.0, 0.0, 1e-300])
    got = {}
    for m in (onp, np):
        calls = []
        old = onp.seterrcall(lambda *args: calls.append(args))
        try:
            with m.errstate(all="call"):
                m.divide(m.asarray(a), m.asarray(b))
        finally:
            onp.seterrcall(old)
        got[m] = calls
    assert got[np] == got[onp] == [("divide by zero", 11), ("overflow", 11),
                                   ("invalid value", 11)]


def test_log_mode_writes_numpys_lines():
    class Log:
        def __init__(self):
            self.lines = []

        def write(self, s):
            self.lines.append(s)
    got = {}
    for m in (onp, np):
        log = Log()
        old = onp.seterrcall(log)
        try:
            with m.errstate(all="log"):
                m.sqrt(m.asarray([-1.0, 4.0]))
        finally:
            onp.seterrcall(old)
        got[m] = log.lines
    assert got[np] == got[onp] == ["Warning: invalid value encountered in sqrt\n"]


def test_print_mode_writes_numpys_line(capfd):
    with np.errstate(all="print"):
        np.log(np.zeros(2))
    mine = capfd.readouterr()
    with onp.errstate(all="print"):
        onp.log(onp.zeros(2))
    theirs = capfd.readouterr()
    assert mine.err == theirs.err == "Warning: divide by zero encountered in log\n"
    assert mine.out == theirs.out == ""


def test_call_without_a_callback_is_numpys_error():
    old = onp.seterrcall(None)
    try:
        for m in (onp, np):
            with m.errstate(all="call"):
                with pytest.raises(NameError, match=r"^python callback specified for "
                                   r"divide by zero \(in  divide\) but no function found\.$"):
                    m.divide(m.ones(2), 0.0)
    finally:
        onp.seterrcall(old)


def test_warning_points_at_the_callers_line():
    with np.errstate(all="warn"):
        with pytest.warns(RuntimeWarning) as rec:
            np.exp(np.asarray([1000.0]))
    assert [str(w.message) for w in rec] == ["overflow encountered in exp"]
    assert rec[0].filename == __file__


def test_default_state_is_not_checked():
    """NumPy's default state warns about nothing in namedarray (documented):
    the check would cost a synchronization per eager operation."""
    assert onp.geterr() == {"divide": "warn", "over": "warn", "under": "ignore",
                            "invalid": "warn"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert onp.isinf(onp.asarray(np.divide(np.ones(2), 0.0))).all()
        assert fperr.state() is None
        with np.errstate(divide="warn"):      # NumPy's default values, set again
            np.divide(np.ones(2), 0.0)


def test_state_left_is_no_longer_honoured():
    x = np.asarray([0.0, 1.0])
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError):
            x / 0
    assert onp.array_equal(onp.asarray(x / 0), [onp.nan, onp.inf], equal_nan=True)
    old = np.seterr(all="raise")
    try:
        assert old == {"divide": "warn", "over": "warn", "under": "ignore",
                       "invalid": "warn"}
        with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
            x / x
    finally:
        np.seterr(**old)
    x / x       # quiet again


def test_errstate_is_a_decorator():
    @np.errstate(invalid="raise")
    def f(v):
        return np.sqrt(v)
    with pytest.raises(FloatingPointError, match="^invalid value encountered in sqrt$"):
        f(np.asarray([-1.0]))
    assert onp.isnan(onp.asarray(np.sqrt(np.asarray([-1.0])))).all()


def test_seterr_and_geterr_are_numpys_store():
    with onp.errstate(over="raise"):
        assert np.geterr()["over"] == "raise"
        with pytest.raises(FloatingPointError, match="overflow encountered in multiply"):
            np.multiply(np.asarray([1e300]), 1e300)
    with pytest.raises(ValueError, match="invalid error mode 'bogus'"):
        np.seterr(divide="bogus")
    with pytest.raises(TypeError, match="must be callable or have a callable write"):
        np.seterrcall(3)


def test_where_leaves_elements_out():
    x = np.asarray([0.0, 1.0, 2.0])
    with np.errstate(all="raise"):
        np.divide(1.0, x, where=x > 0)
        np.divide(1.0, x, where=np.asarray([False, True, True]))
        with pytest.raises(FloatingPointError, match="divide by zero"):
            np.divide(1.0, x, where=np.asarray([True, False, False]))


def test_named_operands_are_aligned_by_name():
    x = np.asarray([1.0, 0.0]).tag("i")
    y = np.asarray([[1.0, 2.0], [3.0, 0.0]]).tag("i", "j")
    with np.errstate(all="raise"):
        np.divide(y, np.asarray([1.0, 2.0]).tag("j"))      # no zero divisor
        with pytest.raises(FloatingPointError, match="divide by zero"):
            np.divide(1.0, x * np.ones(3).tag("k"))
        # a zero of y at (i=1, j=1) meets the numerator 0 there by name (0/0),
        # whatever the physical order of the operands
        with pytest.raises(FloatingPointError, match="invalid value"):
            np.divide(np.asarray([[1.0, 1.0], [1.0, 0.0]]).tag("j", "i"), y)
        np.divide(np.asarray([[1.0, 1.0], [0.0, 1.0]]).tag("j", "i"), y + 1)


def test_integer_division_by_zero():
    a = np.asarray([1, 2, 3])
    with np.errstate(divide="raise"):
        for f in (np.floor_divide, np.remainder, np.mod, np.fmod):
            with pytest.raises(FloatingPointError, match="divide by zero encountered in "
                               f"{getattr(onp, f.__name__).__name__}$"):
                f(a, np.asarray([1, 0, 1]))
        f(a, 2)


def test_boolean_mask_selections_check_the_selected_elements():
    x = np.asarray([0.0, 1.0, 2.0])
    with np.errstate(all="raise"):
        s = 1.0 / x[x > 0]
        assert onp.array_equal(onp.asarray(s), [1.0, 0.5])
        with pytest.raises(FloatingPointError, match="divide by zero"):
            1.0 / x[x < 1]


def test_traced_code_is_not_checked():
    with np.errstate(all="raise"):
        r = jax.jit(lambda v: np.log(v))(np.zeros(2))
        assert onp.isneginf(onp.asarray(r)).all()
        g = np.grad(lambda v: np.sum(np.sqrt(v)))(np.asarray([0.0, 1.0]))
        assert onp.isinf(onp.asarray(g)[0])
        v = jax.vmap(lambda v: np.divide(1.0, v))(np.zeros(2))
        assert onp.isinf(onp.asarray(v)).all()


REDUCTIONS = [
    ("sum", [1e308, 1e308], {}), ("sum", [[1e308, 1e308], [onp.inf, 1.0]], {"axis": 1}),
    ("sum", [[1e308, 1e308], [onp.inf, 1.0]], {"axis": 0}),
    ("sum", [[1e308, 1e308], [onp.inf, -onp.inf]], {"axis": 1, "keepdims": True}),
    ("sum", [1e308, 1e308, 1.0], {"where": [True, False, True]}),
    ("sum", [1e308, 1e308, 1.0], {"where": [True, True, False]}),
    ("sum", [onp.inf, -onp.inf], {}), ("sum", [onp.nan, 1.0], {}), ("sum", [1.0, 2.0], {}),
    ("prod", [1e200, 1e200], {}), ("prod", [onp.inf, 0.0], {}),
    ("mean", [1e308, 1e308], {}), ("mean", [[1.0, 2.0], [1e308, 1e308]], {"axis": -1}),
]


@pytest.mark.parametrize("fn,values,kw", REDUCTIONS)
@pytest.mark.parametrize("method", [False, True])
def test_reductions_are_numpys(fn, values, kw, method):
    def run(m, a):
        if "where" in kw:
            kw2 = {**kw, "where": m.asarray(kw["where"])}
        else:
            kw2 = kw
        if method:
            return getattr(m.asarray(a), fn)(**kw2)
        return getattr(m, fn)(m.asarray(a), **kw2)
    a = onp.array(values)
    for mode in ("warn", "raise"):
        assert outcome(lambda v: run(np, v), [a], mode) == outcome(lambda v: run(onp, v),
                                                                    [a], mode)


def test_ufunc_reduce_reports_in_reduce():
    a = onp.array([1e308, 1e308])
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="^overflow encountered in reduce$"):
            np.add.reduce(np.asarray(a))
        with pytest.raises(FloatingPointError, match="^overflow encountered in reduce$"):
            np.asarray([[1e308, 1e308]]).tag(None, "i").sum(axis="i")


def test_numpy_docstring_examples_run():
    """NumPy's own ``errstate``/``seterr``/``seterrcall``/``geterr``/
    ``geterrcall`` examples give NumPy's output with namedarray."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parents[1] / "docs"))
    try:
        import numpy_docstrings as nd
    finally:
        sys.path.pop(0)
    names = ("errstate", "seterr", "geterr", "seterrcall", "geterrcall")
    docs = [(n, getattr(onp, n).__doc__) for n in names]
    total = 0
    for name, doc, keep in nd.reproduced(docs):
        ok, bad = nd.run(name, doc, "namedarray")
        assert keep <= ok, (name, {i: bad.get(i) for i in keep - ok})
        total += len(keep)
    assert total >= 20


def _kinds(np_, a, b):
    """Operand kinds of a binary integer operation, made by the module
    ``np_`` (NumPy or namedarray) from the 1-d NumPy arrays ``a``, ``b``
    (at least 3 elements): scalars, 0-d arrays, arrays, an array with a
    scalar, strided views, data beyond the host tier (on the device)."""
    big = 70_000
    A, B = np_.asarray(a), np_.asarray(b)
    la, lb = (np_.asarray(onp.resize(v, big)) for v in (a, b))
    return {"scalars": (A[0], B[0]), "0d": (A[0, ...], B[0, ...]), "arrays": (A, B),
            "array-scalar": (A, B[0]), "strided": (A[::-2], B[::-2]),
            "device": (la, lb), "device-scalar": (la, B[0]),
            "python-int": (A, int(b[0]))}


def _categories(f, args):
    """The categories of the RuntimeWarnings of ``f(*args)`` (NumPy's words
    before "encountered") in the current state, and the result."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f(*args)
    return sorted(str(m.message).split(" encountered")[0] for m in w
                  if m.category is RuntimeWarning), r


INT_DIVISIONS = [
    (onp.floor_divide, np.floor_divide), (onp.remainder, np.remainder),
    (onp.fmod, np.fmod), (onp.divmod, np.divmod),
    (lambda a, b: a // b, lambda a, b: a // b), (lambda a, b: a % b, lambda a, b: a % b)]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint64", "bool"])
@pytest.mark.parametrize("case", ["zero", "min-by-minus-one", "quiet"])
def test_integer_division_warns_in_the_default_state(dtype, case):
    """NumPy's default state reports integer division's division by zero and
    ``MIN // -1``'s overflow, for every kind of operand (documented)."""
    dt = onp.dtype(dtype)
    if case == "min-by-minus-one" and dt.kind != "i":
        pytest.skip("no overflow of an unsigned or boolean division")
    lo = onp.iinfo(dt).min if dt.kind == "i" else 1
    first = {"zero": (1, 0), "min-by-minus-one": (lo, -1), "quiet": (lo, 1)}[case]
    a = onp.array([first[0], 1, 1, 1], dt)
    b = onp.array([first[1], 1, 1, 1], dt)
    assert fperr.state() is None
    theirs, ours = _kinds(onp, a, b), _kinds(np, a, b)
    for kind in theirs:
        if dt.kind == "b" and kind == "python-int":
            continue
        for np_f, f in INT_DIVISIONS:
            want, r_np = _categories(np_f, theirs[kind])
            got, r = _categories(f, ours[kind])
            assert got == want, (kind, want)
            for x, y in zip(r if isinstance(r, tuple) else (r,),
                            r_np if isinstance(r_np, tuple) else (r_np,)):
                assert onp.asarray(x).dtype == onp.asarray(y).dtype, kind
                assert onp.array_equal(onp.asarray(x), onp.asarray(y)), kind
            with np.errstate(all="ignore"):
                assert _categories(f, ours[kind])[0] == [], kind


def test_integer_division_default_state_not_floats_nor_traced():
    """Floating-point division stays unchecked in the default state (no
    synchronization per operation); traced code is not checked."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x in (np.ones(3), np.ones(70_000)):
            np.floor_divide(x, 0.0)
            x % 0.0
        a = np.asarray([1, 2, 3])
        r = jax.jit(lambda u, v: (u // v, u % v))(a, np.zeros(3, int))
        with onp.errstate(all="ignore"):
            want = onp.floor_divide([1, 2, 3], 0), onp.remainder([1, 2, 3], 0)
        assert all(onp.array_equal(onp.asarray(x), y) for x, y in zip(r, want))


def test_host_data_in_an_error_state_runs_numpys_loop_on_the_host():
    # (in any state but the default, every ufunc of data living on the host
    # left the host tier for a compiled call and its check: ~170 us a call
    # against ~5, and each result a device array, so a NumPy program inside
    # np.errstate(divide="ignore", invalid="ignore") ran ~30x slower)
    from namedarray.core.array import host_root
    x, y = np.linspace(0.0, 1.0, 6), np.ones(6)
    hx, hy = onp.linspace(0.0, 1.0, 6), onp.ones(6)
    with np.errstate(divide="ignore", invalid="ignore"):
        for got, want in [(x + y, hx + hy), (np.log(x), onp.log(hx)), (x ** 2, hx ** 2),
                          (y / x, hy / hx), (np.sin(x) * 2.0, onp.sin(hx) * 2.0)]:
            assert host_root(got)[0] is not None
            assert onp.asarray(got).tobytes() == want.tobytes()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            big = np.full(2, 1e308) * 10.0         # (over: still "warn")
        assert [str(m.message) for m in w] == ["overflow encountered in multiply"]
        assert w[0].filename == __file__ and host_root(big)[0] is not None

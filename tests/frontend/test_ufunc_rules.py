"""Ufunc rules NumPy keeps and XLA alone does not: NumPy scalars as operands,
exact signed/uint64 comparisons, negative Python ints with unsigned arrays
(every call, not only the first), integer powers with negative exponents,
gcd/lcm at the signed minimum (the Euclidean loop used to hang)."""
import itertools
import subprocess
import sys

import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as np
from support import assert_same, subprocess_env

SCALARS = [onp.float64(1.5), onp.float32(2), onp.int32(3), onp.int8(-2), onp.uint8(7),
           onp.bool_(True), onp.complex128(1j), onp.finfo(float).eps, onp.int64(5)]


@pytest.mark.parametrize("s", SCALARS, ids=repr)
@pytest.mark.parametrize("dt", [onp.int8, onp.int64, onp.float32, onp.uint16])
@pytest.mark.parametrize("op", ["add", "multiply", "less", "maximum"])
def test_numpy_scalar_operands(s, dt, op):
    y = onp.arange(3, dtype=dt)
    x = np.asarray(y)
    f, g = getattr(np, op), getattr(onp, op)
    assert_same(f(x, s), g(y, s))
    assert_same(f(s, x), g(s, y))


def test_numpy_scalar_operators():
    x = np.arange(3.0)
    assert_same(x * onp.finfo(float).eps, onp.arange(3.0) * onp.finfo(float).eps)
    assert_same(onp.float64(1) + x, onp.float64(1) + onp.arange(3.0))
    assert_same(x + onp.float64(1), onp.arange(3.0) + onp.float64(1))


def test_negative_python_int_with_unsigned_raises_every_time():
    x = np.arange(3, dtype=np.uint64)
    for _ in range(3):
        with pytest.raises(OverflowError, match="add: Python integer -1 out of bounds "
                                                "for uint64"):
            x + (-1)


EDGES = [0, 1, -1, 2**62, 2**63 - 2, 2**63 - 1]


@pytest.mark.parametrize("op", ["equal", "not_equal", "less", "less_equal", "greater",
                                "greater_equal"])
def test_signed_vs_uint64_compare_exactly(op):
    pairs = list(itertools.product(EDGES + [-2**63], [0, 1, 2**63 - 1, 2**63, 2**64 - 1]))
    a = onp.asarray([p[0] for p in pairs], onp.int64)
    b = onp.asarray([p[1] for p in pairs], onp.uint64)
    f, g = getattr(np, op), getattr(onp, op)
    assert_same(f(np.asarray(a), np.asarray(b)), g(a, b))
    assert_same(f(np.asarray(b), np.asarray(a)), g(b, a))
    assert_same(f(np.asarray(a.astype(onp.int8)), np.asarray(b)), g(a.astype(onp.int8), b))


def test_integer_power_negative_exponent_array():
    with pytest.raises(ValueError, match="power: integers to negative integer powers are "
                                         "not allowed"):
        np.power(np.arange(1, 5), np.asarray([-1, 2, 1, 1]))
    with pytest.raises(ValueError, match="integers to negative integer powers"):
        np.arange(1, 5) ** np.asarray([1, -2, 1, 1])
    # float bases, and empty operands, are fine (as in NumPy)
    assert_same(np.power(np.arange(1.0, 3.0), np.asarray([-1, 2])),
                onp.power(onp.arange(1.0, 3.0), onp.asarray([-1, 2])))
    assert_same(np.power(np.arange(0), np.asarray([-1])[:0]), onp.power(
        onp.arange(0), onp.asarray([-1])[:0]))


@given(st.sampled_from([onp.int64, onp.int8, onp.uint8, onp.int32]),
       st.lists(st.integers(0, 70), min_size=1, max_size=5))
def test_integer_power_wraps_like_numpy(dt, exps):
    info = onp.iinfo(dt)
    y = onp.asarray(sorted({info.min, max(info.min, -3), max(info.min, -1), 0, 1, 2, 3,
                            info.max}), dt)
    e = onp.asarray(exps, dt)
    for b in y:
        assert_same(np.power(np.asarray(b), np.asarray(e)), onp.power(b, e))


@pytest.mark.parametrize("dt", [onp.int8, onp.int16, onp.int64])
def test_gcd_lcm_at_the_signed_minimum(dt):
    code = (
        "import itertools, numpy as onp, namedarray as np\n"
        f"dt = onp.{onp.dtype(dt).name}; info = onp.iinfo(dt)\n"
        "v = [info.min, info.min + 1, -1, 0, 1, 5, 12, info.max]\n"
        "p = list(itertools.product(v, v))\n"
        "a = onp.asarray([q[0] for q in p], dt); b = onp.asarray([q[1] for q in p], dt)\n"
        "for f in ('gcd', 'lcm'):\n"
        "    r = getattr(np, f)(np.asarray(a), np.asarray(b))\n"
        "    e = getattr(onp, f)(a, b)\n"
        "    assert r.dtype == e.dtype and (onp.asarray(r) == e).all(), (f, r, e)\n")
    # a regression would hang: run it in a subprocess with a timeout
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env=subprocess_env())
    assert r.returncode == 0, r.stderr[-2000:]


@pytest.mark.parametrize("k", [0, 1, 2, 63, 64, 65, 70, 127])
@pytest.mark.parametrize("dt", [onp.int8, onp.int64, onp.uint8])
def test_integer_power_python_exponent(k, dt):
    y = onp.arange(0 if dt == onp.uint8 else -3, 4).astype(dt)
    assert_same(np.asarray(y) ** k, y ** k)


BIG = [2**63, 2**64, -2**63 - 1, 1000, -1, 10**400]
COMPARISONS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("dt", [onp.int8, onp.uint8, onp.int64, onp.uint64])
def test_compare_with_python_int_beyond_the_dtype(op, dt):
    info = onp.iinfo(dt)
    y = onp.asarray([info.min, 0, 1, info.max], dt)
    f, g = getattr(np, op), getattr(onp, op)
    for v in BIG:
        if info.min <= v <= info.max:
            continue
        assert_same(f(np.asarray(y), v), g(y, v))
        assert_same(f(v, np.asarray(y)), g(v, y))
        assert_same(f(np.asarray(y[:0]), v), g(y[:0], v))
        assert_same(f(np.asarray(y[0]), v), g(y[0], v))


def test_compare_with_python_int_beyond_the_dtype_named_and_jitted():
    y = onp.arange(-3, 3, dtype=onp.int8).reshape(2, 3)
    x = np.asarray(y).tag("a", "b")
    r = np.less(x, 2**64)
    assert r.named_shape == {"a": 2, "b": 3} and r.dtype == bool
    assert onp.asarray(r.untag("a", "b")).all()
    f = jax.jit(lambda x: np.greater_equal(x, -2**63 - 1))
    assert_same(f(np.asarray(y)), onp.greater_equal(y, -2**63 - 1))
    # a bool array takes the int64 loop: NumPy's OverflowError
    with pytest.raises(OverflowError, match="equal: Python integer 9223372036854775808 out "
                                            "of bounds for int64"):
        np.equal(np.asarray([True]), 2**63)


@pytest.mark.parametrize("op", ["arctan2", "hypot", "logaddexp", "logaddexp2", "copysign",
                                "nextafter", "float_power", "heaviside", "ldexp"])
@pytest.mark.parametrize("dt", [onp.int8, onp.uint16, onp.int64, onp.bool_])
def test_inexact_ufunc_with_python_int_beyond_the_dtype(op, dt):
    # NumPy casts the int into the loop's dtype (float16 for int8): inf beyond it
    y = onp.asarray([0, 1], dt)
    f, g = getattr(np, op), getattr(onp, op)
    with onp.errstate(all="ignore"):
        for v in [2**63, 2**64, 2**70, -2**63 - 1]:
            for args in ((y, v), (v, y)):
                try:
                    exp = g(*args)
                except OverflowError:       # ldexp's int32 exponent
                    with pytest.raises(OverflowError, match=f"{op}: Python integer"):
                        f(*[np.asarray(a) if isinstance(a, onp.ndarray) else a
                            for a in args])
                    continue
                assert_same(f(*[np.asarray(a) if isinstance(a, onp.ndarray) else a
                                for a in args]), exp)
    with pytest.raises(OverflowError, match="arctan2: Python integer 1000"):
        np.arctan2(np.asarray(y), 10**400)


@pytest.mark.parametrize("op", COMPARISONS)
def test_signed_vs_uint64_compare_exactly_on_named_axes(op):
    a = onp.asarray([2**63 - 1, -1, 5], onp.int64)
    b = onp.asarray([2**63, 2**64 - 1, 5], onp.uint64)
    f, g = getattr(np, op), getattr(onp, op)
    same = f(np.asarray(a).tag("i"), np.asarray(b).tag("i")).untag("i")
    assert_same(same, g(a, b))
    outer = f(np.asarray(a).tag("i"), np.asarray(b).tag("j")).untag("i", "j")
    assert_same(outer, g(a[:, None], b))

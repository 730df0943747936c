"""Boolean-mask selections (``x[mask]`` kept full-size): values, dtypes and
errors against NumPy, under jax.jit, with named axes, and the compile counts
of loops whose masks change."""
import math
import pathlib
import sys
import warnings

import jax
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray.core import backends
from namedarray.frontend.engines import selection
from namedarray.frontend.engines import host
from namedarray.frontend.engines.selection import Selection, bucket
from support import arrays, assert_same, emulates, traced_lacks

DTYPES = [onp.bool_, onp.int8, onp.int32, onp.int64, onp.uint8, onp.float32, onp.float64,
          onp.complex128]


@st.composite
def masked(draw, dtypes=DTYPES, min_side=0):
    """(x, mask) NumPy arrays: mask over x's leading k >= 1 axes (0-size too)."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=min_side, max_side=4))
    dt = draw(st.sampled_from(dtypes))
    x = draw(arrays(dt, shape))
    k = draw(st.integers(1, len(shape)))
    m = draw(hnp.arrays(onp.bool_, shape[:k]))
    return x, m


def lazy(s):
    assert type(s) is Selection and s._cache is None, type(s)
    return s


def on_device(x):
    """``x`` as data on the device: the deferred selections are the compiled
    path's (small data living on the host is indexed by NumPy there); a
    dtype the default device only emulates on the CPU device (a TPU holds
    float64 as float32 pairs: the transfer alone loses bits and zero signs)."""
    x = onp.asarray(x)
    return np.asarray(jax.device_put(x, backends.cpu_device() if emulates(x.dtype) else None))


@given(masked())
def test_selection_materializes_to_numpy(xm):
    x, m = xm
    s = lazy(np.asarray(x)[m])
    assert s.dtype == x[m].dtype and s.ndim == x[m].ndim
    assert s.shape == x[m].shape and len(s) == len(x[m])
    assert s._cache is None              # shape and len need the count only
    assert_same(s, x[m])
    assert_same(np.asarray(x)[np.asarray(m)], x[m])      # a NamedArray mask


@given(masked(), st.sampled_from(["add", "multiply", "power", "less", "equal",
                                  "true_divide", "maximum", "subtract"]),
       st.sampled_from([2, 1.5, True, -1, "same", "trail", "array"]))
def test_elementwise_between_selections_scalars_and_arrays(xm, op, other):
    x, m = xm
    if op in ("power", "subtract") and x.dtype == bool:
        return      # NumPy refuses these for booleans (checked elsewhere)
    if op == "power" and isinstance(other, int) and other < 0 and x.dtype.kind in "biu":
        return
    a = np.asarray(x)
    if other == "same":
        rhs, exp_rhs = a[m], x[m]
    elif other == "trail":       # an array over the unselected trailing axes
        t = x[0][(0,) * (m.ndim - 1)] if x.size else onp.ones(x.shape[m.ndim:], x.dtype)
        rhs, exp_rhs = np.asarray(t), t
    elif other == "array":       # an array with a unit axis in the selected one's place
        t = onp.ones((1,) + x.shape[m.ndim:], onp.float32)
        rhs, exp_rhs = np.asarray(t), t
    else:
        rhs, exp_rhs = other, other
    with onp.errstate(all="ignore"):
        try:
            exp = getattr(onp, op)(x[m], exp_rhs)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)):
                getattr(np, op)(a[m], rhs)
            return
    got = lazy(getattr(np, op)(a[m], rhs))
    if exp.dtype.kind in "fc" and op in ("power", "true_divide"):
        assert got.dtype == exp.dtype
        onp.testing.assert_allclose(onp.asarray(got), exp, rtol=1e-6)
    else:
        assert_same(got, exp)


@given(masked(min_side=1), st.sampled_from(["sum", "mean", "max", "min", "any", "all",
                                            "prod", "var"]),
       st.sampled_from([None, 0, -1, "tail"]))
def test_reductions_use_where(xm, name, axis):
    x, m = xm
    if axis == "tail":
        if x.ndim == m.ndim:
            return
        axis = 1
    s = np.asarray(x)[m]
    with onp.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # the mean of nothing
        try:
            exp = getattr(onp, name)(x[m], axis=axis)
        except (ValueError, TypeError) as e:
            with pytest.raises(type(e)):
                onp.asarray(getattr(np, name)(s, axis=axis))
            return
    got = getattr(s, name)(axis=axis)
    assert type(s) is Selection and s._cache is None   # the reduction did not materialize
    assert_same(got, exp, close=True)


@settings(max_examples=15)
@given(masked(), st.sampled_from(["selection", "scalar", "trail", "iop"]))
def test_masked_assignment(xm, kind):
    x, m = xm
    y, exp = np.asarray(x), x.copy()
    with onp.errstate(all="ignore"):
        if kind == "selection":
            y[m] = y[m] * 3 + 1
            exp[m] = exp[m] * 3 + 1
        elif kind == "scalar":
            y[m] = 1
            exp[m] = 1
        elif kind == "trail":
            t = onp.arange(onp.prod(x.shape[m.ndim:]), dtype=onp.int8).reshape(
                x.shape[m.ndim:])
            y[m] = t
            exp[m] = t
        else:
            try:
                exp[m] *= 2
            except TypeError:       # NumPy's casting error is a TypeError subclass
                with pytest.raises(TypeError, match="cannot cast"):
                    y[m] *= 2
                return
            y[m] *= 2
    assert type(y) is not Selection
    assert_same(y, exp)


@pytest.mark.parametrize("dt", [onp.int8, onp.int64, onp.uint8, onp.bool_, onp.float32,
                                onp.complex64])
def test_assigning_a_number_casts_and_raises_as_numpy(dt):
    x = onp.arange(-3, 5).reshape(2, 4).astype(dt)
    m = onp.asarray([True, False])
    for v in (1, -1, 2.75, 300, 1 + 2j, float("nan"), 2 ** 62, True):
        y, exp = np.asarray(x), x.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exp[m] = v
            except (OverflowError, ValueError, TypeError) as e:
                with pytest.raises(type(e), match="__setitem__: "):
                    y[m] = v
                continue
        y[m] = v
        assert_same(y, exp)
    y = np.asarray(x)
    y[m] = 0
    c0 = COMPILES.n
    for i in range(2, 9):           # a loop's counter is a runtime operand
        y[m] = i
    assert COMPILES.n == c0
    assert_same(y, onp.where(m[:, None], 8, x).astype(dt))


def test_in_place_ops_keep_numpy_casting():
    z = np.arange(6)
    inside = z > 2
    z[inside] *= 2
    z[inside] += 1
    assert_same(z, onp.asarray([0, 1, 2, 7, 9, 11]))
    with pytest.raises(TypeError, match="cannot cast the result from float64 to the "
                       "target's int64"):
        z[inside] *= 2.5
    s = z[inside]       # a copy, as in NumPy: writes to it do not reach z
    s += 100
    assert_same(z, onp.asarray([0, 1, 2, 7, 9, 11]))
    assert_same(s, onp.asarray([107, 109, 111]))


def test_integer_selection_power_and_comparison_dtypes():
    x = onp.arange(-3, 5, dtype=onp.int16)
    m = x % 2 == 0
    s = np.asarray(x)[m]
    assert_same(s ** 2, x[m] ** 2)
    assert_same(s < 1, x[m] < 1)
    assert_same(s / 2, x[m] / 2)
    assert_same(s.astype(onp.float32), x[m].astype(onp.float32))
    assert_same(abs(s), abs(x[m]))
    with pytest.raises(ValueError, match="negative integer powers"):
        onp.asarray(s ** -1)


def test_selection_of_selection_combines_the_masks():
    v = onp.random.default_rng(1).standard_normal(50)
    a = on_device(v)
    s = lazy(a[a > -1])
    t = lazy(s[s < 1])
    assert_same(t, v[v > -1][v[v > -1] < 1])
    x = onp.arange(24.0).reshape(4, 6)
    b = on_device(x)
    r = lazy(b[on_device(x[:, 0] > 4)])     # (b[:, 0] would bring b to the host)
    q = lazy(r[r > 13])        # a mask over the selection's trailing axis too
    assert_same(q, x[x[:, 0] > 4][x[x[:, 0] > 4] > 13])


# --------------------------------------------------------------------------
# deferred expressions: one compiled call per statement, eager results
# --------------------------------------------------------------------------
CHAIN_OPS = [("multiply", 1.05), ("add", 2.5), ("subtract", "self"), ("multiply", "self"),
             ("add", "self"), ("power", 2), ("absolute", None), ("negative", None),
             ("multiply", 3), ("add", -1), ("true_divide", 0.75), ("subtract", 1j)]


def _chain(s, ops):
    for name, other in ops:
        f = getattr(np if isinstance(s, Selection) else onp, name)
        s = f(s) if other is None else f(s, s if isinstance(other, str) else other)
    return s


@settings(max_examples=25)
@given(masked(dtypes=[onp.bool_, onp.int32, onp.int64, onp.float32, onp.float64,
                      onp.complex64, onp.complex128], min_side=1),
       st.lists(st.sampled_from(CHAIN_OPS), min_size=1, max_size=6))
def test_deferred_chains_equal_numpy_and_the_eager_calls(xm, ops):
    """A chain of elementwise operations on a selection is one expression; its
    values and dtypes are NumPy's, bit for bit, and those of the eager calls
    (a multiply and the add that uses it round twice, as NumPy rounds)."""
    x, m = xm
    with onp.errstate(all="ignore"):
        try:
            exp = _chain(x[m], ops)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)):
                onp.asarray(_chain(np.asarray(x)[m], ops))
            return
    got = lazy(_chain(np.asarray(x)[m], ops))
    eager = selection._defer
    try:
        selection._defer = lambda *a: None
        ref = _chain(np.asarray(x)[m], ops)
    finally:
        selection._defer = eager
    assert onp.asarray(got).dtype == exp.dtype
    onp.testing.assert_array_equal(onp.asarray(got), onp.asarray(ref))
    # (XLA's complex product and its division round differently from NumPy's,
    # eagerly too)
    exact = exp.dtype.kind != "c" and all(op != "true_divide" for op, _ in ops)
    assert_same(got, exp, close=not exact)


def test_a_multiply_add_is_not_fused_into_one_rounding():
    r = onp.random.default_rng(5)
    a, b, c = (r.standard_normal(5000) for _ in range(3))
    m = a > -10
    A, B, C = np.asarray(a), np.asarray(b), np.asarray(c)
    s = A[m] * B[m] + C[m]
    assert selection.pending(s._full)
    assert_same(s, a * b + c)
    assert_same(A[m] * 1.5 - 0.1, a * 1.5 - 0.1)
    f = a.astype(onp.float32)
    F = np.asarray(f)
    assert_same(F[m] * 1.05 + F[m], f * onp.float32(1.05) + f)


def test_scalars_keep_numpy_s_weak_dtypes_in_a_deferred_expression():
    x = onp.arange(-4, 6)
    m = x % 3 != 0
    for dt in (onp.float32, onp.int32, onp.int64, onp.bool_, onp.complex64):
        v = x.astype(dt)
        s = np.asarray(v)[m]
        with onp.errstate(all="ignore"):
            for f in (lambda t: t * 1.05 + 2, lambda t: t + 1, lambda t: (t * 2) < 2.5,
                      lambda t: t - 0.5j, lambda t: abs(t) * 3.0, lambda t: t ** 2 * 1.5):
                try:
                    exp = f(v[m])
                except TypeError:
                    continue
                assert_same(f(s), exp)
    b = onp.asarray([True, False, True, True])
    s = np.asarray(b)[b | True]
    for k in (True, 1, False, 0, True):     # equal as Python keys, not as operands
        assert_same(s + k, b + k)
        assert_same(s ** k, b ** k)


def test_a_statement_evaluates_once_and_the_expression_never_grows(monkeypatch):
    monkeypatch.setattr(host, "HOST_BUDGET", 0.0)      # everything compiles at once
    v = on_device(onp.linspace(-3, 3, 64))
    s = v[v > -2]
    calls = []
    evaluate = selection.evaluate
    try:
        selection.evaluate = lambda roots: calls.append(1) or evaluate(roots)
        for _ in range(100):            # no statement reads it: evaluated by size
            s = s * 1.01 + 0.001
            assert s._full._nodes <= selection._MAX_NODES
    finally:
        selection.evaluate = evaluate
    assert 200 // selection._MAX_NODES <= len(calls) <= 200 // (selection._MAX_NODES - 1)
    ref = onp.linspace(-3, 3, 64)[onp.linspace(-3, 3, 64) > -2]
    for _ in range(100):
        ref = ref * 1.01 + 0.001
    assert_same(s, ref)
    z = np.zeros(40, dtype=complex)
    c = np.asarray(onp.linspace(-2, 1, 40) + 0.5j)
    inside = np.less(abs(z), 2.0)
    z[inside] = z[inside] ** 2 + c[inside]
    c0 = COMPILES.n
    for _ in range(12):                 # the same structure every iteration
        inside = np.less(abs(z), 2.0)
        z[inside] = z[inside] ** 2 + c[inside]
    assert COMPILES.n == c0


def test_functions_that_do_not_know_selections_see_the_exact_array():
    x = onp.asarray([3.0, -1.0, 4.0, -1.5, 5.0, 9.0])
    s = np.asarray(x)[x > 0]
    e = x[x > 0]
    assert_same(np.sort(s), onp.sort(e))
    assert_same(np.cumsum(s), onp.cumsum(e))
    assert_same(np.concatenate([s, s]), onp.concatenate([e, e]))
    assert_same(np.argmax(s), onp.argmax(e))
    assert_same(s[1:], e[1:])
    assert [float(v) for v in s] == list(e)
    assert repr(s) == repr(e) and str(s) == str(e)
    assert onp.asarray(s).tolist() == e.tolist()
    assert_same(onp.sum(s), onp.sum(e))            # numpy's own functions dispatch here
    assert_same(onp.multiply(s, 2), e * 2)


def test_a_selection_is_a_snapshot():
    x = np.arange(5.0)
    m = x > 1
    s = x[m]
    x[0] = 100.0
    m[:] = False
    assert_same(s, onp.asarray([2.0, 3.0, 4.0]))
    h = onp.asarray([True, False, True, False, True])
    t = x[h]
    h[0] = False
    assert_same(t, onp.asarray([100.0, 2.0, 4.0]))


def test_empty_selection_reductions_are_numpy_s():
    s = np.arange(4.0)[onp.zeros(4, bool)]
    assert_same(s.sum(), onp.float64(0))
    with pytest.raises(ValueError, match="zero-size array"):
        s.max()
    assert_same(s.max(initial=-1.0), onp.float64(-1.0))
    assert s.shape == (0,) and len(s) == 0


def test_mask_shape_errors_are_numpy_s():
    x = np.zeros((3, 4))
    with pytest.raises(IndexError, match="boolean index did not match indexed array "
                       "along axis 1; size of axis is 4 but size of corresponding "
                       "boolean axis is 3"):
        x[np.ones((3, 3), bool)]
    with pytest.raises(IndexError, match="too many indices"):
        np.zeros(3)[np.ones((3, 1), bool)]
    y = np.zeros((2, 3)).tag("b", None)
    both = np.ones((2, 3), bool).tag("b", None)
    with pytest.raises(IndexError, match="both positional axes"):
        y[both]


def test_escape_time_and_shrinking_programs_run_unmodified(monkeypatch):
    if jax.default_backend() != "cpu":      # (its runs open JAX in processes of their
        monkeypatch.setenv("JAX_PLATFORMS", "cpu")   # own: this one holds the accelerator)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import bench_masks
    finally:
        sys.path.pop(0)
    rows = bench_masks.run(smoke=True)      # raises when a result differs from NumPy's
    assert len(rows) == 2


# --------------------------------------------------------------------------
# under jax.jit
# --------------------------------------------------------------------------
def test_escape_time_inside_fori_loop():
    c0 = onp.linspace(-2, 0.8, 7)[None, :] + 1j * onp.linspace(-1.4, 1.4, 5)[:, None]
    zr, nr = onp.zeros_like(c0), onp.full(c0.shape, 12)
    for i in range(12):
        inside = onp.less(abs(zr), 2.0)
        nr[inside] = i
        zr[inside] = zr[inside] ** 2 + c0[inside]
    c = np.asarray(c0)

    def body(i, zn):
        z, n = zn
        inside = np.less(abs(z), 2.0)
        n[inside] = i
        z[inside] = z[inside] ** 2 + c[inside]
        return z, n

    run = jax.jit(lambda z, n: jax.lax.fori_loop(0, 12, body, (z, n)))
    if traced_lacks("any", onp.complex128):     # (a TPU: the capability table's error)
        with pytest.raises(TypeError, match="XLA backend has no implementation of this "
                                            "operation on complex128 data"):
            run(np.zeros(c.shape, dtype=complex), np.zeros(c.shape, dtype=int) + 12)
        return
    z, n = run(np.zeros(c.shape, dtype=complex), np.zeros(c.shape, dtype=int) + 12)
    assert_same(n, nr)
    assert_same(z, zr, close=True)


def test_selection_reductions_and_results_under_jit():
    x = np.arange(10.0)
    assert_same(jax.jit(lambda a, m: a[m].sum())(x, x > 4), onp.float64(35.0))
    assert_same(jax.jit(lambda a: a[a > 4].mean())(x), onp.float64(7.0))
    assert_same(jax.jit(lambda a: a[a > 4].max(initial=-1.0))(x), onp.float64(9.0))
    r = jax.jit(lambda a: a[a > 4] * 2)(x)          # a selection comes back out
    assert_same(r, onp.arange(5.0, 10.0) * 2)


@pytest.mark.parametrize("f, what", [
    (lambda a: a[a > 4].shape, r"x\[mask\].shape"),
    (lambda a: a[a > 4][0], r"x\[mask\]\[index\]"),
    (lambda a: onp.asarray(a[a > 4] + 1), r"the elements of x\[mask\]"),
    (lambda a: np.nonzero(a), "nonzero"),
])
def test_a_size_under_jit_is_a_clear_error(f, what):
    with pytest.raises(TypeError, match=what + ".*unknown under jax.jit.*size-free form"):
        jax.jit(f)(np.arange(10.0))


def test_a_concrete_selection_read_inside_jit_stays_concrete():
    x = np.arange(6.0)
    m = x > 1
    s, s2 = x[m] * 2, x[m] + 1
    hm = onp.arange(6) > 2
    f = jax.jit(lambda t: ((s + np.asarray(t)).sum() + (s2[s2 > 3] * t[0]).sum() +
                           (x[hm] * t[0]).sum() + len(s)).data)
    assert_same(f(jax.numpy.ones(4)), onp.float64(32 + 15 + 12 + 4))
    # nothing traced was kept: the selections and the caches work outside
    assert_same((s * s2).sum(), onp.float64(((onp.arange(2, 6.0) * 2) *
                                             (onp.arange(2, 6.0) + 1)).sum()))
    assert_same(x[hm] + 1, onp.arange(3, 6.0) + 1)


def test_max_under_jit_names_initial():
    with pytest.raises(TypeError, match=r"max of x\[mask\].*x\[mask\].max\(initial=v\)"):
        jax.jit(lambda a: a[a > 4].max())(np.arange(10.0))


def test_assigning_a_counted_value_under_jit_is_a_clear_error():
    def f(a):
        a[a > 4] = np.arange(5.0)
        return a
    with pytest.raises(TypeError, match=r"x\[mask\] = value .*size-free form"):
        jax.jit(f)(np.arange(10.0))


# --------------------------------------------------------------------------
# named axes
# --------------------------------------------------------------------------
def test_positional_mask_on_a_named_array():
    x = onp.arange(24.0).reshape(2, 3, 4)
    m = onp.asarray([True, False, True])
    y = np.asarray(x).tag("b", None, None)
    s = lazy(y[m])
    assert s.named_shape == {"b": 2} and s.shape == (2, 4)
    assert_same(s.sum().untag("b"), x[:, m].sum(axis=(1, 2)))
    assert_same((s * 2).untag("b"), x[:, m] * 2)
    y[m] = s + 1
    assert_same(y.untag("b"), onp.where(m[None, :, None], x + 1, x))


def test_a_named_mask_selects_along_its_name():
    x = onp.arange(12.0).reshape(4, 3)
    keep = onp.asarray([True, False, True, True])
    y = np.asarray(x).tag("b", None)
    s = lazy(y[np.asarray(keep).tag("b")])
    assert s.shape == (3,) and s.named_shape == {"b": 3}
    assert_same(s.sum(axis="b"), x[keep].sum(axis=0))
    assert_same(s.untag("b"), x[keep])
    assert_same((s * 2).sum(axis=("b", 0)), (x[keep] * 2).sum())


def test_reduction_over_a_selection_name_inside_nmap_is_the_unmapped_one():
    x = onp.arange(12.0).reshape(4, 3)
    keep = np.asarray(onp.asarray([True, False, True, True])).tag("b")
    y = np.asarray(x).tag("b", None)
    f = lambda a, k: a[k].sum(axis="b")       # noqa: E731
    assert_same(np.nmap(f)(y, keep), x[[0, 2, 3]].sum(axis=0))


# --------------------------------------------------------------------------
# compilations
# --------------------------------------------------------------------------
class Compiles:
    def __init__(self):
        self.n = 0
        jax.monitoring.register_event_duration_secs_listener(self)

    def __call__(self, event, duration, **kw):
        if event == "/jax/core/compile/backend_compile_duration":
            self.n += 1


COMPILES = Compiles()


def _shrink(v, steps, sizes):
    for _ in range(steps):
        v = v[np.abs(v) < 2.5] * 1.05
        sizes.append(len(v))            # the count is synced, the shape never built
    return v


def test_a_shrinking_loop_compiles_a_bounded_number_of_times():
    v0 = onp.random.default_rng(3).standard_normal(1237)
    ref = v0
    for _ in range(25):
        ref = ref[onp.abs(ref) < 2.5] * 1.05
    sizes = []
    c0 = COMPILES.n
    got = _shrink(np.asarray(v0), 5, sizes)
    first = COMPILES.n - c0
    c1 = COMPILES.n
    got = _shrink(got, 20, sizes)
    assert_same(got, ref)
    assert len(set(sizes)) > 10            # the sizes did change
    assert COMPILES.n - c1 <= 1            # the gather's bucket at most: not per size
    assert first <= 8


def test_materializing_compiles_per_bucket_not_per_count():
    x = np.arange(1000.0) * 1.5
    c0 = COMPILES.n
    for n in range(513, 600, 7):           # one bucket (1024)
        assert_same(x[x < n * 1.5], onp.arange(n) * 1.5)
    assert COMPILES.n - c0 <= 3
    assert [bucket(n) for n in (0, 1, 2, 3, 513, 1024)] == [1, 1, 2, 4, 1024, 1024]


def test_a_shrinking_loop_defers_its_masks_until_a_size_is_needed():
    """``v = v[np.abs(v) < 2.5] * 1.05``: the combined masks join the pending
    expression, which evaluates (mask and buffer in one call) every few steps;
    nothing comes to the host until the result is read."""
    v0 = onp.random.default_rng(4).standard_normal(300) * 2
    calls, counts = [], []
    evaluate, count = selection.evaluate, Selection.count
    try:
        selection.evaluate = lambda roots: calls.append(len(roots)) or evaluate(roots)
        Selection.count = lambda self, *a: counts.append(1) or count(self, *a)
        for steps in (1, 2, 7, 13, 30):
            calls.clear()
            counts.clear()
            v, ref = on_device(v0), v0
            for _ in range(steps):
                v = lazy(v[np.abs(v) < 2.5] * 1.05)
                ref = ref[onp.abs(ref) < 2.5] * 1.05
                assert v._count is None and v._full._nodes <= selection._MAX_NODES
            during = len(calls)
            assert not counts
            assert_same(v, ref)
            assert during <= steps // 4 + 1       # not one call per step
            assert len(calls) <= during + 1       # materializing: one call at most
    finally:
        selection.evaluate, Selection.count = evaluate, count


def test_selections_sharing_a_pending_mask():
    x = onp.linspace(-3, 3, 25)
    a = on_device(x)
    s = a[a > -2]
    t = s[s < 2]                    # its mask is pending
    assert selection.pending(t._mask)
    u = lazy(t * 2 + t)             # one mask: the operation stays on the buffers
    e = x[(x > -2) & (x < 2)]
    assert_same(u, e * 2 + e)
    calls = []
    evaluate = selection.evaluate
    try:
        selection.evaluate = lambda roots: calls.append(len(roots)) or evaluate(roots)
        w = s[s < 2] * 1.5
        assert_same(w.sum(), (e * 1.5).sum())
    finally:
        selection.evaluate = evaluate
    assert calls == [2]             # the mask and the buffer: one call
    for read in (repr, jax.tree_util.tree_leaves, len):
        calls.clear()
        try:
            selection.evaluate = lambda roots: calls.append(len(roots)) or evaluate(roots)
            read(s[s < 2] * 1.5)
        finally:
            selection.evaluate = evaluate
        assert calls == [2], read
    assert_same(t.sum(), e.sum())
    assert_same(lazy(t[t > 0]), e[e > 0])
    assert len(t) == e.size and t.shape == e.shape
    assert_same(t, e)
    y = onp.zeros(25)
    y[(x > -2) & (x < 2)] = e * 3
    z = np.zeros(25)
    z[(a > -2) & (a < 2)] = t * 3
    assert_same(z, y)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_selections_of_selections_of_narrow_floats(dt):
    v0 = onp.linspace(-3, 3, 13)
    v = np.asarray(v0).astype(dt)
    ref = v0.astype(v.dtype)
    for _ in range(3):
        v = v[np.abs(v) < 2.5] * 1.5
        r = np.asarray(ref)
        ref = onp.asarray(r[onp.abs(ref) < 2.5] * 1.5)      # eager, step by step
    assert v.dtype == jax.numpy.dtype(dt)
    assert_same(v, ref)


SPECIALS = onp.asarray([0.0, -0.0, onp.inf, -onp.inf, onp.nan, 1e308, -1e308, 5e-324,
                        1.5, -2.5, 3.0, 0.1, -7.25, 2.0 ** 52 + 1, 0.5])


CHAINS = [lambda t: (t * 1.1 + 0.3) / 7 - t, lambda t: abs(t) * 3 < t + 1,
          lambda t: np.floor(t * 0.7) + np.rint(t / 3) - np.sqrt(abs(t)),
          lambda t: -t * t - np.trunc(t) * 2.5, lambda t: (t > 1) & (t < 1e300) | (t == 0)]


def _same_bits(a, b):
    """``a`` and ``b`` have one dtype and the same bits (any NaN for a NaN: its
    sign and payload are the hardware's, as in NumPy)."""
    assert a.dtype == b.dtype
    if a.dtype.kind == "f":
        nan = onp.isnan(a)
        assert (nan == onp.isnan(b)).all()
        a, b = onp.where(nan, 0, a), onp.where(nan, 0, b)
    assert a.tobytes() == b.tobytes()


def _runs():
    """The number of runs of selection programs on the host."""
    counts = {"host": 0}
    on_host = selection._on_host

    def host_run(*a):
        r = on_host(*a)
        counts["host"] += r is not None
        return r
    return counts, host_run


def _default_device():
    d = jax.config.jax_default_device or jax.devices()[0]
    return jax.devices(d)[0] if isinstance(d, str) else d


@pytest.mark.parametrize("dt", [onp.float64, onp.float32, onp.int32, onp.int64])
def test_exact_programs_give_the_same_bits_on_the_host_and_compiled(dt, monkeypatch):
    """A small program of exact operations runs in NumPy on the host within the
    budget, then compiled: the bits (special values, subnormal results
    included) and dtypes are the same, and equal the eager calls'."""
    with onp.errstate(all="ignore"):
        x = onp.tile(SPECIALS, 3).astype(dt)
    m = onp.arange(x.size) % 4 != 1
    counts, host_run = _runs()
    monkeypatch.setattr(selection, "_on_host", host_run)
    # (data on an accelerator has no host buffer; where the dtype's home is the
    # CPU device, an accelerator's int64, its data is committed there and its
    # programs compile)
    on_host = backends.home_device((onp.dtype(dt),), True) is None and \
        _default_device().platform == "cpu"
    compiled_division_is_inexact = _default_device().platform == "tpu"
    for f in CHAINS:
        eager = selection._defer
        try:
            selection._defer = lambda *a: None
            ref = onp.asarray(f(np.asarray(x)[m]))
        finally:
            selection._defer = eager
        outs = []
        for budget in (math.inf, 0.0):      # on the host, then compiled
            monkeypatch.setattr(host, "HOST_BUDGET", budget)
            host._SPENT.clear()
            n = counts["host"]
            got = f(np.asarray(x)[m])
            assert selection.pending(got._full)
            outs.append(onp.asarray(got))
            # 5e-324 is subnormal in float64, which XLA flushes to zero: compiled
            assert (counts["host"] > n) == (budget > 0 and on_host and dt is not onp.float64)
        for o in outs:
            if compiled_division_is_inexact and dt is onp.float32 and \
                    f in (CHAINS[0], CHAINS[2]):
                # (compiled for a TPU: its float32 division and square root are
                # an ulp or two off NumPy's on a third of operands,
                # docs/differences.md; the eager calls ran on the host: NumPy's)
                onp.testing.assert_allclose(o, ref, rtol=1e-6, atol=1e-6)
            else:
                _same_bits(o, ref)


def test_a_program_compiles_once_its_host_runs_cost_the_budget(monkeypatch):
    x = onp.random.default_rng(1).standard_normal(64)
    m = x > -1
    counts, host_run = _runs()
    monkeypatch.setattr(selection, "_on_host", host_run)
    monkeypatch.setattr(host, "HOST_BUDGET", 1e-9)      # one run spends it
    host._SPENT.clear()
    for _ in range(3):
        assert_same(np.asarray(x)[m] * 1.5 - 2, x[m] * 1.5 - 2)
    assert counts["host"] == backends.cpu_only()


def test_inexact_and_committed_programs_are_compiled(monkeypatch):
    x = onp.linspace(-3, 3, 50)
    m = x > -1
    counts, host_run = _runs()
    monkeypatch.setattr(selection, "_on_host", host_run)
    monkeypatch.setattr(host, "HOST_BUDGET", math.inf)
    host._SPENT.clear()
    assert_same(np.sin(np.asarray(x)[m]) * 2, onp.sin(x[m]) * 2)
    assert counts["host"] == 0
    a = np.asarray(jax.device_put(x, backends.cpu_device() if emulates(x.dtype)
                                  else jax.devices()[-1]))      # committed to a device
    assert_same(a[m] * 2 + 1, x[m] * 2 + 1)
    assert counts["host"] == 0
    # (a program refused on the host compiles from then on: another shape)
    assert_same(np.asarray(x[:40])[m[:40]] * 2 + 1, x[:40][m[:40]] * 2 + 1)
    assert counts["host"] == backends.cpu_only()


@pytest.mark.parametrize("name", sorted(host.EXACT))
def test_an_exact_ufunc_on_the_host_gives_the_compiled_bits(name, monkeypatch):
    """An eager exact ufunc on a new shape runs on the host (nothing compiles)
    within the budget: the same bits and dtype as the compiled call."""
    uf = getattr(np, name)
    rng = onp.random.default_rng(len(name))
    with onp.errstate(all="ignore"):
        data = {onp.float64: onp.concatenate([SPECIALS, rng.standard_normal(9) * 1e3]),
                onp.float32: onp.concatenate([SPECIALS, rng.standard_normal(9)]).astype(
                    onp.float32),
                onp.int64: rng.integers(-2 ** 62, 2 ** 62, 24),
                onp.uint8: rng.integers(0, 255, 24).astype(onp.uint8),
                bool: rng.random(24) > 0.5}
    for dt, a in data.items():
        b = onp.roll(a, 5)
        n = a.size + len(name) + 3 * list(data).index(dt)    # a shape of its own
        a, b = onp.resize(a, n), onp.resize(b, n)
        args = (a,) if uf.nin == 1 else (a, b)
        with onp.errstate(all="ignore"):
            try:
                ref = getattr(onp, name)(*args)
            except TypeError:
                continue
        ops = [np.asarray(t) for t in args]
        monkeypatch.setattr(host, "HOST_BUDGET", math.inf)
        c0 = COMPILES.n
        firsts = [onp.asarray(uf(*ops)) for _ in range(3)]
        loop = getattr(onp, name).resolve_dtypes((onp.dtype(dt),) * uf.nin + (None,))
        if (dt is not onp.float64 and jax.default_backend() == "cpu" and loop[0] == dt
                and loop[-1] in host.HOST_DTYPES):      # (float64: a subnormal operand)
            assert COMPILES.n == c0, (name, dt)
        monkeypatch.setattr(host, "HOST_BUDGET", 0.0)
        compiled = onp.asarray(uf(*ops))
        assert compiled.dtype == ref.dtype
        for f in firsts:
            _same_bits(f, compiled)


def test_an_eager_exact_operation_on_new_shapes_compiles_nothing():
    """``x[keep] * 2 < 1`` on ever new sizes: the first runs are on the host."""
    rng = onp.random.default_rng(3)
    h = rng.standard_normal(300)
    c0 = COMPILES.n
    got = []
    for n in range(200, 208):
        a = np.asarray(h[:n])
        got.append(onp.asarray(abs(a) * 2.0 < 1.5))
    assert COMPILES.n == c0 or jax.default_backend() != "cpu"
    for n, g in zip(range(200, 208), got):
        assert_same(g, onp.abs(h[:n]) * 2.0 < 1.5)


# --------------------------------------------------------------------------
# functions whose result size is data dependent
# --------------------------------------------------------------------------
@settings(max_examples=12)
@given(masked(dtypes=[onp.int32, onp.float64]), st.sampled_from([None, 0, -1]))
def test_compress_and_extract_are_numpy_s(xm, axis):
    x, m = xm
    c = m.reshape(-1)[: x.shape[0] if axis == 0 else x.size]
    if axis == -1:
        c = onp.resize(m.reshape(-1), x.shape[-1]) if x.shape[-1] else onp.zeros(0, bool)
    assert_same(np.compress(c, np.asarray(x), axis=axis), onp.compress(c, x, axis=axis))
    assert_same(np.asarray(x).compress(list(c), axis=axis), x.compress(list(c), axis=axis))
    cond = onp.resize(m, x.shape) if x.size else onp.zeros(x.shape, bool)
    assert_same(np.extract(cond, np.asarray(x)), onp.extract(cond, x))
    assert_same(np.extract(np.asarray(cond), np.asarray(x)) * 2, onp.extract(cond, x) * 2)


@given(masked(dtypes=[onp.bool_, onp.int8, onp.float32]))
def test_nonzero_argwhere_flatnonzero_are_numpy_s(xm):
    x, _ = xm
    a = np.asarray(x)
    assert_same(np.nonzero(a), onp.nonzero(x))
    assert_same(np.argwhere(a), onp.argwhere(x))
    assert_same(np.flatnonzero(a), onp.flatnonzero(x))


@settings(max_examples=15)
@given(masked(dtypes=[onp.int8, onp.int64, onp.float64]), st.booleans(), st.booleans(),
       st.booleans(), st.sampled_from([None, 0]))
def test_unique_is_numpy_s(xm, index, inverse, counts, axis):
    x, _ = xm
    exp = onp.unique(x, index, inverse, counts, axis)
    assert_same(np.unique(np.asarray(x), index, inverse, counts, axis), exp)
    if axis is None:
        assert_same(np.unique(x.tolist(), index, inverse, counts), onp.unique(
            x.tolist(), index, inverse, counts))


def test_nonzero_compiles_nothing_per_count():
    x = np.arange(300) % 7 + np.arange(300) // 50
    h = onp.arange(300) % 7 + onp.arange(300) // 50
    c0 = COMPILES.n
    for n in range(0, 14):      # 14 counts, one shape
        assert_same(np.nonzero(x < n), onp.nonzero(h < n))
        assert_same(np.argwhere(x < n), onp.argwhere(h < n))
        assert_same(np.unique(x[x < n], return_counts=True),
                    onp.unique(h[h < n], return_counts=True))
    buckets = {bucket(int((h < n).sum())) for n in range(1, 14)}
    assert len(buckets) < 8
    # the comparison, and the gather of x[x < n] once per bucket, not per count
    assert COMPILES.n - c0 <= 1 + len(buckets)


def test_data_dependent_results_are_padded_selections(monkeypatch):
    # the compiled path's results (small data on a CPU is NumPy's there)
    monkeypatch.setattr(host, "creates", lambda shape: False)
    h = onp.asarray([[0, 3, 0], [5, 7, 0], [1, 0, 2]])
    x = on_device(h)
    i, j = np.nonzero(x)
    assert type(i) is Selection and i._full.shape == (8,) and i._mask is j._mask
    assert i.shape == (5,) and len(j) == 5 and i._cache is None
    assert_same(i * 3 + j, onp.nonzero(h)[0] * 3 + onp.nonzero(h)[1])
    assert_same((i * 3 + j).sum(), (onp.nonzero(h)[0] * 3 + onp.nonzero(h)[1]).sum())
    assert_same(i.max(), onp.int64(2))
    assert_same(j[j > 0], onp.nonzero(h)[1][onp.nonzero(h)[1] > 0])
    assert repr(np.flatnonzero(x)) == "array([1, 3, 4, 6, 8])"
    assert_same(np.flatnonzero(x)[1:3], onp.flatnonzero(h)[1:3])
    assert_same(x[np.nonzero(x)], h[onp.nonzero(h)])
    assert_same(np.argwhere(x)[:, 1], onp.argwhere(h)[:, 1])
    assert_same(numpy_asarray(np.argwhere(x)), onp.argwhere(h))
    u, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    assert type(u) is Selection and u._mask is counts._mask and type(inv) is not Selection
    assert_same((u, inv, counts), onp.unique(h, return_inverse=True, return_counts=True))
    assert_same((u * counts).sum(), h.sum())
    e = np.nonzero(x > 10)[0]
    assert e.shape == (0,) and e._full.shape == (1,)
    assert_same(e.sum(), onp.int64(0))
    with pytest.raises(ValueError, match="zero-size array"):
        e.max()


def numpy_asarray(a):
    return onp.asarray(a)


def test_operations_on_data_dependent_results_compile_per_bucket():
    h = onp.random.default_rng(7).permutation(600)
    x = np.asarray(h)

    def step(n):
        i = np.flatnonzero(x < n)
        u = np.unique(x[x < n] % 50)
        return (i * 2 + 1).sum(), i.max(), (u * 0.5).mean(), len(u)

    step(3)
    c0 = COMPILES.n
    sizes = range(5, 600, 9)
    for n in sizes:
        got = step(n)
        i = onp.flatnonzero(h < n)
        u = onp.unique(h[h < n] % 50)
        assert_same(got[:3], ((i * 2 + 1).sum(), i.max(), (u * 0.5).mean()))
        assert got[3] == len(u)
    buckets = {bucket(len(onp.flatnonzero(h < n))) for n in sizes} | {
        bucket(len(onp.unique(h[h < n] % 50))) for n in sizes}
    assert len(sizes) > 60 and len(buckets) <= 10
    # a handful of programs per bucket, none per size
    assert COMPILES.n - c0 <= 6 * len(buckets)


def test_compress_along_another_axis_and_short_conditions():
    x = onp.arange(12).reshape(3, 4)
    assert_same(np.compress([True, False], np.asarray(x), axis=0),
                onp.compress([True, False], x, axis=0))
    assert_same(np.compress([False, True, True], np.asarray(x), axis=1),
                onp.compress([False, True, True], x, axis=1))
    assert_same(np.compress([0, 1, 1], np.asarray(x)), onp.compress([0, 1, 1], x))
    assert_same(np.compress([0, 1, 0, 0, 0], np.asarray(x), axis=1),
                onp.compress([0, 1, 0, 0, 0], x, axis=1))
    with pytest.raises(IndexError, match="compress: index 4 is out of bounds for axis 1 "
                       "with size 4"):
        np.compress([True] * 5, np.asarray(x), axis=1)
    y, h = np.arange(600.0).reshape(3, 200), onp.arange(600.0).reshape(3, 200)
    c0 = COMPILES.n
    for n in range(101, 200, 3):        # one bucket (128 or 256) per count
        c = onp.arange(200) % 200 < n
        assert_same(np.compress(c, y, axis=1), onp.compress(c, h, axis=1))
    assert COMPILES.n - c0 <= 2


@pytest.mark.parametrize("cond", [[], [True], [False], [True, False]])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_compress_of_a_0d_array(cond, axis):
    # NumPy takes a 0-d array as its 1-element ravel, along an axis too
    assert_same(np.compress(cond, np.asarray(2.5), axis=axis),
                onp.compress(cond, onp.asarray(2.5), axis=axis))
    with pytest.raises(IndexError, match="compress: index 1 is out of bounds for axis 0 "
                                         "with size 1"):
        np.compress([False, True], np.asarray(2.5), axis=axis)
    with pytest.raises(onp.exceptions.AxisError, match="compress: axis 1 is out of bounds"):
        np.compress([True], np.asarray(2.5), axis=1)


@pytest.mark.parametrize("cond, shape, axis", [([False, True], (0, 1), 1),
                                               ([True, True], (0, 0), 1),
                                               ([True], (0, 0), -1),
                                               ([True, False], (0, 2, 0), 2)])
def test_compress_taking_nothing_checks_nothing(cond, shape, axis):
    # NumPy's take checks the condition's length only where an axis before
    # ``axis`` is not empty
    assert_same(np.compress(cond, np.zeros(shape), axis=axis),
                onp.compress(cond, onp.zeros(shape), axis=axis))
    with pytest.raises(IndexError, match="compress: index 2 is out of bounds for axis 0 "
                                         "with size 2"):
        np.compress([True, True, True], np.zeros((2, 0)), axis=0)


def test_masked_assignment_into_a_slice_reaches_its_base():
    z, zn = np.zeros((4, 5)), onp.zeros((4, 5))
    m = onp.arange(6).reshape(2, 3) % 2 == 0
    z[1:-1, 1:-1][m] = 1
    zn[1:-1, 1:-1][m] = 1
    assert_same(z, zn)


def test_gradient_and_vmap_through_selections():
    x = np.arange(-3.0, 4.0)
    g = jax.grad(lambda d: np.asarray(d)[np.asarray(d) > 0].sum().data ** 2)(x.data)
    assert_same(g, onp.asarray([0, 0, 0, 0, 12, 12, 12.0]))
    r = jax.vmap(lambda row: row[row > 0].sum())(np.arange(-3.0, 3.0).reshape(2, 3))
    assert_same(r, onp.asarray([0.0, 3.0]))


def test_a_selection_meeting_an_array_of_its_length_is_numpy_s():
    x = np.arange(-3.0, 4.0)
    s = x[x > 0]
    assert_same(s + np.arange(3.0), onp.asarray([1.0, 3.0, 5.0]))
    with pytest.raises(ValueError, match=r"could not be broadcast together with "
                       r"positional shapes \(3,\) \(4,\)"):
        s + np.arange(4.0)
    other = x[x < 0]            # another mask: both materialize
    assert_same(s * other, onp.asarray([-3.0, -4.0, -3.0]))


def test_a_selection_prints_its_values_first_time():
    # str() of a deferred selection whose exact result was on the host read
    # that result after settling it had dropped it: print(np.flatnonzero(a
    # == 1.0)) of device data printed "None"
    h = onp.array([1.0, 2.0, 1.0, 3.0])
    for make in (lambda a: np.flatnonzero(a == 1.0), lambda a: a[a > 1.5],
                 lambda a: np.nonzero(a < 2)[0]):
        want = make(h)
        for fmt in (str, repr, "{}".format):
            a = np.asarray(jax.device_put(h, jax.devices()[0]))
            got = make(a)
            assert fmt(got) == fmt(want), (fmt, got)

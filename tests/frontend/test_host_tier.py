"""The host tier (engines/host.py) gives the compiled path's answers where
both are exact: the same creation, data-moving and correctly rounded
expressions and a small NumPy program, run here and in a process with
``NAMEDARRAY_HOST_TIER=off``, give the same dtypes, bits, result kinds and
errors; the whole functions run on the host compile nothing; traced, named
and mapped data keep the compiled path.  (Where the compiled path rounds
otherwise, or flushes a subnormal, the host's answer is NumPy's:
test_host_resident.py.)"""
import json
import os
import subprocess
import sys
import warnings

import jax
import numpy as onp
import pytest

import namedarray as np
from namedarray.core import backends
from namedarray.core.array import NamedArray, is_scalar
from namedarray.frontend.engines import host

EXPRS = [
    "np.linspace(0.0, 1.0, 7)", "np.linspace(-3, 5, 11, endpoint=False)",
    "np.linspace(0, 1, 5, dtype=int)", "np.linspace(1e-300, 1e-290, 4)",
    "np.linspace(0.0, 2 * np.pi, 64)", "np.linspace(x[0], 1.0, 3)",
    "np.linspace(2.0, 3.0, 5, retstep=True)", "np.linspace(0, 1, -1)",
    "np.arange(5)", "np.arange(0.0, 1.0, 0.1)", "np.arange(-2, 7, 3, dtype=float)",
    "np.arange(5, dtype=np.int8)", "np.eye(3)", "np.eye(2, 4, k=1, dtype=int)",
    "np.identity(2)", "np.tri(3, 2, -1)", "np.tril(m)", "np.triu(m, 1)",
    "np.diag(np.ones(2) * 0.1, 1)", "np.diag([1, 2])", "np.diag(m)",
    "np.zeros_like(m)", "np.ones_like(i)", "np.full_like(i, 2.5)", "np.full_like(x, 0.1)",
    "np.concatenate([x, x[::-1]])", "np.concatenate([i, x])", "np.concatenate([m, x])",
    "np.stack([x, x], axis=1)", "np.hstack([x, 1.0])", "np.vstack([x, x])",
    "np.column_stack([x, i])", "np.argmin(x)", "np.argmax(m, axis=0)",
    "np.argmax(np.array([0.0, np.nan, 1.0]))", "np.array([1.0, 2.0, 3.0])",
    "np.array([1, 2], dtype=np.float32)", "np.array([x[0], 2.0])", "np.array([True, 0])",
    "np.array([2**70])", "np.concatenate([s, s])", "np.argmin(s)",
    "np.append(x, [1, 2])", "np.tile(x, (2, 1))", "np.roll(m, 1, axis=1)", "np.take(x, [3, 0])",
    "np.take(x, [9])", "np.where(x > 0.5, x, 0)", "np.where(i > 1, 2.5, i)",
    "np.where(x > 0)", "np.searchsorted(x, [0.0, 5.0])", "np.diff(x)", "np.diff(i, 2)",
    "np.ediff1d(m)", "np.concatenate([x[x > 0], x])", "np.tile(x[::-1], 1)",
    "np.outer(x, i)", "np.kron(m, x)",
    "np.diff(np.array([1e-300, 2e-300]))",
]


def _program(np):
    F = np.eye(2) + np.diag(np.ones(1) * 0.1, 1)
    x = np.zeros(2)
    errs = []
    for k in range(1, 6):
        h = 10.0 ** -k
        x = F @ x + h
        errs.append(np.argmax(np.abs(x - np.linspace(0.0, 1.0, 2))))
    return [x, np.array(errs), np.stack([x, x]), np.concatenate([x, F[0]])]


def _describe(v):
    if isinstance(v, tuple):
        return [_describe(e) for e in v]
    if isinstance(v, float):
        return ["float", v.hex()]
    a = onp.asarray(v)
    return [a.dtype.str, a.shape, a.tobytes().hex(), is_scalar(v), v.data.weak_type]


def results():
    """Every expression's description (or its error), and the program's."""
    x = np.linspace(-1.0, 2.0, 4)
    i = np.arange(4)
    m = np.arange(9.0).reshape(3, 3)
    s = np.array([1e-310, 1.0])          # a subnormal (moved, not computed on)
    out = {}
    for e in EXPRS:
        try:
            out[e] = _describe(eval(e, {"np": np, "x": x, "i": i, "m": m, "s": s}))
        except Exception as err:    # noqa: BLE001 -- the error is compared
            out[e] = [type(err).__name__, str(err)]
    out["program"] = [_describe(v) for v in _program(np)]
    return json.loads(json.dumps(out))


def test_host_tier_answers_as_the_compiled_path():
    assert host.ENABLED
    code = ("import json, sys; sys.path.insert(0, %r); import test_host_tier as t; "
            "print(json.dumps(t.results()))" % os.path.dirname(__file__))
    env = dict(os.environ, NAMEDARRAY_HOST_TIER="off", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    off = json.loads(proc.stdout.strip().splitlines()[-1])
    on = results()
    for e in on:
        assert on[e] == off[e], e


_COMPILES = [0]


def _listener(event, duration, **kw):
    _COMPILES[0] += event == "/jax/core/compile/backend_compile_duration"


def test_whole_functions_compile_nothing():
    jax.monitoring.register_event_duration_secs_listener(_listener)
    c0 = _COMPILES[0]
    x = np.linspace(0.0, 1.0, 13)
    y = np.concatenate([x, np.arange(3.0), np.ones_like(x)])
    z = np.vstack([np.diag(x, 1), np.tri(14), np.eye(14, k=-2)])
    int(np.argmin(y)), int(np.argmax(z, axis=None))
    np.array([1.5, 2.5, 3.5])
    assert _COMPILES[0] == c0


def test_traced_and_named_data_keep_the_compiled_path():
    got = jax.jit(lambda a: np.concatenate([np.asarray(a), np.linspace(0.0, 1.0, 2)]).data)(
        onp.arange(2.0))
    assert onp.array_equal(got, [0.0, 1.0, 0.0, 1.0])
    a = np.ones(3).tag("t")
    assert np.concatenate([a, a], axis="t").named_shape == {"t": 6}
    assert host.whole("concatenate", ([a, a],), {}) is None


def test_results_are_new_arrays():
    x = np.linspace(0.0, 1.0, 3)
    for y in (np.concatenate([x]), np.tile(x, 1), np.array([x[0], x[1]]), np.take(x, [0, 1])):
        y[0] = 7.0
    assert x.tolist() == [0.0, 0.5, 1.0]


# result kinds NumPy gives 0-d results (its scalar or its 0-d array), by rule:
# functions that build arrays (where, real_if_close, tensordot, unique's
# inverse, polyval of no coefficients), the quantile family's keepdims=True
KIND_EXPRS = [
    "np.where(True, 1.0, 2.0)", "np.where(a0, a0, np.float16(0.0))",
    "np.real_if_close(np.complex64(1))", "np.real_if_close(1 + 0j)",
    "np.tensordot(np.ones(3), np.ones(3), 1)", "np.linalg.tensordot(v, v, axes=1)",
    "np.tensordot(e, e, 2)", "np.unique(np.float16(0), return_inverse=True)",
    "np.unique(f0, return_inverse=True)", "np.polyval([], f0)", "np.polyval([1.0, 2.0], f0)",
    "np.median(f0, keepdims=True)", "np.median(f0)", "np.nanmedian(f0, keepdims=True)",
    "np.quantile(i0, 0.5, axis=None, keepdims=True)", "np.percentile(f0, 50, keepdims=True)",
    "np.nanquantile(f0, 0.5)", "np.sum(f0, keepdims=True)", "np.mean(f0, keepdims=True)",
]


def kinds(np):
    """Each expression's result kind: 'array' (a 0-d array too), 'scalar', or
    its tuple's; for NumPy or namedarray as ``np``."""
    import namedarray
    env = {"np": np, "a0": np.asarray(False), "v": np.ones(3), "e": np.zeros((0, 0), bool),
           "f0": np.asarray(2.5), "i0": np.asarray(3, dtype=np.int8)}

    def kind(r):
        if isinstance(r, tuple):
            return [kind(x) for x in r]
        if isinstance(r, namedarray.NamedArray):
            return "scalar" if is_scalar(r) else "array"
        return "array" if isinstance(r, onp.ndarray) else "scalar"
    return {e: kind(eval(e, env)) for e in KIND_EXPRS}


def test_result_kinds_are_numpys_on_both_tiers():
    want = kinds(onp)
    assert kinds(np) == want
    code = ("import json, sys; sys.path.insert(0, %r); import test_host_tier as t; "
            "import namedarray; print(json.dumps(t.kinds(namedarray)))"
            % os.path.dirname(__file__))
    env = dict(os.environ, NAMEDARRAY_HOST_TIER="off", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == want


DRAWS = [("RandomState", "rand", (3, 4), {}), ("RandomState", "randn", (5,), {}),
         ("RandomState", "randint", (0, 9), {"size": 6}), ("RandomState", "randint", (9,), {}),
         ("RandomState", "random_sample", (), {"size": (2, 2)}),
         ("default_rng", "random", (), {"size": 7}),
         ("default_rng", "integers", (5,), {}), ("default_rng", "integers", (0, 5, 4), {}),
         ("default_rng", "normal", (), {"size": (2, 3)}),
         ("default_rng", "permutation", (6,), {})]


def test_seeded_draws_are_made_as_eager_data():
    """A NumPy-seeded stream's eager draw is NumPy's new data, made where an
    eager call makes new data: small, it lives on the host, and what meets it
    there compiles nothing; beyond the host tier, on the device."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    for cls, method, args, kw in DRAWS:
        want = getattr(getattr(onp.random, cls)(7), method)(*args, **kw)
        got = getattr(getattr(np.random, cls)(7), method)(*args, **kw)
        assert type(got) is type(want) or isinstance(got, NamedArray), (method, got)
        assert onp.asarray(got).dtype == onp.asarray(want).dtype, method
        assert onp.array_equal(onp.asarray(got), want), method
        if isinstance(got, NamedArray):
            assert got._host is not None, method
            assert is_scalar(got) == (not isinstance(want, onp.ndarray)), method
    x = np.random.RandomState(0).rand(6, 5)
    c0 = _COMPILES[0]
    np.fft.fftshift(x, 1), np.fft.ifftshift(x), np.sum(x * 2.0, axis=0)
    assert _COMPILES[0] == c0
    big = np.random.RandomState(0).rand(host.HOST_SIZE + 1)
    assert big._host is None
    assert onp.array_equal(onp.asarray(big), onp.random.RandomState(0).rand(host.HOST_SIZE + 1))


def _numpy_operands(dt):
    base = onp.arange(1, 13).astype(dt).reshape(3, 4)
    return {"array": (base,), "0d": (onp.array(base[1, 1]),), "strided": (base[::-1, ::2],),
            "with-ours": (base, np.asarray(base[0])), "ours-first": (np.ones(4, dt), base),
            "with-python": (base, 2), "two": (base, base.T[:3, :3].copy()[:, :1])}


@pytest.mark.parametrize("dt", ["float64", "float32", "int64", "int16", "uint8", "bool",
                                "complex128"])
@pytest.mark.parametrize("name", ["log", "negative", "sqrt", "add", "multiply", "maximum",
                                  "less", "floor_divide", "arctan2"])
def test_numpy_arrays_as_host_operands(dt, name):
    """A ufunc given NumPy's small arrays (another library's array_likes,
    read as arrays) answers on the host as it does for namedarray's data
    living there: NumPy's dtypes, values and result kinds, compiling nothing."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    uf, np_uf = getattr(np, name), getattr(onp, name)
    if onp.dtype(dt).kind in host.OWN_ANSWERS.get(name, ""):
        pytest.skip("namedarray's own answer on both paths")
    for kind, args in _numpy_operands(onp.dtype(dt)).items():
        if len(args) != uf.nin:
            continue
        theirs = [onp.asarray(a) if isinstance(a, NamedArray) else a for a in args]
        with warnings.catch_warnings(), onp.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                want = np_uf(*theirs)
            except TypeError:
                continue
            c0 = _COMPILES[0]
            got = uf(*args)
        assert _COMPILES[0] == c0, kind
        assert isinstance(got, NamedArray) and got._host is not None, kind
        assert onp.asarray(got).dtype == want.dtype, kind
        assert is_scalar(got) == (not isinstance(want, onp.ndarray)), kind
        assert onp.array_equal(onp.asarray(got), want, equal_nan=True), kind
    ones = [onp.ones(3, dt)] * uf.nin
    try:
        want = np_uf(*ones)
    except TypeError:
        return
    assert uf(*[onp.ones(host.HOST_SIZE + 1, dt)] * uf.nin)._host is None
    traced = jax.jit(lambda v: uf(*ones[1:], v).data)        # (a constant and a tracer)
    if not backends.cpu_only() and backends.lacks(
            backends.accelerator(), backends.FAMILY_OF.get(name, "any"), [onp.dtype(dt)],
            False) is not None:
        # Under jax.jit the rules are JAX's: the trace compiles for the default
        # device, whose compiler has none of this (a TPU's aborts the process
        # on complex128), so namedarray's TypeError says so at trace time, and
        # the trace runs under the CPU device, as the error suggests.
        with pytest.raises(TypeError, match="no implementation"):
            traced(ones[0])
        with jax.default_device(backends.cpu_device()):
            got = traced(ones[0])
    else:
        got = traced(ones[0])
    assert onp.allclose(got, want, rtol=1e-6)     # (the compiled path rounds its own way)


@pytest.mark.parametrize("dt", [None, "uint8", "int16", "int64", "uint32", "float32"])
@pytest.mark.parametrize("src", ["int32", "float64", "rows", "columns", "strided"])
def test_dtype_views_of_host_data(src, dt):
    """``x.view(dtype)`` (and ``x.view()``) of data living on the host is
    NumPy's view of its bytes, compiling nothing: writes through an integer
    view (``fill`` too) reach the base, the view sees the base's writes, a
    floating view is read-only (as on the compiled path); NumPy's error where
    NumPy refuses (a strided last axis)."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    base = (onp.arange(24, dtype="int32") - 7).reshape(4, 6)
    base = base.astype("float64") if src == "float64" else base
    part = {"rows": (slice(1, 3),), "columns": (slice(None), slice(0, 4)),
            "strided": (slice(None), slice(None, None, 2))}.get(src, ())
    e = base.copy()
    x = np.asarray(base)
    mine, theirs = (x[part], e[part]) if part else (x, e)
    c0 = _COMPILES[0]
    try:
        want = theirs.view() if dt is None else theirs.view(dt)
    except ValueError:
        with pytest.raises(ValueError):
            mine.view(dt)
        return
    got = mine.view() if dt is None else mine.view(dt)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert onp.asarray(got).tobytes() == want.tobytes()
    if want.dtype.kind not in "iu" and dt is not None:
        assert _COMPILES[0] == c0
        assert not got.flags.writeable
        return
    else:
        got.fill(3)
        want.fill(3)
        got[0, ...] = 5
        want[0, ...] = 5
        assert onp.array_equal(onp.asarray(x), e)
        mine[-1] = 0
        theirs[-1] = 0
        assert onp.array_equal(onp.asarray(got), want)
    assert _COMPILES[0] == c0


def test_strided_copies_by_dtype_views_stay_on_the_host():
    """NumPy's idiom for arrays of other strides (fill the bytes, slice,
    write, view as the class): all on the host, NumPy's values."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    x = np.asarray(onp.arange(6.0).reshape(2, 3))
    c0 = _COMPILES[0]
    xi = np.empty((2, 9), dtype=x.dtype)
    xi.view(np.uint32).fill(0xdeadbeef)
    xi = xi[:, ::-3]
    xi[...] = x
    xi = xi.view(type(x))
    assert bool(np.all(xi == x)) and xi._hview is not None
    assert _COMPILES[0] == c0
    full = onp.asarray(xi.base)
    assert (full.view(onp.uint32).reshape(2, 9, 2)[:, 1::3] == 0xdeadbeef).all()


@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log1p", "add", "multiply", "arctan2"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("stride", [-1, 1, 2, 5])
def test_out_of_host_data_is_the_call_without_out(name, dt, stride):
    """``f(x[::s], out=x[:m])`` on data living on the host: NumPy's answer,
    written into ``out``'s buffer in place, the same bits as ``f(x[::s])``
    (NumPy's overlapping ``out=`` semantics), compiling nothing."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    uf, np_uf = getattr(np, name), getattr(onp, name)
    e = onp.random.default_rng(42).standard_normal(100, dt)
    x = np.asarray(e.copy())
    m = 100 // abs(stride)
    ops = [x[::stride]] * uf.nin
    c0 = _COMPILES[0]
    with onp.errstate(all="ignore"):
        y = uf(*ops)
        r = uf(*ops, out=x[:m])
        e[:m] = np_uf(*[e[::stride]] * uf.nin)    # (NumPy's out= may take another loop)
    assert _COMPILES[0] == c0
    assert onp.asarray(x).tobytes() == e.tobytes()
    assert onp.array_equal(onp.asarray(r), onp.asarray(y), equal_nan=True)
    assert x._host is not None


OUT_CALLS = [
    ("fft.fftn", lambda m, x: ((x + 0j,), {}), complex),
    ("fft.ifftn", lambda m, x: ((x + 0j,), {"axes": (0,)}), complex),
    ("einsum", lambda m, x: (("ij,j->i", x, x[0]), {}), float),
    ("sum", lambda m, x: ((x,), {"axis": 0}), float),
    ("take", lambda m, x: ((x, [2, 0]), {"axis": 1}), float),
    ("matmul", lambda m, x: ((x, x.T), {}), float),
]


@pytest.mark.parametrize("k", range(len(OUT_CALLS)))
def test_whole_functions_out_of_host_data(k):
    """``out=`` living on the host, operands there: NumPy's answer of the
    call without ``out``, written into it in place (returned), compiling
    nothing."""
    jax.monitoring.register_event_duration_secs_listener(_listener)
    name, make, dt = OUT_CALLS[k]
    e = onp.random.default_rng(1).standard_normal((3, 4))
    x = np.asarray(e)
    f_np, f = onp, np
    for part in name.split("."):
        f_np, f = getattr(f_np, part), getattr(f, part)
    args, kw = make(onp, e)
    want = f_np(*args, **kw)
    args, kw = make(np, x)
    c0 = _COMPILES[0]
    out = np.empty(want.shape, dt)
    assert f(*args, **kw, out=out) is out
    assert _COMPILES[0] == c0
    assert onp.asarray(out).tobytes() == want.tobytes()


@pytest.mark.parametrize("dt", ["c8", "f4", "f8"])
def test_out_and_dtype_together_are_numpys_error(dt):
    """NumPy refuses ``out=`` beside ``dtype=`` even where the dtypes agree;
    so does the host path that writes NumPy's answer into a host ``out``."""
    pieces = (np.array([1.1, 2.2]), np.array([3.3, 4.4]))
    out = np.empty(4, dtype=dt)
    with pytest.raises(TypeError, match="concatenate: .*only takes `out` or `dtype`"):
        np.concatenate(pieces, out=out, dtype=dt)

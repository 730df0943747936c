"""The dispatcher (namedarray/frontend/engines/dispatch.py) and the capability
table (namedarray/core/backends.py), tested on the CPU: one simulated CPU
device stands in for a TPU (the default device), another for the CPU backend.
Each decision is checked by where the result lives and by its value against
NumPy; under jax.jit, by the error at trace time.  The lowered precision of
every contraction is checked in the lowered StableHLO text."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings

import jax
from jax._src import pjit
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray.core import backends, config
from support import make_mesh, tpu  # noqa: F401  (tpu: a fixture, a simulated TPU machine)

N = 70_000      # above the host tier's size: the call compiles


def _devices():
    cpus = jax.devices("cpu")
    if len(cpus) < 2:
        pytest.skip("needs 2 CPU devices (the test suite simulates 8)")
    return cpus[0], cpus[1]


def _on(x, dev):
    return x.data.devices() == {dev}


def test_table_statuses():
    assert backends.status("tpu", "dot", "int64") == backends.ABSENT
    assert backends.status("tpu", "any", "int64") == backends.EMULATED
    assert backends.status("tpu", "lu", "float64") == backends.ABSENT
    assert backends.status("tpu", "any", "float64") == backends.EMULATED
    assert backends.status("tpu", "eig", "float32") == backends.ABSENT
    assert backends.status("tpu", "dot", "float32") == backends.NATIVE
    assert backends.status("gpu", "lu", "float64") == backends.NATIVE
    assert backends.status("cpu", "eig", "complex128") == backends.NATIVE
    assert backends.lacks("tpu", "any", [onp.dtype("float64")], strict=False) is None
    assert backends.lacks("tpu", "any", [onp.dtype("float64")], strict=True) == "float64"


def test_numpy_dtypes_live_on_the_cpu_backend(tpu):
    acc, cpu = tpu
    x = np.ones(N)                       # float64: emulated on the TPU
    assert _on(x, cpu) and x.data.committed
    y = np.ones(N, dtype=np.float32)     # float32: the accelerator's
    assert _on(y, acc)
    big = np.arange(N)                   # int64
    assert _on(big, cpu)
    r = x * 2.0 + 1.0                    # computed where the data is
    assert _on(r, cpu)
    onp.testing.assert_array_equal(onp.asarray(r), onp.full(N, 3.0))


def test_small_data_lives_on_the_host(tpu):
    a = np.arange(12).reshape(3, 4)      # (a view of host data: NumPy's own view)
    assert a._hview is not None
    r = a.T @ a[:, :2]          # int64 @: NumPy's own on the host
    onp.testing.assert_array_equal(onp.asarray(r), onp.arange(12).reshape(3, 4).T @
                                   onp.arange(12).reshape(3, 4)[:, :2])
    assert r._host is not None and r._dev is None


def test_absent_family_runs_on_the_cpu_backend(tpu):
    acc, cpu = tpu
    h = onp.random.default_rng(0).standard_normal((300, 300)) + 300 * onp.eye(300)
    a = np.asarray(jax.device_put(h, acc))          # a user's data on the TPU, committed
    r = np.linalg.inv(a)
    onp.testing.assert_allclose(onp.asarray(r), onp.linalg.inv(h), rtol=1e-12, atol=1e-15)
    assert _on(r, acc)           # back where the operand was
    k = np.arange(90_000).reshape(300, 300)           # int64 matmul: no TPU dot
    p = k @ k
    onp.testing.assert_array_equal(onp.asarray(p), onp.arange(90_000).reshape(300, 300) @
                                   onp.arange(90_000).reshape(300, 300))
    assert _on(p, cpu)


_INT32 = onp.array([3, -7, 12], onp.int32)
_C64 = onp.array([1 + 2j, -3 + 0.5j, 0.25j], onp.complex64)


@pytest.mark.parametrize("name, args, computes, traced_raises", [
    ("log2", (_INT32,), "float64", True),       # NumPy's loop: float64, whose
    ("copysign", (_INT32, -_INT32), "float64", True),   # bits a TPU cannot handle
    ("sin", (_INT32,), "float64", False),       # (emulated: it compiles there)
    ("add", (_INT32.astype(onp.int8), 1 + 2j), "complex128", True),   # (aborted
    ("add", (1 + 2j, _INT32.astype(onp.int8)), "complex128", True),   # the TPU)
    ("float_power", (_C64, _C64), "complex128", True),
    ("mean", (_INT32,), "float64", False),
    ("histogram_bin_edges", (_INT32,), "float64", False),   # (its edges: NumPy's
    ("histogram_bin_edges", (_INT32 > 0,), "float64", False),   # float64 linspace)
    ("quantile", (_INT32.astype(onp.float16), [0.25, 0.4]), "float64", False),  # (q: a
    ("percentile", (_INT32.astype(onp.float32), [25, 75]), "float64", False),   # NumPy
    ("add", (_INT32.astype(onp.float32), [0.5, 1.5, 2.5]), "float64", False),   # array)
])
def test_calls_computing_in_a_dtype_the_accelerator_lacks_run_on_the_cpu(
        tpu, monkeypatch, name, args, computes, traced_raises):
    """The table is asked about the dtypes a call computes in, not only its
    operands': int32 data whose NumPy loop is float64, int8 data plus a
    Python complex (complex128), seen on a TPU to fail compiling or to abort
    the process, run on the CPU backend with NumPy's answer; traced, what the
    TPU has no implementation of is the table's clear error."""
    from namedarray.frontend.engines import dispatch
    acc, cpu = tpu
    ran = []
    real = dispatch._on_cpu
    monkeypatch.setattr(dispatch, "_on_cpu", lambda n, *a: ran.append(n) or real(n, *a))
    arrays = [i for i, a in enumerate(args) if isinstance(a, onp.ndarray)]
    on_acc = [np.asarray(jax.device_put(a, acc)) if i in arrays else a
              for i, a in enumerate(args)]
    r = getattr(np, name)(*on_acc)
    with onp.errstate(all="ignore"):
        want = getattr(onp, name)(*args)
    assert ran == [name] and r.dtype == want.dtype == computes
    onp.testing.assert_allclose(onp.asarray(r), want, rtol=1e-15)

    def traced(*vs):
        given = dict(zip(arrays, vs))
        return getattr(np, name)(*[given.get(i, a) for i, a in enumerate(args)])
    if traced_raises:
        with pytest.raises(TypeError, match=f"{name}: TPU's XLA backend has no implementation"):
            jax.jit(traced).lower(*[on_acc[i] for i in arrays])
    else:
        jax.jit(traced).lower(*[on_acc[i] for i in arrays])


def test_a_trace_over_a_mesh_of_cpu_devices_compiles_for_the_cpu(tpu, monkeypatch):
    """A trace over a mesh of the CPU's devices on a TPU machine (a mesh nmap
    of them, as a one-accelerator machine runs a mesh program) compiles for
    the CPU: the TPU's trace-time errors do not apply (seen on a TPU: a
    float64 cumsum under such a mesh raised the TPU's error).  A simulated
    machine's meshes are all of CPU devices, so the mesh's platform is set."""
    x = np.asarray(onp.arange(6.0))
    f = jax.jit(lambda v: np.cumsum(v))
    with pytest.raises(TypeError, match="cumsum: TPU's XLA backend has no implementation "
                                        "of cumulative scans on float64"):
        f.lower(x)
    monkeypatch.setattr(backends, "mesh_platform", lambda: "cpu")
    onp.testing.assert_array_equal(onp.asarray(f(x)), onp.cumsum(onp.arange(6.0)))


def test_a_trace_of_data_sharded_over_cpu_devices_compiles_for_the_cpu(tpu, monkeypatch):
    """Outside any mesh context, a jitted function of data sharded over the
    CPU's devices (``np.shard`` over them, as a one-accelerator machine runs a
    mesh program) compiles for the CPU: JAX's type of a traced value names
    the mesh it is sharded over, and the trace-time check asks that mesh's
    platform (seen on a TPU: a float64 cumsum of such data raised the TPU's
    error).  A simulated machine's meshes are all of CPU devices, so the
    platform of an operand's mesh is set."""
    x = np.shard(np.asarray(onp.arange(8.0)).tag("b"), make_mesh((2,), ("d",)), {"b": "d"})
    f = jax.jit(lambda v: np.cumsum(v, axis="b"))
    with pytest.raises(TypeError, match="cumsum: TPU's XLA backend has no implementation "
                                        "of cumulative scans on float64"):
        f.lower(x)
    context = backends.mesh_platform
    monkeypatch.setattr(backends, "mesh_platform",
                        lambda mesh=None: context() if mesh is None else "cpu")
    onp.testing.assert_array_equal(onp.asarray(f(x).untag("b")), onp.cumsum(onp.arange(8.0)))
    with pytest.raises(TypeError, match="cumsum: TPU's XLA backend"):   # (one device: the TPU)
        jax.jit(lambda v: np.cumsum(v)).lower(np.asarray(onp.arange(8.0)))


def test_an_eager_nmap_runs_where_its_data_is(tpu):
    """An eager nmap (a vmap, run at once) of complex128 data and of float64
    ``inv``, which a TPU has no implementation of, runs on the CPU backend
    where that data lives: NumPy's answers.  Compiled (``jax.jit``), the
    trace is for the TPU: the table's clear error."""
    h = onp.array([[1 + 2j, 3j], [2 - 1j, 4 + 0j], [1j, -1 + 0j]])
    z = np.asarray(h).tag("i", None)
    mean = np.nmap(lambda v: np.mean(v, axis=0))
    onp.testing.assert_allclose(onp.asarray(mean(z).untag("i")), h.mean(1))
    m = onp.eye(2) * onp.array([2.0, 4.0, 8.0])[:, None, None]
    inv = np.nmap(np.linalg.inv)
    onp.testing.assert_allclose(onp.asarray(inv(np.asarray(m).tag("i", None, None))
                                            .untag("i")), onp.linalg.inv(m))
    with pytest.raises(TypeError, match="mean: TPU's XLA backend has no implementation"):
        jax.jit(mean)(z)


def test_an_eager_nmap_of_data_sharded_over_cpu_devices_runs_there(tpu):
    """An eager nmap's operations run at once on its data, here sharded over
    two CPU devices (not the stand-in TPU): a float64 cumsum, which a TPU
    lacks, runs there and is NumPy's answer (seen on a TPU: a value on
    several devices was taken for one of unknown place, and checked)."""
    acc, cpu = tpu
    devices = [d for d in jax.devices("cpu") if d not in (acc, cpu)][:2]
    mesh = jax.sharding.Mesh(onp.array(devices), ("d",))
    h = onp.arange(8.0).reshape(2, 4)
    x = np.shard(np.asarray(h).tag("b", "n"), mesh, {"b": "d"})
    got = np.nmap(lambda v: np.cumsum(v, axis="n"), axes=["b"])(x)
    onp.testing.assert_array_equal(onp.asarray(got.untag("b", "n")), onp.cumsum(h, axis=1))
    on_acc = np.nmap(lambda v: np.cumsum(v, axis="n"), axes=["b"])
    with pytest.raises(TypeError, match="cumsum: TPU's XLA backend has no implementation"):
        on_acc(np.asarray(jax.device_put(h, acc)).tag("b", "n"))


def test_float32_linear_algebra_under_numpy_defaults_computes_in_double(tpu):
    acc, cpu = tpu
    h = onp.random.default_rng(1).standard_normal((256, 256)).astype(onp.float32)
    a = np.asarray(jax.device_put(h, acc))
    d = np.linalg.det(a + 16 * np.eye(256, dtype=np.float32))
    assert d.dtype == onp.float32
    w = np.linalg.eigvals(a)            # eig: no TPU lowering at all
    assert w.dtype == onp.complex64
    onp.testing.assert_allclose(onp.sort_complex(onp.asarray(w)),
                                onp.sort_complex(onp.linalg.eigvals(h)), rtol=1e-3,
                                atol=1e-3)


def test_jax_defaults_keep_emulated_dtypes_on_the_device(tpu):
    acc, cpu = tpu
    config.set_dtype_defaults("jax")
    try:
        y = np.ones(N, dtype=np.float32)
        assert _on(y, acc)
        w = np.linalg.eigvals(np.eye(300, dtype=np.float32).reshape(300, 300) * 2)
        onp.testing.assert_allclose(onp.asarray(w), onp.full(300, 2.0))
    finally:
        config.set_dtype_defaults("numpy")


def test_ufunc_whose_result_the_accelerator_emulates_runs_on_the_cpu(tpu):
    acc, cpu = tpu
    a = np.asarray(jax.device_put(onp.arange(1, N + 1, dtype=onp.int32), acc))
    r = a / a              # int32 / int32 is float64 in NumPy
    assert r.dtype == onp.float64 and _on(r, acc)     # (returned to the committed operand's)
    onp.testing.assert_array_equal(onp.asarray(r), onp.ones(N))


def test_traced_absent_operation_is_a_clear_error(tpu):
    k = jnp.ones((4, 4), jnp.int64)
    with pytest.raises(TypeError, match=r"matmul: TPU's XLA backend has no implementation "
                                        r"of dot \(dot_general\) on int64 data.*jax.default_device"):
        jax.jit(lambda a: np.matmul(np.asarray(a), np.asarray(a)).data)(k)
    with pytest.raises(TypeError, match=r"inv: TPU's XLA backend has no implementation of "
                                        r"lu \(LU decomposition"):
        jax.jit(lambda a: np.linalg.inv(np.asarray(a)).data)(jnp.eye(3))
    # a negative matrix power inverts (LU); a positive one only multiplies
    with pytest.raises(TypeError, match=r"^matrix_power: TPU's XLA backend has no "
                                        r"implementation of lu \(LU decomposition"):
        jax.jit(lambda a: np.linalg.matrix_power(np.asarray(a), -2).data)(jnp.eye(3))
    r = jax.jit(lambda a: np.linalg.matrix_power(np.asarray(a), 2).data)(jnp.eye(3) * 2)
    onp.testing.assert_array_equal(onp.asarray(r), 4 * onp.eye(3))
    # under jax.default_device of the CPU, the trace compiles for the CPU
    with jax.default_device(jax.devices("cpu")[0]):
        r = jax.jit(lambda a: np.linalg.inv(np.asarray(a)).data)(jnp.eye(3) * 2)
    onp.testing.assert_allclose(onp.asarray(r), onp.eye(3) / 2)


@pytest.mark.parametrize("fn", ["inv", "det", "solve", "eigh", "svd", "pinv"])
def test_traced_single_precision_decompositions_stay_single_on_the_tpu(tpu, fn):
    """NumPy computes float32 decompositions in double; a TPU has no float64
    LU (and only emulates float64): traced there, float32 stays float32
    (JAX's rule), never the error of a float64 call.  Eager, the call runs
    in double on the CPU backend (NumPy's answer)."""
    h = onp.array([[4.0, 1.0], [1.0, 3.0]], onp.float32)
    call = {"solve": lambda a: np.linalg.solve(a, a[:, :1])}.get(
        fn, getattr(np.linalg, fn))
    eager = call(np.asarray(h))                 # (eager first: its trace is cached apart)
    traced = jax.jit(lambda a: call(np.asarray(a)))
    assert "2x2xf64" not in traced.lower(jnp.asarray(h)).as_text()   # (no float64 matrix)
    r = traced(jnp.asarray(h))
    want = getattr(onp.linalg, fn)(h) if fn != "solve" else onp.linalg.solve(h, h[:, :1])
    for got, w, e in zip(jax.tree.leaves(r), jax.tree.leaves(tuple(want) if fn == "svd" else
                                                          want), jax.tree.leaves(eager)):
        assert got.dtype == onp.float32 and e.dtype == onp.float32
        onp.testing.assert_allclose(onp.abs(onp.asarray(got)), onp.abs(w), rtol=1e-5)


# -- precision: what each lowered contraction carries --------------------------
def _precisions(f, *args):
    text = jax.jit(f).lower(*args).as_text()
    return re.findall(r"precision = \[(\w+), (\w+)\]", text)


_A = jnp.ones((4, 3), jnp.float32)
_B = jnp.ones((3, 5), jnp.float32)
_CONTRACTIONS = {
    "matmul": lambda a, b: np.matmul(np.asarray(a), np.asarray(b)).data,
    "operator @": lambda a, b: (np.asarray(a) @ np.asarray(b)).data,
    "dot": lambda a, b: np.dot(np.asarray(a), np.asarray(b)).data,
    "einsum": lambda a, b: np.einsum("ij,jk->ik", np.asarray(a), np.asarray(b)).data,
    "named einsum": lambda a, b: np.einsum("{i,j},{j,k}->{i,k}", np.asarray(a).tag("i", "j"),
                                           np.asarray(b).tag("j", "k")).data,
    "tensordot": lambda a, b: np.tensordot(np.asarray(a), np.asarray(b), 1).data,
    "inner": lambda a, b: np.inner(np.asarray(a), np.asarray(b).T).data,
    "vecdot": lambda a, b: np.vecdot(np.asarray(a), np.asarray(b).T[:4]).data,
    "multi_dot": lambda a, b: np.linalg.multi_dot([np.asarray(a), np.asarray(b)]).data,
    "matrix_power": lambda a, b: np.linalg.matrix_power(np.asarray(a)[:3], 3).data,
}


@pytest.mark.parametrize("name", sorted(_CONTRACTIONS))
def test_float32_contractions_are_highest_precision_under_numpy_defaults(name):
    ps = _precisions(_CONTRACTIONS[name], _A, _B)
    assert ps and all(p == ("HIGHEST", "HIGHEST") for p in ps), ps


@pytest.mark.parametrize("name", sorted(_CONTRACTIONS))
def test_a_chosen_precision_and_jax_defaults_are_kept(name):
    with jax.default_matmul_precision("bfloat16"):
        ps = _precisions(_CONTRACTIONS[name], _A, _B)
    assert ps and all(p != ("HIGHEST", "HIGHEST") for p in ps), ps
    config.set_dtype_defaults("jax")
    try:
        ps = _precisions(_CONTRACTIONS[name], _A, _B)
    finally:
        config.set_dtype_defaults("numpy")
    assert ps and all(p == ("DEFAULT", "DEFAULT") for p in ps), ps


# -- JAX's dtype defaults: JAX's division ----------------------------------------
_DIVISIONS = {
    "divide": (lambda a, b: (np.asarray(a) / np.asarray(b)).data, lambda a, b: a / b),
    "mean": (lambda a, b: np.asarray(a).mean(axis=0).data, lambda a, b: a.mean(axis=0)),
    "var": (lambda a, b: np.asarray(a).var(axis=1).data, lambda a, b: a.var(axis=1)),
    "named mean": (lambda a, b: np.NamedArray(a, dims=(None, "i")).mean(axis="i").data,
                   lambda a, b: a.mean(axis=1)),
}


def _ops(f, *args):
    text = jax.jit(f).lower(*args).as_text()
    return sorted(re.findall(r"stablehlo\.(\w+)", text))


@pytest.mark.parametrize("name", sorted(_DIVISIONS))
def test_jax_defaults_divide_as_jax_numpy(name):
    """NumPy's correctly rounded division (an optimization barrier keeps XLA
    from multiplying by a reciprocal) is NumPy's dtype mode's; under JAX's
    the division lowers to jax.numpy's operations, barrier-free."""
    named, plain = _DIVISIONS[name]
    a, b = jnp.ones((4, 3), jnp.float32), jnp.full((4, 3), 3.0, jnp.float32)
    assert "optimization_barrier" in _ops(named, a, b)       # NumPy's defaults
    config.set_dtype_defaults("jax")
    try:
        assert _ops(named, a, b) == _ops(plain, a, b)
    finally:
        config.set_dtype_defaults("numpy")


@pytest.mark.parametrize("mode", ["numpy", "jax"])
def test_data_the_accelerator_cannot_hold_lives_on_the_cpu(tpu, mode):
    """complex128 has no working operation on a TPU (a transpose of it fails
    XLA's layout check): NumPy's complex128 data made into a NamedArray lives
    on the CPU backend in either dtype mode, and computes there."""
    acc, cpu = tpu
    h = onp.random.default_rng(2).standard_normal((2, 2, 3)) * (1 + 1j) + \
        3 * onp.eye(2)[:, :, None]
    config.set_dtype_defaults(mode)
    x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)     # (JAX's defaults with a user's x64)
    try:
        x = np.NamedArray(h, dims=(None, None, "b"))      # (a transpose: names last)
        assert x.dtype == onp.complex128
        assert _on(x, cpu)
        r = np.linalg.inv(x.untag("b"))
        onp.testing.assert_allclose(onp.asarray(r), onp.linalg.inv(onp.moveaxis(h, 2, 0)),
                                    rtol=1e-12)
        assert _on(r, cpu)
    finally:
        jax.config.update("jax_enable_x64", x64)
        config.set_dtype_defaults("numpy")


def test_a_zero_d_array_moved_to_the_cpu_stays_an_array(tpu):
    """complex128 runs on the CPU backend: the operand's copy there is still
    NumPy's 0-d array (``fftn`` over no axis returns it), not its scalar."""
    acc, cpu = tpu
    x = np.asarray(jax.device_put(onp.array(2 + 1j), acc))     # (JAX's array, on the TPU)
    for r in (np.fft.fftn(x), np.fft.ifftn(x)):
        assert not np.isscalar(r) and r.shape == () and r.dtype == onp.complex128
        assert complex(r) == 2 + 1j


def test_numpy_leaves_of_a_namedarray_pytree(tpu):
    """jax.test_util.check_grads rebuilds its arguments' pytrees with NumPy
    leaves: a NamedArray holding a NumPy array is host data to the dispatcher."""
    from jax.test_util import check_grads
    r = onp.random.default_rng(0)
    x = np.NamedArray(jnp.asarray(r.standard_normal((3, 4))), (None, "k"))
    y = np.NamedArray(jnp.asarray(r.standard_normal((4, 2))), ("k", None))
    check_grads(lambda a, b: np.einsum("i{k},{k}j->ij", a, b).data, (x, y), order=1,
                modes=("fwd", "rev"))
    leafy = jax.tree_util.tree_map(onp.asarray, x)
    assert isinstance(leafy.data, onp.ndarray)
    onp.testing.assert_allclose(onp.asarray(np.sum(leafy, axis="k")),
                                onp.asarray(x.data).sum(1))


_HOST_PROGRAM = r'''
import json, sys
import numpy
import namedarray as np
from jax._src import xla_bridge


def program(np):
    rng = numpy.random.default_rng(0)
    data = np.asarray(rng.normal(10.0, 2.0, (50, 3)))
    z = (data - data.mean(axis=0)) / data.std(axis=0, ddof=1)
    order = np.argsort(data[:, 0])
    top = data[order[-5:]].mean(axis=0)                 # an index that is a view
    F = np.eye(3) + np.diag(np.ones(2) * 0.1, 1)
    x = np.zeros(3)
    for row in data[:10]:
        x = F @ x + np.linalg.inv(F + np.eye(3)) @ row
    return [top, x, np.einsum("ij->ji", z)[0], z.astype(np.dtype("float32")),
            np.percentile(data, [5, 95], axis=0), np.arange(4, dtype=np.dtype("int16"))]


got = program(np)
want = program(numpy)
same = all(numpy.array_equal(numpy.asarray(g), w) and numpy.asarray(g).dtype == w.dtype
           for g, w in zip(got, want))
print(json.dumps({"same": same, "started": bool(xla_bridge._backends)}))
'''


def test_a_numpy_program_on_host_data_never_starts_the_accelerator():
    """With ``JAX_PLATFORMS=tpu,cpu`` (a TPU machine's setting; this machine
    has no TPU, so starting it would fail), a NumPy program whose data stays
    on the host gives NumPy's answers without starting any JAX backend: on
    an accelerator machine it neither waits for the chip (~8 s) nor holds it."""
    import json
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "NAMEDARRAY_DTYPES"}
    env["JAX_PLATFORMS"] = "tpu,cpu"
    out = subprocess.run([sys.executable, "-c", _HOST_PROGRAM], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"same": True, "started": False}


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "float32"])
def test_named_reductions_over_a_mesh_gather_where_the_backend_lacks_the_all_reduce(tpu,
                                                                                   dtype):
    """XLA's TPU backend all-reduces 64-bit types by sum only, and uint64 not
    at all (a float64 ``pmax`` raised UNIMPLEMENTED there): the reduction of
    the gathered blocks instead, the same answer; float32 keeps its
    all-reduces (min, max and sum)."""
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 CPU devices")
    mesh = jax.make_mesh((8,), ("data",), devices=jax.devices("cpu")[:8])
    h = (onp.arange(48) % 7 * 3).reshape(16, 3).astype(dtype)
    f = np.nmap(lambda r: (r - r.min(axis="batch")).max(axis="batch") + r.sum(axis="batch"),
                mesh=mesh, axis_resources={"batch": "data"})
    r = f(np.asarray(h).tag("batch", None))
    assert r.dtype == dtype
    onp.testing.assert_array_equal(onp.asarray(r), (h - h.min(0)).max(0) + h.sum(0))
    text = jax.jit(lambda d: f(np.asarray(d).tag("batch", None))).lower(
        jax.ShapeDtypeStruct(h.shape, h.dtype)).as_text()
    assert text.count("all_reduce") == {"float32": 3, "uint64": 0}.get(dtype, 1), text
    assert ("all_gather" in text) == (dtype != "float32")


def test_a_named_max_over_a_cpu_mesh_all_reduces():
    if backends._SIMULATED:     # (NAMEDARRAY_TEST_PLATFORM=simtpu)
        pytest.skip("on a simulated TPU machine every CPU mesh stands for a TPU's")
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 CPU devices")
    mesh = jax.make_mesh((8,), ("data",), devices=jax.devices("cpu")[:8])
    f = np.nmap(lambda r: r.max(axis="batch"), mesh=mesh, axis_resources={"batch": "data"})
    # lowered from the abstract value: float64 data made on a TPU machine is
    # committed to the CPU's first device, which a jitted mesh program refuses
    text = jax.jit(lambda d: f(np.asarray(d).tag("batch", None))).lower(
        jax.ShapeDtypeStruct((16, 3), "float64")).as_text()
    assert "all_reduce" in text and "all_gather" not in text


def test_the_mesh_platform_is_the_traced_meshs():
    """Collectives ask the capability table of the mesh they run over (a CPU
    mesh on a TPU machine all-reduces float64), not the default device's."""
    if backends._SIMULATED:     # (NAMEDARRAY_TEST_PLATFORM=simtpu)
        pytest.skip("on a simulated TPU machine every CPU mesh stands for a TPU's")
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 CPU devices")
    mesh = jax.make_mesh((8,), ("data",), devices=jax.devices("cpu")[:8])
    seen = []
    x = jax.device_put(jnp.arange(8.0), jax.NamedSharding(mesh, jax.P("data")))

    def trace():        # (a fresh function each time: traced again)
        def body(v):
            seen.append(backends.mesh_platform())
            return v
        jax.jit(jax.shard_map(body, mesh=mesh, in_specs=jax.P("data"),
                              out_specs=jax.P("data"))).lower(x)
    trace()
    cpu, acc = _devices()
    with backends.simulated({acc: "tpu"}, cpu):      # the stand-ins' mesh is a TPU's
        trace()
    assert seen == ["cpu", "tpu"] and backends.mesh_platform() is None


def test_a_call_the_accelerator_lacks_on_mesh_data_runs_on_the_cpu(tpu):
    """Data on a mesh stays there for what the accelerator runs; a float64 LU,
    which a TPU has no implementation of, is gathered on the CPU backend
    (NumPy's answer), never XLA's UNIMPLEMENTED on the mesh."""
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 CPU devices")
    acc, cpu = tpu
    mesh = jax.make_mesh((8,), ("data",), devices=jax.devices("cpu")[:8])
    h = onp.random.default_rng(0).standard_normal((8, 8)) + 8 * onp.eye(8)
    a = np.shard(np.asarray(h).tag("batch", None), mesh, {"batch": "data"})
    s = a * 2.0                                     # (emulated there: stays on the mesh)
    assert len(s.data.devices()) == 8
    r = np.linalg.inv(a.untag("batch"))
    assert r.data.devices() == {cpu}
    onp.testing.assert_allclose(onp.asarray(r), onp.linalg.inv(h), rtol=1e-12)


def test_single_precision_complex_with_python_scalars_lowers_no_complex128():
    """A TPU's compiler aborts the process on any conversion of complex128,
    a Python complex's constant included (``x / (0.3 - 1.7j)`` of complex64
    data, jitted): every binary ufunc on complex64 data and a Python number,
    either side, lowers without a complex128 value."""
    z = np.asarray(onp.array([1 + 2j, 3 - 1j], onp.complex64))
    bad = []
    for name in sorted(np.UFUNCS):
        u = getattr(np, name)
        if u.nin != 2:
            continue
        for s in (0.3 - 1.7j, 1.5, 2):
            for f in (lambda v: u(v, s), lambda v: u(s, v)):
                try:
                    text = jax.jit(f).lower(z).as_text()
                except TypeError:       # (not defined for complex data)
                    continue
                # (float_power computes in complex128 by NumPy's rule: the
                # dispatcher's table sends it to the CPU, test above)
                if "complex<f64>" in text and name != "float_power":
                    bad.append((name, s))
    assert not bad, bad


def _executions_on(device, into):
    """A spy on JAX's compiled calls: into ``into``, (name, jaxpr text, out
    dtypes) of each one that runs on ``device`` (its committed operands', or
    the default device's where none is committed)."""
    from jax._src import pjit
    real = pjit._pjit_call_impl_python

    def spy(*args, **kw):
        arrays = [a for a in args if hasattr(a, "devices")]
        committed = [a for a in arrays if a.committed]
        there = any(device in a.devices() for a in committed) if committed else (
            jax.config.jax_default_device is device)
        if there:
            j = kw["jaxpr"]
            into.append((kw.get("name"), str(j), [str(v.dtype) for v in j.out_avals]))
        return real(*args, **kw)
    return spy


def test_no_eager_call_computes_on_the_tpu_in_a_dtype_it_lacks(tpu, monkeypatch):
    """Every ufunc on data living on the (simulated) TPU, with Python scalars
    either side, and the statistics: nothing runs there in complex128 (a TPU's
    compiler aborts the process on it) or makes float64 there (emulated:
    NumPy's float64 promises IEEE's); such calls run on the CPU backend."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    vals = onp.array([1.5, -2.0, 3.25])

    def on_tpu(dt):
        return np.asarray(jax.device_put(vals > 0 if dt == "bool" else vals.astype(dt), acc))
    calls = [(f"{n} {dt}", lambda u=getattr(np, n), dt=dt: u(*[on_tpu(dt)] * u.nin))
             for n in sorted(np.UFUNCS) for dt in ("bool", "int32", "float16", "complex64")]
    calls += [(f"{n} {dt} {s!r} {side}", lambda n=n, dt=dt, s=s, side=side: getattr(np, n)(
                  *((on_tpu(dt), s) if side else (s, on_tpu(dt)))))
              for n in ("add", "true_divide", "floor_divide", "logical_and", "arctan2")
              for dt in ("bool", "int8", "float32", "complex64")
              for s in (True, 2, 1.5, 1 + 2j) for side in (0, 1)]
    calls += [(f"{n} {dt}", lambda n=n, dt=dt: getattr(np, n)(*(
                  [on_tpu(dt)] * (3 if n == "interp" else 1))))
              for n in ("mean", "var", "std", "cov", "corrcoef", "interp")
              for dt in ("int32", "float32", "complex64")]
    bad = []
    with onp.errstate(all="ignore"):
        for what, call in calls:
            runs.clear()
            try:
                call()
            except (TypeError, ValueError):     # (NumPy's: not for these types)
                continue
            for name, text, outs in runs:
                if "c128" in text or name != "stage" and "float64" in outs:
                    bad.append((what, name))
    assert not bad, bad


def test_parts_of_complex128_data_on_the_tpu_run_on_the_cpu(tpu, monkeypatch):
    """``.real``/``.imag`` of complex128 data a user put on the TPU (which
    has no complex128: any computation of it aborts the process there) run
    on the CPU backend, NumPy's parts."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([1 + 2j, -3.5 - 0.25j])
    x = np.asarray(jax.device_put(h, acc))
    re, im = x.real, x.imag
    assert not [n for n, text, _ in runs if "c128" in text], runs
    onp.testing.assert_array_equal(onp.asarray(re), h.real)
    onp.testing.assert_array_equal(onp.asarray(im), h.imag)


def test_methods_selections_and_draws_in_a_dtype_the_tpu_lacks_run_on_the_cpu(
        tpu, monkeypatch):
    """A ufunc method's ``dtype=`` (``copysign.reduce(x, dtype=float64)`` of
    float32 data reads float64's sign bits, which a TPU fails to compile),
    a masked selection's program on complex128 data (a TPU's compiler aborts
    on it) and an eager draw from a JAX key in float64 (NumPy's dtype; some
    float64 samplers abort a TPU's compiler) run on the CPU backend, with
    NumPy's answers; float32 draws stay on the accelerator."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([[-1.5, 0.0, 2.0], [3.0, -0.0, -4.0]], onp.float32)
    x = np.asarray(jax.device_put(h, acc))
    for name in ("copysign", "multiply", "add", "maximum"):
        got = getattr(np, name).reduce(x, axis=1, dtype="float64")
        want = getattr(onp, name).reduce(h, axis=1, dtype="float64")
        assert got.dtype == want.dtype and onp.asarray(got).tobytes() == want.tobytes(), name
    z = np.asarray(onp.array([1 + 2j, -3j, 0.5]))
    m = onp.array([True, False, True])
    assert onp.asarray(abs(z[m] * 2 + 1j)).tolist() == onp.abs(
        onp.array([1 + 2j, 0.5])[...] * 2 + 1j).tolist()
    key = jax.device_put(jax.random.key(7), acc)
    g = np.random.default_rng(key)
    draws = {"normal": g.normal(size=3), "gamma": g.gamma(2.0, size=3),
             "named": g.normal(size={"b": 2}), "integers": g.integers(0, 9, size=4)}
    for what, d in draws.items():
        assert d.data.devices() == {cpu}, what
    assert np.random.default_rng(key).random(3, dtype=onp.float32).data.devices() == {acc}
    bad = [(n, o) for n, text, o in runs
           if "c128" in text or n != "stage" and ("float64" in o or "int64" in o)]
    assert not bad, bad


_INDEXINGS = [
    ("a[[1, 4]]", "h[[1, 4]]"), ("a[np.asarray([1, 4])]", "h[[1, 4]]"),
    ("a[onp.array([1, 4])]", "h[[1, 4]]"), ("a.reshape(4, 4)[[0, 1], [2, 3]]",
                                            "h.reshape(4, 4)[[0, 1], [2, 3]]"),
    ("a.reshape(4, 4)[np.asarray([0, 1]), 1:]", "h.reshape(4, 4)[[0, 1], 1:]"),
    ("a.tag('t')[{'t': np.asarray([1, 2])}].untag('t')", "h[[1, 2]]"),
    ("a.tag('t')[{'t': [1, 2]}].untag('t')", "h[[1, 2]]"),
    ("a.reshape(4, 4).tag('r', 'c')[{'r': np.asarray([1, 2]).tag('k')}].untag('k', 'c')",
     "h.reshape(4, 4)[[1, 2]]"),
    ("a.at[np.asarray([1, 2])].set(5.0)", "_written(h, [1, 2], 5.0)"),
    ("a.tag('t').at[{'t': np.asarray([1, 2])}].set(onp.float64(3.5)).untag('t')",
     "_written(h, [1, 2], 3.5)"),
    ("_written(a, [1, 4], onp.array([1.5, 2.5]))", "_written(h, [1, 4], onp.array([1.5, 2.5]))"),
    ("_written(a, np.asarray([1, 4]), onp.float64(7))", "_written(h, [1, 4], 7)"),
    ("_written(a.tag('t'), {'t': np.asarray([1, 2])}, onp.float64(7)).untag('t')",
     "_written(h, [1, 2], 7)"),
]


def _written(x, i, v):
    """A copy of ``x`` (NumPy's array or a NamedArray) with ``x[i] = v``."""
    x = x.copy()
    x[i] = v
    return x


@pytest.mark.parametrize("dt", ["float32", "int32", "float64"])
def test_indices_made_at_their_home_meet_data_on_the_accelerator(tpu, dt):
    """An index array made from NumPy's int64 data (a list, NumPy's array, a
    NamedArray of it), or a value of float64, lives on the CPU device of a
    TPU machine (int64's home), and JAX refuses to compute across devices:
    every spelling of a gather or a write moves it to the device of the data
    it indexes (integers are the same there), whose result stays there;
    NumPy's values.  (``a[[1, 4]]`` of data on the TPU raised JAX's
    "incompatible devices" error.)"""
    acc, cpu = tpu
    h = onp.arange(16).astype(dt)
    a = np.asarray(jax.device_put(h, acc) if dt != "float64" else h)
    home = a.data.devices()
    for mine, numpys in _INDEXINGS:
        got = eval(mine)
        want = eval(numpys)
        assert got.data.devices() == home, mine
        assert onp.asarray(got).tolist() == want.astype(dt).tolist(), mine


_WRITERS = {
    "put": lambda m, a, v: m.put(a, [0, 3], v),
    "place": lambda m, a, v: m.place(a, a > 1, v),
    "putmask": lambda m, a, v: m.putmask(a, a > 1, v),
    "copyto": lambda m, a, v: m.copyto(a, v, where=a > 1, casting="unsafe"),
    "fill_diagonal": lambda m, a, v: m.fill_diagonal(a.reshape(2, 2), v),
    "put_along_axis": lambda m, a, v: m.put_along_axis(
        a, m.asarray(onp.array([1, 2])), v, 0),
    "add.at": lambda m, a, v: m.add.at(a, [0, 0, 2], v),
    "x[mask] = v": lambda m, a, v: a.__setitem__(a > 1, v),
}


@pytest.mark.parametrize("writer", list(_WRITERS))
@pytest.mark.parametrize("dt", ["float16", "float32", "int32", "float64", "complex128"])
def test_functions_writing_in_place_on_the_cpu_backend_write_the_callers_array(
        tpu, writer, dt):
    """A function that writes into its argument (``put``, ``place``,
    ``copyto``, ...) and computes in a dtype the TPU lacks (a float64 value
    into float16 data) runs on the CPU backend on a copy of the caller's
    array: what it writes there reaches the caller's array, which stays on its
    device; NumPy's values.  (The writes into the copy were lost: a silent
    no-op on a TPU machine.)"""
    acc, cpu = tpu
    values = [onp.array(2.5), onp.array([2.5, -1.25]), 7, onp.array(1.5 - 2j)]
    for v in values if dt == "complex128" else values[:3]:
        h = onp.arange(4).astype(dt)
        # (a copy: a CPU device may share a NumPy array's buffer)
        a = np.asarray(jax.device_put(h.copy(), acc) if dt in ("float16", "float32", "int32")
                       else h.copy())
        where = a.data.devices()
        with onp.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                _WRITERS[writer](onp, h, v)
            except (TypeError, ValueError) as e:     # (NumPy refuses: so must we)
                with pytest.raises(type(e)):
                    _WRITERS[writer](np, a, v)
                continue
            _WRITERS[writer](np, a, v)
        assert a.data.devices() == where, (writer, v)
        assert onp.asarray(a).tolist() == h.tolist(), (writer, v)


#: (namedarray's write into ``k`` or ``n`` (``k`` with named rows), NumPy's
#: into ``h``; both run with ``m`` the module)
_WRITES_INTO_DEVICE_DATA = [
    ("k[0] = 1", None), ("k[1] = onp.float64(2.0)", None), ("k[1:3] = m.ones(3)", None),
    ("k[:, 0] = [1, 2, 3, 4]", None), ("k[[0, 2], 1] = onp.array([5, 6])", None),
    ("k[onp.array([True, False, False, True])] = k[:2]", None),
    ("k[k > 4] = 7", None), ("k[k > 4] = k[k > 4] * 2", None),
    ("n[{'a': 1}] = 5", "h[1] = 5"),
    ("n[{'a': onp.array([0, 3])}] = onp.float64(4.0)", "h[onp.array([0, 3])] = 4.0"),
    ("m.put(k, [0, 1], [9, 8])", None), ("m.place(k, k > 5, [5])", None),
    ("m.copyto(k, 2)", None), ("m.put_along_axis(k, onp.array([[0], [1], [0], [1]]), 3, 1)",
                               None),
    ("k += 1", None), ("k += onp.ones(3, dtype=k.dtype)", None)]


@pytest.mark.parametrize("dt", ["float64", "float32", "int64"])
def test_writes_into_data_the_user_put_on_the_accelerator(tpu, dt):
    """Every spelling of a write into data a user put on the TPU, of values
    NumPy makes (NumPy's float64 lives on the CPU device of such a machine),
    gives NumPy's values, and the data stays on the TPU.  (``k[0] = 1.0``
    into float64 data on the TPU raised "could not broadcast input array from
    shape () into shape (3,)", JAX's "incompatible devices" error read as a
    shape error; a write by name raised that error itself.)"""
    acc, cpu = tpu
    h = onp.arange(12).reshape(4, 3).astype(dt)
    for mine, numpys in _WRITES_INTO_DEVICE_DATA:
        want = {"k": h.copy(), "m": onp, "onp": onp}
        want["h"] = want["k"]
        exec(numpys or mine, {}, want)
        k = np.asarray(jax.device_put(h, acc))
        n = np.asarray(jax.device_put(h, acc)).tag("a", None)
        exec(mine, {}, {"k": k, "n": n, "m": np, "onp": onp})
        got = n.untag("a") if mine[0] == "n" else k
        assert onp.asarray(got).tolist() == want["k"].tolist(), mine
        assert got.data.devices() == {acc}, mine


def test_views_of_cpu_device_data_are_made_on_the_cpu(tpu, monkeypatch):
    """JAX runs an eager operation on uncommitted data on the default device:
    a column read of float64 data JAX holds uncommitted on the CPU device
    (made under ``jax.default_device`` of the CPU) went through the TPU, which
    keeps float64 as two float32 values, so ``errors[:, i] == errors.min(0)[i]``
    was False everywhere there (a loop's ``flatnonzero`` came back empty).
    A view's data is made where its base's lies, nothing runs on the TPU,
    and the loop's answers are NumPy's."""
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(jax._src.pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([[1.0411185583304645, 0.1, -2.2], [3.3, -0.7, 0.1]])
    with jax.default_device(cpu):
        a = np.asarray(jnp.asarray(h))
    views = [a[:, 1], a[1], a.T, a.reshape(3, 2), a[::-1, 1:], a.real]
    for v, want in zip(views, [h[:, 1], h[1], h.T, h.reshape(3, 2), h[::-1, 1:], h.real]):
        assert _on(v, cpu), want
        assert onp.asarray(v.data).tobytes() == want.tobytes()
    mins = np.min(a, axis=0)
    for i, m in enumerate(mins):
        assert np.flatnonzero(a[:, i] == m).tolist() == onp.flatnonzero(
            h[:, i] == h.min(0)[i]).tolist()
    assert not runs, runs


@pytest.mark.parametrize("dt", ["float32", "float16"])
def test_float_remainders_run_on_the_cpu_where_the_tpu_is_inexact(tpu, monkeypatch, dt):
    """A TPU's float remainder is ``x - trunc(x / y) * y`` in the data's
    precision: float32 ``fmod(1, 7.018846e-07)`` was 4.7683716e-07 there, NumPy's
    exact remainder 4.820706e-07.  Under NumPy's dtype defaults every float
    remainder and floor of a quotient of data on the TPU (the functions, the
    operators, the ufunc methods) runs on the CPU backend, its result back
    on the TPU; under ``jax.jit`` it compiles for the TPU (the table's
    "emulated")."""
    from jax._src import pjit
    acc, cpu = tpu
    assert backends.status("tpu", "remainder", dt) == backends.EMULATED
    h = onp.array([1.0, 5.5, -3.0, 0.25], dt)
    d = onp.array([7.018846e-07, 2.0, 0.7, -0.1], dt)
    x, y = np.asarray(jax.device_put(h, acc)), np.asarray(jax.device_put(d, acc))
    calls = {
        "fmod": (lambda: np.fmod(x, y), lambda: onp.fmod(h, d)),
        "remainder": (lambda: np.remainder(x, y), lambda: onp.remainder(h, d)),
        "%": (lambda: x % y, lambda: h % d),
        "//": (lambda: x // y, lambda: h // d),
        "divmod": (lambda: divmod(x, y), lambda: divmod(h, d)),
        "% 0.7": (lambda: x % 0.7, lambda: h % onp.asarray(0.7, dt)),
        "fmod.reduce": (lambda: np.fmod.reduce(x), lambda: onp.fmod.reduce(h)),
        "remainder.accumulate": (lambda: np.remainder.accumulate(x),
                                 lambda: onp.remainder.accumulate(h)),
        "fmod.reduceat": (lambda: np.fmod.reduceat(x, [0, 2]),
                          lambda: onp.fmod.reduceat(h, [0, 2])),
        "floor_divide.outer": (lambda: np.floor_divide.outer(x, y),
                               lambda: onp.floor_divide.outer(h, d)),
    }
    for what, (ours, numpys) in calls.items():
        runs = []
        monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
        got = ours()
        with onp.errstate(all="ignore"):
            want = numpys()
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert _on(g, acc), what
            assert onp.asarray(g).tobytes() == onp.asarray(w).tobytes(), what
        computed = [n for n, text, o in runs if " rem " in f" {text} " or "rem(" in text
                    or "scan" in str(n) or "accumulate" in str(n)]
        assert not computed, (what, computed)
    text = jax.jit(lambda a, b: np.fmod(a, b)).lower(x, y).as_text()
    assert "stablehlo.remainder" in text


#: functions whose float64 steps on integer data are exact (index masks)
_EXACT_FLOAT_STEPS = {"tril_indices_from", "triu_indices_from"}


@pytest.mark.parametrize("dt", ["int32", "bool"])
def test_no_function_computes_numpys_float64_of_integers_on_the_tpu(tpu, monkeypatch, dt):
    """Every function of the namespace whose NumPy result for integer (bool)
    data is float64 or complex128 computes it, NumPy's values, on the CPU backend when the
    data lies on the TPU (its ``computes`` declaration, or its ufunc's loop):
    the TPU's float64 is an emulation (``histogram_bin_edges``, ``angle``,
    ``i0``, ``sinc`` and ``unwrap`` computed there; of two arguments,
    ``polydiv``).  Each function is called with one array, two, a row and
    a row, an array and a Python int."""
    import warnings
    acc, cpu = tpu
    h = onp.array([[1, 2, 3, 4], [0, 5, 2, 1]], dt)
    r = h[0] + (dt == "int32")      # (a row without zeros: a divisor)
    bad = []
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for name in sorted(set(dir(np)) & set(dir(onp)) - _EXACT_FLOAT_STEPS):
            f, g = getattr(np, name), getattr(onp, name)
            if name.startswith("_") or isinstance(g, type) or not callable(g):
                continue
            for args in ((h,), (h, h), (r, r), (h, r), (h, 2)):
                try:        # (fresh data: a function may write into its arguments)
                    want = g(*[a.copy() if isinstance(a, onp.ndarray) else a for a in args])
                except Exception:       # noqa: BLE001 -- (needs other arguments)
                    continue
                if not isinstance(want, onp.ndarray) or want.dtype not in (
                        onp.float64, onp.complex128):
                    continue
                runs = []
                monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
                try:
                    got = onp.asarray(f(*[np.asarray(jax.device_put(a, acc))
                                          if isinstance(a, onp.ndarray) else a for a in args]))
                except Exception:       # noqa: BLE001 -- (checked elsewhere)
                    continue
                wide = [n for n, text, o in runs if "f64" in text or "c128" in text]
                if wide:
                    bad.append((name, len(args), wide[:3]))
                elif got.dtype != want.dtype or got.shape != want.shape or not onp.allclose(
                        got, want, rtol=1e-12, atol=0, equal_nan=True):
                    bad.append((name, len(args), got, want))
    assert not bad, bad


def test_float64_selections_and_their_programs_stay_on_the_cpu(tpu, monkeypatch):
    """A TPU holds float64 as a pair of float32 values: a NumPy float64 array
    put there and read back has lost its last bits (``x[m]`` of 1.0411185583304645
    read 1.0411185583304636 on a TPU v5e).  A masked selection of NumPy's
    float64 data, the deferred program over it and that program's Python
    scalars are made and computed on the CPU backend, with NumPy's bits."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([1.0411185583304645, -2.2, 0.1, 3.3, 7.0])
    m = onp.array([True, False, True, True, False])
    s = np.asarray(h)[m]
    assert _on(s, cpu)
    onp.testing.assert_array_equal(s, h[m])
    t = np.sin(np.asarray(h)[m]) * 1.1 + 0.3        # (a compiled deferred program)
    assert _on(t, cpu)
    assert onp.asarray(t).tobytes() == (onp.sin(h[m]) * 1.1 + 0.3).tobytes()
    u, inv = np.unique(np.asarray(h), return_inverse=True)
    assert _on(u, cpu)
    bad = [(n, o) for n, text, o in runs if "f64" in text or "float64" in o]
    assert not bad, bad


def _loaded_from_an_archive(h):
    import io
    f = io.BytesIO()
    np.savez(f, w=np.asarray(h).tag("b"))
    f.seek(0)
    with np.load(f) as archive:
        w = archive["w"]
    assert w.dims == ("b",)
    return w.untag("b")


def _assigned_by_a_mask(h):
    x = np.asarray(onp.tile(h, N // len(h)))      # (compiled: above the host tier's size)
    x[x > 0] = np.sin(x[x > 0]) * 0.1 + 0.3      # (a program with two Python floats)
    return x


def _on_the_tpu(h):
    return np.asarray(jax.device_put(h, jax.devices()[0] if jax.config.jax_default_device
                                     is None else jax.config.jax_default_device))


def _read_inside_jit(h):
    x = np.sin(np.asarray(h))       # (a host result: its device array made when read)
    # (a jit of data at its CPU home compiles for the CPU)
    return jax.jit(lambda a: a + x.data)(np.asarray(h).data)


#: calls in which namedarray itself makes device data of NumPy's float64 (an
#: archive's array, a program's Python scalars, a host result read inside a
#: trace) or computes it from integers
_MAKERS = {
    "an archive's array": _loaded_from_an_archive,
    "x[x > 0] = 0.1": _assigned_by_a_mask,
    "host data read inside jax.jit": _read_inside_jit,
    "polydiv of integers": lambda h: np.polydiv(_on_the_tpu(onp.arange(1, 9, dtype=onp.int32)),
                                                _on_the_tpu(onp.array([1, 3], onp.int32)))[1],
    "poly of integers": lambda h: np.poly(_on_the_tpu(onp.array([1, 2, 3], onp.int32))),
    "polyint": lambda h: np.polyint(_on_the_tpu(onp.array([1, 2, 3], onp.float32))),
}


def _numpys_masked_assignment(h):
    x = onp.tile(h, N // len(h))
    x[x > 0] = onp.sin(x[x > 0]) * 0.1 + 0.3
    return x


#: NumPy's answers to the same calls
_NUMPYS = {
    "an archive's array": lambda h: h,
    "x[x > 0] = 0.1": _numpys_masked_assignment,
    "host data read inside jax.jit": lambda h: h + onp.sin(h),
    "polydiv of integers": lambda h: onp.polydiv(onp.arange(1, 9, dtype=onp.int32),
                                                 onp.array([1, 3], onp.int32))[1],
    "poly of integers": lambda h: onp.poly(onp.array([1, 2, 3], onp.int32)),
    "polyint": lambda h: onp.polyint(onp.array([1, 2, 3], onp.float32)),
}


@pytest.mark.parametrize("case", list(_MAKERS))
def test_numpys_float64_data_never_goes_to_the_tpu(tpu, monkeypatch, case):
    """A TPU holds float64 as a pair of float32 values: NumPy's float64 data
    sent there has lost its last bits, its zeros' signs and float64's range
    (an archive's float64 array read back 1 ulp off on a TPU v5e), and
    float64 computed there is an emulation.  What namedarray makes of
    NumPy's float64 goes to its home, the CPU device (uncommitted inside a
    trace, free to move where the trace compiles), and computes there: the
    polynomial functions declare that they compute in float64 (NumPy adds
    0.0 to integer coefficients; polyint's constants are float64)."""
    from jax._src.interpreters import pxla
    acc, cpu = tpu
    real, sent, runs = pxla.batched_device_put, [], []

    def put(aval, sharding, xs, devices, *args, **kw):
        if acc in devices and aval.dtype == onp.float64 and aval.shape:
            sent.append(aval)
        return real(aval, sharding, xs, devices, *args, **kw)
    monkeypatch.setattr(pxla, "batched_device_put", put)
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([1.0411185583304645, -2.2, 0.1, 3.3, 7.0])
    r = _MAKERS[case](h)
    assert not [(n, o) for n, text, o in runs if "f64" in text], runs
    want = _NUMPYS[case](h)
    assert r.dtype == want.dtype == onp.float64 and r.shape == want.shape
    onp.testing.assert_allclose(onp.asarray(r), want, rtol=1e-15, atol=0)
    if case in _BACK:       # (a result goes back where the user's data was)
        assert _on(r, acc)
    else:
        assert not sent, sent


#: calls on a user's data on the TPU (committed there), whose float64 result
#: computed on the CPU goes back there (docs/design.md §7b)
_BACK = {"polydiv of integers", "poly of integers", "polyint"}


@pytest.mark.parametrize("expr", [
    "np.concatenate([np.asarray(a), np.linspace(0.0, 1.0, 2)])",
    "np.linspace(a[0], a[1], 7)", "np.linspace(0.0, a, 5, endpoint=False)"])
def test_float64_compiles_for_a_tpu_without_its_bits_linspace(tpu, expr):
    """``linspace`` keeps XLA from fusing its product and sum by passing the
    samples' bits through an integer operation; a TPU's float64 has no bits
    to pass (a pair of float32s: its compiler failed on that ``xor`` under
    ``jax.jit``), so there the samples go on as they are; NumPy's values."""
    a = onp.array([0.25, 3.0])
    fn = eval(f"lambda a: {expr}")
    text = jax.jit(fn).lower(a).as_text()
    assert "bitcast_convert" not in text and "xor" not in text, text
    want = eval(expr, {"np": onp, "a": a})
    onp.testing.assert_allclose(onp.asarray(jax.jit(fn)(a)), want, rtol=1e-15)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "divmod"])
def test_float64_zeros_signs_compile_for_a_tpu_without_its_bits(tpu, name):
    """Under ``jax.jit`` on a TPU machine, float64 ``floor_divide``,
    ``remainder`` and ``divmod`` give their zeros NumPy's signs by
    comparisons, not by the sign bit (``signbit``/``copysign`` of float64 do
    not compile there: the table's ``float_bits``); NumPy's values."""
    acc, cpu = tpu
    h = onp.array([-0.0, 0.0, 3.0, -3.0, onp.inf, -onp.inf, 0.5, -7.5])
    d = onp.array([2.0, -2.0, onp.inf, -onp.inf, 2.0, -2.0, -0.25, 2.5])
    f = getattr(np, name)
    args = (h, d)
    text = jax.jit(lambda *a: f(*a)).lower(*args).as_text()
    assert "bitcast_convert" not in text, text
    got = jax.jit(lambda *a: f(*a))(*[np.asarray(a) for a in args])
    with onp.errstate(all="ignore"):
        want = getattr(onp, name)(*args)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        g = onp.asarray(g)
        if name == "floor_divide":      # (infinities: floor(x / y), docs/differences.md)
            w = onp.where(onp.isinf(h) | onp.isinf(d), onp.floor(h / d), w)
        onp.testing.assert_array_equal(g, w)
        assert (onp.signbit(g) == onp.signbit(w)).all(), (g, w)


def test_histogram_densities_of_data_on_the_tpu_are_numpys_float64(tpu, monkeypatch):
    """``histogram``'s densities (and ``histogramdd``'s counts) are float64
    whatever the data (``Computes``, declared with the function): of float16
    data on the TPU they are computed on the CPU backend, NumPy's bit for bit
    (a TPU only emulates float64), and sent back; counts alone run there."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.random.default_rng(1).normal(size=40).astype(onp.float16)
    w = onp.random.default_rng(2).normal(size=40).astype(onp.float16)
    x, xw = (np.asarray(jax.device_put(v, acc)) for v in (h, w))
    got, edges = np.histogram(x, bins=5, weights=xw, density=True)
    dd, _ = np.histogramdd(np.stack([x, x], axis=1), bins=3)
    assert not [n for n, _, outs in runs if "float64" in outs], runs
    want, want_edges = onp.histogram(h, bins=5, weights=w, density=True)
    assert got.dtype == onp.float64 and _on(got, acc) and _on(edges, acc)
    onp.testing.assert_array_equal(onp.asarray(got), want)
    onp.testing.assert_array_equal(onp.asarray(edges), want_edges)
    runs.clear()
    np.histogram(x, bins=5)
    assert runs, "counts alone run on the TPU"
    assert np.histogram.computes.floats and np.mean.computes.floats is True
    assert np.cov.computes.floats == "double" and np.sort_complex.computes.floats == "complex"


def test_a_python_float_enters_a_narrower_float_loop_as_its_dtype(tpu, monkeypatch):
    """A Python float beside float32, float16 or bfloat16 data is cast to the
    loop's dtype at once (NumPy's cast), eager and under ``jax.jit``: nothing
    computes in float64 (as a jitted argument it was float64, and the sign of
    a floor quotient's zero, ``copysign``, ``heaviside`` took its bits there,
    which a TPU's compiler fails on: "shift-right-arithmetic with different
    element types: s32 and u32"); float32's answers are NumPy's."""
    from jax._src import pjit
    acc, cpu = tpu
    runs = []
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", _executions_on(acc, runs))
    h = onp.array([1.5, -2.0, 3.25, -0.0])
    bad = []
    with onp.errstate(all="ignore"):
        for n in sorted(np.UFUNCS):
            u = getattr(np, n)
            if u.nin != 2:
                continue
            for dt in ("float32", "float16", "bfloat16"):
                x = np.asarray(jax.device_put(h.astype(dt), acc))
                for s in (1.5, -0.0):
                    for args in ((x, s), (s, x)):
                        runs.clear()
                        try:
                            got = u(*args)
                            text = jax.jit(lambda v, args=args: u(
                                *[v if a is x else a for a in args])).lower(x).as_text()
                        except (TypeError, ValueError):     # (NumPy's: not these types)
                            continue
                        if any(onp.dtype(g.dtype) == onp.float64 for g in (
                                got if isinstance(got, tuple) else (got,))):
                            continue    # (a float64 loop: float_power's)
                        if any("f64" in t for _, t, _ in runs) or "f64" in text:
                            bad.append((n, dt, "scalar first" if args[1] is x else "second"))
                        want = getattr(onp, n)(*[h.astype(onp.float32) if a is x else
                                                 onp.float32(a) for a in args])
                        if dt == "float32":
                            for g, w in zip(got if isinstance(got, tuple) else (got,),
                                            want if isinstance(want, tuple) else (want,)):
                                onp.testing.assert_allclose(onp.asarray(g), w, rtol=1e-6,
                                                            err_msg=n)
    assert not bad, bad


def test_the_fuzz_on_a_simulated_tpu_machine():
    """The API-wide fuzz's CI slice (every public function; Python scalars,
    masked arrays and objects as operands) and the value-rule tables as a
    user meets them (every writer of every value into every dtype: a TPU's
    compiler aborted on one, and writes into float16 were lost) on a TPU machine as the dispatcher
    sees it (``NAMEDARRAY_TEST_PLATFORM=simtpu``, in a process of its own):
    NumPy's answers, and nothing computed on the stand-in TPU in complex128,
    which a TPU's compiler aborts the process on, or on float64's bits, which
    it fails to compile (the root conftest fails the test that does either)."""
    if os.environ.get("NAMEDARRAY_TEST_PLATFORM", "cpu") != "cpu":
        pytest.skip("runs from the CPU suite")
    env = {**os.environ, "NAMEDARRAY_TEST_PLATFORM": "simtpu", "HYPOTHESIS_PROFILE": "ci"}
    env.pop("XLA_FLAGS", None)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         "tests/frontend/test_fuzz_numpy.py", "tests/frontend/test_fuzz_operands.py",
         "tests/frontend/test_value_rules.py::test_table_as_a_user_meets_it"],
        cwd=root, env=env, capture_output=True, text=True, timeout=1500)
    assert out.returncode == 0, out.stdout[-4000:]


@pytest.mark.parametrize("types", ["Auto", "Explicit"])
def test_numpys_float64_meeting_data_on_a_cpu_mesh_joins_it(tpu, types):
    """A value made of NumPy's float64 inside a call (a Python float written,
    NumPy's array added), which a one-accelerator machine commits to the CPU
    device, meeting data a user sharded over CPU devices joins that mesh as
    JAX's own uncommitted array does (JAX refused the two: "Received
    incompatible devices", seen on a TPU in ``put_along_axis``)."""
    acc, cpu = tpu
    devices = [cpu] + [d for d in jax.devices("cpu") if d not in (acc, cpu)][:3]
    mesh = jax.sharding.Mesh(onp.array(devices), ("d",),
                             axis_types=(getattr(jax.sharding.AxisType, types),))
    h = onp.arange(16.0).reshape(4, 4) - 5.5
    x = np.shard(np.asarray(h).tag("b", "e"), mesh, {"b": "d"})
    p = x.untag("b", "e")       # (positional, still sharded)
    order = (onp.argsort(h, axis=1) + 1) % 4

    def written(base, f, g):
        def run():
            y, w = base * 1, h.copy()
            f(y), g(w)
            return y, w
        return run
    cases = {
        "put_along_axis by name": written(
            x, lambda y: np.put_along_axis(y, (np.argsort(x, axis="e") + 1) % 4, -1.0,
                                           axis="e"),
            lambda w: onp.put_along_axis(w, order, -1.0, axis=1)),
        "setitem by name": written(x, lambda y: y.__setitem__({"b": 0}, 2.5),
                                   lambda w: w.__setitem__(0, 2.5)),
        "setitem of a row": written(x, lambda y: y.__setitem__({"b": 1}, np.arange(4.0).tag("e")),
                                    lambda w: w.__setitem__(1, onp.arange(4.0))),
        "add NumPy's row": lambda: (p + onp.linspace(0.0, 1.0, 4), h + onp.linspace(0.0, 1.0, 4)),
        "where": lambda: (np.where(p > 0, p, onp.float64(0.5)), onp.where(h > 0, h, 0.5)),
    }
    if types == "Auto":     # (JAX asks positional scatters on Explicit meshes for an out_sharding)
        cases["put_along_axis"] = written(p, lambda y: np.put_along_axis(y, order, -1.0, axis=1),
                                          lambda w: onp.put_along_axis(w, order, -1.0, axis=1))
        cases["place"] = written(p, lambda y: np.place(y, y > 3, [7.0, 8.0]),
                                 lambda w: onp.place(w, w > 3, [7.0, 8.0]))
    for what, run in cases.items():
        got, want = run()
        assert got.data.devices() == set(devices), what     # (computed on the mesh)
        got = got.untag("b", "e") if got.names else got
        onp.testing.assert_array_equal(onp.asarray(got), want, err_msg=what)


def test_numpys_float64_made_inside_a_cpu_mesh_context_joins_the_mesh(tpu, monkeypatch):
    """Inside ``jax.set_mesh`` of the CPU's devices (a one-accelerator
    machine's mesh), whose computations run on that mesh, NumPy's float64
    becomes what JAX makes of it there: uncommitted on the CPU, free to join
    the mesh (committed to one device, JAX refused it beside the context
    mesh: "Received incompatible devices", seen on a TPU).  Outside, it is
    committed to the CPU device as before.  (A simulated machine's meshes
    are all of CPU devices, so the context mesh's platform is set.)"""
    acc, cpu = tpu
    devices = [cpu] + [d for d in jax.devices("cpu") if d not in (acc, cpu)][:3]
    mesh = jax.sharding.Mesh(onp.array(devices), ("d",))
    context = backends.mesh_platform
    monkeypatch.setattr(backends, "mesh_platform",
                        lambda mesh=None: "cpu" if mesh is None and context() else context(mesh))
    h = onp.array([[0.1, -2.5, 3.0, 1e300]] * 2)
    assert np.asarray(h).data.committed
    z = np.shard(np.asarray(h), mesh, {})       # (replicated over the mesh)
    with jax.set_mesh(mesh):
        x = np.asarray(h)
        assert not x.data.committed and x.data.devices() == {cpu}
        y = x * 3 - np.asarray(h.T).T
        # an eager call there runs on the mesh, by JAX's rules (gathering its
        # operands onto the CPU device, JAX refused them beside the mesh)
        w = np.cumsum(z * 3 - np.asarray(h), axis=1)
    onp.testing.assert_array_equal(onp.asarray(y), h * 3 - h)
    onp.testing.assert_array_equal(onp.asarray(w), onp.cumsum(h * 3 - h, axis=1))

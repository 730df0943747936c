"""Shared test support over ``namedarray.testing``: Hypothesis strategies
(shapes, 0-size and 0-d included, dtypes, names; values from
``namedarray.testing.strategies.elements``) and the NumPy-oracle assertions
(assert_same, assert_same_named), which compare with
``namedarray.testing.assert_allclose`` / ``assert_array_equal``; and the
placements of names (docs/design.md §2b) that the location-transparency tests run
every named function under, and the meshes they take.

Platforms. The root ``conftest.py`` reads ``NAMEDARRAY_TEST_PLATFORM`` before
JAX starts:

- ``cpu`` (the default; CI): the CPU backend with 8 simulated devices
  (``JAX_PLATFORMS=cpu`` unless set already);
- ``tpu``, ``gpu``: ``JAX_PLATFORMS=<platform>,cpu``: the accelerator is the
  default backend, and the CPU backend beside it has 8 simulated devices;
- ``cpu1``: one CPU device, what the default backend of a one-accelerator
  machine has; checks locally that the suite collects, and which tests skip.

Meshes are built when a test asks (:func:`make_mesh`, :func:`mesh8`, ...,
never at import) over :func:`mesh_devices`: 8 devices of the default backend
where it has them, else the CPU backend's (as a user of a one-accelerator
machine would run a mesh program), else the test skips with "needs 8 devices
of one platform". A test of what JAX places on the default backend calls
:func:`needs_devices`. A test pinned to the CPU backend (the host tier's
choices, XLA CPU's exact bits) carries ``@pytest.mark.cpu_only("why")`` and
skips, with that reason, where the default backend is an accelerator.

On an accelerator run the suite in one process that outlives crashes and
hangs: ``NAMEDARRAY_TEST_PLATFORM=tpu python tools/run_tests_on_accelerator.py
--log tpu.jsonl -- tests`` (one JSON line per test; counts per file at the
end)."""
from __future__ import annotations

import contextlib
import functools
import math
import os

import jax
import numpy as onp
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray import testing as nt
from namedarray.testing import strategies as nst

ALL_DTYPES = [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8,
              onp.float16, onp.float32, onp.float64, onp.complex64, onp.complex128]
NUMERIC = [d for d in ALL_DTYPES if d is not onp.bool_]
FLOATS = [onp.float32, onp.float64]
NAMES = ["a", "b", "c", "batch"]


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def arrays(dtype, shape, small=True):
    """NumPy arrays of ``dtype`` with small finite values (no overflow noise; no
    subnormals, which XLA on CPU flushes), or the whole range (``small=False``)."""
    return hnp.arrays(onp.dtype(dtype), shape, elements=nst.elements(dtype, small))


@st.composite
def named_arrays(draw, dtypes=FLOATS, min_dims=1, max_dims=3, min_side=1, max_side=4):
    """(numpy array, dims) with at least one named dim; physical order arbitrary."""
    shape = draw(shapes(min_dims, max_dims, min_side, max_side))
    dt = draw(st.sampled_from(dtypes))
    data = draw(arrays(dt, shape))
    k = draw(st.integers(1, len(shape)))
    names = draw(st.permutations(NAMES))[:k]
    slots = draw(st.permutations(range(len(shape))))[:k]
    dims = [None] * len(shape)
    for s, n in zip(slots, names):
        dims[s] = n
    return data, tuple(dims)


def assert_same(res, exp, close=False):
    """``res`` equals NumPy's ``exp``: dtype, shape and values (tuples and lists
    element by element; ``close``: floats to a dtype-sized tolerance)."""
    if isinstance(exp, (tuple, list)):
        assert isinstance(res, (tuple, list)) and len(res) == len(exp), (type(res), res)
        assert isinstance(res, list) == isinstance(exp, list), (type(res), type(exp))
        for r, e in zip(res, exp):
            assert_same(r, e, close)
        return
    exp = onp.asarray(exp)
    got = onp.asarray(res)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    if close and exp.dtype.kind in "fc":
        wide = exp.dtype.itemsize > 2
        nt.assert_allclose(got, exp, rtol=1e-6 if wide else 1e-2,
                           atol=1e-12 if wide else 1e-2)
    else:
        nt.assert_array_equal(got, exp)


def assert_same_named(a, b, tol=1e-10):
    """Two NamedArrays hold the same names and sizes, the same dtype and positional
    shape, and, aligned by name, the same values (``namedarray.testing``)."""
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    nt.assert_allclose(a, b, rtol=tol, atol=tol)


# -- devices and meshes --------------------------------------------------------
def _cpu_devices() -> list:
    try:
        return jax.devices("cpu")
    except RuntimeError:            # JAX_PLATFORMS without the CPU backend
        return []


def mesh_devices(n: int) -> list:
    """``n`` devices of one platform for a mesh: the default backend's when it
    has ``n``, else the CPU backend's (its simulated devices beside an
    accelerator, as a user of a one-accelerator machine would take them); the
    calling test skips where neither has ``n``."""
    for devices in (jax.devices(), _cpu_devices()):
        if len(devices) >= n:
            return devices[:n]
    here = f"{jax.device_count()} {jax.default_backend()}"
    if jax.default_backend() != "cpu":
        here += f" and {len(_cpu_devices())} cpu"
    pytest.skip(f"needs {n} devices of one platform; {here} devices here (the CPU's "
                "come from XLA_FLAGS=--xla_force_host_platform_device_count=8)")


def needs_devices(n: int) -> None:
    """Skip the calling test unless the *default* backend has ``n`` devices
    (a test of what JAX places by default, which CPU devices beside an
    accelerator cannot stand in for)."""
    if jax.device_count() < n:
        pytest.skip(f"needs {n} devices of one platform (the default one); "
                    f"{jax.device_count()} {jax.default_backend()} devices here")


def traced_lacks(family: str, dtype) -> bool:
    """Whether the default backend has no implementation of ``family`` (the
    capability table's, ``namedarray/core/backends.py``) on ``dtype``: a
    traced call of it raises namedarray's clear TypeError there (an eager
    one runs on the CPU backend)."""
    from namedarray.core import backends
    return not backends.cpu_only() and backends.status(
        backends.accelerator(), family, dtype) == backends.ABSENT


def emulates(dtype, family="any") -> bool:
    """Whether the default backend only emulates ``family`` on ``dtype``
    (float64 on a TPU: a jitted computation there is off by up to hundreds of
    units in the last place; its float32 remainder is inexact;
    docs/differences.md)."""
    from namedarray.core import backends
    return not backends.cpu_only() and backends.status(
        backends.accelerator(), family, dtype) == backends.EMULATED


def subprocess_env(**env) -> dict:
    """The environment for a test's Python subprocess that runs JAX: this
    process's, with JAX on the CPU where this process holds an accelerator
    (one process opens a TPU; a GPU's memory is this one's), and ``env``."""
    out = dict(os.environ)
    if jax.default_backend() != "cpu":
        out["JAX_PLATFORMS"] = "cpu"
    out.update(env)
    return out


@functools.cache
def make_mesh(axis_shapes, axis_names, axis_types=None):
    """``jax.make_mesh`` over :func:`mesh_devices` (built when a test first
    asks, never at import; the same object for the same arguments)."""
    axis_shapes, axis_names = tuple(axis_shapes), tuple(axis_names)
    return jax.make_mesh(axis_shapes, axis_names, axis_types=axis_types,
                         devices=mesh_devices(math.prod(axis_shapes)))


def mesh8():
    return make_mesh((8,), ("d",))


def mesh4():
    return make_mesh((4,), ("d",))


def mesh24():
    return make_mesh((2, 4), ("x", "y"))


# -- placements (docs/design.md §2b) -----------------------------------------------
# Each maps a function of an array named "b" (size 8) and maybe "c" (size 2) to
# the same function run with those names placed elsewhere (the meshes are built
# when the placement is applied).
def _nested_local(f):
    return np.nmap(lambda v: np.nmap(f)(v), mesh=mesh4(), axis_resources={"b": "d"})


def _nested_mesh(f):
    inner = lambda v: np.nmap(f, mesh=mesh24(), axis_resources={"b": "y"})(v)  # noqa: E731
    return np.nmap(inner, axes=["c"], mesh=mesh24(), axis_resources={"c": "x"})


def _sharded(f, placement):
    return lambda v: f(np.shard(v, *sharded(placement)))


PLACEMENTS = {
    "physical": lambda f: f,
    "nmap": lambda f: np.nmap(f),
    "nmap-b-only": lambda f: np.nmap(f, axes=["b"]),
    "mesh": lambda f: np.nmap(f, mesh=mesh8(), axis_resources={"b": "d"}),
    "split": lambda f: np.nmap(f, mesh=mesh4(), axis_resources={"b": "d"}),
    "mesh-2d": lambda f: np.nmap(f, mesh=mesh24(), axis_resources={"b": ("x", "y")}),
    "mesh-b-and-c": lambda f: np.nmap(f, mesh=mesh24(), axis_resources={"b": "y", "c": "x"}),
    "nmap-in-mesh": _nested_local,
    "mesh-in-mesh": _nested_mesh,
    # explicit sharding: the names partitioned in the data's type, no map
    "explicit": lambda f: _sharded(f, "explicit"),
    "set_mesh": lambda f: _sharded(f, "set_mesh"),
}
# the placements that shard without a map (a collective needs one)
UNMAPPED = {"physical", "explicit", "set_mesh"}
_SHARDED = {"explicit": (mesh8, {"b": "d"}), "set_mesh": (mesh24, {"b": "y", "c": "x"})}
SHARDED = set(_SHARDED)


def sharded(placement):
    """(mesh, axis resources) of a placement in ``SHARDED``."""
    mesh, res = _SHARDED[placement]
    return mesh(), res


def context(placement, grad=False):
    """``jax.set_mesh`` for the placement that runs in it; JAX differentiates
    Explicit-mesh data eagerly only inside one, so gradients of both explicit
    placements are taken there."""
    if placement == "set_mesh" or (grad and placement == "explicit"):
        return jax.set_mesh(sharded(placement)[0])
    return contextlib.nullcontext()


#: CI's profile runs a fixed slice of the slowest tables (each entry compiles
#: its own programs); every other profile (``dev``, ``fuzz``) runs them whole.
IN_CI = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci"


def ci_slice(items, always=(), every=3):
    """``items`` in order, or in CI the ones in ``always`` and every
    ``every``-th of the rest (a fixed choice, the same each run)."""
    items = list(items)
    if not IN_CI:
        return items
    rest = [v for v in items if v not in always]
    return [v for v in items if v in always or rest.index(v) % every == 0]


@pytest.fixture
def tpu():
    """A TPU machine as the dispatcher sees it, on the CPU: CPU device 1
    stands in for the TPU and is the default device, CPU device 0 is the CPU
    backend's; yields ``(tpu, cpu)``."""
    from namedarray.core import backends
    cpus = jax.devices("cpu")
    if len(cpus) < 2:
        pytest.skip("needs 2 CPU devices (the test suite simulates 8)")
    with jax.default_device(cpus[1]), backends.simulated({cpus[1]: "tpu"}, cpus[0]):
        yield cpus[1], cpus[0]

"""Test set-up for tests/ and the package's doctests, before JAX is imported:
the platform, 8 simulated CPU devices for the mesh tests, and a Hypothesis
profile sized for CI.

``NAMEDARRAY_TEST_PLATFORM`` picks the platform (``tests/support.py`` says
what each runs and skips): ``cpu``, the default and CI's (``JAX_PLATFORMS=cpu``
unless set already); ``tpu``, ``gpu`` (``JAX_PLATFORMS=<platform>,cpu``); both
with ``--xla_force_host_platform_device_count=8``; ``cpu1``
(``JAX_PLATFORMS=cpu`` and one device, as many as the default backend of a
one-accelerator machine has); ``simtpu``: a TPU machine as the dispatcher
sees it, on the CPU (a ninth CPU device stands in for the TPU and is the
default device, ``backends.simulated``), where a test fails if anything runs
on the stand-in in complex128, which a TPU's compiler aborts the process on.
"""
import os
import traceback

_PLATFORM = os.environ.get("NAMEDARRAY_TEST_PLATFORM", "cpu").strip().lower()
_DEVICES = "--xla_force_host_platform_device_count=8"
if _PLATFORM == "cpu":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
elif _PLATFORM == "cpu1":
    os.environ["JAX_PLATFORMS"] = "cpu"
elif _PLATFORM == "simtpu":
    os.environ["JAX_PLATFORMS"] = "cpu"
    _DEVICES = "--xla_force_host_platform_device_count=9"
else:
    os.environ["JAX_PLATFORMS"] = f"{_PLATFORM},cpu"
if _PLATFORM != "cpu1":
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _DEVICES).strip()

import jax  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# CI draws the same examples every run (derandomize), so a submission's result
# does not depend on luck; `dev` and the default database explore new ones.
settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# a long differential run against NumPy (tests/frontend/test_fuzz_numpy.py)
settings.register_profile(
    "fuzz", max_examples=2000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# `python -m namedarray.tour` is a script (it sets XLA_FLAGS itself); its
# sections run in tests/docs/test_tour.py
collect_ignore = ["namedarray/tour.py"]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "cpu_only(reason): pinned to the CPU backend (the host tier's "
        "choices, XLA CPU's exact bits); skipped where the default backend is an "
        "accelerator, with the reason")


def pytest_collection_modifyitems(config, items):
    # (a simulated TPU machine skips what a TPU machine skips)
    backend = "simulated tpu" if _PLATFORM == "simtpu" else jax.default_backend()
    if backend == "cpu":
        return
    for item in items:
        mark = item.get_closest_marker("cpu_only")
        if mark is not None:
            why = mark.args[0] if mark.args else mark.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason=f"on the CPU only ({backend} here): {why}"))


@pytest.fixture(scope="session", autouse=_PLATFORM == "simtpu")
def _simulated_tpu():
    """``simtpu``: the ninth CPU device stands in for a TPU, the default device."""
    from namedarray.core import backends
    cpus = jax.devices("cpu")
    with jax.default_device(cpus[8]), backends.simulated({cpus[8]: "tpu"}, cpus[0]):
        yield cpus[8]


def _takes_float64_apart(jaxpr) -> bool:
    """Whether ``jaxpr`` (nested ones too) reads float64 data's bits (a
    bitcast of float64: ``signbit``, ``copysign``, ``frexp``; a TPU's compiler
    fails on what follows it, the capability table's ``float_bits``)."""
    import numpy
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "bitcast_convert_type" and \
                getattr(eqn.invars[0].aval, "dtype", None) == numpy.float64:
            return True
        for p in eqn.params.values():
            for sub in p if isinstance(p, (tuple, list)) else (p,):
                sub = getattr(sub, "jaxpr", sub)
                if hasattr(sub, "eqns") and _takes_float64_apart(sub):
                    return True
    return False


@pytest.fixture(autouse=_PLATFORM == "simtpu")
def _nothing_the_tpu_lacks(_simulated_tpu, monkeypatch):
    """``simtpu``: the test fails where namedarray ran a computation on the
    stand-in TPU in complex128 (a TPU's compiler aborts the process on it) or
    taking float64 apart by its bits (it fails to compile there)."""
    from jax._src import pjit
    import namedarray
    _PACKAGE = os.path.dirname(os.path.abspath(namedarray.__file__))
    real, seen = pjit._pjit_call_impl_python, []

    def spy(*args, **kw):
        committed = [a for a in args if hasattr(a, "devices") and a.committed]
        there = any(_simulated_tpu in a.devices() for a in committed) if committed else (
            jax.config.jax_default_device is _simulated_tpu)
        j = kw["jaxpr"]
        if there and ("c128" in str(j) or _takes_float64_apart(j.jaxpr)):
            at = [f"{os.path.relpath(f.filename, _PACKAGE)}:{f.lineno} {f.name}"
                  for f in traceback.extract_stack()
                  if f.filename.startswith(_PACKAGE + os.sep)]
            if at:          # (namedarray's doing, not the test's own)
                seen.append((kw.get("name"), at[-8:]))
        return real(*args, **kw)
    monkeypatch.setattr(pjit, "_pjit_call_impl_python", spy)
    yield
    assert not seen, f"computed in complex128 or on float64 bits on the (simulated) TPU: {seen}"

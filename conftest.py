"""Test set-up for tests/ and the package's doctests, before JAX is imported:
the platform, 8 simulated CPU devices for the mesh tests, and a Hypothesis
profile sized for CI.

``NAMEDARRAY_TEST_PLATFORM`` picks the platform (``tests/support.py`` says
what each runs and skips): ``cpu``, the default and CI's (``JAX_PLATFORMS=cpu``
unless set already); ``tpu``, ``gpu`` (``JAX_PLATFORMS=<platform>,cpu``); both
with ``--xla_force_host_platform_device_count=8``; ``cpu1``
(``JAX_PLATFORMS=cpu`` and one device, as many as the default backend of a
one-accelerator machine has).
"""
import os

_PLATFORM = os.environ.get("NAMEDARRAY_TEST_PLATFORM", "cpu").strip().lower()
_DEVICES = "--xla_force_host_platform_device_count=8"
if _PLATFORM == "cpu":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
elif _PLATFORM == "cpu1":
    os.environ["JAX_PLATFORMS"] = "cpu"
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
    backend = jax.default_backend()
    if backend == "cpu":
        return
    for item in items:
        mark = item.get_closest_marker("cpu_only")
        if mark is not None:
            why = mark.args[0] if mark.args else mark.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason=f"on the CPU only ({backend} here): {why}"))

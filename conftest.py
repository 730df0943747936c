"""Test set-up for tests/ and the package's doctests: 8 simulated CPU devices for
mesh tests (before JAX is imported), and a Hypothesis profile sized for CI."""
import os

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                           + " --xla_force_host_platform_device_count=8").strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

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

"""pytest plugin for a run of NumPy's test files (``numpy_suite_runner.py``).

Loaded with ``-p numpy_suite_plugin``; configured by the environment:
``NUMPY_SUITE_TARGET`` (``namedarray`` or ``numpy``: what ``numpy_shim``
serves), ``NUMPY_SUITE_OUT`` (a JSON-lines file: one record per test),
``NUMPY_SUITE_TIMEOUT`` (seconds per test call), ``NUMPY_SUITE_DONE`` (a file of
test ids to leave out: those a killed earlier run already recorded).

Keeps the first ``PER_FUNCTION`` parametrizations of each test function (in
collection order), times each test call out after ``NUMPY_SUITE_TIMEOUT``
seconds, and records each test's outcome and, for a failure, the exception
(the runner classifies it).  The hypothesis profile is derandomized.
"""
from __future__ import annotations

import faulthandler
import json
import os
import signal
import sys

import hypothesis
import pytest

import numpy_suite_shim

PER_FUNCTION = 3
TIMEOUT = float(os.environ.get("NUMPY_SUITE_TIMEOUT", "30"))


class SuiteTimeout(BaseException):
    """A test call ran past ``NUMPY_SUITE_TIMEOUT`` seconds."""


def _alarm(signum, frame):
    raise SuiteTimeout(f"test ran over {TIMEOUT:g} s")


def _write(record):
    with open(os.environ["NUMPY_SUITE_OUT"], "a") as f:
        f.write(json.dumps(record) + "\n")


def pytest_configure(config):
    target = os.environ.get("NUMPY_SUITE_TARGET", "namedarray")
    if target != "numpy":
        _count_compiles()
    numpy_suite_shim.install(target)
    hypothesis.settings.register_profile(
        "numpy_suite", max_examples=10, deadline=None, derandomize=True,
        database=None, suppress_health_check=list(hypothesis.HealthCheck))
    hypothesis.settings.load_profile("numpy_suite")
    for mark in ("slow", "xslow", "leaks_references", "thread_unsafe",
                 "parallel_threads", "iterations", "limited_api", "valgrind_error"):
        config.addinivalue_line("markers", f"{mark}: NumPy's marker")
    signal.signal(signal.SIGALRM, _alarm)


class _Module(pytest.Module):
    """A test module whose import fails against namedarray is imported again
    with NumPy's names for its top-level code (``numpy_suite_shim.numpy_setup``);
    its tests still run against namedarray, and the record says so."""

    def _getobj(self):
        try:
            return super()._getobj()
        except Exception as exc:      # noqa: BLE001 - any error of the module's code
            for name, mod in list(sys.modules.items()):
                if getattr(mod, "__file__", None) == str(self.path):
                    del sys.modules[name]
            _write({"numpy_setup": self.nodeid, "msg": f"{type(exc).__name__}: {exc}"[:300]})
            return numpy_suite_shim.numpy_setup(super()._getobj)


def pytest_pycollect_makemodule(module_path, parent):
    if module_path.name.startswith("test_"):
        return _Module.from_parent(parent, path=module_path)
    return None


def _base(nodeid):
    return nodeid.split("[", 1)[0]


def pytest_collection_modifyitems(session, config, items):
    done = set()
    if os.environ.get("NUMPY_SUITE_DONE"):
        with open(os.environ["NUMPY_SUITE_DONE"]) as f:
            done = set(f.read().splitlines())
    seen, keep, drop = {}, [], []
    for item in items:
        n = seen[_base(item.nodeid)] = seen.get(_base(item.nodeid), 0) + 1
        item.suite_key = f"{_base(item.nodeid)}#{n - 1}"
        (keep if n <= PER_FUNCTION and item.nodeid not in done else drop).append(item)
    items[:] = keep
    if drop:
        config.hook.pytest_deselected(items=drop)


def pytest_collectreport(report):
    if report.failed:
        _write({"collect_error": report.nodeid,
                "msg": str(report.longrepr).strip().splitlines()[-1][:300]})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # a call stuck in C code is not interrupted by the alarm: end the process,
    # the runner records the test as a timeout and carries on without it
    _write({"start": item.nodeid, "key": item.suite_key})
    faulthandler.dump_traceback_later(2 * TIMEOUT + 60, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _summary(exc):
    lines = [s.strip() for s in str(exc).splitlines() if s.strip()]
    return " | ".join(lines)[:300]


def _failure(call, tmpdir):
    if call.excinfo is None:        # a strict xfail that passed
        return {"etype": "XPASS(strict)", "msg": "", "where": "", "origin": ""}
    exc = call.excinfo.value
    tb = call.excinfo.traceback
    where = next((f"{os.path.relpath(str(e.path), tmpdir)}:{e.lineno + 1}"
                  for e in reversed(tb) if str(e.path).startswith(tmpdir)), "")
    return {"etype": type(exc).__name__, "msg": _summary(exc), "where": where,
            "origin": f"{tb[-1].path}:{tb[-1].lineno + 1}" if len(tb) else "",
            "assertion": isinstance(exc, AssertionError),
            "pytest_fail": isinstance(exc, pytest.fail.Exception),
            "timeout": isinstance(exc, SuiteTimeout)}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    rec = getattr(item, "suite_record", None)
    if rec is None:
        rec = item.suite_record = {"id": item.nodeid, "key": item.suite_key,
                                   "outcome": "passed", "dur": 0.0}
    rec["dur"] += report.duration
    if rec["outcome"] == "passed" and not report.passed or (
            hasattr(report, "wasxfail") and rec["outcome"] == "passed"):
        if hasattr(report, "wasxfail"):
            rec["outcome"] = "xfailed" if report.skipped else "xpassed"
        elif report.skipped:
            rec["outcome"] = "skipped"
        else:
            rec["outcome"] = "failed"
            rec["phase"] = call.when
            rec.update(_failure(call, str(item.config.rootpath)))
    if call.when == "teardown":
        _write(rec)


def pytest_sessionfinish(session):
    _write({"finished": True, "fallbacks": sorted(numpy_suite_shim.FALLBACKS),
            "compiles": _COMPILES[0]})


#: XLA compilations in this run (read by the first-run benchmark)
_COMPILES = [0]


def _count_compiles():
    import jax

    def listener(event, duration, **kw):
        if event == "/jax/core/compile/backend_compile_duration":
            _COMPILES[0] += 1
    jax.monitoring.register_event_duration_secs_listener(listener)

"""Other libraries' own test suites, run with ``numpy`` replaced by namedarray.

A drop-in replacement is tested best by code written for NumPy by someone
else.  This script runs a pure-NumPy library's own test suite twice, in two
``python -m pytest`` processes: once as it is (NumPy), once with every
``import numpy`` / ``from numpy... import`` *of the library and of its
tests* served by namedarray (``numpy`` -> ``namedarray``, ``numpy.linalg``
-> ``namedarray.linalg``, ...), as if the library had been written with
``import namedarray as np``.  namedarray itself, SciPy, matplotlib and
pytest keep importing NumPy: the replacement is decided by the importing
module's file (under the library's folder), through ``builtins.__import__``,
so it also reaches the test modules pytest rewrites and the imports inside
functions.  A name namedarray lacks fails as it would for a user
(``AttributeError``, ``ModuleNotFoundError``): nothing falls back to NumPy.

Only the tests NumPy passes count; the report gives, per library, how many
of them pass with namedarray and the failures grouped by their error.

    python tools/run_library_suite.py --setup LIB ...     # once: pip download, unpack
    python tools/run_library_suite.py LIB ...             # both runs, the report
    NAMEDARRAY_HOST_TIER=off python tools/run_library_suite.py LIB   # every call compiled

``LIB`` is a key of :data:`LIBRARIES` (``all``: every one).  The libraries
live outside the repository (``--root``, default ``/work/thirdparty`` or
``$LIBRARY_SUITE_ROOT``), each in its own folder, never on the interpreter's
path otherwise; only ``--setup`` downloads anything (pip, pinned versions).
Not part of CI.
"""
from __future__ import annotations

import argparse
import builtins
import collections
import glob
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))

#: key -> (pip requirement, "wheel" or "sdist" (where the wheel leaves the
#: tests out), the package folder, the test paths in it, extra packages the
#: tests import, installed without their dependencies beside it)
LIBRARIES = {
    "numpy_financial": ("numpy-financial==1.0.0", "wheel", "numpy_financial",
                        ["numpy_financial/tests"], []),
    "numdifftools": ("numdifftools==0.11.2", "wheel", "numdifftools",
                     ["numdifftools"], []),    # (its tests/pytest.ini is not one pytest 9 reads)
    "filterpy": ("filterpy==1.4.5", "sdist", "filterpy", ["filterpy"],
                 ["matplotlib==3.11.2", "contourpy", "cycler", "fonttools", "kiwisolver",
                  "pillow", "pyparsing", "python-dateutil", "six", "packaging"]),
}
#: seconds one test may run (then it fails as a timeout)
TIMEOUT = 45.0


# -- setup (the only step that downloads) --------------------------------------
def setup(key: str, root: str) -> None:
    """Download ``key``'s pinned distribution with pip and unpack its package
    (with its tests) into ``root/key``; its extra packages into ``root/key-deps``."""
    spec, kind, package, _, extra = LIBRARIES[key]
    dest = os.path.join(root, key)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", tmp,
                        *(["--no-binary", ":all:"] if kind == "sdist" else
                          ["--only-binary", ":all:"]), spec], check=True)
        (archive,) = glob.glob(os.path.join(tmp, "*"))
        unpacked = os.path.join(tmp, "unpacked")
        if archive.endswith((".whl", ".zip")):
            with zipfile.ZipFile(archive) as z:
                z.extractall(unpacked)
        else:
            with tarfile.open(archive) as t:
                t.extractall(unpacked, filter="data")
        (src,) = [p for p in glob.glob(os.path.join(unpacked, "**", package), recursive=True)
                  if os.path.isfile(os.path.join(p, "__init__.py"))][:1]
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        shutil.copytree(src, os.path.join(dest, package))
    if extra:
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target",
                        dest + "-deps", *extra], check=True)


# -- inside the pytest process: the replacement and the records ----------------
_real_import = builtins.__import__
#: the folder whose modules see namedarray as ``numpy`` (set by pytest_configure)
_SCOPE = [None]


def _replacement(name, fromlist):
    """What ``import name`` (``numpy`` or ``numpy.<path>``) gives a module of
    the library: ``namedarray`` (no ``fromlist``) or ``namedarray.<path>``
    (a submodule, else an attribute of its parent, as ``numpy.<path>``)."""
    mod = importlib.import_module("namedarray")
    for part in name.split(".")[1:]:
        try:
            mod = importlib.import_module(f"{mod.__name__}.{part}")
        except ModuleNotFoundError:
            nxt = getattr(mod, part, None)
            if nxt is None:
                raise ModuleNotFoundError(
                    f"No module named {'namedarray' + name[5:]!r} (asked for as {name!r})",
                    name=name) from None
            mod = nxt
    return mod if fromlist else importlib.import_module("namedarray")


#: NumPy's modules left NumPy's (``--keep``: ``typing`` for the annotations
#: of a library whose every module imports ``numpy.typing``); NumPy's private
#: modules (``numpy._core._methods``) always are: a library written for
#: namedarray would still take NumPy's internals from NumPy
_KEEP: set = set()


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name[:5] == "numpy" and (len(name) == 5 or name[5] == ".") and \
            globals and str(globals.get("__file__") or "").startswith(_SCOPE[0]) and \
            name[6:].split(".")[0] not in _KEEP and name[6:7] != "_":
        return _replacement(name, fromlist)
    return _real_import(name, globals, locals, fromlist, level)


class SuiteTimeout(Exception):
    """A test ran past the time limit."""


def _alarm(signum, frame):
    raise SuiteTimeout("test ran over the time limit")


_RECORDS: dict = {}


def pytest_configure(config):
    if os.environ["LIBRARY_SUITE_TARGET"] == "namedarray":
        _SCOPE[0] = os.path.realpath(os.environ["LIBRARY_SUITE_SCOPE"]) + os.sep
        _KEEP.update(filter(None, os.environ.get("LIBRARY_SUITE_KEEP", "").split(",")))
        builtins.__import__ = _import
    signal.signal(signal.SIGALRM, _alarm)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    # (again every 5 s after the limit: a library's ``except Exception`` may
    # swallow one; none once the test's call is over)
    signal.setitimer(signal.ITIMER_REAL, float(os.environ["LIBRARY_SUITE_TIMEOUT"]), 5.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def pytest_runtest_logreport(report):
    rec = _RECORDS.setdefault(report.nodeid, {"outcome": "passed", "msg": ""})
    if rec["outcome"] != "passed" or report.passed:
        return
    if report.skipped:
        rec["outcome"] = "skipped"
        return
    rec["outcome"] = "failed"
    crash = getattr(report.longrepr, "reprcrash", None)
    rec["msg"] = (crash.message if crash is not None else str(report.longrepr)).strip()
    rec["msg"] = " | ".join(s.strip() for s in rec["msg"].splitlines() if s.strip())[:400]
    rec["where"] = f"{crash.path}:{crash.lineno}" if crash is not None else ""


def pytest_collectreport(report):
    if report.failed:
        _RECORDS[report.nodeid] = {
            "outcome": "failed", "where": "collection",
            "msg": str(report.longrepr).strip().splitlines()[-1][:400]}


def pytest_sessionfinish(session):
    with open(os.environ["LIBRARY_SUITE_OUT"], "w") as f:
        json.dump(_RECORDS, f)


# -- the driver -----------------------------------------------------------------
def run(key: str, root: str, target: str, timeout: float, repo: str = REPO,
        log: str | None = None, keep: str = "") -> tuple[dict, float]:
    """``key``'s suite with ``target`` (``numpy`` or ``namedarray``, the one in
    the checkout ``repo``) as its ``numpy``: ({test id: record}, seconds);
    pytest's output goes to ``log``."""
    _, _, package, tests, _ = LIBRARIES[key]
    folder = os.path.join(root, key)
    if not os.path.isdir(os.path.join(folder, package)):
        raise SystemExit(f"run_library_suite: {folder} has no {package}; run with --setup first")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "records.json")
        env = dict(os.environ, LIBRARY_SUITE_TARGET=target, LIBRARY_SUITE_OUT=out,
                   LIBRARY_SUITE_SCOPE=folder, LIBRARY_SUITE_TIMEOUT=str(timeout),
                   LIBRARY_SUITE_KEEP=keep,
                   MPLBACKEND="Agg")
        env.setdefault("JAX_PLATFORMS", "cpu")
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [HERE, folder, folder + "-deps", repo, env.get("PYTHONPATH")]))
        t0 = time.monotonic()
        with open(log or os.devnull, "w") as out_file:
            subprocess.run([sys.executable, "-m", "pytest", "-p", "run_library_suite",
                            "-p", "no:cacheprovider", "-q", "--rootdir", folder,
                            "--continue-on-collection-errors", "--tb=native",
                            "-W", "ignore::DeprecationWarning", *tests],
                           cwd=folder, env=env, stdout=out_file, stderr=subprocess.STDOUT)
        seconds = time.monotonic() - t0
        if not os.path.exists(out):
            raise SystemExit(f"run_library_suite: the {target} run of {key} recorded "
                             f"nothing (see {log or 'its output: --logs'})")
        with open(out) as f:
            return json.load(f), seconds


def report(key, ref, got, seconds) -> dict:
    """Print ``key``'s counts and failures; its summary as a dict."""
    passing = [t for t, r in ref.items() if r["outcome"] == "passed"]
    ok = [t for t in passing if got.get(t, {}).get("outcome") == "passed"]
    failed = {t: got.get(t, {"outcome": "not run", "msg": ""}) for t in passing if t not in ok}
    # a module that did not import fails its tests as one collection error
    for t, r in got.items():
        if r.get("where") == "collection":
            for p in passing:
                if p.startswith(t + "::") and p in failed:
                    failed[p] = r
    print(f"\n== {key}: {len(ok)} of {len(passing)} tests NumPy passes pass with namedarray "
          f"({len(ref)} tests; NumPy {seconds[0]:.0f} s, namedarray {seconds[1]:.0f} s)")
    groups = collections.Counter(f"{r['outcome']}: {r['msg'][:150]}" for r in failed.values())
    for msg, n in groups.most_common():
        print(f"{n:4d}  {msg}")
    for t, r in sorted(failed.items()):
        print(f"      {t}  [{r.get('where', '')}]")
    return {"numpy": len(passing), "namedarray": len(ok), "tests": len(ref),
            "failed": {t: r for t, r in failed.items()}}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("libraries", nargs="+", help=f"{', '.join(LIBRARIES)} or all")
    p.add_argument("--root", default=os.environ.get("LIBRARY_SUITE_ROOT", "/work/thirdparty"))
    p.add_argument("--setup", action="store_true", help="download and unpack, then stop")
    p.add_argument("--timeout", type=float, default=TIMEOUT)
    p.add_argument("--json", help="write the summary here")
    p.add_argument("--namedarray", default=REPO,
                   help="the checkout whose namedarray runs (default: this one)")
    p.add_argument("--logs", help="a folder for pytest's output of each run")
    p.add_argument("--keep", default="", help="NumPy's submodules left NumPy's, comma-"
                   "separated (typing: a library's annotations); default none")
    a = p.parse_args(argv)
    keys = list(LIBRARIES) if a.libraries == ["all"] else a.libraries
    for k in keys:
        if k not in LIBRARIES:
            p.error(f"unknown library {k!r} (one of {', '.join(LIBRARIES)})")
    if a.setup:
        for k in keys:
            setup(k, a.root)
        return
    summary = {}
    for k in keys:
        logs = [os.path.join(a.logs, f"{k}-{t}.log") if a.logs else None
                for t in ("numpy", "namedarray")]
        ref, t_ref = run(k, a.root, "numpy", a.timeout, a.namedarray, logs[0], a.keep)
        got, t_got = run(k, a.root, "namedarray", a.timeout, a.namedarray, logs[1], a.keep)
        summary[k] = report(k, ref, got, (t_ref, t_got))
    total = [sum(s[c] for s in summary.values()) for c in ("namedarray", "numpy")]
    print(f"\ntotal: {total[0]} of {total[1]} tests NumPy passes pass with namedarray "
          f"(host tier {os.environ.get('NAMEDARRAY_HOST_TIER', 'on')}; NumPy's own: "
          f"{a.keep or 'none'})")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()

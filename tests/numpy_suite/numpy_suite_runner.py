"""NumPy's own unit tests, run against namedarray.

Copies NumPy's installed test files (``FILES``) into a temporary directory,
rewrites their imports so that NumPy's public names come from ``numpy_shim``
(namedarray's name where it has one, ``numpy_suite_shim.py``) while
``numpy.testing``, ``numpy.exceptions``, ``numpy.dtypes`` and the private
modules stay NumPy's, and runs them in a ``python -m pytest`` subprocess with
``numpy_suite_plugin.py`` (first 3 parametrizations per test function, a
per-test timeout, one JSON record per test).  The same files run once with
NumPy (``target="numpy"``): only the tests NumPy passes count.  A module whose
top-level code fails against namedarray (an object array built in a class
body) has that code run with NumPy's names, its tests still with namedarray's
(``numpy_suite_plugin._Module``); the report lists such modules.  Tests needing
more than ``MEMORY`` skip in both runs.

``python tests/numpy_suite/numpy_suite_runner.py [FILE ...] [--mismatches PATH]``
prints the counts per file and the failures; the environment passes through
(``NAMEDARRAY_HOST_TIER=off`` measures without the host tier).
"""
from __future__ import annotations

import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import numpy

from numpy_suite_shim import NAME, public

HERE = os.path.dirname(os.path.abspath(__file__))
NUMPY_DIR = os.path.dirname(numpy.__file__)
FILES = tuple(
    [f"lib/tests/test_{n}.py" for n in (
        "function_base", "shape_base", "twodim_base", "arraysetops", "nanfunctions",
        "index_tricks", "type_check", "ufunclike", "arraypad", "histograms",
        "polynomial", "stride_tricks")]
    + [f"_core/tests/test_{n}.py" for n in (
        "numeric", "shape_base", "einsum", "indexing", "umath", "function_base",
        "item_selection")]
    + ["linalg/tests/test_linalg.py", "linalg/tests/test_regression.py",
       "fft/tests/test_pocketfft.py", "fft/tests/test_helper.py"])
#: seconds a test call may take (then it counts as a timeout)
TIMEOUT = 20.0
#: memory NumPy's ``requires_memory`` tests may assume (more: they skip)
MEMORY = "2GB"
#: the kinds of a test NumPy passes, in report order
KINDS = ("passed", "mismatch", "noraise", "error", "hostdtype", "timeout",
         "skipped", "notrun")

#: an error about a dtype JAX cannot hold (NumPy's host dtypes)
HOST_DTYPE = re.compile(
    r"not a valid JAX array type|namedarray arrays hold|JAX only supports number|"
    r"(dtype|type)[^|]{0,80}\b(object|str|bytes|unicode|datetime64|timedelta64|"
    r"longdouble|float128|complex256|clongdouble|void|StringDType|structured)\b|"
    r"\b(object|string|datetime|timedelta|longdouble|structured|record)[^|]{0,20}dtype",
    re.IGNORECASE)
NO_RAISE = re.compile(r"DID NOT RAISE|DID NOT WARN|not raised|No warning|"
                      r"did not raise|did not warn", re.IGNORECASE)

_FROM = re.compile(r"^(\s*)from numpy((?:\.\w+)*) import ", re.M)
_IMPORT_AS = re.compile(r"^(\s*)import numpy((?:\.\w+)*) as (\w+)\s*$", re.M)
_IMPORT = re.compile(r"^(\s*)import numpy\s*$", re.M)


def rewrite(source: str) -> str:
    """``source`` with its public NumPy imports taken from ``numpy_shim``."""
    def sub(m, tail):
        path = m.group(2)
        return m.group(0) if not public(path) else \
            f"{m.group(1)}{tail(NAME + path, m)}"
    source = _FROM.sub(lambda m: sub(m, lambda mod, m: f"from {mod} import "), source)
    source = _IMPORT_AS.sub(
        lambda m: sub(m, lambda mod, m: f"import {mod} as {m.group(3)}"), source)
    return _IMPORT.sub(lambda m: f"{m.group(1)}import {NAME} as numpy", source)


def prepare(tmp: str, files=FILES) -> list[str]:
    """Copy ``files`` into ``tmp`` (``lib/tests/x.py`` -> ``lib/x.py``),
    imports rewritten; the copies' paths relative to ``tmp``."""
    out = []
    for rel in files:
        dest = rel.replace("/tests/", "/")
        os.makedirs(os.path.join(tmp, os.path.dirname(dest)), exist_ok=True)
        with open(os.path.join(NUMPY_DIR, rel)) as f:
            text = rewrite(f.read())
        with open(os.path.join(tmp, dest), "w") as f:
            f.write(text)
        out.append(dest)
    with open(os.path.join(tmp, "pytest.ini"), "w") as f:
        f.write("[pytest]\naddopts =\n")
    return out


def run(tmp: str, paths, target: str, timeout: float = TIMEOUT,
        limit: float = 7200.0) -> tuple[dict, list, list]:
    """Run the prepared ``paths`` with ``numpy_shim`` serving ``target``:
    ``({test key: record}, collection errors and modules set up with NumPy
    (``numpy_suite_plugin._Module``), fallbacks)``.  A run the plugin's
    backstop ends (a test stuck past the timeout) is resumed without it."""
    out = os.path.join(tmp, f"{target}.jsonl")
    done_file = os.path.join(tmp, f"{target}.done")
    env = dict(os.environ)
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "")
                        + " --xla_force_host_platform_device_count=8").strip()
    env.setdefault("JAX_PLATFORMS", "cpu")
    env["NPY_AVAILABLE_MEM"] = MEMORY   # tests needing more skip (in both runs)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [HERE, env.get("PYTHONPATH")]))
    env.update(NUMPY_SUITE_TARGET=target, NUMPY_SUITE_OUT=out,
               NUMPY_SUITE_TIMEOUT=str(timeout), NUMPY_SUITE_DONE=done_file)
    for p in (out, done_file):
        if os.path.exists(p):
            os.remove(p)
    open(done_file, "w").close()
    cmd = [sys.executable, "-m", "pytest", "-p", "numpy_suite_plugin",
           "-c", os.path.join(tmp, "pytest.ini"), "--rootdir", tmp,
           "--import-mode=importlib", "--continue-on-collection-errors",
           "-p", "no:cacheprovider", "-q",
           "-W", "ignore::pytest.PytestUnknownMarkWarning", *paths]
    deadline = time.monotonic() + limit
    records, collect_errors, fallbacks = {}, [], []
    while True:
        with open(os.path.join(tmp, f"{target}.log"), "a") as log:
            # (its own process group: a test that forks and times out leaves a
            # child behind, holding the parent's memory, which goes with it)
            proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            try:
                proc.wait(timeout=max(deadline - time.monotonic(), 1))
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        started, finished = None, False
        collect_errors = []
        with open(out) as f:
            for line in f:
                rec = json.loads(line)
                if "start" in rec:
                    started = rec
                elif "collect_error" in rec or "numpy_setup" in rec:
                    collect_errors.append(rec)
                elif "finished" in rec:
                    finished, fallbacks = True, rec["fallbacks"]
                else:
                    records[rec["key"]] = rec
                    started = None if started and started["key"] == rec["key"] else started
        if finished or started is None:
            return records, collect_errors, fallbacks
        # the process died in ``started``: record it as a timeout, go on without it
        records[started["key"]] = {
            "id": started["start"], "key": started["key"], "outcome": "failed",
            "kind": "timeout", "etype": "Killed", "dur": 2 * timeout + 60,
            "msg": "the process was stopped in this test (stuck or crashed)",
            "where": "", "origin": ""}
        with open(done_file, "w") as f:
            f.write("\n".join([r["id"] for r in records.values()]) + "\n")


def classify(rec) -> str:
    """What a test's record says: ``passed``; ``mismatch`` (an
    ``AssertionError`` of the test: numpy.testing's ``assert_*`` or a bare
    ``assert``, not one raised inside namedarray); ``noraise`` (an expected
    exception or warning did not come); ``hostdtype`` (an error about a dtype
    JAX cannot hold); ``timeout``; ``error``; ``skipped``; ``notrun``."""
    if rec is None:
        return "notrun"
    if rec["outcome"] == "passed":
        return "passed"
    if rec["outcome"] in ("skipped", "xfailed", "xpassed"):
        return "skipped"
    if rec.get("timeout") or rec.get("kind") == "timeout":
        return "timeout"
    msg = rec["msg"]
    if rec.get("assertion") and "/namedarray/" not in rec["origin"]:
        return "noraise" if NO_RAISE.search(msg) else "mismatch"
    if rec.get("pytest_fail") and NO_RAISE.search(msg):
        return "noraise"
    return "hostdtype" if HOST_DTYPE.search(msg) else "error"


def measure(files=FILES, timeout: float = TIMEOUT) -> dict:
    """Run ``files`` with NumPy and with namedarray; ``{"tests": {key:
    (kind, namedarray record)} of the tests NumPy passes, "collect_errors",
    "fallbacks", "seconds": {file: namedarray seconds}}``."""
    with tempfile.TemporaryDirectory(prefix="numpy_suite_") as tmp:
        paths = prepare(tmp, files)
        ref, ref_errors, _ = run(tmp, paths, "numpy", timeout)
        got, errors, fallbacks = run(tmp, paths, "namedarray", timeout)
    tests = {k: (classify(got.get(k)), got.get(k)) for k, r in ref.items()
             if r["outcome"] == "passed"}
    seconds = collections.Counter()
    for k, r in got.items():
        seconds[k.split("::")[0]] += r["dur"]
    return {"tests": tests, "collect_errors": errors, "ref_collect_errors": ref_errors,
            "fallbacks": fallbacks, "seconds": dict(seconds)}


def counts(tests) -> dict:
    """``{kind: number of tests}`` over ``tests`` (``measure()["tests"]``)."""
    c = collections.Counter(kind for kind, _ in tests.values())
    return {k: c.get(k, 0) for k in KINDS}


def describe(key, rec) -> str:
    where = f" ({rec['where']})" if rec and rec.get("where") else ""
    msg = (f"{rec['etype']}: {rec['msg']}" if rec.get("etype") else rec["outcome"]) \
        if rec else "not run"
    return f"{rec['id'] if rec else key}{where}: {msg[:240]}"


def main(argv):
    opts = {}
    for opt in ("--mismatches", "--json", "--timeout", "--from-json"):
        if opt in argv:
            i = argv.index(opt)
            opts[opt] = argv[i + 1]
            argv = argv[:i] + argv[i + 2:]
    mism_path = opts.get("--mismatches")
    files = tuple(argv) or FILES
    t0 = time.monotonic()
    if "--from-json" in opts:   # report a saved run again (classified anew)
        with open(opts["--from-json"]) as f:
            res = json.load(f)
        res["tests"] = {k: (classify(r), r) for k, (_, r) in res["tests"].items()}
    else:
        res = measure(files, float(opts.get("--timeout", TIMEOUT)))
    if "--json" in opts:
        with open(opts["--json"], "w") as f:
            json.dump(res, f)
    tests = res["tests"]
    by_file = collections.defaultdict(dict)
    for k, v in tests.items():
        by_file[k.split("::")[0]][k] = v
    print(f"{'file':34s} " + " ".join(f"{k[:8]:>8s}" for k in ("numpy",) + KINDS) + "      s")
    for f in sorted(by_file):
        c = counts(by_file[f])
        print(f"{f:34s} {len(by_file[f]):8d} " + " ".join(f"{c[k]:8d}" for k in KINDS)
              + f" {res['seconds'].get(f, 0):6.0f}")
    c = counts(tests)
    print(f"{'total':34s} {len(tests):8d} " + " ".join(f"{c[k]:8d}" for k in KINDS))
    print(f"{c['passed']} of {len(tests)} tests NumPy passes pass "
          f"({100 * c['passed'] / max(len(tests), 1):.1f}%); "
          f"{time.monotonic() - t0:.0f} s")
    for e in res["collect_errors"]:
        what = "collection error" if "collect_error" in e else "top-level code run with NumPy"
        print(f"{what}: {e.get('collect_error') or e['numpy_setup']}: {e['msg']}")
    errors = collections.Counter(
        f"{r['etype']}: {r['msg'][:120]}" for kind, r in tests.values() if kind == "error")
    print("\ntop errors:")
    for msg, n in errors.most_common(25):
        print(f"{n:4d}  {msg}")
    print("\nNumPy names namedarray lacks (served by NumPy):", ", ".join(res["fallbacks"]))
    lines = []
    for kind in ("mismatch", "noraise", "timeout", "hostdtype", "error", "notrun", "skipped"):
        lines += [f"[{kind}] {describe(k, r)}" for k, (kd, r) in sorted(tests.items())
                  if kd == kind]
    if mism_path:
        with open(mism_path, "w") as f:
            f.write("\n".join(lines) + "\n")
    else:
        print("\n".join(line for line in lines if line.startswith("[mismatch]")))


if __name__ == "__main__":
    main(sys.argv[1:])

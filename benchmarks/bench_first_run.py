"""First runs and warm runs: short NumPy programs with the module swapped.

    python benchmarks/bench_first_run.py              # every program, 3 libraries
    python benchmarks/bench_first_run.py --quick      # fewer warm runs
    python benchmarks/bench_first_run.py --libs numpy namedarray   # without jax.numpy
    python benchmarks/bench_first_run.py --docstrings # NumPy's docstring examples, timed
    python benchmarks/bench_first_run.py --unit-tests # NumPy's own unit tests, timed
    python benchmarks/bench_first_run.py --calls      # per-call costs of the tiers
    python benchmarks/bench_first_run.py --crossover  # host against device, per size

Each program is written once, in the NumPy style, as a user writes it, and run
with ``np`` bound to NumPy, ``jax.numpy`` or namedarray.  For each (program,
library) a fresh Python process imports the library (timed apart), runs the
program once (the **cold** figure: every compilation it triggers included) and
then five more times (the **warm** figure: the best of runs 2-6).  The table
gives both against NumPy's time and against ``jax.numpy``'s, and the XLA
compilations of the cold run (a ``jax.monitoring`` listener on
``/jax/core/compile/backend_compile_duration``, once per compiled program)
and of the warm runs.  namedarray's results must match NumPy's (checked
before anything is printed).  Where ``jax.numpy`` cannot run the text (writes
into an array), its row runs the same steps written with ``.at[...].set``.

Targets: cold within 20x NumPy and no slower than ``jax.numpy``; warm within
10x NumPy.  On a loaded machine compare the ratios (the libraries of one
program run back to back), and quote ``uptime`` beside them.  ``--libs``
leaves ``jax.numpy`` out (its columns print ``-``): on an accelerator with
NumPy's 64-bit dtypes, ``jax.numpy`` sends float64 decompositions to XLA
backends that lack them (see ``docs/performance.md``), where namedarray's
dispatcher computes them on the CPU backend.

``--docstrings`` times every docstring of NumPy's public functions
(``tests/docs/numpy_docstrings.py``'s set) run whole in a fresh process per
library, pass or fail, with the compile count.

``--unit-tests [FILE ...]`` times NumPy's own unit-test files (the runner of
``tests/numpy_suite``, six files by default, ``all`` for its whole set) with
each library, test by test, and compares the time of the tests namedarray and
``jax.numpy`` both pass (target: no slower than ``jax.numpy``).

``--calls`` times single operations on small data (``x + y`` on 8 x 16, a
``linspace``, an ``eye``, a ``concatenate``, an ``argmin``): the first call,
calls 2-201 and calls 3202-3401, with namedarray's host tier on and off
(``NAMEDARRAY_HOST_TIER=off``), beside NumPy and ``jax.numpy``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")   # NumPy's float64 on every side

import numpy  # noqa: E402

LIBS = ("numpy", "jax.numpy", "namedarray")
TARGETS = {"cold": 20.0, "warm": 10.0}


# -- the programs: NumPy code as users write it -------------------------------
def kalman(np, dim, steps=40):
    """A constant-velocity Kalman filter over ``steps`` noisy measurements."""
    rng = numpy.random.default_rng(0)
    zs = np.asarray(rng.standard_normal((steps, dim)))
    F = np.eye(dim) + np.diag(np.ones(dim - 1) * 0.1, 1)
    H = np.eye(dim)
    Q = np.eye(dim) * 1e-3
    R = np.eye(dim) * 0.1
    x = np.zeros(dim)
    P = np.eye(dim)
    for z in zs:
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (z - H @ x)
        P = (np.eye(dim) - K @ H) @ P
    return x, P


def derivative(np):
    """Central differences of sin with shrinking steps: the error per step."""
    x = np.linspace(0.0, 2 * np.pi, 64)
    errors = []
    for k in range(1, 13):
        h = 10.0 ** -k
        d = (np.sin(x + h) - np.sin(x - h)) / (2 * h)
        errors.append(np.max(np.abs(d - np.cos(x))))
    best = int(np.argmin(np.array(errors)))
    return np.array(errors), best


def amortization(np, principal=250_000.0, annual=0.05, months=120):
    """A loan's amortization table, filled month by month."""
    rate = annual / 12
    payment = principal * rate / (1 - (1 + rate) ** -months)
    balance = np.zeros(months + 1)
    interest = np.zeros(months)
    balance[0] = principal
    for i in range(months):
        interest[i] = balance[i] * rate
        balance[i + 1] = balance[i] - (payment - interest[i])
    return balance, np.cumsum(interest)


def amortization_jnp(np, principal=250_000.0, annual=0.05, months=120):
    """:func:`amortization` in ``jax.numpy``: writes as ``.at[...].set``."""
    rate = annual / 12
    payment = principal * rate / (1 - (1 + rate) ** -months)
    balance = np.zeros(months + 1)
    interest = np.zeros(months)
    balance = balance.at[0].set(principal)
    for i in range(months):
        interest = interest.at[i].set(balance[i] * rate)
        balance = balance.at[i + 1].set(balance[i] - (payment - interest[i]))
    return balance, np.cumsum(interest)


def escape_time(np, h=60, w=80, maxiter=30):
    """The masked escape-time loop (benchmarks/bench_masks.py)."""
    x = np.asarray(numpy.linspace(-2.0, 0.8, w)).reshape(1, w)
    y = np.asarray(numpy.linspace(-1.4, 1.4, h)).reshape(h, 1)
    c = x + y * 1j
    z = np.zeros(c.shape, dtype=complex)
    n = np.zeros(c.shape, dtype=int) + maxiter
    for i in range(maxiter):
        inside = np.less(abs(z), 2.0)
        n[inside] = i
        z[inside] = z[inside] ** 2 + c[inside]
    return n, z


def escape_time_jnp(np, h=60, w=80, maxiter=30):
    """:func:`escape_time` in ``jax.numpy``: masked writes as ``where``."""
    x = np.asarray(numpy.linspace(-2.0, 0.8, w)).reshape(1, w)
    y = np.asarray(numpy.linspace(-1.4, 1.4, h)).reshape(h, 1)
    c = x + y * 1j
    z = np.zeros(c.shape, dtype=complex)
    n = np.zeros(c.shape, dtype=int) + maxiter
    for i in range(maxiter):
        inside = np.less(abs(z), 2.0)
        n = np.where(inside, i, n)
        z = np.where(inside, z ** 2 + c, z)
    return n, z


def statistics(np):
    """Summary statistics of a small table: moments, z-scores, correlations."""
    data = np.asarray(numpy.random.default_rng(1).normal(10.0, 2.0, (200, 4)))
    mean = data.mean(axis=0)
    std = data.std(axis=0, ddof=1)
    z = (data - mean) / std
    outliers = np.sum(np.abs(z) > 2.5, axis=0)
    corr = np.corrcoef(data, rowvar=False)
    q = np.percentile(data, np.array([5, 50, 95]), axis=0)
    order = np.argsort(data[:, 0])
    top = data[order[-10:]].mean(axis=0)
    return mean, std, outliers, corr, q, top


PROGRAMS = {
    "kalman 2x2, 40 steps": (lambda np: kalman(np, 2), None),
    "kalman 4x4, 40 steps": (lambda np: kalman(np, 4), None),
    "finite differences, 12 steps": (derivative, None),
    "amortization, 120 months": (amortization, amortization_jnp),
    "escape-time 60x80, 30 it": (escape_time, escape_time_jnp),
    "statistics 200x4": (statistics, None),
}


# -- one (program, library) in this process -----------------------------------
_COMPILES = [0]


def _listen():
    import jax

    def listener(event, duration, **kw):
        if event == "/jax/core/compile/backend_compile_duration":
            _COMPILES[0] += 1
    jax.monitoring.register_event_duration_secs_listener(listener)


def _leaves(r):
    if isinstance(r, (tuple, list)):
        for e in r:
            yield from _leaves(e)
    else:
        yield r


def _host(r):
    return [numpy.asarray(a) for a in _leaves(r)]


def _timed(f, np):
    c0, t0 = _COMPILES[0], time.perf_counter()
    r = _host(f(np))        # the results read back: the work is done
    return r, time.perf_counter() - t0, _COMPILES[0] - c0


def measure(name, lib, warm_runs=5):
    """``{import, cold, warm, compiles_cold, compiles_warm, result}`` of one
    program with ``lib`` in this (fresh) process."""
    t0 = time.perf_counter()
    if lib != "numpy":
        _listen()
    np = importlib.import_module(lib)
    t_import = time.perf_counter() - t0
    f, f_jnp = PROGRAMS[name]
    f = f_jnp if lib == "jax.numpy" and f_jnp is not None else f
    res, cold, c_cold = _timed(f, np)
    warm, c_warm = None, 0
    for _ in range(warm_runs):
        _, t, c = _timed(f, np)
        warm, c_warm = t if warm is None else min(warm, t), c_warm + c
    return {"import": t_import, "cold": cold, "warm": warm, "compiles_cold": c_cold,
            "compiles_warm": c_warm, "result": [_plain(a) for a in res]}


def _plain(a):
    """``a`` as JSON: complex numbers as [re, im] pairs."""
    return numpy.stack([a.real, a.imag], -1).tolist() if a.dtype.kind == "c" else a.tolist()


def _child(args, env=None):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, os.path.abspath(__file__)] + args,
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=path, **(env or {})))
    if proc.returncode != 0:
        raise SystemExit(f"bench_first_run.py {' '.join(args)} failed "
                         f"(exit {proc.returncode}):\n{proc.stdout}{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _same(a, b):
    a, b = numpy.asarray(a), numpy.asarray(b)
    return a.shape == b.shape and numpy.allclose(a, b, rtol=1e-12, atol=0, equal_nan=True)


def _ratio(a, b):
    return f"{a / b:4.2f}x" if b else f"{'-':>5s}"


def run(names, warm_runs, env=None, libs=LIBS):
    """Measure every program with each of ``libs`` (fresh processes; NumPy
    and namedarray always) and print the table; returns {program: {lib:
    figures}}."""
    rows = {}
    libs = [lib for lib in LIBS if lib in set(libs) | {"numpy", "namedarray"}]
    for name in names:
        rows[name] = {}
        for lib in libs:
            rows[name][lib] = _child(["--one", name, lib, "--warm-runs", str(warm_runs)], env)
            print(f"  {name}: {lib} measured", file=sys.stderr, flush=True)
        ref, got = rows[name]["numpy"]["result"], rows[name]["namedarray"]["result"]
        if len(ref) != len(got) or not all(_same(a, b) for a, b in zip(ref, got)):
            raise SystemExit(f"{name}: namedarray's result differs from NumPy's")
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    print(f"{'program':28s} {'numpy cold':>10s} {'warm':>7s} | {'jnp cold':>9s} "
          f"{'na cold':>9s} {'/np':>5s} {'/jnp':>5s} | {'jnp warm':>8s} {'na warm':>8s} "
          f"{'/np':>5s} {'/jnp':>5s} | {'compiles jnp':>12s} {'na':>8s}")
    for name, r in rows.items():
        n, a = r["numpy"], r["namedarray"]
        j = r.get("jax.numpy")
        jc, jw, jcc = ((f"{j['cold'] * 1e3:7.1f}ms", f"{j['warm'] * 1e3:6.2f}ms",
                        f"{j['compiles_cold']:5d}+{j['compiles_warm']:<6d}") if j else
                       (f"{'-':>9s}", f"{'-':>8s}", f"{'-':>12s}"))
        print(f"{name:28s} {n['cold'] * 1e3:8.2f}ms {n['warm'] * 1e3:5.2f}ms | "
              f"{jc} {a['cold'] * 1e3:7.1f}ms {a['cold'] / n['cold']:4.0f}x "
              f"{_ratio(a['cold'], j and j['cold'])} | "
              f"{jw} {a['warm'] * 1e3:6.2f}ms {a['warm'] / n['warm']:4.1f}x "
              f"{_ratio(a['warm'], j and j['warm'])} | {jcc}"
              f" {a['compiles_cold']:4d}+{a['compiles_warm']:<3d}")
    imp = {lib: min(r[lib]["import"] for r in rows.values()) for lib in libs}
    print("import (excluded above): " + ", ".join(f"{k} {v * 1e3:.0f}ms" for k, v in imp.items()))
    print(f"cold: first run in a fresh process; warm: best of runs 2-{warm_runs + 1}; "
          "ratios: cold to NumPy's cold, warm to NumPy's warm; compiles: cold run + warm "
          "runs.  Targets: "
          f"cold <= {TARGETS['cold']:.0f}x NumPy and <= jnp, warm <= {TARGETS['warm']:.0f}x")
    return rows


# -- the tiers' per-call costs: the crossover ----------------------------------
CALLS = {
    "x + y (8x16)": "x + y", "linspace(0, 1, 64)": "np.linspace(0.0, 1.0, 64)",
    "eye(4)": "np.eye(4)", "concatenate 2 x 64": "np.concatenate([v, v])",
    "argmin 64": "np.argmin(v)",
}


def calls_one(lib):
    """Per operation of :data:`CALLS`: its first call (compilations included),
    the median of its next 200 calls, and of 200 calls after 3000 more (the
    host tier's budget spent: compiled), in microseconds."""
    _listen()
    np = importlib.import_module(lib)
    rng = numpy.random.default_rng(0)
    env = {"np": np, "x": np.asarray(rng.random((8, 16))), "y": np.asarray(rng.random((8, 16))),
           "v": np.asarray(rng.random(64))}
    out = {}
    for label, expr in CALLS.items():
        code = compile(expr, label, "eval")
        ts = []
        for i in range(3401):
            t0 = time.perf_counter()
            r = eval(code, env)
            numpy.asarray(r)
            ts.append(time.perf_counter() - t0)
        out[label] = [ts[0] * 1e6, float(numpy.median(ts[1:201])) * 1e6,
                      float(numpy.median(ts[3201:])) * 1e6]
    return out


def calls():
    rows = {"numpy": _child(["--calls-one", "numpy"]),
            "jax.numpy": _child(["--calls-one", "jax.numpy"]),
            "namedarray": _child(["--calls-one", "namedarray"]),
            "namedarray, tier off": _child(["--calls-one", "namedarray"],
                                           {"NAMEDARRAY_HOST_TIER": "off"})}
    print(f"load: {os.getloadavg()[0]:.2f} (1 min); microseconds: first call / "
          "median of calls 2-201 / median of calls 3202-3401")
    print(f"{'operation':22s}" + "".join(f" {k:>26s}" for k in rows))
    for label in CALLS:
        print(f"{label:22s}" + "".join(
            " {:>9.0f} {:>7.1f} {:>7.1f} ".format(*rows[k][label]) for k in rows))
    return rows


# -- the host tier's crossover -------------------------------------------------
def crossover():
    """Warm microseconds per call of ``x + y``, ``sin(x)``, ``x.sum()`` and a
    square ``m @ m`` for growing sizes: data living on the host (NumPy's call)
    against the same data on the device (the compiled path)."""
    _listen()
    import jax
    np = importlib.import_module("namedarray")
    rng = numpy.random.default_rng(0)

    def per_call(f, n=300):
        for _ in range(20):
            f()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(n):
                r = f()
            numpy.asarray(r)
            best = min(best, (time.perf_counter() - t0) / n * 1e6)
        return best

    print(f"load: {os.getloadavg()[0]:.2f} (1 min); microseconds per warm call, "
          "host / device")
    for n in (16, 256, 4096, 65536):
        k = int(n ** 0.5)
        h, g, hm = rng.random(n), rng.random(n), rng.random((k, k))
        a, b, m = np.asarray(h), np.asarray(g), np.asarray(hm)
        da, db, dm = (np.asarray(jax.device_put(v)) for v in (h, g, hm))
        cells = [(per_call(lambda: a + b), per_call(lambda: da + db)),
                 (per_call(lambda: np.sin(a)), per_call(lambda: np.sin(da))),
                 (per_call(lambda: a.sum()), per_call(lambda: da.sum())),
                 (per_call(lambda: m @ m), per_call(lambda: dm @ dm))]
        print(f"{n:6d} elements: x + y {cells[0][0]:7.1f} / {cells[0][1]:7.1f}   sin "
              f"{cells[1][0]:7.1f} / {cells[1][1]:7.1f}   sum {cells[2][0]:6.1f} / "
              f"{cells[2][1]:6.1f}   matmul {k}x{k} {cells[3][0]:7.1f} / {cells[3][1]:7.1f}")


# -- NumPy's docstring examples ------------------------------------------------
def _raised(got) -> bool:
    """Whether a failed docstring example's output is an exception (not a
    value printed differently, as ``jax.numpy``'s ``Array(...)`` is)."""
    return got.startswith("Traceback") or re.match(r"^[\w.]*(Error|Exception)\b", got) \
        is not None


def docstrings_one(lib):
    """Seconds to run every collected docstring with ``lib`` (pass or fail)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "tests", "docs"))
    import numpy_docstrings as nd
    docs = nd.docstrings()
    if lib != "numpy":
        _listen()
    t0 = time.perf_counter()
    importlib.import_module(lib)
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    passed, each = 0, {}
    for name, doc in docs:
        t1 = time.perf_counter()
        ok, failed = nd.run(name, doc, lib)
        each[name] = (time.perf_counter() - t1, not any(map(_raised, failed.values())))
        passed += len(ok)
    return {"import": t_import, "time": time.perf_counter() - t0, "docstrings": len(docs),
            "examples_passed": passed, "compiles": _COMPILES[0], "each": each}


def docstrings():
    rows = {lib: _child(["--docstrings-one", lib]) for lib in LIBS}
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    t_np = rows["numpy"]["time"]
    for lib, r in rows.items():
        print(f"{lib:11s} {r['time']:7.2f}s  {r['time'] / t_np:6.1f}x NumPy  "
              f"{r['compiles']:5d} compiles  ({r['docstrings']} docstrings, "
              f"{r['examples_passed']} examples pass)")
    # jax.numpy fails most docstrings early (its first missing name or keyword
    # ends them), so its whole time is not the same work: compare on the
    # docstrings every library runs to the end without an exception (an
    # output printed differently, as jax.numpy's Array(...), still counts)
    each = {lib: r["each"] for lib, r in rows.items()}
    both = [k for k, (_, ok) in each["numpy"].items()
            if ok and each["jax.numpy"].get(k, (0, False))[1]
            and each["namedarray"].get(k, (0, False))[1]]
    t = {lib: sum(each[lib][k][0] for k in both) for lib in LIBS}
    print(f"the {len(both)} docstrings every library runs through: namedarray "
          f"{t['namedarray']:.2f} s, jax.numpy {t['jax.numpy']:.2f} s "
          f"({t['namedarray'] / t['jax.numpy']:.2f}x), NumPy {t['numpy']:.2f} s "
          f"({t['namedarray'] / t['numpy']:.1f}x NumPy).  Targets: <= 20x NumPy, "
          "no slower than jax.numpy")
    return rows


# -- NumPy's own unit tests ----------------------------------------------------
#: the test files timed by default (``--unit-tests all``: the whole set of
#: tests/numpy_suite; a list of paths: those)
UNIT_TEST_FILES = ("lib/tests/test_function_base.py", "lib/tests/test_shape_base.py",
                   "lib/tests/test_twodim_base.py", "lib/tests/test_arraysetops.py",
                   "_core/tests/test_numeric.py", "linalg/tests/test_linalg.py")


def _suite():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "tests", "numpy_suite"))
    import numpy_suite_runner
    return numpy_suite_runner


def unit_tests(files):
    """Time NumPy's own test files (``tests/numpy_suite``'s runner: each
    public name of ``numpy`` served by the library) with NumPy, ``jax.numpy``
    and namedarray, each in its own pytest process, test by test; print the
    totals over the tests each library passes and over those both namedarray
    and ``jax.numpy`` pass, with the XLA compilations of each run."""
    import tempfile
    runner = _suite()
    files = runner.FILES if files == ["all"] else tuple(files or UNIT_TEST_FILES)
    res = {}
    with tempfile.TemporaryDirectory(prefix="bench_unit_") as tmp:
        paths = runner.prepare(tmp, files)
        for lib in LIBS:
            t0 = time.perf_counter()
            env_x64 = os.environ.get("JAX_ENABLE_X64")
            os.environ["JAX_ENABLE_X64"] = "1"      # NumPy's dtypes for jax.numpy too
            try:
                records, _, _ = runner.run(tmp, paths, lib)
            finally:
                if env_x64 is None:
                    del os.environ["JAX_ENABLE_X64"]
            wall = time.perf_counter() - t0
            compiles = 0
            with open(os.path.join(tmp, f"{lib}.jsonl")) as f:
                for line in f:
                    rec = json.loads(line)
                    compiles += rec.get("compiles", 0) if "finished" in rec else 0
            res[lib] = {"wall": wall, "compiles": compiles,
                        "tests": {k: (r["outcome"], r["dur"]) for k, r in records.items()}}
    passed = {lib: {k for k, (o, _) in r["tests"].items() if o == "passed"}
              for lib, r in res.items()}

    def total(lib, keys):
        return sum(res[lib]["tests"][k][1] for k in keys)
    both = passed["namedarray"] & passed["jax.numpy"]
    print(f"load: {os.getloadavg()[0]:.2f} (1 min); {len(files)} files")
    print(f"{'library':11s} {'passed':>7s} {'s, passed':>10s} {'s, all':>8s} "
          f"{'wall s':>7s} {'compiles':>9s}")
    for lib in LIBS:
        r = res[lib]
        print(f"{lib:11s} {len(passed[lib]):7d} {total(lib, passed[lib]):10.1f} "
              f"{total(lib, r['tests']):8.1f} {r['wall']:7.1f} {r['compiles']:9d}")
    na, jn = total("namedarray", both), total("jax.numpy", both)
    common = both & passed["numpy"]
    print(f"the {len(both)} tests namedarray and jax.numpy both pass: namedarray "
          f"{na:.1f} s, jax.numpy {jn:.1f} s ({na / max(jn, 1e-9):.2f}x), NumPy "
          f"{total('numpy', common):.1f} s on {len(common)} of them.  Target: no slower "
          "than jax.numpy")
    return res


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--one", nargs=2, metavar=("PROGRAM", "LIB"))
    p.add_argument("--docstrings-one", metavar="LIB")
    p.add_argument("--docstrings", action="store_true")
    p.add_argument("--calls", action="store_true", help="per-call costs of the tiers")
    p.add_argument("--crossover", action="store_true",
                   help="host against device per size: where the host tier stops")
    p.add_argument("--calls-one", metavar="LIB")
    p.add_argument("--unit-tests", nargs="*", metavar="FILE",
                   help="time NumPy's own test files (default: six of them; 'all')")
    p.add_argument("--quick", action="store_true", help="2 warm runs, not 5")
    p.add_argument("--warm-runs", type=int, default=5)
    p.add_argument("--only", help="the programs whose name contains this")
    p.add_argument("--libs", nargs="+", choices=LIBS, default=LIBS,
                   help="the libraries measured (NumPy and namedarray always)")
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(measure(a.one[0], a.one[1], a.warm_runs)))
    elif a.docstrings_one:
        print(json.dumps(docstrings_one(a.docstrings_one)))
    elif a.calls_one:
        print(json.dumps(calls_one(a.calls_one)))
    elif a.calls:
        calls()
    elif a.crossover:
        crossover()
    elif a.docstrings:
        docstrings()
    elif a.unit_tests is not None:
        unit_tests(a.unit_tests)
    else:
        names = [n for n in PROGRAMS if not a.only or a.only in n]
        run(names, 2 if a.quick else a.warm_runs, libs=a.libs)


if __name__ == "__main__":
    main()

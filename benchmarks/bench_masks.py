"""Data-dependent shapes: boolean-mask programs against NumPy, in one run.

    python benchmarks/bench_masks.py            # 200 x 150 escape-time, 4000 values
    python benchmarks/bench_masks.py --smoke    # tiny sizes (also BENCH_MASKS_SMOKE=1)
    python benchmarks/bench_masks.py --one-process   # both programs in this process

Two NumPy programs run unmodified with ``numpy`` and with ``namedarray`` as
``np``: the escape-time loop (``inside = np.less(abs(z), 2.0); n[inside] = i;
z[inside] = z[inside] ** 2 + c[inside]``, 60 iterations) and the shrinking
loop (``v = v[np.abs(v) < 2.5] * 1.05``, 40 steps).  Each program runs in a
fresh Python process of its own (``--only I``; ``--one-process`` measures both
in this one), so its first run includes every compilation it triggers, as a
user's first run does (import excluded).  Each runs five times; the
table gives the first run (compilations included), the second, and the warm
figure (the best of three more runs) against NumPy's time, the number of XLA
compilations (a ``jax.monitoring`` listener on the backend-compile event), and
the same loop written by hand in eager ``jax.numpy`` (full-size with
``where``).  The results must equal NumPy's
exactly (checked before anything is printed).  Targets: first run <= 150x
NumPy, warm <= 10x, at most 60 compilations for both programs together.

What the figures measure: ``x[mask]`` stays full-size (a selection), and the
elementwise operations on selections are deferred into one expression that
runs as one compiled call cached by its form.  A selection of a selection
(``v[np.abs(v) < 2.5]`` where ``v`` is one) defers its combined mask too, so
the shrinking loop's statements join one expression that evaluates, mask and
buffer together, every few steps (the same form each time); nothing comes to
the host until the result is read, and reading it takes the elements on the
host (no gather to compile on a CPU).  On a CPU, an exact operation
(arithmetic, comparisons, rounding: NumPy's bits are the compiled code's) on
small data runs in NumPy on the host for its first 8 runs on a shape (an eager
call) or its first 8 runs (a deferred program), and compiles when it repeats:
the shrinking loop's first run compiles nothing, and its steady program
compiles in the second run.  An escape-time iteration (complex data, compiled)
costs a few dispatches (``abs``, ``less``, ``n[inside] = i`` and the fused
``z[inside] = ...``); its first run is bounded by compile time, the warm runs
by per-dispatch latency (tens to hundreds of microseconds on a loaded CPU).
On a loaded machine
every ratio is larger; the ``jnp by hand`` column is the same machine's floor
for eager JAX.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy  # noqa: E402

import namedarray  # noqa: E402

TARGETS = {"first": 150.0, "second": 10.0, "compilations": 60}
_COMPILES = [0]


def _listener(event, duration, **kw):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILES[0] += 1


jax.monitoring.register_event_duration_secs_listener(_listener)


def escape_time(np, h, w, maxiter):
    """The escape-time fractal, as a NumPy program writes it."""
    # the grid from NumPy's linspace on both sides (jax's rounds differently)
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


def shrinking(np, size, steps):
    """A working set that shrinks: keep the small values, scale them."""
    v = np.asarray(numpy.random.default_rng(0).standard_normal(size))
    for _ in range(steps):
        v = v[np.abs(v) < 2.5] * 1.05
    return v


def escape_time_jnp(h, w, maxiter):
    """The escape-time loop by hand in eager jax.numpy, full-size with where."""
    c = jnp.asarray(numpy.linspace(-2.0, 0.8, w)[None, :]
                    + numpy.linspace(-1.4, 1.4, h)[:, None] * 1j)
    z = jnp.zeros(c.shape, complex)
    n = jnp.zeros(c.shape, int) + maxiter
    for i in range(maxiter):
        inside = jnp.abs(z) < 2.0
        n = jnp.where(inside, i, n)
        z = jnp.where(inside, z ** 2 + c, z)
    return n, z


def shrinking_jnp(size, steps):
    """The shrinking loop by hand in eager jax.numpy: the mask carried along."""
    v = jnp.asarray(numpy.random.default_rng(0).standard_normal(size))
    m = jnp.ones(v.shape, bool)
    for _ in range(steps):
        m = m & (jnp.abs(v) < 2.5)
        v = v * 1.05
    return numpy.asarray(v)[numpy.asarray(m)]


def _sync(r):
    for a in (r if isinstance(r, tuple) else (r,)):
        numpy.asarray(a)


def _timed(f):
    c0, t0 = _COMPILES[0], time.perf_counter()
    r = f()
    _sync(r)
    return r, time.perf_counter() - t0, _COMPILES[0] - c0


def _programs(smoke):
    if smoke:
        return [("escape-time 20x15, 8 it", lambda np: escape_time(np, 20, 15, 8),
                 lambda: escape_time_jnp(20, 15, 8)),
                ("shrinking 200 values, 8 steps", lambda np: shrinking(np, 200, 8),
                 lambda: shrinking_jnp(200, 8))]
    return [("escape-time 200x150, 60 it", lambda np: escape_time(np, 200, 150, 60),
             lambda: escape_time_jnp(200, 150, 60)),
            ("shrinking 4000 values, 40 steps", lambda np: shrinking(np, 4000, 40),
             lambda: shrinking_jnp(4000, 40))]


def measure(index, smoke=False):
    """One program's row, measured in this process: its first namedarray run is
    the first thing this process compiles when it is called in a fresh one."""
    label, prog, by_hand = _programs(smoke)[index]
    ref, t_np, _ = _timed(lambda: prog(numpy))
    t_np = min(t_np, _timed(lambda: prog(numpy))[1])
    got, t1, c1 = _timed(lambda: prog(namedarray))
    got2, t2, c2 = _timed(lambda: prog(namedarray))
    t3 = None
    for _ in range(3):      # the warm figure: the best of three more runs
        _, t, c = _timed(lambda: prog(namedarray))
        t3, c2 = t if t3 is None else min(t3, t), c2 + c
    for r, g in ((ref, got), (ref, got2)):
        for a, b in zip(r if isinstance(r, tuple) else (r,),
                        g if isinstance(g, tuple) else (g,)):
            b = numpy.asarray(b)
            if a.dtype != b.dtype or a.shape != b.shape or not numpy.array_equal(
                    a, b, equal_nan=True):
                raise SystemExit(f"{label}: namedarray's result differs from NumPy's")
    _timed(by_hand)
    t_jnp = min(_timed(by_hand)[1], _timed(by_hand)[1])
    return (label, t_np, t1, t2, t3, c1 + c2, t_jnp)


def run(smoke=False, fresh=True):
    """Measure both programs and print the table.  With ``fresh`` (the default)
    each program runs in a fresh Python process (``python bench_masks.py
    --only I``), so its first run includes every compilation it triggers, as a
    user's first run does; ``fresh=False`` measures both in this process."""
    rows = []
    for index in range(len(_programs(smoke))):
        if not fresh:
            rows.append(measure(index, smoke))
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "--only", str(index)]
        if smoke:
            cmd.append("--smoke")
        # the child imports the namedarray this process imported
        root = os.path.dirname(os.path.dirname(os.path.abspath(namedarray.__file__)))
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              env=dict(os.environ, BENCH_MASKS_SMOKE="", PYTHONPATH=path))
        if proc.returncode != 0:
            raise SystemExit(f"bench_masks.py --only {index} failed "
                             f"(exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
        rows.append(tuple(json.loads(proc.stdout.strip().splitlines()[-1])))
    print(f"{'program':34s} {'numpy':>9s} {'1st run':>9s} {'ratio':>7s} "
          f"{'2nd run':>9s} {'ratio':>7s} {'warm':>9s} {'ratio':>7s} {'compiles':>8s} "
          f"{'jnp by hand':>12s}")
    for label, t_np, t1, t2, t3, c, t_jnp in rows:
        print(f"{label:34s} {t_np * 1e3:7.2f}ms {t1 * 1e3:7.1f}ms {t1 / t_np:6.1f}x "
              f"{t2 * 1e3:7.1f}ms {t2 / t_np:6.1f}x {t3 * 1e3:7.1f}ms {t3 / t_np:6.1f}x "
              f"{c:8d} {t_jnp / t_np:11.1f}x")
    total = sum(r[5] for r in rows)
    where = "each program in a fresh process" if fresh else "one process"
    print(f"compilations, both programs, five runs ({where}): {total} (target <= "
          f"{TARGETS['compilations']}); targets: first run <= {TARGETS['first']:.0f}x, "
          f"second (warm) <= {TARGETS['second']:.0f}x NumPy")
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true",
                   default=bool(os.environ.get("BENCH_MASKS_SMOKE")),
                   help="tiny sizes (a quick check that the script runs)")
    p.add_argument("--only", type=int, default=None, metavar="I",
                   help="measure program I alone in this process and print its row "
                        "as JSON (what the default run starts a fresh process for)")
    p.add_argument("--one-process", action="store_true",
                   help="measure both programs in this process, one after the other")
    args = p.parse_args(argv)
    if args.only is not None:
        print(json.dumps(measure(args.only, smoke=args.smoke)))
        return 0
    run(smoke=args.smoke, fresh=not args.one_process)
    return 0


if __name__ == "__main__":
    sys.exit(main())

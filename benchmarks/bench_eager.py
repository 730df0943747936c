"""Eager per-op overhead of namedarray against jax.numpy, measured in one run.

    python benchmarks/bench_eager.py [--number N] [--repeat R] [--no-fresh]

For each op, the namedarray call and its hand-written jax.numpy equivalent
run on the same small (8 x 16) float32 arrays; each timing is the median
and the best (min) over R runs of N calls (runs of the two sides alternate),
with block_until_ready on every result.  The ratio is of the medians (and,
in brackets, of the minima, steadier on a loaded machine).

Each row is measured twice: in a fresh Python process that runs only that
row after three warm-up calls (``--row I``; what a short script meets), and
in this process after every row has run (warm caches; the main table).
Then tracing: ``jax.make_jaxpr`` of a fresh function running 50 rounds of
a named program against the same program in jax.numpy (target 1.3x).

Positional ops are NumPy calls on unnamed arrays; named ops use names, and
their jax.numpy equivalent does what the name means on the physical layout
(e.g. ``x + y`` with the same names in another physical order is
``a + b.T``).  Targets (docs/design.md §7): positional <= 1.2x, named <= 1.5x.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import timeit

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as onp  # noqa: E402

import namedarray as na  # noqa: E402

TARGETS = {"positional": 1.2, "named": 1.5, "tracing": 1.3}


def cases():
    """(kind, op, namedarray thunk, jax.numpy thunk, names) for every op.

    ``names``: the order in which to untag the namedarray result so that it
    equals the jax.numpy result (checked before timing).
    """
    rng = onp.random.default_rng(0)
    a_np = rng.standard_normal((8, 16)).astype(onp.float32)
    b_np = rng.standard_normal((8, 16)).astype(onp.float32)
    w_np = rng.standard_normal((16, 8)).astype(onp.float32)
    a, b, w = jnp.asarray(a_np), jnp.asarray(b_np), jnp.asarray(w_np)
    bt = jnp.asarray(b_np.T.copy())                       # b stored as (b, a)

    x, y, m = na.asarray(a_np), na.asarray(b_np), na.asarray(w_np)
    xn = na.NamedArray(a, dims=("a", "b"))                # physical (a, b)
    yn = na.NamedArray(bt, dims=("b", "a"))               # physical (b, a)
    xp = na.NamedArray(a, dims=(None, "b"))               # positional 8, named b
    xb = x.tag("batch", None)                             # a batch of 8 vectors
    idx = 3

    P, N = "positional", "named"
    return [
        (P, "add", lambda: x + y, lambda: a + b, ()),
        (P, "divide", lambda: x / y, lambda: a / b, ()),
        (P, "sum()", lambda: na.sum(x), lambda: jnp.sum(a), ()),
        (P, "sum(axis=1)", lambda: x.sum(axis=1), lambda: jnp.sum(a, axis=1), ()),
        (P, "dot", lambda: na.dot(x, m), lambda: jnp.dot(a, w), ()),
        (P, "getitem", lambda: x[idx], lambda: a[idx], ()),
        (P, "exp", lambda: na.exp(x), lambda: jnp.exp(a), ()),
        (N, "add (other order)", lambda: xn + yn, lambda: a + bt.T, ("a", "b")),
        (N, "mul (other order)", lambda: xn * yn, lambda: a * bt.T, ("a", "b")),
        (N, "sum(axis='b')", lambda: xn.sum(axis="b"), lambda: jnp.sum(a, axis=1), ("a",)),
        (N, "sum(axis='a'), (b,a)", lambda: yn.sum(axis="a"), lambda: jnp.sum(bt, axis=1),
         ("b",)),
        (N, "max(axis='a')", lambda: xn.max(axis="a"), lambda: jnp.max(a, axis=0), ("b",)),
        (N, "mean(axis=('a','b'))", lambda: xn.mean(axis=("a", "b")), lambda: jnp.mean(a),
         ()),
        (N, "dot (named batch)", lambda: na.dot(xb, m), lambda: jnp.dot(a, w), ("batch",)),
        (N, "getitem", lambda: xp[idx], lambda: a[idx], ("b",)),
        (N, "exp", lambda: na.exp(xn), lambda: jnp.exp(a), ("a", "b")),
    ]


def _block(r):
    """Wait for ``r``; a result living on the host is computed already (its
    ``.data`` would make a device copy, which the program does not ask for)."""
    if isinstance(r, na.NamedArray):
        return r if r._host is not None else jax.block_until_ready(r.data)
    return jax.block_until_ready(r)


def measure(f, g, number, repeat, warmup=20):
    """Per-call seconds of ``f`` and ``g``: ((min, median), (min, median)).

    Runs of ``f`` and ``g`` alternate, so both see the same machine load.
    """
    for _ in range(warmup):                               # compile / warm caches
        _block(f())
        _block(g())
    tf = timeit.Timer(lambda: _block(f()))
    tg = timeit.Timer(lambda: _block(g()))
    rf, rg = [], []
    for _ in range(repeat):
        rf.append(tf.timeit(number) / number)
        rg.append(tg.timeit(number) / number)
    return ((min(rf), statistics.median(rf)), (min(rg), statistics.median(rg)))


def check():
    """Both sides of every row compute the same thing."""
    for kind, op, f, g, names in cases():
        r = f().untag(*names)
        onp.testing.assert_allclose(onp.asarray(r), onp.asarray(g()), rtol=1e-5,
                                    err_msg=f"{kind} {op}")


def tracing_cases():
    """(program, named function, plain function, named args, plain args):
    50 rounds each, traced by ``jax.make_jaxpr`` of a fresh function."""
    rng = onp.random.default_rng(1)
    a = jnp.asarray(rng.standard_normal((8, 16)), jnp.float32)
    w = jnp.asarray(rng.standard_normal((16, 16)), jnp.float32)
    x, wn = na.NamedArray(a, ("b", "k")), na.NamedArray(w, ("k", "m"))

    def named_mix(x, wn):
        for _ in range(50):
            h = na.einsum("{b,k},{k,m}->{b,m}", x, wn)
            x = (h + h.sum(axis="b")).rename(m="k")
        return x

    def plain_mix(a, w):
        for _ in range(50):
            h = jnp.einsum("bk,km->bm", a, w)
            a = h + h.sum(axis=0)
        return a

    def named_elementwise(x, wn):
        for _ in range(50):
            h = na.tanh(x * 2.0 + 1.0)
            x = h - h.mean(axis="b")
        return x

    def plain_elementwise(a, w):
        for _ in range(50):
            h = jnp.tanh(a * 2.0 + 1.0)
            a = h - h.mean(axis=0)
        return a
    return [("50x (einsum, sum, add)", named_mix, plain_mix, (x, wn), (a, w)),
            ("50x (mul, add, tanh, mean)", named_elementwise, plain_elementwise, (x, wn),
             (a, w))]


def trace_times(repeat):
    """(program, named median s, plain median s) of interleaved traces."""
    out = []
    for name, fn, fp, an, ap in tracing_cases():
        def once(f, args):
            t = time.perf_counter()
            jax.make_jaxpr(lambda *v: f(*v))(*args)
            return time.perf_counter() - t
        for _ in range(2):
            once(fn, an), once(fp, ap)
        tn, tp = [], []
        for _ in range(repeat):
            tn.append(once(fn, an))
            tp.append(once(fp, ap))
        out.append((name, statistics.median(tn), statistics.median(tp)))
    return out


def fresh_ratios(number, repeat):
    """Each row's median ratio measured in a fresh process of its own."""
    out = []
    for i in range(len(cases())):
        proc = subprocess.run([sys.executable, __file__, "--row", str(i), "--number",
                               str(number), "--repeat", str(repeat)],
                              capture_output=True, text=True, check=True)
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--number", type=int, default=2000, help="calls per run")
    p.add_argument("--repeat", type=int, default=7, help="runs per op")
    p.add_argument("--no-fresh", action="store_true",
                   help="skip the fresh-process measurement of each row")
    p.add_argument("--row", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.row is not None:             # one row in this fresh process
        kind, name, f, g, _ = cases()[args.row]
        (_, fmed), (_, gmed) = measure(f, g, args.number, args.repeat, warmup=3)
        print(json.dumps(fmed / gmed))
        return 0

    check()
    fresh = None if args.no_fresh else fresh_ratios(args.number, args.repeat)
    print(f"namedarray {na.__version__}, jax {jax.__version__}, "
          f"{jax.default_backend()}, dtypes={na.dtype_defaults()}; "
          f"8x16 float32; {args.repeat} runs x {args.number} calls; times in us/call")
    head = (f"{'kind':<11}{'op':<20}{'namedarray':>11}{'(min)':>8}"
            f"{'jax.numpy':>11}{'(min)':>8}{'ratio':>8}{'(min)':>8}{'fresh':>8}"
            f"{'target':>8}")
    print(head)
    print("-" * len(head))
    misses = 0
    for k, (kind, name, f, g, _) in enumerate(cases()):
        (fmin, fmed), (gmin, gmed) = measure(f, g, args.number, args.repeat)
        ratio = fmed / gmed
        target = TARGETS[kind]
        ok = ratio <= target and (fresh is None or fresh[k] <= target)
        misses += not ok
        shown = "-" if fresh is None else f"{fresh[k]:.2f}x"
        print(f"{kind:<11}{name:<20}{fmed * 1e6:>11.2f}{fmin * 1e6:>8.2f}"
              f"{gmed * 1e6:>11.2f}{gmin * 1e6:>8.2f}{ratio:>7.2f}x{fmin / gmin:>7.2f}x"
              f"{shown:>8}{'<=' + str(target):>8}{'' if ok else '  MISS'}")
    print(f"\ntracing (jax.make_jaxpr, median of {args.repeat} interleaved traces; ms)")
    for name, tn, tp in trace_times(args.repeat):
        ratio = tn / tp
        ok = ratio <= TARGETS["tracing"]
        misses += not ok
        print(f"{'tracing':<11}{name:<28}{tn * 1e3:>8.2f}{tp * 1e3:>11.2f}{ratio:>8.2f}x"
              f"{'<=' + str(TARGETS['tracing']):>8}{'' if ok else '  MISS'}")
    print(f"\n{misses} op(s) miss the target" if misses else "\nall ops within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())

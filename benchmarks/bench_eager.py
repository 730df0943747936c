"""Eager per-op overhead of namedarray against jax.numpy, measured in one run.

    python benchmarks/bench_eager.py [--number N] [--repeat R]

For each op, the namedarray call and its hand-written jax.numpy equivalent
run on the same small (8 x 16) float32 arrays; each timing is the median
and the best (min) over R runs of N calls (runs of the two sides alternate),
with block_until_ready on every result.  The ratio is of the medians (and,
in brackets, of the minima, steadier on a loaded machine).

Positional ops are NumPy calls on unnamed arrays; named ops use names, and
their jax.numpy equivalent does what the name means on the physical layout
(e.g. ``x + y`` with the same names in another physical order is
``a + b.T``).  Targets (DESIGN.md section 7): positional <= 1.2x, named <= 1.5x.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import timeit

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as onp  # noqa: E402

import namedarray as na  # noqa: E402

TARGETS = {"positional": 1.2, "named": 1.5}


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
    return jax.block_until_ready(r.data if isinstance(r, na.NamedArray) else r)


def measure(f, g, number, repeat):
    """Per-call seconds of ``f`` and ``g``: ((min, median), (min, median)).

    Runs of ``f`` and ``g`` alternate, so both see the same machine load.
    """
    for _ in range(20):                                   # compile / warm caches
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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--number", type=int, default=2000, help="calls per run")
    p.add_argument("--repeat", type=int, default=7, help="runs per op")
    args = p.parse_args(argv)

    check()
    print(f"namedarray {na.__version__}, jax {jax.__version__}, "
          f"{jax.default_backend()}, dtypes={na.dtype_defaults()}; "
          f"8x16 float32; {args.repeat} runs x {args.number} calls; times in us/call")
    head = (f"{'kind':<11}{'op':<20}{'namedarray':>11}{'(min)':>8}"
            f"{'jax.numpy':>11}{'(min)':>8}{'ratio':>8}{'(min)':>8}{'target':>8}")
    print(head)
    print("-" * len(head))
    misses = 0
    for kind, name, f, g, _ in cases():
        (fmin, fmed), (gmin, gmed) = measure(f, g, args.number, args.repeat)
        ratio = fmed / gmed
        target = TARGETS[kind]
        ok = ratio <= target
        misses += not ok
        print(f"{kind:<11}{name:<20}{fmed * 1e6:>11.2f}{fmin * 1e6:>8.2f}"
              f"{gmed * 1e6:>11.2f}{gmin * 1e6:>8.2f}{ratio:>7.2f}x{fmin / gmin:>7.2f}x"
              f"{'<=' + str(target):>8}{'' if ok else '  MISS'}")
    print(f"\n{misses} op(s) miss the target" if misses else "\nall ops within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())

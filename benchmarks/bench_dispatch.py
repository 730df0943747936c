"""Per-call cost of a jitted step whose arguments are NamedArray pytrees,
against the same step on jax.Arrays.

    python benchmarks/bench_dispatch.py [--leaves 24 200] [--shape 4,4]
                                        [--repeat R] [--number N]

The step is an SGD-with-momentum update of a dict of parameters and a dict
of momenta (half the leaves each), ``jax.jit``-ed once per pair: every call
flattens its arguments and unflattens its results, which is the whole
difference between the two (a registered pytree node runs Python per leaf,
a ``jax.Array`` none).  With tiny arrays (the default ``4,4``) the step's
own work is nothing and dispatch is all that is timed; on an accelerator
pass the shapes of a real model (``--shape 512,512``).

For each leaf count it prints the median time per call of interleaved
rounds (each round ``--number`` calls, results ``block_until_ready``-ed):
plain jax.Arrays, NamedArrays, and, for scale, the same tree of a minimal
registered node (a two-slot class whose flatten and unflatten are one line
each), which is the least any Python pytree node costs here; the ratios to
plain; and the number of traces of each step (1: no call retraces).  Each
is given twice: wall time, and the CPU time of the calling thread (the
dispatch itself: steadier than wall time on a loaded machine, where the
runtime's threads wait for a core).
Target (issue 50 item 4): NamedArray <= 1.05x plain at 24 and 200 leaves.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as onp  # noqa: E402

import namedarray as na  # noqa: E402


class Node:
    """The floor: the cheapest pytree node a Python class can be."""
    __slots__ = ("data", "aux")


def _node(data, aux):
    x = object.__new__(Node)
    x.data, x.aux = data, aux
    return x


jax.tree_util.register_pytree_node(Node, lambda x: ((x.data,), x.aux),
                                   lambda aux, c: _node(c[0], aux))

NAMES = ("row", "col", "depth", "extra")


def trees(leaves, shape, seed=0):
    """The three spellings of one (params, momenta) pair of dicts."""
    rng = onp.random.default_rng(seed)
    half = leaves // 2
    dims = NAMES[:len(shape)]
    plain = tuple({f"w{i}": jnp.asarray(rng.standard_normal(shape).astype(onp.float32))
                   for i in range(half)} for _ in range(2))
    named = tuple({k: na.NamedArray(v, dims) for k, v in t.items()} for t in plain)
    node = tuple({k: _node(v, (dims, ())) for k, v in t.items()} for t in plain)
    return {"plain": plain, "NamedArray": named, "minimal node": node}


def update(p, m):
    """SGD with momentum on dicts of arrays (jax.Arrays or NamedArrays)."""
    m = {k: 0.9 * m[k] + p[k] for k in m}
    return {k: p[k] - 0.01 * m[k] for k in p}, m


def make_step(traces, key):
    def step(p, m):
        traces[key] += 1
        return update(p, m)

    def step_node(p, m):    # the minimal node has no arithmetic: its data updated
        traces[key] += 1
        q, n = update({k: v.data for k, v in p.items()}, {k: v.data for k, v in m.items()})
        return ({k: _node(v, p[k].aux) for k, v in q.items()},
                {k: _node(v, m[k].aux) for k, v in n.items()})
    return jax.jit(step_node if key == "minimal node" else step)


def run(leaves, shape, repeat, number):
    args = trees(leaves, shape)
    traces = dict.fromkeys(args, 0)
    steps = {k: make_step(traces, k) for k in args}
    state = dict(args)
    for k in steps:                 # compile, and check the answers agree
        state[k] = steps[k](*state[k])
    ref = jax.tree_util.tree_leaves(state["plain"])
    for k in steps:
        got = [getattr(v, "data", v) for v in jax.tree_util.tree_leaves(
            state[k], is_leaf=lambda v: isinstance(v, (na.NamedArray, Node)))]
        assert all(bool(jnp.array_equal(a, b)) for a, b in zip(ref, got)), k
    wall, cpu = {k: [] for k in steps}, {k: [] for k in steps}
    for _ in range(repeat):
        for k, f in steps.items():
            s = state[k]
            t, c = time.perf_counter(), time.thread_time()
            for _ in range(number):
                s = f(*s)
            jax.block_until_ready(s)
            wall[k].append((time.perf_counter() - t) / number)
            cpu[k].append((time.thread_time() - c) / number)
            state[k] = s
    return ({k: statistics.median(v) for k, v in wall.items()},
            {k: statistics.median(v) for k, v in cpu.items()}, traces)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--leaves", type=int, nargs="+", default=[24, 200])
    ap.add_argument("--shape", default="4,4")
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--number", type=int, default=200)
    a = ap.parse_args(argv)
    shape = tuple(int(s) for s in a.shape.split(","))
    print(f"namedarray {na.__file__}, jax {jax.__version__}, {jax.devices()[0].platform}; "
          f"leaves of shape {shape} float32; median of {a.repeat} rounds x {a.number} calls")
    print(f"{'leaves':>6} {'time':>11} {'plain us':>9} {'NamedArray us':>14} {'ratio':>6} "
          f"{'minimal node us':>16} {'ratio':>6}  traces")
    for n in a.leaves:
        wall, cpu, traces = run(n, shape, a.repeat, a.number)
        for what, t in (("wall", wall), ("calling CPU", cpu)):
            p = t["plain"]
            print(f"{n:>6} {what:>11} {p * 1e6:>9.1f} {t['NamedArray'] * 1e6:>14.1f} "
                  f"{t['NamedArray'] / p:>6.3f} {t['minimal node'] * 1e6:>16.1f} "
                  f"{t['minimal node'] / p:>6.3f}  {traces if what == 'wall' else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Named random draws against jax.random on the same physical shape, in one run.

    python benchmarks/bench_random.py [--repeat R] [--number N]

Six dropout layers (keep-mask from a uniform draw, rescale, tanh) on an
activation of 8 x 64 x 128 float32 values: the namedarray program draws each
mask with ``rng.random(size=x.named_shape)`` from ``default_rng(key)`` on an
array named ``("batch", "seq", "embed")``; the plain program splits the key
and calls ``jax.random.uniform`` on the same shape.  Three placements of the
named program: unmapped, inside ``nmap(axes="batch")`` and inside ``nmap``
with every name mapped (each instance keeps its slice of the physical draw).

For each it prints the median step time (runs of the two sides alternate,
results ``block_until_ready``-ed) and the median trace+compile time (a fresh
``jax.jit`` lowered and compiled each repeat), and the ratios to jax.random.
It first checks that every placement gives the unmapped named result.
Target (docs/design.md §7): both ratios <= 1.2.

Then draws whose parameters are arrays (issue #38): the same layers with
the mask drawn as ``rng.uniform(np.zeros_like(x), 1.0) >= rate`` and a noise
layer ``rng.normal(x)``, named and positional, against ``jax.random`` on
the same shape (with JAX's dtype defaults: float32 draws); and inside ``nmap(mesh=..., axis_resources={"batch":
"data"})`` on 8 CPU devices against the hand-written ``shard_map`` that
draws each device's shard with ``jax.random`` (step time ratios).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                           + " --xla_force_host_platform_device_count=8").strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as onp  # noqa: E402

import namedarray as na  # noqa: E402

SHAPE = {"batch": 8, "seq": 64, "embed": 128}
RATE = 0.1
LAYERS = 6


def named_layers(key, x):
    rng = na.random.default_rng(key)
    for _ in range(LAYERS):
        keep = rng.random(size=x.named_shape, dtype=onp.float32) >= RATE
        x = na.tanh(na.where(keep, x / (1 - RATE), 0.0))
    return x


def plain_layers(key, a):
    for _ in range(LAYERS):
        key, sub = jax.random.split(key)
        keep = jax.random.uniform(sub, a.shape, jnp.float32) >= RATE
        a = jnp.tanh(jnp.where(keep, a / (1 - RATE), 0.0))
    return a


def programs():
    """name -> (function of (key, x), its input)."""
    a = jnp.asarray(onp.random.default_rng(0).standard_normal(tuple(SHAPE.values())),
                    jnp.float32)
    x = na.NamedArray(a, dims=tuple(SHAPE))
    return {
        "jax.random": (lambda k, v: plain_layers(k, v), a),
        "named": (lambda k, v: named_layers(k, v).untag(*SHAPE).data, x),
        "nmap(axes='batch')": (
            lambda k, v: na.nmap(lambda w: named_layers(k, w), axes="batch")(v)
            .untag(*SHAPE).data, x),
        "nmap (every name)": (
            lambda k, v: na.nmap(lambda w: named_layers(k, w))(v).untag(*SHAPE).data, x),
    }


def param_layers(key, x):
    """Dropout with the mask drawn from an array parameter, then noise around x."""
    rng = na.random.default_rng(key)
    for _ in range(LAYERS):
        keep = rng.uniform(na.zeros_like(x), 1.0) >= RATE
        x = na.tanh(na.where(keep, x / (1 - RATE), 0.0))
    return rng.normal(x)


def plain_param_layers(key, a):
    for _ in range(LAYERS):
        key, sub = jax.random.split(key)
        keep = jax.random.uniform(sub, a.shape, a.dtype) >= RATE
        a = jnp.tanh(jnp.where(keep, a / (1 - RATE), 0.0))
    return a + jax.random.normal(jax.random.split(key)[1], a.shape, a.dtype)


def param_programs():
    """name -> (named program, its input, the jax.random program, its input)."""
    from jax.sharding import PartitionSpec as P
    mesh = jax.make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
    a = jnp.asarray(onp.random.default_rng(0).standard_normal(tuple(SHAPE.values())),
                    jnp.float32)
    x = na.NamedArray(a, dims=tuple(SHAPE))

    def shard_mapped(k, v):
        body = lambda w: plain_param_layers(   # noqa: E731
            jax.random.fold_in(k, jax.lax.axis_index("data")), w)
        return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(v)

    return {
        "named": (lambda k, v: param_layers(k, v).untag(*SHAPE).data, x,
                  plain_param_layers, a),
        "positional": (lambda k, v: param_layers(k, na.asarray(v)).data, a,
                       plain_param_layers, a),
        "nmap(mesh) vs shard_map": (
            lambda k, v: na.nmap(lambda w: param_layers(k, w), axes="batch", mesh=mesh,
                                 axis_resources={"batch": "data"})(v).untag(*SHAPE).data,
            x, shard_mapped, a),
    }


def compile_time(f, key, x):
    t = time.perf_counter()
    jax.jit(lambda k, v: f(k, v)).lower(key, x).compile()
    return time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--number", type=int, default=20)
    args = ap.parse_args(argv)
    key = jax.random.key(0)
    progs = programs()
    jitted = {n: jax.jit(f) for n, (f, _) in progs.items()}
    want = onp.asarray(jitted["named"](key, progs["named"][1]))
    for n, f in jitted.items():
        got = onp.asarray(f(key, progs[n][1]))
        if n != "jax.random":
            onp.testing.assert_allclose(got, want, rtol=1e-6, err_msg=n)
    run = {n: [] for n in progs}
    comp = {n: [] for n in progs}
    for _ in range(args.repeat):
        for n, f in jitted.items():
            x = progs[n][1]
            t = time.perf_counter()
            for _ in range(args.number):
                r = f(key, x)
            jax.block_until_ready(r)
            run[n].append((time.perf_counter() - t) / args.number)
            comp[n].append(compile_time(progs[n][0], key, x))
    base_r = statistics.median(run["jax.random"])
    base_c = statistics.median(comp["jax.random"])
    print(f"{LAYERS} dropout layers on {SHAPE} float32; median of {args.repeat} runs "
          f"x {args.number} steps")
    print(f"{'program':<22}{'step ms':>10}{'ratio':>8}{'compile ms':>12}{'ratio':>8}")
    for n in progs:
        r, c = statistics.median(run[n]), statistics.median(comp[n])
        print(f"{n:<22}{r * 1e3:>10.3f}{r / base_r:>8.2f}{c * 1e3:>12.1f}{c / base_c:>8.2f}")
    print(f"\narray parameters (uniform(zeros_like(x), 1.0), normal(x)); step ratio to "
          "jax.random, median of the ratios of alternating runs")
    na.set_dtype_defaults("jax")   # float32 draws from float32 parameters, as jax.random's
    for n, (f, x, g, a) in param_programs().items():
        f, g = jax.jit(f), jax.jit(g)
        jax.block_until_ready((f(key, x), g(key, a)))
        ratios = []
        for _ in range(args.repeat):
            t = []
            for h, v in ((f, x), (g, a)):
                s = time.perf_counter()
                for _ in range(args.number):
                    r = h(key, v)
                jax.block_until_ready(r)
                t.append(time.perf_counter() - s)
            ratios.append(t[0] / t[1])
        print(f"{n:<26}{statistics.median(ratios):>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""nmap's default (every name mapped) against axes="batch" on one model step.

    python benchmarks/bench_nmap.py [--repeat R] [--number N]

A two-layer MLP block with layer norm and a residual on activations named
``("batch", "seq", "embed")`` (8 x 64 x 128, float32), hidden size 256, mean
squared loss, gradients of the parameters and an SGD update, all inside
``nmap`` under ``jax.jit``: once with ``axes="batch"`` (the other names stay
ordinary named axes inside) and once with the default, every name mapped.
Both must give the same loss.  Prints the median step time of each (runs
alternate, results ``block_until_ready``-ed), their ratio, and the number of
``dot`` ops in each optimized HLO (mapping a contracted name turns a
``dot_general`` into a multiply and a reduction over the mapped axis).
Target (issue 23 item 5): ratio <= 1.05.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import numpy as onp  # noqa: E402

import namedarray as na  # noqa: E402

B, S, E, H = 8, 64, 128, 256


def block(p, x):
    h = x - x.mean(axis="embed")
    h = h / na.sqrt((h * h).mean(axis="embed") + 1e-5)
    u = na.einsum("{batch,seq,embed},{embed,hidden}->{batch,seq,hidden}", h, p["w1"])
    u = na.tanh(u + p["b1"])
    return x + na.einsum("{batch,seq,hidden},{hidden,embed}->{batch,seq,embed}", u, p["w2"])


def step(p, x, y):
    def loss(p):
        d = block(p, x) - y
        return (d * d).mean(axis=("batch", "seq", "embed"))
    val, g = na.value_and_grad(loss)(p)
    return val, {k: p[k] - 0.01 * g[k] for k in p}


def inputs():
    rng = onp.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(onp.float32) / s[0] ** 0.5  # noqa: E731
    p = {"w1": na.NamedArray(f(E, H), ("embed", "hidden")),
         "b1": na.NamedArray(f(H), ("hidden",)),
         "w2": na.NamedArray(f(H, E), ("hidden", "embed"))}
    x = na.NamedArray(f(B, S, E), ("batch", "seq", "embed"))
    y = na.NamedArray(f(B, S, E), ("batch", "seq", "embed"))
    return p, x, y


def forward(p, x, y):
    d = block(p, x) - y
    return (d * d).mean(axis=("batch", "seq", "embed")), p


def programs():
    return {"axes='batch'": jax.jit(na.nmap(step, axes="batch")),
            "default (every name)": jax.jit(na.nmap(step)),
            "forward, axes='batch'": jax.jit(na.nmap(forward, axes="batch")),
            "forward, default": jax.jit(na.nmap(forward))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--number", type=int, default=20)
    args = ap.parse_args(argv)
    p, x, y = inputs()
    progs = programs()
    losses = {n: float(f(p, x, y)[0]) for n, f in progs.items()}
    ref = next(iter(losses.values()))
    for n, v in losses.items():   # (the forward loss is the step's too)
        assert abs(v - ref) <= 1e-5 * abs(ref), (n, v, ref)
    times = {n: [] for n in progs}
    for _ in range(args.repeat):
        for n, f in progs.items():
            t = time.perf_counter()
            for _ in range(args.number):
                r = f(p, x, y)
            jax.block_until_ready(r)
            times[n].append((time.perf_counter() - t) / args.number)
    base = statistics.median(times["axes='batch'"])
    print(f"MLP block step on batch {B}, seq {S}, embed {E}, hidden {H} (float32); "
          f"median of {args.repeat} runs x {args.number} steps; loss {ref:.6f}")
    print(f"{'nmap':<24}{'step ms':>10}{'ratio':>8}{'dots':>6}{'transposes':>12}")
    for n, f in progs.items():
        hlo = f.lower(p, x, y).compile().as_text()
        dots = len(re.findall(r"\bdot\(", hlo))
        tr = len(re.findall(r"\btranspose\(", hlo))
        m = statistics.median(times[n])
        base = statistics.median(times["forward, axes='batch'" if "forward" in n
                                       else "axes='batch'"])
        print(f"{n:<24}{m * 1e3:>10.3f}{m / base:>8.2f}{dots:>6}{tr:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

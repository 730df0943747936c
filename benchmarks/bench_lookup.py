"""The gradient of an embedding lookup in each spelling namedarray offers,
against ``jnp.take``'s: jitted, warm, on whatever backend JAX picks (the CPU,
or the accelerator where there is one).

    python benchmarks/bench_lookup.py [--quick] [--rounds R] [--calls N]

The loss is ``sum(lookup(emb, tokens) ** 2)``, its gradient taken with respect
to the table ``emb`` (V 1024, D 512, float32; tokens 16 x 256, int32): the
gather forward and the scatter-add of the gradient.  For each spelling the
script prints the median time per call, the ratio to ``jnp.take``'s (the
median of R interleaved rounds' ratios, each round N calls of every spelling,
the order rotating; with the quartiles, and the ratio of the best rounds,
steadier on a loaded machine), and the count of ``while`` loops,
gathers, scatters, transposes and copies in its optimized HLO, and which
``jax.numpy`` spelling's instructions (opcode, shape, attributes) that HLO has,
if any (``jnp.take``'s default mode fills out-of-range rows: its program
differs from ``emb[t]``'s).  A scatter XLA
cannot emit natively becomes a ``while`` loop on a TPU (one iteration per
token); the CPU emits it natively, so only the accelerator shows that cost.

To compare two versions of the library, run the script once per tree, the
same command with ``PYTHONPATH`` pointing at each (the first line says which
``namedarray`` was imported):

    for t in OLD_TREE .; do PYTHONPATH=$t python benchmarks/bench_lookup.py; done

``--quick`` (5 rounds of 5 calls) runs in well under a minute.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

import jax
import jax.numpy as jnp
import numpy as onp

import namedarray as np

V, D, BATCH, SEQ = 1024, 512, 16, 256
OPS = ("while", "gather", "scatter", "transpose", "copy")


def _named(e):
    return np.NamedArray(e, ("vocab", "embed"))


def _tokens(t):
    return np.NamedArray(t, ("batch", "seq"))


# spelling -> the lookup as a function of the raw table and tokens (the
# result's data laid out (batch, seq, embed), as jnp.take's)
SPELLINGS = {
    "jnp.take(emb, t, axis=0)": lambda e, t: jnp.take(e, t, axis=0),
    "jnp emb[t]": lambda e, t: e[t],
    'emb.untag("vocab")[t]': lambda e, t: _named(e).untag("vocab")[_tokens(t)].data,
    'emb.untag("vocab")[t.data]': lambda e, t: _named(e).untag("vocab")[t].data,
    'emb[{"vocab": t}]': lambda e, t: _named(e)[{"vocab": _tokens(t)}].data,
    'np.take(emb.untag("vocab"), t, axis=0)': lambda e, t: np.take(
        _named(e).untag("vocab"), _tokens(t), axis=0).data,
}
REFERENCE = "jnp.take(emb, t, axis=0)"
JNP = (REFERENCE, "jnp emb[t]")      # (take's default mode fills out-of-range rows)


def gradient(lookup):
    return jax.jit(jax.grad(lambda e, t: jnp.sum(jnp.square(lookup(e, t)))))


_INSTR = re.compile(r"^\s*(?:ROOT\s+)?\S+\s*=\s*(\S+)\s+([\w-]+)\(.*?\)(?:,\s*(.*))?$", re.M)
_NOISE = re.compile(r",?\s*(?:metadata|to_apply|calls|backend_config|frontend_attributes)="
                    r"(?:\{[^{}]*\}|\S+)")


def instructions(f, *args) -> list:
    """The optimized HLO of ``f`` as a sorted list of (opcode, shape, attributes),
    without instruction names and metadata."""
    text = f.lower(*args).compile().as_text()
    return sorted((op, shape, _NOISE.sub("", attrs)) for shape, op, attrs in
                  _INSTR.findall(text))


def counts(instrs) -> dict:
    """Instructions of each opcode of ``OPS``."""
    return {op: sum(1 for i in instrs if i[0] == op) for op in OPS}


def _differ(a, b) -> list:
    """The instructions of ``a`` not in ``b`` and of ``b`` not in ``a`` (multisets)."""
    rest = list(b)
    extra = []
    for i in a:
        if i in rest:
            rest.remove(i)
        else:
            extra.append(i)
    return extra + rest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=21, help="interleaved timed rounds")
    ap.add_argument("--calls", type=int, default=20, help="calls per spelling per round")
    ap.add_argument("--quick", action="store_true", help="5 rounds of 5 calls")
    a = ap.parse_args(argv)
    if a.quick:
        a.rounds, a.calls = 5, 5
    rng = onp.random.default_rng(0)
    emb = jnp.asarray(rng.standard_normal((V, D)), jnp.float32)
    tok = jnp.asarray(rng.integers(0, V, (BATCH, SEQ)), jnp.int32)
    print(f"namedarray {np.__file__}; jax {jax.__version__}, {jax.devices()[0].device_kind}")
    print(f"gradient of sum(lookup ** 2) w.r.t. the table: V {V}, D {D}, tokens "
          f"{BATCH}x{SEQ}, float32; {a.rounds} rounds of {a.calls} calls")
    fns = {k: gradient(f) for k, f in SPELLINGS.items()}
    want = onp.asarray(fns[REFERENCE](emb, tok))
    hlo = {}
    for k, f in fns.items():
        onp.testing.assert_allclose(onp.asarray(f(emb, tok)), want, rtol=1e-5, atol=1e-5)
        hlo[k] = instructions(f, emb, tok)
        jax.block_until_ready(f(emb, tok))
    names = list(fns)
    times = {k: [] for k in names}
    for i in range(a.rounds):
        for k in names[i % len(names):] + names[:i % len(names)]:
            f = fns[k]
            t0 = time.perf_counter()
            for _ in range(a.calls):
                g = f(emb, tok)
            jax.block_until_ready(g)
            times[k].append((time.perf_counter() - t0) / a.calls)
    width = max(map(len, names))
    print(f"{'spelling':{width}}  {'time':>10}  {'ratio':>6}  {'quartiles':>11}  "
          f"{'best':>5}  HLO")
    for k in names:
        rs = sorted(t / r for t, r in zip(times[k], times[REFERENCE]))
        q = statistics.quantiles(rs, n=4) if len(rs) > 1 else rs * 3
        c = " ".join(f"{op} {n}" for op, n in counts(hlo[k]).items())
        same = [j for j in JNP if hlo[k] == hlo[j]]
        c += f"  HLO of {same[0]}" if same else "  HLO differs from " + ", ".join(
            f"{j}'s in {len(_differ(hlo[k], hlo[j]))}" for j in JNP)
        print(f"{k:{width}}  {statistics.median(times[k]) * 1e3:7.3f} ms  "
              f"{statistics.median(rs):6.2f}  {q[0]:5.2f}-{q[-1]:5.2f}  "
              f"{min(times[k]) / min(times[REFERENCE]):5.2f}  {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

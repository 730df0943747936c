"""A small decoder-only transformer written with named axes and with plain
jax.numpy: the same model, init and data, optax Adam, under jax.jit.

    python benchmarks/bench_model.py [--steps N] [--repeat R]

Both training steps are compiled from the same parameters; the script prints

- the float32 losses of both over the first steps (they must agree to 1e-6);
- the per-step time of each and the ratio named / plain (target <= 1.03): R
  rounds, each one short run of N steps of both (the order alternating); the
  ratio is the median of the rounds' ratios, with their quartiles (the spread);
- the trace + compile time of each and the ratio (target <= 1.1), the same
  way over rounds of fresh compiles;
- the transposes and copies in the optimized HLO of each step (target: the
  named step has at most 10% more than the plain one).

Model: 2 layers, d_model 128, 4 heads of 32, MLP 512, sequence 64, batch 8,
vocabulary 256; pre-RMSNorm, causal softmax attention, GELU MLP, next-token
cross-entropy.  ``tests/frontend/test_bench_model.py`` runs it for 2 steps.
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
import jax.numpy as jnp  # noqa: E402
import numpy as onp  # noqa: E402
import optax  # noqa: E402

import namedarray as na  # noqa: E402

CONFIG = dict(layers=2, d_model=128, heads=4, mlp=512, seq=64, batch=8, vocab=256)
TARGETS = {"step": 1.03, "compile": 1.1, "transposes+copies": 1.10}
F32 = jnp.float32


# --------------------------------------------------------------------------
# parameters and data (shared: the named model tags the same arrays)
# --------------------------------------------------------------------------
def init_plain(key, c=CONFIG):
    """Plain parameters: a dict of float32 jax arrays."""
    D, H, M, V, S = c["d_model"], c["heads"], c["mlp"], c["vocab"], c["seq"]
    K = D // H
    keys = iter(jax.random.split(key, 4 + 6 * c["layers"]))

    def normal(shape, scale):
        return jax.random.normal(next(keys), shape, F32) * F32(scale)
    p = {"embed": normal((V, D), 0.02), "pos": normal((S, D), 0.02),
         "final_norm": jnp.ones((D,), F32), "unembed": normal((D, V), D ** -0.5)}
    for i in range(c["layers"]):
        p[f"layer{i}"] = {
            "norm1": jnp.ones((D,), F32), "norm2": jnp.ones((D,), F32),
            "wq": normal((D, H, K), D ** -0.5), "wk": normal((D, H, K), D ** -0.5),
            "wv": normal((D, H, K), D ** -0.5), "wo": normal((H, K, D), D ** -0.5),
            "w1": normal((D, M), D ** -0.5), "w2": normal((M, D), M ** -0.5)}
    return p


#: the names of each parameter's axes
NAMES = {"embed": ("vocab", "embed"), "pos": ("seq", "embed"), "final_norm": ("embed",),
         "unembed": ("embed", "vocab"), "norm1": ("embed",), "norm2": ("embed",),
         "wq": ("embed", "head", "kv"), "wk": ("embed", "head", "kv"),
         "wv": ("embed", "head", "kv"), "wo": ("head", "kv", "embed"),
         "w1": ("embed", "mlp"), "w2": ("mlp", "embed")}


def to_named(p):
    """The plain parameters with their axes named (same data)."""
    return {k: to_named(v) if isinstance(v, dict) else na.asarray(v).tag(*NAMES[k])
            for k, v in p.items()}


def batch(key, c=CONFIG):
    """Token ids (batch, seq + 1): inputs and next-token targets."""
    return jax.random.randint(key, (c["batch"], c["seq"] + 1), 0, c["vocab"], jnp.int32)


# --------------------------------------------------------------------------
# the plain jax.numpy model
# --------------------------------------------------------------------------
# both models spell out the same formulas (RMSNorm, softmax, tanh GELU), with
# Python-float constants (weakly typed: float32 stays float32)
C_GELU = (2 / onp.pi) ** 0.5


def rms_plain(x, scale):
    return x / jnp.sqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * scale


def softmax_plain(x, axis):
    e = jnp.exp(x - jnp.max(x, axis=axis, keepdims=True))
    return e / jnp.sum(e, axis=axis, keepdims=True)


def gelu_plain(x):
    return x * (0.5 * (1.0 + jnp.tanh(C_GELU * (x + 0.044715 * (x * x * x)))))


def loss_plain(p, tokens):
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    S = inputs.shape[1]
    x = p["embed"][inputs] + p["pos"]                              # (b, s, d)
    causal = jnp.tril(jnp.ones((S, S), bool))
    for i in range(CONFIG["layers"]):
        w = p[f"layer{i}"]
        h = rms_plain(x, w["norm1"])
        q = jnp.einsum("bsd,dhk->bshk", h, w["wq"])
        k = jnp.einsum("bsd,dhk->bshk", h, w["wk"])
        v = jnp.einsum("bsd,dhk->bshk", h, w["wv"])
        att = jnp.einsum("bqhk,bshk->bhqs", q, k) / q.shape[-1] ** 0.5
        att = jnp.where(causal, att, -1e9)
        att = softmax_plain(att, axis=-1)
        o = jnp.einsum("bhqs,bshk->bqhk", att, v)
        x = x + jnp.einsum("bqhk,hkd->bqd", o, w["wo"])
        h = rms_plain(x, w["norm2"])
        x = x + gelu_plain(h @ w["w1"]) @ w["w2"]
    logits = rms_plain(x, p["final_norm"]) @ p["unembed"]          # (b, s, v)
    logp = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
    onehot = targets[..., None] == jnp.arange(logits.shape[-1])
    return -jnp.mean(jnp.sum(jnp.where(onehot, logp, 0.0), axis=-1))


# --------------------------------------------------------------------------
# the same model with named axes
# --------------------------------------------------------------------------
def rms_named(x, scale):
    return x / na.sqrt((x * x).mean(axis="embed") + 1e-6) * scale


def softmax_named(x, axis):
    e = na.exp(x - x.max(axis=axis))
    return e / e.sum(axis=axis)


def gelu_named(x):
    return x * (0.5 * (1.0 + na.tanh(C_GELU * (x + 0.044715 * (x * x * x)))))


def loss_named(p, tokens):
    """``tokens``: a NamedArray with names ("batch", "seq") of length seq + 1."""
    inputs = tokens[{"seq": slice(0, -1)}]
    targets = tokens[{"seq": slice(1, None)}]
    S = inputs.named_shape["seq"]
    x = p["embed"][{"vocab": inputs}] + p["pos"]
    key = na.arange(S).tag("key")
    causal = na.arange(S).tag("seq") >= key
    for i in range(CONFIG["layers"]):
        w = p[f"layer{i}"]
        h = rms_named(x, w["norm1"])
        q = na.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", h, w["wq"])
        k = na.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", h, w["wk"])
        v = na.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", h, w["wv"])
        k, v = k.rename(seq="key"), v.rename(seq="key")
        att = na.einsum("{batch,seq,head,kv},{batch,key,head,kv}->{batch,head,seq,key}",
                        q, k) / q.named_shape["kv"] ** 0.5
        att = softmax_named(na.where(causal, att, -1e9), "key")
        o = na.einsum("{batch,head,seq,key},{batch,key,head,kv}->{batch,seq,head,kv}", att, v)
        x = x + na.einsum("{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}",
                          o, w["wo"])
        h = rms_named(x, w["norm2"])
        u = gelu_named(na.einsum("{batch,seq,embed},{embed,mlp}->{batch,seq,mlp}",
                                 h, w["w1"]))
        x = x + na.einsum("{batch,seq,mlp},{mlp,embed}->{batch,seq,embed}", u, w["w2"])
    logits = na.einsum("{batch,seq,embed},{embed,vocab}->{batch,seq,vocab}",
                       rms_named(x, p["final_norm"]), p["unembed"])
    logp = logits - na.logsumexp(logits, axis="vocab")
    onehot = targets == na.arange(logits.named_shape["vocab"]).tag("vocab")
    return -na.where(onehot, logp, 0.0).sum(axis="vocab").mean(axis=("batch", "seq"))


# --------------------------------------------------------------------------
# training steps
# --------------------------------------------------------------------------
OPT = optax.adam(1e-3)


def step_plain(p, s, tokens):
    loss, g = jax.value_and_grad(loss_plain)(p, tokens)
    u, s = OPT.update(g, s, p)
    return optax.apply_updates(p, u), s, loss


def step_named(p, s, tokens):
    loss, g = jax.value_and_grad(lambda q: loss_named(q, tokens).data)(p)
    u, s = OPT.update(g, s, p)
    return optax.apply_updates(p, u), s, loss


def setup(seed=0):
    kp, kd = jax.random.split(jax.random.key(seed))
    plain = init_plain(kp)
    named = to_named(plain)
    tokens = batch(kd)
    return (plain, OPT.init(plain), tokens), (named, OPT.init(named),
                                              na.asarray(tokens).tag("batch", "seq"))


def train(step, args, steps):
    p, s, t = args
    losses = []
    for _ in range(steps):
        p, s, loss = step(p, s, t)
        losses.append(float(loss))
    return losses


#: an HLO instruction's shape: one array shape (a TPU layout such as
#: ``{1,0:T(8,128)}`` included) or a tuple of them (a ``while`` loop's state)
_SHAPE = r"(?:\((?:[^()]|\([^()]*\))*\)|\S+)"


def hlo_counts(compiled, ops=("transpose", "copy")) -> dict:
    """Instructions of each opcode in ``ops`` in the optimized HLO (fused
    computations included; not the op names in the metadata)."""
    text = compiled.as_text()
    return {op: len(re.findall(rf"^\s*(?:ROOT\s+)?\S+\s*=\s*{_SHAPE}\s+{op}\(", text,
                               re.M))
            for op in ops}


def _compile(step, args, fresh=False):
    """The compiled step, its trace time and its XLA compile time; ``fresh``: with
    JAX's caches cleared first and a new function object, so both are paid."""
    _, compiled, t_lower, t_compile = trace_and_compile(step, args, fresh)
    return compiled, t_lower, t_compile


def trace_and_compile(step, args, fresh=False):
    """``(traced, compiled, trace + lower time, XLA compile time)`` of
    ``jax.jit(step)`` on ``args`` (``traced.jaxpr`` is the step's jaxpr);
    ``fresh`` as in :func:`_compile`."""
    if fresh:
        jax.clear_caches()
        step = (lambda f: lambda *a: f(*a))(step)
    t0 = time.perf_counter()
    traced = jax.jit(step).trace(*args)
    lowered = traced.lower()
    t1 = time.perf_counter()
    compiled = lowered.compile()
    return traced, compiled, t1 - t0, time.perf_counter() - t1


def check(steps=2):
    """Losses of ``steps`` training steps of both models and the HLO counts of
    both steps: ``(plain losses, named losses, plain counts, named counts)``."""
    return check_pair((step_plain, step_named), setup(), steps)


def check_pair(steps_fns, args, steps):
    """:func:`check` for any pair: ``steps_fns = (step_plain, step_named)`` on
    ``args = (plain, named)``, each ``(params, optimizer state, batch)``."""
    (step_plain, step_named), (plain, named) = steps_fns, args
    cp, _, _ = _compile(step_plain, plain)
    cn, _, _ = _compile(step_named, named)
    return (train(cp, plain, steps), train(cn, named, steps), hlo_counts(cp),
            hlo_counts(cn))


def _order(i):
    """Which side runs first in round ``i``: alternating."""
    return ("plain", "named") if i % 2 == 0 else ("named", "plain")


def _ratio(named, plain):
    """The median and quartiles of the per-round ratios named / plain."""
    rs = sorted(n / p for n, p in zip(named, plain))
    q = statistics.quantiles(rs, n=4) if len(rs) > 1 else rs * 3
    return statistics.median(rs), q[0], q[-1]


def parse(argv, doc):
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=5, help="steps per timed run")
    ap.add_argument("--repeat", type=int, default=41, help="interleaved timed rounds")
    ap.add_argument("--compiles", type=int, default=7, help="interleaved fresh compiles")
    return ap.parse_args(argv)


def report(a, steps, args, check_result, tol=1e-6):
    """Print the losses, the step and compile ratios (interleaved rounds) and the
    HLO counts of ``steps = (step_plain, step_named)`` on ``args = (plain,
    named)``; ``check_result``: :func:`check`'s tuple for the pair."""
    step_plain, step_named = steps
    plain, named = args
    lp, ln, hp, hn = check_result
    diff = max(abs(x - y) for x, y in zip(lp, ln))
    print(f"losses plain {[f'{v:.7f}' for v in lp]}")
    print(f"losses named {[f'{v:.7f}' for v in ln]}")
    print(f"max |named - plain| = {diff:.2e}  (target <= {tol:g}: "
          f"{'ok' if diff <= tol else 'MISSED'})")

    # fresh compiles, interleaved (the order alternates each round)
    comp = {"plain": [], "named": []}
    for i in range(a.compiles):
        for name in _order(i):
            step, args = (step_plain, plain) if name == "plain" else (step_named, named)
            _, tr, co = _compile(step, args, fresh=True)
            comp[name].append((tr, co))
    cp, _, _ = _compile(step_plain, plain)
    cn, _, _ = _compile(step_named, named)
    # many short timed runs, interleaved, the order alternating: a load spike
    # hits both sides of a round, and the median of the rounds' ratios ignores it
    times = {"plain": [], "named": []}
    for _ in range(2):
        train(cp, plain, a.steps)
        train(cn, named, a.steps)
    for i in range(a.repeat):
        for name in _order(i):
            c, args = (cp, plain) if name == "plain" else (cn, named)
            p, s, t = args
            jax.block_until_ready(p)
            t0 = time.perf_counter()
            for _ in range(a.steps):
                p, s, loss = c(p, s, t)
            jax.block_until_ready(loss)
            times[name].append((time.perf_counter() - t0) / a.steps)
    med = {k: statistics.median(v) for k, v in times.items()}
    r, lo, hi = _ratio(times["named"], times["plain"])
    print(f"step time   plain {med['plain'] * 1e3:8.3f} ms  named {med['named'] * 1e3:8.3f} "
          f"ms  ratio {r:.3f} (median of {a.repeat} rounds; quartiles {lo:.3f}-{hi:.3f}; "
          f"best/best {min(times['named']) / min(times['plain']):.3f})  "
          f"(target <= {TARGETS['step']}: {'ok' if r <= TARGETS['step'] else 'MISSED'})")
    tot = {k: [t + c for t, c in v] for k, v in comp.items()}
    trc = {k: statistics.median(t for t, _ in v) for k, v in comp.items()}
    xla = {k: statistics.median(c for _, c in v) for k, v in comp.items()}
    r, lo, hi = _ratio(tot["named"], tot["plain"])
    print(f"compile     plain {statistics.median(tot['plain']):8.3f} s   named "
          f"{statistics.median(tot['named']):8.3f} s   ratio {r:.3f} (median of "
          f"{a.compiles} rounds; quartiles {lo:.3f}-{hi:.3f}; trace "
          f"{trc['named'] / trc['plain']:.2f}x, XLA {xla['named'] / xla['plain']:.2f}x; "
          f"target <= {TARGETS['compile']}: {'ok' if r <= TARGETS['compile'] else 'MISSED'})")
    sp, sn = hp["transpose"] + hp["copy"], hn["transpose"] + hn["copy"]
    r = sn / max(sp, 1)
    print(f"HLO         plain {hp}  named {hn}  transposes+copies ratio {r:.3f}  "
          f"(target <= {TARGETS['transposes+copies']}: "
          f"{'ok' if r <= TARGETS['transposes+copies'] else 'MISSED'})")


def main(argv=None):
    a = parse(argv, __doc__)
    plain, named = setup()
    print(f"model {CONFIG}; jax {jax.__version__}, {jax.devices()[0].platform}")
    report(a, (step_plain, step_named), (plain, named), check(steps=5))
    return 0


if __name__ == "__main__":
    sys.exit(main())

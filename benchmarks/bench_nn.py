"""namedarray.nn and np.scan against the same block written with jax.nn and
jax.lax.scan on plain arrays: a pre-RMSNorm transformer stack (causal
attention, GELU MLP) scanned over its stacked layers, and a cross-entropy
loss, differentiated under jax.jit.

    python benchmarks/bench_nn.py [--repeat R]

Prints, for the gradient of each: the losses (they must agree), the
scans in the jaxpr (one forward, one backward), the transposes and copies in the optimized
HLO, and the per-step time ratio named / plain (median of R rounds, with the
quartiles).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import namedarray as na  # noqa: E402
from namedarray import nn  # noqa: E402

na.set_dtype_defaults("jax")
L, B, S, D, H, K, M, V = 4, 8, 64, 128, 4, 32, 512, 256


def init(key):
    k = jax.random.split(key, 6)
    n = lambda i, shape, s: jax.random.normal(k[i], shape, jnp.float32) * s  # noqa: E731
    return {"wq": n(0, (L, D, H, K), D ** -0.5), "wk": n(1, (L, D, H, K), D ** -0.5),
            "wv": n(2, (L, D, H, K), D ** -0.5), "wo": n(3, (L, H, K, D), D ** -0.5),
            "w1": n(4, (L, D, M), D ** -0.5), "w2": n(5, (L, M, D), M ** -0.5)}


NAMES = {"wq": ("layer", "embed", "head", "kv"), "wk": ("layer", "embed", "head", "kv"),
         "wv": ("layer", "embed", "head", "kv"), "wo": ("layer", "head", "kv", "embed"),
         "w1": ("layer", "embed", "mlp"), "w2": ("layer", "mlp", "embed")}


def rms(x):
    return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6)


def loss_plain(p, x, w_out, labels):
    def block(x, w):
        h = rms(x)
        q, k, v = (jnp.einsum("bsd,dhk->bshk", h, w[n]) for n in ("wq", "wk", "wv"))
        o = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        x = x + jnp.einsum("bshk,hkd->bsd", o, w["wo"])
        return x + jax.nn.gelu(rms(x) @ w["w1"]) @ w["w2"], None
    x, _ = jax.lax.scan(block, x, p)
    logits = rms(x) @ w_out
    logp = jax.nn.log_softmax(logits, -1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], -1))


def loss_named(p, x, w_out, labels):
    def block(x, w):
        h = nn.rms_norm(x, "embed")
        q, k, v = (na.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}",
                             h, w[n]) for n in ("wq", "wk", "wv"))
        o = nn.dot_product_attention(q, k.rename(seq="key"), v.rename(seq="key"), "kv",
                                     query_axis="seq", key_axis="key", is_causal=True)
        x = x + na.einsum("{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}", o,
                          w["wo"])
        u = nn.gelu(na.einsum("{batch,seq,embed},{embed,mlp}->{batch,seq,mlp}",
                              nn.rms_norm(x, "embed"), w["w1"]))
        return x + na.einsum("{batch,seq,mlp},{mlp,embed}->{batch,seq,embed}", u,
                             w["w2"]), None
    x, _ = na.scan(block, x, p, axis="layer")
    logits = na.einsum("{batch,seq,embed},{embed,vocab}->{batch,seq,vocab}",
                       nn.rms_norm(x, "embed"), w_out)
    return nn.cross_entropy(logits, labels, axis="vocab").mean(axis=("batch", "seq"))


def hlo_moves(f, *args):
    text = jax.jit(f).lower(*args).compile().as_text()
    return len(re.findall(r"= \S+ (transpose|copy)\(", text))


def timed(f, args, n=5):
    jax.block_until_ready(f(*args))
    t = time.perf_counter()
    for _ in range(n):
        out = f(*args)
    jax.block_until_ready(out)
    return (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    kp, kx, ko, kl = jax.random.split(jax.random.key(0), 4)
    p = init(kp)
    x = jax.random.normal(kx, (B, S, D), jnp.float32)
    w_out = jax.random.normal(ko, (D, V), jnp.float32) * D ** -0.5
    labels = jax.random.randint(kl, (B, S), 0, V)
    plain_args = (p, x, w_out, labels)
    named_args = ({n: na.asarray(v).tag(*NAMES[n]) for n, v in p.items()},
                  na.asarray(x).tag("batch", "seq", "embed"),
                  na.asarray(w_out).tag("embed", "vocab"),
                  na.asarray(labels).tag("batch", "seq"))
    g_plain = jax.jit(jax.value_and_grad(loss_plain))
    g_named = jax.jit(na.value_and_grad(loss_named))
    lp, ln = float(g_plain(*plain_args)[0]), float(g_named(*named_args)[0])
    print(f"loss plain {lp:.6f}  named {ln:.6f}  |diff| {abs(lp - ln):.2e}")
    for name, f, args in (("plain", jax.value_and_grad(loss_plain), plain_args),
                          ("named", na.value_and_grad(loss_named), named_args)):
        scans = str(jax.make_jaxpr(f)(*args)).count("scan[")
        print(f"{name}: scans in the gradient jaxpr (forward, backward) {scans}, "
              f"transposes+copies in HLO "
              f"{hlo_moves(f, *args)}")
    ratios = []
    for r in range(a.repeat):
        pair = [(g_plain, plain_args), (g_named, named_args)]
        t = {id(f): timed(f, args) for f, args in (pair if r % 2 else pair[::-1])}
        ratios.append(t[id(g_named)] / t[id(g_plain)])
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"step time named / plain: {statistics.median(ratios):.3f} "
          f"(quartiles {q[0]:.3f}-{q[2]:.3f}, {a.repeat} rounds)")


if __name__ == "__main__":
    main()

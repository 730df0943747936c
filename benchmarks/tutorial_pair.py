"""The ``tutorial`` pair: the transformer of docs/tutorials/training_transformer.md
as a user copies it from the page, and the same model as a JAX user writes it
in plain ``jax.numpy``.

The named side is the tutorial's code (``init`` aside, which draws the same
arrays for both sides): the parameters stacked along ``"layer"`` and run by
``np.scan`` over ``(p["layers"], np.arange(L).tag("layer"))``, every
contraction a named einsum, ``nn.rms_norm``, causal
``nn.dot_product_attention``, ``nn.gelu``, ``nn.dropout`` keyed per layer by
``fold_in(key, i.data)``, the lookup ``p["embed"][{"vocab": inputs}]``,
``nn.cross_entropy``, ``np.value_and_grad`` and
``optax.adamw(3e-3, weight_decay=1e-4, mask=nn.decay_mask)``.  The plain twin:
``jax.lax.scan``, ``jnp.einsum``, ``jax.nn.dot_product_attention``,
``jax.nn.gelu``, ``jax.nn.log_softmax`` with ``take_along_axis``, the mask
``ndim > 1``, and dropout drawn as ``nn.dropout`` draws
(``bench_models.dropout_plain``), so both see the same masks.  The data are
the tutorial's counting sequences; each step splits the key it carries for its
dropout masks.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import optax

import bench_models as bms
import namedarray as np
from namedarray import nn

#: the tutorial's sizes: vocab, d_model, heads, head dim, mlp, seq, batch, layers
TUTORIAL = dict(V=32, D=32, H=2, K=16, M=64, S=16, B=8, L=2, rate=0.1)
F32 = jnp.float32
LAYER_NAMES = {"wq": ("layer", "embed", "head", "kv"), "wk": ("layer", "embed", "head", "kv"),
               "wv": ("layer", "embed", "head", "kv"), "wo": ("layer", "head", "kv", "embed"),
               "w1": ("layer", "embed", "mlp"), "w2": ("layer", "mlp", "embed")}


def init_plain(key, c):
    """The tutorial's ``init``, as jax arrays (float32)."""
    V, D, H, K, M, S, L = (c[n] for n in "VDHKMSL")
    k = iter(jax.random.split(key, 9))

    def normal(shape, scale):
        return jax.random.normal(next(k), shape, F32) * F32(scale)
    return {"embed": normal((V, D), 0.1), "pos": normal((S, D), 0.1),
            "unembed": normal((D, V), D ** -0.5),
            "layers": {"wq": normal((L, D, H, K), D ** -0.5),
                       "wk": normal((L, D, H, K), D ** -0.5),
                       "wv": normal((L, D, H, K), D ** -0.5),
                       "wo": normal((L, H, K, D), (H * K) ** -0.5),
                       "w1": normal((L, D, M), D ** -0.5),
                       "w2": normal((L, M, D), M ** -0.5)}}


def to_named(p):
    """The tutorial's parameters: the same arrays, tagged as its ``init`` tags them."""
    return {"embed": np.asarray(p["embed"]).tag("vocab", "embed"),
            "pos": np.asarray(p["pos"]).tag("seq", "embed"),
            "unembed": np.asarray(p["unembed"]).tag("embed", "vocab"),
            "layers": {n: np.asarray(w).tag(*LAYER_NAMES[n]) for n, w in p["layers"].items()}}


# --------------------------------------------------------------------------
# the named model, as the tutorial writes it
# --------------------------------------------------------------------------
def attention(x, w):
    q = np.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", x, w["wq"])
    k = np.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", x, w["wk"])
    v = np.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", x, w["wv"])
    o = nn.dot_product_attention(q, k.rename(seq="key"), v.rename(seq="key"), "kv",
                                 query_axis="seq", key_axis="key", is_causal=True)
    return np.einsum("{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}", o, w["wo"])


def mlp(x, w):
    h = nn.gelu(np.einsum("{batch,seq,embed},{embed,mlp}->{batch,seq,mlp}", x, w["w1"]))
    return np.einsum("{batch,seq,mlp},{mlp,embed}->{batch,seq,embed}", h, w["w2"])


def loss_named(p, inputs, targets, key, c):
    L, rate = c["L"], c["rate"]

    def block(x, layer):
        w, i = layer                                      # this layer's weights and index
        k1, k2 = jax.random.split(jax.random.fold_in(key, i.data))
        x = x + nn.dropout(k1, attention(nn.rms_norm(x, "embed"), w), rate)
        return x + nn.dropout(k2, mlp(nn.rms_norm(x, "embed"), w), rate), None

    x = p["embed"][{"vocab": inputs}] + p["pos"]          # embedding lookup by name
    x, _ = np.scan(block, x, (p["layers"], np.arange(L).tag("layer")), axis="layer")
    logits = np.einsum("{batch,seq,embed},{embed,vocab}->{batch,seq,vocab}",
                       nn.rms_norm(x, "embed"), p["unembed"])
    return nn.cross_entropy(logits, targets, axis="vocab").mean(axis=("batch", "seq"))


# --------------------------------------------------------------------------
# the plain twin
# --------------------------------------------------------------------------
def rms_norm(x):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)


def loss_plain(p, inputs, targets, key, c):
    rate = c["rate"]

    def block(x, layer):
        w, i = layer
        k1, k2 = jax.random.split(jax.random.fold_in(key, i))
        h = rms_norm(x)
        q, k, v = (jnp.einsum("bsd,dhk->bshk", h, w[n]) for n in ("wq", "wk", "wv"))
        o = jnp.einsum("bshk,hkd->bsd", jax.nn.dot_product_attention(q, k, v, is_causal=True),
                       w["wo"])
        x = x + bms.dropout_plain(k1, o, rate)
        u = jnp.einsum("bsm,md->bsd", jax.nn.gelu(
            jnp.einsum("bsd,dm->bsm", rms_norm(x), w["w1"])), w["w2"])
        return x + bms.dropout_plain(k2, u, rate), None

    x = p["embed"][inputs] + p["pos"]
    x, _ = jax.lax.scan(block, x, (p["layers"], jnp.arange(c["L"])))
    logits = jnp.einsum("bsd,dv->bsv", rms_norm(x), p["unembed"])
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


OPT_NAMED = optax.adamw(3e-3, weight_decay=1e-4, mask=nn.decay_mask)
OPT_PLAIN = optax.adamw(3e-3, weight_decay=1e-4, mask=lambda p: jax.tree_util.tree_map(
    lambda v: v.ndim > 1, p))


def steps(c):
    """``(step_plain, step_named)``: ``(params, (optimizer state, key), (inputs,
    targets)) -> (params, state, loss)``; each splits its key for the step's
    dropout masks, as the tutorial's loop passes a fresh key per step."""
    def step_named(p, s, batch):
        state, key = s
        key, sub = jax.random.split(key)
        loss, grads = np.value_and_grad(loss_named)(p, *batch, sub, c)
        updates, state = OPT_NAMED.update(grads, state, p)
        return optax.apply_updates(p, updates), (state, key), loss.data

    def step_plain(p, s, batch):
        state, key = s
        key, sub = jax.random.split(key)
        loss, grads = jax.value_and_grad(loss_plain)(p, *batch, sub, c)
        updates, state = OPT_PLAIN.update(grads, state, p)
        return optax.apply_updates(p, updates), (state, key), loss
    return step_plain, step_named


def make_batch(key, c):
    """The tutorial's data: each sequence counts up from a random start with a
    random stride (mod V); ``(inputs, targets)`` of shape (B, S)."""
    B, S, V = c["B"], c["S"], c["V"]
    k1, k2 = jax.random.split(key)
    start = jax.random.randint(k1, (B, 1), 0, V)
    stride = jax.random.randint(k2, (B, 1), 1, 4)
    tokens = (start + stride * jnp.arange(S + 1)) % V
    return tokens[:, :S].astype(jnp.int32), tokens[:, 1:].astype(jnp.int32)


def setup(seed=0, c=TUTORIAL):
    """Both sides' ``(params, (optimizer state, key), batch)``."""
    kp, kd, kk = jax.random.split(jax.random.key(seed), 3)
    plain = init_plain(kp, c)
    named = to_named(plain)
    inputs, targets = make_batch(kd, c)
    batch_named = tuple(np.asarray(t).tag("batch", "seq") for t in (inputs, targets))
    return (plain, (OPT_PLAIN.init(plain), kk), (inputs, targets)), (
        named, (OPT_NAMED.init(named), kk), batch_named)


def pair(**config):
    """``(config, (step_plain, step_named), (plain args, named args))``, as
    ``bench_models.pair`` gives a pair."""
    c = {**TUTORIAL, **config}
    if c.get("dtype", "float32") != "float32":
        raise ValueError(f"tutorial: the tutorial's model is float32, got dtype={c['dtype']!r}")
    return c, steps(c), setup(0, c)

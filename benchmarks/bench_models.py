"""More model pairs, each written once with named axes the way the README
and the tutorials write them, and once in plain jax.numpy: the same model,
init and data, trained under jax.jit.

    python benchmarks/bench_models.py [PAIR ...] [--steps N] [--repeat R]

PAIR: gpt, mixer, stacked (the default: all three), gpt-dict, gpt-take,
stacked-dict, stacked-take, stacked-dp, stacked-shard, moe, moe-dp,
moe-shard, vit, vit-dp, vit-shard, vit-uniform, vit-uniform-dp (the ``-dp``
and ``-shard`` pairs on 8 CPU devices, which the script then simulates).

For each pair it prints what ``bench_model.py`` prints (float32 losses, which
must agree to 1e-5; step and trace+compile ratios of interleaved rounds,
targets <= 1.03 and <= 1.1; transposes and copies of the optimized HLO, target
within 10% of the plain program's).  ``benchmarks/README.md`` describes each
pair and holds the measured tables.

- ``gpt``: a decoder-only transformer, pre-LayerNorm, tied embedding looked
  up by ``emb.untag("vocab")[tokens]`` (``gpt-dict``: ``emb[{"vocab":
  tokens}]``, ``gpt-take``: ``np.take(emb.untag("vocab"), tokens, axis=0)``),
  ``take_along_axis(axis="vocab")``, optax Adam.
- ``mixer``: an MLP-mixer classifier, the label picked by ``logp[{"class":
  labels}]``, optax AdamW.
- ``stacked``: the training tutorial's transformer without dropout, its
  layers stacked along "layer" and run by ``np.scan``, from ``namedarray.nn``,
  AdamW with ``nn.decay_mask`` (``-dict``, ``-take``: the lookup as above).
- ``moe``: a Mixture-of-Experts transformer: router ``nn.softmax`` over
  "expert", dense top-2 gates by ``np.top_k``, the experts mixed by one named
  einsum.
- ``vit``: a ViT-style classifier with ``nn.dropout`` keyed per step (the
  plain twin draws the same masks: :func:`dropout_plain`); ``vit-uniform``:
  the masks drawn the NumPy way from a keyed Generator.
- ``-dp``: data-parallel over 8 devices, a mesh ``np.nmap`` against
  ``jax.shard_map``; ``-shard``: placed by ``np.shard`` against
  ``jax.device_put`` with ``NamedSharding``.

A config's ``dtype`` (``"float32"``, the default, or ``"bfloat16"``) is the
parameters' and activations' dtype: in bfloat16 every contraction
accumulates in float32 (``preferred_element_type``) and is cast back, the
loss is taken of float32 logits, and the plain twin does the same.
``bench_accel.py`` runs the pairs at realistic sizes in both dtypes (an
accelerator's run); ``tests/frontend/test_bench_model.py`` runs two steps of
each in CI and checks the losses and the HLO counts (never the times).
"""
from __future__ import annotations

import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
if __name__ == "__main__" and any(a.endswith(("-dp", "-shard")) for a in sys.argv[1:]):
    # the data-parallel pairs: 8 devices simulated on the CPU (before jax is imported)
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                               + " --xla_force_host_platform_device_count=8").strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import bench_model as bm  # noqa: E402
import namedarray as np  # noqa: E402
from namedarray import nn  # noqa: E402

F32 = jnp.float32
C_GELU = bm.C_GELU


def _normal(keys, shape, scale):
    return jax.random.normal(next(keys), shape, F32) * F32(scale)


def _dtype(c):
    """The model's dtype and the contraction keywords it takes: float32
    accumulation for a half-precision model, none for float32 (the program
    as it was before the dtype was a setting)."""
    dt = jnp.dtype(c.get("dtype", "float32"))
    return dt, ({} if dt == F32 else {"preferred_element_type": F32})


def ein_plain(c, spec, *ops):
    """``jnp.einsum`` in the model's dtype (float32 accumulation)."""
    dt, kw = _dtype(c)
    r = jnp.einsum(spec, *ops, **kw)
    return r.astype(dt) if kw else r


def ein_named(c, spec, *ops):
    """``np.einsum`` in the model's dtype (float32 accumulation)."""
    dt, kw = _dtype(c)
    r = np.einsum(spec, *ops, **kw)
    return r.astype(dt) if kw else r


def mat_plain(c, a, b):
    """``a @ b`` in the model's dtype (float32 accumulation)."""
    dt, kw = _dtype(c)
    return jnp.matmul(a, b, **kw).astype(dt) if kw else a @ b


def f32(c, logits):
    """The logits a loss is taken of, float32 in a half-precision model."""
    return logits.astype(F32) if _dtype(c)[1] else logits


def cast(c, tree):
    """The floating arrays of ``tree`` in the model's dtype."""
    dt, kw = _dtype(c)
    return jax.tree.map(lambda v: v.astype(dt) if kw and jnp.issubdtype(
        v.dtype, jnp.floating) else v, tree)


def _named(p, names):
    """The plain parameters with their axes named (same data)."""
    return {k: _named(v, names) if isinstance(v, dict) else np.asarray(v).tag(*names[k])
            for k, v in p.items()}


def _steps(loss_plain, loss_named, opt_plain, opt_named):
    """The two training steps, each with its optimizer."""

    def step_plain(p, s, b):
        loss, g = jax.value_and_grad(loss_plain)(p, b)
        u, s = opt_plain.update(g, s, p)
        return optax.apply_updates(p, u), s, loss

    def step_named(p, s, b):
        loss, g = jax.value_and_grad(lambda q: loss_named(q, b).data)(p)
        u, s = opt_named.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    return step_plain, step_named


def ln_plain(x, g, b):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + 1e-5) * g + b


def ln_named(x, g, b, axis):
    mu = x.mean(axis=axis)
    var = ((x - mu) ** 2).mean(axis=axis)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


def gelu_plain(x):
    return 0.5 * x * (1.0 + jnp.tanh(C_GELU * (x + 0.044715 * x ** 3)))


def gelu_named(x):
    return 0.5 * x * (1.0 + np.tanh(C_GELU * (x + 0.044715 * x ** 3)))


# --------------------------------------------------------------------------
# gpt: decoder-only transformer, tied embedding, positional lookup
# --------------------------------------------------------------------------
GPT = dict(layers=2, d_model=64, heads=4, mlp=256, seq=32, batch=4, vocab=128,
           lookup="untag")
#: the embedding lookup in each gather style the docs show (``lookup=``)
LOOKUPS = {"untag": lambda emb, ids: emb.untag("vocab")[ids],
           "dict": lambda emb, ids: emb[{"vocab": ids}],
           "take": lambda emb, ids: np.take(emb.untag("vocab"), ids, axis=0)}
GPT_NAMES = {"emb": ("vocab", "embed"), "pos": ("seq", "embed"), "g": ("embed",),
             "b": ("embed",), "g1": ("embed",), "b1": ("embed",), "g2": ("embed",),
             "b2": ("embed",), "wqkv": ("embed", "qkv", "head", "kv"),
             "wo": ("head", "kv", "embed"), "w1": ("embed", "mlp"), "b_1": ("mlp",),
             "w2": ("mlp", "embed"), "b_2": ("embed",)}


def gpt_init(key, c=GPT):
    D, H, M, V, S = c["d_model"], c["heads"], c["mlp"], c["vocab"], c["seq"]
    keys = iter(jax.random.split(key, 2 + 4 * c["layers"]))
    p = {"emb": _normal(keys, (V, D), 0.02), "pos": _normal(keys, (S, D), 0.02),
         "g": jnp.ones((D,), F32), "b": jnp.zeros((D,), F32)}
    for i in range(c["layers"]):
        p[f"block{i}"] = {
            "g1": jnp.ones((D,), F32), "b1": jnp.zeros((D,), F32),
            "g2": jnp.ones((D,), F32), "b2": jnp.zeros((D,), F32),
            "wqkv": _normal(keys, (D, 3, H, D // H), D ** -0.5),
            "wo": _normal(keys, (H, D // H, D), D ** -0.5),
            "w1": _normal(keys, (D, M), D ** -0.5), "b_1": jnp.zeros((M,), F32),
            "w2": _normal(keys, (M, D), M ** -0.5), "b_2": jnp.zeros((D,), F32)}
    return p


def gpt_loss_plain(p, tokens, c=GPT):
    x_in, y = tokens[:, :-1], tokens[:, 1:]
    S = x_in.shape[1]
    x = p["emb"][x_in] + p["pos"]
    mask = jnp.tril(jnp.ones((S, S), bool))
    for i in range(c["layers"]):
        w = p[f"block{i}"]
        h = ln_plain(x, w["g1"], w["b1"])
        qkv = ein_plain(c, "bsd,dthk->tbshk", h, w["wqkv"])
        q, k, v = qkv[0], qkv[1], qkv[2]
        s = ein_plain(c, "bqhk,bshk->bhqs", q, k) / jnp.sqrt(F32(q.shape[-1]))
        s = jnp.where(mask, s, -1e9)
        a = jnp.exp(s - s.max(axis=-1, keepdims=True))
        a = a / a.sum(axis=-1, keepdims=True)
        o = ein_plain(c, "bhqs,bshk->bqhk", a, v)
        x = x + ein_plain(c, "bqhk,hkd->bqd", o, w["wo"])
        h = ln_plain(x, w["g2"], w["b2"])
        x = x + mat_plain(c, gelu_plain(mat_plain(c, h, w["w1"]) + w["b_1"]), w["w2"]) \
            + w["b_2"]
    logits = f32(c, mat_plain(c, ln_plain(x, p["g"], p["b"]), p["emb"].T))
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, y[..., None], axis=-1).mean()


def gpt_loss_named(p, tokens, c=GPT):
    """``tokens``: names ("batch", "seq"), length seq + 1."""
    x_in = tokens[{"seq": slice(None, -1)}]
    y = tokens[{"seq": slice(1, None)}]
    S = x_in.named_shape["seq"]
    x = LOOKUPS[c["lookup"]](p["emb"], x_in) + p["pos"]
    mask = np.arange(S).tag("seq") >= np.arange(S).tag("key")
    for i in range(c["layers"]):
        w = p[f"block{i}"]
        h = ln_named(x, w["g1"], w["b1"], "embed")
        qkv = ein_named(c, "{batch,seq,embed},{embed,qkv,head,kv}->{qkv,batch,seq,head,kv}",
                        h, w["wqkv"])
        q, k, v = (qkv[{"qkv": j}] for j in range(3))
        k, v = k.rename(seq="key"), v.rename(seq="key")
        s = ein_named(c, "{batch,seq,head,kv},{batch,key,head,kv}->{batch,head,seq,key}",
                      q, k) / np.sqrt(np.float32(q.named_shape["kv"]))
        s = np.where(mask, s, -1e9)
        a = np.exp(s - s.max(axis="key"))
        a = a / a.sum(axis="key")
        o = ein_named(c, "{batch,head,seq,key},{batch,key,head,kv}->{batch,seq,head,kv}",
                      a, v)
        x = x + ein_named(c, "{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}",
                          o, w["wo"])
        h = ln_named(x, w["g2"], w["b2"], "embed")
        u = gelu_named(ein_named(c, "{batch,seq,embed},{embed,mlp}->{batch,seq,mlp}", h,
                                 w["w1"]) + w["b_1"])
        x = x + ein_named(c, "{batch,seq,mlp},{mlp,embed}->{batch,seq,embed}", u,
                          w["w2"]) + w["b_2"]
    logits = f32(c, ein_named(c, "{batch,seq,embed},{vocab,embed}->{batch,seq,vocab}",
                              ln_named(x, p["g"], p["b"], "embed"), p["emb"]))
    logp = logits - np.logsumexp(logits, axis="vocab")
    picked = np.take_along_axis(logp, y.untag("batch", "seq")[..., None].tag(
        "batch", "seq", "vocab"), axis="vocab")
    return -picked.mean(axis=("batch", "seq", "vocab"))


def gpt_setup(seed=0, c=GPT):
    kp, kd = jax.random.split(jax.random.key(seed))
    plain = cast(c, gpt_init(kp, c))
    named = _named(plain, GPT_NAMES)
    tokens = jax.random.randint(kd, (c["batch"], c["seq"] + 1), 0, c["vocab"], jnp.int32)
    opt = GPT_OPT
    return (plain, opt.init(plain), tokens), (named, opt.init(named),
                                              np.asarray(tokens).tag("batch", "seq"))


GPT_OPT = optax.adam(1e-3)


# --------------------------------------------------------------------------
# mixer: MLP-mixer image classifier, named label lookup
# --------------------------------------------------------------------------
MIXER = dict(blocks=2, image=16, patch=4, channels=64, token_mlp=32, channel_mlp=128,
             classes=10, batch=16)
MIXER_NAMES = {"w_in": ("pixel", "chan"), "b_in": ("chan",), "g1": ("chan",),
               "b1": ("chan",), "g2": ("chan",), "b2": ("chan",),
               "t1": ("patch", "tok"), "t2": ("tok", "patch"),
               "c1": ("chan", "hid"), "c2": ("hid", "chan"), "g": ("chan",),
               "b": ("chan",), "w_out": ("chan", "class"), "b_out": ("class",)}


def mixer_init(key, c=MIXER):
    P = (c["image"] // c["patch"]) ** 2
    X, C, T, H, K = c["patch"] ** 2, c["channels"], c["token_mlp"], c["channel_mlp"], \
        c["classes"]
    keys = iter(jax.random.split(key, 2 + 4 * c["blocks"]))
    p = {"w_in": _normal(keys, (X, C), X ** -0.5), "b_in": jnp.zeros((C,), F32),
         "g": jnp.ones((C,), F32), "b": jnp.zeros((C,), F32),
         "w_out": _normal(keys, (C, K), C ** -0.5), "b_out": jnp.zeros((K,), F32)}
    for i in range(c["blocks"]):
        p[f"block{i}"] = {
            "g1": jnp.ones((C,), F32), "b1": jnp.zeros((C,), F32),
            "g2": jnp.ones((C,), F32), "b2": jnp.zeros((C,), F32),
            "t1": _normal(keys, (P, T), P ** -0.5), "t2": _normal(keys, (T, P), T ** -0.5),
            "c1": _normal(keys, (C, H), C ** -0.5), "c2": _normal(keys, (H, C), H ** -0.5)}
    return p


def patches(images, k):
    """(batch, H, W) images -> (batch, patches, k * k pixels), positionally."""
    B, Hh, W = images.shape
    x = images.reshape(B, Hh // k, k, W // k, k).transpose(0, 1, 3, 2, 4)
    return x.reshape(B, (Hh // k) * (W // k), k * k)


def mixer_loss_plain(p, batch, c=MIXER):
    images, labels = batch
    x = patches(images, c["patch"]) @ p["w_in"] + p["b_in"]       # (b, patch, chan)
    for i in range(c["blocks"]):
        w = p[f"block{i}"]
        h = ln_plain(x, w["g1"], w["b1"])
        h = jnp.einsum("bpc,pt->btc", h, w["t1"])
        x = x + jnp.einsum("btc,tp->bpc", gelu_plain(h), w["t2"])
        h = ln_plain(x, w["g2"], w["b2"])
        x = x + gelu_plain(h @ w["c1"]) @ w["c2"]
    x = ln_plain(x, p["g"], p["b"]).mean(axis=1)
    logits = x @ p["w_out"] + p["b_out"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -logp[jnp.arange(labels.shape[0]), labels].mean()


def mixer_loss_named(p, batch, c=MIXER):
    images, labels = batch            # images positional (b, H, W); labels ("batch",)
    x = np.asarray(patches(images, c["patch"])).tag("batch", "patch", "pixel")
    x = np.einsum("{batch,patch,pixel},{pixel,chan}->{batch,patch,chan}", x,
                  p["w_in"]) + p["b_in"]
    for i in range(c["blocks"]):
        w = p[f"block{i}"]
        h = ln_named(x, w["g1"], w["b1"], "chan")
        h = np.einsum("{batch,patch,chan},{patch,tok}->{batch,tok,chan}", h, w["t1"])
        x = x + np.einsum("{batch,tok,chan},{tok,patch}->{batch,patch,chan}",
                          gelu_named(h), w["t2"])
        h = ln_named(x, w["g2"], w["b2"], "chan")
        h = np.einsum("{batch,patch,chan},{chan,hid}->{batch,patch,hid}", h, w["c1"])
        x = x + np.einsum("{batch,patch,hid},{hid,chan}->{batch,patch,chan}",
                          gelu_named(h), w["c2"])
    x = ln_named(x, p["g"], p["b"], "chan").mean(axis="patch")
    logits = np.einsum("{batch,chan},{chan,class}->{batch,class}", x,
                       p["w_out"]) + p["b_out"]
    logp = logits - np.logsumexp(logits, axis="class")
    return -logp[{"class": labels}].mean(axis="batch")


MIXER_OPT = optax.adamw(1e-3, weight_decay=1e-4)


def mixer_setup(seed=0, c=MIXER):
    kp, ki, kl = jax.random.split(jax.random.key(seed), 3)
    plain = mixer_init(kp, c)
    named = _named(plain, MIXER_NAMES)
    images = jax.random.normal(ki, (c["batch"], c["image"], c["image"]), F32)
    labels = jax.random.randint(kl, (c["batch"],), 0, c["classes"], jnp.int32)
    opt = MIXER_OPT
    return (plain, opt.init(plain), (images, labels)), (
        named, opt.init(named), (images, np.asarray(labels).tag("batch")))


# --------------------------------------------------------------------------
# stacked: transformer with its layers stacked along "layer", run by a scan
# --------------------------------------------------------------------------
STACKED = dict(layers=2, d_model=64, heads=4, mlp=256, seq=32, batch=4, vocab=128,
               lookup="untag")
STACKED_NAMES = {"emb": ("vocab", "embed"), "pos": ("seq", "embed"),
                 "unemb": ("embed", "vocab"), "g": ("embed",), "b": ("embed",),
                 "g1": ("layer", "embed"), "b1": ("layer", "embed"),
                 "g2": ("layer", "embed"), "b2": ("layer", "embed"),
                 "wq": ("layer", "embed", "head", "kv"),
                 "wk": ("layer", "embed", "head", "kv"),
                 "wv": ("layer", "embed", "head", "kv"),
                 "wo": ("layer", "head", "kv", "embed"), "w1": ("layer", "embed", "mlp"),
                 "w2": ("layer", "mlp", "embed")}


def stacked_init(key, c=STACKED):
    L, D, H, M, V, S = c["layers"], c["d_model"], c["heads"], c["mlp"], c["vocab"], \
        c["seq"]
    K = D // H
    keys = iter(jax.random.split(key, 9))
    return {"emb": _normal(keys, (V, D), 0.02), "pos": _normal(keys, (S, D), 0.02),
            "unemb": _normal(keys, (D, V), D ** -0.5),
            "g": jnp.ones((D,), F32), "b": jnp.zeros((D,), F32),
            "layers": {
                "g1": jnp.ones((L, D), F32), "b1": jnp.zeros((L, D), F32),
                "g2": jnp.ones((L, D), F32), "b2": jnp.zeros((L, D), F32),
                "wq": _normal(keys, (L, D, H, K), D ** -0.5),
                "wk": _normal(keys, (L, D, H, K), D ** -0.5),
                "wv": _normal(keys, (L, D, H, K), D ** -0.5),
                "wo": _normal(keys, (L, H, K, D), D ** -0.5),
                "w1": _normal(keys, (L, D, M), D ** -0.5),
                "w2": _normal(keys, (L, M, D), M ** -0.5)}}


def layer_norm_plain(x, g, b, eps=1e-5):
    xc = x - x.mean(axis=-1, keepdims=True)
    return xc * jax.lax.rsqrt((xc * xc).mean(axis=-1, keepdims=True) + eps) * g + b


def stacked_loss_plain(p, tokens, c=STACKED):
    x_in, y = tokens[:, :-1], tokens[:, 1:]

    def block(x, w):
        h = layer_norm_plain(x, w["g1"], w["b1"])
        q, k, v = (ein_plain(c, "bsd,dhk->bshk", h, w[n]) for n in ("wq", "wk", "wv"))
        o = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        x = x + ein_plain(c, "bshk,hkd->bsd", o, w["wo"])
        h = layer_norm_plain(x, w["g2"], w["b2"])
        return x + mat_plain(c, jax.nn.gelu(mat_plain(c, h, w["w1"])), w["w2"]), None

    x = p["emb"][x_in] + p["pos"]
    x, _ = jax.lax.scan(block, x, p["layers"])
    logits = f32(c, mat_plain(c, layer_norm_plain(x, p["g"], p["b"]), p["unemb"]))
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, y[..., None], axis=-1).mean()


def shift(tokens):
    """``(inputs, targets)`` of ``tokens`` (names ("batch", "seq"), length seq +
    1), or ``tokens`` if already split (as the data-parallel steps pass them:
    ``nmap`` wants "seq" one size in every argument)."""
    if isinstance(tokens, tuple):
        return tokens
    return tokens[{"seq": slice(None, -1)}], tokens[{"seq": slice(1, None)}]


def stacked_loss_named(p, tokens, c=STACKED):
    """``tokens``: names ("batch", "seq"), length seq + 1."""
    x_in, y = shift(tokens)

    def block(x, w):
        h = nn.layer_norm(x, "embed", w["g1"], w["b1"])
        q, k, v = (ein_named(c, "{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}",
                             h, w[n]) for n in ("wq", "wk", "wv"))
        o = nn.dot_product_attention(q, k.rename(seq="key"), v.rename(seq="key"), "kv",
                                     query_axis="seq", key_axis="key", is_causal=True)
        x = x + ein_named(c, "{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}", o,
                          w["wo"])
        h = nn.gelu(ein_named(c, "{batch,seq,embed},{embed,mlp}->{batch,seq,mlp}",
                              nn.layer_norm(x, "embed", w["g2"], w["b2"]), w["w1"]))
        return x + ein_named(c, "{batch,seq,mlp},{mlp,embed}->{batch,seq,embed}", h,
                             w["w2"]), None

    x = LOOKUPS[c["lookup"]](p["emb"], x_in) + p["pos"]
    x, _ = np.scan(block, x, p["layers"], axis="layer")
    logits = f32(c, ein_named(c, "{batch,seq,embed},{embed,vocab}->{batch,seq,vocab}",
                              nn.layer_norm(x, "embed", p["g"], p["b"]), p["unemb"]))
    return nn.cross_entropy(logits, y, axis="vocab").mean(axis=("batch", "seq"))


#: AdamW, weight decay on every array of two or more axes: the plain program's
#: usual ``ndim > 1`` mask, the named one's ``nn.decay_mask`` (the stacked norm
#: scales, ("layer", "embed"), are decayed in both)
STACKED_OPT_PLAIN = optax.adamw(
    1e-3, weight_decay=1e-4, mask=lambda p: jax.tree_util.tree_map(lambda v: v.ndim > 1, p))
STACKED_OPT_NAMED = optax.adamw(1e-3, weight_decay=1e-4, mask=nn.decay_mask)


def stacked_setup(seed=0, c=STACKED):
    kp, kd = jax.random.split(jax.random.key(seed))
    plain = cast(c, stacked_init(kp, c))
    named = _named(plain, STACKED_NAMES)
    tokens = jax.random.randint(kd, (c["batch"], c["seq"] + 1), 0, c["vocab"], jnp.int32)
    return (plain, STACKED_OPT_PLAIN.init(plain), tokens), (
        named, STACKED_OPT_NAMED.init(named), np.asarray(tokens).tag("batch", "seq"))


# --------------------------------------------------------------------------
# vit: a ViT-style classifier on 8x8 digit-like images, dropout, AdamW
# --------------------------------------------------------------------------
VIT = dict(blocks=2, image=8, patch=2, d_model=64, heads=4, mlp=128, classes=10,
           batch=32, rate=0.1, plain_mask="named", dropout="nn")
VIT_NAMES = {"w_in": ("pixel", "embed"), "b_in": ("embed",), "pos": ("patch", "embed"),
             "g1": ("embed",), "b1": ("embed",), "g2": ("embed",), "b2": ("embed",),
             "wq": ("embed", "head", "kv"), "wk": ("embed", "head", "kv"),
             "wv": ("embed", "head", "kv"), "wo": ("head", "kv", "embed"),
             "w1": ("embed", "mlp"), "b_1": ("mlp",), "w2": ("mlp", "embed"),
             "b_2": ("embed",), "g": ("embed",), "b": ("embed",),
             "w_out": ("embed", "class"), "b_out": ("class",)}


def vit_init(key, c=VIT):
    N, X = (c["image"] // c["patch"]) ** 2, c["patch"] ** 2
    D, H, M, K = c["d_model"], c["heads"], c["mlp"], c["classes"]
    keys = iter(jax.random.split(key, 3 + 6 * c["blocks"]))
    p = {"w_in": _normal(keys, (X, D), X ** -0.5), "b_in": jnp.zeros((D,), F32),
         "pos": _normal(keys, (N, D), 0.02),
         "g": jnp.ones((D,), F32), "b": jnp.zeros((D,), F32),
         "w_out": _normal(keys, (D, K), D ** -0.5), "b_out": jnp.zeros((K,), F32)}
    for i in range(c["blocks"]):
        p[f"block{i}"] = {
            "g1": jnp.ones((D,), F32), "b1": jnp.zeros((D,), F32),
            "g2": jnp.ones((D,), F32), "b2": jnp.zeros((D,), F32),
            **{n: _normal(keys, (D, H, D // H), D ** -0.5) for n in ("wq", "wk", "wv")},
            "wo": _normal(keys, (H, D // H, D), D ** -0.5),
            "w1": _normal(keys, (D, M), D ** -0.5), "b_1": jnp.zeros((M,), F32),
            "w2": _normal(keys, (M, D), M ** -0.5), "b_2": jnp.zeros((D,), F32)}
    return p


def digits(key, c=VIT):
    """Digit-like data from a fixed key: one random 8x8 stroke pattern per class,
    each image its class's pattern plus noise; (images (batch, H, W), labels)."""
    kt, kl, kn = jax.random.split(key, 3)
    S = c["image"]
    templates = (jax.random.uniform(kt, (c["classes"], S, S)) > 0.6).astype(F32)
    labels = jax.random.randint(kl, (c["batch"],), 0, c["classes"], jnp.int32)
    return templates[labels] + 0.3 * jax.random.normal(kn, (c["batch"], S, S), F32), labels


def dropout_plain(key, x, rate, perm=(0, 2, 1), axis_name=None, uniform=False):
    """Dropout with ``jax.random.bernoulli``, drawn as ``nn.dropout`` draws: the
    key split once (a keyed Generator's draw takes ``split(key)[1]``) and the
    mask's values those of the shape in the sorted order of the named twin's
    axis names (("batch", "embed", "patch") for (batch, patch, embed): ``perm``),
    laid out as ``x``.  ``axis_name``: inside ``shard_map`` over it, the batch
    is this device's block; the mask is the global one's block (as a named
    draw inside ``nmap``).  ``uniform``: the mask drawn as
    ``rng.uniform(np.zeros_like(x), 1.0) >= rate`` keeps (``vit-uniform``)."""
    sub = jax.random.split(key)[1]
    shape = [x.shape[i] for i in perm]
    if axis_name is not None:
        shape[perm.index(0)] *= jax.lax.axis_size(axis_name)
    if uniform:     # ``rng.uniform(np.zeros_like(x), 1.0) >= rate`` keeps: float64 draws
        drop = jax.random.uniform(sub, shape, jnp.float64) < rate
    else:
        drop = jax.random.bernoulli(sub, rate, shape)
    drop = drop.transpose([perm.index(i) for i in range(len(perm))])
    if axis_name is not None:
        b = x.shape[0]
        drop = jax.lax.dynamic_slice_in_dim(drop, jax.lax.axis_index(axis_name) * b, b)
    return jnp.where(drop, 0.0, x / (1 - rate))


def vit_loss_plain(p, batch, key, c=VIT, axis_name=None):
    """``c["plain_mask"]``: "named" draws the named twin's masks; "own" draws
    them in the activations' own layout (other masks, other losses: the cost
    of a plain program that need not match, for comparison)."""
    images, labels = batch
    perm = (0, 2, 1) if c["plain_mask"] == "named" else (0, 1, 2)
    uni = c.get("dropout") == "uniform"
    x = patches(images, c["patch"]) @ p["w_in"] + p["b_in"] + p["pos"]  # (b, patch, d)
    for i in range(c["blocks"]):
        w = p[f"block{i}"]
        k1, k2 = jax.random.split(jax.random.fold_in(key, i))
        if uni:     # as one keyed Generator per block: two draws, the key split each
            k1 = jax.random.fold_in(key, i)
            k2 = jax.random.split(k1)[0]
        h = layer_norm_plain(x, w["g1"], w["b1"])
        q, k, v = (jnp.einsum("bnd,dhk->bnhk", h, w[n]) for n in ("wq", "wk", "wv"))
        o = jnp.einsum("bnhk,hkd->bnd", jax.nn.dot_product_attention(q, k, v), w["wo"])
        x = x + dropout_plain(k1, o, c["rate"], perm, axis_name, uni)
        h = layer_norm_plain(x, w["g2"], w["b2"])
        u = jax.nn.gelu(h @ w["w1"] + w["b_1"]) @ w["w2"] + w["b_2"]
        x = x + dropout_plain(k2, u, c["rate"], perm, axis_name, uni)
    logits = layer_norm_plain(x, p["g"], p["b"]).mean(axis=1) @ p["w_out"] + p["b_out"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, labels[:, None], axis=-1).mean()


def vit_loss_named(p, batch, key, c=VIT):
    """``batch``: images with names ("batch", "row", "col"), labels ("batch",)."""
    images, labels = batch
    k, n = c["patch"], c["image"] // c["patch"]
    x = images.untag("row", "col").reshape(n, k, n, k).transpose(0, 2, 1, 3)
    x = x.reshape(n * n, k * k).tag("patch", "pixel")     # each image's patches
    x = np.einsum("{batch,patch,pixel},{pixel,embed}->{batch,patch,embed}", x,
                  p["w_in"]) + p["b_in"] + p["pos"]
    for i in range(c["blocks"]):
        w = p[f"block{i}"]
        k1, k2 = jax.random.split(jax.random.fold_in(key, i))
        if c.get("dropout") == "uniform":
            # the NumPy way: a keyed Generator per block, a uniform draw per mask
            rng = np.random.default_rng(jax.random.fold_in(key, i))

            def drop(_, x, rng=rng):
                keep = rng.uniform(np.zeros_like(x), 1.0) >= c["rate"]
                return np.where(keep, x / (1 - c["rate"]), 0.0)
        else:
            drop = functools.partial(nn.dropout, rate=c["rate"])
        h = nn.layer_norm(x, "embed", w["g1"], w["b1"])
        q, k, v = (np.einsum("{batch,patch,embed},{embed,head,kv}->{batch,patch,head,kv}",
                             h, w[n]) for n in ("wq", "wk", "wv"))
        o = nn.dot_product_attention(q, k.rename(patch="key"), v.rename(patch="key"), "kv",
                                     query_axis="patch", key_axis="key")
        o = np.einsum("{batch,patch,head,kv},{head,kv,embed}->{batch,patch,embed}", o,
                      w["wo"])
        x = x + drop(k1, o)
        h = nn.layer_norm(x, "embed", w["g2"], w["b2"])
        u = nn.gelu(np.einsum("{batch,patch,embed},{embed,mlp}->{batch,patch,mlp}", h,
                              w["w1"]) + w["b_1"])
        u = np.einsum("{batch,patch,mlp},{mlp,embed}->{batch,patch,embed}", u,
                      w["w2"]) + w["b_2"]
        x = x + drop(k2, u)
    x = nn.layer_norm(x, "embed", p["g"], p["b"]).mean(axis="patch")
    logits = np.einsum("{batch,embed},{embed,class}->{batch,class}", x,
                       p["w_out"]) + p["b_out"]
    return nn.cross_entropy(logits, labels, axis="class").mean(axis="batch")


#: ``vit-uniform``: the dropout masks drawn the NumPy way
VIT_UNIFORM = {**VIT, "dropout": "uniform"}
VIT_OPT_PLAIN = optax.adamw(1e-3, weight_decay=1e-4, mask=lambda p: jax.tree_util.tree_map(
    lambda v: v.ndim > 1, p))
VIT_OPT_NAMED = optax.adamw(1e-3, weight_decay=1e-4, mask=nn.decay_mask)


def vit_setup(seed=0, c=VIT):
    """Parameters, optimizer state and data of both; the state carries the
    dropout key, split anew every step."""
    kp, kd, kk = jax.random.split(jax.random.key(seed), 3)
    plain = vit_init(kp, c)
    named = _named(plain, VIT_NAMES)
    images, labels = digits(kd, c)
    return (plain, (VIT_OPT_PLAIN.init(plain), kk), (images, labels)), (
        named, (VIT_OPT_NAMED.init(named), kk),
        (np.asarray(images).tag("batch", "row", "col"), np.asarray(labels).tag("batch")))


def vit_shard_setup(seed=0, c=VIT):
    """:func:`vit_setup` placed on the 8-device mesh: the batch split along
    "data", the rest replicated; the named side by ``np.shard(tree, mesh,
    {"batch": "data"})``, the plain one by ``jax.device_put`` with
    ``NamedSharding``.  The step is ``vit``'s, partitioned by XLA."""
    (pp, (_, kk), (images, labels)), (pn, _, bn) = vit_setup(seed, c)
    mesh = _mesh()
    S, P = jax.sharding.NamedSharding, jax.sharding.PartitionSpec
    pp = jax.device_put(pp, S(mesh, P()))
    images, labels = jax.device_put((images, labels), S(mesh, P("data")))
    pn, bn = np.shard((pn, bn), mesh, {"batch": "data"})
    kk = jax.device_put(kk, S(mesh, P()))
    return (pp, (VIT_OPT_PLAIN.init(pp), kk), (images, labels)), (
        pn, (VIT_OPT_NAMED.init(pn), kk), bn)


def _mesh():
    """8 devices along "data"; Auto axes (``shard_map`` takes its inputs
    unsharded and places them by ``in_specs``)."""
    return jax.make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))


def vit_grads(c, dp=False):
    """``(grads_plain, grads_named)``: ``(params, batch, key) -> (loss,
    gradients)``.  ``dp``: data-parallel over 8 devices, the named loss by
    ``np.nmap(..., axes="batch", mesh=, axis_resources=)`` (the gradient taken
    outside the map), the plain one by ``jax.shard_map`` with ``lax.pmean`` of
    the gradients."""
    mesh = _mesh() if dp else None

    def loss_named(p, b, key):
        if not dp:
            return vit_loss_named(p, b, key, c)
        # the key is closed over: an argument of a mesh nmap reaches the
        # function as a NamedArray, which jax.random does not take as a key
        return np.nmap(lambda p, b: vit_loss_named(p, b, key, c), axes="batch", mesh=mesh,
                       axis_resources={"batch": "data"})(p, b)

    def grads_named(p, b, key):
        return jax.value_and_grad(lambda q: loss_named(q, b, key).data)(p)

    def grads_plain(p, b, key):
        if not dp:
            return jax.value_and_grad(vit_loss_plain)(p, b, key, c)
        P = jax.sharding.PartitionSpec

        def local(p, images, labels, key):
            loss, g = jax.value_and_grad(vit_loss_plain)(p, (images, labels), key, c,
                                                         "data")
            return jax.lax.pmean(loss, "data"), jax.lax.pmean(g, "data")
        # check_vma=False: with JAX's varying-axes typing on, the gradient of
        # the replicated parameters comes back already summed over the
        # devices, and pmean would leave that sum (8x the gradient)
        return jax.shard_map(local, mesh=mesh, in_specs=(P(), P("data"), P("data"), P()),
                             out_specs=(P(), P()), check_vma=False)(p, *b, key)
    return grads_plain, grads_named


def _vit_steps(c, dp=False):
    """The two training steps (:func:`vit_grads`, then AdamW): each splits the
    state's key for this step's dropout masks."""
    grads = vit_grads(c, dp)

    def step(grads, opt):
        def step(p, s, b):
            s, key = s
            key, sub = jax.random.split(key)
            loss, g = grads(p, b, sub)
            u, s = opt.update(g, s, p)
            return optax.apply_updates(p, u), (s, key), loss
        return step
    return step(grads[0], VIT_OPT_PLAIN), step(grads[1], VIT_OPT_NAMED)


# --------------------------------------------------------------------------
# moe: a Mixture-of-Experts transformer, experts along a named axis
# --------------------------------------------------------------------------
MOE = dict(layers=2, d_model=64, heads=4, experts=4, mlp=128, seq=32, batch=8,
           vocab=128, lookup="untag")
MOE_NAMES = {"emb": ("vocab", "embed"), "pos": ("seq", "embed"),
             "unemb": ("embed", "vocab"), "g": ("embed",), "b": ("embed",),
             "g1": ("embed",), "b1": ("embed",), "g2": ("embed",), "b2": ("embed",),
             "wq": ("embed", "head", "kv"), "wk": ("embed", "head", "kv"),
             "wv": ("embed", "head", "kv"), "wo": ("head", "kv", "embed"),
             "router": ("embed", "expert"), "w1": ("expert", "embed", "mlp"),
             "b_1": ("expert", "mlp"), "w2": ("expert", "mlp", "embed")}


def moe_init(key, c=MOE):
    D, H, E, M, V, S = c["d_model"], c["heads"], c["experts"], c["mlp"], c["vocab"], \
        c["seq"]
    keys = iter(jax.random.split(key, 3 + 7 * c["layers"]))
    p = {"emb": _normal(keys, (V, D), 0.02), "pos": _normal(keys, (S, D), 0.02),
         "unemb": _normal(keys, (D, V), D ** -0.5),
         "g": jnp.ones((D,), F32), "b": jnp.zeros((D,), F32)}
    for i in range(c["layers"]):
        p[f"block{i}"] = {
            "g1": jnp.ones((D,), F32), "b1": jnp.zeros((D,), F32),
            "g2": jnp.ones((D,), F32), "b2": jnp.zeros((D,), F32),
            **{n: _normal(keys, (D, H, D // H), D ** -0.5) for n in ("wq", "wk", "wv")},
            "wo": _normal(keys, (H, D // H, D), D ** -0.5),
            "router": _normal(keys, (D, E), D ** -0.5),
            "w1": _normal(keys, (E, D, M), D ** -0.5), "b_1": jnp.zeros((E, M), F32),
            "w2": _normal(keys, (E, M, D), M ** -0.5)}
    return p


def moe_loss_plain(p, tokens, c=MOE):
    x_in, y = tokens[:, :-1], tokens[:, 1:]
    x = p["emb"][x_in] + p["pos"]
    for i in range(c["layers"]):
        w = p[f"block{i}"]
        h = layer_norm_plain(x, w["g1"], w["b1"])
        q, k, v = (ein_plain(c, "bsd,dhk->bshk", h, w[n]) for n in ("wq", "wk", "wv"))
        o = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        x = x + ein_plain(c, "bshk,hkd->bsd", o, w["wo"])
        h = layer_norm_plain(x, w["g2"], w["b2"])
        # the router in float32 (see moe_loss_named)
        probs = jax.nn.softmax(f32(c, mat_plain(c, h, w["router"])), axis=-1)  # (b, s, e)
        top = jax.lax.top_k(probs, 2)[0]
        gates = jnp.where(probs >= top[..., -1:], probs, 0.0)
        gates = (gates / gates.sum(axis=-1, keepdims=True)).astype(h.dtype)
        u = jax.nn.gelu(ein_plain(c, "bsd,edm->bsem", h, w["w1"]) + w["b_1"])
        x = x + ein_plain(c, "bsem,emd,bse->bsd", u, w["w2"], gates)
    logits = f32(c, mat_plain(c, layer_norm_plain(x, p["g"], p["b"]), p["unemb"]))
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, y[..., None], axis=-1).mean()


def moe_loss_named(p, tokens, c=MOE):
    """``tokens``: names ("batch", "seq"), length seq + 1.  Dense top-2 gating:
    the router's softmax over "expert", the gates of all but the two largest
    zeroed and renormalised, every expert run and mixed by a named einsum."""
    x_in, y = shift(tokens)
    x = LOOKUPS[c["lookup"]](p["emb"], x_in) + p["pos"]
    for i in range(c["layers"]):
        w = p[f"block{i}"]
        h = nn.layer_norm(x, "embed", w["g1"], w["b1"])
        q, k, v = (ein_named(c, "{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}",
                             h, w[n]) for n in ("wq", "wk", "wv"))
        o = nn.dot_product_attention(q, k.rename(seq="key"), v.rename(seq="key"), "kv",
                                     query_axis="seq", key_axis="key", is_causal=True)
        x = x + ein_named(c, "{batch,seq,head,kv},{head,kv,embed}->{batch,seq,embed}", o,
                          w["wo"])
        h = nn.layer_norm(x, "embed", w["g2"], w["b2"])
        # the router in float32: in bfloat16, XLA may recompute ``probs``
        # inside a fusion at float32 precision, below the rounded ``top``
        # it is compared with, so that no gate is kept and 0 / 0 is NaN
        probs = nn.softmax(f32(c, ein_named(
            c, "{batch,seq,embed},{embed,expert}->{batch,seq,expert}", h, w["router"])),
            axis="expert")
        top, _ = np.top_k(probs, 2, axis="expert")
        gates = np.where(probs >= top[..., -1], probs, 0.0)
        gates = (gates / gates.sum(axis="expert")).astype(h.dtype)
        u = nn.gelu(ein_named(c, "{batch,seq,embed},{expert,embed,mlp}->{batch,seq,expert,mlp}",
                              h, w["w1"]) + w["b_1"])
        x = x + ein_named(c, "{batch,seq,expert,mlp},{expert,mlp,embed},{batch,seq,expert}"
                          "->{batch,seq,embed}", u, w["w2"], gates)
    logits = f32(c, ein_named(c, "{batch,seq,embed},{embed,vocab}->{batch,seq,vocab}",
                              nn.layer_norm(x, "embed", p["g"], p["b"]), p["unemb"]))
    return nn.cross_entropy(logits, y, axis="vocab").mean(axis=("batch", "seq"))


MOE_OPT_PLAIN = STACKED_OPT_PLAIN
MOE_OPT_NAMED = STACKED_OPT_NAMED


def moe_setup(seed=0, c=MOE):
    kp, kd = jax.random.split(jax.random.key(seed))
    plain = cast(c, moe_init(kp, c))
    named = _named(plain, MOE_NAMES)
    tokens = jax.random.randint(kd, (c["batch"], c["seq"] + 1), 0, c["vocab"], jnp.int32)
    return (plain, MOE_OPT_PLAIN.init(plain), tokens), (
        named, MOE_OPT_NAMED.init(named), np.asarray(tokens).tag("batch", "seq"))


# --------------------------------------------------------------------------
# data parallel (-dp) and placed (-shard) variants of the single-batch pairs
# --------------------------------------------------------------------------
def _dp_steps(name, c):
    """The pair ``name``'s training steps data-parallel over 8 devices: the
    named loss under ``np.nmap(..., axes="batch", mesh=, axis_resources=)``
    (the gradient taken outside the map, the batch means become collectives);
    the plain one under ``jax.shard_map`` with ``lax.pmean`` of the local loss
    and gradients (equal blocks: the mean of the block means)."""
    _, _, loss_plain, loss_named, (opt_plain, opt_named) = PAIRS[name]
    mesh, P = _mesh(), jax.sharding.PartitionSpec

    def local(p, b):
        loss, g = jax.value_and_grad(loss_plain)(p, b, c)
        return jax.lax.pmean(loss, "data"), jax.lax.pmean(g, "data")
    # check_vma=False: as in vit_grads
    grads_plain = jax.shard_map(local, mesh=mesh, in_specs=(P(), P("data")),
                                out_specs=(P(), P()), check_vma=False)
    loss_mapped = np.nmap(lambda p, b: loss_named(p, b, c), axes="batch", mesh=mesh,
                          axis_resources={"batch": "data"})

    def step_plain(p, s, b):
        loss, g = grads_plain(p, b)
        u, s = opt_plain.update(g, s, p)
        return optax.apply_updates(p, u), s, loss

    def step_named(p, s, b):
        b = shift(b)
        loss, g = jax.value_and_grad(lambda q: loss_mapped(q, b).data)(p)
        u, s = opt_named.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    return step_plain, step_named


def _shard_setup(name):
    """The pair ``name``'s setup placed on the 8-device mesh (as
    :func:`vit_shard_setup`): ``np.shard(tree, mesh, {"batch": "data"})``
    against ``jax.device_put`` with ``NamedSharding``."""
    def setup(seed=0, c=None):
        _, base_setup, _, _, (opt_plain, opt_named) = PAIRS[name]
        (pp, _, bp), (pn, _, bn) = base_setup(seed, c)
        mesh = _mesh()
        S, P = jax.sharding.NamedSharding, jax.sharding.PartitionSpec
        pp = jax.device_put(pp, S(mesh, P()))
        bp = jax.device_put(bp, S(mesh, P("data")))
        pn, bn = np.shard((pn, bn), mesh, {"batch": "data"})
        return (pp, opt_plain.init(pp), bp), (pn, opt_named.init(pn), bn)
    return setup


#: name -> (config, setup, loss_plain, loss_named, (plain's, named's optimizer))
PAIRS = {"gpt": (GPT, gpt_setup, gpt_loss_plain, gpt_loss_named, (GPT_OPT, GPT_OPT)),
         "mixer": (MIXER, mixer_setup, mixer_loss_plain, mixer_loss_named,
                   (MIXER_OPT, MIXER_OPT)),
         "stacked": (STACKED, stacked_setup, stacked_loss_plain, stacked_loss_named,
                     (STACKED_OPT_PLAIN, STACKED_OPT_NAMED)),
         "moe": (MOE, moe_setup, moe_loss_plain, moe_loss_named,
                 (MOE_OPT_PLAIN, MOE_OPT_NAMED))}
for _style in ("dict", "take"):      # the transformers with the lookup in another style
    for _model in ("gpt", "stacked"):
        PAIRS[f"{_model}-{_style}"] = ({**PAIRS[_model][0], "lookup": _style},) + \
            PAIRS[_model][1:]
#: the pairs with their own training steps: name -> (config, setup, steps(config))
#: (``vit-dp`` needs 8 devices: the script simulates them on the CPU)
STEP_PAIRS = {"vit": (VIT, vit_setup, _vit_steps),
              "vit-dp": (VIT, vit_setup, functools.partial(_vit_steps, dp=True)),
              "vit-shard": (VIT, vit_shard_setup, _vit_steps),
              "vit-uniform": (VIT_UNIFORM, vit_setup, _vit_steps),
              "vit-uniform-dp": (VIT_UNIFORM, vit_setup,
                                 functools.partial(_vit_steps, dp=True))}
for _model in ("stacked", "moe"):    # 8 rows per step: one per device
    STEP_PAIRS[f"{_model}-dp"] = ({**PAIRS[_model][0], "batch": 8},
                                  PAIRS[_model][1], functools.partial(_dp_steps, _model))
    PAIRS[f"{_model}-shard"] = ({**PAIRS[_model][0], "batch": 8},
                                _shard_setup(_model)) + PAIRS[_model][2:]
DEFAULT = ("gpt", "mixer", "stacked")


def pair(name, **config):
    """The pair ``name`` with ``config`` overriding its defaults (CI uses one
    layer): ``(config, (step_plain, step_named), (plain args, named args))``."""
    if name in STEP_PAIRS:
        base, setup, steps = STEP_PAIRS[name]
        c = {**base, **config}
        return c, steps(c), setup(0, c)
    base, setup, lp, ln, opts = PAIRS[name]
    c = {**base, **config}
    fns = _steps(functools.partial(lp, c=c), functools.partial(ln, c=c), *opts)
    return c, fns, setup(0, c)


def check(name, steps=2, **config):
    """``bench_model.check`` for the pair ``name``."""
    _, fns, args = pair(name, **config)
    return bm.check_pair(fns, args, steps)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    known = {**PAIRS, **STEP_PAIRS}
    names = [a for a in argv if a in known] or list(DEFAULT)
    a = bm.parse([x for x in argv if x not in known], __doc__)
    for name in names:
        config, fns, args = pair(name)
        print(f"== {name} {config}; jax {jax.__version__}, {jax.devices()[0].platform}")
        bm.report(a, fns, args, bm.check_pair(fns, args, 5), tol=1e-5)
    return 0


if __name__ == "__main__":
    sys.exit(main())

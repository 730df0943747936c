"""namedarray.nn: each function against its jax.nn oracle on the physical
array, and the same names, values and gradients on every placement of the
names (local nmap, mesh, split block, nested, under jit)."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray import nn

import support

B, C, F = 8, 2, 3
KEY = jax.random.key(7)
# the placements of test_placement that a map of "b" alone covers
PLACEMENTS = {k: support.PLACEMENTS[k] for k in
              ("physical", "nmap", "nmap-b-only", "mesh", "split", "nmap-in-mesh")}

_R = onp.random.default_rng(0)
SCALE = np.asarray(_R.normal(size=F)).tag("f")
KEYS = np.asarray(_R.normal(size=(4, F))).tag("s", "f")        # 4 keys, not mapped
VALUES = np.asarray(_R.normal(size=(4, F))).tag("s", "e")
QUERIES = np.asarray(_R.normal(size=(5, F))).tag("q", "f")     # 5 queries, not mapped
LABELS = np.asarray(_R.integers(0, B, size=(C, F))).tag("c", "f")   # classes along "b"
MASK = np.asarray(_R.random((C, 4)) > 0.3).tag("c", "s")

OPS = {
    "softmax_b": lambda v: nn.softmax(v, axis="b"),
    "softmax_f": lambda v: nn.softmax(v, axis="f"),
    "log_softmax_bf": lambda v: nn.log_softmax(v, axis=("b", "f")),
    "layer_norm_f": lambda v: nn.layer_norm(v, "f", SCALE, 0.5 * SCALE),
    "layer_norm_b": lambda v: nn.layer_norm(v, "b"),
    "rms_norm_b": lambda v: nn.rms_norm(v, "b", SCALE),
    "gelu": nn.gelu,
    "silu": nn.silu,
    "leaky_relu": lambda v: nn.leaky_relu(v, negative_slope=0.2),
    "elementwise_binary": lambda v: nn.elementwise(jnp.arctan2)(v, SCALE),
    "one_hot": lambda v: nn.one_hot((v > 0).astype(int), "k", 3) * v,
    "cross_entropy_ids": lambda v: nn.cross_entropy(v, LABELS, axis="b"),
    "cross_entropy_probs": lambda v: nn.cross_entropy(v, nn.softmax(2 * v, "b"), axis="b"),
    "dropout": lambda v: nn.dropout(KEY, v, 0.25),
    # queries along the mapped name; keys and values fixed
    "attention_q_mapped": lambda v: nn.dot_product_attention(
        v, KEYS, VALUES, "f", query_axis="b", key_axis="s", mask=MASK),
    # keys and values along the mapped name (sequence-parallel keys), causal
    "attention_k_mapped": lambda v: nn.dot_product_attention(
        QUERIES, v, v, "f", query_axis="q", key_axis="b", is_causal=True),
}


def _data(seed=0):
    return jnp.asarray(onp.random.default_rng(seed).normal(size=(B, C, F)))


def _x(data):
    return np.NamedArray(data, ("b", "c", "f"))


def _plain(r):
    return r.untag(*sorted(r.named_shape))


def _check(got, want, tol=1e-9):
    assert got.named_shape == want.named_shape, (got.named_shape, want.named_shape)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    onp.testing.assert_allclose(onp.asarray(_plain(got)), onp.asarray(_plain(want)),
                                rtol=tol, atol=tol)


# -- the physical run against jax.nn -----------------------------------------
def test_physical_values_equal_jax_nn():
    d = _data()                                    # axes b, c, f
    x = _x(d)
    ax = {"b": 0, "c": 1, "f": 2}

    def same(r, want, names, tol=1e-12):
        onp.testing.assert_allclose(onp.asarray(r.untag(*names)), want, rtol=tol, atol=tol)
    same(nn.softmax(x, "b"), jax.nn.softmax(d, axis=0), "bcf")
    same(nn.log_softmax(x, ("b", "f")), jax.nn.log_softmax(d, axis=(0, 2)), "bcf")
    s = onp.asarray(SCALE.untag("f"))
    mean, var = d.mean(2, keepdims=True), d.var(2, keepdims=True)
    same(nn.layer_norm(x, "f", SCALE, 0.5 * SCALE), (d - mean) / onp.sqrt(var + 1e-5) * s
         + 0.5 * s, "bcf")
    same(nn.rms_norm(x, "b", SCALE), d / onp.sqrt((d * d).mean(0, keepdims=True) + 1e-6)
         * s, "bcf")
    for name in nn.ACTIVATIONS:
        if name != "log1mexp":
            same(getattr(nn, name)(x), getattr(jax.nn, name)(d), "bcf")
    same(nn.gelu(x, approximate=False), jax.nn.gelu(d, approximate=False), "bcf")
    labels = onp.asarray(LABELS.untag("c", "f"))
    want = -onp.take_along_axis(onp.asarray(jax.nn.log_softmax(d, axis=0)),
                                labels[None], 0)[0]
    same(nn.cross_entropy(x, LABELS, axis="b"), want, "cf")
    same(nn.one_hot(LABELS, "k", B), jax.nn.one_hot(labels, B), "cfk")
    # attention: jax.nn.dot_product_attention on (batch, seq, heads, dim) layouts
    # (JAX's computes the scores in float32, whatever the input's precision)
    q = onp.asarray(x.untag("c", "b", "f"))[:, :, None]          # (C, B, 1, F)
    k = onp.asarray(KEYS.untag("s", "f"))[None, :, None]           # (1, 4, 1, F)
    v = onp.asarray(VALUES.untag("s", "e"))[None, :, None]         # (1, 4, 1, F)
    m = onp.asarray(MASK.untag("c", "s"))[:, None, None, :]        # (C, 1, 1, 4)
    want = jax.nn.dot_product_attention(q, onp.broadcast_to(k, (C, 4, 1, F)),
                                        onp.broadcast_to(v, (C, 4, 1, F)), mask=m)
    same(OPS["attention_q_mapped"](x), onp.asarray(want)[:, :, 0], "cbe", 1e-6)
    qq = onp.asarray(QUERIES.untag("q", "f"))[None, :, None]        # (1, 5, 1, F)
    kk = onp.asarray(x.untag("c", "b", "f"))[:, :, None]           # (C, 8, 1, F)
    want = jax.nn.dot_product_attention(onp.broadcast_to(qq, (C, 5, 1, F)), kk, kk,
                                        is_causal=True)
    same(OPS["attention_k_mapped"](x), onp.asarray(want)[:, :, 0], "cqf", 1e-6)


def test_dropout_masks_each_slice_and_scales():
    x = np.ones((64, 32)).tag("b", "f")
    y = onp.asarray(nn.dropout(KEY, x, 0.25).untag("b", "f"))
    assert set(onp.unique(y)) == {0.0, 1 / 0.75}
    assert 0.2 < (y == 0).mean() < 0.3
    assert len({r.tobytes() for r in (y == 0)}) == 64             # every row its own mask
    assert nn.dropout(KEY, x, 0.25, deterministic=True) is x
    other = onp.asarray(nn.dropout(jax.random.key(8), x, 0.25).untag("b", "f"))
    assert (other != y).any()


def test_decay_mask_counts_named_axes():
    import optax
    p = {"w": np.ones((3, 2)).tag("embed", "mlp"), "b": np.ones(2).tag("mlp"),
         "raw": jnp.ones((2, 2))}
    assert nn.decay_mask(p) == {"w": True, "b": False, "raw": True}
    assert p["w"].ndim == 0                          # ndim counts positional axes
    opt = optax.adamw(0.1, weight_decay=0.5, mask=nn.decay_mask)
    zero = jax.tree.map(lambda a: a * 0, p)
    upd, _ = opt.update(zero, opt.init(p), p)
    assert float(jnp.abs(upd["w"].data).max()) > 0          # decayed
    assert float(jnp.abs(upd["b"].data).max()) == 0         # not decayed


def test_decay_mask_leaves_the_stacking_axis_uncounted():
    p = {"w": np.ones((2, 3, 4)).tag("layer", "embed", "mlp"),
         "scale": np.ones((2, 3)).tag("layer", "embed")}
    assert nn.decay_mask(p) == {"w": True, "scale": True}
    assert nn.decay_mask(p, stacked="layer") == {"w": True, "scale": False}
    assert nn.decay_mask(p, stacked=("layer",)) == {"w": True, "scale": False}
    with pytest.raises(TypeError, match="decay_mask: stacked got the int 0"):
        nn.decay_mask(p, stacked=(0,))


# -- every placement ---------------------------------------------------------
def _all(v):
    return tuple(f(v) for f in OPS.values())


@pytest.mark.parametrize("placement,jit", [("nmap", True), ("mesh", False)])
def test_every_op_equals_the_physical_run(placement, jit):
    x = _x(_data())
    f = PLACEMENTS[placement](_all)
    for op, got, want in zip(OPS, (jax.jit(f) if jit else f)(x), _all(x)):
        try:
            _check(got, want)
        except Exception as e:
            raise AssertionError(f"{op} under {placement}: {type(e).__name__}: {e}") from None


def test_gradients_equal_the_physical_run():
    """One loss over every op: its gradient through a local nmap nested in a
    mesh one whose name is split (local block x mesh), under jit."""
    ops = [f for op, f in OPS.items() if op != "dropout"]    # a mask: values test it

    def loss(placement):
        def f(data):
            outs = PLACEMENTS[placement](lambda v: tuple(f(v) for f in ops))(_x(data))
            return sum(jnp.sum(jnp.sin(_plain(o).data)) for o in outs)
        return f
    data = _data(1)
    want = jax.jit(jax.grad(loss("physical")))(data)
    got = jax.jit(jax.grad(loss("nmap-in-mesh")))(data)
    onp.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_np_grad_through_nn():
    w = np.asarray(_R.normal(size=(F, B))).tag("f", "b")
    x = _x(_data(2))

    def loss(w):
        logits = np.einsum("{b,c,f},{f,k}->{b,c,k}", x, w.rename(b="k"))
        labels = LABELS[{"f": 0}]                   # class ids along "k", named "c"
        return nn.cross_entropy(nn.rms_norm(logits, "k"), labels, axis="k").mean(
            axis=("b", "c"))
    g = np.grad(loss)(w)
    wd = w.untag("f", "b").data
    plain = lambda wd: loss(np.NamedArray(wd, ("f", "b"))).data  # noqa: E731
    onp.testing.assert_allclose(onp.asarray(g.untag("f", "b")), jax.grad(plain)(wd))
    assert g.named_shape == w.named_shape


def test_elementwise_rule_for_any_jax_function():
    h = _x(_data(3))
    # the documented rule: nn.elementwise(fn), or np.nmap(fn) for any function
    want = jax.nn.gelu(h.untag("b", "c", "f").data)
    for got in (nn.elementwise(jax.nn.gelu)(h), np.nmap(jax.nn.gelu)(h)):
        assert got.named_shape == h.named_shape
        onp.testing.assert_allclose(onp.asarray(got.untag("b", "c", "f")), want)
    with pytest.raises(TypeError, match=r"untag them first \(x.untag\(...\)\) or reduce over "
                       r"them; an elementwise JAX function applies with namedarray.nn."
                       r"elementwise\(fn\)\(x\), any JAX function with namedarray.nmap"):
        jax.nn.gelu(h)
    with pytest.raises(TypeError, match=r"__array__: .*\(numpy.asarray\(x.untag\('b', "
                                        r"'c', 'f'\)\) gives the axes in that order\)"):
        onp.asarray(h)


# -- errors ------------------------------------------------------------------
def test_errors_name_the_function_and_the_argument():
    x = _x(_data())
    with pytest.raises(ValueError, match=r"softmax: axis 'k' is not an axis of the array, "
                                         r"which has named axes \{'b': 8, 'c': 2, 'f': 3\}"):
        nn.softmax(x, "k")
    with pytest.raises(ValueError, match=r"layer_norm: axis=0 is out of bounds for "
                                         r"positional shape \(\)"):
        nn.layer_norm(x, 0)
    with pytest.raises(TypeError, match="cross_entropy: axis must be an axis name"):
        nn.cross_entropy(x, LABELS, axis=0)
    with pytest.raises(ValueError, match=r"cross_entropy: labels must be in \[0, 8\)"):
        nn.cross_entropy(x, LABELS + 8, axis="b")
    with pytest.raises(TypeError, match="cross_entropy: labels without axis 'b' must be "
                                        "class ids"):
        nn.cross_entropy(x, LABELS * 1.0, axis="b")
    with pytest.raises(ValueError, match="one_hot: axis 'c' is already an axis of labels"):
        nn.one_hot(LABELS, "c", 3)
    with pytest.raises(ValueError, match=r"dropout: rate=1.5 must be in \[0, 1\)"):
        nn.dropout(KEY, x, 1.5)
    with pytest.raises(ValueError, match="dot_product_attention: query_axis and key_axis "
                                         "are both 'b'"):
        nn.dot_product_attention(x, x, x, "f", query_axis="b", key_axis="b")
    with pytest.raises(ValueError, match="dot_product_attention: key_axis 's' is not an axis"):
        nn.dot_product_attention(x, KEYS, x, "f", query_axis="b", key_axis="s")
    with pytest.raises(ValueError, match="cumsum: the function is not elementwise: it "
                                         r"returned shape \(48,\)"):
        nn.elementwise(jnp.cumsum)(x)
    with pytest.raises(ValueError, match="gelu: axis name 'f' has size 3 in argument 0"):
        nn.elementwise(jnp.add, "gelu")(x, np.ones(4).tag("f"))


def test_bfloat16_attention_scores_in_float32():
    x = _x(_data(4))
    lo = x.astype(np.bfloat16)
    got = nn.dot_product_attention(QUERIES.astype(np.bfloat16), lo, lo, "f",
                                   query_axis="q", key_axis="b", is_causal=True)
    want = nn.dot_product_attention(QUERIES.astype(np.bfloat16).astype(np.float32),
                                    lo.astype(np.float32), lo.astype(np.float32), "f",
                                    query_axis="q", key_axis="b", is_causal=True)
    assert got.dtype == np.bfloat16 and got.named_shape == want.named_shape
    onp.testing.assert_allclose(onp.asarray(_plain(got).astype(np.float32)),
                                onp.asarray(_plain(want)), rtol=2e-2, atol=2e-2)

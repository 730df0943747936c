"""A Mixture-of-Experts block written with named axes (``namedarray.nn``,
``np.top_k`` over "expert", named einsums) emits the operations of the same
block written with ``jax.nn`` and ``jax.lax.top_k``, forward and gradient
(counted in the traced program, every call expanded; never timed).

What an accelerator's compiler would pay for and a CPU's does not: an
optimization barrier in ``nn.softmax``/``nn.layer_norm`` (NumPy's correctly
rounded division, which the CPU compiler takes out before fusion and the
TPU's keeps), and ``top_k`` ranked along a moved axis (a transpose, the top-k
of the transposed operand, a transpose back)."""
import collections

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray import nn

B, S, D, H, E, M = 2, 16, 32, 4, 4, 64
K = D // H
NAMES = {"x": ("batch", "seq", "embed"), "g": ("embed",), "b": ("embed",),
         "wq": ("embed", "head", "kv"), "wk": ("embed", "head", "kv"),
         "wv": ("embed", "head", "kv"), "router": ("embed", "expert"),
         "w1": ("expert", "embed", "mlp"), "w2": ("expert", "mlp", "embed")}
SHAPES = {"x": (B, S, D), "g": (D,), "b": (D,), "wq": (D, H, K), "wk": (D, H, K),
          "wv": (D, H, K), "router": (D, E), "w1": (E, D, M), "w2": (E, M, D)}


def _params():
    r = onp.random.default_rng(0)
    plain = {k: jnp.asarray(r.standard_normal(s) * 0.3, jnp.float32) for k, s in SHAPES.items()}
    return plain, {k: np.asarray(v).tag(*NAMES[k]) for k, v in plain.items()}


def _ln(x, g, b):
    xc = x - x.mean(-1, keepdims=True)
    return xc * jax.lax.rsqrt((xc * xc).mean(-1, keepdims=True) + 1e-5) * g + b


def block_plain(p):
    h = _ln(p["x"], p["g"], p["b"])
    q, k, v = (jnp.einsum("bsd,dhk->bshk", h, p[n]) for n in ("wq", "wk", "wv"))
    h = h + jax.nn.dot_product_attention(q, k, v, is_causal=True).sum((2, 3))[..., None]
    probs = jax.nn.softmax(h @ p["router"], axis=-1)
    top = jax.lax.top_k(probs, 2)[0]
    gates = jnp.where(probs >= top[..., -1:], probs, 0.0)
    u = jax.nn.gelu(jnp.einsum("bsd,edm->bsem", h, p["w1"]))
    y = jnp.einsum("bsem,emd,bse->bsd", u, p["w2"], gates)
    return jax.nn.log_softmax(y, axis=-1).sum()


def block_named(p):
    h = nn.layer_norm(p["x"], "embed", p["g"], p["b"])
    q, k, v = (np.einsum("{batch,seq,embed},{embed,head,kv}->{batch,seq,head,kv}", h, p[n])
               for n in ("wq", "wk", "wv"))
    o = nn.dot_product_attention(q, k.rename(seq="key"), v.rename(seq="key"), "kv",
                                 query_axis="seq", key_axis="key", is_causal=True)
    h = h + o.sum(axis=("head", "kv"))
    probs = nn.softmax(np.einsum("{batch,seq,embed},{embed,expert}->{batch,seq,expert}", h,
                                 p["router"]), axis="expert")
    top, _ = np.top_k(probs, 2, axis="expert")
    gates = np.where(probs >= top[..., -1], probs, 0.0)
    u = nn.gelu(np.einsum("{batch,seq,embed},{expert,embed,mlp}->{batch,seq,expert,mlp}", h,
                          p["w1"]))
    y = np.einsum("{batch,seq,expert,mlp},{expert,mlp,embed},{batch,seq,expert}"
                  "->{batch,seq,embed}", u, p["w2"], gates)
    return nn.log_softmax(y, axis="embed").sum(axis=("batch", "seq", "embed")).data


def _program(f, p):
    """The primitives of ``f``'s jaxpr, every call (``jit``, ``custom_jvp``,
    ...) expanded, and the ``top_k`` equations' operand shapes and axes."""
    counts, tops = collections.Counter(), []

    def walk(jaxpr):
        for e in jaxpr.eqns:
            counts[e.primitive.name] += 1
            if e.primitive.name == "top_k":
                tops.append((e.invars[0].aval.shape, e.params.get("axis", -1) % len(
                    e.invars[0].aval.shape)))
            for v in e.params.values():
                for sub in v if isinstance(v, (tuple, list)) else (v,):
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        walk(inner)
    walk(jax.make_jaxpr(f)(p).jaxpr)
    return counts, tops


#: operations the named block must emit as often as the plain one
SAME = ("optimization_barrier", "top_k", "dot_general", "exp", "log", "rsqrt", "tanh",
        "integer_pow", "mul", "neg", "sub", "reduce_max")
#: operations it may emit less often (alignment by name broadcasts and selects less)
AT_MOST = ("transpose", "div", "reduce_sum", "broadcast_in_dim", "select_n")


@pytest.mark.parametrize("grad", [False, True], ids=["forward", "gradient"])
def test_moe_block_emits_the_plain_blocks_operations(grad):
    plain, named = _params()
    fp, fn = (jax.grad(block_plain), jax.grad(block_named)) if grad else (block_plain,
                                                                         block_named)
    (cp, tp), (cn, tn) = _program(fp, plain), _program(fn, named)
    assert cp["optimization_barrier"] == 0
    assert {k: cn[k] for k in SAME} == {k: cp[k] for k in SAME}, (cp, cn)
    for k in AT_MOST:
        assert cn[k] <= cp[k], (k, cp[k], cn[k])
    assert tn == tp == [((B, S, E), 2)]       # ranked where "expert" lies: the last axis
    # the same values (at one matmul precision: under NumPy's dtype defaults a
    # named contraction asks for the highest, which an accelerator's default,
    # bf16 passes, is not; on the CPU both are exact float32)
    with jax.default_matmul_precision("highest"):
        got, want = jax.jit(fn)(named), jax.jit(fp)(plain)
    if grad:
        for k in SHAPES:     # float32 sums in other orders: to 1e-5 of the largest
            onp.testing.assert_allclose(got[k].untag(*NAMES[k]), want[k], rtol=1e-5,
                                        atol=1e-5 * float(jnp.abs(want[k]).max()))
    else:
        onp.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("fn, ref", [
    (lambda x: nn.softmax(x, "f"), lambda d: jax.nn.softmax(d, axis=1)),
    (lambda x: nn.log_softmax(x, "f"), lambda d: jax.nn.log_softmax(d, axis=1)),
    (lambda x: nn.layer_norm(x, "f"), lambda d: _ln(d, 1.0, 0.0)),
    (lambda x: nn.rms_norm(x, "f"), lambda d: d * jax.lax.rsqrt(
        jnp.mean(d * d, axis=1, keepdims=True) + 1e-6)),
], ids=["softmax", "log_softmax", "layer_norm", "rms_norm"])
@pytest.mark.parametrize("dtype", [jnp.float32, jnp.bfloat16])
def test_nn_functions_divide_as_jax_nn(fn, ref, dtype):
    """``jax.nn`` by name: JAX's division (no optimization barrier), and in
    half precision ``jnp.mean``'s float32 sum; the values of the positional
    JAX code, compiled, bit for bit in float32."""
    d = jnp.asarray(onp.random.default_rng(1).standard_normal((6, 40)), dtype)
    x = np.asarray(d).tag("b", "f")
    counts, _ = _program(lambda x: fn(x).data, x)
    assert counts["optimization_barrier"] == 0
    got = jax.jit(lambda x: fn(x).untag("b", "f").data)(x)
    want = jax.jit(ref)(d)
    assert got.dtype == want.dtype == dtype
    if dtype == jnp.float32:
        onp.testing.assert_array_equal(got, want)
    else:
        onp.testing.assert_allclose(got.astype(jnp.float32), want.astype(jnp.float32),
                                    rtol=1e-2, atol=1e-2)


def test_top_k_along_a_name_ranks_where_it_lies():
    """``np.top_k(x, k, axis=name)`` is one ``lax.top_k`` along the name's
    dimension, on the operand as it lies (no transpose); the values and
    indices are ``lax.top_k``'s, the new axis last positional; the same inside
    a local ``nmap`` over another name."""
    d = jnp.asarray(onp.random.default_rng(2).permutation(5 * 3 * 8).reshape(5, 3, 8),
                    jnp.float32)
    x = np.asarray(d).tag("b", "s", "e")
    rv, ri = jax.lax.top_k(d, 3)
    counts, tops = _program(lambda t: np.top_k(t, 3, axis="e")[0].data, x)
    # the one transpose of each result lays the new axis out positional-first
    assert tops == [((5, 3, 8), 2)] and counts["transpose"] == 2, (tops, counts)
    for f in (lambda t: np.top_k(t, 3, axis="e"),
              np.nmap(lambda t: np.top_k(t, 3, axis="e"), axes="b")):
        v, i = jax.jit(f)(x)
        assert v.shape == (3,) and v.named_shape == {"b": 5, "s": 3}
        onp.testing.assert_array_equal(v.untag("b", "s"), rv)
        onp.testing.assert_array_equal(i.untag("b", "s"), ri)

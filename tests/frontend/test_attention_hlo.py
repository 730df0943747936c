"""nn.dot_product_attention compiles to the graph of the same attention
hand-written with named einsums (docs/design.md §1, the layout rule; issue
#38): forward and gradient under jax.jit, counted in the optimized HLO
(transposes and copies, never timed), with the same values."""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray import nn

B, S, H, K = 2, 16, 2, 8


def _moves(f, *args):
    """Transposes and copies in the optimized HLO of ``jax.jit(f)``."""
    text = jax.jit(f).lower(*args).compile().as_text()
    return len(re.findall(r"=\s*\S+\s+(?:transpose|copy)\(", text))


def _einsum_attention(q, k, v, bias=None):
    """The attention a user writes with named einsums."""
    s = np.einsum("{batch,seq,head,kv},{batch,key,head,kv}->{batch,head,seq,key}", q, k)
    s = s * K ** -0.5
    if bias is not None:
        s = s + bias
    causal = np.arange(S).tag("seq") >= np.arange(S).tag("key")
    s = np.where(causal, s, np.asarray(jnp.finfo(s.dtype).min, dtype=s.dtype))
    return np.einsum("{batch,head,seq,key},{batch,key,head,kv}->{batch,seq,head,kv}",
                     nn.softmax(s, "key"), v)


def _nn_attention(q, k, v, bias=None):
    return nn.dot_product_attention(q, k, v, "kv", query_axis="seq", key_axis="key",
                                    bias=bias, is_causal=True)


def _operands(with_bias):
    r = onp.random.default_rng(0)
    arr = lambda shape, dims: np.NamedArray(  # noqa: E731
        jnp.asarray(r.standard_normal(shape), jnp.float32), dims)
    q = arr((B, S, H, K), ("batch", "seq", "head", "kv"))
    k = arr((B, S, H, K), ("batch", "key", "head", "kv"))
    v = arr((B, S, H, K), ("batch", "key", "head", "kv"))
    bias = arr((S, S), ("seq", "key")) if with_bias else None
    return q, k, v, bias


def _loss(attention):
    def loss(q, k, v, bias):
        return (attention(q, k, v, bias) ** 2).sum(axis=("batch", "seq", "head", "kv")).data
    return jax.grad(loss, argnums=(0, 1, 2))


@pytest.mark.parametrize("with_bias", [False, True])
@pytest.mark.parametrize("grad", [False, True], ids=["forward", "gradient"])
def test_attention_moves_no_more_than_named_einsums(grad, with_bias):
    args = _operands(with_bias)
    ours, ref = (_loss(f) if grad else f for f in (_nn_attention, _einsum_attention))
    got, want = _moves(ours, *args), _moves(ref, *args)
    assert got <= want * 1.1, (f"nn.dot_product_attention: {got} transposes+copies, the "
                               f"named-einsum attention {want}")
    for a, b in zip(_plain(jax.jit(ours)(*args)), _plain(jax.jit(ref)(*args))):
        onp.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def _plain(result):
    """The NamedArrays of ``result`` as NumPy arrays, names in sorted order."""
    leaves = jax.tree_util.tree_leaves(result, is_leaf=lambda x: isinstance(x, np.NamedArray))
    return [onp.asarray(x.untag(*sorted(x.named_shape))) for x in leaves]

def test_attention_values_equal_jax_nn():
    q, k, v, _ = _operands(False)
    # (both at the highest matmul precision: an accelerator's default passes bf16)
    with jax.default_matmul_precision("highest"):
        got = _nn_attention(q, k, v).untag("batch", "seq", "head", "kv")
        want = jax.nn.dot_product_attention(
            *(x.untag("batch", n, "head", "kv").data for x, n in
              ((q, "seq"), (k, "key"), (v, "key"))), is_causal=True)
    onp.testing.assert_allclose(onp.asarray(got), onp.asarray(want), rtol=1e-5, atol=1e-5)

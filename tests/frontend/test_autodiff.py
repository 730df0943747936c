"""np.grad / np.value_and_grad: functions returning a 0-d NamedArray, gradients
as NamedArrays with the parameters' names; the oracle is jax.grad of the same
model written on the physical data with jax.numpy."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jax.test_util import check_grads

import namedarray as np
from namedarray.core.array import NOT_A_JAX_ARRAY
from support import make_mesh

RNG = onp.random.default_rng(0)
X = RNG.normal(size=(4, 3))          # (batch, feat)
W = RNG.normal(size=(3, 2))          # (feat, out)
B = RNG.normal(size=(2,))            # (out,)


def params():
    return {"w": np.asarray(W).tag("feat", "out"), "b": np.asarray(B).tag("out")}


def named_loss(p, x):
    h = np.einsum("{batch,feat},{feat,out}->{batch,out}", x, p["w"]) + p["b"]
    return (np.tanh(h) ** 2).mean(axis="batch").sum(axis="out")


def plain_loss(p, x):
    return (jnp.tanh(x @ p["w"] + p["b"]) ** 2).mean(0).sum()


def assert_named_like(g, ref, like):
    assert g.dims == like.dims
    onp.testing.assert_allclose(onp.asarray(g.untag(*like.names)),
                                onp.asarray(ref), rtol=1e-12, atol=1e-12)


def test_value_and_grad_dict_of_named_arrays():
    x = np.asarray(X).tag("batch", "feat")
    value, g = np.value_and_grad(named_loss)(params(), x)
    rv, rg = jax.value_and_grad(plain_loss)({"w": jnp.asarray(W), "b": jnp.asarray(B)},
                                           jnp.asarray(X))
    assert isinstance(value, np.NamedArray) and value.shape == () and not value.names
    onp.testing.assert_allclose(float(value), float(rv), rtol=1e-12)
    assert set(g) == {"w", "b"}
    for k in g:
        assert_named_like(g[k], rg[k], params()[k])
    # grad is the second half of value_and_grad
    g2 = np.grad(named_loss)(params(), x)
    assert jax.tree_util.tree_all(jax.tree_util.tree_map(
        lambda a, b: bool(jnp.array_equal(a, b)), g, g2))


def test_argnums_has_aux_and_jit():
    x = np.asarray(X).tag("batch", "feat")

    def f(p, x):
        loss = named_loss(p, x)
        return loss, {"loss": loss, "n": 4}

    (value, aux), (gp, gx) = jax.jit(np.value_and_grad(f, argnums=(0, 1), has_aux=True))(
        params(), x)
    assert aux["n"] == 4 and float(aux["loss"]) == float(value)
    rgp, rgx = jax.grad(plain_loss, argnums=(0, 1))(
        {"w": jnp.asarray(W), "b": jnp.asarray(B)}, jnp.asarray(X))
    assert_named_like(gx, rgx, x)
    assert_named_like(gp["w"], rgp["w"], params()["w"])
    gx2, aux2 = np.grad(f, argnums=1, has_aux=True)(params(), x)
    assert_named_like(gx2, rgx, x)
    assert aux2["n"] == 4


def test_grad_inside_nmap_sums_a_shared_parameter_once():
    """Inside nmap each instance's loss is differentiated, and a parameter every
    instance shares gets the sum of their contributions: the gradient of the
    summed loss on the physical data (as under shard_map)."""
    x = np.asarray(X).tag("batch", "feat")
    w = params()["w"]

    def per_example(xi):
        return np.grad(lambda w: np.tanh(np.einsum(
            "{feat},{feat,out}->{out}", xi, w)).sum(axis="out"))(w)

    g = np.nmap(per_example, axes=("batch",))(x)
    ref = jax.grad(lambda w: jnp.tanh(jnp.asarray(X) @ w).sum())(jnp.asarray(W))
    assert g.named_shape == {"feat": 3, "out": 2}
    onp.testing.assert_allclose(onp.asarray(g.untag("feat", "out")), onp.asarray(ref),
                                rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("devices", [4, 2])
def test_grad_inside_a_mesh_nmap(devices):
    """The same with "batch" partitioned over a mesh: one instance per device,
    or a block of two.  Each instance's own input gets its own gradient, the
    shared parameter the sum over all of them; the local map gives the same."""
    x = np.asarray(X).tag("batch", "feat")
    w = params()["w"]
    mesh = make_mesh((devices,), ("data",))

    def per_example(xi, w):
        return np.value_and_grad(lambda xi, w: np.tanh(np.einsum(
            "{feat},{feat,out}->{out}", xi, w)).sum(axis="out"), argnums=(0, 1))(xi, w)

    plain = lambda xi, w: jnp.tanh(xi @ w).sum()  # noqa: E731
    rl = jax.vmap(plain, in_axes=(0, None))(jnp.asarray(X), jnp.asarray(W))
    rx, rw = jax.grad(lambda x, w: jax.vmap(plain, in_axes=(0, None))(x, w).sum(),
                      argnums=(0, 1))(jnp.asarray(X), jnp.asarray(W))
    for run in (np.nmap(per_example, axes=("batch",), mesh=mesh,
                        axis_resources={"batch": "data"}),
                np.nmap(per_example, axes=("batch",))):
        loss, (gx, gw) = run(x, w)
        onp.testing.assert_allclose(onp.asarray(loss.untag("batch")), rl, rtol=1e-12)
        onp.testing.assert_allclose(onp.asarray(gx.untag("batch", "feat")), rx,
                                    rtol=1e-12)
        assert gw.named_shape == {"feat": 3, "out": 2}
        onp.testing.assert_allclose(onp.asarray(gw.untag("feat", "out")), rw,
                                    rtol=1e-12, atol=1e-12)


@given(st.integers(1, 4), st.integers(1, 3))
def test_gradients_check_numerically(n, k):
    """The named loss differentiates as its numerical derivative says (first and
    second order), and np.grad returns those gradients."""
    a = RNG.normal(size=(n, k))
    x = np.asarray(a).tag("i", None)

    def loss(v):
        return (np.sin(v) * v).sum(axis="i").sum()

    check_grads(lambda d: loss(np.NamedArray(d, dims=(None, "i"))).data,
                (x.data,), order=2, modes=["rev"])
    g = np.grad(loss)(x)
    assert g.named_shape == {"i": n} and g.shape == (k,)
    onp.testing.assert_allclose(onp.asarray(g.untag("i")), onp.cos(a) * a + onp.sin(a),
                                rtol=1e-12)


def test_a_jax_scalar_loss_works_too():
    x = np.arange(3.0)
    onp.testing.assert_allclose(onp.asarray(np.grad(lambda v: (v * v).sum().data)(x)),
                                [0.0, 2.0, 4.0])


def test_errors_name_the_way_out():
    x = np.arange(3.0).tag("k")
    with pytest.raises(TypeError, match=r"grad: the function must return a scalar loss "
                                        r"\(a 0-d array\); it returned positional shape "
                                        r"\(\) and named axes \{'k': 3\}; reduce them "
                                        r"first, e.g. loss.mean\(axis='k'\)\s*(-|$)"):
        np.grad(lambda v: v * 2)(x)
    # the suggestion reduces every axis left (loss.sum() would keep the names)
    with pytest.raises(TypeError, match=r"value_and_grad: .* positional shape \(3,\) and "
                                        r"named axes \{\}; .* loss.mean\(axis=0\)\s*(-|$)"):
        np.value_and_grad(lambda v: v.untag("k"))(x)
    with pytest.raises(TypeError, match=r"e.g. loss.mean\(axis=\(0, '[jk]', '[jk]'\)\)\s*(-|$)"):
        np.grad(lambda v: v * np.ones((2, 2)).tag(None, "j"))(x)
    with pytest.raises(TypeError, match=r"grad: with has_aux=True the function must "
                                        r"return a pair \(loss, aux\), got NamedArray"):
        np.grad(lambda v: v.sum(axis="k"), has_aux=True)(x)
    # jax.grad itself cannot take a NamedArray output: its error points here
    for f in (jax.grad, jax.value_and_grad):
        with pytest.raises(ValueError) as e:
            f(lambda v: v.sum(axis="k"))(x)
        assert str(e.value) == NOT_A_JAX_ARRAY
        assert "namedarray.grad or namedarray.value_and_grad" in NOT_A_JAX_ARRAY
    # JAX functions that convert their input still take a positional NamedArray
    onp.testing.assert_allclose(onp.asarray(jnp.sin(np.arange(3.0))), onp.sin(onp.arange(3.0)))

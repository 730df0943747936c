"""nmap: named operations on mapped names are collectives, and the mapped run
equals the unmapped run (names an output does not vary along are dropped)."""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from support import arrays, assert_same_named

FUNCS = ["sum", "mean", "max", "min", "prod", "std", "var", "median", "argmax", "argmin",
         "any", "all", "cumsum", "cumprod", "sort", "argsort", "logsumexp", "ptp",
         "count_nonzero", "nanmean", "flip"]


same = assert_same_named


@pytest.mark.parametrize("name", FUNCS)
@settings(max_examples=8)   # each example compiles the mapped program afresh
@given(data=st.data())
def test_named_ops_in_nmap_equal_unmapped(name, data):
    shape = data.draw(st.sampled_from([(1, 1), (2, 3), (3, 1, 2), (2, 2, 4)]))
    a = data.draw(arrays(onp.float64, shape))
    x = np.asarray(a).tag("b", *([None] * (a.ndim - 2)), "c")
    axis = data.draw(st.sampled_from(["b", ("b", 0) if a.ndim > 2 else "b", "c",
                                      ("b", "c")]))
    fn = getattr(np, name)
    if name in ("argmax", "argmin", "cumsum", "cumprod", "sort", "argsort", "flip") \
            and not isinstance(axis, str):
        axis = "b"
    unmapped = fn(x, axis=axis)
    mapped = np.nmap(lambda v: fn(v, axis=axis))(x)
    same(mapped, unmapped)


def test_nmap_partial_names_and_raw_jax_inside():
    a = onp.arange(24.0).reshape(2, 3, 4)
    x = np.asarray(a).tag("b", None, "c")

    def f(v):
        # raw JAX code sees only the positional axis
        assert v.shape == (3,) and jnp.ndim(v.data) == 1
        return jnp.sin(v.data) * 2 + jax.lax.psum(v.data, "b")
    out = np.nmap(f)(x)
    ref = onp.sin(a) * 2 + a.sum(0, keepdims=True)
    onp.testing.assert_allclose(out.untag("b", "c"), ref.transpose(0, 2, 1))
    # jit of nmap, and nmap of a function with several arguments aligned by name
    y = np.asarray(onp.arange(4.0)).tag("c")
    g = jax.jit(np.nmap(lambda u, w: (u * w).sum(axis="c")))
    onp.testing.assert_allclose(g(x, y).untag("b"), (a * onp.arange(4.0)).sum(2))


def test_nmap_grad_and_errors():
    a = jnp.asarray(onp.random.default_rng(0).normal(size=(3, 4)))
    loss = lambda d: np.nmap(lambda v: (v - v.mean(axis="b")) ** 2)(  # noqa: E731
        np.NamedArray(d, ("b", None))).sum(axis=("b", 0)).data
    ref = lambda d: ((d - d.mean(0)) ** 2).sum()  # noqa: E731
    onp.testing.assert_allclose(jax.grad(loss)(a), jax.grad(ref)(a), rtol=1e-12)
    x = np.NamedArray(a, ("b", None))
    y = np.zeros((4, 2)).tag("b", None)
    with pytest.raises(ValueError, match=r"nmap: axis name 'b' has size 3 in argument 0"):
        np.nmap(lambda u, v: u)(x, y)
    with pytest.raises(ValueError, match=r"sum: axis name 'q' is not an axis"):
        np.nmap(lambda v: v.sum(axis="q"))(x)


def test_nmap_of_a_function_returning_a_python_scalar():
    """An output that is a Python number (the same in every instance) comes
    back as that number, beside an output that varies, eager and under jit."""
    a = onp.arange(6.0).reshape(2, 3)
    x = np.asarray(a).tag("b", None)
    for run in (np.nmap(lambda v: (v.sum(), 2.0)),
                jax.jit(np.nmap(lambda v: (v.sum(), 2.0)))):
        s, c = run(x)
        onp.testing.assert_array_equal(s.untag("b"), a.sum(1))
        assert onp.shape(c) == () and float(c) == 2.0


def test_default_nmap_contraction_transposes_no_more_than_unmapped():
    """With every name mapped, an einsum whose dot leaves the mapped names
    out of the spec's order does not transpose them: they become the maps'
    batch dimensions where they lie.  The forward pass lowers to the
    unmapped program's transposes (a transpose per such einsum before), and
    the values agree."""
    r = onp.random.default_rng(0)
    f = lambda *s, names: np.NamedArray(r.standard_normal(s).astype(onp.float32), names)
    p = {"w1": f(8, 16, names=("e", "h")), "w2": f(16, 8, names=("h", "e"))}
    x = f(2, 4, 8, names=("b", "s", "e"))

    def loss(p, x):       # each dot gives (h, b, s) and (e, b, s): the spec wants b, s first
        u = np.tanh(np.einsum("{e,h},{b,s,e}->{b,s,h}", p["w1"], x))
        y = np.einsum("{h,e},{b,s,h}->{b,s,e}", p["w2"], u) - x
        return (y * y).mean(axis=("b", "s", "e"))
    count = {}
    for name, g in (("unmapped", jax.jit(loss)), ("b", jax.jit(np.nmap(loss, axes="b"))),
                    ("every name", jax.jit(np.nmap(loss)))):
        onp.testing.assert_allclose(float(g(p, x)), float(loss(p, x)), rtol=1e-6)
        count[name] = g.lower(p, x).as_text().count("stablehlo.transpose")
    assert count["every name"] == count["b"] == count["unmapped"], count


def test_mixed_axis_keeps_the_order_given():
    a = onp.arange(12).reshape(3, 4)
    x = np.asarray(a).tag(None, "t")
    got = np.roll(x, shift=(1, 2), axis=(0, "t"))
    onp.testing.assert_array_equal(got.untag("t"), onp.roll(a, (1, 2), axis=(0, 1)).T)
    got = np.nmap(lambda v: np.roll(v, shift=(2, 1), axis=("t", 0)))(x)
    onp.testing.assert_array_equal(got.untag("t"), onp.roll(a, (2, 1), axis=(1, 0)).T)


@pytest.mark.parametrize("transform", [
    lambda f, x: jax.vmap(f)(x),
    lambda f, x: jax.lax.map(f, x),
    lambda f, x: jax.lax.scan(lambda c, t: (c, f(t)), 0.0, x)[1],
    lambda f, x: jax.jit(lambda x: jax.lax.scan(lambda c, t: (c, f(t)), 0.0, x)[1])(x),
], ids=["vmap", "map", "scan", "jit-scan"])
def test_raw_transform_of_a_single_name_array_raises(transform):
    x = np.NamedArray(jnp.arange(6.0), ("a",))
    with pytest.raises(ValueError, match=r"np\.nmap\(f, axes='a'\), or make it positional "
                                         r"first with x\.untag\('a'\)"):
        transform(lambda t: t * 2, x)


def test_functions_of_leaves_reduce_names_to_a_scalar():
    """``jax.tree.map(jnp.sum, tree)`` (optax's norms and sums) makes a
    positional scalar of each NamedArray leaf, whatever its names, eager, under
    ``jit`` and inside a raw ``jax.vmap``; a raw transform that passes a one-name
    array through unused gives it back whole."""
    import optax
    w = np.asarray(onp.arange(6.0).reshape(2, 3)).tag("a", "b")
    b = np.asarray(onp.ones(3)).tag("b")
    for sums in (jax.tree.map(jnp.sum, {"w": w, "b": b}),
                 jax.jit(lambda t: jax.tree.map(jnp.sum, t))({"w": w, "b": b})):
        assert sums["w"].dims == () and float(sums["w"]) == 15.0 and float(sums["b"]) == 3.0
    got = jax.vmap(lambda s: optax.tree_utils.tree_sum({"w": w * s, "b": b * s}))(
        jnp.arange(3.0))
    onp.testing.assert_allclose(got, 18.0 * onp.arange(3.0))
    x = np.NamedArray(jnp.arange(6.0), ("a",))
    assert jax.vmap(lambda t: t)(x).dims == ("a",)
    # a function that drops several axes of an array: which ones is unknown
    y = np.NamedArray(jnp.zeros((2, 3, 4)), (None, None, "a"))
    with pytest.raises(ValueError, match=r"gave a leaf with 1 axes for a NamedArray with "
                                         r"dims \(None, None, 'a'\): which axes it removed"):
        jax.tree.map(lambda v: v[0, 0], {"y": y})
    assert jax.tree.map(lambda v: v[0], {"y": y})["y"].dims == (None, "a")


def _mlp_step(p, x):
    def loss(p):
        u = np.tanh(np.einsum("{b,s,e},{e,h}->{b,s,h}", x, p["w1"]))
        y = np.einsum("{b,s,h},{h,e}->{b,s,e}", u, p["w2"])
        return ((y - x) ** 2).mean(axis=("b", "s", "e"))
    return np.value_and_grad(loss)(p)


@pytest.mark.cpu_only("counts the dots of XLA CPU's compiled HLO (a TPU's compiler "
                      "emits them as convolutions and fusions)")
def test_default_nmap_gradient_is_one_dot_per_contraction():
    """Mapping every name (the default) costs what mapping the batch name
    does, gradients included: each contraction and each of its two
    gradients is one dot over the whole arrays, none an outer product per
    instance summed over the map; values equal the unmapped step's."""
    r = onp.random.default_rng(0)
    f = lambda *s, names: np.NamedArray(r.standard_normal(s).astype(onp.float32), names)
    p = {"w1": f(8, 16, names=("e", "h")), "w2": f(16, 8, names=("h", "e"))}
    x = f(2, 4, 8, names=("b", "s", "e"))
    loss, grads = jax.jit(_mlp_step)(p, x)
    hlos = {}
    for axes in ("b", None):
        g = jax.jit(np.nmap(_mlp_step, axes=axes))
        l2, g2 = g(p, x)
        assert abs(float(l2) - float(loss)) <= 1e-6
        for k in p:
            assert g2[k].named_shape == grads[k].named_shape
            onp.testing.assert_allclose(g2[k].untag(*grads[k].dims).data,
                                        grads[k].untag(*grads[k].dims).data,
                                        rtol=1e-5, atol=1e-6)
        hlos[axes] = g.lower(p, x).compile().as_text()
    dots = {a: len(re.findall(r"\bdot\(", h)) for a, h in hlos.items()}
    assert dots[None] == dots["b"] == 5, dots   # 2 forward, 3 for the gradients
    big = 2 * 4 * 8 * 16                             # an outer product's elements
    assert not re.search(rf"\[{big}\]|\[2,4,8,16\]|\[2,4,16,8\]", hlos[None])

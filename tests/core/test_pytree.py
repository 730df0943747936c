"""A NamedArray as a pytree on the path a jitted call takes every step: its
arguments flattened, its results unflattened (core/pytree.py's fast path for
concrete results), without retracing and without losing names."""
import jax
import jax.numpy as jnp
import numpy as onp

import namedarray as np
from namedarray.core.array import NamedArray, View


def _params(n):
    rng = onp.random.default_rng(0)
    dims = [("a", "b"), (None, "b"), ("b",), (None, None), ()]
    out = {}
    for i in range(n):
        d = dims[i % len(dims)]
        shape = tuple(3 + k for k in range(len(d)))
        out[f"w{i}"] = NamedArray(rng.standard_normal(shape).astype(onp.float32), d)
    return out


def test_jitted_step_on_a_namedarray_pytree_traces_once_and_keeps_names():
    traces = [0]

    def step(p, m):
        traces[0] += 1
        m = {k: 0.9 * m[k] + p[k] for k in m}
        return {k: p[k] - 0.01 * m[k] for k in p}, m

    p = m = _params(24)
    plain_p = plain_m = {k: onp.asarray(v.data) for k, v in p.items()}
    f = jax.jit(step)
    for _ in range(5):
        p, m = f(p, m)
        plain_m = {k: 0.9 * plain_m[k] + plain_p[k] for k in plain_m}
        plain_p = {k: plain_p[k] - 0.01 * plain_m[k] for k in plain_p}
    assert traces[0] == 1
    for k, v in p.items():
        assert type(v) is NamedArray and v.dims == _params(24)[k].dims and not v.mapped
        onp.testing.assert_allclose(v.data, plain_p[k], rtol=1e-6)
    # a 0-d positional result is a scalar, as one made any other way
    s = jax.jit(lambda t: t["w4"] * 2)(p)
    assert s.ndim == 0 and np.isscalar(s) and repr(s).startswith("np.float32(")


def test_unflatten_of_concrete_leaves_matches_the_general_rule():
    x = NamedArray(onp.arange(24.0).reshape(2, 3, 4), (None, "b", "c"))
    leaves, tree = jax.tree_util.tree_flatten(x)
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)
    same = jax.tree_util.tree_unflatten(tree, [leaves[0] + 1])
    assert type(same) is NamedArray and same.dims == x.dims
    onp.testing.assert_array_equal(same.data, onp.asarray(x.data) + 1)
    # one more leading axis: a new leading positional axis (what jax.vmap returns)
    more = jax.tree_util.tree_unflatten(tree, [jnp.stack([leaves[0]] * 5)])
    assert more.dims == (None, None, "b", "c") and more.shape == (5, 2)
    # a 0-d result of a function of the leaves (optax's norms): a positional scalar
    s = jax.tree_util.tree_map(jnp.sum, {"x": np.NamedArray(onp.ones(3), ("b",))})["x"]
    assert s.dims == () and float(s) == 3.0


def test_flatten_of_data_on_the_host_and_of_views():
    h = np.asarray(onp.arange(6.0))           # small eager data lives on the host
    (leaf,), tree = jax.tree_util.tree_flatten(h)
    assert isinstance(leaf, jax.Array)
    onp.testing.assert_array_equal(leaf, onp.arange(6.0))
    assert jax.tree_util.tree_unflatten(tree, [leaf]).dims == (None,)
    base = np.asarray(onp.arange(12.0).reshape(3, 4)).tag("b", None)
    v = base[1:]
    assert isinstance(v, View)
    (leaf,), tree = jax.tree_util.tree_flatten(v)
    onp.testing.assert_array_equal(leaf, onp.asarray(v.data))
    back = jax.tree_util.tree_unflatten(tree, [leaf])
    assert type(back) is NamedArray and back.dims == v.dims
    onp.testing.assert_array_equal(jax.jit(lambda t: t * 2)(v).untag("b"),
                                   2 * onp.arange(12.0).reshape(3, 4)[:, 1:])

"""top_k over a positional axis or a name (physical, local nmap, mesh nmap,
sharded), with jax.lax.top_k's values, indices and gradients; raw JAX
functions take a NamedArray without names as its data."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.sharding import AxisType
from jax.test_util import check_grads

import namedarray as np
from namedarray import nn
from support import make_mesh

A = onp.random.RandomState(0).permutation(40).reshape(8, 5).astype(float)
W = onp.arange(3.0)


def _ref(axis):
    return jax.lax.top_k(jnp.asarray(A if axis == 1 else A.T), 3)


def test_positional_axes_equal_lax_top_k():
    x = np.asarray(A)
    for axis in (-1, 0):
        v, i = np.top_k(x, 3, axis=axis)
        rv, ri = jax.lax.top_k(jnp.asarray(A), 3, axis=axis)
        onp.testing.assert_array_equal(v, rv)
        onp.testing.assert_array_equal(i, ri)
        assert i.dtype == ri.dtype
    assert nn.top_k is np.top_k
    with pytest.raises(ValueError, match=r"top_k: k must be a non-negative integer"):
        np.top_k(x, 1.5)


def _named(how, mesh=None):
    f = lambda t: np.top_k(t, 3, axis="b")  # noqa: E731
    if how == "local":
        return np.nmap(f, axes="b")
    if how == "mesh":
        return np.nmap(f, mesh=mesh, axis_resources={"b": "data"})
    return f


@pytest.mark.parametrize("how", ["physical", "local", "mesh", "mesh-explicit", "sharded"])
def test_a_named_axis_is_consumed_everywhere_with_values_and_gradients(how):
    types = (AxisType.Explicit if how in ("mesh-explicit", "sharded") else AxisType.Auto,)
    mesh = make_mesh((8,), ("data",), axis_types=types)
    f = _named("mesh" if how.startswith("mesh") else how, mesh)
    x = np.asarray(A).tag("b", "v")
    if how == "sharded":
        x = np.shard(x, mesh, {"b": "data"})
    rv, ri = _ref(0)
    # (JAX's rule under jax.jit: an argument committed to one device is not
    # resharded over a mesh inside the computation; a machine whose default
    # device lacks float64, a TPU's, commits float64 data to the CPU device)
    resharded = how.startswith("mesh") and x.data.committed
    for g in (f,) if resharded else (f, jax.jit(f)):
        v, i = g(x)
        assert v.dims == (None, "v") and i.named_shape == {"v": 5}
        onp.testing.assert_array_equal(v.untag("v"), rv)
        onp.testing.assert_array_equal(i.untag("v"), ri)

    # (the same rule under jax.grad: the mesh's result meets the weights
    # uncommitted, not committed to the CPU device, docs/differences.md)
    w = jnp.asarray(W) if resharded else W

    def loss(d):
        t = np.NamedArray(d, ("b", "v"))
        return (f(t)[0] * w).sum(axis="v").sum().data

    ref = jax.grad(lambda d: (jax.lax.top_k(d.T, 3)[0] * W).sum())(jnp.asarray(A))
    onp.testing.assert_allclose(jax.grad(loss)(jnp.asarray(A)), ref)
    if how == "physical":
        check_grads(loss, (jnp.asarray(A),), order=2, modes=["fwd", "rev"])


def test_raw_jax_functions_take_a_positional_namedarray_as_its_data():
    x = np.asarray(A)
    d = x.data      # (where NumPy's float64 lives: on a TPU machine, the CPU device)
    for fn in (lambda a: jax.lax.top_k(a, 2), jax.lax.exp, jax.nn.relu, jnp.sum,
               lambda a: jax.lax.dot_general(a, a, (((1,), (1,)), ((), ())))):
        onp.testing.assert_array_equal(jax.tree.leaves(fn(x)), jax.tree.leaves(fn(d)))
        onp.testing.assert_array_equal(jax.tree.leaves(jax.jit(fn)(x)),
                                       jax.tree.leaves(fn(d)))
    g = jax.grad(lambda a: jax.lax.exp(a).sum())(x)
    onp.testing.assert_allclose(g.data, onp.exp(A))
    # np.nmap maps the names away: any JAX function sees positional data
    v, i = np.nmap(lambda p: jax.lax.top_k(p, 2))(np.asarray(A).tag("b", None))
    onp.testing.assert_array_equal(v.untag("b"), jax.lax.top_k(d, 2)[0])
    v, i = np.nmap(lambda p: jax.lax.top_k(p, 2))(x)
    onp.testing.assert_array_equal(v, jax.lax.top_k(d, 2)[0])


def test_raw_jax_functions_refuse_names_and_say_what_to_do():
    x = np.asarray(A).tag("b", None)
    msg = (r"jax.lax.top_k was given a NamedArray with named axes \{'b': 8\}; .* "
           r"np.top_k\(x, k, axis='b'\).* x.untag\(...\).* np.nmap\(fn\)\(x\)")
    with pytest.raises(ValueError, match=msg):
        jax.lax.top_k(x, 2)
    with pytest.raises(ValueError, match=r"jax.lax.exp was given a NamedArray"):
        jax.jit(jax.lax.exp)(x)

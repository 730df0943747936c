"""Named axes on a device mesh: nmap(f, mesh, axis_resources) equals the local,
unmapped run on meshes of 1, 2, 4 and 8 devices, split and unsplit names."""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.sharding import AxisType

import namedarray as np
from namedarray import parallel as P
from support import assert_same_named, make_mesh

A = onp.random.default_rng(0).normal(size=(16, 3, 8))     # names b (16), c (8)


same = assert_same_named


# (id, make_mesh's arguments, axis resources): the mesh is built in the test
MESHES = [(f"{n}dev-b", ((n,), ("data",)), {"b": "data"}) for n in (1, 2, 4, 8)] + [
    ("8dev-b-auto", ((8,), ("data",), (AxisType.Auto,)), {"b": "data"}),
    ("2x4-b-c", ((2, 4), ("x", "y")), {"b": "x", "c": "y"}),
    ("2x4-b-xy", ((2, 4), ("x", "y")), {"b": ("x", "y")}),
    ("8dev-c-only", ((8,), ("data",)), {"c": "data"}),
]
OPS = {
    "center": lambda v: v - v.mean(axis="b"),
    "sum_b": lambda v: v.sum(axis="b"),
    "sum_bc": lambda v: v.sum(axis=("b", "c", 0)),
    "max_b": lambda v: v.max(axis="b"),
    "prod_c": lambda v: np.prod(v / 2 + 1, axis="c"),
    "argmax_b": lambda v: np.argmax(v, axis="b"),
    "std_c": lambda v: np.std(v, axis="c"),
    "any_b": lambda v: np.any(v > 1, axis="b"),
    "cumsum_b": lambda v: np.cumsum(v, axis="b"),
    "sort_b": lambda v: np.sort(v, axis="b"),
    "logsumexp_bc": lambda v: np.logsumexp(v, axis=("b", "c")),
    "gather_b": lambda v: P.all_gather(v, "b", tiled=True),
    "index_b": lambda v: P.axis_index("b") * 1.0 + 0 * v[0],
    "roll_b": lambda v: P.ppermute(v, "b", [(k, (k + 3) % 16) for k in range(16)]),
    "shift_b": lambda v: P.ppermute(v, "b", [(k, k + 1) for k in range(15)]),
    "pargmax_c": lambda v: P.pargmax(v, "c"),
    "einsum_c": lambda v: np.einsum("i{c},i{c}->i", v, v),
}


@pytest.mark.parametrize("mesh_id", range(len(MESHES)), ids=[m[0] for m in MESHES])
def test_named_ops_on_mesh_equal_local(mesh_id):
    _, args, res = MESHES[mesh_id]
    mesh = make_mesh(*args)
    x = np.asarray(A).tag("b", None, "c")
    for name, op in OPS.items():
        local = np.nmap(op)(x)
        sharded = np.nmap(op, mesh=mesh, axis_resources=res)(x)
        try:
            same(sharded, local)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_all_to_all_on_a_split_name():
    mesh = make_mesh((4,), ("d",))
    a = onp.arange(8 * 8 * 2.0).reshape(8, 8, 2)
    x = np.asarray(a).tag("i", None, None)
    f = lambda v: P.all_to_all(v, "i", 0, 0)  # noqa: E731
    same(np.nmap(f, mesh=mesh, axis_resources={"i": "d"})(x), np.nmap(f)(x))
    same(np.nmap(f)(x), f(x))


def test_grads_and_control_flow_on_mesh():
    mesh = make_mesh((8,), ("data",))
    d = jnp.asarray(A[:, :, 0])

    def loss(data, **kw):
        x = np.NamedArray(data, ("b", None))
        y = np.nmap(lambda v: v.max(axis="b") * v.sum(axis="b") + (v ** 2).mean(axis="b"),
                    **kw)(x)
        return y.sum().data
    g_mesh = jax.grad(lambda t: loss(t, mesh=mesh, axis_resources={"b": "data"}))(d)
    g_local = jax.grad(loss)(d)
    onp.testing.assert_allclose(g_mesh, g_local, rtol=1e-10)

    def flow(v):
        s = jax.lax.cond(P.psum(v, "b").sum().data > -1e9, lambda u: P.psum(u, "b").data,
                         lambda u: P.pmax(u, "b").data, v)
        t, _ = jax.lax.scan(lambda c, _: (c + P.pmax(v, "b").data, None), jnp.zeros(3),
                            None, length=3)
        w = jax.lax.while_loop(lambda c: c[0] < 2,
                               lambda c: (c[0] + 1, c[1] + P.psum(v, "b").data),
                               (0, jnp.zeros(3)))[1]
        return np.asarray(s), np.asarray(t), np.asarray(w)
    x = np.asarray(A[:, :, 0]).tag("b", None)
    for got, want in zip(np.nmap(flow, mesh=mesh, axis_resources={"b": "data"})(x),
                         np.nmap(flow)(x)):
        same(got, want)
    with jax.set_mesh(mesh):       # inside the user's own mesh context too
        onp.testing.assert_allclose(
            jax.grad(lambda t: loss(t, mesh=mesh, axis_resources={"b": "data"}))(d), g_local,
            rtol=1e-10)


def test_collectives_in_hlo_match_hand_written_shard_map():
    mesh = make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    x = np.shard(np.asarray(A[:, :, 0]).tag("b", None), mesh, {"b": "data"})
    ours = jax.jit(np.nmap(lambda v: v.sum(axis="b"), mesh=mesh,
                           axis_resources={"b": "data"})).lower(x).compile().as_text()
    from jax.sharding import PartitionSpec as PS
    hand = jax.jit(jax.shard_map(lambda a: jax.lax.psum(a.sum(0), "data"), mesh=mesh,
                                 in_specs=PS("data", None), out_specs=PS())).lower(
        x.untag("b").data).compile().as_text()
    count = lambda t: len(re.findall(r"all-reduce\(|all-reduce-start\(", t))  # noqa: E731
    assert count(ours) == count(hand) == 1


def test_shard_global_view():
    mesh = make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    x = np.shard(np.asarray(A).tag("b", None, "c"), mesh, {"b": "x", "c": "y"})
    assert x.data.sharding.spec == jax.sharding.PartitionSpec(None, "x", "y")
    y = (x * 2 + 1).sum(axis="c")
    onp.testing.assert_allclose(y.untag("b"), (A * 2 + 1).sum(2))
    assert len(y.data.sharding.device_set) == 8
    hlo = jax.jit(lambda v: v.sum(axis="c")).lower(x).compile().as_text()
    assert "all-reduce" in hlo


@pytest.mark.parametrize("call, msg", [
    (lambda m, x: np.nmap(lambda v: v, mesh=m, axis_resources={"b": "nope"})(x),
     r"nmap: axis_resources maps 'b' to mesh axis 'nope', but the mesh has axes "
     r"\{'x': 2, 'y': 4\}"),
    (lambda m, x: np.nmap(lambda v: v, mesh=m, axis_resources={"c": ("x", "y")})(x),
     None),
    (lambda m, x: np.nmap(lambda v: v, mesh=m, axis_resources={"b": "x", "c": "x"})(x),
     r"nmap: mesh axis 'x' would partition both 'b' and 'c', and this call has both axes"),
    (lambda m, x: np.nmap(lambda v: v, mesh=m, axis_resources={"q": "x"})(x),
     r"nmap: axis_resources names 'q', but no argument has that axis"),
    (lambda m, x: np.nmap(lambda v: v.sum(axis="zz"), mesh=m, axis_resources={"b": "x"})(x),
     r"sum: axis name 'zz' is not an axis of the operand"),
    (lambda m, x: np.shard(x, m, {"b": "z"}),
     r"shard: axis_resources maps 'b' to mesh axis 'z'"),
])
def test_errors(call, msg):
    mesh = make_mesh((2, 4), ("x", "y"))
    x = np.asarray(A[:, :, :6]).tag("b", None, "c")        # c: 6, not divisible by 8
    if msg is None:
        with pytest.raises(ValueError, match=r"nmap: axis 'c' has size 6, which is not "
                                             r"divisible by the 8 devices of mesh axes "
                                             r"\('x', 'y'\)"):
            call(mesh, x)
        return
    with pytest.raises(ValueError, match=msg):
        call(mesh, x)


def test_var_std_over_a_mesh_name_use_all_reduces_not_all_gather():
    mesh = make_mesh((8,), ("data",))
    x = np.asarray(A[:, :, 0]).tag("b", None)
    for name, ddof in [("std", 0), ("var", 1)]:
        f = np.nmap(lambda v: getattr(np, name)(v, axis="b", ddof=ddof), mesh=mesh,
                    axis_resources={"b": "data"})
        onp.testing.assert_allclose(f(x), getattr(onp, name)(A[:, :, 0], axis=0, ddof=ddof))
        hlo = jax.jit(f).lower(x).compile().as_text()
        assert "all-gather" not in hlo and "all-reduce" in hlo


@pytest.mark.parametrize("make_key", [jax.random.key, jax.random.PRNGKey])
def test_raw_jax_arguments_reach_the_function_as_they_came(make_key):
    """A raw jax.Array argument of a mesh nmap (a PRNG key, typed or raw
    uint32) is handed to ``f`` as a jax.Array, so ``jax.random`` takes it;
    nested inside another mesh map too."""
    mesh = make_mesh((8,), ("data",))
    key = make_key(0)
    x = np.NamedArray(jnp.arange(16.0), ("b",))

    def f(x, key):
        assert not isinstance(key, np.NamedArray)
        return x * jax.random.uniform(jax.random.fold_in(key, 3))

    want = onp.arange(16.0) * float(jax.random.uniform(jax.random.fold_in(key, 3)))
    got = np.nmap(f, mesh=mesh, axis_resources={"b": "data"})(x, key)
    onp.testing.assert_allclose(got.untag("b").data, want, rtol=1e-6)
    m2 = make_mesh((2, 4), ("x", "y"))
    y = np.NamedArray(jnp.arange(16.0).reshape(16, 1) * jnp.ones(8), ("b", "c"))
    inner = np.nmap(f, mesh=m2, axis_resources={"c": "y"})
    got = np.nmap(inner, axes="b", mesh=m2, axis_resources={"b": "x"})(y, key)
    onp.testing.assert_allclose(got.untag("b", "c").data, want[:, None] * onp.ones(8), rtol=1e-6)

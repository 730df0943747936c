"""np.shard: any pytree of NamedArrays placed on a mesh by name; a name missing
from an array replicates it along that mesh axis; the results equal the
unsharded run on Explicit (jax.make_mesh's default) and Auto meshes, gathers
and contractions over partitioned names included."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.sharding import AxisType, PartitionSpec as PS

import namedarray as np
from namedarray.core.sharding import beneath
from support import make_mesh, tpu  # noqa: F401  (a fixture)

RNG = onp.random.default_rng(0)
X = RNG.normal(size=(16, 8))        # batch 16, feat 8
W = RNG.normal(size=(8, 8))         # feat 8, out 8
B = RNG.normal(size=(8,))           # out 8


def params():
    return {"w": np.asarray(W).tag("feat", "out"), "b": np.asarray(B).tag("out"),
            "step": jnp.asarray(3), "lr": 0.1, "none": None}


# (id, make_mesh's arguments, axis resources): the mesh is built in the test
MESHES = [
    ("explicit-1d", ((8,), ("data",)), {"batch": "data", "out": "data"}),
    ("auto-1d", ((8,), ("data",), (AxisType.Auto,)), {"feat": "data"}),
    ("explicit-2x4", ((2, 4), ("x", "y")), {"batch": "x", "feat": "y"}),
    ("auto-2x4", ((2, 4), ("x", "y"), (AxisType.Auto,) * 2), {"batch": ("x", "y"), "out": "y"}),
]
IDS = [m[0] for m in MESHES]


def model(p, x):
    """A named matmul (contracting "feat") and a sum over "batch"."""
    h = np.einsum("{batch,feat},{feat,out}->{batch,out}", x, p["w"]) + p["b"]
    return (np.tanh(h) * p["lr"]).sum(axis="batch")


@pytest.mark.parametrize("i", range(len(MESHES)), ids=IDS)
def test_tree_matmul_sum_equals_unsharded(i):
    _, args, res = MESHES[i]
    mesh = make_mesh(*args)
    p, x = params(), np.asarray(X).tag("batch", "feat")
    sp, sx = np.shard((p, x), mesh, res)
    assert set(sp) == set(p) and sp["lr"] == 0.1 and sp["none"] is None
    assert isinstance(sp["step"], jax.Array) and sp["step"].sharding.spec == PS()
    for name in ("w", "b"):
        assert isinstance(sp[name], np.NamedArray) and sp[name].dims == p[name].dims
        assert sp[name].data.sharding.spec == PS(*[res.get(d) for d in p[name].dims])
    assert sx.data.sharding.spec == PS(res.get("batch"), res.get("feat"))
    want = model(p, x)
    for got in (model(sp, sx), jax.jit(model)(sp, sx)):
        assert got.dims == want.dims
        onp.testing.assert_allclose(got.data, want.data, rtol=1e-12)
        onp.testing.assert_allclose(got.data, (onp.tanh(X @ W + B) * 0.1).sum(0),
                                    rtol=1e-12)
    grad = lambda q, v: jax.grad(lambda w: model({**q, "w": w}, v).sum(axis="out").data)(q["w"])  # noqa: E731
    onp.testing.assert_allclose(jax.jit(grad)(sp, sx).data, grad(p, x).data, rtol=1e-12)


GATHERS = {
    "sort": lambda v: np.sort(v, axis="batch"),
    "cumsum": lambda v: np.cumsum(v, axis="batch"),
    "mean": lambda v: v - v.mean(axis="batch"),
    "untag": lambda v: v.untag("batch")[::-1],
    "slice": lambda v: v.untag("batch")[3:9].tag("batch"),
    "einsum": lambda v: np.einsum("{batch,feat},{batch,feat}->{feat}", v, v),
    "max": lambda v: v.max(axis="feat"),
    "concat": lambda v: np.concatenate([v.untag("batch"), v.untag("batch")]),
}


@pytest.mark.parametrize("i", range(len(MESHES)), ids=IDS)
def test_gather_needing_ops_equal_unsharded(i):
    _, args, res = MESHES[i]
    mesh = make_mesh(*args)
    x = np.asarray(X).tag("batch", "feat")
    sx = np.shard(x, mesh, res)
    for name, op in GATHERS.items():
        want = op(x)
        for got in (op(sx), jax.jit(op)(sx)):
            assert got.dims == want.dims, name
            onp.testing.assert_allclose(got.data, want.data, rtol=1e-12, err_msg=name)


def test_missing_name_replicates_and_one_plain_array():
    mesh = make_mesh((2, 4), ("x", "y"))
    res = {"batch": "x", "feat": "y"}
    only_feat = np.shard(np.asarray(W).tag("feat", None), mesh, res)
    assert only_feat.data.sharding.spec == PS(None, "y")
    none = np.shard(np.asarray(B).tag("out"), mesh, res)
    assert none.data.sharding.spec == PS(None) and none.data.sharding.is_fully_replicated
    plain = np.shard(onp.arange(4.0), mesh, res)      # one plain array: positional
    assert isinstance(plain, np.NamedArray) and plain.dims == (None,)
    onp.testing.assert_array_equal(plain, onp.arange(4.0))


def test_the_mesh_keeps_its_axis_types():
    x = np.asarray(X).tag("batch", "feat")
    mesh = make_mesh((8,), ("data",))
    with jax.set_mesh(mesh):
        sx = np.shard(x, mesh, {"batch": "data"})
        assert sx.data.sharding.mesh.axis_types == (AxisType.Explicit,)
        assert str(jax.typeof(sx.data)) == "float64[16@data,8]"
        onp.testing.assert_allclose((sx * 2).max(axis="feat").data,
                                    (X * 2).max(1), rtol=1e-12)
    out = np.shard(x, mesh, {"batch": "data"})
    assert out.data.sharding.mesh.axis_types == (AxisType.Explicit,)
    assert str(jax.typeof(out.data)) == "float64[16@data,8]"
    auto = make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    out = np.shard(x, auto, {"batch": "data"})
    assert out.data.sharding.mesh.axis_types == (AxisType.Auto,)
    assert str(jax.typeof(out.data)) == "float64[16,8]"
    assert out.data.sharding.spec == PS("data", None)


@pytest.mark.parametrize("tree, res, msg", [
    (lambda: {"a": np.asarray(X[:, :6]).tag("batch", "feat")}, {"feat": "data"},
     r"shard: axis 'feat' has size 6, which is not divisible by the 8 devices of mesh "
     r"axes \('data',\)"),
    (lambda: [np.asarray(X).tag("batch", "feat")], {"batch": "data", "feat": "data"},
     r"shard: mesh axis 'data' would partition both 'batch' and 'feat'"),
    (lambda: np.asarray(X).tag("batch", "feat"), {"batch": "model"},
     r"shard: axis_resources maps 'batch' to mesh axis 'model', but the mesh has axes "
     r"\{'data': 8\}"),
])
def test_errors(tree, res, msg):
    mesh = make_mesh((8,), ("data",))
    with pytest.raises(ValueError, match=msg):
        np.shard(tree(), mesh, res)


def test_inside_a_map_is_refused():
    mesh = make_mesh((8,), ("data",))
    x = np.asarray(X).tag("batch", "feat")
    with pytest.raises(ValueError, match=r"shard: an array is mapped over \{'batch': 16\} "
                                         r"by an enclosing nmap"):
        np.nmap(lambda v: np.shard(v, mesh, {"feat": "data"}), axes="batch")(x)


def test_under_jit_the_tree_is_constrained():
    mesh = make_mesh((8,), ("data",))
    p, x = params(), np.asarray(X).tag("batch", "feat")
    out = jax.jit(lambda q, v: np.shard((q, v), mesh, {"batch": "data", "out": "data"}))(p, x)
    sp, sx = out
    padded = lambda a: tuple(a.sharding.spec) + (None,) * (a.ndim - len(a.sharding.spec))  # noqa: E731
    assert padded(sx.data) == ("data", None) and padded(sp["w"].data) == (None, "data")
    assert sp["step"].sharding.is_fully_replicated
    onp.testing.assert_array_equal(sx.data, X)
    got = jax.jit(lambda q, v: model(*np.shard((q, v), mesh, {"batch": "data"})))(p, x)
    onp.testing.assert_allclose(got.data, model(p, x).data, rtol=1e-12)


@pytest.mark.parametrize("axis_type", [AxisType.Auto, AxisType.Explicit])
def test_under_an_eager_grad_committed_data_is_moved(tpu, axis_type):
    """Beside an accelerator NumPy's float64 is committed to the CPU device;
    an eager ``grad`` through ``np.shard`` moves it onto a mesh of the CPU's
    devices as ``device_put`` does (a constraint met the committed data with
    JAX's "incompatible devices", seen on a TPU), and the gradient is
    NumPy's; an Explicit mesh outside ``jax.set_mesh`` as its Auto twin, as
    under ``jit`` (its sharding in the value's type asks for the context)."""
    acc, cpu = tpu
    devices = [cpu] + [d for d in jax.devices("cpu") if d not in (acc, cpu)][:3]
    mesh = jax.sharding.Mesh(onp.array(devices), ("d",), axis_types=(axis_type,))
    h = onp.arange(16.0).reshape(8, 2) / 8
    x = np.asarray(h).tag("b", "c")
    assert x.data.committed and x.data.devices() == {cpu}

    placed = []

    def loss(v):
        s = np.shard(v, mesh, {"b": "d"})
        placed.append(beneath(s.data).sharding)     # (the grad's value, moved)
        return np.sin(s.sum(axis="b")).sum(axis="c")
    value, g = np.value_and_grad(loss)(x)
    assert set(placed[0].device_set) == set(devices) and placed[0].spec[0] == "d"
    onp.testing.assert_allclose(float(value), onp.sin(h.sum(0)).sum())
    onp.testing.assert_allclose(onp.asarray(g.untag("b", "c")),
                                onp.broadcast_to(onp.cos(h.sum(0)), h.shape))

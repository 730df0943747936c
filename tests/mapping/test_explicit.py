"""Explicit sharding (docs/design.md §4b): on a mesh with Explicit axes, np.shard puts
each name's mesh axes in the data's type; every named operation runs eagerly and
under jit, inside jax.set_mesh and outside it, with the unsharded run's values;
shardings follow the names (JAX's rule where it has one, the output's names where
JAX would ask for out_sharding); np.reshard moves names; nmap composes."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as onp
import optax
import pytest
from jax.sharding import AxisType

import namedarray as np
from support import make_mesh


def _mesh():
    return make_mesh((4, 2), ("data", "model"))


RES = {"batch": "data", "embed": "model"}
RNG = onp.random.default_rng(0)
X = RNG.normal(size=(8, 4))       # batch 8, embed 4
W = RNG.normal(size=(4, 6))       # embed 4, out 6
V = RNG.normal(size=(8,))         # batch 8
IDX = onp.array([5, 0, 7, 7])


def _arrays():
    return (np.asarray(X).tag("batch", "embed"), np.asarray(W).tag("embed", "out"),
            np.asarray(V).tag("batch"))


def _typeof(a):
    return str(jax.typeof(a.data if isinstance(a, np.NamedArray) else a))


OPS = {
    # elementwise, aligned by name (v is broadcast, x.T is transposed back)
    "align": lambda x, w, v: x * v - np.asarray(X.T).tag("embed", "batch"),
    "fresh": lambda x, w, v: x + np.arange(8.0).tag("batch"),
    # reductions
    "sum": lambda x, w, v: x.sum(axis="batch"),
    "mean_all": lambda x, w, v: x.mean(axis=("batch", "embed")),
    "max": lambda x, w, v: x.max(axis="embed"),
    "std": lambda x, w, v: np.std(x, axis="batch"),
    "argmax": lambda x, w, v: np.argmax(x, axis="batch"),
    "logsumexp": lambda x, w, v: np.logsumexp(x, axis="embed"),
    "median": lambda x, w, v: np.median(x, axis="batch"),
    "quantile": lambda x, w, v: np.quantile(x, 0.3, axis="batch"),
    # contractions
    "einsum": lambda x, w, v: np.einsum("{batch,embed},{embed,out}->{batch,out}", x, w),
    "einsum_batch": lambda x, w, v: np.einsum("{batch,embed},{batch}->{embed}", x, v),
    "einsum_all": lambda x, w, v: np.einsum("{batch,embed},{batch,embed}->", x, x),
    "vecdot": lambda x, w, v: np.vecdot(x, x, axis="embed"),
    "tensordot": lambda x, w, v: np.tensordot(x, w, axes=(["embed"], ["embed"])),
    "matmul": lambda x, w, v: x.untag("batch", "embed") @ w.untag("embed", "out"),
    # a gather by partitioned indices (an embedding lookup): the indices' names
    # keep their mesh axes
    "lookup": lambda x, w, v: w[{"embed": (np.abs(v) * 10).astype(int) % 4}],
    # operations that need the whole axis
    "sort": lambda x, w, v: np.sort(x, axis="batch"),
    "cumsum": lambda x, w, v: np.cumsum(x, axis="batch"),
    "take": lambda x, w, v: np.take(x, IDX, axis="batch"),
    # lookups along a name by indices that share the array's names
    "take_along": lambda x, w, v: np.take_along_axis(x, _along(x), axis="embed"),
    "put_along": lambda x, w, v: _put_along(x),
    "slice": lambda x, w, v: x.untag("batch")[3:7].tag("batch"),
    "index": lambda x, w, v: x.untag("batch")[2],
    # ints and slices by name index a partitioned axis (JAX slices none)
    "index_name": lambda x, w, v: x[{"batch": 3}],
    "slice_name": lambda x, w, v: x[{"batch": slice(1, 6, 2)}],
    # an nmap output that does not vary along a partitioned mapped name
    "nmap_reduced": lambda x, w, v: np.nmap(lambda a, b: (a * b).sum(axis="embed"))(x, x),
    "roll": lambda x, w, v: np.roll(x, 3, axis="batch"),
    "concatenate": lambda x, w, v: np.concatenate([x, x], axis="batch"),
    "fft": lambda x, w, v: np.fft.fft(x, axis="batch").real,
    "grad": lambda x, w, v: np.grad(
        lambda q: np.tanh(np.einsum("{batch,embed},{embed,out}->{out}", x, q)).sum(
            axis="out"))(w),
}


def _along(x):
    return (np.argsort(x, axis="embed") + 1) % 4


def _put_along(x):
    y = x * 1
    np.put_along_axis(y, _along(x), -1.0, axis="embed")
    return y


def _values(r):
    if not isinstance(r, np.NamedArray):
        return onp.asarray(r)
    return onp.asarray(r.untag(*sorted(r.named_shape)) if r.named_shape else r)


@pytest.mark.parametrize("op", sorted(OPS))
def test_every_op_inside_and_outside_set_mesh_equals_the_unsharded_run(op):
    x, w, v = _arrays()
    want = OPS[op](x, w, v)
    sx, sw, sv = np.shard((x, w, v), _mesh(), RES)
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(_mesh())):
        for f in (OPS[op], jax.jit(OPS[op])):
            with ctx():
                got = f(sx, sw, sv)
            assert got.dims == want.dims and got.dtype == want.dtype, (got.dims, want.dims)
            onp.testing.assert_allclose(_values(got), _values(want), rtol=1e-12,
                                        atol=1e-12)


def test_the_data_type_shows_each_names_mesh_axes():
    x, w, v = _arrays()
    sx, sw, sv = np.shard((x, w, v), _mesh(), RES)
    assert _typeof(sx) == "float64[8@data,4@model]"
    assert _typeof(sw) == "float64[4@model,6]"
    assert _typeof(sv) == "float64[8@data]"
    assert "dims=(batch:8@data, embed:4@model)" in repr(sx)
    assert "dims=(embed:4@model, out:6)" in repr(sw)
    auto = make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    ax = np.shard(x, auto, RES)
    assert _typeof(ax) == "float64[8,4]" and ax.data.sharding.mesh.axis_types == (
        AxisType.Auto,) * 2
    assert "dims=('batch', 'embed')" in repr(ax)
    onp.testing.assert_allclose(OPS["einsum"](ax, w, v).untag("batch", "out"), X @ W)


@pytest.mark.parametrize("op, jnp_op", [
    ("sum", lambda d: jnp.sum(d, 0)),
    ("max", lambda d: jnp.max(d, 1)),
    ("mean_all", lambda d: jnp.mean(d)),
    ("align", None),
])
def test_reductions_have_jaxs_sharding_for_the_same_physical_op(op, jnp_op):
    x, w, v = _arrays()
    sx, sw, sv = np.shard((x, w, v), _mesh(), RES)
    with jax.set_mesh(_mesh()):
        got = OPS[op](sx, sw, sv)
        want = jnp_op(sx.data) if jnp_op is not None else sx.data * sv.data[:, None]
        assert _typeof(got) == str(jax.typeof(want))


@pytest.mark.parametrize("op, want", [
    # kept names keep their mesh axes; a contracted name's axis is reduced
    ("einsum", "float64[8@data,6]"),
    ("einsum_batch", "float64[4@model]"),
    ("einsum_all", "float64[]"),
    ("vecdot", "float64[8@data]"),
    ("tensordot", "float64[8@data,6]"),
    ("grad", "float64[4@model,6]"),
    ("lookup", "float64[8@data,6]"),
])
def test_contractions_take_the_sharding_their_output_names_imply(op, want):
    x, w, v = _arrays()
    sx, sw, sv = np.shard((x, w, v), _mesh(), RES)
    # plain JAX asks for out_sharding here
    with pytest.raises(Exception, match="out_sharding"):
        jnp.einsum("be,eo->bo", sx.data, sw.data)
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(_mesh())):
        with ctx():
            assert _typeof(OPS[op](sx, sw, sv)) == want
            assert _typeof(jax.jit(OPS[op])(sx, sw, sv)) == want


def test_clashing_mesh_axes_meet_by_name():
    # "batch" and "out" both on "model": the first operand's dimension keeps it
    x, w, v = _arrays()
    sx = np.shard(x, _mesh(), {"batch": "model"})
    sb = np.shard(np.asarray(W[0]).tag("out"), _mesh(), {"out": "model"})
    sw = np.shard(w, _mesh(), {"out": "model"})
    h = np.einsum("{batch,embed},{embed,out}->{batch,out}", sx, sw)
    assert _typeof(h) == "float64[8@model,6]"
    onp.testing.assert_allclose(h.untag("batch", "out"), X @ W, rtol=1e-12)
    for f in (lambda a, b: a + b, jax.jit(lambda a, b: a + b)):
        got = f(h, sb)
        assert _typeof(got) == "float64[8@model,6]"
        onp.testing.assert_allclose(got.untag("batch", "out"), X @ W + W[0], rtol=1e-12)


def test_reshard_moves_an_array_and_a_pytree():
    x, w, v = _arrays()
    sx = np.shard(x, _mesh(), RES)
    moved = np.reshard(sx, {"batch": "model", "embed": "data"})
    assert _typeof(moved) == "float64[8@model,4@data]"
    assert "dims=(batch:8@model, embed:4@data)" in repr(moved)
    onp.testing.assert_array_equal(moved.untag("batch", "embed"), X)
    tree = np.reshard({"x": sx, "w": np.shard(w, _mesh(), RES), "n": 3}, {"batch": "data"})
    assert _typeof(tree["x"]) == "float64[8@data,4]" and _typeof(tree["w"]) == \
        "float64[4,6]" and tree["n"] == 3
    jitted = jax.jit(lambda t: np.reshard(t, {"batch": ("data", "model")}))(
        np.shard({"x": x}, _mesh(), RES))
    assert _typeof(jitted["x"]) == "float64[8@(data,model),4]"
    onp.testing.assert_array_equal(jitted["x"].untag("batch", "embed"), X)
    with jax.set_mesh(_mesh()):
        placed = np.reshard(x, {"batch": ("data", "model")})   # the context's mesh
        assert _typeof(placed) == "float64[8@(data,model),4]"
        traced = jax.jit(lambda a: np.reshard(a, {"batch": "model"}))(x)
        assert _typeof(traced) == "float64[8@model,4]"


def test_reshard_errors():
    x, w, v = _arrays()
    with pytest.raises(ValueError, match=r"reshard: an array with named axes \{'batch': 8, "
                                         r"'embed': 4\} is not on a mesh"):
        np.reshard(x, {"batch": "data"})
    with pytest.raises(ValueError, match=r"reshard: axis_resources maps 'batch' to mesh "
                                         r"axis 'rows', but the mesh has axes"):
        np.reshard(np.shard(x, _mesh(), RES), {"batch": "rows"})
    with pytest.raises(ValueError, match=r"reshard: axis 'out' has size 6, which is not "
                                         r"divisible by the 4 devices of mesh axes"):
        np.reshard(np.shard(w, _mesh(), RES), {"out": "data"})


def _loss(p, x):
    h = np.tanh(np.einsum("{batch,embed},{embed,out}->{batch,out}", x, p["w"]) + p["b"])
    return (h * h).mean(axis=("batch", "out"))


def _step(opt):
    def step(p, s, x):
        loss, g = np.value_and_grad(_loss)(p, x)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    return step


def test_an_optax_step_on_a_sharded_pytree_equals_the_unsharded_one():
    x, w, _ = _arrays()
    p = {"w": w, "b": np.asarray(W[0]).tag("out")}
    opt = optax.sgd(0.1, momentum=0.9)
    want_p, _, want_loss = _step(opt)(p, opt.init(p), x)
    sp, sx = np.shard((p, x), _mesh(), {"batch": "data", "out": "model"})
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(_mesh())):
        for step in (_step(opt), jax.jit(_step(opt))):
            with ctx():
                got_p, _, loss = step(sp, opt.init(sp), sx)
            onp.testing.assert_allclose(loss.data, want_loss.data, rtol=1e-12)
            assert _typeof(got_p["w"]) == "float64[4,6@model]"
            for k in p:
                onp.testing.assert_allclose(_values(got_p[k]), _values(want_p[k]),
                                            rtol=1e-12)


def test_nmap_and_shard_compose_inside_set_mesh():
    x, w, v = _arrays()
    center = np.nmap(lambda a: a - a.mean(axis="batch"), mesh=_mesh(),
                     axis_resources={"batch": "data"})
    want = X - X.mean(0)
    with jax.set_mesh(_mesh()):
        sx = np.shard(x, _mesh(), RES)
        for f in (center, jax.jit(center)):
            out = f(sx)
            assert out.dims == ("batch", "embed") and _typeof(out).startswith(
                "float64[8@data,")
            # the mapped name is the same name outside: more named operations on it
            y = np.einsum("{batch,embed},{embed,out}->{batch,out}", out, np.shard(
                w, _mesh(), RES)).max(axis="batch")
            onp.testing.assert_allclose(y.data, (want @ W).max(0), rtol=1e-12)
            onp.testing.assert_allclose(out.untag("batch", "embed"), want, rtol=1e-12)


def test_nmap_outside_set_mesh_gives_explicit_arguments_results_on_their_mesh():
    x, w, v = _arrays()
    sx = np.shard(x, _mesh(), RES)
    center = np.nmap(lambda a: a - a.mean(axis="batch"), mesh=_mesh(),
                     axis_resources={"batch": "data"})
    out = center(sx)
    assert _typeof(out) == "float64[8@data,4]"
    assert _typeof(center(x)) == "float64[8,4]"        # unplaced arguments: as before
    for got in (out, jax.jit(center)(sx)):
        onp.testing.assert_allclose(got.untag("batch", "embed"), X - X.mean(0), rtol=1e-12)
    y = np.einsum("{batch,embed},{batch,embed}->{embed}", out, sx)
    assert _typeof(y) == "float64[4@model]"
    onp.testing.assert_allclose(y.data, ((X - X.mean(0)) * X).sum(0), rtol=1e-12)


def _mlp(p, b):
    h = np.tanh(b["x"] @ p["w1"] + p["b1"])                                # matmul
    h = np.einsum("{batch,embed},{embed,hid}->{batch,hid}", h.tag("embed"),  # einsum
                  p["w2"].tag("embed", "hid"))
    logits = np.vecdot(h, p["w3"].tag("hid", "cls"), axis="hid")            # vecdot
    return np.nn.cross_entropy(logits, b["y"], axis="cls").mean(axis="batch")


def test_sharding_only_the_batch_differentiates_under_jit():
    # parameters unsharded, the batch on an Explicit mesh: the backward pass's
    # contractions over the partitioned batch take the parameters' sharding
    mesh = make_mesh((8,), ("data",))
    p = {"w1": np.asarray(W), "b1": np.asarray(W[0]), "w2": np.asarray(W.T + 1),
         "w3": np.asarray(RNG.normal(size=(4, 3)))}
    b = {"x": np.asarray(X).tag("batch", None), "y": np.asarray(IDX[[0, 1] * 4] % 3).tag(
        "batch")}
    want_loss, want_g = np.value_and_grad(_mlp)(p, b)
    sb = np.shard(b, mesh, {"batch": "data"})
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(mesh)):
        for f in (np.value_and_grad(_mlp), jax.jit(np.value_and_grad(_mlp))):
            with ctx():
                loss, g = f(p, sb)
            onp.testing.assert_allclose(loss.data, want_loss.data, rtol=1e-12)
            for k in p:
                assert g[k].dims == p[k].dims and "@" not in _typeof(g[k])
                onp.testing.assert_allclose(g[k].data, want_g[k].data, rtol=1e-12)


WHOLE_AXIS = {
    "sort": lambda t: np.sort(t, axis="batch"),
    "cumsum": lambda t: np.cumsum(t, axis="batch"),
    "roll": lambda t: np.roll(t, 3, axis="batch"),
    "top_k": lambda t: np.top_k(t, 3, axis="batch")[0],
}


@pytest.mark.parametrize("op", sorted(WHOLE_AXIS))
def test_ops_needing_the_whole_axis_in_a_local_nmap_over_a_sharded_name(op):
    # the local map's gather of a name partitioned over Explicit mesh axes
    # gives the whole axis, as the gather of a physical one does
    f, (x, _, _) = WHOLE_AXIS[op], _arrays()
    want = f(x)
    sx = np.shard(x, _mesh(), RES)
    mapped = np.nmap(f, axes="batch")
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(_mesh())):
        for g in (mapped, jax.jit(mapped)):
            with ctx():
                got = g(sx)
            assert got.named_shape == want.named_shape and got.shape == want.shape
            onp.testing.assert_allclose(_values(got), _values(want), rtol=1e-12)

    def loss(d, m, placed):
        t = np.NamedArray(d, ("batch", "embed"))
        r = m(np.shard(t, _mesh(), RES) if placed else t) ** 2 * np.arange(1.0, 5.0).tag(
            "embed")
        return r.sum(axis=r.names).sum().data

    ref = jax.grad(loss)(jnp.asarray(X), f, False)
    onp.testing.assert_allclose(jax.jit(jax.grad(loss), static_argnums=(1, 2))(
        jnp.asarray(X), mapped, True), ref, rtol=1e-12)


def test_operands_on_an_explicit_mesh_and_its_auto_twin_meet():
    auto = make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    # (inside jax.set_mesh of the Explicit mesh, JAX refuses any operation on
    # data of the Auto one: np.reshard it first)
    x, w, _ = _arrays()
    b = np.asarray(W[1]).tag("out")

    def loss(w, x, b):
        h = np.einsum("{batch,embed},{embed,out}->{batch,out}", x, w)
        return (np.tanh(b + h) * h).mean(axis=("batch", "out"))

    want_loss, want_g = np.value_and_grad(loss, argnums=(0, 2))(w, x, b)
    for wm, xm in ((auto, _mesh()), (_mesh(), auto)):
        sw, sx = np.shard(w, wm, {"out": "model"}), np.shard(x, xm, {"batch": "data"})
        sb = np.shard(b, wm, {"out": "model"})
        onp.testing.assert_allclose(loss(sw, sx, sb).data, want_loss.data, rtol=1e-12)
        got_loss, g = jax.jit(np.value_and_grad(loss, argnums=(0, 2)))(sw, sx, sb)
        onp.testing.assert_allclose(got_loss.data, want_loss.data, rtol=1e-12)
        for gk, wk in zip(g, want_g):
            onp.testing.assert_allclose(_values(gk), _values(wk), rtol=1e-12)


FRESH = {
    "zeros_like": lambda t: np.zeros_like(t),
    "full_like": lambda t: np.full_like(t, 2.0),
    "ones_like": lambda t: np.ones_like(t, dtype=np.float32),
    "empty_like": lambda t: np.empty_like(t) * 0,
    "dropout": lambda t: np.nn.dropout(jax.random.key(0), t, 0.5),
}


@pytest.mark.parametrize("op", sorted(FRESH))
def test_fresh_arrays_like_a_sharded_one_outside_set_mesh(op):
    x = np.asarray(onp.stack([X, X + 1])).tag(None, "batch", "embed")
    want, sx = FRESH[op](x), np.shard(x, _mesh(), RES)
    for ctx in (contextlib.nullcontext, lambda: jax.set_mesh(_mesh())):
        with ctx():
            got = FRESH[op](sx)
        assert got.dims == want.dims and got.dtype == want.dtype
        assert _typeof(got).endswith("[2,8@data,4@model]")
        onp.testing.assert_array_equal(got.data, want.data)


@pytest.mark.parametrize("inside", [False, True])
def test_item_assignment_into_explicitly_sharded_data(inside):
    """``x[i] = v`` into data placed on Explicit mesh axes, named or positional,
    inside ``jax.set_mesh`` or not: NumPy's values, the placement kept (JAX
    updates such data eagerly only inside the mesh, and asks for the
    scatter's out_sharding)."""
    ref = onp.arange(32.0).reshape(8, 4)
    placed = jax.device_put(jnp.asarray(ref), jax.sharding.NamedSharding(_mesh(), jax.P("data")))
    with jax.set_mesh(_mesh()) if inside else contextlib.nullcontext():
        x = np.shard(np.asarray(ref).tag("batch", None), _mesh(), {"batch": "data"})
        x[1] = -1.0
        y = np.asarray(placed)
        y[2:4] = -2.0
        y[0] = np.ones((1, 4))
        ref_x, ref_y = ref.copy(), ref.copy()
        ref_x[:, 1] = -1.0
        ref_y[2:4] = -2.0
        ref_y[0] = 1.0
        onp.testing.assert_array_equal(onp.asarray(x.untag("batch")), ref_x)
        onp.testing.assert_array_equal(onp.asarray(jax.device_get(y.data)), ref_y)
        assert y.data.sharding.spec == jax.P("data", None)

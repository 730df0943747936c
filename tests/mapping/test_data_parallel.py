"""A data-parallel training step written as the docs write it (a named loss
under ``np.nmap(..., mesh=, axis_resources={"batch": "data"})``, its gradient
taken outside the map, under ``jax.jit``) against the hand-written
``jax.shard_map`` program: the same values, the same collectives in the
compiled HLO and no more transposes or copies; mapping every name allocates
nothing the plain program does not; and a loop on an Explicit mesh (the
batch placed by ``np.shard`` every step) runs.  Speed is measured by
``benchmarks/bench_mesh.py``, never here."""
import math
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

import namedarray as np
from support import make_mesh

B, S, E, H = 16, 8, 16, 32
COLLECTIVE = r"(all-reduce|all-gather|all-to-all|collective-permute|reduce-scatter)(-start)?\("


def data(seed=0):
    rng = onp.random.default_rng(seed)
    f = lambda *s: (rng.standard_normal(s) / s[0] ** 0.5).astype(onp.float32)  # noqa: E731
    return ({"w1": f(E, H), "b1": f(H), "w2": f(H, E), "g": f(E) + 1},
            f(B, S, E), f(B, S, E))


NAMES = {"w1": ("embed", "hidden"), "b1": ("hidden",), "w2": ("hidden", "embed"),
         "g": ("embed",)}


def loss_named(p, x, y):
    h = (x - x.mean(axis="embed")) * p["g"]
    u = np.tanh(np.einsum("{batch,seq,embed},{embed,hidden}->{batch,seq,hidden}", h, p["w1"])
                + p["b1"])
    d = np.einsum("{batch,seq,hidden},{hidden,embed}->{batch,seq,embed}", u, p["w2"]) - y
    return (d * d).mean(axis=("batch", "seq", "embed"))


def loss_plain(p, x, y):
    h = (x - x.mean(-1, keepdims=True)) * p["g"]
    u = jnp.tanh(jnp.einsum("bse,eh->bsh", h, p["w1"]) + p["b1"])
    d = jnp.einsum("bsh,he->bse", u, p["w2"]) - y
    return (d * d).mean()


def named_step(mesh, axes):
    dp_loss = np.nmap(loss_named, axes=axes, mesh=mesh, axis_resources={"batch": "data"})

    @jax.jit
    def step(p, x, y):
        loss, g = np.value_and_grad(dp_loss)(p, x, y)
        return {k: p[k] - 0.1 * g[k] for k in p}, loss
    return step


def plain_step(mesh):
    def local(p, x, y):
        loss, g = jax.value_and_grad(loss_plain)(p, x, y)
        return jax.lax.pmean(loss, "data"), jax.lax.pmean(g, "data")
    grads = jax.shard_map(local, mesh=mesh, in_specs=(P(), P("data"), P("data")),
                          out_specs=(P(), P()), check_vma=False)

    @jax.jit
    def step(p, x, y):
        loss, g = grads(p, x, y)
        return {k: p[k] - 0.1 * g[k] for k in p}, loss
    return step


def profile(text):
    """The collectives (kind, operands' elements) and transposes + copies of
    a compiled HLO text, and its largest array (elements)."""
    coll, largest = [], 0
    for line in text.splitlines():
        sizes = [math.prod(int(v) for v in s.split(",") if v)
                 for s in re.findall(r"\b[a-z]+\d+\[([\d,]*)\]", line)]
        largest = max([largest] + sizes)
        m = re.search(r"=\s*(.*?)\s+" + COLLECTIVE, line)
        if m:
            shapes = re.findall(r"\b[a-z]+\d+\[([\d,]*)\]", m.group(1))
            coll.append((m.group(2), sorted(math.prod(int(v) for v in s.split(",") if v)
                                            for s in shapes)))
    # instructions, not the op names of the metadata ("transpose(jvp(...))")
    moves = len(re.findall(r"^\s*(?:ROOT\s+)?\S+\s*=\s*\S+\s+(?:transpose|copy)\(", text, re.M))
    return sorted(coll), moves, largest


def programs(mesh, axes):
    p, x, y = data()
    pn = {k: np.asarray(v).tag(*NAMES[k]) for k, v in p.items()}
    xn, yn = (np.asarray(v).tag("batch", "seq", "embed") for v in (x, y))
    rows = NamedSharding(mesh, P("data"))
    pp = jax.device_put(p, NamedSharding(mesh, P()))
    return (named_step(mesh, axes), (pn, xn, yn)), (plain_step(mesh), (
        pp, jax.device_put(x, rows), jax.device_put(y, rows)))


@pytest.mark.parametrize("axes", ["batch", None], ids=["axes=batch", "every name"])
def test_data_parallel_step_matches_the_hand_written_shard_map(axes):
    mesh = make_mesh((8,), ("data",))
    (ours, oargs), (hand, hargs) = programs(mesh, axes)
    po, ph = oargs[0], hargs[0]
    for _ in range(2):       # the same training, step by step
        (po, lo), (ph, lh) = ours(po, *oargs[1:]), hand(ph, *hargs[1:])
        onp.testing.assert_allclose(lo.data, lh, rtol=1e-5)
        for k in ph:
            onp.testing.assert_allclose(po[k].untag(*NAMES[k]).data, ph[k], rtol=2e-5,
                                        atol=1e-6)
    lowered = ours.lower(*oargs)
    c_ours, m_ours, big_ours = profile(lowered.compile().as_text())
    c_hand, m_hand, big_hand = profile(hand.lower(*hargs).compile().as_text())
    # mapping every name broadcast the scalar loss over all of them and took
    # one element back: its gradient padded a zero cotangent to their product
    # (here 8 x 16 x 32, which XLA folds; on an MoE 32 GiB, which it did not)
    assert "stablehlo.pad" not in lowered.as_text()
    assert big_ours <= big_hand
    if axes == "batch":      # (every name mapped: vmap's own layout, and its
        assert c_ours == c_hand      # scalar reductions' all-reduce of one more)
        assert m_ours <= m_hand
    else:
        assert {k for k, _ in c_ours} == {k for k, _ in c_hand} == {"all-reduce"}


def test_a_loop_on_an_explicit_mesh_with_the_batch_placed_every_step():
    """jax.make_mesh's Explicit axes: a batch np.shard places meets parameters
    the previous step's gradient updated; both must be on the user's mesh
    (the map's results were on its Auto twin: the second step raised JAX's
    'Mesh for all inputs should be equal')."""
    optax = pytest.importorskip("optax")
    mesh = make_mesh((8,), ("data",))
    p, x, y = data()
    opt = optax.adam(1e-2)
    dp_loss = np.nmap(loss_named, axes="batch", mesh=mesh, axis_resources={"batch": "data"})

    @jax.jit
    def step(p, s, x, y):
        loss, g = np.value_and_grad(dp_loss)(p, x, y)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, loss

    @jax.jit
    def step_plain(p, s, x, y):
        loss, g = jax.value_and_grad(loss_plain)(p, x, y)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    pn = {k: np.asarray(v).tag(*NAMES[k]) for k, v in p.items()}
    sn, sp = opt.init(pn), opt.init(p)
    for i in range(3):
        xi, yi = onp.roll(x, i, axis=0), onp.roll(y, i, axis=0)
        xb, yb = np.shard((np.asarray(xi).tag("batch", "seq", "embed"),
                           np.asarray(yi).tag("batch", "seq", "embed")), mesh, {"batch": "data"})
        # (both on the mesh's backend, at one matmul precision: beside an
        # accelerator the plain step would run there, where the default passes
        # bf16 and Adam's normalised steps amplify its last bits)
        with jax.default_matmul_precision("highest"):
            pn, sn, ln = step(pn, sn, xb, yb)
            with jax.default_device(mesh.devices.flat[0]):
                p, sp, lp = step_plain(p, sp, xi, yi)
        onp.testing.assert_allclose(ln.data, lp, rtol=1e-5)
    for k in p:
        onp.testing.assert_allclose(pn[k].untag(*NAMES[k]).data, p[k], rtol=1e-4, atol=1e-6)

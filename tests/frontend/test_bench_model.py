"""The model benchmarks as smoke tests: two training steps of each model pair
written with named axes and with plain jax.numpy (benchmarks/bench_model.py,
benchmarks/bench_models.py).  Same float32 losses, and the named step compiles
to the plain step's graph (transposes and copies within 10%).  Timings are the
benchmarks', not here."""
import importlib.util
import pathlib

import jax
import pytest

from support import needs_devices

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"


def load(name="bench_model"):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_two_steps_same_losses_and_graph():
    bench = load()
    with jax.default_matmul_precision("highest"):   # (an accelerator's default: bf16)
        plain, named, hp, hn = bench.check(steps=2)
    assert len(plain) == len(named) == 2
    for a, b in zip(plain, named):
        assert abs(a - b) <= 1e-6, (plain, named)
    assert plain[1] < plain[0]                       # Adam made progress
    assert hn["transpose"] + hn["copy"] <= 1.1 * (hp["transpose"] + hp["copy"]), (hp, hn)


def test_timing_ratio_is_the_median_of_interleaved_rounds():
    """One slow round (a load spike) moves neither the ratio nor the lower
    quartile; the sides alternate which runs first."""
    bench = load()
    r, lo, hi = bench._ratio([1.0, 2.2, 3.0, 40.0], [1.0, 2.0, 3.0, 4.0])
    assert abs(r - 1.05) < 1e-12 and lo == 1.0 and hi > 1.1
    assert bench._order(0) == ("plain", "named") and bench._order(1) == ("named", "plain")


@pytest.mark.parametrize("name, config", [("gpt", {"layers": 1}), ("mixer", {"blocks": 1}),
                                          ("stacked", {"layers": 1}), ("vit", {"blocks": 1}),
                                          ("vit-dp", {"blocks": 1}),
                                          ("vit-uniform", {"blocks": 1}),
                                          ("vit-uniform-dp", {"blocks": 1}),
                                          ("stacked-dp", {"layers": 1}),
                                          ("stacked-shard", {"layers": 1}),
                                          ("moe", {"layers": 1}),
                                          ("moe-dp", {"layers": 1}),
                                          ("moe-shard", {"layers": 1})])
def test_user_style_pairs_same_losses_and_graph(name, config):
    """Models written from the docs, not tuned for: a transformer with the lookup
    ``emb.untag("vocab")[tokens]`` and ``take_along_axis(axis="vocab")``, an
    MLP-mixer with ``logp[{"class": labels}]``, and a transformer from
    ``namedarray.nn`` with its layers stacked along "layer" under ``np.scan``
    and AdamW with ``nn.decay_mask``, a ViT-style classifier with ``nn.dropout``
    (keyed per step) and AdamW, on one device and data-parallel over 8 with
    ``np.nmap`` against ``jax.shard_map`` (one layer each, to compile fast).
    ``vit-uniform``: the ViT's dropout drawn the NumPy way,
    ``rng.uniform(np.zeros_like(x), 1.0) >= rate`` from a keyed Generator;
    ``moe``: a Mixture-of-Experts transformer (router softmax over "expert",
    dense top-2 gates by ``np.top_k``, expert weights contracted by a named
    einsum); ``-dp``: under a mesh ``np.nmap`` against ``jax.shard_map`` with
    ``lax.pmean`` of the gradients, ``-shard``: placed by ``np.shard`` against
    ``jax.device_put`` with ``NamedSharding`` (8 devices).  A mesh map must
    not move the per-device blocks' layout: the transposes+copies bound."""
    if name.endswith(("-dp", "-shard")):
        needs_devices(8)            # the benchmark's mesh: jax.make_mesh's devices
    with jax.default_matmul_precision("highest"):   # (an accelerator's default: bf16)
        plain, named, hp, hn = load("bench_models").check(name, steps=2, **config)
    for a, b in zip(plain, named):
        assert abs(a - b) <= 1e-5, (plain, named)
    assert plain[1] < plain[0]
    assert hn["transpose"] + hn["copy"] <= 1.1 * (hp["transpose"] + hp["copy"]), (hp, hn)


def test_vit_plain_dropout_draws_the_named_masks():
    """The plain ViT's dropout (``jax.random.bernoulli``) has ``nn.dropout``'s
    bits, on one device and as one device's block inside ``shard_map`` (the
    global mask's rows), so the pair's losses can agree; and it drops."""
    import jax
    import jax.numpy as jnp
    import numpy

    import namedarray as np
    from namedarray import nn
    bench = load("bench_models")
    key = jax.random.key(5)
    x = jax.random.normal(jax.random.key(1), (8, 6, 4), jnp.float32)
    named = nn.dropout(key, np.asarray(x).tag("batch", "patch", "embed"), 0.5)
    want = numpy.asarray(named.untag("batch", "patch", "embed"))
    got = numpy.asarray(bench.dropout_plain(key, x, 0.5))
    numpy.testing.assert_allclose(got, want, rtol=1e-6)
    assert 0 < (got == 0).mean() < 1
    P = jax.sharding.PartitionSpec
    needs_devices(8)
    blocks = jax.jit(jax.shard_map(
        lambda x: bench.dropout_plain(key, x, 0.5, axis_name="data"), mesh=bench._mesh(),
        in_specs=P("data"), out_specs=P("data")))(x)
    numpy.testing.assert_allclose(numpy.asarray(blocks), want, rtol=1e-6)


def test_vit_plain_uniform_dropout_draws_the_generator_masks():
    """``vit-uniform``'s plain dropout (``jax.random.uniform``, float64) keeps
    what a keyed Generator's ``rng.uniform(np.zeros_like(x), 1.0) >= rate``
    keeps, draw after draw (each draw splits the Generator's key)."""
    import jax
    import jax.numpy as jnp
    import numpy

    import namedarray as np
    bench = load("bench_models")
    key = jax.random.key(7)
    x = jax.random.normal(jax.random.key(2), (8, 6, 4), jnp.float32)
    xn = np.asarray(x).tag("batch", "patch", "embed")
    rng = np.random.default_rng(key)
    k = key
    for _ in range(2):
        keep = rng.uniform(np.zeros_like(xn), 1.0) >= 0.5
        want = numpy.asarray(np.where(keep, xn / 0.5, 0.0).untag("batch", "patch", "embed"))
        got = numpy.asarray(bench.dropout_plain(k, x, 0.5, uniform=True))
        numpy.testing.assert_allclose(got, want, rtol=1e-6)
        assert 0 < (got == 0).mean() < 1
        k = jax.random.split(k)[0]


def test_vit_data_parallel_gradients_are_the_one_device_gradients():
    """Adam hides a gradient's scale from the losses, so the data-parallel
    ViT's gradients are checked directly: each side's equals its one-device
    gradient (same dropout masks), and the two sides agree."""
    import jax
    import numpy
    needs_devices(8)
    bench = load("bench_models")
    c = {**bench.VIT, "blocks": 1}
    (pp, (_, key), bp), (pn, _, bn) = bench.vit_setup(0, c)
    one, dp = bench.vit_grads(c), bench.vit_grads(c, dp=True)
    leaves = []
    for side, (p, b) in enumerate([(pp, bp), (pn, bn)]):
        (l1, g1), (l8, g8) = (jax.jit(f[side])(p, b, key) for f in (one, dp))
        g1, g8 = (jax.tree.leaves(jax.tree.map(lambda v: getattr(v, "data", v), g))
                  for g in (g1, g8))
        numpy.testing.assert_allclose(float(l8), float(l1), rtol=1e-6)
        for a, b in zip(g8, g1):
            numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), atol=1e-6)
        leaves.append(g8)
    for a, b in zip(*leaves):
        numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), atol=1e-6)


def test_bfloat16_pair_accumulates_in_float32_and_agrees():
    """A pair in bfloat16 (parameters and activations; each contraction
    accumulating in float32, cast back; the loss of float32 logits): both
    sides' losses agree to bfloat16's precision and the named step keeps the
    plain one's transposes and copies."""
    bms = load("bench_models")
    plain, named, hp, hn = bms.check("gpt-dict", steps=2, layers=1, dtype="bfloat16")
    for a, b in zip(plain, named):
        assert abs(a - b) <= 1e-2 * abs(a), (plain, named)
    assert plain[1] < plain[0]
    assert hn["transpose"] + hn["copy"] <= 1.1 * (hp["transpose"] + hp["copy"]), (hp, hn)
    c, _, ((p, _, _), (q, _, _)) = bms.pair("gpt-dict", layers=1, dtype="bfloat16")
    assert p["emb"].dtype == q["emb"].dtype == bms.jnp.bfloat16


def test_accelerator_run_records_a_pair_and_its_table_row():
    """``bench_accel.py``'s record of one run (the tutorial's model at its
    own size, one timed round): the losses of both, compiled under the
    highest matmul precision, agree; the HLO and jaxpr counts are there; the
    record makes a row of the Markdown table (the figures are never checked)."""
    accel = load("bench_accel")
    a = accel.parse(["tutorial", "--size", "small", "--steps", "1", "--repeat", "1",
                     "--warmup", "0"])
    assert accel.runs_of(a) == [("tutorial", "float32")]
    rec = accel.measure("tutorial", "float32", a, {})
    assert len(rec["losses"]["plain"]) == 2 and rec["loss_rel_diff"] <= 1e-5, rec["losses"]
    ok = accel.verdicts(rec)
    assert ok["loss"] and ok["transposes+copies"] and ok["while/gather/scatter"], rec["hlo"]
    assert rec["hlo"]["plain"]["opt-barrier"] == 0 and rec["hlo"]["named"]["opt-barrier"] == 1
    env = {"backend": "cpu", "device_kind": "cpu", "devices": 1, "jax": "0", "date": "d",
           "dtype_mode": "numpy", "commit": "c", "size": "small", "command": "x"}
    row = accel.table([rec], env).splitlines()[-1]
    assert row.startswith("| `tutorial` | float32 |") and row.count("|") == 12
    assert accel.DEFAULT_RUNS[-1] == ("moe", "bfloat16")

"""The model benchmarks as smoke tests: two training steps of each model pair
written with named axes and with plain jax.numpy (benchmarks/bench_model.py,
benchmarks/bench_models.py).  Same float32 losses, and the named step compiles
to the plain step's graph (transposes and copies within 10%).  Timings are the
benchmarks', not here."""
import importlib.util
import pathlib

import pytest

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"


def load(name="bench_model"):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_two_steps_same_losses_and_graph():
    bench = load()
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
                                          ("stacked", {"layers": 1})])
def test_user_style_pairs_same_losses_and_graph(name, config):
    """Models written from the docs, not tuned for: a transformer with the lookup
    ``emb.untag("vocab")[tokens]`` and ``take_along_axis(axis="vocab")``, an
    MLP-mixer with ``logp[{"class": labels}]``, and a transformer from
    ``namedarray.nn`` with its layers stacked along "layer" under ``np.scan``
    and AdamW with ``nn.decay_mask`` (one layer each, to compile fast)."""
    plain, named, hp, hn = load("bench_models").check(name, steps=2, **config)
    for a, b in zip(plain, named):
        assert abs(a - b) <= 1e-5, (plain, named)
    assert plain[1] < plain[0]
    assert hn["transpose"] + hn["copy"] <= 1.1 * (hp["transpose"] + hp["copy"]), (hp, hn)

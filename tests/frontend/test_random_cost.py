"""Draws whose parameters are arrays cost what the jax.random draw of that
shape costs (docs/design.md §7; issue #38): counted in the optimized HLO
under jax.jit (never timed).  Unmapped, the draw is one jax.random call of
the block's shape; inside ``nmap`` on a mesh each device draws its own
shard, as a hand-written ``shard_map`` does, never the global block."""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.sharding import PartitionSpec as P

import namedarray as na
from support import make_mesh

SHAPE = (8, 4, 16)           # batch, seq, embed
DIMS = ("batch", "seq", "embed")


def _mesh():
    return make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))


def _cost(f, *args):
    """(the largest uint32 array, the number of instructions) in the
    optimized HLO of ``jax.jit(f)``: the random bits drawn, and the work."""
    text = jax.jit(f).lower(*args).compile().as_text()
    sizes = [onp.prod([int(d) for d in s.split(",") if d] or [1])
             for s in re.findall(r"u32\[([0-9,]*)\]", text)]
    return max(sizes), len(re.findall(r"^\s*(?:ROOT\s+)?%?\S+\s*=\s*\S+\s+\S+\(", text, re.M))


def _f(a):
    return a.astype(jnp.result_type(float))    # NumPy's result dtype (the default float)


# each draw as namedarray writes it and as jax.random writes it
DRAWS = {
    "uniform(low_array, 1.0)": (
        lambda g, x: g.uniform(na.zeros_like(x), 1.0),
        lambda k, a: _f(a) + (1.0 - _f(a)) * jax.random.uniform(k, a.shape, _f(a).dtype)),
    "normal(loc_array)": (
        lambda g, x: g.normal(x),
        lambda k, a: _f(a) + jax.random.normal(k, a.shape, _f(a).dtype)),
    "random(size=x.named_shape)": (
        lambda g, x: g.random(size=x.named_shape, dtype=onp.float32),
        lambda k, a: jax.random.uniform(k, a.shape, a.dtype)),
}


def _data():
    return jnp.asarray(onp.random.default_rng(0).standard_normal(SHAPE), jnp.float32)


def _plain_key(key):
    return jax.random.split(key)[1]       # the key of a generator's first draw


@pytest.mark.parametrize("named", [True, False], ids=["named", "positional"])
@pytest.mark.parametrize("draw", sorted(DRAWS))
def test_unmapped_draw_costs_the_jax_random_draw(draw, named):
    ours, ref = DRAWS[draw]
    if not named and "named_shape" in draw:
        pytest.skip("a positional array has no named shape")
    a = _data()
    x = na.NamedArray(a, DIMS) if named else na.asarray(a)
    got = _cost(lambda k, x: ours(na.random.default_rng(k), x).data, jax.random.key(0), x)
    want = _cost(lambda k, a: ref(_plain_key(k), a), jax.random.key(0), a)
    assert got[0] <= want[0] and got[1] <= 1.1 * want[1], (draw, got, want)


@pytest.mark.parametrize("draw", sorted(DRAWS))
def test_mesh_draw_costs_the_shard_map_draw(draw):
    ours, ref = DRAWS[draw]

    def named(k, x):
        return na.nmap(lambda w: ours(na.random.default_rng(k), w), axes="batch", mesh=_mesh(),
                       axis_resources={"batch": "data"})(x).untag(*DIMS).data

    def plain(k, a):
        def body(a):
            kk = jax.random.fold_in(_plain_key(k), jax.lax.axis_index("data"))
            return ref(kk, a)
        return jax.shard_map(body, mesh=_mesh(), in_specs=P("data"), out_specs=P("data"))(a)

    a = _data()
    got = _cost(named, jax.random.key(0), na.NamedArray(a, DIMS))
    want = _cost(plain, jax.random.key(0), a)
    assert got[0] <= want[0], (f"{draw}: each device draws {got[0]} random words, "
                               f"jax.random in shard_map {want[0]}")
    assert got[1] <= 1.1 * want[1], (draw, got, want)
    # and the values are the unmapped draw's, compiled for the mesh's backend
    # (beside an accelerator the mesh is the CPU's devices: float64 draws on a
    # TPU are its emulation's, off in the last bits)
    unmapped = jax.jit(lambda k, x: ours(na.random.default_rng(k), x).untag(*DIMS).data)
    with jax.default_device(_mesh().devices.flat[0]):
        want = unmapped(jax.random.key(0), na.NamedArray(a, DIMS))
    onp.testing.assert_array_equal(onp.asarray(named(jax.random.key(0), na.NamedArray(a, DIMS))),
                                   onp.asarray(want))

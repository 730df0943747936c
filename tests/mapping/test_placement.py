"""Location transparency (docs/design.md §2b): every named operation gives the
physical run's names, dtype, values and gradients under every placement of its
names -- a local nmap, a mesh (one element per device, or a split local block),
a 2-D mesh, a local nmap nested in a mesh one, a mesh nmap nested in a mesh
nmap, each also under jax.jit."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from namedarray import parallel as P
from namedarray.testing import strategies as nst
from support import (PLACEMENTS, SHARDED, UNMAPPED, context as _context, make_mesh, mesh4,
                     mesh8, sharded)

B, C, K = 8, 2, 3          # sizes of names "b", "c" and the positional axis
IDX = onp.array([5, 0, 7, 7])
SQ = lambda v: v * v  # noqa: E731

OPS = {
    # reductions and contractions: one local step and one collective
    "sum": lambda v: v.sum(axis="b"),
    "sum_b_pos": lambda v: np.sum(v, axis=("b", 0)),
    "mean_bc": lambda v: v.mean(axis=("b", "c")),
    "max": lambda v: v.max(axis="b"),
    "argmax": lambda v: np.argmax(v, axis="b"),
    "std": lambda v: np.std(v, axis="b"),
    "var_ddof": lambda v: np.var(v, axis=("c", "b"), ddof=1),
    "median": lambda v: np.median(v, axis="b"),
    "logsumexp": lambda v: np.logsumexp(v, axis="b"),
    "softmax": lambda v: np.exp(v - np.logsumexp(v, axis="b")),
    "prod": lambda v: np.prod(v / 4 + 1, axis="b"),
    "any": lambda v: np.any(v > 1, axis="b"),
    "einsum": lambda v: np.einsum("i{b,c},i{b}->i{c}", v, v.sum(axis="c")),
    "einsum_all": lambda v: np.einsum("i{b,c},i{b,c}->", v, v),
    "vecdot": lambda v: np.vecdot(v, SQ(v), axis="b"),
    "psum_bc": lambda v: P.psum(v, ("b", "c")),
    "pmax_bc": lambda v: P.pmax(v, ("b", "c")),
    "pmean": lambda v: P.pmean(v, "b"),
    "center": lambda v: v - v.mean(axis="b"),
    # operations that need the whole axis: gather it
    "cumsum": lambda v: np.cumsum(v, axis="b"),
    "sort": lambda v: np.sort(v, axis="b"),
    "argsort": lambda v: np.argsort(v, axis="b"),
    "flip": lambda v: np.flip(v, axis="b"),
    "roll": lambda v: np.roll(v, 3, axis="b"),
    "diff": lambda v: np.diff(v, axis="b"),
    "take": lambda v: np.take(v, IDX, axis="b"),
    "concatenate": lambda v: np.concatenate([v, SQ(v)], axis="b"),
    "fft": lambda v: np.fft.fft(v, axis="b").real,
    "split": lambda v: np.split(v, 4, axis="b")[1],
    "stack": lambda v: np.stack([v, SQ(v)], axis="s").max(axis="s"),
    "partition": lambda v: np.partition(v, 3, axis="b"),
    "take_along_axis": lambda v: np.take_along_axis(v, np.argsort(v, axis="b"), axis="b"),
    "cumprod_pos": lambda v: np.cumprod(v / 4, axis=0),
    "untag_slice": lambda v: v.untag("b")[2:5].tag("b", None),
    "untag": lambda v: v.untag("b").sum(axis=0),
    "untag_keep": lambda v: v.untag("b") * 2,
    "rename": lambda v: v.rename(b="e").max(axis="e"),
    "rename_keep": lambda v: v.rename(b="e") + 1,
    "all_gather": lambda v: P.all_gather(v, "b"),
    "all_gather_bc": lambda v: P.all_gather(v, ("b", "c"), tiled=True),
    "pargmax_bc": lambda v: P.pargmax(v, ("b", "c")),
    # data movement along a name
    "ppermute": lambda v: P.ppermute(v, "b", [(k, (k + 3) % B) for k in range(B)]),
    "shift": lambda v: P.ppermute(v, "b", [(k, k + 1) for k in range(B - 1)]),
    "ppermute_bc": lambda v: P.ppermute(v, ("b", "c"),
                                        [(k, (k + 5) % (B * C)) for k in range(B * C)]),
    "pshuffle": lambda v: P.pshuffle(v, "b", [3, 1, 0, 2, 7, 6, 5, 4]),
    # fresh arrays carrying a name the map binds: this instance's slice
    "fresh": lambda v: v * np.arange(float(B)).tag("b"),
    "fresh_reduce": lambda v: (v + np.ones((B, C)).tag("b", "c")).sum(axis=("b", "c")),
    "index": lambda v: v + P.axis_index("b"),
    "index_bc": lambda v: v * P.axis_index(("c", "b")),
    "size": lambda v: v * P.axis_size(("b", "c"), v),
}

# operations whose derivative is not defined, or not one the test can take
NO_GRAD = {"argmax", "any", "argsort", "pargmax_bc", "index", "index_bc"}
# axis_index needs an enclosing map: the reference is the local nmap
NEEDS_MAP = {"index", "index_bc"}


def _reference(op, x):
    return np.nmap(OPS[op])(x) if op in NEEDS_MAP else OPS[op](x)


def _run(op, placement, x, jit):
    f = PLACEMENTS[placement](OPS[op])
    with _context(placement):
        if jit and placement in SHARDED:     # jit gets the data as placed
            x = np.shard(x, *sharded(placement))
        return jax.jit(f)(x) if jit else f(x)


def _named(data, dims):
    return np.NamedArray(data, dims)


def _check(got, want):
    assert got.named_shape == want.named_shape, (got.named_shape, want.named_shape)
    assert got.shape == want.shape and got.dtype == want.dtype, (
        got.shape, got.dtype, want.shape, want.dtype)
    names = sorted(want.named_shape)
    onp.testing.assert_allclose(onp.asarray(got.untag(*names)),
                                onp.asarray(want.untag(*names)), rtol=1e-9, atol=1e-9)


def _loss(op, placement, dims):
    def loss(data):
        out = PLACEMENTS[placement](OPS[op])(_named(data, dims))
        out = out.untag(*sorted(out.named_shape)) if out.named_shape else out
        return jnp.sum(jnp.sin(out.data.astype(jnp.float64)))
    return loss


DIMS = [(None, "b", "c"), ("b", None, "c"), ("c", "b", None)]


def _data(dims, seed=0):
    shape = tuple({None: K, "b": B, "c": C}[d] for d in dims)
    # distinct values: no ties, so max/sort and their gradients are unambiguous
    return jnp.asarray(onp.random.default_rng(seed).permutation(
        onp.prod(shape)).reshape(shape) / 7.0 - 3.0)


@pytest.mark.parametrize("placement", [p for p in PLACEMENTS if p != "physical"])
def test_every_op_equals_the_physical_run(placement):
    dims = DIMS[0]
    x = _named(_data(dims), dims)
    for op in OPS:
        if op in NEEDS_MAP and placement in UNMAPPED:
            continue
        if op == "index_bc" and placement == "nmap-b-only":   # "c" is not mapped
            with pytest.raises(ValueError, match="axis_index: axis name 'c' is not an axis"):
                _run(op, placement, x, jit=False)
            continue
        want = _reference(op, x)
        try:
            _check(_run(op, placement, x, jit=False), want)
        except Exception as e:
            raise AssertionError(f"{op} under {placement}: {type(e).__name__}: {e}") from None


@settings(max_examples=40)
@given(op=st.sampled_from(sorted(OPS)), placement=st.sampled_from(sorted(PLACEMENTS)),
       dims=st.sampled_from(DIMS), jit=st.booleans(), seed=st.integers(0, 3))
def test_drawn_placement_values_and_gradients(op, placement, dims, jit, seed):
    data = _data(dims, seed)
    x = _named(data, dims)
    if op in NEEDS_MAP and placement in UNMAPPED | {"nmap-b-only"}:
        return
    _check(_run(op, placement, x, jit), _reference(op, x))
    if op in NO_GRAD:
        return
    g = jax.grad(_loss(op, placement, dims))
    want = jax.grad(_loss(op, "physical", dims))(data)
    with _context(placement, grad=True):
        got = (jax.jit(g) if jit else g)(data)
    onp.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def _inner_loss(op):
    """A loss computed inside the map: every name of the result summed by a
    collective, so every instance holds the same (invariant) value."""
    def loss(u):
        s = np.sin(OPS[op](u).astype(float))
        names = tuple(s.named_shape)
        return (P.psum(s, names) if names else s).data.sum()
    return loss


@settings(max_examples=30)
@given(op=st.sampled_from(sorted(set(OPS) - NO_GRAD)),
       placement=st.sampled_from(sorted(set(PLACEMENTS) - {"physical"})),
       dims=st.sampled_from(DIMS), jit=st.booleans(), seed=st.integers(0, 3))
def test_drawn_gradients_taken_inside_the_map(op, placement, dims, jit, seed):
    """jax.grad taken inside every placement equals the physical gradient."""
    x = _named(_data(dims, seed), dims)
    want = jax.grad(_inner_loss(op))(x)
    f = PLACEMENTS[placement](jax.grad(_inner_loss(op)))
    with _context(placement, grad=True):
        _check((jax.jit(f) if jit else f)(x), want)


@settings(max_examples=15)
@given(data=st.data())
def test_drawn_values_any_dtype(data):
    x = data.draw(nst.named_arrays(dtypes=[onp.float32, onp.int32, onp.int8],
                                   shape=(K, B, C), max_names=0)).tag(None, "b", "c")
    op = data.draw(st.sampled_from(["sum", "max", "cumsum", "sort", "fresh", "untag",
                                    "concatenate", "diff", "psum_bc", "take"]))
    placement = data.draw(st.sampled_from(sorted(PLACEMENTS)))
    want = OPS[op](x)
    got = _run(op, placement, x, jit=False)
    assert got.dtype == want.dtype
    _check(got.astype(onp.float64), want.astype(onp.float64))


COLLECTIVE = r"\b(all-reduce|all-gather|all-to-all|collective-permute|reduce-scatter)(-start)?\("


def _collectives(fn, *args):
    import re
    text = jax.jit(fn).lower(*args).compile().as_text()
    return sorted(m[0] for m in re.findall(COLLECTIVE, text))


@pytest.mark.parametrize("op, want", [
    ("sum", ["all-reduce"]), ("max", ["all-reduce"]), ("mean_bc", ["all-reduce"]),
    ("einsum", ["all-reduce"]), ("vecdot", ["all-reduce"]),
    ("logsumexp", ["all-reduce", "all-reduce"]),
    ("sort", ["all-gather"]), ("cumsum", ["all-gather"]), ("untag", ["all-gather"]),
    ("concatenate", ["all-gather", "all-gather"]), ("diff", ["all-gather"]),
    ("fft", ["all-gather"]), ("median", ["all-gather"]),
])
def test_split_name_collectives_match_a_hand_written_shard_map(op, want):
    """On a mesh a named reduction or contraction is one local step and one
    all-reduce (as hand-written shard_map code); an operation that needs the
    whole axis adds one all-gather per operand that holds a block."""
    x = _named(_data(DIMS[0]), DIMS[0])
    f = PLACEMENTS["split"](OPS[op])
    assert _collectives(f, x) == want


def test_hand_written_shard_map_issues_the_same_collectives():
    from jax.sharding import AxisType, PartitionSpec as PS
    x = _named(_data(DIMS[0]), DIMS[0])
    auto = make_mesh((4,), ("d",), axis_types=(AxisType.Auto,))
    hand = jax.shard_map(lambda d: jax.lax.psum(d.sum(1), "d"), mesh=auto,
                         in_specs=PS(None, "d", None), out_specs=PS())
    assert _collectives(hand, x.data) == _collectives(PLACEMENTS["split"](OPS["sum"]), x)


def _raw_inside(v):
    """Raw JAX functions applied by an inner local nmap keep the names of the
    maps around it: the next named ops (a reduction, a named einsum) see them."""
    w = np.asarray(onp.linspace(0.5, 1.5, C)).tag("c")
    g = np.nmap(jax.nn.gelu)(v)
    assert g.named_shape == v.named_shape and g.shape == v.shape
    s = np.nmap(lambda a: jnp.sum(a * a))(v)          # a raw reduction: names kept
    assert s.named_shape == v.named_shape and s.shape == ()
    return {"einsum": np.einsum("k{b,c},{c}->k{b}", g, w), "sum": (g * w).sum(axis="c"),
            "raw_sum": s.sum(axis="b")}


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_nmap_of_raw_jax_inside_any_map_keeps_names(placement):
    x = _named(onp.random.default_rng(3).normal(size=(B, K, C)), ("b", None, "c"))
    want = _raw_inside(x)
    got = jax.jit(PLACEMENTS[placement](_raw_inside))(x)
    for k in want:
        _check(got[k], want[k])


# Issue 29's classes, each where it went wrong: names living in different
# places gathered in the order given, where= under a map, the dtype of bool
# collectives, a gradient through a local nmap whose arguments have different
# names, a name made whole re-bound by an inner nmap, a named draw from a
# flipped probability
ROUND2 = {
    "all_gather_cb": lambda v: P.all_gather(v, ("c", "b")),
    "untag_cb": lambda v: v.untag("c", "b"),
    "argmax_cb": lambda v: np.argmax(v, axis=("c", "b")),
    "pargmin_cb": lambda v: P.pargmin(v, ("c", "b")),
    "ppermute_cb": lambda v: P.ppermute(v, ("c", "b"), [(k, (k + 5) % 16) for k in range(16)]),
    "sum_where": lambda v: np.sum(v, axis="b", where=v > 0),
    "mean_where": lambda v: np.mean(v, axis=("b", "c"), where=v > -1),
    "max_where": lambda v: np.max(v, axis="b", where=v < 1, initial=-5.0),
    "std_where_keepdims": lambda v: np.std(v, axis=("b", 0), where=v > -1, keepdims=True),
    "any_where": lambda v: np.any(v > 0, axis="b", where=v < 2),
    "psum_bool": lambda v: P.psum(v > 0, "b"),
    "pprod_bool": lambda v: P.pprod(v > -2, ("b", "c")),
    "pmean_bool": lambda v: P.pmean(v > 0, "b"),
    "nmap_pair": lambda v: np.nmap(lambda u, w: (u * w).sum(axis="b"))(
        v, v.sum(axis="c")).sum(axis="c"),
    "nmap_whole": lambda v: np.nmap(lambda a: a * 2)(v[{"b": slice(0, 4)}]),
    "nmap_whole_flip": lambda v: np.nmap(lambda a: a - a.mean(axis="c"))(
        v[{"c": slice(None, None, -1)}]),
    "binomial_flip": lambda v: np.random.default_rng(jax.random.key(0)).binomial(
        5, 1 / (1 + np.exp(np.flip(v, axis="b")))),
}
ROUND2_GRAD = {"sum_where", "mean_where", "std_where_keepdims", "nmap_pair", "nmap_whole",
               "nmap_whole_flip"}
ROUND2_PLACES = ["nmap", "nmap-b-only", "split", "mesh", "nmap-in-mesh", "mesh-in-mesh"]


@pytest.mark.parametrize("op", sorted(ROUND2))
def test_names_in_different_places_values_and_gradients(op):
    dims = DIMS[0]
    data = _data(dims)
    x = _named(data, dims)
    want = ROUND2[op](x)
    # (a keyed binomial compiles slowly under every map: the issue's placements)
    for placement in ["mesh"] if op == "binomial_flip" else ROUND2_PLACES:
        f = PLACEMENTS[placement](ROUND2[op])
        _check(f(x), want)
        if op in ROUND2_GRAD and placement in ("split", "mesh-in-mesh"):
            s = lambda u: np.sin(ROUND2[op](u))   # noqa: E731
            inner = lambda u: P.psum(s(u), tuple(s(u).named_shape)).sum()   # noqa: E731
            _check(PLACEMENTS[placement](np.grad(inner))(x), np.grad(inner)(x))


# operations that need this instance's index along a name the map vmaps,
# under a jax.jit inside a mesh nmap
def _setitem(v):
    u = v.untag("c") * 1
    u[1] = 5.0
    return u.tag("c", *([None] * (u.ndim - 1)))


INSTANCE = {
    "fresh": lambda v: v * np.arange(float(C)).tag("c"),
    "sort": lambda v: np.sort(v, axis="c"),
    "flip": lambda v: np.flip(v, axis="c"),
    "cumsum": lambda v: np.cumsum(v, axis="c"),
    "ppermute": lambda v: P.ppermute(v, "c", [(0, 1), (1, 0)]),
    "index": lambda v: v + P.axis_index(("b", "c")),
    "setitem": _setitem,
    "draw": lambda v: v + np.random.default_rng(jax.random.key(1)).normal(
        size=(K,)) * np.ones((C,)).tag("c"),
}


@pytest.mark.parametrize("op", sorted(INSTANCE))
def test_instance_index_under_a_jit_inside_a_mesh_map(op):
    x = _named(_data(DIMS[0]), DIMS[0])
    want = np.nmap(INSTANCE[op])(x)
    for mesh in (mesh4(), mesh8()):
        _check(np.nmap(jax.jit(INSTANCE[op]), mesh=mesh, axis_resources={"b": "d"})(x), want)

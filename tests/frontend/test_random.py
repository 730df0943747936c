"""namedarray.random: distributions (two-sample Kolmogorov-Smirnov against
NumPy's own generator on large fixed-seed samples), NumPy's return kinds and
dtypes, broadcasting, named parameters, reproducibility and state, choice,
in-place shuffle, permutations, errors.

The streams differ from NumPy's (JAX's threefry, not PCG64/MT19937), so
values are never compared one by one; distributions are.
"""
from __future__ import annotations

import inspect

import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as na
from namedarray import random as nr
from namedarray.random import streams
from support import ci_slice, emulates, mesh4, mesh8, mesh24

N = 20_000


def ks_stat(x, y):
    """The two-sample Kolmogorov-Smirnov statistic."""
    x, y = onp.sort(onp.ravel(x)), onp.sort(onp.ravel(y))
    grid = onp.concatenate([x, y])
    fx = onp.searchsorted(x, grid, side="right") / x.size
    fy = onp.searchsorted(y, grid, side="right") / y.size
    return onp.abs(fx - fy).max()


def same_distribution(ours, theirs, alpha=1e-6):
    ours = onp.asarray(ours)
    n, m = ours.size, theirs.size
    crit = onp.sqrt(-onp.log(alpha / 2) / 2) * onp.sqrt((n + m) / (n * m))
    d = ks_stat(ours, theirs)
    assert d < crit, f"KS statistic {d:.4f} >= {crit:.4f}"
    # the means agree within a few standard errors (where they exist)
    if onp.isfinite(theirs.var()) and theirs.var() < 1e6:
        se = onp.sqrt(ours.var() / n + theirs.var() / m) + 1e-12
        assert abs(ours.mean() - theirs.mean()) < 6 * se


# parameters for every distribution in the table
PARAMS = {
    "standard_normal": (), "normal": (1.5, 2.0), "uniform": (-1.0, 3.0),
    "standard_exponential": (), "exponential": (2.5,), "standard_gamma": (0.7,),
    "gamma": (2.0, 1.5), "beta": (0.5, 2.0), "chisquare": (3.0,), "f": (5.0, 7.0),
    "standard_t": (4.0,), "standard_cauchy": (), "lognormal": (0.3, 0.5),
    "laplace": (1.0, 2.0), "logistic": (-1.0, 0.5), "gumbel": (0.5, 2.0), "rayleigh": (1.5,),
    "pareto": (3.0,), "weibull": (1.5,), "power": (2.5,), "triangular": (-1.0, 0.5, 2.0),
    "poisson": (4.5,), "binomial": (12, 0.3), "geometric": (0.25,),
}


def test_every_table_entry_is_tested():
    assert set(PARAMS) == set(streams._DISTRIBUTIONS)


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_distribution_matches_numpy(name):
    ours = getattr(na.random.default_rng(12345), name)(*PARAMS[name], size=N)
    theirs = getattr(onp.random.default_rng(54321), name)(*PARAMS[name], size=N)
    assert isinstance(ours, na.NamedArray)
    assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape)
    same_distribution(ours, theirs)
    # the legacy global-state function draws from the same distribution
    na.random.seed(7)
    legacy = getattr(na.random, name)(*PARAMS[name], size=N)
    assert legacy.dtype == getattr(onp.random, name)(*PARAMS[name], size=3).dtype
    same_distribution(legacy, theirs)


@pytest.mark.parametrize("name,args", [
    ("rand", (N,)), ("randn", (N,)), ("random", (N,)), ("random_sample", (N,)),
    ("ranf", (N,)), ("sample", (N,))])
def test_legacy_uniform_and_normal_aliases(name, args):
    na.random.seed(3)
    onp.random.seed(3)
    ours, theirs = getattr(na.random, name)(*args), getattr(onp.random, name)(*args)
    assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape)
    same_distribution(ours, theirs)


def test_integers_match_numpy():
    ours = na.random.default_rng(1).integers(-3, 7, size=N)
    theirs = onp.random.default_rng(2).integers(-3, 7, size=N)
    assert ours.dtype == theirs.dtype
    same_distribution(ours, theirs)
    o, t = onp.asarray(ours), theirs
    assert o.min() == t.min() == -3 and o.max() == t.max() == 6
    closed = onp.asarray(na.random.default_rng(1).integers(0, 3, size=N, endpoint=True))
    assert set(onp.unique(closed)) == set(onp.unique(onp.random.default_rng(1).integers(
        0, 3, size=N, endpoint=True)))
    na.random.seed(0)
    same_distribution(na.random.randint(5, size=N), onp.random.default_rng(0).integers(5, size=N))


# --------------------------------------------------------------------------
# NumPy's return kinds and dtypes
# --------------------------------------------------------------------------
CALLS = {
    "rand": lambda m, size: m.rand() if size is None else m.rand(*size),
    "randn": lambda m, size: m.randn() if size is None else m.randn(*size),
    "randint": lambda m, size: m.randint(5, size=size),
    "randint_int8": lambda m, size: m.randint(5, size=size, dtype=onp.int8),
    "random": lambda m, size: m.random(size),
    "normal": lambda m, size: m.normal(0.0, 1.0, size),
    "normal_0d_param": lambda m, size: m.normal(onp.zeros(()), 1.0, size),
    "poisson": lambda m, size: m.poisson(2.0, size),
    "binomial": lambda m, size: m.binomial(5, 0.5, size),
    "choice_int": lambda m, size: m.choice(5, size),
    "choice_list": lambda m, size: m.choice([1.5, 2.5], size),
    "gamma": lambda m, size: m.gamma(2.0, size=size),
    "randint_bool": lambda m, size: m.randint(2, size=size, dtype=bool),
}
GEN_CALLS = {
    "random": lambda g, size: g.random(size),
    "random_f32": lambda g, size: g.random(size, dtype=onp.float32),
    "integers": lambda g, size: g.integers(5, size=size),
    "integers_uint8": lambda g, size: g.integers(5, size=size, dtype=onp.uint8),
    "integers_bool": lambda g, size: g.integers(2, size=size, dtype=bool),
    "normal": lambda g, size: g.normal(size=size),
    "standard_normal_f32": lambda g, size: g.standard_normal(size, dtype=onp.float32),
    "standard_gamma_f32": lambda g, size: g.standard_gamma(2.0, size, dtype=onp.float32),
    "exponential": lambda g, size: g.exponential(size=size),
    "poisson": lambda g, size: g.poisson(size=size),
    "geometric": lambda g, size: g.geometric(0.5, size=size),
    "choice_int": lambda g, size: g.choice(5, size),
    "choice_array": lambda g, size: g.choice(onp.arange(5.0), size),
}


def same_kind(ours, theirs):
    if type(theirs) in (float, int, bool):
        assert type(ours) is type(theirs), (type(ours), type(theirs))
        return
    assert isinstance(ours, na.NamedArray), type(ours)
    assert (ours.dtype, ours.shape) == (onp.asarray(theirs).dtype, onp.shape(theirs))


@given(call=st.sampled_from(sorted(CALLS)), size=st.sampled_from([None, (), (2, 3)]))
def test_legacy_return_kinds_and_dtypes(call, size):
    same_kind(CALLS[call](na.random, size), CALLS[call](onp.random, size))
    same_kind(CALLS[call](na.random.RandomState(0), size),
              CALLS[call](onp.random.RandomState(0), size))


@given(call=st.sampled_from(sorted(GEN_CALLS)), size=st.sampled_from([None, (), 6, (2, 3)]))
def test_generator_return_kinds_and_dtypes(call, size):
    same_kind(GEN_CALLS[call](na.random.default_rng(0), size),
              GEN_CALLS[call](onp.random.default_rng(0), size))


def test_bytes():
    b = na.random.default_rng(0).bytes(7)
    assert type(b) is type(onp.random.default_rng(0).bytes(7)) and len(b) == 7
    assert type(na.random.bytes(3)) is bytes


# --------------------------------------------------------------------------
# broadcasting, named parameters
# --------------------------------------------------------------------------
@given(loc_shape=st.sampled_from([(), (2, 1), (4,)]),
       scale_shape=st.sampled_from([(), (2, 3)]),
       size=st.sampled_from([None, (2, 3)]))
def test_parameters_broadcast_like_numpy(loc_shape, scale_shape, size):
    loc, scale = onp.zeros(loc_shape), onp.ones(scale_shape)
    try:
        want = onp.random.default_rng(0).normal(loc, scale, size)
    except ValueError:
        with pytest.raises(ValueError, match="^normal: parameters with shapes"):
            na.random.default_rng(0).normal(loc, scale, size)
        return
    got = na.random.default_rng(0).normal(na.asarray(loc), scale, size)
    same_kind(got, want)


def test_named_parameters_give_named_independent_draws():
    loc = na.asarray(onp.array([0.0, 100.0, 200.0])).tag("b")
    x = na.random.default_rng(0).normal(loc, 1.0, size=(N // 10,))
    assert x.named_shape == {"b": 3} and x.shape == (N // 10,)
    d = onp.asarray(x.untag("b"))  # (3, N/10)
    for i in range(3):
        same_distribution(d[i] - 100.0 * i, onp.random.default_rng(i).normal(size=N // 10))
    assert not onp.allclose(d[0], d[1] - 100.0)  # not one draw shared by the slices
    # two parameters with different names: the union of the names
    p = na.asarray(onp.array([0.2, 0.8])).tag("p")
    n = na.asarray(onp.array([10, 20, 30])).tag("n")
    c = na.random.default_rng(1).binomial(n, p)
    assert c.named_shape == {"n": 3, "p": 2} and c.shape == () and c.dtype == onp.int64


# --------------------------------------------------------------------------
# reproducibility and state
# --------------------------------------------------------------------------
def draws(m):
    return onp.concatenate([onp.ravel(m.normal(size=3)), onp.ravel(m.randint(9, size=2)),
                            onp.ravel(m.choice(10, 3, replace=False))])


def test_same_seed_same_stream():
    na.random.seed(42)
    a = draws(na.random)
    na.random.seed(42)
    b = draws(na.random)
    na.random.seed(43)
    c = draws(na.random)
    onp.testing.assert_array_equal(a, b)
    assert not onp.array_equal(a, c)
    onp.testing.assert_array_equal(draws(na.random.RandomState(42)), a)
    g1, g2 = na.random.default_rng(5), na.random.default_rng(5)
    onp.testing.assert_array_equal(g1.random(4), g2.random(4))
    assert not onp.array_equal(g1.random(4), g1.random(4))  # the stream advances
    for seed in ([1, 2, 3], onp.random.SeedSequence(9), 2**80, onp.int64(7)):
        onp.testing.assert_array_equal(na.random.default_rng(seed).random(3),
                                       na.random.default_rng(seed).random(3))
    assert na.random.default_rng(g1) is g1
    key = jax.random.key(0)
    onp.testing.assert_array_equal(na.random.default_rng(key).random(3),
                                   na.random.Generator(key).random(3))


def test_get_state_set_state_roundtrip():
    rs = na.random.RandomState(0)
    rs.normal(size=2)
    state = rs.get_state()
    a = draws(rs)
    rs.set_state(state)
    onp.testing.assert_array_equal(draws(rs), a)
    rs.set_state(state)
    rs.set_state(rs.get_state(legacy=False))
    onp.testing.assert_array_equal(draws(rs), a)
    na.random.seed(1)
    s = na.random.get_state()
    x = na.random.rand(3)
    na.random.set_state(s)
    onp.testing.assert_array_equal(na.random.rand(3), x)


def test_spawn():
    g = na.random.default_rng(0)
    kids = g.spawn(3)
    vals = [onp.asarray(k.random(5)) for k in kids]
    assert all(isinstance(k, nr.Generator) for k in kids)
    assert not onp.array_equal(vals[0], vals[1])
    again = [onp.asarray(k.random(5)) for k in na.random.default_rng(0).spawn(3)]
    for v, w in zip(vals, again):
        onp.testing.assert_array_equal(v, w)


def test_numpy_seeded_state_refuses_to_draw_under_jit():
    """The global state, RandomState and default_rng(int) would draw once, at
    trace time: inside a staged trace they raise, naming the keyed form."""
    na.random.seed(0)
    before = na.random.get_state()
    msg = (r"^normal: random state seeded NumPy's way \(the np.random functions, "
           r"RandomState, or default_rng\(seed\) with a NumPy seed\) cannot draw inside "
           r"jax.jit or "
           r"another staged trace: .* rng = np.random.default_rng\(key\), with key = "
           r"jax.random.key\(seed\) passed to the traced function .* then rng.normal")
    for draw in (lambda: na.random.normal(size=3), lambda: nr.RandomState(1).normal(),
                 lambda: na.random.default_rng(5).normal(size=3)):
        with pytest.raises(RuntimeError, match=msg):
            jax.jit(lambda: draw().data)()
    with pytest.raises(RuntimeError, match=r"^integers: .* then rng.integers\(\.\.\.\)"):
        jax.jit(lambda: na.random.default_rng(5).integers(3, size=2).data)()
    with pytest.raises(RuntimeError, match=r"^choice: "):
        jax.lax.scan(lambda c, _: (c + na.random.choice(4, 1).data, None),
                     onp.zeros(1, onp.int64), None, length=2)
    # nothing was drawn; eager vmap and grad still draw (once per call)
    after = na.random.get_state()
    assert after[2] == before[2] and onp.array_equal(after[1], before[1])
    out = jax.vmap(lambda x: x + na.random.normal(size=()).data)(onp.zeros(2))
    assert out.shape == (2,) and out[0] == out[1]      # one draw, broadcast
    assert isinstance(na.random.normal(size=2), na.NamedArray)


def _jkey(i):
    return jax.random.key(i)


def _same_draws(got, want):
    """The same float64 draws: bit for bit, or within the emulation's error
    where a backend only emulates float64 and one of them was compiled there
    (a TPU: docs/differences.md)."""
    got, want = onp.asarray(got), onp.asarray(want)
    if emulates(onp.float64) and got.dtype == onp.float64:
        onp.testing.assert_allclose(got, want, rtol=1e-11)
    else:
        onp.testing.assert_array_equal(got, want)


def test_keyed_generator_under_jit():
    """default_rng(key) with a traced key: a fresh draw per key, the eager
    draw's values for the same key, every method available."""
    f = jax.jit(lambda k: na.random.default_rng(k).normal(size=(3,)))
    a, b = f(_jkey(0)), f(_jkey(1))
    assert isinstance(a, na.NamedArray) and a.shape == (3,) and a.dtype == onp.float64
    assert not onp.allclose(onp.asarray(a), onp.asarray(b))
    _same_draws(a, na.random.default_rng(_jkey(0)).normal(size=(3,)))
    onp.testing.assert_array_equal(a, f(_jkey(0)))
    # raw key data (jax.random.PRNGKey) is the same key
    onp.testing.assert_array_equal(f(jax.random.PRNGKey(0)), a)

    def many(k):
        g = na.random.default_rng(k)
        return (g.random(2), g.integers(0, 10, size=3), g.uniform(-1, 1, size=2),
                g.choice(5, size=2), g.permutation(4), g.gamma(2.0, size=2),
                g.binomial(10, 0.5, size=2), g.standard_normal(2, dtype=onp.float32),
                g.normal(na.zeros(2)))
    outs = jax.jit(many)(_jkey(3))
    eager = many(_jkey(3))
    for o, e in zip(outs, eager):
        assert o.dtype == e.dtype and o.shape == e.shape
        onp.testing.assert_allclose(onp.asarray(o), onp.asarray(e), rtol=1e-6)
    assert sorted(onp.asarray(outs[4]).tolist()) == [0, 1, 2, 3]
    # successive draws from one generator differ
    g = na.random.default_rng(_jkey(4))
    assert not onp.allclose(onp.asarray(g.normal(size=3)), onp.asarray(g.normal(size=3)))


def test_a_traced_seed_must_be_a_key():
    with pytest.raises(TypeError, match=r"^default_rng: a traced seed must be a JAX key "
                                        r"\(jax.random.key\(...\) or PRNGKey data\), got a "
                                        r"traced int64 array of shape \(\)"):
        jax.jit(lambda s: na.random.default_rng(s).random(2).data)(onp.int64(3))


@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_different_keys_give_different_draws(i, j):
    f = jax.jit(lambda k: na.random.default_rng(k).random(4))
    a, b = onp.asarray(f(_jkey(i))), onp.asarray(f(_jkey(j)))
    assert onp.array_equal(a, b) == (i == j)


# --------------------------------------------------------------------------
# named draws: one draw per named slice, wherever the names live
# --------------------------------------------------------------------------
B, C, K = 8, 2, 3          # sizes of names "b", "c" and the positional axis

PLACEMENTS = {   # each runs every call of NAMED_CALLS in one compiled program
    "nmap": lambda f: jax.jit(na.nmap(f)),
    "mesh": lambda f: na.nmap(f, mesh=mesh8(), axis_resources={"b": "d"}),
    "split": lambda f: na.nmap(f, mesh=mesh4(), axis_resources={"b": "d"}),
    # (under jax.jit the arguments go on the mesh first: NumPy's float64 data is
    # committed to one CPU device on an accelerator machine, docs/differences.md)
    "mesh-b-and-c": lambda f: lambda k, x: jax.jit(na.nmap(
        f, mesh=mesh24(), axis_resources={"b": "y", "c": "x"}))(k, na.shard(x, mesh24(), {})),
}
EAGER = {   # eager local maps (the NumPy-seeded state draws there too)
    "nmap": lambda f: na.nmap(f),
    "nmap-b-only": lambda f: na.nmap(f, axes=["b"]),
}


def _u(x):
    """Values in (0.1, 0.9), varying along every name: a valid parameter for
    every distribution."""
    return 0.1 + 0.8 * x / (B * C * K)


def _named_params(name, u):
    if name == "binomial":
        return (5, u)
    if name == "triangular":
        return (u - 1, u, u + 1)
    if name == "uniform":
        return (u, u + 1)
    return (u,) * len(streams._DISTRIBUTIONS[name][0])


def _in_place(method, **kw):
    def f(g, x):
        y = x * 1
        assert getattr(g, method)(y, **kw) is None
        return y
    return f


def _out(method, *args, **kw):
    def f(g, x):
        o = na.zeros_like(x, dtype=kw.get("dtype"))
        assert getattr(g, method)(*args, out=o, **kw) is o
        return o
    return f


# every Generator method that can meet a named array: (g, x) -> a NamedArray,
# with x of named shape {b: 8, c: 2} and positional shape (3,)
NAMED_CALLS = {
    **{f"{n}": (lambda n: lambda g, x: getattr(g, n)(*_named_params(n, _u(x))))(n)
       for n in streams._DISTRIBUTIONS if streams._DISTRIBUTIONS[n][0]},
    **{f"{n}_size": (lambda n: lambda g, x: getattr(g, n)(
        *_named_params(n, _u(x)), size=(2, K)))(n) for n in ("normal", "gamma", "binomial")},
    # parameters with different names (one does not vary over a mesh axis)
    "gamma_two_names": lambda g, x: g.gamma(_u(x).mean(axis="b"), _u(x)),
    "standard_gamma_out_two_names": lambda g, x: g.standard_gamma(
        _u(x).mean(axis="b"), out=na.zeros_like(x)),
    "binomial_two_names": lambda g, x: g.binomial(x.astype(int) % 3 + 1,
                                                  _u(x).mean(axis="b")),
    "integers": lambda g, x: g.integers(0, x.astype(int) + 2, size=(4, K)),
    "integers_endpoint": lambda g, x: g.integers(x.astype(int), 100, endpoint=True),
    "random_out": _out("random"),
    "random_named_size": lambda g, x: g.random(size=x.named_shape),
    "normal_mixed_size": lambda g, x: g.normal(_u(x).mean(axis="c"), size=(K, {"c": C})),
    "random_out_f32": _out("random", dtype=onp.float32),
    "standard_normal_out": _out("standard_normal"),
    "standard_exponential_out": _out("standard_exponential"),
    "standard_gamma_out": _out("standard_gamma", 2.0),
    "standard_gamma_named_out": lambda g, x: g.standard_gamma(_u(x), out=na.zeros_like(x)),
    "choice": lambda g, x: g.choice(x, 4),
    "choice_no_replace": lambda g, x: g.choice(x, 2, replace=False),
    "choice_named_p": lambda g, x: g.choice(K, 5, p=_u(x) / _u(x).sum()),
    "choice_along_name": lambda g, x: g.choice(x, 3, axis="b"),
    "permutation": lambda g, x: g.permutation(x),
    "permutation_along_name": lambda g, x: g.permutation(x, axis="b"),
    "shuffle": _in_place("shuffle"),
    "shuffle_along_name": _in_place("shuffle", axis="b"),
    "permuted": lambda g, x: g.permuted(x),
    "permuted_axis": lambda g, x: g.permuted(x[:, None] + na.arange(4.0), axis=1),
    "permuted_along_name": lambda g, x: g.permuted(x, axis="b"),
    "permuted_out": lambda g, x: g.permuted(x, out=na.zeros_like(x)),
    "multivariate_normal": lambda g, x: g.multivariate_normal(x, na.eye(K), size=2),
    "dirichlet": lambda g, x: g.dirichlet(_u(x), size=2),
    "multinomial": lambda g, x: g.multinomial(7, _u(x) / _u(x).sum() * 0.99, size=2),
}


def _named_x():
    return na.asarray(onp.arange(B * C * K, dtype=onp.float64).reshape(B, C, K)).tag(
        "b", "c", None)


def _by_name(r):
    return onp.asarray(r.untag(*sorted(r.named_shape)))


def test_every_method_that_takes_an_array_is_in_the_named_table():
    """Each public Generator method is in NAMED_CALLS (as its name, or its
    name and a suffix), unless it takes no array at all (no parameter, no
    out=): such a draw has no named axes to batch over."""
    public = {n for n in dir(nr.Generator) if not n.startswith("_")}
    covered = {m for m in public if any(c == m or c.startswith(m + "_") for c in NAMED_CALLS)}
    assert public - covered == {"bytes", "spawn", "get_state", "set_state",
                                "standard_cauchy", "random_sample"}
    for m in public - covered - {"get_state", "set_state"}:
        params = set(inspect.signature(getattr(nr.Generator, m)).parameters)
        assert params <= {"self", "size", "length", "n_children"}, (m, params)


# the whole table compiles into one program per placement, which takes a
# minute: the split mesh (a local block and a mesh step) runs every call; the
# other placements run one call per path of the named-draw engine (a
# distribution, sizes, integers, out=, choice, permutations, the vector
# distributions, parameters with different names)
ENGINE_PATHS = ["normal", "binomial", "gamma_size", "gamma_two_names", "integers",
                "random_out", "random_named_size", "normal_mixed_size", "choice_named_p",
                "permutation_along_name", "shuffle",
                "permuted_axis", "multinomial"]
# every call on one placement (in CI: the engine paths and a fixed third of the rest)
PLACED_CALLS = {"nmap": ENGINE_PATHS, "split": ci_slice(sorted(NAMED_CALLS), ENGINE_PATHS),
                "mesh": ENGINE_PATHS,
                "mesh-b-and-c": ENGINE_PATHS}


def _calls(names):
    def run(key, x):
        g = na.random.default_rng(key)
        return {c: NAMED_CALLS[c](g, x) for c in names}
    return run




@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_named_draws_equal_the_physical_draw_under_every_placement(placement):
    """A draw is a function of the key and each named slice's global index:
    inside nmap (local, on a mesh, split, two names on a 2-D mesh) each
    instance draws its own slice of the physical draw (the unmapped program's),
    and different slices differ.  The calls of a placement (``PLACED_CALLS``)
    run in one program."""
    x = _named_x()
    assert set(PLACED_CALLS) == set(PLACEMENTS) and set(ENGINE_PATHS) <= set(NAMED_CALLS)
    names = tuple(PLACED_CALLS[placement])     # a generator's draws depend on the calls before
    physical = _PHYSICAL.get(names) or _PHYSICAL.setdefault(
        names, jax.jit(_calls(names))(_jkey(11), x))
    got = PLACEMENTS[placement](_calls(names))(_jkey(11), x)
    assert set(got) == set(physical) == set(names)
    for call, p in physical.items():
        assert {"b", "c"} <= set(p.named_shape) or call.endswith("along_name"), call
        if "b" in p.named_shape:   # the slices are not one draw repeated
            slices = onp.asarray(p.untag("b", *(set(p.named_shape) - {"b"})))
            assert len({s.tobytes() for s in slices}) > 1, call
        m = got[call]
        assert (m.named_shape, m.shape, m.dtype) == (p.named_shape, p.shape, p.dtype), call
        onp.testing.assert_allclose(_by_name(m), _by_name(p), rtol=1e-12, atol=0,
                                    err_msg=call)


_PHYSICAL: dict = {}


@pytest.mark.parametrize("call", ci_slice(["normal", "poisson", "choice", "permutation",
                                           "shuffle", "permuted", "binomial",
                                           "multivariate_normal"], always=("normal", "choice")))
def test_numpy_seeded_named_draws_inside_an_eager_nmap(call):
    """The legacy functions too: one draw per named slice, the physical draw's."""
    x = _named_x()
    rs = {"permuted": lambda s: na.random.default_rng(s)}.get(call, nr.RandomState)
    physical = NAMED_CALLS[call](rs(3), x)
    for place in EAGER:
        g = rs(3)
        got = EAGER[place](lambda v: NAMED_CALLS[call](g, v))(x)
        onp.testing.assert_allclose(_by_name(got), _by_name(physical), rtol=1e-12, atol=0)
    na.random.seed(5)
    physical = na.random.normal(_u(x))
    na.random.seed(5)
    got = na.nmap(lambda v: na.random.normal(_u(v)))(x)
    onp.testing.assert_array_equal(_by_name(got), _by_name(physical))


def test_dir_shows_numpy_names_only():
    ours = {n for n in dir(na.random) if not n.startswith("_")}
    numpy_names = {n for n in dir(onp.random) if not n.startswith("_")}
    assert ours <= numpy_names, sorted(ours - numpy_names)
    assert {"default_rng", "Generator", "normal", "seed", "RandomState"} <= ours


# --------------------------------------------------------------------------
# choice, shuffle, permutation
# --------------------------------------------------------------------------
@given(n=st.sampled_from([1, 7, 30]), data=st.data(), seed=st.integers(0, 2**16))
def test_choice_without_replacement_is_distinct(n, data, seed):
    k = data.draw(st.sampled_from([0, 1, n]))
    got = onp.asarray(na.random.default_rng(seed).choice(n, k, replace=False))
    assert got.shape == (k,) and len(set(got.tolist())) == k
    assert ((0 <= got) & (got < n)).all()
    pool = onp.arange(n) * 10
    got = onp.asarray(na.random.choice(pool, k, replace=False))
    assert len(set(got.tolist())) == k and set(got.tolist()) <= set(pool.tolist())


def test_choice_with_p_matches_numpy_frequencies():
    p = onp.array([0.1, 0.0, 0.6, 0.3])
    ours = onp.asarray(na.random.default_rng(0).choice(4, N, p=p))
    theirs = onp.random.default_rng(0).choice(4, N, p=p)
    assert (ours != 1).all()
    f_ours = onp.bincount(ours, minlength=4) / N
    f_theirs = onp.bincount(theirs, minlength=4) / N
    onp.testing.assert_allclose(f_ours, f_theirs, atol=6 * onp.sqrt(0.25 / N) * 2)
    nz = onp.asarray(na.random.default_rng(1).choice(4, 3, replace=False, p=p))
    assert sorted(nz.tolist()) == [0, 2, 3]


def test_generator_choice_along_axis_and_named_rows():
    a = onp.arange(12).reshape(3, 4)
    got = na.random.default_rng(0).choice(a, 5, axis=1)
    assert got.shape == onp.random.default_rng(0).choice(a, 5, axis=1).shape
    cols = onp.asarray(got).T
    assert all(any((c == a[:, j]).all() for j in range(4)) for c in cols)
    x = na.asarray(a).tag(None, "f")  # positional rows, named columns ride along
    rows = na.random.default_rng(0).choice(x, 2)
    assert rows.shape == (2,) and rows.named_shape == {"f": 4}


@given(shape=st.sampled_from([(5,), (4, 3), (3, 2, 2)]), seed=st.integers(0, 2**16))
def test_shuffle_in_place(shape, seed):
    a = onp.arange(int(onp.prod(shape))).reshape(shape)
    x = na.asarray(a)
    dims = x.dims
    assert na.random.default_rng(seed).shuffle(x) is None
    got = onp.asarray(x)
    assert x.dims == dims and got.shape == a.shape
    # rows moved whole: the same multiset of rows
    assert sorted(map(tuple, got.reshape(shape[0], -1))) == sorted(
        map(tuple, a.reshape(shape[0], -1)))
    y = a.copy()
    na.random.shuffle(y)  # a NumPy array in place
    assert sorted(y.ravel().tolist()) == sorted(a.ravel().tolist())
    lst = list(range(10))
    na.random.shuffle(lst)
    assert sorted(lst) == list(range(10))


def test_shuffle_changes_order_eventually_and_along_a_name():
    x = na.arange(20)
    na.random.seed(0)
    na.random.shuffle(x)
    assert not onp.array_equal(onp.asarray(x), onp.arange(20))
    a = onp.arange(24).reshape(4, 6)
    named = na.asarray(a).tag(None, "t")
    na.random.default_rng(0).shuffle(named, axis="t")
    got = onp.asarray(named.untag("t"))  # (6, 4): columns of a, permuted
    assert sorted(map(tuple, got)) == sorted(map(tuple, a.T))
    assert named.named_shape == {"t": 6} and named.shape == (4,)


def test_permutation_and_permuted():
    p = na.random.permutation(10)
    assert p.dtype == onp.random.permutation(10).dtype
    assert sorted(onp.asarray(p).tolist()) == list(range(10))
    a = onp.arange(12).reshape(3, 4)
    q = onp.asarray(na.random.default_rng(0).permutation(a, axis=1))
    assert sorted(map(tuple, q.T)) == sorted(map(tuple, a.T))
    r = onp.asarray(na.random.default_rng(0).permuted(a, axis=1))
    for row, orig in zip(r, a):
        assert sorted(row.tolist()) == orig.tolist()
    flat = onp.asarray(na.random.default_rng(0).permuted(a))
    assert sorted(flat.ravel().tolist()) == list(range(12))


def test_vector_distributions():
    g = na.random.default_rng(0)
    cov = onp.array([[2.0, 0.5], [0.5, 1.0]])
    mv = onp.asarray(g.multivariate_normal([1.0, -1.0], cov, size=N))
    theirs = onp.random.default_rng(0).multivariate_normal([1.0, -1.0], cov, size=N)
    assert mv.shape == theirs.shape
    onp.testing.assert_allclose(onp.cov(mv.T), onp.cov(theirs.T), atol=0.1)
    d = g.dirichlet([1.0, 2.0, 3.0], size=(4,))
    assert d.shape == onp.random.default_rng(0).dirichlet([1.0, 2.0, 3.0], size=(4,)).shape
    onp.testing.assert_allclose(onp.asarray(d).sum(-1), 1.0, rtol=1e-12)
    m = g.multinomial(10, [0.2, 0.3, 0.5], size=5)
    want = onp.random.default_rng(0).multinomial(10, [0.2, 0.3, 0.5], size=5)
    assert (m.dtype, m.shape) == (want.dtype, want.shape)
    assert (onp.asarray(m).sum(-1) == 10).all()


# --------------------------------------------------------------------------
# errors (NumPy raises the same types)
# --------------------------------------------------------------------------
ERRORS = [
    (lambda m: m.normal(0, -1), ValueError, "^normal: scale < 0"),
    (lambda m: m.poisson(-1.0), ValueError, "^poisson: lam < 0"),
    (lambda m: m.binomial(3, 1.5), ValueError, "^binomial: p < 0, > 1"),
    (lambda m: m.beta(0, 1), ValueError, "^beta: a <= 0"),
    (lambda m: m.normal(size=-1), ValueError, "^normal: negative dimensions"),
    (lambda m: m.normal(size=1.5), TypeError, "^normal: size must be an int"),
    (lambda m: m.normal(onp.zeros(2), 1, size=3), ValueError,
     r"^normal: parameters with shapes \(2,\) cannot be broadcast to size \(3,\)"),
    (lambda m: m.randint(0), ValueError, "^randint: low >= high"),
    (lambda m: m.randint(3, 2), ValueError, "^randint: low >= high"),
    (lambda m: m.randint(0, 300, dtype=onp.int8), ValueError,
     "^randint: high is out of bounds for int8"),
    (lambda m: m.choice(0), ValueError, "^choice: a must be a positive integer"),
    (lambda m: m.choice([]), ValueError, "^choice: a cannot be empty"),
    (lambda m: m.choice(3, 4, replace=False), ValueError, "^choice: cannot take a larger"),
    (lambda m: m.choice(3, p=[0.5, 0.6, 0.0]), ValueError, "^choice: probabilities do not sum"),
    (lambda m: m.choice(3, p=[0.5, 0.5]), ValueError, "^choice: a and p must have the same"),
    (lambda m: m.choice([[1, 2]]), ValueError, "^choice: a must be 1-dimensional"),
    (lambda m: m.permutation(onp.array(3)), IndexError, "^permutation: x must be an integer"),
    (lambda m: m.shuffle(onp.array(3)), TypeError, "^shuffle: cannot shuffle a 0-d"),
    (lambda m: m.seed(-1), ValueError, "^seed: seed must be between 0 and 2\\*\\*32 - 1"),
    (lambda m: m.seed(2**32), ValueError, "^seed: seed must be between"),
    (lambda m: m.seed(1.5), TypeError, "^seed: seed must be an int"),
    (lambda m: m.normal(0, 1, 2, 3), TypeError, "^normal: too many positional"),
]


@pytest.mark.parametrize("call,exc,match", ERRORS)
def test_errors_like_numpy(call, exc, match):
    with pytest.raises(exc):
        call(onp.random.RandomState(0))
    with pytest.raises(exc, match=match):
        call(na.random.RandomState(0))


def test_more_errors():
    with pytest.raises(ValueError):
        onp.random.default_rng(-1)
    with pytest.raises(ValueError, match="^default_rng: seed -1: expected non-negative"):
        na.random.default_rng(-1)
    with pytest.raises(ValueError, match="^set_state: expected a state as get_state"):
        na.random.set_state(("threefry2x32", onp.zeros(2, onp.uint32), 0))
    with pytest.raises(ValueError, match="^set_state: expected a state from namedarray"):
        na.random.default_rng(jax.random.key(0)).set_state(onp.random.get_state())
    with pytest.raises(TypeError, match="^shuffle: x must be a mutable array .* got ArrayImpl"):
        na.random.shuffle(jax.numpy.arange(3))
    with pytest.raises(ValueError, match=r"^shuffle: axis names 'u'.*\{'t': 3\}"):
        na.random.default_rng(0).shuffle(na.ones((3, 2)).tag("t", None), axis="u")
    with pytest.raises(TypeError, match="^random: dtype must be float32 or float64"):
        na.random.default_rng(0).random(dtype=onp.int32)
    with pytest.raises(TypeError):
        onp.random.default_rng(0).random(dtype=onp.int32)
    with pytest.raises(ValueError, match="^integers: high is out of bounds for bool"):
        na.random.default_rng(0).integers(5, dtype=bool)


def test_out_argument():
    out = na.zeros((2, 3))
    r = na.random.default_rng(0).standard_normal(out=out)
    assert r is out and onp.asarray(out).std() > 0
    with pytest.raises(TypeError, match="^random: out has dtype float64 but dtype is float32"):
        na.random.default_rng(0).random(dtype=onp.float32, out=na.zeros(2))


def test_named_size():
    """``size`` may be a dict of named sizes (``x.named_shape``), or ints and
    dicts: the result has those positional axes and names; its values are one
    draw of the physical block (positional axes, then the names sorted)."""
    x = _named_x()
    r = na.random.default_rng(jax.random.key(3)).random(size=x.named_shape)
    assert (r.shape, r.named_shape, r.dtype) == ((), {"b": B, "c": C}, onp.float64)
    want = jax.random.uniform(jax.random.split(jax.random.key(3))[1], (B, C), "float64")
    _same_draws(r.untag("b", "c"), want)
    m = na.random.default_rng(0).normal(size=(2, {"c": C}, K, {"b": B}))
    assert (m.shape, m.named_shape) == ((2, K), {"c": C, "b": B})
    assert len(set(onp.asarray(m.untag("b", "c")).ravel().tolist())) == 2 * K * B * C
    g = na.random.default_rng(0).gamma(_u(x), size=(K, {"d": 4}))   # a name of size only
    assert (g.shape, g.named_shape) == ((K,), {"b": B, "c": C, "d": 4})


@pytest.mark.parametrize("size,exc,match", [
    ((K, {"b": 3}), ValueError, r"^normal: axis name 'b' has size 3 in size \(named shape "
     r"\{'b': 3\}\) but size 8 in a parameter \(named shape \{'b': 8, 'c': 2\}\)"),
    ({0: 3}, TypeError, "^normal: size got the int 0 as an axis name"),
    ((2, {"b": -1}), ValueError, r"^normal: negative size -1 for axis 'b' in size"),
    ((2, {"b": 1.5}), TypeError, r"^normal: size \(2, \{'b': 1.5\}\): the size of axis 'b' "
     "must be an int"),
    (({"b": 8}, {"b": 8}), ValueError, "^normal: axis name 'b' appears twice in size"),
])
def test_named_size_errors(size, exc, match):
    with pytest.raises(exc, match=match):
        na.random.default_rng(0).normal(_u(_named_x()), size=size)


def test_default_integer_dtype_in_jax_mode_does_not_warn():
    """With JAX's dtype defaults the default integer is int32: no draw asks
    JAX for int64 (which it would truncate with a warning)."""
    import warnings
    mode = na.dtype_defaults()
    na.set_dtype_defaults("jax")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            na.random.seed(0)
            draws = [na.random.randint(0, 5, size=3), na.random.randint(5, size=(2, 2)),
                     na.random.default_rng(0).integers(5, size=3),
                     na.random.default_rng(0).integers(0, 5, size=2, endpoint=True)]
            assert isinstance(na.random.randint(5), int)
    finally:
        na.set_dtype_defaults(mode)
    assert [d.dtype for d in draws] == [onp.int32] * 4
    assert all(0 <= int(v) <= 5 for d in draws for v in onp.asarray(d).ravel())


# --------------------------------------------------------------------------
# layout cost of a named draw (#23): HLO transposes against jax.random
# --------------------------------------------------------------------------
def _transposes(f, *args):
    import re
    text = jax.jit(f).lower(*args).compile().as_text()
    return len(re.findall(r"^\s*(?:ROOT\s+)?\S+\s*=\s*\S+\s+transpose\(", text, re.M))


def _dropout_pair(dims):
    import jax.numpy as jnp
    shape = (4, 6, 5)
    a = jnp.asarray(onp.random.default_rng(0).standard_normal(shape), jnp.float32)

    def named(key, a):
        x = na.NamedArray(a, dims=dims)
        rng = nr.default_rng(key)
        for _ in range(3):
            keep = rng.random(size=x.named_shape, dtype=onp.float32) >= 0.1
            x = na.tanh(na.where(keep, x / 0.9, 0.0))
        return x.untag(*dims)

    def plain(key, a):
        for _ in range(3):
            key, sub = jax.random.split(key)
            keep = jax.random.uniform(sub, a.shape, jnp.float32) >= 0.1
            a = jnp.tanh(jnp.where(keep, a / 0.9, 0.0))
        return a

    return named, plain, a


def test_named_draw_in_sorted_order_adds_no_transpose():
    # the block is drawn in sorted-name order: an array already in that order
    # costs exactly what jax.random costs
    named, plain, a = _dropout_pair(("a", "b", "c"))
    key = jax.random.key(0)
    assert _transposes(plain, key, a) == 0
    assert _transposes(named, key, a) == 0


def test_named_draw_in_any_order_adds_no_transpose():
    # drawn in the order of size's names, with the sorted order's values
    named, plain, a = _dropout_pair(("batch", "seq", "embed"))
    key = jax.random.key(0)
    assert _transposes(named, key, a) == _transposes(plain, key, a)


@pytest.mark.parametrize("axes", ["batch", None], ids=["nmap-batch", "nmap-every-name"])
def test_mapped_named_draw_adds_no_transpose(axes):
    # inside a local nmap the block is laid out with the mapped names first,
    # in the maps' nesting order: each instance's slice is its batch dimension
    # where vmap keeps one, and the result is still the unmapped draw
    dims = ("batch", "seq", "embed")
    named, plain, a = _dropout_pair(dims)
    key = jax.random.key(0)

    def mapped(key, a):
        inner = lambda w: na.tanh(na.where(  # noqa: E731
            nr.default_rng(key).random(size=w.named_shape, dtype=onp.float32) >= 0.1,
            w / 0.9, 0.0))
        return na.nmap(inner, axes=axes)(na.NamedArray(a, dims=dims)).untag(*dims)

    def unmapped(key, a):
        x = na.NamedArray(a, dims=dims)
        return na.tanh(na.where(nr.default_rng(key).random(
            size=x.named_shape, dtype=onp.float32) >= 0.1, x / 0.9, 0.0)).untag(*dims)

    assert _transposes(mapped, key, a) == _transposes(plain, key, a) == 0
    onp.testing.assert_array_equal(jax.jit(mapped)(key, a), jax.jit(unmapped)(key, a))


CELLWISE = sorted(n for n, (_, _, d) in streams._DISTRIBUTIONS.items() if getattr(d, "cellwise", False))


def test_cellwise_draws_keep_the_operands_order_and_the_sorted_orders_values():
    # a sampler elementwise in threefry's counter is drawn in the order of
    # size's names (no transpose), with the values of the sorted-order draw;
    # the others are drawn in sorted order
    assert {"normal", "uniform", "standard_normal", "geometric"} <= set(CELLWISE)
    assert not {"poisson", "binomial", "gamma", "beta"} & set(CELLWISE)
    order, canon = {"s": 3, "b": 4, "e": 5}, {"b": 4, "e": 5, "s": 3}
    # (each draw compiles; CI takes a fixed slice of the samplers, both kinds)
    for name in ci_slice(sorted(PARAMS), always=("normal", "geometric", "gamma", "poisson")):
        got = getattr(nr.default_rng(jax.random.key(7)), name)(*PARAMS[name], size=order)
        want = getattr(nr.default_rng(jax.random.key(7)), name)(*PARAMS[name], size=canon)
        assert want.dims == ("b", "e", "s"), name
        assert got.dims == (("s", "b", "e") if name in CELLWISE else ("b", "e", "s")), name
        onp.testing.assert_array_equal(got.untag("b", "e", "s"), want.untag("b", "e", "s"),
                                       err_msg=name)
    for dt in (onp.float32, onp.float64):
        g = nr.default_rng(jax.random.key(1)).random(size=(2, order), dtype=dt)
        w = nr.default_rng(jax.random.key(1)).random(size=(2, canon), dtype=dt)
        assert g.dims == (None, "s", "b", "e") and g.dtype == dt
        onp.testing.assert_array_equal(g.untag("b", "e", "s"), w.untag("b", "e", "s"))
    for dt in (onp.int32, onp.int64, onp.uint8):
        g = nr.default_rng(jax.random.key(2)).integers(0, 100, size=order, dtype=dt)
        w = nr.default_rng(jax.random.key(2)).integers(0, 100, size=canon, dtype=dt)
        onp.testing.assert_array_equal(g.untag("b", "e", "s"), w.untag("b", "e", "s"))


def test_a_draw_in_the_operands_order_is_the_physical_draw_on_a_mesh():
    # names out of sorted order, one of them on the mesh: each instance keeps
    # its slice of the unmapped draw
    x = na.asarray(onp.zeros((C, B), onp.float32)).tag("c", "b")

    def f(key, v):
        g = nr.default_rng(key)
        return g.normal(_u(v) + 0.5, 2.0), g.random(size=v.named_shape, dtype=onp.float32)

    phys = jax.jit(f)(_jkey(4), x)
    assert [p.dims for p in phys] == [("c", "b"), ("c", "b")]
    got = na.nmap(f, mesh=mesh8(), axis_resources={"b": "d"})(_jkey(4), x)
    for m, p in zip(got, phys):
        if emulates(p.dtype):   # (the jitted draw on a TPU: its float64 emulation)
            onp.testing.assert_allclose(_by_name(m), _by_name(p), rtol=1e-12)
        else:
            onp.testing.assert_array_equal(_by_name(m), _by_name(p))


# NumPy-seeded streams draw NumPy's numbers (eager), keyed ones stay JAX's
SEEDED = [
    lambda m: m.RandomState(3).normal(size=(2, 3)),
    lambda m: m.RandomState(3).randint(5, 50, size=7),
    lambda m: m.RandomState(3).choice(10, 4, replace=False),
    lambda m: m.RandomState(3).permutation(8),
    lambda m: m.RandomState(3).rand(),
    lambda m: m.RandomState([1, 2]).binomial(10, [0.2, 0.7]),
    lambda m: m.default_rng(5).random(4, dtype=onp.float32),
    lambda m: m.default_rng(5).integers(0, 100, size=(2, 2), dtype=onp.int16),
    lambda m: m.default_rng(5).standard_normal(3),
    lambda m: m.default_rng(5).permuted(onp.arange(6).reshape(2, 3), axis=1),
    lambda m: m.Generator(m.PCG64(11)).exponential(2.0, size=3),
    lambda m: m.default_rng(5).choice(["a", "b", "c"], 4),
]


@pytest.mark.parametrize("draw", SEEDED)
def test_numpy_seeded_streams_draw_numpys_numbers(draw):
    want, got = draw(onp.random), draw(na.random)
    assert type(got) is type(want) or isinstance(got, na.ndarray)
    assert onp.asarray(got).dtype == onp.asarray(want).dtype
    onp.testing.assert_array_equal(onp.asarray(got), want)


def test_module_stream_and_state_are_numpys():
    onp.random.seed(4)
    na.random.seed(4)
    onp.testing.assert_array_equal(na.random.rand(3), onp.random.rand(3))
    assert na.random.randint(100) == onp.random.randint(100)
    s = onp.random.get_state()
    onp.testing.assert_array_equal(na.random.get_state()[1], s[1])
    x = onp.random.normal(size=4)
    na.random.set_state(s)
    onp.testing.assert_array_equal(na.random.normal(size=4), x)
    g, h = na.random.default_rng(8), onp.random.default_rng(8)
    assert g.get_state() == h.bit_generator.state
    a, b = [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]
    g.shuffle(a)
    h.shuffle(b)
    assert a == b
    kids, want = g.spawn(2), h.spawn(2)
    onp.testing.assert_array_equal(kids[1].random(3), want[1].random(3))



def test_mtrand_is_numpys_module_of_the_legacy_stream():
    """``np.random.mtrand`` holds what NumPy's does, as the same objects: its
    ``RandomState`` is the class, ``_rand`` the global stream every module
    function draws from (``seed=None`` in libraries: ``mtrand._rand``), and
    each of NumPy's ``mtrand`` names that ``np.random`` has is that object."""
    import namedarray.random.mtrand as mt
    assert na.random.mtrand is mt and mt.RandomState is na.random.RandomState
    assert isinstance(mt._rand, mt.RandomState) and isinstance(
        na.random.RandomState(0), mt.RandomState)
    shared = [n for n in onp.random.mtrand.__all__ if hasattr(na.random, n)]
    missing = [n for n in shared if getattr(mt, n, None) is not getattr(na.random, n)]
    assert not missing, missing
    assert set(shared) <= set(mt.__all__)
    for n in shared:
        if n != "RandomState":
            assert getattr(mt, n).__self__ is mt._rand, n
    # the stream the idioms reach is the module functions' (NumPy's numbers)
    def check_random_state(m, seed):
        if seed is None or seed is m.random:
            return m.random.mtrand._rand
        if isinstance(seed, int):
            return m.random.RandomState(seed)
        assert isinstance(seed, m.random.mtrand.RandomState)
        return seed
    for m in (onp, na):
        m.random.seed(11)
    for seed in (None, na.random, 7, na.random.RandomState(2)):
        want = check_random_state(onp, onp.random if seed is na.random else (
            onp.random.RandomState(2) if isinstance(seed, na.random.RandomState) else seed))
        got = check_random_state(na, seed)
        onp.testing.assert_array_equal(got.random_sample(3), want.random_sample(3))
        assert got.randint(50) == want.randint(50)
    onp.testing.assert_array_equal(na.random.rand(2), onp.random.rand(2))

"""Parallel primitives: placement (a) physical names and (b) names bound by nmap
agree with each other and with the positional computation."""
import itertools

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from jax.test_util import check_grads

import namedarray as np
from namedarray import parallel as P
from support import arrays, make_mesh

NAMES3 = ("i", "j", "k")


@st.composite
def named3(draw, dtype=onp.float64):
    shape = draw(st.sampled_from([(1, 1, 1, 1), (2, 3, 1, 2), (3, 2, 2, 3), (2, 1, 3, 1)]))
    a = draw(arrays(dtype, shape))
    return a, np.asarray(a).tag("i", None, "j", "k")   # i:0, j:2, k:3, positional 1


def phys(x, names):
    return onp.asarray(x.untag(*names))


REDUCERS = {"psum": onp.sum, "pmax": onp.max, "pmin": onp.min, "pprod": onp.prod,
            "pmean": onp.mean}
AXIS = {"i": 0, "j": 2, "k": 3}


@pytest.mark.parametrize("prim", sorted(REDUCERS))
@settings(max_examples=12)   # compile-bound: each shape compiles
@given(named3(), st.data())
def test_reducers_physical_and_bound_equal_positional(prim, case, data):
    a, x = case
    names = tuple(data.draw(st.permutations(NAMES3))[: data.draw(st.integers(1, 3))])
    fn = getattr(P, prim)
    left = [n for n in NAMES3 if n not in names]
    got = fn(x, names)                                                 # physical
    onp.testing.assert_allclose(phys(got, left), _ref_layout(a, names, left, prim), atol=1e-12)
    got_b = np.nmap(lambda v: fn(v, names))(x)                         # bound
    assert set(got_b.names) == set(left)
    onp.testing.assert_allclose(phys(got_b, left), _ref_layout(a, names, left, prim),
                                atol=1e-12)


def _ref_layout(a, names, left, prim):
    r = REDUCERS[prim](a, axis=tuple(AXIS[n] for n in names), keepdims=True)
    order = [AXIS[n] for n in left] + [1] + [AXIS[n] for n in names]
    return r.transpose(order).reshape([a.shape[AXIS[n]] for n in left] + [a.shape[1]])


@settings(max_examples=8)   # compile-bound: each shape compiles
@given(named3(onp.bool_), st.data())
def test_pany_pall(case, data):
    a, x = case
    names = tuple(data.draw(st.permutations(NAMES3))[:2])
    left = [n for n in NAMES3 if n not in names]
    for prim, ref in [("pany", onp.any), ("pall", onp.all)]:
        exp = ref(a, axis=tuple(AXIS[n] for n in names), keepdims=True)
        exp = exp.transpose([AXIS[n] for n in left] + [1] + [AXIS[n] for n in names])
        exp = exp.reshape([a.shape[AXIS[n]] for n in left] + [a.shape[1]])
        onp.testing.assert_array_equal(phys(getattr(P, prim)(x, names), left), exp)
        got = np.nmap(lambda v: getattr(P, prim)(v, names))(x)
        onp.testing.assert_array_equal(phys(got, left), exp)


@settings(max_examples=6)   # compile-bound: each shape compiles
@given(named3())
def test_collectives_commute_and_associate(case):
    a, x = case
    full = P.psum(x, NAMES3)
    for order in itertools.permutations(NAMES3):
        onp.testing.assert_allclose(P.psum(x, order), full)
        step = P.psum(P.psum(x, order[:1]), order[1:])
        onp.testing.assert_allclose(step, full)
        onp.testing.assert_allclose(P.pmax(P.pmax(x, order[:2]), order[2:]), P.pmax(x, NAMES3))


@settings(max_examples=5)   # compile-bound: each shape compiles
@given(named3())
def test_x_minus_psum_matches_keepdims_sum(case):
    """xmap-era identity: x - psum(x, names) == x - x.sum(dims, keepdims) for every subset."""
    a, x = case
    for r in range(1, 4):
        for names in itertools.combinations(NAMES3, r):
            got = np.nmap(lambda v: v - P.psum(v, names))(x)
            ref = a - a.sum(axis=tuple(AXIS[n] for n in names), keepdims=True)
            onp.testing.assert_allclose(phys(got, ["i", "j", "k"]),
                                        ref.transpose(0, 2, 3, 1), rtol=1e-12, atol=1e-12)
            got2 = x - x.sum(axis=names)
            onp.testing.assert_allclose(phys(got2, ["i", "j", "k"]),
                                        ref.transpose(0, 2, 3, 1), rtol=1e-12, atol=1e-12)


def test_all_gather_stacks_and_tiles():
    a = onp.arange(12.0).reshape(4, 3)
    x = np.asarray(a).tag("i", None)                     # per-i vectors of length 3
    g = P.all_gather(x, "i")
    onp.testing.assert_array_equal(g, a)                   # forgets the name
    assert g.names == ()
    onp.testing.assert_array_equal(P.all_gather(x, "i", axis=1), a.T)
    onp.testing.assert_array_equal(P.all_gather(x, "i", tiled=True), a.reshape(-1))
    gb = np.nmap(lambda v: P.all_gather(v, "i", tiled=True))(x)
    onp.testing.assert_array_equal(gb, a.reshape(-1))
    gb = np.nmap(lambda v: P.all_gather(v, "i", axis=1))(x)
    onp.testing.assert_array_equal(gb, a.T)


def test_ppermute_moves_src_to_dst():
    a = onp.arange(5.0) * 10
    x = np.asarray(a).tag("i")
    perm = [(0, 2), (2, 4), (4, 0), (1, 3)]               # 3 receives from 1; 1 gets zeros
    exp = onp.zeros(5)
    for s, d in perm:
        exp[d] = a[s]
    onp.testing.assert_array_equal(P.ppermute(x, "i", perm).untag("i"), exp)
    onp.testing.assert_array_equal(
        np.nmap(lambda v: P.ppermute(v, "i", perm))(x).untag("i"), exp)
    shuf = [3, 0, 4, 1, 2]
    onp.testing.assert_array_equal(P.pshuffle(x, "i", shuf).untag("i"), a[shuf])
    with pytest.raises(ValueError, match=r"ppermute: perm \[\(0, 1\), \(2, 1\)\] sends "
                                         r"from or to one index twice"):
        P.ppermute(x, "i", [(0, 1), (2, 1)])


def test_axis_index_and_all_gather_build_an_outer_sum():
    x = np.asarray(onp.arange(3.0)).tag("i")
    y = np.asarray(onp.arange(4.0) * 10).tag("j")

    def f(u, v):
        # every (i, j) instance: gather the j values and pick its own with axis_index
        g = P.all_gather(v, "j")
        return u + g[P.axis_index("j")]
    out = np.nmap(f)(x, y)
    onp.testing.assert_array_equal(out.untag("i", "j"),
                                   onp.arange(3.0)[:, None] + onp.arange(4.0)[None] * 10)
    idx = np.nmap(lambda u, v: P.axis_index(("i", "j")))(x, y)
    onp.testing.assert_array_equal(idx.untag("i", "j"), onp.arange(12).reshape(3, 4))
    sizes = np.nmap(lambda u: P.psum(1, "i") + 0 * u)(x)
    onp.testing.assert_array_equal(sizes.untag("i"), [3, 3, 3])
    assert P.axis_size("i", x) == 3


def test_pargmax_pargmin():
    a = onp.array([[3.0, 9.0, 1.0], [7.0, 2.0, 8.0]])
    x = np.asarray(a).tag("i", "j")
    onp.testing.assert_array_equal(P.pargmax(x, "i").untag("j"), a.argmax(0))
    onp.testing.assert_array_equal(P.pargmin(x, "j").untag("i"), a.argmin(1))
    assert int(P.pargmax(x, ("i", "j"))) == a.argmax()
    onp.testing.assert_array_equal(
        np.nmap(lambda v: P.pargmax(v, "i"))(x).untag("j"), a.argmax(0))


@pytest.mark.parametrize("dtype", [onp.bool_, onp.int8])
def test_collectives_keep_the_dtype_wherever_the_name_lives(dtype):
    """psum/pprod/pmax of bool are any/all/any (the dtype kept, as the physical
    reduce keeps it), never lax.psum's int32 count; pmean is the mean of the
    values (not of their sum in the input dtype), as lax.pmean."""
    a = (onp.arange(24).reshape(8, 3) % 5).astype(dtype) * (dtype(1) if dtype is onp.bool_
                                                           else dtype(30))
    x = np.asarray(a).tag("i", "j")
    mesh = make_mesh((8,), ("d",))
    want = {"psum": a.sum(0, dtype=dtype), "pprod": a.prod(0, dtype=dtype),
            "pmax": a.max(0), "pmean": a.mean(0)}
    for prim, w in want.items():
        f = lambda v: getattr(P, prim)(v, "i")   # noqa: E731
        for got in (f(x), np.nmap(f)(x), np.nmap(f, mesh=mesh, axis_resources={"i": "d"})(x)):
            assert got.dtype == w.dtype, (prim, got.dtype, w.dtype)
            onp.testing.assert_allclose(onp.asarray(got.untag("j")), w, rtol=1e-12)


def test_all_to_all_swaps_a_positional_and_a_named_axis():
    a = onp.arange(32.0).reshape(4, 4, 2)
    x = np.asarray(a).tag("i", None, None)     # per i: (4, 2); split axis 0 over i
    out = P.all_to_all(x, "i", 0, 0)
    # out[i_new][j_old, ...] = in[j_old][i_new, ...]
    exp = a.transpose(1, 0, 2)
    onp.testing.assert_array_equal(out.untag("i"), exp)
    outb = np.nmap(lambda v: P.all_to_all(v, "i", 0, 0))(x)
    onp.testing.assert_array_equal(outb.untag("i"), exp)


# -- gradients and control flow ------------------------------------------------
def test_gradients_through_collectives_in_nmap():
    rng = onp.random.default_rng(1)
    d = jnp.asarray(rng.normal(size=(4, 3)))

    def make(prim):
        def f(data):
            r = np.nmap(prim)(np.NamedArray(data, ("i", None)))
            return r.untag(*r.names).data
        return f
    prims = [lambda v: P.psum(v, "i") * v, lambda v: P.pmax(v, "i") * v,
             lambda v: P.pmin(v, "i") + v, lambda v: P.pmean(v, "i") * v,
             lambda v: P.all_gather(v, "i").sum(axis=0) * v,
             lambda v: P.ppermute(v, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]) * v,
             lambda v: v.max(axis="i") * v.sum(axis="i")]
    for prim in prims:
        check_grads(make(prim), (d,), order=1, modes=["rev", "fwd"])
    # pmax's gradient equals the positional max gradient
    g_bound = jax.grad(lambda dd: np.nmap(lambda v: P.pmax(v, "i"))(
        np.NamedArray(dd, ("i", None))).sum().data)(d)
    g_pos = jax.grad(lambda dd: jnp.max(dd, 0).sum())(d)
    onp.testing.assert_allclose(g_bound, g_pos)


def test_collectives_inside_control_flow():
    a = onp.arange(12.0).reshape(4, 3)
    x = np.asarray(a).tag("i", None)
    total = a.sum(0)

    def f(v):
        c = jax.lax.cond(P.psum(v, "i").sum().data > 0,
                         lambda u: P.psum(u, "i").data, lambda u: -P.psum(u, "i").data, v)

        def body(carry, _):
            return carry + P.psum(v, "i").data, None
        s, _ = jax.lax.scan(body, jnp.zeros(3), None, length=2)
        w = jax.lax.fori_loop(0, 3, lambda k, acc: acc + P.pmax(v, "i").data, jnp.zeros(3))
        cnt = jax.lax.while_loop(lambda t: t[0] < 2,
                                 lambda t: (t[0] + 1, t[1] + P.psum(v, "i").data),
                                 (0, jnp.zeros(3)))[1]
        return np.asarray(c), np.asarray(s), np.asarray(w), np.asarray(cnt)
    c, s, w, cnt = np.nmap(f)(x)
    onp.testing.assert_allclose(c, total)
    onp.testing.assert_allclose(s, 2 * total)
    onp.testing.assert_allclose(w, 3 * a.max(0))
    onp.testing.assert_allclose(cnt, 2 * total)


def test_errors():
    x = np.zeros((2, 3)).tag("a", None)
    with pytest.raises(ValueError, match=r"psum: axis name 'zz' is not an axis of the "
                                         r"operand \(the array has named axes \{'a': 2\}\) "
                                         r"and no enclosing nmap binds it \(bound: none\)"):
        P.psum(x, "zz")
    with pytest.raises(ValueError, match=r"axis_index: axis name 'a' is not an axis of the "
                                         r"operand \(the operand has no named axes\)"):
        P.axis_index("a")
    with pytest.raises(ValueError, match=r"pmax: axis name 'a' given twice"):
        P.pmax(x, ("a", "a"))
    with pytest.raises(ValueError, match=r"pshuffle: perm \[0, 0\] is not a permutation"):
        P.pshuffle(x, "a", [0, 0])
    with pytest.raises(ValueError, match=r"psum: axis name 'q' is not an axis of the operand "
                                         r".*bound: \['a'\]"):
        np.nmap(lambda v: P.psum(v, "q"))(x)

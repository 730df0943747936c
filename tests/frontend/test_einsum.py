"""Named einsum: brace syntax, batching of unmentioned names, lowering, nmap,
accumulation dtypes, error messages.  Reference: ``numpy.einsum`` on the
physical arrays."""
from __future__ import annotations


import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, strategies as st
from jax.test_util import check_grads

import namedarray as np
from namedarray import NamedArray
from support import make_mesh

LETTERS = "abcde"
NAMES = ["b", "k", "batch", "x"]          # "b" is also a letter: separate namespaces
UPPER = {"b": "B", "k": "K", "batch": "H", "x": "X"}


# --------------------------------------------------------------------------
# Hypothesis: random specs (positional, named, mixed; 1-4 operands)
# --------------------------------------------------------------------------
@st.composite
def einsum_cases(draw):
    nops = draw(st.integers(1, 4))
    size = {**{l: draw(st.integers(1, 3)) for l in LETTERS},
            **{n: draw(st.integers(1, 3)) for n in NAMES}}
    terms = [(draw(st.lists(st.sampled_from(LETTERS), max_size=3)),
              draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True)))
             for _ in range(nops)]
    mentioned = {n for _, ns in terms for n in ns}
    free = [n for n in NAMES if n not in mentioned]
    extra = [draw(st.lists(st.sampled_from(free), max_size=1, unique=True)) if free else []
             for _ in range(nops)]
    ops, refs = [], []
    for (lets, names), ex in zip(terms, extra):
        one = {l: draw(st.booleans()) and draw(st.booleans()) for l in set(lets)}
        logical = [("p", l) for l in lets] + [("n", n) for n in names + ex]
        order = draw(st.permutations(range(len(logical))))
        phys = [logical[i] for i in order]
        slots = [i for i, (kind, _) in enumerate(phys) if kind == "p"]
        for s, lab in zip(slots, [lab for lab in logical if lab[0] == "p"]):
            phys[s] = lab      # positional dims keep their relative order
        shape = tuple(1 if kind == "p" and one[l] else size[l] for kind, l in phys)
        data = onp.asarray(draw(st.lists(st.integers(-3, 3), min_size=int(onp.prod(shape)),
                                         max_size=int(onp.prod(shape)))),
                           dtype=onp.float64).reshape(shape)
        dims = tuple(None if kind == "p" else l for kind, l in phys)
        ops.append(NamedArray(data, dims))
        refs.append((data, "".join(l if kind == "p" else UPPER[l] for kind, l in phys)))
    counts: dict = {}
    for lets, names in terms:
        for lab in list(lets) + [("{", n) for n in names]:
            counts[lab] = counts.get(lab, 0) + 1
    batched = sorted({n for ex in extra for n in ex})
    if draw(st.booleans()):                                  # implicit output
        out_lets = sorted(l for l, c in counts.items() if isinstance(l, str) and c == 1)
        out_names = [l[1] for l, c in counts.items() if isinstance(l, tuple) and c == 1]
        spec = ",".join("".join(lets) + ("{" + ",".join(ns) + "}" if ns else "")
                        for lets, ns in terms)
    else:
        inputs = sorted({l for lets, _ in terms for l in lets})
        out_lets = draw(st.permutations(inputs))[:draw(st.integers(0, len(inputs)))]
        out_names = draw(st.permutations(sorted(mentioned)))[:draw(
            st.integers(0, len(mentioned)))]
        spec = ",".join("".join(lets) + ("{" + ",".join(ns) + "}" if ns else "")
                        for lets, ns in terms)
        spec += "->" + "".join(out_lets) + ("{" + ",".join(out_names) + "}"
                                            if out_names or draw(st.booleans()) else "")
    all_names = sorted(set(out_names) | set(batched))
    ref_spec = (",".join(r for _, r in refs) + "->"
                + "".join(UPPER[n] for n in all_names) + "".join(out_lets))
    optimize = draw(st.sampled_from([False, True, "greedy", "optimal", "auto"]))
    return spec, ops, [d for d, _ in refs], ref_spec, all_names, optimize


@given(einsum_cases())
def test_einsum_matches_numpy(case):
    spec, ops, datas, ref_spec, names, optimize = case
    res = np.einsum(spec, *ops, optimize=optimize)
    want = onp.einsum(ref_spec, *datas)
    assert sorted(res.names) == names, (spec, res.dims)
    got = onp.asarray(res.untag(*names))
    assert got.shape == want.shape, (spec, ref_spec)
    onp.testing.assert_allclose(got, want, err_msg=f"{spec} vs {ref_spec}")
    assert res.dtype == onp.float64


@given(einsum_cases())
def test_einsum_jit_matches_eager(case):
    spec, ops, _, _, names, optimize = case
    eager = np.einsum(spec, *ops, optimize=optimize)
    jitted = jax.jit(lambda *xs: np.einsum(spec, *xs, optimize=optimize))(*ops)
    assert jitted.dims == eager.dims
    onp.testing.assert_allclose(onp.asarray(jitted.untag(*names)),
                                onp.asarray(eager.untag(*names)))


# --------------------------------------------------------------------------
# the cases of the issue
# --------------------------------------------------------------------------
rng = onp.random.default_rng(0)


def _arr(*shape):
    return rng.standard_normal(shape)


def test_named_matmul():
    x, y = _arr(2, 3, 4), _arr(4, 5)
    res = np.einsum("n{b,k},{k,m}->n{b,m}", NamedArray(x, (None, "b", "k")),
                    NamedArray(y, ("k", "m")))
    assert res.shape == (2,) and res.named_shape == {"b": 3, "m": 5}
    onp.testing.assert_allclose(onp.asarray(res.untag("b", "m")),
                                onp.einsum("nbk,km->bmn", x, y))


def test_inner_outer_named():
    v, w = _arr(4), _arr(3)
    a, b = NamedArray(v, ("i",)), NamedArray(w, ("j",))
    onp.testing.assert_allclose(float(np.einsum("{i},{i}->", a, a)), v @ v)
    onp.testing.assert_allclose(float(np.einsum("{j},{j}->{}", b, b)), w @ w)
    res = np.einsum("{i},{j}->{i,j}", a, b)
    onp.testing.assert_allclose(onp.asarray(res.untag("i", "j")), onp.outer(v, w))
    # implicit output: a name once is kept, twice contracted
    assert np.einsum("{i},{j}", a, b).named_shape == {"i": 4, "j": 3}
    assert np.einsum("{i},{i}", a, a).named_shape == {}


def test_sum_of_positional_and_named():
    x = _arr(2, 3, 4, 5)
    res = np.einsum("jk{i,b}->k{b}", NamedArray(x, (None, None, "i", "b")))
    assert res.shape == (3,) and res.named_shape == {"b": 5}
    onp.testing.assert_allclose(onp.asarray(res.untag("b")), x.sum((0, 2)).T)


def test_unmentioned_names_are_batched():
    x, y = _arr(3, 4, 6), _arr(4, 5, 6)
    a, b = NamedArray(x, (None, "k", "h")), NamedArray(y, ("k", None, "h"))
    res = np.einsum("i{k},{k}j->ij", a, b)       # "h" in both: aligned batch axis
    onp.testing.assert_allclose(onp.asarray(res.untag("h")), onp.einsum("ikh,kjh->hij", x, y))
    # a plain NumPy spec on NamedArrays batches every name
    c = NamedArray(_arr(2, 3, 7), (None, None, "z"))
    res = np.einsum("ij,jk->ik", c, NamedArray(_arr(3, 4), None))
    assert res.named_shape == {"z": 7} and res.shape == (2, 4)


def test_ellipsis_and_many_operands():
    x, y, z = _arr(2, 3, 4), _arr(4, 5), _arr(5, 6)
    a = NamedArray(_arr(2, 3, 4, 7), (None, None, None, "h"))
    onp.testing.assert_allclose(onp.asarray(np.einsum("...i,ij,jk->...k", x, y, z)),
                                onp.einsum("...i,ij,jk->...k", x, y, z))
    res = np.einsum("...i,ij,jk", a, y, z)
    assert res.shape == (2, 3, 6) and res.named_shape == {"h": 7}
    onp.testing.assert_allclose(onp.asarray(np.einsum("ii", _arr(3, 3) * 0 + onp.eye(3))), 3)
    # NumPy's interleaved form, with a str for a name
    res = np.einsum(NamedArray(y, ("k", None)), ["k", 0], NamedArray(z, None), [0, 1], [1])
    onp.testing.assert_allclose(onp.asarray(res), (y @ z).sum(0))


def test_einsum_path_is_opt_einsum():
    ops = [_arr(2, 3), _arr(3, 40), _arr(40, 5)]
    path, report = np.einsum_path("ij,jk,kl->il", *ops, optimize="greedy")
    assert path == onp.einsum_path("ij,jk,kl->il", *ops, optimize="greedy")[0]
    assert "Complete contraction" in report
    named = [NamedArray(o, (None, "k") if i == 0 else None) for i, o in enumerate(ops)]
    assert np.einsum_path("i{k},jk,kl", named[0], *ops[1:])[0][0] == "einsum_path"
    # an explicit path is used as given
    a = np.einsum("ij,jk,kl->il", *ops, optimize=["einsum_path", (0, 2), (0, 1)])
    onp.testing.assert_allclose(onp.asarray(a), ops[0] @ ops[1] @ ops[2])


def test_out_and_dtype():
    x = np.ones((2, 3), dtype=np.int32)
    res = np.einsum("ij,jk->ik", x, np.ones((3, 2), dtype=np.int32), dtype=np.float64)
    assert res.dtype == onp.float64
    out = np.zeros((2, 2))
    assert np.einsum("ij,jk->ik", x, x.T, out=out) is out
    assert float(out.sum()) == 12
    with pytest.raises(TypeError, match="cannot cast operand 0 from float64 to dtype=float32"):
        np.einsum("i->", np.ones(3), dtype=np.float32)
    # NumPy's dtypes: int32 x float32 -> float64, bool stays bool
    assert np.einsum("i,i", np.ones(3, np.int32), np.ones(3, np.float32)).dtype == onp.float64
    assert np.einsum("i,i", np.ones(3, bool), np.ones(3, bool)).dtype == onp.bool_


# --------------------------------------------------------------------------
# lowering: one dot_general, no reduce
# --------------------------------------------------------------------------
def _hlo(f, *args):
    return jax.jit(f).lower(*args).as_text()


def test_named_matmul_is_one_dot_general():
    x = NamedArray(jnp.ones((2, 3, 4)), (None, "b", "k"))
    y = NamedArray(jnp.ones((4, 5)), ("k", "m"))
    text = _hlo(lambda a, b: np.einsum("n{b,k},{k,m}->n{b,m}", a, b), x, y)
    assert text.count("dot_general") == 1
    assert "reduce" not in text and "multiply" not in text
    # batched name + contraction over a name and a letter: still one op
    x = NamedArray(jnp.ones((2, 3, 4, 6)), (None, None, "k", "h"))
    y = NamedArray(jnp.ones((3, 4, 6, 5)), (None, "k", "h", None))
    text = _hlo(lambda a, b: np.einsum("ij{k},jl{k}->il", a, b), x, y)
    assert text.count("dot_general") == 1 and "reduce" not in text
    for f in (np.matmul, np.dot, np.inner, lambda a, b: np.vecdot(a, b, axis="k"),
              lambda a, b: np.tensordot(a, b, axes=(["k"], ["k"]))):
        a = NamedArray(jnp.ones((2, 4, 6)), (None, "k", "h"))
        b = NamedArray(jnp.ones((4, 6)), ("k", "h"))
        if f in (np.matmul, np.dot, np.inner):
            a, b = NamedArray(jnp.ones((2, 4, 6)), (None, None, "h")), jnp.ones((4, 3))
            if f is np.inner:
                b = jnp.ones((3, 4))
        text = _hlo(f, a, b)
        assert text.count("dot_general") == 1 and "reduce" not in text, text


# --------------------------------------------------------------------------
# nmap: a bound name is contracted locally, then psum-ed
# --------------------------------------------------------------------------
def test_repeated_eager_calls_reuse_the_plan_and_keep_requests():
    """A second eager call of the same spec on the same layouts reuses the
    plan; dtype requests, traced and mapped operands on those layouts still
    get their own."""
    x, y = _arr(3, 4), _arr(4, 5)
    a, b = NamedArray(x, (None, "k")), NamedArray(y, ("k", None))
    want = onp.einsum("ik,kj->ij", x, y)
    for _ in range(2):
        got = np.einsum("i{k},{k}j->ij", a, b)
        assert got.dims == (None, None)
        onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-12)
    assert np.einsum("i{k},{k}j->ij", a, b, dtype=np.float32,
                     casting="same_kind").dtype == onp.float32
    jitted = jax.jit(lambda u, v: np.einsum("i{k},{k}j->ij", u, v))(a, b)
    onp.testing.assert_allclose(onp.asarray(jitted), want, rtol=1e-12)
    c = NamedArray(_arr(3, 4, 2), (None, "k", "h"))
    mapped = np.nmap(lambda u, v: np.einsum("i{k},{k}j->ij", u, v))(c, b)
    onp.testing.assert_allclose(onp.asarray(mapped.untag("h")),
                                onp.einsum("ikh,kj->hij", onp.asarray(c.data), y),
                                rtol=1e-12)


def test_contraction_over_mapped_name():
    x, y = _arr(3, 4, 6), _arr(4, 5)
    a, b = NamedArray(x, (None, "k", "h")), NamedArray(y, ("k", None))
    want = np.einsum("i{k},{k}j->ij", a, b)
    got = np.nmap(lambda u, v: np.einsum("i{k},{k}j->ij", u, v))(a, b)
    assert got.names == ("h",) and got.shape == (3, 5)   # nmap drops the psum-ed "k"
    onp.testing.assert_allclose(onp.asarray(got.untag("h")), onp.asarray(want.untag("h")),
                                rtol=1e-12)
    # a name only local maps have vmapped is gathered first (the batch
    # dimension moves into the data) and contracted by the one dot: no product
    # of both operands' sizes reduced over the map afterwards
    for spec, ops in [("{k},{k}->", [NamedArray(jnp.ones(4), ("k",))] * 2),
                      ("i{k},{k}j->ij", [a, b])]:
        jaxpr = str(jax.make_jaxpr(np.nmap(lambda u, v: np.einsum(spec, u, v)))(*ops))
        assert jaxpr.count("dot_general") == 1 and "reduce_sum" not in jaxpr, jaxpr
        assert "mul" not in jaxpr, jaxpr


def test_mapped_contraction_keeps_accumulation_dtype():
    big = NamedArray(jnp.full((4, 64), 127, jnp.int8), ("k", None))
    f = np.nmap(lambda u, v: np.einsum("i{k},i{k}->", u, v, preferred_element_type=np.int32))
    got = f(big, big)
    want = 127 * 127 * 64 * 4
    assert got.dtype == onp.int32
    assert int(onp.asarray(got.untag(*got.names)).ravel()[0]) == want
    unmapped = np.einsum("i{k},i{k}->", big, big, preferred_element_type=np.int32)
    assert int(unmapped) == want


@pytest.mark.parametrize("k", [4, 8])   # exactly the mesh axis, or split (2 per device)
def test_contraction_over_mesh_name(k):
    pytest.importorskip("namedarray.mapping.mesh")
    mesh = make_mesh((4,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
    x, y = _arr(3, k), _arr(k, 5)
    f = np.nmap(lambda u, v: np.einsum("i{k},{k}j->ij", u, v), mesh=mesh,
                axis_resources={"k": "x"})
    got = f(NamedArray(x, (None, "k")), NamedArray(y, ("k", None)))
    onp.testing.assert_allclose(onp.asarray(got), x @ y, rtol=1e-12)
    g = np.nmap(lambda u, v: np.vecdot(u, v, axis="k", preferred_element_type=np.int32),
                mesh=mesh, axis_resources={"k": "x"})
    i8 = NamedArray(jnp.full((2, k), 127, jnp.int8), (None, "k"))
    assert g(i8, i8).tolist() == [127 * 127 * k] * 2


# --------------------------------------------------------------------------
# accumulation dtype, gradients
# --------------------------------------------------------------------------
def test_int8_accumulates_in_int32():
    a = np.array([[100, 100], [-128, 127]], dtype=np.int8)
    b = np.array([[100, 2], [100, 3]], dtype=np.int8)
    res = np.einsum("ij,jk->ik", a, b, preferred_element_type=np.int32)
    assert res.dtype == onp.int32
    assert res.tolist() == [[20000, 500], [-100, 125]]
    # without it: NumPy's int8 result (wraps)
    plain = np.einsum("ij,jk->ik", a, b)
    assert plain.dtype == onp.int8
    onp.testing.assert_array_equal(onp.asarray(plain), onp.asarray(a) @ onp.asarray(b))
    # a label summed inside one operand accumulates in int32 too
    c = np.full((4, 3), 127, dtype=np.int8)
    assert int(np.einsum("ij,j->", c, np.ones(3, np.int8), preferred_element_type="int32")) \
        == 127 * 12
    assert int(np.einsum("ij->", c, preferred_element_type=np.int32)) == 127 * 12


def test_bfloat16_accumulates_in_float32_with_grads():
    x = NamedArray(jnp.asarray(_arr(3, 4), jnp.bfloat16), (None, "k"))
    y = NamedArray(jnp.asarray(_arr(4, 5), jnp.bfloat16), ("k", None))

    def f(a, b):
        return np.einsum("i{k},{k}j->ij", a, b, preferred_element_type=jnp.float32)
    assert f(x, y).dtype == jnp.float32
    gx, gy = jax.grad(lambda a, b: f(a, b).sum().data, (0, 1))(x, y)
    assert gx.dtype == jnp.bfloat16 and gy.dtype == jnp.bfloat16 and gx.dims == x.dims
    out, tan = jax.jvp(f, (x, y), (x, y))
    assert tan.dtype == jnp.float32
    batched = jax.vmap(f)(NamedArray(jnp.stack([x.data] * 2), (None,) + x.dims),
                          NamedArray(jnp.stack([y.data] * 2), (None,) + y.dims))
    assert batched.shape == (2, 3, 5) and batched.dtype == jnp.float32


def test_narrowing_accumulation_raises():
    a = np.ones((2, 2), dtype=np.int8)
    with pytest.raises(TypeError, match="preferred_element_type=uint8 cannot hold the "
                                        "input dtype int8"):
        np.einsum("ij,jk", a, a, preferred_element_type=np.uint8)
    f = np.ones((2, 2), dtype=np.float32)
    with pytest.raises(TypeError, match="bfloat16 cannot hold the input dtype float32"):
        np.einsum("ij,jk", f, f, preferred_element_type=jnp.bfloat16)


def test_check_grads_named():
    x = NamedArray(jnp.asarray(_arr(3, 4, 2)), (None, "k", "h"))
    y = NamedArray(jnp.asarray(_arr(4, 5)), ("k", None))
    z = NamedArray(jnp.asarray(_arr(5, 2)), (None, "h"))

    def f(a, b, c):
        return np.einsum("i{k},{k}j,j{h}->i", a, b, c).data
    check_grads(f, (x, y, z), order=2, modes=("fwd", "rev"))
    g = np.nmap(lambda a, b: np.einsum("i{k},{k}j->ij", a, b))
    check_grads(lambda a, b: g(a, b).data, (x, y), order=1, modes=("fwd", "rev"))


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------
def _err(spec, *ops):
    with pytest.raises(ValueError) as e:
        np.einsum(spec, *ops)
    return str(e.value)


def test_malformed_spec_points_at_position():
    msg = _err("n{b,,k},{k}->n", np.ones((2,)), np.ones(2))
    assert msg == ("einsum: invalid subscripts 'n{b,,k},{k}->n': empty axis name at "
                   "position 4\n    n{b,,k},{k}->n\n        ^")
    assert "'{' without a matching '}' at position 1" in _err("i{k,j", np.ones(2))
    assert "'}' without a matching '{' at position 1" in _err("i}", np.ones(2))
    assert "axis name 'k' repeated in one term at position 4" in _err("{k, k}", np.ones(2))
    assert "invalid character '#' at position 1" in _err("i#", np.ones(2))
    assert "'.' that is not part of an ellipsis" in _err("i.", np.ones(2))
    assert "second '->' at position 4" in _err("i->i->i", np.ones(2))
    assert "output subscript 'i' repeated" in _err("i->ii", np.ones(2))


def test_semantic_errors():
    x = NamedArray(onp.ones((2, 3)), (None, "k"))
    y = NamedArray(onp.ones((4, 5)), ("k", None))
    msg = _err("i{k},{k}j", x, y)
    assert msg == ("einsum: axis name 'k' has size 3 in operand 0 (named shape {'k': 3}) "
                   "but size 4 in operand 1 (named shape {'k': 4})")
    msg = _err("ij{k},{k}j", x, y)
    assert msg.startswith("einsum: subscripts 'ij{k},{k}j' give operand 0 the positional "
                          "subscripts 'ij', but it has 1 positional axis (shape (2,)")
    assert "no enclosing nmap binds it" in _err("i{q}", x)
    assert "output subscript 'z' does not appear" in _err("i->z", np.ones(2))
    assert "2 input terms but 1 operands" in _err("i,i", np.ones(2))
    assert "subscript 'i' has size 2 in operand 0" in _err("i,i", np.ones(2), np.ones(3))


@pytest.mark.parametrize("spec, plain, out", [
    ("{b,s,e},{e,h}->{b,s,h}", "bse,eh->bsh", ("b", "s", "h")),
    ("{b,s,e},{e,h}->{h,b,s}", "bse,eh->hbs", ("h", "b", "s")),
    ("{b,s,e},{b,t,e}->{b,s,t}", "bse,bte->bst", ("b", "s", "t")),
])
def test_named_outputs_in_the_spec_s_order_cost_what_jnp_einsum_costs(spec, plain, out):
    """The layout rule (core/array.py, 4): named outputs are laid out as the
    spec writes them, so the result and a residual add in that order compile
    with the transposes of the same jax.numpy program, and the values are
    NumPy's einsum."""
    r = onp.random.default_rng(0)
    a = r.standard_normal((2, 3, 4)).astype(onp.float32)
    w = r.standard_normal((4, 5) if "h" in out else (2, 3, 4)).astype(onp.float32)
    wd = ("e", "h") if "h" in out else ("b", "t", "e")
    x, y = NamedArray(a, ("b", "s", "e")), NamedArray(w, wd)
    got = np.einsum(spec, x, y)
    assert got.dims == out
    want = onp.einsum(plain, a, w)
    onp.testing.assert_allclose(got.data, want, rtol=1e-5)
    res = NamedArray(jnp.asarray(want), out)

    def named(x, y, res):
        return (np.einsum(spec, x, y) + res).data

    def hand(a, w, r):
        return jnp.einsum(plain, a, w) + r
    hn = jax.jit(named).lower(x, y, res).compile().as_text()
    hp = jax.jit(hand).lower(a, w, want).compile().as_text()
    assert hn.count(" transpose(") <= hp.count(" transpose("), (hn, hp)


def test_opt_einsum_contracts_named_arrays_with_namedarray():
    """opt_einsum picks the backend by the array's module: namedarray's own
    einsum and tensordot give NamedArrays with NumPy's values; its JAX
    backend gives what JAX's functions give, a jax.Array (docs/differences.md)."""
    import opt_einsum
    a, b, c = (onp.arange(n * m, dtype=float).reshape(n, m) for n, m in ((2, 3), (3, 4), (4, 5)))
    want = a @ b @ c
    for backend in ("auto", "namedarray"):
        r = opt_einsum.contract("ij,jk,kl->il", np.asarray(a), np.asarray(b), np.asarray(c),
                                backend=backend)
        assert isinstance(r, np.NamedArray), backend
        onp.testing.assert_allclose(onp.asarray(r), want)
    r = opt_einsum.contract("ij,jk,kl->il", np.asarray(a), np.asarray(b), np.asarray(c),
                            backend="jax")
    assert isinstance(r, jax.Array) and not isinstance(r, np.NamedArray)
    onp.testing.assert_allclose(onp.asarray(r), want)

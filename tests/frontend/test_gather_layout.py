"""The layout rule for gathers (core/array.py): every indexing and gather route
is the one gather (or scatter) a jax.numpy user writes, in the natural order --
the compiled program has no transpose or copy the jax.numpy program lacks --
and its values are NumPy's on the untagged data, under every placement of the
index's names (a local nmap, a mesh nmap, under jax.jit)."""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from support import make_mesh

V, D, B, S, K = 16, 3, 8, 5, 2
rng = onp.random.default_rng(0)
EMB = rng.standard_normal((V, D)).astype(onp.float32)
TOK = rng.integers(0, V, (B, S)).astype(onp.int32)
LOG = rng.standard_normal((B, S, V)).astype(onp.float32)
IDX = rng.integers(0, V, (B, S, K)).astype(onp.int32)
VAL = rng.standard_normal((B, S, K)).astype(onp.float32)
CH = rng.standard_normal((3, B, S)).astype(onp.float32)
SEL = rng.integers(0, 3, (B, S)).astype(onp.int32)
IDS = onp.array([5, 0, 7, 7], onp.int32)


def emb():
    return np.asarray(EMB).tag("vocab", "embed")


def tok():
    return np.asarray(TOK).tag("batch", "seq")


def logits():
    return np.asarray(LOG).tag("batch", "seq", "vocab")


def put(lg, i, v):
    out = lg.copy()
    np.put_along_axis(out, i, v, axis="vocab")
    return out


def numpy_put(lg, i, v):
    out = lg.copy()
    onp.put_along_axis(out, i, v, axis=-1)
    return out


def at_add(lg, i):
    out = lg.copy()
    onp.add.at(out, (onp.arange(B)[:, None], onp.arange(S), i), 1.0)
    return out


# route: (named call, the names of its result in natural order, its operands,
#         the jax.numpy program, the NumPy oracle on the same data)
ROUTES = {
    "untag(n)[i]": (lambda e, t: e.untag("vocab")[t], ("batch", "seq", "embed"),
                    (emb, tok), lambda e, t: e[t], lambda: EMB[TOK]),
    "x[{n: i}]": (lambda e, t: e[{"vocab": t}], ("batch", "seq", "embed"), (emb, tok),
                  lambda e, t: e[t], lambda: EMB[TOK]),
    "take(axis=0)": (lambda e, t: np.take(e.untag("vocab"), t, axis=0),
                     ("batch", "seq", "embed"), (emb, tok),
                     lambda e, t: jnp.take(e, t, axis=0), lambda: EMB[TOK]),
    "take(axis=name)": (lambda e: np.take(e, IDS, axis="vocab"), ("vocab", "embed"),
                        (emb,), lambda e: jnp.take(e, IDS, axis=0), lambda: EMB[IDS]),
    "take_along_axis(axis=name)": (
        lambda lg, i: np.take_along_axis(lg, i, axis="vocab"), ("batch", "seq", "vocab"),
        (logits, lambda: np.asarray(IDX).tag("batch", "seq", "vocab")),
        lambda lg, i: jnp.take_along_axis(lg, i, axis=-1),
        lambda: onp.take_along_axis(LOG, IDX, axis=-1)),
    "put_along_axis(axis=name)": (
        put, ("batch", "seq", "vocab"),
        (logits, lambda: np.asarray(IDX).tag("batch", "seq", "vocab"),
         lambda: np.asarray(VAL).tag("batch", "seq", "vocab")),
        lambda lg, i, v: jnp.put_along_axis(lg, i, v, axis=-1, inplace=False),
        lambda: numpy_put(LOG, IDX, VAL)),
    "choose": (lambda s, c: np.choose(s, c, mode="wrap"), ("batch", "seq"),
               (lambda: np.asarray(SEL).tag("batch", "seq"),
                lambda: np.asarray(CH).tag(None, "batch", "seq")),
               lambda s, c: jnp.choose(s, c, mode="wrap"),
               lambda: onp.choose(SEL, CH, mode="wrap")),
    "at[{n: i}].add": (lambda lg, t: lg.at[{"vocab": t}].add(1.0), ("batch", "seq", "vocab"),
                       (logits, tok),
                       lambda lg, t: lg.at[jnp.arange(B)[:, None], jnp.arange(S), t].add(1.0),
                       lambda: at_add(LOG, TOK)),
}


def counts(f, *args):
    text = jax.jit(f).lower(*args).compile().as_text()
    return {op: len(re.findall(rf"^\s*(?:ROOT\s+)?\S+\s*=\s*\S+\s+{op}\(", text, re.M))
            for op in ("transpose", "copy", "gather", "scatter")}


@pytest.mark.parametrize("route", list(ROUTES))
def test_one_gather_in_the_natural_order(route):
    fn, names, makers, plain, oracle = ROUTES[route]
    args = [m() for m in makers]
    res = fn(*args)
    assert set(res.names) == set(names)
    onp.testing.assert_allclose(onp.asarray(res.untag(*names)), oracle(), rtol=1e-6)
    # the result untagged in the natural order: a reversed layout would cost a transpose
    named = counts(lambda *a: fn(*a).untag(*names).data, *args)
    want = counts(plain, *[a.data for a in args])
    assert named["gather"] == want["gather"] and named["scatter"] == want["scatter"], (
        named, want)
    assert named["transpose"] <= want["transpose"], (named, want)
    assert named["copy"] <= want["copy"], (named, want)


def _mesh():
    return make_mesh((4,), ("d",))


PLACEMENTS = {
    "nmap": lambda f: np.nmap(f, axes=["batch"]),
    "mesh-split": lambda f: np.nmap(f, mesh=_mesh(), axis_resources={"batch": "d"}),
}


@pytest.mark.parametrize("placement", list(PLACEMENTS))
@pytest.mark.parametrize("route", ["untag(n)[i]", "take(axis=0)", "at[{n: i}].add",
                                   "take_along_axis(axis=name)"])
def test_routes_under_maps_equal_the_physical_run(route, placement):
    fn, names, makers, _, _ = ROUTES[route]
    args = [m() for m in makers]
    want = onp.asarray(fn(*args).untag(*names))
    if route != "take_along_axis(axis=name)":   # its "vocab" has two sizes: nmap refuses
        got = jax.jit(PLACEMENTS[placement](fn))(*args)
        onp.testing.assert_allclose(onp.asarray(got.untag(*names)), want, rtol=1e-6)
    # one operand mapped, the others closed over (whole inside the map)
    k = next(j for j, a in enumerate(args) if "batch" in a.named_shape)
    one = lambda a: fn(*args[:k], a, *args[k + 1:])  # noqa: E731
    got = jax.jit(PLACEMENTS[placement](one))(args[k])
    onp.testing.assert_allclose(onp.asarray(got.untag(*names)), want, rtol=1e-6)


def test_lookup_gradient_is_one_scatter_into_the_table():
    """The embedding's gradient is the scatter-add jax.numpy's is: no transpose."""
    t = tok()
    named = counts(jax.grad(lambda d: (np.NamedArray(d, ("vocab", "embed")).untag("vocab")[t]
                                       ** 2).sum(axis=("batch", "seq", "embed")).data), EMB)
    plain = counts(jax.grad(lambda e: (e[TOK] ** 2).sum()), EMB)
    assert named["scatter"] == plain["scatter"] == 1
    assert named["transpose"] <= plain["transpose"], (named, plain)
    g = jax.grad(lambda d: (np.NamedArray(d, ("vocab", "embed")).untag("vocab")[t] ** 2).sum(
        axis=("batch", "seq", "embed")).data)(jnp.asarray(EMB))
    onp.testing.assert_allclose(onp.asarray(g), onp.asarray(
        jax.grad(lambda e: (e[TOK] ** 2).sum())(jnp.asarray(EMB))), rtol=1e-6)


def test_put_along_a_name_the_indices_lack_is_refused():
    with pytest.raises(ValueError, match=r"put_along_axis: axis='vocab' names an axis; the "
                                         r"array \(named shape \{'batch': 8, 'seq': 5, "
                                         r"'vocab': 16\}\) and the indices"):
        np.put_along_axis(logits(), tok(), 0.0, axis="vocab")


def test_python_int_power_is_integer_pow():
    x = np.asarray(onp.ones(3, onp.float32)).tag("a")
    jaxpr = str(jax.make_jaxpr(lambda v: (v ** 2).data)(x))
    assert "integer_pow[y=2]" in jaxpr and " pow " not in jaxpr
    onp.testing.assert_array_equal(onp.asarray((np.asarray([1.5, -2.0]) ** 3)),
                                   onp.array([1.5, -2.0]) ** 3)

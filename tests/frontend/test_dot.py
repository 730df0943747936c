"""The NumPy dot family over the einsum engine: ``dot``, ``matmul``/``@``,
``tensordot``, ``vecdot``, ``inner``, ``outer``, ``matvec``, ``vecmat`` and
``linalg.matmul/vecdot/tensordot``: NumPy's results and dtypes on positional
axes, named axes batched or contracted by name, ``preferred_element_type``."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, strategies as st
from jax.test_util import check_grads

import namedarray as np
from namedarray import NamedArray
from support import arrays

rng = onp.random.default_rng(1)


def _arr(*shape):
    return rng.standard_normal(shape)


# --------------------------------------------------------------------------
# Hypothesis: NumPy's answers on positional axes, named batch axes aligned
# --------------------------------------------------------------------------
DTYPES = [onp.int8, onp.int32, onp.int64, onp.float32, onp.float64, onp.complex128,
          onp.bool_]


@st.composite
def pairs(draw, fn):
    """Operands for ``fn`` with compatible positional shapes (NumPy's rules)."""
    k = draw(st.integers(1, 3))
    lead_a = draw(st.lists(st.integers(1, 3), max_size=2))
    lead_b = draw(st.lists(st.integers(1, 3), max_size=2))
    if fn == "matmul":
        batch = draw(st.lists(st.integers(1, 3), max_size=2))
        bb = [draw(st.sampled_from([s, 1])) for s in batch]
        sa = (tuple(draw(st.sampled_from([batch, bb]))) + (draw(st.integers(1, 3)), k)
              if draw(st.booleans()) else (k,))
        sb = tuple(bb) + (k, draw(st.integers(1, 3))) if draw(st.booleans()) else (k,)
    elif fn == "dot":
        sa = tuple(lead_a) + (k,)
        sb = (k,) if not lead_b else tuple(lead_b[:-1]) + (k, lead_b[-1])
        if draw(st.integers(0, 5)) == 0:   # a 0-d operand: multiply
            sa = ()
    elif fn == "inner":
        sa, sb = tuple(lead_a) + (k,), tuple(lead_b) + (k,)
    elif fn == "vecdot":
        batch = draw(st.lists(st.integers(1, 3), max_size=2))
        sa, sb = tuple(batch) + (k,), tuple(draw(st.sampled_from([s, 1])) for s in batch) + (k,)
    elif fn == "outer":
        sa, sb = tuple(lead_a) or (k,), tuple(lead_b) or (k,)
    else:  # tensordot: contract the last n of a with the first n of b
        n = draw(st.integers(0, 2))
        core = tuple(draw(st.integers(1, 3)) for _ in range(n))
        sa, sb = tuple(lead_a) + core, core + tuple(lead_b)
    da, db = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES))
    a, b = draw(arrays(da, sa)), draw(arrays(db, sb))
    names = draw(st.sampled_from([(), ("h",), ("h", "g")]))
    sizes = {"h": 2, "g": 3}
    # each name lands on a, on b, or on both (then aligned by name)
    where = {n: draw(st.sampled_from(["a", "b", "ab"])) for n in names}
    kw = {"axes": n} if fn == "tensordot" else {}
    return a, b, kw, names, where, sizes


def _named(data, names, sizes):
    if not names:
        return NamedArray(data), data
    tiled = onp.broadcast_to(data[(...,) + (None,) * len(names)],
                             data.shape + tuple(sizes[n] for n in names)).copy()
    for i, n in enumerate(names):      # make each slice differ
        shape = [1] * tiled.ndim
        shape[data.ndim + i] = sizes[n]
        if tiled.dtype != bool:
            tiled = tiled + onp.arange(sizes[n]).reshape(shape).astype(tiled.dtype)
    return NamedArray(tiled, (None,) * data.ndim + tuple(names)), tiled


_FNS = {
    "matmul": (np.matmul, onp.matmul), "dot": (np.dot, onp.dot),
    "inner": (np.inner, onp.inner), "vecdot": (np.vecdot, onp.vecdot),
    "outer": (np.outer, onp.outer), "tensordot": (np.tensordot, onp.tensordot),
}


@pytest.mark.parametrize("fn", sorted(_FNS))
@given(data=st.data())
def test_matches_numpy(fn, data):
    a, b, kw, names, where, sizes = data.draw(pairs(fn))
    ours, ref = _FNS[fn]
    na = [n for n in names if "a" in where[n]]
    nb = [n for n in names if "b" in where[n]]
    A, ta = _named(a, na, sizes)
    B, tb = _named(b, nb, sizes)
    res = ours(A, B, **kw)
    want_dtype = ref(a, b, **kw).dtype
    assert res.dtype == want_dtype, (fn, a.dtype, b.dtype)
    assert sorted(res.names) == sorted(names)
    got = onp.asarray(res.untag(*names)) if names else onp.asarray(res)
    # reference: loop over the named slices
    idx = onp.ndindex(*[sizes[n] for n in names])
    for ix in idx:
        sa = ta[(...,) + tuple(ix[names.index(n)] for n in na)] if na else ta
        sb = tb[(...,) + tuple(ix[names.index(n)] for n in nb)] if nb else tb
        want = ref(sa, sb, **kw)
        onp.testing.assert_allclose(got[ix], want, rtol=1e-4, atol=1e-3,
                                    err_msg=f"{fn} {a.shape} {b.shape} {names} {where}")


# --------------------------------------------------------------------------
# preferred_element_type: int8 -> int32 exact, bfloat16 -> float32
# --------------------------------------------------------------------------
A8 = [[100, 100], [-128, 127]]
B8 = [[100, 2], [100, 3]]
WANT = [[20000, 500], [-100, 125]]

_I32 = {"preferred_element_type": np.int32}
CASES = {
    "matmul": lambda a, b, **k: np.matmul(a, b, **k),
    "linalg.matmul": lambda a, b, **k: np.linalg.matmul(a, b, **k),
    "dot": lambda a, b, **k: np.dot(a, b, **k),
    "einsum": lambda a, b, **k: np.einsum("ij,jk->ik", a, b, **k),
    "tensordot": lambda a, b, **k: np.tensordot(a, b, axes=1, **k),
    "linalg.tensordot": lambda a, b, **k: np.linalg.tensordot(a, b, axes=1, **k),
    "inner": lambda a, b, **k: np.inner(a, b.T, **k),
    "vecdot": lambda a, b, **k: np.vecdot(a[:, None, :], b.T[None], **k),
    "linalg.vecdot": lambda a, b, **k: np.linalg.vecdot(a[:, None, :], b.T[None], **k),
    "matvec": lambda a, b, **k: np.matvec(b.T[None], a, **k),
    "vecmat": lambda a, b, **k: np.vecmat(a, b[None], **k),
    "named vecdot": lambda a, b, **k: np.vecdot(
        NamedArray(a.data[:, None, :], (None, None, "k")),
        NamedArray(b.data.T[None], (None, None, "k")), axis="k", **k),
    "named tensordot": lambda a, b, **k: np.tensordot(a.tag(None, "k"), b.tag("k", None),
                                                      axes=(["k"], ["k"]), **k),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_int8_accumulates_exactly(name):
    a, b = np.array(A8, dtype=np.int8), np.array(B8, dtype=np.int8)
    res = CASES[name](a, b, **_I32)
    assert res.dtype == onp.int32
    assert res.tolist() == WANT
    plain = CASES[name](a, b)            # NumPy's dtype: int8, wrapping like NumPy
    assert plain.dtype == onp.int8
    onp.testing.assert_array_equal(
        onp.asarray(plain), (onp.array(A8, onp.int8) @ onp.array(B8, onp.int8)))
    with pytest.raises(TypeError, match="preferred_element_type=uint8 cannot hold the "
                                        "input dtype int8"):
        CASES[name](a, b, preferred_element_type=np.uint8)
    with pytest.raises(TypeError, match="preferred_element_type=int8 cannot hold the "
                                        "input dtype int16"):
        CASES[name](a.astype(np.int16), b, preferred_element_type=np.int8)


def test_outer_and_operator():
    a, b = np.array([100, -128], dtype=np.int8), np.array([100, 3], dtype=np.int8)
    assert np.outer(a, b, preferred_element_type=np.int32).tolist() == [[10000, 300],
                                                                       [-12800, -384]]
    x, y = np.array(A8, dtype=np.int8), np.array(B8, dtype=np.int8)
    assert (x @ y).dtype == onp.int8
    assert x.dot(y, preferred_element_type=np.int32).tolist() == WANT
    assert (np.ones((2, 2), np.int32) @ np.ones((2, 2), np.float32)).dtype == onp.float64


def test_bfloat16_to_float32_grads_jvp_vmap():
    x = NamedArray(jnp.asarray(_arr(3, 4, 2), jnp.bfloat16), (None, None, "h"))
    y = jnp.asarray(_arr(4, 5), jnp.bfloat16)

    def f(a, b):
        return np.matmul(a, b, preferred_element_type=jnp.float32)
    assert f(x, y).dtype == jnp.float32 and f(x, y).named_shape == {"h": 2}
    gx, gy = jax.grad(lambda a, b: f(a, b).sum().sum(axis="h").data, (0, 1))(x, y)
    assert gx.dtype == jnp.bfloat16 and gy.dtype == jnp.bfloat16
    ref = jax.grad(lambda a, b: jnp.einsum("ikh,kj->", a.astype(jnp.float32),
                                           b.astype(jnp.float32)), (0, 1))(x.data, y)
    onp.testing.assert_allclose(onp.asarray(gx.data, onp.float32), ref[0], rtol=1e-2)
    onp.testing.assert_allclose(onp.asarray(gy, onp.float32), ref[1], rtol=1e-2)
    _, tan = jax.jvp(f, (x, y), (x, y))
    assert tan.dtype == jnp.float32
    v = jax.vmap(lambda a, b: np.vecdot(a, b, preferred_element_type=jnp.float32))(
        jnp.ones((6, 4), jnp.bfloat16), jnp.ones((6, 4), jnp.bfloat16))
    assert v.shape == (6,) and v.dtype == jnp.float32
    with pytest.raises(TypeError, match="bfloat16 cannot hold the input dtype float32"):
        np.dot(np.ones(3, np.float32), np.ones(3, np.float32),
               preferred_element_type=jnp.bfloat16)


def test_int8_lowering_is_one_widening_dot():
    a = jnp.ones((4, 8), jnp.int8)
    text = jax.jit(lambda u, v: np.matmul(u, v, preferred_element_type=np.int32)).lower(
        a, a.T).as_text()
    assert text.count("dot_general") == 1 and "convert" not in text
    assert "-> tensor<4x4xi32>" in text


def test_narrow_ints_accumulate_in_int32():
    # NumPy's int8 result is the low byte of the exact sum: accumulate in int32
    # (XLA's int8 dot is ~50x slower on CPU) and convert back
    a = jnp.ones((4, 8), jnp.int8)
    text = jax.jit(lambda u, v: np.matmul(u, v)).lower(a, a.T).as_text()
    assert text.count("dot_general") == 1 and "-> tensor<4x4xi32>" in text
    assert "tensor<4x4xi8>" in text.split("return")[-1]
    big = np.full((3, 300), 127, dtype=np.int8)
    want = onp.full((3, 300), 127, onp.int8) @ onp.full((300, 3), 127, onp.int8)
    onp.testing.assert_array_equal(onp.asarray(big @ big.T), want)


def test_check_grads_dot_family():
    x = NamedArray(jnp.asarray(_arr(3, 4, 2)), (None, "k", "h"))
    y = NamedArray(jnp.asarray(_arr(4, 5)), ("k", None))
    check_grads(lambda a, b: np.vecdot(a, b.untag("k").T.tag(None, "k"), axis="k").data,
                (x, NamedArray(jnp.asarray(_arr(4, 3)), ("k", None))), order=2)
    check_grads(lambda a, b: np.tensordot(a, b, axes=(["k"], ["k"])).data, (x, y), order=2)
    check_grads(lambda a, b: (NamedArray(a) @ b).data,
                (jnp.asarray(_arr(3, 4)), jnp.asarray(_arr(4, 2))), order=2)


# --------------------------------------------------------------------------
# named contraction in the NumPy signatures
# --------------------------------------------------------------------------
def test_vecdot_named_axis():
    x, y = _arr(2, 4, 3), _arr(4, 3)
    a, b = NamedArray(x, (None, "k", "h")), NamedArray(y, ("k", "h"))
    res = np.vecdot(a, b, axis="k")
    assert res.shape == (2,) and res.named_shape == {"h": 3}
    onp.testing.assert_allclose(onp.asarray(res.untag("h")), onp.einsum("ikh,kh->hi", x, y))
    z = x + 1j * _arr(2, 4, 3)
    res = np.vecdot(NamedArray(z, (None, "k", "h")), b, axis="k")   # conj of x1
    onp.testing.assert_allclose(onp.asarray(res.untag("h")),
                                onp.einsum("ikh,kh->hi", z.conj(), y))
    assert np.linalg.vecdot(a, b, axis="k").named_shape == {"h": 3}


def test_tensordot_names_and_ints():
    x, y = _arr(2, 3, 4), _arr(4, 3, 5)
    a = NamedArray(x, (None, "k", None))          # positional (2, 4)
    b = NamedArray(y, (None, "k", None))          # positional (4, 5)
    res = np.tensordot(a, b, axes=(["k", 1], ["k", 0]))
    onp.testing.assert_allclose(onp.asarray(res), onp.tensordot(x, y, axes=([1, 2], [1, 0])))
    # a name paired with a positional axis, and two different names
    res = np.tensordot(a, onp.ones((3, 6)), axes=(["k"], [0]))
    onp.testing.assert_allclose(onp.asarray(res), onp.tensordot(x, onp.ones((3, 6)), ([1], [0])))
    res = np.tensordot(onp.ones((3, 6)), a, axes=([0], ["k"]))
    onp.testing.assert_allclose(onp.asarray(res), onp.tensordot(onp.ones((3, 6)), x, ([0], [1])))
    res = np.tensordot(a, b.rename(k="j"), axes=(["k"], ["j"]))
    onp.testing.assert_allclose(onp.asarray(res), onp.tensordot(x, y, axes=([1], [1])))
    assert np.linalg.tensordot(a, b, axes=(["k"], ["k"])).shape == (2, 4, 4, 5)
    with pytest.raises(ValueError, match="an axis is repeated"):
        np.tensordot(a, b, axes=([0, 0], [0, 1]))


def test_dot_inner_batch_names_aligned():
    x, y = _arr(2, 3, 5), _arr(5, 3, 4)
    a, b = NamedArray(x, (None, None, "h")), NamedArray(y, ("h", None, None))
    res = np.dot(a, b)
    onp.testing.assert_allclose(onp.asarray(res.untag("h")), onp.einsum("ijh,hjk->hik", x, y))
    res = np.inner(a, NamedArray(_arr(5, 4, 3), ("h", None, None)))
    assert res.shape == (2, 4) and res.named_shape == {"h": 5}


def test_out_argument():
    out = np.zeros((2, 2))
    assert np.dot(np.ones((2, 3)), np.ones((3, 2)), out=out) is out
    assert out.tolist() == [[3, 3], [3, 3]]
    assert np.matmul(np.ones((2, 3)), np.ones((3, 2)), out=out) is out
    assert np.outer(np.ones(2), np.arange(2.0), out=out) is out
    assert out.tolist() == [[0, 1], [0, 1]]


def test_errors():
    with pytest.raises(ValueError, match="matmul: operand 0 has no positional axes"):
        np.matmul(np.float64(2.0), np.ones(3))
    with pytest.raises(ValueError, match=r"matmul: subscript 'j' has size 3 in operand 0 "
                                         r"\(shape \(2, 3\)\) but size 4 in operand 1"):
        np.ones((2, 3)) @ np.ones((4, 2))
    a = NamedArray(onp.ones((2, 3)), (None, "k"))
    with pytest.raises(ValueError, match="vecdot: axis name 'k' has size 3 in operand 0"):
        np.vecdot(a, NamedArray(onp.ones((2, 4)), (None, "k")), axis="k")
    with pytest.raises(ValueError, match="no enclosing nmap binds it"):
        np.vecdot(a, onp.ones(2), axis="k")
    with pytest.raises(ValueError, match="tensordot: axes=3 but the operands have 1 and 1"):
        np.tensordot(np.ones(2), np.ones(2), axes=3)

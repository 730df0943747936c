"""The NamedArray type: construction, names, alignment, pytree, mutation, repr."""
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as np
from support import NAMES, arrays, named_arrays, shapes, subprocess_env


def physical(x: np.NamedArray, order):
    """x's data with dims in the given order (names and None placeholders)."""
    return onp.asarray(x.untag(*order).data)


# -- construction and names --------------------------------------------------
@given(named_arrays())
def test_construction_keeps_values_by_name(case):
    data, dims = case
    x = np.NamedArray(data, dims=dims)
    names = [d for d in dims if d is not None]
    assert x.named_shape == {d: s for d, s in zip(dims, data.shape) if d is not None}
    assert x.shape == tuple(s for d, s in zip(dims, data.shape) if d is None)
    assert x.ndim == len(x.shape) and x.size == int(onp.prod(x.shape))
    # untag in physical order gives the original data back
    pos = [i for i, d in enumerate(dims) if d is None]
    perm = [dims.index(n) for n in names] + pos
    onp.testing.assert_array_equal(physical(x, names), data.transpose(perm))


@given(shapes(1, 3, 1, 4), st.data())
def test_tag_untag_roundtrip(shape, data):
    a = data.draw(arrays(onp.float32, shape))
    names = data.draw(st.permutations(NAMES))[: len(shape)]
    keep = data.draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)))
    tags = [n if k else None for n, k in zip(names, keep)]
    x = np.asarray(a).tag(*tags)
    used = [n for n in tags if n is not None]
    back = x.untag(*used)
    # untag puts named axes in front, in the order given
    pos = [i for i, t in enumerate(tags) if t is None]
    perm = [tags.index(n) for n in used] + pos
    onp.testing.assert_array_equal(onp.asarray(back), a.transpose(perm))


def test_rename():
    x = np.zeros((2, 3)).tag("a", "b")
    assert x.rename(a="z").named_shape == {"z": 2, "b": 3}
    assert x.rename({"a": "b", "b": "a"}).named_shape == {"b": 2, "a": 3}


@pytest.mark.parametrize("fn, msg, exc", [
    (lambda: np.NamedArray(onp.zeros((2, 3)), dims=("a", "a")),
     r"NamedArray: duplicate axis name 'a' in dims \('a', 'a'\)", ValueError),
    (lambda: np.NamedArray(onp.zeros((2, 3)), dims=(0, None)),
     r"NamedArray: dims got the int 0 as an axis name", TypeError),
    (lambda: np.NamedArray(onp.zeros((2, 3)), dims=("a",)),
     r"NamedArray: dims has 1 entries \('a',\) but the data has 2 dimensions", ValueError),
    (lambda: np.zeros((2, 3)).tag("a"),
     r"tag: got 1 names \('a',\) for 2 positional axes \(shape \(2, 3\)\)", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", "").untag("a"),
     r"tag: dims got '' as an axis name", TypeError),
    (lambda: np.zeros((2, 3)).tag("a", None).untag("q"),
     r"untag: name 'q' is not an axis of the array, which has named axes \{'a': 2\}", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", None).untag("a", "a"),
     r"untag: axis name 'a' given twice", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", None).rename(q="r"),
     r"rename: name 'q' is not an axis of the array, which has named axes \{'a': 2\}", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", "b").rename(a="b"),
     r"rename: duplicate axis name 'b'", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", None) + np.zeros((3, 3)).tag("a", None),
     r"add: axis name 'a' has size 2 in argument 0 \(named shape \{'a': 2\}\) but size 3 "
     r"in argument 1 \(named shape \{'a': 3\}\)", ValueError),
    (lambda: np.zeros((2, 3)).tag("a", None).sum(axis="z"),
     r"sum: axis name 'z' is not an axis of the operand \(the array has named axes "
     r"\{'a': 2\}\) and no enclosing nmap binds it", ValueError),
    (lambda: np.zeros((2, 3)).sum(axis=5),
     r"sum: axis 5 is out of bounds for an array with 2 positional dimensions",
     onp.exceptions.AxisError),
    (lambda: float(np.zeros(2).tag("a")),
     r"float: the array has named axes \{'a': 2\}; untag them first", TypeError),
])
def test_errors_name_the_function_argument_and_names(fn, msg, exc):
    with pytest.raises(exc, match=msg):
        fn()


# -- alignment by name -------------------------------------------------------
@given(st.data())
def test_binary_ops_align_by_name(data):
    a = data.draw(arrays(onp.float64, (2, 3, 4)))
    b = data.draw(arrays(onp.float64, (4, 2)))
    x = np.asarray(a).tag("i", None, "k")   # {i:2, k:4} + (3,)
    y = np.asarray(b).tag("k", "i")         # same names, another physical order
    z = x * y + 1.0
    assert z.named_shape == {"i": 2, "k": 4} and z.shape == (3,)
    ref = a * b.T[:, None, :] + 1.0          # dims (i, 3, k)
    onp.testing.assert_allclose(physical(z, ["i", "k"]), ref.transpose(0, 2, 1))


def test_names_broadcast_and_positional_broadcast():
    x = np.arange(3.0).tag("i")
    y = np.arange(4.0).tag("j")
    p = np.arange(5.0)
    r = x * 10 + y + p[:, None] * 0 + np.ones((2, 1, 5))
    assert r.named_shape == {"i": 3, "j": 4} and r.shape == (2, 5, 5)
    ref = (onp.arange(3.0)[:, None] * 10 + onp.arange(4.0)[None, :])
    onp.testing.assert_allclose(physical(r, ["i", "j"])[:, :, 0, 0, 0], ref + 1)


# -- dtypes ------------------------------------------------------------------
def test_numpy_dtypes_by_default():
    assert np.arange(3).dtype == onp.int64
    assert (np.arange(3) / 2).dtype == onp.float64
    assert np.sum(np.ones(3, dtype=np.int8)).dtype == onp.int64
    assert (np.ones(3, dtype=np.int8) + 1).dtype == onp.int8
    assert (np.ones(3, dtype=np.int32) + np.ones(3, dtype=np.float32)).dtype == onp.float64
    assert np.sqrt(np.ones(3, dtype=np.int8)).dtype == onp.float16
    assert (np.ones(3, dtype=np.float32) * 2.5).dtype == onp.float32
    assert np.dtype_defaults() == "numpy"


def test_jax_dtype_switch_in_subprocess():
    code = ("import namedarray as np; np.set_dtype_defaults('jax');"
            "print(np.arange(3).dtype, (np.arange(3) / 2).dtype, np.dtype_defaults())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=subprocess_env()).stdout.split()
    assert out == ["int32", "float32", "jax"]
    with pytest.raises(ValueError, match=r"set_dtype_defaults: mode must be one of"):
        np.set_dtype_defaults("float128")


# -- pytree: jit, grad, vmap -------------------------------------------------
def test_jit_grad_vmap():
    x = np.asarray(onp.arange(12.0).reshape(3, 4)).tag(None, "f")
    f = jax.jit(lambda v: (v * v).sum(axis="f"))
    onp.testing.assert_allclose(f(x), (onp.arange(12.0).reshape(3, 4) ** 2).sum(1))
    g = jax.grad(lambda v: (v * v).sum(axis="f").sum().data)(x)
    assert g.dims == x.dims
    onp.testing.assert_allclose(physical(g, ["f"]), 2 * physical(x, ["f"]))
    # vmap maps the leading positional axis; names ride along
    r = jax.vmap(lambda v: v.sum(axis="f"))(x)
    onp.testing.assert_allclose(r, onp.arange(12.0).reshape(3, 4).sum(1))
    r = jax.vmap(lambda v: v * 2)(np.ones((3, 2)))
    assert r.shape == (3, 2) and not r.names
    leaves, tree = jax.tree_util.tree_flatten(x)
    assert len(leaves) == 1 and jax.tree_util.tree_unflatten(tree, leaves).dims == x.dims


def test_raw_transforms_map_the_leading_positional_axis_never_a_name():
    """jax.vmap, jax.lax.map and jax.lax.scan take the leading positional axis
    whatever the physical order of the names; with no positional axis they
    raise (they would slice whichever name is stored first)."""
    a = onp.arange(24.0).reshape(2, 3, 4)
    x = np.NamedArray(a, (None, "b", "c"))
    y = np.NamedArray(a.transpose(0, 2, 1).copy(), (None, "c", "b"))   # equal to x
    for v in (x, y):
        r = jax.vmap(lambda t: t.sum(axis="c"))(v)
        assert (r.shape, r.named_shape) == ((2,), {"b": 3})
        onp.testing.assert_allclose(r.untag("b"), a.sum(2).T)
        r = jax.lax.map(lambda t: t * t.sum(axis="b"), v)
        assert (r.shape, r.named_shape) == ((2,), {"b": 3, "c": 4})
        onp.testing.assert_allclose(r.untag("b", "c"), (a * a.sum(1, keepdims=True))
                                    .transpose(1, 2, 0))
        c, ys = jax.lax.scan(lambda c, t: (c + t, t.max(axis="b")), v[0] * 0, v)
        assert (c.named_shape, ys.shape, ys.named_shape) == ({"b": 3, "c": 4}, (2,),
                                                             {"c": 4})
        onp.testing.assert_allclose(c.untag("b", "c"), a.sum(0))
        onp.testing.assert_allclose(ys.untag("c"), a.max(1).T)
    msg = (r"^a raw JAX transform \(jax.vmap, jax.lax.map, jax.lax.scan\) or a function of "
           r"the leaves took the leading axis of a NamedArray with named axes \('b', 'c'\) "
           r"and no positional axis: it would slice the name 'b' only because it is stored "
           r"first. Map over a name with np.nmap\(f, axes='b'\), or make it positional "
           r"first with x.untag\('b'\)")
    full = np.NamedArray(a[0], ("b", "c"))
    with pytest.raises(ValueError, match=msg):
        jax.vmap(lambda t: t * 2)(full)
    with pytest.raises(ValueError, match=msg):
        jax.lax.map(lambda t: t * 2, full)
    with pytest.raises(ValueError, match=msg):
        jax.lax.scan(lambda c, t: (c, t), 0.0, full)
    # untag makes the name positional, and then it is the axis mapped
    r = jax.vmap(lambda t: t.sum(axis="c"))(full.untag("b"))
    onp.testing.assert_allclose(r, a[0].sum(1))


def test_pytree_keeps_jit_grad_tree_util_and_optax_working():
    """Per-leaf functions that keep the shape (optax's updates) or reduce a
    one-name leaf to a scalar (optax's norms) still rebuild NamedArrays."""
    optax = pytest.importorskip("optax")
    w = np.NamedArray(onp.arange(12.0).reshape(3, 4) / 10, ("b", "c"))
    params = {"w": w, "bias": np.NamedArray(onp.ones(4), ("c",))}
    loss = lambda p: ((p["w"] * p["bias"]) ** 2).sum(axis=("b", "c")).data  # noqa: E731
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-2))
    state = opt.init(params)
    grads = jax.jit(jax.grad(loss))(params)
    updates, state = jax.jit(opt.update)(grads, state, params)
    new = optax.apply_updates(params, updates)
    assert new["w"].dims == ("b", "c") and new["bias"].dims == ("c",)
    g = 2 * (onp.asarray(w.data) * 1.0)            # d loss / d w at bias = 1
    norm = onp.sqrt((g ** 2).sum() + ((2 * onp.asarray(w.data) ** 2).sum(0) ** 2).sum())
    onp.testing.assert_allclose(float(optax.tree.norm(grads)), norm, rtol=1e-12)
    sums = jax.jit(lambda p: jax.tree_util.tree_map(jnp.sum, p))(params)
    onp.testing.assert_allclose(sums["bias"].data, 4.0)
    assert jax.tree_util.tree_structure(new) == jax.tree_util.tree_structure(params)


# -- mutation ----------------------------------------------------------------
def test_setitem_and_iadd_alias():
    x = np.zeros((3, 4))
    alias = x
    x[1] = 5
    x += 1
    x[:, 0] = np.arange(3)
    ref = onp.zeros((3, 4))
    ref[1] = 5
    ref += 1
    ref[:, 0] = onp.arange(3)
    onp.testing.assert_array_equal(alias, ref)
    y = np.zeros(3, dtype=np.int32)
    with pytest.raises(TypeError, match=r"__iadd__: cannot cast the result from float64 to "
                                        r"the target's int32"):
        y += 1.5
    n = np.zeros((2, 3)).tag("b", None)
    n[0] = np.arange(2.0).tag("b")
    onp.testing.assert_array_equal(physical(n, ["b"])[:, 0], [0, 1])
    out = np.zeros(3)
    r = np.add(np.ones(3), 2, out=out)
    assert r is out
    onp.testing.assert_array_equal(out, [3, 3, 3])


# -- conversions and printing ------------------------------------------------
@given(st.sampled_from([onp.int32, onp.float64, onp.bool_, onp.complex64]), shapes(0, 3))
def test_repr_matches_numpy(dt, shape):
    a = onp.zeros(shape, dtype=dt)
    assert repr(np.asarray(a)) == repr(a)
    assert str(np.asarray(a)) == str(a)


def test_scalar_conversions_and_protocols():
    x = np.asarray(3.5)
    assert float(x) == 3.5 and int(x) == 3 and bool(x) and complex(x) == 3.5
    i = np.asarray(2)
    assert [10, 20, 30][i] == 30
    v = np.arange(3)
    assert len(v) == 3 and [int(t) for t in v] == [0, 1, 2] and v.tolist() == [0, 1, 2]
    assert v.item(1) == 1 and onp.asarray(v).dtype == onp.int64
    if v[1] == 1:
        pass
    named = np.zeros((2, 2000)).tag("b", None)
    text = repr(named)
    assert "named_shape={'b': 2}" in text and "..." in text   # summarised like NumPy

"""NumPy protocols and the Array API standard namespace.

The standard's own test suite (``data-apis/array-api-tests``) runs outside
the project, with this package as its namespace::

    ARRAY_API_TESTS_MODULE=namedarray python -m pytest array_api_tests \\
        --max-examples 20 --disable-deadline --hypothesis-seed 0

At the suite's commit ``55fcc60`` (2026-04-03; version 2024.12, as NumPy
2.4 declares), with namedarray ``c340e78``: 1363 and 1362 passed in two
runs with the host tier on, 1364 with ``NAMEDARRAY_HOST_TIER=off``, of 1366
the suite does not skip. What fails is NumPy's choice, kept: ``meshgrid``
and ``broadcast_arrays`` return tuples (2024.12 asks for lists, 2025.12 for
tuples), always; and C99's signed zeros, on some draws (the special-case
tests draw their input anew each run, unseeded): ``expm1(-0+0j)`` is
``-0+0j`` and ``tanh(inf+2j)`` is ``1-0j`` (the sign of ``sin(2y)``), on
both tiers, where the suite wants ``+0``.
"""
import operator
import pickle
import re

import array_api_compat
import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import namedarray as np
from support import traced_lacks

rng_aa = onp.random.default_rng(13)

xps = make_strategies_namespace(np, api_version="2023.12")


def test_namespace_resolution():
    x = np.ones(3)
    assert array_api_compat.array_namespace(x) is np
    assert x.__array_namespace__() is np
    info = np.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == onp.float64
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert info.default_device() in info.devices()
    with pytest.raises(ValueError, match=r"dtypes: unknown kind 'text'"):
        info.dtypes(kind="text")
    assert np.__array_api_version__ == "2024.12"
    assert x.to_device(info.default_device()).device == info.default_device()


ELEMS = {"allow_subnormal": False}   # XLA on CPU flushes subnormals to zero


@given(xps.arrays(dtype=xps.real_dtypes(), shape=xps.array_shapes(max_dims=3, max_side=4),
                  elements=ELEMS), st.data())
def test_hypothesis_array_api_strategies_against_numpy(x, data):
    assert isinstance(x, np.NamedArray)
    a = onp.asarray(x)
    y = data.draw(xps.arrays(dtype=x.dtype, shape=x.shape, elements=ELEMS))
    b = onp.asarray(y)
    with onp.errstate(all="ignore"):
        for got, want in [(np.add(x, y), a + b), (np.multiply(x, y), a * b),
                          (np.maximum(x, y), onp.maximum(a, b)),
                          (np.abs(x), onp.abs(a)), (np.negative(x), -a),
                          (np.sum(x), onp.sum(a)), (np.max(x) if a.size else None,
                                                     onp.max(a) if a.size else None)]:
            if got is None:
                continue
            assert onp.asarray(got).dtype == onp.asarray(want).dtype
            # sums may associate differently from NumPy's pairwise summation; a
            # result below the normal range is flushed to zero by XLA on CPU
            w = onp.asarray(want)
            tiny = onp.finfo(w.dtype).tiny if w.dtype.kind == "f" else 0
            onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-5, atol=tiny)


@given(xps.arrays(dtype=xps.floating_dtypes(), shape=xps.array_shapes(min_dims=1, max_dims=2,
                                                                       max_side=4)))
def test_array_api_functions_match_numpy(x):
    a = onp.asarray(x)
    onp.testing.assert_array_equal(np.permute_dims(x, tuple(range(a.ndim))[::-1]), a.T)
    onp.testing.assert_array_equal(np.concat([x, x]), onp.concatenate([a, a]))
    onp.testing.assert_array_equal(np.astype(x, np.float64), a.astype(onp.float64))
    assert np.isdtype(x.dtype, "real floating")


def test_numpy_protocols_dispatch_and_keep_names():
    x = np.arange(6.0).reshape(2, 3).tag("b", None)
    r = onp.exp(x)
    assert isinstance(r, np.NamedArray) and r.named_shape == {"b": 2}
    onp.testing.assert_allclose(r.untag("b"), onp.exp(onp.arange(6.0).reshape(2, 3)))
    s = onp.sum(x, axis="b")
    onp.testing.assert_array_equal(s, [3.0, 5.0, 7.0])
    c = onp.concatenate([np.ones(2), np.zeros(2)])
    assert isinstance(c, np.NamedArray)
    onp.testing.assert_array_equal(c, [1, 1, 0, 0])
    assert float(onp.linalg.det(np.eye(3) * 2)) == pytest.approx(8.0)
    assert int(onp.add.reduce(np.arange(4))) == 6
    out = np.zeros(3)
    onp.add(np.ones(3), 1, out=out)
    onp.testing.assert_array_equal(out, [2, 2, 2])


def test_ndarray_odds_and_ends():
    x = np.arange(3.0)
    assert 2.0 in x and 5.0 not in x
    assert pickle.loads(pickle.dumps(x.tag("i"))).dims == ("i",)
    assert x.tobytes() == onp.arange(3.0).tobytes()
    assert x.strides == onp.arange(3.0).strides and x.base is None
    onp.testing.assert_array_equal(onp.from_dlpack(x), onp.arange(3.0))
    with pytest.raises(NotImplementedError, match=r"getfield: NamedArrays do not expose raw "
                                                  r"memory"):
        x.getfield(onp.float32)


# -- cases the Array API test suite checks, pinned ------------------------------
def test_inplace_on_a_copy_leaves_the_original():
    x = np.arange(3, dtype=np.uint8)
    y = np.asarray(x, copy=True)
    y -= 1
    onp.testing.assert_array_equal(x, [0, 1, 2])
    onp.testing.assert_array_equal(y, onp.arange(3, dtype=onp.uint8) - onp.uint8(1))
    z = np.asarray(x, copy=True)
    z *= 3
    onp.testing.assert_array_equal(x, [0, 1, 2])
    assert np.asarray(x) is x and np.asarray(x, copy=False) is x
    with pytest.raises(ValueError, match=r"asarray: copy=False but casting from uint8 "
                                         r"to float64 needs a copy"):
        np.asarray(x, dtype=np.float64, copy=False)


@pytest.mark.parametrize("fn", ["sort", "argsort"])
@pytest.mark.parametrize("stable", [None, True])
def test_sort_descending_is_stable(fn, stable):
    a = onp.array([[3, 1, 3, 2, 1], [0, 0, 5, 5, 1]])
    got = getattr(np, fn)(np.asarray(a), axis=-1, descending=True, stable=stable)
    # stable descending order: larger first, ties in their original order
    idx = onp.argsort(-a, axis=-1, kind="stable")
    want = idx if fn == "argsort" else onp.take_along_axis(a, idx, axis=-1)
    onp.testing.assert_array_equal(got, want)
    named = getattr(np, fn)(np.asarray(a).tag("i", None), axis=-1, descending=True)
    onp.testing.assert_array_equal(named.untag("i"), want)
    x = np.asarray(a.astype(float))
    x.sort(descending=True)
    onp.testing.assert_array_equal(x, -onp.sort(-a, axis=-1))


def test_clip_takes_min_max_and_numpy_names():
    a = onp.arange(6) - 2
    x = np.asarray(a)
    onp.testing.assert_array_equal(np.clip(x, min=0), onp.clip(a, min=0))
    onp.testing.assert_array_equal(np.clip(x, max=1), onp.clip(a, max=1))
    onp.testing.assert_array_equal(np.clip(x, -1, 1), onp.clip(a, -1, 1))
    onp.testing.assert_array_equal(np.clip(x, a_min=0, a_max=2), onp.clip(a, 0, 2))
    onp.testing.assert_array_equal(x.clip(0, 2), a.clip(0, 2))
    # the Array API's signature: one positional bound is min (NumPy asks for
    # a_max there); NumPy's a_min/a_max keywords, both or neither
    onp.testing.assert_array_equal(np.clip(x, 0), onp.clip(a, min=0))
    with pytest.raises(ValueError, match=r"Passing `min` or `max` keyword argument"):
        np.clip(x, min=0, a_min=0, a_max=2)
    with pytest.raises(TypeError, match=r"^clip\(\) got multiple values for argument 'min'"):
        np.clip(x, 0, 2, min=0)
    import inspect
    assert list(inspect.signature(np.clip).parameters)[:3] == ["a", "min", "max"]


def test_dlpack_protocol():
    x = np.arange(3.0)
    for kw in [{}, {"max_version": (0, 0)}, {"max_version": (1, 0)}, {"copy": True},
               {"dl_device": x.__dlpack_device__()}, {"stream": None}]:
        onp.testing.assert_array_equal(onp.from_dlpack(_Capsule(x, kw)), [0.0, 1.0, 2.0])
    assert x.__dlpack_device__() == x.data.__dlpack_device__()
    with pytest.raises(TypeError, match="untag"):
        x.tag("i").__dlpack__()


class _Capsule:
    """An object whose DLPack export is ``x.__dlpack__(**kw)`` (the consumer side
    asks for the capsule with its own arguments)."""

    def __init__(self, x, kw):
        self.x, self.kw = x, kw

    def __dlpack__(self, **consumer):
        return self.x.__dlpack__(**self.kw)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def test_permute_dims_negative_axes_and_empty():
    for shape, axes in [((0,), (-1,)), ((2, 0, 3), (-1, 0, 1)), ((), ()), ((2, 3), (-1, -2))]:
        a = onp.zeros(shape)
        assert np.permute_dims(np.asarray(a), axes).shape == onp.permute_dims(a, axes).shape
    with pytest.raises(ValueError, match=r"transpose: axes \(0, 0\) don't match"):
        np.permute_dims(np.zeros((2, 3)), (0, 0))


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128",
                                "longdouble", "bfloat16", "float8_e4m3fn"])
def test_finfo_is_numpys(dt):
    """NumPy's finfo object of the dtype (ml_dtypes' for the ML dtypes): every
    limit a NumPy scalar of the dtype (as the Array API's Python float, it
    is a number: float(f.eps) works), ``str`` NumPy's table, one object per
    dtype (NumPy's tests check ``finfo(half) is finfo(half)``)."""
    import ml_dtypes
    f = np.finfo(getattr(np, dt))
    ref = (onp if hasattr(onp, dt) else ml_dtypes).finfo(getattr(np, dt))
    for k in ("eps", "epsneg", "max", "min", "resolution", "smallest_normal",
              "smallest_subnormal", "tiny", "bits", "precision", "nmant", "nexp", "dtype"):
        got, want = getattr(f, k), getattr(ref, k)
        assert type(got) is type(want) and got == want, (k, got, want)
    assert str(f) == str(ref) and repr(f) == repr(ref)
    assert f is np.finfo(getattr(np, dt)) and isinstance(f, np.finfo)
    if dt not in ("bfloat16", "float8_e4m3fn", "longdouble"):
        assert np.finfo(np.ones(2, dtype=dt)) is f
    for bad in (int, "abc"):        # (NumPy's ValueError: not inexact)
        with pytest.raises(ValueError, match="finfo: "):
            np.finfo(bad)


INF, NAN = float("inf"), float("nan")
# (function, input, expected) per C99 Annex G, as the Array API requires
COMPLEX_SPECIAL = [
    ("exp", complex(-INF, INF), 0j), ("exp", complex(-INF, NAN), 0j),
    ("exp", complex(INF, INF), complex(INF, NAN)), ("exp", complex(INF, NAN), complex(INF, NAN)),
    ("expm1", complex(-INF, INF), -1 + 0j), ("expm1", complex(-INF, NAN), -1 + 0j),
    ("expm1", complex(INF, NAN), complex(INF, NAN)),
    ("log", complex(INF, NAN), complex(INF, NAN)), ("log", complex(-INF, NAN), complex(INF, NAN)),
    ("log", complex(NAN, INF), complex(INF, NAN)), ("log1p", complex(NAN, INF), complex(INF, NAN)),
    ("log1p", complex(INF, NAN), complex(INF, NAN)),
    ("sqrt", complex(-INF, NAN), complex(NAN, INF)), ("sqrt", complex(INF, NAN), complex(INF, NAN)),
    ("acos", complex(0, NAN), complex(onp.pi / 2, NAN)),
    ("arccos", complex(-0.0, NAN), complex(onp.pi / 2, NAN)),
    ("acosh", complex(0, NAN), complex(NAN, onp.pi / 2)),
    ("asinh", complex(NAN, 0), complex(NAN, 0)),
    ("atanh", complex(0, NAN), complex(0, NAN)), ("atanh", complex(1.5, NAN), complex(NAN, NAN)),
    ("atanh", complex(INF, NAN), complex(0, NAN)), ("atanh", complex(NAN, 1.5), complex(NAN, NAN)),
    ("atanh", complex(NAN, NAN), complex(NAN, NAN)),
    ("cosh", complex(0, INF), complex(NAN, 0)), ("cosh", complex(0, NAN), complex(NAN, 0)),
    ("cosh", complex(INF, INF), complex(INF, NAN)), ("cosh", complex(INF, NAN), complex(INF, NAN)),
    ("sinh", complex(0, INF), complex(0, NAN)), ("sinh", complex(0, NAN), complex(0, NAN)),
    ("sinh", complex(INF, INF), complex(INF, NAN)), ("sinh", complex(INF, NAN), complex(INF, NAN)),
    ("tanh", complex(0, INF), complex(0, NAN)), ("tanh", complex(0, NAN), complex(0, NAN)),
    ("tanh", complex(INF, 1.0), 1 + 0j), ("sign", complex(-0.0, 0.0), 0j),
    ("sign", complex(0.0, -0.0), 0j), ("sign", complex(-0.0, -0.0), 0j),
]


def _same_special(got, want):
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert (onp.isnan(g) and onp.isnan(w)) or g == w, (got, want)


@pytest.mark.parametrize("fn, z, want", COMPLEX_SPECIAL)
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_special_values(fn, z, want, dt):
    want = complex(onp.asarray(want, dtype=dt))     # pi/2 rounded to the dtype
    with onp.errstate(all="ignore"):
        got = complex(getattr(np, fn)(np.asarray([z], dtype=dt))[0])
    _same_special(got, want)
    if fn not in ("expm1",):     # NumPy agrees (its expm1 is not C99 at infinities)
        with onp.errstate(all="ignore"):
            _same_special(complex(getattr(onp, fn)(onp.asarray([z], dtype=dt))[0]), want)
    # the same under jax.jit
    jitted = jax.jit(lambda v: getattr(np, fn)(v))
    if traced_lacks("any", onp.dtype(dt)):     # (a TPU: the capability table's error,
        with pytest.raises(TypeError, match=r"TPU's XLA backend has no implementation"):
            jitted(np.asarray([z], dtype=dt))
        with jax.default_device(jax.devices("cpu")[0]):     # and the way out it names)
            _same_special(complex(jitted(np.asarray([z], dtype=dt))[0]), want)
        return
    _same_special(complex(jitted(np.asarray([z], dtype=dt))[0]), want)


@pytest.mark.parametrize("x", [-0.0, 0.0, 3.0, -3.0, 1.0])
@pytest.mark.parametrize("y", [2.0, -2.0, INF, -INF])
def test_remainder_and_floor_divide_signed_zeros(x, y):
    with onp.errstate(all="ignore"):
        for fn in ("remainder", "floor_divide"):
            want = getattr(onp, fn)(onp.float64(x), y)
            if fn == "floor_divide" and onp.isinf(y):   # floor(x / y): the standard's
                want = onp.floor(onp.float64(x) / y)    # zeros where NumPy gives -1.0
            got = float(getattr(np, fn)(np.asarray(x), y))
            assert (onp.isnan(got) and onp.isnan(want)) or (
                got == want and onp.signbit(got) == onp.signbit(want)), (fn, x, y, got, want)
        s = np.sign(np.asarray(x))
        assert float(s) == onp.sign(x) and onp.signbit(s) == onp.signbit(onp.sign(x))
        a = np.asarray([x])
        a %= y
        want = onp.remainder(onp.float64(x), y)
        assert onp.signbit(a[0]) == onp.signbit(want) and (
            onp.isnan(want) or float(a[0]) == want)


_GRID = [0.0, -0.0, 1.5, -1.5, 0.5, -0.5, 1e154, -1e154, INF, -INF, NAN]


@pytest.mark.parametrize("fn", ["log", "log1p", "sqrt", "arccos", "acos", "arccosh", "arcsinh",
                                "arctanh", "atanh", "arcsin", "asin", "arctan", "exp"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_branch_cuts_and_specials_match_numpy(fn, dt):
    with onp.errstate(all="ignore"):
        z = onp.array([complex(a, b) for a in _GRID for b in _GRID], dtype=dt)
        want = getattr(onp, fn)(z)
    got = onp.asarray(getattr(np, fn)(np.asarray(z)))
    strict_zero = fn not in ("arctanh", "atanh", "arctan")   # JAX's own zero signs
    for zi, w, g in zip(z, want, got):
        for p, q in ((w.real, g.real), (w.imag, g.imag)):
            if onp.isnan(p) or (onp.isinf(p) and fn in ("arcsin", "asin")):
                assert onp.isnan(q) or onp.isinf(q), (zi, w, g)   # C99: sign unspecified
                continue
            assert onp.isclose(p, q, rtol=1e-5), (zi, w, g)
            if strict_zero and p == 0:
                assert onp.signbit(p) == onp.signbit(q), (zi, w, g)


# matmul/vecdot batch (loop) dimensions broadcast as NumPy's: a size 1 against a
# size 0 too (lax.dot_general alone does not broadcast batch dimensions)
_BATCH = [("matmul", (0, 2, 3), (1, 3, 4)), ("matmul", (1, 2, 3), (0, 3, 4)),
          ("matmul", (2, 1, 2, 3), (0, 3, 4)), ("matmul", (0, 1, 2, 3), (1, 0, 3, 4)),
          ("matmul", (3,), (1, 0, 3, 2)), ("matmul", (0, 1, 2, 3), (3,)),
          ("vecdot", (0, 3), (1, 3)), ("vecdot", (1, 1, 3), (2, 0, 3)),
          ("vecdot", (1, 3), (3,)), ("matvec", (0, 2, 3), (1, 3)),
          ("vecmat", (1, 3), (0, 3, 2)), ("matmul", (2, 1, 2, 3), (1, 4, 3, 2))]


@pytest.mark.parametrize("fn, sa, sb", _BATCH)
@pytest.mark.parametrize("named", [False, True])
def test_contraction_batch_dims_of_size_0_and_1_broadcast(fn, sa, sb, named):
    a = rng_aa.standard_normal(sa)
    b = rng_aa.standard_normal(sb)
    want = getattr(onp, fn)(a, b)
    if not named:
        got = getattr(np, fn)(np.asarray(a), np.asarray(b))
        assert got.shape == want.shape and got.dtype == want.dtype
        onp.testing.assert_allclose(onp.asarray(got), want, rtol=1e-12)
        return
    # the same positional problem batched over a name both operands carry
    nb = onp.stack([a, 2 * a])
    mb = onp.stack([b, -b])
    got = getattr(np, fn)(np.NamedArray(nb, dims=("n",) + (None,) * a.ndim),
                          np.NamedArray(mb, dims=("n",) + (None,) * b.ndim))
    assert got.shape == want.shape and got.named_shape == {"n": 2}
    onp.testing.assert_allclose(onp.asarray(got.untag("n")), onp.stack([want, -2 * want]),
                                rtol=1e-12)


@pytest.mark.parametrize("fn, sa, sb", [("matmul", (2, 1), (3, 4)), ("matmul", (2, 0), (1, 4)),
                                        ("vecdot", (2, 1), (3,)), ("dot", (2, 1), (3, 4)),
                                        ("inner", (2, 1), (3,)), ("matvec", (2, 1), (3,))])
def test_contracted_axis_does_not_broadcast(fn, sa, sb):
    a, b = onp.ones(sa), onp.ones(sb)
    with pytest.raises(ValueError):
        getattr(onp, fn)(a, b)
    with pytest.raises(ValueError, match=re.escape(
            f"{fn}: the contracted axis has size {sa[-1]} in operand 0 (shape {sa}) but "
            f"size {sb[0]} in operand 1 (shape {sb}); a contracted axis needs one size in "
            "both (it does not broadcast)")):
        getattr(np, fn)(np.asarray(a), np.asarray(b))
    with pytest.raises(ValueError, match=r"tensordot: the contracted axis has size 1"):
        np.tensordot(np.ones((2, 1)), np.ones((3, 4)), axes=1)
    # einsum itself broadcasts a size-1 subscript, as NumPy's does
    onp.testing.assert_array_equal(np.einsum("ij,jk", np.ones((2, 1)), np.ones((3, 4))),
                                   onp.einsum("ij,jk", onp.ones((2, 1)), onp.ones((3, 4))))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "floordiv", "pow", "lt", "eq",
                                "ne", "ge", "and_"])
def test_jax_array_on_the_left_gives_the_named_result(op):
    f = getattr(operator, op)
    a = onp.arange(1.0, 4.0) if op != "and_" else onp.array([1, 2, 3])
    x = np.asarray(a).tag("b")
    for left in (jnp.float32(2) if op != "and_" else jnp.int32(3), jnp.asarray(a[::-1].copy())):
        got = f(left, x)           # jax.Array.__op__ defers to the NamedArray's reflected op
        assert isinstance(got, np.NamedArray) and got.named_shape == {"b": 3}
        # a positional vector on the left broadcasts against the name: the
        # untagged result holds "b" in front
        want = f(onp.asarray(left)[None], a[:, None]) if left.ndim else f(onp.asarray(left), a)
        assert got.dtype == want.dtype
        onp.testing.assert_allclose(onp.asarray(got.untag("b")), want)
        jitted = jax.jit(f)(left, x)
        assert jitted.dims == got.dims
        onp.testing.assert_allclose(onp.asarray(jitted.untag("b")), want)
    # positional-only too: the result is a NamedArray, as with a NumPy array on the left
    got = jnp.ones(3) @ np.ones((3, 2))
    assert isinstance(got, np.NamedArray) and got.shape == (2,)
    y = jnp.ones(3)
    y *= np.arange(3.0).tag("b")
    assert isinstance(y, np.NamedArray) and y.named_shape == {"b": 3}

"""ML dtypes (bfloat16, float8_*): creation, conversion, promotion as JAX
defines it, finfo, printing; the oracle is jax.numpy on the same data."""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as onp
import pytest
from hypothesis import given
from hypothesis import strategies as st

import namedarray as np
from tests.support import arrays, shapes

ML = [np.bfloat16, np.float8_e4m3fn, np.float8_e5m2]
ML_NAMES = ["bfloat16", "float8_e4m3fn", "float8_e5m2"]
OTHERS = [onp.bool_, onp.int8, onp.int32, onp.int64, onp.uint8, onp.float16, onp.float32,
          onp.float64, onp.complex64]


def same(res, exp):
    """``res`` (a NamedArray) is ``exp`` (a jax/NumPy array): dtype and bits."""
    assert isinstance(res, np.NamedArray), type(res)
    assert res.dtype == exp.dtype, (res.dtype, exp.dtype)
    r, e = onp.asarray(res), onp.asarray(exp)
    assert r.shape == e.shape
    onp.testing.assert_array_equal(r.reshape(-1).view(onp.uint8), e.reshape(-1).view(onp.uint8))


def test_exported_types_are_jax_ones():
    for name, t in zip(ML_NAMES, ML):
        assert t is getattr(ml_dtypes, name)        # NumPy scalar types, as np.float32
        assert onp.dtype(name) == onp.dtype(t) == jnp.dtype(getattr(jnp, name))


@pytest.mark.parametrize("name", ML_NAMES)
@given(data=arrays(onp.float32, shapes(max_side=3)))
def test_asarray_astype_creation(name, data):
    dt = onp.dtype(name)
    exp = jnp.asarray(data).astype(dt)
    for spec in (dt, dt.type, name):        # a dtype, the scalar type, or its name
        same(np.asarray(data, dtype=spec), exp)
        if data.size:                       # (tolist() of a 0-size array loses its shape)
            same(np.asarray(data.tolist(), dtype=spec), exp)
        same(np.asarray(data).astype(spec), exp)
        same(np.astype(np.asarray(data), spec), exp)
        same(np.array(jnp.asarray(data), dtype=spec), exp)
    s = data.shape
    same(np.zeros(s, dtype=name), jnp.zeros(s, dt))
    same(np.ones(s, dtype=dt.type), jnp.ones(s, dt))
    same(np.full(s, 1.5, dtype=dt), jnp.full(s, 1.5, dt))
    same(np.asarray(exp), exp)              # a jax array of an ML dtype is accepted


@pytest.mark.parametrize("dt", ML)
def test_finfo(dt):
    f, e = np.finfo(dt), ml_dtypes.finfo(dt)
    assert (f.bits, f.eps, f.max, f.tiny) == (e.bits, e.eps, e.max, e.tiny)
    assert np.finfo(np.ones(2, dtype=dt)).bits == e.bits     # an array works too
    assert np.finfo(onp.dtype(dt).name).max == e.max
    assert np.finfo(np.float32).eps == onp.finfo(onp.float32).eps


PY = [1.5, 2, True]


@pytest.mark.parametrize("a", ML)
@pytest.mark.parametrize("b", ML + OTHERS + PY, ids=str)
def test_promotion_is_jax(a, b):
    """result_type and every binary op: JAX's lattice (bf16 + f32 -> f32, bf16 +
    Python float -> bf16); a pair JAX refuses is a TypeError naming the dtypes."""
    x = np.asarray([1.0, 2.0], dtype=a)
    y = b if b in PY else np.asarray([1, 0], dtype=b)
    jx = jnp.asarray([1.0, 2.0], a)
    jy = b if b in PY else jnp.asarray([1, 0], b)
    try:
        exp_dt = jnp.result_type(a, b)
    except jax.dtypes.TypePromotionError:
        with pytest.raises(TypeError, match=r"add: not supported for the input types "):
            np.add(x, y)
        return
    assert np.result_type(x, y) == exp_dt
    assert np.result_type(a, b if b not in PY else type(b)) == jnp.result_type(
        a, b if b not in PY else type(b))
    same(x + y, jx + jy)
    same(y * x, jy * jx)
    same(np.maximum(x, y), jnp.maximum(jx, jy))
    same(x < y, jx < jy)


@pytest.mark.parametrize("dt", ML)
def test_unary_and_reductions_keep_the_dtype(dt):
    v = onp.array([0.5, 1.0, 2.0, 4.0], onp.float32)
    x, jx = np.asarray(v, dtype=dt), jnp.asarray(v, dt)
    for f in ("sqrt", "exp", "negative", "abs"):
        same(getattr(np, f)(x), getattr(jnp, f)(jx))
    same(x.sum(), jx.sum())
    same(np.max(x), jnp.max(jx))
    assert x.mean().dtype == jx.mean().dtype


def test_bf16_matmul_and_named_ops():
    a = onp.arange(6.0, dtype=onp.float32).reshape(2, 3) / 4
    x = np.asarray(a, dtype=np.bfloat16)
    jx = jnp.asarray(a, jnp.bfloat16)
    same(x @ x.T, jx @ jx.T)
    same(np.matmul(x, x.T, preferred_element_type=np.float32),
         jnp.matmul(jx, jx.T, preferred_element_type=jnp.float32))
    s = x.tag("b", None).sum(axis="b")
    same(s, jx.sum(0))
    assert (x.tag("b", None) * 1.5).dtype == np.bfloat16


@pytest.mark.parametrize("dt", ML)
def test_printing(dt):
    v = onp.array([0.5, 1.0, 2.0], onp.float32)
    x = np.asarray(v, dtype=dt)
    ref = onp.asarray(v).astype(dt)
    # JAX's printing (the dtype by name, whatever ml_dtypes version is installed)
    assert repr(x) == "a" + repr(jnp.asarray(ref))[1:]
    assert str(x) == str(ref) == str(jnp.asarray(ref))     # values as JAX prints them
    assert f"dtype={onp.dtype(dt).name}" in repr(x.tag("i")).replace("'", "")


def test_astype_errors():
    x = np.arange(3.0)
    with pytest.raises(TypeError, match=r"astype: 'nonsense' is not a dtype"):
        x.astype("nonsense")
    with pytest.raises(TypeError, match=r"astype: cannot cast array data from float64 to "
                                        r"bfloat16 according to the rule 'safe'"):
        x.astype(np.bfloat16, casting="safe")
    # eagerly, data namedarray cannot hold is NumPy's (test_host_data.py); traced,
    # the named error
    assert x.astype(str).tolist() == ["0.0", "1.0", "2.0"]
    with pytest.raises(TypeError, match=r"astype: string dtype <U0 is not supported: "
                                        r"namedarray arrays hold bool, numeric and ML"):
        jax.jit(lambda a: a.astype(str))(x)


def _ops(f, *args):
    text = jax.jit(f).lower(*args).compile().as_text()
    return text.count(" transpose("), text.count(" copy(")


@pytest.mark.parametrize("dims", [("b", None, "c"), (None, "b", None), ("b", "c", None)])
@pytest.mark.parametrize("target", [np.float32, np.bfloat16, "float8_e4m3fn"], ids=str)
def test_astype_adds_no_transpose(dims, target):
    """astype (method and function) is one convert: no transpose or copy in the
    compiled HLO beyond jax.numpy's own convert's (none on the CPU; a TPU's
    float64 to float8 convert has a copy), and the layout (dims) is kept."""
    x = np.NamedArray(jnp.arange(24.0).reshape(2, 3, 4), dims=dims)
    plain = _ops(lambda d: d.astype(target), x.data)
    assert jax.default_backend() != "cpu" or plain == (0, 0)
    for f in (lambda v: v.astype(target), lambda v: np.astype(v, target)):
        assert _ops(f, x) == plain
        r = jax.jit(f)(x)
        assert r.dims == x.dims
        same(np.asarray(r.data), x.data.astype(target))


@given(st.sampled_from(ML), st.sampled_from([(), (0,), (3, 0), (2,)]))
def test_zero_size_and_scalars(dt, shape):
    z = np.zeros(shape, dtype=dt)
    same(z + 1.0, jnp.zeros(shape, dt) + 1.0)
    same(z.astype(np.float32), jnp.zeros(shape, jnp.float32))


@pytest.mark.parametrize("dt", ML)
def test_arange_linspace_compute_wide_then_cast(dt):
    """As NumPy does for a narrow float dtype: the values in float64, then cast."""
    same(np.arange(0, 3, 0.3, dtype=dt), onp.arange(0, 3, 0.3).astype(dt))
    same(np.arange(7, dtype=dt), onp.arange(7).astype(dt))
    same(np.linspace(0, 1, 7, dtype=dt), onp.linspace(0, 1, 7).astype(dt))


@pytest.mark.parametrize("dt", [np.bfloat16, np.float8_e4m3fn])
def test_ml_scalar_operands(dt):
    """An ML-dtype NumPy scalar is an operand like np.float32(2): strongly typed,
    JAX's promotion (it was refused as a non-numeric dtype)."""
    x = np.ones(2, dtype=dt)
    for got in (dt(2.0) * x, x * dt(2.0), np.multiply(dt(2.0), x)):
        assert got.dtype == dt and onp.asarray(got).astype(float).tolist() == [2.0, 2.0]
    if dt is np.bfloat16:        # JAX does not promote float8 implicitly
        assert (np.ones(2, dtype=np.float32) * dt(3.0)).dtype == np.float32
    assert np.add(dt(1.0), dt(2.0)).dtype == dt
    # a NumPy string is host data: NumPy's ufunc answers, here with its error
    with pytest.raises(TypeError, match=r"ufunc 'multiply' not supported for the input "
                                        r"types"):
        np.multiply(onp.str_("a"), x)

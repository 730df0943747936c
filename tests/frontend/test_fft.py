"""namedarray.fft against numpy.fft: values and NumPy 2's dtypes (float32 stays
single precision, integers go to complex128), batches and 0-size, named axes
mapped over, and ``axis="name"`` equal to the positional transform on the
physical dimension that holds the name (name kept, size changed by rfft/irfft).
"""
from __future__ import annotations

import inspect

import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as na
from support import traced_lacks

F = onp.fft
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"]
REAL_ONLY = {"rfft", "ihfft", "rfft2", "rfftn"}
DTYPES = [onp.float32, onp.float64, onp.complex64, onp.complex128]
SHAPES = st.sampled_from([(4,), (3, 5), (2, 0, 4), (2, 3, 4)])


def rand(seed, dtype, shape):
    r = onp.random.default_rng(seed)
    a = r.standard_normal(shape)
    if onp.dtype(dtype).kind == "c":
        a = a + 1j * r.standard_normal(shape)
    if onp.dtype(dtype).kind in "biu":
        a = r.integers(-3, 4, shape)
    return a.astype(dtype)


def tol(*arrays):
    dts = [onp.asarray(a).dtype for a in arrays]
    if onp.float16 in dts:
        return 3e-3
    return 1e-4 if onp.float32 in dts or onp.complex64 in dts else 1e-10


def check(got, want, rtol):
    assert isinstance(got, na.NamedArray) and not got.names
    g, w = onp.asarray(got), onp.asarray(want)
    assert (g.dtype, g.shape) == (w.dtype, w.shape)
    scale = max(1.0, float(onp.abs(w).max())) if w.size else 1.0
    onp.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale)


def dtype_for(name, dtypes):
    return [d for d in dtypes if not (name in REAL_ONLY and onp.dtype(d).kind == "c")]


# --------------------------------------------------------------------------
# positional: values and dtypes as NumPy
# --------------------------------------------------------------------------
@given(name=st.sampled_from(ONE_D), data=st.data(), shape=SHAPES,
       n=st.sampled_from([None, 3, 8]), norm=st.sampled_from([None, "ortho", "forward"]),
       seed=st.integers(0, 2**16))
def test_one_d_transforms(name, data, shape, n, norm, seed):
    dtype = data.draw(st.sampled_from(dtype_for(name, DTYPES)))
    axis = data.draw(st.sampled_from([-1, 0]))
    a = rand(seed, dtype, shape)
    if a.shape[axis] == 0 and n is None or name in ("irfft", "hfft") and n is None \
            and a.shape[axis] < 2:
        n = 4  # NumPy needs at least one output point
    want = getattr(F, name)(a, n=n, axis=axis, norm=norm)
    check(getattr(na.fft, name)(na.asarray(a), n=n, axis=axis, norm=norm), want, tol(a, want))


@given(name=st.sampled_from(N_D), data=st.data(), seed=st.integers(0, 2**16),
       norm=st.sampled_from([None, "ortho"]))
def test_n_d_transforms(name, data, seed, norm):
    dtype = data.draw(st.sampled_from(dtype_for(name, DTYPES)))
    shape = data.draw(st.sampled_from([(3, 4), (2, 3, 4)]))
    a = rand(seed, dtype, shape)
    if name.endswith("2"):
        axes = data.draw(st.sampled_from([(-2, -1), (0, 1), (1, 0)]))
    else:
        axes = data.draw(st.sampled_from([None, (0,), (1, 0), (-1, 0)]))
    s = data.draw(st.sampled_from([None, "pad"]))
    if s == "pad":  # (NumPy 2 deprecates s without axes)
        axes = axes or tuple(range(-2, 0) if name.endswith("2") else range(a.ndim))
        s = tuple([5] * len(axes))
    kw = {} if axes is None else {"axes": axes}
    want = getattr(F, name)(a, s=s, norm=norm, **kw)
    check(getattr(na.fft, name)(na.asarray(a), s=s, norm=norm, **kw), want, tol(a, want))


@pytest.mark.parametrize("dtype", [onp.bool_, onp.int8, onp.uint8, onp.int64, onp.float16])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn",
                                  "irfftn", "fftshift"])
def test_input_dtypes_as_numpy(name, dtype):
    a = rand(0, dtype, (3, 4))
    want = getattr(F, name)(a)
    check(getattr(na.fft, name)(na.asarray(a)), want, tol(want))


@given(name=st.sampled_from(["fftshift", "ifftshift"]), shape=SHAPES,
       axes=st.sampled_from([None, 0, -1, (0, -1)]))
def test_shifts(name, shape, axes):
    a = onp.arange(onp.prod(shape)).reshape(shape)
    check(getattr(na.fft, name)(na.asarray(a), axes=axes), getattr(F, name)(a, axes=axes), 0)


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n,d", [(1, 1.0), (8, 0.1), (9, 2)])
def test_frequencies(name, n, d):
    check(getattr(na.fft, name)(n, d), getattr(F, name)(n, d), 1e-12)
    check(getattr(na.fft, name)(n, d=d, device=na.asarray(0).device),
          getattr(F, name)(n, d=d, device="cpu"), 1e-12)
    got = getattr(na.fft, name)(n, d=d, dtype=onp.float32)
    assert got.dtype == onp.float32
    check(got, getattr(F, name)(n, d=d).astype(onp.float32), 1e-6)
    # the Array API's signature: n positional only, dtype and device keywords
    params = inspect.signature(getattr(na.fft, name)).parameters
    assert params["n"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert {params[k].kind for k in ("dtype", "device")} == {inspect.Parameter.KEYWORD_ONLY}


def test_out_argument():
    a = rand(0, onp.float64, (4,))
    out = na.zeros(4, dtype=onp.complex128)
    r = na.fft.fft(na.asarray(a), out=out)
    assert r is out
    check(out, F.fft(a), 1e-12)


# --------------------------------------------------------------------------
# named axes: mapped over, or transformed along with axis="name"
# --------------------------------------------------------------------------
@given(name=st.sampled_from(ONE_D), data=st.data(), seed=st.integers(0, 2**16),
       n=st.sampled_from([None, 6]))
def test_axis_name_equals_the_physical_dimension(name, data, seed, n):
    dtype = data.draw(st.sampled_from(dtype_for(name, [onp.float32, onp.complex128])))
    a = rand(seed, dtype, (4, 3, 5))
    phys = data.draw(st.sampled_from([0, 1, 2]))
    dims = [None, None, None]
    dims[phys] = "t"
    x = na.NamedArray(a, dims=tuple(dims))
    got = getattr(na.fft, name)(x, n=n, axis="t")
    want = getattr(F, name)(a, n=n, axis=phys)
    assert got.named_shape == {"t": want.shape[phys]}
    check(got.untag("t"), onp.moveaxis(want, phys, 0), tol(a, want))


@given(name=st.sampled_from(ONE_D), seed=st.integers(0, 2**16))
def test_named_axes_not_transformed_are_mapped_over(name, seed):
    dtype = onp.float64 if name in REAL_ONLY else onp.complex128
    a = rand(seed, dtype, (3, 2, 4))
    x = na.NamedArray(a, dims=("b", "c", None))
    got = getattr(na.fft, name)(x)
    assert got.named_shape == {"b": 3, "c": 2}
    check(got.untag("b", "c"), getattr(F, name)(a), tol(a))


@given(name=st.sampled_from(N_D), data=st.data(), seed=st.integers(0, 2**16))
def test_axes_mixing_names_and_ints_keep_their_order(name, data, seed):
    # the order of `axes` pairs with `s`, and irfftn's last axis is the real one
    dtype = onp.float64 if name in REAL_ONLY else onp.complex128
    a = rand(seed, dtype, (4, 3, 5))
    x = na.NamedArray(a, dims=(None, "t", None))  # positional (4, 5); t = physical 1
    order = data.draw(st.sampled_from([("t", 0), (1, "t"), ("t", -1)]))
    s = data.draw(st.sampled_from([None, (6, 4)]))
    phys = tuple(1 if v == "t" else {0: 0, 1: 2, -1: 2}[v] for v in order)
    got = getattr(na.fft, name)(x, s=s, axes=order)
    want = getattr(F, name)(a, s=s, axes=phys)
    assert got.named_shape == {"t": want.shape[1]}
    check(got.untag("t"), onp.moveaxis(want, 1, 0), tol(a))


def test_axis_name_under_nmap_equals_unmapped():
    a = rand(0, onp.complex128, (4, 3, 8))
    x = na.NamedArray(a, dims=("b", None, "t"))
    if traced_lacks("fft", onp.complex128):
        # an accelerator: compiled, the call raises; eager, the nmap runs where
        # complex128 data lives (the CPU backend)
        with pytest.raises(TypeError, match="^fft: .* no implementation of fft on complex128"):
            jax.jit(na.nmap(lambda v: na.fft.fft(v, axis="t")))(x)
    tol = 1e-12 if a.dtype == onp.complex128 else 1e-5
    mapped = na.nmap(lambda v: na.fft.fft(v, axis="t"))(x)
    unmapped = na.fft.fft(x, axis="t")
    assert mapped.named_shape == unmapped.named_shape == {"b": 4, "t": 8}
    onp.testing.assert_allclose(onp.asarray(mapped.untag("b", "t")),
                                onp.asarray(unmapped.untag("b", "t")), rtol=tol, atol=tol)
    check(unmapped.untag("t", "b"), onp.moveaxis(F.fft(a, axis=2), 2, 0), 100 * tol)


def test_shift_along_a_name():
    a = onp.arange(24).reshape(2, 3, 4)
    x = na.NamedArray(a, dims=(None, "f", None))
    got = na.fft.fftshift(x, axes="f")
    check(got.untag("f"), onp.moveaxis(F.fftshift(a, axes=1), 1, 0), 0)


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(REAL_ONLY))
def test_real_transforms_refuse_complex(name):
    a = onp.ones((2, 2), complex)
    with pytest.raises(TypeError):
        getattr(F, name)(a)
    with pytest.raises(TypeError, match=rf"^{name}: the input must be real, got complex128"):
        getattr(na.fft, name)(na.asarray(a))


@pytest.mark.parametrize("name,a,kw", [
    ("fft", onp.ones(4), {"n": 0}), ("fft", onp.ones(0), {}), ("irfft", onp.ones(1), {}),
    ("rfft", onp.ones((3, 0)), {}), ("fftn", onp.ones((2, 2)), {"s": (2, 0), "axes": (0, 1)})])
def test_fewer_than_one_point(name, a, kw):
    with pytest.raises(ValueError):
        getattr(F, name)(a, **kw)
    with pytest.raises(ValueError, match=rf"^{name}: Invalid number of FFT data points \(0\)"):
        getattr(na.fft, name)(na.asarray(a), **kw)


def test_bad_arguments():
    with pytest.raises(ValueError, match='^fft: Invalid norm value foo'):
        na.fft.fft(na.ones(4), norm="foo")
    with pytest.raises(ValueError, match="^fft: axis 2 is out of bounds"):
        na.fft.fft(na.ones(4), axis=2)
    x = na.ones((2, 4)).tag("t", None)
    with pytest.raises(ValueError, match=r"^fft: .*'u'.*\{'t': 2\}"):
        na.fft.fft(x, axis="u")
    # a repeated axis is transformed twice, as NumPy does (JAX's fftn refuses it)
    onp.testing.assert_allclose(onp.asarray(na.fft.fftn(na.arange(4.0), axes=(0, 0))),
                                F.fftn(onp.arange(4.0), axes=(0, 0)))


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shift_of_a_zero_d_array_raises(name):
    """NumPy shifts each axis of the array: a 0-d one has none (it returned it)."""
    with pytest.raises(ValueError, match=f"{name}: a 0-d array has no axis to shift"):
        getattr(na.fft, name)(na.asarray(1.0))


@pytest.mark.parametrize("how", ["0-d array", "scalar", "axes=()"])
@pytest.mark.parametrize("name,dtype", [(n, d) for n in N_D for d in ("int8", "float32",
                                        "complex128") if not (n.startswith("rfft") and
                                                              d == "complex128")])
def test_a_transform_over_no_axis_is_numpys(name, dtype, how):
    """Over no axis (a 0-d input without axes or ``s``, or ``axes=()``), NumPy's
    complex-to-complex transforms give the input itself, an array of its
    dtype; its real ones raise an IndexError.  (The 0-d results were
    transformed complex scalars; complex input to the real-to-complex ones is
    refused first, as test_real_transforms_refuse_complex checks.)"""
    a = onp.arange(1, 5, dtype=dtype).reshape(2, 2)
    x, kw = {"0-d array": (a[0, 1].reshape(()), {}), "scalar": (a[0, 1], {}),
             "axes=()": (a, {"axes": ()})}[how]
    ours = na.asarray(x) if how != "scalar" else na.asarray(a)[0, 1]
    try:
        want = getattr(F, name)(x, **kw)
    except Exception as e:      # noqa: BLE001 -- NumPy's error class, below
        with pytest.raises(type(e).__mro__[1] if isinstance(e, onp.exceptions.AxisError)
                           else type(e)):
            getattr(na.fft, name)(ours, **kw)
        return
    got = getattr(na.fft, name)(ours, **kw)
    assert not na.isscalar(got) and type(want) is onp.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    onp.testing.assert_array_equal(onp.asarray(got), want)

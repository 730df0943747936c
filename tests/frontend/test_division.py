"""True division gives NumPy's bits (the correctly rounded quotient) eager and
compiled: by a Python-float literal, a traced scalar, a broadcast row or column,
an array of the same shape, a square root, and of a quotient, in float16, 32
and 64, under jax.jit, grad, vmap and nmap on a mesh.  XLA rewrites most of
these into a multiplication by a reciprocal (``x / 3.0`` is 1 ulp off on about
a third of the values); the control test shows that it still does, so the
others can fail."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from jax.test_util import check_grads

import namedarray as np
from namedarray.core import backends
from support import make_mesh

RNG = onp.random.default_rng(7)
INF, NAN = float("inf"), float("nan")
DTYPES = ["float16", "float32", "float64"]


def _data(dt):
    x = RNG.standard_normal((16, 7)).astype(dt)
    y = (onp.abs(RNG.standard_normal((16, 7))) + 0.5).astype(dt)
    return x, y


def _cases(dt):
    """(name, function of a namedarray array, NumPy's result) for one dtype."""
    x, y = _data(dt)
    t = onp.dtype(dt).type
    row, col, s = y[0], y[:, :1], y[3, 4]
    return x, [
        ("literal", lambda a: a / 3.0, x / t(3.0)),
        ("literal 0.1", lambda a: np.divide(a, 0.1), x / t(0.1)),
        ("scalar", lambda a: a / np.asarray(s), x / s),
        ("row", lambda a: a / np.asarray(row), x / row),
        ("column", lambda a: a / np.asarray(col), x / col),
        ("same shape", lambda a: a / np.asarray(y), x / y),
        ("sqrt", lambda a: a / np.sqrt(np.asarray(y)), x / onp.sqrt(y)),
        ("sqrt of a row", lambda a: a / np.sqrt(np.asarray(row)), x / onp.sqrt(row)),
        ("quotient by a row", lambda a: (a / np.asarray(y)) / np.asarray(row),
         (x / y) / row),
        ("literal over", lambda a: 3.0 / a, t(3.0) / x),
    ]


def _assert_bits(got, want, what):
    got = onp.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    if want.dtype.kind == "c":      # part by part
        want, got = onp.stack([want.real, want.imag]), onp.stack([got.real, got.imag])
    bad = got.view(f"u{want.itemsize}") != want.view(f"u{want.itemsize}")
    assert not bad.any(), (what, got[bad][:4], want[bad][:4])


#: complex128, compiled too: not on a TPU, which has no implementation of it
#: (the capability table's TypeError, tests/frontend/test_dispatch.py)
_COMPLEX128 = pytest.param("complex128", marks=pytest.mark.cpu_only(
    "complex128 under jax.jit: a TPU has no implementation of it"))


@pytest.mark.cpu_only("bit-for-bit against NumPy compiled: XLA CPU's division is "
                     "IEEE's; a TPU's float32 division is within an ulp")
@pytest.mark.parametrize("dt", DTYPES)
def test_division_is_numpys_quotient_eager_and_compiled(dt):
    x, cases = _cases(dt)
    a = np.asarray(x)
    for name, f, want in cases:
        _assert_bits(f(a), want, f"{name}, eager")
        _assert_bits(jax.jit(f)(a), want, f"{name}, jax.jit")


def test_control_xla_rewrites_the_plain_division():
    """Without the barrier the same data is not divided exactly under jax.jit:
    the tests above detect a missing barrier (if this fails, XLA stopped
    rewriting and the barrier in elementwise.py is no longer needed)."""
    for dt in DTYPES:
        x, y = _data(dt)
        for f, want in ((lambda a: a / 3.0, x / onp.dtype(dt).type(3.0)),
                        (lambda a: a / jnp.asarray(y[0]), x / y[0]),
                        (lambda a: a / jnp.sqrt(jnp.asarray(y)), x / onp.sqrt(y))):
            got = onp.asarray(jax.jit(f)(jnp.asarray(x)))
            assert (got != want).any(), dt


@pytest.mark.cpu_only("bit-for-bit against NumPy compiled: XLA CPU's division is "
                     "IEEE's; a TPU's float32 division is within an ulp")
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_named_division_aligns_and_is_exact(dt):
    x, y = _data(dt)
    a = np.asarray(x).tag("b", "f")
    row = np.asarray(y[0]).tag("f")
    col = np.asarray(y[:, 0]).tag("b")
    for f, want in ((lambda a: a / row, x / y[0]), (lambda a: a / col, x / y[:, :1])):
        for g in (f, jax.jit(f)):
            r = g(a)
            assert r.named_shape == {"b": 16, "f": 7}
            _assert_bits(r.untag("b", "f"), want, "named")

    def rms(a):                 # the divisor is a reduction of the dividend
        d = np.sqrt((a * a).mean(axis="f") + 1e-6)
        return a / d, d
    for g in (rms, jax.jit(rms)):
        r, d = g(a)
        _assert_bits(r.untag("b", "f"), x / onp.asarray(d.untag("b"))[:, None], "rms")


def test_division_gradients_are_jax_divisions():
    """Derivatives of the exact division are those of jnp.divide (first and second
    order, forward and reverse), with broadcasting in both directions."""
    x = jnp.asarray(RNG.standard_normal((4, 3)))
    row = jnp.asarray(RNG.standard_normal(3)) + 3.0
    col = jnp.asarray(RNG.standard_normal((4, 1))) + 3.0
    for a, b in ((x, row), (row, col), (x, 2.5)):
        check_grads(lambda a, b: np.divide(a, b).data, (a, b), order=2,
                    modes=("fwd", "rev"))
        f = lambda a, b: jnp.sum(jnp.sin(np.divide(a, b).data))           # noqa: E731
        g = lambda a, b: jnp.sum(jnp.sin(jnp.divide(a, b)))                # noqa: E731
        for got, want in zip(jax.grad(f, (0, 1))(a, b), jax.grad(g, (0, 1))(a, b)):
            onp.testing.assert_allclose(got, want, rtol=1e-14)


@pytest.mark.cpu_only("bit-for-bit against NumPy compiled: XLA CPU's division is "
                     "IEEE's; a TPU's float32 division is within an ulp")
def test_division_under_vmap_is_exact():
    """An operand the map does not batch is broadcast before the barrier (JAX's
    batching would broadcast it after, where XLA rewrites the division)."""
    x, y = _data("float32")
    d = lambda a, b: np.divide(a, b).data                                 # noqa: E731
    X, Y = jnp.asarray(x), jnp.asarray(y)
    for f in (lambda v: v, jax.jit):
        _assert_bits(f(jax.vmap(d))(X, Y[:, 0]), x / y[:, :1], "vmap, own scalar")
        _assert_bits(f(jax.vmap(lambda a: d(a, 3.0)))(X), x / onp.float32(3), "literal")
        _assert_bits(f(jax.vmap(lambda b: d(3.0, b)))(Y), onp.float32(3) / y, "over")
        _assert_bits(f(jax.vmap(lambda a: d(a, Y[:, 0]), 1, 1))(X), x / y[:, :1],
                     "vmap over axis 1, unbatched column")
        nested = jax.vmap(jax.vmap(d, (0, None)), (None, 0))
        _assert_bits(f(nested)(X[0], Y[:, 0]), x[0] / y[:, :1], "nested vmap")


def test_division_gradients_under_vmap():
    x = jnp.asarray(RNG.standard_normal((6, 5)))
    s = jnp.asarray(RNG.standard_normal(6)) + 3.0
    f = lambda a, b: jnp.sum(jnp.sin(np.divide(a, b).data))               # noqa: E731
    g = lambda a, b: jnp.sum(jnp.sin(jnp.divide(a, b)))                    # noqa: E731
    for t in (lambda h: jax.vmap(jax.grad(h, (0, 1))),
              lambda h: jax.grad(lambda a, b: jax.vmap(h)(a, b).sum(), (0, 1))):
        for got, want in zip(t(f)(x, s), t(g)(x, s)):
            onp.testing.assert_allclose(got, want, rtol=1e-14)


@pytest.mark.parametrize("mesh", [False, True])
def test_division_inside_nmap_is_exact(mesh):
    """One instance per row, on the local map and sharded over a 4-device mesh:
    each instance divides by a literal and by its own scalar."""
    x, y = _data("float64")
    a = np.asarray(x).tag("b", "f")
    d = np.asarray(y[:, 0]).tag("b")
    kw = dict(mesh=make_mesh((4,), ("data",)), axis_resources={"b": "data"}) \
        if mesh else {}
    if mesh:    # a jitted mesh program takes its arguments on the mesh (np.shard;
        # float64 data of a TPU machine is committed to the CPU's first device)
        a, d = (np.shard(v, kw["mesh"], kw["axis_resources"]) for v in (a, d))
    run = np.nmap(lambda r, s: (r / 3.0, r / s), axes=("b",), **kw)
    for f in (run, jax.jit(run)):
        lit, by = f(a, d)
        _assert_bits(lit.untag("b", "f"), x / 3.0, "literal")
        _assert_bits(by.untag("b", "f"), x / y[:, :1], "own scalar")


def test_integer_division_unchanged():
    i = onp.arange(-20, 20)
    _assert_bits(np.asarray(i) / 3, i / 3, "integers")
    _assert_bits(jax.jit(lambda a: a / 7)(np.asarray(i)), i / 7, "integers, jit")


# complex division: NumPy's loop (Smith's algorithm), its special values and,
# eager, its bits; XLA divides by another algorithm ((inf+1j) / 1j is inf-infj)

_PARTS = [0.0, -0.0, 1.0, -1.0, 3.0, -0.5, 1e150, -1e-150, INF, -INF, NAN]


def _same_parts(got, want, what):
    """Equal per part, zero signs included, NaN matching NaN."""
    got = onp.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        bad = ~(((g == w) & (onp.signbit(g) == onp.signbit(w))) |
                (onp.isnan(g) & onp.isnan(w)))
        assert not bad.any(), (what, got[bad][:4], want[bad][:4])


def _close_parts(got, want, rtol, what):
    """NaN and infinite parts where NumPy's are; the finite parts within
    ``rtol`` of NumPy's result's magnitude."""
    got = onp.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert (onp.isnan(g) == onp.isnan(w)).all(), what
        inf = onp.isinf(w)
        assert (onp.isinf(g) == inf).all() and (g[inf] == w[inf]).all(), what
        fin = onp.isfinite(w)
        assert (onp.abs(g[fin] - w[fin]) <= rtol * onp.abs(want[fin])).all(), what


def _complex_data(dt, n=4000):
    """Complex values with parts spread over many magnitudes (their quotients
    stay normal: XLA on a CPU flushes subnormal results to zero)."""
    def one():
        m = onp.exp(RNG.uniform(-40, 40, n))
        return (RNG.standard_normal(n) * m + 1j * RNG.standard_normal(n) * m).astype(dt)
    return one(), one()


@pytest.mark.parametrize("dt", ["complex64", _COMPLEX128])
def test_complex_division_is_numpys_loop_bit_for_bit(dt):
    z, w = _complex_data(dt)
    t = onp.dtype(dt).type
    cases = [
        ("arrays", lambda a, b: a / b, z / w),
        ("by a scalar", lambda a, b: a / t(w[3]), z / w[3]),
        ("by a Python complex", lambda a, b: np.divide(a, 0.3 - 1.7j), z / t(0.3 - 1.7j)),
        ("by a real array", lambda a, b: a / b.real, z / w.real),
        ("real over complex", lambda a, b: a.real / b, z.real / w),
        ("over", lambda a, b: (2 + 1j) / b, t(2 + 1j) / w),
        ("reciprocal", lambda a, b: np.reciprocal(b), onp.reciprocal(w)),
    ]
    a, b = np.asarray(z), np.asarray(w)
    for name, f, want in cases:
        if name in ("by a real array", "real over complex") and \
                jax.default_backend() != "cpu":
            # (real divisions: a TPU's float32 division is an ulp or two off)
            onp.testing.assert_allclose(onp.asarray(f(a, b)), want, rtol=2 ** -21)
        else:
            _assert_bits(f(a, b), want, name)
        # compiled, XLA may fuse a product into an addition: NumPy's up to rounding
        onp.testing.assert_allclose(onp.asarray(jax.jit(f)(a, b)), want,
                                    rtol=1e-5 if dt == "complex64" else 1e-14,
                                    err_msg=f"{name}, jax.jit")


@pytest.mark.parametrize("dt", ["complex64", _COMPLEX128])
def test_complex_division_special_values_are_numpys(dt):
    v = onp.array([complex(a, b) for a in _PARTS for b in _PARTS], dt)
    z, w = onp.meshgrid(v, v)
    with onp.errstate(all="ignore"):
        want, want_r = z / w, onp.reciprocal(v)
    a, b = np.asarray(z), np.asarray(w)
    _same_parts(a / b, want, "eager")
    _same_parts(np.reciprocal(np.asarray(v)), want_r, "reciprocal")
    # compiled, a product may fuse into the sum that uses it (docs/differences.md):
    # the infinities and NaNs are NumPy's, the finite parts NumPy's up to rounding
    rtol = 1e-6 if dt == "complex64" else 1e-15
    _close_parts(jax.jit(np.divide)(a, b), want, rtol, "jax.jit")
    _close_parts(jax.vmap(lambda p, q: np.divide(p, q).data)(z, w), want, rtol, "vmap")
    _close_parts(jax.jit(np.reciprocal)(np.asarray(v)), want_r, rtol, "reciprocal, jit")
    # (inf+infj) / 1j: NumPy's nan+nanj, where XLA's algorithm gives inf-infj
    got = complex(np.asarray(complex(INF, INF)) / 1j)
    assert onp.isnan(got.real) and onp.isnan(got.imag)


@pytest.mark.cpu_only("complex128 under jax.jit: a TPU has no implementation of it "
                     "(the capability table's TypeError, tests/frontend/test_dispatch.py)")
def test_compiled_complex_division_runs_again():
    """A jitted function dividing complex numbers runs a second time (through
    JAX's fast dispatch): the runtime zero is not captured as a constant."""
    z, w = _complex_data("complex128", 16)
    f = jax.jit(lambda a, b: (np.divide(a, b).data, np.reciprocal(b).data))
    for _ in range(3):
        q, r = f(jnp.asarray(z), jnp.asarray(w))
        onp.testing.assert_allclose(q, z / w, rtol=1e-14)
        onp.testing.assert_allclose(r, 1 / w, rtol=1e-14)


def test_complex_means_divide_as_numpy():
    """mean, nanmean and median divide a complex sum by the count as NumPy
    does (an infinite part makes the other NaN), physically, over a name and
    inside nmap."""
    x = onp.array([[complex(INF, INF), 1 + 2j, 3j],
                   [complex(INF, 1), 2 + 0j, complex(NAN, 1)],
                   [1 - 1j, complex(-INF, 2), 4 + 0j]])
    a = np.asarray(x)
    with onp.errstate(all="ignore"):
        # (not nanmedian along an axis: NumPy's masked-array path there gives NaN
        # for a slice with a NaN and an infinity, its 1-d path inf+nanj)
        for name, axes in (("mean", (None, 0, 1)), ("nanmean", (None, 0, 1)),
                           ("median", (None, 0, 1)), ("nanmedian", (None,))):
            for axis in axes:
                want = getattr(onp, name)(x, axis=axis)
                _same_parts(getattr(np, name)(a, axis=axis), onp.asarray(want),
                            f"{name}, axis={axis}")
        want = onp.mean(x, axis=0)
    named = a.tag("i", None)
    _same_parts(np.mean(named, axis="i"), want, "over a name")
    _same_parts(np.nmap(lambda v: np.mean(v, axis="i"))(named), want, "inside nmap")
    jitted = jax.jit(lambda v: np.mean(v, axis=0))
    if backends.cpu_only() or backends.status(backends.accelerator(), "any",
                                              "complex128") != backends.ABSENT:
        _same_parts(jitted(a), want, "jax.jit")
    else:       # (complex128 under jax.jit on a TPU: the capability table's error)
        with pytest.raises(TypeError, match="mean: TPU's XLA backend has no implementation"):
            jitted(a)


@pytest.mark.cpu_only("complex128 under jax.jit: a TPU has no implementation of it "
                     "(the capability table's TypeError, tests/frontend/test_dispatch.py)")
def test_complex_division_gradients_are_jax_divisions():
    """Derivatives of the complex division and reciprocal are JAX's, also for
    a divisor with a zero part (where the algorithm's unused branch divides by
    zero)."""
    z = jnp.asarray([1 + 2j, -3 + 0.5j, 2j])
    for w in (jnp.asarray([2 - 1j, 0.5 + 4j, 1 + 1j]), jnp.asarray([2 + 0j, 3j, -1 + 0j])):
        check_grads(lambda a, b: np.divide(a, b).data, (z, w), order=2,
                    modes=("fwd", "rev"))
        check_grads(lambda b: np.reciprocal(b).data, (w,), order=2, modes=("fwd", "rev"))
        f = lambda a, b: jnp.sum(jnp.abs(np.divide(a, b).data))             # noqa: E731
        g = lambda a, b: jnp.sum(jnp.abs(jnp.divide(a, b)))                  # noqa: E731
        for got, want in zip(jax.grad(f, (0, 1))(z, w), jax.grad(g, (0, 1))(z, w)):
            onp.testing.assert_allclose(got, want, rtol=1e-14)
    m = jax.grad(lambda v: jnp.abs(np.mean(v).data))(z)
    onp.testing.assert_allclose(m, jax.grad(lambda v: jnp.abs(jnp.mean(v)))(z), rtol=1e-14)


@pytest.mark.cpu_only("complex128 under jax.jit: a TPU has no implementation of it "
                     "(the capability table's TypeError, tests/frontend/test_dispatch.py)")
def test_mean_over_a_mapped_or_split_name_is_the_physical_mean():
    """A mean over a name bound by nmap, locally or split over a 4-device mesh,
    sums each instance's part and divides once, as the physical mean does
    (a complex infinity spreads NaN as there, not twice)."""
    x = RNG.standard_normal((8, 5)) + 1j * RNG.standard_normal((8, 5))
    x[3, 1] = complex(-INF, 2.0)
    x[5, 2] = complex(INF, INF)
    a = np.asarray(x).tag("i", "j")
    mesh = dict(mesh=make_mesh((4,), ("d",)), axis_resources={"i": "d"})
    for axis in ("i", ("i", "j")):
        want = onp.asarray(np.mean(a, axis=axis).untag(*[n for n in ("j",)
                                                          if axis == "i"]))
        with onp.errstate(all="ignore"):
            ref = onp.mean(x, axis=0 if axis == "i" else None)
        _close_parts(want, onp.asarray(ref), 1e-15, "physical")
        for kw in ({}, mesh):
            got = np.nmap(lambda v: np.mean(v, axis=axis), axes=("i",), **kw)(a)
            got = got.untag("j") if axis == "i" else got.data
            _close_parts(onp.asarray(got), onp.asarray(ref), 1e-14, f"nmap {kw and 'mesh'}")

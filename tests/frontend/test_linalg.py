"""namedarray.linalg against numpy.linalg: values, dtypes, result types, shapes
(batches and 0-size), named batch axes (= the function on each slice), errors.

Values come from a seeded NumPy generator (Hypothesis draws the seed, dtype and
shapes), so a few shapes recur and JAX's compile cache keeps the file fast.
"""
from __future__ import annotations

import math

import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as na
from support import traced_lacks

LA = onp.linalg
DTYPES = [onp.float32, onp.float64, onp.complex64, onp.complex128]
# the heavier tests draw from two dtypes (single/double, real/complex) and a
# few shapes, so that JAX's compile cache is hit and the file stays fast
DTYPES2 = st.sampled_from([onp.float32, onp.complex128])
BATCH = st.sampled_from([(), (2,), (0,), (1, 2)])
SIDE = st.sampled_from([0, 1, 2, 3])
BATCH2 = st.sampled_from([(), (2,)])
SIDE2 = st.sampled_from([0, 3])


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def rand(seed, dtype, shape):
    r = onp.random.default_rng(seed)
    a = r.standard_normal(shape)
    if onp.dtype(dtype).kind == "c":
        a = a + 1j * r.standard_normal(shape)
    return a.astype(dtype)


def well_conditioned(seed, dtype, shape):
    n = shape[-1]
    return (rand(seed, dtype, shape) + 2 * n * onp.eye(n)).astype(dtype)


def hermitian_pd(seed, dtype, shape):
    a = rand(seed, dtype, shape)
    h = a @ onp.swapaxes(a, -1, -2).conj()
    return (h + shape[-1] * onp.eye(shape[-1])).astype(dtype)


def tol(dtype):
    return 2e-3 if onp.dtype(dtype) in (onp.float32, onp.complex64) else 1e-9


def plain(x):
    """A positional NamedArray -> numpy (0-d results included)."""
    assert isinstance(x, na.NamedArray), type(x)
    assert not x.names, x.dims
    return onp.asarray(x)


def check(got, want, rtol, atol=None):
    """Same kind of result (namedtuple class included), dtypes, shapes, values."""
    if isinstance(want, tuple):
        assert type(got) is type(want), (type(got), type(want))
        for g, w in zip(got, want):
            check(g, w, rtol, atol)
        return
    g = plain(got)
    w = onp.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    onp.testing.assert_allclose(g, w, rtol=rtol, atol=rtol if atol is None else atol)


def named_slices(a, dims):
    """``a`` with leading axes named ``dims``; numpy slices along them."""
    return na.NamedArray(a, dims=tuple(dims) + (None,) * (a.ndim - len(dims)))


def unname(x, names):
    if isinstance(x, tuple):
        return type(x)(*[unname(v, names) for v in x])
    assert isinstance(x, na.NamedArray)
    assert set(x.names) == set(names), (x.dims, names)
    return x.untag(*names)


# --------------------------------------------------------------------------
# square-matrix functions, compared value by value
# --------------------------------------------------------------------------
SQUARE = {
    "inv": (well_conditioned, ()),
    "det": (well_conditioned, ()),
    "slogdet": (well_conditioned, ()),
    "eigvalsh": (hermitian_pd, ()),
    "cholesky": (hermitian_pd, ()),
    "matrix_power": (well_conditioned, (3,)),
    "svdvals": (rand, ()),
    "pinv": (well_conditioned, ()),
    "matrix_rank": (rand, ()),
    "norm": (rand, ()),
    "matrix_norm": (rand, ()),
    "trace": (rand, ()),
    "diagonal": (rand, ()),
    "matrix_transpose": (rand, ()),
}


@given(name=st.sampled_from(sorted(SQUARE)), dtype=st.sampled_from(DTYPES), batch=BATCH,
       n=SIDE, seed=st.integers(0, 2**16))
def test_square_functions_match_numpy(name, dtype, batch, n, seed):
    make, extra = SQUARE[name]
    a = make(seed, dtype, batch + (n, n))
    if name == "norm" and batch:
        a = a.reshape(math.prod(a.shape[:-1]), n)  # numpy.linalg.norm: 1-d or 2-d input
    want = getattr(LA, name)(a, *extra)
    got = getattr(na.linalg, name)(na.asarray(a), *extra)
    check(got, want, tol(dtype))


@given(name=st.sampled_from(["inv", "det", "eigvalsh", "cholesky", "svdvals", "pinv",
                             "matrix_norm", "diagonal"]),
       dtype=DTYPES2, seed=st.integers(0, 2**16))
def test_named_batch_axis_is_each_slice(name, dtype, seed):
    # NumPy's batched result on the stacked array is the function of each slice
    make, extra = SQUARE[name]
    a = make(seed, dtype, (3, 2, 2, 2))
    x = named_slices(a, ("b", "c"))
    got = unname(getattr(na.linalg, name)(x, *extra), ("b", "c"))
    check(got, getattr(LA, name)(a, *extra), tol(dtype))


@pytest.mark.parametrize("dtype", [onp.bool_, onp.int8, onp.uint8, onp.int32, onp.int64])
@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "eigvalsh", "svdvals", "pinv",
                                  "norm", "cond", "matrix_power"])
def test_integer_and_bool_inputs_are_cast_like_numpy(name, dtype):
    a = onp.array([[3, 1], [0, 2]]).astype(dtype)
    extra = (-1,) if name == "matrix_power" else ()
    check(getattr(na.linalg, name)(na.asarray(a), *extra), getattr(LA, name)(a, *extra), 1e-9)


def test_matrix_power_of_ints_stays_int():
    a = onp.array([[1, 2], [3, 4]], dtype=onp.int8)
    for n in (0, 1, 3):
        check(na.linalg.matrix_power(na.asarray(a), n), LA.matrix_power(a, n), 0)


# --------------------------------------------------------------------------
# solve, lstsq, tensor functions, products
# --------------------------------------------------------------------------
@given(dtype=DTYPES2, batch=st.sampled_from([(), (2,), (0,)]), n=SIDE2,
       k=st.sampled_from([None, 2]), seed=st.integers(0, 2**16))
def test_solve(dtype, batch, n, k, seed):
    a = well_conditioned(seed, dtype, batch + (n, n))
    b = rand(seed + 1, dtype, (n,) if k is None else batch + (n, k))
    check(na.linalg.solve(na.asarray(a), na.asarray(b)), LA.solve(a, b), tol(dtype))


@given(dtype=DTYPES2, seed=st.integers(0, 2**16))
def test_solve_named_batch_on_one_or_both(dtype, seed):
    k = 2
    a = well_conditioned(seed, dtype, (3, 2, 2))
    b = rand(seed + 1, dtype, (3, 2, k))
    want = LA.solve(a, b)
    both = na.linalg.solve(named_slices(a, "b"), named_slices(b, "b"))
    check(unname(both, ("b",)), want, tol(dtype))
    # a named, b positional: b broadcasts against every slice of a
    one = na.linalg.solve(named_slices(a, "b"), na.asarray(b[0]))
    check(unname(one, ("b",)), LA.solve(a, b[0]), tol(dtype))


@given(dtype=DTYPES2, mn=st.sampled_from([(4, 2), (2, 4), (0, 2)]),
       vec=st.booleans(), seed=st.integers(0, 2**16))
def test_lstsq(dtype, mn, vec, seed):
    a = rand(seed, dtype, mn)
    b = rand(seed + 1, dtype, mn[:1] if vec else mn[:1] + (2,))
    want = LA.lstsq(a, b)
    got = na.linalg.lstsq(na.asarray(a), na.asarray(b))
    assert type(got) is tuple and len(got) == 4
    for g, w in zip(got, want):
        check(g, w, 10 * tol(dtype))


def test_lstsq_rank_deficient_has_empty_residuals_like_numpy():
    a = onp.ones((4, 2))
    b = onp.arange(4.0)
    for g, w in zip(na.linalg.lstsq(na.asarray(a), na.asarray(b)), LA.lstsq(a, b)):
        check(g, w, 1e-9)


@pytest.mark.parametrize("da, db", [(onp.float32, onp.bool_), (onp.float32, onp.int8),
                                    (onp.complex64, onp.bool_), (onp.bool_, onp.float32),
                                    (onp.float32, onp.float32)])
@pytest.mark.parametrize("sa", [(0, 0), (3, 2), (2, 3)])
def test_lstsq_dtypes_are_numpy_s_common_type(da, db, sa):
    # a non-inexact operand makes NumPy's common type float64: residuals and
    # singular values too, not only the solution
    a, b = onp.ones(sa, da), onp.arange(sa[0]).astype(db)
    for g, w in zip(na.linalg.lstsq(na.asarray(a), na.asarray(b)), LA.lstsq(a, b)):
        assert onp.asarray(g).dtype == w.dtype and onp.shape(g) == w.shape


def test_lstsq_named_batch():
    a = rand(0, onp.float64, (3, 5, 2))
    b = rand(1, onp.float64, (3, 5))
    x, resid, rank, s = na.linalg.lstsq(named_slices(a, "b"), named_slices(b, "b"))
    for i in range(3):
        w = LA.lstsq(a[i], b[i])
        check(x.untag("b")[i], w[0], 1e-9)
        check(resid.untag("b")[i], w[1], 1e-9)
        check(rank.untag("b")[i], w[2], 0)
        check(s.untag("b")[i], w[3], 1e-9)


@given(dtype=DTYPES2, seed=st.integers(0, 2**16))
def test_tensorinv_tensorsolve(dtype, seed):
    a = well_conditioned(seed, dtype, (6, 6)).reshape(2, 3, 6)
    check(na.linalg.tensorinv(na.asarray(a), ind=2), LA.tensorinv(a, ind=2), tol(dtype))
    b = rand(seed + 1, dtype, (2, 3))
    check(na.linalg.tensorsolve(na.asarray(a), na.asarray(b)), LA.tensorsolve(a, b),
          tol(dtype))


@given(dtype=DTYPES2, seed=st.integers(0, 2**16))
def test_products(dtype, seed):
    u, v = rand(seed, dtype, (3,)), rand(seed + 1, dtype, (4,))
    check(na.linalg.outer(na.asarray(u), na.asarray(v)), LA.outer(u, v), tol(dtype))
    a, b = rand(seed, dtype, (2, 3)), rand(seed + 1, dtype, (2, 3))
    check(na.linalg.cross(na.asarray(a), na.asarray(b)), LA.cross(a, b), tol(dtype))
    ms = [rand(seed + i, dtype, s) for i, s in enumerate([(2, 3), (3, 4), (4, 2)])]
    check(na.linalg.multi_dot([na.asarray(m) for m in ms]), LA.multi_dot(ms), tol(dtype))


# --------------------------------------------------------------------------
# decompositions: NumPy's namedtuples, checked by reconstruction where the
# factors are only unique up to phases
# --------------------------------------------------------------------------
def close(x, y, dtype):
    onp.testing.assert_allclose(x, y, rtol=10 * tol(dtype), atol=10 * tol(dtype))


def kinds(got, want):
    """Same result class and, field by field, the same dtype and shape."""
    assert type(got) is type(want), (type(got), type(want))
    for g, w in zip(got, want):
        assert isinstance(g, na.NamedArray)
        assert (g.dtype, g.shape) == (onp.asarray(w).dtype, onp.shape(w))


def H(x):
    return onp.swapaxes(x, -1, -2).conj()


@given(dtype=DTYPES2, batch=BATCH2, n=SIDE2, seed=st.integers(0, 2**16),
       uplo=st.sampled_from(["L", "U"]))
def test_eigh(dtype, batch, n, seed, uplo):
    # only the UPLO triangle is read, as in NumPy: perturb the other one
    a = hermitian_pd(seed, dtype, batch + (n, n))
    junk = rand(seed + 1, dtype, a.shape)
    a = a + (onp.triu(junk, 1) if uplo == "L" else onp.tril(junk, -1))
    want = LA.eigh(a, UPLO=uplo)
    got = na.linalg.eigh(na.asarray(a), UPLO=uplo)
    kinds(got, want)
    w, v = plain(got.eigenvalues), plain(got.eigenvectors)
    close(w, want.eigenvalues, dtype)
    full = LA.eigh(a, UPLO=uplo).eigenvectors @ (want.eigenvalues[..., None] * H(
        want.eigenvectors))
    close(v @ (w[..., None] * H(v)), full, dtype)
    check(na.linalg.eigvalsh(na.asarray(a), UPLO=uplo), LA.eigvalsh(a, UPLO=uplo), tol(dtype))


@given(dtype=DTYPES2, batch=BATCH2, n=SIDE2, seed=st.integers(0, 2**16),
       upper=st.booleans())
def test_cholesky_reads_one_triangle(dtype, batch, n, seed, upper):
    a = hermitian_pd(seed, dtype, batch + (n, n))
    junk = rand(seed + 1, dtype, a.shape)
    a = a + (onp.tril(junk, -1) if upper else onp.triu(junk, 1))
    check(na.linalg.cholesky(na.asarray(a), upper=upper), LA.cholesky(a, upper=upper),
          tol(dtype))


@given(dtype=DTYPES2, batch=BATCH2, mn=st.sampled_from([(3, 2), (2, 3), (0, 2)]),
       seed=st.integers(0, 2**16), full=st.booleans())
def test_svd(dtype, batch, mn, seed, full):
    a = rand(seed, dtype, batch + mn)
    want = LA.svd(a, full_matrices=full)
    got = na.linalg.svd(na.asarray(a), full_matrices=full)
    kinds(got, want)
    u, s, vh = (plain(v) for v in got)
    close(s, want.S, dtype)
    k = min(mn)
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype)
    check(na.linalg.svd(na.asarray(a), compute_uv=False), LA.svd(a, compute_uv=False),
          tol(dtype))


@given(dtype=DTYPES2, batch=BATCH2, mn=st.sampled_from([(3, 2), (2, 3), (0, 2)]),
       seed=st.integers(0, 2**16), mode=st.sampled_from(["reduced", "complete", "r", "raw"]))
def test_qr(dtype, batch, mn, seed, mode):
    if mode == "raw":
        batch = ()
    a = rand(seed, dtype, batch + mn)
    want = LA.qr(a, mode=mode)
    got = na.linalg.qr(na.asarray(a), mode=mode)
    if mode == "r":
        check(got, want, 10 * tol(dtype))  # LAPACK's geqrf on both sides
        return
    kinds(got, want)
    if mode == "raw":
        for g, w in zip(got, want):
            close(plain(g), w, dtype)
        return
    q, r = plain(got.Q), plain(got.R)
    close(q @ r, a, dtype)
    close(H(q) @ q, onp.broadcast_to(onp.eye(q.shape[-1]), H(q).shape[:-1] + (q.shape[-1],)),
          dtype)
    close(onp.tril(r, -1), 0 * r, dtype)


def match_sets(x, y, dtype):
    """Every value of y has a value of x nearby (eigenvalues in any order)."""
    if not onp.size(y):
        return
    x, y = onp.asarray(x).reshape(-1, x.shape[-1]), onp.asarray(y).reshape(-1, y.shape[-1])
    for xi, yi in zip(x, y):
        d = onp.abs(xi[:, None] - yi[None, :])
        assert (d.min(axis=0) <= 20 * tol(dtype) * (1 + onp.abs(yi))).all(), (xi, yi)


@given(dtype=DTYPES2, batch=BATCH2, n=SIDE2, seed=st.integers(0, 2**16),
       symmetric=st.booleans())
def test_eig_and_eigvals(dtype, batch, n, seed, symmetric):
    a = well_conditioned(seed, dtype, batch + (n, n))
    if symmetric:  # real eigenvalues: NumPy returns real arrays for real input
        a = (a + H(a)) / 2
    want = LA.eig(a)
    got = na.linalg.eig(na.asarray(a))
    kinds(got, want)
    w, v = plain(got.eigenvalues), plain(got.eigenvectors)
    match_sets(w, want.eigenvalues, dtype)
    close(a @ v, v * w[..., None, :], dtype)
    wv = na.linalg.eigvals(na.asarray(a))
    assert plain(wv).dtype == LA.eigvals(a).dtype
    match_sets(plain(wv), LA.eigvals(a), dtype)


def test_eig_named_batch_real_when_all_real():
    a = onp.stack([onp.diag([1.0, 2.0]), onp.array([[2.0, 1.0], [1.0, 2.0]])])
    w = na.linalg.eigvals(named_slices(a, "b"))
    assert w.dtype == LA.eigvals(a).dtype == onp.float64
    rot = onp.stack([onp.eye(2), onp.array([[0.0, -1.0], [1.0, 0.0]])])
    w = na.linalg.eigvals(named_slices(rot, "b"))
    assert w.dtype == LA.eigvals(rot).dtype == onp.complex128
    match_sets(w.untag("b"), LA.eigvals(rot), onp.float64)


@given(name=st.sampled_from(["svd", "eigh", "qr", "slogdet"]), dtype=DTYPES2,
       seed=st.integers(0, 2**16))
def test_named_batch_namedtuples(name, dtype, seed):
    a = hermitian_pd(seed, dtype, (3, 2, 2))
    got = getattr(na.linalg, name)(named_slices(a, "b"))
    want = getattr(LA, name)(a)
    assert type(got) is type(want)
    for g in got:
        assert isinstance(g, na.NamedArray) and g.named_shape == {"b": 3}
    for i in range(3):
        one = getattr(na.linalg, name)(na.asarray(a[i]))
        for g, o in zip(got, one):
            close(plain(g.untag("b"))[i], plain(o), dtype)


# --------------------------------------------------------------------------
# norms, cond, rank, pinv
# --------------------------------------------------------------------------
@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, onp.inf, -onp.inf])
def test_matrix_norm_and_cond_orders(ord):
    dtype, seed = onp.complex128, 0
    a = well_conditioned(seed, dtype, (3, 3))
    check(na.linalg.norm(na.asarray(a), ord), LA.norm(a, ord), tol(dtype))
    check(na.linalg.cond(na.asarray(a), ord), LA.cond(a, ord), 10 * tol(dtype))
    if ord is not None:
        check(na.linalg.matrix_norm(na.asarray(a), ord=ord), LA.matrix_norm(a, ord=ord),
              tol(dtype))


@given(dtype=DTYPES2, seed=st.integers(0, 2**16),
       ord=st.sampled_from([None, 0, 1, -1, 2, 3, onp.inf, -onp.inf]),
       axis=st.sampled_from([None, 0, 1, -1, (0, 1)]), keepdims=st.booleans())
def test_vector_norm(dtype, seed, ord, axis, keepdims):
    a = rand(seed, dtype, (3, 4))
    kw = dict(axis=axis, keepdims=keepdims) if ord is None else dict(
        axis=axis, keepdims=keepdims, ord=ord)
    check(na.linalg.vector_norm(na.asarray(a), **kw), LA.vector_norm(a, **kw), tol(dtype))
    if axis is not None and not isinstance(axis, tuple):
        check(na.linalg.norm(na.asarray(a), ord, axis, keepdims), LA.norm(a, ord, axis, keepdims),
              tol(dtype))


@given(dtype=DTYPES2, seed=st.integers(0, 2**16), ord=st.sampled_from([1, 2]))
def test_norm_over_a_named_axis_equals_the_physical_one(dtype, seed, ord):
    a = rand(seed, dtype, (3, 4))
    x = na.asarray(a).tag("k", None)
    check(na.linalg.vector_norm(x, axis="k", ord=ord), LA.vector_norm(a, axis=0, ord=ord),
          tol(dtype))
    check(na.linalg.norm(x, ord, "k"), LA.norm(a, ord, 0), tol(dtype))


@pytest.mark.parametrize("ord", [1, onp.inf, "fro"])
@pytest.mark.parametrize("axis,phys", [(("r", 0), (1, 0)), ((0, "r"), (0, 1))])
def test_matrix_norm_over_names_keeps_row_column_order(ord, axis, phys):
    a = rand(0, onp.float64, (3, 4, 2))
    x = na.NamedArray(a, dims=(None, "r", None))  # positional (3, 2); r = physical 1
    check(na.linalg.norm(x, ord, axis), LA.norm(a, ord, phys), 1e-12)
    check(na.linalg.vector_norm(x, axis=axis), LA.vector_norm(a, axis=phys), 1e-12)


@given(dtype=DTYPES2, seed=st.integers(0, 2**16), rank=st.sampled_from([0, 1, 2]))
def test_matrix_rank_and_pinv_of_rank_deficient(dtype, seed, rank):
    u, v = rand(seed, dtype, (4, rank)), rand(seed + 1, dtype, (rank, 3))
    a = (u @ v).astype(dtype)
    check(na.linalg.matrix_rank(na.asarray(a)), LA.matrix_rank(a), 0)
    check(na.linalg.matrix_rank(na.asarray(a), hermitian=False, rtol=0.5),
          LA.matrix_rank(a, rtol=0.5), 0)
    check(na.linalg.pinv(na.asarray(a), 1e-5), LA.pinv(a, 1e-5), 10 * tol(dtype))
    check(na.linalg.pinv(na.asarray(a), rtol=1e-5), LA.pinv(a, rtol=1e-5), 10 * tol(dtype))
    check(na.linalg.pinv(na.asarray(a), rtol=None), LA.pinv(a, rtol=None), 10 * tol(dtype))
    check(na.linalg.matrix_rank(na.asarray(a), 1e-3), LA.matrix_rank(a, 1e-3), 0)


def test_matrix_rank_of_vectors_and_empty():
    for a in (onp.zeros(3), onp.ones(3)):    # NumPy's Python int
        got, want = na.linalg.matrix_rank(na.asarray(a)), LA.matrix_rank(a)
        assert type(got) is type(want) is int and got == want
    for a in (onp.zeros((0, 0)), onp.zeros((2, 0, 3))):
        check(na.linalg.matrix_rank(na.asarray(a)), LA.matrix_rank(a), 0)


# --------------------------------------------------------------------------
# errors and the documented differences
# --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "eig", "eigvals", "eigh",
                                  "eigvalsh", "cholesky"])
def test_non_square_and_1d_raise_linalgerror(name):
    with pytest.raises(na.linalg.LinAlgError, match=rf"^{name}: .*square.*\(2, 3\)"):
        getattr(na.linalg, name)(na.ones((2, 3)))
    with pytest.raises(na.linalg.LinAlgError, match=rf"^{name}: 1-dimensional .*'a'"):
        getattr(na.linalg, name)(na.ones(3))
    for bad in (onp.ones((2, 3)), onp.ones(3)):
        with pytest.raises(LA.LinAlgError):
            getattr(LA, name)(bad)
    assert issubclass(na.linalg.LinAlgError, ValueError)


def test_non_square_with_named_batch_raises():
    x = na.ones((2, 2, 3)).tag("b", None, None)
    with pytest.raises(na.linalg.LinAlgError, match=r"square.*\(2, 3\)"):
        na.linalg.inv(x)


@pytest.mark.parametrize("name", ["inv", "det", "svd", "qr", "eigh", "solve"])
def test_float16_is_refused_like_numpy(name):
    a = onp.eye(2, dtype=onp.float16)
    args = (a, a) if name == "solve" else (a,)
    with pytest.raises(TypeError):
        getattr(LA, name)(*args)
    with pytest.raises(TypeError, match=rf"^{name}: array type float16 is unsupported"):
        getattr(na.linalg, name)(*[na.asarray(v) for v in args])


def test_argument_errors():
    with pytest.raises(ValueError, match="^eigh: UPLO argument must be 'L' or 'U', got 'X'"):
        na.linalg.eigh(na.eye(2), UPLO="X")
    with pytest.raises(ValueError, match="^pinv: `rtol` and `rcond` can't be both set."):
        na.linalg.pinv(na.eye(2), 1e-3, rtol=1e-3)
    with pytest.raises(na.linalg.LinAlgError, match=r"^cond: cond is not defined on empty"):
        na.linalg.cond(na.zeros((0, 0)))
    with pytest.raises(LA.LinAlgError):
        LA.cond(onp.zeros((0, 0)))
    with pytest.raises(na.linalg.LinAlgError, match=r"^lstsq: argument 'a' must be two-dim"):
        na.linalg.lstsq(na.ones((2, 2, 2)), na.ones((2, 2)))
    x = na.ones((3, 2)).tag(None, "k")
    with pytest.raises(ValueError, match="^cross: axis='k' names an axis, but this function"):
        na.linalg.cross(x, x, axis="k")


@pytest.mark.parametrize("name", ["inv", "solve", "tensorinv", "tensorsolve",
                                  "matrix_power"])
def test_singular_raises_eagerly_and_is_non_finite_under_jit(name):
    a = onp.array([[1.0, 2.0], [2.0, 4.0]])
    args = {"solve": (a, onp.ones(2)), "tensorsolve": (a, onp.ones(2)),
            "matrix_power": (a, -1)}.get(name, (a,))
    kw = {"ind": 1} if name == "tensorinv" else {}
    with pytest.raises(LA.LinAlgError, match="Singular matrix"):
        getattr(LA, name)(*args, **kw)
    ours = [na.asarray(v) if isinstance(v, onp.ndarray) else v for v in args]
    with pytest.raises(LA.LinAlgError, match=f"{name}: Singular matrix"):
        getattr(na.linalg, name)(*ours, **kw)
    arrays = [v for v in ours if isinstance(v, na.NamedArray)]
    rest = ours[len(arrays):]
    jitted = jax.jit(lambda *v: getattr(na.linalg, name)(*v, *rest, **kw))
    if traced_lacks("lu", onp.float64):     # (an accelerator: float64 LU is absent)
        with pytest.raises(TypeError, match=f"^{name}: .* no implementation of lu"):
            jitted(*arrays)
    else:
        assert not onp.isfinite(plain(jitted(*arrays))).all()
    # non-finite input is not a LAPACK failure: NumPy gives non-finite values
    assert not onp.isfinite(plain(na.linalg.inv(na.asarray([[onp.nan]])))).all()


@pytest.mark.parametrize("name, bad, msg", [
    ("svd", onp.nan, "SVD did not converge"), ("svdvals", onp.nan, "SVD did not converge"),
    ("pinv", onp.nan, "SVD did not converge"), ("matrix_rank", onp.nan, "SVD did not converge"),
    ("cond", onp.nan, "SVD did not converge"),
    ("eig", onp.inf, "Array must not contain infs or NaNs"),
    ("eigvals", onp.nan, "Array must not contain infs or NaNs"),
    ("lstsq", onp.inf, "SVD did not converge in Linear Least Squares"),
])
def test_input_lapack_refuses_raises_eagerly(name, bad, msg):
    """NumPy's LAPACK calls refuse a NaN matrix (an SVD), a non-finite one
    (eig, lstsq): eager calls raise its LinAlgError, traced ones give NaN."""
    a = onp.array([[1.0, bad], [0.0, 1.0]])
    args = (a, onp.ones(2)) if name == "lstsq" else (a,)
    with pytest.raises(LA.LinAlgError, match=msg):
        getattr(LA, name)(*args)
    ours = [na.asarray(v) for v in args]
    with pytest.raises(LA.LinAlgError, match=f"^{name}: {msg}"):
        getattr(na.linalg, name)(*ours)
    if name not in ("lstsq", "eig", "matrix_rank"):
        family = "eig" if name == "eigvals" else "svd"
        if traced_lacks(family, onp.float64):
            with pytest.raises(TypeError, match=f"^{name}: .* no implementation of {family}"):
                jax.jit(getattr(na.linalg, name))(ours[0])
            return
        r = jax.jit(getattr(na.linalg, name))(ours[0])
        assert not onp.isfinite(plain(r.S if name == "svd" else r)).all()


def test_cholesky_not_positive_definite_raises_eagerly():
    a = -onp.eye(2)
    with pytest.raises(LA.LinAlgError, match="Matrix is not positive definite"):
        LA.cholesky(a)
    with pytest.raises(LA.LinAlgError, match="cholesky: Matrix is not positive definite"):
        na.linalg.cholesky(na.asarray(a))
    assert onp.isnan(plain(jax.jit(na.linalg.cholesky)(na.asarray(a)))).any()


_POLY_CASES = [[], [0], [True, True, False], [3], [0, 2, 1], [1, -3, 2], [2, 0, 0, 1]]


@pytest.mark.parametrize("dt", [onp.bool_, onp.int8, onp.int64, onp.float32, onp.float64,
                                onp.complex64])
@pytest.mark.parametrize("p", _POLY_CASES, ids=str)
def test_polynomials_are_numpys(dt, p):
    """polyadd/sub/mul of any 1-d (or 0-d) coefficients, polyder/polyint in
    NumPy's dtypes (int64 range arithmetic), polydiv's dtypes and trimming,
    roots real when all are real, poly real for conjugate pairs."""
    a = onp.array(p).astype(dt)
    b = onp.array([1, 2]).astype(dt)
    calls = [("polyadd", (a, b)), ("polymul", (a, b)), ("polyder", (a,)),
             ("polyder", (a, 2)), ("polyint", (a,)), ("polyint", (a, 0)),
             ("polydiv", (a, onp.array([2.0, 1.0], onp.float32))), ("roots", (a,)),
             ("poly", (a,)), ("polyadd", (a[:1].reshape(()) if a.size else a, b))]
    if dt is not onp.bool_:
        calls.append(("polysub", (a, b)))
    for name, args in calls:
        with onp.errstate(all="ignore"):
            try:
                exp = getattr(onp, name)(*args)
            except Exception as e:
                with pytest.raises(type(e).__mro__[1] if type(e).__module__ != "builtins"
                                   else type(e)):
                    getattr(na, name)(*[na.asarray(v) if isinstance(v, onp.ndarray) else v
                                        for v in args])
                continue
        got = getattr(na, name)(*[na.asarray(v) if isinstance(v, onp.ndarray) else v
                                  for v in args])
        for g, e in zip(got, exp) if name == "polydiv" else [(got, exp)]:
            if type(e) is float:        # poly of no roots: NumPy's Python 1.0
                assert type(g) is float and g == e, (name, args)
                continue
            e = onp.asarray(e)
            assert (g.dtype, g.shape) == (e.dtype, e.shape), (name, args)
            if name == "roots":
                g, e = (onp.sort_complex(onp.round(onp.asarray(v), 4)) for v in (g, e))
            onp.testing.assert_allclose(onp.asarray(g), e, rtol=1e-4, atol=1e-6)


def test_roots_and_poly_of_conjugate_pairs_are_real():
    assert na.roots(na.asarray([1.0, -3.0, 2.0])).dtype == onp.float64
    assert na.roots(na.asarray([1.0, 0.0, 1.0])).dtype == onp.complex128
    assert na.poly(na.asarray([1j, -1j])).tolist() == [1.0, 0.0, 1.0]
    with pytest.raises(TypeError, match="roots: p must be a sequence"):
        na.roots(na.asarray(2.0))

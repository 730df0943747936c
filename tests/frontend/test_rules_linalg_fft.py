"""The shared rules of ``namedarray.linalg`` and ``namedarray.fft`` against
NumPy, as NumPy's own unit tests check them: arguments by keyword, NumPy's
error classes and wording (named by the function), ``UPLO`` in either case,
``lstsq``'s ``rcond`` as LAPACK reads it, the Hermitian SVD of a singular
matrix, the FFT's ``s``/``axes``/``out`` contract."""
import warnings

import jax
import numpy as onp
import pytest

import namedarray as np
from namedarray.frontend.engines import host

LA = onp.linalg


# -- linalg ------------------------------------------------------------------
def test_arrays_by_keyword():
    a = onp.eye(24).reshape(4, 6, 8, 3)
    r = np.linalg.tensorinv(a=np.asarray(a), ind=2)
    assert r.shape == LA.tensorinv(a=a, ind=2).shape == (8, 3, 4, 6)
    b = onp.ones(4)
    m = onp.eye(4) * 2
    onp.testing.assert_allclose(onp.asarray(np.linalg.solve(a=m, b=b)), LA.solve(m, b))


@pytest.mark.parametrize("ind", [0, -2])
def test_tensorinv_ind(ind):
    with pytest.raises(ValueError, match=r"^tensorinv: Invalid ind argument"):
        np.linalg.tensorinv(np.eye(24).reshape(4, 6, 8, 3), ind=ind)


def test_tensorsolve_axes_checked_after_moving():
    with pytest.raises(np.linalg.LinAlgError, match=r"^tensorsolve: Input arrays must"):
        np.linalg.tensorsolve(np.ones((3, 3, 2)), np.ones((3, 3)), axes=(0, 2))


@pytest.mark.parametrize("fn", ["matrix_transpose", "diagonal", "trace"])
def test_core_functions_1d_value_error(fn):
    with pytest.raises(ValueError, match="array must be at least 2-dimensional") as e:
        getattr(np.linalg, fn)(np.arange(3.0))
    assert e.type is ValueError and str(e.value).startswith(f"{fn}: ")
    with pytest.raises(ValueError):
        getattr(LA, fn)(onp.arange(3.0))


@pytest.mark.parametrize("fn", ["inv", "det", "svd", "qr", "pinv", "cond"])
def test_lapack_1d_linalg_error(fn):
    with pytest.raises(np.linalg.LinAlgError,
                       match=rf"^{fn}: 1-dimensional array given. Array must be at least "
                             "two-dimensional"):
        getattr(np.linalg, fn)(np.arange(3.0))


def test_square_message():
    with pytest.raises(np.linalg.LinAlgError,
                       match="^inv: Last 2 dimensions of the array must be square"):
        np.linalg.inv(np.ones((2, 3)))


def test_both_tolerances_refused():
    a = np.ones((2, 2))
    with pytest.raises(ValueError, match=r"^pinv: `rtol` and `rcond` can't be both set."):
        np.linalg.pinv(a, rcond=0.5, rtol=0.5)
    with pytest.raises(ValueError,
                       match=r"^matrix_rank: `tol` and `rtol` can't be both set."):
        np.linalg.matrix_rank(a, tol=0.5, rtol=0.5)


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
def test_uplo_either_case(fn):
    k = onp.array([[0.0, 1.0], [0.0, 0.0]])
    for uplo in ("u", "U"):
        e = getattr(LA, fn)(k, UPLO=uplo)
        r = getattr(np.linalg, fn)(np.asarray(k), UPLO=uplo)
        onp.testing.assert_allclose(onp.asarray(r[0] if fn == "eigh" else r),
                                    e[0] if fn == "eigh" else e)
    with pytest.raises(ValueError, match=f"^{fn}: UPLO argument must be 'L' or 'U'"):
        getattr(np.linalg, fn)(np.asarray(k), "lower")


def test_lstsq_incompatible():
    a = np.ones((4, 2))
    with pytest.raises(np.linalg.LinAlgError, match="^lstsq: Incompatible dimensions"):
        np.linalg.lstsq(a, np.ones(5))


@pytest.mark.parametrize("rcond, rank", [(-1, 4), (0, 4), (0.5, 2), (1, 4), (2, 4),
                                         (None, 3)])
def test_lstsq_rcond_as_lapack(rcond, rank):
    """LAPACK's gelsd reads an rcond <= 0 or >= 1 as the machine epsilon, and
    None is NumPy's max(M, N) * eps.  The singular values (4, 3, 1, 1e-14) are
    far from every threshold, so the rank is no platform's rounding (a matrix
    whose least singular value is at the rounding level, ~5e-16, has the rank
    the CPU's LAPACK kernel happens to give)."""
    rng = onp.random.default_rng(0)
    u, _ = onp.linalg.qr(rng.standard_normal((100, 4)))
    v, _ = onp.linalg.qr(rng.standard_normal((4, 4)))
    a, b = (u * [4.0, 3.0, 1.0, 1e-14]) @ v.T, rng.standard_normal(100)
    assert LA.lstsq(a, b, rcond=rcond)[2] == rank
    assert int(np.linalg.lstsq(np.asarray(a), np.asarray(b), rcond=rcond)[2]) == rank
    traced = jax.jit(lambda x, y: np.linalg.lstsq(x, y, rcond=rcond)[2])
    assert int(traced(np.asarray(a), np.asarray(b))) == rank


def test_lstsq_on_the_host_is_numpys():
    """Eager ``lstsq`` of data living on the host is NumPy's own (its LAPACK):
    the same solution, residuals, singular values and rank, also for NumPy's
    test matrix whose least singular value is at the rounding level (rank 4
    for rcond=-1 with this machine's LAPACK, which a compiled SVD may count
    as 3: a documented difference of compiled linear algebra)."""
    a = onp.array([[0., 1., 0., 1., 2., 0.], [0., 2., 0., 0., 1., 0.],
                   [1., 0., 1., 0., 0., 4.], [0., 0., 0., 2., 3., 0.]]).T
    b = onp.array([1, 0, 0, 0, 0, 0])
    if not host.ENABLED:
        pytest.skip("the host tier is off")
    for rcond in (-1, None, 0.5):
        got = np.linalg.lstsq(np.asarray(a), np.asarray(b), rcond=rcond)
        want = LA.lstsq(a, b, rcond=rcond)
        for g, w in zip(got, want):
            assert onp.asarray(g).dtype == onp.asarray(w).dtype
            assert onp.asarray(g).tobytes() == onp.asarray(w).tobytes()


def test_svd_hermitian_singular_unitary():
    x = onp.array([[1.0, 0.0], [0.0, 0.0]])
    u, s, vh = np.linalg.svd(np.asarray(x), hermitian=True)
    eu, es, evh = LA.svd(x, hermitian=True)
    for r, e in ((u, eu), (s, es), (vh, evh)):
        onp.testing.assert_allclose(onp.asarray(r), e)
    onp.testing.assert_allclose(onp.asarray(vh @ vh.T.conj()), onp.eye(2))


@pytest.mark.parametrize("axis", [(0, 0), (-3, 0)])
@pytest.mark.parametrize("ord", [None, 2, "fro", -1])
def test_norm_duplicate_axes(axis, ord):
    with pytest.raises(ValueError, match=r"^norm: Duplicate axes given."):
        np.linalg.norm(np.ones((2, 3, 4)), ord=ord, axis=axis)


def test_norm_axis_count():
    with pytest.raises(ValueError, match=r"^norm: Improper number of dimensions to norm."):
        np.linalg.norm(np.ones((2, 3, 4)), axis=(0, 1, 2))


def test_cross_of_lists():
    assert onp.array_equal(onp.asarray(np.linalg.cross([1, 2, 3], [4, 5, 6])),
                           LA.cross([1, 2, 3], [4, 5, 6]))


# -- fft ---------------------------------------------------------------------
def test_fft_invalid_points_wording():
    with pytest.raises(ValueError,
                       match=r"^ifft: Invalid number of FFT data points \(0\) specified."):
        np.fft.ifft([])


@pytest.mark.parametrize("op", ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn"])
def test_fft_s_minus_one(op):
    x = onp.arange(100.0).reshape(10, 10)
    r = getattr(np.fft, op)(np.asarray(x), s=(-1, 5), axes=(0, 1))
    e = getattr(onp.fft, op)(x, s=(-1, 5), axes=(0, 1))
    assert r.shape == e.shape and r.dtype == e.dtype
    onp.testing.assert_allclose(onp.asarray(r), e, atol=1e-9)


@pytest.mark.parametrize("op", ["fftn", "rfftn", "irfftn", "fft2"])
def test_fft_s_deprecations(op):
    x = np.ones((4, 6))
    if op != "fft2":
        with pytest.warns(DeprecationWarning, match="`axes` should not be `None` if `s`"):
            getattr(np.fft, op)(x, s=(4, 6))
    with pytest.warns(DeprecationWarning, match="array containing `None` values to `s`"):
        r = getattr(np.fft, op)(x, s=(3, None), axes=(0, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = getattr(onp.fft, op)(onp.ones((4, 6)), s=(3, None), axes=(0, 1))
    assert r.shape == e.shape


@pytest.mark.parametrize("op", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("axes,s", [((0, 0, 1), None), ((1, 2, 1), (3, 4, 6))])
def test_fft_repeated_axes(op, axes, s):
    x = onp.random.default_rng(0).standard_normal((6, 4, 5))
    r = getattr(np.fft, op)(np.asarray(x), s=s, axes=axes)
    e = getattr(onp.fft, op)(x, s=s, axes=axes)
    assert r.shape == e.shape and r.dtype == e.dtype
    onp.testing.assert_allclose(onp.asarray(r), e, atol=1e-9)


def test_fft_out_contract():
    x = np.arange(30.0)
    with pytest.raises(TypeError, match="^fft: return arrays must be of ArrayType"):
        np.fft.fft(x, out="")
    with pytest.raises(ValueError, match="^fft: output array has wrong shape"):
        np.fft.fft(x, out=np.zeros((5, 6), complex))
    with pytest.raises(TypeError, match="^fft: Cannot cast"):
        np.fft.fft(x, out=np.zeros(30))
    with pytest.raises(ValueError, match="^fftn: output array has wrong shape"):
        np.fft.fftn(np.ones((10, 5, 6)), out=np.zeros((10, 5, 6), complex), s=(3, 3, 3),
                    axes=(0, 1, 2))
    o = np.zeros(30, complex)
    assert np.fft.fft(x, out=o) is o
    onp.testing.assert_allclose(onp.asarray(o), onp.fft.fft(onp.arange(30.0)), atol=1e-9)

"""``numpy.linalg`` over NamedArrays: named axes are batch axes (mapped over).

>>> import namedarray as np
>>> a = np.stack([np.eye(2), 2 * np.eye(2)], axis="b")
>>> np.linalg.det(a).named_shape
{'b': 2}

Every function is ``jax.numpy.linalg``'s, adapted by one table to NumPy's
contract: inputs are cast as NumPy casts them (bool and integers to
``float64``; ``float16`` is refused with ``TypeError`` as NumPy refuses it),
shapes are checked up front (``LinAlgError`` for a non-square or 1-d matrix,
naming the function and the shape), results are NumPy's namedtuples
(``SVDResult``, ``EighResult``, ``QRResult``, ``SlogdetResult``, ``EigResult``)
of NamedArrays, ``eigh``/``eigvalsh``/``cholesky`` read only the triangle
``UPLO``/``upper`` selects, and ``pinv``/``matrix_rank``/``lstsq`` take NumPy's
``rcond``/``tol`` arguments.  ``norm``, ``vector_norm`` accept a named ``axis``
(the name is reduced).

Differences from NumPy
----------------------
* **Singular or non-positive-definite input raises only in eager calls.**
  LAPACK reports failure through an ``info`` code that NumPy turns into
  ``LinAlgError``; XLA has no such channel.  An eager call of ``inv``,
  ``solve``, ``tensorinv``, ``tensorsolve``, ``matrix_power(a, -n)`` or
  ``cholesky`` checks its result (one device-to-host synchronisation): finite
  input giving a non-finite result raises ``LinAlgError`` ("Singular matrix",
  "Matrix is not positive definite") as NumPy does.  Under ``jax.jit`` (or
  inside ``nmap``) the values are abstract and JAX's behaviour holds: a
  singular matrix gives ``inf``/``nan`` entries, a matrix that is not positive
  definite gives ``nan`` entries; check with ``np.isfinite(r).all()`` there.
  The same holds for input NumPy's LAPACK calls refuse: a NaN matrix for
  ``svd``, ``svdvals``, ``pinv``, ``matrix_rank`` and ``cond`` ("SVD did not
  converge"), a NaN or infinite one for ``eig``/``eigvals`` and ``lstsq``.
* ``eig``/``eigvals`` of a real matrix: NumPy returns real arrays when every
  eigenvalue is real (a value-dependent dtype, decided over the whole batch).
  We do the same on concrete data; under ``jax.jit``/``nmap`` the result stays
  complex.
* ``lstsq``: residuals are NumPy's (empty unless ``M > N`` and full rank) on
  concrete positional data; with named batch axes or under tracing they are
  JAX's (always computed when ``M > N``).
"""
from __future__ import annotations

import functools
import inspect
import math

import jax
import jax.numpy as jnp
import numpy as onp

from .core import config
from .core.array import NamedArray, normalize_axis, rewrap, zero_dim_array
from .core.dims import has_names
from .einsum import matmul, tensordot, vecdot
from .frontend.engines.args import numpy_promoted
from .frontend.engines.generic import along_names, jit_static, wrap
from .frontend.engines.host import host_data

LinAlgError = onp.linalg.LinAlgError

_NP_RESULTS = getattr(onp.linalg, "_linalg", None)


# --------------------------------------------------------------------------
# input checks and casts (run on the positional data, inside any vmap)
# --------------------------------------------------------------------------
def _float():
    return jnp.result_type(float)


def _cast(fn, a, lapack):
    """NumPy's linalg input dtype: bool/int -> the default float; float16 refused."""
    dt = a.dtype
    if dt == jnp.bool_ or jnp.issubdtype(dt, jnp.integer):
        return a.astype(_float())
    if lapack and dt in (jnp.float16, jnp.bfloat16):
        raise TypeError(f"{fn}: array type {dt} is unsupported in linalg "
                        "(cast to float32 first)")
    if not (jnp.issubdtype(dt, jnp.inexact)):
        raise TypeError(f"{fn}: array type {dt} is unsupported in linalg")
    return a


#: the functions NumPy's core answers for (not LAPACK): a 1-d array is its
#: ``ValueError``, not ``LinAlgError``
_CORE_2D = {"matrix_transpose", "diagonal", "trace", "matrix_norm"}


def _check(fn, a, square, arg="a"):
    """NumPy's shape checks of a stack of matrices, with NumPy's wording."""
    where = f"(argument {arg!r}, shape {a.shape})"
    if a.ndim < 2:
        if fn in _CORE_2D:
            raise ValueError(f"{fn}: Input array must be at least 2-dimensional, but "
                             f"it is {a.ndim} {where}")
        raise LinAlgError(f"{fn}: {a.ndim}-dimensional array given. Array must be at "
                          f"least two-dimensional {where}")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"{fn}: Last 2 dimensions of the array must be square {where}")


def _numpy_result(r):
    """JAX's result namedtuples -> NumPy's classes (same fields)."""
    if isinstance(r, tuple) and hasattr(r, "_fields") and _NP_RESULTS is not None:
        cls = getattr(_NP_RESULTS, type(r).__name__, None)
        if cls is not None and getattr(cls, "_fields", None) == r._fields:
            return cls(*r)
    return r


@functools.partial(jax.jit, static_argnames="upper")
def _hermitian_from(a, upper):
    """The Hermitian matrix LAPACK sees when it reads one triangle of ``a``
    (the diagonal's imaginary part is ignored, as LAPACK does)."""
    t = jnp.triu(a, 1) if upper else jnp.tril(a, -1)
    d = jnp.diagonal(a, axis1=-2, axis2=-1)
    if jnp.iscomplexobj(a):
        d = d.real.astype(a.dtype)
    return t + jnp.swapaxes(t, -1, -2).conj() + d[..., :, None] * jnp.eye(
        a.shape[-1], dtype=a.dtype)


def _uplo(fn, UPLO):
    """NumPy's ``UPLO`` (either case): whether the upper triangle is read."""
    up = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if up not in ("L", "U"):
        raise ValueError(f"{fn}: UPLO argument must be 'L' or 'U', got {UPLO!r}")
    return up == "U"


# --------------------------------------------------------------------------
# functions whose NumPy signature or semantics differ from jax.numpy's
# --------------------------------------------------------------------------
def eigh(a, UPLO="L"):
    upper = _uplo("eigh", UPLO)
    return jnp.linalg.eigh(_hermitian_from(a, upper), UPLO="U" if upper else "L",
                           symmetrize_input=False)


def eigvalsh(a, UPLO="L"):
    upper = _uplo("eigvalsh", UPLO)
    return jnp.linalg.eigvalsh(_hermitian_from(a, upper), UPLO="U" if upper else "L",
                               symmetrize_input=False)


def cholesky(a, /, *, upper=False):
    return jnp.linalg.cholesky(_hermitian_from(a, upper), upper=upper,
                               symmetrize_input=False)


_NOVALUE = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    if rcond is not None and rtol is not _NOVALUE:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    if rcond is None:  # NumPy's defaults
        rcond = 1e-15 if rtol is _NOVALUE else rtol
        if rcond is None:
            rcond = max(a.shape[-2:]) * jnp.finfo(a.dtype).eps
    if a.size == 0:   # NumPy keeps an empty matrix's dtype (no float cast)
        return jnp.zeros(a.shape[:-2] + a.shape[:-3:-1], a.dtype)
    (a,), single = _in_double([_cast("pinv", a, True)])
    return _to_single(jnp.linalg.pinv(a, rtol=rcond, hermitian=hermitian), single)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    # NumPy's tol is absolute and rtol relative to the largest singular value
    # (jax.numpy.linalg.matrix_rank's rtol is absolute)
    if tol is not None and rtol is not None:
        raise ValueError("matrix_rank: `tol` and `rtol` can't be both set.")
    if A.ndim < 2:       # NumPy's Python int (a device value under a trace)
        r = jnp.asarray(jnp.any(A != 0), dtype=jnp.result_type(int))
        return r if isinstance(r, jax.core.Tracer) else int(r)
    if A.shape[-1] == 0 or A.shape[-2] == 0:
        return jnp.zeros(A.shape[:-2], jnp.result_type(int))
    return _rank(A, tol, rtol, hermitian)


@functools.partial(jax.jit, static_argnames="hermitian")
def _rank(A, tol, rtol, hermitian):
    (Ad,), single = _in_double([A])
    S = _to_single(jnp.linalg.svd(Ad, compute_uv=False, hermitian=hermitian), single)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * jnp.finfo(S.dtype).eps
        tol = S.max(axis=-1, keepdims=True) * jnp.asarray(rtol)[..., None]
    else:
        tol = jnp.asarray(tol)[..., None]
    return jnp.sum(S > tol, axis=-1, dtype=jnp.result_type(int))


def cond(x, p=None):
    if x.ndim >= 2 and x.shape[-1] * x.shape[-2] == 0:
        raise LinAlgError(f"cond: cond is not defined on empty arrays "
                          f"(shape {x.shape})")
    r = jnp.linalg.cond(x, p)
    # NumPy's convention for every p (jax.numpy's misses p=None and p=2): a NaN
    # (0 / 0 for a zero matrix) is inf unless the matrix holds a NaN
    return jnp.where(jnp.isnan(r) & ~jnp.isnan(x).any(axis=(-2, -1)), jnp.inf, r)


def lstsq(a, b, rcond=None):
    if a.ndim != 2:
        raise LinAlgError(f"lstsq: argument 'a' must be two-dimensional, got "
                          f"shape {a.shape}")
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise LinAlgError(f"lstsq: Incompatible dimensions (a.shape={a.shape}, "
                          f"b.shape={b.shape})")
    x, resid, rank, s = _lstsq(a, b, rcond)
    m, n = a.shape
    if m > n and not isinstance(rank, jax.core.Tracer) and int(rank) < n:
        resid = resid[:0]  # NumPy: no residuals unless full rank
    return x, resid, rank, s


@jax.jit
def _lstsq(a, b, rcond):
    if rcond is not None:   # LAPACK's gelsd: outside (0, 1), its machine epsilon
        rcond = jnp.where((rcond <= 0) | (rcond >= 1), jnp.finfo(a.dtype).eps / 2, rcond)
    x, resid, rank, s = jnp.linalg.lstsq(a, b, rcond)
    rank = rank.astype(jnp.int32)  # NumPy's LAPACK rank is int32
    # NumPy's common type of a and b (float64 for a non-inexact b), real part
    s = s.real.astype(jnp.finfo(x.dtype).dtype)
    resid = jnp.zeros((0,), s.dtype) if a.shape[0] <= a.shape[1] else resid.astype(s.dtype)
    return x, resid, rank, s


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    if not hermitian:
        return jnp.linalg.svd(a, full_matrices, compute_uv)
    # NumPy's: from eigh of the lower triangle, the signs (copysign: never 0,
    # so U and Vh stay unitary for a singular matrix) moved into Vh
    if not compute_uv:
        return jnp.sort(jnp.abs(eigvalsh(a)), axis=-1)[..., ::-1]
    w, u = eigh(a)
    order = jnp.argsort(jnp.abs(w), axis=-1, descending=True, stable=True)
    w = jnp.take_along_axis(w, order, axis=-1)
    u = jnp.take_along_axis(u, order[..., None, :], axis=-1)
    vh = jnp.swapaxes(u * jnp.copysign(1.0, w)[..., None, :].astype(u.dtype), -1, -2).conj()
    return _NP_RESULTS.SVDResult(u, jnp.abs(w), vh)


def norm(x, ord=None, axis=None, keepdims=False):
    if isinstance(axis, (tuple, list)):
        if len(axis) == 2 and normalize_axis("norm", axis[0], x.ndim) == normalize_axis(
                "norm", axis[1], x.ndim):
            raise ValueError(f"norm: Duplicate axes given. (axis={axis})")
        if len(axis) not in (1, 2):
            raise ValueError(f"norm: Improper number of dimensions to norm. (axis={axis}: "
                             "one axis for a vector norm, two for a matrix norm)")
    return jnp.linalg.norm(x, ord, axis, keepdims)


def qr(a, mode="reduced"):
    r = jnp.linalg.qr(a, mode=mode)
    return tuple(r) if mode == "raw" else r


def matrix_power(a, n):
    return jnp.linalg.matrix_power(a, n)


# --------------------------------------------------------------------------
# the table: name -> (how inputs are cast, which arguments must be square
# matrices / at least 2-d, what a named `axis` means)
# --------------------------------------------------------------------------
_LAPACK, _NORM, _PROMOTE = "lapack", "norm", "promote"   # promote: NumPy's common dtype
_OWN = {"eigh": eigh, "eigvalsh": eigvalsh, "cholesky": cholesky, "pinv": pinv,
        "matrix_rank": matrix_rank, "cond": cond, "lstsq": lstsq, "qr": qr,
        "matrix_power": matrix_power, "svd": svd, "norm": norm}

#        name          cast      square  min-2d  arrays  named axis
_TABLE = [
    ("inv",          _LAPACK,  (0,),   (0,),   1,     None),
    ("det",          _LAPACK,  (0,),   (0,),   1,     None),
    ("slogdet",      _LAPACK,  (0,),   (0,),   1,     None),
    ("eig",          _LAPACK,  (0,),   (0,),   1,     None),
    ("eigvals",      _LAPACK,  (0,),   (0,),   1,     None),
    ("eigh",         _LAPACK,  (0,),   (0,),   1,     None),
    ("eigvalsh",     _LAPACK,  (0,),   (0,),   1,     None),
    ("cholesky",     _LAPACK,  (0,),   (0,),   1,     None),
    ("solve",        _LAPACK,  (0,),   (0,),   2,     None),
    ("matrix_power", None,     (0,),   (0,),   1,     None),
    ("qr",           _LAPACK,  (),     (0,),   1,     None),
    ("svd",          _LAPACK,  (),     (0,),   1,     None),
    ("svdvals",      _LAPACK,  (),     (0,),   1,     None),
    ("pinv",         None,     (),     (0,),   1,     None),   # casts itself
    ("matrix_rank",  _LAPACK,  (),     (),     1,     None),
    ("cond",         _LAPACK,  (),     (0,),   1,     None),
    ("lstsq",        _LAPACK,  (),     (),     2,     None),
    ("tensorinv",    _LAPACK,  (),     (),     1,     None),
    ("tensorsolve",  _LAPACK,  (),     (),     2,     None),
    ("norm",         _NORM,    (),     (),     1,     "reduce"),
    ("vector_norm",  _NORM,    (),     (),     1,     "reduce"),
    ("matrix_norm",  _NORM,    (),     (0,),   1,     None),
    ("trace",        None,     (),     (0,),   1,     None),
    ("diagonal",     None,     (),     (0,),   1,     None),
    ("matrix_transpose", None, (),     (0,),   1,     None),
    ("outer",        _PROMOTE, (),     (),     2,     None),
    ("cross",        _PROMOTE, (),     (),     2,     None),
    ("multi_dot",    _PROMOTE, (),     (),     0,     None),
]


# arguments that are arrays (traced under jit); every other one is static
_TRACED = {"a", "b", "x", "x1", "x2", "A", "M", "arrays", "rcond", "rtol", "tol"}
# value-dependent Python logic: not jitted as a whole
_NO_JIT = {"pinv", "lstsq", "matrix_rank"}


def _jit(name, f, base):
    if name in _NO_JIT:
        return f
    static = [p for p in inspect.signature(base).parameters if p not in _TRACED]
    return jit_static(f, static, like=base)


# NumPy computes every LAPACK call in double precision and casts the results
# of single-precision input back (a rank-deficient float32 matrix's smallest
# singular value is then a float64 residue, below pinv's cutoff)
_WIDER = {onp.dtype(onp.float32): onp.dtype(onp.float64),
          onp.dtype(onp.complex64): onp.dtype(onp.complex128)}
_NARROWER = {v: k for k, v in _WIDER.items()}
_OWN_PRECISION = {"pinv", "matrix_rank"}    # (their cutoffs use the input's eps)


def _in_double(arrays):
    """``arrays`` in double precision, and whether all were single (then the
    results are cast back); as they are outside NumPy's dtype mode."""
    dts = [onp.dtype(a.dtype) for a in arrays if hasattr(a, "dtype")]
    if not dts or not config.numpy_dtypes() or not all(d in _WIDER for d in dts):
        return list(arrays), False
    return [a.astype(_WIDER[onp.dtype(a.dtype)]) if hasattr(a, "dtype") else a
            for a in arrays], True


def _to_single(result, single):
    if not single:
        return result
    return jax.tree_util.tree_map(
        lambda v: v.astype(_NARROWER[onp.dtype(v.dtype)])
        if hasattr(v, "dtype") and onp.dtype(v.dtype) in _NARROWER else v, result)


def _tensor_shapes(name, args):
    """NumPy's checks of ``tensorsolve``/``tensorinv``, which come before its
    dtype checks (NumPy's exceptions and wording)."""
    a = jnp.asarray(args[0])
    if name == "tensorinv":
        ind = args[1] if len(args) > 1 else 2
        if ind <= 0:
            raise ValueError(f"tensorinv: Invalid ind argument. (ind={ind!r}; it must "
                             "be positive)")
        if math.prod(a.shape[ind:]) != math.prod(a.shape[:ind]):
            raise LinAlgError("tensorinv: Last 2 dimensions of the array must be square "
                              f"(a.shape={a.shape}, ind={ind})")
        return
    b = jnp.asarray(args[1])
    shape = a.shape
    axes = args[2] if len(args) > 2 else None
    if axes is not None:               # NumPy moves them last, then checks
        moved = [normalize_axis(name, k, a.ndim) for k in axes]
        shape = tuple(shape[k] for k in range(a.ndim) if k not in moved) + tuple(
            shape[k] for k in moved)
    n = math.prod(shape[b.ndim:])
    if math.prod(shape) != n * n:
        raise LinAlgError("tensorsolve: Input arrays must satisfy the requirement "
                          f"prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) (a.shape="
                          f"{a.shape}, axes={axes}, b.ndim={b.ndim})")


def _declare(name, cast, square, min2d, narrays, named):
    base = _OWN.get(name) or getattr(jnp.linalg, name)
    sig = inspect.signature(base)
    argnames = [p for p in sig.parameters][:max(narrays, 1)]

    @functools.wraps(base)
    def jfn(*args, **kwargs):
        try:     # arrays given by keyword (``tensorinv(a=a)``) as positional
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}: {e}") from None
        args, kwargs = list(bound.args), bound.kwargs
        for i in range(min(narrays, len(args))):      # NumPy's asarray of lists
            if not isinstance(args[i], jax.Array):
                args[i] = jnp.asarray(args[i])
        if cast == _PROMOTE:
            return _numpy_result(base(*numpy_promoted(args), **kwargs))
        if name in ("tensorsolve", "tensorinv"):
            _tensor_shapes(name, args)
        for i in range(min(narrays, len(args))):
            a = args[i]
            if i in min2d:
                _check(name, a, i in square, argnames[i])
            if cast is not None:
                args[i] = _cast(name, a, cast == _LAPACK)
        if name == "matrix_power" and args[1] < 0:
            args[0] = _cast(name, args[0], True)  # a negative power inverts
        if cast == _LAPACK and name not in _OWN_PRECISION:
            args[:narrays], single = _in_double(args[:narrays])
            return _numpy_result(_to_single(base(*args, **kwargs), single))
        return _numpy_result(base(*args, **kwargs))

    f = wrap(_jit(name, jfn, base), name, named=named)
    f.__module__ = __name__
    f.__doc__ = (f"``numpy.linalg.{name}`` on NamedArrays; named axes are batch axes"
                 + (", and ``axis`` may name them (reduced)." if named else ".")
                 + f"\n\nSee ``numpy.linalg.{name}`` and this module's docstring for "
                 "the differences from NumPy.")
    return f


globals().update({row[0]: _declare(*row) for row in _TABLE})

_FAILS = {"inv": "Singular matrix", "solve": "Singular matrix",
          "tensorinv": "Singular matrix", "tensorsolve": "Singular matrix",
          "matrix_power": "Singular matrix", "cholesky": "Matrix is not positive definite"}


_has_nan = jax.jit(lambda d: jnp.isnan(d).any())     # (one dispatch each)
_has_non_finite = jax.jit(lambda d: ~jnp.isfinite(d).all())


def _all_finite(v) -> bool:
    d = v.data if isinstance(v, NamedArray) else v
    if not hasattr(d, "dtype"):
        d = jnp.asarray(d)
    return not jnp.issubdtype(d.dtype, jnp.inexact) or not bool(_has_non_finite(d))


def _raising(name, f):
    """``f`` raising NumPy's ``LinAlgError`` in an eager call whose finite input
    gives a non-finite result (LAPACK's failure code, which XLA lacks)."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        d = r.data if isinstance(r, NamedArray) else None
        if d is None or isinstance(d, jax.core.Tracer) or _all_finite(d):
            return r
        if name == "matrix_power" and (args[1] if len(args) > 1 else kwargs["n"]) >= 0:
            return r
        arrays = [a for a in list(args) + list(kwargs.values())
                  if isinstance(a, (NamedArray, jax.Array, onp.ndarray, list))]
        if all(_all_finite(a) for a in arrays[:2]):
            raise LinAlgError(f"{name}: {_FAILS[name]}")
        return r
    return g


globals().update({n: _raising(n, globals()[n]) for n in _FAILS})

# input NumPy's LAPACK calls refuse (LinAlgError): NaN for an SVD (LAPACK checks
# the matrix's norm), NaN or inf for eig (NumPy checks) and lstsq's matrix
_SVD, _FINITE = "nan", "finite"
_REFUSED = {"svd": (_SVD, "SVD did not converge"),
            "svdvals": (_SVD, "SVD did not converge"),
            "pinv": (_SVD, "SVD did not converge"),
            "matrix_rank": (_SVD, "SVD did not converge"),
            "cond": (_SVD, "SVD did not converge"),
            "eig": (_FINITE, "Array must not contain infs or NaNs"),
            "eigvals": (_FINITE, "Array must not contain infs or NaNs"),
            "lstsq": (_FINITE, "SVD did not converge in Linear Least Squares")}


def _refusing(name, f):
    """``f`` raising NumPy's ``LinAlgError`` in an eager call on the input its
    LAPACK call refuses (traced input gives JAX's NaN results)."""
    rule, msg = _REFUSED[name]

    @functools.wraps(f)
    def g(*args, **kwargs):
        a = args[0] if args else next(iter(kwargs.values()))
        d = a.data if isinstance(a, NamedArray) else a
        p = args[1] if len(args) > 1 else kwargs.get("p")
        if (isinstance(d, (jax.Array, onp.ndarray, list)) and not isinstance(
                d, jax.core.Tracer) and jnp.ndim(d) >= 2 and not (
                name == "cond" and p not in (None, 2, -2))):
            d = jnp.asarray(d)
            if jnp.issubdtype(d.dtype, jnp.inexact) and bool(
                    (_has_nan if rule == _SVD else _has_non_finite)(d)):
                raise LinAlgError(f"{name}: {msg}")
        return f(*args, **kwargs)
    return g


globals().update({n: _refusing(n, globals()[n]) for n in _REFUSED})


def _real_if_real(fn, res, real_input):
    """NumPy's eig/eigvals of a real matrix are real when all eigenvalues are."""
    w = res[0] if isinstance(res, tuple) else res
    if (not real_input or isinstance(w.data, jax.core.Tracer)
            or not bool(jnp.all(w.data.imag == 0))):
        return res
    re = lambda v: rewrap(v, v.data.real)  # noqa: E731
    return type(res)(*map(re, res)) if isinstance(res, tuple) else re(res)


def _eig_family(f):
    @functools.wraps(f)
    def g(a):
        x = a if isinstance(a, NamedArray) else jnp.asarray(a)
        real = not jnp.issubdtype(x.dtype, jnp.complexfloating)
        return _real_if_real(f.__name__, f(a), real)
    return g


eig = _eig_family(globals()["eig"])  # noqa: F821
eigvals = _eig_family(globals()["eigvals"])  # noqa: F821

def _named_norm(w, pos):
    """A named ``axis`` for the norms, in the order given (rows, columns)."""
    @functools.wraps(w)
    def f(*args, **kwargs):
        ax = kwargs["axis"] if "axis" in kwargs else (args[pos] if len(args) > pos else None)
        if not has_names(ax):
            return w(*args, **kwargs)
        return along_names(w.__name__, w, args, kwargs, pos, "axis", keep=False)
    return f


norm = _named_norm(globals()["norm"], 2)  # noqa: F821
vector_norm = _named_norm(globals()["vector_norm"], 99)  # noqa: F821  (axis is keyword-only)



def _array_result(f):
    """``f`` whose 0-d result is NumPy's 0-d array (``tensorsolve`` reshapes its
    solution to ``b``'s shape: an array, never a scalar)."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        return zero_dim_array(r) if isinstance(r, NamedArray) and not r.dims and \
            not r.mapped else r
    return g


tensorsolve = _array_result(globals()["tensorsolve"])  # noqa: F821
tensordot = _array_result(tensordot)     # (NumPy's reshapes its product: an array)

# the dot family (matmul, vecdot, tensordot) is declared by its owner, namedarray/einsum
_DOT = ("matmul", "vecdot", "tensordot")

_NAMES = sorted([row[0] for row in _TABLE] + list(_DOT))
# data JAX cannot hold, and NumPy's matrix: NumPy's own linalg answers
globals().update({n: host_data(globals()[n], n, onp.linalg) for n in _NAMES})
__all__ = _NAMES + ["LinAlgError"]

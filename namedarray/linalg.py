"""``numpy.linalg`` over NamedArrays: named axes are batch axes (mapped over).

>>> import namedarray as np
>>> a = np.stack([np.eye(2), 2 * np.eye(2)], axis="b")
>>> np.linalg.det(a).named_shape
{'b': 2}

Each public function is one row at the end of this module,
``name = _declare("name", cast, ...)``: the row names its engine
(``jax.numpy.linalg``'s function of that name unless ``engine=`` gives one
of this module's), how inputs are cast, its shape checks, and the NumPy rules
it follows; :func:`_declare` composes them in one fixed order.  The rows
adapt each engine to NumPy's contract: inputs are cast as NumPy casts them
(bool and integers to ``float64``; ``float16`` is refused with ``TypeError``
as NumPy refuses it),
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

from .core import backends, config, hooks
from .core.array import NamedArray, normalize_axis, rewrap, zero_dim_array
from .core.dims import has_names
from .einsum import matmul as _matmul, tensordot as _tensordot, vecdot as _vecdot
from .frontend.engines.args import numpy_promoted
from .frontend.engines.generic import along_names, jit_static, wrap
from .frontend.engines.dispatch import dispatched

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


def _check(fn, a, square, arg, numpy_core):
    """NumPy's shape checks of a stack of matrices, with NumPy's wording (a 1-d
    array is ``ValueError`` for the functions NumPy's core answers for,
    ``numpy_core``, and LAPACK's ``LinAlgError`` for the others)."""
    where = f"(argument {arg!r}, shape {a.shape})"
    if a.ndim < 2:
        if numpy_core:
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
# engines whose NumPy signature or semantics differ from jax.numpy's
# --------------------------------------------------------------------------
def _eigh(a, UPLO="L"):
    upper = _uplo("eigh", UPLO)
    return jnp.linalg.eigh(_hermitian_from(a, upper), UPLO="U" if upper else "L",
                           symmetrize_input=False)


def _eigvalsh(a, UPLO="L"):
    upper = _uplo("eigvalsh", UPLO)
    return jnp.linalg.eigvalsh(_hermitian_from(a, upper), UPLO="U" if upper else "L",
                               symmetrize_input=False)


def _cholesky(a, /, *, upper=False):
    return jnp.linalg.cholesky(_hermitian_from(a, upper), upper=upper,
                               symmetrize_input=False)


_NOVALUE = object()


def _pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
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


def _matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
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


def _cond(x, p=None):
    if x.ndim >= 2 and x.shape[-1] * x.shape[-2] == 0:
        raise LinAlgError(f"cond: cond is not defined on empty arrays "
                          f"(shape {x.shape})")
    r = jnp.linalg.cond(x, p)
    # NumPy's convention for every p (jax.numpy's misses p=None and p=2): a NaN
    # (0 / 0 for a zero matrix) is inf unless the matrix holds a NaN
    return jnp.where(jnp.isnan(r) & ~jnp.isnan(x).any(axis=(-2, -1)), jnp.inf, r)


def _lstsq(a, b, rcond=None):
    if a.ndim != 2:
        raise LinAlgError(f"lstsq: argument 'a' must be two-dimensional, got "
                          f"shape {a.shape}")
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise LinAlgError(f"lstsq: Incompatible dimensions (a.shape={a.shape}, "
                          f"b.shape={b.shape})")
    x, resid, rank, s = _lstsq_compiled(a, b, rcond)
    m, n = a.shape
    if m > n and not isinstance(rank, jax.core.Tracer) and int(rank) < n:
        resid = resid[:0]  # NumPy: no residuals unless full rank
    return x, resid, rank, s


@jax.jit
def _lstsq_compiled(a, b, rcond):
    if rcond is not None:   # LAPACK's gelsd: outside (0, 1), its machine epsilon
        rcond = jnp.where((rcond <= 0) | (rcond >= 1), jnp.finfo(a.dtype).eps / 2, rcond)
    x, resid, rank, s = jnp.linalg.lstsq(a, b, rcond)
    rank = rank.astype(jnp.int32)  # NumPy's LAPACK rank is int32
    # NumPy's common type of a and b (float64 for a non-inexact b), real part
    s = s.real.astype(jnp.finfo(x.dtype).dtype)
    resid = jnp.zeros((0,), s.dtype) if a.shape[0] <= a.shape[1] else resid.astype(s.dtype)
    return x, resid, rank, s


def _svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    if not hermitian:
        return jnp.linalg.svd(a, full_matrices, compute_uv)
    # NumPy's: from eigh of the lower triangle (the public eigh and eigvalsh),
    # the signs (copysign: never 0, so U and Vh stay unitary for a singular
    # matrix) moved into Vh
    if not compute_uv:
        return jnp.sort(jnp.abs(eigvalsh(a)), axis=-1)[..., ::-1]
    w, u = eigh(a)
    order = jnp.argsort(jnp.abs(w), axis=-1, descending=True, stable=True)
    w = jnp.take_along_axis(w, order, axis=-1)
    u = jnp.take_along_axis(u, order[..., None, :], axis=-1)
    vh = jnp.swapaxes(u * jnp.copysign(1.0, w)[..., None, :].astype(u.dtype), -1, -2).conj()
    return _NP_RESULTS.SVDResult(u, jnp.abs(w), vh)


def _norm(x, ord=None, axis=None, keepdims=False):
    if isinstance(axis, (tuple, list)):
        if len(axis) == 2 and normalize_axis("norm", axis[0], x.ndim) == normalize_axis(
                "norm", axis[1], x.ndim):
            raise ValueError(f"norm: Duplicate axes given. (axis={axis})")
        if len(axis) not in (1, 2):
            raise ValueError(f"norm: Improper number of dimensions to norm. (axis={axis}: "
                             "one axis for a vector norm, two for a matrix norm)")
    return jnp.linalg.norm(x, ord, axis, keepdims)


def _qr(a, mode="reduced"):
    r = jnp.linalg.qr(a, mode=mode)
    return tuple(r) if mode == "raw" else r


def _matrix_power(a, n):
    if n < 0:     # a negative power inverts: LAPACK's dtypes
        a = _cast("matrix_power", a, True)
    return jnp.linalg.matrix_power(a, n)


# --------------------------------------------------------------------------
# adapting an engine to NumPy's contract (casts, shape checks, precision, jit)
# --------------------------------------------------------------------------
_LAPACK, _NORM, _PROMOTE = "lapack", "norm", "promote"   # promote: NumPy's common dtype

# arguments that are arrays (traced under jit); every other one is static
_TRACED = {"a", "b", "x", "x1", "x2", "A", "M", "arrays", "rcond", "rtol", "tol"}


def _jit(f, base):
    static = [p for p in inspect.signature(base).parameters if p not in _TRACED]
    return jit_static(f, static, like=base)


# NumPy computes every LAPACK call in double precision and casts the results
# of single-precision input back (a rank-deficient float32 matrix's smallest
# singular value is then a float64 residue, below pinv's cutoff)
_WIDER = {onp.dtype(onp.float32): onp.dtype(onp.float64),
          onp.dtype(onp.complex64): onp.dtype(onp.complex128)}
_NARROWER = {v: k for k, v in _WIDER.items()}


def _in_double(arrays):
    """``arrays`` in double precision, and whether all were single (then the
    results are cast back); as they are outside NumPy's dtype mode, and on a
    backend without native float64 (a TPU's: traced there, single precision
    stays single; an eager call runs on the CPU backend, which has it)."""
    dts = [onp.dtype(a.dtype) for a in arrays if hasattr(a, "dtype")]
    if not dts or not config.numpy_dtypes() or not all(d in _WIDER for d in dts) or \
            not backends.runs_double():
        return list(arrays), False
    return [a.astype(_WIDER[onp.dtype(a.dtype)]) if hasattr(a, "dtype") else a
            for a in arrays], True


def _to_single(result, single):
    if not single:
        return result
    return jax.tree_util.tree_map(
        lambda v: v.astype(_NARROWER[onp.dtype(v.dtype)])
        if hasattr(v, "dtype") and onp.dtype(v.dtype) in _NARROWER else v, result)


# NumPy's checks of tensorinv/tensorsolve, which come before its dtype checks
# (NumPy's exceptions and wording)
def _tensorinv_shapes(args):
    a = jnp.asarray(args[0])
    ind = args[1] if len(args) > 1 else 2
    if ind <= 0:
        raise ValueError(f"tensorinv: Invalid ind argument. (ind={ind!r}; it must "
                         "be positive)")
    if math.prod(a.shape[ind:]) != math.prod(a.shape[:ind]):
        raise LinAlgError("tensorinv: Last 2 dimensions of the array must be square "
                          f"(a.shape={a.shape}, ind={ind})")


def _tensorsolve_shapes(args):
    a, b = jnp.asarray(args[0]), jnp.asarray(args[1])
    shape = a.shape
    axes = args[2] if len(args) > 2 else None
    if axes is not None:               # NumPy moves them last, then checks
        moved = [normalize_axis("tensorsolve", k, a.ndim) for k in axes]
        shape = tuple(shape[k] for k in range(a.ndim) if k not in moved) + tuple(
            shape[k] for k in moved)
    n = math.prod(shape[b.ndim:])
    if math.prod(shape) != n * n:
        raise LinAlgError("tensorsolve: Input arrays must satisfy the requirement "
                          f"prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) (a.shape="
                          f"{a.shape}, axes={axes}, b.ndim={b.ndim})")


def _adapt(name, base, cast, square, min2d, narrays, numpy_core, checks, jit,
           own_precision, named):
    """``base`` on NumPy's contract, over NamedArrays (``wrap``)."""
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
        if checks is not None:
            checks(args)
        for i in range(min(narrays, len(args))):
            a = args[i]
            if i in min2d or i in square:
                _check(name, a, i in square, argnames[i], numpy_core)
            if cast is not None:
                args[i] = _cast(name, a, cast == _LAPACK)
        if cast == _LAPACK and not own_precision:
            args[:narrays], single = _in_double(args[:narrays])
            return _numpy_result(_to_single(base(*args, **kwargs), single))
        return _numpy_result(base(*args, **kwargs))

    f = wrap(_jit(jfn, base) if jit else jfn, name, named=named)
    f.__module__ = __name__
    f.__doc__ = (f"``numpy.linalg.{name}`` on NamedArrays; named axes are batch axes"
                 + (", and ``axis`` may name them (reduced)." if named else ".")
                 + f"\n\nSee ``numpy.linalg.{name}`` and this module's docstring for "
                 "the differences from NumPy.")
    return f


# --------------------------------------------------------------------------
# NumPy's rules beyond the engine (each applied by _declare where a row asks)
# --------------------------------------------------------------------------
_SINGULAR = "Singular matrix"
_NOT_POSITIVE_DEFINITE = "Matrix is not positive definite"

_has_nan = jax.jit(lambda d: jnp.isnan(d).any())     # (one dispatch each)
_has_non_finite = jax.jit(lambda d: ~jnp.isfinite(d).all())


def _all_finite(v) -> bool:
    d = v.data if isinstance(v, NamedArray) else v
    if not hasattr(d, "dtype"):
        d = jnp.asarray(d)
    return not jnp.issubdtype(d.dtype, jnp.inexact) or not bool(_has_non_finite(d))


def _raising(name, f, message, only_if):
    """``f`` raising NumPy's ``LinAlgError`` in an eager call whose finite input
    gives a non-finite result (LAPACK's failure code, which XLA lacks); with
    ``only_if``, only in the calls ``only_if(args, kwargs)`` accepts."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        d = r.data if isinstance(r, NamedArray) else None
        if d is None or isinstance(d, jax.core.Tracer) or _all_finite(d):
            return r
        if only_if is not None and not only_if(args, kwargs):
            return r
        arrays = [a for a in list(args) + list(kwargs.values())
                  if isinstance(a, (NamedArray, jax.Array, onp.ndarray, list))]
        if all(_all_finite(a) for a in arrays[:2]):
            raise LinAlgError(f"{name}: {message}")
        return r
    return g


def _inverts(args, kwargs):
    """``matrix_power`` of a negative power (it inverts the matrix)."""
    return (args[1] if len(args) > 1 else kwargs["n"]) < 0


# input NumPy's LAPACK calls refuse (LinAlgError): NaN for an SVD (LAPACK checks
# the matrix's norm), NaN or inf for eig (NumPy checks) and lstsq's matrix
_SVD, _FINITE = "nan", "finite"
_SVD_FAILED = (_SVD, "SVD did not converge")


def _refusing(name, f, rule, msg, only_if):
    """``f`` raising NumPy's ``LinAlgError`` in an eager call on the input its
    LAPACK call refuses (traced input gives JAX's NaN results); with
    ``only_if``, only in the calls ``only_if(args, kwargs)`` accepts."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        a = args[0] if args else next(iter(kwargs.values()))
        d = a.data if isinstance(a, NamedArray) else a
        if (isinstance(d, (jax.Array, onp.ndarray, list)) and not isinstance(
                d, jax.core.Tracer) and jnp.ndim(d) >= 2 and (
                only_if is None or only_if(args, kwargs))):
            d = jnp.asarray(d)
            if jnp.issubdtype(d.dtype, jnp.inexact) and bool(
                    (_has_nan if rule == _SVD else _has_non_finite)(d)):
                raise LinAlgError(f"{name}: {msg}")
        return f(*args, **kwargs)
    return g


def _svd_norm(args, kwargs):
    """``cond`` of a norm computed from the singular values (``p`` None, 2, -2)."""
    return (args[1] if len(args) > 1 else kwargs.get("p")) in (None, 2, -2)


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


_KEYWORD_ONLY = 99     # (past any positional argument)


def _axis_position(f):
    """Where ``f`` takes ``axis`` positionally (``_KEYWORD_ONLY`` if it does not)."""
    params = inspect.signature(f).parameters
    p = params["axis"]
    return list(params).index("axis") if p.kind in (
        p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else _KEYWORD_ONLY


def _named_norm(w, pos):
    """A named ``axis`` for the norms, in the order given (rows, columns)."""
    @functools.wraps(w)
    def f(*args, **kwargs):
        ax = kwargs["axis"] if "axis" in kwargs else (args[pos] if len(args) > pos else None)
        if not has_names(ax):
            return w(*args, **kwargs)
        return along_names(w.__name__, w, args, kwargs, pos, "axis", keep=False)
    return f


def _array_result(f):
    """``f`` whose 0-d result is NumPy's 0-d array (``tensorsolve`` reshapes its
    solution to ``b``'s shape: an array, never a scalar)."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        return zero_dim_array(r) if isinstance(r, NamedArray) and not r.dims and \
            not r.mapped else r
    return g


# --------------------------------------------------------------------------
# the composer, and one row per public function
# --------------------------------------------------------------------------
def _declare(name, cast=None, *, engine=None, declared=None, square=(), min2d=(),
             narrays=1, numpy_core=False, checks=None, jit=True, own_precision=False,
             named=None, fails=None, fails_only_if=None, refuses=None,
             refuses_only_if=None, real_if_real=False, array_result=False):
    """``numpy.linalg.<name>`` over NamedArrays, with NumPy's rules in one order.

    The function runs ``engine`` (``jax.numpy.linalg.<name>`` by default)
    adapted to NumPy's contract, or is ``declared`` by its own module (then
    only the rules apply).  Adapting:

    * ``cast``: ``_LAPACK`` (bool/int to float, float16 refused, computed in
      double precision unless ``own_precision``), ``_NORM`` (bool/int to
      float), ``_PROMOTE`` (NumPy's common dtype of the arrays) or ``None``;
    * ``square``: the positions of the array arguments that must be (stacks
      of) square matrices; ``min2d``: those of the others that must be at
      least 2-d (``numpy_core``: a 1-d array is NumPy core's ``ValueError``,
      not LAPACK's ``LinAlgError``);
    * ``narrays``: how many leading arguments are arrays; ``checks(args)``:
      NumPy's checks that come before its dtype checks;
    * ``jit``: compiled (``False``: value-dependent Python logic);
    * ``named``: what a named ``axis`` means (``"reduce"``: a norm's axes,
      in the order given).

    The rules, in this order: ``fails`` (the ``LinAlgError`` message of a
    finite input whose result is not finite, in the calls ``fails_only_if``
    accepts), ``refuses`` (``(rule, message)``: the input LAPACK refuses, in
    the calls ``refuses_only_if`` accepts), ``real_if_real`` (eig's real
    results of a real matrix), the named norm, ``array_result`` (a 0-d result
    is a 0-d array), and NumPy's own answer for data JAX cannot hold.
    """
    if declared is not None:
        f = declared
    else:
        f = _adapt(name, engine or getattr(jnp.linalg, name), cast, square, min2d,
                   narrays, numpy_core, checks, jit, own_precision, named)
    if fails:
        f = _raising(name, f, fails, fails_only_if)
    if refuses:
        f = _refusing(name, f, *refuses, refuses_only_if)
    if real_if_real:
        f = _eig_family(f)
    if named:
        f = _named_norm(f, _axis_position(f))
    if array_result:
        f = _array_result(f)
    # data JAX cannot hold, and NumPy's matrix: NumPy's own linalg answers
    f = dispatched(f, name, onp.linalg)
    if f is not declared:           # pickled by its name here (the dot family too)
        f.__module__, f.__qualname__ = __name__, name
    return f


_NOT_FINITE = (_FINITE, "Array must not contain infs or NaNs")


def _diagonal(x, /, *, offset=0):
    """``numpy.linalg.diagonal``: NumPy's ``diagonal(x, offset, -2, -1)``, its
    read-only view of ``x`` (a write into it raises)."""
    x = hooks.namespace.asarray(x)
    _check("diagonal", x, False, "x", True)
    return hooks.namespace.diagonal(x, offset, -2, -1)


def _matrix_transpose(x, /):
    """``numpy.linalg.matrix_transpose``: NumPy's ``matrix_transpose(x)``, a
    view of ``x`` (a write into it reaches ``x``)."""
    x = hooks.namespace.asarray(x)
    _check("matrix_transpose", x, False, "x", True)
    return hooks.namespace.matrix_transpose(x)


inv = _declare("inv", _LAPACK, square=(0,), fails=_SINGULAR)
det = _declare("det", _LAPACK, square=(0,))
slogdet = _declare("slogdet", _LAPACK, square=(0,))
eig = _declare("eig", _LAPACK, square=(0,), refuses=_NOT_FINITE, real_if_real=True)
eigvals = _declare("eigvals", _LAPACK, square=(0,), refuses=_NOT_FINITE, real_if_real=True)
eigh = _declare("eigh", _LAPACK, engine=_eigh, square=(0,))
eigvalsh = _declare("eigvalsh", _LAPACK, engine=_eigvalsh, square=(0,))
cholesky = _declare("cholesky", _LAPACK, engine=_cholesky, square=(0,),
                    fails=_NOT_POSITIVE_DEFINITE)
solve = _declare("solve", _LAPACK, square=(0,), narrays=2, fails=_SINGULAR)
matrix_power = _declare("matrix_power", engine=_matrix_power, square=(0,),
                        fails=_SINGULAR, fails_only_if=_inverts)
qr = _declare("qr", _LAPACK, engine=_qr, min2d=(0,))
svd = _declare("svd", _LAPACK, engine=_svd, min2d=(0,), refuses=_SVD_FAILED)
svdvals = _declare("svdvals", _LAPACK, min2d=(0,), refuses=_SVD_FAILED)
pinv = _declare("pinv", engine=_pinv, min2d=(0,), jit=False,     # (casts itself)
                refuses=_SVD_FAILED)
matrix_rank = _declare("matrix_rank", _LAPACK, engine=_matrix_rank, jit=False,
                       own_precision=True, refuses=_SVD_FAILED)
cond = _declare("cond", _LAPACK, engine=_cond, min2d=(0,), refuses=_SVD_FAILED,
                refuses_only_if=_svd_norm)
lstsq = _declare("lstsq", _LAPACK, engine=_lstsq, narrays=2, jit=False,
                 refuses=(_FINITE, "SVD did not converge in Linear Least Squares"))
tensorinv = _declare("tensorinv", _LAPACK, checks=_tensorinv_shapes, fails=_SINGULAR)
tensorsolve = _declare("tensorsolve", _LAPACK, narrays=2, checks=_tensorsolve_shapes,
                       fails=_SINGULAR, array_result=True)
norm = _declare("norm", _NORM, engine=_norm, named="reduce")
vector_norm = _declare("vector_norm", _NORM, named="reduce")
matrix_norm = _declare("matrix_norm", _NORM, min2d=(0,), numpy_core=True)
trace = _declare("trace", min2d=(0,), numpy_core=True)
diagonal = _declare("diagonal", declared=_diagonal)
matrix_transpose = _declare("matrix_transpose", declared=_matrix_transpose)
outer = _declare("outer", _PROMOTE, narrays=2)
cross = _declare("cross", _PROMOTE, narrays=2)
multi_dot = _declare("multi_dot", _PROMOTE, narrays=0)
# the dot family: declared by namedarray/einsum (tensordot reshapes its
# product, as NumPy's does: an array)
matmul = _declare("matmul", declared=_matmul)
vecdot = _declare("vecdot", declared=_vecdot)
tensordot = _declare("tensordot", declared=_tensordot, array_result=True)

__all__ = [
    "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh",
    "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
    "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve",
    "svd", "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot",
    "vector_norm", "LinAlgError"]

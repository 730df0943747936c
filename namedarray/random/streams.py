"""The random streams: NumPy's ``RandomState`` and ``Generator`` on JAX's
counter-based PRNG, each method declared once from the table of
distributions (``_DISTRIBUTIONS``) and hosted by NumPy's own generator where
the stream is NumPy-seeded and the call eager (``_hosted``).  How they work
is the package's documentation (``namedarray/random/__init__.py``); the
legacy global stream is ``mtrand.py``'s.

>>> rs = RandomState(0)
>>> bool(rs.rand() == __import__("numpy").random.RandomState(0).rand())
True
"""
from __future__ import annotations

import functools
import inspect
import math
import operator
from collections.abc import MutableSequence

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, normalize_axis, positional, rewrap
from ..frontend.engines.args import to_device, untraced
from ..frontend.engines.host import creates, made
from ..frontend.engines.out import store_out
from ..parallel import gather_names, scatter_names
from .draws import (_IMPL, _R, _Stream, _Tracer, _cellwise, _concrete, _float, _int, _is_key,
                    _result, _seed_words, _size, _slices, _split)


# --------------------------------------------------------------------------
# the table of distributions
# --------------------------------------------------------------------------
_NONNEG = ("< 0", lambda v: v < 0)
_POS = ("<= 0", lambda v: v <= 0)
_PROB = ("< 0, > 1 or is nan", lambda v: ~((v >= 0) & (v <= 1)))
_PROB_POS = ("<= 0, > 1 or is nan", lambda v: ~((v > 0) & (v <= 1)))



@_cellwise
def _normal(k, s, dt, loc, scale):
    return loc + scale * _R.normal(k, s, dt)


@_cellwise
def _uniform01(k, s, dt):
    return _R.uniform(k, s, dt)


@_cellwise
def _randint(k, s, dt, lo, hi):
    return _R.randint(k, s, lo, hi, dtype=dt)


@_cellwise
def _randint_closed(k, s, dt, lo, hi):
    return _R.randint(k, s, lo, hi + 1, dtype=dt)


# The gamma family shares one compiled kernel (log-space gamma draws, one
# compile per shape and dtype): JAX's rejection sampler is slow to compile.
def _composite(draw):
    draw.composite = True  # _sample calls it as is; its parts are jitted
    return draw


@jax.jit(static_argnums=(2,))
def _loggamma_kernel(key, a, dt):
    return _R.loggamma(key, a, a.shape, dt)


def _loggamma(key, a, s, dt):
    return _loggamma_kernel(key, jnp.broadcast_to(jnp.asarray(a, dt), s), dt)


@_composite
def _std_gamma(k, s, dt, a):
    return jnp.exp(_loggamma(k, a, s, dt))


@_composite
def _gamma(k, s, dt, a, scale):
    return scale * jnp.exp(_loggamma(k, a, s, dt))


@_composite
def _beta(k, s, dt, a, b):
    k1, k2 = _split(k)
    return jax.nn.sigmoid(_loggamma(k1, a, s, dt) - _loggamma(k2, b, s, dt))


@_composite
def _chisquare(k, s, dt, df):
    return 2 * jnp.exp(_loggamma(k, jnp.asarray(df, dt) / 2, s, dt))


@_composite
def _t(k, s, dt, df):
    k1, k2 = _split(k)
    return _R.normal(k1, s, dt) * jnp.sqrt(df / _chisquare(k2, s, dt, df))


@_composite
def _f(k, s, dt, a, b):
    k1, k2 = _split(k)
    return (_chisquare(k1, s, dt, a) / a) / (_chisquare(k2, s, dt, b) / b)


def _whole(draw):
    """JAX's sampler loops from a constant (``binomial``): over a mesh, draw
    whole and keep this instance's part (see :func:`_slices`)."""
    draw.whole = True
    return draw


def _binomial(k, s, dt, n, p):
    return _R.binomial(k, n, p, s, _float())


@jax.jit(static_argnums=(1, 2, 3, 5))
def _choice_idx(key, n, shape, replace, p, dt):
    return _R.choice(key, n, shape, replace, p).astype(dt)


@jax.jit(static_argnums=(1, 2))
def _perm(key, n, dt):
    return _R.permutation(key, n).astype(dt)


# name: ((param, default, check), ...), result kind, draw(key, shape, dtype, *params)
_REQ = inspect.Parameter.empty
_DISTRIBUTIONS = {
    "standard_normal": ((), "f", lambda k, s, dt: _R.normal(k, s, dt)),
    "normal": ((("loc", 0.0, None), ("scale", 1.0, _NONNEG)), "f", _normal),
    "uniform": ((("low", 0.0, None), ("high", 1.0, None)), "f",
                lambda k, s, dt, lo, hi: lo + (hi - lo) * _R.uniform(k, s, dt)),
    "standard_exponential": ((), "f", lambda k, s, dt: _R.exponential(k, s, dt)),
    "exponential": ((("scale", 1.0, _NONNEG),), "f",
                    lambda k, s, dt, scale: scale * _R.exponential(k, s, dt)),
    "standard_gamma": ((("shape", _REQ, _NONNEG),), "f", _std_gamma),
    "gamma": ((("shape", _REQ, _NONNEG), ("scale", 1.0, _NONNEG)), "f", _gamma),
    "beta": ((("a", _REQ, _POS), ("b", _REQ, _POS)), "f", _beta),
    "chisquare": ((("df", _REQ, _POS),), "f", _chisquare),
    "f": ((("dfnum", _REQ, _POS), ("dfden", _REQ, _POS)), "f", _f),
    "standard_t": ((("df", _REQ, _POS),), "f", _t),
    "standard_cauchy": ((), "f", lambda k, s, dt: _R.cauchy(k, s, dt)),
    "lognormal": ((("mean", 0.0, None), ("sigma", 1.0, _NONNEG)), "f",
                  lambda k, s, dt, m, sg: jnp.exp(_normal(k, s, dt, m, sg))),
    "laplace": ((("loc", 0.0, None), ("scale", 1.0, _NONNEG)), "f",
                lambda k, s, dt, loc, scale: loc + scale * _R.laplace(k, s, dt)),
    "logistic": ((("loc", 0.0, None), ("scale", 1.0, _NONNEG)), "f",
                 lambda k, s, dt, loc, scale: loc + scale * _R.logistic(k, s, dt)),
    "gumbel": ((("loc", 0.0, None), ("scale", 1.0, _NONNEG)), "f",
               lambda k, s, dt, loc, scale: loc + scale * _R.gumbel(k, s, dt)),
    "rayleigh": ((("scale", 1.0, _NONNEG),), "f",
                 lambda k, s, dt, scale: _R.rayleigh(k, scale, s, dt)),
    # NumPy's pareto is the Lomax distribution: Pareto I minus one
    "pareto": ((("a", _REQ, _POS),), "f", lambda k, s, dt, a: _R.pareto(k, a, s, dt) - 1),
    "weibull": ((("a", _REQ, _NONNEG),), "f",
                lambda k, s, dt, a: _R.weibull_min(k, 1.0, a, s, dt)),
    "power": ((("a", _REQ, _POS),), "f",
              lambda k, s, dt, a: _R.uniform(k, s, dt) ** (1.0 / a)),
    "triangular": ((("left", _REQ, None), ("mode", _REQ, None), ("right", _REQ, None)), "f",
                   lambda k, s, dt, lo, mo, hi: _R.triangular(k, lo, mo, hi, s, dt)),
    "poisson": ((("lam", 1.0, _NONNEG),), "i", lambda k, s, dt, lam: _R.poisson(k, lam, s, dt)),
    "binomial": ((("n", _REQ, _NONNEG), ("p", _REQ, _PROB)), "i", _binomial),
    "geometric": ((("p", _REQ, _PROB_POS),), "i",
                  lambda k, s, dt, p: _R.geometric(k, p, s, dt)),
}
# the samplers elementwise in threefry's counter (drawn in the operands' layout)
for _n in ("standard_normal", "uniform", "standard_exponential", "exponential",
           "standard_cauchy", "lognormal", "laplace", "logistic", "gumbel", "rayleigh",
           "pareto", "weibull", "power", "triangular", "geometric"):
    _cellwise(_DISTRIBUTIONS[_n][2])
del _n
# Generator methods that also take ``dtype`` (float32 or float64) and ``out``
_WITH_DTYPE = {"standard_normal", "standard_exponential", "standard_gamma"}


def _check_params(fn, spec, values):
    for (pname, _, check), v in zip(spec, values):
        if check is None:
            continue
        c = _concrete(v)
        if c is not None and c.size and onp.any(check[1](c)):
            raise ValueError(f"{fn}: {pname} {check[0]}")


def _distribution(name, spec, kind, draw, with_dtype):
    P = inspect.Parameter
    sig = [P("self", P.POSITIONAL_OR_KEYWORD)]
    sig += [P(p, P.POSITIONAL_OR_KEYWORD, default=d) for p, d, _ in spec]
    sig += [P("size", P.POSITIONAL_OR_KEYWORD, default=None)]
    if with_dtype:
        sig += [P("dtype", P.POSITIONAL_OR_KEYWORD, default=onp.float64),
                P("out", P.KEYWORD_ONLY, default=None)]
    sig = inspect.Signature(sig)

    def method(self, *args, **kwargs):
        try:
            b = sig.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}: {e}") from None
        b.apply_defaults()
        a = b.arguments
        values = [a[p] for p, _, _ in spec]
        _check_params(name, spec, values)
        if kind == "i":
            dtype = _int()
        elif with_dtype:
            dtype = _float_dtype(name, a["dtype"])
        else:
            dtype = _float()
        if with_dtype and a["out"] is not None:
            return _fill_out(self, name, draw, values, dtype, a["out"])
        return self._sample(name, draw, values, a["size"], dtype,
                            int if kind == "i" else float)

    method.__name__ = method.__qualname__ = name
    method.__signature__ = sig
    pnames = ", ".join(p for p, _, _ in spec)
    method.__doc__ = (f"``numpy.random.{name}``: draws from JAX's PRNG; parameters "
                      f"({pnames or 'none'}) broadcast as in NumPy, named axes ride along."
                      f"\n\nSee ``numpy.random.Generator.{name}``.")
    return method


def _float_dtype(fn, dtype):
    dt = onp.dtype(dtype)
    if dt not in (onp.float32, onp.float64):
        raise TypeError(f"{fn}: dtype must be float32 or float64, got {dt}")
    return jnp.dtype(dt) if dt == onp.float32 else _float()


def _fill_out(self, fn, draw, values, dtype, out):
    """Draw into ``out``: its positional shape is the size, its named axes
    (mapped ones too) are batch axes like a named parameter's."""
    if not isinstance(out, NamedArray):
        raise TypeError(f"{fn}: out must be a NamedArray, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{fn}: out has dtype {out.dtype} but dtype is {dtype}")
    res = self._sample(fn, draw, values, out.shape, dtype, None, like=out)
    if set(res.named_shape) != set(out.named_shape):
        raise ValueError(f"{fn}: the parameters' named axes {res.named_shape} do not fit "
                         f"out (named shape {out.named_shape})")
    out._assign(fn, res)
    return out


class _Sampler(_Stream):
    """Methods common to RandomState and Generator (filled from the table)."""

    def random_sample(self, size=None):
        """Uniform floats in [0, 1)."""
        return self._sample("random_sample", _uniform01, (), size, _float(), float)

    def bytes(self, length):
        """``length`` random bytes."""
        n = operator.index(length)
        return onp.asarray(_R.bits(self._next_key("bytes"), (n,), jnp.uint8)).tobytes()

    def _integers(self, fn, low, high, size, dtype, endpoint, scalar):
        if high is None:
            low, high = 0, low
        # ``int`` (the default) is the default integer: int64, or int32 with
        # JAX's dtype defaults (never a request JAX would truncate with a warning)
        dt = onp.dtype(_int() if dtype is int else dtype)
        if dt.kind not in "biu":
            raise TypeError(f"{fn}: dtype must be an integer or bool dtype, got {dt}")
        lo, hi = _concrete(low), _concrete(high)
        info = onp.iinfo(dt) if dt.kind != "b" else onp.iinfo(onp.uint8)
        top = 1 if dt.kind == "b" else info.max
        if lo is not None and lo.size and lo.min() < info.min:
            raise ValueError(f"{fn}: low is out of bounds for {dt}")
        if hi is not None and hi.size and (hi.max() - (0 if endpoint else 1)) > top:
            raise ValueError(f"{fn}: high is out of bounds for {dt}")
        if lo is not None and hi is not None and lo.size and hi.size:
            bad = (lo > hi) if endpoint else (lo >= hi)
            if onp.any(bad):
                raise ValueError(f"{fn}: low {'>' if endpoint else '>='} high")
        work = jnp.dtype(jnp.uint64 if dt == onp.uint64 else _int())
        return self._sample(fn, _randint_closed if endpoint else _randint, (low, high), size,
                            jnp.dtype(dt), scalar, work)

    def _choice(self, fn, a, size, replace, p, axis=0, legacy=True):
        shape = _size(fn, size) or ()
        n_out = math.prod(shape)
        arr = None
        if isinstance(a, (int, onp.integer)) and not isinstance(a, bool):
            pop = int(a)
            if pop < 0 or pop == 0 and n_out:
                raise ValueError(f"{fn}: a must be a positive integer unless no samples "
                                 f"are taken, got {pop}")
        else:
            arr = _as_array(a)
            if legacy and arr.ndim != 1:
                raise ValueError(f"{fn}: a must be 1-dimensional, got shape {arr.shape}")
            if arr.ndim == 0 and not isinstance(axis, str):
                raise ValueError(f"{fn}: a must be an int or have at least one axis")
            arr, axis, _ = _along(fn, arr, axis)
            pop = arr.shape[axis]
            if pop == 0 and n_out:
                raise ValueError(f"{fn}: a cannot be empty unless no samples are taken")
        if p is not None:
            p = _as_array(p)
            pc = _concrete(p)
            if p.ndim != 1:
                raise ValueError(f"{fn}: p must be 1-dimensional, got shape {p.shape}")
            if p.shape[0] != pop:
                raise ValueError(f"{fn}: a and p must have the same size, got {pop} "
                                 f"and {p.shape[0]}")
            if pc is not None:   # (positional axis first, then any named ones)
                if onp.any(pc < 0) or not onp.all(onp.isfinite(pc)):
                    raise ValueError(f"{fn}: probabilities are not non-negative")
                total = pc.sum(axis=0)
                if onp.any(abs(total - 1) > onp.sqrt(onp.finfo(onp.float64).eps)):
                    raise ValueError(f"{fn}: probabilities do not sum to 1 "
                                     f"(they sum to {total})")
                if not replace and onp.min(onp.count_nonzero(pc, axis=0)) < n_out:
                    raise ValueError(f"{fn}: fewer non-zero entries in p than size")
        if not replace and n_out > pop:
            raise ValueError(f"{fn}: cannot take a larger sample ({n_out}) than the "
                             f"population ({pop}) when replace=False")
        ops = [o for o in (arr, p) if o is not None]
        res = _slices(fn, self._next_key(fn), _run_choice,
                      (pop, shape, replace, axis, _int(), arr is not None, p is not None), ops)
        return _result(res, int if size is None and arr is None else None)

    def _reorder(self, fn, arr, axis, independent):
        """``arr`` shuffled along ``axis`` (an int, a name, or ``None``: the
        positional axes flattened); ``independent``: each slice on its own."""
        whole, ax, name = _along(fn, arr, axis)
        res = _slices(fn, self._next_key(fn), _run_reorder, (ax, independent, _int()),
                      [whole])
        return res if name is None else scatter_names(fn, res, [name], arr, last=True)

    def _permute(self, fn, x, axis=0):
        """A shuffled copy along ``axis`` (an int, or a name)."""
        if isinstance(x, (int, onp.integer)) and not isinstance(x, bool):
            return positional(_perm(self._next_key(fn), int(x), _int()))
        arr = _as_array(x)
        if arr.ndim == 0 and not isinstance(axis, str):
            raise IndexError(f"{fn}: x must be an integer or at least 1-dimensional")
        return self._reorder(fn, arr, axis, False)

    def _shuffle(self, fn, x, axis=0):
        if isinstance(x, NamedArray):
            if x.ndim == 0 and not isinstance(axis, str):
                raise TypeError(f"{fn}: cannot shuffle a 0-d array")
            x._assign(fn, self._reorder(fn, x, axis, False))
            return None
        if isinstance(x, onp.ndarray):
            if x.ndim == 0:
                raise TypeError(f"{fn}: cannot shuffle a 0-d array")
            ax = axis if isinstance(axis, int) else 0
            perm = onp.asarray(_perm(self._next_key(fn), x.shape[ax], _int()))
            x[...] = onp.take(x, perm, axis=ax)
            return None
        if isinstance(x, MutableSequence):
            perm = onp.asarray(_perm(self._next_key(fn), len(x), _int()))
            x[:] = [x[i] for i in perm]
            return None
        raise TypeError(f"{fn}: x must be a mutable array (a NamedArray, a NumPy array or a "
                        f"list) to be shuffled in place, got {type(x).__name__}; "
                        "use permutation(x) for a shuffled copy")

    def _vector(self, fn, run, static, ops, dtype):
        res = _slices(fn, self._next_key(fn), run, static, ops,
                      whole=getattr(run, "whole", False))
        return rewrap(res, res.data.astype(dtype))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            *, method="svd"):
        """Multivariate normal draws of shape ``size + (k,)``."""
        mean, cov = _as_array(mean, _float()), _as_array(cov, _float())
        if mean.ndim != 1 or cov.shape != mean.shape * 2:
            raise ValueError(f"multivariate_normal: mean must be 1-d and cov (k, k), got "
                             f"shapes {mean.shape} and {cov.shape}")
        shape = _size("multivariate_normal", size) or ()
        return self._vector("multivariate_normal", _run_mvn, (shape, method, _float()),
                            [mean, cov], _float())

    def dirichlet(self, alpha, size=None):
        """Dirichlet draws of shape ``size + (k,)``."""
        alpha = _as_array(alpha, _float())
        c = _concrete(alpha)
        if alpha.ndim != 1 or c is not None and onp.any(c <= 0):
            raise ValueError("dirichlet: alpha must be 1-d with every entry > 0")
        shape = _size("dirichlet", size) or ()
        return self._vector("dirichlet", _run_dirichlet, (shape, _float()), [alpha], _float())

    def multinomial(self, n, pvals, size=None):
        """Multinomial counts of shape ``size + (k,)``."""
        p = _as_array(pvals, _float())
        c = _concrete(p)
        if p.ndim != 1 or c is not None and (onp.any(c < 0) or onp.any(
                c[:-1].sum(axis=0) > 1.0 + 1e-12)):
            raise ValueError("multinomial: pvals must be 1-d, non-negative, with "
                             "sum(pvals[:-1]) <= 1")
        n = _as_array(n, _int()) if isinstance(n, NamedArray) else operator.index(n)
        cn = _concrete(n)
        if cn is not None and onp.any(cn < 0):
            raise ValueError("multinomial: n < 0")
        shape = _size("multinomial", size) or ()
        return self._vector("multinomial", _run_multinomial, (shape, _float()), [n, p], _int())


def _as_array(x, dtype=None):
    """An argument as a NamedArray (``dtype``: cast to it)."""
    if isinstance(x, NamedArray):
        return x if dtype is None or x.dtype == dtype else rewrap(x, x.data.astype(dtype))
    return positional(jnp.asarray(x, dtype))


def _along(fn, arr, axis):
    """``axis`` of ``arr`` (an int, a name, or None) -> (array, positional axis
    or None, name or None): a named axis is gathered whole (wherever it lives)
    into the last positional axis."""
    if axis is None:
        return arr, None, None
    if isinstance(axis, str):
        if axis not in arr.named_shape:
            raise ValueError(f"{fn}: axis names {axis!r}, but the array has named axes "
                             f"{arr.named_shape} (positional shape {arr.shape})")
        whole = gather_names(fn, arr, [axis], last=True)
        return whole, whole.ndim - 1, axis
    return arr, normalize_axis(fn, axis, arr.ndim), None


# what one named slice draws: run(key, static, *positional operands)
def _run_choice(key, static, *ops):
    pop, shape, replace, axis, dt, has_a, has_p = static
    idx = _choice_idx(key, pop, shape, replace, ops[-1] if has_p else None, dt)
    return jnp.take(ops[0], idx, axis=axis) if has_a else idx


def _run_reorder(key, static, x):
    axis, independent, dt = static
    if axis is None:
        return _R.permutation(key, x.reshape(-1), independent=True).reshape(x.shape)
    if independent:
        return _R.permutation(key, x, axis=axis, independent=True)
    return jnp.take(x, _perm(key, x.shape[axis], dt), axis=axis)


def _run_mvn(key, static, mean, cov):
    shape, method, dt = static
    return _R.multivariate_normal(key, mean, cov, shape, dt, method=method)


def _run_dirichlet(key, static, alpha):
    shape, dt = static
    return jax.nn.softmax(_loggamma(key, alpha, shape + alpha.shape[-1:], dt), axis=-1)


@_whole
def _run_multinomial(key, static, n, p):
    shape, dt = static
    return _R.multinomial(key, n, p, shape=shape + p.shape[-1:], dtype=dt)


class RandomState(_Sampler):
    """NumPy's legacy ``RandomState`` API on a JAX key stream.

    >>> import namedarray as np
    >>> rs = np.random.RandomState(1)
    >>> float(rs.uniform(2, 3)) >= 2
    True
    """

    def __init__(self, seed=None):
        self.seed(seed)

    def __repr__(self):
        return f"RandomState({_IMPL}, draws={self._count})"

    def seed(self, seed=None):
        """Reseed: the same seed gives the same stream (NumPy's, in eager code)."""
        self._set(_seed_words("seed", seed, legacy=True))
        self._host = onp.random.RandomState(seed)

    random = ranf = sample = _Sampler.random_sample

    def rand(self, *shape):
        """Uniform [0, 1) draws of the given shape."""
        return self.random_sample(shape or None)

    def randn(self, *shape):
        """Standard normal draws of the given shape."""
        return self.standard_normal(shape or None)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) (or [0, low))."""
        dt = onp.dtype(_int() if dtype is int else dtype)
        scalar = int if dt == onp.dtype(_int()) else bool if dt == onp.bool_ else None
        return self._integers("randint", low, high, size, dtype, False, scalar)

    def random_integers(self, low, high=None, size=None):
        """Deprecated in NumPy: integers in [low, high] (or [1, low])."""
        if high is None:
            low, high = 1, low
        return self._integers("random_integers", low, high, size, int, True, None)

    def choice(self, a, size=None, replace=True, p=None):
        """Samples from ``a`` (an int n means ``arange(n)``)."""
        return self._choice("choice", a, size, replace, p, legacy=True)

    def shuffle(self, x):
        """Shuffle ``x`` in place along its first axis."""
        return self._shuffle("shuffle", x)

    def permutation(self, x):
        """A shuffled copy of ``x`` (or of ``arange(x)``)."""
        return self._permute("permutation", x)


class Generator(_Sampler):
    """NumPy's ``Generator`` API on a JAX key stream; see :func:`default_rng`.

    ``Generator(seed)`` takes what ``default_rng`` takes: ``None``, an int or
    sequence of ints, a ``SeedSequence``, a NumPy bit generator, or a JAX key.
    """

    def __init__(self, seed=None):
        if isinstance(seed, NamedArray) and not seed.dims and not seed.mapped:
            seed = seed.data     # a key a map handed over as a 0-d array
        if _is_key(seed):
            if seed.shape != ():
                raise ValueError(f"Generator: expected a single JAX key, got shape {seed.shape}")
            self._set(None, seed)
            self._keyed = True
        elif isinstance(seed, jax.Array) and seed.dtype == jnp.uint32 and seed.shape == (2,):
            # raw key data, as jax.random.PRNGKey makes
            self._set(None, jax.random.wrap_key_data(seed, impl=_IMPL))
            self._keyed = True
        elif isinstance(seed, _Tracer) or isinstance(seed, NamedArray) and isinstance(
                seed.data, _Tracer):
            raise TypeError(
                f"default_rng: a traced seed must be a JAX key (jax.random.key(...) or "
                f"PRNGKey data), got a traced {seed.dtype} array of shape {seed.shape}")
        else:
            self._set(_seed_words("default_rng", seed))
            self._host = onp.random.default_rng(seed)

    def __repr__(self):
        return f"Generator({_IMPL}, draws={self._count})"

    def random(self, size=None, dtype=onp.float64, out=None):
        """Uniform floats in [0, 1)."""
        dt = _float_dtype("random", dtype)
        if out is not None:
            return _fill_out(self, "random", _uniform01, (), dt, out)
        return self._sample("random", _uniform01, (), size, dt, float)

    def integers(self, low, high=None, size=None, dtype=int, endpoint=False):
        """Integers in [low, high) (``endpoint=True``: [low, high]); ``dtype``
        defaults to the default integer (NumPy's int64)."""
        return self._integers("integers", low, high, size, dtype, endpoint,
                              bool if onp.dtype(dtype) == onp.bool_ else None)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples from ``a`` along ``axis`` (an int n means ``arange(n)``)."""
        return self._choice("choice", a, size, replace, p, axis, legacy=False)

    def shuffle(self, x, axis=0):
        """Shuffle ``x`` in place along ``axis`` (which may name an axis)."""
        return self._shuffle("shuffle", x, axis)

    def permutation(self, x, axis=0):
        """A shuffled copy of ``x`` along ``axis`` (or of ``arange(x)``)."""
        return self._permute("permutation", x, axis)

    def permuted(self, x, axis=None, out=None):
        """Each slice along ``axis`` shuffled independently (``None``: the
        positional axes flattened; named axes are batch axes)."""
        res = self._reorder("permuted", _as_array(x), axis, True)
        return store_out("permuted", out, res)

    def spawn(self, n_children):
        """``n_children`` independent generators (this stream advances by one draw;
        a NumPy-seeded one spawns as NumPy does)."""
        if self._host is not None and not self._keyed:
            return [Generator(g.bit_generator) for g in self._host.spawn(n_children)]
        keys = _R.split(self._next_key("spawn"), operator.index(n_children))
        children = [Generator(k) for k in keys]
        for c in children:   # children of a NumPy-seeded stream are NumPy-seeded too
            c._keyed = self._keyed
        return children


for _name, (_spec, _kind, _draw) in _DISTRIBUTIONS.items():
    setattr(RandomState, _name, _distribution(_name, _spec, _kind, _draw, False))
    setattr(Generator, _name, _distribution(_name, _spec, _kind, _draw, _name in _WITH_DTYPE))
del _name, _spec, _kind, _draw


def default_rng(seed=None):
    """A :class:`Generator`; a Generator passed in is returned as is.

    ``seed`` is what NumPy takes (``None``, ints, a ``SeedSequence``, a bit
    generator), or a JAX key (``jax.random.key(0)`` or ``PRNGKey`` data),
    which may be traced: the keyed form, for ``jax.jit`` and ``nmap``.
    """
    return seed if isinstance(seed, Generator) else Generator(seed)


def _hosted(name, method):
    """``method`` drawing from the NumPy generator of a NumPy-seeded stream
    when the call is eager and meets no named or traced NamedArray (then the
    draw is NumPy's, moved to the device; a positional NamedArray argument,
    ``size=np.int64(10)`` or ``loc=np.zeros(3)``, is given as NumPy's data);
    otherwise (keyed, named, traced, an array written in place) ``method``."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        host = self._host
        if host is None or self._keyed or not untraced() or any(
                isinstance(v, (jax.Array, dict)) or isinstance(v, NamedArray) and (
                    v.names or v.mapped or isinstance(v.data, jax.core.Tracer))
                or isinstance(v, tuple) and any(isinstance(e, dict) for e in v)
                for v in (*args, *kwargs.values())):
            return method(self, *args, **kwargs)
        # an array written in place (shuffle's, out=): NumPy's draw into a
        # copy, written back
        written = []

        def plain(v, inplace=False):
            if not isinstance(v, NamedArray):
                return v
            if not inplace:
                return onp.asarray(v)
            written.append((v, onp.array(v)))
            return written[-1][1]
        hargs = [plain(v, name == "shuffle" and not i) for i, v in enumerate(args)]
        hkw = {k: plain(v, k == "out") for k, v in kwargs.items()}
        try:
            res = getattr(host, name)(*hargs, **hkw)
        except (TypeError, ValueError, IndexError, OverflowError) as e:
            # the JAX path raises its own message naming the function; where it
            # accepts the call, NumPy's error, named
            method(self, *args, **kwargs)
            raise type(e)(f"{name}: {e}") from None
        for v, h in written:
            v[...] = h
            if res is h:
                res = v
        if isinstance(res, (onp.ndarray, onp.generic)) and res.dtype.kind in "biufc":
            # NumPy's new draw, made as eager calls make new data: small, it
            # lives on the host (the host tier answers what it meets, compiling
            # nothing); else on the device
            h = onp.asarray(res)
            return made(h, fresh=True) if creates(h.shape) else positional(
                to_device(h, fresh=True))
        return res
    return run


for _cls, _host_cls in ((RandomState, onp.random.RandomState),
                        (Generator, onp.random.Generator)):
    for _name in dir(_cls):
        if (not _name.startswith("_") and _name not in ("seed", "get_state", "set_state", "spawn")
                and callable(getattr(_cls, _name)) and hasattr(_host_cls, _name)):
            setattr(_cls, _name, _hosted(_name, getattr(_cls, _name)))
del _cls, _host_cls, _name

"""``numpy.random`` on JAX's counter-based PRNG.

>>> import namedarray as np
>>> np.random.seed(0)
>>> np.random.normal(size=(2, 3)).shape
(2, 3)
>>> rng = np.random.default_rng(42)
>>> rng.integers(10, size=4).dtype
dtype('int64')

Both NumPy APIs are here: the legacy global state (``seed``, ``rand``,
``randn``, ``randint``, ``normal``, ..., ``get_state``/``set_state``,
``RandomState``) and ``default_rng(seed)`` returning a :class:`Generator`.

How it works.  A stream holds one JAX key (``threefry2x32``); every draw
splits it into (next key, key for this draw).  A seed goes through NumPy's
``SeedSequence`` (so ``None`` means fresh entropy, and ints of any size,
sequences of ints, ``SeedSequence`` and NumPy bit generators are accepted);
a JAX key can be given directly to ``default_rng``/``Generator``.  The same
seed gives the same stream; the *values* differ from NumPy's (a different
generator), the distributions are the same.  ``get_state()`` returns
``("threefry2x32", key_data, draws)`` and ``set_state`` takes it back.

Results are NamedArrays with NumPy's dtypes (``float64``/``int64`` by
default).  With ``size=None`` and scalar parameters a draw is a Python
``float``/``int`` where NumPy returns one, and a 0-d array where NumPy returns
a NumPy scalar (``Generator.integers``, ``choice`` from an array).
Parameters broadcast as in NumPy; a parameter with *named* axes gives a result
with those names (one independent draw per named slice); ``size`` is
positional.  ``shuffle`` works in place: on a NamedArray it rebinds
``x.data`` (and ``axis`` may name an axis); NumPy arrays and lists are
shuffled in place too.

Keyed, for traced code.  ``default_rng(key)`` with a JAX key
(``jax.random.key(0)``, or ``PRNGKey`` data; a traced key inside ``jax.jit``
is fine) is a Generator whose draws are a function of that key: different
keys give different draws, and a jitted function taking the key draws anew
for each key it is given.  The NumPy-seeded state (the module functions,
``RandomState``, ``default_rng(int)``) refuses to draw inside ``jax.jit`` or
another staged trace (``RuntimeError`` naming the keyed form), since it could
only draw once, at trace time.

>>> import jax
>>> draw = jax.jit(lambda key: np.random.default_rng(key).normal(size=2))
>>> bool((draw(jax.random.key(0)) != draw(jax.random.key(1))).all())
True

Named draws.  Each named slice of a draw uses the key with the slice's index
folded in (one ``fold_in`` per name, in sorted name order), so inside an
``nmap`` over a parameter's name every instance draws its own slice, and the
mapped result equals the physical draw.

Differences from NumPy: parameter checks (``scale < 0`` and the like) run on
concrete values only (not under tracing).  ``Generator.spawn`` advances the
parent's stream.
"""
from __future__ import annotations

import inspect
import math
import operator
from collections.abc import MutableSequence

import jax
import jax.numpy as jnp
import numpy as onp
from numpy.random import (MT19937, PCG64, PCG64DXSM, SFC64, BitGenerator,  # noqa: F401
                          Philox, SeedSequence)

from .core.array import NamedArray, align, new, normalize_axis, positional, rewrap
from .frontend.engines.out import store_out
from .parallel import axis_index

_IMPL = "threefry2x32"
_Tracer = jax.core.Tracer


def _float():
    return jnp.result_type(float)


def _int():
    return jnp.result_type(int)


@jax.jit
def _split(key):
    k = jax.random.split(key)
    return k[0], k[1]


# --------------------------------------------------------------------------
# the core: seeds -> keys, one key per draw
# --------------------------------------------------------------------------
def _seed_words(fn, seed, legacy=False):
    """A seed -> two uint32 words (the threefry key data)."""
    if isinstance(seed, BitGenerator):
        seed = getattr(seed, "seed_seq", None) or SeedSequence(
            [int(v) for v in seed.random_raw(2)])
    if isinstance(seed, SeedSequence):
        return seed.generate_state(2, onp.uint32)
    if legacy and seed is not None:
        s = onp.asarray(seed)
        if s.dtype.kind not in "iu":
            raise TypeError(f"{fn}: seed must be an int or a sequence of ints, got {seed!r}")
        if s.size and (s.min() < 0 or s.max() > 2**32 - 1):
            raise ValueError(f"{fn}: seed must be between 0 and 2**32 - 1, got {seed!r}")
    if isinstance(seed, (float, complex, str)):
        raise TypeError(f"{fn}: seed must be an int or a sequence of ints, got {seed!r}")
    try:
        ss = SeedSequence(seed if seed is None or isinstance(seed, int) else
                          [int(v) for v in onp.ravel(seed)])
    except (TypeError, ValueError) as e:
        raise type(e)(f"{fn}: seed {seed!r}: {e}") from None
    return ss.generate_state(2, onp.uint32)


def _is_key(x):
    return isinstance(x, jax.Array) and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)


class _Stream:
    """Key management shared by :class:`RandomState` and :class:`Generator`."""

    _keyed = False   # a stream from a JAX key: its draws are a function of that key

    def _set(self, words=None, key=None, count=0):
        self._words, self._key, self._count = words, key, count

    def _next_key(self, fn="draw"):
        key = self._key
        if key is None:
            with jax.ensure_compile_time_eval():
                key = jax.random.wrap_key_data(jnp.asarray(self._words, jnp.uint32),
                                               impl=_IMPL)
        if self._keyed:
            with jax.ensure_compile_time_eval():  # a concrete key stays concrete
                nxt, sub = _split(key)
        else:
            # a concrete key splits to tracers only under a staged trace (jit,
            # scan, a mesh map; eager vmap and grad evaluate it)
            nxt, sub = _split(key)
            if isinstance(sub, _Tracer):
                raise RuntimeError(
                    f"{fn}: random state seeded NumPy's way (the np.random functions, "
                    "RandomState, or default_rng(seed) with a NumPy seed) cannot draw "
                    "inside jax.jit or another staged trace: the sample would be drawn "
                    "once, when tracing, and every call would return it. Draw from a JAX "
                    "key instead: rng = np.random.default_rng(key), with key = "
                    "jax.random.key(seed) passed to the traced function (a traced key "
                    f"is fine), then rng.{fn}(...)")
        self._key = nxt
        self._count += 1
        return sub

    def get_state(self, legacy=True):
        """The stream's state: ``("threefry2x32", key_data, draws)`` (or, with
        ``legacy=False``, a dict like NumPy's)."""
        data = (onp.array(self._words, onp.uint32) if self._key is None
                else onp.asarray(jax.random.key_data(self._key)))
        if legacy:
            return (_IMPL, data, self._count)
        return {"bit_generator": _IMPL, "state": {"key": data, "counter": self._count}}

    def set_state(self, state):
        """Restore a state from :meth:`get_state`."""
        if isinstance(state, dict):
            name, inner = state.get("bit_generator"), state.get("state", {})
            state = (name, inner.get("key"), inner.get("counter", 0))
        if not isinstance(state, tuple) or len(state) != 3 or state[0] != _IMPL:
            shown = state[0] if isinstance(state, tuple) and state else type(state).__name__
            raise ValueError(
                f"set_state: expected a state from namedarray.random get_state(), "
                f"('{_IMPL}', key_data, draws), got a {shown!r} state")
        words = onp.asarray(state[1], onp.uint32)
        if words.shape != (2,):
            raise ValueError(f"set_state: key data must have shape (2,), got {words.shape}")
        self._set(words, None, int(state[2]))

    # -- the one sampler ------------------------------------------------------
    def _sample(self, fn, draw, params, size, dtype, scalar, work=None):
        """Draw ``draw(key, shape, dtype, *params)`` (jitted; ``work`` is the
        dtype it computes in, ``dtype`` the result's) with NumPy's broadcasting
        of ``params`` against ``size``; named axes of parameters ride along."""
        size = _size(fn, size)
        datas, shape, dims, mapped, index = _layout(fn, params, size)
        key = self._next_key(fn)
        if index:
            P = dims.count(None)
            data = _named_draw(draw, key, shape[:P], shape[P:], work or dtype, len(index),
                               *datas, *index)
        else:
            data = _jitted(draw)(key, shape, work or dtype, *datas)
        if data.dtype != dtype:
            data = data.astype(dtype)
        return _result(data, dims, scalar if size is None else None, mapped)


_JITTED: dict = {}


def _jitted(draw):
    if getattr(draw, "composite", False):
        return draw
    f = _JITTED.get(draw)
    if f is None:
        f = _JITTED[draw] = jax.jit(draw, static_argnums=(1, 2))
    return f


def _size(fn, size):
    if size is None:
        return None
    try:
        size = (operator.index(size),) if not isinstance(size, (tuple, list)) else tuple(
            operator.index(s) for s in size)
    except TypeError:
        raise TypeError(f"{fn}: size must be an int or a tuple of ints, got {size!r}") from None
    if any(s < 0 for s in size):
        raise ValueError(f"{fn}: negative dimensions are not allowed in size {size}")
    return size


def _layout(fn, params, size):
    """Parameters as arrays broadcastable to the output's physical shape.

    Returns (parameter data, physical shape, dims, mapped names, index data).
    With named axes (physical, or mapped by an enclosing map), the index data
    are each name's global index, in sorted name order, aligned like the
    parameters (see :func:`_named_draw`)."""
    ops = [p if isinstance(p, (NamedArray, int, float)) else positional(jnp.asarray(p))
           for p in params]
    arrays = [o for o in ops if isinstance(o, NamedArray)]
    mapped, index, names = (), [], ()
    if any(o.names or o.mapped for o in arrays):
        datas, dims, mapped = align(fn, ops)
        P = dims.count(None)
        local = {nm: max(d.shape[P + j] for d in datas if not isinstance(d, (int, float)))
                 for j, nm in enumerate(dims[P:])}
        bound = dict(mapped)
        # each name's global index: this instance's (block of) indices where a
        # map binds the name, else the positions along the physical axis
        index = [axis_index(nm) if nm in bound else
                 new(jnp.arange(local[nm], dtype=jnp.uint32), (nm,))
                 for nm in sorted(set(local) | set(bound))]
        datas, dims, mapped = align(fn, ops + index)
        datas, index = datas[:len(ops)], datas[len(ops):]
        P = dims.count(None)
        names = dims[P:]
        shapes = [d.shape[:P] for d in datas if not isinstance(d, (int, float))]
    else:
        datas = [o.data if isinstance(o, NamedArray) else o for o in ops]
        shapes = [o.shape for o in arrays]
    try:
        pshape = onp.broadcast_shapes(*shapes)
        shape = pshape if size is None else size
        if onp.broadcast_shapes(shape, pshape) != shape:
            raise ValueError
    except ValueError:
        shown = ", ".join(str(s) for s in shapes)
        raise ValueError(f"{fn}: parameters with shapes {shown} cannot be broadcast "
                         + ("together" if size is None else f"to size {size}")) from None
    if not index:
        return datas, tuple(shape), (None,) * len(shape), mapped, index
    pad = len(shape) - P
    datas, index = ([d if isinstance(d, (int, float)) else d.reshape((1,) * pad + d.shape)
                     for d in ds] for ds in (datas, index))
    k = len(names)
    named = tuple(max(d.shape[d.ndim - k + j] for d in [*datas, *index]
                      if not isinstance(d, (int, float))) for j in range(k))
    return datas, tuple(shape) + named, (None,) * len(shape) + names, mapped, index


@jax.jit(static_argnums=(0, 2, 3, 4, 5))
def _named_draw(draw, key, pos, named, dtype, m, *datas):
    """One draw of positional shape ``pos`` per element of the named axes
    (physical shape ``pos + named``), from the key with each name's index
    folded in (sorted by name), so a map over a name draws, in each instance,
    exactly that instance's slice of the physical draw."""
    datas, index = datas[:len(datas) - m], datas[len(datas) - m:]
    P, k, M = len(pos), len(named), math.prod(named)

    def flat(d):   # (..pos.., ..named..) -> (M, ..pos..)
        d = jnp.asarray(d)
        d = d.reshape((1,) * (P + k - d.ndim) + d.shape)
        d = jnp.broadcast_to(d, d.shape[:P] + named)
        return jnp.moveaxis(d, tuple(range(P, P + k)), tuple(range(k))).reshape(
            (M,) + d.shape[:P])

    ix = jnp.stack([flat(jnp.asarray(i, jnp.uint32)).reshape(M) for i in index], axis=-1)
    params = [flat(d) for d in datas]

    def one(ix, *ps):
        k_ = key
        for j in range(m):
            k_ = _R.fold_in(k_, ix[j])
        return draw(k_, pos, dtype, *ps)

    out = jax.vmap(one)(ix, *params)
    return jnp.moveaxis(out.reshape(named + pos), tuple(range(k)), tuple(range(P, P + k)))


def _result(data, dims, scalar, mapped=()):
    """NumPy's return kinds: a Python scalar for a 0-d draw with ``size=None``
    where NumPy gives one (not while tracing), else an array."""
    if scalar is not None and not dims and not mapped and not isinstance(data, _Tracer):
        return scalar(data)
    return new(data, dims, mapped) if dims or mapped else positional(data)


def _concrete(v):
    if isinstance(v, NamedArray):
        v = v.data
    if isinstance(v, _Tracer):
        return None
    return onp.asarray(v)


# --------------------------------------------------------------------------
# the table of distributions
# --------------------------------------------------------------------------
_NONNEG = ("< 0", lambda v: v < 0)
_POS = ("<= 0", lambda v: v <= 0)
_PROB = ("< 0, > 1 or is nan", lambda v: ~((v >= 0) & (v <= 1)))
_PROB_POS = ("<= 0, > 1 or is nan", lambda v: ~((v > 0) & (v <= 1)))

_R = jax.random


def _normal(k, s, dt, loc, scale):
    return loc + scale * _R.normal(k, s, dt)


def _uniform01(k, s, dt):
    return _R.uniform(k, s, dt)


def _randint(k, s, dt, lo, hi):
    return _R.randint(k, s, lo, hi, dtype=dt)


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
    "binomial": ((("n", _REQ, _NONNEG), ("p", _REQ, _PROB)), "i",
                 lambda k, s, dt, n, p: _R.binomial(k, n, p, s, _float())),
    "geometric": ((("p", _REQ, _PROB_POS),), "i",
                  lambda k, s, dt, p: _R.geometric(k, p, s, dt)),
}
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
    if not isinstance(out, NamedArray):
        raise TypeError(f"{fn}: out must be a NamedArray, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{fn}: out has dtype {out.dtype} but dtype is {dtype}")
    res = self._sample(fn, draw, values, out.data.shape, dtype, None)
    if res.data.shape != out.data.shape:
        raise ValueError(f"{fn}: the parameters' named axes do not fit out "
                         f"(named shape {out.named_shape})")
    out.data = res.data  # one draw per element, named axes included
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
        dt = onp.dtype(dtype)
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
            arr = a if isinstance(a, NamedArray) else positional(jnp.asarray(a))
            if legacy and arr.ndim != 1:
                raise ValueError(f"{fn}: a must be 1-dimensional, got shape {arr.shape}")
            if arr.ndim == 0:
                raise ValueError(f"{fn}: a must be an int or have at least one axis")
            axis = _axis(fn, arr, axis)
            pop = arr.data.shape[axis]
            if pop == 0 and n_out:
                raise ValueError(f"{fn}: a cannot be empty unless no samples are taken")
        if p is not None:
            pc = _concrete(p)
            if pc is not None:
                if pc.ndim != 1:
                    raise ValueError(f"{fn}: p must be 1-dimensional, got shape {pc.shape}")
                if pc.size != pop:
                    raise ValueError(f"{fn}: a and p must have the same size, got {pop} "
                                     f"and {pc.size}")
                if onp.any(pc < 0) or not onp.all(onp.isfinite(pc)):
                    raise ValueError(f"{fn}: probabilities are not non-negative")
                if abs(pc.sum() - 1) > onp.sqrt(onp.finfo(onp.float64).eps):
                    raise ValueError(f"{fn}: probabilities do not sum to 1 "
                                     f"(they sum to {pc.sum()})")
                if not replace and onp.count_nonzero(pc) < n_out:
                    raise ValueError(f"{fn}: fewer non-zero entries in p than size")
            p = p.data if isinstance(p, NamedArray) else jnp.asarray(p)
        if not replace and n_out > pop:
            raise ValueError(f"{fn}: cannot take a larger sample ({n_out}) than the "
                             f"population ({pop}) when replace=False")
        idx = _choice_idx(self._next_key(fn), pop, shape, replace, p, _int())
        if arr is None:
            return _result(idx, (), int if size is None else None)
        data = jnp.take(arr.data, idx, axis=axis)
        k = arr.ndim - 1 + idx.ndim
        return new(data, (None,) * k + arr.names, arr.mapped) if arr.names or arr.mapped \
            else positional(data)

    def _permute(self, fn, x, axis=0):
        """A shuffled copy along ``axis`` (an int, or a name)."""
        if isinstance(x, (int, onp.integer)) and not isinstance(x, bool):
            return positional(_perm(self._next_key(fn), int(x), _int()))
        arr = x if isinstance(x, NamedArray) else positional(jnp.asarray(x))
        if arr.ndim == 0 and not isinstance(axis, str):
            raise IndexError(f"{fn}: x must be an integer or at least 1-dimensional")
        d = _axis(fn, arr, axis)
        perm = _perm(self._next_key(fn), arr.data.shape[d], _int())
        return rewrap(arr, jnp.take(arr.data, perm, axis=d))

    def _shuffle(self, fn, x, axis=0):
        if isinstance(x, NamedArray):
            if x.ndim == 0 and not isinstance(axis, str):
                raise TypeError(f"{fn}: cannot shuffle a 0-d array")
            x.data = self._permute(fn, x, axis).data
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

    def _vector(self, fn, draw, size, k, dtype):
        shape = (_size(fn, size) or ())
        return positional(draw(self._next_key(fn), shape, k).astype(dtype))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            *, method="svd"):
        """Multivariate normal draws of shape ``size + (k,)``."""
        mean, cov = jnp.asarray(mean, _float()), jnp.asarray(cov, _float())
        if mean.ndim != 1 or cov.shape != mean.shape * 2:
            raise ValueError(f"multivariate_normal: mean must be 1-d and cov (k, k), got "
                             f"shapes {mean.shape} and {cov.shape}")
        return self._vector("multivariate_normal", lambda key, s, _: _R.multivariate_normal(
            key, mean, cov, s, _float(), method=method), size, mean.shape[0], _float())

    def dirichlet(self, alpha, size=None):
        """Dirichlet draws of shape ``size + (k,)``."""
        alpha = jnp.asarray(alpha, _float())
        c = _concrete(alpha)
        if c.ndim != 1 or onp.any(c <= 0):
            raise ValueError("dirichlet: alpha must be 1-d with every entry > 0")
        return self._vector("dirichlet", lambda key, s, k: jax.nn.softmax(
            _loggamma(key, alpha, s + (k,), _float()), axis=-1), size, alpha.shape[0], _float())

    def multinomial(self, n, pvals, size=None):
        """Multinomial counts of shape ``size + (k,)``."""
        p = jnp.asarray(pvals, _float())
        c = _concrete(p)
        if c.ndim != 1 or onp.any(c < 0) or c[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("multinomial: pvals must be 1-d, non-negative, with "
                             "sum(pvals[:-1]) <= 1")
        if operator.index(n) < 0:
            raise ValueError("multinomial: n < 0")
        return self._vector("multinomial", lambda key, s, k: _R.multinomial(
            key, n, p, shape=s + (k,), dtype=_float()), size, p.shape[0], _int())


def _axis(fn, arr, axis):
    """An axis (int: positional, str: a name) -> the physical dimension."""
    if isinstance(axis, str):
        if axis not in arr.names:
            raise ValueError(f"{fn}: axis names {axis!r}, but the array has named axes "
                             f"{arr.named_shape} (positional shape {arr.shape})")
        return arr.dims.index(axis)
    return normalize_axis(fn, axis, arr.ndim)


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
        """Reseed: the same seed gives the same stream."""
        self._set(_seed_words("seed", seed, legacy=True))

    random = ranf = sample = _Sampler.random_sample

    def rand(self, *shape):
        """Uniform [0, 1) draws of the given shape."""
        return self.random_sample(shape or None)

    def randn(self, *shape):
        """Standard normal draws of the given shape."""
        return self.standard_normal(shape or None)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) (or [0, low))."""
        dt = onp.dtype(dtype)
        scalar = int if dt == onp.dtype(int) else bool if dt == onp.bool_ else None
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

    def __repr__(self):
        return f"Generator({_IMPL}, draws={self._count})"

    def random(self, size=None, dtype=onp.float64, out=None):
        """Uniform floats in [0, 1)."""
        dt = _float_dtype("random", dtype)
        if out is not None:
            return _fill_out(self, "random", _uniform01, (), dt, out)
        return self._sample("random", _uniform01, (), size, dt, float)

    def integers(self, low, high=None, size=None, dtype=onp.int64, endpoint=False):
        """Integers in [low, high) (``endpoint=True``: [low, high])."""
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
        arr = x if isinstance(x, NamedArray) else positional(jnp.asarray(x))
        key = self._next_key("permuted")
        if axis is None:
            flat = arr.data.reshape((arr.size,) + arr.data.shape[arr.ndim:])
            data = _R.permutation(key, flat, axis=0, independent=True).reshape(arr.data.shape)
        else:
            data = _R.permutation(key, arr.data, axis=_axis("permuted", arr, axis),
                                 independent=True)
        return store_out("permuted", out, rewrap(arr, data))

    def spawn(self, n_children):
        """``n_children`` independent generators (this stream advances by one draw)."""
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


# the legacy module-level API: bound methods of one global RandomState
_rand = RandomState()
_LEGACY = ["seed", "get_state", "set_state", "rand", "randn", "randint", "random_integers",
           "random", "random_sample", "ranf", "sample", "choice", "shuffle", "permutation",
           "bytes", "multivariate_normal", "dirichlet", "multinomial", *_DISTRIBUTIONS]
globals().update({_n: getattr(_rand, _n) for _n in _LEGACY})

__all__ = _LEGACY + ["RandomState", "Generator", "default_rng", "SeedSequence",
                     "BitGenerator", "MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"]


def __dir__():
    """NumPy's public names only (the helpers here are private)."""
    return sorted(__all__)

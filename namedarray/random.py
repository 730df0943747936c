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

How it works.  A stream seeded NumPy's way (``seed``, ``RandomState(seed)``,
``default_rng(seed)``, ``Generator(PCG64(s))``: ``None``, ints, sequences of
ints, a ``SeedSequence`` or a NumPy bit generator) holds NumPy's own
generator: an eager draw whose arguments are NumPy data gives NumPy's exact
numbers and dtypes (moved to the device; strings and other data JAX cannot
hold stay NumPy arrays), and its ``get_state``/``set_state`` are NumPy's.  A
draw that meets named axes, or runs under an eager ``vmap``/``grad``, draws
with ``jax.random`` from a key taken from that NumPy generator (the same
distributions, other values).  A JAX key can be given directly to
``default_rng``/``Generator``: then a stream holds that key (``threefry2x32``),
every draw splits it into (next key, key for this draw), and ``get_state()``
returns ``("threefry2x32", key_data, draws)``, which ``set_state`` takes back.

>>> import numpy
>>> bool(np.random.default_rng(7).random() == numpy.random.default_rng(7).random())
True

Results are NamedArrays with NumPy's dtypes (``float64``/``int64`` by
default).  With ``size=None`` and scalar parameters a draw is a Python
``float``/``int`` where NumPy returns one, and a 0-d array where NumPy returns
a NumPy scalar (``Generator.integers``, ``choice`` from an array).
Parameters broadcast as in NumPy; a parameter with *named* axes gives a result
with those names (one independent draw per named slice).  ``size`` is an int
or a tuple of ints (positional axes), a dict of named sizes
(``size=x.named_shape``), or a tuple mixing both: ``size=(3, {"batch": 8})``
has positional shape ``(3,)`` and the name ``"batch"``.  ``shuffle`` works in
place: on a NamedArray it rebinds ``x.data`` (and ``axis`` may name an axis);
NumPy arrays and lists are shuffled in place too.

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

Named draws.  Named axes are batch axes for every method: those of the
parameters, of ``size``, of ``out=``, of the array given to ``choice``,
``permutation``, ``shuffle`` and ``permuted`` (one choice or permutation per
named slice), of ``multivariate_normal``'s mean, and so on.  The elementwise
distributions draw the whole physical block (positional axes, then the names)
with one ``jax.random`` call, so they cost what ``jax.random`` costs on that
shape (``benchmarks/bench_random.py``).  The values are those of the block
with its names in sorted order; the samplers elementwise in threefry's
counter (uniform, normal, integers and the others built on uniform bits)
lay the block out in the order of the operands' names (``size=x.named_shape``
gives ``x``'s order), so no transpose follows the draw; inside an
``nmap`` (local, on a mesh, split, nested) each instance keeps its slice of
that block, so the result equals the physical draw.  The other methods draw
each named slice from the key with the slice's global index folded in (one
``fold_in`` per name, in sorted name order), with the same guarantee;
``multinomial`` over a mesh draws every instance's slices and keeps its own
(JAX's sampler cannot take a key that varies over a mesh axis).

Differences from NumPy: parameter checks (``scale < 0`` and the like) run on
concrete values only (not under tracing).  ``Generator.spawn`` advances the
parent's stream.
"""
from __future__ import annotations

import functools
import inspect
import math
import operator
from collections.abc import MutableSequence

import jax
import jax.extend.random
import jax.numpy as jnp
import numpy as onp
from numpy.random import (MT19937, PCG64, PCG64DXSM, SFC64, BitGenerator,  # noqa: F401
                          Philox, SeedSequence)

from .core.array import (NamedArray, align_plan, check_name, meet, new, normalize_axis,
                         positional, rewrap)
from .core.vmap import nested_vmap
from .frontend.engines.args import untraced
from .frontend.engines.out import store_out
from .parallel import axis_index, gather_names, scatter_names
from .placement import bindings, localize

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
    _host = None     # a NumPy-seeded stream: NumPy's generator, which eager draws use

    def _set(self, words=None, key=None, count=0):
        self._words, self._key, self._count = words, key, count

    def _next_key(self, fn="draw"):
        key = self._key
        saved = None
        if self._host is not None and not self._keyed:
            # a NumPy-seeded stream: each key comes from its NumPy generator, so
            # NumPy's state (get_state/set_state) is the whole stream's state; a
            # draw refused under a staged trace leaves that state as it was
            saved = None if untraced() else self.get_state()
            with jax.ensure_compile_time_eval():
                key = jax.random.wrap_key_data(jnp.asarray(_host_words(self._host)),
                                               impl=_IMPL)
        elif key is None:
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
                if saved is not None:
                    self.set_state(saved)
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
        """The stream's state: NumPy's on a NumPy-seeded stream (RandomState:
        what ``numpy.random.RandomState.get_state`` returns; Generator: its bit
        generator's ``state`` dict); on a keyed stream
        ``("threefry2x32", key_data, draws)`` (or, with ``legacy=False``, a dict
        like NumPy's)."""
        if self._host is not None and not self._keyed:
            if isinstance(self._host, onp.random.RandomState):
                return self._host.get_state(legacy=legacy)
            return self._host.bit_generator.state
        data = (onp.array(self._words, onp.uint32) if self._key is None
                else onp.asarray(jax.random.key_data(self._key)))
        if legacy:
            return (_IMPL, data, self._count)
        return {"bit_generator": _IMPL, "state": {"key": data, "counter": self._count}}

    def set_state(self, state):
        """Restore a state from :meth:`get_state` (on a NumPy-seeded stream,
        NumPy's state, as NumPy's ``get_state`` gives it)."""
        if self._host is not None and not self._keyed:
            try:
                if isinstance(self._host, onp.random.RandomState):
                    self._host.set_state(state)
                else:
                    self._host.bit_generator.state = state
            except (TypeError, ValueError, KeyError) as e:
                raise ValueError(
                    f"set_state: expected a state as get_state() of this NumPy-seeded "
                    f"stream gives it (NumPy's {type(self._host).__name__} state): "
                    f"{e}") from None
            return
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
    def _sample(self, fn, draw, params, size, dtype, scalar, work=None, like=None):
        """Draw ``draw(key, shape, dtype, *params)`` (``work`` is the dtype it
        computes in, ``dtype`` the result's) with NumPy's broadcasting of
        ``params`` against ``size``; named axes of parameters, of ``size`` (a
        dict, or ints and dicts) and of ``like`` (an ``out=`` array) are axes
        of the block drawn (see :func:`_block`)."""
        size, named = _sizes(fn, size)
        ops = [p if isinstance(p, (NamedArray, int, float)) else positional(jnp.asarray(p))
               for p in params]
        shapes = [o.shape for o in ops if isinstance(o, NamedArray)]
        try:
            pshape = onp.broadcast_shapes(*shapes)
            shape = pshape if size is None else size
            if onp.broadcast_shapes(shape, pshape) != shape:
                raise ValueError
        except ValueError:
            shown = ", ".join(str(s) for s in shapes)
            raise ValueError(f"{fn}: parameters with shapes {shown} cannot be broadcast "
                             + ("together" if size is None else f"to size {size}")) from None
        key = self._next_key(fn)
        res = _block(fn, key, draw, tuple(shape), work or dtype, ops, like, named)
        if res.dtype != dtype:
            res = rewrap(res, res.data.astype(dtype))
        return _result(res, scalar if size is None and named is None else None)


# --------------------------------------------------------------------------
# elementwise draws: one jax.random call for the whole physical block
# --------------------------------------------------------------------------
def _block(fn, key, draw, shape, dtype, ops, like=None, named=None):
    """``draw(key, shape + named sizes, dtype, *params)``: one call of the
    ``jax.random`` sampler for the whole physical block, whose axes are the
    positional ``shape`` and then every name of the parameters, of ``like``
    and of ``named`` (a ``size`` dict), in sorted name order.

    So a draw is a function of the key and the global index along each axis:
    inside an ``nmap`` (local, on a mesh, split, nested) the block is drawn
    whole with the map-invariant key and each instance keeps its slice
    (:func:`~namedarray.placement.localize`, a dynamic slice by the instance
    index; mapped parameters are gathered first), so the result equals the
    physical draw, and every named slice differs.  Under a local map the
    block is drawn once; on a mesh, each device draws the block of the
    global size.  Returns a NamedArray: ``shape``, then the names in sorted
    order (the order the values are defined in: drawing in another and
    transposing would cost a transpose per draw)."""
    src = [o for o in ops if isinstance(o, NamedArray)] + ([like] if like is not None else [])
    sizes, seen = {}, {}
    for where, nshape in [("size", named or {})] + [
            ("out" if o is like else "a parameter", o.named_shape) for o in src]:
        for n, s in nshape.items():
            if sizes.setdefault(n, s) != s:
                raise ValueError(
                    f"{fn}: axis name {n!r} has size {sizes[n]} in {seen[n][0]} (named "
                    f"shape {seen[n][1]}) but size {s} in {where} (named shape {nshape})")
            seen.setdefault(n, (where, nshape))
    if not sizes:
        return positional(_jitted(draw)(key, shape, dtype, *[
            o.data if isinstance(o, NamedArray) else o for o in ops]))
    names = tuple(sorted(sizes))
    datas, layouts = [], []
    for o in ops:
        if not isinstance(o, NamedArray):
            datas.append(o)
            layouts.append(None)
            continue
        if o.mapped:
            o = _gathered(fn, o)
        datas.append(o.data)
        layouts.append((o.ndim, o.names))
    order = _layout(draw, shape, sizes, names)
    full = shape + tuple(sizes[n] for n in order)
    perm = tuple(range(len(shape))) + tuple(len(shape) + names.index(n) for n in order)
    data = _block_jit(draw, full, dtype, len(shape), order, perm, tuple(layouts), key, *datas)
    return localize(fn, new(data, (None,) * len(shape) + order), names)


def _layout(draw, shape, sizes, names):
    """The order the block's names are laid out in: first the names a local
    ``nmap`` binds, outermost map first (:func:`~namedarray.placement.localize`
    then makes each the leading dimension at its map's level, where ``vmap``
    keeps a batch dimension), then the order the operands give them
    (``like``, then ``size``, then the parameters: ``sizes``' insertion
    order), so that no transpose follows the draw -- for the
    samplers whose values are elementwise in threefry's counter
    (:func:`_cellwise`), whose canonical (sorted-name) values can be drawn in
    any layout.  Otherwise (and where the counter needs more than 32 bits,
    or ``jax_threefry_partitionable`` is off) the sorted order itself."""
    bound = bindings()
    local = [n for n in bound if n in sizes and bound[n].kinds == ("vmap",)]
    order = tuple(local) + tuple(n for n in sizes if n not in local)
    if (order == names or not getattr(draw, "cellwise", False)
            or not jax.config.jax_threefry_partitionable
            or math.prod(shape) * math.prod(sizes.values()) >= 2 ** 32):
        return names
    return order


@jax.jit(static_argnums=(0, 1, 2, 3, 4, 5, 6))
def _block_jit(draw, full, dtype, npos, names, perm, layouts, key, *datas):
    args = [d if lay is None else _fit(d, *lay, npos, names)
            for d, lay in zip(datas, layouts)]
    if perm != tuple(range(len(perm))):
        key = jax.random.wrap_key_data(jax.random.key_data(key), impl=_permuted_impl(perm))
    return _jitted(draw)(key, full, dtype, *args)


# --------------------------------------------------------------------------
# threefry in another layout: the canonical draw's values, laid out permuted
# --------------------------------------------------------------------------
_THREEFRY = jax.extend.random.threefry_prng_impl
_PERMUTED: dict = {}


def _permuted_impl(perm):
    """A PRNG implementation equal to threefry2x32 (``jax_threefry_partitionable``)
    except that ``random_bits`` of a physical shape returns the bits of the
    canonical shape laid out with physical axis ``i`` being canonical axis
    ``perm[i]``: threefry's bits are a function of the key and each
    element's linear index in the canonical shape only, so that index is
    computed from iotas in the physical layout and no transpose exists."""
    spec = _PERMUTED.get(perm)
    if spec is None:
        def bits(key, bit_width, shape):
            if len(shape) != len(perm):
                raise RuntimeError(f"random: a draw laid out for rank {len(perm)} asked "
                                   f"for random bits of shape {shape}")
            canon = [0] * len(perm)
            for i, c in enumerate(perm):
                canon[c] = shape[i]
            strides = [math.prod(canon[c + 1:]) for c in range(len(canon))]
            lo = sum(jax.lax.broadcasted_iota(jnp.uint32, shape, i) * jnp.uint32(strides[c])
                     for i, c in enumerate(perm))
            bits1, bits2 = jax.extend.random.threefry2x32_p.bind(
                key[0], key[1], jnp.zeros(shape, jnp.uint32), lo)
            if bit_width == 64:
                return (bits1.astype(jnp.uint64) << jnp.uint64(32)) | bits2.astype(jnp.uint64)
            out = bits1 ^ bits2
            return out if bit_width == 32 else out.astype(jnp.dtype(f"uint{bit_width}"))

        spec = _PERMUTED[perm] = jax.extend.random.define_prng_impl(
            key_shape=_THREEFRY.key_shape, seed=_THREEFRY.seed, split=_THREEFRY.split,
            random_bits=bits, fold_in=_THREEFRY.fold_in,
            name=f"threefry2x32_{'_'.join(map(str, perm))}", tag=f"fry{perm}")
    return spec


def _cellwise(draw):
    """Mark a sampler whose values are elementwise in threefry's counter:
    it draws ``random_bits`` of exactly the requested shape (after any key
    splits) and works elementwise on them, so it can be drawn in any layout
    (:func:`_permuted_impl`)."""
    draw.cellwise = True
    return draw


def _fit(d, n, have, npos, names):
    """A parameter's data (``n`` positional axes, then the names ``have``)
    broadcastable to the block: positional axes right-aligned, its names at
    their place in ``names``, size 1 where it lacks one."""
    order = [h for h in names if h in have]
    perm = tuple(range(n)) + tuple(n + have.index(h) for h in order)
    if perm != tuple(range(d.ndim)):
        d = jax.lax.transpose(d, perm)
    return d.reshape((1,) * (npos - n) + d.shape[:n] + tuple(
        d.shape[n + order.index(h)] if h in have else 1 for h in names))


def _sizes(fn, size):
    """``size`` -> (positional sizes or None, named sizes or None): an int, a
    tuple of ints, a dict ``{name: size}`` (``x.named_shape``), or a tuple
    mixing ints (positional axes, in order) and dicts (named axes)."""
    if isinstance(size, dict):
        size = (size,)
    if not isinstance(size, (tuple, list)) or not any(isinstance(s, dict) for s in size):
        return _size(fn, size), None
    named = {}
    for part in size:
        if not isinstance(part, dict):
            continue
        for n, s in part.items():
            check_name(fn, "size", n)
            try:
                s = operator.index(s)
            except TypeError:
                raise TypeError(f"{fn}: size {size!r}: the size of axis {n!r} must be an "
                                f"int, got {s!r}") from None
            if s < 0:
                raise ValueError(f"{fn}: negative size {s} for axis {n!r} in size {size!r}")
            if n in named:
                raise ValueError(f"{fn}: axis name {n!r} appears twice in size {size!r}")
            named[n] = s
    return _size(fn, tuple(s for s in size if not isinstance(s, dict))), named


# --------------------------------------------------------------------------
# named axes: one draw per named slice, the slice's index folded into the key
# --------------------------------------------------------------------------
def _slices(fn, key, run, static, ops, like=None, whole=False):
    """``run(key, static, *ops)`` on the positional axes of ``ops``
    (NamedArrays or Python scalars), once per element of their named axes
    (and of ``like``'s): the draw for a named slice uses ``key`` with the
    slice's global index along each name folded in (in sorted name order).

    The index of a name bound by an enclosing map is this instance's
    (``axis_index``); of a physical one, the position along it.  So a draw is
    a function of (key, global named index) only, wherever the names live:
    inside ``nmap`` (local, on a mesh, split) each instance draws exactly its
    slice of the physical draw, and different slices differ.  Every method of
    the Generator and of ``RandomState`` that meets a named array goes
    through here.  ``whole``: draw every instance's slices (the mapped names
    gathered) and keep this instance's part -- for JAX samplers whose loops
    start from constants, which a key that varies over a mesh axis cannot
    enter (``shard_map``'s varying-axes check).  Returns a NamedArray:
    ``run``'s positional axes, then the names."""
    src = [o for o in ops if isinstance(o, NamedArray)] + ([like] if like is not None else [])
    if not any(o.names or o.mapped for o in src):
        return positional(run(key, static, *[o.data if isinstance(o, NamedArray) else o
                                             for o in ops]))
    sizes, bound = {}, {}
    for o in src:
        sizes.update(o.named_shape)
        bound.update(o.mapped)
    if whole and bound:
        ops = [_gathered(fn, o) if isinstance(o, NamedArray) and o.mapped else o for o in ops]
        return localize(fn, _per_slice(fn, key, run, static, ops, sizes, {}), list(bound))
    return _per_slice(fn, key, run, static, ops, sizes, bound)


def _per_slice(fn, key, run, static, ops, sizes, bound):
    """:func:`_slices` for the names ``sizes`` (global sizes), of which
    ``bound`` are bound by enclosing maps."""
    index = [axis_index(nm) if nm in bound else
             new(jnp.arange(s, dtype=jnp.uint32), (nm,)) for nm, s in sorted(sizes.items())]
    args = list(ops) + index
    arr = [i for i, a in enumerate(args) if isinstance(a, NamedArray)]
    met, mapped = meet(fn, [args[i] for i in arr])
    for i, a in zip(arr, met):
        args[i] = a
    named = [args[i] for i in arr if args[i].names]
    union = tuple(d for d in align_plan(fn, named)[1] if d is not None)
    datas, layouts = [], []
    for a in args:
        if not isinstance(a, NamedArray):
            datas.append(a)
            layouts.append((0, ()))
            continue
        n, d = a.ndim, a.data
        want = tuple(u for u in union if u in a.names)
        if a.names != want:
            d = jax.lax.transpose(d, tuple(range(n)) + tuple(n + a.names.index(w)
                                                             for w in want))
        datas.append(d)
        layouts.append((n, want))
    data = _slices_jit(run, static, union, tuple(layouts), len(index), key, *datas)
    return new(data, (None,) * (data.ndim - len(union)) + union[::-1], mapped)


def _gathered(fn, x):
    """``x`` with its mapped names whole (gathered), still named."""
    names = [n for n, _ in x.mapped]
    g = gather_names(fn, x, names, last=True)
    return g.tag(*(None,) * x.ndim, *names)


@jax.jit(static_argnums=(0, 1, 2, 3, 4))
def _slices_jit(run, static, union, layouts, m, key, *datas):
    def one(*args):
        k = key
        for i in args[len(args) - m:]:
            k = _R.fold_in(k, jnp.asarray(i, jnp.uint32))
        return run(k, static, *args[:len(args) - m])
    return nested_vmap(one, union, layouts)(*datas)


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


def _result(x, scalar):
    """NumPy's return kinds: a Python scalar for a 0-d draw with ``size=None``
    where NumPy gives one (not while tracing), else an array."""
    if scalar is not None and not x.dims and not x.mapped and not isinstance(x.data, _Tracer):
        return scalar(x.data)
    return x


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


# NumPy-seeded streams draw NumPy's own numbers in eager code
def _host_words(host):
    """Two uint32 words drawn from a NumPy generator (a key for a JAX draw)."""
    if isinstance(host, onp.random.RandomState):
        return host.randint(0, 2**32, size=2, dtype=onp.uint32)
    return host.integers(0, 2**32, size=2, dtype=onp.uint32)


def _hosted(name, method):
    """``method`` drawing from the NumPy generator of a NumPy-seeded stream
    when the call is eager and meets no NamedArray (then the draw is NumPy's,
    moved to the device); otherwise (keyed, named, traced) ``method``."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        host = self._host
        if host is None or self._keyed or not untraced() or any(
                isinstance(v, (NamedArray, jax.Array, dict))
                or isinstance(v, tuple) and any(isinstance(e, dict) for e in v)
                for v in (*args, *kwargs.values())):
            return method(self, *args, **kwargs)
        try:
            res = getattr(host, name)(*args, **kwargs)
        except (TypeError, ValueError, IndexError, OverflowError) as e:
            # the JAX path raises its own message naming the function; where it
            # accepts the call, NumPy's error, named
            method(self, *args, **kwargs)
            raise type(e)(f"{name}: {e}") from None
        if isinstance(res, (onp.ndarray, onp.generic)) and res.dtype.kind in "biufc":
            return positional(jnp.asarray(res))
        return res
    return run


for _cls, _host_cls in ((RandomState, onp.random.RandomState),
                        (Generator, onp.random.Generator)):
    for _name in dir(_cls):
        if (not _name.startswith("_") and _name not in ("seed", "get_state", "set_state", "spawn")
                and callable(getattr(_cls, _name)) and hasattr(_host_cls, _name)):
            setattr(_cls, _name, _hosted(_name, getattr(_cls, _name)))
del _cls, _host_cls, _name


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

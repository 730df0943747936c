"""The engine under ``namedarray.random``: seeds to keys, one key per draw
(``_Stream``), and the two ways a draw meets named axes.

An elementwise distribution draws the whole physical block with one
``jax.random`` call (``_block``), laid out in the operands' order where
threefry's counter allows it (``_counter_impl``), and each instance of an
enclosing ``nmap`` keeps its slice (``placement.localize``), or, on a mesh,
draws only that slice at its global counters.  The other methods
draw each named slice from the key with the slice's global index folded in
(``_slices``).  The distributions and the ``Generator``/``RandomState``
methods over them are declared in the package's ``__init__``.
"""
from __future__ import annotations

import contextlib
import math
import operator

import jax
import jax.extend.random
import jax.numpy as jnp
import numpy as onp
from numpy.random import BitGenerator, SeedSequence

from ..core import backends, config
from ..core.array import NamedArray, check_name, new, positional, rewrap
from ..core.align import align_plan, meet
from ..core.vmap import nested_vmap
from ..frontend.engines.args import untraced
from ..parallel import axis_index, gather_names
from ..placement import instance_index, localize, mesh_only, vmapped_only

_R = jax.random
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


# NumPy-seeded streams draw NumPy's own numbers in eager code
def _host_words(host):
    """Two uint32 words drawn from a NumPy generator (a key for a JAX draw)."""
    if isinstance(host, onp.random.RandomState):
        return host.randint(0, 2**32, size=2, dtype=onp.uint32)
    return host.integers(0, 2**32, size=2, dtype=onp.uint32)


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
    inside an ``nmap`` (local, on a mesh, split, nested) each instance gets
    its slice of the block drawn with the map-invariant key, so the result
    equals the physical draw, and every named slice differs.  Under a local
    map the block is drawn once and each instance keeps its slice
    (:func:`~namedarray.placement.localize`, mapped parameters gathered
    first).  On a mesh a sampler elementwise in threefry's counter draws
    only this instance's part, at its global counters (:func:`_local`), so
    each device draws what ``jax.random`` draws on its shard; another
    sampler draws the block of the global size on each device.  Returns a
    NamedArray: ``shape``, then the names in sorted order (the order the
    values are defined in: drawing in another and transposing would cost a
    transpose per draw)."""
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
        datas = [o.data if isinstance(o, NamedArray) else o for o in ops]
        where, key, datas = _where_drawn(dtype, key, datas)
        with where:
            return positional(_jitted(draw)(key, shape, dtype, *datas))
    names = tuple(sorted(sizes))
    local = _local(draw, shape, sizes)
    datas, layouts = [], []
    for o in ops:
        if not isinstance(o, NamedArray):
            datas.append(o)
            layouts.append(None)
            continue
        whole = [n for n, _ in o.mapped if n not in local]
        if whole:
            o = _gathered(fn, o, whole)
        cut = [n for n in local if n in o.names and n not in dict(o.mapped)]
        if cut:      # a parameter holding a whole axis a mesh map binds: this part
            o = localize(fn, o, cut)
        datas.append(o.data)
        layouts.append((o.ndim, o.names))
    order = _layout(draw, shape, sizes, names)
    full = shape + tuple(local[n].block if n in local else sizes[n] for n in order)
    perm = tuple(range(len(shape))) + tuple(len(shape) + names.index(n) for n in order)
    # per block axis: the global size of a name drawn in part (else None), the part's offset
    glob = (None,) * len(shape) + tuple(sizes[n] if n in local else None for n in order)
    offsets = None if not local else jnp.stack([jnp.zeros((), jnp.uint32)] * len(shape) + [
        (instance_index(local[n]) * local[n].block).astype(jnp.uint32) if n in local
        else jnp.zeros((), jnp.uint32) for n in order])
    drop = tuple(len(shape) + i for i, n in enumerate(order)
                 if n in local and not local[n].physical)
    where = contextlib.nullcontext()
    if not local:
        where, key, datas = _where_drawn(dtype, key, datas)
    with where:
        data = _block_jit(draw, full, dtype, len(shape), order, perm, glob, drop,
                          tuple(layouts), key, offsets, *datas)
    dims = (None,) * len(shape) + tuple(n for n in order if n not in local
                                        or local[n].physical)
    return localize(fn, new(data, dims, tuple((n, sizes[n]) for n in local)), names)


def _where_drawn(dtype, key, datas):
    """(a context, ``key``, ``datas``) for an eager draw in ``dtype``: where
    the default device lacks ``dtype`` (a TPU's float64 under NumPy's dtype
    defaults, as for every eager call), the CPU device's, with the key and
    the parameters moved there (``backends.at_home``); else nothing changes."""
    if not untraced():
        return contextlib.nullcontext(), key, datas
    where, (key, *datas) = backends.at_home((onp.dtype(dtype),), (key, *datas),
                                            config.numpy_dtypes())
    return where, key, datas


def _counter_draw(draw, shape, sizes):
    """Whether ``draw`` over the block of ``shape`` and the named ``sizes``
    can be computed from threefry's counter in any layout and in parts:
    a sampler elementwise in it (:func:`_cellwise`), partitionable threefry,
    and a counter of 32 bits."""
    return (getattr(draw, "cellwise", False) and jax.config.jax_threefry_partitionable
            and math.prod(shape) * math.prod(sizes.values()) < 2 ** 32)


def _local(draw, shape, sizes):
    """The names of the block that enclosing mesh maps alone bind (no local
    ``vmap`` among their maps) -> their binding: this instance draws only its
    part of them (a split name's block, one element of another), at its
    global counters, when ``draw`` allows (:func:`_counter_draw`)."""
    local = mesh_only(sizes)
    return local if local and _counter_draw(draw, shape, sizes) else {}


def _layout(draw, shape, sizes, names):
    """The order the block's names are laid out in: first the names a local
    ``nmap`` binds, outermost map first (:func:`~namedarray.placement.localize`
    then makes each the leading dimension at its map's level, where ``vmap``
    keeps a batch dimension), then the order the operands give them
    (``like``, then ``size``, then the parameters: ``sizes``' insertion
    order), so that no transpose follows the draw -- for the samplers
    :func:`_counter_draw` allows, whose canonical (sorted-name) values can be
    drawn in any layout.  Otherwise the sorted order itself."""
    local = [n for n in vmapped_only() if n in sizes]
    order = tuple(local) + tuple(n for n in sizes if n not in local)
    if order == names or not _counter_draw(draw, shape, sizes):
        return names
    return order


@jax.jit(static_argnums=(0, 1, 2, 3, 4, 5, 6, 7, 8))
def _block_jit(draw, full, dtype, npos, names, perm, glob, drop, layouts, key, offsets,
               *datas):
    args = [d if lay is None else _fit(d, *lay, npos, names)
            for d, lay in zip(datas, layouts)]
    if perm != tuple(range(len(perm))) or any(g is not None for g in glob):
        key = jax.random.wrap_key_data(
            jnp.concatenate([jax.random.key_data(key), jnp.zeros(len(perm), jnp.uint32)
                             if offsets is None else offsets]),
            impl=_counter_impl(perm, glob))
    out = _jitted(draw)(key, full, dtype, *args)
    return jax.lax.squeeze(out, drop) if drop else out


# --------------------------------------------------------------------------
# threefry in another layout and in parts: the canonical draw's values
# --------------------------------------------------------------------------
_THREEFRY = jax.extend.random.threefry_prng_impl
_COUNTER: dict = {}


def _counter_impl(perm, glob):
    """A PRNG implementation equal to threefry2x32 (``jax_threefry_partitionable``)
    except that ``random_bits`` of a physical shape returns part of the bits
    of the canonical shape, laid out with physical axis ``i`` being
    canonical axis ``perm[i]``: the part along axis ``i`` starts at offset
    ``key[2 + i]`` of ``glob[i]`` elements (``None``: the whole axis, offset
    0).  Threefry's bits are a function of the key and each element's
    linear index in the canonical shape only, so that index is computed from
    iotas in the physical layout: no transpose, and a part costs its own
    size.  The offsets ride in the key (after threefry's two words), so
    splits and folds keep them."""
    spec = _COUNTER.get((perm, glob))
    if spec is None:
        r = len(perm)

        def bits(key, bit_width, shape):
            if len(shape) != r:
                raise RuntimeError(f"random: a draw laid out for rank {r} asked "
                                   f"for random bits of shape {shape}")
            canon = [0] * r
            for i, c in enumerate(perm):
                canon[c] = shape[i] if glob[i] is None else glob[i]
            strides = [math.prod(canon[c + 1:]) for c in range(r)]
            lo = sum((jax.lax.broadcasted_iota(jnp.uint32, shape, i) + key[2 + i])
                     * jnp.uint32(strides[c]) for i, c in enumerate(perm))
            bits1, bits2 = jax.extend.random.threefry2x32_p.bind(
                key[0], key[1], jnp.zeros(shape, jnp.uint32), lo)
            if bit_width == 64:
                return (bits1.astype(jnp.uint64) << jnp.uint64(32)) | bits2.astype(jnp.uint64)
            out = bits1 ^ bits2
            return out if bit_width == 32 else out.astype(jnp.dtype(f"uint{bit_width}"))

        def split(key, shape):
            return jnp.concatenate([_THREEFRY.split(key[:2], shape),
                                    jnp.broadcast_to(key[2:], (*shape, r))], axis=-1)

        def fold_in(key, data):
            return jnp.concatenate([_THREEFRY.fold_in(key[:2], data), key[2:]])

        def seed(s):
            return jnp.concatenate([_THREEFRY.seed(s), jnp.zeros(r, jnp.uint32)])

        tag = "_".join(map(str, perm)) + "_" + "_".join("w" if g is None else str(g)
                                                         for g in glob)
        spec = _COUNTER[perm, glob] = jax.extend.random.define_prng_impl(
            key_shape=(2 + r,), seed=seed, split=split, random_bits=bits, fold_in=fold_in,
            name=f"threefry2x32_{tag}", tag=f"fry{perm}{glob}")
    return spec


def _cellwise(draw):
    """Mark a sampler whose values are elementwise in threefry's counter:
    it draws ``random_bits`` of exactly the requested shape (after any key
    splits) and works elementwise on them, so it can be drawn in any layout
    (:func:`_counter_impl`)."""
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


def _gathered(fn, x, names=None):
    """``x`` with its mapped ``names`` (default: all) whole (gathered), still named."""
    names = [n for n, _ in x.mapped] if names is None else names
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

"""Host NumPy data onto the device: ``np.asarray``/``np.array`` of NumPy data and
lists give what ``jax.numpy.asarray`` gives (dtype, weak type, bits) in both x64
modes and inside ``jax.jit``, compile nothing, and never share the host buffer.
On a machine whose default device only emulates or lacks a dtype (a TPU's
float64, int64, uint64, complex128 under NumPy's dtype defaults) such data
lives on the CPU device instead, committed there, with NumPy's exact bits
(``core.backends.home_device``; docs/design.md §7b)."""
import contextlib
import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as onp
import pytest

import namedarray as np
from namedarray.core import backends, config
from namedarray.frontend.engines import args
from namedarray.frontend.engines.args import to_device
from support import ALL_DTYPES, tpu  # noqa: F401  (a fixture)

ML = [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.int4,
      ml_dtypes.uint4]
CASTS = [onp.bool_, onp.int8, onp.uint8, onp.int32, onp.int64, onp.float16, onp.float32,
         onp.float64, onp.complex64, ml_dtypes.bfloat16]
SPECIAL = [0.0, -0.0, 1.0, -1.5, onp.nan, -onp.nan, onp.inf, -onp.inf, 1e-310, -5e-324,
           1e-40, 3.4e38, 1e39, 1e300, 65504.0, 7.0e-46]


def _data(dt):
    dt = onp.dtype(dt)
    if dt.kind == "b":
        return onp.array([True, False, True, True, False, False])
    if dt.kind in "iu":
        info = ml_dtypes.iinfo(dt) if dt in map(onp.dtype, ML) else onp.iinfo(dt)
        vals = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
        return onp.array(vals, dtype=dt)
    with onp.errstate(all="ignore"):
        h = onp.array(SPECIAL, onp.float64).astype(dt)
        if dt.kind == "c":
            h = h + onp.array(SPECIAL[::-1], onp.float64).astype(dt) * 1j
    return h


def _views(h):
    """``h`` in several layouts: 0-d, 0-size, 2-d, transposed, strided, reversed."""
    yield h
    yield h[3]
    yield h[3:4].reshape(())
    yield h[:0]
    yield h[:0].reshape(0, 2)
    two = onp.concatenate([h, h[::-1]]).reshape(4, -1)
    yield two
    yield two.T
    yield two[:, ::-2]
    yield h[::-1]


def _default_devices():
    """The default device, as a set (``jax.default_device``'s where set)."""
    return {jnp.zeros(()).device}


def _home(dtype):
    """Where namedarray puts new data of ``dtype`` outside a trace, where that
    is not jax.numpy's default device: the CPU device, on a machine whose
    default device only emulates or lacks ``dtype`` (a TPU's float64 under
    NumPy's dtype defaults); else None."""
    return backends.home_device((onp.dtype(dtype),), config.numpy_dtypes())


def _same_bits_but_nan_signs(r, e) -> bool:
    """``r`` and ``e`` hold the same bits, but for the sign (and payload) of
    a NaN: NaN where the other is NaN."""
    if r.tobytes() == e.tobytes():
        return True
    if not jnp.issubdtype(r.dtype, jnp.inexact):
        return False
    if r.dtype.kind == "c":         # (each part on its own)
        r, e = r.reshape(-1).view(r.real.dtype), e.reshape(-1).view(e.real.dtype)
    rn, en = onp.isnan(r.astype(onp.float64)), onp.isnan(e.astype(onp.float64))
    return bool((rn == en).all()) and r[~rn].tobytes() == e[~en].tobytes()


def _flushed(h):
    """NumPy's data ``h`` with its subnormal numbers flushed to (signed) zero,
    as a TPU's program leaves them: one that moves data into a new layout
    (a reshape of bfloat16 data there) flushes them too
    (docs/differences.md, "Subnormal numbers")."""
    if not jnp.issubdtype(h.dtype, jnp.inexact):
        return h
    parts = (h.reshape(-1).view(h.real.dtype) if h.dtype.kind == "c" else h).copy()
    w = parts.astype(onp.float64)
    sub = (w != 0) & (abs(w) < float(ml_dtypes.finfo(parts.dtype).tiny))
    parts[sub] = onp.where(onp.signbit(w[sub]), -0.0, 0.0).astype(parts.dtype)
    return parts.view(h.dtype).reshape(h.shape) if h.dtype.kind == "c" else parts


def _same(res, exp, host=None, eager=True, source=None, exact=False):
    """``res`` (namedarray's array) is ``exp`` (jax.numpy's of the same data)
    as namedarray builds it: its dtype and weak type; where the dtype's home
    is the CPU device (:func:`_home`; ``eager``: made outside a trace),
    committed there; where the data it is cast from (of dtype ``source``)
    lives there, uncommitted, free to move where it is used, on the CPU
    device or the default device (the cast is an eager call computing in
    ``source``: the dispatcher runs it on the CPU backend and leaves such a
    result there, docs/design.md §7b, unless the result is small and lives
    on the host, which puts it on the default device when asked for its
    device array); elsewhere placed as ``exp``.  Its bits are ``host``'s,
    NumPy's own answer (where one is given): exactly where the dtype's home
    is the CPU device or with ``exact`` (data that reached the device by a
    transfer alone), else but for a NaN's sign; and ``exp``'s where the
    dtype is at home on ``exp``'s device.

    Where the home is the CPU device, ``exp`` lives on the accelerator and
    need not hold the data's bits (a TPU's float64 is a pair of float32s:
    -0.0 becomes 0.0, 1e300 inf, a subnormal 0), so ``host`` holds them.
    Elsewhere a NaN may differ from ``exp`` in its sign: ``jnp.asarray``
    passes NumPy's data through a program on the device (``lax.stage`` of
    NumPy's array; ``convert_element_type`` where a ``dtype`` is given),
    and a TPU's program returns a float16 or float8_e4m3fn NaN as positive
    (-NaN 0xfe00 became 0x7e00), where namedarray transfers NumPy's bits
    as they are (``jax.device_put`` keeps 0xfe00), as ``host`` checks.  A
    NaN's sign is no value: NumPy leaves it to the hardware that converts
    (IEEE 754 specifies none for a conversion's NaN), so there jax.numpy's
    array is compared for NaN-ness."""
    assert res.dtype == exp.dtype and res.shape == exp.shape, (res, exp)
    assert res.weak_type == exp.weak_type
    r = onp.asarray(res)
    home = _home(exp.dtype) if eager else None
    if host is not None:
        h = onp.asarray(host)
        assert h.dtype == r.dtype, (r, h)
        assert r.tobytes() == h.tobytes() if exact or home is not None else \
            _same_bits_but_nan_signs(r, h) or (
                jax.default_backend() != "cpu" and _same_bits_but_nan_signs(r, _flushed(h))), \
            (r, h)
    if home is not None:
        assert res.committed and res.sharding == jax.sharding.SingleDeviceSharding(home), (
            res.sharding, home)
        assert host is not None or _same_bits_but_nan_signs(r, onp.asarray(exp)), (r, exp)
        return
    ran = _home(source) if eager and source is not None else None
    if ran is not None:
        assert not res.committed and res.devices() in ({ran}, _default_devices()), (
            res.devices(), ran)
    elif not isinstance(exp, jax.core.Tracer):
        assert res.committed == exp.committed and res.sharding == exp.sharding
    e = onp.asarray(exp)
    assert _same_bits_but_nan_signs(r, e), (r, e)


@pytest.mark.parametrize("dt", ALL_DTYPES + ML, ids=lambda d: onp.dtype(d).name)
def test_to_device_is_jnp_asarray_bit_for_bit(dt):
    home = _home(dt)
    for h in _views(_data(dt)):
        # (where the dtype's home is the CPU device, jax.numpy's arrays are
        # made there: a TPU's compiler fails jnp.asarray of complex128 data,
        # XLA's internal error on its layout; namedarray's transfer compiles
        # nothing there, and NumPy's data holds the bits)
        with jax.default_device(home) if home is not None else contextlib.nullcontext():
            exp = jnp.asarray(h)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # NaN or inf into an integer type
                casts = {to: jnp.asarray(h, dtype=to) for to in CASTS}
        for got in (to_device(h), np.asarray(h).data, np.array(h).data,
                    np.asarray(h, dtype=h.dtype).data):
            _same(got, exp, h, exact=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for to in CASTS:
                # (NumPy's cast of the same data is the oracle of the bits)
                _same(np.asarray(h, dtype=to).data, casts[to],
                      onp.asarray(h, dtype=to), source=h.dtype, exact=True)


@pytest.mark.parametrize("dt", [onp.int64, onp.uint64, onp.float64, onp.complex128,
                                onp.float32, onp.int8, ml_dtypes.bfloat16])
def test_to_device_with_x64_off_is_jnp_asarray(dt):
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for h in _views(_data(dt)):
            _same(to_device(h), jnp.asarray(h))
            for to in CASTS:
                _same(np.asarray(h, dtype=to).data, jnp.asarray(h, dtype=to))


@pytest.mark.parametrize("dt", [onp.int64, onp.uint64, onp.float64, onp.complex128, onp.int8])
def test_x64_off_data_lives_where_jnp_asarray_puts_it(tpu, dt):
    """With x64 off the data's dtype is JAX's canonical one (int32, float32,
    complex64), which a TPU runs: it lives on the default device, uncommitted,
    as jnp.asarray puts it, and so do the results computed from it."""
    acc, _ = tpu
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = _data(dt)
        for to in (None, onp.int64, onp.uint64, onp.float64, onp.complex128, onp.int32):
            x = np.asarray(h, dtype=to)
            for d in (to_device(onp.asarray(h, dtype=to)), x.data, (x + 1).data):
                assert d.devices() == {acc} and not d.committed, (to, d.dtype, d.devices())


def test_to_device_under_jit_is_jnp_asarray():
    """Under jax.jit the rules are JAX's: the data is the trace's constant, as
    ``jnp.asarray``'s in the same trace (on a TPU machine float64 data is then
    on the TPU, with its float64: the trace's constant is not eager
    ``jnp.asarray``'s transfer there, whose -5e-324 became -0.0 where the
    trace's became 0.0)."""
    h = _data(onp.float64)
    got = jax.jit(lambda: to_device(h))()
    _same(got, jax.jit(lambda: jnp.asarray(h))(), eager=False)
    if backends.status(jax.default_backend(), "any", onp.float64) == backends.NATIVE:
        assert onp.asarray(got).tobytes() == h.tobytes()


def test_the_default_device_is_jnp_asarrays():
    h = _data(onp.float32)
    dev = jax.devices()[-1]
    with jax.default_device(dev):
        for got in (to_device(h), np.asarray(h).data, np.asarray(list(h)).data):
            _same(got, jnp.asarray(h))
            assert got.devices() == {dev}


def test_lists_and_scalars_take_numpys_dtype():
    for v, dt in (([1, 2.5], onp.float64), (3, onp.int64), (True, onp.bool_),
                  ([[1j]], onp.complex128), ([], onp.float64), (2**63, onp.uint64)):
        x = np.asarray(v)
        e = onp.asarray(v)
        assert x.dtype == dt == e.dtype and x.shape == e.shape and not x.data.weak_type
        assert onp.asarray(x).tobytes() == e.tobytes()
    # An int past uint64 is data JAX cannot hold: NumPy's own object array (DESIGN 6c).
    x = np.asarray([2**64])
    assert type(x) is onp.ndarray and x.dtype == object and x.tolist() == [2**64]


@pytest.mark.parametrize("n", [3, 4000, 100_000])
@pytest.mark.parametrize("dt", [onp.float64, onp.float32, onp.int64])
def test_host_buffer_is_never_shared(n, dt):
    h = onp.arange(n, dtype=dt)
    views = [np.asarray(h), np.array(h), np.asarray(h, copy=False), np.asarray(h, dtype=dt),
             np.array(h, copy=False), np.ascontiguousarray(h), np.copy(h)]
    h[0] = 99
    for i, x in enumerate(views):
        assert int(x[0]) == 0, i


@contextlib.contextmanager
def _compilations():
    """Counts the XLA compilations in its block (``count[0]``)."""
    count = [0]

    def listener(event, duration, **kw):
        if event == "/jax/core/compile/backend_compile_duration":
            count[0] += 1
    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        yield count
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)


def test_numpy_data_reaches_the_device_without_compiling():
    with _compilations() as count:
        # a shape no other test uses, so nothing is cached for it
        x = np.asarray(onp.linspace(0.0, 1.0, 4093))
        y = np.asarray([[1, 2, 3]] * 1361)
        onp.asarray(x), onp.asarray(y)
    assert count[0] == 0
    assert x.shape == (4093,) and y.shape == (1361, 3)


def test_the_public_transfer_gives_the_same_arrays(monkeypatch):
    """Where JAX's internal transfer is missing or fails, ``jax.device_put``
    takes over with the same results."""
    monkeypatch.setattr(args, "_FAST", [False])
    for dt in (onp.float64, onp.int8, ml_dtypes.bfloat16):
        for h in _views(_data(dt)):
            _same(to_device(h), jnp.asarray(h), h, exact=True)
    h = onp.arange(5.0)
    x = to_device(h)
    h[0] = 9.0
    assert float(x[0]) == 0.0


# -- arrays made on the host (a CPU): creation and reshape compile nothing ----
SHAPES = [(), (0,), (5,), (2, 0, 3), (3, 4)]


@pytest.mark.parametrize("dt", ALL_DTYPES + ML[:1], ids=lambda d: onp.dtype(d).name)
def test_creation_and_reshape_are_jnp_s_bit_for_bit(dt):
    h = _data(dt)
    for shape in SHAPES:
        for name, ref, want in (("zeros", jnp.zeros, onp.zeros), ("ones", jnp.ones, onp.ones),
                                ("empty", jnp.zeros, onp.zeros)):
            _same(getattr(np, name)(shape, dtype=dt).data, ref(shape, dtype=dt),
                  want(shape, dtype=dt))
        fill = np.asarray(h[1])
        _same(np.full(shape, fill).data, jnp.full(shape, fill.data), onp.full(shape, h[1]))
        _same(np.full(shape, fill, dtype=dt).data, jnp.full(shape, fill.data, dtype=dt),
              onp.full(shape, h[1], dtype=dt))
    x = np.asarray(h)
    for shape, order in (((2, -1), "C"), ((-1,), "C"), ((2, 3), "F"), ((3, 1, 2), "A")):
        y = x[:6]
        _same(np.reshape(y, shape, order=order).data,
              jnp.reshape(y.data, shape, order="F" if order == "F" else "C"),
              onp.reshape(h[:6], shape, order=order))
    _same(x.reshape(2, -1).data, jnp.reshape(x.data, (2, -1)), h.reshape(2, -1))


def test_creation_and_reshape_elsewhere_are_jnp_s():
    """Under jit, on another default device, and of committed data."""
    h = _data(onp.float32)
    got = jax.jit(lambda: (np.zeros((2, 3)).data, np.full(3, 2.0).data,
                           np.asarray(h).reshape(4, -1).data))()
    for g, e in zip(got, (jnp.zeros((2, 3)), jnp.full(3, onp.float64(2.0)),
                          jnp.reshape(jnp.asarray(h), (4, -1)))):
        _same(g, e, eager=False)        # (the trace's outputs: JAX's placement)
    dev = jax.devices()[-1]
    with jax.default_device(dev):
        for g, e, want in ((np.zeros(3).data, jnp.zeros(3), onp.zeros(3)),
                           (np.ones(2, int).data, jnp.ones(2, int), onp.ones(2, int)),
                           (np.full(2, np.asarray(1.5)).data, jnp.full(2, onp.float64(1.5)),
                            onp.full(2, 1.5))):
            _same(g, e, want)
            assert g.devices() == {_home(g.dtype) or dev}
    c = jax.device_put(h, dev)          # committed: reshaped where it is
    _same(np.asarray(c).reshape(2, -1).data, jnp.reshape(c, (2, -1)))
    # a named array keeps its names and reshapes its positional axes
    t = np.asarray(h.reshape(2, 8)).tag("b", None)
    assert t.reshape(4, 2).named_shape == {"b": 2} and t.reshape(4, 2).shape == (4, 2)


def test_creation_and_reshape_compile_nothing():
    with _compilations() as count:
        # shapes no other test uses, so nothing is cached for them
        made = [np.zeros((1367, 3)), np.ones(2719, dtype=onp.int32),
                np.full((3, 911), 7.5), np.empty(4099, dtype=bool),
                np.asarray(onp.arange(4100.0)).reshape(41, 100)]
        for m in made:
            onp.asarray(m)
    assert count[0] == (0 if jax.default_backend() == "cpu" else count[0])
    assert made[-1].shape == (41, 100) and float(made[-1][40, 99]) == 4099.0

"""Host NumPy data onto the device: ``np.asarray``/``np.array`` of NumPy data and
lists give what ``jax.numpy.asarray`` gives (dtype, weak type, bits) in both x64
modes and inside ``jax.jit``, compile nothing, and never share the host buffer."""
import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as onp
import pytest

import namedarray as np
from namedarray.frontend.engines import args
from namedarray.frontend.engines.args import to_device
from support import ALL_DTYPES

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


def _same(res, exp):
    assert res.dtype == exp.dtype and res.shape == exp.shape, (res, exp)
    assert res.weak_type == exp.weak_type
    if not isinstance(exp, jax.core.Tracer):
        assert res.committed == exp.committed and res.sharding == exp.sharding
    r, e = onp.asarray(res), onp.asarray(exp)
    assert r.tobytes() == e.tobytes(), (r, e)


@pytest.mark.parametrize("dt", ALL_DTYPES + ML, ids=lambda d: onp.dtype(d).name)
def test_to_device_is_jnp_asarray_bit_for_bit(dt):
    for h in _views(_data(dt)):
        _same(to_device(h), jnp.asarray(h))
        _same(np.asarray(h).data, jnp.asarray(h))
        _same(np.array(h).data, jnp.asarray(h))
        _same(np.asarray(h, dtype=h.dtype).data, jnp.asarray(h))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # NaN or inf into an integer type
            for to in CASTS:
                _same(np.asarray(h, dtype=to).data, jnp.asarray(h, dtype=to))


@pytest.mark.parametrize("dt", [onp.int64, onp.uint64, onp.float64, onp.complex128,
                                onp.float32, onp.int8, ml_dtypes.bfloat16])
def test_to_device_with_x64_off_is_jnp_asarray(dt):
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for h in _views(_data(dt)):
            _same(to_device(h), jnp.asarray(h))
            for to in CASTS:
                _same(np.asarray(h, dtype=to).data, jnp.asarray(h, dtype=to))


def test_to_device_under_jit_is_jnp_asarray():
    h = _data(onp.float64)
    got = jax.jit(lambda: to_device(h))()
    _same(got, jnp.asarray(h))


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
    with pytest.raises(TypeError, match=r"asarray: object dtype object \(from list "
                       r"\[18446744073709551616\]\) is not supported"):
        np.asarray([2**64])


@pytest.mark.parametrize("n", [3, 4000, 100_000])
@pytest.mark.parametrize("dt", [onp.float64, onp.float32, onp.int64])
def test_host_buffer_is_never_shared(n, dt):
    h = onp.arange(n, dtype=dt)
    views = [np.asarray(h), np.array(h), np.asarray(h, copy=False), np.asarray(h, dtype=dt),
             np.array(h, copy=False), np.ascontiguousarray(h), np.copy(h)]
    h[0] = 99
    for i, x in enumerate(views):
        assert int(x[0]) == 0, i


def test_numpy_data_reaches_the_device_without_compiling():
    count = [0]

    def listener(event, duration, **kw):
        if event == "/jax/core/compile/backend_compile_duration":
            count[0] += 1
    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        # a shape no other test uses, so nothing is cached for it
        x = np.asarray(onp.linspace(0.0, 1.0, 4093))
        y = np.asarray([[1, 2, 3]] * 1361)
        onp.asarray(x), onp.asarray(y)
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    assert count[0] == 0
    assert x.shape == (4093,) and y.shape == (1361, 3)


def test_the_public_transfer_gives_the_same_arrays(monkeypatch):
    """Where JAX's internal transfer is missing or fails, ``jax.device_put``
    takes over with the same results."""
    monkeypatch.setattr(args, "_FAST", [False])
    for dt in (onp.float64, onp.int8, ml_dtypes.bfloat16):
        for h in _views(_data(dt)):
            _same(to_device(h), jnp.asarray(h))
    h = onp.arange(5.0)
    x = to_device(h)
    h[0] = 9.0
    assert float(x[0]) == 0.0

"""Host NumPy data onto the device: ``np.asarray``/``np.array`` of NumPy data and
lists give what ``jax.numpy.asarray`` gives (dtype, weak type, bits) in both x64
modes and inside ``jax.jit``, compile nothing, and never share the host buffer."""
import contextlib
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
            _same(to_device(h), jnp.asarray(h))
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
        for name, ref in (("zeros", jnp.zeros), ("ones", jnp.ones), ("empty", jnp.zeros)):
            _same(getattr(np, name)(shape, dtype=dt).data, ref(shape, dtype=dt))
        fill = np.asarray(h[1])
        _same(np.full(shape, fill).data, jnp.full(shape, fill.data))
        _same(np.full(shape, fill, dtype=dt).data, jnp.full(shape, fill.data, dtype=dt))
    x = np.asarray(h)
    for shape, order in (((2, -1), "C"), ((-1,), "C"), ((2, 3), "F"), ((3, 1, 2), "A")):
        y = x[:6]
        _same(np.reshape(y, shape, order=order).data,
              jnp.reshape(y.data, shape, order="F" if order == "F" else "C"))
    _same(x.reshape(2, -1).data, jnp.reshape(x.data, (2, -1)))


def test_creation_and_reshape_elsewhere_are_jnp_s():
    """Under jit, on another default device, and of committed data."""
    h = _data(onp.float32)
    got = jax.jit(lambda: (np.zeros((2, 3)).data, np.full(3, 2.0).data,
                           np.asarray(h).reshape(4, -1).data))()
    for g, e in zip(got, (jnp.zeros((2, 3)), jnp.full(3, onp.float64(2.0)),
                          jnp.reshape(jnp.asarray(h), (4, -1)))):
        _same(g, e)
    dev = jax.devices()[-1]
    with jax.default_device(dev):
        for g, e in ((np.zeros(3).data, jnp.zeros(3)), (np.ones(2, int).data, jnp.ones(2, int)),
                     (np.full(2, np.asarray(1.5)).data, jnp.full(2, onp.float64(1.5)))):
            _same(g, e)
            assert g.devices() == {dev}
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

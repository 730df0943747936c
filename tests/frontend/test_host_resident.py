"""Small eager data lives on the host (engines/host.py, docs/design.md §5a): NumPy's
buffer, NumPy's functions, NumPy's bits; its device array is made once when
something needs it; writes and views keep NumPy's semantics; nothing traced,
named or on a device runs there; a NumPy program compiles nothing."""
import operator
import pickle
import warnings

import jax
import jax.numpy as jnp
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray.core.array import View, host_root, host_view_of, is_scalar
from namedarray.frontend.elementwise import UFUNCS
from namedarray.frontend.engines import host

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-3, 1e30, -1e30, 1e-310,
           float("inf"), float("-inf"), float("nan")]
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float32", "float64",
          "complex64", "complex128"]

_COMPILES = [0]


def _listener(event, duration, **kw):
    _COMPILES[0] += event == "/jax/core/compile/backend_compile_duration"


jax.monitoring.register_event_duration_secs_listener(_listener)


def lives_on_host(x) -> bool:
    return type(x) is np.NamedArray and x._host is not None


def same(got, want, what=""):
    """NumPy's answer exactly: dtype, shape, bits (any NaN matches any NaN),
    and result kind (NumPy's scalar: namedarray's scalar)."""
    if isinstance(want, tuple):         # (a named tuple: NumPy's class name and fields)
        assert isinstance(got, tuple) and len(got) == len(want), what
        assert type(got).__name__ == type(want).__name__, (what, type(got))
        assert getattr(got, "_fields", None) == getattr(want, "_fields", None), what
        for g, w in zip(got, want):
            same(g, w, what)
        return
    if isinstance(want, list):          # (histogramdd's edges)
        assert type(got) is list and len(got) == len(want), (what, type(got))
        for g, w in zip(got, want):
            same(g, w, what)
        return
    assert isinstance(got, np.NamedArray), (what, type(got))
    assert is_scalar(got) == isinstance(want, onp.generic), (what, got, want)
    g, w = onp.asarray(got), onp.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (what, g.dtype, w.dtype)
    if w.dtype.kind in "fc":
        nan = onp.isnan(w)
        assert (onp.isnan(g) == nan).all(), (what, g, w)
        g, w = g[~nan], w[~nan]
    assert g.tobytes() == w.tobytes(), (what, g, w)


@st.composite
def operands(draw, dtypes=DTYPES):
    dt = onp.dtype(draw(st.sampled_from(dtypes)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
    if dt.kind in "fc":
        elems = st.sampled_from(SPECIAL) if dt.kind == "f" else st.builds(
            complex, st.sampled_from(SPECIAL), st.sampled_from(SPECIAL))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return draw(hnp.arrays(dt, shape, elements=elems.map(lambda v: dt.type(v))))
    return draw(hnp.arrays(dt, shape))


def _ufuncs(nin):
    return sorted(n for n, u in UFUNCS.items() if u.nin == nin and isinstance(
        getattr(onp, n, None), onp.ufunc))


def _own(name, *operands):
    """Whether namedarray's answer is deliberately its own here (the Array
    API's special values: ``host.OWN_ANSWERS``), not NumPy's."""
    kinds = host.OWN_ANSWERS.get(name, "")
    return any(onp.asarray(v).dtype.kind in kinds for v in operands)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(_ufuncs(1)), a=operands())
def test_every_unary_ufunc_is_numpys_on_the_host(name, a):
    with onp.errstate(all="ignore"):
        try:
            want = getattr(onp, name)(a)
        except TypeError:
            return      # no NumPy loop: the general path raises (tested elsewhere)
    x = np.asarray(a)
    assert lives_on_host(x)
    got = getattr(np, name)(x)
    if _own(name, a):
        return
    same(got, want, name)
    for r in got if isinstance(got, tuple) else (got,):
        assert lives_on_host(r), name


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(_ufuncs(2)), a=operands(), b=operands(),
       scalar=st.sampled_from([None, 2, -1, 0.5, 2.0, True, 1 + 1j]))
def test_every_binary_ufunc_and_operator_is_numpys_on_the_host(name, a, b, scalar):
    b = b[tuple(0 for _ in range(b.ndim))] if scalar is None and b.size and a.ndim else b
    other = b if scalar is None else scalar
    with onp.errstate(all="ignore"):
        try:
            want = getattr(onp, name)(a, other)
        except (TypeError, ValueError, OverflowError):
            return
    x = np.asarray(a)
    y = np.asarray(other) if scalar is None else other
    got = getattr(np, name)(x, y)
    if _own(name, a, other):
        return
    same(got, want, name)
    if name == "power":     # NumPy's operator: z ** 2 is square(z), not power(z, 2)
        with onp.errstate(all="ignore"):
            same(x ** y, a ** other, "**")


@pytest.mark.parametrize("expr", [
    "np.sin(x) * 3 + np.exp(-x)", "x.sum()", "x.mean(axis=0)", "np.std(m, ddof=1)",
    "np.cumsum(m, axis=1)", "m @ m.T", "np.linalg.inv(m + 3 * np.eye(3))",
    "np.linalg.det(m)", "np.percentile(m, [5, 50, 95], axis=0)", "np.corrcoef(m)",
    "np.argsort(x)", "np.sort(m, axis=0)", "np.einsum('ij,jk->ik', m, m)",
    "np.dot(x, x)", "np.cov(m)", "np.median(m)", "np.unique(i, return_counts=True)",
    "np.histogram(x, bins=3)", "np.clip(x, -1, 1)", "np.round(x * 7, 2)", "np.power(z, 2)",
    "z ** 2", "z * z + 1j", "abs(z)", "np.convolve(x, x)", "np.interp(x, x[::-1], x)",
    "np.unique_all(i)", "np.unique_counts(i)", "np.unique_inverse(m > 0)",
    "np.unique_values(i)", "np.tril_indices(4)", "np.triu_indices(4, 1)",
    "np.tril_indices_from(m)", "np.diag_indices(3)", "np.unravel_index(i, (2, 3))",
    "np.ravel_multi_index(i[:4].reshape(2, 2), (7, 6))", "np.histogram2d(x, x[::-1], bins=3)",
    "np.histogramdd(m, bins=2)", "np.kaiser(12, 14)", "np.hanning(7)", "np.blackman(5)",
    "np.unwrap(x * 4)", "np.sort_complex(z)", "np.meshgrid(x[:3], x[:2])", "np.poly(m)",
    "np.polyder(x)", "np.polyint(x)", "np.polymul(x[:3], x[:4])", "np.roots(x[:4])",
    "np.isclose(x, x + 1e-9)", "np.linalg.svd(m)", "np.linalg.qr(m)", "np.linalg.slogdet(m)",
    "np.linalg.eig(m)", "np.linalg.eigh(m @ m.T)", "np.linalg.svdvals(m)",
    "np.linalg.lstsq(m, x[:3])",
    # a dtype given as NumPy's dtype object (an instance of its subclass Float32DType)
    "np.arange(5, dtype=np.dtype('float32'))", "np.ones(3, dtype=np.dtype('int8'))",
    "np.sum(m, dtype=np.dtype('float32'))",
    # the astype method; einsum's views (a transpose, a diagonal)
    "x.astype(np.dtype('float32'))", "m.astype('int16')", "x.sum().astype(np.float32)",
    "z.astype(np.complex64)", "np.einsum('ij->ji', m)", "np.einsum('ii->i', m)",
    "np.einsum(m, [0, 1], [1, 0])", "np.broadcast_arrays(x[:3], m)",
])
def test_functions_give_numpys_bits_and_compile_nothing(expr):
    rng = onp.random.default_rng(0)
    env_np = {"np": onp, "x": rng.standard_normal(9), "m": rng.standard_normal((3, 3)),
              "i": rng.integers(0, 4, 10), "z": rng.standard_normal(5) + 1j}
    env = {k: (v if k == "np" else np.asarray(v)) for k, v in env_np.items()}
    env["np"] = np
    want = eval(expr, env_np)
    c0 = _COMPILES[0]
    got = eval(expr, env)
    assert _COMPILES[0] == c0, expr
    same(got, want, expr)


def test_comparisons_of_arrays_are_numpys_bools_and_compile_nothing():
    x = onp.random.default_rng(0).standard_normal(9)
    c0 = _COMPILES[0]
    for f, args in ((np.allclose, (x, x + 1e-9)), (np.allclose, (x, x + 1)),
                    (np.array_equal, (x, x)), (np.array_equiv, (x, x[:1]))):
        got = f(*(np.asarray(a) for a in args))
        want = getattr(onp, f.__name__)(*args)
        assert type(got) is type(want) and got == want, f.__name__
    assert _COMPILES[0] == c0


def test_a_numpy_program_compiles_nothing():
    def kalman(np, zs):
        F, H, P, x = np.eye(2) + np.diag([0.1], 1), np.eye(2), np.eye(2), np.zeros(2)
        for z in zs:
            x = F @ x
            P = F @ P @ F.T + np.eye(2) * 1e-3
            K = P @ H.T @ np.linalg.inv(H @ P @ H.T + 0.1 * np.eye(2))
            x = x + K @ (z - H @ x)
            P = (np.eye(2) - K @ H) @ P
        return x, P

    zs = onp.random.default_rng(1).standard_normal((20, 2))
    c0 = _COMPILES[0]
    x, P = kalman(np, np.asarray(zs))
    assert _COMPILES[0] == c0
    wx, wP = kalman(onp, zs)
    same(x, wx)
    same(P, wP)


def test_the_device_array_is_made_once_and_writes_never_reach_it():
    x = np.arange(5.0)
    assert lives_on_host(x) and x._dev is None
    d = x.data                       # made now, kept
    assert isinstance(d, jax.Array) and x.data is d
    x[0] = 7.0                       # the buffer is shared with d: a copy is written
    assert float(d[0]) == 0.0 and x.tolist() == [7.0, 1.0, 2.0, 3.0, 4.0]
    assert x._dev is None and lives_on_host(x)
    y = np.zeros(3)
    h = y._host
    y[1] = 2.0                       # no device array shares it: written in place
    assert y._host is h and y.tolist() == [0.0, 2.0, 0.0]


def test_views_of_host_data_read_and_write_as_numpys():
    a = np.arange(12.0).reshape(3, 4)
    r, t = a[1], a.T
    assert type(r) is View and host_view_of(r) is not None
    a[1, 2] = 50.0                   # a write into the base shows in its views
    assert r.tolist() == [4.0, 5.0, 50.0, 7.0] and float(t[2, 1]) == 50.0
    r += 1                           # a write into a view reaches the base
    assert a[1].tolist() == [5.0, 6.0, 51.0, 8.0]
    s = a[:, 1:3]
    s[...] = 0
    assert onp.asarray(a).tolist() == [[0, 0, 0, 3], [5, 0, 0, 8], [8, 0, 0, 11]]
    same(t @ a, onp.asarray(a).T @ onp.asarray(a))


def test_in_place_operators_and_view_writes_stay_on_the_host():
    def program(np, n):
        a = np.zeros((n, n))
        a[0] += 1
        a[1:, :2] *= 3
        a.reshape(-1)[::3] -= 0.5        # a view of a view, written through
        b = a.T
        b[0] += np.arange(n)             # a transposed view
        row = a[2]
        row **= 2
        a @= np.eye(n) * 2
        i = np.arange(n)
        i //= 2
        i <<= 1
        return a, b, row, i

    for n in range(5, 9):                # a new shape each time
        c0 = _COMPILES[0]
        got = program(np, n)
        assert _COMPILES[0] == c0, n
        assert lives_on_host(got[0]) and lives_on_host(got[3])
        for g, w in zip(got, program(onp, n)):
            same(g, w)
    x = np.arange(4)
    with pytest.raises(TypeError, match=r"^__iadd__: cannot cast the result from float64 "
                       r"to the target's int64 with casting rule 'same_kind'"):
        x += 0.5
    with pytest.raises(ValueError, match="read-only"):
        v = np.broadcast_to(np.arange(3.0), (2, 3))
        v += 1
    assert x.tolist() == [0, 1, 2, 3]
    x = np.arange(4.0)
    view = x[1:]
    d = x.data                           # the device array now shares the buffer:
    view += 1                            # the write is not in place, yet reaches x
    assert x.tolist() == [0.0, 2.0, 3.0, 4.0] and d.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert view.tolist() == [2.0, 3.0, 4.0]


def test_device_values_written_into_host_data_are_read_back():
    """A small device value (an array a library made with ``atleast_2d`` of a
    list, or one a user put on a device, and views of it) written into data
    living on the host is read back and written by NumPy: the target stays
    on the host (it moved to the device and scattered there, ~0.25 ms a
    write, which made a filter's loop ~100x NumPy's)."""
    x = onp.array([1.0, 2.0, 3.0])
    values = {
        "a view of atleast_2d of a list": np.atleast_2d([np.asarray(x), np.asarray(x)])[0],
        "a device array": np.asarray(jax.device_put(x * 2)),
        "float32 device data": np.asarray(jax.device_put((x * 3).astype(onp.float32))),
        "a transposed view": np.asarray(jax.device_put(onp.arange(6.0).reshape(3, 2))).T[1],
    }
    for what, v in values.items():
        s, want = np.zeros((4, 3)), onp.zeros((4, 3))
        c0 = _COMPILES[0]
        s[1] = v
        want[1] = onp.asarray(v)
        assert lives_on_host(s) and _COMPILES[0] == c0, what
        same(s, want, what)
    s, want = np.zeros((4, 3), dtype=np.int64), onp.zeros((4, 3), dtype=onp.int64)
    s[1] = np.asarray(jax.device_put(x + 0.5))     # (another kind: NumPy's unsafe cast)
    want[1] = x + 0.5
    same(s, want)
    s = np.zeros((4, 3))
    s[1] = np.asarray(jax.device_put(x)).tag("n")[{"n": 0}]   # (a named value: compiled)
    assert s.tolist()[1] == [1.0, 1.0, 1.0]


def test_element_reads_and_writes_of_a_scalar_loop():
    def loop(np, n):                     # the amortization table's operations
        bal, part = np.zeros(n + 1), np.zeros(n)
        bal[0], k = 1000.0, np.arange(n)
        for i in range(n):
            part[i] = bal[i] * 0.01
            bal[i + 1] = bal[i] - (25.0 - part[i])
            k[i] = k[-1 - i] * 2         # ints: an int scalar into an int vector
        return bal, part, k, bal[-1], part[-n]

    for n in (5, 6, 7):
        c0 = _COMPILES[0]
        got = loop(np, n)
        assert _COMPILES[0] == c0, n
        for g, w in zip(got, loop(onp, n)):
            same(g, w)
    x = np.zeros(3)
    view, h = x[1:], x._host
    x[1] = np.arange(3.0)[2]             # in place: the view sees it
    assert x._host is h and view.tolist() == [2.0, 0.0]
    d = x.data                           # a device array shares the buffer now:
    x[2] = 5.0                           # a copy is written, the device array kept
    assert d.tolist() == [0.0, 2.0, 0.0] and x.tolist() == [0.0, 2.0, 5.0]
    i = np.zeros(3, dtype=int)
    i[0] = 2.7                           # NumPy's unsafe cast of an item write
    i[1] = np.float64(1.5)
    assert i.tolist() == [2, 1, 0]
    with pytest.raises(IndexError, match=r"^__setitem__: index 3 is out of bounds "
                                         r"for axis 0 with size 3"):
        x[3] = 1.0
    with pytest.raises(ValueError, match=r"^__setitem__: could not broadcast input array "
                                         r"from shape \(2,\) into shape \(\)"):
        x[0] = np.arange(2.0)            # (NumPy: "setting an array element with a sequence")
    assert x.tolist() == [0.0, 2.0, 5.0]
    with pytest.raises(IndexError, match=r"^__getitem__: index -4 is out of bounds "
                                         r"for axis 0 with size 3"):
        x[-4]
    x.setflags(write=False)
    with pytest.raises(ValueError, match="^assignment destination is read-only"):
        x[0] = 1.0


_OPERATORS = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
              "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
              "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
              "lshift": "left_shift", "rshift": "right_shift", "eq": "equal",
              "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
              "ge": "greater_equal"}
_PYTHON = [0, 1, -1, 3, 200, 2 ** 40, 2 ** 60 + 1, -(2 ** 1100), True, False] + SPECIAL


@settings(max_examples=300, deadline=None)
@given(op=st.sampled_from(sorted(_OPERATORS)), a=operands(), b=operands(),
       other=st.sampled_from([None] + _PYTHON), reflected=st.booleans())
def test_scalar_operators_are_numpys_on_the_host(op, a, b, other, reflected):
    """The short path of a scalar's operators (``s * 0.5``, ``0.5 - s``,
    ``s - t``: the arithmetic of an eager loop) gives NumPy's scalar, bits
    and errors, for every operator, dtype and kind of operand."""
    if not a.size or (other is None and not b.size):
        return
    sa = a.reshape(-1)[0]
    so = b.reshape(-1)[0] if other is None else other
    fn = getattr(operator, op + "_" if op in ("and", "or") else op)
    call = (lambda x, y: fn(y, x)) if reflected else fn
    with onp.errstate(all="ignore"):
        try:
            want = call(sa, so)
        except Exception as e:      # noqa: BLE001 -- NumPy's error, namedarray's too
            with pytest.raises(type(e)):
                call(np.asarray(a).reshape(-1)[0],
                     np.asarray(b).reshape(-1)[0] if other is None else other)
            return
    x = np.asarray(a).reshape(-1)[0]
    y = np.asarray(b).reshape(-1)[0] if other is None else other
    assert lives_on_host(x) and is_scalar(x)
    got = call(x, y)
    if _own(_OPERATORS[op], sa, so):
        return
    same(got, want, op)
    if not reflected and op not in ("eq", "ne", "lt", "le", "gt", "ge"):
        # NumPy's scalar has no in-place operator: ``s op= y`` is ``s = s op y``
        before = onp.asarray(x).copy()
        same(getattr(operator, "i" + fn.__name__.strip("_"))(x, y), want, "i" + op)
        assert onp.asarray(x).tobytes() == before.tobytes()


def test_scalar_operators_keep_the_error_state_and_the_trace():
    s = np.zeros(3)[0] + 1.0
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            s / 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(s / 0.0) == float("inf")       # the default state: no warning
    assert lives_on_host(s * 0.5) and lives_on_host(0.5 - s) and lives_on_host(s - s)
    traced = jax.jit(lambda t: s * t + 0.5 - s)(2.0)
    assert float(traced) == 1.5 and not lives_on_host(traced)
    assert isinstance(jax.jit(lambda: (s * 2.0).data)(), jax.Array)


def test_scalar_arithmetic_of_constants_under_transforms():
    """A scalar living on the host is a constant inside ``jit``, ``grad`` and
    ``vmap`` too; its arithmetic with Python numbers or another such scalar
    gives the same values there as eagerly, and meets traced values as a
    constant."""
    b = np.arange(6.0) * 1.5
    s, t, i = b[2], b[5], np.arange(4)[3]
    x = np.asarray([0.5, -2.0, 3.0])
    eager = (x * (s * 3.0 - 0.5) + (t / s) - 2 * i).tolist()
    f = lambda v: v * (s * 3.0 - 0.5) + (t / s) - 2 * i     # noqa: E731
    assert jax.jit(f)(x).tolist() == eager
    assert jax.vmap(f)(x).tolist() == eager
    grad = jax.grad(lambda v: (f(np.asarray(v)) * (s - 1.0)).sum().data)(x.data)
    assert grad.tolist() == [float((s * 3.0 - 0.5) * (s - 1.0))] * 3
    inside = jax.jit(lambda: (s * t - i, s / 0.0, i // 0))()     # (only constants)
    assert [float(v) for v in inside] == [float(s * t - i), float("inf"), 0.0]


def test_results_never_share_a_buffer_that_is_written():
    a = np.arange(4)
    b = np.around(a)                 # NumPy gives back its operand: not shared here
    b[0] = 9
    c = np.asarray(a)                # NumPy's asarray: the same array
    c[1] = 7
    assert a.tolist() == [0, 7, 2, 3] and b.tolist() == [9, 1, 2, 3]
    v = onp.asarray(a)               # NumPy's view of it is read-only
    with pytest.raises(ValueError, match="read-only"):
        v[0] = 1
    s = a.sum()
    t = s
    t += 1                           # a scalar is a value
    assert int(s) == 12 and int(t) == 13
    assert pickle.loads(pickle.dumps(a)).tolist() == a.tolist()


def test_copies_and_stacked_lists_of_host_data_stay_on_the_host():
    """``copy.copy``/``deepcopy`` of data living on the host copy its buffer
    there (they made its device array, to share it), and ``atleast_1d/2d/3d``
    of a list of such arrays is NumPy's new array there (it went to the
    device): a Kalman filter's every step did both (filterpy's UKF step:
    6.1 ms, then 0.9 ms)."""
    import copy
    h = onp.array([1.5, -2.0, 3.0])
    for a in (np.asarray(h), np.asarray(h)[0], np.asarray(h).sum()):
        for c in (copy.copy(a), copy.deepcopy(a)):
            assert lives_on_host(c) and a._dev is None
            same(c, onp.asarray(a)[()] if not a.ndim and not a._array0d else onp.asarray(a))
    a = np.asarray(h)
    c = copy.deepcopy(a)
    c[0] = 7.0
    assert a.tolist() == h.tolist() and c.tolist() == [7.0, -2.0, 3.0]
    # a 0-d array's copy is a 0-d array, a scalar's a scalar, as NumPy's
    z = np.asarray(onp.float64(2.0))
    for v in (z, z[...], np.asarray(h)[1:2].reshape(())):
        assert all(not isinstance(f(v), onp.generic) and f(v).ndim == 0
                   for f in (copy.copy, copy.deepcopy))
    assert isinstance(copy.deepcopy(np.asarray(h).sum()), onp.float64)
    rows = [np.asarray(h[:2]), np.asarray(h[1:])]
    for f in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
        got = f(rows)
        assert lives_on_host(got) and all(r._dev is None for r in rows), f.__name__
        same(got, getattr(onp, f.__name__)([h[:2], h[1:]]), f.__name__)
    # a filter's list of states, made an array at the end; a list beside numbers
    states = [np.asarray(h) * k for k in range(4)]
    for given, want in ((states, [h * k for k in range(4)]),
                        ([states[1][0], 2, 2.5], [h[0], 2, 2.5]),
                        ([np.asarray(h.astype(onp.float32)), [1, 2, 3]],
                         [h.astype(onp.float32), [1, 2, 3]])):
        got = np.asarray(given)
        assert lives_on_host(got) and all(getattr(e, "_dev", None) is None for e in given)
        same(got, onp.asarray(want))
    same(np.asarray(states, dtype=onp.float32), onp.asarray([h * k for k in range(4)],
                                                           dtype=onp.float32))
    # past the host's size: NumPy's array put on the device at once (a program
    # stacking 12,000 states compiled for minutes)
    row = onp.arange(40.0)
    many = [np.asarray(row) + k for k in range(2000)]
    c0 = _COMPILES[0]
    got = np.asarray(many)
    assert _COMPILES[0] == c0 and not lives_on_host(got)
    onp.testing.assert_array_equal(onp.asarray(got), row + onp.arange(2000.0)[:, None])
    # a view's copy (filterpy's deepcopy of a measurement reshaped as a column)
    col = np.atleast_2d(np.asarray(h)).T[:, 0]
    c = copy.deepcopy(col)
    assert lives_on_host(c) and col._base._dev is None
    same(c, h)
    # NumPy's own small array written into a region of data living on the host
    q = np.eye(4)
    q[0:2, 0:2] = onp.full((2, 2), 3.0)
    assert lives_on_host(q)
    want = onp.eye(4)
    want[0:2, 0:2] = 3.0
    same(q, want)


def _rows_loop(np, a, w):
    """A sum of outer products, row by row."""
    total = 0
    for row in a:
        y = row - w
        total += np.outer(y, y)
    return total, a


def _element_loop(np, errors):
    """Each column's middle index of its minimum (an extrapolation's pick)."""
    arg_mins = np.nanargmin(errors, axis=0)
    for i, min_error in enumerate(np.nanmin(errors, axis=0)):
        idx = np.flatnonzero(errors[:, i] == min_error)
        arg_mins[i] = idx[idx.size // 2]
    return arg_mins, errors[-1], errors[1:, ::3]


def _on_cpu_device(h):
    """NumPy's ``h`` as JAX holds it on the CPU device, uncommitted (JAX's
    own array there; on a machine with an accelerator, made under
    ``jax.default_device`` of the CPU)."""
    with jax.default_device(jax.devices("cpu")[0]):
        return np.asarray(jnp.asarray(h))


@pytest.mark.parametrize("loop, shape", [(_rows_loop, (300, 3)), (_element_loop, (5, 200)),
                                         (_element_loop, (2, host.HOST_SIZE // 2 + 1))])
def test_loops_over_device_data_read_and_write_it_on_the_host(loop, shape):
    # an eager loop's element and row reads and writes of data on the CPU
    # device: its buffer read in place once, then NumPy's, compiling nothing
    h = onp.round(onp.random.default_rng(0).standard_normal(shape), 1)
    args = (onp.array([0.5, -1.0, 2.0]),) if loop is _rows_loop else ()
    a = _on_cpu_device(h)
    assert not lives_on_host(a)
    if loop is _rows_loop:
        np.outer(a[0] - args[0], a[0] - args[0])    # (what the first row's ops compile)
    else:
        np.nanargmin(a, axis=0), np.nanmin(a, axis=0)
    a = _on_cpu_device(h)
    c0 = _COMPILES[0]
    got = loop(np, a, *args)
    assert _COMPILES[0] == c0 and lives_on_host(a), shape
    for g, want in zip(got, loop(onp, h.copy(), *args)):
        same(g, want)
    d = a.data                           # (a device array beside the buffer)
    for row in a:
        row *= 2                     # (a row is a view: the array sees it, in place)
    a[0] = 5.0
    assert _COMPILES[0] == c0 and lives_on_host(a), shape
    h = h * 2
    h[0] = 5.0
    same(a, h)
    assert a.data.tolist() == h.tolist() and d.tolist() != h.tolist()


def _view_loop(np, errors):
    """The element loop over a view of a device result (a reshape, then
    column reads, as an extrapolation's error table is read)."""
    errors = errors.reshape(3, -1)
    mins = np.min(errors, axis=0)
    picks = np.zeros(errors.shape[1], int)
    for i, m in enumerate(mins):
        idx = np.flatnonzero(errors[:, i] == m)
        picks[i] = idx[idx.size // 2]
    errors[1, ::7] = -9.0                    # (a write through the view)
    return picks, errors


@pytest.mark.parametrize("view", [lambda a: a.reshape(3, -1), lambda a: a.T.T,
                                  lambda a: a[::-1][::-1]])
def test_views_of_device_data_are_read_on_the_host(view):
    # (a view of a device result was read by a device call per element:
    # numdifftools' Jacobian of 500 variables read 250,000 columns of a
    # reshaped error table so, ~150 s where NumPy takes under 1)
    h = onp.round(onp.random.default_rng(3).standard_normal((3, 400)), 1)
    a = _on_cpu_device(h)
    v = view(a)
    d = a.data
    w = v.reshape(3, -1)
    w[:, 0]
    assert host_root(w)[0] is not None       # (NumPy's view of the base's buffer)
    got = _view_loop(np, v)
    want = _view_loop(onp, h.reshape(3, -1).copy())
    same(got[0], want[0])
    same(got[1], want[1])
    same(a, want[1])                         # (the write reached the base)
    assert onp.asarray(d).tolist() == h.tolist()     # (JAX's array untouched)


def test_committed_and_named_device_data_stay_on_the_device_when_read():
    h = onp.arange(12.0).reshape(4, 3)
    for kept in (np.asarray(jax.device_put(jnp.asarray(h), jax.devices("cpu")[0])),
                 _on_cpu_device(h).tag("n", None)):
        list(kept)
        kept[0], kept[1:]
        kept[0] = 1.0
        assert not lives_on_host(kept)


def test_device_data_read_in_place_keeps_numpys_subnormals():
    # the compiled path flushes subnormal numbers; data brought to the host by
    # an element read is host data, whose arithmetic is NumPy's from then on
    h = onp.array([1e-310, 1.0, -3e-320])
    d = _on_cpu_device(h)
    assert (d * 1.0)[0] == 0.0            # compiled: flushed (docs/differences.md)
    d[1]
    assert lives_on_host(d)
    same(d * 1.0, h * 1.0)
    same(np.sqrt(np.abs(d)), onp.sqrt(onp.abs(h)))


def test_traced_named_and_device_data_keep_the_compiled_path():
    x = np.linspace(0.0, 1.0, 5)
    got = jax.jit(lambda t: (np.sin(x) * t).sum().data)(2.0)    # x: a constant
    onp.testing.assert_allclose(got, 2 * onp.sin(onp.linspace(0.0, 1.0, 5)).sum())
    assert lives_on_host(x)          # nothing traced was kept
    g = jax.grad(lambda t: (np.asarray(t) * x).sum().data)(1.0)
    assert float(g) == pytest.approx(2.5)
    n = x.tag("a")
    assert not lives_on_host(n) and not lives_on_host(n * 2)
    d = np.asarray(jnp.arange(3.0))
    assert not lives_on_host(d) and not lives_on_host(d + 1)
    c0 = _COMPILES[0]
    jax.jit(lambda v: v * 2)(x)      # the device array is made for jit: no error
    assert _COMPILES[0] >= c0


def _programs(np):
    """NumPy-style programs (loops of small operations, masks, statistics):
    their results as NumPy arrays."""
    rng = onp.random.default_rng(2)
    x = np.linspace(0.0, 2 * np.pi, 32)
    errs = [np.max(np.abs((np.sin(x + 10.0 ** -k) - np.sin(x - 10.0 ** -k)) /
                          (2 * 10.0 ** -k) - np.cos(x))) for k in range(1, 8)]
    c = np.asarray(onp.linspace(-2, 0.8, 12))[None, :] + 1j * np.asarray(
        onp.linspace(-1.4, 1.4, 9))[:, None]
    z, n = np.zeros(c.shape, dtype=complex), np.zeros(c.shape, dtype=int) + 10
    for i in range(10):
        inside = abs(z) < 2.0
        n[inside] = i
        z[inside] = z[inside] ** 2 + c[inside]
    data = np.asarray(rng.normal(10.0, 2.0, (50, 3)))
    stats = [data.mean(axis=0), data.std(axis=0, ddof=1), np.corrcoef(data, rowvar=False),
             np.percentile(data, [5, 50, 95], axis=0), np.linalg.inv(np.cov(data.T))]
    bal = np.zeros(13)
    bal[0] = 1000.0
    for i in range(12):
        bal[i + 1] = bal[i] * 1.01 - 50.0
    return [onp.asarray(v) for v in [np.array(errs), n, z, bal, *stats]]


def test_the_compiled_path_agrees_within_the_documented_rounding():
    """The same programs with every call compiled (``NAMEDARRAY_HOST_TIER=off``)
    give NumPy's answers up to XLA's rounding (docs/differences.md)."""
    import json
    import os
    import subprocess
    import sys
    code = ("import json, sys; sys.path.insert(0, %r); import test_host_resident as t; "
            "import namedarray as np; print(json.dumps([[v.real.tolist(), v.imag.tolist()]"
            " for v in t._programs(np)]))" % os.path.dirname(__file__))
    env = dict(os.environ, NAMEDARRAY_HOST_TIER="off", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, timeout=600)
    off = json.loads(proc.stdout.strip().splitlines()[-1])
    want = _programs(onp)
    c0 = _COMPILES[0]
    on = _programs(np)
    assert _COMPILES[0] == c0                # on the host: nothing compiled
    for w, o, (re_, im_) in zip(want, on, off):
        same(np.asarray(o), w)               # the host: NumPy's bits
        got = onp.asarray(re_) + 1j * onp.asarray(im_) if w.dtype.kind == "c" else \
            onp.asarray(re_)
        onp.testing.assert_allclose(got, w, rtol=1e-12, atol=1e-15)


def test_sorts_are_stable_on_the_host_as_compiled():
    # NumPy's default quicksort orders ties as it likes; namedarray's sorts are
    # stable on both paths (the Array API's rule), which is one of NumPy's answers
    ties = onp.zeros(17, onp.uint8)
    ties[::3] = 1
    host_data = np.asarray(ties)
    device_data = np.asarray(jax.device_put(ties))
    want = onp.argsort(ties, kind="stable")
    for x in (host_data, device_data):
        onp.testing.assert_array_equal(onp.asarray(np.argsort(x)), want)
        onp.testing.assert_array_equal(onp.asarray(x.argsort()), want)
        onp.testing.assert_array_equal(onp.asarray(np.argsort(x, -1, None)), want)
    assert lives_on_host(np.argsort(host_data))
    zeros = onp.array([0.0, -0.0] * 10)
    same(np.sort(np.asarray(zeros)), onp.sort(zeros, kind="stable"))


def test_astype_of_host_data_copies_as_numpys():
    """``astype`` of data living on the host: a new array (NumPy's cast), but
    ``copy=False`` to the same dtype is the array itself, as in NumPy."""
    for m in (onp, np):
        x = m.arange(3.0)
        y = x.astype(m.float32)
        y[0] = 7.0
        same_ = x.astype(m.float64, copy=False)
        same_[1] = 9.0
        assert x.tolist() == [0.0, 9.0, 2.0] and y.dtype == onp.float32, m.__name__


@pytest.mark.parametrize("fn", ["zeros_like", "ones_like", "empty_like"])
@pytest.mark.parametrize("order", ["F", "K", "A"])
def test_like_of_host_data_in_another_memory_order_lives_on_the_host(fn, order):
    """``zeros_like`` (``ones_like``, ``empty_like``) of a view of host data
    in Fortran or another memory order: NumPy's strides, on the host, so an
    FFT written into it in place is NumPy's bit for bit (it was made on the
    device, and XLA's FFT differs from pocketfft in the last bits)."""
    from namedarray.core.array import host_root
    h = onp.random.default_rng(0).random((4, 5, 6)) + 1j
    for v, hv in ((np.asarray(h).T, h.T), (np.asarray(h).transpose(2, 0, 1),
                                          h.transpose(2, 0, 1))):
        got, want = getattr(np, fn)(v, order=order), getattr(onp, fn)(hv, order=order)
        assert got.strides == want.strides and got.dtype == want.dtype
        assert host_root(got)[0] is not None, "made on a device"
        if fn != "empty_like":
            onp.testing.assert_array_equal(onp.asarray(got), want)
        got[1, 2, 3] = 7
        assert complex(got[1, 2, 3]) == 7 and int((onp.asarray(got) != 0).sum()) >= 1
    x = np.asarray(h)
    out = np.zeros_like(x.T).T
    r = np.fft.ifftn(np.fft.fftn(x, out=out), out=out)
    assert r is out
    onp.testing.assert_array_equal(onp.asarray(r), onp.fft.ifftn(onp.fft.fftn(h)))


def test_out_none_given_keeps_a_call_on_the_host():
    # (ndarray.clip passes out=None on; the host tier read any out= as a write
    # into an array and compiled: x.clip(min=1) of host data was a device array)
    h = onp.linspace(0.0, 3.0, 7)
    x = np.asarray(h)
    c0 = _COMPILES[0]
    for got, want in [(x.clip(min=1), h.clip(min=1)), (x.clip(0.5, 2), h.clip(0.5, 2)),
                      (np.sum(x, out=None), h.sum()), (np.cumsum(x, out=None), h.cumsum()),
                      (x.round(1, out=None), h.round(1))]:
        assert lives_on_host(got)
        same(got, want)
    assert _COMPILES[0] == c0


@pytest.mark.parametrize("view, shape", [(lambda a: a.T, (2, 12)), (lambda a: a[1:3], (6, 4)),
                                         (lambda a: a[:, ::2], (3, 8))])
def test_a_view_read_on_the_host_after_its_base_is_reshaped_in_place(view, shape):
    # (the view's positions in its base were read in the base's new shape:
    # a[1:3] after a.shape = (6, 4) raised "cannot reshape array of shape (2, 6)")
    h = onp.arange(24.0).reshape(4, 6)
    a, want = _on_cpu_device(h), h.copy()
    v, w = view(a), view(want)
    a.shape = want.shape = shape
    same(v[1], w[1])
    v[0] = -1.0
    w[0] = -1.0
    same(a, want)
    same(v, w)

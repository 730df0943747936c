"""The ufunc engine's fast path (operands already of NumPy's loop dtypes: one
call, no cast) runs the same function as the general path: for ufuncs whose
wrapper picks its function by the operand types (special values, exact
division), the fast path's choice, made once per dtypes, gives the general
path's bits and dtype."""
from __future__ import annotations

import jax
import numpy as onp
import pytest

import namedarray as np
from namedarray.frontend.elementwise import UFUNCS

INF, NAN = float("inf"), float("nan")
PICKED = sorted(n for n, u in UFUNCS.items() if u._for_types is not None)
VALUES = [0.0, -0.0, 0.5, -0.5, 2.0, -3.0, INF, -INF, NAN]


def _data(dt):
    v = onp.array(VALUES)
    if onp.dtype(dt).kind == "c":
        return onp.array([complex(a, b) for a in VALUES for b in VALUES[::2]], dt)
    return v.astype(dt)


def _same(got, want, what):
    got, want = onp.asarray(got), onp.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    assert (got.view("u1") == want.view("u1")).all(), what


def test_the_wrapped_ufuncs_are_covered():
    # the ufuncs with a wrapper that picks by type: special values and division
    assert {"divide", "true_divide", "exp", "sqrt", "log", "sign"} <= set(PICKED)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_fast_path_equals_general_path(dt):
    x = _data(dt)
    a = np.asarray(jax.device_put(x))     # on the device: the compiled paths
    for name in PICKED:
        u = UFUNCS[name]
        if u.nin == 1:
            calls = [((a,), (x,))]
        else:
            y = x[::-1].copy()
            calls = [((a, np.asarray(jax.device_put(y))), (x, y)), ((a, 2.5), (x, 2.5)),
                     ((1.5, a), (1.5, x))]
        for args, nargs in calls:
            with onp.errstate(all="ignore"):
                try:
                    getattr(onp, name)(*nargs)
                except TypeError:       # not a NumPy loop (modf of complex): both raise
                    for kw in ({}, {"out": None}):
                        with pytest.raises(TypeError, match=name):
                            u(*args, **kw)
                    continue
                u(*args)          # the first call fills the fast path's table
                fast = u(*args)
                general = u(*args, out=None)    # a keyword: the general path
            if u.nout == 1:
                fast, general = (fast,), (general,)
            for f, g in zip(fast, general):
                assert type(f) is type(g) is np.NamedArray
                _same(f, g, f"{name}{tuple(type(v).__name__ for v in nargs)} {dt}")


def test_fast_path_division_is_numpys_for_python_scalars():
    x = onp.random.default_rng(5).standard_normal(200)
    for dt in ("float32", "float64"):
        a = x.astype(dt)
        _same(np.asarray(a) / 3.0, a / 3.0, dt)
        _same(3.0 / np.asarray(a), 3.0 / a, dt)
        _same(np.asarray(a) / 7, a / 7, dt)


def test_views_take_the_fast_path_and_read_their_base(monkeypatch):
    """A basic slice (``s[:, None]``, a row) is an operand of the fast path and
    of the reductions' fast path; it reads its base's newest data."""
    x = np.arange(12.0).reshape(3, 4)
    ref = onp.arange(12.0).reshape(3, 4)
    col = x.sum(axis=1)[:, None]                # a view of the sums taken now
    sums = ref.sum(axis=1)[:, None]
    row = x[0]                                  # a view of x: sees the write below
    x[0] = 100.0
    ref[0] = 100.0

    def general(*a, **k):
        raise AssertionError("the general path ran")
    monkeypatch.setattr(type(np.add), "_call", general)
    _same((x + col).data, ref + sums, "array + view")
    _same((row * 2.0).data, ref[0] * 2.0, "view * float")
    _same(np.exp(row).data, onp.exp(ref[0]), "exp(view)")
    _same(row.sum(axis=0).data.reshape(1), ref[0].sum().reshape(1),
          "view.sum()")

"""NumPy's views: writes through a basic slice, .T, .mT, .flat, .real, .imag,
reshape, ravel and view() reach the base; a view sees its base's newer writes
and never writes a stale copy back; diagonal and broadcast_to are read-only."""
import jax
import numpy as onp
import pytest

import namedarray as np
from support import assert_same


def _both(step):
    """Run ``step(module, array)`` on NumPy and on namedarray; return both bases."""
    y = onp.arange(6.0).reshape(2, 3) + 1j * onp.arange(6.0).reshape(2, 3)
    x = np.asarray(y.copy())
    y = y.copy()
    step(onp, y)
    step(np, x)
    return x, y


STEPS = {
    "stale slice": lambda m, a: (lambda s: (a.__setitem__((0, 1), 10), s.__setitem__(
        2, 20)))(a[0]),
    "slice of slice": lambda m, a: a[1][1:].__setitem__(0, 7),
    "T": lambda m, a: a.T.__setitem__((2, 1), 5),
    "T iadd": lambda m, a: a.T.__iadd__(1),
    "transpose axes": lambda m, a: a.transpose(1, 0).__setitem__((0, 1), 3),
    "mT": lambda m, a: a.mT.__setitem__((0, 1), 4),
    "flat": lambda m, a: a.flat.__setitem__(4, 9),
    "real": lambda m, a: a.real.__setitem__((0, 0), 5),
    "imag": lambda m, a: a.imag.__setitem__((1, 2), 5),
    "reshape": lambda m, a: a.reshape(3, 2).__setitem__((2, 0), 8),
    "reshape tuple": lambda m, a: a.reshape((6,)).__setitem__(slice(0, 2), 8),
    "ravel": lambda m, a: a.ravel().__setitem__(5, -1),
    "view": lambda m, a: a.view().__setitem__((0, 0), -2),
    "view then base": lambda m, a: (lambda v: (a.__setitem__((0, 0), 1),
                                               v.__setitem__((0, 1), 2)))(a.view()),
}


@pytest.mark.parametrize("name", STEPS)
def test_writes_through_views(name):
    x, y = _both(STEPS[name])
    assert_same(x, y)


def test_a_view_sees_newer_writes_to_its_base():
    x, y = np.arange(5), onp.arange(5)
    for a in (x, y):
        s, t = a[1:3], a.T
        a[1] = 10
        assert s[0] == 10 and t[1] == 10
    assert_same(x, y)


def test_real_and_imag_of_real_arrays():
    x, y = np.arange(3.0), onp.arange(3.0)
    x.real[0] = 5
    y.real[0] = 5
    assert_same(x, y)
    with pytest.raises(ValueError):
        y.imag[0] = 1
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        x.imag[0] = 1


@pytest.mark.parametrize("make", [lambda m, a: m.diagonal(a), lambda m, a: a.diagonal(),
                                  lambda m, a: m.broadcast_to(a[0], (2, 3))])
def test_read_only_results(make):
    y = onp.zeros((2, 3))
    x = np.zeros((2, 3))
    with pytest.raises(ValueError, match="read-only"):
        make(onp, y)[0] = 1
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        make(np, x)[0] = 1
    assert_same(make(np, x), make(onp, y))


def test_views_under_jit_and_named():
    x = np.arange(6.0).reshape(2, 3)
    assert_same(jax.jit(lambda a: a.T * 2)(x), onp.arange(6.0).reshape(2, 3).T * 2)
    n = np.arange(6.0).reshape(2, 3).tag("b", None)
    t = n.reshape(3, 1)
    t[0, 0] = 100
    # the index applies to the positional axes of every named slice
    assert n.untag("b").tolist() == [[100.0, 1.0, 2.0], [100.0, 4.0, 5.0]]

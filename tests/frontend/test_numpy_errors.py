"""Bad input gets NumPy's exception class (not garbage, an XLA message or
another class), and results keep NumPy's dtypes where jax.numpy's differ."""
import numpy as onp
import pytest

import namedarray as np
from support import assert_same

CASES = [
    ("bincount of negatives", ValueError, "bincount: 'list' argument must have no negative",
     lambda m: m.bincount(m.asarray([-1, 2]))),
    ("unravel_index out of range", ValueError, "unravel_index: index 10 is out of bounds "
     "for array with size 6", lambda m: m.unravel_index(10, (2, 3))),
    ("full_like overflow", OverflowError, "full_like: Python integer 300 out of bounds for "
     "int8", lambda m: m.full_like(m.arange(3, dtype=m.int8), 300)),
    ("dtype= cast refused", TypeError, "add: Cannot cast ufunc 'add' input 0 from "
     r"dtype\('float64'\) to dtype\('int64'\) with casting rule 'same_kind'",
     lambda m: m.add(m.asarray([1.5]), 1, dtype=m.int64)),
    ("moveaxis repeated", ValueError, "moveaxis: repeated axis in `source` argument",
     lambda m: m.moveaxis(m.zeros((2, 3)), [0, 0], [0, 1])),
    ("repeat negative", ValueError, "repeat: negative dimensions are not allowed",
     lambda m: m.repeat(m.arange(3), -1)),
    ("pad unknown mode", ValueError, "pad: mode 'foo' is not supported",
     lambda m: m.pad(m.arange(3), 1, mode="foo")),
]


def _nan_into_int(m):
    x = m.arange(3)
    x[0] = m.nan


CASES.append(("NaN into int", ValueError, "__setitem__: cannot convert float NaN to "
              "integer", _nan_into_int))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_errors_of_numpys_class(case):
    _, exc, msg, f = case
    with pytest.raises(exc):
        f(onp)
    with pytest.raises(exc, match=msg):
        f(np)


@pytest.mark.parametrize("a,v", [([1, 2, 3], [0, 1]), ([1, 2, 3], [2**40, 1]),
                                 ([True, False], [3, 4]), ([1.5, 2], [1, 1])])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_keeps_integers(fn, a, v):
    ya, yv = onp.asarray(a), onp.asarray(v)
    assert_same(getattr(np, fn)(np.asarray(ya), np.asarray(yv)), getattr(onp, fn)(ya, yv))


def test_histogram_counts_are_integers():
    y = onp.asarray([1.0, 2, 2, 3, 7])
    for kw in ({}, {"bins": 3}, {"density": True}, {"weights": onp.arange(5.0)}):
        r, e = np.histogram(np.asarray(y), **kw), onp.histogram(y, **kw)
        assert_same(r[0], e[0], close=True)


def test_round_of_a_full_reduction_is_an_int():
    s = np.sum(np.asarray([1.5, 2.0]))
    assert type(round(s)) is int and round(s) == round(onp.sum([1.5, 2.0]))
    assert list(range(round(np.mean(np.arange(5))))) == [0, 1]
    assert_same(round(np.asarray([1.26, 2.0]), 1), onp.round([1.26, 2.0], 1))

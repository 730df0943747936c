"""NumPy idioms seen in real programs: index objects, True_/False_, Python-bool
predicates."""
import numpy as onp
import pytest

import namedarray as np
from support import assert_same


@pytest.mark.parametrize("name,key", [("mgrid", (slice(0, 2), slice(0, 3))),
                                      ("mgrid", slice(0, 1, 5j)),
                                      ("r_", (slice(1, 3), 7, onp.asarray([4, 5]))),
                                      ("c_", (onp.asarray([1, 2]), onp.asarray([3, 4])))])
def test_index_objects(name, key):
    assert_same(getattr(np, name)[key], getattr(onp, name)[key], close=True)


def test_ogrid_s_index_exp_bools():
    assert_same(list(np.ogrid[0:2, 0:3]), list(onp.ogrid[0:2, 0:3]))
    assert np.s_[1:3] == onp.s_[1:3] and np.index_exp[1] == onp.index_exp[1]
    assert np.True_ is onp.True_ and np.False_ is onp.False_
    assert_same(np.arange(3)[np.s_[::2]], onp.arange(3)[::2])


def test_predicates_are_python_bools():
    for r in (np.allclose(np.ones(2), 1.0), np.array_equal(np.ones(2), [1, 1]),
              np.array_equiv(np.ones(2), 1), np.allclose([1.0], [2.0])):
        assert type(r) is bool
    u = np.arange(6.0).reshape(2, 3).tag("b", "f")
    assert np.allclose(u, u.untag("f", "b").tag("f", "b"))
    assert not np.array_equal(u, np.arange(3.0).tag("f"))

"""namedarray.testing: numpy.testing's assertions aligned by name, with names
and sizes in the report; the strategies draw what they promise."""
import numpy as onp
import pytest
from hypothesis import given

import namedarray as np
from namedarray.testing import strategies as nst


def test_aligns_by_name():
    u = np.arange(6.0).reshape(2, 3).tag("b", "f")
    np.testing.assert_allclose(u, u.untag("f", "b").tag("f", "b"))
    np.testing.assert_array_equal(u, u.untag("f", "b").tag("f", "b"))
    np.testing.assert_array_equal(np.arange(3), [0, 1, 2])


def test_reports_names_and_sizes():
    u = np.arange(6.0).reshape(2, 3).tag("b", "f")
    with pytest.raises(AssertionError, match=r"assert_allclose: the named axes differ: "
                                             r"\{'b': 2, 'f': 3\} \(actual\) vs "
                                             r"\{'f': 3\} \(desired\)"):
        np.testing.assert_allclose(u, np.zeros(3).tag("f"))
    vals = onp.arange(6.0).reshape(2, 3)
    vals[0, 0] = 100
    v = np.asarray(vals).tag("b", "f")
    with pytest.raises(AssertionError, match=r"(?s)axes: names \('b', 'f'\) \(sizes "
                                             r"\(2, 3\)\) then positional axes.*"
                                             r"Mismatched elements: 1 / 6"):
        np.testing.assert_array_equal(u.untag("f").tag("f"), v)


@given(nst.named_arrays(min_names=1))
def test_strategy_draws_named_arrays(x):
    assert isinstance(x, np.NamedArray) and 1 <= len(x.named_shape)
    assert set(x.named_shape) <= set(nst.NAMES)
    assert onp.dtype(x.dtype) in [onp.dtype(d) for d in nst.DTYPES]
    np.testing.assert_array_equal(x, x)

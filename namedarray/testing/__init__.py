"""``numpy.testing`` for NamedArrays: the assertions align by name.

``assert_allclose``, ``assert_array_equal`` and their relatives take
NamedArrays (and anything NumPy takes).  Named axes are matched by name,
whatever their physical order; a name missing on one side, or the same name
with two sizes, fails with both named shapes.  The values are then compared by
``numpy.testing`` with the names first (sorted) and the positional axes after,
and a mismatch report says so (``names ('b', 'f') then positional axes``).
Hypothesis strategies for named arrays are in ``namedarray.testing.strategies``.

>>> import namedarray as np
>>> u = np.arange(6.0).reshape(2, 3).tag("b", "f")
>>> np.testing.assert_allclose(u, u.untag("f", "b").tag("f", "b"))
>>> np.testing.assert_array_equal(u, np.zeros(3).tag("f"))
Traceback (most recent call last):
    ...
AssertionError: assert_array_equal: the named axes differ: {'b': 2, 'f': 3} (actual) vs {'f': 3} (desired)
"""
from __future__ import annotations

import numpy as onp
import numpy.testing as _nt

from ..core.array import NamedArray

# the rest of numpy.testing works as it is (it reads NamedArrays via __array__)
assert_raises = _nt.assert_raises
assert_raises_regex = _nt.assert_raises_regex
assert_warns = _nt.assert_warns
assert_ = _nt.assert_
assert_string_equal = _nt.assert_string_equal
suppress_warnings = getattr(_nt, "suppress_warnings", None)


def _plain(fn, actual, desired):
    """Both sides as NumPy arrays, names first (sorted) then positional axes,
    and a note for the report; names and sizes must agree."""
    na = actual.named_shape if isinstance(actual, NamedArray) else {}
    nd = desired.named_shape if isinstance(desired, NamedArray) else {}
    if not na and not nd:
        return onp.asarray(actual), onp.asarray(desired), ""
    if na != nd:
        raise AssertionError(f"{fn}: the named axes differ: {na} (actual) vs {nd} "
                             "(desired)")
    names = sorted(na)
    a = onp.asarray(actual.untag(*names))
    d = onp.asarray(desired.untag(*names))
    return a, d, (f"axes: names {tuple(names)} (sizes {tuple(na[n] for n in names)}) "
                  "then positional axes")


def _assertion(name):
    np_fn = getattr(_nt, name)

    def f(actual, desired, *args, err_msg="", **kwargs):
        a, d, note = _plain(name, actual, desired)
        msg = "\n".join(m for m in (err_msg, note) if m)
        return np_fn(a, d, *args, err_msg=msg, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.testing.{name}``; NamedArrays are aligned by name (names "
                 "and sizes must agree).")
    return f


assert_allclose = _assertion("assert_allclose")
assert_array_equal = _assertion("assert_array_equal")
assert_array_almost_equal = _assertion("assert_array_almost_equal")
assert_almost_equal = _assertion("assert_almost_equal")
assert_approx_equal = _nt.assert_approx_equal
assert_array_less = _assertion("assert_array_less")
assert_equal = _assertion("assert_equal")


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    """``numpy.testing.assert_array_max_ulp``, aligned by name."""
    x, y, _ = _plain("assert_array_max_ulp", a, b)
    return _nt.assert_array_max_ulp(x, y, maxulp, dtype)


__all__ = ["assert_allclose", "assert_array_equal", "assert_array_almost_equal",
           "assert_almost_equal", "assert_approx_equal", "assert_array_less",
           "assert_equal", "assert_array_max_ulp", "assert_raises", "assert_raises_regex",
           "assert_warns", "assert_", "assert_string_equal", "suppress_warnings"]

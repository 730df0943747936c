"""Axis arguments of the shape functions given a *name*: the call works by name
where the name has a meaning (``transpose``/``moveaxis`` make it positional,
``size`` gives its size, ``append`` concatenates along it, ``linspace`` puts
the samples on it), else a standard exception names the function, the argument
as written, the array's names and what to do instead."""
from __future__ import annotations

import re

import numpy as onp
import pytest

import namedarray as np

A = onp.arange(24.0).reshape(2, 3, 4)


def named():
    return np.asarray(A).tag("b", None, None)     # "b": 2, positional (3, 4)


@pytest.mark.parametrize("axes", [("b", 0, 1), (1, "b", 0), (-1, -2, "b")])
def test_transpose_with_names_makes_them_positional(axes):
    # the name becomes positional where it is listed: A's axis 0 is "b"
    perm = tuple(0 if a == "b" else (a % 2) + 1 for a in axes)
    want = onp.transpose(A, perm)
    for got in (np.transpose(named(), axes), np.permute_dims(named(), axes),
                named().transpose(*axes), named().transpose(axes)):
        assert got.dims == (None,) * 3
        onp.testing.assert_array_equal(onp.asarray(got), want)


def test_transpose_method_with_a_name_writes_through():
    x = named()
    t = x.transpose(1, "b", 0)
    t[0, 1, 2] = -5.0
    assert x.named_shape == {"b": 2} and x.shape == (3, 4)
    assert float(x.untag("b")[1, 2, 0]) == -5.0


def test_transpose_name_errors():
    x = np.zeros((2, 3)).tag(None, "b")
    with pytest.raises(ValueError, match=re.escape(
            "transpose: axis name 'a' is not an axis of the array, which has named axes "
            "{'b': 3} (positional shape (2,))")):
        np.transpose(x, ("a", "b"))
    with pytest.raises(ValueError, match=re.escape(
            "transpose: axes ('b',) don't match an array with 1 positional dimensions "
            "(shape (2,)) and named axes {'b': 3}: list each positional axis once; a name "
            "listed becomes positional there")):
        np.transpose(x, ("b",))
    with pytest.raises(ValueError, match=re.escape(
            "transpose: repeated axis name in axes=('b', 'b', 0)")):
        np.transpose(x, ("b", "b", 0))


def test_swapaxes_with_a_name_says_what_to_do():
    x = np.zeros((2, 3)).tag("a", "b")
    with pytest.raises(ValueError, match=re.escape(
            "swapaxes: axis2='b' is a named axis, and named axes have no position to swap "
            "(named shape {'a': 2, 'b': 3}, positional shape ()); to make it positional "
            "use np.moveaxis(x, 'b', position) or x.untag('b')")):
        np.swapaxes(x, 0, "b")
    with pytest.raises(ValueError, match=re.escape(
            "swapaxes: axis1 'z' is not an axis of the array, which has named axes "
            "{'a': 2, 'b': 3} (positional shape ())")):
        np.swapaxes(x, "z", 0)
    with pytest.raises(ValueError, match=re.escape(
            "swapaxes: axis2 'b' is not an axis of the array, which has named axes {} "
            "(positional shape (2, 3))")):
        np.swapaxes(np.zeros((2, 3)), 0, "b")


def test_moveaxis_from_a_name():
    got = np.moveaxis(named(), "b", -1)
    onp.testing.assert_array_equal(onp.asarray(got), onp.moveaxis(A, 0, -1))
    x = np.asarray(A).tag("b", None, "c")
    got = np.moveaxis(x, ["c", "b"], [0, -1])
    onp.testing.assert_array_equal(onp.asarray(got), onp.moveaxis(A, [2, 0], [0, -1]))
    with pytest.raises(ValueError, match=re.escape(
            "moveaxis: destination='b' names an axis, but a destination is a position (an "
            "int); the array has named axes {'b': 2} and positional shape (3, 4); to name a "
            "positional axis use x.tag(...)")):
        np.moveaxis(named(), 0, "b")
    with pytest.raises(ValueError, match=re.escape(
            "moveaxis: source 'q' is not an axis of the array, which has named axes {'b': 2} "
            "(positional shape (3, 4))")):
        np.moveaxis(named(), "q", 0)
    with pytest.raises(ValueError, match="moveaxis: repeated axis in `source` argument"):
        np.moveaxis(named(), ["b", "b"], [0, 1])


def test_size_by_name():
    x = named()
    assert np.size(x) == onp.size(A[0]) == 12
    assert np.size(x, "b") == 2 and np.size(x, -1) == 4 and np.size(x, ("b", 0)) == 6
    assert np.size(x, (0, 1)) == onp.size(A[0], (0, 1))
    with pytest.raises(ValueError, match=re.escape(
            "size: axis 'c' is not an axis of the array, which has named axes {'b': 2} "
            "(positional shape (3, 4))")):
        np.size(x, "c")
    with pytest.raises(ValueError, match=re.escape(
            "size: axis 'c' is a name, but the array has no named axes (shape (3,))")):
        np.size(onp.zeros(3), "c")
    with pytest.raises(onp.exceptions.AxisError):
        np.size(x, 2)


def test_append_along_a_name():
    x, y = np.asarray(A).tag("b", None, None), np.asarray(A[:1] + 100).tag("b", None, None)
    got = np.append(x, y, axis="b")
    assert got.named_shape == {"b": 3} and got.shape == (3, 4)
    onp.testing.assert_array_equal(onp.asarray(got.untag("b")),
                                   onp.append(A, A[:1] + 100, axis=0))
    with pytest.raises(ValueError, match="'b'"):
        np.append(x, np.asarray(A), axis="b")


def test_linspace_samples_on_a_named_axis():
    got = np.linspace(np.zeros(2), np.asarray([1.0, 2.0]), 5, axis="t")
    assert got.named_shape == {"t": 5} and got.shape == (2,)
    onp.testing.assert_array_equal(onp.asarray(got.untag("t")),
                                   onp.linspace(onp.zeros(2), [1.0, 2.0], 5, axis=0))
    vals, step = np.linspace(0.0, 1.0, 3, retstep=True, axis="t")
    assert vals.named_shape == {"t": 3} and float(step) == 0.5
    with pytest.raises(ValueError, match=re.escape(
            "linspace: axis='b' would name the new axis of samples, but start and stop "
            "already have an axis 'b' (named shape {'b': 2}); pick another name")):
        np.linspace(np.zeros(2).tag("b"), 1.0, 5, axis="b")


@pytest.mark.parametrize("call", [lambda a: np.delete(a, 0, axis="nonsense"),
                                  lambda a: np.insert(a, 0, 1, axis="nonsense")])
def test_a_name_where_only_positions_are_taken_is_a_type_error(call):
    """NumPy's TypeError for a str axis, with the function and the name."""
    with pytest.raises(TypeError, match=r"^(delete|insert): axis 'nonsense' is a name, but "
                                        r"this argument takes a positional axis \(an int\) only"):
        call(np.arange(3))

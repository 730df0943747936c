"""Shape manipulation against NumPy (values and dtypes), the NumPy error types,
and the named variant: ``f(x)`` maps over the named axes, so
``f(x).untag(*names)`` equals NumPy's ``f`` applied to each named slice."""
import warnings

import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

import namedarray as np
from support import ALL_DTYPES, arrays

SHAPES = [(), (0,), (3,), (2, 3), (1, 3), (2, 0), (2, 1, 3)]


def same(res, exp):
    if isinstance(exp, (list, tuple)):
        assert isinstance(res, type(exp)) or isinstance(res, (list, tuple)), type(res)
        assert type(res) is type(exp), (type(res), type(exp))
        assert len(res) == len(exp)
        for r, e in zip(res, exp):
            same(r, e)
        return
    exp = onp.asarray(exp)
    assert isinstance(res, np.NamedArray) and not res.names
    got = onp.asarray(res)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    onp.testing.assert_array_equal(got, exp)


def per_name(f, arr, k):
    """NumPy's ``f`` on each slice ``arr[idx]`` over the first ``k`` (named) axes."""
    outs = [f(arr[idx]) for idx in onp.ndindex(arr.shape[:k])]
    if not outs:
        return None
    return onp.stack(outs).reshape(arr.shape[:k] + onp.shape(outs[0]))


def named(arr, k, names=("a", "b")):
    """NamedArray whose first ``k`` axes of ``arr`` are named, stored in a shuffled order."""
    dims = tuple(names[:k]) + (None,) * (arr.ndim - k)
    perm = list(range(k))[::-1] + list(range(k, arr.ndim))  # names first, reversed
    return np.NamedArray(onp.transpose(arr, perm), tuple(dims[i] for i in perm))


CASES = {
    "reshape": lambda m, x: m.reshape(x, (-1,)),
    "reshape2": lambda m, x: m.reshape(x, x.shape[::-1]),
    "transpose": lambda m, x: m.transpose(x),
    "moveaxis": lambda m, x: m.moveaxis(x, 0, -1) if x.ndim else x,
    "swapaxes": lambda m, x: m.swapaxes(x, 0, -1) if x.ndim else x,
    "squeeze": lambda m, x: m.squeeze(x),
    "expand_dims": lambda m, x: m.expand_dims(x, (0, -1)),
    "flip": lambda m, x: m.flip(x),
    "flip0": lambda m, x: m.flip(x, 0) if x.ndim else x,
    "roll": lambda m, x: m.roll(x, 2),
    "roll_axis": lambda m, x: m.roll(x, -1, axis=-1) if x.ndim else x,
    "tile": lambda m, x: m.tile(x, (2, 1)),
    "repeat": lambda m, x: m.repeat(x, 2),
    "repeat_axis": lambda m, x: m.repeat(x, 2, axis=0) if x.ndim else x,
    "pad": lambda m, x: m.pad(x, 1),
    "pad_edge": lambda m, x: m.pad(x, [(1, 0)] * x.ndim, mode="edge") if x.size and x.ndim else x,
    "broadcast_to": lambda m, x: m.broadcast_to(x, (2,) + x.shape),
    "ravel": lambda m, x: m.ravel(x),
    "atleast_2d": lambda m, x: m.atleast_2d(x),
    "atleast_3d": lambda m, x: m.atleast_3d(x),
    "rot90": lambda m, x: m.rot90(x) if x.ndim >= 2 else x,
    "diff": lambda m, x: m.diff(x) if x.ndim else x,
    "append": lambda m, x: m.append(x, x),
    "concatenate": lambda m, x: m.concatenate([x, x], axis=0) if x.ndim else x,
    "concatenate_none": lambda m, x: m.concatenate([x, x], axis=None),
    "stack": lambda m, x: m.stack([x, x], axis=-1),
    "hstack": lambda m, x: m.hstack([x, x]),
    "vstack": lambda m, x: m.vstack([x, x]),
    "dstack": lambda m, x: m.dstack([x, x]),
    "column_stack": lambda m, x: m.column_stack([x, x]) if x.ndim else x,
    "insert": lambda m, x: m.insert(x, 0, 1),
    "delete": lambda m, x: m.delete(x, 0) if x.size else x,
    "resize": lambda m, x: m.resize(x, (2, 2)) if x.size else x,
    "trim": lambda m, x: m.tril(x) if x.ndim >= 2 else x,
}


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=8)
@given(data=st.data())
def test_positional(case, data):
    dt = data.draw(st.sampled_from(ALL_DTYPES))
    x = data.draw(arrays(dt, data.draw(st.sampled_from(SHAPES))))
    f = CASES[case]
    same(f(np, np.asarray(x)), f(onp, x))


SPLITS = {
    "split": lambda m, x: m.split(x, 2),
    "split_idx": lambda m, x: m.split(x, [1, 3]),
    "array_split": lambda m, x: m.array_split(x, 3),
    "hsplit": lambda m, x: m.hsplit(x, 2),
    "vsplit": lambda m, x: m.vsplit(x, [1]) if x.ndim >= 2 else m.split(x, [1]),
    "unstack": lambda m, x: m.unstack(x),
    "broadcast_arrays": lambda m, x: m.broadcast_arrays(x, m.ones((2, 1) + x.shape[1:],
                                                                  dtype=m.int8)),
    "meshgrid": lambda m, x: m.meshgrid(x.ravel(), x.ravel()[:2]),
    "meshgrid_ij": lambda m, x: m.meshgrid(x.ravel(), x.ravel()[:1], indexing="ij"),
    "atleast_1d_many": lambda m, x: m.atleast_1d(x, x),
}


@pytest.mark.parametrize("case", sorted(SPLITS))
@settings(max_examples=8)
@given(data=st.data())
def test_multi_output(case, data):
    dt = data.draw(st.sampled_from(ALL_DTYPES))
    x = data.draw(arrays(dt, data.draw(st.sampled_from([(4,), (2, 4), (4, 2, 2)]))))
    f = SPLITS[case]
    same(f(np, np.asarray(x)), f(onp, x))


@settings(max_examples=15)
@given(d1=st.sampled_from(ALL_DTYPES), d2=st.sampled_from(ALL_DTYPES), data=st.data())
def test_join_dtypes_follow_numpy(d1, d2, data):
    x, y = data.draw(arrays(d1, (2,))), data.draw(arrays(d2, (3,)))
    for fn in ("concatenate", "hstack", "append"):
        f = (lambda m: m.concatenate([x if m is onp else np.asarray(x),
                                      y if m is onp else np.asarray(y)])) \
            if fn == "concatenate" else (lambda m, fn=fn: getattr(m, fn)(
                x if m is onp else np.asarray(x), y if m is onp else np.asarray(y))
                if fn == "append" else getattr(m, fn)(
                [x if m is onp else np.asarray(x), y if m is onp else np.asarray(y)]))
        same(f(np), f(onp))
    z = data.draw(arrays(d2, (2,)))
    same(np.stack([np.asarray(x), np.asarray(z)]), onp.stack([x, z]))


def test_lists_are_arrays():
    same(np.concatenate([[1, 2], [3]]), onp.concatenate([[1, 2], [3]]))
    same(np.stack([[1, 2], [3, 4]]), onp.stack([[1, 2], [3, 4]]))
    same(np.tile([1, 2], 2), onp.tile([1, 2], 2))
    same(np.repeat([1, 2], [1, 2]), onp.repeat([1, 2], [1, 2]))
    same(np.pad([1, 2], (1, 2), constant_values=9), onp.pad([1, 2], (1, 2),
                                                          constant_values=9))
    same(np.broadcast_to([1, 2], (3, 2)), onp.broadcast_to([1, 2], (3, 2)))
    same(np.vstack([[1, 2], [3.5, 4]]), onp.vstack([[1, 2], [3.5, 4]]))
    same(np.meshgrid([1, 2], [3.0, 4, 5]), onp.meshgrid([1, 2], [3.0, 4, 5]))


def test_errors():
    a = np.arange(24).reshape(2, 3, 4)
    with pytest.raises(ValueError, match=r"reshape: cannot reshape array of size 24 .* "
                                         r"into shape \(5,\)"):
        a.reshape(5)
    with pytest.raises(ValueError, match=r"reshape: .*into shape \(5, -1\)"):
        np.reshape(a, (5, -1))
    with pytest.raises(ValueError, match=r"transpose: axes \(0,\) don't match"):
        np.transpose(a, (0,))
    with pytest.raises(onp.exceptions.AxisError, match="swapaxes: axis 5 is out of bounds"):
        np.swapaxes(a, 0, 5)
    with pytest.raises(ValueError, match="concatenate: all the input arrays must have "
                                         "same number of dimensions"):   # (NumPy's words)
        np.concatenate([a, np.ones(3)])
    with pytest.raises(ValueError, match="concatenate: .*along dimension 1"):
        np.concatenate([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(ValueError, match="stack: need at least one array"):
        np.stack([])
    with pytest.raises(ValueError, match="stack: all input arrays must have the same shape"):
        np.stack([np.ones(2), np.ones(3)])
    with pytest.raises(ValueError, match="squeeze"):
        np.squeeze(np.ones((1, 2)), axis=1)
    with pytest.raises(ValueError, match="split: array split does not result in an equal"):
        np.split(np.arange(6), 4)


def test_methods():
    x = onp.arange(24, dtype=onp.int16).reshape(2, 3, 4)
    a = np.asarray(x)
    same(a.transpose(1, 0, 2), x.transpose(1, 0, 2))
    same(a.transpose((2, 0, 1)), x.transpose((2, 0, 1)))
    same(a.transpose(), x.transpose())
    same(a.T, x.T)
    same(a.reshape(4, 6), x.reshape(4, 6))
    same(a.reshape((6, -1)), x.reshape((6, -1)))
    same(a.flatten(), x.flatten())
    same(a.ravel(), x.ravel())
    same(a.squeeze(), x.squeeze())
    same(a.swapaxes(0, 2), x.swapaxes(0, 2))
    same(a.repeat(2, axis=1), x.repeat(2, axis=1))


# --------------------------------------------------------------------------
# named variant: f maps over the names
# --------------------------------------------------------------------------
NAMED_OK = ["reshape", "transpose", "moveaxis", "swapaxes", "squeeze", "expand_dims",
            "flip", "flip0", "roll", "roll_axis", "tile", "repeat", "pad", "broadcast_to",
            "ravel", "diff", "concatenate", "stack", "hstack", "vstack", "insert",
            "atleast_2d", "rot90"]


@pytest.mark.parametrize("case", NAMED_OK)
@settings(max_examples=6)
@given(data=st.data())
def test_named_maps_over_names(case, data):
    dt = data.draw(st.sampled_from([onp.int32, onp.float32]))
    k = data.draw(st.integers(1, 2))
    pos = data.draw(st.sampled_from([(3,), (2, 3), (1, 3)]))
    arr = data.draw(arrays(dt, (2, 3)[:k] + pos))
    f = CASES[case]
    x = named(arr, k)
    names = ("a", "b")[:k]
    res = f(np, x)
    assert set(res.names) == set(names)
    same(res.untag(*names), per_name(lambda s: f(onp, s), arr, k))


def test_named_axis_arguments():
    arr = onp.arange(24.0).reshape(2, 3, 4)
    x = np.NamedArray(arr, ("a", None, None))
    # stack along a new name, concatenate along a name, flip/roll along a name
    s = np.stack([x, x], axis="c")
    assert s.named_shape == {"a": 2, "c": 2}
    same(s.untag("c", "a"), onp.stack([arr, arr]))
    c = np.concatenate([x, x], axis="a")
    same(c.untag("a"), onp.concatenate([arr, arr]))
    same(np.flip(x, axis="a").untag("a"), onp.flip(arr, 0))
    same(np.roll(x, 1, axis="a").untag("a"), onp.roll(arr, 1, 0))
    with pytest.raises(ValueError, match=r"concatenate: axis 'a' is not an axis of argument 1"):
        np.concatenate([x, np.ones((3, 4))], axis="a")
    with pytest.raises(ValueError, match="reshape: cannot reshape array of size 12"):
        x.reshape(5)


def _oracle(src, **arrays):
    """``src`` run by NumPy and by namedarray: same dtype, shape and values,
    or the same builtin exception class."""
    vals = []
    for mod in (onp, np):
        env = {"np": mod, **{k: mod.asarray(v) for k, v in arrays.items()}}
        with onp.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                vals.append(eval(src, env))
            except Exception as e:       # noqa: BLE001  (compared below)
                vals.append(e)
    exp, got = vals
    if isinstance(exp, Exception):
        assert isinstance(got, Exception) and isinstance(got, tuple(
            c for c in type(exp).__mro__ if c.__module__ == "builtins")), (src, got)
        return
    assert not isinstance(got, Exception), (src, got)
    for e, g in zip(exp if isinstance(exp, tuple) else (exp,),
                    got if isinstance(got, tuple) else (got,)):
        e, g = onp.asarray(e), onp.asarray(g)
        assert (g.dtype, g.shape) == (e.dtype, e.shape), src
        onp.testing.assert_allclose(g, e, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("src", [
    "np.tril(a, 1)", "np.triu(a)", "np.tril(np.asarray(2))",
    "np.meshgrid(np.asarray(1), np.asarray(2))", "np.meshgrid(a, b)",
    "np.kron(a > 1, a > 0)", "np.kron(a.astype(np.int16), np.asarray(0.5, np.float16))",
    "np.round(a.astype(np.int8) * 5, -1)", "np.round(np.asarray([127, 25], np.int8), -1)",
    "np.round(a > 1)", "np.round(a > 1, 1)", "np.around(a.astype(np.uint8), -1)",
    "np.pad(np.zeros(0), 1, mode='mean')", "np.pad(np.zeros(0), 0, mode='maximum')",
    "np.pad(np.asarray(False), (), mode='constant')",
    "np.clip(a > 1, None, None)", "np.clip(a.astype(np.int8), None, 2**63)",
    "np.clip(a.astype(np.int8), -2**70, 3)", "np.hanning(-1)", "np.kaiser(-2, 5.0)",
    "np.bartlett(0)", "np.ix_(np.asarray([True, False, True]), a)",
])
def test_numpy_shapes_dtypes_and_errors(src):
    """1-d tril broadcasts, meshgrid ravels, bool kron ands, integer round to
    tens wraps as NumPy's float64 steps do, pad of empty axes, clip of bool
    without bounds raises, negative window sizes are empty, ix_ of bools."""
    _oracle(src, a=onp.arange(1, 4), b=onp.ones((2, 2)))


def test_fill_diagonal_wrap_and_place_of_nothing():
    a, x = onp.zeros((7, 3), int), np.zeros((7, 3), int)
    onp.fill_diagonal(a, [1, 2], wrap=True)
    np.fill_diagonal(x, [1, 2], wrap=True)
    onp.testing.assert_array_equal(onp.asarray(x), a)
    with pytest.raises(OverflowError, match="fill_diagonal: Python integer -1 out of bounds"):
        np.fill_diagonal(np.zeros((2, 2), np.uint8), -1)
    y = np.arange(3.0)
    np.place(y, y > 5, [])               # nothing selected: a no-op, as in NumPy
    assert y.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="place: Cannot insert from an empty array"):
        np.place(y, y > 1, [])


def test_python_int_values_and_checks_in_order():
    """NumPy's OverflowError for a Python int the dtype cannot hold (before an
    index error), put into a 0-d array, lexsort's AxisError and empty keys."""
    for f in (lambda: np.put(np.asarray(onp.uint8([1, 2])), [1], -1),
              lambda: np.put_along_axis(np.asarray(onp.uint8([[0]])), np.asarray([[1]]), -1, 0),
              lambda: np.piecewise(np.asarray(onp.uint8([1])), [np.asarray([True])], [0, -1])):
        with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
            f()
    with pytest.raises(IndexError, match="put: cannot replace elements of an empty array"):
        np.put(np.zeros((0, 2)), [0], 1)
    x = np.asarray(False)
    np.put(x, [0], 1)
    assert bool(x) is True
    with pytest.raises(onp.exceptions.AxisError, match="lexsort: axis 1 is out of bounds"):
        np.lexsort(np.asarray([0]), axis=1)
    with pytest.raises(TypeError, match="lexsort: need a sequence of keys"):
        np.lexsort(np.asarray(onp.zeros(0, int)))
    assert np.lexsort([[1, 0], [0, 0]]).tolist() == onp.lexsort([[1, 0], [0, 0]]).tolist()

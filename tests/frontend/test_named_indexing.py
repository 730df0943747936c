"""Named indexing: x[{"seq": slice(0, 16), "head": 0}], index arrays and NamedArray
indices (a gather by name), x.at[{...}].set/add/..., assignment, mixing with
positional indices; against NumPy on the untagged data, and against the physical
run where the indexed names are mapped by nmap (locally and on a mesh)."""
import jax
import numpy as onp
import pytest
from hypothesis import given, strategies as st

import namedarray as np
from support import make_mesh

A = onp.arange(2 * 3 * 16 * 5, dtype=onp.float64).reshape(2, 3, 16, 5)


def xa():
    return np.asarray(A).tag("b", "head", "seq", None)


def numpy_index(a, names, d):
    """The oracle: ``d`` applied to the named axes of ``a`` (laid out ``names`` then
    positional) one axis at a time (an outer index); returns (array, kept names)."""
    names = list(names)
    for name, e in d.items():
        k = names.index(name)
        if isinstance(e, slice):
            a = a[(slice(None),) * k + (e,)]
        elif onp.ndim(e) == 0:
            a = onp.take(a, int(e), axis=k)
            names.pop(k)
        else:
            a = onp.take(a, onp.asarray(e, dtype=onp.intp), axis=k)
    return a, names


@st.composite
def cases(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple))
    k = draw(st.integers(1, len(shape)))
    names = ["a", "b", "c", "d"][:k]
    data = onp.arange(int(onp.prod(shape)), dtype=onp.float64).reshape(shape)
    d = {}
    for n, size in zip(names, shape):
        kind = draw(st.sampled_from(["skip", "int", "slice", "array", "scalar_array"]))
        if kind == "int":
            d[n] = draw(st.integers(-size, size - 1))
        elif kind == "slice":
            lo, hi = draw(st.integers(-size - 1, size + 1)), draw(st.integers(-size - 1, size + 1))
            d[n] = slice(lo, hi, draw(st.sampled_from([None, 1, 2, -1])))
        elif kind == "array":
            d[n] = draw(st.lists(st.integers(-size, size - 1), min_size=0, max_size=4))
        elif kind == "scalar_array":
            d[n] = onp.int64(draw(st.integers(-size, size - 1)))
    # the names in any physical order (positional axes keep theirs)
    perm = draw(st.permutations(range(k))) + list(range(k, len(shape)))
    return data, names, d, perm


@given(cases())
def test_dict_index_matches_numpy(case):
    data, names, d, perm = case
    dims = tuple(names) + (None,) * (data.ndim - len(names))
    x = np.NamedArray(data.transpose(perm), dims=tuple(dims[p] for p in perm))
    want, kept = numpy_index(data, names, d)
    got = x[d]
    assert set(got.names) == set(kept) and got.ndim == data.ndim - len(names)
    onp.testing.assert_array_equal(got.untag(*kept), want)
    # the update writes the same region NumPy's outer index does
    upd = x.at[d].add(1.0)
    ref = data.copy()
    idx = [onp.arange(s) for s in data.shape]
    for n, e in d.items():
        k = names.index(n)
        e = e if isinstance(e, slice) else onp.asarray(e, dtype=onp.intp)
        idx[k] = onp.atleast_1d(idx[k][e])
    onp.add.at(ref, onp.ix_(*idx), 1.0)
    onp.testing.assert_array_equal(upd.untag(*names), ref)


def test_int_removes_slice_keeps_and_positional_mix():
    x = xa()
    y = x[{"seq": slice(0, 8), "head": 0}]
    assert y.named_shape == {"b": 2, "seq": 8} and y.shape == (5,)
    onp.testing.assert_array_equal(y.untag("b", "seq"), A[:, 0, 0:8])
    for key in [({"seq": 2}, slice(1, 3)), (slice(1, 3), {"seq": 2})]:
        z = x[key]
        assert z.named_shape == {"b": 2, "head": 3} and z.shape == (2,)
        onp.testing.assert_array_equal(z.untag("b", "head"), A[:, :, 2, 1:3])
    onp.testing.assert_array_equal(x[{"seq": -1}, 4].untag("b", "head"), A[:, :, -1, 4])


def test_named_index_gathers_by_name():
    x = xa()
    pos = np.asarray(onp.array([[1, 2], [3, 4]])).tag("b", None)   # per batch row
    g = x[{"seq": pos}]
    assert g.named_shape == {"b": 2, "head": 3, "seq": 2} and g.shape == (5,)
    ref = onp.stack([A[0][:, [1, 2]], A[1][:, [3, 4]]])
    onp.testing.assert_array_equal(g.untag("b", "head", "seq"), ref)
    one = x[{"seq": np.asarray(onp.array([7, 9])).tag("b")}]            # removes seq
    assert one.named_shape == {"b": 2, "head": 3}
    onp.testing.assert_array_equal(one.untag("b", "head"), onp.stack([A[0, :, 7], A[1, :, 9]]))
    new = x[{"seq": np.asarray(onp.array([0, 5, 6])).tag("k")}]         # a new name
    assert new.named_shape == {"b": 2, "head": 3, "k": 3}
    onp.testing.assert_array_equal(new.untag("b", "head", "k"), A[:, :, [0, 5, 6]])
    jitted = jax.jit(lambda a, p: a[{"seq": p}])(x, pos)
    onp.testing.assert_array_equal(jitted.untag("b", "head", "seq"), ref)


def test_updates_and_assignment():
    x = xa()
    for op, npop in [("set", lambda r, v: v), ("add", onp.add), ("multiply", onp.multiply),
                     ("min", onp.minimum), ("max", onp.maximum)]:
        got = getattr(x.at[{"seq": slice(0, 4), "head": 1}], op)(50.0)
        ref = A.copy()
        ref[:, 1, 0:4] = npop(ref[:, 1, 0:4], 50.0)
        onp.testing.assert_array_equal(got.untag("b", "head", "seq"), ref)
    onp.testing.assert_array_equal(x.untag("b", "head", "seq"), A)      # x unchanged
    # repeated indices accumulate, as JAX's .at does
    got = x.at[{"seq": [0, 0, 1]}].add(1.0)
    ref = A.copy()
    onp.add.at(ref, (slice(None), slice(None), [0, 0, 1]), 1.0)
    onp.testing.assert_array_equal(got.untag("b", "head", "seq"), ref)
    # a named value is aligned by name; a NamedArray index scatters by name
    v = np.asarray(onp.array([10.0, 20.0])).tag("b")
    got = x.at[{"seq": np.asarray(onp.array([3, 4])).tag("b")}].set(v)
    ref = A.copy()
    ref[0, :, 3], ref[1, :, 4] = 10.0, 20.0
    onp.testing.assert_array_equal(got.untag("b", "head", "seq"), ref)
    onp.testing.assert_array_equal(x.at[{"seq": 2}, 1].get().untag("b", "head"), A[:, :, 2, 1])
    y = xa()
    y[{"seq": 0}] = v
    y[{"head": 2}, 1:3] = -1
    ref = A.copy()
    ref[:, :, 0] = onp.array([10.0, 20.0])[:, None, None]
    ref[:, 2, :, 1:3] = -1
    onp.testing.assert_array_equal(y.untag("b", "head", "seq"), ref)
    s = y[{"head": 1}]       # ints and slices write through, like a basic slice
    s += 1000
    ref[:, 1] += 1000
    onp.testing.assert_array_equal(y.untag("b", "head", "seq"), ref)
    # the positional .at too
    p = np.arange(6.0).reshape(2, 3)
    onp.testing.assert_array_equal(p.at[:, [0, 0]].add(1), onp.array([[2, 1, 2], [5, 4, 5]]))


OPS = {
    "slice_b": lambda v: v[{"b": slice(2, 10)}],
    "int_b": lambda v: v[{"b": 3}],
    "slice_s": lambda v: v[{"s": slice(1, 5)}],
    "gather_s_by_b": lambda v: v[{"s": np.asarray(onp.arange(16) % 8).tag("b")}],
    "array_b": lambda v: v[{"b": [5, 1]}, 1:],
    "at_b": lambda v: v.at[{"b": slice(0, 3)}].add(1.0),
    "at_s_by_b": lambda v: v.at[{"s": np.asarray(onp.arange(16) % 8).tag("b")}].set(-1.0),
    "set_b": lambda v: _assigned(v),
}


def _assigned(v):
    v = v * 1
    v[{"b": 1}] = np.asarray(onp.arange(8.0)).tag("s")
    return v


@pytest.mark.parametrize("op", OPS, ids=list(OPS))
def test_mapped_names_equal_the_physical_run(op):
    B = onp.arange(16 * 3 * 8, dtype=onp.float64).reshape(16, 3, 8)
    x = np.asarray(B).tag("b", None, "s")
    want = OPS[op](x)
    mesh = make_mesh((4,), ("d",))
    for f in [np.nmap(OPS[op], axes=("b",)), np.nmap(OPS[op]),
              np.nmap(OPS[op], mesh=mesh, axis_resources={"b": "d"}),
              np.nmap(OPS[op], mesh=mesh, axis_resources={"s": "d"})]:
        got = f(x)
        assert got.named_shape == want.named_shape and got.shape == want.shape
        onp.testing.assert_array_equal(got.untag(*want.names), want.untag(*want.names))


@pytest.mark.parametrize("key, exc, msg", [
    ({"nope": 0}, IndexError, r"__getitem__: 'nope' is not an axis of the array, which has "
                              r"named axes \{'b': 2, 'head': 3, 'seq': 16\}"),
    ({"seq": 16}, IndexError, r"__getitem__: index 16 is out of bounds for axis 'seq' with "
                              r"size 16"),
    ({"seq": [0, -17]}, IndexError, r"__getitem__: index -17 is out of bounds for axis 'seq'"),
    ({"seq": 1.5}, IndexError, r"__getitem__: the index of axis 'seq' is 1.5; a named index "
                               r"takes an int, a slice"),
    ({"seq": onp.ones((2, 2), int)}, IndexError, r"the index of axis 'seq' has shape "
                                                 r"\(2, 2\); a positional index array has "
                                                 r"at most one axis"),
    ({"seq": onp.array([True, False])}, IndexError, r"the index of axis 'seq' has dtype "
                                                    r"bool"),
    ({0: 1}, TypeError, r"__getitem__: a named index maps axis names to indices; got the "
                        r"key 0"),
    (({"seq": 0}, {"head": 0}), IndexError, r"__getitem__: an index can hold one dict"),
    ({"seq": None}, IndexError, r"the index of axis 'seq' is None"),
])
def test_errors(key, exc, msg):
    with pytest.raises(exc, match=msg):
        xa()[key]


def test_update_errors():
    x = xa()
    with pytest.raises(IndexError, match=r"at\[...\].set: an index has named axes "
                                         r"\{'k': 2\} that the array"):
        x.at[{"seq": np.asarray(onp.array([0, 1])).tag("k")}].set(0.0)
    with pytest.raises(ValueError, match=r"at\[...\].set: the value has named axes "
                                         r"\{'q': 2\} that the indexed region"):
        x.at[{"seq": 0}].set(np.zeros(2).tag("q"))
    with pytest.raises(NotImplementedError, match=r"at\[...\].add with a positional index "
                                                  r"array next to a named index"):
        x.at[{"seq": 0}, [1, 1]].add(1.0)
    with pytest.raises(AttributeError, match=r"at\[...\]: no update 'frobnicate'"):
        x.at[{"seq": 0}].frobnicate(1.0)


@st.composite
def named_index_cases(draw):
    k = draw(st.integers(1, 3))
    names = ["a", "b", "c"][:k]
    npos = draw(st.integers(0, 2))
    shape = draw(st.lists(st.integers(1, 3), min_size=k + npos, max_size=k + npos))
    key = draw(st.sampled_from(names))
    others = draw(st.lists(st.sampled_from([n for n in names if n != key] + ["new"]),
                           unique=True, max_size=2))
    ipos = draw(st.integers(0, 1))
    sizes = dict(zip(names, shape))
    sizes["new"] = 2
    ishape = ([draw(st.integers(0, 3))] if ipos else []) + [sizes[n] for n in others]
    idx = draw(st.lists(st.integers(-sizes[key], sizes[key] - 1), min_size=int(onp.prod(
        ishape)), max_size=int(onp.prod(ishape))))
    perm = draw(st.permutations(range(k)))
    return shape, names, npos, key, others, ipos, onp.asarray(idx, int).reshape(ishape), perm


@given(named_index_cases())
def test_named_index_matches_numpy(case):
    shape, names, npos, key, others, ipos, idx, perm = case
    data = onp.arange(int(onp.prod(shape)), dtype=onp.float64).reshape(shape)
    dims = tuple(names) + (None,) * npos
    x = np.NamedArray(data.transpose(list(perm) + list(range(len(names), len(shape)))),
                      dims=tuple(names[p] for p in perm) + (None,) * npos)
    index = np.NamedArray(idx, dims=(None,) * ipos + tuple(others))
    got = x[{key: index}]
    # the oracle: an open-grid NumPy index over the result's axes, names sorted
    res = sorted((set(names) - ({key} if not ipos else set())) | set(others))
    rank = len(res) + npos
    full = []
    for j, d in enumerate(dims):
        shp = [1] * rank
        if d is None:
            shp[len(res) + j - len(names)] = shape[j]
            full.append(onp.arange(shape[j]).reshape(shp))
        elif d != key:
            shp[res.index(d)] = shape[j]
            full.append(onp.arange(shape[j]).reshape(shp))
        else:
            src = ([key] if ipos else []) + list(others)
            t = onp.transpose(idx, sorted(range(len(src)), key=lambda q: res.index(src[q])))
            for q, n in enumerate(sorted(src, key=res.index)):
                shp[res.index(n)] = t.shape[q]
            full.append(t.reshape(shp))
    want = data[tuple(full)]
    assert set(got.names) == set(res) and got.ndim == npos
    onp.testing.assert_array_equal(got.untag(*res), want)


def test_a_mapped_index_gathers_from_a_whole_array():
    B = onp.arange(16 * 3 * 8, dtype=onp.float64).reshape(16, 3, 8)
    x = np.asarray(B).tag("b", None, "s")
    idx = np.asarray(onp.arange(16) % 8).tag("b")
    want = x[{"s": idx}]
    mesh = make_mesh((4,), ("d",))
    runs = [(np.nmap(lambda i: x[{"s": i}]), (idx,)),
            (np.nmap(lambda v, i: v[{"s": i}]), (x, idx)),
            (np.nmap(lambda v, i: v[{"s": i}], mesh=mesh, axis_resources={"b": "d"}),
             (x, idx))]
    for f, args in runs:
        got = f(*args)
        assert got.named_shape == want.named_shape
        onp.testing.assert_array_equal(got.untag("b"), want.untag("b"))

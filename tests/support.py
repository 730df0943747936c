"""Shared test support over ``namedarray.testing``: Hypothesis strategies
(shapes, 0-size and 0-d included, dtypes, names; values from
``namedarray.testing.strategies.elements``) and the NumPy-oracle assertions
(assert_same, assert_same_named), which compare with
``namedarray.testing.assert_allclose`` / ``assert_array_equal``; and the
placements of names (docs/design.md §2b) that the location-transparency tests run
every named function under."""
from __future__ import annotations

import contextlib
import os

import jax
import numpy as onp
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import namedarray as np
from namedarray import testing as nt
from namedarray.testing import strategies as nst

ALL_DTYPES = [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8,
              onp.float16, onp.float32, onp.float64, onp.complex64, onp.complex128]
NUMERIC = [d for d in ALL_DTYPES if d is not onp.bool_]
FLOATS = [onp.float32, onp.float64]
NAMES = ["a", "b", "c", "batch"]


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def arrays(dtype, shape, small=True):
    """NumPy arrays of ``dtype`` with small finite values (no overflow noise; no
    subnormals, which XLA on CPU flushes), or the whole range (``small=False``)."""
    return hnp.arrays(onp.dtype(dtype), shape, elements=nst.elements(dtype, small))


@st.composite
def named_arrays(draw, dtypes=FLOATS, min_dims=1, max_dims=3, min_side=1, max_side=4):
    """(numpy array, dims) with at least one named dim; physical order arbitrary."""
    shape = draw(shapes(min_dims, max_dims, min_side, max_side))
    dt = draw(st.sampled_from(dtypes))
    data = draw(arrays(dt, shape))
    k = draw(st.integers(1, len(shape)))
    names = draw(st.permutations(NAMES))[:k]
    slots = draw(st.permutations(range(len(shape))))[:k]
    dims = [None] * len(shape)
    for s, n in zip(slots, names):
        dims[s] = n
    return data, tuple(dims)


def assert_same(res, exp, close=False):
    """``res`` equals NumPy's ``exp``: dtype, shape and values (tuples and lists
    element by element; ``close``: floats to a dtype-sized tolerance)."""
    if isinstance(exp, (tuple, list)):
        assert isinstance(res, (tuple, list)) and len(res) == len(exp), (type(res), res)
        assert isinstance(res, list) == isinstance(exp, list), (type(res), type(exp))
        for r, e in zip(res, exp):
            assert_same(r, e, close)
        return
    exp = onp.asarray(exp)
    got = onp.asarray(res)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    if close and exp.dtype.kind in "fc":
        wide = exp.dtype.itemsize > 2
        nt.assert_allclose(got, exp, rtol=1e-6 if wide else 1e-2,
                           atol=1e-12 if wide else 1e-2)
    else:
        nt.assert_array_equal(got, exp)


def assert_same_named(a, b, tol=1e-10):
    """Two NamedArrays hold the same names and sizes, the same dtype and positional
    shape, and, aligned by name, the same values (``namedarray.testing``)."""
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    nt.assert_allclose(a, b, rtol=tol, atol=tol)


# -- placements (docs/design.md §2b) -----------------------------------------------
# Each maps a function of an array named "b" (size 8) and maybe "c" (size 2) to
# the same function run with those names placed elsewhere.
MESH8 = jax.make_mesh((8,), ("d",))
MESH4 = jax.make_mesh((4,), ("d",), devices=jax.devices()[:4])
MESH24 = jax.make_mesh((2, 4), ("x", "y"))


def _nested_local(f):
    return np.nmap(lambda v: np.nmap(f)(v), mesh=MESH4, axis_resources={"b": "d"})


def _nested_mesh(f):
    inner = lambda v: np.nmap(f, mesh=MESH24, axis_resources={"b": "y"})(v)  # noqa: E731
    return np.nmap(inner, axes=["c"], mesh=MESH24, axis_resources={"c": "x"})


def _sharded(f, mesh, res):
    return lambda v: f(np.shard(v, mesh, res))


PLACEMENTS = {
    "physical": lambda f: f,
    "nmap": lambda f: np.nmap(f),
    "nmap-b-only": lambda f: np.nmap(f, axes=["b"]),
    "mesh": lambda f: np.nmap(f, mesh=MESH8, axis_resources={"b": "d"}),
    "split": lambda f: np.nmap(f, mesh=MESH4, axis_resources={"b": "d"}),
    "mesh-2d": lambda f: np.nmap(f, mesh=MESH24, axis_resources={"b": ("x", "y")}),
    "mesh-b-and-c": lambda f: np.nmap(f, mesh=MESH24, axis_resources={"b": "y", "c": "x"}),
    "nmap-in-mesh": _nested_local,
    "mesh-in-mesh": _nested_mesh,
    # explicit sharding: the names partitioned in the data's type, no map
    "explicit": lambda f: _sharded(f, MESH8, {"b": "d"}),
    "set_mesh": lambda f: _sharded(f, MESH24, {"b": "y", "c": "x"}),
}
# the placements that shard without a map (a collective needs one)
UNMAPPED = {"physical", "explicit", "set_mesh"}
SHARDED = {"explicit": (MESH8, {"b": "d"}), "set_mesh": (MESH24, {"b": "y", "c": "x"})}


def context(placement, grad=False):
    """``jax.set_mesh`` for the placement that runs in it; JAX differentiates
    Explicit-mesh data eagerly only inside one, so gradients of both explicit
    placements are taken there."""
    if placement == "set_mesh" or (grad and placement == "explicit"):
        return jax.set_mesh(SHARDED[placement][0])
    return contextlib.nullcontext()


#: CI's profile runs a fixed slice of the slowest tables (each entry compiles
#: its own programs); every other profile (``dev``, ``fuzz``) runs them whole.
IN_CI = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci"


def ci_slice(items, always=(), every=3):
    """``items`` in order, or in CI the ones in ``always`` and every
    ``every``-th of the rest (a fixed choice, the same each run)."""
    items = list(items)
    if not IN_CI:
        return items
    rest = [v for v in items if v not in always]
    return [v for v in items if v in always or rest.index(v) % every == 0]

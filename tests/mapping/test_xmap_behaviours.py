"""The xmap-era behaviours the library promises, pinned: a mapped name stays in
named_shape, all_gather forgets the mapping, ppermute over a split name,
collectives inside control flow, nested maps, several names per collective,
axes= keeping names ordinary, shared mesh axes, and the errors."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray import parallel as P
from support import mesh4, mesh8, mesh24

A = onp.arange(8 * 3 * 2, dtype=onp.float64).reshape(8, 3, 2) / 10.0


def _x():
    return np.asarray(A).tag("b", None, "c")


def test_a_mapped_name_keeps_its_global_size_inside_every_map():
    seen = []

    def f(v):
        seen.append((v.named_shape, v.shape))
        return v
    x = _x()
    np.nmap(f)(x)
    np.nmap(f, mesh=mesh4(), axis_resources={"b": "d"})(x)
    np.nmap(lambda v: np.nmap(f)(v), mesh=mesh4(), axis_resources={"b": "d"})(x)
    np.nmap(f, axes=["c"])(x)
    assert all(s == ({"b": 8, "c": 2}, (3,)) for s in seen), seen


def test_all_gather_forgets_the_mapping():
    x = _x()
    for run in (np.nmap, lambda f: np.nmap(f, mesh=mesh4(), axis_resources={"b": "d"})):
        g = run(lambda v: P.all_gather(v, "b"))(x)
        assert g.named_shape == {"c": 2} and g.shape == (8, 3)
        onp.testing.assert_array_equal(onp.asarray(g.untag("c")),
                                       onp.moveaxis(A, 2, 0))


def test_ppermute_over_a_split_name_and_a_pair_of_names():
    x = _x()
    perm = [(k, (k + 1) % 8) for k in range(8)]
    want = P.ppermute(x, "b", perm)
    for res in ({"b": "d"},):
        got = np.nmap(lambda v: P.ppermute(v, "b", perm), mesh=mesh4(), axis_resources=res)(x)
        onp.testing.assert_array_equal(onp.asarray(got.untag("b", "c")),
                                       onp.asarray(want.untag("b", "c")))
    pair = [(k, (k + 3) % 16) for k in range(16)]
    want = P.ppermute(x, ("b", "c"), pair)
    flat = onp.asarray(x.untag("b", "c")).reshape(16, 3)
    onp.testing.assert_array_equal(onp.asarray(want.untag("b", "c")).reshape(16, 3),
                                   flat[[(k - 3) % 16 for k in range(16)]])
    got = np.nmap(lambda v: P.ppermute(v, ("b", "c"), pair), mesh=mesh24(),
                  axis_resources={"b": "y", "c": "x"})(x)
    onp.testing.assert_array_equal(onp.asarray(got.untag("b", "c")),
                                   onp.asarray(want.untag("b", "c")))


def test_collectives_inside_control_flow_on_a_split_name():
    x = _x()

    def f(v):
        def body(carry, _):
            return carry - carry.mean(axis="b") * 0.5, carry.max(axis=("b", "c"))
        out, maxes = jax.lax.scan(body, v, None, length=3)
        total = jax.lax.fori_loop(0, 2, lambda i, s: s + P.psum(v, "b"), 0 * v.sum("b"))
        return out, maxes, total
    want = f(x)
    for run in (np.nmap, lambda g: np.nmap(g, mesh=mesh4(), axis_resources={"b": "d"})):
        got = run(f)(x)
        for g, w in zip(got, want):
            names = sorted(w.named_shape)
            assert g.named_shape == w.named_shape
            onp.testing.assert_allclose(onp.asarray(g.untag(*names)),
                                        onp.asarray(w.untag(*names)), rtol=1e-12,
                                        atol=1e-12)


def test_axes_keeps_other_names_ordinary():
    x = _x()

    def f(v):
        assert v.names == ("c",)          # "c" is still a whole, physical axis here
        w = v.rename(c="k")[..., :]       # renameable and sliceable like any axis
        return w.untag("k")[:, 1] + v.sum(axis="b").untag("c")[:, 0]
    got = np.nmap(f, axes=["b"])(x)
    onp.testing.assert_allclose(onp.asarray(got.untag("b")),
                                A[:, 1, :] + A.sum(0)[0, :])
    with pytest.raises(ValueError, match=r"nmap: axes names 'q', but no argument has "
                                         r"that axis"):
        np.nmap(f, axes=["q"])(x)


def test_a_fresh_array_carrying_a_bound_name_takes_this_instance_slice():
    x = _x()
    w = np.arange(8.0).tag("b")
    want = x * w
    for run in (np.nmap, lambda g: np.nmap(g, mesh=mesh4(), axis_resources={"b": "d"})):
        got = run(lambda v: v * np.arange(8.0).tag("b"))(x)
        assert got.named_shape == want.named_shape
        onp.testing.assert_array_equal(onp.asarray(got.untag("b", "c")),
                                       onp.asarray(want.untag("b", "c")))
    with pytest.raises(ValueError, match=r"multiply: axis name 'b' has size 5 in an operand "
                                         r"\(named shape \{'b': 5\}\), but the enclosing "
                                         r"nmap binds it with size 8"):
        np.nmap(lambda v: v * np.arange(5.0).tag("b"))(x)


def test_nested_mesh_maps_need_disjoint_mesh_axes():
    x = _x()
    inner = lambda v: np.nmap(lambda u: u.sum(axis="b"), mesh=mesh24(),  # noqa: E731
                              axis_resources={"b": "y"})(v)
    got = np.nmap(inner, axes=["c"], mesh=mesh24(), axis_resources={"c": "x"})(x)
    onp.testing.assert_allclose(onp.asarray(got.untag("c")), A.sum(0).T)
    clash = lambda v: np.nmap(lambda u: u, mesh=mesh24(), axis_resources={"b": "x"})(v)  # noqa
    with pytest.raises(ValueError, match=r"nmap: mesh axes \['x'\] for 'b' already "
                                         r"partition 'c' in an enclosing nmap"):
        np.nmap(clash, axes=["c"], mesh=mesh24(), axis_resources={"c": "x"})(x)


def test_two_names_may_share_a_mesh_axis_one_at_a_time():
    res = {"b": "d", "e": "d"}
    f = lambda v: v.sum(axis=tuple(v.named_shape))  # noqa: E731
    x = np.asarray(A[:, :, 0]).tag("b", None)
    y = np.asarray(A[:4, :, 0]).tag("e", None)
    onp.testing.assert_allclose(onp.asarray(np.nmap(f, mesh=mesh4(), axis_resources=res)(x)),
                                A[:, :, 0].sum(0))
    onp.testing.assert_allclose(onp.asarray(np.nmap(f, mesh=mesh4(), axis_resources=res)(y)),
                                A[:4, :, 0].sum(0))
    with pytest.raises(ValueError, match=r"nmap: mesh axis 'd' would partition both 'b' "
                                         r"and 'e', and this call has both axes"):
        np.nmap(lambda u, v: u, mesh=mesh4(), axis_resources=res)(x, y)


def test_a_mesh_nmap_is_traced_once_per_call_structure():
    traces = []

    def f(v):
        traces.append(1)
        return v.sum(axis="b")
    x = _x()
    for _ in range(3):   # a new nmap object each time, as in a training loop
        np.nmap(f, mesh=mesh4(), axis_resources={"b": "d"})(x)
    assert len(traces) == 2      # one abstract pass for the outputs, one compile


def test_gradients_outside_any_map_match_the_physical_run():
    data = jnp.asarray(A)

    def loss(d, run):
        x = np.NamedArray(d, ("b", None, "c"))
        f = lambda v: -P.psum(v, "b") + P.pmax(v, "c") * P.all_gather(v, "b").sum(0)  # noqa
        out = run(f)(x)
        return out.sum(axis=("c", 0) if out.names else 0).data.sum()
    want = jax.grad(loss)(data, lambda f: f)
    for run in (np.nmap, lambda f: np.nmap(f, mesh=mesh4(), axis_resources={"b": "d"}),
                lambda f: np.nmap(f, mesh=mesh24(), axis_resources={"b": "y", "c": "x"})):
        onp.testing.assert_allclose(jax.grad(loss)(data, run), want, rtol=1e-12)


def test_errors_name_the_function_and_the_axis():
    x = _x()
    with pytest.raises(ValueError, match=r"untag: name 'q' is not an axis of the array, which has named "
                                         r"axes \{'b': 8, 'c': 2\}"):
        x.untag("q")
    with pytest.raises(ValueError, match=r"sum: axis name 'q' is not an axis of the operand"):
        np.nmap(lambda v: v.sum(axis="q"))(x)
    with pytest.raises(ValueError, match=r"nmap: axis name 'b' has size 8 in argument 0 "
                                         r"\(named shape \{'b': 8, 'c': 2\}\) but size 4 in "
                                         r"argument 1"):
        np.nmap(lambda u, v: u)(x, np.zeros(4).tag("b"))
    params = {"w": np.zeros((8, 2)).tag("b", None), "v": [np.zeros(5).tag("b")]}
    with pytest.raises(ValueError, match=r"nmap: axis name 'b' has size 8 in argument 0 "
                                         r"\(named shape \{'b': 8, 'c': 2\}\) but size 5 in "
                                         r"argument 1\['v'\]\[0\]"):
        np.nmap(lambda u, p: u)(x, params)
    with pytest.raises(ValueError, match=r"but size 5 in keyword argument 'p'\['v'\]\[0\]"):
        np.nmap(lambda u, p: u, mesh=mesh4(), axis_resources={"b": "d"})(x, p=params)


LOSSES = {
    "psum": lambda u: -P.psum(u, "b"),
    "psum_squared": lambda u: P.psum(P.psum(u, "b") * u, "b"),
    "logsumexp": lambda u: np.logsumexp(u, axis="b"),
    "pmax": lambda u: P.pmax(u * u, "b"),
    "pmean": lambda u: P.pmean(np.sin(u), "b"),
    "all_gather": lambda u: (P.all_gather(u, "b") ** 2).sum() * u.sum(axis="b"),
    "prod": lambda u: np.prod(u / 4 + 1, axis="b"),
    "softmax_expectation": lambda u: np.sum(
        np.exp(u - np.logsumexp(u, axis="b")) * np.arange(8.0).tag("b"), axis="b"),
}


INSIDE = {
    "nmap": np.nmap,
    "jit(nmap)": lambda g: jax.jit(np.nmap(g)),
    "nmap(jit)": lambda g: np.nmap(jax.jit(g)),
    "mesh": lambda g: np.nmap(g, mesh=mesh8(), axis_resources={"b": "d"}),
    "split mesh": lambda g: np.nmap(g, mesh=mesh4(), axis_resources={"b": "d"}),
    "2-D mesh": lambda g: np.nmap(g, mesh=mesh24(), axis_resources={"b": ("x", "y")}),
    "nmap in mesh": lambda g: np.nmap(lambda v: np.nmap(g)(v), mesh=mesh4(),
                                      axis_resources={"b": "d"}),
}


@pytest.mark.parametrize("place", sorted(INSIDE))
@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_gradients_taken_inside_a_map_match_the_physical_run(loss, place):
    """jax.grad inside the map of a loss a collective made invariant: each
    instance's gradient is its part of the physical gradient (not the number
    of instances times it), under a local nmap (eager, jit outside and jit
    inside), on a mesh, split, over a 2-D mesh and nested."""
    f = lambda u: LOSSES[loss](u).data  # noqa: E731
    data = jnp.asarray(onp.random.default_rng(1).permutation(8) / 3.0 - 1.0)
    want = jax.grad(lambda d: f(np.NamedArray(d, ("b",))))(data)
    got = INSIDE[place](jax.grad(f))(np.NamedArray(data, ("b",)))
    assert got.named_shape == {"b": 8}
    onp.testing.assert_allclose(onp.asarray(got.untag("b")), want, rtol=1e-12,
                                atol=1e-12)


@pytest.mark.parametrize("place", sorted(INSIDE))
def test_gradient_of_a_shared_parameter_inside_a_map_is_the_whole_sum(place):
    """A parameter that does not vary along the mapped name gets the physical
    gradient (the contributions of every instance, summed once)."""
    def f(w, u):
        return P.psum(np.tanh(w["a"] * u) * w["c"], ("b", "k")).data

    w = {"a": np.asarray(0.7), "c": np.asarray([1.0, -2.0, 0.5]).tag("k")}
    data = jnp.asarray(onp.random.default_rng(2).normal(size=8))
    want = jax.grad(f)(w, np.NamedArray(data, ("b",)))
    got = INSIDE[place](lambda u: jax.grad(f)(w, u))(np.NamedArray(data, ("b",)))
    for k in w:
        assert got[k].named_shape == want[k].named_shape
        onp.testing.assert_allclose(onp.asarray(got[k].data), onp.asarray(want[k].data),
                                    rtol=1e-12)


def test_a_raw_output_varying_over_the_mesh_is_refused_not_truncated():
    """An output computed from ``.data`` that differs per device cannot be
    replicated: a clear error, not one device's value."""
    x = np.arange(8.0).tag("b")
    with pytest.raises(ValueError, match=r"nmap: an output of '<lambda>' varies across "
                                         r"the devices of the mesh axes \(\('d',\),\)"):
        np.nmap(lambda u: np.asarray(u.data * 2), mesh=mesh4(),
                axis_resources={"b": "d"})(x)

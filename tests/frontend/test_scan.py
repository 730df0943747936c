"""np.scan / np.fold over a named axis: against the Python loop over the
axis (values, names, gradients), one lax.scan in the jaxpr, under jit and
inside local and mesh maps."""
import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np
from namedarray import nn
from support import make_mesh

L, B, E = 3, 8, 4


def _mesh():
    return make_mesh((4,), ("d",))


_R = onp.random.default_rng(0)
PARAMS = {"w": np.asarray(_R.normal(size=(E, L, E))).tag("in", "layer", "embed"),
          "b": np.asarray(_R.normal(size=(L, E))).tag("layer", "embed")}
X = np.asarray(_R.normal(size=(B, E))).tag("batch", "embed")


def block(h, p):
    # the einsum's output order differs from h's layout: scan gives it back
    z = np.einsum("{batch,in},{in,embed}->{embed,batch}", h.rename(embed="in"), p["w"])
    h = nn.layer_norm(nn.gelu(z + p["b"]) + h, "embed")
    return h, h.mean(axis="embed")


def loop(h, params):
    ys = []
    for i in range(L):
        h, y = block(h, {k: v[{"layer": i}] for k, v in params.items()})
        ys.append(y)
    return h, np.stack([y.untag("batch") for y in ys]).tag("layer", "batch")


def _same(a, b):
    assert a.named_shape == b.named_shape, (a.named_shape, b.named_shape)
    names = sorted(b.named_shape)
    onp.testing.assert_allclose(onp.asarray(a.untag(*names)), onp.asarray(b.untag(*names)),
                                rtol=1e-12, atol=1e-12)


def test_scan_equals_the_loop_and_keeps_the_carry_layout():
    h, ys = np.scan(block, X, PARAMS, axis="layer")
    wh, wys = loop(X, PARAMS)
    _same(h, wh)
    _same(ys, wys)
    assert h.dims == X.dims                       # the carry's layout, not the einsum's
    assert ys.named_shape == {"layer": L, "batch": B}
    _same(np.fold(lambda h, p: block(h, p)[0], X, PARAMS, axis="layer"), wh)
    hr, ysr = np.scan(block, X, PARAMS, axis="layer", reverse=True)
    rev = {k: v[{"layer": slice(None, None, -1)}] for k, v in PARAMS.items()}
    _same(hr, loop(X, rev)[0])


def test_one_scan_in_the_jaxpr_and_jit():
    f = lambda x, p: np.scan(block, x, p, axis="layer")   # noqa: E731
    text = str(jax.make_jaxpr(f)(X, PARAMS))
    assert text.count("scan[") == 1, text
    h, ys = jax.jit(f)(X, PARAMS)
    _same(h, loop(X, PARAMS)[0])


def test_gradients_equal_the_loop():
    loss = lambda p, run: run(X, p)[0].sum(axis=("batch", "embed")) ** 2  # noqa: E731
    g = np.grad(lambda p: loss(p, lambda x, p: np.scan(block, x, p, axis="layer")))(PARAMS)
    want = np.grad(lambda p: loss(p, loop))(PARAMS)
    for k in PARAMS:
        _same(g[k], want[k])


@pytest.mark.parametrize("mesh", [False, True])
def test_inside_a_map(mesh):
    want = loop(X, PARAMS)
    kw = dict(mesh=_mesh(), axis_resources={"batch": "d"}) if mesh else {}
    f = np.nmap(lambda x, p: np.scan(block, x, p, axis="layer"), axes=["batch"], **kw)
    h, ys = jax.jit(f)(X, PARAMS)
    _same(h, want[0])
    _same(ys, want[1])


def test_carry_entering_the_map():
    """A carry made inside a mesh map as a whole axis of a mapped name, updated
    with values mapped along it: the start is cut to the instance's part."""
    def f(x):
        c0 = np.zeros(B).tag("batch")
        return np.fold(lambda c, p: c + (x * p["b"]).sum(axis="embed"), c0, PARAMS,
                       axis="layer")
    want = f(X)
    _same(np.nmap(f, mesh=_mesh(), axis_resources={"batch": "d"})(X), want)


def test_errors():
    with pytest.raises(ValueError, match=r"scan: every leaf of xs must be a NamedArray "
                                         r"with axis 'layer'; xs\['x'\] has \{'batch': 8"):
        np.scan(block, X, {"x": X}, axis="layer")
    with pytest.raises(ValueError, match=r"fold: axis 'layer' has different sizes in xs: "
                                         r"\{\"xs\['a'\]\": 3, \"xs\['b'\]\": 2\}"):
        np.fold(lambda c, p: c, X, {"a": PARAMS["b"], "b": PARAMS["b"][{"layer": slice(2)}]},
                axis="layer")
    with pytest.raises(TypeError, match=r"scan: f must return the carry as it was given; "
                                        r"at carry\['h'\] it was given named shape"):
        np.scan(lambda c, p: ({"h": c["h"].sum(axis="embed")}, None), {"h": X}, PARAMS,
                axis="layer")
    with pytest.raises(ValueError, match="scan: f's output already has axis 'layer'"):
        np.scan(lambda c, p: (c, p["b"].tag() + np.zeros(L).tag("layer")), X, PARAMS,
                axis="layer")
    with pytest.raises(TypeError, match="scan: names must be non-empty str|scan: axis got"):
        np.scan(block, X, PARAMS, axis=0)

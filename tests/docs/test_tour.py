"""``python -m namedarray.tour`` runs with either dtype default, and what it
prints is what NumPy computes (with JAX's defaults, in JAX's dtypes).

On the CPU the tour runs as a user runs it, in its own process; where this
process holds an accelerator (``NAMEDARRAY_TEST_PLATFORM=tpu``), the tour runs
in it (one process can open a TPU)."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as na
from namedarray import tour as _tour


def _parse(stdout: str) -> dict:
    """Map each printed ``>>> expression`` line to the text printed after it."""
    results, key, body = {}, None, []
    for line in stdout.splitlines() + [">>> "]:
        if line.startswith(">>> ") or line.startswith("== ") or not line.strip():
            if key is not None and body:
                results[key] = "\n".join(body)
            key, body = (line[4:], []) if line.startswith(">>> ") else (None, [])
        elif line.startswith("... "):
            key = None  # multi-line statements print nothing
        elif key is not None:
            body.append(line)
    return results


_NS = {"np": onp, "array": onp.array, "dtype": onp.dtype, "int64": onp.int64,
       "int32": onp.int32, "float64": onp.float64, "float32": onp.float32}


def _value(text: str):
    return eval(text, dict(_NS))


def _run_tour(mode: str) -> str:
    if jax.default_backend() == "cpu":
        env = dict(os.environ, NAMEDARRAY_DTYPES=mode)
        proc = subprocess.run([sys.executable, "-m", "namedarray.tour"], capture_output=True,
                              text=True, timeout=300, env=env)
        assert proc.returncode == 0, f"tour failed:\n{proc.stdout}\n{proc.stderr}"
        return proc.stdout
    before, out = na.dtype_defaults(), io.StringIO()
    na.set_dtype_defaults(mode)
    try:
        assert _tour.main(out=out) == 0
    finally:
        na.set_dtype_defaults(before)
    return out.getvalue()


@pytest.fixture(scope="module", params=["numpy", "jax"])
def tour(request):
    """(dtype defaults, printed text, {expression: printed value})."""
    stdout = _run_tour(request.param)
    return request.param, stdout, _parse(stdout)


def _dtype(mode: str, want) -> onp.dtype:
    """The dtype of NumPy's ``want`` under the dtype defaults ``mode``."""
    want = onp.asarray(want)
    if mode == "numpy":
        return want.dtype
    with jax.enable_x64(False):
        return onp.dtype(jax.dtypes.canonicalize_dtype(want.dtype))


def test_tour_runs_every_section(tour):
    _, stdout, _ = tour
    headers = re.findall(r"^== \d+\. (.*) ==$", stdout, flags=re.M)
    assert headers == [s.title for s in _tour.SECTIONS]
    assert "Left out" not in stdout     # 8 devices of one platform: the tour sets the flag
    assert f"dtype defaults {tour[0]!r}" in stdout.splitlines()[0]


def test_tour_results_match_numpy(tour):
    mode, _, res = tour
    a = onp.arange(12).reshape(3, 4)
    x = onp.arange(6.0).reshape(2, 3)           # x.tag("batch", None): batch is axis 0
    u, v = onp.arange(6.0).reshape(2, 3), onp.arange(6.0).reshape(3, 2)
    expected = {
        "a[1:, ::2]": a[1:, ::2],
        "a.T @ a[:, :2]": a.T @ a[:, :2],
        "np.mean(a, axis=0)": onp.mean(a, axis=0),
        "(u + v).untag(\"b\", \"f\")": u + v.T,
        "x.sum(axis=\"batch\")": x.sum(axis=0),
        "np.argmax(x, axis=\"batch\")": onp.argmax(x, axis=0),
        "np.cumsum(x, axis=\"batch\").untag(\"batch\")": onp.cumsum(x, axis=0),
        "x.sum(axis=(\"batch\", 0))": x.sum(),
        "parallel.psum(x, \"batch\")": x.sum(axis=0),
        "parallel.all_gather(x, \"batch\")": x,
        "center(x).untag(\"batch\")": x - x.mean(axis=0),
        "f(x)": (x * x).sum(axis=0),
        "jax.grad(lambda a: (a * a).sum(axis=\"batch\").sum().data)(x).untag(\"batch\")":
            2 * x,
        "np.einsum(\"{batch,k},{k}->{batch}\", w, k).untag(\"batch\")":
            onp.arange(8.0).reshape(2, 4) @ onp.arange(4.0),
        "local": (lambda d: (d - d.mean(0)).max(0))(onp.arange(48.0).reshape(16, 3)),
        "sharded": (lambda d: (d - d.mean(0)).max(0))(onp.arange(48.0).reshape(16, 3)),
    }
    for code, want in expected.items():
        assert code in res, f"the tour no longer prints {code!r}"
        got = _value(res[code])
        onp.testing.assert_allclose(got, want, err_msg=code)
        assert got.shape == onp.shape(want), code
        assert got.dtype == _dtype(mode, want), code


def test_tour_dtypes_and_devices(tour):
    mode, _, res = tour
    assert _value(res["np.dtype_defaults()"]) == mode
    if mode == "numpy":
        want = (onp.arange(3).dtype, onp.ones(2).dtype, onp.arange(3, dtype=onp.int8).sum().dtype,
                (onp.ones(2, dtype=onp.float32) + 1).dtype)
    else:
        with jax.enable_x64(False):
            want = (jnp.arange(3).dtype, jnp.ones(2).dtype,
                    jnp.arange(3, dtype=jnp.int8).sum().dtype,
                    (jnp.ones(2, dtype=jnp.float32) + 1).dtype)
    assert _value(res["np.arange(3).dtype, np.ones(2).dtype"]) == want[:2]
    assert _value(res["np.arange(3, dtype=np.int8).sum().dtype"]) == want[2]
    assert _value(res["(np.ones(2, dtype=np.float32) + 1).dtype"]) == want[3]
    assert _value(res["x.shape, x.named_shape"]) == ((3,), {"batch": 2})
    assert _value(res["x.untag(\"batch\").shape"]) == (2, 3)
    # the mesh: 8 devices of the default backend, else the CPU backend's
    backend = jax.default_backend()
    platform = backend if backend != "cpu" and jax.device_count() >= 8 else "cpu"
    assert _value(res["len(devices), devices[0].platform"]) == (8, platform)
    assert _value(res["jax.default_backend(), jax.device_count()"])[0] == backend


def test_mesh_sections_say_which_devices_or_why_they_are_left_out():
    """Run in this process: the mesh sections take 8 devices of the default
    backend or of the CPU backend, or are left out saying why (one CPU device:
    ``NAMEDARRAY_TEST_PLATFORM=cpu1``)."""
    out, ns = io.StringIO(), {"np": na, "jax": jax}     # what sections 1-9 import
    for i, section in enumerate(_tour.SECTIONS[-2:]):
        _tour.run_section(section, ns, i, out)
    text = out.getvalue()
    flat = " ".join(text.split())       # (the tour wraps its sentences)
    cpu = len(jax.devices("cpu"))
    if max(jax.device_count(), cpu) >= 8:
        assert "Left out" not in text and text.count("True") == 1, text
        where = ("8 of the" if jax.device_count() >= 8 else
                 f"the CPU backend's {cpu} simulated devices")
        assert where in flat, text
    else:
        assert text.count("(Left out: the mesh needs 8 devices of one platform; this "
                          f"machine has {jax.device_count()}") == 2, text
        assert ">>>" not in text, text

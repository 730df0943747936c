"""``python -m namedarray.tour`` runs, and what it prints is what NumPy computes."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as onp
import pytest


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
       "float64": onp.float64, "float32": onp.float32}


def _value(text: str):
    return eval(text, dict(_NS))


@pytest.fixture(scope="module")
def tour():
    env = dict(os.environ)
    env.pop("NAMEDARRAY_DTYPES", None)
    proc = subprocess.run([sys.executable, "-m", "namedarray.tour"], capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0, f"tour failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout, _parse(proc.stdout)


def test_tour_runs_every_section(tour):
    stdout, _ = tour
    from namedarray.tour import SECTIONS
    headers = re.findall(r"^== \d+\. (.*) ==$", stdout, flags=re.M)
    assert headers == [s.title for s in SECTIONS]


def test_tour_results_match_numpy(tour):
    _, res = tour
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
        assert got.dtype == onp.asarray(want).dtype, code


def test_tour_dtypes_and_devices(tour):
    _, res = tour
    assert _value(res["np.dtype_defaults()"]) == "numpy"
    assert _value(res["np.arange(3).dtype, np.ones(2).dtype"]) == (
        onp.arange(3).dtype, onp.ones(2).dtype)
    assert _value(res["np.arange(3, dtype=np.int8).sum().dtype"]) == \
        onp.arange(3, dtype=onp.int8).sum().dtype
    assert _value(res["(np.ones(2, dtype=np.float32) + 1).dtype"]) == \
        (onp.ones(2, dtype=onp.float32) + 1).dtype
    assert _value(res["x.shape, x.named_shape"]) == ((3,), {"batch": 2})
    assert _value(res["x.untag(\"batch\").shape"]) == (2, 3)
    assert _value(res["jax.device_count()"]) == 8

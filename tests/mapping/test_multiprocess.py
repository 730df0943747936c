"""Several processes: 2 processes x 4 CPU devices (gloo collectives) run the same
program over the 8 global devices and get the single-process answer: an nmap
program, and a data-parallel optax training step with the batch sharded over
("hosts", "data")."""
import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as onp
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def free_port():
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    except OSError as e:     # no loopback networking: two processes cannot meet
        pytest.skip(f"cannot open a local port for the coordinator: {e}")


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_two(name):
    """Run ``examples/<name>.py`` as processes 0 and 1 of 2; each one's RESULT."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_PLATFORMS")}
    env["PYTHONPATH"] = os.pathsep.join([str(EXAMPLES.parent)] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    procs = [subprocess.Popen([sys.executable, str(EXAMPLES / f"{name}.py"), str(i), "2",
                               str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env=env) for i in range(2)]
    outs = []
    try:
        for p in procs:
            out, _ = p.communicate(timeout=180)
            outs.append(out)
            assert p.returncode == 0, out[-3000:]
    except subprocess.TimeoutExpired:
        pytest.fail("the two processes did not finish within 180 s")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    results = []
    for pid, out in enumerate(outs):
        line = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
        assert line, out[-3000:]
        got = json.loads(line[-1][len("RESULT "):])
        assert got["devices"] == 8 and got["process"] == pid
        results.append(got)
    return results


def test_two_processes_match_single_process():
    want = load("multiprocess_nmap").local_result()
    for got in run_two("multiprocess_nmap"):
        for g, w in zip(got["values"], want):
            onp.testing.assert_allclose(g, w, rtol=1e-12)


def test_data_parallel_training_over_two_hosts_matches_one_process():
    want_losses, want_params = load("multihost_train").local_result()
    results = run_two("multihost_train")
    for pid, got in enumerate(results):
        # the batch is partitioned over both processes: each holds its own 16 rows
        assert got["batch_type"] == "float64[32@(hosts,data),4]"
        assert got["rows"] == [[16 * pid + 4 * i, 16 * pid + 4 * i + 4] for i in range(4)]
        onp.testing.assert_allclose(got["losses"], want_losses, rtol=1e-12)
        assert got["losses"][-1] < got["losses"][0]
        assert sorted(got["params"]) == sorted(want_params)
        for k, w in want_params.items():
            onp.testing.assert_allclose(got["params"][k], w, rtol=1e-12, atol=1e-15)

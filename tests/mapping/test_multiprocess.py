"""Several processes: 2 processes x 4 CPU devices (gloo collectives) run the same
nmap program over the 8 global devices and get the single-process answer."""
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as onp
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "multiprocess_nmap.py"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_match_single_process():
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import multiprocess_nmap as example
    finally:
        sys.path.pop(0)
    want = example.local_result()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_PLATFORMS")}
    procs = [subprocess.Popen([sys.executable, str(EXAMPLE), str(i), "2", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=env) for i in range(2)]
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
    for pid, out in enumerate(outs):
        line = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
        assert line, out[-3000:]
        got = json.loads(line[-1][len("RESULT "):])
        assert got["devices"] == 8 and got["process"] == pid
        for g, w in zip(got["values"], want):
            onp.testing.assert_allclose(g, w, rtol=1e-12)

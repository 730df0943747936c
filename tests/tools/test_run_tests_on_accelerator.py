"""tools/run_tests_on_accelerator.py on a small project of its own: every
outcome is recorded, a test that aborts the process or hangs is blamed and
the run goes on without it, and so does a file that aborts while collected."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

RUNNER = pathlib.Path(__file__).resolve().parents[2] / "tools" / "run_tests_on_accelerator.py"

FILES = {
    "test_a.py": """
        import pytest
        def test_pass(): pass
        def test_fail(): assert 1 == 2, "one is not two"
        def test_skip(): pytest.skip("not here")
        @pytest.mark.xfail(reason="known")
        def test_xfail(): assert 0
        @pytest.fixture
        def broken(): raise RuntimeError("setup broke")
        def test_error(broken): pass
        """,
    "test_b.py": """
        import os
        def test_before(): pass
        def test_abort(): os.abort()
        def test_after(): pass
        """,
    "test_c.py": """
        import time
        def test_hang(): time.sleep(120)
        def test_after_hang(): pass
        """,
    "test_d.py": """
        raise ImportError("cannot import")
        """,
    "test_e.py": """
        import os
        os.abort()
        def test_never(): pass
        """,
    "test_f.py": """
        def test_last(): pass
        """,
}

WANT = {
    "test_a.py::test_pass": "passed", "test_a.py::test_fail": "failed",
    "test_a.py::test_skip": "skipped", "test_a.py::test_xfail": "skipped",
    "test_a.py::test_error": "errored",
    "test_b.py::test_before": "passed", "test_b.py::test_abort": "crashed",
    "test_b.py::test_after": "passed",
    "test_c.py::test_hang": "hung", "test_c.py::test_after_hang": "passed",
    "test_d.py": "errored", "test_e.py": "crashed", "test_f.py::test_last": "passed",
}


def _run(tmp_path, *extra):
    return subprocess.run(
        [sys.executable, str(RUNNER), "--log", "log.jsonl", "--hang", "6", "--grace", "1",
         *extra, "--", "-p", "no:cacheprovider", "-q"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240)


def _done(tmp_path) -> dict:
    recs = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    return {r["nodeid"]: r for r in recs if r["event"] == "done"}


def test_every_outcome_is_recorded_and_crashes_and_hangs_are_survived(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for name, text in FILES.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip())
    proc = _run(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    done = _done(tmp_path)
    assert {n: r["outcome"] for n, r in done.items()} == WANT
    assert done["test_a.py::test_fail"]["message"].startswith("AssertionError: one is not two")
    assert done["test_a.py::test_skip"]["message"] == "Skipped: not here"
    assert done["test_a.py::test_xfail"]["message"] == "xfail: known"
    assert done["test_a.py::test_error"]["when"] == "setup"
    # the culprits: what pytest's faulthandler printed says where they were
    assert "test_b.py\", line 3 in test_abort" in done["test_b.py::test_abort"]["message"]
    assert done["test_c.py::test_hang"]["message"].startswith("no progress for 6 s")
    assert "test_c.py\", line 2 in test_hang" in done["test_c.py::test_hang"]["message"]
    assert done["test_e.py"]["when"] == "collect"
    # one restart per culprit, each without what was finished before it
    assert [ln.split(":")[0] for ln in proc.stdout.splitlines()
            if ln.startswith("attempt")] == ["attempt 1", "attempt 2", "attempt 3", "attempt 4"]
    assert sorted({r["attempt"] for r in done.values()}) == [1, 2, 3, 4]
    # the summary: counts per file, then the culprits
    lines = proc.stdout.splitlines()
    table = {ln.split()[0]: [int(v) for v in ln.split()[1:]] for ln in lines
             if ln.split() and ln.split()[0] in (*FILES, "total")}
    assert table["test_a.py"] == [1, 1, 2, 1, 0, 0]
    assert table["test_b.py"] == [2, 0, 0, 0, 1, 0]
    assert table["test_c.py"] == [1, 0, 0, 0, 0, 1]
    assert table["test_e.py"] == [0, 0, 0, 0, 1, 0]
    assert table["total"] == [5, 1, 2, 2, 2, 1]
    culprits = lines[lines.index("culprits:") + 1:]
    assert [c.split()[:2] for c in culprits] == [
        ["crashed", "test_e.py"], ["crashed", "test_b.py::test_abort"],
        ["hung", "test_c.py::test_hang"]]

    # --resume: the finished tests and the culprits are not run again
    (tmp_path / "test_g.py").write_text("def test_new(): pass\n")
    proc = _run(tmp_path, "--resume")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    done = _done(tmp_path)
    assert {n: r["outcome"] for n, r in done.items()} == {**WANT, "test_g.py::test_new": "passed"}
    assert done["test_g.py::test_new"]["attempt"] == 5
    assert done["test_b.py::test_after"]["attempt"] == 3


def test_stopping_the_runner_stops_its_pytest(tmp_path):
    """``timeout`` sends the runner SIGTERM: its pytest (in a session of its
    own) must stop too, or it would keep holding the accelerator."""
    import os
    import signal
    import time
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_slow.py").write_text(
        "import os, time\n"
        "def test_one(): pass\n"
        "def test_slow():\n"
        "    open('pid', 'w').write(str(os.getpid()))\n"
        "    time.sleep(120)\n")
    proc = subprocess.Popen(
        [sys.executable, str(RUNNER), "--log", "log.jsonl", "--hang", "60", "--",
         "-p", "no:cacheprovider", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    pid_file = tmp_path / "pid"
    for _ in range(600):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.1)
    pid = int(pid_file.read_text())
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, out
    assert "stopped from outside; the tests done so far:" in out
    for _ in range(100):            # (the kill is delivered; the process is reaped)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"pytest (pid {pid}) outlived its runner")

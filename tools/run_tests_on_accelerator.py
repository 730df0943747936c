"""Run pytest in one process that survives crashes and hangs, recording each
test's outcome as it goes.

One process holds an accelerator (a TPU opens in one process at a time, and
opening it costs seconds), so the whole run is one pytest process; where a
test aborts that process (a crash in XLA) or makes no progress for
``--hang`` seconds, the runner records the test as ``crashed`` or ``hung``
and starts pytest again with the finished tests and the culprit deselected.
At the end it prints the counts per file (passed, failed, skipped, errored,
crashed, hung) and the culprits.

    NAMEDARRAY_TEST_PLATFORM=tpu python tools/run_tests_on_accelerator.py \\
        --log tpu.jsonl -- tests/core tests/frontend/test_linalg.py -p no:cacheprovider

Everything after the runner's options (or after ``--``) goes to pytest.
``--resume`` keeps the tests a log already has and runs the rest.

The log has one JSON object per line, written as things happen:

- ``{"event": "collect", "nodeid": file}``: pytest starts collecting a file;
  ``{"event": "collected", "nodeid": file}`` when it has;
- ``{"event": "start", "nodeid": test}``: a test starts;
- ``{"event": "done", "nodeid": ..., "file": ..., "outcome": ..., "when": ...,
  "message": ..., "duration": ..., "attempt": ...}``: a test (or a file that
  did not collect) finished; the outcome is one of passed, failed, skipped
  (xfail included), errored (setup, teardown or collection), crashed, hung.
  The runner writes the crashed and hung ones, with the tail of pytest's
  output (a crash's faulthandler traceback; a hung process gets SIGABRT first,
  so its traceback shows where it waited).

pytest's own output of each attempt goes to ``<log>.attempt<N>.txt``.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import time

import pytest

OUTCOMES = ("passed", "failed", "skipped", "errored", "crashed", "hung")
TAIL_LINES = 40


# -- inside pytest: the recorder ---------------------------------------------
def _message(report) -> str:
    """A short reason: the skip reason, or the failure's last line."""
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    if getattr(report, "wasxfail", None) is not None and report.skipped:
        return f"xfail: {report.wasxfail}"
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    text = report.longreprtext.strip()
    return text.splitlines()[-1] if text else ""


class Recorder:
    """A pytest plugin: appends the events to the log (flushed after each, so
    an abort loses nothing written) and deselects the tests in ``skip``."""

    def __init__(self, log: str, skip: set[str], attempt: int):
        self.file = open(log, "a", encoding="utf-8")
        self.skip = skip
        self.attempt = attempt
        self.reports: dict[str, list] = {}
        self.files: set[str] = set()

    def _write(self, **record):
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()

    def pytest_collectstart(self, collector):
        if isinstance(collector, pytest.File):
            self.files.add(collector.nodeid)
            self._write(event="collect", nodeid=collector.nodeid)

    def pytest_collectreport(self, report):
        if report.failed:
            self._write(event="done", nodeid=report.nodeid, file=report.nodeid.split("::")[0],
                        outcome="errored", when="collect", message=_message(report),
                        duration=0.0, attempt=self.attempt)
        elif report.nodeid in self.files:
            self._write(event="collected", nodeid=report.nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        gone = [it for it in items if it.nodeid in self.skip]
        if gone:
            config.hook.pytest_deselected(items=gone)
            items[:] = [it for it in items if it.nodeid not in self.skip]

    def pytest_runtest_logstart(self, nodeid, location):
        self.reports[nodeid] = []
        self._write(event="start", nodeid=nodeid)

    def pytest_runtest_logreport(self, report):
        self.reports.setdefault(report.nodeid, []).append(report)

    def pytest_runtest_logfinish(self, nodeid, location):
        reports = self.reports.pop(nodeid, [])
        failed = [r for r in reports if r.failed]
        skipped = [r for r in reports if r.skipped]
        if failed:
            first = next((r for r in failed if r.when == "call"), failed[0])
            outcome = "failed" if first.when == "call" else "errored"
        elif skipped:
            first, outcome = skipped[0], "skipped"
        else:
            first = next((r for r in reports if r.when == "call"), None)
            outcome = "passed"
        self._write(event="done", nodeid=nodeid, file=nodeid.split("::")[0], outcome=outcome,
                    when=first.when if first is not None else "",
                    message=_message(first) if first is not None and outcome != "passed"
                    else "",
                    duration=round(sum(r.duration for r in reports), 3),
                    attempt=self.attempt)

    def pytest_sessionfinish(self, session, exitstatus):
        self._write(event="finish", nodeid="", exitstatus=int(exitstatus))

    def pytest_unconfigure(self, config):
        self.file.close()


def child(log: str, skipfile: str, attempt: int, args: list[str]) -> int:
    with open(skipfile, encoding="utf-8") as f:
        skip = {line.rstrip("\n") for line in f if line.strip()}
    return int(pytest.main(args, plugins=[Recorder(log, skip, attempt)]))


# -- outside: the runner -----------------------------------------------------
class Log:
    """What the log says so far: the finished records, and what was begun
    and not finished (the culprit of a crash or a hang)."""

    def __init__(self, path: str):
        self.path = path
        self.offset = 0
        self.done: dict[str, dict] = {}
        self.running: str | None = None       # a test started, not finished
        self.collecting: str | None = None    # a file being collected
        self.finished: int | None = None      # pytest's exit status, once it said it

    def read(self) -> None:
        with open(self.path, encoding="utf-8") as f:
            f.seek(self.offset)
            while True:
                line = f.readline()
                if not line.endswith("\n"):   # nothing, or a line cut by a crash
                    break
                self.offset = f.tell()
                self._take(json.loads(line))

    def _take(self, rec: dict) -> None:
        event, nodeid = rec["event"], rec["nodeid"]
        if event == "finish":
            self.finished = rec["exitstatus"]
        elif event == "collect":
            self.collecting = nodeid
        elif event == "collected":
            self.collecting = None
        elif event == "start":
            self.running = nodeid
        elif event == "done":
            self.done[nodeid] = rec
            if nodeid == self.running:
                self.running = None
            if nodeid == self.collecting:
                self.collecting = None

    def append(self, **rec) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        self.read()


def _tail(path: str, n: int = TAIL_LINES) -> str:
    """The end of pytest's output; after a crash, the lines around Python's
    ``Fatal Python error`` (what XLA printed before it, the innermost frames)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    fatal = [i for i, line in enumerate(lines) if "Fatal Python error" in line]
    if fatal:
        lines = lines[max(0, fatal[-1] - n // 2):fatal[-1] + n // 2]
    return "\n".join(lines[-n:])


def _stop(proc: subprocess.Popen, grace: float) -> None:
    """SIGABRT (pytest's faulthandler prints every thread's traceback), then
    SIGKILL to the process group (the test's own subprocesses too)."""
    try:
        proc.send_signal(signal.SIGABRT)
        proc.wait(grace)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _attempt(log: Log, args, attempt: int, ignored: list[str]) -> tuple[int, bool, str]:
    """One pytest process; (exit status, hung, its output file)."""
    skipfile = f"{log.path}.skip"
    with open(skipfile, "w", encoding="utf-8") as f:
        f.writelines(n + "\n" for n in log.done if "::" in n)
    out = f"{log.path}.attempt{attempt}.txt"
    cmd = [sys.executable, os.path.abspath(__file__), "--child", log.path, skipfile,
           str(attempt), "--", "--continue-on-collection-errors", *args.pytest_args,
           *(f"--ignore={p}" for p in ignored)]
    with open(out, "w", encoding="utf-8") as f:
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT,
                                start_new_session=True)
    last, size, beat, hung = time.monotonic(), -1, time.monotonic(), False
    try:
        while proc.poll() is None:
            time.sleep(args.poll)
            now = time.monotonic()
            cur = os.path.getsize(log.path)
            if cur != size:
                size, last = cur, now
            if now - last > args.hang:
                hung = True
                _stop(proc, args.grace)
                break
            if now - beat >= args.heartbeat:
                beat = now
                log.read()
                print(f"  ... {_totals(log.done)}", flush=True)
    except BaseException:   # this runner stopped (SIGTERM, ^C): its pytest stops too,
        try:                # or it would hold the accelerator after we are gone
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        raise
    return proc.wait(), hung, out


def run(args) -> int:
    if not args.resume or not os.path.exists(args.log):
        open(args.log, "w").close()
    log = Log(args.log)
    log.read()
    ignored = [n for n, r in log.done.items()        # files that crashed collecting
               if r["when"] == "collect" and r["outcome"] in ("crashed", "hung")]
    first = max((r["attempt"] for r in log.done.values()), default=0) + 1
    # a SIGTERM (``timeout``) unwinds: the child is stopped and the counts printed
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        return _attempts(args, log, ignored, first)
    except (SystemExit, KeyboardInterrupt):
        log.read()
        print("stopped from outside; the tests done so far:", flush=True)
        report(log.done)
        raise


def _attempts(args, log, ignored, first) -> int:
    status = 0
    for attempt in range(first, first + args.max_restarts + 1):
        print(f"attempt {attempt}: pytest {' '.join(args.pytest_args)} "
              f"({len(log.done)} done before)", flush=True)
        log.running = log.collecting = log.finished = None
        rc, hung, out = _attempt(log, args, attempt, ignored)
        log.read()
        outcome = "hung" if hung else "crashed"
        why = f"no progress for {args.hang:g} s" if hung else f"exit status {rc}"
        if log.finished is not None:           # pytest finished its run
            if hung or rc != log.finished:
                print(f"pytest finished (exit status {log.finished}), then its process "
                      f"stopped with {why}", flush=True)
            if log.finished not in (0, 1, 5):  # 2 interrupted, 3 internal error, 4 usage
                print(_tail(out), flush=True)
                status = 3
            break
        culprit = log.running or log.collecting
        if culprit is None:
            print(f"pytest stopped ({why}) outside any test; its output, {out}:\n"
                  f"{_tail(out)}", flush=True)
            status = 3
            break
        when = "collect" if log.running is None else "run"
        if when == "collect":
            ignored.append(culprit)
        log.append(event="done", nodeid=culprit, file=culprit.split("::")[0],
                   outcome=outcome, when=when, message=f"{why}\n{_tail(out)}",
                   duration=0.0, attempt=attempt)
        print(f"  {outcome}: {culprit} ({why}); restarting without it", flush=True)
    else:
        print(f"stopped after {args.max_restarts} restarts", flush=True)
        status = 3
    report(log.done)
    return status or int(any(r["outcome"] not in ("passed", "skipped")
                             for r in log.done.values()))


def _totals(done: dict) -> str:
    count = collections.Counter(r["outcome"] for r in done.values())
    return ", ".join(f"{count[o]} {o}" for o in OUTCOMES)


def report(done: dict, out=sys.stdout) -> None:
    """Counts per file, the totals, then each crashed or hung test."""
    files: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for rec in done.values():
        files[rec["file"]][rec["outcome"]] += 1
    width = max([len(f) for f in files] + [5])
    print(f"\n{'file':<{width}} " + " ".join(f"{o:>8}" for o in OUTCOMES), file=out)
    for name in sorted(files):
        print(f"{name:<{width}} " + " ".join(f"{files[name][o]:>8}" for o in OUTCOMES),
              file=out)
    total = collections.Counter(r["outcome"] for r in done.values())
    print(f"{'total':<{width}} " + " ".join(f"{total[o]:>8}" for o in OUTCOMES), file=out)
    bad = [r for r in done.values() if r["outcome"] in ("crashed", "hung")]
    if bad:
        print("\nculprits:", file=out)
        for r in bad:
            first = r["message"].splitlines()[0] if r["message"] else ""
            print(f"  {r['outcome']:>7}  {r['nodeid']}  ({first}; attempt {r['attempt']})",
                  file=out)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        log, skipfile, attempt, sep, *rest = argv[1:]
        assert sep == "--", argv
        return child(log, skipfile, int(attempt), rest)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--log", default="test-outcomes.jsonl", help="the JSON-lines log")
    p.add_argument("--hang", type=float, default=600.0,
                   help="seconds without progress after which the running test is hung")
    p.add_argument("--grace", type=float, default=10.0,
                   help="seconds a hung process has to print its tracebacks")
    p.add_argument("--max-restarts", type=int, default=50)
    p.add_argument("--resume", action="store_true",
                   help="keep the tests the log has and run the others")
    p.add_argument("--heartbeat", type=float, default=60.0,
                   help="seconds between progress lines")
    p.add_argument("--poll", type=float, default=0.5, help=argparse.SUPPRESS)
    p.add_argument("pytest_args", nargs=argparse.REMAINDER,
                   help="pytest's arguments (paths, options), after --")
    args = p.parse_args(argv)
    if args.pytest_args[:1] == ["--"]:
        args.pytest_args = args.pytest_args[1:]
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

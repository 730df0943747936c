"""The type stubs: current with the runtime declarations, equal to the runtime
(mypy's stubtest), and usable (mypy checks a user-style program, sample.py).

mypy runs in a subprocess against a copy of the stubs alone (so it never reads
the package's sources), with its cache in a temporary directory.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PACKAGE = ROOT / "namedarray"


def _stubgen():
    spec = importlib.util.spec_from_file_location("stubgen", ROOT / "tools" / "stubgen.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def stub_path(tmp_path_factory):
    """A directory holding only the stubs (and py.typed) of the package."""
    d = tmp_path_factory.mktemp("stubs")
    for f in [*PACKAGE.rglob("*.pyi"), PACKAGE / "py.typed"]:
        dest = d / "namedarray" / f.relative_to(PACKAGE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dest)
    (d / "mypy.ini").write_text("[mypy]\n")
    return d


def _mypy(stub_path, *args, timeout=300):
    """``python -m <args>`` run in an empty directory (the runtime package is
    the installed one), with only the stubs on mypy's path."""
    env = {**os.environ, "MYPYPATH": str(stub_path)}
    cwd = stub_path.parent / "run"
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", *args, "--mypy-config-file" if args[0] == "mypy.stubtest"
         else "--config-file", str(stub_path / "mypy.ini")],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)


def test_stubs_are_generated_from_the_runtime():
    """Regenerating gives the committed stubs byte for byte
    (fix: ``python tools/stubgen.py``)."""
    gen = _stubgen()
    stale = [str(p.relative_to(ROOT)) for p, text in gen.stubs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"stale stubs, run `python tools/stubgen.py`: {stale}"
    assert (PACKAGE / "py.typed").exists()


def test_every_public_name_is_stubbed():
    """``namedarray`` has no ``__all__`` (stubtest then checks only the names it
    defines itself): every public name of it is in its stub, internal
    submodules aside."""
    import namedarray
    gen = _stubgen()
    text = (PACKAGE / "__init__.pyi").read_text()
    declared = set(re.findall(r"^(?:def |class |from \S+ import \w+ as )?(\w+)", text, re.M))
    internal = {n for n in gen.public_names(namedarray)
                if isinstance(getattr(namedarray, n), types.ModuleType)
                and gen.MODULES.get(getattr(namedarray, n).__name__, ("", "package"))[1]
                == "package"}
    assert "linalg" not in internal and "core" in internal
    missing = set(gen.public_names(namedarray)) - declared - internal
    assert not missing


def test_stubtest(stub_path, tmp_path):
    """The stubs name exactly the runtime's public names, with its signatures."""
    r = _mypy(stub_path, "mypy.stubtest", "namedarray", "--concise",
              "--allowlist", str(HERE / "stubtest_allowlist.txt"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_sample_program_type_checks(stub_path, tmp_path):
    """mypy --strict reports exactly the lines of sample.py marked ``# E:``."""
    r = _mypy(stub_path, "mypy", "--strict", "--no-error-summary",
              "--cache-dir", str(tmp_path / "cache"), str(HERE / "sample.py"))
    lines = (HERE / "sample.py").read_text().splitlines()
    expected = {i + 1 for i, line in enumerate(lines) if "# E:" in line}
    errors = [e for e in r.stdout.splitlines() if ": error:" in e]
    where = {int(m.group(1)) for e in errors
             if (m := re.match(r".*sample\.py:(\d+): error:", e))}
    assert len(errors) == len(where) and where == expected, r.stdout + r.stderr


def test_sample_program_runs():
    spec = importlib.util.spec_from_file_location("typing_sample", HERE / "sample.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main()

"""Cheap checks of the documentation sources, without Sphinx.

The full build (``python -m sphinx -W --keep-going -b html docs
docs/_build/html``, which executes every notebook) runs in ``.ci/run``.
Here: the pages exist and are in the toctree, each notebook has a MyST
notebook header and code cells that compile, the configuration executes
notebooks and fails on errors, and what the pages reference (API names,
example files and functions) exists.
"""
from __future__ import annotations

import ast
import pathlib
import re
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NOTEBOOKS = ["tutorials/numpy_unchanged.md", "tutorials/named_axes.md",
             "tutorials/scaling_out.md", "tutorials/training_transformer.md",
             "performance.md"]
PAGES = ["index.md", "api.rst", *NOTEBOOKS]

_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _front_matter(text: str) -> str:
    assert text.startswith("---\n"), "no front matter"
    end = text.index("\n---\n", 4)
    return text[4:end]


def code_cells(text: str) -> list[str]:
    """The source of each ``{code-cell}``, without its options (a ``---`` YAML
    block or ``:key: value`` lines at the top)."""
    cells = []
    for body in _CELL.findall(text):
        if body.startswith("---\n"):
            body = body[body.index("\n---\n", 4) + 5:]
        lines = body.splitlines()
        while lines and lines[0].startswith(":"):
            lines.pop(0)
        cells.append("\n".join(lines))
    return cells


def test_pages_exist():
    for page in PAGES + ["conf.py"]:
        assert (DOCS / page).is_file(), page


def test_every_page_is_in_a_toctree():
    index = (DOCS / "index.md").read_text()
    entries = set()
    for block in re.findall(r"```\{toctree\}\n(.*?)```", index, re.S):
        entries |= {ln.strip() for ln in block.splitlines()
                    if ln.strip() and not ln.strip().startswith(":")}
    for page in PAGES[1:]:
        assert page.rsplit(".", 1)[0] in entries, page
    for entry in entries:
        assert any((DOCS / (entry + ext)).is_file() for ext in (".md", ".rst")), entry


@pytest.mark.parametrize("page", NOTEBOOKS)
def test_notebook_header(page):
    header = _front_matter((DOCS / page).read_text())
    assert re.search(r"^jupytext:\s*$", header, re.M), "not a jupytext notebook"
    assert re.search(r"^\s+format_name: myst\s*$", header, re.M)
    assert re.search(r"^kernelspec:\s*$", header, re.M)
    assert re.search(r"^\s+name: python3\s*$", header, re.M)
    assert re.search(r"^\s+language: python\s*$", header, re.M)


@pytest.mark.parametrize("page", NOTEBOOKS)
def test_notebook_cells_compile(page):
    cells = code_cells((DOCS / page).read_text())
    assert len(cells) >= 2, "a notebook with (almost) no code"
    for i, src in enumerate(cells):
        compile(src, f"{page}:cell{i}", "exec")


def test_scaling_out_sets_device_count_before_jax():
    first = code_cells((DOCS / "tutorials/scaling_out.md").read_text())[0]
    flag = first.index("--xla_force_host_platform_device_count=8")
    assert "XLA_FLAGS" in first
    assert flag < first.index("import jax")


def _conf_assignments() -> dict:
    tree = ast.parse((DOCS / "conf.py").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


def test_conf_executes_notebooks_and_fails_on_errors():
    conf = _conf_assignments()
    assert "myst_nb" in conf["extensions"]
    assert conf["nb_execution_mode"] in ("force", "auto")
    assert conf["nb_execution_raise_on_error"] is True
    assert conf["nb_execution_timeout"] > 0


def test_api_reference_names_exist():
    import namedarray
    text = (DOCS / "api.rst").read_text()
    module = "namedarray"
    found = 0
    for line in text.splitlines():
        m = re.match(r"\s*\.\. (currentmodule|automodule|autofunction|autoclass)::\s*(\S+)",
                     line)
        if not m:
            continue
        kind, name = m.groups()
        if kind == "currentmodule":
            module = name
            continue
        if kind == "automodule":
            __import__(name)
            module = name
            continue
        obj = namedarray
        for part in (module + "." + name).split(".")[1:]:
            obj = getattr(obj, part)
        assert callable(obj), name
        found += 1
    assert found >= 10


def test_literalinclude_targets_exist():
    for page in NOTEBOOKS:
        text = (DOCS / page).read_text()
        for path, opts in re.findall(r"```\{literalinclude\} (\S+)\n((?::.*\n)*)", text):
            target = ((DOCS / page).parent / path).resolve()
            assert target.is_file(), (page, path)
            for obj in re.findall(r":pyobject: (\S+)", opts):
                names = {n.name for n in ast.parse(target.read_text()).body
                         if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
                assert obj in names, (page, path, obj)


def test_docs_extra_declared():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["docs"]
    names = {re.split(r"[<>=!~ ;\[]", req, maxsplit=1)[0].lower() for req in extras}
    assert {"sphinx", "myst-nb", "matplotlib", "ipykernel"} <= names

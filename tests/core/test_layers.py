"""The folders of the package are its layers (docs/design.md §3): every import of
the package's own modules -- at module level or inside a function, relative ones
resolved -- points to the same layer or one below, and the import graph has no
cycle."""
import ast
import pathlib

import pytest

PKG = pathlib.Path(__file__).resolve().parents[2] / "namedarray"

# bottom to top; a module may import its own layer or the ones below it
LAYERS = [
    ("core", ["namedarray.core"]),
    ("placement", ["namedarray.placement"]),
    ("parallel", ["namedarray.parallel"]),
    # NumPy's API: the engines and declarations of frontend/ at the bottom, the
    # families over them, the namespace that binds them all at the top
    ("frontend", ["namedarray.frontend"]),
    ("families", ["namedarray.reductions", "namedarray.einsum", "namedarray.linalg",
                  "namedarray.fft", "namedarray.random"]),
    ("namespace", ["namedarray.namespace", "namedarray.docstrings", "namedarray.nn",
                   "namedarray._array_api", "namedarray.lib", "namedarray.typing"]),
    ("mapping", ["namedarray.mapping"]),
    ("top", ["namedarray", "namedarray.tour"]),
]


def layer(module):
    """Index in LAYERS of the longest prefix that owns ``module``."""
    best, rank = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    assert rank is not None, f"{module} is in no layer; add it to LAYERS"
    return rank


def modules():
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_pkg)
    return out


MODULES = modules()


def resolve(name):
    """The module a dotted import target is (a name inside a module -> the module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module):
    """(target module, line, at module level?) for every import of the package."""
    path, is_pkg = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module if is_pkg else module.rpartition(".")[0]
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] or [base]
        else:
            continue
        for t in targets:
            m = resolve(t)
            if m is None:
                continue
            # importing a.b.c also imports the packages a.b and a (not the root)
            chain = [m]
            while "." in chain[-1]:
                chain.append(chain[-1].rpartition(".")[0])
            for target in chain[:-1] if len(chain) > 1 else chain:
                if target != module and not module.startswith(target + "."):
                    out.append((target, node.lineno, id(node) in top))
    return out


GRAPH = {m: imports(m) for m in MODULES}


def test_every_module_has_a_layer():
    for m in MODULES:
        layer(m)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    bad = [f"line {line}: imports {t} ({LAYERS[layer(t)][0]})"
           for t, line, _ in GRAPH[module] if layer(t) > layer(module)]
    assert not bad, f"{module} ({LAYERS[layer(module)][0]}) imports upward: {bad}"


def test_no_function_level_imports_of_the_package():
    lazy = [f"{m} line {line}: {t}" for m, edges in GRAPH.items()
            for t, line, top in edges if not top]
    assert not lazy, lazy


def test_no_cycles():
    graph = {m: {t for t, _, _ in edges} for m, edges in GRAPH.items()}
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == "open":
                cycle = stack[stack.index(t):] + [t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_only_placement_and_mapping_read_the_bindings():
    """What the enclosing maps bind is hidden state: the maps write it, the
    placement layer reads it, and every other layer asks placement's
    questions (``resolve``, ``localize``, ``vmapped_only``, ...)."""
    readers = []
    for m, (path, _) in MODULES.items():
        if m == "namedarray.placement" or m.startswith("namedarray.mapping"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            named = (isinstance(node, ast.Name) and node.id == "bindings"
                     or isinstance(node, ast.Attribute) and node.attr in ("bindings", "_state")
                     and isinstance(node.value, ast.Name) and node.value.id == "placement"
                     or isinstance(node, ast.alias) and node.name == "bindings")
            if named:
                readers.append(f"{m} line {node.lineno}")
    assert not readers, f"read the enclosing maps' bindings outside placement: {readers}"

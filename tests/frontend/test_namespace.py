"""The namespace's structure: every public name bound once, by a row a reader
finds under its name (``namedarray/namespace.py``), and no name bound by writing
a module's ``globals()``."""
import ast
import pathlib

import jax.numpy as jnp
import numpy as onp

import namedarray as np
from namedarray.core import config
from namedarray import namespace
from namedarray.frontend.engines.ufunc import ufunc

PACKAGE = pathlib.Path(np.__file__).parent


def _bound_names(path):
    """The names a module binds at its top level: assignments, imports, defs
    and classes (also inside a top-level ``if``)."""
    names = set()

    def visit(body):
        for node in body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                        if isinstance(e, ast.Name):
                            names.add(e.id)
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.If):
                visit(node.body)
    visit(ast.parse(path.read_text()).body)
    return names


def test_every_public_name_is_a_row_of_the_namespace_module():
    rows = _bound_names(PACKAGE / "namespace.py")
    unbound = sorted(set(namespace.NAMESPACE) - rows)
    assert not unbound, f"public names with no row in namedarray/namespace.py: {unbound}"
    assert set(namespace.__all__) == set(namespace.NAMESPACE)
    assert all(getattr(np, n) is v for n, v in namespace.NAMESPACE.items())


def test_no_module_binds_names_by_writing_its_globals():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.func if isinstance(node, ast.Call) else None
            target = call.value if isinstance(call, ast.Attribute) else None
            writes = (isinstance(node, ast.Call) and isinstance(call, ast.Attribute)
                      and call.attr in ("update", "setdefault")
                      and isinstance(target, ast.Call)
                      and getattr(target.func, "id", None) in ("globals", "vars"))
            stores = (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                      and isinstance(node.value, ast.Call)
                      and getattr(node.value.func, "id", None) in ("globals", "vars"))
            if writes or stores:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not offenders, f"names bound by writing globals(): {offenders}"


def test_every_numpy_function_jax_numpy_implements_is_declared():
    missing = sorted(
        n for n in dir(onp) if not n.startswith("_") and callable(getattr(onp, n))
        and not isinstance(getattr(onp, n), type) and hasattr(jnp, n)
        and n not in namespace.NAMESPACE)
    assert not missing, f"NumPy functions jax.numpy has and no row declares: {missing}"


def test_numpys_types_and_constants_are_numpys_own_objects():
    expected = {n for n in dir(onp) if not n.startswith("_") and (
        isinstance(getattr(onp, n), type) or type(getattr(onp, n)) in (float, int, bool))}
    assert expected <= set(namespace.NAMESPACE)
    own = {n for n in expected if namespace.NAMESPACE[n] is not getattr(onp, n)}
    assert own == {"broadcast", "finfo", "ndarray", "ufunc"}     # the frontend's
    ml = {n: namespace.NAMESPACE.get(n) for n in config.ML_DTYPES}
    assert ml == config.ML_DTYPES       # every ML dtype JAX has, as JAX has it


def test_ufunc_rows_are_the_ufunc_table():
    table = {n: v for n, v in namespace.NAMESPACE.items() if isinstance(v, ufunc)}
    assert table == {n: v for n, v in namespace.UFUNCS.items()}
    assert np.conj is np.conjugate and np.abs is np.absolute


def test_every_public_function_pickles_by_name_as_numpys_do():
    """``pickle`` (multiprocessing, joblib) reads back the same function, as
    NumPy's; the legacy ``np.random.*`` are bound methods of one generator,
    which pickle as a copy of it in NumPy too."""
    import pickle
    modules = [np.linalg, np.fft, np.nn, np.char, np.strings, np.ma, np.rec]
    failed = []
    for m, names in [(np, namespace.__all__)] + [(m, m.__all__) for m in modules]:
        for n in names:
            v = getattr(m, n)
            if not callable(v) or isinstance(v, type):
                continue
            try:
                same = pickle.loads(pickle.dumps(v)) is v
            except (pickle.PicklingError, TypeError, AttributeError):
                same = False
            if not same:
                failed.append(f"{m.__name__}.{n}")
    assert not failed, f"functions that do not pickle as themselves: {failed}"


def test_numpy_typing_is_numpys_under_our_name():
    """A program importing ``numpy.typing`` gets NumPy's annotation objects."""
    import numpy.typing as npt

    import namedarray.typing as t
    assert np.typing is t and t.__all__ == npt.__all__
    assert all(getattr(t, n) is getattr(npt, n) for n in npt.__all__)

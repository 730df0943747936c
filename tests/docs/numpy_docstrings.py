"""NumPy's own docstring examples, run with ``np`` bound to namedarray.

Collects every ``>>>`` example of NumPy's public functions, ufuncs and
classes, of ``numpy.linalg`` and ``numpy.fft`` and of the ``ndarray`` methods
from the installed NumPy; runs each docstring in a fresh namespace (``import
numpy`` inside an example imports namedarray), once with NumPy and once with
namedarray, and compares each example's output as doctest does (ELLIPSIS and
NORMALIZE_WHITESPACE, NumPy's own settings).  An example counts when NumPy
itself reproduces its documented output.

``python tests/docs/numpy_docstrings.py [--failures]`` prints the counts (and
with ``--failures`` every failing example) for the whole set.
"""
from __future__ import annotations

import builtins
import contextlib
import doctest
import importlib
import io
import os
import sys
import tempfile
import warnings

import numpy

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: NumPy's namespaces whose public names' docstrings are collected
MODULES = ("numpy", "numpy.linalg", "numpy.fft")


def _public(modname):
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    for name in sorted(names):
        obj = getattr(mod, name, None)
        if obj is None or isinstance(obj, type(numpy)):
            continue
        if callable(obj) or isinstance(obj, type):
            yield f"{modname}.{name}", obj


def docstrings() -> list[tuple[str, str]]:
    """``(qualified name, docstring)`` of every collected object that has
    examples, each docstring once (the first name it is found under)."""
    seen, out = set(), []

    def add(name, doc):
        if isinstance(doc, str) and ">>>" in doc and doc not in seen:
            seen.add(doc)
            out.append((name, doc))
    for modname in MODULES:
        for name, obj in _public(modname):
            add(name, getattr(obj, "__doc__", None))
    for name, attr in sorted(vars(numpy.ndarray).items()):
        if not name.startswith("__") or name in ("__array_namespace__",):
            add(f"numpy.ndarray.{name}", getattr(attr, "__doc__", None))
    return out


def _importer(target):
    """An ``__import__`` that gives ``target`` (and its submodules) for
    ``numpy`` (and NumPy's public submodules; NumPy's C code imports its
    private ones, ``numpy._core``, through the caller's ``__import__`` too)."""
    real = builtins.__import__

    def imp(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "numpy" or name.startswith("numpy.")) and \
                not name.startswith("numpy._"):
            name = target + name[len("numpy"):]
        return real(name, globals, locals, fromlist, level)
    return imp


class _Recorder(doctest.DocTestRunner):
    def __init__(self):
        super().__init__(optionflags=FLAGS, verbose=False)
        self.passed, self.failed = [], []

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.passed.append(example)

    def report_failure(self, out, test, example, got):
        self.failed.append((example, got))

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.failed.append((example, f"{exc_info[0].__name__}: {exc_info[1]}"))


def run(name, doc, module: str):
    """Run one docstring with ``np`` (and ``import numpy``) bound to ``module``;
    ``(indices of the examples that passed, {index: got} of the others)``."""
    mod = importlib.import_module(module)
    ns = {"np": mod, "__name__": "__doctest__",
          "__builtins__": dict(vars(builtins), __import__=_importer(module))}
    test = doctest.DocTestParser().get_doctest(doc, ns, name, None, 0)
    runner = _Recorder()
    state = numpy.get_printoptions(), numpy.geterr(), numpy.geterrcall()
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.chdir(tmp)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                runner.run(test, out=lambda s: None, clear_globs=True)
        finally:
            os.chdir(cwd)
            numpy.set_printoptions(**state[0])
            numpy.seterr(**state[1])
            numpy.seterrcall(state[2])
    index = {id(e): i for i, e in enumerate(test.examples)}
    return ({index[id(e)] for e in runner.passed},
            {index[id(e)]: got for e, got in runner.failed})


def reproduced(docs=None):
    """``[(name, doc, indices NumPy reproduces)]`` over the collected docstrings:
    the examples with documented output that NumPy itself passes."""
    out = []
    for name, doc in docs if docs is not None else docstrings():
        ok, _ = run(name, doc, "numpy")
        examples = doctest.DocTestParser().get_examples(doc)
        keep = {i for i in ok if examples[i].want}
        if keep:
            out.append((name, doc, keep))
    return out


def main(argv):
    show = "--failures" in argv
    total = passed = 0
    for name, doc, keep in reproduced():
        ok, bad = run(name, doc, "namedarray")
        total += len(keep)
        passed += len(keep & ok)
        if show:
            examples = doctest.DocTestParser().get_examples(doc)
            for i in sorted(keep - ok):
                got = bad.get(i, "(not run)")
                print(f"--- {name} [{i}]\n>>> {examples[i].source.strip()}\n"
                      f"want: {examples[i].want.strip()}\ngot:  {str(got).strip()[:400]}")
    print(f"{passed} of {total} examples NumPy reproduces pass "
          f"({100 * passed / max(total, 1):.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The ``numpy`` that NumPy's own test files see when they run against namedarray.

``install(target)`` registers a module ``numpy_shim`` (and an import hook for
its submodules, ``numpy_shim.linalg``, ``numpy_shim.lib.stride_tricks``, ...).
A public name of a shim is the target's (namedarray's) when the target has it
and NumPy's otherwise; a public submodule is shimmed the same way.  Private
names (``_core``, ``_utils``...) and ``KEEP`` (``testing``, ``exceptions``,
``dtypes``) stay NumPy's: the tests' oracle is NumPy's testing machinery.
With ``target="numpy"`` every name is NumPy's (the baseline run).

NumPy's assertion helpers test ``isinstance(x, numpy.ndarray)`` to choose
between comparing arrays and comparing scalars, so against another library
they would take its arrays for scalars and fail on ``bool(a == b)``.  With a
target installed, the ``assert_*`` helpers of ``numpy.testing`` first turn
each of the target's positional arrays into what NumPy would have returned
(:func:`as_numpy`: a scalar stays a NumPy scalar, a 0-d array a 0-d
``ndarray``), so the result kind still counts while the values are compared
as NumPy compares its own.
"""
from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import sys
import types

import numpy
import numpy.testing._private.utils

from namedarray.core.array import NamedArray, is_scalar

NAME = "numpy_shim"
#: NumPy namespaces that stay NumPy's whatever the target has
KEEP = frozenset({"testing", "exceptions", "dtypes", "typing"})
#: public names the target lacks that a test asked for (served by NumPy)
FALLBACKS: set[str] = set()
_MISSING = object()
_SHIMS: dict[str, types.ModuleType] = {}
_TARGET = ["numpy"]
#: while set, every shim serves NumPy's names (``numpy_setup``)
_NUMPY_ONLY = [False]


def public(path: str) -> bool:
    """Whether ``numpy.<path>`` is served by the shim (else NumPy's own)."""
    parts = [p for p in path.split(".") if p]
    return not (parts and (parts[0] in KEEP or "tests" in parts
                           or any(p.startswith("_") for p in parts)))


class Shim(types.ModuleType):
    """``numpy.<path>`` with the target's public names in front of NumPy's."""

    def __init__(self, path, ref, target):
        super().__init__(NAME + (f".{path}" if path else ""), ref.__doc__)
        self._path, self._ref, self._target = path, ref, target
        self.__path__ = []      # a package: ``import numpy_shim.x.y`` works

    def __getattr__(self, name):
        if name.startswith("_") or (not self._path and name in KEEP):
            return getattr(self._ref, name)
        ref = getattr(self._ref, name, _MISSING)
        sub = f"{self._path}.{name}" if self._path else name
        if isinstance(ref, types.ModuleType) and ref.__name__ == f"numpy.{sub}":
            return shim(sub)
        target = None if _NUMPY_ONLY[0] else self._target
        val = _MISSING if target is None else getattr(target, name, _MISSING)
        if val is _MISSING:
            if ref is _MISSING:
                raise AttributeError(f"module 'numpy.{self._path}' has no attribute {name!r}")
            if target is not None:
                FALLBACKS.add(f"numpy.{sub}")
            return ref
        return val

    def __dir__(self):
        return sorted(set(dir(self._ref)) | set(super().__dir__()))


def _target_module(path):
    if _TARGET[0] == "numpy":
        return None
    mod = importlib.import_module(_TARGET[0])
    for part in filter(None, path.split(".")):
        nxt = getattr(mod, part, None)
        if nxt is None:
            try:
                nxt = importlib.import_module(f"{mod.__name__}.{part}")
            except ImportError:
                return None
        if not isinstance(nxt, types.ModuleType):
            return None
        mod = nxt
    return mod


def shim(path: str = "") -> types.ModuleType:
    """The shim of ``numpy.<path>`` (one object per path)."""
    if path not in _SHIMS:
        ref = importlib.import_module("numpy" + (f".{path}" if path else ""))
        _SHIMS[path] = Shim(path, ref, _target_module(path))
    return _SHIMS[path]


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == NAME or fullname.startswith(NAME + "."):
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return shim(spec.name[len(NAME) + 1:])

    def exec_module(self, module):
        pass


def numpy_setup(load):
    """``load()`` (a test module's import) with every shim serving NumPy's
    names; then the module's globals taken from a shim (``from numpy import f``)
    are rebound to the shim's names, so that its tests run against the target.
    For a module whose set-up data the target cannot build at import time (an
    object array in a class body)."""
    _NUMPY_ONLY[0] = True
    try:
        module = load()
    finally:
        _NUMPY_ONLY[0] = False
    namespace = vars(module)
    for sh in list(_SHIMS.values()):
        for name, val in list(namespace.items()):
            if not name.startswith("_") and getattr(sh._ref, name, _MISSING) is val:
                namespace[name] = getattr(sh, name)
    return module


def as_numpy(v):
    """``v`` with namedarray's positional arrays as NumPy's (scalars as NumPy's
    scalars), also inside plain lists and tuples; anything else as it is."""
    if isinstance(v, NamedArray):
        if v.dims.count(None) != len(v.dims) or v.mapped:
            return v
        a = numpy.asarray(v)
        return a[()] if is_scalar(v) else a
    if type(v) in (list, tuple):
        return type(v)(as_numpy(e) for e in v)
    if not isinstance(v, (numpy.ndarray, numpy.generic, type)) and \
            hasattr(type(v), "__array__"):
        # an array-like whose __array__ gives the target's array (written
        # with ``np`` the target): what NumPy's asarray of it would read
        a = v.__array__()
        if isinstance(a, NamedArray):
            return as_numpy(a)
    return v


def _comparing(f):
    @functools.wraps(f)
    def g(*args, **kwargs):
        return f(*(as_numpy(a) for a in args), **kwargs)
    g.__wrapped_for_suite__ = True
    return g


def _convert_assertions():
    """NumPy's ``assert_*`` helpers (in ``numpy.testing`` and the module that
    defines them, so their calls of each other convert too) given
    :func:`as_numpy` of their positional arguments."""
    for mod in (numpy.testing, numpy.testing._private.utils):
        for n in dir(mod):
            f = getattr(mod, n)
            if n.startswith("assert_") and callable(f) and \
                    not getattr(f, "__wrapped_for_suite__", False) and not isinstance(f, type):
                setattr(mod, n, _comparing(f))


def install(target: str = "namedarray") -> None:
    """Serve ``numpy_shim`` with ``target``'s names (``"numpy"``: NumPy's)."""
    _TARGET[0] = target
    if target != "numpy":
        _convert_assertions()
    _SHIMS.clear()
    sys.meta_path.insert(0, _Finder())
    sys.modules[NAME] = shim("")

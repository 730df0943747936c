"""The API reference, generated from the code when the docs build.

``render()`` returns the pages of ``docs/api/`` as ``{file name: rst text}``:

* ``numpy.rst``: every name of the NumPy namespace in tables, one per
  declaration table of the frontend (the ufunc table, the reduction table, the
  ``wrap(jnp.f, named=...)`` table of ``namedarray/namespace.py``, the modules
  that define functions by hand, NumPy's own helpers, dtypes and constants),
  with what a *named* ``axis`` does; then NumPy's names that are not provided.
* one page per public module of the package (``parallel``, ``mapping``,
  ``linalg``, ``fft``, ``random``, and any public module added later: they
  are discovered, see :func:`public_modules`), plus ``einsum``: the module
  docstring (with its examples), a summary table, runnable examples, and
  autodoc of every member.
* ``toctree.inc``: the toctree of these pages, included by ``docs/api.rst``.

The "axis names" column is read from the declarations, not written by hand:
``wrap`` records ``named`` ("keep", "reduce" or ``None``) in its closure, the
reduction table names the collective that combines a mapped name, and a
hand-written function says in its docstring whether ``axis`` may name an
axis.  ``tests/docs/test_docs.py`` checks that every public name is on a page
and runs every example of the pages.
"""
from __future__ import annotations

import __future__

import importlib
import inspect
import pathlib
import re
import types

import numpy as onp

import namedarray
from namedarray import docstrings, namespace
from namedarray.frontend import elementwise
from namedarray.reductions import table as reductions
from namedarray.frontend.engines.ufunc import ufunc

# the package namedarray/einsum/ (the attribute namedarray.einsum is np.einsum)
_einsum = importlib.import_module("namedarray.einsum")

# modules of the package that are layers, not API
INTERNAL = {"core", "docstrings", "frontend", "namespace", "placement", "reductions", "tour"}
# the order of the module pages; a public module not listed comes after them
ORDER = ["einsum", "mapping", "parallel", "nn", "linalg", "fft", "random", "testing"]
TITLES = {
    "einsum": "Named einsum and the dot family",
    "mapping": "Mapping: nmap and shard",
    "parallel": "Parallel primitives",
    "nn": "namedarray.nn: neural-network functions",
    "linalg": "namedarray.linalg",
    "fft": "namedarray.fft",
    "random": "namedarray.random",
}

# modules whose functions take axis names as their arguments (collectives,
# maps): their summary has no "axis names" column
NAMES_ARE_ARGUMENTS = {"parallel", "mapping"}

# known deviations that no declaration carries: name -> note (the docs test
# checks every key is a public name)
NOTES = {
    "nonzero": "Positional arrays only: the size of the result depends on the data.",
    "may_share_memory": "NumPy's own function; JAX arrays are immutable buffers, so "
                        "two NamedArrays never share memory the way NumPy views do.",
    "shares_memory": "NumPy's own function (see ``may_share_memory``).",
    "result_type": "NumPy 2's rules (Python scalars are weak), "
                   "also for ``bfloat16`` and ``float8_*``.",
    "can_cast": "NumPy's own function on NumPy dtypes.",
}

# runnable examples shown on the module pages (run by the docs test)
EXAMPLES = {
    "einsum": """\
Positional subscripts are letters, as in NumPy; named axes go in braces.  A
name in the inputs but not in the output is contracted:

>>> import namedarray as np
>>> x = np.ones((2, 3)).tag("batch", "k")
>>> w = np.arange(12.0).reshape(3, 4).tag("k", "out")
>>> y = np.einsum("{batch,k},{k,out}->{batch,out}", x, w)
>>> y.named_shape
{'batch': 2, 'out': 4}
>>> y.untag("batch", "out")[0]
array([12., 15., 18., 21.])

A name the spec does not mention is carried through (batched):

>>> u = np.ones((2, 3)).tag("b", None)
>>> np.einsum("i,i->", u, np.arange(3.0)).untag("b")
array([3., 3.])

``vecdot`` and ``tensordot`` name the contracted axis directly:

>>> np.vecdot(x, np.ones(3).tag("k"), axis="k").named_shape
{'batch': 2}
""",
    "mapping": """\
``nmap`` maps named axes: inside the function they are invisible to
positional code, still in ``named_shape``, and named operations over them are
collectives.  The result equals the unmapped run:

>>> import namedarray as np
>>> x = np.arange(6.0).reshape(2, 3).tag("batch", None)
>>> center = np.nmap(lambda r: r - r.mean(axis="batch"))
>>> center(x).untag("batch")
array([[-1.5, -1.5, -1.5],
       [ 1.5,  1.5,  1.5]])
>>> (x - x.mean(axis="batch")).untag("batch")
array([[-1.5, -1.5, -1.5],
       [ 1.5,  1.5,  1.5]])

Over a device mesh, ``axis_resources`` partitions a name over mesh axes
(``shard_map``); ``shard`` places data for XLA to partition:

>>> import jax
>>> mesh = jax.make_mesh((jax.device_count(),), ("data",))
>>> data = np.arange(16.0 * 3).reshape(16, 3).tag("batch", None)
>>> step = lambda r: (r - r.mean(axis="batch")).max(axis="batch")
>>> np.nmap(step, mesh=mesh, axis_resources={"batch": "data"})(data)
array([22.5, 22.5, 22.5])
>>> np.shard(data, mesh, {"batch": "data"}).sum(axis="batch")
array([360., 376., 392.])
""",
    "parallel": """\
A primitive over a physical named dimension is the positional operation on
that dimension; inside ``nmap`` it is the ``jax.lax`` collective:

>>> import namedarray as np
>>> from namedarray import parallel
>>> x = np.arange(6.0).reshape(2, 3).tag("i", None)
>>> parallel.psum(x, "i")
array([3., 5., 7.])
>>> np.nmap(lambda v: parallel.psum(v, "i"))(x)
array([3., 5., 7.])
>>> np.nmap(lambda v: parallel.axis_index("i"))(x).untag("i")
array([0, 1])
>>> parallel.all_gather(x, "i").shape     # the name becomes positional
(2, 3)
""",
    "linalg": """\
Named axes are batch axes: one solve per named slice.

>>> import namedarray as np
>>> a = np.stack([np.eye(2), 2 * np.eye(2)], axis="b")
>>> b = np.ones(2)
>>> np.linalg.solve(a, b).untag("b")
array([[1. , 1. ],
       [0.5, 0.5]])
>>> np.linalg.norm(np.ones((4, 3)).tag("k", None), axis="k")
array([2., 2., 2.])
""",
    "fft": """\
>>> import namedarray as np
>>> t = np.sin(np.arange(8.0) * np.pi / 2).tag("time")
>>> spectrum = np.fft.rfft(t, axis="time")
>>> spectrum.named_shape
{'time': 5}
>>> int(np.argmax(abs(spectrum), axis="time"))
2
""",
    "random": """\
>>> import namedarray as np
>>> rng = np.random.default_rng(0)
>>> rng.normal(size=(2, 3)).shape
(2, 3)

A parameter with named axes gives one independent draw per named slice:

>>> loc = np.arange(4.0).tag("b")
>>> rng.normal(loc, 1e-6).named_shape
{'b': 4}
""",
}


# -- what is public ------------------------------------------------------------
def public_modules() -> list[str]:
    """The public submodules of ``namedarray`` (its module attributes that are
    not private and not a layer), plus ``einsum``, in page order."""
    found = {n for n, v in vars(namedarray).items()
             if isinstance(v, types.ModuleType) and not n.startswith("_")
             and v.__name__.startswith("namedarray.") and n not in INTERNAL}
    found.add("einsum")
    return sorted(found, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))


def module_object(name: str) -> types.ModuleType:
    return _einsum if name == "einsum" else getattr(namedarray, name)


def module_path(name: str) -> str:
    return module_object(name).__name__


def module_members(name: str) -> list[str]:
    """The module's ``__all__``, or else the public names it defines."""
    mod = module_object(name)
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    return [n for n, v in vars(mod).items() if not n.startswith("_")
            and getattr(v, "__module__", None) == mod.__name__]


def top_level_names() -> list[str]:
    """Every public name of ``import namedarray as np`` (modules and the
    ``from __future__ import annotations`` marker excluded)."""
    return sorted(n for n in dir(namedarray) if not n.startswith("_")
                  and not isinstance(getattr(namedarray, n), (types.ModuleType,
                                                               __future__._Feature)))


# -- what a named axis does ----------------------------------------------------
# read from the declarations by the package itself (it writes the same into
# each function's "Named axes" docstring section)
axis_names = docstrings.named_axes
_wrap_declaration = docstrings.wrap_declaration


def _summary(fn) -> str:
    """The first sentence of the function's own docstring (NumPy's part
    left out), as one line."""
    para = docstrings.own_doc(fn).split("\n\n")[0].replace("\n", " ").strip()
    m = re.match(r"(.+?\.)(\s|$)", para)
    return m.group(1) if m else para


def _paragraph(fn) -> str:
    """The first paragraph of the function's own docstring, as one line."""
    return " ".join(docstrings.own_doc(fn).split("\n\n")[0].split())


# -- rst helpers ---------------------------------------------------------------
def _cell(text: str) -> str:
    return text.replace("|", "\\|") if text else ""


def _table(rows, header, widths="20 12 68") -> str:
    out = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}",
           "   :class: api-table", ""]
    for row in [header, *rows]:
        first, *rest = row
        out.append(f"   * - {first}")
        out.extend(f"     - {c}" if c else "     -" for c in rest)
    return "\n".join(out) + "\n"


def _heading(text: str, ch: str) -> str:
    return f"{text}\n{ch * len(text)}\n"


# -- the NumPy namespace -------------------------------------------------------
def _numpy_sections() -> list[tuple[str, str, list[str]]]:
    """``(title, intro, names)`` per declaration table, every name of
    ``namespace.NAMESPACE`` in exactly one."""
    ns = namespace.NAMESPACE
    objects = [n for n, v in ns.items() if isinstance(v, type) or not callable(v)]
    ufuncs = [n for n, v in ns.items() if isinstance(v, ufunc)]
    reds = [n for n in ns if n in reductions.__all__ and n not in ("REDUCTIONS",)]
    contractions = [n for n in _einsum.__all__ if n in ns]
    own = [n for n, v in ns.items() if getattr(v, "_numpy_own", False)]
    taken = set(objects) | set(ufuncs) | set(reds) | set(contractions) | set(own)
    by_module: dict[str, list[str]] = {}
    table: list[str] = []
    for n, v in ns.items():
        if n in taken:
            continue
        decl = _wrap_declaration(v)
        mod = getattr(v, "__module__", "") or ""
        if decl is not None and mod == "namedarray" and n not in _module_defined():
            table.append(n)
        else:
            key = _module_defined().get(n, "other")
            by_module.setdefault(key, []).append(n)
    sections = [
        ("Elementwise functions (ufuncs)",
         "NumPy's ufuncs (``frontend/elementwise.py``, one table over the ufunc "
         "engine): NumPy's dtype resolution, named axes aligned by name, positional "
         "axes broadcast by NumPy's rules.  ``ufunc.reduce``/``accumulate`` take "
         "``axis`` as the matching reduction does.  Integer ``floor_divide``, "
         "``remainder``, ``mod``, ``fmod``, ``divmod`` by zero give 0, as NumPy "
         "does (without NumPy's warning); real ``floor_divide`` is ``floor(x1 / x2)`` "
         "where an operand is infinite, as the Array API requires (NumPy: NaN or "
         "-1.0; see :doc:`/differences`).",
         sorted(ufuncs + [n for n in elementwise.__all__
                         if n in ns and n not in ufuncs and callable(ns[n])])),
        ("Reductions",
         "The reduction table (``reductions/table.py``, one engine): ``axis`` may "
         "be a name or a tuple mixing ints and names; the result equals the "
         "positional reduction over the dimension holding the name, dtype included.",
         sorted(set(reds))),
        ("Contractions",
         "Named einsum and the dot family (see :doc:`einsum`): one "
         "``lax.dot_general`` each; ``preferred_element_type=`` sets the "
         "accumulation dtype.",
         contractions),
    ]
    titles = {"creation": "Creation", "joining": "Joining", "manipulation":
              "Shape manipulation and in-place writes",
              "indexing": "Indexing and data-dependent sizes",
              "sorting": "Sorting", "io": "Input and output",
              "conversion": "Shapes, conversion and printing",
              "index_tricks": "Index tricks", "logic": "Logic functions",
              "function_base": "Mathematical functions (function_base)",
              "polynomial": "Polynomials", "setops": "Set routines",
              "statistics": "Statistics", "windows": "Window functions",
              "arraypad": "Padding", "histograms": "Histograms"}
    notes = {"indexing": " ``nonzero`` is the one-argument ``where`` of the "
                         "engines (``frontend/engines/select.py``).",
             "joining": " ``concatenate`` is the engines' own "
                        "(``frontend/engines/join.py``)."}
    for key in ("creation", "joining", "manipulation", "arraypad", "indexing",
                "index_tricks", "sorting", "setops", "logic", "function_base",
                "polynomial", "statistics", "histograms", "windows", "io",
                "conversion", "other"):
        names = [n for n in by_module.get(key, []) if n not in sections[0][2]]
        if names:
            sections.append((titles.get(key, "Other functions"),
                             f"Defined by hand in ``frontend/{key}.py``.{notes.get(key, '')}"
                             if key in titles else "", sorted(names)))
    sections.append((
        "Functions from jax.numpy",
        "The ``_jax(...)`` rows of ``namedarray/namespace.py``: every other NumPy function that "
        "``jax.numpy`` implements, declared as ``wrap(jnp.f, named=...)``.  Named "
        "axes of the arguments are mapped over (``jax.vmap``); ``named`` says "
        "what a *named* ``axis`` means.  See NumPy's documentation of each "
        "function for its semantics.",
        sorted(table)))
    sections.append(("NumPy's own helpers",
                     "NumPy's functions themselves, given NumPy copies of array "
                     "arguments: they inspect dtypes, values or settings and return "
                     "Python objects.", sorted(own)))
    return sections, sorted(objects)


#: the frontend's modules that declare functions by hand, in the page's order
_DECLARING_MODULES = tuple(importlib.import_module(f"namedarray.{m}") for m in (
    "frontend.elementwise", "reductions.table", "einsum", "frontend.creation",
    "frontend.joining", "frontend.manipulation", "frontend.sorting", "frontend.io",
    "frontend.conversion", "frontend.indexing", "frontend.setops",
    "frontend.function_base", "frontend.histograms", "frontend.index_tricks",
    "frontend.logic", "frontend.polynomial", "frontend.windows", "frontend.arraypad",
    "reductions.statistics"))


def _module_defined() -> dict[str, str]:
    out = {}
    for m in _DECLARING_MODULES:
        short = m.__name__.rsplit(".", 1)[1]
        for n in m.__all__:
            out.setdefault(n, short)
    out["nonzero"] = "indexing"
    return out


def _numpy_page() -> str:
    sections, objects = _numpy_sections()
    ns = namespace.NAMESPACE
    parts = [_heading("The NumPy namespace", "="), """
``import namedarray as np`` provides NumPy's namespace with NumPy's
signatures.  Every name is listed below, grouped by the declaration table
that defines it in ``namedarray/frontend/``; this page is generated from those
tables when the documentation is built.

The **axis names** column says what ``axis="name"`` (or a tuple mixing ints
and names) does:

* **reduces**: the named axis is consumed, as reducing its dimension would;
* **keeps**: the function runs along the named axis and the name stays on the
  result (``sort``, ``cumsum``, ``flip``, the FFTs);
* **yes**: the function takes names, as its note says;
* **no**: ``axis`` must be positional (a name is an error); named axes of
  the arguments are still mapped over;
* **—**: no ``axis`` argument; named axes are mapped over (aligned by name).

A name bound by an enclosing ``nmap`` (for instance partitioned over a mesh)
works wherever a physical name does: reductions combine a local step with a
collective, functions that need the whole axis gather it first.  See also
:doc:`/differences` for what behaves differently from NumPy.

Each name links to its documentation on the page of its family: NumPy's
documentation of the function (parameters, returns, examples), then what
named axes do for it and where it differs from NumPy.
"""]
    sections = [sec for sec in sections if sec[2]]  # (a list-table needs a row)
    parts.append(".. toctree::\n   :maxdepth: 1\n   :caption: The functions, by family\n\n"
                 + "".join(f"   {family_page(t)[:-4]}\n" for t, _, _ in sections))
    for title, intro, names in sections:
        parts.append(_heading(title, "-"))
        if intro:
            parts.append(intro + "\n")
        rows = []
        for n in names:
            fn = ns[n]
            col, how = axis_names(n, fn)
            note = NOTES.get(n) or _numpy_note(n, fn)
            note = "; ".join(p for p in (note, how) if p)
            rows.append((f":obj:`{n} <namedarray.{n}>`", col, _cell(note)))
        parts.append(_table(rows, ("function", "axis names", "notes")))
    parts.append(_heading("dtypes, scalar types and constants", "-"))
    parts.append("NumPy's own objects (``np.float32 is numpy.float32``), plus "
                 "``ndarray`` and ``NamedArray`` (the same class), ``newaxis``, and "
                 "the declaration tables ``UFUNCS`` and ``REDUCTIONS`` "
                 "(name to function):\n\n"
                 + ", ".join(f"``{n}``" for n in objects) + "\n")
    missing = not_provided()
    parts.append(_heading("Not provided", "-"))
    parts.append("NumPy functions with no counterpart here (``jax.numpy`` does "
                 "not implement them, or they need NumPy's memory model); using "
                 "one is an ``AttributeError``:\n\n"
                 + (", ".join(f"``{n}``" for n in missing) or "none") + "\n")
    return "\n".join(parts)


def family_page(title: str) -> str:
    """The file name of the page documenting a family of the NumPy page."""
    return "np-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") + ".rst"


def signature(name: str, fn, twin) -> str:
    """The signature autodoc shows for ``fn``: its own, or NumPy's
    (``twin``'s) where its own is only ``(*args, **kwargs)`` (the ufuncs)."""
    try:
        own = str(inspect.signature(fn))
    except (TypeError, ValueError):
        own = "(*args, **kwargs)"
    if own != "(*args, **kwargs)":
        return ""
    line = (getattr(twin, "__doc__", None) or "").lstrip().split("\n", 1)[0]
    if line.startswith(name + "("):
        return re.sub(r"\[.*\]", "", line[len(name):]).replace(", )", ")")
    try:
        return str(inspect.signature(twin))
    except (TypeError, ValueError):
        return ""


def _family_page(title: str, intro: str, names: list[str]) -> str:
    """One page per family of the NumPy page: each function's docstring
    (NumPy's documentation, then "Named axes"), with NumPy's signature where
    the function's own says nothing."""
    ns = namespace.NAMESPACE
    parts = [_heading(title, "="), ".. currentmodule:: namedarray\n"]
    if intro:
        parts.append(intro + "\n")
    parts.append("Back to the summary: :doc:`numpy`.\n")
    for n in names:
        sig = signature(n, ns[n], getattr(onp, n, None))
        parts.append(f".. autofunction:: {n}{sig}\n")
    return "\n".join(parts)


def _numpy_note(name: str, fn) -> str:
    own = getattr(onp, name, None)
    if own is not None and (fn is own or inspect.unwrap(fn, stop=lambda f: f is own) is own):
        return "NumPy's own function."
    decl = _wrap_declaration(fn)
    if decl is not None and getattr(fn, "__module__", "") == "namedarray" and (
            docstrings.own_doc(fn)).startswith(f"``numpy.{name}`` on NamedArrays"):
        return f":func:`jax.numpy.{name}`"
    if isinstance(fn, ufunc):
        return ""
    s = _paragraph(fn)
    s = re.sub(rf"^``numpy\.{re.escape(name)}``\s*[:;,]?\s*", "", s).strip()
    # "(stable); ..." -> "stable; ...", "(default dtype float64)." -> "default ..."
    m = re.match(r"^\((.*)\)(\.?)$", s) or re.match(r"^\(([^()]*)\)(.*)$", s)
    if m:
        s = (m.group(1) + m.group(2)).strip()
    if s in (".", ""):
        return ""
    return s[:1].upper() + s[1:]


def not_provided() -> list[str]:
    ns = namespace.NAMESPACE
    return sorted(n for n in dir(onp) if not n.startswith("_") and n not in ns
                  and callable(getattr(onp, n)) and not isinstance(getattr(onp, n), type))


# -- module pages --------------------------------------------------------------
def _module_page(name: str) -> str:
    mod = module_object(name)
    path = mod.__name__
    title = TITLES.get(name, f"namedarray.{name}")
    parts = [_heading(title, "="), f".. automodule:: {path}\n"]
    if getattr(namedarray, path.rpartition(".")[2], mod) is not mod:
        # the package namedarray.einsum shares its name with np.einsum, which
        # the namespace page documents: the module takes no index entry
        parts[-1] += "   :no-index:\n"
    if name == "einsum":
        parts.append(".. image:: /_generated/einsum.png\n"
                     "   :alt: The operands of a named einsum as boxes of named axes, "
                     "a contracted name drawn between them.\n"
                     "   :width: 560px\n")
    rows = []
    for n in module_members(name):
        obj = getattr(mod, n)
        if isinstance(obj, type):
            col, how = "—", ""
        else:
            col, how = axis_names(n, obj)
        own = not (getattr(obj, "__module__", "") or "").startswith("namedarray")
        note = ("NumPy's own ``" + f"{getattr(obj, '__module__', 'numpy')}.{n}``"
                if own else NOTES.get(n) or _summary(obj))
        note = "; ".join(p for p in (note, how) if p)
        rows.append((f":obj:`{n} <{path}.{n}>`" if not own else f"``{n}``", col,
                     _cell(note)))
    parts.append(_heading("Summary", "-"))
    if name in NAMES_ARE_ARGUMENTS:   # every argument is a name: no axis column
        parts.append(_table([(a, c) for a, _, c in rows], ("name", "summary"), "25 75"))
    else:
        parts.append(_table(rows, ("name", "axis names", "summary")))
    if name in EXAMPLES:
        parts.append(_heading("Examples", "-"))
        parts.append(EXAMPLES[name])
    parts.append(_heading("Reference", "-"))
    for n in module_members(name):
        obj = getattr(mod, n)
        if not (getattr(obj, "__module__", "") or "").startswith("namedarray"):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            parts.append(f".. autoexception:: {path}.{n}\n")
        elif isinstance(obj, type):
            parts.append(f".. autoclass:: {path}.{n}\n   :members:\n")
        else:
            parts.append(f".. autofunction:: {path}.{n}\n")
    return "\n".join(parts)


def render() -> dict[str, str]:
    """The generated pages, ``{file name under docs/api/: text}``."""
    pages = {"numpy.rst": _numpy_page()}
    sections, _ = _numpy_sections()
    for title, intro, names in sections:
        if names:
            pages[family_page(title)] = _family_page(title, intro, names)
    for name in public_modules():
        pages[f"{name}.rst"] = _module_page(name)
    toc = ["numpy"] + public_modules()
    pages["toctree.inc"] = (".. toctree::\n   :maxdepth: 1\n   :caption: Pages\n\n"
                            + "".join(f"   api/{p}\n" for p in toc))
    return pages


def write(outdir: pathlib.Path) -> None:
    """Write the pages, leaving an unchanged file untouched (Sphinx re-reads
    only changed sources)."""
    outdir.mkdir(parents=True, exist_ok=True)
    pages = render()
    for fname, text in pages.items():
        p = outdir / fname
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    for p in outdir.glob("*.rst"):
        if p.name not in pages:
            p.unlink()


# a docstring's reference to the design notes, which are not part of the
# published documentation: left out of the rendered page
_DESIGN_REF = re.compile(r"\s*\(DESIGN(?:\.md)? §[\w.]+\)|,? DESIGN(?:\.md)? §[\w.]+")


def without_design_refs(text: str) -> str:
    return _DESIGN_REF.sub("", text)


def _process_docstring(app, what, name, obj, options, lines) -> None:
    lines[:] = [without_design_refs(line) for line in lines]


def _generate(app) -> None:
    src = pathlib.Path(app.srcdir)
    write(src / "api")


def setup(app):
    app.connect("builder-inited", _generate)
    app.connect("autodoc-process-docstring", _process_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

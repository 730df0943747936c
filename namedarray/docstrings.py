"""The docstrings of the NumPy namespace: NumPy's documentation plus named axes.

:func:`document` gives every function of a namespace the documentation of
its NumPy twin, taken from the installed NumPy when the package is imported
(its summary, Parameters, Returns, See Also, Notes and Examples), and then a
"Named axes" section: what a *named* axis does for it (read from its
declaration by :func:`named_axes`) and the function's own docstring, which
says where it differs from NumPy.  NumPy's examples are NumPy's (``np`` is
``numpy`` there); their ``>>>`` prompts are taken off (the output lines become
``#`` comments), so they are read, not run as this package's doctests.

The function's own docstring stays readable as :func:`own_doc`.
"""
from __future__ import annotations

import inspect
import re

import numpy as onp

from .frontend.engines.ufunc import ufunc
from .reductions import table as reductions

_AXIS_PARAMS = ("axis", "axes", "axis1", "axis2", "source", "destination")
_SAYS_NAMES = re.compile(r"\b(axis|axes)\b[^.]*?\bnam(e|es|ed|ing)\b|axis=\"name\"", re.S)

# NumPy's cross references into its own guides (no target here): their text
_ROLE = re.compile(r":(?:std:)?(?:ref|doc|term):`([^`<]*?)\s*(?:<[^>]*>)?`")
_CITATION = re.compile(r"\[(\w+)\]_")
_INDENT = re.compile(r"[^\n]*\n(?:[ \t]*\n)*( *)")
_FOOTNOTE = re.compile(r"^\.\. \[(\w+)\][ \t]*(.*(?:\n[ \t]+\S.*)*)", re.M)
_LINK = re.compile(r">`_(?!_)")
_PLOT = re.compile(r"^( *)\.\. plot::.*\n(?:\1[ \t]+.*\n|[ \t]*\n)*", re.M)
_PROMPT = re.compile(r"^([ \t]*)>>> ?", re.M)
_SIGNATURE = re.compile(r"^\s*[\w.]+\((?:.|\n(?!\n))*?\)\s*(->.*)?\n\n")


def own_doc(fn) -> str:
    """The docstring ``fn`` has in this package, without NumPy's part."""
    doc = getattr(fn, "_own_doc", None)
    return doc if doc is not None else _dedent(getattr(fn, "__doc__", "") or "")


def _closure(fn) -> dict:
    code, cells = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
    if code is None or not cells:
        return {}
    return dict(zip(code.co_freevars, (c.cell_contents for c in cells)))


def wrap_declaration(fn):
    """``(named, axis_pos)`` of a function declared by ``engines.generic.wrap``
    (read from its closure, following ``functools.wraps`` chains), or ``None``."""
    for _ in range(8):
        nl = _closure(fn)
        if "named" in nl and "axis_pos" in nl and "jfn" in nl:
            return nl["named"], nl["axis_pos"]
        fn = getattr(fn, "__wrapped__", None)
        if fn is None:
            return None
    return None


def _axis_params(fn) -> list[str]:
    """The axis parameters of ``fn``'s signature (read from its code or its
    ``__signature__``, following ``__wrapped__``: cheap at import)."""
    for _ in range(8):
        sig = vars(fn).get("__signature__") if hasattr(fn, "__dict__") else None
        if sig is not None:
            return [p for p in sig.parameters if p in _AXIS_PARAMS]
        if getattr(fn, "__wrapped__", None) is None:
            break
        fn = fn.__wrapped__
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return [p for p in names if p in _AXIS_PARAMS]


def named_axes(name: str, fn) -> tuple[str, str]:
    """``(kind, mapped)``: what ``axis="name"`` does for ``fn``, and how a
    name mapped by ``nmap`` is combined.

    kind: ``reduces`` (the name is consumed), ``keeps`` (the function runs
    along the name and the name stays), ``yes`` (the function's docstring
    describes it), ``no`` (positional axes only; named axes are still mapped
    over), ``—`` (no axis argument; named axes are mapped over).
    """
    if isinstance(fn, ufunc):
        return "—", ""
    red = reductions.REDUCTIONS.get(name)
    if name in reductions._COLLECTIVE and red is not None and (
            inspect.unwrap(fn, stop=lambda f: f is red) is red):
        coll = reductions._COLLECTIVE[name]
        if name in ("std", "var"):
            how = "a mapped name: two collective means"
        elif coll is None:
            how = "a mapped name is gathered first"
        else:
            how = f"a mapped name: local step, then ``{coll.__name__}``"
        return "reduces", how
    decl = wrap_declaration(fn)
    if decl is not None:
        named, axis_pos = decl
        if named == "keep":
            return "keeps", "a mapped name is gathered first"
        if named == "reduce":
            return "reduces", "a mapped name is gathered first"
        return ("no" if axis_pos is not None or _axis_params(fn) else "—"), ""
    if not _axis_params(fn):
        return "—", ""
    return ("yes" if _SAYS_NAMES.search(own_doc(fn)) else "no"), ""


_KINDS = {
    "reduces": "``axis`` may be an axis name, or a tuple mixing ints and names: the "
               "named axis is reduced (its name is gone from the result), as reducing "
               "its dimension would be; the other named axes are kept.",
    "keeps": "``axis`` may be an axis name: the function runs along that axis and "
             "the name stays on the result; the other named axes are mapped over.",
    "yes": "``axis`` may be an axis name, as described below.",
    "no": "``axis`` counts positional axes only (an axis name is an error); named "
          "axes of the arguments are mapped over: the function applies to each "
          "named slice and the result keeps the names.",
    "—": "Named axes of the arguments are aligned by name and mapped over; "
         "positional axes follow NumPy's rules.",
}
_UFUNC = ("Named axes of the operands are aligned by name (positional axes "
          "broadcast by NumPy's rules) and the result carries every name; "
          "``reduce`` and ``accumulate`` take ``axis`` as the matching reduction does.")
_HOST = ("This is NumPy's own function: NamedArray arguments reach it as "
         "NumPy arrays (without names), and the result is NumPy's.")


def _dedent(doc: str) -> str:
    """``inspect.cleandoc`` for NumPy's docstrings (one indentation after the
    first line), with ``str.replace``: cheap at import."""
    m = _INDENT.match(doc)
    doc = doc.replace("\n" + m.group(1), "\n") if m and m.group(1) else doc
    return doc.strip()


def _numpy_part(npdoc: str, name: str) -> tuple[str, str]:
    """(summary, rest) of NumPy's docstring of ``name``, made safe to read
    here: no signature line, prompts off, no cross references into NumPy's
    guides, no plots, citations as plain text."""
    doc = _dedent(npdoc)
    doc = _SIGNATURE.sub("", doc, count=1) if "(" in doc[:len(name) + 40] else doc
    if ":`" in doc:
        doc = _ROLE.sub(r"\1", doc)
    if "]_" in doc:
        doc = _CITATION.sub(r"[\1]", doc)
    if ".. [" in doc:
        doc = _FOOTNOTE.sub(_reference, doc)
    if ">`_" in doc:      # links anonymous: two pages' "NEP 50" do not clash
        doc = _LINK.sub(">`__", doc)
    if ".. plot::" in doc:
        doc = _PLOT.sub("", doc)
    if ">>>" in doc:
        doc = _literal_examples(doc)
    summary, _, rest = doc.partition("\n\n")
    return summary.strip(), rest.strip()


def _reference(m) -> str:
    """A footnote of NumPy's References as a paragraph ``[1] text``."""
    return f"[{m.group(1)}] " + re.sub(r"\n[ \t]+", "\n", m.group(2)) + "\n"


def _literal_examples(doc: str) -> str:
    """NumPy's examples as literal blocks of Python: each paragraph of ``>>>``
    lines and their output goes under ``::``, without the prompts, the output
    lines as ``#`` comments (``str`` operations: cheap at import)."""
    start = doc.rfind("\n\n", 0, doc.find(">>>"))
    start = start + 2 if start >= 0 else 0
    parts = doc[start:].split("\n\n")
    for k, par in enumerate(parts):
        j = par.find(">>>")
        line = par.rfind("\n", 0, j) + 1       # the line of the first prompt
        if j < 0 or par[line:j].strip(" "):
            continue
        head, code, indent = par[:line], par[j:], par[line:j]
        nl = "\n" + indent
        code = ("# " + code.replace(nl, "\n# ") + "\n").replace(
            "# >>> ", "").replace("# ... ", "").replace("# >>>\n", "\n").replace(
            "# ...\n", "\n")[:-1]
        parts[k] = (head + "\n" if head else "") + f"{indent}::\n\n{indent}    " + \
            code.replace("\n", nl + "    ")
    doc = doc[:start] + "\n\n".join(parts)
    # a prompt not at the head of its paragraph: taken off (no doctest)
    return _PROMPT.sub(r"\1", doc) if ">>>" in doc else doc


def compose(name: str, fn, npdoc: str, qual: str) -> str:
    """The docstring of ``fn``, the namespace's ``name``: NumPy's
    documentation of ``numpy.{qual}`` (``npdoc``), then "Named axes"."""
    summary, rest = _numpy_part(npdoc, name)
    notes = "" if fn.__doc__ == npdoc else "\n\n" + own_doc(fn)
    if not notes:
        axes = _HOST
    elif isinstance(fn, ufunc):
        axes = _UFUNC
    else:
        kind, how = named_axes(name, fn)
        axes = _KINDS[kind] + (f" Inside ``nmap``, {how}." if how else "")
    head = (f"{summary}\n\n``{qual}`` as in NumPy, on NamedArrays.  What follows "
            f"is NumPy's documentation of :func:`numpy.{qual}` (NumPy {onp.__version__}); "
            "its examples are NumPy's (``np`` is ``numpy`` there).  The section "
            '"Named axes" at the end says what names do here and where this '
            "function differs from NumPy.")
    return f"{head}\n\n{rest}\n\nNamed axes\n----------\n{axes}{notes}\n"


def document(functions: dict, module=onp, prefix: str = "") -> None:
    """Give each function of ``functions`` (name -> object) the composed
    docstring of its twin in NumPy's ``module`` (``numpy.{prefix}{name}``);
    its own docstring stays as ``fn._own_doc`` (see :func:`own_doc`)."""
    for name, fn in functions.items():
        if isinstance(fn, type) or not callable(fn) or name.startswith("_") \
                or getattr(fn, "_own_doc", None) is not None:
            continue
        npdoc = getattr(getattr(module, name, None), "__doc__", None)
        if not isinstance(npdoc, str) or not npdoc.strip() or fn is getattr(module, name):
            continue
        target = fn
        if inspect.ismethod(fn):  # np.random.normal: a method of the global RandomState
            target = fn.__func__
            if vars(type(fn.__self__)).get(name) is not target:
                continue          # (inherited: its class documents it)
        own = own_doc(fn)
        try:
            target.__doc__ = compose(name, fn, npdoc, prefix + name)
            target._own_doc = own
        except (AttributeError, TypeError):   # a builtin: its docstring is NumPy's
            continue

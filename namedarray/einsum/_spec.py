"""Parser for einsum subscripts with named axes in braces.

Grammar (whitespace is ignored outside names)::

    spec   := terms [ "->" term ]
    terms  := term ("," term)*
    term   := ( letter | "..." | "{" [name ("," name)*] "}" )*

Letters are NumPy's positional subscripts (``a-z``, ``A-Z``); a brace group
lists axis *names* (any non-empty string without ``{},``), in any order.
:func:`parse` is cached: a spec string is parsed once per process.
"""
from __future__ import annotations

import functools
from typing import NamedTuple


class Term(NamedTuple):
    letters: tuple   # positional subscripts; "..." is one entry
    names: tuple     # axis names mentioned in braces


class Spec(NamedTuple):
    text: str
    inputs: tuple        # of Term
    output: Term | None  # None: implicit output (no "->")


def spec_error(fn: str, text: str, pos: int, what: str) -> ValueError:
    """A ValueError quoting the spec with a caret under position ``pos``."""
    return ValueError(f"{fn}: invalid subscripts {text!r}: {what} at position {pos}\n"
                      f"    {text}\n    {' ' * pos}^")


@functools.lru_cache(maxsize=2048)
def parse(text: str, fn: str = "einsum") -> Spec:
    """Parse ``text`` into input terms and an optional output term.

    >>> parse("n{b,k},{k,m}->n{b,m}").inputs[0]
    Term(letters=('n',), names=('b', 'k'))
    """
    if not isinstance(text, str):
        raise TypeError(f"{fn}: subscripts must be a str, got {type(text).__name__}")
    terms: list = []
    letters: list = []
    names: list = []
    arrow = None
    i, n = 0, len(text)

    def close():
        terms.append(Term(tuple(letters), tuple(names)))
        letters.clear()
        names.clear()

    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c.isascii() and c.isalpha():
            if arrow is not None and c in letters:
                raise spec_error(fn, text, i, f"output subscript {c!r} repeated")
            letters.append(c)
            i += 1
        elif c == ".":
            if not text.startswith("...", i):
                raise spec_error(fn, text, i, "'.' that is not part of an ellipsis '...'")
            if "..." in letters:
                raise spec_error(fn, text, i, "second ellipsis '...' in one term")
            letters.append("...")
            i += 3
        elif c == "{":
            end = text.find("}", i)
            inner = text.find("{", i + 1)
            if end < 0 or 0 <= inner < end:
                raise spec_error(fn, text, i, "'{' without a matching '}'")
            body, start = text[i + 1:end], i + 1
            for part in (body.split(",") if body.strip() else ()):
                name = part.strip()
                pos = start + len(part) - len(part.lstrip())
                if not name:
                    raise spec_error(fn, text, pos, "empty axis name")
                if name in names:
                    raise spec_error(fn, text, pos, f"axis name {name!r} repeated in one term")
                names.append(name)
                start += len(part) + 1
            i = end + 1
        elif c == "}":
            raise spec_error(fn, text, i, "'}' without a matching '{'")
        elif c == ",":
            if arrow is not None:
                raise spec_error(fn, text, i, "',' in the output")
            close()
            i += 1
        elif text.startswith("->", i):
            if arrow is not None:
                raise spec_error(fn, text, i, "second '->'")
            close()
            arrow = i
            i += 2
        else:
            raise spec_error(fn, text, i, f"invalid character {c!r}")
    if arrow is None:
        close()
        return Spec(text, tuple(terms), None)
    out = Term(tuple(letters), tuple(names))
    return Spec(text, tuple(terms), out)

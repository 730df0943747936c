"""NumPy's rules over whole tables of functions (DESIGN.md 5a), each table
checked as a user meets it (small eager data on the host tier) and with
every call compiled (the same table in a process with
``NAMEDARRAY_HOST_TIER=off``): each ``table_*`` function runs its table
against NumPy and returns the rows that differ.

* the kind of a predicate's result (a Python ``bool`` where NumPy gives one);
* NumPy's own helpers (``format_float_positional``, ``min_scalar_type``, ...)
  given a scalar see NumPy's scalar, as NumPy's would.
"""
import json
import os
import subprocess
import sys
import warnings

import numpy as onp
import pytest

import namedarray as np
from namedarray.core.array import NamedArray, is_scalar

DTYPES = [onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.uint16,
          onp.uint32, onp.uint64, onp.float16, onp.float32, onp.float64, onp.complex64,
          onp.complex128]


def kind(v):
    """What kind of value ``v`` is, as NumPy's rules name it."""
    if isinstance(v, NamedArray):
        return "scalar" if is_scalar(v) else "array"
    if isinstance(v, onp.generic):
        return "scalar"
    if isinstance(v, onp.ndarray):
        return "array"
    if isinstance(v, (tuple, list)):
        return [kind(e) for e in v]
    return type(v).__name__


def outcome(f, *args, **kwargs):
    """``f``'s result as (kind, dtype, values) or its exception class."""
    with warnings.catch_warnings(), onp.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            r = f(*args, **kwargs)
        except Exception as e:      # noqa: BLE001 -- the class is compared
            return ("raises", [c.__name__ for c in type(e).__mro__
                               if c.__module__ == "builtins"][0])
    if type(r) in (str, bytes, bool, int, float, complex, type(None)) or isinstance(
            r, (onp.dtype, type)):
        return (kind(r), repr(r))
    if isinstance(r, (tuple, list)):
        return [outcome(lambda e=e: e) for e in r]
    a = onp.asarray(r)
    return (kind(r), str(a.dtype), a.shape, repr(a.tolist()))


def mine(v):
    """The namedarray twin of a NumPy argument: an array as a NamedArray, a
    NumPy scalar as namedarray's scalar."""
    if isinstance(v, onp.ndarray):
        return np.asarray(v)
    if isinstance(v, onp.generic):
        return np.asarray(v)[()]
    if isinstance(v, list):
        return [mine(e) for e in v]
    return v


def compare(rows):
    """The rows ``(label, numpy's call, namedarray's call)`` whose outcomes differ."""
    bad = []
    for label, want, got in rows:
        w, g = outcome(want), outcome(got)
        if w != g:
            bad.append(f"{label}: numpy {w}, namedarray {g}")
    return bad


def _values(dt):
    dt = onp.dtype(dt)
    if dt.kind == "b":
        return [True]
    if dt.kind in "iu":
        return [1, onp.iinfo(dt).max]
    if dt.kind == "f":
        return [0.1, 2.0, -0.0, onp.inf, onp.nan]
    return [0.1 + 2j, 3 + 0j, complex(onp.inf, 1)]


# ------------------------------------------------------------------- tables

def table_predicate_kinds():
    """``isreal`` is ``imag(x) == 0``: of a Python number a Python bool; the
    type and value predicates give NumPy's kinds for every operand kind."""
    operands = [2.0, 1j, 3, True, [1, 2j], [[1.5]]]
    for dt in DTYPES:
        v = onp.asarray(_values(dt)[0], dtype=dt)
        operands += [v[()], v, v.reshape(1)]
    rows = []
    for name in ("isreal", "iscomplex", "isrealobj", "iscomplexobj", "isscalar", "isnan",
                 "isfinite", "isneginf", "isposinf", "real", "imag", "real_if_close"):
        for x in operands:
            rows.append((f"{name}({x!r})", lambda n=name, x=x: getattr(onp, n)(x),
                         lambda n=name, x=x: getattr(np, n)(mine(x))))
    for name in ("isreal", "iscomplex", "isrealobj", "iscomplexobj", "isscalar"):
        rows.append((f"{name}(2**70)", lambda n=name: getattr(onp, n)(2**70),
                     lambda n=name: getattr(np, n)(2**70)))
    return compare(rows)


def table_numpy_helpers_see_numpy_scalars():
    """NumPy's own helpers given namedarray's scalar answer as given NumPy's:
    ``format_float_positional`` of a float32 scalar prints its shortest
    digits (a 0-d array's are float64's), ``min_scalar_type`` reads the
    value, ..."""
    helpers = {
        "format_float_positional": lambda m, x: m.format_float_positional(x),
        "format_float_scientific": lambda m, x: m.format_float_scientific(x),
        "format_float_positional(precision=3)":
            lambda m, x: m.format_float_positional(x, precision=3, unique=False),
        "min_scalar_type": lambda m, x: m.min_scalar_type(x),
        "iterable": lambda m, x: m.iterable(x),
        "isnat": lambda m, x: m.isnat(x),
        "can_cast": lambda m, x: m.can_cast(x, m.float32),
        "binary_repr": lambda m, x: m.binary_repr(x),
        "base_repr": lambda m, x: m.base_repr(x, 3),
        "ndim": lambda m, x: m.ndim(x),
        "shape": lambda m, x: m.shape(x),
    }
    rows = []
    for dt in DTYPES:
        for v in _values(dt):
            for as_array in (False, True):
                x = onp.asarray(v, dtype=dt)
                x = x if as_array else x[()]
                for name, h in helpers.items():
                    rows.append((f"{name}({x!r})", lambda h=h, x=x: h(onp, x),
                                 lambda h=h, x=x: h(np, mine(x))))
    return compare(rows)


TABLES = sorted(n for n in dir() if n.startswith("table_"))


# ------------------------------------------------------------------- tests

@pytest.mark.parametrize("table", TABLES)
def test_table_as_a_user_meets_it(table):
    bad = globals()[table]()
    assert not bad, "\n".join(bad[:20]) + f"\n({len(bad)} rows)"


def run_all():
    """Every table's differing rows (what the compiled process prints)."""
    return {t: globals()[t]() for t in TABLES}


@pytest.fixture(scope="module")
def compiled():
    code = ("import json, sys; sys.path.insert(0, %r); import test_value_rules as t; "
            "print(json.dumps(t.run_all()))" % os.path.dirname(__file__))
    env = dict(os.environ, NAMEDARRAY_HOST_TIER="off", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("table", TABLES)
def test_table_with_every_call_compiled(table, compiled):
    bad = compiled[table]
    assert not bad, "\n".join(bad[:20]) + f"\n({len(bad)} rows)"

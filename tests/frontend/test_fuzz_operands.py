"""The API-wide fuzz (``test_fuzz_numpy.py``) with the operand kinds NumPy
holds itself, given to every function of every family: NumPy's masked arrays
(the answer is NumPy's masked result: its class, its mask and the values
under no mask), Python objects NumPy keeps in object arrays, alone or in a
sequence among numbers (a function, a ``Decimal``, a ``Fraction``, ``None``),
and namedarray's scalars (NumPy's on NumPy's side) with a Python ``complex``, a
``Fraction`` or a ``Decimal`` as the next operand.  Each family draws its
arguments as it does there; the first array argument is then given in the
drawn kind, and the call must answer as NumPy does or raise NumPy's exception
class (``test_fuzz_numpy.check``).  The Python operators of a scalar are drawn
the same way: a drawn value and dtype in each form a scalar takes, with an
operand of each Python type, forward, reflected and in place, against
NumPy's scalar (``test_scalar_operators``' comparison, which tabulates them).
``ci`` runs one example of each function and operator;
``HYPOTHESIS_PROFILE=fuzz`` runs it long."""
from decimal import Decimal
from fractions import Fraction

import numpy as onp
import pytest
from hypothesis import given, strategies as st

import test_fuzz_numpy as fuzz
import test_scalar_operators as table
from namedarray.testing import strategies as nst

#: each family of the fuzz and its test (its body, without its hypothesis
#: decorator, run with this file's draws); ``callables`` take functions and
#: ``creation`` has no array argument to replace
FAMILY_TESTS = {
    "unary_ufunc": fuzz.test_unary_ufunc, "binary_ufunc": fuzz.test_binary_ufunc,
    "reduction": fuzz.test_reduction, "cumulative": fuzz.test_cumulative,
    "sorting": fuzz.test_sorting_searching, "sets": fuzz.test_set_operation,
    "manipulation": fuzz.test_manipulation_and_elementwise,
    "indexing": fuzz.test_indexing_function, "products_linalg": fuzz.test_products_and_linalg,
    "fft": fuzz.test_fft, "statistics": fuzz.test_statistics,
    "predicates": fuzz.test_predicates_dtypes_polynomials,
}
CALLS = sorted((family, name) for family in FAMILY_TESTS for name in fuzz.FAMILIES[family])
KINDS = ["masked", "object", "objects", "scalar"]


def _function(x):
    return x


#: the Python objects NumPy holds in object arrays
OBJECTS = [None, _function, Decimal("2.5"), Decimal(-1), Fraction(1, 3)]
#: the Python operands a scalar meets that a NumPy array does not hold as
#: numbers of its dtype: Python's complex (its operators take NumPy's float64)
#: and the objects NumPy's scalars answer by Python's arithmetic
WITH_SCALARS = ["complex", Decimal("2.5"), Fraction(1, 3), Decimal("-0.5"), Fraction(-7, 2)]


def _rotated(seq, k):
    """``seq`` starting at its ``k``-th element (modulo its length): the first
    choice, the one a one-example run draws, differs from call to call."""
    k %= len(seq)
    return seq[k:] + seq[:k]


def _in_kind(kind, d, k):
    """``(name, args) -> args`` with the first NumPy array of ``args`` as a
    masked array (a drawn mask), as a drawn Python object (``object``),
    (``objects``) as nested lists of its values with one element a drawn
    Python object (a 0-d array: the object itself), or (``scalar``) as
    NumPy's scalar of its first element, namedarray's on namedarray's side,
    the next operand (a number, an array) a drawn Python complex or object;
    None where no array argument has an element to replace."""
    def replace(name, args):
        args = list(args)
        i = next((i for i, a in enumerate(args) if type(a) is onp.ndarray), None)
        if i is None:
            return None
        x = args[i]
        if kind == "scalar":
            args[i] = x.ravel()[0] if x.size else x.dtype.type(0)
            j = next((j for j in range(i + 1, len(args)) if type(args[j]) in (
                bool, int, float, complex, onp.ndarray) or isinstance(args[j], onp.generic)),
                None)
            if j is not None:
                o = d.pick(_rotated(WITH_SCALARS, k))
                args[j] = complex(d.int(-3, 3), d.int(-3, 3)) if o == "complex" else o
            return tuple(args)
        if kind == "masked":
            mask = d(st.lists(st.booleans(), min_size=x.size, max_size=x.size))
            args[i] = onp.ma.masked_array(x, mask=onp.asarray(mask, bool).reshape(x.shape))
            return tuple(args)
        if kind == "object":
            args[i] = d.pick(_rotated(OBJECTS, k))
            return tuple(args)
        if x.size == 0:
            return None
        o = onp.array(x, dtype=object)
        o.flat[d.int(0, x.size - 1)] = d.pick(_rotated(OBJECTS, k))
        args[i] = o.tolist() if x.ndim else o[()]
        return tuple(args)
    return replace


@pytest.mark.parametrize("k,family,name", [(k, *c) for k, c in enumerate(CALLS)])
@fuzz.PER_FUNCTION
@given(data=st.data())
def test_masked_arrays_and_objects_as_operands(k, family, name, data):
    """The kind and the object are drawn, the first choices rotating over the
    calls (``k``), so that the one-example ``ci`` run gives every kind and
    object to a quarter (a fifth) of the functions."""
    d = fuzz.Draw(data)
    kind = d.pick(_rotated(KINDS, k))
    fuzz.OPERANDS[0] = _in_kind(kind, d, k // len(KINDS))
    fuzz.SCALARS[0] = kind == "scalar"
    try:
        FAMILY_TESTS[family].hypothesis.inner_test(name=name, data=data)
    finally:
        fuzz.OPERANDS[0], fuzz.SCALARS[0] = None, False


#: the operand types a scalar's operators meet: Python's, its objects, NumPy's scalars
OPERAND_TYPES = ["bool", "int", "bigint", "float", "complex", "Fraction", "Decimal", "numpy"]


def _operand(d, kind):
    """A drawn operand of the Python type ``kind``."""
    if kind == "bool":
        return d.bool()
    if kind == "int":
        return d.int(-300, 300)
    if kind == "bigint":
        return d.pick(fuzz.BIG_INTS)
    if kind == "float":
        return d(st.floats(-1e3, 1e3) | st.sampled_from([onp.inf, -onp.inf, onp.nan, -0.0]))
    if kind == "complex":
        return complex(d(st.floats(-8, 8) | st.just(onp.inf)), d(st.floats(-8, 8)))
    if kind == "Fraction":
        return Fraction(d.int(-9, 9), d.int(1, 9))
    if kind == "Decimal":
        return Decimal(d.int(-99, 99)) / 4
    dt = onp.dtype(d.pick(fuzz.DTYPES))
    return dt.type(d(nst.elements(dt, small=True)))


@pytest.mark.parametrize("k,name", list(enumerate(table.OPERATORS)))
@fuzz.PER_FUNCTION
@given(data=st.data())
def test_scalar_operators_with_drawn_operands(k, name, data):
    """namedarray's scalar of a drawn dtype and value, in a drawn form (an
    element read, a reduction's 0-d buffer, data on a device), with an operand
    of a drawn Python type (the first choices rotating over the operators, so
    that ``ci`` gives each type to some of them), in a drawn direction,
    against NumPy's scalar of the same value: its value (XLA's rounding where
    the value is XLA's), dtype or Python type, error type and warnings."""
    d = fuzz.Draw(data)
    # (the offsets give ``ci``'s ``x / s`` a Python complex and a float64 scalar)
    dt = onp.dtype(d.pick(_rotated(fuzz.DTYPES, k + 8)))
    ref = dt.type(d(nst.elements(dt, small=d.bool())))
    x = None if name in table.UNARY else _operand(d, d.pick(_rotated(OPERAND_TYPES, k + 1)))
    cases = [c for c in table._cases(name, dt, [] if x is None else [x]) if c[2] is x]
    label, fn, _ = d.pick(_rotated(cases, k + 1))
    want = table._numpys(name, label, x, ref)
    form, s = d.pick(list(table._forms(dt, ref)))
    got = table._outcome(fn, s)
    table._check(got, want, (dt, ref, form, label),
                 name in ("eq", "ne") and label.endswith(" s"),
                 name if table._rounded(name, dt, x, form) else None,
                 table._huge(name, label, ref.item(), dt))

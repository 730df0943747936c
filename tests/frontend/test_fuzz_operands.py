"""The API-wide fuzz (``test_fuzz_numpy.py``) with the operand kinds NumPy
holds itself, given to every function of every family: NumPy's masked arrays
(the answer is NumPy's masked result: its class, its mask and the values
under no mask) and Python objects NumPy keeps in object arrays, alone or in a
sequence among numbers (a function, a ``Decimal``, a ``Fraction``, ``None``).
Each family draws its arguments as it does there; the first array argument is
then given in the drawn kind, and the call must answer as NumPy does or raise
NumPy's exception class (``test_fuzz_numpy.check``).  ``ci`` runs one example
of each function; ``HYPOTHESIS_PROFILE=fuzz`` runs it long."""
from decimal import Decimal
from fractions import Fraction

import numpy as onp
import pytest
from hypothesis import given, strategies as st

import test_fuzz_numpy as fuzz

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
KINDS = ["masked", "object", "objects"]


def _function(x):
    return x


#: the Python objects NumPy holds in object arrays
OBJECTS = [None, _function, Decimal("2.5"), Decimal(-1), Fraction(1, 3)]


def _rotated(seq, k):
    """``seq`` starting at its ``k``-th element (modulo its length): the first
    choice, the one a one-example run draws, differs from call to call."""
    k %= len(seq)
    return seq[k:] + seq[:k]


def _in_kind(kind, d, k):
    """``(name, args) -> args`` with the first NumPy array of ``args`` as a
    masked array (a drawn mask), as a drawn Python object (``object``), or
    (``objects``) as nested lists of its values with one element a drawn
    Python object (a 0-d array: the object itself); None where no array
    argument has an element to replace."""
    def replace(name, args):
        args = list(args)
        i = next((i for i, a in enumerate(args) if type(a) is onp.ndarray), None)
        if i is None:
            return None
        x = args[i]
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
    object to a third (a fifth) of the functions."""
    d = fuzz.Draw(data)
    fuzz.OPERANDS[0] = _in_kind(d.pick(_rotated(KINDS, k)), d, k // len(KINDS))
    try:
        FAMILY_TESTS[family].hypothesis.inner_test(name=name, data=data)
    finally:
        fuzz.OPERANDS[0] = None

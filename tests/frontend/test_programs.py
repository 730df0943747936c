"""Real NumPy programs run unmodified: each exercise in tests/programs/ gives the
same answer (values and dtypes) with ``import namedarray as np`` as with NumPy."""
import inspect

import numpy
import pytest

import namedarray
from programs import exercises

CASES = [f for name, f in inspect.getmembers(exercises, inspect.isfunction)
         if f.__module__ == exercises.__name__]


@pytest.mark.parametrize("program", CASES, ids=[f.__name__ for f in CASES])
def test_program_gives_numpy_answer(program):
    want = program(numpy)
    got = program(namedarray)
    if isinstance(want, list):
        assert got == want
        return
    got = numpy.asarray(got)
    assert got.dtype == numpy.asarray(want).dtype
    numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)

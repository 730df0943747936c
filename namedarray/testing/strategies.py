"""Hypothesis strategies for NamedArrays, in the style of ``hypothesis.extra.numpy``.

>>> from hypothesis import given
>>> from namedarray.testing import strategies as nst
>>> @given(nst.named_arrays())
... def check(x):
...     assert set(x.named_shape) <= set(nst.NAMES)
>>> check()
"""
from __future__ import annotations

import numpy as onp
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ..core.array import NamedArray

NAMES = ("a", "b", "c", "batch")
#: every dtype namedarray holds (NumPy's), unsigned 64-bit included
DTYPES = (onp.bool_, onp.int8, onp.int16, onp.int32, onp.int64, onp.uint8, onp.uint16,
          onp.uint32, onp.uint64, onp.float16, onp.float32, onp.float64, onp.complex64,
          onp.complex128)


def elements(dtype, small=True):
    """Values of ``dtype``: small finite ones (``small``), or the whole range."""
    dtype = onp.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = onp.iinfo(dtype)
        return st.integers(max(info.min, -5), 5) if small else st.integers(info.min,
                                                                           info.max)
    if dtype.kind == "f":
        return st.floats(-10, 10, width=dtype.itemsize * 8, allow_subnormal=False) \
            if small else st.floats(width=dtype.itemsize * 8, allow_subnormal=False)
    return st.complex_numbers(max_magnitude=10 if small else None, allow_nan=not small,
                              allow_infinity=not small, allow_subnormal=False,
                              width=dtype.itemsize * 8)


@st.composite
def named_arrays(draw, dtypes=DTYPES, names=NAMES, min_dims=0, max_dims=3, min_side=0,
                 max_side=4, min_names=0, max_names=None, small=True, shape=None):
    """A NamedArray with drawn dtype, shape (0-size and 0-d included; or the
    physical ``shape`` given), and ``min_names``..``max_names`` of its axes named
    from ``names`` (the physical order of names and positional axes is drawn
    too)."""
    if shape is None:
        min_dims = max(min_dims, min_names)
        max_dims = max(max_dims, min_dims)
        shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                      min_side=min_side, max_side=max_side)
                     ) if max_dims else ()
    shape = tuple(shape)
    dt = onp.dtype(draw(st.sampled_from(list(dtypes))))
    data = draw(hnp.arrays(dt, shape, elements=elements(dt, small)))
    hi = len(shape) if max_names is None else min(max_names, len(shape), len(names))
    k = draw(st.integers(min(min_names, hi), min(hi, len(names))))
    chosen = draw(st.permutations(list(names)))[:k]
    slots = draw(st.permutations(range(len(shape))))[:k]
    dims = [None] * len(shape)
    for s, n in zip(slots, chosen):
        dims[s] = n
    return NamedArray(data, dims=tuple(dims))


def placements(names=NAMES):
    """Where each name of an array is computed: ``"physical"`` (a dimension of
    the data), ``"nmap"`` (mapped by a local ``nmap``)."""
    return st.sampled_from(["physical", "nmap"])


__all__ = ["named_arrays", "elements", "placements", "NAMES", "DTYPES"]

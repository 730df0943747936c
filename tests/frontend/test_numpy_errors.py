"""Bad input gets NumPy's exception class (not garbage, an XLA message or
another class), and results keep NumPy's dtypes where jax.numpy's differ."""
import jax
import numpy as onp
import pytest

import namedarray as np
from support import assert_same

CASES = [
    ("outer beyond 64 dimensions", ValueError, r"add\.outer: maximum supported dimension "
     r"for an ndarray is 64, but the result would have 66",
     lambda m: m.add.outer(m.ones((1,) * 33), m.ones((1,) * 33))),
    ("bincount of negatives", ValueError, "bincount: 'list' argument must have no negative",
     lambda m: m.bincount(m.asarray([-1, 2]))),
    ("bincount of a huge value", ValueError, "bincount: array is too big; .*the largest "
     "value is 1152921504606846976", lambda m: m.bincount(m.asarray([3, 2**60]))),
    ("where= broadcasting the operand", ValueError, r"sum: where= of shape \(2, 3\) does "
     r"not broadcast to the operand's shape \(3,\)",
     lambda m: m.sum(m.ones(3), where=m.ones((2, 3), bool))),
    ("where= of a list broadcasting the operand", ValueError, r"mean: where= of shape "
     r"\(2, 1\)", lambda m: m.mean(m.ones(3), where=[[True], [False]])),
    ("ptp of bool", TypeError, "ptp: numpy boolean subtract",
     lambda m: m.ptp(m.asarray(True), axis=0)),
    ("axis before initial", onp.exceptions.AxisError, "nanmax: axis 1 is out of bounds",
     lambda m: m.nanmax(m.asarray([0], dtype=m.uint8), axis=1, initial=-1)),
    ("average of an empty result", ZeroDivisionError, "average: division by zero",
     lambda m: m.average(m.zeros((0, 3)), axis=1)),
    ("unpackbits of bool", TypeError, "unpackbits: Expected an input array of unsigned "
     "byte", lambda m: m.unpackbits(m.asarray([True]))),
    ("unwrap axis, named once", onp.exceptions.AxisError, r"^unwrap: axis 3 is out of "
     "bounds", lambda m: m.unwrap(m.asarray([1.0, 2.0]), axis=3)),
    ("unwrap of complex", TypeError, "unwrap: complex data",
     lambda m: m.unwrap(m.asarray([1j, 2j]))),
    ("isneginf of complex", TypeError, "isneginf: complex data",
     lambda m: m.isneginf(m.asarray([1j]))),
    ("ediff1d to_begin of another kind", TypeError, "ediff1d: dtype of `to_begin` must be "
     "compatible", lambda m: m.ediff1d(m.asarray([1, 2], dtype=m.uint8), to_begin=-1)),
    ("percentile of an empty slice", IndexError, "percentile: index -1 is out of bounds",
     lambda m: m.percentile(m.zeros((0, 3)), 50, axis=0)),
    ("unravel_index out of range", ValueError, "unravel_index: index 10 is out of bounds "
     "for array with size 6", lambda m: m.unravel_index(10, (2, 3))),
    ("full_like overflow", OverflowError, "full_like: Python integer 300 out of bounds for "
     "int8", lambda m: m.full_like(m.arange(3, dtype=m.int8), 300)),
    ("dtype= cast refused", TypeError, "add: Cannot cast ufunc 'add' input 0 from "
     r"dtype\('float64'\) to dtype\('int64'\) with casting rule 'same_kind'",
     lambda m: m.add(m.asarray([1.5]), 1, dtype=m.int64)),
    ("moveaxis repeated", ValueError, "moveaxis: repeated axis in `source` argument",
     lambda m: m.moveaxis(m.zeros((2, 3)), [0, 0], [0, 1])),
    ("repeat negative", ValueError, "repeat: negative dimensions are not allowed",
     lambda m: m.repeat(m.arange(3), -1)),
    ("pad unknown mode", ValueError, "pad: mode 'foo' is not supported",
     lambda m: m.pad(m.arange(3), 1, mode="foo")),
    ("where with a Python int beyond uint64", OverflowError, "where: Python int too large "
     "to convert to C long", lambda m: m.where(m.asarray([True]), m.asarray([1]), 2**64)),
    ("interp of complex points", TypeError, "interp: x and xp must be real",
     lambda m: m.interp(m.ones(2), m.asarray([0j, 1]), m.asarray([1.0, 2.0]))),
    ("digitize with complex bins", TypeError, "digitize: bins may not be complex",
     lambda m: m.digitize(m.asarray([1.0]), m.asarray([0j, 2]))),
    ("polyfit of float16 data", TypeError, "polyfit: array type float16 is unsupported",
     lambda m: m.polyfit(m.arange(3.0), m.asarray([1, 2, 3], dtype=m.float16), 1)),
    ("polyfit of infinite x", onp.linalg.LinAlgError, "polyfit: SVD did not converge",
     lambda m: m.polyfit(m.asarray([0, 1, m.inf]), m.arange(3.0), 1)),
    ("polyfit of NaN weights", onp.linalg.LinAlgError, "polyfit: SVD did not converge",
     lambda m: m.polyfit(m.arange(3.0), m.arange(3.0), 1, w=m.asarray([1, m.nan, 1]))),
    ("pinv of a 1-d array", ValueError, "pinv",
     lambda m: m.linalg.pinv(m.zeros(0))),
    ("rfft's axis before its dtype", onp.exceptions.AxisError, "rfft: axis 2 is out of "
     "bounds", lambda m: m.fft.rfft(m.asarray([[1j]]), n=2, axis=2)),
    ("arange's second value", OverflowError, "arange: Python integer -1 out of bounds for "
     "uint8", lambda m: m.arange(0, -3, -1, dtype=m.uint8)),
    ("diff's join of other shapes", ValueError, "diff: Cannot concatenate",
     lambda m: m.diff(m.zeros((0, 0)), axis=0, prepend=m.zeros((0, 1)))),
    ("trace over one axis twice", ValueError, r"trace: axis1 and axis2 cannot be the same",
     lambda m: m.trace(m.ones((2, 2)), axis1=-1, axis2=1)),
    ("an allocation the device cannot make", MemoryError, "zeros: RESOURCE_EXHAUSTED",
     lambda m: m.zeros(2**50, dtype=m.uint8)),
]


def _nan_into_int(m):
    x = m.arange(3)
    x[0] = m.nan


CASES += [
    ("unravel_index order", ValueError, "unravel_index: only 'C' or 'F' order is permitted",
     lambda m: m.unravel_index(3, (2, 2), order="A")),
    ("average weights of another shape, no axis", TypeError, r"average: Axis must be "
     r"specified when shapes of a and weights differ \(a: \(2, 3\), weights: \(3,\)\)",
     lambda m: m.average(m.ones((2, 3)), weights=[1, 2, 3])),
    ("average weights not along axis", ValueError, r"average: Shape of weights must be "
     r"consistent with shape of a along specified axis \(a: \(2, 3\), axis=\(0, 1\), "
     r"weights: \(3, 2\)\)",
     lambda m: m.average(m.ones((2, 3)), axis=(0, 1), weights=m.ones((3, 2)))),
    ("average weights of another ndim", ValueError, "average: Shape of weights",
     lambda m: m.average(m.ones((2, 3)), axis=1, weights=m.ones((1, 3)))),
]

CASES += [
    ("out= that does not broadcast", ValueError, r"cos: operands could not be broadcast "
     r"together with shapes \(3, 3\) \(2, 2\)",
     lambda m: m.cos(m.zeros((3, 3)), m.zeros((2, 2)))),
    ("out= smaller than the result", ValueError, r"cos: non-broadcastable output operand "
     r"with shape \(1, 3\) doesn't match the broadcast shape \(3, 3\)",
     lambda m: m.cos(m.zeros((3, 3)), m.zeros((1, 3)))),
    ("append of another ndim along an axis", ValueError, r"append: all the input arrays "
     r"must have same number of dimensions, but the array at index 0 has 2 dimension\(s\) "
     r"and the array at index 1 has 1 dimension\(s\)",
     lambda m: m.append([[1, 2, 3], [4, 5, 6]], [7, 8, 9], axis=0)),
    ("bincount negative minlength", ValueError, "bincount: 'minlength' must not be "
     r"negative \(got -1\)", lambda m: m.bincount(m.arange(3), minlength=-1)),
    ("ufunc casting unknown", ValueError, "add: casting must be one of 'no', 'equiv', "
     "'safe', 'same_kind', or 'unsafe' \\(got 'bogus'\\)",
     lambda m: m.add(m.arange(3), 1, casting="bogus")),
    ("linspace of a float num", TypeError, "linspace: num=3.0: 'float' object cannot be "
     "interpreted as an integer", lambda m: m.linspace(0, 1, 3.0)),
    ("keepdims of a str", TypeError, "sum: keepdims='yes': 'str' object cannot be "
     "interpreted as an integer", lambda m: m.sum(m.arange(3), keepdims="yes")),
    ("digitize of unordered bins", ValueError, r"digitize: bins must be monotonically "
     r"increasing or decreasing \(got \[1, 3, 2\]\)",
     lambda m: m.digitize(m.asarray([1, 2]), m.asarray([1, 3, 2]))),
]

CASES.append(("NaN into int", ValueError, "__setitem__: cannot convert float NaN to "
              "integer", _nan_into_int))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_errors_of_numpys_class(case):
    _, exc, msg, f = case
    with pytest.raises(exc):
        f(onp)
    with pytest.raises(exc, match=msg):
        f(np)


@pytest.mark.parametrize("a,v", [([1, 2, 3], [0, 1]), ([1, 2, 3], [2**40, 1]),
                                 ([True, False], [3, 4]), ([1.5, 2], [1, 1])])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_keeps_integers(fn, a, v):
    ya, yv = onp.asarray(a), onp.asarray(v)
    assert_same(getattr(np, fn)(np.asarray(ya), np.asarray(yv)), getattr(onp, fn)(ya, yv))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("fn", ["convolve", "correlate", "polymul"])
def test_convolve_complex_products_as_numpy(fn, mode):
    """Complex coefficients near the top of the range (finite products) and
    parts 16 orders apart: NumPy's ``ac - bd``, ``ad + bc`` products, not a
    three-multiplication form that overflows (NaN) or loses the small part."""
    cases = [([1e308 + 1e308j], [1.0]), ([1.0, 1e308], [1j, -2.0]),
             ([1e8 + 1e-8j, 2.0], [1.0, 1j, 3.0]), ([False], [8.9e307 + 8.9e307j]),
             ([3e200 + 1j, 1 - 1j, 2j], [1e-9 + 1j, 2.0])]
    for a, v in cases:
        ya, yv = onp.asarray(a), onp.asarray(v)
        args = () if fn == "polymul" else (mode,)
        res = getattr(np, fn)(np.asarray(ya), np.asarray(yv), *args)
        exp = getattr(onp, fn)(ya, yv, *args)
        assert res.dtype == exp.dtype
        onp.testing.assert_allclose(onp.asarray(res), exp, rtol=1e-15, atol=0)


@pytest.mark.parametrize("da,dv", [(onp.int64, onp.float32), (onp.int32, onp.complex64),
                                   (onp.float16, onp.int16), (onp.uint64, onp.float16)])
def test_convolve_in_numpys_dtype(da, dv):
    ya, yv = onp.asarray([1, 2, 3], da), onp.asarray([3, 1], dv)
    assert_same(np.convolve(np.asarray(ya), np.asarray(yv)), onp.convolve(ya, yv))


def test_histogram_counts_are_integers():
    y = onp.asarray([1.0, 2, 2, 3, 7])
    for kw in ({}, {"bins": 3}, {"density": True}, {"weights": onp.arange(5.0)}):
        r, e = np.histogram(np.asarray(y), **kw), onp.histogram(y, **kw)
        assert_same(r[0], e[0], close=True)


def test_round_of_a_full_reduction_is_an_int():
    s = np.sum(np.asarray([1.5, 2.0]))
    assert type(round(s)) is int and round(s) == round(onp.sum([1.5, 2.0]))
    assert list(range(round(np.mean(np.arange(5))))) == [0, 1]
    with pytest.raises(TypeError, match="doesn't define __round__"):   # (NumPy's arrays)
        round(np.asarray([1.26, 2.0]), 1)


U8 = onp.uint8
I16, F16 = onp.array([1, 2, 3], onp.int16), onp.array([0.5, 1.5, 2.5], onp.float16)


@pytest.mark.parametrize("call", [
    lambda m: m.squeeze(m.asarray(False), axis=0),
    lambda m: m.packbits(m.asarray(U8(5)), axis=0),
    lambda m: m.unpackbits(m.asarray(U8(5)), axis=0),
    lambda m: m.unpackbits(m.asarray(onp.zeros((0, 3), U8)), axis=1),
    lambda m: m.unpackbits(m.asarray(onp.zeros((0, 0), U8)), axis=-2),
    lambda m: m.angle(m.asarray(onp.array([1, -2], onp.int8))),
    lambda m: m.angle(m.asarray(onp.float16(-1))),
    lambda m: m.concat([m.asarray(I16), m.asarray(F16)]),
    lambda m: m.block([[m.asarray(I16)], [m.asarray(F16)]]),
    lambda m: m.cross(m.asarray(I16), m.asarray(F16)),
    lambda m: m.vdot(m.asarray(I16), m.asarray(F16)),
    lambda m: m.linalg.outer(m.asarray(I16), m.asarray(F16)),
    lambda m: m.linalg.cross(m.asarray(I16), m.asarray(F16)),
    lambda m: m.linalg.multi_dot([m.asarray(onp.ones((2, 2), onp.float32)),
                                  m.asarray(onp.ones((2, 2), onp.int32))]),
    lambda m: m.average(m.asarray(onp.array([1, 2], onp.int8)),
                        weights=m.asarray(onp.array([1, 3], onp.float16))),
    lambda m: m.average(m.asarray(onp.array([1, 2], onp.float16)),
                        weights=m.asarray(onp.array([1, 3], onp.int8)), returned=True),
    lambda m: m.median(m.asarray(onp.float32(3e38))),
    lambda m: m.ptp(m.asarray(onp.array([complex(0, onp.nan), 0j], onp.complex64))),
    lambda m: m.ptp(m.asarray(onp.array([[1 + 2j, 3 - 1j], [complex(onp.nan, 0), 2]])),
                    axis=1),
    lambda m: m.bincount(m.asarray(onp.array([127, 1], onp.int8))),
    lambda m: m.bincount(m.asarray(onp.array([32767], onp.int16)), minlength=2),
    lambda m: m.nanpercentile(m.asarray(onp.zeros((0, 0), onp.int8)), [10, 90], axis=0),
    lambda m: m.nanquantile(m.asarray(onp.zeros(0, onp.float16)), [0.1, 0.9]),
    lambda m: m.quantile(m.asarray(onp.zeros((0, 3), onp.int8)), [0.1, 0.9], axis=1),
    lambda m: m.quantile(m.asarray(onp.int8(3)), 0.5, keepdims=True),
    lambda m: m.median(m.asarray(onp.array([[1, 5, 2], [7, 7, 9]], onp.int8)), axis=1),
    # a running product of complex numbers is formed left to right from the first
    lambda m: m.cumprod(m.asarray(onp.array([complex(0, onp.inf)], onp.complex64))),
    lambda m: m.nancumprod(m.asarray([complex(onp.inf, 1), 2j, complex(onp.nan, 0), 1 + 1j])),
    lambda m: m.cumulative_prod(m.asarray([[1j, 2], [complex(0, onp.inf), 3j]]), axis=0,
                                include_initial=True),
    lambda m: m.cumprod(m.asarray(onp.array([1, 2, 3], onp.int8)), dtype=onp.complex64),
    # unique along an axis other than the first
    lambda m: m.unique(m.asarray(onp.array([[1, 1, 2, 5], [3, 3, 4, 5]])), axis=1,
                       return_index=True, return_inverse=True, return_counts=True),
    lambda m: m.unique(m.asarray(onp.zeros((1, 0), onp.int8)), axis=-1, return_counts=True),
    # Python ints beyond int64 as NumPy takes them
    lambda m: m.where(m.asarray([True, False]), m.asarray(onp.array([1, 1], onp.int8)), 2**63),
    lambda m: m.where(m.asarray([True, False]), m.asarray(onp.float16([1, 1])), -2**63 - 1),
    lambda m: m.isclose(m.asarray([2.0**64, 1.0]), 2**64),
    lambda m: m.allclose(m.asarray(onp.float16([onp.inf])), 2**70),
    lambda m: m.array_equiv(m.asarray(onp.zeros(0, bool)), -2**63 - 1),
    lambda m: m.array_equal(m.asarray(2.0**70), 2**70),
    lambda m: m.array_equal(m.asarray(2.0**70), 2**70 + 1),
    lambda m: m.array_equiv(m.asarray([3, 3]), 2**64),
    # NumPy's common dtype (JAX's is float16 / float32 here)
    lambda m: m.choose(m.asarray([0, 1]), [m.asarray(I16[:2]), m.asarray(F16[:2])]),
    lambda m: m.select([m.asarray([True, False])], [m.asarray(F16[:2])],
                       default=m.asarray(onp.int64(0))),
    lambda m: m.polyval(m.asarray(onp.array([1, 2], onp.int64)),
                        m.asarray(onp.float32([1.5, 2]))),
    lambda m: m.polyval(m.asarray(onp.zeros(0, onp.int8)), m.asarray([True, False])),
    lambda m: m.polyfit(m.arange(4.0), m.asarray([1, 3, m.inf, 5]), 1),
    # NumPy's arange casts its first two values; the rest are sums that wrap
    lambda m: m.arange(3, -1, -1, dtype=m.uint64),
    lambda m: m.arange(250, dtype=m.int8),
    lambda m: m.arange(0, 300, 100, dtype=m.uint8),
    # a float range of an int dtype: the first two values cast, then their step
    lambda m: m.arange(-3, 3, 0.5, dtype=int),
    lambda m: m.arange(1, 2.5, 0.5, dtype=m.uint8),
    lambda m: m.arange(-2.5, 1, dtype=m.int16),
    lambda m: m.arange(5.5, dtype=m.int32),
    lambda m: m.arange(0.5, -3, -0.7, dtype=int),
    lambda m: m.arange(3, 1, 0.5, dtype=int),
    # keepdims read as an int; digitize of ordered (non-strict) bins
    lambda m: m.sum(m.arange(6).reshape(2, 3), axis=1, keepdims=1),
    lambda m: m.digitize(m.asarray([1, 2]), m.asarray([3, 2, 1]), right=True),
    lambda m: m.digitize(m.asarray([1, 2]), m.asarray([1, 1, 2])),
    lambda m: m.append(m.zeros((2, 3)), m.ones((1, 3)), axis=0),
    # lists NumPy accepts
    lambda m: m.nancumsum([1, m.nan]),
    lambda m: m.nancumprod([[1, m.nan], [2, 3]], axis=1),
    lambda m: m.trapezoid([1, 2, 3]),
    lambda m: m.trapezoid([[1, 2, 3]], x=[4, 6, 9], axis=1),
    # unravel_index in Fortran order
    lambda m: m.unravel_index(m.asarray([31, 41, 13]), (7, 6), order="F"),
    lambda m: m.unravel_index(5, 6, order="F"),
    lambda m: m.unravel_index(m.asarray([[3, 17]]), (2, 3, 4), order="F"),
    # average with weights along several axes (laid out as those axes of a)
    lambda m: m.average(m.arange(8).reshape(2, 2, 2), axis=(0, 1),
                        weights=[[.25, .75], [1, .5]]),
    lambda m: m.average(m.arange(8).reshape(2, 2, 2), axis=(1, 0),
                        weights=[[.25, .75], [1, .5]]),
    lambda m: m.average(m.arange(24.0).reshape(2, 3, 4), axis=(2, 0),
                        weights=m.arange(1.0, 9.0).reshape(4, 2), returned=True),
    lambda m: m.average(m.arange(6).reshape(2, 3), axis=-1, weights=[1, 0, 3],
                        keepdims=True),
    # pad's integer linear ramp: NumPy's float ramp, floored
    lambda m: m.pad(m.asarray([1, 2, 3, 4, 5]), (2, 3), "linear_ramp", end_values=(5, -4)),
    lambda m: m.pad(m.arange(12).reshape(3, 4) * 7, ((1, 2), (3, 0)), "linear_ramp",
                    end_values=((100, -5), (3, 9))),
    lambda m: m.pad(m.arange(5, dtype=m.uint8), 3, "linear_ramp", end_values=200),
    lambda m: m.pad(m.arange(6, dtype=m.int8).reshape(2, 3), 2, "linear_ramp"),
    # a negative count repeats nothing of an empty array (NumPy checks none)
    lambda m: m.repeat(m.asarray(onp.zeros(0, bool)), -1),
    lambda m: m.repeat(m.zeros((0, 2)), -1, axis=0),
    # diff joins prepend/append (NumPy reads a scalar as an array) in the common dtype
    lambda m: m.diff(m.asarray(onp.zeros((0, 0), onp.float16)),
                     prepend=m.asarray(onp.zeros((0, 1), onp.int16))),
    lambda m: m.diff(m.asarray(onp.arange(3, dtype=onp.int8)), prepend=1000),
    lambda m: m.diff(m.asarray([True, False]), n=0, prepend=m.asarray(onp.int8(3))),
    # gradient divides complex differences as NumPy does (Smith's algorithm)
    lambda m: m.gradient(m.asarray(onp.array([complex(onp.inf, onp.inf), 0], onp.complex64))),
    lambda m: m.gradient(m.asarray([complex(0, onp.inf), 1, 2 + 1j]), 0.5),
    # trace is the sum reduction of the diagonal: NumPy's dtypes and bool casts
    lambda m: m.trace(m.asarray([[2j, 1], [1, 0]]), dtype=bool),
    lambda m: m.trace(m.asarray(onp.arange(6, dtype=onp.int8).reshape(2, 3)), offset=1),
    lambda m: m.trace(m.asarray(onp.ones((2, 3, 4), onp.float16)), axis1=-1, axis2=0,
                      dtype=onp.float32),
    # linalg: an empty pinv keeps its dtype; cond's NaN (0 / 0) is inf
    lambda m: m.linalg.pinv(m.asarray(onp.zeros((0, 3), onp.int64))),
    lambda m: m.linalg.cond(m.asarray(onp.zeros((1, 1), onp.float32))),
    lambda m: m.linalg.cond(m.asarray(onp.zeros((2, 2))), 2),
])
def test_values_and_dtypes_are_numpys(call):
    """Results the differential fuzz found off NumPy's: 0-d arrays taken whole
    along axis 0, empty unpacking, NumPy's dtypes of angle, the joins and
    products of int16 with float16 (float32; JAX gives float16), average's,
    and a median that takes the middle value (not its double, which overflows)."""
    assert_same(call(np), call(onp))


@pytest.mark.parametrize("x, y, kw", [
    (onp.arange(4, dtype=onp.float32), onp.float32([1, 3, 2, 5]), {}),
    (onp.arange(4, dtype=onp.int8), onp.array([1, 3, 2, 5], onp.uint8), {"full": True}),
    (onp.arange(4), onp.array([1, 3, 2, 5j]), {"cov": True}),
    (onp.float16([0, 1, 2, 3]), onp.float32([1, 3, 2, 5]), {"w": onp.arange(1.0, 5.0)}),
    # LAPACK's outcome for a column that is not finite: NaN coefficients (all of
    # them), a NaN residual for that column
    (onp.arange(4.0), onp.array([[1, 1], [3, 2], [onp.inf, 3], [5, 4]]), {"full": True}),
])
def test_polyfit_in_numpys_dtypes(x, y, kw):
    """NumPy's steps: a float64 (complex128) Vandermonde matrix whatever ``x``'s
    dtype, ``rcond`` from ``x + 0.0``'s epsilon; a real covariance for real ``x``."""
    got = np.polyfit(np.asarray(x), np.asarray(y), 1, **{
        k: np.asarray(v) if k == "w" else v for k, v in kw.items()})
    with onp.errstate(all="ignore"):
        exp = onp.polyfit(x, y, 1, **kw)
    got, exp = (v if isinstance(v, tuple) else (v,) for v in (got, exp))
    for g, e in zip(got, exp):
        g = onp.asarray(g)
        assert g.shape == onp.shape(e) and (g.ndim == 0 or g.dtype == e.dtype)
        onp.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-9)


def test_clip_and_average_name_the_users_arguments():
    """A named bound or weights of the wrong size: the error names the call
    and the argument the user wrote (clip's max is argument 2; average's
    weights by name), not the ufunc clip/average runs inside."""
    a = np.arange(6.0).reshape(2, 3).tag("b", "feat")
    bad = np.ones(4).tag("feat")
    with pytest.raises(ValueError, match=r"^clip: axis name 'feat' has size 3 in argument "
                                         r"0 \(named shape \{'b': 2, 'feat': 3\}\) but size 4 "
                                         r"in argument 2 \(named shape \{'feat': 4\}\)$"):
        np.clip(a, 0.0, bad)
    with pytest.raises(ValueError, match=r"^clip: .* in argument 1 "):
        np.clip(a, bad, 1.0)
    with pytest.raises(ValueError, match=r"^clip: .* in argument 2 "):
        np.clip(a, max=bad)
    with pytest.raises(ValueError, match=r"^average: axis name 'feat' has size 3 in a "
                                         r"\(named shape \{'b': 2, 'feat': 3\}\) but size 4 "
                                         r"in weights \(named shape \{'feat': 4\}\)$"):
        np.average(a, axis="feat", weights=bad)


@pytest.mark.parametrize("a, b", [(1.0, 1.0), (1, 2), (1e10, 1.00001e10),
                                  (onp.float32(1), 1 + 1e-9j), (onp.nan, onp.nan)])
def test_isclose_of_two_scalars_is_numpys_bool(a, b):
    for kw in ({}, {"equal_nan": True}):
        res, exp = np.isclose(a, b, **kw), onp.isclose(a, b, **kw)
        assert type(res) is type(exp) and res == exp and repr(res) == repr(exp)


def test_numpys_helpers_take_arrays():
    for call in (lambda m: m.min_scalar_type(m.arange(4.0)),
                 lambda m: m.can_cast(m.arange(3), m.int8),
                 lambda m: m.min_scalar_type(m.asarray([300, 2]))):
        assert call(np) == call(onp)


def _set_string(dt, index, value):
    def f(m):
        x = m.zeros(3, dt)
        x[index] = value
        return x
    return f


CASES_NUMPY_TEXT = [      # NumPy's own text (a parse of the user's string)
    ("string into float", ValueError, r"^could not convert string to float: 'a'$",
     _set_string(float, 0, "a")),
    ("string into int", ValueError, r"^invalid literal for int\(\) with base 10: 'a'$",
     _set_string(int, 0, "a")),
    ("strings into complex", ValueError, "complex", _set_string(complex, slice(2), ["1", "b"])),
    ("fromfunction of an int shape", TypeError, r"^fromfunction: shape=3 must be a sequence "
     "of sizes: 'int' object is not iterable$", lambda m: m.fromfunction(lambda i: i, 3)),
    ("pad dict of a bad width", (TypeError, AssertionError), r"^pad: pad_width=\{0: \(1, "
     r"2, 3\)\}: the width of axis 0 must be an int or a \(before, after\) pair of ints",
     lambda m: m.pad(m.arange(3), {0: (1, 2, 3)})),
    ("pad dict of an axis out of range", IndexError, "pad: axis 2 is out of bounds",
     lambda m: m.pad(m.arange(3), {2: 1})),
    ("apply_along_axis over an empty axis", ValueError, "apply_along_axis: cannot apply "
     r"along axis 1 when an iteration dimension is 0 \(shape \(0, 3\)\)",
     lambda m: m.apply_along_axis(sorted, 1, m.zeros((0, 3)))),
]


@pytest.mark.parametrize("case", CASES_NUMPY_TEXT, ids=[c[0] for c in CASES_NUMPY_TEXT])
def test_errors_numpys_text(case):
    _, exc, msg, f = case
    with pytest.raises(exc):
        f(onp)
    with pytest.raises(exc, match=msg):
        f(np)


_B = [[8, 1, 7], [4, 3, 9], [5, 2, 6]]


def _pad_with(vector, pad_width, iaxis, kwargs):
    """NumPy's example of a function ``mode``: fills the pads in place."""
    vector[:pad_width[0]] = kwargs.get("padder", 10)
    vector[len(vector) - pad_width[1]:] = kwargs.get("padder", 10) + iaxis


def _out(fn, positional):
    def f(m):
        out = m.zeros(3, bool)
        x = m.asarray([-onp.inf, 0.0, onp.inf])
        r = getattr(m, fn)(x, out) if positional else getattr(m, fn)(x, out=out)
        return r, out
    return f


@pytest.mark.parametrize("call", [
    lambda m: m.apply_along_axis(sorted, 1, m.asarray(_B)),
    lambda m: m.apply_along_axis(sorted, 0, m.asarray(_B)),
    lambda m: m.apply_along_axis(lambda v: [v[0], float(v[1])] if v[0] > 4 else [0, 1],
                                 1, m.asarray(_B)),
    lambda m: m.apply_along_axis(lambda v: m.diag(v[1:]), -1, m.asarray(_B)),
    lambda m: m.apply_along_axis(m.sum, 1, m.asarray(_B)),
    lambda m: m.isin(m.arange(5), {1, 3}),
    lambda m: m.isin(m.arange(5), {1, 3}, invert=True),
    lambda m: m.isin(m.arange(5), frozenset([1])),
    lambda m: m.frompyfunc(oct, 1, 1)(m.asarray([10, 30, 100])),
    lambda m: m.frompyfunc(lambda a, b: a + b, 2, 1)(m.arange(3), 2),
    lambda m: m.frompyfunc(divmod, 2, 2)(m.arange(4), 3),
    lambda m: m.frompyfunc(lambda a, b: a * b, 2, 1).reduce(m.arange(1, 5)),
    lambda m: m.frompyfunc(lambda a, b: a * b, 2, 1, identity=1).accumulate([2, 3]),
    lambda m: m.pad(m.arange(6).reshape(2, 3), {1: (1, 2)}),
    lambda m: m.pad(m.arange(6).reshape(2, 3), {-2: 1}, mode="edge"),
    lambda m: m.pad(m.arange(6).reshape(2, 3), {0: (0, 1), 1: 2}, constant_values=7),
    lambda m: m.pad(m.arange(6).reshape(2, 3), 2, _pad_with),
    lambda m: m.pad(m.arange(6).reshape(2, 3), {1: (1, 0)}, _pad_with, padder=100),
    _out("isneginf", False), _out("isneginf", True),
    _out("isposinf", False), _out("isposinf", True),
    _set_string(float, slice(2), ["1", "2.5"]), _set_string(int, 1, "7"),
    _set_string(bool, slice(2), ("a", "")), _set_string(complex, 0, "1+2j"),
    _set_string(float, slice(None), onp.asarray(["1", "2", "3"])),
])
def test_crashes_numpy_answers(call):
    """Input NumPy accepts: an untraceable func1d, a set of test elements, an
    array base, a Python ufunc, a dict pad_width, out= by position, strings."""
    assert_same(call(np), call(onp))


@pytest.mark.parametrize("call", [
    lambda m: m.logspace(2, 3, 4, base=[2.0, 3.0]),
    lambda m: m.logspace(2, 3, 4, base=[2.0, 3.0], axis=-1),
    lambda m: m.logspace([1, 2], 3, 3, base=[[2.0], [4.0]], endpoint=False),
    lambda m: m.logspace(0, 2, 3, base=m.asarray([2, 10]), dtype=int),
    lambda m: m.logspace(2, 3, 4),
])
def test_logspace_of_an_array_base(call):
    """NumPy 2's array ``base`` (XLA's pow may differ from NumPy's in the last bit)."""
    assert_same(call(np), call(onp), close=True)


def test_pad_by_a_function_needs_concrete_positional_data():
    msg = (r"^pad: mode='_pad_with' \(a function\) fills NumPy's vectors on the host: it "
           "takes a concrete array without named axes")
    with pytest.raises(TypeError, match=msg + r" \(got named shape \{'b': 2\}\)"):
        np.pad(np.ones((2, 3)).tag("b", None), 1, _pad_with)
    with pytest.raises(TypeError, match=msg + ".*traced"):
        jax.jit(lambda v: np.pad(v, 1, _pad_with))(np.ones(3))

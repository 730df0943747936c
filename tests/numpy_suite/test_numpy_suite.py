"""NumPy's own unit tests pass against namedarray: NumPy's installed test files
(``numpy_suite_runner.FILES``: lib, _core, linalg and fft tests) run with every
public NumPy name bound to namedarray's, ``numpy.testing`` and NumPy's private
helpers staying NumPy's (``numpy_suite_runner.py``).  Only the tests NumPy
itself passes count (first 3 parametrizations of each test function).

CI runs a fixed slice (``SLICE``: fast files, ~1.5 min); ``NAMEDARRAY_NUMPY_SUITE=all``
runs every file (most of an hour on two cores) against the whole-set rows of
``BOUNDS``.  The bounds are on the tests passing
(at least) and the value mismatches (at most: a silent wrong value, dtype or
view is the worst defect), and tighten as fixes land.  ``DEVIATIONS`` are the
tests that fail on purpose (not counted as mismatches); each must still fail,
so the table cannot go stale.
The environment passes through: ``NAMEDARRAY_HOST_TIER=off`` measures the suite
with every call compiled (``BOUNDS`` has a row for it).
"""
from __future__ import annotations

import os

import pytest

import numpy_suite_runner as ns

FULL = os.environ.get("NAMEDARRAY_NUMPY_SUITE") == "all"
HOST_TIER = os.environ.get("NAMEDARRAY_HOST_TIER", "on").lower() not in ("off", "0", "false")
#: the CI slice: files whose tests run in seconds
SLICE = ("lib/tests/test_shape_base.py", "lib/tests/test_type_check.py",
         "lib/tests/test_index_tricks.py", "lib/tests/test_ufunclike.py")
#: (whole set?, host tier on?) -> (tests NumPy passes at least, of them passing
#: at least, value mismatches at most; ``DEVIATIONS`` and ``UNCOUNTED`` not
#: counted).  Measured: the slice passes 175 of 194 with 1 mismatch besides the
#: deviations (168 and 16 before this round's lib rules; 163 and 18 before the
#: host-data and result-kind rules), host tier on and off alike.  The whole set,
#: with NumPy's memory order for Fortran arrays, the ufunc override protocol
#: and non-binding C functions: host tier on 2206 of 2419 (91.2%) with no
#: mismatch besides the deviations, 15 timeouts; host tier off 2182 (90.2%)
#: with none, 35 timeouts (every call compiles; both measured side by side on a
#: loaded 2-core machine, so the floors leave room for timeouts).  Before them:
#: 2183 with 29 (host on), 2172 with 6 (off); 2112 and 141 before this round's
#: lib, umath and indexing rules, 1810 and 211 before the family rules.
#: Measured again after the long fuzz's result-kind and ufunc-keyword fixes
#: and clip's Array API signature, beside two other heavy runs (load up to 9):
#: host on 2189 of 2419 (90.5%), host off 2176 of 2418 with 39 timeouts (its
#: five files with timeouts rerun alone: 2189), no mismatch besides the
#: deviations either way.
#: Measured again after the integer-division warnings, the ufunc out= forms,
#: host out= written in place and NumPy's small arrays and seeded draws
#: answered on the host (timeouts of fftshift, the strided log/exp and
#: test_linalg's collection gone): host on 2239 of 2419 (92.6%), 685 s, alone
#: on the machine; 3 mismatches besides the deviations, all
#: test_fftn_out_argument[True-complex-*]: an in-place ifftn into a Fortran-
#: order out made on a device (zeros_like of a transposed host view) is
#: compiled, and XLA's FFT differs from NumPy's pocketfft, which gave the
#: expected value on the host, in the last bits (4e-16).  Measured again
#: after zeros_like of host data in another memory order lives on the host
#: (those three pass): 2242 of 2419, 699 s, no mismatch besides the
#: deviations; three einsum/full tests ran just over the 20 s limit there
#: that pass alone (test_einsum.py alone: 57 of 59), so 2245.  Measured
#: again after NumPy's ufuncs count as ``np.ufunc``, the override protocol
#: asks ``out=`` and ``where=`` too, and other libraries' ufuncs run on NumPy
#: copies (``foreign.foreign_ufunc``): 2259 of 2419 (93.4%), each file run on
#: its own, no mismatch besides the deviations (umath 293 -> 307 of 332).
BOUNDS = {
    (True, True): (2400, 2245, 0),
    (True, False): (2400, 2160, 2),
    (False, True): (194, 175, 1),
    (False, False): (194, 175, 1),
}

#: why a test fails on purpose
TYPE_IDENTITY = ("compares type(result) with np.ndarray by identity: a result's "
                 "runtime class is NamedArray (or its view kind), of which np.ndarray "
                 "is the abstract class (isinstance holds); checked to fail for this "
                 "reason alone (passes with type() mapping NamedArray to np.ndarray)")
SCALAR_TYPE = ("compares type(result) with (or isinstance of it) a NumPy scalar type: "
               "a scalar result "
               "computed here is a NamedArray of NumPy's scalar kind (repr "
               "np.float64(0.0), immutable, not an array), not an instance of "
               "numpy.float64; checked to fail for this reason alone")
HOST_TYPE = ("compares type(result) with np.ndarray where the result is data JAX "
             "cannot hold (object, void), which is NumPy's own ndarray (DESIGN 6c) of "
             "class numpy.ndarray; np.ndarray here is namedarray's class, of which "
             "NumPy's arrays are instances (isinstance holds); checked to pass with "
             "isinstance")
NUMPY_PRIVATE = ("calls a private NumPy helper (kept NumPy's by the runner), which "
                 "converts a NamedArray into a new NumPy array: `result is arr` cannot "
                 "hold for a NamedArray argument")
ARRAY_WRAP = ("relies on an operand's __array_wrap__/__array_priority__ (a class that is "
              "not an array): namedarray's ufuncs have no __array_wrap__ protocol "
              "(docs/differences.md) and return a NamedArray")
ALIGNED = ("checks flags.aligned of a view at an odd byte offset: a device array is "
           "always aligned (setflags(align=False) raises, docs/differences.md), and the "
           "test's second half writes through view(float) of float16 data, which is "
           "read-only here (a write raises, never lost); its count_nonzero is NumPy's")
REFCOUNT = ("counts sys.getrefcount of a dtype or of a Python int in a shape around "
            "calls: the first call of a path fills JAX's caches (dtype canonicalization, "
            "issubdtype, abstract shapes, programs compiled for a shape), which hold "
            "references to them; repeated calls add none (no leak), so the test passes "
            "or fails by whether an earlier test warmed the path")
SUBNORMAL = ("needs gradual underflow: compiled XLA code on the CPU flushes subnormals "
             "(docs/differences.md, 'Subnormal numbers'); passes on the host tier")
ROUNDING = ("compares a compiled complex result with per-element ones bit for bit: "
            "XLA's complex products (fused multiply-add) and transcendental functions "
            "differ in the last bit (docs/differences.md, 'Rounding of fused "
            "multiply-adds'); passes on the host tier (NumPy's bits)")
UFUNC_OBJECT = ("inspects the ufunc object's own __dict__ (NumPy's C type holds only "
                "__module__, __qualname__ and __signature__ there); namedarray's ufunc is a "
                "Python object, equal to NumPy's (same hash), whose attributes live in its "
                "__dict__; setting __doc__ works")
ARRAY_API_CLIP = ("calls np.clip(a, 2) to see NumPy's TypeError asking for a_max: namedarray's "
                  "clip has the Array API's signature clip(x, min, max), so one positional "
                  "bound is min (docs/differences.md, 'Other differences')")
SUBCLASS = ("makes a subclass of np.ndarray: namedarray keeps no subclasses "
            "(no __array_wrap__/__array_finalize__) and refuses to make one with a "
            "TypeError rather than silently drop it")

#: test id -> why namedarray fails it on purpose (docs/differences.md says why)
DEVIATIONS: dict[str, str] = {
    "_core/test_numeric.py::TestClip::test_clip_min_max_args": ARRAY_API_CLIP,
    "_core/test_numeric.py::TestRequire::test_ensure_array": TYPE_IDENTITY,
    "lib/test_arraysetops.py::TestUnique::test_unique_zero_sized": TYPE_IDENTITY,
    "lib/test_shape_base.py::TestApplyAlongAxis::test_axis_insertion": TYPE_IDENTITY,
    "lib/test_shape_base.py::TestSqueeze::test_basic": TYPE_IDENTITY,
    "lib/test_type_check.py::TestNanToNum::test_array": TYPE_IDENTITY,
    "lib/test_type_check.py::TestNanToNum::test_generic": TYPE_IDENTITY,
    "lib/test_type_check.py::TestNanToNum::test_do_not_rewrite_previous_keyword":
        TYPE_IDENTITY,
    "linalg/test_linalg.py::TestEig::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestEig::test_generalized_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestEig::test_generalized_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestEig::test_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestQR::test_mode_all_but_economic": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestInv::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestInv::test_generalized_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestInv::test_generalized_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestInv::test_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestLstsq::test_empty_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestLstsq::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestLstsq::test_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestLstsq::test_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_empty_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_generalized_empty_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_generalized_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_generalized_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_generalized_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_nonsq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinv::test_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinvHermitian::test_empty_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinvHermitian::test_generalized_empty_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinvHermitian::test_generalized_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestPinvHermitian::test_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVD::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVD::test_generalized_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVD::test_generalized_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVD::test_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVDHermitian::test_empty_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVDHermitian::test_generalized_empty_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVDHermitian::test_generalized_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSVDHermitian::test_herm_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSolve::test_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSolve::test_generalized_empty_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSolve::test_generalized_sq_cases": TYPE_IDENTITY,
    "linalg/test_linalg.py::TestSolve::test_sq_cases": TYPE_IDENTITY,
    "lib/test_function_base.py::TestQuantile::test_correct_quantile_value": SCALAR_TYPE,
    "lib/test_type_check.py::TestNanToNum::test_complex_bad": SCALAR_TYPE,
    "lib/test_type_check.py::TestNanToNum::test_complex_bad2": SCALAR_TYPE,
    "lib/test_type_check.py::TestNanToNum::test_complex_good": SCALAR_TYPE,
    "lib/test_type_check.py::TestNanToNum::test_float": SCALAR_TYPE,
    "lib/test_type_check.py::TestNanToNum::test_integer": SCALAR_TYPE,
    "lib/test_ufunclike.py::TestUfunclike::test_scalar": SCALAR_TYPE,
    "linalg/test_linalg.py::TestDet::test_zero": SCALAR_TYPE,
    "_core/test_function_base.py::TestGeomspace::test_subclass": SUBCLASS,
    "_core/test_function_base.py::TestLinspace::test_subclass": SUBCLASS,
    "_core/test_function_base.py::TestLogspace::test_subclass": SUBCLASS,
    "_core/test_indexing.py::TestSubclasses::test_basic": SUBCLASS,
    "_core/test_numeric.py::TestNonzero::test_return_type": SUBCLASS,
    "_core/test_numeric.py::TestResize::test_subclass": SUBCLASS,
    "_core/test_umath.py::test_outer_subclass_preserve[arr0]": SUBCLASS,
    "lib/test_function_base.py::TestAverage::test_subclasses": SUBCLASS,
    "lib/test_function_base.py::TestPiecewise::test_subclasses": SUBCLASS,
    "lib/test_function_base.py::TestVectorize::test_subclasses": SUBCLASS,
    "lib/test_shape_base.py::TestApplyAlongAxis::test_subclass": SUBCLASS,
    "lib/test_shape_base.py::TestApplyAlongAxis::test_subclass_preservation": SUBCLASS,
    "lib/test_stride_tricks.py::test_subclasses": SUBCLASS,
    "_core/test_indexing.py::TestIndexing::test_nonbaseclass_values": SUBCLASS,
    "_core/test_indexing.py::TestSubclasses::test_fancy_on_read_only": SUBCLASS,
    "_core/test_indexing.py::TestSubclasses::test_finalize_gets_full_info": SUBCLASS,
    "_core/test_numeric.py::TestAllclose::test_return_class_is_ndarray": SUBCLASS,
    "_core/test_numeric.py::TestKeepdims::test_raise": SUBCLASS,
    "_core/test_numeric.py::TestLikeFuncs::test_empty_like": SUBCLASS,
    "_core/test_numeric.py::TestLikeFuncs::test_filled_like": SUBCLASS,
    "_core/test_numeric.py::TestLikeFuncs::test_ones_like": SUBCLASS,
    "_core/test_numeric.py::TestLikeFuncs::test_zeros_like": SUBCLASS,
    "_core/test_numeric.py::TestRequire::test_preserve_subtype": SUBCLASS,
    "_core/test_umath.py::TestOut::test_out_wrap_no_leak": SUBCLASS,
    "_core/test_umath.py::TestOut::test_out_wrap_subok": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_failing_out_wrap": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_priority_with_scalar": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_ufunc_override": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_ufunc_override_where": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_ufunc_override_with_super": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_wrap_out": SUBCLASS,
    "_core/test_umath.py::TestSpecialMethods::test_wrap_with_iterable": SUBCLASS,
    "_core/test_umath.py::TestSubclass::test_subclass_op": SUBCLASS,
    "_core/test_umath.py::test_outer_bad_subclass": SUBCLASS,
    "lib/test_arraysetops.py::TestUnique::test_unique_subclass": SUBCLASS,
    "lib/test_function_base.py::TestDelete::test_subclass": SUBCLASS,
    "lib/test_function_base.py::TestDigitize::test_return_type": SUBCLASS,
    "lib/test_function_base.py::TestInsert::test_subclass": SUBCLASS,
    "lib/test_function_base.py::TestMedian::test_subclass": SUBCLASS,
    "lib/test_function_base.py::TestMedian::test_subclass2[arr0]": SUBCLASS,
    "lib/test_function_base.py::TestMedian::test_subclass2[arr1]": SUBCLASS,
    "lib/test_function_base.py::TestMedian::test_subclass2[nan]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_ArgminArgmax::test_subclass": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_CumSumProd::test_subclass": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MeanVarStd::test_subclass": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_initial[d]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_initial[e]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_initial[f]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_subclass": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_where[d]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_where[e]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_MinMax::test_where[f]": SUBCLASS,
    "lib/test_nanfunctions.py::TestNanFunctions_SumProd::test_subclass": SUBCLASS,
    "lib/test_stride_tricks.py::TestSlidingWindowView::test_subok": SUBCLASS,
    "linalg/test_linalg.py::TestCholesky::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestEig::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestEigh::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestEigvals::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestEigvalsh::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestInv::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestSolve::test_0_size": SUBCLASS,
    "linalg/test_linalg.py::TestSolve::test_0_size_k": SUBCLASS,
    "linalg/test_linalg.py::TestSolve::test_1_d": SUBCLASS,
    "lib/test_shape_base.py::TestApplyAlongAxis::test_preserve_subclass": SUBCLASS,
    "lib/test_shape_base.py::TestKron::test_return_type": SUBCLASS,
    "lib/test_ufunclike.py::TestUfunclike::test_fix_with_subclass": SUBCLASS,
    "lib/test_function_base.py::TestDiff::test_n": TYPE_IDENTITY,
    "lib/test_arraysetops.py::TestUnique::test_unique_1d": TYPE_IDENTITY,
    "lib/test_nanfunctions.py::test__nan_mask[arr0-expected0]": TYPE_IDENTITY,
    "_core/test_indexing.py::TestIndexing::test_scalar_return_type": SCALAR_TYPE,
    "_core/test_umath.py::TestSpecialMethods::test_ufunc_docstring": UFUNC_OBJECT,
    "_core/test_indexing.py::TestIndexing::test_void_scalar_empty_tuple": HOST_TYPE,
    "lib/test_function_base.py::TestPercentile::test_fraction": HOST_TYPE,
    "lib/test_function_base.py::TestQuantile::test_fraction": HOST_TYPE,
    "lib/test_nanfunctions.py::test__replace_nan": NUMPY_PRIVATE,
    "_core/test_umath.py::TestSpecialMethods::test_priority": ARRAY_WRAP,
    "_core/test_numeric.py::TestNonzero::test_count_nonzero_non_aligned_array": ALIGNED,
}
if not HOST_TIER:   # every call compiled: XLA's arithmetic (the host tier's is NumPy's)
    DEVIATIONS.update({
        "_core/test_function_base.py::TestLinspace::test_denormal_numbers": SUBNORMAL,
        "_core/test_function_base.py::TestGeomspace::test_start_stop_array": ROUNDING,
    })

LAPACK_RANK = ("lstsq of a matrix whose least singular value (~5e-16) is at the rounding "
               "level: its rank for rcond=-1 is whatever the CPU's LAPACK kernel gives (4 "
               "with this machine's NumPy); a compiled SVD (XLA's, host tier off or under "
               "jit) may count 3; on the host tier it is NumPy's own lstsq")

#: test id -> why it is not counted either way: it passes or fails by test
#: order, or by the machine's rounding
UNCOUNTED: dict[str, str] = {
    "linalg/test_linalg.py::TestLstsq::test_rcond": LAPACK_RANK,
    "_core/test_indexing.py::TestIndexing::test_small_regressions": REFCOUNT,
    "lib/test_function_base.py::TestBincount::test_dtype_reference_leaks": REFCOUNT,
    "_core/test_numeric.py::TestCreationFuncs::test_for_reference_leak": REFCOUNT,
}


#: the suite runs in subprocesses; on an accelerator run it on its own
#: (``python tests/numpy_suite/numpy_suite_runner.py``), since this process holds it
IN_SUBPROCESSES = pytest.mark.cpu_only(
    "NumPy's tests run in subprocesses, which cannot open the accelerator this "
    "process holds: run tests/numpy_suite/numpy_suite_runner.py on its own")


@pytest.fixture(scope="module")
def results():
    return ns.measure(ns.FILES if FULL else SLICE)["tests"]


def test_rewrite_binds_public_names_to_the_shim():
    src = ("import numpy as np\nimport numpy\nfrom numpy import fft, pi\n"
           "from numpy.testing import assert_\nfrom numpy.linalg import norm\n"
           "    import numpy.ma as ma\nimport numpy._core.umath as ncu\n"
           "from numpy.lib._index_tricks_impl import ndindex\n"
           "from numpy.exceptions import AxisError\nimport numpy.linalg.lapack_lite\n")
    assert ns.rewrite(src).splitlines() == [
        "import numpy_shim as np", "import numpy_shim as numpy",
        "from numpy_shim import fft, pi", "from numpy.testing import assert_",
        "from numpy_shim.linalg import norm", "    import numpy_shim.ma as ma",
        "import numpy._core.umath as ncu",
        "from numpy.lib._index_tricks_impl import ndindex",
        "from numpy.exceptions import AxisError", "import numpy.linalg.lapack_lite"]


@IN_SUBPROCESSES
def test_numpy_tests_pass(results):
    floor_total, floor_passed, most_mismatches = BOUNDS[FULL, HOST_TIER]
    c = ns.counts(results)
    mismatches = [ns.describe(k, r) for k, (kind, r) in sorted(results.items())
                  if kind == "mismatch" and r["id"] not in DEVIATIONS
                  and r["id"] not in UNCOUNTED]
    summary = ", ".join(f"{n} {k}" for k, n in c.items())
    assert len(results) >= floor_total, f"only {len(results)} tests NumPy passes ran"
    assert c["passed"] >= floor_passed, f"{c['passed']} of {len(results)} pass: {summary}"
    assert len(mismatches) <= most_mismatches, (
        f"{len(mismatches)} value mismatches (at most {most_mismatches}); {summary}:\n"
        + "\n".join(mismatches))


@IN_SUBPROCESSES
def test_deviations_still_fail(results):
    ids = {r["id"]: kind for kind, r in results.values() if r}
    seen = {t: ids[t] for t in DEVIATIONS if t in ids}
    if FULL:
        assert set(seen) == set(DEVIATIONS), set(DEVIATIONS) - set(seen)
    assert all(kind != "passed" for kind in seen.values()), \
        [t for t, kind in seen.items() if kind == "passed"]

"""The shared rules (docs/design.md §5a) over the whole table of non-ufunc
functions: integer data stays integer (rule 1), quantiles as NumPy forms them,
every NumPy keyword accepted or refused clearly (rule 7), NumPy's result kinds
(rule 2), in-place writes (rule 4) and NumPy's special values (rule 6)."""
import inspect
import warnings

import jax
import numpy as onp
import pytest

import namedarray as np
from namedarray.core.array import NamedArray, is_scalar

_BIG = onp.array([2**62 + 1, 2**62 + 3, 5, -7, 2**53 + 1, 2**62 + 3], dtype=onp.int64)
_BIGM = onp.array([[2**62 + 1, 3], [5, 2**53 + 1]], dtype=onp.int64)
# not called from the table: I/O, callbacks, in-place writers (own rows below),
# uninitialised results, and unique_values (NumPy's order is its hash order)
_NOT_CALLED = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "fromfile",
    "genfromtxt", "fromregex", "memmap", "info", "show_config", "show_runtime", "test",
    "get_include", "seterr", "seterrcall", "setbufsize", "set_printoptions",
    "printoptions", "vectorize", "frompyfunc", "fromfunction", "piecewise",
    "apply_along_axis", "apply_over_axes", "nditer", "nested_iters", "einsum_path",
    "broadcast", "place", "put", "putmask", "copyto", "fill_diagonal", "put_along_axis",
    "bmat", "asmatrix", "empty_like", "empty", "unique_values", "from_dlpack",
    "frombuffer", "fromstring", "fromiter", "getbufsize", "geterr", "geterrcall",
    "get_printoptions"}


def _public(mod_o, mod_n, ufuncs=False):
    for name in sorted(dir(mod_o)):
        if name.startswith("_") or name in _NOT_CALLED or not hasattr(mod_n, name):
            continue
        f = getattr(mod_o, name)
        if callable(f) and not isinstance(f, type) and (ufuncs or
                                                        not isinstance(f, onp.ufunc)):
            yield name, f, getattr(mod_n, name)


def _same(e, r):
    ev = e if isinstance(e, (tuple, list)) else (e,)
    rv = r if isinstance(r, (tuple, list)) else (r,)
    return len(ev) == len(rv) and all(
        onp.asarray(a).dtype == onp.asarray(b).dtype and
        onp.array_equal(onp.asarray(a), onp.asarray(b), equal_nan=True)
        for a, b in zip(ev, rv))


def _integer_table():
    """Every public function (namespace, linalg, fft) that NumPy computes in
    integers for int64 input: (name, ours, args, NumPy's result)."""
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for prefix, mo, mn in (("", onp, np), ("linalg.", onp.linalg, np.linalg),
                               ("fft.", onp.fft, np.fft)):
            for name, of, nf in _public(mo, mn, ufuncs=True):
                for args in ((_BIG,), (_BIGM,), (_BIG, _BIG), (_BIGM, _BIGM)):
                    try:
                        e = of(*args)
                    except Exception:
                        continue
                    vals = e if isinstance(e, (tuple, list)) else (e,)
                    if vals and all(isinstance(v, (onp.ndarray, onp.generic)) and
                                    v.dtype.kind in "iu" for v in vals):
                        rows.append((prefix + name, nf, args, e))
                    break
    return rows


def test_integer_results_are_exact_over_the_table():
    rows = _integer_table()
    assert len(rows) > 150      # the table, not a handful of names
    bad = []
    for name, nf, args, e in rows:
        try:
            r = nf(*[np.array(a) for a in args])
        except Exception as ex:     # noqa: BLE001 (reported below)
            bad.append(f"{name}: {type(ex).__name__}: {ex}")
            continue
        if not _same(e, r):
            bad.append(f"{name}: {e!r} != {r!r}")
    assert not bad, "\n".join(bad)


_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")


@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("method", _DISCRETE)
def test_discrete_quantiles_of_integers_are_exact(fn, method):
    a = onp.array([2**53 + 1, 2**53 + 3, 5], dtype=onp.int64)
    q = 50 if "percentile" in fn else 0.5
    e = getattr(onp, fn)(a, q, method=method)
    r = getattr(np, fn)(np.array(a), q, method=method)
    assert repr(r) == repr(e) and int(r) == 2**53 + 1


def test_other_integer_paths_are_exact():
    x = onp.array([2**30, 2**30 + 1, 3, 7], dtype=onp.int32)
    for mode in ("mean", "median"):
        assert _same(onp.pad(x, 2, mode=mode), np.pad(np.array(x), 2, mode=mode))
    ms = [onp.array([[2**40, 3], [1, 2]]), onp.array([[2**20 + 1, 5], [7, 2**21]]),
          onp.array([[3, 1], [1, 2**11]])]
    assert _same(onp.linalg.multi_dot(ms), np.linalg.multi_dot([np.array(m) for m in ms]))
    z = np.zeros(3, np.int64)
    np.place(z, [True, False, True], [2**62 + 1])
    assert onp.asarray(z).tolist() == [2**62 + 1, 0, 2**62 + 1]
    with pytest.raises(TypeError, match=r"place: Cannot cast array data from "
                                        r"dtype\('float64'\) to dtype\('int64'\)"):
        np.place(z, [True, False, True], onp.array([1.5]))


_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
            "normal_unbiased", "lower", "higher", "midpoint", "nearest")
_QDATA = {
    "int64": onp.array([[2**62 + 1, 2**62 + 3, 5, -2**62], [7, 2**53 + 1, 2**53 + 3, 1]]),
    "float16": onp.array([[0.3, -1.5, 2.25, onp.inf], [1.0, -onp.inf, 0.7, 0.1]],
                         onp.float16),
    "float32nan": onp.array([[0.3, -1.5, 2.25, 4.5], [1.0, onp.nan, 0.7, 0.1]],
                            onp.float32),
}
_QS = [0.3, onp.float32(0.7), [0.0, 0.25, 0.4, 1.0], onp.array([[0.1, 0.9], [0.5, 1.0]])]


@pytest.mark.parametrize("method", _METHODS)
def test_quantile_every_method_every_q_shape(method):
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for (dn, d), q, (fn, axis) in ((dq, q, fa) for dq in _QDATA.items() for q in _QS
                                       for fa in (("quantile", None),
                                                  ("nanpercentile", 1))):
            if dn == "float16" and not isinstance(q, (list, onp.ndarray)) and \
                    jax.default_backend() == "tpu":
                # (a TPU computes float16 steps at float32's precision,
                # docs/differences.md: q=0.3's virtual index lands across 0.5)
                continue
            qq = q if fn == "quantile" else (
                q * 100 if isinstance(q, float) else onp.multiply(q, 100))
            e = getattr(onp, fn)(d, qq, axis=axis, method=method)
            r = getattr(np, fn)(np.array(d), qq, axis=axis, method=method)
            if repr(e) != repr(r) or not _same(e, r):
                bad.append(f"{fn} {dn} q={q!r} axis={axis}: {e!r} != {r!r}")
    assert not bad, "\n".join(bad)


def test_quantile_over_a_named_axis_with_a_vector_q():
    x = onp.arange(24.0).reshape(4, 6) ** 1.5
    t = np.array(x).tag("b", None)
    for method in ("linear", "nearest"):
        r = np.quantile(t, [[0.2, 0.7]], axis="b", method=method)
        assert r.shape == (1, 2, 6) and _same(onp.quantile(x, [[0.2, 0.7]], axis=0,
                                                           method=method), r)
    xi = onp.array([[2**62 + 1, 3], [5, 2**62 + 3]])
    r = np.quantile(np.array(xi).tag("b", None), [0.5, 1.0], axis="b", method="lower")
    assert _same(onp.quantile(xi, [0.5, 1.0], axis=0, method="lower"), r)


def test_weighted_quantiles():
    d = _QDATA["int64"]
    for w, axis in [(onp.array([1, 2, 0, 3]), 1), (onp.array([[1, 2, 0, 3], [0, 0, 1, 1]]),
                                                    None), (onp.array([1.0, 2.0]), 0)]:
        for q in (0.5, [0.0, 0.3, 1.0]):
            e = onp.quantile(d, q, axis=axis, method="inverted_cdf", weights=w)
            r = np.quantile(np.array(d), q, axis=axis, method="inverted_cdf", weights=w)
            assert repr(e) == repr(r) and _same(e, r)
    with pytest.raises(ValueError, match="quantile: Only method 'inverted_cdf' supports "
                                         "weights. Got: linear."):
        np.quantile(np.array(d), 0.5, axis=1, weights=[1, 1, 1, 1])
    with pytest.raises(ValueError, match="quantile: Weights must be non-negative."):
        np.quantile(np.array(d), 0.5, axis=1, method="inverted_cdf", weights=[1, -1, 1, 1])


# -- rule 7: NumPy's keywords ------------------------------------------------

# keywords NumPy takes that are refused here: (function, keyword) -> (reason,
# the pinned error)
_REFUSED = {
    ("einsum_path", "einsum_call"): (
        "NumPy's internal hand-over to einsum (the path plus its contraction list)",
        (TypeError, r"einsum_path\(\) got an unexpected keyword argument 'einsum_call'")),
}
# functions whose **kwargs pass NumPy's keywords on (to NumPy's own host
# function or to the engine that takes them); each is called below or in its
# family's tests
_FORWARDING = {"array2string", "array_repr", "array_str", "fromfile", "fromregex",
               "genfromtxt", "intersect1d", "loadtxt",
               "savetxt", "savez", "savez_compressed", "setxor1d", "std", "var"}
# taken by the wrapper around the declaration (out=)
_BY_WRAPPER = {("linalg.multi_dot", "out")}


def _missing_keywords():
    out = {}
    for prefix, mo, mn in (("", onp, np), ("linalg.", onp.linalg, np.linalg),
                           ("fft.", onp.fft, np.fft)):
        for name in sorted(dir(mo)):
            of = getattr(mo, name)
            if name.startswith("_") or not hasattr(mn, name) or not callable(of) or \
                    isinstance(of, (type, onp.ufunc)):
                continue
            try:
                theirs = inspect.signature(of).parameters
            except (TypeError, ValueError):
                continue
            ours = inspect.signature(getattr(mn, name)).parameters
            if any(p.kind is p.VAR_KEYWORD for p in ours.values()):
                missing = [k for k, p in theirs.items() if k not in ours and p.kind in (
                    p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
                if missing:
                    out[prefix + name] = "**kwargs"
                continue
            for k, p in theirs.items():
                if k not in ours and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                    out.setdefault(prefix + name, []).append(k)
    return out


def test_every_numpy_keyword_is_taken_or_refused():
    missing = _missing_keywords()
    forwarding = {n for n, v in missing.items() if v == "**kwargs"}
    assert forwarding == _FORWARDING
    listed = {(n, k) for n, ks in missing.items() if ks != "**kwargs" for k in ks}
    assert listed == set(_REFUSED) | _BY_WRAPPER


@pytest.mark.parametrize("key", sorted(_REFUSED))
def test_refused_keywords_say_so(key):
    name, kw = key
    exc, msg = _REFUSED[key][1]
    args = {"einsum_path": ("i,i", np.ones(2), np.ones(2))}[name]
    with pytest.raises(exc, match=msg):
        getattr(np, name)(*args, **{kw: 2.0})


def test_keywords_numpy_accepts():
    x = onp.arange(6.0).reshape(2, 3)
    calls = [
        ("isin", ([1, 2, 5], [2, 5]), {"kind": "table"}),
        ("kaiser", (4,), {"beta": 0.0}),        # (a flat window: exact compiled too)
        ("isin", ([1, 2, 5], [2, 5]), {"kind": "sort", "invert": True}),
        ("concat", ([onp.ones(2), onp.zeros(2)],), {"dtype": onp.float32}),
        ("concat", ([x, x],), {"axis": 1}),
        ("eye", (2,), {"order": "F", "like": None}),
        ("identity", (2,), {"like": None}),
        ("ones_like", (x,), {"order": "C", "subok": False}),
        ("zeros_like", (x,), {"order": "K"}),
        ("broadcast_to", (onp.ones(3), (2, 3)), {"subok": True}),
        ("permute_dims", (x,), {}),
        ("fft.fft2", (x,), {"axes": (0,)}),
        ("fft.irfft2", (x,), {"axes": (1,)}),
        ("fft.fft2", (x,), {"s": (2,), "axes": (1,)}),
        ("intersect1d", ([3, 1, 2], [2, 3]), {"return_indices": True}),
        ("std", (x,), {"mean": onp.mean(x, keepdims=True)}),
    ]
    for name, args, kw in calls:
        fo, fn = onp, np
        for part in name.split("."):
            fo, fn = getattr(fo, part), getattr(fn, part)
        e = fo(*args, **kw)
        r = fn(*[np.array(a) if isinstance(a, onp.ndarray) else a for a in args], **kw)
        assert _same(e, r), (name, kw, e, r)
    g = np.meshgrid([1, 2], [3, 4, 5], copy=False)
    assert isinstance(g, tuple) and _same(onp.meshgrid([1, 2], [3, 4, 5]), g)
    with pytest.raises(ValueError, match="read-only"):
        g[0][0, 0] = 9
    o = np.zeros(3)
    np.cumulative_sum(np.ones(3), out=o)
    assert onp.asarray(o).tolist() == [1.0, 2.0, 3.0]
    o = np.zeros(2, complex)
    np.fft.fft(np.ones(2), out=o)
    assert onp.asarray(o).tolist() == [2, 0]


def test_keywords_checked_as_numpy_checks_them():
    with pytest.raises(ValueError, match="einsum: order must be one of 'C', 'F', 'A', "
                                         "or 'K' \\(got 'W'\\)"):
        np.einsum("", 0, order="W")
    with pytest.raises(TypeError, match="einsum: order must be str, not int"):
        np.einsum("", 0, order=1)
    assert int(np.einsum("", 0, order="k")) == 0
    with pytest.raises(ValueError, match="isin: Invalid kind: 'hash'"):
        np.isin([1], [1], kind="hash")
    with pytest.raises(ValueError, match="isin: The 'table' method is only supported"):
        np.isin([1.5], [1.5], kind="table")
    with pytest.raises(ValueError, match="eye: order must be one of"):
        np.eye(2, order="Q")


# -- rule 2: result kinds ------------------------------------------------------

def _kind(v):
    if isinstance(v, NamedArray):
        return "scalar" if is_scalar(v) else ("0d-array" if v.ndim == 0 else "array")
    if isinstance(v, onp.ndarray):
        return "0d-array" if v.ndim == 0 else "array"
    if isinstance(v, onp.generic):
        return "scalar"
    if isinstance(v, tuple):
        return type(v).__name__ + "(" + ",".join(_kind(x) for x in v) + ")"
    if isinstance(v, list):
        return "list(" + ",".join(_kind(x) for x in v) + ")"
    return type(v).__name__


# known differences left to the engines' owners: (name, input shapes)
_KIND_LEFT = {
    "broadcast_shapes": "Python ints in NumPy",
    "diag_indices": "a 0-d array as n", "tril_indices": "a 0-d array as n",
    "triu_indices": "a 0-d array as n", "histogramdd": "0-d and 1-d samples",
    "angle": "deg= given an array", "convolve": "0-d operands",
    "fft.fftn": "a 0-d array's fftn",
    "fft.ifftn": "a 0-d array's ifftn",
}


def test_result_kinds_over_the_table():
    """Every public function, given 0-d arrays of each kind, NumPy scalars or a
    vector (with a second argument 0 or 1 where NumPy takes one): NumPy's
    scalar, 0-d array, tuple or Python value.  Before: flip, nan_to_num, clip
    and round of 0-d arrays, and zeros_like, roll, pad, block, select,
    apply_along_axis, isin of NumPy scalars, had the other kind."""
    plain = [(onp.array(2.5),), (onp.array([1.5, 2.5, 0.5]),)]
    # (more kinds of argument: where namedarray refuses one, that is not compared)
    inputs = plain + [(onp.array(True),), (onp.float64(2.5),), (onp.array(2.5), 1),
                      (onp.float64(2.5), 1), (onp.array(-1.5 + 1j),)]
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for prefix, mo, mn in (("", onp, np), ("linalg.", onp.linalg, np.linalg),
                               ("fft.", onp.fft, np.fft)):
            for name, of, nf in _public(mo, mn):
                if prefix + name in _KIND_LEFT:
                    continue
                for args in inputs:
                    try:
                        e = of(*args)
                    except Exception:
                        continue
                    try:
                        r = nf(*[np.array(a) if isinstance(a, onp.ndarray) else a
                                 for a in args])
                    except Exception as ex:     # noqa: BLE001 (reported below)
                        r = ex
                    if isinstance(r, Exception) and not any(args is p for p in plain):
                        continue
                    if _kind(e) != _kind(r):
                        bad.append(f"{prefix}{name}{args!r}: NumPy "
                                   f"{_kind(e)}, here {_kind(r)}")
    assert not bad, "\n".join(bad)


def test_named_results_and_python_scalars():
    r = np.unique_counts(np.array([1, 1, 2]))
    assert repr(r) == repr(onp.unique_counts(onp.array([1, 1, 2])))
    assert repr(np.unique_all(np.array([3, 1, 3]))) == repr(onp.unique_all([3, 1, 3]))
    assert repr(np.unique_inverse(np.array([3, 1]))) == repr(onp.unique_inverse([3, 1]))
    p = np.poly([])
    assert type(p) is float and p == 1.0
    assert repr(np.squeeze(np.ones((1, 1)))) == "array(1.)"
    assert repr(np.flip(np.array(3.0))) == repr(onp.flip(onp.array(3.0)))


# -- rule 4: in place ------------------------------------------------------------

def test_nan_to_num_copy_false_writes_into_its_argument():
    z = np.array([np.nan, np.inf, 1.0])
    r = np.nan_to_num(z, copy=False, posinf=7.0)
    assert r is z and onp.asarray(z).tolist() == [0.0, 7.0, 1.0]
    i = np.array([1, 2])
    assert np.nan_to_num(i, copy=False) is i


# -- rule 6: special values --------------------------------------------------------

@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_cumulative_overflow_as_numpy(dt):
    fm = float(onp.finfo(dt).max)
    for data in ([fm, fm, -fm, -fm], [fm, -fm, fm, 1.0], [fm, 2.0, 0.5, -3.0, fm]):
        x = onp.array(data, dtype=dt)
        for f in ("cumsum", "nancumsum", "cumulative_sum"):
            assert _same(getattr(onp, f)(x), getattr(np, f)(np.array(x))), (f, data)
    x = onp.array([1e3] * 120, dtype=dt)
    for f in ("cumprod", "cumulative_prod"):
        e, r = getattr(onp, f)(x), onp.asarray(getattr(np, f)(np.array(x)))
        assert (onp.isinf(e) == onp.isinf(r)).all() and (onp.isnan(e) == onp.isnan(r)).all()


def test_convolve_overflow_as_numpy():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, v in [([1e200, 1e200], [1e200, -1e200]), ([1e308, 1e308, 1, 2], [2.0, -2.0])]:
            for mode in ("full", "same", "valid"):
                e = onp.convolve(a, v, mode)
                assert _same(e, np.convolve(np.array(a), np.array(v), mode)), (a, v, mode)

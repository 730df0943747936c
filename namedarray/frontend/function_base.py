"""NumPy functions whose bad input ``jax.numpy`` answers with garbage, an XLA
error or the wrong class: NumPy's checks first, then the table's declaration
(``wrap(jnp.f)``), and NumPy's result dtypes where ``jax.numpy``'s differ.

>>> import namedarray as np
>>> np.convolve(np.asarray([1, 2, 3]), np.asarray([0, 1]))
array([0, 1, 2, 3])
>>> np.repeat(np.asarray([1, 2]), 2)
array([1, 1, 2, 2])
"""
from __future__ import annotations

import functools
import inspect
import operator

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import config
from ..core.array import NamedArray, normalize_axis, positional
from .creation import asarray, linspace
from .engines.args import numpy_args, numpy_promoted
from .engines.generic import generic, wrap
from .reductions import REDUCTIONS
from .manipulation import _untag_listed, check_py_ints

_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
              "reflect", "symmetric", "wrap", "empty")


def _decl(name, named=None):
    return wrap(numpy_args(getattr(jnp, name), name), name, named=named)


_bincount, _unravel, _moveaxis = _decl("bincount"), _decl("unravel_index"), _decl("moveaxis")
_repeat, _pad = _decl("repeat"), _decl("pad")
_full_like = _decl("full_like")
_apply_along_axis = _decl("apply_along_axis", named="keep")
_isin, _fromfunction = _decl("isin"), _decl("fromfunction")


def _by_parts(jfn, conj):
    """``jfn`` (``jax.numpy``'s convolve or correlate) with complex operands as
    four real ones combined as NumPy's complex products are, ``ac - bd`` and
    ``ad + bc`` (XLA's complex convolution takes three real ones, ``c(a + b)``
    ..., whose sum overflows or meets ``0 * inf`` where NumPy's products do not);
    ``conj``: the second operand is conjugated (correlate)."""
    def f(a, v, mode, **kw):
        a, v = jnp.asarray(a), jnp.asarray(v)
        dt = jnp.result_type(a, v)
        if not jnp.issubdtype(dt, jnp.complexfloating):
            return jfn(a, v, mode, **kw)
        a, v = a.astype(dt), v.astype(dt)
        ar, ai, vr, vi = a.real, a.imag, v.real, v.imag
        s = -1 if conj else 1
        re = jfn(ar, vr, mode) - s * jfn(ai, vi, mode)
        im = s * jfn(ar, vi, mode) + jfn(ai, vr, mode)
        return jax.lax.complex(re, im)
    f.__name__ = f.__qualname__ = jfn.__name__
    return f


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """``numpy.trace``: the sum of the diagonal, by the ``sum`` reduction (its
    dtypes, its ``dtype=`` casts, ``out=``); named axes are batch axes.

    >>> import namedarray as np
    >>> np.trace(np.asarray([[2j, 1], [1, 0]]), dtype=bool)
    np.True_
    """
    x = asarray(a)
    if x.ndim >= 2 and type(axis1) is int and type(axis2) is int and \
            all(-x.ndim <= v < x.ndim for v in (axis1, axis2)) and \
            axis1 % x.ndim == axis2 % x.ndim:
        raise ValueError(f"trace: axis1 and axis2 cannot be the same (axis1={axis1}, "
                         f"axis2={axis2})")
    d = generic("trace", lambda v: jnp.diagonal(v, offset, axis1, axis2), (x,), {})
    return REDUCTIONS["sum"](d, -1, dtype=dtype, out=out)
def _block(arrays):
    """``numpy.block``: the nested blocks joined, in NumPy's common dtype of
    them (``jnp.block`` gives float16 for int16 with float16 blocks).

    >>> import namedarray as np
    >>> np.block([[np.ones(2, dtype=np.int16)], [np.ones(2, dtype=np.float16)]]).dtype
    dtype('float32')
    """
    return jnp.block(numpy_promoted(arrays))


_block.__name__ = _block.__qualname__ = "block"
block = wrap(_block, "block")


def _checked(name, check):
    """``jnp.<name>`` after ``check(*args, **kw)``, which raises NumPy's error,
    returns the arguments to pass on, or returns the result itself (an
    array); NumPy's signature kept."""
    jfn = getattr(jnp, name)

    def f(*args, **kw):
        checked = check(*args, **kw)
        if isinstance(checked, jax.Array):
            return checked
        args, kw = checked
        return jfn(*args, **kw)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = jfn.__doc__
    f.__signature__ = inspect.signature(getattr(onp, name))
    return wrap(numpy_args(f, name), name)


def _whole_0d(a, axis=None, *rest, **kw):
    """Axis 0 (or -1) of a 0-d array is the array, as one element along it
    (NumPy's squeeze, packbits and unpackbits take it)."""
    a = jnp.asarray(a)
    if a.ndim == 0 and axis in (0, -1):
        a, axis = a.reshape(1), 0
    return (a, axis, *rest), kw


def _squeeze_0d(a, axis=None):
    a = jnp.asarray(a)
    return ((a, None if a.ndim == 0 and axis in (0, -1, (0,), (-1,)) else axis), {})


def _unpack_empty(a, axis=None, count=None, bitorder="big"):
    (a, axis), _ = _whole_0d(a, axis)
    if a.dtype != onp.uint8:
        raise TypeError("unpackbits: Expected an input array of unsigned byte data type")
    if type(axis) is int:
        axis = normalize_axis("unpackbits", axis, a.ndim)
    if a.size == 0:         # (jnp's unpackbits divides by the empty size)
        shape = (0,) if axis is None else tuple(
            n * 8 if i == axis % a.ndim else n for i, n in enumerate(a.shape))
        return jnp.zeros(shape, onp.uint8)
    return (a, axis, count, bitorder), {}


def _real_only(name):
    sig = inspect.signature(getattr(onp, name))

    def check(x, *args, **kw):
        axis = sig.bind(x, *args, **kw).arguments.get("axis")
        if type(axis) is int:       # (NumPy's AxisError first)
            normalize_axis(name, axis, jnp.ndim(x))
        if jnp.iscomplexobj(x):
            raise TypeError(f"{name}: complex data is not supported (NumPy's loop has "
                            "no complex type)")
        return (x, *args), kw
    return check


def _same_kind_ends(ary, to_end=None, to_begin=None):
    ary = jnp.asarray(ary)
    for arg, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is not None and not onp.can_cast(onp.asarray(v).dtype if not hasattr(
                v, "dtype") else v.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"ediff1d: dtype of `{arg}` must be compatible with input "
                            "`ary` under the `same_kind` rule.")
    return (ary, to_end, to_begin), {}


def _real_points(x, xp, fp, *args, **kw):
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(xp):
        raise TypeError("interp: x and xp must be real (NumPy cannot cast complex data "
                        "to float64 with the rule 'safe'); fp may be complex")
    return (x, xp, fp, *args), kw


def _real_bins(x, bins, right=False):
    for arg, v in (("x", x), ("bins", bins)):
        if jnp.iscomplexobj(v):
            raise TypeError(f"digitize: {arg} may not be complex (NumPy cannot cast "
                            "complex data to float64 with the rule 'safe')")
    b = jnp.asarray(bins)
    if b.ndim == 1 and b.shape[0] > 1 and not isinstance(b, jax.core.Tracer):
        d = onp.diff(onp.asarray(b))    # (where the bins are known: not traced)
        if not ((d >= 0).all() or (d <= 0).all()):
            raise ValueError(f"digitize: bins must be monotonically increasing or "
                             f"decreasing (got {onp.asarray(b).tolist()})")
    return (x, bins, right), {}


_jdiff = numpy_args(jnp.diff, "diff")     # (prepend/append in the common dtype)


def _diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff``: order 0 is ``a`` itself, prepend/append ignored."""
    if n == 0:
        return jnp.asarray(a)
    return _jdiff(a, n, axis, prepend, append)


_diff.__name__ = _diff.__qualname__ = "diff"
diff = wrap(_diff, "diff", named="keep")


@functools.lru_cache(maxsize=None)
def _angle_dtype(dt):
    return onp.angle(onp.zeros(0, dt)).dtype


def _angle(z, deg=False):
    """``jnp.angle`` in NumPy's dtype: of real data, ``arctan2(0, z)``'s
    (float16 for int8 and float16; jnp gave float64)."""
    z = jnp.asarray(z)
    r = jnp.angle(z, deg)
    if z.dtype.kind in "biuf" and config.numpy_dtypes():
        r = r.astype(_angle_dtype(z.dtype))
    return r


_angle.__name__ = _angle.__qualname__ = "angle"
_angle.__signature__ = inspect.signature(onp.angle)
angle = wrap(numpy_args(_angle, "angle"), "angle")
squeeze = _checked("squeeze", _squeeze_0d)
packbits = _checked("packbits", _whole_0d)
unpackbits = _checked("unpackbits", _unpack_empty)
unwrap = _checked("unwrap", _real_only("unwrap"))
_isneginf = _checked("isneginf", _real_only("isneginf"))
_isposinf = _checked("isposinf", _real_only("isposinf"))


def isneginf(x, out=None):
    """``numpy.isneginf``; ``out`` may be given by position as in NumPy."""
    return _isneginf(x, out=out)


def isposinf(x, out=None):
    """``numpy.isposinf``; ``out`` may be given by position as in NumPy."""
    return _isposinf(x, out=out)


ediff1d = _checked("ediff1d", _same_kind_ends)
interp = _checked("interp", _real_points)
digitize = _checked("digitize", _real_bins)
_convolve = wrap(numpy_args(_by_parts(jnp.convolve, False), "convolve"), "convolve")
_correlate = wrap(numpy_args(_by_parts(jnp.correlate, True), "correlate"), "correlate")


def _host(v):
    """``v``'s values on the host, or None under a transformation."""
    d = v.data if isinstance(v, NamedArray) else v
    if isinstance(d, jax.core.Tracer):
        return None
    return onp.asarray(d)


def bincount(x, weights=None, minlength=0, *, length=None):
    """``numpy.bincount``; negative input raises ``ValueError`` as in NumPy."""
    if minlength is not None and not isinstance(minlength, (NamedArray, jax.Array)) and \
            operator.index(minlength) < 0:
        raise ValueError(f"bincount: 'minlength' must not be negative (got {minlength})")
    h = _host(x)
    if h is not None and h.size and h.min() < 0:
        raise ValueError("bincount: 'list' argument must have no negative elements")
    if h is not None and h.size and (int(h.max()) + 1) * 8 > 2**63 - 1:
        # NumPy's error (its count overflows at the int64 maximum)
        raise ValueError("bincount: array is too big; `arr.size * arr.dtype.itemsize` "
                         f"is larger than the maximum possible size (the largest value "
                         f"is {int(h.max())})")
    kw = {} if length is None else {"length": length}
    if h is not None and h.dtype.kind in "iu" and h.dtype.itemsize < 8:
        # counted as intp, as NumPy does (jnp's max + 1 overflowed int8 at 127)
        x = asarray(x).astype(onp.intp)
    return _bincount(x, weights, minlength, **kw)


def unravel_index(indices, shape, order="C"):
    """``numpy.unravel_index``; an index outside the array raises ``ValueError``."""
    h = _host(indices)
    size = int(onp.prod(shape))
    if h is not None and h.size:
        bad = h[(h < 0) | (h >= size)]
        if bad.size:
            raise ValueError(f"unravel_index: index {int(bad.flat[0])} is out of bounds "
                             f"for array with size {size}")
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: only 'C' or 'F' order is permitted (got "
                         f"order={order!r})")
    if order == "F":    # the first index varies fastest: C order of the reversed shape
        shape = (shape,) if isinstance(shape, (int, onp.integer)) else tuple(shape)
        return tuple(reversed(_unravel(indices, shape[::-1])))
    return _unravel(indices, shape)


def moveaxis(a, source, destination):
    """``numpy.moveaxis``; repeated axes raise ``ValueError`` as in NumPy.  The
    ``source`` axes may be names: each becomes positional at its destination.

    >>> import namedarray as np
    >>> np.moveaxis(np.zeros((2, 3)).tag("b", None), "b", -1).shape
    (3, 2)
    """
    for arg, v in (("source", source), ("destination", destination)):
        vs = list(v) if isinstance(v, (list, tuple)) else [v]
        if len(set(vs)) != len(vs):
            raise ValueError(f"moveaxis: repeated axis in `{arg}` argument")
    single = not isinstance(source, (list, tuple))
    src = [source] if single else list(source)
    dst = [destination] if not isinstance(destination, (list, tuple)) else list(destination)
    x = asarray(a)
    for v in dst:
        if isinstance(v, str):
            raise ValueError(
                f"moveaxis: destination={destination!r} names an axis, but a destination "
                f"is a position (an int); the array has named axes {x.named_shape} and "
                f"positional shape {x.shape}; to name a positional axis use x.tag(...)")
    if any(isinstance(v, str) for v in src):
        if len(src) != len(dst):
            raise ValueError(f"moveaxis: `source` {source!r} and `destination` "
                             f"{destination!r} must have the same number of elements")
        x, src = _untag_listed("moveaxis", x, src, "source")
        source = src[0] if single else src
    return _moveaxis(x, source, destination)


def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    """``numpy.repeat``; a negative count raises ``ValueError`` as in NumPy."""
    h = _host(repeats)
    if h is not None and h.size and h.min() < 0:
        x = asarray(a)
        n = x.size if axis is None else x.shape[axis] if (
            type(axis) is int and -x.ndim <= axis < x.ndim) else None
        if n != 0 or x.names:
            raise ValueError("repeat: negative dimensions are not allowed")
        repeats = 0     # nothing to repeat: NumPy checks no count (jnp refuses one)
    return _repeat(a, repeats, axis, total_repeat_length=total_repeat_length)


def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad``; an unknown ``mode`` raises ``ValueError`` as in NumPy."""
    if isinstance(mode, str) and mode not in _PAD_MODES:
        raise ValueError(f"pad: mode '{mode}' is not supported")
    x = asarray(array)
    if isinstance(pad_width, dict):
        pad_width = _pad_dict(x, pad_width)
    if callable(mode):
        return _pad_by_function(x, pad_width, mode, kwargs)
    if not isinstance(pad_width, NamedArray) and onp.asarray(pad_width).dtype.kind not in "iu":
        raise TypeError(f"pad: `pad_width` must be of integral type (got {pad_width!r})")
    if x.size == 0 and mode not in ("constant", "empty"):
        try:
            widths = onp.broadcast_to(onp.asarray(pad_width), (x.ndim, 2))
        except ValueError:
            widths = None      # jax.numpy's error for a pad_width of the wrong shape
        for ax in range(x.ndim if widths is not None else 0):
            if x.shape[ax] == 0 and widths[ax].any():
                raise ValueError(f"pad: can't extend empty axis {ax} using modes other "
                                 f"than 'constant' or 'empty' (mode={mode!r})")
        if widths is not None:     # only non-empty axes grow: the result is empty
            return _pad(x, pad_width, "constant")
    if mode == "linear_ramp" and x.dtype.kind in "iu" and not x.names and \
            set(kwargs) <= {"end_values"}:
        return _linear_ramp(x, pad_width, kwargs.get("end_values", 0))
    return _pad(x, pad_width, mode, **kwargs)


def _pad_by_function(x, pad_width, mode, kwargs):
    """``pad`` with a Python function as ``mode``: NumPy's padding over the host
    data (the function fills NumPy's 1-d vectors in place, as NumPy calls it)."""
    if x.names or isinstance(x.data, jax.core.Tracer):
        raise TypeError(f"pad: mode={getattr(mode, '__name__', mode)!r} (a function) "
                        "fills NumPy's vectors on the host: it takes a concrete array "
                        f"without named axes (got named shape {x.named_shape}"
                        f"{', traced' if isinstance(x.data, jax.core.Tracer) else ''})")
    return asarray(onp.pad(onp.asarray(x.data), pad_width, mode, **kwargs))


def _pad_dict(x, pad_width):
    """NumPy 2's ``pad_width={axis: width}``: the axes not named get no padding;
    a width is one int (both sides) or a ``(before, after)`` pair of ints."""
    seq = [(0, 0)] * x.ndim
    for axis, width in pad_width.items():
        ax = normalize_axis("pad", axis, x.ndim)
        if type(width) is int:
            seq[ax] = width, width
        elif isinstance(width, tuple) and len(width) == 2 and all(
                type(w) is int for w in width):
            seq[ax] = width
        else:
            raise TypeError(f"pad: pad_width={pad_width!r}: the width of axis {axis} must "
                            f"be an int or a (before, after) pair of ints, got {width!r}")
    return seq


def _linear_ramp(x, pad_width, end_values):
    """``pad(x, mode="linear_ramp")`` of an integer array, NumPy's way: axis by
    axis, each ramp ``linspace(end value, edge, width, endpoint=False)`` in
    NumPy's arithmetic floored to the dtype (``jax.numpy``'s ramp differs in
    the last bit, a whole unit once floored)."""
    try:
        widths = onp.broadcast_to(onp.asarray(pad_width), (x.ndim, 2))
        ends = onp.broadcast_to(onp.asarray(end_values), (x.ndim, 2))
    except ValueError:
        raise ValueError(f"pad: pad_width={pad_width!r} and end_values={end_values!r} "
                         f"must broadcast to shape ({x.ndim}, 2)") from None
    if (widths < 0).any():
        raise ValueError(f"pad: index can't contain negative values (pad_width="
                         f"{pad_width!r})")
    for ax in range(x.ndim):
        parts = []
        for side, (w, end) in enumerate(zip(widths[ax], ends[ax])):
            edge = jnp.take(x.data, jnp.asarray([0 if side == 0 else -1]), axis=ax)
            ramp = linspace(end, positional(jnp.squeeze(edge, ax)), int(w),
                            endpoint=False, dtype=x.dtype, axis=ax).data
            parts.append(ramp if side == 0 else jnp.flip(ramp, ax))
        x = positional(jnp.concatenate([parts[0], x.data, parts[1]], axis=ax))
    return x


def _int_conv(name, f):
    def g(a, v, mode="full" if name == "convolve" else "valid"):
        da, dv = getattr(a, "dtype", None), getattr(v, "dtype", None)
        if da is None:
            da = onp.asarray(a).dtype
        if dv is None:
            dv = onp.asarray(v).dtype
        want = onp.result_type(da, dv)
        if want.kind in "biu":   # exact integer accumulation, NumPy's dtype
            return f(a, v, mode, preferred_element_type=want)
        return f(asarray(a).astype(want), asarray(v).astype(want), mode)
    g.__name__ = g.__qualname__ = name
    g.__doc__ = (f"``numpy.{name}``: computed in NumPy's result dtype (integer inputs "
                 "exactly); complex products as NumPy forms them.")
    return g


convolve = _int_conv("convolve", _convolve)
correlate = _int_conv("correlate", _correlate)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    """``numpy.full_like``; a Python int that does not fit raises ``OverflowError``."""
    dt = onp.dtype(dtype) if dtype is not None else (
        onp.dtype(a.dtype) if hasattr(a, "dtype") else onp.asarray(a).dtype)
    if type(fill_value) is int and dt.kind in "biu":
        info = onp.iinfo(dt if dt.kind != "b" else onp.int64)   # bool: NumPy's C long
        if not info.min <= fill_value <= info.max:
            raise OverflowError(f"full_like: Python integer {fill_value} out of bounds "
                                f"for {dt}")
    if type(fill_value) is complex and dt.kind != "c":
        # NumPy's cast: bool reads both parts, other types drop the imaginary part
        fill_value = bool(fill_value) if dt.kind == "b" else fill_value.real
    elif dt.kind == "b" and onp.dtype(getattr(fill_value, "dtype", onp.int8)).kind == "c":
        fill_value = asarray(fill_value) != 0
    return _full_like(a, fill_value, dtype, shape=shape)


_piecewise, _lexsort = wrap(jnp.piecewise, "piecewise"), _decl("lexsort")


def piecewise(x, condlist, funclist, *args, **kw):
    """``numpy.piecewise``; a Python int value the data's integer dtype cannot
    hold raises ``OverflowError`` as in NumPy."""
    check_py_ints("piecewise", asarray(x).dtype, list(funclist))
    return _piecewise(x, condlist, funclist, *args, **kw)


def lexsort(keys, axis=-1):
    """``numpy.lexsort``; an ``axis`` outside the keys' dimensions raises
    ``AxisError`` (a 1-d ``keys`` is a sequence of 0-d keys)."""
    k = keys if isinstance(keys, (list, tuple)) else asarray(keys)
    if len(k) == 0:
        raise TypeError("lexsort: need a sequence of keys with len > 0")
    nd = (asarray(k[0]).ndim if len(k) else 1) if isinstance(k, (list, tuple)) else max(
        k.ndim - 1, 0)
    if isinstance(axis, int) and not -max(nd, 1) <= axis < max(nd, 1):
        raise onp.exceptions.AxisError(f"lexsort: axis {axis} is out of bounds for array "
                                       f"of dimension {nd}")
    return _lexsort(keys, axis)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``numpy.apply_along_axis``: ``func1d`` mapped over the 1-d slices (one
    traced call); a ``func1d`` that cannot be traced (``sorted``, Python
    control flow on values) is called slice by slice on concrete data as
    NumPy calls it, and the results are stacked in NumPy's layout and dtype.

    >>> import namedarray as np
    >>> np.apply_along_axis(sorted, 1, np.asarray([[8, 1, 7], [4, 3, 9]]))
    array([[1, 7, 8],
           [3, 4, 9]])
    """
    try:
        return _apply_along_axis(func1d, axis, arr, *args, **kwargs)
    except Exception:
        x = arr if isinstance(arr, NamedArray) else asarray(arr)
        if x.names or isinstance(x.data, jax.core.Tracer):
            raise
    return _by_slices(func1d, axis, onp.asarray(x.data), args, kwargs)


def _by_slices(func1d, axis, h, args, kwargs):
    """NumPy's loop of ``apply_along_axis`` over the host data ``h``: the
    first result's shape and dtype make the buffer, the others are cast in."""
    ax = normalize_axis("apply_along_axis", axis, h.ndim)
    inarr = onp.moveaxis(h, ax, -1)
    outer = inarr.shape[:-1]
    if 0 in outer:
        raise ValueError(f"apply_along_axis: cannot apply along axis {axis} when an "
                         f"iteration dimension is 0 (shape {h.shape})")
    buff = None
    for ind in onp.ndindex(outer):
        r = onp.asarray(func1d(asarray(inarr[ind]), *args, **kwargs))
        if buff is None:
            buff = onp.empty(outer + r.shape, r.dtype)
        buff[ind] = r
    n = len(outer)
    perm = [*range(ax), *range(n, buff.ndim), *range(ax, n)]
    return asarray(buff.transpose(perm))


def isin(element, test_elements, *args, **kwargs):
    """``numpy.isin``; a ``set`` (or ``frozenset``, ``dict``) of test elements is
    one object scalar for NumPy, which no element equals (NumPy's docs advise
    ``list(the_set)``), so the answer is all False (True with ``invert``)."""
    if isinstance(test_elements, (set, frozenset, dict)):
        test_elements = onp.zeros(0, bool)
    return _isin(element, test_elements, *args, **kwargs)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``numpy.fromfunction``; ``shape`` must be a sequence of sizes as in NumPy
    (``fromfunction(f, 3)`` is a ``TypeError``)."""
    try:
        shape = tuple(shape)
    except TypeError as e:
        raise TypeError(f"fromfunction: shape={shape!r} must be a sequence of sizes: "
                        f"{e}") from None
    return _fromfunction(function, shape, dtype=dtype, **kwargs)


def _logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``jnp.logspace``, and NumPy 2's array ``base``: broadcast with ``start``
    and ``stop``, one more axis at ``axis`` for the samples."""
    if isinstance(base, (list, tuple)):
        base = onp.asarray(base)
    if jnp.ndim(base) == 0:
        return jnp.logspace(start, stop, num, endpoint, base, dtype, axis)
    start, stop, base = (jnp.asarray(v) for v in (start, stop, base))
    nd = max(v.ndim for v in (start, stop, base))
    start, stop, base = (v.reshape((1,) * (nd - v.ndim) + v.shape)
                         for v in (start, stop, base))
    y = jnp.linspace(start, stop, num, endpoint, axis=axis)
    r = jnp.power(jnp.expand_dims(base, axis), y)
    return r if dtype is None else r.astype(dtype)


_logspace.__name__ = _logspace.__qualname__ = "logspace"
_logspace.__signature__ = inspect.signature(onp.logspace)
logspace = wrap(numpy_args(_logspace, "logspace"), "logspace")


class _HostUfunc:
    """``numpy.frompyfunc``'s ufunc over the host data: NumPy's own object
    ufunc, given NumPy's arrays for NamedArrays; its results are NumPy's
    (object arrays on the host, which namedarray arrays cannot hold)."""

    def __init__(self, uf):
        self._uf = uf
        self.__name__ = uf.__name__
        self.__doc__ = uf.__doc__

    @staticmethod
    def _host(v):
        if isinstance(v, NamedArray):
            if v.names:
                raise TypeError(f"frompyfunc: the ufunc takes positional arrays only; an "
                                f"argument has named axes {v.named_shape}")
            return onp.asarray(v)
        return v

    def _call(self, f, args, kwargs):
        return f(*map(self._host, args), **{k: self._host(v) for k, v in kwargs.items()})

    def __call__(self, *args, **kwargs):
        return self._call(self._uf, args, kwargs)

    def __getattr__(self, name):
        attr = getattr(self._uf, name)
        if not callable(attr):
            return attr
        return functools.wraps(attr)(lambda *a, **k: self._call(attr, a, k))

    def __repr__(self):
        return repr(self._uf)


def frompyfunc(func, /, nin, nout, *, identity=None):
    """``numpy.frompyfunc``: NumPy's object ufunc of ``func``, over the host data.

    >>> import namedarray as np
    >>> np.frompyfunc(oct, 1, 1)(np.asarray([10, 30, 100]))
    array(['0o12', '0o36', '0o144'], dtype=object)
    """
    kw = {} if identity is None else {"identity": identity}
    return _HostUfunc(onp.frompyfunc(func, nin, nout, **kw))


__all__ = ["apply_along_axis", "isin", "fromfunction", "logspace", "frompyfunc",
           "piecewise", "lexsort", "bincount", "unravel_index", "moveaxis", "repeat", "pad",
           "convolve", "correlate", "full_like", "trace", "block",
           "angle", "squeeze", "packbits", "unpackbits", "unwrap", "isneginf", "isposinf", "ediff1d",
           "interp", "digitize", "diff"]

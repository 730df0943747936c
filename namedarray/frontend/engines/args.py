"""NumPy's argument conventions for the ``jax.numpy`` functions: lists and tuples
of data are arrays (as ``numpy.asarray`` reads them), index results are
``intp``, and lists NumPy returns as tuples are tuples.

>>> from namedarray.frontend.engines.args import np_asarray
>>> np_asarray([1, 2.5]).dtype
dtype('float64')
"""
from __future__ import annotations

import contextlib
import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends, config, hooks
from ...core.array import NamedArray

# the transfer jax.device_put ends in, without its per-call checks (a third of
# jnp.asarray's time when warm); JAX internals, so any failure to import or to
# call them switches to jax.device_put for good (``to_device``)
try:
    from jax._src.core import ShapedArray as _Aval
    from jax._src.interpreters.pxla import batched_device_put as _put, get_default_device
except ImportError:
    _put = None
try:    # ``trace_state_clean`` without its two layers of calls (the host tier asks
    from jax._src import core as _core       # it once per operation)
    _TRACE, _AXES = _core.trace_state_strong_ref, _core.axis_env_state
    _TRACE.value, _AXES.value, _core.eval_trace, _core.top_axis_env   # noqa: B018

    def untraced(_c=_core):
        """True outside every JAX trace and axis environment (no jit, grad,
        vmap or map is tracing): ``jax._src.core.trace_state_clean()``."""
        return _TRACE.value is _c.eval_trace and _AXES.value is _c.top_axis_env
except (ImportError, AttributeError):
    try:
        from jax._src.core import trace_state_clean as untraced
    except ImportError:
        def untraced():
            return False
try:
    from jax._src.interpreters.partial_eval import DynamicJaxprTrace as _Staging
    _TRACE.value        # noqa: B018
except (ImportError, AttributeError, NameError):
    _Staging = None


def staged() -> bool:
    """Whether a trace that compiles (``jax.jit``, a ``scan`` body: a jaxpr
    being staged) is active, beneath any ``vmap`` or ``grad``: the operations
    of an eager ``vmap`` or ``grad`` run at once, where their data lies."""
    if _Staging is None:
        return not untraced()
    t = _TRACE.value
    while t is not None:
        if isinstance(t, _Staging):
            return True
        t = getattr(t, "parent_trace", None)
    return False


# -- NumPy's argument conventions for the jax.numpy functions ----------------
# parameters that are Python structure (shapes, axes, counts, options), never data
_PY_PARAMS = {
    "shape", "new_shape", "newshape", "axis", "axes", "axis1", "axis2", "axisa", "axisb",
    "axisc", "source", "destination", "reps", "pad_width", "indices_or_sections",
    "shift", "kth", "dtype", "mode", "order", "side", "kind", "method", "dims",
    "dimensions", "shapes", "subscripts", "funclist", "func", "func1d", "pyfunc",
    "excluded", "signature", "range", "size", "total_repeat_length", "ndmin", "n", "N",
    "M", "k", "num", "copy", "indexing", "sparse", "varargs", "out", "device",
    "out_sharding", "length", "bitorder", "edge_order", "ddof",
    "correction", "decimals", "deg", "base", "endpoint", "retstep", "sorted",
}


# parameters holding a sequence of arrays: convert each element
_SEQ_PARAMS = {"tup", "arrays", "choices", "condlist", "choicelist", "keys",
               "multi_index"}


# functions whose integer results are indices (NumPy: intp)
_INDEX_RESULT = {
    "argsort", "argpartition", "searchsorted", "argwhere", "flatnonzero", "nonzero",
    "lexsort", "digitize", "tril_indices", "triu_indices", "diag_indices",
    "tril_indices_from", "triu_indices_from", "diag_indices_from", "indices",
    "mask_indices", "unravel_index", "ravel_multi_index", "bincount",
}


# functions that return a list where NumPy returns a tuple
_TUPLE_RESULT = {"meshgrid", "broadcast_arrays", "atleast_1d", "atleast_2d",
                 "atleast_3d", "ix_", "unstack", "nonzero", "tril_indices",
                 "triu_indices", "diag_indices", "unravel_index"}


# functions NumPy computes in float64 for bool and integer data (its Python
# float constants promote them; jax.numpy's inexact promotion picks float32
# or float16 for narrow integers)
_FLOAT64_DATA = {"i0", "sinc", "poly"}
# ... and in float64 (complex128) for any data: result_type(data, float64)
_WIDE_DATA = {"corrcoef", "cov", "interp"}


# functions whose result has NumPy's common dtype of these arguments, which
# are cast to it first (JAX's promotion gives float16 for int16 with float16,
# NumPy float32; float32 for int64 with float32, NumPy float64)
_COMMON_DTYPE = {"choose": ("choices",), "select": ("choicelist", "default"),
                 "cross": ("a", "b"), "vdot": ("a", "b"),
                 "diff": ("a", "prepend", "append")}

# parameters NumPy reads with ``asanyarray`` (a Python scalar is an array there,
# not a weak scalar)
_ARRAY_PARAMS = {"prepend", "append"}


_NO_CONVERT = {"block", "array", "asarray", "piecewise", "apply_along_axis",
               "apply_over_axes", "vectorize", "frompyfunc", "fromfunction"}


def is_data(v) -> bool:
    return isinstance(v, (list, tuple)) and not isinstance(v, NamedArray)


def as_data(v):
    """A (nested) list/tuple argument as an array, as NumPy's ``asarray`` reads it."""
    if not is_data(v):
        return v
    try:
        return np_asarray(v)
    except (TypeError, ValueError):
        return [as_data(e) for e in v]    # ragged: a sequence of arrays


def host_data_error(e) -> bool:
    """Whether ``e`` is the :func:`unsupported` error: a NumPy function of the
    namespace that meets it runs as NumPy's on the host (``host.py``)."""
    return getattr(e, "host_data", False)


def subclass_refused(fn, what) -> str:
    """The message for a user subclass of ``np.ndarray`` made into an array
    (``what``: the argument as written): namedarray does not keep subclasses
    (no ``__array_wrap__``/``__array_finalize__`` protocol; every result is a
    NamedArray), so an instance would silently lose the subclass's methods and
    attributes at the next operation."""
    return (f"{fn}: {what} is a subclass of np.ndarray; namedarray does not keep "
            "subclasses (every result is a NamedArray, so the subclass's methods and "
            "attributes would be lost at the next operation); hold the array in an "
            "attribute of your class instead")


def unsupported(fn, what):
    """The one error for data namedarray cannot hold: ``what`` (a dtype, or a
    NumPy module made for such data) named in ``fn``'s message."""
    e = TypeError(
        f"{fn}: {what} is not supported: namedarray arrays hold bool, "
        "numeric and ML (bfloat16, float8_*) data only (JAX has no structured, string, "
        "datetime, object, longdouble or byte-swapped arrays); "
        "keep such data in NumPy")
    e.host_data = True
    return e


def unsupported_dtype(fn, dtype, source=None):
    """The one error for a dtype namedarray cannot hold (``source``: the value
    that would have had it)."""
    dt = onp.dtype(dtype)
    kind = ("structured" if dt.fields else "non-native byte order" if not dt.isnative
            else "extended-precision" if dt in config.WIDE
            else {"U": "string", "S": "bytes", "M": "datetime", "m": "timedelta",
                  "O": "object", "V": "void"}.get(dt.kind, dt.kind))
    src = f" (from {type(source).__name__} {_short(source)})" if source is not None else ""
    return unsupported(fn, f"{kind} dtype {dt}{src}")


def check_dtype(fn, dtype):
    """``dtype`` (any spelling NumPy takes, or None) if namedarray can hold it."""
    if dtype is None:
        return None
    try:
        dt = onp.dtype(dtype)
    except TypeError:
        return dtype      # not a NumPy dtype: JAX's own (or its error)
    if not config.holds(dt):
        raise unsupported_dtype(fn, dt)
    return dtype


def np_asarray(v, dtype=None):
    """``numpy.asarray`` dtype inference, then onto the device."""
    check_dtype("asarray", dtype)
    if hasattr(type(v), "__array__") and not isinstance(v, (onp.ndarray, NamedArray,
                                                            jax.Array, onp.generic)):
        # an object whose __array__ gives a NamedArray (NumPy would refuse it)
        r = v.__array__()
        if isinstance(r, NamedArray) and not r.names:
            return r.data if dtype is None else r.data.astype(dtype)
        v = r
    try:
        h = onp.asarray(v, dtype=dtype)
    except (TypeError, ValueError, jax.errors.UnexpectedTracerError):
        # JAX's tracer conversion errors are TypeErrors: tracers go to jnp
        return jnp.asarray(v, dtype=dtype)
    if not config.holds(h.dtype):
        raise unsupported_dtype("asarray", h.dtype, v)
    # data NumPy built here from Python values is no one else's
    return to_device(h, fresh=isinstance(v, (list, tuple, int, float, complex)))


def to_device(h, fresh=False):
    """NumPy data ``h`` as a new JAX array, ``jnp.asarray(h)`` bit for bit.

    Outside a trace, data whose dtype JAX keeps as is goes to the device with
    ``jax.device_put``, which compiles nothing (``jnp.asarray`` compiles a
    small program per shape and dtype).  ``device_put`` may keep using the
    host buffer on a CPU, so unless ``h`` is ``fresh`` (made here, held by no
    one else) it goes as a host copy: writing into ``h`` later leaves the
    array alone.  NumPy's scalar goes as its 0-d array.  Anything else (a
    dtype JAX narrows when x64 is off, a masked array, inside ``jax.jit``)
    goes through ``jnp.asarray``.  Data of a dtype the default device only
    emulates goes to the CPU device, committed there
    (``core.backends.home_device``), NumPy's bits as they are.

    >>> import numpy
    >>> h = numpy.arange(3.0)
    >>> x = to_device(h); h[0] = 7.0
    >>> x.dtype, float(x[0])
    (dtype('float64'), 0.0)
    """
    if type(h) is not onp.ndarray and isinstance(h, onp.generic):
        h, fresh = onp.asarray(h), True     # (a new 0-d array: no one else's)
    if (type(h) is onp.ndarray and untraced()
            and jax.dtypes.canonicalize_dtype(h.dtype) == h.dtype):
        h = h if fresh else onp.array(h, order="C")
        if not backends.cpu_only():
            home = backends.home_device((h.dtype,), config.numpy_dtypes())
            if home is not None:
                if backends.mesh_platform() == "cpu":
                    # inside jax.set_mesh of the CPU's devices, which computes
                    # there: uncommitted, as JAX's own, free to join the mesh
                    return put_at_home(h)
                return jax.device_put(h, home)  # committed: computations follow it
        if _FAST[0]:
            try:      # uncommitted, on the default device, as jax.device_put(h)
                dev = get_default_device()
                s = _SHARDINGS.get(dev)
                if s is None:
                    s = _SHARDINGS[dev] = jax.sharding.SingleDeviceSharding(dev)
                return _put(_Aval(h.shape, h.dtype), s, [h], [dev], committed=False)
            except Exception:        # another JAX's internals: the public call
                _FAST[0] = False
        return jax.device_put(h)
    return jnp.asarray(h)


_FAST = [_put is not None]


def materialize(h):
    """The device array of data living on the host (``NamedArray.data``):
    ``h`` (C-ordered, held by no one who writes it) put on the default device
    as a concrete array, also when asked for inside a trace (a constant of
    that trace, never a tracer kept beyond it)."""
    if type(h) is not onp.ndarray:      # (NumPy's scalar: core.array.on_host)
        h = onp.asarray(h)
    if jax.dtypes.canonicalize_dtype(h.dtype) != h.dtype:
        h = h.astype(jax.dtypes.canonicalize_dtype(h.dtype))
    if untraced():
        return to_device(h, fresh=True)
    return put_at_home(h)


def put_at_home(h):
    """``jax.device_put(h)`` of NumPy's array ``h`` (uncommitted: free to
    move where it is used), concrete also inside a trace, made at its dtype's
    home (``core.backends.home_device``: NumPy's float64 on the CPU backend
    of a TPU machine, whose own float64 loses NumPy's last bits and range),
    else on the default device."""
    home = None if backends.cpu_only() else backends.home_device(
        (h.dtype,), config.numpy_dtypes())
    with jax.ensure_compile_time_eval(), \
            contextlib.nullcontext() if home is None else jax.default_device(home):
        return jax.device_put(h)


hooks.to_device = materialize


def default_device():
    """The device a new array goes to (``jax.device_put``'s default)."""
    if _put is not None:
        try:
            return get_default_device()
        except Exception:        # noqa: BLE001 -- another JAX's internals
            pass
    d = jax.config.jax_default_device
    return jax.devices(d)[0] if isinstance(d, str) else d if d is not None else \
        jax.devices()[0]


_SHARDINGS: dict = {}


def _short(v):
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def numpy_args(jfn, name):
    """``jfn`` taking NumPy's argument conventions: lists and tuples of data are
    arrays; index results are ``intp``; lists NumPy returns as tuples are tuples."""
    if name in _NO_CONVERT:
        return jfn
    try:
        sig = inspect.signature(jfn)
    except (TypeError, ValueError):
        return jfn
    params = list(sig.parameters.values())
    pos_names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
    var_pos = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), None)
    known = {p.name for p in params}
    idx_result = name in _INDEX_RESULT
    tup_result = name in _TUPLE_RESULT
    float64_data = name in _FLOAT64_DATA or name in _WIDE_DATA
    wide = name in _WIDE_DATA
    common = _COMMON_DTYPE.get(name)

    def conv(pname, v):
        if pname in _ARRAY_PARAMS and v is not None and not hasattr(v, "dtype"):
            return np_asarray(v)
        if pname is None or pname in _PY_PARAMS or not is_data(v):
            return v
        if pname in _SEQ_PARAMS:
            return type(v)(as_data(e) for e in v) if isinstance(v, tuple) else [
                as_data(e) for e in v]
        return as_data(v)

    @functools.wraps(jfn)
    def f(*args, **kwargs):
        if "dtype" in known:
            check_dtype(name, kwargs["dtype"] if "dtype" in kwargs else (
                args[pos_names.index("dtype")] if "dtype" in pos_names and
                len(args) > pos_names.index("dtype") else None))
        args = [conv(pos_names[i] if i < len(pos_names) else var_pos, a)
                for i, a in enumerate(args)]
        kwargs = {k: conv(k, v) if k in known else v for k, v in kwargs.items()}
        if common:
            args, kwargs = _common_dtype(common, args, kwargs, pos_names)
        if float64_data and config.numpy_dtypes():
            args = [_float64(a, wide) for a in args]
            kwargs = {k: _float64(v, wide) for k, v in kwargs.items()}
        r = jfn(*args, **kwargs)
        if idx_result and "dtype" not in kwargs and config.numpy_dtypes():
            r = _to_intp(r)
        if tup_result and isinstance(r, list):
            r = tuple(r)
        return r
    return f


def numpy_promoted(values):
    """``values`` (a pytree) with its arrays cast to NumPy's common dtype of
    them; Python scalars are weak, as in NumPy 2, and with an ML dtype
    (``bfloat16``, ``float8_*``) among them JAX's promotion holds.

    >>> import jax.numpy as jnp
    >>> [v.dtype for v in numpy_promoted([jnp.int16(1), jnp.float16(1), 2.0])[:2]]
    [dtype('float32'), dtype('float32')]
    """
    dts = [v.dtype for v in jax.tree_util.tree_leaves(values) if hasattr(v, "dtype")]
    if not dts or not config.numpy_dtypes() or config.any_ml(dts):
        return values
    dt = onp.result_type(*dts)
    return jax.tree_util.tree_map(
        lambda v: v.astype(dt) if hasattr(v, "dtype") and v.dtype != dt else v, values)


def _common_dtype(params, args, kwargs, pos_names):
    """``args``/``kwargs`` with the arrays of ``params`` in NumPy's common dtype."""
    where = [("a", pos_names.index(p)) if p in pos_names and pos_names.index(p) < len(args)
             else ("k", p) for p in params if p in kwargs or (
                 p in pos_names and pos_names.index(p) < len(args))]
    values = [args[i] if kind == "a" else kwargs[i] for kind, i in where]
    args, kwargs = list(args), dict(kwargs)
    for (kind, i), v in zip(where, numpy_promoted(values)):
        if kind == "a":
            args[i] = v
        else:
            kwargs[i] = v
    return args, kwargs


def _float64(v, wide=False):
    """A bool or integer array as float64; with ``wide``, any array in
    ``result_type(v, float64)`` (other values as they are)."""
    dt = getattr(v, "dtype", None)
    if dt is None or getattr(v, "ndim", None) is None:
        return v
    if onp.dtype(dt).kind in "biu":
        return jnp.asarray(v, onp.float64)
    return jnp.asarray(v, jnp.result_type(dt, onp.float64)) if wide else v


def _to_intp(r):
    if isinstance(r, (list, tuple)):
        items = [_to_intp(v) for v in r]
        return type(r)(items) if not hasattr(r, "_fields") else type(r)(*items)
    if hasattr(r, "dtype") and jnp.issubdtype(r.dtype, jnp.integer) and r.dtype != onp.intp:
        return r.astype(onp.intp)
    return r


"""The dispatcher: where each eager call of a public function runs.

Every function of the namespace (and of ``namedarray.linalg`` and
``namedarray.fft``) is :func:`dispatched`: one wrapper decides, before any
engine runs, which of four places answers the call (docs/design.md §5a,
§7b):

1. **NumPy itself**, for data JAX cannot hold (object, string, datetime,
   structured arrays, NumPy's masked arrays and matrices; Python objects
   NumPy would hold in an object array): NumPy's function, NumPy's result
   (``numpy_data.numpy_call``).
2. **The host**: small data living on the host (``engines/host.py``) runs
   NumPy's own function there, outside every transform (the host tier;
   NumPy's answer, no compilation, no device round trip).
3. **The CPU backend**, where the backend that would run the call cannot:
   the capability table (``core/backends.py``) says which families of
   operations on which dtypes an accelerator has no implementation of, or
   (with NumPy's dtype defaults) only emulates.  The call then runs under
   ``jax.default_device`` of the CPU, its operands moved there, and each
   result goes to its dtype's home (``backends.home_device``).
4. **Where the operands are** (JAX's placement), everything else: data a
   user put on a device stays there.

Under a transform (``jax.jit``, ``grad``, ``vmap``, ``nmap``) the placement
is JAX's; the capability table then turns an operation the default backend
has no implementation of into a clear error at trace time
(``backends.check_traced``).

With NumPy's dtype defaults the contractions and linear algebra of float32
data are float32-accurate on every backend: the dot family and
``numpy.linalg`` run at the highest matmul precision unless the user chose
one (``jax.default_matmul_precision``, ``precision=``); with JAX's dtype
defaults, JAX's precision (``config.default_precision``).

>>> import namedarray as np
>>> np.linalg.det(np.eye(2))           # small host data: NumPy's own answer
np.float64(1.0)
"""
from __future__ import annotations

import functools
import operator
import typing

import jax
import numpy as onp

from ...core import backends, config
from ...core.array import NamedArray, View, host_root, host_view_of, is_value, writeable
from ...core.sharding import beneath
from .args import staged, untraced
from .host import (ANY_ORDER, ENABLED, FFT_FUNCTIONS, FUNCTIONS, LINALG_FUNCTIONS, _WARNS,
                   Declined, answer, held)
from .numpy_data import (CONVERSIONS, HOST_CLASSES, _AS_GIVEN, _SEQUENCE_FIRST, _out_position,
                         any_host, array_likes, numpy_answers, numpy_call, objects_given)

#: the einsum engine's functions, which pass the precision to their one
#: ``dot_general`` themselves (``einsum/_engine.py``)
_OWN_PRECISION = frozenset(("matmul", "dot", "vdot", "inner", "tensordot", "einsum",
                            "vecdot", "matvec", "vecmat", "outer"))
#: the families computed at the highest matmul precision under NumPy's dtype
#: defaults (contractions, convolutions, the decompositions)
_PRECISE = frozenset(("dot", "conv")) | backends.FLOATING
_F64, _C64, _C128 = (onp.dtype(t) for t in (onp.float64, onp.complex64, onp.complex128))
_WIDER = {onp.dtype(onp.float32): _F64, onp.dtype(onp.complex64): onp.dtype(onp.complex128)}


def _power_family(args, kwargs):
    """``matrix_power``'s family: a negative power inverts the matrix (LU)."""
    n = args[1] if len(args) > 1 else kwargs.get("n", 0)
    try:
        return "lu" if operator.index(n) < 0 else "dot"
    except TypeError:       # (not an integer: matrix_power's own error)
        return "dot"


#: functions whose family their arguments decide
_FAMILY_OF_CALL = {"matrix_power": _power_family}


def _family(name, module):
    """The capability table's family of ``name``: a string, or a function of
    the call's arguments where they decide it (:data:`_FAMILY_OF_CALL`)."""
    if module is onp.fft:
        return "fft" if name in backends.FAMILY_OF else "any"
    return _FAMILY_OF_CALL.get(name) or backends.FAMILY_OF.get(name, "any")


def _survey(args, kwargs, out):
    """Into ``out`` (a list): (dtype, device or None for host data, committed,
    traced) of each array among the arguments (also inside lists and tuples)."""
    for v in (*args, *kwargs.values()):
        t = type(v)
        if t is NamedArray or t is View:
            if t is NamedArray and v._host is not None and v._dev is None or \
                    t is View and host_view_of(v) is not None:      # (data on the host)
                out.append((v.dtype, None, False, False))
                continue
            d = v.data
            if isinstance(d, (onp.ndarray, onp.generic)):   # (a pytree's NumPy leaf)
                out.append((d.dtype, None, False, False))
                continue
        elif isinstance(v, jax.Array):
            d = v
        elif t is list or t is tuple:
            _survey(v, {}, out)
            if config.numpy_dtypes():       # (NumPy's array of it: complex128, float64)
                if any(type(e) is complex for e in v):
                    out.append((_C128, None, False, False))
                elif any(type(e) is float for e in v):
                    out.append((_F64, None, False, False))
            continue
        elif isinstance(v, (onp.ndarray, onp.generic)):
            out.append((v.dtype, None, False, False))
            continue
        else:
            continue
        if isinstance(d, jax.core.Tracer):
            out.append((d.dtype, _traced_where(d), False, True))
        else:
            s = d.sharding
            out.append((d.dtype, next(iter(s.device_set)) if len(s.device_set) == 1 else s,
                        d.committed, False))
    return out


class Computes(typing.NamedTuple):
    """What a public function computes in beyond its operands' dtypes under
    NumPy's dtype rules, declared with the function as its ``computes``
    attribute (read by :func:`dispatched`): ``floats``, bool and integer data
    as float64 (``FLOATS``: the statistics, ``linspace``), any data in double
    precision (``"double"``: ``cov``, ``interp``) or real data as complex
    (``"complex"``: ``sort_complex``); ``more(args, kwargs)``, further dtypes
    the arguments decide (``histogram``'s float64 densities)."""
    floats: bool | str = False
    more: typing.Callable | None = None


#: bool and integer data computed in float64 (the statistics)
FLOATS = Computes(True)
#: any data in double precision (float32 in float64, complex64 in complex128)
DOUBLES = Computes("double")
#: real data computed as complex (complex64 for 8- and 16-bit integers)
COMPLEXES = Computes("complex")


def _traced_where(t):
    """Where a traced value lies: the device of the value beneath an eager
    transform's tracer (an eager ``vmap``'s or ``grad``'s, whose operations
    run at once on it; of a value on several devices of one platform, one of
    them, which tells the platform); for a staged value, the (abstract) mesh
    its type says it is sharded over; else None (a staged value of one
    device, which its type does not name)."""
    t = beneath(t)
    if isinstance(t, jax.core.Tracer):      # (staged)
        mesh = getattr(getattr(t.aval, "sharding", None), "mesh", None)
        return mesh if getattr(mesh, "abstract_device", None) is not None else None
    if isinstance(t, jax.Array):
        devices = t.devices()
        if len({backends.platform_of(d) for d in devices}) == 1:
            return next(iter(devices))
    return None


def _checked(found) -> bool:
    """Whether a traced call is checked against the capability table: a
    trace that compiles is, and so is an eager transform's unless all its
    traced values lie on a CPU device (where its operations then run)."""
    return staged() or not all(isinstance(e[1], jax.Device) and
                               backends.platform_of(e[1]) == "cpu" for e in found if e[3])


def _sharded_over(found):
    """The platform of the mesh a staged call's traced operands are sharded
    over (a program over a mesh compiles for its devices), or None."""
    return next((backends.mesh_platform(e[1]) for e in found
                 if e[3] and e[1] is not None and not isinstance(e[1], jax.Device)), None)


def _computed_dtypes(family, found, kwargs, strict, traced=False, floats=False):
    """The dtypes a call of ``family`` computes in: its arrays' (a ``dtype=``
    asked for too), bool and integer data as float64 for the floating
    families and the statistics (``floats``: True; ``"double"``: any data
    in double precision; ``"complex"``: real data as complex), single
    precision as double for the decompositions under
    NumPy's defaults (NumPy's LAPACK computes in double; not ``traced``
    for a backend without double-precision decompositions:
    ``namedarray.linalg``'s ``_in_double``); a call without arrays makes
    NumPy's default (64-bit) data unless it names a dtype."""
    dts = [e[0] for e in found]
    want = kwargs.get("dtype")
    if want is not None:
        try:
            dts.append(onp.dtype(want))
        except TypeError:
            pass
    if not dts:
        return (_F64,) if strict else ()
    if floats == "complex" and strict:
        dts += [_C64 if dt.char in "bhBH" else _C128 for dt in dts if dt.kind in "biuf"]
    elif floats and strict:
        dts += [_F64 for dt in dts if dt.kind in "biu"]
        if floats == "double":
            dts += [_C128 if dt.kind == "c" else _F64 for dt in dts
                    if jax.numpy.issubdtype(dt, onp.inexact)]     # (ML floats too)
    if family in backends.FLOATING and strict:
        wider = {} if family == "fft" or traced and not backends.runs_double() else _WIDER
        dts = [_F64 if dt.kind in "biu" else wider.get(dt, dt) for dt in dts]
    return dts


def _on_a_mesh(found) -> bool:
    """Whether the operands on devices are all sharded over several devices
    (a user put them on a mesh: the call runs there, by JAX's rules, not
    gathered onto one CPU device; with data on one device beside them, it
    is gathered there, as JAX cannot mix the two)."""
    placed = [e[1] for e in found if e[1] is not None]
    return bool(placed) and not any(isinstance(p, jax.Device) for p in placed)


def _to(device, v):
    """The NamedArray (or JAX array) ``v`` with its device data on ``device``
    (a copy of the wrapper; the caller's array is left as it is; ``v``
    itself where its data is there already, so that a function that returns
    its argument, ``ascontiguousarray``, returns the caller's array)."""
    if type(v) is NamedArray and v._dev is not None and v._host is None:
        if v.mapped or getattr(v._dev, "sharding", None) == _single(device):
            return v
        y = NamedArray(jax.device_put(v._dev, _single(device)), v.dims)
        y._array0d = v._array0d         # (a 0-d array stays one, not a scalar)
        y._ro = v._ro                   # (a write into a read-only array raises)
        return y
    if isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer):
        return jax.device_put(v, _single(device))
    if type(v) is list or type(v) is tuple:
        moved = [_to(device, e) for e in v]
        # (a sequence with nothing to move is itself: diff(seq, n=0) returns it)
        return v if all(m is e for m, e in zip(moved, v)) else type(v)(moved)
    return v


def _single(device):
    """``device`` as a sharding: data put there loses a mesh's sharding from
    its type (an Explicit mesh's ``8@x``), which one device cannot hold."""
    return jax.sharding.SingleDeviceSharding(device)


def _home(r, strict, back):
    """The result ``r`` of a call run on the CPU backend with each device
    array at its dtype's home (``backends.home_device``: committed to the CPU
    where the default device cannot run the dtype, else left uncommitted, to
    move where it is used), or on ``back`` (where an operand lay, committed)."""
    if type(r) is NamedArray:
        d = r._dev
        if d is not None and not isinstance(d, jax.core.Tracer):
            r._dev = _placed(d, strict, back)
        return r
    if isinstance(r, jax.Array):
        return r if isinstance(r, jax.core.Tracer) else _placed(r, strict, back)
    if isinstance(r, (tuple, list)):
        items = [_home(e, strict, back) for e in r]
        if all(i is e for i, e in zip(items, r)):
            return r        # (a call may return its argument: diff(seq, n=0))
        return type(r)(*items) if hasattr(r, "_fields") else type(r)(items)
    return r


def _placed(d, strict, back):
    dev = back or backends.home_device((d.dtype,), strict)
    return d if dev is None else jax.device_put(d, dev)


def _on_cpu(name, call, args, kwargs, found, dts, strict):
    """``call(args, kwargs)`` on the CPU backend (see the module's docstring)."""
    if not backends.started() and "cpu" in backends.listed_platforms():
        # no array lives on a device yet: the CPU named, no backend started
        # (a call whose data stays on the host never starts the accelerator)
        with jax.default_device("cpu"):
            r = call(args, kwargs)
        return _home(r, strict, None)
    cpu = backends.cpu_device()
    if cpu is None:
        acc = backends.accelerator()
        raise TypeError(
            f"{name}: {acc.upper()}'s XLA backend cannot run this call on "
            f"{', '.join(sorted({str(d) for d in dts}))} data and JAX was started without "
            f"its CPU backend; start it with JAX_PLATFORMS='{acc},cpu', or cast to "
            "float32/int32 first")
    back = next((e[1] for e in found if e[2] and isinstance(e[1], jax.Device)
                 and backends.platform_of(e[1]) != "cpu"), None)
    # data living on the host keeps no device array made of it under the
    # call's default device (uncommitted there: the array's later calls would
    # compute on that device, not the machine's default)
    hosted = [a for v in (*args, *kwargs.values())
              for a in (v if type(v) is list or type(v) is tuple else (v,))
              if type(a) is NamedArray and a._dev is None and a._host is not None]
    given = (*args, *kwargs.values())
    args = tuple(_to(cpu, a) for a in args)
    kwargs = {k: _to(cpu, v) if k != "out" else v for k, v in kwargs.items()}
    # the copies of the caller's arrays, to write back what a function writes
    # in place (put, place, copyto, fill_diagonal, ...) into its target's copy
    copies = [(a, c, c._dev) for a, c in zip(given, (*args, *kwargs.values()))
              if c is not a and type(c) is NamedArray]
    try:
        with jax.default_device(cpu):
            r = call(args, kwargs)
    finally:
        for a in hosted:
            if a._host is not None:     # (not written in place meanwhile)
                a._dev = None
    for a, c, moved in copies:
        if c._dev is not moved:         # written in place: the caller's array, where it lies
            a.data = jax.device_put(c._dev, a._dev.sharding)
    return _home(r, strict, back)


def routed(f, name, family, computes=None):
    """``f`` (a public function's compiled path, ``name``) run where the
    capability table allows (see the module's docstring), at NumPy's
    precision under NumPy's dtype defaults.  The table is asked about every
    dtype the call computes in, not only its operands': ``computes(args,
    kwargs)`` gives those its operands do not show (a ufunc's loop: ``log2``
    of int32 data computes in float64, int8 data plus a Python complex in
    complex128, which a TPU lacks); a public function declares its own
    (:class:`Computes`)."""
    by_call = family if callable(family) else None
    floats, computes = computes if isinstance(computes, Computes) else (False, computes)
    precise = (by_call is not None or family in _PRECISE) and name not in _OWN_PRECISION

    def call(args, kwargs):
        if precise and config.default_precision() is not None:
            with jax.default_matmul_precision("highest"):
                return f(*args, **kwargs)
        return f(*args, **kwargs)

    cpu_only = backends.cpu_only

    @functools.wraps(f)
    def g(*args, **kwargs):
        if cpu_only():
            # (an eager float32 contraction on a CPU is exact at any precision
            # asked: no context to enter, ~5 us a call; a trace carries it)
            return call(args, kwargs) if precise and not untraced() else f(*args, **kwargs)
        strict = config._state["mode"] == "numpy"
        fam = family if by_call is None else by_call(args, kwargs)
        found = _survey(args, kwargs, [])
        traced = any(e[3] for e in found) or not untraced()
        dts = _computed_dtypes(fam, found, kwargs, strict, traced, floats)
        if computes is not None:
            dts = [*dts, *computes(args, kwargs)]
        elif strict and any(type(v) is complex for v in (*args, *kwargs.values())):
            dts = [*dts, _C128]     # (a function reads a Python complex as complex128)
        if traced:      # (an eager vmap's or grad's operations run where the data is)
            if _checked(found):
                backends.check_traced(name, fam, dts, _sharded_over(found))
            return call(args, kwargs)
        if backends.mesh_platform() == "cpu":
            return call(args, kwargs)       # (jax.set_mesh of the CPU's devices: run there)
        acc = backends.accelerator()
        if backends.lacks(acc, fam, dts, strict) is None or \
                _on_a_mesh(found) and backends.lacks(acc, fam, dts, False) is None:
            return call(args, kwargs)       # (a mesh keeps what it can run at all)
        return _on_cpu(name, call, args, kwargs, found, dts, strict)
    return g


def on_cpu_where_lacking(fn, name, dtypes):
    """``fn`` (an elementwise kernel on JAX arrays whose operands and result
    have ``dtypes``) run on the CPU backend where the default device cannot
    run those dtypes (see :func:`routed`); else ``fn`` itself."""
    family = backends.FAMILY_OF.get(name, "any")
    if backends.cpu_only() or backends.lacks(backends.accelerator(), family, dtypes,
                                             config.numpy_dtypes()) is None:
        return fn

    def call(args, kwargs):
        return fn(*args)

    def g(*args):
        if backends.cpu_only():
            return fn(*args)
        found = _survey(args, {}, [])
        if any(e[3] for e in found) or not untraced():
            if _checked(found):
                backends.check_traced(name, family, dtypes, _sharded_over(found))
            return fn(*args)
        if _on_a_mesh(found) or backends.mesh_platform() == "cpu":
            return fn(*args)
        return _on_cpu(name, call, args, {}, found, dtypes, config.numpy_dtypes())
    return g


#: argument types that are no array and hold none
_PLAIN = frozenset((int, float, bool, complex, str, type(None), slice, type(Ellipsis)))


def _on_device(args, kwargs) -> bool:
    """Whether a call's arrays are NamedArrays whose data is on a device (or
    traced) and its other arguments plain Python values (axes, flags): no
    argument lives on the host, none is NumPy's or another library's, so the
    compiled path answers (the host tier and NumPy's own have nothing to take)."""
    found = False
    for v in (*args, *kwargs.values()) if kwargs else args:
        t = type(v)
        if t is NamedArray:
            if v._host is not None:
                return False
            found = True
        elif t is tuple:
            for e in v:
                if type(e) is not int and type(e) is not str:
                    return False
        elif t not in _PLAIN:
            return False
    return found


def dispatched(f, name, module=onp):
    """``f`` (the public ``name`` of ``module``'s namespace) with the
    dispatcher in front: NumPy itself for data JAX cannot hold and for
    NumPy's classes (``HOST_CLASSES``), the host tier for small data living
    on the host, else the compiled path where the capability table allows
    (:func:`routed`).  Another library's array_like (``numpy_data.foreign``) is read
    as NumPy reads it, as an array (not where NumPy's function writes into an
    argument, or takes it as the object it is: ``numpy_data._AS_GIVEN``, ``out``).

    >>> import namedarray as np
    >>> np.array(["a", "bc"]).dtype
    dtype('<U2')
    >>> np.concatenate([np.array([1, None]), np.arange(2)])
    array([1, None, 0, 1], dtype=object)
    >>> np.multiply(np.asmatrix("1 2"), 2)
    matrix([[2, 4]])
    """
    if not hasattr(module, name) or not callable(getattr(module, name)):
        return f
    converts = name in CONVERSIONS
    tier = ENABLED and name in {onp: FUNCTIONS, onp.linalg: LINALG_FUNCTIONS,
                                onp.fft: FFT_FUNCTIONS}.get(module, ())
    np_fn, any_order, warns = getattr(module, name), name in ANY_ORDER, name in _WARNS
    # (a conversion reads array_likes itself)
    converts_arrays = not converts and name not in _AS_GIVEN
    out_at, sequence = _out_position(np_fn), name in _SEQUENCE_FIRST
    compiled = routed(f, name, _family(name, module), getattr(f, "computes", None))
    host_view = getattr(f, "host_view", None)      # (a view function's: views.py)

    @functools.wraps(f)
    def g(*args, **kwargs):
        if host_view is not None:       # NumPy's view of data living on the host
            v = host_view(args, kwargs)
            if v is not None:
                return v
        if _on_device(args, kwargs):    # (the common compiled call, decided at once)
            try:
                return compiled(*args, **kwargs)
            except (TypeError, ValueError) as e:
                return numpy_answers(e, name, args, kwargs, module=module)
        if converts_arrays:
            args, kwargs = array_likes(args, kwargs, out_at, sequence)
        if tier and kwargs.get("out") is not None:
            r = _into_host_out(np_fn, name, args, kwargs, any_order, warns)
            if r is not None:
                return r
        if tier:
            h = held(name, args, kwargs, any_order)
            if h is not None:       # small data living on the host: NumPy's answer
                try:
                    return answer(np_fn, name, *h, any_order, warns)
                except Declined:    # namedarray's error, warning or view instead
                    pass
        if any_host(args) or kwargs and any_host(kwargs.values()):
            if not converts or kwargs.get("subok") or any_host(args, False) or \
                    kwargs and any_host(kwargs.values(), False):
                return numpy_call(name, args, kwargs, module=module)
            # a conversion of one of NumPy's classes: its array, as NumPy's
            args = [onp.asarray(a) if isinstance(a, HOST_CLASSES) else a for a in args]
        elif converts_arrays and objects_given(np_fn, args, kwargs):
            return numpy_call(name, args, kwargs, module=module)
        try:
            return compiled(*args, **kwargs)
        except (TypeError, ValueError) as e:
            return numpy_answers(e, name, args, kwargs, module=module)
    return g


def _into_host_out(np_fn, name, args, kwargs, any_order, warns):
    """A whole function's call with ``out=`` living on the host (its own
    buffer, nothing else holding it) on operands that live there: NumPy's
    answer of the call without ``out``, written into that buffer in place
    (the bits the call without ``out=`` gives); None where it cannot (the
    answer's dtype or shape is not ``out``'s: the compiled path casts)."""
    out = kwargs["out"]
    if type(out) is not NamedArray and type(out) is not View or is_value(out) or \
            kwargs.get("dtype") is not None:    # (NumPy refuses out= with dtype=)
        return None
    buf, root = host_root(out)
    if buf is None or root._dev is not None or not writeable(out) or \
            not buf.flags.writeable or (out is root and root._host is not buf):
        return None
    h = held(name, args, {k: v for k, v in kwargs.items() if k != "out"}, any_order)
    if h is None:
        return None
    try:
        r = answer(np_fn, name, *h, any_order, warns)
    except Declined:
        return None
    rh = host_root(r)[0] if isinstance(r, NamedArray) else None
    if rh is None or rh.dtype != buf.dtype or rh.shape != buf.shape:
        return None
    buf[...] = rh
    return out

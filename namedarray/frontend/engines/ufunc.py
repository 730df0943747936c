"""The elementwise engine: ``ufunc``, NumPy's ufuncs over NamedArrays.

NumPy's dtype resolution (its own type resolver, NumPy 2's scalar rules),
alignment of named axes by name, broadcasting of positional axes by NumPy's
rules, then one ``jax.numpy`` call.  ``namedarray.ufunc`` is this class; the
table of instances is ``frontend/elementwise.py``; its methods (``reduce``,
``accumulate``, ``outer``, ``at``, ``reduceat``) are ``ufunc_methods.py``'s.

>>> import namedarray as np
>>> np.add(np.arange(3, dtype=np.int8), 1).dtype
dtype('int8')
>>> isinstance(np.add, np.ufunc), np.add.reduce(np.arange(4))
(True, np.int64(6))
"""
from __future__ import annotations

import functools
import operator
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import backends, config, hooks
from ...core.cache import Cache
from ...core.array import (NamedArray, View, host_root, is_value, new, on_host, operand,
                           positional, rewrap, writeable, zero_dim_array)
from ...core.align import align, align_plan
from . import foreign, fperr  # noqa: F401  (foreign: other libraries' ufuncs, a hook)
from .args import untraced
from .dispatch import on_cpu_where_lacking, routed
from .generic import beside
from .host import OWN_ANSWERS, RESIDENT_DTYPES, creates, kept, readable
from .numpy_data import any_host, numpy_answers, numpy_call
from .out import cast_out, check_out_cast, out_entries, store_out
from .results import finish
from .select import where as _select
from .selection import apply_ufunc, lazy
from .ufunc_methods import (_ARRAYS, _PY_NUMBERS, UfuncMethods, _check_out, _Folds,
                            _overrides)
from .ufunc_operands import (_check_int_power, _exact_compare, _fits, _kernel, _kernel_runs,
                             _mixed_sign, _narrowed, _numpy_scalar, _signed_and_uint64,
                             _to_inexact, loop_dtypes)

_I32 = 2 ** 31
_C64 = onp.dtype(onp.complex64)
_I64 = 2 ** 63 - 1
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}

_BOOL = onp.dtype(bool)

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")

#: Python's float operations for ``+ - * /`` of a float64 scalar (``self``)
#: with a float64, a Python float or int (``other``): (forward, reflected)
_FLOAT_OPERATORS = {operator.add: (float.__add__, float.__radd__),
                    operator.sub: (float.__sub__, float.__rsub__),
                    operator.mul: (float.__mul__, float.__rmul__),
                    operator.truediv: (float.__truediv__, float.__rtruediv__)}

# NumPy's floating-point error state, as the fast path reads it (engines/fperr.py)
_FP_STATE, _FP_LAST = fperr.STATE, fperr.LAST
call_ignoring = fperr.call_ignoring
#: NumPy's error state that ignores every category, where it can be set cheaply
_IGNORING = getattr(fperr.ignored, "_STATE", None)


#: NumPy's integer scalar types (integer division's results, checked: fperr.py)
_INT_SCALARS = frozenset(onp.dtype(c).type for c in onp.typecodes["AllInteger"])


def _held_scalar(h):
    """The NumPy scalar held by the buffer ``h`` of a NamedArray living on the
    host (NumPy's scalar itself, or its 0-d array's); None for an array's."""
    if type(h) is onp.ndarray:
        return None if h.ndim else h[()]
    return h


def _ufunc_named(name):
    """The public ufunc ``name`` (what a pickled one is read back as)."""
    return hooks.namespace.UFUNCS[name]


class _UfuncType(type):
    # NumPy's ufuncs (and other libraries' ufuncs, which NumPy's protocol hands
    # NamedArrays to) are ufuncs here too: ``isinstance(numpy.add, np.ufunc)``,
    # as NumPy's arrays are ``np.ndarray``s
    def __instancecheck__(cls, x):
        return type.__instancecheck__(cls, x) or (cls is ufunc and isinstance(x, onp.ufunc))


class ufunc(UfuncMethods, metaclass=_UfuncType):
    """A NumPy ufunc over NamedArrays: NumPy dtypes, alignment by name.

    NumPy 2's scalar rules hold: a Python ``bool`` is a ``bool`` operand; a
    Python ``int`` that does not fit the integer loop it joins raises
    ``OverflowError`` (comparisons compare exactly instead); integers to
    negative Python-int powers raise ``ValueError``; ``add``/``multiply``
    ``accumulate`` small integers in the default integer, as ``numpy`` does.

    >>> import namedarray as np
    >>> np.add(np.arange(3, dtype=np.int8), 1).dtype
    dtype('int8')
    """

    def __reduce__(self):
        # by name, as NumPy's ufuncs pickle: read back as the same object
        return _ufunc_named, (self.__name__,)

    def __init__(self, name: str, jfn, np_ufunc):
        self.__name__ = self.__qualname__ = name
        self._jfn = jfn
        self._np = np_ufunc
        self.nin, self.nout = np_ufunc.nin, np_ufunc.nout
        self.nargs = np_ufunc.nargs
        self.identity = np_ufunc.identity
        self.ntypes, self.types = np_ufunc.ntypes, np_ufunc.types
        self.signature = None
        self._loops: dict = {}
        self._reorder: dict = {}    # dtype -> whether reduce takes several axes
        self._probes = Cache()     # NumPy's answers for stand-ins (see _probe)
        self._fast: dict = {}   # operand dtypes -> result dtype, when no cast is needed
        # operand dtypes (the dtype alone for one operand) -> (the result dtype to
        # cast to, None where the function already gives it; the function to call)
        self._fastfn: dict = {}
        self._tried: set = set()    # operand types whose fast entry was looked for
        # operand types (dtypes, Python types) -> the result dtypes on the host
        self._host_dtypes: dict = {}
        # operand types -> NumPy's scalar type of the result (False: none), for
        # the arithmetic of scalars living on the host (_operators)
        self._scalar_types: dict = {}
        # operand types, then the arrays' shapes -> (the result dtype, the function
        # compiled for them): one lookup for a warm call
        self._warm = Cache()
        # the jitted implementation behind jax.numpy's ufunc (skips its re-checks)
        props = getattr(jfn, "_ufunc__static_props", None) if isinstance(
            jfn, jnp.ufunc) else None
        self._impl = (props or {}).get("call") or jfn
        # a wrapper that picks its function by the operand types (on its class:
        # a wrapper's __getattr__ would hand out the wrapped function's)
        self._for_types = getattr(type(jfn), "for_types", None)
        if self.nin == 2 and self.nout == 1 and not hasattr(jfn, "reduce"):
            # every binary ufunc has NumPy's reduce and accumulate
            self._jfn = _Folds(jfn, np_ufunc.identity)
        # integer powers of Python ints have NumPy-specific errors: general path
        self._fast_ok = name not in ("power", "pow", "float_power", "ldexp")
        # the general path where the capability table allows (engines/dispatch.py)
        self._routed = routed(self._general, name, backends.FAMILY_OF.get(name, "any"),
                              self._computes)
        self.__doc__ = (f"``numpy.{name}`` on NamedArrays (named axes aligned by name).\n\n"
                        f"See ``numpy.{name}`` for the semantics.")

    def __repr__(self):
        return f"<namedarray ufunc '{self.__name__}'>"

    # NumPy's ufunc of the same name is this one: equal, with its hash, so that
    # an ``__array_ufunc__`` override (handed NumPy's ufunc, NumPy's protocol
    # having run the call) that compares it with ``np.add`` or looks it up in a
    # table of ufuncs works whichever ``np`` it imported
    def __eq__(self, other) -> bool:
        if isinstance(other, UfuncMethods):
            return self._np is other._np
        return self._np is other if isinstance(other, onp.ufunc) else NotImplemented

    def __hash__(self):
        return hash(self._np)

    def _loop(self, key):
        loop = self._loops.get(key)
        if loop is None:
            *ins, dtype = key
            try:
                if dtype is not None:
                    dt = onp.dtype(dtype)
                    try:        # NumPy's loop for that output dtype (less: ii->?)
                        r = self._np.resolve_dtypes(
                            tuple(ins) + (None,) * self.nout, casting="unsafe",
                            signature=(None,) * self.nin + (dt,) * self.nout)
                        loop = (r[: self.nin], r[self.nin:])
                    except (TypeError, ValueError):     # (ML dtypes: JAX's promotion)
                        loop = ((dt,) * self.nin, (dt,) * self.nout)
                elif config.any_ml(ins):
                    # ML dtypes promote as JAX defines (bf16 + f32 -> f32, bf16 +
                    # Python float -> bf16); the loop on the common type is NumPy's
                    common = jnp.result_type(*ins)
                    r = self._np.resolve_dtypes((common,) * self.nin + (None,) * self.nout)
                    loop = (r[: self.nin], r[self.nin:])
                else:
                    r = self._np.resolve_dtypes(tuple(ins) + (None,) * self.nout)
                    loop = (r[: self.nin], r[self.nin:])
            except (TypeError, onp.exceptions.DTypePromotionError,
                    jax.dtypes.TypePromotionError) as e:
                shown = ", ".join(getattr(t, "__name__", str(t)) for t in ins)
                raise TypeError(
                    f"{self.__name__}: not supported for the input types ({shown}): {e}"
                ) from None
            self._loops[key] = loop
            ins = key[:-1]
            if (dtype is None and self.nout == 1 and self._fast_ok and
                    any(isinstance(t, onp.dtype) for t in ins) and
                    # a signed integer against uint64 compares exactly (_apply)
                    not (self.__name__ in _COMPARISONS and _signed_and_uint64(ins)) and
                    all(t == d for t, d in zip(ins, loop[0]) if isinstance(t, onp.dtype)) and
                    # a Python int joins the fast path only where it cannot overflow
                    # (|v| < 2**31 is checked there): wide or inexact loop dtypes
                    # (never an unsigned loop: a negative int must raise there)
                    all(d.kind in "fc" or (d.kind == "i" and d.itemsize >= 8)
                        for t, d in zip(ins, loop[0]) if t is int)):
                self._fast[ins] = loop[1][0]
                self._fastfn[ins[0] if self.nin == 1 else ins] = self._fast_entry(
                    ins, loop[1][0], loop[0])
        return loop

    def _checks_int(self, outs):
        """Whether results of the dtypes ``outs`` are integer division's, which
        NumPy's default error state checks too (``fperr.int_state``)."""
        return self._np.__name__ in fperr.INT_DIVIDE and any(
            onp.dtype(d).kind in "iub" for d in outs)

    def _fast_entry(self, ins, out_dt, loop_ins):
        """The fast path's entry for operands of types ``ins`` (the loop's
        ``loop_ins``): (``out_dt``, or None where the function's result has
        that dtype already; the function, which takes a Python scalar in a
        narrower loop as its dtype, ``_narrowed``)."""
        fn = self._impl
        if self._for_types is not None:
            fn = self._for_types(self._jfn, ins)
            props = getattr(fn, "_ufunc__static_props", None) if isinstance(
                fn, jnp.ufunc) else None
            fn = (props or {}).get("call") or fn
        try:
            got = jax.eval_shape(fn, *[t(1) if isinstance(t, type) else
                                       jax.ShapeDtypeStruct((), t) for t in ins]).dtype
        except Exception:       # noqa: BLE001 -- then the result is checked per call
            got = None
        dts = [t for t in (*ins, out_dt) if isinstance(t, onp.dtype)]
        if self._checks_int((out_dt,)):     # (its check, in the same kernel)
            fn = fperr.int_checked(self._np.__name__, fn, functools.partial(
                on_cpu_where_lacking, name=self.__name__, dtypes=dts))
        else:
            fn = on_cpu_where_lacking(fn, self.__name__, dts)
        casts = [d.type if _narrowed(t, d) else None for t, d in zip(ins, loop_ins)]
        if any(casts):
            inner, cpu_only = fn, backends.cpu_only

            def fn(*args):      # (on a CPU, float64 steps compile: no cast, no cost)
                if cpu_only():
                    return inner(*args)
                return inner(*[a if c is None else c(a) for a, c in zip(args, casts)])
        return (None if got == out_dt else out_dt, fn)

    def __call__(self, *args, **kwargs):
        # fast path: positional NamedArrays (or an array and a Python scalar) whose
        # dtypes are already NumPy's loop dtypes: one jax call, no cast, no alignment.
        # Shapes that do not broadcast fall through to the general path, which
        # raises NumPy's error.  A floating-point error state to honour
        # (engines/fperr.py) takes the general path, which checks.
        if not kwargs:
            n = len(args)
            if n == 1 == self.nin:
                a = args[0]
                if type(a) is NamedArray and a._host is None and \
                        config._state["mode"] == "numpy" and (
                            _FP_LAST[1] is None if _FP_STATE.get() is _FP_LAST[0]
                            else fperr.state() is None):
                    d = a.data      # (data on a device: the compiled call, at once)
                    key = (d.dtype, d.shape)
                    hit = self._warm.get(key) or self._entry(key)
                    if hit is not None:
                        return _fast_named(hit[1](d), hit[0], a.dims, a.mapped)
            if n == self.nin and all(type(a) in _PY_NUMBERS or type(a) is not NamedArray
                                     and isinstance(a, onp.generic) for a in args) and \
                    config._state["mode"] == "numpy":
                r = self._on_host(args)     # Python numbers: NumPy's scalar answer
                if r is not None:
                    return r
            if n == 2 == self.nin:
                return self.binary(*args)
            if n == 1 == self.nin and (args[0]._host is not None if type(args[0]) is
                                       NamedArray else type(args[0]) is View and
                                       args[0]._hview is not None or
                                       type(args[0]) is onp.ndarray) and \
                    config._state["mode"] == "numpy":
                r = self._on_host(args)
                if r is not None:
                    return r
            if n == 1 == self.nin and config._state["mode"] == "numpy" and \
                    _FP_STATE.get() is _FP_LAST[0] and _FP_LAST[1] is None:
                a = args[0]
                if type(a) in _ARRAYS:             # elementwise: the layout is kept
                    d = a.data
                    key = (d.dtype, d.shape)
                    hit = self._warm.get(key) or self._entry(key)
                    if hit is not None:
                        return _fast_named(hit[1](d), hit[0], a.dims, a.mapped)
        return self._call(*args, **kwargs)

    def binary(self, a, b, op=None):
        """``self(a, b)`` for a two-operand ufunc (the operators call it, with
        the Python operator ``op``: on the host it is NumPy's operator, whose
        ``z ** 2`` is ``square(z)``): the fast path of :meth:`__call__`, else
        the general one."""
        ta, tb = type(a), type(b)
        if ((ta is NamedArray and a._host is not None) or (
                tb is NamedArray and b._host is not None) or (
                ta is View and a._hview is not None) or (
                tb is View and b._hview is not None) or
                ta is onp.ndarray or tb is onp.ndarray) and \
                config._state["mode"] == "numpy":
            r = self._on_host((a, b), op)
            if r is not None:
                return r
        if config._state["mode"] == "numpy" and _FP_STATE.get() is _FP_LAST[0] and \
                _FP_LAST[1] is None:
            if ta in _ARRAYS:
                if tb in _ARRAYS:
                    ad, bd = a.data, b.data
                    da, db = a.dims, b.dims
                    # one same layout, or positional only with broadcastable shapes
                    if a.mapped == b.mapped and (
                            (da == db and ad.shape == bd.shape) or (
                            da.count(None) == len(da) and db.count(None) == len(db)
                            and _broadcastable(ad.shape, bd.shape))):
                        key = (ad.dtype, bd.dtype, ad.shape, bd.shape)
                        hit = self._warm.get(key) or self._entry(key)
                        if hit is not None:
                            return _fast_named(hit[1](ad, bd), hit[0],
                                               da if len(da) >= len(db) else db, a.mapped)
                elif tb is float or (tb is int and -_I32 <= b < _I32):
                    ad = a.data
                    key = (ad.dtype, tb, ad.shape)
                    hit = self._warm.get(key) or self._entry(key)
                    if hit is not None:
                        return _fast_named(hit[1](ad, b), hit[0], a.dims, a.mapped)
            elif tb in _ARRAYS and (ta is float or (ta is int and -_I32 <= a < _I32)):
                bd = b.data
                key = (ta, bd.dtype, bd.shape)
                hit = self._warm.get(key) or self._entry(key)
                if hit is not None:
                    return _fast_named(hit[1](a, bd), hit[0], b.dims, b.mapped)
        return self._call(a, b)

    def _operators(self, py, op, rop):
        """NamedArray's methods ``(op, rop)`` for the Python operator ``py``
        of this ufunc (``__mul__``, ``__rmul__``): ``op``/``rop`` with a short
        path in front for a scalar living on the host with a Python float or
        int or another such scalar, the arithmetic of an eager loop, in NumPy's
        default error state (which namedarray reports nothing in, fperr.py).
        Such operands are constants, also inside a trace, and so is their
        result (as an element read of a vector living on the host is): it
        stays on the host, becoming the trace's constant where a traced value
        meets it.  There it is NumPy's scalar operator in the error
        state that ignores everything, what :meth:`_on_host` answers, in one
        frame (a Python call costs about a tenth of a scalar operation), its
        result NumPy's scalar as the buffer of namedarray's (made inline as
        ``core.array.on_host`` makes it).  ``+ - * /`` of float64 with a
        float64, a Python float or int is Python's own float operation: the
        same IEEE double operation as NumPy's scalar loop, which raises or
        warns about nothing but a division by zero (that, and a Python int
        beyond float64's range, take the general path).  Elsewhere, and where
        NumPy raises or gives another scalar type (longlong for int64, say),
        ``op``/``rop``.
        """
        types, state, last, ignoring = self._scalar_types, _FP_STATE, _FP_LAST, _IGNORING
        settings = config._state
        if _IGNORING is None or self.nout != 1:
            return op, rop
        scalar_type, f64, make_new = self._scalar_type, onp.float64, object.__new__
        floats = _FLOAT_OPERATORS.get(py)
        name = self._np.__name__
        checked = name in fperr.INT_DIVIDE

        def make(general, reflected):
            fast = floats and floats[reflected]

            def numpys(self, other):
                """NumPy's scalar result of the operator, or None (the general path)."""
                if type(self) is not NamedArray or self._host is None:
                    return None
                h = _held_scalar(self._host)
                t = type(other)
                if t is float or t is int:
                    o = other
                elif t is NamedArray and other._host is not None:
                    o = _held_scalar(other._host)
                    t = type(o)
                else:
                    return None
                th = type(h)
                if h is None or o is None or state.get() is not last[0] or \
                        last[1] is not None or settings["mode"] != "numpy":
                    return None
                key = (t, th) if reflected else (th, t)
                rtype = types.get(key)
                if rtype is None:
                    rtype = scalar_type(key)
                if rtype is False:
                    return None
                if checked and rtype in _INT_SCALARS:      # (integer division)
                    try:
                        r = fperr.call_int(name, py, (o, h) if reflected else (h, o))
                    except Exception:   # noqa: BLE001 -- the general path raises
                        return None
                    return r if type(r) is rtype else None
                token = state.set(ignoring)
                try:
                    r = py(o, h) if reflected else py(h, o)
                except Exception:       # noqa: BLE001 -- the general path raises
                    return None
                finally:
                    state.reset(token)
                return r if type(r) is rtype else None

            def operator(self, other):  # (NamedArray's method)
                h = self._host
                t = type(other)
                if type(h) is f64 and fast and type(self) is NamedArray and (
                        t is float or t is int or t is NamedArray and type(other._host) is f64) \
                        and state.get() is last[0] and last[1] is None and \
                        settings["mode"] == "numpy":
                    try:
                        r = f64(fast(h, other._host if t is NamedArray else other))
                    except (ZeroDivisionError, OverflowError):
                        return general(self, other)
                else:
                    r = numpys(self, other)
                    if r is None:
                        return general(self, other)
                x = make_new(NamedArray)        # (core.array.on_host(r), inline)
                x._dev = None
                x._host = r
                x.dims = x.mapped = ()
                x._array0d = x._ro = False
                return x
            operator.__name__ = general.__name__
            return operator

        return make(op, False), make(rop, True)

    def _scalar_type(self, key):
        """NumPy's scalar type of the one result of the loop for operand types
        ``key`` (NumPy's scalar types, Python's number types) where
        :meth:`_operators` may answer, else False; remembered."""
        dkey = tuple(k if k in _PY_NUMBERS else onp.dtype(k) for k in key)
        outs = self._host_dtypes.get(dkey)
        if outs is None:
            outs = self._host_outs(dkey)
        ok = len(outs) == 1 and self.nout == 1 and _IGNORING is not None
        rtype = self._scalar_types[key] = outs[0].type if ok else False
        return rtype

    def _on_host(self, args, op=None):
        """NumPy's ufunc on operands that live on the host (NamedArrays the
        host tier made, Python scalars), outside a trace, in the default
        error state: NumPy's result, living on the host too (engines/host.py);
        None where it may not run there (NumPy's error, or a result dtype not
        namedarray's: the general path answers)."""
        hs, key = [], []
        for a in args:
            t = type(a)
            if t is NamedArray and a._host is not None:
                h = a._host
                key.append(h.dtype)
                if not h.ndim and not a._array0d:
                    h = h[()]   # (NumPy's scalar: its 0-d array's answer, faster)
            elif t is NamedArray or t is View:     # (with one that lives on the host)
                h = readable(a)
                if h is None:
                    return None
                key.append(h.dtype)
            elif t is float or t is int or t is complex:
                h = a
                key.append(t)
            elif t is onp.ndarray and a.dtype in RESIDENT_DTYPES and creates(a.shape):
                h = a       # NumPy's small array: read as namedarray's living there
                key.append(a.dtype)
            elif t is bool:     # (NumPy's bool: a Python bool is not a weak scalar)
                h = a
                key.append(_BOOL)
            elif isinstance(a, onp.generic) and a.dtype in RESIDENT_DTYPES:
                h = a       # NumPy's scalar: its dtype, as an array's
                key.append(a.dtype)
            else:
                return None
            hs.append(h)
        key = tuple(key)
        outs = self._host_dtypes.get(key)
        if outs is None:
            outs = self._host_outs(key)
        if not outs or not untraced():
            return None
        st = _FP_LAST[1] if _FP_STATE.get() is _FP_LAST[0] else fperr.state()
        try:
            if st is not None:      # (what NumPy's loop meets, reported as the state asks)
                r = fperr.call_reported(self._np.__name__, op or self._np, hs, st)
            elif self._checks_int(outs):
                r = fperr.call_int(self._np.__name__, op or self._np, hs)
            else:
                r = call_ignoring(op or self._np, *hs)
        except FloatingPointError:      # (the state's "raise")
            raise
        except Exception:       # noqa: BLE001 -- NumPy's error: the general path's
            return None
        if self.nout == 1:
            if not isinstance(r, (onp.ndarray, onp.generic)):
                # Python's own operator answered, taking NumPy's scalar (complex's
                # takes float64, a float): NumPy's answer (scalar_operands.py)
                return r if op is not None and type(r) in _PY_NUMBERS else None
            if r.dtype != outs[0]:
                return None
            if type(r) is onp.ndarray:
                if r.flags.c_contiguous:
                    return on_host(r)
                if r.ndim > 1 and st is None:   # (NumPy's memory order: the general path
                    return None                 # keeps it; in an error state, reported once)
                return kept(r, fresh=True)
            return on_host(r)       # (NumPy's scalar: namedarray's, core.array.on_host)
        if tuple(e.dtype for e in r) != outs or st is None and any(
                e.ndim > 1 and not e.flags.c_contiguous for e in r if type(e) is onp.ndarray):
            return None
        return tuple(kept(onp.asarray(e), fresh=True) for e in r)

    def _into_host(self, args, out):
        """``self(*args, out=out)`` where ``out`` lives on the host (NumPy's
        own array or view there, nothing else holding its buffer) and the
        operands do: NumPy's result written into ``out``'s buffer, as the call
        without ``out=`` answers (None where it cannot: the general path)."""
        o = out[0] if type(out) is tuple and len(out) == 1 else out
        if type(o) is not NamedArray and type(o) is not View or is_value(o):
            return None
        h, root = host_root(o)
        if h is None or root._dev is not None or not writeable(o) or \
                not h.flags.writeable or (o is root and root._host is not h):
            return None
        r = self._on_host(args)
        rh = host_root(r)[0] if isinstance(r, NamedArray) else None
        if rh is None or rh.dtype != h.dtype or rh.shape != h.shape:
            return None
        h[...] = rh
        return o

    def _host_outs(self, key):
        """The result dtypes of NumPy's loop for operand types ``key`` (those
        of namedarray's loop for them, ``_loop``), remembered; ``()`` where the
        host may not answer (no loop, or a kind whose answer is namedarray's
        own: ``OWN_ANSWERS``)."""
        own = OWN_ANSWERS.get(self.__name__)
        outs = ()
        if not own or not any(isinstance(k, onp.dtype) and k.kind in own or
                              k is float and "f" in own or
                              k is complex and "c" in own for k in key):
            try:
                outs = tuple(self._np.resolve_dtypes(key + (None,) * self.nout)[self.nin:])
            except (TypeError, ValueError, onp.exceptions.DTypePromotionError):
                pass
        self._host_dtypes[key] = outs
        return outs

    def _entry(self, key):
        """The fast path's entry for ``key`` (the operand types, then the
        arrays' shapes) not yet warm: the types' entry, remembered for these
        shapes; None where the fast path does not apply."""
        k = key[0] if self.nin == 1 else key[:2]
        hit = self._fastfn.get(k) or self._first_hit(k)
        if hit is not None:
            self._warm.put(key, hit)
        return hit

    def _first_hit(self, k):
        """The fast path's entry for operand types ``k`` met for the first
        time (NumPy's loop resolved now, so that a first call on a new shape
        may run on the host); None where the fast path does not apply."""
        if k in self._tried:
            return None
        self._tried.add(k)
        try:
            self._loop((k if self.nin > 1 else (k,)) + (None,))
        except TypeError:       # (the general path raises it, as NumPy does)
            return None
        return self._fastfn.get(k)

    def _computes(self, args, kwargs) -> tuple:
        """The dtypes NumPy's loop computes a call in (:func:`loop_dtypes`)."""
        return loop_dtypes(self, args, kwargs)

    def _call(self, *args, **kw):
        if _overrides(args, kw):    # NumPy's protocol: the override answers
            return self._np(*args, **kw)
        if len(kw) == 1 and "out" in kw and len(args) == self.nin and \
                self.nout == 1 and config._state["mode"] == "numpy" and \
                fperr.state() is None:
            r = self._into_host(args, kw["out"])
            if r is not None:
                return r
        if kw.get("out", None) is Ellipsis:     # NumPy's out=...: arrays, never scalars
            del kw["out"]
            r = self._call(*args, **kw)
            return tuple(map(_array, r)) if type(r) is tuple else _array(r)
        try:
            return self._routed(*args, **kw)
        except (TypeError, ValueError) as e:    # Python values JAX cannot hold (Fractions, None)
            return numpy_answers(e, self.__name__, args, kw)

    def _general(self, *args, dtype=None, **kw):
        """NumPy 2's scalar rules, then :meth:`_apply` (data namedarray cannot
        hold: NumPy's ufunc, ``numpy_data.numpy_call``)."""
        if any_host(args):
            return numpy_call(self.__name__, args, kw if dtype is None else {**kw, "dtype": dtype})
        sig = kw.pop("signature", None)
        if "sig" in kw:     # (NumPy's old name of signature=)
            if sig is not None:
                raise TypeError(f"{self.__name__}: cannot specify both 'sig' and 'signature'")
            sig = kw.pop("sig")
        if sig is not None:
            return self._signed(args, sig, dtype, kw)
        if any(lazy(a) for a in args) and fperr.state() is None:
            # boolean-mask selections: full-size (where an error state is to be
            # honoured, on the selected elements only: materialized)
            return apply_ufunc(self, args, kw if dtype is None else {**kw, "dtype": dtype})
        args = list(args)
        shapes = [a.shape for a in args[: self.nin] if isinstance(a, NamedArray)]
        if len(shapes) > 1:
            try:
                onp.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError(
                    f"{self.__name__}: operands could not be broadcast together with "
                    f"positional shapes {' '.join(map(str, shapes))}") from None
        exponent = args[1] if len(args) >= 2 else None     # (as given: power's check)
        for i, a in enumerate(args[: self.nin]):
            if isinstance(a, bool):
                args[i] = positional(jnp.asarray(a))
            elif type(a) is not NamedArray and isinstance(a, onp.generic):
                args[i] = _numpy_scalar(self.__name__, a)   # (NumPy's own scalar)
        casting = kw.get("casting", "same_kind")
        if casting in _CASTINGS and config.numpy_dtypes() and len(args) >= self.nin:
            # NumPy's errors for dtype=/casting= (and out=) come before any about
            # the values (power's negative integer exponents)
            ops = [operand(a) for a in args[: self.nin]]
            self._probe_keywords(ops, dtype, casting)
        # power: NumPy's out= casting error comes after a Python int's OverflowError
        # and before the error about negative integer exponents
        out_pending = self.__name__ in ("power", "pow") and casting in _CASTINGS and \
            config.numpy_dtypes() and len(args) >= self.nin
        ints = [i for i, a in enumerate(args[: self.nin])
                if type(a) is int and a != 0]
        if ints and config.numpy_dtypes() and len(args) >= self.nin:
            ops = [operand(a) for a in args[: self.nin]]
            key = tuple(o.data.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
            in_dts, _ = self._loop(key + (dtype,))
            for i in ints:
                dt = onp.dtype(in_dts[i])
                if dt.kind == "u" and _fits(args[i], dt) and args[i] > _I64:
                    # fits uint64 but not JAX's int64 parse of a Python int
                    args[i] = positional(jnp.asarray(onp.uint64(args[i])))
                    continue
                if dt.kind in "fc" and not _fits(args[i], onp.int64):
                    # NumPy: the int is cast into the loop's dtype (inf where it
                    # overflows that dtype; the loop stays, e.g. float16 for int8)
                    args[i] = positional(jnp.asarray(_to_inexact(self.__name__, args[i], dt)))
                    continue
                if dt.kind not in "iu" or _fits(args[i], dt):
                    continue
                other = key[1 - i] if self.nin == 2 else None
                if self.__name__ in _COMPARISONS and dtype is None and isinstance(
                        other, onp.dtype) and other.kind in "iu":
                    # NumPy 2 compares exactly: an int beyond the integer dtype of
                    # the other operand is above (or below) every value of it, as
                    # +inf (-inf) is; the answer is the same for every element
                    args[i] = positional(jnp.asarray(onp.inf if args[i] > 0 else -onp.inf,
                                                     onp.float64))
                else:
                    raise OverflowError(f"{self.__name__}: Python integer {args[i]} out of "
                                        f"bounds for {dt}")
            if out_pending:
                out_pending = False
                self._check_out_casting(ops, kw.get("out", args[self.nin:] or None),
                                        dtype, casting)
            # (an exponent made an array above is not negative, or not an integer:
            # compared as the Python int only, which a trace leaves a number)
            if self.__name__ in ("power", "pow") and 1 in ints and type(args[1]) is int \
                    and args[1] < 0 and onp.dtype(in_dts[1]).kind in "iu":
                if getattr(ops[0], "size", 1):
                    raise ValueError(f"{self.__name__}: integers to negative integer "
                                     f"powers are not allowed (exponent {args[1]})")
                args[1] = -args[1]  # empty base: no element is raised, result empty
        if out_pending:
            self._check_out_casting([operand(a) for a in args[: self.nin]],
                                    kw.get("out", args[self.nin:] or None), dtype, casting)
        if self.__name__ in ("power", "pow") and len(args) >= 2 and config.numpy_dtypes():
            # (NumPy's scalar exponent is known, also where a trace holds its array)
            given = type(exponent) is not NamedArray and isinstance(exponent, onp.generic)
            _check_int_power(self.__name__, args[0],
                             onp.asarray(exponent) if given else args[1], dtype)
        return self._apply(*args, dtype=dtype, **kw)

    def _signed(self, args, sig, dtype, kw):
        """``self(*args, signature=sig, **kw)``: NumPy's loop for ``sig`` (a
        ``"dd->?"`` string, a tuple of dtypes and ``None``; NumPy's error
        where it has none), the operands cast to its input dtypes."""
        name, nin = self.__name__, self.nin
        if dtype is not None:
            raise TypeError(f"{name}: cannot specify both 'signature' and 'dtype'")
        if isinstance(sig, str) and "->" in sig:
            sig = tuple(sig.replace(",", "").replace("->", ""))
        if isinstance(sig, (tuple, list)):
            sig = tuple(None if t is None else onp.dtype(t) for t in sig)
            if not all(t is None or config.holds(t) for t in sig):     # (object: NumPy's)
                return numpy_call(name, args, {**kw, "signature": sig})
        elif not (isinstance(sig, (str, onp.dtype)) or isinstance(sig, type)):
            raise TypeError(f"{name}: signature must be a string, a dtype or a tuple of "
                            f"dtypes and None, got {type(sig).__name__}")
        ops = [positional(jnp.asarray(a)) if isinstance(a, bool) else operand(a)
               for a in args[:nin]]
        types = tuple(o.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
        self._probe(name, "__call__", tuple(
            onp.ones(1, t) if isinstance(t, onp.dtype) else t(1) for t in types),
            {"signature": sig, "casting": kw.get("casting", "same_kind")})
        try:
            in_dts = self._np.resolve_dtypes(types + (None,) * self.nout,
                                             signature=sig)[:nin]
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}: signature={sig}: {e}") from None
        ops = [rewrap(o, o.data.astype(dt)) if isinstance(o, NamedArray) else
               positional(jnp.asarray(o, dt)) for o, dt in zip(ops, in_dts)]
        return self._general(*ops, *args[nin:], **kw)

    def _probe_keywords(self, ops, dtype, casting):
        """NumPy's error where it has no loop for ``dtype=``/``casting=`` and
        the operands ``ops`` (NamedArrays, Python scalars): its own call on
        stand-ins of their types."""
        if (dtype is not None or casting != "same_kind") and not config.any_ml(
                [o.dtype for o in ops if isinstance(o, NamedArray)] + (
                    [] if dtype is None else [onp.dtype(dtype)])):
            self._probe(self.__name__, "__call__", tuple(
                onp.ones(1, o.dtype) if isinstance(o, NamedArray) else type(o)(1)
                for o in ops), {"dtype": dtype, "casting": casting})

    def _check_out_casting(self, ops, out, dtype, casting):
        """NumPy's ``TypeError`` where the loop's result cannot be cast to
        ``out=``'s dtype under ``casting`` (as :func:`cast_out` raises it
        once the result is made)."""
        out = out[0] if isinstance(out, (tuple, list)) and out else out
        if out is None or not hasattr(out, "dtype") or config.any_ml(
                [o.dtype for o in ops if isinstance(o, NamedArray)]):
            return
        key = tuple(o.data.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
        _, out_dts = self._loop(key + (dtype,))
        if out_dts:
            check_out_cast(self.__name__, f"ufunc '{self.__name__}'", out_dts[0], out, casting)

    def _apply(self, *args, out=None, where=True, dtype=None, casting="same_kind",
               order="K", subok=True):
        nin = self.nin
        if not isinstance(casting, str):
            raise TypeError(f"{self.__name__}: casting must be str, not "
                            f"{type(casting).__name__}")
        if casting not in _CASTINGS:
            raise ValueError(f"{self.__name__}: casting must be one of 'no', 'equiv', "
                             f"'safe', 'same_kind', or 'unsafe' (got {casting!r})")
        if len(args) != nin:
            n, most = len(args), nin + self.nout
            if nin < n <= most and out is None:
                out = args[nin:] if n - nin > 1 else args[nin]
                args = args[:nin]
            elif nin < n <= most:
                raise TypeError(f"{self.__name__}: cannot specify 'out' as both a "
                                "positional and keyword argument")
            else:
                raise TypeError(f"{self.__name__}: {self.__name__}() takes from {nin} to "
                                f"{most} positional arguments but {n} "
                                f"{'was' if n == 1 else 'were'} given")
        out = out_entries(self.__name__, out, self.nout)
        _check_out(self.__name__, out)
        ops = [operand(a) for a in args]
        if nin > 1 and not backends.cpu_only():     # (operands at different homes meet)
            ops = beside(ops)
        out_dts = None
        jfn = self._impl
        signed = _mixed_sign(ops) if self.__name__ in _COMPARISONS and dtype is None \
            else None
        if signed is not None:
            jfn = _exact_compare(jfn, self.__name__, signed)
        elif config.numpy_dtypes():
            # (dtype=/casting= were checked by _general on the operands as given: a
            # Python int a comparison replaced by an infinity is not NumPy's operand)
            key = tuple(o.data.dtype if isinstance(o, NamedArray) else type(o) for o in ops)
            in_dts, out_dts = self._loop(key + (dtype,))
            for i, o in enumerate(ops):
                if isinstance(o, NamedArray):
                    if o.data.dtype != in_dts[i]:
                        ops[i] = new(o.data.astype(in_dts[i]), o.dims, o.mapped)
                elif not any(isinstance(p, NamedArray) for p in ops):
                    ops[i] = positional(jnp.asarray(o, in_dts[i]))
                elif _narrowed(type(o), in_dts[i]):
                    ops[i] = in_dts[i].type(o)      # (NumPy's cast, _narrowed)
                elif dtype is not None and (type(o) is complex and in_dts[i].kind != "c" or
                                            type(o) is float and in_dts[i].kind in "biu"):
                    # a Python scalar above the loop dtype= asks for: NumPy's cast
                    # of it (complex drops its imaginary part, float truncates)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ops[i] = positional(jnp.asarray(onp.array(o).astype(in_dts[i])))
        elif dtype is not None:
            ops = [new(o.data.astype(dtype), o.dims, o.mapped) if isinstance(o, NamedArray)
                   else o for o in ops]
        if all(not isinstance(o, NamedArray) or (o.dims.count(None) == len(o.dims)
                                                 and not o.mapped) for o in ops):
            res = jfn(*[o.data if isinstance(o, NamedArray) else o for o in ops])
            dims = mapped = None
        elif self.nout == 1 and _kernel_runs(ops):
            # the alignment (one transpose at most per operand) and the op as one
            # cached jitted function: eager, one compiled call; traced, its cached
            # jaxpr inlined (as jax.numpy's ufuncs are), not traced again per call
            steps, dims = align_plan(self.__name__, ops)
            mapped = ()
            out_dt = out_dts[0] if out_dts else None
            res = _kernel(jfn, steps, out_dt)(
                *[o.data if isinstance(o, NamedArray) else o for o in ops])
        else:
            datas, dims, mapped = align(self.__name__, ops)
            res = jfn(*datas)
        if self.nout == 1:
            res = finish(res, out_dts[0] if out_dts else None, dims, mapped)
        else:
            res = tuple(finish(r, out_dts[i] if out_dts else None, dims, mapped)
                        for i, r in enumerate(res))
        if out is not None:
            res = cast_out(self.__name__, out, res, casting, f"ufunc '{self.__name__}'")
        if where is not True:
            res = _where(where, res, out)
        res = store_out(self.__name__, out, res)
        st = fperr.state()
        if st is None and self._checks_int(out_dts or (r.dtype for r in (
                res if isinstance(res, tuple) else (res,)))):
            st = fperr.int_state()
        if st is not None and (self._np.__name__ in fperr.INT_DIVIDE or any(
                onp.dtype(d).kind in "fc" for d in (out_dts or (r.dtype for r in (
                    res if isinstance(res, tuple) else (res,)))))):
            self._check(jfn, ops, where, st)
        return res

    def _check(self, jfn, ops, where, st):
        """The floating-point error state honoured for this call on the
        (cast) operands ``ops`` (engines/fperr.py)."""
        if where is not True:
            w = operand(where)
            w = w if isinstance(w, NamedArray) else positional(jnp.asarray(w, bool))
            *datas, mask = align(self.__name__, [*ops, w])[0]
        else:
            datas, mask = align(self.__name__, ops)[0], None
        fperr.check(self._np.__name__, jfn, datas, mask, st)


def _array(r):
    """A ufunc's result ``r`` with a scalar as a 0-d array (``out=...``)."""
    return zero_dim_array(r) if isinstance(r, NamedArray) and is_value(r) else r


def _fast_named(r, out_dt, dims, mapped):
    """The fast path's result: ``r`` (cast to ``out_dt`` unless None) as a
    NamedArray of ``dims``."""
    if out_dt is not None and r.dtype != out_dt:
        r = r.astype(out_dt)
    return new(r, dims, mapped)


def _broadcastable(s, t) -> bool:
    return all(a == b or a == 1 or b == 1 for a, b in zip(s[::-1], t[::-1]))


def _where(where, res, out):
    """The ``where=`` argument: ``res`` where true, else ``out`` (or zeros)."""
    if out is None:
        base = jax.tree_util.tree_map(lambda r: rewrap(r, jnp.zeros_like(r.data)), res,
                                      is_leaf=lambda v: isinstance(v, NamedArray))
    else:
        base = out
    if isinstance(res, tuple):
        return tuple(_select(where, r, b) for r, b in zip(res, base))
    return _select(where, res, base)

"""The floating-point error state of eager operations: NumPy's ``errstate``,
``seterr`` and ``seterrcall`` honoured by namedarray's ufuncs.

One store.  ``np.errstate``, ``np.seterr``, ``np.geterr``, ``np.seterrcall``
and ``np.geterrcall`` are NumPy's own (a program mixing NumPy and namedarray
sees one setting); this module reads NumPy's state before an eager call, at
the cost of one context-variable read while the state is unchanged.

When the check runs.  Finding out whether a result has a division by zero,
an overflow, an underflow or an invalid value costs a device reduction and a
host synchronization per operation (eager ``x + y`` took 1.6x to 3x as long
on 8 x 16 arrays, against the 1.2x that eager operations may cost).  So
namedarray checks only when the state differs from NumPy's default
(``divide``, ``over`` and ``invalid``: ``"warn"``; ``under``: ``"ignore"``).
NumPy's default state therefore warns about nothing in namedarray (a
documented difference) but integer division: ``floor_divide``,
``remainder``, ``fmod``, ``divmod`` and ``reciprocal`` with integer results
warn about a division by zero and ``MIN // -1``'s overflow there too (their
check is cheap against the integer division itself); any other state (``np.errstate(all="raise")``,
``np.seterr(over="warn", under="warn")``, ``"call"``, ``"log"``, ``"print"``)
is honoured for every category as NumPy honours it: the same warning text,
the same ``FloatingPointError``, the same arguments to the ``seterrcall``
function (the category and the bits of every category met), the same line
written to a ``seterrcall`` object's ``write``.  NumPy's default values
set explicitly (``np.errstate(divide="warn")`` alone) still read as the
default; ``np.errstate(all="warn")`` warns about every category, underflow
included.

How a category is found.  Data living on the host (engines/host.py) runs
NumPy's own loop in every state, and what the loop meets (NumPy's flags,
read under a collecting state) is reported as the user's state asks
(:func:`call_reported`): NumPy's categories exactly, at NumPy's speed.  On
a device NumPy reads the processor's flags; namedarray classifies the result
against the operands, as one compiled predicate on the device:

* *invalid*: a NaN where no operand is NaN (``0/0``, ``inf - inf``,
  ``sqrt(-1)``, ``log(-1)``);
* *divide*: an infinity from finite operands at a pole of the function
  (``x/0``, ``log(0)``, ``reciprocal(0)``, ``arctanh(1)``, ``0 ** -1``), and
  integer ``floor_divide``/``remainder``/``fmod``/``divmod`` by 0 (integer
  ``reciprocal(0)``: divide and invalid, as NumPy);
* *overflow*: any other infinity from finite operands, and
  ``floor_divide``/``divmod`` of the smallest signed integer by -1 (a float
  quotient that overflows also reports the invalid value NumPy's loop meets);
* *underflow*: a zero or subnormal result from nonzero finite operands of
  ``multiply``, ``divide``, ``square``, ``exp``, ``exp2``, ``power``,
  ``float_power``, ``ldexp``, ``arctan2``, ``floor_divide`` and ``divmod``.
  NumPy also reports underflows met inside other functions (``arcsin`` of a
  subnormal number, ``logaddexp``); namedarray does not.

An infinite operand gives no category (its infinity is not new).  NumPy's
``power`` loop on some processors reports one there anyway (with AVX-512:
``0 ** -inf`` a division by zero, ``1e308 ** inf`` an overflow; without it,
nothing): that is the processor's, not the function's.

Elements that ``where=`` leaves out are not looked at.  ``sum``, ``prod``,
``mean``, ``add.reduce`` and ``multiply.reduce`` report an overflow or an
invalid value "encountered in reduce", as NumPy does.  Complex results are
classified by the same rules (NumPy reports more invalid values inside
complex arithmetic on infinite operands).  Subnormal operands are zero on
XLA's CPU, so ``1 / 1e-310`` is a division by zero there.

Traced code is not checked: under ``jax.jit``, ``grad``, ``vmap`` or inside
``nmap`` the values are not known when the operation is staged, so the error
state has no effect there (use ``jax.debug_nans``/``jax.debug_infs`` or
``jax.experimental.checkify`` to find them).  Casts (``astype``), cumulative
operations, ``nansum``/``nanprod``, linear algebra and the other functions
that are not ufuncs are not checked either.

>>> import namedarray as np
>>> with np.errstate(divide="raise"):
...     np.divide(np.ones(2), 0)
Traceback (most recent call last):
...
FloatingPointError: divide by zero encountered in divide
>>> with np.errstate(all="ignore"):
...     np.log(np.zeros(1))
array([-inf])
"""
from __future__ import annotations

import functools
import os
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from ...core.cache import Cache


class _Unknown:
    """Where NumPy's state object cannot be read: a new one on every read
    (the state is then read on every call)."""

    def get(self):
        return object()


try:        # NumPy 2: the error state is a context variable holding a capsule
    from numpy._core._multiarray_umath import _extobj_contextvar as STATE
except ImportError:     # pragma: no cover
    STATE = _Unknown()


class _State:
    """``numpy.errstate(all=mode)`` for a call on the host, for a tenth of its
    cost: NumPy's state object for it is set and reset directly."""

    __slots__ = ("_token",)
    _STATE = None

    def __enter__(self):
        self._token = STATE.set(self._STATE)

    def __exit__(self, *exc):
        STATE.reset(self._token)


class ignored(_State):
    """``numpy.errstate(all="ignore")``, cheaply."""
    __slots__ = ()


class raised(_State):
    """``numpy.errstate(all="raise", under="ignore")`` (NumPy's gradual
    underflow is no error), cheaply."""
    __slots__ = ()


_MODES = {ignored: {"all": "ignore"}, raised: {"all": "raise", "under": "ignore"}}
if isinstance(STATE, _Unknown):     # pragma: no cover -- NumPy's own, then
    ignored, raised = (functools.partial(onp.errstate, **m) for m in _MODES.values())

    def call_ignoring(fn, *args):
        with ignored():
            return fn(*args)
else:
    for _c, _mode in _MODES.items():
        with onp.errstate(**_mode):
            _c._STATE = STATE.get()

    def call_ignoring(fn, *args, _ignored=ignored._STATE):
        """``fn(*args)`` in ``numpy.errstate(all="ignore")``: the cheapest form
        of :class:`ignored`, for one call of NumPy's."""
        token = STATE.set(_ignored)
        try:
            return fn(*args)
        finally:
            STATE.reset(token)

#: NumPy's categories: (bit, ``geterr`` key, the text of its message)
CATEGORIES = ((1, "divide", "divide by zero"), (2, "over", "overflow"),
              (4, "under", "underflow"), (8, "invalid", "invalid value"))
_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}

#: the state last read: [NumPy's state object, what it means here, whether it
#: is NumPy's default]; the fast paths are taken while ``STATE.get() is
#: LAST[0] and LAST[1] is None``
LAST: list = [object(), None, False]

#: ufuncs with integer results that NumPy checks (division by zero)
INT_DIVIDE = frozenset(("floor_divide", "remainder", "fmod", "divmod", "reciprocal"))
_UNDERFLOWS = frozenset(("multiply", "divide", "square", "exp", "exp2", "power",
                         "float_power", "ldexp", "arctan2"))


def state():
    """``(bits, modes)`` of the categories to check now (``modes``:
    NumPy's ``geterr()`` dict), or None where nothing is checked (NumPy's
    default state, or every category ignored)."""
    s = STATE.get()
    if s is LAST[0]:
        return LAST[1]
    modes = onp.geterr()
    bits = 0 if modes == _DEFAULT else sum(
        b for b, key, _ in CATEGORIES if modes[key] != "ignore")
    st = (bits, modes) if bits else None
    LAST[0], LAST[1], LAST[2] = s, st, modes == _DEFAULT   # (holding s: its id is not reused)
    return st


#: what integer division is checked for in NumPy's default state
_INT_DEFAULT = (1 | 2 | 8, _DEFAULT)


def int_state():
    """:func:`state` for an integer result of a ``INT_DIVIDE`` ufunc: in
    NumPy's default state too, its division by zero and ``MIN // -1``'s
    overflow are reported (NumPy's warnings), as the other states report them."""
    st = state()
    return _INT_DEFAULT if st is None and LAST[2] else st


#: the categories NumPy's loops met under :data:`_CALLING` (call_int)
_MET: list = []
_CALLING = None
if not isinstance(STATE, _Unknown):
    with onp.errstate(all="call", call=lambda _, bits: _MET.append(bits)):
        _CALLING = STATE.get()


def call_int(name, fn, args):
    """NumPy's integer division ``fn`` (the ufunc ``name``'s loop, on host
    data), what it meets reported as :func:`int_state` asks, in the words of
    the compiled path's check."""
    st = int_state()
    if st is None:
        return call_ignoring(fn, *args)
    return call_reported(name, fn, args, st)


def call_reported(name, fn, args, st):
    """NumPy's loop ``fn`` of the ufunc ``name`` on host data, what its loop
    meets (NumPy's own flags) reported as the error state ``st`` asks
    (:func:`report`: a warning at the caller's line, NumPy's error, the
    ``seterrcall`` function called once)."""
    if _CALLING is None:    # pragma: no cover -- NumPy's state is not ours to set
        with onp.errstate(all="call", call=lambda _, bits: _MET.append(bits)):
            r = fn(*args)
    else:
        token = STATE.set(_CALLING)
        try:
            r = fn(*args)
        finally:
            STATE.reset(token)
    if _MET:
        bits = functools.reduce(lambda a, b: a | b, _MET)
        _MET.clear()
        report(name, bits, st)
    return r


def int_checked(name, fn, place):
    """The kernel ``fn`` of the ufunc ``name``'s integer division, what it
    meets reported as :func:`int_state` asks: its check computed with it, by
    one compiled call (``place``: how a kernel is placed, ``fn`` -> the
    function to call)."""
    plain = place(fn)

    def both(*datas):
        r = fn(*datas)
        return r, flags(name, r, datas)
    both = place(jax.jit(both))

    def call(*datas):
        st = int_state()
        if st is None or any(isinstance(d, jax.core.Tracer) for d in datas):
            return plain(*datas)
        r, bits = both(*datas)
        report(name, int(bits), st)
        return r
    return call


def _poles(name, ins):
    """Where ``name`` has a pole at the operands ``ins`` (an infinity there
    is a division by zero), or None."""
    x = ins[0]
    if name in ("divide", "floor_divide", "divmod"):
        return ins[1] == 0
    if name in ("log", "log2", "log10", "reciprocal"):
        return x == 0
    if name == "log1p":
        return x == -1
    if name == "arctanh":
        return jnp.abs(x) == 1
    if name in ("power", "float_power"):
        return (x == 0) & (jnp.real(ins[1]) < 0)
    return None


def _inexact(v):
    return jnp.issubdtype(jnp.result_type(v), jnp.inexact)


def flags(name, res, ins, where=None):
    """The categories (an int32 of NumPy's bits) that the ufunc ``name``
    meets giving ``res`` (an array or a tuple) from the operands ``ins``
    (broadcast to it); ``where``: the elements looked at.  Traceable."""
    outs = res if isinstance(res, tuple) else (res,)
    ins = [jnp.asarray(v) for v in ins]
    finite = nan_in = False
    for v in ins:
        if _inexact(v):
            finite = finite & jnp.isfinite(v) if finite is not False else jnp.isfinite(v)
            nan = jnp.isnan(v) if name != "spacing" else ~jnp.isfinite(v)
            nan_in = nan_in | nan
    finite = True if finite is False else finite
    pole = _poles(name, ins)
    div = over = under = inv = False
    for i, r in enumerate(outs):
        if _inexact(r):
            inf = jnp.isinf(r)
            new = inf & finite
            if pole is None:
                over = over | new
            else:
                div = div | (new & pole)
                over = over | (new & ~pole)
            inv = inv | (jnp.isnan(r) & ~inf & ~nan_in)
            if i == 0 and name in ("floor_divide", "divmod"):
                # NumPy's loop meets an invalid value past an overflowed quotient,
                # and an underflow in a quotient below the smallest normal number
                inv = inv | (new & ~pole)
                tiny = jnp.finfo(r.dtype).tiny
                under = under | ((r == 0) & (ins[0] != 0) & finite &
                                 (jnp.abs(ins[0]) < tiny * jnp.abs(ins[1])))
            elif name in _UNDERFLOWS:
                real = r.real if jnp.iscomplexobj(r) else r
                tiny = jnp.abs(real) < jnp.finfo(real.dtype).tiny
                nonzero = ins[0] != 0 if name not in ("exp", "exp2") else True
                if name == "multiply":
                    nonzero = nonzero & (ins[1] != 0)
                under = under | (tiny & nonzero & finite & ~inf)
        elif name == "reciprocal" and jnp.issubdtype(r.dtype, jnp.integer):
            div = div | (ins[0] == 0)      # NumPy computes 1 / 0 in the loop's dtype
            inv = inv | (ins[0] == 0)
        elif name in INT_DIVIDE and jnp.issubdtype(r.dtype, jnp.integer):
            div = div | (ins[1] == 0)
            if name in ("floor_divide", "divmod") and jnp.issubdtype(
                    r.dtype, jnp.signedinteger):
                over = over | ((ins[0] == jnp.iinfo(r.dtype).min) & (ins[1] == -1))
    bits = jnp.int32(0)
    shape = jnp.shape(outs[0])
    for b, m in ((1, div), (2, over), (4, under), (8, inv)):
        if m is not False:
            # (over the result's elements: an operand's zero meets none of an empty result)
            m = jnp.broadcast_to(m, jnp.broadcast_shapes(jnp.shape(m), shape))
            if where is not None:
                m = m & where
            bits = bits | jnp.where(jnp.any(m), jnp.int32(b), jnp.int32(0))
    return bits


_KERNELS = Cache()


def _kernel(name, jfn, masked):
    key = (name, jfn, masked)
    k = _KERNELS.get(key)
    if k is None:
        if masked:
            def run(where, *datas):
                return flags(name, jfn(*datas), datas, where)
        else:
            def run(*datas):
                return flags(name, jfn(*datas), datas)
        k = _KERNELS.put(key, jax.jit(run))
    return k


#: the reductions checked, as NumPy's ``add.reduce``/``multiply.reduce``
REDUCTIONS = frozenset(("sum", "prod", "mean", "add.reduce", "multiply.reduce"))


@functools.partial(jax.jit, static_argnums=(2, 3))
def _reduce_flags(r, x, axis, keepdims, where):
    """Overflow (an infinity where the reduced elements are finite) and
    invalid (a NaN where none of them is NaN) of a sum or product ``r`` of
    ``x`` over ``axis`` (None: look at the whole of ``x``, for every element
    of ``r``)."""
    bad, nan = ~jnp.isfinite(x), jnp.isnan(x)
    if where is not None:
        bad, nan = bad & where, nan & where
    if axis is None:
        bad, nan = jnp.any(bad), jnp.any(nan)
    else:
        bad = jnp.any(bad, axis=axis, keepdims=keepdims)
        nan = jnp.any(nan, axis=axis, keepdims=keepdims)
    over = jnp.any(jnp.isinf(r) & ~bad)
    inv = jnp.any(jnp.isnan(r) & ~jnp.isinf(r) & ~nan)
    return jnp.where(over, 2, 0) | jnp.where(inv, 8, 0)


def check_reduce(r, x, axis=None, keepdims=False, where=None, st=None):
    """Report what a sum or product ``r`` of ``x`` meets (NumPy: "...
    encountered in reduce").  ``axis``: the reduced positional axes (an int
    or a tuple of them); None where they are not known here (named axes:
    then an infinity or NaN anywhere in ``x`` counts for every result)."""
    st = state() if st is None else st
    if st is None or x.size == 0 or not jnp.issubdtype(r.dtype, jnp.inexact):
        return
    for v in (r, x, where):
        if isinstance(v, jax.core.Tracer):
            return
    if axis is not None:
        axis = (axis,) if isinstance(axis, int) else tuple(axis)
    report("reduce", int(_reduce_flags(r, x, axis, bool(keepdims), where)), st)


_FOLDS = Cache()


def _fold_kernel(name, f, axes, masked, initial):
    """The jitted categories that ``name.reduce`` (a left fold of the binary
    ``f`` over ``axes``, in C order) meets, step by step as its loop does."""
    key = (name, f, axes, masked, initial)
    k = _FOLDS.get(key)
    if k is None:
        def run(d, w):
            front = tuple(range(len(axes)))
            rest = tuple(n for i, n in enumerate(d.shape) if i not in axes)
            m = jnp.moveaxis(d, axes, front).reshape((-1,) + rest)
            w = jnp.ones(m.shape, bool) if w is None else jnp.moveaxis(
                jnp.broadcast_to(w, d.shape), axes, front).reshape(m.shape)
            start = jnp.zeros(rest, d.dtype) if initial is None else jnp.full(
                rest, initial, d.dtype)
            seen = jnp.full(rest, initial is not None)

            def step(c, xw):
                acc, seen, bits = c
                x, take = xw
                r = f(acc, x).astype(d.dtype)
                bits = bits | flags(name, r, (acc, x), seen & take)
                r = jnp.where(seen, r, x)
                return (jnp.where(take, r, acc), seen | take, bits), None
            (_, _, bits), _ = jax.lax.scan(step, (start, seen, jnp.int32(0)), (m, w))
            return bits
        k = _FOLDS.put(key, jax.jit(run) if masked else jax.jit(lambda d: run(d, None)))
    return k


def check_fold(name, f, d, axis, where=None, initial=None, st=None):
    """Report, as NumPy's error state asks, what ``name.reduce`` of the data
    ``d`` over ``axis`` (None: all; an int or a tuple) meets as NumPy's loop
    folds it (``floor_divide.reduce`` of a 0 divisor: "divide by zero
    encountered in reduce"); ``f``: the binary function folded; ``where``: a
    boolean array broadcasting to ``d``, or None."""
    st = state() if st is None else st
    if st is None or d.size == 0 or any(isinstance(v, jax.core.Tracer) for v in (d, where)):
        return
    axes = tuple(range(d.ndim)) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    axes = tuple(sorted(a % d.ndim for a in axes)) if d.ndim else ()
    if not axes:
        return
    if initial is not None:
        initial = initial.item() if hasattr(initial, "item") else initial
    k = _fold_kernel(name, f, axes, where is not None, initial)
    report("reduce", int(k(d) if where is None else k(d, where)), st)


def check(name, jfn, datas, where=None, st=None):
    """Report, as NumPy's error state asks, what the ufunc ``name``
    (computed by ``jfn``) meets on the aligned operands ``datas``
    (arrays and Python scalars; ``where``: a boolean array broadcasting
    with them, or None).  Nothing is checked on traced values."""
    st = state() if st is None else st
    if st is None:
        return
    for v in (*datas, where):
        if isinstance(v, jax.core.Tracer):
            return
    if where is None:
        bits = int(_kernel(name, jfn, False)(*datas))
    else:
        bits = int(_kernel(name, jfn, True)(where, *datas))
    report(name, bits, st)


def report(name, bits, st=None):
    """What NumPy does for the categories ``bits`` met by ``name`` under
    the error state ``st``: warn, raise, call, print or log, category by
    category in NumPy's order (divide, overflow, underflow, invalid)."""
    st = state() if st is None else st
    if st is None or not bits & st[0]:
        return
    modes = st[1]
    for b, key, text in CATEGORIES:
        if not bits & b & st[0]:
            continue
        mode = modes[key]
        msg = f"{text} encountered in {name}"
        if mode == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=_stacklevel())
        elif mode == "raise":
            raise FloatingPointError(msg)
        elif mode == "print":
            print(f"Warning: {msg}", file=sys.stderr)
        elif mode in ("call", "log"):
            f = onp.geterrcall()
            if f is None:
                raise NameError(f"python callback specified for {text} (in  {name}) "
                                "but no function found.")
            if mode == "call":
                f(text, bits)
            else:
                f.write(f"Warning: {msg}\n")


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PACKAGE += os.sep


def _stacklevel():
    """The ``stacklevel`` that points a warning at the first frame outside
    namedarray (the user's call, as NumPy's warning does)."""
    f = sys._getframe(1)
    level = 1
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        f = f.f_back
        level += 1
    return level

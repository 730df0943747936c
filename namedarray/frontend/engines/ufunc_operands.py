"""The operand rules of the ufunc engine (``ufunc.py``): NumPy's errors for
integers to negative powers, NumPy's scalars as strongly typed operands,
exact comparisons of signed integers with uint64, Python ints in a loop's
dtype; and the one jitted kernel of positional operands (:func:`_kernel`)."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as onp

from ...core import config
from ...core.align import apply_step
from ...core.array import NamedArray, positional
from ...core.cache import Cache
from ...core.sharding import agree
from .ufunc_methods import _any_negative


def _check_int_power(fn, base, exp, dtype):
    """NumPy's ``ValueError`` for an integer array to a negative integer power
    (eager calls; under ``jax.jit`` JAX's integer power of a negative exponent
    is 0 except for bases 1 and -1)."""
    if type(exp) in (float, complex) and dtype is not None and onp.dtype(dtype).kind == "i":
        # NumPy casts the exponent into the integer loop dtype= names (toward zero)
        if exp.real <= -1 and not (isinstance(base, (NamedArray, onp.ndarray)) and
                                   base.size == 0):
            raise ValueError(f"{fn}: integers to negative integer powers are not allowed")
        return
    if isinstance(exp, onp.ndarray):      # NumPy's array (checked on the host)
        d = exp
    elif isinstance(exp, NamedArray) and not isinstance(exp.data, jax.core.Tracer):
        d = exp.data
    else:
        return
    b = base.dtype if hasattr(base, "dtype") else onp.result_type(base)
    if isinstance(base, (int, bool)):
        b = onp.dtype(onp.int_) if isinstance(base, int) and not isinstance(base, bool) \
            else onp.dtype(bool)
    if exp.dtype.kind != "i" or exp.size == 0 or (dtype is not None and onp.dtype(
            dtype).kind not in "iu") or onp.result_type(b, exp.dtype).kind not in "iu":
        return
    if isinstance(base, (NamedArray, onp.ndarray)) and base.size == 0:
        return
    if bool((d < 0).any() if isinstance(d, onp.ndarray) else _any_negative(d)):
        raise ValueError(f"{fn}: integers to negative integer powers are not allowed")


def _numpy_scalar(fn, v):
    """A NumPy scalar operand: a strongly typed 0-d array (NumPy 2's rule)."""
    if not config.holds(v.dtype):        # an ML scalar (np.bfloat16(2.0)) is numeric
        raise TypeError(f"{fn}: operands of dtype {v.dtype} are not supported (namedarray "
                        "holds numeric, ML (bfloat16, float8_*) and bool data only)")
    return positional(jnp.asarray(v))


def _narrowed(t, loop_dtype) -> bool:
    """Whether a Python scalar of type ``t`` enters a loop of ``loop_dtype``
    narrower than its own (a float into float32, float16, bfloat16; a complex
    into complex64; any number into a bool loop, ``logical_and``'s): it is
    cast to the loop's dtype at once, as NumPy casts it.  As a jitted
    argument it would be float64 (complex128), and the kernel would compute
    some steps in it (the sign of a floor quotient's zero, a complex power,
    a truth value), which a TPU's compiler fails on or aborts at."""
    return (t is float and loop_dtype.kind in "fV" and loop_dtype.itemsize < 8 or
            t is complex and loop_dtype == onp.dtype(onp.complex64) or
            t in (int, float, complex) and loop_dtype.kind == "b")


def _signed_and_uint64(dts) -> bool:
    """Whether ``dts`` (dtypes, Python types) are a signed integer dtype and uint64."""
    kinds = sorted(d.kind for d in dts if isinstance(d, onp.dtype))
    return kinds == ["i", "u"] and onp.dtype("uint64") in dts


def _mixed_sign(ops):
    """For a comparison of a signed integer array with a uint64 one: the index
    of the signed operand (NumPy compares them exactly, not through float64)."""
    dts = [o.dtype if isinstance(o, NamedArray) else None for o in ops]
    if len(dts) != 2 or None in dts:
        return None
    kinds = [d.kind for d in dts]
    if sorted(kinds) == ["i", "u"] and onp.dtype(dts[kinds.index("u")]).itemsize == 8:
        return kinds.index("i")
    return None


@functools.lru_cache(maxsize=None)
def _exact_compare(jfn, name, signed):
    """``jfn`` comparing a signed and a uint64 array exactly: a negative signed
    value is below every unsigned one; the others compare as uint64."""
    below = name in ("less", "less_equal", "not_equal")     # signed < unsigned
    above = name in ("greater", "greater_equal", "not_equal")

    def f(a, b):
        s = (a, b)[signed]
        neg = s < 0
        r = jfn(a.astype(jnp.uint64), b.astype(jnp.uint64))
        return jnp.where(neg, below if signed == 0 else above, r)
    return f


def _to_inexact(fn, v: int, dt):
    """The Python int ``v`` in the inexact loop dtype ``dt`` (inf beyond its range,
    as NumPy casts it); an int beyond every float raises NumPy's OverflowError."""
    try:
        f = float(v)
    except OverflowError:
        raise OverflowError(f"{fn}: Python integer {v} too large to convert to "
                            f"{onp.dtype(dt)}") from None
    with onp.errstate(over="ignore"):
        return onp.asarray(f).astype(dt)


def _fits(v: int, dt) -> bool:
    info = onp.iinfo(dt)
    return info.min <= v <= info.max


def loop_dtypes(u, args, kwargs) -> tuple:
    """The dtypes NumPy's loop computes a call of the ufunc ``u`` in, its
    operands' and its results' (``log2`` of int32 data: float64), for the
    dispatcher's capability table; () where JAX's dtype rules apply or the
    operands are not plain arrays and Python numbers."""
    if not config.numpy_dtypes() or len(args) < u.nin:
        return ()
    key = []
    for a in args[: u.nin]:
        t = type(a)
        if isinstance(a, (NamedArray, onp.ndarray, onp.generic, jax.Array)):
            key.append(onp.dtype(a.dtype))
        elif t is bool:     # (an array of NumPy's bool to the loop)
            key.append(onp.dtype(bool))
        elif t in (int, float, complex):
            key.append(t)
        else:
            return ()
    try:
        ins, outs = u._loop((*key, kwargs.get("dtype")))
    except (TypeError, ValueError):
        return ()
    return tuple(d for d in (*ins, *outs) if isinstance(d, onp.dtype))


def _kernel_runs(ops) -> bool:
    """Whether the operands go to :func:`_kernel`: no name held by an
    enclosing map, and, traced, no Python number among them (a jitted
    function's argument is traced: ``v ** 2`` would lose ``integer_pow``)."""
    traced = False
    for o in ops:
        if not isinstance(o, NamedArray):
            if traced:
                return False
            continue
        if o.mapped:
            return False
        traced = traced or isinstance(o.data, jax.core.Tracer)
    return not traced or all(isinstance(o, NamedArray) for o in ops)


_KERNELS = Cache()


def _kernel(jfn, steps, out_dt):
    """``jfn`` on operands moved by their alignment ``steps``, cast to ``out_dt``,
    as one jitted function (cached by function, steps and dtype)."""
    key = (jfn, steps, out_dt)
    k = _KERNELS.get(key)
    if k is None:
        def run(*datas):
            r = jfn(*agree([apply_step(d, st) if st is not None else d
                            for d, st in zip(datas, steps)]))
            return r if out_dt is None or r.dtype == out_dt else r.astype(out_dt)
        k = jax.jit(run, inline=True)
        _KERNELS.put(key, k)
    return k

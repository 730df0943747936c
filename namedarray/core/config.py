"""Dtype defaults: NumPy's (64-bit, NumPy 2 promotion) or JAX's (32-bit).

By default ``namedarray`` gives NumPy's answers, dtypes included: it enables
``jax_enable_x64`` on import and resolves every ufunc's result dtype with
NumPy's own type resolution.  Accelerator users who prefer JAX's 32-bit
defaults and promotion lattice call ``namedarray.set_dtype_defaults("jax")``
(or set ``NAMEDARRAY_DTYPES=jax`` before import); that gives the flag back
the value it had before ``namedarray`` touched it.

The flag is process-wide: when the default turns it on in a process that was
already using JAX (arrays created, or ``JAX_ENABLE_X64`` configured), a
``UserWarning`` says so once and names the opt-out.  (A user who turned x64
on keeps it and gets no warning: nothing changes.)  One case cannot be seen:
``jax.config.update("jax_enable_x64", False)`` with no array created yet.
JAX's config keeps a flag's value only (``jax._src.config.State._set`` calls
``set_global(value)``; the option records no "set explicitly" bit and x64 has
no update hook), and ``False`` is the default, so that call leaves the process
exactly as it was; such a program sets ``NAMEDARRAY_DTYPES=jax``.

>>> import namedarray as np
>>> np.arange(3).dtype
dtype('int64')
"""
from __future__ import annotations

import os
import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as onp

try:  # JAX has no public query that does not itself start a backend
    from jax._src.xla_bridge import backends_are_initialized
except ImportError:  # pragma: no cover - another JAX: assume it is in use
    def backends_are_initialized():
        return True

_MODES = ("numpy", "jax")
# x64_before: the flag's value before namedarray first changed it (None: untouched)
_state = {"mode": None, "x64_before": None, "warned": False}

X64_WARNING = (
    "namedarray turned on JAX's process-wide jax_enable_x64 flag (NumPy's 64-bit "
    "dtypes) in a process that was already using JAX: plain jax.numpy code now "
    "defaults to float64/int64. To keep JAX's 32-bit defaults, set "
    "NAMEDARRAY_DTYPES=jax before importing namedarray, or call "
    "namedarray.set_dtype_defaults('jax'), which restores the flag.")


def _x64() -> bool:
    return bool(jax.config.jax_enable_x64)


def jax_in_use() -> bool:
    """Whether this process used JAX before: a backend is initialized (arrays
    were created) or ``JAX_ENABLE_X64`` is configured in the environment."""
    return "JAX_ENABLE_X64" in os.environ or bool(backends_are_initialized())


def set_dtype_defaults(mode: str) -> None:
    """Choose ``"numpy"`` (64-bit defaults, NumPy promotion) or ``"jax"``.

    ``"numpy"`` turns JAX's process-wide ``jax_enable_x64`` flag on;
    ``"jax"`` gives the flag back the value it had before ``namedarray``
    changed it (a user who enabled x64 keeps it).  Call it before creating
    arrays.
    """
    if mode not in _MODES:
        raise ValueError(
            f"set_dtype_defaults: mode must be one of {_MODES}, got {mode!r}")
    _apply(mode, default=False)


def _apply(mode, default):
    """Set ``mode``; ``default``: chosen by no one (warn if it changes JAX's
    flag under code that already uses JAX)."""
    if mode == "numpy":
        if not _x64():
            if default and not _state["warned"] and jax_in_use():
                _state["warned"] = True
                warnings.warn(X64_WARNING, UserWarning, stacklevel=2)
            if _state["x64_before"] is None:
                _state["x64_before"] = False
            jax.config.update("jax_enable_x64", True)
    elif _state["x64_before"] is not None:
        jax.config.update("jax_enable_x64", _state["x64_before"])
        _state["x64_before"] = None
    _state["mode"] = mode


# -- ML dtypes (ml_dtypes, as JAX has them): first-class, with JAX's promotion --
#: the ML floating types namedarray exports (``np.bfloat16``, ``np.float8_e4m3fn``, ...):
#: ml_dtypes' NumPy scalar types, as ``np.float32`` is NumPy's
ML_DTYPES = {n: getattr(ml_dtypes, n) for n in dir(jnp)
             if (n == "bfloat16" or n.startswith("float8_")) and hasattr(ml_dtypes, n)}
_ML = frozenset(onp.dtype(t) for t in ML_DTYPES.values())


def is_ml(dt) -> bool:
    """Whether ``dt`` (a dtype, or anything with a ``dtype``) is an ML dtype."""
    dt = getattr(dt, "dtype", dt)
    return isinstance(dt, onp.dtype) and dt in _ML


#: NumPy's extended precision (``longdouble``, ``clongdouble``) where it is
#: wider than float64/complex128: JAX has no such type
WIDE = frozenset(onp.dtype(t) for t in ("g", "G")) - {onp.dtype("d"), onp.dtype("D")}


def holds(dt) -> bool:
    """Whether a NamedArray can hold dtype ``dt``: numbers, bool, ML dtypes
    (``bfloat16``, ``float8_*``, ``int4``) in native byte order; no structured,
    string, datetime, object or extended-precision (``longdouble``) data."""
    dt = onp.dtype(dt)
    if dt.fields is not None or not dt.isnative or dt in WIDE:
        return False
    return dt.kind in "biufc" or dt in _ML or (
        dt.kind == "V" and jnp.issubdtype(dt, jnp.number))


def any_ml(args) -> bool:
    """Whether an ML dtype is among ``args`` (arrays, dtypes, scalar types, names)."""
    for a in args:
        dt = getattr(a, "dtype", None)
        if dt is None and isinstance(a, (str, type, onp.dtype)):
            try:
                dt = onp.dtype(a)
            except TypeError:
                continue
        if isinstance(dt, onp.dtype) and dt in _ML:
            return True
    return False


def default_precision():
    """The matmul precision of a contraction that names none: the highest
    (float32-accurate on every backend: an accelerator's default passes
    bfloat16) under NumPy's dtype defaults, where the user chose no default
    matmul precision (``jax.default_matmul_precision``); else None, JAX's.

    >>> default_precision()
    Precision.HIGHEST
    """
    if _state["mode"] == "numpy" and jax.config.jax_default_matmul_precision is None:
        return jax.lax.Precision.HIGHEST
    return None


def dtype_defaults() -> str:
    """The current mode, ``"numpy"`` or ``"jax"``."""
    return _state["mode"]


def numpy_dtypes() -> bool:
    return _state["mode"] == "numpy"


_env = os.environ.get("NAMEDARRAY_DTYPES")
if _env is not None and _env not in _MODES:
    raise ValueError(f"NAMEDARRAY_DTYPES must be one of {_MODES}, got {_env!r}")
_apply(_env or "numpy", default=_env is None)

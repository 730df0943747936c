"""Dtype defaults: NumPy's (64-bit, NumPy 2 promotion) or JAX's (32-bit).

By default ``namedarray`` gives NumPy's answers, dtypes included: it enables
``jax_enable_x64`` on import and resolves every ufunc's result dtype with
NumPy's own type resolution.  Accelerator users who prefer JAX's 32-bit
defaults and promotion lattice call ``namedarray.set_dtype_defaults("jax")``
(or set ``NAMEDARRAY_DTYPES=jax`` before import).

>>> import namedarray as np
>>> np.arange(3).dtype
dtype('int64')
"""
from __future__ import annotations

import os

import jax

_MODES = ("numpy", "jax")
_state = {"mode": None}


def set_dtype_defaults(mode: str) -> None:
    """Choose ``"numpy"`` (64-bit defaults, NumPy promotion) or ``"jax"``.

    This flips JAX's global ``jax_enable_x64`` flag, so call it before
    creating arrays.
    """
    if mode not in _MODES:
        raise ValueError(
            f"set_dtype_defaults: mode must be one of {_MODES}, got {mode!r}")
    jax.config.update("jax_enable_x64", mode == "numpy")
    _state["mode"] = mode


def dtype_defaults() -> str:
    """The current mode, ``"numpy"`` or ``"jax"``."""
    return _state["mode"]


def numpy_dtypes() -> bool:
    return _state["mode"] == "numpy"


set_dtype_defaults(os.environ.get("NAMEDARRAY_DTYPES", "numpy"))

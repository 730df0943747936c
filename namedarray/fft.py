"""``numpy.fft`` over NamedArrays.

>>> import namedarray as np
>>> np.fft.fft(np.ones(4)).real
array([4., 0., 0., 0.])

Named axes not mentioned in ``axis``/``axes`` are mapped over.  ``axis`` (or
``axes``) may *name* an axis: the transform runs along it and the name is kept
(``rfft``/``irfft`` change its size, as they change a positional axis):

>>> t = np.ones((8, 3)).tag("time", None)
>>> np.fft.rfft(t, axis="time").named_shape
{'time': 5}

A name bound by an enclosing ``nmap`` (a sharded axis) is gathered, transformed
and scattered back, so the result equals the unsharded transform.

dtypes are NumPy 2's: bool and integer input is computed in ``float64``
(``complex128`` results), ``float16`` in ``float32`` (``complex64``), ``float32``
stays single precision; ``irfft``/``hfft`` of ``float16`` give ``float16``.
The real-input transforms (``rfft*``, ``ihfft``) refuse complex input with
``TypeError``, and a transform length below 1 is a ``ValueError``, as in NumPy.

Difference from NumPy: repeated axes in ``fftn``-style ``axes`` (transforming
an axis twice) are refused (JAX does not support them).
"""
from __future__ import annotations

import functools
import inspect

import jax.numpy as jnp
import numpy as onp

from .core.array import normalize_axis
from .core.dims import has_names
from .frontend.engines.generic import along_names, jit_static, wrap
from .frontend.engines.out import store_out

# name -> (kind of axis argument, input kind, output length rule)
#   input:  "any" (real or complex), "real" (complex refused), "none" (no cast)
#   length: "same" (n / s or the input size), "c2r" (2 * (m - 1) by default)
_TABLE = {
    "fft": ("axis", "any", "same"),
    "ifft": ("axis", "any", "same"),
    "rfft": ("axis", "real", "same"),
    "irfft": ("axis", "any", "c2r"),
    "hfft": ("axis", "any", "c2r"),
    "ihfft": ("axis", "real", "same"),
    "fft2": ("axes", "any", "same"),
    "ifft2": ("axes", "any", "same"),
    "fftn": ("axes", "any", "same"),
    "ifftn": ("axes", "any", "same"),
    "rfft2": ("axes", "real", "same"),
    "rfftn": ("axes", "real", "same"),
    "irfft2": ("axes", "any", "c2r"),
    "irfftn": ("axes", "any", "c2r"),
    "fftshift": ("axes", "none", None),
    "ifftshift": ("axes", "none", None),
}


def _input(fn, a, kind):
    """NumPy 2's computation dtype for an FFT input."""
    dt = a.dtype
    if dt == jnp.bool_ or jnp.issubdtype(dt, jnp.integer):
        a = a.astype(jnp.result_type(float))
    elif dt in (jnp.float16, jnp.bfloat16):
        a = a.astype(jnp.float32)
    elif kind == "real" and jnp.issubdtype(dt, jnp.complexfloating):
        raise TypeError(f"{fn}: the input must be real, got {dt} "
                        f"(use {fn.replace('rfft', 'fft').replace('ihfft', 'ifft')} "
                        "for complex input)")
    return a


def _check_lengths(fn, a, c2r, b):
    """NumPy refuses a transform of fewer than one point."""
    try:
        if "n" in b:  # 1-d transforms
            n = b["n"]
            if n is None:
                m = a.shape[b["axis"]]
                n = 2 * (m - 1) if c2r else m
            sizes = [n]
        elif b["s"] is not None:
            sizes = list(b["s"])
        else:
            axes = range(a.ndim) if b["axes"] is None else b["axes"]
            sizes = [a.shape[x] for x in axes]
            if c2r and sizes:
                sizes[-1] = 2 * (sizes[-1] - 1)
    except (IndexError, TypeError):
        return  # a bad axis: JAX's error names it
    for k in sizes:
        if k is not None and k < 1:
            raise ValueError(f"{fn}: invalid number of FFT data points ({k}) specified")


def _declare(name, axis_kw, kind, length):
    jfn = getattr(jnp.fft, name)
    sig = inspect.signature(jfn)
    params = list(sig.parameters)

    @functools.wraps(jfn)
    def adapted(a, *args, **kwargs):
        a = jnp.asarray(a)
        if kind == "none":
            if a.ndim == 0 and (args[0] if args else kwargs.get("axes")) is None:
                # NumPy shifts each axis by half its size: a 0-d array has none
                raise ValueError(f"{name}: a 0-d array has no axis to shift")
            return jfn(a, *args, **kwargs)
        b = sig.bind(a, *args, **kwargs)
        b.apply_defaults()
        if type(b.arguments.get("axis")) is int:       # (NumPy's AxisError first)
            normalize_axis(name, b.arguments["axis"], a.ndim)
        _check_lengths(name, a, length == "c2r", b.arguments)
        dt = a.dtype
        run_fn = jfn
        if name.endswith("2"):  # NumPy's *2 are its *n over the given axes (any count)
            run_fn = getattr(jnp.fft, name[:-1] + "n")
            args, kwargs = (), {k: b.arguments[k] for k in ("s", "axes", "norm")}
        r = run_fn(_input(name, a, kind), *args, **kwargs)
        if length == "c2r" and axis_kw == "axis" and dt == jnp.float16:
            r = r.astype(jnp.float16)  # NumPy's 1-d complex-to-real keeps float16
        return r

    run = jit_static(adapted, [p for p in params if p != params[0]], like=jfn)

    w = wrap(run, name, named="keep", axis_kw=axis_kw)
    pos = params.index(axis_kw)

    @functools.wraps(w)
    def f(*args, **kwargs):
        ax = kwargs[axis_kw] if axis_kw in kwargs else (args[pos] if len(args) > pos else None)
        if not has_names(ax):
            return w(*args, **kwargs)
        out = kwargs.pop("out", None)
        return store_out(name, out, along_names(name, w, args, kwargs, pos, axis_kw))

    f.__module__ = __name__
    f.__signature__ = inspect.signature(getattr(onp.fft, name))     # (out= included)
    f.__doc__ = (f"``numpy.fft.{name}`` on NamedArrays; ``{axis_kw}`` may name axes "
                 "(the transform runs along them and the names are kept); other named "
                 f"axes are mapped over.\n\nSee ``numpy.fft.{name}``.")
    return f


globals().update({n: _declare(n, *spec) for n, spec in _TABLE.items()})

def _sample_frequencies(name):
    """``numpy.fft.{name}``: no array input; ``n * d == 0`` raises
    ZeroDivisionError as in NumPy (it divides by it)."""
    w = wrap(getattr(jnp.fft, name), name)

    def f(n, /, d=1.0, *, dtype=None, device=None):
        if n * d == 0:
            raise ZeroDivisionError(f"{name}: n * d is zero (n={n!r}, d={d!r}); the "
                                    "frequencies are k / (n * d)")
        return w(n, d, dtype=dtype, device=device)
    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = f"``numpy.fft.{name}``.\n\nSee ``numpy.fft.{name}``."
    return f


fftfreq = _sample_frequencies("fftfreq")
rfftfreq = _sample_frequencies("rfftfreq")

__all__ = sorted(list(_TABLE) + ["fftfreq", "rfftfreq"])

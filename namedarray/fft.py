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
stays single precision; ``irfft``/``hfft`` of ``float16`` give ``float16`` (so
do ``irfftn``/``irfft2`` over one axis).
The real-input transforms (``rfft*``, ``ihfft``) refuse complex input with
``TypeError``, and a transform length below 1 is a ``ValueError``, as in NumPy.

Repeated axes in ``fftn``-style ``axes`` (transforming an axis twice) run
NumPy's 1-d transforms one by one, in NumPy's order.

Each public function is one row at the end of this module: a transform is
``name = _declare("name", axis_kw=..., kind=..., length=...)`` (its axis
argument, input kind and output length rule; :func:`_declare` composes the
rules), ``fftfreq``/``rfftfreq`` are ``_sample_frequencies`` rows.
"""
from __future__ import annotations

import functools
import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as onp

from .core.array import NamedArray, normalize_axis, zero_dim_array
from .core.dims import has_names
from .frontend.engines.generic import along_names, jit_static, wrap
from .frontend.engines.dispatch import dispatched
from .frontend.engines.numpy_data import array_likes
from .frontend.engines.out import store_out

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
            raise ValueError(f"{fn}: Invalid number of FFT data points ({k}) specified.")


def _cook_s(a, s, axes, c2r):
    """NumPy's ``s`` of an n-d transform: ``-1`` is the input's size along that
    axis, ``None`` the default of the 1-d transform (deprecated in NumPy 2)."""
    if s is None:
        return None
    s = list(s)
    axes = list(range(-len(s), 0)) if axes is None else list(axes)
    if len(s) != len(axes):
        return tuple(s)             # (JAX's error names the lengths)
    for i, (k, ax) in enumerate(zip(s, axes)):
        if k == -1 or k is None:
            m = a.shape[ax]
            s[i] = 2 * (m - 1) if k is None and c2r and i == len(s) - 1 else m
    return tuple(s)


def _deprecated_s(name, s, axes):
    """NumPy 2's ``DeprecationWarning`` for ``s`` without ``axes`` and for
    ``None`` in ``s`` (warned on every call, outside the compiled program)."""
    if s is None:
        return
    if axes is None:
        warnings.warn(f"{name}: `axes` should not be `None` if `s` is not `None` "
                      "(Deprecated in NumPy 2.0). In a future version of NumPy, this "
                      "will raise an error and `s[i]` will correspond to the size along "
                      "the transformed axis specified by `axes[i]`. To retain current "
                      "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array "
                      "of dimension k.", DeprecationWarning, stacklevel=3)
    if any(k is None for k in s):
        warnings.warn(f"{name}: Passing an array containing `None` values to `s` is "
                      "deprecated in NumPy 2.0 and will raise an error in a future "
                      "version of NumPy. To use the default behaviour of the "
                      "corresponding 1-D transform, pass the value matching the default "
                      "for its `n` parameter. To use the default behaviour for every "
                      "axis, the `s` argument can be omitted.", DeprecationWarning,
                      stacklevel=3)


#: the inverse transforms: "backward" (NumPy's default) divides them by ``n``
_INVERSE = ("ifft", "ifft2", "ifftn", "irfft", "irfft2", "irfftn", "ihfft")


def _scaled(name, norm, r, x, args):
    """The transform ``r`` of ``x``, computed as ``norm=None`` does (``ihfft``:
    unscaled), scaled as ``norm`` asks, its real and imaginary parts each by
    the real factor, as NumPy's pocketfft scales them (a complex product by
    ``factor + 0j`` turns an infinite part's partner into NaN)."""
    if "axis" in args:
        axes = [args["axis"]]
        sizes = [args["n"]]
    else:
        s = args.get("s")
        axes = args.get("axes")
        if axes is None:
            axes = range(x.ndim) if s is None else range(x.ndim - len(s), x.ndim)
        axes = list(axes)
        sizes = [None] * len(axes) if s is None else list(s)
    # the transform's points along each axis: the input's for a real-to-complex one
    # (its result is shorter), the result's otherwise
    src = x if name.startswith(("rfft", "ihfft")) else r
    n = 1
    for ax, k in zip(axes, sizes):
        n *= k if k is not None and src is x else src.shape[ax]
    inverse = name in _INVERSE
    if name == "ihfft" and norm not in ("ortho", "forward"):
        f = 1 / n
    elif norm == "ortho":
        f = 1 / onp.sqrt(n) if not inverse or name == "ihfft" else onp.sqrt(n)
    elif norm == "forward":
        f = 1.0 if name == "ihfft" else n if inverse else 1 / n
    else:
        f = 1.0
    if not jnp.iscomplexobj(r):
        return r * jnp.asarray(f, r.dtype)
    part = jnp.asarray(f, r.real.dtype)
    return jax.lax.complex(r.real * part, r.imag * part)


def _one_by_one(name, a, s, axes, norm):
    """NumPy's n-d transform as the 1-d transforms it runs, in its order (for
    ``axes`` that repeat an axis, which JAX's n-d transforms refuse)."""
    s = [None] * len(axes) if s is None else list(s)
    f = jnp.fft
    if name.startswith("irfft"):
        for k, ax in zip(s[:-1], axes[:-1]):
            a = f.ifft(a, k, ax, norm)
        return f.irfft(a, s[-1], axes[-1], norm)
    if name.startswith("rfft"):
        a = f.rfft(a, s[-1], axes[-1], norm)
        s, axes = s[:-1], axes[:-1]
    one = f.ifft if name.startswith("ifft") else f.fft
    for k, ax in reversed(list(zip(s, axes))):
        a = one(a, k, ax, norm)
    return a


def _no_axes(name, args, kwargs, axes) -> bool:
    """Whether the n-dimensional transform ``name`` runs over no axis: ``axes``
    is empty, or (``*n``, neither axes nor ``s`` given) the input is 0-d."""
    if not args:
        return False
    if axes is not None:
        return not has_names(axes) and len(axes) == 0
    a = args[0]
    given_s = "s" in kwargs or len(args) > 1
    return name.endswith("n") and not given_s and (
        not a.ndim and not a.names if isinstance(a, NamedArray) else onp.ndim(a) == 0)


def _declare(name, axis_kw, kind="any", length="same"):
    """``numpy.fft.<name>`` over NamedArrays, run by ``jax.numpy.fft.<name>``.

    ``axis_kw``: the axis argument (``"axis"`` or ``"axes"``), which may name
    axes; ``kind``: the input, ``"any"`` (real or complex), ``"real"``
    (complex refused) or ``"none"`` (a shift: no cast); ``length``: the
    output length, ``"same"`` (``n``/``s`` or the input's size) or ``"c2r"``
    (``2 * (m - 1)`` by default).  Around the compiled transform (NumPy's
    checks and dtypes), in this order: ``out=``'s type, ``s``'s deprecations,
    named axes, ``out=``'s shape and dtype.
    """
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
        if "s" in b.arguments:
            try:
                b.arguments["s"] = _cook_s(a, b.arguments["s"], b.arguments["axes"],
                                           length == "c2r")
            except (IndexError, TypeError):
                pass                    # a bad axis: JAX's error names it
        _check_lengths(name, a, length == "c2r", b.arguments)
        dt = a.dtype
        # NumPy's *2 are its *n over the given axes (any count)
        run_fn = getattr(jnp.fft, name[:-1] + "n") if name.endswith("2") else jfn
        axes = b.arguments.get("axes")
        x, norm = _input(name, a, kind), b.arguments["norm"]
        # a complex result is scaled part by part (``_scaled``): computed unscaled
        # where the norm asks for a factor (``ihfft``: always)
        scales = norm in ("ortho", "forward") and length != "c2r" or name == "ihfft"
        if scales:
            b.arguments["norm"] = None
        if axes is not None and len({ax % max(a.ndim, 1) for ax in axes}) < len(axes):
            r = _one_by_one(name, x, b.arguments["s"], axes, b.arguments["norm"])
        elif name == "ihfft":       # (jax's multiplies by 1/n as a complex number)
            r = jnp.conj(jnp.fft.rfft(x, b.arguments["n"], b.arguments["axis"]))
        else:
            r = run_fn(x, **{k: b.arguments[k] for k in params[1:]})
        if scales:
            r = _scaled(name, norm, r, x, b.arguments)
        if length == "c2r" and dt == jnp.float16 and (axis_kw == "axis" or len(
                axes if axes is not None else b.arguments.get("s") or range(a.ndim)) == 1):
            # NumPy's 1-d complex-to-real keeps float16, also as the one transform of
            # an n-d one (more axes: an ifft first makes it complex64, then float32)
            r = r.astype(jnp.float16)
        return r

    run = jit_static(adapted, [p for p in params if p != params[0]], like=jfn)

    w = wrap(run, name, named="keep", axis_kw=axis_kw)
    pos = params.index(axis_kw)

    @functools.wraps(w)
    def f(*args, **kwargs):
        args, kwargs = array_likes(args, kwargs)
        out = kwargs.pop("out", None)
        if out is not None and not isinstance(out, (NamedArray, onp.ndarray)):
            raise TypeError(f"{name}: return arrays must be of ArrayType (out= must be "
                            f"a NamedArray or NumPy's array, got {type(out).__name__})")
        ax = kwargs[axis_kw] if axis_kw in kwargs else (args[pos] if len(args) > pos else None)
        if axis_kw == "axes" and kind != "none":
            s = kwargs["s"] if "s" in kwargs else (args[1] if len(args) > 1 else None)
            _deprecated_s(name, s, ax if pos < len(args) or axis_kw in kwargs
                          else sig.parameters[axis_kw].default)
        if axis_kw == "axes" and kind != "none" and _no_axes(name, args, kwargs, ax):
            # NumPy transforms over no axis (a 0-d array, axes=()): the input as
            # it is (complex-to-complex), an IndexError (real transforms)
            if kind == "real" or length == "c2r":
                raise IndexError(f"{name}: no axis to transform (axes {ax!r} of a "
                                 f"{onp.ndim(args[0])}-d array); a real transform needs one")
            r = zero_dim_array(args[0]) if isinstance(args[0], NamedArray) else \
                NamedArray(jnp.asarray(args[0]))
        else:
            r = w(*args, **kwargs) if not has_names(ax) else along_names(
                name, w, args, kwargs, pos, axis_kw)
        if out is not None:       # NumPy's out= of its FFT ufuncs: no broadcasting
            if out.shape != r.shape:
                raise ValueError(f"{name}: output array has wrong shape {out.shape} "
                                 f"(the result's is {r.shape})")
            if not onp.can_cast(r.dtype, out.dtype, "same_kind"):
                raise TypeError(f"{name}: Cannot cast ufunc {name!r} output from "
                                f"{r.dtype!r} to {out.dtype!r} with casting rule "
                                "'same_kind'")
        return store_out(name, out, r)

    f.__module__ = __name__
    f.__signature__ = inspect.signature(getattr(onp.fft, name))     # (out= included)
    f.__doc__ = (f"``numpy.fft.{name}`` on NamedArrays; ``{axis_kw}`` may name axes "
                 "(the transform runs along them and the names are kept); other named "
                 f"axes are mapped over.\n\nSee ``numpy.fft.{name}``.")
    g = dispatched(f, name, onp.fft)
    g.__module__, g.__qualname__ = __name__, name
    return g


fft = _declare("fft", axis_kw="axis")
ifft = _declare("ifft", axis_kw="axis")
rfft = _declare("rfft", axis_kw="axis", kind="real")
irfft = _declare("irfft", axis_kw="axis", length="c2r")
hfft = _declare("hfft", axis_kw="axis", length="c2r")
ihfft = _declare("ihfft", axis_kw="axis", kind="real")
fft2 = _declare("fft2", axis_kw="axes")
ifft2 = _declare("ifft2", axis_kw="axes")
fftn = _declare("fftn", axis_kw="axes")
ifftn = _declare("ifftn", axis_kw="axes")
rfft2 = _declare("rfft2", axis_kw="axes", kind="real")
rfftn = _declare("rfftn", axis_kw="axes", kind="real")
irfft2 = _declare("irfft2", axis_kw="axes", length="c2r")
irfftn = _declare("irfftn", axis_kw="axes", length="c2r")
fftshift = _declare("fftshift", axis_kw="axes", kind="none")
ifftshift = _declare("ifftshift", axis_kw="axes", kind="none")


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

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn",
           "ifftshift", "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq",
           "rfftn"]

"""Backends: what each platform can run, and where data of each dtype lives.

XLA's backends do not all run every operation on every dtype.  The TPU runs
64-bit types only through XLA's rewriting of them into pairs of 32-bit
values: float64 and complex128 arithmetic is then a few to 10^5 units in the
last place off (an ``add`` 38 ulps, ``sin`` 2e5, a ``sort`` out of order),
and some operations have no rewriting at all (an ``int64`` ``dot_general``
raises ``UNIMPLEMENTED``, a ``float64`` cumulative sum did not finish
compiling in 90 s), and complex128 data has none that works: a transpose or
a product of it fails XLA's layout check (``INTERNAL: RET_CHECK``), a
Cholesky aborts the process.  The
**capability table** (:data:`TABLE`) records, per platform, per dtype and per
family of operations, one of three statuses:

* :data:`NATIVE` (the default for anything not listed): the backend runs it
  at the dtype's accuracy;
* :data:`EMULATED`: it runs, at reduced accuracy or by a slow rewriting;
* :data:`ABSENT`: it raises, aborts, hangs or has no lowering.

The dispatcher (``frontend/engines/dispatch.py``; docs/design.md §7b) reads it: an eager call whose family is :data:`ABSENT` on the
backend that would run it goes to the CPU backend, and so does one that is
:data:`EMULATED` while NumPy's dtype defaults are on (NumPy's float64 is
IEEE float64); under ``jax.jit`` an :data:`ABSENT` operation is a clear error
at trace time (:func:`check_traced`).  With NumPy's dtype defaults, data of a
dtype the accelerator only emulates lives on the CPU backend
(:func:`home_device`), so that a NumPy program's 64-bit arrays never cross to
the accelerator and back.

The TPU rows were measured on a TPU v5e with JAX 0.10.2 (every family and
dtype compiled and compared with NumPy in float64, each in a process of its
own); the GPU row lists nothing: its backends run 64-bit types natively.

>>> status("tpu", "dot", "int64"), status("tpu", "any", "float32")
('absent', 'native')
>>> status("cpu", "lu", "float64")
'native'
"""
from __future__ import annotations

import contextlib
import os

import jax
import numpy as onp

from . import config

NATIVE, EMULATED, ABSENT = "native", "emulated", "absent"

#: families of operations the table distinguishes (anything else is "any"):
#: contractions (``dot_general``), convolutions, the LAPACK-like
#: decompositions, Fourier transforms, cumulative scans and the collectives
#: that reduce over devices by max or min (``lax.pmax``/``pmin``) and by sum
FAMILIES = ("any", "dot", "conv", "lu", "qr", "cholesky", "triangular", "eigh", "svd",
            "eig", "fft", "cumulative", "allreduce_max", "allreduce_sum", "float_bits",
            "remainder")

#: the public functions of each family (by NumPy's name; ``numpy.linalg``'s
#: and ``numpy.fft``'s by their own names, which do not collide with these)
FAMILY_OF = {
    **dict.fromkeys(("matmul", "dot", "vdot", "inner", "tensordot", "einsum", "vecdot",
                     "matvec", "vecmat", "multi_dot", "matrix_power", "cov", "corrcoef",
                     "polyfit_dot"), "dot"),
    **dict.fromkeys(("convolve", "correlate", "polymul"), "conv"),
    **dict.fromkeys(("inv", "solve", "det", "slogdet", "tensorinv", "tensorsolve"), "lu"),
    "qr": "qr", "cholesky": "cholesky",
    **dict.fromkeys(("eigh", "eigvalsh"), "eigh"),
    **dict.fromkeys(("svd", "svdvals", "pinv", "matrix_rank", "lstsq", "cond", "norm",
                     "matrix_norm", "polyfit"), "svd"),
    **dict.fromkeys(("eig", "eigvals", "roots"), "eig"),
    **dict.fromkeys(("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2",
                     "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"), "fft"),
    **dict.fromkeys(("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                     "cumulative_prod"), "cumulative"),
    # the ufuncs that take a float apart by its bits (XLA's TPU backend fails
    # to compile them on float64: "Binary op shift-right-arithmetic with
    # different element types: s32 and u32")
    **dict.fromkeys(("copysign", "frexp", "ldexp", "log2", "modf", "nextafter", "signbit",
                     "spacing"), "float_bits"),
    # a float remainder and the floor of a quotient (XLA's TPU backend takes
    # ``x - trunc(x / y) * y`` in the data's precision: float32 ``fmod(1,
    # 7.018846e-07)`` was 4.7683716e-07, NumPy's exact remainder 4.820706e-07)
    **dict.fromkeys(("fmod", "remainder", "mod", "divmod", "floor_divide"), "remainder"),
}

#: families that compute in floating point whatever the input (NumPy casts
#: bool and integer data to float64 for them)
FLOATING = frozenset(("lu", "qr", "cholesky", "triangular", "eigh", "svd", "eig", "fft"))

_DECOMPOSITIONS = ("lu", "qr", "cholesky", "triangular", "eigh", "svd", "eig")
#: platform -> dtype name -> family -> status ("any": every family not listed)
TABLE = {
    "tpu": {
        "float64": {"any": EMULATED, "lu": ABSENT, "fft": ABSENT, "cumulative": ABSENT,
                    "eig": ABSENT, "allreduce_max": ABSENT, "float_bits": ABSENT},
        "complex128": {"any": ABSENT},
        "int64": {"any": EMULATED, "dot": ABSENT, "conv": ABSENT, "allreduce_max": ABSENT},
        "uint64": {"any": EMULATED, "dot": ABSENT, "conv": ABSENT, "allreduce_max": ABSENT,
                   "allreduce_sum": ABSENT},
        "float32": {"eig": ABSENT, "remainder": EMULATED},
        "complex64": {"eig": ABSENT},
        "float16": {"lu": ABSENT, "eig": ABSENT, "remainder": EMULATED},
        "bfloat16": {"lu": ABSENT, "eig": ABSENT, "remainder": EMULATED},
    },
    "gpu": {},
    "cpu": {},
}
#: each family in words, for error messages
_WORDS = {"dot": "dot (dot_general)", "conv": "conv (convolutions)",
          "lu": "lu (LU decomposition: inv, solve, det)", "qr": "qr", "cholesky": "cholesky",
          "triangular": "triangular solves", "eigh": "eigh", "svd": "svd",
          "eig": "eig (no lowering on this platform)", "fft": "fft",
          "cumulative": "cumulative scans",
          "allreduce_max": "max/min all-reduce", "allreduce_sum": "sum all-reduce",
          "float_bits": "the bit-level float operations (copysign, frexp, ldexp, log2, "
                        "modf, nextafter, signbit, spacing)",
          "remainder": "float remainders (fmod, remainder, divmod, floor_divide)",
          "any": "this operation"}


_STATUS: dict = {}


def status(platform: str, family: str, dtype) -> str:
    """The capability of ``platform`` for ``family`` on ``dtype``."""
    key = (platform, family, dtype)
    try:
        return _STATUS[key]         # (an eager call asks: kept per question)
    except (KeyError, TypeError):
        pass
    row = TABLE.get("gpu" if platform in ("cuda", "rocm") else platform, {}).get(
        onp.dtype(dtype).name)
    s = row.get(family, row.get("any", NATIVE)) if row else NATIVE
    try:
        _STATUS[key] = s
    except TypeError:       # (an unhashable dtype-like)
        pass
    return s


def lacks(platform: str, family: str, dtypes, strict: bool) -> object:
    """The first of ``dtypes`` that ``platform`` cannot run ``family`` on
    (:data:`ABSENT`; with ``strict``, :data:`EMULATED` too), or None.  With
    64-bit types off, a dtype is asked about as JAX holds it (int64 data is
    int32, complex128 complex64: what the device runs)."""
    narrow = not jax.config.jax_enable_x64
    for dt in dtypes:
        s = status(platform, family, jax.dtypes.canonicalize_dtype(dt) if narrow else dt)
        if s is ABSENT or strict and s is EMULATED:
            return dt
    return None


# -- the platform new arrays and eager calls go to ---------------------------
try:        # JAX's started backends (empty until the first device is asked for)
    from jax._src.xla_bridge import _backends as _BACKENDS
except ImportError:     # pragma: no cover -- another JAX: ask for the device
    _BACKENDS = (None,)

_state: dict = {}
#: devices standing in for another platform's (:func:`simulated`)
_SIMULATED: dict = {}


def platform_of(device) -> str:
    """The platform of ``device`` (as :func:`simulated` may pretend it)."""
    return _SIMULATED.get(device, device.platform)


try:        # the default device setting, read without the config's lookups
    from jax._src.config import default_device as _DEFAULT_DEVICE
except ImportError:     # pragma: no cover -- another JAX: the public read
    class _DEFAULT_DEVICE:      # noqa: N801
        value = property(lambda self: jax.config.jax_default_device)
    _DEFAULT_DEVICE = _DEFAULT_DEVICE()


def started() -> bool:
    """Whether JAX has started its backends (no device array exists before)."""
    return bool(_BACKENDS)


def listed_platforms() -> tuple:
    """The platforms ``JAX_PLATFORMS`` (or ``jax_platforms``) lists, the
    default one first (``("tpu", "cpu")``); empty where it is not set."""
    s = jax.config.jax_platforms or os.environ.get("JAX_PLATFORMS", "")
    known = _state.get("platforms")
    if known is None or known[0] != s:      # (read once per setting)
        known = _state["platforms"] = (s, tuple(p.strip().lower() for p in s.split(",")
                                                if p.strip()))
    return known[1]


def _listed_accelerator():
    """Before JAX has started its backends: ``""`` where the listed default
    platform is the CPU, its name where it is an accelerator (``"gpu"`` for
    ``cuda``/``rocm``), None where none is listed (only starting tells)."""
    if _BACKENDS:
        return None
    s = jax.config.jax_platforms or os.environ.get("JAX_PLATFORMS", "")
    known = _state.get("listed")
    if known is None or known[0] != s:      # (read once per setting: an eager call asks)
        listed = listed_platforms()
        p = None if not listed else "" if listed[0] == "cpu" else \
            "gpu" if listed[0] in ("cuda", "rocm") else listed[0]
        known = _state["listed"] = (s, p)
    return known[1]


def cpu_only() -> bool:
    """Whether the default device is a CPU: every eager call runs where JAX
    puts it, and the table never applies.  Before JAX has started its
    backends, ``JAX_PLATFORMS`` (and no default device set) says so without
    starting them: a program whose data never leaves the host never pays
    JAX's start-up (~10 ms on a CPU, ~8 s for a TPU, which it then leaves to
    other processes); after, the answer for JAX's own default device is kept
    (an eager call asks it every time)."""
    if _DEFAULT_DEVICE.value is None and not _SIMULATED:
        c = _state.get("cpu_only")
        if c is not None:
            return c
        p = _listed_accelerator()
        if p is not None:
            return p == ""
        c = _state["cpu_only"] = accelerator() is None
        return c
    return accelerator() is None


def accelerator():
    """The platform of the default device where it is not a CPU (``"tpu"``,
    ``"gpu"``), else None."""
    d = _DEFAULT_DEVICE.value
    if d is None:
        d = _state.get("default")
        if d is None:
            p = _listed_accelerator()
            if p is not None:       # (not started: the listed platform, unstarted)
                return p or None
            d = _state["default"] = jax.devices()[0]
    elif isinstance(d, str):
        return None if d == "cpu" else d
    p = _SIMULATED.get(d, d.platform) if _SIMULATED else d.platform
    return None if p == "cpu" else p


@contextlib.contextmanager
def simulated(devices: dict, cpu):
    """Within: each device of ``devices`` (a CPU device, say) stands in for
    a device of the platform it maps to (``{cpu1: "tpu"}``), and ``cpu`` for
    the CPU backend's device; so that the dispatcher's decisions are tested
    on a machine without the accelerator (run under
    ``jax.default_device`` of a stand-in)."""
    saved = dict(_SIMULATED), _state.get("cpu", False)
    _SIMULATED.update(devices)
    _state["cpu"] = cpu
    try:
        yield
    finally:
        _SIMULATED.clear()
        _SIMULATED.update(saved[0])
        _state["cpu"] = saved[1]


def mesh_platform(mesh=None):
    """The platform of ``mesh`` (JAX's abstract mesh: a traced value's type
    carries the mesh it is sharded over), by default the mesh a trace runs
    over (inside ``shard_map``, a mesh ``nmap``, ``jax.set_mesh``); None
    for no mesh.  Under :func:`simulated`, a mesh of a platform some
    stand-in belongs to counts as the platform that stand-in simulates."""
    if mesh is None:
        mesh = jax.sharding.get_abstract_mesh()
    p = getattr(getattr(mesh, "abstract_device", None), "platform", None)
    if p and _SIMULATED:
        p = next((q for d, q in _SIMULATED.items() if d.platform == p), p)
    return p or None


def cpu_device():
    """The CPU backend's first device (which a machine with an accelerator
    also has: ``JAX_PLATFORMS=tpu,cpu``), or None where JAX was started
    without it."""
    d = _state.get("cpu", False)
    if d is False:
        try:
            d = jax.devices("cpu")[0]
        except RuntimeError:
            d = None
        _state["cpu"] = d
    return d


def home_device(dtypes, strict: bool):
    """Where a new array of one of ``dtypes`` made by an eager call lives, and
    where an eager computation in ``dtypes`` runs, where that is not JAX's
    default device: the CPU device, on a machine whose default device cannot
    run one of them (:data:`EMULATED` for every family, with ``strict``:
    NumPy's dtype defaults), else None."""
    if cpu_only():
        return None
    if lacks(accelerator(), "any", dtypes, strict) is None:
        return None
    return cpu_device()


def at_home(dtypes, arrays, strict: bool):
    """``(context, arrays)`` for an eager computation in ``dtypes`` over the
    JAX ``arrays`` (other values pass as they are): where the computation's
    home is not the default device (:func:`home_device`: the CPU where the
    default device lacks one of the dtypes), JAX's default-device context of
    the CPU device and the arrays moved there, so that what the computation
    makes is made there too; else nothing changes.  Traced arrays stay where
    the trace puts them.

    >>> import jax.numpy as jnp
    >>> ctx, (a, b) = at_home(("float64",), (jnp.ones(2), 3), True)
    >>> b
    3
    """
    dev = None if any(isinstance(a, jax.core.Tracer) for a in arrays) \
        else home_device(dtypes, strict)
    if dev is None:
        return contextlib.nullcontext(), tuple(arrays)
    return jax.default_device(dev), tuple(
        jax.device_put(a, dev) if isinstance(a, jax.Array) else a for a in arrays)


def beside(anchor, arrays):
    """The JAX ``arrays`` of one eager computation with the JAX array
    ``anchor`` (its data: the array indexed or written; None: the first of
    ``arrays`` spread over several devices, else the first), each moved to
    ``anchor``'s device where it is committed to another one and holds the
    same values there: an index or a value made at its dtype's home (the CPU
    device of a TPU machine, :func:`home_device`) meeting data on the
    accelerator, which JAX refuses to compute across devices.  Integers and
    bools move anywhere, other dtypes onto a CPU device or onto an
    accelerator that is their home (under the dtype defaults in force).
    Where ``anchor`` is spread over several CPU devices (a mesh), what is
    committed to one CPU device (a value made at its home) is made
    uncommitted, as JAX's own array of NumPy's data, free to join it.  The rest, traced values, Python values
    and everything on a CPU-only machine pass as they are.

    >>> import jax.numpy as jnp
    >>> beside(jnp.ones(2), (jnp.zeros(2), 3))[1]
    3
    """
    if cpu_only():
        return tuple(arrays)
    arrays = tuple(arrays)
    if anchor is None:
        anchor = next((a for a in arrays if _committed(a) and len(a.devices()) > 1),
                      arrays[0] if arrays else None)
    if not _committed(anchor):
        return arrays
    if len(anchor.devices()) != 1:
        return _onto_cpu_mesh(anchor.sharding, arrays)
    (dev,) = anchor.devices()
    to_cpu = platform_of(dev) == "cpu"

    def moved(a):
        if not _committed(a) or dev in a.devices():
            return a
        if a.dtype.kind in "biu" or to_cpu or \
                home_device((a.dtype,), config.numpy_dtypes()) is None:
            return jax.device_put(a, dev)
        return a
    return tuple(moved(a) for a in arrays)


def written(target, arrays, write):
    """``write(target, arrays)``: an eager write into the JAX array ``target``
    of values and at indices among ``arrays`` (``x[i] = v``,
    ``x.at[...].set(v)``, ``x[mask] = v``), which returns the written data;
    the ``arrays`` beside ``target`` (:func:`beside`).  Where one of them
    still lies on another device (a float64 value made at its home, the CPU
    device of a TPU machine, written into float64 data a user put on the
    TPU), the write runs at that home, and the result goes back to
    ``target``'s device: written data stays where it is, as a writing
    function's (``put``, ``copyto``) does.

    >>> import jax.numpy as jnp
    >>> written(jnp.zeros(3), (jnp.ones(()),), lambda t, a: t.at[1].set(a[0])).tolist()
    [0.0, 1.0, 0.0]
    """
    arrays = beside(target, arrays)
    if cpu_only() or not _committed(target):
        return write(target, arrays)
    devices = target.sharding.device_set
    strays = [a for a in arrays if _committed(a) and a.sharding.device_set != devices]
    dev = strays and home_device((target.dtype, *(a.dtype for a in strays)),
                                 config.numpy_dtypes())
    if not dev:             # (none, or JAX's own error: the user's data on two devices)
        return write(target, arrays)
    return kept_on(target, write(jax.device_put(target, dev), tuple(
        jax.device_put(a, dev) if _committed(a) else a for a in arrays)))


def kept_on(target, data):
    """The written ``data`` (JAX's array) on the devices of ``target``, the
    data it replaces, where ``target`` is committed to them and the write ran
    elsewhere (at its dtype's home: :func:`written`)."""
    if _committed(target) and _committed(data) and \
            data.sharding.device_set != target.sharding.device_set:
        return jax.device_put(data, target.sharding)
    return data


def where_it_lies(a):
    """A context in which JAX's eager operations on the JAX array ``a`` run
    on its device: JAX runs an operation on uncommitted data on the default
    device, so a CPU device's uncommitted float64 (made under
    ``jax.default_device`` of the CPU) sliced on a TPU machine went through the
    TPU, which keeps float64 as two float32 values and loses its last bits;
    nothing where ``a`` is committed, traced, or on the default device."""
    if cpu_only() or not isinstance(a, jax.Array) or isinstance(a, jax.core.Tracer) or \
            a.committed or len(a.sharding.device_set) != 1:
        return contextlib.nullcontext()
    (d,) = a.sharding.device_set
    return contextlib.nullcontext() if platform_of(d) != "cpu" else jax.default_device(d)


def _committed(a) -> bool:
    return isinstance(a, jax.Array) and not isinstance(a, jax.core.Tracer) and a.committed


def _onto_cpu_mesh(sharding, arrays):
    """``arrays`` beside data of ``sharding`` (over several CPU devices): each
    one committed to a single CPU device made uncommitted there, as JAX's
    own array of NumPy's data is, so that it joins the mesh."""
    if any(platform_of(d) != "cpu" for d in sharding.device_set):
        return arrays

    def moved(a):
        if _committed(a) and len(a.devices()) == 1:
            (d,) = a.devices()
            if platform_of(d) == "cpu":
                with jax.default_device(d):
                    return jax.device_put(onp.asarray(a))
        return a
    return tuple(moved(a) for a in arrays)


def runs_double() -> bool:
    """Whether the default device runs float64 natively (a CPU's or a GPU's,
    not a TPU's): where NumPy's single-precision decompositions may compute
    in double, as NumPy's LAPACK does."""
    return cpu_only() or status(accelerator(), "any", "float64") is NATIVE


def check_traced(fn: str, family: str, dtypes, sharded_over=None) -> None:
    """Under a trace (``jax.jit``), raise where the backend the trace compiles
    for (the mesh's, inside ``shard_map``, a mesh ``nmap`` or ``jax.set_mesh``;
    else ``sharded_over``, the platform of the mesh the traced operands are
    sharded over; else the default device's) has no implementation of
    ``family`` on one of ``dtypes``: a clear error at trace time, never XLA's
    ``UNIMPLEMENTED`` or an aborted process when it compiles."""
    if cpu_only():
        return
    p = mesh_platform() or sharded_over or accelerator()
    if p is None or p == "cpu":         # (a mesh of CPU devices beside a TPU)
        return
    dt = lacks(p, family, dtypes, False)
    if dt is not None:
        raise TypeError(
            f"{fn}: {p.upper()}'s XLA backend has no implementation of "
            f"{_WORDS.get(family, family)} on {onp.dtype(dt)} "
            f"data, so this traced call cannot compile there; cast to a dtype it runs "
            f"(float32, int32, complex64), call it outside jax.jit (namedarray then "
            f"computes it on the CPU backend), or trace it under "
            f"jax.default_device(jax.devices('cpu')[0])")

"""A short printed tour of namedarray: ``python -m namedarray.tour``.

The tour is a list of small sections (``SECTIONS``); each one is a title, a
sentence and a few lines of code, run in one shared namespace and printed
REPL-style (``>>>`` lines, then the value of each expression).  To extend the
tour, append a :class:`Section` to ``SECTIONS``.

The tour runs on JAX's default backend (an accelerator where there is one;
``JAX_PLATFORMS`` chooses, as for any JAX program).  Its mesh takes 8 devices:
the default backend's when it has 8, else the CPU backend's, which the tour
simulates beside any accelerator by setting
``XLA_FLAGS=--xla_force_host_platform_device_count=8`` before JAX creates a
backend (the flag changes the CPU backend only; importing the module leaves the
environment alone); the tour says which devices it took.
"""
import os

_FLAG = "--xla_force_host_platform_device_count=8"
if __name__ == "__main__" and _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()

import ast  # noqa: E402
import dataclasses  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import jax  # noqa: E402

import namedarray  # noqa: E402,F401


MESH_DEVICES = 8


@dataclasses.dataclass(frozen=True)
class Section:
    """``note``, if given, is called when the section runs: it returns a line
    printed after the blurb (if not empty), or raises :class:`LeftOut` to
    skip the code."""
    title: str
    blurb: str
    code: str
    note: Callable[[], str] | None = None


class LeftOut(Exception):
    """A section that cannot run on this machine; the message says why."""


def _cpu_device_count() -> int:
    try:
        return len(jax.devices("cpu"))
    except RuntimeError:            # JAX_PLATFORMS without the CPU backend
        return 0


def mesh_note() -> str:
    """Which devices the mesh takes (the rule the Devices section spells out);
    :class:`LeftOut` where no platform has 8."""
    n, backend = jax.device_count(), jax.default_backend()
    if n >= MESH_DEVICES:
        return f"Here: {MESH_DEVICES} of the {n} {backend} devices."
    cpu = _cpu_device_count()
    if cpu >= MESH_DEVICES:
        return (f"Here: the {backend} backend has {n} device{'s' * (n != 1)}, so the "
                f"mesh takes the CPU backend's {cpu} simulated devices.")
    raise LeftOut(f"the mesh needs {MESH_DEVICES} devices of one platform; this machine "
                  f"has {n} {backend} device{'s' * (n != 1)} and {cpu} CPU devices "
                  f"(JAX_PLATFORMS={os.environ.get('JAX_PLATFORMS', '')!r}: the CPU "
                  "backend's are simulated when it is on)")


def mesh_ready() -> str:
    """Nothing to say where the mesh can be built (:func:`mesh_note` said it)."""
    mesh_note()
    return ""


SECTIONS = [
    Section(
        "NumPy code, unchanged",
        "`import namedarray as np` runs NumPy programs; arrays without names "
        "behave and print like NumPy arrays.",
        """
        import namedarray as np
        a = np.arange(12).reshape(3, 4)
        a[1:, ::2]
        a.T @ a[:, :2]
        np.mean(a, axis=0)
        """),
    Section(
        "NumPy dtypes",
        "Results have NumPy's dtypes by default (64-bit defaults, NumPy 2 "
        "promotion); namedarray.set_dtype_defaults('jax') switches to JAX's.",
        """
        np.dtype_defaults()
        np.arange(3).dtype, np.ones(2).dtype
        np.arange(3, dtype=np.int8).sum().dtype
        (np.ones(2, dtype=np.float32) + 1).dtype
        """),
    Section(
        "Names: tag, untag, rename",
        "tag names positional axes left to right (None keeps one positional); "
        "shape shows only the positional axes.",
        """
        x = np.arange(6.0).reshape(2, 3).tag("batch", None)
        x.shape, x.named_shape
        x.untag("batch").shape
        x.rename(batch="b").named_shape
        """),
    Section(
        "Alignment by name",
        "Named axes are unordered: operands are aligned by name, whatever "
        "their physical order.",
        """
        u = np.arange(6.0).reshape(2, 3).tag("b", "f")
        v = np.arange(6.0).reshape(3, 2).tag("f", "b")
        (u + v).named_shape
        (u + v).untag("b", "f")
        """),
    Section(
        "Named reductions",
        "axis= may name an axis (or mix ints and names); the result equals the "
        "positional call on the dimension holding the name.",
        """
        x.sum(axis="batch")
        np.argmax(x, axis="batch")
        np.cumsum(x, axis="batch").untag("batch")
        x.sum(axis=("batch", 0))
        """),
    Section(
        "Parallel primitives",
        "Named operations are collectives over the name; on a local named "
        "dimension they apply their batching rule.",
        """
        from namedarray import parallel
        parallel.psum(x, "batch")
        parallel.all_gather(x, "batch")
        """),
    Section(
        "nmap",
        "Inside nmap the named axes are mapped away (vmap); a named reduction "
        "inside is a collective over the mapped name.",
        """
        center = np.nmap(lambda r: r - r.mean(axis="batch"))
        center(x).untag("batch")
        """),
    Section(
        "jit and grad",
        "A NamedArray is a pytree: raw jax.jit and jax.grad work on functions "
        "of NamedArrays.",
        """
        import jax
        f = jax.jit(lambda a: (a * a).sum(axis="batch"))
        f(x)
        jax.grad(lambda a: (a * a).sum(axis="batch").sum().data)(x).untag("batch")
        """),
    Section(
        "Named einsum and int8 accumulation",
        "Braces name axes in einsum specs; a name missing from the output is "
        "contracted with one dot_general. preferred_element_type accumulates "
        "int8 products in int32 without overflow.",
        """
        w = np.arange(8.0).reshape(2, 4).tag("batch", "k")
        k = np.arange(4.0).tag("k")
        np.einsum("{batch,k},{k}->{batch}", w, k).untag("batch")
        q = np.asarray([[100, 100], [-128, 127]], dtype=np.int8)
        np.matmul(q, np.asarray([[100, 2], [100, 3]], dtype=np.int8),
                  preferred_element_type=np.int32)
        """),
    Section(
        "Devices",
        "The tour runs on JAX's default backend. The mesh below takes 8 of its "
        "devices, or, where it has fewer (one accelerator), the CPU backend's 8 "
        "simulated devices (the tour sets XLA_FLAGS="
        "--xla_force_host_platform_device_count=8 before JAX starts).",
        """
        jax.default_backend(), jax.device_count()
        devices = jax.devices() if jax.device_count() >= 8 else jax.devices("cpu")
        len(devices), devices[0].platform
        """, note=mesh_note),
    Section(
        "The same program on an 8-device mesh",
        "nmap(f, mesh, axis_resources) runs f with shard_map: 'batch' (16) is "
        "split into a block of 2 on each of 8 devices, and the named mean is a "
        "local sum plus a cross-device psum. Same answer as the local run.",
        """
        data = np.arange(48.0).reshape(16, 3).tag("batch", None)
        mesh = jax.make_mesh((8,), ("data",), devices=devices[:8])
        step = lambda r: (r - r.mean(axis="batch")).max(axis="batch")
        local = np.nmap(step)(data)
        sharded = np.nmap(step, mesh=mesh, axis_resources={"batch": "data"})(data)
        local
        sharded
        bool(np.allclose(local, sharded))
        """, note=mesh_ready),
]


def _show(value) -> str:
    return repr(value)


def run_section(section: Section, ns: dict, number: int, out=sys.stdout) -> None:
    """Run one section in namespace ``ns``, printing code and results."""
    print(f"\n== {number}. {section.title} ==", file=out)
    print(textwrap.fill(section.blurb, 78), file=out)
    if section.note is not None:
        try:
            note = section.note()
        except LeftOut as e:
            print(textwrap.fill(f"(Left out: {e}.)", 78), file=out)
            return
        if note:
            print(textwrap.fill(note, 78), file=out)
    code = textwrap.dedent(section.code).strip("\n")
    for stmt in ast.parse(code).body:
        src = ast.get_source_segment(code, stmt)
        lines = src.splitlines()
        print(">>> " + lines[0], file=out)
        for line in lines[1:]:
            print("... " + line, file=out)
        if isinstance(stmt, ast.Expr):
            value = eval(compile(ast.Expression(stmt.value), "<tour>", "eval"), ns)
            if value is not None:
                print(_show(value), file=out)
        else:
            exec(compile(ast.Module([stmt], []), "<tour>", "exec"), ns)


def main(sections=None, out=sys.stdout) -> int:
    sections = SECTIONS if sections is None else sections
    t0 = time.perf_counter()
    print(f"namedarray {namedarray.__version__} tour (jax {jax.__version__}, "
          f"{jax.device_count()} {jax.default_backend()} devices, dtype defaults "
          f"{namedarray.dtype_defaults()!r})", file=out)
    ns: dict = {}
    for i, section in enumerate(sections, 1):
        run_section(section, ns, i, out)
    print(f"\n(tour ran in {time.perf_counter() - t0:.1f} s)", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

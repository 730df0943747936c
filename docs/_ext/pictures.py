"""The pictures of the documentation, computed and drawn when the docs build.

Each figure is drawn from what the library actually does (the shapes of a real
einsum call, the device map of a real sharded array, a fractal computed with
NumPy-style masks), so a picture cannot drift from the code.  ``write(dir)``
saves them as PNG files (matplotlib's Agg backend, no display needed).  The
slow one (the fractal, which compiles for every mask size) is drawn in a
second process while Sphinx reads the other pages.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import jax
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle
from sphinx.errors import ExtensionError

import namedarray as np

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]


# -- the escape-time fractal, with masks ---------------------------------------
def escape_time(width=60, height=40, iterations=20):
    """For each ``c`` of a grid over the complex plane, the iteration at which
    ``z = z**2 + c`` leaves the disc of radius 2 (``iterations`` if it never
    does): NumPy code with boolean masks, run by ``namedarray``."""
    x = np.linspace(-2.0, 1.0, width)
    y = np.linspace(-1.2, 1.2, height)
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    counts = np.full(c.shape, iterations)
    alive = np.ones(c.shape, dtype=bool)
    for i in range(iterations):
        z[alive] = z[alive] ** 2 + c[alive]
        escaped = alive & (abs(z) > 2)
        counts[escaped] = i
        alive &= ~escaped
    return counts


def fractal_figure(counts) -> Figure:
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    im = ax.imshow(np.asarray(counts).tolist(), extent=(-2.0, 1.0, -1.2, 1.2),
                   origin="lower", cmap="magma", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="iterations before escape")
    h, w = counts.shape
    ax.set_title(f"escape_time(width={w}, height={h}): masks, on namedarray")
    ax.set_xlabel("Re c")
    ax.set_ylabel("Im c")
    fig.tight_layout()
    return fig


# -- the sharding of an array over a device mesh -------------------------------
def sharded_example():
    """A (8, 6) array named ``("batch", "feature")`` placed with
    ``np.shard`` on a 4 x 2 mesh: ``batch`` over mesh axis ``data``,
    ``feature`` over ``model``.  Returns the array and the mesh."""
    n = jax.device_count()
    rows, cols = (4, 2) if n >= 8 else (n, 1)
    mesh = jax.make_mesh((rows, cols), ("data", "model"))
    x = np.arange(48.0).reshape(8, 6).tag("batch", "feature")
    return np.shard(x, mesh, {"batch": "data", "feature": "model"}), mesh


def sharding_figure(x, mesh) -> Figure:
    """Each device's block of the global array, read back from the placed
    data's sharding (``devices_indices_map``)."""
    data = x.data
    names = x.dims
    shape = data.shape
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    for dev, idx in data.sharding.devices_indices_map(shape).items():
        r0, r1, _ = idx[0].indices(shape[0])
        c0, c1, _ = idx[1].indices(shape[1])
        colour = PALETTE[dev.id % len(PALETTE)]
        ax.add_patch(Rectangle((c0, r0), c1 - c0, r1 - r0, facecolor=colour,
                               edgecolor="white", linewidth=2, alpha=0.85))
        ax.text((c0 + c1) / 2, (r0 + r1) / 2, f"device {dev.id}\n[{r0}:{r1}, {c0}:{c1}]",
                ha="center", va="center", fontsize=8, color="white")
    ax.set_xlim(0, shape[1])
    ax.set_ylim(shape[0], 0)
    ax.set_xticks(range(shape[1] + 1))
    ax.set_yticks(range(shape[0] + 1))
    ax.set_xlabel(f'"{names[1]}" (size {shape[1]}) over mesh axis "model" '
                  f'({mesh.shape["model"]})')
    ax.set_ylabel(f'"{names[0]}" (size {shape[0]}) over mesh axis "data" '
                  f'({mesh.shape["data"]})')
    ax.set_title('np.shard(x, mesh, {"batch": "data", "feature": "model"})')
    fig.tight_layout()
    return fig


# -- a named einsum ------------------------------------------------------------
EINSUM_SPEC = "{batch,k},{k,out}->{batch,out}"


def einsum_example():
    x = np.ones((2, 3)).tag("batch", "k")
    w = np.ones((3, 4)).tag("k", "out")
    return [x, w], np.einsum(EINSUM_SPEC, x, w)


def einsum_figure(operands, result, spec=EINSUM_SPEC) -> Figure:
    """The operands and the result as rows of named axes; a line joins a name
    to where it goes: carried to the result, or contracted."""
    fig = Figure(figsize=(7.5, 3.2))
    ax = fig.subplots()
    ax.set_axis_off()
    out_names = set(result.named_shape)
    colours = {}
    for a in [*operands, result]:
        for n in a.named_shape:
            colours.setdefault(n, PALETTE[len(colours) % len(PALETTE)])
    boxes = {}

    def row(arr, x0, y, label):
        ax.text(x0 - 0.15, y + 0.25, label, ha="right", va="center", fontsize=10,
                family="monospace")
        for j, (n, size) in enumerate(arr.named_shape.items()):
            xx = x0 + j * 1.3
            ax.add_patch(Rectangle((xx, y), 1.1, 0.5, facecolor=colours[n],
                                   edgecolor="black", alpha=0.8))
            ax.text(xx + 0.55, y + 0.25, f"{n}: {size}", ha="center", va="center",
                    fontsize=9, color="white")
            boxes.setdefault(n, []).append((xx + 0.55, y))

    row(operands[0], 1.0, 2.2, "x")
    row(operands[1], 4.6, 2.2, "w")
    row(result, 2.8, 0.2, "result")
    for n, places in boxes.items():
        ins, outs = [p for p in places if p[1] > 1], [p for p in places if p[1] < 1]
        if n in out_names:
            for (xa, ya) in ins:
                for (xb, yb) in outs:
                    ax.add_patch(FancyArrowPatch((xa, ya), (xb, yb + 0.5),
                                                 arrowstyle="->", mutation_scale=12,
                                                 color=colours[n]))
        elif len(ins) == 2:
            (xa, ya), (xb, yb) = ins
            ax.add_patch(FancyArrowPatch((xa, ya), (xb, yb), connectionstyle="arc3,rad=0.4",
                                         arrowstyle="<->", mutation_scale=12,
                                         color=colours[n]))
            ax.text((xa + xb) / 2, ya - 0.75, f'"{n}" contracted: one dot_general',
                    ha="center", fontsize=9, color=colours[n])
    ax.text(0.0, 3.2, f'np.einsum("{spec}", x, w)', fontsize=10, family="monospace")
    ax.set_xlim(-0.6, 8.0)
    ax.set_ylim(-0.1, 3.5)
    fig.tight_layout()
    return fig


FIGURES = {
    "einsum": lambda: einsum_figure(*einsum_example()),
    "sharding": lambda: sharding_figure(*sharded_example()),
    "fractal": lambda: fractal_figure(escape_time()),
}
# pictures slow to compute -> the page that shows them: drawn in a separate
# process while Sphinx reads (and executes) the other pages; the page is read
# last and waits for its picture
SLOW = {"fractal": "differences"}


def write(outdir: pathlib.Path, names=None) -> dict[str, pathlib.Path]:
    """Compute and draw the pictures ``names`` (default: all) into
    ``outdir``; returns name -> path.  A file appears complete or not at all."""
    outdir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in names or FIGURES:
        fig = FIGURES[name]()
        paths[name] = outdir / f"{name}.png"
        tmp = outdir / f".{name}.png.part"
        fig.savefig(tmp, format="png", dpi=100)
        os.replace(tmp, paths[name])
    return paths


_RUNNING: dict = {}


def _generate(app) -> None:
    out = pathlib.Path(app.srcdir) / "_generated"
    write(out, [n for n in FIGURES if n not in SLOW])
    for name in SLOW:
        (out / f"{name}.png").unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(pathlib.Path(app.srcdir).parent), os.environ.get("PYTHONPATH", "")])}
    _RUNNING["proc"] = subprocess.Popen([sys.executable, __file__, str(out), *SLOW],
                                        env=env)
    _RUNNING["out"] = out


def _read_last(app, env, docnames) -> None:
    for page in SLOW.values():
        if page in docnames:
            docnames.remove(page)
            docnames.append(page)


def _wait(*_args) -> None:
    proc = _RUNNING.pop("proc", None)
    if proc is not None and proc.wait() != 0:
        raise ExtensionError(f"pictures: drawing {sorted(SLOW)} failed "
                             f"(exit status {proc.returncode}); see the log above")


def _source_read(app, docname, source) -> None:
    if docname in SLOW.values():
        _wait()


def setup(app):
    app.connect("builder-inited", _generate)
    app.connect("env-before-read-docs", _read_last)
    app.connect("source-read", _source_read)
    app.connect("env-updated", _wait)
    app.connect("build-finished", _wait)
    # reading waits on a process this one started: not for parallel reading
    return {"parallel_read_safe": False, "parallel_write_safe": True}


if __name__ == "__main__":     # the slow pictures, in their own process
    write(pathlib.Path(sys.argv[1]), sys.argv[2:])

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


# -- names on a device mesh ----------------------------------------------------
def mesh_example():
    """A (8, 16, 3) array named ``("batch", "feat", None)`` placed on a 2 x 4
    mesh (axes ``x``, ``y``) with ``batch`` over ``x`` and ``feat`` over ``y``,
    as in the "Scaling out" tutorial.  Returns the array and the mesh."""
    n = jax.device_count()
    shape = (2, 4) if n >= 8 else (1, n)
    mesh = jax.make_mesh(shape, ("x", "y"))
    z = np.arange(8.0 * 16 * 3).reshape(8, 16, 3).tag("batch", "feat", None)
    return np.shard(z, mesh, {"batch": "x", "feat": "y"}), mesh


def mesh_figure(z, mesh) -> Figure:
    """The mesh as a grid of devices, each labelled with the block of every
    name it holds, read back from the placed data's sharding."""
    blocks = z.data.sharding.devices_indices_map(z.data.shape)
    rows, cols = mesh.devices.shape
    fig = Figure(figsize=(8.5, 1.6 + 1.1 * rows))
    ax = fig.subplots()
    ax.set_axis_off()
    for i in range(rows):
        for j in range(cols):
            dev = mesh.devices[i, j]
            idx = blocks[dev]
            held = [f"{name}[{idx[k].indices(size)[0]}:{idx[k].indices(size)[1]}]"
                    for k, (name, size) in enumerate(zip(z.dims, z.data.shape)) if name]
            ax.add_patch(Rectangle((j * 1.9, -i * 1.3), 1.7, 1.1,
                                   facecolor=PALETTE[(i * cols + j) % len(PALETTE)],
                                   edgecolor="black", alpha=0.85))
            ax.text(j * 1.9 + 0.85, -i * 1.3 + 0.55, f"device {dev.id}\n" + "\n".join(held),
                    ha="center", va="center", fontsize=8, color="white")
    ax.text(cols * 1.9 / 2, 1.35, f'mesh axis "y" ({cols} devices): "feat" is split over it',
            ha="center", fontsize=9)
    ax.text(-0.3, -(rows - 1) * 1.3 / 2 + 0.55, f'mesh axis "x"\n({rows} devices):\n'
            '"batch" is\nsplit over it', ha="right", va="center", fontsize=9)
    ax.text((cols * 1.9 - 2.2) / 2, -rows * 1.3 + 0.7,
            'np.shard(z, mesh, {"batch": "x", "feat": "y"})\n'
            f"named_shape {z.named_shape}; positional shape {z.shape}: whole on "
            "each device", ha="center", va="top", fontsize=8,
            family="monospace")
    ax.set_xlim(-2.4, cols * 1.9 + 0.2)
    ax.set_ylim(-rows * 1.3 - 0.1, 1.7)
    ax.set_position([0, 0, 1, 1])
    return fig


# -- alignment by name and nmap --------------------------------------------------
def _grid(ax, values, x0, y0, title, row_label, col_label, mark=None):
    """A 2-D array drawn as cells with their values; ``mark`` is a cell to
    outline."""
    values = numpy_rows(values)
    for r, line in enumerate(values):
        for c, v in enumerate(line):
            edge = (r, c) == mark
            ax.add_patch(Rectangle((x0 + c * 0.6, y0 - r * 0.5), 0.6, 0.5,
                                   facecolor=PALETTE[0] if not edge else PALETTE[1],
                                   edgecolor="black", linewidth=2.5 if edge else 0.8,
                                   alpha=0.8))
            ax.text(x0 + c * 0.6 + 0.3, y0 - r * 0.5 + 0.25, f"{v:g}", ha="center",
                    va="center", fontsize=9, color="white")
    ncol = len(values[0])
    ax.text(x0 + ncol * 0.3, y0 + 0.95, title, ha="center", fontsize=9, family="monospace")
    ax.text(x0 + ncol * 0.3, y0 + 0.6, col_label, ha="center", fontsize=8)
    ax.text(x0 - 0.1, y0 - (len(values) - 2) * 0.25, row_label, ha="right",
            va="center", fontsize=8)


def numpy_rows(a) -> list[list[float]]:
    """A positional NamedArray (or nested list) as a list of rows."""
    return a.tolist() if hasattr(a, "tolist") else a


def alignment_example():
    u = np.arange(6.0).reshape(2, 3).tag("b", "f")
    v = (10 * np.arange(6.0)).reshape(3, 2).tag("f", "b")   # stored transposed
    return u, v, u + v


def alignment_figure(u, v, total) -> Figure:
    """Two operands whose names are stored in different orders, and their
    sum, each drawn in its own physical order: one element followed."""
    fig = Figure(figsize=(8.0, 2.6))
    ax = fig.subplots()
    ax.set_axis_off()
    _grid(ax, u.untag(*u.names), 0.6, 1.0, "u", '"b"', '"f"', mark=(1, 2))
    ax.text(2.75, 0.75, "+", fontsize=16, ha="center", va="center")
    _grid(ax, v.untag(*v.names), 3.7, 1.0, "v (stored f, b)", '"f"', '"b"', mark=(2, 1))
    ax.text(5.4, 0.75, "=", fontsize=16, ha="center", va="center")
    _grid(ax, total.untag("b", "f"), 6.3, 1.0, "u + v", '"b"', '"f"', mark=(1, 2))
    ax.text(4.3, -0.75, 'aligned by name: (u + v)[b=1, f=2] = u[b=1, f=2] + v[f=2, b=1] = '
            f'{float(total.untag("b", "f")[1, 2]):g}', ha="center", fontsize=9)
    ax.set_xlim(-0.2, 8.3)
    ax.set_ylim(-1.0, 2.2)
    fig.tight_layout()
    return fig


def nmap_example():
    x = np.arange(12.0).reshape(3, 4).tag("batch", None)
    return x, np.nmap(lambda row: row.max())(x)


def nmap_figure(x, out) -> Figure:
    """``nmap(f)(x)``: ``f`` called on each slice of the named axis, its
    results stacked along the same name."""
    fig = Figure(figsize=(7.5, 2.8))
    ax = fig.subplots()
    ax.set_axis_off()
    rows = x.untag("batch")
    _grid(ax, rows, 0.6, 1.2, "x", '"batch"', "positional axis (x.shape == (4,))")
    res = out.untag("batch").tolist()
    for r, v in enumerate(res):
        y = 1.2 - r * 0.5 + 0.25
        ax.add_patch(FancyArrowPatch((3.1, y), (5.0, y), arrowstyle="->",
                                     mutation_scale=12, color=PALETTE[2]))
        ax.text(4.05, y + 0.07, "f(row): row.shape == (4,)", ha="center", fontsize=7)
        ax.add_patch(Rectangle((5.2, y - 0.25), 0.6, 0.5, facecolor=PALETTE[4],
                               edgecolor="black", alpha=0.85))
        ax.text(5.5, y, f"{v:g}", ha="center", va="center", fontsize=9, color="white")
    ax.text(5.5, 2.15, "nmap(f)(x)", ha="center", fontsize=9, family="monospace")
    ax.text(5.5, 1.8, f"named_shape {out.named_shape}", ha="center", fontsize=8)
    ax.text(3.2, -0.65, "f = lambda row: row.max()   # positional code; it never sees "
            '"batch"', ha="center", fontsize=8, family="monospace")
    ax.set_xlim(-0.4, 6.8)
    ax.set_ylim(-0.9, 2.4)
    fig.tight_layout()
    return fig


FIGURES = {
    "einsum": lambda: einsum_figure(*einsum_example()),
    "mesh": lambda: mesh_figure(*mesh_example()),
    "alignment": lambda: alignment_figure(*alignment_example()),
    "nmap": lambda: nmap_figure(*nmap_example()),
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

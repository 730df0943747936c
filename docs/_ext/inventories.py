"""Intersphinx inventories of NumPy and JAX, written from the installed packages.

The build has no network, so ``intersphinx_mapping`` points at local files
written here (Sphinx's inventory format, version 2) instead of the projects'
``objects.inv``: every public callable and type of ``numpy`` (and of
``numpy.linalg``, ``numpy.fft``, ``numpy.random``) links to its page on
numpy.org, every one of ``jax.numpy`` to its page on docs.jax.dev.  So
``:func:`numpy.sum``` and ``:func:`jax.numpy.sum``` are links.
"""
from __future__ import annotations

import pathlib
import zlib

import jax
import jax.numpy as jnp
import numpy as onp

NUMPY = "https://numpy.org/doc/stable/"
JAX = "https://docs.jax.dev/en/latest/"


def _entries(module, prefix: str, page) -> list[str]:
    """Inventory lines for the public callables of ``module``, named
    ``prefix + name``, each at ``page(full name)``."""
    lines = []
    for name in sorted(dir(module)):
        obj = getattr(module, name, None)
        if name.startswith("_") or not callable(obj):
            continue
        full = prefix + name
        role = "py:class" if isinstance(obj, type) else "py:function"
        lines.append(f"{full} {role} 1 {page(full)} -")
    return lines


def _write(path: pathlib.Path, project: str, version: str, lines: list[str]) -> None:
    head = (f"# Sphinx inventory version 2\n# Project: {project}\n# Version: {version}\n"
            "# The remainder of this file is compressed using zlib.\n").encode()
    body = zlib.compress(("\n".join(lines) + "\n").encode())
    if not path.exists() or path.read_bytes() != head + body:
        path.write_bytes(head + body)


def write(outdir: pathlib.Path) -> dict[str, pathlib.Path]:
    """Write ``numpy.inv`` and ``jax.inv`` into ``outdir``; name -> path."""
    outdir.mkdir(parents=True, exist_ok=True)
    numpy_page = lambda full: f"reference/generated/{full}.html"  # noqa: E731
    lines = _entries(onp, "numpy.", numpy_page)
    for sub in ("linalg", "fft", "random"):
        lines += _entries(getattr(onp, sub), f"numpy.{sub}.", numpy_page)
    jax_lines = _entries(jnp, "jax.numpy.", lambda full: f"_autosummary/{full}.html")
    paths = {"numpy": outdir / "numpy.inv", "jax": outdir / "jax.inv"}
    _write(paths["numpy"], "NumPy", onp.__version__, lines)
    _write(paths["jax"], "JAX", jax.__version__, jax_lines)
    return paths

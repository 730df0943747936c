"""The bottom layer: the NamedArray type, dims helpers, alignment by name, config."""

from . import pytree  # noqa: F401  (NamedArray and View as pytree nodes)

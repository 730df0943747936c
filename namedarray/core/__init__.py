"""The bottom layer: the NamedArray type, dims helpers, alignment by name, config."""

"""The Array API standard's inspection namespace (``__array_namespace_info__``).

>>> import namedarray as np
>>> info = np.__array_namespace_info__()
>>> info.default_dtypes()["integral"]
dtype('int64')
"""
from __future__ import annotations

import jax
import numpy as onp

from .core import config as _config

_KINDS = {
    "bool": ["bool"],
    "signed integer": ["int8", "int16", "int32", "int64"],
    "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
    "real floating": ["float32", "float64"],
    "complex floating": ["complex64", "complex128"],
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]


class Info:
    """What this namespace supports (Array API ``__array_namespace_info__``)."""

    def capabilities(self):
        # boolean indexing needs concrete masks (not under jit), but it works
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        return jax.devices()[0]

    def devices(self):
        return list(jax.devices())

    def default_dtypes(self, *, device=None):
        wide = _config.numpy_dtypes()
        return {"real floating": onp.dtype("float64" if wide else "float32"),
                "complex floating": onp.dtype("complex128" if wide else "complex64"),
                "integral": onp.dtype("int64" if wide else "int32"),
                "indexing": onp.dtype("int64" if wide else "int32")}

    def dtypes(self, *, device=None, kind=None):
        wide = _config.numpy_dtypes()
        names = []
        kinds = [kind] if isinstance(kind, str) or kind is None else list(kind)
        for k in kinds:
            if k is None:
                names += [n for v in ("bool", "numeric") for n in _KINDS[v]]
            elif k not in _KINDS:
                raise ValueError(f"dtypes: unknown kind {k!r}; one of {sorted(_KINDS)}")
            else:
                names += _KINDS[k]
        if not wide:
            names = [n for n in names if n not in ("int64", "uint64", "float64",
                                                   "complex128")]
        return {n: onp.dtype(n) for n in dict.fromkeys(names)}


def __array_namespace_info__():
    return Info()

"""The nested ``vmap`` over axis names (the local ``nmap`` and the generic
engine's mapping of named axes both build it here).

>>> import jax.numpy as jnp
>>> from namedarray.core.vmap import nested_vmap
>>> f = nested_vmap(lambda a: a.sum(), ["i", "j"], [(1, ("i", "j"))])
>>> f(jnp.ones((3, 2, 4))).shape      # positional (3,), names i=2, j=4 -> (j, i)
(4, 2)
"""
from __future__ import annotations

import jax


def nested_vmap(f, union, layouts, *, axis_names=False, level=None):
    """``f`` vmapped over each name of ``union`` (the first name outermost).

    ``layouts`` has one ``(ndim, names)`` per array argument: its positional
    ndim and the names of its trailing dimensions, in ``union`` order.  Each
    level maps to ``out_axes=-1``, so results end with the names in reverse
    ``union`` order.  ``axis_names=True`` sets each level's JAX ``axis_name``
    to the name; ``level(g, name, mapped_args)`` may wrap the function mapped
    at each level (before it is vmapped).
    """
    g = f
    for lv in range(len(union) - 1, -1, -1):
        name = union[lv]
        in_axes = []
        for n, want in layouts:
            if name in want:
                remaining = [w for w in want if union.index(w) >= lv]
                in_axes.append(n + remaining.index(name))
            else:
                in_axes.append(None)
        if level is not None:
            g = level(g, name, [k for k, ax in enumerate(in_axes) if ax is not None])
        kw = {"axis_name": name} if axis_names else {}
        g = jax.vmap(g, in_axes=tuple(in_axes), out_axes=-1, **kw)
    return g

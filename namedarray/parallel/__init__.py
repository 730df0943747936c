"""Parallel collective primitives over axis names.

Each primitive takes one name or a tuple of names and resolves every name by
placement (``namedarray.placement``):

* a **physical** named dimension of the operand -> the primitive's batching
  rule (``psum`` reduces that dimension; ``all_gather`` turns it into a
  positional axis; ``ppermute`` gathers along it);
* a name **bound** by an enclosing ``nmap`` -> the ``jax.lax`` collective;
* a **split** name (a local block here times mesh axes) -> both, composed.

>>> import namedarray as np
>>> from namedarray import parallel
>>> x = np.arange(6.0).reshape(2, 3).tag("i", "j")
>>> parallel.psum(x, "i").named_shape
{'j': 3}
>>> np.nmap(lambda v: parallel.psum(v, "i"))(x).named_shape     # same as unmapped
{'j': 3}
"""
from __future__ import annotations


import jax
import jax.numpy as jnp
from jax import lax

from ..core import config
from ..core.array import NamedArray, align, new, operand, positional
from ..placement import bindings, resolve

__all__ = ["psum", "pmean", "pmax", "pmin", "pprod", "pany", "pall", "pargmax",
           "pargmin", "all_gather", "all_to_all", "ppermute", "pshuffle",
           "axis_index", "axis_size"]


def _names(axis_name):
    return (axis_name,) if isinstance(axis_name, str) else tuple(axis_name)


def _as_named(x):
    x = operand(x)
    return x if isinstance(x, NamedArray) else positional(jnp.asarray(x))


def _drop(x: NamedArray, data, dims_removed):
    keep = tuple(d for i, d in enumerate(x.dims) if i not in dims_removed)
    return new(data, keep)


def bound_collective(collective, data, places):
    """Apply ``collective(data, axes)`` over every bound name's axis groups, one
    group at a time (a vmap axis and mesh axes cannot share one collective),
    the local block first so that the mesh step moves the reduced value.

    >>> import jax, jax.numpy as jnp
    >>> from namedarray.placement import Binding, bind, resolve
    >>> def f(v):
    ...     with bind({"i": Binding("i", (("i",),), (2,))}):
    ...         return bound_collective(jax.lax.psum, v, resolve("f", None, ["i"]))
    >>> jax.vmap(f, axis_name="i")(jnp.arange(2.0))
    Array([1., 1.], dtype=float64)
    """
    for p in places:
        if p.binding is not None:
            for group in reversed(p.binding.groups):
                data = collective(data, group)
    return data


def _group_index(group):
    return lax.axis_index(group if len(group) > 1 else group[0])


def _index(b):
    """This instance's global index along a bound name (major to minor groups)."""
    idx = jnp.zeros((), jnp.int32)
    for g, size in zip(b.groups, b.sizes):
        idx = idx * size + _group_index(g)
    return idx


# --------------------------------------------------------------------------
# reductions over names
# --------------------------------------------------------------------------
def _reducer(fn, local, collective):
    def prim(x, axis_name):
        def one(v):
            v = _as_named(v)
            places = resolve(fn, v, _names(axis_name))
            phys = tuple(p.dim for p in places if p.dim is not None)
            data = local(v.data, phys) if phys else v.data
            out = _drop(v, data, set(phys))
            return new(bound_collective(collective, out.data, places), out.dims)
        return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))
    prim.__name__ = prim.__qualname__ = fn
    return prim


def _keep_dtype(red):
    return lambda d, ax: red(d, axis=ax).astype(d.dtype)


_pmax_bound = jax.custom_jvp(lambda x, axes: lax.pmax(x, axes), nondiff_argnums=(1,))
_pmin_bound = jax.custom_jvp(lambda x, axes: lax.pmin(x, axes), nondiff_argnums=(1,))


def _def_chooser(prim, coll):
    @prim.defjvp
    def _jvp(axes, primals, tangents):
        (x,), (t,) = primals, tangents
        m = coll(x, axes)
        eq = x == m
        tsum = lax.psum(jnp.where(eq, t, jnp.zeros_like(t)), axes)
        cnt = lax.psum(eq.astype(t.dtype), axes)
        return m, tsum / cnt


_def_chooser(_pmax_bound, lax.pmax)
_def_chooser(_pmin_bound, lax.pmin)
# the bound-name collectives, for the frontend's reduction table
pmax_bound, pmin_bound = _pmax_bound, _pmin_bound


def _bound_prod(x, axes):
    """The product over bound JAX axes (``pprod``'s collective).

    >>> import jax, jax.numpy as jnp
    >>> jax.vmap(lambda v: _bound_prod(v, ("i",)), axis_name="i")(jnp.arange(1.0, 4.0))
    Array([6., 6., 6.], dtype=float64)
    """
    # one axis at a time: all_gather over several vmapped axes is unsupported in JAX
    for ax in axes:
        x = jnp.prod(lax.all_gather(x, ax, axis=0), axis=0)
    return x


bound_prod = _bound_prod


def _bool_coll(coll):
    return lambda d, axes: coll(d.astype(jnp.int32), axes).astype(bool)


psum = _reducer("psum", _keep_dtype(jnp.sum), lax.psum)
pmax = _reducer("pmax", lambda d, ax: jnp.max(d, axis=ax), _pmax_bound)
pmin = _reducer("pmin", lambda d, ax: jnp.min(d, axis=ax), _pmin_bound)
pprod = _reducer("pprod", _keep_dtype(jnp.prod), _bound_prod)
pany = _reducer("pany", lambda d, ax: jnp.any(d, axis=ax), _bool_coll(lax.pmax))
pall = _reducer("pall", lambda d, ax: jnp.all(d, axis=ax), _bool_coll(lax.pmin))
psum.__doc__ = """Sum over the named axes (``lax.psum``; dtype kept).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.psum(np.arange(6.0).reshape(2, 3).tag("i", "j"), "i").untag("j")
    array([3., 5., 7.])
    """
pmax.__doc__ = """Maximum over the named axes (differentiable, unlike ``lax.pmax``).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pmax(np.arange(6.0).reshape(2, 3).tag("i", "j"), "i").untag("j")
    array([3., 4., 5.])
    """
pmin.__doc__ = """Minimum over the named axes (differentiable, unlike ``lax.pmin``).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pmin(np.arange(6.0).reshape(2, 3).tag("i", "j"), ("i", "j"))
    array(0.)
    """
pprod.__doc__ = """Product over the named axes.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pprod(np.arange(1.0, 5.0).tag("i"), "i")
    array(24.)
    """
pany.__doc__ = """Logical or over the named axes.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pany(np.arange(3).tag("i") > 1, "i")
    array(True)
    """
pall.__doc__ = """Logical and over the named axes.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pall(np.arange(3).tag("i") > 1, "i")
    array(False)
    """


def pmean(x, axis_name):
    """Mean over the named axes.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pmean(np.arange(6.0).reshape(2, 3).tag("i", "j"), "i").untag("j")
    array([1.5, 2.5, 3.5])
    """
    def one(v):
        v = _as_named(v)
        s = psum(v, axis_name)
        n = axis_size(axis_name, v)
        d = s.data
        if not jnp.issubdtype(d.dtype, jnp.inexact):
            d = d.astype(jnp.result_type(float))
        return new(d / n, s.dims)
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))


def _arg(fn, better):
    def prim(x, axis_name):
        names = _names(axis_name)
        x = _as_named(x)
        g = gather_names(fn, x, names)
        k = len(names)
        d = g.data.reshape((-1,) + g.data.shape[k:]) if k != 1 else g.data
        return new(better(d, axis=0), g.dims[k:])
    prim.__name__ = prim.__qualname__ = fn
    prim.__doc__ = (f"Index of the {'maximum' if better is jnp.argmax else 'minimum'} "
                    "over the named axes (flat, C order over the names given).\n\n"
                    "    >>> import namedarray as np\n"
                    "    >>> from namedarray import parallel\n"
                    f"    >>> parallel.{fn}(np.array([[0, 9, 1], [2, 5, -1]]).tag('i', 'j'), ('i', 'j'))\n"
                    f"    array({1 if better is jnp.argmax else 5})\n")
    return prim


pargmax = _arg("pargmax", jnp.argmax)
pargmin = _arg("pargmin", jnp.argmin)


# --------------------------------------------------------------------------
# data movement
# --------------------------------------------------------------------------
def axis_size(axis_name, x=None) -> int:
    """Size of the named axes (product for a tuple); ``psum(1, name)``.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.axis_size(("i", "j"), np.zeros((2, 3)).tag("i", "j"))
    6
    """
    x = _as_named(x) if x is not None else None
    size = 1
    for p in resolve("axis_size", x, _names(axis_name)):
        if p.binding is not None:
            size *= p.binding.size
        else:
            size *= x.data.shape[p.dim]
    return size


def axis_index(axis_name):
    """Index along the bound names: ``axis_index(("i", "j")) == i * size_j + j``.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.zeros((2, 3)).tag("i", "j")
    >>> np.nmap(lambda v: v + parallel.axis_index(("i", "j")))(x).untag("i", "j")
    array([[0., 1., 2.],
           [3., 4., 5.]])
    """
    dt = jnp.int64 if config.numpy_dtypes() else jnp.int32
    idx = None
    for p in resolve("axis_index", None, _names(axis_name)):
        b = p.binding
        i = positional(_index(b).astype(dt))
        if b.local:   # a split name: this device's block of global indices
            i = new(i.data * b.block + jnp.arange(b.block, dtype=dt), (p.name,))
        if idx is None:
            idx = i
        else:   # idx * size + i, aligned by name
            (hi, lo), dims = align("axis_index", [idx, i])
            idx = new(hi * b.size + lo, dims)
    return idx


def all_gather(x, axis_name, *, axis=0, tiled=False):
    """Gather the values along the named axes into positional axis ``axis``.

    The name is "forgotten": the result holds every value of the name and no
    longer varies along it.  ``tiled=True`` concatenates into axis ``axis``
    instead of stacking a new one.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.all_gather(np.arange(6.0).reshape(2, 3).tag("i", "j"), "i").named_shape
    {'j': 3}
    """
    def one(v):
        v = _as_named(v)
        names = _names(axis_name)
        g = gather_names("all_gather", v, names)
        k = len(names)
        d = g.data
        if k > 1:
            d = d.reshape((-1,) + d.shape[k:])
        n = v.ndim
        ax = axis if axis >= 0 else axis + n + (0 if tiled else 1)
        if tiled:
            if n == 0:
                raise ValueError("all_gather: tiled=True needs a positional axis to "
                                 "concatenate into; the operand is 0-d")
            d = jnp.moveaxis(d, 0, ax)
            shp = d.shape
            d = d.reshape(shp[:ax] + (shp[ax] * shp[ax + 1],) + shp[ax + 2:])
            return new(d, (None,) * n + g.dims[k + n:])
        d = jnp.moveaxis(d, 0, ax)
        return new(d, (None,) * (n + 1) + g.dims[k + n:])
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))


def ppermute(x, axis_name, perm):
    """Send data along a name: for each ``(src, dst)`` pair, ``out[dst] = in[src]``;
    destinations nobody sends to get zeros.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.ppermute(np.arange(1.0, 4.0).tag("i"), "i", [(0, 1), (1, 2)]).untag("i")
    array([0., 1., 2.])
    """
    perm = [tuple(map(int, p)) for p in perm]
    dsts = [d for _, d in perm]
    if len(set(dsts)) != len(dsts) or len({s for s, _ in perm}) != len(perm):
        raise ValueError(f"ppermute: perm {perm} sends from or to one index twice")

    def one(v):
        v = _as_named(v)
        (p,) = resolve("ppermute", v, _names(axis_name))
        b = p.binding
        # vmap's ppermute rule needs a full permutation; partial ones gather
        if b is not None and p.dim is None and len(b.groups) == 1 and (
                b.kind == "mesh" or len(perm) == b.size):
            return new(lax.ppermute(v.data, b.groups[0], perm), v.dims)
        size = v.data.shape[p.dim] if p.binding is None else axis_size(axis_name, v)
        src = [0] * size
        mask = [False] * size
        for s, d in perm:
            if not (0 <= s < size and 0 <= d < size):
                raise ValueError(f"ppermute: pair {(s, d)} is out of range for axis "
                                 f"{axis_name!r} of size {size}")
            src[d], mask[d] = s, True
        if p.binding is not None:
            g = gather_names("ppermute", v, (p.name,))
            moved = jnp.take(g.data, jnp.asarray(src), axis=0)
            moved = jnp.where(jnp.asarray(mask).reshape((-1,) + (1,) * (moved.ndim - 1)),
                              moved, 0)
            return scatter_names("ppermute", new(moved, g.dims), (p.name,))
        moved = jnp.take(v.data, jnp.asarray(src), axis=p.dim)
        shape = [1] * v.data.ndim
        shape[p.dim] = size
        moved = jnp.where(jnp.asarray(mask).reshape(shape), moved, 0).astype(v.dtype)
        return new(moved, v.dims)
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))


def pshuffle(x, axis_name, perm):
    """``out[i] = in[perm[i]]`` along the name (``lax.pshuffle``).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.pshuffle(np.arange(3.0).tag("i"), "i", [2, 0, 1]).untag("i")
    array([2., 0., 1.])
    """
    perm = [int(i) for i in perm]
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"pshuffle: perm {perm} is not a permutation of range({len(perm)})")
    return ppermute(x, axis_name, [(s, d) for d, s in enumerate(perm)])


def all_to_all(x, axis_name, split_axis, concat_axis, *, tiled=False):
    """Exchange a positional axis with a named one (``lax.all_to_all``): the
    positional ``split_axis`` is scattered over the name, and the name's
    values are concatenated along positional ``concat_axis``.

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> x = np.arange(4.0).reshape(2, 2).tag(None, "i")    # x.untag("i")[i, k]
    >>> parallel.all_to_all(x, "i", 0, 0).untag("i")       # now [k, i]
    array([[0., 1.],
           [2., 3.]])
    """
    def one(v):
        v = _as_named(v)
        (p,) = resolve("all_to_all", v, _names(axis_name))
        if p.binding is not None:
            if p.dim is None and len(p.binding.groups) == 1:
                d = lax.all_to_all(v.data, p.binding.groups[0], split_axis, concat_axis,
                                   tiled=tiled)
                return new(d, v.dims)
            # split name: exchange on the gathered axis, keep this instance's part
            g = gather_names("all_to_all", v, (p.name,))
            g = g.tag(p.name, *([None] * (g.ndim - 1)))
            r = _all_to_all_local(g, g.dims.index(p.name), p.name, split_axis,
                                  concat_axis, tiled)
            return scatter_names("all_to_all", r.untag(p.name), (p.name,))
        return _all_to_all_local(v, p.dim, p.name, split_axis, concat_axis, tiled)
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, NamedArray))


def _all_to_all_local(v, dim, name, split_axis, concat_axis, tiled):
    """all_to_all over a name that is a physical dimension of ``v``."""
    n = v.ndim
    size = v.data.shape[dim]
    s = split_axis % n
    if v.shape[s] != (size if not tiled else v.shape[s]) or v.shape[s] % size:
        raise ValueError(
            f"all_to_all: split_axis {split_axis} has size {v.shape[s]}, which "
            f"{'must equal' if not tiled else 'must be divisible by'} the size "
            f"{size} of axis {name!r}")
    g = v.untag(name).data                      # (B, *pos, *rest)
    if tiled:
        shp = g.shape
        g = g.reshape(shp[:1 + s] + (size, shp[1 + s] // size) + shp[2 + s:])
        g = jnp.moveaxis(g, 1 + s, 0)            # (Bnew, Bold, *pos', *rest)
        g = jnp.moveaxis(g, 1, 1 + concat_axis % n)
        shp = g.shape
        c = 1 + concat_axis % n
        g = g.reshape(shp[:c] + (shp[c] * shp[c + 1],) + shp[c + 2:])
        g = jnp.moveaxis(g, 0, -1)
        rest = tuple(d for d in v.names if d != name)
        return new(g, (None,) * n + rest + (name,))
    g = jnp.moveaxis(g, 1 + s, 0)                # (Bnew, Bold, *pos without s, *rest)
    g = jnp.moveaxis(g, 1, 1 + concat_axis % n)
    g = jnp.moveaxis(g, 0, -1)
    rest = tuple(d for d in v.names if d != name)
    return new(g, (None,) * n + rest + (name,))


# --------------------------------------------------------------------------
# helpers for the frontend: names <-> leading positional axes
# --------------------------------------------------------------------------
def gather_names(fn, x: NamedArray, names) -> NamedArray:
    """Make ``names`` the leading positional axes of ``x`` (in order): untag the
    physical ones, ``all_gather`` the bound ones (a split name's blocks are
    concatenated in global order).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.gather_names("f", np.zeros((2, 3)).tag("i", "j"), ["j"]).shape
    (3,)
    """
    for p in resolve(fn, x, names):
        b = p.binding
        if b is None:
            continue
        d = x.data
        if p.dim is not None:          # split: local block x mesh
            for g in reversed(b.groups):
                d = lax.all_gather(d, g if len(g) > 1 else g[0], axis=p.dim, tiled=True)
            x = new(d, x.dims)
            continue
        for k, g in enumerate(reversed(b.groups)):   # minor group first
            d = lax.all_gather(d, g if len(g) > 1 else g[0], axis=0, tiled=k > 0)
        n = x.ndim
        x = new(jnp.moveaxis(d, 0, n), x.dims[:n] + (p.name,) + x.dims[n:])
    return x.untag(*names)


def scatter_names(fn, y: NamedArray, names) -> NamedArray:
    """Inverse of :func:`gather_names`: the leading positional axes of ``y`` get
    the names back (for a bound name this instance keeps its own slice, for a
    split name its own block).

    >>> import namedarray as np
    >>> from namedarray import parallel
    >>> parallel.scatter_names("f", np.zeros((3, 2)), ["j"]).named_shape
    {'j': 3}
    """
    k = len(names)
    out = new(y.data, (None,) * k + y.dims[k:]).tag(*names, *([None] * (y.ndim - k)))
    for name in names:
        b = bindings().get(name)
        if b is None:
            continue
        dim = out.dims.index(name)
        if b.local:
            d = lax.dynamic_slice_in_dim(out.data, _index(b) * b.block, b.block, axis=dim)
            out = new(d, out.dims)
        else:
            d = lax.dynamic_index_in_dim(out.data, _index(b), axis=dim, keepdims=False)
            out = new(d, tuple(v for v in out.dims if v != name))
    return out

"""Shape manipulation and functions that write into their argument: ``reshape``,
``transpose``, ``split``, ``take``, ``put``, ``copyto``, ``squeeze``,
``moveaxis``, ``repeat``, ``kron``, ``apply_along_axis``, ``packbits``, ...
(positional axes; named axes ride along).

>>> import namedarray as np
>>> np.reshape(np.arange(6).tag("b") * np.ones((2, 3)).reshape(6), (3, 2)).named_shape
{'b': 6}
"""
from __future__ import annotations

import inspect
import math
import operator

import jax
import jax.numpy as jnp
import numpy as onp

from ..core import backends
from ..core.array import (NamedArray, check_writeable, new, normalize_axis, operand,
                          positional, rewrap, to_jax, unknown_name)
from ..core.derived import read_only
from ..core.align import align
from ..core.sharding import abstract_mesh, mesh_axes, reshard, unshard
from .creation import asarray
from .engines import host
from .engines.assign import assigned
from .engines.args import as_data, is_data, np_asarray, numpy_args, to_device
from .engines.declare import _checked, _decl, _host
from .engines.gather import in_order, index_names
from .engines.generic import along_names, generic, has_names, wrap
from .engines.index_rules import check_bounds
from .engines.out import store_out
from .engines.results import check_fits
from .engines.views import stays_view
from .engines.select import result_type, where as select


# -- shape manipulation: NumPy's error types ---------------------------------
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """``numpy.reshape`` of the positional axes (named axes ride along)."""
    if shape is None:
        if newshape is None:
            raise TypeError("reshape: reshape() missing 1 required positional argument: "
                            "'shape'")
        shape = newshape
    x = asarray(a)
    dims = (shape,) if isinstance(shape, (int, onp.integer)) else tuple(shape)
    try:
        if any(isinstance(d, (bool, onp.bool_)) for d in dims):
            raise TypeError      # (NumPy: a bool is no length)
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError(f"reshape: shape must be ints, got {shape!r}") from None
    unknown = [i for i, d in enumerate(dims) if d == -1]
    known = math.prod(d for d in dims if d != -1)
    if len(unknown) > 1 or any(d < -1 for d in dims) or (
            known != x.size if not unknown else (known == 0 or x.size % known)):
        if not (unknown and known == 0 and x.size == 0 and len(unknown) == 1):
            raise ValueError(f"reshape: cannot reshape array of size {x.size} (shape "
                             f"{x.shape}) into shape {dims}")
    if order not in ("C", "F", "A", None):
        raise ValueError(f"reshape: order must be 'C', 'F' or 'A', got {order!r}")
    order = "F" if order == "F" else "C"    # ("A": the data is C-ordered)
    if copy is False and not stays_view(x, lambda v: reshape(v, dims, order)):
        raise ValueError("reshape: Unable to avoid creating a copy while reshaping (copy="
                         f"False; shape {x.shape} to {dims} in order {order!r})")
    return generic("reshape", jnp.reshape, (x, dims), {"order": order})


def _untag_listed(fn, x, axes, arg="axes"):
    """``x`` with the names listed in ``axes`` made positional (``untag``: in
    front, in the order listed), and ``axes`` as positions of that array."""
    names = [a for a in axes if isinstance(a, str)]
    for n in names:
        if n not in x.named_shape:
            raise unknown_name(fn, "axis name" if arg == "axes" else arg, n, x)
    if len(set(names)) != len(names):
        raise ValueError(f"{fn}: repeated axis name in {arg}={tuple(axes)!r}")
    k = len(names)
    pos = [names.index(a) if isinstance(a, str) else k + normalize_axis(fn, a, x.ndim)
           for a in axes]
    return (x.untag(*names) if names else x), pos


def transpose(a, axes=None):
    """``numpy.transpose`` of the positional axes.  A name in ``axes`` makes
    that named axis positional, at its place in ``axes``.

    >>> import namedarray as np
    >>> x = np.zeros((2, 3)).tag("b", None)
    >>> np.transpose(x, (0, "b")).shape
    (3, 2)
    """
    x = asarray(a)
    if axes is not None:
        axes = tuple(axes)
        y, ax = _untag_listed("transpose", x, axes)
        if sorted(ax) != list(range(y.ndim)):
            msg = (f"transpose: axes {axes} don't match an array with {x.ndim} positional "
                   f"dimensions (shape {x.shape})")
            if x.names:
                msg += (f" and named axes {x.named_shape}: list each positional axis "
                        "once; a name listed becomes positional there")
            raise ValueError(msg)
        x, axes = y, tuple(ax)
    return generic("transpose", jnp.transpose, (x, axes), {})


def permute_dims(a, axes=None):
    """``numpy.permute_dims`` (the Array API's ``transpose``): negative axes count
    from the end; listed axes may be names, as in ``transpose``.

    >>> import namedarray as np
    >>> np.permute_dims(np.zeros((2, 0, 3)), (-1, 0, 1)).shape
    (3, 2, 0)
    """
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    """``numpy.swapaxes`` of two positional axes only.  A named axis has no
    position to swap: ``moveaxis`` or ``transpose`` make it positional where
    wanted."""
    x = asarray(a)
    for arg, v in (("axis1", axis1), ("axis2", axis2)):
        if isinstance(v, str):
            if v not in x.named_shape:
                raise unknown_name("swapaxes", arg, v, x)
            raise ValueError(
                f"swapaxes: {arg}={v!r} is a named axis, and named axes have no position "
                f"to swap (named shape {x.named_shape}, positional shape {x.shape}); "
                f"to make it positional use np.moveaxis(x, {v!r}, position) or "
                f"x.untag({v!r})")
    a1 = normalize_axis("swapaxes", axis1, x.ndim)
    a2 = normalize_axis("swapaxes", axis2, x.ndim)
    return generic("swapaxes", jnp.swapaxes, (x, a1, a2), {})


def split(ary, indices_or_sections, axis=0):
    """``numpy.split``: equal sections, or split points (clipped like slices);
    ``axis`` may name an axis (each piece keeps the name)."""
    return _split("split", ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    """``numpy.array_split``: like ``split``, sections may differ by one;
    ``axis`` may name an axis (each piece keeps the name)."""
    return _split("array_split", ary, indices_or_sections, axis, equal=False)


def _split(fn, ary, ios, axis, equal):
    x = asarray(ary)
    if isinstance(axis, str):   # split the whole axis; each piece keeps the name
        if axis not in x.named_shape:
            raise unknown_name(fn, "axis", axis, x)
        parts = _split(fn, x.untag(axis), ios, 0, equal)
        return [p.tag(axis, *([None] * (p.ndim - 1))) for p in parts]
    ax = normalize_axis(fn, axis, x.ndim)
    n = x.shape[ax]
    if isinstance(ios, (int, onp.integer)):
        k = int(ios)
        if k <= 0:
            raise ValueError(f"{fn}: number of sections must be larger than 0, got {k}")
        if equal and n % k:
            raise ValueError(f"{fn}: array split does not result in an equal division "
                             f"(axis {ax} has size {n}, {k} sections)")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        bounds = list(onp.cumsum([0] + sizes))
        pairs = list(zip(bounds[:-1], bounds[1:]))
    else:
        idx = [int(i) for i in (ios.tolist() if isinstance(ios, NamedArray) else ios)]
        pairs = list(zip([0] + idx, idx + [None]))
    pre = (slice(None),) * ax
    return [x[pre + (slice(s, e),)] for s, e in pairs]


def hsplit(ary, indices_or_sections):
    """``numpy.hsplit``."""
    x = asarray(ary)
    if x.ndim == 0:
        raise ValueError("hsplit: hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, axis=1 if x.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """``numpy.vsplit``."""
    x = asarray(ary)
    if x.ndim < 2:
        raise ValueError("vsplit: vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    """``numpy.dsplit``."""
    x = asarray(ary)
    if x.ndim < 3:
        raise ValueError("dsplit: dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, axis=2)


def copyto(dst, src, casting="same_kind", where=True):
    """``numpy.copyto``: writes into ``dst`` (rebinding its data)."""
    if not isinstance(dst, NamedArray):
        raise TypeError("copyto: dst must be a NamedArray (it is updated in place)")
    check_writeable("copyto", dst)
    val = operand(src)
    if not isinstance(val, NamedArray):
        # a Python scalar is weak: it casts as it would promote with dst
        src_dt = result_type(onp.empty(0, dst.dtype), val)
        val = positional(jnp.asarray(val, src_dt))
    else:
        src_dt = val.dtype
    if not onp.can_cast(src_dt, dst.dtype, casting):
        raise TypeError(f"copyto: cannot cast from {onp.dtype(src_dt)} to {dst.dtype} "
                        f"according to the rule {casting!r}")
    val = rewrap(val, val.data.astype(dst.dtype))
    if where is not True:
        val = select(where, val, dst)
    dst._assign("copyto", val)


def take(a, indices, axis=None, out=None, mode="raise"):
    """``numpy.take``; ``mode='raise'`` raises ``IndexError`` for an out-of-range
    index as NumPy does.  Under ``jax.jit`` indices cannot be checked: ``'raise'``
    gives JAX's fill value (the dtype's minimum, or NaN) for them; pass
    ``mode='clip'``, ``'wrap'`` or ``'fill'`` to choose.  ``axis`` may name an
    axis: 1-d indices keep the name (with the new length), a scalar index
    removes it.

    >>> import namedarray as np
    >>> np.take(np.arange(5), np.asarray([1, 7]), mode="clip")
    array([1, 4])
    """
    x = asarray(a)
    if isinstance(axis, str):
        nd = onp.ndim(indices) if not isinstance(indices, NamedArray) else indices.ndim
        if nd > 1:
            raise ValueError(f"take: indices along the named axis {axis!r} must be a "
                             f"scalar or 1-d, got {nd} dimensions; untag the axis first")
        res = along_names("take", lambda g, i, axis: take(g, i, axis=axis, mode=mode),
                          (x, indices), {"axis": axis}, 2, "axis", keep=nd == 1)
        return store_out("take", out, res)
    n = x.size if axis is None else x.shape[normalize_axis("take", axis, x.ndim)] \
        if not isinstance(axis, str) else None
    if mode in (None, "raise"):
        if n is not None:
            _check_host_indices("take", indices, n, "axis " + str(
                0 if axis is None else normalize_axis("take", axis, x.ndim)))
        mode = None
    elif mode not in ("wrap", "clip", "fill"):
        raise ValueError(f"take: mode must be 'raise', 'wrap', 'clip' or 'fill', got "
                         f"{mode!r}")
    ind = as_data(indices) if is_data(indices) else indices
    if axis is not None and (has_names(x) or has_names(ind)):
        # one gather, mapped over the indices' names only (x's ride along)
        k = normalize_axis("take", axis, x.ndim)
        res = index_names("take", lambda d, i: jnp.take(d, i, axis=k, mode=mode), x, ind,
                          lambda i: k)
        return store_out("take", out, res)
    res = generic("take", lambda d, i: jnp.take(d, i, axis=axis, mode=mode),
                   (x, ind), {})
    return store_out("take", out, res)


def putmask(a, mask, values):
    """``numpy.putmask``: ``a[mask] = values`` with values repeated as needed,
    cast as NumPy's assignment casts them (an array only ``"safe"``ly:
    ``engines/assign.py``)."""
    if not isinstance(a, NamedArray) or a.names:
        raise TypeError("putmask: a must be a positional NamedArray (updated in place)")
    check_writeable("putmask", a, "output array")
    m = to_jax(mask).astype(bool)
    v = jnp.ravel(assigned("putmask", a.dtype, values, "safe").data)
    rep = jnp.resize(v, (a.size,)).reshape(a.shape)
    a.data = jnp.where(m, rep, a.data)


# -- functions that write into their argument ---------------------------------
def _inplace(fn, target, res):
    if not isinstance(target, NamedArray):
        raise TypeError(f"{fn}: the target must be a NamedArray (it is updated in place), "
                        f"got {type(target).__name__}")
    target._assign(fn, res)


def put(a, ind, v, mode="raise"):
    """``numpy.put``: ``a.flat[ind] = v``, in place (an out-of-range index raises
    ``IndexError`` in an eager call; under ``jax.jit`` JAX drops that write)."""
    x = asarray(a)
    if isinstance(a, NamedArray):
        check_writeable("put", a)
    idx = np_asarray(ind) if is_data(ind) or isinstance(ind, (int, onp.integer)) else ind
    if x.size == 0 and onp.size(idx):
        raise IndexError("put: cannot replace elements of an empty array")
    w = assigned("put", x.dtype, v)
    if mode == "raise":
        _check_host_indices("put", ind, x.size, "the flattened array")
        mode = None
    res = generic("put", lambda d, i, w: jnp.put(d.reshape(-1), i, w, mode=mode,
                                                 inplace=False).reshape(d.shape),
                  (x, idx, w), {})
    _inplace("put", a, res)


_diagonal = wrap(numpy_args(jnp.diagonal, "diagonal"), "diagonal")
_broadcast_to = wrap(numpy_args(jnp.broadcast_to, "broadcast_to"), "broadcast_to")


def diagonal(a, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal``: read-only, as NumPy's (a write into it raises).

    >>> import namedarray as np
    >>> np.diagonal(np.arange(4).reshape(2, 2))
    array([0, 3])
    """
    return read_only(_diagonal(a, offset, axis1, axis2))


def broadcast_to(array, shape):
    """``numpy.broadcast_to``: read-only, as NumPy's (a write into it raises)."""
    dims = shape if onp.iterable(shape) else (shape,)
    if any(isinstance(n, (int, onp.integer)) and n < 0 for n in dims):
        raise ValueError(f"broadcast_to: all elements of broadcast shape must be "
                         f"non-negative (shape={shape!r})")
    if all(isinstance(n, (int, onp.integer)) for n in dims):
        check_fits("broadcast_to", dims, array.dtype if hasattr(array, "dtype") else
                   onp.asarray(array).dtype, _BROADCAST_COPIES)
    return read_only(_broadcast_to(array, shape))


_BROADCAST_COPIES = (" (NumPy's broadcast_to is a view that takes no memory; namedarray's "
                     "result owns its memory: let the operation that uses it broadcast, "
                     "as x + y does)")


class _BroadcastIter:
    """One iterator of :class:`broadcast`: the elements of ``base`` broadcast
    to the common shape, in C order (NumPy's ``flatiter`` there)."""

    def __init__(self, base, shape):
        self.base, self._shape = base, shape
        self._values = None
        self.index = 0

    def __iter__(self):
        return self

    def __len__(self):
        return math.prod(self._shape)

    def __next__(self):
        if self.index >= len(self):
            raise StopIteration
        if self._values is None:    # (read once, on the host)
            self._values = broadcast_to(self.base, self._shape).reshape(-1)
        v = self._values[self.index]
        self.index += 1
        return v

    @property
    def coords(self):
        return tuple(int(i) for i in onp.unravel_index(self.index, self._shape)) \
            if self._shape else ()


class broadcast:
    """``numpy.broadcast``: the shape that its arguments broadcast to, and an
    iterator over their elements broadcast together (tuples, C order);
    ``iters`` are one iterator per array (``base``: that array; the arrays of
    a ``broadcast`` argument are its own).

    >>> import namedarray as np
    >>> b = np.broadcast(np.ones((2, 1)), np.arange(3))
    >>> b.shape, b.numiter, b.size
    ((2, 3), 2, 6)
    """

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise ValueError("broadcast: keyword arguments not accepted.")
        arrays = []
        for a in args:
            if isinstance(a, broadcast):
                arrays.extend(it.base for it in a.iters)
            else:
                arrays.append(a if isinstance(a, (NamedArray, onp.ndarray)) else asarray(a))
        if len(arrays) > 64:
            raise ValueError("broadcast: Need at least 0 and at most 64 array objects.")
        for a in arrays:
            if getattr(a, "names", ()):
                raise ValueError(f"broadcast: an argument has named axes {a.named_shape}; "
                                 "broadcast takes positional arrays (untag them first)")
        try:
            self.shape = tuple(onp.broadcast_shapes(*[onp.shape(a) for a in arrays]))
        except ValueError as e:
            raise ValueError(f"broadcast: {e}") from None
        self.iters = tuple(_BroadcastIter(a, self.shape) for a in arrays)
        self.index = 0

    ndim = nd = property(lambda self: len(self.shape))
    numiter = property(lambda self: len(self.iters))
    size = property(lambda self: math.prod(self.shape))

    def reset(self):
        """Back to the first element (every iterator too)."""
        self.index = 0
        for it in self.iters:
            it.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.size:
            raise StopIteration
        self.index += 1
        return tuple(next(it) for it in self.iters)


# NumPy's signatures (``broadcast(*arrays)``; a keyword is refused above)
broadcast.__signature__ = inspect.Signature(
    [inspect.Parameter("arrays", inspect.Parameter.VAR_POSITIONAL)])
broadcast.reset.__signature__ = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)])


_take_along = wrap(numpy_args(jnp.take_along_axis, "take_along_axis"), "take_along_axis",
                   named="keep")


def take_along_axis(arr, indices, axis=-1, mode=None, fill_value=None):
    """``numpy.take_along_axis``; an out-of-range index raises ``IndexError`` in an
    eager call (under ``jax.jit``, JAX's ``mode``: fill by default, or ``"clip"``).

    >>> import namedarray as np
    >>> np.take_along_axis(np.asarray([[10, 30, 20]]), np.asarray([[0, 2]]), axis=1)
    array([[10, 20]])
    """
    _check_along("take_along_axis", arr, indices, axis)
    ind = as_data(indices)
    if isinstance(axis, str) and _along_in_place(arr, ind, axis):
        # the name stays where it is: one gather on the physical data
        res = _on_whole(lambda d, i: (
            jnp.take_along_axis(d, i, arr.dims.index(axis), mode=mode,
                                fill_value=fill_value)), arr.data, in_order(ind, arr.names))
        return NamedArray(res, arr.dims)
    if isinstance(axis, (int, onp.integer)) and _along_aligned(arr, ind):
        # names ride along, aligned by name: one batched gather on the physical
        # data (jax.numpy's take_along_axis on that layout), not a gather
        # mapped over each name
        (d, i), dims, mapped = align("take_along_axis", [arr, asarray(ind)])
        k = normalize_axis("take_along_axis", axis, arr.ndim)
        res = _on_whole(lambda d, i: jnp.take_along_axis(
            d, i, k, mode=mode, fill_value=fill_value), d, i)
        return new(res, dims, mapped)
    return _take_along(arr, ind, axis, mode=mode, fill_value=fill_value)


def _on_whole(f, d, *rest):
    """``f(d, *rest)``, a gather or scatter of ``d``; on an Explicit mesh (where
    JAX's gather and scatter ask for an ``out_sharding``) on the whole arrays,
    the result placed where ``d`` was."""
    d, *rest = backends.beside(None, (d, *rest))    # (operands at different homes meet)
    axes = mesh_axes(d)
    if not (any(axes) or any(any(mesh_axes(a)) for a in rest)):
        return f(d, *rest)
    res = f(*(unshard(a, range(a.ndim)) for a in (d, *rest)))
    return reshard(res, axes, abstract_mesh(d)) if any(axes) else res


def _along_aligned(arr, ind):
    """Whether ``take_along_axis(arr, ind, axis=k)`` is one gather on the data of
    ``arr`` and ``ind`` aligned by name: ``arr`` a NamedArray, ``ind`` an
    integer array with as many positional axes, one of them with names."""
    return (isinstance(arr, NamedArray) and isinstance(ind, (NamedArray, jax.Array))
            and bool(arr.names or has_names(ind)) and arr.ndim == ind.ndim
            and onp.dtype(ind.dtype).kind in "iu")


def _along_in_place(arr, ind, axis):
    """Whether ``take_along_axis(arr, ind, axis=name)`` is one gather on the physical
    data: both hold the name physically, ``ind``'s names are ``arr``'s, the
    positional axes agree in number, nothing is mapped."""
    return (isinstance(arr, NamedArray) and isinstance(ind, NamedArray)
            and axis in arr.names and axis in ind.names and set(ind.names) <= set(arr.names)
            and arr.ndim == ind.ndim and not arr.mapped and not ind.mapped)


def _check_along(fn, arr, indices, axis):
    """NumPy's checks of ``take_along_axis``/``put_along_axis``'s indices:
    integers, one axis when ``axis=None``, in bounds (eagerly)."""
    if isinstance(axis, str):
        return
    x = asarray(arr)
    dt, nd = getattr(indices, "dtype", None), getattr(indices, "ndim", None)
    if dt is None:
        h = onp.asarray(indices)
        dt, nd = h.dtype, h.ndim
    if onp.dtype(dt).kind not in "iu":
        raise IndexError(f"{fn}: `indices` must be an integer array (got dtype {dt})")
    if axis is None and nd != 1:
        raise ValueError(f"{fn}: when axis=None, `indices` must have a single dimension "
                         f"(got {nd})")
    if axis is None:
        check_bounds(fn, as_data(indices), x.size, "the flattened array")
    else:
        ax = normalize_axis(fn, axis, x.ndim)
        check_bounds(fn, as_data(indices), x.shape[ax], f"axis {ax}")


def put_along_axis(arr, indices, values, axis):
    """``numpy.put_along_axis``, in place."""
    x = asarray(arr)
    if isinstance(arr, NamedArray):
        check_writeable("put_along_axis", arr)
    values = assigned("put_along_axis", x.dtype, values)
    _check_along("put_along_axis", arr, indices, axis)
    if isinstance(axis, str):
        ind = as_data(indices)
        if not _along_in_place(x, ind, axis):
            raise ValueError(
                f"put_along_axis: axis={axis!r} names an axis; the array (named shape "
                f"{x.named_shape}) and the indices (named shape "
                f"{getattr(ind, 'named_shape', {})}) must both have it, the indices no "
                "other names, both the same number of positional axes, and neither a "
                "name an enclosing nmap maps")
        i = in_order(ind, x.names)
        v = operand(values)
        if isinstance(v, NamedArray):
            if set(v.names) - set(x.names) or v.ndim > x.ndim:
                raise ValueError(f"put_along_axis: the values (named shape {v.named_shape}, "
                                 f"shape {v.shape}) do not broadcast onto the indices "
                                 f"(named shape {ind.named_shape}, shape {ind.shape})")
            v = in_order(v, x.names, pad=x.ndim - v.ndim)
        res = _on_whole(lambda d, i, w: jnp.put_along_axis(d, i, w, x.dims.index(axis),
                                                           inplace=False),
                        x.data, i, jnp.asarray(v).astype(x.dtype))
        _inplace("put_along_axis", arr, NamedArray(res, x.dims))
        return
    res = generic("put_along_axis", lambda d, i, w: jnp.put_along_axis(
        d, i, w, axis, inplace=False), (x, as_data(indices), values), {})
    _inplace("put_along_axis", arr, res)


def place(arr, mask, vals):
    """``numpy.place``: ``arr[mask] = vals`` (vals cycled), in place."""
    if not isinstance(arr, NamedArray):     # (NumPy's check comes first)
        raise TypeError(f"place: argument 1 must be an array (it is updated in place), "
                        f"not {type(arr).__name__}")
    x = asarray(arr)
    check_writeable("place", arr)
    v = assigned("place", x.dtype, vals, "safe")
    if v.size == 0:
        m = as_data(mask)
        if isinstance(m, jax.core.Tracer) or bool(jnp.any(asarray(m).data)):
            raise ValueError("place: Cannot insert from an empty array! (vals is empty and "
                             "mask selects elements)")
        return       # nothing selected, nothing to place: NumPy leaves arr as it is
    res = generic("place", lambda d, m, w: jnp.place(d, m, w, inplace=False),
                   (x, as_data(mask), v), {})
    _inplace("place", arr, res)


def fill_diagonal(a, val, wrap=False):
    """``numpy.fill_diagonal``, in place."""
    x = asarray(a)
    if x.ndim < 2:
        raise ValueError(f"fill_diagonal: array must be at least 2-d (got shape {x.shape})")
    if isinstance(a, NamedArray):
        check_writeable("fill_diagonal", a)
    res = generic("fill_diagonal", lambda d, w: _fill_diagonal(d, w, wrap),
                  (x, assigned("fill_diagonal", x.dtype, val)), {})
    _inplace("fill_diagonal", a, res)


def _fill_diagonal(d, w, wrap):
    """jnp's fill_diagonal; ``wrap`` of a tall matrix as NumPy does it: every
    ``ncols + 1``-th element of the flat array, the diagonal restarting after
    each block of rows (jnp refuses wrap=True)."""
    if not wrap or d.ndim != 2 or d.shape[0] <= d.shape[1]:
        return jnp.fill_diagonal(d, w, inplace=False)
    idx = jnp.arange(0, d.size, d.shape[1] + 1)
    w = jnp.ravel(jnp.asarray(w, d.dtype))
    w = jnp.resize(w, idx.shape) if w.size else w
    return d.ravel().at[idx].set(w).reshape(d.shape)


def _check_host_indices(fn, ind, size, what):
    """NumPy's bounds check (indices on the host or the device; abstract ones
    under a transformation are not checked)."""
    if not isinstance(ind, (jax.Array, NamedArray)):
        ind = onp.asarray(ind)
    check_bounds(fn, ind, size, what)


_moveaxis = _decl("moveaxis")


_repeat = _decl("repeat")


_apply_along_axis = _decl("apply_along_axis", named="keep")


def _whole_0d(a, axis=None, *rest, **kw):
    """Axis 0 (or -1) of a 0-d array is the array, as one element along it
    (NumPy's squeeze, packbits and unpackbits take it)."""
    a = jnp.asarray(a)
    if a.ndim == 0 and axis in (0, -1):
        a, axis = a.reshape(1), 0
    return (a, axis, *rest), kw


def _squeeze_0d(a, axis=None):
    a = jnp.asarray(a)
    return ((a, None if a.ndim == 0 and axis in (0, -1, (0,), (-1,)) else axis), {})


def _unpack_empty(a, axis=None, count=None, bitorder="big"):
    (a, axis), _ = _whole_0d(a, axis)
    if a.dtype != onp.uint8:
        raise TypeError("unpackbits: Expected an input array of unsigned byte data type")
    if type(axis) is int:
        axis = normalize_axis("unpackbits", axis, a.ndim)
    if a.size == 0:         # (jnp's unpackbits divides by the empty size)
        shape = (0,) if axis is None else tuple(
            n * 8 if i == axis % a.ndim else n for i, n in enumerate(a.shape))
        return jnp.zeros(shape, onp.uint8)
    return (a, axis, count, bitorder), {}


# jax.numpy: axis 0 of a 0-d array refused
squeeze = _checked("squeeze", _squeeze_0d)


# jax.numpy: axis 0 of a 0-d array refused
packbits = _checked("packbits", _whole_0d)


# jax.numpy: an empty array divides by zero, other dtypes accepted
unpackbits = _checked("unpackbits", _unpack_empty)


_rollaxis = _decl("rollaxis")


# jax.numpy: a start out of range is not NumPy's AxisError
def rollaxis(a, axis, start=0):
    """``numpy.rollaxis``; an ``axis`` or ``start`` out of range raises NumPy's
    ``AxisError`` (``start`` may be ``ndim``: after the last axis).

    >>> import namedarray as np
    >>> np.rollaxis(np.zeros((2, 3, 4)), 2).shape
    (4, 2, 3)
    """
    x = asarray(a)
    normalize_axis("rollaxis", axis, x.ndim)
    s = operator.index(start)
    if not -x.ndim <= s <= x.ndim:
        raise onp.exceptions.AxisError(
            f"rollaxis: 'start' arg requires {-x.ndim} <= start < {x.ndim + 1}, but "
            f"{start} was passed in")
    return _rollaxis(x, axis, start)


# jax.numpy: repeated axes are not NumPy's ValueError
def moveaxis(a, source, destination):
    """``numpy.moveaxis``; repeated axes raise ``ValueError`` as in NumPy.  The
    ``source`` axes may be names: each becomes positional at its destination.

    >>> import namedarray as np
    >>> np.moveaxis(np.zeros((2, 3)).tag("b", None), "b", -1).shape
    (3, 2)
    """
    single = isinstance(source, str) or not onp.iterable(source)
    src = [source] if single else list(source)
    dst = [destination] if isinstance(destination, str) or not onp.iterable(destination) \
        else list(destination)
    x = asarray(a)
    for v in dst:
        if isinstance(v, str):
            raise ValueError(
                f"moveaxis: destination={destination!r} names an axis, but a destination "
                f"is a position (an int); the array has named axes {x.named_shape} and "
                f"positional shape {x.shape}; to name a positional axis use x.tag(...)")
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: `source` and `destination` arguments must have the "
                         f"same number of elements (got {source!r} and {destination!r})")
    if any(isinstance(v, str) for v in src):
        if len(set(src)) != len(src):
            raise ValueError("moveaxis: repeated axis in `source` argument")
        x, src = _untag_listed("moveaxis", x, src, "source")
        source = src[0] if single else src
    # NumPy's order: each argument's axes in bounds, then not repeated
    for arg, vs in (("source", src), ("destination", dst)):
        vs = [normalize_axis(f"moveaxis: {arg}", v, x.ndim) for v in vs]
        if len(set(vs)) != len(vs):
            raise ValueError(f"moveaxis: repeated axis in `{arg}` argument")
    return _moveaxis(x, source, destination)


# jax.numpy: a negative count is not NumPy's ValueError
def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    """``numpy.repeat``; a negative count raises ``ValueError`` as in NumPy."""
    h = _host(repeats)
    if h is not None and h.size and h.min() < 0:
        x = asarray(a)
        n = x.size if axis is None else x.shape[axis] if (
            type(axis) is int and -x.ndim <= axis < x.ndim) else None
        if n != 0 or x.names:
            raise ValueError("repeat: negative dimensions are not allowed")
        repeats = 0     # nothing to repeat: NumPy checks no count (jnp refuses one)
    return _repeat(a, repeats, axis, total_repeat_length=total_repeat_length)


# jax.numpy: a func1d that cannot be traced fails (NumPy calls it per slice)
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``numpy.apply_along_axis``: ``func1d`` mapped over the 1-d slices (one
    traced call); a ``func1d`` that cannot be traced (``sorted``, Python
    control flow on values) is called slice by slice on concrete data as
    NumPy calls it, and the results are stacked in NumPy's layout and dtype.

    >>> import namedarray as np
    >>> np.apply_along_axis(sorted, 1, np.asarray([[8, 1, 7], [4, 3, 9]]))
    array([[1, 7, 8],
           [3, 4, 9]])
    """
    def as_array(*a, **k):      # NumPy's asanyarray of each result (a tuple stacks)
        r = func1d(*a, **k)
        if isinstance(r, onp.ndarray) and type(r) is not onp.ndarray:
            raise TypeError(f"apply_along_axis: func1d returned a {type(r).__name__} "
                            "(np.ma, np.matrix), which only the loop over concrete "
                            "positional data keeps")
        return jnp.asarray(jax.tree_util.tree_map(
            lambda v: v.data if isinstance(v, NamedArray) else v, r,
            is_leaf=lambda v: isinstance(v, NamedArray)))
    try:
        return _apply_along_axis(as_array, axis, arr, *args, **kwargs)
    except Exception:
        x = arr if isinstance(arr, NamedArray) else asarray(arr)
        if x.names or isinstance(x.data, jax.core.Tracer):
            raise
    return _by_slices(func1d, axis, onp.asarray(x.data), args, kwargs)


def _by_slices(func1d, axis, h, args, kwargs):
    """NumPy's loop of ``apply_along_axis`` over the host data ``h``: the
    first result's shape and dtype make the buffer, the others are cast in; a
    NumPy subclass result (``np.ma``) makes the buffer and the result of its
    class, as NumPy's ``zeros_like`` and ``__array_wrap__`` do."""
    ax = normalize_axis("apply_along_axis", axis, h.ndim)
    inarr = onp.moveaxis(h, ax, -1)
    outer = inarr.shape[:-1]
    if 0 in outer:
        raise ValueError(f"apply_along_axis: cannot apply along axis {axis} when an "
                         f"iteration dimension is 0 (shape {h.shape})")
    buff = first = None
    for ind in onp.ndindex(outer):
        r = onp.asanyarray(func1d(asarray(inarr[ind]), *args, **kwargs))
        if buff is None:
            first = r if type(r) is not onp.ndarray else None
            buff = (onp.empty(outer + r.shape, r.dtype) if first is None
                    else onp.zeros_like(r, shape=outer + r.shape))
        buff[ind] = r
    n = len(outer)
    perm = [*range(ax), *range(n, buff.ndim), *range(ax, n)]
    if first is not None:
        return first.__array_wrap__(buff.transpose(perm))
    return asarray(buff.transpose(perm))


_jkron = wrap(numpy_args(jnp.kron, "kron"), "kron")


# jax.numpy: two bool arrays give an integer product (NumPy: bool)
def kron(a, b):
    """``numpy.kron``; of two bool arrays, bool (their products are ``and``)."""
    x, y = asarray(a), asarray(b)
    dt = onp.result_type(x.dtype, y.dtype)
    if dt == onp.bool_:
        return _jkron(x.astype(onp.uint8), y.astype(onp.uint8)).astype(onp.bool_)
    return _jkron(x.astype(dt), y.astype(dt))


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__] + ["squeeze", "packbits", "unpackbits"]   # (wrap's declarations: the package's __module__)

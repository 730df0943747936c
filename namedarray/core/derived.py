"""Views: results that read their data from a base and write back into it
(``View``, ``core/array.py``), as NumPy's views do.

:func:`view` is a basic slice ``base[index]``; :func:`derived` any view by
its read and write functions (``.T``, ``.real``, ``reshape``, ``diagonal``);
:func:`read_only` a result a write into raises ``ValueError``.  A view of
data living on the host is NumPy's own view of that buffer
(:func:`host_view`) until the base's data changes.

>>> import namedarray as np
>>> x = np.zeros(4)
>>> v = x[1:3]
>>> v[0] = 5
>>> x
array([0., 5., 0., 0.])
"""
from __future__ import annotations

import numpy as onp

from . import hooks
from .array import _DATA, _HOST, View, is_value, new, on_host


def view(data, dims, base, index, mapped=(), hosted=None) -> View:
    """A basic slice ``base[index]`` (data given, or ``hosted``: see
    :func:`derived`) that writes through.  (It holds ``base`` once, as
    NumPy's view does: its reader keeps the layout.)"""
    layout = _Layout(base.dims, base.mapped)
    return derived(data, dims, base, lambda src: hooks.getitem_data(layout, src, index),
                   lambda b, v: hooks.setitem(b, index, v), mapped, hosted)


class _Layout:
    """An array's ``dims`` and ``mapped`` without its data."""
    __slots__ = ("dims", "mapped")

    def __init__(self, dims, mapped):
        self.dims, self.mapped = dims, mapped


def derived(data, dims, base, read, write, mapped=(), hosted=None) -> View:
    """A view of ``base``: ``read(base data) -> data``, ``write(base, value)``
    (``None`` for a read-only result); ``hosted``: ``(NumPy's view, root)`` of
    data living on the host (:func:`host_view`), whose device data is made
    only when asked for (``data`` is then None).

    NumPy's scalars have no views: of a scalar ``base`` (:func:`is_value`) a
    writable result is a new array, so that no write through it changes the
    scalar (``s[None]``, ``np.atleast_1d(s)``, ``np.reshape(s, 1)`` are new
    arrays)."""
    if write is not None and base is not None and is_value(base):
        if hosted is not None:
            return on_host(onp.array(hosted[0]))
        return new(data, dims, mapped)
    v = object.__new__(View)
    _DATA.__set__(v, data)
    _HOST.__set__(v, None)
    v.dims = dims
    v.mapped = mapped
    v._base = base
    v._read = read
    v._write = write
    # (a view of data on the host leaves the base's device array unmade: read
    # from the base when first asked for)
    v._seen = base.data if base is not None and hosted is None else None
    v._what = None
    v._base_shape = None if base is None else base.shape if hosted else base.data.shape
    v._base_dims = base.dims if base is not None else None
    # True: it owns its memory, laid out as its read says ("F": in Fortran order)
    v._owns = False
    v._hview = v._hbuf = v._hroot = None     # NumPy's view on the host (host_view)
    v._array0d = False
    # NumPy: a view of a read-only array is read-only
    v._ro = getattr(base, "_ro", False)
    if hosted is not None:
        host_view(v, *hosted)
    return v


def host_view(v, hv, root):
    """Mark the view ``v`` of data living on the host (the buffer of ``root``,
    the NamedArray its chain of views starts from) as NumPy's view ``hv`` of
    that buffer: while ``root`` keeps the buffer (a write in place shows in
    ``hv`` too; any other write replaces it), ``hv`` is ``v``'s data there."""
    if type(v) is View:     # (the root held once: by ``_base`` where it is that)
        v._hview, v._hbuf, v._hroot = hv, root._host, None if root is v._base else root
    return v


def read_only(x: "NamedArray", what: str | None = None) -> View:
    """``x`` as a read-only result (a write into it raises ``ValueError``):
    NumPy's read-only views (``diagonal``, ``broadcast_to``), and results that
    cannot share memory with their source as NumPy's would (``what`` made it:
    ``sliding_window_view``, ``as_strided``, ``view(dtype)``)."""
    v = derived(x.data, x.dims, None, None, None, x.mapped)
    v._what = what
    return v

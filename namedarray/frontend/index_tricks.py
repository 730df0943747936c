"""Objects that build arrays or indices by indexing: ``mgrid``, ``ogrid``,
``r_``, ``c_``, ``s_``, ``index_exp``; and the index helpers ``ix_`` and
``unravel_index`` (NumPy's ``numpy/lib/_index_tricks_impl.py``).

``mgrid``/``ogrid`` and the slices of ``r_``/``c_`` hold Python numbers, so
their values are NumPy's own (computed on the host, then put on the device);
the arrays given to ``r_``/``c_`` are joined on the device, in NumPy's result
dtype.  ``s_`` and ``index_exp`` are NumPy's objects.

>>> import namedarray as np
>>> np.mgrid[0:2, 0:3].shape
(2, 2, 3)
>>> np.r_[np.arange(3), 0, 0, 7:9]
array([0, 1, 2, 0, 0, 7, 8])
>>> np.c_[np.arange(2), np.ones(2)]
array([[0., 1.],
       [1., 1.]])
>>> np.arange(5)[np.s_[1:4]]
array([1, 2, 3])
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, positional
from .creation import array, asarray
from .engines.args import numpy_args
from .engines.declare import _decl, _host
from .engines.generic import wrap
from .engines.select import result_type
from .joining import concatenate

s_ = onp.s_
index_exp = onp.index_exp


def _host_number(v):
    """A slice field as the Python number NumPy's grids read (0-d arrays too)."""
    if isinstance(v, (NamedArray, jax.Array)):
        return asarray(v).item()
    return v


def _host_slice(fn, s):
    if not isinstance(s, slice):
        raise TypeError(f"{fn}: each index must be a slice start:stop[:step], got {s!r}")
    return slice(*(_host_number(v) for v in (s.start, s.stop, s.step)))


class _Grid:
    """``mgrid`` (``sparse=False``) and ``ogrid`` (``sparse=True``)."""

    def __init__(self, name, grid):
        self._name = name
        self._grid = grid

    def __getitem__(self, key):
        if isinstance(key, tuple):
            key = tuple(_host_slice(self._name, k) for k in key)
        else:
            key = _host_slice(self._name, key)
        res = self._grid[key]
        if isinstance(res, (tuple, list)):
            return tuple(asarray(r) for r in res)
        return asarray(res)

    def __len__(self):
        return 0

    def __repr__(self):
        return f"<namedarray {self._name}>"


mgrid = _Grid("mgrid", onp.mgrid)
mgrid.__doc__ = """``numpy.mgrid``: a dense mesh grid, ``np.mgrid[0:2, 0:3:4j]``.

>>> import namedarray as np
>>> np.mgrid[0:1:3j]
array([0. , 0.5, 1. ])
"""

ogrid = _Grid("ogrid", onp.ogrid)
ogrid.__doc__ = """``numpy.ogrid``: an open (sparse) mesh grid: a tuple of arrays
that broadcast against each other.

>>> import namedarray as np
>>> [g.shape for g in np.ogrid[0:2, 0:3]]
[(2, 1), (1, 3)]
"""


class _Concatenator:
    """NumPy's ``AxisConcatenator`` over NamedArrays (``r_``, ``c_``)."""

    def __init__(self, name, axis=0, ndmin=1, trans1d=-1):
        self._name = name
        self._axis, self._ndmin, self._trans1d = axis, ndmin, trans1d

    def _matrix(self, what):
        return TypeError(
            f"{self._name}: {what} builds a numpy.matrix, which namedarray does not "
            f"have; build the array and reshape it (np.atleast_2d(np.{self._name}[...]) "
            "for a row, or .reshape(-1, 1) for a column)")

    def __getitem__(self, key):
        fn = self._name
        if isinstance(key, str):
            raise self._matrix(f"the string {key!r}")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self._axis, self._ndmin, self._trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, slice):
                item = _host_slice(fn, item)
                new = array(onp.r_[item], ndmin=ndmin)
                if ndmin > 1 and trans1d != -1:
                    new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError(f"{fn}: special directives must be the first entry, "
                                     f"got {item!r} at position {k}")
                if item in ("r", "c"):
                    raise self._matrix(f"the directive {item!r}")
                try:
                    vec = [int(v) for v in item.split(",")]
                    if not 1 <= len(vec) <= 3:
                        raise ValueError
                except ValueError:
                    raise ValueError(f"{fn}: unknown special directive {item!r}") from None
                axis = vec[0]
                if len(vec) > 1:
                    ndmin = vec[1]
                if len(vec) > 2:
                    trans1d = vec[2]
                continue
            elif type(item) in onp.ScalarType:
                objs.append(item)
                kinds.append(item)    # weak for the result dtype, as in NumPy
                continue
            else:
                x = asarray(item)
                new = array(x, copy=False, ndmin=ndmin)
                if trans1d != -1 and x.ndim < ndmin:
                    k2 = ndmin - x.ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    d = list(range(ndmin))
                    new = new.transpose(d[:k1] + d[k2:] + d[k1:k2])
            objs.append(new)
            kinds.append(new)
        if not objs:
            raise ValueError(f"{fn}: need at least one array to concatenate")
        dt = result_type(*kinds)
        objs = [array(o, dtype=dt, copy=False, ndmin=ndmin) for o in objs]
        return concatenate(objs, axis=axis)

    def __len__(self):
        return 0

    def __repr__(self):
        return f"<namedarray {self._name}>"


r_ = _Concatenator("r_", axis=0)
r_.__doc__ = """``numpy.r_``: concatenate slices, scalars and arrays along the
first axis (``"0,2,1"``-style directives as in NumPy; the matrix directives
``"r"``/``"c"`` raise TypeError: namedarray has no matrix type).

>>> import namedarray as np
>>> np.r_[-1:1:5j, [0] * 2]
array([-1. , -0.5,  0. ,  0.5,  1. ,  0. ,  0. ])
"""

c_ = _Concatenator("c_", axis=-1, ndmin=2, trans1d=0)
c_.__doc__ = """``numpy.c_``: stack 1-d items as columns (concatenate along the last
axis, each item at least 2-d).

>>> import namedarray as np
>>> np.c_[[1, 2], [3, 4]]
array([[1, 3],
       [2, 4]])
"""


_unravel = _decl("unravel_index")


def int_indices(fn, v):
    """``v``'s values on the host (None under a transformation), with NumPy's
    ``TypeError`` for indices that are not integers (an empty list or tuple,
    which NumPy reads as float, too)."""
    if isinstance(v, (list, tuple)) and not v or isinstance(v, (list, tuple)) and all(
            isinstance(e, (list, tuple)) and not e for e in v):
        raise TypeError(f"{fn}: indices must be integral: the provided empty sequence was "
                        "inferred as float. Wrap it with 'np.array(indices, dtype=np.intp)'")
    h = _host(v if isinstance(v, NamedArray) else onp.asarray(v) if isinstance(
        v, (list, tuple)) else v)
    if h is not None and h.dtype.kind not in "biu":
        raise TypeError(f"{fn}: only int indices permitted (got indices of dtype {h.dtype})")
    return h


def _size_of(fn, shape, what):
    """The number of elements of ``shape``, NumPy's ``ValueError`` past intp."""
    dims = (shape,) if isinstance(shape, (int, onp.integer)) else tuple(shape)
    size = 1
    for d in dims:
        size *= int(d)
    if size > onp.iinfo(onp.intp).max:
        raise ValueError(f"{fn}: " + (
            "dimensions are too large; arrays and shapes with a total size greater "
            "than 'intp' are not supported" if what == "shape" else
            "invalid dims: array size defined by dims is larger than the maximum "
            "possible size") + f" (got {what}={dims})")
    return dims, size


def check_multi_index(multi_index, dims):
    """NumPy's checks of ``ravel_multi_index``'s arguments that jax.numpy's
    lacks: integer indices, the size of ``dims``, no index into an empty shape."""
    fn = "ravel_multi_index"
    if isinstance(multi_index, (list, tuple)):
        hs = [int_indices(fn, m) for m in multi_index]
    else:
        hs = [int_indices(fn, multi_index)]
    dims, size = _size_of(fn, dims, "dims")
    if size == 0 and (any(h is None for h in hs) or _broadcast_size(hs)):
        raise ValueError(f"{fn}: cannot unravel if shape has zero entries (is empty) "
                         f"(dims={dims})")


def _broadcast_size(hs) -> int:
    """The number of entries the index arrays ``hs`` broadcast to (NumPy checks
    the broadcast entries: none when one array is empty)."""
    try:
        return math.prod(onp.broadcast_shapes(*[h.shape for h in hs]))
    except ValueError:
        return 1        # (not broadcastable: the call's own error)


# jax.numpy: out-of-bounds indices clipped (NumPy: ValueError)
def unravel_index(indices, shape, order="C"):
    """``numpy.unravel_index``; an index outside the array raises ``ValueError``."""
    h = int_indices("unravel_index", indices)
    shape, size = _size_of("unravel_index", shape, "shape")
    if h is not None and h.size:
        bad = h[(h < 0) | (h >= size)]
        if bad.size:
            raise ValueError(f"unravel_index: index {int(bad.flat[0])} is out of bounds "
                             f"for array with size {size}")
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: only 'C' or 'F' order is permitted (got "
                         f"order={order!r})")
    if not shape:
        if onp.ndim(indices) if h is None else h.ndim:
            raise ValueError("unravel_index: multiple indices are not supported for 0d "
                             "arrays (shape=())")
        return ()
    if order == "F":    # the first index varies fastest: C order of the reversed shape
        shape = (shape,) if isinstance(shape, (int, onp.integer)) else tuple(shape)
        return tuple(reversed(_unravel(indices, shape[::-1])))
    return _unravel(indices, shape)


_jix = wrap(numpy_args(jnp.ix_, "ix_"), "ix_")


# jax.numpy: a bool sequence not read as its nonzero positions
def ix_(*args):
    """``numpy.ix_``: a bool sequence stands for its nonzero positions (read
    on the host), as in NumPy."""
    xs = []
    for a in args:
        x = asarray(a)
        if x.size == 0 and not isinstance(a, NamedArray) and not x.names:
            x = x.astype(onp.intp)      # NumPy: an empty untyped sequence indexes
        if x.dtype == onp.bool_:
            if x.ndim != 1:
                raise ValueError("ix_: cross index must be 1 dimensional")
            x = positional(jnp.asarray(onp.nonzero(onp.asarray(x.data))[0], onp.intp))
        xs.append(x)
    if any(x.names for x in xs):
        return _jix(*xs)
    for x in xs:
        if x.ndim != 1:
            raise ValueError(f"ix_: Cross index must be 1 dimensional (got shape {x.shape})")
    n = len(xs)       # (jax.numpy's ix_ makes an empty one intp whatever its dtype)
    return tuple(x.reshape((1,) * k + (x.size,) + (1,) * (n - k - 1))
                 for k, x in enumerate(xs))


__all__ = ["c_", "index_exp", "mgrid", "ogrid", "r_", "s_", "unravel_index", "ix_"]

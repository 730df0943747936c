"""Registration hooks: behaviour a lower layer needs from the layers above it.

Core never imports upward.  Where ``NamedArray`` needs the NumPy frontend (its
``__array_ufunc__`` and ``__array_function__`` protocols, and the write-back of
a basic-slice ``View`` into the array it was sliced from), it calls what the
frontend registered here when it was imported (``namedarray/namespace.py``);
where alignment meets a mapped name, what placement and parallel registered.
"""
from __future__ import annotations

#: the frontend's public namespace (a module): ufuncs by name in ``UFUNCS``,
#: functions by name, ``linalg``/``fft``/``random`` as attributes
namespace = None

#: ``frontend.index_assign.setitem(x, index, value)``
setitem = None

#: ``frontend.index_take.getitem_data(base, base_data, index)``: the data of
#: ``base[index]`` when ``base`` holds ``base_data`` (a View re-reading its base)
getitem_data = None

#: ``placement.localize(fn, x, names)``: cut this instance's part out of whole
#: axes that meet names an enclosing map holds only part of (alignment)
localize = None

#: ``placement.vary(x, names)``: a value that does not vary along names an
#: enclosing map holds only part of, meeting values that do (alignment)
vary = None

#: ``parallel.gather_names(fn, x, names)``: make mapped names whole positional
#: axes (``untag`` and ``rename`` of a mapped name)
gather = None

#: ``frontend.engines.args.materialize(h)``: NumPy's array ``h`` as a concrete
#: JAX array (a NamedArray living on the host makes its device array with it)
to_device = None

#: ``reductions.engine.ufunc_reduce(uf, a, axis, dtype, out, keepdims, initial,
#: where)``: ``ufunc.reduce`` through the reduction engine, which sits above
#: the ufunc engine (``frontend/engines/ufunc.py``)
ufunc_reduce = None

#: ``frontend.engines.foreign.foreign_ufunc(uf, method, inputs, kwargs)``: a ufunc
#: of another library (one namedarray has no counterpart of) on NamedArrays
foreign_ufunc = None

#: ``frontend.engines.host.read_in_place(x, own=True)``: before a Python loop
#: over ``x``'s rows, let positional data on the CPU device live on the host
iterated = None

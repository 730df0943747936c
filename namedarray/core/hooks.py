"""Registration hooks: behaviour the core layer needs from the layers above it.

Core never imports upward.  Where ``NamedArray`` needs the NumPy frontend (its
``__array_ufunc__`` and ``__array_function__`` protocols, and the write-back of
a basic-slice ``View`` into the array it was sliced from), it calls what the
frontend registered here when it was imported (``frontend/namespace.py``).
"""
from __future__ import annotations

#: the frontend's public namespace (a module): ufuncs by name in ``UFUNCS``,
#: functions by name, ``linalg``/``fft``/``random`` as attributes
namespace = None

#: ``frontend.indexing.setitem(x, index, value)``
setitem = None

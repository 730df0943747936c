"""Input and output through NumPy's own readers and writers (on the host).

``save``, ``savez`` and ``savez_compressed`` keep a NamedArray's names and
``load`` gives them back: the data is stored as NumPy stores it, in the
array's physical layout (positional axes first, then the named ones in the
order of ``x.dims``), so a plain ``numpy.load`` reads the data; the dims are
stored beside it (a ``.npy`` file: a short JSON trailer after the data, which
NumPy's reader does not read; an ``.npz`` file: one more member,
``__dims__``, a JSON string).  A dict of NamedArrays (parameters) is saved with
``np.savez(file, **params)`` and comes back from ``np.load(file)`` by key.

>>> import io
>>> import namedarray as np
>>> f = io.BytesIO()
>>> np.save(f, np.arange(6.0).reshape(2, 3).tag("batch", None)); _ = f.seek(0)
>>> x = np.load(f)
>>> x.named_shape, x.shape
({'batch': 2}, (3,))
>>> f = io.BytesIO()
>>> np.savez(f, w=np.ones((2, 3)).tag("embed", "mlp"), step=np.asarray(7)); _ = f.seek(0)
>>> with np.load(f) as ckpt:
...     ckpt.files, ckpt["w"].named_shape, ckpt["step"]
(['w', 'step'], {'embed': 2, 'mlp': 3}, array(7))
"""
from __future__ import annotations

import json
import os
import struct
import zipfile

import numpy as onp

from ..core.array import NamedArray, check_dims, positional, to_jax, zero_dim_array
from ..core.config import holds
from .creation import asarray

_TRAILER = b"\x93NAMEDARRAY-DIMS"     # then a 4-byte little-endian length, then JSON
_DIMS = "__dims__"                     # the .npz member holding every array's dims


def _host(fn, a):
    """``a`` as a NumPy array in its physical layout, and its dims (``None``
    for a positional-only array)."""
    if isinstance(a, NamedArray):
        if a.mapped:
            raise ValueError(f"{fn}: the array is mapped along {dict(a.mapped)} by an "
                             "enclosing nmap; save it outside the map")
        return onp.asarray(a.data), (list(a.dims) if a.names else None)
    return onp.asarray(asarray(a)), None


def save(file, arr, allow_pickle=True):
    """``numpy.save``; a NamedArray's dims are stored with it (see the module)."""
    data, dims = _host("save", arr)
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        if not file.endswith(".npy"):
            file += ".npy"          # as NumPy names it
        with open(file, "wb") as f:
            return save(f, arr, allow_pickle)
    onp.save(file, data, allow_pickle=allow_pickle)
    if dims is not None:
        meta = json.dumps({"dims": dims}).encode()
        file.write(_TRAILER + struct.pack("<I", len(meta)) + meta)


def _savez(fn, write, file, args, kwds):
    named = {}
    arrays = {}
    for k, v in [(f"arr_{i}", a) for i, a in enumerate(args)] + list(kwds.items()):
        if k in arrays:
            raise ValueError(f"{fn}: cannot use un-named variables and keyword {k}")
        arrays[k], dims = _host(fn, v)
        if dims is not None:
            named[k] = dims
    if _DIMS in arrays:
        raise ValueError(f"{fn}: the key {_DIMS!r} is reserved for the arrays' dims")
    if named:
        arrays[_DIMS] = onp.asarray(json.dumps(named))
    write(file, **arrays)


def savez(file, *args, **kwds):
    """``numpy.savez``; NamedArrays' dims are stored with them (see the module)."""
    _savez("savez", onp.savez, file, args, kwds)


def savez_compressed(file, *args, **kwds):
    """``numpy.savez_compressed``; NamedArrays' dims are stored with them."""
    _savez("savez_compressed", onp.savez_compressed, file, args, kwds)


def savetxt(fname, X, *args, **kw):
    onp.savetxt(fname, onp.asarray(asarray(X)), *args, **kw)


def _from_numpy(fn):
    def f(*args, **kw):
        r = fn(*args, **kw)
        if not isinstance(r, onp.ndarray) or not holds(r.dtype):
            return r        # data JAX cannot hold stays NumPy's (DESIGN §6c)
        # a 0-d array read back is NumPy's 0-d array, not its scalar
        return zero_dim_array(positional(to_jax(r)))
    f.__name__ = f.__qualname__ = fn.__name__
    f.__doc__ = (f"``numpy.{fn.__name__}``; the result is a NamedArray (NumPy's array "
                 "for data JAX cannot hold).")
    return f


def _named(fn, data, dims):
    if not holds(data.dtype):
        return data         # data JAX cannot hold stays NumPy's (DESIGN §6c)
    a = to_jax(data)       # (at its dtype's home: a TPU loses float64's last bits)
    if dims is None:
        return zero_dim_array(positional(a))   # a stored 0-d array, as NumPy loads it
    return NamedArray(a, tuple(check_dims(fn, dims, a.ndim)))


def _trailer(f):
    """The dims stored after a ``.npy`` file's data (``None`` if there are none)."""
    head = f.read(len(_TRAILER) + 4)
    if len(head) < len(_TRAILER) + 4 or not head.startswith(_TRAILER):
        return None
    (n,) = struct.unpack("<I", head[len(_TRAILER):])
    return json.loads(f.read(n).decode())["dims"]


class _NpzFile:
    """What ``np.load`` returns for an ``.npz`` file: NumPy's lazy ``NpzFile``
    whose arrays are NamedArrays, with their stored names."""

    def __init__(self, npz):
        self._npz = npz
        self._dims = json.loads(str(npz[_DIMS])) if _DIMS in npz.files else {}
        self.files = [k for k in npz.files if k != _DIMS]

    def __getitem__(self, key):
        if key not in self.files:
            raise KeyError(f"load: {key!r} is not a file in the archive (it has "
                           f"{self.files})")
        v = self._npz[key]
        return _named("load", v, self._dims.get(key)) if isinstance(v, onp.ndarray) else v

    def __contains__(self, key):
        return key in self.files

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return list(self.files)

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self.files else default

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"NpzFile({self.files})"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII",
         *, max_header_size=10000):
    """``numpy.load``; the result is a NamedArray, with the names ``save``
    stored (an ``.npz`` file gives a lazy mapping of NamedArrays, as NumPy's
    ``NpzFile``).  ``mmap_mode`` maps a file without names as NumPy's
    ``memmap`` (host memory: a write reaches the file)."""
    kw = dict(mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
              encoding=encoding, max_header_size=max_header_size)
    if isinstance(file, (str, os.PathLike)):
        if mmap_mode is not None or zipfile.is_zipfile(file):
            r = onp.load(file, **kw)
            dims = None
            if isinstance(r, onp.ndarray) and mmap_mode is not None:
                with open(file, "rb") as f:       # the trailer after a mapped file's data
                    f.seek(r.offset + r.nbytes)
                    dims = _trailer(f)
                if dims is None:
                    return r        # NumPy's memmap of the file: a write reaches the file
                if mmap_mode in ("r+", "w+"):
                    raise ValueError(f"load: mmap_mode={mmap_mode!r} writes to the file, "
                                     "which a NamedArray (device data) cannot; load it "
                                     "and np.save it after writing")
            return _loaded(r, dims)
        with open(file, "rb") as f:
            return load(f, **kw)
    r = onp.load(file, **kw)
    return _loaded(r, _trailer(file) if isinstance(r, onp.ndarray) else None)


def _loaded(r, dims):
    if isinstance(r, onp.lib.npyio.NpzFile):
        return _NpzFile(r)
    if isinstance(r, onp.ndarray):
        return _named("load", r, dims)
    return r


loadtxt = _from_numpy(onp.loadtxt)


genfromtxt = _from_numpy(onp.genfromtxt)


fromregex = _from_numpy(onp.fromregex)


fromfile = _from_numpy(onp.fromfile)


__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__]

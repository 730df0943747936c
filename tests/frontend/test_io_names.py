"""np.save / np.savez / np.load keep NamedArrays' names; a plain numpy.load
reads the same files (the data in the physical layout); Orbax round-trips a
pytree of NamedArrays when it is installed."""
import io

import jax
import numpy as onp
import pytest

import namedarray as np

_R = onp.random.default_rng(0)
W = np.asarray(_R.normal(size=(3, 4, 2))).tag("embed", None, "mlp")
B = np.asarray(_R.normal(size=2)).tag("mlp")


def _same(a, b):
    assert a.dims == b.dims and a.dtype == b.dtype
    onp.testing.assert_array_equal(onp.asarray(a.data), onp.asarray(b.data))


@pytest.mark.parametrize("to_path", [False, True])
def test_save_load_keeps_names(tmp_path, to_path):
    f = tmp_path / "w" if to_path else io.BytesIO()
    np.save(f, W)
    if to_path:
        f = tmp_path / "w.npy"                     # NumPy's suffix
    else:
        f.seek(0)
    got = np.load(f)
    _same(got, W)
    assert got.named_shape == {"embed": 3, "mlp": 2} and got.shape == (4,)
    if not to_path:
        f.seek(0)
    plain = onp.load(f)                            # NumPy's reader: the physical data
    onp.testing.assert_array_equal(plain, onp.asarray(W.data))
    if to_path:
        _same(np.load(f, mmap_mode="r"), W)


def test_positional_arrays_are_numpy_files():
    f = io.BytesIO()
    np.save(f, np.arange(3))
    raw = f.getvalue()
    g = io.BytesIO()
    onp.save(g, onp.arange(3))
    assert raw == g.getvalue()                     # byte for byte NumPy's file
    f.seek(0)
    assert np.load(f).dims == (None,)


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_dict_of_named_arrays(tmp_path, compressed):
    params = {"w": W, "b": B, "step": np.asarray(3)}
    path = tmp_path / "ckpt.npz"
    (np.savez_compressed if compressed else np.savez)(path, **params)
    with np.load(path) as ckpt:
        assert ckpt.files == ["w", "b", "step"] and "w" in ckpt and len(ckpt) == 3
        for k, v in params.items():
            _same(ckpt[k], v)
        with pytest.raises(KeyError, match=r"load: 'x' is not a file in the archive"):
            ckpt["x"]
    with onp.load(path) as plain:                   # NumPy's reader: data, and the dims
        onp.testing.assert_array_equal(plain["w"], onp.asarray(W.data))
        assert "__dims__" in plain.files


def test_pytree_checkpoint_recipe(tmp_path):
    """A nested pytree through savez: flattened by key path, restored by the
    tree's structure (as the training tutorial does)."""
    params = {"embed": W, "layers": [{"b": B}, {"b": B * 2}]}
    leaves, tree = jax.tree_util.tree_flatten_with_path(
        params, is_leaf=lambda v: isinstance(v, np.NamedArray))
    np.savez(tmp_path / "p.npz", **{jax.tree_util.keystr(k): v for k, v in leaves})
    with np.load(tmp_path / "p.npz") as f:
        back = jax.tree_util.tree_unflatten(tree, [f[jax.tree_util.keystr(k)]
                                                   for k, _ in leaves])
    _same(back["layers"][1]["b"], B * 2)
    _same(back["embed"], W)


def test_errors():
    with pytest.raises(ValueError, match="savez: the key '__dims__' is reserved"):
        np.savez(io.BytesIO(), __dims__=W)
    with pytest.raises(ValueError, match=r"save: the array is mapped along \{'mlp': 2\} "
                                         "by an enclosing nmap; save it outside the map"):
        np.nmap(lambda b: np.save(io.BytesIO(), b) or b)(B)


def test_orbax_round_trip(tmp_path):
    ocp = pytest.importorskip("orbax.checkpoint")
    params = {"w": W, "layers": [{"b": B}]}
    ckptr = ocp.StandardCheckpointer()
    ckptr.save(tmp_path / "ckpt", params)
    ckptr.wait_until_finished()
    target = jax.tree.map(ocp.utils.to_shape_dtype_struct, params)
    back = ckptr.restore(tmp_path / "ckpt", target)
    _same(back["w"], W)
    _same(back["layers"][0]["b"], B)


def test_host_data_read_back_is_numpys(tmp_path):
    # structured and string data JAX cannot hold: NumPy's array, as NumPy reads it
    text = "M 21 72.1\nF 35 58.3\n"
    dt = {"names": ("g", "age", "w"), "formats": ("S1", "i4", "f4")}
    want = onp.loadtxt(io.StringIO(text), dtype=dt)
    got = np.loadtxt(io.StringIO(text), dtype=dt)
    assert type(got) is onp.ndarray and got.dtype == want.dtype
    onp.testing.assert_array_equal(got, want)
    got = np.genfromtxt(io.StringIO("a,1\nb,2"), dtype="S1,i8", delimiter=",")
    onp.testing.assert_array_equal(got, onp.genfromtxt(io.StringIO("a,1\nb,2"),
                                                       dtype="S1,i8", delimiter=","))
    rec = onp.array([((10, 0), 98.25)], dtype=[("t", [("m", "i8"), ("s", "i8")]),
                                              ("temp", "f8")])
    rec.tofile(tmp_path / "r.bin")
    onp.testing.assert_array_equal(np.fromfile(tmp_path / "r.bin", dtype=rec.dtype), rec)
    onp.save(tmp_path / "r.npy", rec)
    assert np.load(tmp_path / "r.npy").dtype == rec.dtype
    # numeric data read back is a NamedArray
    onp.arange(3.0).tofile(tmp_path / "f.bin")
    got = np.fromfile(tmp_path / "f.bin")
    assert isinstance(got, np.NamedArray)
    onp.testing.assert_array_equal(onp.asarray(got), onp.arange(3.0))


def test_mmap_mode_is_numpy_s_memmap(tmp_path):
    onp.save(tmp_path / "a.npy", onp.arange(6).reshape(2, 3))
    x = np.load(tmp_path / "a.npy", mmap_mode="r+")
    assert type(x) is onp.memmap and type(x[1, :]) is onp.memmap
    x[0, 0] = 9
    x.flush()
    assert onp.load(tmp_path / "a.npy")[0, 0] == 9        # the write reached the file
    np.save(tmp_path / "w.npy", W)
    with pytest.raises(ValueError, match=r"^load: mmap_mode='r\+' writes to the file, "
                                         r"which a NamedArray \(device data\) cannot"):
        np.load(tmp_path / "w.npy", mmap_mode="r+")

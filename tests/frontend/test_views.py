"""NumPy's views: writes through a basic slice, .T, .mT, .flat, .real, .imag,
reshape, ravel and view() reach the base; a view sees its base's newer writes
and never writes a stale copy back; diagonal and broadcast_to are read-only."""
import jax
import numpy as onp
import pytest

import namedarray as np
from support import assert_same


def _both(step):
    """Run ``step(module, array)`` on NumPy and on namedarray; return both bases."""
    y = onp.arange(6.0).reshape(2, 3) + 1j * onp.arange(6.0).reshape(2, 3)
    x = np.asarray(y.copy())
    y = y.copy()
    step(onp, y)
    step(np, x)
    return x, y


STEPS = {
    "stale slice": lambda m, a: (lambda s: (a.__setitem__((0, 1), 10), s.__setitem__(
        2, 20)))(a[0]),
    "slice of slice": lambda m, a: a[1][1:].__setitem__(0, 7),
    "T": lambda m, a: a.T.__setitem__((2, 1), 5),
    "T iadd": lambda m, a: a.T.__iadd__(1),
    "transpose axes": lambda m, a: a.transpose(1, 0).__setitem__((0, 1), 3),
    "mT": lambda m, a: a.mT.__setitem__((0, 1), 4),
    "flat": lambda m, a: a.flat.__setitem__(4, 9),
    "real": lambda m, a: a.real.__setitem__((0, 0), 5),
    "imag": lambda m, a: a.imag.__setitem__((1, 2), 5),
    "reshape": lambda m, a: a.reshape(3, 2).__setitem__((2, 0), 8),
    "reshape tuple": lambda m, a: a.reshape((6,)).__setitem__(slice(0, 2), 8),
    "ravel": lambda m, a: a.ravel().__setitem__(5, -1),
    "view": lambda m, a: a.view().__setitem__((0, 0), -2),
    "view then base": lambda m, a: (lambda v: (a.__setitem__((0, 0), 1),
                                               v.__setitem__((0, 1), 2)))(a.view()),
}


@pytest.mark.parametrize("name", STEPS)
def test_writes_through_views(name):
    x, y = _both(STEPS[name])
    assert_same(x, y)


def test_a_view_sees_newer_writes_to_its_base():
    x, y = np.arange(5), onp.arange(5)
    for a in (x, y):
        s, t = a[1:3], a.T
        a[1] = 10
        assert s[0] == 10 and t[1] == 10
    assert_same(x, y)


def test_real_and_imag_of_real_arrays():
    x, y = np.arange(3.0), onp.arange(3.0)
    x.real[0] = 5
    y.real[0] = 5
    assert_same(x, y)
    with pytest.raises(ValueError):
        y.imag[0] = 1
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        x.imag[0] = 1


@pytest.mark.parametrize("make", [lambda m, a: m.diagonal(a), lambda m, a: a.diagonal(),
                                  lambda m, a: m.broadcast_to(a[0], (2, 3))])
def test_read_only_results(make):
    y = onp.zeros((2, 3))
    x = np.zeros((2, 3))
    with pytest.raises(ValueError, match="read-only"):
        make(onp, y)[0] = 1
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        make(np, x)[0] = 1
    assert_same(make(np, x), make(onp, y))


def test_views_under_jit_and_named():
    x = np.arange(6.0).reshape(2, 3)
    assert_same(jax.jit(lambda a: a.T * 2)(x), onp.arange(6.0).reshape(2, 3).T * 2)
    n = np.arange(6.0).reshape(2, 3).tag("b", None)
    t = n.reshape(3, 1)
    t[0, 0] = 100
    # the index applies to the positional axes of every named slice
    assert n.untag("b").tolist() == [[100.0, 1.0, 2.0], [100.0, 4.0, 5.0]]


# the function forms of NumPy's views are views too (engines/views.py)
def _ints(m):
    return m.arange(24).reshape(2, 3, 4)


FUNCTION_STEPS = {
    "transpose": lambda m, a: m.transpose(a).__setitem__((3, 1, 0), -1),
    "transpose axes": lambda m, a: m.transpose(a, (1, 0, 2)).__setitem__((0, 1), -1),
    "permute_dims": lambda m, a: m.permute_dims(a, (2, 0, 1))[1].__setitem__(0, -1),
    "matrix_transpose": lambda m, a: m.matrix_transpose(a).__setitem__((1, 3, 0), -1),
    "reshape": lambda m, a: m.reshape(a, (6, 4)).__setitem__(5, -1),
    "ravel": lambda m, a: m.ravel(a).__setitem__(slice(3, 9), -1),
    "swapaxes": lambda m, a: m.swapaxes(a, 0, 2).__setitem__((3, 2, 1), -1),
    "moveaxis": lambda m, a: m.moveaxis(a, 0, -1).__setitem__((2, 3, 1), -1),
    "rollaxis": lambda m, a: m.rollaxis(a, 2).__setitem__((1, 0, 2), -1),
    "flip": lambda m, a: m.flip(a, 1).__setitem__((0, 0), -1),
    "fliplr": lambda m, a: m.fliplr(a)[1].__setitem__(1, -1),
    "flipud": lambda m, a: m.flipud(a).__setitem__((0, 2, 3), -1),
    "rot90": lambda m, a: m.rot90(a, 1, (1, 2)).__setitem__((0, 1), -1),
    "squeeze": lambda m, a: m.squeeze(a[:1]).__setitem__((2, 3), -1),
    "expand_dims": lambda m, a: m.expand_dims(a, (0, 2)).__setitem__((0, 1, 0, 2), -1),
    "atleast_3d": lambda m, a: m.atleast_3d(a[0]).__setitem__((1, 1), -1),
    "atleast_2d": lambda m, a: m.atleast_2d(a[0, 0]).__setitem__((0, 2), -1),
    "einsum ii->i": lambda m, a: m.einsum("ii->i", a[0, :, :3]).__setitem__(2, -1),
    "einsum ijk->kji": lambda m, a: m.einsum("ijk->kji", a).__setitem__((1, 2, 0), -1),
    "fill_diagonal fliplr": lambda m, a: m.fill_diagonal(m.fliplr(a[1]), [7, 8, 9]),
    "iadd transpose": lambda m, a: m.transpose(a).__iadd__(100),
    "view of a view": lambda m, a: m.flip(m.transpose(a[1:]), 0)[0].__setitem__(2, -1),
    # copies in NumPy: the write stays in the copy
    "reshape of a transpose": lambda m, a: m.reshape(a.T, 24).__setitem__(1, -1),
    "ravel of a slice": lambda m, a: m.ravel(a[:, ::2]).__setitem__(0, -1),
    "ravel of a transpose method": lambda m, a: a.T.ravel().__setitem__(1, -1),
    "reshape of a strided slice": lambda m, a: m.reshape(a[:, :, ::2], (2, 6))[0].__setitem__(
        4, -1),
    # strides allow these without a copy: views in NumPy
    "reshape of a slice, strided": lambda m, a: m.reshape(a[:, 1:], (2, 2, 1, 4)).__setitem__(
        (1, 1, 0, 3), -1),
    "ravel of a contiguous slice": lambda m, a: m.ravel(a[1]).__setitem__(7, -1),
    "reshape of an empty view": lambda m, a: m.reshape(a[:0], (2, 0, 3)).__setitem__(
        Ellipsis, -1),
    # memory orders: a transpose read as its memory holds it is a view ...
    "ravel A of a transpose": lambda m, a: m.ravel(a.T, order="A").__setitem__(5, -1),
    "ravel K of a transpose": lambda m, a: m.transpose(a, (1, 0, 2)).ravel("K").__setitem__(
        7, -1),
    "reshape A of a transpose": lambda m, a: m.reshape(a.T, (4, 6), order="A")[1].__setitem__(
        2, -1),
    "reshape F of a transpose": lambda m, a: m.reshape(a.T, (6, 4), order="F").__setitem__(
        (2, 1), -1),
    "reshape F, a copy": lambda m, a: m.reshape(a, (4, 6), order="F").__setitem__((2, 1), -1),
    "reshape F of a slice": lambda m, a: m.reshape(a[:, 1:], (2, -1), "F").__setitem__(
        (1, 3), -1),
    # ... flatten, and an order that cannot be strided, copy
    "flatten": lambda m, a: a.flatten().__setitem__(1, -1),
    "flatten A of a transpose": lambda m, a: a.T.flatten("A").__setitem__(1, -1),
    "ravel K of a reversed transpose": lambda m, a: m.ravel(a.T[::-1], "K").__setitem__(
        0, -1),
}


@pytest.mark.parametrize("name", FUNCTION_STEPS)
def test_function_forms_write_through(name):
    x, y = _ints(np), _ints(onp)
    FUNCTION_STEPS[name](np, x)
    FUNCTION_STEPS[name](onp, y)
    assert_same(x, y)


@pytest.mark.parametrize("make", [
    lambda m, a: m.transpose(a), lambda m, a: m.flip(a, 0), lambda m, a: m.diagonal(a),
    lambda m, a: m.reshape(a, 6), lambda m, a: m.real(a), lambda m, a: m.squeeze(a[None]),
    lambda m, a: m.broadcast_to(a, (2, 2, 3)), lambda m, a: m.einsum("ij->ji", a)])
def test_function_forms_see_newer_writes(make):
    x, y = np.arange(6.0).reshape(2, 3), onp.arange(6.0).reshape(2, 3)
    v, w = make(np, x), make(onp, y)
    x[1, 1] = y[1, 1] = -7
    x[0] += 1
    y[0] += 1
    assert_same(v, w)


def test_real_and_imag_function_forms():
    x, y = _both(lambda m, a: (m.real(a).__setitem__((0, 2), 9),
                               m.imag(a).__setitem__((1, 0), -9)))
    assert_same(x, y)
    r, s = np.arange(3.0), onp.arange(3.0)
    np.real(r)[1] = 5
    onp.real(s)[1] = 5
    assert_same(r, s)
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        np.imag(r)[0] = 1
    assert_same(np.real([1 + 2j]), onp.real([1 + 2j]))


def test_function_form_views_named_and_under_jit():
    n = np.arange(6.0).reshape(2, 3).tag("b", None)
    np.flip(n, 0)[0] = 100           # the positional axis of every named slice
    assert n.untag("b").tolist() == [[0.0, 1.0, 100.0], [3.0, 4.0, 100.0]]

    def step(m):
        def f(a):
            m.transpose(a)[0, 1] = 5
            m.fliplr(a)[0, 0] = 6
            return a
        return f
    assert_same(jax.jit(step(np))(np.arange(6.0).reshape(2, 3)),
                step(onp)(onp.arange(6.0).reshape(2, 3)))


MEMORY = {
    "slice": lambda m, x: (x, x[1:]), "columns": lambda m, x: (x[:, 0], x[:, 1]),
    "rows apart": lambda m, x: (x[0], x[2]), "T": lambda m, x: (x.T, x),
    "strided": lambda m, x: (x.reshape(12)[::2], x[:, 1::2]),
    "strided overlap": lambda m, x: (x.reshape(12)[::3], x[:, 1::2]),
    "another array": lambda m, x: (x, m.arange(3)), "a list": lambda m, x: (x, [1]),
    "asarray": lambda m, x: (m.asarray(x), x),
    "asarray cast": lambda m, x: (m.asarray(x, dtype=m.float64), x),
    "function views": lambda m, x: (m.fliplr(x)[0], m.transpose(x)[3]),
    "copy": lambda m, x: (x.copy(), x),
}


@pytest.mark.parametrize("name", MEMORY)
def test_shares_memory_follows_the_views(name):
    x, y = np.arange(12).reshape(3, 4), onp.arange(12).reshape(3, 4)
    for fn in ("shares_memory", "may_share_memory"):
        got = getattr(np, fn)(*MEMORY[name](np, x))
        assert got == getattr(onp, fn)(*MEMORY[name](onp, y)), fn
        assert type(got) is bool


BASES = {
    "slice": lambda m, x: x[1:], "slice of a slice": lambda m, x: x[1:][:, ::2],
    "T": lambda m, x: x.T, "reshape": lambda m, x: x.reshape(12),
    "diagonal": lambda m, x: m.diagonal(x), "atleast_3d": lambda m, x: m.atleast_3d(x),
    "broadcast_to": lambda m, x: m.broadcast_to(x, (2, 3, 4)),
    "copy": lambda m, x: x.copy(), "ufunc": lambda m, x: x + 1,
}


@pytest.mark.parametrize("name", BASES)
def test_base_is_numpys(name):
    x, y = np.arange(12).reshape(3, 4), onp.arange(12).reshape(3, 4)
    x, y = x.copy(), y.copy()          # own their data
    assert x.base is None and y.base is None
    assert (BASES[name](np, x).base is x) == (BASES[name](onp, y).base is y)


LAYOUTS = {
    "whole": lambda x: x, "T": lambda x: x.T, "size-1 slice": lambda x: x[::2],
    "strided": lambda x: x[:, ::2], "row": lambda x: x[0], "column": lambda x: x[:, 0],
    "last index": lambda x: x[..., 0], "transpose": lambda x: x.transpose(1, 0, 2),
    "row T": lambda x: x[0].T, "T row": lambda x: x.T[0], "flat step": lambda x: x.reshape(24)[::3],
    "reversed": lambda x: x[0, 0, ::-1], "swapaxes": lambda x: x.swapaxes(0, 2)[:, :, :1],
    "diagonal": lambda x: x[0].diagonal(),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_view_flags_and_isfortran_are_numpys(name):
    x, y = np.arange(24).reshape(2, 3, 4), onp.arange(24).reshape(2, 3, 4)
    got, want = LAYOUTS[name](x).flags, LAYOUTS[name](y).flags
    for k in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        assert got[k] == want[k], k
    assert np.isfortran(LAYOUTS[name](x)) == onp.isfortran(LAYOUTS[name](y))


ORDERED = {
    "ones": lambda m: m.ones((2, 3), order="F"),
    "zeros": lambda m: m.zeros((2, 3), dtype=int, order="F"),
    "full": lambda m: m.full((2, 3), 7, order="F"),
    "array": lambda m: m.array([[1, 2, 3], [4, 5, 6]], order="F"),
    "array of F": lambda m: m.array(m.ones((2, 3), order="F")),
    "array C of F": lambda m: m.array(m.ones((2, 3), order="F"), order="C"),
    "asarray of F": lambda m: m.asarray(m.ones((2, 3), order="F")),
    "F.T": lambda m: m.ones((2, 3), order="F").T,
    "F row": lambda m: m.arange(6.0).reshape(2, 3).copy(order="F")[0],
    "F column": lambda m: m.arange(6.0).reshape(2, 3).copy(order="F")[:, 0],
    "copy of F": lambda m: m.copy(m.ones((2, 3), order="F")),
    "F.copy()": lambda m: m.ones((2, 3), order="F").copy(),
    "ascontiguousarray": lambda m: m.ascontiguousarray(m.ones((2, 3), order="F")),
    "asfortranarray": lambda m: m.asfortranarray(m.ones((2, 3))),
    "asfortranarray of T": lambda m: m.asfortranarray(m.ones((2, 3)).T),
    "require F": lambda m: m.require(m.arange(6).reshape(2, 3), requirements="F"),
    "require O": lambda m: m.require(m.arange(6).reshape(2, 3), requirements=["O"]),
    "require CW": lambda m: m.require(m.ones((2, 3), order="F"), requirements=["C", "W"]),
    "3-d": lambda m: m.ones((2, 3, 4), order="F")[:, 1:],
}


@pytest.mark.parametrize("name", ORDERED)
def test_memory_order_F_is_numpys(name):
    got, want = ORDERED[name](np), ORDERED[name](onp)
    for k in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        assert got.flags[k] == want.flags[k], k
    assert got.strides == want.strides and (got.base is None) == (want.base is None)
    assert np.isfortran(got) == onp.isfortran(want)
    onp.testing.assert_array_equal(onp.asarray(got), want)


def test_fortran_arrays_write_and_read_as_numpy_s():
    def prog(m):
        x = m.zeros((2, 3), order="F")
        x[0, 1] = 5
        x.T[2, 1] = 7
        y = x[:, 1]
        y += 1
        return (x, m.ravel(x, order="K"), m.ravel(x, order="A"), x.reshape(6),
                m.shares_memory(x, x.T), m.may_share_memory(x, m.ascontiguousarray(x)),
                x.T.base is x)
    def resized(m):
        a = m.array([[0, 1], [2, 3]], order="F")
        a.resize((3, 3), refcheck=False)      # in memory order, as NumPy's
        a[0, 2] = 9
        b = m.array([[0, 1], [2, 3]], order="F")
        b.resize(2, refcheck=False)
        return a, m.ravel(a, order="K"), a.strides, a.flags.f_contiguous, b
    for g, w in zip(prog(np) + resized(np), prog(onp) + resized(onp)):
        onp.testing.assert_array_equal(onp.asarray(g), w)
    with pytest.raises(ValueError, match=r"^array: copy=False, but an array laid out in "
                                         r"order 'F' needs a copy"):
        np.array(np.ones((2, 3)), order="F", copy=False)
    with pytest.raises(ValueError, match=r'^require: requirements cannot have both "C" '
                                         r'and "F"'):
        np.require(np.ones((2, 2)), requirements="CF")


@pytest.mark.parametrize("name", [n for n in LAYOUTS if n not in ("size-1 slice", "swapaxes")])
def test_view_strides_are_numpys(name):
    # (a length-1 axis has its C stride: any stride addresses its one element)
    x, y = np.arange(24).reshape(2, 3, 4), onp.arange(24).reshape(2, 3, 4)
    assert LAYOUTS[name](x).strides == LAYOUTS[name](y).strides


SETTERS = {
    "real": lambda m, a: setattr(a, "real", 9),
    "imag": lambda m, a: setattr(a, "imag", m.arange(3.0)),
    "real of a row": lambda m, a: setattr(a[1], "real", [7, 8, 9]),
    "flat": lambda m, a: setattr(a, "flat", 3),
    "flat repeated": lambda m, a: setattr(a, "flat", [1, 2j, 3, 4]),
    "flat of a transpose": lambda m, a: setattr(a.T, "flat", [5, 6]),
}


@pytest.mark.parametrize("name", SETTERS)
def test_settable_attributes(name):
    x, y = _both(SETTERS[name])
    assert_same(x, y)


def test_setting_imag_of_real_data():
    x, y = np.arange(3.0), onp.arange(3.0)
    with pytest.raises(TypeError):
        y.imag = 1
    with pytest.raises(TypeError, match="imag: array does not have imaginary part to set"):
        x.imag = 1


@pytest.mark.parametrize("make", [
    lambda m: m.arange(12).reshape(3, 4).T,
    lambda m: m.arange(12).reshape(3, 4).T[::-1],
    lambda m: m.arange(12).reshape(3, 4)[:, ::2].T,
    lambda m: m.arange(24).reshape(2, 3, 4).transpose(1, 0, 2),
    lambda m: m.swapaxes(m.arange(24).reshape(2, 3, 4)[:, 1:], 0, 2),
    lambda m: m.arange(6).reshape(2, 3),
])
@pytest.mark.parametrize("order", ["A", "K"])
def test_memory_orders_are_numpys(make, order):
    """ravel/flatten/reshape in NumPy's "A" and "K" orders read the view as
    its base's memory holds it."""
    x, y = make(np), make(onp)
    assert_same(np.ravel(x, order), onp.ravel(y, order))
    assert_same(x.ravel(order), y.ravel(order))
    assert_same(x.flatten(order), y.flatten(order))
    if order == "A":
        assert_same(np.reshape(x, (2, -1), order=order), onp.reshape(y, (2, -1), order=order))


# -- NumPy's in-place shape changes: x.shape = s, ndarray.resize, .partition --
def _shape_set(m):
    a = m.arange(6); a.shape = (3, 2); return [a]


def _shape_set_base_of_a_view(m):
    a = m.arange(6); v = a[1:3]; a.shape = (2, 3); v[0] = 99; a[1, 0] = -3
    return [a, v]


def _shape_set_of_a_view(m):
    a = m.arange(12).reshape(3, 4); v = a[1]; v.shape = (2, 2); v[0, 0] = -1
    w = a[:, 1]; w.shape = (3, 1); w[2, 0] = -7
    return [a, v, w]


def _shape_set_chained(m):
    x = m.arange(6); y = m.arange(6.0); x.shape = y.shape = -1, 2; return [x, y]


def _resize(m):
    a = m.array([[0, 1], [2, 3]]); a.resize((2, 1))
    b = m.arange(4); b.resize(3, 3, refcheck=False)
    c = m.arange(5); c.resize((0,))
    return [a, b, c]


def _partition(m):
    a = m.array([3, 4, 2, 1]); a.partition(3)
    b = m.array([[5, 1, 3], [2, 9, 0]]); b.partition(1, axis=0)
    return [a[3:], onp.sort(onp.asarray(a[:3])), b]


@pytest.mark.parametrize("prog", [_shape_set, _shape_set_base_of_a_view,
                                  _shape_set_of_a_view, _shape_set_chained, _resize,
                                  _partition])
def test_in_place_shape_changes_match_numpy(prog):
    for got, want in zip(prog(np), prog(onp)):
        assert onp.asarray(got).dtype == want.dtype
        onp.testing.assert_array_equal(onp.asarray(got), want)


@pytest.mark.parametrize("prog,err,msg", [
    (lambda: setattr(np.arange(12).reshape(3, 4).T, "shape", (12,)), AttributeError,
     r"shape: Incompatible shape for in-place modification. Use `.reshape\(\)`"),
    (lambda: setattr(np.arange(6), "shape", (4,)), ValueError,
     r"reshape: cannot reshape array of size 6"),
    (lambda: np.arange(6)[1:].resize(2), ValueError,
     r"resize: cannot resize this array: it does not own its data"),
    (lambda: np.arange(6).tag("b").resize(2), ValueError,
     r"resize: the array has named axes \{'b': 6\}"),
    (lambda: np.arange(6).resize(-1), ValueError, "resize: negative dimensions"),
])
def test_in_place_shape_change_errors(prog, err, msg):
    with pytest.raises(err, match=msg):
        prog()

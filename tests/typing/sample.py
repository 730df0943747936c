"""A user-style program over namedarray's public API, type-checked by mypy
against the package's stubs (tests/typing/test_typing.py).

``assert_type`` pins what the stubs promise; the lines whose comment starts
with ``E:`` are the ones mypy must report.  ``main()`` also runs, so every call here is
a working one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_type

import namedarray as np
from namedarray import NamedArray


def layer(w: NamedArray, v: NamedArray, scale: float = 1.0) -> NamedArray:
    """A contraction over the named axis ``k``."""
    return np.einsum("{k},{k,m}->{m}", v, w) * scale


def main() -> None:
    x = np.ones((4, 3)).tag("batch", None)
    assert_type(x, NamedArray)
    assert_type(np.sum(x, axis="batch"), NamedArray)
    assert_type(np.mean(x, axis=("batch", 0)), NamedArray)
    assert_type(np.max(x, axis=None, keepdims=True), NamedArray)
    assert_type(x.sum(axis="batch"), NamedArray)
    assert_type(x.untag("batch"), NamedArray)
    assert_type(x.rename(batch="b"), NamedArray)
    assert_type(x.named_shape, dict[str, int])
    assert_type(x.dims, tuple[str | None, ...])
    assert_type(x.shape, tuple[int, ...])
    assert_type(x.ndim, int)
    assert_type(x.data, Any)  # a jax.Array (or tracer)
    assert_type(x + 1, NamedArray)
    assert_type(2.0 * x, NamedArray)
    assert_type(x.untag("batch") @ x.untag("batch").T, NamedArray)
    assert_type(x[0], NamedArray)
    assert_type(x < 0, NamedArray)
    assert_type(float(np.sum(x.untag("batch"))), float)
    assert_type(np.add(x, x), NamedArray)
    assert_type(np.add.reduce(x, axis="batch"), NamedArray)
    assert_type(np.divmod(x, 2), tuple[NamedArray, NamedArray])
    assert_type(np.einsum("n{batch},{batch}->n", x, np.arange(4.0).tag("batch")),
                NamedArray)
    assert_type(np.split(np.arange(6), 3), list[NamedArray])
    assert_type(np.nonzero(np.arange(3)), tuple[NamedArray, ...])
    assert_type(np.linalg.inv(np.eye(3)), NamedArray)
    assert_type(np.fft.fft(np.arange(4.0)), NamedArray)
    rng = np.random.default_rng(0)
    assert_type(rng, np.random.Generator)
    assert_type(rng.normal(size=3), NamedArray)
    assert_type(np.parallel.psum(x, "batch"), NamedArray)
    assert_type(np.nn.softmax(x, axis="batch"), NamedArray)
    assert_type(np.allclose(x, x), bool)
    assert_type(np.float32(1.0), np.float32)
    assert_type(np.pi, float)
    assert_type(np.zeros(3, dtype=np.float32), NamedArray)

    # nmap keeps the mapped function's parameters and result (ParamSpec)
    mapped = np.nmap(layer)
    w, v = np.ones((3, 2)).tag("k", "m"), np.ones(3).tag("k")
    assert_type(mapped(w, v), NamedArray)
    assert_type(mapped(w, v, scale=2.0), NamedArray)
    if TYPE_CHECKING:
        mapped(w, v, scale="2")  # E: a str is not the float that `layer` takes
        mapped(w)  # E: `layer` needs `v`
        np.sum(x, axis=1.5)  # E: an axis is an int, a name or a tuple of them
    y = x.copy()
    y += 1
    assert_type(y, NamedArray)
    for row in x.untag("batch"):
        assert_type(row, NamedArray)
    with np.testing.assert_raises(TypeError):
        int(x)      # named axes: untag or reduce them first
    np.testing.assert_allclose(np.sum(x, axis="batch"), np.full(3, 4.0))


if __name__ == "__main__":
    main()

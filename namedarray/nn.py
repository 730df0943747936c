"""Neural-network functions over named axes: ``jax.nn`` with names.

Each function takes the name(s) of the axes it works over (``axis="embed"``)
and is a thin declaration over ``jax.nn`` and the package's engines: the
named reductions (``max``, ``sum``: collectives when a name is mapped),
named contraction (``vecdot``) and alignment by name.  So every function
gives the same names, values and gradients physically, inside a local
``nmap``, on a mesh and under ``jax.jit``, and differentiates with
:func:`namedarray.grad`.  They compute as ``jax.nn`` does, divisions and
means included (JAX's division, which XLA may turn into a multiplication by
a reciprocal; a mean's float32 sum in half precision), not as NumPy's
``divide`` and ``mean`` do: a softmax or a norm compiles to the program the
same ``jax.nn`` code compiles to, on every backend.

>>> import namedarray as np
>>> from namedarray import nn
>>> logits = np.asarray([[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]]).tag("batch", "cls")
>>> nn.softmax(logits, axis="cls").sum(axis="cls")
NamedArray(named_shape={'batch': 2}, shape=(), dtype=float64,
     dims=('batch',),
     data=array([1., 1.]))
>>> labels = np.asarray([0, 2]).tag("batch")
>>> nn.cross_entropy(logits, labels, axis="cls").untag("batch").round(4)
array([0.4076, 1.0986])

Elementwise JAX functions.  The activations here (``relu``, ``gelu``,
``silu``, ... all of ``jax.nn``'s elementwise ones) are ``elementwise(jax.nn.f)``:
the NamedArray operands are aligned by name and ``f`` runs on their data,
names (mapped or not) riding along.  Any other elementwise JAX function
applies the same way, ``nn.elementwise(fn)(x)``; ``jax.nn.gelu(x)`` itself
takes a NamedArray without names as its data, and refuses one with names.  ``np.nmap(fn)(x)`` also works
for any ``fn``: it maps every name away, so ``fn`` sees the positional axes
only (the rule for a function that is not elementwise).

>>> import jax
>>> h = np.asarray([-1.0, 0.0, 2.0]).tag("mlp")
>>> nn.relu(h).untag("mlp")
array([0., 0., 2.])
>>> nn.elementwise(jax.numpy.square)(h).untag("mlp")
array([1., 0., 4.])

A weight-decay mask.  ``x.ndim`` counts positional axes only (docs/design.md §1),
so a fully named matrix has ``ndim == 0`` and optax's usual mask
``lambda p: p.ndim > 1`` would exclude it; :func:`decay_mask` counts every
axis (``len(x.dims)``): ``optax.adamw(lr, mask=nn.decay_mask)``.
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as onp

from .core.array import NamedArray, check_name, new, operand, positional, unknown_name
from .core.align import align
from . import namespace as _np


# --------------------------------------------------------------------------
# elementwise functions
# --------------------------------------------------------------------------
def _as_named(fn, x):
    x = operand(x)
    if not isinstance(x, NamedArray):
        x = positional(jnp.asarray(x))
    return x


def elementwise(fn, name=None):
    """Apply an elementwise JAX function ``fn`` to NamedArrays.

    The NamedArray arguments (positional or keyword) are aligned by name (as
    ``x + y`` aligns them) and ``fn`` runs on their data; the result has the
    aligned names.  Other arguments (scalars, options such as
    ``approximate=False``) are passed as given.  ``fn`` must be elementwise:
    a result of another shape is an error.

    >>> import jax
    >>> import namedarray as np
    >>> from namedarray import nn
    >>> x = np.asarray([[0.0, 1.0]]).tag("b", "f")
    >>> nn.elementwise(jax.nn.sigmoid)(x).named_shape
    {'b': 1, 'f': 2}
    """
    label = name or getattr(fn, "__name__", "elementwise")

    @functools.wraps(fn)
    def f(*args, **kwargs):
        keys = list(kwargs)
        vals = list(args) + [kwargs[k] for k in keys]
        idx = [i for i, v in enumerate(vals) if isinstance(v, NamedArray)]
        if not idx:
            raise TypeError(f"{label}: expected a NamedArray argument, got "
                            f"{[type(v).__name__ for v in vals]}")
        datas, dims, mapped = align(label, [vals[i] for i in idx])
        for i, d in zip(idx, datas):
            vals[i] = d
        out = fn(*vals[:len(args)], **dict(zip(keys, vals[len(args):])))
        want = jnp.broadcast_shapes(*(jnp.shape(d) for d in datas))
        if jnp.shape(out) != want:
            raise ValueError(
                f"{label}: the function is not elementwise: it returned shape "
                f"{jnp.shape(out)} for operands of aligned shape {want}; apply it with "
                "np.nmap(fn) (named axes mapped away) instead")
        return new(out, dims, mapped)

    f.__name__ = f.__qualname__ = label
    f.__module__ = __name__
    f.__doc__ = (f"``jax.nn.{label}`` on NamedArrays, elementwise: names ride along "
                 f"(see :func:`elementwise`).\n\nSee ``jax.nn.{label}`` for the "
                 "semantics and options.") if name else f.__doc__
    return f


# ``jax.nn``'s elementwise activations, one row each
relu = elementwise(jax.nn.relu, "relu")
relu6 = elementwise(jax.nn.relu6, "relu6")
sigmoid = elementwise(jax.nn.sigmoid, "sigmoid")
log_sigmoid = elementwise(jax.nn.log_sigmoid, "log_sigmoid")
softplus = elementwise(jax.nn.softplus, "softplus")
sparse_plus = elementwise(jax.nn.sparse_plus, "sparse_plus")
sparse_sigmoid = elementwise(jax.nn.sparse_sigmoid, "sparse_sigmoid")
soft_sign = elementwise(jax.nn.soft_sign, "soft_sign")
silu = elementwise(jax.nn.silu, "silu")
swish = elementwise(jax.nn.swish, "swish")
leaky_relu = elementwise(jax.nn.leaky_relu, "leaky_relu")
hard_sigmoid = elementwise(jax.nn.hard_sigmoid, "hard_sigmoid")
hard_silu = elementwise(jax.nn.hard_silu, "hard_silu")
hard_swish = elementwise(jax.nn.hard_swish, "hard_swish")
hard_tanh = elementwise(jax.nn.hard_tanh, "hard_tanh")
elu = elementwise(jax.nn.elu, "elu")
celu = elementwise(jax.nn.celu, "celu")
selu = elementwise(jax.nn.selu, "selu")
gelu = elementwise(jax.nn.gelu, "gelu")
squareplus = elementwise(jax.nn.squareplus, "squareplus")
mish = elementwise(jax.nn.mish, "mish")
log1mexp = elementwise(jax.nn.log1mexp, "log1mexp")

#: the activations above, by name (each wraps ``jax.nn``'s function of its name)
ACTIVATIONS = tuple(name for name, f in globals().items() if hasattr(jax.nn, name)
                    and getattr(f, "__wrapped__", None) is getattr(jax.nn, name))

_rsqrt = elementwise(jax.lax.rsqrt, "rsqrt")
# JAX's division, as ``jax.nn`` and flax divide (XLA may multiply by a
# reciprocal), not NumPy's correctly rounded quotient (``np.divide``, ``np.mean``):
# that one reaches the division through an optimization barrier, which XLA's CPU
# compiler takes out before fusion but its GPU compiler only after scheduling,
# so there a softmax or a norm would not fuse with the operations around it
_divide = elementwise(jnp.true_divide, "true_divide")


# --------------------------------------------------------------------------
# axis arguments
# --------------------------------------------------------------------------
def _axes(fn, x, axis, arg="axis"):
    """``axis`` (a name, an int or a tuple of them) checked against ``x``."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not axes:
        raise ValueError(f"{fn}: {arg}=() names no axis")
    for a in axes:
        if isinstance(a, str):
            check_name(fn, arg, a)
            if a not in x.named_shape:
                raise unknown_name(fn, arg, a, x)
        elif isinstance(a, (int, onp.integer)) and not isinstance(a, bool):
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"{fn}: {arg}={a} is out of bounds for positional shape "
                                 f"{x.shape} (named axes {x.named_shape})")
        else:
            raise TypeError(f"{fn}: {arg} must be an axis name, an int or a tuple of "
                            f"them, got {axis!r}")
    return axis


def _name(fn, x, axis, arg="axis"):
    """A single axis name of ``x``."""
    if not isinstance(axis, str):
        raise TypeError(f"{fn}: {arg} must be an axis name (a str), got {axis!r}")
    return _axes(fn, x, axis, arg)


# --------------------------------------------------------------------------
# softmax and normalization
# --------------------------------------------------------------------------
def _max_shift(x, axis):
    # the max is a constant of the result (as in jax.nn.softmax): taken of the
    # stopped values, so no gradient flows through the (p)max
    return _np.max(jax.lax.stop_gradient(x), axis=axis, keepdims=True)


def _mean(x, axis):
    """``jnp.mean(x, axis, keepdims=True)`` over names too: the sum (float32
    for half precision, as ``jnp.mean`` sums) by JAX's division by the count."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    n = math.prod(x.named_shape[a] if isinstance(a, str) else x.shape[a] for a in axes)
    low = x.dtype.kind == "f" and jnp.finfo(x.dtype).bits < 32
    s = _np.sum(x, axis=axis, keepdims=True, dtype=jnp.float32 if low else None)
    return _divide(s, n).astype(x.dtype) if low else _divide(s, n)


def softmax(x, axis):
    """``jax.nn.softmax`` over ``axis`` (a name, an int or a tuple of them).

    >>> import namedarray as np
    >>> from namedarray import nn
    >>> nn.softmax(np.log(np.asarray([1.0, 3.0])).tag("k"), axis="k").untag("k")
    array([0.25, 0.75])
    """
    x = _as_named("softmax", x)
    _axes("softmax", x, axis)
    e = _np.exp(x - _max_shift(x, axis))
    return _divide(e, _np.sum(e, axis=axis, keepdims=True))


def log_softmax(x, axis):
    """``jax.nn.log_softmax`` over ``axis`` (a name, an int or a tuple of them)."""
    x = _as_named("log_softmax", x)
    _axes("log_softmax", x, axis)
    shifted = x - _max_shift(x, axis)
    return shifted - _np.log(_np.sum(_np.exp(shifted), axis=axis, keepdims=True))


def layer_norm(x, axis, scale=None, bias=None, *, eps=1e-5):
    """Layer normalization over ``axis``: ``(x - mean) / sqrt(var + eps)``, then
    times ``scale`` and plus ``bias`` (NamedArrays aligned by name, e.g. named
    ``"embed"``), as flax's ``LayerNorm``.

    >>> import namedarray as np
    >>> from namedarray import nn
    >>> y = nn.layer_norm(np.asarray([1.0, 2.0, 3.0]).tag("embed"), axis="embed")
    >>> y.untag("embed").round(3)
    array([-1.225,  0.   ,  1.225])
    """
    x = _as_named("layer_norm", x)
    _axes("layer_norm", x, axis)
    xc = x - _mean(x, axis)
    y = xc * _rsqrt(_mean(xc * xc, axis) + eps)
    if scale is not None:
        y = y * scale
    return y if bias is None else y + bias


def rms_norm(x, axis, scale=None, *, eps=1e-6):
    """RMS normalization over ``axis``: ``x / sqrt(mean(x**2) + eps)``, times
    ``scale`` (aligned by name)."""
    x = _as_named("rms_norm", x)
    _axes("rms_norm", x, axis)
    y = x * _rsqrt(_mean(x * x, axis) + eps)
    return y if scale is None else y * scale


# --------------------------------------------------------------------------
# dropout, one-hot, cross-entropy
# --------------------------------------------------------------------------
def dropout(key, x, rate, *, deterministic=False):
    """Zero each element of ``x`` with probability ``rate`` and scale the others
    by ``1 / (1 - rate)``; ``deterministic=True`` (evaluation) returns ``x``.

    ``key`` is a JAX key.  Every named slice gets its own mask, drawn as
    ``np.random.default_rng(key)`` draws a named array (the slice's index
    folded into the key), so the masks are the same mapped or not.

    >>> import jax
    >>> import namedarray as np
    >>> from namedarray import nn
    >>> y = nn.dropout(jax.random.key(0), np.ones((4, 8)).tag("b", "f"), 0.5)
    >>> sorted(set(y.untag("b", "f").ravel().tolist()))
    [0.0, 2.0]
    """
    x = _as_named("dropout", x)
    if isinstance(rate, (int, float)) and not 0 <= rate < 1:
        raise ValueError(f"dropout: rate={rate!r} must be in [0, 1)")
    if deterministic or (isinstance(rate, (int, float)) and rate == 0):
        return x
    u = _np.random.default_rng(key).uniform(_np.zeros_like(x), 1.0)
    return _np.where(u >= rate, _divide(x, 1 - rate), _np.zeros((), dtype=x.dtype))


def one_hot(labels, axis, num_classes, dtype=None):
    """One-hot encoding along a new axis named ``axis`` of size ``num_classes``
    (``jax.nn.one_hot`` by name): ``labels == arange(num_classes).tag(axis)``.
    An out-of-range label gives a row of zeros, as in JAX.  ``dtype`` defaults
    to the default float.

    >>> import namedarray as np
    >>> from namedarray import nn
    >>> nn.one_hot(np.asarray([2, 0]).tag("batch"), "cls", 3).untag("batch", "cls")
    array([[0., 0., 1.],
           [1., 0., 0.]])
    """
    labels = _as_named("one_hot", labels)
    check_name("one_hot", "axis", axis)
    if axis in labels.named_shape:
        raise ValueError(f"one_hot: axis {axis!r} is already an axis of labels (named "
                         f"shape {labels.named_shape})")
    if labels.dtype.kind not in "iu":
        raise TypeError(f"one_hot: labels must be integers, got dtype {labels.dtype}")
    classes = _np.arange(num_classes, dtype=labels.dtype).tag(axis)
    return _np.equal(labels, classes).astype(dtype or jnp.result_type(float))


def cross_entropy(logits, labels, axis):
    """Softmax cross-entropy over the class axis named ``axis``, per example
    (the other names kept; reduce them for a loss).

    ``labels`` are class ids (integers without ``axis``: the loss is
    ``-log_softmax(logits)[label]``) or probabilities along ``axis``.  Eager
    calls check that class ids are in range.
    """
    logits = _as_named("cross_entropy", logits)
    _name("cross_entropy", logits, axis)
    labels = _as_named("cross_entropy", labels)
    logp = log_softmax(logits, axis)
    if axis not in labels.named_shape:
        if labels.dtype.kind not in "iu":
            raise TypeError(
                f"cross_entropy: labels without axis {axis!r} must be class ids "
                f"(integers), got dtype {labels.dtype} (named shape {labels.named_shape})")
        n = logits.named_shape[axis]
        if _concretely(lambda: _out_of_range(labels.data, n)):
            raise ValueError(f"cross_entropy: labels must be in [0, {n}) (the size of "
                             f"axis {axis!r}); got min {int(labels.data.min())}, max "
                             f"{int(labels.data.max())}")
        labels = one_hot(labels, axis, n, dtype=logp.dtype)
    return -_np.sum(labels * logp, axis=axis)


@jax.jit
def _out_of_range(d, n):
    return jnp.any((d < 0) | (d >= n))


def _concretely(check):
    """``check()`` as a bool where it is concrete (eager calls); ``False``
    under a trace (inside ``jit`` or a map, where it cannot be known)."""
    try:
        return bool(check())
    except jax.errors.ConcretizationTypeError:
        return False


# --------------------------------------------------------------------------
# attention
# --------------------------------------------------------------------------
def dot_product_attention(query, key, value, axis, *, query_axis, key_axis, bias=None,
                          mask=None, is_causal=False, scale=None):
    """Scaled dot-product attention, by name.

    ``query`` has the axes ``query_axis`` and ``axis`` (the features
    contracted with the keys'); ``key`` has ``key_axis`` and ``axis``;
    ``value`` has ``key_axis``.  Every other name (batch, heads, ...) is
    carried through, aligned by name.  The weights are
    ``softmax(query . key * scale + bias)`` over ``key_axis`` (``scale``
    defaults to ``1/sqrt(size of axis)``), where ``mask`` (bool, aligned by
    name) and, with ``is_causal``, ``key index <= query index`` allow; the
    result is the weights contracted with ``value`` over ``key_axis``.  For
    low-precision input (``bfloat16``) the scores and softmax are float32.

    >>> import namedarray as np
    >>> from namedarray import nn
    >>> q = np.ones((3, 4)).tag("seq", "kv")
    >>> k = v = np.ones((3, 4)).tag("key", "kv")
    >>> nn.dot_product_attention(q, k, v, "kv", query_axis="seq", key_axis="key",
    ...                          is_causal=True).named_shape
    {'seq': 3, 'kv': 4}
    """
    fn = "dot_product_attention"
    query, key, value = (_as_named(fn, a) for a in (query, key, value))
    if query_axis == key_axis:
        raise ValueError(f"{fn}: query_axis and key_axis are both {query_axis!r}; give "
                         "the keys' and values' sequence axis its own name "
                         f"(key.rename({query_axis}=...))")
    _name(fn, query, axis, "axis")
    _name(fn, key, axis, "axis")
    _name(fn, query, query_axis, "query_axis")
    _name(fn, key, key_axis, "key_axis")
    _name(fn, value, key_axis, "key_axis")
    for arg, x, other in (("query", query, key_axis), ("key", key, query_axis)):
        if other in x.named_shape:
            raise ValueError(f"{fn}: {arg} has axis {other!r} (named shape "
                             f"{x.named_shape}), the other sequence's name")
    if scale is None:
        scale = query.named_shape[axis] ** -0.5
    low = jnp.finfo(query.dtype).bits < 32 if query.dtype.kind == "f" else False
    # The scores are laid out as their dot_general gives them (shared names,
    # then the query's own, then the key's own) and the result in the query's
    # order (``axis`` replaced by the value's own names), as the same attention
    # hand-written with named einsums: a fixed order would add transposes.
    q, k = list(query.named_shape), list(key.named_shape)
    scores_names = ([n for n in q if n in k and n != axis] + [n for n in q if n not in k]
                    + [n for n in k if n not in q])
    scores = _np.einsum(_spec(q, k, scores_names), _conj(query), key,
                        preferred_element_type=jnp.float32 if low else None) * scale
    if bias is not None:
        scores = scores + bias
    if is_causal:
        causal = (_np.arange(query.named_shape[query_axis]).tag(query_axis)
                  >= _np.arange(key.named_shape[key_axis]).tag(key_axis))
        mask = causal if mask is None else _np.logical_and(mask, causal)
    if mask is not None:
        scores = _np.where(mask, scores, _np.asarray(jnp.finfo(scores.dtype).min,
                                                     dtype=scores.dtype))
    weights = softmax(scores, key_axis).astype(value.dtype)
    w, v = list(weights.named_shape), list(value.named_shape)
    own = [n for n in v if n not in w]
    out = [m for n in q for m in (own if n == axis else [n])]
    out += [n for n in dict.fromkeys(w + v) if n not in out and n != key_axis]
    return _np.einsum(_spec(w, v, out), _conj(weights), value)


def _spec(a, b, out):
    """The einsum subscripts ``...{a},...{b}->...{out}`` (positional axes
    broadcast as in ``vecdot``)."""
    return "...{%s},...{%s}->...{%s}" % (",".join(a), ",".join(b), ",".join(out))


def _conj(x):
    # the scores and the result are vecdots: the first operand conjugated
    return _np.conj(x) if x.dtype.kind == "c" else x


# --------------------------------------------------------------------------
# optimizers
# --------------------------------------------------------------------------
def decay_mask(params, stacked=()):
    """The weight-decay mask optax's ``mask=`` takes: ``True`` for every array
    with two or more axes, named ones counted (``len(x.dims)``); biases and
    norm scales (one axis) are left out.  (``x.ndim`` counts positional axes
    only, so ``lambda p: p.ndim > 1`` would exclude a fully named matrix.)
    Names in ``stacked`` (a name or a tuple: the axis layers are stacked along
    for ``np.scan``) are not counted, so a stacked norm scale is still left out:
    ``mask=lambda p: nn.decay_mask(p, stacked="layer")``.

    >>> import namedarray as np
    >>> from namedarray import nn
    >>> nn.decay_mask({"w": np.ones((2, 3)).tag("embed", "mlp"), "b": np.ones(3).tag("mlp")})
    {'b': False, 'w': True}
    >>> nn.decay_mask({"w": np.ones((2, 3, 4)).tag("layer", "embed", "mlp"),
    ...                "scale": np.ones((2, 3)).tag("layer", "embed")}, stacked="layer")
    {'scale': False, 'w': True}
    """
    stacked = (stacked,) if isinstance(stacked, str) else tuple(stacked)
    for name in stacked:
        check_name("decay_mask", "stacked", name)

    def counted(p):
        if isinstance(p, NamedArray):
            return sum(d is None or d not in stacked for d in p.dims)
        return len(jnp.shape(p))

    return jax.tree_util.tree_map(lambda p: counted(p) > 1, params,
                                  is_leaf=lambda v: isinstance(v, NamedArray))


#: ``jax.lax.top_k`` over a name (``namedarray.top_k``, the same function)
top_k = _np.top_k


__all__ = ["elementwise", *ACTIVATIONS, "softmax",
           "log_softmax", "layer_norm", "rms_norm", "dropout", "one_hot", "cross_entropy",
           "dot_product_attention", "decay_mask", "top_k"]

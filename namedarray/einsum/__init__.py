"""Named einsum and the dot family, all over one engine (``_engine.contract``).

Named axes go in braces in einsum subscripts; names the spec does not mention
are batched (aligned by name).  The NumPy signatures (``dot``, ``matmul``,
``tensordot``, ``vecdot``, ``inner``, ``outer``, ``matvec``, ``vecmat``) build a
subscripts string and call the same engine, so each contraction is one
``lax.dot_general``.  All take ``preferred_element_type=`` (the accumulation
dtype: ``int8 x int8 -> int32`` exact, ``bfloat16 -> float32``).

>>> import namedarray as np
>>> x = np.ones((2, 3, 4)).tag(None, "b", "k")
>>> y = np.ones((4, 5)).tag("k", "m")
>>> np.einsum("n{b,k},{k,m}->n{b,m}", x, y).named_shape
{'b': 3, 'm': 5}
>>> np.vecdot(x, np.ones(4).tag("k"), axis="k").named_shape
{'b': 3}
>>> a = np.array([[100, 100], [-128, 127]], dtype=np.int8)
>>> b = np.array([[100, 2], [100, 3]], dtype=np.int8)
>>> np.matmul(a, b, preferred_element_type=np.int32)
array([[20000,   500],
       [ -100,   125]], dtype=int32)
"""
from __future__ import annotations

import functools
import math
import operator
import string

import jax
import jax.numpy as jnp
import numpy as onp

from ..core.array import NamedArray, View, host_root, new, normalize_axis, on_host, rewrap
from ..frontend.engines import host
from ..frontend.engines.out import cast_out, store_out
from ..frontend.engines.views import fortran, laid_out, viewed
from ._spec import parse
from ._engine import as_operand, contract, numpy_path, numpy_strategy, opt_path, plan

__all__ = ["einsum", "einsum_path", "dot", "matmul", "tensordot", "vecdot", "inner",
           "outer", "matvec", "vecmat"]

_L = string.ascii_letters


# --------------------------------------------------------------------------
# einsum
# --------------------------------------------------------------------------
def _sublist_spec(args):
    """NumPy's interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``; a str
    in a sublist is an axis name."""
    out = args[-1] if len(args) % 2 else None
    args = args[:-1] if len(args) % 2 else args
    ops, terms = list(args[0::2]), list(args[1::2])

    def term(sub):
        lets, names = [], []
        for s in sub:
            if s is Ellipsis:
                lets.append("...")
            elif isinstance(s, str):
                names.append(s)
            else:
                i = operator.index(s)
                if not 0 <= i < 52:
                    raise ValueError(f"einsum: subscript {i} in a sublist is not in [0, 52)")
                lets.append(_L[26:][i] if i < 26 else _L[i - 26])
        return "".join(lets) + ("{" + ",".join(names) + "}" if names else "")
    spec = ",".join(term(t) for t in terms) + ("" if out is None else "->" + term(out))
    return spec, ops


def einsum(subscripts=None, *operands, out=None, dtype=None, order="K", casting="safe",
           optimize="auto", precision=None, preferred_element_type=None):
    """``numpy.einsum`` with named axes in braces.

    ``"n{b,k},{k,m}->n{b,m}"``: letters are positional subscripts as in NumPy,
    ``{...}`` lists axis names.  A name in the inputs but not the output is
    contracted (one ``dot_general``, plus a ``psum`` when ``nmap`` binds it);
    named axes the spec does not mention are batched.  ``optimize`` takes
    NumPy's values and any ``opt_einsum`` strategy (default ``"auto"``, as
    ``jax.numpy``; ``False`` contracts left to right).  ``preferred_element_type``
    is the accumulation and result dtype (``int8 -> int32``, ``bfloat16 ->
    float32``).

    >>> import namedarray as np
    >>> x = np.arange(6.0).reshape(2, 3).tag(None, "i")
    >>> np.einsum("n{i},n{i}->n", x, x)
    array([ 5., 50.])
    >>> np.einsum("{i},{i}->", x, x)   # every positional axis needs a letter
    Traceback (most recent call last):
    ...
    ValueError: einsum: subscripts '{i},{i}->' give operand 0 the positional subscripts '', but it has 1 positional axis (shape (2,), named shape {'i': 3})
    """
    if order is not None:   # (the memory layout only: checked as NumPy checks it)
        if not isinstance(order, str):
            raise TypeError(f"einsum: order must be str, not {type(order).__name__}")
        if order.upper() not in ("C", "F", "A", "K"):
            raise ValueError(f"einsum: order must be one of 'C', 'F', 'A', or 'K' (got "
                             f"{order!r})")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"einsum: casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe' (got {casting!r})")
    subscripts, operands = _spec_operands("einsum", subscripts, operands)
    ops = [as_operand(x) for x in operands]
    views = out is None and dtype is None and preferred_element_type is None and \
        len(operands) == 1 and isinstance(operands[0], NamedArray) and \
        _sums_nothing(subscripts, ops)
    if views:       # of data living on the host: NumPy's own view (nothing compiles)
        buf, root = host_root(operands[0])
        hv = None if buf is None else host.view_of("einsum", (subscripts, buf), {}, buf)
        if hv is not None and onp.may_share_memory(hv, buf):
            return viewed("einsum", operands[0], lambda x: einsum(subscripts, x),
                          result=on_host(hv), hosted=(hv, root))
    res = contract("einsum", subscripts, ops, preferred_element_type, dtype, casting,
                   optimize, precision)
    if views:
        return viewed("einsum", operands[0], lambda x: einsum(subscripts, x), result=res)
    if order is not None and order.upper() in "FA" and _fortran_order(order, ops):
        res = fortran(res)
    elif out is None and (order is None or order.upper() == "K"):
        res = _order_k(subscripts, operands, ops, res)
    if out is not None:
        _check_out_array("einsum", out)
        res = cast_out("einsum", out, res, casting, "einsum")
    return store_out("einsum", out, res)


def _order_k(subscripts, operands, ops, res):
    """``res`` laid out in memory as NumPy's ``order="K"`` einsum lays it out:
    NumPy's iterator orders the axes by the operands' strides (smallest
    innermost; where operands disagree, C order wins), and the output takes
    that order (``np.einsum("ij,jk->ki", a, b)`` is Fortran-ordered).  Eager,
    positional calls only: under a trace the spec's order is the layout
    (docs/design.md §1, the layout rule)."""
    if not isinstance(res, NamedArray) or res.ndim < 2 or res.names or res.mapped or \
            isinstance(res.data, jax.core.Tracer) or "{" in subscripts or \
            any(x.names or x.mapped for x in ops):
        return res
    try:
        spec = parse(subscripts, "einsum")
    except ValueError:
        return res
    terms = []
    for t, x in zip(spec.inputs, ops):
        labels = []
        for let in t.letters:
            if let == "...":
                n = x.ndim - (len(t.letters) - 1)
                labels += [("...", j) for j in range(n - 1, -1, -1)]
            else:
                labels.append(let)
        if len(labels) != x.ndim:
            return res
        terms.append(labels)
    n_ell = max([sum(1 for v in t if isinstance(v, tuple)) for t in terms] or [0])
    ellipsis = [("...", j) for j in range(n_ell - 1, -1, -1)]
    if spec.output is None:
        counts = {}
        for t in terms:
            for v in t:
                if not isinstance(v, tuple):
                    counts[v] = counts.get(v, 0) + 1
        out = ellipsis + sorted(v for v, c in counts.items() if c == 1)
    else:
        out = []
        for let in spec.output.letters:
            out += ellipsis if let == "..." else [let]
    if len(out) != res.ndim or any(isinstance(v, tuple) and v not in out
                                   for t in terms for v in t):
        return res
    strides = [_element_strides(a, x) for a, x in zip(operands, ops)]
    axes = k_order(terms, out, [x.shape for x in ops], strides)
    return laid_out(res, axes)


def _element_strides(a, x):
    """The strides of the operand (in elements) in the memory it lies in."""
    if isinstance(a, onp.ndarray) and a.itemsize:
        return [s // a.itemsize for s in a.strides]
    if isinstance(a, View) and a.ndim > 1:
        return [s // x.dtype.itemsize for s in a.strides]
    return [math.prod(x.shape[k + 1:]) for k in range(x.ndim)]


def k_order(terms, out, shapes, strides):
    """The output axes of an einsum, outermost first, in NumPy's iterator's
    ``order="K"``: the iteration axes (the output's, then the summed labels
    in code order) sorted, innermost first, by the operands' absolute strides
    (a stable insertion sort; an operand without the axis, or of length 1
    along it, has no say; where operands disagree, the C order stays), as
    NumPy's ``npyiter_find_best_axis_ordering``.

    >>> k_order([["i", "j"], ["j", "k"]], ["k", "i"], [(2, 3), (3, 4)],
    ...         [[3, 1], [4, 1]])
    (1, 0)
    """
    it = list(out) + sorted({v for t in terms for v in t if v not in out},
                            key=lambda v: (isinstance(v, tuple), str(v)))
    n = len(it)
    rows = []          # per iteration axis, the stride of each operand along it
    for lab in it:
        rows.append([sum(s[k] for k, v in enumerate(t) if v == lab and sh[k] != 1)
                     for t, sh, s in zip(terms, shapes, strides)])
    data = rows[::-1]  # NumPy's axis data: innermost (last C axis) first
    perm = list(range(n))
    for i0 in range(1, n):
        ipos, s0 = i0, data[perm[i0]]
        for i1 in range(i0 - 1, -1, -1):
            ambiguous, swap = True, False
            for a, b in zip(s0, data[perm[i1]]):
                if a and b:
                    if abs(b) <= abs(a):
                        swap = False
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if not ambiguous:
                if not swap:
                    break
                ipos = i1
        if ipos != i0:
            perm.insert(ipos, perm.pop(i0))
    inner_first = [n - 1 - j for j in perm]
    return tuple(k for k in reversed(inner_first) if k < len(out))


def _fortran_order(order, ops):
    """Whether the result is laid out in Fortran order: ``order="F"``, or
    ``"A"`` with every operand Fortran-contiguous (NumPy's memory orders)."""
    if order.upper() == "F":
        return True
    return all(x.flags.f_contiguous for x in ops)     # (a vector is: NumPy's test)


def _check_out_array(fn, out):
    if not isinstance(out, (NamedArray, onp.ndarray)):
        raise TypeError(f"{fn}: out must be an array, got {type(out).__name__}")


def _spec_operands(fn, subscripts, operands):
    """``(subscripts string, operands)`` of NumPy's two calling forms (a
    string, or operands interleaved with sublists)."""
    if subscripts is None and not operands:
        raise ValueError(f"{fn}: No input operands")
    if isinstance(subscripts, str):
        return subscripts, operands
    try:
        return _sublist_spec((subscripts,) + operands)
    except TypeError:
        raise TypeError(f"{fn}: subscripts must be a str, or the operands interleaved "
                        f"with sublists of ints (got {type(subscripts).__name__} "
                        "first)") from None


def _sums_nothing(subscripts, ops):
    """Whether ``einsum(subscripts, *ops)`` is NumPy's view of its one
    positional operand: every subscript is kept (a transpose, a diagonal)."""
    if len(ops) != 1 or ops[0].names or ops[0].mapped or "{" in subscripts:
        return False
    spec = parse(subscripts, "einsum")
    lets = spec.inputs[0].letters
    if spec.output is None:         # NumPy's implicit output: a repeat is summed
        return len(set(lets)) == len(lets)
    return set(lets) <= set(spec.output.letters)


def einsum_path(subscripts=None, *operands, optimize="greedy"):
    """``numpy.einsum_path``: the contraction order, as ``(["einsum_path", (i,
    j), ...], report)``: NumPy's own for NumPy's ``optimize`` values
    (``"greedy"``, ``"optimal"``, a bool, a ``(strategy, memory limit)`` pair,
    an explicit path), ``opt_einsum``'s for its other strategies; names in
    braces allowed.

    >>> import namedarray as np
    >>> a, b = np.ones((2, 3)), np.ones((3, 4)).tag(None, "m")
    >>> np.einsum_path("ij,j{m}->i{m}", a, b)[0]
    ['einsum_path', (0, 1)]
    """
    subscripts, operands = _spec_operands("einsum_path", subscripts, operands)
    ops = [as_operand(x) for x in operands]
    if numpy_strategy(optimize) and "{" not in subscripts and not any(x.names for x in ops):
        # NumPy's subscripts: NumPy's own path and report
        path, info = numpy_path("einsum_path", subscripts, [x.shape for x in ops], optimize)
    else:
        p = plan("einsum_path", subscripts, ops)[0]
        path, info = opt_path(p.eq, p.opt_shapes, optimize, "einsum_path")
    return ["einsum_path", *path], str(info)


# --------------------------------------------------------------------------
# the NumPy dot family: a subscripts string per case, cached
# --------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _dot_spec(na, nb):
    a, b = _L[:na - 1], _L[na - 1:na + nb - 3] if nb >= 2 else ""
    if na == 0 or nb == 0:
        a, b = _L[:na], _L[na:na + nb]
        return f"{a},{b}->{a}{b}"
    if nb == 1:
        return f"{a}Z,Z->{a}"
    c = _L[na + nb - 3]
    return f"{a}Z,{b}Z{c}->{a}{b}{c}"


@functools.lru_cache(maxsize=None)
def _inner_spec(na, nb):
    if na == 0 or nb == 0:
        return _dot_spec(na, nb)
    a, b = _L[:na - 1], _L[na - 1:na + nb - 2]
    return f"{a}Z,{b}Z->{a}{b}"


_MATMUL = {(False, False): "i,i->", (False, True): "j,...jk->...k",
           (True, False): "...ij,j->...i", (True, True): "...ij,...jk->...ik"}


def _ops(fn, *xs):
    return [as_operand(x) for x in xs]


def dot(a, b, out=None, *, precision=None, preferred_element_type=None):
    """``numpy.dot``: sum over the last axis of ``a`` and the second-to-last of
    ``b``; named axes batched (aligned by name).

    >>> import namedarray as np
    >>> np.dot(np.ones((2, 3)), np.ones(3).tag(None) * np.arange(2).tag("b")).named_shape
    {'b': 2}
    """
    a, b = _ops("dot", a, b)
    res = contract("dot", _dot_spec(a.ndim, b.ndim), [a, b], preferred_element_type,
                   precision=precision, core=True)
    return store_out("dot", out, res)


def matmul(a, b, /, out=None, *, dtype=None, casting="same_kind", precision=None,
           preferred_element_type=None):
    """``numpy.matmul`` (``a @ b``): positional batch axes broadcast; named axes
    batched (aligned by name).

    >>> import namedarray as np
    >>> np.matmul(np.ones((5, 2, 3)), np.ones((3, 4))).shape
    (5, 2, 4)
    """
    a = a if type(a) is NamedArray else as_operand(a)
    b = b if type(b) is NamedArray else as_operand(b)
    na, nb = a.ndim, b.ndim
    if not (na and nb):
        k = 0 if na == 0 else 1
        raise ValueError(f"matmul: operand {k} has no positional axes (shape (), named "
                         f"shape {(a, b)[k].named_shape}); matmul needs at least one")
    res = contract("matmul", _MATMUL[na > 1, nb > 1], [a, b], preferred_element_type, dtype,
                   casting, "auto", precision, core=True)
    return store_out("matmul", out, res)


def inner(a, b, /, *, precision=None, preferred_element_type=None):
    """``numpy.inner``: sum over the last positional axes; named axes batched.

    >>> import namedarray as np
    >>> np.inner(np.arange(3.0), np.arange(3.0).tag(None) + np.zeros(2).tag("b"))
    NamedArray(named_shape={'b': 2}, shape=(), dtype=float64,
         dims=('b',),
         data=array([5., 5.]))
    """
    a, b = _ops("inner", a, b)
    return contract("inner", _inner_spec(a.ndim, b.ndim), [a, b], preferred_element_type,
                    precision=precision, core=True)


def _flat(x):
    if x.ndim == 1:
        return x
    return new(x.data.reshape((-1,) + x.data.shape[x.ndim:]), (None,) + x.names, x.mapped)


def outer(a, b, out=None, *, precision=None, preferred_element_type=None):
    """``numpy.outer`` of the flattened positional axes; named axes batched.

    >>> import namedarray as np
    >>> np.outer(np.arange(2), np.arange(3))
    array([[0, 0, 0],
           [0, 1, 2]])
    """
    a, b = _ops("outer", a, b)
    res = contract("outer", "i,j->ij", [_flat(a), _flat(b)], preferred_element_type,
                   precision=precision, core=True)
    return store_out("outer", out, res)


def _conj(x):
    return rewrap(x, jnp.conj(x.data)) if x.dtype.kind == "c" else x


@functools.lru_cache(maxsize=None)
def _vecdot_spec(na, nb, axis):
    if isinstance(axis, str):
        n = max(na, nb)   # loop axes broadcast right-aligned
        return f"{_L[n - na:n]}{{{axis}}},{_L[n - nb:n]}{{{axis}}}->{_L[:n]}"
    ia = normalize_axis("vecdot", axis, na)
    ib = normalize_axis("vecdot", axis, nb)
    n = max(na, nb) - 1
    la, lb = _L[n - na + 1:n], _L[n - nb + 1:n]
    return f"{la[:ia]}Z{la[ia:]},{lb[:ib]}Z{lb[ib:]}->{_L[:n]}"


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    """``numpy.vecdot``: ``sum(conj(x1) * x2)`` over ``axis``, which may name
    an axis (``axis="k"``, contracted by name); other axes broadcast.

    >>> import namedarray as np
    >>> x = np.ones((2, 4)).tag(None, "k")
    >>> np.vecdot(x, np.arange(4.0).tag("k"), axis="k")
    array([6., 6.])
    """
    a, b = _ops("vecdot", x1, x2)
    return contract("vecdot", _vecdot_spec(a.ndim, b.ndim, axis), [_conj(a), b],
                    preferred_element_type, precision=precision, core=True)


def matvec(x1, x2, /, *, precision=None, preferred_element_type=None):
    """``numpy.matvec``: ``x1 @ x2`` for a stack of matrices and vectors.

    >>> import namedarray as np
    >>> np.matvec(np.eye(2), np.array([1.0, 2.0]))
    array([1., 2.])
    """
    a, b = _ops("matvec", x1, x2)
    return contract("matvec", "...ij,...j->...i", [a, b], preferred_element_type,
                    precision=precision, core=True)


def vecmat(x1, x2, /, *, precision=None, preferred_element_type=None):
    """``numpy.vecmat``: ``conj(x1) @ x2`` for a stack of vectors and matrices.

    >>> import namedarray as np
    >>> np.vecmat(np.array([1.0, 2.0]), np.eye(2))
    array([1., 2.])
    """
    a, b = _ops("vecmat", x1, x2)
    return contract("vecmat", "...j,...jk->...k", [_conj(a), b], preferred_element_type,
                    precision=precision, core=True)


def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None):
    """``numpy.tensordot``; ``axes`` may mix ints and names:
    ``tensordot(a, b, axes=(["k", 0], ["k", 1]))``.  A name paired with an int
    or with another name contracts those two axes.

    >>> import namedarray as np
    >>> a = np.ones((2, 3)).tag(None, "k")
    >>> np.tensordot(a, np.ones((3, 5)).tag("k", None), axes=(["k"], ["k"])).shape
    (2, 5)
    """
    a, b = _ops("tensordot", a, b)
    spec, tag_a, tag_b, ren_b = _tensordot_spec(a.ndim, b.ndim, _axes_key(axes))
    if ren_b:
        b = b.rename(dict(ren_b))
    a, b = _tag("tensordot", a, dict(tag_a)), _tag("tensordot", b, dict(tag_b))
    return contract("tensordot", spec, [a, b], preferred_element_type, precision=precision,
                    core=True)


def _axes_key(axes):
    """``axes`` as a hashable ``int`` or pair of tuples."""
    if isinstance(axes, (int, onp.integer)):
        return operator.index(axes)
    try:
        pa, pb = axes
    except (TypeError, ValueError):
        raise ValueError(f"tensordot: axes must be an int or a pair of sequences, got "
                         f"{axes!r}") from None
    one = (int, str, onp.integer)
    return (pa,) if isinstance(pa, one) else tuple(pa), (pb,) if isinstance(pb, one) else tuple(pb)


@functools.lru_cache(maxsize=1024)
def _tensordot_spec(na, nb, axes):
    """(subscripts, a's axes to name, b's axes to name, b's names to rename)."""
    if isinstance(axes, int):
        if axes < 0 or axes > na or axes > nb:
            raise ValueError(f"tensordot: axes={axes} but the operands have {na} and {nb} "
                             "positional axes")
        pa, pb = range(na - axes, na), range(axes)
    else:
        pa, pb = axes
        if len(pa) != len(pb):
            raise ValueError(f"tensordot: axes {axes!r} pair {len(pa)} axes of a with "
                             f"{len(pb)} axes of b")
    pa = [p if isinstance(p, str) else normalize_axis("tensordot", p, na) for p in pa]
    pb = [q if isinstance(q, str) else normalize_axis("tensordot", q, nb) for q in pb]
    ints, names, tag_a, tag_b, ren_b = [], [], {}, {}, {}
    for p, q in zip(pa, pb):
        if isinstance(p, str):
            names.append(p)
            if not isinstance(q, str):
                tag_b[q] = p        # b's positional axis q takes a's name
            elif q != p:
                ren_b[q] = p
        elif isinstance(q, str):
            names.append(q)
            tag_a[p] = q            # a's positional axis p takes b's name
        else:
            ints.append((p, q))
    used_a = [p for p, _ in ints] + list(tag_a)
    used_b = [q for _, q in ints] + list(tag_b)
    if (len(set(used_a)) != len(used_a) or len(set(used_b)) != len(used_b)
            or len(set(names)) != len(names)):
        raise ValueError(f"tensordot: an axis is repeated in axes={axes!r}")
    # positions after tagging (a tagged axis leaves the positional ones)
    ia = [p - sum(t < p for t in tag_a) for p, _ in ints]
    ib = [q - sum(t < q for t in tag_b) for _, q in ints]
    na, nb = na - len(tag_a), nb - len(tag_b)
    la, lb = list(_L[:na]), list(_L[na:na + nb])
    for i, j in zip(ia, ib):
        lb[j] = la[i]
    fa = "".join(la[i] for i in range(na) if i not in ia)
    fb = "".join(lb[j] for j in range(nb) if j not in ib)
    nm = "{" + ",".join(names) + "}" if names else ""
    spec = f"{''.join(la)}{nm},{''.join(lb)}{nm}->{fa}{fb}"
    return spec, tuple(tag_a.items()), tuple(tag_b.items()), tuple(ren_b.items())


def _tag(fn, x, tags):
    """Name positional axes ``tags`` ({axis: name}) of ``x``."""
    if not tags:
        return x
    for i, name in tags.items():
        if name in x.names:
            raise ValueError(f"{fn}: cannot pair positional axis {i} with name {name!r}: "
                             f"the operand already has named axes {x.named_shape}")
    return x.tag(*[tags.get(i) for i in range(x.ndim)])

"""The einsum engine: parse -> plan -> pairwise ``dot_general``.

Every contraction in namedarray (``einsum``, ``dot``, ``matmul``,
``tensordot``, ``vecdot``, ``inner``, ``outer``, ...) is one call of
:func:`contract` with a subscripts string (see ``_spec.py`` for the syntax).

**Labels.**  Each physical dimension of each operand gets a label: a positional
subscript letter (``"i"``), an ellipsis dimension (``".0"`` is the last one), or
an axis name (``"{k"``; the brace keeps names and letters apart).  An operand's
named axes are labelled whether or not the spec mentions them, so names align
by name across operands; a name no term mentions goes to the output (batched).
A name the spec mentions that the operand does not carry must be bound by an
enclosing ``nmap``: it has no physical dimension here and is contracted by a
``psum`` over the map (the parallel layer) after the local work.

**Plan** (cached per spec, operand layouts, shapes, dtypes and options):

1. per operand: cast to the input dtype (NumPy's ``result_type``, or
   ``dtype=``), take diagonals of repeated letters, squeeze size-1 dimensions
   that broadcast, and sum labels no other operand nor the output has (in the
   accumulation dtype, so ``int8 -> int32`` stays exact);
2. contract pairs in the order ``opt_einsum`` gives (``optimize=``): each pair
   is ONE ``lax.dot_general`` whose batch dimensions are the shared labels still
   needed and whose contracting dimensions are the shared labels that are not;
   ``preferred_element_type`` is the accumulation dtype;
3. transpose the output into the layout rule's order: positional labels first,
   then the names in the order the spec writes them after ``->`` (names no term
   mentions follow, in the operands' order; without ``->`` the names stay in
   ``dot_general``'s order), then ``psum`` names bound by ``nmap`` that the
   output drops.

Eagerly, a plan runs as one cached ``jax.jit`` (one C++ dispatch, cheaper than
even one eager ``lax`` call); under a trace it runs inline, so the jaxpr holds
just the ``dot_general`` s (no nested call).  Gradients, ``jvp`` and ``vmap``
come from the ``lax`` rules: a ``dot_general`` with ``preferred_element_type``
transposes back to its input dtype.
"""
from __future__ import annotations

import string

import jax
import jax.numpy as jnp
import numpy as onp
import opt_einsum
from jax import lax
from jax.core import Tracer

from .. import parallel
from ..core.array import NamedArray, new, positional
from ..core.align import meet
from ..core.cache import Cache
from ..core.config import default_precision
from ..placement import contraction, localize, vmapped_only
from ._spec import Spec, parse

_PLANS = Cache()
#: plans of eager calls without dtype requests or mapped names, by a flatter key
_EAGER = Cache()
_INT32 = onp.dtype(onp.int32)


def as_operand(x) -> NamedArray:
    """NumPy's einsum/dot convert operands with ``asarray`` (no weak scalars)."""
    return x if isinstance(x, NamedArray) else positional(jnp.asarray(x))


def _describe(label: str) -> str:
    if label[0] == "{":
        return f"axis name {label[1:]!r}"
    if label[0] == ".":
        return "a broadcast ('...') dimension"
    return f"subscript {label!r}"


def _count_error(fn, spec, k, x, term, npos):
    lets = "".join(term.letters)
    return ValueError(
        f"{fn}: subscripts {spec.text!r} give operand {k} the positional subscripts "
        f"{lets!r}, but it has {npos} positional ax{'is' if npos == 1 else 'es'} (shape "
        f"{x.shape}"
        + (f", named shape {x.named_shape})" if x.names else ")"))


def accumulation_dtype(fn, in_dtype, pet):
    """Check ``preferred_element_type`` widens the input dtype (NumPy 'safe')."""
    pet = onp.dtype(pet)
    if not onp.can_cast(in_dtype, pet, "safe"):
        raise TypeError(
            f"{fn}: preferred_element_type={pet} cannot hold the input dtype "
            f"{in_dtype} (a narrowing or sign-changing accumulation); use a wider "
            f"type, e.g. {onp.promote_types(in_dtype, pet)}")
    return pet


def _sum(data, axes):
    if not axes:
        return data
    if data.dtype == bool:
        return jnp.any(data, axis=axes)
    return jnp.sum(data, axis=axes, dtype=data.dtype)


def opt_path(eq, shapes, optimize, fn="einsum"):
    """(path, report) for ``eq`` over operands of ``shapes``: an explicit path
    (checked as NumPy checks it), NumPy's own ``"greedy"``/``"optimal"``
    (``True``; or a ``(strategy, memory limit)`` pair) as NumPy's
    ``einsum_path`` finds it, ``False`` left to right, any other strategy
    from ``opt_einsum``.  A path entry may contract more than two operands."""
    if optimize is False:
        n = len(shapes)
        path = [(0,)] if n == 1 else [(0, 1)] + [(0, n - 1 - i) for i in range(1, n - 1)]
        optimize = path
    if numpy_strategy(optimize):
        return numpy_path(fn, eq, shapes, optimize)
    return opt_einsum.contract_path(eq, *shapes, shapes=True, optimize=optimize)


def numpy_strategy(optimize) -> bool:
    """Whether ``optimize`` is one of NumPy's values (not an ``opt_einsum``
    strategy): a bool, ``"greedy"``, ``"optimal"``, a ``(strategy, memory
    limit)`` pair, or an explicit path."""
    if isinstance(optimize, bool) or optimize in ("greedy", "optimal"):
        return True
    if not isinstance(optimize, (list, tuple)) or not optimize:
        return False
    if optimize[0] == "einsum_path" or all(isinstance(p, (list, tuple)) for p in optimize):
        return True
    return len(optimize) == 2 and optimize[0] in ("greedy", "optimal")


def numpy_path(fn, eq, shapes, optimize):
    """NumPy's ``einsum_path(eq)`` over stand-in operands of ``shapes`` (no
    data: the path depends on the shapes only); its errors named ``fn``."""
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] != "einsum_path" \
            and all(isinstance(p, (list, tuple)) for p in optimize):
        optimize = ["einsum_path", *(tuple(p) for p in optimize)]
    ops = [onp.broadcast_to(onp.zeros((), bool), s) for s in shapes]
    syms = list(dict.fromkeys(c for c in eq if c not in ",->"))
    if any(not (c.isascii() and c.isalpha()) for c in syms):
        # the engine's symbols (names) as NumPy's letters: the same path
        if len(syms) > 52:
            return opt_einsum.contract_path(eq, *shapes, shapes=True, optimize=optimize)
        letters = dict(zip(syms, string.ascii_letters))
        eq = "".join(letters.get(c, c) for c in eq)
    try:
        path, report = onp.einsum_path(eq, *ops, optimize=optimize)
    except (ValueError, TypeError, RuntimeError, KeyError) as e:
        raise type(e)(f"{fn}: {e}") from None
    return [tuple(p) for p in path[1:]], report


def _labels(fn, spec, ops, bound):
    """Label every physical dim of every operand; check sizes.

    Returns (labels per operand, size per label, names to batch, ellipsis rank)."""
    mentioned = {n for t in spec.inputs for n in t.names}
    if spec.output is not None:
        mentioned.update(spec.output.names)
    labels, sizes, where, batched, n_ell = [], {}, {}, [], 0
    for k, (x, term) in enumerate(zip(ops, spec.inputs)):
        lets, npos = term.letters, x.ndim
        if "..." in lets:
            e = npos - len(lets) + 1
            if e < 0:
                raise _count_error(fn, spec, k, x, term, npos)
            i = lets.index("...")
            lab = list(lets[:i]) + [f".{j}" for j in range(e - 1, -1, -1)] + list(lets[i + 1:])
            n_ell = max(n_ell, e)
        elif len(lets) != npos:
            raise _count_error(fn, spec, k, x, term, npos)
        else:
            lab = list(lets)
        for name in term.names:
            if name not in x.names and name not in bound:
                raise ValueError(
                    f"{fn}: subscripts {spec.text!r} name axis {name!r} for operand {k}, "
                    f"which has named axes {x.named_shape} (positional shape {x.shape}), "
                    "and no enclosing nmap binds it")
        batched += [d for d in x.names if d not in mentioned and d not in batched]
        lab += ["{" + d for d in x.names]
        seen = {}
        for l, s in zip(lab, x.data.shape):
            if seen.setdefault(l, s) != s:
                raise ValueError(f"{fn}: dimensions in operand {k} for collapsing "
                                 f"{_describe(l)} don't match ({seen[l]} != {s})")
            old = sizes.get(l)
            if old is None or (old == 1 and l[0] != "{"):
                sizes[l], where[l] = s, k
            elif old != s and (s != 1 or l[0] == "{"):
                j = where[l]
                if l[0] == "{":
                    raise ValueError(
                        f"{fn}: axis name {l[1:]!r} has size {old} in operand {j} (named "
                        f"shape {ops[j].named_shape}) but size {s} in operand {k} (named "
                        f"shape {x.named_shape})")
                raise ValueError(
                    f"{fn}: {_describe(l)} has size {old} in operand {j} (shape "
                    f"{ops[j].shape}) but size {s} in operand {k} (shape {x.shape}); they "
                    "do not broadcast")
        labels.append(lab)
    return labels, sizes, batched, n_ell


def _output(fn, spec, sizes, batched, n_ell, bound):
    """(positional output labels in order, output names): NumPy's implicit rule
    (labels seen once, letters sorted) when the spec has no ``->``."""
    ell = [f".{j}" for j in range(n_ell - 1, -1, -1)]
    if spec.output is None:
        counts: dict = {}
        for t in spec.inputs:
            for l in t.letters + tuple("{" + n for n in t.names):
                counts[l] = counts.get(l, 0) + 1
        out_pos = ell + sorted(l for l, c in counts.items() if c == 1 and l[0] not in ".{")
        out_names = [l[1:] for l, c in counts.items() if c == 1 and l[0] == "{"]
    else:
        lets = spec.output.letters
        if "..." in lets:
            i = lets.index("...")
            out_pos = list(lets[:i]) + ell + list(lets[i + 1:])
        elif n_ell:
            raise ValueError(f"{fn}: subscripts {spec.text!r}: the operands have broadcast "
                             "('...') dimensions but the output has no '...' to hold them")
        else:
            out_pos = list(lets)
        for l in lets:
            if l != "..." and l not in sizes:
                raise ValueError(f"{fn}: subscripts {spec.text!r}: output subscript {l!r} "
                                 "does not appear in an input")
        out_names = list(spec.output.names)
        for n in out_names:
            if "{" + n not in sizes and n not in bound:
                raise ValueError(
                    f"{fn}: subscripts {spec.text!r}: output axis name {n!r} is not an axis "
                    "of any operand, and no enclosing nmap binds it")
    return out_pos, out_names + [n for n in batched if n not in out_names]


def _dtypes(fn, ops, pet, dtype, casting):
    """(input dtype, result dtype): NumPy's result_type (or ``dtype=``), and
    ``preferred_element_type`` when given."""
    in_dts = [x.dtype for x in ops]
    if dtype is None:
        in_dtype = onp.result_type(*in_dts)
    else:
        in_dtype = dtype
        for k, d in enumerate(in_dts):
            if not onp.can_cast(d, in_dtype, casting):
                raise TypeError(f"{fn}: cannot cast operand {k} from {d} to "
                                f"dtype={in_dtype} with casting={casting!r}")
    return in_dtype, (in_dtype if pet is None else accumulation_dtype(fn, in_dtype, pet))


class Plan:
    """The static recipe for one einsum call: ``steps`` acting on the list of
    operand datas (slot ``k`` holds operand ``k``, a pair's result goes into its
    first slot), the output ``dims``, the ``path`` and the names to ``psum``.

    While building, ``labels[k]``, ``shapes[k]``, ``dts[k]`` track slot ``k``."""

    def __init__(self, fn, spec: Spec, ops, pet, dtype, casting, optimize, precision,
                 bound, core=False):
        if len(spec.inputs) != len(ops):
            raise ValueError(f"{fn}: subscripts {spec.text!r} have {len(spec.inputs)} input "
                             f"terms but {len(ops)} operands were given")
        if not ops:
            raise ValueError(f"{fn}: no operands given")
        labels, sizes, batched, n_ell = _labels(fn, spec, ops, bound)
        out_pos, out_names = _output(fn, spec, sizes, batched, n_ell, bound)
        out = set(out_pos) | {"{" + n for n in out_names}
        if core:
            _check_core(fn, labels, ops, out)
        in_dtype, out_dtype = _dtypes(fn, ops, pet, dtype, casting)
        # bool and narrow integers accumulate in int32 even without a request:
        # NumPy's wrapping result is its low bits, and XLA's int8 dot is ~50x slower
        self.wide = pet if pet is not None else (
            _INT32 if in_dtype.kind in "biu" and in_dtype.itemsize < 4 else None)
        self.acc, self.precision, self.steps = self.wide or in_dtype, precision, []
        self.labels, self.shapes = labels, [list(x.data.shape) for x in ops]
        self.dts = [in_dtype] * len(ops)
        self.steps += [_cast(k, in_dtype) for k, x in enumerate(ops) if x.dtype != in_dtype]

        # 1. per operand: diagonals, broadcast squeezes, sums of private labels
        for k in range(len(ops)):
            self._prepare(k, sizes)
        for k in range(len(ops)):
            self._reduce(k, out.union(*[set(m) for j, m in enumerate(labels) if j != k]))

        # 2. pairwise contractions in opt_einsum's order
        sym = _symbols(labels, out_pos)
        self.eq = ",".join("".join(sym[l] for l in lab) for lab in labels) + "->" + "".join(
            sym[l] for l in out_pos + ["{" + m for m in out_names if "{" + m in sizes])
        self.opt_shapes = [tuple(s) for s in self.shapes]
        n = len(ops)
        self.path = opt_path(self.eq, self.opt_shapes, optimize, fn)[0] if n >= 3 or (
            isinstance(optimize, (list, tuple)) and numpy_strategy(optimize)) else None
        slots = list(range(n))             # the path's operand list, as slots
        for group in (self.path or [(0, 1)] * (n - 1)):
            # the group's operands contracted pairwise into its first slot,
            # which goes to the end of the list (NumPy's and opt_einsum's rule)
            idx = sorted(group)
            chosen = [slots[t] for t in idx]
            slots = [s for t, s in enumerate(slots) if t not in idx]
            for k in range(1, len(chosen)):
                rest = [labels[s] for s in slots + chosen[k + 1:]]
                self._contract(chosen[0], chosen[k], out.union(*[set(m) for m in rest]))
            slots.append(chosen[0])
        if slots[0] != 0:
            self.steps.append(_move(slots[0]))
            for v in (labels, self.shapes, self.dts):
                v[0] = v[slots[0]]

        # 3. the output: leftover sums, positional labels first, dtype, psum
        self._reduce(0, out)
        lab = labels[0]
        named = [l for l in lab if l[0] == "{"]
        if spec.output is not None:        # the spec's named order, batched names after
            want = ["{" + n for n in out_names if "{" + n in lab]
            named = want + [l for l in named if l not in want]
        perm = tuple(lab.index(l) for l in out_pos) + tuple(lab.index(l) for l in named)
        if perm != tuple(range(len(perm))):
            self.steps.append(_transpose(perm))
        if self.dts[0] != out_dtype:
            self.steps.append(_cast(0, out_dtype))
        self.dims = (None,) * len(out_pos) + tuple(l[1:] for l in named)
        # a name nmap binds that the output drops: psum (after the local dot)
        self.psum = tuple(n for n in dict.fromkeys(n for t in spec.inputs for n in t.names)
                          if n in bound and n not in out_names)
        self.mapped = tuple((n, s) for n, s in bound.items() if n not in self.psum)
        if self.psum:
            self.steps.append(_psum(self.psum, self.dims, tuple(bound.items())))
        self.jitted = jax.jit(self.run)

    def run(self, *datas):
        vals = list(datas)
        for step in self.steps:
            step(vals)
        return vals[0]

    # -- building blocks (each appends steps and updates the slot's record) -----
    def _drop(self, k, axes, append=()):
        self.labels[k] = [l for i, l in enumerate(self.labels[k]) if i not in axes] + [
            self.labels[k][i] for i in append]
        self.shapes[k] = [s for i, s in enumerate(self.shapes[k]) if i not in axes] + [
            self.shapes[k][i] for i in append]

    def _prepare(self, k, sizes):
        lab = self.labels[k]
        while len(set(lab)) != len(lab):          # a repeated letter: its diagonal
            l = next(l for l in lab if lab.count(l) > 1)
            i = lab.index(l)
            j = lab.index(l, i + 1)
            self.steps.append(_diag(k, i, j))
            self._drop(k, (i, j), append=(i,))
            lab = self.labels[k]
        sq = tuple(i for i, l in enumerate(lab) if self.shapes[k][i] == 1 and sizes[l] != 1)
        if sq:                      # size 1 broadcasting (against 0 too): squeeze
            self.steps.append(_squeeze(k, sq))
            self._drop(k, sq)

    def _reduce(self, k, keep):
        """Sum the labels of slot ``k`` not in ``keep`` (in the accumulation dtype)."""
        axes = tuple(i for i, l in enumerate(self.labels[k]) if l not in keep)
        if axes:
            if self.wide is not None and self.dts[k] != self.acc:
                self.steps.append(_cast(k, self.acc))
                self.dts[k] = self.acc
            self.steps.append(_sumstep(k, axes))
            self._drop(k, axes)

    def _contract(self, a, b, keep):
        """One ``dot_general`` of slots ``a`` and ``b`` into slot ``a``."""
        labels, shapes = self.labels, self.shapes
        self._reduce(a, keep | set(labels[b]))    # private labels first (rare)
        self._reduce(b, keep | set(labels[a]))
        la, lb = labels[a], labels[b]
        batch = [l for l in la if l in lb and l in keep]
        con = [l for l in la if l in lb and l not in keep]
        dn = ((tuple(la.index(l) for l in con), tuple(lb.index(l) for l in con)),
              (tuple(la.index(l) for l in batch), tuple(lb.index(l) for l in batch)))
        cast = self.acc if self.dts[a] != self.dts[b] else None
        self.steps.append(_dot(a, b, dn, self.wide,
                               self.precision, cast))
        sa, sb = dict(zip(la, shapes[a])), dict(zip(lb, shapes[b]))
        labels[a] = batch + [l for l in la if l not in lb] + [l for l in lb if l not in la]
        shapes[a] = [sa.get(l, sb.get(l)) for l in labels[a]]
        if self.wide is not None or cast is not None:
            self.dts[a] = self.acc


def _check_core(fn, labels, ops, out):
    """The dot family's contracted subscripts are core dimensions of a NumPy
    gufunc: they must have one size (no size-1 broadcasting, unlike einsum)."""
    seen = {}
    for k, (lab, x) in enumerate(zip(labels, ops)):
        for l, s in zip(lab, x.data.shape):
            if l[0] in ".{" or l in out:
                continue
            j, t = seen.setdefault(l, (k, s))
            if t != s:
                raise ValueError(
                    f"{fn}: the contracted axis has size {t} in operand {j} (shape "
                    f"{ops[j].shape}) but size {s} in operand {k} (shape {x.shape}); a "
                    "contracted axis needs one size in both (it does not broadcast)")


def _symbols(labels, out_pos):
    """opt_einsum symbols: letters stand for themselves, other labels get
    symbols past the ASCII letters."""
    sym, extra = {}, 52
    for lab in labels + [out_pos]:
        for l in lab:
            if l not in sym:
                if len(l) == 1:
                    sym[l] = l
                else:
                    sym[l] = opt_einsum.get_symbol(extra)
                    extra += 1
    return sym


# -- steps: small closures over static arguments, acting on the list of datas --------
def _cast(k, dt):
    def step(vals):
        vals[k] = vals[k].astype(dt)
    return step


def _diag(k, i, j):
    def step(vals):
        vals[k] = jnp.diagonal(vals[k], axis1=i, axis2=j)
    return step


def _squeeze(k, axes):
    def step(vals):
        vals[k] = lax.squeeze(vals[k], axes)
    return step


def _sumstep(k, axes):
    def step(vals):
        vals[k] = _sum(vals[k], axes)
    return step


def _dot(i, j, dn, pet, precision, cast):
    def step(vals):
        a, b = vals[i], vals[j]
        if cast is not None:
            a, b = a.astype(cast), b.astype(cast)
        a, b, where = contraction(a, b, dn)
        vals[i] = lax.dot_general(a, b, dn, precision=precision, preferred_element_type=pet,
                                  out_sharding=where)
    return step


def _move(k):
    def step(vals):
        vals[0] = vals[k]
    return step


def _transpose(perm):
    def step(vals):
        vals[0] = lax.transpose(vals[0], perm)
    return step


def _psum(names, dims, mapped):
    def step(vals):
        x = new(vals[0], dims, mapped)
        if x.dtype == bool:
            vals[0] = parallel.pany(x, names).data
        else:
            vals[0] = parallel.psum(x, names).data
    return step


# --------------------------------------------------------------------------------------
def _opt_key(optimize):
    if isinstance(optimize, (list, tuple)):
        return tuple(p if isinstance(p, str) else tuple(p) for p in optimize)
    return optimize


def plan(fn, subscripts, ops, pet=None, dtype=None, casting="safe", optimize="auto",
         precision=None, core=False):
    """The cached plan for this call, the operand datas, and whether any is traced.

    The key is flat (hashing nested tuples costs more than the lookup saves)."""
    key = [subscripts, pet, dtype, casting,
           optimize if isinstance(optimize, (str, bool)) else _opt_key(optimize), precision,
           core]
    ops, mapped = meet(fn, ops)
    datas, traced = [], False
    for x in ops:
        d = x.data
        key += (x.dims, d.shape, d.dtype)
        datas.append(d)
        traced = traced or isinstance(d, Tracer)
    if mapped:
        key.append(mapped)
    bound = dict(mapped)
    key = tuple(key)
    p = _PLANS.get(key)
    if p is None:
        p = _PLANS.put(key, Plan(fn, parse(subscripts, fn), ops, pet, dtype, casting,
                                 optimize, precision, bound, core))
    return p, datas, traced


def _whole_vmapped(fn, subscripts, ops):
    """Operands with the names local ``nmap`` s ``vmap`` (one map each) made
    whole axes again, and those names: the batch dimensions move into the
    data (free), the plan contracts whole arrays in one ``dot_general``, and
    the caller cuts the result back to this instance's part (free too).  A
    contraction over a vmapped name is then one ``dot_general``, not a
    product the size of both operands and a ``psum`` over the map -- and so
    is its gradient: ``vmap`` would form a shared weight's gradient per
    instance (an outer product each) and sum the instances."""
    spec = parse(subscripts, fn)
    if spec.output is None or len(spec.inputs) != len(ops):
        return ops, ()
    vmapped = vmapped_only()
    held = dict.fromkeys(n for x in ops for n, _ in x.mapped)
    names = [n for n in held
             if n in vmapped
             and all(n in x.named_shape or n not in t.names
                     for t, x in zip(spec.inputs, ops))]
    if not names:
        return ops, ()
    local = [parallel.vmapped_names(fn, x, names) for x in ops]
    if any(set(v) != set(names) & set(dict(x.mapped)) for v, x in zip(local, ops)):
        return ops, ()     # a name vmapped in one operand, on a mesh in another: psum
    ops = [parallel.gather_names(fn, x, v, last=True).tag(*(None,) * x.ndim, *v) if v else x
           for v, x in zip(local, ops)]
    return ops, names


def contract(fn, subscripts, ops, pet=None, dtype=None, casting="safe", optimize="auto",
             precision=None, core=False) -> NamedArray:
    """Run ``subscripts`` on NamedArray operands ``ops`` (the whole engine):
    eagerly as the plan's one cached ``jax.jit``, inline under a trace.
    ``core=True`` (the NumPy dot family) refuses contracted subscripts whose
    sizes differ, where einsum broadcasts a size 1.  Without ``precision``,
    the dtype mode's (``config.default_precision``: the highest under
    NumPy's dtype defaults)."""
    if precision is None:
        precision = default_precision()
    if pet is None and dtype is None and isinstance(optimize, (str, bool)):
        # the common eager call: no dtype request, no mapped name, concrete
        # operands whose plan was built before: the plan's jitted call only
        key = [subscripts, casting, optimize, precision, core]
        for x in ops:
            d = x.data
            if x.mapped or isinstance(d, Tracer):
                break
            key += (x.dims, d.shape, d.dtype)
        else:
            p = _EAGER.get(tuple(key))
            if p is not None:
                return new(p.jitted(*[x.data for x in ops]), p.dims, ())
            key = tuple(key)
            p, datas, traced = plan(fn, subscripts, ops, pet, dtype, casting, optimize,
                                    precision, core)
            if not (traced or p.psum or p.mapped):
                _EAGER.put(key, p)
                return new(p.jitted(*datas), p.dims, ())
            return new(p.run(*datas) if traced or p.psum else p.jitted(*datas), p.dims,
                       p.mapped)
    if pet is not None:
        pet = onp.dtype(pet)
    if dtype is not None:
        dtype = onp.dtype(dtype)
    whole = ()
    if any(x.mapped for x in ops):
        ops, whole = _whole_vmapped(fn, subscripts, ops)
    p, datas, traced = plan(fn, subscripts, ops, pet, dtype, casting, optimize, precision,
                            core)
    out = new(p.run(*datas) if traced or p.psum else p.jitted(*datas), p.dims, p.mapped)
    return localize(fn, out, [n for n in whole if n in out.dims]) if whole else out

"""Lowering parity (docs/design.md, "Lowering parity"): every spelling of a
gather or a scatter -- by position with a NamedArray, jax or NumPy index, by
name, ``take``, ``take_along_axis``, ``choose``, ``.at[...]`` updates, ``x[i] = v``,
the named draws -- and its gradient lowers to the StableHLO the ``jax.numpy``
spelling of the same physical operation lowers to: the same gathers and
scatters (dimension numbers, slice sizes, index and update shapes and dtypes,
update computation), and no transpose or ``while`` loop that ``jax.numpy``'s
program lacks, under ``jax.jit``, ``jax.vmap``, ``np.nmap`` and ``lax.scan``.

The CPU forgives what an accelerator punishes (a scatter whose index has a
column per operand dimension is a serial loop on a TPU, and as fast as a native
one on the CPU), so this compares lowered text, never times.  Each row's values
are also checked against the ``jax.numpy`` spelling's on the same data.
"""
import re

import jax
import jax.numpy as jnp
import numpy as onp
import pytest

import namedarray as np

V, D, B, S, K, R = 32, 8, 4, 6, 3, 3
_rng = onp.random.default_rng(0)
EMB = _rng.standard_normal((V, D)).astype(onp.float32)
TOK = _rng.integers(0, V, (B, S)).astype(onp.int32)
IDS = onp.array([5, 0, 7, 7, 31], onp.int32)
X4 = _rng.standard_normal((4, 5, 6, K)).astype(onp.float32)     # (4, 5, 6) + "h"
I3 = onp.array([2, 0, 5], onp.int32)
J2 = onp.array([[1], [3]], onp.int32)
LOG = _rng.standard_normal((B, S, V)).astype(onp.float32)
IDX = _rng.integers(0, V, (B, S, K)).astype(onp.int32)
UPD = _rng.standard_normal((B, S, D)).astype(onp.float32)
SEL = _rng.integers(0, 3, (B, S)).astype(onp.int32)
CH = _rng.standard_normal((3, B, S)).astype(onp.float32)
MASK = onp.arange(V) % 3 == 0
KEY = onp.array([0, 7], onp.uint32)

ED = ("vocab", "embed")
BS = ("batch", "seq")
BSV = BS + ("vocab",)


class Row:
    """A named spelling and the ``jax.numpy`` spelling of the same physical
    operation: ``named(*args)`` takes NamedArrays (an argument given dims) and
    plain arrays (one given ``None``), and returns a NamedArray whose data is
    laid out as ``plain(*datas)``'s result."""

    def __init__(self, named, plain, *args, grad=True, values=True, nmap=True):
        self.named, self.plain, self.args = named, plain, args
        self.grad, self.values, self.nmap = grad, values, nmap


ROWS = {
    # -- by position -----------------------------------------------------------
    "untag(n)[NamedArray]": Row(lambda e, t: e.untag("vocab")[t], lambda e, t: e[t],
                                (EMB, ED), (TOK, BS)),
    "untag(n)[jax]": Row(lambda e, t: e.untag("vocab")[t], lambda e, t: e[t],
                         (EMB, ED), (TOK, None)),
    "untag(n)[numpy]": Row(lambda e: e.untag("vocab")[TOK], lambda e: e[TOK], (EMB, ED)),
    "untag(n)[list]": Row(lambda e: e.untag("vocab")[[3, 1, 3]], lambda e: e[jnp.asarray(
        [3, 1, 3])], (EMB, ED)),
    "untag(n)[0-d]": Row(lambda e, t: e.untag("vocab")[t], lambda e, t: e[t],
                         (EMB, ED), (onp.int32(4), None)),
    "positional[positional]": Row(lambda e, t: e[t], lambda e, t: e[t],
                                  (EMB, (None, None)), (TOK, (None, None))),
    "positional[NamedArray]": Row(lambda e, t: e[t], lambda e, t: jnp.moveaxis(e[t], -1, 0),
                                  (EMB, (None, None)), (TOK, BS)),
    "x[0, :, i]": Row(lambda x, i: x[0, :, i], lambda x, i: x[0, :, i],
                      (X4, (None, None, None, "h")), (I3, None)),
    "x[..., i]": Row(lambda x, i: x[..., i], lambda x, i: x[:, :, i],
                     (X4, (None, None, None, "h")), (I3, None)),
    "x[i, None]": Row(lambda x, i: x[i, None], lambda x, i: x[i, None],
                      (X4, (None, None, None, "h")), (I3, None)),
    "x[1:3, i]": Row(lambda x, i: x[1:3, i], lambda x, i: x[1:3, i],
                     (X4, (None, None, None, "h")), (I3, None)),
    "x[j, i]": Row(lambda x, j, i: x[j, i], lambda x, j, i: x[j, i],
                   (X4, (None, None, None, "h")), (J2, None), (I3, None)),
    "x[True]": Row(lambda x: x[True], lambda x: x[True], (X4, (None, None, None, "h"))),
    "x[j:named, i:named]": Row(lambda x, j, i: x[j, i],
                               lambda x, j, i: jnp.moveaxis(x[j[:, None], i[None, :]], 2, 0),
                               (X4, (None, None, None, "h")), (I3, ("j",)), (J2[:, 0], ("i",))),
    "x[i:named, 2]": Row(lambda x, i: x[i, 2], lambda x, i: jnp.moveaxis(x[i, 2], 0, 1),
                         (X4, (None, None, None, "h")), (I3, ("k",))),
    "x[..., i:named]": Row(lambda x, i: x[..., i], lambda x, i: x[:, :, i],
                           (X4, (None, None, None, "h")), (I3, ("k",))),
    # -- by name ---------------------------------------------------------------
    "x[{n: NamedArray}]": Row(lambda e, t: e[{"vocab": t}], lambda e, t: e[t],
                              (EMB, ED), (TOK, BS)),
    "x[{n: jax}]": Row(lambda e, i: e[{"vocab": i}], lambda e, i: e[i], (EMB, ED),
                       (IDS, None)),
    "x[{n: numpy}]": Row(lambda e: e[{"vocab": IDS}], lambda e: e[IDS], (EMB, ED)),
    "x[{n: int}]": Row(lambda e: e[{"vocab": 3}], lambda e: e[3], (EMB, ED)),
    "x[{n: slice}]": Row(lambda e: e[{"vocab": slice(2, 9, 2)}], lambda e: e[2:9:2],
                         (EMB, ED)),
    "x[{n: NamedArray}, pos]": Row(lambda x, i: x[{"h": i}, 1], lambda x, i: x[1][..., i],
                                   (X4, (None, None, None, "h")), (I3, ("k",))),
    # -- take ------------------------------------------------------------------
    "take(untag(n), NamedArray, axis=0)": Row(
        lambda e, t: np.take(e.untag("vocab"), t, axis=0),
        lambda e, t: jnp.take(e, t, axis=0), (EMB, ED), (TOK, BS)),
    "take(untag(n), jax, axis=0)": Row(
        lambda e, t: np.take(e.untag("vocab"), t, axis=0),
        lambda e, t: jnp.take(e, t, axis=0), (EMB, ED), (TOK, None)),
    "take(mode=clip)": Row(lambda e, t: np.take(e.untag("vocab"), t, axis=0, mode="clip"),
                           lambda e, t: jnp.take(e, t, axis=0, mode="clip"),
                           (EMB, ED), (TOK, BS)),
    "take(mode=wrap)": Row(lambda e, t: np.take(e.untag("vocab"), t, axis=0, mode="wrap"),
                           lambda e, t: jnp.take(e, t, axis=0, mode="wrap"),
                           (EMB, ED), (TOK, BS)),
    "take(mode=fill)": Row(lambda e, t: np.take(e.untag("vocab"), t, axis=0, mode="fill"),
                           lambda e, t: jnp.take(e, t, axis=0, mode="fill"),
                           (EMB, ED), (TOK, BS)),
    "take(axis=name)": Row(lambda e, i: np.take(e, i, axis="vocab"),
                           lambda e, i: jnp.take(e, i, axis=0), (EMB, ED), (IDS, None)),
    "take(positional, axis=1)": Row(lambda e, i: np.take(e, i, axis=1),
                                    lambda e, i: jnp.take(e, i, axis=1),
                                    (EMB, (None, None)), (I3, None)),
    "take(axis=None)": Row(lambda e, i: np.take(e, i), lambda e, i: jnp.take(e, i),
                           (EMB, (None, None)), (IDS, None)),
    # -- take_along_axis, choose -------------------------------------------------
    "take_along_axis(positional)": Row(
        lambda lg, i: np.take_along_axis(lg, i, axis=-1),
        lambda lg, i: jnp.take_along_axis(lg, i, axis=-1),
        (LOG, (None, None, None)), (IDX, (None, None, None))),
    "take_along_axis(axis=name)": Row(
        lambda lg, i: np.take_along_axis(lg, i, axis="vocab"),
        lambda lg, i: jnp.take_along_axis(lg, i, axis=-1),
        (LOG, BSV), (IDX, BSV), nmap=False),   # (nmap: "vocab" has two sizes)
    "take_along_axis(names ride)": Row(
        lambda lg, i: np.take_along_axis(lg, i, axis=0),
        lambda lg, i: jnp.take_along_axis(lg, i, axis=0),
        (LOG.transpose(2, 0, 1), (None,) + BS), (IDX.transpose(2, 0, 1), (None,) + BS)),
    "choose(named)": Row(lambda s, c: np.choose(s, c, mode="wrap"),
                         lambda s, c: jnp.choose(s, c, mode="wrap"), (SEL, BS),
                         (CH, (None,) + BS), grad=False),
    "choose(positional)": Row(lambda s, c: np.choose(s, c, mode="clip"),
                              lambda s, c: jnp.choose(s, c, mode="clip"), (SEL, (None, None)),
                              (CH, (None, None, None)), grad=False),
    # -- updates -----------------------------------------------------------------
    "untag(n).at[jax].add": Row(lambda e, t, u: e.untag("vocab").at[t].add(u),
                                lambda e, t, u: e.at[t].add(u),
                                (EMB, ED), (TOK, None), (UPD, (None, None, "embed"))),
    "untag(n).at[jax].set": Row(lambda e, t, u: e.untag("vocab").at[t].set(u),
                                lambda e, t, u: e.at[t].set(u),
                                (EMB, ED), (TOK, None), (UPD, (None, None, "embed"))),
    "untag(n).at[jax].multiply": Row(lambda e, t, u: e.untag("vocab").at[t].multiply(u),
                                     lambda e, t, u: e.at[t].multiply(u),
                                     (EMB, ED), (TOK, None), (UPD, (None, None, "embed"))),
    "untag(n).at[jax].max": Row(lambda e, t, u: e.untag("vocab").at[t].max(u),
                                lambda e, t, u: e.at[t].max(u),
                                (EMB, ED), (TOK, None), (UPD, (None, None, "embed"))),
    "untag(n).at[jax].get": Row(lambda e, t: e.untag("vocab").at[t].get(),
                                lambda e, t: e.at[t].get(), (EMB, ED), (TOK, None)),
    "at[{n: NamedArray}].add": Row(lambda lg, t, u: lg.at[{"vocab": t}].add(u),
                                   lambda lg, t, u: lg.at[_rows(), _cols(), t].add(u),
                                   (LOG, BSV), (TOK, BS), (UPD[..., 0], BS)),
    "at[{n: NamedArray}].set": Row(lambda lg, t, u: lg.at[{"vocab": t}].set(u),
                                   lambda lg, t, u: lg.at[_rows(), _cols(), t].set(u),
                                   (LOG, BSV), (TOK, BS), (UPD[..., 0], BS)),
    "at[{n: NamedArray}].min": Row(lambda lg, t, u: lg.at[{"vocab": t}].min(u),
                                   lambda lg, t, u: lg.at[_rows(), _cols(), t].min(u),
                                   (LOG, BSV), (TOK, BS), (UPD[..., 0], BS)),
    "x[jax] = v": Row(lambda e, t, u: _assigned(e.untag("vocab"), t, u),
                      lambda e, t, u: e.at[t].set(u),
                      (EMB, ED), (TOK, None), (UPD, (None, None, "embed"))),
    "x[{n: NamedArray}] = v": Row(lambda lg, t, u: _assigned(lg, {"vocab": t}, u),
                                  lambda lg, t, u: lg.at[_rows(), _cols(), t].set(u),
                                  (LOG, BSV), (TOK, BS), (UPD[..., 0], BS)),
    "x[mask] = 0": Row(lambda e, m: _assigned(e, m, 0.0),
                       lambda e, m: jnp.where(m[:, None], 0.0, e),
                       (EMB, (None, None)), (MASK, None)),
    "put_along_axis(axis=name)": Row(
        lambda lg, i, v: _put_along(lg, i, v),
        lambda lg, i, v: jnp.put_along_axis(lg, i, v, axis=-1, inplace=False),
        (LOG, BSV), (IDX, BSV),
        (LOG[..., :K] * 2, BSV)),
    # -- the named draws that index -----------------------------------------------
    # (a draw per named slice, the slice's index folded into the key: jax.numpy's
    # twin maps the same draw over that axis)
    "Generator.choice(a)": Row(
        lambda e, k: np.random.default_rng(k).choice(e.untag("vocab"), size=(B, S)),
        lambda e, k: _per_slice(lambda c, key: jnp.take(
            c, jax.random.choice(key, V, (B, S)), axis=0), e, k),
        (EMB, ED), (KEY, None)),
    "Generator.permutation(axis=name)": Row(
        lambda e, k: np.random.default_rng(k).permutation(e, axis="vocab"),
        lambda e, k: _per_slice(lambda c, key: jnp.take(
            c, jax.random.permutation(key, V), axis=0), e, k),
        (EMB, ED), (KEY, None)),
    "Generator.choice(positional)": Row(
        lambda e, k: np.random.default_rng(k).choice(e, size=(B, S)),
        lambda e, k: jnp.take(e, jax.random.choice(_draw_key(k), V, (B, S)), axis=0),
        (EMB, (None, None)), (KEY, None)),
}


def _draw_key(k):
    """The key of the first draw of ``np.random.default_rng(k)`` (the key data ``k``)."""
    return jax.random.split(jax.random.wrap_key_data(k))[1]


def _per_slice(draw, e, k):
    """``draw(column, key)`` for each column of ``e`` with its index folded into ``k``."""
    key = _draw_key(k)
    return jax.vmap(lambda c, i: draw(c, jax.random.fold_in(key, i)), in_axes=(1, 0),
                    out_axes=-1)(e, jnp.arange(D, dtype=jnp.uint32))


def _rows():
    return jnp.arange(B)[:, None]


def _cols():
    return jnp.arange(S)


def _assigned(x, idx, value):
    x = x.copy()
    x[idx] = value
    return x


def _put_along(lg, i, v):
    out = lg.copy()
    np.put_along_axis(out, i, v, axis="vocab")
    return out


# --------------------------------------------------------------------------
# reading lowered text
# --------------------------------------------------------------------------
_FUNC = re.compile(r"^\s*func\.func (?:public |private )?@([\w.$-]+)\(", re.M)
_CALL = re.compile(r"\bcall @([\w.$-]+)\(")
_OP = re.compile(r'"stablehlo\.(gather|scatter)"\((?:[^()]|\([^()]*\))*\)\s*<\{(.*?)\}>'
                 r'(?:\s*\(\{(.*?)\}\))?\s*:\s*\(([^)]*)\)\s*->\s*(\S+)', re.S)
_COUNTED = ("transpose", "while")


def lowered(f, *args):
    """The gathers and scatters of ``jax.jit(f).lower(*args)`` (one entry per
    execution: a private function's ops count once per call site), each as
    (op, attributes, update computation, operand types, result type), and the
    number of transposes and while loops."""
    text = jax.jit(f).lower(*args).as_text()
    heads = list(_FUNC.finditer(text))
    funcs = {m.group(1): text[m.end():heads[k + 1].start() if k + 1 < len(heads) else None]
             for k, m in enumerate(heads)}
    times = dict.fromkeys(funcs, 0)

    def visit(name, n):
        times[name] += n
        for callee in _CALL.findall(funcs[name]):
            visit(callee, n)
    visit("main", 1)
    ops, counts = [], dict.fromkeys(_COUNTED, 0)
    for name, body in funcs.items():
        for m in _OP.finditer(body):
            kind, attrs, region, operands, result = m.groups()
            ops += [(kind, " ".join(attrs.split()),
                     tuple(re.findall(r"stablehlo\.(\w+)", region or "")),
                     operands.strip(), result)] * times[name]
        for op in _COUNTED:
            counts[op] += times[name] * len(re.findall(rf"\bstablehlo\.{op}\b", body))
    return sorted(ops), counts


_INSTR = re.compile(r"^\s*(?:ROOT\s+)?\S+\s*=\s*(\S+)\s+(\w[\w-]*)\((.*?)\)(?:,\s*(.*))?$",
                    re.M)
_NOISE = re.compile(r",?\s*(?:metadata|to_apply|backend_config|frontend_attributes|sharding)="
                    r"(?:\{[^{}]*\}|\S+)")


def compiled(f, *args):
    """The gathers and scatters of the optimized HLO of ``jax.jit(f)`` (result
    shape and attributes), and the number of while loops, transposes and copies."""
    text = jax.jit(f).lower(*args).compile().as_text()
    ops, counts = [], dict.fromkeys(("while", "transpose", "copy"), 0)
    for shape, op, _, attrs in _INSTR.findall(text):
        if op in ("gather", "scatter"):
            ops.append((op, re.sub(r"\{[\d,]*\}$", "", shape), _NOISE.sub("", attrs)))
        elif op in counts:
            counts[op] += 1
    return sorted(ops), counts


def assert_parity(named, plain, *args):
    got, want = lowered(named, *args), lowered(plain, *args)
    assert got[0] == want[0], "the gathers/scatters differ:\n  named: " + "\n         ".join(
        map(str, got[0])) + "\n  jnp:   " + "\n         ".join(map(str, want[0]))
    for op in _COUNTED:
        assert got[1][op] <= want[1][op], (op, got[1], want[1])


# --------------------------------------------------------------------------
# the contexts: jit, grad, vmap, nmap, scan
# --------------------------------------------------------------------------
def _stacked(data, axis):
    """``R`` copies of ``data`` along a new ``axis`` (floats shifted, to differ)."""
    d = jnp.asarray(data)
    return jnp.stack([d + k if d.dtype.kind == "f" else d for k in range(R)], axis)


def _wrap(row, datas, extra=()):
    return [d if dims is None else np.NamedArray(d, dims + extra)
            for d, (_, dims) in zip(datas, row.args)]


def _loss(f):
    return jax.grad(lambda *a: jnp.sum(jnp.square(f(*a))))


def _in_jit(row):
    """The spellings under ``jax.jit``: (named, jnp, the arguments)."""
    return (lambda *d: row.named(*_wrap(row, d)).data, row.plain,
            [jnp.asarray(a) for a, _ in row.args])


def _in_vmap(row):
    """Under ``jax.vmap`` over a leading axis of every argument."""
    named, plain, _ = _in_jit(row)
    return jax.vmap(named), jax.vmap(plain), [_stacked(a, 0) for a, _ in row.args]


def _in_scan(row):
    """In the body of a ``jax.lax.scan`` over a leading axis of every argument."""
    named, plain, _ = _in_jit(row)
    return _scanned(named), _scanned(plain), [_stacked(a, 0) for a, _ in row.args]


def _scanned(f):
    return lambda *a: jax.lax.scan(lambda c, d: (c, f(*d)), 0.0, a)[1]


def _is_named(row):
    return [dims is not None for _, dims in row.args]


def _with_rep(row, datas):
    return _wrap(row, datas, ("rep",))


def _in_nmap(row):
    """Inside ``np.nmap`` over a name "rep" that every named argument has last;
    jax.numpy's twin is ``jax.vmap`` over that axis (plain arguments are
    closed over), its result laid out as the named one."""
    def named(*datas):
        return np.nmap(row.named, axes=["rep"])(*_with_rep(row, datas))

    def plain(*datas):
        out = jax.eval_shape(named, *datas).dims.index("rep")
        return jax.vmap(row.plain, in_axes=[-1 if m else None for m in _is_named(row)],
                        out_axes=out)(*datas)
    return (lambda *d: named(*d).data, plain,
            [_stacked(a, -1) if m else jnp.asarray(a)
             for (a, _), m in zip(row.args, _is_named(row))])


def _in_np_scan(row):
    """In the body of ``np.scan`` over a name "rep" that every named argument
    has last; jax.numpy's twin is ``jax.lax.scan`` over that axis moved in
    front (plain arguments are closed over), its stacked result laid out as
    the named one (the stacked name after the positional axes)."""
    m = _is_named(row)

    def named(*datas):
        xs = [a for a, k in zip(_with_rep(row, datas), m) if k]
        rest = [d for d, k in zip(datas, m) if not k]
        return np.scan(lambda c, x: (c, row.named(*_merged(m, x, rest))), 0.0, xs,
                       axis="rep")[1]

    def plain(*datas):
        xs = [jnp.moveaxis(d, -1, 0) for d, k in zip(datas, m) if k]
        rest = [d for d, k in zip(datas, m) if not k]
        ys = jax.lax.scan(lambda c, x: (c, row.plain(*_merged(m, x, rest))), 0.0, xs)[1]
        return jnp.moveaxis(ys, 0, jax.eval_shape(named, *datas).dims.index("rep"))
    return (lambda *d: named(*d).data, plain,
            [_stacked(a, -1) if k else jnp.asarray(a) for (a, _), k in zip(row.args, m)])


def _merged(mask, mapped, rest):
    it, other = iter(mapped), iter(rest)
    return [next(it) if k else next(other) for k in mask]


def _with_grad(context):
    def ctx(row):
        named, plain, datas = context(row)
        return _loss(named), _loss(plain), datas
    return ctx


CONTEXTS = {"jit": _in_jit, "vmap": _in_vmap, "nmap": _in_nmap, "scan": _in_scan,
            "np.scan": _in_np_scan}
CONTEXTS.update({f"{k}-grad": _with_grad(v) for k, v in list(CONTEXTS.items())})

# the rows that run in every context (the others run under jit, with their gradient)
EVERYWHERE = ["untag(n)[NamedArray]", "untag(n)[jax]", "x[{n: NamedArray}]",
              "take(untag(n), NamedArray, axis=0)", "take_along_axis(axis=name)",
              "at[{n: NamedArray}].add", "untag(n).at[jax].add", "choose(named)"]
CASES = [(r, c) for r in ROWS for c in ("jit", "jit-grad") if c == "jit" or ROWS[r].grad] + [
    (r, c) for r in EVERYWHERE for c in CONTEXTS
    if not c.startswith("jit") and (ROWS[r].grad or not c.endswith("grad"))
    and (ROWS[r].nmap or not c.startswith("nmap"))]


@pytest.mark.parametrize("row,context", CASES, ids=[f"{r}-{c}" for r, c in CASES])
def test_lowers_as_jax_numpy(row, context):
    r = ROWS[row]
    f, g, datas = CONTEXTS[context](r)
    if r.values:
        got, want = jax.jit(f)(*datas), jax.jit(g)(*datas)
        onp.testing.assert_allclose(onp.asarray(got), onp.asarray(want), rtol=1e-5,
                                    atol=1e-6)
    assert_parity(f, g, *datas)


# the rows whose optimized HLO is compared too (a scatter the backend cannot
# emit natively is a while loop there: on a TPU, not on the CPU, which emits
# every scatter natively; on the CPU this compares the optimized gathers and
# scatters, and the copies and transposes)
COMPILED = ["untag(n)[NamedArray]", "untag(n)[jax]", "x[{n: NamedArray}]",
            "take(untag(n), NamedArray, axis=0)", "take_along_axis(names ride)",
            "choose(named)", "at[{n: NamedArray}].add", "untag(n).at[jax].add"]


@pytest.mark.parametrize("row,context", [(r, c) for r in COMPILED for c in (
    "jit", "jit-grad") if c == "jit" or ROWS[r].grad])
def test_compiles_as_jax_numpy(row, context):
    f, g, datas = CONTEXTS[context](ROWS[row])
    (got, n), (want, m) = compiled(f, *datas), compiled(g, *datas)
    assert got == want
    for op in n:
        assert n[op] <= m[op], (op, n, m)


def test_lookup_inside_an_nmap_over_the_tokens_first_name():
    """Data parallelism as a user writes it: the lookup inside ``np.nmap`` over
    "batch", which only the tokens have (the table is shared): the gather and
    its gradient's scatter are ``jax.vmap``'s of ``emb[tokens]``, with a
    one-column index.  (The map's own layout -- it moves "batch" last on
    entry and returns it last -- is ``np.nmap``'s, not this test's subject.)"""
    def named(e, t):
        return np.nmap(lambda e, t: e.untag("vocab")[t], axes=["batch"])(
            np.NamedArray(e, ED), np.NamedArray(t, BS)).data

    def plain(e, t):
        return jax.vmap(lambda e, t: e[t], in_axes=(None, 0), out_axes=-1)(e, t)
    args = jnp.asarray(EMB), jnp.asarray(TOK)
    onp.testing.assert_allclose(onp.asarray(jax.jit(named)(*args)),
                                onp.asarray(jax.jit(plain)(*args)), rtol=1e-6)
    for f, g in [(named, plain), (_loss(named), _loss(plain))]:
        assert lowered(f, *args)[0] == lowered(g, *args)[0]

"""Random programs on every placement (docs/design.md §2b).

Hypothesis draws a program of several steps over several named arrays --
reductions (with ``where=``, ``keepdims``, tuples of names), einsum and
vecdot, alignment by name, tag/untag/rename, indexing by name, whole-axis
operations, parallel primitives, fresh arrays carrying a name, and ``nmap``
inside the program -- runs it physically (the oracle), then on placements of
support.PLACEMENTS, with ``jax.jit`` outside or inside the map, and
compares names, dtype and values, and the gradients taken by ``np.grad``
outside and inside the map.

The ``ci`` profile runs a small slice (20 programs, one drawn placement
each); the heavy run is ``HYPOTHESIS_PROFILE=fuzz``: each of
``PROGRAM_FUZZ_EXAMPLES`` programs (100 by default, seed
``PROGRAM_FUZZ_SEED``) on all 39 placements (13 placements x no jit, jit
outside, jit inside).  With ``PROGRAM_FUZZ_REPORT=file.jsonl`` it does not stop at the
first failure but writes one line per (program, placement) case: ``ok``, a
mismatch, a refusal or an unclear error, with the program's text::

    HYPOTHESIS_PROFILE=fuzz PROGRAM_FUZZ_EXAMPLES=32 PROGRAM_FUZZ_SEED=1 \
        PROGRAM_FUZZ_REPORT=/tmp/s1.jsonl pytest tests/mapping/test_program_fuzz.py
"""
import json
import os

import jax
import numpy as onp
from hypothesis import HealthCheck, assume, given, seed as hseed, settings, strategies as st

import namedarray as np
from namedarray import parallel as P
from support import PLACEMENTS as _PLACEMENTS, mesh8, mesh24

HEAVY = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
EXAMPLES = int(os.environ.get("PROGRAM_FUZZ_EXAMPLES", 100)) if HEAVY else 20
REPORT = os.environ.get("PROGRAM_FUZZ_REPORT") if HEAVY else None
SEED = int(os.environ.get("PROGRAM_FUZZ_SEED", 0))
SIZES = {"b": 8, "c": 2, "h": 3}   # b, c divide the meshes of PLACEMENTS; h does not
K = 3                              # the positional axis
JITS = ("none", "outside", "inside")


# more Explicit-mesh placements: a local nmap over sharded names (outside and
# inside jax.set_mesh), and the sharded run inside jax.set_mesh (the whole
# case, jit and gradients included, runs in it: see check_case)
PLACEMENTS = {
    **_PLACEMENTS,
    "explicit-nmap": lambda f: lambda v: np.nmap(f)(np.shard(v, mesh8(), {"b": "d"})),
    "explicit-nmap-in-set_mesh": lambda f: lambda v: np.nmap(f, axes=["b"])(
        np.shard(v, mesh24(), {"b": "y", "c": "x"})),
    "explicit-in-set_mesh": lambda f: lambda v: f(np.shard(v, mesh24(), {"b": "y", "c": "x"})),
}
IN_SET_MESH = {"explicit-nmap-in-set_mesh": mesh24, "explicit-in-set_mesh": mesh24}
CASES = [(p, j) for p in sorted(PLACEMENTS) if p != "physical" for j in JITS]


def _run(placement, jit, prog):
    if jit == "inside":
        return PLACEMENTS[placement](jax.jit(prog))
    f = PLACEMENTS[placement](prog)
    return jax.jit(f) if jit == "outside" else f


# --------------------------------------------------------------------------
# the steps: each draws its arguments from the values so far (run physically
# while drawing, so that every step is valid there) and returns (text, fn)
# --------------------------------------------------------------------------
def _names(v):
    return list(v.named_shape)


def _pick_names(draw, v, most=2):
    ns = _names(v)
    k = draw(st.integers(1, min(most, len(ns))))
    return tuple(draw(st.permutations(ns))[:k])


def _axis(names):
    return names[0] if len(names) == 1 else names


def _floats(v):
    return v.dtype.kind == "f"   # (float32 or float64: a program keeps its inputs' dtype)


def step_reduce(draw, vals, i):
    v = vals[i]
    names = _pick_names(draw, v)
    fn = draw(st.sampled_from(["sum", "mean", "max", "min", "prod", "std", "var", "median",
                               "logsumexp", "argmax", "argmin", "any"]))
    ax = _axis(names)
    if v.ndim and draw(st.booleans()) and fn not in ("argmax", "argmin"):
        ax = (0,) + names       # a tuple mixing a position and names
    kw = {}
    if fn in ("sum", "mean", "max", "min", "std", "var", "any") and draw(st.booleans()):
        t = draw(st.sampled_from([-0.5, 0.0, 0.5]))
        kw["where"] = ("where", t)
        if fn in ("max", "min"):
            kw["initial"] = -9.0 if fn == "max" else 9.0
    if fn in ("sum", "mean", "max", "std") and v.ndim and draw(st.booleans()):
        kw["keepdims"] = True
    if fn == "var":
        kw["ddof"] = 1

    def run(vals):
        x = vals[i]
        k = dict(kw)
        if "where" in k:
            k["where"] = x > k["where"][1]
        if fn == "prod":
            x = x / 8 + 1
        if fn == "any":
            return np.any(x > 0, axis=ax, **k)
        return getattr(np, fn)(x, axis=ax, **k)
    return f"{fn}(v{i}, axis={ax!r}, {kw})", run


def step_unary(draw, vals, i):
    fn = draw(st.sampled_from(["sin", "square", "tanh", "exp4"]))
    f = {"sin": np.sin, "square": lambda x: x * x, "tanh": np.tanh,
         "exp4": lambda x: np.exp(x / 4)}[fn]
    return f"{fn}(v{i})", lambda vals: f(vals[i])


def _compatible(a, b):
    if any(a.named_shape[n] != b.named_shape[n] for n in set(a.named_shape) & set(b.named_shape)):
        return False
    try:
        onp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    return True


def step_binary(draw, vals, i):
    js = [j for j in range(len(vals)) if _compatible(vals[i], vals[j]) and _floats(vals[j])]
    j = draw(st.sampled_from(js))
    fn = draw(st.sampled_from(["add", "mul", "where", "maximum"]))
    f = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b,
         "where": lambda a, b: np.where(a > b, a, b * 2), "maximum": np.maximum}[fn]
    return f"{fn}(v{i}, v{j})", lambda vals: f(vals[i], vals[j])


def step_contract(draw, vals, i):
    a = vals[i]
    js = [j for j in range(len(vals)) if _compatible(a, vals[j]) and _floats(vals[j])
          and set(_names(a)) & set(_names(vals[j])) and vals[j].ndim == a.ndim]
    assume(js)
    j = draw(st.sampled_from(js))
    b = vals[j]
    shared = sorted(set(_names(a)) & set(_names(b)))
    n = draw(st.sampled_from(shared))
    if draw(st.booleans()):
        return f"vecdot(v{i}, v{j}, axis={n!r})", lambda vals: np.vecdot(vals[i], vals[j], axis=n)
    pos = "ij"[:a.ndim]
    out = [m for m in dict.fromkeys(_names(a) + _names(b)) if m != n]
    spec = (f"{pos}{{{','.join(_names(a))}}},{pos}{{{','.join(_names(b))}}}"
            f"->{pos}{{{','.join(draw(st.permutations(out)))}}}")
    spec = spec.replace("{}", "")
    return f"einsum({spec!r}, v{i}, v{j})", lambda vals: np.einsum(spec, vals[i], vals[j])


def step_untag(draw, vals, i):
    v = vals[i]
    n = draw(st.sampled_from(_names(v)))
    op = draw(st.sampled_from(["cumsum", "flip", "sum", "roll", "slice", "rename"]))
    new = draw(st.sampled_from([n, "e"])) if "e" not in v.named_shape else n

    def run(vals):
        x = vals[i]
        if op == "rename":
            return x.rename({n: new}) * 1.5
        u = x.untag(n)
        rest = (None,) * (u.ndim - 1)
        if op == "sum":
            return u.sum(axis=0)
        u = {"cumsum": lambda u: np.cumsum(u, axis=0), "flip": lambda u: u[::-1],
             "roll": lambda u: np.roll(u, 1, axis=0), "slice": lambda u: u[1:]}[op](u)
        return u.tag(new, *rest)
    return f"untag(v{i}, {n!r}).{op} -> {new!r}", run


def step_index(draw, vals, i):
    v = vals[i]
    n = draw(st.sampled_from(_names(v)))
    size = v.named_shape[n]
    kind = draw(st.sampled_from(["reverse", "perm", "int", "half"]))
    idx = {"reverse": slice(None, None, -1), "int": size - 1,
           "half": slice(0, max(1, size // 2)),
           "perm": onp.asarray(draw(st.permutations(range(size))))}[kind]
    return f"v{i}[{{{n!r}: {kind}}}]", lambda vals: vals[i][{n: idx}]


def step_whole(draw, vals, i):
    v = vals[i]
    n = draw(st.sampled_from(_names(v)))
    fn = draw(st.sampled_from(["sort", "cumsum", "flip", "roll", "diff", "concatenate",
                               "take"]))
    size = v.named_shape[n]
    f = {"sort": lambda x: np.sort(x, axis=n), "cumsum": lambda x: np.cumsum(x, axis=n),
         "flip": lambda x: np.flip(x, axis=n), "roll": lambda x: np.roll(x, 2, axis=n),
         "diff": lambda x: np.diff(x, axis=n),
         "concatenate": lambda x: np.concatenate([x, x * 2], axis=n),
         "take": lambda x: np.take(x, onp.arange(size)[::-1] % size, axis=n)}[fn]
    return f"{fn}(v{i}, axis={n!r})", lambda vals: f(vals[i])


def step_parallel(draw, vals, i):
    v = vals[i]
    names = _pick_names(draw, v)
    fn = draw(st.sampled_from(["psum", "pmax", "pmean", "all_gather", "ppermute",
                               "pshuffle", "pargmax", "psum_bool"]))
    size = int(onp.prod([v.named_shape[n] for n in names]))
    perm = onp.asarray(draw(st.permutations(range(size)))).tolist()

    def run(vals):
        x = vals[i]
        if fn == "all_gather":
            return P.all_gather(x, names)
        if fn == "ppermute":
            return P.ppermute(x, names, [(k, perm[k]) for k in range(size) if k % 3])
        if fn == "pshuffle":
            return P.pshuffle(x, names, perm)
        if fn == "psum_bool":
            return np.where(P.psum(x > 0.2, names), P.psum(x, names), 0.5)
        return getattr(P, fn)(x, names)
    return f"P.{fn}(v{i}, {names!r})", run


def step_fresh(draw, vals, i):
    v = vals[i]
    n = draw(st.sampled_from(_names(v)))
    size = v.named_shape[n]
    return (f"v{i} * fresh({n!r})",
            lambda vals: vals[i] * (np.arange(float(size)).tag(n) / size + 0.5))


def step_nmap(draw, vals, i):
    v = vals[i]
    n = draw(st.sampled_from(_names(v)))
    axes = draw(st.sampled_from([None, [n]]))
    js = [j for j in range(len(vals)) if _compatible(v, vals[j]) and _floats(vals[j])]
    j = draw(st.sampled_from(js))
    kind = draw(st.sampled_from(["center", "reduce", "pair", "whole"]))
    if kind == "whole" and v.named_shape[n] < 2:
        kind = "center"
    if kind == "pair" and axes is not None and n not in vals[j].named_shape:
        axes = None

    def run(vals):
        x = vals[i]
        if kind == "center":
            return np.nmap(lambda u: u - u.mean(axis=n), axes=axes)(x)
        if kind == "reduce":
            return np.nmap(lambda u: (u * u).sum(axis=n), axes=axes)(x)
        if kind == "pair":
            return np.nmap(lambda u, w: (u * w).sum(axis=n), axes=axes)(x, vals[j].sum(axis=n)
                                                                         if n in vals[j].named_shape
                                                                         else vals[j])
        return np.nmap(lambda u: u * 2, axes=axes)(x[{n: slice(0, 2)}])   # a name made whole
    return f"nmap[{kind}, axes={axes}](v{i}, v{j}) over {n!r}", run


STEPS = [step_reduce, step_unary, step_binary, step_contract, step_untag, step_index,
         step_whole, step_parallel, step_fresh, step_nmap]


def _inputs(draw):
    n = draw(st.integers(1, 3))
    dtype = draw(st.sampled_from([onp.float64, onp.float64, onp.float64, onp.float32]))
    xs = []
    for k in range(n):
        if k == 0:      # the first array has b and c (the meshes' names)
            names = ["b", "c"] + (["h"] if draw(st.booleans()) else [])
        else:
            names = draw(st.lists(st.sampled_from(sorted(SIZES)), min_size=1, max_size=3,
                                  unique=True))
        dims = names + ([None] if draw(st.booleans()) else [])
        dims = draw(st.permutations(dims))
        shape = tuple(SIZES[d] if d else K for d in dims)
        size = int(onp.prod(shape))
        # distinct magnitudes: no ties for max/sort/median and their gradients
        vals = (onp.asarray(draw(st.permutations(range(1, size + 1))), float)
                * onp.asarray(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=size,
                                            max_size=size))))
        xs.append(np.asarray((vals.reshape(shape) / size * 2).astype(dtype)).tag(*dims))
    return xs


@st.composite
def programs(draw):
    xs = _inputs(draw)
    vals = list(xs)
    steps = []
    for _ in range(draw(st.integers(2, 5))):
        fl = [k for k, v in enumerate(vals) if _floats(v) and v.named_shape]
        if not fl:
            break
        i = draw(st.sampled_from(fl[-3:]))
        text, fn = draw(st.sampled_from(STEPS))(draw, vals, i)
        try:
            out = fn(vals)
        except (ValueError, TypeError, IndexError):   # not valid physically
            assume(steps)
            break
        if not isinstance(out, np.NamedArray):
            out = np.asarray(out)
        vals.append(out)
        steps.append((text, fn))
    assume(steps)
    return tuple(xs), steps


def _program(steps):
    def prog(xs):
        vals = list(xs)
        for _, fn in steps:
            out = fn(vals)
            vals.append(out if isinstance(out, np.NamedArray) else np.asarray(out))
        return vals[-1]
    return prog


def _check(got, want, what, tol=1e-8):
    assert isinstance(got, np.NamedArray), what
    assert got.named_shape == want.named_shape, (what, got.named_shape, want.named_shape)
    assert got.shape == want.shape and got.dtype == want.dtype, (
        what, got.shape, got.dtype, want.shape, want.dtype)
    names = sorted(want.named_shape)
    onp.testing.assert_allclose(onp.asarray(got.untag(*names)), onp.asarray(want.untag(*names)),
                                rtol=tol, atol=tol, err_msg=what)


def _outer_loss(f):
    def loss(xs):
        out = f(xs)
        return np.sin(out.astype(float)).sum(axis=tuple(out.named_shape) or None).sum()
    return loss


def _inner_loss(prog):
    """The loss inside the map: every name summed by a collective."""
    def loss(xs):
        s = np.sin(prog(xs).astype(float))
        names = tuple(s.named_shape)
        return (P.psum(s, names) if names else s).sum()
    return loss


def _differentiable(out, steps):
    return out.dtype == onp.float64 and not any(
        t.startswith(("argmax", "argmin", "P.pargmax")) for t, _ in steps)


class Oracle:
    """The physical run of one program: its result and both gradients,
    computed once for all the placements it is compared with."""

    def __init__(self, xs, steps):
        self.xs, self.steps = xs, steps
        self.prog = _program(steps)
        self.want = self.prog(xs)
        # float32 inputs: a collective adds in another order than the local
        # reduce, so results agree to float32 rounding (also once promoted)
        self.tol = 2e-5 if any(x.dtype == onp.float32 for x in xs) else 1e-8
        self.grad = _differentiable(self.want, steps)
        if self.grad:
            self.outer = np.grad(_outer_loss(self.prog))(xs)
            self.inner = np.grad(_inner_loss(self.prog))(xs)


def check_case(o, placement, jit):
    """One (program, placement) case: the value, and the gradient taken by
    ``np.grad`` outside the map (no jit, jit outside) and inside it (no jit,
    jit inside, where the jit wraps the gradient)."""
    if placement in IN_SET_MESH:
        with jax.set_mesh(IN_SET_MESH[placement]()):
            return _check_case(o, placement, jit)
    return _check_case(o, placement, jit)


def _check_case(o, placement, jit):
    text = "; ".join(t for t, _ in o.steps) + f" | {placement}, jit {jit}"
    _check(_run(placement, jit, o.prog)(o.xs), o.want, text, o.tol)
    if not o.grad:
        return
    if jit in ("none", "outside"):
        g = np.grad(_outer_loss(_run(placement, "none", o.prog)))
        got = (jax.jit(g) if jit == "outside" else g)(o.xs)
        for a, b in zip(got, o.outer):
            _check(a, b, "grad outside: " + text, o.tol)
    if jit in ("none", "inside"):
        got = _run(placement, jit, np.grad(_inner_loss(o.prog)))(o.xs)
        for a, b in zip(got, o.inner):
            _check(a, b, "grad inside: " + text, o.tol)


@hseed(SEED)
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(prog=programs(), case=st.sampled_from(CASES))
def test_random_programs_on_every_placement(prog, case):
    xs, steps = prog
    o = Oracle(xs, steps)
    if not REPORT:
        for placement, jit in (CASES if HEAVY else [case]):
            check_case(o, placement, jit)
        return
    # the heavy run's census: every (program, placement) case, and each
    # finding with its program, written to REPORT (one JSON line each)
    for placement, jit in CASES:
        try:
            check_case(o, placement, jit)
            res = "ok"
        except AssertionError as e:   # a bare one comes from inside JAX: unclear
            res = ("mismatch: " if str(e) else "unclear: AssertionError") + str(e)[:400]
        except (ValueError, TypeError, IndexError) as e:
            res = f"refused: {type(e).__name__}: {str(e)[:400]}"
        except Exception as e:   # noqa: BLE001 -- an unclear error is a finding too
            res = f"unclear: {type(e).__name__}: {str(e)[:400]}"
        with open(REPORT, "a") as fh:
            fh.write(json.dumps({"program": "; ".join(t for t, _ in steps),
                                 "inputs": [str(x.named_shape) for x in xs],
                                 "placement": placement, "jit": jit, "result": res}) + "\n")

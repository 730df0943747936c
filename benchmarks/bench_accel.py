"""The model pairs at realistic sizes, in float32 and bfloat16, all in one
process: the run for an accelerator (any backend: ``JAX_PLATFORMS`` decides).

    python benchmarks/bench_accel.py [RUN ...] [--size realistic|mid|small]
        [--dtype float32 bfloat16] [--out results.jsonl] [--steps N] [--repeat R]
        [--compiles C] [--check-steps K] [--time-limit S] [--commit HASH]

RUN: a pair of ``bench_models.py`` (gpt, gpt-dict, gpt-take, stacked, moe, vit)
or ``tutorial`` (``tutorial_pair.py``: the training tutorial's model as a user
copies it from the page), optionally with its dtype, ``moe:bfloat16``; a pair
without one runs in each ``--dtype``.  Without RUNs: :data:`DEFAULT_RUNS`
(every pair in float32, the transformers and the MoE in bfloat16 too).

Sizes (``--size``): ``realistic`` (the default on an accelerator) is 4
layers, d_model 512, 8 heads, sequence 256, batch 16, vocabulary 1024 (the
MoE: 8 experts of MLP 1024; the ViT: 32x32 images in 2x2 patches, 256 of
them); ``mid`` a CPU-sized check of the same code (2 layers, d_model 128,
sequence 64); ``small`` (the default on the CPU) each pair's CI size.  In
bfloat16 the parameters and activations are bfloat16 and every contraction
accumulates in float32 (``preferred_element_type``), the plain twin alike.

For each run it prints and records:

- the step time of both (``--repeat`` interleaved rounds of ``--steps`` steps,
  the order alternating; medians) and the ratio named / plain, target <= 1.03;
- the compile time of both, trace + lower and XLA's compile apart (fresh
  compiles, ``--compiles`` interleaved rounds), target <= 1.2 for the total;
- the losses of ``--check-steps`` training steps of both, compiled under
  ``jax.default_matmul_precision("highest")``, and their largest relative
  difference (target 1e-5 in float32, 2e-2 in bfloat16);
- from the optimized HLO of both steps: transposes, copies, while loops,
  gathers, scatters, fusions (target: transposes + copies within 10% of the
  plain program's; no more while loops, gathers or scatters); from the
  step's jaxpr, every call expanded: optimization barriers.

The plain step of ``gpt``, ``gpt-dict`` and ``gpt-take`` is one program: it is
compiled and checked once per dtype, and timed against each named step.
Each run's record is one JSON line in ``--out`` (written as it finishes, so
a run cut short keeps what it measured); at the end the script prints the
Markdown table ``docs/performance.md`` takes (backend, device, date, commit).

``NAMEDARRAY_DTYPES`` defaults to ``jax`` here (JAX's 32-bit defaults, what
an accelerator program sets, as the training tutorial does).  Rerun, on an
accelerator: ``python benchmarks/bench_accel.py --out accel.jsonl``; on the
CPU, quicker: ``python benchmarks/bench_accel.py --size mid``
(``benchmarks/README.md`` has the commands and figures).
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":     # (a test importing this module keeps its process's environment)
    os.environ.setdefault("NAMEDARRAY_DTYPES", "jax")

import jax  # noqa: E402

import bench_model as bm  # noqa: E402
import bench_models as bms  # noqa: E402
import namedarray as np  # noqa: E402
import tutorial_pair  # noqa: E402

_GPT = dict(layers=4, d_model=512, heads=8, mlp=2048, seq=256, batch=16, vocab=1024)
_GPT_MID = dict(layers=2, d_model=128, heads=4, mlp=512, seq=64, batch=8, vocab=256)
#: size -> model -> config (over the pair's own defaults; "small": the CI sizes)
SIZES = {
    "realistic": {"gpt": _GPT, "stacked": _GPT,
                  "moe": {**_GPT, "experts": 8, "mlp": 1024},
                  "vit": dict(blocks=4, image=32, patch=2, d_model=512, heads=8, mlp=2048,
                              batch=16),
                  "tutorial": dict(V=1024, D=512, H=8, K=64, M=2048, S=256, B=16, L=4)},
    "mid": {"gpt": _GPT_MID, "stacked": _GPT_MID,
            "moe": {**_GPT_MID, "experts": 4, "mlp": 256},
            "vit": dict(blocks=2, image=16, patch=2, d_model=128, heads=4, mlp=512, batch=16),
            "tutorial": dict(V=256, D=128, H=4, K=32, M=512, S=64, B=8, L=2)},
    "small": {},
}
PAIRS = ("gpt", "gpt-dict", "gpt-take", "stacked", "moe", "vit", "tutorial")
#: the dtypes a pair runs in (``vit``'s plain dropout draws ``nn.dropout``'s
#: masks in float32 only; the tutorial is a float32 model)
DTYPES = {p: ("float32", "bfloat16") for p in PAIRS} | {"vit": ("float32",),
                                                        "tutorial": ("float32",)}
DEFAULT_RUNS = tuple((p, "float32") for p in PAIRS) + tuple(
    (p, "bfloat16") for p in ("gpt", "gpt-dict", "gpt-take", "moe"))
TARGETS = {"step": 1.03, "compile": 1.2, "transposes+copies": 1.10,
           "loss": {"float32": 1e-5, "bfloat16": 2e-2}}
HLO_OPS = ("transpose", "copy", "while", "gather", "scatter", "fusion")


def model(name):
    """The model a pair's size is looked up by (``gpt-dict`` is ``gpt``)."""
    return name.split("-")[0]


def make_pair(name, dtype, size):
    """``(config, (step_plain, step_named), (plain args, named args))``."""
    if dtype not in DTYPES[name]:
        raise ValueError(f"bench_accel: pair {name!r} runs in {DTYPES[name]}, not {dtype!r}")
    config = {**SIZES[size].get(model(name), {}), "dtype": dtype}
    if name == "tutorial":
        return tutorial_pair.pair(**config)
    return bms.pair(name, **config)


def barriers(traced):
    """Optimization barriers in the step's jaxpr, each call of a function
    counted (the ``jit``-ed helpers' bodies included)."""
    n = 0

    def walk(jaxpr):
        nonlocal n
        for e in jaxpr.eqns:
            n += e.primitive.name == "optimization_barrier"
            for v in e.params.values():
                for sub in v if isinstance(v, (tuple, list)) else (v,):
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        walk(inner)
    walk(traced.jaxpr.jaxpr)
    return n


def _side(step, args):
    """``(record, compile_round)``: each ``compile_round()`` compiles one
    side's step afresh and records its times, the executable and its counts
    (the last round's kept), so that :func:`measure` interleaves the rounds
    of both sides."""
    rec = {"trace_lower_s": [], "xla_s": []}

    def compile_round():
        traced, exe, tl, xc = bm.trace_and_compile(step, args, fresh=True)
        rec["trace_lower_s"].append(tl)
        rec["xla_s"].append(xc)
        rec["exe"], rec["hlo"] = exe, {**bm.hlo_counts(exe, HLO_OPS),
                                       "opt-barrier": barriers(traced)}
    return rec, compile_round


def _losses(step, args, a):
    """The losses of ``a.check_steps`` steps compiled under the highest matmul
    precision (none with ``--check-steps 0``: two compiles fewer per run)."""
    if not a.check_steps:
        return []
    with jax.default_matmul_precision("highest"):
        exe = jax.jit(step).lower(*args).compile()
        return bm.train(exe, args, a.check_steps)


def _time(exes, args, a):
    """Median seconds per step of each side over interleaved rounds."""
    times = {"plain": [], "named": []}
    for side in ("plain", "named"):
        for _ in range(a.warmup):
            bm.train(exes[side], args[side], a.steps)
    for i in range(a.repeat):
        for side in bm._order(i):
            p, s, t = args[side]
            jax.block_until_ready(p)
            t0 = time.perf_counter()
            for _ in range(a.steps):
                p, s, loss = exes[side](p, s, t)
            jax.block_until_ready(loss)
            times[side].append((time.perf_counter() - t0) / a.steps)
    return times


def measure(name, dtype, a, plain_cache):
    """One run's record (see the module docstring)."""
    config, (step_plain, step_named), (args_plain, args_named) = make_pair(name, dtype, a.size)
    args = {"plain": args_plain, "named": args_named}
    key = (model(name), dtype, json.dumps({k: v for k, v in config.items() if k != "lookup"},
                                          sort_keys=True, default=str))
    plain = plain_cache.get(key)
    named, named_round = _side(step_named, args_named)
    if plain is None:
        plain, plain_round = _side(step_plain, args_plain)
    for i in range(a.compiles):
        for side in bm._order(i):
            if side == "named":
                named_round()
            elif key not in plain_cache:
                plain_round()
    if key not in plain_cache:
        plain["losses"] = _losses(step_plain, args_plain, a)
        plain_cache.clear()                  # one plain program kept at a time
        plain_cache[key] = plain
    named["losses"] = _losses(step_named, args_named, a)
    times = _time({"plain": plain["exe"], "named": named["exe"]}, args, a)
    r, lo, hi = bm._ratio(times["named"], times["plain"])
    tot = {s: [t + c for t, c in zip(v["trace_lower_s"], v["xla_s"])]
           for s, v in (("plain", plain), ("named", named))}
    med = statistics.median
    diff = max((abs(x - y) / max(abs(x), 1e-30) for x, y in zip(plain["losses"],
                                                              named["losses"])), default=None)
    rec = {"pair": name, "dtype": dtype, "size": a.size,
           "config": dict(config),
           "step_ms": {s: med(times[s]) * 1e3 for s in times},
           "step_ratio": r, "step_quartiles": [lo, hi],
           "trace_lower_s": {s: med(v["trace_lower_s"]) for s, v in
                             (("plain", plain), ("named", named))},
           "xla_s": {s: med(v["xla_s"]) for s, v in (("plain", plain), ("named", named))},
           "compile_s": {s: med(v) for s, v in tot.items()},
           "compile_rounds": a.compiles,
           "losses": {"plain": plain["losses"], "named": named["losses"]},
           "loss_rel_diff": diff, "hlo": {"plain": plain["hlo"], "named": named["hlo"]}}
    rec["compile_ratio"] = rec["compile_s"]["named"] / rec["compile_s"]["plain"]
    rec["trace_ratio"] = rec["trace_lower_s"]["named"] / rec["trace_lower_s"]["plain"]
    rec["xla_ratio"] = rec["xla_s"]["named"] / rec["xla_s"]["plain"]
    return rec


def _moves(h):
    return h["transpose"] + h["copy"]


def verdicts(rec):
    """Each target of ``rec``: ``{target: True/False}``."""
    hp, hn = rec["hlo"]["plain"], rec["hlo"]["named"]
    return {"step": rec["step_ratio"] <= TARGETS["step"],
            "compile": rec["compile_ratio"] <= TARGETS["compile"],
            "loss": rec["loss_rel_diff"] is None      # not checked
            or rec["loss_rel_diff"] <= TARGETS["loss"][rec["dtype"]],
            "transposes+copies": _moves(hn) <= TARGETS["transposes+copies"] * max(
                _moves(hp), 1),
            "while/gather/scatter": all(hn[k] <= hp[k] for k in ("while", "gather",
                                                                  "scatter"))}


def report(rec):
    """The run's lines, as ``bench_model.py`` prints a pair."""
    ok = verdicts(rec)
    mark = lambda k: "ok" if ok[k] else "MISSED"  # noqa: E731
    hp, hn = rec["hlo"]["plain"], rec["hlo"]["named"]
    sq = rec["step_quartiles"]
    return "\n".join([
        f"== {rec['pair']} {rec['dtype']} ({rec['size']}) {rec['config']}",
        f"losses plain {[f'{v:.7g}' for v in rec['losses']['plain']]}  named "
        f"{[f'{v:.7g}' for v in rec['losses']['named']]}  max rel diff "
        f"{_diff(rec['loss_rel_diff'], '.2e')} ({mark('loss')})",
        f"step        plain {rec['step_ms']['plain']:9.3f} ms  named "
        f"{rec['step_ms']['named']:9.3f} ms  ratio {rec['step_ratio']:.3f} (quartiles "
        f"{sq[0]:.3f}-{sq[1]:.3f}) ({mark('step')})",
        f"compile     plain {rec['compile_s']['plain']:7.2f} s (trace+lower "
        f"{rec['trace_lower_s']['plain']:.2f}, XLA {rec['xla_s']['plain']:.2f})  named "
        f"{rec['compile_s']['named']:7.2f} s (trace+lower {rec['trace_lower_s']['named']:.2f}"
        f", XLA {rec['xla_s']['named']:.2f})  ratio {rec['compile_ratio']:.3f} (trace "
        f"{rec['trace_ratio']:.2f}x, XLA {rec['xla_ratio']:.2f}x) ({mark('compile')})",
        f"HLO         plain {hp}\n            named {hn}  ({mark('transposes+copies')}, "
        f"while/gather/scatter {mark('while/gather/scatter')})"])


def _diff(d, fmt):
    return "not checked" if d is None else format(d, fmt)


def _pair_hlo(rec, k):
    return f"{rec['hlo']['plain'][k]} → {rec['hlo']['named'][k]}"


def table(recs, env):
    """The Markdown table of ``recs`` under a line naming ``env``."""
    lines = [f"Backend `{env['backend']}` ({env['device_kind']}, {env['devices']} "
             f"device(s)), JAX {env['jax']}, `NAMEDARRAY_DTYPES={env['dtype_mode']}`, "
             f"{env['date']}, commit `{env['commit']}`, size `{env['size']}`; "
             f"`{env['command']}`:", "",
             "| pair | dtype | step plain → named (ms) | ratio | compile plain → named (s) "
             "| ratio (trace+lower, XLA) | loss rel. diff | transposes + copies | while "
             "| gather / scatter | opt. barriers |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in recs:
        if "error" in r:
            lines.append(f"| `{r['pair']}` | {r['dtype']} | {r['error']} |" + " |" * 8)
            continue
        hp, hn = r["hlo"]["plain"], r["hlo"]["named"]
        lines.append(
            f"| `{r['pair']}` | {r['dtype']} | {r['step_ms']['plain']:.2f} → "
            f"{r['step_ms']['named']:.2f} | {r['step_ratio']:.2f} "
            f"({r['step_quartiles'][0]:.2f}–{r['step_quartiles'][1]:.2f}) | "
            f"{r['compile_s']['plain']:.2f} → {r['compile_s']['named']:.2f} | "
            f"{r['compile_ratio']:.2f} ({r['trace_ratio']:.2f}, {r['xla_ratio']:.2f}) | "
            f"{_diff(r['loss_rel_diff'], '.1e')} | {hp['transpose']} + {hp['copy']} → "
            f"{hn['transpose']} + {hn['copy']} | {_pair_hlo(r, 'while')} | "
            f"{hp['gather']} / {hp['scatter']} → {hn['gather']} / {hn['scatter']} | "
            f"{_pair_hlo(r, 'opt-barrier')} |")
    return "\n".join(lines)


def _commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True,
                              cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="*", help="PAIR or PAIR:DTYPE (default: DEFAULT_RUNS)")
    ap.add_argument("--size", choices=tuple(SIZES), default=None,
                    help="default: realistic on an accelerator, small on the CPU")
    ap.add_argument("--dtype", nargs="+", choices=("float32", "bfloat16"),
                    default=["float32"], help="dtypes of a RUN given without one")
    ap.add_argument("--out", help="JSON lines file (one record per run)")
    ap.add_argument("--steps", type=int, default=5, help="steps per timed round")
    ap.add_argument("--repeat", type=int, default=15, help="interleaved timed rounds")
    ap.add_argument("--warmup", type=int, default=2, help="untimed rounds of each side")
    ap.add_argument("--compiles", type=int, default=1, help="fresh compiles of each side")
    ap.add_argument("--check-steps", type=int, default=2,
                    help="steps under highest matmul precision whose losses are compared")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="seconds: start no run that the previous one's time would push past")
    ap.add_argument("--commit", default=None, help="the commit measured (default: git's)")
    a = ap.parse_args(argv)
    if a.size is None:
        a.size = "small" if jax.default_backend() == "cpu" else "realistic"
    return a


def runs_of(a):
    """The ``(pair, dtype)`` runs the arguments ask for."""
    if not a.runs:
        return list(DEFAULT_RUNS)
    out = []
    for d in a.dtype:             # dtype by dtype: a plain program shared is compiled once
        for r in a.runs:
            name, _, dt = r.partition(":")
            if name not in PAIRS:
                raise SystemExit(f"bench_accel: unknown pair {name!r}; pairs: "
                                 f"{', '.join(PAIRS)}")
            if dt and dt not in DTYPES[name]:
                raise SystemExit(f"bench_accel: pair {name!r} runs in {DTYPES[name]}, "
                                 f"not {dt!r}")
            if (dt or d) in DTYPES[name] and (name, dt or d) not in out:
                out.append((name, dt or d))
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    a = parse(argv)
    t_start = time.perf_counter()
    dev = jax.devices()[0]
    env = {"kind": "env", "backend": jax.default_backend(), "device_kind": dev.device_kind,
           "devices": jax.device_count(), "jax": jax.__version__,
           "dtype_mode": np.dtype_defaults(),
           "date": datetime.date.today().isoformat(), "commit": a.commit or _commit(),
           "size": a.size, "command": "python benchmarks/bench_accel.py " + " ".join(argv)}
    print(f"# {env}", flush=True)
    out = open(a.out, "w") if a.out else None
    if out:
        out.write(json.dumps(env) + "\n")
    recs, cache, last = [], {}, 0.0
    for name, dtype in runs_of(a):
        elapsed = time.perf_counter() - t_start
        if a.time_limit is not None and elapsed + last > a.time_limit:
            rec = {"pair": name, "dtype": dtype, "error": "skipped (time limit)"}
        else:
            t0 = time.perf_counter()
            try:
                rec = measure(name, dtype, a, cache)
                print(report(rec), flush=True)
            except Exception as e:   # a pair that cannot run here (a dot the backend lacks)
                rec = {"pair": name, "dtype": dtype,
                       "error": f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"}
                print(f"== {name} {dtype}: {rec['error']}", flush=True)
            last = time.perf_counter() - t0
            rec["wall_s"] = last
        recs.append(rec)
        if out:
            out.write(json.dumps(rec, default=str) + "\n")
            out.flush()
        gc.collect()
    print(f"\n# total {time.perf_counter() - t_start:.0f} s\n")
    print(table(recs, env))
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

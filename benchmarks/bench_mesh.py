"""Named sum, named einsum, a sort along a split name (it gathers the name) and
a local nmap nested in the mesh one, on an 8-device CPU mesh, against
hand-written ``shard_map`` programs: collectives in the compiled HLO, and the
run-time ratio (median of repeated runs, both jitted, in one process).

    python benchmarks/bench_mesh.py [--repeat 30] [--number 20]
"""
import os

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                           + " --xla_force_host_platform_device_count=8").strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import timeit  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

import namedarray as np  # noqa: E402

COLLECTIVES = r"\b(all-reduce|all-gather|all-to-all|collective-permute|reduce-scatter)(-start)?\("


def collectives(compiled_text):
    return sorted(m[0] for m in re.findall(COLLECTIVES, compiled_text))


def cases():
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    a = jax.device_put(jnp.asarray(jax.random.normal(jax.random.key(0), (4096, 256))),
                       NamedSharding(mesh, P("data", None)))
    b = jax.device_put(jnp.asarray(jax.random.normal(jax.random.key(1), (4096, 128))),
                       NamedSharding(mesh, P("data", None)))
    x = np.shard(np.NamedArray(a, ("b", None)), mesh, {"b": "data"})
    y = np.shard(np.NamedArray(b, ("b", None)), mesh, {"b": "data"})
    # the hand-written programs get the same physical arrays (positional axes
    # first: b is the last dimension)
    a, b = x.data, y.data
    res = {"b": "data"}
    ours_sum = jax.jit(np.nmap(lambda v: v.sum(axis="b"), mesh=mesh, axis_resources=res))
    hand_sum = jax.jit(jax.shard_map(lambda d: jax.lax.psum(d.sum(1), "data"), mesh=mesh,
                                     in_specs=P(None, "data"), out_specs=P()))
    ours_ein = jax.jit(np.nmap(lambda v, w: np.einsum("i{b},j{b}->ij", v, w), mesh=mesh,
                               axis_resources=res))
    hand_ein = jax.jit(jax.shard_map(
        lambda d, e: jax.lax.psum(jnp.einsum("ib,jb->ij", d, e), "data"), mesh=mesh,
        in_specs=(P(None, "data"), P(None, "data")), out_specs=P()))
    n = a.shape[1]
    block = n // 8

    def hand_sort_body(d):
        whole = jnp.sort(jax.lax.all_gather(d, "data", axis=1, tiled=True), axis=1)
        return jax.lax.dynamic_slice_in_dim(whole, jax.lax.axis_index("data") * block,
                                            block, axis=1)
    ours_sort = jax.jit(np.nmap(lambda v: np.sort(v, axis="b"), mesh=mesh,
                                axis_resources=res))
    hand_sort = jax.jit(jax.shard_map(hand_sort_body, mesh=mesh, in_specs=P(None, "data"),
                                      out_specs=P(None, "data")))
    # a local nmap nested in the mesh one: the name is vmapped over the block
    ours_nest = jax.jit(np.nmap(lambda v: np.nmap(lambda u: u - u.mean(axis="b"))(v),
                                mesh=mesh, axis_resources=res))
    hand_nest = jax.jit(jax.shard_map(
        lambda d: d - jax.lax.psum(d.sum(1, keepdims=True), "data") / n, mesh=mesh,
        in_specs=P(None, "data"), out_specs=P(None, "data")))
    return [("named sum  x.sum('b')", ours_sum, (x,), hand_sum, (a,)),
            ("named einsum i{b},j{b}->ij", ours_ein, (x, y), hand_ein, (a, b)),
            ("sort along b (gathers b)", ours_sort, (x,), hand_sort, (a,)),
            ("nmap in mesh: u - u.mean(b)", ours_nest, (x,), hand_nest, (a,))]


def timed(fn, args, number):
    jax.block_until_ready(fn(*args))
    return timeit.timeit(lambda: jax.block_until_ready(fn(*args)), number=number) / number


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--number", type=int, default=20)
    args = p.parse_args()
    print(f"namedarray {np.__version__}, jax {jax.__version__}, {jax.device_count()} "
          f"{jax.default_backend()} devices; median of {args.repeat} x {args.number} runs")
    print(f"{'program':30s} {'collectives (ours)':22s} {'(hand)':22s} "
          f"{'ours us':>9s} {'hand us':>9s} {'ratio':>6s}")
    for label, ours, oargs, hand, hargs in cases():
        c_ours = collectives(ours.lower(*oargs).compile().as_text())
        c_hand = collectives(hand.lower(*hargs).compile().as_text())
        got, want = ours(*oargs), hand(*hargs)
        got = got.untag(*got.names).data.T if got.names else got.data
        assert jnp.allclose(got, want, rtol=1e-9, atol=1e-9), label
        to, th = [], []
        for _ in range(args.repeat):       # alternate, so load hits both alike
            to.append(timed(ours, oargs, args.number))
            th.append(timed(hand, hargs, args.number))
        mo, mh = statistics.median(to) * 1e6, statistics.median(th) * 1e6
        flag = "" if c_ours == c_hand and mo / mh <= 1.05 else "  MISS"
        print(f"{label:30s} {','.join(c_ours):22s} {','.join(c_hand):22s} "
              f"{mo:9.1f} {mh:9.1f} {mo / mh:6.3f}{flag}")


if __name__ == "__main__":
    main()

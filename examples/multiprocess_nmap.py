"""Run one nmap program over 8 devices spread across several processes.

Recipe (2 processes x 4 CPU devices on one machine, collectives over gloo)::

    python examples/multiprocess_nmap.py 0 2 12355 &   # process 0 of 2, coordinator port
    python examples/multiprocess_nmap.py 1 2 12355

Each process prints ``RESULT <json>``: the same numbers a single process gets
from ``local_result()``.  On GPUs/TPUs drop the CPU flags; JAX picks NCCL or
the TPU runtime.  namedarray adds no communication layer of its own: the
program is an ordinary ``shard_map`` over the global mesh.
"""
import json
import os
import sys

DEVICES_PER_PROCESS = 4


def program(np, P, x, mesh=None):
    """The named-axis program: centred sum of squares per feature, and a max."""
    kw = {} if mesh is None else {"mesh": mesh, "axis_resources": {"b": "data"}}
    return np.nmap(lambda v: (((v - v.mean(axis="b")) ** 2).sum(axis="b"),
                              P.pmax(v, "b"), P.all_gather(v, "b").sum(axis=1)), **kw)(x)


def data(np):
    import numpy
    return np.asarray(numpy.arange(16 * 3, dtype=numpy.float64).reshape(16, 3) % 7).tag(
        "b", None)


def local_result():
    import namedarray as np
    from namedarray import parallel as P
    return [numpy_list(r) for r in program(np, P, data(np))]


def numpy_list(r):
    import numpy
    return numpy.asarray(r).tolist()


def main(pid, nproc, port):
    os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={DEVICES_PER_PROCESS}"
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{port}", num_processes=nproc,
                               process_id=pid, initialization_timeout=60)
    import numpy
    import namedarray as np
    from namedarray import parallel as P
    from jax.experimental import multihost_utils
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    outs = program(np, P, data(np), mesh)
    # every output here is replicated over "b"; gather the global values anyway
    res = [numpy.asarray(multihost_utils.process_allgather(o.data, tiled=True)).tolist()
           for o in outs]
    print("RESULT", json.dumps({"devices": jax.device_count(), "process": pid,
                                "values": res}), flush=True)
    jax.distributed.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))

"""A data-parallel training step over several processes (hosts).

Recipe (2 processes x 4 CPU devices on one machine, collectives over gloo)::

    python examples/multihost_train.py 0 2 12356 &   # process 0 of 2, coordinator port
    python examples/multihost_train.py 1 2 12356

Every process builds the same global batch and parameters; ``np.shard`` puts
the batch's ``"batch"`` axis over the mesh axes ``("hosts", "data")`` (each
process holds its devices' rows), the parameters are replicated, and three
optax steps run under ``jax.jit`` inside ``jax.set_mesh``.  Each process
prints ``RESULT <json>``: the losses and parameters that one process gets from
``local_result()``.  On GPUs or TPUs drop the CPU flags and the gloo line: JAX
uses NCCL or the TPU runtime, and nothing in the program changes.
"""
import json
import os
import sys

if __name__ == "__main__":     # a process of its own: its CPU devices, before JAX starts
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    os.environ["JAX_PLATFORMS"] = "cpu"

import jax
import numpy
import optax

import namedarray as np

STEPS = 3


def loss(p, x, y):
    """Mean squared error of a one-hidden-layer network, over the named batch."""
    h = np.tanh(np.einsum("{batch,feat},{feat,hid}->{batch,hid}", x, p["w1"]) + p["b1"])
    pred = np.einsum("{batch,hid},{hid}->{batch}", h, p["w2"])
    return ((pred - y) ** 2).mean(axis="batch")


OPT = optax.adam(0.05)


@jax.jit
def step(p, s, x, y):
    value, g = np.value_and_grad(loss)(p, x, y)
    u, s = OPT.update(g, s, p)
    return optax.apply_updates(p, u), s, value


def data():
    """The global batch (32 rows) and the initial parameters, the same on every process."""
    rng = numpy.random.default_rng(0)
    x = np.asarray(rng.normal(size=(32, 4))).tag("batch", "feat")
    y = np.asarray(rng.normal(size=32)).tag("batch")
    p = {"w1": np.asarray(rng.normal(size=(4, 8)) / 2).tag("feat", "hid"),
         "b1": np.zeros(8).tag("hid"),
         "w2": np.asarray(rng.normal(size=8) / 3).tag("hid")}
    return p, x, y


def train(p, x, y):
    s = OPT.init(p)
    losses = []
    for _ in range(STEPS):
        p, s, value = step(p, s, x, y)
        losses.append(float(value))
    return losses, {k: numpy.asarray(v.data).tolist() for k, v in p.items()}


def local_result():
    """The one-process run: no mesh, every array whole on one device."""
    return train(*data())


def main(pid, nproc, port):
    jax.config.update("jax_cpu_collectives_implementation", "gloo")   # CPU only
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{port}", num_processes=nproc,
                               process_id=pid, initialization_timeout=60)
    # a mesh over hosts x local devices: row i holds process i's devices
    devices = sorted(jax.devices(), key=lambda d: (d.process_index, d.id))
    mesh = jax.make_mesh((nproc, jax.local_device_count()), ("hosts", "data"),
                         devices=devices)
    p, x, y = data()
    with jax.set_mesh(mesh):
        p, x, y = np.shard((p, x, y), mesh, {"batch": ("hosts", "data")})
        losses, params = train(p, x, y)
    # the rows of the batch this process's devices hold
    rows = sorted({(sh.index[0].start, sh.index[0].stop) for sh in x.data.addressable_shards})
    print("RESULT", json.dumps({"devices": jax.device_count(), "process": pid,
                                "batch_type": str(jax.typeof(x.data)), "rows": rows,
                                "losses": losses, "params": params}), flush=True)
    jax.distributed.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))

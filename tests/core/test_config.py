"""The dtype mode and JAX's process-wide x64 flag: each path in a fresh process."""
import json
import subprocess
import sys

import pytest

from support import subprocess_env

# prints, as JSON: the flag after import, after set_dtype_defaults("jax"), and
# the warnings raised (by import, and by using the package in JAX mode; not
# the notice a TPU machine's JAX gives at its import about the host's pages)
REPORT = """
import json, warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    import namedarray as np
    import jax, jax.numpy as jnp
    after_import = bool(jax.config.jax_enable_x64)
    mode = np.dtype_defaults()
    np.set_dtype_defaults("jax")
    after_jax = bool(jax.config.jax_enable_x64)
    dts = [str(np.arange(3).dtype), str(np.arange(3.0).dtype), str(np.ones(2).dtype),
           str(np.linspace(0, 1, 3).dtype), str(jnp.ones(2).dtype)]
    np.set_dtype_defaults("numpy")
    again = bool(jax.config.jax_enable_x64)
print(json.dumps({"import": after_import, "mode": mode, "jax": after_jax, "again": again,
                  "dtypes": dts, "warnings": [str(x.message) for x in w
                               if not x.filename.endswith("cloud_tpu_init.py")]}))
"""


def run(prelude="", env=None):
    e = {k: v for k, v in subprocess_env().items()
         if k not in ("NAMEDARRAY_DTYPES", "JAX_ENABLE_X64")}
    e.update(env or {})
    out = subprocess.run([sys.executable, "-c", prelude + REPORT], capture_output=True,
                         text=True, env=e, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


JAX32 = ["int32", "float32", "float32", "float32", "float32"]
JAX64 = ["int64", "float64", "float64", "float64", "float64"]


@pytest.mark.parametrize("case", ["fresh", "arrays-first", "env-x64-off", "user-x64-on",
                                  "opt-out-env", "explicit-numpy", "user-x64-off-no-arrays"])
def test_x64_paths(case):
    prelude, env = "", {}
    if case not in ("fresh", "env-x64-off", "user-x64-off-no-arrays"):
        prelude = "import jax, jax.numpy as jnp; jnp.ones(2)\n"   # JAX already in use
    if case == "env-x64-off":
        env = {"JAX_ENABLE_X64": "0"}
    if case == "user-x64-on":
        prelude = "import jax; jax.config.update('jax_enable_x64', True); jax.numpy.ones(2)\n"
    if case == "user-x64-off-no-arrays":
        # leaves no trace JAX can report (its config keeps values only, and off is
        # the default): no warning, see namedarray/core/config.py
        prelude = "import jax; jax.config.update('jax_enable_x64', False)\n"
    if case == "opt-out-env":
        env = {"NAMEDARRAY_DTYPES": "jax"}
    if case == "explicit-numpy":
        env = {"NAMEDARRAY_DTYPES": "numpy"}
    r = run(prelude, env)
    warned = [m for m in r["warnings"] if "jax_enable_x64" in m]
    if case in ("arrays-first", "env-x64-off"):
        # the default changed the flag under code that already used JAX: one warning
        assert len(warned) == 1, r
        assert "NAMEDARRAY_DTYPES=jax" in warned[0]
        assert "set_dtype_defaults('jax')" in warned[0]
    else:
        assert warned == [], r
    assert r["warnings"] == warned, r        # nothing else warns (np.arange in JAX mode)
    assert r["mode"] == ("jax" if case == "opt-out-env" else "numpy")
    # x64 is on in NumPy mode; the opt-out leaves the flag as the user had it (off)
    assert r["import"] is (case != "opt-out-env")
    # set_dtype_defaults("jax") restores the user's value: on only if they turned it on
    assert r["jax"] is (case == "user-x64-on")
    assert r["again"] is True
    assert r["dtypes"] == (JAX32 if case != "user-x64-on" else JAX64)


def test_bad_env_value():
    e = subprocess_env(NAMEDARRAY_DTYPES="float128")
    p = subprocess.run([sys.executable, "-c", "import namedarray"], capture_output=True,
                       text=True, env=e)
    assert p.returncode != 0
    assert "ValueError: NAMEDARRAY_DTYPES must be one of ('numpy', 'jax'), got 'float128'" \
        in p.stderr

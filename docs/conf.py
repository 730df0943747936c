"""Sphinx configuration for the namedarray documentation.

Build (warnings are errors, every notebook is executed):

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The tutorials are MyST markdown notebooks (``.md`` files with a jupytext
header), executed by myst-nb during the build; an exception in any cell
fails the build.
"""
import os
import sys

# The notebooks run in Jupyter kernels started by this process, so they
# inherit this environment: JAX on the CPU with 8 simulated devices (the
# "Scaling out" tutorial sets the same flag itself in its first cell, so it
# also runs outside Sphinx).
_FLAG = "--xla_force_host_platform_device_count=8"
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

# autodoc imports the package from the repository, installed or not.
sys.path.insert(0, os.path.abspath(".."))

import namedarray  # noqa: E402

project = "namedarray"
author = "namedarray developers"
copyright = "namedarray developers"
release = namedarray.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute"]
root_doc = "index"

# -- notebooks (myst-nb) -----------------------------------------------------
nb_execution_mode = "force"          # run every notebook on every build
nb_execution_timeout = 180           # seconds per cell
nb_execution_raise_on_error = True   # an exception in a cell fails the build
nb_execution_show_tb = True          # ... and the log shows its traceback
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

# -- API reference (autodoc) -------------------------------------------------
autodoc_docstring_signature = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"           # signatures show defaults; types live in prose
napoleon_numpy_docstring = True
napoleon_google_docstring = False

# -- HTML --------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"namedarray {release}"
html_static_path = []
html_theme_options = {
    "description": "NumPy with named axes, on JAX",
    "fixed_sidebar": True,
}

"""Sphinx configuration for the namedarray documentation.

Build (warnings are errors, every notebook is executed):

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The tutorials are MyST markdown notebooks (``.md`` files with a jupytext
header), executed by myst-nb during the build; an exception in any cell
fails the build.  Before reading, the extensions in ``_ext/`` write the API
reference pages (``api/``, from the package's declaration tables), the
pictures and NumPy's and JAX's intersphinx inventories (``_generated/``,
computed from the installed packages); both folders are build outputs, not
sources to edit.
"""
import os
import pathlib
import sys

# The notebooks run in Jupyter kernels started by this process, so they
# inherit this environment: JAX on the CPU with 8 simulated devices (the
# "Scaling out" tutorial sets the same flag itself in its first cell, so it
# also runs outside Sphinx).
_FLAG = "--xla_force_host_platform_device_count=8"
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

# autodoc imports the package from the repository, installed or not; the
# extension in _ext/ writes the generated API pages (api/) and pictures.
sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.abspath("_ext"))

import namedarray  # noqa: E402

project = "namedarray"
author = "namedarray developers"
copyright = "namedarray developers"
release = namedarray.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "apiref",                        # _ext/apiref.py: the generated API reference
    "pictures",                      # _ext/pictures.py: figures drawn at build time
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = ["_build", "_ext", "**.ipynb_checkpoints", "jupyter_execute"]
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
# each NumPy function's docstring ends with what names do here (docstrings.py)
napoleon_custom_sections = ["Named axes"]

# -- links to NumPy and JAX (intersphinx) ------------------------------------
# The build has no network: the inventories are written from the installed
# numpy and jax (_ext/inventories.py), each name linked to its page online.
import inventories  # noqa: E402

_INVENTORIES = inventories.write(pathlib.Path(__file__).parent / "_generated")
intersphinx_mapping = {
    "numpy": (inventories.NUMPY, str(_INVENTORIES["numpy"])),
    "jax": (inventories.JAX, str(_INVENTORIES["jax"])),
}

# -- HTML --------------------------------------------------------------------
# sphinx-book-theme (pydata-sphinx-theme underneath, as JAX uses): full-text
# search, a wide content column, the site's table of contents on the left and
# the page's own ("On this page") on the right.
html_theme = "sphinx_book_theme"
html_title = f"namedarray {release}"
html_static_path = ["_static"]
html_css_files = ["wrap.css"]        # long code lines wrap instead of scrolling
html_theme_options = {
    "show_toc_level": 2,             # the page's sections in the right sidebar
    "navigation_with_keys": False,
    "use_download_button": True,     # a notebook page downloads as .ipynb/.md
    "home_page_in_toc": True,
}

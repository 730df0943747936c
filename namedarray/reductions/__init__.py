"""The reductions: NumPy's reduction table (``table.py``: ``sum``, ``mean``,
``argmax``, ``nansum``, ... one declaration each), the one engine under it
(``engine.py``: positional axes reduce in ``jax.numpy``; a named axis that an
enclosing map binds becomes a collective), reductions through ``where=`` and
data-dependent masks (``masked.py``), and the statistics beside the table
(``statistics.py``: quantiles, ``average``, ``cov``, ...).  A frontend family
(docs/design.md §3): above ``parallel``, below the namespace only."""

"""The top layer: ``nmap`` (vmap locally, shard_map over a mesh) and ``shard``.

``local.py`` maps names with ``jax.vmap``; ``mesh.py`` runs under
``jax.shard_map`` and places data with ``NamedSharding`` (``shard``).
"""
from .local import nmap
from .mesh import shard

__all__ = ["nmap", "shard"]

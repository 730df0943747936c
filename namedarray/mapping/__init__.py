"""The top layer: ``nmap`` (vmap locally, shard_map over a mesh) and ``shard``."""

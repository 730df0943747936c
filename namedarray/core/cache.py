"""The one kind of cache the package keeps: plans, compiled programs and
dtype answers keyed by static facts (shapes, dtypes, names, keywords).

A program that meets ever new shapes must not hold ever more memory, and a
working set refills in a few calls, so a :class:`Cache` simply empties itself
when it is full (no bookkeeping per hit: a hit is a ``dict`` lookup).

>>> c = Cache(limit=2)
>>> c.put("a", 1), c.put("b", 2), c.put("c", 3)
(1, 2, 3)
>>> dict(c)
{'c': 3}
"""
from __future__ import annotations

#: the entries a cache holds before it empties itself
LIMIT = 4096


class Cache(dict):
    """A ``dict`` (look up with ``get`` / ``in``) that :meth:`put` empties
    when it holds ``limit`` entries."""

    __slots__ = ("limit",)

    def __init__(self, limit: int = LIMIT):
        super().__init__()
        self.limit = limit

    def put(self, key, value):
        """Store ``value`` under ``key`` (emptying a full cache first); ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

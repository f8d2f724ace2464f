"""The core's memory cache, for both faces.

Results of 128 KiB and more live in blocks that the core keeps when they
are freed and hands out again for the next result of their size class, so
a loop of allocating operations does not fault fresh pages in on every
call (docs/performance.md, "Memory").  The cache is bounded (by default an
eighth of the machine's memory, at most 2 GiB; the environment variable
``STRIDED_CACHE_MB`` sets it at load time), forgets blocks not reused
within 256 frees, and is given back when the system runs short of memory.
These functions are for a program that wants the memory back now, or a
different bound.

Examples
--------
>>> import strided.memory
>>> import strided.compat as xp
>>> x = xp.ones(1_000_000); del x          # 8 MB: kept for the next result
>>> strided.memory.stats()["bytes"] >= 8_000_000
True
>>> strided.memory.release() >= 8_000_000  # given back to the system
True
>>> strided.memory.stats()["bytes"]
0
"""

from .core.base import cache_release, cache_set_limit, cache_stats

__all__ = ["release", "set_limit", "stats"]


def release() -> int:
    """Give every cached block back to the system.

    Returns
    -------
    int
        The bytes given back.
    """
    return int(cache_release())


def set_limit(nbytes: int) -> None:
    """Bound the bytes the cache keeps, and give back what it keeps now.

    Parameters
    ----------
    nbytes : int
        The bound in bytes; 0 keeps nothing (every large block is unmapped
        when freed, as without a cache).

    Raises
    ------
    ValueError
        nbytes is negative.
    """
    cache_set_limit(nbytes)


def stats() -> dict[str, int]:
    """The cache's counters.

    Returns
    -------
    dict
        ``bytes`` and ``blocks`` cached now; ``hits`` and ``misses``: large
        requests served from the cache and by a new mapping since the
        library loaded; ``limit``: the bound in bytes.
    """
    return {k: int(v) for k, v in cache_stats().items()}

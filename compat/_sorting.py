"""sort and argsort: the core's stable sort (NaN last ascending)."""
from __future__ import annotations

from strided.core import indexing as _indexing

from ._array import Array
from ._dtypes import KINDS


def _check(name, x):
    if x.dtype not in KINDS["real numeric"] and x.dtype not in KINDS["bool"]:
        raise TypeError(f"{name} is not defined for {x.dtype.name}")


def sort(x, /, *, axis=-1, descending=False, stable=True):
    _check("sort", x)
    if x.ndim == 0:
        raise ValueError("sort of a 0-d array")
    return Array._new(_indexing.sort(x._c, axis, bool(descending)))


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    _check("argsort", x)
    if x.ndim == 0:
        raise ValueError("argsort of a 0-d array")
    return Array._new(_indexing.argsort(x._c, axis, bool(descending)))


__all__ = ["argsort", "sort"]

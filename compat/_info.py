"""__array_namespace_info__: what this namespace offers."""
from __future__ import annotations

from strided.core.base import lib

from . import _dtypes
from ._array import CPU, check_device

_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
          "complex floating", "numeric")


class Info:
    __module__ = "strided.compat"

    def __reduce__(self):
        return __array_namespace_info__, ()      # the class is not a name of strided.compat

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": lib.ST_MAX_DIMS}

    def default_device(self):
        return CPU

    def devices(self):
        return [CPU]                 # a list, as the standard says (SciPy appends to it)

    def default_dtypes(self, *, device=None):
        check_device(device)
        return {"real floating": _dtypes.float64, "complex floating": _dtypes.complex128,
                "integral": _dtypes.int64, "indexing": _dtypes.int64}

    def dtypes(self, *, device=None, kind=None):
        check_device(device)
        return {d.name: d for d in _dtypes.ALL if kind is None or _dtypes.isdtype(d, kind)}


def __array_namespace_info__():
    return Info()

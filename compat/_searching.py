"""Searching functions: argmax/argmin, nonzero, where, count_nonzero."""
from __future__ import annotations

from strided.core import base as _core, indexing as _indexing, ops as _ops, views as _views

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._elementwise import as_core


def _real(name, x):
    if x.dtype not in KINDS["real numeric"]:
        raise TypeError(f"{name} is not defined for {x.dtype.name}")


def argmax(x, /, *, axis=None, keepdims=False):
    _real("argmax", x)
    return Array._new(_ops.argreduce(True, x._c, axis, keepdims))


def argmin(x, /, *, axis=None, keepdims=False):
    _real("argmin", x)
    return Array._new(_ops.argreduce(False, x._c, axis, keepdims))


def nonzero(x, /):
    if x.ndim == 0:
        raise ValueError("nonzero of a 0-d array is not defined")
    coords = _indexing.nonzero(x._c)
    return tuple(Array._new(_core.contiguous(_views.select(coords, 1, d)))
                 for d in range(x.ndim))


def where(condition, x1, x2, /):
    if not isinstance(condition, Array) or condition.dtype is not _dtypes.bool:
        raise TypeError("where: condition must be a bool array")
    if isinstance(x1, Array) and isinstance(x2, Array):
        dt = _dtypes.promote(x1.dtype, x2.dtype)
    elif isinstance(x1, Array):
        dt = _dtypes.scalar_result(x1.dtype, x2)
    elif isinstance(x2, Array):
        dt = _dtypes.scalar_result(x2.dtype, x1)
    else:
        raise TypeError("where: x1 or x2 must be an array")
    return Array._new(_ops.where(condition._c, as_core(x1, dt), as_core(x2, dt)))


def count_nonzero(x, /, *, axis=None, keepdims=False):
    nz = _ops.binary("not_equal", x._c, _core.scalar(0, x.dtype))
    axes = axis if axis is None or isinstance(axis, tuple) else (axis,)
    return Array._new(_ops.reduce("sum", nz, axes, keepdims))


__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "where"]

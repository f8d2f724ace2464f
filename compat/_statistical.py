"""Statistical and utility reductions: one core reduction each (sum, prod,
max, min, all, any; mean and var/std in two passes; cumulative sums)."""
from __future__ import annotations

from strided.core import base as _core, ops as _ops, views as _views

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS


def _axes(axis):
    return axis if axis is None or isinstance(axis, tuple) else (axis,)


def _need(name, x, category):
    if x.dtype not in KINDS[category]:
        raise TypeError(f"{name} is not defined for {x.dtype.name} (needs {category} dtypes)")


def _sum_like(op, x, axis, dtype, keepdims):
    # the extension: bool sums (and multiplies) in int64, as in numpy
    _need(op, x, "numeric" if x.dtype is not _dtypes.bool else "bool")
    c = x._c
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
        if c.dtype is not dtype:
            c = _core.astype(c, dtype)
    out = _ops.reduce(op, c, _axes(axis), keepdims)
    if dtype is not None and out.dtype is not dtype:
        out = _core.astype(out, dtype)
    return Array._new(out)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _sum_like("sum", x, axis, dtype, keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _sum_like("prod", x, axis, dtype, keepdims)


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    _need("max", x, "real numeric")
    return Array._new(_ops.reduce("max", x._c, _axes(axis), keepdims))


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    _need("min", x, "real numeric")
    return Array._new(_ops.reduce("min", x._c, _axes(axis), keepdims))


def mean(x, /, *, axis=None, keepdims=False, dtype=None):
    """The standard's mean; the extension, as numpy's: `dtype`, a floating
    dtype, converts x first (the sum and the result are of that dtype), and
    an integer or bool x is averaged in float64."""
    c = x._c
    if dtype is None and c.dtype in KINDS["integral or bool"]:
        dtype = _dtypes.float64
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
        if dtype not in KINDS["floating"]:
            raise TypeError(f"mean: dtype must be a floating dtype, got {dtype.name}")
        if c.dtype in KINDS["complex floating"] and dtype in KINDS["real floating"]:
            raise TypeError(f"mean: a {c.dtype.name} array cannot be averaged in {dtype.name}")
        if c.dtype is not dtype:
            c = _core.astype(c, dtype)
    return Array._new(_ops.mean(c, _axes(axis), keepdims))


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    _need("var", x, "real floating")
    return Array._new(_ops.var(x._c, _axes(axis), correction, keepdims))


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    _need("std", x, "real floating")
    return Array._new(_ops.std(x._c, _axes(axis), correction, keepdims))


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return Array._new(_ops.reduce("all", x._c, _axes(axis), keepdims))


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return Array._new(_ops.reduce("any", x._c, _axes(axis), keepdims))


def _cumulative(is_prod, x, axis, dtype, include_initial):
    name = "cumulative_prod" if is_prod else "cumulative_sum"
    _need(name, x, "numeric" if x.dtype is not _dtypes.bool else "bool")   # bool: int64
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
        axis = 0
    c = x._c
    dtype = None if dtype is None else _dtypes.check_dtype(dtype)
    if dtype is not None and c.dtype is not dtype:
        c = _core.astype(c, dtype)
    res = _ops.cumulative(is_prod, c, axis)
    if dtype is not None and res.dtype is not dtype:
        res = _core.astype(res, dtype)
    if include_initial:
        d = _views.normalize_dim(axis, c.ndim, "axis")
        shape = list(res.shape)
        shape[d] += 1
        out = _core.full(shape, 1 if is_prod else 0, res.dtype)
        _core.copy_(_views.narrow(out, d, 1, res.shape[d]), res)
        res = out
    return Array._new(res)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(False, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(True, x, axis, dtype, include_initial)


def nansum(x, /, *, axis=None, dtype=None, keepdims=False):
    """The extension, as numpy's nansum: sum with NaN counted as zero (for a
    complex element, NaN in either part); integers and bool as sum."""
    if x.dtype in KINDS["floating"]:
        c = x._c
        x = Array._new(_ops.where(_ops.unary("isnan", c), _core.scalar(0, c.dtype), c))
    return sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


__all__ = ["all", "any", "cumulative_prod", "cumulative_sum", "max", "mean", "min", "nansum",
           "prod", "std", "sum", "var"]

"""Indexing of strided.compat arrays.  Basic indices (integers, slices with
any step, ellipsis, None) build views; a boolean mask and integer arrays go
to the core's index kernels (nonzero, index_select, masked_fill/copy)."""
from __future__ import annotations

import math
import operator

from strided import _core, _indexing, _ops, _views
from strided._c._strided import lib

from . import _dtypes
from ._dtypes import KINDS


def _array_cls():
    from ._array import Array
    return Array


def _split(c, key):
    """(kind, entries): kind 'basic', 'mask' or 'ints'."""
    Array = _array_cls()
    if not isinstance(key, tuple):
        key = (key,)
    arrays = [k for k in key if isinstance(k, Array)]
    if not arrays:
        return "basic", key
    if len(arrays) == 1 and arrays[0].dtype is _dtypes.bool:
        at = next(i for i, k in enumerate(key) if isinstance(k, Array))
        prefix, rest = key[:at], key[at + 1:]
        if (any(k is None or k is Ellipsis or isinstance(k, bool) for k in prefix)
                or any(k is not Ellipsis for k in rest) or len(rest) > 1):
            raise IndexError("a boolean array index may be preceded only by integers and "
                             "slices, and followed only by an ellipsis")
        return "mask", (prefix, arrays[0]._c)
    for k in key:
        if isinstance(k, Array):
            if k.dtype not in KINDS["integral"]:
                raise IndexError(f"array indices must be integer or boolean, got {k.dtype.name}")
        elif isinstance(k, (slice, type(None))) or k is Ellipsis or isinstance(k, bool):
            raise IndexError("integer array indices may be combined only with integers")
        else:
            operator.index(k)
    if len(key) > c.ndim:
        raise IndexError(f"too many indices ({len(key)}) for an array of {c.ndim} dims")
    return "ints", key


def _basic(c, key):
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis")
    m = sum(1 for k in key if k is not None and k is not Ellipsis)
    if m > c.ndim:
        raise IndexError(f"too many indices ({m}) for an array of {c.ndim} dims")
    out, d = c, 0
    for k in key:
        if k is None:
            out = _views.unsqueeze(out, d)
            d += 1
        elif k is Ellipsis:
            d += c.ndim - m
        elif isinstance(k, slice):
            for v in (k.start, k.stop, k.step):
                if v is not None:
                    operator.index(v)
            out = _views.slice_dim(out, d, k.start, k.stop, k.step)
            d += 1
        elif isinstance(k, bool):
            raise IndexError("a Python bool is not a supported index")
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(f"unsupported index {k!r} of type {type(k).__name__}") from None
            out = _views.select(out, d, i)
    return out


def _flat(c, shape):
    """c viewed (or, failing that, copied) as `shape`."""
    v = _views.view_as_shape(c, shape)
    return v if v is not None else _views.view_as_shape(_core.contiguous(c), shape)


def _mask_parts(c, mask):
    """(c flattened over the mask's dims, the flat mask, the remaining shape)."""
    if mask.ndim == 0:
        c, mask = _views.unsqueeze(c, 0), _views.unsqueeze(mask, 0)
    k = mask.ndim
    if k > c.ndim or mask.shape != c.shape[:k]:
        raise IndexError(f"boolean index of shape {mask.shape} does not match "
                         f"the array's leading dims {c.shape[:k]}")
    rest = c.shape[k:]
    lead = math.prod(mask.shape)
    return c, mask, rest, lead


def _mask_get(c, mask):
    c, mask, rest, lead = _mask_parts(c, mask)
    idx = _indexing.nonzero(_flat(mask, (lead,)))
    idx = _flat(idx, (idx.shape[0],))
    return _indexing.index_select(_flat(c, (lead,) + rest), 0, idx)


def _normalized_indices(c, key):
    """int64 Cores broadcast to one shape, wrapped to [0, n) and bounds
    checked in C (index_select of an arange with ST_IDX_WRAP)."""
    Array = _array_cls()
    cores = [k._c if isinstance(k, Array) else _core.scalar(operator.index(k), _core.int64)
             for k in key]
    shape = _ops.broadcast_shapes(*(x.shape for x in cores))
    out = []
    for d, x in enumerate(cores):
        n = c.shape[d]
        x = _core.astype(_views.expand(x, shape), _core.int64)
        positions = _arange_core(n)
        flat = _flat(x, (x.size,))
        out.append(_flat(_indexing.index_select(positions, 0, flat, lib.ST_IDX_WRAP), shape))
    return out, shape


def _arange_core(n):
    """int64 0, 1, ..., n-1 (a cumulative sum of ones, in C)."""
    ones = _core.full((n,), 1, _core.int64)
    return _ops.binary("subtract", _ops.cumulative(False, ones, 0), _core.scalar(1, _core.int64))


def _linear(c, key):
    idx, shape = _normalized_indices(c, key)
    k = len(key)
    lin = None
    for d, x in enumerate(idx):
        stride = math.prod(c.shape[d + 1:k])
        term = _ops.binary("multiply", x, _core.scalar(stride, _core.int64)) if stride != 1 else x
        lin = term if lin is None else _ops.binary("add", lin, term)
    return lin, shape, c.shape[k:], math.prod(c.shape[:k])


def _ints_get(c, key):
    lin, shape, rest, lead = _linear(c, key)
    flat = _flat(lin, (lin.size,))
    out = _indexing.index_select(_flat(c, (lead,) + rest), 0, flat)
    return _flat(out, shape + rest)


def _mask_view(c, prefix, mask):
    """(view of c with the masked dims first, position p where they were)."""
    v = _basic(c, prefix + (Ellipsis,))
    p = sum(1 for k in prefix if isinstance(k, slice))
    k = max(mask.ndim, 1) if mask.ndim else 0
    order = list(range(p, min(p + k, v.ndim))) + [d for d in range(v.ndim)
                                                  if not p <= d < p + k]
    return (_views.permute(v, order) if p else v), p


def _move_first_to(c, p):
    if not p:
        return c
    order = list(range(1, p + 1)) + [0] + list(range(p + 1, c.ndim))
    return _views.permute(c, order)


def getitem(c, key):
    kind, entries = _split(c, key)
    if kind == "basic":
        return _basic(c, entries)
    if kind == "mask":
        prefix, mask = entries
        v, p = _mask_view(c, prefix, mask)
        return _move_first_to(_mask_get(v, mask), p)
    return _ints_get(c, entries)


# ---------------------------------------------------------------- setitem


def _value_core(value, dt):
    """value (an Array or a Python scalar) as a Core of dtype dt, or a
    TypeError when the standard's promotion would change dt."""
    Array = _array_cls()
    if isinstance(value, Array):
        if _dtypes.PROMOTE.get((value.dtype, dt)) is not dt:
            raise TypeError(f"cannot assign a {value.dtype.name} array into a {dt.name} array")
        return value._c if value.dtype is dt else _core.astype(value._c, dt)
    if isinstance(value, (bool, int, float, complex)):
        if _dtypes.scalar_result(dt, value) is not dt:
            raise TypeError(f"cannot assign a Python {type(value).__name__} into a {dt.name} array")
        return _core.scalar(value, dt)
    raise TypeError(f"cannot assign a {type(value).__name__} into an array")


def _assign(dst, src):
    if src.storage == dst.storage and src.size:
        src = _core.astype(src, src.dtype)   # overlapping views: copy first
    _core.copy_(dst, _views.expand(src, dst.shape))


def setitem(c, key, value):
    kind, entries = _split(c, key)
    v = _value_core(value, c.dtype)
    if kind == "basic":
        _assign(_basic(c, entries), v)
        return
    if kind == "mask":
        prefix, mask = entries
        view, p = _mask_view(c, prefix, mask)
        full, mask, rest, lead = _mask_parts(view, mask)
        m = _flat(mask, mask.shape + (1,) * len(rest))
        if v.size == 1 and v.ndim <= len(rest) + 1:
            _indexing.masked_fill(full, m, _core.item(v))
        else:
            # the value is laid out like the getitem result: the selected
            # elements' axis at p; move it first, as masked_copy reads it
            n = _ops.count_nonzero(mask)
            src = _views.expand(v, rest[:p] + (n,) + rest[p:])
            if p:
                src = _views.permute(src, [p] + list(range(p)) + list(range(p + 1, src.ndim)))
            _indexing.masked_copy(full, m, _core.contiguous(src))
        return
    lin, shape, rest, lead = _linear(c, entries)
    target = _views.view_as_shape(c, (lead,) + rest)
    staged = None
    if target is None:   # a layout no flat view fits: work on a copy, then write it back
        staged = _core.contiguous(c)
        target = _views.view_as_shape(staged, (lead,) + rest)
    src = _core.contiguous(_views.expand(v, shape + rest))
    _indexing.index_copy(target, 0, _flat(lin, (lin.size,)), _flat(src, (lin.size,) + rest))
    if staged is not None:
        _core.copy_(c, staged)

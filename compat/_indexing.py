"""Indexing of strided.compat arrays.  Basic indices (integers, slices with
any step, ellipsis, None) build views; a boolean mask and integer arrays go
to the core's index kernels (nonzero, index_select, masked_fill/copy)."""

from __future__ import annotations

import math
import operator

from strided.core import base as _core, indexing as _indexing, ops as _ops, views as _views

from . import _dtypes, _numpy
from ._array import Array
from ._dtypes import KINDS


_PLAIN = {int, slice, type(None)}  # key entries that need no conversion
_SCALARS = {bool, int, float, complex}


def _entry(k):
    """A key entry with numpy's objects made ours: a numpy array is an Array
    over its memory, a numpy bool a Python bool; a Python bool is a 0-d
    boolean index (numpy's x[True], x[False])."""
    if isinstance(k, bool):
        return Array._new(_core.scalar(k, _core.bool_))
    if _numpy.is_array(k):
        from ._creation import asarray

        return asarray(k)
    if _numpy.is_scalar(k) and k.dtype.kind == "b":
        return Array._new(_core.scalar(bool(k), _core.bool_))
    return k


def _split(c, key):
    """(kind, entries): kind 'basic', 'mask' or 'ints'."""
    if not isinstance(key, tuple):
        key = (key,)
    if not all(type(k) in _PLAIN or k is Ellipsis for k in key):
        key = tuple(_entry(k) for k in key)
    arrays = [k for k in key if isinstance(k, Array)]
    if not arrays:
        return "basic", key
    for k in arrays:
        if k.dtype is not _dtypes.bool and k.dtype not in KINDS["integral"]:
            raise IndexError(f"array indices must be integer or boolean, got {k.dtype.name}")
    for k in key:
        if not (isinstance(k, (Array, slice, type(None))) or k is Ellipsis):
            operator.index(k)
    if len(arrays) == 1 and arrays[0].dtype is _dtypes.bool:
        at = next(i for i, k in enumerate(key) if isinstance(k, Array))
        prefix, rest = key[:at], key[at + 1 :]
        if not any(k is None or k is Ellipsis for k in prefix) and rest in ((), (Ellipsis,)):
            # the mask kernels' case: the standard's form, a mask after
            # integers and slices (a mask dim of size 0 selects nothing)
            return "mask", (prefix, arrays[0]._c)
    if all(k.ndim == 0 and k.dtype is not _dtypes.bool for k in arrays):
        # the standard: a 0-d integer array is the integer it holds
        return "basic", tuple(operator.index(k) if isinstance(k, Array) else k for k in key)
    # any other mix (a mask after None or an ellipsis, several masks, masks
    # and integer arrays): numpy's rule, a boolean array is the integer
    # arrays of its nonzero coordinates (_advanced)
    return "ints", key


def _consumed(k):
    """How many dims of the array a key entry indexes."""
    if k is None or k is Ellipsis:
        return 0
    if getattr(k, "dtype", None) is _dtypes.bool:  # a boolean array: its dims
        return k.ndim
    return 1


def _without_ellipsis(key, ndim):
    """key with its ellipsis (or the implicit one at the end) spelled out
    as full slices."""
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis")
    used = sum(map(_consumed, key))
    if used > ndim:
        raise IndexError(f"too many indices ({used}) for an array of {ndim} dims")
    at = next((i for i, k in enumerate(key) if k is Ellipsis), len(key))
    return key[:at] + (slice(None),) * (ndim - used) + key[at + 1 :]


def _advanced(c, key):
    """numpy's rules for integer arrays among integers, slices, None and an
    ellipsis (the standard leaves the mix to us).  Returns the view of c
    with the indexed dims first, the indices (integers and int64 Cores,
    which broadcast together), and where the result's broadcast dims go:
    in place of the indexed dims when those were adjacent in the key, else
    first.  A boolean array of k dims stands for the k integer arrays of
    its nonzero coordinates; a 0-d one (or a Python bool) for a new axis
    indexed by [0] (True) or [] (False), as in numpy."""
    key = _without_ellipsis(key, c.ndim)
    basic, indices, dims, places = [], [], [], []
    d = 0  # the array dim the next entry indexes
    for place, k in enumerate(key):
        if k is None or isinstance(k, slice):
            basic.append(k)
            d += k is not None
            continue
        if isinstance(k, Array) and k.dtype is _dtypes.bool:
            if k.ndim == 0:
                dims.append(len(basic))
                places.append(place)
                basic.append(None)
                indices.append(_core.full((1 if _core.item(k._c) else 0,), 0, _core.int64))
                continue
            if k.shape != c.shape[d : d + k.ndim]:
                raise IndexError(
                    f"boolean index of shape {k.shape} does not match the "
                    f"array's dims {c.shape[d : d + k.ndim]} it indexes"
                )
            coords = _indexing.nonzero(k._c)
            for j in range(k.ndim):
                dims.append(len(basic))
                places.append(place)
                basic.append(slice(None))
                indices.append(_views.select(coords, 1, j))
            d += k.ndim
            continue
        dims.append(len(basic))
        places.append(place)
        basic.append(slice(None))
        indices.append(k._c if isinstance(k, Array) else k)
        d += 1
    v = _basic(c, tuple(basic))
    rest = [d for d in range(v.ndim) if d not in dims]
    adjacent = places[-1] - places[0] == len(set(places)) - 1
    at = dims[0] if adjacent else 0
    return _views.permute(v, dims + rest), indices, at


def _result_order(ndim_index, ndim_rest, at):
    """The permutation taking (index dims, rest dims) to the result's order."""
    idx = list(range(ndim_index))
    rest = list(range(ndim_index, ndim_index + ndim_rest))
    return rest[:at] + idx + rest[at:]


def _basic(c, key):
    """The view for integers, slices, None and an ellipsis, made in one
    step: the geometry is worked out here, the core checks it once."""
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis")
    m = sum(1 for k in key if k is not None and k is not Ellipsis)
    if m > c.ndim:
        raise IndexError(f"too many indices ({m}) for an array of {c.ndim} dims")
    in_shape, in_strides = c.shape, c.strides
    shape, strides, offset, d = [], [], c.offset, 0
    for k in key:
        if k is None:
            shape.append(1)
            strides.append(0)
        elif k is Ellipsis:
            n = c.ndim - m
            shape += in_shape[d : d + n]
            strides += in_strides[d : d + n]
            d += n
        elif isinstance(k, slice):
            try:
                start, stop, step = k.indices(in_shape[d])
            except TypeError:
                raise IndexError(f"slice bounds must be integers or None, got {k!r}") from None
            shape.append(len(range(start, stop, step)))
            strides.append(in_strides[d] * step)
            offset += start * in_strides[d]
            d += 1
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(f"unsupported index {k!r} of type {type(k).__name__}") from None
            n = in_shape[d]
            if not -n <= i < n:
                raise IndexError(f"index {i} out of range [{-n}, {n - 1}] at dim {d}")
            offset += (i % n) * in_strides[d]
            d += 1
    shape += in_shape[d:]
    strides += in_strides[d:]
    if 0 in shape or 0 in in_shape:
        # an empty view keeps the offset: with negative strides a moved
        # offset could fall outside the storage
        offset = c.offset
    return c.view(offset, shape, strides)


def _flat(c, shape):
    """c viewed (or, failing that, copied) as `shape`."""
    v = _views.view_as_shape(c, shape)
    return v if v is not None else _views.view_as_shape(_core.contiguous(c), shape)


def _mask_parts(c, mask):
    """(c flattened over the mask's dims, the flat mask, the remaining shape).
    A mask dim of size 0 selects nothing along any array dim (the standard)."""
    if mask.ndim == 0:
        c, mask = _views.unsqueeze(c, 0), _views.unsqueeze(mask, 0)
    k = mask.ndim
    if k > c.ndim or any(m not in (n, 0) for m, n in zip(mask.shape, c.shape)):
        raise IndexError(
            f"boolean index of shape {mask.shape} does not match "
            f"the array's leading dims {c.shape[:k]}"
        )
    for d in range(k):
        if mask.shape[d] == 0 and c.shape[d] != 0:
            c = _views.narrow(c, d, 0, 0)
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
    cores = [
        k if isinstance(k, _core.Core) else _core.scalar(operator.index(k), _core.int64)
        for k in key
    ]
    try:
        shape = _ops.broadcast_shapes(*(x.shape for x in cores))
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be broadcast together "
            f"with shapes {' '.join(str(x.shape) for x in cores)}"
        ) from None
    out = []
    for d, x in enumerate(cores):
        n = c.shape[d]
        x = _core.astype(_views.expand(x, shape), _core.int64)
        positions = _arange_core(n)
        flat = _flat(x, (x.size,))
        out.append(_flat(_indexing.index_select(positions, 0, flat, _indexing.WRAP), shape))
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
        stride = math.prod(c.shape[d + 1 : k])
        term = _ops.binary("multiply", x, _core.scalar(stride, _core.int64)) if stride != 1 else x
        lin = term if lin is None else _ops.binary("add", lin, term)
    return lin, shape, c.shape[k:], math.prod(c.shape[:k])


def _ints_get(c, key):
    v, indices, at = _advanced(c, key)
    lin, shape, rest, lead = _linear(v, indices)
    flat = _flat(lin, (lin.size,))
    out = _flat(_indexing.index_select(_flat(v, (lead,) + rest), 0, flat), shape + rest)
    return _views.permute(out, _result_order(len(shape), len(rest), at)) if at else out


def _mask_view(c, prefix, mask):
    """(view of c with the masked dims first, the position of the selected
    elements' dim in the result).  As in numpy, integers before the mask
    are index arrays too: when a slice separates one from the mask, the
    selected dim goes first, else where the masked dims were."""
    v = _basic(c, prefix + (Ellipsis,))
    p = sum(1 for k in prefix if isinstance(k, slice))
    k = max(mask.ndim, 1) if mask.ndim else 0
    order = list(range(p, min(p + k, v.ndim))) + [d for d in range(v.ndim) if not p <= d < p + k]
    first_int = next((i for i, k in enumerate(prefix) if not isinstance(k, slice)), len(prefix))
    separated = any(isinstance(k, slice) for k in prefix[first_int:])
    return (_views.permute(v, order) if p else v), (0 if separated else p)


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


def _check_scalar(value, dt):
    if _dtypes.scalar_result(dt, value) is not dt:
        raise TypeError(
            f"cannot cast a Python {type(value).__name__} into a {dt.name} array "
            "(assignment keeps the array's dtype)"
        )


def _value_core(value, dt):
    """value (an Array or a Python scalar) as a Core of dtype dt, or a
    TypeError ("cannot cast", the word clients match) when promotion would
    change dt."""
    if isinstance(value, Array):
        if _dtypes.PROMOTE.get((value.dtype, dt)) is not dt:
            raise TypeError(
                f"cannot cast a {value.dtype.name} array into a {dt.name} array "
                "(assignment keeps the array's dtype; use astype)"
            )
        return value._c if value.dtype is dt else _core.astype(value._c, dt)
    if isinstance(value, (bool, int, float, complex)):
        _check_scalar(value, dt)
        return _core.scalar(value, dt)
    raise TypeError(f"cannot assign a {type(value).__name__} into an array")


def _assign(dst, src):
    if src.storage == dst.storage and src.size:
        src = _core.astype(src, src.dtype)  # overlapping views: copy first
    _core.copy_(dst, _views.expand(src, dst.shape))


def setitem(c, key, value):
    if (
        type(value) in _SCALARS
        and getattr(key, "dtype", None) is _dtypes.bool
        and type(key) is Array
        and key.shape == c.shape
    ):
        # x[mask] = number with a mask of x's shape (scikit-learn's
        # scale[scale == 0] = 1): the mask kernel straight away, which
        # converts the number as _core.scalar does
        _check_scalar(value, c.dtype)
        _indexing.masked_fill(c, key._c, value)
        return
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
    view, indices, at = _advanced(c, entries)
    lin, shape, rest, lead = _linear(view, indices)
    target = _views.view_as_shape(view, (lead,) + rest)
    staged = None
    if target is None:  # a layout no flat view fits: work on a copy, then write it back
        staged = _core.contiguous(view)
        target = _views.view_as_shape(staged, (lead,) + rest)
    order = _result_order(len(shape), len(rest), at)
    src = _views.expand(v, tuple((shape + rest)[d] for d in order))  # laid out as getitem's result
    src = _core.contiguous(_views.permute(src, sorted(range(len(order)), key=order.__getitem__)))
    _indexing.index_copy(target, 0, _flat(lin, (lin.size,)), _flat(src, (lin.size,) + rest))
    if staged is not None:
        _core.copy_(view, staged)


# The Array's mapping slots leave to these every index C declines (arrays,
# masks, errors), with its rules and messages (compat/_operators.py sets them)
def array_getitem(x, key):
    return Array._new(getitem(x._c, key))


def array_setitem(x, key, value):
    setitem(x._c, key, value)

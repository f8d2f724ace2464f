"""Manipulation functions: views where the layout allows (reshape,
permute_dims, expand_dims, squeeze, flip, broadcast_to, moveaxis), new
arrays filled by copy_ into slices otherwise (concat, stack, roll)."""
from __future__ import annotations

import operator

from strided.core import base as _core, ops as _ops, views as _views
from strided.core.dlpack import _copy_flag

from . import _dtypes
from ._array import Array


def _dims(axes, ndim, name="axis"):
    if isinstance(axes, int) or hasattr(axes, "__index__"):
        axes = (axes,)
    out = tuple(_views.normalize_dim(a, ndim, name) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated {name} in {tuple(axes)}")
    return out


def astype(x, dtype, /, *, copy=True, device=None):
    from ._array import check_device
    check_device(device)
    dtype = _dtypes.check_dtype(dtype)
    copy = _copy_flag(copy, "astype")
    if not copy and x.dtype is dtype:
        return x
    return Array._new(_core.astype(x._c, dtype))


def reshape(x, /, shape, *, copy=None):
    shape = tuple(operator.index(s) for s in shape)
    copy = _copy_flag(copy, "reshape")
    if copy:
        return Array._new(_views.view_as_shape(_core.astype(x._c, x.dtype), shape))
    v = _views.view_as_shape(x._c, shape)
    if v is None:
        if copy is False:
            raise ValueError(f"reshape: shape {x.shape} -> {shape} needs a copy but copy=False")
        v = _views.view_as_shape(_core.contiguous(x._c), shape)
    return Array._new(v)


def permute_dims(x, /, axes):
    return Array._new(_views.permute(x._c, axes))


def expand_dims(x, /, axis=0):
    axes = (axis,) if not isinstance(axis, tuple) else axis
    n = x.ndim + len(axes)
    dims = sorted(_dims(axes, n))
    c = x._c
    for d in dims:
        c = _views.unsqueeze(c, d)
    return Array._new(c)


def squeeze(x, /, axis=None):
    """The standard's squeeze; the extension, as numpy's: without an axis,
    every dimension of size 1 goes."""
    if axis is None:
        axis = tuple(d for d, n in enumerate(x.shape) if n == 1)
    dims = _dims(axis, x.ndim)
    for d in dims:
        if x.shape[d] != 1:
            raise ValueError(f"squeeze: axis {d} has size {x.shape[d]}, not 1")
    shape = [n for d, n in enumerate(x.shape) if d not in dims]
    strides = [s for d, s in enumerate(x._c.strides) if d not in dims]
    return Array._new(x._c.view(x._c.offset, shape, strides))


def flip(x, /, *, axis=None):
    c = x._c
    for d in (range(x.ndim) if axis is None else _dims(axis, x.ndim)):
        c = _views.flip(c, d)
    return Array._new(c)


def broadcast_to(x, /, shape):
    return Array._new(_views.expand(x._c, tuple(shape)))


def broadcast_arrays(*arrays):
    shape = _ops.broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes):
    """The shape that `shapes` broadcast to (ValueError when they do not)."""
    return _ops.broadcast_shapes(*(tuple(s) for s in shapes))


def moveaxis(x, source, destination, /):
    src = _dims(source, x.ndim, "source")
    dst = _dims(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination need the same number of axes")
    order = [d for d in range(x.ndim) if d not in src]
    for s, d in sorted(zip(dst, src)):
        order.insert(s, d)
    return permute_dims(x, order)


def concat(arrays, /, *, axis=0):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("concat needs at least one array")
    dt = _dtypes.result_type(*(a.dtype for a in arrays))
    cores = [a._c for a in arrays]
    if axis is None:
        cores = [_views.view_as_shape(_core.contiguous(c), (c.size,)) for c in cores]
        axis = 0
    nd = cores[0].ndim
    if nd == 0:
        raise ValueError("concat of 0-d arrays (use stack)")
    d = _views.normalize_dim(axis, nd, "axis")
    for c in cores:
        if c.ndim != nd or any(c.shape[i] != cores[0].shape[i] for i in range(nd) if i != d):
            raise ValueError(f"concat: shapes {[c.shape for c in cores]} differ off axis {d}")
    shape = list(cores[0].shape)
    shape[d] = sum(c.shape[d] for c in cores)  # noqa
    out = _core.Core.empty(shape, dt)
    start = 0
    for c in cores:
        n = c.shape[d]
        if n:
            _core.copy_(_views.narrow(out, d, start, n), c)
        start += n
    return Array._new(out)


def stack(arrays, /, *, axis=0):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("stack needs at least one array")
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"stack: arrays must have one shape, got {[a.shape for a in arrays]}")
    return concat([expand_dims(a, axis=axis) for a in arrays], axis=axis)


def roll(x, /, shift, *, axis=None):
    if axis is None:
        flat = reshape(x, (x.size,))
        return reshape(roll(flat, shift, axis=0), x.shape)
    shifts = (shift,) if not isinstance(shift, tuple) else shift
    axes = (axis,) if not isinstance(axis, tuple) else axis
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis need the same length")
    out = x
    for s, a in zip(shifts, axes):
        d = _views.normalize_dim(a, x.ndim, "axis")
        n = x.shape[d]
        if n == 0:
            continue
        s %= n
        if s:
            c = out._c
            head = Array._new(_views.narrow(c, d, n - s, s))
            tail = Array._new(_views.narrow(c, d, 0, n - s))
            out = concat([head, tail], axis=d)
    return out if out is not x else Array._new(_core.astype(x._c, x.dtype))


__all__ = ["astype", "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims", "flip",
           "moveaxis", "permute_dims", "reshape", "roll", "squeeze", "stack"]

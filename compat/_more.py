"""Indexing functions (take, take_along_axis) and a few composite
functions (searchsorted, diff, unstack), each built from core kernels."""
from __future__ import annotations

import math

from strided.core import base as _core, indexing as _indexing, ops as _ops, setops as _setops, views as _views
from strided.core.base import lib

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._elementwise import operands


def _int_index(name, indices):
    if not isinstance(indices, Array) or indices.dtype not in KINDS["integral"]:
        raise TypeError(f"{name}: indices must be an integer array")
    c = indices._c
    return c if c.dtype is _core.int64 else _core.astype(c, _core.int64)


def take(x, indices, /, *, axis=None):
    """The standard's take; the extension, as numpy's: a Python integer
    index takes that one position, the axis dropped (take(x, 0, axis=0) is
    a copy of x[0]; with axis=None, of the flattened x)."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        c = x._c
        if axis is None:
            c = _views.view_as_shape(_core.contiguous(c), (c.size,))
            axis = 0
        elif c.ndim == 0:
            raise ValueError("take: a 0-d array has no axis to take from")
        v = _views.select(c, axis, indices)
        return Array._new(_core.astype(v, v.dtype))
    idx = _int_index("take", indices)
    if idx.ndim != 1:
        raise ValueError("take: indices must be 1-D")
    return Array._new(_indexing.take(x._c, idx, axis))


def take_along_axis(x, indices, /, *, axis=-1):
    idx = _int_index("take_along_axis", indices)
    if idx.ndim != x.ndim:
        raise ValueError("take_along_axis: indices must have x's number of dims")
    d = _views.normalize_dim(axis, x.ndim, "axis")
    shape = tuple(n if i == d else max(n, x.shape[i]) for i, n in enumerate(idx.shape))
    idx = _views.expand(idx, shape)
    return Array._new(_indexing.gather(x._c, d, idx, lib.ST_IDX_WRAP))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Positions where x2's values go in the ascending 1-D x1: one binary
    search per value of x2 in C, O(x2.size * log len(x1)), in the order of
    sort (NaN last; complex by (real, imag)).  x2 may be a Python scalar
    (0-d result); x1 and x2 promote by the standard's rules.  sorter:
    integer positions that sort x1, read through without a copy; each is
    checked to lie in [0, len(x1)) before the search."""
    if not isinstance(x1, Array):
        raise TypeError(f"searchsorted: x1 must be an Array, got {type(x1).__name__}")
    if not isinstance(side, str) or side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be 1-D, got {x1.ndim} dims (shape {x1.shape})")
    idx = None
    if sorter is not None:
        if not isinstance(sorter, Array) or sorter.dtype not in KINDS["integral"]:
            what = sorter.dtype.name if isinstance(sorter, Array) else type(sorter).__name__
            raise TypeError(f"searchsorted: sorter must be an integer array, got {what}")
        if sorter.shape != x1.shape:
            raise ValueError(f"searchsorted: sorter has shape {sorter.shape}, expected x1's "
                             f"{x1.shape}")
        idx = _int_index("searchsorted", sorter)
    a, b = operands("searchsorted", x1, x2)
    return Array._new(_setops.searchsorted(a, b, side == "right", idx))


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    from ._manipulation import concat
    if n < 0:
        raise ValueError("diff: n must be >= 0")
    d = _views.normalize_dim(axis, x.ndim, "axis")
    if prepend is not None or append is not None:
        def edge(p):
            if isinstance(p, Array):
                return p
            shape = list(x.shape)
            shape[d] = 1
            return Array._new(_core.full(shape, p, x.dtype))
        x = concat([edge(p) for p in (prepend, x, append) if p is not None], axis=d)
    d = _views.normalize_dim(axis, x.ndim, "axis")
    c = x._c
    for _ in range(n):
        m = c.shape[d]
        if m == 0:
            break
        hi, lo = _views.narrow(c, d, 1, m - 1), _views.narrow(c, d, 0, m - 1)
        c = _ops.binary("not_equal" if c.dtype is _dtypes.bool else "subtract", hi, lo)
    return Array._new(c)


def unstack(x, /, *, axis=0):
    d = _views.normalize_dim(axis, x.ndim, "axis")
    return tuple(Array._new(_views.select(x._c, d, i)) for i in range(x.shape[d]))


__all__ = ["diff", "searchsorted", "take", "take_along_axis", "unstack"]


# more elements than any allocation can hold (the core refuses 2**63 bytes
# and more): a count this large is refused before its index vector is made
_TOO_MANY = 2 ** 62


def _count(name, v, what):
    """A repetition count: an int >= 0 (bool refused), else TypeError/ValueError."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{name}: {what} must be integers, got {type(v).__name__} {v!r}")
    v = v.__index__()
    if v < 0:
        raise ValueError(f"{name}: {what} must be >= 0, got {v}")
    return v


def tile(x, repetitions, /):
    """x repeated: a broadcast view (zero strides) copied once in C."""
    reps = tuple(_count("tile", r, "repetitions") for r in repetitions)
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - x.ndim) + x.shape
    if max(reps, default=0) >= 2 ** 63 or math.prod(r * s for r, s in zip(reps, shape)) >= _TOO_MANY:
        raise OverflowError(f"tile: {reps} repetitions of shape {x.shape} make more than "
                            f"2**62 elements")
    c = _views.view_as_shape(x._c, shape)
    if c is None:
        c = _views.view_as_shape(_core.contiguous(x._c), shape)
    # interleave a repetition dim before each dim: (r0, s0, r1, s1, ...)
    for d in range(nd):
        c = _views.unsqueeze(c, 2 * d)
    c = _views.expand(c, [v for pair in zip(reps, shape) for v in pair])
    out = _core.contiguous(c)
    return Array._new(_views.view_as_shape(out, [r * s for r, s in zip(reps, shape)]))


def repeat(x, repeats, /, *, axis=None):
    """Each element (along axis; flattened when None) repeated: an index
    vector built in C, then index_select."""
    from ._creation import arange
    from ._manipulation import reshape
    if axis is None:
        x = reshape(x, (x.size,))
        axis = 0
    d = _views.normalize_dim(axis, x.ndim, "axis")
    n = x.shape[d]
    if isinstance(repeats, Array):
        if repeats.dtype not in KINDS["integral"]:
            raise TypeError("repeat: repeats must be integers")
        # a 0-d or one-element repeats applies to every element
        one = repeats.ndim == 0 or repeats.shape == (1,)
        counts = _views.expand(_views.view_as_shape(repeats._c, ()), (n,)) if one else repeats._c
        if counts.shape != (n,):
            raise ValueError(f"repeat: {counts.shape[0]} repeats for an axis of size {n}")
        if n:
            # checked in float64 (exact enough: only the order of magnitude
            # matters), as an int64 sum would wrap silently
            f = _core.astype(counts, _core.float64)
            if float(Array._new(_ops.reduce("min", f))) < 0:
                raise ValueError("repeat: repeats must be >= 0")
            if float(Array._new(_ops.reduce("sum", f))) >= _TOO_MANY:
                raise OverflowError("repeat: the repeats add up to more than 2**62 elements")
    else:
        repeats = _count("repeat", repeats, "repeats")
        if n * repeats >= _TOO_MANY:
            raise OverflowError(f"repeat: {n} elements repeated {repeats} times make more "
                                f"than 2**62 elements")
        counts = _core.full((n,), repeats, _core.int64)
    counts = _core.astype(counts, _core.int64)
    ends = Array._new(_ops.cumulative(False, counts, 0))
    total = int(Array._new(_ops.reduce("sum", counts))) if n else 0
    idx = searchsorted(ends, arange(total), side="right")
    return Array._new(_indexing.index_select(x._c, d, idx._c))


def tensordot(x1, x2, /, *, axes=2):
    """Contraction over axes: permute, reshape to matrices, one matmul."""
    from ._linalg import matmul
    from ._manipulation import permute_dims, reshape
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be >= 0")
        a1, a2 = list(range(x1.ndim - axes, x1.ndim)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
    a1 = [_views.normalize_dim(a, x1.ndim, "axes") for a in a1]
    a2 = [_views.normalize_dim(a, x2.ndim, "axes") for a in a2]
    if [x1.shape[a] for a in a1] != [x2.shape[a] for a in a2]:
        raise ValueError("tensordot: contracted axes differ in size")
    free1 = [d for d in range(x1.ndim) if d not in a1]
    free2 = [d for d in range(x2.ndim) if d not in a2]
    k = math.prod(x1.shape[a] for a in a1)
    m = math.prod(x1.shape[d] for d in free1)
    n = math.prod(x2.shape[d] for d in free2)
    m1 = reshape(permute_dims(x1, free1 + a1), (m, k))
    m2 = reshape(permute_dims(x2, a2 + free2), (k, n))
    out = matmul(m1, m2)
    return reshape(out, tuple(x1.shape[d] for d in free1) + tuple(x2.shape[d] for d in free2))


__all__ += ["repeat", "tensordot", "tile"]

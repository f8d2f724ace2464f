"""Index kernels and sorting over Cores: argument checks, output allocation,
one C call each.  0-based.

Dimension numbers are 0-based here whatever `flags` say (negative dims count
from the end); `flags` is passed through to C and governs the index values
only: lib.ST_IDX_BASE1 (indices count from one, nonzero answers from one:
the Torch7 face) and lib.ST_IDX_WRAP (negative indices count from the end:
the array-API face).  Index arguments are int64 Cores; fill values are
Python numbers converted to the destination's dtype.  Every index is
checked against its bound in C before anything is written (IndexError
naming the bad value)."""

from __future__ import annotations

import operator

from .._c._strided import ffi, lib
from .args import need_core as _core, need_dim as _dim
from .base import Core, check, int64, scalar_buffer
from .views import expand, transpose

# the index kernels' flags: indices count from one (Torch7), negative ones
# count from the end
BASE1, WRAP = lib.ST_IDX_BASE1, lib.ST_IDX_WRAP
_FLAGS = BASE1 | WRAP


# ---------------------------------------------------------------- argument checks


def _flags(flags, name):
    try:
        flags = operator.index(flags)
    except TypeError:
        raise TypeError(f"{name}: flags must be an integer, got {type(flags).__name__}") from None
    if flags & ~_FLAGS:
        raise ValueError(
            f"{name}: flags {flags:#x} unknown; valid: a combination of "
            f"ST_IDX_BASE1 ({lib.ST_IDX_BASE1}) and ST_IDX_WRAP ({lib.ST_IDX_WRAP})"
        )
    return flags


def _idx(idx, name, one_d=False):
    _core(idx, name, "idx")
    if idx.dtype is not int64:
        raise TypeError(f"{name}: idx must be int64, got {idx.dtype.name}")
    if one_d and idx.ndim > 1:
        raise ValueError(f"{name}: idx must be 1-D, got {idx.ndim} dims (shape {idx.shape})")
    return idx


def _same_dtype(dst, src, name, what_dst="dst", what_src="src"):
    _core(src, name, what_src)
    if src.dtype is not dst.dtype:
        raise TypeError(
            f"{name}: {what_src} is {src.dtype.name} but {what_dst} is {dst.dtype.name}"
        )


def _writable(dst, name, what="dst"):
    if dst.readonly:
        raise ValueError(f"{name}: {what} is read-only")


def _replaced(shape, dim, n):
    """shape with size n at dim (a 0-d shape stays 0-d)."""
    return tuple(n if d == dim else s for d, s in enumerate(shape))


def _one_index_for_0d(c, idx, name, what):
    if c.ndim == 0 and idx.size != 1:
        raise ValueError(f"{name}: a 0-d {what} takes exactly one index, got {idx.size}")


def _along(dst, dim, idx, src, name, what="dst"):
    """gather/scatter shapes: idx has dst's ndim and fits dst (but along dim)
    and src (every dim)."""
    if idx.ndim != dst.ndim:
        raise ValueError(
            f"{name}: idx has {idx.ndim} dims (shape {idx.shape}) but {what} "
            f"has {dst.ndim} (shape {dst.shape})"
        )
    for d, n in enumerate(idx.shape):
        if d != dim and n > dst.shape[d]:
            raise ValueError(
                f"{name}: idx has size {n} at dim {d} but {what} only "
                f"{dst.shape[d]} (idx shape {idx.shape}, {what} shape {dst.shape})"
            )
    if src is not None:
        if src.ndim != dst.ndim:
            raise ValueError(
                f"{name}: src has {src.ndim} dims (shape {src.shape}) but {what} "
                f"has {dst.ndim} (shape {dst.shape})"
            )
        for d, n in enumerate(idx.shape):
            if n > src.shape[d]:
                raise ValueError(
                    f"{name}: idx has size {n} at dim {d} but src only "
                    f"{src.shape[d]} (idx shape {idx.shape}, src shape {src.shape})"
                )


def _mask(mask, shape, name):
    """mask (bool or uint8) broadcast to `shape`."""
    _core(mask, name, "mask")
    if mask.dtype.name not in ("bool", "uint8"):
        raise TypeError(f"{name}: mask must be bool or uint8, got {mask.dtype.name}")
    try:
        return expand(mask, shape)
    except ValueError:
        raise ValueError(
            f"{name}: mask of shape {mask.shape} does not broadcast to shape {tuple(shape)}"
        ) from None


def _count_nonzero(c):
    n = ffi.new("int64_t *")
    check(lib.st_count_nonzero(c.t, n))
    return n[0]


# ---------------------------------------------------------------- index_*


def index_select(a, dim, idx, flags=0):
    """a's slices idx[0], idx[1], ... along dim (idx 1-D, or 0-d: one index)."""
    return _index_select(a, dim, idx, flags, "index_select")


def _index_select(a, dim, idx, flags, name):
    flags = _flags(flags, name)
    dim = _dim(dim, _core(a, name, "a"), name)
    _idx(idx, name, one_d=True)
    _one_index_for_0d(a, idx, name, "a")
    out = Core.empty(_replaced(a.shape, dim, idx.size), a.dtype)
    check(lib.st_index_select(out.t, a.t, dim, idx.t, flags))
    return out


def _index_copy(dst, dim, idx, src, accumulate, flags, name):
    flags = _flags(flags, name)
    dim = _dim(dim, _core(dst, name, "dst"), name)
    _idx(idx, name, one_d=True)
    _same_dtype(dst, src, name)
    _one_index_for_0d(dst, idx, name, "dst")
    want = _replaced(dst.shape, dim, idx.size)
    if src.shape != want:
        raise ValueError(
            f"{name}: src has shape {src.shape}, expected {want} "
            f"(dst shape {dst.shape} with {idx.size} indices at dim {dim})"
        )
    _writable(dst, name)
    check(lib.st_index_copy(dst.t, dim, idx.t, src.t, accumulate, flags))
    return dst


def index_copy(dst, dim, idx, src, flags=0):
    """dst's slice idx[i] along dim = src's slice i (in place; returns dst)."""
    return _index_copy(dst, dim, idx, src, 0, flags, "index_copy")


def index_add(dst, dim, idx, src, flags=0):
    """dst's slice idx[i] along dim += src's slice i, repeats accumulating."""
    return _index_copy(dst, dim, idx, src, 1, flags, "index_add")


def index_fill(dst, dim, idx, value, flags=0):
    """dst's slices idx[i] along dim = value."""
    name = "index_fill"
    flags = _flags(flags, name)
    dim = _dim(dim, _core(dst, name, "dst"), name)
    _idx(idx, name, one_d=True)
    buf = scalar_buffer(value, dst.dtype)
    _writable(dst, name)
    check(lib.st_index_fill(dst.t, dim, idx.t, buf, flags))
    return dst


# ---------------------------------------------------------------- gather / scatter


def gather(a, dim, idx, flags=0):
    """out[p] = a[p with position idx[p] along dim]; out has idx's shape."""
    name = "gather"
    flags = _flags(flags, name)
    dim = _dim(dim, _core(a, name, "a"), name)
    _idx(idx, name)
    _along(a, dim, idx, None, name, what="a")
    out = Core.empty(idx.shape, a.dtype)
    check(lib.st_gather(out.t, a.t, dim, idx.t, flags))
    return out


def _scatter(dst, dim, idx, src, accumulate, flags, name):
    flags = _flags(flags, name)
    dim = _dim(dim, _core(dst, name, "dst"), name)
    _idx(idx, name)
    _same_dtype(dst, src, name)
    _along(dst, dim, idx, src, name)
    _writable(dst, name)
    check(lib.st_scatter(dst.t, dim, idx.t, src.t, accumulate, flags))
    return dst


def scatter(dst, dim, idx, src, flags=0):
    """dst[p with position idx[p] along dim] = src[p] over idx's shape, in C
    order (a repeated position keeps the last write)."""
    return _scatter(dst, dim, idx, src, 0, flags, "scatter")


def scatter_add(dst, dim, idx, src, flags=0):
    """As scatter, adding; repeated positions accumulate in C order."""
    return _scatter(dst, dim, idx, src, 1, flags, "scatter_add")


def scatter_fill(dst, dim, idx, value, flags=0):
    name = "scatter_fill"
    flags = _flags(flags, name)
    dim = _dim(dim, _core(dst, name, "dst"), name)
    _idx(idx, name)
    _along(dst, dim, idx, None, name)
    buf = scalar_buffer(value, dst.dtype)
    _writable(dst, name)
    check(lib.st_scatter_fill(dst.t, dim, idx.t, buf, flags))
    return dst


# ---------------------------------------------------------------- masks


def masked_select(a, mask):
    """The elements of a where mask (bool or uint8, broadcast to a) is set,
    in C order, as a new 1-D Core."""
    name = "masked_select"
    _core(a, name, "a")
    m = _mask(mask, a.shape, name)
    # count over the broadcast mask: a mask of shape (1, n) against a of
    # shape (k, n) sets k times as many elements as it holds
    out = Core.empty((_count_nonzero(m),), a.dtype)
    check(lib.st_masked_select(out.t, a.t, m.t))
    return out


def masked_copy(dst, mask, src):
    """dst[mask] = the first elements of src (C order); src must hold at
    least as many elements as the mask sets."""
    name = "masked_copy"
    _core(dst, name, "dst")
    m = _mask(mask, dst.shape, name)
    _same_dtype(dst, src, name)
    need = _count_nonzero(m)
    if src.size < need:
        raise ValueError(
            f"{name}: mask sets {need} elements but src has only {src.size} (shape {src.shape})"
        )
    _writable(dst, name)
    check(lib.st_masked_copy(dst.t, m.t, src.t))
    return dst


def masked_fill(dst, mask, value):
    name = "masked_fill"
    _core(dst, name, "dst")
    m = _mask(mask, dst.shape, name)
    buf = scalar_buffer(value, dst.dtype)
    _writable(dst, name)
    check(lib.st_masked_fill(dst.t, m.t, buf))
    return dst


def nonzero(a, flags=0, by_dim=False):
    """Coordinates of a's nonzero elements in C order: int64 [count, ndim]
    (counting from one with ST_IDX_BASE1); by_dim: [ndim, count], each
    dim's coordinates a contiguous row (written through the transposed view)."""
    name = "nonzero"
    flags = _flags(flags, name)
    _core(a, name, "a")
    n = ffi.new("int64_t *")
    check(lib.st_nonzero_count(a.t, n))
    out = Core.empty((a.ndim, n[0]) if by_dim else (n[0], a.ndim), int64)
    check(lib.st_nonzero((transpose(out, 0, 1) if by_dim else out).t, a.t, flags))
    return out


# ---------------------------------------------------------------- sorting


def _sort(a, dim, descending, values, indices, flags, name):
    flags = _flags(flags, name)
    dim = _dim(dim, _core(a, name, "a"), name)
    check(
        lib.st_sort(
            values.t if values is not None else ffi.NULL,
            indices.t if indices is not None else ffi.NULL,
            a.t,
            dim,
            bool(descending),
            flags,
        )
    )


def sort(a, dim=-1, descending=False, out=None, flags=0):
    """a's values sorted along dim (stable; NaN last ascending, first
    descending).  out: where to put them, of a's shape and dtype; `out=a`
    sorts in place."""
    name = "sort"
    _core(a, name, "a")
    if out is None:
        out = Core.empty(a.shape, a.dtype)
    else:
        _same_dtype(a, out, name, "a", "out")
        if out.shape != a.shape:
            raise ValueError(f"{name}: out has shape {out.shape}, expected a's {a.shape}")
        _writable(out, name, "out")
    _sort(a, dim, descending, out, None, flags, name)
    return out


def argsort(a, dim=-1, descending=False, flags=0):
    """The int64 positions along dim that sort a (stable); from one with
    ST_IDX_BASE1."""
    name = "argsort"
    out = Core.empty(_core(a, name, "a").shape, int64)
    _sort(a, dim, descending, None, out, flags, name)
    return out


# ---------------------------------------------------------------- array API


def take(a, idx, axis=None):
    """The array API's take: index_select with negative indices counting
    from the end.  axis may be omitted only for a 1-D a."""
    name = "take"
    _core(a, name, "a")
    if axis is None:
        if a.ndim != 1:
            raise ValueError(
                f"{name}: axis is required for a {a.ndim}-d array "
                f"(it may be omitted only for a 1-D one)"
            )
        axis = 0
    return _index_select(a, axis, idx, lib.ST_IDX_WRAP, name)

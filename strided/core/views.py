"""Views: new geometry over the same storage, no element touched.  0-based.

Every function returns a new Core; bounds and overflow are checked by the
C core when the view is built (st_tensor_set), and the arguments are
checked here first so that the message names the argument."""

from __future__ import annotations

import operator

from .._c._strided import ffi, lib
from .base import normalize_shape


def normalize_dim(dim, ndim, name="dim"):
    """A 0-based dim in [-ndim, ndim) made non-negative."""
    try:
        dim = operator.index(dim)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(dim).__name__}") from None
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"{name} {dim} out of range [{-n}, {n - 1}] for {ndim} dimensions")
    return dim + n if dim < 0 else dim


def _need_dims(c, what):
    if c.ndim == 0:
        raise IndexError(f"cannot {what} a 0-d view: it has no dimension")


def transpose(c, d0, d1):
    d0, d1 = normalize_dim(d0, c.ndim), normalize_dim(d1, c.ndim)
    if c.ndim == 0:
        return c.view(c.offset, (), ())
    perm = list(range(c.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return permute(c, perm)


def permute(c, dims):
    dims = [normalize_dim(d, c.ndim) for d in dims]
    if sorted(dims) != list(range(c.ndim)):
        raise ValueError(f"permutation {dims} is not a permutation of {c.ndim} dimensions")
    shape, strides = c.shape, c.strides
    return c.view(c.offset, [shape[d] for d in dims], [strides[d] for d in dims])


def slice_dim(c, dim, start, stop, step):
    """Python slice semantics (any step, negative included) along one dim."""
    _need_dims(c, "slice")
    dim = normalize_dim(dim, c.ndim)
    start, stop, step = slice(start, stop, step).indices(c.shape[dim])
    n = len(range(start, stop, step))
    shape, strides = list(c.shape), list(c.strides)
    # an empty result keeps the offset: with negative strides the moved
    # offset of an empty view could fall before the storage start
    offset = c.offset + (start * strides[dim] if n and c.size else 0)
    shape[dim] = n
    strides[dim] *= step
    return c.view(offset, shape, strides)


def narrow(c, dim, start, length):
    _need_dims(c, "narrow")
    dim = normalize_dim(dim, c.ndim)
    size = c.shape[dim]
    if not 0 <= start <= size:
        raise IndexError(f"narrow start {start} out of range [0, {size}] at dim {dim}")
    if not 0 <= length <= size - start:
        raise ValueError(
            f"narrow length {length} out of range [0, {size - start}] "
            f"for start {start} at dim {dim}"
        )
    shape = list(c.shape)
    shape[dim] = length
    # an empty window starts where it would start (numpy and PyTorch place
    # a[2:2] there too), unless that offset is not a valid one (a negative
    # stride one step past the end): then it keeps c's offset
    offset = c.offset + start * c.strides[dim]
    if not (length and c.size) and not 0 <= offset < 2**63:
        offset = c.offset
    return c.view(offset, shape, c.strides)


def select(c, dim, index):
    if c.ndim == 0:
        raise IndexError("cannot select from a 0-d tensor")
    dim = normalize_dim(dim, c.ndim)
    size = c.shape[dim]
    index = operator.index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} out of range [{-size}, {size - 1}] at dim {dim}")
    index %= size
    shape, strides = list(c.shape), list(c.strides)
    offset = c.offset + (index * strides[dim] if c.size else 0)
    del shape[dim], strides[dim]
    return c.view(offset, shape, strides)


def expand(c, shape):
    """Broadcast c to `shape` with zero strides (size-1 dims, new leading dims)."""
    shape = normalize_shape(shape)
    lead = len(shape) - c.ndim
    if lead < 0:
        raise ValueError(f"cannot expand shape {c.shape} to fewer dimensions {shape}")
    strides = [0] * lead
    for d, (have, stride) in enumerate(zip(c.shape, c.strides)):
        want = shape[lead + d]
        if have == want:
            strides.append(stride)
        elif have == 1:
            strides.append(0)
        else:
            raise ValueError(
                f"cannot expand shape {c.shape} to {shape}: dimension {d} "
                f"has size {have}, not 1 or {want}"
            )
    return c.view(c.offset, shape, strides)


def reshape_strides(shape, strides, new_shape):
    """Strides that view (shape, strides) as new_shape (the same count), or
    None when the memory layout does not allow a view (then a copy is
    needed): st_reshape_strides, numpy's no-copy reshape."""
    out = ffi.new("int64_t[]", max(len(new_shape), 1))
    if not lib.st_reshape_strides(
        len(shape), list(shape), list(strides), len(new_shape), list(new_shape), out
    ):
        return None
    return tuple(out[0 : len(new_shape)])


def infer_shape(size, shape):
    """Resolve one -1 in `shape` against `size` elements."""
    shape = list(shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise ValueError(f"only one dimension can be -1, got shape {tuple(shape)}")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise ValueError(f"invalid size {s} in shape {tuple(shape)}")
            known *= s
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape {size} elements into shape {tuple(shape)}")
        shape[unknown[0]] = size // known
    elif known != size:
        raise ValueError(f"cannot reshape {size} elements into shape {tuple(shape)}")
    return tuple(shape)


def view_as_shape(c, shape):
    """A view of c with `shape`, or None when only a copy can have it."""
    shape = infer_shape(c.size, [operator.index(s) for s in shape])
    strides = reshape_strides(c.shape, c.strides, shape)
    return None if strides is None else c.view(c.offset, shape, strides)


def unfold(c, dim, size, step):
    """All slices of `size` elements along dim, `step` apart, as a new last dim."""
    if c.ndim == 0:
        dim, n = 0, 1
        shape, strides = [], []
    else:
        dim = normalize_dim(dim, c.ndim)
        n = c.shape[dim]
        shape, strides = list(c.shape), list(c.strides)
    if not 0 <= size <= n:
        raise ValueError(f"unfold size {size} out of range [0, {n}] at dim {dim}")
    if step <= 0:
        raise ValueError(f"unfold step must be > 0, got {step}")
    count = (n - size) // step + 1
    st = strides[dim] if strides else 1
    if shape:
        shape[dim], strides[dim] = count, st * step
    shape.append(size)
    strides.append(st)
    return c.view(c.offset, shape, strides)


def squeeze(c, dim=None):
    if dim is None:
        keep = [d for d in range(c.ndim) if c.shape[d] != 1]
    else:
        dim = normalize_dim(dim, c.ndim)
        if c.ndim and c.shape[dim] != 1:
            return c.view(c.offset, c.shape, c.strides)
        keep = [d for d in range(c.ndim) if d != dim]
    return c.view(c.offset, [c.shape[d] for d in keep], [c.strides[d] for d in keep])


def unsqueeze(c, dim):
    dim = normalize_dim(dim, c.ndim + 1)
    shape, strides = list(c.shape), list(c.strides)
    inner = strides[dim] * shape[dim] if dim < c.ndim else 1
    shape.insert(dim, 1)
    strides.insert(dim, inner)
    return c.view(c.offset, shape, strides)


def flip(c, dim):
    return slice_dim(c, dim, None, None, -1)

"""Indexing functions (take, take_along_axis) and a few composite
functions (searchsorted, diff, unstack), each built from core kernels."""

from __future__ import annotations

import math

from strided.core import (
    arraytype as _arraytype,
    base as _core,
    indexing as _indexing,
    ops as _ops,
    setops as _setops,
    views as _views,
)

from . import _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._promotion import operands
from typing import Literal, Sequence


_take_new, _astype_new = _arraytype.take_new, _arraytype.astype


def _copied_out(view, shape):
    """A (broadcast) view copied out C-contiguous in one C call, never
    sharing its memory, as `shape`; None when C declines."""
    from ._manipulation import reshape

    b = _astype_new(view, view.dtype)
    return None if b is None else reshape(b, shape)


def _int_index(name, indices):
    if not isinstance(indices, Array) or indices.dtype not in KINDS["integral"]:
        raise TypeError(f"{name}: indices must be an integer array")
    c = indices._c
    return c if c.dtype is _core.int64 else _core.astype(c, _core.int64)


def take(x: Array, indices: Array | int, /, *, axis: int | None = None) -> Array:
    """Returns elements of an array along an axis.

    Parameters
    ----------
    x : Array
        Input array.
    indices : Array or int
        Array indices; beyond the standard, as numpy's: a Python int takes that
        one position, the axis dropped (take(x, 0, axis=0) is a copy of x[0]).
    axis : int or None, optional
        Axis over which to select values. Default: ``None``.

    Returns
    -------
    Array
        An array having the same data type as ``x``.

    Raises
    ------
    TypeError
        indices must be an integer array.
    ValueError
        indices must be 1-D.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    Indices are checked in C: out of range raises IndexError (negative ones
    count from the end). axis may be left out for a 1-D x.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0, 2]))
    Array([30, 10, 30], dtype=int64)
    """
    if isinstance(indices, int) and not isinstance(indices, bool):
        c = x._c
        if axis is None:
            c = _views.view_as_shape(_core.contiguous(c), (c.size,))
            axis = 0
        elif c.ndim == 0:
            raise ValueError("take: a 0-d array has no axis to take from")
        v = _views.select(c, axis, indices)
        return Array._new(_core.astype(v, v.dtype))
    r = _take_new(x, indices, axis)  # an int64 Array of indices: one C call
    if r is not None:
        return r
    idx = _int_index("take", indices)
    if idx.ndim != 1:
        raise ValueError("take: indices must be 1-D")
    return Array._new(_indexing.take(x._c, idx, axis))


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """Returns elements from an array at the one-dimensional indices specified by
    ``indices`` along a provided ``axis``.

    Parameters
    ----------
    x : Array
        Input array.
    indices : Array
        Array indices.
    axis : int, optional
        Axis along which to select values. Default: ``-1``.

    Returns
    -------
    Array
        An array containing elements from ``x``.

    Raises
    ------
    TypeError
        indices must be an integer array.
    ValueError
        indices must have x's number of dims.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    Indices broadcast against x except along axis; out of range raises
    IndexError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> x = xp.asarray([[3, 1], [2, 4]])
    >>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
    Array([[1, 3], [2, 4]], dtype=int64)
    """
    idx = _int_index("take_along_axis", indices)
    if idx.ndim != x.ndim:
        raise ValueError("take_along_axis: indices must have x's number of dims")
    d = _views.normalize_dim(axis, x.ndim, "axis")
    shape = tuple(n if i == d else max(n, x.shape[i]) for i, n in enumerate(idx.shape))
    idx = _views.expand(idx, shape)
    return Array._new(_indexing.gather(x._c, d, idx, _indexing.WRAP))


def searchsorted(
    x1: Array,
    x2: Array | int | float,
    /,
    *,
    side: Literal['left', 'right'] = 'left',
    sorter: Array | None = None,
) -> Array:
    """Finds the indices into ``x1`` such that, if the corresponding elements in
    ``x2`` were inserted before the indices, the order of ``x1``, when sorted in
    ascending order, would be preserved.

    Parameters
    ----------
    x1 : Array
        Input array.
    x2 : Array or int or float
        Array containing search values.
    side : {'left', 'right'}, optional
        Argument controlling which index is returned if a value lands exactly on
        an edge. Default: ``'left'``.
    sorter : Array or None, optional
        Array of indices that sort ``x1`` in ascending order. Default: ``None``.

    Returns
    -------
    Array
        An array of indices with the same shape as ``x2``.

    Raises
    ------
    TypeError
        x1 must be an Array, got …; sorter must be an integer array, got …;
        indices must be an integer array.
    ValueError
        side must be 'left' or 'right', got …; x1 must be 1-D, got … dims (shape
        …); sorter has shape …, expected x1's ….

    Notes
    -----
    Positions where x2's values go in the ascending 1-D x1: one binary
    search per value of x2 in C, O(x2.size * log len(x1)), in the order of
    sort (NaN last; complex by (real, imag)).  x2 may be a Python scalar
    (0-d result); x1 and x2 promote by the standard's rules.  sorter:
    integer positions that sort x1, read through without a copy; each is
    checked to lie in [0, len(x1)) before the search.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([2.0, 2.5]))
    Array([1, 2], dtype=int64)
    >>> xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([2.0]), side='right')
    Array([2], dtype=int64)
    """
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
            raise ValueError(
                f"searchsorted: sorter has shape {sorter.shape}, expected x1's {x1.shape}"
            )
        idx = _int_index("searchsorted", sorter)
    a, b = operands("searchsorted", x1, x2)
    return Array._new(_setops.searchsorted(a, b, side == "right", idx))


def diff(
    x: Array,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Array | None = None,
    append: Array | None = None,
) -> Array:
    """Calculates the n-th discrete forward difference along a specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int, optional
        Axis along which to compute differences. Default: ``-1``.
    n : int, optional
        Number of times to recursively compute differences. Default: ``1``.
    prepend : Array or None, optional
        Values to prepend to a specified axis prior to computing differences.
        Default: ``None``.
    append : Array or None, optional
        Values to append to a specified axis prior to computing differences.
        Default: ``None``.

    Returns
    -------
    Array
        An array containing the n-th differences.

    Raises
    ------
    ValueError
        On bad input (see the message).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    prepend and append are concatenated first; n differences are taken one after
    the other (n=0 returns x).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.diff(xp.asarray([1, 4, 9, 16]))
    Array([3, 5, 7], dtype=int64)
    """
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
    # x[1:] - x[:-1] along d (bool: !=), the views and the op one C call each
    head = (slice(None),) * d
    upper, lower = head + (slice(1, None),), head + (slice(None, -1),)
    for _ in range(n):
        if x.shape[d] == 0:
            break
        x = x[upper] != x[lower] if x.dtype == _dtypes.bool else x[upper] - x[lower]
    return x if n else Array._new(x._c)


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """Splits an array into a sequence of arrays along the given axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int, optional
        Axis along which to split an array. Default: ``0``.

    Returns
    -------
    tuple of Array
        Tuple of slices along the given dimension.

    {{raises}}

    Notes
    -----
    Views along axis, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.unstack(xp.asarray([[1, 2], [3, 4]]), axis=1)
    (Array([1, 3], dtype=int64), Array([2, 4], dtype=int64))
    """
    d = _views.normalize_dim(axis, x.ndim, "axis")
    return tuple(Array._new(_views.select(x._c, d, i)) for i in range(x.shape[d]))


__all__ = ["diff", "searchsorted", "take", "take_along_axis", "unstack"]


# more elements than any allocation can hold (the core refuses 2**63 bytes
# and more): a count this large is refused before its index vector is made
_TOO_MANY = 2**62


def _count(name, v, what):
    """A repetition count: an int >= 0 (bool refused), else TypeError/ValueError."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{name}: {what} must be integers, got {type(v).__name__} {v!r}")
    v = v.__index__()
    if v < 0:
        raise ValueError(f"{name}: {what} must be >= 0, got {v}")
    return v


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """Constructs an array by tiling an input array.

    Parameters
    ----------
    x : Array
        Input array.
    repetitions : tuple of int
        Number of repetitions along each axis.

    Returns
    -------
    Array
        A tiled output array.

    Raises
    ------
    OverflowError
        … repetitions of shape … make more than 2**62 elements.
    TypeError
        … must be integers, got … ….
    ValueError
        … must be >= 0, got ….
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    x repeated: a broadcast view (zero strides) copied once in C.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.tile(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2, 1, 2], [1, 2, 1, 2]], dtype=int64)
    """
    reps = tuple(_count("tile", r, "repetitions") for r in repetitions)
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - x.ndim) + x.shape
    if max(reps, default=0) >= 2**63 or math.prod(r * s for r, s in zip(reps, shape)) >= _TOO_MANY:
        raise OverflowError(
            f"tile: {reps} repetitions of shape {x.shape} make more than 2**62 elements"
        )
    # interleave a repetition dim before each dim, (r0, s0, r1, s1, ...): a
    # broadcast of x's reshape, copied out C-contiguous in one C call
    from ._manipulation import broadcast_to, reshape

    pairs = tuple(v for pair in zip(reps, shape) for v in pair)
    unit = tuple(v for s in shape for v in (1, s))
    if type(x) is Array:
        b = _copied_out(
            broadcast_to(reshape(x, unit), pairs), tuple(r * s for r, s in zip(reps, shape))
        )
        if b is not None:
            return b
    c = _views.view_as_shape(x._c, shape)
    if c is None:
        c = _views.view_as_shape(_core.contiguous(x._c), shape)
    for d in range(nd):
        c = _views.unsqueeze(c, 2 * d)
    c = _views.expand(c, [v for pair in zip(reps, shape) for v in pair])
    out = _core.contiguous(c)
    return Array._new(_views.view_as_shape(out, [r * s for r, s in zip(reps, shape)]))


def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    """Repeats each element of an array a specified number of times on a
    per-element basis.

    Parameters
    ----------
    x : Array
        Input array containing elements to repeat.
    repeats : int or Array
        The number of repetitions for each element.
    axis : int or None, optional
        The axis along which to repeat elements. Default: ``None``.

    Returns
    -------
    Array
        An output array containing repeated elements.

    Raises
    ------
    TypeError
        x1 must be an Array, got …; sorter must be an integer array, got …;
        indices must be an integer array.
    ValueError
        side must be 'left' or 'right', got …; x1 must be 1-D, got … dims (shape
        …); sorter has shape …, expected x1's ….
    OverflowError
        … elements repeated … times make more than 2**62 elements; the repeats
        add up to more than 2**62 elements.

    Notes
    -----
    Each element (along axis; flattened when None) repeated: an index
    vector built in C, then index_select.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.repeat(xp.asarray([1, 2]), 2)
    Array([1, 1, 2, 2], dtype=int64)
    >>> xp.repeat(xp.asarray([[1, 2]]), xp.asarray([1, 3]), axis=1)
    Array([[1, 2, 2, 2]], dtype=int64)
    """
    from ._creation import arange
    from ._manipulation import reshape

    if axis is None or x.ndim == 0:  # a 0-d x repeats as a 1-D one (as numpy)
        x = reshape(x, (x.size,))
        axis = 0 if axis is None else axis
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
        times = _count("repeat", repeats, "repeats")
        if n * times >= _TOO_MANY:
            raise OverflowError(
                f"repeat: {n} elements repeated {times} times make more than 2**62 elements"
            )
        # each element's copies side by side: a broadcast view with the
        # copies as a new dim after d, copied out C-contiguous in one C call
        # (never a view of x, even where the merged dims would allow one)
        from ._manipulation import broadcast_to, expand_dims

        wide, merged = list(x.shape), list(x.shape)
        wide.insert(d + 1, times)
        merged[d] = n * times
        b = _copied_out(broadcast_to(expand_dims(x, axis=d + 1), tuple(wide)), tuple(merged))
        if b is not None:
            return b
        counts = _core.full((n,), times, _core.int64)
    counts = _core.astype(counts, _core.int64)
    ends = Array._new(_ops.cumulative(False, counts, 0))
    total = int(Array._new(_ops.reduce("sum", counts))) if n else 0
    idx = searchsorted(ends, arange(total), side="right")
    return Array._new(_indexing.index_select(x._c, d, idx._c))


@_docstrings.sections()
def tensordot(
    x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2
) -> Array:
    """Returns a tensor contraction of ``x1`` and ``x2`` over specific axes.

    Parameters
    ----------
    {{x1_x2}}
    axes : int or tuple (sequence of int or sequence of int), optional
        Number of axes to contract or explicit sequences of axis indices for
        ``x1`` and ``x2``, respectively. Default: ``2``.

    Returns
    -------
    Array
        An array containing the tensor contraction.

    Raises
    ------
    ValueError
        contracted axes differ in size; axes must be >= 0.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    Contraction over axes: permute, reshape to matrices, one matmul.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.tensordot(xp.ones((2, 3)), xp.ones((3, 4)), axes=1).shape
    (2, 4)
    >>> xp.tensordot(xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]), axes=([0], [0]))
    Array(11., dtype=float64)
    """
    from ._linalg import matmul
    from ._manipulation import permute_dims, reshape

    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be >= 0")
        a1, a2 = list(range(x1.ndim - axes, x1.ndim)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)  # type: ignore[assignment]
    a1 = [_views.normalize_dim(a, x1.ndim, "axes") for a in a1]
    a2 = [_views.normalize_dim(a, x2.ndim, "axes") for a in a2]
    if [x1.shape[a] for a in a1] != [x2.shape[a] for a in a2]:
        raise ValueError("tensordot: contracted axes differ in size")
    free1 = [d for d in range(x1.ndim) if d not in a1]
    free2 = [d for d in range(x2.ndim) if d not in a2]
    k = math.prod(x1.shape[a] for a in a1)
    m = math.prod(x1.shape[d] for d in free1)
    n = math.prod(x2.shape[d] for d in free2)
    m1 = reshape(permute_dims(x1, free1 + a1), (m, k))  # type: ignore[arg-type]  # a list serves
    m2 = reshape(permute_dims(x2, a2 + free2), (k, n))  # type: ignore[arg-type]
    out = matmul(m1, m2)
    return reshape(out, tuple(x1.shape[d] for d in free1) + tuple(x2.shape[d] for d in free2))


__all__ += ["repeat", "tensordot", "tile"]

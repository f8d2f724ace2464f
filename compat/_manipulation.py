"""Manipulation functions: views where the layout allows (reshape,
permute_dims, expand_dims, squeeze, flip, broadcast_to, moveaxis), new
arrays filled by copy_ into slices otherwise (concat, stack, roll)."""

from __future__ import annotations

import operator

from strided.core import arraytype as _arraytype, base as _core, ops as _ops, views as _views
from strided.core.dlpack import _copy_flag

from . import _data_type_functions, _docstrings, _dtypes
from ._array import Array
from ._typing import DType, Device

# One C call each for the plain case, else None (the general path decides):
# a C-contiguous copy of an Array cast to a DType, a non-empty Array with a
# tuple of ints as its shape (a view, else a copy when allowed); the views of
# permute_dims, expand_dims, squeeze and broadcast_to with valid ints
_astype_new, _reshape_view = _arraytype.astype, _arraytype.reshape
_permute_view, _expand_view = _arraytype.permute, _arraytype.expand_dims
_squeeze_view, _broadcast_view = _arraytype.squeeze, _arraytype.broadcast_to
_flip_view, _concat_same = _arraytype.flip, _arraytype.concat


def _list_as_tuple(v: object) -> object:
    """A list (which C's plain case does not take) as a tuple; else v."""
    return tuple(v) if isinstance(v, list) else v


def _dims(axes, ndim, name="axis"):
    if isinstance(axes, int) or hasattr(axes, "__index__"):
        axes = (axes,)
    out = tuple(_views.normalize_dim(a, ndim, name) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated {name} in {tuple(axes)}")
    return out


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def astype(x: Array, dtype: DType, /, *, copy: bool = True, device: Device | None = None) -> Array:
    """Copies an array to a specified data type irrespective of ``type-promotion``
    rules.

    Parameters
    ----------
    x : Array
        Array to cast.
    dtype : dtype
        Desired data type.
    copy : bool, optional
        Specifies whether to copy an array when the specified ``dtype`` matches
        the data type of the input array ``x``. Default: ``True``.
    device : device or None, optional
        Device on which to place the returned array. Default: ``None``.

    Returns
    -------
    Array
        An array having the specified data type.

    {{raises}}

    Notes
    -----
    A cast in C: floats to integers truncate toward zero, out-of-range values
    wrap as C's conversions do (docs/core-semantics.md, *Casts*). copy=False
    returns x itself when the dtype is already the one asked for.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.astype(xp.asarray([1.7, -1.7]), xp.int32)  # toward zero, as C
    Array([1, -1], dtype=int32)
    """
    if copy is True and device is None:
        r = _astype_new(x, dtype)
        if r is not None:
            return r
    from ._array import check_device

    check_device(device)
    dtype = _dtypes.check_dtype(dtype)
    copy = _copy_flag(copy, "astype")
    if not copy and x.dtype is dtype:
        return x
    return Array._new(_core.astype(x._c, dtype))


def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    """Reshapes an array without changing its data.

    Parameters
    ----------
    x : Array
        Input array to reshape.
    shape : tuple of int
        A new shape compatible with the original shape.
    copy : bool or None, optional
        Whether or not to copy the input array. Default: ``None``.

    Returns
    -------
    Array
        An output array.

    Raises
    ------
    ValueError
        shape … -> … needs a copy but copy=False.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view whenever the strides allow it, else a copy; copy=False raises
    ValueError instead of copying, copy=True always copies.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.reshape(xp.arange(6), (2, -1))
    Array([[0, 1, 2], [3, 4, 5]], dtype=int64)
    """
    if copy is None or copy is False:
        r = _reshape_view(x, shape, copy is None)
        if r is not None:
            return r
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


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """Permutes the axes of an array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axes : tuple of int
        Tuple containing a permutation of axes.

    Returns
    -------
    Array
        An array containing the axes permutation.

    {{raises}}

    Notes
    -----
    A view: the axes permuted, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    r = _permute_view(x, _list_as_tuple(axes))
    if r is not None:
        return r
    return Array._new(_views.permute(x._c, axes))


def expand_dims(x: Array, /, axis: int | tuple[int, ...] = 0) -> Array:
    """Expands the shape of an array by inserting a new axis of size one at the
    position (or positions) specified by ``axis``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int, optional
        Axis position(s) (zero-based). Default: ``0``.

    Returns
    -------
    Array
        An expanded output array.

    Raises
    ------
    ValueError
        On bad input (see the message).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view (no copy); axis may also be a tuple of axes, as 2025.12 allows.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.expand_dims(xp.asarray([1, 2]), axis=0).shape
    (1, 2)
    """
    r = _expand_view(x, axis)
    if r is not None:
        return r
    axes = (axis,) if not isinstance(axis, tuple) else axis
    n = x.ndim + len(axes)
    dims = sorted(_dims(axes, n))
    c = x._c
    for d in dims:
        c = _views.unsqueeze(c, d)
    return Array._new(c)


def squeeze(x: Array, /, axis: int | tuple[int, ...] | None = None) -> Array:
    """Removes singleton axes from ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None
        Axis (or axes) to squeeze; beyond the standard, as numpy's: None
        (the default) squeezes every axis of size 1.

    Returns
    -------
    Array
        An output array.

    Raises
    ------
    ValueError
        axis … has size …, not 1.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view, no copy; squeezing an axis whose size is not 1 raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.squeeze(xp.zeros((2, 1, 3)), axis=1).shape
    (2, 3)
    """
    if axis is None:
        axis = tuple(d for d, n in enumerate(x.shape) if n == 1)
    r = _squeeze_view(x, axis)
    if r is not None:
        return r
    dims = _dims(axis, x.ndim)
    for d in dims:
        if x.shape[d] != 1:
            raise ValueError(f"squeeze: axis {d} has size {x.shape[d]}, not 1")
    shape = [n for d, n in enumerate(x.shape) if d not in dims]
    strides = [s for d, s in enumerate(x._c.strides) if d not in dims]
    return Array._new(x._c.view(x._c.offset, shape, strides))


def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """Reverses the order of elements in an array along the given axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis (or axes) along which to reverse elements. Default: ``None``.

    Returns
    -------
    Array
        An output array.

    Raises
    ------
    ValueError
        On bad input (see the message).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view with negative strides, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.flip(xp.asarray([[1, 2], [3, 4]]), axis=1)
    Array([[2, 1], [4, 3]], dtype=int64)
    """
    r = _flip_view(x, axis)
    if r is not None:
        return r
    c = x._c
    for d in range(x.ndim) if axis is None else _dims(axis, x.ndim):
        c = _views.flip(c, d)
    return Array._new(c)


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    """Broadcasts an array to a specified shape.

    Parameters
    ----------
    x : Array
        Array to broadcast.
    shape : tuple of int
        Array shape.

    Returns
    -------
    Array
        An array having the specified shape.
    : 2024.12
        Clarified broadcast behavior.

    {{raises}}

    Notes
    -----
    A view with zero strides along the broadcast axes, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.broadcast_to(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2], [1, 2]], dtype=int64)
    """
    r = _broadcast_view(x, _list_as_tuple(shape))
    if r is not None:
        return r
    return Array._new(_views.expand(x._c, tuple(shape)))


def broadcast_arrays(*arrays: Array) -> tuple[Array, ...]:
    """Broadcasts one or more arrays against one another.

    Parameters
    ----------
    *arrays : Array
        An arbitrary number of to-be broadcasted arrays.

    Returns
    -------
    tuple of Array
        Tuple of broadcasted arrays.

    Raises
    ------
    ValueError
        When the shapes do not broadcast (the message gives them).

    Notes
    -----
    Views with zero strides, no copy: writing to one writes to every broadcast
    position.

    Examples
    --------
    >>> import strided.compat as xp
    >>> a, b = xp.broadcast_arrays(xp.asarray([1, 2, 3]), xp.asarray([[10], [20]]))
    >>> b
    Array([[10, 10, 10], [20, 20, 20]], dtype=int64)
    """
    shape = _ops.broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """Broadcasts one or more shapes against one another.

    Parameters
    ----------
    *shapes : tuple (int or None, ...)
        An arbitrary number of to-be broadcasted shapes.

    Returns
    -------
    tuple (int or None, ...)
        A single broadcasted shape obtained by applying broadcasting rules (see
        ``broadcasting``) to each of the input shapes against one another.

    Raises
    ------
    ValueError
        When the shapes do not broadcast (the message gives them).

    Notes
    -----
    The shape that `shapes` broadcast to (ValueError when they do not).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    return _ops.broadcast_shapes(*(tuple(s) for s in shapes))


def moveaxis(
    x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /
) -> Array:
    """Moves array axes to new positions, while leaving other axes in their
    original positions.

    Parameters
    ----------
    x : Array
        Input array.
    source : int or tuple of int
        Axis (or axes) to move.
    destination : int or tuple of int
        Axis (or axes) defining the desired position(s) for each respective
        ``source`` axis index.

    Returns
    -------
    Array
        An array containing reordered axes.

    Raises
    ------
    ValueError
        source and destination need the same number of axes.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view: the axes permuted, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    src = _dims(source, x.ndim, "source")
    dst = _dims(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination need the same number of axes")
    order = [d for d in range(x.ndim) if d not in src]
    for s, d in sorted(zip(dst, src)):
        order.insert(s, d)
    return permute_dims(x, order)  # type: ignore[arg-type]  # a list serves as a tuple


def concat(arrays: tuple[Array, ...] | list[Array], /, *, axis: int | None = 0) -> Array:
    """Joins a sequence of arrays along an existing axis.

    Parameters
    ----------
    arrays : tuple of Array or list of Array
        Input arrays to join.
    axis : int or None, optional
        Axis along which to join the arrays. Default: ``0``.

    Returns
    -------
    Array
        An output array containing the concatenated values.

    Raises
    ------
    ValueError
        concat needs at least one array; concat of 0-d arrays (use stack);
        shapes … differ off axis ….

    Notes
    -----
    One copy per input into the result; the inputs promote by the standard's
    table. axis=None flattens them first.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.concat([xp.asarray([1, 2]), xp.asarray([3])])
    Array([1, 2, 3], dtype=int64)
    """
    if axis is not None:
        r = _concat_same(arrays, axis)
        if r is not None:
            return r
    arrays = list(arrays)
    if not arrays:
        raise ValueError("concat needs at least one array")
    dt = _data_type_functions.result_type(*(a.dtype for a in arrays))
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
    shape[d] = sum(c.shape[d] for c in cores)
    return Array._new(_core.cat_(_core.Core.empty(shape, dt), cores, d))


def stack(arrays: tuple[Array, ...] | list[Array], /, *, axis: int = 0) -> Array:
    """Joins a sequence of arrays along a new axis.

    Parameters
    ----------
    arrays : tuple of Array or list of Array
        Input arrays to join.
    axis : int, optional
        Axis along which to join the arrays. Default: ``0``.

    Returns
    -------
    Array
        An output array.

    Raises
    ------
    ValueError
        stack needs at least one array; arrays must have one shape, got …;
        concat needs at least one array.

    Notes
    -----
    One copy per input into the new axis; the inputs promote by the standard's
    table.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)
    Array([[1, 3], [2, 4]], dtype=int64)
    """
    arrays = list(arrays)
    if not arrays:
        raise ValueError("stack needs at least one array")
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"stack: arrays must have one shape, got {[a.shape for a in arrays]}")
    return concat([expand_dims(a, axis=axis) for a in arrays], axis=axis)


def roll(
    x: Array, /, shift: int | tuple[int, ...], *, axis: int | tuple[int, ...] | None = None
) -> Array:
    """Rolls array elements along a specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    shift : int or tuple of int
        Number of places by which the elements are shifted.
    axis : int or tuple of int or None, optional
        Axis (or axes) along which elements to shift. Default: ``None``.

    Returns
    -------
    Array
        An output array.

    Raises
    ------
    ValueError
        shift and axis need the same length; shape … -> … needs a copy but
        copy=False; concat needs at least one array.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    The elements that fall off one end come back at the other; axis=None rolls
    the flattened array and restores the shape.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.roll(xp.asarray([1, 2, 3, 4]), 1)
    Array([4, 1, 2, 3], dtype=int64)
    """
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


__all__ = [
    "astype",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "reshape",
    "roll",
    "squeeze",
    "stack",
]

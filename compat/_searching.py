"""Searching functions: argmax/argmin, nonzero, where, count_nonzero."""

from __future__ import annotations

from strided.core import (
    arraytype as _arraytype,
    base as _core,
    indexing as _indexing,
    ops as _ops,
    views as _views,
)

from . import _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._promotion import as_core

_reduce_new, _SUM = _arraytype.reduce_new, _ops.REDUCE["sum"]
_BOOL = _dtypes.bool


# argmax/argmin of an Array over None or an int in one C call, or None
_argreduce_new = _arraytype.argreduce_new
_where_new = _arraytype.where_new


def _real(name, x):
    if x.dtype not in KINDS["real numeric"]:
        raise TypeError(f"{name} is not defined for {x.dtype.name}")


@_docstrings.sections()
def argmax(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Returns the indices of the maximum values along a specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or None, optional
        Axis along which to search. Default: ``None``.
    {{keepdims_broadcast}}

    Returns
    -------
    Array
        If ``axis`` is ``None``, a zero-dimensional array containing the index
        of the first occurrence of the maximum value; otherwise, a
        non-zero-dimensional array containing the indices of the maximum values.

    Raises
    ------
    TypeError
        when the dtype is not one the function takes (the message names it).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    The index of the first maximum; NaN counts as the largest value, as in
    numpy. Indices are int64.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.argmax(xp.asarray([[1, 5, 3], [7, 2, 7]]), axis=1)  # the first of ties
    Array([1, 0], dtype=int64)
    """
    _real("argmax", x)
    r = _argreduce_new(True, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.argreduce(True, x._c, axis, keepdims))


@_docstrings.sections()
def argmin(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Returns the indices of the minimum values along a specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or None, optional
        Axis along which to search. Default: ``None``.
    {{keepdims_broadcast}}

    Returns
    -------
    Array
        If ``axis`` is ``None``, a zero-dimensional array containing the index
        of the first occurrence of the minimum value; otherwise, a
        non-zero-dimensional array containing the indices of the minimum values.

    Raises
    ------
    TypeError
        when the dtype is not one the function takes (the message names it).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    The index of the first minimum; NaN counts as the smallest, as in numpy (a
    NaN is reported). Indices are int64.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.argmin(xp.asarray([3.0, 1.0, 1.0]))
    Array(1, dtype=int64)
    """
    _real("argmin", x)
    r = _argreduce_new(False, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.argreduce(False, x._c, axis, keepdims))


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """Returns the indices of the array elements which are non-zero.

    Parameters
    ----------
    x : Array
        Input array.

    Returns
    -------
    tuple of Array
        A tuple of ``k`` arrays, one for each dimension of ``x`` and each of
        size ``n`` (where ``n`` is the total number of non-zero elements),
        containing the indices of the non-zero elements in that dimension.

    Raises
    ------
    ValueError
        nonzero of a 0-d array is not defined.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    Indices are int64; the result is a tuple of one array per dimension. A 0-d
    input raises ValueError, as the standard asks.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.nonzero(xp.asarray([[0, 1], [2, 0]]))
    (Array([0, 1], dtype=int64), Array([1, 0], dtype=int64))
    """
    if x.ndim == 0:
        raise ValueError("nonzero of a 0-d array is not defined")
    rows = _indexing.nonzero(x._c, by_dim=True)  # one contiguous row per dim
    return tuple(Array._new(_views.select(rows, 0, d)) for d in range(x.ndim))


def where(
    condition: Array,
    x1: Array | int | float | complex | bool,
    x2: Array | int | float | complex | bool,
    /,
) -> Array:
    """Returns elements chosen from ``x1`` or ``x2`` depending on ``condition``.

    Parameters
    ----------
    condition : Array
        When ``True``, yield ``x1_i``; otherwise, yield ``x2_i``.
    x1 : Array or int or float or complex or bool
        First input array.
    x2 : Array or int or float or complex or bool
        Second input array.

    Returns
    -------
    Array
        An array with elements from ``x1`` where ``condition`` is ``True``, and
        elements from ``x2`` elsewhere.

    Raises
    ------
    TypeError
        condition must be a bool array; x1 or x2 must be an array.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    x1 and x2 may be Python scalars (2025.12); they promote by the standard's
    table. One C pass.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.where(xp.asarray([True, False]), xp.asarray([1, 2]), 0)
    Array([1, 0], dtype=int64)
    """
    r = _where_new(condition, x1, x2)  # three Arrays, bool and one dtype: in C
    if r is not None:
        return r
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


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def count_nonzero(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> Array:
    """Counts the number of array elements which are non-zero.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to count non-zero values. Default: ``None``.
    {{keepdims_broadcast}}

    Returns
    -------
    Array
        If the number of non-zeros values was computed over the entire array, a
        zero-dimensional array containing the total number of non-zero values;
        otherwise, a non-zero-dimensional array containing the counts along the
        specified axes.

    {{raises}}

    Notes
    -----
    Counts in int64; NaN counts as nonzero.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.count_nonzero(xp.asarray([[0, 1], [2, 3]]), axis=0)
    Array([1, 2], dtype=int64)
    """
    if type(x) is Array:  # x != 0 and its sum, one C call each
        r = _reduce_new(_SUM, False, x if x.dtype == _BOOL else x != 0, axis, keepdims)
        if r is not None:
            return r
    nz = _ops.binary("not_equal", x._c, _core.scalar(0, x.dtype))
    axes = axis if axis is None or isinstance(axis, tuple) else (axis,)
    return Array._new(_ops.reduce("sum", nz, axes, keepdims))


__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "where"]

"""sort and argsort: the core's stable sort (NaN last ascending)."""

from __future__ import annotations

from strided.core import indexing as _indexing

from ._array import Array
from ._dtypes import KINDS


def _check(name, x):
    if x.dtype not in KINDS["real numeric"] and x.dtype not in KINDS["bool"]:
        raise TypeError(f"{name} is not defined for {x.dtype.name}")


def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Returns a sorted copy of an input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int, optional
        Axis along which to sort. Default: ``-1``.
    descending : bool, optional
        Sort order. Default: ``False``.
    stable : bool, optional
        Sort stability. Default: ``True``.

    Returns
    -------
    Array
        A sorted array.

    Raises
    ------
    TypeError
        when the dtype is not one the function takes (the message names it).
    ValueError
        sort of a 0-d array.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A stable sort in C whatever `stable` says; NaN sorts last (descending:
    first), complex by (real, imag).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.sort(xp.asarray([3.0, xp.nan, 1.0]))  # NaN last
    Array([1., 3., nan], dtype=float64)
    >>> xp.sort(xp.asarray([3, 1, 2]), descending=True)
    Array([3, 2, 1], dtype=int64)
    """
    _check("sort", x)
    if x.ndim == 0:
        raise ValueError("sort of a 0-d array")
    return Array._new(_indexing.sort(x._c, axis, bool(descending)))


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Returns the indices that sort an array ``x`` along a specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int, optional
        Axis along which to sort. Default: ``-1``.
    descending : bool, optional
        Sort order. Default: ``False``.
    stable : bool, optional
        Sort stability. Default: ``True``.

    Returns
    -------
    Array
        An array of indices.

    Raises
    ------
    TypeError
        when the dtype is not one the function takes (the message names it).
    ValueError
        argsort of a 0-d array.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A stable sort in C whatever `stable` says; NaN sorts last, complex by (real,
    imag); `descending` keeps equal elements in their order. Indices are int64.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.argsort(xp.asarray([3, 1, 2, 1]))  # stable: ties keep their order
    Array([1, 3, 2, 0], dtype=int64)
    >>> xp.argsort(xp.asarray([3, 1, 2]), descending=True)
    Array([0, 2, 1], dtype=int64)
    """
    _check("argsort", x)
    if x.ndim == 0:
        raise ValueError("argsort of a 0-d array")
    return Array._new(_indexing.argsort(x._c, axis, bool(descending)))


__all__ = ["argsort", "sort"]

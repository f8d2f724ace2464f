"""Set functions: unique_all, unique_counts, unique_inverse, unique_values
and isin, over the core's stable sort and the run and search kernels of
setops.c (strided.core.setops).

Uniqueness is value equality (`equal`): every NaN is a distinct value with
a count of one (a complex value with a NaN part too); -0.0 and +0.0 are
one value, returned as whichever occurs first.  Values come out ascending,
NaNs last, in the order of `sort`.  Every dtype is accepted."""

from __future__ import annotations

from collections import namedtuple

from strided.core import setops as _setops

from . import _docstrings
from ._array import Array
from ._promotion import operands

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _unique(name, x, **want):
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an Array, got {type(x).__name__}")
    return [c if c is None else Array._new(c) for c in _setops.unique(x._c, **want)]


def unique_all(x: Array, /) -> tuple[Array, Array, Array, Array]:
    """Returns the unique elements of an input array ``x``, the first occurring
    indices for each unique element in ``x``, the indices from the set of unique
    elements that reconstruct ``x``, and the corresponding counts for each
    unique element in ``x``.

    Parameters
    ----------
    x : Array
        Input array.

    Returns
    -------
    tuple (Array, Array, Array, Array)
        A namedtuple ``(values, indices, inverse_indices, counts)`` whose -
        first element must have the field name ``values`` and must be a
        one-dimensional array containing the unique elements of ``x``.

    Raises
    ------
    TypeError
        expected an Array, got ….

    Notes
    -----
    The input is flattened and sorted stably in C. Every NaN is a value of its
    own (count 1, listed last); -0.0 and +0.0 are one value. The result is a
    namedtuple (values, indices, inverse_indices, counts).

    Examples
    --------
    >>> import strided.compat as xp
    >>> r = xp.unique_all(xp.asarray([3, 1, 3, 2]))
    >>> r.values, r.indices, r.inverse_indices, r.counts
    (Array([1, 2, 3], dtype=int64), Array([1, 3, 0], dtype=int64), Array([2, 0, 2, 1], dtype=int64), Array([1, 1, 2], dtype=int64))
    """
    values, indices, inverse, counts = _unique(
        "unique_all", x, indices=True, inverse=True, counts=True
    )
    return UniqueAllResult(values, indices, inverse, counts)


def unique_counts(x: Array, /) -> tuple[Array, Array]:
    """Returns the unique elements of an input array ``x`` and the corresponding
    counts for each unique element in ``x``.

    Parameters
    ----------
    x : Array
        Input array.

    Returns
    -------
    tuple (Array, Array)
        A namedtuple `(values, counts)` whose - first element must have the
        field name ``values`` and must be a one-dimensional array containing the
        unique elements of ``x``.

    Raises
    ------
    TypeError
        expected an Array, got ….

    Notes
    -----
    Sorted unique values and their counts (namedtuple); every NaN is a value of
    its own.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.unique_counts(xp.asarray([3, 1, 3]))
    UniqueCountsResult(values=Array([1, 3], dtype=int64), counts=Array([1, 2], dtype=int64))
    """
    values, _, _, counts = _unique("unique_counts", x, counts=True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Array, /) -> tuple[Array, Array]:
    """Returns the unique elements of an input array ``x`` and the indices from the
    set of unique elements that reconstruct ``x``.

    Parameters
    ----------
    x : Array
        Input array.

    Returns
    -------
    tuple (Array, Array)
        A namedtuple ``(values, inverse_indices)`` whose - first element must
        have the field name ``values`` and must be a one-dimensional array
        containing the unique elements of ``x``.

    Raises
    ------
    TypeError
        expected an Array, got ….

    Notes
    -----
    Sorted unique values and, in x's shape, the index of each element's value
    (namedtuple).

    Examples
    --------
    >>> import strided.compat as xp
    >>> values, inverse = xp.unique_inverse(xp.asarray([3, 1, 3]))
    >>> inverse
    Array([1, 0, 1], dtype=int64)
    """
    values, _, inverse, _ = _unique("unique_inverse", x, inverse=True)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Array, /) -> Array:
    """Returns the unique elements of an input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.

    Returns
    -------
    Array
        A one-dimensional array containing the set of unique elements in ``x``.

    Raises
    ------
    TypeError
        expected an Array, got ….

    Notes
    -----
    Sorted unique values; every NaN is a value of its own, -0.0 and +0.0 one
    value.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.unique_values(xp.asarray([3, 1, 3, 2]))
    Array([1, 2, 3], dtype=int64)
    """
    return _unique("unique_values", x)[0]


@_docstrings.sections(raises=_docstrings.RAISES_NOT_AN_ARRAY)
def isin(x1: Array | int, x2: Array | int, /, *, invert: bool = False) -> Array:
    """Tests for each element in ``x1`` whether the element is in ``x2``.

    Parameters
    ----------
    x1 : Array or int
        First input array.
    x2 : Array or int
        Second input array.
    invert : bool, optional
        Boolean indicating whether to invert the test criterion. Default:
        ``False``.

    Returns
    -------
    Array
        An array containing element-wise test results.

    {{raises}}

    Notes
    -----
    Whether each element of x1 is in x2 (negated with invert): x2 is
    sorted once, then each element of x1 is binary-searched in it.  x1 and
    x2 promote by the standard's rules (a Python int, float or complex
    takes the array's dtype); pairs with no promotion raise TypeError.  A
    NaN is never in x2.  A scalar x1 gives a 0-d result.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.isin(xp.asarray([1, 2, 3]), xp.asarray([3, 1]))
    Array([True, False, True], dtype=bool)
    """
    a, b = operands("isin", x1, x2)
    return Array._new(_setops.isin(a, b, bool(invert)))


__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

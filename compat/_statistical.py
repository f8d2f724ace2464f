"""Statistical and utility reductions: one core reduction each (sum, prod,
max, min, all, any; mean and var/std in two passes; cumulative sums)."""

from __future__ import annotations

from strided.core import arraytype as _arraytype, base as _core, ops as _ops, views as _views

from . import _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._typing import DType


def _axes(axis):
    return axis if axis is None or isinstance(axis, tuple) else (axis,)


def _need(name, x, category):
    if x.dtype not in KINDS[category]:
        raise TypeError(f"{name} is not defined for {x.dtype.name} (needs {category} dtypes)")


# the plain case of a reduction in one C call (an Array, axis None, an int
# or a tuple of ints), or None: the general path decides
_reduce_new, _var_new = _arraytype.reduce_new, _arraytype.var_new
_SUM, _PROD, _MAX, _MIN, _ALL, _ANY = (
    _ops.REDUCE[n] for n in ("sum", "prod", "max", "min", "all", "any")
)


_INEXACT = _dtypes.KINDS["floating"]


def _sum_like(op, x, axis, dtype, keepdims):
    # (a float's or complex's own dtype named, as SciPy names it, is the default)
    if dtype is None or (dtype is getattr(x, "dtype", None) and dtype in _INEXACT):
        r = _reduce_new(_SUM if op == "sum" else _PROD, False, x, axis, keepdims)
        if r is not None:
            return r
    # the extension: bool sums (and multiplies) in int64, as in numpy
    _need(op, x, "numeric" if x.dtype is not _dtypes.bool else "bool")
    c = x._c
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
        if c.dtype is not dtype:
            c = _core.astype(c, dtype)
    out = _ops.reduce(op, c, _axes(axis), keepdims)
    if dtype is not None and out.dtype is not dtype:
        out = _core.astype(out, dtype)
    return Array._new(out)


# The docstring sections several functions share (_docstrings.sections
# puts each, headed, in place of its {{section}} line)
_RAISES_SUM = """\
TypeError
    when the dtype is not one the function takes (the message names it).
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""
_RAISES_ALL = """\
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""
_RAISES_CUMULATIVE_SUM = """\
TypeError
    when the dtype is not one the function takes (the message names it).
ValueError
    axis is required for a …-d array.
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""


@_docstrings.sections(raises=_RAISES_SUM)
def sum(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: DType | None = None,
    keepdims: bool = False,
) -> Array:
    """Calculates the sum of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which sums must be computed. Default: ``None``.
    dtype : dtype or None, optional
        Data type of the returned array. Default: ``None``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the sum is computed over the entire array, a zero-dimensional array
        containing the sum; otherwise, an array containing the sums.

    {{raises}}

    Notes
    -----
    Signed integers accumulate in int64, unsigned in uint64, bool in int64;
    dtype casts first. Float and complex results are reproducible to the bit:
    each output reduces its values in index order with one fixed pairwise tree,
    whatever the layout, the thread count and the CPU level (docs/array-api.md,
    *Reproducible reductions*).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.sum(xp.asarray([[1, 2], [3, 4]]), axis=0)
    Array([4, 6], dtype=int64)
    >>> xp.sum(xp.asarray([1, 2], dtype=xp.int8), dtype=xp.int64)
    Array(3, dtype=int64)
    """
    return _sum_like("sum", x, axis, dtype, keepdims)


@_docstrings.sections(raises=_RAISES_SUM)
def prod(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: DType | None = None,
    keepdims: bool = False,
) -> Array:
    """Calculates the product of input array ``x`` elements.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to compute products. Default: ``None``.
    dtype : dtype or None, optional
        Data type of the returned array. Default: ``None``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the product is computed over the entire array, a zero-dimensional
        array containing the product; otherwise, a non-zero-dimensional array
        containing the products.

    {{raises}}

    Notes
    -----
    Integers multiply in int64 (unsigned in uint64) unless dtype says otherwise,
    as sum. Float and complex results are reproducible to the bit: each output
    reduces its values in index order with one fixed pairwise tree, whatever the
    layout, the thread count and the CPU level (docs/array-api.md, *Reproducible
    reductions*).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.prod(xp.asarray([[1, 2], [3, 4]]), axis=1)
    Array([2, 12], dtype=int64)
    """
    return _sum_like("prod", x, axis, dtype, keepdims)


@_docstrings.sections(raises=_RAISES_SUM)
def max(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    """Calculates the maximum value of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to compute maximum values. Default: ``None``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the maximum value is computed over the entire array, a
        zero-dimensional array containing the maximum value; otherwise, a
        non-zero-dimensional array containing the maximum values.

    {{raises}}

    Notes
    -----
    NaN propagates (the maximum of anything with a NaN is NaN). An empty
    reduction raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.max(xp.asarray([[1, 5], [3, 2]]), axis=0)
    Array([3, 5], dtype=int64)
    >>> xp.max(xp.asarray([1.0, xp.nan]))  # NaN propagates
    Array(nan, dtype=float64)
    """
    _need("max", x, "real numeric")
    r = _reduce_new(_MAX, False, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.reduce("max", x._c, _axes(axis), keepdims))


@_docstrings.sections(raises=_RAISES_SUM)
def min(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    """Calculates the minimum value of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to compute minimum values. Default: ``None``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the minimum value is computed over the entire array, a
        zero-dimensional array containing the minimum value; otherwise, a
        non-zero-dimensional array containing the minimum values.

    {{raises}}

    Notes
    -----
    NaN propagates (the minimum of anything with a NaN is NaN). An empty
    reduction raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.min(xp.asarray([[1, 5], [3, 2]]), axis=1, keepdims=True)
    Array([[1], [2]], dtype=int64)
    """
    _need("min", x, "real numeric")
    r = _reduce_new(_MIN, False, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.reduce("min", x._c, _axes(axis), keepdims))


@_docstrings.sections(raises=_RAISES_SUM)
def mean(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    dtype: DType | None = None,
) -> Array:
    """Calculates the arithmetic mean of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to compute arithmetic means. Default: ``None``.
    {{keepdims_reduced}}
    dtype : dtype or None, optional
        Beyond the standard, as numpy's: a floating dtype x is converted to
        first (the sum and the result are of that dtype). Default: ``None``
        (x's dtype; an integer or bool x is averaged in float64, as numpy).

    Returns
    -------
    Array
        If the arithmetic mean is computed over the entire array, a
        zero-dimensional array containing the arithmetic mean; otherwise, a
        non-zero-dimensional array containing the arithmetic means.

    {{raises}}

    Notes
    -----
    Two passes: the sum (pairwise, in a fixed order), then a division. Float and
    complex results are reproducible to the bit: each output reduces its values
    in index order with one fixed pairwise tree, whatever the layout, the thread
    count and the CPU level (docs/array-api.md, *Reproducible reductions*).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), axis=1)
    Array([1.5, 4.], dtype=float64)
    """
    if dtype is None:
        r = _reduce_new(_SUM, True, x, axis, keepdims)
        if r is not None:
            return r
    c = x._c
    if dtype is None and c.dtype in KINDS["integral or bool"]:
        dtype = _dtypes.float64
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
        if dtype not in KINDS["floating"]:
            raise TypeError(f"mean: dtype must be a floating dtype, got {dtype.name}")
        if c.dtype in KINDS["complex floating"] and dtype in KINDS["real floating"]:
            raise TypeError(f"mean: a {c.dtype.name} array cannot be averaged in {dtype.name}")
        if c.dtype is not dtype:
            c = _core.astype(c, dtype)
    return Array._new(_ops.mean(c, _axes(axis), keepdims))


@_docstrings.sections(raises=_RAISES_SUM)
def var(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Array:
    """Calculates the variance of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which variances must be computed. Default: ``None``.
    correction : int or float, optional
        Degrees of freedom adjustment. Default: ``0.0``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the variance is computed over the entire array, a zero-dimensional
        array containing the variance; otherwise, a non-zero-dimensional array
        containing the variances.

    {{raises}}

    Notes
    -----
    Two passes (the mean, then the squared deviations), both with the fixed
    pairwise tree. Float and complex results are reproducible to the bit: each
    output reduces its values in index order with one fixed pairwise tree,
    whatever the layout, the thread count and the CPU level (docs/array-api.md,
    *Reproducible reductions*).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0]))
    Array(1.25, dtype=float64)
    """
    r = _var_new(x, axis, keepdims, correction, False)
    if r is not None:
        return r
    _need("var", x, "real floating")
    return Array._new(_ops.var(x._c, _axes(axis), correction, keepdims))


@_docstrings.sections(raises=_RAISES_SUM)
def std(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Array:
    """Calculates the standard deviation of the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to compute standard deviations. Default:
        ``None``.
    correction : int or float, optional
        Degrees of freedom adjustment. Default: ``0.0``.
    {{keepdims_reduced}}

    Returns
    -------
    Array
        If the standard deviation is computed over the entire array, a
        zero-dimensional array containing the standard deviation; otherwise, a
        non-zero-dimensional array containing the standard deviations.

    {{raises}}

    Notes
    -----
    Two passes (the mean, then the squared deviations), both with the fixed
    pairwise tree. Float and complex results are reproducible to the bit: each
    output reduces its values in index order with one fixed pairwise tree,
    whatever the layout, the thread count and the CPU level (docs/array-api.md,
    *Reproducible reductions*).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.std(xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]))
    Array(2., dtype=float64)
    >>> xp.std(xp.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)
    Array(1.2909944487358056, dtype=float64)
    """
    r = _var_new(x, axis, keepdims, correction, True)
    if r is not None:
        return r
    _need("std", x, "real floating")
    return Array._new(_ops.std(x._c, _axes(axis), correction, keepdims))


@_docstrings.sections(raises=_RAISES_ALL)
def all(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    """Tests whether all input array elements evaluate to ``True`` along a
    specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to perform a logical AND reduction. Default:
        ``None``.
    {{keepdims_broadcast}}

    Returns
    -------
    Array
        If a logical AND reduction was performed over the entire array, the
        returned array must be a zero-dimensional array containing the test
        result.

    {{raises}}

    Notes
    -----
    Any dtype: nonzero (and NaN) counts as True. An empty reduction is True.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.all(xp.asarray([[True, False], [True, True]]), axis=0)
    Array([True, False], dtype=bool)
    """
    r = _reduce_new(_ALL, False, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.reduce("all", x._c, _axes(axis), keepdims))


@_docstrings.sections(raises=_RAISES_ALL)
def any(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    """Tests whether any input array element evaluates to ``True`` along a
    specified axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which to perform a logical OR reduction. Default:
        ``None``.
    {{keepdims_broadcast}}

    Returns
    -------
    Array
        If a logical OR reduction was performed over the entire array, the
        returned array must be a zero-dimensional array containing the test
        result.

    {{raises}}

    Notes
    -----
    Any dtype: nonzero (and NaN) counts as True. An empty reduction is False.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.any(xp.asarray([[True, False], [False, False]]), axis=1)
    Array([True, False], dtype=bool)
    """
    r = _reduce_new(_ANY, False, x, axis, keepdims)
    if r is not None:
        return r
    return Array._new(_ops.reduce("any", x._c, _axes(axis), keepdims))


def _cumulative(is_prod, x, axis, dtype, include_initial):
    name = "cumulative_prod" if is_prod else "cumulative_sum"
    _need(name, x, "numeric" if x.dtype is not _dtypes.bool else "bool")  # bool: int64
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
        axis = 0
    c = x._c
    dtype = None if dtype is None else _dtypes.check_dtype(dtype)
    if dtype is not None and c.dtype is not dtype:
        c = _core.astype(c, dtype)
    res = _ops.cumulative(is_prod, c, axis)
    if dtype is not None and res.dtype is not dtype:
        res = _core.astype(res, dtype)
    if include_initial:
        d = _views.normalize_dim(axis, c.ndim, "axis")
        shape = list(res.shape)
        shape[d] += 1
        out = _core.full(shape, 1 if is_prod else 0, res.dtype)
        _core.copy_(_views.narrow(out, d, 1, res.shape[d]), res)
        res = out
    return Array._new(res)


@_docstrings.sections(raises=_RAISES_CUMULATIVE_SUM)
def cumulative_sum(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: DType | None = None,
    include_initial: bool = False,
) -> Array:
    """Calculates the cumulative sum of elements in the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or None, optional
        Axis along which to compute the cumulative sum. Default: ``None``.
    dtype : dtype or None, optional
        Data type of the returned array. Default: ``None``.
    include_initial : bool, optional
        Boolean indicating whether to include the initial value as the first
        value in the output. Default: ``False``.

    Returns
    -------
    Array
        An array containing the cumulative sums.

    {{raises}}

    Notes
    -----
    Integers accumulate in int64 (unsigned in uint64, bool in int64) unless
    dtype says otherwise; a 1-D input needs no axis. include_initial puts the
    empty sum first.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)
    Array([0, 1, 3, 6], dtype=int64)
    """
    return _cumulative(False, x, axis, dtype, include_initial)


@_docstrings.sections(raises=_RAISES_CUMULATIVE_SUM)
def cumulative_prod(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: DType | None = None,
    include_initial: bool = False,
) -> Array:
    """Calculates the cumulative product of elements in the input array ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or None, optional
        Axis along which to compute the cumulative product. Default: ``None``.
    dtype : dtype or None, optional
        Data type of the returned array. Default: ``None``.
    include_initial : bool, optional
        Boolean indicating whether to include the initial value as the first
        value in the output. Default: ``False``.

    Returns
    -------
    Array
        An array containing the cumulative products.

    {{raises}}

    Notes
    -----
    Integers accumulate in int64 (unsigned in uint64) unless dtype says
    otherwise, as sum; a 1-D input needs no axis. The order of a float product
    is fixed, so results are reproducible to the bit.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
    Array([1, 2, 6, 24], dtype=int64)
    """
    return _cumulative(True, x, axis, dtype, include_initial)


def nansum(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: DType | None = None,
    keepdims: bool = False,
) -> Array:
    """Calculates the sum of the input array ``x``, NaN counted as zero (beyond
    the standard, as numpy's ``nansum``; Cubed calls it).

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        Axis or axes along which sums are computed. Default: ``None`` (all).
    dtype : dtype or None, optional
        As `sum`'s. Default: ``None``.
    keepdims : bool, optional
        If ``True``, the reduced axes stay as singleton dimensions. Default:
        ``False``.

    Returns
    -------
    Array
        The sums, as `sum` gives them.

    Raises
    ------
    TypeError
        x is not an Array, or the dtype is not one `sum` takes.

    Notes
    -----
    A complex element with NaN in either part counts as zero; integers and
    bool are summed as by `sum`. The order of the additions is `sum`'s.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.nansum(xp.asarray([1.0, xp.nan, 2.5]))
    Array(3.5, dtype=float64)
    """
    if x.dtype in KINDS["floating"]:
        c = x._c
        x = Array._new(_ops.where(_ops.unary("isnan", c), _core.scalar(0, c.dtype), c))
    return sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


__all__ = [
    "all",
    "any",
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "nansum",
    "prod",
    "std",
    "sum",
    "var",
]

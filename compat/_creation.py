"""Creation functions of strided.compat.  Values are written in C, one
threaded pass each: fills, linear sequences (arange, linspace: st_linear_fill,
st_arange_int), eye's diagonal, tril/triu (st_tri); zeros need no pass
(fresh pages that the kernel zeroes lazily: Core.zeros)."""

from __future__ import annotations

import math
import operator

from strided.core import (
    arraytype as _arraytype,
    base as _core,
    matrix as _matrix,
    ops as _ops,
    views as _views,
)
from strided.core.dlpack import VERSION as _DLPACK_VERSION, _copy_flag

from . import _docstrings, _dtypes, _numpy
from ._array import CPU, Array, check_device
from ._dtypes import KINDS
from typing import Any, Literal
from ._typing import DType, Device, NestedSequence, SupportsBufferProtocol


def _default_for(value):
    if isinstance(value, bool):
        return _dtypes.bool
    if isinstance(value, int):
        return _dtypes.int64
    if isinstance(value, float):
        return _dtypes.float64
    if isinstance(value, complex):
        return _dtypes.complex128
    raise TypeError(f"expected a Python bool, int, float or complex, got {type(value).__name__}")


def _check(dtype, device):
    check_device(device)
    return None if dtype is None else _dtypes.check_dtype(dtype)


_PYTHON_NUMBERS = {bool, int, float, complex}


def _from_nested(obj, dtype):
    """A Core from nested lists of numbers: Python numbers, numpy scalars,
    0-d arrays (ours or numpy's).  The shape is the core's reader's (a
    ragged or mixed nesting is a ValueError)."""
    shape: list[int] = []
    flat: list[Any] = []
    _core._flatten(obj, shape, flat)
    if set(map(type, flat)) <= _PYTHON_NUMBERS:
        dts = None if dtype is not None else {_default_for(v) for v in flat}
    else:
        pairs = [_numpy.leaf(v) for v in flat]
        flat = [v for v, _ in pairs]
        dts = {_default_for(v) if d is None else d for v, d in pairs}
    if dtype is None:
        dtype = _nested_dtype(dts)
    return _core.from_flat(_values_for(flat, dtype), shape, dtype)


def _nested_dtype(dts):
    """numpy's choice for a list, from its leaves' dtypes (a Python number's
    is the default one: bool, int64, float64, complex128; a numpy scalar's
    or a 0-d array's its own): all promote by the standard's table, and
    kinds the table does not mix give the default dtype of the highest
    kind ([np.float32(1), 2] is float64, as in numpy).  No leaves: float64."""
    if not dts:
        return _dtypes.float64
    out = None
    try:
        for d in dts:
            out = d if out is None else _dtypes.promote(out, d)
        return out
    except TypeError:
        for kind, default in (
            ("complex floating", _dtypes.complex128),
            ("real floating", _dtypes.float64),
            ("integral", _dtypes.int64),
        ):
            if any(d in KINDS[kind] for d in dts):
                return default
        return _dtypes.bool


def _values_for(flat, dtype):
    """flat's numbers as cffi takes them for dtype, converted as numpy does:
    a float for an integer dtype is truncated (NaN ValueError, infinity and
    out of range OverflowError), any number for bool is its truth value."""
    if dtype in KINDS["integral"]:
        if any(type(v) is float for v in flat):
            return [math.trunc(v) if type(v) is float else v for v in flat]
    elif dtype is _dtypes.bool:
        if any(type(v) is not bool for v in flat):
            return [bool(v) for v in flat]
    return flat


# A flat list of Python numbers of one type (the commonest small creation)
# and zeros/ones/empty/full of an int or tuple shape are one C call each
# (strided/_c/pyarray.c): None when the case is not that one.
_from_list, _filled = _arraytype.from_list, _arraytype.filled
_CODES = {id(d): d.code for d in _dtypes.ALL}


def _filled_fast(shape, dtype, device, value):
    """filled()'s one C call for a plain shape, one of our dtypes (None:
    float64) and a plain value, or None."""
    if device is not None and device is not CPU:
        return None
    code = _CODES.get(id(_dtypes.float64 if dtype is None else dtype))
    return None if code is None else _filled(shape, code, value)


# asarray's one-C-call cases: a new Array viewing all of an Array, the 0-d
# array of a Python float, int (within int64) or bool of its default dtype
_alias, _scalar, _astype_new = _arraytype.alias, _arraytype.scalar, _arraytype.astype
_SCALAR_DEFAULTS = {float: _dtypes.float64, int: _dtypes.int64, bool: _dtypes.bool}


def _from_buffer(obj):
    """A zero-copy Core over a C-contiguous buffer-protocol object, or None."""
    return _core.from_buffer(obj, "asarray")


def asarray(
    obj: Array
    | bool
    | int
    | float
    | complex
    | NestedSequence[bool | int | float | complex]
    | SupportsBufferProtocol,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    copy: bool | None = None,
) -> Array:
    """Convert the input to an array.

    Parameters
    ----------
    obj : Array or bool or int or float or complex or Nestedsequence of bool | int | float | complex or SupportsBufferProtocol
        Object to be converted to an array.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.
    copy : bool or None, optional
        Boolean indicating whether or not to copy the input. Default: ``None``.

    Returns
    -------
    Array
        An array containing the data from ``obj``.

    Raises
    ------
    ValueError
        copy=False but a Python object must be copied; copy=False but … -> …
        needs a copy.
    TypeError
        expected a Python bool, int, float or complex, got …; unsupported buffer
        (format …, contiguous=…); Unsupported input type … (a str with its
        value: the standard has no string dtype).

    Notes
    -----
    An Array from an Array, a Torch7 tensor (a view of its memory), a
    DLPack producer such as a numpy array or a PyTorch tensor (zero-copy,
    any strides), a buffer-protocol object (zero-copy), a Python scalar or
    nested lists.
    copy=True always copies; copy=False never does (ValueError if it must);
    copy=None copies only when needed.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.asarray([1, 2, 3])
    Array([1, 2, 3], dtype=int64)
    >>> xp.asarray([[1.5, 2]], dtype=xp.float32)
    Array([[1.5, 2.]], dtype=float32)
    >>> xp.asarray(3.0)
    Array(3., dtype=float64)
    """
    if device is None or device is CPU:
        kind = type(obj)
        if isinstance(obj, Array) and kind is Array:
            # a new Array over the same memory (one C call)
            if (dtype is None or dtype is obj.dtype) and (copy is None or copy is False):
                return _alias(obj)
            # a copy, or a conversion (a C-contiguous one, in one C call; None
            # when dtype is not one of the namespace's DType objects)
            if copy is True or copy is None:
                a = _astype_new(obj, obj.dtype if dtype is None else dtype)
                if a is not None:
                    return a
        elif copy is None or copy is True:
            if kind is list and dtype is None:
                a = _from_list(obj)
                if a is not None:
                    return a
            elif kind in _SCALAR_DEFAULTS and (dtype is None or dtype is _SCALAR_DEFAULTS[kind]):
                a = _scalar(obj)
                if a is not None:
                    return a
            elif copy is None and dtype is None and kind is _numpy.ndarray_type():
                # numpy's result handed back (SciPy does it in every
                # function): its capsule straight into an Array, one C call
                # (numpy's arrays live on the CPU and take max_version); the
                # general path below is the same import, through more checks
                ndarray: Any = obj
                a = _arraytype.from_capsule(ndarray.__dlpack__(max_version=_DLPACK_VERSION))
                if a is not None:  # (every dtype of the core is one of ours)
                    return a
    copy = _copy_flag(copy, "asarray")
    dtype = _check(dtype, device)
    fresh = False
    if isinstance(obj, Array):
        c = obj._c
    elif hasattr(obj, "__strided_core__"):  # a Torch7 tensor: a view of its memory
        c = _dtypes.check_imported(obj.__strided_core__(), "asarray")
    elif _numpy.is_scalar(obj):
        # a numpy scalar is a value, not memory to share: a new writable
        # array of its dtype (its buffer is read-only)
        value, dt = _numpy.leaf(obj)
        c, fresh = _core.scalar(value, dtype or dt), True
    elif isinstance(obj, (bool, int, float, complex)):
        c, fresh = _core.scalar(obj, dtype or _default_for(obj)), True
    elif isinstance(obj, (list, tuple)):
        c, fresh = _from_nested(obj, dtype), True
    elif hasattr(obj, "__dlpack__"):
        # numpy, PyTorch and every DLPack producer: any strides, zero-copy
        from strided.core import dlpack as _dlpack

        if copy is None and dtype is None:  # zero-copy, straight into an Array
            a, obj = _dlpack.to_array(obj)
            if a is not None:
                _dtypes.check_imported(a, "asarray")
                return a
        c = _dtypes.check_imported(_dlpack.to_core(obj), "asarray")
    else:
        c = _from_buffer(obj)
        if c is None:
            what = type(obj).__name__
            if isinstance(obj, str):  # the value says what went where
                raise TypeError(
                    f"asarray: Unsupported input type {what} ({obj[:40]!r}): "
                    f"the array API has no string dtype"
                )
            raise TypeError(
                f"asarray: Unsupported input type {what}: not a number, a "
                f"sequence, a buffer or a DLPack producer"
            )
    if fresh and copy is False:
        raise ValueError("asarray: copy=False but a Python object must be copied")
    if dtype is not None and c.dtype is not dtype:
        if copy is False:
            raise ValueError(f"asarray: copy=False but {c.dtype.name} -> {dtype.name} needs a copy")
        c, fresh = _core.astype(c, dtype), True
    if copy and not fresh:
        c = _core.astype(c, c.dtype)
    return Array._new(c)


# The docstring sections several functions share (_docstrings.sections
# puts each, headed, in place of its {{section}} line)
_PARAMETERS_EMPTY = """\
shape : int or tuple of int
    Output array shape.
dtype : dtype or None, optional
    Output array data type. Default: ``None``.
device : device or None, optional
    Device on which to place the created array. Default: ``None``."""
_RAISES_EMPTY = """\
ValueError
    For a negative size, or a device other than 'cpu'.
TypeError
    For a shape that is not a sequence of integers, or an unknown dtype."""
_PARAMETERS_EMPTY_LIKE = """\
x : Array
    Input array from which to derive the output array shape.
dtype : dtype or None, optional
    Output array data type. Default: ``None``.
device : device or None, optional
    Device on which to place the created array. Default: ``None``.
shape : int or tuple of ints or None, optional
    Beyond the standard, as numpy's: the shape of the result instead of
    x's (Cubed asks for it). Default: ``None``."""
_RAISES_EMPTY_LIKE = """\
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""
_RETURNS_ARANGE = """\
Array
    A one-dimensional array containing evenly spaced values."""
_RAISES_TRIL = """\
ValueError
    needs at least 2 dims, got ….
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""


@_docstrings.sections(parameters=_PARAMETERS_EMPTY, raises=_RAISES_EMPTY)
def empty(
    shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None
) -> Array:
    """Returns an uninitialized array having a specified `shape`.

    {{parameters}}

    Returns
    -------
    Array
        An array containing uninitialized data.

    {{raises}}

    Notes
    -----
    The memory is allocated but not initialised (it may hold anything).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.empty((2, 3)).shape
    (2, 3)
    """
    # from the zeroed path: a reused block never shows a freed array's bytes
    a = _filled_fast(shape, dtype, device, None)
    if a is not None:
        return a
    return Array._new(_core.Core.zeros(shape, _check(dtype, device) or _dtypes.float64))


@_docstrings.sections(parameters=_PARAMETERS_EMPTY, raises=_RAISES_EMPTY)
def zeros(
    shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None
) -> Array:
    """Returns a new array having a specified ``shape`` and filled with zeros.

    {{parameters}}

    Returns
    -------
    Array
        An array containing zeros.

    {{raises}}

    Notes
    -----
    The dtype defaults to float64.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.zeros((2, 2), dtype=xp.bool)
    Array([[False, False], [False, False]], dtype=bool)
    """
    a = _filled_fast(shape, dtype, device, None)
    if a is not None:
        return a
    return Array._new(_core.Core.zeros(shape, _check(dtype, device) or _dtypes.float64))


@_docstrings.sections(parameters=_PARAMETERS_EMPTY, raises=_RAISES_EMPTY)
def ones(
    shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None
) -> Array:
    """Returns a new array having a specified ``shape`` and filled with ones.

    {{parameters}}

    Returns
    -------
    Array
        An array containing ones.

    {{raises}}

    Notes
    -----
    The dtype defaults to float64.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.ones((2,), dtype=xp.int16)
    Array([1, 1], dtype=int16)
    """
    a = _filled_fast(shape, dtype, device, 1)
    if a is not None:
        return a
    return Array._new(_core.full(shape, 1, _check(dtype, device) or _dtypes.float64))


def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Returns a new array having a specified ``shape`` and filled with
    ``fill_value``.

    Parameters
    ----------
    shape : int or tuple of int
        Output array shape.
    fill_value : bool or int or float or complex
        Fill value.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.

    Returns
    -------
    Array
        An array where every element is equal to ``fill_value``.

    Raises
    ------
    TypeError
        expected a Python bool, int, float or complex, got ….

    Notes
    -----
    The dtype of fill_value's Python type when dtype is None (bool, int64,
    float64 or complex128).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.full((2,), 7)
    Array([7, 7], dtype=int64)
    """
    dt = dtype if dtype is not None else _SCALAR_DEFAULTS.get(type(fill_value))
    if dt is not None:
        a = _filled_fast(shape, dt, device, fill_value)
        if a is not None:
            return a
    if isinstance(fill_value, Array):
        fill_value = _core.item(fill_value._c)
    dt = _check(dtype, device) or _default_for(fill_value)
    return Array._new(_core.full(shape, fill_value, dt))


def _like_fast(x, dtype, device, shape, value):
    """The *_like functions' one C call (_filled_fast: value None zeroed) for
    an Array x, or None."""
    if type(x) is not Array:
        return None
    return _filled_fast(x.shape if shape is None else shape, dtype or x.dtype, device, value)


def _like(x, dtype, device, shape):
    # the extension, as numpy's: `shape` replaces x's shape (the dtype stays
    # x's unless given)
    return (x.shape if shape is None else shape, _check(dtype, device) or x.dtype)


@_docstrings.sections(parameters=_PARAMETERS_EMPTY_LIKE, raises=_RAISES_EMPTY_LIKE)
def empty_like(
    x: Array,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    shape: int | tuple[int, ...] | None = None,
) -> Array:
    """Returns an uninitialized array with the same ``shape`` as an input array
    ``x``.

    {{parameters}}

    Returns
    -------
    Array
        An array having the same shape as ``x`` and containing uninitialized
        data.

    {{raises}}

    Notes
    -----
    The memory is allocated but not initialised; the shape of x, its dtype
    unless dtype is given.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.empty_like(xp.asarray([1, 2], dtype=xp.int8)).dtype
    strided.int8
    """
    a = _like_fast(x, dtype, device, shape, None)
    if a is not None:
        return a
    shape, dt = _like(x, dtype, device, shape)
    return Array._new(_core.Core.zeros(shape, dt))  # as empty: never a freed array's bytes


@_docstrings.sections(parameters=_PARAMETERS_EMPTY_LIKE, raises=_RAISES_EMPTY_LIKE)
def zeros_like(
    x: Array,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    shape: int | tuple[int, ...] | None = None,
) -> Array:
    """Returns a new array filled with zeros and having the same ``shape`` as an
    input array ``x``.

    {{parameters}}

    Returns
    -------
    Array
        An array having the same shape as ``x`` and filled with zeros.

    {{raises}}

    Notes
    -----
    The shape of x and, unless dtype is given, its dtype.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.zeros_like(xp.asarray([1, 2]))
    Array([0, 0], dtype=int64)
    """
    a = _like_fast(x, dtype, device, shape, None)
    if a is not None:
        return a
    shape, dt = _like(x, dtype, device, shape)
    return Array._new(_core.Core.zeros(shape, dt))


@_docstrings.sections(parameters=_PARAMETERS_EMPTY_LIKE, raises=_RAISES_EMPTY_LIKE)
def ones_like(
    x: Array,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    shape: int | tuple[int, ...] | None = None,
) -> Array:
    """Returns a new array filled with ones and having the same ``shape`` as an
    input array ``x``.

    {{parameters}}

    Returns
    -------
    Array
        An array having the same shape as ``x`` and filled with ones.

    {{raises}}

    Notes
    -----
    The shape of x and, unless dtype is given, its dtype.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.ones_like(xp.asarray([[1.5], [2.5]]))
    Array([[1.], [1.]], dtype=float64)
    """
    a = _like_fast(x, dtype, device, shape, 1)
    if a is not None:
        return a
    shape, dt = _like(x, dtype, device, shape)
    return Array._new(_core.full(shape, 1, dt))


@_docstrings.sections(raises=_RAISES_EMPTY_LIKE)
def full_like(
    x: Array,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    shape: int | tuple[int, ...] | None = None,
) -> Array:
    """Returns a new array filled with ``fill_value`` and having the same ``shape``
    as an input array ``x``.

    Parameters
    ----------
    x : Array
        Input array from which to derive the output array shape.
    fill_value : bool or int or float or complex
        Fill value.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.
    shape : int or tuple of ints or None, optional
        Beyond the standard, as numpy's: the shape of the result instead of
        x's (Cubed asks for it). Default: ``None``.

    Returns
    -------
    Array
        An array having the same shape as ``x`` and where every element is equal
        to ``fill_value``.

    {{raises}}

    Notes
    -----
    The shape of x and, unless dtype is given, its dtype; fill_value is cast to
    it.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.full_like(xp.asarray([1.0, 2.0]), 0.5)
    Array([0.5, 0.5], dtype=float64)
    """
    a = _like_fast(x, dtype, device, shape, fill_value)
    if a is not None:
        return a
    shape, dt = _like(x, dtype, device, shape)
    return Array._new(_core.full(shape, fill_value, dt))


@_docstrings.sections(returns=_RETURNS_ARANGE)
def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Returns evenly spaced values within the half-open interval ``[start, stop)``
    as a one-dimensional array.

    Parameters
    ----------
    start : int or float
        If ``stop`` is specified, the start of interval (inclusive); otherwise,
        the end of the interval (exclusive).
    stop : int or float or None, optional
        The end of the interval. Default: ``None``.
    step : int or float, optional
        The distance between two adjacent elements (``out[i+1] - out[i]``).
        Default: ``1``.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.

    {{returns}}

    Raises
    ------
    ValueError
        step must not be 0.

    Notes
    -----
    The number of elements is ceil((stop - start) / step), computed once; each
    element is start + i * step (no accumulated error). Integer arguments give
    the default integer dtype (int64), any float one the default float
    (float64).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.arange(5)
    Array([0, 1, 2, 3, 4], dtype=int64)
    >>> xp.arange(1.0, 2.0, 0.25)
    Array([1., 1.25, 1.5, 1.75], dtype=float64)
    """
    dtype = _check(dtype, device)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    ints = all(isinstance(v, int) for v in (start, stop, step))
    if dtype is None:
        dtype = _dtypes.int64 if ints else _dtypes.float64
    n = (
        len(range(start, stop, step))  # type: ignore[arg-type]  # ints: all three are
        if ints
        else max(0, math.ceil((stop - start) / step))
    )
    out = _core.Core.empty((n,), dtype)
    if dtype in KINDS["integral"] or dtype is _dtypes.bool:
        if not ints:  # numpy's: its first two values truncated, their difference the step
            start, step = math.trunc(start), math.trunc(start + step) - math.trunc(start)
        return Array._new(_ops.arange_int(out, start, step))
    # numpy's: start, start + step, then start + k*delta with delta the
    # difference of those two, in double (per part for a complex dtype)
    second = start + step
    return Array._new(_ops.linear(out, start, second - start, second=second))


@_docstrings.sections(returns=_RETURNS_ARANGE)
def linspace(
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    endpoint: bool = True,
) -> Array:
    """Returns evenly spaced numbers over a specified interval.

    Parameters
    ----------
    start : int or float or complex
        The start of the interval.
    stop : int or float or complex
        The end of the interval.
    num : int
        Number of samples.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.
    endpoint : bool, optional
        Boolean indicating whether to include ``stop`` in the interval. Default:
        ``True``.

    {{returns}}

    Raises
    ------
    ValueError
        num must be >= 0, got ….
    TypeError
        complex bounds need a complex dtype, got ….

    Notes
    -----
    Each element is start + i * step computed directly, and the last is stop
    exactly when endpoint is true.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linspace(0, 1, 5)
    Array([0., 0.25, 0.5, 0.75, 1.], dtype=float64)
    >>> xp.linspace(0, 1, 4, endpoint=False)
    Array([0., 0.25, 0.5, 0.75], dtype=float64)
    """
    dtype = _check(dtype, device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: num must be >= 0, got {num}")
    cplx = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        dtype = _dtypes.complex128 if cplx else _dtypes.float64
    if cplx and dtype not in KINDS["complex floating"]:
        raise TypeError(f"linspace: complex bounds need a complex dtype, got {dtype.name}")
    div = (num - 1) if endpoint else num
    delta = stop - start
    step = delta / div if div > 0 else 0
    if div > 0 and isinstance(delta, complex):  # numpy's complex quotient: times 1/div
        step = complex(delta.real * (1.0 / div), delta.imag * (1.0 / div))
    # numpy's: k*step + start in double (per part for complex), or
    # (k/div)*delta + start where step underflows to 0; the last point is
    # stop; an integer dtype takes the values rounded down (numpy >= 2.0)
    divided = div > 0 and step == 0 and delta != 0
    out = _ops.linear(
        _core.Core.empty((num,), dtype),
        start,
        delta if divided else step,
        div=div if divided else None,
        last=stop if endpoint and num > 1 else None,
        floor=dtype in KINDS["integral"],
    )
    return Array._new(out)


@_docstrings.sections(raises=_RAISES_EMPTY)
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Returns a two-dimensional array with ones on the ``k``\\th diagonal and zeros
    elsewhere.

    Parameters
    ----------
    n_rows : int
        Number of rows in the output array.
    n_cols : int or None, optional
        Number of columns in the output array. Default: ``None``.
    k : int, optional
        Index of the diagonal. Default: ``0``.
    dtype : dtype or None, optional
        Output array data type. Default: ``None``.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.

    Returns
    -------
    Array
        An array where all elements are equal to zero, except for the ``k``\\th
        diagonal, whose values are equal to one.

    {{raises}}

    Notes
    -----
    k > 0 is above the main diagonal, k < 0 below.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.eye(2, 3, k=1)
    Array([[0., 1., 0.], [0., 0., 1.]], dtype=float64)
    """
    dtype = _check(dtype, device) or _dtypes.float64
    n_cols = n_rows if n_cols is None else n_cols
    # zeros without a pass, then only the diagonal's pages are touched
    return Array._new(_ops.eye_(_core.Core.zeros((n_rows, n_cols), dtype), k, zeroed=True))


def _tri(x, k, upper):
    if x.ndim < 2:
        raise ValueError(f"needs at least 2 dims, got {x.ndim}")
    return Array._new(_matrix.triu(x._c, k) if upper else _matrix.tril(x._c, k))


@_docstrings.sections(raises=_RAISES_TRIL)
def tril(x: Array, /, *, k: int = 0) -> Array:
    """Returns the lower triangular part of a matrix (or a stack of matrices)
    ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.
    k : int, optional
        Diagonal above which to zero elements. Default: ``0``.

    Returns
    -------
    Array
        An array containing the lower triangular part(s).

    {{raises}}

    Notes
    -----
    A copy with the elements above the k-th diagonal zeroed, over the last two
    axes.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.tril(xp.ones((3, 3), dtype=xp.int8))
    Array([[1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=int8)
    """
    return _tri(x, k, False)


@_docstrings.sections(raises=_RAISES_TRIL)
def triu(x: Array, /, *, k: int = 0) -> Array:
    """Returns the upper triangular part of a matrix (or a stack of matrices)
    ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.
    k : int, optional
        Diagonal below which to zero elements. Default: ``0``.

    Returns
    -------
    Array
        An array containing the upper triangular part(s).

    {{raises}}

    Notes
    -----
    A copy with the elements below the k-th diagonal zeroed, over the last two
    axes.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.triu(xp.ones((2, 3), dtype=xp.int8), k=1)
    Array([[0, 1, 1], [0, 0, 1]], dtype=int8)
    """
    return _tri(x, k, True)


def meshgrid(*arrays: Array, indexing: Literal['xy', 'ij'] = 'xy') -> tuple[Array, ...]:
    """Returns coordinate matrices from coordinate vectors.

    Parameters
    ----------
    *arrays : Array
        An arbitrary number of one-dimensional arrays representing grid
        coordinates.
    indexing : {"xy", "ij"}, optional
        Cartesian ``'xy'`` or matrix ``'ij'`` indexing of output. Default:
        ``'xy'``.

    Returns
    -------
    tuple of Array
        Tuple of N arrays, where ``N`` is the number of provided one-dimensional
        input arrays.

    Raises
    ------
    ValueError
        indexing must be 'xy' or 'ij', got …; arrays must be 1-D.
    TypeError
        arrays must have one dtype.

    Notes
    -----
    Views of the inputs broadcast to the grid (zero strides), no copy; indexing
    'xy' swaps the first two axes as numpy's meshgrid.

    Examples
    --------
    >>> import strided.compat as xp
    >>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([10, 20]))
    >>> Y
    Array([[10, 10, 10], [20, 20, 20]], dtype=int64)
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return ()
    dts = {a.dtype for a in arrays}
    if len(dts) > 1:
        raise TypeError("meshgrid: arrays must have one dtype")
    sizes = [a.size for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, a in enumerate(arrays):
        if a.ndim != 1:
            raise ValueError("meshgrid: arrays must be 1-D")
        d = i
        if indexing == "xy" and len(arrays) > 1 and i < 2:
            d = 1 - i
        shape = [1] * len(arrays)
        shape[d] = a.size
        v = _views.view_as_shape(a._c, shape)
        out.append(Array._new(_core.astype(_views.expand(v, sizes), a.dtype)))
    return tuple(out)


__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]

"""The standard's data type functions: result_type, can_cast, isdtype,
finfo and iinfo (array-api-strict's _data_type_functions).  Apart from
_dtypes.py, which holds the dtypes and the promotion table as data and is
imported by the Array: these take Arrays, so they import it."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from strided.core import base as _core

from ._array import Array
from ._dtypes import (
    ALL,
    ISDTYPE_KINDS,
    KINDS,
    PROMOTE,
    REAL_OF,
    check_dtype,
    float32,
    float64,
    promote,
    scalar_result,
)

if TYPE_CHECKING:
    from strided.core.base import DType


def result_type(*arrays_and_dtypes: Array | int | float | complex | builtins.bool | DType) -> DType:
    """Returns the dtype that results from applying type promotion rules (see
    ``type-promotion``) to the arguments.

    Parameters
    ----------
    *arrays_and_dtypes : Array or int or float or complex or bool or dtype
        An arbitrary number of input arrays, scalars, and/or dtypes.

    Returns
    -------
    dtype
        The dtype resulting from an operation involving the input arrays,
        scalars, and/or dtypes.

    Raises
    ------
    ValueError
        result_type needs at least one array or dtype.
    TypeError
        cannot promote … and …: the standard defines no type promotion between
        them (cast one with astype); cannot promote a Python … scalar with a …
        array: not defined by the standard (cast the array with astype); … is
        not a dtype of strided.compat.

    Notes
    -----
    With the documented mixed-kind extension (docs/array-api.md), floating and
    complex dtypes promote first and each integer or bool dtype then joins
    them alone, so the result does not depend on the order (numpy's
    result_type).

    The standard's result_type: dtypes and arrays promote by the table;
    Python scalars take the kind of the result of the others.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.result_type(xp.int8, xp.uint8), xp.result_type(xp.asarray([1.0], dtype=xp.float32), 2.0)
    (strided.int16, strided.float32)
    """
    dts, scalars = [], []
    for x in arrays_and_dtypes:
        if isinstance(x, Array):
            dts.append(x.dtype)
        elif isinstance(x, (int, float, complex)):
            scalars.append(x)
        else:
            dts.append(check_dtype(x))
    if not dts:
        raise ValueError("result_type needs at least one array or dtype")
    dts.sort(key=lambda d: d.kind not in "fc")  # stable: the standard's order kept
    out = dts[0]
    for d in dts[1:]:
        out = promote(out, d)
    for s in scalars:
        out = scalar_result(out, s)
    return out


def can_cast(from_: DType | Array, to: DType, /) -> builtins.bool:
    """Determines if one data type can be cast to another data type according to
    type promotion rules (see ``type-promotion``).

    Parameters
    ----------
    from_ : dtype or Array
        Input data type or array from which to cast.
    to : dtype
        Desired data type.

    Returns
    -------
    bool
        ``True`` if the cast can occur according to type promotion rules (see
        ``type-promotion``); otherwise, ``False``.

    Raises
    ------
    TypeError
        … is not a dtype of strided.compat.

    Notes
    -----
    The standard's table of safe casts between its dtypes, and for the
    extension's mixed-kind pairs numpy's safe casting (int16 to float32, not
    int32).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.can_cast(xp.int8, xp.int64), xp.can_cast(xp.float64, xp.float32)
    (True, False)
    """
    if isinstance(from_, Array):
        from_ = from_.dtype
    from_, to = check_dtype(from_), check_dtype(to)
    return PROMOTE.get((from_, to)) is to


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> builtins.bool:
    """Returns a boolean indicating whether a provided dtype is of a specified data
    type "kind".

    Parameters
    ----------
    dtype : dtype
        The input dtype.
    kind : str or dtype or tuple (str or dtype or ...)
        Data type kind.

    Returns
    -------
    bool
        Boolean indicating whether a provided dtype is of a specified data type
        kind.

    Raises
    ------
    TypeError
        … is not a dtype of strided.compat.
    ValueError
        unknown dtype kind …; expected one of ….

    Notes
    -----
    kind is a dtype, one of the standard's kind names ('bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric'), or a tuple of them.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.isdtype(xp.float32, 'real floating'), xp.isdtype(xp.int8, ('bool', 'unsigned integer'))
    (True, False)
    """
    if type(kind) is str and type(dtype) is _DTYPE_TYPE:
        known = _ISDTYPE.get((dtype, kind))  # library code asks this in every call
        if known is not None:
            return known
    dtype = check_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in ISDTYPE_KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; expected one of {ISDTYPE_KINDS}")
        return dtype in KINDS[kind]
    return dtype is check_dtype(kind)


# isdtype of each of our dtypes and each kind name, as data
_ISDTYPE = {(d, k): d in KINDS[k] for d in ALL for k in ISDTYPE_KINDS}
_DTYPE_TYPE = type(float64)


class finfo_object:
    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType

    def __init__(self, bits, eps, max, min, smallest_normal, dtype):
        for name, value in zip(self.__slots__, (bits, eps, max, min, smallest_normal, dtype)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"finfo objects are read-only (cannot set {name})")

    def __reduce__(self):
        return finfo, (self.dtype,)  # unpickles as the shared object

    def __repr__(self):
        return f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, dtype={self.dtype.name})"


class iinfo_object:
    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, bits, max, min, dtype):
        self.bits, self.max, self.min, self.dtype = bits, max, min, dtype

    def __repr__(self):
        return f"iinfo(bits={self.bits}, min={self.min}, max={self.max}, dtype={self.dtype.name})"


_FLOAT_INFO = {  # bits, eps, max, smallest normal (IEEE 754 binary32 / binary64)
    float32: (32, 2.0**-23, (2 - 2.0**-23) * 2.0**127, 2.0**-126),
    float64: (64, 2.0**-52, (2 - 2.0**-52) * 2.0**1023, 2.0**-1022),
    _core.float16: (16, 2.0**-10, 65504.0, 2.0**-14),  # binary16
    _core.bfloat16: (16, 2.0**-7, (2 - 2.0**-7) * 2.0**127, 2.0**-126),  # float32's range
}


def _dtype_of(x):
    return x.dtype if isinstance(x, Array) else check_dtype(x)


def finfo(type: DType | Array, /) -> finfo_object:
    """Machine limits for floating-point data types.

    Parameters
    ----------
    type : dtype or Array
        The kind of floating-point data-type about which to get information.

    Returns
    -------
    finfo object
        An object having the following attributes: - bits: *int* number of bits
        occupied by the real-valued floating-point data type.

    Raises
    ------
    TypeError
        … is not a dtype of strided.compat; finfo needs a floating dtype, got ….

    Notes
    -----
    Also takes a floating array or a complex dtype (then the finfo of its real
    part), as the standard asks.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.finfo(xp.float32).eps
    1.1920928955078125e-07
    """
    dt = _dtype_of(type)
    known = _FINFO.get(dt)  # made once per dtype: library code asks in loops
    if known is not None:
        return known
    if dt not in KINDS["floating"]:
        raise TypeError(f"finfo needs a floating dtype, got {dt.name}")
    real = REAL_OF[dt]
    bits, eps, mx, tiny = _FLOAT_INFO[real]
    made = _FINFO.get(real) or finfo_object(bits, eps, mx, -mx, tiny, real)
    _FINFO[dt] = _FINFO[real] = made
    return made


_FINFO: dict[DType, finfo_object] = {}  # dtype -> its finfo (read-only objects: shared safely)


def iinfo(type: DType | Array, /) -> iinfo_object:
    """Machine limits for integer data types.

    Parameters
    ----------
    type : dtype or Array
        The kind of integer data-type about which to get information.

    Returns
    -------
    iinfo object
        An object having the following attributes: - bits: *int* number of bits
        occupied by the type.

    Raises
    ------
    TypeError
        … is not a dtype of strided.compat; iinfo needs an integer dtype, got ….

    Notes
    -----
    Also takes an integer array.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.iinfo(xp.int8).min, xp.iinfo(xp.int8).max
    (-128, 127)
    """
    dt = _dtype_of(type)
    if dt not in KINDS["integral"]:
        raise TypeError(f"iinfo needs an integer dtype, got {dt.name}")
    lo, hi = _core.int_range(dt)
    return iinfo_object(8 * dt.itemsize, hi, lo, dt)

"""Data types of the array API namespace and the standard's type promotion
table, held as data.  The dtype objects are the core's own DType objects
(one object per type, compared by identity)."""
from __future__ import annotations

import builtins
import sys
from typing import TYPE_CHECKING

from strided.core import base as _core

if TYPE_CHECKING:
    from strided.core.base import DType

    from ._array import Array

bool = _core.bool_          # noqa: A001  (the standard's name)
int8, int16, int32, int64 = _core.int8, _core.int16, _core.int32, _core.int64
uint8, uint16, uint32, uint64 = _core.uint8, _core.uint16, _core.uint32, _core.uint64
float32, float64 = _core.float32, _core.float64
complex64, complex128 = _core.complex64, _core.complex128

ALL = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       float32, float64, complex64, complex128)
BY_NAME = {d.name: d for d in ALL}     # the core's float16 is not one of ours

_SHORT = {"b": bool, "i1": int8, "i2": int16, "i4": int32, "i8": int64,
          "u1": uint8, "u2": uint16, "u4": uint32, "u8": uint64,
          "f4": float32, "f8": float64, "c8": complex64, "c16": complex128}

# The standard's promotion table ("Type Promotion Rules").  Row x column ->
# result; "." = no promotion defined (mixed kinds, int64 with uint64): a
# TypeError.  Symmetric; the diagonal is the type itself.
PROMOTION_TABLE = """
      b    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16
b     b    .    .    .    .    .    .    .    .    .    .    .    .
i1    .    i1   i2   i4   i8   i2   i4   i8   .    .    .    .    .
i2    .    i2   i2   i4   i8   i2   i4   i8   .    .    .    .    .
i4    .    i4   i4   i4   i8   i4   i4   i8   .    .    .    .    .
i8    .    i8   i8   i8   i8   i8   i8   i8   .    .    .    .    .
u1    .    i2   i2   i4   i8   u1   u2   u4   u8   .    .    .    .
u2    .    i4   i4   i4   i8   u2   u2   u4   u8   .    .    .    .
u4    .    i8   i8   i8   i8   u4   u4   u4   u8   .    .    .    .
u8    .    .    .    .    .    u8   u8   u8   u8   .    .    .    .
f4    .    .    .    .    .    .    .    .    .    f4   f8   c8   c16
f8    .    .    .    .    .    .    .    .    .    f8   f8   c16  c16
c8    .    .    .    .    .    .    .    .    .    c8   c16  c8   c16
c16   .    .    .    .    .    .    .    .    .    c16  c16  c16  c16
"""


def _parse(text):
    lines = text.split("\n")[1:-1]
    cols = lines[0].split()
    table = {}
    for line in lines[1:]:
        row, *cells = line.split()
        for col, cell in zip(cols, cells):
            if cell != ".":
                table[_SHORT[row], _SHORT[col]] = _SHORT[cell]
    return table


# The extension (docs/array-api.md, "Beyond the standard"): the pairs the
# standard leaves undefined promote as numpy's promote_types does (mixed
# kinds, and a signed integer with uint64).  Row x column -> result; "." =
# defined by the standard above.
MIXED_TABLE = """
      b    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16
b     .    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16
i1    i1   .    .    .    .    .    .    .    f8   f4   f8   c8   c16
i2    i2   .    .    .    .    .    .    .    f8   f4   f8   c8   c16
i4    i4   .    .    .    .    .    .    .    f8   f8   f8   c16  c16
i8    i8   .    .    .    .    .    .    .    f8   f8   f8   c16  c16
u1    u1   .    .    .    .    .    .    .    .    f4   f8   c8   c16
u2    u2   .    .    .    .    .    .    .    .    f4   f8   c8   c16
u4    u4   .    .    .    .    .    .    .    .    f8   f8   c16  c16
u8    u8   f8   f8   f8   f8   .    .    .    .    f8   f8   c16  c16
f4    f4   f4   f4   f8   f8   f4   f4   f8   f8   .    .    .    .
f8    f8   f8   f8   f8   f8   f8   f8   f8   f8   .    .    .    .
c8    c8   c8   c8   c16  c16  c8   c8   c16  c16  .    .    .    .
c16   c16  c16  c16  c16  c16  c16  c16  c16  c16  .    .    .    .
"""

STANDARD = _parse(PROMOTION_TABLE)
MIXED = _parse(MIXED_TABLE)
PROMOTE = {**STANDARD, **MIXED}

# dtype categories of the standard (isdtype kinds and the elementwise table)
KINDS = {
    "bool": {bool},
    "signed integer": {int8, int16, int32, int64},
    "unsigned integer": {uint8, uint16, uint32, uint64},
    "integral": {int8, int16, int32, int64, uint8, uint16, uint32, uint64},
    "real floating": {float32, float64},
    "complex floating": {complex64, complex128},
}
KINDS["numeric"] = KINDS["integral"] | KINDS["real floating"] | KINDS["complex floating"]
KINDS["floating"] = KINDS["real floating"] | KINDS["complex floating"]
KINDS["real numeric"] = KINDS["integral"] | KINDS["real floating"]
KINDS["integral or bool"] = KINDS["integral"] | {bool}
KINDS["any"] = set(ALL)

ISDTYPE_KINDS = ("bool", "signed integer", "unsigned integer", "integral",
                 "real floating", "complex floating", "numeric")

# the real type of each floating type and back
REAL_OF = {complex64: float32, complex128: float64, float32: float32, float64: float64}
COMPLEX_OF = {float32: complex64, float64: complex128, complex64: complex64,
              complex128: complex128}


_BY_ID = {id(d): d for d in ALL}
_PYTHON_TYPES = {type(True): bool, int: int64, float: float64, complex: complex128}


def check_dtype(dt):
    """dt as a dtype of the namespace.  Beyond ours (the extension, for
    libraries that keep numpy's dtypes, such as Cubed): numpy's dtype of the
    same name (np.dtype('float64'), native byte order), a numpy scalar type
    (np.float64), a dtype's name ('float64') and, as numpy, the Python
    types float, int, complex and bool."""
    d = _BY_ID.get(id(dt))
    if d is None:
        d = _foreign(dt)
        if d is None:
            raise TypeError(f"{dt!r} is not a dtype of strided.compat")
    return d


def _foreign(dt):
    """Our dtype for a numpy dtype, a numpy scalar type, a name or a Python
    number type (numpy's meaning: float is float64, int int64, complex
    complex128, bool bool), or None.  numpy is consulted only when it is
    already imported (and only then can numpy's objects be given)."""
    if isinstance(dt, str):
        return BY_NAME.get(dt)
    if type(dt) is type and dt in _PYTHON_TYPES:
        return _PYTHON_TYPES[dt]
    np = sys.modules.get("numpy")
    if np is None or not (isinstance(dt, np.dtype)
                          or (isinstance(dt, type) and issubclass(dt, np.generic))):
        return None
    dt = np.dtype(dt)
    # isnative, not the byteorder character: Zarr's dtypes say '<' explicitly
    return BY_NAME.get(dt.name) if dt.isnative else None


def check_imported(c, where):
    """Core c, made from another object's memory (DLPack, a Torch7 tensor),
    when its dtype is one of the standard's: the core's float16 (Torch7's
    HalfTensor) is not."""
    if c.dtype not in ALL:
        raise TypeError(f"{where}: {c.dtype.name} is not a dtype of strided.compat")
    return c


def promote(a, b):
    try:
        return PROMOTE[a, b]
    except KeyError:
        raise TypeError(f"cannot promote {a.name} and {b.name}: the standard defines no "
                        f"type promotion between them (cast one with astype)") from None


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
    from ._array import Array
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
    dts.sort(key=lambda d: d.kind not in "fc")     # stable: the standard's order kept
    out = dts[0]
    for d in dts[1:]:
        out = promote(out, d)
    for s in scalars:
        out = scalar_result(out, s)
    return out


def scalar_result(dt, value):
    """The dtype of `array(dt) op value` for a Python scalar (the standard's
    rules: the scalar takes the array's dtype; a complex scalar with a real
    floating array gives the complex type of the same precision; the
    extension: a scalar of a higher kind than the array's, numpy's result)."""
    wider = _wider_scalar(dt, value)
    if wider is not None:
        return wider
    if isinstance(value, _builtin_bool):
        if dt is bool or dt in KINDS["numeric"]:
            return dt
    elif isinstance(value, int):
        if dt in KINDS["numeric"]:
            return dt
    elif isinstance(value, float):
        if dt in KINDS["floating"]:
            return dt
    elif isinstance(value, complex):
        if dt in KINDS["floating"]:
            return COMPLEX_OF[dt]
    raise TypeError(f"cannot promote a Python {type(value).__name__} scalar with a "
                    f"{dt.name} array: not defined by the standard (cast the array with astype)")


_builtin_bool = type(True)

# The extension (docs/array-api.md, "Beyond the standard"): a Python scalar
# of a higher kind than the array's (an int with a bool array, a float with
# an integer or bool array, a complex with those) gives the default dtype of
# the scalar's kind, as in numpy (NEP 50): int64 array - 1.0 is float64.
# (scalar type, the array kinds it is wider than, the result)
_SCALAR_WIDER = ((complex, "biu", complex128), (float, "biu", float64), (int, "b", int64))


def _wider_scalar(dt, value):
    if isinstance(value, _builtin_bool):
        return None
    for kind, kinds, default in _SCALAR_WIDER:
        if isinstance(value, kind):
            return default if dt.kind in kinds else None
    return None


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
    from ._array import Array
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
        known = _ISDTYPE.get((dtype, kind))     # library code asks this in every call
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

    def __init__(self, bits, eps, max, min, smallest_normal, dtype):
        self.bits, self.eps, self.max, self.min = bits, eps, max, min
        self.smallest_normal, self.dtype = smallest_normal, dtype

    def __repr__(self):
        return f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, dtype={self.dtype.name})"


class iinfo_object:
    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, bits, max, min, dtype):
        self.bits, self.max, self.min, self.dtype = bits, max, min, dtype

    def __repr__(self):
        return f"iinfo(bits={self.bits}, min={self.min}, max={self.max}, dtype={self.dtype.name})"


_FLOAT_INFO = {  # bits, eps, max, smallest normal (IEEE 754 binary32 / binary64)
    float32: (32, 2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126),
    float64: (64, 2.0 ** -52, (2 - 2.0 ** -52) * 2.0 ** 1023, 2.0 ** -1022),
}


def _dtype_of(x):
    from ._array import Array
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
    if dt not in KINDS["floating"]:
        raise TypeError(f"finfo needs a floating dtype, got {dt.name}")
    real = REAL_OF[dt]
    bits, eps, mx, tiny = _FLOAT_INFO[real]
    return finfo_object(bits, eps, mx, -mx, tiny, real)


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

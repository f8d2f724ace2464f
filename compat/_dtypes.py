"""Data types of the array API namespace and the standard's type promotion
table, held as data.  The dtype objects are the core's own DType objects
(one object per type, compared by identity)."""

from __future__ import annotations

import sys

from strided.core import base as _core

bool = _core.bool_  # noqa: A001  (the standard's name)
int8, int16, int32, int64 = _core.int8, _core.int16, _core.int32, _core.int64
uint8, uint16, uint32, uint64 = _core.uint8, _core.uint16, _core.uint32, _core.uint64
float32, float64 = _core.float32, _core.float64
complex64, complex128 = _core.complex64, _core.complex128
# the extension dtypes (docs/array-api.md, "float16 and bfloat16"): real
# floating, computed through float32
float16, bfloat16 = _core.float16, _core.bfloat16

STANDARD_DTYPES = (
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float32,
    float64,
    complex64,
    complex128,
)
EXTENSION_DTYPES = (float16, bfloat16)
ALL = STANDARD_DTYPES + EXTENSION_DTYPES
BY_NAME = {d.name: d for d in ALL}

_SHORT = {
    "b": bool,
    "i1": int8,
    "i2": int16,
    "i4": int32,
    "i8": int64,
    "u1": uint8,
    "u2": uint16,
    "u4": uint32,
    "u8": uint64,
    "f4": float32,
    "f8": float64,
    "c8": complex64,
    "c16": complex128,
    "f2": float16,
    "bf": bfloat16,
}

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

# The 16-bit floats (the extension): float16 < float32 < float64, bfloat16
# likewise, the two together float32 (as PyTorch); with complex the complex
# type that holds them; with bool and integers as numpy's float16 (the
# mixed-kind extension above: the smallest float that holds the integer
# type exactly, bfloat16 as float16).  Row x column -> result; "." = none
# (a TypeError), bf = bfloat16.
HALF_TABLE = """
      b    i1   i2   i4   i8   u1   u2   u4   u8   f2   bf   f4   f8   c8   c16
f2    f2   f2   f4   f8   f8   f2   f4   f8   f8   f2   f4   f4   f8   c8   c16
bf    bf   bf   f4   f8   f8   bf   f4   f8   f8   f4   bf   f4   f8   c8   c16
"""


def _parse_rows(text):
    """A table whose rows are some dtypes: both orders of each pair."""
    table = {}
    for (a, b), c in _parse(text).items():
        table[a, b] = table[b, a] = c
    return table


STANDARD = _parse(PROMOTION_TABLE)
MIXED = _parse(MIXED_TABLE)
PROMOTE = {**STANDARD, **MIXED, **_parse_rows(HALF_TABLE)}

# dtype categories of the standard (isdtype kinds and the elementwise table)
KINDS = {
    "bool": {bool},
    "signed integer": {int8, int16, int32, int64},
    "unsigned integer": {uint8, uint16, uint32, uint64},
    "integral": {int8, int16, int32, int64, uint8, uint16, uint32, uint64},
    "real floating": {float32, float64, float16, bfloat16},
    "complex floating": {complex64, complex128},
}
KINDS["numeric"] = KINDS["integral"] | KINDS["real floating"] | KINDS["complex floating"]
KINDS["floating"] = KINDS["real floating"] | KINDS["complex floating"]
KINDS["real numeric"] = KINDS["integral"] | KINDS["real floating"]
KINDS["integral or bool"] = KINDS["integral"] | {bool}
KINDS["any"] = set(ALL)

ISDTYPE_KINDS = (
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
)

# the real type of each floating type and back
REAL_OF = {
    complex64: float32,
    complex128: float64,
    float32: float32,
    float64: float64,
    float16: float16,
    bfloat16: bfloat16,
}
COMPLEX_OF = {
    float32: complex64,
    float64: complex128,
    complex64: complex64,
    complex128: complex128,
    float16: complex64,
    bfloat16: complex64,
}


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
    if np is None or not (
        isinstance(dt, np.dtype) or (isinstance(dt, type) and issubclass(dt, np.generic))
    ):
        return None
    dt = np.dtype(dt)
    # isnative, not the byteorder character: Zarr's dtypes say '<' explicitly
    return BY_NAME.get(dt.name) if dt.isnative else None


def check_imported(c, where):
    """Core c, made from another object's memory (DLPack, a Torch7 tensor):
    every dtype of the core is one of ours."""
    if c.dtype not in ALL:
        raise TypeError(f"{where}: {c.dtype.name} is not a dtype of strided.compat")
    return c


def promote(a, b):
    try:
        return PROMOTE[a, b]
    except KeyError:
        raise TypeError(
            f"cannot promote {a.name} and {b.name}: the standard defines no "
            f"type promotion between them (cast one with astype)"
        ) from None


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
    raise TypeError(
        f"cannot promote a Python {type(value).__name__} scalar with a "
        f"{dt.name} array: not defined by the standard (cast the array with astype)"
    )


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

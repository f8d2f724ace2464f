"""Every elementwise function of the standard, each one short uniform
wrapper made from a table: name -> (core op, dtype category the standard
allows).  Operands promote by the standard's table; a Python scalar takes
the array's dtype (a complex scalar with a real floating array: the
complex type of the same precision)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from strided.core import arraytype as _arraytype, base as _core, ops as _ops
from strided.core.fuse import Traced

from . import _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS

_SCALARS = (bool, int, float, complex)

# name: (core op, category)
UNARY = {
    "abs": ("abs", "numeric"),
    "acos": ("acos", "floating"), "acosh": ("acosh", "floating"),
    "asin": ("asin", "floating"), "asinh": ("asinh", "floating"),
    "atan": ("atan", "floating"), "atanh": ("atanh", "floating"),
    "bitwise_invert": ("bitwise_invert", "integral or bool"),
    "ceil": ("ceil", "real numeric"), "floor": ("floor", "real numeric"),
    "trunc": ("trunc", "real numeric"), "round": ("round", "numeric"),
    "conj": ("conj", "numeric"), "real": ("real", "numeric"), "imag": ("imag", "numeric"),
    "cos": ("cos", "floating"), "cosh": ("cosh", "floating"),
    "sin": ("sin", "floating"), "sinh": ("sinh", "floating"),
    "tan": ("tan", "floating"), "tanh": ("tanh", "floating"),
    "exp": ("exp", "floating"), "expm1": ("expm1", "floating"),
    "log": ("log", "floating"), "log1p": ("log1p", "floating"),
    "log2": ("log2", "floating"), "log10": ("log10", "floating"),
    "isfinite": ("isfinite", "numeric"), "isinf": ("isinf", "numeric"),
    "isnan": ("isnan", "numeric"),
    "logical_not": ("logical_not", "bool"),
    "negative": ("negative", "numeric"), "positive": ("positive", "numeric"),
    "reciprocal": ("reciprocal", "floating"),
    "sign": ("sign", "numeric"), "signbit": ("signbit", "real floating"),
    "sqrt": ("sqrt", "floating"), "square": ("square", "numeric"),
}

BINARY = {
    "add": ("add", "numeric"), "subtract": ("subtract", "numeric"),
    "multiply": ("multiply", "numeric"), "divide": ("divide", "numeric"),
    "floor_divide": ("floor_divide", "real numeric"),
    "remainder": ("remainder", "real numeric"), "pow": ("pow", "numeric"),
    "atan2": ("atan2", "real floating"), "copysign": ("copysign", "real floating"),
    "hypot": ("hypot", "real floating"), "logaddexp": ("logaddexp", "real floating"),
    "nextafter": ("nextafter", "real floating"),
    "bitwise_and": ("bitwise_and", "integral or bool"),
    "bitwise_or": ("bitwise_or", "integral or bool"),
    "bitwise_xor": ("bitwise_xor", "integral or bool"),
    "bitwise_left_shift": ("left_shift", "integral"),
    "bitwise_right_shift": ("right_shift", "integral"),
    "equal": ("equal", "any"), "not_equal": ("not_equal", "any"),
    "less": ("less", "real numeric"), "less_equal": ("less_equal", "real numeric"),
    "greater": ("greater", "real numeric"), "greater_equal": ("greater_equal", "real numeric"),
    "logical_and": ("logical_and", "bool"), "logical_or": ("logical_or", "bool"),
    "logical_xor": ("logical_xor", "bool"),
    "maximum": ("maximum", "real numeric"), "minimum": ("minimum", "real numeric"),
}

# the core has no integer kernel for these: integers are computed in the
# default floating type (the standard leaves integer inputs to the
# implementation for divide)
FLOAT_FOR_INTEGERS = {"divide"}


def _check(name, dt, category):
    if dt not in KINDS[category]:
        raise TypeError(f"{name} is not defined for {dt.name} (needs {category} dtypes)")


def as_core(x, dt):
    """An Array or Python scalar as a Core of dtype dt."""
    if isinstance(x, Array):
        return x._c if x.dtype is dt else _core.astype(x._c, dt)
    return _core.scalar(x, dt)


def operands(name, x1, x2):
    """Two Cores of the promoted dtype (at least one argument an Array)."""
    dt = result_dtype(name, x1, x2)
    return as_core(x1, dt), as_core(x2, dt)


def result_dtype(name, x1, x2):
    """The dtype the standard promotes x1 and x2 to (at least one an Array)."""
    if isinstance(x1, Array) and isinstance(x2, Array):
        dt = _dtypes.promote(x1.dtype, x2.dtype)
    elif isinstance(x1, Array) and isinstance(x2, _SCALARS):
        dt = _dtypes.scalar_result(x1.dtype, x2)
    elif isinstance(x2, Array) and isinstance(x1, _SCALARS):
        dt = _dtypes.scalar_result(x2.dtype, x1)
    else:
        raise TypeError(f"{name}: expected arrays (or one array and a Python scalar), got "
                        f"{type(x1).__name__} and {type(x2).__name__}")
    return dt


def _dtype_mask(category):
    """The dtype codes of a category as a bit mask, for the C fast paths."""
    return sum(1 << dt.code for dt in KINDS[category])


# One C call does the plain case (same dtype, same shape, C-contiguous): it
# returns None for anything else, and the general path below decides.
_unary_new, _binary_new = _arraytype.unary_new, _arraytype.binary_new
# x = x op y in C for two small plain Arrays of one dtype and shape (True)
_binary_inplace = _arraytype.binary_inplace


def _unary(name, op, category):
    code, mask = _ops.UNARY[op], _dtype_mask(category)

    def f(x, /):
        if type(x) is Array:
            r = _unary_new(code, mask, x)
            if r is not None:
                return r
        if not isinstance(x, Array):
            if isinstance(x, Traced):       # a fused function's value (_fuse.py)
                return x.record(name, (x,))
            raise TypeError(f"{name}: x must be an Array, got {type(x).__name__}")
        _check(name, x.dtype, category)
        return Array._new(_ops.unary(op, x._c))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _docstrings.elementwise(name, op, category)
    return f


def _binary(name, op, category):
    code, mask = _ops.BINARY[op], _dtype_mask(category)

    def f(x1, x2, /):
        if type(x1) is Array and type(x2) is Array:
            r = _binary_new(code, mask, x1, x2)
            if r is not None:
                return r
        if isinstance(x1, Traced) or isinstance(x2, Traced):
            return (x1 if isinstance(x1, Traced) else x2).record(name, (x1, x2))
        a, b, dt = _operands(x1, x2)
        return Array._new(_ops.binary(op, a, b, dt=dt))

    def _operands(x1, x2):
        dt = result_dtype(name, x1, x2)
        _check(name, dt, category)
        # arrays of other dtypes are converted inside the kernel, a block at
        # a time: no full-size temporary (Python scalars: 0-d Cores of dt)
        a = x1._c if isinstance(x1, Array) else _core.scalar(x1, dt)
        b = x2._c if isinstance(x2, Array) else _core.scalar(x2, dt)
        if name in FLOAT_FOR_INTEGERS and dt in KINDS["integral"]:
            dt = _core.float64
        return a, b, dt

    def into(x1, x2):
        """x1 = f(x1, x2) written straight into Array x1 (its in-place
        operator), numpy's errors when the result would not fit it: another
        shape is a ValueError, another dtype a TypeError (x1 untouched)."""
        if (type(x2) is Array and mask >> x1.dtype.code & 1
                and _binary_inplace(code, x1, x2)):     # small and plain: in C
            return x1
        a, b, dt = _operands(x1, x2)
        shape = _ops.broadcast_shapes(a.shape, b.shape)
        if shape != x1.shape:
            raise ValueError(f"in-place {name}: non-broadcastable output operand with "
                             f"shape {x1.shape} doesn't match the broadcast shape {shape}")
        res = _ops.binary_result(op, dt)
        if res is not None and res is not x1.dtype:
            raise TypeError(f"in-place {name}: cannot cast the result from {res.name} to "
                            f"{x1.dtype.name} (the array's dtype is kept; use astype)")
        _ops.binary(op, a, b, out=x1._c, dt=dt)
        return x1
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _docstrings.elementwise(name, op, category)
    f.into = into       # type: ignore[attr-defined]  # the in-place operators' path
    return f


for _name, (_op, _cat) in UNARY.items():
    globals()[_name] = _unary(_name, _op, _cat)
for _name, (_op, _cat) in BINARY.items():
    globals()[_name] = _binary(_name, _op, _cat)
del _name, _op, _cat


def clip(x: Array, /, min: int | float | Array | None = None,
         max: int | float | Array | None = None) -> Array:
    """Clamps each element ``x_i`` of the input array ``x`` to the range ``[min,
    max]``.

    Parameters
    ----------
    x : Array
        Input array.
    min : int or float or Array or None, optional
        Lower-bound of the range to which to clamp. Default: ``None``.
    max : int or float or Array or None, optional
        Upper-bound of the range to which to clamp. Default: ``None``.

    Returns
    -------
    Array
        An array containing element-wise results.

    Raises
    ------
    TypeError
        when the dtype is not one the function takes (the message names it); a …
        bound for a … array; a float bound for an integer array.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    x limited to [min, max] (arrays or Python scalars; the result has x's
    dtype).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), 0.0, 1.0)
    Array([0., 0.5, 1.], dtype=float64)
    """
    _check("clip", x.dtype, "real numeric")
    bounds: list[Any] = []
    for b in (min, max):
        if b is None:
            bounds.append(None)
        elif isinstance(b, Array):
            if _dtypes.PROMOTE.get((b.dtype, x.dtype)) is not x.dtype:
                raise TypeError(f"clip: a {b.dtype.name} bound for a {x.dtype.name} array")
            bounds.append(as_core(b, x.dtype))
        else:
            if x.dtype in KINDS["integral"] and isinstance(b, float):
                raise TypeError("clip: a float bound for an integer array")
            lo, hi = _core.int_range(x.dtype) if x.dtype in KINDS["integral"] else (b, b)
            bounds.append(_core.scalar(lo if b < lo else hi if b > hi else b, x.dtype))
    return Array._new(_ops.clamp(x._c, *bounds))


if TYPE_CHECKING:
    # what a type checker sees of the functions the loops above make: the
    # standard's signatures (array_api_stubs 2025.12)
    def abs(x: Array, /) -> Array: ...  # noqa: E704
    def acos(x: Array, /) -> Array: ...  # noqa: E704
    def acosh(x: Array, /) -> Array: ...  # noqa: E704
    def asin(x: Array, /) -> Array: ...  # noqa: E704
    def asinh(x: Array, /) -> Array: ...  # noqa: E704
    def atan(x: Array, /) -> Array: ...  # noqa: E704
    def atanh(x: Array, /) -> Array: ...  # noqa: E704
    def bitwise_invert(x: Array, /) -> Array: ...  # noqa: E704
    def ceil(x: Array, /) -> Array: ...  # noqa: E704
    def floor(x: Array, /) -> Array: ...  # noqa: E704
    def trunc(x: Array, /) -> Array: ...  # noqa: E704
    def round(x: Array, /) -> Array: ...  # noqa: E704
    def conj(x: Array, /) -> Array: ...  # noqa: E704
    def real(x: Array, /) -> Array: ...  # noqa: E704
    def imag(x: Array, /) -> Array: ...  # noqa: E704
    def cos(x: Array, /) -> Array: ...  # noqa: E704
    def cosh(x: Array, /) -> Array: ...  # noqa: E704
    def sin(x: Array, /) -> Array: ...  # noqa: E704
    def sinh(x: Array, /) -> Array: ...  # noqa: E704
    def tan(x: Array, /) -> Array: ...  # noqa: E704
    def tanh(x: Array, /) -> Array: ...  # noqa: E704
    def exp(x: Array, /) -> Array: ...  # noqa: E704
    def expm1(x: Array, /) -> Array: ...  # noqa: E704
    def log(x: Array, /) -> Array: ...  # noqa: E704
    def log1p(x: Array, /) -> Array: ...  # noqa: E704
    def log2(x: Array, /) -> Array: ...  # noqa: E704
    def log10(x: Array, /) -> Array: ...  # noqa: E704
    def isfinite(x: Array, /) -> Array: ...  # noqa: E704
    def isinf(x: Array, /) -> Array: ...  # noqa: E704
    def isnan(x: Array, /) -> Array: ...  # noqa: E704
    def logical_not(x: Array, /) -> Array: ...  # noqa: E704
    def negative(x: Array, /) -> Array: ...  # noqa: E704
    def positive(x: Array, /) -> Array: ...  # noqa: E704
    def reciprocal(x: Array, /) -> Array: ...  # noqa: E704
    def sign(x: Array, /) -> Array: ...  # noqa: E704
    def signbit(x: Array, /) -> Array: ...  # noqa: E704
    def sqrt(x: Array, /) -> Array: ...  # noqa: E704
    def square(x: Array, /) -> Array: ...  # noqa: E704
    def add(x1: Array | int | float | complex, x2: Array | int | float | complex, /) -> Array:  # noqa: E704
        ...
    def subtract(x1: Array | int | float | complex, x2: Array | int | float | complex, /) -> Array:  # noqa: E704
        ...
    def multiply(x1: Array | int | float | complex, x2: Array | int | float | complex, /) -> Array:  # noqa: E704
        ...
    def divide(x1: Array | int | float | complex, x2: Array | int | float | complex, /) -> Array:  # noqa: E704
        ...
    def floor_divide(x1: Array | int | float, x2: Array | int | float, /) -> Array:  # noqa: E704
        ...
    def remainder(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def pow(x1: Array | int | float | complex, x2: Array | int | float | complex, /) -> Array:  # noqa: E704
        ...
    def atan2(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def copysign(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def hypot(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def logaddexp(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def nextafter(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def bitwise_and(x1: Array | int | bool, x2: Array | int | bool, /) -> Array: ...  # noqa: E704
    def bitwise_or(x1: Array | int | bool, x2: Array | int | bool, /) -> Array: ...  # noqa: E704
    def bitwise_xor(x1: Array | int | bool, x2: Array | int | bool, /) -> Array: ...  # noqa: E704
    def bitwise_left_shift(x1: Array | int, x2: Array | int, /) -> Array: ...  # noqa: E704
    def bitwise_right_shift(x1: Array | int, x2: Array | int, /) -> Array: ...  # noqa: E704
    def equal(x1: Array | int | float | complex | bool, x2: Array | int | float | complex | bool, /) -> Array:  # noqa: E704
        ...
    def not_equal(x1: Array | int | float | complex | bool, x2: Array | int | float | complex | bool, /) -> Array:  # noqa: E704
        ...
    def less(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def less_equal(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def greater(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def greater_equal(x1: Array | int | float, x2: Array | int | float, /) -> Array:  # noqa: E704
        ...
    def logical_and(x1: Array | bool, x2: Array | bool, /) -> Array: ...  # noqa: E704
    def logical_or(x1: Array | bool, x2: Array | bool, /) -> Array: ...  # noqa: E704
    def logical_xor(x1: Array | bool, x2: Array | bool, /) -> Array: ...  # noqa: E704
    def maximum(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704
    def minimum(x1: Array | int | float, x2: Array | int | float, /) -> Array: ...  # noqa: E704


if TYPE_CHECKING:    # spelled out: a type checker does not run sorted()
    __all__ = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh",
               "bitwise_invert", "ceil", "conj", "cos", "cosh", "exp", "expm1", "floor",
               "imag", "isfinite", "isinf", "isnan", "log", "log10", "log1p", "log2",
               "logical_not", "negative", "positive", "real", "reciprocal", "round",
               "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan", "tanh",
               "trunc", "add", "atan2", "bitwise_and", "bitwise_left_shift",
               "bitwise_or", "bitwise_right_shift", "bitwise_xor", "copysign", "divide",
               "equal", "floor_divide", "greater", "greater_equal", "hypot", "less",
               "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
               "maximum", "minimum", "multiply", "nextafter", "not_equal", "pow",
               "remainder", "subtract", "clip"]
else:
    __all__ = sorted(UNARY) + sorted(BINARY) + ["clip"]

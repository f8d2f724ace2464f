"""How the elementwise functions take their operands: the standard's
dtype category check, operand promotion (a Python scalar takes the array's
dtype; a complex scalar with a real floating array: the complex type of the
same precision), and operands as Cores of one dtype.  Used by
compat/_elementwise.py's functions, clip, where, isin, searchsorted and the
fused functions (compat/_fuse.py)."""

from __future__ import annotations

from typing import Any

from strided.core import base as _core

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS

SCALARS = (bool, int, float, complex)

# the core has no integer kernel for these: integers are computed in the
# default floating type (the standard leaves integer inputs to the
# implementation for divide)
FLOAT_FOR_INTEGERS = {"divide"}


def check(name: str, dt: Any, category: str) -> None:
    """TypeError naming `name` when dt is not of the standard's `category`."""
    if dt not in KINDS[category]:
        raise TypeError(f"{name} is not defined for {dt.name} (needs {category} dtypes)")


def dtype_mask(category: str) -> int:
    """The dtype codes of a category as a bit mask, for the C fast paths."""
    return sum(1 << dt.code for dt in KINDS[category])


def as_core(x: Any, dt: Any) -> Any:
    """An Array or Python scalar as a Core of dtype dt."""
    if isinstance(x, Array):
        return x._c if x.dtype is dt else _core.astype(x._c, dt)
    return _core.scalar(x, dt)


def operands(name: str, x1: Any, x2: Any) -> tuple[Any, Any]:
    """Two Cores of the promoted dtype (at least one argument an Array)."""
    dt = result_dtype(name, x1, x2)
    return as_core(x1, dt), as_core(x2, dt)


def result_dtype(name: str, x1: Any, x2: Any) -> Any:
    """The dtype the standard promotes x1 and x2 to (at least one an Array)."""
    if isinstance(x1, Array) and isinstance(x2, Array):
        dt = _dtypes.promote(x1.dtype, x2.dtype)
    elif isinstance(x1, Array) and isinstance(x2, SCALARS):
        dt = _dtypes.scalar_result(x1.dtype, x2)
    elif isinstance(x2, Array) and isinstance(x1, SCALARS):
        dt = _dtypes.scalar_result(x2.dtype, x1)
    else:
        raise TypeError(
            f"{name}: expected arrays (or one array and a Python scalar), got "
            f"{type(x1).__name__} and {type(x2).__name__}"
        )
    return dt

"""clip: the standard's one elementwise function of three operands (the
others are made from the op table in compat/_elementwise.py)."""

from __future__ import annotations

from typing import Any

from strided.core import base as _core, ops as _ops

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._promotion import as_core, check

__all__ = ["clip"]


def clip(
    x: Array, /, min: int | float | Array | None = None, max: int | float | Array | None = None
) -> Array:
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
    check("clip", x.dtype, "real numeric")
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

"""The linear algebra functions of the main namespace (matmul,
matrix_transpose, vecdot, tensordot later).  BLAS through the core."""
from __future__ import annotations

from strided import _ops, _views

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS


def matmul(x1, x2, /):
    if not (isinstance(x1, Array) and isinstance(x2, Array)):
        raise TypeError("matmul needs two arrays")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(f"matmul is not defined for {dt.name}")
    return Array._new(_ops.matmul(x1._c, x2._c))


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dims, got {x.ndim}")
    return Array._new(_views.transpose(x._c, -2, -1))


def vecdot(x1, x2, /, *, axis=-1):
    from . import _elementwise, _statistical
    return _statistical.sum(_elementwise.multiply(_elementwise.conj(x1), x2), axis=axis)


__all__ = ["matmul", "matrix_transpose", "vecdot"]

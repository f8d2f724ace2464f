"""The linear algebra functions of the main namespace (matmul,
matrix_transpose, vecdot, tensordot later).  BLAS through the core."""
from __future__ import annotations

from strided.core import ops as _ops, views as _views

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
    """sum(conj(x1) * x2) over axis, which counts from the end and must
    have the same size in both (it does not broadcast); the other dims
    broadcast.  The result keeps the promoted dtype."""
    from . import _elementwise, _statistical
    if not (isinstance(x1, Array) and isinstance(x2, Array)):
        raise TypeError("vecdot needs two arrays")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(f"vecdot is not defined for {dt.name}")
    n = min(x1.ndim, x2.ndim)
    if n == 0 or not -n <= axis < 0:
        raise ValueError(f"vecdot: axis must be in [-{n}, -1] for arrays of {x1.ndim} and "
                         f"{x2.ndim} dims, got {axis}")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: the contracted axis has size {x1.shape[axis]} in x1 and "
                         f"{x2.shape[axis]} in x2")
    product = _elementwise.multiply(_elementwise.conj(x1) if dt in KINDS["complex floating"]
                                    else x1, x2)
    return _statistical.sum(product, axis=axis, dtype=dt)


__all__ = ["matmul", "matrix_transpose", "vecdot"]

"""The linear algebra functions of the main namespace (matmul,
matrix_transpose, vecdot, tensordot later).  BLAS through the core."""

from __future__ import annotations

from strided.core import arraytype as _arraytype, ops as _ops

from . import _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS

# x1 @ x2 in one C call for two Arrays of one numeric dtype, 1-D or 2-D,
# none empty (fast.c's st_matmul_new), else None: the general path decides
_matmul_new = _arraytype.matmul


@_docstrings.sections()
def matmul(x1: Array, x2: Array, /) -> Array:
    """Computes the matrix product.

    Parameters
    ----------
    {{x1_x2}}

    Returns
    -------
    Array
        Output array.

    Raises
    ------
    TypeError
        matmul needs two arrays; when the dtype is not one the function takes
        (the message names it).
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    Float and complex products call BLAS (OpenBLAS, docs/linalg.md); integer
    ones our own C kernel. 1-D operands are promoted to matrices and the added
    axis removed, as the standard says.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.matmul(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), xp.asarray([1.0, 1.0]))
    Array([3., 7.], dtype=float64)
    """
    r = _matmul_new(x1, x2)
    if r is not None:
        return r
    if not (isinstance(x1, Array) and isinstance(x2, Array)):
        raise TypeError("matmul needs two arrays")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(f"matmul is not defined for {dt.name}")
    return Array._new(_ops.matmul(x1._c, x2._c))


def matrix_transpose(x: Array, /) -> Array:
    """Transposes a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.

    Returns
    -------
    Array
        An array containing the transpose for each matrix.

    Raises
    ------
    ValueError
        matrix_transpose needs at least 2 dims, got ….
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    A view: the last two axes swapped, no copy.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.matrix_transpose(xp.asarray([[1, 2, 3]])).shape
    (3, 1)
    """
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dims, got {x.ndim}")
    return x.mT  # a view in one C call


@_docstrings.sections()
def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Computes the (vector) dot product of two arrays.

    Parameters
    ----------
    {{x1_x2}}
    axis : int, optional
        Axis of ``x1`` and ``x2`` containing the vectors for which to compute
        the dot product. Default: ``-1``.

    Returns
    -------
    Array
        If ``x1`` and ``x2`` are both one-dimensional arrays, a zero-dimensional
        containing the dot product; otherwise, a non-zero-dimensional array
        containing the dot products and having ``N-1`` axes, where ``N`` is
        number of axes in the shape determined according to ``broadcasting``
        along the non-contracted axes.

    Raises
    ------
    TypeError
        vecdot needs two arrays; when the dtype is not one the function takes
        (the message names it).
    ValueError
        axis must be in [-…, -1] for arrays of … and … dims, got …; the
        contracted axis has size … in x1 and … in x2.
    TypeError
        If x is not an Array: the namespace's functions take its Arrays (asarray
        converts).

    Notes
    -----
    sum(conj(x1) * x2) over axis, which counts from the end and must
    have the same size in both (it does not broadcast); the other dims
    broadcast.  The result keeps the promoted dtype.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.vecdot(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), xp.asarray([1.0, 1.0]))
    Array([3., 7.], dtype=float64)
    """
    from . import _elementwise, _statistical

    if axis == -1 and type(x1) is Array and type(x2) is Array and x1.dtype in _REAL:
        # a real vecdot against one vector is a matrix-vector product (one C
        # call; a dot product in BLAS's order of summation rather than sum's)
        r = _matmul_new(x1, x2) if x2.ndim == 1 else _matmul_new(x2, x1) if x1.ndim == 1 else None
        if r is not None:
            return r
    if not (isinstance(x1, Array) and isinstance(x2, Array)):
        raise TypeError("vecdot needs two arrays")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(f"vecdot is not defined for {dt.name}")
    n = min(x1.ndim, x2.ndim)
    if n == 0 or not -n <= axis < 0:
        raise ValueError(
            f"vecdot: axis must be in [-{n}, -1] for arrays of {x1.ndim} and "
            f"{x2.ndim} dims, got {axis}"
        )
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(
            f"vecdot: the contracted axis has size {x1.shape[axis]} in x1 and "
            f"{x2.shape[axis]} in x2"
        )
    product = _elementwise.multiply(
        _elementwise.conj(x1) if dt in KINDS["complex floating"] else x1, x2
    )
    return _statistical.sum(product, axis=axis, dtype=dt)


_REAL = KINDS["real numeric"]

__all__ = ["matmul", "matrix_transpose", "vecdot"]

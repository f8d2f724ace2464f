"""The `linalg` extension of the array API standard (2025.12):
`strided.compat.linalg`.

One short wrapper per function.  The factorizations (cholesky, det,
slogdet, eig, eigvals, eigh, eigvalsh, inv, qr, solve, svd, svdvals) are
one LAPACK call each over the whole stack (strided/_linalg.py ->
strided/_c/linalg.c); matmul, tensordot, vecdot and matrix_transpose are
the main namespace's; the rest is composed of core calls (views,
elementwise ops, reductions), never a Python loop over elements.

Dtypes: the functions the standard says "should have a floating-point
data type" refuse others with TypeError (as array-api-strict does), except
matrix_power with n >= 0, which multiplies integers exactly too.
Singular matrices (inv, solve, negative matrix_power), matrices that are
not positive definite (cholesky), non-square matrices where square ones
are needed, and inf or NaN given to the iterative methods (svd, svdvals,
eig, eigvals, eigh, eigvalsh and the norms and pinv built on them) raise
ValueError naming the matrix of the stack."""

from __future__ import annotations

import math
import operator
from collections import namedtuple
from typing import Literal

from strided.core import base as _core, linalg as _linalg, matrix as _matrix, ops as _ops
from strided.core import norm as _norm, views as _views

from . import _data_type_functions, _docstrings, _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._linalg import matmul, matrix_transpose, vecdot
from ._more import tensordot
from ._typing import DType

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _floating(name, x):
    """x's Core, after checking it is an Array of a floating dtype."""
    if not isinstance(x, Array):
        raise TypeError(f"linalg.{name}: expected an Array, got {type(x).__name__}")
    if x.dtype not in KINDS["floating"]:
        raise TypeError(f"linalg.{name} needs a floating-point dtype, got {x.dtype.name}")
    return x._c


def _matrices(name, x, square=False):
    c = _floating(name, x)
    if x.ndim < 2:
        raise ValueError(
            f"linalg.{name} needs a matrix or a stack of matrices (at least 2 "
            f"dimensions), got shape {x.shape}"
        )
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"linalg.{name} needs square matrices (..., M, M), got shape {x.shape}")
    return c


def _wrap(*cores):
    return tuple(Array._new(c) for c in cores)


# ---------------------------------------------------------------- factorizations


# The docstring sections several functions share (_docstrings.sections
# puts each, headed, in place of its {{section}} line)
_RAISES_CHOLESKY = """\
TypeError
    linalg.…: expected an Array, got …; linalg.… needs a floating-point
    dtype, got ….
ValueError
    linalg.… needs a matrix or a stack of matrices (at least 2 dimensions),
    got shape …; linalg.… needs square matrices (..., M, M), got shape …."""
_PARAMETERS_DET = """\
x : Array
    Input array having shape ``(..., M, M)`` and whose innermost two
    dimensions form square matrices."""
_RETURNS_EIGVALSH = """\
Array
    An array containing the computed eigenvalues."""
_PARAMETERS_MATRIX_RANK = """\
x : Array
    Input array having shape ``(..., M, N)`` and whose innermost two
    dimensions form ``MxN`` matrices.
rtol : float or Array or None, optional
    Relative tolerance for small singular values. Default: ``None``."""
_RAISES_MATRIX_RANK = """\
TypeError
    linalg.…: expected an Array, got …; linalg.… needs a floating-point
    dtype, got …; linalg.…: rtol must have a real floating-point dtype, got
    ….
ValueError
    linalg.… needs a matrix or a stack of matrices (at least 2 dimensions),
    got shape …; linalg.… needs square matrices (..., M, M), got shape …."""


@_docstrings.sections(raises=_RAISES_CHOLESKY)
def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """Returns the lower (upper) Cholesky decomposition of a complex Hermitian or
    real symmetric positive-definite matrix ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, M)`` and whose innermost two
        dimensions form square complex Hermitian or real symmetric
        positive-definite matrices.
    upper : bool, optional
        If ``True``, the result must be the upper-triangular Cholesky factor
        :math:`U`. Default: ``False``.

    Returns
    -------
    Array
        An array containing the Cholesky factors for each square matrix.

    {{raises}}

    Notes
    -----
    LAPACK's potrf (OpenBLAS) on each matrix of the stack; a matrix that is not
    positive definite raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.cholesky(xp.asarray([[4.0, 2.0], [2.0, 5.0]]))
    Array([[2., 0.], [1., 2.]], dtype=float64)
    """
    return Array._new(_linalg.cholesky(_matrices("cholesky", x, True), upper))


@_docstrings.sections(raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET)
def det(x: Array, /) -> Array:
    """Returns the determinant of a square matrix (or a stack of square matrices)
    ``x``.

    {{parameters}}

    Returns
    -------
    Array
        If ``x`` is a two-dimensional array, a zero-dimensional array containing
        the determinant; otherwise, a non-zero dimensional array containing the
        determinant for each square matrix.

    {{raises}}

    Notes
    -----
    From LAPACK's LU (getrf); a singular matrix gives 0.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.det(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
    Array(-2., dtype=float64)
    """
    return Array._new(_linalg.det(_matrices("det", x, True)))


@_docstrings.sections(raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET)
def slogdet(x: Array, /) -> tuple[Array, Array]:
    """Returns the sign and the natural logarithm of the absolute value of the
    determinant of a square matrix (or a stack of square matrices) ``x``.

    {{parameters}}

    Returns
    -------
    tuple (Array, Array)
        A namedtuple (``sign``, ``logabsdet``) whose - first element must have
        the field name ``sign`` and must be an array containing a number
        representing the sign of the determinant for each square matrix.

    {{raises}}

    Notes
    -----
    From LAPACK's LU: sign and log|det| (namedtuple); a singular matrix gives
    sign 0 and -inf.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.slogdet(xp.asarray([[-2.0, 0.0], [0.0, 3.0]]))
    SlogdetResult(sign=Array(-1., dtype=float64), logabsdet=Array(1.791759469228055, dtype=float64))
    """
    return SlogdetResult(*_wrap(*_linalg.slogdet(_matrices("slogdet", x, True))))


@_docstrings.sections(raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET)
def inv(x: Array, /) -> Array:
    """Returns the multiplicative inverse of a square matrix (or a stack of square
    matrices) ``x``.

    {{parameters}}

    Returns
    -------
    Array
        An array containing the multiplicative inverses.

    {{raises}}

    Notes
    -----
    LAPACK's getrf and getri; a singular matrix raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
    Array([[0.5, 0.], [0., 0.25]], dtype=float64)
    """
    return Array._new(_linalg.inv(_matrices("inv", x, True)))


@_docstrings.sections(raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET)
def eigh(x: Array, /) -> tuple[Array, Array]:
    """Returns an eigenvalue decomposition of a complex Hermitian or real symmetric
    matrix (or a stack of matrices) ``x``.

    {{parameters}}

    Returns
    -------
    tuple (Array, Array)
        A namedtuple (``eigenvalues``, ``eigenvectors``) whose - first element
        must have the field name ``eigenvalues`` (corresponding to
        :math:`\\operatorname{diag}\\Lambda` above) and must be an array
        consisting of computed eigenvalues.

    {{raises}}

    Notes
    -----
    LAPACK's syevd/heevd: eigenvalues ascending, eigenvectors as columns
    (namedtuple).

    Examples
    --------
    >>> import strided.compat as xp
    >>> w, v = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.], dtype=float64)
    """
    return EighResult(*_wrap(*_linalg.eigh(_matrices("eigh", x, True))))


@_docstrings.sections(
    raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET, returns=_RETURNS_EIGVALSH
)
def eigvalsh(x: Array, /) -> Array:
    """Returns the eigenvalues of a complex Hermitian or real symmetric matrix (or
    a stack of matrices) ``x``.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    LAPACK's syevd/heevd: the eigenvalues, ascending.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.], dtype=float64)
    """
    return Array._new(_linalg.eigh(_matrices("eigvalsh", x, True), vectors=False))


@_docstrings.sections(raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET)
def eig(x: Array, /) -> tuple[Array, Array]:
    """Returns eigenvalues and eigenvectors of a real or complex matrix (or stack
    of matrices) ``x``.

    {{parameters}}

    Returns
    -------
    tuple (Array, Array)
        A namedtuple (``eigenvalues``, ``eigenvectors``) whose - first element
        must have the field name ``eigenvalues`` (corresponding to
        :math:`\\lambda` above) and must be an array consisting of computed
        eigenvalues.

    {{raises}}

    Notes
    -----
    Eigenvalues and right eigenvectors of general matrices, complex of
    x's precision whatever x's kind (LAPACK ?geev; unit 2-norm vectors).

    Examples
    --------
    >>> import strided.compat as xp
    >>> w, v = xp.linalg.eig(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
    >>> w  # a rotation: +-i
    Array([1j, -1j], dtype=complex128)
    """
    return EigResult(*_wrap(*_linalg.eig(_matrices("eig", x, True))))


@_docstrings.sections(
    raises=_RAISES_CHOLESKY, parameters=_PARAMETERS_DET, returns=_RETURNS_EIGVALSH
)
def eigvals(x: Array, /) -> Array:
    """Returns the eigenvalues of a real or complex matrix (or a stack of matrices)
    ``x``.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    LAPACK's geev without eigenvectors; complex results whatever the input's
    kind.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.eigvals(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
    Array([(2+0j), (3+0j)], dtype=complex128)
    """
    return Array._new(_linalg.eig(_matrices("eigvals", x, True), vectors=False))


def qr(x: Array, /, *, mode: Literal['reduced', 'complete'] = 'reduced') -> tuple[Array, Array]:
    """Returns the QR decomposition of a full column rank matrix (or a stack of
    matrices).

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices of rank ``N``.
    mode : {'reduced', 'complete'}, optional
        Decomposition mode. Default: ``'reduced'``.

    Returns
    -------
    tuple (Array, Array)
        A namedtuple ``(Q, R)`` whose - first element must have the field name
        ``Q`` and must be an array whose shape depends on the value of ``mode``
        and contain matrices with orthonormal columns.

    Raises
    ------
    ValueError
        mode must be 'reduced' or 'complete', got …; linalg.… needs a matrix or
        a stack of matrices (at least 2 dimensions), got shape …; linalg.… needs
        square matrices (..., M, M), got shape ….
    TypeError
        linalg.…: expected an Array, got …; linalg.… needs a floating-point
        dtype, got ….

    Notes
    -----
    LAPACK's geqrf and orgqr/ungqr; mode 'reduced' or 'complete' (namedtuple Q,
    R).

    Examples
    --------
    >>> import strided.compat as xp
    >>> q, r = xp.linalg.qr(xp.asarray([[3.0, 1.0], [4.0, 2.0]]))
    >>> r
    Array([[-5., -2.2], [0., 0.3999999999999999]], dtype=float64)
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    return QRResult(*_wrap(*_linalg.qr(_matrices("qr", x), mode == "complete")))


@_docstrings.sections(raises=_RAISES_CHOLESKY)
def svd(x: Array, /, *, full_matrices: bool = True) -> tuple[Array, Array, Array]:
    """Returns a singular value decomposition (SVD) of a matrix (or a stack of
    matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form matrices on which to perform singular value
        decomposition.
    full_matrices : bool, optional
        If ``True``, compute full-sized ``U`` and ``Vh``, such that ``U`` has
        shape ``(..., M, M)`` and ``Vh`` has shape ``(..., N, N)``. Default:
        ``True``.

    Returns
    -------
    tuple (Array, Array, Array)
        A namedtuple ``(U, S, Vh)`` whose - first element must have the field
        name ``U`` and must be an array whose shape depends on the value of
        ``full_matrices`` and contain matrices with orthonormal columns (i.e.,
        the columns are left singular vectors).

    {{raises}}

    Notes
    -----
    LAPACK's gesdd (namedtuple U, S, Vh); singular values descending.

    Examples
    --------
    >>> import strided.compat as xp
    >>> u, s, vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
    >>> s
    Array([4., 3.], dtype=float64)
    """
    return SVDResult(*_wrap(*_linalg.svd(_matrices("svd", x), bool(full_matrices))))


@_docstrings.sections(raises=_RAISES_CHOLESKY)
def svdvals(x: Array, /) -> Array:
    """Returns the singular values of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form matrices on which to perform singular value
        decomposition.

    Returns
    -------
    Array
        An array with shape ``(..., K)`` that contains the vector(s) of singular
        values of length ``K``, where ``K = min(M, N)``.

    {{raises}}

    Notes
    -----
    LAPACK's gesdd without vectors; descending.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.svdvals(xp.asarray([[0.0, 2.0], [1.0, 0.0]]))
    Array([2., 1.], dtype=float64)
    """
    return Array._new(_linalg.svd(_matrices("svdvals", x), compute_uv=False))


def solve(x1: Array, x2: Array, /) -> Array:
    """Returns the solution of a square system of linear equations with a unique
    solution.

    Parameters
    ----------
    x1 : Array
        Coefficient array ``A`` having shape ``(..., M, M)`` and whose innermost
        two dimensions form square matrices.
    x2 : Array
        Ordinate (or "dependent variable") array ``B``.

    Returns
    -------
    Array
        An array containing the solution to the system ``AX = B`` for each
        square matrix.

    Raises
    ------
    TypeError
        linalg.solve needs floating-point dtypes, got … and …; linalg.…:
        expected an Array, got …; linalg.… needs a floating-point dtype, got ….
    ValueError
        linalg.… needs a matrix or a stack of matrices (at least 2 dimensions),
        got shape …; linalg.… needs square matrices (..., M, M), got shape …; x2
        must have at least one dimension.

    Notes
    -----
    x with x1 @ x = x2.  A 1-D x2 of shape (M,) is one right-hand side
    for every matrix of x1 (the result has shape x1.shape[:-2] + (M,));
    otherwise x2 is (..., M, K) and the stack dims broadcast.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.solve(xp.asarray([[2.0, 0.0], [0.0, 4.0]]), xp.asarray([1.0, 2.0]))
    Array([0.5, 0.5], dtype=float64)
    """
    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.solve: expected Arrays, got {type(x).__name__}")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["floating"]:
        raise TypeError(
            f"linalg.solve needs floating-point dtypes, got {x1.dtype.name} and {x2.dtype.name}"
        )
    a = _matrices("solve", x1, True)
    if x2.ndim == 0:
        raise ValueError("linalg.solve: x2 must have at least one dimension")
    b = x2._c
    if a.dtype is not dt:
        a = _core.astype(a, dt)
    if b.dtype is not dt:
        b = _core.astype(b, dt)
    if x2.ndim == 1:
        if x2.shape[0] != x1.shape[-1]:
            raise ValueError(
                f"linalg.solve: x1 has shape {x1.shape}, so a 1-D x2 needs "
                f"{x1.shape[-1]} elements, got {x2.shape[0]}"
            )
        out = _linalg.solve(a, _views.unsqueeze(b, 1))
        return Array._new(_views.select(out, out.ndim - 1, 0))
    if x2.shape[-2] != x1.shape[-1]:
        raise ValueError(
            f"linalg.solve: x1 has shape {x1.shape} but x2 has shape {x2.shape}: "
            f"x2 needs {x1.shape[-1]} rows"
        )
    return Array._new(_linalg.solve(a, b))


# ---------------------------------------------------------------- built on them


def _tolerance(name, x, s, rtol):
    """rtol * (largest singular value) per matrix, shaped to broadcast
    against s (..., k); the default rtol is max(M, N) * eps."""
    from ._elementwise import multiply
    from ._statistical import max as amax

    rdt = s.dtype
    if rtol is None:
        rtol = max(x.shape[-2:]) * _data_type_functions.finfo(rdt).eps
    if isinstance(rtol, Array):
        if rtol.dtype not in KINDS["real floating"]:
            raise TypeError(
                f"linalg.{name}: rtol must have a real floating-point dtype, got {rtol.dtype.name}"
            )
        rtol = Array._new(_views.unsqueeze(rtol._c, rtol.ndim))
    elif not isinstance(rtol, (int, float)) or isinstance(rtol, bool):
        raise TypeError(
            f"linalg.{name}: rtol must be a float or an Array, got {type(rtol).__name__}"
        )
    return multiply(rtol, amax(s, axis=-1, keepdims=True))


@_docstrings.sections(parameters=_PARAMETERS_MATRIX_RANK, raises=_RAISES_MATRIX_RANK)
def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Returns the rank (i.e., number of non-zero singular values) of a matrix (or
    a stack of matrices).

    {{parameters}}

    Returns
    -------
    Array
        An array containing the ranks.

    {{raises}}

    Notes
    -----
    The number of singular values greater than rtol * the largest, as
    the default integer dtype (int64).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Array(1, dtype=int64)
    """
    from ._elementwise import greater

    c = _matrices("matrix_rank", x)
    s = Array._new(_linalg.svd(c, compute_uv=False))
    if s.shape[-1] == 0:
        return Array._new(_core.full(x.shape[:-2], 0, _core.int64))
    big = greater(s, _tolerance("matrix_rank", x, s, rtol))
    return Array._new(_ops.reduce("sum", _core.astype(big._c, _core.int64), (s.ndim - 1,)))


@_docstrings.sections(parameters=_PARAMETERS_MATRIX_RANK, raises=_RAISES_MATRIX_RANK)
def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Returns the (Moore-Penrose) pseudo-inverse of a matrix (or a stack of
    matrices) ``x``.

    {{parameters}}

    Returns
    -------
    Array
        An array containing the pseudo-inverse(s).

    {{raises}}

    Notes
    -----
    V diag(1/s) U^H from the reduced SVD, singular values at most
    rtol * the largest taken as zero; shape (..., N, M).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.pinv(xp.asarray([[2.0], [0.0]]))
    Array([[0.5, 0.]], dtype=float64)
    """
    from ._elementwise import conj, divide, greater
    from ._searching import where

    c = _matrices("pinv", x)
    m, n = x.shape[-2:]
    if min(m, n) == 0:
        return Array._new(_core.full(x.shape[:-2] + (n, m), 0, x.dtype))
    u, s, vh = _wrap(*_linalg.svd(c, full_matrices=False))
    keep = greater(s, _tolerance("pinv", x, s, rtol))
    inv_s = where(keep, divide(1.0, where(keep, s, 1.0)), 0.0)
    v = matrix_transpose(vh)
    uh = matrix_transpose(u)
    if x.dtype in KINDS["complex floating"]:
        v, uh = conj(v), conj(uh)
    scaled = Array._new(
        _ops.binary(
            "multiply", v._c, _core.astype(_views.unsqueeze(inv_s._c, inv_s.ndim - 1), x.dtype)
        )
    )
    return matmul(scaled, uh)


def matrix_power(x: Array, n: int, /) -> Array:
    """Raises a square matrix (or a stack of square matrices) ``x`` to an integer
    power ``n``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, M)`` and whose innermost two
        dimensions form square matrices.
    n : int
        Integer exponent.

    Returns
    -------
    Array
        If ``n`` is equal to zero, an array containing the identity matrix for
        each square matrix.

    Raises
    ------
    TypeError
        expected an Array, got …; linalg.matrix_power needs a floating-point
        dtype…, got …; n must be an integer, got ….
    ValueError
        linalg.matrix_power needs square matrices (..., M, M), got shape ….

    Notes
    -----
    x^n by repeated squaring (one batched matmul per step); n < 0
    inverts first (singular matrices raise); n == 0 gives identities.
    Integer matrices are allowed for n >= 0 (exact, wrapping products).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.matrix_power(xp.asarray([[1, 1], [0, 1]]), 3)
    Array([[1, 3], [0, 1]], dtype=int64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"linalg.matrix_power: expected an Array, got {type(x).__name__}")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(
            f"linalg.matrix_power: n must be an integer, got {type(n).__name__}"
        ) from None
    if x.dtype not in KINDS["numeric"] or (n < 0 and x.dtype not in KINDS["floating"]):
        raise TypeError(
            f"linalg.matrix_power needs a floating-point dtype"
            f"{' for n < 0' if x.dtype in KINDS['numeric'] else ''}, got "
            f"{x.dtype.name}"
        )
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"linalg.matrix_power needs square matrices (..., M, M), got shape {x.shape}"
        )
    if n == 0:
        m = x.shape[-1]
        eye = _core.full((m, m), 0, x.dtype)
        if m:
            _core.fill_(eye.view(0, (m,), (m + 1,)), 1)
        out = _core.Core.empty(x.shape, x.dtype)
        _core.copy_(out, eye)
        return Array._new(out)
    base = Array._new(_linalg.inv(x._c)) if n < 0 else x
    n = abs(n)
    result = None
    while True:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            break
        base = matmul(base, base)
    if result is x:
        result = Array._new(_core.astype(x._c, x.dtype))  # a new array, as for every n
    return result  # type: ignore[return-value]  # n >= 1 here: the loop sets it


# ---------------------------------------------------------------- norms


def _norm_dtype(name, x):
    c = _floating(name, x)
    return c, _linalg.real_dtype(c.dtype)


def vector_norm(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,
) -> Array:
    """Computes the vector norm of a vector (or batch of vectors) ``x``.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int or tuple of int or None, optional
        If an integer, ``axis`` specifies the axis (dimension) along which to
        compute vector norms. Default: ``None``.
    keepdims : bool, optional
        If ``True``, the axes (dimensions) specified by ``axis`` must be
        included in the result as singleton dimensions, and, accordingly, the
        result must be compatible with the input array (see ``broadcasting``).
        Default: ``False``.
    ord : int or float or {inf or -inf}, optional
        Order of the norm. Default: ``2``.

    Returns
    -------
    Array
        An array containing the vector norms.

    Raises
    ------
    TypeError
        linalg.…: expected an Array, got …; linalg.… needs a floating-point
        dtype, got …; ord must be a number, got ….
    ValueError
        ord=-inf of an empty vector (min of nothing).

    Notes
    -----
    The standard's table: ord 2 is sqrt(sum |x|^2), 1 sum |x|, inf
    max |x|, -inf min |x|, 0 the count of nonzeros, any other p
    (sum |x|^p)^(1/p) (negative p too).  Computed in x's precision, without
    rescaling (as numpy: |x|^2 may overflow for |x| > 1e154 in float64).
    max over no elements is 0; min over none raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.vector_norm(xp.asarray([3.0, 4.0]))
    Array(5., dtype=float64)
    >>> xp.linalg.vector_norm(xp.asarray([3.0, -4.0]), ord=xp.inf)
    Array(4., dtype=float64)
    """
    c, rdt = _norm_dtype("vector_norm", x)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg.vector_norm: ord must be a number, got {ord!r}")
    axes = _ops.normalize_axes(axis, x.ndim)
    if ord == -math.inf and any(x.shape[d] == 0 for d in axes):
        raise ValueError("linalg.vector_norm: ord=-inf of an empty vector (min of nothing)")
    # the core's p-norm (norm.c: computed in double, rounded once to rdt) of
    # |x| along one dim: the axes moved last and merged into it
    a = _ops.unary("abs", c) if c.dtype.kind == "c" else c
    kept = [d for d in range(x.ndim) if d not in axes]
    lead = tuple(x.shape[d] for d in kept)
    a = _views.permute(a, kept + list(axes))
    merged = _views.view_as_shape(a, lead + (-1,) if math.prod(x.shape) else lead + (0,))
    if merged is None:
        merged = _views.view_as_shape(_core.contiguous(a), lead + (-1,))
    r = _norm.norm(merged, float(ord), merged.ndim - 1)
    if keepdims:
        r = _views.view_as_shape(r, tuple(1 if d in axes else n for d, n in enumerate(x.shape)))
    return Array._new(r)


def _zero_reduced(shape, axes, keepdims, dt):
    out = (
        [1 if d in axes else n for d, n in enumerate(shape)]
        if keepdims
        else [n for d, n in enumerate(shape) if d not in axes]
    )
    return _core.full(tuple(out), 0, dt)


def matrix_norm(
    x: Array, /, *, keepdims: bool = False, ord: int | float | Literal['fro', 'nuc'] | None = 'fro'
) -> Array:
    """Computes the matrix norm of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.
    keepdims : bool, optional
        If ``True``, the last two axes (dimensions) must be included in the
        result as singleton dimensions, and, accordingly, the result must be
        compatible with the input array (see ``broadcasting``). Default:
        ``False``.
    ord : int or float or {inf or -inf or 'fro' or 'nuc'} or None, optional
        Order of the norm. Default: ``'fro'``.

    Returns
    -------
    Array
        An array containing the norms for each ``MxN`` matrix.

    Raises
    ------
    TypeError
        linalg.…: expected an Array, got …; linalg.… needs a floating-point
        dtype, got …; ord must be a number, got ….
    ValueError
        linalg.… needs a matrix or a stack of matrices (at least 2 dimensions),
        got shape …; linalg.… needs square matrices (..., M, M), got shape …;
        ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got ….

    Notes
    -----
    Over the last two axes: 'fro' sqrt(sum |x|^2), 'nuc' the sum of the
    singular values, 1 / -1 the largest / smallest column sum of |x|,
    inf / -inf the same over rows, 2 / -2 the largest / smallest singular
    value.  An empty matrix has norm 0 for 'fro', 'nuc', 1, inf and 2; the
    smallest of nothing (-1, -inf, -2) raises ValueError.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.matrix_norm(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
    Array(5., dtype=float64)
    >>> xp.linalg.matrix_norm(xp.asarray([[3.0, 0.0], [0.0, 4.0]]), ord=2)
    Array(4., dtype=float64)
    """
    c = _matrices("matrix_norm", x)
    rdt = _linalg.real_dtype(c.dtype)
    nd = x.ndim
    last2 = (nd - 2, nd - 1)
    m, n = x.shape[-2:]
    empty = m == 0 or n == 0
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise ValueError(
                f"linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf "
                f"or -inf, got {ord!r}"
            )
        if ord == "fro":
            return vector_norm(x, axis=(-2, -1), keepdims=keepdims, ord=2)
        if empty:
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        s = _linalg.svd(c, compute_uv=False)
        r = _ops.reduce("sum", s, (nd - 2,), False)
    elif ord in (1, -1, math.inf, -math.inf) and not isinstance(ord, bool):
        if empty:
            if ord < 0:
                raise ValueError(
                    f"linalg.matrix_norm: ord={ord} of an empty matrix (min of nothing)"
                )
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        a = _ops.unary("abs", c)
        sums = _ops.reduce("sum", a, (nd - 2,) if abs(ord) == 1 else (nd - 1,), False)
        r = _ops.reduce("max" if ord > 0 else "min", sums, (nd - 2,), False)
    elif ord in (2, -2) and not isinstance(ord, bool):
        if empty:
            if ord < 0:
                raise ValueError("linalg.matrix_norm: ord=-2 of an empty matrix (min of nothing)")
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        s = _linalg.svd(c, compute_uv=False)  # descending
        r = _views.select(s, nd - 2, 0 if ord > 0 else s.shape[-1] - 1)
    else:
        raise ValueError(
            f"linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}"
        )
    if keepdims:
        r = _views.unsqueeze(_views.unsqueeze(r, nd - 2), nd - 1)
    return Array._new(r)


# ---------------------------------------------------------------- views and products


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """Returns the specified diagonals of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.
    offset : int, optional
        Offset specifying the off-diagonal relative to the main diagonal.
        Default: ``0``.

    Returns
    -------
    Array
        An array containing the diagonals and whose shape is determined by
        removing the last two dimensions and appending a dimension equal to the
        size of the resulting diagonals.

    Raises
    ------
    TypeError
        expected an Array, got ….
    ValueError
        linalg.diagonal needs at least 2 dimensions, got shape ….

    Notes
    -----
    The offset diagonal of each matrix, as a view (..., L).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.diagonal(xp.asarray([[1, 2], [3, 4]]), offset=1)
    Array([2], dtype=int64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"linalg.diagonal: expected an Array, got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"linalg.diagonal needs at least 2 dimensions, got shape {x.shape}")
    return Array._new(_matrix.diagonal(x._c, operator.index(offset)))


def trace(x: Array, /, *, offset: int = 0, dtype: DType | None = None) -> Array:
    """Returns the sum along the specified diagonals of a matrix (or a stack of
    matrices) ``x``.

    Parameters
    ----------
    x : Array
        Input array having shape ``(..., M, N)`` and whose innermost two
        dimensions form ``MxN`` matrices.
    offset : int, optional
        Offset specifying the off-diagonal relative to the main diagonal.
        Default: ``0``.
    dtype : dtype or None, optional
        Data type of the returned array. Default: ``None``.

    Returns
    -------
    Array
        An array containing the traces and whose shape is determined by removing
        the last two dimensions and storing the traces in the last array
        dimension.

    Raises
    ------
    TypeError
        expected an Array, got …; linalg.trace needs a numeric dtype, got ….
    ValueError
        linalg.diagonal needs at least 2 dimensions, got shape ….

    Notes
    -----
    The sum of each matrix's offset diagonal; sum's dtype rules (signed
    integers in int64, unsigned in uint64, floating in their own type).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.trace(xp.asarray([[1, 2], [3, 4]]))
    Array(5, dtype=int64)
    """
    from ._statistical import sum as asum

    if not isinstance(x, Array):
        raise TypeError(f"linalg.trace: expected an Array, got {type(x).__name__}")
    if x.dtype not in KINDS["numeric"]:
        raise TypeError(f"linalg.trace needs a numeric dtype, got {x.dtype.name}")
    return asum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1: Array, x2: Array, /) -> Array:
    """Returns the outer product of two vectors ``x1`` and ``x2``.

    Parameters
    ----------
    x1 : Array
        First one-dimensional input array of size ``N``.
    x2 : Array
        Second one-dimensional input array of size ``M``.

    Returns
    -------
    Array
        A two-dimensional array containing the outer product and whose shape is
        ``(N, M)``.

    Raises
    ------
    TypeError
        expected Arrays, got …; linalg.outer needs numeric dtypes, got ….
    ValueError
        linalg.outer needs 1-D arrays, got shapes … and ….

    Notes
    -----
    x1[i] * x2[j] for two 1-D arrays (the elementwise product, broadcast).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 10, 100]))
    Array([[1, 10, 100], [2, 20, 200]], dtype=int64)
    """
    from ._elementwise import multiply

    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.outer: expected Arrays, got {type(x).__name__}")
        if x.ndim != 1:
            raise ValueError(f"linalg.outer needs 1-D arrays, got shapes {x1.shape} and {x2.shape}")
        if x.dtype not in KINDS["numeric"]:
            raise TypeError(f"linalg.outer needs numeric dtypes, got {x.dtype.name}")
    return multiply(Array._new(_views.unsqueeze(x1._c, 1)), Array._new(_views.unsqueeze(x2._c, 0)))


@_docstrings.sections()
def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Returns the cross product of 3-element vectors.

    Parameters
    ----------
    {{x1_x2}}
    axis : int, optional
        The axis (dimension) of ``x1`` and ``x2`` containing the vectors for
        which to compute the cross product. Default: ``-1``.

    Returns
    -------
    Array
        An array containing the cross products.

    Raises
    ------
    TypeError
        linalg.cross needs numeric dtypes, got … and …; expected Arrays, got ….
    ValueError
        axis must be an integer in [-…, -1] for arrays of … and … dimensions,
        got …; the axis … must have size 3 in both arrays, got shapes … and ….

    Notes
    -----
    The cross product of the 3-element vectors along `axis` (counted
    from the end, in [-min(x1.ndim, x2.ndim), -1]); that axis must have size
    3 in both and does not broadcast, the others do.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
    Array([0., 0., 1.], dtype=float64)
    """
    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.cross: expected Arrays, got {type(x).__name__}")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(
            f"linalg.cross needs numeric dtypes, got {x1.dtype.name} and {x2.dtype.name}"
        )
    nmin = min(x1.ndim, x2.ndim)
    if not isinstance(axis, int) or not -nmin <= axis <= -1:
        raise ValueError(
            f"linalg.cross: axis must be an integer in [-{nmin}, -1] for arrays of "
            f"{x1.ndim} and {x2.ndim} dimensions, got {axis!r}"
        )
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            f"linalg.cross: the axis {axis} must have size 3 in both arrays, got "
            f"shapes {x1.shape} and {x2.shape}"
        )
    # the core's cross (matrix.c: one pass, each product computed in dt as
    # multiply would) over both operands broadcast and promoted
    shape = _ops.broadcast_shapes(x1.shape, x2.shape)
    a, b = (
        _views.expand(x._c if x.dtype is dt else _core.astype(x._c, dt), shape) for x in (x1, x2)
    )
    return Array._new(_matrix.cross(a, b, len(shape) + axis))


__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

# a non-Array where an Array is declared: TypeError naming the argument
from ._argcheck import check_namespace as _check_namespace  # noqa: E402

_check_namespace(globals(), __all__, prefix="linalg.", own_only=True)

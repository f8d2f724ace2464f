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

from strided.core import base as _core, linalg as _linalg, ops as _ops, views as _views

from . import _dtypes
from ._array import Array
from ._dtypes import KINDS
from ._linalg import matmul, matrix_transpose, vecdot
from ._more import tensordot

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
        raise ValueError(f"linalg.{name} needs a matrix or a stack of matrices (at least 2 "
                         f"dimensions), got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"linalg.{name} needs square matrices (..., M, M), got shape "
                         f"{x.shape}")
    return c


def _wrap(*cores):
    return tuple(Array._new(c) for c in cores)


# ---------------------------------------------------------------- factorizations


def cholesky(x, /, *, upper=False):
    return Array._new(_linalg.cholesky(_matrices("cholesky", x, True), upper))


def det(x, /):
    return Array._new(_linalg.det(_matrices("det", x, True)))


def slogdet(x, /):
    return SlogdetResult(*_wrap(*_linalg.slogdet(_matrices("slogdet", x, True))))


def inv(x, /):
    return Array._new(_linalg.inv(_matrices("inv", x, True)))


def eigh(x, /):
    return EighResult(*_wrap(*_linalg.eigh(_matrices("eigh", x, True))))


def eigvalsh(x, /):
    return Array._new(_linalg.eigh(_matrices("eigvalsh", x, True), vectors=False))


def eig(x, /):
    """Eigenvalues and right eigenvectors of general matrices, complex of
    x's precision whatever x's kind (LAPACK ?geev; unit 2-norm vectors)."""
    return EigResult(*_wrap(*_linalg.eig(_matrices("eig", x, True))))


def eigvals(x, /):
    return Array._new(_linalg.eig(_matrices("eigvals", x, True), vectors=False))


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    return QRResult(*_wrap(*_linalg.qr(_matrices("qr", x), mode == "complete")))


def svd(x, /, *, full_matrices=True):
    return SVDResult(*_wrap(*_linalg.svd(_matrices("svd", x), bool(full_matrices))))


def svdvals(x, /):
    return Array._new(_linalg.svd(_matrices("svdvals", x), compute_uv=False))


def solve(x1, x2, /):
    """x with x1 @ x = x2.  A 1-D x2 of shape (M,) is one right-hand side
    for every matrix of x1 (the result has shape x1.shape[:-2] + (M,));
    otherwise x2 is (..., M, K) and the stack dims broadcast."""
    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.solve: expected Arrays, got {type(x).__name__}")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["floating"]:
        raise TypeError(f"linalg.solve needs floating-point dtypes, got {x1.dtype.name} and "
                        f"{x2.dtype.name}")
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
            raise ValueError(f"linalg.solve: x1 has shape {x1.shape}, so a 1-D x2 needs "
                             f"{x1.shape[-1]} elements, got {x2.shape[0]}")
        out = _linalg.solve(a, _views.unsqueeze(b, 1))
        return Array._new(_views.select(out, out.ndim - 1, 0))
    if x2.shape[-2] != x1.shape[-1]:
        raise ValueError(f"linalg.solve: x1 has shape {x1.shape} but x2 has shape {x2.shape}: "
                         f"x2 needs {x1.shape[-1]} rows")
    return Array._new(_linalg.solve(a, b))


# ---------------------------------------------------------------- built on them


def _tolerance(name, x, s, rtol):
    """rtol * (largest singular value) per matrix, shaped to broadcast
    against s (..., k); the default rtol is max(M, N) * eps."""
    from ._elementwise import multiply
    from ._statistical import max as amax
    rdt = s.dtype
    if rtol is None:
        rtol = max(x.shape[-2:]) * _dtypes.finfo(rdt).eps
    if isinstance(rtol, Array):
        if rtol.dtype not in KINDS["real floating"]:
            raise TypeError(f"linalg.{name}: rtol must have a real floating-point dtype, got "
                            f"{rtol.dtype.name}")
        rtol = Array._new(_views.unsqueeze(rtol._c, rtol.ndim))
    elif not isinstance(rtol, (int, float)) or isinstance(rtol, bool):
        raise TypeError(f"linalg.{name}: rtol must be a float or an Array, got "
                        f"{type(rtol).__name__}")
    return multiply(rtol, amax(s, axis=-1, keepdims=True))


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values greater than rtol * the largest, as
    the default integer dtype (int64)."""
    from ._elementwise import greater
    c = _matrices("matrix_rank", x)
    s = Array._new(_linalg.svd(c, compute_uv=False))
    if s.shape[-1] == 0:
        return Array._new(_core.full(x.shape[:-2], 0, _core.int64))
    big = greater(s, _tolerance("matrix_rank", x, s, rtol))
    return Array._new(_ops.reduce("sum", _core.astype(big._c, _core.int64), (s.ndim - 1,)))


def pinv(x, /, *, rtol=None):
    """V diag(1/s) U^H from the reduced SVD, singular values at most
    rtol * the largest taken as zero; shape (..., N, M)."""
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
    scaled = Array._new(_ops.binary("multiply", v._c, _core.astype(
        _views.unsqueeze(inv_s._c, inv_s.ndim - 1), x.dtype)))
    return matmul(scaled, uh)


def matrix_power(x, n, /):
    """x^n by repeated squaring (one batched matmul per step); n < 0
    inverts first (singular matrices raise); n == 0 gives identities.
    Integer matrices are allowed for n >= 0 (exact, wrapping products)."""
    if not isinstance(x, Array):
        raise TypeError(f"linalg.matrix_power: expected an Array, got {type(x).__name__}")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"linalg.matrix_power: n must be an integer, got {type(n).__name__}") \
            from None
    if x.dtype not in KINDS["numeric"] or (n < 0 and x.dtype not in KINDS["floating"]):
        raise TypeError(f"linalg.matrix_power needs a floating-point dtype"
                        f"{' for n < 0' if x.dtype in KINDS['numeric'] else ''}, got "
                        f"{x.dtype.name}")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"linalg.matrix_power needs square matrices (..., M, M), got shape "
                         f"{x.shape}")
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
        result = Array._new(_core.astype(x._c, x.dtype))   # a new array, as for every n
    return result


# ---------------------------------------------------------------- norms


def _norm_dtype(name, x):
    c = _floating(name, x)
    return c, _linalg.real_dtype(c.dtype)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The standard's table: ord 2 is sqrt(sum |x|^2), 1 sum |x|, inf
    max |x|, -inf min |x|, 0 the count of nonzeros, any other p
    (sum |x|^p)^(1/p) (negative p too).  Computed in x's precision, without
    rescaling (as numpy: |x|^2 may overflow for |x| > 1e154 in float64).
    max over no elements is 0; min over none raises ValueError."""
    c, rdt = _norm_dtype("vector_norm", x)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg.vector_norm: ord must be a number, got {ord!r}")
    axes = _ops.normalize_axes(axis, x.ndim)
    # |x| (real); ord 2 of real x squares x itself
    a = c if ord == 2 and c.dtype is rdt else _ops.unary("abs", c)
    empty = any(x.shape[d] == 0 for d in axes)
    if ord == math.inf or ord == -math.inf:
        if empty:
            if ord < 0:
                raise ValueError("linalg.vector_norm: ord=-inf of an empty vector (min of "
                                 "nothing)")
            return Array._new(_zero_reduced(x.shape, axes, keepdims, rdt))
        return Array._new(_ops.reduce("max" if ord > 0 else "min", a, axes, keepdims))
    if ord == 0:
        nz = _core.astype(_ops.binary("not_equal", a, _core.scalar(0, rdt)), rdt)
        return Array._new(_ops.reduce("sum", nz, axes, keepdims))
    if ord == 1:
        return Array._new(_ops.reduce("sum", a, axes, keepdims))
    if ord == 2:
        sq = _ops.binary("multiply", a, a)
        return Array._new(_ops.unary("sqrt", _ops.reduce("sum", sq, axes, keepdims)))
    p = float(ord)
    powered = _ops.binary("pow", a, _core.scalar(p, rdt))
    s = _ops.reduce("sum", powered, axes, keepdims)
    return Array._new(_ops.binary("pow", s, _core.scalar(1.0 / p, rdt)))


def _zero_reduced(shape, axes, keepdims, dt):
    out = [1 if d in axes else n for d, n in enumerate(shape)] if keepdims else \
          [n for d, n in enumerate(shape) if d not in axes]
    return _core.full(tuple(out), 0, dt)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Over the last two axes: 'fro' sqrt(sum |x|^2), 'nuc' the sum of the
    singular values, 1 / -1 the largest / smallest column sum of |x|,
    inf / -inf the same over rows, 2 / -2 the largest / smallest singular
    value.  An empty matrix has norm 0 for 'fro', 'nuc', 1, inf and 2; the
    smallest of nothing (-1, -inf, -2) raises ValueError."""
    c = _matrices("matrix_norm", x)
    rdt = _linalg.real_dtype(c.dtype)
    nd = x.ndim
    last2 = (nd - 2, nd - 1)
    m, n = x.shape[-2:]
    empty = m == 0 or n == 0
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise ValueError(f"linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf "
                             f"or -inf, got {ord!r}")
        if ord == "fro":
            return vector_norm(x, axis=(-2, -1), keepdims=keepdims, ord=2)
        if empty:
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        s = _linalg.svd(c, compute_uv=False)
        r = _ops.reduce("sum", s, (nd - 2,), False)
    elif ord in (1, -1, math.inf, -math.inf) and not isinstance(ord, bool):
        if empty:
            if ord < 0:
                raise ValueError(f"linalg.matrix_norm: ord={ord} of an empty matrix (min of "
                                 f"nothing)")
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        a = _ops.unary("abs", c)
        sums = _ops.reduce("sum", a, (nd - 2,) if abs(ord) == 1 else (nd - 1,), False)
        r = _ops.reduce("max" if ord > 0 else "min", sums, (nd - 2,), False)
    elif ord in (2, -2) and not isinstance(ord, bool):
        if empty:
            if ord < 0:
                raise ValueError("linalg.matrix_norm: ord=-2 of an empty matrix (min of "
                                 "nothing)")
            return Array._new(_zero_reduced(x.shape, last2, keepdims, rdt))
        s = _linalg.svd(c, compute_uv=False)          # descending
        r = _views.select(s, nd - 2, 0 if ord > 0 else s.shape[-1] - 1)
    else:
        raise ValueError(f"linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or "
                         f"-inf, got {ord!r}")
    if keepdims:
        r = _views.unsqueeze(_views.unsqueeze(r, nd - 2), nd - 1)
    return Array._new(r)


# ---------------------------------------------------------------- views and products


def diagonal(x, /, *, offset=0):
    """The offset diagonal of each matrix, as a view (..., L)."""
    if not isinstance(x, Array):
        raise TypeError(f"linalg.diagonal: expected an Array, got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"linalg.diagonal needs at least 2 dimensions, got shape {x.shape}")
    offset = operator.index(offset)
    c = x._c
    m, n = x.shape[-2:]
    rs, cs = c.strides[-2:]
    if offset >= 0:
        length, start = max(0, min(m, n - offset)), offset * cs
    else:
        length, start = max(0, min(m + offset, n)), -offset * rs
    return Array._new(c.view(c.offset + (start if length else 0), x.shape[:-2] + (length,),
                             c.strides[:-2] + (rs + cs,)))


def trace(x, /, *, offset=0, dtype=None):
    """The sum of each matrix's offset diagonal; sum's dtype rules (signed
    integers in int64, unsigned in uint64, floating in their own type)."""
    from ._statistical import sum as asum
    if not isinstance(x, Array):
        raise TypeError(f"linalg.trace: expected an Array, got {type(x).__name__}")
    if x.dtype not in KINDS["numeric"]:
        raise TypeError(f"linalg.trace needs a numeric dtype, got {x.dtype.name}")
    return asum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1, x2, /):
    """x1[i] * x2[j] for two 1-D arrays (the elementwise product, broadcast)."""
    from ._elementwise import multiply
    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.outer: expected Arrays, got {type(x).__name__}")
        if x.ndim != 1:
            raise ValueError(f"linalg.outer needs 1-D arrays, got shapes {x1.shape} and "
                             f"{x2.shape}")
        if x.dtype not in KINDS["numeric"]:
            raise TypeError(f"linalg.outer needs numeric dtypes, got {x.dtype.name}")
    return multiply(Array._new(_views.unsqueeze(x1._c, 1)), Array._new(_views.unsqueeze(x2._c, 0)))


def cross(x1, x2, /, *, axis=-1):
    """The cross product of the 3-element vectors along `axis` (counted
    from the end, in [-min(x1.ndim, x2.ndim), -1]); that axis must have size
    3 in both and does not broadcast, the others do."""
    from ._elementwise import multiply, subtract
    from ._manipulation import stack
    for x in (x1, x2):
        if not isinstance(x, Array):
            raise TypeError(f"linalg.cross: expected Arrays, got {type(x).__name__}")
    dt = _dtypes.promote(x1.dtype, x2.dtype)
    if dt not in KINDS["numeric"]:
        raise TypeError(f"linalg.cross needs numeric dtypes, got {x1.dtype.name} and "
                        f"{x2.dtype.name}")
    nmin = min(x1.ndim, x2.ndim)
    if not isinstance(axis, int) or not -nmin <= axis <= -1:
        raise ValueError(f"linalg.cross: axis must be an integer in [-{nmin}, -1] for arrays of "
                         f"{x1.ndim} and {x2.ndim} dimensions, got {axis!r}")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"linalg.cross: the axis {axis} must have size 3 in both arrays, got "
                         f"shapes {x1.shape} and {x2.shape}")
    a = [Array._new(_views.select(x1._c, x1.ndim + axis, i)) for i in range(3)]
    b = [Array._new(_views.select(x2._c, x2.ndim + axis, i)) for i in range(3)]
    c0 = subtract(multiply(a[1], b[2]), multiply(a[2], b[1]))
    c1 = subtract(multiply(a[2], b[0]), multiply(a[0], b[2]))
    c2 = subtract(multiply(a[0], b[1]), multiply(a[1], b[0]))
    return stack([c0, c1, c2], axis=axis)


__all__ = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
           "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
           "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
           "vector_norm"]

"""LAPACK over Cores (strided/_c/linalg.c, lapack_t7.c): output allocation,
one C call each.  0-based, no promotion: every function takes Cores of a
floating dtype (float32, float64, complex64, complex128; Torch7's LAPACK
functions, the second part, float32 and float64), and the C side checks
shapes and dtypes again before touching memory.  Stacks: the leading dims
are the batch; functions of two or more operands broadcast their batches
here (expanded views, zero strides, no copy)."""

from __future__ import annotations

from .._c._strided import ffi, lib
from .base import Core, check, copy_, dtype, scalar_buffer
from .ops import broadcast_shapes, common_dtype
from .views import expand, narrow, transpose, unsqueeze

_REAL = {
    "float32": "float32",
    "float64": "float64",
    "complex64": "float32",
    "complex128": "float64",
}
_COMPLEX = {
    "float32": "complex64",
    "float64": "complex128",
    "complex64": "complex64",
    "complex128": "complex128",
}


def real_dtype(dt):
    """The real dtype of a floating dtype's precision."""
    return dtype(_REAL[dtype(dt).name])


def complex_dtype(dt):
    return dtype(_COMPLEX[dtype(dt).name])


def _need(name, a, square=False):
    if a.dtype.name not in _REAL:
        raise TypeError(
            f"{name} needs a floating-point dtype (float32, float64, complex64, "
            f"complex128), got {a.dtype.name}"
        )
    if a.ndim < 2:
        raise ValueError(
            f"{name} needs a matrix or a stack of matrices (at least 2 "
            f"dimensions), got shape {a.shape}"
        )
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name} needs square matrices (..., M, M), got shape {a.shape}")


def _broadcast_stacks(name, *operands):
    """(batch, views): the operands, given as (core, dims after its batch),
    expanded to one broadcast batch (zero strides, no copy)."""
    try:
        batch = broadcast_shapes(*(c.shape[: c.ndim - t] for c, t in operands))
    except ValueError:
        shapes = " and ".join(str(c.shape) for c, _ in operands)
        raise ValueError(f"{name}: the stack dims of shapes {shapes} do not broadcast") from None
    return batch, [
        c if c.shape[: c.ndim - t] == batch else expand(c, batch + c.shape[c.ndim - t :])
        for c, t in operands
    ]


def inv(a):
    _need("inv", a, square=True)
    out = Core.empty(a.shape, a.dtype)
    check(lib.st_linalg_inv(out.t, a.t))
    return out


def solve(a, b):
    """x with a @ x = b, a (..., n, n), b (..., n, k); the batch dims
    broadcast.  (A 1-D b is the caller's to promote.)"""
    _need("solve", a, square=True)
    _need("solve", b)
    if a.dtype is not b.dtype:
        raise TypeError(f"solve needs operands of one dtype, got {a.dtype.name} and {b.dtype.name}")
    n = a.shape[-1]
    if b.shape[-2] != n:
        raise ValueError(
            f"solve: x1 has shape {a.shape} but x2 has shape {b.shape}: x2 needs {n} rows"
        )
    _, (a, b) = _broadcast_stacks("solve", (a, 2), (b, 2))
    out = Core.empty(b.shape, b.dtype)
    check(lib.st_linalg_solve(out.t, a.t, b.t))
    return out


def det(a):
    _need("det", a, square=True)
    out = Core.empty(a.shape[:-2], a.dtype)
    check(lib.st_linalg_det(out.t, ffi.NULL, ffi.NULL, a.t))
    return out


def slogdet(a):
    """(sign of a's dtype, log|det| of its real dtype)."""
    _need("slogdet", a, square=True)
    sign = Core.empty(a.shape[:-2], a.dtype)
    logabs = Core.empty(a.shape[:-2], real_dtype(a.dtype))
    check(lib.st_linalg_det(ffi.NULL, sign.t, logabs.t, a.t))
    return sign, logabs


def cholesky(a, upper=False):
    _need("cholesky", a, square=True)
    out = Core.empty(a.shape, a.dtype)
    check(lib.st_linalg_cholesky(out.t, a.t, 1 if upper else 0))
    return out


def qr(a, complete=False):
    _need("qr", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    q = Core.empty(a.shape[:-2] + (m, m if complete else k), a.dtype)
    r = Core.empty(a.shape[:-2] + (m if complete else k, n), a.dtype)
    check(lib.st_linalg_qr(q.t, r.t, a.t, 1 if complete else 0))
    return q, r


def svd(a, full_matrices=True, compute_uv=True):
    """(U, S, Vh), or S alone when compute_uv is false."""
    _need("svd" if compute_uv else "svdvals", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    s = Core.empty(batch + (k,), real_dtype(a.dtype))
    if not compute_uv:
        check(lib.st_linalg_svd(ffi.NULL, s.t, ffi.NULL, a.t, 0))
        return s
    u = Core.empty(batch + (m, m if full_matrices else k), a.dtype)
    vh = Core.empty(batch + (n if full_matrices else k, n), a.dtype)
    check(lib.st_linalg_svd(u.t, s.t, vh.t, a.t, 1 if full_matrices else 0))
    return u, s, vh


def eigh(a, vectors=True):
    """(ascending real eigenvalues, eigenvectors) of Hermitian matrices
    (their lower triangle is read); eigenvalues alone without vectors."""
    _need("eigh" if vectors else "eigvalsh", a, square=True)
    w = Core.empty(a.shape[:-1], real_dtype(a.dtype))
    if not vectors:
        check(lib.st_linalg_eigh(w.t, ffi.NULL, a.t))
        return w
    v = Core.empty(a.shape, a.dtype)
    check(lib.st_linalg_eigh(w.t, v.t, a.t))
    return w, v


def eig(a, vectors=True):
    """(complex eigenvalues, complex eigenvectors) of general matrices."""
    _need("eig" if vectors else "eigvals", a, square=True)
    cdt = complex_dtype(a.dtype)
    w = Core.empty(a.shape[:-1], cdt)
    if not vectors:
        check(lib.st_linalg_eig(w.t, ffi.NULL, a.t))
        return w
    v = Core.empty(a.shape, cdt)
    check(lib.st_linalg_eig(w.t, v.t, a.t))
    return w, v


def addmm(out, a, b, alpha=1, beta=0):
    """out = alpha (a @ b) + beta out, in place (a, b at least 2-D, batch
    dims broadcast to out's, one dtype); beta == 0 ignores out's values."""
    if a.dtype is not out.dtype or b.dtype is not out.dtype:
        raise TypeError(
            f"addmm needs one dtype, got {out.dtype.name}, {a.dtype.name} and {b.dtype.name}"
        )
    check(
        lib.st_addmm(
            out.t, a.t, b.t, scalar_buffer(alpha, out.dtype), scalar_buffer(beta, out.dtype)
        )
    )
    return out


# ---- LAPACK routines as Torch7 calls them --------------------------------------
# Torch7's LAPACK functions (maths.md, "Eigenvalues, SVD, Linear System
# Solution"), named after the TH routine behind each (torch.eig is geev,
# torch.symeig syev, torch.svd gesvd, torch.inverse getri, torch.qr
# geqrf_orgqr; TORCH7 below maps Lua's names).  Arguments in Lua's order
# with Lua's defaults and LAPACK's character options; results with Lua's
# values, shapes and strides (TH returns most in LAPACK's column-major
# layout, strides (1, rows), which these reproduce per matrix: see
# docs/linalg.md for each; gels's X and qr's Q of a wide matrix are views of
# the first rows or columns of TH's bigger block).  Differences from Lua:
# pivots are 0-based; with jobz/jobvr 'N' the vectors are None
# (Lua returns an empty tensor for eig and syev's scratch for symeig);
# float32 and float64 only, as TH.  Stacks (..., m, n) work too (Lua's
# functions take matrices only): batch dims broadcast between operands; a
# 1-D right-hand side is a column (n, 1), as in Lua, for a single matrix.
_T7_DTYPES = ("float32", "float64")


def _t7_need(name, what, a, square=False):
    if a.dtype.name not in _T7_DTYPES:
        raise TypeError(f"{name}: {what} must be float32 or float64, got {a.dtype.name}")
    if a.ndim < 2:
        raise ValueError(
            f"{name}: {what} must be a matrix or a stack of matrices, got shape {a.shape}"
        )
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: {what} must be square, got shape {a.shape}")


def _t7_option(name, what, value, allowed):
    """A character option, one of `allowed` ('U' or 'L', ...), as the byte
    LAPACK takes.  (Lua reads only an option's first character, so its
    'Upper' is 'U': the face passes that character.)"""
    if not (isinstance(value, str) and len(value) == 1 and value in allowed):
        raise ValueError(f"{name}: {what} must be {' or '.join(map(repr, allowed))}, got {value!r}")
    return value.encode()


def _t7_rhs(name, b, a):
    """b as the matrix stack of a system with matrix a: a 1-D b is a column
    (Lua's rule), then both stacks broadcast."""
    if b.dtype is not a.dtype:
        raise TypeError(f"{name}: B must have A's dtype {a.dtype.name}, got {b.dtype.name}")
    if b.ndim == 1:
        b = unsqueeze(b, 1)
    _t7_need(name, "B", b)
    return _broadcast_stacks(name, (a, 2), (b, 2))


def _colmajor(batch, rows, cols, dt):
    """A new (*batch, rows, cols) Core whose matrices are column-major,
    strides (1, rows) (TH's LAPACK results)."""
    return transpose(Core.empty(batch + (cols, rows), dt), -1, -2)


def gesv(b, a):
    """torch.gesv(B, A): (X, LU), A X = B; LU = A's LU factors (getrf's, L
    unit lower, the row pivots not returned, as in Lua).  Both column-major.
    Singular A: ValueError naming U's zero pivot."""
    _t7_need("gesv", "A", a, square=True)
    batch, (a, b) = _t7_rhs("gesv", b, a)
    n, k = a.shape[-1], b.shape[-1]
    x, lu = _colmajor(batch, n, k, a.dtype), _colmajor(batch, n, n, a.dtype)
    check(lib.st_linalg_gesv(x.t, lu.t, a.t, b.t))
    return x, lu


def trtrs(b, a, uplo="U", trans="N", diag="N"):
    """torch.trtrs(B, A, uplo, trans, diag): (X, A's copy), op(A) X = B with
    A triangular (only its uplo triangle read; diag 'U': ones on it); both
    column-major, as Lua returns them.  A zero on A's diagonal: ValueError."""
    opts = (
        _t7_option("trtrs", "uplo", uplo, "UL"),
        _t7_option("trtrs", "trans", trans, "NT"),
        _t7_option("trtrs", "diag", diag, "NU"),
    )
    _t7_need("trtrs", "A", a, square=True)
    batch, (a, b) = _t7_rhs("trtrs", b, a)
    n, k = a.shape[-1], b.shape[-1]
    x, ra = _colmajor(batch, n, k, a.dtype), _colmajor(batch, n, n, a.dtype)
    check(lib.st_linalg_trtrs(x.t, a.t, b.t, *opts))
    return x, copy_(ra, a)


def gels(b, a):
    """torch.gels(B, A): (X, QR) for A (m, n) of full rank: X (n, k) the
    least-squares (m >= n) or minimum-norm (m < n) solution.  As in Lua X is
    a view of the first n rows of gels's max(m, n) x k column-major B,
    strides (1, max(m, n)); for m > n the rows below (in its storage, reach
    them with narrow on a view of the whole) hold the residuals' parts.  QR
    = gels's factorization of A (column-major).  A zero diagonal element of
    its triangular factor (rank deficient): ValueError."""
    _t7_need("gels", "A", a)
    batch, (a, b) = _t7_rhs("gels", b, a)
    m, n, k = a.shape[-2], a.shape[-1], b.shape[-1]
    x, qr = _colmajor(batch, max(m, n), k, a.dtype), _colmajor(batch, m, n, a.dtype)
    check(lib.st_linalg_gels(x.t, qr.t, a.t, b.t))
    return narrow(x, -2, 0, n), qr


def potrf(a, uplo="U"):
    """torch.potrf(A, uplo): the Cholesky factor of A's uplo triangle (U with
    A = U^T U, or L with A = L L^T), zeros in the other; column-major.  Not
    positive definite: ValueError naming the leading minor."""
    opt = _t7_option("potrf", "uplo", uplo, "UL")
    _t7_need("potrf", "A", a, square=True)
    out = _colmajor(a.shape[:-2], a.shape[-1], a.shape[-1], a.dtype)
    check(lib.st_linalg_potrf(out.t, a.t, opt))
    return out


def potrs(b, chol, uplo="U"):
    """torch.potrs(B, chol, uplo): X with A X = B from A's Cholesky factor
    chol (its uplo triangle read); column-major."""
    opt = _t7_option("potrs", "uplo", uplo, "UL")
    _t7_need("potrs", "chol", chol, square=True)
    batch, (chol, b) = _t7_rhs("potrs", b, chol)
    x = _colmajor(batch, chol.shape[-1], b.shape[-1], chol.dtype)
    check(lib.st_linalg_potrs(x.t, chol.t, b.t, opt))
    return x


def potri(chol, uplo="U"):
    """torch.potri(chol, uplo): A^-1 (both triangles) from A's Cholesky factor
    chol (its uplo triangle read); column-major.  A zero on chol's diagonal:
    ValueError."""
    opt = _t7_option("potri", "uplo", uplo, "UL")
    _t7_need("potri", "chol", chol, square=True)
    out = _colmajor(chol.shape[:-2], chol.shape[-1], chol.shape[-1], chol.dtype)
    check(lib.st_linalg_potri(out.t, chol.t, opt))
    return out


def pstrf(a, uplo="U", tol=-1.0):
    """torch.pstrf(A, uplo, tol): (factor, piv), P^T A P = U^T U ('U') or L
    L^T ('L') with P[piv[k], k] = 1.  The factor column-major with zeros in
    its other triangle; piv int32 (Lua: an IntTensor), 0-BASED here (Lua's
    are 1-based: add 1).  tol < 0: LAPACK's default.  A rank below n (a
    semidefinite or indefinite A): ValueError, as Lua raises."""
    opt = _t7_option("pstrf", "uplo", uplo, "UL")
    _t7_need("pstrf", "A", a, square=True)
    n = a.shape[-1]
    out, piv = _colmajor(a.shape[:-2], n, n, a.dtype), Core.empty(a.shape[:-1], "int32")
    check(lib.st_linalg_pstrf(out.t, piv.t, a.t, opt, float(tol)))
    return out, piv


def geqrf_orgqr(a):
    """torch.qr(A): (Q, R), the reduced factorization (k = min(m, n)): Q (m,
    k) column-major, R (k, n) row-major (contiguous), as Lua (TH's qr is
    geqrf, then orgqr; Q of a wide matrix is the first m columns of an m x n
    column-major block, as TH's)."""
    _t7_need("qr", "A", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    q = narrow(_colmajor(a.shape[:-2], m, n, a.dtype), -1, 0, k)  # TH's m x n block
    r = Core.empty(a.shape[:-2] + (k, n), a.dtype)
    check(lib.st_linalg_qr(q.t, r.t, a.t, 0))
    return q, r


def geqrf(a):
    """torch.geqrf(A): (QR, tau): R on and above QR's diagonal, the
    reflectors below (column-major), tau (min(m, n),)."""
    _t7_need("geqrf", "A", a)
    m, n = a.shape[-2:]
    qr, tau = (
        _colmajor(a.shape[:-2], m, n, a.dtype),
        Core.empty(a.shape[:-2] + (min(m, n),), a.dtype),
    )
    check(lib.st_linalg_geqrf(qr.t, tau.t, a.t))
    return qr, tau


def orgqr(a, tau):
    """torch.orgqr(QR, tau): A (m, n) with its first k = len(tau) columns
    replaced by Q's (k <= min(m, n)); the others stay A's, as in Lua (for a
    tall geqrf result that is all of Q's n columns).  Column-major."""
    _t7_need("orgqr", "A", a)
    _, (a, tau) = _broadcast_stacks("orgqr", (a, 2), (tau, 1))
    q = _colmajor(a.shape[:-2], a.shape[-2], a.shape[-1], a.dtype)
    check(lib.st_linalg_orgqr(q.t, a.t, tau.t))
    return q


def ormqr(a, tau, c, side="L", trans="N"):
    """torch.ormqr(QR, tau, C, side, trans): op(Q) C (side 'L') or C op(Q)
    (side 'R'), op(Q) = Q or Q^T ('T'), Q from the reflectors of a geqrf
    result QR (m rows for 'L', n for 'R', C being m x n) and tau: LAPACK's
    meaning of side (maths.md has 'L' and 'R' the other way round: Lua does
    what LAPACK does).  Column-major."""
    opts = (_t7_option("ormqr", "side", side, "LR"), _t7_option("ormqr", "trans", trans, "NT"))
    _t7_need("ormqr", "A", a)
    _t7_need("ormqr", "C", c)
    batch, (a, tau, c) = _broadcast_stacks("ormqr", (a, 2), (tau, 1), (c, 2))
    out = _colmajor(batch, c.shape[-2], c.shape[-1], c.dtype)
    check(lib.st_linalg_ormqr(out.t, a.t, tau.t, c.t, *opts))
    return out


def geev(a, jobvr="N"):
    """torch.eig(A, jobvr): (e, V).  e (n, 2), contiguous: row j = (real,
    imaginary) part of eigenvalue j, LAPACK's order (a conjugate pair
    adjacent, positive imaginary part first).  V (n, n) column-major, with
    jobvr 'V', as LAPACK packs it: column j is the unit eigenvector of a real
    eigenvalue j; for a pair j, j + 1 columns j and j + 1 are the real and
    imaginary parts of eigenvalue j's vector (j + 1's is its conjugate).
    jobvr 'N': V is None (Lua: an empty tensor).  inf or NaN in A:
    ValueError (Lua's LAPACK reports an illegal argument)."""
    vectors = _t7_option("eig", "jobvr", jobvr, "NV") == b"V"
    _t7_need("eig", "A", a, square=True)
    n = a.shape[-1]
    e = Core.empty(a.shape[:-1] + (2,), a.dtype)
    v = _colmajor(a.shape[:-2], n, n, a.dtype) if vectors else None
    check(lib.st_linalg_geev(e.t, v.t if vectors else ffi.NULL, a.t))
    return e, v


def syev(a, jobz="N", uplo="U"):
    """torch.symeig(A, jobz, uplo): (e, V), e ascending, V's columns the
    eigenvectors (column-major), A's uplo triangle read.  jobz 'N': V is
    A's copy as LAPACK left it (its scratch), as Lua returns it.  inf or NaN
    in that triangle: ValueError."""
    job = _t7_option("symeig", "jobz", jobz, "NV")
    opt = _t7_option("symeig", "uplo", uplo, "UL")
    _t7_need("symeig", "A", a, square=True)
    n = a.shape[-1]
    e = Core.empty(a.shape[:-1], a.dtype)
    v = _colmajor(a.shape[:-2], n, n, a.dtype)
    check(lib.st_linalg_syev(e.t, v.t, a.t, job, opt))
    return e, v


def gesvd(a, jobu="S"):
    """torch.svd(A, jobu): (U, S, V) with A = U diag(S) V^T (V, not V^T, as
    Lua), k = min(m, n).  jobu 'S': U (m, k), V (n, k); 'A': U (m, m), V (n,
    n).  U column-major, V row-major (contiguous), S (k,) descending.
    LAPACK's gesvd (not gesdd, so the signs are Lua's).  inf or NaN in A:
    ValueError."""
    job = _t7_option("svd", "jobu", jobu, "SA")
    _t7_need("svd", "A", a)
    m, n = a.shape[-2:]
    k, batch = min(m, n), a.shape[:-2]
    u = _colmajor(batch, m, m if job == b"A" else k, a.dtype)
    s = Core.empty(batch + (k,), a.dtype)
    v = Core.empty(batch + (n, n if job == b"A" else k), a.dtype)
    check(lib.st_linalg_gesvd(u.t, s.t, transpose(v, -1, -2).t, a.t, job))
    return u, s, v


def getri(a):
    """torch.inverse(A): A^-1 from getrf and getri, as TH (not gesv: the last
    bits and the signs of zeros may differ from inv); column-major.
    Singular: ValueError naming U's zero pivot."""
    _t7_need("inverse", "A", a, square=True)
    out = _colmajor(a.shape[:-2], a.shape[-1], a.shape[-1], a.dtype)
    check(lib.st_linalg_getri(out.t, a.t))
    return out


# Lua's torch.<name> -> the function here
TORCH7 = {
    "gesv": gesv,
    "trtrs": trtrs,
    "gels": gels,
    "potrf": potrf,
    "potrs": potrs,
    "potri": potri,
    "pstrf": pstrf,
    "qr": geqrf_orgqr,
    "geqrf": geqrf,
    "orgqr": orgqr,
    "ormqr": ormqr,
    "eig": geev,
    "symeig": syev,
    "svd": gesvd,
    "inverse": getri,
}


__all__ = [
    "inv",
    "solve",
    "det",
    "slogdet",
    "cholesky",
    "qr",
    "svd",
    "eigh",
    "eig",
    "addmm",
    "real_dtype",
    "complex_dtype",
    "common_dtype",
    "gesv",
    "trtrs",
    "gels",
    "potrf",
    "potrs",
    "potri",
    "pstrf",
    "geqrf_orgqr",
    "geqrf",
    "orgqr",
    "ormqr",
    "geev",
    "syev",
    "gesvd",
    "getri",
    "TORCH7",
]

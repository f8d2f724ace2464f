"""LAPACK over Cores (strided/_c/linalg.c): output allocation, one C call
each.  0-based, no promotion: every function takes Cores of a floating
dtype (float32, float64, complex64, complex128), and the C side checks
shapes and dtypes again before touching memory.  Stacks: the leading dims
are the batch; `solve` broadcasts its two batches here (expanded views,
zero strides, no copy)."""
from __future__ import annotations

from .._c._strided import ffi, lib
from .base import Core, check, dtype, scalar_buffer
from .ops import broadcast_shapes, common_dtype
from .views import expand

_REAL = {"float32": "float32", "float64": "float64", "complex64": "float32",
         "complex128": "float64"}
_COMPLEX = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
            "complex128": "complex128"}


def real_dtype(dt):
    """The real dtype of a floating dtype's precision."""
    return dtype(_REAL[dtype(dt).name])


def complex_dtype(dt):
    return dtype(_COMPLEX[dtype(dt).name])


def _need(name, a, square=False):
    if a.dtype.name not in _REAL:
        raise TypeError(f"{name} needs a floating-point dtype (float32, float64, complex64, "
                        f"complex128), got {a.dtype.name}")
    if a.ndim < 2:
        raise ValueError(f"{name} needs a matrix or a stack of matrices (at least 2 "
                         f"dimensions), got shape {a.shape}")
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name} needs square matrices (..., M, M), got shape {a.shape}")


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
        raise TypeError(f"solve needs operands of one dtype, got {a.dtype.name} and "
                        f"{b.dtype.name}")
    n = a.shape[-1]
    if b.shape[-2] != n:
        raise ValueError(f"solve: x1 has shape {a.shape} but x2 has shape {b.shape}: x2 needs "
                         f"{n} rows")
    try:
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(f"solve: the stack dims of shapes {a.shape} and {b.shape} do not "
                         f"broadcast") from None
    a = expand(a, batch + a.shape[-2:]) if a.shape[:-2] != batch else a
    b = expand(b, batch + b.shape[-2:]) if b.shape[:-2] != batch else b
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
        raise TypeError(f"addmm needs one dtype, got {out.dtype.name}, {a.dtype.name} and "
                        f"{b.dtype.name}")
    check(lib.st_addmm(out.t, a.t, b.t, scalar_buffer(alpha, out.dtype),
                       scalar_buffer(beta, out.dtype)))
    return out


__all__ = ["inv", "solve", "det", "slogdet", "cholesky", "qr", "svd", "eigh", "eig", "addmm",
           "real_dtype", "complex_dtype", "common_dtype"]

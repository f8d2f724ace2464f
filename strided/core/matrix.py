"""Torch7's cross, diag, tril, triu and trace over Cores (matrix.c for
cross and tril/triu; diag and trace are views of the diagonal)."""

from __future__ import annotations

from .._c._strided import lib
from .args import need_core, need_dim, need_dtype, need_int, out_core
from .base import astype, check, fill_, float64, item
from .ops import reduce


def cross(a, b, dim=None, out=None):
    """The cross product of a and b (one shape, one integer, float or
    complex dtype) along dim, which must have size 3; dim=None takes the first dim of size
    3 (Torch7's rule).  out may be a or b itself."""
    name = "cross"
    need_core(a, name, "a")
    need_core(b, name, "b")
    need_dtype(a, "iufc", name, "a", "an integer, floating or complex tensor")
    if b.dtype is not a.dtype:
        raise TypeError(f"{name}: b is {b.dtype.name} but a is {a.dtype.name}")
    if a.shape != b.shape:
        raise ValueError(f"{name}: a has shape {a.shape} but b has shape {b.shape}")
    if dim is None:
        dim = next((d for d, n in enumerate(a.shape) if n == 3), None)
        if dim is None:
            raise ValueError(f"{name}: no dim of size 3 in a (shape {a.shape})")
    else:
        if a.ndim == 0:
            raise ValueError(f"{name}: a must have a dim of size 3, it is 0-d")
        dim = need_dim(dim, a, name)
        if a.shape[dim] != 3:
            raise ValueError(f"{name}: dim {dim} has size {a.shape[dim]}, not 3")
    out = out_core(out, a.shape, a.dtype, name)
    check(lib.st_cross(out.t, a.t, b.t, dim))
    return out


def diagonal(c, k=0):
    """The k-th diagonal (k > 0 above the main one) of each matrix of a Core
    of at least 2 dims (its last two), as a view: the matrix dims replaced
    by one of the diagonal's length (0 when k is beyond the matrix)."""
    rows, cols = c.shape[-2:]
    s0, s1 = c.strides[-2:]
    n = max(min(rows, cols - k) if k >= 0 else min(rows + k, cols), 0)
    offset = c.offset + ((k * s1 if k >= 0 else -k * s0) if n else 0)
    return c.view(offset, c.shape[:-2] + (n,), c.strides[:-2] + (s0 + s1,))


def diag_shape(x, k=0):
    """The shape of diag(x, k) (ValueError unless x is 1-D or 2-D)."""
    if x.ndim == 1:
        side = x.shape[0] + abs(k)
        return (side, side)
    if x.ndim != 2:
        raise ValueError(f"diag: x must be 1-D or 2-D, got {x.ndim} dims (shape {x.shape})")
    return diagonal(x, k).shape


def diag(x, k=0, out=None):
    """Torch7's diag: for a 1-D x, the square matrix of side len(x) + |k|
    with x on its k-th diagonal (k > 0 above the main one) and zeros
    elsewhere; for a 2-D x, a copy of its k-th diagonal (empty when k is
    beyond the matrix)."""
    name = "diag"
    need_core(x, name, "x")
    k = need_int(k, name, "k")
    if x.ndim == 1:
        side = x.shape[0] + abs(k)
        out = out_core(out, (side, side), x.dtype, name)
        fill_(out, 0)
        check(lib.st_copy(diagonal(out, k).t, x.t))
        return out
    if x.ndim != 2:
        raise ValueError(f"{name}: x must be 1-D or 2-D, got {x.ndim} dims (shape {x.shape})")
    d = diagonal(x, k)
    out = out_core(out, d.shape, x.dtype, name)
    check(lib.st_copy(out.t, d.t))
    return out


def _tri(x, k, out, upper):
    name = "triu" if upper else "tril"
    need_core(x, name, "x")
    k = need_int(k, name, "k")
    if x.ndim < 2:
        raise ValueError(f"{name}: x must have at least 2 dims, got {x.ndim}")
    bound = x.shape[-1] + x.shape[-2] + 1  # any k beyond keeps or drops everything
    k = max(-bound, min(bound, k))
    out = out_core(out, x.shape, x.dtype, name)
    check(lib.st_tri(out.t, x.t, k, bool(upper)))
    return out


def tril(x, k=0, out=None):
    """x with the elements above its k-th diagonal zeroed (the last two
    dims are the matrices; any dtype).  out may be x itself."""
    return _tri(x, k, out, False)


def triu(x, k=0, out=None):
    """x with the elements below its k-th diagonal zeroed."""
    return _tri(x, k, out, True)


def spaced(out, a, b, log=False):
    """Fill out (float32 or float64, any shape; n its element count, C
    order) with Torch7's linspace from a to b, a + i*(b-a)/(n-1) computed
    in out's type (n = 1: a); log: logspace, 10 to those powers (libm's
    scalar pow), as Lua Torch7 to the bit."""
    need_core(out, "logspace" if log else "linspace", "out")
    check(lib.st_spaced(out.t, float(a), float(b), bool(log)))
    return out


def trace(x):
    """The sum of the main diagonal of a 2-D x, a Python number: integers
    sum in int64 (uint64), floats in float64 (Torch7's accreal)."""
    name = "trace"
    need_core(x, name, "x")
    need_dtype(x, "biuf", name, "x", "a boolean, integer or floating tensor")
    if x.ndim != 2:
        raise ValueError(f"{name}: x must be 2-D, got {x.ndim} dims (shape {x.shape})")
    d = diagonal(x, 0)
    if x.dtype.kind == "f":
        d = astype(d, float64)
    return item(reduce("sum", d))

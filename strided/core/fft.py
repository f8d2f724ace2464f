"""Discrete Fourier transforms over Cores (fft.c): output allocation and
one C call per transformed dim.  0-based, no conventions: the array API's
`fft` extension (compat/fft.py) builds on these.

`forward` picks the sign of the exponent (exp(-2 pi i jk/n) when true),
`scale` multiplies the result (the normalisation, applied in C)."""

from __future__ import annotations

import math
import operator

from .._c._strided import lib
from .base import Core, check, complex64, complex128, float32, float64
from .views import normalize_dim

COMPLEX_OF = {float32: complex64, float64: complex128}
REAL_OF = {complex64: float32, complex128: float64}
NORMS = ("backward", "ortho", "forward")


def scale_for(norm, n, forward):
    """The factor a transform of n points gets under `norm` ("backward":
    the inverse divides by n, "forward": the forward does, "ortho": both
    divide by sqrt(n))."""
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {', '.join(map(repr, NORMS))}, got {norm!r}")
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (norm == "forward") == forward else 1.0


def length(n, what="n"):
    """A transform length: an integer >= 1."""
    if isinstance(n, bool):
        raise TypeError(f"{what} must be an integer, got a bool")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(n).__name__}") from None
    if n < 1:
        raise ValueError(f"invalid number of data points {n}: {what} must be >= 1")
    return n


def _with_len(shape, dim, n):
    shape = list(shape)
    shape[dim] = n
    return shape


def c2c(a, dim, n, forward, scale):
    """The complex transform of Core a along dim, n points (a's length
    along dim cropped or zero-padded to n)."""
    if a.dtype not in REAL_OF:
        raise TypeError(f"expected a complex64 or complex128 array, got {a.dtype.name}")
    dim = normalize_dim(dim, a.ndim, "axis")
    out = Core.empty(_with_len(a.shape, dim, length(n)), a.dtype)
    check(lib.st_fft_c2c(out.t, a.t, dim, bool(forward), scale))
    return out


def r2c(a, dim, n, forward, scale):
    """The half spectrum (k = 0 .. n//2) of real Core a along dim."""
    if a.dtype not in COMPLEX_OF:
        raise TypeError(f"expected a float32 or float64 array, got {a.dtype.name}")
    dim = normalize_dim(dim, a.ndim, "axis")
    n = length(n)
    out = Core.empty(_with_len(a.shape, dim, n // 2 + 1), COMPLEX_OF[a.dtype])
    check(lib.st_fft_r2c(out.t, a.t, dim, n, bool(forward), scale))
    return out


def c2r(a, dim, n, forward, scale):
    """The n real points whose half spectrum is Core a along dim (its first
    n//2 + 1 elements, zero-padded; the other half is their mirror)."""
    if a.dtype not in REAL_OF:
        raise TypeError(f"expected a complex64 or complex128 array, got {a.dtype.name}")
    dim = normalize_dim(dim, a.ndim, "axis")
    out = Core.empty(_with_len(a.shape, dim, length(n)), REAL_OF[a.dtype])
    check(lib.st_fft_c2r(out.t, a.t, dim, bool(forward), scale))
    return out


def clear_cache():
    """Drop the cached plans (twiddles, chirps)."""
    lib.st_fft_clear_cache()

"""Torch7's histc and bhistc over Cores (histogram.c).

The bin of x is Torch7's min(int((x - lo) / (hi - lo) * nbins), nbins - 1),
computed in x's precision for floats; x == hi goes in the last bin, values
outside [lo, hi] and NaN are not counted.  lo == hi (the default 0, 0)
takes the data's min and max (data with a NaN then counts nothing, as in
Torch7); a single value is widened to [v - 1, v + 1]."""

from __future__ import annotations

from .._c._strided import lib
from .args import need_core, need_dtype, need_float, need_int, out_core
from .base import check, int64


def _setup(x, nbins, lo, hi, name):
    need_core(x, name, "x")
    need_dtype(x, "iuf", name, "x", "an integer or floating tensor")
    nbins = need_int(nbins, name, "nbins")
    if nbins < 1:
        raise ValueError(f"{name}: nbins must be >= 1, got {nbins}")
    return nbins, need_float(lo, name, "lo", finite=True), need_float(hi, name, "hi", finite=True)


def _out(out, shape, x, name):
    out = out_core(
        out, shape, None if out is not None else (x.dtype if x.dtype.kind == "f" else int64), name
    )
    need_dtype(out, "iuf", name, "out", "an integer or floating tensor")
    return out


def histc(x, nbins=100, lo=0.0, hi=0.0, out=None):
    """The histogram of all of x's elements (integer or float, any shape) in
    nbins equal bins over [lo, hi]: a 1-D Core of nbins counts, of x's dtype
    for floats (Torch7's) and int64 for integers; out= may be any integer or
    float Core of shape (nbins,)."""
    name = "histc"
    nbins, lo, hi = _setup(x, nbins, lo, hi, name)
    out = _out(out, (nbins,), x, name)
    check(lib.st_histc(out.t, x.t, lo, hi))
    return out


def bhistc(x, nbins=100, lo=0.0, hi=0.0, out=None):
    """histc of every row of a 2-D x: (rows, nbins).  lo == hi takes the
    min and max of all of x (one range for every row, as Torch7)."""
    name = "bhistc"
    nbins, lo, hi = _setup(x, nbins, lo, hi, name)
    if x.ndim != 2:
        raise ValueError(f"{name}: x must be 2-D, got {x.ndim} dims (shape {x.shape})")
    out = _out(out, (x.shape[0], nbins), x, name)
    check(lib.st_bhistc(out.t, x.t, lo, hi))
    return out

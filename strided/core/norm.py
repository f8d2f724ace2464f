"""Norms over Cores (norm.c): Torch7's norm, dist and renorm.

The p-norm of values x: p = 0 counts the nonzeros, p = inf is max |x|,
p = -inf min |x|, otherwise (sum |x|^p)^(1/p); computed in double.  NaN
in x gives NaN (but for p = 0, where it counts as nonzero).  Torch7's own
formula gives other answers for p = inf (1) and for dist with p = 0: see
docs/core-semantics.md."""

from __future__ import annotations

from .._c._strided import ffi, lib
from .args import need_core, need_dim, need_dtype, need_float, out_core
from .base import check, float32, float64
from .views import view_as_shape


def _x(x, name, what="x"):
    need_core(x, name, what)
    need_dtype(x, "iuf", name, what, "an integer or floating tensor")
    return x


def norm(x, p=2.0, dim=None, keepdims=False, out=None):
    """The p-norm of all of x (dim=None: a Python float, as Torch7's
    normall), or of every lane along dim: a Core of x's shape without dim
    (keepdims: size 1 there), float32 for float32 x and float64 otherwise."""
    name = "norm"
    _x(x, name)
    p = need_float(p, name, "p")
    if dim is None:
        if out is not None:
            raise TypeError(f"{name}: out= needs a dim")
        r = ffi.new("double *")
        check(lib.st_norm_all(x.t, ffi.NULL, p, r))
        return r[0]
    dim = need_dim(dim, x, name)
    keep = tuple(1 if d == dim else s for d, s in enumerate(x.shape))
    shape = keep if keepdims or x.ndim == 0 else keep[:dim] + keep[dim + 1 :]
    res = float32 if x.dtype is float32 else float64
    o = out_core(out, shape, res, name)
    ok = o if shape == keep else o.view(o.offset, keep, o.strides[:dim] + (0,) + o.strides[dim:])
    check(lib.st_norm(ok.t, x.t, p, dim))
    return o


def dist(a, b, p=2.0):
    """The p-norm of a - b (a Python float).  a and b have one dtype and
    the same number of elements; they are paired in C order (Torch7's
    rule: the shapes need not match)."""
    name = "dist"
    _x(a, name, "a")
    _x(b, name, "b")
    if a.dtype is not b.dtype:
        raise TypeError(f"{name}: b is {b.dtype.name} but a is {a.dtype.name}")
    if a.size != b.size:
        raise ValueError(
            f"{name}: a has {a.size} elements (shape {a.shape}) but b has "
            f"{b.size} (shape {b.shape})"
        )
    p = need_float(p, name, "p")
    if b.shape != a.shape:
        from .setops import flatten

        b = view_as_shape(flatten(b), a.shape)
    r = ffi.new("double *")
    check(lib.st_norm_all(a.t, b.t, p, r))
    return r[0]


def renorm(x, p, dim, maxnorm, out=None):
    """x with every x.select(dim, i) whose p-norm exceeds maxnorm scaled
    by maxnorm / (norm + 1e-7) (Torch7's renorm; the others unchanged).
    Float x, p > 0; out=x renormalises in place."""
    name = "renorm"
    need_core(x, name, "x")
    need_dtype(x, "f", name, "x", "float32 or float64")
    p = need_float(p, name, "p")
    if not p > 0:
        raise ValueError(f"{name}: p must be > 0, got {p}")
    if x.ndim == 0:
        raise ValueError(f"{name}: x must have at least one dim")
    dim = need_dim(dim, x, name)
    maxnorm = need_float(maxnorm, name, "maxnorm", allow_nan=True)
    out = out_core(out, x.shape, x.dtype, name)
    check(lib.st_renorm(out.t, x.t, p, dim, maxnorm))
    return out

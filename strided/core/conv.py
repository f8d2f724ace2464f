"""Torch7's conv2, xcorr2, conv3, xcorr3 over Cores (conv.c), stride 1.

mode 'V' (valid: where the kernel fits, size i - k + 1) or 'F' (full:
every overlap, size i + k - 1); conv flips the kernel (true convolution),
xcorr does not (cross-correlation).  The forms Torch7 accepts, by the
number of dims of x and k (D = 2 for conv2/xcorr2, 3 for conv3/xcorr3):
    x (s...),     k (t...)        -> (o...)
    x (P, s...),  k (P, t...)     -> (P, o...)    plane p with kernel p
    x (P, s...),  k (Q, P, t...)  -> (Q, o...)    out[q] = sum over p of x[p] with k[q, p]
Integer and float dtypes (x, k and out of one dtype); integers wrap as
Torch7's do."""

from __future__ import annotations

from .._c._strided import lib
from .args import need_core, need_dtype, out_core
from .base import check


def _shape(x, k, nd, full, name):
    forms = {(nd, nd): 0, (nd + 1, nd + 1): 1, (nd + 1, nd + 2): 2}
    form = forms.get((x.ndim, k.ndim))
    if form is None:
        raise ValueError(
            f"{name}: x ({x.ndim}-D) and k ({k.ndim}-D) must be {nd}-D and {nd}-D, "
            f"{nd + 1}-D and {nd + 1}-D (plane by plane) or {nd + 1}-D and "
            f"{nd + 2}-D (planes in to planes out)"
        )
    if form == 1 and k.shape[0] != x.shape[0]:
        raise ValueError(f"{name}: k has {k.shape[0]} planes but x has {x.shape[0]}")
    if form == 2 and k.shape[1] != x.shape[0]:
        raise ValueError(
            f"{name}: k takes {k.shape[1]} input planes (its dim 1) but x has {x.shape[0]}"
        )
    spatial = []
    for d, (i, t) in enumerate(zip(x.shape[-nd:], k.shape[-nd:])):
        if not full and i < t:
            raise ValueError(
                f"{name}: x is smaller than k along spatial dim {d} ({i} < {t}) in valid mode"
            )
        spatial.append(max(i + t - 1, 0) if full else i - t + 1)
    return ((k.shape[0],) if form else ()) + tuple(spatial)


def out_shape(x, k, name, mode="V"):
    """The shape of conv2/xcorr2/conv3/xcorr3 (`name`) of x by k in mode
    'V' or 'F' (ValueError for sizes that do not fit)."""
    return _shape(x, k, int(name[-1]), mode == "F", name)


def _conv(x, k, mode, out, nd, xcorr):
    name = f"{'xcorr' if xcorr else 'conv'}{nd}"
    need_core(x, name, "x")
    need_core(k, name, "k")
    need_dtype(x, "iuf", name, "x", "an integer or floating tensor")
    if k.dtype is not x.dtype:
        raise TypeError(f"{name}: k is {k.dtype.name} but x is {x.dtype.name}")
    if mode not in ("V", "F"):
        raise ValueError(f"{name}: mode must be 'V' (valid) or 'F' (full), got {mode!r}")
    full = mode == "F"
    out = out_core(out, _shape(x, k, nd, full, name), x.dtype, name)
    check(lib.st_conv(out.t, x.t, k.t, nd, full, bool(xcorr)))
    return out


def conv2(x, k, mode="V", out=None):
    """2-D convolution of x with k (the kernel flipped)."""
    return _conv(x, k, mode, out, 2, False)


def xcorr2(x, k, mode="V", out=None):
    """2-D cross-correlation of x with k."""
    return _conv(x, k, mode, out, 2, True)


def conv3(x, k, mode="V", out=None):
    """3-D convolution of x with k (the kernel flipped)."""
    return _conv(x, k, mode, out, 3, False)


def xcorr3(x, k, mode="V", out=None):
    """3-D cross-correlation of x with k."""
    return _conv(x, k, mode, out, 3, True)

"""Selection along a dim over Cores (select.c): top-k, k-th value, median,
mode.  0-based: dims, positions and the rank k of kthvalue all count from 0.

The order is sort's (NaN after every number; "largest" is the reverse
among unequal values) and equal values keep their order along the dim, so
every answer, positions included, is that of the stable sort: topk is the
first k of the stable ascending (descending) sort, kthvalue(k) its element
k.  No lane is sorted whole (introselect, or one filtering pass for a small
k).  Each function returns (values, indices): values of x's dtype, indices
int64 positions along dim; out=(values, indices) writes into given Cores.

torch7=True (the Torch7 face): among equal values, the positions (and
unsorted topk's order) are those TH's own quickselect and quicksort give,
in every lane without a NaN (select.c), rather than the stable sort's."""

from __future__ import annotations

from .._c._strided import lib
from .args import need_core, need_dim, need_dtype, need_int, out_core, out_pair
from .base import check, int64
from .setops import flatten
from .views import view_as_shape


def _x(x, name):
    need_core(x, name, "x")
    need_dtype(x, "iuf", name, "x", "an integer or floating tensor")
    return x


def _outs(out, x, shape, name):
    v, i = out_pair(out, name)
    return out_core(v, shape, x.dtype, name, "values"), out_core(i, shape, int64, name, "indices")


def topk(x, k, dim=-1, largest=True, sorted=True, out=None, torch7=False):
    """The k largest (largest=False: smallest) elements of every lane of x
    along dim and their positions: Cores of x's shape with size k at dim.
    sorted: largest first (smallest first); else in no particular order.
    Ties go to the earlier position."""
    name = "topk"
    _x(x, name)
    dim = need_dim(dim, x, name)
    k = need_int(k, name, "k")
    n = x.shape[dim] if x.ndim else 1
    if not 0 <= k <= n:
        raise IndexError(f"{name}: k = {k} out of range [0, {n}] (dim {dim} has size {n})")
    if x.ndim == 0 and k != 1:
        raise IndexError(f"{name}: k must be 1 for a 0-d x, got {k}")
    shape = tuple(k if d == dim else s for d, s in enumerate(x.shape))
    values, indices = _outs(out, x, shape, name)
    check(lib.st_topk(values.t, indices.t, x.t, k, dim, bool(largest), bool(sorted), bool(torch7)))
    return values, indices


def _one_per_lane(fn, x, dim, keepdims, out, name, *args, torch7=False):
    """Run a (values, indices, x, *args, dim, th) kernel that answers one element per lane."""
    if dim is None:
        flat = flatten(x)
        vals, idx = _one_per_lane(fn, flat, 0, False, None, name, *args, torch7=torch7)
        if keepdims:
            ones = (1,) * x.ndim
            vals, idx = view_as_shape(vals, ones), view_as_shape(idx, ones)
        if out is not None:
            v, i = out_pair(out, name)
            v = out_core(v, vals.shape, x.dtype, name, "values")
            i = out_core(i, idx.shape, int64, name, "indices")
            check(lib.st_copy(v.t, vals.t))
            check(lib.st_copy(i.t, idx.t))
            return v, i
        return vals, idx
    dim = need_dim(dim, x, name)
    keep = tuple(1 if d == dim else s for d, s in enumerate(x.shape))
    shape = keep if keepdims or x.ndim == 0 else keep[:dim] + keep[dim + 1 :]
    v, i = _outs(out, x, shape, name)
    vk, ik = v, i
    if shape != keep:  # the C kernel writes the keepdim form: insert the dim
        vk = v.view(v.offset, keep, v.strides[:dim] + (0,) + v.strides[dim:])
        ik = i.view(i.offset, keep, i.strides[:dim] + (0,) + i.strides[dim:])
    check(fn(vk.t, ik.t, x.t, *args, dim, bool(torch7)))
    return v, i


def kthvalue(x, k, dim=-1, keepdims=False, out=None, torch7=False):
    """Element k (0-based rank: k = 0 is the smallest) of every lane's
    stable ascending sort, and its position along dim.  dim=None: of all
    of x flattened in C order (the position is the flat one).  Torch7's
    kthvalue(x, k) is kthvalue(x, k - 1) here."""
    name = "kthvalue"
    _x(x, name)
    k = need_int(k, name, "k")
    n = x.size if dim is None else (x.shape[need_dim(dim, x, name)] if x.ndim else 1)
    if not 0 <= k < n:
        raise IndexError(
            f"{name}: k = {k} out of range [0, {n})" + (" (empty lanes)" if n == 0 else "")
        )
    return _one_per_lane(lib.st_kthvalue, x, dim, keepdims, out, name, k, torch7=torch7)


def median(x, dim=-1, keepdims=False, out=None, torch7=False):
    """The lower median of every lane (for n values: rank (n - 1) // 2, so
    of an even count the smaller middle value, as Torch7), and its
    position; NaN counts as the largest value.  dim=None: of all of x."""
    name = "median"
    _x(x, name)
    n = x.size if dim is None else (x.shape[need_dim(dim, x, name)] if x.ndim else 1)
    if n == 0:
        raise ValueError(f"{name}: no median of an empty lane")
    return _one_per_lane(lib.st_kthvalue, x, dim, keepdims, out, name, (n - 1) // 2, torch7=torch7)


def mode(x, dim=-1, keepdims=False, out=None, torch7=False):
    """The most frequent value of every lane (the smallest of several; each
    NaN counts alone) and the position of its last occurrence."""
    name = "mode"
    _x(x, name)
    if dim is None:
        raise TypeError(f"{name}: dim must be an integer")
    dim = need_dim(dim, x, name)
    if x.ndim and x.shape[dim] == 0:
        raise ValueError(f"{name}: no mode of an empty lane (dim {dim} has size 0)")
    return _one_per_lane(lib.st_mode, x, dim, keepdims, out, name, torch7=torch7)

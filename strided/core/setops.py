"""Set functions and binary search over Cores (setops.c): argument checks,
output allocation, one C call each.  0-based.

unique: a stable sort of the flattened Core (values and positions), the
runs of equal values flagged and counted, then the outputs filled from
the runs; integers whose values span no more numbers than there are
elements (class labels) are counted instead, with the same results.
Equality is ==: every NaN is distinct, -0.0 equals +0.0 (the value kept
is the one that occurs first).  searchsorted and isin binary-
search a 1-D Core sorted in the order of sort (NaN last)."""

from __future__ import annotations

from .._c._strided import ffi, lib
from .args import need_core as _core
from .base import Core, bool_, check, contiguous, int64
from .views import view_as_shape


def flatten(c):
    """c as a 1-D Core in C order: a view when the strides allow it, else a copy."""
    flat = view_as_shape(c, (c.size,))
    return flat if flat is not None else view_as_shape(contiguous(c), (c.size,))


def _ptr(x):
    return x.t if x is not None else ffi.NULL


def _counted(flat, indices, inverse, counts):
    """unique's outputs for integers over a span no wider than their count
    (setops.c, st_unique_small_span: counted, not sorted, the same
    results), or None when C declines (another dtype, a wider span)."""
    values = Core.blank()
    first = Core.blank() if indices else None
    inv = Core.blank() if inverse else None
    cnt = Core.blank() if counts else None
    done = lib.st_unique_small_span(flat.t, values.t, _ptr(first), _ptr(inv), _ptr(cnt))
    if done < 0:
        check(lib.st_last_status() or lib.ST_E_MEMORY)
    return (values, first, inv, cnt) if done > 0 else None


def _sorted(flat, indices, inverse, counts):
    """unique's outputs from runs of equal values of a stable sort."""
    n = flat.size
    srt = Core.empty((n,), flat.dtype)
    perm = Core.empty((n,), int64) if indices or inverse else None
    # stable: within a run of equal values, positions ascend
    check(lib.st_sort(srt.t, _ptr(perm), flat.t, 0, 0, 0))
    starts = Core.empty((n,), bool_)
    nruns = ffi.new("int64_t *")
    check(lib.st_run_starts(starts.t, srt.t, nruns))
    k = nruns[0]
    values = Core.empty((k,), flat.dtype)
    first = Core.empty((k,), int64) if indices else None
    cnt = Core.empty((k,), int64) if counts else None
    inv = Core.empty((n,), int64) if inverse else None
    check(
        lib.st_unique_fill(values.t, _ptr(first), _ptr(cnt), _ptr(inv), srt.t, _ptr(perm), starts.t)
    )
    return values, first, inv, cnt


def unique(c, indices=False, inverse=False, counts=False):
    """The distinct values of c (flattened), ascending (NaN last, each NaN
    its own value), and on request: the position in flattened c of each
    value's first occurrence, the int64 array of c's shape giving each
    element's value number, and each value's count.  Returns
    (values, indices, inverse, counts), None where not requested."""
    flat = flatten(_core(c, "unique", "c"))
    found = _counted(flat, indices, inverse, counts) if flat.dtype.kind in "iu" else None
    values, first, inv, cnt = found or _sorted(flat, indices, inverse, counts)
    if inv is not None:
        inv = view_as_shape(inv, c.shape)
    return values, first, inv, cnt


def searchsorted(sorted_, needles, right=False, sorter=None):
    """int64 Core of needles' shape: for each needle v, the number of
    elements of the ascending 1-D `sorted_` before v (right: not after v),
    in the order of sort.  sorter: int64 1-D positions that sort `sorted_`
    (each checked to lie in [0, len))."""
    name = "searchsorted"
    _core(sorted_, name, "sorted")
    _core(needles, name, "needles")
    if sorted_.ndim != 1:
        raise ValueError(
            f"{name}: the sorted array must be 1-D, got {sorted_.ndim} dims (shape {sorted_.shape})"
        )
    if needles.dtype is not sorted_.dtype:
        raise TypeError(
            f"{name}: needles are {needles.dtype.name} but the sorted array is {sorted_.dtype.name}"
        )
    if sorter is not None:
        _core(sorter, name, "sorter")
        if sorter.dtype is not int64:
            raise TypeError(f"{name}: sorter must be int64, got {sorter.dtype.name}")
        if sorter.shape != sorted_.shape:
            raise ValueError(
                f"{name}: sorter has shape {sorter.shape}, expected the sorted "
                f"array's {sorted_.shape}"
            )
    out = Core.empty(needles.shape, int64)
    check(
        lib.st_searchsorted(
            out.t, sorted_.t, sorter.t if sorter is not None else ffi.NULL, needles.t, bool(right)
        )
    )
    return out


def isin(needles, haystack, invert=False):
    """bool Core of needles' shape: whether each needle == some element of
    haystack (any shape; NaN is never found), negated with invert."""
    name = "isin"
    _core(needles, name, "needles")
    _core(haystack, name, "haystack")
    if needles.dtype is not haystack.dtype:
        raise TypeError(
            f"{name}: needles are {needles.dtype.name} but the haystack is {haystack.dtype.name}"
        )
    flat = flatten(haystack)
    srt = Core.empty((flat.size,), flat.dtype)
    check(lib.st_sort(srt.t, ffi.NULL, flat.t, 0, 0, 0))
    out = Core.empty(needles.shape, bool_)
    check(lib.st_isin(out.t, needles.t, srt.t, bool(invert)))
    return out

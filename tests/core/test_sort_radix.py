"""The radix sort of strided/_c/sort.c on long lanes: the first pass split
across threads (lanes of at least 131072 elements, few lanes), the buckets
sorted per thread (recursive digits, insertion leaves), and what the keys
blur put back (zero signs, NaN payloads, in input order).  numpy's stable
argsort is the oracle; values are compared bit for bit."""

import numpy as np
import pytest

import strided
from helpers import NUMPY, borrow, to_core, to_numpy
from strided.core import indexing as ix
from strided._c._strided import lib

LONG = 140_000  # above RDX_PAR_MIN (131072)


def bits(x):
    return np.ascontiguousarray(x).reshape(-1).view(np.uint8)


def want_perm(a, descending):
    """Stable order; descending = reverse order among unequal values, ties
    (and all NaNs, and 0.0 with -0.0) in input order."""
    if not descending:
        return np.argsort(a, kind="stable")
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        key = np.where(nan, 0, -a.astype(np.float64) + 0.0)  # NaN first
        order = np.lexsort((key, ~nan))
        return order
    if a.dtype.kind == "b":
        return np.argsort(~a, kind="stable")
    if a.dtype.kind == "u":
        return np.argsort(np.iinfo(a.dtype).max - a, kind="stable")
    return np.argsort(-(a.astype(object)), kind="stable").astype(np.int64)


def values(dt, n, rng, kind):
    t = NUMPY[dt]
    if t.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind == "equal":
        return np.full(n, 7, t) if t.kind != "f" else np.full(n, -0.0, t)
    if t.kind in "iu":
        info = np.iinfo(t)
        if kind == "narrow":
            return rng.integers(0, 5, n).astype(t) + t.type(info.max // 2)
        return rng.integers(int(info.min), int(info.max), n, dtype=t, endpoint=True)
    if kind == "narrow":  # keys sharing a long prefix
        return (1e6 + rng.integers(0, 300, n) * np.finfo(t).eps * 1e6).astype(t)
    x = rng.standard_normal(n).astype(t)
    special = np.array([np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf], t)
    where = rng.random(n) < 0.05
    x[where] = rng.choice(special, where.sum())
    # NaNs with other payloads survive too
    pay = np.array([0x7FF8000000000123 if t == np.float64 else 0x7FC00123], np.uint64)
    x[:5] = pay.astype(np.uint64 if t == np.float64 else np.uint32).view(t)[0]
    return x


@pytest.mark.parametrize("kind", ["spread", "narrow", "equal"])
@pytest.mark.parametrize(
    "dt", ["float64", "float32", "int64", "int32", "uint64", "uint32", "int16", "uint8", "bool"]
)
def test_long_lane(dt, kind, threads):
    rng = np.random.default_rng(len(dt) * 7 + len(kind))
    a = values(dt, LONG, rng, kind)
    c = to_core(a)
    for desc in (False, True):
        perm = want_perm(a, desc)
        got_i = to_numpy(ix.argsort(c, 0, desc))
        np.testing.assert_array_equal(got_i, perm)
        got_v = to_numpy(ix.sort(c, 0, desc))
        assert np.array_equal(bits(got_v), bits(a[perm])), (dt, kind, desc)
        # both outputs at once, through the C call
        v = strided.core.base.Core.empty(a.shape, dt)
        i = strided.core.base.Core.empty(a.shape, "int64")
        strided.core.base.check(lib.st_sort(v.t, i.t, c.t, 0, desc, lib.ST_IDX_BASE1))
        np.testing.assert_array_equal(to_numpy(i), perm + 1)
        assert np.array_equal(bits(to_numpy(v)), bits(a[perm]))


@pytest.mark.parametrize("dt", ["float64", "int32"])
def test_long_lane_in_place_and_strided(dt, threads):
    rng = np.random.default_rng(3)
    base = values(dt, 2 * LONG, rng, "spread")
    a = base.copy()
    view = a[::2]  # a strided lane, sorted in place
    want = view[want_perm(view, True)].copy()
    c = borrow(a)
    vc = strided.core.base.Core.over(c.storage, dt, c.offset, (LONG,), (2,))
    ix.sort(vc, 0, True, out=vc)
    assert np.array_equal(bits(a[::2]), bits(want))
    np.testing.assert_array_equal(a[1::2], base[1::2])  # untouched


def test_few_long_lanes_nd(threads):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((LONG, 3))
    a[rng.random(a.shape) < 0.01] = np.nan
    a[rng.random(a.shape) < 0.01] = -0.0
    got = to_numpy(ix.argsort(borrow(a), 0))
    np.testing.assert_array_equal(got, np.argsort(a, 0, kind="stable"))
    v = to_numpy(ix.sort(borrow(a), 0))
    assert np.array_equal(bits(v), bits(np.take_along_axis(a, got, 0)))


@pytest.mark.parametrize("n", [128, 129, 200, 2047, 2048, 2049, 5000, 65536, 131071, 131072])
def test_lane_sizes_and_leaf_buckets(n, threads):
    """Sizes around the radix threshold, a full top digit and the thread
    split; many ties (leaf buckets of equal keys) and spread values."""
    rng = np.random.default_rng(n)
    for a in (
        rng.integers(-3, 3, n).astype(np.int64),
        rng.standard_normal(n),
        (rng.integers(0, 40, n) * 0.5).astype(np.float32),
    ):
        np.testing.assert_array_equal(
            to_numpy(ix.argsort(to_core(a))), np.argsort(a, kind="stable")
        )
        assert np.array_equal(bits(to_numpy(ix.sort(to_core(a)))), bits(np.sort(a, kind="stable")))

"""The vector quicksort of strided/_c/sort.c + sort_simd.c: values only (no
permutation) of int32/int64/uint32/uint64/float32/float64 lanes of at least
32 elements into a contiguous output lane, on an AVX-512 CPU (elsewhere the
same calls take the radix path, and these tests check that instead).

Keys are sorted by an in-place vector partition (vectors of 8 or 16 keys,
4 read per step), a bitonic network for ranges of at most 128 keys (16 or
8 vectors), a second partition when the pivot is the range's minimum, and
OpenMP tasks above 131072 keys with two threads.  The result must equal,
bit for bit, numpy's stable sort: zeros keep their signs in input order,
NaNs their payloads in input order."""

import numpy as np
import pytest

import strided
from helpers import borrow, to_core, to_numpy
from strided.core import indexing as ix
from test_sort_radix import bits, want_perm

DTYPES = ["float64", "float32", "int64", "int32", "uint64", "uint32"]

# around the lane threshold (32), vector widths (8, 16), partition blocks
# (2 x 4 vectors: 64, 128), the network's limit (128 keys), the
# thread split (131072) and the task threshold (2 x 65536)
SIZES = [
    0,
    1,
    2,
    7,
    8,
    9,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    127,
    128,
    129,
    130,
    191,
    255,
    256,
    257,
    258,
    300,
    511,
    513,
    1000,
    4097,
    65537,
    131071,
    131072,
    131073,
]


def pattern(dt, n, kind, rng):
    t = np.dtype(dt)
    i = np.arange(n)
    if kind == "random":
        if t.kind == "f":
            return rng.standard_normal(n).astype(t)
        info = np.iinfo(t)
        return rng.integers(int(info.min), int(info.max), n, dtype=t, endpoint=True)
    if kind == "few":  # pivots that are the minimum, runs of ties
        return rng.integers(0, 3, n).astype(t)
    if kind == "equal":
        return np.full(n, 5, t)
    if kind == "sorted":
        return i.astype(t)
    if kind == "reverse":
        return (n - i).astype(t)
    if kind == "organ":  # up then down
        return np.minimum(i, n - i).astype(t)
    if kind == "saw":
        return (i % 37).astype(t)
    if kind == "extremes":  # the smallest and largest keys
        if t.kind == "f":
            pool = np.array(
                [
                    np.inf,
                    -np.inf,
                    np.finfo(t).max,
                    -np.finfo(t).max,
                    np.finfo(t).tiny,
                    -np.finfo(t).tiny,
                    0.0,
                    1.0,
                ],
                t,
            )
        else:
            info = np.iinfo(t)
            pool = np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1], t)
        return rng.choice(pool, n)
    raise ValueError(kind)


def specials(a, rng, frac=0.1):
    """NaNs (several payloads and signs), infinities and zeros of both signs."""
    a = a.copy()
    t = a.dtype
    u = np.uint64 if t == np.float64 else np.uint32
    nans = (
        np.array(
            [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF800000000ABCD],
            np.uint64,
        ).astype(u)
        if t == np.float64
        else np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC0ABCD], np.uint32)
    )
    pool = np.concatenate([nans.view(t), np.array([np.inf, -np.inf, 0.0, -0.0, -0.0], t)])
    where = rng.random(a.shape) < frac
    a[where] = rng.choice(pool, where.sum())
    return a


def check(a, desc=False):
    got = to_numpy(ix.sort(to_core(a), 0, desc))
    want = a[want_perm(a, desc)]
    assert got.dtype == a.dtype
    assert np.array_equal(bits(got), bits(want)), (a.dtype, a.size, desc)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES)
def test_sizes(dt, n, threads):
    rng = np.random.default_rng(n * 11 + len(dt))
    a = pattern(dt, n, "random", rng)
    if a.dtype.kind == "f":
        a = specials(a, rng)
    check(a)
    check(a, desc=True)


@pytest.mark.parametrize("kind", ["few", "equal", "sorted", "reverse", "organ", "saw", "extremes"])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [200, 3000, 140_000])
def test_patterns(dt, kind, n, threads):
    rng = np.random.default_rng(n + len(kind))
    a = pattern(dt, n, kind, rng)
    check(a)
    check(a, desc=True)


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("n", [40, 257, 5000, 140_000])
def test_zeros_nans(dt, n, threads):
    rng = np.random.default_rng(n)
    for frac in (0.01, 0.5, 1.0):
        a = specials(rng.standard_normal(n).astype(dt), rng, frac)
        check(a)
        check(a, desc=True)
    # only zeros, signs mixed; only NaNs; zeros and NaNs
    z = np.where(rng.random(n) < 0.5, -0.0, 0.0).astype(dt)
    check(z)
    check(z, desc=True)
    nan = np.full(n, np.nan, dt)
    nan[::3] = -np.nan
    check(nan)
    check(np.where(rng.random(n) < 0.5, z, nan))
    check(np.where(rng.random(n) < 0.5, z, nan), desc=True)


@pytest.mark.parametrize("dt", ["float64", "int32"])
def test_in_place(dt, threads):
    rng = np.random.default_rng(9)
    for n in (100, 140_000):
        a = pattern(dt, n, "random", rng)
        if a.dtype.kind == "f":
            a = specials(a, rng)
        for desc in (False, True):
            want = a[want_perm(a, desc)]
            b = a.copy()
            c = borrow(b)
            ix.sort(c, 0, desc, out=c)
            assert np.array_equal(bits(b), bits(want))


@pytest.mark.parametrize("dt", ["float32", "int64"])
def test_strided_input_contiguous_output(dt, threads):
    rng = np.random.default_rng(4)
    base = pattern(dt, 2 * 140_000, "random", rng)
    if base.dtype.kind == "f":
        base = specials(base, rng)
    a = base[::2]
    c = borrow(base)
    view = strided.core.base.Core.over(c.storage, dt, c.offset, (a.size,), (2,))
    for desc in (False, True):
        got = to_numpy(ix.sort(view, 0, desc))
        assert np.array_equal(bits(got), bits(a[want_perm(a, desc)]))


@pytest.mark.parametrize("dt", ["float64", "uint32"])
def test_nd_lanes(dt, threads):
    """Many lanes at once (one thread each) along either axis; the lanes
    along axis 0 have a strided output, so they take the radix path."""
    rng = np.random.default_rng(6)
    a = pattern(dt, 300 * 70, "random", rng).reshape(300, 70)
    if a.dtype.kind == "f":
        a = specials(a, rng)
    for axis in (0, 1):
        for desc in (False, True):
            got = to_numpy(ix.sort(borrow(a), axis, desc))
            lanes = np.moveaxis(a, axis, -1)
            want = np.stack([lane[want_perm(lane, desc)] for lane in lanes])
            assert np.array_equal(bits(np.moveaxis(got, axis, -1)), bits(want)), (axis, desc)


def test_compat_sort_matches_numpy(threads):
    import strided.compat as xp

    rng = np.random.default_rng(8)
    for dt in DTYPES:
        a = pattern(dt, 50_000, "random", rng)
        if a.dtype.kind == "f":
            a = specials(a, rng)
        got = np.asarray(xp.sort(xp.asarray(a)))
        assert np.array_equal(bits(got), bits(np.sort(a, kind="stable"))), dt
        got = np.asarray(xp.sort(xp.asarray(a), descending=True))
        assert np.array_equal(bits(got), bits(a[want_perm(a, True)])), dt

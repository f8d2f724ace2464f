"""Fast paths of strided/_c/index.c: take of a contiguous index from a
fixed source (SIMD gather with prefetch, the bounds pre-pass branch-free
over one valid range), and nonzero of a contiguous input by blocks of
65536 elements (block counts on every thread, rows written per block,
N-d coordinates from an odometer started at each block), with
st_nonzero_count.  numpy is the oracle; 1 and 2 threads."""

import numpy as np
import pytest

from helpers import NUMPY, borrow, to_core, to_numpy
from strided.core import base as _core, indexing as ix
from strided._c._strided import ffi, lib

BASE1, WRAP = lib.ST_IDX_BASE1, lib.ST_IDX_WRAP


# ---------------------------------------------------------------- take


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200, 70_000])
@pytest.mark.parametrize("dt", ["float64", "float32", "int8", "int16", "complex128"])
def test_take_contiguous(dt, n, threads):
    rng = np.random.default_rng(n)
    src = (rng.standard_normal(1000) * 50).astype(NUMPY[dt])
    idx = rng.integers(-1000, 1000, n)
    np.testing.assert_array_equal(to_numpy(ix.take(to_core(src), to_core(idx))), np.take(src, idx))


def test_take_from_a_strided_source(threads):
    rng = np.random.default_rng(1)
    base = rng.standard_normal(3000)
    src = base[::3]  # dstride != itemsize
    idx = rng.integers(-1000, 1000, 5000)
    np.testing.assert_array_equal(to_numpy(ix.take(borrow(src), to_core(idx))), np.take(src, idx))


@pytest.mark.parametrize(
    "flags", [0, BASE1, WRAP, BASE1 | WRAP], ids=["base0", "base1", "wrap", "base1-wrap"]
)
@pytest.mark.parametrize("bad_at", [0, 1, 99_999])
@pytest.mark.parametrize("bad", ["low", "high", "zero"])
def test_index_select_bounds_before_writing(flags, bad_at, bad, threads):
    n, size = 100_000, 50
    base = 1 if flags & BASE1 else 0
    idx = np.full(n, base, np.int64)
    v = {"low": -size - 1 if flags & WRAP else base - 1, "high": size + base, "zero": 0}[bad]
    valid_zero = bad == "zero" and not (flags & BASE1)
    idx[bad_at] = v
    src = to_core(np.arange(size, dtype=np.float64))
    sentinel = np.full(n, 12345.0)
    target = sentinel.copy()
    out = borrow(target)
    rc_call = lambda: _core.check(lib.st_index_select(out.t, src.t, 0, to_core(idx).t, flags))
    if valid_zero:
        rc_call()
        return
    with pytest.raises(IndexError, match=str(v)):
        rc_call()
    np.testing.assert_array_equal(target, sentinel)  # nothing written


# ---------------------------------------------------------------- nonzero


SHAPES = [
    (0,),
    (1,),
    (7,),
    (65535,),
    (65536,),
    (65537,),
    (200_001,),
    (3, 0),
    (2, 70_000),
    (300, 700),
    (3, 5, 9000),
    (1, 1, 131073),
]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("density", [0.0, 0.003, 0.5, 1.0])
def test_nonzero_blocks(shape, density, threads):
    rng = np.random.default_rng(sum(shape) + int(density * 100))
    for dt in ("bool", "uint8", "float64", "int32", "complex64"):
        x = (rng.random(shape) < density).astype(NUMPY[dt])
        if dt == "float64":
            x[x == 0] = 0.0
            x[rng.random(shape) < 0.1] = -0.0  # -0.0 is zero
            x[rng.random(shape) < 0.01] = np.nan  # NaN is not
        if dt == "complex64":
            x = x * 1j  # imaginary part only
        want = np.argwhere(x)
        for flags, add in ((0, 0), (BASE1, 1)):
            got = to_numpy(ix.nonzero(to_core(x), flags=flags))
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want + add)
        n = ffi.new("int64_t *")
        _core.check(lib.st_nonzero_count(to_core(x).t, n))
        assert n[0] == np.count_nonzero(x)


def test_nonzero_of_a_strided_input_and_0d(threads):
    rng = np.random.default_rng(2)
    x = rng.random((400, 600)) < 0.3
    for view in (x.T, x[:, ::-3], x[::2]):
        np.testing.assert_array_equal(to_numpy(ix.nonzero(borrow(view))), np.argwhere(view))
        n = ffi.new("int64_t *")
        _core.check(lib.st_nonzero_count(borrow(view).t, n))
        assert n[0] == np.count_nonzero(view)
    assert to_numpy(ix.nonzero(to_core(np.array(3.0)))).shape == (1, 0)


def test_nonzero_output_of_the_wrong_row_count_is_refused():
    x = to_core(np.array([0, 1, 1, 0, 1], np.int8))
    out = _core.Core.empty((2, 1), "int64")
    with pytest.raises(ValueError, match=r"\(3, 1\)"):
        _core.check(lib.st_nonzero(out.t, x.t, 0))

"""histc and bhistc (histogram.c) against a numpy rendering of Torch7's
expression, over every integer and float dtype and layout, and the
answers of Lua Torch7 itself for the doubtful cases."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from strided.core import base as _core
from strided.core.histogram import bhistc, histc
from helpers import REAL_NAMES, arrays, borrow, layouts, to_core, to_numpy


def ref_range(x, lo, hi):
    ct = x.dtype.type if x.dtype.kind == "f" else np.float64
    lo, hi = ct(lo), ct(hi)
    if lo == hi and x.size:
        if x.dtype.kind == "f" and np.isnan(x).any():
            return None
        lo, hi = ct(x.min()), ct(x.max())
    if lo == hi:
        lo, hi = ct(lo - 1), ct(hi + 1)
    return ct, lo, hi


def ref_counts(x, nbins, ct, lo, hi):
    """Torch7: bin = min((long)((x - lo) / (hi - lo) * nbins), nbins - 1) for lo <= x <= hi."""
    xv = np.asarray(x).astype(ct).ravel()
    ok = (xv >= lo) & (xv <= hi)
    with np.errstate(all="ignore"):
        v = (xv[ok] - lo) / (hi - lo) * ct(nbins)
    return np.bincount(np.minimum(v.astype(np.int64), nbins - 1), minlength=nbins)


def ref_histc(x, nbins, lo, hi):
    r = ref_range(x, lo, hi)
    if r is None:
        return np.zeros(nbins, np.int64)
    return ref_counts(x, nbins, *r)


def finite_elements(dt):
    if np.dtype(dt).kind == "f":
        return st.floats(-1e3, 1e3, width=np.dtype(dt).itemsize * 8)
    info = np.iinfo(dt)  # beyond 2^50 the range arithmetic in double loses the bins
    return st.integers(max(info.min, -(2**50)), min(info.max, 2**50))


@given(data=st.data())
def test_histc_matches_torch7_expression(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    x = data.draw(arrays(dt, elements=finite_elements(dt)))
    x = data.draw(layouts(x))
    nbins = data.draw(st.integers(1, 12))
    auto = data.draw(st.booleans())
    lo, hi = (
        (0.0, 0.0) if auto else sorted(data.draw(st.tuples(st.floats(-50, 50), st.floats(-50, 50))))
    )
    got = to_numpy(histc(borrow(x), nbins, lo, hi))
    want = ref_histc(x, nbins, lo, hi)
    assert got.dtype == (x.dtype if x.dtype.kind == "f" else np.int64)
    np.testing.assert_array_equal(got, want)


@given(data=st.data())
def test_bhistc_rows(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    x = data.draw(
        arrays(
            dt, shape=st.tuples(st.integers(0, 5), st.integers(0, 7)), elements=finite_elements(dt)
        )
    )
    x = data.draw(layouts(x))
    nbins = data.draw(st.integers(1, 6))
    lo, hi = data.draw(st.sampled_from([(0.0, 0.0), (-3.0, 40.0), (1.0, 5.0)]))
    got = to_numpy(bhistc(borrow(x), nbins, lo, hi))
    assert got.shape == (x.shape[0], nbins)
    r = ref_range(x, lo, hi)  # one range for all rows
    for i in range(x.shape[0]):
        want = np.zeros(nbins) if r is None else ref_counts(x[i], nbins, *r)
        np.testing.assert_array_equal(got[i], want)


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "uint8"])
def test_histc_large_threaded(dt, threads):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(300_001) * 20).astype(dt)
    for nbins, lo, hi in [(100, 0, 0), (7, -10, 30), (1, 0, 0), (5000, -40, 40)]:
        np.testing.assert_array_equal(
            to_numpy(histc(borrow(x), nbins, lo, hi)), ref_histc(x, nbins, lo, hi)
        )
    # a strided view
    np.testing.assert_array_equal(to_numpy(histc(borrow(x[::3]), 50)), ref_histc(x[::3], 50, 0, 0))


def test_out_dtype_and_exact_counts():
    x = np.zeros(100_000, np.float32)
    out = _core.Core.empty((3,), "int64")
    histc(borrow(x), 3, -1, 1, out=out)
    assert to_numpy(out).tolist() == [0, 100_000, 0]
    out8 = _core.Core.empty((2,), "float64")
    histc(borrow(np.array([1, 2, 2], np.int16)), 2, out=out8)
    assert to_numpy(out8).tolist() == [1.0, 2.0]


# ---- Lua Torch7's answers (run in /work/lua-torch7), translated ----


def h(x, *args, dt="float64"):
    return to_numpy(histc(to_core(np.array(x, dt)), *args)).tolist()


def test_lua_histc_cases():
    # torch.histc(torch.Tensor{1,2,2,3,10}, 5) -> 3 1 0 0 1 (top edge in the last bin)
    assert h([1, 2, 2, 3, 10], 5) == [3, 1, 0, 0, 1]
    # min == max (not only 0, 0) takes the data's range
    assert h([1, 2, 2, 3, 10], 5, 3, 3) == [3, 1, 0, 0, 1]
    # a single value is widened by 1 each way: {4,4,4}, 4 bins over [3, 5]
    assert h([4, 4, 4], 4) == [0, 0, 3, 0]
    # values outside [min, max] are ignored; 1.0 (== max) goes in the last bin
    assert h([-1, 0, 0.5, 1, 1.0, 2], 4, 0, 1) == [1, 0, 1, 2]
    # a NaN in the data with the automatic range: nothing is counted
    assert h([1, np.nan, 3], 4) == [0, 0, 0, 0]
    # with a given range a NaN is just not counted
    assert h([1, np.nan, 3], 4, 0, 4) == [0, 1, 0, 1]
    # float32 computes in float32 ({0.1,...} FloatTensor, 3 bins over [0.1, 0.9])
    assert h([0.1, 0.2, 0.3, 0.7, 0.9], 3, 0.1, 0.9, dt="float32") == [3, 0, 2]
    # min > max: an empty range, all zeros (no error)
    assert h([1, 2, 1.5], 3, 2, 1) == [0, 0, 0]


def test_lua_bhistc_cases():
    x = to_core(np.array([[2, 4, 2, 2, 5, 4], [3, 5, 1, 5, 3, 5], [3, 4, 2, 5, 5, 1]], "float64"))
    assert to_numpy(bhistc(x, 5, 1, 5)).tolist() == [
        [0, 3, 0, 2, 1],
        [1, 0, 2, 0, 3],
        [1, 1, 1, 1, 2],
    ]
    # the automatic range is that of the whole tensor, not of each row
    y = to_core(np.array([[2, 4, 2, 2, 5, 4], [3, 5, 1, 5, 3, 8]], "float64"))
    assert to_numpy(bhistc(y, 3)).tolist() == [[3, 3, 0], [3, 2, 1]]


def test_bad_arguments():
    x = to_core(np.arange(5.0))
    with pytest.raises(ValueError, match="histc: nbins must be >= 1"):
        histc(x, 0)  # Torch7 writes before the histogram (a crash)
    with pytest.raises(TypeError, match="histc: nbins must be an integer"):
        histc(x, 2.5)
    with pytest.raises(ValueError, match="histc: lo must be finite"):
        histc(x, 3, float("-inf"), 1)
    with pytest.raises(ValueError, match="histc: hi must be"):
        histc(x, 3, 0, float("nan"))
    with pytest.raises(ValueError, match="range of the data.*not finite"):
        histc(to_core(np.array([1.0, np.inf])), 3)
    with pytest.raises(TypeError, match="histc: x must be an integer or floating"):
        histc(to_core(np.array([True])), 3)
    with pytest.raises(TypeError, match="histc: x must be a Core"):
        histc(np.arange(3.0), 3)
    with pytest.raises(ValueError, match=r"histc: out has shape \(4,\), expected \(3,\)"):
        histc(x, 3, out=_core.Core.empty((4,), "float64"))
    with pytest.raises(TypeError, match="histc: out must be an integer or floating"):
        histc(x, 3, out=_core.Core.empty((3,), "complex64"))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        histc(x, 3, out=borrow(ro))
    with pytest.raises(ValueError, match="bhistc: x must be 2-D"):
        bhistc(x, 3)
    with pytest.raises(ValueError, match=r"finite in x's dtype \(float32\)"):
        histc(to_core(np.ones(2, np.float32)), 2, 0, 1e300)  # hi is inf in float32


def test_empty():
    assert to_numpy(histc(_core.Core.empty((0,), "float32"), 4)).tolist() == [0, 0, 0, 0]
    assert to_numpy(bhistc(_core.Core.empty((0, 3), "float64"), 2)).shape == (0, 2)
    assert to_numpy(bhistc(_core.Core.empty((2, 0), "int32"), 2)).tolist() == [[0, 0], [0, 0]]

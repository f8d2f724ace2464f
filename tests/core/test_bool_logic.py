"""bool kernels read bytes: borrowed memory whose bytes are not 0/1 reads
as true wherever nonzero (elementwise logic, comparisons, all/any), and
all/any of every dtype, over every axis and layout (the row-at-a-time,
the two-dims-at-a-time and the stop-early paths), agree with numpy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp
from helpers import borrow, to_numpy
from strided.core import ops as _ops

RAW = np.array([0, 1, 2, 255, 0, 128, 7, 0, 1, 0, 64, 3] * 40, dtype=np.uint8)


def _borrowed(raw):
    """A bool array over bytes that are not all 0/1 (numpy reads any nonzero as true)."""
    return xp.from_dlpack(raw.view(np.bool_))


@pytest.mark.parametrize("name", ["logical_not", "bitwise_invert", "positive", "isnan", "isfinite"])
def test_unary_reads_nonzero_bytes_as_true(name):
    truth = RAW != 0
    got = to_numpy(_ops.unary(name, borrow(RAW.view(np.bool_))))
    want = {
        "logical_not": ~truth,
        "bitwise_invert": ~truth,
        "positive": truth,
        "isnan": np.zeros_like(truth),
        "isfinite": np.ones_like(truth),
    }[name]
    np.testing.assert_array_equal(got, want)
    assert set(np.unique(got.view(np.uint8))) <= {0, 1}  # results are 0/1 bytes


@pytest.mark.parametrize(
    "name",
    [
        "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
        "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
        "maximum", "minimum",
    ],
)  # fmt: skip
@pytest.mark.parametrize("other", ["borrowed", "array", "scalar"])
def test_binary_reads_nonzero_bytes_as_true(name, other):
    """Through the core (the standard has no bool less or maximum; Torch7's
    ByteTensor and the core have them): every bool kernel of the op table."""
    a = RAW
    b = np.roll(RAW, 5) if other == "borrowed" else (np.arange(RAW.size) % 3 == 0).view(np.uint8)
    if other == "scalar":
        b = np.array(1, np.uint8)
    got = to_numpy(_ops.binary(name, borrow(a.view(np.bool_)), borrow(b.view(np.bool_))))
    want = getattr(np, name)(a != 0, b != 0)
    np.testing.assert_array_equal(got, want)
    assert set(np.unique(got.view(np.uint8))) <= {0, 1}


@pytest.mark.parametrize("fn", ["all", "any"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_all_any_read_nonzero_bytes_as_true(fn, axis):
    raw = RAW.reshape(40, 12).copy()
    raw[3] = 0  # a false row for all, a row with no true for any
    raw[:, 4] = 2  # a column of bytes 2 only: all true
    got = np.asarray(getattr(xp, fn)(_borrowed(raw), axis=axis))
    np.testing.assert_array_equal(got, getattr(np, fn)(raw != 0, axis=axis))


DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


def _data(rng, shape, dtype, density):
    nz = rng.random(shape) < density
    if dtype == "bool":
        return nz
    v = rng.integers(1, 50, size=shape)
    if dtype == "complex128":
        v = v * np.where(rng.random(shape) < 0.5, 1, 1j)  # some purely imaginary
    return np.where(nz, v, 0).astype(dtype)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(DTYPES),
    st.integers(0, 700),
    st.integers(1, 40),
    st.sampled_from([None, 0, 1, (0, 1)]),
    st.sampled_from(["contiguous", "transposed", "strided", "reversed"]),
    st.sampled_from([0.0, 0.5, 0.999, 1.0]),
    st.sampled_from(["all", "any"]),
    st.integers(0, 2**32 - 1),
)
def test_all_any_against_numpy(dtype, rows, cols, axis, layout, density, fn, seed):
    rng = np.random.default_rng(seed)
    a = _data(rng, (rows, 2 * cols), dtype, density)
    a = {
        "contiguous": a[:, :cols],
        "transposed": a[:, :cols].T.copy().T,
        "strided": a[:, ::2],
        "reversed": a[::-1, cols - 1 :: -1],
    }[layout]
    x = xp.asarray(a) if layout != "contiguous" else xp.asarray(np.ascontiguousarray(a))
    got = np.asarray(getattr(xp, fn)(x, axis=axis))
    np.testing.assert_array_equal(got, getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("fn", ["all", "any"])
@pytest.mark.parametrize("where", [0, 255, 256, 257, 4095, 100_000, 299_999])
def test_all_any_stop_early_only_when_settled(fn, where):
    """A single deciding element anywhere in a long run (first block, a
    block edge, the tail) is found; the answer does not depend on where."""
    a = np.ones(300_000, bool) if fn == "all" else np.zeros(300_000, bool)
    a[where] = fn == "any"
    np.testing.assert_array_equal(np.asarray(getattr(xp, fn)(xp.asarray(a))), getattr(np, fn)(a))
    f = a.astype(np.float64)
    assert bool(getattr(xp, fn)(xp.asarray(f))) == bool(getattr(np, fn)(f))

"""where selects by mask arithmetic (no branch per element): every item
size, each branch an array or a broadcast single value, contiguous or
strided, and conditions whose bytes are not 0/1, against numpy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp

DTYPES = ["int8", "uint16", "int32", "float32", "float64", "int64", "complex128", "bool", "float16"]


def _values(rng, n, dtype):
    if dtype == "bool":
        return rng.random(n) < 0.5
    v = rng.standard_normal(n) * 100
    if dtype == "complex128":
        return v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(DTYPES),
    st.integers(0, 3000),
    st.sampled_from(["array", "scalar", "strided", "reversed"]),
    st.sampled_from(["array", "scalar", "strided", "reversed"]),
    st.integers(0, 2**32 - 1),
)
def test_where_against_numpy(dtype, n, a_kind, b_kind, seed):
    rng = np.random.default_rng(seed)
    c = rng.random(n) < rng.random()

    def operand(kind):
        if kind == "scalar":
            return _values(rng, 1, dtype).reshape(())
        if kind == "strided":
            return _values(rng, 2 * n, dtype)[::2]
        if kind == "reversed":
            return _values(rng, n, dtype)[::-1]
        return _values(rng, n, dtype)

    a, b = operand(a_kind), operand(b_kind)
    got = xp.where(xp.asarray(c), xp.asarray(a), xp.asarray(b))
    np.testing.assert_array_equal(np.asarray(got), np.where(c, a, b))


@pytest.mark.parametrize("dtype", ["int8", "int16", "float32", "float64", "complex128"])
def test_condition_bytes_other_than_one_are_true(dtype):
    raw = np.array([0, 1, 2, 255, 0, 128, 7, 0] * 9, dtype=np.uint8)
    cond = xp.from_dlpack(raw.view(np.bool_))
    a = np.arange(raw.size).astype(dtype)
    b = -np.arange(raw.size).astype(dtype)
    got = np.asarray(xp.where(cond, xp.asarray(a), xp.asarray(b)))
    np.testing.assert_array_equal(got, np.where(raw != 0, a, b))


def test_python_scalars_and_nan_payloads_are_kept_bit_for_bit():
    x = np.array([1.0, np.nan, -0.0, np.inf] * 50)
    payload = np.array([0x7FF8DEADBEEF0001], dtype=np.uint64).view(np.float64)[0]
    got = np.asarray(xp.where(xp.isnan(xp.asarray(x)), float(payload), xp.asarray(x)))
    want = np.where(np.isnan(x), payload, x)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))

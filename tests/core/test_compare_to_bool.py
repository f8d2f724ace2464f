"""The float comparisons to bool (AVX-512: 64 results a step, the tail and
other layouts by the generic kernel) against numpy: every length around
the step, unaligned starts, NaN, infinities and signed zeros, strided
inputs and outputs."""

import numpy as np
import pytest

import strided.compat as xp

OPS = ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal"]
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 5e-324]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", OPS)
def test_every_length_and_offset(op, dtype):
    rng = np.random.default_rng(7)
    base_a = rng.choice(SPECIAL + list(rng.standard_normal(8)), size=400).astype(dtype)
    base_b = np.where(rng.random(400) < 0.3, base_a, rng.choice(SPECIAL, size=400)).astype(dtype)
    A, B = xp.asarray(base_a), xp.asarray(base_b)
    f, g = getattr(xp, op), getattr(np, op)
    for start in (0, 1, 3):
        for n in (0, 1, 63, 64, 65, 127, 128, 130, 200, 257):
            got = f(A[start : start + n], B[start : start + n])
            want = g(base_a[start : start + n], base_b[start : start + n])
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"{op} {start} {n}")
    np.testing.assert_array_equal(np.asarray(f(A[::2], B[1::2])), g(base_a[::2], base_b[1::2]))
    np.testing.assert_array_equal(np.asarray(f(A[::-1], B)), g(base_a[::-1], base_b))
    big_a = np.tile(base_a, 3000)
    big_b = np.tile(base_b, 3000)  # threads, streamed stores
    np.testing.assert_array_equal(
        np.asarray(f(xp.asarray(big_a), xp.asarray(big_b))), g(big_a, big_b)
    )

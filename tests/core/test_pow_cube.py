"""x ** 3 of float64 and float32 runs a cube kernel (at CPU levels 3 and
4): float64's carries the square's rounding error through FMA, float32's
cubes exactly in double.  Checked against exact rational arithmetic, on
the small-call path and the iterator path alike, and for the special
values pow gives."""

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp
from strided.core import base as _core


def _ulps_off(got: float, x: float) -> float:
    exact = Fraction(x) ** 3
    return float(abs(Fraction(got) - exact) / Fraction(float(np.spacing(abs(got)))))


finite64 = st.floats(min_value=-1e100, max_value=1e100, allow_nan=False, allow_infinity=False)


@settings(max_examples=300)
@given(st.lists(finite64, min_size=1, max_size=40))
def test_float64_cube_rounds_once(values):
    # the cube kernel at levels 3 and 4; level 0 keeps pow (within 1 ulp)
    bound = 0.5 + 1e-9 if _core.cpu_level() >= 3 else 1.0
    got = np.asarray(xp.asarray(values) ** 3)
    for g, x in zip(got, values):
        if g == 0.0 or not np.isfinite(g) or abs(g) < 1e-290:
            continue  # underflow: compared below against numpy's pow
        assert _ulps_off(float(g), x) <= bound, (x, g)


@settings(max_examples=200)
@given(
    st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=1, max_size=40)
)
def test_float32_cube_is_the_exact_cube_rounded(values):
    a = np.asarray(values, dtype=np.float32)
    exact = (a.astype(np.float64) ** 3).astype(np.float32)  # (x^3 in double is exact to 2^-53)
    got = np.asarray(xp.asarray(a) ** 3)
    np.testing.assert_array_equal(got, exact)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_special_values_match_pow(dtype):
    v = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e103, -1e103, 1e-110, 5e-324, 1.0, -2.0], dtype=dtype
    )
    with np.errstate(all="ignore"):
        want = np.power(v, np.asarray(3, dtype=dtype))
    got = np.asarray(xp.asarray(v) ** 3)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("n", [5, 1000, 100_000, 300_001])
def test_small_large_inplace_and_strided_calls_agree(n):
    """The small-call path, the iterator (threads), `**=` and a strided view
    give the same bits."""
    x = np.random.default_rng(n).standard_normal(n) * 1e3
    ref = np.asarray(xp.asarray(x[::-1].copy()) ** 3)[::-1]
    assert np.array_equal(np.asarray(xp.asarray(x) ** 3), ref)
    y = xp.asarray(x.copy())  # (asarray shares a numpy array's memory)
    y **= 3
    assert np.array_equal(np.asarray(y), ref)
    assert np.array_equal(np.asarray(xp.pow(xp.asarray(x), xp.asarray(3.0))), ref)


def test_other_exponents_and_dtypes_keep_pow():
    x = np.linspace(-3, 3, 101)
    np.testing.assert_allclose(np.asarray(xp.asarray(x) ** 3.5), x**3.5, equal_nan=True)
    np.testing.assert_array_equal(
        np.asarray(xp.asarray(x.astype(np.int64)) ** 3), x.astype(np.int64) ** 3
    )
    c = (x + 1j * x[::-1]).astype(np.complex128)
    np.testing.assert_allclose(np.asarray(xp.asarray(c) ** 3), c**3, rtol=1e-12)


@pytest.mark.parametrize("level", [0, 3, 4])
def test_every_cpu_level_is_within_one_ulp(level):
    if level > _core.cpu_level():
        pytest.skip(f"level {level} is not available on this CPU")
    code = (
        "import numpy as np, strided.compat as xp; "
        "x = np.random.default_rng(1).standard_normal(200000) * 30; "
        "print(np.abs(np.asarray(xp.asarray(x) ** 3) - x.astype(np.longdouble) ** 3).__truediv__("
        "np.spacing(np.abs(x ** 3))).max())"
    )
    env = dict(os.environ, STRIDED_CPU_LEVEL=str(level))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert float(out.stdout) <= 1.0

"""benchmarks/accuracy.py: ulps and ulp errors against known distances, and
the longdouble reference against mpmath."""

import numpy as np
import pytest

from benchmarks import accuracy
from benchmarks.accuracy import max_ulp, max_ulp_of, ulp, ulp_errors

LD = np.longdouble
wide = pytest.mark.skipif(
    accuracy.reference_bits < 64, reason="longdouble is no wider than float64 here"
)


@pytest.mark.parametrize(
    "x, dtype, want",
    [
        (1.0, np.float64, 2.0**-52),
        (1.5, np.float64, 2.0**-52),
        (-1.5, np.float64, 2.0**-52),
        (0.75, np.float64, 2.0**-53),
        (2.0**100, np.float64, 2.0**48),
        (2.0**-1022, np.float64, 2.0**-1074),  # smallest normal
        (1e-310, np.float64, 2.0**-1074),  # subnormal: fixed spacing
        (0.0, np.float64, 2.0**-1074),
        (1.0, np.float32, 2.0**-23),
        (3.0, np.float32, 2.0**-22),
        (2.0**-126, np.float32, 2.0**-149),
        (1e-40, np.float32, 2.0**-149),
    ],
)
def test_ulp(x, dtype, want):
    assert ulp(LD(x), dtype) == LD(want)


def test_ulp_matches_numpy_spacing_inside_a_binade():
    x = np.random.default_rng(0).uniform(-1e6, 1e6, 1000)
    assert np.array_equal(ulp(x, np.float64), np.abs(np.spacing(x)).astype(LD))
    x32 = x.astype(np.float32)
    assert np.array_equal(ulp(x32, np.float32), np.abs(np.spacing(x32)).astype(LD))


def test_whole_ulps():
    one = np.float64(1.0)
    assert max_ulp(np.nextafter(one, 2.0), LD(1)) == 1.0
    assert max_ulp(one + 3 * 2.0**-52, LD(1)) == 3.0
    assert max_ulp(np.float64(-0.75) - 5 * 2.0**-53, LD(-0.75)) == 5.0
    f = np.float32(1.0)
    assert max_ulp(np.float32(f + np.float32(2 * 2.0**-23)), LD(1)) == 2.0


@wide
def test_half_ulp_from_an_exact_reference():
    # 1 + 2^-53 lies halfway between two float64: either neighbour is 0.5 ulp off
    ref = LD(1) + LD(2.0) ** -53
    assert max_ulp(np.float64(1.0), ref) == 0.5
    assert max_ulp(np.nextafter(np.float64(1.0), 2.0), ref) == 0.5


@wide
def test_ulp_taken_from_the_reference_not_the_result():
    # the exact value just below 1 has ulp 2^-53; rounding it to 1.0 is
    # 2^-60 / 2^-53 = 2^-7 ulp off (judged by 1.0's spacing it would be 2^-8)
    ref = LD(1) - LD(2.0) ** -60
    assert max_ulp(np.float64(1.0), ref) == 2.0**-7


def test_special_values():
    inf, nan = np.inf, np.nan
    got = np.array([inf, -inf, nan, nan, inf, 1.0, 0.0, -0.0])
    ref = np.array([inf, -inf, nan, 1.0, 1e308, nan, 0.0, 0.0], dtype=LD)
    assert list(ulp_errors(got, ref)) == [0, 0, 0, inf, inf, inf, 0, 0]


def test_empty():
    assert max_ulp(np.array([], np.float64), np.array([], LD)) == 0.0


@wide
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_max_ulp_of_a_correctly_rounded_result_and_one_ulp_off(dtype, monkeypatch):
    monkeypatch.setattr(accuracy, "CHUNK", 1000)  # several chunks, a partial last one
    x = np.random.default_rng(1).uniform(-5, 5, 4321).astype(dtype)
    exact = np.exp(x.astype(LD))
    rounded = exact.astype(dtype)  # correctly rounded: <= 0.5 ulp
    off = rounded.copy()
    i = 3210  # one element a whole ulp further away
    off[i] = np.nextafter(off[i], dtype(np.inf if off[i] >= exact[i] else -np.inf))
    worst = max_ulp_of(np.exp, [x], {"rounded": rounded, "off": off})
    assert 0.4 < worst["rounded"] <= 0.5 + 1e-3
    assert 1.0 <= worst["off"] <= 1.5 + 1e-3


def test_max_ulp_of_two_arguments():
    x = np.array([2.0, 3.0, 10.0])
    y = np.array([0.5, 2.0, -1.0])
    got = np.power(x, y)
    got[1] = np.nextafter(9.0, 0.0)  # one ulp below the exact 9
    assert max_ulp_of(np.power, [x, y], {"np": got})["np"] == pytest.approx(1.0, abs=1e-3)


@wide
@pytest.mark.parametrize("name", ["exp", "log", "sin", "cos", "tanh", "sqrt"])
def test_longdouble_reference_against_mpmath(name):
    """The reference is good to a small fraction of a float64 ulp (what the
    table's two decimals need) on the benchmark's domains."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(2)
    x = {
        "exp": rng.uniform(-700, 700, 200),
        "sin": rng.uniform(-100, 100, 200),
        "cos": rng.uniform(-100, 100, 200),
        "tanh": rng.uniform(-10, 10, 200),
    }.get(name, np.exp(rng.uniform(-700, 700, 200)))
    ref = getattr(np, name)(x.astype(LD))
    with mpmath.workdps(60):
        for xi, ri in zip(x, ref):
            exact = getattr(mpmath, name)(mpmath.mpf(float(xi)))
            # |ref - exact| in float64 ulps of exact
            err = abs(mpmath.mpf(np.format_float_scientific(ri, unique=True)) - exact) / mpmath.mpf(
                float(ulp(LD(float(exact)), np.float64))
            )
            assert err < 0.01, (name, xi)

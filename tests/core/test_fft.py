"""Discrete Fourier transforms of the core (strided/_c/fft.c through
strided/_fft.py): c2c, r2c and c2r along any dim, both signs, any scale.

Oracles: numpy's transforms of clongdouble input, which numpy 2 computes in
long double (64-bit mantissa), are the exact reference for the accuracy
tests (themselves checked against a direct O(n^2) DFT in long double for
small n); numpy.fft in float64 for everything else, with tolerances scaled by
eps * log2(n).  Lengths cover every code path: the radices 4, 2, 3, 5 and
generic odd primes up to ST_FFT_MAX_RADIX (67), Bluestein beyond (small
lengths in blocks of lanes, large ones one line at a time), and the
four-step split of long lines."""

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided
from helpers import borrow, to_core, to_numpy
from strided.core import base as _core, fft as _fft
from strided._c._strided import ffi, lib

LENGTHS = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    11,
    12,
    13,
    16,
    17,
    25,
    27,
    31,
    49,
    60,
    61,
    64,
    67,
    71,
    97,
    101,
    121,
    127,
    128,
    243,
    256,
    625,
    1000,
    1021,
    2310,
    4096,
    4913,
    6561,
]
LONG = [10007, 12289, 16384, 2**15 * 3, 65536, 100003, 2**20]
COMPLEX = {"complex64": np.complex64, "complex128": np.complex128}
REAL = {"float32": np.float32, "float64": np.float64}
EPS = {
    "complex64": np.finfo(np.float32).eps,
    "complex128": np.finfo(np.float64).eps,
    "float32": np.finfo(np.float32).eps,
    "float64": np.finfo(np.float64).eps,
}


def crandn(rng, shape, dt=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def rel_rms(got, ref):
    ref = np.asarray(ref, np.clongdouble)
    err = np.asarray(got, np.clongdouble) - ref
    return float(np.sqrt(np.sum(np.abs(err) ** 2) / max(np.sum(np.abs(ref) ** 2), 1e-300)))


def rel_max(got, ref):
    ref = np.asarray(ref, np.clongdouble)
    err = np.asarray(got, np.clongdouble) - ref
    return float(np.max(np.abs(err), initial=0) / max(np.max(np.abs(ref), initial=0), 1e-300))


def close(got, ref, dtype, n, factor=4.0):
    """got agrees with ref to factor * eps * log2(n) of the largest value."""
    tol = factor * EPS[dtype] * max(np.log2(max(n, 2)), 1.0)
    got = np.asarray(got)
    assert got.shape == np.shape(ref), (got.shape, np.shape(ref))
    assert rel_max(got, ref) <= tol, (rel_max(got, ref), tol)


def fft(a, n=None, dim=-1, forward=True, scale=1.0):
    c = borrow(a)
    n = a.shape[dim] if n is None else n
    return to_numpy(_fft.c2c(c, dim, n, forward, scale))


# ---------------------------------------------------------------- accuracy


def direct_dft(x, sign=-1):
    """The DFT by its definition, in long double: exact to ~1e-18."""
    n = len(x)
    jk = np.outer(np.arange(n), np.arange(n)) % n
    two_pi = 8 * np.arctan(np.longdouble(1))  # pi in long double, not np.pi
    ang = two_pi * jk.astype(np.longdouble) / n
    w = np.cos(ang) + sign * 1j * np.sin(ang)
    return w @ x.astype(np.clongdouble)


@pytest.mark.parametrize("n", [3, 16, 61, 97, 128, 250])
def test_long_double_reference_is_exact(n):
    x = crandn(np.random.default_rng(n), n)
    assert rel_max(np.fft.fft(x.astype(np.clongdouble)), direct_dft(x)) < 1e-17


@pytest.mark.parametrize("n", LENGTHS + LONG)
def test_accuracy_against_long_double(n):
    """Relative rms error within eps * log2 n and never more than twice
    numpy's own float64 error (plus an ulp); float32 correctly rounded from
    a float64 computation."""
    rng = np.random.default_rng(n)
    x = crandn(rng, n)
    ref = np.fft.fft(x.astype(np.clongdouble))
    ours = fft(x)
    lg = max(np.log2(n), 1.0)
    eps = EPS["complex128"]
    assert rel_rms(ours, ref) <= eps * lg
    assert rel_max(ours, ref) <= 2 * eps * lg
    assert rel_rms(ours, ref) <= 2 * rel_rms(np.fft.fft(x), ref) + eps
    # the inverse (unnormalised), against the same kind of reference
    ref_inv = np.fft.ifft(x.astype(np.clongdouble)) * n
    assert rel_rms(fft(x, forward=False), ref_inv) <= eps * lg
    x32 = x.astype(np.complex64)
    ref32 = np.fft.fft(x32.astype(np.clongdouble))
    assert rel_rms(fft(x32), ref32) <= EPS["complex64"]


# ---------------------------------------------------------------- complex transforms


@pytest.mark.parametrize("dtype", sorted(COMPLEX))
@pytest.mark.parametrize("n", LENGTHS)
def test_c2c_both_signs(n, dtype):
    rng = np.random.default_rng(n)
    x = crandn(rng, (3, n), COMPLEX[dtype])
    close(fft(x), np.fft.fft(x), dtype, n)
    close(fft(x, forward=False, scale=1.0 / n), np.fft.ifft(x), dtype, n)


@pytest.mark.parametrize("n", LONG)
def test_c2c_long_lines(n):
    x = crandn(np.random.default_rng(n), n)
    close(fft(x), np.fft.fft(x), "complex128", n)
    close(fft(x, forward=False, scale=1.0 / n), np.fft.ifft(x), "complex128", n)


@pytest.mark.parametrize("n", [100003, 2**20])
def test_c2c_long_lines_complex64_and_batches(n):
    x = crandn(np.random.default_rng(n), (2, n), np.complex64)
    close(fft(x), np.fft.fft(x), "complex64", n)


@pytest.mark.parametrize("n", [1, 7, 64, 97, 1000, 1021, 16384, 10007])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_batched_along_every_dim(n, dim):
    shape = [3, 2, 5]
    shape[dim] = n
    x = crandn(np.random.default_rng(dim), shape)
    close(fft(x, dim=dim), np.fft.fft(x, axis=dim), "complex128", n)


def stepped(a):
    """a's values in every other element of a twice larger array (both dims)."""
    big = np.zeros((2 * a.shape[0], 2 * a.shape[1]), a.dtype)
    big[::2, ::2] = a
    return big[::2, ::2]


LAYOUTS = {
    "transposed": lambda a: np.ascontiguousarray(a.T).T,
    "reversed": lambda a: np.ascontiguousarray(a[::-1, ::-1])[::-1, ::-1],
    "stepped": stepped,
    "broadcast": lambda a: np.broadcast_to(a[:1], a.shape),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("n", [5, 16, 97, 1021, 4096, 16384])
@pytest.mark.parametrize("dim", [0, 1])
def test_non_contiguous_inputs(layout, n, dim):
    shape = (n, 6) if dim == 0 else (6, n)
    a = LAYOUTS[layout](crandn(np.random.default_rng(n), shape))
    close(fft(a, dim=dim), np.fft.fft(a, axis=dim), "complex128", n)


def test_non_contiguous_output():
    """The core writes through any output strides."""
    x = crandn(np.random.default_rng(0), (4, 60))
    out = np.zeros((60, 8), np.complex128)
    view = out[:, ::2].T  # (4, 60), strides (32, 128)
    lib_out = borrow(view)
    _core.check(lib.st_fft_c2c(lib_out.t, borrow(x).t, 1, 1, 1.0))
    close(view, np.fft.fft(x, axis=1), "complex128", 60)
    assert not out[:, 1::2].any()


@pytest.mark.parametrize(
    "m,n",
    [
        (8, 5),
        (5, 8),
        (0, 4),
        (1, 1),
        (97, 200),
        (200, 97),
        (20000, 16384),
        (16384, 20000),
        (3, 10007),
    ],
)
def test_crop_and_zero_pad(m, n):
    x = crandn(np.random.default_rng(m), (2, m))
    close(fft(x, n=n), np.fft.fft(x, n=n, axis=1), "complex128", n)
    close(fft(x, n=n, forward=False, scale=1.0 / n), np.fft.ifft(x, n=n, axis=1), "complex128", n)


@pytest.mark.parametrize("scale", [1.0, 0.5, 1e-3, -2.0])
def test_scale_is_applied(scale):
    x = crandn(np.random.default_rng(1), 48)
    close(fft(x, scale=scale), scale * np.fft.fft(x), "complex128", 48)


def test_empty_batches():
    x = np.zeros((0, 8), np.complex128)
    assert fft(x).shape == (0, 8)
    assert fft(x, dim=0, n=3).shape == (3, 8)


@given(
    n=st.integers(1, 300),
    batch=st.integers(1, 9),
    dim=st.integers(0, 1),
    forward=st.booleans(),
    dtype=st.sampled_from(sorted(COMPLEX)),
)
def test_c2c_hypothesis(n, batch, dim, forward, dtype):
    shape = (n, batch) if dim == 0 else (batch, n)
    x = crandn(np.random.default_rng(n * batch), shape, COMPLEX[dtype])
    ref = np.fft.fft(x, axis=dim) if forward else np.fft.ifft(x, axis=dim) * n
    close(fft(x, dim=dim, forward=forward), ref, dtype, n)


# ---------------------------------------------------------------- real transforms


def rfft(a, n=None, dim=-1, forward=True, scale=1.0):
    n = a.shape[dim] if n is None else n
    return to_numpy(_fft.r2c(borrow(a), dim, n, forward, scale))


def irfft(a, n, dim=-1, forward=False, scale=None):
    scale = 1.0 / n if scale is None else scale
    return to_numpy(_fft.c2r(borrow(a), dim, n, forward, scale))


@pytest.mark.parametrize("dtype", sorted(REAL))
@pytest.mark.parametrize("n", LENGTHS + [10007, 16384, 65536, 100003])
def test_r2c_and_c2r(n, dtype):
    rng = np.random.default_rng(n)
    x = rng.standard_normal((2, n)).astype(REAL[dtype])
    close(rfft(x), np.fft.rfft(x), dtype, n)
    h = np.fft.rfft(x)
    close(irfft(h, n), np.fft.irfft(h, n), dtype, n)
    # the other signs: ihfft and hfft
    close(rfft(x, forward=False, scale=1.0 / n), np.fft.ihfft(x), dtype, n)
    close(irfft(h, n, forward=True, scale=1.0), np.fft.hfft(h, n), dtype, n)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 9, 64, 97, 1000, 16384, 20001])
def test_c2r_ignores_imaginary_dc_and_nyquist(n):
    h = crandn(np.random.default_rng(n), (3, n // 2 + 1))
    out = irfft(h, n)
    close(out, np.fft.irfft(h, n), "float64", n)
    h2 = h.copy()
    h2[:, 0] += 5j
    if n % 2 == 0:
        h2[:, -1] -= 3j
    np.testing.assert_array_equal(irfft(h2, n), out)


@pytest.mark.parametrize("m,n", [(10, 4), (10, 7), (3, 10), (0, 5), (5, 1), (20000, 16384)])
def test_real_crop_and_pad(m, n):
    rng = np.random.default_rng(m)
    x = rng.standard_normal((2, m))
    close(rfft(x, n=n), np.fft.rfft(x, n=n), "float64", n)
    h = crandn(rng, (2, m))
    # numpy's irfft of an empty axis returns uninitialised memory: the
    # answer is zeros
    expected = np.fft.irfft(h, n) if m else np.zeros((2, n))
    close(irfft(h, n), expected, "float64", n)


@pytest.mark.parametrize("n", [6, 97, 128, 10007])
def test_real_transforms_along_first_dim_and_strided(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal((n, 4))[::-1, ::2]
    close(rfft(x, dim=0), np.fft.rfft(x, axis=0), "float64", n)
    h = crandn(rng, (n // 2 + 1, 6)).T[::-1]  # non-contiguous, reversed
    close(irfft(h, n, dim=1), np.fft.irfft(h, n, axis=1), "float64", n)


def test_round_trips():
    rng = np.random.default_rng(7)
    for n in (1, 2, 15, 97, 4096, 10007):
        x = crandn(rng, (3, n))
        back = to_numpy(_fft.c2c(_fft.c2c(to_core(x), 1, n, True, 1.0), 1, n, False, 1.0 / n))
        close(back, x, "complex128", n)
        r = rng.standard_normal((3, n))
        back = to_numpy(_fft.c2r(_fft.r2c(to_core(r), 1, n, True, 1.0), 1, n, False, 1.0 / n))
        close(back, r, "float64", n)


# ---------------------------------------------------------------- threads and the cache


@pytest.mark.parametrize("shape", [(2**16,), (64, 1000), (3, 100003), (200, 97)])
def test_results_do_not_depend_on_threads(shape):
    x = crandn(np.random.default_rng(3), shape)
    old = strided.getnumthreads()
    try:
        strided.setnumthreads(1)
        one = fft(x)
        strided.setnumthreads(2)
        two = fft(x)
    finally:
        strided.setnumthreads(old)
    np.testing.assert_array_equal(one, two)


def test_concurrent_calls_share_the_plan_cache():
    """Python threads calling at once (the GIL is released in C): plans are
    created, shared and evicted under one lock."""
    rng = np.random.default_rng(5)
    inputs = [crandn(rng, n) for n in (97, 1000, 1021, 4096, 10007, 16384, 12289)] * 3
    results = [None] * len(inputs)

    def work(i):
        for _ in range(3):
            results[i] = fft(inputs[i])

    _fft.clear_cache()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x, y in zip(inputs, results):
        close(y, np.fft.fft(x), "complex128", len(x))


def test_more_lengths_than_the_cache_holds():
    rng = np.random.default_rng(9)
    for n in range(200, 240):  # 40 plans through a cache of 16
        x = crandn(rng, n)
        close(fft(x), np.fft.fft(x), "complex128", n)
    _fft.clear_cache()
    x = crandn(rng, 211)
    close(fft(x), np.fft.fft(x), "complex128", 211)


# ---------------------------------------------------------------- bad input


def core(shape, dt):
    return _core.Core.empty(shape, dt)


def test_dtype_errors():
    c = core((4,), "complex128")
    with pytest.raises(TypeError, match="complex"):
        _core.check(lib.st_fft_c2c(core((4,), "float64").t, core((4,), "float64").t, 0, 1, 1.0))
    with pytest.raises(TypeError, match="complex64"):
        _core.check(lib.st_fft_c2c(core((4,), "complex64").t, c.t, 0, 1, 1.0))
    with pytest.raises(TypeError, match="float32 or float64"):
        _core.check(lib.st_fft_r2c(core((3,), "complex128").t, c.t, 0, 4, 1, 1.0))
    with pytest.raises(TypeError, match="complex64"):
        _core.check(
            lib.st_fft_r2c(core((3,), "complex64").t, core((4,), "float64").t, 0, 4, 1, 1.0)
        )
    with pytest.raises(TypeError, match="float32"):
        _core.check(lib.st_fft_c2r(core((4,), "float64").t, core((3,), "complex64").t, 0, 0, 1.0))
    with pytest.raises(TypeError, match="complex"):
        _core.check(lib.st_fft_c2r(core((4,), "float64").t, core((3,), "float64").t, 0, 0, 1.0))
    with pytest.raises(TypeError, match="int64"):
        _fft.c2c(core((4,), "int64"), 0, 4, True, 1.0)
    with pytest.raises(TypeError):
        _fft.r2c(c, 0, 4, True, 1.0)


def test_shape_and_length_errors():
    c = core((2, 4), "complex128")
    with pytest.raises(ValueError, match=">= 1"):
        _core.check(lib.st_fft_c2c(core((2, 0), "complex128").t, c.t, 1, 1, 1.0))
    with pytest.raises(ValueError, match="differ on dim 0"):
        _core.check(lib.st_fft_c2c(core((3, 4), "complex128").t, c.t, 1, 1, 1.0))
    with pytest.raises(ValueError, match="number of dims"):
        _core.check(lib.st_fft_c2c(core((8,), "complex128").t, c.t, 0, 1, 1.0))
    with pytest.raises(IndexError, match="dim 2"):
        _core.check(lib.st_fft_c2c(core((2, 4), "complex128").t, c.t, 2, 1, 1.0))
    with pytest.raises(IndexError, match="dim -1"):
        _core.check(lib.st_fft_c2c(core((2, 4), "complex128").t, c.t, -1, 1, 1.0))
    with pytest.raises(ValueError, match="n/2 \\+ 1 = 3"):
        _core.check(
            lib.st_fft_r2c(core((2, 4), "complex128").t, core((2, 4), "float64").t, 1, 4, 1, 1.0)
        )
    with pytest.raises(ValueError, match=">= 1"):
        _core.check(
            lib.st_fft_r2c(core((2, 1), "complex128").t, core((2, 4), "float64").t, 1, 0, 1, 1.0)
        )
    with pytest.raises(ValueError, match="exceeds"):
        _core.check(
            lib.st_fft_r2c(
                core((2, 1), "complex128").t, core((2, 4), "float64").t, 1, 2**41, 1, 1.0
            )
        )
    with pytest.raises(ValueError, match="at least"):
        _core.check(lib.st_fft_c2c(core((), "complex128").t, core((), "complex128").t, 0, 1, 1.0))
    for bad in (0, -3):
        with pytest.raises(ValueError, match=">= 1"):
            _fft.c2c(c, 1, bad, True, 1.0)
    with pytest.raises(TypeError, match="integer"):
        _fft.c2c(c, 1, 2.5, True, 1.0)


def test_output_memory_errors():
    x = crandn(np.random.default_rng(0), 16)
    c = borrow(x)
    with pytest.raises(ValueError, match="shares memory"):
        _core.check(lib.st_fft_c2c(c.t, c.t, 0, 1, 1.0))
    ro = np.zeros(16, np.complex128)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _core.check(lib.st_fft_c2c(borrow(ro).t, c.t, 0, 1, 1.0))
    assert not ro.any()
    np.testing.assert_array_equal(to_numpy(c), x)  # the input is never written


def test_norm_scales():
    assert _fft.scale_for("backward", 8, True) == 1.0
    assert _fft.scale_for("backward", 8, False) == 0.125
    assert _fft.scale_for("forward", 8, True) == 0.125
    assert _fft.scale_for("forward", 8, False) == 1.0
    assert _fft.scale_for("ortho", 16, True) == 0.25 == _fft.scale_for("ortho", 16, False)
    with pytest.raises(ValueError, match="norm"):
        _fft.scale_for("both", 8, True)


def test_header_constants():
    assert lib.ST_FFT_MAX_RADIX == 67
    assert lib.ST_FFT_MAX_N == 2**40
    assert ffi.typeof(lib.st_fft_c2c).result.cname == "int"


# ---------------------------------------------------------------- odd real lengths
# Odd real lines go through real-data passes (strided/_c/fft_real.c): radices
# 3, 5, 7, 11, 13 compiled with the radix a constant, any odd prime up to 67
# by the generic pass, a single line's stage of l1 = 1 by its own copy.
# Bluestein lengths (a prime factor above 67) and lines past 32767 points
# stay on the complex path: both sides of those edges are here.

ODD_REAL = [
    1,
    3,
    5,
    7,
    9,
    11,
    13,
    15,
    17,
    21,
    23,
    25,
    27,
    33,
    35,
    39,
    45,
    49,
    55,
    63,
    65,
    67,
    71,
    77,
    91,
    99,
    121,
    125,
    143,
    169,
    3 * 67,
    225,
    243,
    343,
    59 * 61,
    625,
    1001,
    1125,
    2025,
    2187,
    2835,
    3125,
    7 * 11 * 13 * 3,
    10125,
    10007,
    3**9,
    5**6,
    32767,
    33075,
]


def real_both_ways(x, n, dim, dtype):
    """r2c, c2r and the other signs (ihfft, hfft) of x along dim against numpy."""
    close(rfft(x, n=n, dim=dim), np.fft.rfft(x, n=n, axis=dim), dtype, n)
    close(
        rfft(x, n=n, dim=dim, forward=False, scale=1.0 / n),
        np.fft.ihfft(x, n=n, axis=dim),
        dtype,
        n,
    )
    h = np.fft.rfft(x, n=n, axis=dim)
    if dtype == "float32":
        h = h.astype(np.complex64)
    close(irfft(h, n, dim=dim), np.fft.irfft(h, n, axis=dim), dtype, n)
    close(irfft(h, n, dim=dim, forward=True, scale=1.0), np.fft.hfft(h, n, axis=dim), dtype, n)


@pytest.mark.parametrize("dtype", sorted(REAL))
@pytest.mark.parametrize("n", ODD_REAL)
def test_odd_real_single_lines(n, dtype):
    x = np.random.default_rng(n).standard_normal(n).astype(REAL[dtype])
    real_both_ways(x, n, 0, dtype)


@pytest.mark.parametrize("dtype", sorted(REAL))
@pytest.mark.parametrize("n", [3, 15, 77, 143, 201, 2025, 3**7, 10125])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_odd_real_batches_along_every_dim(n, dim, dtype):
    shape = [3, 5, 2]
    shape[dim] = n
    x = np.random.default_rng(n + dim).standard_normal(shape).astype(REAL[dtype])
    real_both_ways(x, n, dim, dtype)


@pytest.mark.parametrize("n", [45, 2025])
def test_odd_real_many_lines(n):
    """More lines than a group of lanes, a ragged last group: (201, n) and
    (n, 201) along both dims (201 = 3 * 67: the generic pass)."""
    rng = np.random.default_rng(n)
    for x in (rng.standard_normal((201, n)), rng.standard_normal((n, 201))):
        for dim in (0, 1):
            real_both_ways(x, x.shape[dim], dim, "float64")


@pytest.mark.parametrize("n", [9, 35, 1125])
@pytest.mark.parametrize(
    "layout", ["reversed", "step", "transposed", "complex_parts", "column_step"]
)
def test_odd_real_non_contiguous(layout, n):
    rng = np.random.default_rng(n)
    if layout == "reversed":
        x = rng.standard_normal((3, n))[:, ::-1]
    elif layout == "step":
        x = rng.standard_normal((3, 3 * n))[:, ::3]
    elif layout == "transposed":
        x = rng.standard_normal((n, 4)).T
    elif layout == "complex_parts":
        x = crandn(rng, (4, n)).imag  # stride of 16 bytes
    else:
        x = rng.standard_normal((2 * n, 6))[::-2, ::2]
    for dim in (0, 1):
        m = x.shape[dim]
        if m % 2:
            real_both_ways(x, m, dim, "float64")
        # the half spectrum non-contiguous too
        h = np.fft.rfft(x, axis=dim)
        hv = np.flip(np.concatenate([h, h], axis=1 - dim), axis=1 - dim)
        hv = hv[:, ::2] if dim == 0 else hv[::2]
        nn = 2 * h.shape[dim] - 1  # odd
        close(irfft(hv, nn, dim=dim), np.fft.irfft(hv, nn, axis=dim), "float64", nn)


@pytest.mark.parametrize("m,n", [(10, 7), (3, 11), (1, 9), (0, 5), (7, 1), (40, 25), (2, 2025)])
def test_odd_real_crop_and_pad(m, n):
    """rfft reading m real points of an odd n (cropped or zero-padded); irfft
    to an odd n from m complex points (fewer or more than (n+1)/2)."""
    rng = np.random.default_rng(m * 100 + n)
    x = rng.standard_normal((2, m))
    close(rfft(x, n=n), np.fft.rfft(x, n=n), "float64", n)
    h = crandn(rng, (2, m))
    expected = np.fft.irfft(h, n) if m else np.zeros((2, n))
    close(irfft(h, n), expected, "float64", n)
    if m:
        one = np.ascontiguousarray(h[0])  # a single contiguous line
        close(irfft(one, n), np.fft.irfft(one, n), "float64", n)
        close(irfft(one.astype(np.complex64), n), np.fft.irfft(one, n), "float32", n)


@pytest.mark.parametrize("n", [1, 3, 25, 1125])
def test_odd_c2r_ignores_imaginary_dc(n):
    h = crandn(np.random.default_rng(n), (3, (n + 1) // 2))
    out = irfft(h, n)
    h2 = h.copy()
    h2[:, 0] += 5j
    np.testing.assert_array_equal(irfft(h2, n), out)
    np.testing.assert_array_equal(irfft(h2[1], n), out[1])


@given(
    n=st.integers(0, 300).map(lambda k: 2 * k + 1),
    batch=st.integers(1, 11),
    dim=st.integers(0, 1),
    forward=st.booleans(),
    dtype=st.sampled_from(sorted(REAL)),
)
def test_odd_real_hypothesis(n, batch, dim, forward, dtype):
    shape = (n, batch) if dim == 0 else (batch, n)
    x = np.random.default_rng(n * batch).standard_normal(shape).astype(REAL[dtype])
    if forward:
        close(rfft(x, dim=dim), np.fft.rfft(x, axis=dim), dtype, n)
        h = np.fft.rfft(x, axis=dim)
        close(irfft(h, n, dim=dim), np.fft.irfft(h, n, axis=dim), dtype, n)
    else:
        close(rfft(x, dim=dim, forward=False, scale=1.0 / n), np.fft.ihfft(x, axis=dim), dtype, n)
        h = np.fft.ihfft(x, axis=dim)
        close(irfft(h, n, dim=dim, forward=True, scale=1.0), np.fft.hfft(h, n, axis=dim), dtype, n)


@given(n=st.integers(0, 2000).map(lambda k: 2 * k + 1), data=st.data())
def test_odd_real_round_trip_hypothesis(n, data):
    """c2r(r2c(x)) / n is x, in one line or a few, for any odd n."""
    rows = data.draw(st.integers(1, 3))
    x = np.random.default_rng(n).standard_normal((rows, n))
    back = to_numpy(_fft.c2r(_fft.r2c(to_core(x), 1, n, True, 1.0), 1, n, False, 1.0 / n))
    close(back, x, "float64", n)


@pytest.mark.parametrize(
    "shape,dim", [((64, 2025), 1), ((2025, 64), 0), ((3, 10125), 1), ((9, 3**9), 1)]
)
def test_odd_real_results_do_not_depend_on_threads(shape, dim):
    x = np.random.default_rng(5).standard_normal(shape)
    n = shape[dim]
    h = np.fft.rfft(x, axis=dim)
    old = strided.getnumthreads()
    try:
        got = []
        for nt in (1, 2):
            strided.setnumthreads(nt)
            got.append((rfft(x, dim=dim), irfft(h, n, dim=dim)))
    finally:
        strided.setnumthreads(old)
    np.testing.assert_array_equal(got[0][0], got[1][0])
    np.testing.assert_array_equal(got[0][1], got[1][1])

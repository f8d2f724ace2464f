"""float32 exp at the CPU level this process runs (.ci/cpu-levels runs
tests/core at levels 0, 3 and 4): level 4's AVX-512 kernel (vmath512.h's
st_vexpf16: a 16-entry table read by a permute, a degree-3 polynomial,
vscalefps), level 3's table-free st_vexpf (vmath.h) and level 0's float64
kernel rounded to float.  Their measured maximum errors (every float of
|x| < 160, docs/performance.md): 0.576 ulp where the result is normal and
0.765 where it is subnormal (level 4), 0.939 (level 3), 0.5 and a hair
(level 0); numpy's is 2.4.  Checked here on a dense sample of the whole
range and on every float near the overflow, subnormal and underflow
boundaries; the special values exactly as correctly rounded (inf exactly
where the rounded result overflows, 0 exactly where it underflows, NaN,
infinities); the vector tails, the lanes handed to libm inside a vector,
strided, in-place and streamed outputs; and the 16-bit exps, which
compute through it, over every float16 and bfloat16 input against
float32's exp rounded once (numpy's float32 exp for float16, PyTorch's
bfloat16 exp)."""

import numpy as np
import pytest

from helpers import borrow, to_core, to_numpy
from strided.core import base as _core
from strided.core import ops as _ops

LEVEL = _core.cpu_level()
# (normal results, subnormal results): the measured maximum, rounded up
BOUND = {4: (0.58, 0.77), 3: (0.94, 0.94)}.get(LEVEL, (0.51, 0.51))
TINY = np.float32(np.finfo(np.float32).tiny)


def exp32(x):
    return to_numpy(_ops.unary("exp", to_core(np.ascontiguousarray(x, np.float32))))


def ulps(got, x):
    """|got - exp(x)| in ulps of the float32 result (subnormal ulps below
    the normal range), exp in long double; 0 where got is exp(x) rounded;
    inf for a wrong infinity, zero or NaN"""
    with np.errstate(all="ignore"):
        ref = np.exp(x.astype(np.longdouble))
        rounded = ref.astype(np.float32)
        same = (got == rounded) | (np.isnan(got) & np.isnan(ref))
        fin = np.isfinite(rounded) & np.isfinite(got) & ~same
        _, e = np.frexp(ref[fin])
        ulp = np.ldexp(np.longdouble(1), np.maximum(e - 24, -149))
        err = np.zeros(got.shape)
        err[fin] = (np.abs(got[fin].astype(np.longdouble) - ref[fin]) / ulp).astype(np.float64)
        err[~same & ~fin] = np.inf
    return err


def around(c, k=1 << 12):
    """the 2k floats nearest c"""
    u = int(np.float32(c).view(np.uint32))
    return np.arange(u - k, u + k, dtype=np.int64).astype(np.uint32).view(np.float32)


def check_bounds(x):
    got = exp32(x)
    err = ulps(got, x)
    sub = np.abs(got) < TINY
    for part, bound in [(~sub, BOUND[0]), (sub, BOUND[1])]:
        if part.any():
            worst = int(np.flatnonzero(part)[np.argmax(err[part])])
            assert err[worst] <= bound, (LEVEL, x[worst], got[worst], err[worst])


def test_dense_sample_of_the_whole_range():
    # every 1021st float of |x| < 160 (2.2 million), both signs: the kernels'
    # whole domain, normal and subnormal results, and the |x| < 2^-24 where
    # exp(x) is 1 or its neighbour
    top = int(np.float32(160).view(np.uint32))
    u = np.arange(0, top, 1021, dtype=np.uint32)
    x = u.view(np.float32)
    check_bounds(np.concatenate([x, -x]))


@pytest.mark.parametrize(
    "c",
    [
        88.72283,  # the largest finite result; inf just above
        -87.33655,  # where the results become subnormal
        -103.97208,  # the smallest subnormal; 0 below
        -100.0,  # deep in the subnormals
        0.0,  # 1 and its neighbours
        np.log(2.0) / 32,  # the first reduction interval's edge (level 4)
        159.99998,  # the kernels' domain ends at 160: libm beyond
        -159.99998,
    ],
)
def test_every_float_near_the_boundaries(c):
    x = around(c)
    check_bounds(x)
    got = exp32(x)
    with np.errstate(all="ignore"):
        rounded = np.exp(x.astype(np.float64)).astype(np.float32)
    # inf exactly where the rounded exp overflows, 0 exactly where it underflows
    np.testing.assert_array_equal(np.isinf(got), np.isinf(rounded))
    np.testing.assert_array_equal(got == 0, rounded == 0)


def test_special_values():
    x = np.float32(
        [
            np.nan,
            -np.nan,
            np.inf,
            -np.inf,
            0.0,
            -0.0,
            160.0,
            -160.0,
            1e10,
            -1e10,
            3.4e38,
            -3.4e38,
            1e-45,
            -1e-45,
            1e-40,
            88.72284,
            -103.97209,
            104.0,
            -104.0,
            200.0,
            -200.0,
        ]
    )
    with np.errstate(all="ignore"):
        want = np.exp(x.astype(np.float64)).astype(np.float32)
    for n in [1, 16, 17, 33]:  # alone, and in vector bodies and tails
        xs = np.resize(x, x.size * n)
        ws = np.resize(want, x.size * n)
        got = exp32(xs)
        np.testing.assert_array_equal(got, ws)  # NaN for NaN; 1 for +-0
    # a NaN keeps being a NaN whatever its sign or payload
    nans = np.uint32([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC12345]).view(np.float32)
    assert np.isnan(exp32(nans)).all()


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 31, 32, 33, 511, 512, 513, 1000])
def test_lanes_outside_the_domain_inside_vectors(n):
    # ordinary values with a special one (libm's lane) at every position
    rng = np.random.default_rng(n)
    base = (rng.standard_normal(n) * 20).astype(np.float32)
    want = exp32(base)
    for pos in range(0, n, max(1, n // 40)):
        for v in [np.nan, np.inf, -np.inf, 200.0, -200.0]:
            x = base.copy()
            x[pos] = v
            got = exp32(x)
            w = want.copy()
            with np.errstate(all="ignore"):
                w[pos] = np.exp(np.float32(v))
            np.testing.assert_array_equal(got, w)


def test_layouts_give_the_contiguous_result():
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(40_000) * 30).astype(np.float32)
    want = exp32(x)
    # strided input and output
    big = np.zeros(2 * x.size, np.float32)
    big[::2] = x
    out = np.full(3 * x.size, 7, np.float32)
    _ops.unary("exp", borrow(big[::2]), out=borrow(out[::3]))
    np.testing.assert_array_equal(out[::3], want)
    assert (out.reshape(-1, 3)[:, 1:] == 7).all()
    # in place
    y = x.copy()
    c = borrow(y)
    _ops.unary("exp", c, out=c)
    np.testing.assert_array_equal(y, want)
    # large (streamed output), aligned and not: as the small calls give it
    xl = (rng.standard_normal(6_000_001) * 30).astype(np.float32)
    piece = np.concatenate([exp32(xl[i : i + 100_000]) for i in range(0, xl.size, 100_000)])
    np.testing.assert_array_equal(exp32(xl), piece)
    np.testing.assert_array_equal(exp32(xl[1:]), piece[1:])


def test_float16_every_input_is_float32_exp_rounded_once():
    import strided.compat as xp

    h = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got = np.asarray(xp.exp(xp.asarray(h)))
    x = h.astype(np.float32)
    with np.errstate(all="ignore"):
        for want in [
            np.exp(x).astype(np.float16),
            np.exp(x.astype(np.float64)).astype(np.float32).astype(np.float16),
        ]:
            np.testing.assert_array_equal(got, want)  # numpy's float32 exp, and the rounded one


def test_bfloat16_every_input_against_pytorch():
    import strided.compat as xp

    torch = pytest.importorskip("torch")
    x = (np.arange(1 << 16, dtype=np.uint32) << 16).view(np.float32)
    got = np.asarray(xp.astype(xp.exp(xp.astype(xp.asarray(x), xp.bfloat16)), xp.float32))
    want = torch.exp(torch.from_numpy(x).bfloat16()).float().numpy()
    np.testing.assert_array_equal(got, want)
    with np.errstate(all="ignore"):
        rounded = np.exp(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, torch.from_numpy(rounded).bfloat16().float().numpy())

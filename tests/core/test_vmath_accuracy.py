"""hypot runs our own kernel (strided/_c/vmath2.h), float64 and float32, at every CPU level (CI runs this file at
STRIDED_CPU_LEVEL=0 and 3 too): at most 1 ulp (they measure about 0.51)
against a reference that is exact to far below that -- numpy in long
double for float64 inputs, numpy in float64 for float32 inputs -- and the
special values (NaN, infinities, zeros, subnormals, the ends of the
range) exactly numpy's, which the kernels leave to scalar libm.

(The other libmvec functions keep libmvec: docs/performance.md.)"""

import numpy as np
import pytest

from helpers import borrow, to_core, to_numpy
from strided.core import ops as _ops

DTYPES = ["float64", "float32"]


def ulp_errors(got, ref, dt):
    """|got - ref| in ulps of ref in dtype dt (ref exact or wider, taken as
    infinite where it rounds beyond dt's range); 0 where got equals ref
    (infinities, zeros), inf for a NaN or infinity that ref does not have."""
    fi = np.finfo(dt)
    ref = np.asarray(ref, np.longdouble)
    with np.errstate(over="ignore"):
        ref = np.where(np.isinf(ref.astype(dt)), ref.astype(dt), ref)  # beyond the range: inf
    g = got.astype(np.longdouble)
    same = (g == ref) | (np.isnan(g) & np.isnan(ref))
    _, e = np.frexp(np.abs(np.where(np.isfinite(ref), ref, 0)))
    ulp = np.ldexp(
        np.longdouble(1), np.maximum(e.astype(np.int64) - fi.nmant - 1, fi.minexp - fi.nmant)
    )
    with np.errstate(invalid="ignore"):
        err = np.abs(g - ref) / ulp
    err = np.where(np.isnan(err) | (np.isinf(g) != np.isinf(ref)), np.inf, err)
    return np.where(same, 0, err).astype(np.float64)


def hypot_ref(x, y):
    w = np.longdouble if x.dtype == np.float64 else np.float64
    return np.hypot(x.astype(w), y.astype(w))


def log_uniform(rng, lo, hi, n):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def hypot_domain(dt, n=4000, seed=1):
    """(x, y) over the range, with ratios from equal to far apart, and
    arguments near the overflow and underflow ends"""
    rng = np.random.default_rng(seed)
    tiny, huge = (1e-45, 3.4e38) if dt == "float32" else (5e-324, 1.7e308)

    def signed(v):
        return v * rng.choice([-1.0, 1.0], v.size)

    xs = [
        rng.uniform(-10, 10, n),
        log_uniform(rng, tiny, huge, n),
        log_uniform(rng, 1, 1e3, n),
        log_uniform(rng, huge / 1e3, huge, n),
        log_uniform(rng, tiny, tiny * 1e20, n),
    ]
    ys = [
        rng.uniform(-10, 10, n),
        log_uniform(rng, tiny, huge, n),
        xs[2] * log_uniform(rng, 1e-20, 1, n),
        log_uniform(rng, huge / 1e3, huge, n),
        log_uniform(rng, tiny, tiny * 1e20, n),
    ]
    with np.errstate(over="ignore"):
        x = np.concatenate([signed(v) for v in xs]).astype(dt)
        y = np.concatenate([signed(v) for v in ys]).astype(dt)
    return x, y


SPECIALS = [
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    1.0,
    -1.0,
    5e-324,
    -5e-324,
    1e-310,
    1e-45,
    -1e-45,
    1e-40,
    2.2250738585072014e-308,
    1.1754944e-38,
    1e-300,
    1e-30,
    2.0**-60,
    2.0**-61,
    40.0,
    -40.0,
    88.0,
    -88.0,
    103.9,
    -104.0,
    704.0,
    -704.0,
    709.0,
    -709.0,
    745.0,
    -745.0,
    746.0,
    -746.0,
    1e10,
    -1e10,
    3.4028235e38,
    -3.4028235e38,
    8.98846567431158e307,
    1.7976931348623157e308,
    -1.7976931348623157e308,
]


def assert_same(got, want):
    """equal, NaN for NaN (of either sign), and the sign of zero too"""
    np.testing.assert_array_equal(got, want)
    num = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[num]), np.signbit(want[num]))


@pytest.mark.parametrize("dt", DTYPES)
def test_hypot_within_one_ulp(dt):
    x, y = hypot_domain(dt)
    got = to_numpy(_ops.binary("hypot", to_core(x), to_core(y)))
    err = ulp_errors(got, hypot_ref(x, y), dt)
    worst = int(np.argmax(err))
    assert err[worst] <= 1.0, (x[worst], y[worst], got[worst], err[worst])
    assert np.percentile(err, 99.9) <= 0.55


@pytest.mark.parametrize("dt", DTYPES)
def test_hypot_special_values_match_numpy(dt):
    with np.errstate(all="ignore"):
        v = np.array(SPECIALS, np.float64).astype(dt)
        x, y = (a.ravel() for a in np.meshgrid(v, v))
        want = np.hypot(x, y)
    got = to_numpy(_ops.binary("hypot", to_core(x), to_core(y)))
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(x) | ~np.isfinite(y)
    special |= (np.abs(x) < np.finfo(dt).tiny) & (np.abs(y) < np.finfo(dt).tiny)
    assert_same(got[special], want[special])
    assert ulp_errors(got, hypot_ref(x, y), dt).max() <= 1.0


CASES = [("hypot", dt) for dt in DTYPES]


@pytest.mark.parametrize("op,dt", CASES)
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 511, 512, 513, 1025, 5000])
def test_layouts_and_aliasing_give_the_contiguous_result(op, dt, n):
    """a stepped operand, a stepped output, a broadcast scalar and out ==
    input: the same values as the contiguous call (the blocks are gathered
    and run through the same kernel), nothing else written"""
    args = [a[::7][:n] for a in hypot_domain(dt, n=max(n, 1), seed=n)]
    args = [np.ascontiguousarray(a) for a in args]
    n = args[0].size

    def call(*xs, out=None):
        return _ops.binary(op, *xs, out=out)

    got = to_numpy(call(*[to_core(a) for a in args]))
    bigs = []
    for a in args:
        big = np.zeros(2 * n, dt)
        big[::2] = a
        bigs.append(big)
    out = np.full(3 * n, 7, dt)
    call(*[borrow(b[::2]) for b in bigs], out=borrow(out[::3]))
    np.testing.assert_array_equal(out[::3], got)
    assert (out.reshape(-1, 3)[:, 1:] == 7).all()
    for which in range(len(args)):
        ops = [a.copy() for a in args]
        c = borrow(ops[which])
        call(*[c if k == which else to_core(ops[k]) for k in range(len(args))], out=c)
        np.testing.assert_array_equal(ops[which], got)
    if op == "hypot" and n:
        # a broadcast scalar (a zero step) against the stepped other operand
        s = args[1][:1].copy()
        want = to_numpy(call(to_core(args[0]), to_core(np.repeat(s, n))))
        np.testing.assert_array_equal(to_numpy(call(to_core(args[0]), to_core(s))), want)

"""Reductions (strided/_c/reduce.c through strided/core/ops.py), numpy as the
oracle: sum, prod, min, max, all, any over every set of axes with and
without keepdims, in every dtype and layout; empty reductions; mean, var
and std; argmax/argmin; cumulative sums and products; count_nonzero; and
results that do not depend on the number of threads.

Accumulators: bool and signed integers sum and multiply in int64, unsigned
ones in uint64 (wrapping, as numpy's sum(dtype=...) does), floats and
complex in their own type.  Float sums and products follow a blocked
pairwise tree (docs/core-semantics.md; its bit-for-bit promises are
tests/core/test_reduction_order.py's), so float results are checked against a
float64 / exact oracle within a bound proportional to the number of terms
times the type's epsilon, scaled by the sum of |x|."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided
from helpers import (
    DTYPE_NAMES,
    INT_NAMES,
    NUMPY,
    arrays,
    borrow,
    layouts,
    shapes,
    to_core,
    to_numpy,
)
from strided.core import base as _core, ops as _ops

FLOAT_NAMES = ["float32", "float64"]
COMPLEX_NAMES = ["complex64", "complex128"]
INEXACT = FLOAT_NAMES + COMPLEX_NAMES
REAL_NAMES = ["bool"] + INT_NAMES + FLOAT_NAMES  # what min/max/argmax take
EPS = {
    "float32": float(np.finfo(np.float32).eps),
    "complex64": float(np.finfo(np.float32).eps),
    "float64": float(np.finfo(np.float64).eps),
    "complex128": float(np.finfo(np.float64).eps),
}
BASE_RTOL = {"float32": 1e-6, "complex64": 1e-6, "float64": 1e-12, "complex128": 1e-12}
WIDE = {
    "float32": np.float64,
    "float64": np.float64,
    "complex64": np.complex128,
    "complex128": np.complex128,
}


def acc_name(dt):
    """The documented accumulator of sum and prod."""
    if dt == "bool" or dt.startswith("int"):
        return "int64"
    if dt.startswith("uint"):
        return "uint64"
    return dt


def result_name(op, dt):
    return {
        "sum": acc_name(dt),
        "prod": acc_name(dt),
        "min": dt,
        "max": dt,
        "all": "bool",
        "any": "bool",
    }[op]


# ---------------------------------------------------------------- strategies


def width(dt):
    return 32 if dt in ("float32", "complex64") else 64


def bounded(dt, bound=1e3):
    """Finite values of moderate size (no overflow in any summation order)."""
    real = st.floats(-bound, bound, width=width(dt))
    if dt in COMPLEX_NAMES:
        return st.builds(complex, real, real)
    return real


def near_one(dt):
    """Values whose products of up to 6**4 factors neither overflow nor
    underflow in any order: magnitudes in [0.95, 1.05] with either sign,
    and zero.  (Complex: modulus in that range, any angle.)"""
    mag = st.floats(0.95, 1.05)
    if dt in COMPLEX_NAMES:
        return st.one_of(
            st.just(0j),
            st.builds(
                lambda r, t: complex(r * math.cos(t), r * math.sin(t)),
                mag,
                st.floats(-math.pi, math.pi),
            ),
        )
    return st.one_of(st.just(0.0), mag, mag.map(lambda x: -x))


def elements(op, dt):
    if dt not in INEXACT:
        return None  # every integer: wrapping is part of the test
    if op in ("sum", "mean", "var", "std"):
        return bounded(dt)
    if op == "prod":
        return near_one(dt)
    return None  # min/max/all/any/argmax: NaN and inf included


@st.composite
def laid_out(draw, dt, shape=shapes, elements=None):
    a = draw(arrays(dt, shape, elements=elements))
    return draw(layouts(a))


@st.composite
def axes_for(draw, ndim):
    """None, one axis (maybe negative), or a tuple of distinct axes (maybe empty)."""
    kind = draw(st.sampled_from(["none", "one", "tuple"]))
    if kind == "none":
        return None
    if ndim == 0:
        return draw(st.sampled_from([(), 0, -1, (0,)])) if kind != "none" else None
    if kind == "one":
        return draw(st.integers(-ndim, ndim - 1))
    picked = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    return tuple(d - ndim if draw(st.booleans()) else d for d in picked)


def np_axes(axes, ndim):
    """numpy's spelling of the same axes (a 0-d array has none to name)."""
    if ndim == 0:
        return None
    return axes


def reduced_count(shape, axes):
    nd = len(shape)
    if axes is None or nd == 0:
        return math.prod(shape)
    if isinstance(axes, int):
        axes = (axes,)
    return math.prod(shape[d % nd] for d in axes)


# ---------------------------------------------------------------- oracles


def assert_float_close(got, want_exact, absum, dt, n):
    """|got - want| <= rtol * sum|x| with rtol = max(base, 2 n eps): the
    worst case of sequential summation in the type, so never flaky, while a
    wrong or missing term of any weight is seen."""
    rtol = max(BASE_RTOL[dt], 2 * max(n, 1) * EPS[dt])
    err = np.abs(got.astype(WIDE[dt]) - want_exact)
    # a result (or a mean's division) may round to a subnormal or to zero:
    # one unit of the smallest subnormal is the type's own resolution there
    subnormal = float(np.finfo(NUMPY[dt]).smallest_subnormal)
    bound = rtol * absum + subnormal
    assert np.all(err <= bound), (got, want_exact, err.max() if err.size else 0, bound)


def reduced_dims(ndim, axes):
    if ndim == 0:
        return ()
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, int):
        axes = (axes,)
    return tuple(d % ndim for d in axes)


def check_reduction(op, a, axes, keepdims):
    dt = a.dtype.name
    c = borrow(a)
    if op in ("min", "max") and any(a.shape[d] == 0 for d in reduced_dims(a.ndim, axes)):
        with pytest.raises(ValueError, match="empty"):
            _ops.reduce(op, c, axes, keepdims)
        return
    got_c = _ops.reduce(op, c, axes, keepdims)
    assert got_c.dtype.name == result_name(op, dt)
    got = to_numpy(got_c)
    ax = np_axes(axes, a.ndim)
    res = NUMPY[result_name(op, dt)]
    with np.errstate(all="ignore"):
        if op == "sum":
            want = np.sum(a, axis=ax, dtype=res, keepdims=keepdims)
        elif op == "prod":
            want = np.prod(a, axis=ax, dtype=res, keepdims=keepdims)
        elif op == "min":
            want = np.min(a, axis=ax, keepdims=keepdims)
        elif op == "max":
            want = np.max(a, axis=ax, keepdims=keepdims)
        elif op == "all":
            want = np.all(a, axis=ax, keepdims=keepdims)
        else:
            want = np.any(a, axis=ax, keepdims=keepdims)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if dt in INEXACT and op in ("sum", "prod"):
        n = reduced_count(a.shape, axes)
        wide = a.astype(WIDE[dt])
        exact = np.asarray((np.sum if op == "sum" else np.prod)(wide, axis=ax, keepdims=keepdims))
        if op == "sum":
            absum = np.sum(np.abs(wide), axis=ax, keepdims=keepdims)
        else:  # a product's error is relative to its size
            absum = np.prod(np.abs(wide), axis=ax, keepdims=keepdims)
        assert_float_close(got, exact, absum, dt, n)
        # numpy, in the type itself, is within the same bound
        assert_float_close(want.astype(NUMPY[dt]), exact, absum, dt, n)
    else:
        np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- sum, prod, min, max, all, any

CASES = [
    (op, dt)
    for op in ["sum", "prod", "min", "max", "all", "any"]
    for dt in DTYPE_NAMES
    if not (op in ("min", "max") and dt in COMPLEX_NAMES)
]


@pytest.mark.parametrize("op,dt", CASES, ids=[f"{o}-{d}" for o, d in CASES])
@given(data=st.data())
def test_reduce(op, dt, data):
    a = data.draw(laid_out(dt, elements=elements(op, dt)), label="a")
    axes = data.draw(axes_for(a.ndim), label="axes")
    keepdims = data.draw(st.booleans(), label="keepdims")
    check_reduction(op, a, axes, keepdims)


@pytest.mark.parametrize("op,dt", [("min", "complex64"), ("max", "complex128")])
def test_min_max_refuse_complex(op, dt):
    with pytest.raises(TypeError, match=op):
        _ops.reduce(op, to_core(np.ones(3, NUMPY[dt])))


@pytest.mark.parametrize("op", ["min", "max"])
@pytest.mark.parametrize("dt", FLOAT_NAMES)
def test_min_max_propagate_nan(op, dt):
    a = np.array(
        [[1.0, np.nan, -np.inf, 5.0], [np.inf, 2.0, -1.0, 3.0], [0.0, -0.0, 7.0, np.nan]], NUMPY[dt]
    )
    c = to_core(a)
    f = getattr(np, op)
    got = to_numpy(_ops.reduce(op, c))
    assert np.isnan(got)
    np.testing.assert_array_equal(to_numpy(_ops.reduce(op, c, 0)), f(a, 0))
    np.testing.assert_array_equal(to_numpy(_ops.reduce(op, c, 1)), f(a, 1))
    # NaN first, last, alone: the answer is NaN wherever it appears
    for pos in range(5):
        lane = np.arange(5, dtype=NUMPY[dt])
        lane[pos] = np.nan
        assert np.isnan(_core.item(_ops.reduce(op, to_core(lane))))


@pytest.mark.parametrize("dt", DTYPE_NAMES)
def test_empty_reductions(dt):
    a = np.zeros((0, 3), NUMPY[dt])
    c = to_core(a)
    acc = NUMPY[acc_name(dt)]
    for axes in (None, 0, (0, 1)):
        s = to_numpy(_ops.reduce("sum", c, axes))
        p = to_numpy(_ops.reduce("prod", c, axes))
        assert s.dtype == acc and p.dtype == acc
        assert np.all(s == 0) and np.all(p == 1)
        assert s.shape == np.sum(a, axis=axes).shape
        assert np.all(to_numpy(_ops.reduce("all", c, axes)))
        assert not np.any(to_numpy(_ops.reduce("any", c, axes)))
    # reducing the non-empty dim of an empty array: an empty result
    assert to_numpy(_ops.reduce("sum", c, 1)).shape == (0,)
    if dt not in COMPLEX_NAMES:
        assert to_numpy(_ops.reduce("max", c, 1)).shape == (0,)
        for op in ("min", "max"):
            for axes in (None, 0, (0, 1), -2):
                with pytest.raises(ValueError):
                    _ops.reduce(op, c, axes)
    # the empty sum of a 1-d array is the 0-d identity
    assert _core.item(_ops.reduce("sum", to_core(np.zeros(0, NUMPY[dt])))) == 0
    assert _core.item(_ops.reduce("prod", to_core(np.zeros(0, NUMPY[dt])))) == 1


@pytest.mark.parametrize("dt", INT_NAMES + ["bool"])
def test_integer_sums_widen_and_wrap(dt):
    info = np.iinfo(NUMPY[dt]) if dt != "bool" else None
    if dt == "bool":
        a = np.ones(1000, bool)
        assert _core.item(_ops.reduce("sum", to_core(a))) == 1000
        return
    a = np.full(1000, info.max, NUMPY[dt])
    got = _core.item(_ops.reduce("sum", to_core(a)))
    assert got == int(np.sum(a, dtype=NUMPY[acc_name(dt)]))
    if info.bits < 64:
        assert got == 1000 * int(info.max)  # no wrap in the 64-bit accumulator
    p = _core.item(_ops.reduce("prod", to_core(np.full(70, 3, NUMPY[dt]))))
    assert p == int(np.prod(np.full(70, 3, NUMPY[dt]), dtype=NUMPY[acc_name(dt)]))
    want = (3**70) % 2**64  # wraps modulo 2**64
    if acc_name(dt) == "int64" and want >= 2**63:
        want -= 2**64
    assert p == want


def test_reduce_3d_transposed_several_axes():
    rng = np.random.default_rng(7)
    base = rng.standard_normal((13, 17, 19))
    a = base.transpose(2, 0, 1)[::-1, :, ::2]  # (19, 13, 9), no dim contiguous
    c = borrow(a)
    for axes in [(0, 1), (0, 2), (1, 2), (0, 1, 2), (2, 0), (-1, -3)]:
        for keepdims in (False, True):
            np.testing.assert_allclose(
                to_numpy(_ops.reduce("sum", c, axes, keepdims)),
                a.sum(axis=axes, keepdims=keepdims),
                rtol=1e-12,
                atol=1e-12,
            )
            np.testing.assert_array_equal(
                to_numpy(_ops.reduce("max", c, axes, keepdims)), a.max(axis=axes, keepdims=keepdims)
            )
            np.testing.assert_allclose(
                to_numpy(_ops.var(c, axes, 1, keepdims)),
                a.var(axis=axes, ddof=1, keepdims=keepdims),
                rtol=1e-12,
            )
    ia = (base * 1000).astype(np.int32).transpose(1, 2, 0)[:, ::-3]
    for axes in [(0, 1), (1, 2), (0, 2), None]:
        np.testing.assert_array_equal(
            to_numpy(_ops.reduce("sum", borrow(ia), axes)), ia.sum(axis=axes, dtype=np.int64)
        )


def test_reduce_bad_axes():
    c = to_core(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="2"):
        _ops.reduce("sum", c, 2)
    with pytest.raises(IndexError, match="-3"):
        _ops.reduce("sum", c, (0, -3))
    with pytest.raises(ValueError, match="repeated"):
        _ops.reduce("sum", c, (1, -1))


# ---------------------------------------------------------------- mean, var, std


@pytest.mark.parametrize("dt", INEXACT)
@given(data=st.data())
def test_mean(dt, data):
    a = data.draw(laid_out(dt, elements=bounded(dt)), label="a")
    axes = data.draw(axes_for(a.ndim), label="axes")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got_c = _ops.mean(borrow(a), axes, keepdims)
    assert got_c.dtype.name == dt
    got = to_numpy(got_c)
    ax = np_axes(axes, a.ndim)
    n = reduced_count(a.shape, axes)
    wide = a.astype(WIDE[dt])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy: "Mean of empty slice"
        want = np.asarray(np.mean(wide, axis=ax, keepdims=keepdims))
        assert got.shape == want.shape
        if n == 0:
            assert np.all(np.isnan(got))
            return
        absum = np.sum(np.abs(wide), axis=ax, keepdims=keepdims) / n
    assert_float_close(got, want, absum, dt, n)


def var_bound(a_wide, ax, keepdims, n, dt, want):
    """Two-pass variance: relative error ~ n eps on the sum of squares, plus
    the square of the mean's own error (n eps max|x|) for near-constant data,
    plus underflow of the squares."""
    k = 4 * max(n, 1) * EPS[dt]
    big = np.max(np.abs(a_wide), axis=ax, keepdims=keepdims, initial=0.0)
    tiny = float(np.finfo(NUMPY[dt]).tiny)  # squares below this underflow
    return max(BASE_RTOL[dt], k) * np.abs(want) + (k * big) ** 2 + 4 * max(n, 1) * tiny


@pytest.mark.parametrize("dt", INEXACT)
@pytest.mark.parametrize("correction", [0, 1])
@given(data=st.data())
def test_var_std(dt, correction, data):
    a = data.draw(laid_out(dt, elements=bounded(dt)), label="a")
    axes = data.draw(axes_for(a.ndim), label="axes")
    keepdims = data.draw(st.booleans(), label="keepdims")
    c = borrow(a)
    v, s = _ops.var(c, axes, correction, keepdims), _ops.std(c, axes, correction, keepdims)
    real = "float32" if dt in ("float32", "complex64") else "float64"
    assert v.dtype.name == real and s.dtype.name == real
    gv, gs = to_numpy(v), to_numpy(s)
    ax = np_axes(axes, a.ndim)
    n = reduced_count(a.shape, axes)
    wide = a.astype(WIDE[dt])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.asarray(np.var(wide, axis=ax, ddof=correction, keepdims=keepdims))
        want_s = np.asarray(np.std(wide, axis=ax, ddof=correction, keepdims=keepdims))
    assert gv.shape == want.shape and gs.shape == want.shape
    if n - correction <= 0:
        # no degrees of freedom: 0/0 (numpy: NaN, or inf for a nonzero sum)
        assert np.all(np.isnan(gv) | np.isinf(gv))
        return
    bound = var_bound(wide, ax, keepdims, n, dt, want)
    assert np.all(np.abs(gv - want) <= bound), (gv, want)
    # |sqrt(x) - sqrt(y)| <= sqrt(|x - y|), plus sqrt's own rounding
    assert np.all(np.abs(gs - want_s) <= np.sqrt(bound) + 2 * EPS[dt] * want_s), (gs, want_s)
    np.testing.assert_allclose(gs, np.sqrt(gv.astype(np.float64)), rtol=4 * EPS[dt])


@pytest.mark.parametrize("dt", INEXACT)
def test_var_known_values(dt):
    a = np.array([[1, 2, 3, 4], [2, 2, 2, 2], [-1, 1, -1, 1]], NUMPY[dt])
    c = to_core(a)
    np.testing.assert_allclose(to_numpy(_ops.var(c, 1)), [1.25, 0, 1], rtol=1e-6)
    np.testing.assert_allclose(to_numpy(_ops.var(c, 1, 1)), [5 / 3, 0, 4 / 3], rtol=1e-6)
    np.testing.assert_allclose(to_numpy(_ops.std(c, 1, 1)), np.sqrt([5 / 3, 0, 4 / 3]), rtol=1e-6)
    np.testing.assert_allclose(to_numpy(_ops.mean(c, 0)), a.astype(WIDE[dt]).mean(0), rtol=1e-6)
    if dt in COMPLEX_NAMES:
        z = np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j], NUMPY[dt])
        assert _core.item(_ops.var(to_core(z))) == pytest.approx(2.0)


@pytest.mark.parametrize("dt", ["float64", "complex128"])
def test_var_is_numerically_stable(dt):
    """Two passes: 1e9 + small noise keeps the variance of the noise, which
    the one-pass E[x^2] - E[x]^2 loses entirely in float64."""
    rng = np.random.default_rng(3)
    noise = rng.standard_normal((40, 1000))
    a = (1e9 + noise).astype(NUMPY[dt])
    if dt == "complex128":
        a = a + 1j * (-2e9 + rng.standard_normal(a.shape))
    c = to_core(a)
    for axes, ddof in [(None, 0), (1, 1), (0, 0), ((0, 1), 1)]:
        want = a.var(axis=axes, ddof=ddof)
        np.testing.assert_allclose(to_numpy(_ops.var(c, axes, ddof)), want, rtol=1e-6)
        np.testing.assert_allclose(
            to_numpy(_ops.std(c, axes, ddof)), a.std(axis=axes, ddof=ddof), rtol=1e-6
        )
    one_pass = np.mean(a.real**2) - np.mean(a.real) ** 2
    assert abs(one_pass - noise.var()) > 0.01 * noise.var()  # the naive formula fails here


def test_var_float32_offset():
    rng = np.random.default_rng(4)
    a = (1e4 + rng.standard_normal(5000)).astype(np.float32)
    np.testing.assert_allclose(
        _core.item(_ops.var(to_core(a))), a.astype(np.float64).var(), rtol=1e-3
    )


# ---------------------------------------------------------------- argmax / argmin


def tie_elements(dt):
    """Few distinct values, so ties are frequent; floats add NaN, +-0, +-inf."""
    if dt == "bool":
        return None
    if dt in FLOAT_NAMES:
        return st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan])
    info = np.iinfo(NUMPY[dt])
    return st.sampled_from(sorted({int(info.min), int(info.max), 0, 1, 2}))


@pytest.mark.parametrize("dt", REAL_NAMES)
@pytest.mark.parametrize("is_max", [True, False], ids=["argmax", "argmin"])
@given(data=st.data())
def test_argreduce(dt, is_max, data):
    a = data.draw(laid_out(dt, elements=tie_elements(dt)), label="a")
    axis = data.draw(
        st.none() | (st.integers(-a.ndim, a.ndim - 1) if a.ndim else st.none()), label="axis"
    )
    keepdims = data.draw(st.booleans(), label="keepdims")
    f = np.argmax if is_max else np.argmin
    n = a.size if axis is None else a.shape[axis]
    if n == 0:
        with pytest.raises(ValueError):
            _ops.argreduce(is_max, borrow(a), axis, keepdims)
        return
    got_c = _ops.argreduce(is_max, borrow(a), axis, keepdims)
    assert got_c.dtype.name == "int64"
    want = np.asarray(f(a, axis=axis, keepdims=keepdims))
    got = to_numpy(got_c)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", FLOAT_NAMES)
def test_argreduce_nan_and_ties(dt):
    a = np.array([3.0, 1.0, 3.0, np.nan, 1.0, np.nan], NUMPY[dt])
    c = to_core(a)
    assert _core.item(_ops.argreduce(True, c)) == 3
    assert _core.item(_ops.argreduce(False, c)) == 3
    b = np.array([3.0, 1.0, 3.0, 1.0], NUMPY[dt])
    assert _core.item(_ops.argreduce(True, to_core(b))) == 0
    assert _core.item(_ops.argreduce(False, to_core(b))) == 1
    assert _core.item(_ops.argreduce(True, to_core(np.array([np.nan, 5.0], NUMPY[dt])))) == 0
    z = np.array([-0.0, 0.0, -np.inf, -np.inf], NUMPY[dt])
    assert _core.item(_ops.argreduce(True, to_core(z))) == 0
    assert _core.item(_ops.argreduce(False, to_core(z))) == 2


def test_argreduce_refuses_complex():
    with pytest.raises(TypeError):
        _ops.argreduce(True, to_core(np.ones(3, np.complex64)), 0)


# ---------------------------------------------------------------- cumulative


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@pytest.mark.parametrize("is_prod", [False, True], ids=["cumsum", "cumprod"])
@given(data=st.data())
def test_cumulative(dt, is_prod, data):
    a = data.draw(laid_out(dt, elements=elements("prod" if is_prod else "sum", dt)), label="a")
    axis = data.draw(st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1), label="axis")
    got_c = _ops.cumulative(is_prod, borrow(a), axis)
    assert got_c.dtype.name == acc_name(dt)
    got = to_numpy(got_c)
    acc = NUMPY[acc_name(dt)]
    f = np.cumprod if is_prod else np.cumsum
    if a.ndim == 0:
        want = a.astype(acc)
    else:
        want = f(a, axis=axis, dtype=acc)
    assert got.shape == want.shape
    if dt in INEXACT:
        # sequential in both, but complex products may be contracted (FMA)
        wide = f(a.astype(WIDE[dt]), axis=axis) if a.ndim else a.astype(WIDE[dt])
        scale = (
            (
                np.cumsum(np.abs(a.astype(WIDE[dt])), axis=axis)
                if not is_prod
                else np.cumprod(np.abs(a.astype(WIDE[dt])), axis=axis)
            )
            if a.ndim
            else np.abs(wide)
        )
        n = a.shape[axis] if a.ndim else 1
        assert_float_close(got, wide, scale, dt, n)
        if not is_prod and dt in FLOAT_NAMES:
            np.testing.assert_array_equal(got, want)  # the same sequential sums
    else:
        np.testing.assert_array_equal(got, want)


def test_cumulative_in_place():
    a = np.arange(1, 13, dtype=np.int64).reshape(3, 4)
    c = to_core(a)
    _core.check(_core.lib.st_cumulative(0, c.t, c.t, 1))
    np.testing.assert_array_equal(to_numpy(c), np.cumsum(a, 1))


# ---------------------------------------------------------------- count_nonzero


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_count_nonzero(dt, data):
    el = (
        None
        if dt == "bool"
        else (
            st.sampled_from([0, 0, 1, -0.0, np.nan, 2.5])
            if dt in FLOAT_NAMES
            else st.sampled_from([0, 0, 1, 1j, -0.0, complex(0, -0.0)])
            if dt in COMPLEX_NAMES
            else st.sampled_from([0, 0, 1, 7])
        )
    )
    a = data.draw(laid_out(dt, elements=el), label="a")
    assert _ops.count_nonzero(borrow(a)) == np.count_nonzero(a)


# ---------------------------------------------------------------- threads


def with_threads(n, f):
    before = strided.getnumthreads()
    try:
        strided.setnumthreads(n)
        return f()
    finally:
        strided.setnumthreads(before)


def all_results(c):
    out = []
    for axes in (None, 0, 1, (0, 1), ()):
        for op in ("sum", "prod", "min", "max", "all", "any"):
            if op in ("min", "max") and c.dtype.kind == "c":
                continue
            out.append(to_numpy(_ops.reduce(op, c, axes)))
        if c.dtype.kind in "fc":
            out.append(to_numpy(_ops.mean(c, axes)))
            out.append(to_numpy(_ops.var(c, axes, 1)))
    for axis in (None, 0, 1):
        if c.dtype.kind != "c":
            out.append(to_numpy(_ops.argreduce(True, c, axis)))
            out.append(to_numpy(_ops.argreduce(False, c, axis)))
    for axis in (0, 1):
        out.append(to_numpy(_ops.cumulative(False, c, axis)))
    out.append(_ops.count_nonzero(c))
    return out


@pytest.mark.parametrize("shape", [(300, 700), (301, 703), (5, 70001), (70001, 3)])
@pytest.mark.parametrize("dt", ["float64", "float32", "complex64", "int32"])
def test_results_identical_for_one_and_two_threads(shape, dt):
    rng = np.random.default_rng(11)
    a = 1 + 1e-4 * rng.standard_normal(shape)  # products stay away from 0 and inf
    if dt.startswith("complex"):
        a = a + 1e-4j * rng.standard_normal(shape)
    a = a.astype(NUMPY[dt]) if not dt.startswith("int") else rng.integers(-50, 50, shape, NUMPY[dt])
    a[1, 2] = 0
    for layout in (a, np.ascontiguousarray(a.T).T):
        c = borrow(layout)
        one = with_threads(1, lambda: all_results(c))
        two = with_threads(2, lambda: all_results(c))
        assert len(one) == len(two)
        for k, (x, y) in enumerate(zip(one, two)):
            np.testing.assert_array_equal(x, y, err_msg=f"result {k} differs")
    # and they are right
    wide = a.astype(np.complex128 if dt.startswith("complex") else np.float64)
    np.testing.assert_allclose(
        to_numpy(with_threads(2, lambda: _ops.reduce("sum", borrow(a), 1))),
        wide.sum(1),
        rtol=1e-4 if dt in ("float32", "complex64") else 1e-12,
    )


# ---------------------------------------------------------------- vector paths
# Sizes around the vector kernels' widths: 64-byte vectors, four of them per
# step (vmax/vmin), eight per block of columns (outer reductions), argmax
# blocks of 4096, and the two-thread split of one long lane (65536).

VEC_SIZES = [
    1,
    2,
    7,
    8,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    127,
    128,
    129,
    255,
    256,
    257,
    511,
    512,
    513,
    1023,
    1024,
    1025,
    2049,
    3001,
]
VEC_DTYPES = ["float64", "float32", "int32", "int8", "uint16", "int64"]


def sample(n, dt, seed=0):
    rng = np.random.default_rng(seed + n)
    if dt in FLOAT_NAMES:
        return rng.standard_normal(n).astype(NUMPY[dt])
    info = np.iinfo(NUMPY[dt])
    return rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(NUMPY[dt])


@pytest.mark.parametrize("dt", VEC_DTYPES)
@pytest.mark.parametrize("n", VEC_SIZES)
def test_min_max_contiguous_sizes(dt, n):
    a = sample(n, dt)
    for op, f in (("max", np.max), ("min", np.min)):
        assert _core.item(_ops.reduce(op, to_core(a))) == f(a)
        np.testing.assert_array_equal(to_numpy(_ops.reduce(op, to_core(a[::2]))), f(a[::2]))


@pytest.mark.parametrize("dt", FLOAT_NAMES)
@pytest.mark.parametrize("n", [64, 65, 130, 257, 1025, 3001])
def test_min_max_nan_and_inf_anywhere(dt, n):
    base = sample(n, dt)
    for pos in sorted({0, 1, 31, 32, 63, n // 2, n - 2, n - 1} & set(range(n))):
        a = base.copy()
        a[pos] = np.nan
        for op in ("max", "min"):
            assert np.isnan(_core.item(_ops.reduce(op, to_core(a)))), (op, pos)
        # +inf and -inf together make the sum that watches for NaN NaN: the
        # exact fold must still give the extremes
        b = base.copy()
        b[pos] = np.inf
        b[(pos + n // 3) % n] = -np.inf
        if b[pos] == np.inf:
            assert _core.item(_ops.reduce("max", to_core(b))) == np.inf
            assert _core.item(_ops.reduce("min", to_core(b))) == np.min(b)


@pytest.mark.parametrize("dt", ["float64", "float32", "int32", "int8"])
@pytest.mark.parametrize("n", VEC_SIZES + [4095, 4096, 4097, 8191, 12289, 65536 + 3, 200001])
def test_argreduce_contiguous_sizes_and_ties(dt, n):
    a = sample(n, dt)
    hi, lo = a.max(), a.min()
    for k in (n // 3, n - 1, 0):  # repeat the extremes later: the first must win
        a[k] = hi
        a[(k + n // 2) % n] = lo
    for is_max, f in ((True, np.argmax), (False, np.argmin)):
        for threads in (1, 2):
            got = with_threads(threads, lambda: _core.item(_ops.argreduce(is_max, to_core(a))))
            assert got == f(a), (is_max, threads)
        got = to_numpy(_ops.argreduce(is_max, to_core(a[::-3])))
        assert got == f(a[::-3])


@pytest.mark.parametrize("dt", FLOAT_NAMES)
@pytest.mark.parametrize("n", [64, 1025, 3001, 4097, 65536 + 3, 200001])
def test_argreduce_nan_and_signed_zero_placement(dt, n):
    base = np.abs(sample(n, dt)) + 1
    for pos in sorted({0, 33, 1023, 1024, 4095, 4096, n // 2, n - 1} & set(range(n))):
        a = base.copy()
        a[pos] = np.nan
        a[-1] = np.nan  # a later NaN: the first one wins
        for is_max, f in ((True, np.argmax), (False, np.argmin)):
            for threads in (1, 2):
                got = with_threads(threads, lambda: _core.item(_ops.argreduce(is_max, to_core(a))))
                assert got == f(a) == pos, (is_max, threads, pos)
    z = np.zeros(n, NUMPY[dt])
    z[n // 2 :] = -0.0
    z[n - 1] = -0.0
    for is_max in (True, False):
        assert _core.item(_ops.argreduce(is_max, to_core(z))) == 0
        assert _core.item(_ops.argreduce(is_max, to_core(-z))) == 0


@pytest.mark.parametrize("dt", ["float64", "float32", "int16"])
@pytest.mark.parametrize("cols", [1, 15, 16, 17, 63, 64, 65, 128, 129, 300])
def test_argreduce_rows(dt, cols):
    rng = np.random.default_rng(cols)
    a = rng.integers(-3, 4, (7, cols)).astype(NUMPY[dt])  # many ties
    if dt in FLOAT_NAMES and cols > 2:
        a[2, cols // 2] = np.nan
    for is_max, f in ((True, np.argmax), (False, np.argmin)):
        for axis in (0, 1):
            np.testing.assert_array_equal(
                to_numpy(_ops.argreduce(is_max, to_core(a), axis)), f(a, axis=axis)
            )


OUTER_DTYPES = ["float64", "float32", "int32", "int8", "uint64", "bool", "complex64"]


@pytest.mark.parametrize("dt", OUTER_DTYPES)
@pytest.mark.parametrize("cols", [2, 16, 63, 64, 65, 127, 128, 129, 511, 512, 513, 1100])
@pytest.mark.parametrize("rows", [37, 300])
def test_outer_reductions_follow_the_inner_order(dt, cols, rows):
    """axis 0 of a matrix with contiguous rows: the blocked kernels keep the
    outputs in vector lanes, yet every float sum follows the one order of
    docs/core-semantics.md, so it is bit for bit the sum of the transposed
    contiguous copy (reduced one output at a time); integer sums are exact."""
    rng = np.random.default_rng(cols + rows)
    if dt == "bool":
        a = rng.integers(0, 2, (rows, cols)).astype(bool)
    elif dt in COMPLEX_NAMES:
        a = (rng.standard_normal((rows, cols)) + 1j * rng.standard_normal((rows, cols))).astype(
            NUMPY[dt]
        )
    elif dt in FLOAT_NAMES:
        a = rng.standard_normal((rows, cols)).astype(NUMPY[dt])
    else:
        a = rng.integers(0, 100, (rows, cols)).astype(NUMPY[dt])
    for view in (a, a[::2], a[::-1]):
        c = borrow(view)
        got = to_numpy(_ops.reduce("sum", c, 0))
        if dt in INEXACT:
            inner = to_numpy(_ops.reduce("sum", to_core(np.ascontiguousarray(view.T)), 1))
            assert got.tobytes() == inner.tobytes()
            np.testing.assert_allclose(
                got, view.astype(WIDE[dt]).sum(0), rtol=BASE_RTOL[dt] * 10, atol=BASE_RTOL[dt] * 10
            )
        else:
            np.testing.assert_array_equal(got, view.sum(0, dtype=NUMPY[acc_name(dt)]))
        if dt not in COMPLEX_NAMES:
            np.testing.assert_array_equal(to_numpy(_ops.reduce("max", c, 0)), view.max(0))
            np.testing.assert_array_equal(to_numpy(_ops.reduce("min", c, 0)), view.min(0))
        if dt in FLOAT_NAMES:
            np.testing.assert_allclose(
                to_numpy(_ops.var(c, 0)), view.astype(np.float64).var(0), rtol=BASE_RTOL[dt] * 100
            )


@pytest.mark.parametrize("dt", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(9, 4096), (130, 4097), (20, 9000), (300, 70)])
def test_outer_reductions_wide_rows(dt, shape):
    """axis 0 over rows of 64 and more columns: the wide pass reads whole
    rows (in pieces of 4096 columns) into lane rows; sums, products and
    variances are the transposed copy's bits, at 1 and 2 threads, for
    contiguous, stepped and reversed rows and a middle axis."""
    rng = np.random.default_rng(shape[0] + shape[1])
    a = rng.standard_normal(shape)
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(NUMPY[dt])
    for view in (a, a[::3], a[::-1], a[:, 5:]):
        c = borrow(view)
        ct = to_core(np.ascontiguousarray(view.T))
        for op in ("sum", "prod"):
            src = c if op == "sum" else borrow(1 + view * 1e-3)
            src_t = ct if op == "sum" else to_core(np.ascontiguousarray((1 + view * 1e-3).T))
            inner = to_numpy(_ops.reduce(op, src_t, 1))
            for threads in (1, 2):
                got = with_threads(threads, lambda: to_numpy(_ops.reduce(op, src, 0)))
                assert got.tobytes() == inner.tobytes(), (op, threads)
        if dt in FLOAT_NAMES:
            got = to_numpy(_ops.var(c, 0))
            assert got.tobytes() == to_numpy(_ops.var(ct, 1)).tobytes()
            np.testing.assert_allclose(
                got, view.astype(np.float64).var(0), rtol=BASE_RTOL[dt] * 100
            )
    # a reduced pair of dims whose rows are not evenly spaced (a walk of rows)
    b = a[: shape[0] // 2 * 2].reshape(2, shape[0] // 2, shape[1])[:, ::2]
    got = to_numpy(_ops.reduce("sum", borrow(b), (0, 1)))
    flat = np.ascontiguousarray(b.reshape(-1, shape[1]).T)
    assert got.tobytes() == to_numpy(_ops.reduce("sum", to_core(flat), 1)).tobytes()


@pytest.mark.parametrize("dt", FLOAT_NAMES)
def test_outer_reductions_nan_and_middle_axis(dt):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 9, 200)).astype(NUMPY[dt])
    a[1, 3, 150] = np.nan
    a[2, 0, 7] = np.nan
    c = to_core(a)
    for axis in (0, 1, (0, 1)):
        for op, f in (("max", np.max), ("min", np.min)):
            np.testing.assert_array_equal(to_numpy(_ops.reduce(op, c, axis)), f(a, axis=axis))
        np.testing.assert_allclose(
            to_numpy(_ops.reduce("sum", c, axis)),
            a.sum(axis=axis),
            rtol=BASE_RTOL[dt] * 10,
            atol=BASE_RTOL[dt] * 10,
        )
        np.testing.assert_allclose(
            to_numpy(_ops.std(c, axis, 1)), a.std(axis=axis, ddof=1), rtol=BASE_RTOL[dt] * 100
        )


@pytest.mark.parametrize("dt", ["float64", "float32", "int32", "uint8", "bool", "complex128"])
@pytest.mark.parametrize("cols", [15, 16, 17, 33, 1000])
def test_cumulative_along_rows(dt, cols):
    """Cumulative sums along an outer axis walk whole rows; each column is
    still one sequential sum, numpy's bit for bit."""
    rng = np.random.default_rng(cols)
    if dt in FLOAT_NAMES:
        a = rng.standard_normal((5, 11, cols)).astype(NUMPY[dt])
        a[0, 0, 3] = -0.0
    elif dt in COMPLEX_NAMES:
        a = (rng.standard_normal((5, 11, cols)) + 1j).astype(NUMPY[dt])
    elif dt == "bool":
        a = rng.integers(0, 2, (5, 11, cols)).astype(bool)
    else:
        a = rng.integers(0, 250, (5, 11, cols)).astype(NUMPY[dt])
    acc = NUMPY[acc_name(dt)]
    for view in (a, a[:, ::-2], a.transpose(1, 0, 2)):
        for axis in (0, 1):
            for threads in (1, 2):
                got = with_threads(
                    threads, lambda: to_numpy(_ops.cumulative(False, borrow(view), axis))
                )
                np.testing.assert_array_equal(got, np.cumsum(view, axis=axis, dtype=acc))
            if dt not in INEXACT:
                np.testing.assert_array_equal(
                    to_numpy(_ops.cumulative(True, borrow(view), axis)),
                    np.cumprod(view, axis=axis, dtype=acc),
                )


def test_cumulative_along_rows_large_split_across_threads():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((300, 1000))
    one = with_threads(1, lambda: to_numpy(_ops.cumulative(False, to_core(a), 0)))
    two = with_threads(2, lambda: to_numpy(_ops.cumulative(False, to_core(a), 0)))
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(two, np.cumsum(a, 0))
    i = (rng.integers(0, 3**5, (300, 40)) - 100).astype(np.int64)
    np.testing.assert_array_equal(to_numpy(_ops.cumulative(True, to_core(i), 0)), np.cumprod(i, 0))


# ---------------------------------------------------------------- vector sums of squares


@pytest.mark.parametrize("dt", FLOAT_NAMES)
@pytest.mark.parametrize("n", VEC_SIZES + [4095, 4096, 4097, 65536 + 3, 200001])
def test_var_contiguous_sizes_pairwise_accuracy(dt, n):
    """Sums of (x - mean)^2 over contiguous segments are folded pairwise in
    vectors: the error of the whole, of rows (axis 1) and of strided views
    stays near the rounding of the type, offset data included."""
    a = (sample(n, dt) + 1000).astype(NUMPY[dt])
    wide = a.astype(np.float64)
    tol = 5e-5 if dt == "float32" else 1e-12
    for view, wview in ((a, wide), (a[::3], wide[::3]), (a[::-1], wide[::-1])):
        if view.size < 2:
            continue
        got = _core.item(_ops.var(to_core(view), None, 1))
        want = wview.var(ddof=1)
        assert abs(got - want) <= tol * want, (got, want)
    if n >= 8:
        m = a[: n - n % 4].reshape(4, -1)
        np.testing.assert_allclose(
            to_numpy(_ops.var(to_core(m), 1)), m.astype(np.float64).var(1), rtol=tol
        )
        np.testing.assert_allclose(
            to_numpy(_ops.var(to_core(m.T), 0)), m.astype(np.float64).var(1), rtol=tol
        )


@pytest.mark.parametrize("dt", FLOAT_NAMES)
@pytest.mark.parametrize("n", [64, 65, 1025, 3001])
def test_var_nan_and_inf_anywhere(dt, n):
    base = sample(n, dt)
    for pos in sorted({0, 1, 63, n // 2, n - 1} & set(range(n))):
        for bad in (np.nan, np.inf):
            a = base.copy()
            a[pos] = bad
            assert np.isnan(_core.item(_ops.var(to_core(a)))), (pos, bad)
            rows = np.tile(a, (3, 1))
            assert np.isnan(to_numpy(_ops.var(to_core(rows), 1))).all()


def test_var_float32_many_elements_accurate():
    """10^7 float32 values far from 0: a naive float32 running sum of squares
    would lose most digits; the pairwise vector fold keeps float32 rounding."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(10**7) + 100).astype(np.float32)
    want = a.astype(np.float64).var()
    for threads in (1, 2):
        got = with_threads(threads, lambda: _core.item(_ops.var(to_core(a))))
        assert abs(got - want) <= 1e-5 * want, (threads, got, want)


# ---------------------------------------------------------------- arg-reductions along rows


ARG_ROWS_DTYPES = ["float64", "float32", "int32", "int64", "uint32", "uint64", "int8"]


@pytest.mark.parametrize("dt", ARG_ROWS_DTYPES)
@pytest.mark.parametrize("cols", [16, 17, 31, 32, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000])
def test_argreduce_axis0_blocks_ties_and_nan(dt, cols):
    """axis 0 of a C-contiguous matrix walks the rows keeping each column's
    best in vector lanes: first row of a tie wins, the first NaN wins, a
    NaN in row 0 is kept; 1 and 2 threads agree; views too."""
    rng = np.random.default_rng(cols)
    rows = 41
    if dt in FLOAT_NAMES:
        a = rng.integers(-3, 4, (rows, cols)).astype(NUMPY[dt])  # many ties
        a[rng.random((rows, cols)) < 0.03] = np.nan
        a[0, ::7] = np.nan
        a[rng.random((rows, cols)) < 0.05] = -0.0
    else:
        info = np.iinfo(NUMPY[dt])
        a = rng.integers(0, 4, (rows, cols)).astype(NUMPY[dt])
        a[5, ::3] = info.max
        a[9, ::3] = info.min
        a[20, ::5] = info.max
    for view in (a, a[::-1], a[1::2], a[:, 1:]):
        if view.shape[1] == 0:
            continue
        for is_max, f in ((True, np.argmax), (False, np.argmin)):
            want = f(view, axis=0)
            for threads in (1, 2):
                got = with_threads(
                    threads, lambda: to_numpy(_ops.argreduce(is_max, borrow(view), 0))
                )
                np.testing.assert_array_equal(
                    got, want, err_msg=f"{is_max} {threads} {view.strides}"
                )


def test_argreduce_axis0_large_split_across_threads():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((700, 3001)).astype(np.float32)
    a[rng.random(a.shape) < 1e-3] = np.nan
    b = rng.integers(-5, 5, (3, 300, 1100)).astype(np.int64)
    for is_max, f in ((True, np.argmax), (False, np.argmin)):
        for threads in (1, 2):
            got = with_threads(threads, lambda: to_numpy(_ops.argreduce(is_max, to_core(a), 0)))
            np.testing.assert_array_equal(got, f(a, axis=0))
            for axis in (0, 1):
                got = with_threads(
                    threads, lambda: to_numpy(_ops.argreduce(is_max, to_core(b), axis))
                )
                np.testing.assert_array_equal(got, f(b, axis=axis))


# ---------------------------------------------------------------- vector counts


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int32", "float32", "int64", "float64"])
@pytest.mark.parametrize(
    "n", VEC_SIZES + [255 * 256 - 1, 255 * 256, 255 * 256 + 1, 4 * 255 * 64 + 77, 300001]
)
def test_count_nonzero_vector_sizes(dt, n):
    """The vector count sums byte lanes every 255 vectors: counts past that
    (all ones), NaN and -0.0 (zero), 1 and 2 threads, strided views."""
    rng = np.random.default_rng(n)
    a = (rng.random(n) < 0.4).astype(NUMPY[dt])
    if dt in FLOAT_NAMES and n > 3:
        a[::5] = np.nan
        a[1::7] = -0.0
    ones = np.ones(n, NUMPY[dt])
    for x in (a, ones, a[::3], a[::-1]):
        for threads in (1, 2):
            assert with_threads(threads, lambda: _ops.count_nonzero(borrow(x))) == np.count_nonzero(
                x
            )
    if dt == "bool":  # bool sums count the same way
        assert _core.item(_ops.reduce("sum", to_core(a))) == np.count_nonzero(a)
        assert _core.item(_ops.reduce("sum", to_core(ones))) == n


@pytest.mark.parametrize("dt", ["float64", "float32", "int16", "uint64", "bool"])
@pytest.mark.parametrize("shape", [(20000, 7), (9000, 200), (300, 2048), (70000, 1)])
def test_outer_reductions_of_short_rows_split_by_rows(dt, shape):
    """axis 0 of a tall matrix of short rows (a page at most) is shared out
    by rows, each chunk folded into its own accumulators and the chunks
    combined in order: min/max (NaN payloads: which one is not promised, but
    the same on any thread count), all/any and integer sums equal numpy's on
    1 and 2 threads; wide rows fold four rows per pass."""
    rng = np.random.default_rng(shape[0] + shape[1])
    if dt == "bool":
        a = rng.random(shape) < 0.999
    elif dt in FLOAT_NAMES:
        a = rng.standard_normal(shape).astype(NUMPY[dt])
        bits = np.uint64 if dt == "float64" else np.uint32
        quiet = 0x7FF8000000000000 if dt == "float64" else 0x7FC00000
        for k, r in enumerate((shape[0] // 3, shape[0] // 2, shape[0] - 1)):
            a.view(bits)[r, :: k + 2] = quiet | (k + 1)  # payloads 1, 2, 3 in row order
    else:
        a = rng.integers(0, 100, shape).astype(NUMPY[dt])
    for view in (a, a[::-1]):
        c = borrow(view)
        for threads in (1, 2):
            for op in ("min", "max"):
                got = with_threads(threads, lambda: to_numpy(_ops.reduce(op, c, 0)))
                np.testing.assert_array_equal(got, getattr(np, op)(view, axis=0))
                one = with_threads(1, lambda: to_numpy(_ops.reduce(op, c, 0)))
                assert got.tobytes() == one.tobytes()  # NaN payloads too, whatever the threads
            for op in ("all", "any"):
                got = with_threads(threads, lambda: to_numpy(_ops.reduce(op, c, 0)))
                np.testing.assert_array_equal(got, getattr(np, op)(view, axis=0))
            if dt not in FLOAT_NAMES:
                got = with_threads(threads, lambda: to_numpy(_ops.reduce("sum", c, 0)))
                np.testing.assert_array_equal(got, view.sum(0, dtype=NUMPY[acc_name(dt)]))

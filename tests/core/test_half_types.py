"""The 16-bit floats of the core, float16 and bfloat16: conversions
(exhaustive over their 65536 bit patterns; numpy's float16 and PyTorch's
bfloat16 the oracles, an exact rounding of our own for double -> bfloat16,
where PyTorch rounds through float) and computing through float32: every
result is float32's result rounded once."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from strided.core import base as _core, indexing as _indexing, ops as _ops

from helpers import borrow, needs_pytorch, pytorch, to_numpy

HALVES = ["float16", "bfloat16"]
ALL16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)  # every bit pattern


def bits_core(bits, name):
    """A Core of the 16-bit type `name` holding the uint16 patterns `bits`."""
    u = borrow(np.ascontiguousarray(bits, np.uint16))  # alive while the view is made
    return _core.Core.over(u.storage, name, 0, np.shape(bits), None)


def core_bits(c):
    """The uint16 patterns of a 16-bit Core, as numpy."""
    c = _core.contiguous(c)
    return to_numpy(_core.Core.over(c.storage, "uint16", c.offset, c.shape, None))


def cast(c, name):
    return _core.astype(c, name)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def nan_or_equal(got, want, name="float16"):
    """Equal bit for bit, but for NaNs, which must be NaNs of the same sign
    (uint16 patterns are of the 16-bit type `name`)."""
    got, want = np.asarray(got), np.asarray(want)

    def value(a):
        if a.dtype == np.uint16:
            return a.view(np.float16) if name == "float16" else bf16_to_f32(a)
        return (
            a.view({4: np.float32, 8: np.float64}[a.dtype.itemsize]) if a.dtype.kind == "u" else a
        )

    g, w = value(got), value(want)
    nan = np.isnan(w)
    assert np.array_equal(np.isnan(g), nan)
    assert np.array_equal(np.signbit(g[nan]), np.signbit(w[nan]))
    assert np.array_equal(got[~nan], want[~nan])


# ---------------------------------------------------------------- conversions


def test_float16_widens_exactly():
    got = to_numpy(cast(bits_core(ALL16, "float16"), "float32"))
    nan_or_equal(got.view(np.uint32), ALL16.view(np.float16).astype(np.float32).view(np.uint32))
    nan_or_equal(
        to_numpy(cast(bits_core(ALL16, "float16"), "float64")),
        ALL16.view(np.float16).astype(np.float64),
    )


def test_bfloat16_widens_exactly():
    got = to_numpy(cast(bits_core(ALL16, "bfloat16"), "float32"))
    assert np.array_equal(got.view(np.uint32), ALL16.astype(np.uint32) << 16)
    nan_or_equal(
        to_numpy(cast(bits_core(ALL16, "bfloat16"), "float64")),
        bf16_to_f32(ALL16).astype(np.float64),
    )


def _ties(name):
    """float32 values at, next to and between every finite 16-bit value:
    the ties and the values one float32 ulp either side of them."""
    wide = ALL16.view(np.float16).astype(np.float32) if name == "float16" else bf16_to_f32(ALL16)
    wide = np.sort(wide[np.isfinite(wide)])
    mid = (wide[:-1].astype(np.float64) + wide[1:]) / 2
    mid = mid[np.abs(mid) < 3.4e38].astype(np.float32)
    return np.concatenate(
        [
            wide,
            mid,
            np.nextafter(mid, np.float32(np.inf)),
            np.nextafter(mid, np.float32(-np.inf)),
            np.array(
                [
                    np.inf,
                    -np.inf,
                    np.nan,
                    -np.nan,
                    65519.996,
                    65520,
                    1e-8,
                    -(2.0**-25),
                    2.0**-25 * 1.0000001,
                    3e38,
                ],
                np.float32,
            ),
        ]
    )


def test_float32_to_float16_rounds_to_nearest_even():
    x = _ties("float16")
    got = core_bits(cast(borrow(x), "float16"))
    nan_or_equal(got, x.astype(np.float16).view(np.uint16))


def test_float16_round_trips_every_pattern():
    h = bits_core(ALL16, "float16")
    back = core_bits(cast(cast(h, "float32"), "float16"))
    nan_or_equal(back, ALL16)
    nan16 = ((ALL16 & 0x7C00) == 0x7C00) & ((ALL16 & 0x3FF) != 0)
    assert np.array_equal(back, ALL16 | np.where(nan16, 0x200, 0).astype(np.uint16))  # quieted


@needs_pytorch
def test_float32_to_bfloat16_matches_pytorch():
    x = _ties("bfloat16")
    got = core_bits(cast(borrow(x), "bfloat16"))
    want = pytorch.from_numpy(x).to(pytorch.bfloat16).view(pytorch.int16).numpy().view(np.uint16)
    nan = np.isnan(x)  # PyTorch writes every NaN as 0xffff; ours keep their sign
    assert np.array_equal(got[~nan], want[~nan]) and np.all(np.isnan(bf16_to_f32(got[nan])))
    assert np.array_equal(got[nan] >> 15, np.signbit(x[nan]))
    back = core_bits(cast(cast(bits_core(ALL16, "bfloat16"), "float32"), "bfloat16"))
    nan_or_equal(back, ALL16, "bfloat16")


def bf16_reference(x):
    """bfloat16 bits of a Python float rounded once, to nearest even."""
    sign = 0x8000 if math.copysign(1, x) < 0 else 0
    if math.isnan(x):
        return 0x7FC0 | sign
    a = abs(x)
    if a == 0:
        return sign
    if math.isinf(a):
        return 0x7F80 | sign
    m, e = math.frexp(a)  # a = m 2^e, 0.5 <= m < 1
    if e - 1 >= -126:  # normal: 8 significant bits, ties to even
        v = math.ldexp(round(math.ldexp(m, 8)), e - 8)
        if v >= 2.0**128:
            return 0x7F80 | sign
        return (int(np.array(v, np.float32).view(np.uint32)) >> 16) | sign
    return round(math.ldexp(a, 133)) | sign  # subnormal: multiples of 2^-133


def test_float64_to_16_bits_rounds_once():
    # doubles just off the 16-bit ties: through float32 they would round twice
    x = _ties("bfloat16").astype(np.float64)
    fin = np.isfinite(x)
    eps = np.abs(x) * 2.0**-40
    x = np.concatenate([x, x[fin] + eps[fin], x[fin] - eps[fin]])
    got = core_bits(cast(borrow(x), "bfloat16"))
    nan_or_equal(got, np.array([bf16_reference(v) for v in x], np.uint16), "bfloat16")
    x16 = _ties("float16").astype(np.float64)
    fin = np.isfinite(x16)
    x16 = np.concatenate([x16, x16[fin] * (1 + 2.0**-40), x16[fin] * (1 - 2.0**-40)])
    nan_or_equal(core_bits(cast(borrow(x16), "float16")), x16.astype(np.float16).view(np.uint16))


@pytest.mark.parametrize("name", HALVES)
def test_integers_at_their_edges(name):
    ints = {
        "int8": [-128, 127],
        "uint8": [0, 255],
        "int16": [-32768, 32767],
        "uint16": [65535, 2049, 257],
        "int32": [2**31 - 1, -(2**31), 16777217],
        "int64": [2**63 - 1, -(2**63), 2**60 + 2**52 + 1, -(2**60 + 2**52 + 1)],
        "uint64": [2**64 - 1, 2**63 + 2**55 + 1, 2**53 + 1],
    }
    for dt, values in ints.items():
        a = np.array(values, dt)
        got = core_bits(cast(borrow(a), name))
        if name == "float16":
            want = np.array(
                [
                    np.float16(math.ldexp(*math.frexp(v)))
                    if abs(v) < 65520
                    else np.float16(np.inf) * np.sign(v)
                    for v in values
                ],
                np.float16,
            ).view(np.uint16)
        else:
            want = np.array(
                [bf16_reference(float(v)) if abs(v) < 2**53 else _bf16_of_int(v) for v in values],
                np.uint16,
            )
        assert np.array_equal(got, want), (dt, got, want)
    # back: finite values in range truncate, as from float32
    x = np.array([-128.5, 127.75, 0.5, -0.5, 255.0, 3.0], np.float32)
    h = cast(borrow(x), name)
    for dt in ("int8", "int16", "int32", "int64", "uint8"):
        w = to_numpy(cast(h, "float32")).astype(np.float64)
        keep = (w > np.iinfo(dt).min - 1) & (w < np.iinfo(dt).max + 1)
        assert np.array_equal(to_numpy(cast(h, dt))[keep], w[keep].astype(dt))


def _bf16_of_int(v):
    """An integer rounded once to bfloat16 (8 significant bits)."""
    sign = 0x8000 if v < 0 else 0
    a = abs(int(v))
    drop = a.bit_length() - 8
    q, r = a >> drop, a & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return bf16_reference(float(q << drop)) | sign


@pytest.mark.parametrize("name", HALVES)
def test_between_the_two_and_to_complex_and_bool(name):
    other = "bfloat16" if name == "float16" else "float16"
    h = bits_core(ALL16, name)
    wide = to_numpy(cast(h, "float32"))
    # to the other: float32's value rounded once
    nan_or_equal(core_bits(cast(h, other)), core_bits(cast(borrow(wide), other)), other)
    c = to_numpy(cast(h, "complex64"))
    nan_or_equal(c.real, wide)
    assert np.all(c.imag == 0)
    assert np.array_equal(to_numpy(cast(h, "bool")), wide != 0)
    z = np.array([1.5 + 2j, -0.0 - 1j], np.complex128)
    assert _core.tolist(cast(borrow(z), name)) == [1.5, -0.0]


@pytest.mark.parametrize("name", HALVES)
def test_python_values_in_and_out(name):
    c = _core.from_nested([[1 / 3, -2.5e-8], [1e6, float("nan")]], name)
    got = _core.tolist(c)
    if name == "float16":
        want = np.array([[1 / 3, -2.5e-8], [1e6, np.nan]], np.float64).astype(np.float16)
        assert got[0] == [float(want[0, 0]), float(want[0, 1])] and got[1][0] == math.inf
    else:
        assert got[0] == [
            0.333984375,
            float(bf16_to_f32(np.array([bf16_reference(-2.5e-8)], np.uint16))[0]),
        ]
        assert got[1][0] == 999424.0
    assert math.isnan(got[1][1])
    _core.fill_(c, 0.1)
    assert _core.item(_core.Core.over(c.storage, name, 3, ())) == (
        float(np.float16(0.1)) if name == "float16" else 0.10009765625
    )


# ---------------------------------------------------------------- computing


def as16(x, name):
    return cast(borrow(np.asarray(x, np.float32)), name)


def via32(c, fn):
    """float32's result of fn on c's values, rounded once to c's type."""
    return cast(fn(cast(c, "float32")), c.dtype.name)


def same(got, want):
    assert got.dtype is want.dtype and got.shape == want.shape
    nan_or_equal(
        core_bits(got) if got.dtype in _core.HALF else to_numpy(got),
        core_bits(want) if want.dtype in _core.HALF else to_numpy(want),
        got.dtype.name,
    )


floats = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7),
    elements=st.floats(-1e4, 1e4, width=32)
    | st.sampled_from([np.inf, -np.inf, np.nan, 0.0, -0.0, 6e-8, 65504.0]),
)

UNARY = [
    "negative",
    "abs",
    "exp",
    "log",
    "sqrt",
    "sin",
    "tanh",
    "floor",
    "square",
    "reciprocal",
    "isnan",
    "signbit",
    "sign",
    "expm1",
    "round",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "pow",
    "atan2",
    "greater",
    "less_equal",
    "equal",
    "not_equal",
    "remainder",
    "floor_divide",
]


@pytest.mark.parametrize("name", HALVES)
@given(x=floats)
@settings(max_examples=40, deadline=None)
def test_unary_is_float32_rounded_once(name, x):
    c = as16(x, name)
    for op in UNARY:
        if _ops.unary_result(op, "float32") is None:
            continue
        same(
            _ops.unary(op, c),
            via32(c, lambda w: _ops.unary(op, w))
            if _ops.unary_result(op, "float32") is _core.float32
            else _ops.unary(op, cast(c, "float32")),
        )


@pytest.mark.parametrize("name", HALVES)
@given(data=st.data(), x=floats)
@settings(max_examples=40, deadline=None)
def test_binary_is_float32_rounded_once(name, data, x):
    y = data.draw(hnp.arrays(np.float32, x.shape, elements=st.floats(-300, 300, width=32)))
    a, b = as16(x, name), as16(y, name)
    for op in BINARY:
        want = _ops.binary(op, cast(a, "float32"), cast(b, "float32"))
        if want.dtype is _core.float32:
            want = cast(want, name)
        same(_ops.binary(op, a, b), want)


def test_float16_against_numpy():
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(1000) * 30).astype(np.float16)
    y = (rng.standard_normal(1000) * 3).astype(np.float16)
    f32 = lambda v: v.astype(np.float32)
    a, b = borrow(x), borrow(y)
    for op, fn in [
        ("add", np.add),
        ("multiply", np.multiply),
        ("divide", np.divide),
        ("subtract", np.subtract),
    ]:
        # exact float32 operations: numpy's float16 loop gives the same bits
        assert np.array_equal(to_numpy(_ops.binary(op, a, b)), np.float16(fn(f32(x), f32(y))))
    for op, fn in [("exp", np.exp), ("sin", np.sin), ("log", np.log)]:
        got = to_numpy(_ops.unary(op, borrow(np.abs(x) / 8))).astype(np.float64)
        want = np.float16(fn(f32(np.abs(x) / 8))).astype(np.float64)
        np.testing.assert_allclose(got, want, rtol=2**-10)  # at most one float16 ulp
    assert np.array_equal(to_numpy(_ops.binary("less", a, b)), x < y)


@needs_pytorch
def test_bfloat16_against_pytorch():
    rng = np.random.default_rng(6)
    x, y = (rng.standard_normal((2, 1000)) * 30).astype(np.float32)
    tx, ty = pytorch.from_numpy(x).bfloat16(), pytorch.from_numpy(y).bfloat16()
    a, b = as16(x, "bfloat16"), as16(y, "bfloat16")
    for op, fn in [
        ("add", pytorch.add),
        ("multiply", pytorch.mul),
        ("divide", pytorch.div),
        ("subtract", pytorch.sub),
        ("maximum", pytorch.maximum),
    ]:
        want = fn(tx, ty).view(pytorch.int16).numpy().view(np.uint16)
        assert np.array_equal(core_bits(_ops.binary(op, a, b)), want), op
    s = _ops.reduce("sum", a)
    np.testing.assert_allclose(_core.item(s), float(tx.sum()), rtol=2**-7)


@pytest.mark.parametrize("name", HALVES)
def test_mixed_with_other_dtypes(name):
    a = as16([1.5, 2.25, -3.0], name)
    d = borrow(np.array([0.1, 0.2, 0.3]))  # float64: rounded to 16 bits first
    got = _ops.binary("add", a, d, dt=name)
    same(got, via32(a, lambda w: _ops.binary("add", w, cast(cast(d, name), "float32"))))


@pytest.mark.parametrize("name", HALVES)
def test_non_contiguous_broadcast_empty_and_0d(name):
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 7
    c = as16(x, name)
    t = _core.Core.over(c.storage, name, 0, (6, 4), (1, 6))  # the transpose
    same(_ops.binary("multiply", t, t), via32(t, lambda w: _ops.binary("multiply", w, w)))
    row = as16(x[0], name)
    same(
        _ops.binary("add", c, row),
        cast(_ops.binary("add", cast(c, "float32"), cast(row, "float32")), name),
    )
    e = as16(np.zeros((0, 3), np.float32), name)
    assert _ops.unary("exp", e).shape == (0, 3) and _ops.reduce("sum", e).shape == ()
    z = as16(np.float32(2.5), name)
    assert _core.item(_ops.binary("multiply", z, z)) == 6.25
    assert _core.item(_ops.reduce("sum", z)) == 2.5


@pytest.mark.parametrize("name", HALVES)
def test_reductions_accumulate_in_float32(name):
    x = np.full(5000, 0.1, np.float32)
    c = as16(x, name)
    for op in ("sum", "prod", "min", "max"):
        got = _ops.reduce(op, c, (0,))
        same(got, via32(c, lambda w: _ops.reduce(op, w, (0,))))
    # float32 accumulation: 5000 x 0.1 (rounded) is ~500, far from a 16-bit running sum
    assert abs(_core.item(_ops.reduce("sum", c)) - 500) < 2
    m = as16(np.arange(12, dtype=np.float32).reshape(3, 4), name)
    same(_ops.reduce("sum", m, (1,)), via32(m, lambda w: _ops.reduce("sum", w, (1,))))
    same(_ops.cumulative(False, m, 1), via32(m, lambda w: _ops.cumulative(False, w, 1)))
    assert _core.tolist(_ops.argreduce(True, m, 0)) == [2, 2, 2, 2]
    assert _ops.reduce("all", m).dtype is _core.bool_


@pytest.mark.parametrize("name", HALVES)
def test_matmul_in_float32(name):
    rng = np.random.default_rng(1)
    a, b = as16(rng.standard_normal((7, 300)), name), as16(rng.standard_normal((300, 5)), name)
    same(_ops.matmul(a, b), cast(_ops.matmul(cast(a, "float32"), cast(b, "float32")), name))


@pytest.mark.parametrize("name", HALVES)
def test_sort_where_index(name):
    x = np.array([3, np.nan, -1, 2.5, -0.0, 3, -np.inf], np.float32)
    c = as16(x, name)
    v = _indexing.sort(c, 0)
    assert v.dtype is c.dtype
    nan_or_equal(to_numpy(cast(v, "float32")), np.sort(x))
    assert _core.tolist(_indexing.argsort(c, 0)) == list(np.argsort(x, kind="stable"))
    cond = borrow(np.array([True, False] * 3 + [True]))
    w = _ops.where(cond, c, as16(np.zeros(7, np.float32), name))
    nan_or_equal(
        to_numpy(cast(w, "float32")),
        np.where(cond and np.array([1, 0] * 3 + [1], bool), x, 0).astype(np.float32),
    )
    sel = _indexing.index_select(c, 0, borrow(np.array([6, 0], np.int64)))
    assert _core.tolist(sel) == [-math.inf, 3.0]
    assert _ops.count_nonzero(c) == np.count_nonzero(x)  # -0.0 is zero, NaN is not
    assert _core.tolist(_indexing.nonzero(c)) == np.argwhere(x).tolist()
    clamp = _ops.clamp(c, as16(np.float32(0), name), as16(np.float32(2.75), name))
    nan_or_equal(to_numpy(cast(clamp, "float32")), np.clip(x, 0, 2.75))


@pytest.mark.parametrize("name", HALVES)
def test_ops_without_a_float32_kernel_refuse_clearly(name):
    c = as16([1, 2, 3], name)
    with pytest.raises(TypeError, match=f"bitwise_and.*{name}|{name}.*bitwise_and"):
        _ops.binary("bitwise_and", c, c)

"""Elementwise ops (strided/_c/elementwise.c through strided/core/ops.py): every
unary and binary op for every dtype the core has a kernel for, against numpy
(floats, complex, bool) or Python integer arithmetic (integers, with the
wrapping and division rules of elementwise.c's header comment); the dtype
refusals; broadcasting; output arguments aliasing the inputs; where, clamp.

Inputs come in every layout of helpers.layouts (contiguous, transposed,
stepped, reversed, broadcast).  Arithmetic, rounding and comparison results
must match exactly (NaN equals NaN, zeros keep their sign); transcendental
ones to a few ulps (rtol 1e-5 for 32-bit, 1e-12 for 64-bit parts).
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from helpers import (
    ALL_DTYPE_NAMES as DTYPE_NAMES,
    INT_NAMES,
    NUMPY,
    arrays,
    assert_same,
    borrow,
    layouts,
    to_core,
    to_numpy,
)
from strided.core import base as _core, ops as _ops, views as _views

FLOAT_NAMES = ["float32", "float64"]
COMPLEX_NAMES = ["complex64", "complex128"]
WIDTH = {"float32": 32, "complex64": 32, "float64": 64, "complex128": 64}
SIGNED = [n for n in INT_NAMES if n.startswith("int")]


def kind(dt):
    return NUMPY[dt].kind


def int_bounds(dt):
    info = np.iinfo(NUMPY[dt])
    return int(info.min), int(info.max)


def wrap(v, dt):
    lo, hi = int_bounds(dt)
    return (v - lo) % (hi - lo + 1) + lo


# ---------------------------------------------------------------- oracles

NP_UNARY = {
    "negative": np.negative,
    "positive": np.positive,
    "abs": np.absolute,
    "sqrt": np.sqrt,
    "exp": np.exp,
    "expm1": np.expm1,
    "log": np.log,
    "log1p": np.log1p,
    "log2": np.log2,
    "log10": np.log10,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "round": np.round,
    "sign": np.sign,
    "square": np.square,
    "reciprocal": np.reciprocal,
    "logical_not": np.logical_not,
    "bitwise_invert": np.invert,
    "isnan": np.isnan,
    "isinf": np.isinf,
    "isfinite": np.isfinite,
    "signbit": np.signbit,
    "real": np.real,
    "imag": np.imag,
    "conj": np.conj,
    "sigmoid": lambda x: x.dtype.type(1) / (x.dtype.type(1) + np.exp(-x)),
    "rsqrt": lambda x: x.dtype.type(1) / np.sqrt(x),
    "frac": lambda x: x - np.trunc(x),
}


# the ops whose integer kernels refuse a zero divisor (ZeroDivisionError)
INTEGER_DIVISIONS = ("floor_divide", "remainder", "trunc_divide", "fmod", "torch7_remainder")


def torch7_remainder(a, b):
    """Torch7's remainder: a - b * floor(a / b), NaN for b == 0 (float32: the
    quotient in float32, the product and difference in float64, as TH's C);
    integers: Python's %."""
    if a.dtype.kind in "iu":
        return np.remainder(a, b)
    with np.errstate(all="ignore"):
        q = np.floor(a / b).astype(np.float64)
        r = (a.astype(np.float64) - b.astype(np.float64) * q).astype(a.dtype)
    return np.where(b == 0, a.dtype.type(np.nan), r)


NP_BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "floor_divide": lambda a, b: (
        np.where(np.isinf(a) | np.isinf(b), np.floor(a / b), np.floor_divide(a, b))
        if a.dtype.kind == "f"
        else np.floor_divide(a, b)
    ),
    "remainder": np.remainder,
    "pow": np.power,
    "atan2": np.arctan2,
    "hypot": np.hypot,
    "copysign": np.copysign,
    "nextafter": np.nextafter,
    "logaddexp": np.logaddexp,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "fmod": np.fmod,
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
    "left_shift": np.left_shift,
    "right_shift": np.right_shift,
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
    "trunc_divide": lambda a, b: np.trunc(a / b),
    "torch7_remainder": lambda a, b: torch7_remainder(a, b),
}
assert set(NP_UNARY) == set(_ops.UNARY) and set(NP_BINARY) == set(_ops.BINARY)

TRANSCENDENTAL = {
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "sigmoid",
    "pow",
    "atan2",
    "hypot",
    "logaddexp",
}
# complex ops computed componentwise (exact); the rest are compared to a few ulps
COMPLEX_EXACT = {
    "negative",
    "positive",
    "conj",
    "real",
    "imag",
    "round",
    "isnan",
    "isinf",
    "isfinite",
    "add",
    "subtract",
    "equal",
    "not_equal",
}
# numpy leaves the sign of a zero result to the implementation for these
ZERO_SIGN_FREE = {"maximum", "minimum"}


def int_unary(op, x, dt):
    lo, hi = int_bounds(dt)
    f = {
        "negative": lambda v: -v,
        "positive": lambda v: v,
        "abs": abs,
        "floor": lambda v: v,
        "ceil": lambda v: v,
        "trunc": lambda v: v,
        "round": lambda v: v,
        "sign": lambda v: (v > 0) - (v < 0),
        "square": lambda v: v * v,
        "bitwise_invert": lambda v: ~v,
        "real": lambda v: v,
        "imag": lambda v: 0,
        "conj": lambda v: v,
        "frac": lambda v: 0,
    }.get(op)
    if f is None:  # predicates
        g = {
            "isnan": lambda v: False,
            "isinf": lambda v: False,
            "isfinite": lambda v: True,
            "signbit": lambda v: v < 0,
        }[op]
        return np.array([g(int(v)) for v in x.ravel()], bool).reshape(x.shape)
    return np.array([wrap(f(int(v)), dt) for v in x.ravel()], NUMPY[dt]).reshape(x.shape)


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_binary_scalar(op, a, b, dt):
    bits = 8 * NUMPY[dt].itemsize
    if op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        return {
            "equal": a == b,
            "not_equal": a != b,
            "less": a < b,
            "less_equal": a <= b,
            "greater": a > b,
            "greater_equal": a >= b,
        }[op]
    if op == "pow":
        v = pow(a, b, 1 << bits)
    elif op == "left_shift":
        v = a << b if 0 <= b < bits else 0
    elif op == "right_shift":
        v = a >> b if 0 <= b < bits else (-1 if a < 0 else 0)
    else:
        v = {
            "add": lambda: a + b,
            "subtract": lambda: a - b,
            "multiply": lambda: a * b,
            "floor_divide": lambda: a // b,
            "remainder": lambda: a % b,
            "torch7_remainder": lambda: a % b,
            "trunc_divide": lambda: trunc_div(a, b),
            "fmod": lambda: a - b * trunc_div(a, b),
            "maximum": lambda: max(a, b),
            "minimum": lambda: min(a, b),
            "bitwise_and": lambda: a & b,
            "bitwise_or": lambda: a | b,
            "bitwise_xor": lambda: a ^ b,
        }[op]()
    return wrap(v, dt)


def int_binary(op, a, b, dt):
    a, b = np.broadcast_arrays(a, b)
    res = _ops.binary_result(op, dt).name
    flat = [int_binary_scalar(op, int(x), int(y), dt) for x, y in zip(a.ravel(), b.ravel())]
    return np.array(flat, NUMPY[res]).reshape(a.shape)


def oracle_unary(op, x, dt):
    if kind(dt) in "iu":
        return int_unary(op, x, dt)
    if kind(dt) == "b" and op == "positive":
        return x.copy()
    if dt == "float16":  # float32's result rounded once (numpy's own float16 loops)
        return oracle_unary(op, x.astype(np.float32), "float32").astype(
            NUMPY[_ops.unary_result(op, dt).name]
        )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.asarray(NP_UNARY[op](x))
    return want.astype(NUMPY[_ops.unary_result(op, dt).name])


def oracle_binary(op, a, b, dt):
    if kind(dt) in "iu":
        return int_binary(op, a, b, dt)
    if dt == "float16":  # float32's result rounded once (numpy's own float16 loops)
        return oracle_binary(op, a.astype(np.float32), b.astype(np.float32), "float32").astype(
            NUMPY[_ops.binary_result(op, dt).name]
        )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.asarray(NP_BINARY[op](a, b))
    return want.astype(NUMPY[_ops.binary_result(op, dt).name])


def tolerances(dt):
    if dt == "float16":
        # float32's transcendentals (ours, numpy's) may differ in the last
        # float32 bit, which can move the rounding to float16 by one ulp
        return 2.0**-10, float(np.finfo(np.float16).tiny)
    part = {"float32": "float32", "complex64": "float32"}.get(dt, "float64")
    rtol = 1e-5 if part == "float32" else 1e-12
    tiny = float(np.finfo(part).tiny)
    # complex kernels go through libm's complex functions and numpy through
    # its own formulas: allow an absolute error of a few ulps of 1 as well
    atol = 4 * float(np.finfo(part).eps) if kind(dt) == "c" else 4 * tiny
    return rtol, atol


def assert_close(got, want, dt):
    """Within rtol * |want| + atol, NaN where numpy has NaN, infinities equal."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    rtol, atol = tolerances(dt)
    with np.errstate(all="ignore"):
        scale = np.abs(want).astype(np.float64)
        scale = np.where(np.isfinite(scale), scale, 0.0)  # an infinity must match exactly
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            same = (g == w) | (np.isnan(g) & np.isnan(w))
            near = np.isfinite(w) & (np.abs(g.astype(np.float64) - w) <= atol + rtol * scale)
            bad = ~(same | near)
            assert not bad.any(), (
                f"{bad.sum()} elements differ:\ninput positions "
                f"{np.argwhere(bad)[:5].tolist()}\ngot {g[bad][:5]}\n"
                f"want {w[bad][:5]}"
            )


def compare(op, got, want, dt):
    if (kind(dt) == "f" and op in TRANSCENDENTAL) or (kind(dt) == "c" and op not in COMPLEX_EXACT):
        assert_close(got, want, dt)
    else:
        assert_same(got, want, zero_sign=op not in ZERO_SIGN_FREE)


# ---------------------------------------------------------------- strategies

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


def complex_elements(dt, bound=20.0):
    """Finite complex values of moderate size: away from overflow and from
    the tiny parts where C's and numpy's formulas round differently."""
    w = WIDTH[dt]
    part = st.one_of(
        st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -2.0]),
        st.floats(-bound, bound, width=w).filter(lambda v: v == 0 or abs(v) > 1e-3),
    )
    return st.builds(complex, part, part)


def elements(op, dt, role="a"):
    k = kind(dt)
    if k == "c" and op not in COMPLEX_EXACT:
        values = complex_elements(dt, 4.0 if op == "pow" else 20.0)
        if op in ("divide", "pow", "reciprocal"):
            # x / 0 and 0 ** y: C99 gives infinities where numpy gives nan
            values = values.filter(lambda z: z != 0)
        return values
    if k in "iu" and role == "b":
        lo, hi = int_bounds(dt)
        if op in INTEGER_DIVISIONS:
            return st.integers(lo, hi).filter(lambda v: v != 0)
        if op == "pow":
            return st.integers(0, min(hi, 70)) | st.integers(0, hi)
        if op in ("left_shift", "right_shift"):
            bits = 8 * NUMPY[dt].itemsize
            return st.integers(max(lo, -3), min(hi, bits + 3)) | st.integers(lo, hi)
    return None  # hypothesis' default: every value, NaN and infinities included


@st.composite
def laid_out(draw, dt, shape=shapes, elements=None):
    a = draw(arrays(dt, shape, elements=elements))
    return draw(layouts(a))


UNARY_CASES = [
    (op, dt)
    for op in sorted(_ops.UNARY)
    for dt in DTYPE_NAMES
    if _ops.unary_result(op, dt) is not None
]
UNARY_REJECTED = [
    (op, dt) for op in sorted(_ops.UNARY) for dt in DTYPE_NAMES if _ops.unary_result(op, dt) is None
]
BINARY_CASES = [
    (op, dt)
    for op in sorted(_ops.BINARY)
    for dt in DTYPE_NAMES
    if _ops.binary_result(op, dt) is not None
]
BINARY_REJECTED = [
    (op, dt)
    for op in sorted(_ops.BINARY)
    for dt in DTYPE_NAMES
    if _ops.binary_result(op, dt) is None
]


def ids(case):
    return f"{case[0]}-{case[1]}"


# ---------------------------------------------------------------- unary


@pytest.mark.parametrize("op,dt", UNARY_CASES, ids=map(ids, UNARY_CASES))
@given(data=st.data())
def test_unary(op, dt, data):
    x = data.draw(laid_out(dt, elements=elements(op, dt)), label="x")
    got = _ops.unary(op, borrow(x))
    assert got.shape == x.shape
    compare(op, to_numpy(got), oracle_unary(op, x, dt), dt)


SPECIAL = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    -2.5,
    3.0,
    -7.0,
    0.9,
    1e-8,
    100.0,
    -100.0,
    math.inf,
    -math.inf,
    math.nan,
    1e300,
    -1e300,
    3e38,
    1e-310,
    5e-324,
    1e-40,
]


@pytest.mark.parametrize(
    "op,dt",
    [c for c in UNARY_CASES if kind(c[1]) == "f"],
    ids=map(ids, [c for c in UNARY_CASES if kind(c[1]) == "f"]),
)
def test_unary_float_special_values(op, dt):
    """Zeros of both signs, infinities, NaN, subnormals, huge values."""
    with np.errstate(all="ignore"):
        x = np.array(SPECIAL, NUMPY[dt])
    for layout in (x, x[::-1], np.broadcast_to(x[:1], (3,))):
        compare(op, to_numpy(_ops.unary(op, borrow(layout))), oracle_unary(op, layout, dt), dt)


BINARY_FLOAT = [c for c in BINARY_CASES if kind(c[1]) == "f"]


@pytest.mark.parametrize("op,dt", BINARY_FLOAT, ids=map(ids, BINARY_FLOAT))
def test_binary_float_special_values(op, dt):
    """Every pair of special values, as a (23, 1) x (23,) broadcast."""
    with np.errstate(all="ignore"):
        x = np.array(SPECIAL, NUMPY[dt])
    a, b = x.reshape(-1, 1), x
    compare(op, to_numpy(_ops.binary(op, borrow(a), borrow(b))), oracle_binary(op, a, b, dt), dt)
    compare(
        op,
        to_numpy(_ops.binary(op, borrow(b[::-1]), borrow(a.T))),
        oracle_binary(op, b[::-1], a.T, dt),
        dt,
    )


@pytest.mark.parametrize("dt", FLOAT_NAMES)
def test_float_floor_divide_and_remainder_special_cases(dt):
    """Spelled out, as docs/core-semantics.md promises: finite operands
    follow Python's // and % (checked against Python itself), an infinite
    operand gives floor(a / b) for // (the array API's special cases; Python
    and numpy give nan or -1 there) and Python's value for %, and a zero
    result of % has the divisor's sign."""
    inf, nan = math.inf, math.nan
    a = [7.0, -7.0, 7.0, -7.0, 0.0, -0.5, 1.0, -1.0, 1.0, inf, -inf, inf, 0.0, -0.0, -inf]
    b = [2.0, 2.0, -2.0, -2.0, 3.0, 0.25, inf, inf, -inf, 2.0, 2.0, inf, -inf, inf, -3.0]
    want_fd = [3, -4, -4, 3, 0.0, -2.0, 0.0, -0.0, -0.0, inf, -inf, nan, -0.0, -0.0, inf]
    want_rem = [1, 1, -1, -1, 0.0, 0.0, 1.0, inf, -inf, nan, nan, nan, -0.0, 0.0, nan]
    finite = 6
    assert_same(
        np.array([x // y for x, y in zip(a[:finite], b[:finite])]),
        np.array(want_fd[:finite], float),
    )
    assert_same(np.array([x % y for x, y in zip(a, b)]), np.array(want_rem, float))
    ca, cb = to_core(np.array(a, NUMPY[dt])), to_core(np.array(b, NUMPY[dt]))
    assert_same(to_numpy(_ops.binary("floor_divide", ca, cb)), np.array(want_fd, NUMPY[dt]))
    assert_same(to_numpy(_ops.binary("remainder", ca, cb)), np.array(want_rem, NUMPY[dt]))
    # a zero divisor cannot raise in a kernel: numpy's values
    z = to_core(np.array([5.0, -5.0, 0.0], NUMPY[dt]))
    zero = _core.scalar(0.0, dt)
    assert_same(
        to_numpy(_ops.binary("floor_divide", z, zero)), np.array([inf, -inf, nan], NUMPY[dt])
    )
    assert np.isnan(to_numpy(_ops.binary("remainder", z, zero))).all()


def threes(shape, dt):
    return np.full(shape, True if kind(dt) == "b" else 3, NUMPY[dt])


@pytest.mark.parametrize("op,dt", UNARY_CASES, ids=map(ids, UNARY_CASES))
def test_unary_zero_d_and_empty(op, dt):
    for shape in [(), (0,), (2, 0, 3)]:
        x = threes(shape, dt)
        got = _ops.unary(op, to_core(x))
        assert got.shape == shape
        compare(op, to_numpy(got), oracle_unary(op, x, dt), dt)


@pytest.mark.parametrize("op,dt", BINARY_CASES, ids=map(ids, BINARY_CASES))
def test_binary_zero_d_and_empty(op, dt):
    for sa, sb in [
        ((), ()),
        ((), (4,)),
        ((2, 1), ()),
        ((0,), ()),
        ((0, 3), (3,)),
        ((2, 0), (1, 1)),
    ]:
        a, b = threes(sa, dt), threes(sb, dt)
        got = _ops.binary(op, to_core(a), to_core(b))
        assert got.shape == np.broadcast_shapes(sa, sb)
        compare(op, to_numpy(got), oracle_binary(op, a, b, dt), dt)


@pytest.mark.parametrize("op,dt", UNARY_REJECTED, ids=map(ids, UNARY_REJECTED))
def test_unary_rejected_dtype(op, dt):
    with pytest.raises(TypeError, match=op):
        _ops.unary(op, _core.full((2,), 1, dt))


@pytest.mark.parametrize("op,dt", UNARY_CASES, ids=map(ids, UNARY_CASES))
def test_unary_output_argument(op, dt):
    """out= is written and returned; the wrong output dtype or shape is refused."""
    x = to_core(np.ones((2, 3), NUMPY[dt]))
    res = _ops.unary_result(op, dt)
    out = _core.Core.empty((2, 3), res)
    assert _ops.unary(op, x, out=out) is out
    compare(op, to_numpy(out), oracle_unary(op, np.ones((2, 3), NUMPY[dt]), dt), dt)
    wrong = next(d for d in DTYPE_NAMES if d != res.name)
    with pytest.raises(TypeError, match="output"):
        _ops.unary(op, x, out=_core.Core.empty((2, 3), wrong))
    with pytest.raises(ValueError, match="shape"):
        _ops.unary(op, x, out=_core.Core.empty((3, 2), res))


# ---------------------------------------------------------------- binary


@pytest.mark.parametrize("op,dt", BINARY_CASES, ids=map(ids, BINARY_CASES))
@given(data=st.data())
def test_binary(op, dt, data):
    """Operands of mutually broadcastable shapes (0-d included), in any layout."""
    sa, sb = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=4),
        label="shapes",
    ).input_shapes
    a = data.draw(laid_out(dt, sa, elements(op, dt, "a")), label="a")
    b = data.draw(laid_out(dt, sb, elements(op, dt, "b")), label="b")
    got = _ops.binary(op, borrow(a), borrow(b))
    assert got.shape == np.broadcast_shapes(a.shape, b.shape)
    compare(op, to_numpy(got), oracle_binary(op, a, b, dt), dt)


@pytest.mark.parametrize("op,dt", BINARY_REJECTED, ids=map(ids, BINARY_REJECTED))
def test_binary_rejected_dtype(op, dt):
    one = _core.full((2,), 1, dt)
    with pytest.raises(TypeError, match=op):
        _ops.binary(op, one, one)


@pytest.mark.parametrize("op", ["add", "less", "bitwise_and", "maximum"])
def test_binary_mismatched_dtypes(op):
    for da, db in [("int32", "int64"), ("float32", "float64"), ("int8", "uint8"), ("bool", "int8")]:
        with pytest.raises(TypeError, match="dtype"):
            _ops.binary(op, _core.full((2,), 1, da), _core.full((2,), 1, db))


def test_binary_output_dtype_and_shape_checked():
    a = _core.full((2, 3), 1.0, "float64")
    with pytest.raises(TypeError, match="output"):
        _ops.binary("add", a, a, out=_core.Core.empty((2, 3), "float32"))
    with pytest.raises(TypeError, match="output"):
        _ops.binary("less", a, a, out=_core.Core.empty((2, 3), "float64"))
    with pytest.raises(ValueError, match="shape"):
        _ops.binary("add", a, a, out=_core.Core.empty((3, 2), "float64"))
    with pytest.raises(ValueError, match="shape"):
        _ops.binary("add", a, a, out=_core.Core.empty((1, 2, 3), "float64"))


@pytest.mark.parametrize(
    "sa,sb", [((2, 3), (4,)), ((3,), (4,)), ((2, 1), (3, 3)), ((0,), (2,)), ((5, 4), (5,))]
)
def test_binary_mismatched_shapes(sa, sb):
    with pytest.raises(ValueError, match="broadcast"):
        _ops.binary("add", _core.full(sa, 1, "int32"), _core.full(sb, 1, "int32"))


def test_broadcasting_examples():
    a = np.arange(3, dtype=np.int64).reshape(3, 1)
    b = np.arange(4, dtype=np.int64) * 10
    got = to_numpy(_ops.binary("add", to_core(a), to_core(b)))
    assert got.tolist() == (a + b).tolist() and got.shape == (3, 4)
    s = _core.scalar(7, "int64")
    assert to_numpy(_ops.binary("multiply", s, to_core(b))).tolist() == (7 * b).tolist()
    assert to_numpy(_ops.binary("subtract", to_core(b), s)).tolist() == (b - 7).tolist()
    both = _ops.binary("subtract", s, _core.scalar(2, "int64"))
    assert both.shape == () and _core.item(both) == 5
    empty = _ops.binary("add", _core.full((0, 1), 1, "int64"), to_core(b))
    assert empty.shape == (0, 4)


# ---------------------------------------------------------------- integer rules


@pytest.mark.parametrize("dt", SIGNED)
def test_int_min_divided_by_minus_one(dt):
    lo, _ = int_bounds(dt)
    a = _core.from_nested([lo, lo, 7, -7], dt)
    m1 = _core.scalar(-1, dt)
    res = {
        op: to_numpy(_ops.binary(op, a, m1)).tolist()
        for op in ("floor_divide", "remainder", "trunc_divide", "fmod", "multiply")
    }
    assert res["floor_divide"] == [lo, lo, -7, 7]
    assert res["trunc_divide"] == [lo, lo, -7, 7]
    assert res["remainder"] == [0, 0, 0, 0]
    assert res["fmod"] == [0, 0, 0, 0]
    assert res["multiply"] == [lo, lo, -7, 7]
    assert to_numpy(_ops.unary("negative", a)).tolist()[:2] == [lo, lo]
    assert to_numpy(_ops.unary("abs", a)).tolist()[:2] == [lo, lo]


@pytest.mark.parametrize("dt", INT_NAMES)
def test_python_division_semantics(dt):
    """floor_divide / remainder round toward -inf (remainder takes the
    divisor's sign), trunc_divide / fmod toward zero (C)."""
    lo, hi = int_bounds(dt)
    table = [  # a, b, a // b, a % b, trunc(a / b), fmod(a, b)
        (7, 2, 3, 1, 3, 1),
        (-7, 2, -4, 1, -3, -1),
        (7, -2, -4, -1, -3, 1),
        (-7, -2, 3, -1, 3, -1),
        (0, -3, 0, 0, 0, 0),
        (6, 3, 2, 0, 2, 0),
        (-6, 3, -2, 0, -2, 0),
        (hi, 1, hi, 0, hi, 0),
        (lo, 1, lo, 0, lo, 0),
        (hi, hi, 1, 0, 1, 0),
        (5, hi, 0, 5, 0, 5),
        (hi, 2, hi // 2, 1, hi // 2, 1),
    ]
    if lo < 0:
        table += [
            (-5, hi, -1, hi - 5, 0, -5),
            (hi, lo, -1, -1, 0, hi),
            (lo, hi, -2, hi - 1, -1, -1),
            (lo, 2, lo // 2, 0, lo // 2, 0),
            (lo + 1, lo, 0, lo + 1, 0, lo + 1),
        ]
    table = [r for r in table if all(lo <= v <= hi for v in r)]
    a = _core.from_nested([r[0] for r in table], dt)
    b = _core.from_nested([r[1] for r in table], dt)
    for op, col in (("floor_divide", 2), ("remainder", 3), ("trunc_divide", 4), ("fmod", 5)):
        assert to_numpy(_ops.binary(op, a, b)).tolist() == [r[col] for r in table], op
    for r in table:  # the table itself agrees with Python
        assert (r[2], r[3]) == divmod(r[0], r[1])


@pytest.mark.parametrize("op", ["floor_divide", "remainder", "trunc_divide", "fmod"])
@pytest.mark.parametrize("dt", INT_NAMES)
@given(data=st.data())
def test_int_division_by_zero_writes_nothing(op, dt, data):
    """A zero anywhere in the divisor raises before any element is written."""
    shape = data.draw(
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), label="shape"
    )
    a = data.draw(laid_out(dt, shape), label="a")
    b = data.draw(arrays(dt, shape), label="b")
    where_zero = data.draw(st.integers(0, b.size - 1), label="zero at")
    b.flat[where_zero] = 0
    laid = data.draw(layouts(b), label="b layout")
    b = laid if (laid == 0).any() else b  # a broadcast layout may drop the zero
    out = _core.full(shape, 3, dt)
    with pytest.raises(ZeroDivisionError, match="zero"):
        _ops.binary(op, borrow(a), borrow(b), out=out)
    assert (to_numpy(out) == 3).all()
    with pytest.raises(ZeroDivisionError):
        _ops.binary(op, borrow(a), _core.scalar(0, dt))
    # an empty result divides nothing and so cannot fail
    assert _ops.binary(op, _core.Core.empty((0,) + shape, dt), borrow(b)).size == 0


@pytest.mark.parametrize("dt", INT_NAMES)
def test_int_division_by_zero_large_threaded(dt):
    """The zero scan also runs split across threads."""
    n = 150_001
    b = np.ones(n, NUMPY[dt])
    b[n - 5] = 0
    out = _core.full((n,), 9, dt)
    with pytest.raises(ZeroDivisionError):
        _ops.binary("floor_divide", to_core(np.arange(n).astype(NUMPY[dt])), to_core(b), out=out)
    assert (to_numpy(out) == 9).all()


@pytest.mark.parametrize("dt", SIGNED)
def test_signed_pow_negative_exponent_raises(dt):
    a = _core.from_nested([2, 3, 4], dt)
    b = _core.from_nested([1, -1, 2], dt)
    out = _core.full((3,), 5, dt)
    with pytest.raises(ValueError, match="negative"):
        _ops.binary("pow", a, b, out=out)
    assert to_numpy(out).tolist() == [5, 5, 5]
    assert to_numpy(_ops.binary("pow", a, _core.scalar(0, dt))).tolist() == [1, 1, 1]
    assert to_numpy(_ops.binary("pow", _core.scalar(-1, dt), a)).tolist() == [1, -1, 1]


@pytest.mark.parametrize("dt", INT_NAMES)
def test_shift_by_bit_width_or_more(dt):
    bits = 8 * NUMPY[dt].itemsize
    lo, hi = int_bounds(dt)
    counts = [c for c in (bits - 1, bits, bits + 1, 2 * bits, hi) if c <= hi]
    one = _core.scalar(1, dt)
    got = to_numpy(_ops.binary("left_shift", one, _core.from_nested(counts, dt))).tolist()
    assert got == [wrap(1 << (bits - 1), dt)] + [0] * (len(counts) - 1)
    got = to_numpy(
        _ops.binary("right_shift", _core.scalar(hi, dt), _core.from_nested(counts, dt))
    ).tolist()
    assert got == [hi >> (bits - 1)] + [0] * (len(counts) - 1)
    if lo < 0:
        neg = _core.scalar(-5, dt)
        got = to_numpy(
            _ops.binary("right_shift", neg, _core.from_nested(counts + [-1], dt))
        ).tolist()
        assert got == [-1] * (len(counts) + 1)
        assert to_numpy(_ops.binary("left_shift", neg, _core.scalar(-1, dt))).tolist() == 0


# ---------------------------------------------------------------- aliasing


def binary_case_strategy():
    return st.sampled_from(
        [c for c in BINARY_CASES if _ops.binary_result(*c).name == c[1] and c[0] != "pow"]
    )


@given(data=st.data())
def test_binary_in_place(data):
    """out= one of the inputs (a = a op b, b = a op b) gives the plain answer."""
    op, dt = data.draw(binary_case_strategy(), label="case")
    shape = data.draw(shapes, label="shape")
    a = data.draw(laid_out(dt, shape, elements(op, dt, "a")), label="a")
    b = data.draw(laid_out(dt, shape, elements(op, dt, "b")), label="b")
    target = data.draw(st.sampled_from(["a", "b", "both"]), label="target")
    if target == "both":
        b = a
        assume(op not in INTEGER_DIVISIONS or kind(dt) not in "iu" or not (a == 0).any())
    # keep the layout, but the output must be writable (a broadcast view is not)
    a = a if a.flags.writeable else a.copy()
    b = a if target == "both" else b if b.flags.writeable else b.copy()
    want = oracle_binary(op, a.copy(), b.copy(), dt)
    ca = borrow(a)
    cb = ca if target == "both" else borrow(b)
    out = ca if target in ("a", "both") else cb
    assert _ops.binary(op, ca, cb, out=out) is out
    compare(op, to_numpy(out), want, dt)
    compare(op, a if target != "b" else b, want, dt)


def along(dim, nd, s):
    return tuple(s if d == dim else slice(None) for d in range(nd))


@given(data=st.data())
def test_output_partially_overlapping_input(data):
    """out = a[k:], input a[:-k] (views of one storage) equals numpy's
    np.op(a[:-k].copy(), b, out=a[k:]); also flipped and transposed outputs."""
    op, dt = data.draw(binary_case_strategy(), label="case")
    shape = data.draw(
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), label="shape"
    )
    a = data.draw(arrays(dt, shape, elements=elements(op, dt, "a")), label="a")
    dim = data.draw(st.integers(0, a.ndim - 1), label="dim")
    n = a.shape[dim]
    k = data.draw(st.integers(1, n), label="k")
    how = data.draw(
        st.sampled_from(["shift", "unshift", "flip", "transpose", "unary"]), label="how"
    )
    base = to_core(a)
    want = a.copy()
    if how in ("shift", "unshift", "unary"):
        src_s, dst_s = (
            (slice(0, n - k), slice(k, n)) if how != "unshift" else (slice(k, n), slice(0, n - k))
        )
        src = _views.slice_dim(base, dim, src_s.start, src_s.stop, 1)
        dst = _views.slice_dim(base, dim, dst_s.start, dst_s.stop, 1)
        x = a[along(dim, a.ndim, src_s)].copy()
    elif how == "flip":
        src, dst = base, _views.flip(base, dim)
        x = a.copy()
    else:
        m = min(a.shape[0], a.shape[-1])
        sq = _views.narrow(_views.narrow(base, 0, 0, m), a.ndim - 1, 0, m)
        src, dst = sq, _views.transpose(sq, 0, a.ndim - 1)
        x = a[
            (slice(0, m),) + (slice(None),) * (a.ndim - 2) + ((slice(0, m),) if a.ndim > 1 else ())
        ].copy()
    if how == "unary":
        uop = "negative" if _ops.unary_result("negative", dt) is not None else "logical_not"
        res = oracle_unary(uop, x, dt)
        _ops.unary(uop, src, out=dst)
    else:
        b = data.draw(arrays(dt, x.shape, elements=elements(op, dt, "b")), label="b")
        res = oracle_binary(op, x, b, dt)
        _ops.binary(op, src, borrow(b), out=dst)
    if how == "flip":
        want = np.flip(res, dim)
    elif how == "transpose":
        block = (
            (slice(0, m),) + (slice(None),) * (a.ndim - 2) + ((slice(0, m),) if a.ndim > 1 else ())
        )
        want[block] = np.swapaxes(res, 0, a.ndim - 1)
    else:
        want[along(dim, a.ndim, dst_s)] = res
    compare(op if how != "unary" else "negative", to_numpy(base), want, dt)


@pytest.mark.parametrize("shape", [(400, 300), (130, 190), (3, 67, 129)])
@pytest.mark.parametrize("dt", ["float64", "int32", "complex64", "uint8"])
def test_large_operands_threaded(dt, shape):
    """Big enough to be split over threads and tiled by the iterator (sizes
    no multiple of a tile); transposed, reversed and broadcast operands."""
    n = math.prod(shape)
    a = (np.arange(n) % 97).astype(NUMPY[dt]).reshape(shape).T
    b = (np.arange(shape[-1]) % 13 + 1).astype(NUMPY[dt]).reshape((-1,) + (1,) * (len(shape) - 1))
    c = np.ascontiguousarray(a)[::-1]
    assert_same(to_numpy(_ops.binary("multiply", borrow(a), borrow(b))), a * b)
    assert_same(to_numpy(_ops.binary("add", borrow(a), borrow(c))), a + c)
    assert_same(to_numpy(_ops.binary("equal", borrow(c), borrow(a))), c == a)
    assert_same(to_numpy(_ops.unary("square", borrow(a))), a * a)
    out = borrow(a.copy())
    _ops.binary("add", out, borrow(b), out=out)
    assert_same(to_numpy(out), a + b)
    # the output transposed relative to the inputs
    buffer = np.zeros(a.shape[::-1], NUMPY[dt])
    _ops.binary("subtract", borrow(c), borrow(b), out=borrow(buffer.T))
    assert_same(buffer.T.copy(), c - b)
    cond = (np.arange(n).reshape(a.shape[::-1]) % 3 == 0).T
    assert_same(to_numpy(_ops.where(borrow(cond), borrow(a), borrow(c))), np.where(cond, a, c))


# ---------------------------------------------------------------- where, clamp


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_where(dt, data):
    sc, sa, sb = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=4),
        label="shapes",
    ).input_shapes
    cond = data.draw(laid_out("bool", sc), label="cond")
    a = data.draw(laid_out(dt, sa), label="a")
    b = data.draw(laid_out(dt, sb), label="b")
    got = to_numpy(_ops.where(borrow(cond), borrow(a), borrow(b)))
    assert got.tobytes() == np.where(cond, a, b).tobytes()  # bit for bit
    assert got.shape == np.broadcast_shapes(sc, sa, sb)


def test_where_refuses_bad_dtypes():
    c, i, f = (
        _core.full((2,), True, "bool"),
        _core.full((2,), 1, "int32"),
        _core.full((2,), 1, "float32"),
    )
    with pytest.raises(TypeError, match="condition"):
        _ops.where(i, i, i)
    with pytest.raises(TypeError, match="dtype"):
        _ops.where(c, i, f)
    with pytest.raises(TypeError):
        _ops.where(c, i, i, out=_core.Core.empty((2,), "int64"))
    with pytest.raises(ValueError, match="broadcast"):
        _ops.where(c, _core.full((3,), 1, "int32"), i)


CLAMP_DTYPES = ["bool"] + INT_NAMES + FLOAT_NAMES


@pytest.mark.parametrize("dt", CLAMP_DTYPES)
@given(data=st.data())
def test_clamp(dt, data):
    which = data.draw(st.sampled_from(["both", "lo", "hi"]), label="which")
    shapes3 = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=4),
        label="shapes",
    ).input_shapes
    x = data.draw(laid_out(dt, shapes3[0]), label="x")
    lo = data.draw(laid_out(dt, shapes3[1]), label="lo") if which in ("both", "lo") else None
    hi = data.draw(laid_out(dt, shapes3[2]), label="hi") if which in ("both", "hi") else None
    got = to_numpy(
        _ops.clamp(
            borrow(x),
            borrow(lo) if lo is not None else None,
            borrow(hi) if hi is not None else None,
        )
    )
    want = x
    if lo is not None:
        want = np.maximum(want, lo)
    if hi is not None:
        want = np.minimum(want, hi)
    assert_same(got, np.asarray(want), zero_sign=False)


@pytest.mark.parametrize("dt", FLOAT_NAMES)
def test_clamp_nan_propagates(dt):
    nan = float("nan")
    x = _core.from_nested([nan, 1.0, 5.0, -5.0], dt)
    lo, hi = _core.scalar(-1.0, dt), _core.scalar(2.0, dt)
    assert_same(to_numpy(_ops.clamp(x, lo, hi)), np.array([nan, 1, 2, -1], NUMPY[dt]))
    assert_same(to_numpy(_ops.clamp(x, lo)), np.array([nan, 1, 5, -1], NUMPY[dt]))
    assert_same(to_numpy(_ops.clamp(x, None, hi)), np.array([nan, 1, 2, -5], NUMPY[dt]))
    got = to_numpy(_ops.clamp(x, _core.scalar(nan, dt), hi))
    assert np.isnan(got).all()
    got = to_numpy(_ops.clamp(x, lo, _core.scalar(nan, dt)))
    assert np.isnan(got).all()


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_clamp_refuses_unordered_dtypes(dt):
    x = _core.full((2,), 1, dt)
    for lo, hi in [(x, x), (x, None), (None, x)]:
        with pytest.raises(TypeError):
            _ops.clamp(x, lo, hi)


def test_clamp_in_place_and_mismatch():
    a = np.array([-3.0, 0.5, 7.0])
    c = borrow(a)
    assert _ops.clamp(c, _core.scalar(0.0, "float64"), _core.scalar(1.0, "float64"), out=c) is c
    assert a.tolist() == [0.0, 0.5, 1.0]
    with pytest.raises(TypeError):
        _ops.clamp(c, _core.scalar(0, "int64"), _core.scalar(1.0, "float64"))
    with pytest.raises(ValueError, match="broadcast"):
        _ops.clamp(c, _core.full((2,), 0.0, "float64"))


# ---------------------------------------------------------------- vector math (vmath.h)
# exp and log (float32, float64) and sin, cos (float32) run our own
# vectorised kernels: their error is measured in ulps against a long double
# reference (80-bit here: 11 more bits than float64) over the whole domain;
# the lanes the fast path does not serve (NaN, inf, zero and negative logs,
# over/underflow, huge sin/cos arguments) come from scalar libm and must
# match numpy's special values exactly.

VMATH = [
    ("exp", "float64"),
    ("exp", "float32"),
    ("log", "float64"),
    ("log", "float32"),
    ("sin", "float32"),
    ("cos", "float32"),
    ("sin", "float64"),
    ("cos", "float64"),
    ("tanh", "float64"),
    ("tanh", "float32"),
]
# the kernels' measured max: ~0.51 ulp, ~0.9 for the float32 exp and log
# (computed in float, 16 lanes; exp 0.58 at level 4, test_exp_float32.py), 0.77 for the float64 sin and cos (fdlibm's
# kernels near |r| = pi/4); numpy's: 0.71 (exp f64), 0.60 (log f64), 2.4
# (exp f32), 3.4 (log f32), 1.4 (sin, cos f32), 0.52 (sin, cos f64, scalar libm);
# tanh: 0.51 (f64), 0.763 (f32, computed in float) against numpy's 1.17 and 1.37
VMATH_ULPS = {
    ("exp", "float32"): 1.0,
    ("log", "float32"): 1.0,
    ("sin", "float64"): 0.8,
    ("cos", "float64"): 0.8,
    ("tanh", "float64"): 0.65,
    ("tanh", "float32"): 0.8,
}


def vmath_ulp(op, dt):
    return VMATH_ULPS.get((op, dt), 0.6)


def ulp_error(got, x, op, dt):
    """|got - f(x)| in ulps of f(x) (computed in long double), 0 where got
    equals the correctly rounded value; inf for a wrong special value."""
    fi = np.finfo(dt)
    with np.errstate(all="ignore"):
        ref = getattr(np, op)(x.astype(np.longdouble))
        rounded = ref.astype(dt)
        same = (got == rounded) | (np.isnan(got) & np.isnan(ref))
        fin = np.isfinite(ref) & np.isfinite(got) & ~same
        _, e = np.frexp(np.abs(ref[fin]))
        ulp = np.ldexp(np.longdouble(1), np.maximum(e - fi.nmant - 1, fi.minexp - fi.nmant))
        err = np.zeros(got.shape)
        err[fin] = (np.abs(got[fin].astype(np.longdouble) - ref[fin]) / ulp).astype(np.float64)
        err[~same & ~fin] = np.inf
    return err


def log_uniform(rng, lo, hi, n):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def vmath_domain(op, dt, n=20000, seed=0):
    rng = np.random.default_rng(seed)
    f32 = dt == "float32"
    sign = rng.choice([-1.0, 1.0], n)
    if op == "exp":
        lo, hi = (-104.0, 89.0) if f32 else (-746.0, 710.0)
        parts = [
            rng.uniform(lo, hi, n),
            rng.uniform(-20, 20, n),
            log_uniform(rng, 1e-30, 1, n) * sign,
            rng.uniform(lo - 3, lo + 30, n),
            rng.uniform(hi - 30, hi + 3, n),
        ]
    elif op == "log":
        tiny, huge = (1e-45, 3e38) if f32 else (5e-324, 1.7e308)
        parts = [
            log_uniform(rng, tiny, huge, n),
            rng.uniform(0.5, 2, n),
            1 + rng.uniform(-1e-3, 1e-3, n),
            1 + log_uniform(rng, 1e-16, 1e-2, n) * sign,
        ]
    else:
        parts = [
            rng.uniform(-10, 10, n),
            rng.uniform(-3e5, 3e5, n),
            log_uniform(rng, 1e-30, 3e38, n) * sign,
            np.pi / 2 * rng.integers(-(10**5), 10**5, n),
        ]
    return np.concatenate(parts).astype(dt)


SPECIALS = [
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    -np.nan,
    1.0,
    -1.0,
    5e-324,
    -5e-324,
    1e-45,
    2.2250738585072014e-308,
    1.1754944e-38,
    88.72283,
    88.72284,
    -87.33655,
    -103.97208,
    -103.97209,
    709.782712893384,
    709.7827128933841,
    -708.3964185322641,
    -745.1332191019411,
    -745.1332191019412,
    704.0,
    -704.0,
    3.4028235e38,
    1.7976931348623157e308,
    262144.0,
    -262144.0,
    262143.99,
    1048576.0,
    1048575.9999999999,
    -1048576.0,
    1e22,
    1e300,
]


@pytest.mark.parametrize("op,dt", VMATH, ids=map(ids, VMATH))
def test_vmath_ulp_error_over_the_domain(op, dt):
    x = vmath_domain(op, dt)
    got = to_numpy(_ops.unary(op, to_core(x)))
    err = ulp_error(got, x, op, dt)
    worst = int(np.argmax(err))
    assert err[worst] <= vmath_ulp(op, dt), (x[worst], got[worst], err[worst])


@pytest.mark.parametrize("op,dt", VMATH, ids=map(ids, VMATH))
def test_vmath_special_values_match_numpy(op, dt):
    with np.errstate(all="ignore"):
        x = np.array(SPECIALS, dtype=np.float64).astype(dt)
        x = np.concatenate([x, -x])
        got = to_numpy(_ops.unary(op, to_core(x)))
        want = getattr(np, op)(x)
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(x)
    assert_same(got[special], want[special])
    assert ulp_error(got, x, op, dt).max() <= vmath_ulp(op, dt)


@pytest.mark.parametrize("op,dt", VMATH, ids=map(ids, VMATH))
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 511, 512, 513, 1025, 40000])
def test_vmath_sizes_layouts_and_aliasing(op, dt, n):
    x = vmath_domain(op, dt, n=max(n, 1), seed=n)[:n]
    with np.errstate(all="ignore"):
        want = getattr(np, op)(x)
    got = to_numpy(_ops.unary(op, to_core(x)))
    assert ulp_error(got, x, op, dt).max(initial=0) <= vmath_ulp(op, dt)
    special = ~np.isfinite(want)
    assert_same(got[special], want[special])
    # stepped input into a stepped output: the same values, nothing else written
    big = np.zeros(2 * n, dt)
    big[::2] = x
    out = np.full(3 * n, 7, dt)
    _ops.unary(op, borrow(big[::2]), out=borrow(out[::3]))
    np.testing.assert_array_equal(out[::3], got)
    assert (out.reshape(-1, 3)[:, 1:] == 7).all()
    # out == input: the kernel works from a copy of each block
    inplace = x.copy()
    c = borrow(inplace)
    _ops.unary(op, c, out=c)
    np.testing.assert_array_equal(inplace, got)


def pow_ulp_error(got, x, y):
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.longdouble), y.astype(np.longdouble))
    fin = np.isfinite(ref) & (np.abs(ref) < np.finfo(np.float64).max)
    _, e = np.frexp(np.abs(ref[fin]))
    ulp = np.ldexp(np.longdouble(1), np.maximum(e - 53, -1074))
    return (np.abs(got[fin].astype(np.longdouble) - ref[fin]) / ulp).astype(np.float64)


def pow_domain(rng, n):
    return [
        (rng.uniform(0.1, 10, n), rng.uniform(-8, 8, n)),
        (np.exp(rng.uniform(-700, 700, n)), rng.uniform(-1, 1, n)),
        (1 + rng.uniform(-1e-3, 1e-3, n), rng.uniform(-1e5, 1e5, n)),
        (rng.uniform(0.5, 2, n), rng.uniform(-1000, 1000, n)),
        (rng.uniform(0, 100, n), rng.integers(-20, 20, n).astype(np.float64)),
    ]


def test_pow_float64_ulp_error():
    """pow float64 runs exp(y log x) with log x and y log x as double pairs
    (vmath.h): about 0.5 ulp (0.61 measured; numpy's 0.69, libmvec's 1.0)."""
    rng = np.random.default_rng(3)
    for x, y in pow_domain(rng, 20000):
        got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
        err = pow_ulp_error(got, x, y)
        assert err.max() <= 0.65, (err.max(), x[np.argmax(err)], y[np.argmax(err)])


def test_pow_float64_special_values_match_numpy():
    """Zero, negative and subnormal bases, infinities, NaN, over- and
    underflow leave the fast path for libm's pow: numpy's values exactly."""
    xs = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        -2.5,
        2.5,
        0.5,
        np.inf,
        -np.inf,
        np.nan,
        5e-324,
        1e-310,
        1.7976931348623157e308,
        10.0,
        1e-300,
    ]
    ys = [
        0.0,
        -0.0,
        0.5,
        1.0,
        2.0,
        -2.0,
        3.0,
        -3.0,
        np.inf,
        -np.inf,
        np.nan,
        1e300,
        -1e300,
        400.0,
        -400.0,
        1e-300,
    ]
    x, y = (a.ravel() for a in np.meshgrid(xs, ys))
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(x) | ~np.isfinite(y) | (x <= 0)
    assert_same(got[special], want[special])
    assert pow_ulp_error(got[~special], x[~special], y[~special]).max(initial=0) <= 0.65


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 511, 512, 513, 5000])
def test_pow_float64_layouts_and_aliasing(n):
    rng = np.random.default_rng(n)
    x, y = rng.uniform(0.1, 10, n), rng.uniform(-8, 8, n)
    with np.errstate(all="ignore"):
        got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
    assert pow_ulp_error(got, x, y).max(initial=0) <= 0.65
    # a broadcast exponent and a broadcast base (zero steps), stepped operands
    for a, b in ((x, np.float64(2.5)), (np.float64(1.5), y)):
        want = to_numpy(
            _ops.binary(
                "pow",
                to_core(np.broadcast_to(a, (n,)).copy()),
                to_core(np.broadcast_to(b, (n,)).copy()),
            )
        )
        got_b = to_numpy(_ops.binary("pow", to_core(np.asarray(a)), to_core(np.asarray(b))))
        np.testing.assert_array_equal(np.broadcast_to(got_b, (n,)), want)
    big = np.zeros(2 * n)
    big[::2] = x
    out = np.full(3 * n, 7.0)
    _ops.binary("pow", borrow(big[::2]), to_core(y), out=borrow(out[::3]))
    np.testing.assert_array_equal(out[::3], got)
    assert (out.reshape(-1, 3)[:, 1:] == 7).all()
    # out == x, out == y
    for which in (0, 1):
        ops = [x.copy(), y.copy()]
        c = borrow(ops[which])
        args = [c if k == which else to_core(ops[k]) for k in (0, 1)]
        _ops.binary("pow", *args, out=c)
        np.testing.assert_array_equal(ops[which], got)


def powf_ulp_error(got, x, y):
    """|got - x^y| in float32 ulps, x^y in long double, where it is a normal float."""
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.longdouble), y.astype(np.longdouble))
    fin = np.isfinite(ref) & (np.abs(ref) < np.finfo(np.float32).max)
    _, e = np.frexp(np.abs(ref[fin]))
    ulp = np.ldexp(np.longdouble(1), np.maximum(e - 24, -149))
    return (np.abs(got[fin].astype(np.longdouble) - ref[fin]) / ulp).astype(np.float64)


def powf_domain(rng, n):
    f = np.float32
    return [
        (rng.uniform(0.1, 10, n), rng.uniform(-8, 8, n)),
        (np.exp(rng.uniform(-87, 88, n)), rng.uniform(-1, 1, n)),
        (1 + rng.uniform(-1e-3, 1e-3, n), rng.uniform(-1e4, 1e4, n)),
        (1 + rng.uniform(-1e-6, 1e-6, n), rng.uniform(-1e7, 1e7, n)),
        (rng.uniform(0.5, 2, n), rng.uniform(-150, 150, n)),  # over/underflow edges too
        (rng.uniform(0, 100, n), rng.integers(-20, 20, n).astype(f)),
    ]


def test_pow_float32_ulp_error():
    """pow float32 runs exp2(y log2 x) in double (vmath.h), rounded once
    to float: below 0.51 ulp (numpy's 1.0, libmvec's 0.62); the lanes
    libm's powf serves (results near the float range's ends) below 1."""
    rng = np.random.default_rng(5)
    for x, y in powf_domain(rng, 40000):
        x, y = x.astype(np.float32), y.astype(np.float32)
        got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
        with np.errstate(all="ignore"):
            t = np.abs(y.astype(np.float64) * np.log2(x.astype(np.float64)))
        ours = t < 125.9  # the fast path's lanes (libm's powf: up to 0.82 ulp)
        err = powf_ulp_error(got[ours], x[ours], y[ours])
        assert err.max() <= 0.51, (err.max(), x[ours][np.argmax(err)], y[ours][np.argmax(err)])
        assert powf_ulp_error(got, x, y).max() <= 1.0


def test_pow_float32_special_values_match_numpy():
    xs = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        -2.5,
        2.5,
        0.5,
        np.inf,
        -np.inf,
        np.nan,
        1e-45,
        1e-40,
        3.4028235e38,
        10.0,
        1e-30,
        1.1754944e-38,
    ]
    ys = [
        0.0,
        -0.0,
        0.5,
        1.0,
        2.0,
        -2.0,
        3.0,
        -3.0,
        np.inf,
        -np.inf,
        np.nan,
        1e30,
        -1e30,
        40.0,
        -40.0,
        1e-30,
        126.0,
        -126.0,
        127.99,
        -149.5,
    ]
    x, y = (a.ravel().astype(np.float32) for a in np.meshgrid(xs, ys))
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(x) | ~np.isfinite(y) | (x <= 0)
    assert_same(got[special], want[special])
    assert powf_ulp_error(got[~special], x[~special], y[~special]).max(initial=0) <= 1.0


@pytest.mark.parametrize("n", [1, 9, 513, 5000])
def test_pow_float32_layouts(n):
    rng = np.random.default_rng(n)
    x, y = rng.uniform(0.1, 10, n).astype(np.float32), rng.uniform(-8, 8, n).astype(np.float32)
    got = to_numpy(_ops.binary("pow", to_core(x), to_core(y)))
    assert powf_ulp_error(got, x, y).max(initial=0) <= 0.51
    big = np.zeros(2 * n, np.float32)
    big[::2] = x
    out = np.full(3 * n, 7, np.float32)
    _ops.binary("pow", borrow(big[::2]), to_core(y), out=borrow(out[::3]))
    np.testing.assert_array_equal(out[::3], got)
    b = to_numpy(_ops.binary("pow", to_core(x), to_core(np.float32(2.5))))
    np.testing.assert_array_equal(
        b, to_numpy(_ops.binary("pow", to_core(x), to_core(np.full(n, 2.5, np.float32))))
    )
    c = borrow(x.copy())
    _ops.binary("pow", c, to_core(y), out=c)
    np.testing.assert_array_equal(to_numpy(c), got)


# ---------------------------------------------------------------- mixed dtypes (st_binary_as)
# _ops.binary(..., dt=) computes in dt with operands of other dtypes
# converted inside the kernel a block (MIX_BLOCK = 256) at a time: the
# results must equal casting first (numpy's astype), then the op.

MIXED = [
    ("int32", "float64", "float64"),
    ("float32", "float64", "float64"),
    ("bool", "int64", "int64"),
    ("uint8", "int16", "int16"),
    ("int8", "float32", "float32"),
    ("float64", "float64", "float64"),
    ("int64", "uint32", "int64"),
    ("float32", "complex128", "complex128"),
]
MIXED_OPS = ["add", "subtract", "multiply", "divide", "less", "equal", "maximum"]


def mixed_values(rng, shape, dt):
    if dt == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dt).kind in "iu":
        lo, hi = int_bounds(dt)
        return rng.integers(max(lo, -1000), min(hi, 1000), shape, endpoint=True).astype(dt)
    return (rng.standard_normal(shape) * 100).astype(dt)


@pytest.mark.parametrize("da,db,dt", MIXED)
@pytest.mark.parametrize("op", MIXED_OPS)
@pytest.mark.parametrize("layout", ["contiguous", "broadcast", "scalar", "transposed"])
@pytest.mark.parametrize("n", [1, 255, 256, 257, 1000])
def test_binary_as_matches_cast_then_op(da, db, dt, op, layout, n):
    res = _ops.binary_result(op, dt)
    if res is None:
        pytest.skip(f"no {op} for {dt}")
    rng = np.random.default_rng(n)
    shape_a, shape_b = {
        "contiguous": ((n,), (n,)),
        "broadcast": ((3, n), (n,)),
        "scalar": ((2, n), ()),
        "transposed": ((n, 3), (n, 3)),
    }[layout]
    a, b = mixed_values(rng, shape_a, da), mixed_values(rng, shape_b, db)
    ca, cb = to_core(a), to_core(b)
    if layout == "transposed":
        a, b = a.T, b.T
        ca, cb = _views.transpose(ca, 0, 1), _views.transpose(cb, 0, 1)
    with np.errstate(all="ignore"):
        want = np.asarray(NP_BINARY[op](a.astype(dt), b.astype(dt))).astype(NUMPY[res.name])
    # complex division: C's algorithm, not numpy's (as for one dtype)
    same = assert_close if kind(dt) == "c" and op == "divide" else assert_same
    extra = {"dt": dt} if same is assert_close else {"zero_sign": False}
    same(to_numpy(_ops.binary(op, ca, cb, dt=dt)), want, **extra)
    # the other operand order (the broadcast one first)
    with np.errstate(all="ignore"):
        want = np.asarray(NP_BINARY[op](b.astype(dt), a.astype(dt))).astype(NUMPY[res.name])
    same(to_numpy(_ops.binary(op, cb, ca, dt=dt)), want, **extra)


def test_binary_as_in_place_and_checks():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(1000)
    b = rng.integers(-5, 5, 1000).astype("int32")
    c = to_core(a)
    _ops.binary("add", c, to_core(b), out=c, dt="float64")  # out == a: no copy needed
    np.testing.assert_array_equal(to_numpy(c), a + b)
    # integer division checks see b in the kernel's dtype
    with pytest.raises(ZeroDivisionError):
        _ops.binary(
            "floor_divide", to_core(b.astype("int64")), to_core(b.astype("int8")), dt="int64"
        )
    ok = np.where(b == 0, 1, b)
    got = _ops.binary(
        "floor_divide", to_core(b.astype("int64")), to_core(ok.astype("int8")), dt="int64"
    )
    np.testing.assert_array_equal(to_numpy(got), b.astype("int64") // ok)
    with pytest.raises(TypeError, match="output is"):
        _ops.binary(
            "add", to_core(a), to_core(b), out=to_core(np.zeros(1000, "float32")), dt="float64"
        )
    with pytest.raises(TypeError, match="not defined"):
        _ops.binary("bitwise_and", to_core(a), to_core(b), dt="float64")


def test_binary_as_has_no_full_size_temporary():
    """int32 + float64 over 4 M elements, in a fresh process whose inputs
    and output are all alive before the op: the peak resident size must
    not grow by anything like a converted copy of an input (31 MB)."""
    import subprocess
    import sys

    code = """if 1:
        import resource, strided
        from strided.core import base as _core, ops as _ops
        n = 4_000_000
        a = _core.full((n,), 3, "int32")
        b = _core.full((n,), 0.5, "float64")
        out = _core.full((n,), 0.0, "float64")
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        _ops.binary("add", a, b, out=out, dt="float64")
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        assert _core.tolist(out)[-1] == 3.5
        print(after - before)
    """
    grown_kb = int(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert grown_kb < 8 * 1024, grown_kb


@pytest.mark.parametrize("dt", ["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize("n", [0, 1, 7, 40000, 100003])
def test_pow_by_two_is_the_square(dt, n):
    """x ** 2 runs as x * x (elementwise.c, st_pow_is_square): numpy's
    values, special ones included, on every path (small, threaded,
    strided, in place)."""
    import strided.compat as xp

    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 1e3).astype(dt)
    if n >= 7:
        a[:7] = [
            np.inf,
            -np.inf,
            np.nan,
            -0.0,
            0.0,
            1e200 if dt.endswith("128") or dt == "float64" else 1e30,
            3.0,
        ]
    x = xp.asarray(a)
    with np.errstate(all="ignore"):
        want = a * a
    np.testing.assert_array_equal(np.from_dlpack(x**2), want)
    np.testing.assert_array_equal(np.from_dlpack(xp.pow(x, 2.0)), want)
    np.testing.assert_array_equal(np.from_dlpack(x[::2] ** 2), want[::2])
    y = xp.asarray(a.copy())
    y **= 2
    np.testing.assert_array_equal(np.from_dlpack(y), want)
    # 2 ** x is a power, not a square
    b = xp.asarray(np.array([0.5, 3.0, -1.0], dtype=dt))
    np.testing.assert_allclose(np.from_dlpack(2.0**b), [2**0.5, 8.0, 0.5], rtol=1e-6)

"""The small-call fast paths (strided/_c/fast.c, the operators in
compat/_elementwise.py, asarray of a flat list, zeros(n)) give exactly what
the general path gives: same values, dtype, shape and errors.  The general
path is reached with the same values in a non-contiguous view, which the
fast paths decline."""

import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp
from compat_util import NAMES, check, np_of

BINARY_OPERATORS = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.and_,
    operator.or_,
    operator.xor,
    operator.lshift,
    operator.rshift,
    operator.eq,
    operator.ne,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
]
UNARY_OPERATORS = [operator.neg, operator.pos, operator.abs, operator.invert]


def values(name, n, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(name)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -5
        return rng.integers(lo, 6, n).astype(dt)  # small: shifts and powers stay defined
    v = rng.standard_normal(n) * 3
    return (v + 1j * rng.standard_normal(n) if dt.kind == "c" else v).astype(dt)


def strided_copy(a):
    """An Array with a's values in a non-contiguous view (the general path)."""
    wide = np.zeros((2,) + a.shape, a.dtype)
    wide[0] = a
    return (
        xp.asarray(wide, copy=True)[0, ...]
        if a.ndim == 0
        else xp.asarray(np.repeat(a, 2), copy=True)[::2]
    )


def outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:  # the error is what is compared
        return type(e)


def same(fast, general, libm=False):
    """fast and general are the same result or the same exception type.
    libm: a libm function (or a complex product), whose contiguous loops are
    vectorised and may round differently from the scalar strided loop by a
    few ulp."""
    if isinstance(general, type):
        assert fast is general
        return
    assert isinstance(fast, xp.Array)
    want = np_of(general)
    if libm and want.dtype.kind in "fc":
        assert fast.dtype.name == want.dtype.name and fast.shape == want.shape
        got = np_of(fast)
        for part in (np.real, np.imag):
            np.testing.assert_array_max_ulp(part(got), part(want), maxulp=4)
    else:
        check(fast, want)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("op", BINARY_OPERATORS, ids=lambda f: f.__name__)
def test_binary_operator_matches_general_path(op, name):
    a, b = values(name, 7, 1), values(name, 7, 2)
    if np.dtype(name).kind in "iu":
        b[3] = 0  # integer division by zero must still raise
    fast = outcome(op, xp.asarray(a), xp.asarray(b))
    # complex products: the vectorised contiguous loop contracts a*b + c*d
    # into a fused multiply-add, the strided one may not (last bit only)
    rounding = op is operator.pow or (
        np.dtype(name).kind == "c" and op in (operator.mul, operator.truediv)
    )
    same(fast, outcome(op, strided_copy(a), strided_copy(b)), libm=rounding)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("scalar", [2, -3, 0, 2.5, -0.0, 300, 2**40, -(2**63), 2**63 - 1, True])
@pytest.mark.parametrize(
    "op", BINARY_OPERATORS[:7] + BINARY_OPERATORS[12:], ids=lambda f: f.__name__
)
def test_scalar_operator_matches_general_path(op, scalar, name):
    a = values(name, 5, 3)
    for args_fast, args_general in [
        ((xp.asarray(a), scalar), (strided_copy(a), scalar)),
        ((scalar, xp.asarray(a)), (scalar, strided_copy(a))),
    ]:
        same(outcome(op, *args_fast), outcome(op, *args_general), libm=op is operator.pow)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("scalar", [2, -3, 0, 2.5, -0.0, 300, 2**40, -(2**63), 2**64, True, 1j])
def test_binary_function_with_a_scalar_matches_general_path(scalar, name, monkeypatch):
    """xp.f(x, 1.0) and xp.f(1.0, x) for every binary function: in C (as the
    operators take a Python number) with the general path's values, dtypes
    and errors."""
    from strided.compat import _elementwise, _elementwise_table

    a = values(name, 5, 3)
    functions = [getattr(xp, f) for f in _elementwise_table.BINARY]
    fast = [
        outcome(f, *args)
        for f in functions
        for args in ((xp.asarray(a), scalar), (scalar, xp.asarray(a)))
    ]
    monkeypatch.setattr(_elementwise, "_binary_new", lambda *args: None)
    general = [
        outcome(f, *args)
        for f in functions
        for args in ((xp.asarray(a), scalar), (scalar, xp.asarray(a)))
    ]
    for f, g in zip(fast, general):
        same(f, g, libm=True)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("op", UNARY_OPERATORS, ids=lambda f: f.__name__)
def test_unary_operator_matches_general_path(op, name):
    a = values(name, 6, 4)
    same(outcome(op, xp.asarray(a)), outcome(op, strided_copy(a)))


@pytest.mark.parametrize("fname", ["exp", "sqrt", "negative", "isnan", "abs", "logical_not"])
@pytest.mark.parametrize("name", ["bool", "int32", "float32", "float64", "complex128"])
def test_unary_function_matches_general_path(fname, name):
    a, f = values(name, 6, 5), getattr(xp, fname)
    same(outcome(f, xp.asarray(a)), outcome(f, strided_copy(a)), libm=fname == "exp")


def test_fast_paths_agree_with_numpy():
    a, b = np.array([1.5, -2.0, 3.25]), np.array([0.5, 4.0, -1.0])
    x, y = xp.asarray(a), xp.asarray(b)
    check(x + y, a + b)
    check(x * 2.0, a * 2.0)
    check(1.0 - x, 1.0 - a)
    check(x < y, a < b)
    check(-x, -a)
    check(xp.add(x, y), a + b)
    i = xp.asarray([7, -7, 9])
    check(i // 2, np.array([3, -4, 4]))
    check(2 ** xp.asarray([0, 1, 10]), np.array([1, 2, 1024]))


def test_shapes_that_differ_broadcast_through_the_general_path():
    a, b = np.arange(6.0).reshape(2, 3), np.array([1.0, 2.0, 3.0])
    check(xp.asarray(a) + xp.asarray(b), a + b)
    check(xp.asarray(a.T.copy()).T * 2.0, a * 2.0)


def test_mixed_dtypes_promote_through_the_general_path():
    x, y = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0, 2.0], dtype=xp.float32)
    check(x.__add__(xp.asarray([3, 4], dtype=xp.int16)), np.array([4, 6], np.int16))
    check(x + y, np.array([2.0, 4.0], np.float32))  # the extension: numpy's int8 + float32


def test_operators_give_notimplemented_for_foreign_objects():
    x = xp.asarray([1.0])
    assert x.__add__("a") is NotImplemented
    assert x.__radd__(object()) is NotImplemented
    assert (x == "a") is False


@pytest.mark.parametrize(
    "obj, dtype",
    [
        ([1.0, 2.5, -0.0], "float64"),
        ([1, -2, 3], "int64"),
        ([True, False], "bool"),
        ([1, 2.0], "float64"),
        ([True, 2], "int64"),
        ([1j, 2.0], "complex128"),
        ([2**63 - 1, -(2**63)], "int64"),
    ],
)
def test_asarray_of_a_flat_list(obj, dtype):
    check(xp.asarray(obj), np.array(obj, dtype=dtype))


@given(
    st.lists(
        st.floats(allow_nan=False) | st.integers(-(2**63), 2**63 - 1) | st.booleans(), max_size=12
    )
)
@settings(max_examples=200, deadline=None)
def test_asarray_of_any_flat_list_of_numbers(obj):
    kinds = set(map(type, obj))
    dtype = "float64" if float in kinds or not obj else "int64" if int in kinds else "bool"
    check(xp.asarray(obj), np.array(obj, dtype=dtype))


def test_asarray_of_a_flat_list_errors():
    with pytest.raises(OverflowError):
        xp.asarray([2**64])
    with pytest.raises(TypeError):
        xp.asarray(["a", "b"])
    with pytest.raises(ValueError):
        xp.asarray([1.0], copy=False)


@pytest.mark.parametrize("n", [0, 1, 3, 17, 1000])
def test_zeros_of_a_length(n):
    check(xp.zeros(n), np.zeros(n))


def test_zeros_of_a_negative_length():
    with pytest.raises(ValueError, match="must be >= 0"):
        xp.zeros(-1)


def test_small_results_are_aligned_and_independent():
    # small data lives inside its storage record (ST_STORAGE_INLINE): check
    # the 64-byte alignment promise and that results do not share memory
    xs = [xp.asarray([float(k), 1.0]) + xp.asarray([1.0, 1.0]) for k in range(50)]
    for k, x in enumerate(xs):
        assert x._c.address % 64 == 0
        check(x, np.array([k + 1.0, 2.0]))


BROADCASTS = [
    ((3, 1), (1, 4)),
    ((2, 3), (3,)),
    ((4,), (2, 1, 4)),
    ((0, 3), (3,)),
    ((), (3,)),
    ((2, 1, 3), (2, 3)),
    ((5, 1), (5, 1)),
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("op", BINARY_OPERATORS, ids=lambda f: f.__name__)
def test_broadcast_operands_in_c_match_the_general_path(op, name, monkeypatch):
    """Two Arrays of one dtype whose shapes broadcast (x[:, None] - c[None, :])
    go to C whole (st_binary_new's broadcast case): the value, dtype, a
    C-contiguous layout and the errors of the general path."""
    from strided.compat import _elementwise

    cases = []
    for k, (sa, sb) in enumerate(BROADCASTS):
        a = values(name, int(np.prod(sa)), 10 + k).reshape(sa)
        b = values(name, int(np.prod(sb)), 20 + k).reshape(sb)
        if np.dtype(name).kind in "iu" and b.size:
            b.flat[0] = 0  # integer division by zero must still raise
        cases.append((a, b))
    fast = [outcome(op, xp.asarray(a), xp.asarray(b)) for a, b in cases]
    monkeypatch.setattr(_elementwise, "_binary_new", lambda *args: None)
    function = {
        operator.add: "add",
        operator.sub: "subtract",
        operator.mul: "multiply",
        operator.truediv: "divide",
        operator.floordiv: "floor_divide",
        operator.mod: "remainder",
        operator.pow: "pow",
        operator.and_: "bitwise_and",
        operator.or_: "bitwise_or",
        operator.xor: "bitwise_xor",
        operator.lshift: "bitwise_left_shift",
        operator.rshift: "bitwise_right_shift",
        operator.eq: "equal",
        operator.ne: "not_equal",
        operator.lt: "less",
        operator.le: "less_equal",
        operator.gt: "greater",
        operator.ge: "greater_equal",
    }[op]
    f = getattr(xp, function)
    rounding = op is operator.pow or (
        np.dtype(name).kind == "c" and op in (operator.mul, operator.truediv)
    )
    for (a, b), got in zip(cases, fast):
        same(got, outcome(f, xp.asarray(a), xp.asarray(b)), libm=rounding)
        if isinstance(got, xp.Array) and got.size:
            assert got._c.is_contiguous()


def test_broadcast_with_a_transposed_operand_keeps_its_layout():
    a = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(a.T.copy()).T  # (3, 4) in Fortran order
    r = x + xp.asarray(np.arange(4.0))
    check(r, a + np.arange(4.0))
    assert r._c.strides == x._c.strides  # laid out like x (numpy's order K)


@pytest.mark.parametrize("name", ["float64", "int32", "uint8", "bool", "complex64"])
def test_strided_operands_in_c_keep_the_general_paths_values_and_layout(name, monkeypatch):
    """Transposed, sliced, reversed and broadcast operands (and a strided
    array with a Python number) in C: the general path's values, dtype and
    memory layout (numpy's order 'K': a transposed operand's result is
    transposed too)."""
    from strided.compat import _elementwise

    base = values(name, 6 * 8 * 5, 9).reshape(6, 8, 5)
    other = values(name, 6 * 8 * 5, 10).reshape(6, 8, 5)
    pairs = [
        (
            xp.permute_dims(xp.asarray(base), (2, 0, 1)),
            xp.permute_dims(xp.asarray(other), (2, 0, 1)),
        ),
        (xp.permute_dims(xp.asarray(base), (1, 0, 2)), xp.asarray(other[:, :, 0]).T[None]),
        (xp.asarray(base)[:, ::2, ::-1], xp.asarray(other)[:, :4, :]),
        (xp.asarray(base)[::-1], xp.asarray(other)[0]),
        (xp.asarray(base), xp.permute_dims(xp.asarray(other), (0, 1, 2))[:, :, ::-1]),
    ]
    scalar = True if name == "bool" else 3
    ops = ["add", "multiply", "equal", "less", "maximum", "logical_and", "bitwise_xor", "pow"]

    def run():
        out = []
        for f in (getattr(xp, op) for op in ops):
            for a, b in pairs:
                out.append(outcome(f, a, b))
            out.append(outcome(f, pairs[0][0], scalar))
            out.append(outcome(f, scalar, pairs[2][0]))
        return out

    fast = run()
    monkeypatch.setattr(_elementwise, "_binary_new", lambda *args: None)
    general = run()
    for f, g in zip(fast, general):
        same(f, g, libm=True)
        if not isinstance(g, type):
            assert np_of(f).strides == np_of(g).strides

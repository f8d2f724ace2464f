"""Short rows in one call (st_iter_run_rows, the binary kernels' rows form
b2_OP_SFX): a broadcast whose inner dim is at most ST_ROWS_INNER_MAX (64)
elements runs whole rows of it per kernel call.  Every binary op and dtype
gives numpy's values whatever the row length, the row count, the steps,
and where the threads' chunks cut the rows."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp
from helpers import borrow
from strided.core import ops as _ops

# op -> the dtypes it is checked on (numpy computes the same function)
OPS = {
    "add": ["float64", "float32", "int64", "int32", "int8", "uint16", "complex128", "complex64"],
    "subtract": ["float64", "float32", "int64", "uint8", "complex128"],
    "multiply": ["float64", "float32", "int64", "int16", "uint32", "complex64", "complex128"],
    "divide": ["float64", "float32", "complex128"],
    "floor_divide": ["float64", "int64", "int32", "uint8"],
    "remainder": ["float64", "float32", "int64", "int16"],
    "pow": ["float64", "float32", "int64", "complex128"],
    "maximum": ["float64", "float32", "int64", "uint64"],
    "minimum": ["float32", "int8", "uint16"],
    "atan2": ["float64", "float32"],
    "hypot": ["float64", "float32"],
    "copysign": ["float64", "float32"],
    "equal": ["float64", "float32", "int64", "bool", "complex128"],
    "not_equal": ["float32", "int32", "bool"],
    "less": ["float64", "float32", "int64", "uint8"],
    "less_equal": ["float64", "int16"],
    "greater": ["float64", "float32", "uint32"],
    "greater_equal": ["float32", "int64"],
    "bitwise_and": ["int64", "uint8", "bool"],
    "bitwise_or": ["int32", "bool"],
    "bitwise_xor": ["int16", "uint64", "bool"],
    "bitwise_left_shift": ["int64", "uint8"],
    "logical_and": ["bool"],
    "logical_or": ["bool"],
}
NUMPY_NAME = {"pow": "power", "atan2": "arctan2", "bitwise_left_shift": "left_shift"}
CASES = [(op, dtype) for op, dtypes in OPS.items() for dtype in dtypes]


def _data(rng, shape, dtype, op, second):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if op == "bitwise_left_shift" and second:
        return rng.integers(0, 6, size=shape).astype(dtype)
    low = 1 if second and op in ("floor_divide", "remainder", "pow") else -9
    if np.dtype(dtype).kind == "u" or (op == "pow" and second):
        low = max(low, 0) if not second else 1
    high = 4 if op == "pow" and second else 10
    v = rng.integers(low, high, size=shape)
    if np.dtype(dtype).kind == "f":
        v = v + rng.random(shape).round(2)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * rng.integers(-3, 4, size=shape)).astype(dtype)
    return v.astype(dtype)


def _check(op, dtype, a, b):
    got = np.asarray(getattr(xp, op)(xp.asarray(a), xp.asarray(b)))
    with np.errstate(all="ignore"):
        want = getattr(np, NUMPY_NAME.get(op, op))(a, b)
    if np.dtype(dtype).kind in "fc" and op in ("pow", "atan2", "hypot", "divide"):
        single = dtype in ("float32", "complex64")
        np.testing.assert_allclose(got, want, rtol=1e-6 if single else 1e-14)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op,dtype", CASES)
def test_every_binary_kernel_by_rows(op, dtype):
    """(r, 1, q) with (1, p, q): rows of q elements, a's step 0 between them;
    q on both sides of ST_ROWS_INNER_MAX."""
    rng = np.random.default_rng(len(op) * 31 + len(dtype))
    for r, p, q in [(7, 5, 1), (3, 40, 4), (6, 9, 10), (2, 3, 64), (2, 3, 65)]:
        a = _data(rng, (r, 1, q), dtype, op, False)
        b = _data(rng, (1, p, q), dtype, op, True)
        _check(op, dtype, a, b)
        _check(op, dtype, b, _data(rng, (r, 1, q), dtype, op, True)[:, :, ::-1])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(1, 70),
    st.integers(1, 12),
    st.sampled_from(["float64", "float32", "int32", "complex64"]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_rows_with_any_steps(outer, rows, width, dtype, transposed, seed):
    """Rows read through steps of every kind: a transposed operand, a
    sliced one, a broadcast one, into a strided output."""
    rng = np.random.default_rng(seed)
    a = _data(rng, (outer, rows, 2 * width), dtype, "add", False)[:, :, ::2]
    if transposed:
        bt = _data(rng, (width, rows), dtype, "add", True)
        b, B = bt.T, xp.asarray(bt).T
    else:
        b = _data(rng, (rows, width), dtype, "add", True)
        B = xp.asarray(b)
    got = xp.multiply(xp.asarray(a), B)
    np.testing.assert_array_equal(np.asarray(got), a * b)
    out = xp.zeros((outer, rows, 3 * width), dtype=getattr(xp, dtype))
    out[:, :, 1::3] = xp.asarray(a) - B[None, :, :]
    want = np.zeros((outer, rows, 3 * width), dtype=dtype)
    want[:, :, 1::3] = a - b
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize("width", [1, 3, 8, 33, 64])
def test_rows_cut_by_the_threads_chunks(width):
    """Large enough to run on threads (chunk edges at multiples of 16
    elements fall inside rows): the partial rows go to the one-row kernel."""
    rng = np.random.default_rng(width)
    rows = 300_000 // width + 7
    col = rng.standard_normal((rows, 1))
    row = rng.standard_normal((1, width))
    x = rng.standard_normal((rows, 2 * width))[:, ::2]
    got = xp.asarray(x) * xp.asarray(col) + xp.asarray(row)
    np.testing.assert_array_equal(np.asarray(got), x * col + row)
    eq = xp.asarray(x) < xp.asarray(row)
    np.testing.assert_array_equal(np.asarray(eq), x < row)


def test_rows_of_a_large_broadcast_into_resident_memory():
    """A broadcast product of 40 MB into a resident output (the stream
    test's size), rows of 10 elements: st_stream_worth sees the rows
    (partial lines: plain stores), and every row arrives."""
    rng = np.random.default_rng(5)
    col, row = rng.standard_normal((500_000, 1)), rng.standard_normal((1, 10))
    out = np.full((500_000, 10), -1.0)  # written: its pages resident
    _ops.binary("multiply", borrow(col), borrow(row), out=borrow(out))
    np.testing.assert_array_equal(out, col * row)

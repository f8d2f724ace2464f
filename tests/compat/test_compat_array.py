import math
import operator

import numpy as np
import pytest

import strided.compat as xp
from compat_util import check, xp_of

rng = np.random.default_rng(0)

A_INT = rng.integers(-20, 20, (3, 4)).astype("int32")
B_INT = rng.integers(1, 20, (4,)).astype("int32")
A_F = rng.standard_normal((3, 4)).astype("float64")
B_F = (rng.standard_normal((4,)) + 3).astype("float64")

ARITH = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod]
COMPARE = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
BITWISE = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]


@pytest.mark.parametrize("op", ARITH + COMPARE + BITWISE)
def test_int_operators(op):
    b = B_INT % 5 if op in (operator.lshift, operator.rshift) else B_INT
    check(op(xp_of(A_INT), xp_of(b)), op(A_INT, b))
    check(op(xp_of(A_INT), 3), op(A_INT, np.int32(3)))  # scalar takes the array's dtype
    check(op(3, xp_of(b)), op(np.int32(3), b))  # reflected


@pytest.mark.parametrize("op", ARITH + COMPARE + [operator.truediv, operator.pow])
def test_float_operators(op):
    a, b = A_F, B_F
    check(op(xp_of(a), xp_of(b)), op(a, b), exact=False)
    check(op(xp_of(a), 2), op(a, 2.0), exact=False)
    check(op(1.5, xp_of(b)), op(1.5, b), exact=False)


def test_float32_with_scalars_keeps_float32():
    a = A_F.astype("float32")
    check(xp_of(a) * 2.5, a * np.float32(2.5), exact=False)
    check(xp_of(a) + 1j, a + np.complex64(1j), exact=False)


def test_matmul_and_unary_operators():
    check(xp_of(A_F) @ xp_of(A_F.T), A_F @ A_F.T, exact=False)
    check(-xp_of(A_INT), -A_INT)
    check(+xp_of(A_INT), A_INT)
    check(abs(xp_of(A_INT)), abs(A_INT))
    check(~xp_of(A_INT), ~A_INT)
    check(~xp_of(A_INT > 0), ~(A_INT > 0))


def test_inplace_operators_write_into_the_array():
    x = xp_of(A_INT)
    view = x[1]
    x += 1
    x *= 2
    x -= xp_of(B_INT)
    x //= 3
    check(x, ((A_INT + 1) * 2 - B_INT) // 3)
    check(view, (((A_INT + 1) * 2 - B_INT) // 3)[1])
    y = xp_of(A_F)
    y /= 2.0
    y **= 2
    check(y, (A_F / 2) ** 2, exact=False)
    with pytest.raises(TypeError):  # would change the dtype
        x /= 2
    with pytest.raises(ValueError):  # would change the shape (numpy's error)
        z = xp_of(B_INT)
        z += xp_of(A_INT)


def test_mixed_kinds_promote_as_numpy_and_bad_operands_raise():
    # the extension (docs/array-api.md "Beyond the standard"): numpy's promotion
    check(xp_of(A_INT) + xp_of(A_F), A_INT + A_F)
    check(xp_of(A_INT) + 1.5, A_INT + 1.5)
    with pytest.raises(TypeError):
        xp_of(A_INT) + "a"
    with pytest.raises(OverflowError):
        xp.asarray([1, 2], dtype=xp.int8) + 300


def test_integer_division_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        xp_of(A_INT) // 0
    with pytest.raises(ZeroDivisionError):
        xp_of(A_INT) % xp.zeros((4,), dtype=xp.int32)


def test_attributes():
    x = xp_of(A_F)
    assert (x.shape, x.ndim, x.size, x.dtype) == ((3, 4), 2, 12, xp.float64)
    assert x.device == "cpu" and x.to_device("cpu") is x and x.to_device(x.device) is x
    with pytest.raises(ValueError):
        x.to_device("cuda")
    check(x.T, A_F.T)
    y = xp.reshape(xp.arange(24), (2, 3, 4))
    check(y.mT, np.arange(24).reshape(2, 3, 4).swapaxes(-1, -2))
    with pytest.raises(ValueError):
        y.T
    assert x.__array_namespace__() is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2099.01")
    with pytest.raises(TypeError):
        xp.Array()


def test_python_conversions():
    assert bool(xp.asarray(True)) is True and bool(xp.asarray(0.0)) is False
    assert int(xp.asarray(-7)) == -7 and int(xp.asarray(2.9)) == 2
    assert float(xp.asarray(3)) == 3.0 and complex(xp.asarray(1.5)) == 1.5 + 0j
    assert operator.index(xp.asarray(5, dtype=xp.uint8)) == 5
    assert [10, 20, 30][xp.asarray(1)] == 20
    with pytest.raises(TypeError):
        operator.index(xp.asarray(1.0))
    with pytest.raises(TypeError):
        float(xp.asarray(1j))
    with pytest.raises(TypeError):
        bool(xp.asarray([1, 2]))
    with pytest.raises(ValueError):
        int(xp.asarray(math.nan))


def test_repr():
    assert repr(xp.asarray([1.0, 2.0])) == "Array([1., 2.], dtype=float64)"
    assert (
        repr(xp.asarray([[1, 2], [3, 4]], dtype=xp.int8)) == "Array([[1, 2], [3, 4]], dtype=int8)"
    )
    assert repr(xp.asarray(True)) == "Array(True, dtype=bool)"
    assert repr(xp.zeros((200, 3))) == "Array([...], shape=(200, 3), dtype=float64)"
    assert repr(xp.zeros((0, 3))) == "Array([], shape=(0, 3), dtype=float64)"

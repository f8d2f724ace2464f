"""What real array-API clients (scikit-learn, SciPy, array-api-extra,
xarray) met on strided.compat, each checked against numpy (the oracle) or
array-api-strict where the two agree."""

import re

import numpy as np
import pytest

import strided
import strided.compat as xp
from compat_util import NAMES, check, np_of, xp_of


# ---------------------------------------------------------------- asarray


@pytest.mark.parametrize(
    "values, name",
    [
        ([1.0, 2.0], "int64"),
        ([1.7, -2.7, 0.5, -0.5], "int64"),
        ([[1.9, 2], [3, 4.2]], "int8"),
        ([250.9, 0.1], "uint8"),
        ([1e15 + 0.5, -3.0], "int64"),
        ([True, 2.5], "int16"),
    ],
)
def test_asarray_floats_with_an_integer_dtype(values, name):
    check(xp.asarray(values, dtype=getattr(xp, name)), np.asarray(values, dtype=name))


@pytest.mark.parametrize(
    "values, name, exc",
    [
        ([float("nan")], "int64", ValueError),
        ([float("inf")], "int32", OverflowError),
        ([1e20], "int64", OverflowError),
        ([-1.0], "uint8", OverflowError),
        ([300.0], "uint8", OverflowError),
        ([1.5j], "int64", TypeError),
    ],
)
def test_asarray_floats_that_do_not_fit_an_integer_dtype(values, name, exc):
    with pytest.raises(exc):
        np.asarray(values, dtype=name)
    with pytest.raises(exc):
        xp.asarray(values, dtype=getattr(xp, name))


def test_asarray_numbers_with_a_bool_dtype():
    for values in ([0, 2, -1], [0.0, 0.5], [0j, 1j], [True, 0]):
        check(xp.asarray(values, dtype=xp.bool), np.asarray(values, dtype=bool))


@pytest.mark.parametrize(
    "make",
    [
        lambda m: [m.float32(1), m.float32(2.5)],
        lambda m: [m.float32(1), 2.0],
        lambda m: [m.float32(1), 2],
        lambda m: [m.int8(1), 2],
        lambda m: [m.int8(1), m.uint8(200)],
        lambda m: [m.float64(1), 2],
        lambda m: [m.True_, 2],
        lambda m: [m.complex64(1j), m.float32(2)],
        lambda m: [[m.int16(1), m.int16(2)], [m.int16(3), m.int16(4)]],
        lambda m: [m.asarray(1, dtype=m.int8), m.asarray(2, dtype=m.int8)],
        lambda m: [[m.asarray(1.5)], [m.float64(2)]],
    ],
)
def test_asarray_nested_numpy_scalars_and_0d_arrays(make):
    expected = np.asarray(make(np))
    check(xp.asarray(make(np)), expected)
    check(xp.asarray(_ours(make(np))), expected)  # our 0-d Arrays in place of numpy's


def _ours(v):
    if isinstance(v, list):
        return [_ours(e) for e in v]
    return xp.asarray(v, copy=True) if isinstance(v, np.ndarray) else v


def test_asarray_nested_arrays_of_ours():
    x = xp.asarray([xp.asarray(1.5, dtype=xp.float32), xp.asarray(2, dtype=xp.float32)])
    check(x, np.asarray([1.5, 2], dtype=np.float32))
    check(xp.asarray([xp.asarray(3), 4]), np.asarray([3, 4]))
    with pytest.raises(TypeError, match="use stack"):
        xp.asarray([xp.asarray([1, 2]), xp.asarray([3, 4])])
    with pytest.raises(TypeError, match="no strided dtype"):
        xp.asarray([np.datetime64(1, "s")])
    assert xp.asarray([np.float16(1)]).dtype is xp.float16


@pytest.mark.parametrize(
    "scalar",
    [
        np.float64(2.5),
        np.float32(2.5),
        np.int16(-3),
        np.uint8(7),
        np.bool_(True),
        np.complex64(1 + 2j),
    ],
)
def test_asarray_of_a_numpy_scalar_is_a_writable_copy(scalar):
    x = xp.asarray(scalar)
    check(x, np.asarray(scalar))
    x[()] = xp.zeros_like(x)  # read-only memory would raise ValueError
    assert not bool(x) and scalar != 0
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(scalar, copy=False)


@pytest.mark.parametrize(
    "bad", [[1, [2]], [[1], 2], [[1, 2], [3]], [[1, 2], [3, [4]]], [[[1]], [2]], [[], [1]]]
)
def test_ragged_or_mixed_nesting_is_refused(bad):
    with pytest.raises(ValueError):
        np.asarray(bad)
    with pytest.raises(ValueError, match="ragged"):
        xp.asarray(bad)
    with pytest.raises(ValueError, match="ragged"):
        strided.Tensor(bad)  # the Torch7 face reads lists the same way
    with pytest.raises(ValueError, match="ragged"):
        strided.DoubleTensor(bad)


# ---------------------------------------------------------------- linspace


@pytest.mark.parametrize(
    "start, stop, num, name, endpoint",
    [
        (0, 10, 4, "int64", True),
        (-5, 5, 4, "int64", True),
        (0, 1, 5, "uint8", True),
        (10, 0, 4, "int64", True),
        (0, 10, 5, "int32", False),
        (-7.5, 3, 6, "int16", True),
        (2, -3, 7, "int64", False),
        (1, 1, 1, "int8", True),
        (0, 5, 0, "int64", True),
        (0, 1, 3, "bool", True),
    ],
)
def test_linspace_with_an_integer_dtype(start, stop, num, name, endpoint):
    check(
        xp.linspace(start, stop, num, dtype=getattr(xp, name), endpoint=endpoint),
        np.linspace(start, stop, num, dtype=name, endpoint=endpoint),
    )


# ---------------------------------------------------------------- format, iteration


@pytest.mark.parametrize(
    "value, name, spec",
    [
        (1.5, "float64", "g"),
        (3.14159, "float64", ".3f"),
        (0.1, "float32", ".10f"),
        (7, "int64", "d"),
        (7, "int8", "5d"),
        (-42, "int32", "+d"),
        (255, "uint8", "x"),
        (True, "bool", "d"),
        (1 + 2j, "complex128", ".1f"),
        (1e-5, "float64", ".2e"),
        (2.5, "float64", ">8"),
    ],
)
def test_format_of_a_0d_array(value, name, spec):
    assert format(xp.asarray(value, dtype=getattr(xp, name)), spec) == format(
        np.asarray(value, dtype=name), spec
    )
    assert (
        f"{xp.asarray(value, dtype=getattr(xp, name)):{spec}}"
        == f"{np.asarray(value, dtype=name):{spec}}"
    )


def test_format_errors_as_numpy():
    with pytest.raises(ValueError):
        format(np.asarray(1.5), "d")
    with pytest.raises(ValueError, match="Unknown format code 'd'"):
        format(xp.asarray(1.5), "d")
    with pytest.raises(TypeError):
        format(np.asarray([1.0, 2.0]), "g")
    with pytest.raises(TypeError, match="unsupported format string"):
        format(xp.asarray([1.0, 2.0]), "g")
    x = xp.asarray([1.0, 2.0])
    assert format(x, "") == str(x) == f"{x}"
    for v in (1.5, -3, True, 2 - 1j):  # a 0-d array with no spec: the number, as numpy's
        assert f"{xp.asarray(v)}" == format(xp.asarray(v), "") == f"{np.asarray(v)}"


def test_iteration_over_the_first_axis():
    for a in (np.arange(4.0), np.arange(24).reshape(2, 3, 4), np.zeros((0, 3))):
        x = xp_of(a)
        assert hasattr(x, "__iter__")
        rows = list(x)
        assert len(rows) == a.shape[0]
        for r, e in zip(rows, a):
            check(r, e)
    m = xp_of(np.arange(6).reshape(2, 3))
    first = next(iter(m))
    first[0] = 100  # the rows are views, as numpy's
    assert int(m[0, 0]) == 100
    with pytest.raises(TypeError):
        iter(np.asarray(1.0))
    with pytest.raises(TypeError, match="0-d"):
        iter(xp.asarray(1.0))


# ---------------------------------------------------------------- numpy interop


def test_numpy_ufuncs_convert_our_arrays():
    """As for PyTorch's tensors: __array__ in, numpy computes; the result is
    numpy's (numpy-namespace code, such as scikit-learn's with array-API
    dispatch off, goes on with ndarrays)."""
    a = np.asarray([[1.5, -2.0], [0.0, -3.25]])
    x = xp_of(a)
    for f in (np.abs, np.sin, np.exp, np.isnan, np.negative):
        r = f(x)
        assert type(r) is np.ndarray
        np.testing.assert_array_equal(r, f(a))
    np.testing.assert_array_equal(np.add(x, 1), np.add(a, 1))
    np.testing.assert_array_equal(np.multiply(x, x), a * a)
    np.testing.assert_array_equal(np.maximum(x, a), np.maximum(a, a))
    assert np.abs(xp.asarray(-1.5)) == 1.5
    assert np.max(x) == 1.5 and np.sum(x, axis=0).tolist() == [1.5, -5.25]


def test_numpy_scalars_in_operators_give_our_arrays():
    a32 = np.asarray([1.0, -2.5], dtype=np.float32)
    x32 = xp_of(a32)
    x = xp_of(np.asarray([1.0, -2.5]))
    i8 = xp_of(np.asarray([1, 2], dtype=np.int8))
    cases = [
        (np.float64(2.0) * x, [2.0, -5.0], "float64"),
        (x * np.float64(2), [2.0, -5.0], "float64"),
        (np.int64(3) + x, [4.0, 0.5], "float64"),
        (x - np.int32(1), [0.0, -3.5], "float64"),
        (np.float64(2.0) * x32, [2.0, -5.0], "float32"),  # weak, as a Python float
        (x32 / np.float32(2), [0.5, -1.25], "float32"),
        (np.int64(3) * i8, [3, 6], "int8"),
        (i8 ** np.int64(2), [1, 4], "int8"),
        (np.bool_(True) + i8, [2, 3], "int8"),
        (x > np.float64(0), [True, False], "bool"),
        (np.float64(0) < x, [True, False], "bool"),
    ]
    for got, values, name in cases:
        assert isinstance(got, xp.Array)
        check(got, np.asarray(values, dtype=name))
    y = xp_of(np.asarray([1, 2]))
    y += np.int64(5)
    check(y, np.asarray([6, 7]))
    # a float with an integer array: the default float dtype, as a Python
    # float's (numpy's promotion, docs/array-api.md "Beyond the standard")
    check(np.float64(1.5) + i8, np.asarray([2.5, 3.5]))


def test_numpy_arrays_in_operators_give_numpys_results():
    """With an ndarray on either side the expression is numpy's (as its
    ufuncs'); in-place, the Array stays ours."""
    a = np.asarray([1.0, 2.0])
    x = xp_of(np.asarray([10.0, -20.0]))
    n = np_of(x)
    for got, expected in (
        (x + a, n + a),
        (a + x, a + n),
        (a * x, a * n),
        (x - a, n - a),
        (a - x, a - n),
        (x == a, n == a),
        (a == x, a == n),
        (x < a, n < a),
        (a < x, a < n),
        (x**a, n**a),
        (a @ x, a @ n),
    ):
        assert isinstance(got, (np.ndarray, np.generic))
        np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(x + np.arange(2), n + np.arange(2))  # numpy's promotion
    y = xp_of(np.asarray([1.0, 2.0]))
    y += a
    assert isinstance(y, xp.Array)
    check(y, np.asarray([2.0, 4.0]))
    y += np.arange(2)  # in-place on ours: float64 with int64 is float64
    assert isinstance(y, xp.Array)
    check(y, np.asarray([2.0, 5.0]))
    i = xp_of(np.asarray([1, 2]))
    with pytest.raises(TypeError, match="cannot cast"):
        i += np.asarray([0.5, 1.0])  # the result (float64) must keep i's dtype


@pytest.mark.skipif(
    np.lib.NumpyVersion(np.__version__) < "2.4.0", reason="numpy reads __numpy_dtype__ from 2.4 on"
)
def test_np_dtype_of_our_dtypes():
    for name in NAMES:
        assert np.dtype(getattr(xp, name)) == np.dtype(name)
    assert np.zeros(2, dtype=xp.float32).dtype == np.float32
    assert np.asarray(xp.ones(2), dtype=xp.int8).dtype == np.int8
    assert not hasattr(xp.float64, "dtype")  # generic code reads getattr(obj, "dtype", obj)


def test_indexing_with_numpy_integers_and_arrays():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = xp_of(a)
    for key in (
        np.array([0, 1]),
        np.int64(1),
        (np.int32(1), np.array([2, 0])),
        (slice(None), np.array([[0, 1], [2, 2]])),
        (0, slice(None), np.array([3, -1])),
        np.array([True, False]),
        (np.bool_(True),),
        (np.array(1), np.array([0, 2])),
    ):
        check(x[key], a[key])
    check(xp_of(np.arange(5.0))[np.array([0, 2])], np.arange(5.0)[[0, 2]])
    y, b = xp_of(a), a.copy()
    y[np.array([1, 0]), 2] = -1.0
    b[np.array([1, 0]), 2] = -1.0
    check(y, b)


@pytest.mark.parametrize(
    "key",
    [
        True,
        False,
        (True,),
        (Ellipsis, True),
        (0, True),
        (True, 0),
        (False, Ellipsis),
        (True, True),
        (True, slice(1, None)),
        (True, [0, 1]),
        (Ellipsis, "m4"),
        (Ellipsis, "m3", slice(None)),
        (None, "m23"),
        ("m23", None),
        (slice(None), None, "m3"),
        (1, Ellipsis, "m4"),
        ("m23", [0, 3]),
        ([1, 0], "m3"),
        ("m2", slice(None), "m4"),
    ],
)
def test_boolean_indices_anywhere_as_numpy(key):
    a = np.arange(24.0).reshape(2, 3, 4)
    masks = {
        "m2": np.array([True, False]),
        "m3": np.array([False, True, True]),
        "m4": np.array([True, False, True, True]),
        "m23": a[:, :, 0] % 3 == 0,
    }
    keys = key if isinstance(key, tuple) else (key,)
    np_key = tuple(
        masks[k] if isinstance(k, str) else np.array(k) if isinstance(k, list) else k for k in keys
    )
    xp_key = tuple(
        xp.asarray(masks[k]) if isinstance(k, str) else xp.asarray(k) if isinstance(k, list) else k
        for k in keys
    )
    if not isinstance(key, tuple):
        np_key, xp_key = np_key[0], xp_key[0]
    expected = a[np_key]
    check(xp_of(a)[xp_key], expected)
    x, b = xp_of(a), a.copy()
    x[xp_key] = -1.0
    b[np_key] = -1.0
    check(x, b)


def test_boolean_index_shape_mismatch_is_an_index_error():
    a = np.arange(24.0).reshape(2, 3, 4)
    with pytest.raises(IndexError):
        a[..., np.array([True, False])]
    with pytest.raises(IndexError, match="does not match"):
        xp_of(a)[..., xp.asarray([True, False])]


# ---------------------------------------------------------------- complex powers


@pytest.mark.parametrize(
    "base, exponent",
    [
        ([2j], 2),
        ([2j], 3),
        ([1 + 1j], 4),
        ([1 + 1j, 2 - 3j, -1j], 5),
        ([2j], -2),
        ([1j], -1),
        ([0.5 + 0.5j], 10),
        ([2j], 1),
        ([1 + 2j], 2.0),
        ([1 - 1j], 99),
        ([-3 + 4j], 3),
        ([1 + 1j], -4),
    ],
)
def test_complex_integer_powers_are_exact(base, exponent):
    """Exact results stay exact, bit for bit numpy's."""
    for name in ("complex128", "complex64"):
        a = np.asarray(base, dtype=name)
        x = xp_of(a)
        check(x**exponent, a**exponent)  # a Python scalar exponent
        e = np.full(a.shape, exponent, dtype=name)
        check(xp.pow(x, xp_of(e)), np.power(a, e))  # an array of exponents
    assert complex(xp.asarray([2j]) ** 2) == -4 + 0j
    assert complex(xp.asarray([1 + 1j]) ** 4) == -4 + 0j


def test_complex_integer_powers_with_rounding():
    """Inexact results: numpy's method (repeated multiplication), to the last
    bits (the reciprocal of a negative exponent is C's complex division)."""
    a = np.asarray([3 - 2j, 0.1 + 0.7j, -1.3 + 0.2j, 1e3 + 1e-3j])
    x = xp_of(a)
    for n in (2, 3, 7, -1, -2, -5, 17, 64, 99, -99):
        np.testing.assert_allclose(np_of(x**n), a**n, rtol=1e-14, atol=0)


def test_complex_other_powers_keep_cpow():
    a = np.asarray([1 + 2j, -3 + 0.5j, 2j])
    x = xp_of(a)
    for e in (0.5, 2.5 + 1j, 100, 1j, 0):
        check(x**e, a**e, exact=False)


# ---------------------------------------------------------------- error messages


def test_promotion_errors_name_the_dtypes_and_say_cast():
    # mixed kinds promote as numpy's (docs/array-api.md, "Beyond the
    # standard"); what keeps a dtype (in-place operators) still refuses
    i = xp.asarray([1, 2])
    check(i + 1.5, np.asarray([2.5, 3.5]))
    check(i + xp.asarray([1.0, 2.0]), np.asarray([2.0, 4.0]))
    check(xp.asarray([True]) + xp.asarray([1], dtype=xp.int8), np.asarray([2], dtype=np.int8))
    with pytest.raises(TypeError, match=r"cast|promote|dtype") as e:  # array-api-extra's pattern
        i += 1.5
    assert re.search(r"cannot cast", str(e.value)) and "int64" in str(e.value)
    with pytest.raises(TypeError, match=r"cannot cast the result from float64 to int64"):
        i -= xp.asarray([1.0, 2.0])


def test_shape_errors_say_could_not_be_broadcast():
    with pytest.raises(ValueError) as np_error:
        np.ones(2) + np.ones(3)
    assert "could not be broadcast together with shapes (2,) (3,)" in str(np_error.value)
    with pytest.raises(
        ValueError,
        match=re.escape("operands could not be broadcast together with shapes (2,) (3,)"),
    ):
        xp.ones(2) + xp.ones(3)
    with pytest.raises(ValueError, match="could not be broadcast"):
        xp.broadcast_arrays(xp.ones((2, 3)), xp.ones((4,)))


def test_inplace_shape_change_is_a_value_error():
    x, a = xp.asarray([1.0, 2.0]), np.asarray([1.0, 2.0])
    y = xp.ones((3, 2))
    with pytest.raises(ValueError):
        a += np.ones((3, 2))
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(2,\)"):
        x += y
    check(x, a)  # nothing written
    s = xp.asarray(1.0)
    with pytest.raises(ValueError, match="broadcast shape"):
        s *= x
    with pytest.raises(TypeError, match="cannot cast"):
        i = xp.asarray([1, 2])
        i /= 2
    with pytest.raises(TypeError, match="cannot cast"):
        i = xp.asarray([1, 2])
        i += 1.5

"""strided.compat.fuse: a fused expression gives what the unfused one
gives (the same kernels: value for value, dtype and shape), whatever the
dtypes, broadcasting, strides, emptiness or dimensionality, and refuses
what it cannot trace with clear errors.  numpy is the oracle where the
standard and numpy agree; the unfused strided expression everywhere."""

import numpy as np
import pytest

import strided.compat as xp
from compat_util import NAMES, check, np_of


def arrays(shape, dtype, seed, positive=False):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 1 if positive or dt.kind == "u" else -9
        return rng.integers(lo, 10, shape).astype(dt)
    v = rng.standard_normal(shape) + (3 if positive else 0)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def same(fused, unfused):
    """The fused result is the unfused one (exactly: same kernels)."""
    check(fused, np_of(unfused))


def axpy(a, b, c):
    return a * b + c


@pytest.mark.parametrize("name", [n for n in NAMES if n != "bool"])
def test_a_times_b_plus_c_every_numeric_dtype(name):
    a, b, c = (arrays((1000,), name, s) for s in (1, 2, 3))
    x, y, z = xp.asarray(a), xp.asarray(b), xp.asarray(c)
    out = xp.fuse(axpy)(x, y, z)
    same(out, x * y + z)
    if np.dtype(name).kind == "f":
        np.testing.assert_array_equal(np_of(out), a * b + c)


def test_matches_numpy_on_a_large_array_across_threads():
    n = 3 * 10**5 + 7  # several blocks and threads, a ragged tail
    a, b, c = (arrays((n,), "float64", s) for s in (4, 5, 6))
    out = xp.fuse(axpy)(xp.asarray(a), xp.asarray(b), xp.asarray(c))
    np.testing.assert_array_equal(np_of(out), a * b + c)


def test_functions_scalars_and_comparisons():
    a, b = arrays((50,), "float64", 7, positive=True), arrays((50,), "float64", 8)

    def f(x, y):
        return xp.sqrt(x) * 2.5 - xp.exp(-y) / (1 + x**2)

    x, y = xp.asarray(a), xp.asarray(b)
    same(xp.fuse(f)(x, y), xp.sqrt(x) * 2.5 - xp.exp(-y) / (1 + x**2))
    g = xp.fuse(lambda x, y: (x > y) | xp.isnan(y))
    same(g(x, y), (x > y) | xp.isnan(y))
    assert g(x, y).dtype == xp.bool


def test_namespace_of_the_traced_values():
    def f(x, y):
        ns = x.__array_namespace__()
        return ns.maximum(x, y) + ns.abs(y)

    x, y = xp.asarray(arrays((20,), "float32", 9)), xp.asarray(arrays((20,), "float32", 10))
    same(xp.fuse(f)(x, y), xp.maximum(x, y) + xp.abs(y))


@pytest.mark.parametrize(
    "d1, d2",
    [
        ("float32", "float64"),
        ("int8", "int32"),
        ("uint8", "int16"),
        ("int32", "int64"),
        ("float32", "complex64"),
        ("float64", "complex64"),
    ],
)
def test_promotion_as_unfused(d1, d2):
    x, y = xp.asarray(arrays((30,), d1, 11)), xp.asarray(arrays((30,), d2, 12))
    out = xp.fuse(lambda a, b: a * b - a)(x, y)
    same(out, x * y - x)
    assert out.dtype == xp.result_type(x, y)


def test_integer_division_promotes_to_float64_and_floor_divide_stays():
    x = xp.asarray(arrays((40,), "int32", 13, positive=True))
    y = xp.asarray(arrays((40,), "int32", 14, positive=True))
    same(xp.fuse(lambda a, b: a / b + 1)(x, y), x / y + 1)
    same(xp.fuse(lambda a, b: a // b + a % b)(x, y), x // y + x % y)


def test_integer_division_by_zero_raises_as_unfused():
    x = xp.asarray(np.array([1, 2, 3], np.int64))
    y = xp.asarray(np.array([1, 0, 3], np.int64))
    with pytest.raises(ZeroDivisionError) as unfused:
        x // y + 1
    with pytest.raises(ZeroDivisionError) as fused:
        xp.fuse(lambda a, b: a // b + 1)(x, y)
    assert str(fused.value) == str(unfused.value)


def test_scalar_conversion_errors_as_unfused():
    x = xp.asarray(np.array([1, 2], np.int8))
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        xp.fuse(lambda a: a + 300)(x)
    # int8 + float: the namespace's mixed-kind extension (docs/array-api.md),
    # fused as unfused
    fused, plain = xp.fuse(lambda a: a + 1.5)(x), x + 1.5
    assert fused.dtype == plain.dtype == xp.float64
    assert np.array_equal(np.asarray(fused), np.asarray(plain))
    with pytest.raises(TypeError):
        xp.fuse(lambda a: xp.sin(a))(x)  # sin needs floating dtypes


@pytest.mark.parametrize(
    "shapes",
    [[(4, 1), (3,), (4, 3)], [(2, 1, 5), (1, 3, 1), (5,)], [(), (6,), (1, 6)], [(3, 4), (1,), ()]],
)
def test_broadcasting(shapes):
    a, b, c = (arrays(s, "float64", i) for i, s in enumerate(shapes))
    x, y, z = xp.asarray(a), xp.asarray(b), xp.asarray(c)
    out = xp.fuse(axpy)(x, y, z)
    same(out, x * y + z)
    np.testing.assert_array_equal(np_of(out), a * b + c)


def test_shapes_that_do_not_broadcast():
    x, y = xp.ones((3,)), xp.ones((4,))
    with pytest.raises(ValueError, match="broadcast"):
        xp.fuse(lambda a, b: a + b)(x, y)


def test_non_contiguous_inputs():
    base = arrays((8, 10), "float64", 20)
    w = xp.asarray(base)
    x, y, z = w[::2, 1::3], w.T[1:5, ::3], w[1::2, ::4]  # (4, 3) views
    out = xp.fuse(axpy)(x, y, z)
    same(out, x * y + z)
    np.testing.assert_array_equal(np_of(out), base[::2, 1::3] * base.T[1:5, ::3] + base[1::2, ::4])


def test_transposed_inputs_give_the_unfused_layout():
    a = xp.asarray(arrays((30, 20), "float64", 21)).T
    out = xp.fuse(lambda x: x * 2 + 1)(a)
    ref = a * 2 + 1
    same(out, ref)
    assert out._c.strides == ref._c.strides


def test_empty_and_zero_d():
    e = xp.asarray(np.zeros((0, 3)))
    out = xp.fuse(axpy)(e, e, xp.asarray(1.0))
    check(out, np.zeros((0, 3)))
    s = xp.fuse(axpy)(xp.asarray(2.0), xp.asarray(3.0), xp.asarray(0.5))
    check(s, np.asarray(6.5))


def test_an_argument_the_function_ignores_does_not_broadcast():
    x, unused = xp.ones((3,)), xp.ones((5,))
    check(xp.fuse(lambda a, b: a + 1)(x, unused), np.full(3, 2.0))


def test_identity_is_a_copy():
    x = xp.asarray([1.0, 2.0])
    y = xp.fuse(lambda a: a)(x)
    check(y, np.array([1.0, 2.0]))
    y[0] = 5.0
    check(x, np.array([1.0, 2.0]))


def test_a_shared_subexpression_is_computed_once_and_right():
    x = xp.asarray(arrays((100,), "float64", 22))
    out = xp.fuse(lambda a: (s := a * a + 1) * s - s)(x)
    t = x * x + 1
    same(out, t * t - t)


def test_a_long_chain_reuses_registers():
    def f(a, b):
        acc = a
        for k in range(60):
            acc = acc * b + k
        return acc

    x, y = (
        xp.asarray(arrays((300,), "float64", 23)) * 0.01,
        xp.asarray(arrays((300,), "float64", 24)),
    )
    same(xp.fuse(f)(x, y), f(x, y))


def test_decorator_and_cache_per_signature():
    calls = []

    @xp.fuse
    def f(a, b):
        calls.append(a.dtype)
        return a - b

    for dt in ("float64", "float64", "float32", "float64"):
        x = xp.asarray(arrays((5,), dt, 25))
        same(f(x, x), x - x)
    assert calls == [xp.float64, xp.float32]
    assert f.__name__ == "f"


def test_bad_input():
    g = xp.fuse(lambda a, b: a + b)
    with pytest.raises(TypeError, match="argument 1 .* must be an Array"):
        g(xp.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="at least one array"):
        g()
    with pytest.raises(TypeError, match="expected a function"):
        xp.fuse(3)
    with pytest.raises(TypeError):
        g(xp.ones(2))  # f takes two
    with pytest.raises(TypeError, match="must return one value computed"):
        xp.fuse(lambda a: 3.0)(xp.ones(2))
    with pytest.raises(TypeError, match="must return one value computed"):
        xp.fuse(lambda a: xp.ones(2))(xp.ones(2))
    with pytest.raises(TypeError, match="truth value"):
        xp.fuse(lambda a: a if a > 0 else -a)(xp.ones(2))
    with pytest.raises(TypeError, match="memory or shape"):
        xp.fuse(lambda a: xp.sum(a))(xp.ones(2))
    with pytest.raises(TypeError, match="memory or shape"):
        xp.fuse(lambda a: a.shape)(xp.ones(2))
    with pytest.raises(TypeError, match="computed from its arguments"):
        xp.fuse(lambda a: a + xp.ones(2))(xp.ones(2))
    with pytest.raises(TypeError, match="needs numeric dtypes"):
        xp.fuse(lambda a, b: a + b)(xp.ones(2, dtype=xp.bool), xp.ones(2, dtype=xp.bool))
    # float64 + int64: the namespace's mixed-kind extension, fused as unfused
    a, b = xp.ones(2), xp.asarray([3, 4])
    fused = xp.fuse(lambda a, b: a + b)(a, b)
    assert fused.dtype == (a + b).dtype == xp.float64
    assert np.array_equal(np.asarray(fused), np.asarray(a + b))


def test_too_many_inputs_or_values():
    many = [xp.ones(2)] * 40
    with pytest.raises(ValueError, match="at most 32"):
        xp.fuse(lambda *a: sum(a[1:], a[0]))(*many)

    def deep(a, k=1):
        # (a*1) + ((a*2) + (...)): each left value waits for the whole right side
        return a * k if k == 20 else a * k + deep(a, k + 1)

    with pytest.raises(ValueError, match="intermediate values"):
        xp.fuse(deep)(xp.ones(2))

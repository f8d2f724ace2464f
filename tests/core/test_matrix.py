"""cross, diag, tril, triu, trace, spaced (matrix.c and the diagonal views) against
numpy over their dtypes and layouts, and Lua Torch7's answers."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from strided.core.matrix import cross, diag, spaced, trace, tril, triu
from helpers import DTYPE_NAMES, REAL_NAMES, arrays, borrow, layouts, to_core, to_numpy


def small(dt):
    if np.dtype(dt).kind == "f":
        return st.floats(-100, 100, width=np.dtype(dt).itemsize * 8)
    info = np.iinfo(dt)
    return st.integers(info.min, info.max)


@given(data=st.data())
def test_cross(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    shape = list(data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=3)))
    d = data.draw(st.integers(0, len(shape) - 1))
    shape[d] = 3
    a = data.draw(layouts(data.draw(arrays(dt, shape=st.just(tuple(shape)), elements=small(dt)))))
    b = data.draw(layouts(data.draw(arrays(dt, shape=st.just(tuple(shape)), elements=small(dt)))))
    got = to_numpy(cross(borrow(a), borrow(b), d))
    if np.dtype(dt).kind == "f":
        want = np.cross(a.astype(np.float64), b.astype(np.float64), axis=d).astype(dt)
        np.testing.assert_allclose(got, want, rtol=1e-5 if dt == "float32" else 1e-12, atol=1e-3)
    else:  # wrapping arithmetic: exact in Python ints, then modulo the width
        ao, bo = np.moveaxis(a, d, -1).astype(object), np.moveaxis(b, d, -1).astype(object)
        c = np.stack(
            [
                ao[..., 1] * bo[..., 2] - ao[..., 2] * bo[..., 1],
                ao[..., 2] * bo[..., 0] - ao[..., 0] * bo[..., 2],
                ao[..., 0] * bo[..., 1] - ao[..., 1] * bo[..., 0],
            ],
            -1,
        )
        bits = 8 * np.dtype(dt).itemsize
        c = np.vectorize(lambda v: v % (1 << bits), otypes=[object])(c) if c.size else c
        want = np.moveaxis(c.astype(np.uint64).astype(dt) if c.size else c.astype(dt), -1, d)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_cross_of_complex_is_numpys(dt, layout):
    """Complex cross (compat's linalg.cross runs on it): a1 b2 - a2 b1 in dt,
    against numpy's np.cross (whose SIMD complex product may round the last
    bit otherwise: a tolerance of a few ulp)."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))).astype(dt)
    b = (rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))).astype(dt)
    if layout == "transposed":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    got = to_numpy(cross(borrow(a), borrow(b), 1))
    eps = np.finfo(dt).eps
    np.testing.assert_allclose(got, np.cross(a, b, axis=1), rtol=8 * eps, atol=16 * eps)
    assert got.dtype == dt
    assert to_numpy(cross(borrow(a[:0]), borrow(b[:0]), 1)).shape == (0, 3)


def test_cross_refuses_bool():
    with pytest.raises(TypeError, match="integer, floating or complex"):
        cross(to_core(np.ones(3, bool)), to_core(np.ones(3, bool)))


def test_cross_default_dim_and_in_place():
    a = np.array([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]])
    b = np.array([[7.0, 1.0], [8.0, 0.0], [9.0, 2.0]])
    # Torch7: torch.cross on 3x2 takes dim 1 (the first of size 3)
    assert to_numpy(cross(to_core(a), to_core(b))).ravel().tolist() == [-6, 10, 12, -2, -6, -5]
    ca = to_core(a)
    assert cross(ca, to_core(b), out=ca) is ca  # out may be a itself
    assert to_numpy(ca).ravel().tolist() == [-6, 10, 12, -2, -6, -5]
    # torch.cross({{1,2,3},{4,5,6},{7,8,10}}, eye(3), 2)
    r = cross(to_core(np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]])), to_core(np.eye(3)), 1)
    assert to_numpy(r).ravel().tolist() == [0, 3, -2, -6, 0, 4, 8, -7, 0]
    # torch.cross(ByteTensor{1,2,3}, ByteTensor{4,5,6}) wraps: 253 6 253
    assert to_numpy(
        cross(to_core(np.array([1, 2, 3], "uint8")), to_core(np.array([4, 5, 6], "uint8")))
    ).tolist() == [253, 6, 253]


@given(data=st.data())
def test_tril_triu(data):
    dt = data.draw(st.sampled_from(DTYPE_NAMES))
    x = data.draw(arrays(dt, shape=st.lists(st.integers(0, 5), min_size=2, max_size=4).map(tuple)))
    x = data.draw(layouts(x))
    k = data.draw(st.integers(-7, 7))
    np.testing.assert_array_equal(to_numpy(tril(borrow(x), k)), np.tril(x, k))
    np.testing.assert_array_equal(to_numpy(triu(borrow(x), k)), np.triu(x, k))


def test_tri_in_place_and_huge_k():
    x = np.arange(12.0).reshape(3, 4)
    c = to_core(x)
    assert triu(c, 1, out=c) is c
    np.testing.assert_array_equal(to_numpy(c), np.triu(x, 1))
    assert to_numpy(tril(to_core(x), 2**62)).tolist() == x.tolist()
    assert not to_numpy(tril(to_core(x), -(2**62))).any()
    m = np.arange(9.0).reshape(3, 3)
    # torch.tril(m, -1), torch.triu(m, 1), torch.triu(2x4, -1)
    assert to_numpy(tril(to_core(m + 1), -1)).ravel().tolist() == [0, 0, 0, 4, 0, 0, 7, 8, 0]
    assert to_numpy(triu(to_core(m + 1), 1)).ravel().tolist() == [0, 2, 3, 0, 0, 6, 0, 0, 0]
    w = np.arange(1.0, 9).reshape(2, 4)
    assert to_numpy(triu(to_core(w), -1)).tolist() == w.tolist()


@given(data=st.data())
def test_diag(data):
    dt = data.draw(st.sampled_from(DTYPE_NAMES))
    nd = data.draw(st.sampled_from([1, 2]))
    x = data.draw(
        arrays(dt, shape=st.lists(st.integers(0, 5), min_size=nd, max_size=nd).map(tuple))
    )
    x = data.draw(layouts(x))
    k = data.draw(st.integers(-6, 6))
    got = to_numpy(diag(borrow(x), k))
    np.testing.assert_array_equal(got, np.diag(x, k))


def test_lua_diag_and_trace():
    m = to_core(np.array([[1.0, 2, 3], [4, 5, 6]]))
    assert to_numpy(diag(m, -1)).tolist() == [4]
    assert to_numpy(diag(m, 1)).tolist() == [2, 6]
    assert to_numpy(diag(to_core(np.array([1.0, 2])), -2)).ravel().tolist() == [
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        2,
        0,
        0,
    ]
    # Torch7 fails on a k beyond the matrix; the core answers an empty diagonal
    assert to_numpy(diag(m, 5)).shape == (0,) and to_numpy(diag(m, -3)).shape == (0,)
    assert trace(m) == 6 and isinstance(trace(m), float)
    assert trace(to_core(np.array([[1, 2], [3, 4]], "int32"))) == 5
    assert trace(to_core(np.array([[0.1, 0], [0, 0.2]], "float32"))) == pytest.approx(0.3, rel=1e-7)


def test_bad_arguments():
    a = to_core(np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"cross: no dim of size 3 in a \(shape \(2,\)\)"):
        cross(to_core(np.ones(2)), to_core(np.ones(2)))
    with pytest.raises(ValueError, match="cross: dim 1 has size 2, not 3"):
        cross(a, a, 1)
    with pytest.raises(ValueError, match=r"cross: a has shape \(3, 2\) but b has shape \(3,\)"):
        cross(a, to_core(np.ones(3)))
    with pytest.raises(TypeError, match="cross: b is float32 but a is float64"):
        cross(a, to_core(np.ones((3, 2), "float32")))
    with pytest.raises(ValueError, match="shares memory"):
        base = to_core(np.arange(9.0))
        cross(base.view(0, (3,), (1,)), base.view(0, (3,), (1,)), out=base.view(1, (3,), (1,)))
    with pytest.raises(ValueError, match="tril: x must have at least 2 dims"):
        tril(to_core(np.ones(3)))
    with pytest.raises(TypeError, match="triu: k must be an integer"):
        triu(a, 0.5)
    with pytest.raises(ValueError, match="diag: x must be 1-D or 2-D"):
        diag(to_core(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="trace: x must be 2-D"):
        trace(to_core(np.ones(3)))


@given(
    dt=st.sampled_from(["float32", "float64"]),
    a=st.floats(-40, 40),
    b=st.floats(-40, 40),
    shape=st.sampled_from([(1,), (7,), (3, 5), (2, 3, 4)]),
    log=st.booleans(),
    transposed=st.booleans(),
)
def test_spaced(dt, a, b, shape, log, transposed):
    # Torch7's formula, each step rounded in dt (numpy's scalar ops are IEEE
    # too), in C order over out whatever its layout; 10^that by libm's
    # scalar pow, which math.pow (float64) and float32(10)**x do not both
    # give: the float32 pow is only checked to 1 ulp here, exactly against
    # Lua in tests/torch7/test_t7_creation.py
    T = np.dtype(dt).type
    n = int(np.prod(shape))
    buf = np.full(shape[::-1], np.nan, dt)
    out = borrow(buf.T if transposed else buf.reshape(shape))
    spaced(out, a, b, log)
    got = to_numpy(out).reshape(-1)
    ta, tb = T(a), T(b)
    i = np.arange(n, dtype=dt)
    want = np.full(n, ta) if n == 1 else ta + i * (tb - ta) / T(n - 1)
    if not log:
        np.testing.assert_array_equal(got, want)
    elif dt == "float64":
        np.testing.assert_array_equal(got, [math.pow(10.0, float(v)) for v in want])
    else:
        np.testing.assert_array_max_ulp(got, np.power(T(10), want), maxulp=1)

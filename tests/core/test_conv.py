"""conv2/xcorr2/conv3/xcorr3 (conv.c) against scipy.signal (direct method)
over every integer and float dtype, the three forms, both modes and any
layout, and Lua Torch7's answers."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import signal

from strided.core import base as _core
from strided.core.conv import conv2, conv3, xcorr2, xcorr3
from helpers import REAL_NAMES, arrays, borrow, layouts, to_core, to_numpy

FNS = {(2, False): conv2, (2, True): xcorr2, (3, False): conv3, (3, True): xcorr3}


def ref(x, k, nd, full, xc):
    """scipy's n-d convolution in float64 (exact for the small integers
    drawn), over the trailing nd dims, in the three forms."""
    mode = "full" if full else "valid"

    def one(a, b):
        a, b = a.astype(np.float64), b.astype(np.float64)
        if xc:
            return signal.correlate(a, b, mode=mode, method="direct")
        return signal.convolve(a, b, mode=mode, method="direct")

    if x.ndim == nd and k.ndim == nd:
        return one(x, k)
    if k.ndim == nd + 1:
        return np.stack([one(x[p], k[p]) for p in range(x.shape[0])])
    return np.stack([sum(one(x[p], k[q, p]) for p in range(x.shape[0])) for q in range(k.shape[0])])


def cast_back(r, dt):
    """float64 results to dt the way the kernel's wrapping arithmetic gives them"""
    if np.dtype(dt).kind == "f":
        return r.astype(dt)
    return np.round(r).astype(np.int64).astype(dt)


def small(dt):
    if np.dtype(dt).kind == "f":
        return st.floats(-4, 4, width=np.dtype(dt).itemsize * 8)
    info = np.iinfo(dt)
    return st.integers(max(info.min, -100), min(info.max, 100))


@given(data=st.data())
def test_against_scipy(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    nd = data.draw(st.sampled_from([2, 3]))
    xc, full = data.draw(st.booleans()), data.draw(st.booleans())
    form = data.draw(st.sampled_from([0, 1, 2]))
    P, Q = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    side = st.integers(1, 7) if nd == 2 else st.integers(1, 4)
    sp = tuple(data.draw(side) for _ in range(nd))
    ksp = tuple(data.draw(st.integers(1 if not full else 0, s if not full else 4)) for s in sp)
    xs = sp if form == 0 else (P,) + sp
    ks = ksp if form == 0 else ((P,) + ksp if form == 1 else (Q, P) + ksp)
    x = data.draw(layouts(data.draw(arrays(dt, shape=st.just(xs), elements=small(dt)))))
    k = data.draw(layouts(data.draw(arrays(dt, shape=st.just(ks), elements=small(dt)))))
    got = to_numpy(FNS[nd, xc](borrow(x), borrow(k), "F" if full else "V"))
    if 0 in ksp:  # scipy refuses empty kernels: the sum over nothing is 0
        shape = tuple(max(i + t - 1, 0) for i, t in zip(sp, ksp))
        want = np.zeros(((Q,) if form == 2 else (P,) if form == 1 else ()) + shape)
    else:
        want = ref(x, k, nd, full, xc)
    assert got.dtype == x.dtype and got.shape == want.shape
    if np.dtype(dt).kind == "f":
        np.testing.assert_allclose(
            got,
            want,
            rtol=1e-4 if dt == "float32" else 1e-12,
            atol=1e-4 if dt == "float32" else 1e-12,
        )
    else:
        np.testing.assert_array_equal(got, cast_back(want, dt))


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize(
    "shape,kshape",
    [((130, 97), (11, 11)), ((67, 200), (3, 5)), ((9, 300), (1, 1)), ((40, 41), (40, 1))],
)
def test_larger_images(dt, shape, kshape, threads):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(dt)
    k = rng.standard_normal(kshape).astype(dt)
    tol = 1e-4 if dt == "float32" else 1e-11
    for full in (False, True):
        mode = "full" if full else "valid"
        np.testing.assert_allclose(
            to_numpy(conv2(borrow(x), borrow(k), "F" if full else "V")),
            signal.convolve2d(x.astype(np.float64), k, mode),
            rtol=tol,
            atol=tol,
        )
        np.testing.assert_allclose(
            to_numpy(xcorr2(borrow(x.T), borrow(k.T), "F" if full else "V")),
            signal.correlate2d(x.T.astype(np.float64), k.T, mode),
            rtol=tol,
            atol=tol,
        )


def test_out_and_thread_count_independence(threads):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 60, 70))
    k = rng.standard_normal((4, 3, 5, 6))
    a = to_numpy(conv2(borrow(x), borrow(k), "F"))
    before = _core.getnumthreads()
    _core.setnumthreads(1)
    try:
        b = to_numpy(conv2(borrow(x), borrow(k), "F"))
    finally:
        _core.setnumthreads(before)
    np.testing.assert_array_equal(a, b)
    out = _core.Core.empty((4, 64, 75), "float64")
    assert conv2(borrow(x), borrow(k), "F", out=out) is out
    np.testing.assert_array_equal(to_numpy(out), a)


# ---- Lua Torch7's answers ----


def t(x, dt="float64"):
    return to_core(np.array(x, dt))


def seq(shape, f=lambda i: i):
    n = int(np.prod(shape))
    return t(np.array([f(i) for i in range(1, n + 1)], float).reshape(shape))


def test_lua_2d():
    x = t([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    k = t([[1, 2], [3, 4]])
    assert to_numpy(conv2(x, k)).ravel().tolist() == [26, 36, 46, 66, 76, 86]
    assert to_numpy(conv2(x, k, "F")).ravel().tolist() == [
        1,
        4,
        7,
        10,
        8,
        8,
        26,
        36,
        46,
        32,
        24,
        66,
        76,
        86,
        56,
        27,
        66,
        73,
        80,
        48,
    ]
    assert to_numpy(xcorr2(x, k)).ravel().tolist() == [44, 54, 64, 84, 94, 104]
    assert to_numpy(xcorr2(x, k, "F")).ravel().tolist() == [
        4,
        11,
        18,
        25,
        12,
        22,
        44,
        54,
        64,
        28,
        46,
        84,
        94,
        104,
        44,
        18,
        29,
        32,
        35,
        12,
    ]
    # uint8 wraps: torch.conv2(ByteTensor{{200,100},{50,25}}, ByteTensor{{3,1},{1,2}}, 'F')
    r = conv2(t([[200, 100], [50, 25]], "uint8"), t([[3, 1], [1, 2]], "uint8"), "F")
    assert to_numpy(r).ravel().tolist() == [88, 244, 100, 94, 113, 225, 50, 125, 50]


def test_lua_forms():
    x3 = seq((2, 3, 3))
    k3 = seq((2, 2, 2), lambda i: i % 3)
    k4 = seq((3, 2, 2, 2), lambda i: i % 5 - 2)
    # 3-D x, 3-D k: plane by plane (conv2Dcmul)
    assert to_numpy(conv2(x3, k3)).ravel().tolist() == [14, 18, 26, 30, 59, 64, 74, 79]
    # 3-D x, 4-D k: out[q] = sum over p (conv2Dmv)
    assert to_numpy(conv2(x3, k4)).ravel().tolist() == [
        -32,
        -32,
        -32,
        -32,
        8,
        7,
        5,
        4,
        23,
        26,
        32,
        35,
    ]
    assert to_numpy(xcorr2(x3, k4, "F")).ravel().tolist()[:16] == [
        12,
        16,
        20,
        3,
        11,
        -4,
        -4,
        -21,
        17,
        -4,
        -4,
        -27,
        -16,
        -56,
        -60,
        -45,
    ]
    assert to_numpy(conv3(x3, k3)).ravel().tolist() == [64, 73, 91, 100]
    assert to_numpy(conv3(x3, k3, "F"))[0].ravel().tolist() == [
        1,
        4,
        7,
        6,
        4,
        14,
        18,
        15,
        7,
        26,
        30,
        24,
        0,
        7,
        8,
        9,
    ]
    assert to_numpy(xcorr3(x3, k3)).ravel().tolist() == [71, 80, 98, 107]
    x4 = seq((2, 2, 3, 3))
    k5 = seq((2, 2, 2, 2, 2), lambda i: i % 3 - 1)
    assert to_numpy(conv3(x4, k5)).ravel().tolist() == [-25, -25, -25, -25, 29, 30, 32, 33]
    r = to_numpy(xcorr3(x4, to_core(to_numpy(k5)[0]), "F"))
    assert r.shape == (2, 3, 4, 4)
    assert r.ravel().tolist()[:12] == [1, 2, 3, 0, 3, 4, 5, 3, 3, 7, 8, 6]


def test_bad_arguments():
    x, k = t(np.ones((3, 4))), t(np.ones((2, 2)))
    with pytest.raises(
        ValueError, match=r"conv2: x is smaller than k along spatial dim 0 \(2 < 3\)"
    ):
        conv2(k, x)
    with pytest.raises(ValueError, match="xcorr2: k has 3 planes but x has 2"):
        xcorr2(t(np.ones((2, 3, 3))), t(np.ones((3, 2, 2))))
    with pytest.raises(
        ValueError, match=r"conv2: k takes 3 input planes \(its dim 1\) but x has 2"
    ):
        conv2(t(np.ones((2, 3, 3))), t(np.ones((4, 3, 2, 2))))
    with pytest.raises(ValueError, match=r"conv2: x \(1-D\) and k \(1-D\) must be"):
        conv2(t([1, 2, 3]), t([1, 2]))
    with pytest.raises(ValueError, match="conv3: x .2-D. and k .2-D."):
        conv3(x, k)
    with pytest.raises(ValueError, match="mode must be 'V' .valid. or 'F' .full."):
        conv2(x, k, "same")
    with pytest.raises(TypeError, match="conv2: k is float32 but x is float64"):
        conv2(x, t(np.ones((2, 2)), "float32"))
    with pytest.raises(TypeError, match="conv2: x must be an integer or floating"):
        conv2(t(np.ones((2, 2)), "complex64"), t(np.ones((1, 1)), "complex64"))
    with pytest.raises(ValueError, match=r"conv2: out has shape \(2, 3\), expected \(4, 5\)"):
        conv2(x, k, "F", out=_core.Core.empty((2, 3), "float64"))


def test_empty_sizes():
    # full mode with an empty kernel dim: the sum over nothing
    r = conv2(t(np.ones((3, 4))), _core.Core.empty((0, 2), "float64"), "F")
    assert to_numpy(r).shape == (2, 5) and not to_numpy(r).any()
    r = xcorr2(_core.Core.empty((0, 4), "float32"), t(np.ones((2, 2)), "float32"), "F")
    assert to_numpy(r).shape == (1, 5) and not to_numpy(r).any()
    r = conv2(_core.Core.empty((0, 3, 3), "float64"), _core.Core.empty((2, 0, 2, 2), "float64"))
    assert to_numpy(r).tolist() == [[[0, 0], [0, 0]], [[0, 0], [0, 0]]]

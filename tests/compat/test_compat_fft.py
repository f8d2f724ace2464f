"""The array API fft extension, strided.compat.fft (compat/fft.py), against
numpy.fft: every function, every norm, n/s larger and smaller than the
axes, transforms along every axis (batched along the others), non-contiguous
and reversed inputs, complex64/complex128 and float32/float64 (numpy 2 keeps
single precision too), odd/even/prime/1 lengths; dtype and shape rules of
the standard; bad input gives clean exceptions.  Tolerances scale with
eps * log2(n)."""

import inspect
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided.compat as xp
from compat_util import np_of

NORMS = ["backward", "ortho", "forward"]
EPS = {"complex64": 1.2e-7, "float32": 1.2e-7, "complex128": 2.3e-16, "float64": 2.3e-16}
LENGTHS = [
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    12,
    16,
    17,
    60,
    97,
    101,
    128,
    1000,
    1021,
    4096,
    2**4 * 3**2 * 5,
    10007,
]


def crandn(rng, shape, dt="complex128"):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def rand(rng, shape, dt="float64"):
    return rng.standard_normal(shape).astype(dt)


def xa(a):
    """An Array over a copy of numpy array a, in a's layout when it is a view
    (the copy keeps a's strides: np.asarray keeps them, our asarray views)."""
    return xp.asarray(a) if a.flags.c_contiguous else xp.asarray(a, copy=None)


def check(got, expected, n=2, factor=4.0):
    """got (an Array) matches numpy's expected: dtype, shape, values to
    factor * eps * log2(n) of the largest value."""
    expected = np.asarray(expected)
    assert isinstance(got, xp.Array)
    assert got.dtype.name == expected.dtype.name, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    g = np_of(got)
    scale = max(np.abs(expected).max(initial=0), 1e-30)
    tol = factor * EPS[expected.dtype.name] * max(math.log2(max(n, 2)), 1)
    assert np.abs(g - expected).max(initial=0) <= tol * scale


# ---------------------------------------------------------------- one dimension


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("norm", NORMS)
def test_fft_ifft(n, norm, dt):
    x = crandn(np.random.default_rng(n), (2, n), dt)
    check(xp.fft.fft(xa(x), norm=norm), np.fft.fft(x, norm=norm), n)
    check(xp.fft.ifft(xa(x), norm=norm), np.fft.ifft(x, norm=norm), n)


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("norm", NORMS)
def test_rfft_irfft_hfft_ihfft(n, norm, dt):
    rng = np.random.default_rng(n)
    x = rand(rng, (3, n), dt)
    check(xp.fft.rfft(xa(x), norm=norm), np.fft.rfft(x, norm=norm), n)
    check(xp.fft.ihfft(xa(x), norm=norm), np.fft.ihfft(x, norm=norm), n)
    cdt = "complex64" if dt == "float32" else "complex128"
    h = crandn(rng, (3, n // 2 + 1), cdt)
    check(xp.fft.irfft(xa(h), n=n, norm=norm), np.fft.irfft(h, n=n, norm=norm), n)
    check(xp.fft.hfft(xa(h), n=n, norm=norm), np.fft.hfft(h, n=n, norm=norm), n)
    if h.shape[1] > 1:  # the default n = 2 (m - 1)
        m2 = 2 * (h.shape[1] - 1)
        check(xp.fft.irfft(xa(h), norm=norm), np.fft.irfft(h, norm=norm), m2)
        check(xp.fft.hfft(xa(h), norm=norm), np.fft.hfft(h, norm=norm), m2)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("n", [None, 1, 3, 6, 11])
def test_axis_and_n(axis, n):
    rng = np.random.default_rng(abs(axis))
    x = crandn(rng, (6, 5, 7))
    r = rand(rng, (6, 5, 7))
    size = n or x.shape[axis]
    check(xp.fft.fft(xa(x), n=n, axis=axis), np.fft.fft(x, n=n, axis=axis), size)
    check(xp.fft.ifft(xa(x), n=n, axis=axis), np.fft.ifft(x, n=n, axis=axis), size)
    check(xp.fft.rfft(xa(r), n=n, axis=axis), np.fft.rfft(r, n=n, axis=axis), size)
    check(xp.fft.ihfft(xa(r), n=n, axis=axis), np.fft.ihfft(r, n=n, axis=axis), size)
    if n is not None or x.shape[axis] > 1:
        check(xp.fft.irfft(xa(x), n=n, axis=axis), np.fft.irfft(x, n=n, axis=axis), size)
        check(xp.fft.hfft(xa(x), n=n, axis=axis), np.fft.hfft(x, n=n, axis=axis), size)


VIEWS = {
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1, ::-1],
    "stepped": lambda a: a[::2, ::3],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("axis", [0, 1])
def test_non_contiguous_inputs(view, axis):
    rng = np.random.default_rng(2)
    base = crandn(rng, (34, 51))
    x = VIEWS[view](base)
    arr = VIEWS[view](xp.asarray(base))  # the same view of our own memory
    check(xp.fft.fft(arr, axis=axis), np.fft.fft(x, axis=axis), 51)
    rbase = rand(rng, (34, 51))
    check(
        xp.fft.rfft(VIEWS[view](xp.asarray(rbase)), axis=axis),
        np.fft.rfft(VIEWS[view](rbase), axis=axis),
        51,
    )
    check(xp.fft.irfft(arr, n=20, axis=axis), np.fft.irfft(x, n=20, axis=axis), 20)


@pytest.mark.parametrize("n", [100003, 2**20])
def test_long_single_lines(n):
    x = crandn(np.random.default_rng(n), n)
    check(xp.fft.fft(xp.asarray(x)), np.fft.fft(x), n)
    r = x.real.copy()
    check(xp.fft.rfft(xp.asarray(r)), np.fft.rfft(r), n)
    check(xp.fft.irfft(xp.asarray(x[: n // 2 + 1]), n=n), np.fft.irfft(x[: n // 2 + 1], n=n), n)


@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), data=st.data())
def test_one_dimensional_hypothesis(shape, data):
    rng = np.random.default_rng(sum(shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = data.draw(st.none() | st.integers(1, 20))
    norm = data.draw(st.sampled_from(NORMS))
    fname = data.draw(st.sampled_from(["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]))
    dt = data.draw(st.sampled_from(["32", "64"]))
    real_in = fname in ("rfft", "ihfft")
    x = (
        rand(rng, shape, "float" + dt)
        if real_in
        else crandn(rng, shape, "complex" + ("64" if dt == "32" else "128"))
    )
    if fname in ("irfft", "hfft") and n is None and shape[axis] == 1:
        with pytest.raises(ValueError, match="number of data points 0"):
            getattr(xp.fft, fname)(xa(x), axis=axis, norm=norm)
        return
    got = getattr(xp.fft, fname)(xa(x), n=n, axis=axis, norm=norm)
    expected = getattr(np.fft, fname)(x, n=n, axis=axis, norm=norm)
    check(got, expected, max(shape[axis], n or 1))


# ---------------------------------------------------------------- n dimensions


ND_CASES = [  # (shape, s, axes)
    ((4, 6, 5), None, None),
    ((4, 6, 5), None, (0, 2)),
    ((4, 6, 5), None, (2, 0)),
    ((4, 6, 5), (3, 8), (1, 2)),
    ((4, 6, 5), (7, -1, 2), (0, 1, 2)),
    ((4, 6, 5), (5,), (-1,)),
    ((4, 6, 5), None, (-2,)),
    ((17, 12), (16, 9), (0, 1)),
    ((1, 9), None, None),
    ((97, 3), (101,), (0,)),
]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("shape,s,axes", ND_CASES)
def test_fftn_ifftn(shape, s, axes, norm):
    x = crandn(np.random.default_rng(len(shape)), shape)
    n = math.prod(x.shape)
    check(
        xp.fft.fftn(xa(x), s=s, axes=axes, norm=norm), np.fft.fftn(x, s=s, axes=axes, norm=norm), n
    )
    check(
        xp.fft.ifftn(xa(x), s=s, axes=axes, norm=norm),
        np.fft.ifftn(x, s=s, axes=axes, norm=norm),
        n,
    )
    x32 = x.astype(np.complex64)
    check(
        xp.fft.fftn(xa(x32), s=s, axes=axes, norm=norm),
        np.fft.fftn(x32, s=s, axes=axes, norm=norm),
        n,
    )


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("shape,s,axes", ND_CASES)
def test_rfftn_irfftn(shape, s, axes, norm):
    rng = np.random.default_rng(len(shape))
    r = rand(rng, shape)
    n = math.prod(shape)
    check(
        xp.fft.rfftn(xa(r), s=s, axes=axes, norm=norm),
        np.fft.rfftn(r, s=s, axes=axes, norm=norm),
        n,
    )
    h = crandn(rng, shape)
    last = (axes or range(len(shape)))[-1]
    if s is None and shape[last] == 1:
        with pytest.raises(ValueError):
            xp.fft.irfftn(xa(h), s=s, axes=axes, norm=norm)
        return
    check(
        xp.fft.irfftn(xa(h), s=s, axes=axes, norm=norm),
        np.fft.irfftn(h, s=s, axes=axes, norm=norm),
        n,
    )
    h32 = h.astype(np.complex64)
    check(
        xp.fft.irfftn(xa(h32), s=s, axes=axes, norm=norm),
        np.fft.irfftn(h32, s=s, axes=axes, norm=norm),
        n,
    )


def test_round_trips_nd():
    rng = np.random.default_rng(11)
    x = crandn(rng, (5, 8, 7))
    back = xp.fft.ifftn(xp.fft.fftn(xp.asarray(x), norm="ortho"), norm="ortho")
    check(back, x, 280)
    r = rand(rng, (5, 8, 7))
    back = xp.fft.irfftn(xp.fft.rfftn(xp.asarray(r)), s=(5, 8, 7), axes=(0, 1, 2))
    check(back, r, 280)


def test_empty_axes():
    x = crandn(np.random.default_rng(0), (3, 4))
    a = xa(x)
    out = xp.fft.fftn(a, axes=())
    check(out, x)
    out[0, 0] = 0  # a copy, not the input
    assert np_of(a)[0, 0] == x[0, 0]
    with pytest.raises(ValueError, match="at least one axis"):
        xp.fft.rfftn(xp.real(a), axes=())
    with pytest.raises(ValueError, match="at least one axis"):
        xp.fft.irfftn(a, axes=())


# ---------------------------------------------------------------- frequencies and shifts


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 9, 100, 101])
@pytest.mark.parametrize("d", [1.0, 0.1, 2.5, -3.0])
def test_fftfreq_rfftfreq(n, d):
    f = xp.fft.fftfreq(n, d=d)
    assert f.dtype == xp.float64 and f.shape == (n,)
    np.testing.assert_array_equal(np_of(f), np.fft.fftfreq(n, d=d))
    r = xp.fft.rfftfreq(n, d=d)
    assert r.dtype == xp.float64 and r.shape == (n // 2 + 1,)
    np.testing.assert_array_equal(np_of(r), np.fft.rfftfreq(n, d=d))
    for fn, npf in ((xp.fft.fftfreq, np.fft.fftfreq), (xp.fft.rfftfreq, np.fft.rfftfreq)):
        g = fn(n, d=d, dtype=xp.float32, device="cpu")
        assert g.dtype == xp.float32
        np.testing.assert_array_equal(np_of(g), npf(n, d=d).astype(np.float32))


@pytest.mark.parametrize("shape", [(1,), (2,), (5,), (6,), (3, 4), (5, 7, 2)])
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128", "int64", "bool"])
def test_shifts_every_axes(shape, dt):
    x = (np.arange(math.prod(shape)).reshape(shape) % 3).astype(dt)
    choices = [None, 0, -1, tuple(range(len(shape))), tuple(range(len(shape)))[::-1]]
    for axes in choices:
        got = xp.fft.fftshift(xp.asarray(x), axes=axes)
        assert got.dtype == xp.asarray(x).dtype
        np.testing.assert_array_equal(np_of(got), np.fft.fftshift(x, axes=axes))
        got = xp.fft.ifftshift(xp.asarray(x), axes=axes)
        np.testing.assert_array_equal(np_of(got), np.fft.ifftshift(x, axes=axes))
        back = xp.fft.ifftshift(xp.fft.fftshift(xp.asarray(x), axes=axes), axes=axes)
        np.testing.assert_array_equal(np_of(back), x)


def test_shift_returns_a_new_array():
    a = xp.asarray([1.0, 2.0, 3.0])
    for f in (xp.fft.fftshift, xp.fft.ifftshift):
        out = f(a, axes=())
        out[0] = 9.0
        assert float(a[0]) == 1.0
    s = xp.fft.fftshift(xp.asarray(np.array(4.0)))  # 0-d: nothing to shift
    assert s.shape == () and float(s) == 4.0


# ---------------------------------------------------------------- the standard's rules


def test_namespace_and_signatures():
    assert xp.fft is xp.asarray([1.0]).__array_namespace__().fft
    for name in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]:
        sig = inspect.signature(getattr(xp.fft, name))
        assert list(sig.parameters) == ["x", "n", "axis", "norm"]
        assert sig.parameters["x"].kind is inspect.Parameter.POSITIONAL_ONLY
        assert sig.parameters["axis"].default == -1 and sig.parameters["norm"].default == "backward"
    for name in ["fftn", "ifftn", "rfftn", "irfftn"]:
        assert list(inspect.signature(getattr(xp.fft, name)).parameters) == [
            "x",
            "s",
            "axes",
            "norm",
        ]
    for name in ["fftfreq", "rfftfreq"]:
        assert list(inspect.signature(getattr(xp.fft, name)).parameters) == [
            "n",
            "d",
            "dtype",
            "device",
        ]
    assert sorted(xp.fft.__all__) == sorted(
        [
            "fft",
            "ifft",
            "fftn",
            "ifftn",
            "rfft",
            "irfft",
            "rfftn",
            "irfftn",
            "hfft",
            "ihfft",
            "fftfreq",
            "rfftfreq",
            "fftshift",
            "ifftshift",
        ]
    )


def test_dtype_rules():
    c = xp.asarray([1 + 2j, 3 - 1j, 0.5j, 2.0], dtype=xp.complex64)
    r = xp.asarray([1.0, 2.0, 3.0, 4.0], dtype=xp.float32)
    assert xp.fft.fft(c).dtype == xp.complex64
    assert xp.fft.ifftn(c).dtype == xp.complex64
    assert xp.fft.rfft(r).dtype == xp.complex64
    assert xp.fft.rfftn(r).dtype == xp.complex64
    assert xp.fft.ihfft(r).dtype == xp.complex64
    assert xp.fft.irfft(c).dtype == xp.float32
    assert xp.fft.irfftn(c).dtype == xp.float32
    assert xp.fft.hfft(c).dtype == xp.float32
    for f in (
        xp.fft.fft,
        xp.fft.ifft,
        xp.fft.fftn,
        xp.fft.ifftn,
        xp.fft.irfft,
        xp.fft.irfftn,
        xp.fft.hfft,
    ):
        for bad in (r, xp.asarray([1, 2, 3]), xp.asarray([True, False])):
            with pytest.raises(TypeError, match="complex floating"):
                f(bad)
    for f in (xp.fft.rfft, xp.fft.rfftn, xp.fft.ihfft):
        for bad in (c, xp.asarray([1, 2, 3])):
            with pytest.raises(TypeError, match="real floating"):
                f(bad)


def test_bad_input():
    c = xp.asarray(np.ones((3, 4), np.complex128))
    r = xp.asarray(np.ones((3, 4)))
    with pytest.raises(TypeError, match="fft.fft: x must be an Array, got ndarray"):
        xp.fft.fft(np.ones(4, np.complex128))
    with pytest.raises(TypeError, match="fft.fftshift: x must be an Array, got list"):
        xp.fft.fftshift([1.0, 2.0])
    for bad_n in (0, -1):
        with pytest.raises(ValueError, match="number of data points"):
            xp.fft.fft(c, n=bad_n)
        with pytest.raises(ValueError, match="number of data points"):
            xp.fft.rfft(r, n=bad_n)
    for bad_s in (0, -2):  # -1 is allowed: the axis' own length
        with pytest.raises(ValueError, match=">= 1"):
            xp.fft.fftn(c, s=(bad_s, 2), axes=(0, 1))
    with pytest.raises(TypeError, match="integer"):
        xp.fft.fft(c, n=2.0)
    with pytest.raises(TypeError, match="bool"):
        xp.fft.fft(c, n=True)
    with pytest.raises(ValueError, match="number of data points 0"):
        xp.fft.irfft(xp.asarray([1 + 0j]))  # default n = 2 (1 - 1)
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fft(c, norm="none")
    with pytest.raises(ValueError, match="norm"):
        xp.fft.rfftn(r, norm=None)
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fftn(c, axes=(), norm="orthonormal")
    with pytest.raises(IndexError, match="axis 2"):
        xp.fft.fft(c, axis=2)
    with pytest.raises(IndexError, match="axis -3"):
        xp.fft.irfft(c, axis=-3)
    with pytest.raises(ValueError, match="at least one dimension"):
        xp.fft.fft(xp.asarray(1 + 0j))
    with pytest.raises(ValueError, match="repeated axis"):
        xp.fft.fftn(c, axes=(0, -2))
    with pytest.raises(ValueError, match="repeated axis"):
        xp.fft.fftshift(c, axes=(1, 1))
    with pytest.raises(ValueError, match="axes must be given"):
        xp.fft.fftn(c, s=(2, 2))
    with pytest.raises(ValueError, match="2 entries but there are 1 axes"):
        xp.fft.irfftn(c, s=(2, 2), axes=(0,))
    with pytest.raises(TypeError, match="sequence"):
        xp.fft.fftn(c, axes=1)
    with pytest.raises(ValueError, match="device"):
        xp.fft.fftfreq(4, device="gpu")
    with pytest.raises(TypeError, match="real floating"):
        xp.fft.rfftfreq(4, dtype=xp.complex128)
    with pytest.raises(TypeError, match="real floating"):
        xp.fft.fftfreq(4, dtype=xp.int32)
    with pytest.raises(ValueError, match="n must be >= 1"):
        xp.fft.fftfreq(0)
    with pytest.raises(ValueError, match="nonzero"):
        xp.fft.rfftfreq(4, d=0.0)
    with pytest.raises(TypeError, match="integer"):
        xp.fft.fftfreq(4.0)


# ---------------------------------------------------------------- odd real lengths
# (real-data passes, strided/_c/fft_real.c): every real function of the
# namespace reaches them with an odd n

ODD = [9, 15, 21, 45, 77, 143, 1001, 1125, 2025, 2187, 3125, 10125]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", ODD)
def test_odd_real_functions(n, dt):
    rng = np.random.default_rng(n)
    x = rand(rng, (n,), dt)
    check(xp.fft.rfft(xa(x)), np.fft.rfft(x), n)
    check(xp.fft.ihfft(xa(x)), np.fft.ihfft(x), n)
    cdt = "complex64" if dt == "float32" else "complex128"
    h = crandn(rng, ((n + 1) // 2,), cdt)
    check(xp.fft.irfft(xa(h), n=n), np.fft.irfft(h, n=n), n)
    check(xp.fft.hfft(xa(h), n=n), np.fft.hfft(h, n=n), n)
    check(xp.fft.irfft(xa(h), n=n, norm="ortho"), np.fft.irfft(h, n=n, norm="ortho"), n)


@pytest.mark.parametrize("axes", [(0,), (1,), (0, 1), (1, 0)])
@pytest.mark.parametrize("shape", [(201, 45), (15, 2025), (7, 11)])
def test_odd_rfftn_irfftn(shape, axes):
    rng = np.random.default_rng(sum(shape))
    r = rand(rng, shape)
    n = math.prod(shape)
    check(xp.fft.rfftn(xa(r), axes=axes), np.fft.rfftn(r, axes=axes), n)
    s = [shape[a] for a in axes]  # odd lengths back
    h = np.fft.rfftn(r, axes=axes)
    check(xp.fft.irfftn(xa(h), s=s, axes=axes), np.fft.irfftn(h, s=s, axes=axes), n)
    rt = r[::-1].T  # non-contiguous
    check(xp.fft.rfftn(xa(rt), axes=axes), np.fft.rfftn(rt, axes=axes), n)

import numpy as np
import pytest

import strided
import strided.interop
import strided.memory
import strided.compat as xp
from compat_util import check, np_of, xp_of
from helpers import PYTORCH_REASON, on_fresh_pages


def test_asarray_from_python():
    check(xp.asarray([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]))
    check(xp.asarray([1, 2.5]), np.array([1, 2.5]))
    check(xp.asarray([True, False]), np.array([True, False]))
    check(xp.asarray([1j, 2]), np.array([1j, 2]))
    check(xp.asarray(3), np.array(3))
    check(xp.asarray(2.5, dtype=xp.float32), np.array(2.5, "float32"))
    check(xp.asarray([1, 2], dtype=xp.uint8), np.array([1, 2], "uint8"))
    check(xp.asarray([]), np.array([]))
    with pytest.raises(ValueError):
        xp.asarray([[1, 2], [3]])
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    with pytest.raises(TypeError):
        xp.asarray(["a"])
    with pytest.raises(ValueError):
        xp.asarray([1], device="cuda")
    assert (
        xp.asarray([1], device="cpu").device == xp.asarray([1], device=xp.asarray(1).device).device
    )


def test_asarray_copy_semantics():
    x = xp.asarray([1.0, 2.0, 3.0])
    assert xp.asarray(x) is not x
    same = xp.asarray(x, copy=False)
    same[0] = 9.0
    assert float(x[0]) == 9.0
    other = xp.asarray(x, copy=True)
    other[1] = 7.0
    assert float(x[1]) == 2.0
    cast = xp.asarray(x, dtype=xp.float32)
    assert cast.dtype is xp.float32 and cast._c.storage != x._c.storage
    with pytest.raises(ValueError):
        xp.asarray(x, dtype=xp.float32, copy=False)


def test_asarray_from_buffer_is_zero_copy():
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a)
    a[1, 2] = 50.0
    assert float(x[1, 2]) == 50.0
    check(xp.asarray(a, copy=True), a)
    ro = np.arange(3)
    ro.flags.writeable = False
    y = xp.asarray(ro)
    with pytest.raises(ValueError):
        y[0] = 1


def test_zero_copy_tensor_to_array_and_back():
    t = strided.DoubleTensor(2, 3).fill(1)
    x = xp.asarray(t)
    assert x.shape == (2, 3) and x.dtype is xp.float64
    x[0, 1] = 5.0
    assert t[1][2] == 5.0  # 1-based on the Torch7 face
    c = xp.asarray(t, copy=True)
    c[0, 0] = 8.0
    assert t[1][1] == 1.0
    t2 = strided.interop.to_tensor(x.T)
    assert list(t2.size()) == [3, 2]
    t2[3][1] = -4.0
    assert float(x[0, 2]) == -4.0
    assert xp.asarray(strided.IntTensor(4).fill(2)).dtype is xp.int32
    with pytest.raises(TypeError):
        strided.interop.to_tensor(xp.asarray([True]))


@pytest.mark.parametrize("args", [(5,), (2, 9), (2, 9, 3), (9, 2, -2), (0,), (3, 3), (5, 1, -1)])
def test_arange_int(args):
    check(xp.arange(*args), np.arange(*args))


@pytest.mark.parametrize("args", [(0.0, 1.0, 0.1), (1.5,), (-1.0, 1.0, 0.25), (5.0, 0.0, -0.5)])
def test_arange_float(args):
    check(xp.arange(*args), np.arange(*args), exact=False)
    check(xp.arange(*args, dtype=xp.float32), np.arange(*args, dtype="float32"), exact=False)


def test_arange_dtype():
    check(xp.arange(5, dtype=xp.uint8), np.arange(5, dtype="uint8"))
    with pytest.raises(ValueError):
        xp.arange(0, 5, 0)


@pytest.mark.parametrize("num,endpoint", [(5, True), (5, False), (1, True), (0, True), (7, True)])
def test_linspace(num, endpoint):
    check(
        xp.linspace(-2.0, 3.0, num, endpoint=endpoint),
        np.linspace(-2.0, 3.0, num, endpoint=endpoint),
        exact=False,
    )
    check(
        xp.linspace(0, 1j, num, endpoint=endpoint),
        np.linspace(0, 1j, num, endpoint=endpoint),
        exact=False,
    )
    assert xp.linspace(0, 1, 5, dtype=xp.float32).dtype is xp.float32
    if num > 1 and endpoint:
        assert float(xp.linspace(0.1, 0.7, num)[-1]) == 0.7


@pytest.mark.parametrize(
    "n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 5), (3, 4, -3), (0, None, 0)]
)
def test_eye(n, m, k):
    check(xp.eye(n, m, k=k), np.eye(n, m, k=k))
    check(xp.eye(n, m, k=k, dtype=xp.int8), np.eye(n, m, k=k, dtype="int8"))


@pytest.mark.parametrize("k", [-2, 0, 1, 4])
def test_tril_triu(k):
    a = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    check(xp.tril(xp_of(a), k=k), np.tril(a, k=k))
    check(xp.triu(xp_of(a), k=k), np.triu(a, k=k))


def test_filled_and_like():
    check(xp.zeros((2, 3)), np.zeros((2, 3)))
    check(xp.ones(4, dtype=xp.int16), np.ones(4, "int16"))
    check(xp.full((2,), 7), np.full((2,), 7))
    check(xp.full((2,), 1.5, dtype=xp.float32), np.full((2,), 1.5, "float32"))
    check(xp.full((2,), True), np.full((2,), True))
    x = xp.ones((2, 3), dtype=xp.int8)
    check(xp.zeros_like(x), np.zeros((2, 3), "int8"))
    check(xp.ones_like(x, dtype=xp.float32), np.ones((2, 3), "float32"))
    check(xp.full_like(x, 4), np.full((2, 3), 4, "int8"))
    e = xp.empty_like(x)
    assert e.shape == (2, 3) and e.dtype is xp.int8
    assert xp.empty((0, 2)).shape == (0, 2)
    with pytest.raises(ValueError):
        xp.zeros((-1,))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
    a, b, c = np.arange(3), np.arange(4) * 10, np.arange(2) * 100
    got = xp.meshgrid(xp_of(a), xp_of(b), xp_of(c), indexing=indexing)
    for g, w in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
        check(g, w)
    got = xp.meshgrid(xp_of(a), xp_of(b), indexing=indexing)
    for g, w in zip(got, np.meshgrid(a, b, indexing=indexing)):
        check(g, w)


def test_asarray_views_any_dlpack_producer_with_any_strides():
    torch = pytest.importorskip("torch", reason=PYTORCH_REASON)
    a = np.arange(12.0).reshape(3, 4)
    for view in (a.T, a[::-1, ::2], a[:, 1]):
        x = xp.asarray(view)  # zero-copy through DLPack
        check(x, view)
        x[(0,) * x.ndim] = -7.0
        assert view[(0,) * view.ndim] == -7.0
    t = torch.arange(6, dtype=torch.int32).reshape(2, 3).t()
    y = xp.asarray(t)
    assert y.dtype is xp.int32 and y.shape == (3, 2)
    y[2, 1] = 50
    assert int(t[2, 1]) == 50
    c = xp.asarray(a.T, copy=True)
    c[0, 0] = 1.0
    assert a[0, 0] == -7.0
    ro = np.arange(4.0)[::2]
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        xp.asarray(ro)[0] = 1.0


# ---- issue 16: creation in one threaded C pass (creation.c), zeros on fresh pages

BIG = 300_001  # above the threading threshold, not a multiple of anything


def test_arange_linspace_large_are_numpys_bits():
    # numpy's formulas (arange: start + k*delta, delta = (start+step) - start;
    # linspace: k*step + start, the last point stop), two roundings each
    check(xp.arange(0.1, 0.1 + 0.3 * BIG, 0.3), np.arange(0.1, 0.1 + 0.3 * BIG, 0.3))
    check(xp.arange(-7.25, 1e5, 1 / 3), np.arange(-7.25, 1e5, 1 / 3))
    check(xp.linspace(-1.3, 2.9, BIG), np.linspace(-1.3, 2.9, BIG))
    check(xp.linspace(0.1, 0.7, BIG, endpoint=False), np.linspace(0.1, 0.7, BIG, endpoint=False))
    check(xp.linspace(1 + 2j, -3 - 1j, BIG), np.linspace(1 + 2j, -3 - 1j, BIG))
    check(xp.arange(3, 3 + 7 * BIG, 7), np.arange(3, 3 + 7 * BIG, 7))
    check(xp.arange(BIG, dtype=xp.int16), np.arange(BIG).astype("int16"))  # wraps
    check(xp.arange(BIG, dtype=xp.float32), np.arange(BIG, dtype="float32"))
    check(xp.linspace(-5.0, 1e6, BIG, dtype=xp.int32), np.linspace(-5.0, 1e6, BIG, dtype="int32"))


def test_linspace_whose_step_underflows():
    # numpy: (k / div) * delta + start where delta / div is 0
    a, b = 0.0, 5e-324 * 8
    check(xp.linspace(a, b, 9), np.linspace(a, b, 9))
    check(xp.linspace(a, b, BIG), np.linspace(a, b, BIG))


def test_arange_float_bounds_integer_dtype():
    # numpy's: the first two values truncated, their difference the step
    check(xp.arange(0.5, 5, 1.5, dtype=xp.int64), np.arange(0.5, 5, 1.5, dtype="int64"))


@pytest.mark.parametrize("dt", ["float64", "int8", "bool", "complex64", "uint16"])
def test_zeros_large_are_zero_and_writable(dt):
    n = (4 << 20) // np.dtype(dt).itemsize + 3  # fresh pages, huge-page aligned
    strided.memory.release()  # no cached block: zeros takes fresh pages
    z = xp.zeros((n,), dtype=getattr(xp, dt))
    got = np_of(z)
    assert got.shape == (n,) and not got.any()
    assert on_fresh_pages(z._c)
    assert strided.core.base.lib.st_tensor_data(z._c.t) != strided.core.base.ffi.NULL
    one = True if dt == "bool" else 1
    z[n - 1] = one
    z[0] = one
    assert int(xp.sum(xp.astype(z, xp.int64))) == 2
    like = xp.zeros_like(z)
    assert not np_of(like).any()
    small = xp.zeros(1000)
    assert not np_of(small).any()
    assert not np_of(xp.empty((n,), dtype=xp.bool)).any()  # bool memory is never garbage


def test_zeros_pages_resize_and_free():
    # a zeroed storage on pages of its own, resized (copied to an ordinary
    # block, its pages unmapped) and freed, through the Torch7 face
    strided.memory.release()  # no cached block: zeros takes fresh pages
    t = strided.zeros(1 << 19)
    s = t.storage()
    assert on_fresh_pages(t._c)
    s.resize((1 << 19) + 5)
    assert not t._c.t.storage.flags & strided.core.base.lib.ST_STORAGE_PAGES
    assert s[1 << 19] is not None and s[1] == 0
    del t, s


@pytest.mark.parametrize("n,m,k", [(3000, None, 0), (2000, 2500, 7), (2500, 300, -11)])
def test_eye_large(n, m, k):
    check(xp.eye(n, m, k=k), np.eye(n, m, k=k))


@pytest.mark.parametrize("k", [-300, 0, 5])
def test_tril_triu_large(k):
    a = np.random.default_rng(0).standard_normal((2, 400, 500))
    check(xp.tril(xp_of(a), k=k), np.tril(a, k=k))
    check(xp.triu(xp_of(a), k=k), np.triu(a, k=k))
    t = np.random.default_rng(1).standard_normal((500, 400)).T
    check(xp.triu(xp.asarray(t), k=k), np.triu(t, k=k))


@pytest.mark.parametrize(
    "n,m,k",
    [
        (0, None, 2**63),
        (3, 4, 2**70),
        (3, 4, -(2**70)),
        (3, 4, 4),
        (3, 4, -3),
        (3, 4, 3),
        (3, 4, -2),
    ],
)
def test_eye_diagonal_past_the_matrix(n, m, k):
    # any Python int is a k (the conformance suite draws 2**63): past the
    # last column or row the diagonal has no element
    check(xp.eye(n, m, k=k), np.eye(n, m, k=k))

"""The BLAS functions of Torch7's maths.md on the Torch7 face: addmm,
addmv, addr, addbmm, baddbmm (res = v1 * M + v2 * (a b)), ger and dot, in
every documented form (torch.f([res,] [v1,] M, [v2,] a, b), res:f(...),
M:f([v1,] [v2,] a, b)), the documented examples, every tensor type, views
and transposed operands, a result that is also an operand, and the errors.
numpy is the oracle."""

import numpy as np
import pytest

import strided as torch
from helpers import to_numpy
from t7util import NUMPY_OF, TYPES


def npy(t):
    return to_numpy(t._c)


def T(values, cls="DoubleTensor"):
    return getattr(torch, cls)(np.asarray(values).tolist())


RNG = np.random.default_rng(5)
M23 = RNG.integers(-4, 5, (2, 3))
A24 = RNG.integers(-4, 5, (2, 4))
B43 = RNG.integers(-4, 5, (4, 3))
V4 = RNG.integers(-4, 5, 4)
V2 = RNG.integers(-4, 5, 2)
V3 = RNG.integers(-4, 5, 3)


# ---------------------------------------------------------------- the documented examples


def test_documented_addmv_example():
    x = torch.Tensor(3).fill(0)
    m = torch.Tensor(3, 2).fill(3)
    y = torch.Tensor(2).fill(2)
    x.addmv(m, y)
    assert x.tolist() == [12, 12, 12]


def test_documented_addr_examples():
    x = torch.range(1, 3)
    y = torch.range(1, 2)
    m = torch.Tensor(3, 2).zero()
    assert m.addr(x, y) is m and m.tolist() == [[1, 2], [2, 4], [3, 6]]
    m.addr(2, 1, x, y)
    assert m.tolist() == [[3, 6], [6, 12], [9, 18]]
    a = torch.range(1, 6).resize(3, 2)
    m.addr(2, a, 1, x, y)
    assert m.tolist() == [[3, 6], [8, 12], [13, 18]]


def test_documented_dot_example():
    x = torch.Tensor(2, 2).fill(2)
    y = torch.Tensor(4).fill(3)
    assert x.dot(y) == 24 and torch.dot(x, y) == 24


# ---------------------------------------------------------------- every form of addmm


def test_addmm_forms():
    m, a, b = T(M23), T(A24), T(B43)
    prod = A24 @ B43
    # torch.addmm([res,] [v1,] M, [v2,] mat1, mat2)
    assert npy(torch.addmm(m, a, b)).tolist() == (M23 + prod).tolist()
    assert npy(torch.addmm(2, m, 3, a, b)).tolist() == (2 * M23 + 3 * prod).tolist()
    assert npy(torch.addmm(2, m, a, b)).tolist() == (2 * M23 + prod).tolist()
    assert npy(torch.addmm(m, -1, a, b)).tolist() == (M23 - prod).tolist()
    res = torch.Tensor()
    assert torch.addmm(res, m, a, b) is res and res.tolist() == (M23 + prod).tolist()
    assert torch.addmm(res, 0.5, m, 2, a, b) is res
    assert res.tolist() == (0.5 * M23 + 2 * prod).tolist()
    assert m.tolist() == M23.tolist()  # M is only read by these forms
    # r:addmm(M, mat1, mat2) and r:addmm(v1, M, v2, mat1, mat2)
    r = torch.Tensor(7).fill(9)
    assert r.addmm(m, a, b) is r and r.tolist() == (M23 + prod).tolist()
    assert r.addmm(3, m, -2, a, b).tolist() == (3 * M23 - 2 * prod).tolist()
    # M:addmm(mat1, mat2), M:addmm(v2, mat1, mat2), M:addmm(v1, v2, mat1, mat2): in place
    mm = T(M23)
    assert mm.addmm(a, b) is mm and mm.tolist() == (M23 + prod).tolist()
    mm = T(M23)
    assert mm.addmm(2, a, b).tolist() == (M23 + 2 * prod).tolist()
    mm = T(M23)
    assert mm.addmm(3, 2, a, b).tolist() == (3 * M23 + 2 * prod).tolist()


def test_addmm_in_place_keeps_the_view():
    """M:addmm(...) writes through M's own strides (a transposed view here)."""
    base = T(M23.T)
    view = base.t()
    view.addmm(T(A24), T(B43))
    assert base.tolist() == (M23 + A24 @ B43).T.tolist()


@pytest.mark.parametrize("cls", TYPES)
def test_addmm_addmv_addr_every_type(cls):
    dt = NUMPY_OF[cls]
    m, a, b = T(np.abs(M23), cls), T(np.abs(A24), cls), T(np.abs(B43), cls)
    got = torch.addmm(2, m, 3, a, b)
    assert got.type() == f"torch.{cls}"
    want = (2 * np.abs(M23) + 3 * (np.abs(A24) @ np.abs(B43))).astype(dt)
    np.testing.assert_array_equal(npy(got), want)
    v = T(np.abs(V3), cls)
    got = torch.addmv(T(np.abs(V2), cls), T(np.abs(M23), cls), v)
    np.testing.assert_array_equal(npy(got), (np.abs(V2) + np.abs(M23) @ np.abs(V3)).astype(dt))
    got = torch.addr(T(np.abs(M23), cls), T(np.abs(V2), cls), v)
    np.testing.assert_array_equal(
        npy(got), (np.abs(M23) + np.outer(np.abs(V2), np.abs(V3))).astype(dt)
    )


def test_integer_types_wrap():
    m = torch.ByteTensor([[250]])
    a, b = torch.ByteTensor([[16]]), torch.ByteTensor([[17]])
    assert torch.addmm(m, a, b).tolist() == [[(250 + 16 * 17) % 256]]


def test_float_results_against_numpy_on_transposed_views():
    x, y, c = (
        RNG.standard_normal((30, 20)),
        RNG.standard_normal((40, 30)),
        RNG.standard_normal((20, 40)),
    )
    a, b, m = T(x), T(y), T(c)
    got = torch.addmm(0.5, m, -2, a.t(), b.t())  # transposed operands, no copies
    np.testing.assert_allclose(npy(got), 0.5 * c - 2 * (x.T @ y.T), rtol=1e-12, atol=1e-12)
    f = torch.FloatTensor(x.tolist())
    got = torch.addmm(torch.FloatTensor(c.tolist()), f.t(), torch.FloatTensor(y.tolist()).t())
    np.testing.assert_allclose(npy(got), c + x.T @ y.T, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- addmv, addr, ger


def test_addmv_forms():
    v, m, x = T(V2), T(M23), T(V3)
    prod = M23 @ V3
    assert torch.addmv(v, m, x).tolist() == (V2 + prod).tolist()
    assert torch.addmv(2, v, -1, m, x).tolist() == (2 * V2 - prod).tolist()
    res = torch.Tensor()
    assert torch.addmv(res, v, m, x) is res and res.tolist() == (V2 + prod).tolist()
    r = torch.Tensor()
    assert r.addmv(v, m, x).tolist() == (V2 + prod).tolist()  # r = x + y * z
    r = T(V2)
    assert r.addmv(3, m, x).tolist() == (V2 + 3 * prod).tolist()  # r = r + s * y * z
    r = torch.Tensor()
    assert r.addmv(v, 3, m, x).tolist() == (V2 + 3 * prod).tolist()
    r = T(V2)
    assert r.addmv(2, 3, m, x).tolist() == (2 * V2 + 3 * prod).tolist()
    # a strided vector (a column of a matrix) as the accumulator, in place
    big = T(np.zeros((2, 5)))
    col = big.select(2, 4)
    col.addmv(m, x)
    assert big.tolist() == [[0, 0, 0, p, 0] for p in prod.tolist()]


def test_addr_and_ger_forms():
    m, x, y = T(M23), T(V2), T(V3)
    outer = np.outer(V2, V3)
    assert torch.addr(m, x, y).tolist() == (M23 + outer).tolist()
    assert torch.addr(2, m, 3, x, y).tolist() == (2 * M23 + 3 * outer).tolist()
    res = torch.Tensor()
    assert torch.addr(res, m, x, y) is res and res.tolist() == (M23 + outer).tolist()
    assert torch.ger(x, y).tolist() == outer.tolist()
    res = torch.Tensor(1).fill(5)
    assert torch.ger(res, x, y) is res and res.tolist() == outer.tolist()
    assert torch.Tensor().ger(x, y).tolist() == outer.tolist()
    assert (
        torch.ger(torch.IntTensor(V2.tolist()), torch.IntTensor(V3.tolist())).type()
        == "torch.IntTensor"
    )


# ---------------------------------------------------------------- addbmm, baddbmm, bmm


def test_addbmm_and_baddbmm():
    b1, b2 = RNG.integers(-3, 4, (5, 2, 4)), RNG.integers(-3, 4, (5, 4, 3))
    m = RNG.integers(-3, 4, (2, 3))
    mb = RNG.integers(-3, 4, (5, 2, 3))
    x, y = T(b1), T(b2)
    want = m + np.matmul(b1, b2).sum(0)
    assert torch.addbmm(T(m), x, y).tolist() == want.tolist()
    assert torch.addbmm(2, T(m), -1, x, y).tolist() == (2 * m - np.matmul(b1, b2).sum(0)).tolist()
    acc = T(m)
    acc.addbmm(x, y)
    assert acc.tolist() == want.tolist()
    got = torch.baddbmm(T(mb), x, y)
    assert got.tolist() == (mb + np.matmul(b1, b2)).tolist()
    acc = T(mb)
    acc.baddbmm(0.5, 2, x, y)
    assert acc.tolist() == (0.5 * mb + 2 * np.matmul(b1, b2)).tolist()
    # non-contiguous batches: permuted views
    xt = T(np.ascontiguousarray(b1.transpose(1, 0, 2))).transpose(1, 2)
    assert torch.addbmm(T(m), xt, y).tolist() == want.tolist()


# ---------------------------------------------------------------- dot, results that are operands


@pytest.mark.parametrize("cls", TYPES)
def test_dot_every_type_and_layout(cls):
    a = np.abs(RNG.integers(-5, 6, (3, 4)))
    b = np.abs(RNG.integers(-5, 6, 12))
    x, y = T(a, cls), T(b, cls)
    want = int((a.ravel() * b).sum())
    got = x.t().dot(y)  # any layout: seen as a vector in its order
    want_t = int((a.T.ravel() * b).sum())
    if cls in ("FloatTensor", "DoubleTensor"):
        assert isinstance(got, float) and x.dot(y) == want and got == want_t
    else:
        bits = 8 * np.dtype(NUMPY_OF[cls]).itemsize
        wrap = lambda v: np.array(v % 2**bits, np.uint64).astype(NUMPY_OF[cls]).item()
        assert isinstance(got, int) and x.dot(y) == wrap(want) and got == wrap(want_t)


def test_result_may_be_an_operand():
    m, b = T(M23), T(B43)
    a2 = T(A24)
    torch.addmm(a2, T(np.ones((2, 4))), a2, T(np.eye(4)) * 2)  # res is mat1: read, then written
    assert a2.tolist() == (1 + 2 * A24).tolist()
    sq = T([[1, 2], [3, 4]])
    sq.addmm(sq, sq)  # M = M + M @ M, M every operand
    assert sq.tolist() == [[8, 12], [18, 26]]
    r = T(A24)
    r.addmm(m, r, b)  # r = M + r @ B
    assert r.tolist() == (M23 + A24 @ B43).tolist()


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (
            lambda: torch.addmm(T(M23), T(A24), T(A24)),
            ValueError,
            r"addmm: size mismatch, 2x4 and 2x4",
        ),
        (
            lambda: torch.addmm(T(np.zeros((3, 3))), T(A24), T(B43)),
            ValueError,
            r"addmm: M has size 3x3, expected 2x3",
        ),
        (
            lambda: torch.addmm(T(M23), T(V4), T(B43)),
            ValueError,
            r"addmm: first factor must be a 2-D tensor, got 1-D \(4\)",
        ),
        (
            lambda: torch.addmv(T(V2), T(M23), T(M23)),
            ValueError,
            r"addmv: second factor must be a 1-D tensor",
        ),
        (
            lambda: torch.addr(T(M23), T(V3), T(V2)),
            ValueError,
            r"addr: M has size 2x3, expected 3x2",
        ),
        (
            lambda: torch.addmm(T(M23), T(A24, "FloatTensor"), T(B43)),
            TypeError,
            r"addmm: argument 2 \(mat1\) must be a torch.DoubleTensor, got torch.FloatTensor",
        ),
        (
            lambda: torch.addmm(T(M23), T(A24)),
            TypeError,
            r"addmm: missing argument 3 \(mat2\); expected torch.addmm\(\[res\], \[v1\], M, \[v2\], mat1, mat2\)",
        ),
        (
            lambda: torch.addmm(T(M23), 1, 2, T(A24), T(B43)),
            TypeError,
            r"addmm: argument 3 \(mat1\) must be a torch.DoubleTensor, got int",
        ),
        (
            lambda: torch.addmm(T(M23), "x", T(A24), T(B43)),
            TypeError,
            r"addmm: argument 2 \(\w+\) must be a torch.DoubleTensor, got str",
        ),
        (
            lambda: T(M23).addmm(1, 2, 3, T(A24), T(B43)),
            TypeError,
            r"addmm: argument 3 \(mat1\) must be a torch.DoubleTensor, got int; expected x.addmm",
        ),
        (
            lambda: torch.baddbmm(
                T(np.zeros((2, 2, 3))), T(np.zeros((3, 2, 4))), T(np.zeros((3, 4, 3)))
            ),
            ValueError,
            r"baddbmm: M has size 2x2x3, expected 3x2x3",
        ),
        (
            lambda: torch.addbmm(T(M23), T(np.zeros((2, 2, 4))), T(np.zeros((3, 4, 3)))),
            ValueError,
            r"addbmm: batch sizes differ: 2x2x4 and 3x4x3",
        ),
        (lambda: torch.ger(T(M23), T(V3)), ValueError, r"ger: first argument must be a 1-D tensor"),
        (
            lambda: torch.ger(T(V2), T(V3, "IntTensor")),
            TypeError,
            r"ger: argument 2 \(b\) must be a torch.DoubleTensor, got torch.IntTensor",
        ),
        (lambda: torch.dot(T(V2), T(V3)), ValueError, r"dot: operands have 2 and 3 elements"),
        (
            lambda: torch.dot(T(V2), T(V2, "IntTensor")),
            TypeError,
            r"dot: argument 2 \(tensor2\) must be a torch.DoubleTensor, got torch.IntTensor",
        ),
        (
            lambda: T(V2).dot(3),
            TypeError,
            r"dot: argument 1 \(tensor2\) must be a torch.DoubleTensor, got int",
        ),
        (
            lambda: torch.addmm(
                T(np.abs(M23), "ByteTensor"),
                -1,
                T(np.abs(A24), "ByteTensor"),
                T(np.abs(B43), "ByteTensor"),
            ),
            OverflowError,
            r"-1 is out of range \[0, 255\]",
        ),
    ],
)
def test_errors(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()

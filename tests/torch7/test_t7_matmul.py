"""Matrix products on the Torch7 face: `*` between tensors (Torch7's
__mul__: matrix*matrix = mm, matrix*vector = mv, vector*vector = dot, a
number), torch.mm / mv / bmm / dot with and without a leading result, the
res:mm(a, b) method forms, every tensor type, and the errors.  numpy is the
oracle."""

import numpy as np
import pytest

import strided as torch
from helpers import to_numpy
from t7util import NUMPY_OF, TYPES


def npy(t):
    return to_numpy(t._c)


def tensor(cls, values):
    return getattr(torch, cls)(np.asarray(values).tolist())


A = [[1, 2, 3], [4, 5, 6]]
B = [[1, 0], [2, 1], [0, 3]]
V3 = [1, 2, 3]
V2 = [5, -1]


# ---------------------------------------------------------------- `*`


def test_star_matrix_matrix_is_the_matrix_product():
    a, b = torch.Tensor(A), torch.Tensor(B)
    c = a * b
    assert c.type() == "torch.DoubleTensor"
    assert c.tolist() == (np.array(A) @ np.array(B)).tolist()
    assert c.size().tolist() == [2, 2]


def test_star_matrix_vector_and_vector_vector():
    a, v = torch.Tensor(A), torch.Tensor(V3)
    r = a * v
    assert r.nDimension() == 1 and r.tolist() == [14, 32]
    d = v * v
    assert isinstance(d, float) and d == 14.0
    assert torch.IntTensor(V3) * torch.IntTensor(V3) == 14


def test_star_with_numbers_still_scales():
    a = torch.Tensor(A)
    assert (a * 2).tolist() == [[2, 4, 6], [8, 10, 12]]
    assert (2 * a).tolist() == [[2, 4, 6], [8, 10, 12]]


def test_star_leaves_operands_alone_and_makes_new_memory():
    a, b = torch.Tensor(A), torch.Tensor(B)
    c = a * b
    assert a.tolist() == A and b.tolist() == B
    c.fill(0)
    assert a.tolist() == A


@pytest.mark.parametrize("cls", TYPES)
def test_star_every_type(cls):
    a, b = tensor(cls, A), tensor(cls, B)
    c = a * b
    assert c.type() == f"torch.{cls}"
    want = np.array(A, NUMPY_OF[cls]) @ np.array(B, NUMPY_OF[cls])
    np.testing.assert_array_equal(npy(c), want)


def test_star_integers_wrap():
    a = torch.ByteTensor([[200, 100]])
    b = torch.ByteTensor([[2], [1]])
    assert (a * b).tolist() == [[(400 + 100) % 256]]


def test_star_on_views():
    x = torch.Tensor(4, 6)
    s = x.storage()
    for i in range(1, s.size() + 1):
        s[i] = i
    a = x.narrow(2, 2, 3)  # 4x3, non-contiguous
    b = x.t().narrow(1, 1, 3).narrow(2, 1, 2)  # 3x2, transposed
    want = npy(a) @ npy(b)
    np.testing.assert_array_equal(npy(a * b), want)
    col = x.select(2, 4)  # a strided vector
    np.testing.assert_array_equal(npy(x.t() * col), npy(x).T @ npy(col))


@pytest.mark.parametrize(
    "left, right, exc, pattern",
    [
        ((2, 3), (2, 3), ValueError, r"\*: size mismatch, 2x3 and 2x3"),
        ((2, 3), (2,), ValueError, r"\*: size mismatch, 2x3 and 2"),
        ((3,), (3, 2), ValueError, r"between 1D and 2D tensors is not supported"),
        ((2, 2, 2), (2, 2), ValueError, r"between 3D and 2D tensors"),
        ((3,), (4,), ValueError, r"dot: operands have 3 and 4 elements"),
    ],
)
def test_star_errors(left, right, exc, pattern):
    with pytest.raises(exc, match=pattern):
        torch.Tensor(*left).zero() * torch.Tensor(*right).zero()


def test_star_mixed_types_raise():
    with pytest.raises(TypeError, match="torch.DoubleTensor and torch.IntTensor"):
        torch.Tensor(A) * torch.IntTensor(B)


# ---------------------------------------------------------------- mm, mv, bmm, dot


def test_mm_forms():
    a, b = torch.Tensor(A), torch.Tensor(B)
    want = (np.array(A) @ np.array(B)).tolist()
    assert torch.mm(a, b).tolist() == want
    res = torch.Tensor()
    assert torch.mm(res, a, b) is res and res.tolist() == want
    res2 = torch.Tensor(7).fill(9)  # resized to 2x2
    assert res2.mm(a, b) is res2 and res2.tolist() == want
    f = torch.FloatTensor(A)
    assert torch.mm(f, torch.FloatTensor(B)).type() == "torch.FloatTensor"


def test_mm_result_may_be_an_operand():
    a = torch.Tensor([[1, 2], [3, 4]])
    b = torch.Tensor([[0, 1], [1, 0]])
    torch.mm(a, a, b)  # a = a * b
    assert a.tolist() == [[2, 1], [4, 3]]
    c = torch.Tensor([[1, 1], [0, 1]])
    c.mm(c, c)
    assert c.tolist() == [[1, 2], [0, 1]]


def test_mv_forms():
    a, v = torch.Tensor(A), torch.Tensor(V3)
    assert torch.mv(a, v).tolist() == [14, 32]
    res = torch.Tensor()
    assert torch.mv(res, a, v) is res and res.tolist() == [14, 32]
    assert torch.Tensor().mv(a.t(), torch.Tensor(V2)).tolist() == [1, 5, 9]


def test_bmm_forms():
    rng = np.random.default_rng(0)
    x, y = rng.integers(-3, 4, (4, 2, 3)), rng.integers(-3, 4, (4, 3, 5))
    a, b = torch.Tensor(x.tolist()), torch.Tensor(y.tolist())
    want = np.matmul(x, y)
    np.testing.assert_array_equal(npy(torch.bmm(a, b)), want)
    res = torch.Tensor()
    assert torch.bmm(res, a, b) is res and res.size().tolist() == [4, 2, 5]
    np.testing.assert_array_equal(npy(res), want)
    np.testing.assert_array_equal(
        npy(torch.LongTensor().bmm(torch.LongTensor(x.tolist()), torch.LongTensor(y.tolist()))),
        want,
    )


def test_dot_forms():
    x, y = torch.Tensor([1, 2, 3]), torch.Tensor([4, 5, 6])
    assert torch.dot(x, y) == 32 and x.dot(y) == 32
    # Torch7's dot runs over the elements of any two tensors of one element count
    assert torch.Tensor([[1, 2], [3, 4]]).dot(torch.Tensor([1, 1, 1, 1])) == 10


def test_larger_products_against_numpy():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((70, 130)), rng.standard_normal((130, 90))
    a, b = torch.Tensor(x.tolist()), torch.Tensor(y.tolist())
    np.testing.assert_allclose(npy(a * b), x @ y, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        npy(torch.mm(a.t().contiguous().t(), b)), x @ y, rtol=1e-12, atol=1e-12
    )
    f = torch.FloatTensor(x.tolist())
    np.testing.assert_allclose(
        npy(f * torch.FloatTensor(y.tolist())),
        x.astype(np.float32) @ y.astype(np.float32),
        rtol=1e-4,
        atol=1e-4,
    )


def test_empty_inner_size_gives_zeros():
    a, b = torch.Tensor(3, 0), torch.Tensor(0, 2)
    c = torch.mm(a, b)
    assert c.size().tolist() == [3, 2] and c.tolist() == [[0, 0]] * 3


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (
            lambda: torch.mm(torch.Tensor(2, 3), torch.Tensor(4, 2)),
            ValueError,
            r"mm: size mismatch, 2x3 and 4x2",
        ),
        (
            lambda: torch.mm(torch.Tensor(2, 3), torch.Tensor(3)),
            ValueError,
            r"mm: second argument must be a 2-D tensor, got 1-D \(3\)",
        ),
        (
            lambda: torch.mv(torch.Tensor(2, 3), torch.Tensor(3, 1)),
            ValueError,
            r"mv: second argument must be a 1-D tensor",
        ),
        (lambda: torch.mv(torch.Tensor(2, 3), torch.Tensor(2)), ValueError, r"mv: size mismatch"),
        (
            lambda: torch.bmm(torch.Tensor(2, 2, 3), torch.Tensor(3, 3, 2)),
            ValueError,
            r"bmm: batch sizes differ: 2x2x3 and 3x3x2",
        ),
        (
            lambda: torch.bmm(torch.Tensor(2, 3), torch.Tensor(3, 2)),
            ValueError,
            r"bmm: first argument must be a 3-D tensor",
        ),
        (
            lambda: torch.mm(torch.Tensor(2, 2), torch.FloatTensor(2, 2)),
            TypeError,
            r"mm: argument 2 \(b\) must be a torch.DoubleTensor, got torch.FloatTensor",
        ),
        (
            lambda: torch.mm(torch.Tensor(2, 2)),
            TypeError,
            r"mm: missing argument 2 \(b\); expected torch.mm\(\[res\], a, b\)",
        ),
        (
            lambda: torch.Tensor().mm(torch.Tensor(2, 2)),
            TypeError,
            r"mm: missing argument 2 \(b\); expected x.mm\(a, b\)",
        ),
        (
            lambda: torch.mm(3, torch.Tensor(2, 2), torch.Tensor(2, 2)),
            TypeError,
            r"mm: argument 1 \(a\) must be a torch.DoubleTensor, got int",
        ),
    ],
)
def test_errors(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


def test_errors_leave_the_result_alone():
    res = torch.Tensor([1, 2, 3])
    with pytest.raises(ValueError):
        torch.mm(res, torch.Tensor(2, 3), torch.Tensor(2, 3))
    assert res.tolist() == [1, 2, 3]

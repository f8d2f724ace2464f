"""The LAPACK functions of maths.md on the Torch7 face (the core's are
tested against Lua Torch7 in tests/test_lapack_t7.py): the forms with and
without result tensors, Lua's option letters, types."""

import numpy as np
import pytest

import strided as torch

A = [[6.80, -6.05, -0.45], [-2.11, -3.30, 2.58], [5.66, 5.36, -2.70]]
B = [[4.02, -1.56], [6.19, 4.00], [-8.22, -8.67]]
SPD = [[4.0, 2.0, 0.6], [2.0, 3.0, 0.4], [0.6, 0.4, 2.0]]


def npy(t):
    return np.array(t.tolist())


@pytest.mark.parametrize("T", [torch.DoubleTensor, torch.FloatTensor])
def test_solves_and_factorizations(T):
    tol = 1e-4 if T is torch.FloatTensor else 1e-10
    a, b = T(A), T(B)
    x, lu = torch.gesv(b, a)
    np.testing.assert_allclose(npy(x), np.linalg.solve(A, B), rtol=tol, atol=tol)
    assert x.stride().tolist() == [1, 3]  # column-major, as Lua's
    np.testing.assert_allclose(npy(torch.inverse(a)), np.linalg.inv(A), rtol=tol, atol=tol)
    u = torch.potrf(T(SPD))
    np.testing.assert_allclose(npy(u), np.linalg.cholesky(SPD).T, rtol=tol, atol=tol)
    np.testing.assert_allclose(npy(torch.potri(u)), np.linalg.inv(SPD), rtol=tol, atol=tol)
    np.testing.assert_allclose(npy(torch.potrs(b, u)), np.linalg.solve(SPD, B), rtol=tol, atol=tol)
    q, r = torch.qr(a)
    np.testing.assert_allclose(npy(q) @ npy(r), A, rtol=tol, atol=tol)
    uu, s, v = torch.svd(a)
    np.testing.assert_allclose(npy(s), np.linalg.svd(A, compute_uv=False), rtol=tol)
    np.testing.assert_allclose(npy(uu) @ np.diag(npy(s)) @ npy(v).T, A, rtol=tol, atol=tol)
    e, vec = torch.symeig(T(SPD), "V")
    np.testing.assert_allclose(npy(e), np.linalg.eigvalsh(SPD), rtol=tol)
    e, _ = torch.eig(a)
    assert e.size().tolist() == [3, 2]
    got = sorted(e.tolist())
    want = sorted([w.real, w.imag] for w in np.linalg.eigvals(A))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_result_tensors_are_pointed_at_the_answer():
    a, b = torch.Tensor(A), torch.Tensor(B)
    rx, rlu = torch.Tensor(), torch.Tensor()
    x, lu = torch.gesv(rx, rlu, b, a)
    assert x is rx and lu is rlu and rx.size().tolist() == [3, 2]
    ri = torch.Tensor()
    assert torch.inverse(ri, a) is ri
    f, piv = torch.pstrf(torch.Tensor(SPD))
    assert piv.type() == "torch.IntTensor" and sorted(piv.tolist()) == [1, 2, 3]  # 1-based


def test_options_read_their_first_letter_and_errors():
    u = torch.potrf(torch.Tensor(SPD), "Lower")
    np.testing.assert_allclose(npy(u), np.linalg.cholesky(SPD), atol=1e-12)
    with pytest.raises(TypeError, match=r"potrf: argument 2 \(uplo\) must be a 'U'\|'L'"):
        torch.potrf(torch.Tensor(SPD), "X")
    with pytest.raises(TypeError, match="gesv is not defined for torch.IntTensor"):
        torch.gesv(torch.IntTensor(2, 1), torch.IntTensor(2, 2))
    with pytest.raises(ValueError, match="singular"):
        torch.gesv(torch.Tensor([[1], [1]]), torch.Tensor([[1, 2], [2, 4]]))
    with pytest.raises(ValueError, match="positive definite"):
        torch.potrf(torch.Tensor([[1, 2], [2, 1]]))

"""The LAPACK functions of maths.md on the Torch7 face (the core's are
tested against Lua Torch7 in tests/core/test_lapack_t7.py): the forms with and
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


def _given(kind, shape):
    if kind == "contig":
        return torch.zeros(torch.LongStorage(shape))
    if kind == "big":
        return torch.zeros(20, 20)
    if kind == "small":
        return torch.zeros(1)
    if kind == "colmajor":
        return (
            torch.zeros(shape[0] * 2).narrow(1, 1, shape[0])
            if len(shape) == 1
            else torch.zeros(shape[1], shape[0]).t()
        )
    return (
        torch.zeros(shape[0], 2).select(2, 2)
        if len(shape) == 1
        else torch.zeros(shape[0], 2, shape[1])[[], 2, []]
    )


def _layout(t):
    return (
        tuple(t.size().totable()),
        tuple(t.stride().totable()),
        t.storageOffset(),
        t.storage().size(),
    )


def _operands():
    gen = torch.Generator()
    torch.manualSeed(gen, 7)
    A = torch.randn(gen, 4, 4)
    A = A * A.t() + torch.eye(4) * 4
    B = torch.randn(gen, 4, 2)
    G = torch.randn(gen, 6, 3)
    GB = torch.randn(gen, 6, 2)
    GU = torch.randn(gen, 3, 5)
    return dict(A=A, B=B, G=G, GB=GB, GU=GU, chol=torch.potrf(A))


_CALLS = {
    "gesv": (lambda o, *r: torch.gesv(*r, o["B"], o["A"]), [[4, 2], [4, 4]]),
    "gels": (lambda o, *r: torch.gels(*r, o["GB"], o["G"]), [[6, 2], [6, 3]]),
    "potrs": (lambda o, *r: torch.potrs(*r, o["B"], o["chol"]), [[4, 2]]),
    "eig": (lambda o, *r: torch.eig(*r, o["A"], "V"), [[4, 2], [4, 4]]),
    "symeig": (lambda o, *r: torch.symeig(*r, o["A"], "V"), [[4], [4, 4]]),
    "svd": (lambda o, *r: torch.svd(*r, o["G"]), [[6, 3], [3], [3, 3]]),
    "qr": (lambda o, *r: torch.qr(*r, o["GU"]), [[3, 3], [3, 5]]),
}


_CM44, _CM42 = ((4, 4), (1, 4), 1, 16), ((4, 2), (1, 4), 1, 8)


LUA_LAYOUTS = {
    ("gesv", "contig"): [_CM42, _CM44],
    ("gesv", "big"): [((4, 2), (1, 4), 1, 400), ((4, 4), (1, 4), 1, 400)],
    ("gesv", "small"): [_CM42, _CM44],
    ("gesv", "colmajor"): [_CM42, _CM44],
    ("gels", "contig"): [((3, 2), (1, 6), 1, 12), ((6, 3), (1, 6), 1, 18)],
    ("gels", "view"): [((3, 2), (1, 6), 3, 24), ((6, 3), (1, 6), 4, 36)],
    ("potrs", "view"): [((4, 2), (1, 4), 3, 16)],
    ("eig", "contig"): [((4, 2), (2, 1), 1, 8), _CM44],
    ("eig", "colmajor"): [((4, 2), (1, 4), 1, 8), _CM44],
    ("eig", "view"): [((4, 2), (4, 1), 3, 16), ((4, 4), (8, 1), 5, 32)],
    ("symeig", "colmajor"): [((4,), (1,), 1, 8), _CM44],
    ("symeig", "view"): [((4,), (2,), 2, 8), ((4, 4), (8, 1), 5, 32)],
    ("svd", "contig"): [((6, 3), (1, 6), 1, 18), ((3,), (1,), 1, 3), ((3, 3), (3, 1), 1, 9)],
    ("svd", "colmajor"): [((6, 3), (1, 6), 1, 18), ((3,), (1,), 1, 6), ((3, 3), (1, 3), 1, 9)],
    ("svd", "view"): [((6, 3), (1, 6), 4, 36), ((3,), (2,), 2, 6), ((3, 3), (6, 1), 4, 18)],
    ("qr", "small"): [((3, 3), (1, 3), 1, 15), ((3, 5), (5, 1), 1, 15)],
    ("qr", "colmajor"): [((3, 3), (1, 3), 1, 15), ((3, 5), (1, 3), 1, 15)],
    ("qr", "view"): [((3, 3), (1, 3), 4, 18), ((3, 5), (10, 1), 6, 30)],
}


@pytest.mark.parametrize("name, kind", sorted(LUA_LAYOUTS))
def test_lapack_results_land_in_the_given_tensors_as_lua(name, kind):
    o = _operands()
    call, shapes = _CALLS[name]
    fresh = call(o)
    fresh = fresh if isinstance(fresh, tuple) else (fresh,)
    given = [_given(kind, s) for s in shapes]
    storages = [torch.pointer(g.storage()) for g in given]
    out = call(o, *given)
    out = out if isinstance(out, tuple) else (out,)
    assert [_layout(g) for g in given] == LUA_LAYOUTS[name, kind]
    for g, s, r, f in zip(given, storages, out, fresh):
        assert r is g and torch.pointer(g.storage()) == s
        assert g.isSameSizeAs(f) and (g - f).abs().max() == 0  # the answer itself


def test_eig_into_slices_fills_the_bigger_tensors():
    o = _operands()
    ebig, vbig = torch.zeros(4, 2, 2), torch.zeros(4, 2, 4)
    e, v = ebig[[], 2, []], vbig[[], 2, []]
    torch.eig(e, v, o["A"], "V")
    e0, v0 = torch.eig(o["A"], "V")
    assert (ebig[[], 2, []] - e0).abs().max() == 0 and (vbig[[], 2, []] - v0).abs().max() == 0
    assert ebig[[], 1, []].abs().max() == 0 and vbig[[], 1, []].abs().max() == 0


# (function, result given as its own operand) -> Lua's layouts: the operand keeps
# its layout, resized contiguous when the answer's shape differs (gels's X)
LUA_OPERAND_LAYOUTS = {
    "gesv": [((4, 2), (2, 1), 1, 8), ((4, 4), (4, 1), 1, 16)],
    "gels": [((3, 2), (2, 1), 1, 12), ((6, 3), (3, 1), 1, 18)],
    "trtrs": [((4, 2), (2, 1), 1, 8), ((4, 4), (4, 1), 1, 16)],
    "potrf": [((4, 4), (4, 1), 1, 16)],
    "inverse": [((4, 4), (4, 1), 1, 16)],
    "eig": [((4, 4), (1, 4), 1, 16)],  # geev does not work in its operand
}


@pytest.mark.parametrize("name", sorted(LUA_OPERAND_LAYOUTS))
def test_lapack_result_that_is_its_operand_keeps_its_layout(name):
    o = _operands()
    b, a, g, gb = o["B"].clone(), o["A"].clone(), o["G"].clone(), o["GB"].clone()
    calls = {
        "gesv": ([b, a], lambda: torch.gesv(b, a, b, a), lambda: torch.gesv(o["B"], o["A"])),
        "gels": ([gb, g], lambda: torch.gels(gb, g, gb, g), lambda: torch.gels(o["GB"], o["G"])),
        "trtrs": ([b, a], lambda: torch.trtrs(b, a, b, a), lambda: torch.trtrs(o["B"], o["A"])),
        "potrf": ([a], lambda: torch.potrf(a, a), lambda: torch.potrf(o["A"])),
        "inverse": ([a], lambda: torch.inverse(a, a), lambda: torch.inverse(o["A"])),
        "eig": (
            [a],
            lambda: torch.eig(torch.Tensor(), a, a, "V")[1],
            lambda: torch.eig(o["A"], "V")[1],
        ),
    }
    ts, call, fresh_call = calls[name]
    storages = [torch.pointer(t.storage()) for t in ts]
    call()
    fresh = fresh_call()
    fresh = fresh if isinstance(fresh, tuple) else (fresh,)
    assert [_layout(t) for t in ts] == LUA_OPERAND_LAYOUTS[name]
    for t, s, f in zip(ts, storages, fresh):
        assert torch.pointer(t.storage()) == s and (t - f).abs().max() == 0


def test_gels_solves_in_b_when_b_is_lapacks_layout():
    # Lua: B 6x6 column-major given as its own result: X is its first 3 rows,
    # strides (1, 6), the rows below (residual parts) left in its storage
    o = _operands()
    gb = torch.Tensor(6, 6).t()
    gb.copy(torch.randn(6, 6))
    b0 = gb.clone()
    s = torch.pointer(gb.storage())
    torch.gels(gb, torch.Tensor(), gb, o["G"])
    assert _layout(gb) == ((3, 6), (1, 6), 1, 36) and torch.pointer(gb.storage()) == s
    x, _ = torch.gels(b0, o["G"])
    assert (gb - x).abs().max() == 0
    assert (torch.Tensor(gb.storage()) - torch.Tensor(x.storage())).abs().max() == 0


def test_1d_b_and_eig_without_vectors_as_lua():
    o = _operands()
    b1 = o["B"].select(2, 1).clone()
    s = torch.pointer(b1.storage())
    torch.gesv(b1, torch.Tensor(), b1, o["A"])  # Lua: a (4, 1) column, in b1's storage
    assert _layout(b1) == ((4, 1), (1, 4), 1, 4) and torch.pointer(b1.storage()) == s
    v = torch.ones(2, 2)
    torch.eig(torch.Tensor(), v, o["A"])  # Lua leaves v as it was
    assert _layout(v) == ((2, 2), (2, 1), 1, 4) and v.sum() == 4


@pytest.mark.parametrize("name", ["gesv", "potrf", "inverse", "pstrf"])
def test_square_slice_results_get_the_right_answer(name):
    # Lua runs LAPACK over such a slice as if it were column-major (a wrong
    # answer, or a "singular" error); here the slice keeps its layout and
    # gets the answer
    o = _operands()
    r = torch.zeros(4, 2, 4)[[], 2, []]
    A, I = o["A"], torch.eye(4)
    fresh, given = {
        "gesv": (lambda: torch.gesv(I, A)[0], lambda: torch.gesv(r, torch.Tensor(), I, A)),
        "potrf": (lambda: torch.potrf(A), lambda: torch.potrf(r, A)),
        "inverse": (lambda: torch.inverse(A), lambda: torch.inverse(r, A)),
        "pstrf": (lambda: torch.pstrf(A)[0], lambda: torch.pstrf(r, torch.IntTensor(), A)),
    }[name]
    want = fresh()
    given()
    assert _layout(r) == ((4, 4), (8, 1), 5, 32) and (r - want).abs().max() == 0


def test_symeig_without_vectors_returns_lapacks_scratch():
    # Lua: e, v = torch.symeig(a, 'N'[, uplo]): v is a's copy as LAPACK's
    # dsyev left it (4x4, column-major)
    a = torch.Tensor([[4, 1, 2, 0.5], [1, 3, 0.3, 1], [2, 0.3, 5, 2], [0.5, 1, 2, 6]])
    lua = {
        "U": [
            3.2331150382818903,
            0.087560361908723766,
            -0.68534710078817396,
            0.11651513899116801,
            1,
            3.0145040093371582,
            -1.9409421000709075,
            0.23303027798233603,
            2,
            0.29999999999999999,
            5.7523809523809533,
            -2.2912878474779199,
            0.5,
            1,
            2,
            6,
        ],
        "L": [
            4,
            1,
            2,
            0.5,
            -2.2912878474779199,
            5.8476190476190446,
            0.29999999999999999,
            1,
            0.6076648694013741,
            2.3493908121486768,
            4.8035098839220165,
            2,
            0.15191621735034352,
            0.88294321492543915,
            -0.57333779720504541,
            3.3488710684589353,
        ],
    }
    lua_e = [1.6868958068202233, 3.2343323266236719, 4.5586865404902781, 8.5200853260658285]
    for uplo, want in lua.items():
        e, v = torch.symeig(a, "N", uplo)
        assert v.size().totable() == [4, 4] and v.stride().totable() == [1, 4]
        got = sum(v.totable(), [])
        assert max(abs(g - w) for g, w in zip(got, want)) < 1e-12
        assert max(abs(g - w) for g, w in zip(e.totable(), lua_e)) < 1e-12
    # Lua: torch.symeig(r1, r2, a, 'N') returns r2, resized to 4x4
    r1, r2 = torch.Tensor(), torch.Tensor(7)
    out = torch.symeig(r1, r2, a, "N")
    assert out[1] is r2 and r2.size().totable() == [4, 4]
    assert torch.symeig(a.float(), "N")[1].type() == "torch.FloatTensor"
    assert a.totable()[0] == [4, 1, 2, 0.5]  # the input untouched

"""Port of Torch7's test/test.lua, lines 2374-3109: torchtest.gesv up to (not
including) torchtest.index.  Each `function torchtest.NAME()` is `test_NAME`,
with the Lua structure, sizes, tolerances and assertions kept.  Where Lua
keeps the first of several returned values (`local mx = torch.gesv(b, a)`),
Python takes item [0] of the returned tuple."""

import math

import pytest

import strided as torch
from lua_tester import MSIZE, PRECISION, maxdiff, mytester  # noqa: F401  (MSIZE: test.lua's msize)

precision = PRECISION  # test.lua's `precision` for the default torch.DoubleTensor


@pytest.fixture(autouse=True)
def _seed():
    torch.manualSeed(123)


def _gesv_a():
    return torch.Tensor(
        [
            [6.80, -2.11, 5.66, 5.97, 8.23],
            [-6.05, -3.30, 5.36, -4.44, 1.08],
            [-0.45, 2.58, -2.70, 0.27, 9.04],
            [8.32, 2.71, 4.35, -7.17, 2.14],
            [-9.67, -5.14, -7.26, 6.08, -6.87],
        ]
    ).t()


def _gesv_b():
    return torch.Tensor(
        [
            [4.02, 6.19, -8.22, -7.57, -3.03],
            [-1.56, 4.00, -8.67, 1.75, 2.86],
            [9.81, -4.09, -4.57, -8.61, 8.99],
        ]
    ).t()


def test_gesv():
    a = _gesv_a()
    b = _gesv_b()
    mx = torch.gesv(b, a)[0]
    mytester.assertlt(b.dist(a * mx), 1e-12, 'torch.gesv')
    ta = torch.Tensor()
    tb = torch.Tensor()
    mxx = torch.gesv(tb, ta, b, a)[0]
    mxxx = torch.gesv(b, a, b, a)[0]
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.gesv value temp')
    mytester.asserteq(maxdiff(mx, b), 0, 'torch.gesv value flag')
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.gesv value out1')
    mytester.asserteq(maxdiff(mx, mxxx), 0, 'torch.gesv value out2')


def test_gesv_reuse():
    a = _gesv_a()
    b = _gesv_b()
    mx = torch.gesv(b, a)[0]
    ta = torch.Tensor()
    tb = torch.Tensor()
    torch.gesv(tb, ta, b, a)
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.gesv value temp')
    torch.gesv(tb, ta, b, a)
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.gesv value reuse')


def test_trtrs():
    a = _gesv_a()
    b = _gesv_b()

    U = torch.triu(a)
    L = torch.tril(a)

    # solve Ux = b
    x = torch.trtrs(b, U)[0]
    mytester.assertlt(b.dist(U * x), 1e-12, 'torch.trtrs')
    x = torch.trtrs(b, U, 'U', 'N', 'N')[0]
    mytester.assertlt(b.dist(U * x), 1e-12, 'torch.trtrs')

    # solve Lx = b
    x = torch.trtrs(b, L, 'L')[0]
    mytester.assertlt(b.dist(L * x), 1e-12, 'torch.trtrs')
    x = torch.trtrs(b, L, 'L', 'N', 'N')[0]
    mytester.assertlt(b.dist(L * x), 1e-12, 'torch.trtrs')

    # solve U'x = b
    x = torch.trtrs(b, U, 'U', 'T')[0]
    mytester.assertlt(b.dist(U.t() * x), 1e-12, 'torch.trtrs')
    x = torch.trtrs(b, U, 'U', 'T', 'N')[0]
    mytester.assertlt(b.dist(U.t() * x), 1e-12, 'torch.trtrs')

    # solve U'x = b by manual transposition
    y = torch.trtrs(b, U.t(), 'L', 'N')[0]
    mytester.assertlt(x.dist(y), 1e-12, 'torch.trtrs')

    # solve L'x = b
    x = torch.trtrs(b, L, 'L', 'T')[0]
    mytester.assertlt(b.dist(L.t() * x), 1e-12, 'torch.trtrs')
    x = torch.trtrs(b, L, 'L', 'T', 'N')[0]
    mytester.assertlt(b.dist(L.t() * x), 1e-12, 'torch.trtrs')

    # solve L'x = b by manual transposition
    y = torch.trtrs(b, L.t(), 'U', 'N')[0]
    mytester.assertlt(x.dist(y), 1e-12, 'torch.trtrs')


def test_trtrs_reuse():
    a = _gesv_a()
    b = _gesv_b()
    mx = torch.trtrs(b, a)[0]
    ta = torch.Tensor()
    tb = torch.Tensor()
    torch.trtrs(tb, ta, b, a)
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.trtrs value temp')
    tb.zero()
    torch.trtrs(tb, ta, b, a)
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.trtrs value reuse')


def _check_gels(a, b, expectedNorm):
    """The common body of gels_uniquely_determined/overdetermined/underdetermined."""
    a_copy = a.clone()
    b_copy = b.clone()
    mx = torch.gels(b, a)[0]
    mytester.asserteq(maxdiff(a, a_copy), 0, 'torch.gels changed a')
    mytester.asserteq(maxdiff(b, b_copy), 0, 'torch.gels changed b')
    mytester.assertalmosteq(
        (torch.mm(a, mx) - b).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )

    ta = torch.Tensor()
    tb = torch.Tensor()
    mxx = torch.gels(tb, ta, b, a)[0]
    mytester.asserteq(maxdiff(a, a_copy), 0, 'torch.gels changed a')
    mytester.asserteq(maxdiff(b, b_copy), 0, 'torch.gels changed b')
    mytester.assertalmosteq(
        (torch.mm(a, tb) - b).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )

    mxxx = torch.gels(b, a, b, a)[0]
    mytester.assertalmosteq(
        (torch.mm(a_copy, b) - b_copy).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )
    mytester.asserteq(maxdiff(mx, tb), 0, 'torch.gels value temp')
    mytester.asserteq(maxdiff(mx, b), 0, 'torch.gels value flag')
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.gels value out1')
    mytester.asserteq(maxdiff(mx, mxxx), 0, 'torch.gels value out2')


def test_gels_uniquely_determined():
    expectedNorm = 0
    a = torch.Tensor(
        [
            [1.44, -9.96, -7.55, 8.34],
            [-7.84, -0.28, 3.24, 8.09],
            [-4.39, -3.24, 6.27, 5.28],
            [4.53, 3.83, -6.64, 2.06],
        ]
    ).t()
    b = torch.Tensor([[8.58, 8.26, 8.48, -5.28], [9.35, -4.43, -0.70, -0.26]]).t()
    _check_gels(a, b, expectedNorm)


def test_gels_reuse():
    expectedNorm = 0
    a = torch.Tensor(
        [
            [1.44, -9.96, -7.55, 8.34],
            [-7.84, -0.28, 3.24, 8.09],
            [-4.39, -3.24, 6.27, 5.28],
            [4.53, 3.83, -6.64, 2.06],
        ]
    ).t()
    b = torch.Tensor([[8.58, 8.26, 8.48, -5.28], [9.35, -4.43, -0.70, -0.26]]).t()
    ta = torch.Tensor()
    tb = torch.Tensor()
    torch.gels(tb, ta, b, a)
    mytester.assertalmosteq(
        (torch.mm(a, tb) - b).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )
    torch.gels(tb, ta, b, a)
    mytester.assertalmosteq(
        (torch.mm(a, tb) - b).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )
    torch.gels(tb, ta, b, a)
    mytester.assertalmosteq(
        (torch.mm(a, tb) - b).norm(), expectedNorm, 1e-8, 'torch.gels wrong answer'
    )


def test_gels_overdetermined():
    expectedNorm = 17.390200628863
    a = torch.Tensor(
        [
            [1.44, -9.96, -7.55, 8.34, 7.08, -5.45],
            [-7.84, -0.28, 3.24, 8.09, 2.52, -5.70],
            [-4.39, -3.24, 6.27, 5.28, 0.74, -1.19],
            [4.53, 3.83, -6.64, 2.06, -2.47, 4.70],
        ]
    ).t()
    b = torch.Tensor(
        [[8.58, 8.26, 8.48, -5.28, 5.72, 8.93], [9.35, -4.43, -0.70, -0.26, -7.36, -2.52]]
    ).t()
    _check_gels(a, b, expectedNorm)


def test_gels_underdetermined():
    expectedNorm = 0
    a = torch.Tensor(
        [[1.44, -9.96, -7.55], [-7.84, -0.28, 3.24], [-4.39, -3.24, 6.27], [4.53, 3.83, -6.64]]
    ).t()
    b = torch.Tensor([[8.58, 8.26, 8.48], [9.35, -4.43, -0.70]]).t()
    _check_gels(a, b, expectedNorm)


def test_eig():
    a = (
        torch.Tensor(
            [
                [1.96, 0.00, 0.00, 0.00, 0.00],
                [-6.49, 3.80, 0.00, 0.00, 0.00],
                [-0.47, -6.39, 4.17, 0.00, 0.00],
                [-7.20, 1.50, -1.51, 5.70, 0.00],
                [-0.65, -6.34, 2.67, 1.80, -7.10],
            ]
        )
        .t()
        .clone()
    )
    e = torch.eig(a)[0]
    ee, vv = torch.eig(a, 'V')
    te = torch.Tensor()
    tv = torch.Tensor()
    eee, vvv = torch.eig(te, tv, a, 'V')
    mytester.assertlt(maxdiff(e, ee), 1e-12, 'torch.eig value')
    mytester.assertlt(maxdiff(ee, eee), 1e-12, 'torch.eig value')
    mytester.assertlt(maxdiff(ee, te), 1e-12, 'torch.eig value')
    mytester.assertlt(maxdiff(vv, vvv), 1e-12, 'torch.eig value')
    mytester.assertlt(maxdiff(vv, tv), 1e-12, 'torch.eig value')


def test_eig_reuse():
    X = torch.randn(4, 4)
    X = X.t() * X
    e, v = torch.zeros(4, 2), torch.zeros(4, 4)
    torch.eig(e, v, X, 'V')
    Xhat = v * torch.diag(e.select(2, 1)) * v.t()
    mytester.assertTensorEq(X, Xhat, 1e-8, 'VeV\' wrong')
    mytester.assert_(not v.isContiguous(), 'V is contiguous')

    torch.eig(e, v, X, 'V')
    Xhat = torch.mm(v, torch.mm(e.select(2, 1).diag(), v.t()))
    mytester.assertTensorEq(X, Xhat, 1e-8, 'VeV\' wrong')
    mytester.assert_(not v.isContiguous(), 'V is contiguous')


def test_eig_noncontig():
    X = torch.randn(4, 4)
    X = X.t() * X
    e = torch.zeros(4, 2, 2)[[], 2, []]
    v = torch.zeros(4, 2, 4)[[], 2, []]
    mytester.assert_(not v.isContiguous(), 'V is contiguous')
    mytester.assert_(not e.isContiguous(), 'E is contiguous')
    torch.eig(e, v, X, 'V')
    Xhat = v * torch.diag(e.select(2, 1)) * v.t()
    mytester.assertTensorEq(X, Xhat, 1e-8, 'VeV\' wrong')


def test_test_symeig():
    xval = torch.rand(100, 3)
    cov = torch.mm(xval.t(), xval)
    rese = torch.zeros(3)
    resv = torch.zeros(3, 3)

    # First call to symeig
    mytester.assert_(resv.isContiguous(), 'resv is not contiguous')  # PASS
    torch.symeig(rese, resv, cov.clone(), 'V')
    ahat = resv * torch.diag(rese) * resv.t()
    mytester.assertTensorEq(cov, ahat, 1e-8, 'VeV\' wrong')  # PASS

    # Second call to symeig
    mytester.assert_(not resv.isContiguous(), 'resv is contiguous')  # FAIL
    torch.symeig(rese, resv, cov.clone(), 'V')
    ahat = torch.mm(torch.mm(resv, torch.diag(rese)), resv.t())
    mytester.assertTensorEq(cov, ahat, 1e-8, 'VeV\' wrong')  # FAIL


def test_symeig_noncontig():
    X = torch.rand(5, 5)
    X = X.t() * X
    e = torch.zeros(4, 2).select(2, 2)
    v = torch.zeros(4, 2, 4)[[], 2, []]
    mytester.assert_(not v.isContiguous(), 'V is contiguous')
    mytester.assert_(not e.isContiguous(), 'E is contiguous')
    torch.symeig(e, v, X, 'V')
    Xhat = v * torch.diag(e) * v.t()
    mytester.assertTensorEq(X, Xhat, 1e-8, 'VeV\' wrong')


def test_svd():
    a = (
        torch.Tensor(
            [
                [8.79, 6.11, -9.15, 9.57, -3.49, 9.84],
                [9.93, 6.91, -7.93, 1.64, 4.02, 0.15],
                [9.83, 5.04, 4.86, 8.83, 9.80, -8.99],
                [5.45, -0.27, 4.85, 0.74, 10.00, -6.02],
                [3.16, 7.98, 3.01, 5.80, 4.27, -5.31],
            ]
        )
        .t()
        .clone()
    )
    u, s, v = torch.svd(a)
    uu = torch.Tensor()
    ss = torch.Tensor()
    vv = torch.Tensor()
    uuu, sss, vvv = torch.svd(uu, ss, vv, a)
    mytester.asserteq(maxdiff(u, uu), 0, 'torch.svd')
    mytester.asserteq(maxdiff(u, uuu), 0, 'torch.svd')
    mytester.asserteq(maxdiff(s, ss), 0, 'torch.svd')
    mytester.asserteq(maxdiff(s, sss), 0, 'torch.svd')
    mytester.asserteq(maxdiff(v, vv), 0, 'torch.svd')
    mytester.asserteq(maxdiff(v, vvv), 0, 'torch.svd')


def test_svd_reuse():
    X = torch.randn(4, 4)
    U, S, V = torch.svd(X)
    Xhat = torch.mm(U, torch.mm(S.diag(), V.t()))
    mytester.assertTensorEq(X, Xhat, 1e-8, 'USV\' wrong')

    mytester.assert_(not U.isContiguous(), 'U is contiguous')
    torch.svd(U, S, V, X)
    Xhat = torch.mm(U, torch.mm(S.diag(), V.t()))
    mytester.assertTensorEq(X, Xhat, 1e-8, 'USV\' wrong')


def test_svd_noncontig():
    X = torch.randn(5, 5)
    U = torch.zeros(5, 2, 5)[[], 2, []]
    S = torch.zeros(5, 2)[[], 2]
    V = torch.zeros(5, 2, 5)[[], 2, []]

    mytester.assert_(not U.isContiguous(), 'U is contiguous')
    mytester.assert_(not S.isContiguous(), 'S is contiguous')
    mytester.assert_(not V.isContiguous(), 'V is contiguous')
    torch.svd(U, S, V, X)
    Xhat = torch.mm(U, torch.mm(S.diag(), V.t()))
    mytester.assertTensorEq(X, Xhat, 1e-8, 'USV\' wrong')


def test_inverse():
    M = torch.randn(5, 5)
    MI = torch.inverse(M)
    E = torch.eye(5)
    mytester.assert_(not MI.isContiguous(), 'MI is contiguous')
    mytester.assertalmosteq(maxdiff(E, torch.mm(M, MI)), 0, 1e-8, 'inverse value')
    mytester.assertalmosteq(maxdiff(E, torch.mm(MI, M)), 0, 1e-8, 'inverse value')

    MII = torch.Tensor(5, 5)
    torch.inverse(MII, M)
    mytester.assert_(not MII.isContiguous(), 'MII is contiguous')
    mytester.asserteq(maxdiff(MII, MI), 0, 'inverse value in-place')
    # second call, now that MII is transposed
    torch.inverse(MII, M)
    mytester.assert_(not MII.isContiguous(), 'MII is contiguous')
    mytester.asserteq(maxdiff(MII, MI), 0, 'inverse value in-place')


def _reversed_clone(k):
    """k:clone() with its storage's elements in reverse order (the Lua loop)."""
    ki = k.clone()
    ks = k.storage()
    kis = ki.storage()
    for i in range(ks.size(), 0, -1):
        kis[ks.size() - i + 1] = ks[i]
    return ki


def test_conv2():
    x = torch.rand(math.floor(torch.uniform(50, 100)), math.floor(torch.uniform(50, 100)))
    k = torch.rand(math.floor(torch.uniform(10, 20)), math.floor(torch.uniform(10, 20)))
    imvc = torch.conv2(x, k)
    imvc2 = torch.conv2(x, k, 'V')
    imfc = torch.conv2(x, k, 'F')

    ki = _reversed_clone(k)
    imvx = torch.xcorr2(x, ki)
    imvx2 = torch.xcorr2(x, ki, 'V')
    imfx = torch.xcorr2(x, ki, 'F')

    mytester.asserteq(maxdiff(imvc, imvc2), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(imvc, imvx), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(imvc, imvx2), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(imfc, imfx), 0, 'torch.conv2')
    mytester.assertlt(abs(x.dot(x) - torch.xcorr2(x, x)[1][1]), 1e-10, 'torch.conv2')

    xx = torch.Tensor(2, x.size(1), x.size(2))
    xx[1].copy(x)
    xx[2].copy(x)
    kk = torch.Tensor(2, k.size(1), k.size(2))
    kk[1].copy(k)
    kk[2].copy(k)

    immvc = torch.conv2(xx, kk)
    immvc2 = torch.conv2(xx, kk, 'V')
    immfc = torch.conv2(xx, kk, 'F')

    mytester.asserteq(maxdiff(immvc[1], immvc[2]), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(immvc[1], imvc), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(immvc2[1], imvc2), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(immfc[1], immfc[2]), 0, 'torch.conv2')
    mytester.asserteq(maxdiff(immfc[1], imfc), 0, 'torch.conv2')


def test_conv3():
    x = torch.rand(
        math.floor(torch.uniform(20, 40)),
        math.floor(torch.uniform(20, 40)),
        math.floor(torch.uniform(20, 40)),
    )
    k = torch.rand(
        math.floor(torch.uniform(5, 10)),
        math.floor(torch.uniform(5, 10)),
        math.floor(torch.uniform(5, 10)),
    )
    imvc = torch.conv3(x, k)
    imvc2 = torch.conv3(x, k, 'V')
    imfc = torch.conv3(x, k, 'F')

    ki = _reversed_clone(k)
    imvx = torch.xcorr3(x, ki)
    imvx2 = torch.xcorr3(x, ki, 'V')
    imfx = torch.xcorr3(x, ki, 'F')

    mytester.asserteq(maxdiff(imvc, imvc2), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(imvc, imvx), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(imvc, imvx2), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(imfc, imfx), 0, 'torch.conv3')
    mytester.assertlt(abs(x.dot(x) - torch.xcorr3(x, x)[1][1][1]), 4 * 1e-10, 'torch.conv3')

    xx = torch.Tensor(2, x.size(1), x.size(2), x.size(3))
    xx[1].copy(x)
    xx[2].copy(x)
    kk = torch.Tensor(2, k.size(1), k.size(2), k.size(3))
    kk[1].copy(k)
    kk[2].copy(k)

    immvc = torch.conv3(xx, kk)
    immvc2 = torch.conv3(xx, kk, 'V')
    immfc = torch.conv3(xx, kk, 'F')

    mytester.asserteq(maxdiff(immvc[1], immvc[2]), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(immvc[1], imvc), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(immvc2[1], imvc2), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(immfc[1], immfc[2]), 0, 'torch.conv3')
    mytester.asserteq(maxdiff(immfc[1], imfc), 0, 'torch.conv3')


def _random_volumes():
    """x (20..39)^3 and k (5..9)^3 of rand, the sizes drawn as in the Lua tests."""
    ix = math.floor(torch.uniform(20, 40))
    iy = math.floor(torch.uniform(20, 40))
    iz = math.floor(torch.uniform(20, 40))
    kx = math.floor(torch.uniform(5, 10))
    ky = math.floor(torch.uniform(5, 10))
    kz = math.floor(torch.uniform(5, 10))

    x = torch.rand(ix, iy, iz)
    k = torch.rand(kx, ky, kz)
    return x, k


def test_xcorr3_xcorr2_eq():
    x, k = _random_volumes()

    o3 = torch.xcorr3(x, k)
    o32 = torch.zeros(o3.size())

    for i in range(1, o3.size(1) + 1):
        for j in range(1, k.size(1) + 1):
            o32[i].add(torch.xcorr2(x[i + j - 1], k[j]))

    mytester.assertlt(maxdiff(o3, o32), precision, 'torch.conv3_conv2_eq')


def test_fxcorr3_fxcorr2_eq():
    x, k = _random_volumes()

    o3 = torch.xcorr3(x, k, 'F')

    o32 = torch.zeros(o3.size())

    for i in range(1, x.size(1) + 1):
        for j in range(1, k.size(1) + 1):
            o32[i + j - 1].add(torch.xcorr2(x[i], k[k.size(1) - j + 1], 'F'))

    mytester.assertlt(maxdiff(o3, o32), precision, 'torch.conv3_conv2_eq')


def test_conv3_conv2_eq():
    x, k = _random_volumes()

    o3 = torch.conv3(x, k)
    o32 = torch.zeros(o3.size())

    for i in range(1, o3.size(1) + 1):
        for j in range(1, k.size(1) + 1):
            o32[i].add(torch.conv2(x[i + j - 1], k[k.size(1) - j + 1]))

    mytester.assertlt(maxdiff(o3, o32), precision, 'torch.conv3_conv2_eq')


def test_fconv3_fconv2_eq():
    x, k = _random_volumes()

    o3 = torch.conv3(x, k, 'F')

    o32 = torch.zeros(o3.size())

    for i in range(1, x.size(1) + 1):
        for j in range(1, k.size(1) + 1):
            o32[i + j - 1].add(torch.conv2(x[i], k[j], 'F'))

    mytester.assertlt(maxdiff(o3, o32), precision, 'torch.conv3_conv2_eq')


def test_logical():
    x = torch.rand(100, 100) * 2 - 1
    xx = x.clone()  # noqa: F841  (as in the Lua test)

    xgt = torch.gt(x, 1)
    xlt = torch.lt(x, 1)

    xeq = torch.eq(x, 1)
    xne = torch.ne(x, 1)

    neqs = xgt + xlt
    all_ = neqs + xeq
    mytester.asserteq(neqs.sum(), xne.sum(), 'torch.logical')
    mytester.asserteq(x.nElement(), all_.double().sum(), 'torch.logical')


def test_RNGState():
    state = torch.getRNGState()
    stateCloned = state.clone()
    before = torch.rand(1000)

    mytester.assert_(
        state.ne(stateCloned).long().sum() == 0,
        'getRNGState should have value semantics, but appears to have reference semantics',
    )

    torch.setRNGState(state)
    after = torch.rand(1000)
    mytester.assertTensorEq(
        before, after, 1e-16, 'getRNGState/setRNGState not generating same sequence'
    )


def test_RNGStateAliasing():
    torch.manualSeed(1)
    unused = torch.uniform()  # noqa: F841

    # Fork the random number stream at this point
    gen = torch.Generator()
    torch.setRNGState(gen, torch.getRNGState())

    target_value = torch.rand(1000)
    # Dramatically alter the internal state of the main generator
    also_unused = torch.rand(100000)  # noqa: F841
    forked_value = torch.rand(gen, 1000)
    mytester.assertTensorEq(target_value, forked_value, 1e-16, "RNG has not forked correctly.")


def test_serializeGenerator():
    generator = torch.Generator()
    torch.manualSeed(generator, 123)
    differentGenerator = torch.Generator()
    torch.manualSeed(differentGenerator, 124)
    serializedGenerator = torch.serialize(generator)
    deserializedGenerator = torch.deserialize(serializedGenerator)
    generated = torch.random(generator)
    differentGenerated = torch.random(differentGenerator)
    deserializedGenerated = torch.random(deserializedGenerator)
    mytester.asserteq(
        generated,
        deserializedGenerated,
        'torch.Generator changed internal state after being serialized',
    )
    mytester.assertne(
        generated,
        differentGenerated,
        'Generators with different random seed should not produce the same output',
    )


def test_testBoxMullerState():
    torch.manualSeed(123)
    odd_number = 101
    seeded = torch.randn(odd_number)
    state = torch.getRNGState()
    midstream = torch.randn(odd_number)
    torch.setRNGState(state)
    repeat_midstream = torch.randn(odd_number)
    torch.manualSeed(123)
    reseeded = torch.randn(odd_number)
    mytester.assertTensorEq(
        midstream,
        repeat_midstream,
        1e-16,
        'getRNGState/setRNGState not generating same sequence of normally distributed numbers',
    )
    mytester.assertTensorEq(
        seeded,
        reseeded,
        1e-16,
        'repeated calls to manualSeed not generating same sequence of normally distributed numbers',
    )


def test_testCholesky():
    x = torch.rand(10, 10)
    A = torch.mm(x, x.t())

    # Default Case
    C = torch.potrf(A)
    B = torch.mm(C.t(), C)
    mytester.assertTensorEq(A, B, 1e-14, 'potrf did not allow rebuilding the original matrix')

    # Test Upper Triangular
    U = torch.potrf(A, 'U')
    B = torch.mm(U.t(), U)
    mytester.assertTensorEq(
        A, B, 1e-14, 'potrf (upper) did not allow rebuilding the original matrix'
    )

    # Test Lower Triangular
    L = torch.potrf(A, 'L')
    B = torch.mm(L, L.t())
    mytester.assertTensorEq(
        A, B, 1e-14, 'potrf (lower) did not allow rebuilding the original matrix'
    )


def test_potrs():
    a = _gesv_a()
    b = _gesv_b()

    # Make sure 'a' is symmetric PSD
    a = torch.mm(a, a.t())

    # Upper Triangular Test
    U = torch.potrf(a, 'U')
    x = torch.potrs(b, U, 'U')
    mytester.assertlt(b.dist(a * x), 1e-12, "torch.potrs; uplo='U'")

    # Lower Triangular Test
    L = torch.potrf(a, 'L')
    x = torch.potrs(b, L, 'L')
    mytester.assertlt(b.dist(a * x), 1e-12, "torch.potrs; uplo='L")


def test_potri():
    a = _gesv_a()

    # Make sure 'a' is symmetric PSD
    a = torch.mm(a, a.t())

    # Compute inverse directly
    inv0 = torch.inverse(a)

    # Default case
    chol = torch.potrf(a)
    inv1 = torch.potri(chol)
    mytester.assertlt(inv0.dist(inv1), 1e-12, "torch.potri; uplo=''")

    # Upper Triangular Test
    chol = torch.potrf(a, 'U')
    inv1 = torch.potri(chol, 'U')
    mytester.assertlt(inv0.dist(inv1), 1e-12, "torch.potri; uplo='U'")

    # Lower Triangular Test
    chol = torch.potrf(a, 'L')
    inv1 = torch.potri(chol, 'L')
    mytester.assertlt(inv0.dist(inv1), 1e-12, "torch.potri; uplo='L'")


def test_pstrf():
    def checkPsdCholesky(a, uplo, inplace):
        if inplace:
            u = torch.Tensor(a.size())
            piv = torch.IntTensor(a.size(1))
            args = [u, piv, a]
        else:
            args = [a]

        if uplo:
            args.append(uplo)

        u, piv = torch.pstrf(*args)

        if uplo == 'L':
            a_reconstructed = torch.mm(u, u.t())
        else:
            a_reconstructed = torch.mm(u.t(), u)

        piv = piv.long()
        a_permuted = a.index(1, piv).index(2, piv)
        mytester.assertTensorEq(
            a_permuted,
            a_reconstructed,
            1e-14,
            'torch.pstrf did not allow rebuilding the original matrix;uplo=' + str(uplo),
        )

    dimensions = [[5, 1], [5, 3], [5, 5], [10, 10]]
    for dim in dimensions:
        m = torch.Tensor(*dim).uniform()
        a = torch.mm(m, m.t())
        # add a small number to the diagonal to make the matrix numerically positive semidefinite
        for i in range(1, m.size(1) + 1):
            a[i][i] = a[i][i] + 1e-7
        checkPsdCholesky(a, None, False)
        checkPsdCholesky(a, 'U', False)
        checkPsdCholesky(a, 'L', False)
        checkPsdCholesky(a, None, True)
        checkPsdCholesky(a, 'U', True)
        checkPsdCholesky(a, 'L', True)


def test_testNumel():
    b = torch.ByteTensor(3, 100, 100)
    mytester.asserteq(b.nElement(), 3 * 100 * 100, "nElement not right")
    mytester.asserteq(b.numel(), 3 * 100 * 100, "numel not right")

"""Port of Torch7's test/test.lua, lines 1011-1712: the `torchtest.*`
functions from `cbitxor` up to (not including) `ones`.

Each `function torchtest.NAME()` is `def test_NAME():`, with Lua's
structure, sizes, tolerances and assertions; only the syntax is Python
(1-based indices as in Lua, `x[{4, {}}]` as `x[4, []]`, `math.pow` as
Python's `math.pow`, Lua's `%` on numbers as Python's `%`).
"""

import math

import pytest

import strided as torch
from lua_tester import lua_wrap, mytester, maxdiff, MSIZE, PRECISION

msize = MSIZE
precision = PRECISION


@pytest.fixture(autouse=True)
def _seed():
    torch.manualSeed(123)


def test_cbitxor():
    t1 = torch.LongTensor(10, 10).random(0, 10000)
    t2 = torch.LongTensor(10, 10).random(10001, 20000)

    # Perform xor swap and check results
    t3 = torch.cbitxor(t1, t2)
    r1 = torch.cbitxor(t3, t2)
    r2 = torch.cbitxor(t3, t1)

    err1 = (r1 - t1).abs().max()
    err2 = (r2 - t2).abs().max()
    mytester.assertlt(err1 + err2, precision, 'error in torch.cbitxor contiguous')


def test_mm():
    # helper function
    def matrixmultiply(mat1, mat2):
        n = mat1.size(1)
        m = mat1.size(2)
        p = mat2.size(2)
        res = torch.zeros(n, p)
        for i in range(1, n + 1):
            for j in range(1, p + 1):
                sum = 0
                for k in range(1, m + 1):
                    sum = sum + mat1[i][k] * mat2[k][j]
                res[i][j] = sum
        return res

    # contiguous case
    n, m, p = 10, 10, 5
    mat1 = torch.randn(n, m)
    mat2 = torch.randn(m, p)
    res = torch.mm(mat1, mat2)

    res2 = matrixmultiply(mat1, mat2)
    mytester.assertTensorEq(res, res2, precision, 'error in torch.mm')

    # non contiguous case 1
    n, m, p = 10, 10, 5
    mat1 = torch.randn(n, m)
    mat2 = torch.randn(p, m).t()
    res = torch.mm(mat1, mat2)

    res2 = matrixmultiply(mat1, mat2)
    mytester.assertTensorEq(res, res2, precision, 'error in torch.mm, non contiguous')

    # non contiguous case 2
    n, m, p = 10, 10, 5
    mat1 = torch.randn(m, n).t()
    mat2 = torch.randn(m, p)
    res = torch.mm(mat1, mat2)

    res2 = matrixmultiply(mat1, mat2)
    mytester.assertTensorEq(res, res2, precision, 'error in torch.mm, non contiguous')

    # non contiguous case 3
    n, m, p = 10, 10, 5
    mat1 = torch.randn(m, n).t()
    mat2 = torch.randn(p, m).t()
    res = torch.mm(mat1, mat2)

    res2 = matrixmultiply(mat1, mat2)
    mytester.assertTensorEq(res, res2, precision, 'error in torch.mm, non contiguous')

    # test with zero stride
    n, m, p = 10, 10, 5
    mat1 = torch.randn(n, m)
    mat2 = torch.randn(m, 1).expand(m, p)
    res = torch.mm(mat1, mat2)

    res2 = matrixmultiply(mat1, mat2)
    mytester.assertTensorEq(res, res2, precision, 'error in torch.mm, non contiguous, zero stride')


def test_bmm():
    num_batches = 10
    M, N, O = 23, 8, 12
    b1 = torch.randn(num_batches, M, N)
    b2 = torch.randn(num_batches, N, O)
    res = torch.bmm(b1, b2)

    for i in range(1, num_batches + 1):
        r = torch.mm(b1[i], b2[i])
        mytester.assertTensorEq(r, res[i], precision, 'result matrix ' + str(i) + ' wrong')


def test_addbmm():
    num_batches = 10
    M, N, O = 12, 8, 5
    b1 = torch.randn(num_batches, M, N)
    b2 = torch.randn(num_batches, N, O)
    res = torch.bmm(b1, b2)
    res2 = torch.Tensor().resizeAs(res[1]).zero()

    res2.addbmm(b1, b2)
    mytester.assertTensorEq(res2, res.sum(1)[1], precision, 'addbmm result wrong')

    res2.addbmm(1, b1, b2)
    mytester.assertTensorEq(res2, res.sum(1)[1] * 2, precision, 'addbmm result wrong')

    res2.addbmm(1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res2, res.sum(1)[1] * 2.5, precision, 'addbmm result wrong')

    res3 = torch.addbmm(1, res2, 0, b1, b2)
    mytester.assertTensorEq(res3, res2, precision, 'addbmm result wrong')

    res4 = torch.addbmm(1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res4, res.sum(1)[1] * 3, precision, 'addbmm result wrong')

    res5 = torch.addbmm(0, res2, 1, b1, b2)
    mytester.assertTensorEq(res5, res.sum(1)[1], precision, 'addbmm result wrong')

    res6 = torch.addbmm(0.1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res6, res2 * 0.1 + res.sum(1) * 0.5, precision, 'addbmm result wrong')


def test_baddbmm():
    num_batches = 10
    M, N, O = 12, 8, 5
    b1 = torch.randn(num_batches, M, N)
    b2 = torch.randn(num_batches, N, O)
    res = torch.bmm(b1, b2)
    res2 = torch.Tensor().resizeAs(res).zero()

    res2.baddbmm(b1, b2)
    mytester.assertTensorEq(res2, res, precision, 'baddbmm result wrong')

    res2.baddbmm(1, b1, b2)
    mytester.assertTensorEq(res2, res * 2, precision, 'baddbmm result wrong')

    res2.baddbmm(1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res2, res * 2.5, precision, 'baddbmm result wrong')

    res3 = torch.baddbmm(1, res2, 0, b1, b2)
    mytester.assertTensorEq(res3, res2, precision, 'baddbmm result wrong')

    res4 = torch.baddbmm(1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res4, res * 3, precision, 'baddbmm result wrong')

    res5 = torch.baddbmm(0, res2, 1, b1, b2)
    mytester.assertTensorEq(res5, res, precision, 'baddbmm result wrong')

    res6 = torch.baddbmm(0.1, res2, 0.5, b1, b2)
    mytester.assertTensorEq(res6, res2 * 0.1 + res * 0.5, precision, 'baddbmm result wrong')


def test_clamp():
    m1 = torch.rand(100).mul(5).add(-2.5)  # uniform in [-2.5, 2.5]
    # just in case we're extremely lucky:
    min_val = -1
    max_val = 1
    m1[1] = min_val
    m1[2] = max_val
    res1 = m1.clone()

    res1.clamp(min_val, max_val)

    res2 = m1.clone()
    for i in range(1, m1.size(1) + 1):
        if res2[i] > max_val:
            res2[i] = max_val
        elif res2[i] < min_val:
            res2[i] = min_val

    err = (res1 - res2).abs().max()

    mytester.assertlt(err, precision, 'error in torch.clamp - scalar, non contiguous')


def test_pow():  # [res] torch.pow([res,] x)
    # base - tensor, exponent - number
    # contiguous
    m1 = torch.randn(100, 100)
    res1 = torch.pow(m1[4, []], 3)
    res2 = res1.clone().zero()
    for i in range(1, res1.size(1) + 1):
        res2[i] = math.pow(m1[4][i], 3)
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        err[i] = math.fabs(res1[i] - res2[i])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        if err[i] > maxerr:
            maxerr = err[i]
    mytester.assertlt(maxerr, precision, 'error in torch.pow - contiguous')

    # non-contiguous
    m1 = torch.randn(100, 100)
    res1 = torch.pow(m1[[], 4], 3)
    res2 = res1.clone().zero()
    for i in range(1, res1.size(1) + 1):
        res2[i] = math.pow(m1[i][4], 3)
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        err[i] = math.fabs(res1[i] - res2[i])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        if err[i] > maxerr:
            maxerr = err[i]
    mytester.assertlt(maxerr, precision, 'error in torch.pow - non-contiguous')

    # base - number, exponent - tensor
    # contiguous
    m1 = torch.randn(100, 100)
    res1 = torch.pow(3, m1[4, []])
    res2 = res1.clone().zero()
    for i in range(1, res1.size(1) + 1):
        res2[i] = math.pow(3, m1[4][i])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        err[i] = math.fabs(res1[i] - res2[i])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        if err[i] > maxerr:
            maxerr = err[i]
    mytester.assertlt(maxerr, precision, 'error in torch.pow - contiguous')

    # non-contiguous
    m1 = torch.randn(100, 100)
    res1 = torch.pow(3, m1[[], 4])
    res2 = res1.clone().zero()
    for i in range(1, res1.size(1) + 1):
        res2[i] = math.pow(3, m1[i][4])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        err[i] = math.fabs(res1[i] - res2[i])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        if err[i] > maxerr:
            maxerr = err[i]
    mytester.assertlt(maxerr, precision, 'error in torch.pow - non-contiguous')


def test_cdiv():
    types = [
        'torch.ByteTensor',
        'torch.CharTensor',
        'torch.ShortTensor',
        'torch.IntTensor',
        'torch.FloatTensor',
        'torch.DoubleTensor',
        'torch.LongTensor',
    ]

    for t in types:
        # [res] torch.cdiv([res,] tensor1, tensor2)
        # contiguous
        m1 = torch.Tensor(10, 10, 10).uniform(0, 10).type(t)
        m2 = torch.Tensor(10, 10 * 10).uniform(0, 10).type(t)
        m2[m2.eq(0)] = 2
        sm1 = m1[4, [], []]
        sm2 = m2[4, []]
        res1 = torch.cdiv(sm1, sm2)
        res2 = res1.clone().zero()
        for i in range(1, sm1.size(1) + 1):
            for j in range(1, sm1.size(2) + 1):
                idx1d = ((i - 1) * sm1.size(1)) + j
                try:  # Lua's pcall
                    res2[i][j] = sm1[i][j] / sm2[idx1d]
                except Exception:
                    res2[i][j] = torch.floor(sm1[i][j] / sm2[idx1d])
        err = res1.clone().zero()
        # find absolute error
        for i in range(1, res1.size(1) + 1):
            for j in range(1, res1.size(2) + 1):
                err[i][j] = math.fabs(res1[i][j] - res2[i][j])
        # find maximum element of error
        maxerr = 0
        for i in range(1, err.size(1) + 1):
            for j in range(1, err.size(2) + 1):
                if err[i][j] > maxerr:
                    maxerr = err[i][j]
        mytester.assertlt(maxerr, precision, 'error in torch.cdiv - contiguous' + ' ' + t)

        # non-contiguous
        m1 = torch.Tensor(10, 10, 10).uniform(0, 10).type(t)
        m2 = torch.Tensor(10 * 10, 10 * 10).uniform(0, 10).type(t)
        m2[m2.eq(0)] = 2
        sm1 = m1[[], 4, []]
        sm2 = m2[[], 4]
        res1 = torch.cdiv(sm1, sm2)
        res2 = res1.clone().zero()
        for i in range(1, sm1.size(1) + 1):
            for j in range(1, sm1.size(2) + 1):
                idx1d = ((i - 1) * sm1.size(1)) + j
                try:  # Lua's pcall
                    res2[i][j] = sm1[i][j] / sm2[idx1d]
                except Exception:
                    res2[i][j] = torch.floor(sm1[i][j] / sm2[idx1d])
        err = res1.clone().zero()
        # find absolute error
        for i in range(1, res1.size(1) + 1):
            for j in range(1, res1.size(2) + 1):
                err[i][j] = math.fabs(res1[i][j] - res2[i][j])
        # find maximum element of error
        maxerr = 0
        for i in range(1, err.size(1) + 1):
            for j in range(1, err.size(2) + 1):
                if err[i][j] > maxerr:
                    maxerr = err[i][j]
        mytester.assertlt(maxerr, precision, 'error in torch.cdiv - non-contiguous' + ' ' + t)


def test_cfmod():
    # contiguous
    m1 = torch.Tensor(10, 10, 10).uniform(-10, 10)
    m2 = torch.Tensor(10, 10 * 10).uniform(-3, 3)
    sm1 = m1[4, [], []]
    sm2 = m2[4, []]
    res1 = torch.cfmod(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = math.fmod(sm1[i][j], sm2[idx1d])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cfmod - contiguous')

    # non-contiguous
    m1 = torch.Tensor(10, 10, 10).uniform(-10, 10)
    m2 = torch.Tensor(10 * 10, 10 * 10).uniform(-3, 3)
    sm1 = m1[[], 4, []]
    sm2 = m2[[], 4]
    res1 = torch.cfmod(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = math.fmod(sm1[i][j], sm2[idx1d])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cfmod - non-contiguous')


def test_cremainder():
    # contiguous
    m1 = torch.Tensor(10, 10, 10).uniform(-10, 10)
    m2 = torch.Tensor(10, 10 * 10).uniform(-3, 3)
    sm1 = m1[4, [], []]
    sm2 = m2[4, []]
    res1 = torch.cremainder(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = sm1[i][j] % sm2[idx1d]
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cremainder - contiguous')

    # non-contiguous
    m1 = torch.Tensor(10, 10, 10).uniform(-10, 10)
    m2 = torch.Tensor(10 * 10, 10 * 10).uniform(-3, 3)
    sm1 = m1[[], 4, []]
    sm2 = m2[[], 4]
    res1 = torch.cremainder(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = sm1[i][j] % sm2[idx1d]
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cremainder - non-contiguous')


def test_cmul():
    types = [
        'torch.ByteTensor',
        'torch.CharTensor',
        'torch.ShortTensor',
        'torch.IntTensor',
        'torch.FloatTensor',
        'torch.DoubleTensor',
        'torch.LongTensor',
    ]

    for t in types:
        # [res] torch.cmul([res,] tensor1, tensor2)
        # contiguous
        m1 = torch.randn(10, 10, 10).type(t)
        m2 = torch.randn(10, 10 * 10).type(t)
        sm1 = m1[4, [], []]
        sm2 = m2[4, []]
        res1 = torch.cmul(sm1, sm2)
        res2 = res1.clone().zero()
        for i in range(1, sm1.size(1) + 1):
            for j in range(1, sm1.size(2) + 1):
                idx1d = ((i - 1) * sm1.size(1)) + j
                res2[i][j] = lua_wrap(sm1[i][j] * sm2[idx1d], res2.type())
        err = res1.clone().zero().double()  # |res1 - res2| itself must not wrap
        # find absolute error
        for i in range(1, res1.size(1) + 1):
            for j in range(1, res1.size(2) + 1):
                err[i][j] = math.fabs(res1[i][j] - res2[i][j])
        # find maximum element of error
        maxerr = 0
        for i in range(1, err.size(1) + 1):
            for j in range(1, err.size(2) + 1):
                if err[i][j] > maxerr:
                    maxerr = err[i][j]
        mytester.assertlt(maxerr, precision, 'error in torch.cmul - contiguous' + ' ' + t)

        # non-contiguous
        m1 = torch.randn(10, 10, 10).type(t)
        m2 = torch.randn(10 * 10, 10 * 10).type(t)
        sm1 = m1[[], 4, []]
        sm2 = m2[[], 4]
        res1 = torch.cmul(sm1, sm2)
        res2 = res1.clone().zero()
        for i in range(1, sm1.size(1) + 1):
            for j in range(1, sm1.size(2) + 1):
                idx1d = ((i - 1) * sm1.size(1)) + j
                res2[i][j] = lua_wrap(sm1[i][j] * sm2[idx1d], res2.type())
        err = res1.clone().zero().double()  # |res1 - res2| itself must not wrap
        # find absolute error
        for i in range(1, res1.size(1) + 1):
            for j in range(1, res1.size(2) + 1):
                err[i][j] = math.fabs(res1[i][j] - res2[i][j])
        # find maximum element of error
        maxerr = 0
        for i in range(1, err.size(1) + 1):
            for j in range(1, err.size(2) + 1):
                if err[i][j] > maxerr:
                    maxerr = err[i][j]
        mytester.assertlt(maxerr, precision, 'error in torch.cmul - non-contiguous' + ' ' + t)


def test_cpow():  # [res] torch.cpow([res,] tensor1, tensor2)
    # contiguous
    m1 = torch.rand(10, 10, 10)
    m2 = torch.rand(10, 10 * 10)
    sm1 = m1[4, [], []]
    sm2 = m2[4, []]
    res1 = torch.cpow(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = math.pow(sm1[i][j], sm2[idx1d])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cpow - contiguous')

    # non-contiguous
    m1 = torch.rand(10, 10, 10)
    m2 = torch.rand(10 * 10, 10 * 10)
    sm1 = m1[[], 4, []]
    sm2 = m2[[], 4]
    res1 = torch.cpow(sm1, sm2)
    res2 = res1.clone().zero()
    for i in range(1, sm1.size(1) + 1):
        for j in range(1, sm1.size(2) + 1):
            idx1d = ((i - 1) * sm1.size(1)) + j
            res2[i][j] = math.pow(sm1[i][j], sm2[idx1d])
    err = res1.clone().zero()
    # find absolute error
    for i in range(1, res1.size(1) + 1):
        for j in range(1, res1.size(2) + 1):
            err[i][j] = math.fabs(res1[i][j] - res2[i][j])
    # find maximum element of error
    maxerr = 0
    for i in range(1, err.size(1) + 1):
        for j in range(1, err.size(2) + 1):
            if err[i][j] > maxerr:
                maxerr = err[i][j]
    mytester.assertlt(maxerr, precision, 'error in torch.cpow - non-contiguous')


def test_sum():
    x = torch.rand(msize, msize)
    mx = torch.sum(x, 2)
    mxx = torch.Tensor()
    torch.sum(mxx, x, 2)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.sum value')

    y = torch.rand(5, 5, 5)
    for i in range(1, 3 + 1):
        a = y.sum(i)
        b = y.narrow(i, 1, 1).clone().zero()
        for j in range(1, 5 + 1):
            b.add(y.narrow(i, j, 1))
        mytester.asserteq(maxdiff(a, b), 0, 'torch.sum value')


def test_prod():
    x = torch.rand(msize, msize)
    mx = torch.prod(x, 2)
    mxx = torch.Tensor()
    torch.prod(mxx, x, 2)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.prod value')

    y = torch.rand(5, 5, 5)
    for i in range(1, 3 + 1):
        a = y.prod(i)
        b = y.narrow(i, 1, 1).clone().fill(1)
        for j in range(1, 5 + 1):
            b.cmul(y.narrow(i, j, 1))
        mytester.asserteq(maxdiff(a, b), 0, 'torch.sum value')


def test_cumsum():
    x = torch.rand(msize, msize)
    mx = torch.cumsum(x, 2)
    mxx = torch.Tensor()
    torch.cumsum(mxx, x, 2)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.cumsum value')


def test_cumprod():
    x = torch.rand(msize, msize)
    mx = torch.cumprod(x, 2)
    mxx = torch.Tensor()
    torch.cumprod(mxx, x, 2)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.cumprod value')


def test_cross():
    x = torch.rand(msize, 3, msize)
    y = torch.rand(msize, 3, msize)
    mx = torch.cross(x, y)
    mxx = torch.Tensor()
    torch.cross(mxx, x, y)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.cross value')


def test_zeros():
    mx = torch.zeros(msize, msize)
    mxx = torch.Tensor()
    torch.zeros(mxx, msize, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.zeros value')


def test_histc():
    x = torch.Tensor([2, 4, 2, 2, 5, 4])
    y = torch.histc(x, 5, 1, 5)  # nbins, min, max
    z = torch.Tensor([0, 3, 0, 2, 1])
    mytester.assertTensorEq(y, z, precision, 'error in torch.histc')


def test_bhistc():
    x = torch.Tensor(3, 6)
    x[1] = torch.Tensor([2, 4, 2, 2, 5, 4])
    x[2] = torch.Tensor([3, 5, 1, 5, 3, 5])
    x[3] = torch.Tensor([3, 4, 2, 5, 5, 1])
    y = torch.bhistc(x, 5, 1, 5)  # nbins, min, max
    z = torch.Tensor(3, 5)
    z[1] = torch.Tensor([0, 3, 0, 2, 1])
    z[2] = torch.Tensor([1, 0, 2, 0, 3])
    z[3] = torch.Tensor([1, 1, 1, 1, 2])
    mytester.assertTensorEq(y, z, precision, 'error in torch.bhistc in last dimension')

"""Torch7's test/test.lua, part 3: the `torchtest.*` functions from `ones`
to `randn` (test.lua lines 1713-2373), ported line by line to Python.

Lua-to-Python changes only: `x:f(...)` is `x.f(...)`, `x[{i, j}]` is
`x[i, j]`, a Lua table `{a, b}` is a list `[a, b]` (so a table's `t[1]` is
`t[0]`), a call whose extra results Lua drops (`torch.sort(x)` as an
argument) is indexed `[0]`, Lua's `/` between two whole numbers that
divide is `//` (sizes are Python ints), `math.random` is Python's
`random` (seeded with the generator by the fixture), `os.time()` is
`int(time.time())`.
"""

import math
import random
import time

import pytest

import strided as torch
from lua_tester import MSIZE, PRECISION, maxdiff, mytester  # noqa: F401

msize = MSIZE


@pytest.fixture(autouse=True)
def seeded():
    torch.manualSeed(123456)
    random.seed(123456)
    yield
    torch.setdefaulttensortype("torch.DoubleTensor")


def test_ones():
    mx = torch.ones(msize, msize)
    mxx = torch.Tensor()
    torch.ones(mxx, msize, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.ones value')


def test_diag():
    x = torch.rand(msize, msize)
    mx = torch.diag(x)
    mxx = torch.Tensor()
    torch.diag(mxx, x)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.diag value')


def test_eye():
    mx = torch.eye(msize, msize)
    mxx = torch.Tensor()
    torch.eye(mxx, msize, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.eye value')


def test_renorm():
    m1 = torch.randn(10, 5)
    res1 = torch.Tensor()  # noqa: F841 (as in Lua)

    def renorm(matrix, value, dim, max_norm):
        m1 = matrix.transpose(dim, 1).contiguous()
        # collapse non-dim dimensions:
        m2 = m1.reshape(m1.size(1), m1.nElement() // m1.size(1))
        norms = m2.norm(value, 2)
        # clip
        new_norms = norms.clone()
        new_norms[torch.gt(norms, max_norm)] = max_norm
        new_norms.cdiv(norms.add(1e-7))
        # renormalize
        m1.cmul(new_norms.expandAs(m1))
        return m1.transpose(dim, 1)

    # note that the axis fed to torch.renorm is different (2~=1)
    maxnorm = m1.norm(2, 1).mean()
    m2 = renorm(m1, 2, 2, maxnorm)

    m1.renorm(2, 2, maxnorm)
    mytester.assertTensorEq(m1, m2, 0.00001, 'error in renorm')
    mytester.assertTensorEq(m1.norm(2, 1), m2.norm(2, 1), 0.00001, 'error in renorm')

    m1 = torch.randn(3, 4, 5)
    m2 = m1.transpose(2, 3).contiguous().reshape(15, 4)

    maxnorm = m2.norm(2, 1).mean()
    m2 = renorm(m2, 2, 2, maxnorm)

    m1.renorm(2, 2, maxnorm)
    m3 = m1.transpose(2, 3).contiguous().reshape(15, 4)
    mytester.assertTensorEq(m3, m2, 0.00001, 'error in renorm')
    mytester.assertTensorEq(m3.norm(2, 1), m2.norm(2, 1), 0.00001, 'error in renorm')


def test_multinomialwithreplacement():
    n_row = 3
    for n_col in range(4, 5 + 1):
        t = int(time.time())
        torch.manualSeed(t)
        prob_dist = torch.rand(n_row, n_col)
        prob_dist.select(2, n_col).fill(0)  # index n_col shouldn't be sampled
        n_sample = n_col
        sample_indices = torch.multinomial(prob_dist, n_sample, True)
        mytester.assert_(prob_dist.dim() == 2, "wrong number of prob_dist dimensions")
        mytester.assert_(sample_indices.size(2) == n_sample, "wrong number of samples")
        for i in range(1, n_row + 1):
            for j in range(1, n_sample + 1):
                mytester.assert_(
                    sample_indices[i, j] != n_col, "sampled an index with zero probability"
                )


def test_multinomialwithoutreplacement():
    n_row = 3
    for n_col in range(4, 5 + 1):
        t = int(time.time())
        torch.manualSeed(t)
        prob_dist = torch.rand(n_row, n_col)
        prob_dist.select(2, n_col).fill(0)  # index n_col shouldn't be sampled
        n_sample = 3
        sample_indices = torch.multinomial(prob_dist, n_sample, False)
        mytester.assert_(prob_dist.dim() == 2, "wrong number of prob_dist dimensions")
        mytester.assert_(sample_indices.size(2) == n_sample, "wrong number of samples")
        for i in range(1, n_row + 1):
            row_samples = {}
            for j in range(1, n_sample + 1):
                sample_idx = sample_indices[i, j]
                mytester.assert_(sample_idx != n_col, "sampled an index with zero probability")
                mytester.assert_(not row_samples.get(sample_idx), "sampled an index twice")
                row_samples[sample_idx] = True


def test_aliasMultinomial():
    for _ in range(1, 5 + 1):
        n_class = 5
        t = int(time.time())
        torch.manualSeed(t)
        probs = torch.Tensor(n_class).uniform(0, 1)
        probs.div(probs.sum())
        output = torch.LongTensor(1000, 10000)
        n_samples = output.nElement()
        prob_state = torch.multinomialAliasSetup(probs)
        mytester.assert_(
            prob_state[0].min() > 0,
            "Index =" + str(prob_state[0].min()) + "alias indices has an index below or equal to 0",
        )
        mytester.assert_(
            prob_state[0].max() <= n_class,
            str(prob_state[0].max()) + " alias indices has an index exceeding num_class",
        )
        prob_state = torch.multinomialAliasSetup(probs, prob_state)
        mytester.assert_(
            prob_state[0].min() > 0,
            "Index ="
            + str(prob_state[0].min())
            + "alias indices has an index below or equal to 0(cold)",
        )
        mytester.assert_(
            prob_state[0].max() <= n_class,
            str(prob_state[0].max())
            + ","
            + str(prob_state[0].min())
            + " alias indices has an index exceeding num_class(cold)",
        )
        output = torch.LongTensor(n_samples)
        output = torch.multinomialAlias(output, prob_state)
        mytester.assert_(output.nElement() == n_samples, "wrong number of samples")
        mytester.assert_(output.min() > 0, "sampled indices has an index below or equal to 0")
        mytester.assert_(output.max() <= n_class, "indices has an index exceeding num_class")


def test_multinomialvector():
    n_col = 4
    t = int(time.time())
    torch.manualSeed(t)
    prob_dist = torch.rand(n_col)
    n_sample = n_col
    sample_indices = torch.multinomial(prob_dist, n_sample, True)
    s_dim = sample_indices.dim()
    mytester.assert_(s_dim == 1, "wrong number of returned dimensions: " + str(s_dim))
    mytester.assert_(prob_dist.dim() == 1, "wrong number of prob_dist dimensions")
    mytester.assert_(sample_indices.size(1) == n_sample, "wrong number of samples")


def test_range():
    mx = torch.range(0, 1)
    mxx = torch.Tensor()
    torch.range(mxx, 0, 1)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.range value')

    # Check range for non-contiguous tensors.
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    y.range(0, 3)
    mytester.assertTensorEq(
        x, torch.Tensor([[0, 0, 1], [0, 2, 3]]), 1e-16, 'non-contiguous range failed'
    )


def test_rangenegative():
    mx = torch.Tensor([1, 0])
    mxx = torch.Tensor()
    torch.range(mxx, 1, 0, -1)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.range value for negative step')


def test_rangeequalbounds():
    mx = torch.Tensor([1])
    mxx = torch.Tensor()
    torch.range(mxx, 1, 1, -1)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.range value for equal bounds step')
    torch.range(mxx, 1, 1, 1)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.range value for equal bounds step')


def test_rangefloat():
    mx = torch.FloatTensor().range(0.6, 0.9, 0.1)
    mytester.asserteq(mx.size(1), 4, 'wrong size for FloatTensor range')
    mx = torch.FloatTensor().range(1, 10, 0.3)
    mytester.asserteq(mx.size(1), 31, 'wrong size for FloatTensor range')


def test_rangedouble():
    mx = torch.DoubleTensor().range(0.6, 0.9, 0.1)
    mytester.asserteq(mx.size(1), 4, 'wrong size for DoubleTensor range')
    mx = torch.DoubleTensor().range(1, 10, 0.3)
    mytester.asserteq(mx.size(1), 31, 'wrong size for DoubleTensor range')


def test_randperm():
    t = int(time.time())
    torch.manualSeed(t)
    mx = torch.randperm(msize)
    mxx = torch.Tensor()
    torch.manualSeed(t)
    torch.randperm(mxx, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.randperm value')


def test_reshape():
    x = torch.rand(10, 13, 23)
    mx = torch.reshape(x, 130, 23)
    mxx = torch.Tensor()
    torch.reshape(mxx, x, 130, 23)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.reshape value')


def assertIsOrdered(order, x, mxx, ixx, task):
    if order == 'descending':

        def areOrdered(a, b):
            return a >= b
    elif order == 'ascending':

        def areOrdered(a, b):
            return a <= b
    else:
        raise ValueError('unknown order "' + order + '", must be "ascending" or "descending"')

    decreasing = True
    for j in range(1, msize + 1):
        for k in range(2, msize + 1):
            decreasing = decreasing and areOrdered(mxx[j][k - 1], mxx[j][k])
    mytester.assert_(decreasing, 'torch.sort (' + order + ') values unordered for ' + task)
    seen = torch.ByteTensor(msize)
    indicesCorrect = True
    for k in range(1, msize + 1):
        seen.zero()
        for j in range(1, msize + 1):
            indicesCorrect = indicesCorrect and (x[k][ixx[k][j]] == mxx[k][j])
            seen[ixx[k][j]] = 1
        indicesCorrect = indicesCorrect and (torch.sum(seen) == msize)
    mytester.assert_(indicesCorrect, 'torch.sort (' + order + ') indices wrong for ' + task)


def test_sortAscending():
    x = torch.rand(msize, msize)
    mx, ix = torch.sort(x)

    # Test use of result tensor
    mxx = torch.Tensor()
    ixx = torch.LongTensor()
    torch.sort(mxx, ixx, x)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.sort (ascending) value')
    mytester.asserteq(maxdiff(ix, ixx), 0, 'torch.sort (ascending) index')

    # Test sorting of random numbers
    assertIsOrdered('ascending', x, mxx, ixx, 'random')

    mytester.assertTensorEq(
        torch.sort(torch.Tensor([50, 40, 30, 20, 10]))[0],
        torch.Tensor([10, 20, 30, 40, 50]),
        1e-16,
        "torch.sort (ascending) simple sort",
    )
    # Test that we still have proper sorting with duplicate keys
    x = torch.floor(torch.rand(msize, msize) * 10)
    torch.sort(mxx, ixx, x)
    assertIsOrdered('ascending', x, mxx, ixx, 'random with duplicate keys')


def test_sortDescending():
    x = torch.rand(msize, msize)
    mx, ix = torch.sort(x, True)

    # Test use of result tensor
    mxx = torch.Tensor()
    ixx = torch.LongTensor()
    torch.sort(mxx, ixx, x, True)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.sort (descending) value')
    mytester.asserteq(maxdiff(ix, ixx), 0, 'torch.sort (descending) index')

    # Test sorting of random numbers
    assertIsOrdered('descending', x, mxx, ixx, 'random')

    # Test simple sort task
    mytester.assertTensorEq(
        torch.sort(torch.Tensor([10, 20, 30, 40, 50]), True)[0],
        torch.Tensor([50, 40, 30, 20, 10]),
        1e-16,
        "torch.sort (descending) simple sort",
    )

    # Test that we still have proper sorting with duplicate keys
    assertIsOrdered('descending', x, mxx, ixx, 'random with duplicate keys')


def test_topK():
    def topKViaSort(t, k, dim, dir):
        sorted_, indices = t.sort(dim, dir)
        return sorted_.narrow(dim, 1, k), indices.narrow(dim, 1, k)

    def compareTensors(t, res1, ind1, res2, ind2, dim, msg):
        # Values should be exactly equivalent
        mytester.assertTensorEq(res1, res2, 0, msg)

        # Indices might differ based on the implementation, since there is
        # no guarantee of the relative order of selection
        if ind1.eq(ind2).min() == 0:
            # To verify that the indices represent equivalent elements,
            # gather from the input using the topk indices and compare against
            # the sort indices
            vals = t.gather(dim, ind2)
            mytester.assertTensorEq(res1, vals, 0, msg)

    def compare(t, k, dim, dir, msg):
        topKVal, topKInd = t.topk(k, dim, dir, True)
        sortKVal, sortKInd = topKViaSort(t, k, dim, dir)

        compareTensors(t, sortKVal, sortKInd, topKVal, topKInd, dim, msg)

    t = torch.rand(random.randint(1, msize), random.randint(1, msize), random.randint(1, msize))

    for _kTries in range(1, 3 + 1):
        for _dimTries in range(1, 3 + 1):
            for transpose in (True, False):
                for dir in (True, False):
                    testTensor = t

                    transposeMsg = None
                    if transpose:
                        dim1 = random.randint(1, t.nDimension())
                        dim2 = dim1

                        while dim1 == dim2:
                            dim2 = random.randint(1, t.nDimension())

                        testTensor = t.transpose(dim1, dim2)
                        transposeMsg = 'transpose(' + str(dim1) + ', ' + str(dim2) + ')'

                    dim = random.randint(1, testTensor.nDimension())
                    k = random.randint(1, testTensor.size(dim))
                    msg = 'topk(' + str(k) + ', ' + str(dim) + ', ' + str(dir).lower() + ', true)'
                    if transposeMsg:
                        msg = msg + ' ' + transposeMsg

                    compare(testTensor, k, dim, dir, msg)


def test_kthvalue():
    x = torch.rand(msize, msize, msize)
    x0 = x.clone()
    if True:
        k = random.randint(1, msize)
        mx, ix = torch.kthvalue(x, k)
        mxx, ixx = torch.sort(x)

        mytester.assertTensorEq(mxx.select(3, k), mx.select(3, 1), 0, 'torch.kthvalue value')
        mytester.assertTensorEq(ixx.select(3, k), ix.select(3, 1), 0, 'torch.kthvalue index')
    if True:  # test use of result tensors
        k = random.randint(1, msize)
        mx = torch.Tensor()
        ix = torch.LongTensor()
        torch.kthvalue(mx, ix, x, k)
        mxx, ixx = torch.sort(x)
        mytester.assertTensorEq(mxx.select(3, k), mx.select(3, 1), 0, 'torch.kthvalue value')
        mytester.assertTensorEq(ixx.select(3, k), ix.select(3, 1), 0, 'torch.kthvalue index')
    if True:  # test non-default dim
        k = random.randint(1, msize)
        mx, ix = torch.kthvalue(x, k, 1)
        mxx, ixx = torch.sort(x, 1)
        mytester.assertTensorEq(mxx.select(1, k), mx[1], 0, 'torch.kthvalue value')
        mytester.assertTensorEq(ixx.select(1, k), ix[1], 0, 'torch.kthvalue index')
    if True:  # non-contiguous
        y = x.narrow(2, 1, 1)
        y0 = y.clone()
        k = random.randint(1, msize)
        my, ix = torch.kthvalue(y, k)
        my0, ix0 = torch.kthvalue(y0, k)
        mytester.assertTensorEq(my, my0, 0, 'torch.kthvalue value')
        mytester.assertTensorEq(ix, ix0, 0, 'torch.kthvalue index')
    mytester.assertTensorEq(x, x0, 0, 'torch.kthvalue modified input')

    # simple test case (with repetitions)
    y = torch.Tensor([3, 5, 4, 1, 1, 5])
    mytester.assertTensorEq(
        torch.kthvalue(y, 3)[0], torch.Tensor([3]), 1e-16, 'torch.kthvalue simple'
    )
    mytester.assertTensorEq(
        torch.kthvalue(y, 2)[0], torch.Tensor([1]), 1e-16, 'torch.kthvalue simple'
    )


def test_median():
    for msize in (155, 156):
        x = torch.rand(msize, msize)
        x0 = x.clone()

        mx, ix = torch.median(x)
        mxx, ixx = torch.sort(x)
        ind = math.floor((msize + 1) / 2)

        mytester.assertTensorEq(mxx.select(2, ind), mx.select(2, 1), 0, 'torch.median value')
        mytester.assertTensorEq(ixx.select(2, ind), ix.select(2, 1), 0, 'torch.median index')

        # Test use of result tensor
        mr = torch.Tensor()
        ir = torch.LongTensor()
        torch.median(mr, ir, x)
        mytester.assertTensorEq(mr, mx, 0, 'torch.median result tensor value')
        mytester.assertTensorEq(ir, ix, 0, 'torch.median result tensor index')

        # Test non-default dim
        mx, ix = torch.median(x, 1)
        mxx, ixx = torch.sort(x, 1)
        mytester.assertTensorEq(mxx.select(1, ind), mx[1], 0, 'torch.median value')
        mytester.assertTensorEq(ixx.select(1, ind), ix[1], 0, 'torch.median index')

        # input unchanged
        mytester.assertTensorEq(x, x0, 0, 'torch.median modified input')


def test_mode():
    x = torch.range(1, msize * msize).reshape(msize, msize)
    x.select(1, 1).fill(1)
    x.select(1, 2).fill(1)
    x.select(2, 1).fill(1)
    x.select(2, 2).fill(1)
    x0 = x.clone()

    # Pre-calculated results.
    res = torch.Tensor(msize).fill(1)
    # The indices are the position of the last appearance of the mode element.
    resix = torch.LongTensor(msize).fill(2)
    resix[1] = msize
    resix[2] = msize

    mx, ix = torch.mode(x)

    mytester.assertTensorEq(res.view(msize, 1), mx, 0, 'torch.mode value')
    mytester.assertTensorEq(resix.view(msize, 1), ix, 0, 'torch.mode index')

    # Test use of result tensor
    mr = torch.Tensor()
    ir = torch.LongTensor()
    torch.mode(mr, ir, x)
    mytester.assertTensorEq(mr, mx, 0, 'torch.mode result tensor value')
    mytester.assertTensorEq(ir, ix, 0, 'torch.mode result tensor index')

    # Test non-default dim
    mx, ix = torch.mode(x, 1)
    mytester.assertTensorEq(res.view(1, msize), mx, 0, 'torch.mode value')
    mytester.assertTensorEq(resix.view(1, msize), ix, 0, 'torch.mode index')

    input = torch.Tensor(
        [
            [1, 2, 2, 2, 3, 2],
            [1.5, 2, 2, 1.5, 1.5, 5],
        ]
    )
    value, index = torch.mode(input)
    expected_value = torch.Tensor([[2], [1.5]])
    mytester.assertTensorEq(value, expected_value)

    # input unchanged
    mytester.assertTensorEq(x, x0, 0, 'torch.mode modified input')


def test_tril():
    x = torch.rand(msize, msize)
    mx = torch.tril(x)
    mxx = torch.Tensor()
    torch.tril(mxx, x)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.tril value')


def test_triu():
    x = torch.rand(msize, msize)
    mx = torch.triu(x)
    mxx = torch.Tensor()
    torch.triu(mxx, x)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.tril value')


def test_cat():
    for dim in range(1, 3 + 1):
        x = torch.rand(13, msize, msize).transpose(1, dim)
        y = torch.rand(17, msize, msize).transpose(1, dim)
        mx = torch.cat(x, y, dim)
        mytester.assertTensorEq(mx.narrow(dim, 1, 13), x, 0, 'torch.cat value')
        mytester.assertTensorEq(mx.narrow(dim, 14, 17), y, 0, 'torch.cat value')

        mxx = torch.Tensor()
        torch.cat(mxx, x, y, dim)
        mytester.assertTensorEq(mx, mxx, 0, 'torch.cat value')

        x = torch.rand(1, 2, 3)
        y = torch.Tensor()
        mx = torch.cat(x, y, dim)
        mytester.asserteq(mx.size(1), 1, 'torch.cat size')
        mytester.asserteq(mx.size(2), 2, 'torch.cat size')
        mytester.asserteq(mx.size(3), 3, 'torch.cat size')
        mytester.assertTensorEq(mx, x, 0, 'torch.cat value')

        x = torch.Tensor()
        y = torch.Tensor()
        mx = torch.cat(x, y, dim)
        mytester.asserteq(mx.dim(), 0, 'torch.cat dim')
    x = torch.Tensor()
    y = torch.rand(1, 2, 3)
    mx = torch.cat(x, y)
    mytester.asserteq(mx.size(1), 1, 'torch.cat size')
    mytester.asserteq(mx.size(2), 2, 'torch.cat size')
    mytester.asserteq(mx.size(3), 3, 'torch.cat size')
    mytester.assertTensorEq(mx, y, 0, 'torch.cat value')

    x = torch.Tensor()
    y = torch.Tensor()
    mx = torch.cat(x, y)
    mytester.asserteq(mx.dim(), 0, 'torch.cat dim')


def test_catArray():
    for dim in range(1, 3 + 1):
        x = torch.rand(13, msize, msize).transpose(1, dim)
        y = torch.rand(17, msize, msize).transpose(1, dim)
        z = torch.rand(19, msize, msize).transpose(1, dim)

        mx = torch.cat([x, y, z], dim)
        mytester.assertTensorEq(mx.narrow(dim, 1, 13), x, 0, 'torch.cat value')
        mytester.assertTensorEq(mx.narrow(dim, 14, 17), y, 0, 'torch.cat value')
        mytester.assertTensorEq(mx.narrow(dim, 31, 19), z, 0, 'torch.cat value')

        mytester.assertError(lambda: torch.cat([]), 'torch.cat empty table')

        mxx = torch.Tensor()
        torch.cat(mxx, [x, y, z], dim)
        mytester.assertTensorEq(mx, mxx, 0, 'torch.cat value')
        torch.cat(mxx.float(), [x.float(), y.float(), z.float()], dim)
        mytester.assertTensorEq(mx, mxx, 0, 'torch.cat value')
        torch.cat(mxx.double(), [x.double(), y.double(), z.double()], dim)
        mytester.assertTensorEq(mx, mxx, 0, 'torch.cat value')

        x = torch.rand(1, 2, 3)
        y = torch.Tensor()
        mx = torch.cat([x, y], dim)
        mytester.asserteq(mx.size(1), 1, 'torch.cat size')
        mytester.asserteq(mx.size(2), 2, 'torch.cat size')
        mytester.asserteq(mx.size(3), 3, 'torch.cat size')
        mytester.assertTensorEq(mx, x, 0, 'torch.cat value')

        x = torch.Tensor()
        y = torch.Tensor()
        mx = torch.cat([x, y], dim)
        mytester.asserteq(mx.dim(), 0, 'torch.cat dim')
    x = torch.Tensor()
    y = torch.rand(1, 2, 3)
    mx = torch.cat([x, y])
    mytester.asserteq(mx.size(1), 1, 'torch.cat size')
    mytester.asserteq(mx.size(2), 2, 'torch.cat size')
    mytester.asserteq(mx.size(3), 3, 'torch.cat size')
    mytester.assertTensorEq(mx, y, 0, 'torch.cat value')

    x = torch.Tensor()
    y = torch.Tensor()
    mx = torch.cat([x, y])
    mytester.asserteq(mx.dim(), 0, 'torch.cat dim')


def test_catNoDim():
    a = torch.Tensor(msize).uniform()
    b = torch.Tensor(msize).uniform()
    c = torch.cat(a, b)
    mytester.assertTensorEq(c.narrow(1, 1, msize), a, 0, 'torch.cat value')
    mytester.assertTensorEq(c.narrow(1, msize + 1, msize), b, 0, 'torch.cat value')

    a = torch.Tensor(1, msize).uniform()
    b = torch.Tensor(1, msize).uniform()
    c = torch.cat(a, b)
    mytester.assertTensorEq(c.narrow(2, 1, msize), a, 0, 'torch.cat value')
    mytester.assertTensorEq(c.narrow(2, msize + 1, msize), b, 0, 'torch.cat value')

    a = torch.Tensor(10, msize).uniform()
    b = torch.Tensor(10, msize).uniform()
    c = torch.cat(a, b)
    mytester.assertTensorEq(c.narrow(2, 1, msize), a, 0, 'torch.cat value')
    mytester.assertTensorEq(c.narrow(2, msize + 1, msize), b, 0, 'torch.cat value')


def test_sin_2():
    x = torch.rand(msize, msize, msize)
    mx = torch.sin(x)
    mxx = torch.Tensor()
    torch.sin(mxx, x)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.sin value')


def test_linspace():
    from_ = random.random()
    to = from_ + random.random()
    mx = torch.linspace(from_, to, 137)
    mxx = torch.Tensor()
    torch.linspace(mxx, from_, to, 137)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.linspace value')
    mytester.assertError(
        lambda: torch.linspace(0, 1, 1), 'accepted 1 point between 2 distinct endpoints'
    )
    mytester.assertTensorEq(
        torch.linspace(0, 0, 1),
        torch.zeros(1),
        1e-16,
        'failed to generate for torch.linspace(0,0,1)',
    )

    # Check linspace for generating with start > end.
    mytester.assertTensorEq(
        torch.linspace(2, 0, 3),
        torch.Tensor([2, 1, 0]),
        1e-16,
        'failed to generate for torch.linspace(2,0,3)',
    )

    # Check linspace for non-contiguous tensors.
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    y.linspace(0, 3, 4)
    mytester.assertTensorEq(
        x, torch.Tensor([[0, 0, 1], [0, 2, 3]]), 1e-16, 'non-contiguous linspace failed'
    )


def test_logspace():
    from_ = random.random()
    to = from_ + random.random()
    mx = torch.logspace(from_, to, 137)
    mxx = torch.Tensor()
    torch.logspace(mxx, from_, to, 137)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.logspace value')
    mytester.assertError(
        lambda: torch.logspace(0, 1, 1), 'accepted 1 point between 2 distinct endpoints'
    )
    mytester.assertTensorEq(
        torch.logspace(0, 0, 1),
        torch.ones(1),
        1e-16,
        'failed to generate for torch.linspace(0,0,1)',
    )

    # Check logspace for generating with start > end.
    mytester.assertTensorEq(
        torch.logspace(1, 0, 2),
        torch.Tensor([10, 1]),
        1e-16,
        'failed to generate for torch.logspace(1,0,2)',
    )

    # Check logspace for non-contiguous tensors.
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    y.logspace(0, 3, 4)
    mytester.assertTensorEq(
        x, torch.Tensor([[0, 1, 10], [0, 100, 1000]]), 1e-16, 'non-contiguous logspace failed'
    )


def test_rand():
    torch.manualSeed(123456)
    mx = torch.rand(msize, msize)
    mxx = torch.Tensor()
    torch.manualSeed(123456)
    torch.rand(mxx, msize, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.rand value')


def test_randn():
    torch.manualSeed(123456)
    mx = torch.randn(msize, msize)
    mxx = torch.Tensor()
    torch.manualSeed(123456)
    torch.randn(mxx, msize, msize)
    mytester.asserteq(maxdiff(mx, mxx), 0, 'torch.randn value')

"""maths.md and random.md functions on the Torch7 face, with values printed
by real Lua Torch7 (814ea4a) for the same calls; the kernels' own property
tests against numpy are in tests/test_{histogram,select,norm,conv,matrix,random}.py."""

import numpy as np
import pytest

import strided as torch

X = [3, 1, 4, 1, 5, 9, 2, 6]


def test_selection():
    x = torch.Tensor(X)
    v, i = torch.topk(x, 3, 1, True, True)
    assert v.tolist() == [9, 6, 5] and i.tolist() == [6, 8, 5] and i.type() == "torch.LongTensor"
    v, i = torch.kthvalue(x, 3)
    assert v.tolist() == [2] and i.tolist() == [7]
    v, i = torch.mode(torch.Tensor([[1, 2, 2, 3], [4, 4, 5, 5]]), 2)
    assert v.tolist() == [[2], [4]] and i.tolist() == [[3], [2]]
    v, i = torch.median(x)
    assert v.tolist() == [3] and i.tolist() == [1]
    vals, idx = torch.Tensor(), torch.LongTensor()
    assert torch.topk(vals, idx, x, 2) == (vals, idx) and sorted(vals.tolist()) == [1, 1]


def test_norms_histograms_products():
    x = torch.Tensor(X)
    assert torch.norm(x) == pytest.approx(13.152946437966) and torch.norm(x, 1) == 31
    assert torch.dist(x, torch.zeros(8), 3) == pytest.approx(10.540283650177)
    assert torch.histc(torch.Tensor([1, 2, 2, 3, 10]), 4, 0, 8).tolist() == [1, 3, 0, 0]
    assert torch.xcorr2(
        torch.Tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), torch.Tensor([[1, 0], [0, -1]])
    ).tolist() == [[-4, -4], [-4, -4]]
    assert torch.conv2(torch.Tensor([[1, 2], [3, 4]]), torch.ones(2, 2), "F").tolist() == [
        [1, 3, 2],
        [4, 10, 6],
        [3, 7, 4],
    ]
    assert torch.addcdiv(torch.ones(2), 2, torch.Tensor([1, 2]), torch.Tensor([4, 8])).tolist() == [
        1.5,
        1.5,
    ]
    r = torch.renorm(torch.Tensor([[1, 2], [3, 4]]), 2, 1, 1)
    np.testing.assert_allclose(r.tolist(), [[0.4472, 0.8944], [0.6, 0.8]], atol=1e-4)
    assert torch.linspace(0, 1, 5).tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert torch.logspace(0, 2, 3).tolist() == [1, 10, 100]
    assert torch.trace(torch.IntTensor([[1, 2], [3, 4]])) == 5
    assert torch.eye(2, 3).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert torch.cross(torch.Tensor([1, 0, 0]), torch.Tensor([0, 1, 0])).tolist() == [0, 0, 1]
    assert torch.tril(torch.ones(3, 3), -1).tolist() == [[0, 0, 0], [1, 0, 0], [1, 1, 0]]
    assert torch.equal(x, torch.Tensor(X)) and not torch.equal(x, torch.Tensor(X[:4]))


def test_random_streams_are_lua_s():
    torch.manualSeed(1)
    np.testing.assert_allclose(torch.rand(3).tolist(), [0.4170, 0.9972, 0.7203], atol=1e-4)
    assert torch.uniform() == pytest.approx(0.93255736120045) and torch.random(10) == 4
    assert torch.randperm(5).tolist() == [4, 5, 2, 3, 1]
    torch.manualSeed(42)
    np.testing.assert_allclose(torch.randn(3).tolist(), [-1.2582, 1.2655, 0.6063], atol=1e-4)
    np.testing.assert_allclose(
        torch.Tensor(3).exponential(2).tolist(), [0.6584, 0.7564, 0.4565], atol=1e-4
    )
    assert torch.multinomial(torch.Tensor([0.2, 0.3, 0.5]), 4, True).tolist() == [3, 1, 2, 1]
    assert torch.Tensor(4).bernoulli(0.3).tolist() == [1, 1, 0, 0]


def test_generators_and_state():
    g = torch.Generator(7)
    torch.manualSeed(g, 1)
    torch.manualSeed(2)
    a = torch.uniform(g)
    torch.manualSeed(g, 1)
    assert torch.uniform(g) == a and torch.initialSeed(g) == 1
    s = torch.getRNGState()
    assert s.type() == "torch.ByteTensor"
    first = torch.rand(4).tolist()
    torch.setRNGState(s)
    assert torch.rand(4).tolist() == first
    p = torch.Tensor([0, 1, 0.5, 1])
    assert torch.Tensor(4).bernoulli(p).tolist()[:2] == [0, 1]


def test_bit_functions_and_mod():
    # values printed by Lua Torch7
    assert torch.IntTensor([6, -7]).bitand(3).tolist() == [2, 1]
    assert torch.IntTensor([1, 2]).lshift(2).tolist() == [4, 8]
    assert torch.Tensor([1.5]).lshift(2).tolist() == [6] and torch.Tensor([8]).rshift(
        1
    ).tolist() == [4]
    assert torch.IntTensor([-8]).rshift(1).tolist() == [2147483644]  # logical, as unsigned
    assert torch.Tensor([7, -7]).mod(3).tolist() == [1, -1]
    assert torch.IntTensor([7, -7]).cmod(torch.IntTensor([3, 3])).tolist() == [1, -1]
    assert torch.cbitxor(torch.IntTensor([5]), torch.IntTensor([3])).tolist() == [6]
    # Lua: every type has them; floats raise
    with pytest.raises(TypeError, match="bitand is only supported for integer type tensors"):
        torch.bitand(torch.Tensor([1]), 1)
    with pytest.raises(ZeroDivisionError):
        torch.IntTensor([1]).mod(0)


def test_round_sign_clamp_cmax_as_lua():
    nan = float("nan")
    # values printed by Lua Torch7 for the same calls
    got = torch.round(torch.Tensor([0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994])).tolist()
    assert got == [1, 2, 3, -1, -2, 0]
    assert torch.round(2.5) == 3 and torch.round(-0.5) == -1
    assert torch.sign(torch.Tensor([-2, 0, 3, nan])).tolist() == [-1, 0, 1, 0]
    assert torch.clamp(torch.Tensor([1, 2, 3, 4]), 3, 2).tolist() == [3, 3, 2, 2]
    c = torch.clamp(torch.Tensor([1, nan, 5]), 2, 4).tolist()
    assert c[0] == 2 and c[1] != c[1] and c[2] == 4
    m = torch.cmax(torch.Tensor([1, nan, 3]), torch.Tensor([nan, 2, 1])).tolist()
    assert m[0] != m[0] and m[1:] == [2, 3]
    m = torch.cmin(torch.Tensor([1, nan, 3]), torch.Tensor([nan, 2, 1])).tolist()
    assert m[0] != m[0] and m[1:] == [2, 1]
    assert torch.cmax(torch.Tensor([1, nan, 3]), 2).tolist() == [2, 2, 3]
    x = torch.Tensor([[0.5, -2.5], [1.5, 7]]).t()  # in place on a view
    assert x.round() is x and x.tolist() == [[1, 2], [-3, 7]]
    assert torch.IntTensor([-3, 0, 2]).sign().tolist() == [-1, 0, 1]

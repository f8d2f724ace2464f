"""random.md on the Torch7 face as Lua Torch7 gives it: the generators'
streams and states, rand/randn/randperm, multinomial and its alias
method, each draw compared with what real Lua Torch7 (814ea4a) printed
for the same seed and call (the core's streams against numpy's model are
in tests/core/test_random.py)."""

import numpy as np
import pytest

import strided as torch


def test_multinomial_alias_setup_as_lua():
    # Lua: J 4 4 1 3, q 0.4 0.8 1 0.8 (the %.17g digits Lua printed)
    s = torch.multinomialAliasSetup(torch.Tensor([0.1, 0.2, 0.3, 0.4]))
    assert isinstance(s, list) and len(s) == 2
    assert s[0].type() == "torch.LongTensor" and s[0].tolist() == [4, 4, 1, 3]
    assert s[1].type() == "torch.DoubleTensor"
    assert s[1].tolist() == [0.40000000000000002, 0.80000000000000004, 1, 0.80000000000000016]
    s = torch.multinomialAliasSetup(torch.FloatTensor([0.1, 0.2, 0.3, 0.4]))
    assert s[1].type() == "torch.FloatTensor"
    assert s[1].tolist() == [0.3999999463558197, 0.7999998927116394, 1, 0.79999995231628418]
    s = torch.multinomialAliasSetup(torch.Tensor([0.05, 0.15, 0.5, 0.3]))
    assert s[0].tolist() == [3, 4, 1, 3]
    assert s[1].tolist() == [0.20000000000000001, 0.59999999999999998, 1, 0.79999999999999993]
    # a given state {J, q}: filled in place and returned (Lua: r == st, J 3 3 1)
    st = [torch.LongTensor(), torch.DoubleTensor()]
    J, q = st
    assert torch.multinomialAliasSetup(torch.Tensor([0.2, 0.3, 0.5]), st) is st
    assert st[0] is J and st[1] is q and J.tolist() == [3, 3, 1]
    assert q.tolist() == [0.60000000000000009, 0.89999999999999991, 1]


def test_multinomial_alias_setup_keeps_an_alias_to_category_1():
    # Lua marks "no alias" by J == 0 (0-based) and so also drops a real alias
    # to category 1: for {0.7, 0.1, 0.2} it gives q = 1 1 1, which draws the
    # three categories uniformly.  Here the aliases stay (q = 1 0.3 0.6).
    s = torch.multinomialAliasSetup(torch.Tensor([0.7, 0.1, 0.2]))
    assert s[0].tolist() == [1, 1, 1]
    assert s[1].tolist() == [1, 0.30000000000000004, 0.60000000000000009]
    torch.manualSeed(3)
    out = torch.multinomialAlias(torch.LongTensor(30000), s)
    counts = [out.eq(k).sum() / 30000 for k in (1, 2, 3)]
    assert counts == pytest.approx([0.7, 0.1, 0.2], abs=0.02)


def test_multinomial_alias_draws_lua_stream():
    # Lua's numbers for torch.manualSeed(42): Lua's own multinomialAlias
    # wrapper subtracts 1 from the state's J (cwrap's IndexTensor) without
    # adding it back, so its aliased draws come out one too low and each
    # call lowers J further; these are the draws of Lua's C kernel with
    # that cancelled (s[1]:add(1) before each call): the same two uniforms
    # per draw, the right categories.
    s = torch.multinomialAliasSetup(torch.Tensor([0.1, 0.2, 0.3, 0.4]))
    torch.manualSeed(42)
    out = torch.LongTensor(20)
    assert torch.multinomialAlias(out, s) is out
    assert out.tolist() == [2, 4, 3, 3, 4, 1, 4, 4, 3, 3, 1, 4, 3, 1, 4, 4, 2, 3, 2, 2]
    assert s[0].tolist() == [4, 4, 1, 3]  # the state is left as it was
    torch.multinomialAlias(out, s)
    assert out.tolist() == [3, 1, 4, 2, 2, 4, 1, 3, 3, 4, 3, 4, 1, 3, 4, 4, 2, 1, 3, 2]
    # any shape of output, filled in row-major order with the same stream
    torch.manualSeed(42)
    grid = torch.multinomialAlias(torch.LongTensor(4, 5), s)
    assert grid.view(20).tolist()[:5] == [2, 4, 3, 3, 4]


def test_multinomial_alias_errors():
    s = torch.multinomialAliasSetup(torch.Tensor([0.5, 0.5]))
    with pytest.raises(ValueError, match="1-D"):
        torch.multinomialAliasSetup(torch.Tensor(2, 2).fill(0.25))
    with pytest.raises(TypeError, match="not defined for torch.LongTensor"):
        torch.multinomialAliasSetup(torch.LongTensor([1, 2]))
    with pytest.raises(TypeError, match="state"):
        torch.multinomialAlias(torch.LongTensor(3), [s[0]])
    with pytest.raises(IndexError, match="J holds 5"):
        torch.multinomialAlias(torch.LongTensor(3), [torch.LongTensor([5, 1]), s[1]])
    with pytest.raises(TypeError, match="not defined for torch.IntTensor"):
        torch.multinomialAlias(torch.IntTensor(3), s)


def test_rand_randn_methods_float_types_only():
    # Lua: h = torch.FloatTensor(5); torch.manualSeed(1); h:rand(2,2) fills h
    # with 0.4170 0.9972 / 0.7203 0.9326; LongTensor has no rand ("torch.LongTensor
    # does not implement the torch.rand() function")
    h = torch.FloatTensor(5)
    torch.manualSeed(1)
    assert h.rand(2, 2) is h and h.size().tolist() == [2, 2]
    assert [round(v, 4) for v in h.view(4).tolist()] == [0.4170, 0.9972, 0.7203, 0.9326]
    torch.manualSeed(1)
    a = torch.randn(3)
    torch.manualSeed(1)
    assert torch.Tensor(7).randn(3).tolist() == a.tolist()
    assert not hasattr(torch.LongTensor(), "rand")
    with pytest.raises(TypeError, match="rand is not defined for torch.LongTensor"):
        torch.rand(torch.LongTensor(), 2)


def test_randperm_is_lua_s_permutation():
    # TH's swaps with Lua's draws (a block of draws at a time, the swapped
    # places fetched ahead): Lua Torch7's values with these seeds
    torch.manualSeed(12)
    assert torch.randperm(20).tolist() == [
        4,
        16,
        13,
        9,
        6,
        17,
        18,
        12,
        3,
        7,
        15,
        5,
        8,
        20,
        10,
        1,
        19,
        2,
        11,
        14,
    ]
    for res in (torch.LongTensor(), torch.FloatTensor(), torch.IntTensor(), torch.Tensor(3, 4)):
        torch.manualSeed(12)
        assert torch.randperm(res, 20) is res and res.type() in (
            "torch.LongTensor",
            "torch.FloatTensor",
            "torch.IntTensor",
            "torch.DoubleTensor",
        )
        assert res.tolist()[:4] == [4, 16, 13, 9] and res.nElement() == 20
    torch.manualSeed(13)
    p = torch.randperm(1000000)
    assert p.narrow(1, 1, 5).tolist() == [206419, 513762, 233797, 252053, 263483]
    assert p.narrow(1, 999996, 5).tolist() == [402271, 497030, 130855, 768713, 646229]
    assert p.sum() == 500000500000
    # a non-contiguous res is filled in place
    x = torch.Tensor(5, 2).zero()
    torch.manualSeed(12)
    torch.randperm(x.select(2, 2), 5)
    assert sorted(x.select(2, 2).tolist()) == [1, 2, 3, 4, 5] and x.select(2, 1).sum() == 0


def test_rng_state_functions_return_the_state():
    # Lua: torch.setRNGState(s) returns s; torch.getRNGState(t) fills t
    # (5048 bytes) and returns it
    s = torch.getRNGState()
    assert s.nElement() == 5048
    assert torch.setRNGState(s) is s
    t = torch.ByteTensor()
    assert torch.getRNGState(t) is t and t.nElement() == 5048 and torch.equal(t, s)
    g = torch.Generator()
    assert torch.getRNGState(g, t) is t
    assert torch.setRNGState(g, t) is t
    raw = bytes(s.storage().string())
    assert torch.setRNGState(raw) is raw
    with pytest.raises(TypeError, match="ByteTensor"):
        torch.getRNGState(torch.IntTensor(3))
    with pytest.raises(TypeError):
        torch.getRNGState(t, t)


def test_set_rng_state_of_a_view():
    s = torch.getRNGState()
    a = torch.rand(3)
    big = torch.ByteTensor(s.nElement() + 10).fill(9)
    big.narrow(1, 5, s.nElement()).copy(s)
    torch.rand(5)
    torch.setRNGState(big.narrow(1, 5, s.nElement()))
    assert torch.equal(torch.rand(3), a)


def test_multinomial_result_forms_as_lua():
    # Lua: a LongTensor has no multinomial method (res:multinomial(p, 2)
    # calls nil), nor torch.multinomial(res, p, 2) a LongTensor form;
    # p.multinomial(res, p, 2), the docs' form, fills res: with
    # torch.manualSeed(1), {3, 2}, as torch.multinomial(p, 2)
    prob = torch.Tensor([0.1, 0.2, 0.7])
    res = torch.LongTensor()
    with pytest.raises(AttributeError):
        res.multinomial(prob, 2)
    torch.manualSeed(1)
    assert prob.multinomial(res, prob, 2) is res and res.totable() == [3, 2]
    torch.manualSeed(1)
    assert torch.multinomial(prob, 2).totable() == [3, 2]
    # Lua: "torch.LongTensor does not implement the torch.multinomial() function"
    with pytest.raises(TypeError, match="multinomial is not defined for torch.LongTensor"):
        torch.multinomial(res, prob, 2)


def test_multinomial_as_the_class_method_with_res_as_self():
    # Lua: torch.DoubleTensor.multinomial(res, probs, n[, replacement]) is
    # the class's wrapper with self = res (a LongTensor), filled and returned
    # (values from Lua Torch7 with these seeds); self of another type raises
    torch.manualSeed(3)
    res = torch.LongTensor(7).fill(0)
    r = torch.DoubleTensor.multinomial(res, torch.Tensor([1, 2, 3, 4]), 3)
    assert r is res and res.dim() == 1 and res.totable() == [3, 1, 4]
    torch.manualSeed(4)
    r = torch.DoubleTensor.multinomial(
        torch.LongTensor(), torch.Tensor([[1, 2, 3], [3, 2, 1]]), 2, True
    )
    assert r.totable() == [[3, 3], [2, 1]]
    g = torch.Generator()
    torch.manualSeed(g, 9)
    r = torch.FloatTensor.multinomial(
        torch.LongTensor(), g, torch.FloatTensor([0.5, 0.25, 0.25]), 6, True
    )
    assert r.totable() == [1, 1, 2, 1, 1, 1]
    # Lua: "invalid arguments: IntTensor DoubleTensor number boolean"
    with pytest.raises(TypeError, match="multinomial: invalid arguments"):
        torch.DoubleTensor.multinomial(torch.IntTensor(), torch.Tensor([0.1, 0.2, 0.7]), 2, True)


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

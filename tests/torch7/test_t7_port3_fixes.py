"""Behaviours added or fixed for the port of test.lua part 3
(test_lua_port3.py), each checked against real Lua Torch7 (814ea4a): the
expected values below are what Lua printed for the same calls."""

import pytest

import strided as torch


def test_reshape():
    # torch.reshape(x:view(2,3):t(), 6) in Lua: 1 4 2 5 3 6, a copy
    x = torch.range(1, 6)
    r = torch.reshape(x.view(2, 3).t(), 6)
    assert r.tolist() == [1, 4, 2, 5, 3, 6] and r.isContiguous()
    # x:reshape(3,2) is new (x unchanged); y:reshape(x, 2, 3) writes into y
    r = x.reshape(3, 2)
    assert r.tolist() == [[1, 2], [3, 4], [5, 6]] and x.size().tolist() == [6]
    assert r.storage().size() == 6 and torch.pointer(r.storage()) != torch.pointer(x.storage())
    y = torch.Tensor()
    assert y.reshape(x, 2, 3) is y and y.tolist() == [[1, 2, 3], [4, 5, 6]]
    mxx = torch.Tensor()
    assert torch.reshape(mxx, x, torch.LongStorage([2, 3])) is mxx and mxx.size().tolist() == [2, 3]
    # Lua: "inconsistent tensor size ... 8 and 6 elements"
    with pytest.raises(ValueError, match="reshape"):
        torch.reshape(x, 4, 2)


def test_range_as_lua():
    # the length is (long)((y - x) / step + 1) in double: 3 - 2^-52 rounds to 3
    assert torch.range(0, 1 - 2**-53, 0.5).tolist() == [0, 0.5, 1]
    assert torch.range(0, 2.9999999999999996, 1).tolist() == [0, 1, 2]
    # x + i*step in double, then stored as float
    assert torch.range(0, 1, 0.1).tolist()[3] == 0.30000000000000004
    assert torch.FloatTensor().range(0, 1, 0.1).tolist()[6] == 0.60000002384185791
    # integer types: the bounds truncated (cwrap's long), integer arithmetic, wrapping
    assert torch.IntTensor().range(0.5, 3.7).tolist() == [0, 1, 2, 3]
    assert torch.IntTensor().range(1.9, 7.9, 2.9).tolist() == [1, 3, 5, 7]
    assert torch.LongTensor().range(7, -3, -4).tolist() == [7, 3, -1]
    assert torch.ByteTensor().range(250, 260).tolist() == [
        250,
        251,
        252,
        253,
        254,
        255,
        0,
        1,
        2,
        3,
        4,
    ]
    # Lua: "step must be a non-null number" (0.5 is 0 for an IntTensor), "upper
    # bound and larger bound incoherent with step sign"
    for f in (
        lambda: torch.IntTensor().range(0, 3, 0.5),
        lambda: torch.range(0, 3, 0),
        lambda: torch.range(3, 0),
    ):
        with pytest.raises(ValueError, match="range"):
            f()


def test_range_method_writes_into_self():
    # x:range(...) fills x, kept as it is (a non-contiguous view too) when it
    # has that many elements, else resized to 1-D (Lua prints the same)
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    assert y.range(0, 3) is y and y.size().tolist() == [2, 2]
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    z = torch.zeros(2, 3)
    assert z.range(1, 4) is z and z.tolist() == [1, 2, 3, 4]
    mxx = torch.Tensor()
    assert torch.range(mxx, 1, 0, -1) is mxx and mxx.tolist() == [1, 0]


def test_eye_as_lua():
    # x:eye(n, m) fills x; a transposed x of that size keeps its strides (Lua: 1 3)
    x = torch.Tensor(3, 3).fill(7).t()
    assert x.eye(3, 3) is x and x.stride().tolist() == [1, 3]
    assert x.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert torch.LongTensor().eye(2).tolist() == [[1, 0], [0, 1]]
    # m <= 0 is n; the sizes are truncated (cwrap's long); n <= 0 is refused
    assert torch.eye(2, -1).tolist() == [[1, 0], [0, 1]]
    assert torch.eye(2.7, 3.9).tolist() == [[1, 0, 0], [0, 1, 0]]
    mxx = torch.Tensor()
    assert torch.eye(mxx, 2) is mxx and mxx.size().tolist() == [2, 2]
    with pytest.raises(ValueError, match="eye"):
        torch.eye(0)


def test_cat_method():
    # Lua: a:cat(b) is new (a unchanged); res:cat(a, b) and res:cat({a, b})
    # return res; a:cat({b}) makes a the result (Lua prints 3 4 for both)
    a, b = torch.Tensor([1, 2]), torch.Tensor([3, 4])
    c = a.cat(b)
    assert c is not a and c.tolist() == [1, 2, 3, 4] and a.tolist() == [1, 2]
    assert a.cat(b, 1).tolist() == [1, 2, 3, 4]
    res = torch.Tensor()
    assert res.cat(a, b) is res and res.tolist() == [1, 2, 3, 4]
    res = torch.Tensor()
    assert res.cat([a, b]) is res and res.tolist() == [1, 2, 3, 4]
    assert a.cat([b]) is a and a.tolist() == [3, 4]
    # Lua: "invalid arguments: DoubleTensor FloatTensor"
    with pytest.raises(TypeError, match="cat"):
        b.cat(torch.FloatTensor([1]))


def _hex(t):
    return [v.hex() for v in t.tolist()]


def _lua_hex(*values):
    """Lua's string.format('%a') of the elements, read as Python floats."""
    return [float.fromhex(v).hex() for v in values]


def test_linspace_logspace_lua_bits():
    # a + i*(b-a)/(n-1) in the tensor's type (the last point is not forced to b)
    assert _hex(torch.linspace(-1.3, 2.9, 11))[-3:] == _lua_hex(
        "0x1.07ae147ae147cp+1", "0x1.3d70a3d70a3d8p+1", "0x1.7333333333334p+1"
    )
    assert _hex(torch.FloatTensor().linspace(0.1, 0.7, 7)) == _lua_hex(
        "0x1.99999ap-4",
        "0x1.999998p-3",
        "0x1.333332p-2",
        "0x1.999998p-2",
        "0x1.fffffep-2",
        "0x1.333332p-1",
        "0x1.666666p-1",
    )
    # 10^that by libm's scalar pow / powf
    assert _hex(torch.logspace(0.1, 0.7, 7)) == _lua_hex(
        "0x1.4248ef8fc2604p+0",
        "0x1.95bb8f6d46053p+0",
        "0x1.fec982d5bb8afp+0",
        "0x1.41857e9d4cc5fp+1",
        "0x1.94c583ada5b53p+1",
        "0x1.fd93c1f526ddfp+1",
        "0x1.40c28430012e6p+2",
    )
    assert _hex(torch.FloatTensor().logspace(-3.3, 9.7, 5)) == _lua_hex(
        "0x1.06c438p-11", "0x1.c8520ep-1", "0x1.8c392cp+10", "0x1.580a6ep+21", "0x1.2abb12p+32"
    )


def test_linspace_logspace_fill_a_view_in_place():
    # x:linspace(a, b, n) keeps x (non-contiguous too) when it has n elements
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    assert y.linspace(0, 3, 4) is y and y.size().tolist() == [2, 2]
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    x = torch.zeros(2, 3)
    x.narrow(2, 2, 2).logspace(0, 3, 4)
    assert x.tolist() == [[0, 1, 10], [0, 100, 1000]]
    z = torch.zeros(2, 3)
    assert z.linspace(0, 1, 5).tolist() == [0, 0.25, 0.5, 0.75, 1]
    # Lua: "invalid number of points"
    with pytest.raises(ValueError, match="invalid number of points"):
        torch.linspace(0, 1, 1)
    assert torch.linspace(0, 0, 1).tolist() == [0] and torch.logspace(0, 0, 1).tolist() == [1]


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

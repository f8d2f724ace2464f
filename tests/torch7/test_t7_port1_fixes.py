"""Torch7 behaviours fixed while porting test.lua lines 1-1010
(tests/torch7/test_lua_port1.py); the expected values are those real Lua
Torch7 gives for the same calls."""

import pytest

import strided as torch


def test_select_on_a_vector_ignores_the_dimension():
    # Lua: x:select(2, 3), x:select(7, 1), x:select(0, 1) on {10,20,30} give 30 10 10
    x = torch.Tensor([10, 20, 30])
    assert x.select(2, 3) == 30 and x.select(1, 2) == 20
    assert x.select(7, 1) == 10 and x.select(0, 1) == 10
    assert torch.IntTensor([1, 2]).select(2, 2) == 2
    # the index is still checked (Lua: "out of range"), and so is a matrix's dimension
    with pytest.raises(IndexError, match=r"select: index 4 out of range \[1, 3\]"):
        x.select(1, 4)
    with pytest.raises(IndexError, match=r"dim 3 out of range \[1, 2\]"):
        torch.Tensor(2, 3).select(3, 1)


def test_new_is_the_constructor_called_with_the_tensor():
    # Lua: a:new() is torch.DoubleTensor(a): writing e[1] = 9 is seen in a
    a = torch.Tensor([1, 2, 3])
    e = a.new()
    e[1] = 9
    assert a[1] == 9 and e.isSetTo(a)
    # Lua: torch.Tensor():new():dim() is 0; torch.Tensor(2,3):t():new():stride() is {1, 3}
    assert torch.Tensor().new().dim() == 0
    assert torch.Tensor(2, 3).t().new().stride().tolist() == [1, 3]
    assert torch.IntTensor([4, 5]).new().type() == "torch.IntTensor"


def test_lerp_of_numbers_is_a_number():
    # Lua: torch.lerp(1.5, 2.5, 0.25), torch.lerp(-3, 7, 1.5), torch.lerp(1e5, -2e5, 0.3)
    # print 1.75  12  10000; x:lerp(1, 2, 0.5) and torch.lerp(1, 2) are argument errors
    assert torch.lerp(1.5, 2.5, 0.25) == 1.75
    assert torch.lerp(-3, 7, 1.5) == 12
    assert torch.lerp(1e5, -2e5, 0.3) == pytest.approx(10000, abs=1e-9)
    assert isinstance(torch.lerp(1, 2, 0.5), float)
    with pytest.raises(TypeError, match="lerp"):
        torch.Tensor(2).lerp(1, 2, 0.5)
    with pytest.raises(TypeError, match="lerp"):
        torch.lerp(1, 2)

"""Lua Torch7 behaviours fixed while porting test.lua's lines 3110-3992
(test_lua_port5.py); each expected value is what Lua Torch7 gives."""
import pytest

import strided as torch


def test_float_sizes_truncate_as_lua():
    # Lua: torch.ones(2.5):size() is 2, torch.Tensor(2.7, 3):size() is 2x3,
    # torch.zeros(torch.Tensor{3, 3, 3}:prod(1)[1]) has 27 elements
    assert torch.ones(2.5).size().totable() == [2]
    assert torch.Tensor(2.7, 3.0).size().totable() == [2, 3]
    assert torch.zeros(torch.Tensor([3, 3, 3]).prod(1)[1]).nElement() == 27
    assert torch.range(1, 15).view(3.0, -1.0).size().totable() == [3, 5]
    with pytest.raises(TypeError, match="size 1 must be an integer"):
        torch.ones(float("nan"))

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

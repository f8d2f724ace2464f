"""utility.md's isTypeOf, isequal, pointer and timer.md's Timer."""
import time

import pytest

import strided as torch


def test_type_predicates_and_pointer():
    x = torch.Tensor(2, 2)
    assert torch.isTypeOf(x, "torch.DoubleTensor") and torch.isTypeOf(x, torch.DoubleTensor)
    assert torch.isTypeOf(x, "torch.*Tensor") and not torch.isTypeOf(x, "torch.FloatTensor")
    # Lua: isTypeOf(storage, 'Storage') is false (a literal must match the whole name)
    assert not torch.isTypeOf(x, torch.FloatTensor) and torch.isTypeOf(x.storage(), ".*Storage")
    assert not torch.isTypeOf(x.storage(), "Storage")
    with pytest.raises(TypeError, match="typeSpec must be"):
        torch.isTypeOf(x, 3)
    assert torch.isequal(x, x) and not torch.isequal(x, torch.Tensor(2, 2))
    assert torch.pointer(x) == torch.pointer(x) and torch.pointer(x) != torch.pointer(x.t())
    assert torch.pointer(x.storage()) == torch.pointer(x.t().storage())


def test_timer_counts_while_running():
    t = torch.Timer()
    time.sleep(0.02)
    r = t.stop().time()
    assert set(r) == {"real", "user", "sys"} and r["real"] >= 0.015
    time.sleep(0.02)
    assert t.time()["real"] == r["real"]                 # stopped: nothing accrues
    assert t.resume() is t and t.time()["real"] >= r["real"]
    assert t.reset().time()["real"] < r["real"]

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
    assert t.time()["real"] == r["real"]  # stopped: nothing accrues
    assert t.resume() is t and t.time()["real"] >= r["real"]
    assert t.reset().time()["real"] < r["real"]


# ---- utility.md's newmetatable, setmetatable, version (values from Lua Torch7:
# version of a tensor is 1, of a number nothing; a new class's is 1 until set;
# setmetatable with an unknown name: "unknown typename NoSuch")


def test_version_as_lua():
    assert torch.version(torch.Tensor()) == 1
    assert torch.version(torch.LongStorage(2)) == 1
    assert torch.version(3) is None
    assert torch.version({"__version": 7}) is None  # a plain table: no metatable
    cls, _ = torch.class_("VersionedT7")
    try:
        assert torch.version(cls()) == 1
        cls.__version = 3
        assert torch.version(cls()) == 3
    finally:
        del torch.torch7.utility.registry["VersionedT7"]


def test_newmetatable_registers_a_class():
    parent, _ = torch.class_("NmParentT7")
    try:
        cls = torch.newmetatable("NmChildT7", "NmParentT7")
        assert issubclass(cls, parent)
        assert torch.getmetatable("NmChildT7") is cls
        assert torch.typename(torch.factory("NmChildT7")()) == "NmChildT7"
        assert torch.isTypeOf(cls(), "NmParentT7")
        with pytest.raises(ValueError):
            torch.newmetatable("NmChildT7")  # taken
        with pytest.raises(ValueError):
            torch.newmetatable("NmOtherT7", "NoSuchParentT7")
    finally:
        for n in ("NmParentT7", "NmChildT7"):
            torch.torch7.utility.registry.pop(n, None)


def test_newmetatable_constructor_in_package():
    import types
    import sys

    pkg = types.ModuleType("nmpkg_t7")
    sys.modules["nmpkg_t7"] = pkg
    try:
        cls = torch.newmetatable("nmpkg_t7.Thing", None, lambda: 42)
        assert pkg.Thing() == 42  # the constructor, as Lua
        assert torch.typename(torch.factory("nmpkg_t7.Thing")()) == "nmpkg_t7.Thing"
        assert isinstance(cls, type)
    finally:
        del sys.modules["nmpkg_t7"]
        torch.torch7.utility.registry.pop("nmpkg_t7.Thing", None)


def test_setmetatable_makes_an_object_of_the_table():
    cls, _ = torch.class_("SmPointT7")
    calls = []
    cls.__init__ = lambda self, *a: calls.append(a)
    cls.norm1 = lambda self: abs(self.x) + abs(self.y)
    try:
        shared = [1, 2]
        p = torch.setmetatable({"x": 3, "y": -4, "s": shared}, "SmPointT7")
        assert torch.typename(p) == "SmPointT7" and isinstance(p, cls)
        assert p.norm1() == 7 and p.s is shared and calls == []  # no __init__
        with pytest.raises(ValueError, match="unknown typename NoSuch"):
            torch.setmetatable({}, "NoSuch")
        with pytest.raises(TypeError, match="built-in"):
            torch.setmetatable({}, "torch.DoubleTensor")
        with pytest.raises(TypeError, match="must be a dict"):
            torch.setmetatable([1], "SmPointT7")
    finally:
        del torch.torch7.utility.registry["SmPointT7"]

"""utility.md on the Torch7 face as Lua Torch7 has it: torch.class,
type and typename, isTypeOf, the default tensor type, heap tracking,
isequal, pointer, and timer.md's Timer."""

import sys
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
    import sys
    import types

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


def test_isTypeOf_literal_must_be_the_whole_name():
    # Lua: a spec whose match is the spec itself must equal the type name:
    # isTypeOf(LongTensor, 'torch.Long') and isTypeOf(DoubleStorage,
    # 'Storage') are false, '.*Long' and '.*Storage' true; the walk goes up
    # the parents (a MemoryFile is a 'torch.File')
    t = torch.LongTensor()
    assert not torch.isTypeOf(t, "torch.Long") and torch.isTypeOf(t, ".*Long")
    assert not torch.isTypeOf(t, "LongTensor") and torch.isTypeOf(t, "torch.LongTensor")
    assert not torch.isTypeOf(torch.DoubleStorage(), "Storage")
    assert torch.isTypeOf(torch.DoubleStorage(), ".*Storage")
    assert torch.isTypeOf(torch.MemoryFile(), "torch.File")
    assert not torch.isTypeOf(torch.MemoryFile(), "torch.DiskFile")


def test_setheaptracking_as_lua():
    # Lua: torch._heaptracking is true once torch is loaded;
    # torch.setheaptracking(false) makes it false; a non-boolean raises
    old = torch._heaptracking
    try:
        torch.setheaptracking(True)
        assert torch._heaptracking is True
        torch.setheaptracking(False)
        assert torch._heaptracking is False
        with pytest.raises(TypeError, match="True or False"):
            torch.setheaptracking(1)
    finally:
        torch.setheaptracking(old)


def test_heaptracking_is_on_at_import():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import strided; print(strided._heaptracking)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "True"


def test_real_is_the_default_type():
    # Lua: torch.FloatTensor(2):real():type() is torch.DoubleTensor, a
    # DoubleTensor's real() is itself; after setdefaulttensortype('torch.FloatTensor')
    # torch.IntTensor(2):real():type() is torch.FloatTensor
    assert torch.FloatTensor(2).real().type() == "torch.DoubleTensor"
    d = torch.DoubleTensor(2)
    assert d.real() is d
    torch.setdefaulttensortype("torch.FloatTensor")
    try:
        assert torch.IntTensor(2).real().type() == "torch.FloatTensor"
    finally:
        torch.setdefaulttensortype("torch.DoubleTensor")


def test_type_and_typename_as_lua():
    # Lua: torch.type of a Generator, Timer, MemoryFile is its class name;
    # torch.typename of {} / nil / a class (a constructor table) is nil and
    # torch.type gives Lua's names: table, nil, number, string, boolean,
    # function
    assert torch.type(torch.Generator()) == torch.typename(torch.Generator()) == "torch.Generator"
    assert torch.type(torch.Timer()) == "torch.Timer"
    assert torch.type(torch.MemoryFile()) == "torch.MemoryFile"
    assert torch.typename(torch.DoubleTensor) is None
    assert torch.typename({}) is None and torch.typename(None) is None
    values = [{}, [1], None, 2, 1.5, "asdf", True, print, lambda: 0]
    names = [
        "table",
        "table",
        "nil",
        "number",
        "number",
        "string",
        "boolean",
        "function",
        "function",
    ]
    assert [torch.type(v) for v in values] == names
    assert torch.type(torch.LongStorage([1])) == "torch.LongStorage"


def test_class_as_lua():
    # utility.md's Foo / torch.Bar example; Lua: bar:print() prints the
    # contents and the stuff, torch.typename(bar) is torch.Bar, isTypeOf(bar,
    # 'Foo') is true; torch.factory('torch.Bar')() is an object of that class
    # whose __init was not called; a second torch.class('Foo') raises; an
    # unknown parent or package raises
    from strided.torch7 import utility

    try:
        Foo, parent = torch.class_("_P5Foo")
        assert parent is None

        def foo_init(self):
            self.contents = "this is some text"

        Foo.__init__ = foo_init
        Foo.text = lambda self: self.contents

        Bar, parent = torch.class_("torch._P5Bar", "_P5Foo")
        assert parent is Foo and torch._P5Bar is Bar

        def bar_init(self, stuff):
            parent.__init__(self)
            self.stuff = stuff

        Bar.__init__ = bar_init
        bar = torch._P5Bar("ha ha!")
        assert (bar.text(), bar.stuff) == ("this is some text", "ha ha!")
        assert torch.typename(bar) == torch.type(bar) == "torch._P5Bar"
        assert torch.isTypeOf(bar, "_P5Foo") and torch.isTypeOf(bar, Foo)
        assert not torch.isTypeOf(Foo(), "torch._P5Bar")
        assert torch.getmetatable("torch._P5Bar") is Bar
        empty = torch.factory("torch._P5Bar")()
        assert type(empty) is Bar and vars(empty) == {}
        assert torch.factory("torch.DoubleTensor")().dim() == 0
        assert torch.factory("torch.Timer") is None and torch.factory("_P5nope") is None
        assert torch.getmetatable("_P5nope") is None
        with pytest.raises(ValueError, match="already a Torch class"):
            torch.class_("_P5Foo")
        with pytest.raises(ValueError, match="invalid parent class name"):
            torch.class_("_P5C", "_P5nope")
        with pytest.raises(ValueError, match="_P5nomod is an invalid module name"):
            torch.class_("_P5nomod.C")
        with pytest.raises(TypeError, match="<class name>"):
            torch.class_(3)
        module = {}
        X, _ = torch.class_("_P5X", module)  # Lua: module.X = the class
        assert module["_P5X"] is X
    finally:
        for name in ("_P5Foo", "torch._P5Bar", "_P5X"):
            utility.registry.pop(name, None)
        sys.modules["strided"].__dict__.pop("_P5Bar", None)


def test_default_type_follows_everywhere():
    try:
        torch.setdefaulttensortype("torch.FloatTensor")
        for t in [
            torch.Tensor(2),
            torch.zeros(2),
            torch.ones(2),
            torch.rand(2),
            torch.randn(2),
            torch.range(1, 3),
        ]:
            assert t.type() == "torch.FloatTensor"
        assert torch.Storage(2).type() == "torch.FloatStorage"
    finally:
        torch.setdefaulttensortype("torch.DoubleTensor")

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


def test_reshape_as_lua():
    # Lua: x:reshape(2, 3) is a new 2x3 tensor of x's elements, x unchanged;
    # z:reshape(x, 3, 2) fills z and returns it; a transposed source is read
    # row-major; a wrong element count or -1 raises
    x = torch.range(1, 6)
    y = x.reshape(2, 3)
    assert y.totable() == [[1, 2, 3], [4, 5, 6]]
    assert x.size().totable() == [6] and not x.isSetTo(y)
    y.fill(0)
    assert x.totable() == [1, 2, 3, 4, 5, 6]
    z = torch.Tensor()
    assert z.reshape(x, 3, 2) is z and z.totable() == [[1, 2], [3, 4], [5, 6]]
    assert torch.reshape(x, torch.LongStorage([3, 2])).size().totable() == [3, 2]
    assert torch.IntTensor([[1, 2], [3, 4]]).t().reshape(4).totable() == [1, 3, 2, 4]
    with pytest.raises(ValueError, match="8 elements"):
        torch.reshape(x, 4, 2)
    with pytest.raises(ValueError):
        torch.reshape(x, -1, 2)


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


def test_class_as_lua():
    # utility.md's Foo / torch.Bar example; Lua: bar:print() prints the
    # contents and the stuff, torch.typename(bar) is torch.Bar, isTypeOf(bar,
    # 'Foo') is true; torch.factory('torch.Bar')() is an object of that class
    # whose __init was not called; a second torch.class('Foo') raises; an
    # unknown parent or package raises
    import sys
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


def test_serializeToStorage_as_lua():
    # Lua: torch.serializeToStorage({6, a = 42}) is a CharStorage of 57 bytes,
    # those of torch.serialize; serializeToStorage(1.0) holds the bytes
    # 1,0,0,0,0,0,0,0,0,0,-16,63; 3.5 in 'ascii' takes 6; a ByteStorage raises
    s = torch.serializeToStorage({1: 6, "a": 42})
    assert torch.type(s) == "torch.CharStorage" and s.size() == 57
    assert s.size() == len(torch.serialize({1: 6, "a": 42}))
    assert torch.deserializeFromStorage(s) == {1: 6, "a": 42}
    assert torch.serializeToStorage(1.0).totable() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -16, 63]
    assert torch.serializeToStorage(3.5).size() == 12
    a = torch.serializeToStorage(3.5, "ascii")
    assert a.size() == 6 and torch.deserializeFromStorage(a, "ascii") == 3.5
    t = torch.range(1, 4)
    assert torch.deserializeFromStorage(torch.serializeToStorage(t)).totable() == [1, 2, 3, 4]
    with pytest.raises(TypeError, match="CharStorage"):
        torch.deserializeFromStorage(torch.ByteStorage(12))


def test_float_dims_and_indices_truncate_as_lua():
    # Lua's numbers are doubles, truncated where an integer is wanted:
    # x:sum(2.0)[2][1] 15, x:select(1, 2.7)[1] 4, x:narrow(2, 2.5, 2.9):size(2)
    # 2, x[2.9][1] 4, x[{1.5, 3.2}] 3, x:size(1.9) 2, x:permute(2.0, 1.0):size(1)
    # 3, x:storage()[2.5] 2, x:sub(1.2, 1.8, 2.1, 3.9):size(2) 2,
    # torch.cat(x, x, 1.5):size(1) 4, x[{{1.5, 2.5}}]:size(1) 2,
    # x:split(2.5, 2.0)[1]:size(2) 2; x[0/0] raises
    x = torch.range(1, 6).view(2, 3)
    assert x.sum(2.0).totable()[1][0] == 15
    assert x.select(1, 2.7)[1] == 4
    assert x.narrow(2, 2.5, 2.9).size(2) == 2
    assert x[2.9][1] == 4 and x[1.5, 3.2] == 3
    assert x.size(1.9) == 2 and x.permute(2.0, 1.0).size(1) == 3
    assert x.storage()[2.5] == 2
    assert x.sub(1.2, 1.8, 2.1, 3.9).size(2) == 2
    assert torch.cat(x, x, 1.5).size(1) == 4
    assert x[[1.5, 2.5]].size(1) == 2
    assert x.split(2.5, 2.0)[0].size(2) == 2
    assert x.permute(*torch.Tensor([2, 1]).totable()).size().totable() == [3, 2]
    with pytest.raises(TypeError, match="must be an integer"):
        x[float("nan")]
    assert x[1.5].totable() == x[1].totable()  # Lua: x[1.5] is x[1]
    assert x.cumsum(2.5).totable() == x.cumsum(2).totable()


def test_totable_of_a_storage_as_lua():
    # Lua: torch.totable(torch.FloatStorage{1, 2, 3}) is {1, 2, 3};
    # torch.totable(3) raises 'obj must be a Storage or a Tensor'
    assert torch.totable(torch.FloatStorage([1, 2, 3])) == [1, 2, 3]
    assert torch.totable(torch.Tensor([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    with pytest.raises(TypeError, match="obj must be a Storage or a Tensor"):
        torch.totable(3)

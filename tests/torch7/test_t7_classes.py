"""Torch7 face: `.t7` files of Lua classes, as models and checkpoints are
(issue 27).  The fixtures in data/ were written by real Lua Torch7
(gen_classes.lua, its classes in classes.lua); their `.dump` files are
Lua's own description of what it loads (dump.lua), which what strided
loads must match.  With STRIDED_LUA_TORCH set, Lua Torch7 also reads the
files strided writes and must describe the same; torchfile (PyPI) reads
them too."""

import io
import math
import os
import pickle
import re
import struct
import subprocess
import types

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import strided as torch
from strided.torch7.t7object import TableKey, TorchObject, generic_class

DATA = os.path.join(os.path.dirname(__file__), "data")
# (not_plain/: what a plain torch.load does not load: a class with its own
# format, 32-bit longs, a Lua function)
FIXTURES = [
    ("lua_model.t7", "binary"),
    ("lua_model_ascii.t7", "ascii"),
    ("lua_checkpoint.t7", "binary"),
    ("not_plain/lua_pair.t7", "binary"),
    ("not_plain/lua_long4.t7", "b32"),
    ("lua_table_keys.t7", "binary"),
    ("lua_table_keys_ascii.t7", "ascii"),
]


def data(name):
    return os.path.join(DATA, name)


# ---------------------------------------------------------------- dump.lua in Python


def _str(b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    return f'"{b.decode()}"' if re.fullmatch(rb"[A-Za-z0-9_]*", b) else "x" + b.hex()


def _num(x):
    return "%.17g" % x


def _fields(o):
    """(Lua class name or 'table', {Lua key: value}) of a table or object."""
    if isinstance(o, (list, tuple)):
        return "table", {i: v for i, v in enumerate(o, 1)}
    if isinstance(o, TorchObject):
        return o._typename, dict(o)
    if isinstance(o, dict):
        return "table", o
    return torch.typename(o), vars(o)


def _order(k):
    if isinstance(k, bool):
        return (3, k, b"")
    if isinstance(k, (int, float)):
        return (1, k, b"")
    if isinstance(k, (str, bytes)):
        return (2, 0, k.encode("utf-8") if isinstance(k, str) else k)
    return (4, 0, b"")  # a table (TableKey), tensor or object: described in place


def dump(obj):
    """dump.lua's description of a loaded object (its numbering, its order)."""
    ids = {}

    def seen(key):
        if key in ids:
            return f"ref {ids[key]}"
        ids[key] = len(ids) + 1
        return None

    def storage(s):
        r = seen(("S", torch.pointer(s)))
        if r:
            return r
        values = " ".join(_num(v) for v in s.tolist())
        return f"#{ids[('S', torch.pointer(s))]} {s.type()} [{values}]"

    def go(o, indent):
        if o is None:
            return "nil"
        if isinstance(o, bool):
            return "true" if o else "false"
        if isinstance(o, (int, float)):
            return _num(o)
        if isinstance(o, (str, bytes)):
            return _str(o)
        if torch.isStorage(o):
            return storage(o)
        r = seen(id(o))
        if r:
            return r
        n = ids[id(o)]
        if torch.isTensor(o):
            if o.dim() == 0:
                return f"#{n} {o.type()} empty"
            size = " ".join(map(str, o.size().tolist()))
            stride = " ".join(map(str, o.stride().tolist()))
            return (
                f"#{n} {o.type()} size {{{size}}} stride {{{stride}}} offset "
                f"{o.storageOffset()} storage {storage(o.storage())}"
            )
        name, fields = _fields(o)
        lines = [f"#{n} {name} {{"]
        for k in sorted(fields, key=_order):
            key = (
                _str(k)
                if isinstance(k, (str, bytes))
                else go(k, "")
                if isinstance(k, (bool, int, float))
                else f"[{go(k.table if isinstance(k, TableKey) else k, indent + '  ')}]"
            )
            lines.append(f"{indent}  {key} = {go(fields[k], indent + '  ')}")
        lines.append(f"{indent}}}")
        return "\n".join(lines)

    return go(obj, "")


def lua_dump(name):
    with open(data(name[:-3] + ".dump")) as f:
        return f.read().rstrip("\n")


@pytest.fixture
def pair_class():
    """test.Pair as classes.lua defines it (its own read and write, version 2),
    registered for the test."""
    test = types.ModuleType("test_pair_ns")
    Pair, _ = torch.class_("test.Pair", test)

    def write(self, f):
        f.writeInt(self.a)
        f.writeObject(self.b)

    def read(self, f, version):
        self.a = f.readInt()
        self.b = f.readObject()
        self.version = version

    Pair.write, Pair.read = write, read
    setattr(Pair, "__version", 2)
    return Pair  # (_forget_classes removes it)


@pytest.fixture(autouse=True)
def _forget_classes():
    from strided.torch7.utility import registry

    yield
    registry.pop("test.Pair", None)
    for name in [n for n in registry if n.startswith("nn.")]:
        registry.pop(name)


# ---------------------------------------------------------------- Lua's files load as Lua has them


@pytest.mark.parametrize("name,mode", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_lua_files_load_as_lua_has_them(name, mode, pair_class):
    assert dump(torch.load(data(name), mode)) == lua_dump(name)


def test_model_structure():
    m = torch.load(data("lua_model.t7"))
    assert torch.typename(m) == torch.type(m) == "nn.Sequential"
    assert isinstance(m, TorchObject) and type(m) is generic_class("nn.Sequential")
    assert [torch.typename(x) for x in m.modules] == [
        "nn.Linear",
        "nn.Tanh",
        "nn.Linear",
        "nn.Linear",
    ]
    lin = m.modules[0]
    assert lin is m.modules[3] and m.self is m and m["self"] is m
    assert m.tied is lin.weight and m.wview.storage() is lin.weight.storage()
    np.testing.assert_array_equal(
        np.array(lin.weight.tolist()), np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    )
    assert lin.bias.tolist() == [-1, -2] and m.train is True
    assert torch.isTypeOf(lin, "nn.Linear") and not torch.isTypeOf(lin, "nn.Module")
    assert sorted(m) == ["gradInput", "modules", "output", "self", "tied", "train", "wview"]


def test_checkpoint_values():
    c = torch.load(data("lua_checkpoint.t7"))
    assert c["opt"] == {
        "rnn_size": 4,
        "learning_rate": 0.002,
        "seq_length": 50,
        "savefile": "lstm",
        "gpuid": -1,
        "init_from": "",
        "dropout": 0,
    }
    assert c["train_losses"] == [1.5, 1.25, 0.875] and c["val_losses"] == {100: 1.2, 200: 1.1}
    assert c["vocab"] == {"a": 1, "b": 2, "\n": 3, b"\xff\x00": 4}  # bytes when not UTF-8
    assert c["flags"] == {"yes": True, "no": False}
    nums = c["numbers"]
    assert [type(v) for v in nums] == [int, float, int, int, float, float, float, float]
    assert nums[0] == 0 and math.copysign(1, nums[1]) < 0 and nums[2] == 2**53
    assert nums[4] == 1e300 and nums[6] == math.inf and nums[7] == -math.inf
    assert c["loops"]["me"] is c["loops"]
    assert c["longs"].tolist() == [[1, -2], [2**40, 3]] and c["bytes"].tolist() == [0, 255]
    assert c["i"] == 200 and type(c["i"]) is int and c["epoch"] == 3.5


def test_registered_classes_are_instantiated():
    nn = types.ModuleType("nn_ns")
    Module, _ = torch.class_("nn.Module", nn)
    Linear, _ = torch.class_("nn.Linear", "nn.Module", nn)
    inits = []
    Linear.__init__ = lambda self, *a: inits.append(a)
    m = torch.load(data("lua_model.t7"))
    lin = m.modules[0]
    assert type(lin) is Linear and isinstance(lin, Module) and not inits  # no __init__
    assert torch.isTypeOf(lin, "nn.Module") and lin.bias.tolist() == [-1, -2]
    assert type(m.modules[1]) is generic_class("nn.Tanh")  # still unregistered
    assert dump(m) == lua_dump("lua_model.t7")


def test_read_and_write_methods(pair_class):
    p = torch.load(data("not_plain/lua_pair.t7"))
    assert type(p[0]) is pair_class and p[0] is p[1]
    assert p[0].a == 7 and p[0].version == 2 and p[0].b["x"].tolist() == [1.5, -2]
    for mode in ("binary", "ascii"):
        back = torch.deserialize(torch.serialize(p, mode), mode)
        assert dump(back) == lua_dump("not_plain/lua_pair.t7")
    buf = io.BytesIO()
    torch.save(buf, p)
    assert b"V 2" in buf.getvalue()  # the class's __version


def test_class_writing_its_own_format_needs_its_read():
    with pytest.raises(
        ValueError,
        match=r"test.Pair at byte \d+: its body .* not a table of "
        r"fields .* read method",
    ):
        torch.load(data("not_plain/lua_pair.t7"))


def test_lua_function_names_the_field():
    with pytest.raises(
        ValueError,
        match=r"cannot load obj\['layer'\]\['fn'\]: it is a Lua "
        r"function \(type tag 8 at byte \d+\)",
    ):
        torch.load(data("not_plain/lua_function.t7"))
    f = torch.MemoryFile("rw").ascii()
    f.writeInt(6)
    f.writeInt(3)
    f.writeChar(torch.CharStorage([1, 2, 3]))
    f.seek(1)
    with pytest.raises(ValueError, match=r"cannot load obj: it is a Lua function \(type tag 6"):
        f.readObject()


def test_table_keys():
    t = torch.load(data("lua_table_keys.t7"))
    k = t["keys"]
    assert k == [1, 2] and t[TableKey(k)] == "first" and t["inner"] == {TableKey(k): k}
    assert next(iter(t["inner"])).table is k and TableKey(k) != TableKey([1, 2])
    assert hash(TableKey(k)) == hash(TableKey(k)) and repr(TableKey(k)) == "TableKey([1, 2])"
    lin = t["byobj"]["module"]
    assert t["byobj"][TableKey(lin)] == "a module as key"
    ((x, inner),) = t["nested"].items()
    assert x.table == {"x": 1} and [(k.table, v) for k, v in inner.items()] == [([], True)]
    assert t["self"] == {TableKey(t): "the root as a key"}
    back = torch.deserialize(torch.serialize(t))
    assert dump(back) == lua_dump("lua_table_keys.t7")
    assert pickle.loads(pickle.dumps(TableKey([1]))).table == [1]


# ---------------------------------------------------------------- the generic class


def test_generic_objects():
    Lin = generic_class("nn.Linear")
    assert generic_class("nn.Linear") is Lin and Lin.__name__ == "Linear"
    o = Lin(weight=torch.Tensor([1, 2]))
    o.bias = 3
    assert o["bias"] == 3 and o.weight is o["weight"] and list(o) == ["weight", "bias"]
    assert "bias" in dir(o)
    del o.bias
    with pytest.raises(AttributeError, match="nn.Linear object has no field 'bias'"):
        o.bias
    assert torch.typename(o) == torch.type(o) == "nn.Linear" and torch.version(o) == 1
    assert repr(Lin(n=1)) == "nn.Linear({'n': 1})"
    assert Lin(n=1) == Lin(n=1) and Lin(n=1) != generic_class("nn.Other")(n=1) != {"n": 1}
    p = pickle.loads(pickle.dumps(Lin(n=1, s="x")))
    assert type(p) is Lin and p == Lin(n=1, s="x")
    weird = generic_class("my-class")
    assert torch.typename(weird()) == "my-class"


def test_generic_objects_round_trip():
    m = torch.load(data("lua_model.t7"))
    for mode in ("binary", "ascii"):
        assert dump(torch.deserialize(torch.serialize(m, mode), mode)) == lua_dump("lua_model.t7")
    for referenced in (True, False):
        o = generic_class("x.Y")(a=1)
        back = torch.deserialize(
            torch.serialize([o, o], referenced=referenced), referenced=referenced
        )
        assert (back[0] is back[1]) == referenced and back[0] == o


def test_version_read_is_written_back():
    o = torch.deserialize(
        b"".join(
            [
                struct.pack("<ii", 4, 1),
                _lstr(b"V 3"),
                _lstr(b"v.Three"),
                struct.pack("<iii", 3, 2, 0),
            ]
        )
    )
    assert torch.version(o) == 3 and b"V 3" in torch.serialize(o)
    legacy = torch.deserialize(
        struct.pack("<ii", 4, 1) + _lstr(b"old.Class") + struct.pack("<iii", 3, 2, 0)
    )
    assert torch.typename(legacy) == "old.Class"


def test_unwritable_fields_warn_and_are_left_out():
    Thing, _ = torch.class_("nn.Thing", types.ModuleType("nn_ns"))
    t = Thing()
    t.n, t.f = 2, (lambda: 1)
    with pytest.warns(UserWarning, match="cannot write object field <f> of <nn.Thing>"):
        back = torch.deserialize(torch.serialize(t))
    assert vars(back) == {"n": 2}


def test_cyclic_tables_stay_shared():
    t = [1]
    t.append({"up": t})
    back = torch.deserialize(torch.serialize(t))
    assert back[2]["up"] is back and back[1] == 1  # a dict: keys 1, 2, as Lua's
    s = [0]
    s[0] = s
    back = torch.deserialize(torch.serialize(s))
    assert back[1] is back


# ---------------------------------------------------------------- legacy and odd content


def _lstr(b):
    return struct.pack("<i", len(b)) + b


def _head(index, cls):
    return struct.pack("<ii", 4, index) + _lstr(b"V 1") + _lstr(cls)


@pytest.mark.parametrize(
    "cuda,cpu,fmt",
    [
        ("Cuda", "Float", "<2f"),
        ("CudaDouble", "Double", "<2d"),
        ("CudaLong", "Long", "<2q"),
        ("CudaByte", "Byte", "<2B"),
    ],
)
def test_cuda_types_load_as_cpu_types(cuda, cpu, fmt):
    data = (
        _head(1, f"torch.{cuda}Tensor".encode())
        + struct.pack("<i", 1)
        + struct.pack("<3q", 2, 1, 1)
        + _head(2, f"torch.{cuda}Storage".encode())
        + struct.pack("<q", 2)
        + struct.pack(fmt, 1, 2)
    )
    t = torch.deserialize(data)
    assert t.type() == f"torch.{cpu}Tensor" and t.tolist() == [1, 2]


def test_long4_file():
    o = torch.load(data("not_plain/lua_long4.t7"), "b32")
    assert (
        o["n"] == 3 and o["w"].tolist() == [[1, 3], [2, 4]] and o["w"].stride().tolist() == [1, 2]
    )


# ---------------------------------------------------------------- streams and files


def test_stream_is_left_after_the_object(tmp_path):
    big = torch.FloatTensor(100000).uniform()
    buf = io.BytesIO()
    torch.save(buf, {"a": big, "b": "x"})
    torch.save(buf, [1, 2])
    buf.seek(0)
    first = torch.load(buf)
    assert first["a"].tolist() == big.tolist() and torch.load(buf) == [1, 2]
    p = str(tmp_path / "two.t7")
    with open(p, "wb") as f:
        torch.save(f, big)
        torch.save(f, "end")
    with open(p, "rb") as f:
        assert torch.equal(torch.load(f), big) and torch.load(f) == "end"


def test_diskfile_reads_storages_straight(tmp_path):
    p = str(tmp_path / "d.t7")
    x = torch.DoubleTensor(50000).uniform()
    torch.save(p, [x, x.narrow(1, 3, 10)])
    with torch.DiskFile(p).binary() as f:
        a, b = f.readObject()
    assert a.tolist() == x.tolist() and b.storage() is a.storage()
    with torch.DiskFile(p).binary() as f:
        f.seek(200)
        s = f.readDouble(40000)
        assert s.size() == 40000
    with open(p, "rb+") as h:
        h.truncate(os.path.getsize(p) - 8)
    with torch.DiskFile(p).binary() as f, pytest.raises(ValueError, match="truncated"):
        f.readObject()
    with torch.DiskFile(p).binary().quiet() as f:
        f.seek(200)
        s = f.readDouble(60000)
        assert f.hasError() and s.size() < 60000


def test_model_truncated_anywhere_raises(tmp_path):
    raw = open(data("lua_model.t7"), "rb").read()
    p = str(tmp_path / "cut.t7")
    for cut in range(0, len(raw), 7):
        with open(p, "wb") as f:
            f.write(raw[:cut])
        with pytest.raises(ValueError, match="truncated"):
            torch.load(p)
        with pytest.raises(ValueError, match="truncated"):
            torch.deserialize(raw[:cut])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_corrupted_model_raises_clearly(d):
    raw = bytearray(open(data("lua_checkpoint.t7"), "rb").read())
    for _ in range(d.draw(st.integers(1, 4))):
        raw[d.draw(st.integers(0, len(raw) - 1))] = d.draw(st.integers(0, 255))
    for read in (torch.deserialize, lambda b: torch.load(io.BytesIO(b))):  # bytes, stream
        try:
            read(bytes(raw))
        except ValueError as e:  # never another exception, never a crash
            assert str(e)


# ---------------------------------------------------------------- other readers of our files


def test_torchfile_reads_our_model(tmp_path):
    torchfile = pytest.importorskip("torchfile", reason="torchfile (PyPI) is not installed")
    m = torch.load(data("lua_model.t7"))
    p = str(tmp_path / "m.t7")
    torch.save(p, m)
    t = torchfile.load(p, use_list_heuristic=False)
    assert t.torch_typename() == b"nn.Sequential"
    lin = t[b"modules"][1]
    assert lin.torch_typename() == b"nn.Linear" and lin is t[b"modules"][4] and t[b"self"] is t
    np.testing.assert_array_equal(lin[b"weight"], np.array(m.modules[0].weight.tolist()))
    np.testing.assert_array_equal(t[b"wview"], np.array(m.wview.tolist()))
    c = torch.load(data("lua_checkpoint.t7"))
    torch.save(p, c)
    t = torchfile.load(p, use_list_heuristic=False)
    assert t[b"opt"][b"learning_rate"] == 0.002 and t[b"vocab"][b"\xff\x00"] == 4
    np.testing.assert_array_equal(t[b"longs"], np.array([[1, -2], [2**40, 3]]))
    torch.save(p, torch.load(data("lua_table_keys.t7")))  # tables as keys
    t = torchfile.load(p, use_list_heuristic=False)
    k = t[b"keys"]
    assert t[k] == b"first" and t[b"inner"][k] is k and t[b"self"][t] == b"the root as a key"


def _lua():
    prefix = os.environ.get("STRIDED_LUA_TORCH")
    if not prefix:
        pytest.skip("STRIDED_LUA_TORCH is not set (the prefix of a Lua Torch7 install)")
    path = os.path.join(prefix, "bin", "lua-torch")
    if not os.access(path, os.X_OK):
        pytest.skip(f"no Lua Torch7 interpreter at {path}")
    return path


@pytest.mark.parametrize("name,mode", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_lua_reads_what_we_write(name, mode, tmp_path, pair_class):
    lua = _lua()
    obj = torch.load(data(name), mode)
    save_mode = "ascii" if mode == "ascii" else "binary"
    p = str(tmp_path / "ours.t7")
    torch.save(p, obj, save_mode)
    out = subprocess.run(
        [lua, os.path.join(DATA, "dump.lua"), p, save_mode],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.rstrip("\n") == lua_dump(name)

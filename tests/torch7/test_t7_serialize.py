"""Torch7 face: strided.save / strided.load in Torch7's binary `.t7`
format.  Files we write are checked with `torchfile` (an independent
reader from PyPI); hand-built byte strings, laid out as Lua Torch writes
them, check the reader."""

import hashlib
import io
import os
import pickle
import struct
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from t7util import NUMPY_OF, TYPES

import strided as torch

torchfile = pytest.importorskip("torchfile")


def npy(t):
    return np.array(t.tolist(), dtype=NUMPY_OF[t.type().split(".")[1]])


def rt(obj, **kw):
    return torch.deserialize(torch.serialize(obj, **kw), **kw)


def via_file(obj, tmp_path, name="x.t7", **kw):
    """What strided and torchfile read from the file strided wrote.  (Lists
    of arrays need torchfile's use_list_heuristic=False: its list check
    compares elements with == and numpy refuses.)"""
    p = tmp_path / name
    torch.save(str(p), obj)
    return torch.load(str(p)), torchfile.load(str(p), **kw)


def geometry(t):
    return (t.type(), t.size().tolist(), t.stride().tolist(), t.storageOffset())


# ---------------------------------------------------------------- hand-built files


def i32(v):
    return struct.pack("<i", v)


def i64(*v):
    return struct.pack(f"<{len(v)}q", *v)


def f64(v):
    return struct.pack("<d", v)


def lstr(b):
    return i32(len(b)) + b


def number(v):
    return i32(1) + f64(v)


def string(b):
    return i32(2) + lstr(b)


def torch_head(index, cls, version=b"V 1"):
    return i32(4) + i32(index) + (lstr(version) if version else b"") + lstr(cls)


DOUBLE_2x3 = (
    torch_head(1, b"torch.DoubleTensor")
    + i32(2)
    + i64(2, 3)
    + i64(3, 1)
    + i64(1)
    + torch_head(2, b"torch.DoubleStorage")
    + i64(6)
    + struct.pack("<6d", 1, 2, 3, 4, 5, 6.5)
)


def test_handbuilt_double_tensor():
    t = torch.deserialize(DOUBLE_2x3)
    assert geometry(t) == ("torch.DoubleTensor", [2, 3], [3, 1], 1)
    assert t.tolist() == [[1, 2, 3], [4, 5, 6.5]]


def test_handbuilt_scalars_and_table():
    assert torch.deserialize(number(3.0)) == 3 and isinstance(torch.deserialize(number(3.0)), int)
    assert torch.deserialize(number(2.5)) == 2.5
    assert torch.deserialize(string(b"hello")) == "hello"
    assert torch.deserialize(i32(0)) is None
    assert torch.deserialize(i32(5) + i32(1)) is True
    assert torch.deserialize(i32(5) + i32(0)) is False
    tbl = (
        i32(3)
        + i32(1)
        + i32(3)
        + number(1)
        + number(1)
        + number(2)
        + number(2)
        + number(3)
        + string(b"a")
    )
    assert torch.deserialize(tbl) == [1, 2, "a"]
    # same keys written in another order: still a list
    tbl2 = i32(3) + i32(1) + i32(2) + number(2) + string(b"b") + number(1) + string(b"a")
    assert torch.deserialize(tbl2) == ["a", "b"]
    d = i32(3) + i32(1) + i32(2) + string(b"x") + number(1.5) + number(3) + i32(5) + i32(1)
    assert torch.deserialize(d) == {"x": 1.5, 3: True}


def test_handbuilt_shared_references():
    # {t, t, t:storage()} where the third entry refers back to object 3
    t = (
        torch_head(2, b"torch.IntTensor")
        + i32(1)
        + i64(3)
        + i64(1)
        + i64(2)
        + torch_head(3, b"torch.IntStorage")
        + i64(4)
        + struct.pack("<4i", 1, 2, 3, 4)
    )
    tbl = (
        i32(3)
        + i32(1)
        + i32(3)
        + number(1)
        + t
        + number(2)
        + i32(4)
        + i32(2)
        + number(3)
        + i32(4)
        + i32(3)
    )
    a, b, s = torch.deserialize(tbl)
    assert a is b and a.storage() is s and a.tolist() == [2, 3, 4]
    s[2] = 20
    assert a[1] == 20


def test_handbuilt_legacy_class_without_version():
    data = torch_head(1, b"torch.ByteStorage", version=None) + i64(2) + b"\x07\x08"
    assert torch.deserialize(data).tolist() == [7, 8]


def test_handbuilt_lua_table_forms():
    # a self-referencing table: t.me = t
    data = i32(3) + i32(1) + i32(1) + string(b"me") + i32(3) + i32(1)
    d = torch.deserialize(data)
    assert d["me"] is d
    # a table whose numeric keys are not 1..n is a dict
    data = i32(3) + i32(1) + i32(2) + number(1) + number(10) + number(3) + number(30)
    assert torch.deserialize(data) == {1: 10, 3: 30}
    assert torch.deserialize(i32(3) + i32(1) + i32(0)) == []
    assert torch.deserialize(string(b"\xff\xfe")) == b"\xff\xfe"  # not UTF-8: bytes


# SHA-256 of files written by Lua Torch on Linux x86_64, the test fixtures
# of torchfile (github.com/bshillingford/python-torchfile, testfiles_x86_64/);
# only their hashes are kept here.  What we write for the same objects is
# byte for byte what Lua Torch wrote.
LUA_WRITTEN = [
    (
        "doubletensor.t7",
        "cbc78dd5cf41c97d4c01558808db9a8f4400d752cf5bf6b549a7789e060c2e5c",
        lambda: torch.DoubleTensor([[1, 2, 3], [4, 5, 6.9]]),
    ),
    (
        "hello=123.t7",
        "65a9af36ffeb79835f18fd9cc5309629429c63b72b6f1f5b54cce5ee89c39419",
        lambda: {"hello": 123},
    ),
    (
        "list_table.t7",
        "09163c47ccc06a9285d808b45cde5c0482ba1a34c2a25f1252a79b374c6f33ae",
        lambda: ["hello", "world", "third item", 123],
    ),
    (
        "map_table1.t7",
        "a172f58215ef4001017e35c08724fb2597493817336c2bf3f40936e114c327a9",
        lambda: {0: "zero", 1: "hello", 2: "world", 3: "third item", 4: 123},
    ),
    (
        "map_table2.t7",
        "feb9975cfdc2cbd6060bef6cb964ca9ac52bc11bc4b10cfd0c25d0a69ed47d3d",
        lambda: {1: "hello", 2: "world", 3: "third item", 4: 123, "a": "non number key"},
    ),
]


@pytest.mark.parametrize("name,sha,make", LUA_WRITTEN, ids=[f[0] for f in LUA_WRITTEN])
def test_same_bytes_as_lua_torch(name, sha, make):
    import hashlib

    data = torch.serialize(make())
    assert hashlib.sha256(data).hexdigest() == sha
    back = torch.deserialize(data)
    if isinstance(back, torch.DoubleTensor):
        assert back.tolist() == make().tolist()
    else:
        assert back == make()


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", TYPES)
def test_every_tensor_type(name, tmp_path):
    cls = getattr(torch, name)
    x = cls([[1, 2, 3], [4, 5, 6]])
    ours, theirs = via_file(x, tmp_path)
    assert type(ours) is cls and geometry(ours) == geometry(x)
    np.testing.assert_array_equal(npy(ours), npy(x))
    assert theirs.dtype == np.dtype(NUMPY_OF[name])
    np.testing.assert_array_equal(theirs, npy(x))


@pytest.mark.parametrize("name", TYPES)
def test_every_storage_type(name, tmp_path):
    S = getattr(torch, name.replace("Tensor", "Storage"))
    s = S([1, 2, 127])
    ours, theirs = via_file(s, tmp_path)
    assert type(ours) is S and ours.tolist() == [1, 2, 127]
    assert theirs.dtype == np.dtype(NUMPY_OF[name])
    np.testing.assert_array_equal(theirs, [1, 2, 127])
    e, _ = via_file(S(), tmp_path, "e.t7")
    assert type(e) is S and e.size() == 0


def test_extreme_values(tmp_path):
    x = torch.DoubleTensor([0.1, -2.5e300, float("inf"), float("-inf"), 5e-324, -0.0])
    ours, theirs = via_file(x, tmp_path)
    assert np.array(ours.tolist()).tobytes() == np.array(x.tolist()).tobytes()
    assert theirs.tobytes() == np.array(x.tolist()).tobytes()
    lo = torch.LongTensor([-(2**63), 2**63 - 1])
    ours, theirs = via_file(lo, tmp_path, "l.t7")
    assert ours.tolist() == [-(2**63), 2**63 - 1] and theirs.tolist() == ours.tolist()


def test_views_keep_geometry_and_share(tmp_path):
    x = torch.range(1, 20).view(4, 5)
    objs = [x, x.narrow(2, 2, 3), x.t(), x.select(2, 4), x.unfold(2, 2, 1)]
    ours, theirs = via_file(objs, tmp_path, use_list_heuristic=False)
    theirs = [theirs[i] for i in range(1, len(objs) + 1)]
    for o, v, th in zip(ours, objs, theirs):
        assert geometry(o) == geometry(v)
        np.testing.assert_array_equal(npy(o), npy(v))
        np.testing.assert_array_equal(th, npy(v))
    assert all(o.storage() is ours[0].storage() for o in ours)
    ours[1][1][1] = -1  # element (1, 2) of x
    assert ours[0][1][2] == -1 and ours[2][2][1] == -1
    # torchfile shares the storage too
    assert all(np.shares_memory(theirs[0], th) for th in theirs[1:])


def test_same_tensor_twice_is_one_object(tmp_path):
    x = torch.FloatTensor([1, 2])
    s = x.storage()
    ours, _ = via_file({"a": x, "b": x, "s": s, "s2": torch.FloatTensor(s).storage()}, tmp_path)
    assert ours["a"] is ours["b"] and ours["a"].storage() is ours["s"] is ours["s2"]
    data = torch.serialize([x, x])
    # written once: the second is a tag and an index
    assert len(data) == len(torch.serialize([x])) + (4 + 8) + (4 + 4)  # key 2, then tag+index


def test_referenced_false_writes_copies():
    x = torch.FloatTensor([1, 2])
    a, b = rt([x, x], referenced=False)
    assert a is not b and a.storage() is not b.storage()
    a[1] = 5
    assert b[1] == 1


def test_empty_and_zero_size_tensors(tmp_path):
    for name in TYPES:
        cls = getattr(torch, name)
        e = rt(cls())
        assert type(e) is cls and e.dim() == 0 and e.nElement() == 0
        for sizes in ([0], [3, 0]):
            z = rt(cls(*sizes))
            assert type(z) is cls and z.size().tolist() == sizes
    ours, theirs = via_file(
        [torch.DoubleTensor(), torch.IntTensor(3, 0)], tmp_path, use_list_heuristic=False
    )
    assert theirs[1].size == 0 and theirs[2].shape == (3, 0)


def test_python_values(tmp_path):
    obj = {
        "none": None,
        "t": True,
        "f": False,
        "i": 42,
        "neg": -7,
        "x": 2.5,
        "big": 2**53,
        "s": "h\u00e9llo",
        "b": b"\x00\xff",
        "list": [1, "two", [3.5]],
        "tuple": (1, 2),
        7: "seven",
        1.5: "one and a half",
        "empty": [],
        "nested": {"a": {"b": {"c": None}}},
    }
    ours, theirs = via_file(obj, tmp_path)
    assert ours == dict(obj, tuple=[1, 2])
    assert type(ours["i"]) is int and type(ours["x"]) is float and type(ours["s"]) is str
    assert ours["b"] == b"\x00\xff"  # not UTF-8: stays bytes
    # torchfile keeps strings as bytes (Lua strings are bytes; ours are UTF-8)
    assert theirs[b"i"] == 42 and theirs[b"x"] == 2.5
    assert theirs[b"s"] == "h\u00e9llo".encode() and theirs[b"b"] == b"\x00\xff"
    assert theirs[b"list"] == [1, b"two", [3.5]] and theirs[b"tuple"] == [1, 2]
    assert theirs[7] == b"seven" and theirs[1.5] == b"one and a half"
    assert theirs[b"t"] is True and theirs[b"f"] is False and theirs[b"big"] == 2**53
    assert theirs[b"nested"][b"a"][b"b"][b"c"] is None and theirs[b"empty"] == []
    for v in (None, True, 3, -0.5, "s", [1, 2], {"a": 1}, [None, 2]):
        assert rt(v) == v


def test_number_decisions():
    assert rt(3.0) == 3 and type(rt(3.0)) is int  # integral doubles load as int
    assert type(rt(-0.0)) is float and str(rt(-0.0)) == "-0.0"
    assert rt(float("inf")) == float("inf") and rt(float("nan")) != rt(float("nan"))
    np_val = rt(np.int64(5))
    assert np_val == 5 and type(np_val) is int
    assert rt(np.float32(0.5)) == 0.5
    with pytest.raises(ValueError, match="not exactly representable"):
        torch.serialize([2**53 + 1])


def test_cycles_and_shared_tables():
    inner = {"v": 1}
    d = {"a": inner, "b": inner}
    d["self"] = d
    o = rt(d)
    assert o["a"] is o["b"] and o["self"] is o


def test_file_objects():
    buf = io.BytesIO()
    torch.save(buf, {"x": torch.ShortTensor([1, 2])})
    buf.seek(0)
    assert torch.load(buf)["x"].tolist() == [1, 2]


def test_large_storage_through_torchfile(tmp_path):
    x = torch.rand(300, 200).float()
    ours, theirs = via_file({"x": x, "v": x.narrow(1, 11, 5).t()}, tmp_path)
    np.testing.assert_array_equal(npy(ours["x"]), npy(x))
    np.testing.assert_array_equal(theirs[b"x"], npy(x))
    np.testing.assert_array_equal(theirs[b"v"], npy(x.narrow(1, 11, 5).t()))


@st.composite
def views(draw):
    """A random tensor of a random type and a random view of it."""
    name = draw(st.sampled_from(TYPES))
    shape = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    n = int(np.prod(shape))
    x = (
        getattr(torch, name)(list(range(n)) or [0]).narrow(1, 1, n).view(*shape)
        if n
        else getattr(torch, name)(*shape)
    )
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.integers(1, x.dim()))
        op = draw(st.sampled_from(["narrow", "transpose", "select"]))
        if op == "narrow" and x.size(d) > 0:
            a = draw(st.integers(1, x.size(d)))
            x = x.narrow(d, a, draw(st.integers(0, x.size(d) - a + 1)))
        elif op == "transpose":
            x = x.transpose(d, draw(st.integers(1, x.dim())))
        elif op == "select" and x.dim() > 1 and x.size(d) > 0:
            x = x.select(d, draw(st.integers(1, x.size(d))))
    return x


@settings(max_examples=60, deadline=None)
@given(views())
def test_random_views_property(v):
    base = v.storage()
    want = npy(v) if v.nElement() else None
    # ours, through the .t7 format and through pickle: geometry, values, sharing
    for a, b, s in (
        rt([v, v.t() if v.dim() == 2 else v, base]),
        pickle.loads(pickle.dumps([v, v.t() if v.dim() == 2 else v, base])),
    ):
        assert geometry(a) == geometry(v) and a.storage() is b.storage() is s
        assert s.tolist() == base.tolist()
        if want is not None:
            np.testing.assert_array_equal(npy(a), want)
    # torchfile reads the same values from our file
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "v.t7")
        torch.save(p, v)
        theirs = torchfile.load(p)
    if v.nElement():
        np.testing.assert_array_equal(theirs, want)
    else:
        assert theirs.size == 0


# ---------------------------------------------------------------- errors


def test_truncated_data_raises():
    for cut in range(len(DOUBLE_2x3)):
        with pytest.raises(ValueError, match="truncated"):
            torch.deserialize(DOUBLE_2x3[:cut])


def test_unknown_tag_class_and_functions():
    with pytest.raises(ValueError, match="unknown type tag 9 at byte 0"):
        torch.deserialize(i32(9))
    # an unregistered class loads as its generic class (test_t7_classes.py)
    assert (
        torch.typename(torch.deserialize(torch_head(1, b"nn.Linear") + i32(3) + i32(2) + i32(0)))
        == "nn.Linear"
    )
    with pytest.raises(ValueError, match="function"):
        torch.deserialize(i32(8) + i32(1) + lstr(b"\x1bLJ") + i32(0))
    with pytest.raises(ValueError, match="function"):
        torch.deserialize(i32(6) + lstr(b"\x1bLJ"))


def test_bad_geometry_raises():
    def tensor(nd, sizes, strides, offset, count):
        return (
            torch_head(1, b"torch.DoubleTensor")
            + i32(nd)
            + i64(*sizes)
            + i64(*strides)
            + i64(offset)
            + torch_head(2, b"torch.DoubleStorage")
            + i64(count)
            + b"\0" * (8 * count)
        )

    with pytest.raises(ValueError, match="does not fit its storage"):
        torch.deserialize(tensor(2, [2, 3], [3, 1], 1, 5))
    with pytest.raises(ValueError, match="does not fit its storage"):
        torch.deserialize(tensor(1, [3], [1], 3, 4))
    with pytest.raises(ValueError, match="does not fit its storage"):  # overflow, in C
        torch.deserialize(tensor(2, [2**62, 2**62], [1, 1], 1, 1))
    with pytest.raises(ValueError, match="storage offset 0"):
        torch.deserialize(tensor(1, [3], [1], 0, 4))
    with pytest.raises(ValueError, match="negative sizes"):
        torch.deserialize(tensor(1, [-3], [1], 1, 4))
    with pytest.raises(ValueError, match="dimensions"):
        torch.deserialize(torch_head(1, b"torch.DoubleTensor") + i32(-1))
    with pytest.raises(ValueError, match="dimensions"):
        torch.deserialize(torch_head(1, b"torch.DoubleTensor") + i32(1000))
    with pytest.raises(ValueError, match="negative size"):
        torch.deserialize(torch_head(1, b"torch.DoubleStorage") + i64(-1))
    with pytest.raises(ValueError, match="truncated"):  # never allocates 2^60 elements
        torch.deserialize(torch_head(1, b"torch.DoubleStorage") + i64(2**60))
    wrong = (
        torch_head(1, b"torch.DoubleTensor")
        + i32(1)
        + i64(1)
        + i64(1)
        + i64(1)
        + torch_head(2, b"torch.IntStorage")
        + i64(1)
        + i32(0)
    )
    with pytest.raises(ValueError, match="where its storage should be"):
        torch.deserialize(wrong)
    with pytest.raises(ValueError, match="has no storage"):
        torch.deserialize(
            torch_head(1, b"torch.DoubleTensor") + i32(1) + i64(2) + i64(1) + i64(1) + i32(0)
        )


def test_bad_tables_raise():
    with pytest.raises(ValueError, match="negative size"):
        torch.deserialize(i32(3) + i32(1) + i32(-2))
    with pytest.raises(ValueError, match="nil key"):
        torch.deserialize(i32(3) + i32(1) + i32(1) + i32(0) + number(1))
    key_table = i32(3) + i32(1) + i32(1) + (i32(3) + i32(2) + i32(0)) + number(1)
    ((key, value),) = torch.deserialize(key_table).items()  # a table key: a TableKey
    assert key.table == [] and value == 1
    with pytest.raises(ValueError, match="negative length"):
        torch.deserialize(i32(2) + i32(-5))
    both = i32(3) + i32(1) + i32(2) + number(1) + number(10) + i32(5) + i32(1) + number(20)
    with pytest.raises(ValueError, match="appears twice"):  # Lua's [1] and [true]
        torch.deserialize(both)
    assert torch.deserialize(DOUBLE_2x3 + b"trailing").tolist()[0] == [1, 2, 3]


def test_save_over_an_existing_file(tmp_path):
    p = str(tmp_path / "over.t7")
    big, small = torch.DoubleTensor(20000).uniform(), {"a": torch.IntTensor([1, 2])}
    torch.save(p, big)
    torch.save(p, small)  # written over the bigger file: its tail goes
    assert open(p, "rb").read() == torch.serialize(small)
    torch.save(p, big)
    assert open(p, "rb").read() == torch.serialize(big) and torch.equal(torch.load(p), big)
    with pytest.raises(TypeError):
        torch.save(p, [big, object()])
    assert not os.path.exists(p)  # no half-written file


def test_save_to_a_device_keeps_it(tmp_path):
    torch.save(os.devnull, {"x": torch.DoubleTensor(3)})
    with pytest.raises(TypeError):
        torch.save(os.devnull, [torch.DoubleTensor(3), object()])
    assert os.path.exists(os.devnull)  # never unlinked


def test_unwritable_objects(tmp_path):
    with pytest.raises(TypeError, match=r"obj\['k'\]\[1\]: set is not a Torch7 object"):
        torch.serialize({"k": [1, {2}]})
    with pytest.raises(ValueError, match="key cannot"):
        torch.serialize({None: 1})
    p = tmp_path / "bad.t7"
    with pytest.raises(TypeError):
        torch.save(str(p), [torch.DoubleTensor(3), object()])
    assert not p.exists()  # no half-written file
    with pytest.raises(ValueError, match="mode must be 'binary' or 'ascii'"):
        torch.save(str(p), 1, "text")
    with pytest.raises(TypeError):
        torch.deserialize("text")


_SAMPLE = None


def _sample():
    global _SAMPLE
    if _SAMPLE is None:
        x = torch.IntTensor([[1, 2, 3], [4, 5, 6]])
        _SAMPLE = torch.serialize(
            {
                "x": x,
                "t": x.t(),
                "s": x.storage(),
                "l": [1.5, "a", True],
                "f": torch.FloatTensor(2, 0),
                3: None,
            }
        )
    return _SAMPLE


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_corrupted_data_never_crashes(data):
    b = bytearray(_sample())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(b) - 1))
        b[i] = data.draw(st.integers(0, 255))
    b = bytes(b[: data.draw(st.integers(0, len(b)))])
    try:
        torch.deserialize(b)
    except ValueError:
        pass


def _sha(b):
    return hashlib.sha256(b).hexdigest()


def _seeded(seed):
    g = torch.Generator()
    torch.manualSeed(g, seed)
    return g


# Lua: g = torch.Generator(); torch.manualSeed(g, 123); torch.serialize(g)
LUA_GEN123 = "f511498082c78b372d2fd31b9c0f1596544538cefdcb53ce963218d558a2b4b5"


LUA_GEN123_ASCII = "17f3c81a9bcd66ae00bd9a664ed5afeb1c1cdcbcf3102519ffd1b669b7763079"


LUA_GEN123_TWICE = "9e6b1ce49833b2193005ad4445958e58825ffc62ce754b1946b347b94254b4d1"  # {g, g}


# Lua: torch.manualSeed(g, 5); torch.randn(g, 3); torch.serialize(g)
LUA_GEN5_NORMAL = "08ed75dfb705f68055016d39205eeb04ca592193c756177ce228f44c496ca1d8"


def test_generator_serializes_as_lua():
    g = _seeded(123)
    b = torch.serialize(g)
    # tag 4 (torch object), index 1, "V 1", "torch.Generator", the 5048 raw state bytes
    assert len(b) == 5082
    assert b[:34] == (
        b"\x04\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00V 1\x0f\x00\x00\x00torch.Generator"
    )
    assert _sha(b) == LUA_GEN123
    assert _sha(torch.serialize(g, "ascii")) == LUA_GEN123_ASCII
    assert _sha(torch.serialize([g, g])) == LUA_GEN123_TWICE  # the second as a reference
    g5 = _seeded(5)
    torch.randn(g5, 3)  # a Box-Muller value left pending in the state
    assert _sha(torch.serialize(g5)) == LUA_GEN5_NORMAL


def test_generator_deserializes_to_its_stream():
    g = _seeded(123)
    d = torch.deserialize(torch.serialize(g))
    assert isinstance(d, torch.Generator) and d is not g
    assert torch.random(d) == 2991312382  # Lua's next torch.random(g)
    assert torch.random(g) == 2991312382  # serializing left g's state alone
    a = torch.deserialize(torch.serialize(_seeded(123), "ascii"), "ascii")
    assert torch.random(a) == 2991312382
    twice = torch.deserialize(torch.serialize([g, g]))
    assert twice[0] is twice[1]  # Lua: t[1] == t[2]
    g5 = _seeded(5)
    torch.randn(g5, 3)
    assert torch.normal(torch.deserialize(torch.serialize(g5))) == -1.3693802243009257


def test_generator_save_load_and_file_objects(tmp_path):
    p = str(tmp_path / "g.t7")
    torch.save(p, _seeded(123), "ascii")  # Lua's torch.save(p, g, 'ascii') bytes
    assert _sha(open(p, "rb").read()) == LUA_GEN123_ASCII
    assert torch.random(torch.load(p, "ascii")) == 2991312382
    f = torch.MemoryFile("rw")
    f.writeObject(_seeded(123))
    f.seek(1)
    assert torch.random(f.readObject()) == 2991312382


def test_bad_generator_data_is_a_clear_error():
    b = torch.serialize(_seeded(123))
    with pytest.raises(ValueError, match="truncated.*torch.Generator"):
        torch.deserialize(b[:-10])
    bad = bytearray(b)
    bad[46:50] = b"\0\0\0\0"  # seeded = 0: not a state Lua writes
    with pytest.raises(ValueError, match="torch.Generator.*invalid generator state"):
        torch.deserialize(bytes(bad))


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

"""Torch7 face: the C walk of binary `.t7` data (strided.core.t7scan,
t7scan.c; issue 27).  torch.load and deserialize walk an object in C and
make it in Python; what the walk leaves alone (bad data, Lua functions,
classes with their own read method) the Python reader reads.  Both must
give the same objects, the same errors, and never touch memory out of
bounds: each corruption the walk refuses is checked here at the core, and
through the face, whose message is the reader's."""

import io
import os
import struct

import pytest
from hypothesis import given, settings, strategies as st

import strided as torch
from strided.core import t7scan
from strided.torch7 import t7format
from strided.torch7.t7object import TableKey

from test_t7_classes import DATA, _forget_classes, dump, lua_dump, pair_class  # noqa: F401 (fixtures)


def _python_reader(data, referenced=True):
    """The object as the Python reader alone reads it."""
    return t7format._Reader(data, referenced).obj()


def _walk(data, referenced=True):
    return t7scan.walk(data, 0, len(data), 8, referenced, (), t7format._walk_classes()[0])


def _lstr(b):
    return struct.pack("<i", len(b)) + b


def _head(index, cls):
    return struct.pack("<ii", 4, index) + _lstr(b"V 1") + _lstr(cls)


def _tensor(nd=1, size=2, n=2, offset=1, storage_index=2):
    """A DoubleTensor's bytes whose storage claims n elements and has two."""
    return (
        _head(1, b"torch.DoubleTensor")
        + struct.pack("<i", nd)
        + struct.pack(f"<{2 * nd + 1}q", *([size] * nd + [1] * nd + [offset]))
        + _head(storage_index, b"torch.DoubleStorage")
        + struct.pack("<q", n)
        + struct.pack("<2d", 0, 1)
    )


def test_walk_reads_what_the_reader_reads():
    big = torch.FloatTensor(1000, 30).uniform()
    obj = {
        "w": big,
        "wt": big.t(),
        "s": big.storage(),
        "n": [1, 2.5, -0.0, True, None, "é", b"\xff"],
        "g": torch.Generator(),
        "e": torch.DoubleTensor(),
        "z": torch.LongTensor(3, 0),
    }
    obj["me"] = obj
    data = torch.serialize(obj)
    w = _walk(data)
    assert w is not None and w.end == len(data) and len(w.storages) == 2  # one shared storage
    a, b = torch.deserialize(data), _python_reader(data)
    assert a["g"].get_state() == b["g"].get_state() == obj["g"].get_state()
    del a["g"], b["g"]  # (dump describes no Generator)
    assert dump(a) == dump(b)
    assert a["me"] is a and a["wt"].storage() is a["w"].storage() is a["s"]
    for referenced in (False, True):
        d = torch.serialize([big, big], referenced=referenced)
        back = torch.deserialize(d, referenced=referenced)
        assert (back[0] is back[1]) == referenced and torch.equal(back[0], big)


@pytest.mark.parametrize("name", ["lua_model.t7", "lua_checkpoint.t7", "lua_table_keys.t7"])
def test_lua_files_walked(name):
    data = open(os.path.join(DATA, name), "rb").read()
    assert _walk(data) is not None
    assert (
        dump(torch.load(os.path.join(DATA, name))) == lua_dump(name) == dump(_python_reader(data))
    )


def test_file_and_stream_positions(tmp_path):
    big = torch.DoubleTensor(70000).uniform()  # more than the walk's read-ahead window
    p = str(tmp_path / "two.t7")
    with open(p, "wb") as f:
        torch.save(f, {"a": big})
        torch.save(f, "end")
    for opener in (
        lambda: open(p, "rb"),
        lambda: open(p, "rb", buffering=0),
        lambda: io.BytesIO(open(p, "rb").read()),
    ):
        with opener() as f:
            first = torch.load(f)
            assert torch.equal(first["a"], big) and torch.load(f) == "end"
            assert f.read() == b""


def test_compressed_streams_are_read_by_the_reader(tmp_path):
    import gzip

    p = str(tmp_path / "x.t7.gz")
    x = torch.FloatTensor(3000).uniform()
    with gzip.open(p, "wb") as f:  # its fileno() is the compressed file's
        torch.save(f, {"x": x})
    with gzip.open(p, "rb") as f:
        assert torch.equal(torch.load(f)["x"], x)


# ---------------------------------------------------------------- corrupted data


BAD = {
    "truncated storage": _tensor()[:-3],
    "huge storage size": _tensor(n=1 << 60),
    "storage size beyond the data": _tensor(n=3),
    "negative storage size": _tensor(n=-1),
    "negative string length": struct.pack("<ii", 2, -5) + b"abc",
    "huge string length": struct.pack("<ii", 2, 0x7FFFFFFF) + b"abc",
    "negative table size": struct.pack("<iii", 3, 1, -1),
    "huge table size": struct.pack("<iii", 3, 1, 0x7FFFFFFF) + b"\0" * 16,
    "bad type tag": struct.pack("<i", 77),
    "negative type tag": struct.pack("<i", -1),
    "lua function": struct.pack("<ii", 8, 1) + b"\0" * 12,
    "too many dimensions": _head(1, b"torch.DoubleTensor") + struct.pack("<i", 65) + b"\0" * 2000,
    "negative dimensions": _head(1, b"torch.DoubleTensor") + struct.pack("<i", -1),
    "odd version": struct.pack("<ii", 4, 1)
    + _lstr(b"V x")
    + _lstr(b"a.B")
    + struct.pack("<iii", 3, 2, 0),
    "object body not a table": struct.pack("<ii", 4, 1)
    + _lstr(b"V 1")
    + _lstr(b"a.B")
    + struct.pack("<id", 1, 2.0),
    "deep nesting": struct.pack("<iii", 3, 1, 1)
    + b"".join(struct.pack("<idiii", 1, 1.0, 3, i + 2, 1) for i in range(5000)),
    "empty": b"",
    "truncated tag": b"\x01\x00",
}


@pytest.mark.parametrize("name", list(BAD), ids=list(BAD))
def test_walk_refuses_bad_data_and_the_reader_words_it(name):
    data = BAD[name]
    assert _walk(data) is None  # refused, nothing allocated or kept
    try:
        expected = _python_reader(data)
    except (ValueError, RecursionError) as e:
        with pytest.raises(type(e)) as got:
            torch.deserialize(data)
        assert str(got.value) == str(e)
    else:  # the reader reads what the walk leaves
        assert dump(torch.deserialize(data)) == dump(expected)


def test_objects_that_do_not_fit_are_left_to_the_reader():
    data = _tensor(size=3)  # walked, but the tensor does not fit its storage
    assert _walk(data) is not None
    with pytest.raises(
        ValueError,
        match=r"DoubleTensor at byte 0 \(sizes \[3\], .* does not "
        r"fit its storage of 2 elements",
    ):
        torch.deserialize(data)
    r = t7format._Reader(data, True)
    r._objects[7] = "kept"
    assert r.walked(data, 0, len(data)) is None and r._objects == {7: "kept"}


def test_walk_window_and_bounds():
    data = _tensor()
    whole = torch.deserialize(data)
    assert whole.tolist() == [0, 1]
    for end in range(len(data)):  # every cut of the data's end
        assert t7scan.walk(data, 0, end, 8, True, (), t7format._walk_classes()[0]) is None
    for bad in ((-1, len(data), 8), (5, 4, 8), (0, len(data), 3)):
        assert t7scan.walk(data, *bad, True, (), t7format._walk_classes()[0]) is None


def test_walk_of_a_file_descriptor(tmp_path):
    data = torch.serialize({"x": torch.IntTensor([1, 2, 3])})
    p = tmp_path / "x.t7"
    p.write_bytes(b"junk" + data)
    fd = os.open(p, os.O_RDONLY)
    try:
        classes = t7format._walk_classes()[0]
        w = t7scan.walk(fd, 4, 4 + len(data), 8, True, (), classes)
        assert w is not None and w.end == 4 + len(data) and os.lseek(fd, 0, os.SEEK_CUR) == 0
        assert t7scan.walk(fd, 4, 4 + len(data) + 100, 8, True, (), classes) is not None
        assert t7scan.walk(fd, 4, 3 + len(data), 8, True, (), classes) is None
    finally:
        os.close(fd)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_corrupted_walk_agrees_with_the_reader(d):
    raw = bytearray(open(os.path.join(DATA, "lua_checkpoint.t7"), "rb").read())
    for _ in range(d.draw(st.integers(1, 4))):
        raw[d.draw(st.integers(0, len(raw) - 1))] = d.draw(st.integers(0, 255))
    data = bytes(raw)
    try:
        expected = dump(_python_reader(data))
    except (ValueError, RecursionError) as e:
        with pytest.raises(type(e)) as got:
            torch.deserialize(data)
        assert str(got.value) == str(e)
        return
    assert dump(torch.deserialize(data)) == expected


# ---------------------------------------------------------------- classes with a read method


def test_class_with_read_method_is_left_to_the_reader(pair_class):  # noqa: F811 (the fixture)
    p = torch.load(os.path.join(DATA, "not_plain", "lua_pair.t7"))
    assert type(p[0]) is pair_class and p[0] is p[1] and p[0].version == 2


def test_registered_class_without_read_is_walked():
    import types
    from strided.torch7.utility import registry

    Thing, _ = torch.class_("walk.Thing", types.ModuleType("walk_ns"))
    try:
        t = Thing()
        t.w = torch.FloatTensor([1, 2])
        data = torch.serialize([t, t])
        assert _walk(data) is not None
        back = torch.deserialize(data)
        assert type(back[0]) is Thing and back[0] is back[1] and back[0].w.tolist() == [1, 2]
    finally:
        registry.pop("walk.Thing", None)


def test_diskfile_objects_keep_their_references(tmp_path):
    p = str(tmp_path / "d.t7")
    x = torch.DoubleTensor(50000).uniform()
    with torch.DiskFile(p, "w").binary() as f:
        f.writeObject(x)
        f.writeObject([x, {TableKey([1]): 2}])
    with torch.DiskFile(p).binary() as f:
        a = f.readObject()
        b = f.readObject()
    assert b[0] is a and torch.equal(a, x) and list(b[1].values()) == [2]

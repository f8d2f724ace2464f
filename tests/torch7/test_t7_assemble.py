"""Torch7 face: the objects of a C walk made in C (pyarray.c's t7_assemble,
issue 27) are those t7format's _Assembly makes in Python -- the same
types, values, shared objects and geometry -- and what it declines
(Generators, Lua classes, data the reader words an error for) is made by
_Assembly.  Also the walk's reads of a file (a storage's rest and the next
object's head in one call), truncated and corrupted files, and storages
that stay shared or are resized after a load."""

import math
import os
import struct
import types

import pytest

import strided as torch
from strided._c._strided import ffi, lib
from strided.core import t7scan
from strided.torch7 import t7format
from strided.torch7.t7object import TableKey
from strided.torch7.utility import registry


def describe(obj):
    """Everything a load decides, strictly: exact types, numbers by repr
    (-0.0, 2 against 2.0), dict order, tensor geometry, storage contents,
    and which objects are the same object (numbered in order of meeting)."""
    ids = {}

    def go(o):
        if isinstance(o, (dict, list, torch.Tensor, torch.Storage, TableKey)) or hasattr(o, "_s"):
            if id(o) in ids:
                return ("same", ids[id(o)])
            ids[id(o)] = len(ids)
        t = type(o).__name__
        if isinstance(o, TableKey):
            return (t, go(o.table))
        if isinstance(o, dict):
            return (t, [(go(k), go(v)) for k, v in o.items()])
        if isinstance(o, list):
            return (t, [go(v) for v in o])
        if isinstance(o, torch.Tensor):
            s = o.storage()
            geometry = (
                (o.size().tolist(), o.stride().tolist(), o.storageOffset()) if o.dim() else ()
            )
            return (t, geometry, go(s) if s is not None else None)
        if isinstance(o, torch.Storage):
            return (t, [repr(v) for v in o.tolist()])
        return (t, repr(o))

    return go(obj)


def _python_assembly(monkeypatch):
    """Make every load decline in C, so that _Assembly makes the objects."""
    monkeypatch.setattr(t7format, "_assemble", lambda *a: t7format._DECLINED)


def _count_declines(monkeypatch):
    """A list that gets one entry per load the C assembly declines."""
    declines, real = [], t7format._assemble

    def counted(*a):
        r = real(*a)
        if r is t7format._DECLINED:
            declines.append(1)
        return r

    monkeypatch.setattr(t7format, "_assemble", counted)
    return declines


def _objects():
    x = torch.FloatTensor(6, 5).uniform()
    d = torch.DoubleTensor(20).uniform()
    key = {"k": 1}
    plain = {
        "x": x,
        "xt": x.t(),
        "row": x.select(1, 3),
        "s": x.storage(),
        "d": d.narrow(1, 4, 10),
        "numbers": [1, 2.5, -0.0, 0.0, 2**53, 2**53 + 2, -(2**53), 1e300, math.inf, -math.inf],
        "strings": ["", "é", b"\xff\xfe", "a" * 300],
        "bools": [True, False],
        "holes": {1: "a", 3: "c"},
        "from zero": {0: "z", 1: "a"},
        "float keys": {1.5: "f", 2: "i"},
        "bool keys": {True: "t", "x": False},
        "empty": {},
        "empty tensor": torch.DoubleTensor(),
        "zero size": torch.LongTensor(3, 0),
        "bytes": torch.ByteTensor([1, 2, 255]),
        "half": torch.HalfTensor([1.5, -2]),
        "types": [
            torch.CharTensor([-3]),
            torch.ShortTensor([7]),
            torch.IntTensor([8]),
            torch.LongTensor([2**40]),
        ],
        TableKey(key): "table as key",
        "key again": key,
    }
    plain["me"] = plain  # a table that holds itself: stays a dict
    inner = [1, 2]
    outer = {"in": inner, "again": inner}
    return {"plain": plain, "shared list": outer, "list": [x, x, d], "deep": [[[[[x]]]]]}


@pytest.mark.parametrize("name", list(_objects()))
@pytest.mark.parametrize("referenced", [True, False])
def test_c_assembly_makes_what_python_makes(name, referenced, monkeypatch):
    obj = _objects()[name]
    if not referenced and name == "plain":
        obj = dict(obj)
        del obj["me"]  # (a cycle cannot be written unreferenced)
    data = torch.serialize(obj, referenced=referenced)
    declines = _count_declines(monkeypatch)
    ours = torch.deserialize(data, referenced=referenced)
    assert not declines
    _python_assembly(monkeypatch)
    theirs = torch.deserialize(data, referenced=referenced)
    assert describe(ours) == describe(theirs)
    assert describe(ours) == describe(t7format._Reader(data, referenced).obj())


def test_c_assembly_keeps_sharing_and_identity(tmp_path, monkeypatch):
    x = torch.FloatTensor(300, 40).uniform()  # big enough to be read straight into its storage
    p = str(tmp_path / "s.t7")
    torch.save(p, {"a": x, "b": x.t(), "s": x.storage(), "c": x.narrow(2, 3, 5), "a2": x})
    declines = _count_declines(monkeypatch)
    o = torch.load(p)
    assert not declines
    assert o["a"] is o["a2"] and o["s"] is o["a"].storage() is o["b"].storage()
    assert o["c"].storage() is o["s"] and o["c"].storageOffset() == 3
    o["s"][1] = 42  # one memory
    assert o["a"][1][1] == 42 and o["b"][1][1] == 42 and o["c"][1][1] == x[1][3]


def test_loaded_storage_resized(tmp_path):
    x = torch.DoubleTensor(5000).uniform()
    p = str(tmp_path / "r.t7")
    torch.save(p, {"x": x, "s": x.storage()})
    o = torch.load(p)
    s, t = o["s"], o["x"]
    before = t.clone()
    s.resize(20000)
    assert s.size() == 20000 and t.storage() is s
    assert torch.equal(t, before)  # the tensor sees the moved memory, its first elements kept
    s[2] = 7.0
    assert t[2] == 7.0
    with pytest.raises(ValueError, match="cannot shrink"):
        s.resize(10)  # (the tensor still views it)
    del o, t
    s.resize(10)
    assert s.size() == 10 and s[2] == 7.0 and s[1] == before[1]


def test_declines_go_to_the_python_assembly(monkeypatch):
    g = torch.Generator()
    x = torch.FloatTensor(3).uniform()
    for obj in ([x, g, x.storage()], {"g": g, "x": x}):
        data = torch.serialize(obj)
        declines = _count_declines(monkeypatch)
        back = torch.deserialize(data)
        assert declines == [1]
        xs = back[0] if isinstance(back, list) else back["x"]
        assert torch.equal(xs, x)
        if isinstance(back, list):
            assert back[2] is xs.storage()
        monkeypatch.undo()


def test_lua_class_objects_declined_then_made(monkeypatch):
    Thing, _ = torch.class_("assemble.Thing", types.ModuleType("assemble_ns"))
    try:
        t = Thing()
        t.w = torch.FloatTensor([1, 2])
        data = torch.serialize({"a": [t, t], "w": t.w})
        declines = _count_declines(monkeypatch)
        back = torch.deserialize(data)
        assert declines == [1]
        assert back["a"][0] is back["a"][1] and back["a"][0].w is back["w"]
    finally:
        registry.pop("assemble.Thing", None)


def test_bad_records_are_declined_and_worded_by_the_reader(monkeypatch):
    # a tensor that does not fit its storage, a nil key, a repeated key
    def lstr(b):
        return struct.pack("<i", len(b)) + b

    def head(index, cls):
        return struct.pack("<ii", 4, index) + lstr(b"V 1") + lstr(cls)

    unfit = (
        head(1, b"torch.DoubleTensor")
        + struct.pack("<i3q", 1, 3, 1, 1)
        + head(2, b"torch.DoubleStorage")
        + struct.pack("<q2d", 2, 0, 1)
    )
    nil_key = struct.pack("<iiii", 3, 1, 1, 0) + struct.pack("<id", 1, 1.0)
    dup_key = struct.pack("<iii", 3, 1, 2) + (struct.pack("<idid", 1, 1.0, 1, 2.0)) * 2
    bool_dup = (
        struct.pack("<iii", 3, 1, 2)
        + struct.pack("<iiid", 5, 1, 1, 2.0)
        + struct.pack("<idid", 1, 1.0, 1, 3.0)
    )
    for data, message in (
        (unfit, "does not fit its storage"),
        (nil_key, "nil key"),
        (dup_key, "appears twice"),
        (bool_dup, "appears twice"),
    ):
        assert t7scan.walk(data, 0, len(data), 8, True, (), t7format._walk_classes()[0])
        with pytest.raises(ValueError, match=message):
            torch.deserialize(data)


def test_many_small_storages_and_big_ones(tmp_path):
    """Small storages come out of the walk's window, several to a read;
    a big one is read with the head of the next object."""
    sizes = [1, 3, 7, 1000, 2, 20000, 5, 70000, 1, 0, 16385, 3] * 4
    xs = [torch.FloatTensor(n).uniform() if n else torch.FloatTensor(0) for n in sizes]
    obj = {"xs": xs, "tail": "end", "n": 17}
    p = str(tmp_path / "m.t7")
    torch.save(p, obj)
    for back in (torch.load(p), torch.deserialize(open(p, "rb").read())):
        assert len(back["xs"]) == len(xs) and back["tail"] == "end" and back["n"] == 17
        for a, b in zip(back["xs"], xs):
            assert a.size().tolist() == b.size().tolist() and torch.equal(a, b)
    with torch.DiskFile(p, "w").binary() as f:
        f.writeObject(obj)
        f.writeObject(xs[7])
        f.writeObject(obj)  # references to the first
    with torch.DiskFile(p).binary() as f:
        back, big, again = f.readObject(), f.readObject(), f.readObject()
    assert again is back and torch.equal(big, xs[7]) and big is back["xs"][7]
    assert all(torch.equal(a, b) for a, b in zip(back["xs"], xs))


def test_truncated_files_raise_and_read_nothing_out_of_bounds(tmp_path):
    xs = [torch.FloatTensor(n).uniform() for n in (20000, 3, 17000, 5)]
    p = str(tmp_path / "t.t7")
    torch.save(p, xs)
    data = open(p, "rb").read()
    cuts = sorted(
        {len(data) - k for k in (1, 4, 8, 12, 100, 20, 60000)}
        | set(range(0, 200, 7))
        | set(range(80000, 80400, 13))
    )
    q = str(tmp_path / "cut.t7")
    for cut in cuts:
        with open(q, "wb") as f:
            f.write(data[:cut])
        with pytest.raises(ValueError, match="truncated|bad Torch7"):
            torch.load(q)
        fd = os.open(q, os.O_RDONLY)
        try:  # the walk told a longer end than the file has (a file cut while read)
            assert t7scan.walk(fd, 0, len(data), 8, True, (), t7format._walk_classes()[0]) is None
        finally:
            os.close(fd)


def test_no_storage_kept_after_a_load(tmp_path):
    """Each storage has the references its objects hold, none more: dropped,
    a load gives every big block back to the core's cache."""
    xs = [torch.FloatTensor(300, 150).uniform() for _ in range(6)]
    p = str(tmp_path / "k.t7")
    torch.save(p, xs + [xs[0]])
    stats = ffi.new("int64_t[5]")
    lib.st_cache_release()  # no older block for the frees below to age out
    back = torch.load(p)
    assert back[0] is back[6]
    lib.st_cache_stats(stats)
    cached = stats[1]
    del back
    lib.st_cache_stats(stats)
    assert stats[1] == cached + 6


@pytest.mark.parametrize("threads, readers", [(1, 2), (2, 1), (2, 2), (2, 0)])
def test_big_storages_read_after_the_walk(tmp_path, threads, readers):
    """With two readers, storages of 256 KiB and more are read once the walk
    is done, by two threads from 4 MiB of them (if the core may use two);
    with one, each with the next object's head (t7scan.readers: 0 decides
    by whether a CPU is free)."""
    before = torch.getnumthreads()
    torch.setnumthreads(threads)
    mode = t7scan.readers(readers)
    try:
        xs = [torch.FloatTensor(n).uniform() for n in (300000, 5, 2500000, 65537, 700000)]
        obj = {"xs": xs, "view": xs[2].narrow(1, 1000, 10), "after": "end"}
        p = str(tmp_path / "big.t7")
        torch.save(p, obj)
        data = open(p, "rb").read()
        back = torch.load(p)
        assert back["after"] == "end" and back["view"].storage() is back["xs"][2].storage()
        assert all(torch.equal(a, b) for a, b in zip(back["xs"], xs))
        assert torch.equal(back["view"], obj["view"])
        fd = os.open(p, os.O_RDONLY)
        try:
            classes = t7format._walk_classes()[0]
            # an end told past the file's: the object ends before it
            assert t7scan.walk(fd, 0, len(data) + 8, 8, True, (), classes) is not None
            for cut in (len(data) - 3 * 4 - 20, 4 * 300000, len(data) // 2):  # short deferred reads
                q = str(tmp_path / "cut.t7")
                with open(q, "wb") as f:
                    f.write(data[:cut])
                qfd = os.open(q, os.O_RDONLY)
                try:
                    assert t7scan.walk(qfd, 0, len(data), 8, True, (), classes) is None
                finally:
                    os.close(qfd)
                with pytest.raises(ValueError, match="truncated"):
                    torch.load(q)
        finally:
            os.close(fd)
    finally:
        torch.setnumthreads(before)
        assert t7scan.readers(mode) == readers

"""Torch7 face: torch.DiskFile and torch.MemoryFile (Lua Torch7's file.md,
diskfile.md, memoryfile.md).  The files under data/ were written by real
Lua Torch7 (tests/torch7/data/README.md has the script): we read them, and
writing the same calls gives the same bytes."""

import math
import os
import struct

import pytest

import strided as torch
from strided.core.base import ffi

DATA = os.path.join(os.path.dirname(__file__), "data")


def data(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def contents(mf):
    s = mf.storage()
    return ffi.buffer(s._s.data, s.size())[:]


def seq_primitives(f):
    """The first calls of data/README.md's seq(f), up to its first writeObject."""
    f.writeInt(-7)
    f.writeShort(300)
    f.writeLong(-123456789012)
    f.writeFloat(0.1)
    f.writeDouble(1 / 3)
    f.writeDouble(math.inf)
    f.writeDouble(-math.inf)
    f.writeDouble(1e-300)
    f.writeByte(200)
    f.writeChar(65)
    f.writeInt(torch.IntStorage([1, -2, 3]))
    f.writeFloat(torch.FloatStorage([1.5, -2.25, 1e10]))
    f.writeDouble(torch.DoubleStorage([0.1, -0.0, 12345678.9]))
    f.writeByte(torch.ByteStorage([0, 10, 255]))
    f.writeChar(torch.CharStorage([ord(c) for c in "hi there"]))
    f.writeString("line one\nline two\n")
    f.writeBool(True)
    f.writeBool(False)


def check_seq(f):
    """Read back what seq(f) wrote."""
    assert f.readInt() == -7
    assert f.readShort() == 300
    assert f.readLong() == -123456789012
    assert f.readFloat() == struct.unpack("f", struct.pack("f", 0.1))[0]
    assert f.readDouble() == 1 / 3
    assert f.readDouble() == math.inf
    assert f.readDouble() == -math.inf
    assert f.readDouble() == 1e-300
    assert f.readByte() == 200
    assert f.readChar() == 65
    assert f.readInt(3).tolist() == [1, -2, 3]
    assert f.readFloat(3).tolist() == [1.5, -2.25, 1e10]
    d = f.readDouble(3).tolist()
    assert d == [0.1, 0.0, 12345678.9] and math.copysign(1, d[1]) < 0
    assert f.readByte(3).tolist() == [0, 10, 255]
    assert bytes(v & 0xFF for v in f.readChar(8).tolist()) == b"hi there"
    assert f.readString("*l") == "line one"
    assert f.readString("*l") == "line two"
    assert f.readBool() is True
    assert f.readBool() is False
    t = f.readObject()
    assert set(t) == {"x", "xt", "n", "s", "b", "list"}
    assert t["x"].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert t["xt"].tolist() == [[1, 4], [2, 5], [3, 6]]
    t["x"][1][2] = 100  # shared storage
    assert t["xt"][2][1] == 100
    assert (t["n"], t["s"], t["b"], t["list"]) == (2.5, "str", True, [1, 2, "three"])
    x = f.readObject()  # written before: the same object again
    assert x is t["x"] and x.tolist() == [[1, 100, 3], [4, 5, 6]]
    i = f.readObject()
    assert i.type() == "torch.IntTensor" and i.tolist() == [[1, 2], [3, 4]]


# ---------------------------------------------------------------- Lua's files


@pytest.mark.parametrize("name,binary", [("lua_ascii.txt", False), ("lua_binary.bin", True)])
def test_read_lua_diskfile(name, binary):
    with torch.DiskFile(os.path.join(DATA, name)) as f:
        assert not f.isBinary()  # ascii by default, as Lua
        if binary:
            f.binary()
        check_seq(f)
        assert f.position() == len(data(name)) + 1


@pytest.mark.parametrize("name,binary", [("lua_ascii.txt", False), ("lua_binary.bin", True)])
def test_read_lua_in_memoryfile(name, binary):
    s = torch.CharStorage([b - 256 if b > 127 else b for b in data(name) + b"\0"])
    f = torch.MemoryFile(s, "r")
    if binary:
        f.binary()
    check_seq(f)
    assert f.hasError() is False


@pytest.mark.parametrize("name,binary", [("lua_ascii.txt", False), ("lua_binary.bin", True)])
@pytest.mark.parametrize("kind", ["disk", "memory"])
def test_write_as_lua(tmp_path, name, binary, kind):
    """The same calls write Lua's bytes (up to the first table, whose key
    order is Lua's hash order); what follows reads back."""
    p = str(tmp_path / "out")
    f = torch.DiskFile(p, "w") if kind == "disk" else torch.MemoryFile()
    if binary:
        f.binary()
    seq_primitives(f)
    x = torch.range(1, 6).view(2, 3)
    f.writeObject({"x": x, "xt": x.t(), "n": 2.5, "s": "str", "b": True, "list": [1, 2, "three"]})
    f.writeObject(x)
    f.writeObject(torch.IntTensor([[1, 2], [3, 4]]))
    if kind == "disk":
        f.close()
        with open(p, "rb") as h:
            got = h.read()
        g = torch.DiskFile(p, "r")
    else:
        got = contents(f)
        assert got[-1:] == b"\0"  # Lua's MemoryFile keeps a trailing 0
        got = got[:-1]
        f.seek(1)
        g = f
    ref = data(name)
    m = torch.MemoryFile()
    if binary:
        m.binary()
    seq_primitives(m)
    n = m.position() - 1
    assert got[:n] == ref[:n] and len(got) == len(ref)
    if binary:
        g.binary()
    check_seq(g)


def test_lua_memoryfile_size():
    """Lua: seq(torch.MemoryFile()) then storage():size() is 490, the last byte 0."""
    f = torch.MemoryFile()
    seq_primitives(f)
    x = torch.range(1, 6).view(2, 3)
    f.writeObject({"x": x, "xt": x.t(), "n": 2.5, "s": "str", "b": True, "list": [1, 2, "three"]})
    f.writeObject(x)
    f.writeObject(torch.IntTensor([[1, 2], [3, 4]]))
    s = f.storage()
    assert s.size() == 490 and s[490] == 0
    assert f.storage() is s  # the file's own storage


def test_lua_noautospacing(tmp_path):
    p = str(tmp_path / "n.txt")
    with torch.DiskFile(p, "w").noAutoSpacing() as f:
        f.writeInt(torch.IntStorage([1, 2, 3]))
        f.writeInt(4)
        f.writeDouble(0.5)
        f.writeChar(torch.CharStorage([97, 98]))
    assert open(p, "rb").read() == data("lua_noautospacing.txt") == b"12340.5ab"
    f = torch.MemoryFile(torch.CharStorage([ord(c) for c in "12 3\n"] + [0]), "r")
    f.noAutoSpacing()
    assert f.readInt(2).tolist() == [12, 3]
    assert f.position() == 5  # the newline is not eaten
    assert f.isAutoSpacing() is False


def test_lua_endianness(tmp_path):
    with torch.DiskFile(os.path.join(DATA, "lua_bigendian.bin")).binary() as f:
        f.bigEndianEncoding()
        assert (f.readInt(), f.readDouble(), f.readLong(2).tolist(), f.readShort()) == (
            258,
            1.5,
            [1, -1],
            -2,
        )
    p = str(tmp_path / "be")
    with torch.DiskFile(p, "w").binary().bigEndianEncoding() as f:
        f.writeInt(258)
        f.writeDouble(1.5)
        f.writeLong(torch.LongStorage([1, -1]))
        f.writeShort(-2)
    assert open(p, "rb").read() == data("lua_bigendian.bin")
    assert open(p, "rb").read()[:4] == b"\0\0\1\2"
    with torch.DiskFile(p, "r").binary().littleEndianEncoding() as f:
        assert f.readInt() == 0x02010000
        f.nativeEndianEncoding()
    assert torch.DiskFile.isLittleEndianCPU() is True
    assert torch.DiskFile.isBigEndianCPU() is False


@pytest.mark.parametrize(
    "size,name,values", [(4, "lua_long4.bin", [5, -6, 0]), (8, "lua_long8.bin", [5, -6])]
)
def test_lua_longsize(tmp_path, size, name, values):
    """Lua's longSize(4) writes int32s (2^40 becomes 0); 8 is the native long."""
    with torch.DiskFile(os.path.join(DATA, name)).binary() as f:
        f.longSize(size)
        assert f.readLong(len(values)).tolist() == values
    p = str(tmp_path / "l")
    with torch.DiskFile(p, "w").binary() as f:
        f.longSize(size)
        f.writeLong(torch.LongStorage([5, -6, 2**40][: len(values)]))
    assert open(p, "rb").read() == data(name)
    m = torch.MemoryFile().binary().longSize(size)
    m.writeLong(torch.LongStorage([5, -6, 2**40][: len(values)]))
    assert contents(m)[:-1] == data(name)
    m.seek(1)
    assert m.readLong(len(values)).tolist() == values
    with pytest.raises(ValueError, match="Invalid long size"):
        m.longSize(2)


def test_lua_ascii_save(tmp_path):
    d = torch.load(os.path.join(DATA, "lua_save_ascii.t7"), "ascii")
    assert d["x"].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert d["xt"].tolist() == [[1, 4], [2, 5], [3, 6]]
    d["x"][1][1] = 9
    assert d["xt"][1][1] == 9
    assert d["f"].type() == "torch.FloatTensor"
    assert d["f"].tolist() == [struct.unpack("f", struct.pack("f", 0.1))[0], 2]
    assert d["s"] == "ab c" and d["nums"] == [1.5, 2, -3]
    p = str(tmp_path / "a.t7")
    torch.save(p, d, "ascii")
    e = torch.load(p, "ascii")
    assert e["xt"].tolist() == d["xt"].tolist() and e["s"] == "ab c"
    assert torch.deserialize(torch.serialize(d, "ascii"), "ascii")["nums"] == [1.5, 2, -3]


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("mode", ["binary", "ascii"])
def test_save_load_and_files_agree(tmp_path, mode):
    x = torch.range(1, 12).view(3, 4)
    obj = {
        "x": x,
        "xt": x.t(),
        "i": torch.IntTensor([1, 2]),
        "s": torch.ByteStorage([1, 255]),
        "l": [1, "two", None, False],
        "e": torch.Tensor(),
    }
    p = str(tmp_path / "o.t7")
    torch.save(p, obj, mode)
    with torch.DiskFile(p, "r") as f:
        getattr(f, mode)()
        back = f.readObject()
    assert back["xt"].tolist() == x.t().tolist() and back["s"].tolist() == [1, 255]
    assert back["l"] == [1, "two", None, False] and back["e"].dim() == 0
    back["x"][1][1] = 50
    assert back["xt"][1][1] == 50
    q = str(tmp_path / "q.t7")
    with torch.DiskFile(q, "w") as f:
        getattr(f, mode)()
        f.writeObject(obj)
    assert open(q, "rb").read() == open(p, "rb").read()
    m = torch.MemoryFile()
    getattr(m, mode)()
    m.writeObject(obj)
    assert contents(m)[:-1] == torch.serialize(obj, mode) == open(p, "rb").read()
    assert torch.load(q, mode)["i"].tolist() == [1, 2]


def test_references_across_calls():
    """As Lua, a file keeps one table of written objects: a tensor written
    twice by two writeObject calls is written once."""
    x = torch.Tensor(3).fill(1)
    f = torch.MemoryFile().binary()
    f.writeObject(x)
    n = f.position()
    f.writeObject(x)
    assert f.position() - n == 8  # tag and index only
    f.seek(1)
    a, b = f.readObject(), f.readObject()
    assert a is b
    g = torch.MemoryFile().binary().referenced(False)
    assert g.isReferenced() is False and f.isReferenced() is True
    g.writeObject(x)
    g.writeObject(x)
    g.seek(1)
    a, b = g.readObject(), g.readObject()
    assert a is not b and a.tolist() == b.tolist()


def test_every_type_both_modes_both_classes(tmp_path):
    values = {
        "Byte": [0, 7, 255],
        "Char": [-128, 0, 127],
        "Short": [-32768, 5, 32767],
        "Int": [-(2**31), 0, 2**31 - 1],
        "Long": [-(2**63), 1, 2**63 - 1],
        "Float": [0.1, -1e30, 3.5],
        "Double": [0.1, -1e300, 2.0**-1074],
    }
    for mode in ("binary", "ascii"):
        for kind in ("disk", "memory"):
            p = str(tmp_path / f"{mode}{kind}")
            f = torch.DiskFile(p, "rw") if kind == "disk" else torch.MemoryFile("rw")
            getattr(f, mode)()
            for name, vs in values.items():
                st = getattr(torch, name + "Storage")(vs)
                assert getattr(f, "write" + name)(st) == 3
                assert getattr(f, "write" + name)(vs[0]) is None
            f.seek(1)
            for name, vs in values.items():
                st = getattr(torch, name + "Storage")
                expect = st(vs).tolist()
                got = getattr(f, "read" + name)(3)
                assert type(got) is st and got.tolist() == expect, (mode, kind, name)
                fill = st(1)
                assert getattr(f, "read" + name)(fill) == 1 and fill[1] == expect[0]
            f.seekEnd()
            assert f.readInt() is None if f.quiet() else True
            assert f.hasError()
            f.clearError()
            assert not f.hasError()
            f.close()


def test_write_conversions():
    f = torch.MemoryFile()
    f.writeByte(-1)  # C's conversion: wraps
    f.writeShort(70000)
    f.writeInt(2.9)  # truncates toward zero
    f.writeFloat(1e300)  # overflows to inf
    f.seek(1)
    assert f.readByte() == 255
    assert (f.readShort(), f.readInt(), f.readFloat()) == (70000 - 65536, 2, math.inf)


def test_ascii_parsing():
    f = torch.MemoryFile(
        torch.CharStorage([ord(c) for c in " 12 -3\n4;5:6 0x10 inf -nan 1e3\n"] + [0]), "r"
    )
    assert f.readInt(3).tolist() == [12, -3, 4]
    f.quiet()
    assert f.readInt() is None  # Lua: sscanf starts at the ';' and fails
    assert f.hasError() and f.position() == 9
    f.clearError().pedantic().seek(10)
    assert f.readInt() == 5 and f.position() == 11
    f.seek(12)  # past the ':'
    assert f.readInt() == 6
    d = f.readDouble(4).tolist()
    assert d[0] == 16 and d[1] == math.inf and math.isnan(d[2]) and d[3] == 1000
    f = torch.MemoryFile(torch.CharStorage([ord(c) for c in "1.5 abc"] + [0]), "r").quiet()
    assert f.readDouble(2).tolist() == [1.5]
    assert f.hasError()
    p = torch.MemoryFile()
    p.writeDouble(torch.DoubleStorage([math.nan, -math.nan, 1e21, 5e-324]))
    assert contents(p) == b"nan -nan 1e+21 4.9406564584124654e-324\n\0"
    p.writeFloat(torch.FloatStorage([1 / 3]))
    assert contents(p).endswith(b"0.333333343\n\0")


def test_strings():
    f = torch.MemoryFile()
    assert f.writeString("ab\ncd") == 5
    assert f.writeString(b"\xff\n") == 2
    f.seek(1)
    assert f.readString("*l") == "ab"
    assert f.readString("*a") == b"cd\xff\n"  # not UTF-8: bytes
    with pytest.raises(OSError, match="read error: read 0 blocks instead of 1"):
        f.readString("*a")
    assert f.hasError()
    with pytest.raises(ValueError, match=r"format must be '\*a' or '\*l'"):
        f.readString("*x")
    f.seek(1).quiet()
    assert f.readString("*line") == "ab"  # only the first two characters count
    f.seekEnd()
    assert f.readString("*l") is None


def test_diskfile_strings(tmp_path):
    p = str(tmp_path / "s")
    with torch.DiskFile(p, "w") as f:
        f.writeString("one\n\ntwo")
    with torch.DiskFile(p) as f:
        assert [f.readString("*l") for _ in range(3)] == ["one", "", "two"]
        with pytest.raises(OSError, match="read 0 blocks instead of 1"):
            f.readString("*l")
        f.seek(1)
        assert f.readString("*a") == "one\n\ntwo"


def test_errors_quiet_pedantic(tmp_path):
    f = torch.MemoryFile().binary()
    f.writeInt(1)
    with pytest.raises(OSError, match="read error: read 0 blocks instead of 1"):
        f.readInt()
    assert f.hasError() and not f.isQuiet()
    f.clearError().quiet()
    assert f.isQuiet() and f.readInt() is None and f.hasError()
    f.pedantic().seek(1)
    with pytest.raises(OSError, match="read 1 blocks instead of 3"):
        f.readInt(3)
    f.seek(1).quiet()
    s = f.readInt(3)
    assert s.tolist() == [1]  # the storage is resized to what was read
    with pytest.raises(OSError, match="unable to seek"):
        f.pedantic().seek(100)
    with pytest.raises(ValueError, match="greater than 0"):
        f.seek(0)
    r = torch.MemoryFile("r")
    with pytest.raises(ValueError, match="attempt to write in a read-only file"):
        r.writeInt(1)
    w = torch.MemoryFile("w")
    with pytest.raises(ValueError, match="attempt to read in a write-only file"):
        w.readInt()
    with pytest.raises(ValueError, match="file mode should be 'r','w' or 'rw'"):
        torch.MemoryFile("a")
    with pytest.raises(TypeError, match="IntStorage expected"):
        f.readInt(torch.FloatStorage(2))
    with pytest.raises(TypeError, match="IntStorage expected"):
        f.writeInt("1")
    with pytest.raises(ValueError, match="terminated by 0"):
        torch.MemoryFile(torch.CharStorage([1, 2]))
    f.close()
    with pytest.raises(ValueError, match="attempt to use a closed file"):
        f.close()
    with pytest.raises(ValueError, match="closed file"):
        f.readInt()
    missing = str(tmp_path / "no" / "such")
    with pytest.raises(FileNotFoundError, match="cannot open <.*such> in mode r"):
        torch.DiskFile(missing)
    assert torch.DiskFile(missing, "r", True) is None  # Lua returns nil when quiet
    with pytest.raises(ValueError, match="file mode"):
        torch.DiskFile(str(tmp_path / "x"), "rb")


def test_corrupted_objects(tmp_path):
    good = torch.serialize([torch.DoubleTensor(4).fill(2)])
    for cut in (3, 20, len(good) - 5):
        f = torch.MemoryFile(
            torch.CharStorage([b - 256 if b > 127 else b for b in good[:cut] + b"\0"]), "r"
        ).binary()
        with pytest.raises(ValueError, match="truncated"):
            f.readObject()
        assert f.hasError()
    asc = torch.serialize([torch.DoubleTensor(4).fill(2)], "ascii")
    p = str(tmp_path / "a")
    with open(p, "wb") as h:
        h.write(asc.replace(b"2 2 2 2", b"2 2 x 2"))
    with torch.DiskFile(p) as f, pytest.raises(ValueError, match="bad Torch7 data"):
        f.readObject()
    with open(p, "wb") as h:
        h.write(b"9\n")
    with torch.DiskFile(p) as f, pytest.raises(ValueError, match="unknown type tag 9"):
        f.readObject()
    with open(p, "wb") as h:
        h.write(b"4\n1\n3\nV 1\n2\nab\n")
    with pytest.raises(ValueError, match="truncated Torch7 data: the fields of a ab"):
        torch.load(p, "ascii")  # an unknown class's fields table is missing
    with open(p, "wb") as h:
        h.write(
            struct.pack("<iiii3si19sq", 1, 4, 1, 3, b"V 1", 19, b"torch.DoubleStorage", 1 << 60)
        )
    with torch.DiskFile(p).binary() as f:
        assert f.readInt() == 1
        with pytest.raises(
            ValueError, match="truncated Torch7 data: the 1152921504606846976 elements"
        ):
            f.readObject()


def test_position_seek_synchronize_flags(tmp_path):
    p = str(tmp_path / "f")
    f = torch.DiskFile(p, "rw").binary()
    assert f.position() == 1 and f.isReadable() and f.isWritable()
    f.writeInt(torch.IntStorage([1, 2, 3]))
    assert f.position() == 13
    f.synchronize()
    assert os.path.getsize(p) == 12
    f.seek(5)
    assert f.readInt() == 2
    f.seek(5)
    f.writeInt(20)
    f.seekEnd()
    assert f.position() == 13
    f.seek(1)
    assert f.readInt(3).tolist() == [1, 20, 3]
    assert "torch.DiskFile on <" in str(f) and "[status: open -- mode rw]" in str(f)
    f.close()
    assert "closed" in str(f)
    with torch.DiskFile(p, "r") as g:
        assert g.isReadable() and not g.isWritable() and g.isAutoSpacing()
        assert g.binary() is g and g.isBinary() and not g.ascii().isBinary()
    assert not g._is_open()
    m = torch.MemoryFile("w")
    assert str(m) == "torch.MemoryFile [status: open -- mode:  w]"
    with torch.DiskFile(p, "w").binary().noBuffer() as g:
        g.writeInt(5)
        assert os.path.getsize(p) == 4  # noBuffer: written at once


def test_memoryfile_over_storage():
    s = torch.CharStorage([ord("7"), ord(" "), ord("8"), 0])
    f = torch.MemoryFile(s)  # mode 'rw'
    assert f.readInt(2).tolist() == [7, 8]
    f.writeInt(9)
    assert f.storage() is s
    assert bytes(v for v in s.tolist()) == b"7 89\n\0"

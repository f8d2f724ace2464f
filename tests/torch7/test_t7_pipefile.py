"""torch.PipeFile (pipefile.md): a DiskFile over a shell command's output or
input.  Expected values and messages are those of real Lua Torch7 running
the same calls."""

import pytest

import strided as torch


def test_reads_ascii_numbers_and_lines():
    f = torch.PipeFile('printf "1 2 3.5\\nhello\\n"')
    assert f.readInt() == 1
    assert f.readDouble(2).tolist() == [2.0, 3.5]
    assert f.readString("*l") == "hello"
    with pytest.raises(OSError, match="read error: read 0 blocks instead of 1"):
        f.readString("*l")
    assert f.hasError()
    f.close()


def test_cannot_seek_nor_tell():
    f = torch.PipeFile("printf 12")
    with pytest.raises(OSError, match="unable to seek to position 0"):
        f.seek(1)
    with pytest.raises(OSError, match="unable to seek at end of file"):
        f.seekEnd()
    with pytest.raises(OSError, match="position"):
        f.position()
    assert f.readInt() == 12  # still readable after the refused seeks
    f.close()


def test_printing_and_modes():
    f = torch.PipeFile("true")
    assert str(f) == "torch.PipeFile on <true> [status: open -- mode: r ]"
    f.close()
    assert str(f) == "torch.PipeFile on <true> [status: closed -- mode: r ]"
    with pytest.raises(ValueError, match="mode"):
        torch.PipeFile("cat", "rw")
    with pytest.raises(TypeError, match="command"):
        torch.PipeFile(3)
    assert torch.typename(f) == "torch.PipeFile"
    assert torch.isTypeOf(f, "torch.DiskFile") and torch.isTypeOf(f, torch.DiskFile)


def test_write_then_read_binary(tmp_path):
    out = tmp_path / "pw.txt"
    w = torch.PipeFile(f"cat > {out}", "w")
    w.writeInt(5)
    w.writeDouble(torch.DoubleStorage([1.5, 2]))
    w.close()  # waits for the command, as pclose
    assert out.read_text() == "5\n1.5 2\n"
    b = torch.PipeFile(f"cat {out}")
    b.binary()
    assert b.readInt() == 774965813  # Lua's value: the bytes "5\n1." as an int
    b.close()


def test_quiet_end_of_stream():
    q = torch.PipeFile('printf "1 2"')
    q.quiet()
    assert (q.readInt(), q.readInt()) == (1, 2)
    assert q.readInt() is None  # Lua returns an uninitialised number
    assert q.hasError()


def test_objects_through_a_pipe(tmp_path):
    out = tmp_path / "obj.t7"
    o = torch.PipeFile(f"cat > {out}", "w")
    o.writeObject(torch.range(1, 3))
    o.writeObject({"a": "b"})
    o.close()
    r = torch.PipeFile(f"cat {out}")
    assert r.readObject().totable() == [1, 2, 3]
    assert r.readObject() == {"a": "b"}


def test_long_stream_keeps_little_memory():
    big = torch.PipeFile("seq 1 200000")
    s = big.readLong(200000)
    assert (s[1], s[200000]) == (1, 200000) and not big.hasError()
    assert len(big._handle._buf) < 1 << 17

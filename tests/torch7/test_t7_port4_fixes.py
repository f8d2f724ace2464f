"""Lua Torch7 behaviours fixed while porting test.lua's gesv..pstrf tests
(test_lua_port4.py).  The expected values were produced by real Lua Torch7."""
import hashlib

import pytest

import strided as torch


def _sha(b):
    return hashlib.sha256(b).hexdigest()


def _seeded(seed):
    g = torch.Generator()
    torch.manualSeed(g, seed)
    return g


# Lua: g = torch.Generator(); torch.manualSeed(g, 123); torch.serialize(g)
LUA_GEN123 = "f511498082c78b372d2fd31b9c0f1596544538cefdcb53ce963218d558a2b4b5"
LUA_GEN123_ASCII = "17f3c81a9bcd66ae00bd9a664ed5afeb1c1cdcbcf3102519ffd1b669b7763079"
LUA_GEN123_TWICE = "9e6b1ce49833b2193005ad4445958e58825ffc62ce754b1946b347b94254b4d1"   # {g, g}
# Lua: torch.manualSeed(g, 5); torch.randn(g, 3); torch.serialize(g)
LUA_GEN5_NORMAL = "08ed75dfb705f68055016d39205eeb04ca592193c756177ce228f44c496ca1d8"


def test_generator_serializes_as_lua():
    g = _seeded(123)
    b = torch.serialize(g)
    # tag 4 (torch object), index 1, "V 1", "torch.Generator", the 5048 raw state bytes
    assert len(b) == 5082
    assert b[:34] == (b"\x04\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00V 1"
                      b"\x0f\x00\x00\x00torch.Generator")
    assert _sha(b) == LUA_GEN123
    assert _sha(torch.serialize(g, "ascii")) == LUA_GEN123_ASCII
    assert _sha(torch.serialize([g, g])) == LUA_GEN123_TWICE        # the second as a reference
    g5 = _seeded(5)
    torch.randn(g5, 3)                    # a Box-Muller value left pending in the state
    assert _sha(torch.serialize(g5)) == LUA_GEN5_NORMAL


def test_generator_deserializes_to_its_stream():
    g = _seeded(123)
    d = torch.deserialize(torch.serialize(g))
    assert isinstance(d, torch.Generator) and d is not g
    assert torch.random(d) == 2991312382              # Lua's next torch.random(g)
    assert torch.random(g) == 2991312382              # serializing left g's state alone
    a = torch.deserialize(torch.serialize(_seeded(123), "ascii"), "ascii")
    assert torch.random(a) == 2991312382
    twice = torch.deserialize(torch.serialize([g, g]))
    assert twice[0] is twice[1]                        # Lua: t[1] == t[2]
    g5 = _seeded(5)
    torch.randn(g5, 3)
    assert torch.normal(torch.deserialize(torch.serialize(g5))) == -1.3693802243009257


def test_generator_save_load_and_file_objects(tmp_path):
    p = str(tmp_path / "g.t7")
    torch.save(p, _seeded(123), "ascii")           # Lua's torch.save(p, g, 'ascii') bytes
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
    bad[46:50] = b"\0\0\0\0"                       # seeded = 0: not a state Lua writes
    with pytest.raises(ValueError, match="torch.Generator.*invalid generator state"):
        torch.deserialize(bytes(bad))

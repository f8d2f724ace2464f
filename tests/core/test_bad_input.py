"""Bad input on both faces (the Torch7 face strided.torch7, the array API
face strided.compat): a clear Python exception, nothing read or written out
of bounds (docs/core-semantics.md, "Bad input").  The fuzz tests feed
truncated and corrupted serialized objects (.t7 data, pickles, MemoryFile
contents, DLPack capsules) and accept only clean exceptions; .ci/sanitizers
runs them (and the rest of the suite) under ASan and UBSan."""

import gc
import os
import pickle
import re
import struct
import sys
import traceback
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, strategies as st

import strided as torch
import strided.compat as xp
from strided.core import base as _core, dlpack as _dlpack
from strided._c._strided import ffi

from dlpack_crafted import Crafted

INT_TENSORS = ["ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor"]
STORAGES = [
    "ByteStorage",
    "CharStorage",
    "ShortStorage",
    "IntStorage",
    "LongStorage",
    "FloatStorage",
    "DoubleStorage",
]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]

# the exceptions a corrupted input may give: never MemoryError (an absurd
# allocation attempted), IndexError/KeyError (an internal look-up leaking),
# SystemError or a crash
CLEAN = (ValueError, TypeError, EOFError, OSError, OverflowError)


# ---------------------------------------------------------------- Storage(n, address)


def _address_of(t):
    return torch.data(t, True)


@pytest.mark.parametrize("name", STORAGES)
def test_storage_address_null_misaligned_negative_and_not_int(name):
    cls = getattr(torch, name)
    item = cls().elementSize()
    backing = getattr(torch, name.replace("Storage", "Tensor"))(8).zero()
    addr = _address_of(backing)
    with pytest.raises(ValueError, match="address is null"):
        cls(3, 0)
    with pytest.raises(ValueError, match="address is null"):
        cls(0, 0)
    if item > 1:
        with pytest.raises(ValueError, match=f"not a multiple of the element size {item}"):
            cls(3, addr + 1)
    with pytest.raises(ValueError, match="size must be >= 0"):
        cls(-1, addr)
    with pytest.raises(ValueError, match="address is negative"):
        cls(3, -item)
    for bad in (float(addr), str(addr), None, True, [addr]):
        with pytest.raises(TypeError, match="address must be an int"):
            cls(3, bad)
    # a block past the top of the address space, or too large to count in bytes
    with pytest.raises(OverflowError, match="do not fit in the address space"):
        cls(2, 2**64 - item)
    with pytest.raises(OverflowError, match="do not fit in the address space"):
        cls(2**63 // item, addr)
    # the checked form still views the memory
    s = cls(8, addr)
    s[2] = 1
    assert backing[2] == 1 and s.size() == 8


def test_storage_address_c_refuses_a_wrapping_block():
    # the core checks it too, whatever the face above it lets through
    with pytest.raises(OverflowError, match="wrap around the address space"):
        _core.borrow_storage(2**64 - 8, 16)


# ---------------------------------------------------------------- repeat, copy=, narrow


def test_repeat_tensor_negative_and_overflowing_counts():
    x = torch.LongTensor([1, 2, 3])
    with pytest.raises(ValueError, match="repeatTensor: size 1 must be >= 0"):
        x.repeatTensor(-1)
    with pytest.raises(ValueError, match="size 2 must be >= 0"):
        x.repeatTensor(2, -2)
    for reps in [(2**62,), (2**40, 2**40), (2**31, 2**31, 8), (2**70,), (2**63, 1)]:
        with pytest.raises(OverflowError, match="repeatTensor: repetitions"):
            x.repeatTensor(*reps)
    res = torch.LongTensor([9, 9])
    with pytest.raises(OverflowError):
        res.repeatTensor(x, 2**62)
    assert res.tolist() == [9, 9]
    # the edge still works: zero repetitions, and the largest products are
    # refused by size only when they cannot be allocated
    assert x.repeatTensor(0, 2).size().tolist() == [0, 6]
    assert x.repeatTensor(2).tolist() == [1, 2, 3, 1, 2, 3]


def test_compat_repeat_and_tile_negative_and_overflowing_counts():
    a = xp.asarray([1, 2, 3])
    with pytest.raises(ValueError, match="repeat: repeats must be >= 0"):
        xp.repeat(a, -1)
    with pytest.raises(ValueError, match="repeat: repeats must be >= 0"):
        xp.repeat(a, xp.asarray([1, -1, 1]))
    with pytest.raises(ValueError, match="repeats must be >= 0"):
        xp.repeat(a, xp.asarray([-1], dtype=xp.int8))
    with pytest.raises(TypeError, match="repeat: repeats must be integers"):
        xp.repeat(a, 2.0)
    with pytest.raises(TypeError, match="repeat: repeats must be integers"):
        xp.repeat(a, True)
    # the product (or the sum of counts) beyond what can be allocated: an
    # int64 sum would have wrapped to a small, wrong result
    for reps in [
        2**62,
        2**70,
        xp.asarray([2**62] * 3),
        xp.asarray([2**63 - 1, 1, 1], dtype=xp.uint64),
        xp.asarray([2**64 - 1] * 3, dtype=xp.uint64),
    ]:
        with pytest.raises(OverflowError, match="repeat: .*more than 2\\*\\*62"):
            xp.repeat(a, reps)
    with pytest.raises(ValueError, match="tile: repetitions must be >= 0"):
        xp.tile(a, (-1,))
    with pytest.raises(TypeError, match="tile: repetitions must be integers"):
        xp.tile(a, (1.5,))
    for reps in [(2**62,), (2**40, 2**40), (2**70,)]:
        with pytest.raises(OverflowError, match="tile: .*more than 2\\*\\*62"):
            xp.tile(a, reps)
    with pytest.raises(OverflowError, match="tile"):
        xp.tile(xp.zeros((0,)), (2**70,))
    np.testing.assert_array_equal(np.asarray(xp.repeat(a, xp.asarray([1, 0, 2]))), [1, 3, 3])
    np.testing.assert_array_equal(np.asarray(xp.tile(a, (2,))), [1, 2, 3, 1, 2, 3])


@pytest.mark.parametrize("bad", ["yes", "no", 1, 0, 1.0, [], "True"])
def test_compat_copy_must_be_true_false_or_none(bad):
    a = xp.asarray([1, 2])
    calls = [
        lambda: xp.asarray([1, 2], copy=bad),
        lambda: xp.asarray(a, copy=bad),
        lambda: xp.astype(a, xp.int32, copy=bad),
        lambda: xp.reshape(a, (2,), copy=bad),
        lambda: xp.from_dlpack(np.arange(2), copy=bad),
        lambda: a.__dlpack__(copy=bad),
        lambda: a.__array__(copy=bad),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="copy must be True, False or None"):
            call()


def test_compat_copy_flags_accepted():
    a = xp.asarray([1, 2])
    assert xp.asarray(a, copy=False) is not None
    assert xp.astype(a, xp.int64, copy=False) is a
    assert xp.astype(a, xp.int64, copy=None) is a
    assert xp.astype(a, xp.int64, copy=True) is not a
    assert np.asarray(xp.asarray(a, copy=np.True_)).tolist() == [1, 2]  # numpy's bool too


def test_compat_asarray_names_what_it_cannot_convert():
    # a string names its value (SciPy's ndimage tests match "Unsupported"
    # or the value; numpy says "could not convert string to float: 'a duck'")
    with pytest.raises(TypeError, match=r"Unsupported input type str \('a duck'\)"):
        xp.asarray("a duck")
    with pytest.raises(TypeError, match="Unsupported input type object"):
        xp.asarray(object())
    assert np.asarray(xp.asarray(b"xy")).tolist() == [120, 121]  # bytes: a buffer


def test_empty_narrow_keeps_its_storage_offset():
    # Lua Torch7 refuses size 0 (x:narrow(1, 3, 0): "bad argument #3 to
    # 'narrow' (out of range)"); strided keeps zero-size dimensions
    # (docs/torch7.md), and the empty window starts where it would start,
    # as every narrow does: offset + (index - 1) * stride
    x = torch.LongTensor([1, 2, 3])
    assert x.narrow(1, 3, 0).storageOffset() == 3
    assert x.narrow(1, 2, 0).storageOffset() == 2
    assert x.narrow(1, 3, 1).storageOffset() == 3
    y = torch.LongTensor(3, 4)
    assert y.narrow(2, 3, 0).storageOffset() == 3
    assert y.narrow(1, 2, 0).storageOffset() == 5
    z = y.narrow(1, 2, 0)
    assert z.size().tolist() == [0, 4] and z.nElement() == 0 and z.storage() is y.storage()
    # of an already narrowed view, from that view's offset
    w = y.narrow(1, 2, 2).narrow(2, 4, 0)
    assert w.storageOffset() == 5 + 3
    # one past the end with a negative stride: not a valid offset, the
    # view keeps its parent's
    from strided.core import views as _views

    c = _core.Core.empty((3,), "int64")
    r = c.view(2, (3,), (-1,))
    assert _views.narrow(r, 0, 3, 0).offset == 2 and _views.narrow(r, 0, 1, 0).offset == 1


# ---------------------------------------------------------------- apply, map, map2


@pytest.mark.parametrize("bad", [[1], "5", "a", {1: 2}, (1,), 1j, object(), b"1"])
def test_apply_map_map2_refuse_non_numbers(bad):
    x = torch.LongTensor([1, 2, 3])
    y = torch.LongTensor([4, 5, 6])
    # Lua: "cannot convert 'table' to 'int64_t'" (and its C path: "given
    # function should return a number or nil"); here a TypeError, raised
    # before anything is written (Lua has written the earlier elements)
    calls = [
        lambda: x.apply(lambda v: v * 10 if v < 3 else bad),
        lambda: x.map(y, lambda a, b: a * 10 if a < 3 else bad),
        lambda: x.map2(y, y, lambda a, b, c: a * 10 if a < 3 else bad),
    ]
    for call, name in zip(calls, ["apply", "map", "map2"]):
        with pytest.raises(
            TypeError,
            match=f"{name}: the function must return a number or None, got .* for element 3",
        ):
            call()
        assert x.tolist() == [1, 2, 3]


def test_apply_none_keeps_and_numbers_convert():
    x = torch.LongTensor([1, 2, 3])
    assert x.apply(lambda v: None if v == 2 else v * 10).tolist() == [10, 2, 30]
    assert x.apply(lambda v: v > 5).tolist() == [1, 0, 1]  # a bool is a number
    assert x.map(x, lambda a, b: 2.7).tolist() == [2, 2, 2]  # truncated, as Lua
    assert x.map2(x, x, lambda a, b, c: np.int64(4)).tolist() == [4, 4, 4]
    assert torch.DoubleTensor([1.5]).apply(lambda v: v * 2).tolist() == [3.0]


# ---------------------------------------------------------------- integer division by zero


def _t7_forms(torch_, x, z, res):
    """(name, call) of every Torch7 form that divides x by zero (a number
    0 or the tensor z holding a zero); res is the result tensor of the
    [res] forms."""
    return [
        ("x % 0", lambda: x % 0),
        ("x / 0", lambda: x / 0),
        ("torch.mod", lambda: torch_.mod(x, 0)),
        ("torch.fmod", lambda: torch_.fmod(x, 0)),
        ("torch.remainder", lambda: torch_.remainder(x, 0)),
        ("torch.div", lambda: torch_.div(x, 0)),
        ("torch.cmod", lambda: torch_.cmod(x, z)),
        ("torch.cfmod", lambda: torch_.cfmod(x, z)),
        ("torch.cremainder", lambda: torch_.cremainder(x, z)),
        ("torch.cdiv", lambda: torch_.cdiv(x, z)),
        ("x:mod", lambda: x.mod(0)),
        ("x:fmod", lambda: x.fmod(0)),
        ("x:remainder", lambda: x.remainder(0)),
        ("x:div", lambda: x.div(0)),
        ("x:cmod", lambda: x.cmod(z)),
        ("x:cfmod", lambda: x.cfmod(z)),
        ("x:cremainder", lambda: x.cremainder(z)),
        ("x:cdiv", lambda: x.cdiv(z)),
        ("res:mod", lambda: res.mod(x, 0)),
        ("res:fmod", lambda: res.fmod(x, 0)),
        ("res:remainder", lambda: res.remainder(x, 0)),
        ("res:div", lambda: res.div(x, 0)),
        ("res:cmod", lambda: res.cmod(x, z)),
        ("res:cfmod", lambda: res.cfmod(x, z)),
        ("res:cremainder", lambda: res.cremainder(x, z)),
        ("res:cdiv", lambda: res.cdiv(x, z)),
        ("torch.mod(res)", lambda: torch_.mod(res, x, 0)),
        ("torch.fmod(res)", lambda: torch_.fmod(res, x, 0)),
        ("torch.remainder(res)", lambda: torch_.remainder(res, x, 0)),
        ("torch.div(res)", lambda: torch_.div(res, x, 0)),
        ("torch.cmod(res)", lambda: torch_.cmod(res, x, z)),
        ("torch.cfmod(res)", lambda: torch_.cfmod(res, x, z)),
        ("torch.cremainder(res)", lambda: torch_.cremainder(res, x, z)),
        ("torch.cdiv(res)", lambda: torch_.cdiv(res, x, z)),
        ("addcdiv", lambda: torch_.addcdiv(res, x, 2, x, z)),
        ("x:addcdiv", lambda: x.addcdiv(2, x, z)),
    ]


@pytest.mark.parametrize("name", INT_TENSORS)
def test_t7_integer_division_by_zero_raises_and_writes_nothing(name, threads):
    cls = getattr(torch, name)
    # above the 64 Ki elements that split work across threads; the zero last
    n = (1 << 16) + 7
    x = cls(n).fill(7)
    z = cls(n).fill(1)
    z[n] = 0
    res = cls(n).fill(9)
    for form, call in _t7_forms(torch, x, z, res):
        with pytest.raises(ZeroDivisionError, match="by zero"):
            call()
        assert _all(x, 7) and _all(res, 9), form
    # a non-contiguous x and z
    xt = cls(50, 100).fill(7).t()
    zt = cls(50, 100).fill(3).t()
    zt[100][50] = 0
    with pytest.raises(ZeroDivisionError):
        torch.cmod(xt, zt)
    with pytest.raises(ZeroDivisionError):
        xt.cdiv(zt)
    assert _all(xt, 7)


def _all(t, v):
    return t.min() == v and t.max() == v


@pytest.mark.parametrize("name", ["CharTensor", "ShortTensor", "IntTensor", "LongTensor"])
def test_t7_most_negative_by_minus_one_does_not_trap(name):
    # x86's idiv traps for INT_MIN / -1: the kernels never execute it
    cls = getattr(torch, name)
    bits = {"CharTensor": 8, "ShortTensor": 16, "IntTensor": 32, "LongTensor": 64}[name]
    m = -(2 ** (bits - 1))
    x, minus1 = cls([m, 5]), cls([-1, -1])
    assert (x / -1).tolist() == [m, -5]  # wraps, as C's two's complement
    assert x.cdiv(minus1).tolist() == [m, -5]
    for f in (torch.fmod, torch.remainder):
        assert f(x, -1).tolist() == [0, 0]
    assert torch.cfmod(x, minus1).tolist() == [0, 0] and torch.cremainder(x, minus1).tolist() == [
        0,
        0,
    ]


@pytest.mark.parametrize("dt", INT_DTYPES)
def test_compat_integer_division_by_zero_raises(dt, threads):
    # the array API leaves integer division by zero unspecified; the compat
    # face raises ZeroDivisionError (as Python's ints do) before writing
    n = (1 << 16) + 7
    a = xp.full((n,), 7, dtype=getattr(xp, dt))
    z = xp.ones((n,), dtype=getattr(xp, dt))
    z[n - 1] = 0
    forms = [
        lambda: a // 0,
        lambda: a % 0,
        lambda: a // z,
        lambda: a % z,
        lambda: 7 // z,
        lambda: 7 % z,
        lambda: xp.floor_divide(a, z),
        lambda: xp.remainder(a, z),
        lambda: xp.floor_divide(a, 0),
        lambda: xp.remainder(a, 0),
    ]
    for call in forms:
        with pytest.raises(ZeroDivisionError, match="by zero"):
            call()
    for op in ("__ifloordiv__", "__imod__"):
        b = xp.full((n,), 7, dtype=getattr(xp, dt))
        with pytest.raises(ZeroDivisionError):
            getattr(b, op)(z)
        assert bool(xp.all(b == 7))
    # no element, nothing divided: no error
    e = xp.zeros((0,), dtype=getattr(xp, dt))
    assert (e // 0).shape == (0,) and (e % e).shape == (0,)
    # floats follow IEEE 754
    assert np.isinf(float((xp.asarray([7.0]) // 0)[0])) and np.isnan(
        float((xp.asarray([7.0]) % 0)[0])
    )


@pytest.mark.parametrize(
    "dt,m", [("int8", -128), ("int16", -(2**15)), ("int32", -(2**31)), ("int64", -(2**63))]
)
def test_compat_most_negative_by_minus_one_does_not_trap(dt, m):
    a = xp.asarray([m, 3], dtype=getattr(xp, dt))
    assert np.asarray(a // -1).tolist() == [m, -3]
    assert np.asarray(a % -1).tolist() == [0, 0]


# ---------------------------------------------------------------- fuzzing: helpers


def _flip(data, changes):
    """data with each (position, byte) of `changes` written (positions
    taken modulo the length)."""
    b = bytearray(data)
    for pos, byte in changes:
        b[pos % len(b)] = byte
    return bytes(b)


_CHANGES = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4)

_LIMIT = 1 << 26  # no single allocation of a fuzzed input may exceed 64 MiB


def _patch_allocations(mp):
    """Through MonkeyPatch mp: every storage and array the Python layers
    allocate is at most _LIMIT bytes, so a claimed size of 2**60 elements
    must be refused before allocating (an AssertionError is no clean
    exception)."""
    t7storage = sys.modules["strided.torch7.storage"]
    real_new, real_empty = t7storage.new_storage, _core.Core.empty.__func__

    def new_storage(nbytes):
        assert nbytes <= _LIMIT, f"an allocation of {nbytes} bytes was attempted"
        return real_new(nbytes)

    def empty(cls, shape, dt):
        n = 1
        for s in shape:
            n *= s
        assert n * _core.dtype(dt).itemsize <= _LIMIT, (
            f"an allocation of {n} elements was attempted"
        )
        return real_empty(cls, shape, dt)

    mp.setattr(t7storage, "new_storage", new_storage)
    mp.setattr(_core.Core, "empty", classmethod(empty))


@pytest.fixture
def no_big_allocation(monkeypatch):
    _patch_allocations(monkeypatch)


def _clean(call):
    """Run call(); a clean exception is fine, anything else fails the test."""
    try:
        call()
    except CLEAN:
        pass


# ---------------------------------------------------------------- fuzzing: .t7 data


def _t7_objects():
    t = torch.LongTensor([[1, 2, 3], [4, 5, 6]])
    return {
        "tensor": t,
        "transposed": torch.DoubleTensor(3, 4).fill(1.5).t(),
        "storage": torch.ByteStorage([1, 2, 3]),
        "table": {"a": torch.IntTensor([1, 2]), 1: "x", 2: 3.5, "b": True, "c": [1, 2]},
        "shared": [t, t.narrow(2, 2, 1), t.storage()],
        "generator": torch.Generator(),
        "empty": torch.CharTensor(),
        "float": torch.FloatTensor([1.5, -2]),
    }


T7_SAMPLES = [
    (k, mode, torch.serialize(o, mode))
    for k, o in _t7_objects().items()
    for mode in ("binary", "ascii")
]
DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "torch7", "data")
# the files Lua wrote: ascii ones start with a decimal type tag and a newline
T7_SAMPLES += [
    (fn, "ascii" if data[:1].isdigit() and data[1:2] == b"\n" else "binary", data)
    for fn in sorted(os.listdir(DATA))
    if fn.endswith(".t7")
    for data in [open(os.path.join(DATA, fn), "rb").read()]
]
T7_IDS = [f"{k}-{m}" for k, m, _ in T7_SAMPLES]


def _char_storage(data, extra=0):
    """A CharStorage holding the bytes `data` (then `extra` zero bytes)."""
    s = torch.CharStorage(len(data) + extra)
    s.fill(0)
    if data:
        ffi.memmove(s._s.data, data, len(data))
    return s


def _memory_file(data, binary):
    f = torch.MemoryFile(_char_storage(data, 1), "r")
    return f.binary() if binary else f


def _t7_readers(data, mode, tmp_path):
    """Every way of reading serialized data: deserialize, load from a file
    (binary, ascii, b64) and MemoryFile:readObject()."""
    path = tmp_path / "fuzz.t7"
    path.write_bytes(data)
    calls = [
        lambda: torch.deserialize(data, mode),
        lambda: torch.load(str(path), mode),
        lambda: _memory_file(data, mode == "binary").readObject(),
    ]
    if mode == "binary":
        calls.append(lambda: torch.load(str(path), "b64"))
        calls.append(lambda: torch.deserializeFromStorage(_char_storage(data)))
    return calls


@pytest.mark.parametrize("label,mode,data", T7_SAMPLES, ids=T7_IDS)
def test_fuzz_t7_truncated_at_every_position(label, mode, data, tmp_path, no_big_allocation):
    for call in _t7_readers(data, mode, tmp_path):
        call()  # the whole data loads
    # every position through deserialize; through every reader too, but
    # within a long sample (the generator's 5048-byte state) at about 200
    step = max(1, len(data) // 200)
    for i in range(len(data)):
        if i % step:
            _clean(lambda: torch.deserialize(data[:i], mode))
            continue
        for call in _t7_readers(data[:i], mode, tmp_path):
            _clean(call)


@pytest.mark.parametrize("label,mode,data", T7_SAMPLES, ids=T7_IDS)
@given(changes=_CHANGES)
def test_fuzz_t7_flipped_bytes(label, mode, data, changes, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("t7")
    with pytest.MonkeyPatch.context() as mp:
        _patch_allocations(mp)
        for call in _t7_readers(_flip(data, changes), mode, tmp):
            _clean(call)


def _t7_string(b):
    return struct.pack("<i", len(b)) + b


def _t7_torch_head(index, name):
    # tag 4 (torch object), its index, the version string, the class name
    return struct.pack("<ii", 4, index) + _t7_string(b"V 1") + _t7_string(name.encode())


def _t7_storage_claiming(n, index=1):
    """Binary .t7 data of a DoubleStorage that claims n elements and holds 2."""
    return (
        _t7_torch_head(index, "torch.DoubleStorage")
        + struct.pack("<q", n)
        + struct.pack("<2d", 1.0, 2.0)
    )


@pytest.mark.parametrize("n", [3, 2**31, 2**40, 2**60, 2**63 - 1])
def test_t7_huge_claimed_storage_is_refused_before_allocating(n, tmp_path, no_big_allocation):
    assert torch.deserialize(_t7_storage_claiming(2)).tolist() == [1.0, 2.0]
    for call in _t7_readers(_t7_storage_claiming(n), "binary", tmp_path):
        with pytest.raises(ValueError, match="truncated"):
            call()


@pytest.mark.parametrize(
    "sizes,strides",
    [((2**30, 2**30), (2**30, 1)), ((2**62, 4), (1, 1)), ((3,), (2**62,)), ((2,), (-1,))],
)
def test_t7_tensor_claiming_more_than_its_storage_is_refused(sizes, strides, no_big_allocation):
    data = (
        _t7_torch_head(1, "torch.DoubleTensor")
        + struct.pack("<i", len(sizes))
        + struct.pack(f"<{len(sizes)}q", *sizes)
        + struct.pack(f"<{len(sizes)}q", *strides)
        + struct.pack("<q", 1)
        + _t7_storage_claiming(2, index=2)
    )
    ok = (
        _t7_torch_head(1, "torch.DoubleTensor")
        + struct.pack("<i", 1)
        + struct.pack("<2q", 2, 1)
        + struct.pack("<q", 1)
        + _t7_storage_claiming(2, index=2)
    )
    assert torch.deserialize(ok).tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="does not fit its storage"):
        torch.deserialize(data)


# ---------------------------------------------------------------- fuzzing: File reads


@pytest.mark.parametrize("n", [2**31, 2**40, 2**60, 2**62])
@pytest.mark.parametrize("kind", ["Byte", "Char", "Long", "Double", "Int"])
def test_file_reads_of_a_huge_count_allocate_what_the_file_holds(kind, n, tmp_path):
    path = tmp_path / "small.bin"
    path.write_bytes(b"12345678" * 4)
    tracemalloc.start()
    try:
        for make in (
            lambda: torch.DiskFile(str(path), "r").binary(),
            lambda: torch.DiskFile(str(path), "r"),
            lambda: _memory_file(b"12345678" * 4, True),
            lambda: _memory_file(b"12345678" * 4, False),
        ):
            f = make()
            # Lua: "read error: read 4 blocks instead of ..."
            with pytest.raises(OSError, match="read error"):
                getattr(f, "read" + kind)(n)
            f = make().quiet()
            s = getattr(f, "read" + kind)(n)
            assert f.hasError() and s.size() <= 32
        assert tracemalloc.get_traced_memory()[1] < 1 << 24
    finally:
        tracemalloc.stop()


# ---------------------------------------------------------------- fuzzing: pickles


def _pickle_objects():
    t = torch.LongTensor([[1, 2, 3], [4, 5, 6]])
    return [
        t,
        t.t(),
        torch.ByteStorage([1, 2, 3]),
        [t, t.narrow(2, 2, 1), t.storage()],
        torch.DoubleTensor(),
        torch.LongStorage(t.storage(), 2, 3),
        xp.asarray([[1.5, 2.5], [3.5, 4.5]]).T,
        xp.asarray([True, False]),
        xp.asarray(3, dtype=xp.int8),
        xp.zeros((0, 3)),
    ]


PICKLES = [
    (i, proto, pickle.dumps(o, proto)) for i, o in enumerate(_pickle_objects()) for proto in (2, 5)
]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))


def _raised_in_strided(e):
    """Whether the exception came from strided's code (the functions a pickle
    calls to rebuild our objects), not from the pickle machinery reading a
    corrupted stream (bad opcodes, unknown modules, a BINBYTES8 length of
    2**60, which are the pickle module's own)."""
    here = os.path.abspath(__file__)
    return any(
        os.path.abspath(f.filename).startswith(ROOT) and os.path.abspath(f.filename) != here
        for f in traceback.extract_tb(e.__traceback__)
    )


def _unpickle(data):
    try:
        pickle.loads(data)
    except Exception as e:
        if _raised_in_strided(e) and not isinstance(e, CLEAN):
            raise


def test_pickles_round_trip():
    for _, _, data in PICKLES:
        pickle.loads(data)
    a = xp.asarray([[1.5, 2.5], [3.5, 4.5]]).T
    np.testing.assert_array_equal(np.asarray(pickle.loads(pickle.dumps(a))), np.asarray(a))
    b = pickle.loads(pickle.dumps(xp.asarray([True, False])))
    assert b.dtype == xp.bool and np.asarray(b).tolist() == [True, False]


@pytest.mark.parametrize("i,proto,data", PICKLES, ids=[f"{i}-p{p}" for i, p, _ in PICKLES])
def test_fuzz_pickles_truncated_at_every_position(i, proto, data, no_big_allocation):
    for k in range(len(data)):
        _unpickle(data[:k])


@pytest.mark.parametrize("i,proto,data", PICKLES, ids=[f"{i}-p{p}" for i, p, _ in PICKLES])
@given(changes=_CHANGES)
def test_fuzz_pickles_flipped_bytes(i, proto, data, changes):
    with pytest.MonkeyPatch.context() as mp:
        _patch_allocations(mp)
        _unpickle(_flip(data, changes))


def _rebuilders():
    """(callable, good args) of every function a pickle of ours calls."""
    out = []
    for o in _pickle_objects():
        if isinstance(o, list):
            continue
        f, args = o.__reduce__()[:2]
        out.append((f, args))
    return out


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.text(max_size=5),
    st.binary(max_size=24),
    st.lists(st.integers(-(2**64), 2**64), max_size=70).map(list),
    st.lists(st.integers(-3, 2**62), max_size=4).map(tuple),
)


@given(which=st.integers(0, 100), field=st.integers(0, 10), junk=_JUNK, data=st.data())
def test_fuzz_pickle_rebuild_arguments(which, field, junk, data):
    """The rebuild functions called with one argument replaced by junk (what
    a hand-made or corrupted pickle can pass): clean exceptions only."""
    rebuilders = _rebuilders()
    f, args = rebuilders[which % len(rebuilders)]
    args = list(args)
    args[field % len(args)] = junk
    with pytest.MonkeyPatch.context() as mp:
        _patch_allocations(mp)
        try:
            f(*args)
        except CLEAN:
            pass


def test_pickled_array_claiming_a_huge_shape_is_refused(no_big_allocation):
    from strided.compat._pickle import unpickle as rebuild

    with pytest.raises(ValueError, match="needs .* bytes, the pickle holds 8"):
        rebuild("float64", (2**30, 2**30), b"\0" * 8)
    with pytest.raises(ValueError, match="bad shape"):
        rebuild("float64", (-1,), b"")
    with pytest.raises(ValueError, match="unknown dtype"):
        rebuild("float128", (1,), b"\0" * 16)
    # bytes of a bool array other than 0 and 1 become True (a C cast)
    assert np.asarray(rebuild("bool", (3,), b"\x00\x02\x01")).tolist() == [False, True, True]


def test_pickled_tensor_geometry_outside_its_storage_is_a_value_error():
    from strided.torch7.tensor import _rebuild_view

    s = torch.LongStorage(6)
    for offset, shape, strides in [
        (0, [7], [1]),
        (5, [2], [1]),
        (0, [2, 3], [3, 7]),
        (0, [2**62, 4], [1, 1]),
        (-1, [1], [1]),
        (0, [3], [1, 1]),
        (0.5, [1], [1]),
        (0, [1] * 65, [1] * 65),
        (0, [-2], [1]),
    ]:
        with pytest.raises(ValueError, match="unpickling a torch.LongTensor"):
            _rebuild_view("torch.LongTensor", s, offset, shape, strides)
    with pytest.raises(ValueError, match="unknown tensor type"):
        _rebuild_view("torch.Nope", s, 0, [1], [1])


# ---------------------------------------------------------------- fuzzing: DLPack capsules


def test_dlpack_capsule_with_a_wrong_name_or_consumed():
    buf = np.arange(6.0)
    p = Crafted(buf)
    wrong = _dlpack._capsule_new(int(ffi.cast("uintptr_t", p.m)), None, None)  # unnamed
    with pytest.raises(BufferError, match="not named 'dltensor_versioned' or 'dltensor'"):
        _dlpack.to_core(wrong)
    other = _dlpack._capsule_new(int(ffi.cast("uintptr_t", p.m)), _dlpack._NAME[1, 1], None)
    with pytest.raises(BufferError, match="consumed only once"):
        xp.from_dlpack(other)
    assert p.calls == 0  # neither was taken
    cap = p.capsule()
    a = _dlpack.to_core(cap)
    with pytest.raises(BufferError, match="consumed only once"):
        _dlpack.to_core(cap)
    with pytest.raises(BufferError, match="consumed only once"):
        xp.from_dlpack(cap)
    assert a.shape == (6,)
    del a
    gc.collect()
    assert p.calls == 1


def test_dlpack_null_data_negative_shapes_huge_ndim():
    for kwargs, message in [
        ({"data": 0}, "data is NULL for 6 elements"),
        ({"shape": (-1,)}, "size of dimension 0 is -1"),
        ({"shape": (3, -2)}, "size of dimension 1 is -2"),
        ({"ndim": 2**31 - 1}, "2147483647 dimensions"),
        ({"ndim": -5}, "-5 dimensions"),
        ({"shape": (3,), "strides": (2**61,)}, "overflows"),
        ({"shape": (3,), "strides": (-(2**40),), "data": 4096}, "outside the address space"),
    ]:
        for copy in (None, True, False):
            p = Crafted(np.arange(6.0), **kwargs)
            with pytest.raises(BufferError, match=message):
                _dlpack.to_core(p.capsule(), copy=copy)
            assert p.calls == 1


_I64 = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-8, 8))


@given(
    dims=st.lists(st.tuples(_I64, _I64), max_size=4),
    strided_=st.booleans(),
    ndim=st.sampled_from([None, -1, -(2**31), 65, 2**31 - 1]),
    code=st.integers(0, 20),
    bits=st.sampled_from([0, 1, 8, 16, 32, 64, 128, 255]),
    lanes=st.integers(0, 3),
    device=st.integers(0, 20),
    byte_offset=st.one_of(st.integers(0, 64), st.integers(0, 2**64 - 1)),
    versioned=st.booleans(),
    version=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    null_data=st.booleans(),
)
def test_fuzz_dlpack_headers(
    dims, strided_, ndim, code, bits, lanes, device, byte_offset, versioned, version, null_data
):
    """Managed tensors with arbitrary header fields over a 64-byte buffer.
    ndim is the shape's length, or one that no consumer may trust (negative,
    above 64) with shape[] too short for it.  Either a BufferError (the
    deleter run exactly once) or a view; a view is read only when it lies
    inside the buffer: beyond it, with a valid pointer, is the producer's
    lie, which no consumer can see.  copy=False: nothing is read during the
    import (a misaligned element 0 is refused rather than copied)."""
    buf = np.zeros(8)
    shape = [n for n, _ in dims]
    strides = [s for _, s in dims] if strided_ else None
    p = Crafted(
        buf,
        versioned=versioned,
        shape=shape,
        strides=strides,
        dtype=(code, bits, lanes),
        device=(device, 0),
        byte_offset=byte_offset,
        version=version,
        ndim=ndim,
        data=0 if null_data else None,
    )
    try:
        c = _dlpack.to_core(p.capsule(), copy=False)
    except BufferError:
        assert p.calls == 1
        return
    assert ndim is None  # an untrustworthy ndim is always refused
    if c.size:
        lo = sum((n - 1) * s for n, s in zip(c.shape, c.strides) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(c.shape, c.strides) if s > 0)
        first = c.address + lo * c.dtype.itemsize
        end = c.address + (hi + 1) * c.dtype.itemsize
        if buf.ctypes.data <= first and end <= buf.ctypes.data + buf.nbytes:
            _core.tolist(c)
    del c
    gc.collect()
    assert p.calls == 1


# ---------------------------------------------------------------- fuzzing: MemoryFile contents


@given(
    data=st.binary(max_size=64),
    binary=st.booleans(),
    reads=st.lists(
        st.sampled_from(
            [
                "readInt",
                "readLong",
                "readDouble",
                "readFloat",
                "readByte",
                "readChar",
                "readShort",
                "readString",
                "readObject",
                "readBool",
            ]
        ),
        min_size=1,
        max_size=6,
    ),
    counts=st.lists(
        st.one_of(st.none(), st.integers(-3, 40), st.sampled_from([2**31, 2**60])),
        min_size=6,
        max_size=6,
    ),
)
def test_fuzz_memory_file_contents(data, binary, reads, counts):
    """Reads of every kind from arbitrary MemoryFile contents: a value, a
    short storage, or a clean exception (an error is an OSError unless the
    file is quiet)."""
    with pytest.MonkeyPatch.context() as mp:
        _patch_allocations(mp)
        f = _memory_file(data, binary)
        for read, n in zip(reads, counts):
            try:
                if read == "readString":
                    getattr(f, read)("*a" if n is None else "*l")
                elif read in ("readObject", "readBool") or n is None:
                    getattr(f, read)()
                else:
                    getattr(f, read)(n)
            except CLEAN:
                f.clearError()


def _declared_array_params():
    """(namespace prefix, function name, parameter index, parameter name,
    declared a sequence of Arrays) for every public function of
    strided.compat and its extensions with a positional parameter declared
    an Array or a sequence of Arrays (the standard's signatures)."""
    import inspect

    out = []
    for mod, prefix in [(xp, ""), (xp.linalg, "linalg."), (xp.fft, "fft.")]:
        for n in mod.__all__:
            f = getattr(mod, n)
            if not inspect.isfunction(f):
                continue
            ps = [
                p
                for p in inspect.signature(f).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
            ]
            for i, p in enumerate(ps):
                if p.annotation in ("Array", "tuple[Array, ...] | list[Array]"):
                    out.append((mod, prefix + n, n, i, p.name, p.annotation != "Array", len(ps)))
    return out


DECLARED = _declared_array_params()


@pytest.mark.parametrize(
    "bad", [[1.0, 2.0], None, 3, "ab", np.ones(2)], ids=["list", "None", "int", "str", "ndarray"]
)
@pytest.mark.parametrize(
    "mod,qual,name,i,pname,many,nargs", DECLARED, ids=[f"{d[1]}-{d[4]}" for d in DECLARED]
)
def test_compat_non_array_where_an_array_is_declared(mod, qual, name, i, pname, many, nargs, bad):
    good = xp.ones((2, 2))
    args = [good] * nargs
    for d in DECLARED:
        if d[1] == qual and d[5]:
            args[d[3]] = [good, good]
    # a sequence parameter: the bad value inside a list, or the bad value itself
    args[i] = [good, bad] if many and not isinstance(bad, (list, str)) else bad
    # linalg's matmul, tensordot, vecdot, matrix_transpose are the namespace's
    with pytest.raises(TypeError, match=rf"^({re.escape(qual)}|{name}): {pname} must be"):
        getattr(mod, name)(*args)


def test_every_compat_function_checks_a_declared_array():
    # the table above reaches every kind of function (a guard against an
    # annotation change that would leave the checks nothing to read)
    names = {d[1] for d in DECLARED}
    assert {
        "sum",
        "concat",
        "stack",
        "reshape",
        "tensordot",
        "linalg.inv",
        "fft.fft",
        "clip",
        "sort",
        "where",
    } <= names


@pytest.mark.parametrize(
    "name", sorted(__import__("strided.compat._elementwise", fromlist=["UNARY"]).UNARY)
)
def test_compat_unary_functions_refuse_a_non_array(name):
    # made from a table, without annotations at run time: their own check
    for bad in ([1.0], None, 2.5, np.ones(2)):
        with pytest.raises(TypeError, match=rf"{name}: x must be an Array"):
            getattr(xp, name)(bad)

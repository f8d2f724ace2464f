"""DLPack (strided/_dlpack.py, strided/_c/dlpack.c): the shared producer and
consumer under both faces.  numpy is the oracle and the peer; hand-made
managed tensors (cffi structs with a counting deleter) probe every check
of the consumer and the exactly-once deleter; counters in C and the
process's resident memory show that nothing leaks."""

import gc
import os

import numpy as np
import pytest
from hypothesis import given, strategies as st

import strided
import strided.compat as xp
import strided.interop
from strided.core import base as _core, dlpack as _dlpack
from strided._c._strided import ffi, lib

from dlpack_crafted import Crafted, address
from helpers import (
    DTYPE_NAMES,
    NUMPY,
    arrays,
    borrow,
    needs_pytorch,
    pytorch as torch,
    to_numpy,
    under_asan,
)

# ---------------------------------------------------------------- helpers


_HELD = []  # capsules read by capsule_struct: the struct lives as long as its capsule


def capsule_struct(capsule):
    """The managed tensor inside an unconsumed capsule (read, not consumed;
    the capsule is kept until the end of the test)."""
    _HELD.append(capsule)
    for versioned, kind in ((1, "DLManagedTensorVersioned *"), (0, "DLManagedTensor *")):
        if _dlpack._capsule_is_valid(capsule, _dlpack._NAME[versioned, 0]):
            return versioned, ffi.cast(
                kind, _dlpack._capsule_get_pointer(capsule, _dlpack._NAME[versioned, 0])
            )
    raise AssertionError(f"not an unconsumed DLPack capsule: {capsule!r}")


@pytest.fixture(autouse=True)
def _release_held_capsules():
    yield
    _HELD.clear()


def settle():
    gc.collect()
    return _dlpack.live()


# ---------------------------------------------------------------- the ABI


def test_struct_layouts_match_the_spec():
    # dlpack.h on LP64: what every producer and consumer reads
    assert ffi.sizeof("DLPackVersion") == 8 and ffi.sizeof("DLDevice") == 8
    assert ffi.sizeof("DLDataType") == 4 and ffi.sizeof("DLTensor") == 48
    assert [
        ffi.offsetof("DLTensor", f)
        for f in ("data", "device", "ndim", "dtype", "shape", "strides", "byte_offset")
    ] == [0, 8, 16, 20, 24, 32, 40]
    assert ffi.sizeof("DLManagedTensor") == 64
    assert ffi.offsetof("DLManagedTensor", "deleter") == 56
    assert ffi.sizeof("DLManagedTensorVersioned") == 80
    assert [
        ffi.offsetof("DLManagedTensorVersioned", f)
        for f in ("version", "manager_ctx", "deleter", "flags", "dl_tensor")
    ] == [0, 8, 16, 24, 32]
    assert (lib.ST_DL_FLAG_READ_ONLY, lib.ST_DL_FLAG_IS_COPIED) == (1, 2)


# ---------------------------------------------------------------- export


DL_CODES = {"b": (6,), "i": (0,), "u": (1,), "f": (2,), "c": (5,)}


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_export_fields_every_dtype(name):
    a = np.arange(12).astype(name).reshape(3, 4)[::2, ::-1]  # strides (8, -1) elements
    c = borrow(a)
    versioned, m = capsule_struct(_dlpack.export(c, max_version=(1, 0)))
    assert versioned and (m.version.major, m.version.minor) == (1, 1) and m.flags == 0
    dl = m.dl_tensor
    assert (dl.device.device_type, dl.device.device_id) == (1, 0)
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (
        DL_CODES[NUMPY[name].kind][0],
        8 * NUMPY[name].itemsize,
        1,
    )
    assert dl.ndim == 2 and list(dl.shape[0:2]) == [2, 4]
    assert list(dl.strides[0:2]) == [s // a.itemsize for s in a.strides]
    assert int(ffi.cast("uintptr_t", dl.data)) == address(a) and dl.byte_offset == 0


def test_export_legacy_and_versioned_by_max_version():
    c = borrow(np.arange(3.0))
    for mv, name in (
        (None, "dltensor"),
        ((0, 8), "dltensor"),
        ((1, 0), "dltensor_versioned"),
        ((1, 5), "dltensor_versioned"),
        ((2, 0), "dltensor_versioned"),
    ):
        cap = _dlpack.export(c, max_version=mv)
        assert f'"{name}"' in repr(cap)
        assert capsule_struct(cap)[0] == (name == "dltensor_versioned")


def test_export_zero_d_and_empty():
    _, m = capsule_struct(_dlpack.export(_core.scalar(2.5, "float64"), max_version=(1, 0)))
    assert m.dl_tensor.ndim == 0 and m.dl_tensor.data != ffi.NULL
    _, m = capsule_struct(_dlpack.export(_core.Core.empty((0, 3), "int32"), max_version=(1, 0)))
    assert m.dl_tensor.data == ffi.NULL and list(m.dl_tensor.shape[0:2]) == [0, 3]


def test_export_flags_readonly_and_copied():
    a = np.arange(4.0)
    a.flags.writeable = False
    c = borrow(a)
    _, m = capsule_struct(_dlpack.export(c, max_version=(1, 0)))
    assert m.flags == lib.ST_DL_FLAG_READ_ONLY
    assert int(ffi.cast("uintptr_t", m.dl_tensor.data)) == address(a)
    _, m = capsule_struct(_dlpack.export(c, max_version=(1, 0), copy=True))
    assert m.flags == lib.ST_DL_FLAG_IS_COPIED  # the copy is writable
    assert int(ffi.cast("uintptr_t", m.dl_tensor.data)) != address(a)
    w = borrow(np.arange(4.0))
    _, m = capsule_struct(_dlpack.export(w, max_version=(1, 0), copy=False))
    assert m.flags == 0


def test_export_readonly_as_legacy_copies_unless_copy_false():
    a = np.arange(4.0)
    a.flags.writeable = False
    c = borrow(a)
    _, m = capsule_struct(_dlpack.export(c))  # legacy, copy=None: a copy
    assert int(ffi.cast("uintptr_t", m.dl_tensor.data)) != address(a)
    with pytest.raises(BufferError, match="read-only"):
        _dlpack.export(c, copy=False)
    # C refuses it too, whatever Python asks
    assert lib.st_dlpack_export_legacy(c.t) == ffi.NULL
    assert "read-only" in ffi.string(lib.st_last_error()).decode()


def test_export_copy_true_is_contiguous_and_independent():
    a = np.arange(12.0).reshape(3, 4).T
    c = borrow(a)
    b = np.from_dlpack(_dlpack._Exported(c), copy=True)
    np.testing.assert_array_equal(b, a)
    assert b.flags.c_contiguous
    b[0, 0] = 99
    assert a[0, 0] == 0


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"dl_device": (2, 0)}, BufferError),
        ({"dl_device": (1, 1)}, BufferError),
        ({"dl_device": (3, 0)}, BufferError),
        ({"stream": 1}, BufferError),
        ({"stream": -1}, BufferError),
        ({"dl_device": "cpu"}, TypeError),
        ({"copy": "yes"}, TypeError),
        ({"max_version": 1}, TypeError),
        ({"max_version": (1,)}, TypeError),
    ],
)
def test_export_refusals(kwargs, error):
    before = settle()
    with pytest.raises(error):
        _dlpack.export(borrow(np.arange(3.0)), **kwargs)
    assert settle() == before


def test_export_accepts_cpu_device_in_every_spelling():
    c = borrow(np.arange(3.0))
    for dev in ((1, 0), [1, 0], (_dlpack.DLDeviceType.kDLCPU, 0), (np.int64(1), np.int64(0))):
        capsule_struct(_dlpack.export(c, dl_device=dev, max_version=(1, 0)))
    assert _dlpack.device() == (1, 0) and _dlpack.device()[0].name == "kDLCPU"


def test_exported_storage_is_never_moved():
    t = strided.DoubleTensor(3).fill(1)
    a = np.from_dlpack(t)
    with pytest.raises(ValueError, match="exported through DLPack"):
        t.resize(1000)
    a[0] = 5  # still the same memory
    assert t[1] == 5
    s = t.storage()
    with pytest.raises(ValueError, match="exported through DLPack"):
        s.resize(1000)
    t.resize(2)  # fits the storage: nothing moves
    assert t[1] == 5


def test_unconsumed_capsules_are_freed_at_collection():
    before = settle()
    caps = [
        _dlpack.export(borrow(np.arange(5.0)), max_version=mv)
        for mv in (None, (1, 0))
        for _ in range(50)
    ]
    assert _dlpack.live()[0] == before[0] + 100
    del caps
    assert settle() == before


def test_capsule_dies_during_an_exception():
    before = settle()

    def fail():
        cap = _dlpack.export(borrow(np.arange(5.0)), max_version=(1, 0))  # noqa: F841
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):  # the destructor kept the exception intact
        fail()
    assert settle() == before


# ---------------------------------------------------------------- import


def test_import_views_the_memory():
    a = np.arange(12.0).reshape(3, 4)[:, ::-2]
    c = _dlpack.to_core(a)
    assert c.shape == (3, 2) and c.strides == (4, -2) and c.address == address(a)
    np.testing.assert_array_equal(to_numpy(c), a)
    a[1, 0] = -1  # numpy writes, the core sees
    assert to_numpy(c)[1, 0] == -1
    _core.fill_(c, 7.0)  # the core writes, numpy sees
    assert (a == 7).all()
    s = c.storage
    assert not s.flags & lib.ST_STORAGE_OWNED
    # the borrowed range is exactly the bytes reached
    assert s.nbytes == (3 - 1) * 32 + (2 - 1) * 16 + 8


def test_import_copy_modes():
    a = np.arange(6.0).reshape(2, 3).T
    same = _dlpack.to_core(a, copy=False)
    assert same.address == address(a)
    copied = _dlpack.to_core(a, copy=True)  # numpy copies (IS_COPIED): we borrow that
    assert copied.address != address(a)
    np.testing.assert_array_equal(to_numpy(copied), a)
    a[0, 0] = 42
    assert to_numpy(copied)[0, 0] == 0 and to_numpy(same)[0, 0] == 42


def test_import_readonly_refuses_writes_and_reexports_readonly():
    a = np.arange(6.0)
    a.flags.writeable = False
    c = _dlpack.to_core(a)
    assert c.readonly
    with pytest.raises(ValueError, match="read-only"):
        _core.fill_(c, 1.0)
    with pytest.raises(ValueError, match="read-only"):
        _core.copy_(c, _core.full((6,), 2.0, "float64"))
    b = np.from_dlpack(_dlpack._Exported(c))
    assert not b.flags.writeable and address(b) == address(a)
    assert (a == np.arange(6.0)).all()
    # a writable copy on request
    w = _dlpack.to_core(a, copy=True)
    assert not w.readonly
    _core.fill_(w, 1.0)


def test_import_raw_capsule_once():
    cap = np.arange(4.0).__dlpack__(max_version=(1, 0))
    c = _dlpack.to_core(cap)
    np.testing.assert_array_equal(to_numpy(c), np.arange(4.0))
    assert "used_dltensor_versioned" in repr(cap)
    with pytest.raises(BufferError, match="consumed only once"):
        _dlpack.to_core(cap)
    legacy = np.arange(3, dtype=np.int16).__dlpack__()
    np.testing.assert_array_equal(to_numpy(_dlpack.to_core(legacy)), np.arange(3))
    assert "used_dltensor" in repr(legacy)


def test_import_refuses_non_producers():
    with pytest.raises(AttributeError, match="not a DLPack producer"):
        _dlpack.to_core([1, 2, 3])
    with pytest.raises(TypeError, match="copy must be"):
        _dlpack.to_core(np.arange(3.0), copy="no")

    class NotACapsule:
        def __dlpack__(self, **kw):
            return 42

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(BufferError, match="not a PyCapsule"):
        _dlpack.to_core(NotACapsule())


def test_import_of_our_own_export_does_not_chain():
    before = settle()
    c = _core.full((100,), 1.5, "float64")
    storage = c.storage
    x = c
    for _ in range(50):
        x = _dlpack.to_core(_dlpack._Exported(x))
        assert x.storage == storage  # our own storage again, not a borrowing
    assert settle() == before
    y = _dlpack.to_core(_dlpack._Exported(c), copy=True)
    assert y.storage != storage


# ---------------------------------------------------------------- every check of the consumer


def consume(crafted, copy=None):
    return _dlpack.to_core(crafted.capsule(), copy=copy)


@pytest.mark.parametrize("versioned", [True, False])
def test_crafted_deleter_runs_once_when_the_view_goes(versioned):
    p = Crafted(np.arange(6.0), versioned=versioned, shape=(2, 3), strides=(1, 2))
    c = consume(p)
    np.testing.assert_array_equal(to_numpy(c), np.arange(6.0).reshape(3, 2).T)
    v = _core.Core.over(c.storage, "float64", 1, (2,))  # another view keeps it alive
    del c
    gc.collect()
    assert p.calls == 0
    del v
    gc.collect()
    assert p.calls == 1


def test_crafted_null_strides_mean_c_contiguous():
    p = Crafted(np.arange(6.0), shape=(2, 3))
    c = consume(p)
    assert c.strides == (3, 1)
    np.testing.assert_array_equal(to_numpy(c), np.arange(6.0).reshape(2, 3))


def test_crafted_copy_calls_the_deleter_at_once():
    p = Crafted(np.arange(6.0))
    c = consume(p, copy=True)
    assert p.calls == 1 and c.address != address(p.buf)
    np.testing.assert_array_equal(to_numpy(c), np.arange(6.0))
    # a producer that copied already (IS_COPIED) is borrowed even for copy=True
    q = Crafted(np.arange(6.0), flags=lib.ST_DL_FLAG_IS_COPIED)
    d = consume(q, copy=True)
    assert q.calls == 0 and d.address == address(q.buf)


def test_crafted_readonly_flag():
    p = Crafted(np.arange(6.0), flags=lib.ST_DL_FLAG_READ_ONLY)
    c = consume(p)
    assert c.readonly
    with pytest.raises(ValueError, match="read-only"):
        _core.fill_(c, 0.0)
    # legacy tensors cannot say read-only: writable
    assert not consume(Crafted(np.arange(6.0), versioned=False)).readonly


def test_crafted_byte_offset():
    buf = np.arange(8.0)
    p = Crafted(buf, shape=(3,), byte_offset=16)
    np.testing.assert_array_equal(to_numpy(consume(p)), [2.0, 3.0, 4.0])


def test_crafted_negative_and_zero_strides():
    buf = np.arange(10.0)
    p = Crafted(buf, shape=(4, 3), strides=(0, -2), byte_offset=8 * 9)
    c = consume(p)
    np.testing.assert_array_equal(to_numpy(c), np.broadcast_to([9.0, 7.0, 5.0], (4, 3)))
    assert c.storage.nbytes == 5 * 8  # bytes 5*8 .. 10*8 of buf


def test_crafted_empty_with_null_data():
    p = Crafted(np.arange(1.0), shape=(0, 4), data=0)
    c = consume(p)
    assert c.shape == (0, 4) and c.size == 0
    assert p.calls == 1  # nothing to hold: released at once


# (crafted keyword arguments, message) — each refused before any element is read
BAD = [
    ({"version": (2, 0)}, "version 2.0 is not supported"),
    ({"version": (0, 9)}, "version 0.9 is not supported"),
    ({"device": (2, 0)}, "device type 2"),
    ({"device": (3, 0)}, "not the CPU"),
    ({"ndim": 65, "shape": [1] * 65}, "65 dimensions"),
    ({"ndim": -1}, "-1 dimensions"),
    ({"shape_null": True, "shape": (6,)}, "shape is NULL"),
    ({"dtype": (4, 32, 1)}, "bfloat32"),
    ({"dtype": (2, 64, 2)}, "2 lanes"),
    ({"dtype": (6, 1, 1)}, "bool1"),
    ({"dtype": (3, 64, 1)}, "opaque handle"),
    ({"dtype": (99, 8, 1)}, "unknown"),
    ({"shape": (-1,)}, "size of dimension 0 is -1"),
    ({"shape": (2**62, 4)}, "overflows"),
    ({"shape": (3,), "strides": (2**62,)}, "overflows"),
    ({"shape": (2, 2**40), "strides": (2**40, 2**22)}, "overflows"),
    ({"data": 0}, "data is NULL"),
    ({"byte_offset": 2**64 - 8}, "overflows the address space"),
    ({"shape": (3,), "strides": (-(2**40),), "data": 4096}, "outside the address space"),
]


@pytest.mark.parametrize(
    "kwargs, message, versioned",
    [(k, m, v) for v in (True, False) for k, m in BAD if v or "version" not in k],
)
def test_crafted_refusals_call_the_deleter_once(kwargs, message, versioned):
    before = settle()
    p = Crafted(np.arange(6.0), versioned=versioned, **kwargs)
    for copy in (None, True, False):
        p.calls = 0
        with pytest.raises(BufferError, match=message):
            consume(p, copy=copy)
        assert p.calls == 1
    assert settle() == before


def test_the_16_bit_floats_cross_in_every_face():
    """float16 and bfloat16 cross DLPack in both directions in the core and
    both faces (tests/compat/test_compat_half.py: with PyTorch too)."""
    a = np.array([1.5, -2.0, 65504.0, np.inf], np.float16)
    c = consume(Crafted(a, dtype=(2, 16, 1)))
    assert c.dtype is _core.float16 and c.address == address(a)
    np.testing.assert_array_equal(to_numpy(c), a)
    h = strided.from_dlpack(a)
    assert h.type() == "torch.HalfTensor" and h.totable() == a.tolist()
    assert np.asarray(h).dtype == np.float16
    for make in (xp.from_dlpack, xp.asarray):
        assert make(a).dtype is xp.float16
    assert strided.interop.to_array(h).dtype is xp.float16 and xp.asarray(h).dtype is xp.float16
    b = consume(Crafted(a.view(np.uint16), dtype=(4, 16, 1)))
    assert b.dtype is _core.bfloat16 and b.address == address(a)


def test_crafted_misaligned_memory_is_copied_or_refused():
    raw = np.zeros(8 * 6 + 1, np.uint8)
    view = raw[1:].view(np.float64)  # element 0 one byte off
    view[:] = np.arange(6.0)
    p = Crafted(view)
    c = consume(p)
    assert p.calls == 1 and c.address % 8 == 0 and c.storage.flags & lib.ST_STORAGE_OWNED
    np.testing.assert_array_equal(to_numpy(c), np.arange(6.0))
    q = Crafted(view, shape=(3,), strides=(-2,), byte_offset=8 * 5)
    np.testing.assert_array_equal(to_numpy(consume(q)), [5.0, 3.0, 1.0])
    r = Crafted(view)
    with pytest.raises(BufferError, match="not aligned to 8 bytes"):
        consume(r, copy=False)
    assert r.calls == 1
    # one-byte types are always aligned
    s = Crafted(raw[1:], dtype=(1, 8, 1))
    assert consume(s, copy=False).address == address(raw) + 1


def test_c_refuses_an_unknown_copy_mode():
    p = Crafted(np.arange(3.0))
    t = _core._record()
    assert lib.st_dlpack_import(t, p.m, 1, 7) == lib.ST_E_VALUE
    assert p.calls == 1


# ---------------------------------------------------------------- the protocol with producers


class Recorder:
    """A producer wrapping numpy that records how it is asked."""

    def __init__(self, a, device=(1, 0), legacy=False):
        self.a, self.dev, self.legacy, self.asked = a, device, legacy, []

    def __dlpack_device__(self):
        return self.dev

    def __dlpack__(self, **kw):
        self.asked.append(dict(kw))
        if self.legacy and kw:
            raise TypeError("__dlpack__() got an unexpected keyword argument")
        kw.pop("dl_device", None)
        return self.a.__dlpack__(**kw)


def test_consumer_asks_versioned_then_falls_back_to_legacy():
    r = Recorder(np.arange(3.0))
    _dlpack.to_core(r)
    assert r.asked == [{"max_version": (1, 1)}]
    r = Recorder(np.arange(3.0))
    _dlpack.to_core(r, copy=False)
    assert r.asked == [{"max_version": (1, 1), "copy": False}]
    old = Recorder(np.arange(3.0), legacy=True)
    c = _dlpack.to_core(old, copy=True)
    assert old.asked == [{"max_version": (1, 1), "copy": True}, {}]
    assert c.address != address(old.a)  # copied by us, the producer could not


def test_consumer_and_devices():
    gpu = Recorder(np.arange(3.0), device=(2, 0))
    with pytest.raises(BufferError, match="kDLCUDA"):
        xp.from_dlpack(gpu)
    assert gpu.asked == []
    x = xp.from_dlpack(gpu, device="cpu")  # asks the producer to move it
    assert gpu.asked == [{"max_version": (1, 1), "dl_device": (1, 0)}]
    np.testing.assert_array_equal(np.from_dlpack(x), np.arange(3.0))
    old_gpu = Recorder(np.arange(3.0), device=(2, 0), legacy=True)
    with pytest.raises(BufferError, match="does not take dl_device"):
        xp.from_dlpack(old_gpu, device="cpu")
    with pytest.raises(ValueError):
        xp.from_dlpack(np.arange(3.0), device="cuda")


# ---------------------------------------------------------------- round trips, every dtype


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize(
    "view", ["contiguous", "transposed", "stepped", "reversed", "zero", "0-d", "empty"]
)
def test_numpy_round_trip_every_dtype_and_layout(name, view):
    base = (np.arange(24) % 7).astype(name).reshape(4, 6)
    a = {
        "contiguous": base,
        "transposed": base.T,
        "stepped": base[::2, 1::3],
        "reversed": base[::-1, ::-2],
        "zero": np.lib.stride_tricks.as_strided(base[0], (3, 6), (0, base.itemsize)),
        "0-d": base[1, 2, ...],
        "empty": base[:0],
    }[view]
    for cap_version in (None, (1, 0)):
        c = _dlpack.to_core(a.__dlpack__(max_version=cap_version))
        assert c.dtype.name == name and c.shape == a.shape
        np.testing.assert_array_equal(to_numpy(c), a)
        b = np.from_dlpack(_dlpack._Exported(c))
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(b, a)
        if a.size:
            assert address(b) == address(a) and c.address == address(a)
            assert b.strides == a.strides or a.size == 1


@needs_pytorch
@given(st.sampled_from(DTYPE_NAMES).flatmap(lambda n: arrays(n)), st.data())
def test_property_round_trip(a, data):
    # any shape (0-d and empty included), any dtype, then a random strided view
    steps = tuple(data.draw(st.sampled_from([1, 2, -1, -2])) for _ in range(a.ndim))
    v = a[tuple(slice(None, None, s) for s in steps) + (Ellipsis,)]  # 0-d stays an array
    x = xp.from_dlpack(v)
    back = np.from_dlpack(x)
    np.testing.assert_array_equal(back, v)
    assert back.dtype == v.dtype and back.shape == v.shape
    if v.size > 1:
        assert back.strides == v.strides and address(back) == address(v)
    t = torch.from_dlpack(xp.from_dlpack(v.copy()))  # torch aborts on negative strides
    np.testing.assert_array_equal(t.numpy(), v)


# ---------------------------------------------------------------- lifetime and leaks


@needs_pytorch
def test_producer_deleted_then_collected():
    a = np.arange(1000.0)
    x = xp.from_dlpack(a[::3])
    del a
    gc.collect()
    np.testing.assert_array_equal(np.from_dlpack(x), np.arange(0.0, 1000.0, 3))
    t = torch.arange(100, dtype=torch.int32)
    y = strided.from_dlpack(t)
    del t
    gc.collect()
    assert y.tolist() == list(range(100))


@needs_pytorch
def test_consumer_outlives_our_objects():
    t = strided.DoubleTensor(5).fill(3)
    a = np.from_dlpack(t)
    t.set()  # Torch7: repoint the tensor elsewhere
    del t
    gc.collect()
    assert (a == 3).all()
    x = xp.asarray(strided.LongTensor(4).fill(9))
    b = torch.from_dlpack(x)
    del x
    gc.collect()
    assert b.tolist() == [9] * 4


def test_numpy_deleter_exactly_once():
    import sys
    import weakref

    a = np.arange(10.0)
    ref = weakref.ref(a)
    count = sys.getrefcount(a)
    xs = [xp.from_dlpack(a) for _ in range(10)]
    assert sys.getrefcount(a) == count + 10  # one reference per consumed capsule
    del xs
    gc.collect()
    assert sys.getrefcount(a) == count  # each dropped exactly once
    x = xp.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None  # our view keeps numpy's array alive
    del x
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("name", [n for n in DTYPE_NAMES if n != "bfloat16"])
def test_numpy_and_arrays_hand_over_memory_in_one_call(name):
    """np.asarray(Array) (Array.__array__ -> numpy's from_dlpack -> the
    one-C-call __dlpack__, pyarray.c's export_capsule) and xp.asarray(an
    ndarray) (its capsule straight into an Array): the same memory both
    ways, every layout, read-only memory stays read-only, and every
    exported tensor's deleter runs once (no live export is left)."""
    base = (np.arange(24) % 7).astype(name).reshape(4, 6)
    before = _dlpack.live()
    for a in (base, base.T, base[::2, 1::3], base[::-1], base[1, 2, ...], base[:0]):
        x = xp.asarray(a)
        assert type(x) is xp.Array and x.dtype.name == name and x.shape == a.shape
        b = np.asarray(x)
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(b, a)
        if a.size:
            assert address(b) == address(a) and b.flags.writeable
        capsule = x.__dlpack__(max_version=(1, 0))
        assert "dltensor_versioned" in repr(capsule)
        del capsule  # never consumed: its destructor runs the deleter
        del x, b
    frozen = base.copy()
    frozen.flags.writeable = False
    x = xp.asarray(frozen)
    with pytest.raises((ValueError, TypeError)):
        x[0, 0] = 1
    assert not np.asarray(x).flags.writeable
    del x
    gc.collect()
    assert _dlpack.live() == before


def test_numpy_conversions_outside_the_one_call_cases():
    """What the one-call paths leave to the general ones still works: a
    subclass of ndarray, a dtype or a copy asked of __array__ or asarray,
    bfloat16 (numpy has none), a dtype DLPack cannot carry."""
    m = np.ma.masked_array(np.arange(4.0))
    np.testing.assert_array_equal(np.asarray(xp.asarray(m)), np.arange(4.0))
    a = np.arange(6.0)
    x = xp.asarray(a)
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    c = np.array(x, copy=True)
    assert address(c) != address(a)
    y = xp.asarray(a, copy=True)
    assert address(np.asarray(y)) != address(a)
    with pytest.raises(TypeError, match="bfloat16"):
        np.asarray(xp.ones(3, dtype=xp.bfloat16))
    with pytest.raises((BufferError, TypeError)):
        xp.asarray(np.array(["2026-12-07"], dtype="datetime64[D]"))


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@needs_pytorch
def test_ten_thousand_round_trips_flat_memory():
    a = np.arange(10_000.0)  # 80 kB: a leak would be visible at once
    t = torch.arange(10_000, dtype=torch.float64)

    def once():
        x = xp.from_dlpack(a)
        b = np.from_dlpack(x)
        y = strided.from_dlpack(t)
        u = torch.from_dlpack(y)
        cap = x.__dlpack__()  # never consumed
        del x, b, y, u, cap

    for _ in range(500):
        once()
    before, rss = settle(), rss_bytes()
    for _ in range(10_000):
        once()
    assert settle() == before
    assert under_asan() or rss_bytes() - rss < 8 << 20


# ---------------------------------------------------------------- numpy's __array__


@pytest.mark.parametrize("make", [lambda a: xp.from_dlpack(a), lambda a: strided.from_dlpack(a)])
def test_array_protocol(make):
    a = np.arange(12.0).reshape(3, 4)
    x = make(a)
    v = np.asarray(x)
    assert address(v) == address(a)
    v[0, 0] = -5
    assert a[0, 0] == -5
    c = np.array(x)  # np.array copies
    assert address(c) != address(a)
    np.testing.assert_array_equal(c, a)
    f = np.asarray(x, dtype=np.float32)
    assert f.dtype == np.float32 and np.array_equal(f, a.astype(np.float32))
    h = np.asarray(x, dtype=np.float16)  # numpy converts
    assert h.dtype == np.float16
    with pytest.raises(ValueError, match="copy=False"):
        x.__array__(dtype=np.int32, copy=False)
    assert address(x.__array__(copy=False)) == address(a)
    assert address(x.__array__(copy=True)) != address(a)


def test_numpy_operators_defer_to_ours():
    x = xp.asarray([1.0, 2.0])
    assert isinstance(np.float64(2) * x, xp.Array)
    t = strided.DoubleTensor(2).fill(1)
    assert isinstance(np.float64(2) * t, strided.DoubleTensor)


# ---------------------------------------------------------------- asarray's one-call import
# (asarray and from_dlpack at copy=None: strided.core.dlpack.to_array, whose
# pyarray.c from_capsule consumes the capsule and makes the Array in C; the
# checks and the deleter are the core's)


class Producer:
    """A CPU DLPack producer handing out a Crafted tensor's capsules."""

    def __init__(self, crafted):
        self.crafted = crafted

    def __dlpack__(self, **kw):
        return self.crafted.capsule()

    def __dlpack_device__(self):
        return (1, 0)


ONE_CALL = [
    lambda p: xp.asarray(Producer(p)),
    lambda p: xp.from_dlpack(Producer(p)),
    lambda p: xp.from_dlpack(p.capsule()),
]


@pytest.mark.parametrize(
    "kwargs, message, versioned",
    [(k, m, v) for v in (True, False) for k, m in BAD if v or "version" not in k],
)
def test_asarray_refusals_call_the_deleter_once(kwargs, message, versioned):
    before = settle()
    p = Crafted(np.arange(6.0), versioned=versioned, **kwargs)
    for make in ONE_CALL:
        p.calls = 0
        with pytest.raises(BufferError, match=message):
            make(p)
        assert p.calls == 1
    assert settle() == before


@pytest.mark.parametrize("versioned", [True, False])
def test_asarray_views_a_producer_and_a_raw_capsule_once(versioned):
    before = settle()
    a = np.arange(12.0).reshape(3, 4)[:, ::-2]
    x = xp.asarray(a)
    assert type(x) is xp.Array and x._c.address == address(a) and x._c.strides == (4, -2)
    np.testing.assert_array_equal(np.asarray(x), a)
    a[0, 0] = -5  # the same memory
    assert float(x[0, 0]) == -5
    cap = np.arange(4, dtype=np.int16).__dlpack__(max_version=(1, 0) if versioned else None)
    np.testing.assert_array_equal(np.asarray(xp.from_dlpack(cap)), np.arange(4))
    assert "used_" in repr(cap)
    with pytest.raises(BufferError, match="consumed only once"):
        xp.from_dlpack(cap)
    for make in ONE_CALL:
        p = Crafted(np.arange(6.0), versioned=versioned)
        y = make(p)
        np.testing.assert_array_equal(np.asarray(y), np.arange(6.0))
        assert p.calls == 0
        del y
        gc.collect()
        assert p.calls == 1
    del x
    assert settle() == before


def test_asarray_import_keeps_readonly_and_copies_misaligned_memory():
    a = np.arange(6.0)
    a.flags.writeable = False
    x = xp.asarray(a)
    assert x._c.readonly and x._c.address == address(a)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0
    raw = np.zeros(8 * 6 + 1, np.uint8)
    view = raw[1:].view(np.float64)
    view[:] = np.arange(6.0)
    for make in ONE_CALL:
        p = Crafted(view)
        y = make(p)
        assert p.calls == 1 and y._c.address % 8 == 0  # a copy: the producer's tensor let go
        np.testing.assert_array_equal(np.asarray(y), np.arange(6.0))

"""DLPack and numpy on the Torch7 face: strided.from_dlpack, Tensor.__dlpack__,
__array__, numpy().  numpy and PyTorch are the peers (zero-copy both ways)."""

import gc

import numpy as np
import pytest

import strided
from helpers import needs_pytorch, pytorch as torch

CLASSES = {
    "uint8": strided.ByteTensor,
    "int8": strided.CharTensor,
    "int16": strided.ShortTensor,
    "int32": strided.IntTensor,
    "int64": strided.LongTensor,
    "float32": strided.FloatTensor,
    "float64": strided.DoubleTensor,
}
TORCH = (
    {
        "uint8": torch.uint8,
        "int8": torch.int8,
        "int16": torch.int16,
        "int32": torch.int32,
        "int64": torch.int64,
        "float32": torch.float32,
        "float64": torch.float64,
    }
    if torch is not None
    else {}
)


def address(a):
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_numpy_to_tensor_every_class(name):
    a = (np.arange(20) % 9).astype(name).reshape(4, 5)
    for view in (a, a.T, a[::2, ::-2], a[1:3, 2:]):
        t = strided.from_dlpack(view)
        assert type(t) is CLASSES[name]
        assert list(t.size()) == list(view.shape)
        assert t.tolist() == view.tolist()
        assert [s * view.itemsize for s in t.stride()] == list(view.strides)
        back = t.numpy()
        assert address(back) == address(view) and back.strides == view.strides


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_writes_are_shared_with_numpy(name):
    a = np.zeros((3, 4), name)
    t = strided.from_dlpack(a)
    t.fill(3)
    assert (a == 3).all()
    a[1, 2] = 5
    assert t[2][3] == 5  # 1-based on the Torch7 face
    c = CLASSES[name](2, 3).fill(1)
    n = np.asarray(c)
    n[0, 0] = 7
    assert c[1][1] == 7


@needs_pytorch
@pytest.mark.parametrize("name", sorted(CLASSES))
def test_torch_round_trip_every_class(name):
    p = torch.arange(24).to(TORCH[name]).reshape(4, 6)
    for view in (p, p.t(), p[::2, 1::2], p.expand(3, 4, 6)):
        t = strided.from_dlpack(view)
        assert type(t) is CLASSES[name]
        assert t.tolist() == view.tolist()
        assert list(t.stride()) == list(view.stride())
        q = torch.from_dlpack(t)
        assert q.data_ptr() == view.data_ptr() and q.stride() == view.stride()
    t = CLASSES[name](5).fill(2)
    q = torch.from_dlpack(t)
    q[0] = 4
    assert t[1] == 4


@needs_pytorch
def test_bool_arrives_as_byte_tensor():
    a = np.array([True, False, True])
    t = strided.from_dlpack(a)
    assert type(t) is strided.ByteTensor and t.tolist() == [1, 0, 1]
    t[2] = 1
    assert a.tolist() == [True, True, True]
    assert strided.from_dlpack(torch.tensor([False, True])).tolist() == [0, 1]


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "complex64", "complex128"])
def test_types_torch7_lacks_are_refused(dtype):
    with pytest.raises(TypeError, match=f"no tensor type for {dtype}.*strided.compat"):
        strided.from_dlpack(np.zeros(3, dtype))


@needs_pytorch
def test_the_16_bit_floats_and_unsupported_element_types():
    h = strided.from_dlpack(np.array([0.5, -2, 65504], np.float16))  # Torch7's HalfTensor
    assert type(h) is strided.HalfTensor and h.totable() == [0.5, -2.0, 65504.0]
    t = torch.tensor([1.5, -3], dtype=torch.bfloat16)
    b = strided.from_dlpack(t)  # the extension's
    assert type(b) is strided.BFloat16Tensor and b.totable() == [1.5, -3.0]
    b[1] = 2
    assert float(t[0]) == 2.0  # zero copy
    assert torch.from_dlpack(b).dtype == torch.bfloat16
    with pytest.raises((BufferError, TypeError)):
        strided.from_dlpack(torch.zeros(3, dtype=torch.float8_e4m3fn))


@needs_pytorch
def test_zero_d_and_empty():
    t = strided.from_dlpack(np.array(2.5))
    assert type(t) is strided.DoubleTensor and t.nDimension() == 1 and t.tolist() == [2.5]
    e = strided.from_dlpack(np.zeros((0, 3), np.int32))
    assert list(e.size()) == [0, 3] and e.nElement() == 0
    empty = strided.FloatTensor()  # Torch7's tensor without dimensions
    assert np.asarray(empty).shape == (0,) and torch.from_dlpack(empty).shape == (0,)
    assert strided.from_dlpack(torch.zeros(0)).nElement() == 0


def test_copy_keyword():
    a = np.arange(6.0)
    t = strided.from_dlpack(a, copy=True)
    t.fill(0)
    assert a.tolist() == list(range(6))
    s = strided.from_dlpack(a, copy=False)
    s.fill(1)
    assert (a == 1).all()
    assert address(np.from_dlpack(t, copy=True)) != address(np.from_dlpack(t))


def test_read_only_numpy_memory():
    a = np.arange(4.0)
    a.flags.writeable = False
    t = strided.from_dlpack(a)
    with pytest.raises(ValueError, match="read-only"):
        t.fill(1)
    with pytest.raises(ValueError, match="read-only"):
        t[1] = 5
    with pytest.raises(ValueError, match="read-only"):
        t.add(1)  # in place
    assert t.tolist() == [0, 1, 2, 3]
    assert (t + 1).tolist() == [1, 2, 3, 4]  # reading is fine
    assert not t.numpy().flags.writeable
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__(copy=False)  # legacy capsule: cannot say read-only
    w = np.from_dlpack(t, copy=True)
    assert w.flags.writeable


def test_borrowed_and_exported_memory_is_never_resized():
    t = strided.from_dlpack(np.arange(4.0))
    with pytest.raises(ValueError, match="borrowed"):
        t.resize(100)
    u = strided.DoubleTensor(3).fill(1)
    n = u.numpy()
    with pytest.raises(ValueError, match="exported through DLPack"):
        u.resize(100)
    assert (n == 1).all()


@needs_pytorch
def test_lifetime_across_libraries():
    p = torch.arange(10.0)
    t = strided.from_dlpack(p)
    del p
    gc.collect()
    assert t.tolist() == list(range(10))
    u = strided.IntTensor(6).fill(4)
    n = u.numpy()
    del u
    gc.collect()
    assert n.tolist() == [4] * 6


def test_dunder_signatures_and_device():
    t = strided.DoubleTensor(2)
    assert t.__dlpack_device__() == (1, 0)
    assert 'dltensor_versioned' in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor"' in repr(t.__dlpack__())
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(AttributeError):
        strided.from_dlpack([1, 2])


def test_numpy_operators_return_tensors():
    t = strided.DoubleTensor(3).fill(2)
    r = np.float64(3) * t
    assert type(r) is strided.DoubleTensor and r.tolist() == [6.0] * 3
    with pytest.raises(TypeError):
        np.add(t, 1)  # no silent conversion by numpy's ufuncs

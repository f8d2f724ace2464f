"""DLPack and numpy on the array API face: xp.from_dlpack, Array.__dlpack__,
__dlpack_device__, __array__.  numpy is the oracle; numpy and PyTorch are
the peers, zero-copy both ways."""

import gc

import numpy as np
import pytest
from hypothesis import given, strategies as st

import strided
import strided.interop
import strided.compat as xp
from compat_util import NAMES, check, np_of
from helpers import arrays, needs_pytorch, pytorch as torch

TORCH_OF = (
    {
        "bool": torch.bool,
        "int8": torch.int8,
        "int16": torch.int16,
        "int32": torch.int32,
        "int64": torch.int64,
        "uint8": torch.uint8,
        "uint16": torch.uint16,
        "uint32": torch.uint32,
        "uint64": torch.uint64,
        "float32": torch.float32,
        "float64": torch.float64,
        "complex64": torch.complex64,
        "complex128": torch.complex128,
    }
    if torch is not None
    else {}
)


def address(a):
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("name", NAMES)
def test_numpy_both_ways_every_dtype(name):
    a = (np.arange(30) % 5).astype(name).reshape(5, 6)
    for view in (a, a.T, a[::2, ::-3], a[2], a[1, 1, ...], a[:0], np.broadcast_to(a[0], (4, 6))):
        x = xp.from_dlpack(view)
        assert x.dtype.name == name
        check(x, view)
        back = np.from_dlpack(x)
        assert back.dtype == view.dtype
        np.testing.assert_array_equal(back, view)
        if view.size:
            assert address(back) == address(view) and back.strides == view.strides
        assert back.flags.writeable == view.flags.writeable


@pytest.mark.parametrize("name", NAMES)
def test_writes_are_seen_on_both_sides(name):
    a = np.zeros((2, 3), name)
    x = xp.from_dlpack(a)
    x[0, 1] = xp.ones((), dtype=x.dtype)
    assert a[0, 1] == 1
    y = xp.ones((2, 2), dtype=getattr(xp, name))
    b = np.from_dlpack(y)
    b[1, 1] = 0
    assert not bool(y[1, 1])


@needs_pytorch
@pytest.mark.parametrize("name", NAMES)
def test_torch_both_ways_every_dtype(name):
    p = torch.arange(12).reshape(3, 4).to(TORCH_OF[name])
    for view in (p, p.t(), p[:, ::2], p[1], p[0, 0], p[:0], p.expand(2, 3, 4)):
        x = xp.from_dlpack(view)
        assert x.dtype.name == name and x.shape == tuple(view.shape)
        np.testing.assert_array_equal(np_of(x), view.numpy())
        q = torch.from_dlpack(x)
        assert q.dtype == view.dtype and q.shape == view.shape
        if view.numel():
            assert q.data_ptr() == view.data_ptr() and q.stride() == view.stride()
    x = xp.zeros(4, dtype=getattr(xp, name))
    q = torch.from_dlpack(x)
    q[2] = 1
    assert bool(x[2])


@needs_pytorch
def test_copy_semantics():
    a = np.arange(6.0)
    same = xp.from_dlpack(a, copy=False)
    same[0] = 10
    assert a[0] == 10
    other = xp.from_dlpack(a, copy=True)
    other[1] = 10
    assert a[1] == 1
    # the producer (numpy) made the copy; from torch too
    t = torch.arange(4.0)
    c = xp.from_dlpack(t, copy=True)
    c[0] = 5
    assert t[0] == 0


def test_readonly_numpy():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = xp.from_dlpack(a)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        x += 1
    check(x + 1, a + 1)
    assert not np.from_dlpack(x).flags.writeable
    with pytest.raises(BufferError):
        x.__dlpack__(copy=False)
    assert np.from_dlpack(x, copy=True).flags.writeable


def test_device_argument():
    a = np.arange(3.0)
    assert xp.from_dlpack(a, device="cpu").device == "cpu"
    x = xp.from_dlpack(a, device=xp.asarray(1).device)
    assert x.__dlpack_device__() == (1, 0)
    with pytest.raises(ValueError):
        xp.from_dlpack(a, device="gpu")


def test_dunder_dlpack_keywords():
    x = xp.asarray([1.0, 2.0])
    assert "dltensor_versioned" in repr(
        x.__dlpack__(max_version=(1, 0), copy=True, dl_device=(1, 0))
    )
    assert '"dltensor"' in repr(x.__dlpack__(max_version=(0, 8)))
    for bad in ({"dl_device": (2, 0)}, {"stream": 0}):
        with pytest.raises(BufferError):
            x.__dlpack__(**bad)
    with pytest.raises(TypeError):
        x.__dlpack__(copy=1)


def test_round_trip_through_ourselves_and_to_tensor():
    x = xp.reshape(xp.arange(6.0), (2, 3))
    y = xp.from_dlpack(x)
    y[0, 0] = 9
    assert float(x[0, 0]) == 9
    t = strided.from_dlpack(x.T)  # into the Torch7 face
    assert type(t) is strided.DoubleTensor and t[1][1] == 9
    z = xp.from_dlpack(t)
    assert z.shape == (3, 2) and float(z[0, 0]) == 9


def test_array_protocol():
    x = xp.reshape(xp.arange(6, dtype=xp.int32), (2, 3))
    a = np.asarray(x)
    assert a.dtype == np.int32 and a.tolist() == [[0, 1, 2], [3, 4, 5]]
    a[0, 0] = 7
    assert int(x[0, 0]) == 7
    assert np.array(x, dtype=np.float64).dtype == np.float64
    assert isinstance(np.float64(2) * xp.astype(x, xp.float64), xp.Array)  # Array.__rmul__
    r = np.add(x, 1)  # numpy's ufuncs convert (__array__), as for PyTorch
    assert type(r) is np.ndarray and r.dtype == np.int32
    assert r.tolist() == [[8, 2, 3], [4, 5, 6]]


def test_lifetime():
    a = np.arange(50.0)
    x = xp.from_dlpack(a[10:20])
    del a
    gc.collect()
    check(x, np.arange(10.0, 20.0))
    y = xp.arange(5)
    b = np.from_dlpack(y)
    del y
    gc.collect()
    assert b.tolist() == [0, 1, 2, 3, 4]


@needs_pytorch
@given(st.sampled_from(NAMES).flatmap(lambda n: arrays(n)))
def test_property_numpy_to_compat_to_torch_to_numpy(a):
    x = xp.from_dlpack(a)
    t = torch.from_dlpack(x)
    back = np.from_dlpack(xp.from_dlpack(t))
    np.testing.assert_array_equal(back, a)
    assert back.dtype == a.dtype and back.shape == a.shape
    if a.size:
        assert address(back) == address(a)

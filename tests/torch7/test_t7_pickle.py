"""Torch7 face: pickling keeps type, sizes, strides, storage offset and
the storage shared between tensors pickled together."""

import copy
import pickle

import numpy as np
import pytest

import strided as torch
from t7util import NUMPY_OF, TYPES


def npy(t):
    """A numpy copy of a tensor's values (through tolist: independent of us)."""
    return np.array(t.tolist(), dtype=NUMPY_OF[t.type().split(".")[1]])


def roundtrip(obj, protocol=pickle.HIGHEST_PROTOCOL):
    return pickle.loads(pickle.dumps(obj, protocol))


def geometry(t):
    return (t.type(), t.size().tolist(), t.stride().tolist(), t.storageOffset())


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_every_type_roundtrip(name, protocol):
    cls = getattr(torch, name)
    x = cls([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    y = roundtrip(x, protocol)
    assert type(y) is cls and geometry(y) == geometry(x)
    np.testing.assert_array_equal(npy(y), npy(x))
    assert y.storage().tolist() == x.storage().tolist()
    # a new storage, not the original memory
    y[1][1] = 0
    assert x[1][1] == 1


@pytest.mark.parametrize("name", TYPES)
def test_views_keep_geometry(name):
    cls = getattr(torch, name)
    x = cls(4, 5)
    x.storage().copy(cls(list(range(20))).storage())
    views = [
        x.narrow(2, 2, 3),
        x.t(),
        x.select(1, 3),
        x[[2, 3], [4, 5]],
        x.unfold(2, 2, 2),
        x.t().narrow(1, 2, 2),
        x.view(2, 10).narrow(2, 4, 5),
    ]
    for v in views:
        u = roundtrip(v)
        assert geometry(u) == geometry(v)
        np.testing.assert_array_equal(npy(u), npy(v))
        # the whole storage travels: the view sits at the same place in it
        assert u.storage().size() == 20


def test_values_floats_exact():
    x = torch.DoubleTensor([[0.1, -2.5e300, float("inf")], [float("-inf"), 5e-324, -0.0]])
    y = roundtrip(x)
    a, b = np.array(x.tolist()), np.array(y.tolist())
    assert a.tobytes() == b.tobytes()
    n = roundtrip(torch.FloatTensor([float("nan"), 1.5]))
    assert np.isnan(n[1]) and n[2] == 1.5


@pytest.mark.parametrize("name", TYPES)
def test_empty_and_zero_size(name):
    cls = getattr(torch, name)
    e = roundtrip(cls())
    assert type(e) is cls and e.dim() == 0 and e.nElement() == 0 and e.storage() is None
    for sizes in ([0], [2, 0], [0, 3, 4]):
        z = roundtrip(cls(*sizes))
        assert type(z) is cls and z.size().tolist() == sizes and z.nElement() == 0


def test_shared_storage_after_load():
    x = torch.DoubleTensor(4, 5).zero()
    a, b, c = roundtrip([x, x.narrow(2, 2, 3), x.t()])
    assert a.storage() is b.storage() is c.storage()
    assert b.storageOffset() == 2 and b.stride().tolist() == [5, 1]
    assert c.stride().tolist() == [1, 5]
    b[1][1] = 7  # element (1, 2) of a
    assert a[1][2] == 7 and c[2][1] == 7
    a.fill(3)
    assert b.sum() == 3 * 12 and c.sum() == 3 * 20


def test_shared_storage_nested_containers():
    x = torch.IntTensor([[1, 2], [3, 4]])
    obj = {"w": x, "rows": [x.select(1, 1), x.select(1, 2)], "again": {"x": x}}
    o = roundtrip(obj)
    assert o["again"]["x"] is o["w"]  # the same tensor object, once
    o["rows"][1][2] = 20  # row 2 of x
    assert o["w"][2][2] == 20


def test_separate_dumps_do_not_share():
    x = torch.DoubleTensor([1, 2, 3])
    a = roundtrip(x)
    b = roundtrip(x)
    a[1] = 9
    assert b[1] == 1 and x[1] == 1


def test_storage_identity_is_stable():
    x = torch.DoubleTensor(3, 3)
    assert x.storage() is x.storage() is x.t().storage()
    s = torch.FloatStorage([1, 2, 3])
    assert torch.FloatTensor(s).storage() is s
    assert torch.DoubleTensor(3).storage() is not x.storage()


@pytest.mark.parametrize("name", TYPES)
def test_storage_alone(name):
    S = getattr(torch, name.replace("Tensor", "Storage"))
    s = S([1, 2, 3, 4])
    u = roundtrip(s)
    assert type(u) is S and u.tolist() == [1, 2, 3, 4] and u is not s
    u[1] = 5
    assert s[1] == 1
    e = roundtrip(S())
    assert type(e) is S and e.size() == 0


def test_storage_with_its_tensors():
    s = torch.LongStorage([1, 2, 3, 4, 5, 6])
    t = torch.LongTensor(s, 2, torch.LongStorage([2, 2]))
    s2, t2 = roundtrip([s, t])
    assert t2.storage() is s2 and t2.storageOffset() == 2
    t2[2][2] = 50
    assert s2[5] == 50
    # a storage view (part of another storage) travels as its own storage
    v = torch.LongStorage(s, 3, 2)
    assert roundtrip(v).tolist() == [3, 4]


def test_deepcopy_and_copy():
    x = torch.ShortTensor([[1, 2], [3, 4]])
    a, b = copy.deepcopy([x, x.t()])
    b[1][2] = 30
    assert a[2][1] == 30 and x[2][1] == 3
    c = copy.copy(x)  # shallow: a new tensor over the same storage
    assert c is not x and c.storage() is x.storage() and c.isSetTo(x)


def test_old_pickles_still_load():
    from strided.torch7.tensor import _rebuild

    t = _rebuild("torch.IntTensor", [[1, 2], [3, 4]], [2, 2])
    assert t.tolist() == [[1, 2], [3, 4]] and t.type() == "torch.IntTensor"
    assert _rebuild("torch.IntTensor", None, []).dim() == 0


def test_bad_pickle_data_raises():
    from strided.torch7.storage import _rebuild_storage
    from strided.torch7.tensor import _rebuild_view

    with pytest.raises(ValueError, match="unknown storage type"):
        _rebuild_storage("torch.CudaStorage", b"")
    with pytest.raises(ValueError, match="whole number"):
        _rebuild_storage("torch.IntStorage", b"abc")
    s = torch.IntStorage([1, 2, 3])
    with pytest.raises(ValueError, match="unknown tensor type"):
        _rebuild_view("torch.CudaTensor", s, 0, [3], [1])
    with pytest.raises(ValueError, match="storage is a"):
        _rebuild_view("torch.DoubleTensor", s, 0, [3], [1])
    with pytest.raises(ValueError, match="storage is a list"):
        _rebuild_view("torch.IntTensor", [1], 0, [], [])
    with pytest.raises(ValueError, match="without a storage"):
        _rebuild_view("torch.IntTensor", None, 0, [2], [1])
    with pytest.raises((ValueError, IndexError)):
        _rebuild_view("torch.IntTensor", s, 2, [3], [1])  # past the end: checked in C

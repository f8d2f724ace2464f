"""A storage view (Storage(parent, offset, size)) pins its parent: no
resize may move the parent's memory while the view lives, in whatever
tensor, after the view's own Python object is gone.  Lua Torch7 read freed
memory there (`t = torch.DoubleTensor(torch.DoubleStorage(p, 3, 4));
p:resize(2000)`); every way a storage can be resized is tried."""

import gc

import pytest

import strided as torch


def _orphan_view(p):
    """A tensor over a view of p[3..6] whose storage object is dropped."""
    t = torch.DoubleTensor(torch.DoubleStorage(p, 3, 4))
    gc.collect()
    return t


def _parent():
    return torch.DoubleStorage([float(i) for i in range(1, 11)])


GROWS = {
    "Storage.resize": lambda p: p.resize(2000),
    "Storage.resize shrink": lambda p: p.resize(2),
    "Tensor.resize": lambda p: torch.DoubleTensor(p).resize(2000),
    "Tensor.resize 2-d": lambda p: torch.DoubleTensor(p).resize(40, 50),
    "Tensor.resizeAs": lambda p: torch.DoubleTensor(p).resizeAs(torch.DoubleTensor(2000)),
    "Tensor.set sizes": lambda p: torch.DoubleTensor().set(p, 1, 2000),
    "Tensor.set LongStorage": lambda p: torch.DoubleTensor().set(p, 1, torch.LongStorage([2000])),
    "result of a math function": lambda p: torch.add(
        torch.DoubleTensor(p).resize(2), torch.range(1, 2000), 1
    ),
}


@pytest.mark.parametrize("grow", list(GROWS), ids=list(GROWS))
def test_every_resize_of_a_pinned_parent_raises(grow):
    p = _parent()
    t = _orphan_view(p)
    with pytest.raises(ValueError, match="storage view"):
        GROWS[grow](p)
    assert p.size() == 10 and t.totable() == [3, 4, 5, 6]
    t.fill(-1)  # writes land in p, still in place
    assert p.tolist() == [1, 2, -1, -1, -1, -1, 7, 8, 9, 10]


def test_resize_to_the_same_size_and_growing_in_place_are_allowed():
    p = _parent()
    t = _orphan_view(p)
    assert p.resize(10).size() == 10  # nothing moves
    assert torch.DoubleTensor(p).resize(2, 5).nElement() == 10
    assert t.totable() == [3, 4, 5, 6]


def test_the_pin_goes_with_the_last_holder():
    p = _parent()
    t = _orphan_view(p)
    u = t.narrow(1, 2, 2)  # another tensor over the same view
    v = torch.DoubleStorage(p, 1, 2)  # a second view, an object of its own
    del t
    gc.collect()
    with pytest.raises(ValueError, match="2 storage view"):
        p.resize(20)
    del v
    gc.collect()
    with pytest.raises(ValueError, match="1 storage view"):
        p.resize(20)
    assert u.totable() == [4, 5]
    del u
    gc.collect()
    assert p.resize(2000).size() == 2000 and p[10] == 10


def test_view_of_a_view_pins_the_root():
    p = _parent()
    t = torch.DoubleTensor(torch.DoubleStorage(torch.DoubleStorage(p, 2, 6), 2, 3))
    gc.collect()
    with pytest.raises(ValueError, match="storage view"):
        p.resize(2000)
    assert t.totable() == [3, 4, 5]


def test_freeing_the_parent_object_keeps_the_view_valid():
    p = _parent()
    t = _orphan_view(p)
    p.free()  # the object lets go; the view holds the memory
    del p
    gc.collect()
    assert t.totable() == [3, 4, 5, 6]


def test_byte_string_and_memory_file_refuse_a_pinned_storage():
    b = torch.ByteStorage(4).fill(7)
    t = torch.ByteTensor(torch.ByteStorage(b, 1, 2))
    gc.collect()
    with pytest.raises(ValueError, match="storage view"):
        b.string("longer than four bytes")
    assert t.totable() == [7, 7]
    c = torch.CharStorage(3).fill(0)
    keep = torch.CharTensor(torch.CharStorage(c, 1, 2))
    f = torch.MemoryFile(c, "rw")
    with pytest.raises(ValueError, match="storage view"):
        f.writeString("x" * 100)  # would grow the file's storage
    assert keep.totable() == [0, 0]


def test_a_pinned_storage_loads_and_saves():
    # serializing a tensor over a view and its parent still works (no resize)
    p = _parent()
    t = _orphan_view(p)
    f = torch.MemoryFile()
    f.binary()
    f.writeObject([t, torch.DoubleTensor(p)])
    f.seek(1)
    t2, whole = f.readObject()
    assert t2.totable() == [3, 4, 5, 6] and whole.totable() == p.tolist()

"""Sizes, views and joins on the Torch7 face as Lua Torch7 gives them:
select on a vector, reshape and cat's forms, float sizes, dimensions and
indices truncated, empty tensors keeping their sizes, squeeze.  Each
expected value is what real Lua Torch7 (814ea4a) gives for the same call."""

import math

import pytest

import strided as torch


def test_select_on_a_vector_ignores_the_dimension():
    # Lua: x:select(2, 3), x:select(7, 1), x:select(0, 1) on {10,20,30} give 30 10 10
    x = torch.Tensor([10, 20, 30])
    assert x.select(2, 3) == 30 and x.select(1, 2) == 20
    assert x.select(7, 1) == 10 and x.select(0, 1) == 10
    assert torch.IntTensor([1, 2]).select(2, 2) == 2
    # the index is still checked (Lua: "out of range"), and so is a matrix's dimension
    with pytest.raises(IndexError, match=r"select: index 4 out of range \[1, 3\]"):
        x.select(1, 4)
    with pytest.raises(IndexError, match=r"dim 3 out of range \[1, 2\]"):
        torch.Tensor(2, 3).select(3, 1)


def test_reshape():
    # torch.reshape(x:view(2,3):t(), 6) in Lua: 1 4 2 5 3 6, a copy
    x = torch.range(1, 6)
    r = torch.reshape(x.view(2, 3).t(), 6)
    assert r.tolist() == [1, 4, 2, 5, 3, 6] and r.isContiguous()
    # x:reshape(3,2) is new (x unchanged); y:reshape(x, 2, 3) writes into y
    r = x.reshape(3, 2)
    assert r.tolist() == [[1, 2], [3, 4], [5, 6]] and x.size().tolist() == [6]
    assert r.storage().size() == 6 and torch.pointer(r.storage()) != torch.pointer(x.storage())
    y = torch.Tensor()
    assert y.reshape(x, 2, 3) is y and y.tolist() == [[1, 2, 3], [4, 5, 6]]
    mxx = torch.Tensor()
    assert torch.reshape(mxx, x, torch.LongStorage([2, 3])) is mxx and mxx.size().tolist() == [2, 3]
    # Lua: "inconsistent tensor size ... 8 and 6 elements"
    with pytest.raises(ValueError, match="reshape"):
        torch.reshape(x, 4, 2)


def test_cat_method():
    # Lua: a:cat(b) is new (a unchanged); res:cat(a, b) and res:cat({a, b})
    # return res; a:cat({b}) makes a the result (Lua prints 3 4 for both)
    a, b = torch.Tensor([1, 2]), torch.Tensor([3, 4])
    c = a.cat(b)
    assert c is not a and c.tolist() == [1, 2, 3, 4] and a.tolist() == [1, 2]
    assert a.cat(b, 1).tolist() == [1, 2, 3, 4]
    res = torch.Tensor()
    assert res.cat(a, b) is res and res.tolist() == [1, 2, 3, 4]
    res = torch.Tensor()
    assert res.cat([a, b]) is res and res.tolist() == [1, 2, 3, 4]
    assert a.cat([b]) is a and a.tolist() == [3, 4]
    # Lua: "invalid arguments: DoubleTensor FloatTensor"
    with pytest.raises(TypeError, match="cat"):
        b.cat(torch.FloatTensor([1]))


def test_float_sizes_truncate_as_lua():
    # Lua: torch.ones(2.5):size() is 2, torch.Tensor(2.7, 3):size() is 2x3,
    # torch.zeros(torch.Tensor{3, 3, 3}:prod(1)[1]) has 27 elements
    assert torch.ones(2.5).size().totable() == [2]
    assert torch.Tensor(2.7, 3.0).size().totable() == [2, 3]
    assert torch.zeros(torch.Tensor([3, 3, 3]).prod(1)[1]).nElement() == 27
    assert torch.range(1, 15).view(3.0, -1.0).size().totable() == [3, 5]
    with pytest.raises(TypeError, match="size 1 must be an integer"):
        torch.ones(float("nan"))


def test_reshape_as_lua():
    # Lua: x:reshape(2, 3) is a new 2x3 tensor of x's elements, x unchanged;
    # z:reshape(x, 3, 2) fills z and returns it; a transposed source is read
    # row-major; a wrong element count or -1 raises
    x = torch.range(1, 6)
    y = x.reshape(2, 3)
    assert y.totable() == [[1, 2, 3], [4, 5, 6]]
    assert x.size().totable() == [6] and not x.isSetTo(y)
    y.fill(0)
    assert x.totable() == [1, 2, 3, 4, 5, 6]
    z = torch.Tensor()
    assert z.reshape(x, 3, 2) is z and z.totable() == [[1, 2], [3, 4], [5, 6]]
    assert torch.reshape(x, torch.LongStorage([3, 2])).size().totable() == [3, 2]
    assert torch.IntTensor([[1, 2], [3, 4]]).t().reshape(4).totable() == [1, 3, 2, 4]
    with pytest.raises(ValueError, match="8 elements"):
        torch.reshape(x, 4, 2)
    with pytest.raises(ValueError):
        torch.reshape(x, -1, 2)


def test_float_dims_and_indices_truncate_as_lua():
    # Lua's numbers are doubles, truncated where an integer is wanted:
    # x:sum(2.0)[2][1] 15, x:select(1, 2.7)[1] 4, x:narrow(2, 2.5, 2.9):size(2)
    # 2, x[2.9][1] 4, x[{1.5, 3.2}] 3, x:size(1.9) 2, x:permute(2.0, 1.0):size(1)
    # 3, x:storage()[2.5] 2, x:sub(1.2, 1.8, 2.1, 3.9):size(2) 2,
    # torch.cat(x, x, 1.5):size(1) 4, x[{{1.5, 2.5}}]:size(1) 2,
    # x:split(2.5, 2.0)[1]:size(2) 2; x[0/0] raises
    x = torch.range(1, 6).view(2, 3)
    assert x.sum(2.0).totable()[1][0] == 15
    assert x.select(1, 2.7)[1] == 4
    assert x.narrow(2, 2.5, 2.9).size(2) == 2
    assert x[2.9][1] == 4 and x[1.5, 3.2] == 3
    assert x.size(1.9) == 2 and x.permute(2.0, 1.0).size(1) == 3
    assert x.storage()[2.5] == 2
    assert x.sub(1.2, 1.8, 2.1, 3.9).size(2) == 2
    assert torch.cat(x, x, 1.5).size(1) == 4
    assert x[[1.5, 2.5]].size(1) == 2
    assert x.split(2.5, 2.0)[0].size(2) == 2
    assert x.permute(*torch.Tensor([2, 1]).totable()).size().totable() == [3, 2]
    with pytest.raises(TypeError, match="must be an integer"):
        x[float("nan")]
    assert x[1.5].totable() == x[1].totable()  # Lua: x[1.5] is x[1]
    assert x.cumsum(2.5).totable() == x.cumsum(2).totable()


def test_empty_tensors_keep_their_sizes():
    # Lua collapses them: Tensor(0) and Tensor(0, 3) have no dimension, and
    # Tensor(3, 0) is a 1-D tensor of 3 (uninitialised) elements; we keep
    # the sizes (torch7.md).  What agrees: nElement, printing, sum, cat
    for t, size in [
        (torch.Tensor(0), [0]),
        (torch.Tensor(0, 3), [0, 3]),
        (torch.Tensor(3, 0), [3, 0]),
        (torch.Tensor(3).resize(0), [0]),
    ]:
        assert t.size().totable() == size and t.dim() == len(size)
        assert t.nElement() == 0 and t.isContiguous()
        assert str(t) == "[torch.DoubleTensor with no dimension]"
        assert t.sum() == 0
        assert t.add(1).nElement() == 0 and t.clone().size().totable() == size
    assert torch.Tensor().dim() == 0 and torch.Tensor().storage() is None
    assert torch.cat(torch.Tensor(0), torch.Tensor([1, 2]), 1).totable() == [1, 2]
    assert torch.zeros(0).nElement() == 0
    assert len(torch.Tensor(0).totable()) == 0


def test_empty_tensors():
    for t in [torch.Tensor(), torch.Tensor(0), torch.IntTensor(0, 3)]:
        assert t.nElement() == 0
        assert str(t).endswith("with no dimension]")
        assert t.clone().nElement() == 0 and t.sum() == 0
        assert t.nonzero().nElement() == 0
        t.fill(1).zero().apply(math.sin)
    e = torch.Tensor()
    assert e.storage() is None and e.size().tolist() == [] and e.dim() == 0
    assert e[()].nElement() == 0
    with pytest.raises(IndexError, match="no dimension"):
        e.narrow(1, 1, 0)
    with pytest.raises(IndexError):
        e[1]
    assert e.resize(2, 2).nElement() == 4


def test_squeeze_as_lua():
    # Lua gives a number for a one-element result; with a dim, only when the
    # tensor had one dimension (values from Lua Torch7)
    assert torch.Tensor(1, 1).fill(3).squeeze() == 3
    assert torch.Tensor(1).fill(2).squeeze(1) == 2
    assert torch.Tensor(1, 1).fill(3).squeeze(1).size().tolist() == [1]
    r = torch.Tensor()
    assert torch.squeeze(r, torch.Tensor([[5]])) == 5 and r.tolist() == [5]
    assert torch.Tensor(1, 3).squeeze(1).size().tolist() == [3]
    assert torch.Tensor(2, 3).squeeze(1).size().tolist() == [2, 3]


def test_new_is_the_constructor_called_with_the_tensor():
    # Lua: a:new() is torch.DoubleTensor(a): writing e[1] = 9 is seen in a
    a = torch.Tensor([1, 2, 3])
    e = a.new()
    e[1] = 9
    assert a[1] == 9 and e.isSetTo(a)
    # Lua: torch.Tensor():new():dim() is 0; torch.Tensor(2,3):t():new():stride() is {1, 3}
    assert torch.Tensor().new().dim() == 0
    assert torch.Tensor(2, 3).t().new().stride().tolist() == [1, 3]
    assert torch.IntTensor([4, 5]).new().type() == "torch.IntTensor"

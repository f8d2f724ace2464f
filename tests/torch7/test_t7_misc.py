"""Torch7 face: the user page's code runs, sort, empty tensors, storage
safety, default-type aliases, [] forms of the mapping's section 11."""

import math
import pathlib
import re
import subprocess
import sys

import pytest

import strided as torch

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "torch7.md"


def test_user_page_code_runs():
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S):
        exec(compile(block, str(DOC), "exec"), {})


def test_sort():
    x = torch.Tensor([[3, 1, 2], [9, 7, 8]])
    v, i = x.sort()
    assert v.tolist() == [[1, 2, 3], [7, 8, 9]] and i.tolist() == [[2, 3, 1], [2, 3, 1]]
    assert i.type() == "torch.LongTensor"
    v, i = torch.sort(x, 1, True)
    assert v.tolist() == [[9, 7, 8], [3, 1, 2]] and i.tolist() == [[2, 2, 2], [1, 1, 1]]
    rv, ri = torch.Tensor(), torch.LongTensor()
    torch.sort(rv, ri, x, 2)
    assert rv.tolist() == [[1, 2, 3], [7, 8, 9]] and ri.tolist() == [[2, 3, 1], [2, 3, 1]]


def test_section11_keys():
    x = torch.Tensor([[1, 2, 3], [4, 5, 6]])
    assert x[(1,)].tolist() == x[1].tolist() == [1, 2, 3]
    assert x[()].isSetTo(x)
    assert x[[1, 2]].tolist() == x.tolist()
    assert x[[2]].size().tolist() == [1, 3]
    assert x[:, 2].tolist() == [2, 5] and x[[], 2].tolist() == [2, 5]
    assert x[-1, -1] == 6 and x[[-2, -1], 1].tolist() == [1, 4]
    x[[1, 2], [2, 3]] = torch.Tensor([7, 8, 9, 10])  # element counts match
    assert x.tolist() == [[1, 7, 8], [4, 9, 10]]
    x[2] = 0
    assert x.tolist() == [[1, 7, 8], [0, 0, 0]]
    x[1, 1] = torch.Tensor([5])
    assert x[1][1] == 5
    with pytest.raises(ValueError):
        x[1] = torch.Tensor(2)


def test_len_iter_bool_results():
    x = torch.Tensor(3, 2).zero()
    assert len(x) == 3 and len(torch.Tensor()) == 0
    assert [r.size(1) for r in x] == [2, 2, 2]
    assert x.isContiguous() is True and x.isSize(torch.LongStorage([3, 2])) is True
    with pytest.raises(TypeError):
        bool(x)


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


def test_storage_resize_safety():
    x = torch.Tensor(100)
    with pytest.raises(ValueError, match="cannot shrink"):
        x.storage().resize(1)
    s = torch.Storage(4)
    v = torch.Storage(s, 2, 2)
    with pytest.raises(ValueError, match="storage view"):
        s.resize(10)
    del v
    import gc

    gc.collect()
    assert s.resize(10).size() == 10
    assert torch.Storage(5).resize(2).size() == 2


def test_default_type_follows_everywhere():
    try:
        torch.setdefaulttensortype("torch.FloatTensor")
        for t in [
            torch.Tensor(2),
            torch.zeros(2),
            torch.ones(2),
            torch.rand(2),
            torch.randn(2),
            torch.range(1, 3),
        ]:
            assert t.type() == "torch.FloatTensor"
        assert torch.Storage(2).type() == "torch.FloatStorage"
    finally:
        torch.setdefaulttensortype("torch.DoubleTensor")


def test_lua_style_chaining():
    x = torch.Tensor(2, 2).fill(1).add(1).mul(3)
    assert x.tolist() == [[6, 6], [6, 6]]
    assert x.zero() is x and x.copy(torch.Tensor(4)) is x and x.resize(4) is x
    assert x.set(torch.Tensor(3)) is x and x.resizeAs(torch.Tensor(2)) is x
    f = lambda v: v
    assert (
        x.apply(f) is x and x.map(x, lambda a, b: a) is x and x.map2(x, x, lambda a, b, c: a) is x
    )
    assert x.indexFill(1, torch.LongTensor([1]), 1) is x
    assert x.maskedFill(torch.ByteTensor([1, 0]), 2) is x


def test_module_functions_exist():
    for name in [
        "narrow",
        "select",
        "sub",
        "transpose",
        "t",
        "permute",
        "unfold",
        "squeeze",
        "expand",
        "expandAs",
        "repeatTensor",
        "view",
        "viewAs",
        "index",
        "indexCopy",
        "indexAdd",
        "indexFill",
        "gather",
        "scatter",
        "maskedSelect",
        "maskedCopy",
        "maskedFill",
        "nonzero",
        "split",
        "chunk",
        "clone",
        "contiguous",
        "fill",
        "zero",
        "copy",
        "resize",
        "resizeAs",
        "apply",
        "map",
        "map2",
        "typeAs",
        "type",
        "isTensor",
        "totable",
        "data",
        "cdata",
        "zeros",
        "ones",
        "rand",
        "randn",
        "range",
        "le",
        "lt",
        "eq",
        "ge",
        "gt",
        "ne",
        "sum",
        "mul",
        "floor",
        "add",
        "cmul",
        "div",
        "max",
        "min",
        "mean",
        "cat",
        "sort",
        "setdefaulttensortype",
        "getdefaulttensortype",
        "setnumthreads",
        "getnumthreads",
    ]:
        assert callable(getattr(torch, name)), name
    x = torch.Tensor([[1, 2], [3, 4]])
    assert torch.narrow(x, 2, 2, 1).tolist() == [[2], [4]]
    assert torch.totable(x) == [[1, 2], [3, 4]] and torch.type(x) == "torch.DoubleTensor"


def test_misuse_does_not_crash_interpreter():
    code = (
        "import strided as torch\n"
        "t = torch.Tensor(3)\n"
        "for _ in range(10): t.free()\n"
        "t.retain(); t.free(); t.free()\n"
        "u = torch.Tensor(2, 2); s = u.storage(); del u\n"
        "s[1] = 5; print(s[1])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "5.0"


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

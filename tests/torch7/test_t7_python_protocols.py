"""The Torch7 face's Python side: the [] keys of the mapping's section 11,
len/iter/bool, Lua-style chaining, the module's functions, and misuse
that must raise rather than crash the interpreter."""

import subprocess
import sys

import pytest

import strided as torch


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

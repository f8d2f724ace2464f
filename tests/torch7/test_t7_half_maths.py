"""The Torch7 face's 16-bit floats compute (an extension: Lua's HalfTensor
has no maths; BFloat16Tensor is not Lua's): each function of the spec on a
HalfTensor or a BFloat16Tensor is the FloatTensor's result on the same
values rounded once; what has no float32 path raises TypeError naming
the function and the type; printing; BFloat16 in .t7 files."""

import math

import numpy as np
import pytest

import strided as torch

CLASSES = [torch.HalfTensor, torch.BFloat16Tensor]


def rounded(cls, t):
    return t.type(cls._typename)


@pytest.mark.parametrize("cls", CLASSES)
def test_spec_maths_is_float_rounded_once(cls):
    f = torch.FloatTensor([[0.1, -2.5, 3.75], [1e3, 1 / 3, -7]])
    h = rounded(cls, f)
    w = h.float()  # the 16-bit values, exactly
    cases = [
        lambda t: t.clone().add(1.5),
        lambda t: t.clone().mul(3),
        lambda t: t.clone().cmul(t),
        lambda t: torch.add(t, t),
        lambda t: t.clone().abs(),
        lambda t: torch.exp(t.clone().div(1e3)),
        lambda t: t.clone().clamp(-1, 1),
        lambda t: torch.sum(t, 2),
        lambda t: torch.cumsum(t, 2),
        lambda t: torch.max(t, 1)[0],
        lambda t: torch.sort(t, 2)[0],
        lambda t: torch.mm(t, t.t()),
        lambda t: t.clone().fill(0.3),
        lambda t: t.clone().zero(),
        lambda t: torch.cat(t, t, 1),
        lambda t: t.clone().pow(2),
        lambda t: t.clone().sqrt(),
        lambda t: torch.mean(t, 1),
        lambda t: t * 3,
        lambda t: t - t,
        lambda t: -t,
        lambda t: t / 7,
    ]
    for i, op in enumerate(cases):
        got, want = op(h), op(w)
        assert got.type() == cls._typename, i
        np.testing.assert_array_equal(
            np.array(got.float().tolist()),
            np.array(rounded(cls, want).float().tolist()),
            err_msg=str(i),
        )
    assert h.sum() == rounded(cls, torch.FloatTensor([w.sum()]))[1]
    assert torch.sort(h, 2)[1].type() == "torch.LongTensor"
    assert h.lt(0).type() == "torch.ByteTensor" and h.lt(0).tolist() == w.lt(0).tolist()


@pytest.mark.parametrize("cls", CLASSES)
def test_indexing_and_masks(cls):
    h = cls(3, 4).copy(torch.range(1, 12).resize(3, 4))
    m = h.gt(6)
    assert h[m].tolist() == [7, 8, 9, 10, 11, 12]
    h[m] = 0
    assert h.sum() == 21
    assert h.index(1, torch.LongTensor([3, 1])).tolist() == [[0, 0, 0, 0], [1, 2, 3, 4]]
    h.maskedFill(h.eq(0), -1)
    assert h.min() == -1


@pytest.mark.parametrize("cls", CLASSES)
def test_no_float32_path_is_a_clear_type_error(cls):
    h = cls([3, 1, 2])
    dt = "float16" if cls is torch.HalfTensor else "bfloat16"
    with pytest.raises(TypeError, match=f"topk.*{dt}"):  # the core's refusal
        h.topk(1)
    for name in ("histc", "norm", "uniform", "gesv"):  # spec.FLOAT: not on them
        assert not hasattr(h, name)
        with pytest.raises(TypeError, match=cls._typename):
            getattr(torch, name)(h)


def test_printing():
    # Lua: print(torch.HalfTensor{1.5, -2})
    assert str(torch.HalfTensor([1.5, -2])) == " 1.5000\n-2.0000\n[torch.HalfTensor of dimension 2]"
    assert str(torch.BFloat16Tensor([1.5, 1 / 3])) == (
        " 1.5000\n 0.3340\n[torch.BFloat16Tensor of dimension 2]"
    )
    assert str(torch.BFloat16Storage([2, 3])) == " 2\n 3\n[torch.BFloat16Storage of size 2]"


def test_bfloat16_conversions_and_values():
    b = torch.DoubleTensor([1 / 3, 1e6, -0.0, math.inf]).bfloat16()
    assert b.type() == "torch.BFloat16Tensor" and b.bfloat16() is b
    assert b.tolist() == [0.333984375, 999424.0, -0.0, math.inf]
    assert b.half().tolist() == [0.333984375, math.inf, -0.0, math.inf]
    assert torch.HalfTensor([1 / 3]).bfloat16().tolist() == [0.333984375]


def test_bfloat16_in_t7_files(tmp_path):
    b = torch.DoubleTensor([[1 / 3, 2.5, -7], [1e-5, 1e30, math.nan]]).bfloat16()
    s = torch.BFloat16Storage([0.1, -3])
    for mode in ("binary", "ascii"):
        p = str(tmp_path / f"b_{mode}.t7")
        torch.save(p, {"b": b, "bt": b.t(), "s": s}, mode)
        d = torch.load(p, mode)
        assert type(d["b"]) is torch.BFloat16Tensor and type(d["s"]) is torch.BFloat16Storage
        got, want = d["b"].tolist(), b.tolist()
        assert got[0] == want[0] and got[1][:2] == want[1][:2] and math.isnan(got[1][2])
        assert d["b"].storage() is d["bt"].storage() and d["s"].totable() == s.totable()

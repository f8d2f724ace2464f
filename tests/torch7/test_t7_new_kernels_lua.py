"""The Torch7 face's statistics, selection, convolution, cumulative and
remainder functions where they once differed from Lua: each expected value
here was printed by real Lua Torch7 for the same call (the properties
against numpy are in test_t7_new_kernels_property.py)."""
import math

import pytest

import strided as torch


def storage(t):
    return t.storage().tolist()


def test_res_forms_write_into_the_given_view():
    # Lua resizes a [res] of the right size in place (a view stays a view) and
    # writes into it: the tensor it views sees the answer
    b = torch.zeros(6)
    torch.histc(b.narrow(1, 2, 3), torch.DoubleTensor([1, 2, 3]), 3)
    assert storage(b) == [0, 1, 1, 1, 0, 0]
    base = torch.zeros(4, 2)
    torch.conv2(base.narrow(1, 2, 2), torch.DoubleTensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
                torch.DoubleTensor([[1, 0], [0, -1]]))
    assert storage(base) == [0, 0, 4, 4, 4, 4, 0, 0]
    bv, bi = torch.zeros(5), torch.LongTensor(5).zero()
    torch.topk(bv.narrow(1, 2, 2), bi.narrow(1, 3, 2), torch.DoubleTensor([5, 1, 4, 2]), 2, 1,
               True, True)
    assert storage(bv) == [0, 5, 4, 0, 0] and storage(bi) == [0, 0, 1, 3, 0]
    bn = torch.zeros(4)
    torch.norm(bn.narrow(1, 2, 2), torch.DoubleTensor([[3, 4], [6, 8]]), 2, 2)
    assert storage(bn) == [0, 5, 10, 0]
    bd = torch.zeros(5)
    torch.diag(bd.narrow(1, 2, 2), torch.DoubleTensor([[1, 2], [3, 4]]))
    assert storage(bd) == [0, 1, 4, 0, 0]
    bb = torch.zeros(2, 5)
    torch.bhistc(bb.narrow(2, 2, 3), torch.DoubleTensor([[1, 2], [3, 3]]), 3)
    assert storage(bb) == [0, 1, 1, 0, 0, 0, 0, 0, 2, 0]
    # median into a column of a matrix: Lua writes through the column's stride
    x = torch.DoubleTensor([[3, 1, 2], [6, 5, 4]])
    base, bi = torch.zeros(2, 4), torch.LongTensor(2, 4).zero()
    torch.median(base.narrow(2, 2, 1), bi.narrow(2, 3, 1), x, 2)
    assert base.tolist() == [[0, 2, 0, 0], [0, 5, 0, 0]]
    assert bi.tolist() == [[0, 0, 3, 0], [0, 0, 2, 0]]


def test_k_out_of_range_raises():
    # Lua: "k not in range for dimension" / "selected index out of range"
    x = torch.DoubleTensor([3, 1, 2])
    for bad in (lambda: torch.topk(x, 0), lambda: torch.topk(x, 4),
                lambda: torch.kthvalue(x, 0), lambda: torch.kthvalue(x, 4)):
        with pytest.raises(IndexError, match="out of range"):
            bad()


def test_cumsum_of_float_accumulates_in_double():
    # TH sums in accreal, double for a FloatTensor: 2^24 + 1 + 1 keeps its ones
    assert torch.cumsum(torch.FloatTensor([2 ** 24, 1, 1])).tolist() == [2 ** 24, 2 ** 24,
                                                                         2 ** 24 + 2]
    assert torch.cumprod(torch.FloatTensor([4097, 4097, 1])).tolist() == [4097, 16785408,
                                                                          16785408]
    assert torch.cumsum(torch.ByteTensor([200, 100, 100])).tolist() == [200, 44, 144]


def test_remainder_is_th_s_formula():
    # a - b * floor(a / b), NaN for b == 0; not fmod's correction (5.5 % 0.1
    # would be 0.0999...)
    r = torch.remainder(torch.DoubleTensor([5.5, -7.25, 3, 1]), 0.1).tolist()
    assert r == [0, 0.050000000000000711, 0, 0]
    r = torch.cremainder(torch.FloatTensor([1, 5.5, -7.3, 2]),
                         torch.FloatTensor([0.1, 0.1, 0.7, 0])).tolist()
    assert r[:3] == [-1.4901161193847656e-08, -8.1956386566162109e-08, 0.39999967813491821]
    assert math.isnan(r[3])
    assert torch.IntTensor([7, -7, 7, -7]).remainder(3).tolist() == [1, 2, 1, 2]
    assert torch.cremainder(torch.IntTensor([7, -7, 7, -7]),
                            torch.IntTensor([3, 3, -3, -3])).tolist() == [1, 2, -2, -1]


def test_positions_among_ties_are_lua_s():
    # TH's quickselect and quicksort (not stable) decide which of equal values
    x = torch.DoubleTensor([3, 1, 2, 1, 3, 2, 1, 2, 3, 1, 2, 2, 3, 1, 1, 3, 2])
    assert torch.kthvalue(x, 9)[1].tolist() == [12]
    assert torch.median(x)[1].tolist() == [12]
    v, i = torch.mode(x)
    assert v.tolist() == [1] and i.tolist() == [15]
    assert torch.topk(x, 5, 1, True, True)[1].tolist() == [16, 1, 13, 5, 9]
    assert torch.topk(x, 5, 1, False, True)[1].tolist() == [2, 7, 10, 14, 4]
    v, i = torch.topk(x, 5)                        # unsorted: TH's arrangement
    assert v.tolist() == [1] * 5 and i.tolist() == [2, 7, 10, 14, 4]
    v, i = torch.topk(torch.IntTensor([[4, 4, 1, 4], [2, 2, 2, 2]]), 2, 2, True)
    assert v.tolist() == [[4, 4], [2, 2]] and i.tolist() == [[1, 4], [3, 4]]
    v, i = torch.mode(torch.LongTensor([5, 5, 1, 1, 7, 7, 1, 5, 9, 9, 9, 5, 1]))
    assert v.tolist() == [1] and i.tolist() == [3]
    v, i = torch.kthvalue(torch.ByteTensor([0, 0, 0]), 1)
    assert i.tolist() == [2]

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
    torch.conv2(
        base.narrow(1, 2, 2),
        torch.DoubleTensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
        torch.DoubleTensor([[1, 0], [0, -1]]),
    )
    assert storage(base) == [0, 0, 4, 4, 4, 4, 0, 0]
    bv, bi = torch.zeros(5), torch.LongTensor(5).zero()
    torch.topk(
        bv.narrow(1, 2, 2), bi.narrow(1, 3, 2), torch.DoubleTensor([5, 1, 4, 2]), 2, 1, True, True
    )
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
    for bad in (
        lambda: torch.topk(x, 0),
        lambda: torch.topk(x, 4),
        lambda: torch.kthvalue(x, 0),
        lambda: torch.kthvalue(x, 4),
    ):
        with pytest.raises(IndexError, match="out of range"):
            bad()


def test_cumsum_of_float_accumulates_in_double():
    # TH sums in accreal, double for a FloatTensor: 2^24 + 1 + 1 keeps its ones
    assert torch.cumsum(torch.FloatTensor([2**24, 1, 1])).tolist() == [2**24, 2**24, 2**24 + 2]
    assert torch.cumprod(torch.FloatTensor([4097, 4097, 1])).tolist() == [4097, 16785408, 16785408]
    assert torch.cumsum(torch.ByteTensor([200, 100, 100])).tolist() == [200, 44, 144]


def test_remainder_is_th_s_formula():
    # a - b * floor(a / b), NaN for b == 0; not fmod's correction (5.5 % 0.1
    # would be 0.0999...)
    r = torch.remainder(torch.DoubleTensor([5.5, -7.25, 3, 1]), 0.1).tolist()
    assert r == [0, 0.050000000000000711, 0, 0]
    r = torch.cremainder(
        torch.FloatTensor([1, 5.5, -7.3, 2]), torch.FloatTensor([0.1, 0.1, 0.7, 0])
    ).tolist()
    assert r[:3] == [-1.4901161193847656e-08, -8.1956386566162109e-08, 0.39999967813491821]
    assert math.isnan(r[3])
    assert torch.IntTensor([7, -7, 7, -7]).remainder(3).tolist() == [1, 2, 1, 2]
    assert torch.cremainder(
        torch.IntTensor([7, -7, 7, -7]), torch.IntTensor([3, 3, -3, -3])
    ).tolist() == [1, 2, -2, -1]


def test_positions_among_ties_are_lua_s():
    # TH's quickselect and quicksort (not stable) decide which of equal values
    x = torch.DoubleTensor([3, 1, 2, 1, 3, 2, 1, 2, 3, 1, 2, 2, 3, 1, 1, 3, 2])
    assert torch.kthvalue(x, 9)[1].tolist() == [12]
    assert torch.median(x)[1].tolist() == [12]
    v, i = torch.mode(x)
    assert v.tolist() == [1] and i.tolist() == [15]
    assert torch.topk(x, 5, 1, True, True)[1].tolist() == [16, 1, 13, 5, 9]
    assert torch.topk(x, 5, 1, False, True)[1].tolist() == [2, 7, 10, 14, 4]
    v, i = torch.topk(x, 5)  # unsorted: TH's arrangement
    assert v.tolist() == [1] * 5 and i.tolist() == [2, 7, 10, 14, 4]
    v, i = torch.topk(torch.IntTensor([[4, 4, 1, 4], [2, 2, 2, 2]]), 2, 2, True)
    assert v.tolist() == [[4, 4], [2, 2]] and i.tolist() == [[1, 4], [3, 4]]
    v, i = torch.mode(torch.LongTensor([5, 5, 1, 1, 7, 7, 1, 5, 9, 9, 9, 5, 1]))
    assert v.tolist() == [1] and i.tolist() == [3]
    v, i = torch.kthvalue(torch.ByteTensor([0, 0, 0]), 1)
    assert i.tolist() == [2]


# topk along a long lane with ties, every form: each runs TH's quickselect
# (thsel, its partition a block at a time), and the values and positions
# are Lua's (Lua Torch7 with the same seeds: torch.rand gives Lua's numbers)
def _lane(seed, n, scale):
    torch.manualSeed(seed)
    x = torch.rand(n)
    return x.mul(scale).floor() if scale else x


def test_topk_every_form_on_long_lanes_as_lua():
    x = _lane(5, 100000, 50)
    v, i = torch.topk(x, 10)  # smallest, unsorted: TH's arrangement
    assert v.tolist() == [0] * 10
    assert i.tolist() == [48086, 6871, 8168, 34352, 97714, 97712, 6863, 54504, 74489, 88396]
    v, i = torch.topk(x, 10, 1, True)  # largest, unsorted
    assert v.tolist() == [49] * 10
    assert i.tolist() == [25355, 25283, 25318, 3286, 57552, 25261, 57509, 94290, 25221, 37197]
    v, i = torch.topk(x, 6, 1, True, True)  # largest, sorted, ties at the k-th
    assert v.tolist() == [49] * 6
    assert i.tolist() == [57552, 25261, 57509, 94290, 25221, 37197]
    rv, ri = torch.Tensor(), torch.LongTensor()  # [res] form
    assert torch.topk(rv, ri, x, 7, 1, False, False)[1] is ri
    assert rv.tolist() == [0] * 7
    assert ri.tolist() == [97714, 34352, 97712, 48086, 8168, 6871, 6863]
    # distinct values, 10^6 of them
    v, i = torch.topk(_lane(6, 1000000, 0), 10)
    assert v.tolist() == [
        4.2512547224760056e-06,
        2.6191119104623795e-06,
        1.9958242774009705e-06,
        6.335088983178139e-06,
        2.8940849006175995e-06,
        2.439366653561592e-06,
        6.683403626084328e-06,
        7.695751264691353e-06,
        7.4747949838638306e-06,
        9.099254384636879e-06,
    ]
    assert i.tolist() == [
        861421,
        993242,
        737702,
        721941,
        511408,
        250421,
        70439,
        789738,
        573157,
        318747,
    ]
    # a FloatTensor
    f = _lane(8, 50000, 10).float()
    v, i = torch.topk(f, 9)
    assert v.type() == "torch.FloatTensor" and v.tolist() == [0] * 9
    assert i.tolist() == [3857, 37444, 15272, 3856, 37442, 29859, 15277, 30937, 3854]


def test_topk_along_each_dim_as_lua():
    z = _lane(7, 12000, 20).view(4, 3000)
    v, i = torch.topk(z, 5, 2)
    assert v.tolist() == [[0] * 5] * 4
    assert [e for row in i.tolist() for e in row] == [
        567,
        418,
        1180,
        1697,
        285,
        1392,
        373,
        2370,
        2372,
        363,
        2725,
        125,
        1305,
        2377,
        1177,
        909,
        902,
        111,
        2764,
        2470,
    ]
    v, i = torch.topk(z.t(), 4, 1, True)  # a transposed input, along dim 1
    assert v.tolist() == [[19] * 4] * 4
    assert [e for row in i.tolist() for e in row] == [
        2366,
        1982,
        1916,
        144,
        1723,
        2411,
        1321,
        2255,
        764,
        282,
        1315,
        2452,
        521,
        919,
        2427,
        1876,
    ]


def test_randperm_is_lua_s_permutation():
    # TH's swaps with Lua's draws (a block of draws at a time, the swapped
    # places fetched ahead): Lua Torch7's values with these seeds
    torch.manualSeed(12)
    assert torch.randperm(20).tolist() == [
        4,
        16,
        13,
        9,
        6,
        17,
        18,
        12,
        3,
        7,
        15,
        5,
        8,
        20,
        10,
        1,
        19,
        2,
        11,
        14,
    ]
    for res in (torch.LongTensor(), torch.FloatTensor(), torch.IntTensor(), torch.Tensor(3, 4)):
        torch.manualSeed(12)
        assert torch.randperm(res, 20) is res and res.type() in (
            "torch.LongTensor",
            "torch.FloatTensor",
            "torch.IntTensor",
            "torch.DoubleTensor",
        )
        assert res.tolist()[:4] == [4, 16, 13, 9] and res.nElement() == 20
    torch.manualSeed(13)
    p = torch.randperm(1000000)
    assert p.narrow(1, 1, 5).tolist() == [206419, 513762, 233797, 252053, 263483]
    assert p.narrow(1, 999996, 5).tolist() == [402271, 497030, 130855, 768713, 646229]
    assert p.sum() == 500000500000
    # a non-contiguous res is filled in place
    x = torch.Tensor(5, 2).zero()
    torch.manualSeed(12)
    torch.randperm(x.select(2, 2), 5)
    assert sorted(x.select(2, 2).tolist()) == [1, 2, 3, 4, 5] and x.select(2, 1).sum() == 0


def test_topk_of_a_lane_with_nan_keeps_the_core_order():
    # a lane holding a NaN: the core's order (NaN after every number, ties
    # by position; torch7.md, "NaN in a selection"), sorted or not, where
    # TH's own order is undefined
    torch.manualSeed(3)
    x = torch.rand(5000)
    x[17] = math.nan
    x[4000] = math.nan
    smallest = [0.000269654905423522, 0.0003954642452299595, 0.00047881552018225193]
    for sort in (False, True):
        v, i = torch.topk(x, 3, 1, False, sort)
        assert v.tolist() == smallest and i.tolist() == [4947, 1890, 474]
        v, i = torch.topk(x, 3, 1, True, sort)
        assert math.isnan(v[1]) and math.isnan(v[2]) and v[3] == 0.9999754638411105
        assert i.tolist() == [17, 4000, 236]

"""maths.md functions on the Torch7 face, with values printed by real Lua
Torch7 (814ea4a) for the same calls: selection (topk, kthvalue, median,
mode and their ties), norms, histograms, products, cumulative sums,
remainders, bit operations, rounding, lerp, addcdiv/addcmul on integers,
the [res] forms.  Where we differ from Lua on purpose, the test pins our
answer and docs/torch7.md says why.  The Torch7 face's properties against
numpy are in test_t7_maths_property.py, the kernels' own in
tests/core/test_{histogram,select,norm,conv,matrix,random}.py."""

import math

import numpy as np
import pytest

import strided as torch

X = [3, 1, 4, 1, 5, 9, 2, 6]


def test_selection():
    x = torch.Tensor(X)
    v, i = torch.topk(x, 3, 1, True, True)
    assert v.tolist() == [9, 6, 5] and i.tolist() == [6, 8, 5] and i.type() == "torch.LongTensor"
    v, i = torch.kthvalue(x, 3)
    assert v.tolist() == [2] and i.tolist() == [7]
    v, i = torch.mode(torch.Tensor([[1, 2, 2, 3], [4, 4, 5, 5]]), 2)
    assert v.tolist() == [[2], [4]] and i.tolist() == [[3], [2]]
    v, i = torch.median(x)
    assert v.tolist() == [3] and i.tolist() == [1]
    vals, idx = torch.Tensor(), torch.LongTensor()
    assert torch.topk(vals, idx, x, 2) == (vals, idx) and sorted(vals.tolist()) == [1, 1]


def test_norms_histograms_products():
    x = torch.Tensor(X)
    assert torch.norm(x) == pytest.approx(13.152946437966) and torch.norm(x, 1) == 31
    assert torch.dist(x, torch.zeros(8), 3) == pytest.approx(10.540283650177)
    assert torch.histc(torch.Tensor([1, 2, 2, 3, 10]), 4, 0, 8).tolist() == [1, 3, 0, 0]
    assert torch.xcorr2(
        torch.Tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), torch.Tensor([[1, 0], [0, -1]])
    ).tolist() == [[-4, -4], [-4, -4]]
    assert torch.conv2(torch.Tensor([[1, 2], [3, 4]]), torch.ones(2, 2), "F").tolist() == [
        [1, 3, 2],
        [4, 10, 6],
        [3, 7, 4],
    ]
    assert torch.addcdiv(torch.ones(2), 2, torch.Tensor([1, 2]), torch.Tensor([4, 8])).tolist() == [
        1.5,
        1.5,
    ]
    r = torch.renorm(torch.Tensor([[1, 2], [3, 4]]), 2, 1, 1)
    np.testing.assert_allclose(r.tolist(), [[0.4472, 0.8944], [0.6, 0.8]], atol=1e-4)
    assert torch.linspace(0, 1, 5).tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert torch.logspace(0, 2, 3).tolist() == [1, 10, 100]
    assert torch.trace(torch.IntTensor([[1, 2], [3, 4]])) == 5
    assert torch.eye(2, 3).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert torch.cross(torch.Tensor([1, 0, 0]), torch.Tensor([0, 1, 0])).tolist() == [0, 0, 1]
    assert torch.tril(torch.ones(3, 3), -1).tolist() == [[0, 0, 0], [1, 0, 0], [1, 1, 0]]
    assert torch.equal(x, torch.Tensor(X)) and not torch.equal(x, torch.Tensor(X[:4]))


def test_bit_functions_and_mod():
    # values printed by Lua Torch7
    assert torch.IntTensor([6, -7]).bitand(3).tolist() == [2, 1]
    assert torch.IntTensor([1, 2]).lshift(2).tolist() == [4, 8]
    assert torch.Tensor([1.5]).lshift(2).tolist() == [6] and torch.Tensor([8]).rshift(
        1
    ).tolist() == [4]
    assert torch.IntTensor([-8]).rshift(1).tolist() == [2147483644]  # logical, as unsigned
    assert torch.Tensor([7, -7]).mod(3).tolist() == [1, -1]
    assert torch.IntTensor([7, -7]).cmod(torch.IntTensor([3, 3])).tolist() == [1, -1]
    assert torch.cbitxor(torch.IntTensor([5]), torch.IntTensor([3])).tolist() == [6]
    # Lua: every type has them; floats raise
    with pytest.raises(TypeError, match="bitand is only supported for integer type tensors"):
        torch.bitand(torch.Tensor([1]), 1)
    with pytest.raises(ZeroDivisionError):
        torch.IntTensor([1]).mod(0)


def test_round_sign_clamp_cmax_as_lua():
    nan = float("nan")
    # values printed by Lua Torch7 for the same calls
    got = torch.round(torch.Tensor([0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994])).tolist()
    assert got == [1, 2, 3, -1, -2, 0]
    assert torch.round(2.5) == 3 and torch.round(-0.5) == -1
    assert torch.sign(torch.Tensor([-2, 0, 3, nan])).tolist() == [-1, 0, 1, 0]
    assert torch.clamp(torch.Tensor([1, 2, 3, 4]), 3, 2).tolist() == [3, 3, 2, 2]
    c = torch.clamp(torch.Tensor([1, nan, 5]), 2, 4).tolist()
    assert c[0] == 2 and c[1] != c[1] and c[2] == 4
    m = torch.cmax(torch.Tensor([1, nan, 3]), torch.Tensor([nan, 2, 1])).tolist()
    assert m[0] != m[0] and m[1:] == [2, 3]
    m = torch.cmin(torch.Tensor([1, nan, 3]), torch.Tensor([nan, 2, 1])).tolist()
    assert m[0] != m[0] and m[1:] == [2, 1]
    assert torch.cmax(torch.Tensor([1, nan, 3]), 2).tolist() == [2, 2, 3]
    x = torch.Tensor([[0.5, -2.5], [1.5, 7]]).t()  # in place on a view
    assert x.round() is x and x.tolist() == [[1, 2], [-3, 7]]
    assert torch.IntTensor([-3, 0, 2]).sign().tolist() == [-1, 0, 1]


def test_lerp_of_numbers_is_a_number():
    # Lua: torch.lerp(1.5, 2.5, 0.25), torch.lerp(-3, 7, 1.5), torch.lerp(1e5, -2e5, 0.3)
    # print 1.75  12  10000; x:lerp(1, 2, 0.5) and torch.lerp(1, 2) are argument errors
    assert torch.lerp(1.5, 2.5, 0.25) == 1.75
    assert torch.lerp(-3, 7, 1.5) == 12
    assert torch.lerp(1e5, -2e5, 0.3) == pytest.approx(10000, abs=1e-9)
    assert isinstance(torch.lerp(1, 2, 0.5), float)
    with pytest.raises(TypeError, match="lerp"):
        torch.Tensor(2).lerp(1, 2, 0.5)
    with pytest.raises(TypeError, match="lerp"):
        torch.lerp(1, 2)


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


INTEGER = ["ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor"]


ADDC_X = [10, 20, 30, 40, 50, 7, 100, 3]


ADDC_A = [7, 9, 11, 13, 100, 5, 120, 3]


ADDC_B = [3, 4, 6, 7, 9, 2, 7, 5]


# Lua: torch.addcdiv(x, value, a, b) and torch.addcmul(x, 3, a, b); TH's
# `*r += value * *a / *b` truncates value * a / b as a whole (Byte's
# value * a is an int, 3 * 120 = 360 does not wrap before the division)
ADDCDIV = {
    3: [17, 26, 35, 45, 83, 14, 151, 4],
    1: [12, 22, 31, 41, 61, 9, 117, 3],
    7: [26, 35, 42, 53, 127, 24, 220, 7],
}


ADDCDIV_CHAR = {
    3: [17, 26, 35, 45, 83, 14, -105, 4],
    1: [12, 22, 31, 41, 61, 9, 117, 3],
    7: [26, 35, 42, 53, 127, 24, -36, 7],
}


ADDCMUL = {
    "ByteTensor": [73, 128, 228, 57, 190, 37, 60, 48],
    "CharTensor": [73, -128, -28, 57, -66, 37, 60, 48],
}


ADDCMUL_WIDE = [73, 128, 228, 313, 2750, 37, 2620, 48]


@pytest.mark.parametrize("T", INTEGER)
@pytest.mark.parametrize("value", [3, 1, 7])
def test_addcdiv_integers_as_lua(T, value):
    cls = getattr(torch, T)
    x, a, b = cls(ADDC_X), cls(ADDC_A), cls(ADDC_B)
    want = (ADDCDIV_CHAR if T == "CharTensor" else ADDCDIV)[value]
    got = torch.addcdiv(x, value, a, b) if value != 1 else torch.addcdiv(x, a, b)
    assert got.totable() == want
    # the method, in place, and into a result of another layout
    y = x.clone()
    assert y.addcdiv(value, a, b) is y and y.totable() == want
    res = cls(4, 2).t()
    res.addcdiv(x.view(2, 4), value, a.view(2, 4), b.view(2, 4))
    assert res.totable() == cls(want).view(2, 4).totable()
    assert x.totable() == ADDC_X  # the source untouched


@pytest.mark.parametrize("T", INTEGER)
def test_addcmul_integers_as_lua(T):
    cls = getattr(torch, T)
    assert torch.addcmul(cls(ADDC_X), 3, cls(ADDC_A), cls(ADDC_B)).totable() == ADDCMUL.get(
        T, ADDCMUL_WIDE
    )


def test_addcdiv_addcmul_floats_round_as_lua():
    # Lua (FloatTensor, %.17g): (value * a) / b and (value * a) * b in float
    x = torch.FloatTensor([0.1, 0.3, 1.7, 2.9])
    a = torch.FloatTensor([0.7, 1.3, 3.3, 0.11])
    b = torch.FloatTensor([3.1, 0.7, 1.9, 0.13])
    assert torch.addcdiv(x, 0.3, a, b).totable() == [
        0.16774193942546844,
        0.85714292526245117,
        2.2210526466369629,
        3.153846263885498,
    ]
    assert torch.addcmul(x, 0.3, a, b).totable() == [
        0.7510000467300415,
        0.57300001382827759,
        3.5810000896453857,
        2.9042901992797852,
    ]
    d = torch.DoubleTensor
    assert torch.addcdiv(d(ADDC_X), 3, d(ADDC_A), d(ADDC_B)).totable() == [
        17,
        26.75,
        35.5,
        45.571428571428569,
        83.333333333333343,
        14.5,
        151.42857142857144,
        4.8,
    ]


@pytest.mark.parametrize("name", ["bitand", "bitor", "bitxor"])
@pytest.mark.parametrize("T", ["FloatTensor", "DoubleTensor"])
def test_bit_operations_of_floats_raise_as_lua(name, T):
    # Lua: the methods and functions exist and raise
    # "bitand is only supported for integer type tensors"
    x = getattr(torch, T)([1, 2])
    for fn, args in [
        (getattr(x, name), (3,)),
        (getattr(x, "c" + name), (x,)),
        (getattr(torch, name), (x, 3)),
        (getattr(torch, "c" + name), (x, x)),
    ]:
        with pytest.raises(
            TypeError, match=r"c?%s is only supported for integer type tensors" % name
        ):
            fn(*args)
    with pytest.raises(TypeError, match="only supported for integer"):
        torch.fuse(lambda t: torch.bitand(t, 3))(x)
    assert x.totable() == [1, 2]


def test_bit_operations_of_integers():
    # Lua: torch.IntTensor{5, 6}:bitand(3) is {1, 2}
    x = torch.IntTensor([5, 6])
    assert x.bitand(3).totable() == [1, 2]
    assert torch.cbitor(torch.ByteTensor([1, 4]), torch.ByteTensor([2, 4])).totable() == [3, 4]
    y = torch.LongTensor([5, 6])
    y.cbitxor(torch.LongTensor([1, 1]))  # the small in-place path
    assert y.totable() == [4, 7]


def test_norm_at_infinity_is_the_maximum():
    # Lua gives 1 for every p = inf norm ((sum |x|^inf)^(1/inf)); we give
    # the infinity norm (torch7.md, deliberate differences)
    x = torch.Tensor([1, -5, 3])
    assert torch.norm(x, math.inf) == 5 and torch.norm(x, -math.inf) == 1
    assert torch.dist(x, torch.zeros(3), math.inf) == 5
    assert torch.norm(torch.Tensor([[1, -5, 3], [0.5, 0.2, 0.1]]), math.inf, 2).totable() == [
        [5],
        [0.5],
    ]
    assert torch.norm(torch.Tensor([1, 0, 3]), 0) == 2  # Lua: 2


def test_round_keeps_the_sign_of_zero():
    # Lua (C's round): torch.round{-0.4, -0.5, 0.4, -2.5, 2.5} is
    # {-0, -1, 0, -3, 3}: -0.4 rounds to -0
    got = torch.round(torch.Tensor([-0.4, -0.5, 0.4, -2.5, 2.5, -0.0])).totable()
    assert got == [0, -1, 0, -3, 3, 0]
    assert [math.copysign(1, v) for v in got] == [-1, -1, 1, -1, 1, -1]
    f = torch.round(torch.FloatTensor([-0.25, float("nan"), -float("inf")])).totable()
    assert math.copysign(1, f[0]) == -1 and math.isnan(f[1]) and f[2] == -math.inf


def test_sampled_maths_agree_with_lua():
    # a few of the ~270 calls sampled on both sides (/tmp harness, not
    # committed): Lua's values, %.6g
    A = torch.Tensor([[0.3, -1.2, 2.5, 0.7], [-0.4, 1.9, -2.2, 0.05], [1.1, 0.6, -0.9, -3.3]])
    nan = float("nan")
    assert torch.cmax(torch.Tensor([1, nan, 3]), 2).totable() == [2, 2, 3]
    assert math.isnan(torch.max(torch.Tensor([1, nan, 3])))
    assert torch.remainder(torch.Tensor([-4, 4]), -2).totable() == [0, 0]
    assert torch.div(torch.IntTensor([7, -7, 7, -7]), 2).totable() == [3, -3, 3, -3]
    assert torch.renorm(A, 1, 2, 0.5).view(12).totable() == pytest.approx(
        [
            0.0833333,
            -0.162162,
            0.223214,
            0.0864198,
            -0.111111,
            0.256757,
            -0.196429,
            0.00617284,
            0.305556,
            0.0810811,
            -0.0803571,
            -0.407407,
        ],
        rel=1e-5,
    )

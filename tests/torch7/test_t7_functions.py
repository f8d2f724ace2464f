"""The torch.* functions and math methods of the Torch7 face against numpy."""

import math
import pickle

import numpy as np
import pytest
from helpers import to_numpy
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp
from t7util import NUMPY_OF, TYPES

import strided as torch


def npy(t):
    return to_numpy(t._c)


def test_zeros_ones_forms():
    assert torch.zeros(2, 3).tolist() == [[0, 0, 0]] * 2
    assert torch.ones(torch.LongStorage([2])).tolist() == [1, 1]
    r = torch.IntTensor()
    assert torch.zeros(r, 2, 2) is r and r.tolist() == [[0, 0], [0, 0]]
    assert torch.ones(r, 3).tolist() == [1, 1, 1]


def test_rand_randn():
    x = torch.rand(100)
    v = npy(x)
    assert x.type() == "torch.DoubleTensor" and ((v >= 0) & (v < 1)).all()
    y = torch.randn(2000)
    assert abs(npy(y).mean()) < 0.2 and 0.8 < npy(y).std() < 1.2
    r = torch.FloatTensor()
    assert torch.rand(r, 2, 3) is r and r.size().tolist() == [2, 3]


@pytest.mark.parametrize(
    "a, b, step, n", [(1, 5, 1, 5), (0, 1, 0.1, 11), (5, 1, -1, 5), (1, 2, 0.3, 4), (0, 0, 1, 1)]
)
def test_range(a, b, step, n):
    x = torch.range(a, b, step)
    assert x.nElement() == n
    np.testing.assert_allclose(npy(x), a + step * np.arange(n))


def test_range_long_exact():
    x = torch.range(torch.LongTensor(), 2**53, 2**53 + 4)
    assert x.tolist() == [2**53 + k for k in range(5)]


@pytest.mark.parametrize(
    "op, npop",
    [
        ("le", np.less_equal),
        ("lt", np.less),
        ("eq", np.equal),
        ("ge", np.greater_equal),
        ("gt", np.greater),
        ("ne", np.not_equal),
    ],
)
def test_comparisons_give_byte_masks(op, npop):
    a = np.array([[1, 5, 3], [4, 2, 6]], float)
    x = torch.Tensor(a.tolist())
    m = getattr(torch, op)(x, 3)
    assert m.type() == "torch.ByteTensor"
    np.testing.assert_array_equal(npy(m), npop(a, 3).astype(np.uint8))
    m2 = getattr(x, op)(x.t().contiguous().view(2, 3))
    np.testing.assert_array_equal(npy(m2), npop(a, a.T.reshape(2, 3)).astype(np.uint8))
    r = torch.ByteTensor()
    getattr(torch, op)(r, x, 3)
    np.testing.assert_array_equal(npy(r), npop(a, 3).astype(np.uint8))


@given(st.sampled_from(TYPES), st.data())
def test_reductions(name, data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = data.draw(hnp.arrays(np.dtype(NUMPY_OF[name]), shape, elements=st.integers(0, 20)))
    x = getattr(torch, name)(a.tolist())
    s = x.sum()
    assert s == a.sum(dtype=np.float64 if "Float" in name or "Double" in name else np.int64)
    assert isinstance(s, float if "Float" in name or "Double" in name else int)
    assert x.max() == a.max() and x.min() == a.min()
    assert x.mean() == pytest.approx(a.astype(float).mean())
    d = data.draw(st.integers(1, a.ndim))
    sd = x.sum(d)
    assert sd.size().tolist() == [1 if i == d - 1 else n for i, n in enumerate(a.shape)]
    np.testing.assert_array_equal(
        npy(sd).astype(np.int64), a.sum(axis=d - 1, keepdims=True).astype(np.int64)
    )
    v, i = x.max(d)
    np.testing.assert_array_equal(npy(v), a.max(axis=d - 1, keepdims=True))
    np.testing.assert_array_equal(
        npy(i), a.argmax(axis=d - 1)[..., None].reshape(v.size().tolist()) + 1
    )
    assert i.type() == "torch.LongTensor" and v.type() == x.type()
    v, i = torch.min(x, d)
    np.testing.assert_array_equal(npy(v), a.min(axis=d - 1, keepdims=True))
    np.testing.assert_array_equal(
        npy(i), a.argmin(axis=d - 1)[..., None].reshape(v.size().tolist()) + 1
    )


def test_max_into_results():
    x = torch.Tensor([[1, 5], [7, 2]])
    v, i = torch.Tensor(), torch.LongTensor()
    torch.max(v, i, x, 2)
    assert v.tolist() == [[5], [7]] and i.tolist() == [[2], [1]]
    r = torch.Tensor()
    torch.sum(r, x, 1)
    assert r.tolist() == [[8, 7]]


def test_inplace_methods_and_result_forms():
    x = torch.Tensor([1, 2, 3])
    assert x.add(1) is x and x.tolist() == [2, 3, 4]
    assert x.mul(2) is x and x.tolist() == [4, 6, 8]
    assert x.div(4) is x and x.tolist() == [1, 1.5, 2]
    assert x.add(2, torch.Tensor([1, 1, 1])).tolist() == [3, 3.5, 4]
    assert x.floor().tolist() == [3, 3, 4]
    y = torch.Tensor()
    assert y.add(x, 1) is y and y.tolist() == [4, 4, 5] and x.tolist() == [3, 3, 4]
    assert torch.add(x, x).tolist() == [6, 6, 8]
    assert torch.add(x, 2, x).tolist() == [9, 9, 12]
    r = torch.Tensor()
    assert torch.add(r, x, x) is r and r.tolist() == [6, 6, 8]
    assert torch.cmul(x, x).tolist() == [9, 9, 16]
    assert torch.mul(x, 0.5).tolist() == [1.5, 1.5, 2]
    assert torch.floor(torch.Tensor([1.5, -1.5])).tolist() == [1, -2]


def test_operators():
    a = torch.Tensor([[1, 2], [3, 4]])
    assert (a + 1).tolist() == [[2, 3], [4, 5]]
    assert (1 + a).tolist() == [[2, 3], [4, 5]]
    assert (a - a).tolist() == [[0, 0], [0, 0]]
    assert (10 - a).tolist() == [[9, 8], [7, 6]]
    assert (a * 2).tolist() == [[2, 4], [6, 8]] and (2 * a).tolist() == [[2, 4], [6, 8]]
    assert (a / 2).tolist() == [[0.5, 1], [1.5, 2]]
    assert (-a).tolist() == [[-1, -2], [-3, -4]]
    assert (torch.IntTensor([7, -7]) / 2).tolist() == [3, -3]  # C truncation
    assert (a * a).tolist() == [[7, 10], [15, 22]]  # matrix product (Torch7)
    with pytest.raises(ZeroDivisionError):
        torch.IntTensor([1]) / 0


def test_cat():
    assert torch.cat(torch.Tensor([1, 2]), torch.Tensor([3]), 1).tolist() == [1, 2, 3]
    assert torch.cat([torch.ones(2, 2), torch.zeros(2, 1)], 2).tolist() == [[1, 1, 0], [1, 1, 0]]
    r = torch.Tensor()
    assert torch.cat(r, [torch.ones(1, 2), torch.zeros(1, 2)], 1) is r
    assert r.tolist() == [[1, 1], [0, 0]]


def test_data_cdata():
    t = torch.IntTensor([5, 6, 7])
    p = torch.data(t)
    assert p[2] == 7
    assert torch.data(t.narrow(1, 2, 2))[0] == 6
    assert torch.data(t, True) == torch.data(t, asnumber=True)
    assert torch.cdata(t).ndim == 1


@pytest.mark.parametrize("name", TYPES)
def test_pickle(name):
    t = getattr(torch, name)([[1, 2, 3], [4, 5, 6]]).t()
    u = pickle.loads(pickle.dumps(t))
    assert u.type() == t.type() and u.tolist() == t.tolist()
    e = pickle.loads(pickle.dumps(getattr(torch, name)()))
    assert e.nDimension() == 0
    s = pickle.loads(pickle.dumps(getattr(torch, name.replace("Tensor", "Storage"))([1, 2])))
    assert s.tolist() == [1, 2]


def test_storage_basics():
    s = torch.LongStorage([4, 5])
    assert len(s) == 2 and s.size() == 2 and s[2] == 5
    assert str(s) == " 4\n 5\n[torch.LongStorage of size 2]"
    s.resize(3)
    s[3] = 6
    assert s.tolist() == [4, 5, 6] and s.totable() == [4, 5, 6]
    d = torch.DoubleStorage(3).fill(0.5)
    assert d.tolist() == [0.5] * 3 and isinstance(d[1], float)
    v = torch.DoubleStorage(d, 2)
    v[1] = 9
    assert d.tolist() == [0.5, 9, 0.5] and v.size() == 2
    c = torch.DoubleStorage(3).copy(d)
    assert c.tolist() == d.tolist()
    assert torch.ByteStorage([1, 255])[2] == 255
    assert torch.IntStorage([1.7, -1.7]).tolist() == [1, -1]
    assert str(torch.FloatStorage()) == "[torch.FloatStorage of size 0]"


def test_type_truncates_toward_zero():
    x = torch.Tensor([3.14, -3.14, 2.9])
    assert x.int().tolist() == [3, -3, 2]
    assert torch.IntTensor([[1.5, -2.5]]).tolist() == [[1, -2]]


def test_printing_forms():
    assert (
        str(torch.Tensor([1e-4, 2e-4]))
        == "0.0001 *\n 1.0000\n 2.0000\n[torch.DoubleTensor of dimension 2]"
    )
    assert str(torch.Tensor([1e6 + 0.5])) == "1e+06 *\n 1.0000\n[torch.DoubleTensor of dimension 1]"
    assert (
        str(torch.Tensor([1e-3, 100.5]))
        == " 1.0000e-03\n 1.0050e+02\n[torch.DoubleTensor of dimension 2]"
    )
    assert str(torch.LongTensor([10**10])) == " 1.0000e+10\n[torch.LongTensor of dimension 1]"
    wide = str(torch.Tensor(2, 12).fill(0.5))
    assert wide.startswith("Columns 1 to 10\n") and "\nColumns 11 to 12\n" in wide
    assert str(torch.Tensor(0)) == "[torch.DoubleTensor with no dimension]"
    # Lua Torch7 prints zeros two wide (its digit count of 0 is 1)
    assert str(torch.Tensor(2, 2, 2).zero()).startswith("(1,.,.) = \n  0  0\n  0  0\n\n(2,.,.) = ")
    s = str(torch.Tensor(2, 3, 1, 1).apply(lambda v: None).zero())
    assert s.index("(2,1,.,.)") < s.index("(1,2,.,.)")  # first index fastest
    assert "nan" in str(torch.Tensor([math.nan, 1]))


def test_apply_none_keeps_and_int_results():
    x = torch.IntTensor([1, 2, 3])
    x.apply(lambda v: None if v == 2 else v * 10)
    assert x.tolist() == [10, 2, 30]
    x.apply(lambda v: v / 4)  # float results cast (truncation) in C
    assert x.tolist() == [2, 0, 7]
    y = torch.Tensor(2, 3).zero().t()
    i = iter(range(1, 7))
    y.apply(lambda v: next(i))  # C order of the (transposed) view
    assert y.tolist() == [[1, 2], [3, 4], [5, 6]]


UNARY_NP = {
    "abs": np.abs,
    "sqrt": np.sqrt,
    "exp": np.exp,
    "log": np.log,
    "log1p": np.log1p,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "sign": np.sign,
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "rsqrt": lambda a: 1 / np.sqrt(a),
    "neg": np.negative,
    "cinv": np.reciprocal,
}


@pytest.mark.parametrize("name", sorted(UNARY_NP))
def test_unary_math(name):
    a = np.array([[0.25, 0.5], [0.75, 0.9]])
    x = torch.Tensor(a.tolist())
    np.testing.assert_allclose(npy(getattr(torch, name)(x)), UNARY_NP[name](a), rtol=1e-12)
    assert x.tolist() == a.tolist()  # torch.f(x) makes a new tensor
    assert getattr(x, name)() is x  # x:f() works in place
    np.testing.assert_allclose(npy(x), UNARY_NP[name](a), rtol=1e-12)


def test_more_math():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = torch.Tensor(a.tolist())
    assert torch.pow(x, 2).tolist() == (a**2).tolist()
    assert torch.clamp(x, 2, 3).tolist() == np.clip(a, 2, 3).tolist()
    assert torch.cmax(x, 2.5).tolist() == np.maximum(a, 2.5).tolist()
    assert torch.fmod(-x, 3).tolist() == np.fmod(-a, 3).tolist()
    assert torch.remainder(-x, 3).tolist() == np.remainder(-a, 3).tolist()
    assert x.prod() == 24 and x.prod(1).tolist() == [[3, 8]]
    assert x.cumsum().tolist() == np.cumsum(a, 0).tolist()
    assert torch.cumprod(x, 2).tolist() == np.cumprod(a, 1).tolist()
    assert x.var() == pytest.approx(a.var(ddof=1)) and x.std() == pytest.approx(a.std(ddof=1))
    np.testing.assert_allclose(npy(x.var(1)), a.var(0, ddof=1, keepdims=True))
    np.testing.assert_allclose(npy(x.std(2, True)), a.std(1, keepdims=True))
    assert x.dot(x) == 30 and torch.dot(x, x) == 30
    assert torch.ByteTensor([1, 1]).all() is True and torch.ByteTensor([0, 0]).any() is False
    with pytest.raises(TypeError, match="sqrt is not defined for int32"):
        torch.IntTensor([4]).sqrt()
    with pytest.raises(ZeroDivisionError):
        torch.IntTensor([7]).fmod(0)


def test_rng_state_and_seeds():
    torch.manualSeed(7)
    assert torch.initialSeed() == 7
    state = torch.getRNGState()
    a = torch.randn(6).tolist()
    torch.setRNGState(state)
    assert torch.randn(6).tolist() == a
    s = torch.seed()
    assert torch.initialSeed() == s
    u = npy(torch.FloatTensor(50).uniform(2, 3))
    assert ((u >= 2) & (u < 3)).all()


def test_manual_seed_reproducible():
    torch.manualSeed(123)
    a = torch.rand(5).tolist()
    torch.manualSeed(123)
    assert torch.rand(5).tolist() == a


def test_cat_as_lua():
    # values from Lua Torch7 (TH's catArray)
    r = torch.Tensor()
    assert torch.cat(r, torch.Tensor([1, 2]), torch.Tensor([3]), 1) is r and r.tolist() == [1, 2, 3]
    assert torch.cat(torch.Tensor(), torch.Tensor([1, 2])).tolist() == [1, 2]
    assert torch.cat(torch.Tensor([[1, 2]]), torch.Tensor([[3, 4]]), -1).tolist() == [[1, 2, 3, 4]]
    z = torch.cat(torch.Tensor([[1, 2]]), torch.Tensor([[3, 4]]), 3)  # one past the last
    assert z.size().tolist() == [1, 2, 2] and z.tolist() == [[[1, 3], [2, 4]]]
    with pytest.raises(ValueError, match="inconsistent tensor sizes"):
        torch.cat(torch.Tensor([[1, 2]]), torch.Tensor([[3, 4, 5]]), 1)
    with pytest.raises(IndexError, match="invalid dimension -2"):
        torch.cat(torch.Tensor([1]), torch.Tensor([2]), -2)


def test_operators_as_lua():
    x = torch.IntTensor([7, -7])
    assert (x % 3).tolist() == [1, 2] and (torch.Tensor([7.5, -7.5]) % 2).tolist() == [1.5, 0.5]
    assert (x / 2).tolist() == [3, -3] and (2 - torch.Tensor([1, 2])).tolist() == [1, 0]
    assert (-x).tolist() == [-7, 7] and (2 * x).tolist() == [14, -14]
    for bad in (
        lambda: torch.Tensor([1]) / torch.Tensor([1]),
        lambda: 2 / torch.Tensor([1]),
        lambda: torch.Tensor([1]) % torch.Tensor([1]),
    ):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(ZeroDivisionError):
        x % 0


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

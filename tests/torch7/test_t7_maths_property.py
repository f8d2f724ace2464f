"""Hypothesis properties of the Torch7 face's maths (statistics,
selection, norms, matrices, convolutions, cumulative ops, bit operations,
remainders) against numpy, at the face's level (`import strided as
torch`, 1-based arguments): every Lua type each function supports,
contiguous and non-contiguous operands (transposed, narrowed, stepped
views), the empty tensors Lua allows, and the `[res]` forms writing into
a given non-contiguous result, which must then hold the answer through
its own strides (the memory around it untouched).

numpy is the oracle; where Lua's rule is not numpy's, the oracle encodes
Lua's (TH's C) and says so: the ties of topk/kthvalue/median/mode are
TH's quickselect and quicksort (ported below), remainder is TH's
`a - b * floor(a / b)`, shifts are on the unsigned type, cumulative ops
accumulate in TH's accreal.  Values are small integers (or exact binary
fractions) wherever a float result would otherwise depend on the order of
a sum, so results compare exactly."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided as torch
from helpers import to_numpy
from t7util import NUMPY_OF, TYPES

INTS = TYPES[:5]  # Byte, Char, Short, Int, Long
FLOATS = TYPES[5:]  # Float, Double
LAYOUTS = ("contiguous", "transposed", "narrowed", "stepped")
SENTINEL = 7  # the memory around a given result holds this


def npy(t):
    return to_numpy(t._c)


def dtype_of(name):
    return np.dtype(NUMPY_OF[name])


# ---------------------------------------------------------------- building tensors


def _stepped(cls, shape):
    """A view of every other element (in every dim) of a bigger tensor,
    built from its storage as Lua's Tensor(storage, offset, sizes, strides)."""
    big = cls(*[2 * n for n in shape])
    strides = [2 * s for s in big.stride().tolist()] if big.dim() else []
    return big, cls(big.storage(), 1, torch.LongStorage(list(shape)), torch.LongStorage(strides))


def make(a, name, layout="contiguous"):
    """A tensor of type `name` holding numpy array `a` (1 dim or more),
    laid out as `layout` over memory of its own."""
    cls = getattr(torch, name)
    if layout == "transposed" and a.ndim >= 2:
        rev = list(range(a.ndim, 0, -1))
        t = make(np.ascontiguousarray(a.transpose()), name).permute(*rev)
    elif layout == "narrowed":
        big = cls(*a.shape[:-1], a.shape[-1] + 3)
        t = big.narrow(a.ndim, 2, a.shape[-1])
    elif layout == "stepped" and a.size:
        t = _stepped(cls, a.shape)[1]
    else:
        t = cls(*a.shape)
    if a.size:
        t.copy(torch.from_dlpack(np.ascontiguousarray(a)))
    np.testing.assert_array_equal(npy(t), a)
    return t


def given_result(name, shape, layout):
    """(res, check): a non-contiguous result of `shape` viewing a bigger
    tensor filled with SENTINEL, and check(want) asserting res holds want
    and the memory around it still holds the sentinel (res was written
    through its strides, not replaced)."""
    cls = getattr(torch, name)
    if layout == "transposed" and len(shape) >= 2:
        base = cls(*shape[::-1])
        res = base.permute(*range(len(shape), 0, -1))
        view = lambda b: b.transpose()
    elif layout == "stepped":
        base, res = _stepped(cls, shape)
        view = lambda b: b[tuple(slice(None, None, 2) for _ in shape)]
    else:
        base = cls(*shape[:-1], shape[-1] + 3)
        res = base.narrow(len(shape), 2, shape[-1])
        view = lambda b: b[..., 1 : 1 + shape[-1]]
    base.fill(SENTINEL)

    def check(want):
        want = np.asarray(want)
        assert_same(npy(res), want)
        model = np.full(npy(base).shape, SENTINEL, dtype=npy(base).dtype)
        view(model)[...] = want
        assert_same(npy(base), model)

    return res, check


def assert_same(got, want, rtol=0.0):
    """Equal values (NaN equal to NaN) and shape; within rtol when given."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if rtol:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- strategies


def small_values(name, lo=-20, hi=20):
    """Elements of type `name`: integers in [lo, hi] (clipped to the type),
    as floats for the float types."""
    dt = dtype_of(name)
    if dt.kind == "f":
        return st.integers(lo, hi).map(float)
    info = np.iinfo(dt)
    return st.integers(max(lo, info.min), min(hi, info.max))


def full_range(name):
    dt = dtype_of(name)
    info = np.iinfo(dt)
    return st.integers(int(info.min), int(info.max))


@st.composite
def arrays(draw, name, min_dims=1, max_dims=3, min_side=1, max_side=5, elements=None, shape=None):
    if shape is None:
        shape = draw(
            hnp.array_shapes(
                min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
            )
        )
    return draw(
        hnp.arrays(
            dtype_of(name), shape, elements=elements if elements is not None else small_values(name)
        )
    )


layouts = st.sampled_from(LAYOUTS)


@st.composite
def tensors(draw, types, **kw):
    """(type name, numpy array, tensor holding it in a drawn layout)."""
    name = draw(st.sampled_from(types))
    a = draw(arrays(name, **kw))
    return name, a, make(a, name, draw(layouts))


# ---------------------------------------------------------------- TH's selection, the oracle of ties
# Lua's topk/kthvalue/median/mode pick among equal values whatever TH's
# quickselect and quicksort (Sedgewick's, median-of-3, not stable) leave
# where: these are those algorithms, line for line (lib/TH/generic/THTensorMath.c).

M_SMALL = 10


def th_quickselect(arr, idx, k):
    """THTensor_(quickselect): arr[k] is then the k-th smallest (from 0)."""

    def swap(a, b):
        arr[a], arr[b] = arr[b], arr[a]
        idx[a], idx[b] = idx[b], idx[a]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if arr[lo] > arr[hi]:
                swap(lo, hi)
            return
        swap((lo + hi) >> 1, lo + 1)
        if arr[lo + 1] > arr[hi]:
            swap(lo + 1, hi)
        if arr[lo] > arr[hi]:
            swap(lo, hi)
        if arr[lo + 1] > arr[lo]:
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while arr[i] < piv:
                i += 1
            j -= 1
            while arr[j] > piv:
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def th_quicksort(arr, idx, descending=False):
    """THTensor_(quicksortascend) / (quicksortdescend)."""
    before = (lambda a, b: a > b) if descending else (lambda a, b: a < b)
    n = len(arr)

    def swap(a, b):
        arr[a], arr[b] = arr[b], arr[a]
        idx[a], idx[b] = idx[b], idx[a]

    stack = []
    lo, hi = 0, n - 1
    done = n - 1 <= M_SMALL
    while not done:
        swap((lo + hi) >> 1, lo + 1)
        if before(arr[hi], arr[lo + 1]):
            swap(lo + 1, hi)
        if before(arr[hi], arr[lo]):
            swap(lo, hi)
        if before(arr[lo], arr[lo + 1]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while before(arr[i], piv):
                i += 1
            j -= 1
            while before(piv, arr[j]):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        left, right = j - lo, hi - i + 1
        if left <= M_SMALL and right <= M_SMALL:
            if stack:
                lo, hi = stack.pop()
            else:
                done = True
        elif left <= M_SMALL or right <= M_SMALL:
            if left > right:
                hi = j - 1
            else:
                lo = i
        elif left > right:
            stack.append((lo, j - 1))
            lo = i
        else:
            stack.append((i, hi))
            hi = j - 1
    for i in range(n - 2, -1, -1):  # the final insertion sort
        if before(arr[i + 1], arr[i]):
            piv, pid, j = arr[i], idx[i], i + 1
            while True:
                arr[j - 1], idx[j - 1] = arr[j], idx[j]
                j += 1
                if not (j < n and before(arr[j], piv)):
                    break
            arr[j - 1], idx[j - 1] = piv, pid


def lane_map(a, dim, fn, k_out):
    """Apply fn(lane values list) -> (values, 0-based indices) of length
    k_out to every lane of a along dim (0-based); arrays of a's shape with
    k_out at dim."""
    moved = np.moveaxis(a, dim, -1)
    vals = np.empty(moved.shape[:-1] + (k_out,), a.dtype)
    idxs = np.empty(moved.shape[:-1] + (k_out,), np.int64)
    for pos in np.ndindex(moved.shape[:-1]):
        v, i = fn(moved[pos].tolist())
        vals[pos], idxs[pos] = v, i
    return np.moveaxis(vals, -1, dim), np.moveaxis(idxs, -1, dim)


def lua_kthvalue(lane, k):
    arr, idx = list(lane), list(range(len(lane)))
    th_quickselect(arr, idx, k - 1)
    return [arr[k - 1]], [idx[k - 1]]


def lua_topk(lane, k, largest, sort):
    arr, idx, n = list(lane), list(range(len(lane))), len(lane)
    if largest:
        kk = n - k
        if kk > 0:
            th_quickselect(arr, idx, kk - 1)
        arr, idx = arr[kk:], idx[kk:]
        if sort:
            th_quicksort(arr, idx, descending=True)
        return arr, idx
    th_quickselect(arr, idx, k - 1)
    if sort:  # TH sorts the first k - 1 only
        head, hidx = arr[: k - 1], idx[: k - 1]
        th_quicksort(head, hidx)
        arr[: k - 1], idx[: k - 1] = head, hidx
    return arr[:k], idx[:k]


def lua_mode(lane):
    arr, idx = list(lane), list(range(len(lane)))
    th_quicksort(arr, idx)
    best, best_i, best_n, run = 0, 0, 0, 0
    for i in range(len(arr)):
        run += 1
        if i == len(arr) - 1 or arr[i] != arr[i + 1]:
            if run > best_n:
                best, best_i, best_n = arr[i], idx[i], run
            run = 0
    return [best], [best_i]


def test_th_algorithms_give_luas_answers():
    # Lua 5.1 Torch7 on {3,1,2,1,3,2,1,2,3,1,2,2,3,1,1,3,2}: torch.sort(x) and
    # torch.sort(x, 1, true) indices; kthvalue/topk on its first 10
    x = [3, 1, 2, 1, 3, 2, 1, 2, 3, 1, 2, 2, 3, 1, 1, 3, 2]
    arr, idx = list(x), list(range(17))
    th_quicksort(arr, idx)
    assert [i + 1 for i in idx] == [2, 7, 10, 14, 4, 15, 6, 17, 8, 3, 11, 12, 16, 1, 13, 5, 9]
    arr, idx = list(x), list(range(17))
    th_quicksort(arr, idx, descending=True)
    assert [i + 1 for i in idx] == [13, 9, 16, 1, 5, 12, 11, 3, 6, 8, 17, 10, 7, 2, 4, 14, 15]
    y = x[:10]
    assert lua_kthvalue(y, 2) == ([1], [3]) and lua_kthvalue(y, 5) == ([2], [5])
    assert lua_topk(y, 3, True, True) == ([3, 3, 3], [0, 8, 4])
    assert lua_topk(y, 3, False, False) == ([1, 1, 1], [1, 3, 6])
    assert lua_mode(y) == ([1], [9])


# ---------------------------------------------------------------- selection


@st.composite
def selection_input(draw, max_side=6):
    """A tensor of any type, with many ties, and a (1-based) dim."""
    name = draw(st.sampled_from(TYPES))
    lo, hi = draw(st.sampled_from([(-2, 2), (-20, 20)]))
    a = draw(arrays(name, max_dims=3, max_side=max_side, elements=small_values(name, lo, hi)))
    x = make(a, name, draw(layouts))
    return name, a, x, draw(st.integers(1, a.ndim))


@given(selection_input(), st.data())
def test_topk(inp, data):
    name, a, x, dim = inp
    n = a.shape[dim - 1]
    k = data.draw(st.integers(1, n))
    largest, sort = data.draw(st.booleans()), data.draw(st.booleans())
    want_v, want_i = lane_map(a, dim - 1, lambda lane: lua_topk(lane, k, largest, sort), k)
    if data.draw(st.booleans()):
        v, i = torch.topk(x, k, dim, largest, sort)
    else:  # [res] forms: given, non-contiguous results
        shape = list(a.shape)
        shape[dim - 1] = k
        layout = data.draw(layouts)
        v, check_v = given_result(name, shape, layout)
        i, check_i = given_result("LongTensor", shape, layout)
        assert torch.topk(v, i, x, k, dim, largest, sort)[0] is v
        check_v(want_v)
        check_i(want_i + 1)
    assert v.type() == "torch." + name and i.type() == "torch.LongTensor"
    assert_same(npy(v), want_v)
    assert_same(npy(i), want_i + 1)


@given(selection_input(), st.data())
def test_kthvalue_median_mode(inp, data):
    name, a, x, dim = inp
    n = a.shape[dim - 1]
    which = data.draw(st.sampled_from(["kthvalue", "median", "mode"]))
    k = data.draw(st.integers(1, n))
    oracle = {
        "kthvalue": lambda lane: lua_kthvalue(lane, k),
        "median": lambda lane: lua_kthvalue(lane, (len(lane) - 1) // 2 + 1),
        "mode": lua_mode,
    }[which]
    args = (k, dim) if which == "kthvalue" else (dim,)
    want_v, want_i = lane_map(a, dim - 1, oracle, 1)  # Lua keeps dim, of size 1
    f = getattr(torch, which)
    if data.draw(st.booleans()):
        v, i = f(x, *args)
    else:
        shape = list(a.shape)
        shape[dim - 1] = 1
        layout = data.draw(layouts)
        v, check_v = given_result(name, shape, layout)
        i, check_i = given_result("LongTensor", shape, layout)
        f(v, i, x, *args)
        check_v(want_v)
        check_i(want_i + 1)
    assert_same(npy(v), want_v)
    assert_same(npy(i), want_i + 1)


@pytest.mark.parametrize("distinct", [10, 10**6], ids=["many-ties", "few-ties"])
def test_selection_of_a_long_lane(distinct, threads):
    # 40000 > the kernels' sampling threshold (and split over threads): the
    # fast paths must still hand ties to TH's algorithms
    a = np.random.default_rng(distinct).integers(0, distinct, 40000).astype(np.float64)
    x, lane = make(a, "DoubleTensor"), a.tolist()
    for k in (1, 20000, 40000):
        v, i = torch.kthvalue(x, k)
        assert (npy(v).tolist(), (npy(i) - 1).tolist()) == lua_kthvalue(lane, k)
    for largest in (False, True):
        for sort in (False, True):
            v, i = torch.topk(x, 5, 1, largest, sort)
            assert (npy(v).tolist(), (npy(i) - 1).tolist()) == lua_topk(lane, 5, largest, sort)


@given(st.sampled_from(TYPES))
def test_selection_default_dim_is_the_last(name):
    # Lua: torch.median/topk(x, 2)/mode of {{3,1,2,2},{6,5,4,5}} (any type)
    x = make(np.array([[3, 1, 2, 2], [6, 5, 4, 5]], dtype_of(name)), name)
    v, i = torch.median(x)
    assert_same(npy(v), [[2], [5]])
    assert_same(npy(i), [[4], [2]])
    assert_same(npy(torch.topk(x, 2)[1]), [[2, 4], [3, 2]])
    v, i = torch.mode(x)
    assert_same(npy(v), [[2], [5]])
    assert_same(npy(i), [[4], [4]])


# ---------------------------------------------------------------- histograms


@st.composite
def histc_input(draw, two_d=False):
    name = draw(st.sampled_from(FLOATS))
    dt = dtype_of(name)
    if draw(st.booleans()):
        lo, hi = 0, 0  # the data's range
    else:
        lo = draw(st.floats(-10, 10, width=8 * dt.itemsize))
        hi = draw(st.floats(lo, 10, width=8 * dt.itemsize))
    # an infinite data range makes TH's bin (int)NaN, undefined in C: infinities
    # only with a given range (they are then out of it)
    specials = [math.nan] + ([math.inf, -math.inf] if lo != hi else [])
    values = st.one_of(
        st.integers(-8, 8).map(float),
        st.floats(-10, 10, width=8 * dt.itemsize),
        st.sampled_from(specials),
    )
    if two_d:
        a = draw(arrays(name, min_dims=2, max_dims=2, elements=values))
    else:
        a = draw(arrays(name, max_dims=3, elements=values))
    nbins = draw(st.integers(1, 7))
    return name, a, make(a, name, draw(layouts)), nbins, lo, hi


def lua_histc(a, nbins, lo, hi, dt):
    """TH's histc: the range in the tensor's type; lo == hi takes the
    min and max (NaN if any NaN: then nothing is counted), widened by 1
    when equal; bin (int)((x - lo) / (hi - lo) * nbins) computed in the
    type, x == hi in the last bin."""
    a = a.reshape(-1)
    lo, hi = dt.type(lo), dt.type(hi)
    if lo == hi:
        lo = dt.type(np.nan) if np.isnan(a).any() else a.min()
        hi = dt.type(np.nan) if np.isnan(a).any() else a.max()
    if lo == hi:
        lo, hi = dt.type(lo - 1), dt.type(hi + 1)
    counts = np.zeros(nbins, dt)
    with np.errstate(invalid="ignore"):
        inside = a[(a >= lo) & (a <= hi)]
        bins = ((inside - lo) / (hi - lo) * dt.type(nbins)).astype(np.int64)
    np.add.at(counts, np.minimum(bins, nbins - 1), 1)
    return counts


@given(histc_input(), st.data())
def test_histc(inp, data):
    name, a, x, nbins, lo, hi = inp
    dt = dtype_of(name)
    want = lua_histc(a, nbins, lo, hi, dt)
    if data.draw(st.booleans()):
        h = torch.histc(x, nbins, lo, hi)
    else:
        h, check = given_result(name, [nbins], data.draw(layouts))
        assert torch.histc(h, x, nbins, lo, hi) is h
        check(want)
    assert h.type() == "torch." + name
    assert_same(npy(h), want)


@given(histc_input(two_d=True), st.data())
def test_bhistc(inp, data):
    name, a, x, nbins, lo, hi = inp
    dt = dtype_of(name)
    # one range for every row: the min and max of all of x
    if lo == hi:
        lo = np.nan if np.isnan(a).any() else a.min()
        hi = np.nan if np.isnan(a).any() else a.max()
        if lo == hi:
            lo, hi = lo - 1, hi + 1
    want = np.stack([lua_histc(row, nbins, lo, hi, dt) for row in a])
    if data.draw(st.booleans()):
        h = torch.bhistc(x, nbins, *((0, 0) if inp[4] == inp[5] else (inp[4], inp[5])))
    else:
        h, check = given_result(name, [a.shape[0], nbins], data.draw(layouts))
        torch.bhistc(h, x, nbins, *((0, 0) if inp[4] == inp[5] else (inp[4], inp[5])))
        check(want)
    assert_same(npy(h), want)


@given(st.sampled_from(FLOATS))
def test_histc_of_an_empty_tensor_with_a_range(name):
    # Lua: torch.histc(torch.DoubleTensor(), 5, 0, 1) is 5 zeros
    h = torch.histc(getattr(torch, name)(), 5, 0, 1)
    assert_same(npy(h), np.zeros(5, dtype_of(name)))


# ---------------------------------------------------------------- norms

# p = inf and dist's p = 0 are left out: TH's formula gives 1 and inf there,
# the face max |x| and the count (docs/torch7.md, deliberate differences)
NORM_P = [0, 1, 2, 3, 0.5]


def lua_norm(a, p, axis=None):
    """(sum |x|^p)^(1/p) summed in double; p = 0 counts the nonzeros."""
    a = np.abs(a.astype(np.float64))
    if p == 0:
        return (a != 0).sum(axis=axis, keepdims=axis is not None).astype(np.float64)
    return (a**p).sum(axis=axis, keepdims=axis is not None) ** (1.0 / p)


def rtol_of(name):
    return 1e-5 if name == "FloatTensor" else 1e-12


@given(tensors(FLOATS), st.sampled_from(NORM_P), st.data())
def test_norm(x, p, data):
    name, a, t = x
    assert torch.norm(t, p) == pytest.approx(float(lua_norm(a, p)), rel=rtol_of(name))
    dim = data.draw(st.integers(1, a.ndim))
    want = lua_norm(a, p, dim - 1)
    if data.draw(st.booleans()):
        r = torch.norm(t, p, dim)
    else:
        r, check = given_result(name, list(want.shape), data.draw(layouts))
        torch.norm(r, t, p, dim)
        check(npy(r))  # written through its strides
    assert r.type() == "torch." + name
    assert_same(npy(r), want.astype(dtype_of(name)), rtol_of(name))


@given(st.sampled_from(FLOATS), st.sampled_from(NORM_P[1:]), st.data())
def test_dist(name, p, data):
    a = data.draw(arrays(name))
    # tensor2 has a's element count, read in row-major order (any shape)
    b = data.draw(arrays(name, shape=data.draw(st.sampled_from([a.shape, (a.size,)]))))
    x, y = make(a, name, data.draw(layouts)), make(b, name, data.draw(layouts))
    want = float(lua_norm(a.reshape(-1) - b.reshape(-1), p))
    assert torch.dist(x, y, p) == pytest.approx(want, rel=rtol_of(name))


def test_norm_and_dist_of_empty_tensors():
    # Lua: torch.norm(torch.DoubleTensor()) and torch.dist(e, e) are 0
    for name in FLOATS:
        e = getattr(torch, name)()
        assert torch.norm(e) == 0 and torch.norm(e, 1) == 0 and torch.dist(e, e) == 0


@given(
    tensors(FLOATS, min_dims=2, elements=st.integers(-6, 6).map(float)),
    st.sampled_from(NORM_P[1:]),
    st.integers(1, 6),
    st.data(),
)
def test_renorm(x, p, maxnorm, data):
    name, a, t = x
    dim = data.draw(st.integers(1, a.ndim))
    maxnorm += 0.5  # never a norm of these values: no tie at the threshold
    dt = dtype_of(name)
    moved = np.moveaxis(a, dim - 1, 0).reshape(a.shape[dim - 1], -1)
    norms = lua_norm(moved, p, 1)[:, 0]
    # TH: rows above maxnorm times maxnorm / (norm + 1e-7), the factor in the type
    factor = np.where(norms > maxnorm, (maxnorm / (norms + 1e-7)).astype(dt), 1).astype(dt)
    shape = [1] * a.ndim
    shape[dim - 1] = -1
    want = (a * factor.reshape(shape)).astype(dt)
    form = data.draw(st.sampled_from(["function", "method", "res"]))
    if form == "function":
        r = torch.renorm(t, p, dim, maxnorm)
        assert_same(npy(t), a)
    elif form == "method":
        r = t.renorm(p, dim, maxnorm)  # in place
        assert r is t
    else:
        r, check = given_result(name, list(a.shape), data.draw(layouts))
        torch.renorm(r, t, p, dim, maxnorm)
        check(npy(r))
    assert_same(npy(r), want, rtol_of(name))


# ---------------------------------------------------------------- matrices


@given(st.sampled_from(TYPES), st.data())
def test_cross(name, data):
    shape = list(data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)))
    d = data.draw(st.integers(0, len(shape) - 1))
    shape[d] = 3
    a = data.draw(arrays(name, shape=tuple(shape), elements=small_values(name, -10, 10)))
    b = data.draw(arrays(name, shape=tuple(shape), elements=small_values(name, -10, 10)))
    x, y = make(a, name, data.draw(layouts)), make(b, name, data.draw(layouts))
    given_dim = data.draw(st.booleans())
    if not given_dim:
        d = shape.index(3)  # Lua: the first dim of size 3
    wide = np.int64 if dtype_of(name).kind in "iu" else np.float64
    # computed wide, wrapped to the type as TH's C does
    want = np.cross(a.astype(wide), b.astype(wide), axis=d).astype(dtype_of(name))
    args = (x, y, d + 1) if given_dim else (x, y)
    if data.draw(st.booleans()):
        r = torch.cross(*args)
    else:
        r, check = given_result(name, shape, data.draw(layouts))
        torch.cross(r, *args)
        check(want)
    assert_same(npy(r), want)


@given(st.sampled_from(TYPES), st.data())
def test_diag(name, data):
    a = data.draw(arrays(name, max_dims=2))
    x = make(a, name, data.draw(layouts))
    k = data.draw(st.integers(-a.shape[0] + 1, (a.shape[1] if a.ndim == 2 else a.shape[0]) - 1))
    if a.ndim == 2 and not (-a.shape[0] < k < a.shape[1]):
        k = 0
    want = np.diag(a, k)
    if data.draw(st.booleans()):
        r = torch.diag(x, k)
    else:
        r, check = given_result(name, list(want.shape), data.draw(layouts))
        torch.diag(r, x, k)
        check(want)
    assert_same(npy(r), want)


@given(st.sampled_from(TYPES), st.sampled_from(["tril", "triu"]), st.data())
def test_tril_triu(name, which, data):
    a = data.draw(arrays(name, min_dims=2, max_dims=2))
    x = make(a, name, data.draw(layouts))
    k = data.draw(st.integers(-6, 6))
    want = getattr(np, which)(a, k)
    form = data.draw(st.sampled_from(["function", "default k", "res"]))
    if form == "function":
        r = getattr(torch, which)(x, k)
    elif form == "default k":
        r, want = getattr(torch, which)(x), getattr(np, which)(a)
    else:
        r, check = given_result(name, list(a.shape), data.draw(layouts))
        getattr(torch, which)(r, x, k)
        check(want)
    assert_same(npy(r), want)


@given(tensors(TYPES, min_dims=2, max_dims=2))
def test_trace(x):
    name, a, t = x
    got = torch.trace(t)
    # summed in TH's accreal: an integer for the integer types, no wrapping
    want = np.trace(a.astype(np.float64 if dtype_of(name).kind == "f" else np.int64))
    assert got == want and isinstance(got, int if dtype_of(name).kind in "iu" else float)


# ---------------------------------------------------------------- convolutions


def correlate_valid(x, k):
    """sum_j x[y + j] k[j] over the trailing spatial dims (numpy, wide)."""
    nd = k.ndim
    win = np.lib.stride_tricks.sliding_window_view(
        x, k.shape, axis=tuple(range(x.ndim - nd, x.ndim))
    )
    letters = "abc"[:nd]
    return np.einsum(f"...{letters},{letters}->...", win, k)


def lua_conv(a, k, nd, mode, xcorr):
    """Torch7's conv2/xcorr2/conv3/xcorr3 (nd spatial dims) of the forms
    (nd, nd), (nd+1, nd+1) plane by plane and (nd+1, nd+2) planes in to
    planes out, in wide arithmetic."""
    spatial = tuple(range(k.ndim - nd, k.ndim))
    if not xcorr:
        k = np.flip(k, axis=spatial)
    if mode == "F":
        pad = [(0, 0)] * (a.ndim - nd) + [(s - 1, s - 1) for s in k.shape[-nd:]]
        a = np.pad(a, pad)
    if a.ndim == nd:
        return correlate_valid(a, k)
    if k.ndim == nd + 1:
        return np.stack([correlate_valid(a[p], k[p]) for p in range(a.shape[0])])
    return np.stack(
        [sum(correlate_valid(a[p], k[q, p]) for p in range(a.shape[0])) for q in range(k.shape[0])]
    )


@given(
    st.sampled_from(TYPES),
    st.sampled_from(["conv2", "xcorr2", "conv3", "xcorr3"]),
    st.sampled_from(["V", "F", None]),
    st.data(),
)
def test_convolutions(name, fn, mode, data):
    nd = int(fn[-1])
    form = data.draw(st.integers(0, 2))  # (nd, nd), (nd+1, nd+1), (nd+1, nd+2)
    planes = data.draw(st.integers(1, 3))
    sizes = [data.draw(st.integers(1, 5)) for _ in range(nd)]
    ksizes = [data.draw(st.integers(1, s if mode != "F" else 4)) for s in sizes]
    a_shape = ([planes] if form else []) + sizes
    k_shape = {0: [], 1: [planes], 2: [data.draw(st.integers(1, 3)), planes]}[form] + ksizes
    a = data.draw(arrays(name, shape=tuple(a_shape), elements=small_values(name, -5, 5)))
    k = data.draw(arrays(name, shape=tuple(k_shape), elements=small_values(name, -5, 5)))
    x, kk = make(a, name, data.draw(layouts)), make(k, name, data.draw(layouts))
    wide = np.int64 if dtype_of(name).kind in "iu" else np.float64
    # integers wrap to the type as TH's C arithmetic does
    want = lua_conv(a.astype(wide), k.astype(wide), nd, mode or "V", fn.startswith("x")).astype(
        dtype_of(name)
    )
    args = (x, kk) + ((mode,) if mode else ())
    if data.draw(st.booleans()):
        r = getattr(torch, fn)(*args)
    else:
        # TH writes its result as if contiguous (THTensor_(data) and a row-major
        # walk), even into a strided res; the face writes through res's strides
        r, check = given_result(name, list(want.shape), data.draw(layouts))
        assert getattr(torch, fn)(r, *args) is r
        check(want)
    assert r.type() == "torch." + name
    assert_same(npy(r), want)


# ---------------------------------------------------------------- cumulative


@given(tensors(TYPES, elements=None), st.sampled_from(["cumsum", "cumprod"]), st.data())
def test_cumsum_cumprod(x, which, data):
    name, a, t = x
    dim = data.draw(st.one_of(st.none(), st.integers(1, a.ndim)))
    dt = dtype_of(name)
    # TH accumulates in accreal (double; long for the integer types) and
    # stores each partial result in the type (integers wrap)
    acc = np.float64 if dt.kind == "f" else np.int64
    with np.errstate(over="ignore"):
        want = getattr(np, which)(a.astype(acc), axis=(dim or 1) - 1).astype(dt)
    args = (t,) if dim is None else (t, dim)
    if data.draw(st.booleans()):
        r = getattr(torch, which)(*args)
    else:
        r, check = given_result(name, list(a.shape), data.draw(layouts))
        getattr(torch, which)(r, *args)
        check(want)
    assert_same(npy(r), want)
    assert_same(npy(t), a)


@given(st.sampled_from(["FloatTensor"]), st.data())
def test_cumsum_of_float_accumulates_in_double(name, data):
    # 2^24 + 1 + 1: float partial sums would lose the ones, TH's double keeps them
    x = torch.FloatTensor([2.0**24, 1, 1])
    assert npy(torch.cumsum(x)).tolist() == [2.0**24, 2.0**24, 2.0**24 + 2]


# ---------------------------------------------------------------- bit operations, remainders

UNSIGNED = {
    np.dtype(np.int8): np.uint8,
    np.dtype(np.int16): np.uint16,
    np.dtype(np.int32): np.uint32,
    np.dtype(np.int64): np.uint64,
}


def lua_shift(a, v, left, dt):
    """TH's lshift/rshift: integers shift as their unsigned type (((unsigned
    real) x) << v, kept to the type's bits), floats multiply or divide by
    2^v (powf for float)."""
    if dt.kind == "f":
        scale = np.power(dt.type(2), np.asarray(v, dt))
        return (a * scale if left else a / scale).astype(dt)
    u = np.dtype(UNSIGNED.get(dt, dt))
    bits = 8 * dt.itemsize
    au = a.view(u).astype(np.uint64)
    vv = np.asarray(v).astype(np.uint64)
    r = ((au << vv) & np.uint64((1 << bits) - 1)) if left else (au >> vv)
    return r.astype(u).view(dt)


def lua_remainder(a, v, dt):
    """TH's remainder: floats a - v * floor(a / v) (NaN for v == 0; for
    float the quotient is a float, the rest double: floor() and the product
    are C doubles), integers the C remainder moved to v's sign."""
    if dt.kind == "f":
        with np.errstate(all="ignore"):
            q = np.floor(a / v).astype(np.float64)
            r = (a.astype(np.float64) - np.asarray(v, np.float64) * q).astype(dt)
            return np.where(np.asarray(v) == 0, dt.type(np.nan), r).astype(dt)
    return np.remainder(a, v).astype(dt)


def lua_fmod(a, v, dt):
    """C's fmod / the C remainder (truncated: the dividend's sign)."""
    with np.errstate(all="ignore"):
        return np.fmod(a, v).astype(dt)


def lua_bitop(op):
    return lambda a, v, dt: op(a, np.asarray(v, dt)).astype(dt)


# name -> (oracle(a, v, dt), the types Lua takes, how operands are drawn)
ELEMENTWISE = {
    "bitand": (lua_bitop(np.bitwise_and), INTS, "bits"),
    "bitor": (lua_bitop(np.bitwise_or), INTS, "bits"),
    "bitxor": (lua_bitop(np.bitwise_xor), INTS, "bits"),
    "lshift": (lambda a, v, dt: lua_shift(a, v, True, dt), TYPES, "shift"),
    "rshift": (lambda a, v, dt: lua_shift(a, v, False, dt), TYPES, "shift"),
    "mod": (lua_fmod, TYPES, "divisor"),
    "fmod": (lua_fmod, TYPES, "divisor"),
    "remainder": (lua_remainder, TYPES, "divisor"),
}
# the c-forms: tensor2 instead of the number (cmod is cfmod)
C_FORMS = {
    "cbitand": "bitand",
    "cbitor": "bitor",
    "cbitxor": "bitxor",
    "clshift": "lshift",
    "crshift": "rshift",
    "cmod": "mod",
    "cfmod": "fmod",
    "cremainder": "remainder",
}


def operand_values(name, kind):
    """The second operand's elements: the whole range for bit operations, a
    shift count in [0, bits) for integers (larger ones are undefined in C)
    and [-8, 8] for floats, a divisor (nonzero for the integer types:
    division by zero raises there, docs/torch7.md)."""
    dt = dtype_of(name)
    if kind == "bits":
        return full_range(name)
    if kind == "shift":
        return (
            st.integers(0, 8 * dt.itemsize - 1)
            if dt.kind in "iu"
            else st.integers(-8, 8).map(float)
        )
    if dt.kind == "f":
        # decimal fractions: where a / v rounds onto an integer, TH's floor formula
        # and fmod disagree (5.5 remainder 0.1: 0 in Lua, fmod's 0.0999...)
        return st.one_of(
            st.integers(-6, 6).map(float),
            st.floats(-10, 10, width=8 * dt.itemsize),
            st.sampled_from([0.1, -0.1, 0.2, 0.3, 0.7, -1.1, 2.5]),
        )
    return small_values(name, -30, 30).filter(bool)


def first_values(name, kind):
    dt = dtype_of(name)
    if kind == "bits" or (kind == "shift" and dt.kind in "iu"):
        return full_range(name)
    if dt.kind == "f":
        return st.one_of(
            st.integers(-50, 50).map(float),
            st.integers(-99, 99).map(lambda i: i / 10),
            st.floats(-1e3, 1e3, width=8 * dt.itemsize),
        )
    return small_values(name, -100, 100)


@pytest.mark.parametrize("fn", sorted(ELEMENTWISE) + sorted(C_FORMS))
@given(data=st.data())
def test_elementwise(fn, data):
    base = C_FORMS.get(fn, fn)
    oracle, types, kind = ELEMENTWISE[base]
    name = data.draw(st.sampled_from(types))
    dt = dtype_of(name)
    a = data.draw(arrays(name, min_side=0, elements=first_values(name, kind)))
    x = make(a, name, data.draw(layouts))
    if fn in C_FORMS:
        # tensor2: a's element count in any shape, read in row-major order
        shape = data.draw(st.sampled_from([a.shape, (a.size,), a.shape[::-1]]))
        b = data.draw(arrays(name, shape=shape, elements=operand_values(name, kind)))
        y, v = make(b, name, data.draw(layouts)), b.reshape(a.shape)
    else:
        y = data.draw(operand_values(name, kind))
        v = dt.type(y)  # Lua converts the number to the type first
    want = oracle(a, v, dt)
    form = data.draw(st.sampled_from(["function", "method", "res"]))
    if form == "function":
        r = getattr(torch, fn)(x, y)
        assert_same(npy(x), a)
    elif form == "method":
        r = getattr(x, fn)(y)  # in place, x keeping its strides
        assert r is x
    elif a.size:
        r, check = given_result(name, list(a.shape), data.draw(layouts))
        assert getattr(torch, fn)(r, x, y) is r
        check(want)
    else:
        return
    assert r.type() == "torch." + name
    assert_same(npy(r), want)


@given(st.sampled_from(sorted(ELEMENTWISE)), st.sampled_from(TYPES))
def test_elementwise_of_an_empty_tensor(fn, name):
    # Lua: torch.IntTensor():bitand(3), :mod(3) ... are empty
    oracle, types, kind = ELEMENTWISE[fn]
    if name not in types:
        return
    r = getattr(torch, fn)(getattr(torch, name)(), 3)
    assert r.nElement() == 0


@given(
    st.sampled_from(
        sorted(set(ELEMENTWISE) - {"lshift", "rshift"}) + ["cbitand", "cbitor", "cbitxor"]
    ),
    st.sampled_from(FLOATS),
)
def test_bit_operations_refuse_floats(fn, name):
    # Lua: "bitand is only supported for integer type tensors"
    if fn in ("mod", "fmod", "remainder"):
        return
    x = getattr(torch, name)([1, 2])
    with pytest.raises((TypeError, AttributeError)):
        getattr(torch, fn)(x, x if fn.startswith("c") else 1)

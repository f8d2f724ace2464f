"""topk, kthvalue, median, mode (select.c) against a stable sort written
in Python (positions included: the core's answers are the stable sort's),
over every integer and float dtype and layout, and Lua Torch7's answers
for the doubtful cases."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from strided.core import base as _core
from strided.core.select import kthvalue, median, mode, topk
from helpers import REAL_NAMES, arrays, borrow, layouts, to_core, to_numpy


def vkey(v):
    """sort's ascending order: NaN after every number, -0.0 == 0.0"""
    v = v.item()
    return (1, 0) if isinstance(v, float) and math.isnan(v) else (0, v)


def stable_order(lane, largest=False):
    # Python's sort is stable with reverse=True too: equal values keep their order
    return sorted(range(len(lane)), key=lambda i: vkey(lane[i]), reverse=largest)


def lanes(x, dim):
    """(index tuple of the lane, lane) for every lane of x along dim."""
    moved = np.moveaxis(x, dim, -1) if x.ndim else x.reshape(1)
    for idx in np.ndindex(moved.shape[:-1]):
        yield idx, moved[idx]


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def elements(dt, few=False):
    if np.dtype(dt).kind == "f":
        vals = [0.0, -0.0, 1.5, -2.0, 3.0, np.nan, np.inf, -np.inf]
        return st.sampled_from(vals) if few else st.floats(width=np.dtype(dt).itemsize * 8)
    info = np.iinfo(dt)
    return st.integers(max(info.min, -3), min(info.max, 3)) if few else None


@given(data=st.data())
def test_topk_is_the_stable_sort_prefix(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    few = data.draw(st.booleans())  # many ties
    x = data.draw(
        arrays(
            dt,
            shape=st.lists(st.integers(0, 6), min_size=1, max_size=3).map(tuple),
            elements=elements(dt, few),
        )
    )
    x = data.draw(layouts(x))
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[dim]
    k = data.draw(st.integers(0, n))
    largest, srt = data.draw(st.booleans()), data.draw(st.booleans())
    v, i = topk(borrow(x), k, dim, largest, srt)
    v, i = to_numpy(v), to_numpy(i)
    assert v.dtype == x.dtype and i.dtype == np.int64
    d = dim % x.ndim
    assert v.shape == x.shape[:d] + (k,) + x.shape[d + 1 :]
    vm, im = np.moveaxis(v, d, -1), np.moveaxis(i, d, -1)
    for idx, lane in lanes(x, d):
        want = stable_order(lane, largest)[:k]
        got = list(im[idx])
        if srt:
            assert got == want
        else:
            assert sorted(got) == sorted(want)
        assert same(vm[idx], lane[got])


@given(data=st.data())
def test_kthvalue_median(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    few = data.draw(st.booleans())
    x = data.draw(
        arrays(
            dt,
            shape=st.lists(st.integers(1, 6), min_size=0, max_size=3).map(tuple),
            elements=elements(dt, few),
        )
    )
    x = data.draw(layouts(x))
    dim = data.draw(st.integers(-max(x.ndim, 1), max(x.ndim, 1) - 1))
    d = dim % max(x.ndim, 1)
    n = x.shape[d] if x.ndim else 1
    k = data.draw(st.integers(0, n - 1))
    keep = data.draw(st.booleans())
    for fn, rank in [
        (lambda c: kthvalue(c, k, dim, keep), k),
        (lambda c: median(c, dim, keep), (n - 1) // 2),
    ]:
        v, i = fn(borrow(x))
        v, i = to_numpy(v), to_numpy(i)
        shape = x.shape[:d] + (1,) + x.shape[d + 1 :] if x.ndim else ()
        assert v.shape == (shape if keep else (x.shape[:d] + x.shape[d + 1 :] if x.ndim else ()))
        v, i = v.reshape(shape), i.reshape(shape)
        vm, im = (
            (np.moveaxis(v, d, -1), np.moveaxis(i, d, -1))
            if x.ndim
            else (v.reshape(1), i.reshape(1))
        )
        for idx, lane in lanes(x, d):
            want = stable_order(lane)[rank]
            assert im[idx][0] == want
            assert same(vm[idx][0], lane[want])


@given(data=st.data())
def test_mode(data):
    dt = data.draw(st.sampled_from(REAL_NAMES))
    x = data.draw(
        arrays(
            dt,
            shape=st.lists(st.integers(1, 7), min_size=1, max_size=3).map(tuple),
            elements=elements(dt, True),
        )
    )
    x = data.draw(layouts(x))
    d = data.draw(st.integers(0, x.ndim - 1))
    v, i = mode(borrow(x), d, keepdims=True)
    vm, im = np.moveaxis(to_numpy(v), d, -1), np.moveaxis(to_numpy(i), d, -1)
    for idx, lane in lanes(x, d):
        counts = {}
        for j, e in enumerate(lane):
            key = ("nan", j) if vkey(e)[0] else vkey(e)  # every NaN alone
            counts[key] = counts.get(key, 0) + 1
        best = max(counts.values())
        # the smallest value among the most frequent (NaN last)
        winner = min(
            (k for k, c in counts.items() if c == best),
            key=lambda k: (1, k[1]) if k[0] == "nan" else k,
        )
        if winner[0] == "nan":
            want = max(j for j, e in enumerate(lane) if vkey(e)[0])
        else:
            want = max(j for j, e in enumerate(lane) if vkey(e) == winner)
        assert im[idx][0] == want
        assert same(vm[idx][0], lane[want])


def np_order(x, largest=False):
    """The stable sort's order for a long 1-D x (NaN last; largest: value
    descending, positions ascending among equal values)."""
    if not largest:
        return np.argsort(x, kind="stable")
    if x.dtype.kind == "f":
        key = np.where(np.isnan(x), np.inf, x.astype(np.float64))
        return np.lexsort((np.arange(x.size), -key))
    return np.lexsort((np.arange(x.size), -x.astype(np.int64)))


@pytest.mark.parametrize("dt", ["float64", "float32", "int64", "uint8", "int16"])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_long_lanes(dt, largest, threads):
    """The filtering pass (16 k <= n), one lane split over threads, many
    lanes in parallel, a strided lane; ties and NaN included."""
    rng = np.random.default_rng(1)
    n = 200_003
    x = (rng.standard_normal(n) * 50).astype(dt)
    if x.dtype.kind == "f":
        x[rng.integers(0, n, 40)] = np.nan
    for k in (1, 10, 100):
        for view in (x, x[::-3]):
            v, i = topk(borrow(view), k, 0, largest, True)
            want = np_order(view, largest)[:k]
            assert to_numpy(i).tolist() == want.tolist()
            assert same(to_numpy(v), view[want])
    m = x[: 64 * 1000].reshape(64, 1000)  # many lanes
    v, i = topk(borrow(m), 20, 1, largest, True)
    i = to_numpy(i)
    for r in range(0, 64, 9):
        assert list(i[r]) == stable_order(m[r], largest)[:20]
    v, i = topk(borrow(x), x.size // 10, 0, largest, True)  # a large k: one introselect
    assert to_numpy(i).tolist() == np_order(x, largest)[: x.size // 10].tolist()


@pytest.mark.parametrize("dt", ["float64", "float32", "int32", "uint8"])
def test_median_long_lane(dt, threads):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(100_001) * 30).astype(dt)
    if x.dtype.kind == "f":
        x[::1000] = np.nan
    v, i = median(borrow(x), 0)
    order = np.argsort(x, kind="stable")
    assert int(to_numpy(i)) == order[(x.size - 1) // 2]
    v, i = kthvalue(borrow(x), x.size - 5, 0)  # among the NaNs (float)
    assert int(to_numpy(i)) == order[x.size - 5]
    m = x[:100_000].reshape(100, 1000)
    v, i = median(borrow(m.T), 0)
    i = to_numpy(i)
    for c in range(0, 100, 11):
        assert i[c] == np.argsort(m[c], kind="stable")[499]


@pytest.mark.parametrize(
    "kind", ["sorted", "reversed", "constant", "few", "nan_half", "all_nan", "sawtooth", "int_few"]
)
def test_kthvalue_structured_long_lanes(kind, threads):
    """The sampled pass and its fallbacks on data a sample can misjudge."""
    n = 70_001
    rng = np.random.default_rng(4)
    x = {
        "sorted": np.arange(n, dtype=np.float64),
        "reversed": np.arange(n, 0, -1).astype(np.float32),
        "constant": np.full(n, 3.0),
        "few": rng.integers(0, 3, n).astype(np.float64),
        "nan_half": np.where(rng.random(n) < 0.5, np.nan, rng.standard_normal(n)),
        "all_nan": np.full(n, np.nan),
        "sawtooth": (np.arange(n) % 1000).astype(np.float64) * (np.arange(n) // 35_000 + 1),
        "int_few": rng.integers(-2, 2, n).astype(np.int8),
    }[kind]
    order = np.argsort(x, kind="stable")
    for k in (0, 1, n // 3, (n - 1) // 2, n - 2, n - 1):
        v, i = kthvalue(borrow(x), k)
        assert int(to_numpy(i)) == order[k], (kind, k)
        assert same(to_numpy(v), x[order[k]])
    v, i = median(borrow(x[::-2]))
    assert int(to_numpy(i)) == np.argsort(x[::-2], kind="stable")[(x[::-2].size - 1) // 2]


def test_median_all_and_out():
    x = np.array([[4.0, 1.0], [3.0, 2.0]])
    v, i = median(to_core(x), dim=None)
    assert float(to_numpy(v)) == 2.0 and int(to_numpy(i)) == 3  # flat position
    v, i = median(to_core(x), dim=None, keepdims=True)
    assert to_numpy(v).shape == (1, 1)
    vo, io = _core.Core.empty((2,), "float64"), _core.Core.empty((2,), "int64")
    r = kthvalue(to_core(x), 1, 1, out=(vo, io))
    assert r[0] is vo and to_numpy(vo).tolist() == [4.0, 3.0] and to_numpy(io).tolist() == [0, 0]
    vo = _core.Core.empty((2, 3), "float64")
    topk(to_core(x), 1, 0, out=(vo.view(0, (1, 2), (3, 1)), _core.Core.empty((1, 2), "int64")))
    assert to_numpy(vo)[0, :2].tolist() == [4.0, 2.0]


# ---- Lua Torch7's answers, translated to 0-based positions ----


def t(x, dt="float64"):
    return to_core(np.array(x, dt))


def test_lua_topk():
    x = t([5, 1, 4, 2, 3, 9, 0])
    # torch.topk(x, 3, 1, true, true) -> 9 5 4 at 6 1 3 (1-based)
    v, i = topk(x, 3, 0, largest=True, sorted=True)
    assert to_numpy(v).tolist() == [9, 5, 4] and to_numpy(i).tolist() == [5, 0, 2]
    # torch.topk(x, 3, 1, false, true) -> 0 1 2 at 7 2 4
    v, i = topk(x, 3, 0, largest=False, sorted=True)
    assert to_numpy(v).tolist() == [0, 1, 2] and to_numpy(i).tolist() == [6, 1, 3]
    # torch.topk(x, 3) (smallest, unsorted) -> {1 0 2} at {2 7 4}: the same set
    v, i = topk(x, 3, 0, largest=False, sorted=False)
    assert sorted(to_numpy(i).tolist()) == [1, 3, 6]
    # 2-D, the last dim: torch.topk({{3,1,2},{6,5,4}}, 2) -> {{1,2},{4,5}} at {{2,3},{3,2}}
    v, i = topk(t([[3, 1, 2], [6, 5, 4]]), 2, -1, largest=False, sorted=False)
    assert [sorted(r) for r in to_numpy(i).tolist()] == [[1, 2], [1, 2]]


def test_lua_kthvalue_median():
    # torch.kthvalue({5,1,4,2,3}, 2) -> 2 at 4
    v, i = kthvalue(t([5, 1, 4, 2, 3]), 1)
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 3
    # torch.median({4,1,3,2}) -> 2 at 4: the lower median of an even count
    v, i = median(t([4, 1, 3, 2]))
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 3
    # torch.median({1,1,2,2,2}) -> 2 at 3: the first 2 (the stable sort's)
    v, i = median(t([1, 1, 2, 2, 2]))
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 2


def test_lua_mode():
    # torch.mode({1,2,2,3,3}) -> 2 at 3: the smallest of the most frequent, its last position
    v, i = mode(t([1, 2, 2, 3, 3]))
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 2
    # torch.mode({3,3,2,2,1}) -> 2 at 4
    v, i = mode(t([3, 3, 2, 2, 1]))
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 3
    # torch.mode({5,2,7,2,9,2}) -> 2 at 6
    v, i = mode(t([5, 2, 7, 2, 9, 2]))
    assert float(to_numpy(v)) == 2 and int(to_numpy(i)) == 5
    # torch.mode({1,nan,nan,2}) -> 1 at 1: every NaN is its own value
    v, i = mode(t([1, np.nan, np.nan, 2]))
    assert float(to_numpy(v)) == 1 and int(to_numpy(i)) == 0


def test_bad_arguments():
    x = t([1, 2, 3])
    with pytest.raises(IndexError, match=r"topk: k = 4 out of range \[0, 3\]"):
        topk(x, 4)
    with pytest.raises(IndexError, match="topk: k = -1"):
        topk(x, -1)
    with pytest.raises(TypeError, match="topk: k must be an integer"):
        topk(x, 1.0)
    with pytest.raises(IndexError, match="topk: dim 1 out of range"):
        topk(x, 1, 1)
    with pytest.raises(IndexError, match=r"kthvalue: k = 3 out of range \[0, 3\)"):
        kthvalue(x, 3)
    with pytest.raises(ValueError, match="median: no median of an empty lane"):
        median(_core.Core.empty((2, 0), "float64"))
    with pytest.raises(ValueError, match="mode: no mode of an empty lane"):
        mode(_core.Core.empty((0,), "int32"))
    with pytest.raises(TypeError, match="topk: x must be an integer or floating"):
        topk(t([1j, 2j], "complex64"), 1)
    with pytest.raises(TypeError, match="mode: x must be a Core"):
        mode([1, 2])
    with pytest.raises(TypeError, match="topk: values must be float64"):
        topk(x, 1, out=(_core.Core.empty((1,), "float32"), _core.Core.empty((1,), "int64")))
    with pytest.raises(TypeError, match="topk: indices must be int64"):
        topk(x, 1, out=(_core.Core.empty((1,), "float64"), _core.Core.empty((1,), "int32")))
    with pytest.raises(ValueError, match=r"kthvalue: values has shape \(3,\), expected \(\)"):
        kthvalue(x, 0, out=(_core.Core.empty((3,), "float64"), _core.Core.empty((), "int64")))
    with pytest.raises(ValueError, match="must not share memory"):
        topk(x, 3, out=(x, _core.Core.empty((3,), "int64")))


def test_empty_and_0d():
    v, i = topk(_core.Core.empty((0, 4), "float32"), 2, 1)
    assert to_numpy(v).shape == (0, 2)
    v, i = topk(t([5.0, 1.0]), 0)
    assert to_numpy(v).shape == (0,)
    v, i = median(t(7.0))
    assert float(to_numpy(v)) == 7.0 and int(to_numpy(i)) == 0
    v, i = mode(t(3, "int8"))
    assert int(to_numpy(v)) == 3 and int(to_numpy(i)) == 0
    v, i = topk(t(2.5), 1)
    assert to_numpy(v).shape == () and float(to_numpy(v)) == 2.5

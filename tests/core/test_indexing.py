"""Index kernels (strided/_c/index.c through strided/_indexing.py), numpy as
the oracle: index_select/take (np.take), index_copy/index_add/index_fill
(assignment, np.add.at), gather (np.take_along_axis), scatter
(np.put_along_axis with unique indices; a Python loop for the documented
"last write wins in C order"), scatter_add (np.add.at), scatter_fill,
masked_select/copy/fill (boolean-mask indexing), nonzero (np.argwhere);
every dtype, inputs, indices and masks in every layout, empty and 0-d
shapes; the flags ST_IDX_BASE1 and ST_IDX_WRAP; and the refusals: an index
out of range is an IndexError naming it (the first in C order) and leaves
the destination untouched, a wrong index dtype is a TypeError, shape
mismatches and read-only destinations are ValueErrors."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided
from helpers import DTYPE_NAMES, arrays, assert_same, borrow, layouts, shapes, to_core, to_numpy
from strided.core import base as _core, indexing as ix
from strided._c._strided import lib

BASE1, WRAP = lib.ST_IDX_BASE1, lib.ST_IDX_WRAP
FLAG_SETS = [0, BASE1, WRAP, BASE1 | WRAP]
FLAG_IDS = ["base0", "base1", "wrap", "base1-wrap"]


# ---------------------------------------------------------------- helpers


def at(dim, ndim, index):
    """numpy's subscript for `index` along dim."""
    return tuple(index if d == dim else slice(None) for d in range(ndim))


def nd1(ndim):
    return max(ndim, 1)


@st.composite
def laid_out(draw, dt, shape=shapes, elements=None):
    a = draw(arrays(dt, shape, elements=elements))
    return draw(layouts(a))


@st.composite
def writable(draw, dt, shape=shapes):
    """A writable numpy view in one of the layouts (a broadcast one, which
    numpy makes read-only, is replaced by a contiguous copy)."""
    v = draw(laid_out(dt, shape))
    return v if v.flags.writeable else v.copy()


def value_of(dt):
    """A Python number of dtype dt's values."""
    return arrays(dt, ()).map(lambda a: a.item())


@st.composite
def positions(draw, shape, n):
    """0-based int64 positions in [0, n) of the given shape (n == 0: the
    shape must be empty)."""
    if math.prod(shape) == 0:
        return np.zeros(shape, np.int64)
    return draw(hnp.arrays(np.int64, shape, elements=st.integers(0, n - 1)))


@st.composite
def encoded(draw, pos, n, flags):
    """`pos` (valid 0-based positions) written as the flags read them:
    BASE1 counts from one; WRAP may write any as its negative (from the end)."""
    out = pos + 1 if flags & BASE1 else pos.copy()
    if flags & WRAP and pos.size:
        neg = draw(hnp.arrays(bool, pos.shape))
        out = np.where(neg, pos - n, out)
    return np.asarray(out, np.int64)


def decode(idx, n, flags):
    """The 0-based positions that indices written with `flags` name."""
    idx = np.asarray(idx, np.int64)
    return np.where(idx < 0, idx + n, idx - (1 if flags & BASE1 else 0)).astype(np.int64)


@st.composite
def index_core(draw, pos, n, flags, broadcast=True):
    """(0-based positions the index names, Core over the index in some
    layout).  A broadcast layout repeats the first row, so the positions are
    read back from the view (broadcast=False keeps them as drawn)."""
    idx = draw(encoded(pos, n, flags))
    view = draw(layouts(idx))
    if not broadcast and not view.flags.writeable:
        view = idx
    return decode(view, n, flags), borrow(view)


def dim_and_size(draw, ndim, shape):
    dim = draw(st.integers(-nd1(ndim), nd1(ndim) - 1), label="dim")
    d = dim % nd1(ndim)
    return dim, d, (shape[d] if ndim else 1)


# ---------------------------------------------------------------- index_select / take


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_index_select(dt, flags, data):
    a = data.draw(laid_out(dt), label="a")
    dim, d, n = dim_and_size(data.draw, a.ndim, a.shape)
    k = 1 if a.ndim == 0 else (data.draw(st.integers(0, 7), label="k") if n else 0)
    pos = data.draw(positions((k,), n), label="pos")
    if data.draw(st.booleans()) and k == 1:
        pos = pos.reshape(())  # a 0-d index: one position
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    got = ix.index_select(borrow(a), dim, ic, flags)
    if a.ndim == 0:
        want = a.copy()
    else:
        want = np.take(a, pos.reshape(-1), axis=d)
    assert_same(to_numpy(got), want)


@pytest.mark.parametrize("dt", ["int8", "float64", "complex128"])
@given(data=st.data())
def test_take_wraps_negative_indices(dt, data):
    a = data.draw(laid_out(dt, hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=6)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    idx = data.draw(hnp.arrays(np.int64, st.integers(0, 8), elements=st.integers(-n, n - 1)))
    idx = data.draw(layouts(idx))
    got = ix.take(borrow(a), borrow(idx), axis)
    assert_same(to_numpy(got), np.take(a, idx, axis=axis))


def test_take_axis_may_be_omitted_only_for_1d():
    idx = to_core(np.array([-1, 0], np.int64))
    assert_same(to_numpy(ix.take(to_core(np.arange(5)), idx)), np.array([4, 0]))
    with pytest.raises(ValueError, match="axis"):
        ix.take(to_core(np.zeros((2, 3))), idx)


# ---------------------------------------------------------------- index_copy / add / fill


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_index_copy(dt, flags, data):
    dst = data.draw(writable(dt), label="dst")
    dim, d, n = dim_and_size(data.draw, dst.ndim, dst.shape)
    if dst.ndim == 0:
        pos = np.zeros(1, np.int64)
    else:
        perm = data.draw(st.permutations(range(n)), label="perm")
        pos = np.array(perm[: data.draw(st.integers(0, n))], np.int64)
    src_shape = tuple(len(pos) if e == d else m for e, m in enumerate(dst.shape))
    src = data.draw(laid_out(dt, st.just(src_shape)), label="src")
    pos, ic = data.draw(index_core(pos, n, flags, broadcast=False), label="idx")
    want = dst.copy()
    if dst.ndim == 0:
        want[...] = src
    else:
        want[at(d, dst.ndim, pos)] = src
    c = borrow(dst)
    assert ix.index_copy(c, dim, ic, borrow(src), flags) is c
    assert_same(dst, want)


@pytest.mark.parametrize("flags", [0, BASE1 | WRAP], ids=["base0", "base1-wrap"])
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_index_add_accumulates_repeats(dt, flags, data):
    dst = data.draw(writable(dt), label="dst")
    dim, d, n = dim_and_size(data.draw, dst.ndim, dst.shape)
    k = 1 if dst.ndim == 0 else (data.draw(st.integers(0, 8)) if n else 0)
    pos = data.draw(positions((k,), n), label="pos")  # repeats likely
    src_shape = tuple(k if e == d else m for e, m in enumerate(dst.shape))
    src = data.draw(laid_out(dt, st.just(src_shape)), label="src")
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    want = dst.copy()
    with np.errstate(all="ignore"):
        if dst.ndim == 0:
            want = np.add(want, src, dtype=want.dtype)
        else:
            np.add.at(want, at(d, dst.ndim, pos), src)
    ix.index_add(borrow(dst), dim, ic, borrow(src), flags)
    assert_same(dst, want)


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_index_fill(dt, flags, data):
    dst = data.draw(writable(dt), label="dst")
    dim, d, n = dim_and_size(data.draw, dst.ndim, dst.shape)
    k = data.draw(st.integers(0, 6)) if n else 0
    pos = data.draw(positions((k,), n), label="pos")
    value = data.draw(value_of(dt), label="value")
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    want = dst.copy()
    if dst.ndim == 0:
        if k:
            want[...] = value
    else:
        want[at(d, dst.ndim, pos)] = value
    ix.index_fill(borrow(dst), dim, ic, value, flags)
    assert_same(dst, want)


def test_index_copy_repeated_index_last_write_wins():
    dst = np.zeros((3, 4))
    src = np.arange(12.0).reshape(3, 4)
    ix.index_copy(borrow(dst), 0, to_core(np.array([1, 2, 1], np.int64)), to_core(src))
    assert_same(dst, np.array([np.zeros(4), src[2], src[1]]))


# ---------------------------------------------------------------- gather / scatter


@st.composite
def along_shape(draw, shape, d, n, extra_along=5):
    """A shape of len(shape) dims, no larger than `shape` but along d (any
    size there; 0 when n == 0 since no index would be valid)."""
    out = []
    for e, m in enumerate(shape):
        if e == d:
            out.append(draw(st.integers(0, extra_along)) if n else 0)
        else:
            out.append(draw(st.integers(0, m)))
    return tuple(out)


def head(a, shape, skip=None):
    """a's leading block of `shape` (all of dim `skip`)."""
    return a[tuple(slice(None) if e == skip else slice(0, m) for e, m in enumerate(shape))]


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_gather(dt, flags, data):
    a = data.draw(laid_out(dt), label="a")
    dim, d, n = dim_and_size(data.draw, a.ndim, a.shape)
    ishape = data.draw(along_shape(a.shape, d, n), label="ishape")
    pos = data.draw(positions(ishape, n), label="pos")
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    got = ix.gather(borrow(a), dim, ic, flags)
    want = a.copy() if a.ndim == 0 else np.take_along_axis(head(a, ishape, d), pos, axis=d)
    assert_same(to_numpy(got), want)


@st.composite
def unique_positions(draw, ishape, d, n):
    """Positions of shape ishape, distinct along d within every lane."""
    if math.prod(ishape) == 0:
        return np.zeros(ishape, np.int64)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1), label="seed"))
    keys = rng.random(tuple(n if e == d else m for e, m in enumerate(ishape)))
    perm = np.argsort(keys, axis=d)
    return np.take(perm, np.arange(ishape[d]), axis=d).astype(np.int64)


@st.composite
def scatter_case(draw, dt, unique):
    dst = draw(writable(dt), label="dst")
    dim, d, n = dim_and_size(draw, dst.ndim, dst.shape)
    if dst.ndim == 0:
        ishape, pos = (), np.zeros((), np.int64)
    elif unique:
        ishape = draw(along_shape(dst.shape, d, n, extra_along=0), label="ishape")
        ishape = tuple(draw(st.integers(0, n)) if e == d else m for e, m in enumerate(ishape))
        pos = draw(unique_positions(ishape, d, n), label="pos")
    else:
        ishape = draw(along_shape(dst.shape, d, n), label="ishape")
        pos = draw(positions(ishape, n), label="pos")
    src_shape = tuple(m + draw(st.integers(0, 2)) for m in ishape)
    src = draw(laid_out(dt, st.just(src_shape)), label="src")
    return dst, dim, d, n, pos, src


def put_oracle(dst, d, pos, src):
    """dst[p with pos[p] along d] = src[p], p in C order (last write wins)."""
    want = dst.copy()
    if dst.ndim == 0:
        want[...] = src
        return want
    for p in np.ndindex(*pos.shape):
        q = list(p)
        q[d] = pos[p]
        want[tuple(q)] = src[p]
    return want


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_scatter_unique(dt, flags, data):
    dst, dim, d, n, pos, src = data.draw(scatter_case(dt, unique=True))
    pos, ic = data.draw(index_core(pos, n, flags, broadcast=False), label="idx")
    want = dst.copy()
    if dst.ndim == 0:
        want[...] = src
    else:
        np.put_along_axis(head(want, pos.shape, d), pos, head(src, pos.shape), axis=d)
    c = borrow(dst)
    assert ix.scatter(c, dim, ic, borrow(src), flags) is c
    assert_same(dst, want)


@pytest.mark.parametrize("dt", ["bool", "int16", "float32", "int64", "complex128"])
@given(data=st.data())
def test_scatter_repeated_last_write_in_c_order_wins(dt, data):
    dst, dim, d, n, pos, src = data.draw(scatter_case(dt, unique=False))
    want = put_oracle(dst, d, pos, head(src, pos.shape))
    ix.scatter(borrow(dst), dim, borrow(pos), borrow(src))
    assert_same(dst, want)


@pytest.mark.parametrize("flags", [0, WRAP], ids=["base0", "wrap"])
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_scatter_add(dt, flags, data):
    dst, dim, d, n, pos, src = data.draw(scatter_case(dt, unique=False))
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    want = dst.copy()
    s = head(src, pos.shape)
    with np.errstate(all="ignore"):
        if dst.ndim == 0:
            want = np.add(want, s, dtype=want.dtype)
        else:
            where = list(np.indices(pos.shape, sparse=True))
            where[d] = pos
            np.add.at(want, tuple(where), s)
    ix.scatter_add(borrow(dst), dim, ic, borrow(src), flags)
    assert_same(dst, want)


@pytest.mark.parametrize("flags", FLAG_SETS, ids=FLAG_IDS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_scatter_fill(dt, flags, data):
    dst, dim, d, n, pos, _ = data.draw(scatter_case(dt, unique=False))
    value = data.draw(value_of(dt), label="value")
    pos, ic = data.draw(index_core(pos, n, flags), label="idx")
    want = dst.copy()
    if dst.ndim == 0:
        want[...] = value
    else:
        where = list(np.indices(pos.shape, sparse=True))
        where[d] = pos
        want[tuple(where)] = value
    ix.scatter_fill(borrow(dst), dim, ic, value, flags)
    assert_same(dst, want)


@pytest.mark.parametrize("order", ["C", "F"])
def test_scatter_threads_match_numpy_and_each_other(order):
    """Large enough to be split over threads: the split never puts one
    destination element in two threads, so repeats resolve in C order."""
    rng = np.random.default_rng(5)
    dst0 = np.asarray(rng.standard_normal((300, 700)), order=order)
    pos = rng.integers(0, 300, (300, 700)).astype(np.int64)
    src = rng.standard_normal((300, 700))
    cols = np.arange(700)
    want_add = dst0.copy()
    where = list(np.indices(pos.shape, sparse=True))
    where[0] = pos
    np.add.at(want_add, tuple(where), src)
    want_put = dst0.copy()
    for i in range(300):  # C order: row i after row i - 1
        want_put[pos[i], cols] = src[i]
    before = strided.getnumthreads()
    try:
        for nt in (1, 2):
            strided.setnumthreads(nt)
            dst = dst0.copy(order=order)
            ix.scatter_add(borrow(dst), 0, to_core(pos), to_core(src))
            assert_same(dst, want_add)  # additions in index order, as numpy's
            dst = dst0.copy(order=order)
            ix.scatter(borrow(dst), 0, to_core(pos), to_core(src))
            assert_same(dst, want_put)
            got = to_numpy(ix.gather(borrow(dst0), 0, to_core(pos)))
            assert_same(got, np.take_along_axis(dst0, pos, 0))
            sel = to_numpy(ix.index_select(borrow(dst0), 1, to_core(pos[0])))
            assert_same(sel, dst0[:, pos[0]])
    finally:
        strided.setnumthreads(before)


# ---------------------------------------------------------------- masks


@st.composite
def mask_for(draw, shape):
    """A bool or uint8 mask that broadcasts to `shape` (leading dims dropped,
    some sizes 1), in some layout; and its broadcast truth."""
    lead = draw(st.integers(0, len(shape)))
    mshape = tuple(1 if draw(st.booleans()) else m for m in shape[lead:])
    if draw(st.booleans()):
        m = draw(hnp.arrays(bool, mshape))
    else:
        m = draw(hnp.arrays(np.uint8, mshape, elements=st.sampled_from([0, 1, 2, 255])))
    m = draw(layouts(m))
    return m, np.broadcast_to(m != 0, shape)


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_masked_select(dt, data):
    a = data.draw(laid_out(dt), label="a")
    mask, truth = data.draw(mask_for(a.shape), label="mask")
    got = ix.masked_select(borrow(a), borrow(mask))
    assert_same(to_numpy(got), a[truth] if a.ndim else a[truth].reshape(-1))


def test_masked_select_counts_the_broadcast_mask():
    a = np.arange(12).reshape(3, 4)
    mask = np.array([True, False, True, True])
    got = to_numpy(ix.masked_select(to_core(a), to_core(mask)))
    assert_same(got, a[:, mask].reshape(-1))  # 9 elements, not 3
    col = np.array([[False], [True], [True]])
    assert_same(to_numpy(ix.masked_select(to_core(a), to_core(col))), a[1:].reshape(-1))


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_masked_copy(dt, data):
    dst = data.draw(writable(dt), label="dst")
    mask, truth = data.draw(mask_for(dst.shape), label="mask")
    count = int(truth.sum())
    src = data.draw(laid_out(dt, st.just((count + data.draw(st.integers(0, 3)),))), label="src")
    if data.draw(st.booleans()) and src.size % 2 == 0 and src.size:
        src = data.draw(layouts(np.ascontiguousarray(src).reshape(2, -1)))
    want = dst.copy()
    want[truth] = src.reshape(-1)[:count]
    c = borrow(dst)
    assert ix.masked_copy(c, borrow(mask), borrow(src)) is c
    assert_same(dst, want)


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_masked_fill(dt, data):
    dst = data.draw(writable(dt), label="dst")
    mask, truth = data.draw(mask_for(dst.shape), label="mask")
    value = data.draw(value_of(dt), label="value")
    want = dst.copy()
    want[truth] = value
    ix.masked_fill(borrow(dst), borrow(mask), value)
    assert_same(dst, want)


def zeroish(dt):
    if dt == "bool":
        return None
    if dt.startswith("float"):
        return st.sampled_from([0.0, -0.0, 0.0, 1.5, np.nan, -np.inf])
    if dt.startswith("complex"):
        return st.sampled_from([0j, complex(-0.0, -0.0), 0j, 1j, 2 + 0j, complex(np.nan, 0)])
    return st.sampled_from([0, 0, 0, 1, 7])


@pytest.mark.parametrize("flags", [0, BASE1], ids=["base0", "base1"])
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_nonzero(dt, flags, data):
    a = data.draw(laid_out(dt, elements=zeroish(dt)), label="a")
    got = to_numpy(ix.nonzero(borrow(a), flags))
    want = np.argwhere(a).astype(np.int64) + (1 if flags & BASE1 else 0)
    assert got.dtype == np.int64
    assert_same(got, want)


@pytest.mark.parametrize("nt", [1, 2])
def test_c_order_kernels_on_large_transposed_operands(nt):
    """masked_select / masked_copy / nonzero and the search for the first bad
    index follow C order whatever the memory order: large F-ordered operands
    (which the iterator would otherwise walk in cache tiles) included."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal((500, 300))
    m = rng.random(a.shape) < 0.5
    af, mf = np.asfortranarray(a), np.asfortranarray(m)
    before = strided.getnumthreads()
    try:
        strided.setnumthreads(nt)
        for x, mask in [(af, m), (a, mf), (af, mf), (af.T, m.T)]:
            truth = np.asarray(mask)
            assert_same(to_numpy(ix.masked_select(borrow(x), borrow(mask))), x[truth])
            dst = np.array(x, order="F")
            src = rng.standard_normal(int(truth.sum()))
            want = dst.copy()
            want[truth] = src
            ix.masked_copy(borrow(dst), borrow(mask), to_core(src))
            assert_same(dst, want)
            assert_same(to_numpy(ix.nonzero(borrow(mask))), np.argwhere(truth))
            assert_same(to_numpy(ix.nonzero(borrow(np.where(mask, x, 0)))), np.argwhere(truth))
        pos = np.asfortranarray(rng.integers(0, 500, a.shape))
        pos[3, 0], pos[0, 5] = 999, 777  # C order meets 777 first, memory order 999
        with pytest.raises(IndexError, match="index 777 "):
            ix.gather(borrow(af), 0, borrow(pos))
    finally:
        strided.setnumthreads(before)


# ---------------------------------------------------------------- inputs sharing the destination's memory


def test_index_copy_source_overlapping_destination():
    dst = np.arange(20.0).reshape(4, 5)
    src = dst[1:3]  # a view of dst itself
    want = dst.copy()
    want[[2, 0]] = src.copy()
    ix.index_copy(borrow(dst), 0, to_core(np.array([2, 0], np.int64)), borrow(src))
    assert_same(dst, want)


def test_scatter_source_is_the_destination():
    dst = np.arange(12.0).reshape(3, 4)
    pos = np.array([[1, 2, 0, 3]] * 3, np.int64)
    want = dst.copy()
    np.put_along_axis(want, pos, dst.copy(), axis=1)
    c = borrow(dst)
    ix.scatter(c, 1, to_core(pos), c)
    assert_same(dst, want)


def test_index_inside_the_destination():
    dst = np.array([3, 1, 0, 2, 9, 9], np.int64)
    idx = dst[:2]  # [3, 1], overwritten by the call
    ix.index_copy(borrow(dst), 0, borrow(idx), to_core(np.array([7, 8], np.int64)))
    assert_same(dst, np.array([3, 8, 0, 7, 9, 9]))
    dst = np.array([2, 0, 1, 5], np.int64)
    ix.index_fill(borrow(dst), 0, borrow(dst[:2]), -1)
    assert_same(dst, np.array([-1, 0, -1, 5]))


def test_masked_copy_source_overlapping_destination():
    dst = np.arange(8.0)
    mask = np.array([0, 1, 1, 0, 1, 1, 1, 0], bool)
    src = dst[::-1]
    want = dst.copy()
    want[mask] = src.copy()[:5]
    ix.masked_copy(borrow(dst), to_core(mask), borrow(src))
    assert_same(dst, want)


def test_masked_fill_mask_is_the_destination():
    dst = np.array([True, False, True])
    ix.masked_fill(borrow(dst), borrow(dst), False)
    assert_same(dst, np.zeros(3, bool))


# ---------------------------------------------------------------- out-of-range indices

# (flags, the first bad index, a second bad index after it) for a dim of size 4
BAD = [
    (0, 4, 100),
    (0, 2**62, 4),
    (0, -1, 5),
    (0, -(2**63), -1),
    (BASE1, 0, 5),
    (BASE1, 5, 0),
    (BASE1, -1, 0),
    (WRAP, 4, -5),
    (WRAP, -5, 4),
    (WRAP, 2**63 - 1, 4),
    (BASE1 | WRAP, 0, 5),
    (BASE1 | WRAP, -5, 0),
    (BASE1 | WRAP, 5, -5),
]
BAD_IDS = [f"{FLAG_IDS[f]}:{b}" for f, b, _ in BAD]
N = 4


def valid(flags):
    """Valid indices of a dim of size 4 in the flags' spelling."""
    return [1, 4, 2] if flags & BASE1 else ([0, -1, 3] if flags & WRAP else [0, 3, 2])


def idx_1d(flags, bad, second):
    return np.array(valid(flags)[:2] + [bad] + valid(flags)[2:] + [second], np.int64)


def idx_2d(flags, bad, second):
    v = valid(flags)
    i = np.array([[v[0], v[1], v[2]], [v[1], bad, v[0]], [second, v[2], v[1]]], np.int64)
    return i


INDEX_OPS = [
    "index_select",
    "index_copy",
    "index_add",
    "index_fill",
    "gather",
    "scatter",
    "scatter_add",
    "scatter_fill",
]


@pytest.mark.parametrize("flags,bad,second", BAD, ids=BAD_IDS)
@pytest.mark.parametrize("op", INDEX_OPS)
def test_out_of_range_index_raises_and_writes_nothing(op, flags, bad, second):
    dst = np.arange(12.0).reshape(3, 4)
    before = dst.copy()
    with pytest.raises(IndexError) as e:
        run_op_on(op, dst, flags, bad, second)
    msg = str(e.value)
    assert f"index {bad} " in msg, msg  # the first bad one, in C order
    assert f"index {second} " not in msg, msg
    assert op.split("_")[0] in msg
    assert_same(dst, before)


def run_op_on(op, dst, flags, bad, second):
    c = borrow(dst)
    one, two = to_core(idx_1d(flags, bad, second)), to_core(idx_2d(flags, bad, second))
    if op == "index_select":
        return ix.index_select(c, 1, one, flags)
    if op == "index_copy":
        return ix.index_copy(c, 1, one, to_core(np.ones((3, 5))), flags)
    if op == "index_add":
        return ix.index_add(c, 1, one, to_core(np.ones((3, 5))), flags)
    if op == "index_fill":
        return ix.index_fill(c, 1, one, -1.0, flags)
    if op == "gather":
        return ix.gather(c, 1, two, flags)
    if op == "scatter":
        return ix.scatter(c, 1, two, to_core(np.ones((3, 3))), flags)
    if op == "scatter_add":
        return ix.scatter_add(c, 1, two, to_core(np.ones((3, 3))), flags)
    return ix.scatter_fill(c, 1, two, -1.0, flags)


@pytest.mark.parametrize("bad", [4, -5, 2**63 - 1, -(2**63)])
def test_take_out_of_range(bad):
    with pytest.raises(IndexError, match=f"index {bad} "):
        ix.take(to_core(np.arange(4.0)), to_core(np.array([-4, 3, bad], np.int64)))


def test_out_of_range_in_a_large_index_is_found():
    """The pre-pass runs in parallel; the message still names the first bad
    index in C order, and nothing is written."""
    n = 300_000
    pos = np.zeros(n, np.int64)
    pos[200_001] = 7
    pos[123_457] = -3
    dst = np.zeros(5)
    before = strided.getnumthreads()
    try:
        for nt in (1, 2):
            strided.setnumthreads(nt)
            with pytest.raises(IndexError, match="index -3 "):
                ix.index_add(borrow(dst), 0, to_core(pos), to_core(np.ones(n)))
            assert not dst.any()
    finally:
        strided.setnumthreads(before)


def test_empty_index_on_an_empty_dim_is_fine():
    a = np.zeros((3, 0))
    assert to_numpy(ix.index_select(to_core(a), 1, to_core(np.zeros(0, np.int64)))).shape == (3, 0)
    with pytest.raises(IndexError, match="index 0 "):
        ix.index_select(to_core(a), 1, to_core(np.zeros(1, np.int64)))


@pytest.mark.parametrize("op", ["index_select", "gather", "index_fill", "scatter"])
@pytest.mark.parametrize("bad_dim", [2, -3, 5])
def test_dim_out_of_range(op, bad_dim):
    a = to_core(np.zeros((3, 4)))
    i1, i2 = to_core(np.zeros(1, np.int64)), to_core(np.zeros((1, 1), np.int64))
    with pytest.raises(IndexError, match=str(bad_dim)):
        if op == "index_select":
            ix.index_select(a, bad_dim, i1)
        elif op == "gather":
            ix.gather(a, bad_dim, i2)
        elif op == "index_fill":
            ix.index_fill(a, bad_dim, i1, 0)
        else:
            ix.scatter(a, bad_dim, i2, to_core(np.zeros((1, 1))))


# ---------------------------------------------------------------- wrong dtypes and shapes


def all_ops(idx_dtype):
    """Every index op, called with an index of the given dtype (valid values)."""
    a = np.zeros((3, 4))
    one = np.array([0, 1], idx_dtype)
    two = np.zeros((3, 2), idx_dtype)
    return [
        lambda: ix.index_select(to_core(a), 1, to_core(one)),
        lambda: ix.take(to_core(a), to_core(one), 1),
        lambda: ix.index_copy(to_core(a), 1, to_core(one), to_core(np.ones((3, 2)))),
        lambda: ix.index_add(to_core(a), 1, to_core(one), to_core(np.ones((3, 2)))),
        lambda: ix.index_fill(to_core(a), 1, to_core(one), 1.0),
        lambda: ix.gather(to_core(a), 1, to_core(two)),
        lambda: ix.scatter(to_core(a), 1, to_core(two), to_core(np.ones((3, 2)))),
        lambda: ix.scatter_add(to_core(a), 1, to_core(two), to_core(np.ones((3, 2)))),
        lambda: ix.scatter_fill(to_core(a), 1, to_core(two), 1.0),
    ]


@pytest.mark.parametrize("idx_dtype", ["int32", "uint64", "float64", "bool", "int8"])
@pytest.mark.parametrize("k", range(9))
def test_index_dtype_must_be_int64(idx_dtype, k):
    with pytest.raises(TypeError, match=idx_dtype):
        all_ops(idx_dtype)[k]()


@pytest.mark.parametrize("k", range(9))
def test_index_dtype_int64_is_accepted(k):
    all_ops("int64")[k]()


def test_index_dtype_refused_by_c_as_well():
    a, out = to_core(np.zeros(4)), _core.Core.empty((2,), "float64")
    with pytest.raises(TypeError, match="int64"):
        _core.check(lib.st_index_select(out.t, a.t, 0, to_core(np.zeros(2, np.int32)).t, 0))


def test_shape_mismatches_raise_value_error():
    a = to_core(np.zeros((3, 4)))
    i1 = to_core(np.array([0, 1], np.int64))
    cases = {
        "index_select 2-d idx": lambda: ix.index_select(a, 1, to_core(np.zeros((2, 1), np.int64))),
        "index_copy src width": lambda: ix.index_copy(a, 1, i1, to_core(np.ones((3, 3)))),
        "index_copy src rows": lambda: ix.index_copy(a, 1, i1, to_core(np.ones((2, 2)))),
        "index_copy src ndim": lambda: ix.index_copy(a, 1, i1, to_core(np.ones(2))),
        "index_add src width": lambda: ix.index_add(a, 0, i1, to_core(np.ones((2, 5)))),
        "0-d index_select two indices": lambda: ix.index_select(to_core(np.float64(1)), 0, i1),
        "gather idx ndim": lambda: ix.gather(a, 1, to_core(np.zeros(2, np.int64))),
        "gather idx too wide": lambda: ix.gather(a, 1, to_core(np.zeros((4, 2), np.int64))),
        "scatter idx ndim": lambda: ix.scatter(
            a, 0, to_core(np.zeros(2, np.int64)), to_core(np.ones(2))
        ),
        "scatter src smaller": lambda: ix.scatter(
            a, 0, to_core(np.zeros((2, 3), np.int64)), to_core(np.ones((2, 2)))
        ),
        "scatter idx too wide": lambda: ix.scatter(
            a, 0, to_core(np.zeros((2, 5), np.int64)), to_core(np.ones((2, 5)))
        ),
        "scatter_add src ndim": lambda: ix.scatter_add(
            a, 0, to_core(np.zeros((2, 3), np.int64)), to_core(np.ones((2, 3, 1)))
        ),
        "scatter_fill idx too wide": lambda: ix.scatter_fill(
            a, 1, to_core(np.zeros((4, 1), np.int64)), 0
        ),
        "masked_select mask": lambda: ix.masked_select(a, to_core(np.ones(3, bool))),
        "masked_select mask ndim": lambda: ix.masked_select(a, to_core(np.ones((1, 3, 4), bool))),
        "masked_copy mask": lambda: ix.masked_copy(
            a, to_core(np.ones((2, 4), bool)), to_core(np.ones(12))
        ),
        "masked_copy src short": lambda: ix.masked_copy(
            a, to_core(np.ones((3, 4), bool)), to_core(np.ones(11))
        ),
        "masked_fill mask": lambda: ix.masked_fill(a, to_core(np.ones(5, bool)), 0),
    }
    for name, f in cases.items():
        with pytest.raises(ValueError):
            f()
            pytest.fail(name)


def test_shape_messages_name_the_shapes():
    a = to_core(np.zeros((3, 4)))
    with pytest.raises(ValueError, match=r"\(3, 3\).*\(3, 2\)"):
        ix.index_copy(a, 1, to_core(np.array([0, 1], np.int64)), to_core(np.ones((3, 3))))
    with pytest.raises(ValueError, match=r"\(3,\).*\(3, 4\)"):
        ix.masked_fill(a, to_core(np.ones(3, bool)), 0)
    with pytest.raises(ValueError, match="11"):
        ix.masked_copy(a, to_core(np.ones((3, 4), bool)), to_core(np.ones(11)))


def test_dtype_mismatches_raise_type_error():
    a = to_core(np.zeros((3, 4)))
    i1, i2 = to_core(np.array([0, 1], np.int64)), to_core(np.zeros((3, 2), np.int64))
    for f in [
        lambda: ix.index_copy(a, 1, i1, to_core(np.ones((3, 2), np.float32))),
        lambda: ix.index_add(a, 1, i1, to_core(np.ones((3, 2), np.int64))),
        lambda: ix.scatter(a, 1, i2, to_core(np.ones((3, 2), np.complex128))),
        lambda: ix.scatter_add(a, 1, i2, to_core(np.ones((3, 2), np.float32))),
        lambda: ix.masked_copy(a, to_core(np.ones((3, 4), bool)), to_core(np.ones(12, np.int8))),
        lambda: ix.masked_fill(a, to_core(np.ones((3, 4), np.int8)), 0),
        lambda: ix.masked_select(a, to_core(np.ones((3, 4), np.float64))),
    ]:
        with pytest.raises(TypeError):
            f()


def test_fill_value_must_fit_the_dtype():
    a = to_core(np.zeros(4, np.int8))
    i = to_core(np.array([0], np.int64))
    with pytest.raises(OverflowError, match="200"):
        ix.index_fill(a, 0, i, 200)
    with pytest.raises(TypeError):
        ix.masked_fill(to_core(np.zeros(4)), to_core(np.ones(4, bool)), 1j)
    assert not to_numpy(a).any()


def test_unknown_flags_refused():
    with pytest.raises(ValueError, match="flags"):
        ix.index_select(to_core(np.zeros(3)), 0, to_core(np.zeros(1, np.int64)), 4)


# ---------------------------------------------------------------- read-only destinations


def read_only(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


WRITERS = {
    "index_copy": lambda c: ix.index_copy(
        c, 1, to_core(np.array([0], np.int64)), to_core(np.ones((3, 1)))
    ),
    "index_add": lambda c: ix.index_add(
        c, 1, to_core(np.array([0], np.int64)), to_core(np.ones((3, 1)))
    ),
    "index_fill": lambda c: ix.index_fill(c, 1, to_core(np.array([0], np.int64)), 5.0),
    "scatter": lambda c: ix.scatter(
        c, 1, to_core(np.zeros((3, 1), np.int64)), to_core(np.ones((3, 1)))
    ),
    "scatter_add": lambda c: ix.scatter_add(
        c, 1, to_core(np.zeros((3, 1), np.int64)), to_core(np.ones((3, 1)))
    ),
    "scatter_fill": lambda c: ix.scatter_fill(c, 1, to_core(np.zeros((3, 1), np.int64)), 5.0),
    "masked_copy": lambda c: ix.masked_copy(
        c, to_core(np.ones((3, 4), bool)), to_core(np.ones(12))
    ),
    "masked_fill": lambda c: ix.masked_fill(c, to_core(np.ones((3, 4), bool)), 5.0),
    "sort in place": lambda c: ix.sort(c, 1, out=c),
}

C_WRITERS = {
    "index_copy": lambda c: lib.st_index_copy(
        c.t, 1, to_core(np.array([0], np.int64)).t, to_core(np.ones((3, 1))).t, 0, 0
    ),
    "index_add": lambda c: lib.st_index_copy(
        c.t, 1, to_core(np.array([0], np.int64)).t, to_core(np.ones((3, 1))).t, 1, 0
    ),
    "index_fill": lambda c: lib.st_index_fill(
        c.t, 1, to_core(np.array([0], np.int64)).t, _core.scalar_buffer(5.0, "float64"), 0
    ),
    "scatter": lambda c: lib.st_scatter(
        c.t, 1, to_core(np.zeros((3, 1), np.int64)).t, to_core(np.ones((3, 1))).t, 0, 0
    ),
    "scatter_fill": lambda c: lib.st_scatter_fill(
        c.t, 1, to_core(np.zeros((3, 1), np.int64)).t, _core.scalar_buffer(5.0, "float64"), 0
    ),
    "masked_copy": lambda c: lib.st_masked_copy(
        c.t, to_core(np.ones((3, 4), bool)).t, to_core(np.ones(12)).t
    ),
    "masked_fill": lambda c: lib.st_masked_fill(
        c.t, to_core(np.ones((3, 4), bool)).t, _core.scalar_buffer(5.0, "float64")
    ),
    "sort": lambda c: lib.st_sort(c.t, _core.ffi.NULL, c.t, 1, 0, 0),
}


@pytest.mark.parametrize("op", list(WRITERS))
def test_read_only_destination_refused(op):
    a = read_only(np.arange(12.0)[::-1].reshape(3, 4))
    before = a.copy()
    with pytest.raises(ValueError, match="read-only"):
        WRITERS[op](borrow(a))
    assert_same(a, before)


@pytest.mark.parametrize("op", list(C_WRITERS))
def test_read_only_destination_refused_by_c(op):
    a = read_only(np.arange(12.0)[::-1].reshape(3, 4))
    before = a.copy()
    with pytest.raises(ValueError, match="read-only"):
        _core.check(C_WRITERS[op](borrow(a)))
    assert_same(a, before)


def test_read_only_inputs_are_fine():
    a = read_only(np.arange(12.0).reshape(3, 4))
    i = read_only(np.array([2, 0], np.int64))
    assert_same(to_numpy(ix.index_select(borrow(a), 1, borrow(i))), a[:, [2, 0]])
    assert_same(to_numpy(ix.masked_select(borrow(a), borrow(read_only(a > 4)))), a[a > 4])
    assert_same(to_numpy(ix.sort(borrow(a), 0, descending=True)), a[::-1])

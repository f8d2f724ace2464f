"""Sorting (strided/_c/sort.c through strided/_indexing.py): sort and argsort
along every axis, ascending and descending, every dtype, inputs in every
layout, empty and 0-d shapes, in place, lanes on both sides of the radix
threshold (128) and lanes of 1e5 elements.

The order is the one strided.h documents.  Ascending: x before y iff x < y,
NaN after everything (complex: lexicographic on (real, imag), a NaN in
either part puts it after everything), and equal values -- 0.0 and -0.0,
all NaNs -- keep their input order.  Descending: the exact reverse among
unequal values (NaN first), equal values still in input order.  The oracle
is Python's stable `sorted` of positions keyed by that order; for real
dtypes ascending it must also agree with numpy's argsort(kind='stable')."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided
from helpers import DTYPE_NAMES, NUMPY, arrays, borrow, layouts, shapes, to_core, to_numpy
from strided.core import base as _core, indexing as ix
from strided._c._strided import lib

REAL = [n for n in DTYPE_NAMES if n not in ("complex64", "complex128")]  # bool included
RADIX = REAL  # the dtypes with a radix path


# ---------------------------------------------------------------- the oracle


def sort_key(dt, descending):
    """A Python key whose ascending order is the core's order for dt."""
    kind = NUMPY[dt].kind
    if kind in "biu":
        return (lambda v: -int(v)) if descending else (lambda v: int(v))
    if kind == "f":
        if descending:
            return lambda v: (0, 0.0) if v != v else (1, -v)
        return lambda v: (1, 0.0) if v != v else (0, v)

    def ckey(v):
        nan = v.real != v.real or v.imag != v.imag
        if descending:
            return (0, 0.0, 0.0) if nan else (1, -v.real, -v.imag)
        return (1, 0.0, 0.0) if nan else (0, v.real, v.imag)

    return ckey


def oracle_argsort(a, axis, descending):
    """Stable positions along axis, lane by lane, by Python's sorted."""
    if a.ndim == 0:
        return np.zeros((), np.int64)
    key = sort_key(a.dtype.name, descending)
    moved = np.moveaxis(a, axis, -1)
    lanes = moved.reshape(-1, moved.shape[-1]) if moved.size else moved.reshape(0, moved.shape[-1])
    out = np.empty(lanes.shape, np.int64)
    for r, lane in enumerate(lanes):
        keys = [key(v) for v in lane.tolist()]
        out[r] = sorted(range(len(keys)), key=keys.__getitem__)
    return np.moveaxis(out.reshape(moved.shape), -1, axis)


def oracle_sort(a, axis, descending):
    perm = oracle_argsort(a, axis, descending)
    if a.ndim == 0:
        return a.copy(), perm
    return np.take_along_axis(a, perm, axis), perm


def assert_bits(got, want):
    """Same dtype, shape and bit patterns (a sort only moves elements, so
    NaN payloads and zero signs must survive)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    bits = lambda x: np.ascontiguousarray(x).reshape(-1).view(np.uint8)
    if not np.array_equal(bits(got), bits(want)):
        np.testing.assert_array_equal(got, want)  # shows where
        raise AssertionError(f"bit patterns differ (zero signs or NaN payloads):\n{got}\n{want}")


# ---------------------------------------------------------------- strategies


def tie_elements(dt):
    """Few distinct values (frequent ties), with NaN, +-0.0 and +-inf for floats."""
    kind = NUMPY[dt].kind
    if kind == "b":
        return None
    if kind == "f":
        return st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan])
    if kind == "c":
        parts = [0.0, -0.0, 1.0, -1.0, np.inf, np.nan]
        return st.builds(complex, st.sampled_from(parts), st.sampled_from(parts))
    info = np.iinfo(NUMPY[dt])
    return st.sampled_from(sorted({int(info.min), int(info.max), 0, 1, 2}))


@st.composite
def sort_input(draw, dt, shape=shapes):
    el = draw(st.sampled_from([None, tie_elements(dt)]))
    a = draw(arrays(dt, shape, elements=el))
    return draw(layouts(a))


def axis_of(draw, ndim):
    return draw(st.integers(-max(ndim, 1), max(ndim, 1) - 1), label="axis")


# ---------------------------------------------------------------- every dtype, axis, direction


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_sort_and_argsort(dt, descending, data):
    a = data.draw(sort_input(dt), label="a")
    axis = axis_of(data.draw, a.ndim)
    want_v, want_i = oracle_sort(a, axis, descending)
    c = borrow(a)
    got_v = ix.sort(c, axis, descending)
    got_i = ix.argsort(c, axis, descending)
    assert got_v.dtype.name == dt and got_i.dtype.name == "int64"
    assert_bits(to_numpy(got_v), want_v)
    assert_bits(to_numpy(got_i), want_i)
    if NUMPY[dt].kind != "c" and not descending and a.ndim:
        np.testing.assert_array_equal(to_numpy(got_i), np.argsort(a, axis, kind="stable"))


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dt", ["int8", "uint32", "float32", "float64", "complex64", "bool"])
@given(data=st.data())
def test_sort_in_place(dt, descending, data):
    a = data.draw(sort_input(dt), label="a")
    if not a.flags.writeable:
        a = a.copy()
    axis = axis_of(data.draw, a.ndim)
    want_v, _ = oracle_sort(a, axis, descending)
    c = borrow(a)
    assert ix.sort(c, axis, descending, out=c) is c
    assert_bits(a, want_v)


@pytest.mark.parametrize("dt", ["int16", "float64", "complex128"])
@given(data=st.data())
def test_sort_into_a_non_contiguous_output(dt, data):
    a = data.draw(sort_input(dt, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6)), label="a")
    axis = axis_of(data.draw, a.ndim)
    descending = data.draw(st.booleans())
    out = np.zeros(tuple(2 * n for n in a.shape), a.dtype)[
        tuple(slice(None, None, -2) for _ in a.shape)
    ]
    ix.sort(borrow(a), axis, descending, out=borrow(out))
    assert_bits(out, oracle_sort(a, axis, descending)[0])


@pytest.mark.parametrize("dt", ["int32", "float32", "complex64"])
def test_argsort_base1(dt):
    a = np.array([[3, 1, 2, 1], [0, 5, 5, -1]], NUMPY[dt])
    got = to_numpy(ix.argsort(to_core(a), 1, flags=lib.ST_IDX_BASE1))
    assert_bits(got, np.argsort(a, 1, kind="stable") + 1)
    got = to_numpy(ix.argsort(to_core(a), 0, True, flags=lib.ST_IDX_BASE1))
    assert_bits(got, oracle_argsort(a, 0, True) + 1)


# ---------------------------------------------------------------- the documented order, spelled out


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_float_order_nan_signed_zero_inf(dt):
    a = np.array([1.0, np.nan, -0.0, 2.0, 0.0, -np.inf, np.nan, -0.0, np.inf, 1.0], NUMPY[dt])
    asc = to_numpy(ix.argsort(to_core(a)))
    desc = to_numpy(ix.argsort(to_core(a), descending=True))
    assert asc.tolist() == [5, 2, 4, 7, 0, 9, 3, 8, 1, 6]
    assert desc.tolist() == [1, 6, 8, 3, 0, 9, 2, 4, 7, 5]
    v = to_numpy(ix.sort(to_core(a)))
    assert np.signbit(v[1:4]).tolist() == [True, False, True]  # zeros keep input order


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_order(dt):
    nan = float("nan")
    a = np.array(
        [
            complex(1, 2),
            complex(nan, 0),
            complex(1, -1),
            complex(0, nan),
            complex(-1, 5),
            complex(1, 2),
            complex(-0.0, 0),
        ],
        NUMPY[dt],
    )
    assert to_numpy(ix.argsort(to_core(a))).tolist() == [4, 6, 2, 0, 5, 1, 3]
    assert to_numpy(ix.argsort(to_core(a), descending=True)).tolist() == [1, 3, 0, 5, 2, 6, 4]


def test_descending_keeps_ties_in_input_order():
    a = np.array([2, 1, 2, 3, 1, 2], np.int64)
    assert to_numpy(ix.argsort(to_core(a), descending=True)).tolist() == [3, 0, 2, 5, 1, 4]
    # which differs from reversing the ascending order
    assert to_numpy(ix.argsort(to_core(a)))[::-1].tolist() != [3, 0, 2, 5, 1, 4]


# ---------------------------------------------------------------- lane lengths: radix threshold and long lanes


def lane_values(dt, n, rng, ties):
    """n values of dt: few distinct ones (ties), or spread over the range;
    floats with NaN, +-0.0 and +-inf sprinkled in."""
    kind = NUMPY[dt].kind
    if kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind in "iu":
        info = np.iinfo(NUMPY[dt])
        if ties:
            pool = np.array(
                sorted({int(info.min), -3 if kind == "i" else 3, 0, 1, 7, int(info.max)}),
                dtype=NUMPY[dt],
            )
            return rng.choice(pool, n)
        return rng.integers(int(info.min), int(info.max), n, dtype=NUMPY[dt], endpoint=True)
    if kind == "f":
        x = (
            rng.integers(-4, 5, n).astype(NUMPY[dt])
            if ties
            else rng.standard_normal(n).astype(NUMPY[dt])
        )
        special = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, -np.nan], NUMPY[dt])
        where = rng.random(n) < 0.05
        x[where] = rng.choice(special, where.sum())
        return x
    z = np.empty(n, NUMPY[dt])
    z.real = lane_values("float64", n, rng, ties)
    z.imag = lane_values("float64", n, rng, ties)
    return z


LENGTHS = [1, 2, 15, 16, 17, 127, 128, 129, 300]


@pytest.mark.parametrize("ties", [True, False], ids=["ties", "spread"])
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dt", DTYPE_NAMES)
def test_lane_lengths_around_the_thresholds(dt, n, ties):
    rng = np.random.default_rng(n * 31 + DTYPE_NAMES.index(dt))
    a = lane_values(dt, 3 * n, rng, ties).reshape(3, n)
    for view, axis in [
        (a, 1),
        (a, -1),
        (np.ascontiguousarray(a.T), 0),
        (a[:, ::-1], 1),
        (np.ascontiguousarray(a.T).T, 1),
    ]:
        for descending in (False, True):
            want_v, want_i = oracle_sort(view, axis, descending)
            assert_bits(to_numpy(ix.argsort(borrow(view), axis, descending)), want_i)
            assert_bits(to_numpy(ix.sort(borrow(view), axis, descending)), want_v)
    # in place, on a strided lane
    b = a.copy()[:, ::-1]
    want_v, _ = oracle_sort(b, 1, True)
    c = borrow(b)
    ix.sort(c, 1, True, out=c)
    assert_bits(b, want_v)


@pytest.mark.parametrize("dt", DTYPE_NAMES)
def test_long_lanes(dt):
    """1e5-element lanes: the radix sort (merge sort for complex) with scratch
    from the per-thread pool; lanes contiguous and strided; 1 and 2 threads."""
    rng = np.random.default_rng(DTYPE_NAMES.index(dt))
    n = 100_000
    a = lane_values(dt, 2 * n, rng, ties=bool(DTYPE_NAMES.index(dt) % 2)).reshape(2, n)
    wants = {d: oracle_sort(a, 1, d) for d in (False, True)}
    before = strided.getnumthreads()
    try:
        for nt in (1, 2):
            strided.setnumthreads(nt)
            for view, axis, t in [(a, 1, False), (np.ascontiguousarray(a.T), 0, True)]:
                for d in (False, True):
                    wv, wi = (x.T if t else x for x in wants[d])
                    assert_bits(to_numpy(ix.argsort(borrow(view), axis, d)), wi)
                    assert_bits(to_numpy(ix.sort(borrow(view), axis, d)), wv)
    finally:
        strided.setnumthreads(before)
    if NUMPY[dt].kind != "c":
        np.testing.assert_array_equal(wants[False][1], np.argsort(a, 1, kind="stable"))


def test_many_lanes_threads():
    rng = np.random.default_rng(9)
    a = rng.integers(-5, 5, (2000, 150)).astype(np.float32)
    a[rng.random(a.shape) < 0.01] = np.nan
    want = np.argsort(a, 1, kind="stable")
    before = strided.getnumthreads()
    try:
        for nt in (1, 2):
            strided.setnumthreads(nt)
            assert_bits(to_numpy(ix.argsort(to_core(a), 1)), want)
            assert_bits(to_numpy(ix.argsort(borrow(a.T), 0)), want.T)
    finally:
        strided.setnumthreads(before)


# ---------------------------------------------------------------- refusals


def test_sort_bad_arguments():
    a = to_core(np.zeros((3, 4)))
    with pytest.raises(IndexError, match="2"):
        ix.sort(a, 2)
    with pytest.raises(IndexError, match="-3"):
        ix.argsort(a, -3)
    with pytest.raises(ValueError, match=r"\(4, 3\)"):
        ix.sort(a, 0, out=_core.Core.empty((4, 3), "float64"))
    with pytest.raises(TypeError, match="float32"):
        ix.sort(a, 0, out=_core.Core.empty((3, 4), "float32"))
    # C refuses values and indices sharing memory
    v = _core.Core.empty((3, 4), "int64")
    with pytest.raises(ValueError, match="share"):
        _core.check(lib.st_sort(v.t, v.t, to_core(np.zeros((3, 4), np.int64)).t, 0, 0, 0))


def test_sort_output_overlapping_input_reads_a_copy():
    """An output that is another view of the input (not the same view) must
    not see its own writes."""
    base = np.array([[5.0, 1.0, 4.0], [3.0, 9.0, 0.0], [7.0, 2.0, 6.0]])
    a = base.copy()
    want = np.sort(a.T, axis=1)
    c = borrow(a)
    ix.sort(
        _core.Core.over(c.storage, "float64", c.offset, (3, 3), (1, 3)), 1, out=c
    )  # sort a.T's rows into a's rows
    assert_bits(a, want)

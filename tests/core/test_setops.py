"""The C checks of setops.c (st_run_starts, st_unique_fill, st_searchsorted,
st_isin) called directly, and strided.core.setops over Cores: every bad
argument is refused with a status naming it before anything is read
through an index or written; inputs of any stride.  The values themselves
are tested against numpy in tests/compat/test_compat_set.py."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from helpers import borrow, to_core, to_numpy
from strided.core import base as _core, setops as _setops
from strided._c._strided import ffi, lib
from strided.core.base import Core, check

I64 = _core.int64


def c(values, dt="int64"):
    return to_core(np.array(values, dtype=dt))


def run_starts(sorted_):
    starts = Core.empty(sorted_.shape, _core.bool_)
    n = ffi.new("int64_t *")
    check(lib.st_run_starts(starts.t, sorted_.t, n))
    return starts, n[0]


def T(x):
    return x.t if x is not None else ffi.NULL


# ---------------------------------------------------------------- st_run_starts


def test_run_starts_counts_runs_with_nan_and_signed_zeros():
    s = c([-0.0, 0.0, 1.0, np.nan, np.nan], "float64")
    starts, n = run_starts(s)
    assert n == 4
    np.testing.assert_array_equal(to_numpy(starts), [True, False, True, True, True])
    z = c([1 + 0j, complex(1, -0.0), complex(np.nan, 0), complex(np.nan, 0)], "complex64")
    assert run_starts(z)[1] == 3
    assert run_starts(c([], "uint16"))[1] == 0


def test_run_starts_strided_input():
    a = np.array([5, 5, 1, 1, 0, 0], np.int32)  # read backwards: 0 0 1 1 5 5
    starts, n = run_starts(borrow(a[::-1]))
    assert n == 3
    np.testing.assert_array_equal(to_numpy(starts), [1, 0, 1, 0, 1, 0])


def test_run_starts_checks():
    s = c([1, 2, 3])
    n = ffi.new("int64_t *")
    with pytest.raises(TypeError, match="starts must be bool"):
        check(lib.st_run_starts(Core.empty((3,), I64).t, s.t, n))
    with pytest.raises(ValueError, match="starts has 2 elements, expected 3"):
        check(lib.st_run_starts(Core.empty((2,), _core.bool_).t, s.t, n))
    with pytest.raises(ValueError, match="sorted must be 1-D"):
        check(lib.st_run_starts(Core.empty((3,), _core.bool_).t, c([[1, 2]]).t, n))
    ro = np.zeros(3, bool)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        check(lib.st_run_starts(borrow(ro).t, s.t, n))


# ---------------------------------------------------------------- st_unique_fill


def fill(sorted_, perm, starts, k, values=True, indices=True, counts=True, inverse=True):
    n = sorted_.shape[0]
    outs = dict(
        values=Core.empty((k,), sorted_.dtype) if values else None,
        indices=Core.empty((k,), I64) if indices else None,
        counts=Core.empty((k,), I64) if counts else None,
        inverse=Core.empty((n,), I64) if inverse else None,
    )
    check(
        lib.st_unique_fill(
            T(outs["values"]),
            T(outs["indices"]),
            T(outs["counts"]),
            T(outs["inverse"]),
            sorted_.t,
            T(perm),
            starts.t,
        )
    )
    return {k: to_numpy(v) for k, v in outs.items() if v is not None}


def test_unique_fill_from_a_sort():
    x = np.array([3, 1, 3, 2, 1, 3], np.int16)
    s = c(np.sort(x, kind="stable"), "int16")
    perm = c(np.argsort(x, kind="stable"))
    starts, k = run_starts(s)
    got = fill(s, perm, starts, k)
    np.testing.assert_array_equal(got["values"], [1, 2, 3])
    np.testing.assert_array_equal(got["indices"], [1, 3, 0])
    np.testing.assert_array_equal(got["counts"], [2, 1, 3])
    np.testing.assert_array_equal(got["inverse"], [2, 0, 2, 1, 0, 2])
    only = fill(s, None, starts, k, indices=False, inverse=False)
    np.testing.assert_array_equal(only["counts"], [2, 1, 3])


def test_unique_fill_checks_before_writing():
    s, perm = c([1, 1, 2]), c([0, 1, 2])
    starts, k = run_starts(s)
    with pytest.raises(ValueError, match="need the permutation"):
        fill(s, None, starts, k)
    with pytest.raises(ValueError, match="values has 3 elements, expected 2"):
        fill(s, perm, starts, 3)
    with pytest.raises(TypeError, match="perm must be int64"):
        fill(s, c([0, 1, 2], "int32"), starts, k)
    with pytest.raises(ValueError, match="perm has 2 elements but sorted 3"):
        fill(s, c([0, 1]), starts, k)
    with pytest.raises(TypeError, match="starts must be bool"):
        fill(s, perm, c([1, 0, 1], "uint8"), k)
    # the first element always begins a run: else run numbers start at -1
    with pytest.raises(ValueError, match="starts\\[0\\] is not set"):
        fill(s, perm, c([False, False, True], "bool"), 1)
    # inverse is written at perm's values: each must be in [0, n)
    for bad in ([0, 1, 3], [0, -1, 2], [2, 1, 1 << 62]):
        with pytest.raises(IndexError, match="perm\\[.\\] = .* out of range \\[0, 3\\)"):
            fill(s, c(bad), starts, k)
    fill(s, c([0, 1, 3]), starts, k, inverse=False)  # indices only copy perm's values


def test_unique_fill_refuses_shared_memory():
    s, perm = c([1, 1, 2]), c([0, 1, 2])
    starts, k = run_starts(s)
    counts = Core.empty((k,), I64)
    with pytest.raises(ValueError, match="indices shares memory with counts"):
        check(lib.st_unique_fill(ffi.NULL, counts.t, counts.t, ffi.NULL, s.t, perm.t, starts.t))
    with pytest.raises(ValueError, match="inverse shares memory with perm"):
        check(lib.st_unique_fill(ffi.NULL, ffi.NULL, ffi.NULL, perm.t, s.t, perm.t, starts.t))


@pytest.mark.parametrize("dt", ["int8", "int16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("nt", [1, 2, 3])
def test_runs_and_fill_in_chunks_across_threads(dt, nt):
    """Long inputs split into chunks over threads (the walks of run_starts and
    unique_fill): runs that cross chunks, one run longer than several
    chunks, chunks that begin no run; the same answer as numpy's at any
    thread count, through a strided sorted input too."""
    rng = np.random.default_rng(12)
    n = 300_000
    x = rng.integers(0, 5000, n)
    x[50_000:190_000] = 7  # one run over several chunks
    x = x.astype(dt)
    order = np.argsort(x, kind="stable")
    srt = x[order]
    want_v, want_i, want_inv, want_c = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    old = _core.getnumthreads()
    try:
        _core.setnumthreads(nt)
        for s in (c(srt, dt), borrow(np.repeat(srt, 2)[::2])):  # contiguous, stepped
            starts, k = run_starts(s)
            assert k == len(want_v)
            np.testing.assert_array_equal(
                np.flatnonzero(to_numpy(starts)), np.flatnonzero(np.r_[True, srt[1:] != srt[:-1]])
            )
            got = fill(s, c(order), starts, k)
            np.testing.assert_array_equal(got["values"], want_v)
            np.testing.assert_array_equal(got["indices"], want_i)
            np.testing.assert_array_equal(got["counts"], want_c)
            np.testing.assert_array_equal(got["inverse"], want_inv)
            only = fill(s, None, starts, k, indices=False, inverse=False)
            np.testing.assert_array_equal(only["counts"], want_c)
    finally:
        _core.setnumthreads(old)


@pytest.mark.parametrize("nt", [1, 2])
def test_searches_in_groups(nt):
    """The searches go 16 needles at a time: every remainder of a group,
    both sides, through a sorter, needles that are NaN, -0.0, below and
    above everything; numpy's answers."""
    rng = np.random.default_rng(13)
    hay = np.sort(np.r_[rng.normal(size=5000), [np.nan] * 3, [0.0, -0.0] * 4])
    old = _core.getnumthreads()
    try:
        _core.setnumthreads(nt)
        for m in (0, 1, 15, 16, 17, 33, 100_003):
            v = np.r_[rng.choice(hay, m // 2), rng.normal(size=m - m // 2)]
            v[::7] = np.nan if m > 7 else v[::7]
            v[3::11] = -0.0
            v[5::13] = 1e300
            rng.shuffle(v)
            for side in ("left", "right"):
                got = to_numpy(
                    _setops.searchsorted(c(hay, "float64"), c(v, "float64"), right=side == "right")
                )
                np.testing.assert_array_equal(got, np.searchsorted(hay, v, side=side))
            perm = rng.permutation(len(hay))
            shuffled = np.empty_like(hay)
            shuffled[perm] = hay
            got = to_numpy(
                _setops.searchsorted(
                    c(shuffled, "float64"),
                    c(v, "float64"),
                    sorter=c(np.argsort(shuffled, kind="stable")),
                )
            )
            np.testing.assert_array_equal(got, np.searchsorted(hay, v))
            for invert in (False, True):
                got = to_numpy(_setops.isin(c(v, "float64"), c(shuffled, "float64"), invert))
                np.testing.assert_array_equal(got, np.isin(v, hay, invert=invert))
    finally:
        _core.setnumthreads(old)


# ---------------------------------------------------------------- st_searchsorted / st_isin


def test_searchsorted_core_checks():
    s, v = c([1, 2, 3]), c([[2, 5]])
    out = Core.empty((1, 2), I64)
    with pytest.raises(TypeError, match="needles are int32 but sorted is int64"):
        check(lib.st_searchsorted(out.t, s.t, ffi.NULL, c([2], "int32").t, 0))
    with pytest.raises(ValueError, match="out has shape \\(2,\\), expected needles's \\(1, 2\\)"):
        check(lib.st_searchsorted(Core.empty((2,), I64).t, s.t, ffi.NULL, v.t, 0))
    with pytest.raises(TypeError, match="out must be int64"):
        check(lib.st_searchsorted(Core.empty((1, 2), _core.int32).t, s.t, ffi.NULL, v.t, 0))
    with pytest.raises(TypeError, match="sorter must be int64"):
        check(lib.st_searchsorted(out.t, s.t, c([0, 1, 2], "int32").t, v.t, 0))
    with pytest.raises(ValueError, match="sorter has 2 elements but sorted 3"):
        check(lib.st_searchsorted(out.t, s.t, c([0, 1]).t, v.t, 0))
    with pytest.raises(IndexError, match="sorter\\[1\\] = -4 is out of range \\[0, 3\\)"):
        check(lib.st_searchsorted(out.t, s.t, c([0, -4, 2]).t, v.t, 0))
    with pytest.raises(ValueError, match="out shares memory with needles"):
        check(lib.st_searchsorted(v.t, s.t, ffi.NULL, v.t, 0))
    with pytest.raises(ValueError, match="sorted must be 1-D"):
        check(lib.st_searchsorted(out.t, v.t, ffi.NULL, v.t, 0))


def test_isin_core_checks():
    s, v = c([1.0, 2.0], "float32"), c([2.0, 3.0], "float32")
    with pytest.raises(TypeError, match="out must be bool"):
        check(lib.st_isin(Core.empty((2,), I64).t, v.t, s.t, 0))
    with pytest.raises(TypeError, match="needles are float64 but sorted is float32"):
        check(lib.st_isin(Core.empty((1,), _core.bool_).t, c([1.0], "float64").t, s.t, 0))


def test_setops_python_layer():
    s = c([5, 1, 3])
    assert to_numpy(_setops.searchsorted(s, c([3]), sorter=c([1, 2, 0])))[0] == 1
    with pytest.raises(TypeError, match="sorter must be int64"):
        _setops.searchsorted(s, c([3]), sorter=c([1, 2, 0], "int32"))
    with pytest.raises(ValueError, match="sorter has shape"):
        _setops.searchsorted(s, c([3]), sorter=c([1, 2]))
    with pytest.raises(TypeError, match="needles are float64"):
        _setops.searchsorted(s, c([3.0], "float64"))
    with pytest.raises(TypeError, match="must be a Core"):
        _setops.unique([1, 2])
    values, first, inv, counts = _setops.unique(c([[2, 1], [2, 2]]), inverse=True)
    assert first is None and counts is None
    np.testing.assert_array_equal(to_numpy(values), [1, 2])
    np.testing.assert_array_equal(to_numpy(inv), [[1, 0], [1, 1]])
    np.testing.assert_array_equal(
        to_numpy(_setops.isin(c([[1, 4]]), c([[4, 4], [0, 0]]))), [[False, True]]
    )


# ---------------------------------------------------------------- counted, not sorted


def _numpy_unique(a):
    values, first, inverse, counts = np.unique(
        a, return_index=True, return_inverse=True, return_counts=True
    )
    return values, first, inverse.reshape(a.shape), counts


@pytest.mark.parametrize(
    "dt", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
)
@given(
    n=st.integers(1, 3000),
    span=st.integers(1, 300),
    shift=st.integers(-100, 100),
    step=st.sampled_from([1, 2, -1]),
)
def test_integers_of_a_small_span_are_counted_with_the_sorted_results(dt, n, span, shift, step):
    """Integers whose values span fewer numbers than there are elements (or
    than 4096) take st_unique_small_span: values, first positions, inverse
    and counts exactly numpy's, in any layout, each output alone too."""
    info = np.iinfo(dt)
    lo = max(int(info.min), min(int(info.max) - span, shift + (0 if info.min < 0 else 100)))
    rng = np.random.default_rng(n * 7 + span)
    a = rng.integers(lo, lo + span, n * abs(step), endpoint=False).astype(dt)[::step]
    want = _numpy_unique(a)
    got = [to_numpy(x) for x in _setops.unique(borrow(a), True, True, True)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
    alone = _setops.unique(borrow(a))
    np.testing.assert_array_equal(to_numpy(alone[0]), want[0])
    assert alone[1:] == (None, None, None)


@pytest.mark.parametrize(
    "a",
    [
        np.array([0, 2**63 + 5, 3, 3], np.uint64),  # past int64: declined, sorted
        np.array([-(2**62), 2**62, 0], np.int64),  # too wide a span: sorted
        np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max], np.int64),  # span overflows
        np.array([7], np.int8),
        np.array([], np.int32),
        np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::-2],  # 2-D, flattened
    ],
)
def test_integer_unique_edges(a):
    want = _numpy_unique(a)
    got = [to_numpy(x) for x in _setops.unique(borrow(a), True, True, True)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)

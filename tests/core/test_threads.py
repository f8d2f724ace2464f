"""Threads: setnumthreads/getnumthreads, the GIL released while C runs,
kernels safe to run from several Python threads, errors kept per thread."""

import threading
import time

import numpy as np
import pytest

import strided
from strided.core import base as _core, ops as _ops, views as _views
from helpers import borrow, to_core, to_numpy


def test_setnumthreads_roundtrip():
    before = strided.getnumthreads()
    try:
        strided.setnumthreads(1)
        assert strided.getnumthreads() == 1
        strided.setnumthreads(3)
        assert strided.getnumthreads() == 3
    finally:
        strided.setnumthreads(before)


@pytest.mark.parametrize("bad", [0, -2])
def test_setnumthreads_rejects_nonpositive(bad):
    with pytest.raises(ValueError, match=str(bad)):
        strided.setnumthreads(bad)


@pytest.mark.parametrize("nthreads", [1, 2, 4])
def test_results_do_not_depend_on_thread_count(nthreads):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((300, 1000))
    before = strided.getnumthreads()
    try:
        strided.setnumthreads(nthreads)
        c = to_core(a)
        np.testing.assert_allclose(to_numpy(_ops.reduce("sum", c)), a.sum(), rtol=1e-12)
        np.testing.assert_allclose(to_numpy(_ops.reduce("sum", c, 0)), a.sum(0), rtol=1e-12)
        np.testing.assert_allclose(to_numpy(_ops.reduce("max", c, 1)), a.max(1))
        np.testing.assert_array_equal(to_numpy(_ops.binary("add", c, c)), a + a)
    finally:
        strided.setnumthreads(before)


def test_gil_released_during_kernel():
    # While one thread is inside a long C call, the main thread must keep
    # running Python code: with the GIL held it could not take a single
    # timestamp inside the call's interval.
    big = _core.full((40_000_000,), 1.0, "float64")
    window = {}

    def worker():
        window["start"] = time.perf_counter()
        for _ in range(5):
            _ops.unary("exp", big, out=big)
        window["end"] = time.perf_counter()

    t = threading.Thread(target=worker)
    stamps = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    inside = [s for s in stamps if window["start"] < s < window["end"]]
    assert len(inside) > 100


def test_concurrent_kernels_are_correct():
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(200_000) for _ in range(4)]
    results = [None] * 4

    def work(i):
        c = to_core(arrays[i])
        for _ in range(20):
            r = _ops.reduce("sum", _ops.binary("multiply", c, c))
        results[i] = _core.item(r)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, r in zip(arrays, results):
        assert r == pytest.approx(float((a * a).sum()), rel=1e-12)


def test_error_messages_stay_with_their_thread():
    errors = {}

    def fail(name, shape):
        try:
            for _ in range(200):
                try:
                    # Core.over hands the sizes to C unchecked by Python
                    _core.Core.over(_core.ffi.NULL, "float64", 0, shape)
                except (ValueError, OverflowError) as e:
                    msg = str(e)
            errors[name] = msg
        except Exception as e:  # pragma: no cover - reported below
            errors[name] = repr(e)

    a = threading.Thread(target=fail, args=("negative", (2, -5)))
    b = threading.Thread(target=fail, args=("overflow", (2**40, 2**40)))
    for t in (a, b):
        t.start()
    for t in (a, b):
        t.join()
    assert "-5" in errors["negative"]
    assert "overflow" in errors["overflow"] and "-5" not in errors["overflow"]


# ---- streaming stores: outputs past ST_STREAM_MIN_BYTES (32 MiB of operands)
# that no input shares memory with are written with non-temporal stores, a
# block at a time, split over the threads.  Every layout and alignment must
# give numpy's exact values.

BIG = 4_500_003  # 3 float32 operands: 54 MB, odd, not a multiple of any block


@pytest.fixture(params=[1, 2])
def threads(request):
    before = strided.getnumthreads()
    strided.setnumthreads(request.param)
    yield request.param
    strided.setnumthreads(before)


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "less", "equal"])
@pytest.mark.parametrize("skew", [0, 1, 3])
def test_streamed_binary_matches_numpy(threads, dt, op, skew):
    rng = np.random.default_rng(skew)
    a = (rng.standard_normal(BIG + skew) * 100).astype(dt)
    b = (rng.standard_normal(BIG + skew) * 100).astype(dt)
    want = getattr(np, op)(a[skew:], b[skew:])
    # a skewed output start: the stream head (normal stores) is not empty
    out = np.zeros(BIG + 2 * skew + 1, want.dtype)
    got = out[skew : skew + BIG]
    _ops.binary(op, borrow(a[skew:]), borrow(b[skew:]), out=borrow(got))
    np.testing.assert_array_equal(got, want)
    assert not out[:skew].any() and not out[skew + BIG :].any()


@pytest.mark.parametrize("dt", ["float32", "float64", "bool"])
def test_streamed_broadcast_transposed_and_in_place(threads, dt):
    rng = np.random.default_rng(1)
    a = (
        rng.standard_normal((4501, 1001)) > 0
        if dt == "bool"
        else rng.standard_normal((4501, 1001)).astype(dt)
    )
    row = rng.standard_normal(1001) > 0 if dt == "bool" else rng.standard_normal(1001).astype(dt)
    op = "logical_xor" if dt == "bool" else "add"
    f = np.logical_xor if dt == "bool" else np.add
    np.testing.assert_array_equal(to_numpy(_ops.binary(op, to_core(a), to_core(row))), f(a, row))
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(a[::-1].T)
    got = _ops.binary(op, _views.transpose(borrow(at), 0, 1), _views.transpose(borrow(bt), 0, 1))
    np.testing.assert_array_equal(to_numpy(got), f(at.T, bt.T))
    # out == a: not streamed (the lines are in the cache already), same values
    inplace = a.copy()
    c = borrow(inplace)
    _ops.binary(op, c, to_core(row), out=c)
    np.testing.assert_array_equal(inplace, f(a, row))


@pytest.mark.parametrize("op", ["sqrt", "exp", "negative"])
def test_streamed_unary_matches_numpy(threads, op):
    rng = np.random.default_rng(2)
    a = np.abs(rng.standard_normal(BIG + 1))
    out = np.zeros(BIG + 1)
    _ops.unary(op, borrow(a[1:]), out=borrow(out[1:]))
    got, want = out[1:], getattr(np, op)(a[1:])
    if op == "exp":
        np.testing.assert_allclose(got, want, rtol=4e-16)
    else:
        np.testing.assert_array_equal(got, want)
    assert out[0] == 0

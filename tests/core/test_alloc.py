"""The core's block cache (strided/_c/alloc.c, strided.memory): freed large
blocks are reused by size class, never show a freed array's bytes to
empty/zeros, stay correct under threads and fork, and are bounded."""

import os
import sys
import threading

import numpy as np
import pytest

import strided
import strided.compat as xp
import strided.memory
from strided.core.base import lib
from helpers import on_fresh_pages, under_asan

BIG = 1 << 17  # float64 elements: 1 MiB, a cached mapping
BIG_BYTES = BIG * 8


def np_of(a):
    return np.from_dlpack(a)


@pytest.fixture
def fresh_cache():
    """A cache emptied before and after, at its default bound."""
    limit = strided.memory.stats()["limit"]
    strided.memory.release()
    yield
    strided.memory.set_limit(limit)


def test_a_freed_result_is_reused(fresh_cache):
    x = xp.ones(BIG)
    y = x + x
    del y
    st = strided.memory.stats()
    assert st["blocks"] >= 1 and st["bytes"] >= BIG_BYTES
    hits = st["hits"]
    z = x * 3.0  # the same class: the cached block
    assert strided.memory.stats()["hits"] == hits + 1
    assert np_of(z).tolist() == [3.0] * BIG


@pytest.mark.parametrize("n", [BIG, BIG + 17, 3 * BIG // 2, 4 * BIG, (4 << 20) // 8 + 5])
@pytest.mark.parametrize(
    "make", ["empty", "zeros", "empty_like", "t7 Tensor", "t7 Storage", "t7 zeros"]
)
def test_empty_and_zeros_never_show_a_freed_arrays_bytes(fresh_cache, n, make):
    for _ in range(2):  # the second round surely reuses the first's blocks
        junk = [xp.full(m, 7.25) for m in (n, n + 1, n + 64, 5 * n // 4)]
        del junk
        if make == "empty":
            got = np_of(xp.empty(n))
        elif make == "zeros":
            got = np_of(xp.zeros(n))
        elif make == "empty_like":
            got = np_of(xp.empty_like(xp.ones(3), shape=(n,)))
        elif make == "t7 Tensor":
            got = (
                strided.DoubleTensor(n).numpy()
                if hasattr(strided.DoubleTensor(1), "numpy")
                else np.from_dlpack(strided.DoubleTensor(n))
            )
        elif make == "t7 Storage":
            s = strided.DoubleStorage(n)
            got = np.from_dlpack(strided.DoubleTensor(s))
        else:
            got = np.from_dlpack(strided.zeros(n))
        assert got.shape == (n,) and not got.any(), make


def test_storage_resize_grows_with_zeros(fresh_cache):
    junk = xp.full(BIG * 2, 5.0)
    del junk
    s = strided.DoubleStorage(BIG).fill(1)
    s.resize(2 * BIG)
    t = np.from_dlpack(strided.DoubleTensor(s))
    assert t[:BIG].tolist() == [1.0] * BIG and not t[BIG:].any()


def test_large_zeros_take_fresh_pages(fresh_cache):
    z = xp.zeros(BIG)
    assert on_fresh_pages(z._c)  # nothing cached: fresh pages
    del z
    z = xp.zeros(BIG)  # a cached block, cleared
    assert not np_of(z).any()
    huge = xp.zeros((32 << 20) // 8 + 1)  # from 32 MiB on: always fresh pages
    assert on_fresh_pages(huge._c)
    assert not np_of(huge)[::4096].any()


def test_the_bound_holds_and_zero_keeps_nothing(fresh_cache):
    strided.memory.set_limit(3 * BIG_BYTES)
    arrays = [xp.ones(BIG) * k for k in range(8)]
    del arrays
    st = strided.memory.stats()
    assert st["limit"] == 3 * BIG_BYTES and 0 < st["bytes"] <= 3 * BIG_BYTES
    strided.memory.set_limit(0)
    assert strided.memory.stats()["bytes"] == 0
    y = xp.ones(BIG) + 1.0
    del y
    assert strided.memory.stats()["bytes"] == 0
    with pytest.raises(ValueError, match="cache limit must be >= 0"):
        strided.memory.set_limit(-1)


def test_release_gives_everything_back(fresh_cache):
    y = xp.ones(4 * BIG) + 1.0
    del y
    assert strided.memory.release() >= 4 * BIG_BYTES
    assert strided.memory.stats()["bytes"] == 0 and strided.memory.stats()["blocks"] == 0


def test_blocks_not_taken_again_age_out(fresh_cache):
    old = xp.ones(8 * BIG) + 1.0  # its own class
    del old
    assert strided.memory.stats()["bytes"] >= 8 * BIG_BYTES
    x = xp.ones(BIG)
    for _ in range(300):  # more frees than ST_CACHE_AGE (256), of another class
        y = x + 1.0
        del y
    assert strided.memory.stats()["bytes"] < 8 * BIG_BYTES


def test_many_threads_allocating_and_freeing(fresh_cache):
    errors = []
    base = np.arange(BIG, dtype=np.float64)
    x = xp.asarray(base)

    def work(k):
        try:
            for i in range(40):
                n = BIG + (i * 4099 + k * 977) % BIG
                y = x[:n] * float(k + 1) + float(i)
                if not np.array_equal(np_of(y), base[:n] * (k + 1) + i):
                    errors.append((k, i))
                z = xp.zeros(n)
                if np_of(z).any():
                    errors.append(("zeros", k, i))
                del y, z
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.skipif(sys.platform != "linux", reason="fork")
def test_fork_with_a_populated_cache_and_a_busy_thread(fresh_cache):
    x = xp.ones(BIG)
    for k in range(4):
        y = x * float(k)
        del y
    stop = threading.Event()

    def churn():  # holds the cache's lock now and then, while we fork
        while not stop.is_set():
            y = x + 2.0
            del y

    t = threading.Thread(target=churn)
    t.start()
    try:
        pids = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:  # the child: allocate, free, check, leave at once
                ok = True
                try:
                    for k in range(20):
                        y = x * float(k) + 1.0
                        ok &= bool(np_of(y)[BIG - 1] == k + 1.0)
                        ok &= not np_of(xp.zeros(BIG + k)).any()
                        del y
                    strided.memory.release()
                except BaseException:
                    ok = False
                os._exit(0 if ok else 1)
            pids.append(pid)
        for pid in pids:
            _, status = os.waitpid(pid, 0)
            assert os.waitstatus_to_exitcode(status) == 0
    finally:
        stop.set()
        t.join()


def test_kernel_scratch_comes_from_the_cache_too(fresh_cache):
    # an overlapping copy reads its input through a contiguous temporary
    a = xp.asarray(np.arange(4 * BIG, dtype=np.float64))
    want = np.arange(4 * BIG, dtype=np.float64)
    a[1:] = a[:-1]
    want[1:] = want[:-1].copy()
    assert np.array_equal(np_of(a), want)


@pytest.mark.skipif(under_asan(), reason="the sanitizer build's counters differ (quarantine)")
def test_the_c_stats_count_what_they_say(fresh_cache):
    out = strided.core.base.cache_stats()
    assert set(out) == {"bytes", "blocks", "hits", "misses", "limit"}
    assert lib.st_cache_release() == 0

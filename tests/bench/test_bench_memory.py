"""benchmarks/memory.py: the peak of a call sees its output and its
temporaries, for numpy and for ours alike, and not untouched memory."""

import numpy as np
import pytest

from benchmarks import memory
from benchmarks.kinds import TORCH7_FORMS, Sizes, Torch7
from benchmarks.convert import to_core
from benchmarks.run import run_case
from strided.core import ops as _ops
from helpers import under_asan

N = 2 * 10**6  # 16 MB of float64: far above page and huge-page granularity
MB = 10**6
SLACK = 4 * MB  # huge pages (2 MiB), the allocator's bookkeeping

needs_proc = pytest.mark.skipif(not memory.AVAILABLE, reason="/proc/self/clear_refs not writable")


def near(got, want):
    # under AddressSanitizer the core's blocks are mappings whose shadow
    # (an eighth of their bytes) is written when they are poisoned and
    # unpoisoned (alloc.c): it is resident too
    slack = SLACK + (want // 8 if under_asan() else 0)
    return want - slack <= got <= want + slack


@pytest.fixture(scope="module")
def operands():
    a, b = np.ones(N), np.full(N, 2.0)
    return a, b, to_core(a), to_core(b)


@needs_proc
def test_output_only(operands):
    a, b, ca, cb = operands
    assert near(memory.peak_bytes(lambda: np.add(a, b)), 8 * N)
    assert near(memory.peak_bytes(lambda: _ops.binary("add", ca, cb)), 8 * N)


@needs_proc
def test_a_temporary_counts(operands):
    # np.add(np.multiply(...)) is not elided (numpy only reuses temporaries
    # of Python operators): the product lives beside the sum
    a, b, ca, cb = operands
    assert near(memory.peak_bytes(lambda: np.add(np.multiply(a, 2.0), b)), 16 * N)
    assert near(
        memory.peak_bytes(lambda: _ops.binary("add", _ops.binary("multiply", ca, ca), cb)), 16 * N
    )


@needs_proc
def test_freed_memory_reused_still_counts(operands):
    a, b, _, _ = operands
    for _ in range(3):  # earlier results freed: the allocator may hand their blocks back
        np.add(a, b)
    assert near(memory.peak_bytes(lambda: np.add(a, b)), 8 * N)


@needs_proc
def test_untouched_memory_does_not_count():
    assert memory.peak_bytes(lambda: np.empty(N)) < SLACK


@needs_proc
def test_the_peak_not_the_end(operands):
    # the temporary is gone when the call returns; the peak still saw it
    a, b, _, _ = operands
    assert near(memory.peak_bytes(lambda: float(np.add(a, b)[0])), 8 * N)


@needs_proc
def test_in_place_calls_count_their_temporaries_only(monkeypatch):
    # an in-place call allocates no output: its whole peak is temporaries, 0
    # for np.add(a, b, out=a) and a.add_(b), the sum's size for an x.add(y)
    # that makes x + y and copies it into x
    form = TORCH7_FORMS["x.add(y)"]
    monkeypatch.setitem(TORCH7_FORMS, "x.add(y)", form._replace(ours=lambda x, y: x.copy(x + y)))
    sizes = Sizes(n=1000, side=10, part=100, face=N, face_rows=1000)
    res = run_case(Torch7("x.add(y)"), sizes, repeats=1, min_time=1e-3)
    assert res.status == "ok"
    assert near(res.extra_bytes["ours"], 8 * N)
    assert near(res.extra_bytes["numpy"], 0)
    assert "torch" not in res.extra_bytes or near(res.extra_bytes["torch"], 0)


def test_unavailable(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)
    assert memory.peak_bytes(lambda: np.ones(N)) is None

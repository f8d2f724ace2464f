"""benchmarks/memory.py: the peak of a call sees its output and its
temporaries, for numpy and for ours alike, and not untouched memory."""
import numpy as np
import pytest

from benchmarks import memory
from benchmarks.convert import to_core
from strided.core import ops as _ops

N = 2 * 10**6            # 16 MB of float64: far above page and huge-page granularity
MB = 10**6
SLACK = 4 * MB           # huge pages (2 MiB), the allocator's bookkeeping

needs_proc = pytest.mark.skipif(not memory.AVAILABLE, reason="/proc/self/clear_refs not writable")


def near(got, want):
    return want - SLACK <= got <= want + SLACK


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
    assert near(memory.peak_bytes(
        lambda: _ops.binary("add", _ops.binary("multiply", ca, ca), cb)), 16 * N)


@needs_proc
def test_freed_memory_reused_still_counts(operands):
    a, b, _, _ = operands
    for _ in range(3):        # earlier results freed: the allocator may hand their blocks back
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


def test_unavailable(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)
    assert memory.peak_bytes(lambda: np.ones(N)) is None

"""The roofline: this machine's memory bandwidth, measured by our own C,
and each memory-bound case's share of it.

`measure(n)` times STREAM's copy (a = b) and triad (a = b + s * c) over n
float64 (strided/_c/bandwidth.c, on the kernels' threads: 2 by default),
each with normal stores and with streaming (non-temporal) stores, the two
ways the elementwise kernels store.  Bytes are counted as STREAM counts
them: each array read or written once (copy 16 bytes an element, triad
24), not the read-for-ownership a normal store adds, so a streaming
kernel can reach the rate and a normal one tops out near 3/4 (triad) or
2/3 (copy) of it.  The roof is the best of the four rates.

A case declares its `traffic` (Prepared.traffic): the bytes its op must
move at least, counted the same way (every input read once, the output
written once); its roofline share is traffic / our median time / roof.
Compute-bound cases (matmul, FFT, sort, the transcendentals' arithmetic
beyond the memory) declare none, or read low for that reason.

n defaults to the elementwise cases' n: the same working set (here
several times the L2, a part of a large shared L3 that other tenants use
too), so the share answers "how close to what this machine moves at that
size"."""

from __future__ import annotations

import time

from strided.core import base as _core
from strided.core.base import ffi, lib

KINDS = {"copy": 2, "triad": 3}  # float64 arrays each moves per element


def _best(fn, repeats, min_time):
    """The smallest time of one call, over `repeats` samples of >= min_time."""
    fn()
    number, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        t = time.perf_counter() - t0
        if t >= min_time:
            break
        number *= 2
    best = t / number
    for _ in range(repeats - 1):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def measure(n, repeats=7, min_time=0.02):
    """{"copy": GB/s, "triad": GB/s, "copy nt": ..., "triad nt": ..., "roof": the best}
    (GB = 10^9 bytes, STREAM's counting)."""
    arrays = [_core.full((n,), v, _core.float64) for v in (0.0, 1.0, 2.0)]
    a, b, c = (ffi.cast("double *", lib.st_tensor_data(x.t)) for x in arrays)
    rates = {}
    for nt in (0, 1):
        suffix = " nt" if nt else ""
        t = _best(lambda: lib.st_stream_copy(a, b, n, nt), repeats, min_time)
        rates["copy" + suffix] = KINDS["copy"] * 8 * n / t / 1e9
        t = _best(lambda: lib.st_stream_triad(a, b, c, 3.0, n, nt), repeats, min_time)
        rates["triad" + suffix] = KINDS["triad"] * 8 * n / t / 1e9
    rates["roof"] = max(rates.values())
    del arrays
    return rates


def share(traffic, seconds, roof_gbs):
    """The fraction of the roof that moving `traffic` bytes in `seconds` is."""
    if not traffic or not seconds or not roof_gbs:
        return None
    return traffic / seconds / (roof_gbs * 1e9)


def line(rates, threads):
    """The header line that states the roof."""
    return (
        f"Memory bandwidth (our C, {threads} threads, STREAM counting): copy "
        f"{rates['copy']:.1f} GB/s ({rates['copy nt']:.1f} streaming stores), triad "
        f"{rates['triad']:.1f} ({rates['triad nt']:.1f}); roof {rates['roof']:.1f} GB/s, "
        f"the base of the roof% column."
    )


def traffic(case, sizes):
    """The bytes `case`'s op must move at least (every input read once, the
    output written once), or None for a case that is not memory-bound (a
    matrix product, an FFT, a sort, a gather at random places, the small
    calls, the Torch7 forms)."""
    import numpy as np

    kind = type(case).__name__
    item = lambda dt: np.dtype(dt).itemsize
    n = sizes.n
    if kind == "Binary":
        from strided.core import ops as _ops

        res = item(_ops.binary_result(case.op, case.dtype).name)
        if case.layout == "broadcast":
            return n * (item(case.dtype) + res) + sizes.row * item(case.dtype)
        m = n if case.layout == "contiguous" else int(n**0.5) ** 2
        return m * (2 * item(case.dtype) + res)
    if kind == "Math":
        return n * item(case.dtype) * (3 if case.op == "pow" else 2)
    if kind in ("Reduce", "Statistic", "ArgMax"):
        m = n if case.over == "1-D" else sizes.side**2
        return m * item(case.dtype)  # the result: a line at most, left out
    if kind == "CumSum":
        m = n if case.over == "1-D" else sizes.side**2
        return 2 * m * item(case.dtype)
    if kind == "Copy":
        return 2 * sizes.side**2 * item(case.dtype)
    if kind == "Cast":
        return n * (item(case.src) + item(case.dst))
    if kind == "Select" and case.op == "where":
        return n * (1 + 3 * item(case.dtype))
    if kind == "Fused":
        return 4 * n * item(case.dtype)
    return None

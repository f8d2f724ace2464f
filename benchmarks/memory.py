"""Peak memory of one call: how far the process's resident set rose above
where it stood before the call.

The method, the same for every contestant (Linux >= 4.0):
1. collect garbage and hand freed heap pages back to the kernel
   (glibc's malloc_trim), so that memory freed earlier in the run cannot be
   reused unseen: a block taken from the heap must be faulted in afresh
   and so counts;
2. read VmRSS from /proc/self/status (the baseline), then write "5" to
   /proc/self/clear_refs, which resets the peak VmHWM to the current RSS;
3. call, keep the result alive, read VmHWM: the peak minus the baseline is
   every page the call touched that was not resident before, its output
   included.  The table shows it minus the output's size: the temporaries.

Limits:
- Pages, not bytes: 4 KiB, or 2 MiB where a block is backed by transparent
  huge pages (numpy and our st_aligned_alloc ask for them from 4 MiB up),
  so a large result may read up to a few MB above its size.
- Memory that was resident before the call and reused (the allocator's own
  caches: numpy keeps small blocks, torch's allocator may pool) does not
  count; memory allocated but never touched does not count either (it is
  not memory the machine gave).
- Threads: OpenMP workers' stacks are resident after the first parallel
  call, so they do not count; another thread allocating meanwhile would.
Where clear_refs cannot be written (another OS, a restricted container),
`available()` is False and the column reads n/a.
"""

from __future__ import annotations

import ctypes
import gc
import re

import strided.memory

_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"

try:
    _malloc_trim = ctypes.CDLL(None).malloc_trim  # glibc only
except (OSError, AttributeError):
    _malloc_trim = None


def _status_kb(*keys):
    with open(_STATUS) as f:
        text = f.read()
    return [int(re.search(rf"^{k}:\s+(\d+) kB", text, re.M).group(1)) for k in keys]


def _reset_peak():
    with open(_CLEAR_REFS, "w") as f:
        f.write("5")


def available():
    """True when the peak can be reset and read here."""
    try:
        _reset_peak()
        _status_kb("VmHWM", "VmRSS")
    except (OSError, AttributeError):
        return False
    return True


AVAILABLE = available()


def settle():
    """Drop what earlier work left freed but resident: glibc's free memory
    and strided's block cache (alloc.c), so that a block the call takes
    from either counts as the memory it is."""
    gc.collect()
    strided.memory.release()
    if _malloc_trim is not None:
        _malloc_trim(0)


def peak_bytes(fn):
    """Bytes by which the resident set rose above its level before `fn()`,
    at its highest while fn ran (its result kept alive until read), or
    None when the peak cannot be measured here."""
    if not AVAILABLE:
        return None
    settle()
    (before,) = _status_kb("VmRSS")
    _reset_peak()
    result = fn()
    (peak,) = _status_kb("VmHWM")
    del result
    return max(peak - before, 0) * 1024

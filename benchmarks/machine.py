"""The machine: what it is (`describe`, named above every table), and how
busy the rest of it is while we measure.

On a shared machine, another process on one of the two cores makes every
2-thread kernel (ours and torch's) wait for its descheduled half at the end
of each parallel region: a 0.3 ms add can then take 8 ms, while numpy's
single thread barely notices.  So each case records the share of the
machine's CPU time that *other* processes used while it was timed (from
/proc/stat, minus this process's own time), and `--wait-idle` can wait for
a quiet spell before each case.  Linux only; elsewhere the share is None.
"""

from __future__ import annotations

import os
import platform
import time

try:
    _TICK = os.sysconf("SC_CLK_TCK")
except (AttributeError, ValueError, OSError):
    _TICK = 100


def _cpuinfo():
    """{field: value} of the first processor in /proc/cpuinfo ({} elsewhere)."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                info[key.strip()] = value.strip()
    except OSError:
        pass
    return info


def _memory_gib():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (AttributeError, ValueError, OSError):
        return None


def describe():
    """What the numbers were measured on: CPU model, CPUs this process may
    use, the widest x86 SIMD the CPU offers (the kernels' dispatch picks
    it at run time), memory, OS."""
    info = _cpuinfo()
    flags = set(info.get("flags", "").split())
    simd = next(
        (
            name
            for flag, name in (("avx512f", "AVX-512"), ("avx2", "AVX2"), ("sse4_2", "SSE4.2"))
            if flag in flags
        ),
        None,
    )
    mem = _memory_gib()
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count()
    return {
        "cpu": info.get("model name") or platform.processor() or "unknown",
        "cpus": cpus,
        "simd": simd,
        "memory_gib": round(mem, 1) if mem else None,
        "os": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
    }


def machine_line(m):
    """describe() in one line: 'AMD EPYC ..., 2 CPUs, AVX-512, 23.4 GiB, Linux 6.1 (x86_64)'."""
    parts = [m["cpu"], f"{m['cpus']} CPUs"]
    parts += [m["simd"]] if m["simd"] else []
    parts += [f"{m['memory_gib']:g} GiB"] if m["memory_gib"] else []
    return ", ".join(parts) + f"; {m['os']} ({m['machine']})"


def _busy_seconds():
    """CPU seconds every process has used so far (non-idle time, steal included)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[1:9])
    return (user + nice + system + irq + softirq + steal) / _TICK


def _own_seconds():
    t = os.times()
    return t.user + t.system


class OtherLoad:
    """with OtherLoad() as load: ...   then load.share: the fraction of all
    CPUs' time used by other processes meanwhile (0..1), or None."""

    share = None

    def __enter__(self):
        self._busy, self._own, self._wall = _busy_seconds(), _own_seconds(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        busy = _busy_seconds()
        wall = time.perf_counter() - self._wall
        if busy is None or self._busy is None or wall <= 0:
            return
        others = (busy - self._busy) - (_own_seconds() - self._own)
        self.share = min(max(others / (wall * (os.cpu_count() or 1)), 0.0), 1.0)


def wait_idle(max_wait, threshold=0.10, window=0.5):
    """Wait until other processes use < threshold of the CPUs over a window,
    at most max_wait seconds.  Returns the seconds waited."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < max_wait:
        with OtherLoad() as load:
            time.sleep(window)
        if load.share is None or load.share < threshold:
            break
    return time.perf_counter() - t0

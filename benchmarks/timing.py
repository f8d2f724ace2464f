"""The timing method.

1. Calibrate: for each contestant alone, find the number of inner calls
   whose total lasts at least `min_time` (timeit's autorange idea); this
   also warms the call up.
2. Measure: `repeats` rounds; in each round every contestant runs its inner
   loop once, in turn (ours, numpy, torch, ours, numpy, torch, ...), so a
   slow spell of the shared machine hits all three alike.  One sample is
   the time of one inner loop, measured with time.perf_counter, divided by
   its number of calls.  The garbage collector is off while measuring.
3. Report the median of the samples: robust to the odd interrupted round.

Before each sample the process settles (`settle`): a threaded library's
idle workers keep spinning after its last call (OpenBLAS's for about 0.1 s,
numpy's and ours alike), and on a 2-core
machine such a spinning thread would take a core from whichever contestant
runs next, halving its threaded time.  A contestant still pays for its own
spinning between its own calls.
"""

from __future__ import annotations

import gc
import itertools
import math
import statistics
import time
from dataclasses import dataclass, field


@dataclass
class Timing:
    number: int  # inner calls per sample
    samples: list[float] = field(default_factory=list)  # seconds per call

    @property
    def median(self):
        return statistics.median(self.samples)


def _loop(fn, number):
    """Seconds for `number` calls of fn."""
    rep = itertools.repeat(None, number)
    t0 = time.perf_counter()
    for _ in rep:
        fn()
    return time.perf_counter() - t0


def calibrate(fn, min_time, max_number=10**6):
    """The smallest-ish number of calls that lasts >= min_time."""
    number = 1
    while True:
        t = _loop(fn, number)
        if t >= min_time or number >= max_number:
            return number
        # aim 20% past the target from the rate seen, growing at most 100x a step
        want = math.ceil(number * 1.2 * min_time / max(t, 1e-9))
        number = min(max(want, number + 1), number * 100, max_number)


def settle(max_wait=0.5, quantum=0.005):
    """Wait (at most max_wait s) until no thread of this process burns CPU
    through a `quantum`-long sleep: the previous contestant's workers have
    stopped spinning."""
    end = time.perf_counter() + max_wait
    while time.perf_counter() < end:
        c0 = time.process_time()
        time.sleep(quantum)
        if time.process_time() - c0 < quantum / 10:
            return


def interleaved(calls, repeats, min_time):
    """{name: Timing} for the zero-argument calls {name: fn}, interleaved."""
    timings = {name: Timing(calibrate(fn, min_time)) for name, fn in calls.items()}
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for name, fn in calls.items():
                tm = timings[name]
                settle()
                tm.samples.append(_loop(fn, tm.number) / tm.number)
    finally:
        if enabled:
            gc.enable()
    return timings

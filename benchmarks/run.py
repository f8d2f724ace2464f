"""One case: prepare, run each contestant once and check ours against numpy
(the Torch7 kernels: against their oracle peer), and measure the ulp errors
where the case asks, time the contestants interleaved, then measure the
peak memory of each one's allocating form (of the timed call itself for
in-place and [res] forms)."""

from __future__ import annotations

import gc
import time
import traceback
import zlib
from dataclasses import dataclass, field

import numpy as np

from . import memory
from .convert import to_numpy
from .machine import OtherLoad
from .timing import Timing, interleaved


@dataclass
class Result:
    name: str
    shape: str = ""
    status: str = "ok"  # ok | FAILED (ours != numpy) | ERROR (a call raised)
    detail: str = ""
    out_bytes: int = 0
    level: float | None = None  # the ratio the issue asks for (of `against`)
    against: str = "numpy"  # the level's ratio: numpy/ours, or "fastest": fastest peer/ours
    others: float | None = None  # CPU share other processes used while timing
    timings: dict[str, Timing] = field(default_factory=dict)
    ulp: dict[str, float] = field(default_factory=dict)  # max ulp error
    extra_bytes: dict[str, int] = field(default_factory=dict)  # peak memory above the output
    roof: float | None = (
        None  # our share of the memory bandwidth (roofline.py); None: not memory-bound
    )

    def median(self, who):
        t = self.timings.get(who)
        return t.median if t is not None and t.samples else None

    def ratio(self, who):
        """who's time / our time: > 1 means we are faster."""
        ours, other = self.median("ours"), self.median(who)
        return other / ours if ours and other else None

    def peers(self):
        """The other contestants timed, in their order."""
        return [who for who in self.timings if who != "ours" and self.median(who)]

    @property
    def fastest(self):
        """The peer with the smallest median (None: none timed)."""
        return min(self.peers(), key=self.median, default=None)

    @property
    def level_ratio(self):
        """The ratio the level applies to: numpy/ours, or fastest peer/ours."""
        if self.against == "fastest":
            return self.ratio(self.fastest) if self.fastest else None
        return self.ratio(self.against)

    @property
    def at_level(self):
        """True / False: the level's ratio (level_ratio) reaches the level
        or not; None: no level, or not measured."""
        r = self.level_ratio
        if self.level is None or r is None or self.status != "ok":
            return None
        return r >= self.level


def _compare(got, want, rtol, atol):
    """'' when got matches want, else what differs."""
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} != {want.dtype}"
    if np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        return ""
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    i = np.unravel_index(np.argmax(bad), bad.shape)
    return (
        f"{int(bad.sum())} of {bad.size} elements differ, "
        f"first at {tuple(map(int, i))}: {got[i]} vs {want[i]}"
    )


def _repeats(case, repeats, min_time, first, calls):
    """`repeats`, or fewer (3 at least) for a case with a `budget` (seconds
    of samples, the workloads') whose calls are slow: from the first call's
    time (an overestimate: it warms up too), each sample lasting at least
    min_time."""
    budget = getattr(case, "budget", None)
    if budget is None:
        return repeats
    per_round = sum(max(first[who], min_time) for who in calls)
    return max(min(repeats, int(budget / per_round)), min(repeats, 3))


def _peer_outside(case, res, sizes, repeats):
    """The lua section (lua.py): our call runs `inner` calls, so our samples
    are divided by it; Lua Torch7's times, taken in its own process, join
    as the contestant "lua", and its check value is compared with ours."""
    inner = getattr(case, "inner", None)
    if not hasattr(case, "lua_timing"):
        return
    for t in res.timings.values():
        t.samples = [s / inner for s in t.samples]
    res.timings.update(case.lua_timing(sizes, repeats))
    if "lua" not in res.timings and getattr(case, "needs_lua", True):
        res.status, res.detail = "ERROR", "no Lua Torch7 time"
        return
    got = case.lua_check(sizes, repeats)
    if got is not None:
        lua, ours = got
        if lua is None or not (lua == ours or abs(lua - ours) <= 1e-9 * abs(lua)):
            res.status, res.detail = "FAILED", f"ours != lua: {ours!r} vs {lua!r}"


def run_case(case, sizes, repeats, min_time):
    """The Result of one case.  numpy's floating-point warnings are off: an
    input that makes inf or NaN (a zero divisor among 10^7 random floats) is
    the same work for everyone, not the harness's business."""
    with np.errstate(all="ignore"):
        return _run_case(case, sizes, repeats, min_time)


def _run_case(case, sizes, repeats, min_time):
    res = Result(case.name, level=case.level, against=getattr(case, "against", "numpy"))
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    prep = None
    try:
        prep = case.prepare(sizes, rng)
        res.shape = prep.shape
        calls = dict(prep.calls)
        # one call each, then check: numpy (or the case's oracle) is the reference
        got, read, oracle = {}, prep.read or {}, prep.oracle
        first = {}  # seconds of each contestant's first call
        for who in list(calls):
            try:
                t0 = time.perf_counter()
                value = calls[who]()
                first[who] = time.perf_counter() - t0
                got[who] = read.get(who, to_numpy)(
                    getattr(prep.out, who) if prep.out is not None else value
                )
                del value
            except Exception as e:  # reported in the table
                res.status = "ERROR"
                res.detail += f"{who}: {type(e).__name__}: {e}; "
                del calls[who]
        if oracle not in got:
            return res
        want = got[oracle]
        res.out_bytes = want.nbytes
        if "ours" in got and oracle != "ours":
            diff = _compare(got["ours"], want, prep.rtol, prep.atol)
            if diff:
                res.status, res.detail = "FAILED", f"ours != {oracle}: {diff}"
        for who in got:
            if who in ("ours", oracle):
                continue
            # another peer's mismatch means the case itself is wrong, not our core
            diff = _compare(got[who], want, prep.rtol, prep.atol)
            if diff:
                res.detail += f" ({who} != {oracle}: {diff})"
        if prep.accuracy is not None:
            res.ulp = prep.accuracy(got)
        del got, want
        with OtherLoad() as load:
            res.timings = interleaved(
                calls, _repeats(case, repeats, min_time, first, calls), min_time
            )
        res.others = load.share
        _peer_outside(case, res, sizes, repeats)
        made = 0 if prep.in_place else res.out_bytes  # the output, when the call makes it
        for who, fn in (prep.alloc or calls).items():
            if who in calls:
                peak = memory.peak_bytes(fn)
                if peak is not None:
                    res.extra_bytes[who] = peak - made
    except Exception as e:  # a broken case must not stop the run
        res.status = "ERROR"
        res.detail = f"{type(e).__name__}: {e}"
        traceback.print_exc()
    finally:
        del prep
        gc.collect()
    return res

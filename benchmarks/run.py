"""One case: prepare, run each contestant once and check ours against numpy,
then time the three interleaved."""
from __future__ import annotations

import gc
import traceback
import zlib
from dataclasses import dataclass, field

import numpy as np

from .convert import to_numpy
from .machine import OtherLoad
from .timing import Timing, interleaved


@dataclass
class Result:
    name: str
    shape: str = ""
    status: str = "ok"          # ok | FAILED (ours != numpy) | ERROR (a call raised)
    detail: str = ""
    out_bytes: int = 0
    others: float | None = None   # CPU share other processes used while timing
    timings: dict[str, Timing] = field(default_factory=dict)

    def median(self, who):
        t = self.timings.get(who)
        return t.median if t is not None and t.samples else None

    def ratio(self, who):
        """who's time / our time: > 1 means we are faster."""
        ours, other = self.median("ours"), self.median(who)
        return other / ours if ours and other else None


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
    return (f"{int(bad.sum())} of {bad.size} elements differ, "
            f"first at {tuple(map(int, i))}: {got[i]} vs {want[i]}")


def run_case(case, sizes, repeats, min_time):
    res = Result(case.name)
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    prep = None
    try:
        prep = case.prepare(sizes, rng)
        res.shape, res.out_bytes = prep.shape, prep.out_bytes
        calls = dict(prep.calls)
        # one call each, then check: numpy is the oracle
        for who in list(calls):
            try:
                calls[who]()
            except Exception as e:   # noqa: BLE001 -- reported in the table
                res.status = "ERROR"
                res.detail += f"{who}: {type(e).__name__}: {e}; "
                del calls[who]
        if "numpy" not in calls:
            return res
        want = to_numpy(prep.out.numpy)
        if "ours" in calls:
            diff = _compare(to_numpy(prep.out.ours), want, prep.rtol, prep.atol)
            if diff:
                res.status, res.detail = "FAILED", f"ours != numpy: {diff}"
        if "torch" in calls:
            # a torch mismatch means the case itself is wrong, not our core
            diff = _compare(to_numpy(prep.out.torch), want, prep.rtol, prep.atol)
            if diff:
                res.detail += f" (torch != numpy: {diff})"
        with OtherLoad() as load:
            res.timings = interleaved(calls, repeats, min_time)
        res.others = load.share
    except Exception as e:   # noqa: BLE001 -- a broken case must not stop the run
        res.status = "ERROR"
        res.detail = f"{type(e).__name__}: {e}"
        traceback.print_exc()
    finally:
        del prep
        gc.collect()
    return res

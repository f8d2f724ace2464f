"""The `t7io` section: torch.load and torch.save of a big `.t7` file
(issue 27) against python-torchfile (loads only: it cannot write) and Lua
Torch7 itself, and the same object read by a binary torch.DiskFile's
readObject (against Lua's).

The file: a Lua list of 201 FloatTensors, 200 of (n / 10^4) x 150 floats
and a small one: 120 MB at n = 10^7 (--quick: 12 MB), as a model's
parameters are saved.  Ours and torchfile's calls are timed in this
process, interleaved (timing.py); Lua's in one Lua Torch7 process
(torch.Timer, `repeats` samples after a warm-up, found as lua.py finds
it; without it the case has torchfile alone, and the save case none).
The level is 1.0 against the fastest peer.  Every file is read from the
page cache (it was just written): this times the reading and the making
of the objects, not the disk."""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

import numpy as np

import strided

from .lua import interpreter
from .timing import Timing

TENSORS = 201


def _tensors(n):
    rows = max(1, n // 10**4)
    return [strided.FloatTensor(rows, 150).uniform(-1, 1) for _ in range(TENSORS - 1)] + [
        strided.FloatTensor(10).fill(1)
    ]


def _sums(tensors):
    """Each tensor's sum, from ours (a list) or torchfile's (a dict 1..201)."""
    if isinstance(tensors, dict):
        tensors = [tensors[k] for k in sorted(tensors)]
    return np.array(
        [
            float(np.sum(t, dtype=np.float64)) if isinstance(t, np.ndarray) else t.double().sum()
            for t in tensors
        ]
    )


_DIR = tempfile.mkdtemp(prefix="strided-t7io-")
_FILES = {}


def _file(n):
    """The big file for size n (written once per run)."""
    if n not in _FILES:
        path = os.path.join(_DIR, f"big{n}.t7")
        strided.save(path, _tensors(n))
        _FILES[n] = path
    return _FILES[n]


@dataclass(frozen=True)
class T7Case:
    """torch.load (`what` 'load'), torch.save ('save') or a binary
    DiskFile's readObject ('diskfile') of the big file."""

    what: str
    level: float = 1.0
    against = "fastest"  # the level's ratio: fastest peer / ours
    table = "peers"
    inner = 1  # (the runner divides our samples by it)
    needs_lua = False  # without Lua Torch7 the other peers still count

    @property
    def name(self):
        return f"t7 {self.what} {TENSORS} tensors"

    def prepare(self, sizes, rng):
        from .kinds import Prepared

        path = _file(sizes.n)
        mb = os.path.getsize(path) / 1e6
        if self.what == "load":
            calls = {"ours": lambda: strided.load(path)}
            try:
                import torchfile
            except ImportError:
                torchfile = None
            if torchfile is not None:
                calls["torchfile"] = lambda: torchfile.load(path, use_list_heuristic=False)
            # torchfile, an independent reader, is the reference when installed
            return Prepared(
                calls,
                None,
                f"{mb:.0f} MB",
                1e-6,
                1e-6,
                oracle="torchfile" if torchfile is not None else "ours",
                read={"ours": _sums, "torchfile": _sums},
            )
        if self.what == "diskfile":
            return Prepared(
                {"ours": lambda: _read_diskfile(path)},
                None,
                f"{mb:.0f} MB",
                1e-6,
                1e-6,
                oracle="ours",
                read={"ours": _sums},
            )
        obj = strided.load(path)
        out = os.path.join(_DIR, "saved.t7")
        return Prepared(
            {"ours": lambda: strided.save(out, obj)},
            None,
            f"{mb:.0f} MB",
            0,
            0,
            oracle="ours",
            read={"ours": lambda v: np.zeros(0)},
        )

    def lua_timing(self, sizes, repeats):
        """{"lua": Timing} of Lua Torch7's torch.load / torch.save of the same
        file, or {} without Lua."""
        lua, _ = interpreter()
        if lua is None:
            return {}
        path = _file(sizes.n)
        call = {
            "load": f"torch.load('{path}')",
            "diskfile": f"torch.DiskFile('{path}'):binary():readObject()",
            "save": f"torch.save('{os.path.join(_DIR, 'saved-lua.t7')}', obj)",
        }[self.what]
        script = (
            f"require 'torch'\nlocal obj = torch.load('{path}')\n{call}\n"
            f"local s = {{}}\nfor k = 1, {repeats} do\n  collectgarbage()\n"
            f"  local t = torch.Timer()\n  {call}\n  s[k] = t:time().real\nend\n"
            f"io.write(table.concat(s, ','))\n"
        )
        proc = subprocess.run(
            [lua, "-"], input=script, text=True, capture_output=True, timeout=600, check=False
        )
        if proc.returncode:
            raise RuntimeError(f"Lua Torch7 failed: {proc.stderr.strip()[-500:]}")
        t = Timing(1)
        t.samples = [float(v) for v in proc.stdout.split(",")]
        return {"lua": t}

    def lua_check(self, sizes, repeats):
        return None


def _read_diskfile(path):
    with strided.DiskFile(path).binary() as f:
        return f.readObject()


CASES = [T7Case("load"), T7Case("save"), T7Case("diskfile")]

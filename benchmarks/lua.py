"""The `lua` section: the Torch7 face against Lua Torch7 itself (issue 23).

Each case is one Torch7 call written twice, in Lua and in Python, with the
same set-up.  Lua's times come from one Lua Torch7 process that runs every
case (`torch.Timer`, the median of `repeats` samples, each sample `inner`
calls in a loop, printed per call); ours from the usual interleaved timing
(timing.py) of the same loop compiled as Python, divided by `inner` the same
way.  The ratio is lua/ours (> 1: ours faster); the level is 1.0 (at least
as fast as Lua) for every case, and issue 23 asks the geometric mean to
reach 2.

Lua Torch7 is found through the environment variable STRIDED_LUA_TORCH, its
install prefix (`$STRIDED_LUA_TORCH/bin/lua-torch` is the interpreter; the
default prefix is /work/lua-torch7); without it the section is skipped and
says why.  Cases with a `check` expression also compare one number Lua
prints with ours (the random streams: Lua's very numbers)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

import numpy as np

import strided

from .timing import Timing

LEVEL = 1.0  # every case at least as fast as Lua Torch7
DEFAULT_PREFIX = "/work/lua-torch7"


def interpreter():
    """(path of Lua Torch7's interpreter, None) or (None, why it is not there)."""
    prefix = os.environ.get("STRIDED_LUA_TORCH", DEFAULT_PREFIX)
    path = os.path.join(prefix, "bin", "lua-torch")
    if not os.access(path, os.X_OK):
        return None, (
            f"no Lua Torch7 interpreter at {path} (set STRIDED_LUA_TORCH to the "
            f"prefix of a Lua Torch7 install)"
        )
    return path, None


@dataclass(frozen=True)
class LuaCase:
    """One call: `lua`/`py` the statement, `lua_setup`/`py_setup` what it
    needs (`n` is the size, 10^7 or the quick 10^6), `inner` the calls per
    sample, `check` an expression both print after a seeded set-up and one
    call (empty: none)."""

    label: str
    lua_setup: str
    lua: str
    py_setup: str
    py: str
    inner: int = 1000
    check: str = ""
    level: float = LEVEL
    against = "lua"  # the level's ratio: lua/ours
    table = "peers"

    @property
    def name(self):
        return f"lua {self.label}"

    def prepare(self, sizes, rng):
        from .kinds import Prepared

        ns = {"torch": strided, "n": sizes.n}
        exec(_py_source(self), ns)  # our own case table
        return Prepared(
            {"ours": ns["_run"]},
            None,
            f"{self.inner} calls",
            0,
            0,
            oracle="ours",
            read={"ours": lambda v: np.zeros(0)},
        )

    def lua_timing(self, sizes, repeats):
        """{"lua": Timing} per call, or {} when Lua is absent (the section
        is skipped before then) or failed (the detail says it)."""
        got = _lua_results(sizes.n, repeats).get(self.name)
        if got is None:
            return {}
        t = Timing(self.inner)
        t.samples = got["samples"]
        return {"lua": t}

    def lua_check(self, sizes, repeats):
        """(Lua's check value, ours) or None."""
        if not self.check:
            return None
        got = _lua_results(sizes.n, repeats).get(self.name)
        ns = {"torch": strided, "n": sizes.n}
        exec(
            f"torch.manualSeed(7)\n{self.py_setup}\n{self.py}\n"
            f"_check = {self.check.replace(':', '.')}",
            ns,
        )
        return (got or {}).get("check"), float(ns["_check"])


def _py_source(case):
    # the statement in a compiled loop, as Lua's: no Python frame per call
    # beyond the call itself
    return f"{case.py_setup}\ndef _run():\n    for _ in range({case.inner}):\n        {case.py}\n"


# the small calls on a 3x3 DoubleTensor x (y another), a 10-element v and
# x's storage s; then the kernels on n doubles (10^7: quick 10^6)
_SMALL = (
    "x = torch.Tensor(3, 3):fill(1); y = torch.Tensor(3, 3):fill(2); "
    "v = torch.Tensor(10):fill(1); s = x:storage(); ls = torch.LongStorage({3, 3})",
    "x = torch.Tensor(3, 3).fill(1); y = torch.Tensor(3, 3).fill(2)\n"
    "v = torch.Tensor(10).fill(1); s = x.storage(); ls = torch.LongStorage([3, 3])",
)
_LARGE = (
    "x = torch.rand(n); r = torch.Tensor(n); r:zero()",
    "x = torch.rand(n); r = torch.Tensor(n); r.zero()",
)


def _small(label, lua, py=None):
    return LuaCase(
        label, _SMALL[0], lua, _SMALL[1], py if py is not None else lua.replace(":", ".")
    )


def _large(label, lua, py=None, check="", inner=1):
    return LuaCase(
        label,
        _LARGE[0],
        lua,
        _LARGE[1],
        py if py is not None else lua.replace(":", "."),
        inner=inner,
        check=check,
    )


CASES = [
    _small("Tensor(3, 3)", "torch.Tensor(3, 3)"),
    _small("Tensor(LongStorage)", "torch.Tensor(ls)"),
    _small(
        "Tensor(table)",
        "torch.Tensor({{1, 2, 3}, {4, 5, 6}})",
        "torch.Tensor([[1, 2, 3], [4, 5, 6]])",
    ),
    _small("zeros(3, 3)", "torch.zeros(3, 3)"),
    _small("ones(3, 3)", "torch.ones(3, 3)"),
    _small("rand(3, 3)", "torch.rand(3, 3)"),
    _small("x:size()", "x:size()"),
    _small("x:size(1)", "x:size(1)"),
    _small("x:stride()", "x:stride()"),
    _small("x:dim()", "x:dim()"),
    _small("x:nElement()", "x:nElement()"),
    _small("x:narrow(1, 2, 1)", "x:narrow(1, 2, 1)"),
    _small("x:select(1, 2)", "x:select(1, 2)"),
    _small("x:sub(1, 2, 1, 2)", "x:sub(1, 2, 1, 2)"),
    _small("x:t()", "x:t()"),
    _small("x[2][3]", "local _ = x[2][3]", "x[2][3]"),
    _small("x[2][3] = 5", "x[2][3] = 5", "x[2][3] = 5"),
    _small("s[2]", "local _ = s[2]", "s[2]"),
    _small("x:clone()", "x:clone()"),
    _small("x:copy(y)", "x:copy(y)"),
    _small("x:fill(3)", "x:fill(3)"),
    _small("x:add(1)", "x:add(1)"),
    _small("x:mul(2)", "x:mul(2)"),
    _small("v:add(v) (10)", "v:add(v)"),
    _large("topk(x, 10) default", "torch.topk(x, 10)"),
    _large(
        "topk(x, 10, 1, false, true)",
        "torch.topk(x, 10, 1, false, true)",
        "torch.topk(x, 10, 1, False, True)",
    ),
    _large("cumsum(r, x)", "torch.cumsum(r, x)", check="r[n]"),
    _large("cumprod(r, x)", "torch.cumprod(r, x)", check="r[3]"),
    _large("r:uniform()", "r:uniform()", check="r[n]"),
    _large("r:normal()", "r:normal()", check="r[n]"),
    _large("r:exponential(1)", "r:exponential(1)", check="r[n]"),
    _large("r:geometric(0.5)", "r:geometric(0.5)", check="r[n]"),
    _large("r:bernoulli(0.5)", "r:bernoulli(0.5)", check="r:sum()"),
    _large("randperm(n / 10)", "torch.randperm(n / 10)", "torch.randperm(n // 10)"),
    _large(
        "multinomial(p, n / 10, true)",
        "torch.multinomial(p, n / 10, true)",
        "torch.multinomial(p, n // 10, True)",
    ),
]
# multinomial's 100 categories
CASES[-1] = LuaCase(
    CASES[-1].label,
    _LARGE[0] + "; p = torch.rand(100)",
    CASES[-1].lua,
    _LARGE[1] + "; p = torch.rand(100)",
    CASES[-1].py,
    inner=1,
)


def _lua_script(n, repeats):
    lines = ["require 'torch'", "torch.setdefaulttensortype('torch.DoubleTensor')", f"n = {n}"]
    for c in CASES:
        check = ""
        if c.check:  # the seeded set-up, one call, the number
            check = (
                f"  torch.manualSeed(7)\n  {c.lua_setup}\n  {c.lua}\n"
                f"  io.write('\\t', string.format('%.17g', {c.check}))\n"
            )
        lines += [
            "do",
            "  local x, y, v, s, ls, r, p",
            f"  {c.lua_setup}",
            f"  local function run() for _ = 1, {c.inner} do {c.lua} end end",
            "  run()",
            "  local samples = {}",
            f"  for k = 1, {repeats} do",
            "    collectgarbage()",
            "    local t = torch.Timer()",
            "    run()",
            f"    samples[k] = t:time().real / {c.inner}",
            "  end",
            f"  io.write('{c.name}', '\\t', table.concat(samples, ','))",
            check + "  io.write('\\n')",
            "end",
        ]
    return "\n".join(lines) + "\n"


_CACHE = {}


def _lua_results(n, repeats):
    """name -> {"samples": [s per call], "check": float}: one Lua process for
    every case, run once per (n, repeats)."""
    key = (n, repeats)
    if key not in _CACHE:
        path, why = interpreter()
        out = {}
        if path is not None:
            proc = subprocess.run(
                [path, "-"],
                input=_lua_script(n, repeats),
                text=True,
                capture_output=True,
                timeout=3600,
                check=False,
            )
            if proc.returncode:
                raise RuntimeError(f"Lua Torch7 failed: {proc.stderr.strip()[-500:]}")
            for line in proc.stdout.splitlines():
                name, samples, *check = line.split("\t")
                out[name] = {
                    "samples": [float(s) for s in samples.split(",")],
                    "check": float(check[0]) if check else None,
                }
        _CACHE[key] = out
    return _CACHE[key]

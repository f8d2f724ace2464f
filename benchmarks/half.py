"""The `half` section (issue 26): the 16-bit floats at 10^7 elements,
casting float32 <-> float16 / bfloat16 and elementwise ops on them
(x + y, x * y, exp(x): computed in float32, rounded once), through the
public API (strided.compat) against PyTorch (level 1.0, torch/ours) and
numpy's float16 where it has the type.  All of them stream memory: the
roof column says how close to the machine's bandwidth we are."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .convert import torch

N = 10**7
HALF = 1.0  # torch/ours

# name -> (input dtype, op); op(ns, dt, x, y) with ns strided.compat, numpy or torch
OPS = {
    "astype f32->f16": ("float32", lambda ns, dt, x, y: _astype(ns, x, "float16")),
    "astype f16->f32": ("float16", lambda ns, dt, x, y: _astype(ns, x, "float32")),
    "astype f32->bf16": ("float32", lambda ns, dt, x, y: _astype(ns, x, "bfloat16")),
    "astype bf16->f32": ("bfloat16", lambda ns, dt, x, y: _astype(ns, x, "float32")),
    "f16 x + y": ("float16", lambda ns, dt, x, y: x + y),
    "f16 x * y": ("float16", lambda ns, dt, x, y: x * y),
    "f16 exp(x)": ("float16", lambda ns, dt, x, y: ns.exp(x)),
    "bf16 x + y": ("bfloat16", lambda ns, dt, x, y: x + y),
    "bf16 x * y": ("bfloat16", lambda ns, dt, x, y: x * y),
    "bf16 exp(x)": ("bfloat16", lambda ns, dt, x, y: ns.exp(x)),
}


def _astype(ns, x, name):
    if ns is torch:
        return x.to(getattr(torch, name))
    return ns.astype(x, getattr(ns, name))


def _inputs(who, a, dt):
    """float32 data `a` as `who`'s array of dtype dt."""
    if who == "torch":
        return torch.from_numpy(a).to(getattr(torch, dt))
    if who == "numpy":
        return a.astype(dt)
    import strided.compat as xp

    return xp.astype(xp.asarray(a), getattr(xp, dt))


def _as_f32(r):
    """A result as a float32 numpy array, whoever made it."""
    if torch is not None and isinstance(r, torch.Tensor):
        return r.float().numpy()
    if isinstance(r, np.ndarray):
        return r.astype(np.float32)
    import strided.compat as xp

    return np.asarray(xp.astype(r, xp.float32))


@dataclass(frozen=True)
class Half:
    op: str
    level: float | None = HALF
    against = "torch"
    table = "compact"

    @property
    def name(self):
        return f"{self.op} {N:.0e}".replace("e+0", "e")

    def prepare(self, sizes, rng):
        from .kinds import Prepared
        import strided.compat as xp

        dt, op = OPS[self.op]
        x = (rng.standard_normal(N) * 4).astype(np.float32)
        y = rng.standard_normal(N).astype(np.float32)
        spaces = (
            {"ours": xp} if "bf16" in self.op else {"ours": xp, "numpy": np}
        )  # numpy: no bfloat16
        if torch is not None:
            spaces["torch"] = torch
        calls = {}
        for who, ns in spaces.items():
            a, b = _inputs(who, x, dt), _inputs(who, y, dt)
            calls[who] = lambda ns=ns, a=a, b=b: op(ns, dt, a, b)
        # every contestant rounds float32's result once (exp: float32's exp
        # may differ in the last bit, which can move the 16-bit rounding)
        rtol = 2**-7 if "exp" in self.op else 0.0
        return Prepared(
            calls,
            None,
            f"{N:.0e} {dt}".replace("e+0", "e"),
            rtol,
            0.0,
            oracle="torch" if torch is not None else "numpy",
            read={who: _as_f32 for who in calls},
        )


HALF_CASES = [Half(op) for op in OPS]

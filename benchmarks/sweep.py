"""The `sweep` section (issue 22): every allocating elementwise op, a
comparison, a cast, `where` and the reductions at sizes from 10^3 to
3 x 10^7 float64 elements, through the public API as a user writes them
(`x - y` on strided.compat arrays, numpy arrays, torch tensors), level
1.0 (numpy/ours) at every size.  Its purpose is the size cliffs: a call
whose time per element jumps at some size (the result's pages faulted in
afresh at each call once it is too big for the allocator's caches, a
threading threshold, a cache level) shows as a dip of the ratio there.

Allocating, for all three: the result is made by the call, as in user
code (the `core` section times the kernels into preallocated outputs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .convert import torch

SIZES = (10**3, 10**4, 10**5, 3 * 10**5, 10**6, 3 * 10**6, 10**7, 3 * 10**7)
SWEEP = 1.0
COLUMNS = 100  # sum(x, axis=0) reduces an (n / 100, 100) matrix to its 100 column sums


class Op(NamedTuple):
    # (namespace, x, y, cond) -> result; namespace is strided.compat, numpy or torch
    call: Callable
    inputs: str = "xy"  # which of x, y, cond (a bool mask) the op reads
    matrix: bool = False  # x is viewed as (n / COLUMNS, COLUMNS)


def _astype(ns, x):
    """float64 -> float32: torch has no astype."""
    return x.to(torch.float32) if ns is torch else ns.astype(x, ns.float32)


OPS = {
    "x - y": Op(lambda ns, x, y, c: x - y),
    "x * y": Op(lambda ns, x, y, c: x * y),
    "exp(x)": Op(lambda ns, x, y, c: ns.exp(x), "x"),
    "sqrt(x)": Op(lambda ns, x, y, c: ns.sqrt(y), "y"),  # of |x| (y): no NaN
    "abs(x)": Op(lambda ns, x, y, c: ns.abs(x), "x"),
    "x < y": Op(lambda ns, x, y, c: x < y),
    "astype f32": Op(lambda ns, x, y, c: _astype(ns, x), "x"),
    "where(c, x, y)": Op(lambda ns, x, y, c: ns.where(c, x, y), "xyc"),
    "sum(x)": Op(lambda ns, x, y, c: ns.sum(x), "x"),
    "mean(x)": Op(lambda ns, x, y, c: ns.mean(x), "x"),
    "max(x)": Op(lambda ns, x, y, c: ns.max(x), "x"),
    "sum(x, axis=0)": Op(
        lambda ns, x, y, c: ns.sum(x, axis=0), "x", matrix=True
    ),  # torch takes axis= too
}


def _namespaces():
    import strided.compat as xp

    spaces = {"ours": xp, "numpy": np}
    if torch is not None:
        spaces["torch"] = torch
    return spaces


def _convert(who, a):
    if who == "ours":
        import strided.compat as xp

        return xp.asarray(a)
    if who == "torch":
        return torch.from_numpy(a.copy())
    return a.copy()


@dataclass(frozen=True)
class Sweep:
    """OPS[op] on n float64 elements, allocating its result."""

    op: str
    n: int
    level: float | None = SWEEP
    table = "compact"

    @property
    def name(self):
        return f"{self.op} {self.n:.0e}".replace("e+0", "e")

    def fits(self, sizes):
        """--quick stops the sweep at Sizes.sweep_max elements."""
        return self.n <= sizes.sweep_max

    def prepare(self, sizes, rng):
        from .kinds import Prepared

        spec = OPS[self.op]
        shape = (self.n // COLUMNS, COLUMNS) if spec.matrix else (self.n,)
        x = rng.standard_normal(shape)
        data = {
            "x": x,
            "y": np.abs(x) if self.op == "sqrt(x)" else rng.standard_normal(shape),
            "c": rng.random(shape) < 0.5,
        }
        calls = {}
        for who, ns in _namespaces().items():
            a = {k: _convert(who, v) if k in spec.inputs else None for k, v in data.items()}
            calls[who] = lambda ns=ns, a=a: spec.call(ns, a["x"], a["y"], a["c"])
        reduction = self.op.startswith(("sum", "mean", "max"))
        # a sum of n terms rounds differently in each library's order
        atol = 1e-12 * self.n if reduction else 0.0
        return Prepared(calls, None, "x".join(map(str, shape)) + " f64", 1e-12, atol)


SWEEP_CASES = [Sweep(op, n) for op in OPS for n in SIZES]

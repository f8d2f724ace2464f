"""Typical Torch7 code ported from Lua, type-checked (mypy --strict,
.ci/types) against the Torch7 face's stub (strided/__init__.pyi, written
from the spec table).  The lines marked `type: ignore[...]` are deliberate
mistakes: with --warn-unused-ignores (part of --strict) the check fails if
the stub ever stops catching them."""
from __future__ import annotations

import strided as torch


def normalize_rows(x: torch.DoubleTensor) -> torch.DoubleTensor:
    """Each row scaled to unit sum (x:sum(2) keeps the dimension)."""
    sums = torch.sum(x, 2)
    return torch.cdiv(x, sums.expandAs(x))


def gram(x: torch.DoubleTensor) -> torch.DoubleTensor:
    return torch.mm(x, x.t())


def top_k(x: torch.DoubleTensor, k: int) -> list[float]:
    values, indices = torch.topk(x, k, 1, True)
    return [float(v) for v in values.totable()] + [float(i) for i in indices.totable()]


def solve(a: torch.DoubleTensor, b: torch.DoubleTensor) -> torch.DoubleTensor:
    x, _lu = torch.gesv(b, a)
    return x


def main() -> None:
    torch.manualSeed(1)
    x = torch.rand(3, 4).double()
    y = normalize_rows(x)
    m = gram(y)
    a = torch.DoubleTensor([[4, 1], [1, 3]])
    b = torch.DoubleTensor([[1], [2]])
    s = solve(a, b)
    total: float = torch.sum(m)
    mask = torch.gt(x, 0.5)
    print(y.size(), m.dim(), s.nElement(), round(total, 6) > 0, mask.sum() >= 0)
    print(top_k(torch.DoubleTensor([3, 1, 2]), 2), x.add(1).mul(2).dim())


def mistakes(x: torch.DoubleTensor) -> None:
    """Deliberate mistakes the stub must catch (never called)."""
    torch.add(x, "a")  # type: ignore[call-overload]
    torch.sum(x, 1, 2, 3)  # type: ignore[call-overload]
    n: float = torch.mm(x, x)  # type: ignore[assignment]
    x.narrow(1)  # type: ignore[call-arg]


if __name__ == "__main__":
    main()

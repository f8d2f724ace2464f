"""Typical Torch7 code ported from Lua, type-checked (mypy --strict,
.ci/types) against the Torch7 face's stub (strided/__init__.pyi, written
from the spec table).  The lines marked `type: ignore[...]` are deliberate
mistakes: with --warn-unused-ignores (part of --strict) the check fails if
the stub ever stops catching them."""

from __future__ import annotations

import io

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


def column_sums(x: torch.DoubleTensor) -> list[float]:
    """x:size(2) is a number, x:select(2, j) a column (Any: a number for a
    vector), x:t():contiguous() still a DoubleTensor."""
    sums = [float(torch.sum(x.select(2, j))) for j in range(1, x.size(2) + 1)]
    assert x.t().contiguous().size()[1] == x.size(2)
    return sums


def roundtrip(x: torch.DoubleTensor) -> torch.DoubleTensor:
    """torch.save/torch.load through a binary file; load gives Any back."""
    buf = io.BytesIO()
    torch.save(buf, {"x": x})
    buf.seek(0)
    back: torch.DoubleTensor = torch.load(buf)["x"]
    return back


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
    n = torch.DoubleTensor(2, 3).fill(1).narrow(2, 1, 2).gt(0.5).sum()
    f = torch.MemoryFile().binary()
    f.writeLong(torch.LongStorage([7, 8]))
    longs = f.seek(1).readLong(2)
    timer = torch.Timer().stop()
    print(
        column_sums(torch.DoubleTensor([[1, 2], [3, 4]])),
        n,
        longs[2] + 1,
        roundtrip(a).isSameSizeAs(a),
        x.sum(2).size(2),
        sorted(timer.time()),
    )


def mistakes(x: torch.DoubleTensor) -> None:
    """Deliberate mistakes the stub must catch (never called)."""
    torch.add(x, "a")  # type: ignore[call-overload]
    torch.sum(x, 1, 2, 3)  # type: ignore[call-overload]
    n: float = torch.mm(x, x)  # type: ignore[assignment]
    x.narrow(1)  # type: ignore[call-arg]
    d: int = x.t()  # type: ignore[assignment]
    x.size("1")  # type: ignore[call-overload]
    x.indexCopy(1, torch.LongTensor([1]), torch.FloatTensor(1, 4))  # type: ignore[arg-type]
    torch.manualSeed("seed")  # type: ignore[call-overload]
    s: str = torch.DiskFile("x.t7").readInt()  # type: ignore[assignment]


if __name__ == "__main__":
    main()

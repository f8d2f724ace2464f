"""Typical array-API-generic user code, type-checked (mypy --strict, .ci/types)
against strided.compat's annotations.  The lines marked `type: ignore[...]`
are deliberate mistakes: with --warn-unused-ignores (part of --strict) the
check fails if the annotations ever stop catching them."""

from __future__ import annotations

from typing import NamedTuple

import strided.compat as xp
from strided.compat import Array


def standardize(x: Array, /, *, axis: int = 0) -> Array:
    mu = xp.mean(x, axis=axis, keepdims=True)
    sd = xp.std(x, axis=axis, keepdims=True, correction=1)
    return xp.where(sd > 0, (x - mu) / sd, xp.zeros_like(x))


def softmax(x: Array, /) -> Array:
    e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


class Fit(NamedTuple):
    coef: Array
    residual: float


def least_squares(a: Array, b: Array) -> Fit:
    """Normal equations, solved with the linalg extension."""
    ata = xp.matmul(xp.matrix_transpose(a), a)
    coef = xp.linalg.solve(ata, a.mT @ b)
    r = b - a @ coef
    return Fit(coef, float(xp.linalg.vector_norm(r)))


def pairwise_distances(p: Array, q: Array) -> Array:
    d = xp.expand_dims(p, axis=1) - xp.expand_dims(q, axis=0)
    return xp.sqrt(xp.sum(d * d, axis=-1))


def lowpass(signal: Array, keep: int) -> Array:
    spectrum = xp.fft.rfft(signal)
    n = spectrum.shape[0]
    mask = xp.arange(n) < keep
    return xp.fft.irfft(xp.where(mask, spectrum, xp.zeros_like(spectrum)), n=signal.shape[0])


def counts(labels: Array) -> dict[int, int]:
    values, c = xp.unique_counts(labels)
    return {int(v): int(k) for v, k in zip(values, c)}


def top(x: Array, k: int) -> Array:
    order = xp.argsort(x, descending=True, stable=True)
    return xp.take(x, order[:k])


def as_float32(x: Array) -> Array:
    if xp.isdtype(x.dtype, "real floating") and x.dtype == xp.float32:
        return x
    return xp.astype(x, xp.float32)


def main() -> None:
    x = xp.reshape(xp.arange(12.0), (4, 3))
    z = standardize(x)
    s = softmax(z)
    fit = least_squares(x, xp.ones((4,)))
    d = pairwise_distances(x, x)
    y = lowpass(xp.linspace(0.0, 1.0, 16), 3)
    info = xp.__array_namespace_info__()
    print(z.shape, s.dtype, fit.residual, d.ndim, y.size, info.default_device())
    print(counts(xp.asarray([1, 2, 2])), top(x[0, :], 2), as_float32(x).dtype)
    x[0, 0] = 1.5
    q, r = xp.linalg.qr(x)
    print(q.shape, r.shape, xp.finfo(xp.float64).eps, xp.iinfo(xp.int8).max)


def mistakes(x: Array) -> None:
    """Deliberate mistakes the annotations must catch (never called)."""
    xp.sum([1.0, 2.0])  # type: ignore[arg-type]
    xp.reshape(x, 12)  # type: ignore[arg-type]
    xp.linalg.svd(x, full_matrices="no")  # type: ignore[arg-type]
    n: int = xp.mean(x)  # type: ignore[assignment]
    x + "a"  # type: ignore[operator]


if __name__ == "__main__":
    main()

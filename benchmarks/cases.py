"""The benchmark cases, as data.

`CASES` at the bottom is the table: one line per case.  A case is a small
frozen record (op, dtype, layout...) of one of the kinds below; its
`prepare(sizes, rng)` builds the inputs and preallocated outputs of all three
contestants and returns the three zero-argument calls to time.

The convention, the same for every contestant: inputs are built once in
setup (views included), outputs are preallocated (`out=` for numpy and
torch, our `out=` or a preallocated destination), so a timed call is the
kernel alone, not an allocation.  To add a case of an existing kind, add a
line to CASES; to add a kind, write a class with `name` and `prepare`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from strided import _core, _ops
from strided._core import ffi, lib

from .convert import Trio, torch, trio_empty, trio_from



def short(dtype):
    """float64 -> f64, uint8 -> u8, complex128 -> c128, bool -> bool."""
    dt = np.dtype(dtype)
    return "bool" if dt.kind == "b" else f"{dt.kind}{8 * dt.itemsize}"


@dataclass(frozen=True)
class Sizes:
    n: int          # elements of the elementwise cases (10^7)
    side: int       # side of the square matrix of the reductions and the copy
    row: int = 1000   # length of the broadcast row


FULL = Sizes(n=10**7, side=3000)
QUICK = Sizes(n=10**6, side=1000)


@dataclass
class Prepared:
    """What the runner needs: the calls, the outputs to check, their size."""
    calls: dict[str, Callable[[], Any]]   # contestant -> zero-argument call
    out: Trio                             # where each call writes its result
    shape: str                            # the input geometry, for the table
    rtol: float
    atol: float

    @property
    def out_bytes(self):
        return self.out.numpy.nbytes


def tolerance(dtype):
    """(rtol, atol) for comparing our result with numpy's."""
    return (1e-5, 1e-6) if dtype in ("float32", "complex64") else (1e-10, 1e-10)


def random(rng, shape, dtype):
    """Random values of `dtype`: standard normal for floats (and both parts
    of complex), integers in [-100, 100) (unsigned [0, 100)), fair bools."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape, dtype=dt)
    if dt.kind == "c":
        real = np.float32 if dt == np.complex64 else np.float64
        return (rng.standard_normal(shape, real) + 1j * rng.standard_normal(shape, real)).astype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    return rng.integers(0 if dt.kind == "u" else -100, 100, shape, dtype=dt)


def _calls(ours, numpy, torch_call):
    calls = {"ours": ours, "numpy": numpy}
    if torch is not None:
        calls["torch"] = torch_call
    return calls


def _fmt(shape):
    return "x".join(map(str, shape))


# ------------------------------------------------------------------ kinds


@dataclass(frozen=True)
class Binary:
    """out = op(a, b).  layout: contiguous (1-D, n elements); broadcast
    (a (n/row, row) + b (row,)); transposed (a.T op b.T of (sqrt n)^2, the
    output laid out like the inputs, as numpy and torch allocate it); mixed
    (the same inputs, a C-contiguous output)."""
    op: str                 # our name; numpy and torch use the same one
    dtype: str
    layout: str = "contiguous"

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)} {self.layout}"

    def prepare(self, sizes, rng):
        n, dt = sizes.n, self.dtype
        if self.layout == "contiguous":
            a_shape, b_shape, view_in, view_out = (n,), (n,), "C", "C"
        elif self.layout == "broadcast":
            a_shape, b_shape, view_in, view_out = (n // sizes.row, sizes.row), (sizes.row,), "C", "C"
        elif self.layout in ("transposed", "mixed"):
            s = math.isqrt(n)
            a_shape = b_shape = (s, s)
            view_in, view_out = "T", ("T" if self.layout == "transposed" else "C")
        else:
            raise ValueError(f"unknown layout {self.layout!r}")
        a = trio_from(random(rng, a_shape, dt), view_in)
        b = trio_from(random(rng, b_shape, dt), view_in)
        res = _ops.binary_result(self.op, dt).name
        out = trio_empty(np.broadcast_shapes(a.numpy.shape, b.numpy.shape), res, view_out)
        np_f = getattr(np, self.op)
        t_f = getattr(torch, self.op, None)
        op = self.op
        shape = f"{_fmt(a_shape)} {self.op} {_fmt(b_shape)}" + (" (.T)" if view_in == "T" else "")
        return Prepared(
            _calls(lambda: _ops.binary(op, a.ours, b.ours, out=out.ours),
                   lambda: np_f(a.numpy, b.numpy, out=out.numpy),
                   lambda: t_f(a.torch, b.torch, out=out.torch)),
            out, shape, *tolerance(res))


@dataclass(frozen=True)
class Unary:
    """out = op(a) over n contiguous elements."""
    op: str
    dtype: str

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)}"

    def prepare(self, sizes, rng):
        a = trio_from(random(rng, (sizes.n,), self.dtype))
        res = _ops.unary_result(self.op, self.dtype).name
        out = trio_empty((sizes.n,), res)
        np_f = getattr(np, self.op)
        t_f = getattr(torch, self.op, None)
        op = self.op
        return Prepared(
            _calls(lambda: _ops.unary(op, a.ours, out=out.ours),
                   lambda: np_f(a.numpy, out=out.numpy),
                   lambda: t_f(a.torch, out=out.torch)),
            out, _fmt((sizes.n,)), *tolerance(res))


# reductions whose numpy or torch function has another name
REDUCE_NP = {}
REDUCE_TORCH = {"min": "amin", "max": "amax"}


@dataclass(frozen=True)
class Reduce:
    """Reduction of a side x side C-contiguous matrix over `axis` (None:
    all).  Outputs are preallocated in keepdims form for all three; ours
    calls st_reduce directly, since _ops.reduce allocates its output."""
    op: str
    dtype: str
    axis: int | None = None

    @property
    def name(self):
        where = "all" if self.axis is None else f"axis {self.axis}"
        return f"{self.op} {short(self.dtype)} {where}"

    def prepare(self, sizes, rng):
        shape = (sizes.side, sizes.side)
        a = trio_from(random(rng, shape, self.dtype))
        axes = tuple(range(len(shape))) if self.axis is None else (self.axis,)
        keep = tuple(1 if d in axes else n for d, n in enumerate(shape))
        res = _ops.reduce_result(self.op, self.dtype).name
        out = trio_empty(keep, res)
        code = _ops.REDUCE[self.op]
        mask = ffi.new("uint8_t[]", [d in axes for d in range(len(shape))])
        np_f = getattr(np, REDUCE_NP.get(self.op, self.op))
        t_f = getattr(torch, REDUCE_TORCH.get(self.op, self.op), None)
        dim = axes[0] if len(axes) == 1 else axes   # torch.prod takes one dim only
        rtol, atol = tolerance(res)
        count = math.prod(shape[d] for d in axes)   # rounding grows with the terms summed
        return Prepared(
            _calls(lambda: _core.check(lib.st_reduce(code, out.ours.t, a.ours.t, mask, ffi.NULL)),
                   lambda: np_f(a.numpy, axis=axes, keepdims=True, out=out.numpy),
                   lambda: t_f(a.torch, dim=dim, keepdim=True, out=out.torch)),
            out, _fmt(shape), rtol, atol * math.sqrt(count))


@dataclass(frozen=True)
class Copy:
    """dst[...] = src.T: a transposed side x side source into a
    C-contiguous destination of the same dtype."""
    dtype: str

    @property
    def name(self):
        return f"copy {short(self.dtype)} transposed->contiguous"

    def prepare(self, sizes, rng):
        shape = (sizes.side, sizes.side)
        src = trio_from(random(rng, shape, self.dtype), "T")
        dst = trio_empty(shape, self.dtype)
        return Prepared(
            _calls(lambda: _core.copy_(dst.ours, src.ours),
                   lambda: np.copyto(dst.numpy, src.numpy),
                   lambda: dst.torch.copy_(src.torch)),
            dst, _fmt(shape) + " (.T)", *tolerance(self.dtype))


@dataclass(frozen=True)
class Cast:
    """dst = src converted to another dtype, n contiguous elements, into a
    preallocated destination (ours: what _core.astype does after allocating)."""
    src: str
    dst: str

    @property
    def name(self):
        return f"cast {short(self.src)}->{short(self.dst)}"

    def prepare(self, sizes, rng):
        a = trio_from(random(rng, (sizes.n,), self.src))
        out = trio_empty((sizes.n,), self.dst)
        return Prepared(
            _calls(lambda: _core.copy_(out.ours, a.ours),
                   lambda: np.copyto(out.numpy, a.numpy, casting="unsafe"),
                   lambda: out.torch.copy_(a.torch)),
            out, _fmt((sizes.n,)), *tolerance(self.dst))


@dataclass(frozen=True)
class Matmul:
    """out = a @ b, a and b C-contiguous side x side matrices (the side is
    part of the case, whatever --quick), into a preallocated output."""
    dtype: str
    side: int = 1024

    @property
    def name(self):
        return f"matmul {short(self.dtype)} {self.side}"

    def prepare(self, sizes, rng):
        shape = (self.side, self.side)
        a = trio_from(random(rng, shape, self.dtype))
        b = trio_from(random(rng, shape, self.dtype))
        out = trio_empty(shape, self.dtype)
        rtol, atol = tolerance(self.dtype)
        return Prepared(
            _calls(lambda: _ops.matmul(a.ours, b.ours, out=out.ours),
                   lambda: np.matmul(a.numpy, b.numpy, out=out.numpy),
                   lambda: torch.matmul(a.torch, b.torch, out=out.torch)),
            out, f"{_fmt(shape)} @ {_fmt(shape)}", rtol, atol * self.side)   # k terms per element


@dataclass(frozen=True)
class FFT:
    """out = fft(a) (op "fft", complex) or rfft(a) (op "rfft", real a):
    `lines` lines of n points along the last axis (1: one long line) into a
    preallocated output.  Ours calls st_fft_c2c / st_fft_r2c, the C under
    strided.compat.fft (which allocates its result); numpy
    np.fft.fft(out=), torch torch.fft.fft(out=).  The sizes are part of
    the case, whatever --quick."""
    op: str
    dtype: str
    n: int
    lines: int = 1
    label: str = ""            # the length as the name shows it ("2^20")

    @property
    def name(self):
        lines = f" x{self.lines}" if self.lines > 1 else ""
        return f"{self.op} {short(self.dtype)} {self.label or self.n}{lines}"

    def prepare(self, sizes, rng):
        shape = (self.lines, self.n) if self.lines > 1 else (self.n,)
        dim, n = len(shape) - 1, self.n
        a = trio_from(random(rng, shape, self.dtype))
        if self.op == "fft":
            res = self.dtype
            out = trio_empty(shape, res)
            ours = lambda: _core.check(lib.st_fft_c2c(out.ours.t, a.ours.t, dim, 1, 1.0))
        else:
            res = {"float32": "complex64", "float64": "complex128"}[self.dtype]
            out = trio_empty(shape[:-1] + (n // 2 + 1,), res)
            ours = lambda: _core.check(lib.st_fft_r2c(out.ours.t, a.ours.t, dim, n, 1, 1.0))
        np_f, t_f = getattr(np.fft, self.op), getattr(torch.fft, self.op, None) if torch else None
        rtol, atol = tolerance(res)
        return Prepared(
            _calls(ours,
                   lambda: np_f(a.numpy, axis=-1, out=out.numpy),
                   lambda: t_f(a.torch, dim=-1, out=out.torch)),
            # values grow like sqrt(n), rounding like log2(n)
            out, _fmt(shape), rtol, atol * math.sqrt(n) * math.log2(n))


# ------------------------------------------------------------------ the table

CASES = [
    Binary("add", "float64", "contiguous"),
    Binary("add", "float64", "broadcast"),
    Binary("add", "float64", "transposed"),
    Binary("add", "float64", "mixed"),
    Binary("add", "float32", "contiguous"),
    Binary("add", "float32", "broadcast"),
    Binary("add", "float32", "transposed"),
    Binary("multiply", "float64", "contiguous"),
    Binary("multiply", "float64", "broadcast"),
    Binary("multiply", "float64", "transposed"),
    Binary("multiply", "float32", "contiguous"),
    Binary("multiply", "float32", "broadcast"),
    Binary("multiply", "float32", "transposed"),
    Unary("exp", "float64"),
    Unary("exp", "float32"),
    Unary("sin", "float64"),
    Unary("sin", "float32"),
    Reduce("sum", "float64", None),
    Reduce("sum", "float64", 0),
    Reduce("sum", "float64", 1),
    Copy("float64"),
    Cast("float64", "float32"),
    Matmul("float64", 1024),
    Matmul("float32", 1024),
    FFT("fft", "complex128", 2 ** 20, label="2^20"),
    FFT("fft", "complex128", 100003, label="prime 100003"),
    FFT("fft", "complex64", 2 ** 20, label="2^20"),
    FFT("fft", "complex64", 100003, label="prime 100003"),
    FFT("fft", "complex128", 1024, lines=1000),
    FFT("rfft", "float64", 2 ** 20, label="2^20"),
]

"""The kinds of benchmark case (the table of cases is cases.py).

A case is a small
frozen record (op, dtype, layout...) of one of the kinds below, carrying
the `level` its issue sets for it (numpy time / our time to reach; None:
no level); its `prepare(sizes, rng)` builds the inputs of all three
contestants and returns a `Prepared`: the three zero-argument calls to time.

The convention, the same for every contestant: inputs are built once in
setup (views included).  Where all three can write into a given output
(`out=` for numpy and torch, our `out=` or the C call under the internal
function), outputs are preallocated and a timed call is the kernel alone;
where one of them cannot (numpy's sort, where, boolean indexing, nonzero;
our mean and std), all three are timed allocating their result, and the
kind's docstring says so.  Every case also gives the allocating form of
its calls (`alloc`), whose peak memory the table reports.

The cases come in sections (`SECTIONS`, `python -m benchmarks --only
SECTION`): "core", the kernels through the internal layer and the small
calls of strided.compat (issue 7), "torch7", the Torch7 face's in-place
and [res] forms (issue 12), and "kernels", Torch7-face kernels (conv2,
xcorr2, topk, median, histc) against every peer that computes the same,
numpy's, scipy's and torch's, rated against the fastest (`Kernel`).

To add a case of an existing kind, add a line to its section's list in
cases.py; to add a kind, write a frozen dataclass with `name`, `level` and
`prepare` here.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np

import strided
from strided.core import (
    base as _core,
    fft as _fft,
    indexing as _indexing,
    ops as _ops,
    views as _views,
)
from strided.core import setops as _setops
from strided.core.base import ffi, lib

from . import accuracy
from .convert import CONTESTANTS, Trio, to_numpy, to_torch7, torch, trio_empty, trio_from


def short(dtype):
    """float64 -> f64, uint8 -> u8, complex128 -> c128, bool -> bool."""
    dt = np.dtype(dtype)
    return "bool" if dt.kind == "b" else f"{dt.kind}{8 * dt.itemsize}"


@dataclass(frozen=True)
class Sizes:
    n: int  # elements of the elementwise and 1-D cases (10^7)
    side: int  # side of the square matrix of the reductions and the copy
    part: int  # elements sorted, indices taken (10^6)
    face: int  # elements of the Torch7 face's cases (2 x 10^7)
    face_rows: int  # rows of their matrix (4000: 4000 x 5000)
    row: int = 1000  # length of the broadcast row
    image: int = 1000  # side of the square image of the Torch7 kernels' conv2 / xcorr2
    kernel: int = 11  # side of their square kernel
    workload_scale: int = 1  # the workloads' large inputs: rows and columns divided by it
    sweep_max: int = 3 * 10**7  # the sweep's largest size


FULL = Sizes(n=10**7, side=3000, part=10**6, face=2 * 10**7, face_rows=4000)
QUICK = Sizes(
    n=10**6,
    side=1000,
    part=10**5,
    face=2 * 10**6,
    face_rows=400,
    image=300,
    workload_scale=10,
    sweep_max=10**6,
)

# the levels of issue 7 (numpy time / our time), one per family of ops
ELEMENTWISE, MATH, REDUCTION, MOVE, SORT, MATMUL = 1.3, 1.5, 1.5, 1.2, 1.0, 0.95
SMALL_ADD = 0.5  # issue 16: a + b within 2x numpy's time per call (x:add(y): compat's)
SMALL_CREATE = 1 / 3  # issue 16: asarray and zeros within 3x
SMALL_LIBRARY = 0.5  # issue 22: the small calls inside library code within 2x numpy's time
TORCH7 = 1.2  # issue 12: the Torch7 face's in-place and [res] forms
FASTEST = 1.0  # the Torch7 kernels: at least as fast as the fastest peer


@dataclass
class Prepared:
    """What the runner needs from a case."""

    calls: dict[str, Callable[[], Any]]  # contestant -> zero-argument call, timed
    out: Trio | None  # where each call writes its result; None: the calls return it
    shape: str  # the input geometry, for the table
    rtol: float
    atol: float
    # contestant -> the call in its allocating form, for peak memory (None: `calls` allocate)
    alloc: dict[str, Callable[[], Any]] | None = None
    # True: the calls measured for peak memory write into `out`, which exists
    # before them: their whole peak is temporaries (nothing is subtracted)
    in_place: bool = False
    # {contestant: result as numpy} -> {contestant: max ulp error}; None: not measured
    accuracy: Callable[[dict], dict] | None = None
    # the contestant whose result is the reference the others are checked against
    oracle: str = "numpy"
    # contestant -> its result (what its call returned) as a numpy array to
    # compare; the default is convert.to_numpy
    read: dict[str, Callable[[Any], np.ndarray]] | None = None


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


def _torch_dtype(dtype):
    return getattr(torch, np.dtype(dtype).name) if torch is not None else None


# numpy name -> torch's, where they differ
TORCH_NAMES = {"equal": "eq", "power": "pow", "max": "amax", "min": "amin"}


def _torch_f(name):
    return getattr(torch, TORCH_NAMES.get(name, name), None) if torch is not None else None


# ------------------------------------------------------------------ kinds


@dataclass(frozen=True)
class Binary:
    """out = op(a, b).  layout: contiguous (1-D, n elements); broadcast
    (a (n/row, row) + b (row,)); transposed (a.T op b.T of (sqrt n)^2, the
    output laid out like the inputs, as numpy and torch allocate it); mixed
    (the same inputs, a C-contiguous output).  Comparisons give bool."""

    op: str  # ours and numpy's name (torch: TORCH_NAMES)
    dtype: str
    layout: str = "contiguous"
    level: float | None = ELEMENTWISE

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)} {self.layout}"

    def prepare(self, sizes, rng):
        n, dt = sizes.n, self.dtype
        if self.layout == "contiguous":
            a_shape, b_shape, view_in, view_out = (n,), (n,), "C", "C"
        elif self.layout == "broadcast":
            a_shape, b_shape, view_in, view_out = (
                (n // sizes.row, sizes.row),
                (sizes.row,),
                "C",
                "C",
            )
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
        np_f, t_f, op = getattr(np, self.op), _torch_f(self.op), self.op
        shape = f"{_fmt(a_shape)} {self.op} {_fmt(b_shape)}" + (" (.T)" if view_in == "T" else "")
        return Prepared(
            _calls(
                lambda: _ops.binary(op, a.ours, b.ours, out=out.ours),
                lambda: np_f(a.numpy, b.numpy, out=out.numpy),
                lambda: t_f(a.torch, b.torch, out=out.torch),
            ),
            out,
            shape,
            *tolerance(res),
            alloc=_calls(
                lambda: _ops.binary(op, a.ours, b.ours),
                lambda: np_f(a.numpy, b.numpy),
                lambda: t_f(a.torch, b.torch),
            ),
        )


def _uniform(lo, hi):
    return lambda rng, n, dt: rng.uniform(lo, hi, n).astype(dt)


def _log_uniform(lo, hi):
    """Positive values whose logarithm is uniform in [lo, hi): every binade alike."""
    return lambda rng, n, dt: np.exp(rng.uniform(lo, hi, n)).astype(dt)


# op -> (numpy's name, {dtype: one input generator per argument}); inputs in
# the function's domain, wide enough to exercise argument reduction, and
# results finite in both precisions
MATH_OPS = {
    "exp": ("exp", {"float64": [_uniform(-700, 700)], "float32": [_uniform(-87, 88)]}),
    "log": ("log", {"float64": [_log_uniform(-700, 700)], "float32": [_log_uniform(-87, 88)]}),
    "sin": ("sin", {dt: [_uniform(-100, 100)] for dt in ("float64", "float32")}),
    "cos": ("cos", {dt: [_uniform(-100, 100)] for dt in ("float64", "float32")}),
    "tanh": ("tanh", {dt: [_uniform(-10, 10)] for dt in ("float64", "float32")}),
    "sqrt": ("sqrt", {"float64": [_log_uniform(-700, 700)], "float32": [_log_uniform(-87, 88)]}),
    "pow": ("power", {dt: [_uniform(0.1, 10), _uniform(-8, 8)] for dt in ("float64", "float32")}),
}
ULP_SAMPLE = (
    1 << 20
)  # elements whose error is measured (evenly spaced): bounds the reference's time


@dataclass(frozen=True)
class Math:
    """out = f(a) (pow: f(a, b)) over n contiguous elements drawn from
    f's domain (MATH_OPS), with the max ulp error of each contestant's
    result against f in longdouble (accuracy.py) on an evenly spaced
    sample of ULP_SAMPLE of the inputs (all of them with --quick)."""

    op: str
    dtype: str
    level: float | None = MATH

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)}"

    def prepare(self, sizes, rng):
        np_name, domains = MATH_OPS[self.op]
        args = [trio_from(gen(rng, sizes.n, self.dtype)) for gen in domains[self.dtype]]
        res = self.dtype
        out = trio_empty((sizes.n,), res)
        np_f, t_f = getattr(np, np_name), _torch_f(np_name)
        ours = [x.ours for x in args]
        nps = [x.numpy for x in args]
        ts = [x.torch for x in args]
        op = self.op
        if len(args) == 1:
            ours_call = lambda: _ops.unary(op, ours[0], out=out.ours)
            ours_alloc = lambda: _ops.unary(op, ours[0])
        else:
            ours_call = lambda: _ops.binary(op, *ours, out=out.ours)
            ours_alloc = lambda: _ops.binary(op, *ours)
        step = max(1, sizes.n // ULP_SAMPLE)
        sample = [x[::step] for x in nps]

        def ulps(results):
            return accuracy.max_ulp_of(np_f, sample, {k: v[::step] for k, v in results.items()})

        return Prepared(
            _calls(ours_call, lambda: np_f(*nps, out=out.numpy), lambda: t_f(*ts, out=out.torch)),
            out,
            _fmt((sizes.n,)),
            *tolerance(res),
            alloc=_calls(ours_alloc, lambda: np_f(*nps), lambda: t_f(*ts)),
            accuracy=ulps,
        )


def _reduce_geometry(sizes, over):
    """(input shape, reduced axes) of a reduction: `over` is "all",
    "axis 0", "axis 1" of the side x side matrix, or "1-D": all of n."""
    if over == "1-D":
        return (sizes.n,), (0,)
    return (sizes.side, sizes.side), {"all": (0, 1), "axis 0": (0,), "axis 1": (1,)}[over]


def _reduce_tolerance(res, shape, axes):
    rtol, atol = tolerance(res)
    return rtol, atol * math.sqrt(
        math.prod(shape[d] for d in axes)
    )  # rounding grows with the terms


def _keep(shape, axes):
    return tuple(1 if d in axes else n for d, n in enumerate(shape))


@dataclass(frozen=True)
class _Reduction:
    """What Reduce and Statistic share: an op over a standard normal matrix
    or vector (see _reduce_geometry), named by op, dtype and what it
    reduces over."""

    op: str
    dtype: str
    over: str = "all"
    level: float | None = REDUCTION

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)} {self.over}"


def _reduce_input(sizes, rng, over, dtype):
    """(shape, axes, the input trio) of a reduction over `over`."""
    shape, axes = _reduce_geometry(sizes, over)
    return shape, axes, trio_from(random(rng, shape, dtype))


@dataclass(frozen=True)
class Reduce(_Reduction):
    """sum or max into a preallocated keepdims-shaped output: ours calls
    st_reduce, the C under _ops.reduce (which allocates)."""

    def prepare(self, sizes, rng):
        shape, axes, a = _reduce_input(sizes, rng, self.over, self.dtype)
        res = _ops.reduce_result(self.op, self.dtype).name
        out = trio_empty(_keep(shape, axes), res)
        code, op = _ops.REDUCE[self.op], self.op
        mask = ffi.new("uint8_t[]", [d in axes for d in range(len(shape))])
        np_f, t_f = getattr(np, self.op), _torch_f(self.op)
        return Prepared(
            _calls(
                lambda: _core.check(lib.st_reduce(code, out.ours.t, a.ours.t, mask, ffi.NULL)),
                lambda: np_f(a.numpy, axis=axes, keepdims=True, out=out.numpy),
                lambda: t_f(a.torch, dim=axes, keepdim=True, out=out.torch),
            ),
            out,
            _fmt(shape),
            *_reduce_tolerance(res, shape, axes),
            alloc=_calls(
                lambda: _ops.reduce(op, a.ours, axes, keepdims=True),
                lambda: np_f(a.numpy, axis=axes, keepdims=True),
                lambda: t_f(a.torch, dim=axes, keepdim=True),
            ),
        )


@dataclass(frozen=True)
class Statistic(_Reduction):
    """mean or std (correction 0) as Reduce, but timed allocating their
    (small) result for all three: ours is _ops.mean / _ops.std, whose
    steps (a sum, then a divide; a mean, the squared deviations, a
    divide, a square root) have no single C entry point to preallocate."""

    def prepare(self, sizes, rng):
        shape, axes, a = _reduce_input(sizes, rng, self.over, self.dtype)
        np_f, t_f = getattr(np, self.op), _torch_f(self.op)
        if self.op == "mean":
            ours = lambda: _ops.mean(a.ours, axes, keepdims=True)
            t_call = lambda: t_f(a.torch, dim=axes, keepdim=True)
        else:
            ours = lambda: _ops.std(a.ours, axes, 0.0, keepdims=True)
            t_call = lambda: t_f(a.torch, dim=axes, correction=0, keepdim=True)
        return Prepared(
            _calls(ours, lambda: np_f(a.numpy, axis=axes, keepdims=True), t_call),
            None,
            _fmt(shape),
            *_reduce_tolerance(self.dtype, shape, axes),
        )


@dataclass(frozen=True)
class ArgMax:
    """argmax as Reduce, into a preallocated int64 keepdims output: ours
    calls st_argreduce, the C under _ops.argreduce (over all: along the
    flattened view, as _ops.argreduce does)."""

    dtype: str
    over: str = "all"
    level: float | None = REDUCTION

    @property
    def name(self):
        return f"argmax {short(self.dtype)} {self.over}"

    def prepare(self, sizes, rng):
        shape, axes, a = _reduce_input(sizes, rng, self.over, self.dtype)
        out = trio_empty(_keep(shape, axes), "int64")
        if len(axes) == len(shape) and len(shape) > 1:  # over all: flatten
            a_in, o_in, dim = (
                _views.view_as_shape(a.ours, (a.ours.size,)),
                _views.view_as_shape(out.ours, (1,)),
                0,
            )
            axis = None
        else:
            a_in, o_in, dim = a.ours, out.ours, axes[0]
            axis = dim
        return Prepared(
            _calls(
                lambda: _core.check(lib.st_argreduce(1, o_in.t, a_in.t, dim)),
                lambda: np.argmax(a.numpy, axis=axis, keepdims=True, out=out.numpy),
                lambda: torch.argmax(a.torch, dim=axis, keepdim=True, out=out.torch),
            ),
            out,
            _fmt(shape),
            0,
            0,
            alloc=_calls(
                lambda: _ops.argreduce(True, a.ours, axis, keepdims=True),
                lambda: np.argmax(a.numpy, axis=axis, keepdims=True),
                lambda: torch.argmax(a.torch, dim=axis, keepdim=True),
            ),
        )


@dataclass(frozen=True)
class CumSum:
    """Running sum along one axis ("1-D": of n elements; "axis 0" / "axis
    1" of the side x side matrix) into a preallocated output: ours calls
    st_cumulative, the C under _ops.cumulative."""

    dtype: str
    over: str = "1-D"
    level: float | None = REDUCTION

    @property
    def name(self):
        return f"cumsum {short(self.dtype)} {self.over}"

    def prepare(self, sizes, rng):
        shape, (dim,), a = _reduce_input(sizes, rng, self.over, self.dtype)
        out = trio_empty(shape, self.dtype)
        return Prepared(
            _calls(
                lambda: _core.check(lib.st_cumulative(0, out.ours.t, a.ours.t, dim)),
                lambda: np.cumsum(a.numpy, axis=dim, out=out.numpy),
                lambda: torch.cumsum(a.torch, dim=dim, out=out.torch),
            ),
            out,
            _fmt(shape),
            *_reduce_tolerance(self.dtype, shape, (dim,)),
            alloc=_calls(
                lambda: _ops.cumulative(False, a.ours, dim),
                lambda: np.cumsum(a.numpy, axis=dim),
                lambda: torch.cumsum(a.torch, dim=dim),
            ),
        )


@dataclass(frozen=True)
class Copy:
    """dst[...] = src.T: a transposed side x side source into a
    C-contiguous destination of the same dtype."""

    dtype: str
    level: float | None = MOVE

    @property
    def name(self):
        return f"copy {short(self.dtype)} transposed->contiguous"

    def prepare(self, sizes, rng):
        shape = (sizes.side, sizes.side)
        src = trio_from(random(rng, shape, self.dtype), "T")
        dst = trio_empty(shape, self.dtype)
        return Prepared(
            _calls(
                lambda: _core.copy_(dst.ours, src.ours),
                lambda: np.copyto(dst.numpy, src.numpy),
                lambda: dst.torch.copy_(src.torch),
            ),
            dst,
            _fmt(shape) + " (.T)",
            *tolerance(self.dtype),
            alloc=_calls(
                lambda: _core.contiguous(src.ours),
                lambda: np.ascontiguousarray(src.numpy),
                lambda: src.torch.contiguous(),
            ),
        )


@dataclass(frozen=True)
class Cast:
    """dst = src converted to another dtype, n contiguous elements, into a
    preallocated destination (ours: what _core.astype does after allocating)."""

    src: str
    dst: str
    level: float | None = MOVE

    @property
    def name(self):
        return f"cast {short(self.src)}->{short(self.dst)}"

    def prepare(self, sizes, rng):
        a = trio_from(random(rng, (sizes.n,), self.src))
        out = trio_empty((sizes.n,), self.dst)
        dst, t_dst = self.dst, _torch_dtype(self.dst)
        return Prepared(
            _calls(
                lambda: _core.copy_(out.ours, a.ours),
                lambda: np.copyto(out.numpy, a.numpy, casting="unsafe"),
                lambda: out.torch.copy_(a.torch),
            ),
            out,
            _fmt((sizes.n,)),
            *tolerance(self.dst),
            alloc=_calls(
                lambda: _core.astype(a.ours, dst),
                lambda: a.numpy.astype(dst),
                lambda: a.torch.to(t_dst),
            ),
        )


@dataclass(frozen=True)
class Sort:
    """sort or argsort of `part` standard normal values (no ties, so every
    sort gives the same order), timed allocating the result for all three
    (numpy's sort has no out=): ours _indexing.sort / argsort (stable),
    numpy np.sort / np.argsort (its default kind), torch torch.sort (which
    also makes the indices) / torch.argsort."""

    op: str
    dtype: str = "float64"
    level: float | None = SORT

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)}"

    def prepare(self, sizes, rng):
        a = trio_from(random(rng, (sizes.part,), self.dtype))
        if self.op == "sort":
            calls = _calls(
                lambda: _indexing.sort(a.ours),
                lambda: np.sort(a.numpy),
                lambda: torch.sort(a.torch).values,
            )
        else:
            calls = _calls(
                lambda: _indexing.argsort(a.ours),
                lambda: np.argsort(a.numpy),
                lambda: torch.argsort(a.torch),
            )
        return Prepared(calls, None, _fmt((sizes.part,)), 0, 0)


def _set_digest(x, values, inverse=None, counts=None, firsts=None):
    """A set function's result as one float64 array that does not depend on
    the order of the values (numpy's unique_values leaves them unsorted
    since 2.3): the values sorted, the counts in that order, values[inverse]
    (the input again) and the values at the first indices, x[indices], in
    that order (the values again)."""
    values = to_numpy(values)
    order = np.argsort(values, kind="stable")
    parts = [values[order]]
    if counts is not None:
        parts.append(to_numpy(counts)[order].astype(np.float64))
    if inverse is not None:
        parts.append(values[to_numpy(inverse).ravel()])
    if firsts is not None:
        parts.append(to_numpy(firsts)[order])
    return np.concatenate(parts)


# set function -> (ours (_setops.unique's keywords), numpy's, torch.unique's keywords)
SET_OPS = {
    "unique_values": ({}, "unique_values", {}),
    "unique_counts": ({"counts": True}, "unique_counts", {"return_counts": True}),
    "unique_inverse": ({"inverse": True}, "unique_inverse", {"return_inverse": True}),
    "unique_all": (
        {"indices": True, "inverse": True, "counts": True},
        "unique_all",
        {"return_inverse": True, "return_counts": True},
    ),
}


@dataclass(frozen=True)
class SetOp:
    """A set function of `part` float64 values (issue 16), allocating its
    results: `values` "repeated" draws them from `part` / 10 distinct values
    (about 10 of each), "distinct" is standard normal (all differ).  unique_*:
    ours _setops.unique (the C under strided.compat's unique_*: a stable
    sort, the runs, the fill), numpy np.unique_* (whose unique_values hashes
    and does not sort), torch torch.unique (sorted; it has no first indices,
    so for unique_all it makes values, inverse and counts).  isin: `part`
    needles of the same distribution (half of them in the haystack when
    repeated) in the `part` values: ours _setops.isin (a sort of the
    haystack, then every needle binary-searched), numpy np.isin, torch
    torch.isin.  Results are checked through an order-free digest
    (`_set_digest`)."""

    op: str
    values: str = "repeated"
    level: float | None = SORT

    @property
    def name(self):
        return f"{self.op} f64 {self.values}"

    def _draw(self, rng, n):
        if self.values == "distinct":
            return rng.standard_normal(n)
        return rng.integers(0, n // 10, n) / 7.0

    def prepare(self, sizes, rng):
        n = sizes.part
        x = self._draw(rng, n)
        a = trio_from(x)
        if self.op == "isin":
            needles = self._draw(rng, n) * (2 if self.values == "repeated" else 1)
            y = trio_from(needles)
            calls = _calls(
                lambda: _setops.isin(y.ours, a.ours),
                lambda: np.isin(y.numpy, a.numpy),
                lambda: torch.isin(y.torch, a.torch),
            )
            return Prepared(calls, None, f"{_fmt((n,))} in {_fmt((n,))}", 0, 0)
        kw, np_name, torch_kw = SET_OPS[self.op]
        np_fn = getattr(np, np_name)

        def ours(r):
            values, indices, inverse, counts = r
            return _set_digest(
                x, values, inverse, counts, None if indices is None else x[to_numpy(indices)]
            )

        def numpy_(r):
            if self.op == "unique_values":
                return _set_digest(x, r)
            indices = getattr(r, "indices", None)
            return _set_digest(
                x,
                r.values,
                getattr(r, "inverse_indices", None),
                getattr(r, "counts", None),
                None if indices is None else x[indices],
            )

        def torch_(r):
            if not isinstance(r, tuple):
                return _set_digest(x, r)
            rest = list(r[1:])
            inverse = rest.pop(0) if "return_inverse" in torch_kw else None
            counts = rest.pop(0) if "return_counts" in torch_kw else None
            # torch has no first indices: for unique_all, the values stand for x[indices]
            return _set_digest(x, r[0], inverse, counts, r[0] if "indices" in kw else None)

        return Prepared(
            _calls(
                lambda: _setops.unique(a.ours, **kw),
                lambda: np_fn(a.numpy),
                lambda: torch.unique(a.torch, sorted=True, **torch_kw),
            ),
            None,
            _fmt((n,)),
            0,
            0,
            read={"ours": ours, "numpy": numpy_, "torch": torch_},
        )


@dataclass(frozen=True)
class Take:
    """out = a[idx]: `part` random int64 positions into n elements, into a
    preallocated output: ours calls st_index_select with ST_IDX_WRAP, the C
    under _indexing.take (compat.take); numpy np.take(out=), torch
    torch.index_select(out=)."""

    dtype: str = "float64"
    level: float | None = MOVE

    @property
    def name(self):
        return f"take {short(self.dtype)}"

    def prepare(self, sizes, rng):
        a = trio_from(random(rng, (sizes.n,), self.dtype))
        idx = trio_from(rng.integers(0, sizes.n, sizes.part, dtype=np.int64))
        out = trio_empty((sizes.part,), self.dtype)
        return Prepared(
            _calls(
                lambda: _core.check(
                    lib.st_index_select(out.ours.t, a.ours.t, 0, idx.ours.t, lib.ST_IDX_WRAP)
                ),
                lambda: np.take(a.numpy, idx.numpy, out=out.numpy),
                lambda: torch.index_select(a.torch, 0, idx.torch, out=out.torch),
            ),
            out,
            f"{sizes.part} of {sizes.n}",
            0,
            0,
            alloc=_calls(
                lambda: _indexing.take(a.ours, idx.ours),
                lambda: np.take(a.numpy, idx.numpy),
                lambda: torch.index_select(a.torch, 0, idx.torch),
            ),
        )


@dataclass(frozen=True)
class Select:
    """The ops whose output size depends on the data or that numpy offers
    without out=, timed allocating their result for all three:
    mask:    a[mask], a fair boolean mask over n elements (ours
             _indexing.masked_select, numpy a[mask], torch masked_select);
    where:   where(cond, a, b) over n (ours _ops.where, np.where, torch.where);
    nonzero: the positions of a fair boolean mask of n (ours
             _indexing.nonzero and torch.nonzero: [count, 1]; numpy's
             tuple is stacked to that shape for the check)."""

    op: str
    dtype: str = "float64"
    level: float | None = MOVE

    @property
    def name(self):
        return f"{self.op} {short(self.dtype)}" if self.op != "nonzero" else "nonzero bool"

    def prepare(self, sizes, rng):
        n = sizes.n
        m = trio_from(random(rng, (n,), "bool"))
        a = trio_from(random(rng, (n,), self.dtype))
        if self.op == "mask":
            calls = _calls(
                lambda: _indexing.masked_select(a.ours, m.ours),
                lambda: a.numpy[m.numpy],
                lambda: torch.masked_select(a.torch, m.torch),
            )
        elif self.op == "where":
            b = trio_from(random(rng, (n,), self.dtype))
            calls = _calls(
                lambda: _ops.where(m.ours, a.ours, b.ours),
                lambda: np.where(m.numpy, a.numpy, b.numpy),
                lambda: torch.where(m.torch, a.torch, b.torch),
            )
        elif self.op == "nonzero":
            calls = _calls(
                lambda: _indexing.nonzero(m.ours),
                lambda: np.nonzero(m.numpy),
                lambda: torch.nonzero(m.torch),
            )
        else:
            raise ValueError(f"unknown op {self.op!r}")
        return Prepared(calls, None, _fmt((n,)), *tolerance(self.dtype))


@dataclass(frozen=True)
class Small:
    """One call through the public API on 3 elements, timed per call
    (the Python overhead, not the kernel): "add": a + b of two float64
    arrays (strided.compat arrays, numpy arrays, torch tensors);
    "asarray": xp.asarray([1.0, 2.0, 3.0]); "zeros": xp.zeros(3) (torch
    asked for float64, its default being float32); "torch7 add": the
    Torch7 face's in-place x.add(y) of two DoubleTensors against numpy's
    np.add(a, b, out=a), torch's x.add_(y) and strided.compat's a + b
    (the level's reference).  Levels (issue 16): a + b within 2x numpy's
    time, asarray and zeros within 3x, x.add(y) within 2x compat's a + b."""

    what: str

    @property
    def level(self):
        return {"add": SMALL_ADD, "torch7 add": SMALL_ADD}.get(self.what, SMALL_CREATE)

    @property
    def against(self):
        return "compat" if self.what == "torch7 add" else "numpy"

    @property
    def name(self):
        return {
            "add": "small a + b f64 (3)",
            "asarray": "small asarray([1., 2., 3.])",
            "zeros": "small zeros(3)",
            "torch7 add": "small x:add(y) f64 (3), Torch7",
        }[self.what]

    def prepare(self, sizes, rng):
        import strided.compat as xp

        a, b, values = rng.standard_normal(3), rng.standard_normal(3), [1.0, 2.0, 3.0]

        def call(who, ns):
            # partial, not lambda: no Python frame of ours around a sub-microsecond call
            if self.what == "add":
                return functools.partial(operator.add, ns.asarray(a), ns.asarray(b))
            f64 = {"dtype": torch.float64} if who == "torch" else {}
            if self.what == "asarray":
                return functools.partial(ns.asarray, values, **f64)
            return functools.partial(ns.zeros, 3, **f64)

        namespaces = {"ours": xp, "numpy": np, "torch": torch}
        if self.what == "torch7 add":
            x, y = (strided.DoubleTensor(v.tolist()) for v in (a, b))
            a_in = a.copy()
            calls = {
                "ours": functools.partial(x.add, y),
                "numpy": functools.partial(np.add, a_in, b, out=a_in),
                "compat": functools.partial(operator.add, xp.asarray(a), xp.asarray(b)),
            }
            if torch is not None:
                calls["torch"] = functools.partial(torch.tensor(a).add_, torch.tensor(b))
            return Prepared(calls, None, "3", *tolerance("float64"))
        calls = {who: call(who, ns) for who, ns in namespaces.items() if ns is not None}
        return Prepared(calls, None, "3", *tolerance("float64"))


# SmallLibrary's calls: name -> (the table's label, call(ns, x, w) giving a
# zero-argument callable); ns is the namespace (xp, numpy or torch), x a
# 500x8 float64 array of it, w an 8-vector
_SMALL_LIBRARY = {
    "matmul": ("x @ w", lambda ns, x, w: functools.partial(operator.matmul, x, w)),
    "T": ("x.T", lambda ns, x, w: functools.partial(getattr, x, "T")),
    "newaxis": (
        "x[:, None]",
        lambda ns, x, w: functools.partial(operator.getitem, x, (slice(None), None)),
    ),
    "index": (
        "x[1:3, 2]",
        lambda ns, x, w: functools.partial(operator.getitem, x, (slice(1, 3), 2)),
    ),
    "reshape": (
        "reshape(x, (250, 16))",
        lambda ns, x, w: functools.partial(ns.reshape, x, (250, 16)),
    ),
    "astype": (
        "astype(x, float32)",
        lambda ns, x, w: (
            functools.partial(x.to, torch.float32)
            if ns is torch
            else functools.partial(ns.astype, x, ns.float32)
        ),
    ),
    "asarray": ("asarray(x)", lambda ns, x, w: functools.partial(ns.asarray, x)),
}


@dataclass(frozen=True)
class SmallLibrary:
    """One small call of the kind array-API library code makes in its
    loops (issue 22: a logistic regression's gradient step, scikit-learn's
    estimators), timed per call on a 500x8 float64 array x and an 8-vector
    w: x @ w, x.T, x[:, None], x[1:3, 2], reshape, astype to float32 and
    asarray of an array of the namespace's own.  Peers: the same
    expression on numpy arrays and torch tensors.  Level (issue 22):
    within 2x numpy's time."""

    what: str
    level: float | None = SMALL_LIBRARY
    against: str = "numpy"

    @property
    def name(self):
        return f"small {_SMALL_LIBRARY[self.what][0]} f64 (500x8)"

    def prepare(self, sizes, rng):
        import strided.compat as xp

        x, w = rng.standard_normal((500, 8)), rng.standard_normal(8)
        make = _SMALL_LIBRARY[self.what][1]
        namespaces = {"ours": xp, "numpy": np, "torch": torch}
        calls = {
            who: make(ns, ns.asarray(x), ns.asarray(w))
            for who, ns in namespaces.items()
            if ns is not None
        }
        return Prepared(calls, None, "500x8", *tolerance("float64"))


@dataclass(frozen=True)
class Fused:
    """out = a * b + c over n contiguous elements: ours through
    strided.compat.fuse (one pass over blocks of a few KB, no temporary),
    against strided.compat's unfused a * b + c (the level's reference: a
    full-size temporary for a * b, then a second pass), numpy's and
    torch's a * b + c.  All allocate their result.  Level (issue 16): the
    fused form at least 1.5x the unfused one."""

    dtype: str = "float64"
    level: float | None = 1.5
    against: str = "unfused"

    @property
    def name(self):
        return f"fused a * b + c {short(self.dtype)}"

    def prepare(self, sizes, rng):
        import strided.compat as xp

        n = sizes.n
        a, b, c = (trio_from(random(rng, (n,), self.dtype)) for _ in range(3))
        xa, xb, xc = (xp.asarray(t.numpy) for t in (a, b, c))  # zero-copy views
        fused = xp.fuse(lambda x, y, z: x * y + z)
        calls = {
            "ours": lambda: fused(xa, xb, xc),
            "numpy": lambda: a.numpy * b.numpy + c.numpy,
            "unfused": lambda: xa * xb + xc,
        }
        if torch is not None:
            calls["torch"] = lambda: a.torch * b.torch + c.torch
        return Prepared(calls, None, _fmt((n,)), *tolerance(self.dtype))


@dataclass(frozen=True)
class Matmul:
    """out = a @ b, a and b C-contiguous side x side matrices (the side is
    part of the case, whatever --quick), into a preallocated output; with
    `batch`, stacks of that many matrices, (batch, side, side) @ (batch,
    side, side): a product per matrix (issue 16: small and middle-sized
    matrices, whose products our threads share out)."""

    dtype: str
    side: int = 1024
    level: float | None = MATMUL
    batch: int = 0

    @property
    def name(self):
        stack = f"{self.batch}x" if self.batch else ""
        return f"matmul {short(self.dtype)} {stack}{self.side}"

    def prepare(self, sizes, rng):
        shape = ((self.batch,) if self.batch else ()) + (self.side, self.side)
        a = trio_from(random(rng, shape, self.dtype))
        b = trio_from(random(rng, shape, self.dtype))
        out = trio_empty(shape, self.dtype)
        rtol, atol = tolerance(self.dtype)
        return Prepared(
            _calls(
                lambda: _ops.matmul(a.ours, b.ours, out=out.ours),
                lambda: np.matmul(a.numpy, b.numpy, out=out.numpy),
                lambda: torch.matmul(a.torch, b.torch, out=out.torch),
            ),
            out,
            f"{_fmt(shape)} @ {_fmt(shape)}",
            rtol,
            atol * self.side,  # k terms per element
            alloc=_calls(
                lambda: _ops.matmul(a.ours, b.ours),
                lambda: np.matmul(a.numpy, b.numpy),
                lambda: torch.matmul(a.torch, b.torch),
            ),
        )


@dataclass(frozen=True)
class FFT:
    """out = fft(a) (op "fft", complex) or rfft(a) (op "rfft", real a):
    `lines` lines of n points along the last axis (1: one long line) into a
    preallocated output.  Ours calls st_fft_c2c / st_fft_r2c, the C under
    strided.core.fft (which allocates, for strided.compat.fft); numpy
    np.fft.fft(out=), torch torch.fft.fft(out=).  The sizes are part of
    the case, whatever --quick.  Issue 7 sets no level for the FFT."""

    op: str
    dtype: str
    n: int
    lines: int = 1
    label: str = ""  # the length as the name shows it ("2^20")
    level: float | None = None

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
            ours_alloc = lambda: _fft.c2c(a.ours, dim, n, True, 1.0)
        else:
            res = {"float32": "complex64", "float64": "complex128"}[self.dtype]
            out = trio_empty(shape[:-1] + (n // 2 + 1,), res)
            ours = lambda: _core.check(lib.st_fft_r2c(out.ours.t, a.ours.t, dim, n, 1, 1.0))
            ours_alloc = lambda: _fft.r2c(a.ours, dim, n, True, 1.0)
        np_f, t_f = getattr(np.fft, self.op), getattr(torch.fft, self.op, None) if torch else None
        rtol, atol = tolerance(res)
        return Prepared(
            _calls(
                ours,
                lambda: np_f(a.numpy, axis=-1, out=out.numpy),
                lambda: t_f(a.torch, dim=-1, out=out.torch),
            ),
            # values grow like sqrt(n), rounding like log2(n)
            out,
            _fmt(shape),
            rtol,
            atol * math.sqrt(n) * math.log2(n),
            alloc=_calls(ours_alloc, lambda: np_f(a.numpy, axis=-1), lambda: t_f(a.torch, dim=-1)),
        )


# ------------------------------------------------------------------ the Torch7 face

MUL_BY = 1.0000001  # x.mul(c)'s factor: c^k stays finite over billions of calls


def _res(rows=False):
    """A [res] operand: the output, preallocated (NaN) for each contestant,
    of the operands' shape, or one column of it (rows)."""
    return lambda rng, shape, dt: trio_empty(shape[:1] + (1,) if rows else shape, dt, face="torch7")


class _Form(NamedTuple):
    """A Torch7 call and its peers: each takes the operands, the first
    being the output (in place: x; [res] forms: r)."""

    operands: tuple  # per operand: (rng, shape, dtype) -> its values, a number or a Trio
    ours: Callable
    numpy: Callable
    torch: Callable
    rows: bool = False  # on a face_rows x (face / face_rows) matrix m, r one column


# form -> how each contestant calls it (ours: the Torch7 face, `import strided`)
TORCH7_FORMS = {
    "x.add(y)": _Form(
        (random, random),
        lambda x, y: x.add(y),
        lambda x, y: np.add(x, y, out=x),
        lambda x, y: x.add_(y),
    ),
    "x.cmul(y)": _Form(
        (random, _uniform(1 - 1e-7, 1 + 1e-7)),
        lambda x, y: x.cmul(y),
        lambda x, y: np.multiply(x, y, out=x),
        lambda x, y: x.mul_(y),
    ),
    "x.mul(c)": _Form(
        (random, lambda rng, shape, dt: MUL_BY),
        lambda x, c: x.mul(c),
        lambda x, c: np.multiply(x, c, out=x),
        lambda x, c: x.mul_(c),
    ),
    "cmul(r, a, b)": _Form(
        (_res(), random, random),
        lambda r, a, b: strided.cmul(r, a, b),
        lambda r, a, b: np.multiply(a, b, out=r),
        lambda r, a, b: torch.mul(a, b, out=r),
    ),
    "exp(r, x)": _Form(
        (_res(), _uniform(0, 1)),
        lambda r, x: strided.exp(r, x),
        lambda r, x: np.exp(x, out=r),
        lambda r, x: torch.exp(x, out=r),
    ),
    "sum(r, m, 2)": _Form(
        (_res(rows=True), random),
        lambda r, m: strided.sum(r, m, 2),
        lambda r, m: np.sum(m, axis=1, keepdims=True, out=r),
        lambda r, m: torch.sum(m, 1, keepdim=True, out=r),
        rows=True,
    ),
}


@dataclass(frozen=True)
class Torch7:
    """One call of the Torch7 face (`import strided as torch`, dimensions
    counted from 1), public calls on DoubleTensors of `face` float64
    elements (m: face_rows x face / face_rows), against numpy's out= form
    (the same work, nothing allocated) and torch's in-place or out= form,
    as TORCH7_FORMS lists them; r is preallocated, of the result's size.
    The in-place calls change x at every call of every sample, so their
    operands keep x finite and alike however many calls run: x.add(y)
    adds y each time; x.cmul(y)'s y is within 1e-7 of 1 and x.mul(c)'s c
    is MUL_BY (the kernels take the same time whatever the factor).
    exp's inputs are in [0, 1).  The check runs after one call each: x
    op y for all three.  Peak memory is measured on these same calls
    (in_place): a call that makes no temporary shows 0 MB."""

    form: str
    level: float | None = TORCH7

    @property
    def name(self):
        return f"torch7 {self.form} f64"

    def prepare(self, sizes, rng):
        form, dt = TORCH7_FORMS[self.form], "float64"
        shape = (sizes.face_rows, sizes.face // sizes.face_rows) if form.rows else (sizes.face,)
        operands = []
        for gen in form.operands:
            v = gen(rng, shape, dt)
            if isinstance(v, np.ndarray):
                v = trio_from(v, face="torch7")
            elif not isinstance(v, Trio):  # a number, the same for all three
                v = Trio(v, v, v)
            operands.append(v)
        calls = _calls(
            *(
                functools.partial(getattr(form, who), *(getattr(x, who) for x in operands))
                for who in CONTESTANTS
            )
        )
        return Prepared(
            calls,
            operands[0],
            _fmt(shape),
            *_reduce_tolerance(dt, shape, (1,) if form.rows else ()),
            in_place=True,
        )


# ------------------------------------------------------------------ creation (issue 16)

CREATE, CREATE_SEQ = 1.0, 1.5  # issue 16: every creation function; arange and linspace


# what -> (ours(xp, args), numpy(args), torch(args)), args = (n, side, dtype,
# inputs); ours gets strided.compat, or the Torch7 face (`import strided`,
# DoubleTensors) for the "t7 " ones
def _t(dt):
    return getattr(torch, dt) if torch is not None else None


CREATIONS = {
    "zeros": (
        lambda xp, n, s, dt, x: xp.zeros((n,), dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.zeros((n,), dt),
        lambda n, s, dt, x: torch.zeros((n,), dtype=_t(dt)),
    ),
    "zeros_like": (
        lambda xp, n, s, dt, x: xp.zeros_like(x),
        lambda n, s, dt, x: np.zeros_like(x),
        lambda n, s, dt, x: torch.zeros_like(x),
    ),
    "empty": (
        lambda xp, n, s, dt, x: xp.empty((n,), dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.empty((n,), dt),
        lambda n, s, dt, x: torch.empty((n,), dtype=_t(dt)),
    ),
    "ones": (
        lambda xp, n, s, dt, x: xp.ones((n,), dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.ones((n,), dt),
        lambda n, s, dt, x: torch.ones((n,), dtype=_t(dt)),
    ),
    "full": (
        lambda xp, n, s, dt, x: xp.full((n,), 2.5, dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.full((n,), 2.5, dt),
        lambda n, s, dt, x: torch.full((n,), 2.5, dtype=_t(dt)),
    ),
    "arange": (
        lambda xp, n, s, dt, x: xp.arange(1.5, 1.5 + 0.25 * n, 0.25, dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.arange(1.5, 1.5 + 0.25 * n, 0.25, dtype=dt),
        lambda n, s, dt, x: torch.arange(1.5, 1.5 + 0.25 * n, 0.25, dtype=_t(dt)),
    ),
    "linspace": (
        lambda xp, n, s, dt, x: xp.linspace(-3.0, 7.0, n, dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.linspace(-3.0, 7.0, n, dtype=dt),
        lambda n, s, dt, x: torch.linspace(-3.0, 7.0, n, dtype=_t(dt)),
    ),
    "eye": (
        lambda xp, n, s, dt, x: xp.eye(s, dtype=getattr(xp, dt)),
        lambda n, s, dt, x: np.eye(s, dtype=dt),
        lambda n, s, dt, x: torch.eye(s, dtype=_t(dt)),
    ),
    "tril": (
        lambda xp, n, s, dt, x: xp.tril(x),
        lambda n, s, dt, x: np.tril(x),
        lambda n, s, dt, x: torch.tril(x),
    ),
    "triu": (
        lambda xp, n, s, dt, x: xp.triu(x, k=1),
        lambda n, s, dt, x: np.triu(x, k=1),
        lambda n, s, dt, x: torch.triu(x, diagonal=1),
    ),
    "meshgrid": (
        lambda xp, n, s, dt, x: xp.meshgrid(x, x),
        lambda n, s, dt, x: np.meshgrid(x, x),
        lambda n, s, dt, x: tuple(t.clone() for t in torch.meshgrid(x, x, indexing="xy")),
    ),
    # the Torch7 face's (1-based range: 1..n), against numpy's and torch's equivalents
    "t7 range": (
        lambda t7, n, s, dt, x: t7.range(1, n),
        lambda n, s, dt, x: np.arange(1, n + 1, dtype=dt),
        lambda n, s, dt, x: torch.arange(1, n + 1, dtype=_t(dt)),
    ),
    "t7 linspace": (
        lambda t7, n, s, dt, x: t7.linspace(-3, 7, n),
        lambda n, s, dt, x: np.linspace(-3.0, 7.0, n, dtype=dt),
        lambda n, s, dt, x: torch.linspace(-3.0, 7.0, n, dtype=_t(dt)),
    ),
    "t7 logspace": (
        lambda t7, n, s, dt, x: t7.logspace(-3, 3, n),
        lambda n, s, dt, x: np.logspace(-3.0, 3.0, n, dtype=dt),
        lambda n, s, dt, x: torch.logspace(-3.0, 3.0, n, dtype=_t(dt)),
    ),
    "t7 eye": (
        lambda t7, n, s, dt, x: t7.eye(s),
        lambda n, s, dt, x: np.eye(s, dtype=dt),
        lambda n, s, dt, x: torch.eye(s, dtype=_t(dt)),
    ),
}
# the input each takes: None, "vector" (n), "matrix" (side x side), "axis" (side)
CREATION_INPUTS = {"zeros_like": "vector", "tril": "matrix", "triu": "matrix", "meshgrid": "axis"}


@dataclass(frozen=True)
class Create:
    """A creation function, allocating its result (no peer has out=):
    vectors of n elements, eye, tril/triu and meshgrid of side x side
    (CREATIONS).  Ours through the public API: strided.compat, or the
    Torch7 face for the "t7 " cases (DoubleTensors; range(1, n) against
    arange(1, n + 1)).  empty's result is compared by its shape alone;
    meshgrid's two arrays stacked.  meshgrid makes arrays of their own in
    numpy and ours; torch's are broadcast views of the inputs, so torch is
    timed with a clone of each (the same result: memory of its own).
    Levels (issue 16): 1.0, arange and linspace 1.5."""

    what: str
    dtype: str = "float64"
    level: float | None = CREATE

    @property
    def name(self):
        return f"{self.what} {short(self.dtype)}"

    def prepare(self, sizes, rng):
        import strided.compat as xp

        ours_f, np_f, t_f = CREATIONS[self.what]
        n, s, dt = sizes.n, sizes.side, self.dtype
        kind = CREATION_INPUTS.get(self.what)
        shape = {None: (n,), "vector": (n,), "matrix": (s, s), "axis": (s,)}[kind]
        if self.what in ("eye", "t7 eye"):
            shape = (s, s)
        x = Trio(None, None, None)
        if kind is not None:
            v = random(rng, shape if kind != "axis" else (s,), dt)
            x = trio_from(v)
            x = Trio(xp.Array._new(x.ours), x.numpy, x.torch)  # a compat array over our copy
        ns = strided if self.what.startswith("t7 ") else xp
        calls = _calls(
            functools.partial(ours_f, ns, n, s, dt, x.ours),
            functools.partial(np_f, n, s, dt, x.numpy),
            functools.partial(t_f, n, s, dt, x.torch),
        )
        read = None
        if self.what == "empty":
            read = {who: (lambda r: np.array(tuple(r.shape))) for who in calls}
        elif self.what == "meshgrid":
            read = {who: (lambda r: np.stack([to_numpy(v) for v in r])) for who in calls}
        if kind == "axis":
            shape = (s, s)
        return Prepared(calls, None, _fmt(shape), *tolerance(dt), read=read)


# ------------------------------------------------------------------ Torch7 kernels against their fastest peer

try:
    import scipy.fft as _scipy_fft
    import scipy.signal as _signal
except ImportError:  # the scipy peers are then left out
    _scipy_fft = _signal = None


def _scipy(fn, *args, **kw):
    """A zero-argument call of a scipy function on as many FFT workers as
    we and torch have threads (numpy-style code is single-threaded; scipy's
    FFTs are the one peer here that can take more)."""
    workers = strided.getnumthreads()

    def call():
        with _scipy_fft.set_workers(workers):
            return fn(*args, **kw)

    return call


def _values(r):
    """The values of a (values, indices) result, as numpy."""
    return to_numpy(r[0])


def _flat(r):
    return np.reshape(to_numpy(r), -1)


def _pairs(base):
    """(values, indices) -> [values, 0-based indices] rows (ours: base 1)."""
    return lambda r: np.stack(
        [to_numpy(r[0]).astype(np.float64), to_numpy(r[1]).astype(np.float64) - base], axis=-1
    )


def _conv_case(sizes, rng, dtype, xcorr):
    """conv2 (xcorr2) of an image x image matrix by a kernel x kernel one,
    valid.  The oracle is scipy's direct convolve2d (correlate2d); scipy's
    FFT convolutions take the kernel flipped for a correlation, and torch's
    conv2d, a cross-correlation, takes it flipped for a convolution."""
    a = random(rng, (sizes.image, sizes.image), dtype)
    k = random(rng, (sizes.kernel, sizes.kernel), dtype)
    flipped = np.ascontiguousarray(k[::-1, ::-1])
    x, kk = to_torch7(a), to_torch7(k)
    ours = strided.xcorr2 if xcorr else strided.conv2
    calls = {"ours": lambda: ours(x, kk)}
    if _signal is not None:
        direct = _signal.correlate2d if xcorr else _signal.convolve2d
        fft_k = flipped if xcorr else k
        calls[f"scipy {direct.__name__}"] = _scipy(direct, a, k, mode="valid")
        calls["scipy fftconvolve"] = _scipy(_signal.fftconvolve, a, fft_k, mode="valid")
        calls["scipy oaconvolve"] = _scipy(_signal.oaconvolve, a, fft_k, mode="valid")
    if torch is not None:
        ta = torch.from_numpy(a).clone()[None, None]
        tk = torch.from_numpy(k if xcorr else flipped).clone()[None, None]
        calls["torch conv2d"] = lambda: torch.nn.functional.conv2d(ta, tk)
    rtol, atol = tolerance(dtype)
    return Prepared(
        calls,
        None,
        f"{_fmt(a.shape)} by {_fmt(k.shape)}",
        rtol,
        atol * sizes.kernel**2,  # one term per kernel element
        # scipy's direct sum, or the first peer there is
        oracle=next((who for who in calls if who != "ours"), "ours"),
        read={"torch conv2d": lambda r: to_numpy(r)[0, 0]},
    )


def _topk_case(sizes, rng, dtype, k=10):
    """The k smallest of n values and their positions, sorted (Lua's
    default direction, dir = false; sort = true): ours torch.topk(x, k, 1,
    false, true) (1-based indices), numpy argpartition then a sort of the k,
    torch.topk(largest=False)."""
    a = random(rng, (sizes.n,), dtype)
    x = to_torch7(a)

    def numpy_topk():
        idx = np.argpartition(a, k - 1)[:k]
        idx = idx[np.argsort(a[idx], kind="stable")]
        return a[idx], idx

    calls = {"ours": lambda: strided.topk(x, k, 1, False, True), "numpy argpartition": numpy_topk}
    read = {"ours": _pairs(1), "numpy argpartition": _pairs(0)}
    if torch is not None:
        t = torch.from_numpy(a).clone()
        calls["torch.topk"] = lambda: torch.topk(t, k, largest=False, sorted=True)
        read["torch.topk"] = _pairs(0)
    return Prepared(calls, None, f"{k} of {sizes.n}", 0, 0, oracle="numpy argpartition", read=read)


def _median_case(sizes, rng, dtype):
    """The median of n + 1 values (an odd count: numpy's mean of the two
    middle values of an even count would not be Lua's lower median):
    ours torch.median(x) (value and index), np.median, torch.median."""
    a = random(rng, (sizes.n + 1,), dtype)
    x = to_torch7(a)
    calls = {"ours": lambda: strided.median(x), "np.median": lambda: np.median(a)}
    read = {"ours": _values, "np.median": _flat}
    if torch is not None:
        t = torch.from_numpy(a).clone()
        calls["torch.median"] = lambda: torch.median(t)
        read["torch.median"] = _flat
    return Prepared(calls, None, _fmt(a.shape), 0, 0, oracle="np.median", read=read)


def _histc_case(sizes, rng, dtype, bins=100):
    """The histogram of n values in 100 equal bins over their min and max
    (Lua's min = max = 0 default; numpy's and torch's alike): ours
    torch.histc(x, 100), np.histogram(a, 100), torch.histc(t, 100); the
    counts compared as float64 (numpy's are int64)."""
    a = random(rng, (sizes.n,), dtype)
    x = to_torch7(a)
    as_f64 = lambda r: to_numpy(r).astype(np.float64)
    calls = {
        "ours": lambda: strided.histc(x, bins),
        "np.histogram": lambda: np.histogram(a, bins)[0],
    }
    read = {"ours": as_f64, "np.histogram": as_f64}
    if torch is not None:
        t = torch.from_numpy(a).clone()
        calls["torch.histc"] = lambda: torch.histc(t, bins)
        read["torch.histc"] = as_f64
    return Prepared(
        calls, None, f"{sizes.n} in {bins} bins", 0, 0, oracle="np.histogram", read=read
    )


# op -> (its name in the table, prepare(sizes, rng, dtype))
KERNELS = {
    "conv2": ("conv2", functools.partial(_conv_case, xcorr=False)),
    "xcorr2": ("xcorr2", functools.partial(_conv_case, xcorr=True)),
    "topk": ("topk 10", _topk_case),
    "median": ("median", _median_case),
    "histc": ("histc 100", _histc_case),
}


@dataclass(frozen=True)
class Kernel:
    """One Torch7-face function (`import strided as torch`, its public
    allocating call, as every peer's is) against every peer that computes
    the same answer (KERNELS; numpy's or scipy's single-threaded functions,
    scipy's FFT convolutions on `--threads` workers, torch on `--threads`);
    the ratio that counts is the one against the fastest peer, whichever
    it is (level FASTEST: at least as fast).  Our result is checked
    against the oracle peer's; the other peers' too, noted when they
    differ.  float32 cases exist where a peer is float32-centric (torch's
    conv2d: its oneDNN path)."""

    op: str
    dtype: str = "float64"
    level: float | None = FASTEST
    against = "fastest"  # the ratio the level applies to (class attributes, not fields)
    table = "peers"  # printed in the table of peers (report.PEER_COLUMNS)

    @property
    def name(self):
        return f"{KERNELS[self.op][0]} {short(self.dtype)}"

    def prepare(self, sizes, rng):
        return KERNELS[self.op][1](sizes, rng, self.dtype)

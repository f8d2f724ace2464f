"""The benchmark cases, as data: one line per case, in sections
(`SECTIONS`, `python -m benchmarks --only SECTION`), each a record of one
of the kinds in kinds.py (where the conventions of timing are told).  To
add a case of an existing kind, add a line to its section's list."""

from __future__ import annotations

from .kinds import (
    ArgMax,
    Binary,
    CREATE,
    CREATE_SEQ,
    CREATIONS,
    Cast,
    Copy,
    Create,
    CumSum,
    FFT,
    Fused,
    Kernel,
    MATH_OPS,
    Math,
    Matmul,
    Reduce,
    Select,
    SetOp,
    Small,
    SmallLibrary,
    Sort,
    Statistic,
    TORCH7_FORMS,
    Take,
    Torch7,
    _SMALL_LIBRARY,
)
from .lua import CASES as LUA_CASES
from .sweep import SWEEP_CASES
from .half import HALF_CASES
from .t7io import CASES as T7IO_CASES
from .workloads import WORKLOAD_CASES, WORKLOAD_GEOMEAN


# ------------------------------------------------------------------ the table

CORE = [
    # elementwise, 10^7: each dtype, each layout, bool results
    Binary("add", "float64", "contiguous"),
    Binary("add", "float32", "contiguous"),
    Binary("add", "int64", "contiguous"),
    Binary("add", "int32", "contiguous"),
    Binary("subtract", "float64", "contiguous"),
    Binary("subtract", "int32", "contiguous"),
    Binary("multiply", "float64", "contiguous"),
    Binary("multiply", "float32", "contiguous"),
    Binary("multiply", "int64", "contiguous"),
    Binary("divide", "float64", "contiguous"),
    Binary("divide", "float32", "contiguous"),
    Binary("less", "float64", "contiguous"),
    Binary("equal", "int32", "contiguous"),
    Binary("add", "float64", "broadcast"),
    Binary("add", "float32", "broadcast"),
    Binary("add", "int64", "broadcast"),
    Binary("multiply", "float64", "broadcast"),
    Binary("divide", "float32", "broadcast"),
    Binary("less", "float32", "broadcast"),
    Binary("add", "float64", "transposed"),
    Binary("add", "float32", "transposed"),
    Binary("add", "int32", "transposed"),
    Binary("subtract", "int64", "transposed"),
    Binary("multiply", "float64", "transposed"),
    Binary("divide", "float64", "transposed"),
    Binary("equal", "float64", "transposed"),
    Binary("add", "float64", "mixed"),
    # transcendentals, 10^7, with their ulp errors
    *(Math(op, dt) for op in MATH_OPS for dt in ("float64", "float32")),
    # reductions: 3000x3000 over all and each axis, and 10^7 1-D
    *(
        kind(op, "float64", over)
        for kind, op in ((Reduce, "sum"), (Statistic, "mean"), (Statistic, "std"), (Reduce, "max"))
        for over in ("all", "axis 0", "axis 1", "1-D")
    ),
    *(ArgMax("float64", over) for over in ("all", "axis 0", "axis 1", "1-D")),
    CumSum("float64", "1-D"),
    CumSum("float64", "axis 0"),
    CumSum("float64", "axis 1"),
    # copies, casts, indexing
    Copy("float64"),
    Cast("float64", "float32"),
    Sort("sort"),
    Sort("argsort"),
    # issue 16: the set functions on 10^6 floats
    *(
        SetOp(op)
        for op in ("unique_values", "unique_counts", "unique_inverse", "unique_all", "isin")
    ),
    SetOp("unique_values", "distinct"),
    SetOp("isin", "distinct"),
    Take(),
    Select("mask"),
    Select("where"),
    Select("nonzero"),
    # BLAS and our FFT
    Matmul("float64", 1024),
    Matmul("float32", 1024),
    # issue 16: stacks of 64 small and middle-sized products
    *(Matmul("float64", side, batch=64) for side in (16, 64, 128, 256)),
    FFT("fft", "complex128", 2**20, label="2^20"),
    FFT("fft", "complex128", 100003, label="prime 100003"),
    FFT("fft", "complex64", 2**20, label="2^20"),
    FFT("fft", "complex64", 100003, label="prime 100003"),
    FFT("fft", "complex128", 1024, lines=1000),
    FFT("rfft", "float64", 2**20, label="2^20"),
]

# small calls: the per-call overhead of the public API (issue 16)
LATENCY = [Small("add"), Small("asarray"), Small("zeros"), Small("torch7 add")] + [
    SmallLibrary(what) for what in _SMALL_LIBRARY
]

# fused expressions (issue 16): strided.compat.fuse against the unfused expression
FUSED = [Fused("float64"), Fused("float32")]

# issue 12: the Torch7 face's in-place and [res] forms, 2 x 10^7
TORCH7_CASES = [Torch7(form) for form in TORCH7_FORMS]

# Torch7 kernels against their fastest peer: conv2 / xcorr2 of 1000x1000 by
# 11x11 (float32 too: torch's conv2d is float32-centric), topk of 10 of
# 10^7, median of 10^7 + 1, histc of 10^7 in 100 bins
KERNEL_CASES = [
    Kernel("conv2", "float64"),
    Kernel("xcorr2", "float64"),
    Kernel("conv2", "float32"),
    Kernel("xcorr2", "float32"),
    Kernel("topk", "float64"),
    Kernel("median", "float64"),
    Kernel("histc", "float64"),
]

# section -> its cases (python -m benchmarks --only SECTION)
# issue 16: every creation function, compat's and the Torch7 face's, float64
CREATION_CASES = [
    Create(w, level=CREATE_SEQ if w in ("arange", "linspace") else CREATE) for w in CREATIONS
]

# issue 22: real workloads of the libraries over the array API, and the size sweep
# issue 23: the Torch7 face against Lua Torch7 itself (lua.py; skipped without it)
# issue 27: torch.load / torch.save of a big .t7 file against torchfile and Lua Torch7
# issue 26: float16 and bfloat16 casts and elementwise ops against PyTorch

SECTIONS = {
    "core": CORE,
    "latency": LATENCY,
    "fused": FUSED,
    "torch7": TORCH7_CASES,
    "kernels": KERNEL_CASES,
    "creation": CREATION_CASES,
    "workloads": WORKLOAD_CASES,
    "sweep": SWEEP_CASES,
    "lua": LUA_CASES,
    "t7io": T7IO_CASES,
    "half": HALF_CASES,
}
# section -> the level of the geometric mean of its numpy/ours ratios (issue 22)
GEOMEAN_LEVELS = {"workloads": WORKLOAD_GEOMEAN}
CASES = [case for cases in SECTIONS.values() for case in cases]


def _blas_threads():
    """'openblas 2, ...': the threads of each BLAS in the process (numpy's
    and scipy's LAPACK calls run on them), or '' without threadpoolctl."""
    try:
        import threadpoolctl
    except ImportError:
        return ""
    return ", ".join(
        sorted(
            {
                f"{p['internal_api']} {p['num_threads']}"
                for p in threadpoolctl.threadpool_info()
                if p["user_api"] == "blas"
            }
        )
    )


def section_lines(sections, sizes):
    """The header's lines that describe the issue-22 sections, when run."""
    lines = []
    if "workloads" in sections:
        scale = sizes.workload_scale
        lines.append(
            "Workloads: each library's call on numpy arrays, torch tensors and strided.compat "
            "arrays alike (scikit-learn under array_api_dispatch=True, SCIPY_ARRAY_API=1), "
            f"small inputs mostly 1000x10, large 20000x200{f' / {scale}' if scale > 1 else ''}; "
            "timed allocating, whole; "
            f"BLAS threads: {_blas_threads() or 'n/a'}; level 1.0 each, {WORKLOAD_GEOMEAN:g} for "
            "the geometric mean; +MB: the call's peak resident memory above its result."
        )
    if "sweep" in sections:
        lines.append(
            "Sweep: allocating calls through the public API (`x - y` on strided.compat arrays, "
            "numpy arrays, torch tensors), float64, from 1e3 to "
            f"{sizes.sweep_max:.0e} elements; level 1.0 (numpy/ours) at every size.".replace(
                "e+0", "e"
            )
        )
    return lines

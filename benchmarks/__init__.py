"""Benchmarks: the core against numpy and PyTorch, side by side in one process.

Run with `python -m benchmarks` from the repository root (see README.md).

    cases.py     the cases, as data: one line per case
    kinds.py     the kinds of case (Binary, Reduce, Torch7, ...): how each prepares its calls
    convert.py   moving arrays between numpy, the core and torch (setup only)
    timing.py    the timing method: calibrated inner loops, interleaved repeats, medians
    run.py       one case: prepare, verify against numpy, ulp errors, time, peak memory
    accuracy.py  ulp errors against a longdouble reference
    memory.py    the peak resident memory of one call (/proc/self/clear_refs, VmHWM)
    machine.py   what the machine is; how busy other processes keep the CPUs
    report.py    the table (text or Markdown), the summary line, JSON
    workloads.py the workloads section: scikit-learn, SciPy, array-api-extra, einops, xarray, user code
    sweep.py     the sweep section: allocating elementwise ops and reductions from 1e3 to 3e7
"""

import os

# SciPy reads it once, when first imported: without it SciPy's array-API
# functions convert every input to numpy (the workloads section)
os.environ.setdefault("SCIPY_ARRAY_API", "1")

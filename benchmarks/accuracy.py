"""Accuracy: the error of a float result in ulps against a high-precision
reference.

The reference evaluates the same numpy function on the same inputs in
np.longdouble (x87 80-bit extended on x86-64 Linux: a 64-bit significand,
11 bits more than float64, 40 more than float32; glibc's expl, sinl, ... are
accurate to about one ulp of that).  Its own error is then about 2^-11 ulp
of a float64 result, below the two decimals the table shows.  Where
longdouble is no wider than float64 (some platforms), `reference_bits`
says so and the reported errors are only relative to numpy's float64.

An ulp of the exact value x in a binary format with p significand bits is
2^(e - p) for 2^(e-1) <= |x| < 2^e, and the subnormal spacing below the
normal range.  It is taken from the reference, not from the rounded result,
so a result just across a power of two is not judged with a doubled ulp.
"""

from __future__ import annotations

import numpy as np

CHUNK = 1 << 20  # elements per reference evaluation: bounds the longdouble temporaries

reference_bits = np.finfo(np.longdouble).nmant + 1


def ulp(x, dtype):
    """The ulp, in `dtype`, of the (longdouble) exact values x."""
    fi = np.finfo(dtype)
    p = fi.nmant + 1
    x = np.asarray(x, np.longdouble)
    _, e = np.frexp(np.abs(x))
    # below the normal range (zero included) the spacing is fixed: 2^(minexp - nmant)
    e = np.where(
        x == 0, fi.minexp - fi.nmant, np.maximum(e.astype(np.int64) - p, fi.minexp - fi.nmant)
    )
    return np.ldexp(np.longdouble(1), e)


def ulp_errors(got, ref, dtype=None):
    """|got - ref| / ulp(ref) elementwise, as longdouble.  Equal values
    (infinities, NaN against NaN) are 0 ulp; NaN against a number, or an
    infinity against a finite value, is inf."""
    got = np.asarray(got)
    dtype = np.dtype(dtype or got.dtype)
    ref = np.asarray(ref, np.longdouble)
    g = got.astype(np.longdouble)
    same = (g == ref) | (np.isnan(g) & np.isnan(ref))
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(g - ref) / ulp(np.where(np.isfinite(ref), ref, 0), dtype)
    err = np.where(np.isnan(err) | (np.isinf(g) != np.isinf(ref)), np.inf, err)
    return np.where(same, 0, err)


def max_ulp(got, ref, dtype=None):
    """The largest ulp error of got against ref (0.0 when empty)."""
    e = ulp_errors(got, ref, dtype)
    return float(e.max()) if e.size else 0.0


def max_ulp_of(f, inputs, results):
    """{name: max ulp error} of each result array in `results` ({name:
    array}), all of them f(*inputs) computed some way, against f evaluated
    in longdouble on the same inputs (chunk by chunk, flattened)."""
    inputs = [np.ravel(np.asarray(x)) for x in inputs]
    results = {k: np.ravel(np.asarray(v)) for k, v in results.items()}
    n = results and len(next(iter(results.values())))
    worst = dict.fromkeys(results, 0.0)
    for lo in range(0, n, CHUNK):
        part = slice(lo, lo + CHUNK)
        with np.errstate(all="ignore"):
            ref = f(*(x[part].astype(np.longdouble) for x in inputs))
        for k, v in results.items():
            worst[k] = max(worst[k], max_ulp(v[part], ref))
    return worst

"""The fused kernels of the 16-bit floats (half_ew.c): add, subtract,
multiply, divide, maximum, minimum, exp, log, sin and cos of float16 and
bfloat16 widen and narrow in registers instead of a block at a time, and
must give the block path's bits: float32's result rounded once.  The
oracle is that definition computed by the core itself (widen to float32,
float32's kernel, one cast back), plus numpy's float16 and PyTorch's
bfloat16 for the exact operations.  Every CPU level runs in a child
process (the level is fixed when the core loads): the vector bodies of
levels 3 and 4, their tails (lengths around 8, 16, the unary block of 256
and the streamed block of 1024), a scalar operand on either side, layouts
that fall back to the block path, streamed outputs (misaligned too), an
output that is an input, NaN, infinities, subnormals, empty and 0-d."""

import json
import os
import subprocess
import sys

import pytest


CHILD = r"""
import json
import numpy as np
import strided.compat as xp
from strided.core import base as _core, ops as _ops

rng = np.random.default_rng(11)
bad = []
BIN = ["add", "subtract", "multiply", "divide", "maximum", "minimum"]
UN = ["exp", "log", "sin", "cos"]
NPBIN = dict(add=np.add, subtract=np.subtract, multiply=np.multiply, divide=np.divide,
             maximum=np.maximum, minimum=np.minimum)
ALL16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
try:
    import torch
except ImportError:
    torch = None


def from_bits(u, name):
    # 16-bit patterns as an array of `name` (widening then narrowing is exact)
    u = np.asarray(u, np.uint16)
    if name == "float16":
        return xp.asarray(u.view(np.float16))
    f = (u.astype(np.uint32) << 16).view(np.float32)
    return xp.astype(xp.asarray(f), xp.bfloat16)


def wide(x):
    # the float32 values of a 16-bit array (exact), as numpy
    return np.asarray(xp.astype(x, xp.float32))


def check(tag, got, want):
    # bit for bit through float32 (exact and one to one), NaNs as NaNs
    g, w = wide(got), wide(want)
    if g.shape != w.shape:
        bad.append(f"{tag}: shape {g.shape} != {w.shape}")
        return
    gn, wn = np.isnan(g), np.isnan(w)
    if not np.array_equal(gn, wn) or not np.array_equal(g.view(np.uint32)[~wn],
                                                        w.view(np.uint32)[~wn]):
        k = np.flatnonzero((gn != wn) | ((g.view(np.uint32) != w.view(np.uint32)) & ~wn))[:3]
        bad.append(f"{tag}: at {k.tolist()} {g.ravel()[k].tolist()} != {w.ravel()[k].tolist()}")


def f32(name):
    return getattr(xp, name)


def via32(op, name, *xs):
    # float32's result of op on xs, rounded once to `name`
    return xp.astype(f32(op)(*(xp.astype(x, xp.float32) for x in xs)), getattr(xp, name))


SPECIAL = np.float32([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 6e-8, -6e-8, 3e-5, 1e-40,
                      65504, -65504, 7e4, 1e30, 160, -160, 200, -104, 89, 1e-3, 3.0e38])


def values(n, name):
    # random 16-bit values, every special one among the first
    x = (rng.standard_normal(n) * 4).astype(np.float32)
    x[: len(SPECIAL)] = SPECIAL[:n]
    rng.shuffle(x)
    return xp.astype(xp.asarray(x), getattr(xp, name))


LENGTHS = [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100, 255, 256, 257, 1023, 1024, 1025, 4099]
for name in ["float16", "bfloat16"]:
    dt = getattr(xp, name)
    # every pattern through the unary ops, and against every pattern for the binary
    allv = from_bits(ALL16, name)
    perm = from_bits(rng.permutation(ALL16), name)
    for op in UN:
        check(f"{name} {op} every pattern", f32(op)(allv), via32(op, name, allv))
    for op in BIN:
        check(f"{name} {op} every pattern", f32(op)(allv, perm), via32(op, name, allv, perm))
    for n in LENGTHS:
        a, b = values(n, name), values(n, name)
        for op in UN:
            check(f"{name} {op} n={n}", f32(op)(a), via32(op, name, a))
        s = from_bits(np.uint16([0x4000 if name == "float16" else 0x4000]), name)[0]  # 2.0, 0-d
        for op in BIN:
            fn = f32(op)
            check(f"{name} {op} n={n}", fn(a, b), via32(op, name, a, b))
            check(f"{name} {op} n={n} scalar right", fn(a, s), via32(op, name, a, s))
            check(f"{name} {op} n={n} scalar left", fn(s, b), via32(op, name, s, b))
            if n:
                c = b[n // 2]  # a special or random value, 0-d
                check(f"{name} {op} n={n} 0-d right", fn(a, c), via32(op, name, a, c))
                check(f"{name} {op} n={n} 0-d left", fn(c, a), via32(op, name, c, a))
            # a Python number: a 0-d operand of the array's dtype
            check(f"{name} {op} n={n} python right", fn(a, 0.5), via32(op, name, a, xp.asarray(0.5, dtype=dt)))
    # 0-d with 0-d, and empty shapes
    z, w = from_bits([0x3e00], name)[0], from_bits([0xc100], name)[0]
    for op in BIN:
        check(f"{name} {op} 0-d", f32(op)(z, w), via32(op, name, z, w))
    for op in UN:
        check(f"{name} {op} 0-d", f32(op)(z), via32(op, name, z))
        e = xp.zeros((0, 5), dtype=dt)
        if f32(op)(e).shape != (0, 5):
            bad.append(f"{name} {op} empty")
    # layouts the block path keeps: strided, transposed, broadcast columns
    m = values(40 * 30, name)
    m2 = xp.reshape(m, (40, 30))
    for op in BIN:
        fn = f32(op)
        check(f"{name} {op} strided", fn(m[::3], m[1::3]), via32(op, name, m[::3], m[1::3]))
        check(f"{name} {op} transposed", fn(m2.T, m2.T), via32(op, name, m2.T, m2.T))
        col = m2[:, :1]
        check(f"{name} {op} column", fn(m2, col), via32(op, name, m2, col))
        row = m2[0]  # contiguous rows against a matrix: fused lines
        check(f"{name} {op} row", fn(m2, row), via32(op, name, m2, row))
        check(f"{name} {op} row left", fn(row, m2), via32(op, name, row, m2))
    for op in UN:
        check(f"{name} {op} strided", f32(op)(m[::3]), via32(op, name, m[::3]))
        check(f"{name} {op} transposed", f32(op)(m2.T), via32(op, name, m2.T))
    # large: streamed stores (>= 32 MB of operands), aligned and not
    big_a, big_b = values(6_000_001, name), values(6_000_001, name)
    for op in ["add", "maximum"]:
        check(f"{name} {op} large", f32(op)(big_a, big_b), via32(op, name, big_a, big_b))
        check(f"{name} {op} large misaligned", f32(op)(big_a[1:], big_b[1:]),
              via32(op, name, big_a[1:], big_b[1:]))
        check(f"{name} {op} large scalar", f32(op)(big_a, 1.5),
              via32(op, name, big_a, xp.asarray(1.5, dtype=dt)))
    check(f"{name} exp large", xp.exp(big_a), via32("exp", name, big_a))
    check(f"{name} exp large misaligned", xp.exp(big_a[1:]), via32("exp", name, big_a[1:]))
    # the output is an input (the core's out=): in place, and in place of the scalar's partner
    for op in BIN + UN:
        a, b = values(3001, name), values(3001, name)
        want = via32(op, name, a, b) if op in BIN else via32(op, name, a)
        acopy = xp.asarray(a, copy=True)
        c = _ops.binary(op, acopy._c, b._c, out=acopy._c) if op in BIN else _ops.unary(op, acopy._c, out=acopy._c)
        check(f"{name} {op} in place", acopy, want)
    # numpy's float16 and PyTorch's bfloat16: the exact operations
    x = (rng.standard_normal(5000) * 30).astype(np.float32)
    y = (rng.standard_normal(5000) * 3).astype(np.float32)
    a, b = xp.astype(xp.asarray(x), dt), xp.astype(xp.asarray(y), dt)
    for op in BIN:
        got = wide(f32(op)(a, b))
        if name == "float16":
            want = NPBIN[op](x.astype(np.float16).astype(np.float32),
                             y.astype(np.float16).astype(np.float32)).astype(np.float16).astype(np.float32)
        elif torch is not None:
            tf = dict(add=torch.add, subtract=torch.sub, multiply=torch.mul, divide=torch.div,
                      maximum=torch.maximum, minimum=torch.minimum)[op]
            want = tf(torch.from_numpy(x).bfloat16(), torch.from_numpy(y).bfloat16()).float().numpy()
        else:
            continue
        if not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
            bad.append(f"{name} {op} against {'numpy' if name == 'float16' else 'torch'}")
print(json.dumps({"level": _core.cpu_level(), "bad": bad[:40], "nbad": len(bad)}))
"""


def run_child(level):
    env = dict(os.environ)
    env["STRIDED_CPU_LEVEL"] = str(level)
    r = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("level", [0, 3, 4])
def test_fused_half_ops_at_each_level(level):
    forced = os.environ.get("STRIDED_CPU_LEVEL")
    if forced is not None and forced != str(level):
        # a run at a forced level (.ci/cpu-levels) checks that level only;
        # the unforced run checks all three
        pytest.skip(f"this run is at level {forced}")
    got = run_child(level)
    if got["level"] != level:
        assert got["level"] < level
        pytest.skip(f"this machine has no level {level}")
    assert got["bad"] == [] and got["nbad"] == 0

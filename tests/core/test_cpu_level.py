"""The CPU level (st_cpu_level, STRIDED_CPU_LEVEL): at every level this
machine has, the kernels compiled for it agree with numpy.  The level is
fixed when the core loads, so each level runs in a child process."""

import json
import os
import subprocess
import sys

import pytest

from strided.core import base as _core

# The child: one result per kernel family (elementwise with streamed
# stores, libmvec and our vmath, reductions inner and outer, sort through
# the radix and the AVX-512 quicksort, our integer matmul and BLAS, casts
# and transposed copies, take), each compared with numpy.
CHILD = r"""
import json, sys
import numpy as np
import strided.compat as xp
from strided.core import base as _core

rng = np.random.default_rng(7)
n = 2_000_000                          # 32 MB of operands: streamed stores
a = rng.standard_normal(n)
b = rng.standard_normal(n)
f32 = rng.standard_normal(n).astype(np.float32)
i32 = rng.integers(-1000, 1000, n).astype(np.int32)
m = rng.standard_normal((300, 200))
mi = rng.integers(-50, 50, (70, 90)).astype(np.int64)
mj = rng.integers(-50, 50, (90, 40)).astype(np.int64)
X = {k: xp.asarray(v) for k, v in dict(a=a, b=b, f32=f32, i32=i32, m=m, mi=mi, mj=mj).items()}
bad = []

def same(name, got, want, rtol=0.0, atol=0.0):
    got = np.asarray(got)
    if got.shape != np.shape(want) or not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        bad.append(name)

same("add", X["a"] + X["b"], a + b)
same("multiply int32", X["i32"] * X["i32"], i32 * i32)
same("exp", xp.exp(X["a"]), np.exp(a), rtol=1e-15)
same("exp float32", xp.exp(X["f32"]), np.exp(f32), rtol=1e-6)
same("sin", xp.sin(X["a"]), np.sin(a), rtol=1e-14, atol=1e-15)
same("log", xp.log(xp.abs(X["a"])), np.log(np.abs(a)), rtol=1e-15, atol=1e-15)
same("sum", xp.sum(X["a"]), np.sum(a), rtol=1e-12)
same("sum float32", xp.sum(X["f32"]), np.sum(f32.astype(np.float64)), rtol=1e-5)
same("sum int32", xp.sum(X["i32"]), np.sum(i32.astype(np.int64)))
same("max", xp.max(X["a"]), np.max(a))
same("min axis 0", xp.min(X["m"], axis=0), np.min(m, axis=0))
same("sum axis 0", xp.sum(X["m"], axis=0), np.sum(m, axis=0), rtol=1e-13, atol=1e-13)  # pairwise, numpy sequential
same("var", xp.var(X["m"], axis=1), np.var(m, axis=1), rtol=1e-12)
same("argmax", xp.argmax(X["m"], axis=0), np.argmax(m, axis=0))
same("cumsum axis 0", xp.cumulative_sum(X["m"], axis=0), np.cumsum(m, axis=0), rtol=1e-13)
same("sort float64", xp.sort(X["a"]), np.sort(a))
same("sort int32", xp.sort(X["i32"]), np.sort(i32))
same("argsort", xp.argsort(X["i32"][:5000], stable=True), np.argsort(i32[:5000], kind="stable"))
same("matmul int64", X["mi"] @ X["mj"], mi @ mj)
same("matmul float64", X["m"].T @ X["m"], m.T @ m, rtol=1e-12, atol=1e-12)
same("cast", xp.astype(X["a"], xp.float32), a.astype(np.float32))
same("copy transposed", xp.asarray(X["m"].T, copy=True), m.T)
same("take", xp.take(X["a"], xp.asarray(np.arange(0, n, 7))), a[::7])
same("rfft", xp.fft.rfft(X["m"], axis=0), np.fft.rfft(m, axis=0), rtol=1e-10, atol=1e-10)
same("fft", xp.fft.fft(xp.astype(X["m"], xp.complex128), axis=1), np.fft.fft(m, axis=1), rtol=1e-10,
     atol=1e-10)
# the 16-bit floats' conversions (F16C at levels 3 and 4, portable at 0;
# bfloat16's rounding vectorised per level): every pattern widened, and
# float32 values at and around every 16-bit tie narrowed, bit for bit
pat = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
h16 = pat.view(np.float16)
wide16 = np.sort(h16[np.isfinite(h16)].astype(np.float32))
ties = ((wide16[:-1].astype(np.float64) + wide16[1:]) / 2).astype(np.float32)
near = np.concatenate([ties, np.nextafter(ties, np.float32(np.inf)), rng.standard_normal(10 ** 5)
                       .astype(np.float32) * 1e3, np.float32([1e-8, 6e-8, -3e-5, 65519.99, 7e4])])
def bits16(x):
    return np.asarray(xp.astype(x, xp.float32)).view(np.uint32)
same("float16 -> float32", xp.astype(xp.asarray(h16), xp.float32), h16.astype(np.float32))
got16 = np.asarray(xp.astype(xp.asarray(near), xp.float16)).view(np.uint16)
same("float32 -> float16", got16, near.astype(np.float16).view(np.uint16))
u = f32.view(np.uint32)
want_bf = (((u + 0x7fff + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32)
same("float32 -> bfloat16", bits16(xp.astype(X["f32"], xp.bfloat16)), want_bf)
bf = xp.astype(X["f32"], xp.bfloat16)
same("bfloat16 add", bits16(bf + bf),
     bits16(xp.astype(xp.astype(bf, xp.float32) + xp.astype(bf, xp.float32), xp.bfloat16)))
print(json.dumps({"level": _core.cpu_level(), "bad": bad}))
"""


def run_child(code, level=None):
    env = dict(os.environ)
    env.pop("STRIDED_CPU_LEVEL", None)
    if level is not None:
        env["STRIDED_CPU_LEVEL"] = str(level)
    r = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


LEVEL_ONLY = "import json; from strided.core import base as _core; print(json.dumps({'level': _core.cpu_level()}))"


def machine_level():
    return run_child(LEVEL_ONLY)["level"]


def test_cpu_level_is_a_known_level():
    assert _core.cpu_level() in (0, 3, 4)
    assert machine_level() >= _core.cpu_level()


@pytest.mark.parametrize("level", [0, 3, 4])
def test_kernels_at_each_level(level):
    if level > machine_level():
        pytest.skip(f"this machine has no level {level}")
    got = run_child(CHILD, level)
    assert got["level"] == level
    assert got["bad"] == []


@pytest.mark.parametrize("value", ["", "1", "5", "-1", "3.0", "avx2", " 0"])
def test_invalid_values_keep_the_detected_level(value):
    assert run_child(LEVEL_ONLY, value)["level"] == machine_level()


def test_level_cannot_be_raised():
    top = machine_level()
    for level in (0, 3, 4):
        assert run_child(LEVEL_ONLY, level)["level"] == min(level, top)

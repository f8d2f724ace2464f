"""Shared test helpers: numpy is the oracle; arrays cross into the core
through borrowed memory (zero-copy views with numpy's exact strides) or
through a copy into owned memory."""

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strided.core import base as _core


def under_asan():
    """AddressSanitizer's allocator is in the process (.ci/sanitizers): it
    keeps freed blocks in quarantine, so the resident size says nothing of
    leaks there (the C counters still do)."""
    with open("/proc/self/maps") as f:
        return "libasan" in f.read()


def on_fresh_pages(core):
    """core's storage is fresh anonymous pages, untouched when made
    (ST_STORAGE_PAGES: zeros without a pass; alloc.c), or the sanitizer build is loaded, whose zeroed
    storages are ordinary cleared blocks by design (core.c: their slack
    stays poisoned, so a read past the end is reported)."""
    from strided.core.base import lib

    return bool(core.t.storage.flags & lib.ST_STORAGE_PAGES) or under_asan()


# every dtype of the core that numpy has (all but bfloat16, whose oracle is
# PyTorch: tests/core/test_half_types.py)
ALL_DTYPE_NAMES = [d.name for d in _core.DTYPES if d.name != "bfloat16"]
# the dtypes the arithmetic kernels take themselves (what most tests run
# over); the 16-bit floats compute through float32 (tests/core/test_half_types.py)
DTYPE_NAMES = [n for n in ALL_DTYPE_NAMES if n != "float16"]
NUMPY = {name: np.dtype(name) for name in ALL_DTYPE_NAMES}
INT_NAMES = [n for n in DTYPE_NAMES if n.startswith(("int", "uint"))]
FLOAT_NAMES = ["float32", "float64"]
# the real numbers: every integer and float dtype, no bool, no complex
REAL_NAMES = INT_NAMES + FLOAT_NAMES
COMPLEX_NAMES = ["complex64", "complex128"]

# PyTorch (the peer, not `import strided as torch`) is no dependency of
# strided nor of its [test] extra (a pinned torch costs a multi-gigabyte
# download where its wheel is not at hand): tests that exchange memory
# with it skip when it is absent; .ci/run installs it, so CI runs them.
try:
    import torch as pytorch
except ImportError:
    pytorch = None
PYTORCH_REASON = (
    "needs PyTorch, which strided does not depend on: pip install torch==2.13.0 (CI installs it)"
)
needs_pytorch = pytest.mark.skipif(pytorch is None, reason=PYTORCH_REASON)


def borrow(a):
    """A Core viewing numpy array `a`'s memory (same strides, zero-copy).
    The Core keeps `a` alive."""
    item = a.dtype.itemsize
    if a.size == 0:
        return _core.Core.empty(a.shape, a.dtype.name)
    # the lowest address the view reaches, and the byte extent
    lo = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s > 0) + item
    base = a.ctypes.data + lo
    storage = _core.borrow_storage(base, hi - lo, readonly=not a.flags.writeable, owner=a)
    strides = [s // item for s in a.strides]
    return _core.Core.over(storage, a.dtype.name, -lo // item, a.shape, strides)


def to_core(a):
    """An owned, C-contiguous Core with a copy of numpy array `a`."""
    a = np.asarray(a)
    out = _core.Core.empty(a.shape, a.dtype.name)
    _core.copy_(out, borrow(a))
    return out


def to_numpy(c):
    """A numpy copy of Core `c` (through the core's own contiguous copy)."""
    c = _core.contiguous(c)
    dt = NUMPY[c.dtype.name]
    if c.size == 0:
        return np.empty(c.shape, dt)
    from strided._c._strided import ffi, lib

    buf = ffi.buffer(lib.st_tensor_data(c.t), c.size * dt.itemsize)
    return np.frombuffer(bytes(buf), dt).reshape(c.shape)


# ---- strategies ----

shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6)


def arrays(dtype, shape=shapes, **kw):
    kw.setdefault("elements", None)
    return hnp.arrays(NUMPY[dtype] if isinstance(dtype, str) else dtype, shape, **kw)


@st.composite
def layouts(draw, a):
    """A numpy view over new memory in another layout: contiguous,
    transposed, stepped, reversed, or broadcast (zero stride on dim 0,
    repeating a's first row, so its values differ from a's).  Tests compute
    the oracle on the returned view."""
    kind = draw(st.sampled_from(["contiguous", "transposed", "stepped", "reversed", "broadcast"]))
    if a.ndim == 0 or kind == "contiguous":
        return a
    if kind == "transposed":
        return np.ascontiguousarray(a.T).T
    if kind == "stepped":
        big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
        view = big[tuple(slice(None, None, 2) for _ in a.shape)]
        view[...] = a
        return view
    flip = tuple(slice(None, None, -1) for _ in a.shape)
    if kind == "reversed":
        return np.ascontiguousarray(a[flip])[flip]
    return np.broadcast_to(a[:1], a.shape) if a.shape[0] > 0 else a


def assert_same(got, want, zero_sign=True):
    """Same dtype, shape and values; NaN equals NaN; zeros keep their sign
    (unless zero_sign is False)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    if zero_sign and want.dtype.kind in "fc":
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            zero = w == 0
            np.testing.assert_array_equal(
                np.signbit(g[zero]), np.signbit(w[zero]), err_msg="sign of zero differs"
            )

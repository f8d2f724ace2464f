"""Moving arrays between numpy, the core and torch.  Used to build inputs and
to read results for checking; never inside a timed call."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

import strided
from strided.core import base as _core, views as _views
from strided.core.base import ffi, lib

try:
    import torch
except ImportError:  # the torch column then reads "n/a"
    torch = None

CONTESTANTS = ("ours", "numpy", "torch")


class Trio(NamedTuple):
    """One operand as each contestant holds it: its own memory, same values."""

    ours: Any
    numpy: np.ndarray
    torch: Any  # None when torch is not installed


def to_core(a):
    """An owned, C-contiguous Core with a copy of numpy array `a`."""
    a = np.ascontiguousarray(a)
    c = _core.Core.empty(a.shape, a.dtype.name)
    if a.nbytes:
        ffi.memmove(lib.st_tensor_data(c.t), ffi.from_buffer(a), a.nbytes)
    return c


def to_torch7(a):
    """A Torch7-face tensor (`strided.DoubleTensor`... by dtype) with a copy
    of numpy array `a` in memory of its own, built through the public API
    (`from_dlpack` over a's memory, then `clone`)."""
    return strided.from_dlpack(np.ascontiguousarray(a)).clone()


def core_to_numpy(c):
    """A numpy copy of Core `c`, whatever its layout."""
    c = _core.contiguous(c)
    dt = np.dtype(c.dtype.name)
    if c.size == 0:
        return np.empty(c.shape, dt)
    buf = ffi.buffer(lib.st_tensor_data(c.t), c.size * dt.itemsize)
    return np.frombuffer(buf, dt).reshape(c.shape).copy()


def to_numpy(x):
    """A numpy copy of any contestant's array (a strided.compat array or a
    Torch7 tensor is read through its Core; a tuple of index arrays,
    numpy's nonzero, is stacked into the [count, ndim] form of ours and
    torch's)."""
    if isinstance(getattr(x, "_c", None), _core.Core):
        x = x._c
    if isinstance(x, _core.Core):
        return core_to_numpy(x)
    if isinstance(x, tuple):
        return np.stack([to_numpy(v) for v in x], axis=-1)
    if torch is not None and isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy().copy()
    return np.array(x, copy=True)


# layout name -> how each contestant takes the view (applied once, in setup)
VIEWS = {
    "C": (lambda c: c, lambda a: a, lambda t: t),
    "T": (lambda c: _views.transpose(c, 0, 1), lambda a: a.T, lambda t: t.t()),
}


# which of our faces holds our copy: the internal Core (most cases) or a
# Torch7 tensor (the Torch7 face's cases; views "C" only)
FACES = {"core": to_core, "torch7": to_torch7}


def trio_from(base, view="C", face="core"):
    """Inputs: numpy's own `base`, and copies of it in our memory (as
    `face` holds it) and torch's, each then viewed through `view`."""
    v_ours, v_np, v_torch = VIEWS[view]
    t = v_torch(torch.from_numpy(base).clone()) if torch is not None else None
    return Trio(v_ours(FACES[face](base)), v_np(base), t)


def trio_empty(shape, dtype, view="C", face="core"):
    """An output of `shape` in each contestant's memory (ours as `face`
    holds it).  With view "T" the memory is C-contiguous for the reversed
    shape and then transposed, the layout numpy and torch give `a.T + b.T`."""
    shape = tuple(shape)
    mem = shape[::-1] if view == "T" else shape
    # outputs start as NaN (0 for exact types), so a kernel that skips
    # elements fails the check instead of passing on leftover values
    fill = float("nan") if np.dtype(dtype).kind in "fc" else 0
    return trio_from(np.full(mem, fill, dtype), view, face)

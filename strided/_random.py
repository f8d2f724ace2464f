"""rand/randn for the Torch7 face.

The C generator (strided._rng over st_random_uniform/st_random_normal) is
used when the built core has it.  Until then, as a documented exception to
"elements only in C", the values are drawn with Python's `random` module
into one cffi array (ffi.new) and copied into the tensor with one C call.
"""
from __future__ import annotations

import random as _pyrandom

from ._c._strided import ffi
from . import _core

try:
    from . import _rng as _crng
    _crng.uniform_  # noqa: B018  (the module imports only when the core has st_rng)
except Exception:   # the core built without st_random_* yet
    _crng = None

_gen = _pyrandom.Random()


def manual_seed(seed):
    if _crng is not None:
        return _crng.manual_seed(seed)
    _gen.seed(seed)
    return seed


def _fill_python(c, draw):
    n = c.size
    if n == 0:
        return c
    buf = ffi.new("double[]", [draw() for _ in range(n)])
    src = _core.Core.empty((n,), "float64")
    ffi.memmove(ffi.cast("char *", src.address), buf, n * 8)
    from ._views import view_as_shape
    _core.copy_(c, view_as_shape(src, c.shape))
    return c


def uniform_(c, lo=0.0, hi=1.0):
    """Fill Core c with uniform values on [lo, hi)."""
    if _crng is not None and c.dtype.kind == "f":
        return _crng.uniform_(c, lo, hi)
    return _fill_python(c, lambda: _gen.uniform(lo, hi))


def normal_(c, mean=0.0, std=1.0):
    if _crng is not None and c.dtype.kind == "f":
        return _crng.normal_(c, mean, std)
    return _fill_python(c, lambda: _gen.gauss(mean, std))


def backend():
    """'C' when the core's generator is used, 'python' for the fallback."""
    return "C" if _crng is not None else "python"

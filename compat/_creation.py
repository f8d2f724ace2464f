"""Creation functions of strided.compat.  Values are written in C: fills,
cumulative sums (arange, linspace), strided views (eye's diagonal),
comparisons of index vectors (tril/triu)."""
from __future__ import annotations

import math
import operator

from strided.core import arraytype as _arraytype, base as _core, ops as _ops, views as _views
from strided.core.dlpack import _copy_flag
from strided.core.base import ffi

from . import _dtypes, _numpy
from ._array import Array, check_device
from ._dtypes import KINDS

_FORMATS = {"?": "bool", "b": "int8", "h": "int16", "i": "int32", "l": "int", "q": "int64",
            "B": "uint8", "H": "uint16", "I": "uint32", "L": "uint", "Q": "uint64",
            "f": "float32", "d": "float64", "Zf": "complex64", "Zd": "complex128"}


def _default_for(value):
    if isinstance(value, bool):
        return _dtypes.bool
    if isinstance(value, int):
        return _dtypes.int64
    if isinstance(value, float):
        return _dtypes.float64
    if isinstance(value, complex):
        return _dtypes.complex128
    raise TypeError(f"expected a Python bool, int, float or complex, got {type(value).__name__}")


def _check(dtype, device):
    check_device(device)
    return None if dtype is None else _dtypes.check_dtype(dtype)


_PYTHON_NUMBERS = {bool, int, float, complex}


def _from_nested(obj, dtype):
    """A Core from nested lists of numbers: Python numbers, numpy scalars,
    0-d arrays (ours or numpy's).  The shape is the core's reader's (a
    ragged or mixed nesting is a ValueError)."""
    shape, flat = [], []
    _core._flatten(obj, shape, flat)
    if set(map(type, flat)) <= _PYTHON_NUMBERS:
        dts = None if dtype is not None else {_default_for(v) for v in flat}
    else:
        pairs = [_numpy.leaf(v) for v in flat]
        flat = [v for v, _ in pairs]
        dts = {_default_for(v) if d is None else d for v, d in pairs}
    if dtype is None:
        dtype = _nested_dtype(dts)
    return _core.from_flat(_values_for(flat, dtype), shape, dtype)


def _nested_dtype(dts):
    """numpy's choice for a list, from its leaves' dtypes (a Python number's
    is the default one: bool, int64, float64, complex128; a numpy scalar's
    or a 0-d array's its own): all promote by the standard's table, and
    kinds the table does not mix give the default dtype of the highest
    kind ([np.float32(1), 2] is float64, as in numpy).  No leaves: float64."""
    if not dts:
        return _dtypes.float64
    out = None
    try:
        for d in dts:
            out = d if out is None else _dtypes.promote(out, d)
        return out
    except TypeError:
        for kind, default in (("complex floating", _dtypes.complex128),
                              ("real floating", _dtypes.float64), ("integral", _dtypes.int64)):
            if any(d in KINDS[kind] for d in dts):
                return default
        return _dtypes.bool


def _values_for(flat, dtype):
    """flat's numbers as cffi takes them for dtype, converted as numpy does:
    a float for an integer dtype is truncated (NaN ValueError, infinity and
    out of range OverflowError), any number for bool is its truth value."""
    if dtype in KINDS["integral"]:
        if any(type(v) is float for v in flat):
            return [math.trunc(v) if type(v) is float else v for v in flat]
    elif dtype is _dtypes.bool:
        if any(type(v) is not bool for v in flat):
            return [bool(v) for v in flat]
    return flat


# A flat list of Python numbers of one type (the commonest small creation)
# and zeros(n) are one C call each (strided/_c/pyarray.c): None when the
# case is not that one.
_from_list, _zeros = _arraytype.from_list, _arraytype.zeros


def _from_buffer(obj):
    """A zero-copy Core over a C-contiguous buffer-protocol object, or None."""
    try:
        mv = memoryview(obj)
    except TypeError:
        return None
    fmt = mv.format.lstrip("@=<")
    name = _FORMATS.get(fmt)
    if name in ("int", "uint"):
        name = f"{name}{8 * mv.itemsize}"
    if name is None or not mv.c_contiguous:
        raise TypeError(f"asarray: unsupported buffer (format {mv.format!r}, "
                        f"contiguous={mv.c_contiguous})")
    dt = _core.dtype(name)
    if mv.nbytes == 0:
        return _core.Core.empty(mv.shape, dt)
    p = ffi.from_buffer(mv)
    storage = _core.borrow_storage(int(ffi.cast("uintptr_t", p)), mv.nbytes,
                                   readonly=mv.readonly, owner=(mv, p))
    return _core.Core.over(storage, dt, 0, mv.shape)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """An Array from an Array, a Torch7 tensor (a view of its memory), a
    DLPack producer such as a numpy array or a PyTorch tensor (zero-copy,
    any strides), a buffer-protocol object (zero-copy), a Python scalar or
    nested lists.
    copy=True always copies; copy=False never does (ValueError if it must);
    copy=None copies only when needed."""
    if type(obj) is list and dtype is None and device is None and (copy is None or copy is True):
        a = _from_list(obj)
        if a is not None:
            return a
    copy = _copy_flag(copy, "asarray")
    dtype = _check(dtype, device)
    fresh = False
    if isinstance(obj, Array):
        c = obj._c
    elif hasattr(obj, "__strided_core__"):     # a Torch7 tensor: a view of its memory
        c = _dtypes.check_imported(obj.__strided_core__(), "asarray")
    elif _numpy.is_scalar(obj):
        # a numpy scalar is a value, not memory to share: a new writable
        # array of its dtype (its buffer is read-only)
        value, dt = _numpy.leaf(obj)
        c, fresh = _core.scalar(value, dtype or dt), True
    elif isinstance(obj, (bool, int, float, complex)):
        c, fresh = _core.scalar(obj, dtype or _default_for(obj)), True
    elif isinstance(obj, (list, tuple)):
        c, fresh = _from_nested(obj, dtype), True
    elif hasattr(obj, "__dlpack__"):
        # numpy, PyTorch and every DLPack producer: any strides, zero-copy
        from strided.core import dlpack as _dlpack
        c = _dtypes.check_imported(_dlpack.to_core(obj), "asarray")
    else:
        c = _from_buffer(obj)
        if c is None:
            raise TypeError(f"asarray: cannot make an array from a {type(obj).__name__}")
    if fresh and copy is False:
        raise ValueError("asarray: copy=False but a Python object must be copied")
    if dtype is not None and c.dtype is not dtype:
        if copy is False:
            raise ValueError(f"asarray: copy=False but {c.dtype.name} -> {dtype.name} needs a copy")
        c, fresh = _core.astype(c, dtype), True
    if copy and not fresh:
        c = _core.astype(c, c.dtype)
    return Array._new(c)


def empty(shape, *, dtype=None, device=None):
    return Array._new(_core.Core.empty(shape, _check(dtype, device) or _dtypes.float64))


def zeros(shape, *, dtype=None, device=None):
    if type(shape) is int and dtype is None and device is None:   # the common small case
        a = _zeros(shape)
        if a is not None:
            return a
    return Array._new(_core.full(shape, 0, _check(dtype, device) or _dtypes.float64))


def ones(shape, *, dtype=None, device=None):
    return Array._new(_core.full(shape, 1, _check(dtype, device) or _dtypes.float64))


def full(shape, fill_value, *, dtype=None, device=None):
    if isinstance(fill_value, Array):
        fill_value = _core.item(fill_value._c)
    dt = _check(dtype, device) or _default_for(fill_value)
    return Array._new(_core.full(shape, fill_value, dt))


def _like(x, dtype, device):
    return (x.shape, _check(dtype, device) or x.dtype)


def empty_like(x, /, *, dtype=None, device=None):
    shape, dt = _like(x, dtype, device)
    return Array._new(_core.Core.empty(shape, dt))


def zeros_like(x, /, *, dtype=None, device=None):
    shape, dt = _like(x, dtype, device)
    return Array._new(_core.full(shape, 0, dt))


def ones_like(x, /, *, dtype=None, device=None):
    shape, dt = _like(x, dtype, device)
    return Array._new(_core.full(shape, 1, dt))


def full_like(x, /, fill_value, *, dtype=None, device=None):
    shape, dt = _like(x, dtype, device)
    return Array._new(_core.full(shape, fill_value, dt))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    dtype = _check(dtype, device)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    ints = all(isinstance(v, int) for v in (start, stop, step))
    if dtype is None:
        dtype = _dtypes.int64 if ints else _dtypes.float64
    n = len(range(start, stop, step)) if ints else max(0, math.ceil((stop - start) / step))
    if dtype in KINDS["integral"] or dtype is _dtypes.bool:
        out = _ops.affine(_ops.iota(n), start, step, _core.int64) if n else _core.Core.empty((0,), dtype)
        return Array._new(out if out.dtype is dtype else _core.astype(out, dtype))
    work = _dtypes.float64 if dtype in KINDS["real floating"] else _dtypes.complex128
    out = _ops.affine(_ops.iota(n, work), start, step, work)
    return Array._new(out if out.dtype is dtype else _core.astype(out, dtype))


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    dtype = _check(dtype, device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: num must be >= 0, got {num}")
    cplx = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        dtype = _dtypes.complex128 if cplx else _dtypes.float64
    if cplx and dtype not in KINDS["complex floating"]:
        raise TypeError(f"linspace: complex bounds need a complex dtype, got {dtype.name}")
    work = _dtypes.complex128 if (cplx or dtype in KINDS["complex floating"]) else _dtypes.float64
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0
    out = _ops.affine(_ops.iota(num, work), start, step, work)
    if endpoint and num > 1:
        _core.fill_(_views.select(out, 0, num - 1), stop)
    if dtype in KINDS["integral"]:
        # numpy (>= 2.0): the float64 values rounded down, then cast
        out = _ops.unary("floor", out)
    return Array._new(out if out.dtype is dtype else _core.astype(out, dtype))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    dtype = _check(dtype, device) or _dtypes.float64
    n_cols = n_rows if n_cols is None else n_cols
    out = _core.full((n_rows, n_cols), 0, dtype)
    if k >= 0:
        start, length = k, min(n_rows, n_cols - k)
    else:
        start, length = -k * n_cols, min(n_rows + k, n_cols)
    if length > 0:
        _core.fill_(out.view(start, (length,), (n_cols + 1,)), 1)
    return Array._new(out)


def _tri(x, k, keep):
    if x.ndim < 2:
        raise ValueError(f"needs at least 2 dims, got {x.ndim}")
    m, n = x.shape[-2:]
    rows = _views.unsqueeze(_ops.iota(m), 1)
    cols = _views.unsqueeze(_ops.iota(n), 0)
    diff = _ops.binary("subtract", cols, rows)
    mask = _ops.binary(keep, diff, _core.scalar(k, _core.int64))
    zero = _core.scalar(0, x.dtype)
    return Array._new(_ops.where(mask, x._c, zero))


def tril(x, /, *, k=0):
    return _tri(x, k, "less_equal")


def triu(x, /, *, k=0):
    return _tri(x, k, "greater_equal")


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return ()
    dts = {a.dtype for a in arrays}
    if len(dts) > 1:
        raise TypeError("meshgrid: arrays must have one dtype")
    sizes = [a.size for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, a in enumerate(arrays):
        if a.ndim != 1:
            raise ValueError("meshgrid: arrays must be 1-D")
        d = i
        if indexing == "xy" and len(arrays) > 1 and i < 2:
            d = 1 - i
        shape = [1] * len(arrays)
        shape[d] = a.size
        v = _views.view_as_shape(a._c, shape)
        out.append(Array._new(_core.astype(_views.expand(v, sizes), a.dtype)))
    return tuple(out)


__all__ = ["arange", "asarray", "empty", "empty_like", "eye", "full",
           "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu",
           "zeros", "zeros_like"]

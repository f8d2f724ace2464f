"""The internal Python layer over the C core (0-based, no Torch7 nor array-API
conventions): dtypes, the view record `Core`, creation, conversion to and
from Python values, and error mapping.  Both public faces build on this.

Nothing here touches elements: values cross into C through cffi arrays and
every element operation is one C call.
"""

from __future__ import annotations

import math
import operator

from .._c._strided import ffi, lib

# ---------------------------------------------------------------- dtypes


class DType:
    """One element type of the core: name, C code, item size, kind."""

    __slots__ = ("name", "code", "itemsize", "kind", "ctype")

    def __init__(self, name, code, kind, ctype):
        self.name = name
        self.code = code
        self.itemsize = lib.st_itemsize(code)
        self.kind = kind  # 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex
        self.ctype = ctype  # cffi element type

    def __repr__(self):
        return f"strided.{self.name}"

    def __reduce__(self):
        return (dtype, (self.name,))

    @property
    def __numpy_dtype__(self):
        """numpy's dtype of the same name: np.dtype(xp.float64) is
        np.float64's (numpy >= 2.4 asks for this property).  Not a `dtype`
        attribute, which numpy < 2.4 would read too: generic code (xarray)
        reads getattr(obj, "dtype", obj) to tell arrays from dtypes."""
        import numpy

        return numpy.dtype(self.name)


# name, kind, cffi element type; the code is the header's ST_<NAME>.
# float16 (Torch7's Half) and bfloat16 are the 16-bit floats: their C
# elements are uint16_t bit patterns, converted only by C (st_copy,
# st_double_to_half ...); the computing kernels take them through float32
# (strided.h).  HALF holds them.
_TABLE = """
bool        b  _Bool
int8        i  int8_t
int16       i  int16_t
int32       i  int32_t
int64       i  int64_t
uint8       u  uint8_t
uint16      u  uint16_t
uint32      u  uint32_t
uint64      u  uint64_t
float32     f  float
float64     f  double
complex64   c  float _Complex
complex128  c  double _Complex
float16     f  uint16_t
bfloat16    f  uint16_t
"""
_TABLE = [
    (name, getattr(lib, "ST_" + name.upper()), kind, " ".join(ctype))
    for name, kind, *ctype in map(str.split, _TABLE.strip().splitlines())
]
DTYPES = [DType(*row) for row in sorted(_TABLE, key=operator.itemgetter(1))]
BY_NAME = {d.name: d for d in DTYPES}
bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64 = DTYPES[:9]
float32, float64, complex64, complex128, float16, bfloat16 = DTYPES[9:]
HALF = (float16, bfloat16)
# a Python float to a 16-bit float's bits and back, rounded in C
_TO_BITS = {float16: lib.st_double_to_half, bfloat16: lib.st_double_to_bfloat16}
_FROM_BITS = {float16: lib.st_half_to_double, bfloat16: lib.st_bfloat16_to_double}


def dtype(name):
    """The DType called `name` (or the DType itself)."""
    if isinstance(name, DType):
        return name
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise TypeError(f"unknown dtype {name!r}; expected one of {sorted(BY_NAME)}") from None


def int_range(dt):
    """(min, max) of an integer or bool dtype."""
    if dt.kind == "b":
        return 0, 1
    bits = 8 * dt.itemsize
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dt.kind == "i" else (0, (1 << bits) - 1)


# ---------------------------------------------------------------- errors

MAX_DIMS = lib.ST_MAX_DIMS  # the most dimensions a view has

_ERRORS = {
    lib.ST_E_VALUE: ValueError,
    lib.ST_E_INDEX: IndexError,
    lib.ST_E_TYPE: TypeError,
    lib.ST_E_MEMORY: MemoryError,
    lib.ST_E_OVERFLOW: OverflowError,
    lib.ST_E_ZERODIV: ZeroDivisionError,
    lib.ST_E_READONLY: ValueError,
    lib.ST_E_BORROWED: ValueError,
    lib.ST_E_IO: OSError,
}


class CoreIndexError(IndexError):
    """An index out of range, as the core recorded it (st_last_index_error):
    the offending `index`, the valid range [`lo`, `hi`) and the dimension
    `dim`, in the numbering the call used (1-based with ST_IDX_BASE1), so a
    face can state it in its own terms; the text is C's message."""

    def __init__(self, message, index, lo, hi, dim):
        super().__init__(message)
        self.index, self.lo, self.hi, self.dim = index, lo, hi, dim


def check(rc):
    """Raise the Python exception for a C status code, with C's message."""
    if not rc:
        return
    message = ffi.string(lib.st_last_error()).decode()
    if rc == lib.ST_E_INDEX:
        rec = ffi.new("int64_t[3]")
        dim = ffi.new("int *")
        if lib.st_last_index_error(rec, rec + 1, rec + 2, dim):
            raise CoreIndexError(message, rec[0], rec[1], rec[2], dim[0])
    raise _ERRORS.get(rc, RuntimeError)(message)


def check_null(p):
    """p, or the exception for the reason the C function that returned NULL
    recorded (st_last_status): MemoryError only when memory ran out."""
    if p == ffi.NULL:
        check(lib.st_last_status() or lib.ST_E_MEMORY)
    return p


# ---------------------------------------------------------------- threads


def setnumthreads(n: int) -> None:
    """Set the number of threads the kernels use.

    Parameters
    ----------
    n : int
        At least 1.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        When n < 1.

    Notes
    -----
    Lua's ``torch.setnumthreads``: the OpenMP thread count of the C core (large
    work only; the GIL is released while C runs).

    Examples
    --------
    >>> import strided as torch
    >>> before = torch.getnumthreads()
    >>> torch.setnumthreads(1)
    >>> torch.getnumthreads()
    1
    >>> torch.setnumthreads(before)
    """
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"number of threads must be >= 1, got {n}")
    lib.st_set_num_threads(n)


def getnumthreads() -> int:
    """The number of threads the kernels use.

    Returns
    -------
    int

    Raises
    ------
    Nothing

    Notes
    -----
    Lua's ``torch.getnumthreads``; by default the number of CPUs (OpenMP's).

    Examples
    --------
    >>> import strided as torch
    >>> torch.getnumthreads() >= 1
    True
    """
    return lib.st_get_num_threads()


def cache_release():
    """Give every block the core's cache keeps back to the system; returns
    the bytes given back (alloc.c)."""
    return lib.st_cache_release()


def cache_set_limit(nbytes):
    """Bound the bytes the core's block cache keeps (0: keep none), and
    give back what it keeps now."""
    nbytes = operator.index(nbytes)
    if nbytes < 0:
        raise ValueError(f"cache limit must be >= 0 bytes, got {nbytes}")
    lib.st_cache_set_limit(nbytes)


def cache_stats():
    """The block cache's counters: cached bytes and blocks, hits and
    misses of large requests, the limit in bytes."""
    out = ffi.new("int64_t[5]")
    lib.st_cache_stats(out)
    return dict(zip(("bytes", "blocks", "hits", "misses", "limit"), out))


def threads_forked():
    """True in a process made by fork() whose OpenMP threads could not be
    carried over (its runtime refused to pause them before the fork, after
    the parent had run a parallel kernel): the core then runs every kernel
    on the calling thread there (getnumthreads() still reports the
    setting, which OpenBLAS keeps following).  False otherwise: a forked
    child starts threads of its own (docs/core-semantics.md, fork)."""
    return bool(lib.st_threads_forked())


def cpu_level():
    """The instruction set the C kernels run with: 4 (x86-64-v4, AVX-512),
    3 (x86-64-v3, AVX2) or 0 (baseline x86-64); the environment variable
    STRIDED_CPU_LEVEL, read when the core loads, can lower it."""
    return lib.st_cpu_level()


# ---------------------------------------------------------------- borrowed memory

_keepalive = {}  # handle address -> (handle, owner) for memory borrowed from Python objects


@ffi.def_extern()
def st_py_release(ctx):
    _keepalive.pop(int(ffi.cast("uintptr_t", ctx)), None)


def borrow_storage(address, nbytes, readonly=False, owner=None):
    """A C storage over foreign memory.  With `owner`, that object is kept
    alive until the core lets go of the memory; without, the memory is
    never released by us (Torch7's Storage(n, address))."""
    if owner is not None:
        handle = ffi.new_handle(owner)
        ctx = ffi.cast("void *", handle)
        _keepalive[int(ffi.cast("uintptr_t", ctx))] = (handle, owner)
        s = lib.st_storage_borrow(
            ffi.cast("void *", address), nbytes, bool(readonly), lib.st_py_release, ctx
        )
        if s == ffi.NULL:
            _keepalive.pop(int(ffi.cast("uintptr_t", ctx)), None)
    else:
        s = lib.st_storage_borrow(
            ffi.cast("void *", address), nbytes, bool(readonly), ffi.NULL, ffi.NULL
        )
    return ffi.gc(check_null(s), lib.st_storage_release)


# the struct module's format characters of the buffer protocol -> dtype
# ('l'/'L': C long, whose size the buffer's itemsize says)
_FORMATS = {
    "?": "bool",
    "b": "int8",
    "h": "int16",
    "i": "int32",
    "l": "int",
    "q": "int64",
    "B": "uint8",
    "H": "uint16",
    "I": "uint32",
    "L": "uint",
    "Q": "uint64",
    "f": "float32",
    "d": "float64",
    "Zf": "complex64",
    "Zd": "complex128",
}


def from_buffer(obj, name):
    """A zero-copy Core over a C-contiguous buffer-protocol object (bytes,
    bytearray, array.array, memoryview...), or None for an object that has
    no buffer; TypeError naming `name` for a buffer of another layout."""
    try:
        mv = memoryview(obj)
    except TypeError:
        return None
    fmt = mv.format.lstrip("@=<")
    kind = _FORMATS.get(fmt)
    if kind in ("int", "uint"):
        kind = f"{kind}{8 * mv.itemsize}"
    if kind is None or not mv.c_contiguous:
        raise TypeError(
            f"{name}: unsupported buffer (format {mv.format!r}, contiguous={mv.c_contiguous})"
        )
    dt = dtype(kind)
    if mv.nbytes == 0:
        return Core.empty(mv.shape, dt)
    p = ffi.from_buffer(mv)
    storage = borrow_storage(
        int(ffi.cast("uintptr_t", p)), mv.nbytes, readonly=mv.readonly, owner=(mv, p)
    )
    return Core.over(storage, dt, 0, mv.shape)


def storage_view(parent, offset, nbytes):
    """A C storage over `nbytes` of C storage `parent` from byte `offset`:
    it holds the parent and pins it (st_storage_resize refuses to move the
    parent's memory) until the core lets go of the view."""
    return ffi.gc(check_null(lib.st_storage_view(parent, offset, nbytes)), lib.st_storage_release)


def new_storage(nbytes):
    return ffi.gc(check_null(lib.st_storage_new(nbytes)), lib.st_storage_release)


def zeros_storage(nbytes):
    """A new storage of zero bytes (large: fresh pages, no pass)."""
    return ffi.gc(check_null(lib.st_storage_zeros(nbytes)), lib.st_storage_release)


def adopt_storage(address):
    """The C storage at `address` (an int), whose one reference the caller
    hands over, as a pointer that releases it when collected."""
    return ffi.gc(ffi.cast("st_storage *", address), lib.st_storage_release)


# ---------------------------------------------------------------- the view record


def _record():
    return ffi.gc(check_null(lib.st_tensor_new()), lib.st_tensor_free)


def _check_lengths(shape, strides):
    # C reads len(shape) strides: a shorter list would be read past its end
    if strides is not None and len(strides) != len(shape):
        raise ValueError(f"{len(shape)} sizes but {len(strides)} strides")


def _sizes(shape):
    return ffi.new("int64_t[]", shape) if shape else ffi.NULL


class Core:
    """A view: storage + element offset + sizes + strides + dtype, held as
    a C `st_tensor` record.  Immutable from Python except through `set`."""

    __slots__ = ("t", "__weakref__")

    def __init__(self, t):
        self.t = t

    # -- construction
    @classmethod
    def empty(cls, shape, dt):
        shape = normalize_shape(shape)
        t = _record()
        check(lib.st_tensor_alloc(t, dtype(dt).code, len(shape), _sizes(shape)))
        return cls(t)

    @classmethod
    def blank(cls):
        """A record with no storage yet, for a C function that allocates
        its result into it."""
        return cls(_record())

    @classmethod
    def zeros(cls, shape, dt):
        """Every element 0, without a pass: large blocks are fresh pages
        that the kernel zeroes at first touch (st_tensor_alloc_zeros)."""
        shape = normalize_shape(shape)
        t = _record()
        check(lib.st_tensor_alloc_zeros(t, dtype(dt).code, len(shape), _sizes(shape)))
        return cls(t)

    @classmethod
    def over(cls, storage, dt, offset, shape, strides=None):
        """A view of `storage` (a cffi st_storage* or NULL)."""
        _check_lengths(shape, strides)
        t = _record()
        check(
            lib.st_tensor_set(
                t,
                storage,
                dtype(dt).code,
                offset,
                len(shape),
                _sizes(shape),
                _sizes(strides) if strides is not None else ffi.NULL,
            )
        )
        return cls(t)

    def view(self, offset, shape, strides, dt=None):
        """Another view of this storage (bounds and overflow checked in C)."""
        return Core.over(self.t.storage, dt or self.dtype, offset, shape, strides)

    def set(self, storage, dt, offset, shape, strides=None):
        """Repoint this very record (Torch7's set/resize)."""
        _check_lengths(shape, strides)
        check(
            lib.st_tensor_set(
                self.t,
                storage,
                dtype(dt).code,
                offset,
                len(shape),
                _sizes(shape),
                _sizes(strides) if strides is not None else ffi.NULL,
            )
        )

    # -- geometry
    @property
    def dtype(self):
        return DTYPES[self.t.dtype]

    @property
    def ndim(self):
        return self.t.ndim

    @property
    def shape(self):
        return tuple(ffi.unpack(self.t.sizes, self.t.ndim))

    @property
    def strides(self):
        return tuple(ffi.unpack(self.t.strides, self.t.ndim))

    @property
    def offset(self):
        return self.t.offset

    @property
    def storage(self):
        return self.t.storage

    @property
    def size(self):
        return lib.st_tensor_numel(self.t)

    def is_contiguous(self):
        return bool(lib.st_tensor_is_contiguous(self.t))

    @property
    def address(self):
        p = lib.st_tensor_data(self.t)
        return int(ffi.cast("uintptr_t", p))

    @property
    def readonly(self):
        s = self.t.storage
        return s != ffi.NULL and bool(s.flags & lib.ST_STORAGE_READONLY)

    def __repr__(self):
        return f"Core(dtype={self.dtype.name}, shape={self.shape}, strides={self.strides}, offset={self.offset})"


def normalize_shape(shape):
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError(f"shape must be a sequence of integers, got {shape!r}") from None
    for d, s in enumerate(shape):
        if s < 0:
            raise ValueError(f"size of dimension {d} must be >= 0, got {s}")
    if len(shape) > lib.ST_MAX_DIMS:
        raise ValueError(f"at most {lib.ST_MAX_DIMS} dimensions, got {len(shape)}")
    return shape


def contiguous_strides(shape):
    strides, s = [], 1
    for n in reversed(shape):
        strides.append(s)
        s *= max(n, 1)
    return tuple(reversed(strides))


# ---------------------------------------------------------------- values in and out


def scalar_buffer(value, dt):
    """A one-element cffi buffer holding `value` as dtype `dt` (checked)."""
    dt = dtype(dt)
    if dt.kind in "iu":
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"cannot convert {value} to {dt.name}")
            value = int(value)
        elif isinstance(value, complex):
            raise TypeError(f"cannot convert complex {value} to {dt.name}")
        value = operator.index(value)
        lo, hi = int_range(dt)
        if not lo <= value <= hi:
            raise OverflowError(f"{value} is out of range [{lo}, {hi}] for {dt.name}")
    elif dt.kind == "b":
        value = bool(value)
    elif dt.kind == "f":
        if isinstance(value, complex):
            raise TypeError(f"cannot convert complex {value} to {dt.name}")
        value = float(value)
        if dt in HALF:
            value = _TO_BITS[dt](value)  # rounded in C
    else:
        value = complex(value)
    return ffi.new(dt.ctype + "[1]", [value])


def full(shape, value, dt):
    c = Core.empty(shape, dt)
    check(lib.st_fill(c.t, scalar_buffer(value, dt)))
    return c


def scalar(value, dt):
    """A 0-d Core holding `value`."""
    return full((), value, dt)


def _flatten(obj, shape, out):
    """Nested lists/tuples of numbers: their shape into `shape`, their
    leaves in C order into `out`.  The shape is read down the first
    elements, then every element is checked against it, so a ragged or
    mixed nesting ([1, [2]], [[1], 2], [[1, 2], [3]]) is a ValueError, as
    in numpy, whatever the order its parts come in."""
    o = obj
    while isinstance(o, (list, tuple)):
        shape.append(len(o))
        if not o:
            break
        o = o[0]
    if shape:
        _check_nested(obj, shape, out, 0)
    else:
        out.append(obj)


def _check_nested(obj, shape, out, depth):
    if not isinstance(obj, (list, tuple)):
        raise ValueError(
            f"ragged nested sequence: a number at depth {depth} where the "
            f"first elements gave a sequence (shape {tuple(shape)})"
        )
    if len(obj) != shape[depth]:
        raise ValueError(
            f"ragged nested sequence: length {len(obj)} at depth {depth}, "
            f"expected {shape[depth]} (shape {tuple(shape)})"
        )
    if depth + 1 < len(shape):
        for item in obj:
            _check_nested(item, shape, out, depth + 1)
        return
    if any(isinstance(item, (list, tuple)) for item in obj):  # the innermost level: numbers
        raise ValueError(
            f"ragged nested sequence: a sequence at depth {depth + 1} where "
            f"the first elements gave a number (shape {tuple(shape)})"
        )
    out.extend(obj)


def from_nested(obj, dt):
    """A contiguous Core from nested lists of Python numbers."""
    shape, flat = [], []
    _flatten(obj, shape, flat)
    return from_flat(flat, shape, dt)


def from_flat(flat, shape, dt):
    """A contiguous Core of `shape` from a flat list of Python numbers
    (C order)."""
    dt = dtype(dt)
    if dt in HALF:
        return astype(from_flat(flat, shape, float64), dt)  # C rounds
    if len(flat) == 0 and not shape:
        shape = [0]
    c = Core.empty(shape, dt)
    if flat:
        # cffi converts in C and refuses what does not fit (OverflowError,
        # TypeError for a float where an integer is needed)
        buf = ffi.new(dt.ctype + "[]", flat)
        ffi.memmove(ffi.cast("char *", lib.st_tensor_data(c.t)), buf, len(flat) * dt.itemsize)
    return c


def contiguous(c):
    """c itself when C-contiguous, else a contiguous copy."""
    if c.is_contiguous():
        return c
    out = Core.empty(c.shape, c.dtype)
    check(lib.st_copy(out.t, c.t))
    return out


def tolist(c):
    """Nested Python lists (a Python number for 0-d)."""
    c = astype(c, float64) if c.dtype in HALF else contiguous(c)
    n = c.size
    flat = ffi.unpack(ffi.cast(c.dtype.ctype + " *", lib.st_tensor_data(c.t)), n) if n else []
    if c.dtype.kind == "b":
        flat = [bool(v) for v in flat]
    shape = c.shape
    if not shape:
        return flat[0]

    def nest(start, d):
        if d == len(shape) - 1:
            return flat[start : start + shape[d]]
        step = math.prod(shape[d + 1 :])
        return [nest(start + i * step, d + 1) for i in range(shape[d])]

    return nest(0, 0)


def item(c):
    if c.size != 1:
        raise ValueError(
            f"only a one-element tensor converts to a Python number, this one has {c.size}"
        )
    p = ffi.cast(c.dtype.ctype + " *", lib.st_tensor_data(c.t))
    v = p[0]
    if c.dtype in HALF:
        return _FROM_BITS[c.dtype](v)
    return bool(v) if c.dtype.kind == "b" else v


# ---------------------------------------------------------------- copy and cast


def copy_(dst, src):
    check(lib.st_copy(dst.t, src.t))
    return dst


def cat_(out, parts, dim):
    """parts (Cores) copied one after the other along dim of out, each
    converted to out's dtype, in one C call (st_cat checks the shapes)."""
    check(lib.st_cat(out.t, len(parts), ffi.new("st_tensor *[]", [p.t for p in parts]), dim))
    return out


def fill_(dst, value):
    check(lib.st_fill(dst.t, scalar_buffer(value, dst.dtype)))
    return dst


def astype(c, dt):
    """A new array of dtype `dt` with c's values."""
    out = Core.empty(c.shape, dt)
    check(lib.st_copy(out.t, c.t))
    return out

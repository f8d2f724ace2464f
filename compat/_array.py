"""The Array object of strided.compat: a thin wrapper over a core view
record (strided.core.base.Core), on a C base type (strided/_c/pyarray.c)
that holds the record and runs the plain operators.  The operators are
set up in compat/_operators.py (they call the elementwise functions);
indexing builds views (basic indices) or calls the index kernels (boolean
masks, integer arrays)."""
from __future__ import annotations


from operator import attrgetter as _attrgetter

from strided.core import arraytype as _arraytype, base as _core, dlpack as _dlpack, views as _views

from ._dtypes import KINDS


class Device:
    """The one device of strided: the CPU.  Equal to the string "cpu"."""

    __slots__ = ()

    def __repr__(self):
        return "cpu"

    def __eq__(self, other):
        return isinstance(other, Device) or other == "cpu"

    def __hash__(self):
        return hash("cpu")


CPU = Device()


# The names that mean the CPU.  Only "cpu"; the peers' test harness
# (tests/peers/strided_for_strict.py) adds array-api-strict's device names.
DEVICE_NAMES = {"cpu"}


def check_device(device):
    if device is not None and not (isinstance(device, Device) or device in DEVICE_NAMES):
        raise ValueError(f"unknown device {device!r}; strided.compat has only 'cpu'")


API_VERSIONS = ("2025.12", "2024.12", "2023.12", "2022.12", "2021.12")


def _fmt(v):
    if isinstance(v, float):
        s = repr(v)
        return s[:-1] if s.endswith(".0") else s
    return repr(v)


def _nest(v):
    if isinstance(v, list):
        return "[" + ", ".join(_nest(e) for e in v) + "]"
    return _fmt(v)


class Array(_arraytype.ArrayBase):
    """An n-dimensional array of the array API standard over a core view.

    Its C base (strided/_c/pyarray.c) holds the view record, read here as
    `_c` (a strided.core.base.Core), makes an Array of a Core
    (`Array._new(core)`), and carries the operators (compat/_operators.py)."""

    __slots__ = ("__weakref__",)
    __hash__ = None
    REPR_LIMIT = 100     # more elements than this: the shape, not the values

    def __init__(self, *args, **kwargs):
        raise TypeError("Array objects are made by strided.compat functions (asarray, zeros, ...)")

    def __strided_core__(self):
        """A new core view record over this array's memory: the one seam
        between the faces (strided.core.base.core_view, strided.interop)."""
        c = self._c
        return c.view(c.offset, c.shape, c.strides)

    # ------------------------------------------------------------ attributes
    # dtype, shape, ndim and size are the core record's
    dtype, shape, ndim, size = (property(_attrgetter("_c." + _n), doc=f"The array's {_n}.")
                                for _n in ("dtype", "shape", "ndim", "size"))

    @property
    def device(self):
        return CPU

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError(f"T needs a 2-D array, this one has {self.ndim} dims (use mT or permute_dims)")
        return Array._new(_views.transpose(self._c, 0, 1))

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError(f"mT needs at least 2 dims, this array has {self.ndim}")
        return Array._new(_views.transpose(self._c, -2, -1))

    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and api_version not in API_VERSIONS:
            raise ValueError(f"api_version {api_version!r} not supported; "
                             f"strided.compat implements {API_VERSIONS[0]}")
        import strided.compat
        return strided.compat

    def to_device(self, device, /, *, stream=None):
        check_device(device)
        if stream is not None:
            raise ValueError("the cpu device has no streams")
        return self

    def __repr__(self):
        dt = self.dtype.name
        if self.size > self.REPR_LIMIT or self.size == 0:
            return f"Array([...], shape={self.shape}, dtype={dt})" if self.size else \
                f"Array([], shape={self.shape}, dtype={dt})"
        return f"Array({_nest(_core.tolist(self._c))}, dtype={dt})"

    __str__ = __repr__

    def __format__(self, spec):
        """format() and f-strings: a 0-d array formats the Python number it
        holds (f"{x:.3f}", f"{n:d}", and f"{x}" is "1.5"), as PyTorch's
        and numpy's do; an n-d array is str() with an empty spec and a
        TypeError with any other, as numpy's."""
        if not self.ndim:
            return format(_core.item(self._c), spec)
        if spec:
            raise TypeError(f"unsupported format string passed to Array.__format__: "
                            f"{spec!r} needs a 0-d array, this one has shape {self.shape}")
        return str(self)

    def __iter__(self):
        """The sub-arrays along the first axis (views), as numpy's."""
        if not self.ndim:
            raise TypeError("iteration over a 0-d array")
        c, select = self._c, _views.select
        return (Array._new(select(c, 0, i)) for i in range(self.shape[0]))

    # ------------------------------------------------------------ DLPack and numpy (docs/interop.md)
    # numpy's ufuncs convert an Array (np.abs(x) is numpy's abs of
    # __array__'s view: an ndarray, as numpy-namespace code expects), and
    # numpy's scalars and arrays defer their operators to ours
    # (np.float64(2) * x calls x.__rmul__): no __array_ufunc__ (None would
    # make every ufunc refuse an Array) and a priority above numpy's, the
    # combination PyTorch's tensors use.  No __array_wrap__: ufunc results
    # stay numpy's (docs/interop.md, "numpy and the Array").
    __array_priority__ = 1000

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _dlpack.export(self._c, stream, max_version, dl_device, copy)

    def __dlpack_device__(self, /):
        return _dlpack.device()

    def __array__(self, dtype=None, copy=None):
        return _dlpack.to_numpy(self._c, dtype, copy)

    # ------------------------------------------------------------ pickle
    def __reduce__(self):
        # dtype name, shape and the C-order bytes (one C copy when the array
        # is not contiguous, one memory copy into the pickle)
        c = _core.contiguous(self._c)
        n = c.size * c.dtype.itemsize
        data = _core.ffi.buffer(_core.ffi.cast("char *", c.address), n)[:] if n else b""
        return (_unpickle, (c.dtype.name, c.shape, data))

    # ------------------------------------------------------------ conversion to Python
    def _one(self, what):
        if self.size != 1:
            raise TypeError(f"only a one-element array converts to a Python {what}, "
                            f"this one has shape {self.shape}")
        return _core.item(self._c)

    def __bool__(self):
        return bool(self._one("bool"))

    def __int__(self):
        if self.dtype in KINDS["complex floating"]:
            raise TypeError("int() of a complex array")
        return int(self._one("int"))

    def __float__(self):
        if self.dtype in KINDS["complex floating"]:
            raise TypeError("float() of a complex array")
        return float(self._one("float"))

    def __complex__(self):
        v = self._one("complex")
        if isinstance(v, float) and v != v:
            return complex(v, v)      # the standard: a real NaN is NaN + NaN j
        return complex(v)

    def __index__(self):
        if self.dtype not in KINDS["integral"]:
            raise TypeError(f"only an integer array is an index, this one is {self.dtype.name}")
        return int(self._one("int"))

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key):
        from ._indexing import getitem
        return Array._new(getitem(self._c, key))

    def __setitem__(self, key, value):
        from ._indexing import setitem
        setitem(self._c, key, value)


def _unpickle(dtype_name, shape, data):
    """An Array from Array.__reduce__'s (dtype name, shape, bytes); every
    field is checked before anything is allocated, so a corrupted pickle
    raises ValueError or TypeError."""
    dt = _core.BY_NAME.get(dtype_name) if isinstance(dtype_name, str) else None
    if dt is None:
        raise ValueError(f"unpickling an Array: unknown dtype {dtype_name!r}")
    if not isinstance(shape, tuple) or len(shape) > _core.lib.ST_MAX_DIMS or \
            not all(type(n) is int and n >= 0 for n in shape):
        raise ValueError(f"unpickling an Array: bad shape {shape!r}")
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"unpickling an Array: data must be bytes, got {type(data).__name__}")
    n = 1
    for d in shape:
        n *= d
    if n * dt.itemsize != len(data):
        raise ValueError(f"unpickling an Array: shape {shape} of {dt.name} needs "
                         f"{n * dt.itemsize} bytes, the pickle holds {len(data)}")
    # a bool element must be 0 or 1: its bytes go through uint8 and a C cast
    raw = _core.uint8 if dt is _core.bool_ else dt
    c = _core.Core.empty(shape, raw)
    if data:
        _core.ffi.memmove(_core.ffi.cast("char *", c.address), data, len(data))
    return Array._new(_core.astype(c, dt) if raw is not dt else c)

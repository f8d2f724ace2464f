"""Torch7 storages: ByteStorage ... DoubleStorage over a C `st_storage`.

A storage is a refcounted block of memory of one element type, counted in
elements, indexed from one.  Every element access is a C call through a
one-element view (`_core.Core.over`)."""
from __future__ import annotations

import math
import numbers
import operator
import weakref

from ..core.base import ffi, lib
from ..core.base import Core, borrow_storage, check, copy_, fill_, from_nested, item, new_storage, tolist
from ..core.base import dtype as _dtype

STORAGE_TYPES = {}   # 'torch.LongStorage' -> class
# address of a C st_storage -> live storage views of part of it (LongStorage(s, offset, n)):
# those address the parent's memory directly, so the parent must not move
_CHILDREN = {}
# (address of a C st_storage, storage class) -> the live Python storage object
# over it: tensor.storage() returns that one object, so pickling tensors that
# share memory pickles (and restores) one storage
_WRAPPERS = weakref.WeakValueDictionary()


def _addr(ptr):
    return int(ffi.cast("uintptr_t", ptr))


def check_movable(ptr, what):
    """Raise ValueError when resizing C storage `ptr` would leave a storage
    view (LongStorage(storage, offset, size)) pointing at freed memory."""
    kids = _CHILDREN.get(_addr(ptr))
    if kids is not None and len(kids):
        raise ValueError(f"{what}: {len(kids)} storage view(s) of part of this storage are "
                         f"alive; resizing would leave them dangling")


def _own(ptr):
    """A Python reference to C storage `ptr` (retained, released on collection)."""
    lib.st_storage_retain(ptr)
    return ffi.gc(ptr, lib.st_storage_release)


def _index(value, name):
    """value as an int.  Lua's numbers are doubles: a float is truncated
    toward zero, as luaL_checkinteger does (so x:narrow(1, y:sum(), 2) and
    the floats of a DoubleTensor's totable() work); NaN and inf raise."""
    if (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and not hasattr(value, "__index__") and math.isfinite(value)):
        return math.trunc(value)
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    return operator.index(value)


class Storage:
    """Base of the typed storages; use ByteStorage ... DoubleStorage."""

    __slots__ = ("_s", "_parent", "__weakref__")
    _dt = None
    _typename = None

    def __init__(self, *args):
        self._init(*args)
        _WRAPPERS[(_addr(self._s), type(self))] = self

    def _init(self, *args):
        self._parent = None
        dt = _dtype(self._dt)
        if not args:
            self._s = new_storage(0)
            return
        a0 = args[0]
        if isinstance(a0, Storage):
            self._init_view(*args)
            return
        if isinstance(a0, (list, tuple)):
            if len(args) != 1:
                raise TypeError(f"{self._typename}(list) takes no further arguments")
            self._s = _from_list(list(a0), dt)
            return
        n = _index(a0, "size")
        if n < 0:
            raise ValueError(f"{self._typename}: size must be >= 0, got {n}")
        if len(args) == 1:
            self._s = new_storage(n * dt.itemsize)
        elif len(args) == 2:
            # foreign memory: never freed by us, cannot be resized.  What can
            # be checked is: an int address (no float, no bool), not null,
            # aligned to the element size, and a block that fits in the
            # address space; whether memory is mapped there cannot be known.
            address = args[1]
            if isinstance(address, bool) or not hasattr(address, "__index__"):
                raise TypeError(f"{self._typename}(size, address): address must be an int, "
                                f"got {type(address).__name__} {address!r}")
            address = operator.index(address)
            if address <= 0:
                raise ValueError(f"{self._typename}(size, address): address is "
                                 f"{'null' if address == 0 else 'negative'} ({address})")
            if address + n * dt.itemsize > 2 ** 64 or n * dt.itemsize >= 2 ** 63:
                raise OverflowError(f"{self._typename}(size, address): {n} elements at "
                                    f"address {address:#x} do not fit in the address space")
            if address % dt.itemsize:
                raise ValueError(f"{self._typename}(size, address): address {address:#x} is not "
                                 f"a multiple of the element size {dt.itemsize}")
            self._s = borrow_storage(address, n * dt.itemsize)
        else:
            raise TypeError(f"{self._typename}: expected (), (size), (list), (size, address) "
                            f"or (storage, offset[, size]), got {len(args)} arguments")

    def _init_view(self, parent, offset=1, size=None):
        if type(parent) is not type(self):
            raise TypeError(f"{self._typename}(storage, offset[, size]) needs a "
                            f"{self._typename}, got {parent._typename}")
        n = parent.size()
        offset = _index(offset, "offset")
        if not 1 <= offset <= max(n, 1):
            raise IndexError(f"{self._typename}: offset {offset} out of range [1, {max(n, 1)}]")
        if size is None:
            size = n - offset + 1
        size = _index(size, "size")
        if not 0 <= size <= n - offset + 1:
            raise ValueError(f"{self._typename}: size {size} out of range [0, {n - offset + 1}] "
                             f"for offset {offset} in a storage of size {n}")
        item_ = _dtype(self._dt).itemsize
        address = int(ffi.cast("uintptr_t", parent._s.data)) + (offset - 1) * item_
        self._s = borrow_storage(address, size * item_, owner=parent)
        self._parent = parent
        _CHILDREN.setdefault(_addr(parent._s), weakref.WeakSet()).add(self)

    @classmethod
    def _wrap(cls, ptr):
        """The storage object over C storage `ptr` (shared, retained): the
        live one when there is one, so that all tensors viewing one C storage
        give the same Python object."""
        key = (_addr(ptr), cls)
        self = _WRAPPERS.get(key)
        if self is None:
            self = cls.__new__(cls)
            self._parent = None
            self._s = _own(ptr)
            _WRAPPERS[key] = self
        return self

    # -- geometry
    def size(self):
        return int(self._s.nbytes) // _dtype(self._dt).itemsize

    def __len__(self):
        return self.size()

    def elementSize(self):
        return _dtype(self._dt).itemsize

    def _core(self):
        """A 1-D Core viewing the whole storage."""
        return Core.over(self._s, self._dt, 0, (self.size(),))

    def _element(self, i):
        n = self.size()
        i = _index(i, "index")
        if not 1 <= i <= n:
            raise IndexError(f"{self._typename}: index {i} out of range [1, {n}]")
        return Core.over(self._s, self._dt, i - 1, ())

    # -- elements
    def __getitem__(self, i):
        return item(self._element(i))

    def __setitem__(self, i, value):
        fill_(self._element(i), value)

    def __iter__(self):
        return iter(self.tolist())

    def fill(self, value):
        fill_(self._core(), value)
        return self

    def zero(self):
        return self.fill(0)

    def copy(self, other):
        if isinstance(other, Storage):
            src = other._core()
        elif hasattr(other, "_kcore"):
            from ..core.base import contiguous
            src = contiguous(other._kcore())
            src = Core.over(src.storage, src.dtype, src.offset, (src.size,))
        else:
            raise TypeError(f"{self._typename}.copy: expected a storage or tensor, got "
                            f"{type(other).__name__}")
        if src.size != self.size():
            raise ValueError(f"{self._typename}.copy: source has {src.size} elements, "
                             f"this storage {self.size()}")
        copy_(self._core(), src)
        return self

    def resize(self, n):
        n = _index(n, "size")
        if n < 0:
            raise ValueError(f"{self._typename}.resize: size must be >= 0, got {n}")
        nbytes = n * _dtype(self._dt).itemsize
        if nbytes != self._s.nbytes:
            check_movable(self._s, f"{self._typename}.resize")
        if nbytes < self._s.nbytes and self._s.refcount > 1:
            # tensors view this memory; shrinking it under them would let
            # their kernels reach freed memory
            raise ValueError(f"{self._typename}.resize: cannot shrink a storage that tensors "
                             f"or other storage objects still view (size {self.size()} -> {n})")
        check(lib.st_storage_resize(self._s, nbytes))
        return self

    def tolist(self):
        return tolist(self._core())

    totable = tolist

    def type(self):
        return self._typename

    def data(self):
        return ffi.cast(_dtype(self._dt).ctype + " *", self._s.data)

    def __str__(self):
        from .printing import format_storage
        return format_storage(self._typename, self._core())

    __repr__ = __str__

    def __reduce__(self):
        # the raw bytes (one memory copy); pickle memoizes this object, so
        # tensors pickled together with it share it again after loading
        return (_rebuild_storage, (self._typename, _raw_bytes(self._s)))


def _raw_bytes(s):
    """The bytes of C storage `s` (one memory copy)."""
    n = int(s.nbytes)
    return ffi.buffer(s.data, n)[:] if n else b""


def _from_bytes(cls, data):
    """A new storage of class `cls` holding the bytes `data` (a bytes-like
    object whose length is a multiple of the element size): one memmove."""
    n = len(data)
    if n % _dtype(cls._dt).itemsize:
        raise ValueError(f"{cls._typename}: {n} bytes is not a whole number of "
                         f"{_dtype(cls._dt).itemsize}-byte elements")
    ptr = new_storage(n)
    if n:
        ffi.memmove(ptr.data, ffi.from_buffer(data), n)
    return cls._wrap(ptr)


def _rebuild_storage(typename, data):
    cls = STORAGE_TYPES.get(typename)
    if cls is None:
        raise ValueError(f"unpickling a storage: unknown storage type {typename!r}")
    return _from_bytes(cls, data)


def _from_list(values, dt):
    if not values:
        return new_storage(0)
    for v in values:
        if isinstance(v, (list, tuple)):
            raise ValueError("a storage takes a flat list of numbers")
    try:
        c = from_nested(values, dt)
    except TypeError:
        if dt.kind not in "iu":
            raise
        from ..core.base import astype
        c = astype(from_nested([float(v) for v in values], "float64"), dt)   # C truncates
    return _own(c.storage)


def _make(name, dt):
    cls = type(name, (Storage,), {"__slots__": (), "_dt": dt, "_typename": "torch." + name,
                                  "__doc__": f"Torch7's {name}: {dt} elements, indexed from one."})
    cls.__module__ = "strided"
    STORAGE_TYPES["torch." + name] = cls
    return cls


ByteStorage = _make("ByteStorage", "uint8")
CharStorage = _make("CharStorage", "int8")
ShortStorage = _make("ShortStorage", "int16")
IntStorage = _make("IntStorage", "int32")
LongStorage = _make("LongStorage", "int64")
FloatStorage = _make("FloatStorage", "float32")
DoubleStorage = _make("DoubleStorage", "float64")

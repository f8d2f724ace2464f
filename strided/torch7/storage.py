"""Torch7 storages: ByteStorage ... DoubleStorage and HalfStorage over a C
`st_storage` (storage.md).

A storage is a refcounted block of memory of one element type, counted in
elements, indexed from one.  Every element access is a C call through a
one-element view (`_core.Core.over`); a storage can also view part of
another (`LongStorage(s, offset, size)`), foreign memory
(`Storage(n, address)`) or a memory-mapped file (`Storage(filename,
shared, size, sharedMem)`, mapped in C: st_storage_map)."""

from __future__ import annotations

import math
import numbers
import operator
import os
import weakref
from typing import TYPE_CHECKING

from ..core import arraytype as _fast
from ..core.arraytype import DECLINED
from ..core import storage as _storage
from ..core.base import (
    Core,
    adopt_storage,
    borrow_storage,
    copy_,
    fill_,
    from_nested,
    item,
    new_storage,
    storage_view,
    tolist,
    zeros_storage,
)
from ..core.base import dtype as _dtype
from .docstrings import storage_class_doc

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
from .overloads import overload

if TYPE_CHECKING:
    from os import PathLike
    from typing import Any, Iterator

    from typing_extensions import Self

STORAGE_TYPES = {}  # 'torch.LongStorage' -> class
# (address of a C st_storage, storage class) -> the live Python storage object
# over it: tensor.storage() returns that one object, so pickling tensors that
# share memory pickles (and restores) one storage
_WRAPPERS = weakref.WeakValueDictionary()


_addr = _storage.address
_own = _storage.own  # a handle of our own on a C storage (retained, released when collected)


def _index(value, name):
    """value as an int.  Lua's numbers are doubles: a float is truncated
    toward zero, as luaL_checkinteger does (so x:narrow(1, y:sum(), 2) and
    the floats of a DoubleTensor's totable() work); NaN and inf raise."""
    if (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and not hasattr(value, "__index__")
        and math.isfinite(value)
    ):
        return math.trunc(value)
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    return operator.index(value)


def from_one(i):
    """The hint an index of 0 gets in an IndexError: Python counts from 0,
    the Torch7 face from 1 (a PyTorch or numpy habit fails at once)."""
    return " (the Torch7 face counts from 1, as Lua: the first is 1)" if i == 0 else ""


class Storage(_fast.StorageBase):
    """Base of the typed storages; use ByteStorage ... DoubleStorage, HalfStorage."""

    # StorageBase (pyarray.c) holds _s, the C storage's cffi pointer, and
    # _extra, the references retain() added (Lua's count is 1 + _extra),
    # released with the object
    __slots__ = ("__weakref__",)
    _dt = None
    _code = -1  # the core's code of _dt
    _typename = None

    @overload
    def __init__(self, size: int = ..., /) -> None: ...
    @overload
    def __init__(self, values: list[float] | tuple[float, ...], /) -> None: ...
    @overload
    def __init__(self, size: int, address: int, /) -> None: ...
    @overload
    def __init__(self, storage: Self, offset: int = ..., size: int | None = ..., /) -> None: ...
    @overload
    def __init__(
        self,
        filename: str | bytes | PathLike[Any],
        shared: bool | None = ...,
        size: int | None = ...,
        sharedMem: bool | None = ...,
        /,
    ) -> None: ...

    def __init__(self, *args: Any) -> None:
        self._extra = 0
        self._init(*args)
        _WRAPPERS[(_addr(self._s), type(self))] = self

    def _init(self, *args):
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
            self._s = _from_list(list(a0), dt, self._typename)
            return
        if isinstance(a0, (str, bytes, os.PathLike)):
            self._init_map(*args)
            return
        n = _index(a0, "size")
        if n < 0:
            raise ValueError(f"{self._typename}: size must be >= 0, got {n}")
        if len(args) == 1:
            self._s = zeros_storage(n * dt.itemsize)  # never a freed storage's bytes
        elif len(args) == 2:
            # foreign memory: never freed by us, cannot be resized.  What can
            # be checked is: an int address (no float, no bool), not null,
            # aligned to the element size, and a block that fits in the
            # address space; whether memory is mapped there cannot be known.
            address = args[1]
            if isinstance(address, bool) or not hasattr(address, "__index__"):
                raise TypeError(
                    f"{self._typename}(size, address): address must be an int, "
                    f"got {type(address).__name__} {address!r}"
                )
            address = operator.index(address)
            if address <= 0:
                raise ValueError(
                    f"{self._typename}(size, address): address is "
                    f"{'null' if address == 0 else 'negative'} ({address})"
                )
            if address + n * dt.itemsize > 2**64 or n * dt.itemsize >= 2**63:
                raise OverflowError(
                    f"{self._typename}(size, address): {n} elements at "
                    f"address {address:#x} do not fit in the address space"
                )
            if address % dt.itemsize:
                raise ValueError(
                    f"{self._typename}(size, address): address {address:#x} is not "
                    f"a multiple of the element size {dt.itemsize}"
                )
            self._s = borrow_storage(address, n * dt.itemsize)
        else:
            raise TypeError(
                f"{self._typename}: expected (), (size), (list), (size, address), "
                f"(storage, offset[, size]) or (filename[, shared[, size"
                f"[, sharedMem]]]), got {len(args)} arguments"
            )

    def _init_view(self, parent, offset=1, size=None):
        if type(parent) is not type(self):
            raise TypeError(
                f"{self._typename}(storage, offset[, size]) needs a "
                f"{self._typename}, got {parent._typename}"
            )
        n = parent.size()
        offset = _index(offset, "offset")
        if not 1 <= offset <= max(n, 1):
            raise IndexError(f"{self._typename}: offset {offset} out of range [1, {max(n, 1)}]")
        if size is None:
            size = n - offset + 1
        size = _index(size, "size")
        if not 0 <= size <= n - offset + 1:
            raise ValueError(
                f"{self._typename}: size {size} out of range [0, {n - offset + 1}] "
                f"for offset {offset} in a storage of size {n}"
            )
        item_ = _dtype(self._dt).itemsize
        # the view keeps the parent's C storage alive (as Lua's view retains
        # it), even when the parent object lets go of it (free), and pins it:
        # the parent cannot be resized (moved) while the view lives, in
        # whatever tensor, after this object is gone (Lua's TH has that hole)
        self._s = storage_view(parent._s, (offset - 1) * item_, size * item_)

    def _init_map(self, filename, shared=False, size=0, sharedMem=False):
        """Storage(filename[, shared[, size[, sharedMem]]]): the file mapped
        into memory by the core (st_storage_map)."""
        name = self._typename
        path = os.fspath(filename)
        raw = os.fsencode(path)
        if b"\0" in raw:
            raise ValueError(f"{name}(filename): the file name contains a null byte")
        for flag, what in ((shared, "shared"), (sharedMem, "sharedMem")):
            if flag is not None and not isinstance(flag, bool):
                raise TypeError(
                    f"{name}(filename, shared, size, sharedMem): {what} must be a "
                    f"boolean, got {type(flag).__name__} {flag!r}"
                )
        size = 0 if size is None else _index(size, "size")
        if size < 0:
            raise ValueError(
                f"{name}(filename, shared, size): size must be >= 0 (0: the whole file), got {size}"
            )
        item_ = _dtype(self._dt).itemsize
        if size * item_ > 1 << 62:
            raise ValueError(f"{name}(filename, shared, size): {size} elements are too many to map")
        # as Lua: sharedMem counts only with shared
        mode = (
            _storage.MAP_SHAREDMEM
            if shared and sharedMem
            else _storage.MAP_SHARED
            if shared
            else _storage.MAP_PRIVATE
        )
        self._s = _storage.map_file(raw, size * item_, item_, mode, name)

    @classmethod
    def _wrap(cls, ptr):
        """The storage object over C storage `ptr` (shared, retained): the
        live one when there is one, so that all tensors viewing one C storage
        give the same Python object."""
        key = (_addr(ptr), cls)
        self = _WRAPPERS.get(key)
        if self is None:
            self = cls.__new__(cls)
            self._extra = 0
            self._s = _own(ptr)
            _WRAPPERS[key] = self
        return self

    # -- geometry
    def size(self) -> int:
        """s:size(): the number of elements."""
        return int(self._s.nbytes) // _dtype(self._dt).itemsize

    def __len__(self) -> int:
        return self.size()

    def elementSize(self) -> int:
        """s:elementSize(): the size of one element in bytes."""
        return _dtype(self._dt).itemsize

    def _core(self):
        """A 1-D Core viewing the whole storage."""
        return Core.over(self._s, self._dt, 0, (self.size(),))

    def _element(self, i):
        n = self.size()
        i = _index(i, "index")
        if not 1 <= i <= n:
            raise IndexError(f"{self._typename}: index {i} out of range [1, {n}]{from_one(i)}")
        return Core.over(self._s, self._dt, i - 1, ())

    # -- elements: s[i] and s[i] = v of an int index and a number are
    # StorageBase's slots (pyarray.c); these are their general path
    def _getitem(self, i):
        return item(self._element(i))

    def _setitem(self, i, value):
        fill_(self._element(i), value)

    def __iter__(self) -> Iterator[float]:
        return iter(self.tolist())

    def fill(self, value: float) -> Self:
        """s:fill(value): every element set to value; returns s."""
        fill_(self._core(), value)
        return self

    def zero(self) -> Self:
        """s:zero(): every element set to 0; returns s."""
        return self.fill(0)

    def copy(self, other: Storage | Tensor) -> Self:
        """s:copy(t): the elements of a storage of the same size copied (converted) into s;
        returns s."""
        if isinstance(other, Storage):
            src = other._core()
        elif hasattr(other, "_kcore"):
            from ..core.base import contiguous

            src = contiguous(other._kcore())
            src = Core.over(src.storage, src.dtype, src.offset, (src.size,))
        else:
            raise TypeError(
                f"{self._typename}.copy: expected a storage or tensor, got {type(other).__name__}"
            )
        if src.size != self.size():
            raise ValueError(
                f"{self._typename}.copy: source has {src.size} elements, this storage {self.size()}"
            )
        copy_(self._core(), src)
        return self

    def resize(self, n: int) -> Self:
        """s:resize(n): s resized to n elements (the first ones kept); returns s."""
        n = _index(n, "size")
        if n < 0:
            raise ValueError(f"{self._typename}.resize: size must be >= 0, got {n}")
        nbytes = n * _dtype(self._dt).itemsize
        if nbytes != self._s.nbytes and (not _storage.owned(self._s) or self._s.pins):
            self._resize(nbytes)  # C refuses borrowed, mapped and pinned (viewed) memory first
        if nbytes < self._s.nbytes and self._s.refcount - self._extra > 1:
            # tensors view this memory; shrinking it under them would let
            # their kernels reach freed memory
            raise ValueError(
                f"{self._typename}.resize: cannot shrink a storage that tensors "
                f"or other storage objects still view (size {self.size()} -> {n})"
            )
        self._resize(nbytes)
        return self

    def _resize(self, nbytes):
        try:
            _storage.resize(self._s, nbytes)
        except ValueError as e:  # borrowed, mapped or pinned memory
            raise ValueError(f"{self._typename}.resize: {e}") from None

    # -- reference counting (storage.md): Lua's count is the storage
    # object's own reference plus those retain() added
    def retain(self) -> Self:
        """Add a reference to the C storage (its refcount, which C code given
        torch.cdata(s) sees); free() drops it.  Returns the storage."""
        _storage.retain(self._s)
        self._extra += 1
        return self

    def free(self) -> None:
        """Drop a reference.  The last one is the object's own: the storage
        then lets go of its memory (freed unless tensors or storage views
        still hold it) and becomes empty; calling free() again does nothing."""
        if self._extra:
            self._extra -= 1
            _storage.release(self._s)
            return
        if _WRAPPERS.get((_addr(self._s), type(self))) is self:
            del _WRAPPERS[(_addr(self._s), type(self))]
        self._s = new_storage(0)
        _WRAPPERS[(_addr(self._s), type(self))] = self

    def tolist(self) -> list[Any]:  # ints or floats: the stub says which per class
        """s.tolist(): the elements as a list of Python numbers."""
        return tolist(self._core())

    totable = tolist

    def type(self) -> str:
        """s:type(): the type name ('torch.DoubleStorage', ...)."""
        return self._typename

    def data(self) -> Any:
        """s:data(): a cffi pointer to the first element (0-based, as C's)."""
        return _storage.typed_pointer(self._s.data, _dtype(self._dt).ctype)

    def __str__(self):
        from .printing import format_storage

        return format_storage(self._typename, self._core())

    __repr__ = __str__

    def __reduce__(self):
        # the raw bytes (one memory copy); pickle memoizes this object, so
        # tensors pickled together with it share it again after loading
        return (_rebuild_storage, (self._typename, _raw_bytes(self._s)))


_raw_bytes = _storage.read_bytes  # the bytes of a C storage (one memory copy)


def _from_bytes(cls, data):
    """A new storage of class `cls` holding the bytes `data` (a bytes-like
    object whose length is a multiple of the element size): one memmove."""
    n = len(data)
    if n % _dtype(cls._dt).itemsize:
        raise ValueError(
            f"{cls._typename}: {n} bytes is not a whole number of "
            f"{_dtype(cls._dt).itemsize}-byte elements"
        )
    return _fresh(cls, _storage.from_bytes(data))


def _fresh(cls, ptr):
    """The storage object of class `cls` over `ptr`, a C storage just made
    by new_storage (its one reference, which nobody else has, handed over:
    no second reference, no look-up of a live wrapper, as _wrap needs)."""
    self = cls.__new__(cls)
    self._extra = 0
    self._s = ptr
    _WRAPPERS[(_addr(ptr), cls)] = self
    return self


def _rebuild_storage(typename, data):
    cls = STORAGE_TYPES.get(typename)
    if cls is None:
        raise ValueError(f"unpickling a storage: unknown storage type {typename!r}")
    return _from_bytes(cls, data)


def _from_list(values, dt, name):
    if not values:
        return new_storage(0)
    r = _fast.t7_nested(None, values, dt.code, 1)  # numbers, the plain case: in C
    if r is not DECLINED:
        return adopt_storage(r)
    for i, v in enumerate(values, 1):
        if isinstance(v, (list, tuple)):
            raise ValueError(
                f"{name}(table): a storage takes a flat list of numbers (element "
                f"at index {i} is a {type(v).__name__})"
            )
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(
                f"{name}(table): element at index {i} is not a number ({type(v).__name__} {v!r})"
            )
    try:
        c = from_nested(values, dt)
    except TypeError:
        if dt.kind not in "iu":
            raise
        from ..core.base import astype

        c = astype(from_nested([float(v) for v in values], "float64"), dt)  # C truncates
    return _own(c.storage)


@overload
def string(self) -> bytes: ...
@overload
def string(self, s: str | bytes | bytearray | memoryview, /) -> Self: ...


def string(self, s: str | bytes | bytearray | memoryview | None = None) -> bytes | Self:
    """string(): the storage's bytes as a `bytes`; string(str): the storage
    resized to the string's length and holding its bytes (a `str` as
    UTF-8; `bytes`, `bytearray`, `memoryview` as they are), returning the
    storage.  ByteStorage and CharStorage only (storage.md)."""
    if s is None:
        return _raw_bytes(self._s)
    if isinstance(s, str):
        s = s.encode()
    elif isinstance(s, (bytes, bytearray, memoryview)):
        s = bytes(s)
    else:
        raise TypeError(
            f"{self._typename}.string: expected nothing, a str or bytes, got {type(s).__name__}"
        )
    self.resize(len(s))
    _storage.write_bytes(self._s, s)
    return self


def _make(name, dt, **methods):
    cls = type(
        name,
        (Storage,),
        {
            "__slots__": (),
            "_dt": dt,
            "_typename": "torch." + name,
            "_code": _dtype(dt).code,
            "__doc__": storage_class_doc(name, dt),
            **methods,
        },
    )
    cls.__module__ = "strided"
    STORAGE_TYPES["torch." + name] = cls
    return cls


ByteStorage = _make("ByteStorage", "uint8", string=string)
CharStorage = _make("CharStorage", "int8", string=string)
ShortStorage = _make("ShortStorage", "int16")
IntStorage = _make("IntStorage", "int32")
LongStorage = _make("LongStorage", "int64")
FloatStorage = _make("FloatStorage", "float32")
DoubleStorage = _make("DoubleStorage", "float64")
HalfStorage = _make("HalfStorage", "float16")
BFloat16Storage = _make("BFloat16Storage", "bfloat16")  # an extension: Lua has none


def _own_registered(self, address):
    """`_s` of a storage object C made (x:size()): a reference to its C
    storage, the object registered as the one over it (_wrap finds it)."""
    s = _own(address)
    _WRAPPERS[(address, type(self))] = self
    return s


_fast.t7_storage_setup(LongStorage, _own_registered, _addr)

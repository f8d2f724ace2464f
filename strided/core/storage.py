"""The C storage record (`st_storage *`, strided.h) as the faces hold it:
the handle.  A handle is the cffi pointer that core.base's constructors
return (new_storage, zeros_storage, storage_view, borrow_storage,
adopt_storage), released when it is collected; what else a face does
with it goes through these functions, so that no face calls the C
library itself (tests/project/test_layers.py): references (retain, release,
own), size (resize, owned), bytes in and out, a file mapped into memory,
and typed pointers and addresses for the faces' cffi-level functions
(Torch7's torch.data, torch.cdata).  A NULL record is false."""

from __future__ import annotations

from .._c._strided import ffi, lib
from .base import _ERRORS, borrow_storage, check, new_storage


def address(p):
    """The address a cffi pointer (a storage, a view record, data) holds, as an int."""
    return int(ffi.cast("uintptr_t", p))


def typed_pointer(p, ctype):
    """A cffi `ctype *` at pointer or address `p` (Torch7's s:data())."""
    return ffi.cast(ctype + " *", p)


def retain(s):
    """One more reference to the record (Lua's s:retain(); C code that was
    given the record sees it)."""
    lib.st_storage_retain(s)


def release(s):
    """Drop a reference retain() added."""
    lib.st_storage_release(s)


def own(p):
    """A new handle on the record at `p`, holding a reference of its own.
    A plain pointer is made: ffi.gc of an ffi.gc object would keep that
    object, and its reference, as long as the new one lives.  `p` may be a
    cffi pointer or an address."""
    p = ffi.cast("st_storage *", p)
    lib.st_storage_retain(p)
    return ffi.gc(p, lib.st_storage_release)


def owned(s):
    """Whether the core allocated the memory (only such memory can resize)."""
    return bool(s.flags & lib.ST_STORAGE_OWNED)


def resize(s, nbytes):
    """The storage's memory resized to nbytes (the first bytes kept, the
    new tail zero); ValueError for borrowed, mapped or pinned memory."""
    check(lib.st_storage_resize(s, nbytes))


def read_bytes(s, nbytes=None, offset=0):
    """nbytes of the storage from byte `offset` (all of it by default) as
    bytes: one memory copy."""
    n = int(s.nbytes) - offset if nbytes is None else nbytes
    return ffi.buffer(s.data + offset, n)[:] if n else b""


def write_bytes(s, data, offset=0):
    """The bytes-like `data` into the storage from byte `offset` (the
    caller has checked that they fit)."""
    n = memoryview(data).nbytes
    if n:
        ffi.memmove(s.data + offset, ffi.from_buffer(data), n)


def from_bytes(data):
    """A new storage holding the bytes-like `data`: one memory copy."""
    s = new_storage(memoryview(data).nbytes)
    write_bytes(s, data)
    return s


def buffer(p, nbytes):
    """A writable buffer (cffi's) over nbytes at pointer or address p; the
    caller keeps the memory alive while the buffer is used."""
    if isinstance(p, int):
        p = ffi.cast("char *", p)
    return ffi.buffer(p, nbytes)


def buffer_keeping(owner, address_, nbytes):
    """A writable buffer over nbytes at `address_` that keeps `owner` (what
    holds the memory: a Core) alive while the buffer lives."""
    keep = ffi.gc(ffi.cast("char *", address_), lambda _p, _owner=owner: None)
    return ffi.buffer(keep, nbytes)


def borrow_buffer(mv):
    """(storage, address): a C storage over the memory of a C-contiguous
    memoryview, which it keeps exported and alive until the core lets go
    of it (read-only when the buffer is)."""
    p = ffi.from_buffer(mv)
    at = address(p)
    return borrow_storage(at, mv.nbytes, readonly=mv.readonly, owner=(mv, p)), at


def alignment(ctype):
    """The C alignment of a type (its elements' address must be a multiple)."""
    return ffi.alignof(ctype)


# how st_storage_map shares the mapped file
MAP_PRIVATE, MAP_SHARED, MAP_SHAREDMEM = lib.ST_MAP_PRIVATE, lib.ST_MAP_SHARED, lib.ST_MAP_SHAREDMEM


def map_file(path, nbytes, itemsize, mode, name):
    """A storage over the file at `path` (bytes) mapped into memory
    (st_storage_map; nbytes 0: the whole file, a whole number of
    itemsize-byte elements).  Errors name `name`; the system's (no such
    file, no permission) raise as OSError with its errno."""
    err = ffi.new("int *")
    s = lib.st_storage_map(path, nbytes, itemsize, mode, err)
    if s == ffi.NULL:
        status = lib.st_last_status()
        message = f"{name}: {ffi.string(lib.st_last_error()).decode(errors='replace')}"
        if status == lib.ST_E_IO and err[0]:
            raise OSError(err[0], message)  # FileNotFoundError, PermissionError, ...
        raise _ERRORS.get(status, RuntimeError)(message)
    return ffi.gc(s, lib.st_storage_release)


__all__ = [
    "address",
    "typed_pointer",
    "retain",
    "release",
    "own",
    "owned",
    "resize",
    "read_bytes",
    "write_bytes",
    "from_bytes",
    "buffer",
    "buffer_keeping",
    "borrow_buffer",
    "alignment",
    "MAP_PRIVATE",
    "MAP_SHARED",
    "MAP_SHAREDMEM",
    "map_file",
]

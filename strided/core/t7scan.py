"""Torch7's binary object format walked in C (st_t7_walk, t7scan.c): one
call reads an object's records and its storages' elements (each straight
into a new storage), for the Torch7 face's reader (torch7/t7format.py) to
make its objects from.  The walk returns nothing for what it leaves to
that reader: bad or truncated data, Lua functions, odd class versions."""

from __future__ import annotations

from .._c._strided import ffi, lib

# the record codes and the kinds of built-in classes (strided.h)
NIL, NUMBER, STRING, TABLE, BOOLEAN, REF = (
    lib.ST_T7_NIL,
    lib.ST_T7_NUMBER,
    lib.ST_T7_STRING,
    lib.ST_T7_TABLE,
    lib.ST_T7_BOOLEAN,
    lib.ST_T7_REF,
)
TENSOR, STORAGE, GENERATOR, OBJECT = (
    lib.ST_T7_TENSOR,
    lib.ST_T7_STORAGE,
    lib.ST_T7_GENERATOR,
    lib.ST_T7_OBJECT,
)
KIND_TENSOR, KIND_GENERATOR = lib.ST_T7_KIND_TENSOR, lib.ST_T7_KIND_GENERATOR


class Classes:
    """The built-in class names the walk knows (bytes) and their kinds: a
    storage's element size, KIND_TENSOR or KIND_GENERATOR."""

    __slots__ = ("names", "kinds", "n", "_keep")

    def __init__(self, names, kinds):
        self._keep = [ffi.new("char[]", n) for n in names]
        self.names = ffi.new("char *[]", self._keep)
        self.kinds = ffi.new("int64_t[]", list(kinds))
        self.n = len(names)


class Walked:
    """What a walk read, kept in C until asked for: `end` (the data offset
    after the object), `address` (of its st_t7_scan, for
    arraytype.t7_assemble, which makes the objects in one call); and, made
    on first use for Python's assembly, `words` (the records, ints;
    `numbers` the same words as doubles, for a NUMBER's bits), `bytes` (the
    strings, names and generator states they point into), `storages` (the
    new storages, handles: each storage's reference handed over).  The
    walk's own references to its storages go with `close()` (or with the
    object)."""

    __slots__ = ("_out", "end", "_words", "_numbers", "_bytes", "_storages")

    def __init__(self, out):
        self._out = ffi.gc(out, lib.st_t7_scan_free)
        self.end = out.end
        self._words = self._numbers = self._bytes = self._storages = None

    @property
    def address(self):
        return int(ffi.cast("uintptr_t", self._out))

    def close(self):
        lib.st_t7_scan_free(self._out)  # (it clears the scan: a second call does nothing)

    @property
    def words(self):
        if self._words is None:
            out = self._out
            self._words = ffi.unpack(out.words, out.nwords) if out.nwords else []
        return self._words

    @property
    def numbers(self):
        if self._numbers is None:
            out = self._out
            self._numbers = memoryview(ffi.buffer(out.words, 8 * out.nwords)[:]).cast("d")
        return self._numbers

    @property
    def bytes(self):
        if self._bytes is None:
            out = self._out
            self._bytes = ffi.buffer(out.bytes, out.nbytes)[:] if out.nbytes else b""
        return self._bytes

    @property
    def storages(self):
        if self._storages is None:
            out, storages = self._out, []
            for i in range(out.nstorages):  # each storage's one reference handed over
                storages.append(ffi.gc(out.storages[i], lib.st_storage_release))
                out.storages[i] = ffi.NULL
            self._storages = storages
        return self._storages


def walk(source, start, end, longsize, referenced, known, classes):
    """The records of the object at data offset `start` of `source` (an
    open file descriptor, an int, read with pread; or a bytes-like object)
    up to `end`, as a Walked; None when the walk leaves it to Python."""
    out = ffi.new("st_t7_scan *")
    mem = ffi.NULL
    keep = None
    if not isinstance(source, int):
        keep = ffi.from_buffer("char[]", source)
        mem, source = keep, -1
    known = list(known)
    bad = lib.st_t7_walk(
        source,
        mem,
        start,
        end,
        longsize,
        int(referenced),
        ffi.new("int64_t[]", known) if known else ffi.NULL,
        len(known),
        classes.names,
        classes.kinds,
        classes.n,
        out,
    )
    del keep
    if bad:
        return None
    return Walked(out)


def readers(mode):
    """How many threads read the storages of a walk of a file
    (st_t7_readers): 0 two when a CPU is free at the walk's start (the
    default), 1 one, 2 two whenever the core's threads allow; returns the
    previous mode."""
    return lib.st_t7_readers(mode)


__all__ = [
    "readers",
    "walk",
    "Classes",
    "Walked",
    "NIL",
    "NUMBER",
    "STRING",
    "TABLE",
    "BOOLEAN",
    "REF",
    "TENSOR",
    "STORAGE",
    "GENERATOR",
    "OBJECT",
    "KIND_TENSOR",
    "KIND_GENERATOR",
]

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
    """What a walk read: `words` (the records, ints; `numbers` the same
    words as doubles, for a NUMBER's bits), `bytes` (the strings,
    names and generator states they point into), `storages` (the new
    storages, handles), `end` (the data offset after the object)."""

    __slots__ = ("words", "numbers", "bytes", "storages", "end")


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
    w = Walked()
    try:
        w.words = ffi.unpack(out.words, out.nwords) if out.nwords else []
        w.numbers = memoryview(ffi.buffer(out.words, 8 * out.nwords)[:]).cast("d")
        w.bytes = ffi.buffer(out.bytes, out.nbytes)[:] if out.nbytes else b""
        storages = []
        for i in range(out.nstorages):  # each storage's one reference handed over
            storages.append(ffi.gc(out.storages[i], lib.st_storage_release))
            out.storages[i] = ffi.NULL
        w.storages = storages
        w.end = out.end
    finally:
        lib.st_t7_scan_free(out)
    return w


__all__ = [
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

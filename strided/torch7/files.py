"""Torch7's File classes: `DiskFile` and `MemoryFile` (Lua Torch7's
file.md, diskfile.md, memoryfile.md), as THFile.c, THDiskFile.c and
THMemoryFile.c behave.

A file is binary or ascii (ascii by default, as in Lua).  Binary mode
moves element data as raw bytes between the file and a storage's C
memory; ascii mode prints numbers as TH's fprintf formats ("%d", "%ld",
"%.9g" float, "%.17g" double; one space between the values of one call and
a newline after them when autoSpacing) and parses them as its fscanf does,
bytes and chars being raw in both modes.  `writeObject`/`readObject` are
t7format.py's writer and reader over the file, so a file holds the objects
of torch.save/torch.load.

Positions are 1-based (`seek(1)` is the start), as in Lua.
"""

from __future__ import annotations

import array
import math
import numbers
import operator
import os
import re
import stat
import struct
import subprocess
import sys
from typing import TYPE_CHECKING

from ..core import storage as _cstorage
from ..core.base import dtype as _dtype, new_storage
from .storage import (
    BFloat16Storage,
    ByteStorage,
    CharStorage,
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    IntStorage,
    LongStorage,
    ShortStorage,
    Storage,
    _fresh,
    _from_bytes,
    _raw_bytes,
)
from .t7format import _elements_what, _Reader, _Writer
from .utility import BUILTIN_CLASSES

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
from .overloads import overload

if TYPE_CHECKING:
    from os import PathLike
    from typing import Any, Literal

    from typing_extensions import Self

__all__ = ["DiskFile", "MemoryFile", "PipeFile"]

_LITTLE = sys.byteorder == "little"

# name -> (storage class, array typecode, bytes, ascii kind)
_TYPES = {
    "Byte": (ByteStorage, "B", 1, "raw"),
    "Char": (CharStorage, "b", 1, "raw"),
    "Short": (ShortStorage, "h", 2, "int"),
    "Int": (IntStorage, "i", 4, "int"),
    "Long": (LongStorage, "q", 8, "int"),
    "Float": (FloatStorage, "f", 4, "float"),
    "Double": (DoubleStorage, "d", 8, "float"),
    # the elements of a HalfStorage/HalfTensor in objects (THFile's Half:
    # raw binary16; ascii as its float, "%.9g", read back through a float);
    # Lua's File has no readHalf/writeHalf, so neither has ours
    "Half": (HalfStorage, "H", 2, "half"),
    # BFloat16Storage/BFloat16Tensor: the extension's (Lua has none), written
    # as Half is (raw 16-bit patterns; ascii as its float)
    "BFloat16": (BFloat16Storage, "H", 2, "half"),
}
_ASCII_FORMAT = {
    "Short": "%d",
    "Int": "%d",
    "Long": "%d",
    "Float": "%.9g",
    "Double": "%.17g",
    "Half": "%.9g",
    "BFloat16": "%.9g",
}
# the typed reads and writes of Lua's File
_FILE_TYPES = ("Byte", "Char", "Short", "Int", "Long", "Float", "Double")


def _convert(data, src, dst):
    """The native bytes `data` of src-storage elements as dst-storage elements
    (the C cast of storage copy)."""
    s = _from_bytes(src, data)
    return _raw_bytes(dst(s.size()).copy(s)._s)


_SPACE = b" \t\n\v\f\r"  # C's isspace
_INT_RE = re.compile(rb"[+-]?[0-9]+")
_FLOAT_RE = re.compile(
    rb"[+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
    rb"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    rb"|(?i:infinity|inf|nan(?:\([0-9A-Za-z_]*\))?))"
)
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_CHUNK = 1 << 16
_BIG_READ = 1 << 20  # a bigger DiskFile read is bounded by what the file holds


def _wrap_int(v, bits):
    """C's conversion of an integer to a signed `bits`-bit type (two's
    complement wrap), or unsigned for bytes."""
    m = 1 << bits
    v &= m - 1
    return v - m if v >= m >> 1 else v


def _c_value(name, v):
    """The value a C `TYPE value = lua_tonumber(L, 2)` holds."""
    kind = _TYPES[name][3]
    if kind == "float":
        return float(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v) or not _LONG_MIN <= v < -_LONG_MIN:
            v = _LONG_MIN  # x86's cvttsd2si of out-of-range values
        else:
            v = int(v)  # truncation toward zero
    v = int(v)
    if name == "Byte":
        return v & 0xFF
    return _wrap_int(v, 8 * _TYPES[name][2])


def _format(name, v):
    if _TYPES[name][3] in ("float", "half"):
        if math.isnan(v):
            return "-nan" if math.copysign(1.0, v) < 0 else "nan"
        return _ASCII_FORMAT[name] % v
    return "%d" % v


def _parse(name, tok):
    """The value C's scanf gives for the matched token `tok`."""
    if _TYPES[name][3] in ("float", "half"):
        s = tok.decode("ascii")
        body = s.lstrip("+-")
        if body[:2] in ("0x", "0X"):
            v = float.fromhex(s)
        elif body[:3].lower() == "nan":
            v = math.copysign(math.nan, -1.0 if s.startswith("-") else 1.0)
        else:
            v = float(s)
        return v
    v = max(_LONG_MIN, min(_LONG_MAX, int(tok)))  # strtol saturates
    return v if name == "Long" else _wrap_int(v, 8 * _TYPES[name][2])


def _pystring(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b


def _count(n):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"expected an integer count, got {type(n).__name__} {n!r}")
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"count must be >= 0, got {n}")
    return n


class File:
    """The methods common to DiskFile and MemoryFile (Lua's torch.File)."""

    _kind = "File"
    _typename = "torch.File"

    def _init_flags(self, mode, quiet):
        if mode == "r":
            self._readable, self._writable = True, False
        elif mode == "w":
            self._readable, self._writable = False, True
        elif mode == "rw":
            self._readable, self._writable = True, True
        else:
            raise ValueError(f"{self._kind}: file mode should be 'r','w' or 'rw', got {mode!r}")
        self._quiet = bool(quiet)
        self._binary = False
        self._autospacing = True
        self._error = False
        self._longsize = 0
        self._native = True
        self._force = None  # None: referenced() never called
        self._writer = None
        self._reader = None

    # ------------------------------------------------------------ flags
    def isQuiet(self) -> bool:
        """f:isQuiet(): True when errors are ignored (quiet())."""
        return self._quiet

    def isReadable(self) -> bool:
        """f:isReadable(): True when the file can be read."""
        return self._readable

    def isWritable(self) -> bool:
        """f:isWritable(): True when the file can be written."""
        return self._writable

    def isBinary(self) -> bool:
        """f:isBinary(): True in binary mode."""
        return self._binary

    def isAutoSpacing(self) -> bool:
        """f:isAutoSpacing(): True when ascii writes separate values with spaces."""
        return self._autospacing

    def hasError(self) -> bool:
        """f:hasError(): True after an error in quiet mode."""
        return self._error

    def binary(self) -> Self:
        """f:binary(): binary mode (native byte order); returns f."""
        self._binary = True
        return self

    def ascii(self) -> Self:
        """f:ascii(): ascii mode (the default); returns f."""
        self._binary = False
        return self

    def autoSpacing(self) -> Self:
        """f:autoSpacing(): ascii values separated by spaces (the default); returns f."""
        self._autospacing = True
        return self

    def noAutoSpacing(self) -> Self:
        """f:noAutoSpacing(): no separators written; returns f."""
        self._autospacing = False
        return self

    def quiet(self) -> Self:
        """f:quiet(): errors set hasError() instead of raising; returns f."""
        self._quiet = True
        return self

    def pedantic(self) -> Self:
        """f:pedantic(): errors raise (the default); returns f."""
        self._quiet = False
        return self

    def clearError(self) -> Self:
        """f:clearError(): hasError() false again; returns f."""
        self._error = False
        return self

    def longSize(self, size: int) -> Self:
        """f:longSize(n): the size of a written or read long (0: native, or 4, 8); returns
        f."""
        if size not in (0, 4, 8) or isinstance(size, bool):
            raise ValueError(
                f"{self._kind}.longSize: Invalid long size specified ({size!r}; expected 0, 4 or 8)"
            )
        self._longsize = int(size)
        return self

    # ------------------------------------------------------------ checks, errors
    def _check_open(self, method):
        if not self._is_open():
            raise ValueError(f"{self._kind}.{method}: attempt to use a closed file")

    def _check_read(self, method):
        self._check_open(method)
        if not self._readable:
            raise ValueError(f"{self._kind}.{method}: attempt to read in a write-only file")

    def _check_write(self, method):
        self._check_open(method)
        if not self._writable:
            raise ValueError(f"{self._kind}.{method}: attempt to write in a read-only file")

    def _fail(self, message):
        """Lua's THError after setting hasError: raised unless quiet."""
        self._error = True
        if not self._quiet:
            raise OSError(f"{self._kind}: {message}")

    # ------------------------------------------------------------ elements
    def _read_elems(self, name, n):
        """(bytes of the elements read in native layout, count read); sets
        the error flag (and raises unless quiet) when fewer than n."""
        cls, code, size, kind = _TYPES[name]
        if n == 0:
            return b"", 0
        if self._binary or kind == "raw":
            if name == "Long" and self._binary and self._longsize == 4:
                # 4-byte longs (files of 32-bit builds); 8 is the native long
                data = self._read_bytes(n * 4, 4)
                got = len(data) // 4
                a = array.array("i", data[: got * 4])
                if not self._native:
                    a.byteswap()
                data = array.array("q", a).tobytes()
            else:
                data = self._read_bytes(n * size, size)
                got = len(data) // size
                data = data[: got * size]
                if not self._native and size > 1 and got:
                    a = array.array(code, data)
                    a.byteswap()
                    data = a.tobytes()
            if not self._binary and self._autospacing:
                self._skip_newline()
        else:
            values = self._scan(name, n)
            got = len(values)
            if kind == "half":  # scanf's "%g" into a float, then TH_float2half
                data = _convert(array.array("f", values).tobytes(), FloatStorage, cls)
            else:
                data = array.array(code, values).tobytes()
            if self._autospacing:
                self._skip_newline()
        if got != n:
            self._fail(f"read error: read {got} blocks instead of {n}")
        return data, got

    def _write_elems(self, name, data, n):
        """Write n elements whose native bytes are `data`."""
        cls, code, size, kind = _TYPES[name]
        if n == 0:
            return 0
        if self._binary or kind == "raw":
            if name == "Long" and self._binary and self._longsize == 4:
                a = array.array("i", [_wrap_int(v, 32) for v in array.array("q", bytes(data))])
                if not self._native:
                    a.byteswap()
                data = a.tobytes()
            elif not self._native and size > 1:
                a = array.array(code, bytes(data))
                a.byteswap()
                data = a.tobytes()
            out = bytes(data)
            if not self._binary and self._autospacing:
                out += b"\n"
        else:
            if kind == "half":  # printed as its float (exact)
                values = array.array("f", _convert(bytes(data), cls, FloatStorage))
            else:
                values = array.array(code, bytes(data))
            sep = " " if self._autospacing else ""
            out = sep.join(_format(name, v) for v in values)
            if self._autospacing:
                out += "\n"
            out = out.encode("ascii")
        self._write_bytes(out)
        return n

    def _scan(self, name, n):
        """Up to n values parsed as C's scanf does, from the current position."""
        pattern = _INT_RE if _TYPES[name][3] == "int" else _FLOAT_RE
        values = []
        view = self._scan_view()
        try:
            while len(values) < n:
                tok = view.next_token(pattern)
                if tok is None:
                    break
                values.append(_parse(name, tok))
        finally:
            view.done()
        return values

    # ------------------------------------------------------------ typed read/write
    def _read_typed(self, name, arg):
        method = "read" + name
        self._check_read(method)
        cls = _TYPES[name][0]
        if arg is None:
            data, got = self._read_elems(name, 1)
            if not got:
                return None
            return array.array(_TYPES[name][1], data)[0]
        if isinstance(arg, Storage):
            if type(arg) is not cls:
                raise TypeError(
                    f"{self._kind}.{method}: nothing, number, or {name}Storage "
                    f"expected, got a {arg._typename}"
                )
            n = arg.size()
            data, got = self._read_elems(name, n)
            if got:
                _cstorage.write_bytes(arg._s, data)
            return got
        try:
            n = _count(arg)
        except (TypeError, ValueError) as e:
            raise type(e)(
                f"{self._kind}.{method}: nothing, number, or {name}Storage expected: {e}"
            ) from None
        return self._read_storage(name, n)[0]

    def _read_storage(self, name, n):
        """(a new storage of the up to n elements read, count read)."""
        data, got = self._read_elems(name, n)
        return _from_bytes(_TYPES[name][0], data), got

    def _write_typed(self, name, arg):
        method = "write" + name
        self._check_write(method)
        cls, code = _TYPES[name][:2]
        if isinstance(arg, Storage):
            if type(arg) is not cls:
                raise TypeError(
                    f"{self._kind}.{method}: number, or {name}Storage expected, "
                    f"got a {arg._typename}"
                )
            n = arg.size()
            return self._write_elems(name, _cstorage.buffer(arg._s.data, n * _TYPES[name][2]), n)
        if isinstance(arg, bool) or not isinstance(arg, numbers.Real):
            raise TypeError(
                f"{self._kind}.{method}: number, or {name}Storage expected, got "
                f"{type(arg).__name__}"
            )
        self._write_elems(name, array.array(code, [_c_value(name, arg)]).tobytes(), 1)
        return None

    def readBool(self) -> bool | None:
        """f:readBool(): one boolean read."""
        v = self.readInt()
        return None if v is None else v == 1

    def writeBool(self, value: bool) -> None:
        """f:writeBool(b): one boolean written."""
        self.writeInt(1 if value else 0)

    # ------------------------------------------------------------ strings
    def readString(self, format: str | bytes) -> str | bytes | None:
        """f:readString(format): '*a' the rest of the file, '*l' one line; a string."""
        self._check_read("readString")
        if isinstance(format, bytes):
            format = format.decode("latin-1")
        if (
            not isinstance(format, str)
            or len(format) < 2
            or format[0] != "*"
            or format[1] not in "al"
        ):
            raise ValueError(
                f"{self._kind}.readString: format must be '*a' or '*l', got {format!r}"
            )
        data = self._read_string(format[1])
        if data is None:
            self._fail("read error: read 0 blocks instead of 1")
            return None
        return _pystring(data)

    def writeString(self, s: str | bytes | bytearray | memoryview) -> int:
        """f:writeString(s): the characters of s written; returns their count."""
        self._check_write("writeString")
        if isinstance(s, str):
            s = s.encode("utf-8")
        elif isinstance(s, (bytes, bytearray, memoryview)):
            s = bytes(s)
        else:
            raise TypeError(f"{self._kind}.writeString: expected a string, got {type(s).__name__}")
        self._write_bytes(s)
        return len(s)

    # ------------------------------------------------------------ position
    def seek(self, position: int) -> Self:
        """f:seek(position): go to the 1-based byte position; returns f."""
        self._check_open("seek")
        if isinstance(position, bool) or not isinstance(position, numbers.Integral):
            raise TypeError(
                f"{self._kind}.seek: position must be an integer, got {type(position).__name__}"
            )
        if position < 1:
            raise ValueError(
                f"{self._kind}.seek: position has to be greater than 0! "
                f"(got {position}; positions are 1-based)"
            )
        self._seek(int(position) - 1)
        return self

    def seekEnd(self) -> Self:
        """f:seekEnd(): go to the end of the file; returns f."""
        self._check_open("seekEnd")
        self._seek_end()
        return self

    def position(self) -> int:
        """f:position(): the 1-based byte position."""
        self._check_open("position")
        return self._tell() + 1

    def synchronize(self) -> Self:
        """f:synchronize(): buffers flushed to the file; returns f."""
        self._check_open("synchronize")
        self._sync()
        return self

    def close(self) -> Self:
        """f:close(): the file closed."""
        self._check_open("close")
        self._end()
        return self

    def _end(self):
        self._close()
        # the reader and the writer hold this File and every object they met:
        # without the cycle the objects go as soon as the caller drops them
        self._reader = self._writer = None

    # ------------------------------------------------------------ objects
    def referenced(self, ref: bool) -> Self:
        """f:referenced(flag): whether writeObject writes an object met twice once (the
        default, true); returns f."""
        self._force = not ref
        for rw in (self._writer, self._reader):
            if rw is not None:
                rw._referenced = bool(ref)
        return self

    def isReferenced(self) -> bool:
        """f:isReferenced(): whether objects are referenced (see referenced)."""
        return not self._force

    def writeObject(self, obj: object) -> None:
        """f:writeObject(obj): obj written in Torch7's serialization format."""
        self._check_write("writeObject")
        if self._writer is None:
            self._writer = _FileWriter(self, self.isReferenced())
        self._writer.obj(obj)

    def readObject(self) -> Any:
        """f:readObject(): one object read in Torch7's serialization format."""
        self._check_read("readObject")
        if self._reader is None:
            self._reader = _FileReader(self, self.isReferenced())
        got = self._walked()
        return got[0] if got is not None else self._reader.obj()

    def _walked(self):
        """(the object read by the C walk, ) or None when this File has no
        file descriptor the walk can read (the reader reads it then)."""
        return None

    # ------------------------------------------------------------ Python
    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        if self._is_open():
            self._end()
        return False

    def _mode_chars(self):
        return ("r" if self._readable else " ") + ("w" if self._writable else " ")


def _make_rw(name):
    def read(self, arg=None):
        return self._read_typed(name, arg)

    def write(self, arg):
        return self._write_typed(name, arg)

    read.__name__ = read.__qualname__ = "read" + name
    write.__name__ = write.__qualname__ = "write" + name
    _declare(read, write, name)
    read.__doc__ = (
        f"read{name}() one value (None when quiet and nothing could be read); "
        f"read{name}(n) a {name}Storage of the values read (up to n); "
        f"read{name}(storage) fills a {name}Storage, returns the count read."
    )
    write.__doc__ = (
        f"write{name}(number) one value; write{name}(storage) the elements of a "
        f"{name}Storage, returns the count written."
    )
    return read, write


def _declare(read, write, name):
    """The annotations of read<name> and write<name> and their overloads'
    (overloads.py), for the stub: a number of the element type (None when
    quiet and nothing was read), a <name>Storage of n values read, or the
    count read into or written from a <name>Storage."""
    number = "float" if name in ("Float", "Double") else "int"
    storage = f"{name}Storage"

    def read_one(self): ...
    def read_n(self, n, /): ...
    def read_into(self, storage, /): ...
    def write_one(self, value, /): ...
    def write_from(self, storage, /): ...

    for fn, of, annotations in (
        (read_one, read, {"return": f"{number} | None"}),
        (read_n, read, {"n": "int", "return": storage}),
        (read_into, read, {"storage": storage, "return": "int"}),
        (write_one, write, {"value": "float", "return": "None"}),
        (write_from, write, {"storage": storage, "return": "int"}),
    ):
        fn.__annotations__ = annotations
        fn.__name__, fn.__qualname__ = of.__name__, of.__qualname__
        overload(fn)
    read.__annotations__ = {
        "arg": f"int | {storage} | None",
        "return": f"{number} | {storage} | int | None",
    }
    write.__annotations__ = {"arg": f"float | {storage}", "return": "int | None"}


for _name in _FILE_TYPES:
    _r, _w = _make_rw(_name)
    setattr(File, _r.__name__, _r)
    setattr(File, _w.__name__, _w)
del _name, _r, _w


# ---------------------------------------------------------------- scanning


class _Scanner:
    """Tokens as C's scanf reads them from a byte window that can grow."""

    def __init__(self, buf, more=None, memory=False, pos=0, end=None):
        self.buf = buf  # bytes or a memoryview (indexing gives ints)
        self.pos = pos
        self.end = len(buf) if end is None else end  # MemoryFile: its contents' size
        self.more = more  # callable giving more bytes (b"" at EOF), or None
        self.memory = memory

    def _extend(self):
        if self.more is None:
            return False
        extra = self.more()
        if not extra:
            self.more = None
            return False
        self.buf = bytes(self.buf[self.pos :]) + extra
        self.base_shift(self.pos)
        self.pos = 0
        return True

    def base_shift(self, k):
        pass

    def next_token(self, pattern):
        if self.memory:
            return self._memory_token(pattern)
        # fscanf: skip isspace, then the longest number
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf) or not self._extend():
                break
        while True:
            m = pattern.match(self.buf, self.pos)
            if m is not None and m.end() == len(self.buf) and self._extend():
                continue
            if m is None and len(self.buf) - self.pos < 64 and self._extend():
                continue
            break
        if m is None:
            return None
        self.pos = m.end()
        return m.group()

    def _memory_token(self, pattern):
        # THMemoryFile: the token ends at the first ' ', '\n', ':' or ';' after
        # the first other character (strnextspace), sscanf sees no further
        buf, pos = self.buf, self.pos
        end = self.end
        k = pos
        while k < end and buf[k] in b" \n:;":
            k += 1
        while k < end and buf[k] not in b" \n:;\0":
            k += 1
        limit = k
        p = pos
        while p < limit and buf[p] in _SPACE:
            p += 1
        m = pattern.match(buf, p, limit)
        if m is None:
            return None
        self.pos = m.end()
        return m.group()


# ---------------------------------------------------------------- objects over a File


_NINT = struct.Struct("=i")  # a File moves values in native layout
_NLONG = struct.Struct("=q")
_NDOUBLE = struct.Struct("=d")


def _elem_name(cls):
    return cls._typename[len("torch.") : -len("Storage")]  # 'torch.IntStorage' -> 'Int'


class _FileWriter(_Writer):
    """The writer over a torch7 File (Lua's File:writeObject): every item
    goes through the file's typed writes, so ascii mode writes what Lua's
    does.  The file keeps one writer: indices carry on between calls."""

    def __init__(self, file, referenced):
        super().__init__(None, referenced)
        self._file = file

    def _flush(self):
        pass

    def int(self, v):
        self._file._write_elems("Int", _NINT.pack(v), 1)

    def long(self, v):
        self._file._write_elems("Long", _NLONG.pack(v), 1)

    def double(self, v):
        self._file._write_elems("Double", _NDOUBLE.pack(v), 1)

    def longs(self, vs):
        self._file._write_elems("Long", struct.pack(f"={len(vs)}q", *vs), len(vs))

    def string(self, b):
        if len(b) > 0x7FFFFFFF:
            raise ValueError(f"a string of {len(b)} bytes does not fit Torch7's int32 length")
        self.int(len(b))
        self._file._write_elems("Char", b, len(b))

    def raw(self, b):
        self._file._write_elems("Byte", b, len(b))

    def elements(self, o):
        n = o.size()
        self._file._write_elems(
            _elem_name(type(o)), _cstorage.buffer(o._s.data, int(o._s.nbytes)), n
        )


class _FileReader(_Reader):
    """The reader over a torch7 File (Lua's File:readObject).  A short read
    raises ValueError (quiet or not: what follows would be garbage) and sets
    the file's error flag."""

    def __init__(self, file, referenced):
        super().__init__(b"", referenced)
        self._file = file

    def tell(self):
        return self._file._tell()

    def leave(self):
        pass

    def _values(self, name, n, what, storage=False):
        f = self._file
        at = self.tell()
        if n > f._remaining():
            f._error = True
            raise ValueError(
                f"truncated Torch7 data: {what} needs {n} values at byte {at}, "
                f"only {f._remaining()} bytes left"
            )
        quiet, f._quiet = f._quiet, True
        try:
            data, got = f._read_storage(name, n) if storage else f._read_elems(name, n)
        finally:
            f._quiet = quiet
        if got != n:
            f._error = True
            raise ValueError(
                f"truncated or bad Torch7 data: {what} at byte {at}: read {got} "
                f"of {n} values ({'binary' if f._binary else 'ascii'} mode)"
            )
        return data

    def int(self, what):
        return _NINT.unpack(self._values("Int", 1, what))[0]

    def long(self, what):
        return _NLONG.unpack(self._values("Long", 1, what))[0]

    def longs(self, n, what):
        return struct.unpack(f"={n}q", self._values("Long", n, what)) if n else ()

    def double(self, what):
        return _NDOUBLE.unpack(self._values("Double", 1, what))[0]

    def bytes(self, what):
        at = self.tell()
        n = self.int(f"the length of {what}")
        if n < 0:
            raise ValueError(f"bad Torch7 data: {what} at byte {at} has negative length {n}")
        return self._values("Char", n, what) if n else b""

    def raw(self, n, what):
        return self._values("Byte", n, what)

    def elements(self, cls, n, what=None):
        what = what or _elements_what(cls, n)
        item = _dtype(cls._dt).itemsize
        if self._file._binary and n * item > self._file._remaining():
            self._file._error = True
            raise ValueError(
                f"truncated Torch7 data: {what} needs {n * item} bytes at byte "
                f"{self.tell()}, only {self._file._remaining()} left"
            )
        return self._values(_elem_name(cls), n, what, storage=True) if n else _from_bytes(cls, b"")


class _ObjectFile(File):
    """The binary File a class's own read or write method is given while
    torch.load reads bytes or a stream (t7format's reader) or torch.save
    writes one: its typed reads and writes and readObject/writeObject go on
    in the same data, sharing the objects' indices."""

    _kind = "File"

    def __init__(self, rw, reading):
        self._init_flags("r" if reading else "w", False)
        self._binary = True
        self._rw = rw
        if reading:
            self._reader = rw
            self._longsize = getattr(rw, "_longsize", 0)
        else:
            self._writer = rw

    def _is_open(self):
        return True

    def _read_bytes(self, nbytes, size):
        r = self._rw
        n = min(nbytes, max(0, r._end - r.tell()))
        n -= n % size
        pos = r._take(n, "a read of a class's read method")
        return bytes(r._buf[pos : pos + n])

    def _write_bytes(self, data):
        self._rw.raw(bytes(data))

    def _tell(self):
        return self._rw.tell() if self._readable else 0

    def _remaining(self):
        r = self._rw
        return max(0, r._end - r.tell()) if self._readable else 0

    def _seek(self, pos):
        raise OSError("File: cannot seek in the data of torch.load/torch.save")

    _seek_end = _seek

    def _sync(self):
        pass

    def _close(self):
        raise OSError("File: the data of torch.load/torch.save is closed by them")


# ---------------------------------------------------------------- DiskFile


class DiskFile(File):
    """A file on disk, as Lua's ``torch.DiskFile``.

    Parameters
    ----------
    path : str
    mode : str, optional
        'r' (the default), 'w' (truncates) or 'rw' (creates the file when
        missing).
    quiet : bool, optional
        True: a file that cannot be opened gives None (Lua's nil) instead of
        raising.

    Raises
    ------
    OSError
        When the file cannot be opened (unless quiet).
    ValueError
        For an unknown mode.

    Notes
    -----
    torch.DiskFile(path, mode='r', quiet=False): a file on disk.  mode is
    'r', 'w' (truncates) or 'rw' (creates the file when missing); when the
    file cannot be opened it raises, or returns None when quiet (as Lua
    returns nil).  Ascii mode by default, as Lua.  The reading and writing methods are those of File (below).

    Examples
    --------
    >>> import os, tempfile
    >>> import strided as torch
    >>> path = os.path.join(tempfile.mkdtemp(), 'x.txt')
    >>> f = torch.DiskFile(path, 'w')
    >>> f.writeInt(42)
    >>> _ = f.close()
    >>> torch.DiskFile(path).readInt()
    42
    """

    _kind = "DiskFile"
    _typename = "torch.DiskFile"

    def __new__(cls, path, mode="r", quiet=False):
        self = super().__new__(cls)
        self._handle = None
        if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
            raise TypeError(f"DiskFile: path must be a string, got {type(path).__name__}")
        self._name = path
        self._init_flags(mode, quiet)
        try:
            if mode == "rw":
                try:
                    handle = open(path, "r+b")
                except FileNotFoundError:
                    open(path, "wb").close()
                    handle = open(path, "r+b")
            else:
                handle = open(path, "rb" if mode == "r" else "wb")
        except OSError as e:
            if quiet:
                return None
            raise type(e)(
                e.errno,
                f"DiskFile: cannot open <{path}> in mode {self._mode_chars()}: {e.strerror}",
            ) from None
        self._handle = handle
        self._nobuffer = False
        return self

    # (quiet: a file that cannot be opened is None, from __new__, which
    # the stub's __init__ cannot say)
    def __init__(
        self, path: str | bytes | PathLike[Any], mode: str = "r", quiet: bool = False
    ) -> None:
        pass

    def __del__(self):
        h = getattr(self, "_handle", None)
        if h is not None:
            try:
                h.close()
            except Exception:
                pass

    def __repr__(self):
        status = "open" if self._is_open() else "closed"
        return f"torch.DiskFile on <{self._name}> [status: {status} -- mode {self._mode_chars()}]"

    __str__ = __repr__

    def name(self) -> str | bytes | PathLike[Any]:
        return self._name

    # -- endianness (binary mode)
    @staticmethod
    def isLittleEndianCPU() -> bool:
        return _LITTLE

    @staticmethod
    def isBigEndianCPU() -> bool:
        return not _LITTLE

    def nativeEndianEncoding(self) -> Self:
        self._check_open("nativeEndianEncoding")
        self._native = True
        return self

    def littleEndianEncoding(self) -> Self:
        self._check_open("littleEndianEncoding")
        self._native = _LITTLE
        return self

    def bigEndianEncoding(self) -> Self:
        self._check_open("bigEndianEncoding")
        self._native = not _LITTLE
        return self

    def longSize(self, size: int) -> Self:
        self._check_open("longSize")
        return super().longSize(size)

    def noBuffer(self) -> Self:
        self._check_open("noBuffer")
        self._handle.flush()
        self._nobuffer = True
        return self

    # -- the stream
    def _is_open(self):
        return self._handle is not None

    def _read_bytes(self, nbytes, size):
        try:
            if nbytes <= _BIG_READ:
                return self._handle.read(nbytes)
            # a count read from the file (or given) may claim far more than
            # the file holds, and read(n) allocates n bytes first: a regular
            # file is read up to its end at most, anything else by pieces
            h = self._handle
            st = os.fstat(h.fileno())
            if stat.S_ISREG(st.st_mode):
                if self._writable:
                    h.flush()
                return h.read(min(nbytes, max(0, st.st_size - h.tell())))
            data = bytearray()
            while len(data) < nbytes:
                part = self._handle.read(min(nbytes - len(data), _BIG_READ))
                if not part:
                    break
                data += part
            return bytes(data)
        except OSError as e:
            self._fail(f"read error: {e}")
            return b""

    def _walked(self):
        """A binary, native-order object read by the C walk (core.t7scan)
        from the file's descriptor, the file left after it."""
        if not (self._binary and self._native):
            return None
        h = self._handle
        if self._writable:
            h.flush()
        at = h.tell()
        got = self._reader.walked(
            h.fileno(), at, max(at, os.fstat(h.fileno()).st_size), 4 if self._longsize == 4 else 8
        )
        if got is None:
            return None
        h.seek(got[1])
        return got[:1]

    def _read_storage(self, name, n):
        """Binary elements as they lie in the file go straight from it into
        the new storage's memory (no other copy)."""
        size = _TYPES[name][2]
        if not (self._binary and self._native and n * size > _CHUNK) or (
            name == "Long" and self._longsize == 4
        ):
            return super()._read_storage(name, n)
        want, n = n, min(n, self._remaining() // size)
        ptr = new_storage(n * size)
        view = memoryview(_cstorage.buffer(ptr.data, n * size))
        got = 0
        try:
            while got < len(view):
                k = self._handle.readinto(view[got:])
                if not k:
                    break
                got += k
        except OSError as e:
            self._fail(f"read error: {e}")
        got //= size
        if got != want:
            self._fail(f"read error: read {got} blocks instead of {want}")
        if got != n:
            return _from_bytes(_TYPES[name][0], bytes(view[: got * size])), got
        return _fresh(_TYPES[name][0], ptr), got

    def _write_bytes(self, data):
        try:
            self._handle.write(data)
            if self._nobuffer:
                self._handle.flush()
        except OSError as e:
            self._fail(f"write error: {e}")

    def _skip_newline(self):
        h = self._handle
        at = h.tell()
        c = h.read(1)
        if c and c != b"\n":
            h.seek(at)

    def _scan_view(self):
        h = self._handle
        start = h.tell()

        class View(_Scanner):
            consumed = 0

            def base_shift(self, k):
                self.consumed += k

            def done(self):
                h.seek(start + self.consumed + self.pos)

        return View(h.read(4096), lambda: h.read(_CHUNK))

    def _read_string(self, fmt):
        h = self._handle
        data = h.read() if fmt == "a" else h.readline()
        if not data:
            return None  # end of file: Lua's read error
        return data[:-1] if fmt == "l" and data.endswith(b"\n") else data

    def _seek(self, pos):
        try:
            self._handle.seek(pos)
        except (OSError, OverflowError, ValueError):
            self._fail(f"unable to seek to position {pos}")

    def _seek_end(self):
        try:
            self._handle.seek(0, 2)
        except OSError:
            self._fail("unable to seek at end of file")

    def _tell(self):
        return self._handle.tell()

    def _remaining(self):
        h = self._handle
        if self._writable:
            h.flush()
        return max(0, os.fstat(h.fileno()).st_size - h.tell())

    def _sync(self):
        self._handle.flush()

    def _close(self):
        h, self._handle = self._handle, None
        h.close()


# ---------------------------------------------------------------- PipeFile


class _PipeReader:
    """The read end of a command's stdout, with the little look-back the
    ascii scanner needs (it reads ahead, then seeks back to just after the
    token it took, as C's stdio ungetc lets THDiskFile's fscanf do).  Bytes
    are kept from the last tell() on, so the buffer stays small."""

    def __init__(self, raw):
        self._raw = raw
        self._buf = bytearray()
        self._base = 0  # stream position of _buf[0]
        self._pos = 0  # stream position of the next byte to read

    def _fill(self, upto):
        while self._base + len(self._buf) < upto:
            chunk = (
                self._raw.read1(_CHUNK) if hasattr(self._raw, "read1") else self._raw.read(_CHUNK)
            )
            if not chunk:
                return
            self._buf += chunk

    def read(self, n=-1):
        if n is None or n < 0:
            while True:
                end = self._base + len(self._buf)
                self._fill(end + _CHUNK)
                if self._base + len(self._buf) == end:
                    break
            n = self._base + len(self._buf) - self._pos
        self._fill(self._pos + n)
        at = self._pos - self._base
        data = bytes(self._buf[at : at + n])
        self._pos += len(data)
        return data

    def readline(self):
        line = bytearray()
        while not line.endswith(b"\n"):
            c = self.read(1)
            if not c:
                break
            line += c
        return bytes(line)

    def tell(self):
        del self._buf[: self._pos - self._base]
        self._base = self._pos
        return self._pos

    def seek(self, pos, whence=0):
        if whence != 0 or not self._base <= pos <= self._base + len(self._buf):
            raise OSError("a pipe cannot seek")
        self._pos = pos

    def close(self):
        self._raw.close()


class PipeFile(DiskFile):
    """A file on a shell command's output or input, as Lua's ``torch.PipeFile``.

    Parameters
    ----------
    command : str
        The shell command.
    mode : str, optional
        'r' (the default): read its output; 'w': write its input.
    quiet : bool, optional
        True: None instead of raising when the command cannot be started.

    Raises
    ------
    ValueError
        For mode 'rw' (refused, as Lua's).
    OSError
        When the command cannot be started (unless quiet).

    Notes
    -----
    torch.PipeFile(command, mode='r', quiet=False): a DiskFile on a
    shell command's output ('r') or input ('w'), as Lua's popen.  'rw' is
    refused; a pipe cannot seek nor tell its position (Lua's errors).

    Examples
    --------
    >>> import strided as torch
    >>> f = torch.PipeFile('echo 7')
    >>> f.readInt()
    7
    >>> _ = f.close()
    """

    _kind = "PipeFile"
    _typename = "torch.PipeFile"

    def __new__(cls, command, mode="r", quiet=False):
        self = File.__new__(cls)
        self._handle = None
        if not isinstance(command, str):
            raise TypeError(f"PipeFile: command must be a string, got {type(command).__name__}")
        if mode not in ("r", "w"):
            raise ValueError(f"PipeFile: argument 2 (mode) should be 'r' or 'w', got {mode!r}")
        self._name = command
        self._init_flags(mode, quiet)
        reading = mode == "r"
        try:
            self._process = subprocess.Popen(
                command,
                shell=True,
                stdout=subprocess.PIPE if reading else None,
                stdin=None if reading else subprocess.PIPE,
            )
        except OSError as e:
            if quiet:
                return None
            raise type(e)(e.errno, f"PipeFile: cannot open <{command}>: {e.strerror}") from None
        self._handle = _PipeReader(self._process.stdout) if reading else self._process.stdin
        self._nobuffer = False
        self._written = 0
        return self

    def __init__(self, command: str, mode: str = "r", quiet: bool = False) -> None:
        pass  # __new__ opens the pipe; this says what PipeFile(...) takes

    def __repr__(self):
        status = "open" if self._is_open() else "closed"
        return f"torch.PipeFile on <{self._name}> [status: {status} -- mode: {self._mode_chars()}]"

    __str__ = __repr__

    def _seek(self, pos):
        self._fail(f"unable to seek to position {pos}")

    def _seek_end(self):
        self._fail("unable to seek at end of file")

    def position(self) -> int:
        self._check_open("position")
        self._fail("unable to obtain the position of a pipe")
        return 0

    def _tell(self):
        # the count of bytes moved so far, for the serializer's messages
        return self._handle.tell() if self._readable else self._written

    def _write_bytes(self, data):
        super()._write_bytes(data)
        self._written += len(data)

    def _remaining(self):
        return sys.maxsize

    def _sync(self):
        if self._writable:
            self._handle.flush()

    def _close(self):
        h, self._handle = self._handle, None
        try:
            h.close()
        except BrokenPipeError:
            pass
        self._process.wait()  # pclose: the command has finished

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            try:
                self._close()
            except Exception:
                pass


# ---------------------------------------------------------------- MemoryFile


class MemoryFile(File):
    """A file in a CharStorage, as Lua's ``torch.MemoryFile``.

    Parameters
    ----------
    storage : CharStorage, optional
        The memory to read and write (it must end with a 0 byte); left out: a
        new, growing one.
    mode : str, optional
        'rw' (the default), 'r' or 'w'.

    Raises
    ------
    TypeError
        When storage is not a CharStorage.
    ValueError
        For an unknown mode, or a storage without its final 0 byte.

    Notes
    -----
    torch.MemoryFile([storage,] mode='rw'): a file in a CharStorage.  Given
    a CharStorage (which must end with a 0 byte, as Lua's
    torch.CharStorage():string(s) ... does not: see storage()), the file
    reads and writes that storage's memory; its contents are the bytes
    before the final 0.  Ascii mode by default, as Lua.

    Examples
    --------
    >>> import strided as torch
    >>> f = torch.MemoryFile()
    >>> f.writeObject([1, 2])
    >>> _ = f.seek(1)
    >>> f.readObject()
    [1, 2]
    """

    _kind = "MemoryFile"
    _typename = "torch.MemoryFile"

    @overload
    def __init__(self, mode: str = ..., /) -> None: ...
    @overload
    def __init__(self, storage: CharStorage | None = ..., mode: str = ...) -> None: ...

    def __init__(self, storage: CharStorage | str | None = None, mode: str = "rw") -> None:
        if isinstance(storage, str) and mode == "rw" and not isinstance(storage, Storage):
            storage, mode = None, storage
        if storage is None:
            self._init_flags(mode, False)
            self._st = CharStorage(1)  # a single 0 byte
            self._size = 0
        else:
            if not isinstance(storage, CharStorage):
                raise TypeError(
                    f"MemoryFile: expected a CharStorage (or a mode), got "
                    f"{getattr(storage, '_typename', type(storage).__name__)}"
                )
            n = storage.size()
            if n == 0 or _cstorage.buffer(storage._s.data, n)[n - 1] != b"\0":
                raise ValueError("MemoryFile: provided CharStorage must be terminated by 0")
            self._init_flags(mode, False)
            self._st = storage
            self._size = n - 1
        self._pos = 0

    def __repr__(self):
        status = "open" if self._is_open() else "closed"
        return f"torch.MemoryFile [status: {status} -- mode: {self._mode_chars()}]"

    __str__ = __repr__

    def longSize(self, size: int) -> Self:
        return super().longSize(size)

    def storage(self) -> CharStorage:
        """The CharStorage holding the contents, followed by one 0 byte
        (Lua's MemoryFile:storage(): the file's own storage, resized)."""
        self._check_open("storage")
        self._st.resize(self._size + 1)
        return self._st

    # -- the memory
    def _is_open(self):
        return self._st is not None

    def _mem(self):
        return _cstorage.buffer(self._st._s.data, self._st.size())

    def _read_bytes(self, nbytes, size):
        got = min(nbytes, self._size - self._pos)
        got -= got % size
        data = self._mem()[self._pos : self._pos + got]
        self._pos += got
        return data

    def _grow(self, size):
        cap = self._st.size()
        if size < cap:
            return
        missing = size - cap + 1
        self._st.resize(cap + cap // 2 if cap // 2 > missing else cap + missing)

    def _write_bytes(self, data):
        n = len(data)
        if not n:
            return
        self._grow(self._pos + n)
        _cstorage.write_bytes(self._st._s, data, self._pos)
        self._pos += n
        if self._pos > self._size:
            self._size = self._pos
            _cstorage.write_bytes(self._st._s, b"\0", self._size)

    def _skip_newline(self):
        if self._pos < self._size and self._mem()[self._pos] == b"\n":
            self._pos += 1

    def _scan_view(self):
        mf = self

        class View(_Scanner):
            def done(self):
                mf._pos = self.pos

        return View(memoryview(self._mem()), memory=True, pos=self._pos, end=self._size)

    def _read_string(self, fmt):
        if self._pos == self._size:
            return None
        rest = self._mem()[self._pos : self._size]
        if fmt == "l":
            eol = rest.find(b"\n")
            if eol >= 0:
                self._pos += eol + 1
                return rest[:eol]
        self._pos = self._size
        return rest

    def _seek(self, pos):
        if pos <= self._size:
            self._pos = pos
        else:
            self._fail(
                f"unable to seek at position {pos + 1} (the contents are {self._size} bytes)"
            )

    def _seek_end(self):
        self._pos = self._size

    def _tell(self):
        return self._pos

    def _remaining(self):
        return self._size - self._pos

    def _sync(self):
        pass

    def _close(self):
        self._st = None


BUILTIN_CLASSES.extend((File, DiskFile, MemoryFile))  # torch.getmetatable('torch.File') ...

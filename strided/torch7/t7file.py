"""Torch7's own serialization format: `save`/`load` of `.t7` files and
`serialize`/`deserialize` to bytes (torch7's File.lua `writeObject` /
`readObject`, binary mode).

The layout, as Lua Torch writes it on a little-endian 64-bit machine
(ints are int32, longs int64, numbers float64, all little-endian):

    object  := int tag, then by tag
        0 nil       (nothing)
        1 number    double
        2 string    int length, bytes
        3 table     int index [int count, count x (object key, object value)]
        4 torch     int index [string version "V 1", string class name, body]
        5 boolean   int (1 true)
        6, 7, 8     Lua functions (not loadable here)
    tensor body  := int nDimension, long sizes[n], long strides[n],
                    long storageOffset (1-based), object storage (or nil)
    storage body := long size (elements), raw elements
    generator body := the 5048 bytes of Torch7's THGenerator struct, raw
                    (Generator.c's write: getRNGState's bytes; a byte
                    array, so in ascii mode raw too, then a newline)

A table or torch object that was written before is written again as its
tag and index only; the reader returns the object it read for that index,
so shared references stay shared.

Element data goes between files and C storages as raw bytes: one memmove
into a newly allocated storage on load, the storage's own memory on save.
"""
from __future__ import annotations

import io
import math
import numbers
import os
import struct
import sys
from typing import TYPE_CHECKING

from ..core.base import ffi, lib
from ..core.base import Core, dtype as _dtype
from ..core.rng import Generator
from .storage import STORAGE_TYPES, Storage, _addr, _from_bytes
from .tensor import TENSOR_TYPES, Tensor

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
if TYPE_CHECKING:
    from os import PathLike
    from typing import IO, Any

    from .storage import CharStorage

__all__ = ["save", "load", "serialize", "deserialize", "serializeToStorage",
           "deserializeFromStorage"]

TYPE_NIL = 0
TYPE_NUMBER = 1
TYPE_STRING = 2
TYPE_TABLE = 3
TYPE_TORCH = 4
TYPE_BOOLEAN = 5
TYPE_FUNCTION = 6
LEGACY_TYPE_RECUR_FUNCTION = 7
TYPE_RECUR_FUNCTION = 8

_TAG_NAMES = {TYPE_NIL: "nil", TYPE_NUMBER: "number", TYPE_STRING: "string",
              TYPE_TABLE: "table", TYPE_TORCH: "torch object", TYPE_BOOLEAN: "boolean"}

_INT = struct.Struct("<i")
_LONG = struct.Struct("<q")
_DOUBLE = struct.Struct("<d")
_VERSION = b"V 1"
_STATE_SIZE = lib.st_generator_state_size()      # sizeof(THGenerator): 5048
_GENERATOR = "torch.Generator"
_FLUSH = 1 << 16          # bytes of small items buffered before a write


def _check_mode(mode, referenced, reading=False):
    if sys.byteorder != "little":      # element data is written as it lies in memory
        raise NotImplementedError("strided's Torch7 serialization needs a little-endian "
                                  "machine")
    modes = ("binary", "ascii", "b32", "b64") if reading else ("binary", "ascii")
    if mode not in modes:
        raise ValueError(f"mode must be {', '.join(repr(m) for m in modes[:-1])} or "
                         f"{modes[-1]!r}, got {mode!r}")
    if not isinstance(referenced, bool):
        raise TypeError(f"referenced must be True or False, got {referenced!r}")


def _where(path):
    """'obj', 'obj[2]', 'obj["a"]' from a (parent, key) chain."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    out = "obj"
    for k in reversed(keys):
        out += f"[{k!r}]"
    return out


# ---------------------------------------------------------------- writing


class _Writer:
    def __init__(self, write, referenced):
        self._write = write          # the file's write
        self._buf = bytearray()
        self._referenced = referenced
        self._count = 0              # objects (tables, torch objects) written
        self._index = {}             # identity -> index
        self._keep = []              # objects whose identity is in _index

    def _flush(self):
        if self._buf:
            self._write(bytes(self._buf))
            self._buf.clear()

    def close(self):
        self._flush()

    def int(self, v):
        self._buf += _INT.pack(v)

    def long(self, v):
        self._buf += _LONG.pack(v)

    def double(self, v):
        self._buf += _DOUBLE.pack(v)

    def longs(self, vs):
        if vs:
            self._buf += struct.pack(f"<{len(vs)}q", *vs)

    def elements(self, o):
        """The raw elements of storage `o` (the storage's own memory)."""
        s = o._s
        nbytes = int(s.nbytes)
        if nbytes:
            self._flush()
            self._write(ffi.buffer(s.data, nbytes))

    def string(self, b):
        if len(b) > 0x7FFFFFFF:
            raise ValueError(f"a string of {len(b)} bytes does not fit Torch7's int32 length")
        self.int(len(b))
        self.raw(b)

    def raw(self, b):
        """Bytes as they are (File's writeByteRaw)."""
        self._buf += b
        if len(self._buf) >= _FLUSH:
            self._flush()

    def _reference(self, tag, key, obj):
        """Write tag and index; True when the object was written before
        (only its index is written then)."""
        self.int(tag)
        if self._referenced:
            index = self._index.get(key)
            if index is not None:
                self.int(index)
                return True
        self._count += 1
        if self._referenced:
            self._index[key] = self._count
            self._keep.append(obj)
        self.int(self._count)
        return False

    def obj(self, o, path=None):
        if o is None:
            self.int(TYPE_NIL)
        elif isinstance(o, bool):
            self.int(TYPE_BOOLEAN)
            self.int(1 if o else 0)
        elif isinstance(o, (Tensor, Storage, Generator)):
            self.torch(o, path)
        elif isinstance(o, numbers.Integral):
            self.int(TYPE_NUMBER)
            self.double(_exact_double(o, path))
        elif isinstance(o, numbers.Real):
            self.int(TYPE_NUMBER)
            self.double(float(o))
        elif isinstance(o, str):
            self.int(TYPE_STRING)
            self.string(o.encode("utf-8"))
        elif isinstance(o, (bytes, bytearray)):
            self.int(TYPE_STRING)
            self.string(bytes(o))
        elif isinstance(o, (list, tuple)):
            if not self._reference(TYPE_TABLE, ("table", id(o)), o):
                self.int(len(o))
                for i, v in enumerate(o, 1):
                    self.int(TYPE_NUMBER)
                    self.double(i)
                    self.obj(v, (path, i - 1))
        elif isinstance(o, dict):
            if not self._reference(TYPE_TABLE, ("table", id(o)), o):
                self.int(len(o))
                for k, v in o.items():
                    if k is None or (isinstance(k, float) and math.isnan(k)):
                        raise ValueError(f"cannot save {_where(path)}: a Lua table key cannot "
                                         f"be {k!r}")
                    self.obj(k, (path, k))
                    self.obj(v, (path, k))
        else:
            raise TypeError(f"cannot save {_where(path)}: {type(o).__name__} is not a Torch7 "
                            f"object (expected None, bool, a number, str, bytes, list, tuple, "
                            f"dict, a tensor, a storage or a torch.Generator)")

    def torch(self, o, path):
        if isinstance(o, Tensor):
            key = ("tensor", _addr(o._c.t))
        elif isinstance(o, Generator):
            key = ("generator", id(o))
        else:
            key = ("storage", _addr(o._s), type(o))
        if self._reference(TYPE_TORCH, key, o):
            return
        self.string(_VERSION)
        if isinstance(o, Generator):
            self.string(_GENERATOR.encode("ascii"))
            self.raw(o.get_state())
            return
        self.string(o._typename.encode("ascii"))
        if isinstance(o, Tensor):
            c = o._c
            n = c.ndim
            self.int(n)
            self.longs(tuple(c.shape))
            self.longs(tuple(c.strides))
            self.long(c.offset + 1)
            self.obj(o.storage(), path)
        else:
            self.long(o.size())
            self.elements(o)


def _exact_double(v, path):
    v = int(v)
    try:
        d = float(v)
    except OverflowError:
        d = None
    if d is None or int(d) != v:
        raise ValueError(f"cannot save {_where(path)}: the integer {v} is not exactly "
                         f"representable as a Lua number (a double)")
    return d


# ---------------------------------------------------------------- reading


class _Reader:
    def __init__(self, data, referenced):
        self._buf = memoryview(data).cast("B")
        self._pos = 0
        self._referenced = referenced
        self._objects = {}           # index -> object read

    def _take(self, n, what):
        pos = self._pos
        if n < 0 or pos + n > len(self._buf):
            raise ValueError(f"truncated Torch7 data: {what} needs {n} bytes at byte {pos}, "
                             f"only {len(self._buf) - pos} left")
        self._pos = pos + n
        return pos

    def int(self, what):
        return _INT.unpack_from(self._buf, self._take(4, what))[0]

    def long(self, what):
        return _LONG.unpack_from(self._buf, self._take(8, what))[0]

    def longs(self, n, what):
        return struct.unpack_from(f"<{n}q", self._buf, self._take(8 * n, what)) if n else ()

    def double(self, what):
        return _DOUBLE.unpack_from(self._buf, self._take(8, what))[0]

    def elements(self, cls, n, what):
        """A new storage of class `cls` holding the next n elements: one memmove."""
        nbytes = n * _dtype(cls._dt).itemsize
        pos = self._take(nbytes, what)
        return _from_bytes(cls, self._buf[pos:pos + nbytes])

    def bytes(self, what):
        n = self.int(f"the length of {what}")
        if n < 0:
            raise ValueError(f"bad Torch7 data: {what} at byte {self._pos - 4} has negative "
                             f"length {n}")
        pos = self._take(n, what)
        return bytes(self._buf[pos:pos + n])

    def obj(self):
        at = self._pos
        tag = self.int("a type tag")
        if tag == TYPE_NIL:
            return None
        if tag == TYPE_NUMBER:
            return _number(self.double("a number"))
        if tag == TYPE_BOOLEAN:
            return self.int("a boolean") == 1
        if tag == TYPE_STRING:
            b = self.bytes("a string")
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError:
                return b
        if tag in (TYPE_FUNCTION, LEGACY_TYPE_RECUR_FUNCTION, TYPE_RECUR_FUNCTION):
            raise ValueError(f"bad Torch7 data: a Lua function (type tag {tag}) at byte {at}; "
                             f"functions cannot be loaded in Python")
        if tag not in (TYPE_TABLE, TYPE_TORCH):
            raise ValueError(f"bad Torch7 data: unknown type tag {tag} at byte {at} (expected "
                             f"0 nil, 1 number, 2 string, 3 table, 4 torch object, 5 boolean)")
        index = self.int(f"the index of a {_TAG_NAMES[tag]}")
        if self._referenced and index in self._objects:
            return self._objects[index]
        return self.table(index, at) if tag == TYPE_TABLE else self.torch(index, at)

    def _remember(self, index, o):
        if self._referenced:
            self._objects[index] = o

    def table(self, index, at):
        n = self.int("the size of a table")
        if n < 0:
            raise ValueError(f"bad Torch7 data: table at byte {at} has negative size {n}")
        d = {}
        self._remember(index, d)
        for _ in range(n):
            kat = self._pos
            k = self.obj()
            v = self.obj()
            if k is None:
                raise ValueError(f"bad Torch7 data: table at byte {at} has a nil key")
            try:
                dup = k in d
            except TypeError:
                raise ValueError(f"table at byte {at}: its key at byte {kat} is a table, which "
                                 f"cannot be a Python dict key") from None
            if dup:
                raise ValueError(f"table at byte {at}: key {k!r} (byte {kat}) appears twice "
                                 f"in Python's terms (Python equates True with 1)")
            d[k] = v
        if all(type(k) is int for k in d) and (not d or (min(d) == 1 and max(d) == len(d))):
            lst = [d[i] for i in range(1, len(d) + 1)]
            lst = [lst if v is d else v for v in lst]
            self._remember(index, lst)
            return lst
        return d

    def torch(self, index, at):
        version = self.bytes("a Torch class version")
        if version.startswith(b"V "):
            name = self.bytes("a Torch class name")
        else:
            name = version            # written before Torch7 had versions
        name = name.decode("latin-1")
        if name in TENSOR_TYPES:
            o = self.tensor(TENSOR_TYPES[name], at)
        elif name in STORAGE_TYPES:
            o = self.storage(STORAGE_TYPES[name], at)
        elif name == _GENERATOR:
            o = self.generator(at)
        else:
            raise ValueError(f"unknown Torch class {name!r} at byte {at}: only tensors "
                             f"({', '.join(sorted(TENSOR_TYPES))}), storages and "
                             f"{_GENERATOR} load")
        self._remember(index, o)
        return o

    def generator(self, at):
        """A new Generator in the state read (Generator.c's read)."""
        state = self.raw(_STATE_SIZE, f"the {_STATE_SIZE} state bytes of a {_GENERATOR}")
        g = Generator(0)
        try:
            g.set_state(state)
        except ValueError as e:
            raise ValueError(f"bad Torch7 data: {_GENERATOR} at byte {at}: {e}") from None
        return g

    def raw(self, n, what):
        pos = self._take(n, what)
        return bytes(self._buf[pos:pos + n])

    def storage(self, cls, at):
        n = self.long(f"the size of a {cls._typename}")
        if n < 0:
            raise ValueError(f"bad Torch7 data: {cls._typename} at byte {at} has negative "
                             f"size {n}")
        return self.elements(cls, n, f"the {n} elements of a {cls._typename}")

    def tensor(self, cls, at):
        name = cls._typename
        nd = self.int(f"the dimension of a {name}")
        if not 0 <= nd <= lib.ST_MAX_DIMS:
            raise ValueError(f"bad Torch7 data: {name} at byte {at} has {nd} dimensions "
                             f"(expected 0 to {lib.ST_MAX_DIMS})")
        sizes = self.longs(nd, f"the sizes of a {name}")
        strides = self.longs(nd, f"the strides of a {name}")
        offset = self.long(f"the storage offset of a {name}")
        storage = self.obj()
        if storage is not None and type(storage) is not cls._storage_cls:
            raise ValueError(f"bad Torch7 data: {name} at byte {at} has a "
                             f"{getattr(storage, '_typename', type(storage).__name__)} where "
                             f"its storage should be (a {cls._storage_cls._typename})")
        if nd == 0:
            return cls()            # Torch7's empty tensor (its storage, if any, is dropped)
        if any(s < 0 for s in sizes):
            raise ValueError(f"bad Torch7 data: {name} at byte {at} has negative sizes "
                             f"{list(sizes)}")
        if storage is None:
            if 0 not in sizes:
                raise ValueError(f"bad Torch7 data: {name} at byte {at} of sizes {list(sizes)} "
                                 f"has no storage")
            return cls(*sizes)
        if offset < 1:
            raise ValueError(f"bad Torch7 data: {name} at byte {at} has storage offset "
                             f"{offset} (1-based, expected >= 1)")
        try:
            c = Core.over(storage._s, cls._dt, offset - 1, tuple(sizes), tuple(strides))
        except (ValueError, IndexError, OverflowError) as e:
            raise ValueError(f"bad Torch7 data: {name} at byte {at} (sizes {list(sizes)}, "
                             f"strides {list(strides)}, storage offset {offset}) does not fit "
                             f"its storage of {storage.size()} elements: {e}") from None
        return cls._wrap(c)


# ---------------------------------------------------------------- over a File


_NINT = struct.Struct("=i")       # a File moves values in native layout
_NLONG = struct.Struct("=q")
_NDOUBLE = struct.Struct("=d")


def _elem_name(cls):
    return cls._typename[len("torch."):-len("Storage")]     # 'torch.IntStorage' -> 'Int'


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
        self._file._write_elems(_elem_name(type(o)),
                                ffi.buffer(o._s.data, int(o._s.nbytes)), n)


class _FileReader(_Reader):
    """The reader over a torch7 File (Lua's File:readObject).  A short read
    raises ValueError (quiet or not: what follows would be garbage) and sets
    the file's error flag."""

    def __init__(self, file, referenced):
        self._file = file
        self._referenced = referenced
        self._objects = {}

    @property
    def _pos(self):
        return self._file._tell()

    def _values(self, name, n, what):
        f = self._file
        at = self._pos
        if n > f._remaining():
            f._error = True
            raise ValueError(f"truncated Torch7 data: {what} needs {n} values at byte {at}, "
                             f"only {f._remaining()} bytes left")
        quiet, f._quiet = f._quiet, True
        try:
            data, got = f._read_elems(name, n)
        finally:
            f._quiet = quiet
        if got != n:
            f._error = True
            raise ValueError(f"truncated or bad Torch7 data: {what} at byte {at}: read {got} "
                             f"of {n} values ({'binary' if f._binary else 'ascii'} mode)")
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
        at = self._pos
        n = self.int(f"the length of {what}")
        if n < 0:
            raise ValueError(f"bad Torch7 data: {what} at byte {at} has negative length {n}")
        return self._values("Char", n, what) if n else b""

    def raw(self, n, what):
        return self._values("Byte", n, what)

    def elements(self, cls, n, what):
        item = _dtype(cls._dt).itemsize
        if self._file._binary and n * item > self._file._remaining():
            self._file._error = True
            raise ValueError(f"truncated Torch7 data: {what} needs {n * item} bytes at byte "
                             f"{self._pos}, only {self._file._remaining()} left")
        return _from_bytes(cls, self._values(_elem_name(cls), n, what)) if n else \
            _from_bytes(cls, b"")


def _number(x):
    """Lua numbers are doubles: an integral value loads as int (not -0.0)."""
    if x.is_integer() and not (x == 0 and math.copysign(1.0, x) < 0):
        return int(x)
    return x


# ---------------------------------------------------------------- the API


def _memory_file(data, mode):
    """A read-only MemoryFile over the bytes `data`, in `mode`."""
    from .files import MemoryFile
    from .storage import CharStorage
    f = MemoryFile(_from_bytes(CharStorage, bytes(data) + b"\0"), "r")
    return _set_mode(f, mode)


def _set_mode(f, mode):
    if mode == "ascii":
        f.ascii()
    else:
        f.binary()
        if mode in ("b32", "b64"):
            f.longSize(4 if mode == "b32" else 8)
    return f


def serialize(obj: object, mode: str = "binary", referenced: bool = True) -> bytes:
    """The bytes of an object in Torch7's format.

    Parameters
    ----------
    obj : object
        As for save.
    mode : str, optional
        'binary' (the default) or 'ascii'.
    referenced : bool, optional
        True (the default): an object met twice is written once.

    Returns
    -------
    bytes

    Raises
    ------
    TypeError
        For an object Torch7's format cannot hold.

    Notes
    -----
    Lua's ``torch.serialize`` (which returns a string).

    Examples
    --------
    >>> import strided as torch
    >>> torch.serialize(3.5, 'ascii')
    b'1\\n3.5\\n'
    """
    _check_mode(mode, referenced)
    if mode == "ascii":
        from .files import MemoryFile
        with MemoryFile("w").ascii() as f:
            f.referenced(referenced)
            f.writeObject(obj)
            s = f.storage()
            return ffi.buffer(s._s.data, s.size() - 1)[:]
    out = io.BytesIO()
    w = _Writer(out.write, referenced)
    w.obj(obj)
    w.close()
    return out.getvalue()


def deserialize(data: bytes | bytearray | memoryview, mode: str = "binary",
                referenced: bool = True) -> Any:
    """The object in bytes in Torch7's format.

    Parameters
    ----------
    data : bytes
        From serialize (or Lua's).
    mode : str, optional
        'binary' (the default) or 'ascii'.
    referenced : bool, optional
        True (the default).

    Returns
    -------
    object

    Raises
    ------
    ValueError
        For bytes that are not Torch7's format.

    Notes
    -----
    Lua's ``torch.deserialize``.

    Examples
    --------
    >>> import strided as torch
    >>> torch.deserialize(torch.serialize({'a': 1}))
    {'a': 1}
    """
    _check_mode(mode, referenced, reading=True)
    if isinstance(data, str):
        raise TypeError("deserialize takes bytes, not str")
    if mode != "binary":
        with _memory_file(data, mode) as f:
            f.referenced(referenced)
            return f.readObject()
    return _Reader(data, referenced).obj()


def serializeToStorage(obj: object, mode: str = "binary",
                       referenced: bool = True) -> CharStorage:
    """The bytes of an object in Torch7's format, in a CharStorage.

    Parameters
    ----------
    obj : object
        As for save.
    mode : str, optional
        'binary' (the default) or 'ascii'.
    referenced : bool, optional
        True (the default).

    Returns
    -------
    CharStorage

    Raises
    ------
    TypeError
        For an object Torch7's format cannot hold.

    Notes
    -----
    Lua's ``torch.serializeToStorage``.

    Examples
    --------
    >>> import strided as torch
    >>> s = torch.serializeToStorage(torch.Tensor([1]))
    >>> torch.deserializeFromStorage(s)
     1
    [torch.DoubleTensor of dimension 1]
    """
    from .storage import CharStorage
    return _from_bytes(CharStorage, serialize(obj, mode, referenced))


def deserializeFromStorage(storage: CharStorage, mode: str = "binary",
                           referenced: bool = True) -> Any:
    """The object in a CharStorage in Torch7's format.

    Parameters
    ----------
    storage : CharStorage
        From serializeToStorage.
    mode : str, optional
        'binary' (the default) or 'ascii'.
    referenced : bool, optional
        True (the default).

    Returns
    -------
    object

    Raises
    ------
    ValueError
        For data that is not Torch7's format.

    Notes
    -----
    Lua's ``torch.deserializeFromStorage``.

    Examples
    --------
    >>> import strided as torch
    >>> torch.deserializeFromStorage(torch.serializeToStorage('hi'))
    'hi'
    """
    from .storage import CharStorage
    if not isinstance(storage, CharStorage):
        raise TypeError(f"deserializeFromStorage: storage must be a torch.CharStorage, got "
                        f"{getattr(storage, '_typename', None) or type(storage).__name__}")
    n = storage.size()
    return deserialize(ffi.buffer(storage._s.data, n)[:] if n else b"", mode, referenced)


def save(path: str | bytes | PathLike[Any] | IO[bytes], obj: object, mode: str = "binary",
         referenced: bool = True) -> None:
    """Write an object to a file in Torch7's format.

    Parameters
    ----------
    path : str or binary file object
        The file name, or an open binary file.
    obj : object
        A tensor, a storage, a number, a string, a bool, None, a list or dict
        (a Lua table) of those, or a torch.class_ instance.
    mode : str, optional
        'binary' (the default) or 'ascii'.
    referenced : bool, optional
        True (the default): an object met twice is written once and
        referenced, as Lua does.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        For an object Torch7's format cannot hold.
    ValueError
        For an unknown mode.

    Notes
    -----
    Write `obj` to the file `path` (or a binary file object) in Torch7's
    format, as Lua's torch.save(filename, object[, mode[, referenced]])
    does; mode 'binary' or 'ascii'.  Lua Torch7 reads what this writes and the other way round.

    Examples
    --------
    >>> import io
    >>> import strided as torch
    >>> f = io.BytesIO()
    >>> torch.save(f, {'w': torch.Tensor([1, 2])})
    >>> _ = f.seek(0)
    >>> torch.load(f)['w']
     1
     2
    [torch.DoubleTensor of dimension 2]
    """
    _check_mode(mode, referenced)
    if mode == "ascii" and hasattr(path, "write"):
        path.write(serialize(obj, mode, referenced))
        return
    if hasattr(path, "write"):
        w = _Writer(path.write, referenced)
        w.obj(obj)
        w.close()
        return
    if mode == "ascii":
        from .files import DiskFile
        f = DiskFile(path, "w")
        try:
            f.ascii().referenced(referenced)
            f.writeObject(obj)
            f.close()
        except BaseException:
            if f._is_open():
                f.close()
            os.unlink(path)
            raise
        return
    with open(path, "wb") as f:
        try:
            w = _Writer(f.write, referenced)
            w.obj(obj)
            w.close()
        except BaseException:
            f.close()
            os.unlink(path)       # no half-written file is left behind
            raise


def load(path: str | bytes | PathLike[Any] | IO[bytes], mode: str = "binary",
         referenced: bool = True) -> Any:
    """Read the object in a file in Torch7's format.

    Parameters
    ----------
    path : str or binary file object
        The file name, or an open binary file.
    mode : str, optional
        'binary' (the default), 'ascii', or 'b32'/'b64' (binary files written
        with 4- or 8-byte longs).
    referenced : bool, optional
        True (the default): references are followed, as Lua does.

    Returns
    -------
    object
        Tensors, storages, numbers, strings, booleans, None, Lua tables as dict
        (or list when the keys are 1..n), torch.class_ instances.

    Raises
    ------
    ValueError
        For data that is not Torch7's format (bounded reads: a damaged file
        raises, never crashes).
    OSError
        When the file cannot be read.

    Notes
    -----
    Read the object in the Torch7 file `path` (or a binary file object),
    as Lua's torch.load(filename[, mode[, referenced]]) does; mode
    'binary', 'ascii', or 'b32'/'b64' (binary with 4- or 8-byte longs).

    Examples
    --------
    >>> import io
    >>> import strided as torch
    >>> f = io.BytesIO()
    >>> torch.save(f, torch.LongTensor([3, 4]))
    >>> _ = f.seek(0)
    >>> torch.load(f)
     3
     4
    [torch.LongTensor of dimension 2]
    """
    _check_mode(mode, referenced, reading=True)
    if mode != "binary" and not hasattr(path, "read"):
        from .files import DiskFile
        with _set_mode(DiskFile(path, "r"), mode) as f:
            f.referenced(referenced)
            return f.readObject()
    if hasattr(path, "read"):
        data = path.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    if mode != "binary":
        return deserialize(data, mode, referenced)
    return _Reader(data, referenced).obj()

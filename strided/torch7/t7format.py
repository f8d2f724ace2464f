"""Torch7's object format (File.lua's `writeObject` / `readObject`): the
writer and the reader of objects, over bytes, a binary stream, or (in
files.py) a torch7 File.  The API over it (torch.save/load,
serialize/deserialize) is t7file.py; the File classes are files.py.

The layout, as Lua Torch writes it on a little-endian 64-bit machine
(ints are int32, longs int64, numbers float64, all little-endian):

    object  := int tag, then by tag
        0 nil       (nothing)
        1 number    double
        2 string    int length, bytes
        3 table     int index [int count, count x (object key, object value)]
        4 torch     int index [string version "V 1", string class name, body]
        5 boolean   int (1 true)
        6, 7, 8     Lua functions (not loadable here: an error naming the field)
    tensor body  := int nDimension, long sizes[n], long strides[n],
                    long storageOffset (1-based), object storage (or nil)
    storage body := long size (elements), raw elements
    generator body := the 5048 bytes of Torch7's THGenerator struct, raw
                    (Generator.c's write: getRNGState's bytes; a byte
                    array, so in ascii mode raw too, then a newline)
    other class body := what the class's `write` method writes, else
                    its fields as one table object (of its own index)

A table or torch object that was written before is written again as its
tag and index only; the reader returns the object it read for that index,
so shared references stay shared (a table that contains itself too).

Classes: tensors and storages load as theirs (torch.CudaTensor and the
other cutorch types as the CPU type of their elements: CudaTensor is a
FloatTensor), torch.Generator as a Generator; a class registered with
torch.class_ is instantiated without its __init__ (Lua's factory) and
filled by its `read` method when it has one, else with the fields read;
any other class loads as its generic TorchObject class (t7object.py).

Element data goes between files and C storages as raw bytes: read from a
stream straight into a newly allocated storage (no other copy), from bytes
by one memmove; written from the storage's own memory.
"""

from __future__ import annotations

import math
import numbers
import re
import struct
import sys
import warnings

from ..core import storage as _cstorage
from ..core.arraytype import DECLINED as _DECLINED, t7_assemble as _assemble
from ..core import t7scan as _scan
from ..core.base import MAX_DIMS, Core, dtype as _dtype, new_storage
from ..core.rng import STATE_SIZE
from ..core.rng import Generator
from .storage import _WRAPPERS, STORAGE_TYPES, Storage, _addr, _fresh, _from_bytes
from .t7object import TableKey, TorchObject, generic_class
from .tensor import TENSOR_TYPES, Tensor
from .utility import registry, typename, version

TYPE_NIL = 0
TYPE_NUMBER = 1
TYPE_STRING = 2
TYPE_TABLE = 3
TYPE_TORCH = 4
TYPE_BOOLEAN = 5
TYPE_FUNCTION = 6
LEGACY_TYPE_RECUR_FUNCTION = 7
TYPE_RECUR_FUNCTION = 8

_TAG_NAMES = {
    TYPE_NIL: "nil",
    TYPE_NUMBER: "number",
    TYPE_STRING: "string",
    TYPE_TABLE: "table",
    TYPE_TORCH: "torch object",
    TYPE_BOOLEAN: "boolean",
}
_FUNCTIONS = (TYPE_FUNCTION, LEGACY_TYPE_RECUR_FUNCTION, TYPE_RECUR_FUNCTION)

_INT = struct.Struct("<i")
_LONG = struct.Struct("<q")
_DOUBLE = struct.Struct("<d")
_VERSION_RE = re.compile(rb"^V (.*)$", re.S)
_STATE_SIZE = STATE_SIZE  # sizeof(THGenerator): 5048
_GENERATOR = "torch.Generator"
_FLUSH = 1 << 16  # bytes of small items buffered before a write
_CHUNK = 1 << 13  # bytes read ahead from a stream for small items (little of a
# storage that follows is copied twice)

# cutorch's classes, read as the CPU class of their elements (a CudaTensor
# holds floats): a checkpoint saved from the GPU loads without CUDA
_CUDA = {
    "torch.CudaTensor": "torch.FloatTensor",
    "torch.CudaStorage": "torch.FloatStorage",
    **{
        f"torch.Cuda{k}{what}": f"torch.{k}{what}"
        for k in ("Byte", "Char", "Short", "Int", "Long", "Half", "Double")
        for what in ("Tensor", "Storage")
    },
}


def check_mode(mode, referenced, reading=False):
    if sys.byteorder != "little":  # element data is written as it lies in memory
        raise NotImplementedError("strided's Torch7 serialization needs a little-endian machine")
    modes = ("binary", "ascii", "b32", "b64") if reading else ("binary", "ascii")
    if mode not in modes:
        raise ValueError(
            f"mode must be {', '.join(repr(m) for m in modes[:-1])} or {modes[-1]!r}, got {mode!r}"
        )
    if not isinstance(referenced, bool):
        raise TypeError(f"referenced must be True or False, got {referenced!r}")


def _where(path):
    """'obj', 'obj[2]', 'obj["a"]' from a (parent, key) chain."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    return "obj" + "".join(f"[{k!r}]" for k in reversed(keys))


def _class_name(o):
    """The Torch class name of a Python object the writer writes as a torch
    object of a Lua class (a TorchObject, a torch.class_ instance), else None."""
    if isinstance(o, TorchObject):
        return o._typename
    name = typename(o)
    return name if name in registry else None


def _fields_of(o, path):
    """The fields a torch object is written with: a TorchObject's items, a
    torch.class_ instance's attributes (those Lua could not write are left
    out with a warning, as Lua's writeObject prints one)."""
    if isinstance(o, TorchObject):
        return dict(o)
    fields = {}
    for k, v in vars(o).items():
        if _writable(v):
            fields[k] = v
        else:
            warnings.warn(
                f"cannot write object field <{k}> of <{typename(o)}> at "
                f"{_where(path)}: a {type(v).__name__} is not a Torch7 object",
                stacklevel=4,
            )
    return fields


def _writable(v):
    return (
        v is None
        or isinstance(
            v,
            (
                bool,
                numbers.Real,
                str,
                bytes,
                bytearray,
                list,
                tuple,
                dict,
                Tensor,
                Storage,
                Generator,
            ),
        )
        or _class_name(v) is not None
    )


def _version_string(v):
    return f"V {int(v) if float(v).is_integer() else v}".encode("ascii")


def _file_over(rw, method):
    """The torch7 File a reader or writer `rw` gives a class's read or write
    method (made once by its `file` maker)."""
    if rw._file is None:
        if rw._file_of is None:
            raise TypeError(
                f"a Torch class with its own {method} method goes through a torch7 "
                f"File: use torch.save / torch.load or a File's writeObject / "
                f"readObject"
            )
        rw._file = rw._file_of(rw)
    return rw._file


# ---------------------------------------------------------------- writing


class _Writer:
    """Objects written to `write` (a binary stream's write).  `file` makes the
    torch7 File a class's own write method is given (None: such a class
    cannot be written here)."""

    def __init__(self, write, referenced, file=None):
        self._write = write  # the file's write
        self._buf = bytearray()
        self._referenced = referenced
        self._count = 0  # objects (tables, torch objects) written
        self._index = {}  # identity -> index
        self._keep = []  # objects whose identity is in _index
        self._file_of = file
        self._file = None

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
            self._write(_cstorage.buffer(s.data, nbytes))

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

    def file(self):
        """The torch7 File over this writer, for a class's write method."""
        return _file_over(self, "write")

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
        elif isinstance(o, dict) and not isinstance(o, TorchObject):
            if not self._reference(TYPE_TABLE, ("table", id(o)), o):
                self.items(o, path)
        elif _class_name(o) is not None:
            self.instance(o, path)
        else:
            raise TypeError(
                f"cannot save {_where(path)}: {type(o).__name__} is not a Torch7 "
                f"object (expected None, bool, a number, str, bytes, list, tuple, "
                f"dict, a tensor, a storage, a torch.Generator, a TorchObject or "
                f"an instance of a torch.class_ class)"
            )

    def items(self, d, path):
        """A table's count and its (key, value) pairs."""
        self.int(len(d))
        for k, v in d.items():
            if k is None or (isinstance(k, float) and math.isnan(k)):
                raise ValueError(f"cannot save {_where(path)}: a Lua table key cannot be {k!r}")
            self.obj(k.table if isinstance(k, TableKey) else k, (path, k))
            self.obj(v, (path, k))

    def instance(self, o, path):
        """An object of a Lua class: its write method's output, or its fields
        as a table of their own (File.lua's writeObject)."""
        if self._reference(TYPE_TORCH, ("object", id(o)), o):
            return
        name = _class_name(o)
        self.string(_version_string(version(o)))
        self.string(name.encode("utf-8"))
        write = None if isinstance(o, TorchObject) else getattr(type(o), "write", None)
        if write is not None:
            write(o, self.file())
            return
        fields = _fields_of(o, path)
        self.int(TYPE_TABLE)  # a new table each time, as Lua's `var`
        self._count += 1
        self.int(self._count)
        self.items(fields, path)

    def torch(self, o, path):
        if isinstance(o, Tensor):
            key = ("tensor", _addr(o._c.t))
        elif isinstance(o, Generator):
            key = ("generator", id(o))
        else:
            key = ("storage", _addr(o._s), type(o))
        if self._reference(TYPE_TORCH, key, o):
            return
        self.string(b"V 1")
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
        raise ValueError(
            f"cannot save {_where(path)}: the integer {v} is not exactly "
            f"representable as a Lua number (a double)"
        )
    return d


# ---------------------------------------------------------------- reading


class LuaFunctionError(ValueError):
    """A Lua function in Torch7 data: Python cannot run Lua's bytecode.  The
    message names the field that holds it (keys as Lua has them)."""

    def __init__(self, tag, at):
        super().__init__()
        self.tag, self.at, self.keys = tag, at, []

    def __str__(self):
        where = "obj" + "".join(f"[{k!r}]" for k in reversed(self.keys))
        return (
            f"cannot load {where}: it is a Lua function (type tag {self.tag} at byte "
            f"{self.at}), which Python cannot load"
        )


class _Reader:
    """Objects read from `data` (bytes-like) or a binary stream `source`
    whose `size` bytes from its position on are the data.  Small items are
    unpacked from a window of the data; a storage's elements are read
    straight into its new memory (or one memmove from bytes).  `file`
    makes the torch7 File a class's read method is given."""

    def __init__(self, data, referenced, source=None, size=None, file=None):
        self._referenced = referenced
        self._objects = {}  # index -> object read
        self._open = {}  # index -> the dict of a table being read
        self._cyclic = set()  # indices of tables referenced while being read
        self._file_of = file
        self._file = None
        self._src = source
        if source is None:
            self._buf = memoryview(data).cast("B")
            self._base, self._end = 0, len(self._buf)
        else:
            self._buf = b""
            self._base = source.tell()
            self._end = self._base + size
        self._pos = 0  # in _buf; _base is the data offset of _buf[0]

    def tell(self):
        """The data offset of the next byte."""
        return self._base + self._pos

    def _short(self, n, what):
        at = self.tell()
        return ValueError(
            f"truncated Torch7 data: {what} needs {n} bytes at byte {at}, only "
            f"{max(0, self._end - at)} left"
        )

    def _take(self, n, what):
        pos = self._pos
        if pos + n > len(self._buf):
            if n < 0 or self.tell() + n > self._end or self._src is None:
                raise self._short(n, what)
            rest = bytes(self._buf[pos:])
            more = self._src.read(
                min(max(n - len(rest), _CHUNK), self._end - self.tell() - len(rest))
            )
            self._base += pos
            self._buf, pos = rest + more, 0
            if n > len(self._buf):
                self._pos = 0
                raise self._short(n, what)
        self._pos = pos + n
        return pos

    def leave(self):
        """Put the stream back just after the object read (it was read ahead)."""
        if self._src is not None and self._src.seekable():
            self._src.seek(self.tell())

    # (_take first: it may replace _buf)
    def int(self, what):
        pos = self._take(4, what)
        return _INT.unpack_from(self._buf, pos)[0]

    def long(self, what):
        pos = self._take(8, what)
        return _LONG.unpack_from(self._buf, pos)[0]

    def longs(self, n, what):
        if not n:
            return ()
        pos = self._take(8 * n, what)
        return struct.unpack_from(f"<{n}q", self._buf, pos)

    def double(self, what):
        pos = self._take(8, what)
        return _DOUBLE.unpack_from(self._buf, pos)[0]

    def elements(self, cls, n, what=None):
        """A new storage of class `cls` holding the next n elements."""
        nbytes = n * _dtype(cls._dt).itemsize
        if self.tell() + nbytes > self._end:
            raise self._short(nbytes, what or _elements_what(cls, n))
        if self._src is None:
            pos = self._take(nbytes, what)
            return _from_bytes(cls, self._buf[pos : pos + nbytes])
        ptr = new_storage(nbytes)
        have = min(nbytes, len(self._buf) - self._pos)
        if have:
            _cstorage.write_bytes(ptr, self._buf[self._pos : self._pos + have])
            self._pos += have
        if have < nbytes:  # the rest straight from the stream into the storage
            view = memoryview(_cstorage.buffer(ptr.data + have, nbytes - have))
            got = 0
            while got < len(view):
                k = self._src.readinto(view[got:])
                if not k:
                    break
                got += k
            self._base, self._buf, self._pos = self.tell() + got, b"", 0
            if got < len(view):
                raise ValueError(
                    f"truncated Torch7 data: {what or _elements_what(cls, n)} "
                    f"needs {nbytes} bytes, the stream ended "
                    f"{nbytes - have - got} bytes short"
                )
        return _fresh(cls, ptr)

    def bytes(self, what):
        n = self.int(f"the length of {what}")
        if n < 0:
            raise ValueError(
                f"bad Torch7 data: {what} at byte {self.tell() - 4} has negative length {n}"
            )
        pos = self._take(n, what)
        return bytes(self._buf[pos : pos + n])

    def raw(self, n, what):
        pos = self._take(n, what)
        return bytes(self._buf[pos : pos + n])

    def file(self):
        """The torch7 File over this reader, for a class's read method."""
        return _file_over(self, "read")

    def obj(self):
        at = self.tell()
        return self.value(self.int("a type tag"), at)

    def value(self, tag, at):
        """The object of type tag `tag` (read at `at`)."""
        if tag == TYPE_NUMBER:
            return _number(self.double("a number"))
        if tag == TYPE_STRING:
            b = self.bytes("a string")
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError:
                return b
        if tag == TYPE_NIL:
            return None
        if tag == TYPE_BOOLEAN:
            return self.int("a boolean") == 1
        if tag in _FUNCTIONS:
            raise LuaFunctionError(tag, at)
        if tag not in (TYPE_TABLE, TYPE_TORCH):
            raise ValueError(
                f"bad Torch7 data: unknown type tag {tag} at byte {at} (expected "
                f"0 nil, 1 number, 2 string, 3 table, 4 torch object, 5 boolean)"
            )
        index = self.int(f"the index of a {_TAG_NAMES[tag]}")
        if self._referenced and index in self._objects:
            if index in self._open:
                self._cyclic.add(index)
            return self._objects[index]
        return self.table(index, at) if tag == TYPE_TABLE else self.torch(index, at)

    def _remember(self, index, o):
        if self._referenced:
            self._objects[index] = o

    def table(self, index, at):
        """A dict, or a list when the keys are 1..n (a table that holds itself,
        or is held by what it holds, stays a dict so every reference is it)."""
        n = self.int("the size of a table")
        if n < 0:
            raise ValueError(f"bad Torch7 data: table at byte {at} has negative size {n}")
        return self._table(index, at, n, self._pair)

    def _pair(self):
        """(where, key, value): a table's next pair."""
        kat = self.tell()
        k = self.obj()
        try:
            v = self.obj()
        except LuaFunctionError as e:
            e.keys.append(k)
            raise
        return kat, k, v

    def _table(self, index, at, n, pair):
        """The table of index `index` whose n pairs `pair` gives."""
        d = {}
        self._remember(index, d)
        self._open[index] = d
        try:
            for _ in range(n):
                kat, k, v = pair()
                if k is None:
                    raise ValueError(f"bad Torch7 data: table at byte {at} has a nil key")
                if isinstance(k, (list, dict)):  # TorchObject too: a Lua table
                    k = TableKey(k)
                try:
                    dup = k in d
                except TypeError:
                    raise ValueError(
                        f"table at byte {at}: its key at byte {kat} is a "
                        f"{type(k).__name__}, which cannot be a Python dict "
                        f"key"
                    ) from None
                if dup:
                    raise ValueError(
                        f"table at byte {at}: key {k!r} (byte {kat}) appears "
                        f"twice in Python's terms (Python equates True with 1)"
                    )
                d[k] = v
        finally:
            del self._open[index]
        if index in self._cyclic:
            return d
        if all(type(k) is int for k in d) and (not d or (min(d) == 1 and max(d) == len(d))):
            lst = [d[i] for i in range(1, len(d) + 1)]
            self._remember(index, lst)
            return lst
        return d

    def torch(self, index, at):
        version = self.bytes("a Torch class version")
        if version == b"V 1":
            number = 1
        else:
            m = _VERSION_RE.match(version)
            number = _version_number(m.group(1)) if m else None
        if number is None:
            name, number = version, 0  # written before Torch7 had versions
        else:
            name = self.bytes("a Torch class name")
        builtin = (_BUILTIN or _builtin_classes()).get(name)
        if builtin is None:
            return self.instance(name.decode("latin-1"), number, index, at)
        read, cls = builtin
        o = read(self, cls, at)
        self._remember(index, o)
        return o

    def instance(self, name, number, index, at):
        """An object of a Lua class: of the torch.class_ class of that name
        (its read method reads it, when it has one), else of its generic
        class (t7object.py); remembered before its fields are read."""
        cls = registry.get(name)
        if cls is None:
            cls = generic_class(name)
            o = cls()
        else:
            o = cls.__new__(cls)
        self._remember(index, o)
        read = getattr(cls, "read", None) if not isinstance(o, TorchObject) else None
        if read is not None:
            read(o, self.file(), number)
            return o
        fat = self.tell()
        tag = self.int(f"the fields of a {name}")
        if tag != TYPE_TABLE:
            raise ValueError(
                f"cannot load the {name} at byte {at}: its body at byte {fat} is "
                f"not a table of fields (type tag {tag}); the class writes its "
                f"own format: register it with torch.class_ and give it a read "
                f"method"
            )
        return _fill(o, self.value(tag, fat), number)

    def new_storage(self, cls):
        """The object after a tensor's geometry: its storage, read at once
        when it is a new one of class `cls` written as Lua writes it (the
        usual case: its whole head in one unpack), else any object."""
        head, expected = _storage_head(cls)
        pos = self._pos
        if pos + head.size <= len(self._buf):
            tag, index, v, name, n = head.unpack_from(self._buf, pos)
            if (
                tag == TYPE_TORCH
                and v == _V1
                and name == expected
                and n >= 0
                and not (self._referenced and index in self._objects)
            ):
                self._pos = pos + head.size
                s = self.elements(cls, n)
                self._remember(index, s)
                return s
        return self.obj()

    def generator(self, cls, at):
        """A new Generator in the state read (Generator.c's read)."""
        return _generator_of(
            self.raw(_STATE_SIZE, f"the {_STATE_SIZE} state bytes of a {_GENERATOR}"), at
        )

    def tensor(self, cls, at):
        what = _what(cls)
        nd = self.int(what[0])
        if not 0 <= nd <= MAX_DIMS:
            raise ValueError(
                f"bad Torch7 data: {cls._typename} at byte {at} has {nd} "
                f"dimensions (expected 0 to {MAX_DIMS})"
            )
        geometry = self.longs(2 * nd + 1, what[1])
        return _tensor_of(cls, at, nd, geometry, self.new_storage(cls._storage_cls))

    def walked(self, source, start, end, longsize=8):
        """(the object at data offset `start` of `source` (a file descriptor
        or bytes) read by the C walk (core.t7scan), the offset after it),
        or None when the walk leaves it to this reader (nothing is read or
        remembered then: bad data, whose message this reader gives, Lua
        functions, classes with their own read method)."""
        w = _scan.walk(
            source, start, end, longsize, self._referenced, self._objects, _walk_classes()[0]
        )
        if w is None:
            return None
        known = len(self._objects)
        try:
            o = _assemble(
                w.address,
                _walk_classes()[2],
                self._objects,
                self._referenced,
                self._open,
                self._cyclic,
                _WRAPPERS,
                TableKey,
            )
            if o is not _DECLINED:  # (made in C: the usual case)
                return o, w.end
            _forget(self._objects, known)
            return _Assembly(self, w).value(), w.end
        except (_LeftToReader, ValueError, KeyError, TypeError):
            _forget(self._objects, known)
            self._open.clear()
            self._cyclic.clear()
            return None
        finally:
            w.close()  # (the walk's references to its storages)

    def storage(self, cls, at):
        n = self.long(_what(cls)[2])
        if n < 0:
            raise ValueError(f"bad Torch7 data: {cls._typename} at byte {at} has negative size {n}")
        return self.elements(cls, n)


def _forget(objects, known):
    """Drop the indices remembered after the first `known` (new indices come last)."""
    for index in list(objects)[known:]:
        del objects[index]


class _LeftToReader(Exception):
    """What the C walk read is made by the reader instead (a class with its
    own read method, data whose error the reader words)."""


class _Assembly:
    """The objects of a C walk's records (core.t7scan.walk: the layout is
    strided.h's st_t7_walk), remembered in `reader`'s index as the reader
    does."""

    def __init__(self, reader, walked):
        self.r, self.w = reader, walked
        self.words, self.pos = walked.words, 0
        self.classes = _walk_classes()[1]
        self.remember = reader._remember

    def pair(self):
        return None, self.value(), self.value()

    def value(self):
        words, pos = self.words, self.pos
        code = words[pos]
        if code == _scan.STORAGE:
            index, c, _n, slot = words[pos + 1 : pos + 5]
            self.pos = pos + 5
            o = _fresh(self.classes[c], self.w.storages[slot])
            self.remember(index, o)
            return o
        if code == _scan.TENSOR:
            index, c, nd = words[pos + 1 : pos + 4]
            geometry = words[pos + 4 : pos + 5 + 2 * nd]
            self.pos = pos + 5 + 2 * nd
            o = _tensor_of(self.classes[c], None, nd, geometry, self.value())
            self.remember(index, o)
            return o
        if code == _scan.NUMBER:
            self.pos = pos + 2
            return _number(self.w.numbers[pos + 1])
        if code == _scan.STRING:
            at, n = words[pos + 1], words[pos + 2]
            self.pos = pos + 3
            b = self.w.bytes[at : at + n]
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError:
                return b
        if code == _scan.NIL:
            self.pos = pos + 1
            return None
        if code == _scan.BOOLEAN:
            self.pos = pos + 2
            return words[pos + 1] == 1
        if code == _scan.REF:
            index = words[pos + 1]
            self.pos = pos + 2
            if index in self.r._open:
                self.r._cyclic.add(index)
            return self.r._objects[index]
        if code == _scan.TABLE:
            index, n = words[pos + 1], words[pos + 2]
            self.pos = pos + 3
            return self.r._table(index, None, n, self.pair)
        if code == _scan.GENERATOR:
            index, at = words[pos + 1], words[pos + 2]
            self.pos = pos + 3
            o = _generator_of(self.w.bytes[at : at + _STATE_SIZE], None)
            self.remember(index, o)
            return o
        if code == _scan.OBJECT:
            index, number, at, n = words[pos + 1 : pos + 5]
            self.pos = pos + 6
            name = self.w.bytes[at : at + n].decode("latin-1")
            cls = registry.get(name)
            if cls is None:
                o = generic_class(name)()
            elif getattr(cls, "read", None) is not None:
                raise _LeftToReader(name)
            else:
                o = cls.__new__(cls)
            self.remember(index, o)
            fields = self.value()
            if not isinstance(fields, (dict, list)) or isinstance(fields, TorchObject):
                raise _LeftToReader(name)
            return _fill(o, fields, number)
        raise _LeftToReader(code)


def _fill(o, fields, number):
    """Object `o` of a Lua class given its fields read (a dict, or a list
    for fields 1..n) and the class version read."""
    if isinstance(fields, list):
        fields = dict(enumerate(fields, 1))
    if isinstance(o, TorchObject):
        dict.update(o, fields)
        if number:
            setattr(type(o), "__version", number)
    else:
        vars(o).update(fields)
    return o


def _generator_of(state, at):
    """A new Generator in the state read (Generator.c's read)."""
    g = Generator(0)
    try:
        g.set_state(state)
    except ValueError as e:
        raise ValueError(f"bad Torch7 data: {_GENERATOR} at byte {at}: {e}") from None
    return g


def _tensor_of(cls, at, nd, geometry, storage):
    """The tensor of class `cls` read at byte `at`: nd, its sizes, strides
    and 1-based storage offset (`geometry`), its storage (or None)."""
    name = cls._typename
    sizes, strides, offset = geometry[:nd], geometry[nd:-1], geometry[-1]
    if storage is not None and type(storage) is not cls._storage_cls:
        raise ValueError(
            f"bad Torch7 data: {name} at byte {at} has a "
            f"{getattr(storage, '_typename', type(storage).__name__)} where "
            f"its storage should be (a {cls._storage_cls._typename})"
        )
    if nd == 0:
        return cls()  # Torch7's empty tensor (its storage, if any, is dropped)
    if any(s < 0 for s in sizes):
        raise ValueError(f"bad Torch7 data: {name} at byte {at} has negative sizes {list(sizes)}")
    if storage is None:
        if 0 not in sizes:
            raise ValueError(
                f"bad Torch7 data: {name} at byte {at} of sizes {list(sizes)} has no storage"
            )
        return cls(*sizes)
    if offset < 1:
        raise ValueError(
            f"bad Torch7 data: {name} at byte {at} has storage offset "
            f"{offset} (1-based, expected >= 1)"
        )
    try:
        c = Core.over(storage._s, cls._dt, offset - 1, tuple(sizes), tuple(strides))
    except (ValueError, IndexError, OverflowError) as e:
        raise ValueError(
            f"bad Torch7 data: {name} at byte {at} (sizes {list(sizes)}, "
            f"strides {list(strides)}, storage offset {offset}) does not fit "
            f"its storage of {storage.size()} elements: {e}"
        ) from None
    return cls._wrap(c)


# a class name as written -> (the reader's method, the class): the built-in
# classes (cutorch's as their CPU classes), filled at the first load (the
# tensor classes are made after this module is imported)
_BUILTIN = {}


def _builtin_classes():
    _BUILTIN.update({n.encode(): (_Reader.tensor, c) for n, c in TENSOR_TYPES.items()})
    _BUILTIN.update({n.encode(): (_Reader.storage, c) for n, c in STORAGE_TYPES.items()})
    _BUILTIN[_GENERATOR.encode()] = (_Reader.generator, Generator)
    _BUILTIN.update({k.encode(): _BUILTIN[v.encode()] for k, v in _CUDA.items()})
    return _BUILTIN


_WALK = []


def _walk_classes():
    """(the C walk's table of built-in classes (core.t7scan.Classes), their
    classes by number, what arraytype.t7_assemble needs of them), made at
    the first walk: each name as written, a storage's kind its element
    size."""
    if not _WALK:
        names, kinds, classes = [], [], []
        for name, (read, cls) in (_BUILTIN or _builtin_classes()).items():
            names.append(name)
            classes.append(cls)
            kinds.append(
                _scan.KIND_TENSOR
                if read is _Reader.tensor
                else _scan.KIND_GENERATOR
                if read is _Reader.generator
                else _dtype(cls._dt).itemsize
            )
        # t7_assemble's: (class, element type code, a tensor's storage class or None)
        made = tuple(
            (cls, getattr(cls, "_code", -1), getattr(cls, "_storage_cls", None)) for cls in classes
        )
        _WALK[:] = [_scan.Classes(names, kinds), classes, made]
    return _WALK


_WHAT = {}
_V1 = struct.pack("<i", 3) + b"V 1"
_HEADS = {}


def _storage_head(cls):
    """(the layout of the head of a new storage of class `cls` as written:
    tag, index, version 'V 1', class name, size; the name's bytes), made
    once per class."""
    head = _HEADS.get(cls)
    if head is None:
        name = cls._typename.encode("ascii")
        head = _HEADS[cls] = (
            struct.Struct(f"<ii7s{4 + len(name)}sq"),
            struct.pack("<i", len(name)) + name,
        )
    return head


def _what(cls):
    """What a reader reads of a tensor or storage class, for its messages:
    (dimension, geometry, size), made once per class."""
    w = _WHAT.get(cls)
    if w is None:
        name = cls._typename
        w = _WHAT[cls] = (
            f"the dimension of a {name}",
            f"the sizes, strides and storage offset of a {name}",
            f"the size of a {name}",
        )
    return w


def _elements_what(cls, n):
    return f"the {n} elements of a {cls._typename}"


def _version_number(text):
    """Lua's tonumber of a class version's text, or None."""
    try:
        v = float(text.decode("latin-1").strip())
    except ValueError:
        return None
    return int(v) if v.is_integer() else v


_EXACT = float(1 << 53)  # doubles count every integer up to here


def _number(x):
    """Lua numbers are doubles: a whole one of at most 2^53 in magnitude
    loads as int (Lua 5.3 would make it an integer; -0.0 stays a float),
    any other as float (1e300 is no count of anything)."""
    if x.is_integer() and -_EXACT <= x <= _EXACT and not (x == 0 and math.copysign(1.0, x) < 0):
        return int(x)
    return x

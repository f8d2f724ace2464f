"""torch.save / torch.load of `.t7` files and torch.serialize /
deserialize to bytes: the API over Torch7's object format (t7format.py,
which says the layout and how each Lua class loads), binary through a
stream of their own, ascii and 'b32' through the File classes (files.py).

torch.load reads a binary file once: small items from a window read
ahead, each storage's elements straight from the file into its new
memory; torch.save writes each storage from its own memory.
"""

from __future__ import annotations

import io
import os
import stat
from typing import TYPE_CHECKING

from ..core import storage as _cstorage
from .files import DiskFile, MemoryFile, _ObjectFile
from .storage import CharStorage, _from_bytes
from .t7format import _Reader, _Writer, check_mode as _check_mode

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
if TYPE_CHECKING:
    from os import PathLike
    from typing import IO, Any

__all__ = [
    "save",
    "load",
    "serialize",
    "deserialize",
    "serializeToStorage",
    "deserializeFromStorage",
]


def _writer(write, referenced):
    return _Writer(write, referenced, file=lambda w: _ObjectFile(w, False))


def _reader(data, referenced, source=None, size=None):
    return _Reader(data, referenced, source, size, file=lambda r: _ObjectFile(r, True))


def _read_stream(f, referenced):
    """The object in the binary stream f, from its position: walked in C
    when f is a file (or a BytesIO), else read ahead in a window, storages
    straight from f; f is left just after the object when it can seek
    (else it was read whole first)."""
    if not f.seekable():
        return _read_bytes(f.read(), referenced)
    at = f.tell()
    size = f.seek(0, 2) - at
    f.seek(at)
    r = _reader(None, referenced, f, size)
    source = _source_of(f)
    got = r.walked(source, at, at + size) if source is not None else None
    if got is not None:
        f.seek(got[1])
        return got[0]
    o = r.obj()
    r.leave()
    return o


def _source_of(f):
    """What the C walk reads a seekable stream through: a plain file's
    descriptor, or a BytesIO's buffer (None: the reader reads it).  Only
    a FileIO, buffered or not, is its descriptor's bytes: a GzipFile's
    fileno() is the compressed file's."""
    if isinstance(f, io.BytesIO):
        return f.getbuffer()
    raw = f.raw if isinstance(f, (io.BufferedReader, io.BufferedRandom)) else f
    return f.fileno() if isinstance(raw, io.FileIO) else None


def _read_bytes(data, referenced):
    """The object in the bytes `data` (the C walk, else the reader)."""
    r = _reader(data, referenced)
    got = r.walked(data, 0, memoryview(data).nbytes)
    return got[0] if got is not None else r.obj()


# ---------------------------------------------------------------- the API


def _memory_file(data, mode):
    """A read-only MemoryFile over the bytes `data`, in `mode`."""
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
        with MemoryFile("w").ascii() as f:
            f.referenced(referenced)
            f.writeObject(obj)
            s = f.storage()
            return _cstorage.read_bytes(s._s, s.size() - 1)
    out = io.BytesIO()
    w = _writer(out.write, referenced)
    w.obj(obj)
    w.close()
    return out.getvalue()


def deserialize(
    data: bytes | bytearray | memoryview, mode: str = "binary", referenced: bool = True
) -> Any:
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
    return _read_bytes(data, referenced)


def serializeToStorage(obj: object, mode: str = "binary", referenced: bool = True) -> CharStorage:
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
    return _from_bytes(CharStorage, serialize(obj, mode, referenced))


def deserializeFromStorage(
    storage: CharStorage, mode: str = "binary", referenced: bool = True
) -> Any:
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
    if not isinstance(storage, CharStorage):
        raise TypeError(
            f"deserializeFromStorage: storage must be a torch.CharStorage, got "
            f"{getattr(storage, '_typename', None) or type(storage).__name__}"
        )
    n = storage.size()
    return deserialize(_cstorage.read_bytes(storage._s, n), mode, referenced)


def save(
    path: str | bytes | PathLike[Any] | IO[bytes],
    obj: object,
    mode: str = "binary",
    referenced: bool = True,
) -> None:
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
        w = _writer(path.write, referenced)
        w.obj(obj)
        w.close()
        return
    if mode == "ascii":
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
    with _open_over(path) as f:
        regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
        try:
            w = _writer(f.write, referenced)
            w.obj(obj)
            w.close()
            if regular:
                f.truncate(f.tell())  # (flushes first) what is left of an older file goes
        except BaseException:
            f.close()
            if regular:
                os.unlink(path)  # no half-written file is left behind (never /dev/null)
            raise


def _open_over(path):
    """The file `path` opened to be written from its start, not truncated:
    an existing file's pages in the page cache are written over instead
    of freed and allocated again (save truncates at the end).  A save over
    the 120 MB file of the t7io benchmark took a quarter of the time."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    try:
        return open(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def load(
    path: str | bytes | PathLike[Any] | IO[bytes], mode: str = "binary", referenced: bool = True
) -> Any:
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
        (or list when the keys are 1..n), instances of torch.class_ classes,
        and for any other Torch class a TorchObject of its generic class (a
        dict of its fields, also readable as attributes; torch.typename
        gives the Lua name).

    Raises
    ------
    ValueError
        For data that is not Torch7's format (bounded reads: a damaged file
        raises, never crashes), and for a Lua function (naming its field).
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
        with _set_mode(DiskFile(path, "r"), mode) as f:
            f.referenced(referenced)
            return f.readObject()
    if hasattr(path, "read"):
        if mode != "binary":
            return deserialize(path.read(), mode, referenced)
        return _read_stream(path, referenced)
    with open(path, "rb", buffering=0) as f:
        return _read_stream(f, referenced)

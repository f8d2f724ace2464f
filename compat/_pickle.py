"""Pickling of Arrays (docs/array-api.md, "Pickling"): an Array pickles as
its dtype's name, its shape and its elements in C order, so any strides,
0-d arrays and every dtype travel to other processes (spawn or fork), and
load there as a C-contiguous Array.

Copies: a C-contiguous array hands protocol 5 a PickleBuffer over its own
memory, no copy; a consumer taking buffers out of band (Dask, or
`pickle.dumps(x, protocol=5, buffer_callback=...)`) moves that memory
itself, and the loaded Array views the buffer it is given, no copy again.
In band, the pickle stream holds the one copy.  Another layout is copied
once to C order first.  Below protocol 5 the elements go as bytes (a copy,
which the stream copies again), copied into a new array on loading, as
numpy's.

The loaded Array is writable when its buffer is (in band: a bytearray,
for a writable array) and read-only when it is not (a read-only array, or
bytes handed back out of band), as numpy's.  Memory not aligned to the
element type (a buffer cut from a larger frame) is copied once into an
aligned array.  The elements are in this machine's byte order, which the
pickle records; another byte order is refused on loading."""
from __future__ import annotations

import pickle
import sys

from strided.core import base as _core
from strided.core.base import ffi

from ._array import Array


def _memory(c):
    """A writable buffer over Core c's elements (C-contiguous) that keeps c
    alive while the buffer lives."""
    nbytes = c.size * c.dtype.itemsize
    keep = ffi.gc(ffi.cast("char *", c.address), lambda _p, _owner=c: None)
    return ffi.buffer(keep, nbytes)


def reduce(a, protocol):
    c = _core.contiguous(a._c)
    if not c.size:
        data = b""
    elif protocol >= 5:
        mv = memoryview(_memory(c))
        data = pickle.PickleBuffer(mv.toreadonly() if c.readonly else mv)
    else:
        return _rebuild, (_memory(c)[:], c.dtype.name, c.shape, sys.byteorder, True)
    return _rebuild, (data, c.dtype.name, c.shape, sys.byteorder)


def _rebuild(data, dtype, shape, byteorder, copy=False):
    dt = _core.dtype(dtype)
    if byteorder != sys.byteorder:
        raise ValueError(f"unpickling an Array: its elements are {byteorder}-endian, "
                         f"this machine is {sys.byteorder}-endian")
    shape = _core.normalize_shape(shape)
    mv = memoryview(data)
    nbytes = dt.itemsize
    for n in shape:
        nbytes *= n
    if mv.nbytes != nbytes:
        raise ValueError(f"unpickling an Array: {mv.nbytes} bytes for {dtype}{list(shape)}, "
                         f"which needs {nbytes}")
    if not nbytes:
        return Array._new(_core.Core.empty(shape, dt))
    if not mv.c_contiguous:
        mv = memoryview(mv.tobytes())
    p = ffi.from_buffer(mv)
    address = int(ffi.cast("uintptr_t", p))
    storage = _core.borrow_storage(address, nbytes, readonly=mv.readonly, owner=(mv, p))
    if copy or address % ffi.alignof(dt.ctype):
        # a C copy, byte for byte, into new (aligned, writable) memory
        out = _core.Core.empty(shape, dt)
        _core.copy_(_core.Core.over(out.storage, _core.uint8, 0, (nbytes,)),
                    _core.Core.over(storage, _core.uint8, 0, (nbytes,)))
        return Array._new(out)
    return Array._new(_core.Core.over(storage, dt, 0, shape))

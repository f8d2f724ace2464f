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
pickle records; another byte order is refused on loading.

Loading checks every field before anything is allocated or read (a
corrupted or hand-made pickle raises ValueError or TypeError): the dtype
is one of ours, the shape a tuple of at most ST_MAX_DIMS integers >= 0,
the buffer holds exactly the bytes the shape needs.  A bool element must
be 0 or 1: a buffer holding any other byte is cast in C (nonzero is True)
into a new array rather than viewed."""

from __future__ import annotations

import pickle
import sys

from strided.core import base as _core, ops as _ops
from strided.core import storage as _storage

from ._array import Array
from ._dtypes import BY_NAME


def _memory(c):
    """A writable buffer over Core c's elements (C-contiguous) that keeps c
    alive while the buffer lives."""
    nbytes = c.size * c.dtype.itemsize
    return _storage.buffer_keeping(c, c.address, nbytes)


def reduce(a, protocol=2):
    """Array.__reduce_ex__ and __reduce__: (unpickle, (dtype name, shape, elements,
    byte order, view))."""
    c = _core.contiguous(a._c)
    if not c.size:
        return unpickle, (c.dtype.name, c.shape, b"", sys.byteorder, False)
    if protocol >= 5:
        mv = memoryview(_memory(c))
        data = pickle.PickleBuffer(mv.toreadonly() if c.readonly else mv)
        return unpickle, (c.dtype.name, c.shape, data, sys.byteorder, True)
    return unpickle, (c.dtype.name, c.shape, _memory(c)[:], sys.byteorder, False)


def unpickle(dtype_name, shape, data, byteorder=sys.byteorder, view=False):
    """An Array from reduce's fields.  With `view`, over the memory of
    `data` (any object with the buffer protocol, as protocol 5 hands it
    back), else a copy of it.  (dtype name, shape, bytes) alone is the form
    of the first pickles of Arrays: a copy."""
    dt = BY_NAME.get(dtype_name) if isinstance(dtype_name, str) else None
    if dt is None:
        raise ValueError(f"unpickling an Array: unknown dtype {dtype_name!r}")
    if (
        not isinstance(shape, tuple)
        or len(shape) > _core.MAX_DIMS
        or not all(type(n) is int and n >= 0 for n in shape)
    ):
        raise ValueError(f"unpickling an Array: bad shape {shape!r}")
    if byteorder != sys.byteorder:
        raise ValueError(
            f"unpickling an Array: its elements are {byteorder!r}-endian, "
            f"this machine is {sys.byteorder}-endian"
        )
    try:
        mv = memoryview(data)
    except TypeError:
        raise TypeError(
            f"unpickling an Array: data must be bytes or a buffer, got {type(data).__name__}"
        ) from None
    nbytes = dt.itemsize
    for n in shape:
        nbytes *= n
    if mv.nbytes != nbytes:
        raise ValueError(
            f"unpickling an Array: shape {shape} of {dt.name} needs "
            f"{nbytes} bytes, the pickle holds {mv.nbytes}"
        )
    if not nbytes:
        return Array._new(_core.Core.empty(shape, dt))
    if not mv.c_contiguous:
        mv = memoryview(mv.tobytes())
    storage, address = _storage.borrow_buffer(mv)
    # a bool element must be 0 or 1 (C reads any other byte as undefined):
    # the bytes are read as uint8 and cast in C unless all are 0 or 1
    raw = _core.uint8 if dt is _core.bool_ else dt
    given = _core.Core.over(storage, raw, 0, shape)
    if raw is not dt:
        bytes_ = _core.Core.over(storage, _core.uint8, 0, (nbytes,))
        if _core.item(_ops.reduce("max", bytes_)) > 1:
            return Array._new(_core.astype(given, dt))
    if view is True and not address % _storage.alignment(dt.ctype):
        return Array._new(_core.Core.over(storage, dt, 0, shape))
    # a C copy, byte for byte, into new (aligned, writable) memory
    out = _core.Core.empty(shape, dt)
    _core.copy_(
        _core.Core.over(out.storage, _core.uint8, 0, (nbytes,)),
        _core.Core.over(storage, _core.uint8, 0, (nbytes,)),
    )
    return Array._new(out)

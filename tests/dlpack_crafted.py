"""A hand-made DLPack tensor for the consumer's tests (tests/interop/test_dlpack.py)
and the bad-input fuzzers (tests/core/test_bad_input.py)."""

import numpy as np

from strided._c._strided import ffi
from strided.core import dlpack as _dlpack


def address(a):
    return a.__array_interface__["data"][0]


class Crafted:
    """A hand-made DLPack tensor over numpy memory `buf` (or any address):
    every field is the test's to set; the deleter counts its calls."""

    def __init__(
        self,
        buf=None,
        *,
        versioned=True,
        shape=None,
        strides=None,
        dtype=None,
        data=None,
        device=(1, 0),
        byte_offset=0,
        flags=0,
        version=(1, 1),
        ndim=None,
        shape_null=False,
    ):
        if buf is None:
            buf = np.arange(6.0)
        self.buf, self.calls, self.versioned = buf, 0, versioned
        kind = "DLManagedTensorVersioned" if versioned else "DLManagedTensor"
        self.m = ffi.new(kind + " *")
        shape = buf.shape if shape is None else shape
        self.shape = ffi.new("int64_t[]", list(shape) or [0])
        self.strides = ffi.new("int64_t[]", list(strides) or [0]) if strides is not None else None
        dl = self.m.dl_tensor
        dl.data = ffi.cast("void *", address(buf) if data is None else data)
        dl.device.device_type, dl.device.device_id = device
        dl.ndim = len(shape) if ndim is None else ndim
        if dtype is None:
            dtype = {"f": 2, "i": 0, "u": 1, "c": 5, "b": 6}[buf.dtype.kind], 8 * buf.itemsize, 1
        dl.dtype.code, dl.dtype.bits, dl.dtype.lanes = dtype
        dl.shape = ffi.NULL if shape_null else self.shape
        dl.strides = self.strides if self.strides is not None else ffi.NULL
        dl.byte_offset = byte_offset
        if versioned:
            self.m.version.major, self.m.version.minor = version
            self.m.flags = flags
        self.deleter = ffi.callback(f"void({kind} *)", self._delete)
        self.m.deleter = self.deleter

    def _delete(self, m):
        assert m == self.m
        self.calls += 1

    def capsule(self):
        return _dlpack._capsule_new(
            int(ffi.cast("uintptr_t", self.m)), _dlpack._NAME[self.versioned, 0], None
        )

"""Crossing to the Torch7 face without a copy: an Array from a Tensor is
asarray(tensor); a Tensor from an Array is to_tensor(array).  Both are new
view records over the same storage (not in the standard: an extra name)."""
from __future__ import annotations



def to_tensor(x, /):
    """A Torch7 tensor viewing x's memory (the tensor class of x's dtype)."""
    from strided._tensor import TENSOR_TYPES
    for cls in TENSOR_TYPES.values():
        if getattr(cls, "_dt", None) == x.dtype.name:
            c = x._c
            return cls._wrap(c.view(c.offset, c.shape, c.strides))
    raise TypeError(f"Torch7 has no tensor type for {x.dtype.name}")


def from_dlpack(x, /, *, device=None, copy=None):
    """An Array over the memory of DLPack producer x (zero-copy unless
    copy=True; docs/interop.md).  device=None keeps x's device, so x must be
    on the CPU; device='cpu' asks a producer elsewhere for CPU memory."""
    from strided import _dlpack
    from ._array import Array, check_device
    check_device(device)
    return Array._new(_dlpack.to_core(x, copy=copy, to_cpu=device is not None))


__all__ = ["to_tensor", "from_dlpack"]

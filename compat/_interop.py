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


__all__ = ["to_tensor"]

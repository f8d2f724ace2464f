"""DLPack import into an Array (the standard's from_dlpack).  The crossing
to the Torch7 face is strided.interop (asarray(tensor) views a tensor's
memory through its `__strided_core__` record)."""
from __future__ import annotations


def from_dlpack(x, /, *, device=None, copy=None):
    """An Array over the memory of DLPack producer x (zero-copy unless
    copy=True; docs/interop.md).  device=None keeps x's device, so x must be
    on the CPU; device='cpu' asks a producer elsewhere for CPU memory."""
    from strided.core import dlpack as _dlpack
    from ._array import Array, check_device
    from ._dtypes import check_imported
    check_device(device)
    return Array._new(check_imported(_dlpack.to_core(x, copy=copy, to_cpu=device is not None),
                                     "from_dlpack"))


__all__ = ["from_dlpack"]

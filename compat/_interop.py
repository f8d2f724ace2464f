"""DLPack import into an Array (the standard's from_dlpack).  The crossing
to the Torch7 face is strided.interop (asarray(tensor) views a tensor's
memory through its `__strided_core__` record)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported inside from_dlpack at run time
    from ._array import Array, Device


def from_dlpack(x: object, /, *, device: Device | None = None, copy: bool | None = None) -> Array:
    """Returns a new array containing the data from another (array) object with a
    ``__dlpack__`` method.

    Parameters
    ----------
    x : object
        Input (array) object.
    device : device or None, optional
        Device on which to place the created array. Default: ``None``.
    copy : bool or None, optional
        Boolean indicating whether or not to copy the input. Default: ``None``.

    Returns
    -------
    Array
        An array containing the data in ``x``.

    Raises
    ------
    AttributeError
        If x is not a DLPack producer (it has no ``__dlpack__`` method).
    BufferError
        If the memory cannot be taken as asked: x lives on a device other
        than the CPU and cannot give CPU memory, ``copy=False`` where a copy
        is needed, or the producer returns no valid DLPack capsule.
    ValueError
        If device names no device of the namespace (only 'cpu').

    Notes
    -----
    An Array over the memory of DLPack producer x (zero-copy unless
    copy=True; docs/interop.md).  device=None keeps x's device, so x must be
    on the CPU; device='cpu' asks a producer elsewhere for CPU memory.

    Examples
    --------
    >>> import strided.compat as xp
    >>> import numpy as np
    >>> a = np.arange(3.0)
    >>> x = xp.from_dlpack(a)  # a view of numpy's memory
    >>> a[0] = 7.0
    >>> x
    Array([7., 1., 2.], dtype=float64)
    """
    from strided.core import dlpack as _dlpack
    from ._array import Array, check_device
    from ._dtypes import check_imported

    check_device(device)
    if copy is None and device is None:  # zero-copy, straight into an Array
        a, x = _dlpack.to_array(x)
        if a is not None:
            return check_imported(a, "from_dlpack")
    return Array._new(
        check_imported(_dlpack.to_core(x, copy=copy, to_cpu=device is not None), "from_dlpack")
    )


__all__ = ["from_dlpack"]

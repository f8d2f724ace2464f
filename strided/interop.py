"""The one crossing between the two faces: a Torch7 tensor and a
strided.compat Array over the same memory, no copy.

Each face's objects hand a new core view record over their memory to
`__strided_core__()`; the other face builds its object on that record.
Nothing else of one face is visible to the other (docs/architecture.md:
the import rule).  `strided.compat.asarray(tensor)` and `Tensor(array)`
use the same seam."""
from __future__ import annotations


def to_array(t, /):
    """A strided.compat Array viewing the memory of t (a Torch7 tensor or
    any object with `__strided_core__`), with t's shape, strides and dtype."""
    from strided.compat._array import Array
    from strided.compat._dtypes import check_imported
    if not hasattr(t, "__strided_core__"):
        raise TypeError(f"to_array: expected a Torch7 tensor, got {type(t).__name__}")
    return Array._new(check_imported(t.__strided_core__(), "to_array"))


def to_tensor(x, /):
    """A Torch7 tensor viewing the memory of x (a strided.compat Array, or
    any object with `__strided_core__`), of the tensor class of x's dtype
    whatever the default type (bool, uint16/32/64 and complex have none:
    TypeError; a 0-d array has no Torch7 form: ValueError)."""
    from strided.torch7.tensor import class_of_dtype
    if not hasattr(x, "__strided_core__"):
        raise TypeError(f"to_tensor: expected a strided.compat array, got {type(x).__name__}")
    cls = class_of_dtype(x.dtype.name)
    if cls is None:
        raise TypeError(f"to_tensor: Torch7 has no tensor type for {x.dtype.name}")
    return cls(x)           # the constructor views x through __strided_core__

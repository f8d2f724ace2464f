"""The class factory of the Torch7 face: ByteTensor ... DoubleTensor,
HalfTensor and BFloat16Tensor made from Tensor plus the spec's methods for
their element type (functions.py calls make_class with its method
tables).  Each made class is registered (registry.py)."""

from __future__ import annotations

from ..core import base as _core
from .docstrings import tensor_class_doc
from .registry import TENSOR_TYPES
from .storage import STORAGE_TYPES
from .tensor import Tensor


def make_class(name, dt, methods):
    """The typed class `name` of element type dt: Tensor plus the methods
    generated for dt from the spec (functions.py), registered by type name."""
    storage_cls = STORAGE_TYPES["torch." + name.replace("Tensor", "Storage")]
    cls = type(
        name,
        (Tensor,),
        {
            "__slots__": (),
            "_dt": dt,
            "_typename": "torch." + name,
            "_code": _core.dtype(dt).code,
            "_storage_cls": storage_cls,
            "__doc__": tensor_class_doc(name, dt),
            **methods,
        },
    )
    cls.__module__ = "strided"
    TENSOR_TYPES["torch." + name] = cls
    return cls


# Lua Torch7's HalfTensor methods: TH has no maths for Half, and its
# metatable (without the workarounds torch/test.lua adds for its own tests)
# has only these methods of the Tensor class.  Here HalfTensor has every
# method (the maths through float32: an extension, docs/torch7.md); this
# list says which of them a Lua program can count on.
HALF_METHODS = frozenset(
    """
    byte char chunk clone contiguous copy dim double elementSize expand expandAs float free half
    int isContiguous isSameSizeAs isSetTo isSize long nDimension nElement narrow new permute
    real repeatTensor resize resizeAs retain select set short size split storage storageOffset
    stride sub t totable transpose type typeAs unfold view viewAs""".split()
)

"""The class factory of the Torch7 face: ByteTensor ... DoubleTensor made
from Tensor plus the spec's methods for their element type (functions.py
calls make_class with its method tables), and HalfTensor, which has only
Lua's HalfTensor methods.  Each made class is registered (registry.py)."""
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
    cls = type(name, (Tensor,), {"__slots__": (), "_dt": dt, "_typename": "torch." + name,
                                 "_code": _core.dtype(dt).code, "_storage_cls": storage_cls,
                                 "__doc__": tensor_class_doc(name, dt), **methods})
    cls.__module__ = "strided"
    TENSOR_TYPES["torch." + name] = cls
    return cls


# ---------------------------------------------------------------- HalfTensor
# In Lua Torch7 a HalfTensor holds IEEE binary16 values but TH has no maths
# for them: its metatable (without the workarounds torch/test.lua adds for
# its own tests) has only these methods of the Tensor class.  The core's
# float16 is likewise a storage type (copy, cast, views).
HALF_METHODS = frozenset("""
    byte char chunk clone contiguous copy dim double elementSize expand expandAs float free half
    int isContiguous isSameSizeAs isSetTo isSize long nDimension nElement narrow new permute
    real repeatTensor resize resizeAs retain select set short size split storage storageOffset
    stride sub t totable transpose type typeAs unfold view viewAs""".split())
# Python-side helpers every tensor class has (no Torch7 method of that name)
_PYTHON_HELPERS = frozenset(("tolist", "numpy"))


class _NotInHalf:
    """A Tensor method that Lua's HalfTensor lacks: reading it raises
    AttributeError (so hasattr is False), as Lua's `attempt to call method
    'fill' (a nil value)`."""

    def __init__(self, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        raise AttributeError(f"torch.HalfTensor has no method {self.name!r}: Lua Torch7's "
                             f"HalfTensor has no maths (convert first, e.g. "
                             f"x.float().{self.name}(...), then back with .half())")


def _half_getitem(self, key):
    if isinstance(key, Tensor):
        raise TypeError("[]: ByteTensor indexing is not supported for a torch.HalfTensor "
                        "(as in Lua Torch7)")
    return Tensor.__getitem__(self, key)


def _half_setitem(self, key, value):
    if isinstance(key, Tensor):
        raise TypeError("[]=: ByteTensor indexing is not supported for a torch.HalfTensor "
                        "(as in Lua Torch7)")
    if not isinstance(value, Tensor) and self._locate(key)[0] != "elem":
        raise TypeError("[]=: a torch.HalfTensor cannot be filled with a number (Lua: fill on "
                        "torch.HalfTensor not yet supported); copy a tensor in, or set one "
                        "element")
    Tensor.__setitem__(self, key, value)


def make_half_class(math_methods=()):
    """torch.HalfTensor: float16 elements and only Lua's HalfTensor methods;
    the Tensor methods and the spec's `math_methods` it lacks say so."""
    names = {n for n in dir(Tensor) if not n.startswith("_")} | set(math_methods)
    blocked = {name: _NotInHalf(name) for name in names
               if name not in HALF_METHODS | _PYTHON_HELPERS}
    return make_class("HalfTensor", "float16", {**blocked, "__getitem__": _half_getitem,
                                                "__setitem__": _half_setitem})

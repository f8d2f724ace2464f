"""Generated from the spec (spec.py): the torch.* functions and the typed
tensor classes ByteTensor ... DoubleTensor, each the Tensor class of
tensor.py plus the methods the spec declares for its element type and
Torch7's operators.  Nothing is attached to a class after it is made."""
from __future__ import annotations

import builtins as _builtins

from ..core import base as _core
from ..core import rng as _random
from ..core.base import ffi, lib
from . import forms, maths, spec
from .storage import STORAGE_TYPES, Storage, _from_bytes, _raw_bytes
from .files import DiskFile, MemoryFile, PipeFile
from .fuse import fuse
from .t7file import (deserialize, deserializeFromStorage, load, save, serialize,
                     serializeToStorage)
from .utility import (Timer, class_, factory, getmetatable, isTypeOf, isequal, luatype,
                      pointer, setheaptracking, totable, typename)
from .tensor import (TENSOR_TYPES, TYPES, Tensor, _is_number, default_tensor_class,
                     getdefaulttensortype, isTensor, make_class, make_half_class,
                     setdefaulttensortype, tensor_from_dlpack)


# ---------------------------------------------------------------- utility functions

def type(obj, typename=None):   # noqa: A001 (Torch7's name)
    """The Torch7 type name of obj (a tensor converts, given a type name);
    for other values Lua's type name ('nil', 'boolean', 'number',
    'string', 'table', 'function'), else the Python type's name."""
    if isTensor(obj):
        return obj.type(typename)
    return luatype(obj)


def isStorage(obj):
    """True for the torch.*Storage types."""
    return isinstance(obj, Storage)


def data(t, asnumber=False):
    """A cffi pointer to the first element (typed, 0-based), or its address
    as an int with asnumber=True."""
    if not isTensor(t) and not isStorage(t):
        raise TypeError(f"data: expected a tensor or a storage, got "
                        f"{_builtins.type(t).__name__}")
    if isTensor(t):
        p = lib.st_tensor_data(t._c.t) if t._c.storage != ffi.NULL else ffi.NULL
    else:
        p = t._s.data
    if asnumber:
        return int(ffi.cast("uintptr_t", p))
    return ffi.cast(_core.dtype(t._dt).ctype + " *", p)


def cdata(t, asnumber=False):
    """A cffi pointer to the C tensor record (st_tensor *)."""
    p = t._c.t if isTensor(t) else t._s
    return int(ffi.cast("uintptr_t", p)) if asnumber else p


def _gen(args, name, n):
    """([generator,] rest...) -> (generator or None, rest)."""
    if args and isinstance(args[0], _random.Generator):
        gen, args = args[0], args[1:]
    else:
        gen = None
    if len(args) != n:
        raise TypeError(f"{name}: expected torch.{name}([generator]{', value' * n})")
    return gen, args


def manualSeed(*args):
    """manualSeed([generator,] seed): seed a generator (the default one)."""
    gen, (seed_,) = _gen(args, "manualSeed", 1)
    _random.manual_seed(seed_, gen)


def seed(*args):
    """seed([generator]): seed from the system's entropy; returns the seed."""
    gen, _ = _gen(args, "seed", 0)
    return _random.seed(gen)


def initialSeed(*args):
    """initialSeed([generator]): the seed the generator was last seeded with."""
    gen, _ = _gen(args, "initialSeed", 0)
    return _random.initial_seed(gen)


def getRNGState(*args):
    """getRNGState([generator]): the generator's state as a ByteTensor, as Lua."""
    gen, _ = _gen(args, "getRNGState", 0)
    state = _from_bytes(STORAGE_TYPES["torch.ByteStorage"], _random.get_state(gen))
    return CLASSES["ByteTensor"](state)


def setRNGState(*args):
    """setRNGState([generator,] state): restore a state from getRNGState."""
    gen, (state,) = _gen(args, "setRNGState", 1)
    if isinstance(state, Tensor):
        state = bytes(_raw_bytes(state.contiguous().storage()._s)[:state.nElement()])
    _random.set_state(state, gen)


for _f in (type, typename, isStorage, isTensor, data, cdata, setdefaulttensortype,
           getdefaulttensortype, _core.setnumthreads, _core.getnumthreads):
    spec.utility(_f.__name__, _f)
for _f in (manualSeed, seed, initialSeed, getRNGState, setRNGState):
    spec.utility(_f.__name__, _f, group="Random")
spec.utility("Generator", _random.Generator, group="Random")
for _f in (isTypeOf, isequal, pointer, class_, getmetatable, factory, setheaptracking,
           totable):
    spec.utility(_f.__name__, _f)
spec.utility("Timer", Timer, group="Timer")
for _f in (save, load, serialize, deserialize, serializeToStorage, deserializeFromStorage):
    spec.utility(_f.__name__, _f, group="Files")
spec.utility("from_dlpack", tensor_from_dlpack, group="Interop")
spec.utility("fuse", fuse, group="Elementwise")
spec.utility("DiskFile", DiskFile, group="Files")
spec.utility("MemoryFile", MemoryFile, group="Files")
spec.utility("PipeFile", PipeFile, group="Files")


# ---------------------------------------------------------------- operators
# As Lua's TensorOperator.c: + and - between tensors and numbers in both
# orders, * also (tensor * tensor is dot / mv / mm), / and % only a tensor
# by a number (% is remainder: floored), unary minus.

def _operator(op, symbol, reflected=False, tensors=True):
    """tensor op (tensor of the same type and element count | number), and
    number op tensor when reflected; tensors=False: numbers only."""
    forward, backward = maths.binary(op, symbol), maths.reversed_binary(op)

    def method(self, other):
        if not (_is_number(other) or tensors and isinstance(other, Tensor)):
            return NotImplemented
        if reflected:
            return backward(self.__class__(), other, self)
        return forward(self.__class__(), self, other)
    method.__name__ = f"__{'r' if reflected else ''}{op}__"
    return method


def _mul(self, other):
    if isinstance(other, Tensor):
        return maths.matrix_product(self, other)
    if not _is_number(other):
        return NotImplemented
    return maths.binary("multiply", "*")(self.__class__(), self, other)


def _neg(self):
    return maths.unary("negative")(self.__class__(), self)


OPERATORS = {
    "__add__": _operator("add", "+"), "__radd__": _operator("add", "+"),
    "__sub__": _operator("subtract", "-"), "__rsub__": _operator("subtract", "-", True),
    "__mul__": _mul, "__rmul__": lambda self, other: _mul(self, other),
    "__truediv__": _operator("divide", "/", tensors=False),
    "__mod__": _operator("remainder", "%", tensors=False),
    "__neg__": _neg,
}


# ---------------------------------------------------------------- generation

FUNCTIONS = forms.function_table(spec.ENTRIES)

CLASSES = {name: make_class(name, dt, {**forms.method_table(spec.ENTRIES, dt), **OPERATORS})
           for name, dt in TYPES}
ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor, FloatTensor, DoubleTensor = (
    CLASSES[name] for name, _ in TYPES)
# no spec entry nor operator: Lua's HalfTensor has no maths (tensor.py)
CLASSES["HalfTensor"] = HalfTensor = make_half_class(e.name for e in spec.ENTRIES if e.method)

__all__ = sorted(FUNCTIONS)
assert set(TENSOR_TYPES) == {"torch." + n for n in CLASSES}
assert default_tensor_class() in CLASSES.values()

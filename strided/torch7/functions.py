"""Generated from the spec (spec.py): the torch.* functions and the typed
tensor classes ByteTensor ... DoubleTensor, each the Tensor class of
tensor.py plus the methods the spec declares for its element type and
Torch7's operators.  Nothing is attached to a class after it is made."""

from __future__ import annotations

import builtins as _builtins
import functools
from typing import TYPE_CHECKING

from ..core import base as _core
from ..core import rng as _random
from ..core import storage as _storage
from . import forms, maths, spec
from .storage import STORAGE_TYPES, Storage, _from_bytes, _raw_bytes
from .files import DiskFile, MemoryFile, PipeFile
from .fuse import fuse
from .t7file import deserialize, deserializeFromStorage, load, save, serialize, serializeToStorage
from .utility import (
    Timer,
    class_,
    factory,
    getmetatable,
    isTypeOf,
    isequal,
    luatype,
    newmetatable,
    pointer,
    setheaptracking,
    setmetatable,
    totable,
    typename,
    version,
)
from .classes import make_class
from .core_ops import run_op
from .registry import (
    HALF_TYPES,
    TENSOR_TYPES,
    TYPES,
    default_tensor_class,
    getdefaulttensortype,
    setdefaulttensortype,
)
from .tensor import Tensor, _is_number, isTensor, tensor_from_dlpack

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
from .overloads import overload

if TYPE_CHECKING:
    from typing import Any

    from ..core.rng import Generator


# ---------------------------------------------------------------- utility functions


@overload
def type(obj: object, typename: None = ...) -> str: ...
@overload
def type(obj: Tensor, typename: str | type[Tensor]) -> Tensor: ...


def type(
    obj: object,  # Torch7's name
    typename: str | type[Tensor] | None = None,
) -> str | Tensor:
    """The Torch7 type name of obj, or obj converted to another tensor type.

    Parameters
    ----------
    obj : object
        A tensor, or any value.
    typename : str, optional
        For a tensor: the type to convert to ('torch.FloatTensor', ...).

    Returns
    -------
    str or Tensor
        The type name ('torch.DoubleTensor'; for other values Lua's type name:
        'nil', 'boolean', 'number', 'string', 'table', 'function', else the
        Python type's name), or, given typename, the converted tensor (obj
        itself when it already has that type).

    Raises
    ------
    TypeError
        When typename names no tensor type.

    Notes
    -----
    Lua's ``torch.type``; Python values map to the Lua types they play (None
    is 'nil', a list or dict 'table').

    Examples
    --------
    >>> import strided as torch
    >>> torch.type(torch.LongTensor(2)), torch.type(3), torch.type(None)
    ('torch.LongTensor', 'number', 'nil')
    >>> torch.type(torch.Tensor([1.5]), 'torch.IntTensor')
     1
    [torch.IntTensor of dimension 1]
    """
    if isTensor(obj):
        return obj.type(typename)
    return luatype(obj)


def isStorage(obj: object) -> bool:
    """True for the torch.*Storage types.

    Parameters
    ----------
    obj : object
        Any value.

    Returns
    -------
    bool

    Raises
    ------
    Nothing
        Any value is accepted.

    Notes
    -----
    Lua's ``torch.isStorage``.

    Examples
    --------
    >>> import strided as torch
    >>> torch.isStorage(torch.DoubleStorage(2)), torch.isStorage(torch.Tensor(2))
    (True, False)
    """
    return isinstance(obj, Storage)


def data(t: Tensor | Storage, asnumber: bool = False) -> Any:
    """A cffi pointer to the first element of a tensor or a storage.

    Parameters
    ----------
    t : Tensor or Storage
    asnumber : bool, optional
        True: the address as an int instead.

    Returns
    -------
    cffi pointer or int
        Typed by the element type and 0-based, as C's; NULL (or 0) for a
        tensor without storage.

    Raises
    ------
    TypeError
        When t is neither a tensor nor a storage.

    Notes
    -----
    Lua's ``torch.data``, for handing memory to C through cffi.  The pointer is
    valid while t (or its storage) lives.

    Examples
    --------
    >>> import strided as torch
    >>> t = torch.Tensor([5, 6])
    >>> torch.data(t)[1]
    6.0
    """
    if not isTensor(t) and not isStorage(t):
        raise TypeError(f"data: expected a tensor or a storage, got {_builtins.type(t).__name__}")
    if isTensor(t):
        p = t._c.address if t._c.storage else 0  # the first element's
    else:
        p = _storage.address(t._s.data)
    if asnumber:
        return p
    return _storage.typed_pointer(p, _core.dtype(t._dt).ctype)


def cdata(t: Tensor | Storage, asnumber: bool = False) -> Any:
    """A cffi pointer to the C record of a tensor (``st_tensor *``) or storage.

    Parameters
    ----------
    t : Tensor or Storage
    asnumber : bool, optional
        True: the address as an int instead.

    Returns
    -------
    cffi pointer or int

    Raises
    ------
    AttributeError
        When t is neither a tensor nor a storage.

    Notes
    -----
    Lua's ``torch.cdata``; the record is the core's (strided/_c/strided.h).

    Examples
    --------
    >>> import strided as torch
    >>> torch.cdata(torch.Tensor(2), True) > 0
    True
    """
    p = t._c.t if isTensor(t) else t._s
    return _storage.address(p) if asnumber else p


def _gen(args, name, n, optional=0):
    """([generator,] rest...) -> (generator or None, rest): n values, and up
    to `optional` more."""
    if args and isinstance(args[0], _random.Generator):
        gen, args = args[0], args[1:]
    else:
        gen = None
    if not n <= len(args) <= n + optional:
        raise TypeError(
            f"{name}: expected torch.{name}([generator]{', value' * n}{'[, value]' * optional})"
        )
    return gen, args


@overload
def manualSeed(seed: int, /) -> None: ...
@overload
def manualSeed(generator: Generator, seed: int, /) -> None: ...


def manualSeed(*args: Any) -> None:
    """Seed a generator (the default one).

    Parameters
    ----------
    generator : Generator, optional
        The generator; left out: the default one.
    seed : int
        The seed.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        For a wrong number of arguments.

    Notes
    -----
    ``manualSeed([generator,] seed)`` as Lua's; the same seed gives Lua's
    Mersenne Twister stream.

    Examples
    --------
    >>> import strided as torch
    >>> torch.manualSeed(7)
    >>> a = torch.rand(1)[1]
    >>> torch.manualSeed(7)
    >>> torch.rand(1)[1] == a
    True
    """
    gen, (seed_,) = _gen(args, "manualSeed", 1)
    _random.manual_seed(seed_, gen)


@overload
def seed() -> int: ...
@overload
def seed(generator: Generator, /) -> int: ...


def seed(*args: Any) -> int:
    """Seed a generator (the default one) from the system's entropy.

    Parameters
    ----------
    generator : Generator, optional
        The generator; left out: the default one.

    Returns
    -------
    int
        The seed used.

    Raises
    ------
    TypeError
        For a wrong number of arguments.

    Notes
    -----
    ``seed([generator])`` as Lua's.

    Examples
    --------
    >>> import strided as torch
    >>> s = torch.seed()
    >>> torch.initialSeed() == s
    True
    """
    gen, _ = _gen(args, "seed", 0)
    return _random.seed(gen)


@overload
def initialSeed() -> int: ...
@overload
def initialSeed(generator: Generator, /) -> int: ...


def initialSeed(*args: Any) -> int:
    """The seed a generator (the default one) was last seeded with.

    Parameters
    ----------
    generator : Generator, optional
        The generator; left out: the default one.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        For a wrong number of arguments.

    Notes
    -----
    ``initialSeed([generator])`` as Lua's.

    Examples
    --------
    >>> import strided as torch
    >>> torch.manualSeed(123)
    >>> torch.initialSeed()
    123
    """
    gen, _ = _gen(args, "initialSeed", 0)
    return _random.initial_seed(gen)


@overload
def getRNGState(state: ByteTensor | None = ..., /) -> ByteTensor: ...
@overload
def getRNGState(generator: Generator, state: ByteTensor | None = ..., /) -> ByteTensor: ...


def getRNGState(*args: Any) -> ByteTensor:
    """The state of a generator (the default one), as a ByteTensor.

    Parameters
    ----------
    generator : Generator, optional
        The generator; left out: the default one.
    state : ByteTensor, optional
        Filled with the state (resized) and returned, as Lua's.

    Returns
    -------
    ByteTensor
        The Mersenne Twister's state, for setRNGState.

    Raises
    ------
    TypeError
        For a wrong number of arguments.

    Notes
    -----
    ``getRNGState([generator,] [state])`` as Lua's.

    Examples
    --------
    >>> import strided as torch
    >>> state = torch.getRNGState()
    >>> a = torch.rand(2)
    >>> _ = torch.setRNGState(state)       # returns the state, as in Lua
    >>> torch.equal(torch.rand(2), a)
    True
    """
    gen, given = _gen(args, "getRNGState", 0, optional=1)
    state = CLASSES["ByteTensor"](
        _from_bytes(STORAGE_TYPES["torch.ByteStorage"], _random.get_state(gen))
    )
    if not given or given[0] is None:
        return state
    if not isinstance(given[0], CLASSES["ByteTensor"]):
        raise TypeError(
            f"getRNGState: state must be a torch.ByteTensor, got "
            f"{getattr(given[0], '_typename', given[0].__class__.__name__)}"
        )
    return given[0].resizeAs(state).copy(state)


@overload
def setRNGState(state: ByteTensor, /) -> ByteTensor: ...
@overload
def setRNGState(state: bytes, /) -> bytes: ...
@overload
def setRNGState(generator: Generator, state: ByteTensor, /) -> ByteTensor: ...
@overload
def setRNGState(generator: Generator, state: bytes, /) -> bytes: ...


def setRNGState(*args: Any) -> ByteTensor | bytes:
    """Restore a generator's state (the default one's) from getRNGState.

    Parameters
    ----------
    generator : Generator, optional
        The generator; left out: the default one.
    state : ByteTensor or bytes
        A state from getRNGState.

    Returns
    -------
    ByteTensor or bytes
        The state given (Lua returns its ByteTensor).

    Raises
    ------
    TypeError
        For a wrong number of arguments.
    ValueError
        For a state of the wrong size.

    Notes
    -----
    ``setRNGState([generator,] state)`` as Lua's.

    Examples
    --------
    >>> import strided as torch
    >>> state = torch.getRNGState()
    >>> x = torch.randn(1)[1]
    >>> torch.setRNGState(state) is state
    True
    >>> torch.randn(1)[1] == x
    True
    """
    gen, (given,) = _gen(args, "setRNGState", 1)
    state = given
    if isinstance(state, Tensor):
        c, n = state.contiguous(), state.nElement()
        state = _raw_bytes(c.storage()._s)[c.storageOffset() - 1 :][:n] if n else b""
    _random.set_state(state, gen)
    return given


for _f in (
    type,
    typename,
    isStorage,
    isTensor,
    data,
    cdata,
    setdefaulttensortype,
    getdefaulttensortype,
    _core.setnumthreads,
    _core.getnumthreads,
):
    spec.utility(_f.__name__, _f)
for _f in (manualSeed, seed, initialSeed, getRNGState, setRNGState):
    spec.utility(_f.__name__, _f, group="Random")
spec.utility("Generator", _random.Generator, group="Random")
for _f in (
    isTypeOf,
    isequal,
    pointer,
    class_,
    getmetatable,
    factory,
    setheaptracking,
    totable,
    newmetatable,
    setmetatable,
    version,
):
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
# by a number (% is remainder: floored), unary minus; @ (not in Lua) is *
# between tensors and bmm.


def _runs(name):
    """op_of(dt) -> the core op Torch7's `name` runs for type dt (the op
    table's choice: / divides integers toward zero, as div does)."""
    return functools.partial(run_op, name)


def _operator(op_of, symbol, reflected=False, tensors=True):
    """tensor op (tensor of the same type and element count | number), and
    number op tensor when reflected; tensors=False: numbers only."""
    forward, backward = maths.binary(symbol, op_of), maths.reversed_binary(symbol, op_of)

    def method(self, other):
        if not (_is_number(other) or tensors and isinstance(other, Tensor)):
            return NotImplemented
        if reflected:
            return backward(self.__class__(), other, self)
        return forward(self.__class__(), self, other)

    return method


def _mul(self, other):
    if isinstance(other, Tensor):
        return maths.matrix_product(self, other)
    if not _is_number(other):
        return NotImplemented
    return _mul_number(self.__class__(), self, other)


def _matmul(self, other):
    # an extension beyond Lua (Python's matrix product operator): dot, mv,
    # mm and bmm by the operands' dimensions (docs/torch7.md)
    if not isinstance(other, Tensor):
        return NotImplemented
    return maths.matrix_product(self, other, "@")


_mul_number = maths.binary("*", _runs("mul"))
_negative = maths.unary("neg")


def _neg(self):
    return _negative(self.__class__(), self)


OPERATORS = {
    "__add__": _operator(_runs("add"), "+"),
    "__radd__": _operator(_runs("add"), "+"),
    "__sub__": _operator(_runs("csub"), "-"),
    "__rsub__": _operator(_runs("csub"), "-", True),
    "__mul__": _mul,
    "__rmul__": lambda self, other: _mul(self, other),
    "__matmul__": _matmul,
    "__truediv__": _operator(_runs("div"), "/", tensors=False),
    # % is the core's remainder (Python's: the divisor's sign), which no
    # Torch7 function runs (remainder is Torch7's a - b * floor(a / b))
    "__mod__": _operator(lambda dt: "remainder", "%", tensors=False),
    "__neg__": _neg,
}
for _key, _f in OPERATORS.items():
    if _f.__name__ == "method":  # made by _operator
        _f.__name__ = _f.__qualname__ = _key


# ---------------------------------------------------------------- generation

FUNCTIONS = forms.function_table(spec.ENTRIES)

CLASSES = {
    name: make_class(name, dt, {**forms.method_table(spec.ENTRIES, dt), **OPERATORS})
    for name, dt in TYPES
}
ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor, FloatTensor, DoubleTensor = (
    CLASSES[name] for name, _ in TYPES
)
# the 16-bit floats: Lua's HalfTensor has no maths; here it and the
# extension's BFloat16Tensor have the spec's, computed through float32
CLASSES.update(
    {
        name: make_class(name, dt, {**forms.method_table(spec.ENTRIES, dt), **OPERATORS})
        for name, dt in HALF_TYPES
    }
)
HalfTensor, BFloat16Tensor = CLASSES["HalfTensor"], CLASSES["BFloat16Tensor"]

__all__ = sorted(FUNCTIONS)
assert set(TENSOR_TYPES) == {"torch." + n for n in CLASSES}
assert default_tensor_class() in CLASSES.values()

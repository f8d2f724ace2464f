"""utility.md and timer.md names that are not tensor functions: Torch
type names (`typename`, `type`) and the type predicates `isTypeOf` and
`isequal`, `pointer`, and `torch.Timer`."""

from __future__ import annotations

import numbers
import os
import re
import sys
import time
import types
from typing import TYPE_CHECKING

from ..core import storage as _storage
from ..core.rng import Generator

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated; they name its classes.
if TYPE_CHECKING:
    from typing import Any, Callable

    from typing_extensions import Self

    from .storage import Storage
    from .tensor import Tensor

# Torch7 names of classes the face did not make with a _typename of its own
_NAMED = {Generator: "torch.Generator"}


def _own_typename(cls):
    """The Torch7 name cls itself declares, else None (a plain Python
    subclass inherits its parent's class attribute, not its name)."""
    name = cls.__dict__.get("_typename", _NAMED.get(cls))
    return name if isinstance(name, str) else None


def typename(obj: object) -> str | None:
    """The Torch class name of an object, as Lua's ``torch.typename``.

    Parameters
    ----------
    obj : object
        A tensor, storage, Generator, Timer, File or torch.class_ instance.

    Returns
    -------
    str or None
        'torch.DoubleTensor', ...; None for other values and for classes
        themselves (in Lua those are constructor tables).

    Raises
    ------
    Nothing

    Notes
    -----
    Lua's torch.typename: the Torch class name of obj (a tensor, a
    storage, a Generator, a Timer, a File, an instance of a class made by
    torch.class_), else None.  Classes themselves have none (in Lua they
    are constructor tables).

    Examples
    --------
    >>> import strided as torch
    >>> torch.typename(torch.IntTensor()), torch.typename(3)
    ('torch.IntTensor', None)
    """
    if isinstance(obj, type):
        return None
    for cls in type(obj).__mro__:
        name = _own_typename(cls)
        if name:
            return name
    return None


def _lua_type(obj):
    """Lua's type() of the Lua value a Python value stands for (as the
    .t7 serialization maps them); Python's type name for anything else."""
    if obj is None:
        return "nil"
    if isinstance(obj, bool):
        return "boolean"
    if isinstance(obj, numbers.Real):
        return "number"
    if isinstance(obj, (str, bytes)):
        return "string"
    if isinstance(obj, (list, tuple, dict)):
        return "table"
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return "function"
    return type(obj).__name__


def luatype(obj):
    """Lua's torch.type: torch.typename(obj), else Lua's type name of it
    ('nil', 'boolean', 'number', 'string', 'table', 'function')."""
    return typename(obj) or _lua_type(obj)


def _typenames(obj):
    """The Torch7 type names of obj's class and its Torch bases, nearest
    first (Lua's metatable chain)."""
    if isinstance(obj, type):
        return []
    return [n for n in map(_own_typename, type(obj).__mro__) if n]


def isTypeOf(obj: object, spec: type | str) -> bool:
    """Whether an object is of the type a spec names, or of a subtype.

    Parameters
    ----------
    obj : object
    spec : type or str
        A class, or a type name ('torch.DoubleTensor'), which may be a pattern.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        When spec is neither a class nor a string.

    Notes
    -----
    True when obj is of the type spec names, or of a subclass: spec is a
    class, or a type name ('torch.DoubleTensor'), which may be a pattern,
    as Lua's (here: a regular expression searched in the name, so
    'torch.*Tensor' matches every tensor type).  As in Lua, a match that
    is the spec itself must be the whole name ('torch.Long' is no
    LongTensor, 'TorchDummy' no OtherTorchDummy).

    Examples
    --------
    >>> import strided as torch
    >>> torch.isTypeOf(torch.LongTensor(), 'torch.*Tensor'), torch.isTypeOf(torch.LongTensor(), 'torch.Long')
    (True, False)
    """
    if isinstance(spec, type):
        return isinstance(obj, spec)
    if not isinstance(spec, str):
        raise TypeError(
            f"isTypeOf: typeSpec must be a type name or a class, got {type(spec).__name__}"
        )
    pattern = re.compile(spec)
    for name in _typenames(obj):
        m = pattern.search(name)
        if m and (m.group() != spec or m.group() == name):
            return True
    return False


# ---------------------------------------------------------------- torch.class

registry = {}
"""The classes made by class_, by Torch name (Lua's registry entries):
deleting a name here (Lua: debug.getregistry()[name] = nil) frees it for
a new class_."""


BUILTIN_CLASSES: list[type] = []
"""Torch classes named by the modules that define them (files.py adds its
File classes when imported): a list filled from below, so that this module
imports none of them."""


def _builtin_classes():
    from .storage import STORAGE_TYPES
    from .registry import TENSOR_TYPES

    named = {**TENSOR_TYPES, **STORAGE_TYPES}
    for cls in (Generator, Timer, *BUILTIN_CLASSES):
        named[_own_typename(cls)] = cls
    return named


def getmetatable(name: str) -> type | None:
    """The Torch class of a name, as Lua's ``torch.getmetatable``.

    Parameters
    ----------
    name : str
        'torch.DoubleTensor', 'torch.Generator', a torch.class_ name, ...

    Returns
    -------
    type or None
        The class, which holds its methods; None for an unknown name.

    Raises
    ------
    Nothing

    Notes
    -----
    Lua's torch.getmetatable(name): the Torch class of that name (one
    made by class_, a tensor or storage class, Generator, Timer, File,
    DiskFile, MemoryFile), or None; it holds the class's methods.

    Examples
    --------
    >>> import strided as torch
    >>> torch.getmetatable('torch.LongTensor') is torch.LongTensor
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"getmetatable: name must be a string, got {type(name).__name__}")
    return registry.get(name) or _builtin_classes().get(name)


def factory(name: str) -> Callable[[], Any] | None:
    """A function making an empty object of a Torch class, as Lua's ``torch.factory``.

    Parameters
    ----------
    name : str
        The Torch class name.

    Returns
    -------
    callable or None
        Makes an object without calling its __init__; None when the class is
        unknown or has no factory (Timer, the Files).

    Raises
    ------
    Nothing

    Notes
    -----
    Lua's torch.factory(name): a function making an empty object of that
    Torch class without calling its __init__ (for a tensor or storage class:
    an empty one; Generator: a new generator), or None when the class is
    unknown or, as Lua's Timer and Files, has no factory.

    Examples
    --------
    >>> import strided as torch
    >>> torch.factory('torch.FloatTensor')().type()
    'torch.FloatTensor'
    """
    cls = getmetatable(name)
    if cls is None or cls in (Timer,) or _is_file(cls):
        return None
    if name in registry:
        return lambda: cls.__new__(cls)
    return lambda: cls()


def _is_file(cls):
    # BUILTIN_CLASSES[0] is files.py's File, the base of the others
    return bool(BUILTIN_CLASSES) and issubclass(cls, BUILTIN_CLASSES[0])


def _root_init(self, *args, **kwargs):
    """A class without __init__ of its own ignores its constructor's
    arguments, as Lua's (which calls self:__init(...) only when defined)."""


def _module_of(name, prefix):
    """The loaded package of a dotted class name ('torch' is strided)."""
    if prefix == "torch" or prefix.startswith("torch."):
        first, _, rest = prefix.partition(".")
        obj = sys.modules[__name__.split(".")[0]]
        parts = rest.split(".") if rest else []
    elif prefix in sys.modules:
        return sys.modules[prefix]
    else:
        first, *parts = prefix.split(".")
        obj = sys.modules.get(first)
    for p in parts:
        obj = getattr(obj, p, None)
    if obj is None:
        raise ValueError(
            f"class_: while creating {name}: {prefix} is an invalid module name "
            f"(not a loaded module)"
        )
    return obj


def class_(name: str, *args: object) -> tuple[type, type | None]:
    """A new Torch class, as Lua's ``torch.class`` (``class`` is a Python keyword).

    Parameters
    ----------
    name : str
        The class name ('nn.Linear', say).
    *args : str
        The parent class's name and a module table, both optional, as Lua's
        ``torch.class(name [, parentName] [, module])``.

    Returns
    -------
    tuple
        (cls, parent): the new class and its parent (None without one).

    Raises
    ------
    ValueError
        When the name is taken or the parent is unknown.

    Notes
    -----
    Lua's ``torch.class(name [, parentName] [, module])`` (`class` is a Python
    keyword): a new Torch class `name`, returned with its parent class (None
    without one) as (cls, parent).

    cls() makes an instance and calls its __init__ (Lua's __init) with the
    arguments; methods are added to cls (Lua's function Foo:bar() ... end
    is Foo.bar = bar); with a parent, cls is a Python subclass of it, so
    parent.__init__(self, ...) calls the parent's initializer.  The name is
    registered: torch.typename, torch.type and torch.isTypeOf know the
    instances, torch.getmetatable(name) gives cls and torch.factory(name) a
    maker of empty instances.  As Lua, cls is also set as the attribute
    `className` of `module` (a module, a dict or any object), or, for a
    name `package.className`, of that loaded package ('torch.' is strided
    itself); a plain name is set nowhere (Python has no global table).  A
    name already registered raises ValueError.

    Examples
    --------
    >>> import strided as torch
    >>> Foo, parent = torch.class_('DocFoo')
    >>> def init(self, n):
    ...     self.n = n
    >>> Foo.__init__ = init
    >>> torch.typename(Foo(3)), Foo(3).n, parent
    ('DocFoo', 3, None)
    """
    usage = (
        "class_(name [, parentName] [, module]): <class name> [<parent class name>] "
        "[<module table>] expected"
    )
    if not isinstance(name, str) or len(args) > 2:
        raise TypeError(usage)
    parent_name, module = None, None
    if len(args) == 2:
        parent_name, module = args
        if not isinstance(parent_name, (str, type)) or module is None:
            raise TypeError(usage)
    elif len(args) == 1:
        if isinstance(args[0], (str, type)):
            parent_name = args[0]
        elif args[0] is not None:
            module = args[0]
    if getmetatable(name) is not None:
        raise ValueError(f"class_: {name} is already a Torch class")
    parent = None
    if parent_name is not None:
        parent = getmetatable(parent_name) if isinstance(parent_name, str) else parent_name
        if parent is None or not _own_typename(parent):
            raise ValueError(f"class_: invalid parent class name {parent_name!r}")
    prefix, _, root = name.rpartition(".")
    if module is None and prefix:
        module = _module_of(name, prefix)
    # __module__: the package, else the caller's module (as namedtuple does)
    body = {
        "_typename": name,
        "__qualname__": root,
        "__module__": prefix or sys._getframe(1).f_globals.get("__name__", "__main__"),
    }
    if parent is None:
        body["__init__"] = _root_init
    cls = type(root, (parent,) if parent else (), body)
    registry[name] = cls
    if isinstance(module, dict):
        module[root] = cls
    elif module is not None:
        setattr(module, root, cls)
    return cls, parent


def totable(obj: Tensor | Storage) -> list[Any]:
    """A tensor's elements as nested lists, or a storage's as a list.

    Parameters
    ----------
    obj : Tensor or Storage

    Returns
    -------
    list

    Raises
    ------
    TypeError
        For anything else.

    Notes
    -----
    Lua's ``torch.totable``; the lists hold Python numbers.

    Examples
    --------
    >>> import strided as torch
    >>> torch.totable(torch.LongTensor([[1, 2], [3, 4]]))
    [[1, 2], [3, 4]]
    """
    from .storage import Storage
    from .tensor import Tensor

    if not isinstance(obj, (Tensor, Storage)):
        raise TypeError(f"totable: obj must be a Storage or a Tensor, got {type(obj).__name__}")
    return obj.totable()


def isequal(a: object, b: object) -> bool:
    """Whether a and b are the same object, as Lua's ``torch.isequal``.

    Parameters
    ----------
    a, b : object

    Returns
    -------
    bool

    Raises
    ------
    Nothing

    Notes
    -----
    True when a and b are the same object (Lua: the same address), as
    Lua's torch.isequal for tables and Torch objects.

    Examples
    --------
    >>> import strided as torch
    >>> t = torch.Tensor(2)
    >>> torch.isequal(t, t), torch.isequal(t, torch.Tensor(2))
    (True, False)
    """
    return a is b


def pointer(obj: object) -> int:
    """A unique number for an object, as Lua's ``torch.pointer``.

    Parameters
    ----------
    obj : object

    Returns
    -------
    int
        For a tensor or storage: the address of its C record.

    Raises
    ------
    Nothing

    Notes
    -----
    A unique number for obj (for a tensor or storage: the address of its
    C record, as Lua's torch.pointer gives the userdata's).

    Examples
    --------
    >>> import strided as torch
    >>> t = torch.Tensor(2)
    >>> torch.pointer(t) == torch.pointer(t)
    True
    """
    c = getattr(obj, "_c", None)
    if c is not None and hasattr(c, "t"):
        return _storage.address(c.t)
    s = getattr(obj, "_s", None)
    if s is not None:
        return _storage.address(s)
    return id(obj)


# ---------------------------------------------------------------- heap tracking

_heaptracking = [True]  # Lua's init.lua turns it on when torch loads


def setheaptracking(enabled: bool) -> None:
    """Lua's ``torch.setheaptracking``: sets ``torch._heaptracking``.

    Parameters
    ----------
    enabled : bool

    Returns
    -------
    None

    Raises
    ------
    TypeError
        When enabled is not a bool.

    Notes
    -----
    Lua's torch.setheaptracking(enabled): sets torch._heaptracking.

    In Lua it makes TH's allocator run Lua's garbage collector when the
    heap grows: Lua's collector sees a tensor as a small userdata, not the
    memory of its storage, and would otherwise let large dead tensors
    pile up.  Under Python the switch changes nothing else: a storage's
    memory is freed by reference counting the moment its last tensor or
    storage object goes (cffi's ffi.gc on the C record), so there is no
    dead memory for a collection to find (only tensors held in reference
    cycles wait for Python's cycle collector, which the switch does not
    drive).

    Examples
    --------
    >>> import strided as torch
    >>> torch.setheaptracking(True)
    >>> torch._heaptracking
    True
    >>> torch.setheaptracking(False)
    """
    if not isinstance(enabled, bool):
        raise TypeError(
            f"setheaptracking: enabled must be True or False, got {type(enabled).__name__}"
        )
    _heaptracking[0] = enabled


def heaptracking():
    """The value of torch._heaptracking (the last setheaptracking)."""
    return _heaptracking[0]


class Timer:
    """A timer, as Lua's ``torch.Timer``: counts from its creation.

    Raises
    ------
    TypeError
        When given arguments.

    Notes
    -----
    torch.Timer(): counts from its creation; reset(), stop(), resume()
    return the timer; time() gives {'real', 'user', 'sys'} seconds
    accumulated while it ran (user and sys: this process's CPU time).

    Examples
    --------
    >>> import strided as torch
    >>> t = torch.Timer()
    >>> sorted(t.stop().time())
    ['real', 'sys', 'user']
    """

    _typename = "torch.Timer"

    def __init__(self) -> None:
        self._total = {"real": 0.0, "user": 0.0, "sys": 0.0}
        self._since = None
        self.resume()

    @staticmethod
    def _now():
        t = os.times()
        return {"real": time.perf_counter(), "user": t.user, "sys": t.system}

    def _running(self):
        if self._since is None:
            return dict(self._total)
        now = self._now()
        return {k: self._total[k] + now[k] - self._since[k] for k in self._total}

    def reset(self) -> Self:
        """t:reset(): the counts back to 0 (still running or stopped as before); returns t."""
        self._total = {k: 0.0 for k in self._total}
        if self._since is not None:
            self._since = self._now()
        return self

    def stop(self) -> Self:
        """t:stop(): the counting paused; returns t."""
        if self._since is not None:
            self._total = self._running()
            self._since = None
        return self

    def resume(self) -> Self:
        """t:resume(): the counting resumed; returns t."""
        if self._since is None:
            self._since = self._now()
        return self

    def time(self) -> dict[str, float]:
        """t:time(): {'real', 'user', 'sys'}: the seconds counted while running (user, sys:
        this process's CPU time)."""
        return self._running()


def newmetatable(
    name: str, parentName: str | None = None, constructor: Callable[..., Any] | None = None
) -> type:
    """A new Torch class, as Lua's ``torch.newmetatable`` (what ``torch.class`` is built on).

    Parameters
    ----------
    name : str
        The class name ('nn.Linear', say).
    parentName : str or None, optional
        The parent class's name.
    constructor : callable or None, optional
        Set under the name in its package (``package.className``) in
        place of the class, as Lua assigns it to the variable ``name``.

    Returns
    -------
    type
        The new class (Lua: its metatable, which holds its methods).

    Raises
    ------
    ValueError
        When the name is taken or the parent is unknown.

    Notes
    -----
    The class is registered as class_'s are (typename, getmetatable,
    factory know it); a plain name is set nowhere (Python has no global
    table), as for class_.

    Examples
    --------
    >>> import strided as torch
    >>> Meta = torch.newmetatable('DocMeta')
    >>> torch.typename(torch.factory('DocMeta')()), torch.version(Meta())
    ('DocMeta', 1)
    """
    cls, _ = class_(name, parentName)  # class_ takes a None parent as none
    prefix, _, root = name.rpartition(".")
    if constructor is not None and prefix:
        setattr(_module_of(name, prefix), root, constructor)
    return cls


def setmetatable(table: dict[str, Any], classname: str) -> Any:
    """An object of a Torch class made of a table's entries, as Lua's ``torch.setmetatable``.

    Parameters
    ----------
    table : dict
        The fields (Lua's table): they become the object's attributes.
    classname : str
        A class made by class_ or newmetatable.

    Returns
    -------
    object
        An instance of the class, its __init__ not called, with the
        table's entries as attributes.

    Raises
    ------
    ValueError
        For an unknown class name (Lua: ``unknown typename``).
    TypeError
        When table is not a dict, or the class is a built-in one (a tensor,
        storage, file or timer has no fields to take).

    Notes
    -----
    Lua gives a table the class's metatable in place; a Python dict cannot
    change its class, so the object is a new instance holding the dict's
    entries (the values themselves, not copies).

    Examples
    --------
    >>> import strided as torch
    >>> Pt, _ = torch.class_('DocPoint')
    >>> p = torch.setmetatable({'x': 1, 'y': 2}, 'DocPoint')
    >>> torch.typename(p), p.x + p.y
    ('DocPoint', 3)
    """
    if not isinstance(classname, str):
        raise TypeError(f"setmetatable: classname must be a string, got {type(classname).__name__}")
    cls = getmetatable(classname)
    if cls is None:
        raise ValueError(f"setmetatable: unknown typename {classname}")
    if not isinstance(table, dict):
        raise TypeError(f"setmetatable: table must be a dict, got {type(table).__name__}")
    if classname not in registry:
        raise TypeError(
            f"setmetatable: {classname} is a built-in class, whose objects hold no "
            f"fields of a table"
        )
    obj = cls.__new__(cls)
    vars(obj).update(table)
    return obj


def version(obj: object) -> int | float | None:
    """The version of an object's Torch class, as Lua's ``torch.version``.

    Parameters
    ----------
    obj : object
        Any object.

    Returns
    -------
    number or None
        The class's ``__version`` (1 unless the class sets another, as
        every Lua Torch class has); None for an object of no Torch class.

    Raises
    ------
    Nothing

    Notes
    -----
    Lua reads the field ``__version`` of the object's metatable; here the
    class attribute ``__version`` (set outside a class body, where Python
    would mangle the name: ``Foo.__version = 2``).

    Examples
    --------
    >>> import strided as torch
    >>> torch.version(torch.Tensor()), torch.version(3)
    (1, None)
    """
    if typename(obj) is None:
        return None
    return getattr(type(obj), "__version", 1)


__all__ = [
    "typename",
    "luatype",
    "isTypeOf",
    "isequal",
    "pointer",
    "Timer",
    "class_",
    "getmetatable",
    "factory",
    "registry",
    "setheaptracking",
    "heaptracking",
    "totable",
    "newmetatable",
    "setmetatable",
    "version",
]

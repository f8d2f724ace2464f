"""utility.md and timer.md names that are not tensor functions: Torch
type names (`typename`, `type`) and the type predicates `isTypeOf` and
`isequal`, `pointer`, and `torch.Timer`."""
from __future__ import annotations

import numbers
import os
import re
import time
import types

from ..core.rng import Generator

# Torch7 names of classes the face did not make with a _typename of its own
_NAMED = {Generator: "torch.Generator"}


def _own_typename(cls):
    """The Torch7 name cls itself declares, else None (a plain Python
    subclass inherits its parent's class attribute, not its name)."""
    name = cls.__dict__.get("_typename", _NAMED.get(cls))
    return name if isinstance(name, str) else None


def typename(obj):
    """Lua's torch.typename: the Torch class name of obj (a tensor, a
    storage, a Generator, a Timer, a File, an instance of a class made by
    torch.class_), else None.  Classes themselves have none (in Lua they
    are constructor tables)."""
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


def isTypeOf(obj, spec):
    """True when obj is of the type spec names, or of a subclass: spec is a
    class, or a type name ('torch.DoubleTensor'), which may be a pattern,
    as Lua's (here: a regular expression searched in the name, so
    'torch.*Tensor' matches every tensor type).  As in Lua, a match that
    is the spec itself must be the whole name ('torch.Long' is no
    LongTensor, 'TorchDummy' no OtherTorchDummy)."""
    if isinstance(spec, type):
        return isinstance(obj, spec)
    if not isinstance(spec, str):
        raise TypeError(f"isTypeOf: typeSpec must be a type name or a class, got "
                        f"{type(spec).__name__}")
    pattern = re.compile(spec)
    for name in _typenames(obj):
        m = pattern.search(name)
        if m and (m.group() != spec or m.group() == name):
            return True
    return False


def isequal(a, b):
    """True when a and b are the same object (Lua: the same address), as
    Lua's torch.isequal for tables and Torch objects."""
    return a is b


def pointer(obj):
    """A unique number for obj (for a tensor or storage: the address of its
    C record, as Lua's torch.pointer gives the userdata's)."""
    c = getattr(obj, "_c", None)
    if c is not None and hasattr(c, "t"):
        from ..core.base import ffi
        return int(ffi.cast("uintptr_t", c.t))
    s = getattr(obj, "_s", None)
    if s is not None:
        from ..core.base import ffi
        return int(ffi.cast("uintptr_t", s))
    return id(obj)


class Timer:
    """torch.Timer(): counts from its creation; reset(), stop(), resume()
    return the timer; time() gives {'real', 'user', 'sys'} seconds
    accumulated while it ran (user and sys: this process's CPU time)."""

    _typename = "torch.Timer"

    def __init__(self):
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

    def reset(self):
        self._total = {k: 0.0 for k in self._total}
        if self._since is not None:
            self._since = self._now()
        return self

    def stop(self):
        if self._since is not None:
            self._total = self._running()
            self._since = None
        return self

    def resume(self):
        if self._since is None:
            self._since = self._now()
        return self

    def time(self):
        return self._running()


__all__ = ["isTypeOf", "isequal", "pointer", "Timer"]

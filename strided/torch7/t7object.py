"""Objects of Torch classes that Python has no class for.

A `.t7` file names the Lua class of each object it holds ('nn.Linear',
'nn.Sequential', a user's own).  When no class of that name is registered
(torch.class_), the object loads as an instance of a generic class made
for that name on first use: a `TorchObject`, which is a dict of the
object's fields (Lua's object table) that also answers attribute access,
and whose Torch type name is the Lua name, so torch.typename, torch.type
and torch.isTypeOf see the Lua class, and torch.save writes it back as
that class.

A Lua table (or object) used as a key of another table loads as a
`TableKey`: Python's dict keys must be hashable, and Lua's table keys are
compared by identity, as a TableKey is.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TorchObject", "TableKey", "generic_class"]


class TorchObject(dict):
    """An object of a Torch class Python has no class for: its fields, as a
    dict (keys as Lua has them: str, int, float, bool), readable and
    writable as attributes too (o.weight is o['weight']).  One subclass per
    Lua class name (generic_class), whose _typename is that name."""

    __slots__ = ()
    _typename: str = "TorchObject"  # each generic class sets its Lua name

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{self._typename} object has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self[name]
        except KeyError:
            raise AttributeError(f"{self._typename} object has no field {name!r}") from None

    def __dir__(self):
        return sorted({*super().__dir__(), *(k for k in self if isinstance(k, str))})

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TorchObject)
            and other._typename == self._typename
            and dict.__eq__(self, other)
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self._typename}({dict.__repr__(self)})"

    def __reduce__(self):
        return _rebuild, (self._typename, dict(self))


class TableKey:
    """A Lua table (a dict or list) or object used as a key of a table:
    hashable, equal to another TableKey of the very same table (Lua
    compares table keys by identity), the table itself in `.table`.
    torch.save writes the table in the key's place (shared with its other
    uses), so Lua reads the structure back unchanged."""

    __slots__ = ("table",)

    def __init__(self, table: Any) -> None:
        self.table = table

    def __hash__(self) -> int:
        return id(self.table)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableKey) and other.table is self.table

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return f"TableKey({self.table!r})"

    def __reduce__(self):
        return TableKey, (self.table,)


_CLASSES: dict[str, type] = {}


def generic_class(name: str) -> type:
    """The generic class of the Torch class `name` (made once per name)."""
    cls = _CLASSES.get(name)
    if cls is None:
        root = name.rpartition(".")[2] or name
        cls = type(
            root if root.isidentifier() else "TorchObject",
            (TorchObject,),
            {"__slots__": (), "_typename": name, "__qualname__": name, "__module__": __name__},
        )
        setattr(cls, "__version", 1)  # Lua's class version ('V 1'): the read one
        _CLASSES[name] = cls
    return cls


def _rebuild(name, fields):
    return generic_class(name)(fields)

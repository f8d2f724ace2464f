"""`typing.overload` for the hand-written API, kept where the stub
generator (stubs.py) reads it on every Python: typing.get_overloads
exists only from Python 3.11.  A module that declares overloads imports
`overload` from here: a type checker sees typing's, and at run time the
declarations are recorded by module and qualified name (the function that
follows them replaces the name, as with typing's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

_DECLARED = {}  # (module, qualified name) -> the overloads' declarations


def _declaration(*args, **kwargs):
    raise NotImplementedError(
        "an overload's declaration is not the function: the definition that follows it is"
    )


def _recording_overload(fn):
    """Record fn as a declaration of the function of its name; returns a
    placeholder that raises, which that function's definition replaces."""
    _DECLARED.setdefault((fn.__module__, fn.__qualname__), []).append(fn)
    return _declaration


def overloads(fn):
    """The declarations recorded for the function fn, in order ([] for none)."""
    return list(
        _DECLARED.get((getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)), ())
    )


if TYPE_CHECKING:
    from typing import overload as overload
else:
    overload = _recording_overload

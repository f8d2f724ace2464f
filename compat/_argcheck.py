"""The one check that an argument declared an Array is one, for the
namespace's functions that reach for an Array's attributes before any
check of their own (a list given to `sum` was an AttributeError from deep
inside).  Which parameters to check is read once from the functions'
annotations (the standard's signatures, compat/_typing.py): `Array`, and
the sequences of arrays `concat`/`stack` take.  The elementwise functions
check their own argument on their fast path and are not wrapped."""

from __future__ import annotations

import functools
import inspect
import sys

from ._array import Array

_ARRAY = "Array"
_ARRAYS = "tuple[Array, ...] | list[Array]"


def _checks(f):
    """(position or None, name, wants a sequence) of each checked parameter."""
    out = []
    for i, p in enumerate(inspect.signature(f).parameters.values()):
        ann = (
            p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
        )
        if ann not in (_ARRAY, _ARRAYS):
            continue
        pos = i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None
        key = None if p.kind is p.POSITIONAL_ONLY else p.name
        out.append((pos, key, p.name, ann == _ARRAYS))
    return tuple(out)


def _refuse(fname, pname, what, got):
    raise TypeError(f"{fname}: {pname} must be {what}, got {got}")


def _kind(v):
    """How a refused argument is named: its type's name, or what the type
    says of itself (`refused_as`: fuse's traced values, which no
    non-elementwise function takes)."""
    return getattr(type(v), "refused_as", None) or type(v).__name__


def checked(f, fname=None):
    """f, refusing with TypeError an argument declared an Array (or a
    sequence of Arrays) that is not one; f itself when it declares none."""
    checks = _checks(f)
    if not checks:
        return f
    fname = fname or f.__name__
    # the usual call: one Array parameter, first, given by position
    first = checks[0][0] == 0 and not checks[0][3] and len(checks) == 1

    @functools.wraps(f)
    def g(*args, **kwargs):
        if first and args and isinstance(args[0], Array):
            return f(*args, **kwargs)
        for pos, key, pname, many in checks:
            if pos is not None and pos < len(args):
                v = args[pos]
            elif key is not None and key in kwargs:
                v = kwargs[key]
            else:
                continue  # f's own error for a missing argument
            if many:
                if not isinstance(v, (tuple, list)):
                    _refuse(fname, pname, "a tuple or list of Arrays", type(v).__name__)
                for i, item in enumerate(v):
                    if not isinstance(item, Array):
                        _refuse(
                            fname,
                            pname,
                            "a tuple or list of Arrays",
                            f"{_kind(item)} at position {i}",
                        )
            elif not isinstance(v, Array):
                _refuse(fname, pname, "an Array", _kind(v))
        return f(*args, **kwargs)

    return g


def check_namespace(ns, names, prefix="", skip=frozenset(), own_only=False):
    """Wrap ns's functions among names (in place); own_only: only those the
    module ns defines itself (the linalg extension's matmul is the
    namespace's, wrapped there: see share_wrapped)."""
    for n in names:
        f = ns.get(n)
        if f is None or not inspect.isfunction(f) or n in skip:
            continue
        if not (own_only and f.__module__ != ns["__name__"]):
            g = ns[n] = checked(f, prefix + n)
            # where pickle (and a reader) finds f by its module and name, it
            # finds the checked function too: one object under both names
            home, qual = sys.modules.get(f.__module__), str(getattr(f, "__qualname__", n))
            if home is not None and g is not f and getattr(home, qual, None) is f:
                setattr(home, qual, g)


def share_wrapped(ns, module):
    """The functions module re-exports from namespace ns (the standard says
    xp.linalg.matmul is xp.matmul) become ns's wrapped ones."""
    for n in module.__all__:
        f, g = getattr(module, n), ns.get(n)
        if g is not None and getattr(g, "__wrapped__", None) is f:
            setattr(module, n, g)

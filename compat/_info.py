"""__array_namespace_info__: what this namespace offers."""

from __future__ import annotations

from typing import Any

from strided.core import base as _core

from . import _data_type_functions, _dtypes
from ._array import CPU, Device, check_device
from ._typing import DType


class Devices(tuple):  # type: ignore[type-arg]
    """What devices() returns: a tuple, as 2025.12 says (until 2024.12 it was
    a list), to which a list may still be added and give a list (SciPy's
    conftest writes `devices() + [None]`, as code written for the list did)."""

    __slots__ = ()

    def __add__(self, other: Any) -> Any:
        if isinstance(other, list):
            return list(self) + other
        return tuple.__add__(self, other)

    def __reduce__(self) -> tuple[object, tuple[tuple[Device, ...]]]:
        return Devices, (tuple(self),)


class Info:
    __module__ = "strided.compat"

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return __array_namespace_info__, ()  # the class is not a name of strided.compat

    def capabilities(self) -> dict[str, bool | int]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": _core.MAX_DIMS,
        }

    def default_device(self) -> Device:
        return CPU

    def devices(self) -> tuple[Device, ...]:
        return Devices((CPU,))

    def default_dtypes(self, *, device: Device | None = None) -> dict[str, DType]:
        check_device(device)
        return {
            "real floating": _dtypes.float64,
            "complex floating": _dtypes.complex128,
            "integral": _dtypes.int64,
            "indexing": _dtypes.int64,
        }

    def dtypes(
        self, *, device: Device | None = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, DType]:
        check_device(device)
        if kind == EXTENSION_KIND:
            return {d.name: d for d in _dtypes.EXTENSION_DTYPES}
        try:
            known = _DTYPES_OF_KIND.get(kind)
        except TypeError:  # an unhashable kind: isdtype's error below
            known = None
        if known is None:
            known = {
                d.name: d
                for d in _dtypes.STANDARD_DTYPES
                if kind is None or _data_type_functions.isdtype(d, kind)
            }
            if isinstance(kind, (str, tuple, type(None))):
                _DTYPES_OF_KIND[kind] = known
        return dict(known)  # the caller's to change


# dtypes() lists the standard's dtypes (by kind: isdtype's); the extension
# dtypes float16 and bfloat16 only under this kind, which no standard code
# asks for (the conformance suite checks every name dtypes() gives against
# the standard's): code that knows them finds them, code that does not is
# not handed a dtype it cannot know.
EXTENSION_KIND = "extension"

# dtypes(kind=...) by kind: library code asks it in every call
_DTYPES_OF_KIND: dict[object, dict[str, DType]] = {}


def __array_namespace_info__() -> Info:
    """Returns a namespace with Array API namespace inspection utilities.

    Returns
    -------
    Info
        An object containing Array API namespace inspection utilities.

    Raises
    ------
    Nothing
        It takes no argument.

    Notes
    -----
    capabilities(): boolean indexing and data-dependent shapes supported, at
    most 64 dimensions; default_dtypes(): float64, complex128, int64 (indices
    too); one device, 'cpu'.

    Examples
    --------
    >>> import strided.compat as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.default_dtypes()['real floating'], info.devices()
    (strided.float64, (cpu,))
    """
    return Info()

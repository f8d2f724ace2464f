"""The types of the array API standard's signatures (its array_api_stubs'
`_types.py`), bound to strided.compat's own classes: every public
function of the namespace is annotated with them, so that array-API-typed
code type-checks against strided.compat (mypy --strict: .ci/types)."""

from __future__ import annotations

from types import EllipsisType
from typing import Any, Protocol, TypeVar, Union

from strided.core.base import DType

from ._array import Array, Device

__all__ = [
    "Array",
    "DType",
    "Device",
    "NestedSequence",
    "SupportsBufferProtocol",
    "PyCapsule",
    "SupportsDLPack",
    "ellipsis",
    "Scalar",
]

_T_co = TypeVar("_T_co", covariant=True)


class NestedSequence(Protocol[_T_co]):
    """A sequence of values or of nested sequences (asarray's input)."""

    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...

    def __len__(self, /) -> int: ...


# objects the standard types loosely: a buffer-protocol object, a DLPack
# capsule, a DLPack producer
SupportsBufferProtocol = Any
PyCapsule = Any
SupportsDLPack = Any
ellipsis = EllipsisType  # the type of `...`
Scalar = Union[bool, int, float, complex]

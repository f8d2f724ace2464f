# What a type checker sees of strided._c._pyarray (strided/_c/pyarray.c), the
# C base types of the Torch7 face's Tensor and of strided.compat's Array.
from collections.abc import Callable
from typing import Any

from typing_extensions import Self

CORE_FUNCTIONS: tuple[str, ...]
OPERATORS: tuple[str, ...]

class RecordBase:
    """Holds a view record and its Core."""
    _c: Any
    @classmethod
    def _new(cls, core: Any, /) -> Self: ...

class ArrayBase(RecordBase):
    """RecordBase with strided.compat's operators as type slots."""

def setup(make_core: Callable[[int], Any], address_of: Callable[[Any], int],
          functions: tuple[int, ...], /) -> None: ...
def setup_operators(array_type: type[ArrayBase], operators: dict[str, Any], /) -> None: ...
def binary_new(code: int, mask: int, x1: Any, x2: Any, /) -> Any: ...
def unary_new(code: int, mask: int, x: Any, /) -> Any: ...
def binary_inplace(code: int, x: Any, y: Any, /) -> bool: ...
def from_list(obj: object, /) -> Any: ...
def zeros(n: object, /) -> Any: ...

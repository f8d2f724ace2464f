"""The Torch7 face (docs/torch7.md), re-exported by `strided`: typed
tensors and storages counting from one, the torch.* functions generated
from the declarative spec (spec.py), Torch7's printing and `.t7` files.
It builds on `strided.core` only.

`Tensor` and `Storage` are aliases of the default type (DoubleTensor /
DoubleStorage unless setdefaulttensortype changed it).
"""

from .functions import CLASSES, FUNCTIONS
from .storage import STORAGE_TYPES
from .registry import publish_default

globals().update(FUNCTIONS)  # torch.add, torch.sum, ... (spec.py)
globals().update(CLASSES)  # ByteTensor ... DoubleTensor
globals().update({cls._typename[6:]: cls for cls in STORAGE_TYPES.values()})

publish_default()  # Tensor, Storage: the default type's

__all__ = sorted(
    set(FUNCTIONS)
    | set(CLASSES)
    | {cls._typename[6:] for cls in STORAGE_TYPES.values()}
    | {"Tensor", "Storage"}
)


def __getattr__(name):
    if name == "_heaptracking":  # Lua's torch._heaptracking (utility.py)
        from .utility import heaptracking

        return heaptracking()
    raise AttributeError(f"module 'strided' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)

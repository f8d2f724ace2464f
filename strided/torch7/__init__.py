"""The Torch7 face (docs/torch7.md), re-exported by `strided`: typed
tensors and storages counting from one, the torch.* functions generated
from the declarative spec (spec.py), Torch7's printing and `.t7` files.
It builds on `strided.core` only.

`Tensor` and `Storage` are aliases of the default type (DoubleTensor /
DoubleStorage unless setdefaulttensortype changed it).
"""
from ..core.base import getnumthreads, setnumthreads
from .storage import (ByteStorage, CharStorage, DoubleStorage, FloatStorage, IntStorage,
                       LongStorage, ShortStorage)
from .tensor import (ByteTensor, CharTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor,
                      ShortTensor, getdefaulttensortype, isTensor, setdefaulttensortype)
from . import functions as _functions
from .functions import *  # noqa: F401,F403  (the torch.* functions)
from .t7file import deserialize, load, save, serialize
from .tensor import tensor_from_dlpack as from_dlpack

__all__ = (["setnumthreads", "getnumthreads", "setdefaulttensortype", "getdefaulttensortype",
            "ByteStorage", "CharStorage", "ShortStorage", "IntStorage", "LongStorage",
            "FloatStorage", "DoubleStorage", "ByteTensor", "CharTensor", "ShortTensor",
            "IntTensor", "LongTensor", "FloatTensor", "DoubleTensor", "Tensor", "Storage",
            "save", "load", "serialize", "deserialize", "from_dlpack"]
           + list(_functions.__all__))


def __getattr__(name):
    # the default-type aliases follow setdefaulttensortype
    from . import tensor as _tensor
    if name == "Tensor":
        return _tensor.default_tensor_class()
    if name == "Storage":
        return _tensor.default_storage_class()
    raise AttributeError(f"module 'strided.torch7' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"Tensor", "Storage"})

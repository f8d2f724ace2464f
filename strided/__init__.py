"""strided: a C core of strided kernels, exposed as Torch7's Tensor
(`import strided as torch`) and as the Python array API (`strided.compat`).

This module is the Torch7 face (docs/torch7.md): typed tensors and
storages counting from one, the torch.* functions, Torch7's printing.
The internal layer that both faces build on lives in strided._core
(dtypes, views records), strided._views, strided._ops and
strided._indexing; the tests drive it directly.

`strided.Tensor` and `strided.Storage` are aliases of the default type
(DoubleTensor / DoubleStorage unless setdefaulttensortype changed it).
"""
from ._core import getnumthreads, setnumthreads
from ._storage import (ByteStorage, CharStorage, DoubleStorage, FloatStorage, IntStorage,
                       LongStorage, ShortStorage)
from ._tensor import (ByteTensor, CharTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor,
                      ShortTensor, getdefaulttensortype, isTensor, setdefaulttensortype)
from . import _functions
from ._functions import *  # noqa: F401,F403  (the torch.* functions)
from ._t7file import deserialize, load, save, serialize
from ._dlpack import tensor_from_dlpack as from_dlpack

__all__ = (["setnumthreads", "getnumthreads", "setdefaulttensortype", "getdefaulttensortype",
            "ByteStorage", "CharStorage", "ShortStorage", "IntStorage", "LongStorage",
            "FloatStorage", "DoubleStorage", "ByteTensor", "CharTensor", "ShortTensor",
            "IntTensor", "LongTensor", "FloatTensor", "DoubleTensor", "Tensor", "Storage",
            "save", "load", "serialize", "deserialize", "from_dlpack"]
           + list(_functions.__all__))


def __getattr__(name):
    # the default-type aliases follow setdefaulttensortype
    from . import _tensor
    if name == "Tensor":
        return _tensor.default_tensor_class()
    if name == "Storage":
        return _tensor.default_storage_class()
    raise AttributeError(f"module 'strided' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"Tensor", "Storage"})

"""strided: a C core of strided kernels, exposed as Torch7's Tensor
(`import strided as torch`) and as the Python array API (`strided.compat`).

This package is the Torch7 face (docs/torch7.md), re-exported from
`strided.torch7`: typed tensors and storages counting from one, the
torch.* functions, Torch7's printing and files.  The layers
(docs/architecture.md): `strided._c` the C core, `strided.core` the
internal 0-based layer over it, `strided.torch7` and `strided.compat` the
two faces, `strided.interop` the one crossing between them.

`strided.Tensor` and `strided.Storage` are aliases of the default type
(DoubleTensor / DoubleStorage unless setdefaulttensortype changed it).
"""

from . import torch7 as _torch7
from ._version import __version__  # noqa: F401
from .torch7 import __all__, __dir__, __getattr__  # noqa: F401 (the default-type aliases)

# every name of the face; the default-type aliases Tensor and Storage are
# set again by setdefaulttensortype (tensor.py's publish_default)
globals().update({n: getattr(_torch7, n) for n in __all__})

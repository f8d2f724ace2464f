"""strided.compat: the Python array API standard (2025.12) over strided's
C core.  See docs/array-api.md."""

__array_api_version__ = "2025.12"

import math as _math

from ._array import Array, CPU as _CPU
from ._dtypes import (
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float32,
    float64,
    complex64,
    complex128,
    float16,
    bfloat16,
)
from ._data_type_functions import can_cast, finfo, iinfo, isdtype, result_type
from ._creation import *
from ._elementwise import *
from ._clip import clip
from ._linalg import *
from ._manipulation import *
from ._searching import *
from ._set import *
from ._sorting import *
from ._statistical import *
from ._more import *
from ._interop import from_dlpack
from ._fuse import fuse  # strided's own: fused elementwise expressions
from . import _operators  # the Array's operators
from ._info import __array_namespace_info__
from . import linalg  # the linalg extension: xp.linalg
from . import fft  # the fft extension: xp.fft

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None

# the namespace, spelled out: a type checker takes only the names listed
# here as the module's own (PEP 484's re-export rule, mypy --strict)
__all__ = [
    "Array",
    "abs",
    "acos",
    "acosh",
    "add",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "argsort",
    "asarray",
    "asin",
    "asinh",
    "astype",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "bfloat16",
    "bool",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "can_cast",
    "ceil",
    "clip",
    "complex128",
    "complex64",
    "concat",
    "conj",
    "copysign",
    "cos",
    "cosh",
    "count_nonzero",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "divide",
    "e",
    "empty",
    "empty_like",
    "equal",
    "exp",
    "expand_dims",
    "expm1",
    "eye",
    "fft",
    "finfo",
    "flip",
    "float16",
    "float32",
    "float64",
    "floor",
    "floor_divide",
    "from_dlpack",
    "full",
    "full_like",
    "fuse",
    "greater",
    "greater_equal",
    "hypot",
    "iinfo",
    "imag",
    "inf",
    "int16",
    "int32",
    "int64",
    "int8",
    "isdtype",
    "isfinite",
    "isin",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "linalg",
    "linspace",
    "log",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "matmul",
    "matrix_transpose",
    "max",
    "maximum",
    "mean",
    "meshgrid",
    "min",
    "minimum",
    "moveaxis",
    "multiply",
    "nan",
    "nansum",
    "negative",
    "newaxis",
    "nextafter",
    "nonzero",
    "not_equal",
    "ones",
    "ones_like",
    "permute_dims",
    "pi",
    "positive",
    "pow",
    "prod",
    "real",
    "reciprocal",
    "remainder",
    "repeat",
    "reshape",
    "result_type",
    "roll",
    "round",
    "searchsorted",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sort",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "subtract",
    "sum",
    "take",
    "take_along_axis",
    "tan",
    "tanh",
    "tensordot",
    "tile",
    "tril",
    "triu",
    "trunc",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unstack",
    "var",
    "vecdot",
    "where",
    "zeros",
    "zeros_like",
    "__array_api_version__",
    "__array_namespace_info__",
]

# a non-Array where an Array is declared is TypeError naming the argument
# (the elementwise functions check on their own fast path; clip does not)
from . import _argcheck as _ac, _elementwise as _ew

_ac.check_namespace(globals(), __all__, skip=frozenset(_ew.__all__))
_ac.share_wrapped(globals(), linalg)
del _ac, _ew

"""strided.compat: the Python array API standard (2025.12) over strided's
C core.  See docs/array-api.md."""

__array_api_version__ = "2025.12"

import math as _math

from ._array import Array, CPU as _CPU  # noqa: F401
from ._dtypes import (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,  # noqa: A004
                      float32, float64, complex64, complex128,
                      can_cast, finfo, iinfo, isdtype, result_type)
from ._creation import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._linalg import *  # noqa: F401,F403
from ._manipulation import *  # noqa: F401,F403
from ._searching import *  # noqa: F401,F403
from ._set import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._statistical import *  # noqa: F401,F403
from ._more import *  # noqa: F401,F403
from ._interop import from_dlpack  # noqa: F401
from ._fuse import fuse  # noqa: F401  (strided's own: fused elementwise expressions)
from . import _operators  # noqa: F401,E402  (the Array's operators)
from ._info import __array_namespace_info__  # noqa: F401
from . import linalg  # noqa: F401,E402  (the linalg extension: xp.linalg)
from . import fft  # noqa: F401,E402  (the fft extension: xp.fft)

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None

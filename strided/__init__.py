"""strided: a C core of strided kernels, exposed as Torch7's Tensor
(`import strided as torch`) and as the Python array API (`strided.compat`).

This module is the Torch7 face.  The internal layer that both faces build
on lives in strided._core (dtypes, views records), strided._views and
strided._ops; the tests drive it directly.
"""
from ._core import getnumthreads, setnumthreads

__all__ = ["setnumthreads", "getnumthreads"]

"""numpy objects met at the edges of strided.compat: operands of the
Array's operators, index keys, the leaves of asarray's nested lists, the
results numpy's ufuncs hand to Array.__array_wrap__.  They are recognised
without importing numpy: a numpy object exists only once numpy is
imported.  numpy is converted from here, never computed with
(docs/interop.md, "numpy and the Array")."""

from __future__ import annotations

import sys

_PYTHON = (bool, int, float, complex)


def _np():
    return sys.modules.get("numpy")


def is_scalar(obj):
    """A numpy scalar (np.float32(1), np.int64(3), np.True_, ...)."""
    np = _np()
    return np is not None and isinstance(obj, np.generic)


def ndarray_type():
    """numpy.ndarray, or None while numpy is not imported."""
    np = _np()
    return None if np is None else np.ndarray


def is_array(obj):
    np = _np()
    return np is not None and isinstance(obj, np.ndarray)


def scalar_value(obj):
    """The Python number a numpy scalar holds, or None (a string, a date)."""
    v = obj.item()
    return v if isinstance(v, _PYTHON) else None


def core_dtype(obj):
    """strided.compat's dtype of a numpy scalar or array, or None (object,
    strings, a byte-swapped dtype...)."""
    from . import _dtypes

    dt = obj.dtype
    found = _dtypes.BY_NAME.get(dt.name) if dt.byteorder in "=|" else None
    return found


def operand(obj):
    """A numpy scalar as the Array's operators take it: the Python number it
    holds (a weak scalar, as the standard's Python scalars:
    float32_array * np.float64(2) is float32), or None."""
    return scalar_value(obj) if is_scalar(obj) else None


def expression(op, x, other, reflected):
    """`x op other` (or `other op x`) with a numpy array `other`: numpy's
    expression on the Array's memory (zero-copy through __array__), an
    ndarray, as numpy's ufuncs give for an Array (np.add(x, a)): code
    that mixes ndarrays in stays in numpy's namespace, whichever side the
    ndarray is on."""
    import numpy

    a = numpy.asarray(x)
    return op(other, a) if reflected else op(a, other)


def leaf(obj):
    """(Python number, its dtype or None for a Python number) for a leaf of
    asarray's nested lists: a Python number, a numpy scalar, a 0-d numpy
    array or a 0-d Array.  TypeError for anything else."""
    from ._array import Array
    from strided.core import base as _core

    if isinstance(obj, _PYTHON) and (type(obj) in _PYTHON or not is_scalar(obj)):
        return obj, None
    if isinstance(obj, Array) or (hasattr(obj, "ndim") and (is_scalar(obj) or is_array(obj))):
        if obj.ndim != 0:
            raise TypeError(
                f"asarray: a nested sequence holds a {obj.ndim}-d "
                f"{type(obj).__name__}; only numbers and 0-d arrays "
                f"(use stack or concat to join arrays)"
            )
        if isinstance(obj, Array):
            return _core.item(obj._c), obj.dtype
        dt = core_dtype(obj)
        if dt is not None:
            return obj.item(), dt
        raise TypeError(f"asarray: a numpy {obj.dtype} has no strided dtype")
    raise TypeError(f"asarray: nested sequences must hold numbers, got a {type(obj).__name__}")

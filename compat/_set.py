"""Set functions: unique_all, unique_counts, unique_inverse, unique_values
and isin, over the core's stable sort and the run and search kernels of
setops.c (strided.core.setops).

Uniqueness is value equality (`equal`): every NaN is a distinct value with
a count of one (a complex value with a NaN part too); -0.0 and +0.0 are
one value, returned as whichever occurs first.  Values come out ascending,
NaNs last, in the order of `sort`.  Every dtype is accepted."""
from __future__ import annotations

from collections import namedtuple

from strided.core import setops as _setops

from ._array import Array
from ._elementwise import operands

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _unique(name, x, **want):
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an Array, got {type(x).__name__}")
    return [c if c is None else Array._new(c) for c in _setops.unique(x._c, **want)]


def unique_all(x, /):
    values, indices, inverse, counts = _unique("unique_all", x, indices=True, inverse=True,
                                               counts=True)
    return UniqueAllResult(values, indices, inverse, counts)


def unique_counts(x, /):
    values, _, _, counts = _unique("unique_counts", x, counts=True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /):
    values, _, inverse, _ = _unique("unique_inverse", x, inverse=True)
    return UniqueInverseResult(values, inverse)


def unique_values(x, /):
    return _unique("unique_values", x)[0]


def isin(x1, x2, /, *, invert=False):
    """Whether each element of x1 is in x2 (negated with invert): x2 is
    sorted once, then each element of x1 is binary-searched in it.  x1 and
    x2 promote by the standard's rules (a Python int, float or complex
    takes the array's dtype); pairs with no promotion raise TypeError.  A
    NaN is never in x2.  A scalar x1 gives a 0-d result."""
    a, b = operands("isin", x1, x2)
    return Array._new(_setops.isin(a, b, bool(invert)))


__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

"""The C base type of strided.compat's Array (strided/_c/pyarray.c, the
extension module strided._c._pyarray): it holds the view record, makes
an Array of a Core, and runs the plain cases of the operators and of a
few small calls in C (docs/architecture.md, "The Array's C half").

This module gives it the C core's functions (by address, from the cffi
module) and the two conversions between its records and Cores."""

from __future__ import annotations

from .._c import _pyarray

# RecordBase holds a view record and its Core (`_c`) in C: the base of the
# Torch7 face's Tensor; ArrayBase adds compat's operators (imported by name:
# classes a type checker takes as bases, from strided/_c/_pyarray.pyi)
from .._c._pyarray import ArrayBase, RecordBase  # noqa: F401

# TensorBase (a RecordBase) is the Torch7 face's tensor base: its tp_init
# makes Tensor(sizes) / Tensor(LongStorage) / Tensor(table) in C and calls
# the class's `_init` for every other form
from .._c._pyarray import TensorBase  # noqa: F401

# StorageBase holds a Torch7 storage's C storage and its cffi pointer (`_s`)
from .._c._pyarray import StorageBase  # noqa: F401
from .base import DTYPES, Core, ffi, lib

# None when C declines (the caller's general path decides): the plain
# elementwise case, an asarray of a flat list of numbers, zeros(n); a
# product of 1-D or 2-D arrays of one dtype, a contiguous cast, a view of a
# contiguous array with another shape, a new Array viewing all of one, the
# 0-d array of a Python float, int or bool
binary_new, unary_new = _pyarray.binary_new, _pyarray.unary_new
from_list, filled = _pyarray.from_list, _pyarray.filled
# an Array over an unconsumed DLPack capsule's memory (strided.core.dlpack.to_array)
from_capsule = _pyarray.from_capsule
# an Array's "dltensor_versioned" capsule (Array.__dlpack__ as numpy asks for it)
export_capsule = _pyarray.export_capsule
matmul, astype, reshape = _pyarray.matmul, _pyarray.astype, _pyarray.reshape
alias, scalar = _pyarray.alias, _pyarray.scalar
# the one element of an Array as a Python number (None: not one element, or float16)
item = _pyarray.item
# the dimension views of a plain Array and valid ints (permute_dims,
# expand_dims, squeeze, broadcast_to, flip)
permute, expand_dims = _pyarray.permute, _pyarray.expand_dims
squeeze, broadcast_to, flip = _pyarray.squeeze, _pyarray.broadcast_to, _pyarray.flip
# concat(arrays, axis): a list or tuple of Arrays of one dtype joined along an int axis
concat = _pyarray.concat
# reduce_new(op code, mean, x, axis, keepdims): a reduction of a plain
# Array over None, an int or a tuple of ints (mean: float32/float64 sums)
reduce_new = _pyarray.reduce_new
# var_new(x, axis, keepdims, correction, take_sqrt): var / std of a float32 or
# float64 Array (st_var_new: the faces' mean, squared deviations, division)
var_new = _pyarray.var_new
# take_new(x, indices, axis): x's slices along axis (None: a 1-D x) at a 1-D
# int64 Array of indices (st_take_new; x[indices] uses it at axis 0 too)
take_new = _pyarray.take_new
# argreduce_new(is_max, x, axis, keepdims): argmax/argmin over None or an int
argreduce_new = _pyarray.argreduce_new
# where_new(cond, x1, x2): cond ? x1 : x2 of three Arrays (bool, one dtype)
where_new = _pyarray.where_new
# x = x op y in C for two small plain RecordBase objects (True), else False
binary_inplace = _pyarray.binary_inplace

_gc, _free, _cast = ffi.gc, lib.st_tensor_free, ffi.cast


def make_core(address):
    """The Core owning the record at `address`, made by C the first time
    Python code reads an array's `_c` (before that, the array owns it)."""
    return Core(_gc(_cast("st_tensor *", address), _free))


def address_of(c):
    """The address of a Core's record, for C."""
    return int(_cast("uintptr_t", c.t))


def setup_operators(array_type, operators, general):
    """Make `array_type` (a subclass of ArrayBase) the class of the arrays C
    makes, with `operators`: name (_pyarray.OPERATORS) -> (op code, dtype
    mask, general(self, other), reflected general(self, other) or None,
    in-place general(self, other) or None); for the unary ones
    general(self); and `general`: "getitem" (self, key),
    "setitem" (self, key, value), "T" and "mT" (self), what the C slots and
    getters leave to Python (any index but a basic one, errors)."""
    _pyarray.setup_operators(array_type, operators, tuple(DTYPES), general)


# the core's functions C calls, by address: one core, one set of globals
_pyarray.setup(
    make_core,
    address_of,
    tuple(int(_cast("uintptr_t", ffi.addressof(lib, n))) for n in _pyarray.CORE_FUNCTIONS),
)


# The Torch7 face's small calls (pyarray.c, "The Torch7 face's small
# calls"): each does the plain case in C and returns DECLINED otherwise;
# the face's method then runs its general code (t7_init and
# t7_scalar_inplace answer True / False instead).
DECLINED = type("Declined", (), {"__slots__": (), "__repr__": lambda self: "DECLINED"})()
_pyarray.t7_setup(
    tuple(int(_cast("uintptr_t", ffi.addressof(lib, n))) for n in _pyarray.T7_CORE_FUNCTIONS),
    DECLINED,
)
t7_init, t7_ndim, t7_numel = _pyarray.t7_init, _pyarray.t7_ndim, _pyarray.t7_numel
t7_size, t7_stride, t7_narrow = _pyarray.t7_size, _pyarray.t7_stride, _pyarray.t7_narrow
t7_select, t7_sub, t7_t = _pyarray.t7_select, _pyarray.t7_sub, _pyarray.t7_t
t7_get, t7_set, t7_fill = _pyarray.t7_get, _pyarray.t7_set, _pyarray.t7_fill
t7_clone, t7_copy, t7_scalar_inplace = (
    _pyarray.t7_clone,
    _pyarray.t7_copy,
    _pyarray.t7_scalar_inplace,
)
t7_nested = _pyarray.t7_nested
# torch.zeros/ones/rand/randn(n1, n2, ...) of the default class (t7_set_default):
# made and filled in one call
t7_sized, t7_set_default = _pyarray.t7_sized, _pyarray.t7_set_default
# the storages C makes (x:size(), x:stride()): the LongStorage class and the
# conversions of `_s` (storage.py) given once; s[i] is StorageBase's slot
t7_storage_setup, t7_shape_storage = _pyarray.t7_storage_setup, _pyarray.t7_shape_storage
# the objects of a C walk of .t7 data (t7scan.c) made in one call, or DECLINED
# (torch7/t7format.py's _Assembly then makes them)
t7_assemble = _pyarray.t7_assemble

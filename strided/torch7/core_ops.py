"""The core op each Torch7 elementwise function runs, read from the op
table (strided/_c/inventory.py's `torch7` column), as TensorMath.lua names
the C function of each form: for a tensor type, the first of the name's
rows, in code order, that has a kernel for that type.  So `div` is divide
for float and double and trunc_divide for the integer types (Torch7
divides integers toward zero), and `bitand` has no op for floats (TH
raises there)."""

from __future__ import annotations

from ..core import base as _core, ops as _ops

_CHOSEN: dict = {}  # (Torch7 name, element type) -> core op name or None


def core_op(name, dt):
    """The core op name Torch7's `name` runs for element type dt (a dtype
    name such as "float32"), or None when none of its rows has a kernel for
    dt."""
    key = (name, dt)
    op = _CHOSEN.get(key, False)
    if op is False:
        family, names = _ops.TORCH7[name]
        result = _ops.unary_result if family == "unary" else _ops.binary_result
        op = _CHOSEN[key] = next((n for n in names if result(n, dt) is not None), None)
    return op


def run_op(name, dt):
    """The op a call of Torch7's `name` on element type dt runs: core_op;
    for a type none of the rows has a kernel for, TH's TypeError when dt is
    a floating type (bitand of a float: TH defines it to raise), else the
    first row's op (the core then raises its own error, as for any op
    without a kernel)."""
    op = core_op(name, dt)
    if op is None:
        if _core.dtype(dt).kind == "f":
            raise TypeError(f"{name} is only supported for integer type tensors")
        op = _ops.TORCH7[name][1][0]
    return op

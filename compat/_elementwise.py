"""Every elementwise function of the standard but clip: one short uniform
wrapper made from each row of the op table (compat/_elementwise_table.py,
generated from strided/_c/inventory.py: name -> (core op, category, C
code, summary)); their signatures are compat/_elementwise.pyi, generated
from the same rows.  Operands promote by the standard's table
(compat/_promotion.py)."""

from __future__ import annotations

from strided.core import arraytype as _arraytype, base as _core, ops as _ops
from strided.core.fuse import Traced

from . import _docstrings
from ._array import Array
from ._dtypes import KINDS
from ._elementwise_table import BINARY, UNARY
from ._promotion import FLOAT_FOR_INTEGERS, check, dtype_mask, result_dtype

# One C call does the plain case (two Arrays of one dtype whose shapes
# broadcast, or an Array and a Python float or int as the operators take
# it): it returns None for anything else, and the general path below decides.
_unary_new, _binary_new = _arraytype.unary_new, _arraytype.binary_new
# x = x op y in C for two small plain Arrays of one dtype and shape (True)
_binary_inplace = _arraytype.binary_inplace


def _unary(name, op, category, code, summary):
    mask = dtype_mask(category)

    def f(x, /):
        if type(x) is Array:
            r = _unary_new(code, mask, x)
            if r is not None:
                return r
        if not isinstance(x, Array):
            if isinstance(x, Traced):  # a fused function's value (_fuse.py)
                return x.record(name, (x,))
            raise TypeError(f"{name}: x must be an Array, got {type(x).__name__}")
        check(name, x.dtype, category)
        return Array._new(_ops.unary(op, x._c))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = _docstrings.elementwise(name, op, category, summary)
    return f


def _binary(name, op, category, code, summary):
    mask = dtype_mask(category)

    def f(x1, x2, /):
        if type(x1) is Array or type(x2) is Array:  # (with a Python number: in C too)
            r = _binary_new(code, mask, x1, x2)
            if r is not None:
                return r
        if isinstance(x1, Traced) or isinstance(x2, Traced):
            return (x1 if isinstance(x1, Traced) else x2).record(name, (x1, x2))
        a, b, dt = _operands(x1, x2)
        return Array._new(_ops.binary(op, a, b, dt=dt))

    def _operands(x1, x2):
        dt = result_dtype(name, x1, x2)
        check(name, dt, category)
        # arrays of other dtypes are converted inside the kernel, a block at
        # a time: no full-size temporary (Python scalars: 0-d Cores of dt)
        a = x1._c if isinstance(x1, Array) else _core.scalar(x1, dt)
        b = x2._c if isinstance(x2, Array) else _core.scalar(x2, dt)
        if name in FLOAT_FOR_INTEGERS and dt in KINDS["integral"]:
            dt = _core.float64
        return a, b, dt

    def into(x1, x2):
        """x1 = f(x1, x2) written straight into Array x1 (its in-place
        operator), numpy's errors when the result would not fit it: another
        shape is a ValueError, another dtype a TypeError (x1 untouched)."""
        if (
            type(x2) is Array and mask >> x1.dtype.code & 1 and _binary_inplace(code, x1, x2)
        ):  # small and plain: in C
            return x1
        a, b, dt = _operands(x1, x2)
        shape = _ops.broadcast_shapes(a.shape, b.shape)
        if shape != x1.shape:
            raise ValueError(
                f"in-place {name}: non-broadcastable output operand with "
                f"shape {x1.shape} doesn't match the broadcast shape {shape}"
            )
        res = _ops.binary_result(op, dt)
        if res is not None and res is not x1.dtype:
            raise TypeError(
                f"in-place {name}: cannot cast the result from {res.name} to "
                f"{x1.dtype.name} (the array's dtype is kept; use astype)"
            )
        _ops.binary(op, a, b, out=x1._c, dt=dt)
        return x1

    f.__name__ = f.__qualname__ = name
    f.__doc__ = _docstrings.elementwise(name, op, category, summary)
    f.into = into  # type: ignore[attr-defined]  # the in-place operators' path
    return f


for _name, _row in UNARY.items():
    globals()[_name] = _unary(_name, *_row)
for _name, _row in BINARY.items():
    globals()[_name] = _binary(_name, *_row)
del _name, _row

__all__ = sorted(UNARY) + sorted(BINARY)

"""The operators of the Array, each made once here from the elementwise
functions: `x + y` is add(x, y), `x += y` writes add's result into x.

The plain cases go to C in one call without the function's frame
(another Array of the same dtype and shape, or a Python float or int that
converts plainly to the array's dtype); the rest goes to the function.  A
numpy scalar acts as the Python number it holds; with a numpy array the
expression is numpy's, an ndarray (compat/_numpy.py); anything else gives
NotImplemented (then Python tries the other operand's operator)."""
from __future__ import annotations

import operator

from strided.core import base as _core, ops as _ops

from ._array import Array, adopt
from ._creation import asarray
from ._elementwise import BINARY, UNARY, _dtype_mask
from . import _elementwise, _linalg, _numpy

# (operator, function): __op__, __rop__ and __iop__
OPERATORS = [
    ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide"),
    ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "pow"),
    ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
    ("lshift", "bitwise_left_shift"), ("rshift", "bitwise_right_shift"),
    ("matmul", "matmul"),
]
COMPARISONS = [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"),
               ("gt", "greater"), ("ge", "greater_equal")]
UNARY_OPERATORS = [("neg", "negative"), ("pos", "positive"), ("abs", "abs"),
                   ("invert", "bitwise_invert")]

_SCALARS = (bool, int, float, complex)
_I64 = 1 << 63
_binary_new, _unary_new = _core.lib.st_binary_new, _core.lib.st_unary_new
_scalar_new = _core.lib.st_binary_scalar_new


def _function(name):
    return getattr(_elementwise, name, None) or getattr(_linalg, name)


def _python_operator(name):
    """The operator module's function of dunder `name` ("add", "and", ...)."""
    return getattr(operator, name, None) or getattr(operator, name + "_")


def binary_operator(f, reflected, name):
    """__op__ (or __rop__) of function f, with the one-call fast paths when
    f is an elementwise function of the table.  `name` is the operator's
    ("add", "eq", ...): with a numpy array, the expression is numpy's."""
    py_op = _python_operator(name)

    def foreign(self, other):
        """An operand that is neither an Array nor a Python number."""
        if _numpy.is_array(other):
            return _numpy.expression(py_op, self, other, reflected)
        other = _numpy.operand(other)       # a numpy scalar: the number it holds
        if other is None:
            return NotImplemented
        return f(other, self) if reflected else f(self, other)

    if f.__name__ not in BINARY:
        def dunder(self, other):
            if not isinstance(other, (Array,) + _SCALARS):
                return foreign(self, other)
            return f(other, self) if reflected else f(self, other)
    else:
        op, category = BINARY[f.__name__]
        code, mask = _ops.BINARY[op], _dtype_mask(category)

        def dunder(self, other):
            kind = type(other)
            if kind is Array and not reflected:
                t = _binary_new(code, mask, self._c.t, other._c.t)
            elif kind is float:
                t = _scalar_new(code, mask, self._c.t, 0, 0, other, reflected)
            elif kind is int and -_I64 <= other < _I64:
                t = _scalar_new(code, mask, self._c.t, 1, other, 0.0, reflected)
            elif not isinstance(other, (Array,) + _SCALARS):
                return foreign(self, other)
            else:
                t = None
            if t:
                return adopt(t)
            return f(other, self) if reflected else f(self, other)
    dunder.__name__ = dunder.__qualname__ = f"__{'r' if reflected else ''}{f.__name__}__"
    return dunder


def inplace_operator(f):
    def dunder(self, other):
        if not isinstance(other, (Array,) + _SCALARS):
            # x stays an Array: a numpy array is read as one, a numpy scalar
            # is the number it holds
            other = asarray(other) if _numpy.is_array(other) else _numpy.operand(other)
            if other is None:
                return NotImplemented
        res = f(self, other)
        # numpy's errors: another shape is a ValueError, another dtype a TypeError
        if res.shape != self.shape:
            raise ValueError(f"in-place {f.__name__}: non-broadcastable output operand with "
                             f"shape {self.shape} doesn't match the broadcast shape {res.shape}")
        if res.dtype is not self.dtype:
            raise TypeError(f"in-place {f.__name__}: cannot cast the result from "
                            f"{res.dtype.name} to {self.dtype.name} (the array's dtype "
                            f"is kept; use astype)")
        _core.copy_(self._c, res._c)
        return self
    dunder.__name__ = dunder.__qualname__ = f"__i{f.__name__}__"
    return dunder


def unary_operator(f):
    """__neg__ and its kin: the plain case in one C call."""
    code, mask = _ops.UNARY[UNARY[f.__name__][0]], _dtype_mask(UNARY[f.__name__][1])

    def dunder(self):
        t = _unary_new(code, mask, self._c.t)
        if t:
            return adopt(t)
        return f(self)
    dunder.__name__ = dunder.__qualname__ = f"__{f.__name__}__"
    return dunder


def _install():
    made = {}
    for name, fname in OPERATORS:
        f = _function(fname)
        made[f"__{name}__"] = binary_operator(f, False, name)
        made[f"__r{name}__"] = binary_operator(f, True, name)
        made[f"__i{name}__"] = inplace_operator(f)
    for name, fname in COMPARISONS:
        made[f"__{name}__"] = binary_operator(_function(fname), False, name)
    for name, fname in UNARY_OPERATORS:
        made[f"__{name}__"] = unary_operator(_function(fname))
    for dunder, method in made.items():
        setattr(Array, dunder, method)


_install()

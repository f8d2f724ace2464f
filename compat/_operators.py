"""The operators of the Array, each made once here from the elementwise
functions: `x + y` is add(x, y), `x += y` writes add's result into x.

The operators of the elementwise table are the type slots of the Array's
C base (strided/_c/pyarray.c): the plain cases go to C without a Python
frame (another Array of the same dtype and shape, or a Python float or int
that converts plainly to the array's dtype); every other case calls the
Python operator made here (`general`), which gives what the function
gives.  A numpy scalar acts as the Python number it holds; with a numpy
array the expression is numpy's, an ndarray (compat/_numpy.py); anything
else gives NotImplemented (then Python tries the other operand's
operator).  matmul is a slot too (two Arrays of one dtype, 1-D or 2-D, in
C: fast.c's st_matmul_new).  The in-place operators are slots too: `x op=
y` is written straight into x in C (fast.c's st_binary_into) when y is an
Array of x's dtype that broadcasts to x's shape or a plain number, and by
the Python operator made here (`inplace_operator`) otherwise.

Here too, once, the Array gets what lives in modules that import
_array.py (so _array.py imports none of them): the indexing C declines
(_indexing.py), astype (_manipulation.py), pickling (_pickle.py)."""

from __future__ import annotations

import operator

from strided.core import arraytype as _arraytype, base as _core, ops as _ops

from ._array import Array, _mT, _T
from ._creation import asarray
from ._elementwise_table import BINARY, UNARY
from ._promotion import dtype_mask as _dtype_mask
from . import _elementwise, _linalg, _numpy, _pickle
from ._indexing import array_getitem, array_setitem
from ._manipulation import astype

# (operator, function): __op__, __rop__ and __iop__
OPERATORS = [
    ("add", "add"),
    ("sub", "subtract"),
    ("mul", "multiply"),
    ("truediv", "divide"),
    ("floordiv", "floor_divide"),
    ("mod", "remainder"),
    ("pow", "pow"),
    ("and", "bitwise_and"),
    ("or", "bitwise_or"),
    ("xor", "bitwise_xor"),
    ("lshift", "bitwise_left_shift"),
    ("rshift", "bitwise_right_shift"),
    ("matmul", "matmul"),
]
COMPARISONS = [
    ("eq", "equal"),
    ("ne", "not_equal"),
    ("lt", "less"),
    ("le", "less_equal"),
    ("gt", "greater"),
    ("ge", "greater_equal"),
]
UNARY_OPERATORS = [
    ("neg", "negative"),
    ("pos", "positive"),
    ("abs", "abs"),
    ("invert", "bitwise_invert"),
]

_SCALARS = (bool, int, float, complex)


def _function(name):
    return getattr(_elementwise, name, None) or getattr(_linalg, name)


def _python_operator(name):
    """The operator module's function of dunder `name` ("add", "and", ...)."""
    return getattr(operator, name, None) or getattr(operator, name + "_")


def general(f, reflected, name):
    """x op y (reflected: y op x, x the Array) for the cases C leaves: f's
    answer, numpy's expression with a numpy array, NotImplemented for an
    operand that is neither an Array nor a number.  `name` is the
    operator's ("add", "eq", ...)."""
    py_op = _python_operator(name)

    def dunder(self, other):
        if not isinstance(other, (Array,) + _SCALARS):
            if _numpy.is_array(other):
                return _numpy.expression(py_op, self, other, reflected)
            other = _numpy.operand(other)  # a numpy scalar: the number it holds
            if other is None:
                return NotImplemented
        return f(other, self) if reflected else f(self, other)

    dunder.__name__ = dunder.__qualname__ = f"__{'r' if reflected else ''}{f.__name__}__"
    return dunder


def inplace_operator(f):
    into = getattr(f, "into", None)  # elementwise: the result written straight into x

    def dunder(self, other):
        if not isinstance(other, (Array,) + _SCALARS):
            # x stays an Array: a numpy array is read as one, a numpy scalar
            # is the number it holds
            other = asarray(other) if _numpy.is_array(other) else _numpy.operand(other)
            if other is None:
                return NotImplemented
        if into is not None:
            return into(self, other)
        res = f(self, other)  # matmul: the product, then into x
        if res.shape != self.shape:
            raise ValueError(
                f"in-place {f.__name__}: non-broadcastable output operand with "
                f"shape {self.shape} doesn't match the broadcast shape {res.shape}"
            )
        if res.dtype is not self.dtype:
            raise TypeError(
                f"in-place {f.__name__}: cannot cast the result from "
                f"{res.dtype.name} to {self.dtype.name} (the array's dtype "
                f"is kept; use astype)"
            )
        _core.copy_(self._c, res._c)
        return self

    dunder.__name__ = dunder.__qualname__ = f"__i{f.__name__}__"
    return dunder


def _install():
    """The C slots' table (pyarray.c's setup) and the Python methods."""
    table = {}
    for name, fname in OPERATORS + COMPARISONS:
        f = _function(fname)
        # matmul has no elementwise op code (C calls st_matmul_new)
        op, category = BINARY[fname][:2] if fname in BINARY else (None, "numeric")
        arithmetic = (name, fname) in OPERATORS  # has reflected and in-place forms
        table[name] = (
            _ops.BINARY[op] if op else -1,
            _dtype_mask(category),
            general(f, False, name),
            general(f, True, name) if arithmetic else None,
            inplace_operator(f) if arithmetic else None,
        )
    for name, fname in UNARY_OPERATORS:
        f = _function(fname)
        op, category = UNARY[fname][:2]
        table[name] = (_ops.UNARY[op], _dtype_mask(category), f, None, None)
    _arraytype.setup_operators(
        Array, table, {"getitem": array_getitem, "setitem": array_setitem, "T": _T, "mT": _mT}
    )
    # the methods whose modules import _array.py
    setattr(Array, "astype", astype)
    setattr(Array, "__reduce_ex__", _pickle.reduce)
    setattr(Array, "__reduce__", _pickle.reduce)


_install()

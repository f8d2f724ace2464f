"""strided.compat.fuse: an elementwise expression of several arrays
evaluated in one cache-blocked pass, without full-size temporaries.

`fuse(f)` returns a callable; calling it with arrays traces `f` once per
signature (the arrays' dtypes) on `Value` objects that stand for the
arrays: the operators and the elementwise functions of this namespace
(`xp.exp(a)`, `a * b + 1.5`, `xp.where` excepted: only the standard's
elementwise table) record their operation, with the dtype promotion and
scalar rules of the unfused call and its errors.  The recorded expression
becomes a program of the C core (strided/core/fuse.py, strided/_c/fuse.c)
run over the arrays broadcast together.  The result is the unfused
expression's, value for value: each operation is the same kernel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from strided.core import base as _core, fuse as _fuse, ops as _ops
from strided.core.fuse import Traced

from . import _dtypes, _numpy
from ._array import Array
from ._dtypes import KINDS
from ._elementwise_table import BINARY, UNARY
from ._promotion import FLOAT_FOR_INTEGERS, check as _check

_SCALARS = (bool, int, float, complex)

# the Array's operators and the functions they are (compat/_operators.py)
_OPERATORS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "pow",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
_COMPARISONS = {
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}
_UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


class _Trace:
    """One tracing of a fused function: its arrays, then its constants."""

    def __init__(self, narrays):
        self.narrays, self.constants, self._index = narrays, [], {}

    def constant(self, value, dt):
        """A Python scalar of the expression, converted to dt as the unfused
        call converts it (its errors included); one input per distinct
        value (repr tells -0.0 from 0.0) and dtype."""
        key = (type(value), repr(value), dt)
        if key not in self._index:
            self.constants.append(_core.scalar(value, dt))
            self._index[key] = self.narrays + len(self.constants) - 1
        return _fuse.source(self._index[key], dt)


def _unsupported(what):
    def refuse(self, *args, **kwargs):
        raise TypeError(
            f"fuse: {what} is not known while a fused function is traced: it "
            f"is an elementwise expression of its arguments (operators, Python "
            f"scalars and the elementwise functions of strided.compat)"
        )

    return refuse


class Value(Traced):
    """An array of a fused function while it is traced: its dtype is known,
    its values are not."""

    __slots__ = ("node", "trace")
    # the argument checks of the other functions name it so (compat/_argcheck.py)
    refused_as = (
        "a value of a fused function (fuse takes elementwise operations only: "
        "nothing that reads an array's memory or shape)"
    )

    def __init__(self, node, trace):
        self.node, self.trace = node, trace

    @property
    def dtype(self):
        return self.node.dtype

    def __array_namespace__(self, /, *, api_version=None):
        import strided.compat

        return strided.compat

    def __repr__(self):
        return f"<traced {self.dtype.name} value of a fused function>"

    def record(self, name, args):
        """The elementwise function `name` of args (compat/_elementwise.py's
        call, self among args), traced."""
        return self.unary(name) if len(args) == 1 else self.binary(name, *args)

    def unary(self, name):
        op, category = UNARY[name][:2]
        _check(name, self.dtype, category)
        return Value(_fuse.unary(op, self.node), self.trace)

    def binary(self, name, x1, x2):
        op, category = BINARY[name][:2]
        x1, x2 = _operand(name, x1, self.trace), _operand(name, x2, self.trace)
        if isinstance(x1, Value) and isinstance(x2, Value):
            dt = _dtypes.promote(x1.dtype, x2.dtype)
        else:
            v, s = (x1, x2) if isinstance(x1, Value) else (x2, x1)
            dt = _dtypes.scalar_result(v.dtype, s)
        _check(name, dt, category)
        a = x1.node if isinstance(x1, Value) else self.trace.constant(x1, dt)
        b = x2.node if isinstance(x2, Value) else self.trace.constant(x2, dt)
        kernel = _core.float64 if name in FLOAT_FOR_INTEGERS and dt in KINDS["integral"] else dt
        return Value(_fuse.binary(op, a, b, kernel), self.trace)

    # whatever needs the values or the memory
    __bool__ = _unsupported("a truth value")
    __int__ = __float__ = __complex__ = __index__ = _unsupported("a Python number")
    __getitem__ = __setitem__ = _unsupported("an element (indexing)")
    __len__ = __iter__ = _unsupported("a length (iteration)")
    __matmul__ = __rmatmul__ = _unsupported("a matrix product")
    __hash__ = None  # type: ignore[assignment]  # a traced value is no key
    # the memory and the geometry (what every other function reads)
    _c = shape = ndim = size = device = T = mT = property(
        _unsupported("an array's memory or shape")
    )


def _operand(name, x, trace):
    """x as the binary functions take it: a Value of this trace or a Python
    scalar (a numpy scalar is the number it holds)."""
    if isinstance(x, Value):
        if x.trace is not trace:
            raise TypeError(f"fuse: {name} of values of two different fused calls")
        return x
    if not isinstance(x, _SCALARS):
        v = _numpy.operand(x)
        if v is None:
            raise TypeError(
                f"fuse: {name} in a fused function takes values computed from "
                f"its arguments or Python scalars, got {type(x).__name__} "
                f"(pass arrays as arguments of the fused call)"
            )
        x = v
    return x


def _install():
    for dunder, fname in _OPERATORS.items():
        setattr(Value, f"__{dunder}__", lambda self, other, _n=fname: self.binary(_n, self, other))
        setattr(Value, f"__r{dunder}__", lambda self, other, _n=fname: self.binary(_n, other, self))
    for dunder, fname in _COMPARISONS.items():
        setattr(Value, f"__{dunder}__", lambda self, other, _n=fname: self.binary(_n, self, other))
    for dunder, fname in _UNARY_OPERATORS.items():
        setattr(Value, f"__{dunder}__", lambda self, _n=fname: self.unary(_n))


_install()


class Fused(_fuse.Fused):
    """A fused elementwise function (made by `fuse`); its programs by the
    arrays' dtypes."""

    def __call__(self, *arrays):
        if not arrays:
            raise TypeError("fuse: a fused function is called with at least one array")
        for i, a in enumerate(arrays):
            if not isinstance(a, Array):
                raise TypeError(
                    f"fuse: argument {i} of the fused call must be an Array, got "
                    f"{type(a).__name__} (Python scalars go in the function body)"
                )
        program, constants = self.program(tuple(a.dtype for a in arrays))
        used = [i for i in program.used if i < len(arrays)]
        shape = _ops.broadcast_shapes(*(arrays[i].shape for i in used))
        inputs = [arrays[i]._c if i in used else None for i in range(len(arrays))] + constants
        return Array._new(program.run(inputs, shape, [arrays[i]._c for i in used]))

    def _trace(self, dtypes):
        trace = _Trace(len(dtypes))
        result = self.f(*(Value(_fuse.source(i, dt), trace) for i, dt in enumerate(dtypes)))
        if not isinstance(result, Value) or result.trace is not trace:
            raise TypeError(
                f"fuse: the function must return one value computed from its "
                f"arguments, got {type(result).__name__}"
            )
        return _fuse.Program(result.node, len(dtypes) + len(trace.constants)), trace.constants


def fuse(f: Callable[..., Any], /) -> Callable[..., Array]:
    """An elementwise expression of several arrays as one function,
    evaluated in a single cache-blocked pass (no full-size temporaries).

    Parameters
    ----------
    f : callable
        A function of arrays built from the operators, Python scalars and
        the standard's elementwise functions of this namespace (``where``
        excepted).

    Returns
    -------
    callable
        Called with arrays, it returns ``f`` of them, value for value what
        the unfused call gives (same kernels, promotion and broadcasting),
        computed block by block in C.  Also usable as a decorator.

    Raises
    ------
    TypeError
        When ``f`` is not callable; at the call, when an argument is not an
        Array, when ``f`` reads anything but elementwise values (a shape,
        an element, a truth value, a non-elementwise function) or returns
        something not computed from its arguments, and for the dtype errors
        of the unfused expression.

    Notes
    -----
    Beyond the standard (strided's own).  ``f`` is traced once per
    signature (the arrays' dtypes); what it reads besides its arguments is
    taken at that first call.  docs/array-api.md, *Fused expressions*.

    Examples
    --------
    >>> import strided.compat as xp
    >>> axpy = xp.fuse(lambda a, x, y: a * x + y)
    >>> axpy(xp.asarray(2.0), xp.asarray([1.0, 2.0]), xp.asarray([0.5, 0.5]))
    Array([2.5, 4.5], dtype=float64)
    """
    if not callable(f):
        raise TypeError(f"fuse: expected a function, got {type(f).__name__}")
    return Fused(f)


__all__ = ["fuse"]

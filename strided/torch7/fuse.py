"""torch.fuse: an elementwise expression of several tensors evaluated in
one cache-blocked pass, without full-size temporaries (the engine is
strided.core.fuse, shared with strided.compat.fuse).

`torch.fuse(f)` returns a function; calling it with tensors traces f once
per signature (the tensors' class and count) on `Value` objects standing
for them.  The face's own rules apply, as in the unfused expression: one
tensor type throughout, no broadcasting (operands of the first one's
element count, read in row-major order), numbers converted to the tensor
type, the result shaped as the first operand; the operators of the face
(+ and - between tensors and numbers, * / % by a number, unary -) and the
elementwise torch functions declared by an elementwise form in spec.py
(torch.add, torch.cmul, torch.cdiv, torch.exp, torch.pow ...; not those
with Lua's own rules, such as round and sign) record their operation.
`a * b` of two tensors is Torch7's matrix product, not elementwise: use
torch.cmul(a, b)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import base as _core, fuse as _fuse
from ..core.fuse import Traced
from . import maths
from .core_ops import run_op
from .tensor import Tensor, _as_shape, _is_number


class _Trace:
    """One tracing: the class, the tensors of the call, then constants."""

    def __init__(self, cls, narrays):
        self.cls, self.narrays, self.constants, self._index = cls, narrays, [], {}

    def constant(self, value):
        """A number of the expression in the tensor type (Torch7's conversion
        and its errors); one input per distinct value."""
        key = (type(value), repr(value))
        if key not in self._index:
            self.constants.append(_core.scalar(value, self.cls._dt))
            self._index[key] = self.narrays + len(self.constants) - 1
        return _fuse.source(self._index[key], self.cls._dt)


class Value(Traced):
    """A tensor of a fused function while it is traced.  `first` is the
    call's argument whose shape the value has (its first operand's)."""

    __slots__ = ("node", "trace", "first")

    def __init__(self, node, trace, first):
        self.node, self.trace, self.first = node, trace, first

    def __repr__(self):
        return f"<traced {self.trace.cls._typename} of a fused function>"

    def _of(self, node, first=None):
        return Value(node, self.trace, self.first if first is None else first)

    def _operand(self, other, what):
        """other as the second operand: a Value of this trace, or a number
        (a Torch7 constant of the tensor type)."""
        if isinstance(other, Value):
            if other.trace is not self.trace:
                raise TypeError(f"fuse: {what} of values of two different fused calls")
            return other.node
        if _is_number(other):
            return self.trace.constant(other)
        raise TypeError(
            f"fuse: {what} of a traced tensor and a {type(other).__name__}: "
            f"in a fused function, operands are its arguments, values computed "
            f"from them, or numbers"
        )

    def binary(self, op, other, what):
        return self._of(_fuse.binary(op, self.node, self._operand(other, what)))

    def reversed(self, op, number, what):
        """number op self."""
        return self._of(_fuse.binary(op, self._operand(number, what), self.node))

    def unary(self, op):
        return self._of(_fuse.unary(op, self.node))

    def _op(self, name):
        """The core op Torch7's `name` runs for the traced type (the op table's)."""
        return run_op(name, self.trace.cls._dt)

    # the face's operators (functions.py: OPERATORS)
    def __add__(self, other):
        return self.binary("add", other, "+")

    __radd__ = __add__

    def __sub__(self, other):
        return self.binary("subtract", other, "-")

    def __rsub__(self, other):
        return self.reversed("subtract", other, "-")

    def __mul__(self, other):
        if isinstance(other, Value):
            raise TypeError(
                "fuse: tensor * tensor is Torch7's matrix product, not "
                "elementwise: use torch.cmul(a, b) in a fused function"
            )
        return self.binary("multiply", other, "*")

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not _is_number(other):
            return NotImplemented  # as the face: a tensor divides by a number only
        return self.binary(self._op("div"), other, "/")

    def __mod__(self, other):
        if not _is_number(other):
            return NotImplemented
        return self.binary("remainder", other, "%")

    def __neg__(self):
        return self.unary("negative")

    def __bool__(self):
        raise TypeError("fuse: a truth value is not known while a fused function is traced")

    __hash__ = None

    def record(self, entry, args):
        """torch.<entry>(*args) with traced values among args (self the
        first): the operation of its elementwise form, recorded."""
        cls = self.trace.cls
        name = f"torch.{entry.name}"
        if any(isinstance(a, Tensor) for a in args):
            raise TypeError(
                f"fuse: {name} given a tensor (a result tensor, or one that is not an "
                f"argument of the fused call): a fused function returns its value and "
                f"takes its tensors as arguments"
            )
        found = entry._match(args, Value, False)
        form = entry.forms[found[0]] if found else None
        op = getattr(form, "op", None)  # an Elementwise: spec.py's data
        if op is None:
            raise TypeError(
                f"fuse: {name} of these arguments has no elementwise form to fuse "
                f"(fused functions take the face's operators and its elementwise "
                f"functions of tensors and numbers)"
            )
        if cls._dt not in entry.types:
            raise TypeError(f"{entry.name} is not defined for {cls._typename}")
        fi, sources = found
        if sources[0][0] != 2:
            raise TypeError(
                f"fuse: {name} with a result tensor: a fused function returns its value"
            )
        values = _values(entry, args, sources, form.args)
        core_op = run_op(op.name, cls._dt)
        if op.kind == "unary":
            return values[1].unary(core_op)
        if op.kind == "reversed":
            _, number, x = values
            return x.reversed(core_op, number, name)
        if op.kind == "scaled":
            _, x, value, y = values
            if value != 1:  # maths.scaled_binary: y * value first
                y = y.binary("multiply", value, name)
            return x.binary(core_op, y, name)
        _, x, y = values
        return x.binary(core_op, y, name)


def _values(entry, args, sources, slots):
    """The slot values of a matched form (forms.Entry.call's)."""
    values = []
    for (how, x), _slot in zip(sources, slots):
        values.append(args[x] if how == 0 else values[x] if how == 3 else None if how == 2 else x)
    return values


class Fused(_fuse.Fused):
    """A fused elementwise function (made by torch.fuse); its programs by
    (tensor class, argument count)."""

    def __call__(self, *tensors):
        if not tensors:
            raise TypeError("fuse: a fused function is called with at least one tensor")
        cls = type(tensors[0])
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError(
                    f"fuse: argument {i + 1} of the fused call must be a tensor, got "
                    f"{type(t).__name__} (numbers go in the function body)"
                )
            if type(t) is not cls:
                raise TypeError(
                    f"fuse: arguments are {cls._typename} and {t._typename}; "
                    f"convert one with type()"
                )
        if not hasattr(cls, "add"):
            raise TypeError(f"fuse: {cls._typename} has no maths")
        program, constants, first = self.program((cls, len(tensors)))
        shape = maths._shape(tensors[first])
        n = tensors[first].nElement()
        used = [i for i in program.used if i < len(tensors)]
        for i in used:
            if tensors[i].nElement() != n:
                raise ValueError(
                    f"fuse: arguments {first + 1} and {i + 1} have {n} and "
                    f"{tensors[i].nElement()} elements"
                )
        res = cls()
        out = maths.into(res, shape)
        if out is not None:
            inputs = [
                _as_shape(tensors[i]._kcore(), shape) if i in used else None
                for i in range(len(tensors))
            ] + constants
            program.run(inputs, shape, out=out)
        return res

    def _trace(self, key):
        cls, count = key
        trace = _Trace(cls, count)
        args = [Value(_fuse.source(i, cls._dt), trace, i) for i in range(count)]
        result = self.f(*args)
        if not isinstance(result, Value) or result.trace is not trace:
            raise TypeError(
                f"fuse: the function must return one value computed from its "
                f"arguments, got {type(result).__name__}"
            )
        program = _fuse.Program(result.node, count + len(trace.constants))
        return program, trace.constants, result.first


def fuse(f: Callable[..., Any]) -> Callable[..., Any]:
    """An elementwise expression of tensors as one function, evaluated in a
    single pass over blocks of a few KB (no full-size temporaries).

    Parameters
    ----------
    f : callable
        A function of tensors built from the face's operators, numbers and
        the elementwise ``torch.*`` functions (add, csub, mul, div, cmul,
        cdiv, pow, cpow, exp, log, sqrt, ...).

    Returns
    -------
    callable
        Called with tensors of one type and one size, it returns ``f`` of
        them, value for value what the unfused call gives.  Also usable as
        a decorator.

    Raises
    ------
    TypeError
        When ``f`` is not callable; at the call, when an argument is not a
        tensor, when the tensors' types or sizes differ (no broadcasting on
        this face), or when ``f`` reads anything but elementwise values.

    Notes
    -----
    strided's own, not Lua Torch7's.  ``f`` is traced once per tensor class
    and argument count; what it reads besides its arguments is taken at
    that first call.  docs/torch7.md, *Fused expressions*.

    Examples
    --------
    >>> import strided as torch
    >>> axpy = torch.fuse(lambda x, y: x * 2 + y)
    >>> axpy(torch.Tensor([1, 2]), torch.Tensor([0.5, 0.5]))
     2.5000
     4.5000
    [torch.DoubleTensor of dimension 2]
    """
    if not callable(f):
        raise TypeError(f"fuse: expected a function, got {type(f).__name__}")
    return Fused(f)


__all__ = ["fuse"]

"""The docstrings of the elementwise functions (compat/_elementwise.py makes
each from a row of the op table, and this module writes its docstring):
the summary (the row's) and the parameters after the array API standard's
own text (array_api_stubs, 2025.12), the dtype category from the row, the
example run as a doctest by tests/project/test_docs.py."""

from __future__ import annotations

import textwrap
from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

# name: ({parameter: description}, example session); the summary line is the
# function's row in the op table (strided/_c/inventory.py's doc)
ELEMENTWISE: dict[str, tuple[dict[str, str], str]] = {
    'abs': (
        {'x': 'Input array.'},
        '>>> xp.abs(xp.asarray([-1.5, 2.0]))\nArray([1.5, 2.], dtype=float64)',
    ),
    'acos': (
        {'x': 'Input array.'},
        '>>> xp.acos(xp.asarray([1.0, 0.0]))\nArray([0., 1.5707963267948966], dtype=float64)',
    ),
    'acosh': (
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.acosh(xp.asarray([1.0, 2.0]))\nArray([0., 1.3169578969248166], dtype=float64)',
    ),
    'asin': (
        {'x': 'Input array.'},
        '>>> xp.asin(xp.asarray([0.0, 1.0]))\nArray([0., 1.5707963267948966], dtype=float64)',
    ),
    'asinh': (
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.asinh(xp.asarray([0.0, 1.0]))\nArray([0., 0.881373587019543], dtype=float64)',
    ),
    'atan': (
        {'x': 'Input array.'},
        '>>> xp.atan(xp.asarray([0.0, 1.0]))\nArray([0., 0.7853981633974483], dtype=float64)',
    ),
    'atanh': (
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.atanh(xp.asarray([0.0, 0.5]))\nArray([0., 0.5493061443340548], dtype=float64)',
    ),
    'bitwise_invert': (
        {'x': 'Input array.'},
        '>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.int8))\nArray([-1, -6], dtype=int8)',
    ),
    'ceil': (
        {'x': 'Input array.'},
        '>>> xp.ceil(xp.asarray([-1.5, 1.2]))\nArray([-1., 2.], dtype=float64)',
    ),
    'floor': (
        {'x': 'Input array.'},
        '>>> xp.floor(xp.asarray([-1.5, 1.2]))\nArray([-2., 1.], dtype=float64)',
    ),
    'trunc': (
        {'x': 'Input array.'},
        '>>> xp.trunc(xp.asarray([-1.7, 1.7]))\nArray([-1., 1.], dtype=float64)',
    ),
    'round': (
        {'x': 'Input array.'},
        '>>> xp.round(xp.asarray([0.5, 1.5, 2.5, -0.5]))\nArray([0., 2., 2., -0.], dtype=float64)',
    ),
    'conj': (
        {'x': 'Input array.'},
        '>>> xp.conj(xp.asarray([1 + 2j]))\nArray([(1-2j)], dtype=complex128)',
    ),
    'real': (
        {'x': 'Input array.'},
        '>>> xp.real(xp.asarray([1 + 2j]))\nArray([1.], dtype=float64)',
    ),
    'imag': (
        {'x': 'Input array.'},
        '>>> xp.imag(xp.asarray([1 + 2j]))\nArray([2.], dtype=float64)',
    ),
    'cos': (
        {'x': 'Input array whose elements are each expressed in radians.'},
        '>>> xp.cos(xp.asarray([0.0, 3.141592653589793]))\nArray([1., -1.], dtype=float64)',
    ),
    'cosh': (
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.cosh(xp.asarray([0.0, 1.0]))\nArray([1., 1.5430806348152437], dtype=float64)',
    ),
    'sin': (
        {'x': 'Input array whose elements are each expressed in radians.'},
        '>>> xp.sin(xp.asarray([0.0, 1.5707963267948966]))\nArray([0., 1.], dtype=float64)',
    ),
    'sinh': (
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.sinh(xp.asarray([0.0, 1.0]))\nArray([0., 1.1752011936438014], dtype=float64)',
    ),
    'tan': (
        {'x': 'Input array whose elements are expressed in radians.'},
        '>>> xp.tan(xp.asarray([0.0, 0.7853981633974483]))\nArray([0., 0.9999999999999999], dtype=float64)',
    ),
    'tanh': (
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.tanh(xp.asarray([0.0, 1.0]))\nArray([0., 0.7615941559557649], dtype=float64)',
    ),
    'exp': (
        {'x': 'Input array.'},
        '>>> xp.exp(xp.asarray([0.0, 1.0]))\nArray([1., 2.718281828459045], dtype=float64)',
    ),
    'expm1': (
        {'x': 'Input array.'},
        '>>> xp.expm1(xp.asarray([0.0, 1e-10]))\nArray([0., 1.00000000005e-10], dtype=float64)',
    ),
    'log': (
        {'x': 'Input array.'},
        '>>> xp.log(xp.asarray([1.0, 2.718281828459045]))\nArray([0., 1.], dtype=float64)',
    ),
    'log1p': (
        {'x': 'Input array.'},
        '>>> xp.log1p(xp.asarray([0.0, 1e-10]))\nArray([0., 9.999999999500001e-11], dtype=float64)',
    ),
    'log2': (
        {'x': 'Input array.'},
        '>>> xp.log2(xp.asarray([1.0, 8.0]))\nArray([0., 3.], dtype=float64)',
    ),
    'log10': (
        {'x': 'Input array.'},
        '>>> xp.log10(xp.asarray([1.0, 1000.0]))\nArray([0., 3.], dtype=float64)',
    ),
    'isfinite': (
        {'x': 'Input array.'},
        '>>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))\nArray([True, False, False], dtype=bool)',
    ),
    'isinf': (
        {'x': 'Input array.'},
        '>>> xp.isinf(xp.asarray([1.0, -xp.inf, xp.nan]))\nArray([False, True, False], dtype=bool)',
    ),
    'isnan': (
        {'x': 'Input array.'},
        '>>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))\nArray([False, False, True], dtype=bool)',
    ),
    'logical_not': (
        {'x': 'Input array.'},
        '>>> xp.logical_not(xp.asarray([True, False]))\nArray([False, True], dtype=bool)',
    ),
    'negative': (
        {'x': 'Input array.'},
        '>>> xp.negative(xp.asarray([1, -2]))\nArray([-1, 2], dtype=int64)',
    ),
    'positive': (
        {'x': 'Input array.'},
        '>>> xp.positive(xp.asarray([1, -2]))\nArray([1, -2], dtype=int64)',
    ),
    'reciprocal': (
        {'x': 'Input array.'},
        '>>> xp.reciprocal(xp.asarray([2.0, 4.0]))\nArray([0.5, 0.25], dtype=float64)',
    ),
    'sign': (
        {'x': 'Input array.'},
        '>>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))\nArray([-1., 0., 1.], dtype=float64)',
    ),
    'signbit': (
        {'x': 'Input array.'},
        '>>> xp.signbit(xp.asarray([-0.0, 0.0, -1.0]))\nArray([True, False, True], dtype=bool)',
    ),
    'sqrt': (
        {'x': 'Input array.'},
        '>>> xp.sqrt(xp.asarray([4.0, 2.0]))\nArray([2., 1.4142135623730951], dtype=float64)',
    ),
    'square': (
        {'x': 'Input array.'},
        '>>> xp.square(xp.asarray([3, -4]))\nArray([9, 16], dtype=int64)',
    ),
    'add': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        ">>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))\nArray([11, 22], dtype=int64)\n>>> xp.asarray([1, 2], dtype=xp.int8) + 3  # a Python scalar takes the array's dtype\nArray([4, 5], dtype=int8)",
    ),
    'subtract': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.subtract(xp.asarray([1, 2]), xp.asarray([10, 20]))\nArray([-9, -18], dtype=int64)',
    ),
    'multiply': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.multiply(xp.asarray([1.5, 2.0]), xp.asarray([2.0, 3.0]))\nArray([3., 6.], dtype=float64)',
    ),
    'divide': (
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.divide(xp.asarray([1.0, 3.0]), xp.asarray([2.0, 4.0]))\nArray([0.5, 0.75], dtype=float64)',
    ),
    'floor_divide': (
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.floor_divide(xp.asarray([7, -7]), xp.asarray([2, 2]))\nArray([3, -4], dtype=int64)',
    ),
    'remainder': (
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.remainder(xp.asarray([7, -7]), xp.asarray([3, 3]))\nArray([1, 2], dtype=int64)',
    ),
    'pow': (
        {
            'x1': 'First input array whose elements correspond to the exponentiation base.',
            'x2': 'Second input array whose elements correspond to the exponentiation exponent.',
        },
        '>>> xp.pow(xp.asarray([2.0, 3.0]), xp.asarray([3.0, 0.5]))\nArray([8., 1.7320508075688772], dtype=float64)',
    ),
    'atan2': (
        {
            'x1': 'Input array corresponding to the y-coordinates.',
            'x2': 'Input array corresponding to the x-coordinates.',
        },
        '>>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([1.0, 1.0]))\nArray([0.7853981633974483, -0.7853981633974483], dtype=float64)',
    ),
    'copysign': (
        {
            'x1': 'Input array containing magnitudes.',
            'x2': 'Input array whose sign bits are applied to the magnitudes of ``x1``.',
        },
        '>>> xp.copysign(xp.asarray([1.0, 2.0]), xp.asarray([-1.0, 1.0]))\nArray([-1., 2.], dtype=float64)',
    ),
    'hypot': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))\nArray([5., 13.], dtype=float64)',
    ),
    'logaddexp': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logaddexp(xp.asarray([0.0, 1.0]), xp.asarray([0.0, 1.0]))\nArray([0.6931471805599453, 1.6931471805599454], dtype=float64)',
    ),
    'nextafter': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.nextafter(xp.asarray([1.0]), xp.asarray([2.0]))\nArray([1.0000000000000002], dtype=float64)',
    ),
    'bitwise_and': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_and(xp.asarray([12, 10]), xp.asarray([6, 3]))\nArray([4, 2], dtype=int64)',
    ),
    'bitwise_or': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_or(xp.asarray([12, 10]), xp.asarray([1, 5]))\nArray([13, 15], dtype=int64)',
    ),
    'bitwise_xor': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_xor(xp.asarray([12, 10]), xp.asarray([6, 3]))\nArray([10, 9], dtype=int64)',
    ),
    'bitwise_left_shift': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 4]))\nArray([4, 48], dtype=int64)',
    ),
    'bitwise_right_shift': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_right_shift(xp.asarray([8, 12]), xp.asarray([1, 2]))\nArray([4, 3], dtype=int64)',
    ),
    'equal': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.equal(xp.asarray([1, 2]), xp.asarray([1, 3]))\nArray([True, False], dtype=bool)',
    ),
    'not_equal': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.not_equal(xp.asarray([1, 2]), xp.asarray([1, 3]))\nArray([False, True], dtype=bool)',
    ),
    'less': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.less(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([True, False], dtype=bool)',
    ),
    'less_equal': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.less_equal(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([True, True], dtype=bool)',
    ),
    'greater': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.greater(xp.asarray([1, 2]), xp.asarray([2, 1]))\nArray([False, True], dtype=bool)',
    ),
    'greater_equal': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.greater_equal(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([False, True], dtype=bool)',
    ),
    'logical_and': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_and(xp.asarray([True, False]), xp.asarray([True, True]))\nArray([True, False], dtype=bool)',
    ),
    'logical_or': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_or(xp.asarray([True, False]), xp.asarray([False, False]))\nArray([True, False], dtype=bool)',
    ),
    'logical_xor': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_xor(xp.asarray([True, False]), xp.asarray([True, True]))\nArray([False, True], dtype=bool)',
    ),
    'maximum': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.maximum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))\nArray([3., 5.], dtype=float64)',
    ),
    'minimum': (
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.minimum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))\nArray([1., 2.], dtype=float64)',
    ),
}


_KIND = {
    "numeric": "a numeric",
    "floating": "a floating-point",
    "real floating": "a real-valued floating-point",
    "real numeric": "a real-valued",
    "integral": "an integer",
    "integral or bool": "an integer or boolean",
    "bool": "a boolean",
    "any": "any",
}


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 76, initial_indent="    ", subsequent_indent="    ")


def elementwise(name: str, op: str, category: str, summary: str) -> str:
    """The numpy-style docstring of the elementwise function `name`
    (core op `op`, dtypes of `category`, its summary line)."""
    params, example = ELEMENTWISE[name]
    kind = _KIND[category]
    lines = [*textwrap.wrap(summary, 80), "", "Parameters", "----------"]
    for p, desc in params.items():
        lines.append(f"{p} : Array" + (" or Python scalar" if len(params) > 1 else ""))
        lines += _wrap(f"{desc} Must have {kind} data type.")
    lines += ["", "Returns", "-------", "Array"]
    lines += _wrap(
        "The elementwise results, in the shape the operands broadcast to"
        + (
            " and the dtype they promote to (a Python scalar takes the array's dtype)."
            if len(params) > 1
            else "."
        )
    )
    lines += ["", "Raises", "------", "TypeError"]
    lines += _wrap(
        "When an operand is not an Array (nor, for two operands, a Python scalar), "
        f"or its dtype is not {kind} one (the message names the function and the "
        "dtype)."
    )
    if len(params) > 1:
        lines += ["ValueError", "    When the shapes do not broadcast."]
    if name in ("floor_divide", "remainder"):
        lines += ["ZeroDivisionError", "    For an integer division by zero."]
    lines += ["", "Notes", "-----"]
    note = (
        f"One C kernel (the core's op ``{op}``), chosen for the CPU level at load time; "
        "arrays of the same dtype and shape, C-contiguous, take a single C call."
    )
    if name == "divide":
        note += " Integer inputs are divided in float64 (the standard leaves them open)."
    if name in ("floor_divide", "remainder"):
        note += " Python's semantics: the result has the sign of the divisor."
    lines += textwrap.wrap(note, 80)
    lines += ["", "Examples", "--------", ">>> import strided.compat as xp", *example.split("\n")]
    return "\n".join(lines)


# parameter entries that several functions' docstrings share word for word
# (the standard's text): a docstring line `{{name}}` of a function decorated
# with `sections` stands for SHARED[name]
SHARED = {
    # sum, prod, max, min, mean, var, std, count_nonzero, ...
    "keepdims_reduced": """\
keepdims : bool, optional
    If ``True``, the reduced axes (dimensions) must be included in the
    result as singleton dimensions, and, accordingly, the result must be
    compatible with the input array (see ``broadcasting``). Default:
    ``False``.""",
    # all, any, argmax, argmin, ...
    "keepdims_broadcast": """\
keepdims : bool, optional
    If ``True``, the reduced axes must be included in the result as
    singleton dimensions, and, accordingly, the result must be
    broadcast-compatible with the input array (see ``broadcasting``).
    Default: ``False``.""",
    # the binary functions of linalg
    "x1_x2": """\
x1 : Array
    First input array.
x2 : Array
    Second input array.""",
}

# the Raises section of the functions whose one check is their operand's type
RAISES_NOT_AN_ARRAY = """\
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""


def sections(**texts: str) -> Callable[[_F], _F]:
    """A decorator for the functions whose docstring sections are the same
    text as other functions' (the parameters of fft and ifft, the raises of
    sum and prod): each docstring line `{{name}}` becomes the section `name`
    (`{{raises}}`: "Raises", its underline, then texts["raises"], written
    once as a module constant), or, where `name` is no section given, the
    shared entry SHARED[name]; indented as the line is."""

    def apply(f: _F) -> _F:
        lines: list[str] = []
        for line in (f.__doc__ or "").split("\n"):
            key = line.strip()
            if key.startswith("{{") and key.endswith("}}") and key[2:-2] not in texts:
                indent = line[: len(line) - len(line.lstrip())]
                lines += [indent + t if t else "" for t in SHARED[key[2:-2]].split("\n")]
            elif key.startswith("{{") and key.endswith("}}"):
                indent = line[: len(line) - len(line.lstrip())]
                head = key[2:-2].capitalize()
                body = [head, "-" * len(head), *texts[key[2:-2]].split("\n")]
                lines += [indent + t if t else "" for t in body]
            else:
                lines.append(line)
        f.__doc__ = "\n".join(lines)
        return f

    return apply

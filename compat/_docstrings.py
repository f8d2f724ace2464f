"""The docstrings of the elementwise functions (compat/_elementwise.py makes
each from a table row, and this module writes its docstring): the
summary and the parameters after the array API standard's own text
(array_api_stubs, 2025.12), the dtype category from the table, the
example run as a doctest by tests/test_docs.py."""
from __future__ import annotations

import textwrap
from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

# name: (summary, {parameter: description}, example session)
ELEMENTWISE: dict[str, tuple[str, dict[str, str], str]] = {
    'abs': (
        'Calculates the absolute value for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.abs(xp.asarray([-1.5, 2.0]))\nArray([1.5, 2.], dtype=float64)'),
    'acos': (
        'Calculates an implementation-dependent approximation of the principal value of the inverse cosine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.acos(xp.asarray([1.0, 0.0]))\nArray([0., 1.5707963267948966], dtype=float64)'),
    'acosh': (
        'Calculates an implementation-dependent approximation to the inverse hyperbolic cosine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.acosh(xp.asarray([1.0, 2.0]))\nArray([0., 1.3169578969248166], dtype=float64)'),
    'asin': (
        'Calculates an implementation-dependent approximation of the principal value of the inverse sine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.asin(xp.asarray([0.0, 1.0]))\nArray([0., 1.5707963267948966], dtype=float64)'),
    'asinh': (
        'Calculates an implementation-dependent approximation to the inverse hyperbolic sine for each element ``x_i`` in the input array ``x``.',
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.asinh(xp.asarray([0.0, 1.0]))\nArray([0., 0.881373587019543], dtype=float64)'),
    'atan': (
        'Calculates an implementation-dependent approximation of the principal value of the inverse tangent for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.atan(xp.asarray([0.0, 1.0]))\nArray([0., 0.7853981633974483], dtype=float64)'),
    'atanh': (
        'Calculates an implementation-dependent approximation to the inverse hyperbolic tangent for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements each represent the area of a hyperbolic sector.'},
        '>>> xp.atanh(xp.asarray([0.0, 0.5]))\nArray([0., 0.5493061443340548], dtype=float64)'),
    'bitwise_invert': (
        'Inverts (flips) each bit for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.int8))\nArray([-1, -6], dtype=int8)'),
    'ceil': (
        'Rounds each element ``x_i`` of the input array ``x`` to the smallest (i.e., closest to ``-infinity``) integer-valued number that is not less than ``x_i``.',
        {'x': 'Input array.'},
        '>>> xp.ceil(xp.asarray([-1.5, 1.2]))\nArray([-1., 2.], dtype=float64)'),
    'floor': (
        'Rounds each element ``x_i`` of the input array ``x`` to the greatest (i.e., closest to ``+infinity``) integer-valued number that is not greater than ``x_i``.',
        {'x': 'Input array.'},
        '>>> xp.floor(xp.asarray([-1.5, 1.2]))\nArray([-2., 1.], dtype=float64)'),
    'trunc': (
        'Rounds each element ``x_i`` of the input array ``x`` to the nearest integer-valued number that is closer to zero than ``x_i``.',
        {'x': 'Input array.'},
        '>>> xp.trunc(xp.asarray([-1.7, 1.7]))\nArray([-1., 1.], dtype=float64)'),
    'round': (
        'Rounds each element ``x_i`` of the input array ``x`` to the nearest integer-valued number.',
        {'x': 'Input array.'},
        '>>> xp.round(xp.asarray([0.5, 1.5, 2.5, -0.5]))\nArray([0., 2., 2., -0.], dtype=float64)'),
    'conj': (
        'Returns the complex conjugate for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.conj(xp.asarray([1 + 2j]))\nArray([(1-2j)], dtype=complex128)'),
    'real': (
        'Returns the real component of a complex number for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.real(xp.asarray([1 + 2j]))\nArray([1.], dtype=float64)'),
    'imag': (
        'Returns the imaginary component of a complex number for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.imag(xp.asarray([1 + 2j]))\nArray([2.], dtype=float64)'),
    'cos': (
        'Calculates an implementation-dependent approximation to the cosine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements are each expressed in radians.'},
        '>>> xp.cos(xp.asarray([0.0, 3.141592653589793]))\nArray([1., -1.], dtype=float64)'),
    'cosh': (
        'Calculates an implementation-dependent approximation to the hyperbolic cosine for each element ``x_i`` in the input array ``x``.',
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.cosh(xp.asarray([0.0, 1.0]))\nArray([1., 1.5430806348152437], dtype=float64)'),
    'sin': (
        'Calculates an implementation-dependent approximation to the sine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements are each expressed in radians.'},
        '>>> xp.sin(xp.asarray([0.0, 1.5707963267948966]))\nArray([0., 1.], dtype=float64)'),
    'sinh': (
        'Calculates an implementation-dependent approximation to the hyperbolic sine for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.sinh(xp.asarray([0.0, 1.0]))\nArray([0., 1.1752011936438014], dtype=float64)'),
    'tan': (
        'Calculates an implementation-dependent approximation to the tangent for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements are expressed in radians.'},
        '>>> xp.tan(xp.asarray([0.0, 0.7853981633974483]))\nArray([0., 0.9999999999999999], dtype=float64)'),
    'tanh': (
        'Calculates an implementation-dependent approximation to the hyperbolic tangent for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array whose elements each represent a hyperbolic angle.'},
        '>>> xp.tanh(xp.asarray([0.0, 1.0]))\nArray([0., 0.7615941559557649], dtype=float64)'),
    'exp': (
        'Calculates an implementation-dependent approximation to the exponential function for each element ``x_i`` of the input array ``x`` (``e`` raised to the power of ``x_i``, where ``e`` is the base of the natural logarithm).',
        {'x': 'Input array.'},
        '>>> xp.exp(xp.asarray([0.0, 1.0]))\nArray([1., 2.718281828459045], dtype=float64)'),
    'expm1': (
        'Calculates an implementation-dependent approximation to ``exp(x)-1`` for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.expm1(xp.asarray([0.0, 1e-10]))\nArray([0., 1.00000000005e-10], dtype=float64)'),
    'log': (
        'Calculates an implementation-dependent approximation to the natural (base ``e``) logarithm for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.log(xp.asarray([1.0, 2.718281828459045]))\nArray([0., 1.], dtype=float64)'),
    'log1p': (
        'Calculates an implementation-dependent approximation to ``log(1+x)``, where ``log`` refers to the natural (base ``e``) logarithm, for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.log1p(xp.asarray([0.0, 1e-10]))\nArray([0., 9.999999999500001e-11], dtype=float64)'),
    'log2': (
        'Calculates an implementation-dependent approximation to the base ``2`` logarithm for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.log2(xp.asarray([1.0, 8.0]))\nArray([0., 3.], dtype=float64)'),
    'log10': (
        'Calculates an implementation-dependent approximation to the base ``10`` logarithm for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.log10(xp.asarray([1.0, 1000.0]))\nArray([0., 3.], dtype=float64)'),
    'isfinite': (
        'Tests each element ``x_i`` of the input array ``x`` to determine if finite.',
        {'x': 'Input array.'},
        '>>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))\nArray([True, False, False], dtype=bool)'),
    'isinf': (
        'Tests each element ``x_i`` of the input array ``x`` to determine if equal to positive or negative infinity.',
        {'x': 'Input array.'},
        '>>> xp.isinf(xp.asarray([1.0, -xp.inf, xp.nan]))\nArray([False, True, False], dtype=bool)'),
    'isnan': (
        'Tests each element ``x_i`` of the input array ``x`` to determine whether the element is ``NaN``.',
        {'x': 'Input array.'},
        '>>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))\nArray([False, False, True], dtype=bool)'),
    'logical_not': (
        'Computes the logical NOT for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.logical_not(xp.asarray([True, False]))\nArray([False, True], dtype=bool)'),
    'negative': (
        'Computes the numerical negative of each element ``x_i`` (i.e., ``y_i = -x_i``) of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.negative(xp.asarray([1, -2]))\nArray([-1, 2], dtype=int64)'),
    'positive': (
        'Computes the numerical positive of each element ``x_i`` (i.e., ``y_i = +x_i``) of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.positive(xp.asarray([1, -2]))\nArray([1, -2], dtype=int64)'),
    'reciprocal': (
        'Returns the reciprocal for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.reciprocal(xp.asarray([2.0, 4.0]))\nArray([0.5, 0.25], dtype=float64)'),
    'sign': (
        'Returns an indication of the sign of a number for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))\nArray([-1., 0., 1.], dtype=float64)'),
    'signbit': (
        'Determines whether the sign bit is set for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.signbit(xp.asarray([-0.0, 0.0, -1.0]))\nArray([True, False, True], dtype=bool)'),
    'sqrt': (
        'Calculates the principal square root for each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.sqrt(xp.asarray([4.0, 2.0]))\nArray([2., 1.4142135623730951], dtype=float64)'),
    'square': (
        'Squares each element ``x_i`` of the input array ``x``.',
        {'x': 'Input array.'},
        '>>> xp.square(xp.asarray([3, -4]))\nArray([9, 16], dtype=int64)'),
    'add': (
        'Calculates the sum for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        ">>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))\nArray([11, 22], dtype=int64)\n>>> xp.asarray([1, 2], dtype=xp.int8) + 3  # a Python scalar takes the array's dtype\nArray([4, 5], dtype=int8)"),
    'subtract': (
        'Calculates the difference for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.subtract(xp.asarray([1, 2]), xp.asarray([10, 20]))\nArray([-9, -18], dtype=int64)'),
    'multiply': (
        'Calculates the product for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.multiply(xp.asarray([1.5, 2.0]), xp.asarray([2.0, 3.0]))\nArray([3., 6.], dtype=float64)'),
    'divide': (
        'Calculates the division of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.divide(xp.asarray([1.0, 3.0]), xp.asarray([2.0, 4.0]))\nArray([0.5, 0.75], dtype=float64)'),
    'floor_divide': (
        'Rounds the result of dividing each element ``x1_i`` of the input array ``x1`` by the respective element ``x2_i`` of the input array ``x2`` to the greatest (i.e., closest to `+infinity`) integer-value number that is not greater than the division result.',
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.floor_divide(xp.asarray([7, -7]), xp.asarray([2, 2]))\nArray([3, -4], dtype=int64)'),
    'remainder': (
        'Returns the remainder of division for each element ``x1_i`` of the input array ``x1`` and the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'Dividend input array.', 'x2': 'Divisor input array.'},
        '>>> xp.remainder(xp.asarray([7, -7]), xp.asarray([3, 3]))\nArray([1, 2], dtype=int64)'),
    'pow': (
        'Calculates an implementation-dependent approximation of exponentiation by raising each element ``x1_i`` (the base) of the input array ``x1`` to the power of ``x2_i`` (the exponent), where ``x2_i`` is the corresponding element of the input array ``x2``.',
        {'x1': 'First input array whose elements correspond to the exponentiation base.', 'x2': 'Second input array whose elements correspond to the exponentiation exponent.'},
        '>>> xp.pow(xp.asarray([2.0, 3.0]), xp.asarray([3.0, 0.5]))\nArray([8., 1.7320508075688772], dtype=float64)'),
    'atan2': (
        'Calculates an implementation-dependent approximation of the inverse tangent of the quotient ``x1/x2``, having domain ``[-infinity, +infinity] x [-infinity, +infinity]`` (where the ``x`` notation denotes the set of ordered pairs of elements ``(x1_i, x2_i)``) and codomain ``[-π, +π]``, for each pair of elements ``(x1_i, x2_i)`` of the input arrays ``x1`` and ``x2``, respectively.',
        {'x1': 'Input array corresponding to the y-coordinates.', 'x2': 'Input array corresponding to the x-coordinates.'},
        '>>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([1.0, 1.0]))\nArray([0.7853981633974483, -0.7853981633974483], dtype=float64)'),
    'copysign': (
        'Composes a floating-point value with the magnitude of ``x1_i`` and the sign of ``x2_i`` for each element of the input array ``x1``.',
        {'x1': 'Input array containing magnitudes.', 'x2': 'Input array whose sign bits are applied to the magnitudes of ``x1``.'},
        '>>> xp.copysign(xp.asarray([1.0, 2.0]), xp.asarray([-1.0, 1.0]))\nArray([-1., 2.], dtype=float64)'),
    'hypot': (
        'Computes the square root of the sum of squares for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))\nArray([5., 13.], dtype=float64)'),
    'logaddexp': (
        'Calculates the logarithm of the sum of exponentiations ``log(exp(x1) + exp(x2))`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logaddexp(xp.asarray([0.0, 1.0]), xp.asarray([0.0, 1.0]))\nArray([0.6931471805599453, 1.6931471805599454], dtype=float64)'),
    'nextafter': (
        'Returns the next representable floating-point value for each element ``x1_i`` of the input array ``x1`` in the direction of the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.nextafter(xp.asarray([1.0]), xp.asarray([2.0]))\nArray([1.0000000000000002], dtype=float64)'),
    'bitwise_and': (
        'Computes the bitwise AND of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_and(xp.asarray([12, 10]), xp.asarray([6, 3]))\nArray([4, 2], dtype=int64)'),
    'bitwise_or': (
        'Computes the bitwise OR of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_or(xp.asarray([12, 10]), xp.asarray([1, 5]))\nArray([13, 15], dtype=int64)'),
    'bitwise_xor': (
        'Computes the bitwise XOR of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_xor(xp.asarray([12, 10]), xp.asarray([6, 3]))\nArray([10, 9], dtype=int64)'),
    'bitwise_left_shift': (
        'Shifts the bits of each element ``x1_i`` of the input array ``x1`` to the left by appending ``x2_i`` (i.e., the respective element in the input array ``x2``) zeros to the right of ``x1_i``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 4]))\nArray([4, 48], dtype=int64)'),
    'bitwise_right_shift': (
        'Shifts the bits of each element ``x1_i`` of the input array ``x1`` to the right according to the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.bitwise_right_shift(xp.asarray([8, 12]), xp.asarray([1, 2]))\nArray([4, 3], dtype=int64)'),
    'equal': (
        'Computes the truth value of ``x1_i == x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.equal(xp.asarray([1, 2]), xp.asarray([1, 3]))\nArray([True, False], dtype=bool)'),
    'not_equal': (
        'Computes the truth value of ``x1_i != x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.not_equal(xp.asarray([1, 2]), xp.asarray([1, 3]))\nArray([False, True], dtype=bool)'),
    'less': (
        'Computes the truth value of ``x1_i < x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.less(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([True, False], dtype=bool)'),
    'less_equal': (
        'Computes the truth value of ``x1_i <= x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.less_equal(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([True, True], dtype=bool)'),
    'greater': (
        'Computes the truth value of ``x1_i > x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.greater(xp.asarray([1, 2]), xp.asarray([2, 1]))\nArray([False, True], dtype=bool)'),
    'greater_equal': (
        'Computes the truth value of ``x1_i >= x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.greater_equal(xp.asarray([1, 2]), xp.asarray([2, 2]))\nArray([False, True], dtype=bool)'),
    'logical_and': (
        'Computes the logical AND for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_and(xp.asarray([True, False]), xp.asarray([True, True]))\nArray([True, False], dtype=bool)'),
    'logical_or': (
        'Computes the logical OR for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_or(xp.asarray([True, False]), xp.asarray([False, False]))\nArray([True, False], dtype=bool)'),
    'logical_xor': (
        'Computes the logical XOR for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.logical_xor(xp.asarray([True, False]), xp.asarray([True, True]))\nArray([False, True], dtype=bool)'),
    'maximum': (
        'Computes the maximum value for each element ``x1_i`` of the input array ``x1`` relative to the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.maximum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))\nArray([3., 5.], dtype=float64)'),
    'minimum': (
        'Computes the minimum value for each element ``x1_i`` of the input array ``x1`` relative to the respective element ``x2_i`` of the input array ``x2``.',
        {'x1': 'First input array.', 'x2': 'Second input array.'},
        '>>> xp.minimum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))\nArray([1., 2.], dtype=float64)'),
}


_KIND = {"numeric": "a numeric", "floating": "a floating-point", "real floating": "a real-valued floating-point",
         "real numeric": "a real-valued", "integral": "an integer", "integral or bool": "an integer or boolean",
         "bool": "a boolean", "any": "any"}


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 76, initial_indent="    ", subsequent_indent="    ")


def elementwise(name: str, op: str, category: str) -> str:
    """The numpy-style docstring of the elementwise function `name`
    (core op `op`, dtypes of `category`)."""
    summary, params, example = ELEMENTWISE[name]
    kind = _KIND[category]
    lines = [*textwrap.wrap(summary, 80), "", "Parameters", "----------"]
    for p, desc in params.items():
        lines.append(f"{p} : Array" + (" or Python scalar" if len(params) > 1 else ""))
        lines += _wrap(f"{desc} Must have {kind} data type.")
    lines += ["", "Returns", "-------", "Array"]
    lines += _wrap("The elementwise results, in the shape the operands broadcast to"
                   + (" and the dtype they promote to (a Python scalar takes the array's dtype)."
                      if len(params) > 1 else "."))
    lines += ["", "Raises", "------", "TypeError"]
    lines += _wrap("When an operand is not an Array (nor, for two operands, a Python scalar), "
                   f"or its dtype is not {kind} one (the message names the function and the "
                   "dtype).")
    if len(params) > 1:
        lines += ["ValueError", "    When the shapes do not broadcast."]
    if name in ("floor_divide", "remainder"):
        lines += ["ZeroDivisionError", "    For an integer division by zero."]
    lines += ["", "Notes", "-----"]
    note = (f"One C kernel (the core's op ``{op}``), chosen for the CPU level at load time; "
            "arrays of the same dtype and shape, C-contiguous, take a single C call.")
    if name == "divide":
        note += " Integer inputs are divided in float64 (the standard leaves them open)."
    if name in ("floor_divide", "remainder"):
        note += " Python's semantics: the result has the sign of the divisor."
    lines += textwrap.wrap(note, 80)
    lines += ["", "Examples", "--------", ">>> import strided.compat as xp", *example.split("\n")]
    return "\n".join(lines)


def sections(**texts: str) -> Callable[[_F], _F]:
    """A decorator for the functions whose docstring sections are the same
    text as other functions' (the parameters of fft and ifft, the raises of
    sum and prod): each docstring line `{{name}}` becomes the section `name`
    (`{{raises}}`: "Raises", its underline, then texts["raises"], written
    once as a module constant), indented as the line is."""
    def apply(f: _F) -> _F:
        lines: list[str] = []
        for line in (f.__doc__ or "").split("\n"):
            key = line.strip()
            if key.startswith("{{") and key.endswith("}}"):
                indent = line[:len(line) - len(line.lstrip())]
                head = key[2:-2].capitalize()
                body = [head, "-" * len(head), *texts[key[2:-2]].split("\n")]
                lines += [indent + t if t else "" for t in body]
            else:
                lines.append(line)
        f.__doc__ = "\n".join(lines)
        return f
    return apply

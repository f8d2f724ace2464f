"""The op table of the C core: one row per unary op, binary op and
reduction, the one truth of which ops exist, their codes, the types they
have kernels for, their names in the faces and their summary line.
tools/gen_inventory.py writes from it

  strided.h               the `#define ST_U_*`, `ST_B_*`, `ST_R_*` codes
  st_op_names.h           the names C's error messages use
  st_op_types.h           each elementwise op's type groups, which
                          elementwise.c's kernel lists are checked against
                          at compile time (so a row cannot lie)
  compat/_elementwise_table.py, compat/_elementwise.pyi
                          the array API functions' table and signatures

and the Python layer reads it at run time: strided/core/ops.py its
name -> code maps, the Torch7 spec its ops by Torch7 name (TORCH7).  Plain
data, importable without the compiled core.

An op's code is its position among the rows of its family, so codes are
dense from 0 and `ST_<X>_COUNT` is the family's count.  Never reorder or
remove a row (faces and tests use the names; saved codes would change
meaning): append new ops at the end of the list.

A row is Op(name, family, types, ...):
  name      the core's name (core.ops.unary(name, ...)); its upper-case form
            is the C suffix: "exp" -> ST_U_EXP, and elementwise.c's kernel
            lists write X(EXP, ...)
  family    "unary", "binary" or "reduce"
  types     the type groups elementwise.c has kernels for, of "bool int
            float complex" (int: the signed and unsigned integers; float:
            float32 and float64); "" for reductions (reduce.c's own tables)
  category  the array API's dtype category of the function (None: not in
            the standard); api its name there when it is not `name`
  torch7    the Torch7 functions whose elementwise forms run it (spec.py): a
            Torch7 name in several rows runs the first, in code order, that
            has a kernel for the tensor's type (div: divide for floats,
            trunc_divide for integers)
  message   the name C's error messages use, when it is not `name`
  note      a comment written after the #define in strided.h
  doc       the one-line summary (the standard's, for its functions)"""

from typing import NamedTuple, Optional, Tuple


class Op(NamedTuple):
    name: str
    family: str
    types: str
    category: Optional[str] = None
    api: Optional[str] = None
    torch7: Tuple[str, ...] = ()
    message: Optional[str] = None
    note: Optional[str] = None
    doc: str = ""


GROUPS = ("bool", "int", "float", "complex")  # the type groups, as `types` names them

OPS = [
    # ---- unary
    Op(
        "negative",
        "unary",
        "int float complex",
        category="numeric",
        torch7=("neg",),
        doc="Computes the numerical negative of each element ``x_i`` (i.e., ``y_i = -x_i``) of the input array ``x``.",
    ),
    Op(
        "positive",
        "unary",
        "bool int float complex",
        category="numeric",
        doc="Computes the numerical positive of each element ``x_i`` (i.e., ``y_i = +x_i``) of the input array ``x``.",
    ),
    Op(
        "abs",
        "unary",
        "int float complex",
        category="numeric",
        torch7=("abs",),
        doc="Calculates the absolute value for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "sqrt",
        "unary",
        "float complex",
        category="floating",
        torch7=("sqrt",),
        doc="Calculates the principal square root for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "exp",
        "unary",
        "float complex",
        category="floating",
        torch7=("exp",),
        doc="Calculates an implementation-dependent approximation to the exponential function for each element ``x_i`` of the input array ``x`` (``e`` raised to the power of ``x_i``, where ``e`` is the base of the natural logarithm).",
    ),
    Op(
        "expm1",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to ``exp(x)-1`` for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "log",
        "unary",
        "float complex",
        category="floating",
        torch7=("log",),
        doc="Calculates an implementation-dependent approximation to the natural (base ``e``) logarithm for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "log1p",
        "unary",
        "float complex",
        category="floating",
        torch7=("log1p",),
        doc="Calculates an implementation-dependent approximation to ``log(1+x)``, where ``log`` refers to the natural (base ``e``) logarithm, for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "log2",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to the base ``2`` logarithm for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "log10",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to the base ``10`` logarithm for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "sin",
        "unary",
        "float complex",
        category="floating",
        torch7=("sin",),
        doc="Calculates an implementation-dependent approximation to the sine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "cos",
        "unary",
        "float complex",
        category="floating",
        torch7=("cos",),
        doc="Calculates an implementation-dependent approximation to the cosine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "tan",
        "unary",
        "float complex",
        category="floating",
        torch7=("tan",),
        doc="Calculates an implementation-dependent approximation to the tangent for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "asin",
        "unary",
        "float complex",
        category="floating",
        torch7=("asin",),
        doc="Calculates an implementation-dependent approximation of the principal value of the inverse sine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "acos",
        "unary",
        "float complex",
        category="floating",
        torch7=("acos",),
        doc="Calculates an implementation-dependent approximation of the principal value of the inverse cosine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "atan",
        "unary",
        "float complex",
        category="floating",
        torch7=("atan",),
        doc="Calculates an implementation-dependent approximation of the principal value of the inverse tangent for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "sinh",
        "unary",
        "float complex",
        category="floating",
        torch7=("sinh",),
        doc="Calculates an implementation-dependent approximation to the hyperbolic sine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "cosh",
        "unary",
        "float complex",
        category="floating",
        torch7=("cosh",),
        doc="Calculates an implementation-dependent approximation to the hyperbolic cosine for each element ``x_i`` in the input array ``x``.",
    ),
    Op(
        "tanh",
        "unary",
        "float complex",
        category="floating",
        torch7=("tanh",),
        doc="Calculates an implementation-dependent approximation to the hyperbolic tangent for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "asinh",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to the inverse hyperbolic sine for each element ``x_i`` in the input array ``x``.",
    ),
    Op(
        "acosh",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to the inverse hyperbolic cosine for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "atanh",
        "unary",
        "float complex",
        category="floating",
        doc="Calculates an implementation-dependent approximation to the inverse hyperbolic tangent for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "floor",
        "unary",
        "int float",
        category="real numeric",
        torch7=("floor",),
        doc="Rounds each element ``x_i`` of the input array ``x`` to the greatest (i.e., closest to ``+infinity``) integer-valued number that is not greater than ``x_i``.",
    ),
    Op(
        "ceil",
        "unary",
        "int float",
        category="real numeric",
        torch7=("ceil",),
        doc="Rounds each element ``x_i`` of the input array ``x`` to the smallest (i.e., closest to ``-infinity``) integer-valued number that is not less than ``x_i``.",
    ),
    Op(
        "trunc",
        "unary",
        "int float",
        category="real numeric",
        torch7=("trunc",),
        doc="Rounds each element ``x_i`` of the input array ``x`` to the nearest integer-valued number that is closer to zero than ``x_i``.",
    ),
    Op(
        "round",
        "unary",
        "int float complex",
        category="numeric",
        doc="Rounds each element ``x_i`` of the input array ``x`` to the nearest integer-valued number.",
    ),
    Op(
        "sign",
        "unary",
        "int float complex",
        category="numeric",
        doc="Returns an indication of the sign of a number for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "square",
        "unary",
        "int float complex",
        category="numeric",
        doc="Squares each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "reciprocal",
        "unary",
        "float complex",
        category="floating",
        torch7=("cinv",),
        doc="Returns the reciprocal for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "logical_not",
        "unary",
        "bool",
        category="bool",
        doc="Computes the logical NOT for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "bitwise_invert",
        "unary",
        "bool int",
        category="integral or bool",
        doc="Inverts (flips) each bit for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "isnan",
        "unary",
        "bool int float complex",
        category="numeric",
        doc="Tests each element ``x_i`` of the input array ``x`` to determine whether the element is ``NaN``.",
    ),
    Op(
        "isinf",
        "unary",
        "bool int float complex",
        category="numeric",
        doc="Tests each element ``x_i`` of the input array ``x`` to determine if equal to positive or negative infinity.",
    ),
    Op(
        "isfinite",
        "unary",
        "bool int float complex",
        category="numeric",
        doc="Tests each element ``x_i`` of the input array ``x`` to determine if finite.",
    ),
    Op(
        "signbit",
        "unary",
        "int float",
        category="real floating",
        doc="Determines whether the sign bit is set for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "real",
        "unary",
        "int float complex",
        category="numeric",
        doc="Returns the real component of a complex number for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "imag",
        "unary",
        "int float complex",
        category="numeric",
        doc="Returns the imaginary component of a complex number for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "conj",
        "unary",
        "int float complex",
        category="numeric",
        doc="Returns the complex conjugate for each element ``x_i`` of the input array ``x``.",
    ),
    Op(
        "sigmoid",
        "unary",
        "float",
        torch7=("sigmoid",),
        doc="The logistic function 1 / (1 + exp(-x)) of each element.",
    ),
    Op(
        "rsqrt",
        "unary",
        "float",
        torch7=("rsqrt",),
        doc="The reciprocal square root 1 / sqrt(x) of each element.",
    ),
    Op(
        "frac",
        "unary",
        "int float",
        torch7=("frac",),
        doc="The fractional part x - trunc(x) of each element (the sign of x).",
    ),
    # ---- binary
    Op(
        "add",
        "binary",
        "int float complex",
        category="numeric",
        torch7=("add",),
        doc="Calculates the sum for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "subtract",
        "binary",
        "int float complex",
        category="numeric",
        torch7=("csub",),
        doc="Calculates the difference for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "multiply",
        "binary",
        "int float complex",
        category="numeric",
        torch7=("mul", "cmul"),
        doc="Calculates the product for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "divide",
        "binary",
        "float complex",
        category="numeric",
        torch7=("div", "cdiv"),
        doc="Calculates the division of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "floor_divide",
        "binary",
        "int float",
        category="real numeric",
        doc="Rounds the result of dividing each element ``x1_i`` of the input array ``x1`` by the respective element ``x2_i`` of the input array ``x2`` to the greatest (i.e., closest to `+infinity`) integer-value number that is not greater than the division result.",
    ),
    Op(
        "remainder",
        "binary",
        "int float",
        category="real numeric",
        doc="Returns the remainder of division for each element ``x1_i`` of the input array ``x1`` and the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "pow",
        "binary",
        "int float complex",
        category="numeric",
        torch7=("pow", "cpow"),
        doc="Calculates an implementation-dependent approximation of exponentiation by raising each element ``x1_i`` (the base) of the input array ``x1`` to the power of ``x2_i`` (the exponent), where ``x2_i`` is the corresponding element of the input array ``x2``.",
    ),
    Op(
        "atan2",
        "binary",
        "float",
        category="real floating",
        torch7=("atan2",),
        doc="Calculates an implementation-dependent approximation of the inverse tangent of the quotient ``x1/x2``, having domain ``[-infinity, +infinity] x [-infinity, +infinity]`` (where the ``x`` notation denotes the set of ordered pairs of elements ``(x1_i, x2_i)``) and codomain ``[-π, +π]``, for each pair of elements ``(x1_i, x2_i)`` of the input arrays ``x1`` and ``x2``, respectively.",
    ),
    Op(
        "hypot",
        "binary",
        "float",
        category="real floating",
        doc="Computes the square root of the sum of squares for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "copysign",
        "binary",
        "float",
        category="real floating",
        doc="Composes a floating-point value with the magnitude of ``x1_i`` and the sign of ``x2_i`` for each element of the input array ``x1``.",
    ),
    Op(
        "nextafter",
        "binary",
        "float",
        category="real floating",
        doc="Returns the next representable floating-point value for each element ``x1_i`` of the input array ``x1`` in the direction of the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "logaddexp",
        "binary",
        "float",
        category="real floating",
        doc="Calculates the logarithm of the sum of exponentiations ``log(exp(x1) + exp(x2))`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "maximum",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the maximum value for each element ``x1_i`` of the input array ``x1`` relative to the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "minimum",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the minimum value for each element ``x1_i`` of the input array ``x1`` relative to the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "fmod",
        "binary",
        "int float",
        torch7=("fmod", "cfmod", "mod", "cmod"),
        doc="The C remainder fmod(a, b) of each pair of elements (the sign of the dividend).",
    ),
    Op(
        "bitwise_and",
        "binary",
        "bool int",
        category="integral or bool",
        torch7=("bitand", "cbitand"),
        doc="Computes the bitwise AND of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "bitwise_or",
        "binary",
        "bool int",
        category="integral or bool",
        torch7=("bitor", "cbitor"),
        doc="Computes the bitwise OR of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "bitwise_xor",
        "binary",
        "bool int",
        category="integral or bool",
        torch7=("bitxor", "cbitxor"),
        doc="Computes the bitwise XOR of the underlying binary representation of each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "left_shift",
        "binary",
        "int",
        category="integral",
        api="bitwise_left_shift",
        doc="Shifts the bits of each element ``x1_i`` of the input array ``x1`` to the left by appending ``x2_i`` (i.e., the respective element in the input array ``x2``) zeros to the right of ``x1_i``.",
    ),
    Op(
        "right_shift",
        "binary",
        "int",
        category="integral",
        api="bitwise_right_shift",
        doc="Shifts the bits of each element ``x1_i`` of the input array ``x1`` to the right according to the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "logical_and",
        "binary",
        "bool",
        category="bool",
        doc="Computes the logical AND for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "logical_or",
        "binary",
        "bool",
        category="bool",
        doc="Computes the logical OR for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "logical_xor",
        "binary",
        "bool",
        category="bool",
        doc="Computes the logical XOR for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "equal",
        "binary",
        "bool int float complex",
        category="any",
        doc="Computes the truth value of ``x1_i == x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "not_equal",
        "binary",
        "bool int float complex",
        category="any",
        doc="Computes the truth value of ``x1_i != x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "less",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the truth value of ``x1_i < x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "less_equal",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the truth value of ``x1_i <= x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "greater",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the truth value of ``x1_i > x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "greater_equal",
        "binary",
        "bool int float",
        category="real numeric",
        doc="Computes the truth value of ``x1_i >= x2_i`` for each element ``x1_i`` of the input array ``x1`` with the respective element ``x2_i`` of the input array ``x2``.",
    ),
    Op(
        "trunc_divide",
        "binary",
        "int float",
        torch7=("div", "cdiv"),
        doc="a / b rounded toward zero (Torch7's integer division).",
    ),
    Op(
        "torch7_remainder",
        "binary",
        "int float",
        torch7=("remainder", "cremainder"),
        message="remainder",
        note="Torch7's: a - b * floor(a / b), NaN for b == 0 (integers: remainder)",
        doc="Torch7's remainder a - b * floor(a / b); NaN for b == 0 (integers: remainder).",
    ),
    # ---- reduce
    Op("sum", "reduce", "", doc="The sum of the elements."),
    Op("prod", "reduce", "", doc="The product of the elements."),
    Op("min", "reduce", "", doc="The smallest element."),
    Op("max", "reduce", "", doc="The largest element."),
    Op("all", "reduce", "", doc="Whether every element is nonzero."),
    Op("any", "reduce", "", doc="Whether some element is nonzero."),
    Op(
        "sumsqdev",
        "reduce",
        "",
        message="var",
        note="sum |x - m|^2, m given as `aux` (var/std)",
        doc="The sum of |x - m|^2, m given as `aux` (var and std).",
    ),
]

FAMILY_PREFIX = {"unary": "ST_U_", "binary": "ST_B_", "reduce": "ST_R_"}
# family -> (C prefix, its rows in code order); the C name table of a family
# is st_<family>_names
FAMILIES = {
    family: (prefix, [op for op in OPS if op.family == family])
    for family, prefix in FAMILY_PREFIX.items()
}
UNARY_OPS, BINARY_OPS, REDUCE_OPS = (FAMILIES[f][1] for f in ("unary", "binary", "reduce"))


def codes(ops):
    """name -> code of one family."""
    return {op.name: code for code, op in enumerate(ops)}


UNARY = codes(UNARY_OPS)
BINARY = codes(BINARY_OPS)
REDUCE = codes(REDUCE_OPS)


def torch7_ops():
    """Torch7 name -> (family, the names of the ops it may run, in code order)."""
    out = {}
    for op in OPS:
        for name in op.torch7:
            family, names = out.get(name, (op.family, ()))
            if family != op.family:
                raise ValueError(f"inventory: the Torch7 name {name!r} is in rows of two families")
            out[name] = (family, names + (op.name,))
    return out


TORCH7 = torch7_ops()

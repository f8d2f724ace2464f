"""The op inventory of the C core: every unary op, binary op and reduction,
in code order.  This file is the one truth of which ops exist, their codes
and their names; tools/gen_inventory.py writes from it the `#define ST_U_*`,
`ST_B_*`, `ST_R_*` blocks of strided.h and the name tables of
st_op_names.h, and the Python layer (strided/core/ops.py) reads its name ->
code maps from here.  Plain data, importable without the compiled core.

Each family lists its ops in code order: an op's code is its position, so
codes are dense from 0 and `ST_<X>_COUNT` is the list's length.  Never
reorder or remove an entry (faces and tests use the names; saved codes
would change meaning): append new ops at the end.

An entry is Op(name, message=None, note=None):
  name     the Python name (the op's key in _ops.UNARY etc.); its upper-case
           form is the C suffix: "exp" -> ST_U_EXP, and the X-macro lists in
           elementwise.c write X(EXP, ...)
  message  the name C's error messages use, when it is not `name`
  note     a comment written after the #define in strided.h

Which dtypes an op has kernels for is not here: that is what the C lists
implement (st_unary_result etc. answer it)."""
from typing import NamedTuple


class Op(NamedTuple):
    name: str
    message: str = None
    note: str = None


UNARY_OPS = [
    Op("negative"), Op("positive"), Op("abs"), Op("sqrt"), Op("exp"), Op("expm1"),
    Op("log"), Op("log1p"), Op("log2"), Op("log10"), Op("sin"), Op("cos"), Op("tan"),
    Op("asin"), Op("acos"), Op("atan"), Op("sinh"), Op("cosh"), Op("tanh"), Op("asinh"),
    Op("acosh"), Op("atanh"), Op("floor"), Op("ceil"), Op("trunc"), Op("round"),
    Op("sign"), Op("square"), Op("reciprocal"), Op("logical_not"), Op("bitwise_invert"),
    Op("isnan"), Op("isinf"), Op("isfinite"), Op("signbit"), Op("real"), Op("imag"),
    Op("conj"), Op("sigmoid"), Op("rsqrt"), Op("frac"),
]

BINARY_OPS = [
    Op("add"), Op("subtract"), Op("multiply"), Op("divide"), Op("floor_divide"),
    Op("remainder"), Op("pow"), Op("atan2"), Op("hypot"), Op("copysign"), Op("nextafter"),
    Op("logaddexp"), Op("maximum"), Op("minimum"), Op("fmod"), Op("bitwise_and"),
    Op("bitwise_or"), Op("bitwise_xor"), Op("left_shift"), Op("right_shift"),
    Op("logical_and"), Op("logical_or"), Op("logical_xor"), Op("equal"), Op("not_equal"),
    Op("less"), Op("less_equal"), Op("greater"), Op("greater_equal"),
    Op("trunc_divide"),
    Op("torch7_remainder", message="remainder",
       note="Torch7's: a - b * floor(a / b), NaN for b == 0 (integers: remainder)"),
]

REDUCE_OPS = [
    Op("sum"), Op("prod"), Op("min"), Op("max"), Op("all"), Op("any"),
    Op("sumsqdev", message="var", note="sum |x - m|^2, m given as `aux` (var/std)"),
]

# family -> (C prefix, ops); the C name table of a family is st_<family>_names
FAMILIES = {
    "unary": ("ST_U_", UNARY_OPS),
    "binary": ("ST_B_", BINARY_OPS),
    "reduce": ("ST_R_", REDUCE_OPS),
}


def codes(ops):
    """name -> code of one family."""
    return {op.name: code for code, op in enumerate(ops)}


UNARY = codes(UNARY_OPS)
BINARY = codes(BINARY_OPS)
REDUCE = codes(REDUCE_OPS)

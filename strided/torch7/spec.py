"""The declarative spec of the Torch7 functions, after TensorMath.lua:
every function is one entry (`wrap(name, forms..., types=...)`), a form
is an implementation (maths.py, or a Tensor method) and its argument
slots.  functions.py generates from this table both `torch.f(...)` and
the methods `x:f(...)` of the classes whose element type the entry lists.

Slots (forms.py): `RES` the result, a new tensor of the dispatch type in
the function and required (self) in the method; `SRC` the source, which
in the method defaults to self when left out (so `x:add(5)` works in
place and `res:add(x, 5)` into res); `Arg(kind, default)` any other.
A function missing from this table is missing from the package.
"""

from __future__ import annotations

from ..core import conv as _conv, histogram as _histogram, linalg as _linalg, matrix as _matrix
from . import maths
from .forms import (
    ANYTHING,
    BOOLEAN,
    BYTE,
    FLOAT_TENSOR,
    GENERATOR,
    INDEX,
    INT,
    LIST,
    LONG,
    NEW,
    NUMBER,
    REQUIRED,
    SIZES,
    TABLE,
    TENSOR,
    Arg,
    Elementwise,
    Entry,
    Form,
    Same,
    option,
)
from .tensor import Tensor

# the 16-bit floats: HalfTensor and the extension's BFloat16Tensor compute
# through float32 (docs/torch7.md, "HalfTensor and BFloat16Tensor")
HALVES = ("float16", "bfloat16")
ALL = ("uint8", "int8", "int16", "int32", "int64", "float32", "float64") + HALVES
# FLOAT: the functions of float tensors the core has no float32 path of the
# 16-bit floats for (histograms, norms, linspace, LAPACK, random);
# FLOAT16: those it has
FLOAT = ("float32", "float64")
FLOAT16 = FLOAT + HALVES

RES = Arg(TENSOR, NEW, method=REQUIRED, name="res")
SRC = Arg(TENSOR, method=Same(0), name="tensor")
TEN = Arg(TENSOR, name="tensor")
TEN2 = Arg(TENSOR, name="tensor2")  # the second operand of a binary form
NEW_RES = Arg(TENSOR, NEW, name="res")  # a result the method does not default to self
NEW_IDX = Arg(LONG, NEW, name="indices")
NUM = Arg(NUMBER, name="value")
DIM = Arg(INDEX, name="dim")

TENSOR_METHODS = "Tensor methods (tensor.md)"  # the group of tensor.md's method-functions
ENTRIES = []  # the table: every Torch7 function, in the order of maths.md's sections


# An elementwise form is declared as data: (kind, [slots]) with kind one of
# forms.Elementwise.KINDS; the entry's name is the Torch7 name whose core op
# the op table (strided/_c/inventory.py's torch7 column) gives, as
# TensorMath.lua's cname names the C function of each form.
UNARY, BINARY, SCALED, REVERSED = Elementwise.KINDS


def _form(name, impl, args):
    if isinstance(impl, str):
        return Form(maths.ELEMENTWISE[impl](name), args, Elementwise(impl, name))
    return Form(impl, args)


def wrap(name, *forms, types=ALL, method=True, function=True, method_forms=None, doc="", group=""):
    """Declare one function: forms as (impl, [slots]) pairs, impl an
    implementation or an elementwise kind (UNARY ... REVERSED)."""
    e = Entry(
        name, [_form(name, impl, args) for impl, args in forms], types, method, function, doc, group
    )
    if method_forms is not None:
        e.method_forms = [_form(name, impl, args) for impl, args in method_forms]
    ENTRIES.append(e)
    return e


# ---------------------------------------------------------------- elementwise
G = "Elementwise"

wrap(
    "add",
    (BINARY, [RES, SRC, NUM]),
    (SCALED, [RES, SRC, Arg(NUMBER, 1, name="value"), TEN2]),
    doc="res = tensor + value, or tensor + value * tensor2.",
    group=G,
)
wrap(
    "csub",
    (BINARY, [RES, SRC, NUM]),
    (SCALED, [RES, SRC, Arg(NUMBER, 1, name="value"), TEN2]),
    doc="res = tensor - value, or tensor - value * tensor2.",
    group=G,
)
for _name, _doc in [
    ("mul", "tensor * value"),
    ("div", "tensor / value (integers: toward zero)"),
    ("fmod", "the C remainder of tensor / value"),
    ("remainder", "tensor - value * floor(tensor / value)"),
]:
    wrap(_name, (BINARY, [RES, SRC, NUM]), doc=f"res = {_doc}.", group=G)
for _name, _doc in [
    ("cmul", "the elementwise product"),
    ("cdiv", "the elementwise quotient (integers: toward zero)"),
    ("cpow", "tensor ^ tensor2 elementwise"),
    ("cfmod", "the elementwise C remainder"),
    ("cremainder", "the elementwise floored remainder"),
]:
    wrap(_name, (BINARY, [RES, SRC, TEN2]), doc=f"res = {_doc}.", group=G)
wrap("mod", (BINARY, [RES, SRC, NUM]), doc="res = fmod(tensor, value).", group=G)
wrap("cmod", (BINARY, [RES, SRC, TEN2]), doc="res = fmod(tensor, tensor2) elementwise.", group=G)
# TH defines the bit operations for every type and raises for float and
# double (their rows have no float kernel: maths.binary raises TH's error)
for _name in ["bitand", "bitor", "bitxor"]:
    wrap(
        _name,
        (BINARY, [RES, SRC, NUM]),
        doc=f"res = tensor {_name[3:]} value, bit by bit (integer types; others raise, as TH).",
        group=G,
    )
    wrap(
        "c" + _name,
        (BINARY, [RES, SRC, TEN2]),
        doc=f"res = tensor {_name[3:]} tensor2, bit by bit (integer types; others raise, as TH).",
        group=G,
    )
for _name, _left in [("lshift", True), ("rshift", False)]:
    wrap(
        _name,
        (maths.shift(_left, _name), [RES, SRC, NUM]),
        doc=f"res = tensor shifted {'left' if _left else 'right'} by value bits (integers as "
        f"their unsigned type; floats: times {'2^value' if _left else '2^-value'}).",
        group=G,
    )
    wrap(
        "c" + _name,
        (maths.shift(_left, "c" + _name), [RES, SRC, TEN2]),
        doc=f"res = tensor shifted {'left' if _left else 'right'} by tensor2's bits.",
        group=G,
    )
for _name, _greater in [("cmax", True), ("cmin", False)]:
    _op = "maximum" if _greater else "minimum"
    wrap(
        _name,
        (maths.chosen(_greater), [NEW_RES, SRC, TEN2]),
        (maths.chosen(_greater), [NEW_RES, SRC, NUM]),
        doc=f"res = the elementwise {_op} of tensor and tensor2 (or value).",
        group=G,
    )
wrap(
    "pow",
    (BINARY, [RES, SRC, NUM]),
    (REVERSED, [RES, NUM, SRC]),
    doc="res = tensor ^ value, or value ^ tensor.",
    group=G,
)
wrap(
    "atan2",
    (BINARY, [RES, SRC, TEN2]),
    types=FLOAT16,
    doc="res = atan2(tensor, tensor2) elementwise.",
    group=G,
)
wrap(
    "clamp",
    (maths.clamp, [RES, SRC, Arg(NUMBER, name="min"), Arg(NUMBER, name="max")]),
    doc="res = tensor clamped to [min, max].",
    group=G,
)

_UNARY = [
    "abs",
    "sign",
    "neg",
    "cinv",
    "sqrt",
    "exp",
    "log",
    "log1p",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "sigmoid",
    "rsqrt",
    "frac",
]
_NUMBER_FORM = set(_UNARY) - {"sign", "neg", "cinv"}  # torch.exp(2) is a number
_AS_LUA = {"round": maths.round_half_away, "sign": maths.sign_nan_zero}  # not the core's rules
for _name in _UNARY:
    _forms = [(_AS_LUA.get(_name, UNARY), [RES, SRC])]
    if _name in _NUMBER_FORM:
        _forms.append((maths.unary_number(_AS_LUA.get(_name, _name)), [NUM]))
    wrap(_name, *_forms, doc=f"res = {_name}(tensor) elementwise.", group=G)

for _name in ["lt", "le", "gt", "ge", "eq", "ne"]:
    _f = maths.compare(_name)
    wrap(
        _name,
        (_f, [Arg(BYTE, NEW, name="res"), TEN, NUM]),
        (_f, [TEN, TEN, NUM]),
        (_f, [Arg(BYTE, NEW, name="res"), TEN, TEN]),
        (_f, [TEN, TEN, TEN]),
        doc=f"res = tensor {_name} value (or tensor2): a ByteTensor of 1 and 0, or the "
        f"type of tensor when res is of it.",
        group="Comparisons",
    )

# ---------------------------------------------------------------- reductions
G = "Reductions"
wrap(
    "sum",
    (maths.reduce_all("sum", 0), [TEN]),
    (maths.reduce_dim("sum"), [NEW_RES, TEN, DIM]),
    doc="The sum of all elements (a number), or along dim (kept with size 1).",
    group=G,
)
wrap(
    "prod",
    (maths.reduce_all("prod", 1), [TEN]),
    (maths.reduce_dim("prod"), [NEW_RES, TEN, DIM]),
    doc="The product of all elements (a number), or along dim.",
    group=G,
)
wrap(
    "mean",
    (maths.mean_all, [TEN]),
    (maths.mean_dim, [NEW_RES, TEN, DIM]),
    doc="The mean of all elements (a number), or along dim.",
    group=G,
)
for _is_max, _name in [(True, "max"), (False, "min")]:
    wrap(
        _name,
        (maths.reduce_all(_name, None), [TEN]),
        (maths.extreme_dim(_is_max), [NEW_RES, NEW_IDX, TEN, DIM]),
        doc=f"The {_name} of all elements (a number), or along dim: values and 1-based indices.",
        group=G,
    )
for _is_std, _name in [(False, "var"), (True, "std")]:
    wrap(
        _name,
        (maths.spread_all(_is_std), [TEN, Arg(BOOLEAN, False, name="biased")]),
        (maths.spread_dim(_is_std), [NEW_RES, TEN, DIM, Arg(BOOLEAN, False, name="biased")]),
        doc=f"The {_name} of all elements, or along dim; normalised by n-1, or by n when "
        f"biased is true.",
        group=G,
    )
for _is_prod, _name in [(False, "cumsum"), (True, "cumprod")]:
    wrap(
        _name,
        (maths.cumulative(_is_prod), [NEW_RES, TEN, Arg(INDEX, 1, name="dim")]),
        doc=f"The cumulative {_name[3:]} along dim (default 1).",
        group=G,
    )
wrap("all", (maths.logical(True), [TEN]), doc="True when every element is nonzero.", group=G)
wrap("any", (maths.logical(False), [TEN]), doc="True when some element is nonzero.", group=G)
wrap("numel", (maths.numel, [TEN]), doc="The number of elements.", group=G)
wrap(
    "sort",
    (
        maths.sort,
        [
            NEW_RES,
            NEW_IDX,
            TEN,
            Arg(INDEX, None, name="dim"),
            Arg(BOOLEAN, False, name="descending"),
        ],
    ),
    doc="Values and 1-based indices sorted along dim (default: the last), ascending "
    "unless descending is true.",
    group=G,
)

# ---------------------------------------------------------------- products
G = "Matrix products"
wrap(
    "dot",
    (maths.dot, [TEN, Arg(TENSOR, name="tensor2")]),
    doc="The sum of the elementwise products (a number).",
    group=G,
)
for _name, _da, _db in [("mm", 2, 2), ("mv", 2, 1), ("bmm", 3, 3), ("ger", 1, 1)]:
    wrap(
        _name,
        (maths.product(_name, _da, _db), [RES, Arg(TENSOR, name="a"), Arg(TENSOR, name="b")]),
        doc=f"res = the {'outer ' if _name == 'ger' else ''}product of a {_da}-D and a "
        f"{_db}-D tensor.",
        group=G,
    )
_V1, _V2 = Arg(NUMBER, 1, name="v1"), Arg(NUMBER, 1, name="v2")
_M, _A, _B = Arg(TENSOR, name="M"), Arg(TENSOR, name="mat1"), Arg(TENSOR, name="mat2")
for _name in maths.ADD_PRODUCTS:
    _f = maths.add_product(_name)
    wrap(
        _name,
        (_f, [NEW_RES, _V1, _M, _V2, _A, _B]),
        method_forms=[
            (
                _f,
                [
                    TEN,
                    Arg(NUMBER, 1, name="v1", hidden=True),
                    Arg(TENSOR, Same(0), name="M"),
                    _V2,
                    _A,
                    _B,
                ],
            ),
            (
                _f,
                [
                    TEN,
                    Arg(NUMBER, name="v1"),
                    Arg(TENSOR, Same(0), name="M"),
                    Arg(NUMBER, name="v2"),
                    _A,
                    _B,
                ],
            ),
        ],
        doc="res = v1 * M + v2 * (a b); M:f([v1,] [v2,] a, b) in place.",
        group=G,
    )

# ---------------------------------------------------------------- statistics and matrices
G = "Statistics"
_NB = [Arg(NUMBER, 100, name="nbins"), Arg(NUMBER, 0, name="min"), Arg(NUMBER, 0, name="max")]
wrap(
    "histc",
    (maths.histogram(_histogram.histc), [NEW_RES, TEN] + _NB),
    types=FLOAT,
    doc="The histogram of the elements in nbins equal bins of [min, max] (min = max: the "
    "data's range).",
    group=G,
)
wrap(
    "bhistc",
    (maths.histogram(_histogram.bhistc), [NEW_RES, TEN] + _NB),
    types=FLOAT,
    doc="histc of each row of a matrix (one range for all rows).",
    group=G,
)
_LASTDIM = Arg(INDEX, None, name="dim")
wrap(
    "topk",
    (
        maths.selection("topk"),
        [
            NEW_RES,
            NEW_IDX,
            TEN,
            Arg(NUMBER, 1, name="k"),
            _LASTDIM,
            Arg(BOOLEAN, False, name="dir"),
            Arg(BOOLEAN, False, name="sort"),
        ],
    ),
    doc="The k smallest (dir true: largest) values along dim and their 1-based indices; "
    "sorted when sort is true.",
    group=G,
)
wrap(
    "kthvalue",
    (maths.selection("kthvalue"), [NEW_RES, NEW_IDX, TEN, Arg(NUMBER, name="k"), _LASTDIM]),
    doc="The k-th smallest value along dim (kept with size 1) and its 1-based index.",
    group=G,
)
for _name in ("median", "mode"):
    wrap(
        _name,
        (maths.selection(_name), [NEW_RES, NEW_IDX, TEN, _LASTDIM]),
        doc=f"The {_name} along dim (kept with size 1) and a 1-based index of it.",
        group=G,
    )
wrap(
    "norm",
    (maths.norm_all, [TEN, Arg(NUMBER, 2, name="p")]),
    (maths.norm_dim, [NEW_RES, TEN, Arg(NUMBER, name="p"), DIM]),
    types=FLOAT,
    doc="The p-norm of all elements (a number), or along dim.",
    group=G,
)
wrap(
    "renorm",
    (maths.renorm, [RES, SRC, Arg(NUMBER, name="p"), DIM, Arg(NUMBER, name="maxnorm")]),
    types=FLOAT,
    doc="Each sub-tensor along dim with a p-norm above maxnorm scaled to maxnorm.",
    group=G,
)
wrap(
    "dist",
    (maths.dist, [TEN, Arg(TENSOR, name="tensor2"), Arg(NUMBER, 2, name="p")]),
    types=FLOAT,
    doc="The p-norm of tensor - tensor2 (a number).",
    group=G,
)
wrap(
    "equal",
    (maths.equal, [TEN, Arg(TENSOR, name="tensor2")]),
    doc="True when both have one size and equal elements.",
    group=G,
)

G = "Matrices"
wrap("trace", (maths.trace, [TEN]), doc="The sum of the diagonal (a number).", group=G)
wrap(
    "cross",
    (maths.cross, [NEW_RES, TEN, Arg(TENSOR, name="tensor2"), Arg(INDEX, 0, name="dim")]),
    doc="The cross product along dim (default: the first dimension of size 3).",
    group=G,
)
wrap(
    "diag",
    (maths.diag, [NEW_RES, TEN, Arg(NUMBER, 0, name="k")]),
    doc="A vector's diagonal matrix, or a matrix's k-th diagonal.",
    group=G,
)
wrap(
    "tril",
    (maths.tri(_matrix.tril), [NEW_RES, TEN, Arg(NUMBER, 0, name="k")]),
    doc="The lower triangle (on and below the k-th diagonal).",
    group=G,
)
wrap(
    "triu",
    (maths.tri(_matrix.triu), [NEW_RES, TEN, Arg(NUMBER, 0, name="k")]),
    doc="The upper triangle (on and above the k-th diagonal).",
    group=G,
)
wrap(
    "eye",
    (maths.eye, [RES, Arg(NUMBER, name="n"), Arg(NUMBER, 0, name="m")]),
    doc="The n x m (m = n by default) identity; x:eye(n, m) fills x.",
    group=G,
)
for _name, _fn in (
    ("conv2", _conv.conv2),
    ("xcorr2", _conv.xcorr2),
    ("conv3", _conv.conv3),
    ("xcorr3", _conv.xcorr3),
):
    wrap(
        _name,
        (
            maths.convolution(_fn),
            [NEW_RES, TEN, Arg(TENSOR, name="kernel"), Arg(option("V", "F"), "V", name="mode")],
        ),
        doc=f"The {'convolution' if _name[0] == 'c' else 'correlation'} of tensor by kernel, "
        f"'V'alid or 'F'ull (Torch7's 2-D/3-D forms).",
        group=G,
    )

G = "Elementwise"
wrap(
    "addcmul",
    (maths.addc("cmul"), [RES, SRC, Arg(NUMBER, 1, name="value"), TEN, TEN]),
    doc="res = tensor + value * tensor1 * tensor2.",
    group=G,
)
wrap(
    "addcdiv",
    (maths.addc("cdiv"), [RES, SRC, Arg(NUMBER, 1, name="value"), TEN, TEN]),
    doc="res = tensor + value * tensor1 / tensor2.",
    group=G,
)
wrap(
    "lerp",
    (maths.lerp, [RES, SRC, Arg(TENSOR, name="tensor2"), Arg(NUMBER, name="weight")]),
    (maths.lerp_number, [Arg(NUMBER, name="a"), Arg(NUMBER, name="b"), Arg(NUMBER, name="weight")]),
    types=FLOAT16,
    doc="res = tensor + weight * (tensor2 - tensor); of numbers, a number.",
    group=G,
)

G = "Construction"
for _log, _name in ((False, "linspace"), (True, "logspace")):
    wrap(
        _name,
        (
            maths.spaced(_log),
            [RES, Arg(NUMBER, name="a"), Arg(NUMBER, name="b"), Arg(NUMBER, 100, name="n")],
        ),
        types=FLOAT,
        doc=f"n points from {'10^a to 10^b' if _log else 'a to b'}, evenly spaced"
        f"{' in the exponent' if _log else ''}.",
        group=G,
    )

# ---------------------------------------------------------------- LAPACK
# torch.f([res1, res2,] operands..., options): the results are given all or
# none (cwrap's invisible defaults).  Each entry lists its results' places
# (maths.place): COL a column-major answer, ROW one of Lua's usual layout,
# with the index of the operand that may be given as that result and then
# keeps its layout (TH's cloneColumnMajor(result, operand)).
G = "Linear algebra (LAPACK)"
_OUT = Arg(TENSOR, NEW, name="res", hidden=True)
COL, ROW = (maths.COL, None), (maths.ROW, None)


def _col(operand):
    return (maths.COL, operand)


def _lapack_entry(name, fn, places, operands, options=(), doc=""):
    nres = len(places)
    given = [Arg(TENSOR, name=f"res{i + 1}") for i in range(nres)]
    if nres == 1:
        given = [Arg(TENSOR, name="res")]
    wrap(
        name,
        (maths.lapack(fn, places, name), given + operands + list(options)),
        (maths.lapack(fn, places, name), [_OUT] * nres + operands + list(options)),
        types=FLOAT,
        method=False,
        doc=doc,
        group=G,
    )


_UPLO = Arg(option("U", "L"), "U", name="uplo")
_A, _B = Arg(TENSOR, name="A"), Arg(TENSOR, name="B")
_lapack_entry(
    "gesv",
    _linalg.gesv,
    [_col(0), _col(1)],
    [_B, _A],
    doc="(X, LU): the solution of A X = B and A's LU factors.",
)
_lapack_entry(
    "gels",
    _linalg.gels,
    [_col(0), _col(1)],
    [_B, _A],
    doc="(X, QR): least squares (m >= n) or the minimum-norm solution.",
)
_lapack_entry(
    "trtrs",
    _linalg.trtrs,
    [_col(0), _col(1)],
    [_B, _A],
    [_UPLO, Arg(option("N", "T"), "N", name="trans"), Arg(option("N", "U"), "N", name="diag")],
    doc="(X, A): the triangular solve op(A) X = B.",
)
_lapack_entry(
    "potrf",
    _linalg.potrf,
    [_col(0)],
    [_A],
    [_UPLO],
    doc="The Cholesky factor of A's uplo triangle.",
)
_lapack_entry(
    "potrs",
    _linalg.potrs,
    [_col(0)],
    [_B, Arg(TENSOR, name="chol")],
    [_UPLO],
    doc="X with A X = B from A's Cholesky factor.",
)
_lapack_entry(
    "potri",
    _linalg.potri,
    [_col(0)],
    [Arg(TENSOR, name="chol")],
    [_UPLO],
    doc="A's inverse from its Cholesky factor.",
)
_lapack_entry(
    "qr", _linalg.geqrf_orgqr, [COL, ROW], [_A], doc="(Q, R): the reduced QR factorization."
)
_lapack_entry("geqrf", _linalg.geqrf, [_col(0), ROW], [_A], doc="(QR, tau): LAPACK's geqrf.")
_lapack_entry(
    "orgqr",
    _linalg.orgqr,
    [_col(0)],
    [_A, Arg(TENSOR, name="tau")],
    doc="Q from geqrf's (QR, tau).",
)
_lapack_entry(
    "ormqr",
    _linalg.ormqr,
    [_col(2)],
    [_A, Arg(TENSOR, name="tau"), Arg(TENSOR, name="C")],
    [Arg(option("L", "R"), "L", name="side"), Arg(option("N", "T"), "N", name="trans")],
    doc="op(Q) C or C op(Q) from geqrf's (QR, tau).",
)
_lapack_entry(
    "eig",
    _linalg.geev,
    [ROW, COL],
    [_A],
    [Arg(option("N", "V"), "N", name="jobvr")],
    doc="(e, V): eigenvalues as (real, imaginary) rows, eigenvectors as LAPACK packs them.",
)
_lapack_entry(
    "symeig",
    _linalg.syev,
    [ROW, _col(0)],
    [_A],
    [Arg(option("N", "V"), "N", name="jobz"), _UPLO],
    doc="(e, V): eigenvalues ascending and eigenvectors of a symmetric matrix (jobz 'N': V is "
    "A's copy as LAPACK left it, as Lua).",
)
_lapack_entry(
    "svd",
    _linalg.gesvd,
    [COL, ROW, ROW],
    [_A],
    [Arg(option("A", "S"), "S", name="jobu")],
    doc="(U, S, V) with A = U diag(S) V^T.",
)
_lapack_entry("inverse", _linalg.getri, [_col(0)], [_A], doc="A's inverse (getrf, getri).")
wrap(
    "pstrf",
    (
        maths.pstrf,
        [Arg(TENSOR, name="res"), Arg(INT, name="piv"), _A, _UPLO, Arg(NUMBER, -1, name="tol")],
    ),
    (maths.pstrf, [_OUT, Arg(INT, NEW, hidden=True), _A, _UPLO, Arg(NUMBER, -1, name="tol")]),
    types=FLOAT,
    method=False,
    doc="(factor, pivots): the pivoted Cholesky factorization (1-based pivots, an IntTensor).",
    group=G,
)

# ---------------------------------------------------------------- random
# torch.f([gen,] params) is one number; x:f([gen,] params) fills x (random.md);
# Torch7's generator (MT19937 and its transforms): a seed gives Lua's numbers.
G = "Random"
GEN = Arg(GENERATOR, None, name="generator")
for _name, _dist, _a, _b in (
    ("uniform", "uniform", 0, 1),
    ("normal", "normal", 0, 1),
    ("cauchy", "cauchy", 0, 1),
    ("logNormal", "log_normal", 1, 2),
):
    _p = [Arg(NUMBER, _a, name="a"), Arg(NUMBER, _b, name="b")]
    wrap(
        _name,
        (maths.draw(_dist), [GEN] + _p),
        (maths.fill(_dist), [TEN, GEN] + _p),
        types=FLOAT,
        doc=f"One {_name} number, or the tensor filled with them.",
        group=G,
    )
wrap(
    "exponential",
    (maths.draw("exponential"), [GEN, Arg(NUMBER, name="lambda")]),
    (maths.fill("exponential"), [TEN, GEN, Arg(NUMBER, name="lambda")]),
    types=FLOAT,
    doc="One exponential number, or the tensor filled with them.",
    group=G,
)
wrap(
    "geometric",
    (maths.draw("geometric"), [GEN, Arg(NUMBER, name="p")]),
    (maths.fill("geometric"), [TEN, GEN, Arg(NUMBER, name="p")]),
    doc="One geometric number (trials to the first success), or the tensor filled.",
    group=G,
)
wrap(
    "bernoulli",
    (maths.draw("bernoulli"), [GEN, Arg(NUMBER, 0.5, name="p")]),
    (maths.fill("bernoulli"), [TEN, GEN, Arg(NUMBER, 0.5, name="p")]),
    (maths.fill("bernoulli"), [TEN, GEN, Arg(FLOAT_TENSOR, name="p")]),
    doc="1 with probability p, else 0 (p a number or a tensor of probabilities).",
    group=G,
)
_B = [Arg(NUMBER, name="a"), Arg(NUMBER, name="b")]
wrap(
    "random",
    (maths.random_number, [GEN] + _B),
    (maths.random_number, [GEN, _B[1]]),
    (maths.random_number, [GEN]),
    (maths.random_fill, [TEN, GEN] + _B),
    (maths.random_fill, [TEN, GEN, _B[1]]),
    (maths.random_fill, [TEN, GEN]),
    doc="An integer in [a, b] ([1, b]; or 32 random bits), or the tensor filled.",
    group=G,
)
wrap(
    "randperm",
    (maths.randperm, [RES, GEN, Arg(NUMBER, name="n")]),
    doc="A random permutation of 1..n.",
    group=G,
)
wrap(
    "multinomial",
    (
        maths.multinomial,
        [
            Arg(LONG, NEW, method=REQUIRED, name="res"),
            GEN,
            Arg(TENSOR, name="probs"),
            Arg(NUMBER, name="n"),
            Arg(BOOLEAN, False, name="replacement"),
        ],
    ),
    types=FLOAT,
    doc="n 1-based category indices drawn from each row of probs.",
    group=G,
)
wrap(
    "multinomialAliasSetup",
    (maths.alias_setup, [Arg(TENSOR, name="probs"), Arg(LIST, None, name="state")]),
    types=FLOAT,
    method=False,
    doc="Walker's alias tables of probs (1-D, summing to 1) as "
    "the state [J, q] for multinomialAlias (a given state is filled in place).",
    group=G,
)
wrap(
    "multinomialAlias",
    (maths.alias_draw, [Arg(TENSOR, name="output"), Arg(LIST, name="state")]),
    types=("int64",),
    method=False,
    doc="output (a LongTensor) filled with 1-based categories "
    "drawn with a multinomialAliasSetup state.",
    group=G,
)

# ---------------------------------------------------------------- construction
G = "Construction"
_SZ = Arg(NUMBER, many=True, name="sizes")
_SZL = Arg(SIZES, name="sizes")
for _kind, (_name, _f) in enumerate((("zeros", maths.ZEROS), ("ones", maths.ONES))):
    wrap(
        _name,
        (_f, [RES, _SZ]),
        (_f, [RES, _SZL]),
        doc=f"A tensor of the given sizes ({_name}); x:{_name}(sizes) resizes x.",
        group=G,
    ).front = maths.sized_front(_kind)
wrap(
    "reshape",
    (maths.reshape, [NEW_RES, TEN, _SZ]),
    (maths.reshape, [NEW_RES, TEN, _SZL]),
    doc="A contiguous copy of tensor with the given sizes (into res when given).",
    group=G,
)
for _kind, _name, _f, _dist in (
    (2, "rand", maths.RAND, "uniform"),
    (3, "randn", maths.RANDN, "normal"),
):
    wrap(
        _name,
        (_f, [RES, GEN, _SZ]),
        (_f, [RES, GEN, _SZL]),
        types=FLOAT,
        doc=f"A tensor of the given sizes ({_dist} numbers); x:{_name}(sizes) resizes and fills x.",
        group="Random",
    ).front = maths.sized_front(_kind)
wrap(
    "range",
    (
        maths.range_,
        [RES, Arg(NUMBER, name="x"), Arg(NUMBER, name="y"), Arg(NUMBER, 1, name="step")],
    ),
    doc="x, x+step, ..., up to y inclusive; x:range(...) fills x (kept as it is when it "
    "has that many elements).",
    group=G,
)
wrap(
    "cat",
    (
        maths.cat,
        [Arg(TENSOR, NEW, name="res"), Arg(TABLE, name="tensors"), Arg(INDEX, None, name="dim")],
    ),
    (maths.cat_pair, [Arg(TENSOR, NEW, name="res"), TEN, TEN, Arg(INDEX, None, name="dim")]),
    doc="The concatenation along dim (default: the last dimension); x:cat(y) is "
    "torch.cat(x, y), res:cat(x, y) and res:cat({x, y}) write into res.",
    group=G,
)
wrap(
    "nonzero",
    (maths.nonzero, [NEW_IDX, TEN]),
    method=False,
    doc="The 1-based subscripts of the nonzero elements, one row each.",
    group="Indexing",
)


# ---------------------------------------------------------------- tensor.md methods
# Methods of the Tensor class (tensor.py) that also have a torch.f(tensor, ...)
# function form, as in Lua: the function calls the method.


def _method_call(name):
    method = getattr(Tensor, name)
    return lambda t, rest: method(t, *rest)


for _name in [
    "narrow",
    "select",
    "sub",
    "transpose",
    "t",
    "permute",
    "unfold",
    "squeeze",
    "unsqueeze",
    "expand",
    "expandAs",
    "repeatTensor",
    "view",
    "viewAs",
    "index",
    "indexCopy",
    "indexAdd",
    "indexFill",
    "gather",
    "scatter",
    "maskedSelect",
    "maskedCopy",
    "maskedFill",
    "clone",
    "contiguous",
    "fill",
    "zero",
    "copy",
    "resize",
    "resizeAs",
    "apply",
    "map",
    "map2",
    "typeAs",
    "size",
    "stride",
    "nElement",
    "nDimension",
    "dim",
    "isContiguous",
    "storage",
    "storageOffset",
    "isSameSizeAs",
    "isSize",
    "isSetTo",
    "retain",
    "free",
    "split",
    "chunk",
]:
    wrap(
        _name,
        (_method_call(_name), [Arg(TENSOR, name="tensor"), Arg(ANYTHING, many=True, name="args")]),
        method=False,
        types=ALL,
        doc=f"torch.{_name}(tensor, ...) is tensor:{_name}(...) (tensor.md).",
        group=TENSOR_METHODS,
    )
# split and chunk take an optional result list first: torch.split(list, x, 2)
for _e in ENTRIES:
    if _e.name in ("split", "chunk"):
        _e.forms.insert(
            0,
            Form(
                (lambda n: lambda lst, t, rest: getattr(t, n)(lst, *rest))(_e.name),
                [
                    Arg(LIST, name="result"),
                    Arg(TENSOR, name="tensor"),
                    Arg(ANYTHING, many=True, name="args"),
                ],
            ),
        )


# ---------------------------------------------------------------- utility
# Functions of no tensor type (utility.md, random.md's seeding, files):
# declared here too, so that the table lists the whole package.


def utility(name, fn, doc=None, group="Utility"):
    """A function of no tensor type: torch.name is fn itself."""
    e = wrap(
        name,
        (fn, [Arg(ANYTHING, many=True, name="args")]),
        method=False,
        doc=doc or (fn.__doc__ or "").strip(),
        group=group,
    )
    e.direct = fn

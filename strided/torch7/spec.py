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

from ..core import linalg as _linalg
from . import maths
from .forms import (ANYTHING, BOOLEAN, BYTE, INDEX, INT, LIST, LONG, NEW, NUMBER, REQUIRED, SIZES,
                    TABLE, TENSOR, Arg, Entry, Form, Same, option)
from .tensor import Tensor

ALL = ("uint8", "int8", "int16", "int32", "int64", "float32", "float64")
FLOAT = ("float32", "float64")

RES = Arg(TENSOR, NEW, method=REQUIRED, name="res")
SRC = Arg(TENSOR, method=Same(0), name="tensor")
TEN = Arg(TENSOR, name="tensor")
NEW_RES = Arg(TENSOR, NEW, name="res")           # a result the method does not default to self
NEW_IDX = Arg(LONG, NEW, name="indices")
NUM = Arg(NUMBER, name="value")
DIM = Arg(INDEX, name="dim")

ENTRIES = []      # the table: every Torch7 function, in the order of maths.md's sections


def wrap(name, *forms, types=ALL, method=True, function=True, method_forms=None, doc="",
         group=""):
    """Declare one function: forms as (impl, [slots]) pairs."""
    e = Entry(name, [Form(impl, args) for impl, args in forms], types, method, function, doc,
              group)
    if method_forms is not None:
        e.method_forms = [Form(impl, args) for impl, args in method_forms]
    ENTRIES.append(e)
    return e


# ---------------------------------------------------------------- elementwise
G = "Elementwise"

wrap("add", (maths.binary("add", "add"), [RES, SRC, NUM]),
     (maths.scaled_binary("add", "add"), [RES, SRC, Arg(NUMBER, 1, name="value"), TEN]),
     doc="res = tensor + value, or tensor + value * tensor2.", group=G)
wrap("csub", (maths.binary("subtract", "csub"), [RES, SRC, NUM]),
     (maths.scaled_binary("subtract", "csub"), [RES, SRC, Arg(NUMBER, 1, name="value"), TEN]),
     doc="res = tensor - value, or tensor - value * tensor2.", group=G)
for _name, _op, _doc in [("mul", "multiply", "tensor * value"),
                         ("div", "divide", "tensor / value (integers: toward zero)"),
                         ("fmod", "fmod", "the C remainder of tensor / value"),
                         ("remainder", "remainder", "tensor - value * floor(tensor / value)")]:
    wrap(_name, (maths.binary(_op, _name), [RES, SRC, NUM]), doc=f"res = {_doc}.", group=G)
for _name, _op, _doc in [("cmul", "multiply", "the elementwise product"),
                         ("cdiv", "divide", "the elementwise quotient (integers: toward zero)"),
                         ("cpow", "pow", "tensor ^ tensor2 elementwise"),
                         ("cfmod", "fmod", "the elementwise C remainder"),
                         ("cremainder", "remainder", "the elementwise floored remainder")]:
    wrap(_name, (maths.binary(_op, _name), [RES, SRC, TEN]), doc=f"res = {_doc}.", group=G)
for _name, _op in [("cmax", "maximum"), ("cmin", "minimum")]:
    wrap(_name, (maths.binary(_op, _name), [NEW_RES, SRC, TEN]),
         (maths.binary(_op, _name), [NEW_RES, SRC, NUM]),
         doc=f"res = the elementwise {_op} of tensor and tensor2 (or value).", group=G)
wrap("pow", (maths.binary("pow", "pow"), [RES, SRC, NUM]),
     (maths.reversed_binary("pow", "pow"), [RES, NUM, SRC]),
     doc="res = tensor ^ value, or value ^ tensor.", group=G)
wrap("atan2", (maths.binary("atan2", "atan2"), [RES, SRC, TEN]), types=FLOAT,
     doc="res = atan2(tensor, tensor2) elementwise.", group=G)
wrap("clamp", (maths.clamp, [RES, SRC, Arg(NUMBER, name="min"), Arg(NUMBER, name="max")]),
     doc="res = tensor clamped to [min, max].", group=G)

_UNARY = {"abs": "abs", "sign": "sign", "neg": "negative", "cinv": "reciprocal"}
_UNARY.update({n: n for n in ["sqrt", "exp", "log", "log1p", "sin", "cos", "tan", "asin",
                              "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceil", "round",
                              "trunc", "sigmoid", "rsqrt", "frac"]})
_NUMBER_FORM = set(_UNARY) - {"sign", "neg", "cinv"}      # torch.exp(2) is a number
for _name, _op in _UNARY.items():
    _forms = [(maths.unary(_op), [RES, SRC])]
    if _name in _NUMBER_FORM:
        _forms.append((maths.unary_number(_op), [NUM]))
    wrap(_name, *_forms, doc=f"res = {_name}(tensor) elementwise.", group=G)

for _name in ["lt", "le", "gt", "ge", "eq", "ne"]:
    _f = maths.compare(_name)
    wrap(_name, (_f, [Arg(BYTE, NEW, name="res"), TEN, NUM]), (_f, [TEN, TEN, NUM]),
         (_f, [Arg(BYTE, NEW, name="res"), TEN, TEN]), (_f, [TEN, TEN, TEN]),
         doc=f"res = tensor {_name} value (or tensor2): a ByteTensor of 1 and 0, or the "
             f"type of tensor when res is of it.", group="Comparisons")

# ---------------------------------------------------------------- reductions
G = "Reductions"
wrap("sum", (maths.reduce_all("sum", 0), [TEN]), (maths.reduce_dim("sum"), [NEW_RES, TEN, DIM]),
     doc="The sum of all elements (a number), or along dim (kept with size 1).", group=G)
wrap("prod", (maths.reduce_all("prod", 1), [TEN]),
     (maths.reduce_dim("prod"), [NEW_RES, TEN, DIM]),
     doc="The product of all elements (a number), or along dim.", group=G)
wrap("mean", (maths.mean_all, [TEN]), (maths.mean_dim, [NEW_RES, TEN, DIM]),
     doc="The mean of all elements (a number), or along dim.", group=G)
for _is_max, _name in [(True, "max"), (False, "min")]:
    wrap(_name, (maths.reduce_all(_name, None), [TEN]),
         (maths.extreme_dim(_is_max), [NEW_RES, NEW_IDX, TEN, DIM]),
         doc=f"The {_name} of all elements (a number), or along dim: values and 1-based "
             f"indices.", group=G)
for _is_std, _name in [(False, "var"), (True, "std")]:
    wrap(_name, (maths.spread_all(_is_std), [TEN, Arg(BOOLEAN, False, name="biased")]),
         (maths.spread_dim(_is_std), [NEW_RES, TEN, DIM, Arg(BOOLEAN, False, name="biased")]),
         doc=f"The {_name} of all elements, or along dim; normalised by n-1, or by n when "
             f"biased is true.", group=G)
for _is_prod, _name in [(False, "cumsum"), (True, "cumprod")]:
    wrap(_name, (maths.cumulative(_is_prod), [NEW_RES, TEN, Arg(INDEX, 1, name="dim")]),
         doc=f"The cumulative {_name[3:]} along dim (default 1).", group=G)
wrap("all", (maths.logical(True), [TEN]), doc="True when every element is nonzero.", group=G)
wrap("any", (maths.logical(False), [TEN]), doc="True when some element is nonzero.", group=G)
wrap("numel", (maths.numel, [TEN]), doc="The number of elements.", group=G)
wrap("sort", (maths.sort, [NEW_RES, NEW_IDX, TEN, Arg(INDEX, None, name="dim"),
                           Arg(BOOLEAN, False, name="descending")]),
     doc="Values and 1-based indices sorted along dim (default: the last), ascending "
         "unless descending is true.", group=G)

# ---------------------------------------------------------------- products
G = "Matrix products"
wrap("dot", (maths.dot, [TEN, Arg(TENSOR, name="tensor2")]), doc="The sum of the elementwise products (a number).",
     group=G)
for _name, _da, _db in [("mm", 2, 2), ("mv", 2, 1), ("bmm", 3, 3), ("ger", 1, 1)]:
    wrap(_name, (maths.product(_name, _da, _db), [RES, Arg(TENSOR, name="a"),
                                                  Arg(TENSOR, name="b")]),
         doc=f"res = the {'outer ' if _name == 'ger' else ''}product of a {_da}-D and a "
             f"{_db}-D tensor.", group=G)
_V1, _V2 = Arg(NUMBER, 1, name="v1"), Arg(NUMBER, 1, name="v2")
_M, _A, _B = Arg(TENSOR, name="M"), Arg(TENSOR, name="mat1"), Arg(TENSOR, name="mat2")
for _name in maths.ADD_PRODUCTS:
    _f = maths.add_product(_name)
    wrap(_name, (_f, [NEW_RES, _V1, _M, _V2, _A, _B]),
         method_forms=[(_f, [TEN, Arg(NUMBER, 1, name="v1", hidden=True),
                             Arg(TENSOR, Same(0), name="M"), _V2, _A, _B]),
                       (_f, [TEN, Arg(NUMBER, name="v1"), Arg(TENSOR, Same(0), name="M"),
                             Arg(NUMBER, name="v2"), _A, _B])],
         doc="res = v1 * M + v2 * (a b); M:f([v1,] [v2,] a, b) in place.", group=G)

# ---------------------------------------------------------------- LAPACK
# torch.f([res1, res2,] operands..., options): the results are given all or
# none (cwrap's invisible defaults); each result is pointed at the answer in
# LAPACK's layout (column-major where Lua's is), no copy.
G = "Linear algebra (LAPACK)"
_OUT = Arg(TENSOR, NEW, name="res", hidden=True)


def _lapack_entry(name, fn, nres, operands, options=(), doc=""):
    given = [Arg(TENSOR, name=f"res{i + 1}") for i in range(nres)]
    if nres == 1:
        given = [Arg(TENSOR, name="res")]
    wrap(name, (maths.lapack(fn, nres), given + operands + list(options)),
         (maths.lapack(fn, nres), [_OUT] * nres + operands + list(options)),
         types=FLOAT, method=False, doc=doc, group=G)


_UPLO = Arg(option("U", "L"), "U", name="uplo")
_A, _B = Arg(TENSOR, name="A"), Arg(TENSOR, name="B")
_lapack_entry("gesv", _linalg.gesv, 2, [_B, _A], doc="(X, LU): the solution of A X = B and A's LU factors.")
_lapack_entry("gels", _linalg.gels, 2, [_B, _A], doc="(X, QR): least squares (m >= n) or the minimum-norm solution.")
_lapack_entry("trtrs", _linalg.trtrs, 2, [_B, _A],
              [_UPLO, Arg(option("N", "T"), "N", name="trans"), Arg(option("N", "U"), "N", name="diag")],
              doc="(X, A): the triangular solve op(A) X = B.")
_lapack_entry("potrf", _linalg.potrf, 1, [_A], [_UPLO], doc="The Cholesky factor of A's uplo triangle.")
_lapack_entry("potrs", _linalg.potrs, 1, [_B, Arg(TENSOR, name="chol")], [_UPLO],
              doc="X with A X = B from A's Cholesky factor.")
_lapack_entry("potri", _linalg.potri, 1, [Arg(TENSOR, name="chol")], [_UPLO],
              doc="A's inverse from its Cholesky factor.")
_lapack_entry("qr", _linalg.geqrf_orgqr, 2, [_A], doc="(Q, R): the reduced QR factorization.")
_lapack_entry("geqrf", _linalg.geqrf, 2, [_A], doc="(QR, tau): LAPACK's geqrf.")
_lapack_entry("orgqr", _linalg.orgqr, 1, [_A, Arg(TENSOR, name="tau")], doc="Q from geqrf's (QR, tau).")
_lapack_entry("ormqr", _linalg.ormqr, 1, [_A, Arg(TENSOR, name="tau"), Arg(TENSOR, name="C")],
              [Arg(option("L", "R"), "L", name="side"), Arg(option("N", "T"), "N", name="trans")],
              doc="op(Q) C or C op(Q) from geqrf's (QR, tau).")
_lapack_entry("eig", _linalg.geev, 2, [_A], [Arg(option("N", "V"), "N", name="jobvr")],
              doc="(e, V): eigenvalues as (real, imaginary) rows, eigenvectors as LAPACK packs them.")
_lapack_entry("symeig", _linalg.syev, 2, [_A], [Arg(option("N", "V"), "N", name="jobz"), _UPLO],
              doc="(e, V): eigenvalues ascending and eigenvectors of a symmetric matrix.")
_lapack_entry("svd", _linalg.gesvd, 3, [_A], [Arg(option("A", "S"), "S", name="jobu")],
              doc="(U, S, V) with A = U diag(S) V^T.")
_lapack_entry("inverse", _linalg.getri, 1, [_A], doc="A's inverse (getrf, getri).")
wrap("pstrf", (maths.pstrf, [Arg(TENSOR, name="res"), Arg(INT, name="piv"), _A, _UPLO,
                             Arg(NUMBER, -1, name="tol")]),
     (maths.pstrf, [_OUT, Arg(INT, NEW, hidden=True), _A, _UPLO, Arg(NUMBER, -1, name="tol")]),
     types=FLOAT, method=False, doc="(factor, pivots): the pivoted Cholesky factorization "
     "(1-based pivots, an IntTensor).", group=G)

# ---------------------------------------------------------------- random
G = "Random"
wrap("uniform", (maths.uniform, [TEN, Arg(NUMBER, 0.0, name="a"), Arg(NUMBER, 1.0, name="b")]),
     function=False, doc="Fill with uniform numbers on [a, b).", group=G)
wrap("normal", (maths.normal, [TEN, Arg(NUMBER, 0.0, name="mean"), Arg(NUMBER, 1.0, name="std")]),
     function=False, doc="Fill with normal numbers.", group=G)
wrap("bernoulli", (maths.bernoulli, [TEN, Arg(NUMBER, 0.5, name="p")]), function=False,
     doc="Fill with 1 (probability p) and 0.", group=G)

# ---------------------------------------------------------------- construction
G = "Construction"
_SZ = Arg(NUMBER, many=True, name="sizes")
_SZL = Arg(SIZES, name="sizes")
for _name in ["zeros", "ones", "rand", "randn"]:
    _f = maths.sized(getattr(maths, _name))
    wrap(_name, (_f, [NEW_RES, _SZ]), ((lambda f: lambda res, s: f(res, [s]))(_f), [NEW_RES, _SZL]),
         method=False, doc=f"A tensor of the given sizes ({_name}).", group=G)
wrap("range", (maths.range_, [NEW_RES, Arg(NUMBER, name="x"), Arg(NUMBER, name="y"),
                              Arg(NUMBER, 1, name="step")]), method=False,
     doc="x, x+step, ..., up to y inclusive.", group=G)
wrap("cat", (maths.cat, [Arg(TENSOR, NEW, name="res"), Arg(TABLE, name="tensors"), Arg(INDEX, None, name="dim")]),
     (maths.cat_pair, [Arg(TENSOR, NEW, name="res"), TEN, TEN, Arg(INDEX, None, name="dim")]),
     method=False, doc="The concatenation along dim (default: the last dimension).", group=G)
wrap("nonzero", (maths.nonzero, [NEW_IDX, TEN]), method=False,
     doc="The 1-based subscripts of the nonzero elements, one row each.", group="Indexing")


# ---------------------------------------------------------------- tensor.md methods
# Methods of the Tensor class (tensor.py) that also have a torch.f(tensor, ...)
# function form, as in Lua: the function calls the method.

def _method_call(name):
    method = getattr(Tensor, name)
    return lambda t, rest: method(t, *rest)


for _name in ["narrow", "select", "sub", "transpose", "t", "permute", "unfold", "squeeze",
              "unsqueeze", "expand", "expandAs", "repeatTensor", "view", "viewAs", "index",
              "indexCopy", "indexAdd", "indexFill", "gather", "scatter", "maskedSelect",
              "maskedCopy", "maskedFill", "clone", "contiguous", "fill", "zero", "copy",
              "resize", "resizeAs", "apply", "map", "map2", "typeAs", "size", "stride",
              "nElement", "nDimension", "dim", "isContiguous", "storage", "storageOffset",
              "isSameSizeAs", "isSize", "isSetTo", "retain", "free", "split", "chunk",
              "totable"]:
    wrap(_name, (_method_call(_name), [Arg(ANYTHING, name="tensor"),
                                       Arg(ANYTHING, many=True, name="args")]),
         method=False, doc=f"torch.{_name}(tensor, ...) is tensor:{_name}(...) (tensor.md).",
         group="Tensor methods (tensor.md)")
# split and chunk take an optional result list first: torch.split(list, x, 2)
for _e in ENTRIES:
    if _e.name in ("split", "chunk"):
        _e.forms.insert(0, Form((lambda n: lambda lst, t, rest: getattr(t, n)(lst, *rest))(_e.name),
                                [Arg(LIST, name="result"), Arg(ANYTHING, name="tensor"),
                                 Arg(ANYTHING, many=True, name="args")]))


# ---------------------------------------------------------------- utility
# Functions of no tensor type (utility.md, random.md's seeding, files):
# declared here too, so that the table lists the whole package.

def utility(name, fn, doc=None, group="Utility"):
    """A function of no tensor type: torch.name is fn itself."""
    e = wrap(name, (fn, [Arg(ANYTHING, many=True, name="args")]), method=False,
             doc=doc or (fn.__doc__ or "").strip(), group=group)
    e.direct = fn

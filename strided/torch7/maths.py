"""What each Torch7 function does once spec.py has resolved its arguments:
one implementation per form, called with every slot filled (the result
tensor included, new or given), in the order the form declares them.

Every result goes straight into its tensor: `res` is resized as Torch7
does (left as it is when it already has the size, so an in-place call on
a transposed view keeps its strides) and the core writes into `res`'s
own memory, whatever its strides; the kernels accept an output that is
also an input.  No full-size temporary, except where a form's types
differ from the kernel's (an integer sum along a dimension accumulates in
int64 and is stored in the tensor's own type).

No broadcasting on this face: a tensor operand needs the element count of
the first operand and is read in row-major order (Torch7's rule); numbers
are converted to the tensor's type."""

from __future__ import annotations

import functools
import math
import re

from ..core import arraytype as _fast
from ..core import (
    base as _core,
    conv as _conv,
    indexing as _indexing,
    linalg as _linalg,
    ops as _ops,
)
from ..core import matrix as _matrix, norm as _norm
from ..core import rng as _random, select as _select, views as _views
from .storage import _index
from .core_ops import run_op
from .registry import TENSOR_TYPES
from .tensor import Tensor, _as_shape, _grow, _number as number, _sizes_from

_BASE1 = _indexing.BASE1


# ---------------------------------------------------------------- results and operands


def _shape(x):
    return x._c.shape if x._c.ndim else (0,)


def into(res, shape):
    """res resized to `shape` (kept as it is when it already has it); its
    Core, or None when there is nothing to write."""
    c = res._c
    if c.ndim == 0 or c.shape != tuple(shape):
        res.resize(*shape)
        c = res._c
    return c if c.ndim and c.size else None


def _into_count(res, n):
    """TH's `if (nElement(r_) != n) resize1d(r_, n)`: res kept as it is
    (shape and strides: a non-contiguous view is filled in place, in
    row-major order) when it has n elements, else made 1-D of n."""
    if res.nElement() != n:
        res.resize(n)
    return res._c if n else None


def _kind(t):
    return _core.dtype(t._dt).kind


def _same_type(a, b, name):
    if type(b) is not type(a):
        raise TypeError(
            f"{name}: operands are {a._typename} and "
            f"{getattr(b, '_typename', type(b).__name__)}; convert one with type()"
        )


def operand(x, y, name):
    """Core of y (a number, or a tensor of x's type and element count) in
    x's shape."""
    if isinstance(y, Tensor):
        _same_type(x, y, name)
        if y.nElement() != x.nElement():
            raise ValueError(f"{name}: operands have {x.nElement()} and {y.nElement()} elements")
        return _as_shape(y._kcore(), _shape(x))
    return _core.scalar(y, x._dt)


def _shares(a, b):
    """a and b are views of one storage."""
    return a._c.ndim and b._c.ndim and a._c.storage == b._c.storage


def _one_based(indices, out):
    """out = indices + 1 (the core's 0-based positions in Torch7's numbering)."""
    _ops.binary("add", indices, _core.scalar(1, indices.dtype), out=out)


def _set_to(res, c):
    """res points at Core c, a new result of the core (in LAPACK's layout,
    column-major where Lua's is): the answer itself, no copy."""
    if c is None:  # an output Lua fills with scratch: left empty
        return res.resize()
    return res.set(type(res)._wrap(c)) if c.ndim else res.resize()


def _write(res, shape, compute, *inputs):
    """res resized to `shape` (kept when it has it, strides and all, as
    Torch7's resize) and the answer written into its own memory through
    its strides: compute(out) writes into the Core `out`.  When res shares
    memory with an input the answer is computed aside (compute(None)
    returns it) and copied in."""
    out = into(res, shape)
    if out is not None:
        if any(_shares(res, t) for t in inputs):
            _core.copy_(out, compute(None))
        else:
            compute(out)
    return res


def _sizes_str(t):
    return "x".join(map(str, t._c.shape)) or "0"


# ---------------------------------------------------------------- elementwise

# The elementwise forms spec.py declares as data (forms.Elementwise): each
# made from its Torch7 name, whose core op for a tensor type the op table
# gives (core_ops.run_op); op_of(dt) -> core op instead: the operators'
# choice (functions.py, `%` is the core's remainder).


def _op_of(name, op_of):
    return op_of or functools.partial(run_op, name)


def binary(name, op_of=None):
    """res = x op y (y a number or a tensor)."""
    op_of = _op_of(name, op_of)

    def impl(res, x, y):
        op = op_of(x._dt)
        yc = operand(x, y, name)
        out = into(res, _shape(x))
        if out is not None:
            _ops.binary(op, x._c, yc, out=out)
        return res

    return impl


_UNSIGNED = {"int8": "uint8", "int16": "uint16", "int32": "uint32", "int64": "uint64"}


def shift(left, name):
    """lshift/rshift (value) and clshift/crshift (tensor), as TH: integers
    shift as their unsigned type (so rshift of a negative value is logical),
    floats multiply or divide by 2^value."""

    def impl(res, x, y):
        yc = operand(x, y, name)
        out = into(res, _shape(x))
        if out is None:
            return res
        if _kind(x) == "f":
            scale = _ops.binary("pow", _core.scalar(2.0, x._dt), yc)
            _ops.binary("multiply" if left else "divide", x._c, scale, out=out)
            return res
        u = _UNSIGNED.get(x._dt, x._dt)
        as_u = (lambda c: c.view(c.offset, c.shape, c.strides, u)) if u != x._dt else (lambda c: c)
        _ops.binary("left_shift" if left else "right_shift", as_u(x._c), as_u(yc), out=as_u(out))
        return res

    return impl


def reversed_binary(name, op_of=None):
    """res = value op x (torch.pow(res, value, x))."""
    op_of = _op_of(name, op_of)

    def impl(res, value, x):
        op = op_of(x._dt)
        out = into(res, _shape(x))
        if out is not None:
            _ops.binary(op, _core.scalar(value, x._dt), x._c, out=out)
        return res

    return impl


def scaled_binary(name):
    """res = x op value * y (add and csub with a scale)."""

    def impl(res, x, value, y):
        op = run_op(name, x._dt)
        yc = operand(x, y, name)
        out = into(res, _shape(x))
        if out is None:
            return res
        if value != 1:
            yc = _ops.binary("multiply", yc, _core.scalar(value, x._dt))
        _ops.binary(op, x._c, yc, out=out)
        return res

    return impl


def unary(name):
    def impl(res, x):
        op = run_op(name, x._dt)
        out = into(res, _shape(x))
        if out is not None:
            _ops.unary(op, x._c, out=out)
        return res

    return impl


# the implementation of each kind of elementwise form (forms.Elementwise)
ELEMENTWISE = {
    "unary": unary,
    "binary": binary,
    "scaled": scaled_binary,
    "reversed": reversed_binary,
}


def unary_number(name):
    """torch.exp(2): the function of a number, computed by the same kernel
    (name: a Torch7 name, or a form's implementation such as round_half_away)."""

    def impl(v):
        c = _core.scalar(float(v), "float64")
        if callable(name):
            t = TENSOR_TYPES["torch.DoubleTensor"]
            return float(_core.item(name(t(), t._wrap(_views.unsqueeze(c, 0)))._c))
        return float(_core.item(_ops.unary(run_op(name, "float64"), c)))

    return impl


def clamp(res, x, lo, hi):
    """Lua's clamp: x < min ? min : (x > max ? max : x), so min > max
    gives min below min and max elsewhere, and NaN stays."""
    out = into(res, _shape(x))
    if out is None:
        return res
    lo_c, hi_c = _core.scalar(lo, x._dt), _core.scalar(hi, x._dt)
    below = _ops.binary("less", x._c, lo_c)  # decided on x, before any write
    _ops.where(_ops.binary("greater", x._c, hi_c), hi_c, x._c, out=out)
    _ops.where(below, lo_c, out, out=out)
    return res


def chosen(greater):
    """Lua's cmax / cmin: a > b ? a : b (a < b ? a : b); when the two do not
    compare (a NaN), the second operand."""
    name, compare = ("cmax", "greater") if greater else ("cmin", "less")

    def impl(res, x, y):
        yc = operand(x, y, name)
        out = into(res, _shape(x))
        if out is not None:
            keep = _ops.binary(compare, x._c, yc)
            _ops.where(keep, x._c, yc, out=out)
        return res

    return impl


def round_half_away(res, x):
    """Lua's round (C's round()): halves away from zero, exactly: the
    integer part plus the sign where the fraction (exact) is at least 1/2."""
    out = into(res, _shape(x))
    if out is None:
        return res
    if _kind(x) in "iu":  # whole already: the core's round is the identity
        _ops.unary("round", x._c, out=out)
        return res
    whole = _ops.unary("trunc", x._c)
    frac = _ops.unary("abs", _ops.binary("subtract", x._c, whole))
    # whole itself where the fraction is below 1/2 (not whole + 0: that
    # would turn round(-0.4)'s -0 into +0, where C's round keeps it)
    _ops.where(
        _ops.binary("greater_equal", frac, _core.scalar(0.5, x._dt)),
        _ops.binary("add", whole, _ops.unary("sign", x._c)),
        whole,
        out=out,
    )
    return res


def sign_nan_zero(res, x):
    """Lua's sign: (x > 0) - (x < 0), so NaN gives 0 (and -0 gives 0)."""
    out = into(res, _shape(x))
    if out is None:
        return res
    zero = _core.scalar(0, x._dt)
    pos = _core.astype(_ops.binary("greater", x._c, zero), x._dt)
    neg = _core.astype(_ops.binary("less", x._c, zero), x._dt)
    _ops.binary("subtract", pos, neg, out=out)
    return res


_COMPARE = {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "eq": "equal",
    "ne": "not_equal",
}


def compare(name):
    """res (a ByteTensor, or a tensor of x's type) = x op y, 1 or 0."""
    op = _COMPARE[name]

    def impl(res, x, y):
        yc = operand(x, y, name)
        out = into(res, _shape(x))
        if out is None:
            return res
        if res._dt == "uint8":
            # a 0/1 bool result written straight into the bytes of res
            _ops.binary(op, x._c, yc, out=out.view(out.offset, out.shape, out.strides, "bool"))
        else:
            _core.copy_(out, _ops.binary(op, x._c, yc))
        return res

    return impl


# ---------------------------------------------------------------- reductions


def _empty_number(x, value):
    return value if _kind(x) in "iu" else float(value)


def reduce_all(op, empty):
    """x:sum() -> a number (the accumulator's type, as Lua's accreal)."""

    def impl(x):
        if x.nElement() == 0:
            if empty is None:
                raise ValueError(f"{op}: the tensor is empty")
            return _empty_number(x, empty)
        return number(_ops.reduce(op, x._kcore()), x._dt)

    return impl


def _reduced_shape(x, d):
    s = list(_shape(x))
    s[d] = 1
    return s


def reduce_dim(op):
    """res = op of x along dim (kept with size 1), in x's type."""

    def impl(res, x, dim):
        d = x._dim(dim)
        c = x._kcore()
        if op in ("max", "min") and c.shape[d] == 0:
            raise ValueError(f"{op}: dimension {dim} is empty")
        out = into(res, _reduced_shape(x, d))
        if out is None:
            return res
        if _ops.reduce_result(op, c.dtype) is c.dtype:
            _ops.reduce(op, c, d, keepdims=True, out=out)
        else:  # integers accumulate in 64 bits
            _core.copy_(out, _ops.reduce(op, c, d, keepdims=True))
        return res

    return impl


def mean_all(x):
    n = x.nElement()
    if n == 0:
        return math.nan
    c = x._kcore()
    if _kind(x) != "f":
        c = _core.astype(c, "float64")
    return float(_core.item(_ops.reduce("sum", c))) / n


def mean_dim(res, x, dim):
    d = x._dim(dim)
    out = into(res, _reduced_shape(x, d))
    if out is None:
        return res
    if _kind(x) == "f":
        _ops.mean(x._c, d, keepdims=True, out=out)
    else:
        _core.copy_(out, _ops.mean(_core.astype(x._c, "float64"), d, keepdims=True))
    return res


def extreme_dim(is_max):
    name = "max" if is_max else "min"

    def impl(values, indices, x, dim):
        d = x._dim(dim)
        c = x._kcore()
        if c.shape[d] == 0:
            raise ValueError(f"{name}: dimension {dim} is empty")
        shape = _reduced_shape(x, d)
        vout, iout = into(values, shape), into(indices, shape)
        _ops.reduce(name, c, d, keepdims=True, out=vout)
        _ops.argreduce(is_max, c, d, keepdims=True, out=iout)
        _one_based(iout, iout)
        return values, indices

    return impl


def _float_core(x):
    return _core.astype(x._kcore(), "float64") if _kind(x) in "iu" else x._kcore()


def spread_all(is_std):
    f = _ops.std if is_std else _ops.var

    def impl(x, biased):
        return float(_core.item(f(_float_core(x), None, 0.0 if biased else 1.0)))

    return impl


def spread_dim(is_std):
    f = _ops.std if is_std else _ops.var

    def impl(res, x, dim, biased):
        d = x._dim(dim)
        out = into(res, _reduced_shape(x, d))
        if out is not None:
            r = f(_float_core(x), d, 0.0 if biased else 1.0, keepdims=True)
            _core.copy_(out, r)
        return res

    return impl


def cumulative(is_prod):
    """cumsum / cumprod: TH's running sum or product in its accreal (double
    for float32 too: each output is the double partial result rounded
    once; int64 for the integer types, wrapped to the type when stored)."""

    def impl(res, x, dim):
        d = x._dim(dim)
        out = into(res, _shape(x))
        if out is None:
            return res
        if x._dt in ("float64", "int64"):  # res holds the accumulator's type: straight in
            _ops.cumulative(is_prod, x._c, d, out=out)
        else:
            c = _core.astype(x._c, "float64") if x._dt == "float32" else x._c
            _core.copy_(out, _ops.cumulative(is_prod, c, d))
        return res

    return impl


def logical(is_all):
    def impl(x):
        n = _ops.count_nonzero(x._kcore())
        return n == x.nElement() if is_all else n > 0

    return impl


def numel(x):
    return x.nElement()


def sort(values, indices, x, dim, descending):
    c = x._kcore()
    d = x._dim(dim) if dim is not None else max(c.ndim - 1, 0)
    vout, iout = into(values, _shape(x)), into(indices, _shape(x))
    if vout is not None:
        _indexing.sort(c, d, descending, out=vout)
        _core.copy_(iout, _indexing.argsort(c, d, descending, flags=_BASE1))
    return values, indices


# ---------------------------------------------------------------- products


def _flat(c):
    return _views.view_as_shape(c, (c.size,)) or _views.view_as_shape(
        _core.contiguous(c), (c.size,)
    )


def dot(x, y):
    """The sum of the elementwise products of two tensors of one type and
    element count, both seen as vectors (BLAS for float and double;
    integers wrap in their type, as TH's dot did)."""
    operand(x, y, "dot")
    if x.nElement() == 0:
        return _empty_number(x, 0)
    row = _views.unsqueeze(_flat(x._kcore()), 0)
    col = _views.unsqueeze(_flat(y._kcore()), 1)
    return number(_ops.matmul(row, col), x._dt)


def _need_dims(name, t, what, dims):
    if t.nDimension() != dims:
        raise ValueError(
            f"{name}: {what} must be a {dims}-D tensor, got {t.nDimension()}-D ({_sizes_str(t)})"
        )


def product(name, dims_a, dims_b, label=None):
    """res = a b (mm, mv, bmm) or the outer product (ger); label: the name
    in messages (the operator `*`)."""

    def impl(res, a, b):
        return _product(name, label or name, dims_a, dims_b, res, a, b)

    return impl


def _product(name, label, dims_a, dims_b, res, a, b):
    _need_dims(label, a, "first argument", dims_a)
    _need_dims(label, b, "second argument", dims_b)
    _same_type(a, b, label)
    ca, cb = a._c, b._c
    if name == "ger":
        ca, cb = _views.unsqueeze(ca, 1), _views.unsqueeze(cb, 0)
    elif name == "mv":
        cb = _views.unsqueeze(cb, 1)
    if dims_a == dims_b == 3 and ca.shape[0] != cb.shape[0]:
        raise ValueError(f"{label}: batch sizes differ: {_sizes_str(a)} and {_sizes_str(b)}")
    if ca.shape[-1] != cb.shape[-2]:
        raise ValueError(f"{label}: size mismatch, {_sizes_str(a)} and {_sizes_str(b)}")
    shape = ca.shape[:-1] + cb.shape[-1:]
    out = into(res, shape[:-1] if name == "mv" else shape)
    if out is not None:
        _ops.matmul(ca, cb, out=_views.unsqueeze(out, 1) if name == "mv" else out)
    return res


# x * y and x @ y of two tensors, by their dimensions (Torch7's `*`:
# TensorOperator.c; `@`, an extension beyond Lua, also takes bmm's stacks)
_PRODUCTS = {"*": {(2, 1): "mv", (2, 2): "mm"}, "@": {(2, 1): "mv", (2, 2): "mm", (3, 3): "bmm"}}
_CMUL = "for the elementwise product use x.cmul(y) (or torch.cmul(x, y))"


def matrix_product(a, b, symbol="*"):
    """Torch7's `*` between tensors: vector.vector is dot (a number),
    matrix*vector and matrix*matrix the products; `@` (symbol) the same
    and bmm's batches of matrices."""
    da, db = a.nDimension(), b.nDimension()
    if da == 1 and db == 1:
        return dot(a, b)
    name = _PRODUCTS[symbol].get((da, db))
    if name is None:
        forms = ", ".join(f"{x}D {symbol} {y}D ({n})" for (x, y), n in _PRODUCTS[symbol].items())
        raise ValueError(
            f"{symbol}: multiplication between {da}D and {db}D tensors is not "
            f"supported (1D {symbol} 1D (dot), {forms}); {_CMUL}"
        )
    inner = (a._c.shape[-1], b._c.shape[0 if db == 1 else -2])
    if inner[0] != inner[1]:
        raise ValueError(
            f"{symbol}: size mismatch, {_sizes_str(a)} and {_sizes_str(b)}: "
            f"{symbol} of a {da}D and a {db}D tensor is the matrix product "
            f"(torch.{name}), which needs the first's columns ({inner[0]}) to "
            f"equal the second's rows ({inner[1]}); {_CMUL}"
        )
    return _product(name, symbol, da, db, type(a)(), a, b)


ADD_PRODUCTS = {
    "addmm": (2, 2, 2),
    "addmv": (1, 2, 1),
    "addr": (2, 1, 1),
    "addbmm": (2, 3, 3),
    "baddbmm": (3, 3, 3),
}


def add_product(name):
    """res = v1 * M + v2 * (a b): one st_addmm call (BLAS ?gemm with beta
    for float and double, our kernel for integers) into res."""
    dm, da, db = ADD_PRODUCTS[name]

    def impl(res, v1, m, v2, a, b):
        for t, what, dims in ((m, "M", dm), (a, "first factor", da), (b, "second factor", db)):
            _need_dims(name, t, what, dims)
            _same_type(m, t, name)
        ca, cb = a._c, b._c
        if name == "addmv":
            cb = _views.unsqueeze(cb, 1)
        elif name == "addr":
            ca, cb = _views.unsqueeze(ca, 1), _views.unsqueeze(cb, 0)
        elif da == 3 and ca.shape[0] != cb.shape[0]:
            raise ValueError(f"{name}: batch sizes differ: {_sizes_str(a)} and {_sizes_str(b)}")
        if ca.shape[-1] != cb.shape[-2]:
            raise ValueError(f"{name}: size mismatch, {_sizes_str(a)} and {_sizes_str(b)}")
        if name == "addbmm":  # sum_i a_i b_i = [a_1 ... a_B] [b_1; ...; b_B]: one product
            nb, n, k = ca.shape
            ca = _as_shape(_views.permute(ca, (1, 0, 2)), (n, nb * k))
            cb = _as_shape(cb, (nb * k, cb.shape[2]))
        want = ca.shape[:-1] + cb.shape[-1:] if name != "addmv" else ca.shape[:1]
        if m._c.shape != tuple(want):
            raise ValueError(
                f"{name}: M has size {_sizes_str(m)}, expected {'x'.join(map(str, want))}"
            )
        if res is not m and any(_shares(res, t) for t in (a, b)):
            tmp = impl(type(res)(), v1, m, v2, a, b)  # res is a factor: read it first
            return res.resizeAs(tmp).copy(tmp)
        out = into(res, want)
        if out is None:
            return res
        if res is not m:
            _core.copy_(out, m._c)
        _linalg.addmm(_views.unsqueeze(out, 1) if name == "addmv" else out, ca, cb, v2, v1)
        return res

    return impl


# ---------------------------------------------------------------- LAPACK

COL, ROW = "col", "row"  # how TH lays a LAPACK answer in a given result (place)


_POSITION = re.compile(r"\b(\w+)\[(\d+), (\d+)\]")
_SHAPE = re.compile(r"\bshape \((\d+(?:, \d+)*),?\)")
_SIZES = re.compile(r"\((\d+(?:, \d+)+)\)")


def torch7_terms(message, name):
    """A core LAPACK message in the Torch7 face's terms: the Torch7 function
    `name` for the routine (which the message keeps in parentheses when it
    differs), 1-based positions written as Lua indexes them (U[0, 0] ->
    U[1][1]), shapes as sizes (shape (2, 3) -> size 2x3, (3, 1) -> (3x1))."""
    routine, _, text = message.partition(": ")
    text = _POSITION.sub(lambda m: f"{m[1]}[{int(m[2]) + 1}][{int(m[3]) + 1}]", text)
    text = _SHAPE.sub(lambda m: "size " + "x".join(m[1].split(", ")), text)
    text = _SIZES.sub(lambda m: "(" + "x".join(m[1].split(", ")) + ")", text)
    via = f" (LAPACK's {routine})" if routine != name else ""
    return f"{name}: {text}{via}"


def _lapack_call(name, fn, *args):
    try:
        return fn(*args)
    except ValueError as e:
        raise ValueError(torch7_terms(str(e), name)) from None


def lapack(fn, places, name):
    """A Torch7 LAPACK function: its result tensors first (given or new),
    then the operands and options, as TensorMath.lua lists them.  places:
    one (kind, source) per result, how TH puts that answer into it (place);
    name: the Torch7 function's, for its messages."""
    nres = len(places)

    def impl(*args):
        results, operands = args[:nres], args[nres:]
        for t in operands:
            if isinstance(t, Tensor):
                _same_type(results[0], t, name)
        cores = _lapack_call(
            name,
            fn,
            *(
                t._c if isinstance(t, Tensor) else t[:1] if isinstance(t, str) else t
                for t in operands
            ),
        )
        cores = cores if isinstance(cores, tuple) else (cores,)
        for res, c, (kind, source) in zip(results, cores, places):
            place(res, c, kind, operands[source] if source is not None else None)
        return results if nres > 1 else results[0]

    return impl


def place(res, c, kind, source=None):
    """Put the LAPACK answer c (a new Core) into the result tensor res as
    TH (THTensorLapack.c) does: in res's own storage, so that another view
    of it sees the answer (eig into a slice of a bigger tensor fills that
    slice).  Only Lua's outcomes of a wrong layout are not copied: TH runs
    LAPACK over a non-contiguous square result as if it were column-major.
    - c None (eig's vectors without 'V'): res is left as it is.
    - res is `source`, the operand that TH's cloneColumnMajor works from
      (torch.gesv(b, a, b, a)): res keeps its layout, the answer is copied
      in; when the shape changes (gels's X: n of B's rows) res is resized,
      contiguous, unless it is B as LAPACK takes it (column-major and
      max(m, n) square), where X stays its first n rows.
    - res without a storage (a new result): res becomes c, no copy (TH
      allocates the same layout).
    - kind COL (a column-major answer, TH's resize to the transposed sizes,
      then transpose): a square non-contiguous res of c's shape keeps its
      layout (TH's guard in eig and svd; in place when it is column-major);
      any other res takes c's layout from its storage offset, its storage
      grown as Torch7's resize grows it, and all of c's block is copied
      (gels's rows below X too, qr's Q of a wide matrix in its m x n block).
    - kind ROW: res resized as Torch7 does (kept when it has the shape),
      the answer copied in."""
    if c is None:
        return res
    r = res._c
    if res is source and r.ndim == c.ndim:
        ld = c.strides[-1]
        if r.shape != c.shape and r.ndim == 2 and r.shape == (ld, ld) and r.strides == (1, ld):
            _core.copy_(r, c.view(c.offset, (ld, ld), (1, ld)))
            r.set(r.storage, res._dt, r.offset, c.shape, c.strides)
            return res
        out = into(res, c.shape)
    elif not r.storage:
        return _set_to(res, c)
    elif kind == COL and not _kept_square(r, c):
        span = _span(c)
        _grow(r.storage, r.offset + span, res._dt, "the result")
        r.set(r.storage, res._dt, r.offset, c.shape, c.strides)
        _core.copy_(r.view(r.offset, (span,), (1,)), c.view(c.offset, (span,), (1,)))
        return res
    else:
        out = into(res, c.shape)
    if out is not None:
        _core.copy_(out, c)
    return res


def _span(c):
    """The elements of a new Core's storage from its offset: its whole block
    (gels's X and qr's Q of a wide matrix are the first rows or columns of
    a bigger column-major block, as in TH)."""
    return int(c.storage.nbytes) // c.dtype.itemsize - c.offset


def _kept_square(r, c):
    """TH keeps a result's layout when it is non-contiguous with the sizes
    of the square column-major block c fills."""
    return (
        r.ndim == 2
        and not r.is_contiguous()
        and r.shape == c.shape
        and c.shape[0] == c.shape[1] == c.strides[1]
        and _span(c) == c.size
    )


def pstrf(res, piv, a, uplo, tol):
    """(factor, 1-based pivots as an IntTensor), as Lua's pstrf."""
    factor, p = _lapack_call("pstrf", _linalg.pstrf, a._c, uplo[:1], tol)
    place(res, factor, COL, a)
    out = into(piv, p.shape)
    if out is not None:
        _one_based(p, out)
    return res, piv


# ---------------------------------------------------------------- statistics, norms, matrices


def histogram(fn):
    """histc / bhistc: the counts written into res (of x's type)."""

    def impl(res, x, nbins, lo, hi):
        _same_type(res, x, fn.__name__)
        c, nbins = x._kcore(), int(nbins)
        if nbins < 1:
            raise ValueError(f"{fn.__name__}: nbins must be >= 1, got {nbins}")
        if fn.__name__ == "histc":
            shape = (nbins,)
        elif c.ndim == 2:
            shape = (c.shape[0], nbins)
        else:
            raise ValueError(f"bhistc: x must be 2-D, got {c.ndim} dims")
        return _write(res, shape, lambda out: fn(c, nbins, float(lo), float(hi), out=out), x)

    return impl


def selection(name):
    """values and 1-based indices along dim (kept with size 1), as Lua's
    topk/kthvalue/median/mode (dim: the last by default)."""

    def impl(values, indices, x, *args):
        c = x._kcore()
        dim = args[1] if name == "topk" else args[-1]
        d = x._dim(dim) if dim is not None else c.ndim - 1
        n = c.shape[d] if c.ndim else 0
        if name in ("topk", "kthvalue"):
            k = int(args[0])
            if not 1 <= k <= n:  # Lua: k not in range / selected index out of range
                raise IndexError(
                    f"{name}: k = {k} out of range [1, {n}] (dim {d + 1} has size {n})"
                )
        # torch7=True: positions among ties as TH's quickselect/quicksort leave them
        if name == "topk":
            largest, sort_ = bool(args[2]), bool(args[3])
            run = lambda out: _select.topk(c, k, d, largest, sort_, out=out, torch7=True)
        elif name == "kthvalue":
            run = lambda out: _select.kthvalue(c, k - 1, d, keepdims=True, out=out, torch7=True)
        else:
            run = lambda out: getattr(_select, name)(c, d, keepdims=True, out=out, torch7=True)
        shape = tuple((k if name == "topk" else 1) if i == d else s for i, s in enumerate(c.shape))
        vout, iout = into(values, shape), into(indices, shape)
        if vout is None:
            return values, indices
        if _shares(values, x) or _shares(indices, x) or _shares(values, indices):
            v, i = run(None)  # a result that is also an input: computed aside
            _core.copy_(vout, v)
            _core.copy_(iout, i)
        else:
            run((vout, iout))
        _one_based(iout, iout)
        return values, indices

    return impl


def norm_all(x, p):
    return float(_norm.norm(x._kcore(), float(p)))


def norm_dim(res, x, p, dim):
    c, d = x._kcore(), x._dim(dim)
    shape = tuple(1 if i == d else n for i, n in enumerate(c.shape))
    return _write(res, shape, lambda out: _norm.norm(c, float(p), d, keepdims=True, out=out), x)


def renorm(res, x, p, dim, maxnorm):
    out = into(res, _shape(x))
    if out is not None:
        _norm.renorm(x._c, float(p), x._dim(dim), float(maxnorm), out=out)
    return res


def dist(a, b, p):
    operand(a, b, "dist")
    return float(_norm.dist(a._kcore(), b._kcore(), float(p)))


def trace(x):
    """The sum of the diagonal: an int for integer types (Lua's accreal)."""
    v = _matrix.trace(x._kcore())
    return int(v) if _kind(x) in "iu" else float(v)


def cross(res, a, b, dim):
    operand(a, b, "cross")
    out = into(res, _shape(a))
    if out is not None:
        _matrix.cross(a._c, _as_shape(b._c, a._c.shape), a._dim(dim) if dim else None, out=out)
    return res


def convolution(fn):
    def impl(res, x, k, mode):
        _same_type(x, k, fn.__name__)
        c, kc = x._kcore(), k._kcore()
        shape = _conv.out_shape(c, kc, fn.__name__, mode[:1])
        return _write(res, shape, lambda out: fn(c, kc, mode[:1], out=out), x, k)

    return impl


def equal(a, b):
    """True when a and b have one size and equal elements (Lua's equal)."""
    _same_type(a, b, "equal")
    if a._c.shape != b._c.shape:
        return False
    if a.nElement() == 0:
        return True
    return _ops.count_nonzero(_ops.binary("not_equal", a._c, b._c)) == 0


def eye(res, n, m):
    """TH's eye: n x m (m <= 0: n x n), the sizes truncated as cwrap's long;
    res kept as it is when it has that size (a transposed res stays so)."""
    n, m = int(n), int(m)
    if n <= 0:
        raise ValueError(f"eye: n must be positive, got {n}")
    m = m if m > 0 else n
    zeroed = not res._c.storage  # a new result: zeroed pages, the ones only
    out = _zeroed(res, (n, m))._c if zeroed else into(res, (n, m))
    if out is not None:
        _ops.eye_(out, 0, zeroed)
    return res


def spaced(log):
    """linspace / logspace as TH (the C core's st_spaced: a + i*(b-a)/(n-1),
    each step in the tensor's type, so the last point need not be b; then
    10^that by libm's pow); res kept as it is (a non-contiguous view filled
    in row-major order) when it has n elements, else made 1-D."""
    name = "logspace" if log else "linspace"

    def impl(res, a, b, n):
        n = int(n)
        same = float(_core.item(_core.scalar(a, res._dt))) == float(
            _core.item(_core.scalar(b, res._dt))
        )  # compared as the type's a, b
        if not (n > 1 or (n == 1 and same)):
            raise ValueError(f"{name}: invalid number of points {n}")
        _matrix.spaced(_into_count(res, n), a, b, log)
        return res

    return impl


# TH computes addcmul/addcdiv's `value * t1 op t2` in C's arithmetic:
# char, short and their unsigned kinds are promoted to int (so Byte's
# value * t1 does not wrap before the division), then stored back
_PROMOTED = {"uint8": "int32", "int8": "int32", "int16": "int32"}


def addc(name):
    """addcmul / addcdiv (name: "cmul" / "cdiv", whose core op is op):
    res = x + value * t1 op t2, as TH's
    `*r += value * *t1 op *t2`: (value * t1) first, then op t2, in the
    type's C arithmetic (so integer addcdiv truncates value * t1 / t2, and
    floats round as TH does)."""

    def impl(res, x, value, t1, t2):
        c1, c2 = operand(x, t1, "add" + name), operand(x, t2, "add" + name)
        out = into(res, _shape(x))
        if out is None:
            return res
        wide = _PROMOTED.get(x._dt)
        xc = x._c
        if wide is not None:
            xc, c1, c2 = (_core.astype(c, wide) for c in (xc, c1, c2))
        v = _core.scalar(value, x._dt)  # value as the type's `real`
        prod = _ops.binary("multiply", c1, v if wide is None else _core.astype(v, wide))
        _ops.binary(run_op(name, x._dt), prod, c2, out=prod)
        if wide is None:
            _ops.binary("add", xc, prod, out=out)
        else:
            _core.copy_(out, _ops.binary("add", xc, prod))  # back to the type, wrapping
        return res

    return impl


def lerp(res, a, b, weight):
    """res = a + weight * (b - a)."""
    cb = operand(a, b, "lerp")
    out = into(res, _shape(a))
    if out is not None:
        diff = _ops.binary("subtract", cb, a._c)
        _ops.binary("multiply", diff, _core.scalar(weight, a._dt), out=diff)
        _ops.binary("add", a._c, diff, out=out)
    return res


def lerp_number(a, b, weight):
    """torch.lerp(a, b, weight) of numbers: a number (TH_lerp, in double),
    computed by the core's kernels as a + weight * (b - a)."""
    ca, cb, cw = (_core.scalar(float(v), "float64") for v in (a, b, weight))
    diff = _ops.binary("subtract", cb, ca)
    return float(_core.item(_ops.binary("add", ca, _ops.binary("multiply", cw, diff))))


def tri(fn):
    def impl(res, x, k):
        out = into(res, _shape(x))
        if out is not None:
            fn(x._c, int(k), out=out)
        return res

    return impl


def diag(res, x, k):
    c, k = x._kcore(), int(k)
    return _write(res, _matrix.diag_shape(c, k), lambda out: _matrix.diag(c, k, out=out), x)


# ---------------------------------------------------------------- random fills


def draw(dist):
    """torch.uniform([gen,] a, b) and its kin: one number."""

    def impl(gen, *params):
        return _random.draw(dist, *map(float, params), generator=gen)

    return impl


def fill(name):
    """x:uniform([gen,] a, b) and its kin: x filled in place, Torch7's streams."""
    fn = getattr(_random, name + "_")

    def impl(res, gen, *params):
        c = res._kcore()
        if c.size:
            fn(c, *(p._kcore() if isinstance(p, Tensor) else p for p in params), generator=gen)
        return res

    return impl


def random_number(gen, *bounds):
    """torch.random([gen,] [a,] [b]): Lua's THRandom_random and its
    random1__/random2__ (a 32-bit draw reduced into the range)."""
    r = _random.random_bits(gen)
    if len(bounds) == 2:
        a, b = map(int, bounds)
        if b < a:
            raise ValueError("random: upper bound must be larger than lower bound")
        return r % (b + 1 - a) + a
    if len(bounds) == 1:
        b = int(bounds[0])
        if b <= 0:
            raise ValueError("random: upper bound must be strictly positive")
        return r % b + 1
    return r


def random_fill(res, gen, *bounds):
    """x:random([gen,] [a,] [b]): integers in [a, b] ([1, b]; or the type's range)."""
    c = res._kcore()
    if c.size:
        if len(bounds) == 1:
            bounds = (1, bounds[0])
        _random.random_(c, *(int(b) for b in bounds), generator=gen)
    return res


def randperm(res, gen, n):
    out = into(res, (int(n),))
    if out is None:
        return res
    if out.dtype.name in ("float64", "int64"):
        # TH's swaps straight into res (both hold n exactly), then + 1
        _random.randperm(int(n), generator=gen, out=out)
        _one_based(out, out)
        return res
    p = _random.randperm(int(n), generator=gen)
    _one_based(p, p)
    _core.copy_(out, p)
    return res


def multinomial(res, gen, probs, n, replacement):
    m = _random.multinomial(probs._kcore(), int(n), bool(replacement), generator=gen)
    _one_based(m, m)
    return _set_to(res, m)


def _alias_tensors(state, name):
    """J and q of an alias state, Lua's table {J, q}: a list [J, q]."""
    if (
        len(state) < 2
        or not isinstance(state[0], TENSOR_TYPES["torch.LongTensor"])
        or not (isinstance(state[1], Tensor) and _kind(state[1]) == "f")
    ):
        raise TypeError(
            f"{name}: state must be [J (a torch.LongTensor), q (a torch.FloatTensor "
            f"or torch.DoubleTensor)], as multinomialAliasSetup returns"
        )
    return state[0], state[1]


def alias_setup(probs, state):
    """torch.multinomialAliasSetup(probs [, state]): Walker's alias tables
    of the 1-D probs (which should sum to 1) as Lua's state table, a list
    [J, q]: J a LongTensor of 1-based alias categories, q a tensor of
    probs' type.  A given state's J and q are resized and written in place
    and the same list is returned (Lua's `state[1], state[2] = ...`)."""
    name = "multinomialAliasSetup"
    if state is None:
        state = []
    if len(state) < 2:
        state[len(state) :] = [TENSOR_TYPES["torch.LongTensor"](), type(probs)()][len(state) :]
    J, q = _alias_tensors(state, name)
    _same_type(probs, q, name)
    if probs.nDimension() != 1:
        raise ValueError(
            f"{name}: probs must be 1-D, got {probs.nDimension()}-D ({_sizes_str(probs)})"
        )
    jc, qc = _random.multinomial_alias_setup(probs._kcore())
    jout, qout = into(J, jc.shape), into(q, qc.shape)
    if jout is not None:
        _one_based(jc, jout)
        _core.copy_(qout, qc)
    return state


def alias_draw(output, state):
    """torch.multinomialAlias(output, state): output (a LongTensor, any
    shape, filled in row-major order) = 1-based categories drawn with the
    alias tables of multinomialAliasSetup, Torch7's two uniforms per draw;
    returns output."""
    J, q = _alias_tensors(state, "multinomialAlias")
    c = output._kcore()
    if c.size and J.nElement():
        lo, hi = J.min(), J.max()
        if lo < 1 or hi > J.nElement():
            raise IndexError(
                f"multinomialAlias: state's J holds {lo if lo < 1 else hi}, "
                f"outside [1, {J.nElement()}]"
            )
    if c.size:
        j0 = _ops.binary("subtract", J._kcore(), _core.scalar(1, "int64"))  # 0-based, K elements
        _random.multinomial_alias(j0, q._kcore(), c.shape, out=c)
        _one_based(c, c)
    return output


_FEW = 32768  # elements: below, zeros fills a new storage; above, takes fresh pages


def sized(name, fill, fresh=None):
    """zeros/ones/rand/randn: res resized to the sizes (numbers, or one
    LongStorage or list), then fill(res, *extra) with the slots between;
    fresh(res, sizes) instead when res has no storage yet (zeros: a new
    zeroed storage, no pass)."""

    def impl(res, *args):
        *extra, sizes = args
        # a few elements given as int sizes into a new res: made in C
        # (pyarray.c's t7_init), then filled
        if type(sizes) is list and _fast.t7_init(res, tuple(sizes), res._code, _FEW):
            return fill(res, *extra)
        sizes = _sizes_from(sizes if isinstance(sizes, list) else [sizes], name)
        if not sizes:
            return res.resize(0)
        if fresh is not None and not res._c.storage:
            return fresh(res, sizes)
        return fill(res.resize(*sizes), *extra)

    return impl


def sized_front(kind):
    """The front door of torch.zeros (kind 0), ones (1), rand (2) and randn
    (3): front(args) -> given int sizes only, the default type's new tensor
    made and filled in one C call (pyarray.c's t7_sized: the same tensor
    and, from the default generator, the same numbers); DECLINED otherwise.
    A partial of the C function: no Python frame of its own."""
    return functools.partial(_fast.t7_sized, kind, _random.default_generator._lock)


def _zeroed(res, sizes):
    """res, which has no storage, made a contiguous tensor of `sizes` over a
    new zeroed storage: fresh pages the kernel zeroes at first touch, so
    torch.zeros(n) and eye write no zero."""
    n = math.prod(sizes)
    res._c.set(_core.zeros_storage(n * _core.dtype(res._dt).itemsize), res._dt, 0, sizes, None)
    return res


def reshape(res, x, sizes):
    """TH's reshape: res resized to the sizes (numbers, or one LongStorage
    or list) and filled with x's elements in row-major order, a copy (the
    element counts checked before res is touched)."""
    sizes = _sizes_from(sizes if isinstance(sizes, list) else [sizes], "reshape")
    n = math.prod(sizes) if sizes else 0
    if n != x.nElement():
        raise ValueError(
            f"reshape: cannot reshape {_sizes_str(x)} ({x.nElement()} elements) "
            f"to {'x'.join(map(str, sizes)) or 'no dimension'} ({n} elements)"
        )
    if _shares(res, x):  # res is x (or a view of it): read x first
        x = x.clone()
    return res.resize(*sizes).copy(x) if sizes else res.resize()


ZEROS = sized("zeros", lambda res: res.zero(), fresh=_zeroed)
ONES = sized("ones", lambda res: res.fill(1))
RAND = sized("rand", lambda res, gen: fill("uniform")(res, gen, 0.0, 1.0))
RANDN = sized("randn", lambda res, gen: fill("normal")(res, gen, 0.0, 1.0))


# ---------------------------------------------------------------- construction


def range_(res, x, y, step):
    """TH's range: x, x+step, ... while within y, n = (long)((y-x)/step + 1)
    computed in accreal: double for float and double (truncated after the
    +1, as C), long for the integer types (the bounds truncated toward
    zero, as cwrap reads them, and integer division); the values
    x + i*step in accreal, stored in the tensor's type (integers wrap)."""
    integer = _kind(res) in "iu"
    if integer:
        x, y, step = int(x), int(y), int(step)
    if step == 0:
        raise ValueError("range: step must be nonzero")
    if not ((step > 0 and y >= x) or (step < 0 and y <= x)):
        raise ValueError(f"range: step {step} goes the wrong way from {x} to {y}")
    if integer:
        n = (y - x) // step + 1  # both of one sign: C's truncation is the floor
    else:
        n = int((float(y) - float(x)) / float(step) + 1)
    out = _into_count(res, n)
    if out is not None and integer:
        _ops.arange_int(out, x, step)
    elif out is not None:
        # TH counts i in the tensor's type: a float's stops at 2^24
        _ops.linear(out, float(x), float(step), counter32=_core.dtype(res._dt).name == "float32")
    return res


def cat(res, tensors, dim):
    """The concatenation along dim, as TH's catArray: dim -1 (the default)
    is the last dimension of the input with the most; dim may be one past
    an input's last (its size there counts as 1); empty inputs are
    skipped, and sizes elsewhere must agree where both are nonzero.  One
    C copy per input, straight into res (left as it is when every input
    is empty)."""
    if not tensors:
        raise ValueError("cat: no tensors given")
    for t in tensors:
        _same_type(res, t, "cat")
    dim = -1 if dim is None else _index(dim, "cat: dim")
    ndims = [t._c.ndim for t in tensors]
    max_dim = max([dim if dim != -1 else 0] + ndims)
    d = (max_dim - 1 if max_dim else 0) if dim == -1 else dim - 1
    if d < 0:
        raise IndexError(f"cat: invalid dimension {dim}")

    def size(t, i):
        c = t._c
        return c.shape[i] if i < c.ndim else min(c.ndim, 1)

    shape = []
    for i in range(max_dim):
        n = size(tensors[0], i)
        for t in tensors[1:]:
            k = size(t, i)
            if i == d:
                n += k
            elif n and k and n != k:
                raise ValueError(
                    f"cat: inconsistent tensor sizes: "
                    f"{' and '.join(_sizes_str(x) for x in tensors)} along "
                    f"dimension {i + 1}"
                )
            elif not n:
                n = k
        shape.append(n)
    if not any(shape):
        return res
    if any(_shares(res, t) for t in tensors):  # res is also an input: assemble apart
        tmp = cat(type(res)(), tensors, dim)
        return res.resizeAs(tmp).copy(tmp)
    out = into(res, shape)
    pos = 0
    for t in tensors:
        if t._c.ndim:
            k = size(t, d)
            if k and out is not None:
                part = _views.narrow(out, d, pos, k)
                _core.copy_(part, _as_shape(t._c, part.shape))
            pos += k
    return res


def cat_pair(res, a, b, dim):
    return cat(res, [a, b], dim)


def nonzero(res, x):
    return res.set(TENSOR_TYPES["torch.LongTensor"]._wrap(_indexing.nonzero(x._kcore(), _BASE1)))

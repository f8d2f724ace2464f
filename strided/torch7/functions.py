"""The torch.* functions of the Torch7 face and the math methods of the
tensor classes (attached to them here): module-level forms of the
methods, constructors (zeros, ones, rand, randn, range), comparisons
returning ByteTensor masks, sum/mul/floor/add/cmul/div/max/min/mean,
operators, and FFI access (data, cdata).

Torch7 conventions: a method without a source argument works in place
(`x:add(1)` changes x); a leading result argument receives the answer
(`torch.add(res, x, y)`, `res:add(x, y)`); a function without one returns
a new tensor.  Whole-tensor reductions return Python numbers; reductions
along a dimension keep it with size 1; max/min along a dimension return
(values, 1-based indices)."""
from __future__ import annotations

import builtins as _builtins
import math

from ..core.base import ffi, lib
from ..core import base as _core, indexing as _indexing, linalg as _linalg, ops as _ops, views as _views
from ..core import rng as _random
from ..core.base import Core
from .tensor import (ByteTensor, LongTensor, Tensor, _as_shape, _is_number, _sizes_from,
                      default_tensor_class, isTensor)

__all__ = []


def _export(f):
    __all__.append(f.__name__)
    return f


# ---------------------------------------------------------------- core helpers


def _operand(a, b, name):
    """Core of b (a number or a tensor of a's type and element count) in a's shape."""
    if isinstance(b, Tensor):
        if b._dt != a._dt:
            raise TypeError(f"{name}: operands are {a._typename} and {b._typename}; convert "
                            f"one with type()")
        if b.nElement() != a.nElement():
            raise ValueError(f"{name}: operands have {a.nElement()} and {b.nElement()} elements")
        return _as_shape(b._kcore(), a._kcore().shape)
    if _is_number(b):
        return _core.scalar(b, a._dt)
    raise TypeError(f"{name}: expected a number or a tensor, got {_builtins.type(b).__name__}")


_INT_OPS = {"divide": "trunc_divide"}


def _binary(op, a, b, name):
    """New Core: op(a, b) with a's type."""
    if _core.dtype(a._dt).kind in "iu":
        op = _INT_OPS.get(op, op)
    return _ops.binary(op, a._kcore(), _operand(a, b, name))


def _into(res, c):
    """Store Core c into tensor res (resized to c's shape), return res."""
    if not isinstance(res, Tensor):
        raise TypeError(f"result must be a tensor, got {_builtins.type(res).__name__}")
    res.resize(*c.shape) if c.ndim else res.resize(0)
    if c.size:
        _core.copy_(res._c, c)
    return res


def _inplace(t, c):
    if c.size:
        _core.copy_(t._kcore(), c)
    return t


def _number(c, dt):
    v = _core.item(c)
    if isinstance(v, bool):
        return int(v)
    return float(v) if _core.dtype(dt).kind == "f" else int(v)


# ---------------------------------------------------------------- elementwise methods


def _make_binary_method(op, name):
    def method(self, *args):
        # x:op(value|y) in place; res:op(x, value|y) into res
        if len(args) == 1:
            return _inplace(self, _binary(op, self, args[0], name))
        if len(args) == 2 and isinstance(args[0], Tensor):
            return _into(self, _binary(op, args[0], args[1], name))
        raise TypeError(f"{name}: expected ({name}(value|tensor) or res:{name}(tensor, "
                        f"value|tensor)), got {len(args)} arguments")
    method.__name__ = name
    return method


def _add_method(self, *args):
    """x:add(value), x:add(y), x:add(value, y) (x += value*y), res:add(x, y),
    res:add(x, value), res:add(x, value, y)."""
    if len(args) == 1:
        return _inplace(self, _binary("add", self, args[0], "add"))
    if len(args) == 2 and _is_number(args[0]) and isinstance(args[1], Tensor):
        scaled = _ops.binary("multiply", _operand(self, args[1], "add"),
                             _core.scalar(args[0], self._dt))
        return _inplace(self, _ops.binary("add", self._kcore(), scaled))
    if len(args) == 2 and isinstance(args[0], Tensor):
        return _into(self, _binary("add", args[0], args[1], "add"))
    if len(args) == 3 and isinstance(args[0], Tensor) and _is_number(args[1]):
        x = args[0]
        scaled = _ops.binary("multiply", _operand(x, args[2], "add"), _core.scalar(args[1], x._dt))
        return _into(self, _ops.binary("add", x._kcore(), scaled))
    raise TypeError("add: expected add(value|y), add(value, y), res:add(x, value|y) or "
                    "res:add(x, value, y)")


def _make_unary_method(op, name):
    def method(self, *args):
        if not args:
            if _core.dtype(self._dt).kind in "iu" and op in ("floor", "ceil", "trunc", "round"):
                return self
            return _inplace(self, _ops.unary(op, self._kcore()))
        if len(args) == 1 and isinstance(args[0], Tensor):
            x = args[0]
            if _core.dtype(x._dt).kind in "iu" and op in ("floor", "ceil", "trunc", "round"):
                return _into(self, x._kcore())
            return _into(self, _ops.unary(op, x._kcore()))
        raise TypeError(f"{name}: expected x:{name}() or res:{name}(x)")
    method.__name__ = name
    return method


_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
            "eq": "equal", "ne": "not_equal"}


def _compare_core(a, b, name):
    return _core.astype(_ops.binary(_COMPARE[name], a._kcore(), _operand(a, b, name)), "uint8")


def _make_compare_method(name):
    def method(self, *args):
        # a:lt(b) -> new ByteTensor; res:lt(a, b) -> into res
        if len(args) == 1:
            return ByteTensor._wrap(_compare_core(self, args[0], name))
        if len(args) == 2 and isinstance(args[0], Tensor):
            return _into(self, _compare_core(args[0], args[1], name))
        raise TypeError(f"{name}: expected a:{name}(b) or res:{name}(a, b)")
    method.__name__ = name
    return method


# ---------------------------------------------------------------- reductions


def _reduce_dim(self, op, dim):
    d = self._dim(dim)
    c = self._kcore()
    if op == "mean":
        if _core.dtype(self._dt).kind == "f":
            return _ops.mean(c, d, keepdims=True)
        s = _ops.mean(_core.astype(c, "float64"), d, keepdims=True)
        return _core.astype(s, self._dt)
    r = _ops.reduce(op, c, d, keepdims=True)
    return r if r.dtype.name == _core.dtype(self._dt).name else _core.astype(r, self._dt)


def _sum_method(self, *args):
    """x:sum() -> number; x:sum(dim) -> tensor (dim kept, size 1); res:sum(x, dim)."""
    if args and isinstance(args[0], Tensor):
        return _into(self, _reduce_dim(args[0], "sum", args[1]))
    if not args or args[0] is None:
        if self.nElement() == 0:
            return 0 if _core.dtype(self._dt).kind in "iu" else 0.0
        return _number(_ops.reduce("sum", self._kcore()), self._dt)
    return self._new(_reduce_dim(self, "sum", args[0]))


def _mean_method(self, *args):
    if args and isinstance(args[0], Tensor):
        return _into(self, _reduce_dim(args[0], "mean", args[1]))
    if not args or args[0] is None:
        n = self.nElement()
        if n == 0:
            return math.nan
        return float(_core.item(_ops.reduce("sum", _core.astype(self._kcore(), "float64")))) / n
    return self._new(_reduce_dim(self, "mean", args[0]))


def _make_extreme(is_max):
    name = "max" if is_max else "min"

    def method(self, *args):
        """x:max() -> number; x:max(dim) -> values, indices (1-based, dim kept);
        resv:max(resi, x, dim) into the given tensors."""
        if len(args) >= 2 and isinstance(args[0], Tensor) and isinstance(args[1], Tensor):
            v, i = method(args[1], *args[2:])
            return _into(self, v._c), _into(args[0], i._c)
        if not args or args[0] is None:
            if self.nElement() == 0:
                raise ValueError(f"{name}: the tensor is empty")
            return _number(_ops.reduce(name, self._kcore()), self._dt)
        if isinstance(args[0], Tensor):       # torch.max(a, b): elementwise
            return self._new(_binary("maximum" if is_max else "minimum", self, args[0], name))
        d = self._dim(args[0])
        c = self._kcore()
        if c.shape[d] == 0:
            raise ValueError(f"{name}: dimension {args[0]} is empty")
        values = _ops.reduce(name, c, d, keepdims=True)
        idx = _ops.argreduce(is_max, c, d, keepdims=True)
        idx = _ops.binary("add", idx, _core.scalar(1, "int64"), out=idx)
        return self._new(values), LongTensor._wrap(idx)
    method.__name__ = name
    return method


# ---------------------------------------------------------------- operators


def _sizes_str(t):
    return "x".join(_builtins.map(str, t._c.shape)) or "0"


def _matmul(name, a, b, dims_a, dims_b, what_a="first argument", what_b="second argument"):
    """Core of the product a @ b (one type; a with dims_a dims, b with dims_b)."""
    for t, what, dims in ((a, what_a, dims_a), (b, what_b, dims_b)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}: {what} must be a tensor, got {_builtins.type(t).__name__}")
        if t.nDimension() != dims:
            raise ValueError(f"{name}: {what} must be a {dims}-D tensor, got "
                             f"{t.nDimension()}-D ({_sizes_str(t)})")
    if a._dt != b._dt:
        raise TypeError(f"{name}: operands are {a._typename} and {b._typename}; convert one "
                        f"with type()")
    ca, cb = a._kcore(), b._kcore()
    if dims_a == dims_b == 3 and ca.shape[0] != cb.shape[0]:
        raise ValueError(f"{name}: batch sizes differ: {_sizes_str(a)} and {_sizes_str(b)}")
    if ca.shape[-1] != cb.shape[-2 if dims_b > 1 else 0]:
        raise ValueError(f"{name}: size mismatch, {_sizes_str(a)} and {_sizes_str(b)}")
    return _ops.matmul(ca, cb)


def _make_matmul_method(name, dims_a, dims_b):
    def method(self, *args):
        # res:mm(m1, m2): the product into res (resized)
        if len(args) != 2:
            raise TypeError(f"{name}: expected res:{name}(a, b) or torch.{name}([res,] a, b), got "
                            f"{len(args)} arguments")
        return _into(self, _matmul(name, args[0], args[1], dims_a, dims_b))
    method.__name__ = name
    return method


def _mul_tensors(a, b):
    """Torch7's `*` between tensors: vector*vector is dot (a number),
    matrix*vector the matrix-vector product, matrix*matrix the matrix product."""
    da, db = a.nDimension(), b.nDimension()
    if da == 1 and db == 1:
        return a.dot(b)
    if da == 2 and db in (1, 2):
        return a._new(_matmul("*", a, b, 2, db, "left operand", "right operand"))
    raise ValueError(f"*: multiplication between {da}D and {db}D tensors is not supported "
                     f"(Torch7: vector*vector, matrix*vector, matrix*matrix); use cmul for the "
                     f"elementwise product")


# ---------------------------------------------------------------- BLAS forms
# addmm, addmv, addr, addbmm, baddbmm: res = v1 * M + v2 * (a b), one
# st_addmm call (BLAS ?gemm with beta for float and double, our kernel for
# integers).  Dims of (M, a, b) per function:
_ADD_FORMS = {"addmm": (2, 2, 2), "addmv": (1, 2, 1), "addr": (2, 1, 1),
              "addbmm": (2, 3, 3), "baddbmm": (3, 3, 3)}


def _add_args(name, args, self=None):
    """Torch7's ([res,] [v1,] M, [v2,] a, b) -> (res, v1, M, v2, a, b).
    Function form (self None): a leading fourth tensor is res, else res is
    None (a new tensor).  Method form self:f(...): with three tensors res is
    self; with two, M is self too (`M:addmm([v1,] [v2,] a, b)`, where a lone
    number is v2, as in TH's wrapper).  A number before M is v1, one
    between M and a is v2; both default to 1."""
    usage = (f"{name}: expected torch.{name}([res,] [v1,] M, [v2,] a, b), "
             f"res:{name}([v1,] M, [v2,] a, b) or M:{name}([v1,] [v2,] a, b)")
    for x in args:
        if not (isinstance(x, Tensor) or _is_number(x)):
            raise TypeError(f"{usage}; got a {_builtins.type(x).__name__}")
    tensors = [i for i, x in enumerate(args) if isinstance(x, Tensor)]
    numbers = [i for i, x in enumerate(args) if _is_number(x)]
    if len(tensors) < 2 or tensors[-2:] != [len(args) - 2, len(args) - 1]:
        raise TypeError(usage)
    a, b = args[-2], args[-1]
    if self is not None and len(tensors) == 2:
        if len(numbers) > 2:
            raise TypeError(usage)
        v = [args[i] for i in numbers]
        v1, v2 = (v[0], v[1]) if len(v) == 2 else (1, v[0] if v else 1)
        return self, v1, self, v2, a, b
    res = self
    if self is None and len(tensors) == 4:
        if tensors[0] != 0:
            raise TypeError(usage)
        res, tensors = args[0], tensors[1:]
    if len(tensors) != 3:
        raise TypeError(usage)
    im = tensors[0]
    before = [i for i in numbers if i < im]
    between = [i for i in numbers if im < i < tensors[1]]
    if len(before) > 1 or len(between) > 1 or len(before) + len(between) != len(numbers):
        raise TypeError(usage)
    v1 = args[before[0]] if before else 1
    v2 = args[between[0]] if between else 1
    return res, v1, args[im], v2, a, b


def _add_product(name, res, v1, m, v2, a, b):
    dm, da, db = _ADD_FORMS[name]
    for t, what, dims in ((m, "M", dm), (a, "first factor", da), (b, "second factor", db)):
        if t.nDimension() != dims:
            raise ValueError(f"{name}: {what} must be a {dims}-D tensor, got "
                             f"{t.nDimension()}-D ({_sizes_str(t)})")
        if t._dt != m._dt:
            raise TypeError(f"{name}: operands are {m._typename} and {t._typename}; convert "
                            f"one with type()")
    ca, cb = a._kcore(), b._kcore()
    if name == "addmv":
        cb = _views.unsqueeze(cb, 1)
    elif name == "addr":
        ca, cb = _views.unsqueeze(ca, 1), _views.unsqueeze(cb, 0)
    elif ca.shape[0] != cb.shape[0] and da == 3:
        raise ValueError(f"{name}: batch sizes differ: {_sizes_str(a)} and {_sizes_str(b)}")
    if ca.shape[-1] != cb.shape[-2]:
        raise ValueError(f"{name}: size mismatch, {_sizes_str(a)} and {_sizes_str(b)}")
    if name == "addbmm":        # sum_i a_i b_i = [a_1 ... a_B] [b_1; ...; b_B]: one product
        nb, n, k = ca.shape
        ca = _views.permute(ca, (1, 0, 2))
        ca = _views.view_as_shape(ca, (n, nb * k)) or \
            _views.view_as_shape(_core.contiguous(ca), (n, nb * k))
        cb = _views.view_as_shape(cb, (nb * k, cb.shape[2])) or \
            _views.view_as_shape(_core.contiguous(cb), (nb * k, cb.shape[2]))
    want = ca.shape[:-1] + cb.shape[-1:] if name != "addmv" else ca.shape[:1]
    if m._c.shape != want:
        raise ValueError(f"{name}: M has size {_sizes_str(m)}, expected "
                         f"{'x'.join(_builtins.map(str, want))}")
    if res is m:                # in place: beta * M + alpha * a b
        out = m._c
    else:
        out = Core.empty(m._c.shape, m._dt)
        _core.copy_(out, m._c)
    _linalg.addmm(_views.unsqueeze(out, 1) if name == "addmv" else out, ca, cb, v2, v1)
    if res is None:
        return m._new(out)
    return res if res is m else _into(res, out)


def _make_add_method(name):
    def method(self, *args):
        return _add_product(name, *_add_args(name, args, self))
    method.__name__ = name
    method.__doc__ = (f"res:{name}([v1,] M, [v2,] a, b): res = v1 * M + v2 * (a b); "
                      f"M:{name}([v1,] [v2,] a, b) in place.")
    return method


def _ger_method(self, *args):
    """res:ger(vec1, vec2): the outer product into res (resized)."""
    if len(args) != 2:
        raise TypeError(f"ger: expected res:ger(vec1, vec2) or torch.ger([res,] vec1, vec2), got "
                        f"{len(args)} arguments")
    x, y = args
    for t, what in ((x, "first argument"), (y, "second argument")):
        if not isinstance(t, Tensor):
            raise TypeError(f"ger: {what} must be a tensor, got {_builtins.type(t).__name__}")
        if t.nDimension() != 1:
            raise ValueError(f"ger: {what} must be a 1-D tensor, got {t.nDimension()}-D "
                             f"({_sizes_str(t)})")
    if x._dt != y._dt:
        raise TypeError(f"ger: operands are {x._typename} and {y._typename}; convert one with "
                        f"type()")
    return _into(self, _ops.matmul(_views.unsqueeze(x._kcore(), 1),
                                   _views.unsqueeze(y._kcore(), 0)))


def _op(op, name, reflected=False):
    """An elementwise operator: tensor op (tensor of the same type and
    element count | number); reflected: number op tensor."""
    def f(self, other):
        if not (isinstance(other, Tensor) or _is_number(other)):
            return NotImplemented
        if reflected:
            o = _INT_OPS.get(op, op) if _core.dtype(self._dt).kind in "iu" else op
            left = _core.full(self._kcore().shape, other, self._dt)
            return self._new(_ops.binary(o, left, self._kcore()))
        return self._new(_binary(op, self, other, name))
    return f


def _mul(self, other):
    if isinstance(other, Tensor):
        return _mul_tensors(self, other)
    if not _is_number(other):
        return NotImplemented
    return self._new(_binary("multiply", self, other, "*"))


def _neg(self):
    return self._new(_ops.unary("negative", self._kcore()))


# ---------------------------------------------------------------- other methods


def _bernoulli(self, p=0.5):
    u = Core.empty(self._kcore().shape, "float64")
    _random.uniform_(u)
    m = _ops.binary("less", u, _core.scalar(float(p), "float64"))
    return _inplace(self, _core.astype(m, self._dt))


def _uniform(self, a=0.0, b=1.0):
    u = Core.empty(self._kcore().shape, "float64")
    _random.uniform_(u, a, b)
    return _inplace(self, u)


def _normal(self, mean=0.0, std=1.0):
    u = Core.empty(self._kcore().shape, "float64")
    _random.normal_(u, mean, std)
    return _inplace(self, u)


def _sort_method(self, *args):
    """x:sort([dim][, descending]) -> values, indices (1-based);
    resv:sort(resi, x[, dim][, descending]) into the given tensors.
    dim defaults to the last dimension, as in Torch7."""
    if len(args) >= 2 and isinstance(args[0], Tensor) and isinstance(args[1], Tensor):
        v, i = _sort_method(args[1], *args[2:])
        return _into(self, v._c), _into(args[0], i._c)
    dim = args[0] if args and not isinstance(args[0], bool) else None
    descending = bool(args[-1]) if args and isinstance(args[-1], bool) else False
    c = self._kcore()
    d = self._dim(dim) if dim is not None else _builtins.max(c.ndim - 1, 0)
    values = _indexing.sort(c, d, descending)
    idx = _indexing.argsort(c, d, descending, flags=lib.ST_IDX_BASE1)
    return self._new(values), LongTensor._wrap(idx)


_UNARY = {n: n for n in ["abs", "sqrt", "exp", "log", "log1p", "sin", "cos", "tan", "asin",
                         "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceil", "round",
                         "trunc", "sign", "sigmoid", "rsqrt", "frac"]}
_UNARY["neg"] = "negative"
_UNARY["cinv"] = "reciprocal"


def _clamp_method(self, *args):
    """x:clamp(min, max) in place; res:clamp(x, min, max)."""
    if len(args) == 3 and isinstance(args[0], Tensor):
        x, lo, hi = args
        return _into(self, _ops.clamp(x._kcore(), _core.scalar(lo, x._dt), _core.scalar(hi, x._dt)))
    lo, hi = args
    return _inplace(self, _ops.clamp(self._kcore(), _core.scalar(lo, self._dt),
                                     _core.scalar(hi, self._dt)))


def _prod_method(self, *args):
    """x:prod() -> number; x:prod(dim) -> tensor (dim kept); res:prod(x, dim)."""
    if args and isinstance(args[0], Tensor):
        return _into(self, _reduce_dim(args[0], "prod", args[1]))
    if not args or args[0] is None:
        if self.nElement() == 0:
            return 1 if _core.dtype(self._dt).kind in "iu" else 1.0
        return _number(_ops.reduce("prod", self._kcore()), self._dt)
    return self._new(_reduce_dim(self, "prod", args[0]))


def _make_cumulative(is_prod):
    name = "cumprod" if is_prod else "cumsum"

    def method(self, *args):
        """x:cumsum([dim]) -> new tensor (Torch7's default: dimension 1);
        res:cumsum(x[, dim])."""
        if args and isinstance(args[0], Tensor):
            x = args[0]
            d = x._dim(args[1] if len(args) > 1 else 1)
            return _into(self, _core.astype(_ops.cumulative(is_prod, x._kcore(), d), x._dt))
        d = self._dim(args[0] if args else 1)
        return self._new(_core.astype(_ops.cumulative(is_prod, self._kcore(), d), self._dt))
    method.__name__ = name
    return method


def _make_var(is_std):
    name = "std" if is_std else "var"

    def method(self, *args):
        """x:var() -> number; x:var(dim[, flag]) -> tensor (dim kept);
        normalised by n-1, or by n when flag is true (Torch7)."""
        if args and isinstance(args[0], Tensor):
            return _into(self, method(args[0], *args[1:])._c)
        c = _core.astype(self._kcore(), "float64") \
            if _core.dtype(self._dt).kind in "iu" else self._kcore()
        flag = bool(args[1]) if len(args) > 1 else False
        correction = 0.0 if flag else 1.0
        f = _ops.std if is_std else _ops.var
        if not args or args[0] is None:
            return float(_core.item(f(c, None, correction)))
        d = self._dim(args[0])
        r = f(c, d, correction, keepdims=True)
        return self._new(r if r.dtype.name == _core.dtype(self._dt).name
                         else _core.astype(r, self._dt))
    method.__name__ = name
    return method


def _flat(c):
    """c as a 1-D Core: a view when the layout allows, else a contiguous copy."""
    return _views.view_as_shape(c, (c.size,)) or _views.view_as_shape(_core.contiguous(c),
                                                                      (c.size,))


def _dot_method(self, other):
    """x:dot(y): the sum of the elementwise products of two tensors of one
    type and element count, both seen as vectors: the product of a 1 x n and
    an n x 1 matrix (BLAS for float and double; integers wrap in their type,
    as TH's dot did on contiguous tensors)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"dot: expected a tensor, got {_builtins.type(other).__name__}")
    _operand(self, other, "dot")           # one type, one element count
    if self.nElement() == 0:
        return 0.0 if _core.dtype(self._dt).kind == "f" else 0
    row = _views.unsqueeze(_flat(self._kcore()), 0)
    col = _views.unsqueeze(_flat(other._kcore()), 1)
    return _number(_ops.matmul(row, col), self._dt)


def _attach():
    T = Tensor
    T.sort = _sort_method
    T.add = _add_method
    T.mul = _make_binary_method("multiply", "mul")
    T.cmul = _make_binary_method("multiply", "cmul")
    T.div = _make_binary_method("divide", "div")
    T.cdiv = _make_binary_method("divide", "cdiv")
    T.csub = _make_binary_method("subtract", "csub")
    for lua, op in _UNARY.items():
        setattr(T, lua, _make_unary_method(op, lua))
    T.pow = _make_binary_method("pow", "pow")
    T.cpow = _make_binary_method("pow", "cpow")
    T.fmod = _make_binary_method("fmod", "fmod")
    T.remainder = _make_binary_method("remainder", "remainder")
    T.cmax = _make_binary_method("maximum", "cmax")
    T.cmin = _make_binary_method("minimum", "cmin")
    T.atan2 = _make_binary_method("atan2", "atan2")
    T.clamp = _clamp_method
    T.prod = _prod_method
    T.cumsum = _make_cumulative(False)
    T.cumprod = _make_cumulative(True)
    T.var = _make_var(False)
    T.std = _make_var(True)
    T.dot = _dot_method
    T.mm = _make_matmul_method("mm", 2, 2)
    T.mv = _make_matmul_method("mv", 2, 1)
    T.bmm = _make_matmul_method("bmm", 3, 3)
    for n in _ADD_FORMS:
        setattr(T, n, _make_add_method(n))
    T.ger = _ger_method
    T.all = lambda self: bool(_ops.count_nonzero(self._kcore()) == self.nElement())
    T.any = lambda self: bool(_ops.count_nonzero(self._kcore()))
    for n in _COMPARE:
        setattr(T, n, _make_compare_method(n))
    T.sum = _sum_method
    T.mean = _mean_method
    T.max = _make_extreme(True)
    T.min = _make_extreme(False)
    T.bernoulli = _bernoulli
    T.uniform = _uniform
    T.normal = _normal
    T.__add__ = _op("add", "+")
    T.__radd__ = _op("add", "+")
    T.__sub__ = _op("subtract", "-")
    T.__rsub__ = _op("subtract", "-", reflected=True)
    T.__mul__ = _mul
    T.__rmul__ = lambda self, other: _mul(self, other)
    T.__truediv__ = _op("divide", "/")
    T.__rtruediv__ = _op("divide", "/", reflected=True)
    T.__neg__ = _neg


_attach()


# ---------------------------------------------------------------- module-level forms


def _method_form(name):
    def f(t, *args):
        if not isTensor(t):
            raise TypeError(f"{name}: expected a tensor first, got {_builtins.type(t).__name__}")
        return getattr(t, name)(*args)
    f.__name__ = name
    f.__doc__ = f"torch.{name}(tensor, ...): the function form of tensor:{name}(...)."
    return f


for _n in ["narrow", "select", "sub", "transpose", "t", "permute", "unfold", "squeeze",
           "unsqueeze", "expand", "expandAs", "repeatTensor", "view", "viewAs", "index",
           "indexCopy", "indexAdd", "indexFill", "gather", "scatter", "maskedSelect",
           "maskedCopy", "maskedFill", "clone", "contiguous", "fill", "zero", "copy",
           "resize", "resizeAs", "apply", "map", "map2", "typeAs", "size", "stride",
           "nElement", "nDimension", "dim", "isContiguous", "storage", "storageOffset",
           "isSameSizeAs", "isSize", "isSetTo", "retain", "free", "numel"]:
    globals()[_n] = _method_form(_n)
    __all__.append(_n)


@_export
def totable(obj):
    return obj.totable()


@_export
def type(obj, typename=None):   # noqa: A001 (Torch7's name)
    if isTensor(obj):
        return obj.type(typename)
    if hasattr(obj, "_typename"):
        return obj._typename
    return _builtins.type(obj).__name__


@_export
def typename(obj):
    return getattr(obj, "_typename", None)


@_export
def nonzero(*args):
    """nonzero(x) or nonzero(res, x): [count, ndim] LongTensor of 1-based subscripts."""
    if len(args) == 2:
        res, x = args
        return res.set(x.nonzero()) if isinstance(res, LongTensor) else _bad("nonzero", res)
    (x,) = args
    return x.nonzero()


def _bad(name, res):
    raise TypeError(f"{name}: the result must be a torch.LongTensor, got "
                    f"{getattr(res, '_typename', _builtins.type(res).__name__)}")


@_export
def split(*args):
    """split([result,] tensor, size[, dim])."""
    if args and isinstance(args[0], list):
        return args[1].split(args[0], *args[2:])
    return args[0].split(*args[1:])


@_export
def chunk(*args):
    if args and isinstance(args[0], list):
        return args[1].chunk(args[0], *args[2:])
    return args[0].chunk(*args[1:])


def _math_function(name, arity):
    """torch.f([res,] x, ...): res given -> res:f(x, ...); else a new tensor."""
    def f(*args):
        if len(args) > arity and isTensor(args[0]) and isTensor(args[1]):
            return getattr(args[0], name)(*args[1:])
        x = args[0]
        if not isTensor(x):
            raise TypeError(f"{name}: expected a tensor, got {_builtins.type(x).__name__}")
        if name in _COMPARE:
            return getattr(x, name)(*args[1:])
        return getattr(x.new(), name)(*args)
    f.__name__ = name
    return f


def _new(self):
    return _builtins.type(self)()


Tensor.new = _new

for _n, _a in ([("mul", 2), ("cmul", 2), ("div", 2), ("cdiv", 2), ("csub", 2), ("pow", 2),
                ("cpow", 2), ("fmod", 2), ("remainder", 2), ("cmax", 2), ("cmin", 2),
                ("atan2", 2), ("clamp", 3), ("lt", 2), ("le", 2), ("gt", 2), ("ge", 2),
                ("eq", 2), ("ne", 2)] + [(u, 1) for u in _UNARY]):
    globals()[_n] = _math_function(_n, _a)
    __all__.append(_n)


@_export
def add(*args):
    """add([res,] x, value|y) or add([res,] x, value, y)."""
    if len(args) >= 3 and isTensor(args[0]) and isTensor(args[1]):
        return args[0].add(*args[1:])
    x = args[0]
    return x.new().add(x, *args[1:])


@_export
def sum(*args):  # noqa: A001
    if len(args) >= 3 and isTensor(args[0]) and isTensor(args[1]):
        return args[0].sum(*args[1:])
    return args[0].sum(*args[1:])


@_export
def mean(*args):
    if len(args) >= 3 and isTensor(args[0]) and isTensor(args[1]):
        return args[0].mean(*args[1:])
    return args[0].mean(*args[1:])


@_export
def max(*args):  # noqa: A001
    """max(x) -> number; max(x, dim) -> values, indices; max(resv, resi, x, dim)."""
    return args[0].max(*args[1:])


@_export
def min(*args):  # noqa: A001
    return args[0].min(*args[1:])


def _reduction_function(name):
    def f(*args):
        """torch.f([res,] x[, dim, ...]): the function form of x:f(...)."""
        if len(args) >= 2 and isTensor(args[0]) and isTensor(args[1]):
            return args[0].__getattribute__(name)(*args[1:])
        return args[0].__getattribute__(name)(*args[1:])
    f.__name__ = name
    return f


for _n in ["prod", "cumsum", "cumprod", "var", "std", "dot", "all", "any"]:
    globals()[_n] = _reduction_function(_n)
    __all__.append(_n)


def _matmul_function(name):
    def f(*args):
        """torch.f([res,] a, b): the product into res, or a new tensor of a's type."""
        if len(args) == 3:
            if not isTensor(args[0]):
                raise TypeError(f"{name}: the result must be a tensor, got "
                                f"{_builtins.type(args[0]).__name__}")
            return getattr(args[0], name)(args[1], args[2])
        if len(args) != 2:
            raise TypeError(f"{name}: expected torch.{name}([res,] a, b), got {len(args)} "
                            f"arguments")
        a = args[0]
        if not isTensor(a):
            raise TypeError(f"{name}: expected a tensor, got {_builtins.type(a).__name__}")
        return getattr(a.new(), name)(*args)
    f.__name__ = name
    return f


for _n in ["mm", "mv", "bmm", "ger"]:
    globals()[_n] = _matmul_function(_n)
    __all__.append(_n)


def _add_function(name):
    def f(*args):
        """torch.f([res,] [v1,] M, [v2,] a, b): res = v1 * M + v2 * (a b), into
        res or a new tensor of M's type."""
        return _add_product(name, *_add_args(name, args))
    f.__name__ = name
    return f


for _n in _ADD_FORMS:
    globals()[_n] = _add_function(_n)
    __all__.append(_n)


@_export
def sort(*args):
    """sort([resv, resi,] x[, dim][, descending]) -> values, 1-based indices."""
    return args[0].sort(*args[1:])


# ---------------------------------------------------------------- constructors


def _result_and_sizes(args, name):
    if args and isTensor(args[0]):
        return args[0], _sizes_from(args[1:], name)
    return default_tensor_class()(), _sizes_from(args, name)


@_export
def zeros(*args):
    """zeros([res,] sz1, sz2, ...|sizes)."""
    res, sizes = _result_and_sizes(args, "zeros")
    return res.resize(*sizes).zero() if sizes else res.resize(0)


@_export
def ones(*args):
    res, sizes = _result_and_sizes(args, "ones")
    return res.resize(*sizes).fill(1) if sizes else res.resize(0)


@_export
def rand(*args):
    """rand([res,] sizes): uniform on [0, 1)."""
    res, sizes = _result_and_sizes(args, "rand")
    return res.resize(*sizes).uniform(0.0, 1.0)


@_export
def randn(*args):
    res, sizes = _result_and_sizes(args, "randn")
    return res.resize(*sizes).normal(0.0, 1.0)


@_export
def manualSeed(seed):
    return _random.manual_seed(seed)


@_export
def seed():
    """Seed the generator from the system's entropy; returns the seed."""
    return _random.seed()


@_export
def initialSeed():
    return _random.initial_seed()


@_export
def getRNGState():
    """The generator state (bytes), for setRNGState."""
    return _random.get_state()


@_export
def setRNGState(state):
    _random.set_state(state)


@_export
def range(*args):  # noqa: A001
    """range([res,] x, y[, step]): x, x+step, ..., up to y inclusive; the
    length is computed in double precision."""
    res = None
    if args and isTensor(args[0]):
        res, args = args[0], args[1:]
    if not 2 <= len(args) <= 3:
        raise TypeError("range: expected range([res,] x, y[, step])")
    x, y = args[0], args[1]
    step = args[2] if len(args) == 3 else 1
    for nm, v in (("x", x), ("y", y), ("step", step)):
        if not _is_number(v):
            raise TypeError(f"range: {nm} must be a number, got {v!r}")
    if step == 0:
        raise ValueError("range: step must be nonzero")
    if (y - x) / step < 0:
        raise ValueError(f"range: step {step} goes the wrong way from {x} to {y}")
    n = int(math.floor((float(y) - float(x)) / float(step))) + 1
    if res is None:
        res = default_tensor_class()()
    res.resize(n)
    if n == 0:
        return res
    # positions 0..n-1 exactly, by a running sum of ones in C (int64)
    ones_ = _core.full((n,), 1, "int64")
    k = _ops.binary("subtract", _ops.cumulative(False, ones_, 0), _core.scalar(1, "int64"))
    if _builtins.all(isinstance(v, int) for v in (x, step)) and _core.dtype(res._dt).kind in "iu":
        vals = _ops.binary("add", _ops.binary("multiply", k, _core.scalar(step, "int64")),
                           _core.scalar(x, "int64"))
    else:
        kf = _core.astype(k, "float64")
        vals = _ops.binary("add", _ops.binary("multiply", kf, _core.scalar(float(step), "float64")),
                           _core.scalar(float(x), "float64"))
    _core.copy_(res._c, vals)
    return res


@_export
def cat(*args):
    """cat([res,] tensors_list|t1, t2, [dim]): concatenation along dim
    (default: the last dimension), one C copy per input."""
    res = None
    if args and isTensor(args[0]) and len(args) >= 2 and isinstance(args[1], (list, tuple)):
        res, args = args[0], args[1:]
    if isinstance(args[0], (list, tuple)):
        ts = list(args[0])
        dim = args[1] if len(args) > 1 else None
    else:
        ts = [a for a in args if isTensor(a)]
        rest = [a for a in args if not isTensor(a)]
        dim = rest[0] if rest else None
    if not ts:
        raise ValueError("cat: no tensors given")
    ts = [t for t in ts if t.nElement() > 0] or ts[:1]
    first = ts[0]
    nd = first.nDimension()
    if dim is None:
        dim = nd
    d = first._dim(dim)
    shape = list(first._c.shape)
    total = 0
    for t in ts:
        if t._dt != first._dt:
            raise TypeError(f"cat: tensors of types {first._typename} and {t._typename}")
        s = list(t._c.shape)
        if len(s) != nd or _builtins.any(a != b for i, (a, b) in enumerate(zip(s, shape)) if i != d):
            raise ValueError(f"cat: sizes {tuple(s)} and {tuple(shape)} differ outside "
                             f"dimension {dim}")
        total += s[d]
    shape[d] = total
    out = Core.empty(shape, first._dt)
    pos = 0
    from ..core.views import narrow as _narrow
    for t in ts:
        k = t._c.shape[d]
        if k:
            _core.copy_(_narrow(out, d, pos, k), t._c)
        pos += k
    if res is not None:
        return _into(res, out)
    return first._new(out)


# ---------------------------------------------------------------- FFI access


@_export
def data(t, asnumber=False):
    """A cffi pointer to the first element (typed, 0-based), or its address
    as an int with asnumber=True."""
    if not isTensor(t) and not hasattr(t, "_s"):
        raise TypeError(f"data: expected a tensor or a storage, got "
                        f"{_builtins.type(t).__name__}")
    if isTensor(t):
        p = lib.st_tensor_data(t._c.t) if t._c.storage != ffi.NULL else ffi.NULL
        ctype = _core.dtype(t._dt).ctype
    else:
        p = t._s.data
        ctype = _core.dtype(t._dt).ctype
    if asnumber:
        return int(ffi.cast("uintptr_t", p))
    return ffi.cast(ctype + " *", p)


@_export
def cdata(t, asnumber=False):
    """A cffi pointer to the C tensor record (st_tensor *)."""
    p = t._c.t if isTensor(t) else t._s
    return int(ffi.cast("uintptr_t", p)) if asnumber else p


@_export
def isStorage(obj):
    from .storage import Storage
    return isinstance(obj, Storage)


_export(isTensor)

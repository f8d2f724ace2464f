"""Elementwise ops, reductions and the matrix product over Cores: output
allocation, shape and dtype rules read from the C tables, one C call each.
0-based."""

from __future__ import annotations

import math

from .._c._strided import ffi, lib

# op name -> C code (strided.h's are generated from the same table); TORCH7:
# Torch7 name -> (family, the ops it may run), read by strided/torch7/core_ops.py
from .._c.inventory import BINARY, REDUCE, TORCH7 as TORCH7, UNARY
from .base import DTYPES, HALF, Core, astype, check, dtype, scalar
from .views import normalize_dim, unsqueeze, view_as_shape


def unary_result(op, dt):
    """The dtype `op` gives for `dt`, or None when the core has no kernel."""
    code = lib.st_unary_result(UNARY[op], dtype(dt).code)
    return DTYPES[code] if code >= 0 else None


def binary_result(op, dt):
    code = lib.st_binary_result(BINARY[op], dtype(dt).code)
    return DTYPES[code] if code >= 0 else None


_REDUCE_RESULTS = {}


def reduce_result(op, dt):
    key = (op, dtype(dt).code)
    res = _REDUCE_RESULTS.get(key)
    if res is None:
        code = lib.st_reduce_result(REDUCE[op], key[1])
        res = _REDUCE_RESULTS[key] = DTYPES[code] if code >= 0 else False
    return res or None


def broadcast_shapes(*shapes):
    """The broadcast of several shapes (numpy rules), or ValueError."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s, ndim - len(s)):
            if n != 1:
                if out[i] not in (1, n):
                    # numpy's words (clients match them), then where
                    raise ValueError(
                        f"operands could not be broadcast together with shapes "
                        f"{' '.join(map(str, shapes))} ({out[i]} vs {n} at "
                        f"dimension {i})"
                    )
                out[i] = n
    return tuple(out)


def empty_like_layout(shape, dt, inputs=()):
    """A new Core of `shape` laid out in memory like the first input of
    the same shape (numpy's order 'K'): then an op on transposed inputs
    walks every operand contiguously.  C order when no input fits."""
    shape = tuple(shape)
    for a in inputs:
        strides = a.strides
        if a.shape == shape and a.ndim > 1 and 0 not in strides and not a.is_contiguous():
            order = sorted(range(a.ndim), key=lambda d: -abs(strides[d]))
            if order != list(range(a.ndim)):
                c = Core.empty([shape[d] for d in order], dt)
                inverse = [order.index(d) for d in range(a.ndim)]
                cs = c.strides
                return c.view(0, shape, [cs[i] for i in inverse])
            break
    return Core.empty(shape, dt)


def _out_for(out, shape, dt, what, inputs=()):
    if out is None:
        return empty_like_layout(shape, dt, inputs)
    if out.shape != tuple(shape):
        raise ValueError(f"{what}: output has shape {out.shape}, expected {tuple(shape)}")
    return out


def unary(op, a, out=None):
    res = unary_result(op, a.dtype)
    if res is None:
        raise TypeError(f"{op} is not defined for {a.dtype.name}")
    out = _out_for(out, a.shape, res, op, (a,))
    check(lib.st_unary(UNARY[op], out.t, a.t))
    return out


def binary(op, a, b, out=None, dt=None):
    """op(a, b) for two Cores of one dtype (Python numbers: make a 0-d Core).
    dt: compute in that dtype instead, a and b of any dtypes converted to it
    inside the kernel a block at a time (no full-size temporaries)."""
    if dt is None:
        if a.dtype is not b.dtype:
            raise TypeError(
                f"{op} needs operands of one dtype, got {a.dtype.name} and {b.dtype.name}"
            )
        dt = a.dtype
    dt = dtype(dt)
    res = binary_result(op, dt)
    if res is None:
        raise TypeError(f"{op} is not defined for {dt.name}")
    out = _out_for(out, broadcast_shapes(a.shape, b.shape), res, op, (a, b))
    if a.dtype is dt and b.dtype is dt:
        check(lib.st_binary(BINARY[op], out.t, a.t, b.t))
    else:
        check(lib.st_binary_as(BINARY[op], dt.code, out.t, a.t, b.t))
    return out


def where(cond, a, b, out=None):
    out = _out_for(out, broadcast_shapes(cond.shape, a.shape, b.shape), a.dtype, "where")
    check(lib.st_where(out.t, cond.t, a.t, b.t))
    return out


def clamp(a, lo=None, hi=None, out=None):
    shapes = [a.shape] + [x.shape for x in (lo, hi) if x is not None]
    out = _out_for(out, broadcast_shapes(*shapes), a.dtype, "clamp")
    check(
        lib.st_clamp(
            out.t, a.t, lo.t if lo is not None else ffi.NULL, hi.t if hi is not None else ffi.NULL
        )
    )
    return out


def iota(n, dt="int64"):
    """0, 1, ..., n-1 as dt (exact int64 values converted, one C pass)."""
    return arange_int(Core.empty((n,), dt), 0, 1)


def arange_int(out, start, step):
    """out (any dtype, filled in C order) = start + k*step in int64,
    wrapping, converted as a cast from int64 does (st_arange_int)."""
    check(lib.st_arange_int(out.t, start, step))
    return out


_LIN_FLAGS = (("second", lib.ST_LIN_SECOND), ("last", lib.ST_LIN_LAST), ("div", lib.ST_LIN_DIVIDED))


def linear(out, a, d, *, second=None, last=None, div=None, floor=False, counter32=False):
    """out (any dtype, filled in C order) = a + k*d computed in double
    (complex a, d: per part), two roundings, converted as a cast from
    double does; element 1 `second`, the last `last`, (k / div) * d, values
    rounded down, a float counter: st_linear_fill's options."""
    p = ffi.new("st_linear *")
    given = {"second": second, "last": last, "div": div}
    for name, v in (("a", a), ("d", d), ("second", second), ("last", last)):
        if v is not None:
            v = complex(v)
            getattr(p, name)[0:2] = [v.real, v.imag]
    flags = sum(bit for name, bit in _LIN_FLAGS if given[name] is not None)
    flags |= (lib.ST_LIN_FLOOR if floor else 0) | (lib.ST_LIN_COUNTER32 if counter32 else 0)
    p.div = 0.0 if div is None else div
    p.flags = flags
    check(lib.st_linear_fill(out.t, p))
    return out


def eye_(out, k=0, zeroed=False):
    """The ones of out's k-th diagonal (2-D); zeroed: out is known to hold
    zeros (Core.zeros), so nothing else is written.  A k past the last
    column or row (any Python int) is a diagonal of no element."""
    rows, cols = out.shape
    k = max(-rows, min(cols, k))
    check(lib.st_eye(out.t, k, bool(zeroed)))
    return out


def affine(idx, start, step, dt):
    """start + idx * step computed in dt."""
    out = binary("multiply", idx, scalar(step, dt))
    return binary("add", out, scalar(start, dt), out=out)


# ---------------------------------------------------------------- reductions


def normalize_axes(axes, ndim):
    """A sorted tuple of distinct non-negative dims (None: all)."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, int) or hasattr(axes, "__index__"):
        axes = (axes,)
    dims = tuple(sorted(normalize_dim(d, ndim, "axis") for d in axes))
    if len(set(dims)) != len(dims):
        raise ValueError(f"repeated axis in {tuple(axes)}")
    if ndim == 0 and dims:
        return ()
    return dims


def _drop(c, dims):
    """c without its (size-1) dims `dims`."""
    shape = [n for d, n in enumerate(c.shape) if d not in dims]
    return view_as_shape(c, shape)


def reduce(op, a, axes=None, keepdims=False, aux=None, out=None):
    """Reduce a over `axes`; the result dtype is the accumulator's
    (reduce_result).  aux: the keepdim mean for 'sumsqdev'.  out: a
    writable Core of the keepdims shape and the result dtype, any strides,
    written in place (returned in the keepdims shape)."""
    res = reduce_result(op, a.dtype)
    if res is None:
        raise TypeError(f"{op} is not defined for {a.dtype.name}")
    if axes is None and out is None and not keepdims and (op not in ("min", "max") or a.size):
        # over everything into a 0-d result: no keepdim shape to build and drop
        out = Core.empty((), res)
        check(lib.st_reduce_all(REDUCE[op], out.t, a.t, aux.t if aux is not None else ffi.NULL))
        return out
    dims = normalize_axes(axes, a.ndim)
    if op in ("min", "max") and any(a.shape[d] == 0 for d in dims):
        raise ValueError(f"{op} of an empty sequence has no identity")
    keep_shape = [1 if d in dims else n for d, n in enumerate(a.shape)]
    given = out is not None
    out = _out_for(out, keep_shape, res, op)
    mask = ffi.new("uint8_t[]", [d in dims for d in range(a.ndim)] or [0])
    check(lib.st_reduce(REDUCE[op], out.t, a.t, mask, aux.t if aux is not None else ffi.NULL))
    return out if keepdims or given else _drop(out, dims)


def count(a, axes):
    return math.prod(a.shape[d] for d in normalize_axes(axes, a.ndim))


def _in_float32(fn, a, *args):
    """fn of a 16-bit float Core computed whole in float32 and rounded once
    (its steps would otherwise each round to 16 bits)."""
    return astype(fn(astype(a, "float32"), *args), a.dtype)


def mean(a, axes=None, keepdims=False, out=None):
    """Mean of a floating or complex Core (out: as for reduce)."""
    if a.dtype in HALF and out is None:
        return _in_float32(mean, a, axes, keepdims)
    s = reduce("sum", a, axes, keepdims, out=out)
    return binary("divide", s, scalar(count(a, axes), s.dtype), out=s)


def var(a, axes=None, correction=0.0, keepdims=False):
    """Variance of a floating or complex Core (two passes: mean, then the
    sum of squared deviations: stable where the one-pass formula is not)."""
    if a.dtype in HALF:
        return _in_float32(var, a, axes, correction, keepdims)
    m = mean(a, axes, keepdims=True)
    ssd = reduce("sumsqdev", a, axes, keepdims, aux=m)
    dof = max(count(a, axes) - correction, 0)
    return binary("divide", ssd, scalar(dof, ssd.dtype), out=ssd)


def std(a, axes=None, correction=0.0, keepdims=False):
    if a.dtype in HALF:
        return _in_float32(std, a, axes, correction, keepdims)
    return unary("sqrt", var(a, axes, correction, keepdims))


def argreduce(is_max, a, axis=None, keepdims=False, out=None):
    """0-based position of the first max (min) along axis; None: flattened.
    out (with an axis): an int64 Core of the keepdims shape, written in place."""
    if axis is None:
        flat = view_as_shape(a, (a.size,))
        if flat is None:
            from .base import contiguous

            flat = view_as_shape(contiguous(a), (a.size,))
        r = argreduce(is_max, flat, 0, keepdims=False)
        return view_as_shape(r, (1,) * a.ndim) if keepdims else r
    dim = normalize_dim(axis, a.ndim, "axis")
    keep_shape = [1 if d == dim else n for d, n in enumerate(a.shape)]
    given = out is not None
    out = _out_for(out, keep_shape, "int64", "argreduce")
    check(lib.st_argreduce(bool(is_max), out.t, a.t, dim))
    return out if keepdims or given or a.ndim == 0 else _drop(out, (dim,))


def cumulative(is_prod, a, axis, out=None):
    """The running sum (product) along axis, in the reduction's result
    type; out: a Core of a's shape and that type to write into (C reads an
    out that overlaps a from a copy)."""
    dim = normalize_dim(axis, a.ndim, "axis")
    if out is None:
        out = Core.empty(a.shape, reduce_result("prod" if is_prod else "sum", a.dtype))
    check(lib.st_cumulative(bool(is_prod), out.t, a.t, dim))
    return out


def count_nonzero(a):
    n = ffi.new("int64_t *")
    check(lib.st_count_nonzero(a.t, n))
    return n[0]


# ---------------------------------------------------------------- matrix product


def common_dtype(a, b):
    """numpy's promotion of two array dtypes: the smallest dtype of the core
    that holds every value of both (int64 with uint64 gives float64)."""
    a, b = dtype(a), dtype(b)
    if a is b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    ka, kb = a.kind, b.kind
    if {a.name, b.name} == {"float16", "bfloat16"}:
        return dtype("float32")  # neither holds the other (PyTorch's rule)
    if ka == kb:
        return a if a.itemsize >= b.itemsize else b
    if {ka, kb} == {"i", "u"}:
        s, u = (a, b) if ka == "i" else (b, a)
        if s.itemsize > u.itemsize:
            return s
        return dtype(f"int{16 * u.itemsize}") if u.itemsize < 8 else float64_
    if kb in "iu":  # make a the integer, if there is one
        a, b = b, a
        ka, kb = kb, ka
    if ka in "iu":  # integer with float or complex
        wide = a.itemsize > 2  # float32 holds integers of up to 16 bits
        if kb == "f" and b.itemsize == 2:  # a 16-bit float holds 8-bit integers
            return b if a.itemsize == 1 else dtype("float64") if wide else dtype("float32")
        if kb == "f":
            return dtype("float64") if wide else b
        return dtype("complex128") if wide else b
    # float with complex
    f, c = (a, b) if ka == "f" else (b, a)
    return c if f.itemsize * 2 <= c.itemsize else dtype("complex128")


float64_ = dtype("float64")


def matmul(a, b, out=None):
    """The matrix product of two Cores, numpy's matmul rules: a 1-D a is a
    row (its dim removed from the result), a 1-D b a column; batch dims
    broadcast; the result has the common dtype of a and b (out= must have
    it and the result's exact shape)."""
    # This wrapper's checks cost more than a batch of small products (a
    # Core's shape is unpacked from C at each access): with out given and
    # matrices on both sides, one C call, which checks everything before it
    # writes, does it all; when it refuses (dtypes to promote, bad shapes),
    # the checks below name the problem as always.
    an, bn = a.ndim, b.ndim
    if out is not None and an > 1 and bn > 1 and not lib.st_matmul(out.t, a.t, b.t):
        return out
    if an == 0 or bn == 0:
        raise ValueError(
            f"matmul: operands must have at least one dimension, got shapes {a.shape} and {b.shape}"
        )
    sa, sb = a.shape, b.shape
    adt, bdt = a.dtype, b.dtype
    dt = adt if adt is bdt else common_dtype(adt, bdt)
    a2 = unsqueeze(a, 0) if an == 1 else a
    b2 = unsqueeze(b, 1) if bn == 1 else b
    sa2 = (1,) + sa if an == 1 else sa
    sb2 = sb + (1,) if bn == 1 else sb
    if sa2[-1] != sb2[-2]:
        raise ValueError(
            f"matmul: shapes {sa} and {sb} do not match: "
            f"{sa[-1]} (last dim of a) != {sb2[-2]} "
            f"({'only' if bn == 1 else 'second-to-last'} dim of b)"
        )
    if sa2[:-2] == sb2[:-2]:
        batch = sa2[:-2]
    else:
        try:
            batch = broadcast_shapes(sa2[:-2], sb2[:-2])
        except ValueError:
            raise ValueError(
                f"matmul: batch dims of shapes {sa} and {sb} do not "
                f"broadcast: {sa[:-2]} vs {sb[:-2]}"
            ) from None
    shape = batch + ((sa2[-2],) if an > 1 else ()) + ((sb2[-1],) if bn > 1 else ())
    if out is None:
        out = Core.empty(shape, dt)
    else:
        if out.dtype is not dt:
            raise TypeError(f"matmul: out has dtype {out.dtype.name}, expected {dt.name}")
        if out.shape != shape:
            raise ValueError(f"matmul: out has shape {out.shape}, expected {shape}")
    if adt is not dt:
        a2 = astype(a2, dt)
    if bdt is not dt:
        b2 = astype(b2, dt)
    o = out
    if an == 1:
        o = unsqueeze(o, o.ndim - (0 if bn == 1 else 1))
    if bn == 1:
        o = unsqueeze(o, o.ndim)
    check(lib.st_matmul(o.t, a2.t, b2.t))
    return out

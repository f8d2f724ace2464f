"""The order of float reductions (docs/core-semantics.md, "Order of float
reductions"): sum, prod, mean, var and std of float and complex arrays give
the same bits whatever the layout of the input (permuted, stepped,
reversed), the extent of the kept axes (a slice of the input reduces to the
slice of the reduction), the kernel, the thread count and the CPU level.

The oracle of the order itself is `tree` below: the documented blocked
pairwise tree, computed with numpy's elementwise operations (each one
correctly rounded IEEE arithmetic), vectorised over the outputs."""

import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import strided
import strided.compat as xp
from strided.compat._array import Array
from strided.core import ops as _ops

DTYPES = ["float32", "float64", "complex64", "complex128"]
STEPS = 16  # values per lane in a block (reduce_tree.c's TREE_STEPS)


# ---------------------------------------------------------------- the documented order


def cmul(a, b):
    """a * b as C computes it for finite values: each product rounded alone."""
    if a.dtype.kind != "c":
        return a * b
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), a.dtype)
    out.real = a.real * b.real - a.imag * b.imag
    out.imag = a.real * b.imag + a.imag * b.real
    return out


def tree(v, op, e):
    """v (..., n), the accumulator's dtype -> (...): L = 64 / itemsize lanes,
    blocks of 16 L values, lane j of a block folding its values j, j + L, ...
    from e, the lanes halved (l_j (+)= l_{j+w}, w = L/2 .. 1), the blocks
    combined as a tree whose left part is the largest power of two below
    their count; n <= L values folded in order."""
    lanes = 64 // v.dtype.itemsize
    blk = lanes * STEPS
    lead, n = v.shape[:-1], v.shape[-1]
    if n <= lanes:
        r = np.full(lead, e, v.dtype)
        for i in range(n):
            r = op(r, v[..., i])
        return r

    def halve(r):  # r (..., L) -> (...)
        w = lanes // 2
        while w:
            r = r.copy()
            r[..., :w] = op(r[..., :w], r[..., w : 2 * w])
            w //= 2
        return r[..., 0]

    whole = n // blk
    blocks = []
    if whole:
        x = v[..., : whole * blk].reshape(lead + (whole, STEPS, lanes))
        r = np.full(lead + (whole, lanes), e, v.dtype)
        for i in range(STEPS):
            r = op(r, x[..., i, :])
        done = halve(r)
        blocks += [done[..., b] for b in range(whole)]
    if n > whole * blk:
        r = np.full(lead + (lanes,), e, v.dtype)
        for i in range(n - whole * blk):
            r[..., i % lanes] = op(r[..., i % lanes], v[..., whole * blk + i])
        blocks.append(halve(r))
    if not blocks:
        return np.full(lead, e, v.dtype)

    def combine(lo, hi):
        if hi - lo == 1:
            return blocks[lo]
        p = 1 << ((hi - lo - 1).bit_length() - 1)
        return op(combine(lo, lo + p), combine(lo + p, hi))

    return combine(0, len(blocks))


def reduced_last(a, axes):
    """a with its reduced axes flattened (C order) into the last one."""
    kept = [d for d in range(a.ndim) if d not in axes]
    v = np.transpose(a, kept + sorted(axes))
    return v.reshape(v.shape[: len(kept)] + (-1,))


def model(kind, a, axes, mean=None):
    v = reduced_last(a, axes)
    if kind == "sum":
        return tree(v, np.add, 0)
    if kind == "prod":
        return tree(v, cmul, 1)
    d = v - reduced_last(mean, axes)  # sumsqdev
    q = d.real * d.real + d.imag * d.imag if d.dtype.kind == "c" else d * d
    return tree(q, np.add, 0)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (
        got.dtype,
        want.dtype,
        got.shape,
        want.shape,
    )
    assert got.tobytes() == want.tobytes(), f"{got!r}\n!=\n{want!r}"


# ---------------------------------------------------------------- inputs


def values(rng, shape, dt, kind):
    """Finite values whose sums depend on the order: magnitudes 1e-3..1e3
    (products: near 1, complex ones turned by random phases)."""
    if kind == "prod":
        a = 1 + 0.1 * rng.standard_normal(shape)
        if dt.startswith("complex"):
            a = a * np.exp(1j * rng.uniform(-np.pi, np.pi, shape))
    else:
        a = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
        if dt.startswith("complex"):
            a = a + 1j * rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    return np.asarray(a).astype(dt)


def laid_out(rng, shape, perm, steps, dt, kind):
    """A view of logical shape `shape` over new memory whose dims are in the
    order `perm` (outermost first), stepped by |steps| and reversed where a
    step is negative."""
    mem = [shape[p] * abs(steps[p]) for p in perm]
    buf = values(rng, mem, dt, kind)
    v = buf[tuple(slice(None, None, steps[p]) for p in perm)]
    v = v.transpose(np.argsort(perm))
    assert v.shape == tuple(shape)
    return v


def norm_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (axis % ndim,)
    return tuple(sorted(axis))


@st.composite
def cases(draw):
    dt = draw(st.sampled_from(DTYPES))
    ndim = draw(st.integers(1, 5))
    shape = draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim))
    if draw(st.booleans()):  # a long axis: several blocks, a tree of them
        shape[draw(st.integers(0, ndim - 1))] = draw(st.integers(6, 900 if ndim <= 2 else 300))
    assume(np.prod(shape) <= 6000)
    perm = draw(st.permutations(range(ndim)))
    steps = draw(st.lists(st.sampled_from([1, 1, 2, -1, -2]), min_size=ndim, max_size=ndim))
    axis = draw(
        st.one_of(
            st.none(),
            st.integers(-ndim, ndim - 1),
            st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
        )
    )
    axes = norm_axes(axis, ndim)
    cut = []
    for d in range(ndim):  # a slice of each kept axis; reduced ones whole
        if d in axes:
            cut.append(slice(None))
        else:
            n = shape[d]
            cut.append(
                slice(
                    draw(st.one_of(st.none(), st.integers(-n - 1, n))),
                    draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                    draw(st.sampled_from([1, 1, 2, 3, -1, -2])),
                )
            )
    return dt, shape, perm, steps, axis, tuple(cut), draw(st.integers(0, 2**32 - 1))


def reductions(dt):
    """(name, f(x, axis) -> keepdims result) of the array API face; var and
    std of complex arrays (which it refuses) through the core."""
    fs = [
        ("sum", lambda x, ax: xp.sum(x, axis=ax, keepdims=True)),
        ("prod", lambda x, ax: xp.prod(x, axis=ax, keepdims=True)),
        ("mean", lambda x, ax: xp.mean(x, axis=ax, keepdims=True)),
    ]
    if dt.startswith("float"):
        fs += [
            ("var", lambda x, ax: xp.var(x, axis=ax, correction=1, keepdims=True)),
            ("std", lambda x, ax: xp.std(x, axis=ax, keepdims=True)),
        ]
    else:
        fs += [
            ("var", lambda x, ax: Array._new(_ops.var(x._c, ax, 1.0, keepdims=True))),
            ("std", lambda x, ax: Array._new(_ops.std(x._c, ax, 0.0, keepdims=True))),
        ]
    return fs


# ---------------------------------------------------------------- the promises


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(cases())
def test_slices_layouts_and_copies_reduce_to_the_same_bits(case):
    dt, shape, perm, steps, axis, cut, seed = case
    rng = np.random.default_rng(seed)
    axes = norm_axes(axis, len(shape))
    for name, f in reductions(dt):
        v = laid_out(rng, shape, perm, steps, dt, "prod" if name == "prod" else "sum")
        x = xp.asarray(v)
        # a view, not a copy (the stride of a dim of size 1 is any: older
        # numpy, 2.2 on Python 3.10, exports another one than v.strides says)
        assert all(
            n == 1 or a == s // v.itemsize for n, a, s in zip(v.shape, x._c.strides, v.strides)
        )
        whole = np.asarray(f(x, axis))
        # the slice of the reduction is the reduction of the slice
        same_bits(f(x[cut], axis), whole[cut])
        # a contiguous copy reduces to the same bits
        same_bits(f(xp.asarray(np.ascontiguousarray(v)), axis), whole)
        # and the bits are the documented order's
        if name in ("sum", "prod"):
            same_bits(whole, model(name, v, axes).reshape(whole.shape))
        if name == "var":
            m = _ops.mean(x._c, axes, keepdims=True)
            got = _ops.reduce("sumsqdev", x._c, axes, keepdims=True, aux=m)
            same_bits(
                Array._new(got),
                model("sqdev", v, axes, np.asarray(Array._new(m))).reshape(whole.shape),
            )


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("cols", [64, 200, 600, 1100])
def test_few_rows_over_many_columns_follow_the_order(dt, cols):
    """A reduction over a middle axis of few rows (einops' `(b p) c -> b c`):
    the outer kernel reads the rows in order (NAME##_wide) or, for long
    rows, keeps the lanes in registers (NAME##_regs); both give the
    documented order's bits, short reductions (in order), one block with
    some lanes empty, and up to four values a lane and past it."""
    lanes = 64 // np.dtype(dt).itemsize
    rng = np.random.default_rng(cols)
    for rows in sorted({2, lanes, lanes + 1, 2 * lanes + 3, 4 * lanes, 4 * lanes + 1}):
        for kind in ("sum", "prod", "sqdev"):
            if kind == "sqdev" and dt.startswith("complex"):
                continue
            v = values(rng, (3, rows, cols), dt, "prod" if kind == "prod" else "sum")
            x = xp.asarray(v)
            if kind == "sqdev":
                m = _ops.mean(x._c, (1,), keepdims=True)
                got = Array._new(_ops.reduce("sumsqdev", x._c, (1,), keepdims=True, aux=m))
                want = model("sqdev", v, (1,), np.asarray(Array._new(m)))
            else:
                got = getattr(xp, kind)(x, axis=1, keepdims=True)
                want = model(kind, v, (1,))
            same_bits(got, want.reshape(3, 1, cols))


@settings(max_examples=60, deadline=None)
@given(cases())
def test_cumulative_sums_of_slices_are_slices(case):
    """Running sums are sequential along their axis: the same promises."""
    dt, shape, perm, steps, axis, cut, seed = case
    v = laid_out(np.random.default_rng(seed), shape, perm, steps, dt, "sum")
    x = xp.asarray(v)
    ax = norm_axes(axis, len(shape))[0]
    whole = np.asarray(xp.cumulative_sum(x, axis=ax))
    same_bits(xp.cumulative_sum(x[cut], axis=ax), whole[cut])
    same_bits(xp.cumulative_sum(xp.asarray(np.ascontiguousarray(v)), axis=ax), whole)


def test_scipy_bootstrap_permuted_4d():
    """SciPy's bootstrap compares these exactly: a permuted 4-D float64
    array summed over its last axis, then sliced, against the sum of the
    slice."""
    rng = np.random.default_rng(12)
    for shape in [(2, 3, 20, 40), (2, 2, 50, 1000), (3, 4, 5, 100)]:
        a = rng.standard_normal(shape)
        for perm in [(0, 1, 3, 2), (0, 3, 1, 2), (1, 3, 0, 2), (2, 3, 1, 0), (3, 2, 1, 0)]:
            v = xp.permute_dims(xp.asarray(a), perm)
            same_bits(xp.sum(v, axis=-1)[:, :, :1], xp.sum(v[:, :, :1], axis=-1))
            same_bits(xp.mean(v, axis=-1)[:, :1], xp.mean(v[:, :1], axis=-1))
            same_bits(xp.std(v, axis=(0, -1))[1:], xp.std(v[:, 1:], axis=(0, -1)))


def test_torch_face_sum_mean_follow_the_order():
    """The Torch7 face's sum, mean, var and std go through the same core: a
    transposed or narrowed tensor reduces to the bits of its contiguous
    clone, and to the array API face's bits."""
    torch = strided
    torch.manualSeed(3)
    x = torch.randn(6, 300, 7).mul(100)
    for t in (x, x.transpose(1, 3), x.transpose(1, 2), x.narrow(2, 5, 200), x.narrow(1, 2, 3)):
        for dim in (1, 2, 3):
            for f in ("sum", "mean", "var", "std"):
                got = getattr(t, f)(dim)
                same_bits(got.numpy(), getattr(t.clone(), f)(dim).numpy())
            same_bits(
                t.sum(dim).numpy(),
                np.asarray(xp.sum(xp.asarray(t.numpy()), axis=dim - 1, keepdims=True)),
            )
        same_bits(np.float64(t.sum()), np.float64(t.clone().sum()))
    # slices of the whole reduction
    full = x.sum(2)
    same_bits(x.narrow(1, 1, 2).sum(2).numpy(), full.narrow(1, 1, 2).numpy())
    same_bits(x.narrow(3, 2, 4).mean(2).numpy(), x.mean(2).narrow(3, 2, 4).numpy())


# ---------------------------------------------------------------- threads and CPU levels


def large_inputs():
    rng = np.random.default_rng(5)
    out = []
    for dt in DTYPES:
        for shape, axis in [
            ((3, 100003), 1),
            ((100003, 3), 0),
            ((700, 500), 0),
            ((700, 500), 1),
            ((400, 500), None),
            ((60, 70, 50), (0, 2)),
            ((2, 200000), None),
        ]:
            a = values(rng, shape, dt, "sum")
            flip = (
                None
                if axis is None
                else tuple(a.ndim - 1 - d for d in ((axis,) if isinstance(axis, int) else axis))
            )
            out += [(a, axis), (a.T, flip), (a[::-1], axis)]
    return out


def digests(inputs):
    """A digest of sum, prod, mean, var, std of each input."""
    h = []
    for v, ax in inputs:
        x = xp.asarray(v)
        r = [
            xp.sum(x, axis=ax),
            xp.mean(x, axis=ax),
            xp.prod(xp.asarray(1 + 1e-6 * np.asarray(v)), axis=ax),
        ]
        c = x._c
        r += [Array._new(_ops.var(c, ax, 1.0)), Array._new(_ops.std(c, ax, 0.0))]
        h.append(hashlib.sha1(b"".join(np.asarray(y).tobytes() for y in r)).hexdigest())
    return h


def test_thread_counts_give_the_same_bits():
    """Large reductions are split across threads (outputs shared out, or the
    reduced values cut into power-of-two groups of blocks: subtrees of the
    one tree); 1, 2 and 3 threads give the same bits (torch.setnumthreads,
    the Torch7 face's setting, which the array API face shares)."""
    torch = strided
    inputs = large_inputs()
    before = torch.getnumthreads()
    try:
        got = {}
        for n in (1, 2, 3):
            torch.setnumthreads(n)
            got[n] = digests(inputs)
            torch.manualSeed(0)
            x = torch.randn(3, 200000)
            got[n].append(
                hashlib.sha1(
                    x.sum(2).numpy().tobytes()
                    + x.t().mean(1).numpy().tobytes()
                    + np.float64(x.sum()).tobytes()
                ).hexdigest()
            )
        assert got[1] == got[2] == got[3]
    finally:
        torch.setnumthreads(before)


CHILD = r"""
import json, sys
sys.path.insert(0, %r)
import test_reduction_order as t
from strided.core import base as _core
print(json.dumps({"level": _core.cpu_level(), "digests": t.digests(t.large_inputs())}))
"""


def run_child(level):
    env = dict(os.environ)
    env.pop("STRIDED_CPU_LEVEL", None)
    if level is not None:
        env["STRIDED_CPU_LEVEL"] = str(level)
    r = subprocess.run(
        [sys.executable, "-c", CHILD % os.path.dirname(__file__)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_cpu_levels_give_the_same_bits():
    """The kernels compiled for AVX-512, AVX2 and baseline x86-64 run the
    same operations (no fused multiply-adds): the same bits."""
    top = run_child(None)
    for level in (0, 3):
        if level < top["level"]:
            got = run_child(level)
            assert got["level"] == level
            assert got["digests"] == top["digests"], level

"""Copy, cast and fill (strided/_c/copy.c through strided/core/base.py), with
numpy as the oracle: every (source, destination) dtype pair, sources in every
layout, non-contiguous and broadcast copies, copies between overlapping
views of one storage, fill, and the refusals (read-only memory, shapes that
do not broadcast).

The float -> integer rule of copy.c: truncation toward zero; NaN and values
outside int64's range become INT64_MIN, and narrowing then wraps modulo
2^bits (unsigned targets take [0, 2^64) directly).  numpy agrees wherever
the truncated value fits the target type; outside that its results are not
defined (they differ from copy.c's, e.g. for int32 numpy gives INT32_MIN),
so there the tests check copy.c's documented values instead.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from helpers import (
    ALL_DTYPE_NAMES as DTYPE_NAMES,
    INT_NAMES,
    NUMPY,
    arrays,
    assert_same,
    borrow,
    layouts,
    shapes,
    to_core,
    to_numpy,
)
from strided.core import base as _core, ops as _ops, views as _views

FLOATISH = ["float32", "float64", "complex64", "complex128"]
WIDTH = {"float16": 16, "float32": 32, "complex64": 32, "float64": 64, "complex128": 64}


# ---------------------------------------------------------------- helpers


def int_bounds(name):
    info = np.iinfo(NUMPY[name])
    return int(info.min), int(info.max)


def numpy_cast(a, dst):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return a.astype(NUMPY[dst])


def source_elements(src, dst):
    """Values of dtype src whose cast to dst numpy defines: floats going to
    an integer type lie in the target's range after truncation; everything
    else (NaN, inf, wrapping integers) is fair game."""
    s = NUMPY[src]
    if s.kind in "fc" and NUMPY[dst].kind in "iu":
        lo, hi = int_bounds(dst)
        width = WIDTH[src]
        low, high = -0.9921875 if lo == 0 else float(lo), float(hi + 1)
        if width == 16:  # float16 holds nothing beyond 65504
            low, high = max(low, -65504.0), min(high, 65504.0)
        real = st.floats(min_value=low, max_value=high, exclude_max=high == hi + 1, width=width)
        if s.kind == "c":
            return st.builds(complex, real, st.floats(width=width))
        return real
    return None


@st.composite
def laid_out(draw, dt, shape=shapes, elements=None):
    """A numpy array of dtype dt in one of the helpers' layouts."""
    a = draw(arrays(dt, shape, elements=elements))
    return draw(layouts(a))


SENTINEL = {name: np.array(True if name == "bool" else 77, NUMPY[name]) for name in DTYPE_NAMES}


@st.composite
def writable_layout(draw, shape, dt):
    """(buffer, view): a writable view of `shape` inside a larger buffer filled
    with a sentinel: dims permuted, stepped, reversed, with margins."""
    nd = len(shape)
    perm = draw(st.permutations(range(nd)))
    phys = [shape[p] for p in perm]
    steps = [draw(st.integers(1, 3)) for _ in phys]
    pads = [draw(st.integers(0, 2)) for _ in phys]
    flips = [draw(st.booleans()) for _ in phys]
    big = tuple(n * s + p for n, s, p in zip(phys, steps, pads))
    buffer = np.full(big, SENTINEL[dt])
    if nd == 0:
        return buffer, buffer[...]
    view = buffer[tuple(slice(p, p + n * s, s) for n, s, p in zip(phys, steps, pads))]
    view = view[tuple(slice(None, None, -1) if f else slice(None) for f in flips)]
    view = view.transpose(np.argsort(perm))
    assert view.shape == tuple(shape)
    return buffer, view


def outside_unchanged(buffer, view, dt):
    """Every buffer element that `view` does not reach still holds the sentinel."""
    mask = np.ones(buffer.shape, bool)
    if view.size:
        # mark what the view reaches through a boolean twin with its strides
        item = buffer.dtype.itemsize
        reach = np.zeros(buffer.shape, bool)
        twin = np.lib.stride_tricks.as_strided(
            reach.reshape(-1)[(view.ctypes.data - buffer.ctypes.data) // item :],
            view.shape,
            tuple(s // item for s in view.strides),
            writeable=True,
        )
        twin[...] = True
        mask = ~reach
    np.testing.assert_array_equal(buffer[mask], np.full(mask.sum(), SENTINEL[dt]))


# ---------------------------------------------------------------- every pair


@pytest.mark.parametrize("dst", DTYPE_NAMES)
@pytest.mark.parametrize("src", DTYPE_NAMES)
@given(data=st.data())
def test_cast_every_pair(src, dst, data):
    a = data.draw(laid_out(src, elements=source_elements(src, dst)), label="a")
    got = _core.astype(borrow(a), dst)
    assert got.dtype.name == dst and got.shape == a.shape and got.is_contiguous()
    assert_same(to_numpy(got), numpy_cast(a, dst))


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_copy_same_dtype_is_exact(dt, data):
    """A same-dtype copy moves bits: NaN payloads and signed zeros survive."""
    a = data.draw(laid_out(dt), label="a")
    out = _core.Core.empty(a.shape, dt)
    assert _core.copy_(out, borrow(a)) is out
    got = to_numpy(out)
    assert got.tobytes() == a.copy().tobytes()


@pytest.mark.parametrize("dst", DTYPE_NAMES)
@given(data=st.data())
def test_copy_into_noncontiguous_destination(dst, data):
    src = data.draw(st.sampled_from(DTYPE_NAMES), label="src")
    a = data.draw(laid_out(src, elements=source_elements(src, dst)), label="a")
    buffer, view = data.draw(writable_layout(a.shape, dst), label="dst")
    _core.copy_(borrow(view), borrow(a))
    assert_same(view.copy(), numpy_cast(a, dst))
    outside_unchanged(buffer, view, dst)


@pytest.mark.parametrize("dst", DTYPE_NAMES)
@given(data=st.data())
def test_copy_broadcasts_source(dst, data):
    """A source broadcasts to the (bigger) destination, numpy's rules."""
    src = data.draw(st.sampled_from(DTYPE_NAMES), label="src")
    shape = data.draw(
        hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5), label="shape"
    )
    src_shape = data.draw(
        hnp.broadcastable_shapes(shape, min_dims=0, max_dims=len(shape), min_side=0).filter(
            lambda s: np.broadcast_shapes(s, shape) == shape
        ),
        label="src_shape",
    )
    a = data.draw(laid_out(src, src_shape, source_elements(src, dst)), label="a")
    buffer, view = data.draw(writable_layout(shape, dst), label="dst")
    _core.copy_(borrow(view), borrow(a))
    assert_same(view.copy(), numpy_cast(np.broadcast_to(a, shape), dst))
    outside_unchanged(buffer, view, dst)


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 4, 1)])
def test_copy_cast_zero_d_and_empty(dt, shape):
    for src in DTYPE_NAMES:
        a = np.ones(shape, NUMPY[src])
        out = _core.Core.empty(shape, dt)
        _core.copy_(out, to_core(a))
        assert_same(to_numpy(out), numpy_cast(a, dt))
        # a 0-d source fills any destination
        big = _core.Core.empty((2,) + shape, dt)
        _core.copy_(big, to_core(np.array(1, NUMPY[src])))
        assert_same(to_numpy(big), np.ones((2,) + shape, NUMPY[dt]))


LARGE_SHAPES = [(130, 190), (3, 67, 129), (257, 65), (70, 2, 300)]


@pytest.mark.parametrize("shape", LARGE_SHAPES)
@pytest.mark.parametrize(
    "src,dst",
    [
        ("float64", "float64"),
        ("int32", "float32"),
        ("complex64", "complex128"),
        ("uint8", "int64"),
        ("int16", "int16"),
        ("bool", "complex64"),
    ],
)
def test_large_transposed_copies(src, dst, shape):
    """Big enough for threads and for the iterator's cache tiling, with
    sizes that are no multiple of a tile: transposed, reversed and stepped
    sources and destinations."""
    n = math.prod(shape)
    a = (np.arange(n) % 251).astype(NUMPY[src]).reshape(shape)
    sources = [a.T, np.swapaxes(a, 0, -1)[::-1], np.ascontiguousarray(a.T).T, a[..., ::-2].T]
    for v in sources:
        out = _core.astype(borrow(v), dst)
        assert_same(to_numpy(out), numpy_cast(v, dst))
        # into a transposed destination: both operands walk across
        buffer = np.zeros(v.shape[::-1], NUMPY[dst])
        _core.copy_(borrow(buffer.T), borrow(v))
        assert_same(buffer.T.copy(), numpy_cast(v, dst))


# ---------------------------------------------------------------- float -> integer


def f2i_model(x, dst):
    """copy.c's documented float -> integer value for one Python float x."""
    lo, hi = int_bounds(dst)
    if lo == 0 and 0.0 <= x < 2.0**64:
        v = int(x)
    elif not math.isnan(x) and -(2.0**63) < x < 2.0**63:
        v = int(x)  # int() truncates toward zero
    else:
        v = -(2**63)
    span = hi - lo + 1
    return (v - lo) % span + lo


@pytest.mark.parametrize("dst", INT_NAMES)
@pytest.mark.parametrize("src", FLOATISH)
@given(data=st.data())
def test_float_to_int_documented_rule(src, dst, data):
    """Any float, NaN, infinite or huge included, gets the documented value:
    truncate, else INT64_MIN, then wrap (complex: the real part)."""
    width = WIDTH[src]
    exact = (lambda v: float(np.float32(v))) if width == 32 else float
    real = st.one_of(
        st.floats(width=width),
        st.floats(-(2.0**70), 2.0**70, width=width),
        st.integers(-(2**64), 2**65).map(exact),
    )
    elements = (
        st.builds(complex, real, st.floats(width=width)) if src.startswith("complex") else real
    )
    a = data.draw(laid_out(src, elements=elements), label="a")
    got = to_numpy(_core.astype(borrow(a), dst))
    flat = np.asarray(a).real.astype(np.float64).ravel().tolist()
    want = np.array([f2i_model(x, dst) for x in flat], dtype=object)
    np.testing.assert_array_equal(got.ravel().astype(object), want)


@pytest.mark.parametrize("dst", INT_NAMES)
@pytest.mark.parametrize("src", ["float32", "float64"])
def test_float_to_int_truncates_toward_zero(src, dst):
    lo, hi = int_bounds(dst)
    values = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        0.9999,
        -0.9999,
        1.5,
        -1.5,
        2.5,
        -2.5,
        99.99,
        -99.99,
        126.7,
        -127.9,
        1e-300,
        -1e-300,
    ]
    a = np.array([v for v in values if lo - 1 < v < hi + 1], NUMPY[src])
    got = to_numpy(_core.astype(to_core(a), dst))
    assert got.tolist() == [math.trunc(float(v)) for v in a]
    np.testing.assert_array_equal(got, a.astype(NUMPY[dst]))


@pytest.mark.parametrize("src", FLOATISH)
def test_float_to_int_out_of_range_values(src):
    """NaN, +-inf and values beyond int64 give INT64_MIN narrowed (0 for the
    narrower types); in-int64-range values wrap modulo 2^bits (the oracle:
    numpy's own int64 -> intN cast, which wraps); unsigned targets take
    [0, 2^64) as is."""
    values = [
        np.nan,
        np.inf,
        -np.inf,
        1e20,
        -1e20,
        2.0**63,
        -(2.0**63),
        3e9,
        -3e9,
        2.0**40 + 2.0**20 + 2.0**18,
        300.0,
        -300.0,
        2.0**63 + 2.0**40,
    ]
    a = np.array(values, NUMPY[src])
    assert a.real.astype(np.float64).tolist()[7:] == values[7:]  # exact in float32 too
    for dst in INT_NAMES:
        got = to_numpy(_core.astype(to_core(a), dst))
        as_int64 = [int(v) if -(2.0**63) < v < 2.0**63 else -(2**63) for v in values]
        want = np.array(as_int64, np.int64).astype(NUMPY[dst])
        if dst == "uint64":
            want = np.array(
                [int(v) if 0 <= v < 2.0**64 else w for v, w in zip(values, want.tolist())],
                np.uint64,
            )
        np.testing.assert_array_equal(got, want, err_msg=dst)
        assert got.tolist() == [f2i_model(v, dst) for v in values]
    # a few values spelled out
    i32 = to_numpy(_core.astype(to_core(a), "int32")).tolist()
    assert i32[:3] == [0, 0, 0] and i32[7] == 3_000_000_000 - 2**32 and i32[9] == 2**20 + 2**18
    assert to_numpy(_core.astype(to_core(a), "int64")).tolist()[0] == -(2**63)
    u64 = to_numpy(_core.astype(to_core(a), "uint64")).tolist()
    assert u64[0] == 2**63 and u64[5] == 2**63 and u64[8] == 2**64 - 3_000_000_000
    assert u64[12] == 2**63 + 2**40
    assert to_numpy(_core.astype(to_core(a), "uint8")).tolist()[10:12] == [44, 212]


# ---------------------------------------------------------------- overlap


def along(dim, nd, s):
    return tuple(s if d == dim else slice(None) for d in range(nd))


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_copy_between_overlapping_views(dt, data):
    """dst and src share storage: the result is as if src were read first."""
    a = data.draw(
        arrays(dt, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6)), label="a"
    )
    dim = data.draw(st.integers(0, a.ndim - 1), label="dim")
    k = data.draw(st.integers(1, a.shape[dim]), label="shift")
    kind = data.draw(st.sampled_from(["forward", "backward", "flip", "transpose"]), label="kind")
    base = to_core(a)
    n = a.shape[dim]
    want = a.copy()
    if kind == "forward":  # a[:-k] = a[k:]
        dst, src = _views.slice_dim(base, dim, 0, n - k, 1), _views.slice_dim(base, dim, k, n, 1)
        want[along(dim, a.ndim, slice(0, n - k))] = a[along(dim, a.ndim, slice(k, n))].copy()
    elif kind == "backward":  # a[k:] = a[:-k]
        dst, src = _views.slice_dim(base, dim, k, n, 1), _views.slice_dim(base, dim, 0, n - k, 1)
        want[along(dim, a.ndim, slice(k, n))] = a[along(dim, a.ndim, slice(0, n - k))].copy()
    elif kind == "flip":  # a = a[::-1] along dim
        dst, src = base, _views.flip(base, dim)
        want = np.flip(a, dim).copy()
    else:  # a square block = its transpose
        m = min(a.shape[0], a.shape[-1])
        sq = _views.narrow(_views.narrow(base, 0, 0, m), a.ndim - 1, 0, m)
        dst, src = sq, _views.transpose(sq, 0, a.ndim - 1)
        block = (
            (slice(0, m),) + (slice(None),) * (a.ndim - 2) + (slice(0, m),)
            if a.ndim > 1
            else (slice(0, m),)
        )
        want[block] = np.swapaxes(a[block], 0, a.ndim - 1).copy()
    _core.copy_(dst, src)
    assert_same(to_numpy(base), want)


INTS_AND_SAME = [(s, d) for s in INT_NAMES for d in INT_NAMES]


@st.composite
def byte_view(draw, nelem, self_overlap_ok):
    """(offset, shape, strides) in elements, fitting [0, nelem)."""
    nd = draw(st.integers(0, 3))
    shape = draw(st.lists(st.integers(0, 4), min_size=nd, max_size=nd))
    strides = draw(st.lists(st.integers(-5, 5), min_size=nd, max_size=nd))
    numel = math.prod(shape)
    lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0 and n)
    hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0 and n)
    if numel == 0:
        return draw(st.integers(0, nelem)), shape, strides
    assume(hi - lo < nelem)
    if not self_overlap_ok:
        reached = {sum(i * s for i, s in zip(idx, strides)) for idx in np.ndindex(*shape)}
        assume(len(reached) == numel)
    return draw(st.integers(-lo, nelem - 1 - hi)), shape, strides


@given(data=st.data())
def test_copy_overlap_through_reinterpreted_bytes(data):
    """Two arbitrary views of one byte buffer, of integer dtypes that may
    differ: copying (and casting) between them equals numpy's copy-then-cast,
    and no byte outside the destination changes."""
    src_dt, dst_dt = data.draw(st.sampled_from(INTS_AND_SAME), label="dtypes")
    nbytes = 96
    raw = data.draw(st.binary(min_size=nbytes, max_size=nbytes), label="bytes")
    block = np.zeros(nbytes + 64, np.uint8)
    start = (-block.ctypes.data) % 64
    buf = block[start : start + nbytes]
    buf[:] = np.frombuffer(raw, np.uint8)
    storage = borrow(buf)
    si, di = NUMPY[src_dt].itemsize, NUMPY[dst_dt].itemsize
    d_off, d_shape, d_strides = data.draw(byte_view(nbytes // di, False), label="dst")
    s_shape = data.draw(
        hnp.broadcastable_shapes(
            tuple(d_shape), min_dims=0, max_dims=len(d_shape), min_side=0
        ).filter(lambda s: np.broadcast_shapes(s, tuple(d_shape)) == tuple(d_shape)),
        label="src_shape",
    )
    nd = len(s_shape)
    s_strides = data.draw(st.lists(st.integers(-5, 5), min_size=nd, max_size=nd), label="s_strides")
    numel = math.prod(s_shape)
    lo = sum((n - 1) * s for n, s in zip(s_shape, s_strides) if s < 0 and n)
    hi = sum((n - 1) * s for n, s in zip(s_shape, s_strides) if s > 0 and n)
    assume(numel == 0 or hi - lo < nbytes // si)
    s_off = data.draw(
        st.integers(-lo, nbytes // si - 1 - hi) if numel else st.just(0), label="s_off"
    )

    def model_view(b, dt, off, shape, strides):
        typed = b.view(NUMPY[dt])
        item = NUMPY[dt].itemsize
        return np.lib.stride_tricks.as_strided(
            typed[off:] if off < typed.size else typed[:0],
            shape,
            [s * item for s in strides],
            writeable=True,
        )

    model = buf.copy()
    if math.prod(d_shape):
        src_vals = model_view(model, src_dt, s_off, s_shape, s_strides).copy()
        model_view(model, dst_dt, d_off, d_shape, d_strides)[...] = numpy_cast(
            np.broadcast_to(src_vals, d_shape), dst_dt
        )
    dst = storage.view(d_off, d_shape, d_strides, dst_dt)
    src = storage.view(s_off, s_shape, s_strides, src_dt)
    _core.copy_(dst, src)
    assert buf.tobytes() == model.tobytes()


# ---------------------------------------------------------------- fill


def fill_values(dt):
    kind = NUMPY[dt].kind
    if kind == "b":
        return st.booleans()
    if kind in "iu":
        lo, hi = int_bounds(dt)
        return st.integers(lo, hi)
    if kind == "f":
        return st.floats(width=WIDTH[dt])
    return st.complex_numbers(width=2 * WIDTH[dt])


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_fill_every_dtype(dt, data):
    shape = data.draw(shapes, label="shape")
    value = data.draw(fill_values(dt), label="value")
    buffer, view = data.draw(writable_layout(shape, dt), label="dst")
    c = borrow(view)
    assert _core.fill_(c, value) is c
    assert_same(view.copy(), np.full(shape, value, NUMPY[dt]))
    outside_unchanged(buffer, view, dt)
    full = _core.full(shape, value, dt)
    assert full.is_contiguous()
    assert_same(to_numpy(full), np.full(shape, value, NUMPY[dt]))
    assert_same(to_numpy(_core.scalar(value, dt)), np.array(value, NUMPY[dt]))


@pytest.mark.parametrize("dt", INT_NAMES)
def test_fill_refuses_values_that_do_not_fit(dt):
    lo, hi = int_bounds(dt)
    c = _core.full((3,), 1, dt)
    for bad, exc in [
        (hi + 1, OverflowError),
        (lo - 1, OverflowError),
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        (1 + 2j, TypeError),
    ]:
        with pytest.raises(exc):
            _core.fill_(c, bad)
    assert to_numpy(c).tolist() == [1, 1, 1]
    _core.fill_(c, 2.9)  # a float truncates like a cast
    assert to_numpy(c).tolist() == [2, 2, 2]
    _core.fill_(c, hi)
    assert to_numpy(c).tolist() == [hi] * 3


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_fill_float_refuses_complex(dt):
    with pytest.raises(TypeError):
        _core.fill_(_core.Core.empty((2,), dt), 1j)


# ---------------------------------------------------------------- values in and out


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@given(data=st.data())
def test_nested_round_trip(dt, data):
    """tolist gives numpy's nesting and Python types; from_nested reads them back."""
    a = data.draw(laid_out(dt), label="a")
    c = borrow(a)
    got = _core.tolist(c)
    if a.size == 0:
        assert got == a.tolist()
        return
    assert np.array(got, NUMPY[dt]).shape == a.shape
    assert_same(np.array(got, NUMPY[dt]), a.copy())
    leaf = got
    while isinstance(leaf, list) and leaf:
        leaf = leaf[0]
    if not isinstance(leaf, list):
        assert type(leaf) is type(a.flat[0].item())
    back = _core.from_nested(got, dt)
    assert_same(to_numpy(back), a.copy())
    if a.size == 1:
        assert_same(np.array(_core.item(c), NUMPY[dt]), np.array(a.item(), NUMPY[dt]))
    else:
        with pytest.raises(ValueError, match="one-element"):
            _core.item(c)


# ---------------------------------------------------------------- refusals


def _readonly_writers():
    def copy(c):
        _core.copy_(c, to_core(np.zeros(c.shape, NUMPY[c.dtype.name])))

    def fill(c):
        _core.fill_(c, 0)

    def unary(c):
        _ops.unary("negative", to_core(np.zeros(c.shape, NUMPY[c.dtype.name])), out=c)

    def binary(c):
        z = to_core(np.zeros(c.shape, NUMPY[c.dtype.name]))
        _ops.binary("add", z, z, out=c)

    def where(c):
        z = to_core(np.zeros(c.shape, NUMPY[c.dtype.name]))
        _ops.where(to_core(np.ones(c.shape, bool)), z, z, out=c)

    def clamp(c):
        z = to_core(np.zeros(c.shape, NUMPY[c.dtype.name]))
        _ops.clamp(z, z, z, out=c)

    return [copy, fill, unary, binary, where, clamp]


@pytest.mark.parametrize("write", _readonly_writers(), ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", ["int32", "float64"])
def test_readonly_borrow_refuses_writes(write, dt):
    a = np.arange(1, 7, dtype=NUMPY[dt]).reshape(2, 3)
    a.flags.writeable = False
    c = borrow(a)
    assert c.readonly
    with pytest.raises(ValueError, match="read-only"):
        write(c)
    with pytest.raises(ValueError, match="read-only"):
        write(_views.transpose(_views.slice_dim(c, 1, 0, 2, 1), 0, 1))
    assert a.tolist() == np.arange(1, 7).reshape(2, 3).tolist()


def test_readonly_borrow_can_be_read():
    a = np.arange(6.0)
    a.flags.writeable = False
    c = borrow(a)
    assert to_numpy(_core.astype(c, "int16")).tolist() == list(range(6))
    out = _core.Core.empty((6,), "float64")
    _core.copy_(out, c)
    assert to_numpy(out).tolist() == a.tolist()


@pytest.mark.parametrize(
    "dst_shape,src_shape",
    [
        ((2, 3), (2,)),
        ((2, 3), (4,)),
        ((3,), (0,)),
        ((0,), (3,)),
        ((2, 3), (3, 2)),
        ((3,), (2, 3)),
        ((), (2,)),
        ((4, 1), (4, 2)),
    ],
)
def test_copy_shape_mismatch_raises(dst_shape, src_shape):
    dst = _core.full(dst_shape, 5, "int16")
    src = _core.full(src_shape, 1, "int16")
    with pytest.raises(ValueError, match="broadcast"):
        _core.copy_(dst, src)
    assert (to_numpy(dst) == 5).all()


# ---- large copies and casts: streamed (non-temporal) stores, cache tiles,
# every alignment and odd sizes, 1 and 2 threads

import strided  # noqa: E402


@pytest.fixture(params=[1, 2])
def nthreads(request):
    before = strided.getnumthreads()
    strided.setnumthreads(request.param)
    yield request.param
    strided.setnumthreads(before)


@pytest.mark.parametrize("dt", ["float64", "float32", "int8", "complex128"])
def test_large_transposed_copy(nthreads, dt):
    rng = np.random.default_rng(0)
    side = {
        "float64": (1501, 1403),
        "float32": (2103, 2001),
        "int8": (4001, 4099),
        "complex128": (1001, 1003),
    }[dt]
    src = (rng.standard_normal(side) * 50).astype(dt)
    dst = _core.Core.empty((side[1], side[0]), dt)
    _core.copy_(dst, _views.transpose(to_core(src), 0, 1))
    np.testing.assert_array_equal(to_numpy(dst), src.T)


@pytest.mark.parametrize(
    "src_dt,dst_dt",
    [
        ("float64", "float32"),
        ("float32", "float64"),
        ("int64", "float64"),
        ("float64", "int32"),
        ("float64", "float64"),
        ("bool", "float32"),
    ],
)
@pytest.mark.parametrize("skew", [0, 1])
def test_large_cast_matches_numpy(nthreads, src_dt, dst_dt, skew):
    n = 4_000_001
    rng = np.random.default_rng(skew)
    src = (rng.standard_normal(n + skew) * 1000).astype(src_dt)
    want = src[skew:].astype(dst_dt)
    out = np.zeros(n + skew + 1, dst_dt)
    _core.copy_(borrow(out[skew : skew + n]), borrow(src[skew:]))
    np.testing.assert_array_equal(out[skew : skew + n], want)
    assert not out[:skew].any() and out[-1] == 0


@pytest.mark.parametrize("skew", [0, 1, 3])
def test_large_narrowing_to_float16_streams_every_element(nthreads, skew):
    """float32 -> float16 at a size that streams (st_stream_worth: 32 MB of
    operands, a resident output): the vector conversion into an L1 buffer
    and streamed out, the head up to a 64-byte line and the tail stored
    plainly; the same through a 16-bit op's rounding back (x + y)."""
    n = 6_000_007
    rng = np.random.default_rng(skew)
    src = (rng.standard_normal(n + skew) * 1000).astype("float32")
    out = np.full(n + skew + 1, 7, "float16")  # written: its pages resident
    _core.copy_(borrow(out[skew : skew + n]), borrow(src[skew:]))
    np.testing.assert_array_equal(out[skew : skew + n], src[skew:].astype("float16"))
    assert (out[:skew] == 7).all() and out[-1] == 7
    a = src[skew:].astype("float16")
    b = (rng.standard_normal(n) * 10).astype("float16")
    got = _ops.binary("add", borrow(a), borrow(b))
    _ops.binary("add", borrow(a), borrow(b), out=got)  # again, into resident pages
    np.testing.assert_array_equal(to_numpy(got), a + b)


@pytest.mark.parametrize("dt", ["int8", "int16", "float32", "float64", "complex128"])
@given(
    rows=st.integers(2, 50),
    cols=st.integers(1, 40),
    pad=st.integers(0, 3),
    step=st.sampled_from([1, 2]),
)
def test_same_type_copies_of_short_rows(dt, rows, cols, pad, step):
    """A copy whose inner dim holds at most 256 bytes moves blocks of rows
    (copy.c, move_short_inner; rows of contiguous elements by one memcpy
    each): into a padded or stepped destination, from a contiguous, a
    stepped or a transposed source, element for element numpy's."""
    rng = np.random.default_rng(rows * 100 + cols)
    x = (rng.standard_normal((rows, cols * step)) * 50).astype(dt)[:, ::step]
    for src in (x, np.ascontiguousarray(x), np.ascontiguousarray(x.T).T):
        mem = np.zeros((rows + 2 * pad, (cols + 2 * pad) * step), dt)
        want = mem.copy()
        want[pad : pad + rows, pad * step : (pad + cols) * step : step] = src
        dst = to_core(mem)
        view = _views.slice_dim(
            _views.narrow(dst, 0, pad, rows), 1, pad * step, (pad + cols) * step, step
        )
        _core.copy_(view, borrow(src))
        np.testing.assert_array_equal(to_numpy(dst), want)


@pytest.mark.parametrize(
    "rows,cols,pad_cols,at",
    [
        (20_000, 200, 6, 3),  # rows of 1600 bytes inside lines: plain stores
        (20_000, 200, 8, 0),  # rows of whole lines: streamed
        (1_000, 2_100, 6, 3),  # rows of 16800 bytes: streamed, partial lines in place
    ],
)
def test_large_copies_into_the_rows_of_a_padded_array(nthreads, rows, cols, pad_cols, at):
    """xpx.pad's `padded[3:-3, 3:-3] = x` at 32 MB and more (st_stream_worth
    asks rows_stream_well): every row's elements arrive, the border stays,
    for a copy and for a binary op's output."""
    rng = np.random.default_rng(cols)
    x = rng.standard_normal((rows, cols))
    padded = np.full((rows + 6, cols + pad_cols), -1.0)  # written: resident pages
    inner = (slice(3, 3 + rows), slice(at, at + cols))
    _core.copy_(borrow(padded[inner]), borrow(x))
    want = np.full_like(padded, -1.0)
    want[inner] = x
    np.testing.assert_array_equal(padded, want)
    _ops.binary("multiply", borrow(x), borrow(x), out=borrow(padded[inner]))
    want[inner] = x * x
    np.testing.assert_array_equal(padded, want)

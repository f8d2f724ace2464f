"""The matrix product (strided/_c/matmul.c through strided/_ops.matmul),
numpy's matmul as the oracle: every dtype, batched and broadcast batch
shapes, any layout (transposed, stepped, reversed, zero strides), empty
dims, 1-D promotion, dtype promotion, errors, and outputs that overlap an
input.

Integers wrap modulo 2^bits like numpy's, so integer results must be equal
bit for bit (also when they overflow); bool is the or of ands; floats and
complex accumulate in their own type (float32 in float32, like BLAS), so
they are compared within a bound of k * eps * sum |a||b|."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import DTYPE_NAMES, NUMPY, borrow, layouts, to_core, to_numpy
from strided.core import base as _core, linalg as _linalg, ops as _ops, views as _views
from strided._c._strided import lib

EPS = {"float32": 1.2e-7, "complex64": 1.2e-7, "float64": 2.3e-16, "complex128": 2.3e-16}


def values(rng, shape, dt, lo=-5, hi=5):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind == "u":
        return rng.integers(0, hi, shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(lo, hi, shape).astype(dt)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def oracle(a, b):
    """numpy's matmul; bool computed exactly through int64."""
    if a.dtype == np.bool_:
        return (a.astype(np.int64) @ b.astype(np.int64)) > 0
    with np.errstate(all="ignore"):
        return np.matmul(a, b)


def assert_matches(got, a, b):
    want = oracle(a, b)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if got.dtype.kind in "fc":
        k = a.shape[-1]
        bound = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
        tol = 4 * (k + 1) * EPS[got.dtype.name] * bound + 1e-30
        assert np.all(np.abs(got.astype(np.complex128) - want) <= tol), (got, want)
    else:
        np.testing.assert_array_equal(got, want)


def mm(a, b, **kw):
    return to_numpy(_ops.matmul(borrow(a), borrow(b), **kw))


# ---------------------------------------------------------------- every dtype, shapes


@pytest.mark.parametrize("dt", DTYPE_NAMES)
@pytest.mark.parametrize(
    "sa, sb",
    [
        ((1, 1), (1, 1)),
        ((3, 4), (4, 5)),
        ((7, 13), (13, 3)),
        ((17, 300), (300, 19)),
        ((130, 9), (9, 70)),
        ((2, 3, 4), (2, 4, 5)),
        ((3, 1, 5, 6), (4, 6, 2)),
        ((5, 6), (2, 3, 6, 7)),
        ((1, 2, 3), (4, 1, 3, 2)),
    ],
)
def test_every_dtype_against_numpy(dt, sa, sb):
    rng = np.random.default_rng(hash((dt, sa, sb)) % 2**32)
    a, b = values(rng, sa, dt), values(rng, sb, dt)
    assert_matches(mm(a, b), a, b)


@pytest.mark.parametrize(
    "dt", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
)
def test_integers_wrap_like_numpy(dt):
    rng = np.random.default_rng(1)
    info = np.iinfo(dt)
    a = rng.integers(info.min, info.max, (9, 40), dtype=dt, endpoint=True)
    b = rng.integers(info.min, info.max, (40, 11), dtype=dt, endpoint=True)
    np.testing.assert_array_equal(mm(a, b), np.matmul(a, b))


def test_bool_is_or_of_ands():
    a = np.array([[True, False], [False, False]])
    b = np.array([[True, True], [True, False]])
    np.testing.assert_array_equal(mm(a, b), [[True, True], [False, False]])
    rng = np.random.default_rng(2)
    a, b = rng.random((20, 300)) < 0.01, rng.random((300, 30)) < 0.01
    assert_matches(mm(a, b), a, b)


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "complex128"])
def test_blocks_and_edges(dt):
    """Sizes that cross the packing blocks (k > 256, n > 128, m > 1024) and
    leave ragged edge tiles."""
    rng = np.random.default_rng(3)
    for sa, sb in [((129, 257), (257, 17)), ((5, 600), (600, 1030)), ((260, 3), (3, 9))]:
        a, b = values(rng, sa, dt), values(rng, sb, dt)
        assert_matches(mm(a, b), a, b)


def test_float32_accumulates_in_float32():
    # 2^24 + 1 + 1 ... : a float32 accumulator loses the ones, like BLAS sgemm
    a = np.array([[2.0**24, 1.0, 1.0, 1.0, 1.0]], np.float32)
    b = np.ones((5, 1), np.float32)
    got = mm(a, b)
    assert got.dtype == np.float32
    assert got[0, 0] in (np.float32(2**24), np.float32(2**24 + 4))


# ---------------------------------------------------------------- layouts


@pytest.mark.parametrize("dt", ["float64", "float32", "int16", "complex64", "bool"])
@given(data=st.data())
def test_any_layout(dt, data):
    n, k, m = (data.draw(st.integers(1, 9)) for _ in range(3))
    batch = data.draw(st.sampled_from([(), (2,), (3, 1)]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = data.draw(layouts(values(rng, batch + (n, k), dt)))
    b = data.draw(layouts(values(rng, (k, m), dt)))
    assert_matches(mm(a, b), a, b)


def test_transposed_and_strided_inputs_and_output():
    rng = np.random.default_rng(4)
    base_a = rng.standard_normal((40, 60))
    base_b = rng.standard_normal((70, 50))
    a = base_a[::2, ::3].T  # (20, 20): both strides non-unit
    b = base_b[::-3, 1::2][:20, :20].T  # negative and stepped strides
    big = np.zeros((60, 80))
    outv = big[::3, ::2][: a.shape[0], : b.shape[1]].T.T
    out = borrow(outv)
    _ops.matmul(borrow(a), borrow(b), out=out)
    np.testing.assert_allclose(outv, a @ b, rtol=1e-12, atol=1e-12)
    assert np.count_nonzero(big) == a.shape[0] * b.shape[1]  # wrote only the view


def test_zero_strides():
    a = np.broadcast_to(np.arange(4.0), (5, 4))  # every row the same
    b = np.broadcast_to(np.arange(3.0)[None, :], (4, 3))
    assert_matches(mm(a, b), a, b)
    a3 = np.broadcast_to(np.arange(6.0).reshape(2, 3), (4, 2, 3))  # zero batch stride
    b3 = np.arange(12.0).reshape(3, 4)
    assert_matches(mm(a3, b3), a3, b3)


def test_output_with_zero_stride_is_computed_through_a_temporary():
    a = np.ones((2, 3))
    b = np.arange(6.0).reshape(3, 2)
    mem = np.zeros(2)
    base = borrow(mem)
    out = base.view(base.offset, (2, 2), (0, 1))
    # every row of out is the same memory: the last row written wins
    _ops.matmul(borrow(a), borrow(b), out=out)
    np.testing.assert_array_equal(mem, (a @ b)[1])


# ---------------------------------------------------------------- empty dims


@pytest.mark.parametrize("dt", DTYPE_NAMES)
def test_empty_k_gives_zeros(dt):
    a, b = np.zeros((3, 0), NUMPY[dt]), np.zeros((0, 4), NUMPY[dt])
    out = borrow(np.full((3, 4), 1, NUMPY[dt]))
    got = to_numpy(_ops.matmul(borrow(a), borrow(b), out=out))
    np.testing.assert_array_equal(got, np.zeros((3, 4), NUMPY[dt]))


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((0, 3), (3, 4)),
        ((3, 4), (4, 0)),
        ((0, 2, 3), (3, 4)),
        ((2, 0, 3), (2, 3, 5)),
        ((0, 0), (0, 0)),
        ((5, 0), (0,)),
        ((1, 0, 3, 4), (7, 1, 4, 2)),
    ],
)
def test_empty_dims(sa, sb):
    a, b = np.ones(sa), np.ones(sb)
    assert_matches(mm(a, b), a, b)


# ---------------------------------------------------------------- 1-D promotion, dtypes


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((4,), (4,)),
        ((4,), (4, 3)),
        ((3, 4), (4,)),
        ((2, 3, 4), (4,)),
        ((4,), (2, 4, 3)),
        ((1,), (1, 5)),
    ],
)
def test_one_dimensional_promotion(sa, sb):
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    got = mm(a, b)
    want = np.matmul(a, b)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "da, db",
    [
        ("int8", "uint8"),
        ("int32", "float32"),
        ("uint64", "int64"),
        ("bool", "int16"),
        ("float32", "complex64"),
        ("float64", "complex64"),
        ("int64", "float32"),
        ("uint16", "float32"),
    ],
)
def test_result_dtype_is_the_common_dtype(da, db):
    rng = np.random.default_rng(6)
    a, b = values(rng, (3, 4), da, 0), values(rng, (4, 2), db, 0)
    got = mm(a, b)
    want = np.matmul(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_common_dtype_is_numpys():
    for x in DTYPE_NAMES:
        for y in DTYPE_NAMES:
            assert _ops.common_dtype(x, y).name == np.result_type(NUMPY[x], NUMPY[y]).name


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "sa, sb, pattern",
    [
        ((3, 4), (5, 6), r"shapes \(3, 4\) and \(5, 6\) do not match"),
        ((4,), (3,), r"shapes \(4,\) and \(3,\) do not match"),
        (
            (2, 3, 4),
            (3, 4, 5),
            r"batch dims of shapes \(2, 3, 4\) and \(3, 4, 5\) do not broadcast",
        ),
        ((), (3,), r"at least one dimension"),
    ],
)
def test_bad_shapes_raise_value_error(sa, sb, pattern):
    with pytest.raises(ValueError, match=pattern):
        _ops.matmul(to_core(np.ones(sa)), to_core(np.ones(sb)))


def test_bad_out_raises():
    a, b = to_core(np.ones((2, 3))), to_core(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"out has shape \(2, 5\), expected \(2, 4\)"):
        _ops.matmul(a, b, out=_core.Core.empty((2, 5), "float64"))
    with pytest.raises(TypeError, match="out has dtype float32, expected float64"):
        _ops.matmul(a, b, out=_core.Core.empty((2, 4), "float32"))
    ro = np.zeros((2, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _ops.matmul(a, b, out=borrow(ro))


def test_c_checks():
    """The C entry point checks everything itself, before writing."""
    f = lambda *s: _core.Core.empty(s, "float64")
    out = to_core(np.full((2, 4), 7.0))

    def call(o, a, b):
        return _core.check(lib.st_matmul(o.t, a.t, b.t))

    with pytest.raises(TypeError, match="one dtype"):
        call(out, f(2, 3), _core.Core.empty((3, 4), "float32"))
    with pytest.raises(TypeError, match="one dtype"):
        call(_core.Core.empty((2, 4), "int32"), f(2, 3), f(3, 4))
    with pytest.raises(ValueError, match=r"a's last dim \(3\) must equal b's second-to-last \(5\)"):
        call(out, f(2, 3), f(5, 4))
    with pytest.raises(ValueError, match=r"at least 2 dims"):
        call(out, f(3), f(3, 4))
    with pytest.raises(ValueError, match=r"do not broadcast: 2 vs 3"):
        call(_core.Core.empty((2, 2, 4), "float64"), f(2, 2, 3), f(3, 3, 4))
    with pytest.raises(ValueError, match=r"out has shape \(2, 4\), expected \(3, 2, 4\)"):
        call(out, f(3, 2, 3), f(3, 4))
    np.testing.assert_array_equal(to_numpy(out), np.full((2, 4), 7.0))


def test_mismatched_dtypes_through_ops_promote_but_c_refuses():
    a = to_core(np.ones((2, 3), np.float32))
    b = to_core(np.ones((3, 2), np.float64))
    assert _ops.matmul(a, b).dtype is _core.float64
    with pytest.raises(TypeError):
        _core.check(lib.st_matmul(_core.Core.empty((2, 2), "float64").t, a.t, b.t))


# ---------------------------------------------------------------- overlap


def test_out_overlapping_an_input():
    rng = np.random.default_rng(7)
    for dt in ["float64", "int32"]:
        a0 = values(rng, (6, 6), dt)
        b0 = values(rng, (6, 6), dt)
        want = oracle(a0, b0)
        a = to_core(a0)
        _ops.matmul(a, to_core(b0), out=a)  # out is a
        np.testing.assert_allclose(to_numpy(a), want, rtol=1e-12)
        b = to_core(b0)
        _ops.matmul(to_core(a0), b, out=b)  # out is b
        np.testing.assert_allclose(to_numpy(b), want, rtol=1e-12)
        s = to_core(a0)
        _ops.matmul(s, s, out=s)  # a @ a into a
        np.testing.assert_allclose(to_numpy(s), oracle(a0, a0), rtol=1e-12)
    # out a transposed view of the input's memory
    mem = rng.standard_normal((5, 5))
    want = mem @ mem
    c = to_core(mem)
    _ops.matmul(c, c, out=c.view(c.offset, (5, 5), (1, 5)))
    np.testing.assert_allclose(to_numpy(c).T, want, rtol=1e-12)


# ---------------------------------------------------------------- threads


@pytest.mark.parametrize(
    "shapes", [((300, 200), (200, 310)), ((64, 20, 30), (30, 25)), ((3, 200, 300), (3, 300, 50))]
)
@pytest.mark.parametrize("dt", ["int64", "float64"])
def test_results_do_not_depend_on_threads(shapes, dt):
    """Our own kernel (integers) computes each element by the same
    operations whatever the thread count: equal bit for bit.  Floats run on
    OpenBLAS, whose edge kernels depend on how the threads split the
    matrix: equal within rounding, and right at every thread count."""
    rng = np.random.default_rng(8)
    a, b = values(rng, shapes[0], dt), values(rng, shapes[1], dt)
    old = _core.getnumthreads()
    try:
        res = []
        for nt in (1, 2, 3):
            _core.setnumthreads(nt)
            res.append(mm(a, b))
    finally:
        _core.setnumthreads(old)
    for r in res:
        assert_matches(r, a, b)
    if dt == "int64":
        np.testing.assert_array_equal(res[0], res[1])
        np.testing.assert_array_equal(res[0], res[2])


@pytest.mark.parametrize("dt", ["float64", "float32", "complex128"])
@pytest.mark.parametrize(
    "shapes",
    [((8, 128, 128), (8, 128, 128)), ((6, 200, 90), (90, 150)), ((2, 4, 64, 100), (4, 100, 64))],
)
def test_batches_of_middle_sized_products_are_one_thread_each(shapes, dt):
    """A batch of middle-sized products (here up to 200 x 150 x 90) is shared
    out over our threads, each product one single-threaded OpenBLAS call:
    the same calls as on one thread, so equal bit for bit at any thread
    count; and OpenBLAS's own pool is left at one thread (only LAPACK
    uses it)."""
    from strided._c import _BLAS

    rng = np.random.default_rng(10)
    a, b = values(rng, shapes[0], dt), values(rng, shapes[1], dt)
    old = _core.getnumthreads()
    try:
        res = []
        for nt in (1, 2, 3):
            _core.setnumthreads(nt)
            res.append(mm(a, b))
            assert _BLAS.scipy_openblas_get_num_threads() == 1
    finally:
        _core.setnumthreads(old)
    assert_matches(res[0], a, b)
    for r in res[1:]:
        np.testing.assert_array_equal(r, res[0])


def test_batches_from_several_python_threads_at_once():
    """Single-threaded sections of several Python threads overlap (the GIL is
    released in C), beside a large product split over our threads: every
    result is right; OpenBLAS's pool stays at one thread until a LAPACK
    call wants strided's count."""
    import threading
    from strided._c import _BLAS

    rng = np.random.default_rng(11)
    small = [
        (values(rng, (6, 96, 96), "float64"), values(rng, (6, 96, 96), "float64")) for _ in range(3)
    ]
    big = (values(rng, (400, 400), "float64"), values(rng, (400, 400), "float64"))
    errors = []

    def run(a, b, reps):
        try:
            for _ in range(reps):
                assert_matches(mm(a, b), a, b)
        except Exception as e:  # reported below
            errors.append(e)

    old = _core.getnumthreads()
    try:
        _core.setnumthreads(2)
        threads = [threading.Thread(target=run, args=(a, b, 20)) for a, b in small]
        threads.append(threading.Thread(target=run, args=(*big, 5)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        mm(*big)
        assert _BLAS.scipy_openblas_get_num_threads() == 1
        _linalg.inv(to_core(np.eye(1024)))  # a LAPACK call that wants the threads
        assert _BLAS.scipy_openblas_get_num_threads() == 2
    finally:
        _core.setnumthreads(old)


def _layout(x, how):
    """x (2-D) laid out as `how`: row-major, column-major, or stepped (two
    non-unit strides: BLAS reads it only from a packed copy)"""
    if how == "column":
        return np.asfortranarray(x)
    if how == "stepped":
        mem = np.zeros((2 * x.shape[0], 3 * x.shape[1]), x.dtype)
        mem[::2, ::3] = x
        return mem[::2, ::3]
    return np.ascontiguousarray(x)


@pytest.mark.parametrize("dt", ["float64", "float32", "complex128"])
@pytest.mark.parametrize(
    "shapes",
    [
        ((300, 200), (200, 50)),
        ((40, 200), (200, 500)),
        ((17, 3000), (3000, 20)),
        ((2, 150, 90), (90, 170)),
        # one column or one row of result: ?gemv per band
        ((6000, 80), (80, 1)),
        ((1, 6000), (6000, 80)),
        ((1, 300), (300, 1)),
        ((3, 1, 400), (400, 500)),
    ],
)
@pytest.mark.parametrize("how", ["row", "column", "stepped"])
def test_large_products_split_into_bands_over_our_threads(dt, shapes, how):
    """A product past OpenBLAS's one-thread size is split into bands of
    rows (or of columns, when wider than tall), one single-threaded call per
    thread of ours (?gemv for a result of one row or column): right at 1, 2
    and 3 threads whatever the layout (a stepped operand is packed first),
    into a row-major, stepped or column-major result, band edges at any
    remainder, and OpenBLAS's own pool left at one thread."""
    from strided._c import _BLAS

    rng = np.random.default_rng(14)
    a, b = values(rng, shapes[0], dt), values(rng, shapes[1], dt)
    if a.ndim == 2:
        a, b = _layout(a, how), _layout(b, how)
    old = _core.getnumthreads()
    try:
        for nt in (1, 2, 3):
            _core.setnumthreads(nt)
            assert_matches(mm(a, b), a, b)
            assert _BLAS.scipy_openblas_get_num_threads() == 1
            if a.ndim == 2:
                n, m = a.shape[0], b.shape[1]
                mem = np.full((2 * n, 2 * m), np.nan, dt)
                for got in (mem[:n, :m], mem[::2, ::2], np.asfortranarray(mem[:n, :m])):
                    _ops.matmul(borrow(a), borrow(b), out=borrow(got))
                    assert_matches(got, a, b)
    finally:
        _core.setnumthreads(old)


@pytest.mark.parametrize("dt", ["float64", "complex64"])
@pytest.mark.parametrize("case", ["at_a", "a_at", "column_out", "stepped_out"])
@pytest.mark.parametrize("n", [33, 260])
def test_large_products_of_a_matrix_and_its_transpose_split_by_triangle_areas(dt, case, n):
    """A large X^T X (or X X^T) is ?syrk split into bands of the upper
    triangle (a diagonal block by ?syrk, the rectangle right of it by
    ?gemm, edges balancing the areas), then mirrored: numpy's within
    rounding and exactly symmetric at 1, 2 and 3 threads; n = 33 leaves
    too few rows for more than 2 bands of 16."""
    rng = np.random.default_rng(15)
    x = values(rng, (300, n), dt)
    if case == "a_at":
        x = np.ascontiguousarray(x.T)
    c = borrow(x)
    ct = _views.transpose(c, 0, 1)
    a, b = (c, ct) if case == "a_at" else (ct, c)
    xa, xb = (x, x.T) if case == "a_at" else (x.T, x)
    old = _core.getnumthreads()
    try:
        for nt in (1, 2, 3):
            _core.setnumthreads(nt)
            if case in ("column_out", "stepped_out"):
                mem = np.full((2 * n, 2 * n), np.nan, dt)
                got = mem[:n, :n].T if case == "column_out" else mem[::2, ::2]
                _ops.matmul(a, b, out=borrow(got))
            else:
                got = to_numpy(_ops.matmul(a, b))
            assert_matches(got, xa, xb)
            if case != "stepped_out":  # through a temporary: ?gemm, not ?syrk
                np.testing.assert_array_equal(got, got.T)
    finally:
        _core.setnumthreads(old)


@pytest.mark.parametrize("alpha, beta", [(2.0, 0.0), (-1.0, 0.5)])
def test_large_addmm_splits_with_alpha_and_beta(alpha, beta):
    """addmm's alpha and beta reach every band (beta reads each band's own
    rows of the output)."""
    rng = np.random.default_rng(16)
    a, b, c = (values(rng, s, "float64") for s in ((310, 120), (120, 90), (310, 90)))
    out = to_core(c)
    old = _core.getnumthreads()
    try:
        _core.setnumthreads(2)
        _linalg.addmm(out, borrow(a), borrow(b), alpha, beta)
    finally:
        _core.setnumthreads(old)
    np.testing.assert_allclose(to_numpy(out), alpha * (a @ b) + beta * c, rtol=1e-12, atol=1e-12)


def test_addmv_by_gemv_with_alpha_and_beta():
    rng = np.random.default_rng(18)
    a, b, c = (values(rng, s, "float64") for s in ((5000, 70), (70, 1), (5000, 1)))
    out = to_core(c)
    _linalg.addmm(out, borrow(a), borrow(b), 2.0, -0.5)
    np.testing.assert_allclose(to_numpy(out), 2.0 * (a @ b) - 0.5 * c, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- a vector times rows


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("k, m", [(20000, 200), (5, 100000), (3000, 3000), (70, 9), (1, 8)])
def test_vector_times_contiguous_rows_is_the_same_at_every_thread_count(dt, k, m):
    """g @ X with X's rows contiguous reads each row once into rows of
    accumulators (matmul.c, vecmat): chunks of rows fixed by the shape,
    added in chunk order, columns in pieces when the chunks are too few:
    numpy's within rounding and equal bit for bit at 1, 2 and 3 threads,
    also with a stepped vector, stepped rows and a stepped output."""
    rng = np.random.default_rng(19)
    g, x = values(rng, (1, k), dt), values(rng, (k, m), dt)
    mem = values(rng, (k, 2 * m), dt)
    mem[:, :m] = x
    layouts = [(g, x), (np.repeat(g, 3, axis=1)[:, ::3], mem[:, :m])]
    old = _core.getnumthreads()
    try:
        for a, b in layouts:
            res = []
            for nt in (1, 2, 3):
                _core.setnumthreads(nt)
                res.append(mm(a, b))
                out = np.full((1, 2 * m), np.nan, dt)
                _ops.matmul(borrow(a), borrow(b), out=borrow(out[:, ::2]))
                np.testing.assert_array_equal(out[:, ::2], res[-1])
            assert_matches(res[0], a, b)
            np.testing.assert_array_equal(res[0], res[1])
            np.testing.assert_array_equal(res[0], res[2])
    finally:
        _core.setnumthreads(old)


@pytest.mark.parametrize("alpha, beta", [(2.0, 0.0), (-1.0, 0.5), (1.0, 1.0)])
def test_addmm_of_a_row_with_alpha_and_beta(alpha, beta):
    """alpha and beta reach the vector-times-rows path; beta 0 never reads
    the output (a NaN there does not spread), as BLAS's."""
    rng = np.random.default_rng(20)
    a, b, c = (values(rng, s, "float64") for s in ((1, 4000), (4000, 300), (1, 300)))
    c0 = c.copy()
    if beta == 0.0:
        c[0, ::7] = np.nan
    out = to_core(c)
    _linalg.addmm(out, borrow(a), borrow(b), alpha, beta)
    want = alpha * (a @ b) + beta * c0
    np.testing.assert_allclose(to_numpy(out), want, rtol=1e-12, atol=1e-9)

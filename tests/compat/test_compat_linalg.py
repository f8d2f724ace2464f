"""strided.compat.linalg, the array API's linalg extension (2025.12),
against numpy.linalg (numpy 2 has the same names and signatures): every
function over floating dtypes, stacks and non-contiguous inputs (transposed
and reversed views), the namedtuple results, the dtype rules (real results
of complex input, complex eig of real input, trace's accumulator, solve's
promotion), the functions composed of core calls (norms, pinv,
matrix_rank, matrix_power, cross, diagonal, trace, outer), the errors, and
scikit-learn estimators that need xp.linalg."""

import math
import os
import zlib

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # read by scipy/sklearn at import

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided.compat as xp
from compat_util import np_of

FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 3e-4, "complex64": 3e-4, "float64": 1e-10, "complex128": 1e-10}
NAMES_2025_12 = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]


def seeded(*key):
    """A generator seeded by the test's parameters: the same data whatever
    the order tests run in (xdist workers)."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def rand(shape, dt, rng=None):
    rng = rng or seeded(shape, dt)
    a = rng.standard_normal(shape)
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def invertible(shape, dt, rng=None):
    return (rand(shape, dt, rng) + shape[-1] * np.eye(shape[-1])).astype(dt)


def hermitian_pd(shape, dt, rng=None):
    a = rand(shape, dt, rng or seeded("pd", shape, dt))
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dt)


def arr(a, view="contiguous"):
    """An Array holding numpy array a, laid out as asked: the values are
    a's, the memory order differs (a transposed or reversed view)."""
    if view == "transposed":
        x = xp.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2)))
        return xp.matrix_transpose(x)
    if view == "reversed":
        flip = (slice(None, None, -1),) * a.ndim
        return xp.asarray(np.ascontiguousarray(a[flip]))[flip]
    return xp.asarray(np.ascontiguousarray(a))


def close(x, want, dt, scale=1.0):
    got = np_of(x)
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=TOL[dt] * scale, atol=TOL[dt] * scale)


def conj_t(a):
    return np.conj(np.swapaxes(a, -1, -2))


VIEWS = ["contiguous", "transposed", "reversed"]


# ---------------------------------------------------------------- the namespace


def test_the_extension_is_there_with_every_2025_12_name():
    assert xp.linalg.__name__ == "strided.compat.linalg"
    for name in NAMES_2025_12:
        assert callable(getattr(xp.linalg, name)), name
    # the main namespace's functions are the same objects
    for name in ["matmul", "matrix_transpose", "tensordot", "vecdot"]:
        assert getattr(xp.linalg, name) is getattr(xp, name)
    assert sorted(xp.linalg.__all__) == sorted(NAMES_2025_12)


# ---------------------------------------------------------------- factorizations


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("stack", [(), (3,), (2, 1)])
def test_factorizations_against_numpy(dt, view, stack):
    n = 5
    a = invertible(stack + (n, n), dt)
    h = hermitian_pd(stack + (n, n), dt)
    x, hx = arr(a, view), arr(h, view)
    rdt = xp.linalg.svdvals(x).dtype.name
    assert rdt == ("float32" if dt in ("float32", "complex64") else "float64")
    close(xp.linalg.inv(x), np.linalg.inv(a), dt, scale=n)
    close(xp.linalg.det(x), np.linalg.det(a), dt, scale=100)
    sl = xp.linalg.slogdet(x)
    assert type(sl).__name__ == "SlogdetResult" and sl.sign is sl[0] and sl.logabsdet is sl[1]
    nsl = np.linalg.slogdet(a)
    close(sl.sign, nsl.sign, dt)
    close(sl.logabsdet, nsl.logabsdet, dt, scale=n)
    close(xp.linalg.cholesky(hx), np.linalg.cholesky(h), dt, scale=n)
    up = np_of(xp.linalg.cholesky(hx, upper=True))
    np.testing.assert_allclose(conj_t(up) @ up, h, rtol=TOL[dt] * n, atol=TOL[dt] * n * n)
    assert np.all(np.tril(up, -1) == 0)
    e = xp.linalg.eigh(hx)
    assert type(e).__name__ == "EighResult" and e.eigenvalues is e[0]
    close(e.eigenvalues, np.linalg.eigvalsh(h), dt, scale=n * n)
    v = np_of(e.eigenvectors)
    np.testing.assert_allclose(
        h @ v, v * np_of(e.eigenvalues)[..., None, :], rtol=TOL[dt] * n, atol=TOL[dt] * n * n
    )
    close(xp.linalg.eigvalsh(hx), np.linalg.eigvalsh(h), dt, scale=n * n)
    g = xp.linalg.eig(x)
    assert type(g).__name__ == "EigResult"
    w, vec = np_of(g.eigenvalues), np_of(g.eigenvectors)
    assert w.dtype == vec.dtype == np.result_type(a.dtype, np.complex64)
    np.testing.assert_allclose(
        a @ vec, vec * w[..., None, :], rtol=TOL[dt] * 50, atol=TOL[dt] * 50 * n
    )
    np.testing.assert_allclose(
        np.sort_complex(np_of(xp.linalg.eigvals(x)).reshape(-1, n)),
        np.sort_complex(np.linalg.eigvals(a).reshape(-1, n)),
        rtol=TOL[dt] * 50,
        atol=TOL[dt] * 50 * n,
    )


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "shape", [(4, 6), (6, 4), (2, 5, 5), (3, 0), (0, 3), (160, 12), (2, 130, 40)]
)  # tall: QR first (geqrt)
@pytest.mark.parametrize("view", ["contiguous", "transposed"])
def test_qr_and_svd_against_numpy(dt, shape, view):
    a = rand(shape, dt)
    x = arr(a, view)
    m, n = shape[-2:]
    for mode in ("reduced", "complete"):
        res = xp.linalg.qr(x, mode=mode)
        assert type(res).__name__ == "QRResult" and res.Q is res[0] and res.R is res[1]
        nq, nr = np.linalg.qr(a, mode=mode)
        q, r = np_of(res.Q), np_of(res.R)
        assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == r.dtype == a.dtype
        np.testing.assert_allclose(
            q @ r, a, rtol=TOL[dt] * 10 * max(m, n), atol=TOL[dt] * 10 * max(m, n)
        )
        assert np.array_equal(r, np.triu(r))
    for full in (True, False):
        res = xp.linalg.svd(x, full_matrices=full)
        assert type(res).__name__ == "SVDResult" and res.U is res[0] and res.Vh is res[2]
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert np_of(res.U).shape == nu.shape and np_of(res.Vh).shape == nvh.shape
        close(res.S, ns, dt, scale=10 * max(m, n))
        k = min(m, n)
        u, vh = np_of(res.U)[..., :, :k], np_of(res.Vh)[..., :k, :]
        np.testing.assert_allclose(
            (u * np_of(res.S)[..., None, :]) @ vh,
            a,
            rtol=TOL[dt] * 10 * max(m, n),
            atol=TOL[dt] * 10 * max(m, n),
        )
    close(xp.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False), dt, scale=10 * max(m, n))


@pytest.mark.parametrize(
    "d1, d2",
    [
        ("float32", "float32"),
        ("float32", "float64"),
        ("float64", "complex64"),
        ("complex64", "complex128"),
    ],
)
@pytest.mark.parametrize(
    "sa, sb",
    [
        ((4, 4), (4,)),
        ((3, 4, 4), (4,)),
        ((4, 4), (4, 2)),
        ((2, 1, 4, 4), (3, 4, 2)),
        ((3, 4, 4), (3, 4, 0)),
    ],
)
def test_solve_promotes_and_broadcasts(d1, d2, sa, sb):
    a, b = invertible(sa, d1), rand(sb, d2)
    got = xp.linalg.solve(arr(a), arr(b, "reversed"))
    dt = np.result_type(a.dtype, b.dtype)
    if b.ndim == 1:  # one right-hand side for every matrix of the stack
        want = np.linalg.solve(a, np.broadcast_to(b[:, None], a.shape[:-1] + (1,)))[..., 0]
    else:
        want = np.linalg.solve(a, b)
    close(
        got, want.astype(dt), "float32" if dt in (np.float32, np.complex64) else "float64", scale=10
    )


@given(data=st.data())
def test_random_stacks_and_layouts(data):
    """hypothesis: dtypes, stack shapes and views for the LAPACK functions."""
    dt = data.draw(st.sampled_from(FLOATS))
    stack = data.draw(st.sampled_from([(), (2,), (1, 3), (0,)]))
    n = data.draw(st.integers(0, 6))
    view = data.draw(st.sampled_from(VIEWS))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = invertible(stack + (n, n), dt, rng)
    x = arr(a, view)
    close(xp.linalg.inv(x), np.linalg.inv(a), dt, scale=10)
    close(xp.linalg.slogdet(x).logabsdet, np.linalg.slogdet(a).logabsdet, dt, scale=10)
    close(xp.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False), dt, scale=10)
    h = hermitian_pd(stack + (n, n), dt, rng)
    close(xp.linalg.eigvalsh(arr(h, view)), np.linalg.eigvalsh(h), dt, scale=100)
    close(xp.linalg.cholesky(arr(h, view)), np.linalg.cholesky(h), dt, scale=10)


# ---------------------------------------------------------------- composed functions


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, -1, -2, math.inf, -math.inf, 3, 0.5, -0.5, 2.5])
@pytest.mark.parametrize("axis", [None, -1, 0, (0, 2), (-1, -2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm_against_numpy(dt, ord, axis, keepdims):
    a = rand((3, 4, 2), dt)
    a[0, 1, 1] = 0
    got = xp.linalg.vector_norm(arr(a, "reversed"), axis=axis, keepdims=keepdims, ord=ord)
    with np.errstate(divide="ignore"):  # |0| ** negative: inf, as meant
        want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
    close(got, want.astype(np.finfo(a.dtype).dtype), dt, scale=10)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm_against_numpy(dt, ord, keepdims):
    a = rand((2, 3, 4, 5), dt)
    got = xp.linalg.matrix_norm(arr(a, "transposed"), keepdims=keepdims, ord=ord)
    want = np.linalg.matrix_norm(a, keepdims=keepdims, ord=ord)
    close(got, want.astype(np.finfo(a.dtype).dtype), dt, scale=10)


def test_norms_of_empty_inputs():
    z = xp.zeros((2, 0))
    assert float(xp.linalg.vector_norm(z)) == 0.0
    assert float(xp.linalg.vector_norm(z, ord=math.inf)) == 0.0
    for o in ("fro", "nuc", 1, 2, math.inf):
        assert np_of(xp.linalg.matrix_norm(z, ord=o)).tolist() == 0.0
    with pytest.raises(ValueError, match=r"ord=-inf of an empty vector"):
        xp.linalg.vector_norm(z, ord=-math.inf)
    with pytest.raises(ValueError, match=r"ord=-2 of an empty matrix"):
        xp.linalg.matrix_norm(z, ord=-2)


@pytest.mark.parametrize("dt", FLOATS)
def test_matrix_rank_and_pinv_against_numpy(dt):
    # rank-deficient stacks: rank 2 products of small integers (exact in
    # every dtype), and a zero matrix
    rng = seeded("rank", dt)
    left = rng.integers(-3, 4, (3, 5, 2)).astype(dt)
    right = rng.integers(-3, 4, (3, 2, 4)).astype(dt)
    a = np.concatenate([left @ right, np.zeros((1, 5, 4), dt)])
    x = arr(a, "transposed")
    r = xp.linalg.matrix_rank(x)
    assert r.dtype == xp.int64
    np.testing.assert_array_equal(np_of(r), np.linalg.matrix_rank(a))
    np.testing.assert_array_equal(np_of(r), [2, 2, 2, 0])
    tol = np.array([0.1, 1e-3, 10.0, 0.5])
    np.testing.assert_array_equal(
        np_of(xp.linalg.matrix_rank(x, rtol=xp.asarray(tol))), np.linalg.matrix_rank(a, rtol=tol)
    )
    np.testing.assert_array_equal(
        np_of(xp.linalg.matrix_rank(x, rtol=0.5)), np.linalg.matrix_rank(a, rtol=0.5)
    )
    # a cutoff far from the rounding noise of the zero singular values
    close(xp.linalg.pinv(x, rtol=1e-3), np.linalg.pinv(a, rtol=1e-3), dt, scale=100)
    # the standard's default rtol, max(M, N) * eps (numpy's pinv defaults to
    # 1e-15), on a full-rank stack where no value is near it
    b = invertible((2, 4, 4), dt)
    close(xp.linalg.pinv(arr(b, "reversed")), np.linalg.inv(b), dt, scale=100)
    full = rand((4, 3), dt)
    close(xp.linalg.pinv(arr(full), rtol=1e-3), np.linalg.pinv(full, rtol=1e-3), dt, scale=100)
    assert xp.linalg.pinv(xp.zeros((2, 0, 3))).shape == (2, 3, 0)
    assert np_of(xp.linalg.matrix_rank(xp.zeros((2, 0, 3)))).tolist() == [0, 0]


@pytest.mark.parametrize("dt", ["float64", "complex64", "int64", "int8"])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, -1, -3])
def test_matrix_power_against_numpy(dt, n):
    if dt.startswith("int"):
        a = seeded(dt, n).integers(-3, 4, (2, 3, 3)).astype(dt)
        if n < 0:
            with pytest.raises(TypeError, match=r"floating-point dtype for n < 0, got"):
                xp.linalg.matrix_power(arr(a), n)
            return
        with np.errstate(over="ignore"):
            want = np.linalg.matrix_power(a, n)
        got = xp.linalg.matrix_power(arr(a, "transposed"), n)
        assert got.dtype.name == dt
        np.testing.assert_array_equal(np_of(got), want)  # exact, wrapping
        return
    a = invertible((2, 3, 3), dt) / 3
    got = xp.linalg.matrix_power(arr(a, "transposed"), n)
    close(got, np.linalg.matrix_power(a, n).astype(dt), dt, scale=100)


def test_matrix_power_returns_a_new_array():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    y = xp.linalg.matrix_power(x, 1)
    y[0, 0] = 9.0
    assert float(x[0, 0]) == 1.0


@pytest.mark.parametrize(
    "d1, d2",
    [
        ("int32", "int32"),
        ("int8", "int16"),
        ("float32", "float64"),
        ("complex128", "float64"),
        ("uint8", "uint8"),
        ("complex64", "complex64"),
        ("int64", "float32"),
    ],
)
@pytest.mark.parametrize(
    "s1, s2, axis",
    [((3,), (3,), -1), ((4, 3), (3,), -1), ((2, 3, 5), (1, 3, 5), -2), ((3, 2), (4, 3, 2), -2)],
)
def test_cross_against_numpy(d1, d2, s1, s2, axis):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 5, s1).astype(d1)
    b = rng.integers(0, 5, s2).astype(d2)
    got = xp.linalg.cross(arr(a, "reversed"), arr(b), axis=axis)
    with np.errstate(over="ignore"):
        want = np.cross(a, b, axis=axis)
    assert got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(np_of(got), want)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128"])
def test_cross_is_the_namespaces_own_products(dt):
    """linalg.cross runs the core's cross (one pass): to the bit what the
    namespace's multiply and subtract give for a1 b2 - a2 b1."""
    rng = np.random.default_rng(11)
    a, b = (
        rng.standard_normal((50, 3)) + (1j if dt[0] == "c" else 0) * rng.standard_normal((50, 3))
        for _ in range(2)
    )
    A, B = xp.asarray(a.astype(dt)), xp.asarray(b.astype(dt))
    cols = [
        xp.subtract(xp.multiply(A[:, i], B[:, j]), xp.multiply(A[:, j], B[:, i]))
        for i, j in ((1, 2), (2, 0), (0, 1))
    ]
    np.testing.assert_array_equal(
        np_of(xp.linalg.cross(A, B)), np.stack([np_of(c) for c in cols], -1)
    )


@pytest.mark.parametrize("offset", [0, 1, 2, -1, -3, 7, -7, 1000])
def test_diagonal_is_a_view(offset):
    a = np.arange(2 * 4 * 5).reshape(2, 4, 5)
    x = xp.asarray(a.copy())
    d = xp.linalg.diagonal(x, offset=offset)
    np.testing.assert_array_equal(np_of(d), np.linalg.diagonal(a, offset=offset))
    if d.shape[-1]:
        d[...] = -1
        assert np.all(np.linalg.diagonal(np_of(x), offset=offset) == -1)


@pytest.mark.parametrize(
    "dt, want",
    [
        ("int8", "int64"),
        ("uint16", "uint64"),
        ("int64", "int64"),
        ("float32", "float32"),
        ("complex64", "complex64"),
    ],
)
@pytest.mark.parametrize("offset", [0, 1, -2, 9])
def test_trace_against_numpy(dt, want, offset):
    a = np.arange(2 * 3 * 4).reshape(2, 3, 4).astype(dt)
    got = xp.linalg.trace(arr(a, "transposed"), offset=offset)
    assert got.dtype.name == want
    np.testing.assert_array_equal(np_of(got), np.linalg.trace(a, offset=offset).astype(want))
    assert xp.linalg.trace(xp.asarray(a), dtype=xp.float64).dtype == xp.float64


@pytest.mark.parametrize(
    "d1, d2",
    [("int16", "int16"), ("uint8", "int8"), ("float32", "complex64"), ("float64", "float64")],
)
def test_outer_against_numpy(d1, d2):
    a, b = np.arange(4).astype(d1), (np.arange(3) - 1).astype(d2)
    got = xp.linalg.outer(arr(a, "reversed"), arr(b))
    want = np.outer(a, b)
    assert got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(np_of(got), want)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (
            lambda: xp.linalg.inv(xp.asarray([[1.0, 2.0], [2.0, 4.0]])),
            ValueError,
            r"inv: the matrix is singular",
        ),
        (
            lambda: xp.linalg.inv(xp.zeros((2, 3))),
            ValueError,
            r"linalg.inv needs square matrices \(\.\.\., M, M\), got shape \(2, 3\)",
        ),
        (lambda: xp.linalg.det(xp.zeros(3)), ValueError, r"at least 2 dimensions"),
        (
            lambda: xp.linalg.inv(xp.eye(2, dtype=xp.int64)),
            TypeError,
            r"linalg.inv needs a floating-point dtype, got int64",
        ),
        (
            lambda: xp.linalg.svd(xp.asarray([[1, 2]])),
            TypeError,
            r"floating-point dtype, got int64",
        ),
        (lambda: xp.linalg.cholesky(-xp.eye(2)), ValueError, r"not positive definite"),
        (
            lambda: xp.linalg.solve(xp.eye(3), xp.ones(2)),
            ValueError,
            r"a 1-D x2 needs 3 elements, got 2",
        ),
        (lambda: xp.linalg.solve(xp.eye(3), xp.ones((2, 1))), ValueError, r"x2 needs 3 rows"),
        (
            lambda: xp.linalg.solve(xp.eye(3, dtype=xp.int32), xp.ones(3)),
            TypeError,
            r"linalg.solve needs a floating-point dtype, got int32",
        ),
        (lambda: xp.linalg.solve(xp.zeros((2, 2)), xp.ones(2)), ValueError, r"singular"),
        (lambda: xp.linalg.qr(xp.eye(2), mode="r"), ValueError, r"mode must be 'reduced' or"),
        (
            lambda: xp.linalg.eigvals(xp.asarray([[xp.nan, 0.0], [0.0, 1.0]])),
            ValueError,
            r"non-finite values",
        ),
        (lambda: xp.linalg.matrix_norm(xp.eye(2), ord=3), ValueError, r"ord must be 'fro'"),
        (lambda: xp.linalg.vector_norm(xp.ones(2), ord="fro"), TypeError, r"ord must be a number"),
        (
            lambda: xp.linalg.vector_norm(xp.ones(2, dtype=xp.int32)),
            TypeError,
            r"floating-point dtype, got int32",
        ),
        (lambda: xp.linalg.cross(xp.ones(3), xp.ones(2)), ValueError, r"must have size 3 in both"),
        (
            lambda: xp.linalg.cross(xp.ones((3, 3)), xp.ones((3, 3)), axis=0),
            ValueError,
            r"axis must be an integer in \[-2, -1\]",
        ),
        (
            lambda: xp.linalg.cross(xp.ones(3, dtype=xp.bool), xp.ones(3, dtype=xp.bool)),
            TypeError,
            r"numeric dtypes",
        ),
        (lambda: xp.linalg.outer(xp.ones((2, 2)), xp.ones(2)), ValueError, r"needs 1-D arrays"),
        (lambda: xp.linalg.diagonal(xp.ones(2)), ValueError, r"at least 2 dimensions"),
        (lambda: xp.linalg.trace(xp.ones((2, 2), dtype=xp.bool)), TypeError, r"numeric dtype"),
        (lambda: xp.linalg.matrix_power(xp.ones((2, 3)), 2), ValueError, r"square matrices"),
        (lambda: xp.linalg.matrix_power(xp.eye(2), 1.5), TypeError, r"n must be an integer"),
        (lambda: xp.linalg.matrix_power(xp.zeros((2, 2)), -1), ValueError, r"singular"),
        (
            lambda: xp.linalg.matrix_rank(xp.eye(2), rtol=xp.ones(1, dtype=xp.int32)),
            TypeError,
            r"rtol must have a real floating-point dtype",
        ),
        (lambda: xp.linalg.det([[1.0]]), TypeError, r"linalg.det: x must be an Array, got list"),
    ],
)
def test_errors(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


# ---------------------------------------------------------------- libraries


def test_scikit_learn_estimators_that_need_linalg():
    sklearn = pytest.importorskip(
        "sklearn", reason="not installed (the [test] extra pins a version for Python >= 3.11)"
    )
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    rng = np.random.default_rng(0)
    a = rng.normal(size=(60, 5)) * [3.0, 1.0, 0.5, 0.2, 0.1]
    y = (a[:, 0] + a[:, 1] > 0).astype(np.int64)
    with sklearn.config_context(array_api_dispatch=True):
        t = PCA(n_components=2, svd_solver="full").fit_transform(xp.asarray(a))
        lda = LinearDiscriminantAnalysis().fit(xp.asarray(a), xp.asarray(y))
        pred = lda.predict(xp.asarray(a))
    assert isinstance(t, xp.Array) and isinstance(pred, xp.Array)
    want = PCA(n_components=2, svd_solver="full").fit_transform(a)
    np.testing.assert_allclose(np.abs(np_of(t)), np.abs(want), rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(np_of(pred), LinearDiscriminantAnalysis().fit(a, y).predict(a))

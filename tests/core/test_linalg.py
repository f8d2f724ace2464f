"""LAPACK over stacks of matrices (strided/_c/linalg.c through
strided/_linalg.py), st_addmm and the BLAS path of st_matmul (matmul.c),
and how the BLAS library is loaded and threaded.  numpy and scipy are the
oracles: every floating dtype, stacks (threaded for small matrices, serial
for large ones), any layout (transposed, stepped, reversed, zero strides),
empty matrices, and the errors: singular, not positive definite,
non-finite input to iterative methods, bad shapes and dtypes, checked
before anything is written."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import borrow, layouts, to_core, to_numpy
from strided.core import base as _core, linalg as _linalg, ops as _ops, views as _views
from strided._c._strided import ffi, lib

FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 3e-4, "complex64": 3e-4, "float64": 1e-10, "complex128": 1e-10}
STACKS = [(), (3,), (2, 2)]


def rand(rng, shape, dt):
    a = rng.standard_normal(shape)
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def invertible(rng, shape, dt):
    """Well conditioned: random plus n on the diagonal."""
    n = shape[-1]
    return (rand(rng, shape, dt) + n * np.eye(n)).astype(dt)


def hermitian_pd(rng, shape, dt):
    a = rand(rng, shape, dt)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dt)


def close(got, want, dt, scale=1.0):
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=TOL[dt] * scale, atol=TOL[dt] * scale)


def npy(c):
    return to_numpy(c)


def eye_like(a):
    return np.broadcast_to(np.eye(a.shape[-1]), a.shape)


def conj_t(a):
    return np.conj(np.swapaxes(a, -1, -2))


# ---------------------------------------------------------------- inv, solve, det


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [1, 4, 17, 70])  # 70 > the threaded-stack limit (64)
def test_inv_against_numpy(dt, stack, n):
    rng = np.random.default_rng(n)
    a = invertible(rng, stack + (n, n), dt)
    got = npy(_linalg.inv(borrow(a)))
    assert got.dtype == a.dtype
    close(got, np.linalg.inv(a), dt, scale=n)
    close(a @ got, eye_like(a), dt, scale=n)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "sa, sb",
    [
        ((4, 4), (4, 3)),
        ((3, 5, 5), (3, 5, 1)),
        ((2, 1, 6, 6), (3, 6, 2)),
        ((6, 6), (4, 6, 0)),
        ((80, 80), (80, 5)),
    ],
)
def test_solve_against_numpy_with_broadcast_stacks(dt, sa, sb):
    rng = np.random.default_rng(sa[-1])
    a, b = invertible(rng, sa, dt), rand(rng, sb, dt)
    got = npy(_linalg.solve(borrow(a), borrow(b)))
    want = np.linalg.solve(a, b)
    close(got, want, dt, scale=sa[-1])


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [0, 1, 3, 8, 90])
def test_det_and_slogdet_against_numpy(dt, stack, n):
    rng = np.random.default_rng(7)
    a = rand(rng, stack + (n, n), dt) if n < 50 else invertible(rng, stack + (n, n), dt)
    d = npy(_linalg.det(borrow(a)))
    sign, logabs = map(npy, _linalg.slogdet(borrow(a)))
    nsign, nlog = np.linalg.slogdet(a)
    assert d.dtype == a.dtype and sign.dtype == a.dtype
    assert logabs.dtype == np.dtype(_linalg.real_dtype(dt).name)
    assert d.shape == sign.shape == logabs.shape == stack
    close(sign, nsign, dt)
    close(logabs, nlog, dt, scale=n + 1)
    if n < 50:
        np.testing.assert_allclose(d, np.linalg.det(a), rtol=TOL[dt] * 10, atol=TOL[dt])
    if n == 0:
        assert np.all(d == 1) and np.all(sign == 1) and np.all(logabs == 0)


@pytest.mark.parametrize("dt", FLOATS)
def test_singular_det_is_zero_sign_zero_logabs_minus_inf(dt):
    a = np.array([[[1, 2], [2, 4]], [[0, 0], [0, 0]], [[2, 0], [0, 3]]], dt)
    d = npy(_linalg.det(borrow(a)))
    sign, logabs = map(npy, _linalg.slogdet(borrow(a)))
    np.testing.assert_array_equal(d, np.array([0, 0, 6], dt))
    np.testing.assert_array_equal(sign, np.array([0, 0, 1], dt))
    assert logabs[0] == -np.inf and logabs[1] == -np.inf
    close(logabs[2:], [np.log(6)], dt)


def test_det_of_nan_is_nan_and_permutation_signs():
    assert np.isnan(npy(_linalg.det(to_core(np.array([[np.nan, 1.0], [1.0, 1.0]])))))
    p = np.eye(4)[[1, 0, 3, 2]]  # two swaps: +1
    q = np.eye(3)[[1, 2, 0]]  # a 3-cycle: +1
    r = np.eye(3)[[0, 2, 1]]  # one swap: -1
    for m in (p, q, r):
        assert npy(_linalg.det(to_core(m))) == np.linalg.det(m)
        s, l = map(npy, _linalg.slogdet(to_core(m)))
        assert s == np.sign(np.linalg.det(m)) and l == 0


# ---------------------------------------------------------------- cholesky


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [1, 5, 100])
def test_cholesky_lower_and_upper(dt, stack, n):
    rng = np.random.default_rng(n)
    h = hermitian_pd(rng, stack + (n, n), dt)
    low = npy(_linalg.cholesky(borrow(h)))
    up = npy(_linalg.cholesky(borrow(h), upper=True))
    close(low, np.linalg.cholesky(h), dt, scale=n)
    # the other triangle is exactly zero, the factors rebuild h
    assert np.all(np.triu(low, 1) == 0) and np.all(np.tril(up, -1) == 0)
    close(low @ conj_t(low), h, dt, scale=n)
    close(conj_t(up) @ up, h, dt, scale=n)
    if not stack:
        import scipy.linalg  # here: scipy reads SCIPY_ARRAY_API once, at import

        close(up, scipy.linalg.cholesky(h, lower=False), dt, scale=n)


def test_cholesky_reads_its_triangle_only():
    rng = np.random.default_rng(1)
    h = hermitian_pd(rng, (4, 4), "float64")
    junk = h.copy()
    junk[np.triu_indices(4, 1)] = 99.0  # the lower factor never reads above
    np.testing.assert_allclose(npy(_linalg.cholesky(to_core(junk))), np.linalg.cholesky(h))


# ---------------------------------------------------------------- qr


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "shape",
    [
        (5, 3),
        (3, 5),
        (4, 4),
        (2, 7, 3),
        (2, 3, 7),
        (1, 1),
        (0, 3),
        (3, 0),
        (120, 80),
        (300, 20),
        (2, 150, 70),
        (130, 1),
    ],
)  # tall: geqrt
@pytest.mark.parametrize("complete", [False, True])
def test_qr_against_numpy(dt, shape, complete):
    rng = np.random.default_rng(len(shape))
    a = rand(rng, shape, dt)
    q, r = map(npy, _linalg.qr(borrow(a), complete))
    nq, nr = np.linalg.qr(a, mode="complete" if complete else "reduced")
    assert q.shape == nq.shape and r.shape == nr.shape
    assert q.dtype == a.dtype and r.dtype == a.dtype
    m, n = shape[-2:]
    close(q @ r, a, dt, scale=max(m, n, 1))
    close(
        conj_t(q) @ q,
        np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2),
        dt,
        scale=max(m, 1),
    )
    assert np.array_equal(r, np.triu(r))  # exactly upper triangular
    # R's diagonal is real, also for complex input (the standard)
    k = min(m, n)
    assert np.all(np.diagonal(r, axis1=-2, axis2=-1)[..., :k].imag == 0)


# ---------------------------------------------------------------- svd


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "shape", [(5, 3), (3, 5), (4, 4), (3, 6, 2), (2, 2, 1, 5), (0, 4), (4, 0), (150, 70)]
)
@pytest.mark.parametrize("full", [True, False])
def test_svd_against_numpy(dt, shape, full):
    rng = np.random.default_rng(shape[-1])
    a = rand(rng, shape, dt)
    u, s, vh = map(npy, _linalg.svd(borrow(a), full_matrices=full))
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == nu.shape and s.shape == ns.shape and vh.shape == nvh.shape
    assert s.dtype == np.dtype(_linalg.real_dtype(dt).name) and u.dtype == vh.dtype == a.dtype
    m, n = shape[-2:]
    k = min(m, n)
    close(s, ns, dt, scale=max(m, n, 1))
    assert np.all(s[..., :-1] >= s[..., 1:])
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dt, scale=max(m, n, 1))
    for mat in (u, conj_t(vh)):
        close(
            conj_t(mat) @ mat,
            np.broadcast_to(np.eye(mat.shape[-1]), mat.shape[:-2] + (mat.shape[-1],) * 2),
            dt,
            scale=max(m, n, 1),
        )
    sv = npy(_linalg.svd(borrow(a), compute_uv=False))
    close(sv, ns, dt, scale=max(m, n, 1))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "shape, view",
    [
        ((300, 20), "contiguous"),
        ((140, 70), "contiguous"),
        ((2, 200, 30), "contiguous"),
        ((30, 200), "transposed"),
        ((400, 40), "stepped"),
        ((2, 90, 200), "transposed"),
        ((130, 1), "contiguous"),
        ((200, 30), "fortran"),
    ],
)
@pytest.mark.parametrize("full", [True, False])
def test_svd_of_tall_matrices_against_numpy(dt, shape, view, full):
    """Tall matrices (m >= 2n, past the small sizes) take the QR-first path
    (geqrt, the SVD of R, U = Q [U_R; 0] by gemqrt) unless U is full; any
    layout of the input, stacks, every dtype."""
    rng = np.random.default_rng(shape[-1] + len(view))
    base = rand(rng, shape, dt)
    a = {
        "contiguous": base,
        "transposed": np.swapaxes(base, -1, -2),
        "stepped": base[::2, ::2],
        "fortran": np.asfortranarray(base),
    }[view]
    u, s, vh = map(npy, _linalg.svd(borrow(a), full_matrices=full))
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == nu.shape and s.shape == ns.shape and vh.shape == nvh.shape
    m, n = a.shape[-2:]
    k = min(m, n)
    close(s, ns, dt, scale=max(m, n))
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dt, scale=max(m, n))
    for mat in (u, conj_t(vh)):
        close(
            conj_t(mat) @ mat,
            np.broadcast_to(np.eye(mat.shape[-1]), mat.shape[:-2] + (mat.shape[-1],) * 2),
            dt,
            scale=max(m, n),
        )
    # the singular vectors are numpy's up to a unit factor per pair (sign or phase)
    phase = np.sum(np.conj(nu[..., :, :k]) * u[..., :, :k], axis=-2)
    close(np.abs(phase), np.ones_like(np.abs(phase)), dt, scale=max(m, n) * 10)
    close(npy(_linalg.svd(borrow(a), compute_uv=False)), ns, dt, scale=max(m, n))


def test_svd_of_a_tall_rank_deficient_matrix():
    """Zero and repeated columns: zero singular values, U still orthonormal."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((500, 80))
    a[:, 10] = 0
    a[:, 20] = a[:, 30]
    u, s, vh = map(npy, _linalg.svd(borrow(a), full_matrices=False))
    close(s, np.linalg.svd(a, compute_uv=False), "float64", scale=500)
    assert np.sum(s < 1e-10) == 2
    close(u.T @ u, np.eye(80), "float64", scale=500)
    close((u * s) @ vh, a, "float64", scale=500)


# ---------------------------------------------------------------- eigh, eig


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [1, 6, 80])
def test_eigh_against_numpy(dt, stack, n):
    rng = np.random.default_rng(n)
    a = rand(rng, stack + (n, n), dt)
    h = ((a + conj_t(a)) / 2).astype(dt)
    w, v = map(npy, _linalg.eigh(borrow(h)))
    assert w.dtype == np.dtype(_linalg.real_dtype(dt).name) and v.dtype == h.dtype
    close(w, np.linalg.eigvalsh(h), dt, scale=n)
    assert np.all(w[..., :-1] <= w[..., 1:])  # ascending
    close(h @ v, v * w[..., None, :], dt, scale=n)
    close(npy(_linalg.eigh(borrow(h), vectors=False)), w, dt, scale=n)


def test_eigh_reads_the_lower_triangle():
    rng = np.random.default_rng(2)
    h = rand(rng, (5, 5), "complex128")
    w = npy(_linalg.eigh(borrow(h), vectors=False))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(h, UPLO="L"), atol=1e-12)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [1, 5, 70])
def test_eig_against_numpy(dt, stack, n):
    rng = np.random.default_rng(n)
    a = rand(rng, stack + (n, n), dt)
    w, v = map(npy, _linalg.eig(borrow(a)))
    cdt = np.dtype(_linalg.complex_dtype(dt).name)
    assert w.dtype == cdt and v.dtype == cdt  # complex also for real input
    close(a @ v, v * w[..., None, :], dt, scale=n * 10)
    want = np.linalg.eigvals(a)
    close(np.sort_complex(w.reshape(-1, n)), np.sort_complex(want.reshape(-1, n)), dt, scale=n * 10)
    close(np.linalg.norm(v, axis=-2), np.ones(stack + (n,)), dt)  # unit columns
    close(npy(_linalg.eig(borrow(a), vectors=False)), w, dt)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_eig_of_a_real_rotation_gives_conjugate_pairs(dt):
    a = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 2]], dt)
    w, v = map(npy, _linalg.eig(to_core(a)))
    assert sorted(w.tolist(), key=lambda z: (z.real, z.imag)) == [-1j, 1j, 2]
    j = int(np.argmax(w.imag))
    assert np.allclose(v[:, j + 1], np.conj(v[:, j]))  # the pair's vectors are conjugate
    close(a @ v, v * w, dt)


# ---------------------------------------------------------------- layouts


def _layout_cases():
    return st.sampled_from(
        ["inv", "det", "slogdet", "solve", "cholesky", "qr", "svd", "eigh", "eig"]
    )


@given(data=st.data(), op=_layout_cases(), dt=st.sampled_from(FLOATS))
def test_any_layout(data, op, dt):
    """Inputs in every layout (transposed, stepped, reversed, broadcast
    stacks: zero strides) give numpy's answer on the same view."""
    n = data.draw(st.integers(1, 6))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = (data.draw(st.integers(1, 3)), n, n)  # dim 0 is the stack: broadcast repeats matrices
    base = (
        hermitian_pd(rng, shape, dt) if op in ("cholesky", "eigh") else invertible(rng, shape, dt)
    )
    a = data.draw(layouts(base))
    c = borrow(a)
    if op == "inv":
        close(npy(_linalg.inv(c)), np.linalg.inv(a), dt, scale=n)
    elif op == "det":
        close(npy(_linalg.det(c)), np.linalg.det(a), dt, scale=n**n)
    elif op == "slogdet":
        close(npy(_linalg.slogdet(c)[1]), np.linalg.slogdet(a)[1], dt, scale=n)
    elif op == "solve":
        b = data.draw(layouts(rand(rng, (shape[0], n, 2), dt)))
        close(npy(_linalg.solve(c, borrow(b))), np.linalg.solve(a, b), dt, scale=n)
    elif op == "cholesky":
        close(npy(_linalg.cholesky(c)), np.linalg.cholesky(a), dt, scale=n)
    elif op == "qr":
        q, r = map(npy, _linalg.qr(c))
        close(q @ r, a, dt, scale=n)
    elif op == "svd":
        close(
            npy(_linalg.svd(c, compute_uv=False)), np.linalg.svd(a, compute_uv=False), dt, scale=n
        )
    elif op == "eigh":
        close(npy(_linalg.eigh(c, vectors=False)), np.linalg.eigvalsh(a), dt, scale=n)
    else:
        w, v = map(npy, _linalg.eig(c))
        close(a @ v, v * w[..., None, :], dt, scale=n * 10)


def test_outputs_in_any_layout_through_the_c_api():
    """The C functions write outputs through their strides (transposed,
    stepped, reversed views here)."""
    rng = np.random.default_rng(5)
    a = invertible(rng, (3, 4, 4), "float64")
    mem = np.full((3, 8, 8), np.nan)
    out = mem[:, ::-2, ::2].transpose(0, 2, 1)  # reversed, stepped, transposed
    _core.check(lib.st_linalg_inv(borrow(out).t, borrow(a).t))
    np.testing.assert_allclose(out, np.linalg.inv(a), atol=1e-12)
    assert np.isnan(mem[:, 0::2, :]).all()  # nothing written outside the view
    q_mem, r_mem = np.zeros((6, 6)), np.zeros((6, 6))
    x = rand(rng, (6, 4), "float64")
    q, r = q_mem[:, :4], r_mem[:4, ::-1][:, :4][:, ::-1].T.T  # strided views
    _core.check(lib.st_linalg_qr(borrow(q).t, borrow(r).t, borrow(x).t, 0))
    np.testing.assert_allclose(q @ r, x, atol=1e-12)


# ---------------------------------------------------------------- errors


def test_singular_inv_and_solve_name_the_matrix_and_write_nothing():
    a = np.stack([np.eye(3), np.ones((3, 3)), np.eye(3)])
    out = to_core(np.full((3, 3, 3), 7.0))
    with pytest.raises(ValueError, match=r"inv: matrix \(1,\) of the stack is singular"):
        _core.check(lib.st_linalg_inv(out.t, borrow(a).t))
    assert np.all(npy(out) == 7.0)  # not even the good matrices
    with pytest.raises(ValueError, match=r"inv: the matrix is singular"):
        _linalg.inv(to_core(np.zeros((2, 2))))
    with pytest.raises(ValueError, match=r"solve: x1 is singular: matrix \(1,\) of the stack"):
        _linalg.solve(borrow(a), to_core(np.ones((3, 3, 1))))


def test_cholesky_of_a_matrix_that_is_not_positive_definite():
    a = np.stack([np.eye(2), np.array([[1.0, 2.0], [2.0, 1.0]])])
    out = to_core(np.full((2, 2, 2), 5.0))
    with pytest.raises(
        ValueError,
        match=r"matrix \(1,\) of the stack is not positive definite "
        r"\(its leading minor of order 2",
    ):
        _core.check(lib.st_linalg_cholesky(out.t, borrow(a).t, 0))
    assert np.all(npy(out) == 5.0)


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda c: _linalg.svd(c), "svd"),
        (lambda c: _linalg.svd(c, compute_uv=False), "svdvals"),
        (lambda c: _linalg.eig(c), "eig"),
        (lambda c: _linalg.eig(c, vectors=False), "eigvals"),
        (lambda c: _linalg.eigh(c), "eigh"),
    ],
)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_input_to_iterative_methods_raises(call, what, bad):
    a = np.stack([np.eye(3), np.eye(3)])
    a[1, 2, 0] = bad  # in the lower triangle (eigh reads it)
    with pytest.raises(
        ValueError,
        match=rf"{what}: matrix \(1,\) of the stack contains "
        r"non-finite values",
    ):
        call(borrow(a))


@pytest.mark.parametrize(
    "call",
    [
        lambda c: _linalg.inv(c),
        lambda c: _linalg.det(c),
        lambda c: _linalg.slogdet(c),
        lambda c: _linalg.cholesky(c),
        lambda c: _linalg.eigh(c),
        lambda c: _linalg.eig(c),
    ],
)
def test_square_is_required(call):
    with pytest.raises(ValueError, match=r"square matrices \(\.\.\., M, M\), got shape \(2, 3\)"):
        call(to_core(np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"at least 2 dimensions"):
        call(to_core(np.ones(3)))


@pytest.mark.parametrize("dt", ["int32", "int64", "bool", "uint8"])
def test_integer_and_bool_dtypes_are_refused(dt):
    a = to_core(np.eye(2).astype(dt))
    with pytest.raises(TypeError, match=f"floating-point dtype .* got {dt}"):
        _linalg.inv(a)
    # the C side checks too, when called directly
    out = _core.Core.empty((2, 2), dt)
    with pytest.raises(TypeError, match=rf"inv: x must have a floating-point dtype .* got {dt}"):
        _core.check(lib.st_linalg_inv(out.t, a.t))


def test_c_checks_outputs_before_writing():
    a = to_core(np.eye(3))
    with pytest.raises(TypeError, match=r"inv: out must be float64, got float32"):
        _core.check(lib.st_linalg_inv(_core.Core.empty((3, 3), "float32").t, a.t))
    with pytest.raises(ValueError, match=r"inv: out has shape \(3, 2\), expected \(3, 3\)"):
        _core.check(lib.st_linalg_inv(_core.Core.empty((3, 2), "float64").t, a.t))
    with pytest.raises(ValueError, match=r"svdvals: S has shape \(2,\), expected \(3,\)"):
        _core.check(
            lib.st_linalg_svd(ffi.NULL, _core.Core.empty((2,), "float64").t, ffi.NULL, a.t, 0)
        )
    with pytest.raises(TypeError, match=r"logabsdet must be float32, got float64"):
        f = to_core(np.eye(3, dtype=np.float32))
        _core.check(
            lib.st_linalg_det(
                ffi.NULL, _core.Core.empty((), "float32").t, _core.Core.empty((), "float64").t, f.t
            )
        )
    with pytest.raises(TypeError, match=r"eigenvalues must be complex128, got float64"):
        _core.check(lib.st_linalg_eig(_core.Core.empty((3,), "float64").t, ffi.NULL, a.t))
    ro = np.eye(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"read-only"):
        _core.check(lib.st_linalg_inv(borrow(ro).t, a.t))
    # det and qr write as they go: outputs may not share memory with the input
    mem = to_core(np.eye(3))
    with pytest.raises(ValueError, match=r"must not share memory"):
        _core.check(lib.st_linalg_det(mem.view(0, (), ()).t, ffi.NULL, ffi.NULL, mem.t))
    with pytest.raises(ValueError, match=r"x2 .* must have x1's batch dims"):
        _core.check(
            lib.st_linalg_solve(
                _core.Core.empty((2, 3, 1), "float64").t,
                to_core(np.stack([np.eye(3)] * 2)).t,
                to_core(np.ones((3, 3, 1))).t,
            )
        )
    with pytest.raises(
        TypeError,
        match=r"solve: x1 and x2 must have one dtype, got float64 "
        r"and float32",
    ):
        _core.check(
            lib.st_linalg_solve(
                _core.Core.empty((3, 1), "float64").t, a.t, to_core(np.ones((3, 1), np.float32)).t
            )
        )


def test_inv_may_write_over_its_input():
    """Results are staged, so out may be the input itself."""
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    want = np.linalg.inv(a)
    c = to_core(a)
    _core.check(lib.st_linalg_inv(c.t, c.t))
    np.testing.assert_allclose(npy(c), want)


# ---------------------------------------------------------------- threads and the library


def test_stacks_of_small_matrices_do_not_depend_on_threads():
    """Each small matrix is factored by one thread with LAPACK on that
    thread: the answer is the same bit for bit at any thread count."""
    rng = np.random.default_rng(9)
    a = invertible(rng, (64, 8, 8), "float64")
    old = _core.getnumthreads()
    try:
        res = []
        for nt in (1, 2, 3):
            _core.setnumthreads(nt)
            res.append(
                (
                    npy(_linalg.inv(borrow(a))),
                    npy(_linalg.svd(borrow(a))[1]),
                    npy(_linalg.det(borrow(a))),
                )
            )
    finally:
        _core.setnumthreads(old)
    for r in res[1:]:
        for x, y in zip(res[0], r):
            np.testing.assert_array_equal(x, y)
    np.testing.assert_allclose(res[0][0], np.linalg.inv(a), atol=1e-12)


def test_openblas_threads_follow_setnumthreads():
    from strided._c import _BLAS

    old = _core.getnumthreads()
    try:
        big = to_core(np.eye(1024))  # LK_THREADED_DIM: OpenBLAS's threads pay from here
        for nt in (1, 3, 2):
            _core.setnumthreads(nt)
            _linalg.inv(big)  # any LAPACK entry syncs the count
            assert _BLAS.scipy_openblas_get_num_threads() == nt
            # a small matrix runs on the calling thread: its BLAS-2 steps
            # would wait on the others column after column
            _linalg.inv(to_core(np.eye(2)))
            assert _BLAS.scipy_openblas_get_num_threads() == 1
    finally:
        _core.setnumthreads(old)


def test_the_extension_finds_openblas_through_the_preloaded_package():
    """The extension names libscipy_openblas.so without a path; importing
    strided loads the scipy_openblas32 package's copy first (checked in a
    fresh interpreter, where nothing else has loaded it)."""
    code = (
        "import strided, strided._c as c, scipy_openblas32 as s, os\n"
        "maps = open('/proc/self/maps').read()\n"
        "lib = os.path.realpath(os.path.join(s.get_lib_dir(), s.get_library(True)))\n"
        "assert lib in maps, 'the package library is not the one loaded'\n"
        "from strided.core import linalg as _linalg, base as _core\n"
        "print(_core.item(_linalg.det(_core.full((1, 1), 3.0, 'float64'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3.0"


# ---------------------------------------------------------------- matmul through BLAS, addmm


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("layout", ["row", "column", "stepped", "reversed"])
def test_blas_matmul_writes_any_output_layout(dt, layout):
    """A row- or column-major output is BLAS's own; any other goes through
    a temporary; inputs BLAS cannot read (negative strides) are packed."""
    rng = np.random.default_rng(6)
    a = rand(rng, (2, 5, 7), dt)
    b = rand(rng, (7, 3), dt)[::-1][::-1]
    mem = np.full((2, 10, 12), np.nan, dt)
    out = {
        "row": mem[:, :5, :3],
        "column": mem[:, :3, :5].transpose(0, 2, 1),
        "stepped": mem[:, ::2, ::4],
        "reversed": mem[:, 4::-1, 2::-1],
    }[layout]
    _ops.matmul(borrow(a[:, ::-1, :]), borrow(b), out=borrow(out))
    close(out, a[:, ::-1, :] @ b, dt, scale=7)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    "case", ["at_a", "a_at", "fortran_at_a", "stack", "column_out", "stepped_out", "one_row"]
)
def test_matmul_of_a_matrix_and_its_transpose_is_symmetric_and_numpys(dt, case):
    """X^T X and X X^T (the same memory transposed) into a row- or
    column-major output run as ?syrk and a mirror; the result is exactly
    symmetric and numpy's.  Complex: the plain
    transpose, no conjugate."""
    rng = np.random.default_rng(12)
    x = rand(rng, (2, 90, 7) if case == "stack" else (90, 7), dt)
    if case == "one_row":
        x = x[:1]
    if case == "fortran_at_a":
        x = np.asfortranarray(x)
    c = borrow(x)
    ct = _views.transpose(c, -1, -2)
    a, b = (c, ct) if case == "a_at" else (ct, c)
    want = np.matmul(*(np.swapaxes(x, -1, -2), x)[:: -1 if case == "a_at" else 1])
    if case in ("column_out", "stepped_out"):
        n = want.shape[-1]
        mem = np.full((2 * n, 2 * n), np.nan, dt)
        out = mem[:n, :n].T if case == "column_out" else mem[::2, ::2]
        _ops.matmul(a, b, out=borrow(out))
        got = out
    else:
        got = npy(_ops.matmul(a, b))
    close(got, want, dt, scale=90)
    if case != "stepped_out":  # a stepped output goes through a temporary: ?gemm
        np.testing.assert_array_equal(got, np.swapaxes(got, -1, -2))


@pytest.mark.parametrize("dt", ["float64", "complex64"])
@pytest.mark.parametrize("alpha, beta", [(2, 0), (1, 1), (-1, 0.5)])
def test_addmm_of_a_matrix_and_its_transpose(dt, alpha, beta):
    """alpha X^T X with beta 0 is ?syrk; a beta that reads the output is ?gemm."""
    rng = np.random.default_rng(13)
    x, c = rand(rng, (50, 6), dt), rand(rng, (6, 6), dt)
    out = to_core(c)
    core = borrow(x)
    _linalg.addmm(out, _views.transpose(core, 0, 1), core, alpha, beta)
    close(npy(out), np.array(alpha, dt) * (x.T @ x) + np.array(beta, dt) * c, dt, scale=50)


@pytest.mark.parametrize(
    "dt", ["float32", "float64", "complex64", "complex128", "int32", "int64", "uint8", "int16"]
)
@pytest.mark.parametrize("alpha, beta", [(1, 0), (2, 1), (-1, 3), (3, 0)])
def test_addmm_against_numpy(dt, alpha, beta):
    rng = np.random.default_rng(10)
    if dt == "uint8" and alpha < 0:
        alpha += 256  # -1 modulo 2^8
    if dt.startswith(("int", "uint")):
        a, b = rng.integers(0, 9, (2, 4, 6)).astype(dt), rng.integers(0, 9, (6, 5)).astype(dt)
        c = rng.integers(0, 9, (2, 4, 5)).astype(dt)
    else:
        a, b, c = rand(rng, (2, 4, 6), dt), rand(rng, (6, 5), dt), rand(rng, (2, 4, 5), dt)
    out = to_core(c)
    _linalg.addmm(out, borrow(a), borrow(b), alpha, beta)
    with np.errstate(over="ignore"):
        want = (np.array(alpha, dt) * np.matmul(a, b) + np.array(beta, dt) * c).astype(dt)
    if dt.startswith(("int", "uint")):
        np.testing.assert_array_equal(npy(out), want)  # wraps like numpy
    else:
        close(npy(out), want, dt, scale=10)


def test_addmm_beta_zero_ignores_nan_and_k_zero_scales():
    out = to_core(np.full((2, 2), np.nan))
    _linalg.addmm(out, to_core(np.eye(2)), to_core(np.eye(2)), 2.0, 0.0)
    np.testing.assert_array_equal(npy(out), 2 * np.eye(2))
    out = to_core(np.full((2, 2), 3.0))
    _linalg.addmm(out, to_core(np.ones((2, 0))), to_core(np.ones((0, 2))), 5.0, 2.0)
    np.testing.assert_array_equal(npy(out), np.full((2, 2), 6.0))
    out = to_core(np.full((2, 2), 3, np.int32))
    _linalg.addmm(out, to_core(np.ones((2, 0), np.int32)), to_core(np.ones((0, 2), np.int32)), 5, 0)
    np.testing.assert_array_equal(npy(out), np.zeros((2, 2)))


@pytest.mark.parametrize("dt", ["float64", "int64"])
def test_addmm_output_that_is_an_input(dt):
    m = np.array([[1, 2], [3, 4]], dt)
    c = to_core(m)
    _linalg.addmm(c, c, c, 1, 1)  # c = c @ c + c
    np.testing.assert_array_equal(npy(c), m @ m + m)


def test_addmm_errors():
    with pytest.raises(TypeError, match=r"addmm: alpha and beta need a numeric dtype, got bool"):
        _linalg.addmm(
            to_core(np.zeros((2, 2), bool)),
            to_core(np.eye(2, dtype=bool)),
            to_core(np.eye(2, dtype=bool)),
            True,
            False,
        )
    with pytest.raises(ValueError, match=r"addmm: out has shape \(3, 2\), expected \(2, 2\)"):
        _linalg.addmm(to_core(np.zeros((3, 2))), to_core(np.eye(2)), to_core(np.eye(2)))
    with pytest.raises(ValueError, match=r"alpha and beta must be given"):
        _core.check(
            lib.st_addmm(
                to_core(np.zeros((2, 2))).t,
                to_core(np.eye(2)).t,
                to_core(np.eye(2)).t,
                ffi.NULL,
                ffi.NULL,
            )
        )

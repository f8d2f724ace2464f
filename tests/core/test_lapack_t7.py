"""Torch7's LAPACK functions in the core (strided/core/linalg.py over
strided/_c/lapack_t7.c and linalg.c): gesv, trtrs, gels, potrf, potrs,
potri, pstrf, qr (geqrf_orgqr), geqrf, orgqr, ormqr, eig (geev), symeig
(syev), svd (gesvd), inverse (getri).

Two oracles.  Real Lua Torch7: tests/core/lapack_t7_lua.py holds what it
returned (values, sizes, strides, storage sizes, errors) on small matrices,
written by tests/core/lapack_t7_lua.lua; each case runs here through
linalg.TORCH7 and must give the same values, shapes and strides (pivots
0-based).  numpy (and scipy): the properties of each factorization on
random matrices and stacks in several layouts, and the failures, which
write nothing."""

import numpy as np
import pytest

from helpers import borrow, to_numpy
from lapack_t7_lua import CASES
from strided.core import base as _core, linalg as _linalg, views as _views
from strided._c._strided import lib

TOL = {"float32": 2e-5, "float64": 1e-12}


def npy(c):
    return None if c is None else to_numpy(c)


def close(got, want, dt, scale=1.0):
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=TOL[dt] * scale, atol=TOL[dt] * scale)


# ---------------------------------------------------------------- Lua Torch7's results


def lua_input(arg):
    """A Lua argument as a Core (a tensor: its values, laid out as Lua's
    strides were, row- or column-major) or as is."""
    if not isinstance(arg, dict):
        return arg
    dt = "float64" if arg["type"] == "torch.DoubleTensor" else "float32"
    a = np.array(arg["values"], dtype=dt)
    if a.ndim == 2 and arg["stride"][0] < arg["stride"][1]:
        a = np.asfortranarray(a)
    return borrow(a)


# results whose storage Lua makes larger than the result: torch.qr of a wide
# matrix narrows an m x n Q to m x m; ours owns exactly its elements
BIGGER_STORAGE_IN_LUA = {("qr wide", 0)}


# eigenvectors and singular vectors: their signs are LAPACK's choice, which
# another build's rounding can flip (Debian's OpenBLAS, which Lua used, and
# scipy-openblas32 do so for one float32 eig case): compared column by column
# up to sign
SIGNLESS = {("eig", 1), ("symeig", 1), ("svd", 0), ("svd", 2)}


def check_like_lua(name, i, got, want, fn=None):
    if want["values"] is None:  # Lua's empty tensor: eig's V without jobvr 'V'
        assert got is None
        return
    dt = "float64" if want["type"] == "torch.DoubleTensor" else "float32"
    values = np.array(want["values"])
    if want["type"] == "torch.IntTensor":  # pstrf's pivots: 1-based in Lua
        assert got.dtype.name == "int32"
        np.testing.assert_array_equal(npy(got), values - 1)
        assert list(got.strides) == want["stride"]
        return
    assert got.dtype.name == dt
    assert list(got.shape) == want["size"], (name, i)
    assert list(got.strides) == want["stride"], (name, i, got.strides)
    if (name[2:], i) not in BIGGER_STORAGE_IN_LUA:
        item = got.dtype.itemsize
        assert got.storage.nbytes // item == want["storage"], (name, i)
    g = npy(got)
    if (fn, i) in SIGNLESS:
        g = g * np.where(np.sum(g * values, axis=0) < 0, -1, 1)
    close(g, values, dt, scale=50)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_like_lua_torch7(case):
    fn = _linalg.TORCH7[case["fn"]]
    args = [lua_input(a) for a in case["args"]]
    if "error" in case:
        with pytest.raises(ValueError) as err:
            fn(*args)
        words = {
            "gesv": "singular",
            "trtrs": "singular",
            "gels": "full rank",
            "potrf": "not positive definite",
            "potri": "singular",
            "pstrf": "rank deficient or not positive semidefinite",
            "inverse": "singular",
        }
        assert words[case["fn"]] in str(err.value)
        return
    got = fn(*args)
    got = got if isinstance(got, tuple) else (got,)
    want = case["out"]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        # symeig 'N''s second result is syev's scratch, as Lua's
        check_like_lua(case["name"], i, g, w, case["fn"])


def test_lua_cases_cover_every_function():
    assert {c["fn"] for c in CASES} == set(_linalg.TORCH7)
    assert {c["name"][:2] for c in CASES} == {"d ", "s "}


# ---------------------------------------------------------------- properties (numpy)

DTS = ["float32", "float64"]
STACKS = [(), (3,), (2, 2)]


def rand(rng, shape, dt):
    return rng.standard_normal(shape).astype(dt)


def spd(rng, shape, dt):
    a = rng.standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dt)


def layout(a, kind):
    """a's values in another layout (a numpy view; tests borrow it)."""
    if kind == "transposed":
        return np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
    if kind == "stepped":
        big = np.zeros(a.shape[:-2] + (2 * a.shape[-2], 3 * a.shape[-1]), a.dtype)
        view = big[..., ::2, ::3]
        view[...] = a
        return view
    if kind == "reversed":
        return np.ascontiguousarray(a[..., ::-1, ::-1])[..., ::-1, ::-1]
    return a


LAYOUTS = ["contiguous", "transposed", "stepped", "reversed"]


def colmajor_strides(c):
    """TH's layout: each matrix column-major, the stack outside."""
    *batch, m, n = c.shape
    return [1, m] if not batch else list(c.strides[:-2]) + [1, m]


def t(a):
    return np.swapaxes(a, -1, -2)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("kind", LAYOUTS)
def test_gesv(dt, stack, kind):
    import scipy.linalg

    rng = np.random.default_rng(1)
    n, k = 5, 3
    a = (rand(rng, stack + (n, n), dt) + n * np.eye(n)).astype(dt)
    b = rand(rng, stack + (n, k), dt)
    x, lu = _linalg.gesv(borrow(layout(b, kind)), borrow(layout(a, kind)))
    assert x.shape == stack + (n, k) and lu.shape == stack + (n, n)
    assert list(x.strides[-2:]) == [1, n] and list(lu.strides[-2:]) == [1, n]
    close(a @ npy(x), b, dt, scale=10)
    for i in np.ndindex(stack):
        close(npy(lu)[i], scipy.linalg.lu_factor(a[i])[0], dt, scale=10)


def test_gesv_1d_b_is_a_column_and_batches_broadcast():
    rng = np.random.default_rng(2)
    a = rand(rng, (4, 4), "float64") + 4 * np.eye(4)
    b = rand(rng, (4,), "float64")
    x, _ = _linalg.gesv(borrow(b), borrow(a))
    assert x.shape == (4, 1)
    close(npy(x)[:, 0], np.linalg.solve(a, b), "float64")
    bs = rand(rng, (3, 4, 2), "float64")  # one A, a stack of B
    x, lu = _linalg.gesv(borrow(bs), borrow(a))
    assert x.shape == (3, 4, 2) and lu.shape == (3, 4, 4)
    close(npy(x), np.linalg.solve(a, bs), "float64")


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("uplo", "UL")
@pytest.mark.parametrize("trans", "NT")
@pytest.mark.parametrize("diag", "NU")
def test_trtrs(dt, uplo, trans, diag):
    rng = np.random.default_rng(3)
    n = 6
    a = rand(rng, (2, n, n), dt) + 3 * np.eye(n, dtype=dt)
    b = rand(rng, (2, n, 2), dt)
    tri = np.triu(a) if uplo == "U" else np.tril(a)
    if diag == "U":  # the diagonal is not read: taken as ones
        tri = tri * (1 - np.eye(n)) + np.eye(n)
    op = t(tri) if trans == "T" else tri
    x, ra = _linalg.trtrs(borrow(layout(b, "transposed")), borrow(a), uplo, trans, diag)
    close(npy(x), np.linalg.solve(op.astype("float64"), b), dt, scale=100)
    np.testing.assert_array_equal(npy(ra), a)
    assert list(ra.strides[-2:]) == [1, n]


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("mn", [(7, 3), (3, 7), (4, 4)])
@pytest.mark.parametrize("kind", LAYOUTS)
def test_gels(dt, mn, kind):
    rng = np.random.default_rng(4)
    m, n = mn
    a = rand(rng, (2, m, n), dt)
    b = rand(rng, (2, m, 3), dt)
    x, qr = _linalg.gels(borrow(layout(b, kind)), borrow(layout(a, kind)))
    assert x.shape == (2, n, 3) and qr.shape == (2, m, n)
    assert list(x.strides[-2:]) == [1, max(m, n)]
    for i in range(2):
        want = np.linalg.lstsq(a[i].astype("float64"), b[i].astype("float64"), rcond=None)[0]
        close(npy(x)[i], want, dt, scale=100)
    if m > n:  # the rows below the solution, in X's storage: the residuals' parts
        full = _core.Core.over(x.storage, dt, x.offset, (2, m, 3), x.strides)
        res = np.linalg.norm(a @ npy(x) - b, axis=-2)
        close(np.linalg.norm(npy(full)[:, n:], axis=-2), res, dt, scale=100)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("uplo", "UL")
def test_potrf_potrs_potri(dt, stack, uplo):
    rng = np.random.default_rng(5)
    n = 5
    a = spd(rng, stack + (n, n), dt)
    # only the uplo triangle is read: garbage in the other
    junk = a + (np.tril(np.ones((n, n)), -1) if uplo == "U" else np.triu(np.ones((n, n)), 1)) * 7
    f = _linalg.potrf(borrow(junk.astype(dt)), uplo)
    assert list(f.strides[-2:]) == [1, n]
    fn = npy(f)
    if uplo == "U":
        assert np.all(np.tril(fn, -1) == 0)
        close(t(fn) @ fn, a, dt, scale=20)
    else:
        assert np.all(np.triu(fn, 1) == 0)
        close(fn @ t(fn), a, dt, scale=20)
    b = rand(rng, stack + (n, 2), dt)
    x = _linalg.potrs(borrow(b), f, uplo)
    close(a @ npy(x), b, dt, scale=20)
    inv = _linalg.potri(f, uplo)
    close(npy(inv), np.linalg.inv(a.astype("float64")), dt, scale=50)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("uplo", "UL")
def test_pstrf(dt, uplo):
    rng = np.random.default_rng(6)
    n = 6
    a = spd(rng, (3, n, n), dt)
    f, piv = _linalg.pstrf(borrow(a), uplo)
    assert piv.dtype.name == "int32" and piv.shape == (3, n)
    p = npy(piv)
    fn = npy(f)
    for i in range(3):
        assert sorted(p[i]) == list(range(n))  # 0-based permutation
        prod = t(fn[i]) @ fn[i] if uplo == "U" else fn[i] @ t(fn[i])
        close(prod, a[i][np.ix_(p[i], p[i])], dt, scale=20)  # P^T A P, P[piv[k], k] = 1
        # complete pivoting: the diagonal of the factor does not increase
        d = np.diag(fn[i])
        assert np.all(d[:-1] >= d[1:] * (1 - 1e-5))


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("mn", [(6, 3), (3, 6), (4, 4)])
@pytest.mark.parametrize("stack", [(), (3,)])
def test_qr_geqrf_orgqr(dt, mn, stack):
    rng = np.random.default_rng(7)
    m, n = mn
    k = min(m, n)
    a = rand(rng, stack + (m, n), dt)
    q, r = _linalg.geqrf_orgqr(borrow(layout(a, "stepped")))
    assert q.shape == stack + (m, k) and r.shape == stack + (k, n)
    assert list(q.strides[-2:]) == [1, m] and list(r.strides[-2:]) == [n, 1]
    qn, rn = npy(q), npy(r)
    close(qn @ rn, a, dt, scale=10)
    close(t(qn) @ qn, np.broadcast_to(np.eye(k), stack + (k, k)), dt, scale=10)
    assert np.all(np.tril(rn, -1) == 0)
    qr, tau = _linalg.geqrf(borrow(a))
    assert qr.shape == stack + (m, n) and tau.shape == stack + (k,)
    close(np.triu(npy(qr))[..., :k, :], rn, dt)
    q2 = npy(_linalg.orgqr(qr, tau))
    assert q2.shape == stack + (m, n)
    close(q2[..., :, :k], qn, dt)
    close(q2[..., :, k:], npy(qr)[..., :, k:], dt)  # the columns past k stay A's


def householder_q(qr, tau):
    """Q (m x m) of one geqrf result: H_1 ... H_k, H_i = I - tau_i v_i v_i^T."""
    m = qr.shape[0]
    q = np.eye(m)
    for i in range(len(tau)):
        v = np.zeros(m)
        v[i] = 1
        v[i + 1 :] = qr[i + 1 :, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("side", "LR")
@pytest.mark.parametrize("trans", "NT")
def test_ormqr(dt, side, trans):
    rng = np.random.default_rng(8)
    m, n = 6, 4
    a = rand(rng, (2, m, n), dt)
    qr, tau = _linalg.geqrf(borrow(a))
    c = rand(rng, (2, m, 3) if side == "L" else (2, 3, m), dt)
    out = npy(_linalg.ormqr(qr, tau, borrow(layout(c, "reversed")), side, trans))
    for i in range(2):
        q = householder_q(npy(qr)[i].astype("float64"), npy(tau)[i].astype("float64"))
        op = q.T if trans == "T" else q
        close(out[i], op @ c[i] if side == "L" else c[i] @ op, dt, scale=10)


def unpack_eig(e, v):
    """Lua's (e, V) as complex eigenvalues and eigenvectors."""
    w = e[:, 0] + 1j * e[:, 1]
    vec = v.astype(complex)
    j = 0
    while j < len(w):
        if e[j, 1] != 0:
            vec[:, j] = v[:, j] + 1j * v[:, j + 1]
            vec[:, j + 1] = v[:, j] - 1j * v[:, j + 1]
            j += 2
        else:
            j += 1
    return w, vec


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("n", [1, 5, 8])
def test_geev(dt, n):
    rng = np.random.default_rng(9)
    a = rand(rng, (3, n, n), dt)
    e, v = _linalg.geev(borrow(layout(a, "transposed")), "V")
    assert e.shape == (3, n, 2) and list(e.strides) == [2 * n, 2, 1]
    assert list(v.strides[-2:]) == [1, n]
    e2, none = _linalg.geev(borrow(a))
    assert none is None
    np.testing.assert_array_equal(npy(e2), npy(e))
    for i in range(3):
        w, vec = unpack_eig(npy(e)[i], npy(v)[i])
        close(a[i] @ vec, vec * w, dt, scale=50)
        close(
            np.sort_complex(w),
            np.sort_complex(np.linalg.eigvals(a[i].astype("float64"))),
            dt,
            scale=50,
        )
        close(np.linalg.norm(vec, axis=0), np.ones(n), dt, scale=10)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("uplo", "UL")
@pytest.mark.parametrize("stack", STACKS)
def test_syev(dt, uplo, stack):
    rng = np.random.default_rng(10)
    n = 6
    s = rand(rng, stack + (n, n), dt)
    sym = (s + t(s)) / 2
    junk = np.triu(sym) + np.tril(s, -1) * 5 if uplo == "U" else np.tril(sym) + np.triu(s, 1) * 5
    e, v = _linalg.syev(borrow(junk.astype(dt)), "V", uplo)
    assert list(v.strides[-2:]) == [1, n]
    en, vn = npy(e), npy(v)
    close(en, np.linalg.eigvalsh(sym.astype("float64")), dt, scale=50)
    close(vn @ (en[..., None] * t(vn)), sym, dt, scale=50)
    e2, scratch = _linalg.syev(borrow(junk.astype(dt)), "N", uplo)
    close(npy(e2), en, dt, scale=10)
    # jobz 'N': A's copy as LAPACK left it (Lua returns it): the triangle
    # not read is A's, untouched
    assert scratch.shape == stack + (n, n) and list(scratch.strides[-2:]) == [1, n]
    keep = np.tril if uplo == "U" else np.triu
    k = -1 if uplo == "U" else 1
    assert (keep(npy(scratch), k) == keep(junk.astype(dt), k)).all()


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("mn", [(6, 3), (3, 6), (4, 4)])
@pytest.mark.parametrize("job", "SA")
@pytest.mark.parametrize("kind", LAYOUTS)
def test_gesvd(dt, mn, job, kind):
    rng = np.random.default_rng(11)
    m, n = mn
    k = min(m, n)
    a = rand(rng, (2, m, n), dt)
    u, s, v = _linalg.gesvd(borrow(layout(a, kind)), job)
    uc, vc = (m, n) if job == "A" else (k, k)
    assert u.shape == (2, m, uc) and s.shape == (2, k) and v.shape == (2, n, vc)
    assert list(u.strides[-2:]) == [1, m] and list(v.strides[-2:]) == [vc, 1]
    un, sn, vn = npy(u), npy(s), npy(v)
    close(sn, np.linalg.svd(a.astype("float64"), compute_uv=False), dt, scale=10)
    close((un[..., :, :k] * sn[..., None, :]) @ t(vn[..., :, :k]), a, dt, scale=20)
    close(t(un) @ un, np.broadcast_to(np.eye(uc), (2, uc, uc)), dt, scale=10)
    close(t(vn) @ vn, np.broadcast_to(np.eye(vc), (2, vc, vc)), dt, scale=10)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("n", [1, 4, 70])  # 70: above the threaded-stack limit
def test_getri(dt, stack, n):
    rng = np.random.default_rng(12)
    a = (rand(rng, stack + (n, n), dt) + n * np.eye(n)).astype(dt)
    inv = _linalg.getri(borrow(layout(a, "transposed")))
    assert list(inv.strides[-2:]) == [1, n]
    close(a @ npy(inv), np.broadcast_to(np.eye(n), a.shape), dt, scale=n)


STACKED = {
    "gesv": lambda a, b, pd: _linalg.gesv(b, a),
    "trtrs": lambda a, b, pd: _linalg.trtrs(b, a, "L", "T"),
    "gels": lambda a, b, pd: _linalg.gels(b, a),
    "potrf": lambda a, b, pd: _linalg.potrf(pd),
    "potrs": lambda a, b, pd: _linalg.potrs(b, _linalg.potrf(pd)),
    "potri": lambda a, b, pd: _linalg.potri(_linalg.potrf(pd, "L"), "L"),
    "pstrf": lambda a, b, pd: _linalg.pstrf(pd, "L"),
    "qr": lambda a, b, pd: _linalg.geqrf_orgqr(a),
    "geqrf": lambda a, b, pd: _linalg.geqrf(a),
    "orgqr": lambda a, b, pd: _linalg.orgqr(*_linalg.geqrf(a)),
    "ormqr": lambda a, b, pd: _linalg.ormqr(*_linalg.geqrf(a), b, "L", "T"),
    "eig": lambda a, b, pd: _linalg.geev(a, "V"),
    "symeig": lambda a, b, pd: _linalg.syev(pd, "V", "L"),
    "svd": lambda a, b, pd: _linalg.gesvd(a, "A"),
    "inverse": lambda a, b, pd: _linalg.getri(a),
}


@pytest.mark.parametrize("name", sorted(STACKED))
def test_a_stack_gives_each_matrix_its_own_result(name):
    """Bit for bit what the matrices give one by one: 32 matrices of side
    16 are shared out over the threads."""
    rng = np.random.default_rng(13)
    n, stack = 16, (4, 8)
    a = rand(rng, stack + (n, n), "float64") + 2 * np.eye(n)
    b = rand(rng, stack + (n, 2), "float64")
    pd = spd(rng, stack + (n, n), "float64")
    whole = STACKED[name](borrow(a), borrow(b), borrow(pd))
    whole = whole if isinstance(whole, tuple) else (whole,)
    for i in np.ndindex(stack):
        one = STACKED[name](borrow(a[i]), borrow(b[i]), borrow(pd[i]))
        one = one if isinstance(one, tuple) else (one,)
        for w, o in zip(whole, one):
            np.testing.assert_array_equal(npy(w)[i], npy(o))


def test_empty_matrices():
    e = np.zeros((0, 0))
    x, lu = _linalg.gesv(borrow(np.zeros((0, 2))), borrow(e))
    assert x.shape == (0, 2) and lu.shape == (0, 0)
    u, s, v = _linalg.gesvd(borrow(np.zeros((0, 3))), "A")
    assert u.shape == (0, 0) and s.shape == (0,)
    np.testing.assert_array_equal(npy(v), np.eye(3))
    qr, tau = _linalg.geqrf(borrow(np.zeros((3, 0))))
    assert qr.shape == (3, 0) and tau.shape == (0,)
    a = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(npy(_linalg.orgqr(borrow(a), borrow(np.zeros(0)))), a)
    c = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(npy(_linalg.ormqr(borrow(a), borrow(np.zeros(0)), borrow(c))), c)
    assert _linalg.getri(borrow(np.zeros((2, 0, 0)))).shape == (2, 0, 0)


# ---------------------------------------------------------------- failures


def sentinel(shape, dt="float64"):
    c = _core.Core.empty(shape, dt)
    _core.fill_(c, 12345)
    return c


def untouched(*cores):
    for c in cores:
        assert np.all(npy(c) == 12345)


def test_failures_write_nothing_and_name_the_matrix():
    rng = np.random.default_rng(14)
    a = rand(rng, (3, 4, 4), "float64") + 4 * np.eye(4)
    a[1, :, 2] = 0  # singular: matrix (1,)
    b = rand(rng, (3, 4, 2), "float64")
    x, lu = sentinel((3, 4, 2)), sentinel((3, 4, 4))
    with pytest.raises(ValueError, match=r"gesv: A is singular: matrix \(1,\) of the stack"):
        _core.check(lib.st_linalg_gesv(x.t, lu.t, borrow(a).t, borrow(b).t))
    untouched(x, lu)
    inv = sentinel((3, 4, 4))
    with pytest.raises(ValueError, match=r"getri: matrix \(1,\) of the stack is singular"):
        _core.check(lib.st_linalg_getri(inv.t, borrow(a).t))
    untouched(inv)
    pd = spd(rng, (3, 4, 4), "float64")
    pd[2, 3, 3] = -50  # not positive definite: matrix (2,)
    out, piv = sentinel((3, 4, 4)), _core.Core.empty((3, 4), "int32")
    _core.fill_(piv, 7)
    with pytest.raises(
        ValueError,
        match=r"pstrf: matrix \(2,\) of the stack is rank deficient "
        r"or not positive semidefinite \(the pivoted "
        r"factorization stopped at rank 3 of 4\)",
    ):
        _core.check(lib.st_linalg_pstrf(out.t, piv.t, borrow(pd).t, b"U", -1.0))
    untouched(out)
    assert np.all(npy(piv) == 7)
    with pytest.raises(
        ValueError,
        match=r"potrf: matrix \(2,\) of the stack is not positive "
        r"definite \(its leading minor of order 4 is not\)",
    ):
        _core.check(lib.st_linalg_potrf(out.t, borrow(pd).t, b"U"))
    untouched(out)
    chol = np.triu(rand(rng, (3, 4, 4), "float64")) + 4 * np.eye(4)
    chol[0, 1, 1] = 0
    with pytest.raises(
        ValueError,
        match=r"potri: chol is singular: matrix \(0,\) of the stack "
        r"has a zero on its diagonal \(chol\[1, 1\]\)",
    ):
        _core.check(lib.st_linalg_potri(out.t, borrow(chol).t, b"U"))
    untouched(out)
    with pytest.raises(
        ValueError,
        match=r"trtrs: A is singular: matrix \(0,\) of the stack has "
        r"a zero on its diagonal \(A\[1, 1\]\)",
    ):
        _core.check(lib.st_linalg_trtrs(x.t, borrow(chol).t, borrow(b).t, b"U", b"N", b"N"))
    untouched(x)
    # a unit diagonal is not read: no failure
    _core.check(lib.st_linalg_trtrs(x.t, borrow(chol).t, borrow(b).t, b"U", b"N", b"U"))
    g = rand(rng, (3, 5, 2), "float64")
    g[2, :, 1] = g[2, :, 0] * 0  # rank deficient: matrix (2,)
    gx, gq = sentinel((3, 5, 2)), sentinel((3, 5, 2))
    with pytest.raises(
        ValueError,
        match=r"gels: A does not have full rank: matrix \(2,\) of "
        r"the stack has a zero diagonal element in the "
        r"triangular factor of its QR .m >= n. or LQ .m < n. "
        r"factorization .\[1, 1\].",
    ):
        _core.check(
            lib.st_linalg_gels(gx.t, gq.t, borrow(g).t, borrow(rand(rng, (3, 5, 2), "float64")).t)
        )
    untouched(gx, gq)


def test_non_finite_input_to_iterative_methods():
    a = np.eye(3)[None].repeat(2, 0)
    a[1, 2, 0] = np.nan  # in matrix (1,)'s lower triangle
    _linalg.syev(borrow(a), "V", "U")  # syev 'U' does not read it
    w, w2, v, u = sentinel((2, 3)), sentinel((2, 3, 2)), sentinel((2, 3, 3)), sentinel((2, 3, 3))
    nonfinite = r"%s: matrix \(1,\) of the stack contains non-finite values \(inf or NaN\)"
    with pytest.raises(ValueError, match=nonfinite % "syev" + " in its lower triangle"):
        _core.check(lib.st_linalg_syev(w.t, v.t, borrow(a).t, b"V", b"L"))
    with pytest.raises(ValueError, match=nonfinite % "geev"):
        _core.check(lib.st_linalg_geev(w2.t, v.t, borrow(a).t))
    with pytest.raises(ValueError, match=nonfinite % "gesvd"):
        _core.check(lib.st_linalg_gesvd(u.t, w.t, v.t, borrow(a).t, b"S"))
    untouched(w, w2, v, u)


def test_argument_errors():
    a = borrow(np.eye(3))
    b = borrow(np.ones((3, 2)))
    with pytest.raises(TypeError, match="float32 or float64"):
        _linalg.gesv(b, borrow(np.eye(3, dtype="complex128")))
    with pytest.raises(TypeError, match="float32 or float64"):
        _linalg.getri(borrow(np.eye(3, dtype="int64")))
    with pytest.raises(TypeError, match="B must have A's dtype"):
        _linalg.gesv(borrow(np.ones((3, 2), "float32")), a)
    with pytest.raises(ValueError, match="square"):
        _linalg.gesv(b, borrow(np.ones((3, 2))))
    with pytest.raises(ValueError, match="3 rows"):
        _linalg.gesv(borrow(np.ones((2, 2))), a)
    with pytest.raises(ValueError, match="uplo must be 'U' or 'L'"):
        _linalg.potrf(a, "u")
    with pytest.raises(ValueError, match="jobu must be 'S' or 'A'"):
        _linalg.gesvd(a, "N")
    with pytest.raises(ValueError, match="side must be 'L' or 'R'"):
        _linalg.ormqr(a, borrow(np.ones(3)), a, "X")
    with pytest.raises(ValueError, match="do not broadcast"):
        _linalg.gesv(borrow(np.ones((2, 3, 1))), borrow(np.ones((3, 3, 3))))
    with pytest.raises(ValueError, match="orgqr: tau has 3 reflectors but A is 3 x 2"):
        _linalg.orgqr(borrow(np.ones((3, 2))), borrow(np.ones(3)))
    with pytest.raises(ValueError, match="ormqr: A .3 x 2. must have 4 rows"):
        _linalg.ormqr(borrow(np.ones((3, 2))), borrow(np.ones(2)), borrow(np.ones((4, 2))))
    # the C side checks what the Python side does not: options, shapes, outputs
    out = _core.Core.empty((3, 3), "float64")
    with pytest.raises(ValueError, match="trtrs: diag must be 'N' or 'U', got character code 88"):
        _core.check(lib.st_linalg_trtrs(out.t, a.t, a.t, b"U", b"N", b"X"))
    with pytest.raises(ValueError, match=r"gels: X has shape \(3, 3\), expected \(3, 2\)"):
        _core.check(lib.st_linalg_gels(out.t, out.t, a.t, b.t))
    with pytest.raises(ValueError, match="must not share memory"):
        _core.check(lib.st_linalg_geqrf(out.t, _views.select(out, 0, 0).t, a.t))

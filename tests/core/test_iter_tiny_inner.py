"""The iterator walks a long dim instead of a tiny inner one that cannot
merge (st_iter_simplify's swap_tiny_inner): kron-like broadcasts, narrow
slices and reversed views give numpy's values whichever dims it walks."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp

dtypes = st.sampled_from(["float64", "float32", "int64", "int16", "uint8", "complex128", "bool"])


def _data(rng, shape, dtype):
    v = rng.integers(-50, 50, size=shape)
    if dtype == "complex128":
        return (v + 1j * rng.integers(-5, 5, size=shape)).astype(dtype)
    return (v > 0) if dtype == "bool" else v.astype(dtype)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 9),
    st.integers(1, 300),
    st.integers(1, 9),
    dtypes,
    st.sampled_from(["multiply", "add", "equal", "maximum"]),
    st.integers(0, 2**32 - 1),
)
def test_kron_like_broadcasts(outer, p, mid, q, dtype, op, seed):
    rng = np.random.default_rng(seed)
    a = _data(rng, (outer, 1, mid, 1), dtype)
    b = _data(rng, (1, p, 1, q), dtype)
    if dtype in ("bool", "complex128") and op != "equal":
        op = "equal"  # (the others need real numbers)
    got = getattr(xp, op)(xp.asarray(a), xp.asarray(b))
    np.testing.assert_array_equal(np.asarray(got), getattr(np, op)(a, b))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 300), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_narrow_columns_of_a_wide_matrix(rows, cols, seed):
    """x[:, :cols] (a long dim with a small step, a tiny contiguous one),
    reversed and written into a strided output."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((rows, 3 * cols + 2))
    x = base[:, :cols]
    got = xp.exp(xp.asarray(base)[:, :cols])
    np.testing.assert_allclose(np.asarray(got), np.exp(x), rtol=1e-15)
    rev = xp.asarray(base)[::-1, cols - 1 :: -1] * 2.0
    np.testing.assert_array_equal(np.asarray(rev), base[::-1, cols - 1 :: -1] * 2.0)
    out = xp.zeros((rows, 3 * cols))
    out[:, ::3] = xp.asarray(x)
    want = np.zeros((rows, 3 * cols))
    want[:, ::3] = x
    np.testing.assert_array_equal(np.asarray(out), want)


def _kron(a, b):
    """array-api-extra's kron of two matrices, written out (a core test needs
    no peer): the product broadcast to (r, p, c, q), then merged to (r*p, c*q);
    its inner dim q is the tiny one the iterator swaps."""
    (r, c), (p, q) = a.shape, b.shape
    return xp.reshape(a[:, None, :, None] * b[None, :, None, :], (r * p, c * q))


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 60),
    st.integers(1, 30),
    st.integers(1, 5),
    st.integers(1, 5),
    st.integers(0, 2**32 - 1),
)
def test_kron_matches_numpy(r, c, p, q, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((r, c)), rng.standard_normal((p, q))
    got = _kron(xp.asarray(a), xp.asarray(b))
    np.testing.assert_array_equal(np.asarray(got), np.kron(a, b))


def test_large_kron_on_threads():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2000, 200)), rng.standard_normal((4, 4))
    np.testing.assert_array_equal(np.asarray(_kron(xp.asarray(a), xp.asarray(b))), np.kron(a, b))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(256, 6000),
    st.integers(1, 8),
    dtypes,
    st.sampled_from(["subtract", "add", "equal", "maximum"]),
    st.integers(0, 2**32 - 1),
)
def test_long_rows_of_a_tiny_width(rows, width, dtype, op, seed):
    """k-means' `sq[:, None] - g` and `g + c[None, :]` over (rows, width):
    the long dim spans more than the swap's window, so the iterator walks
    it in tiles (st_iter_run's tiny_inner_tiles), on threads when large."""
    rng = np.random.default_rng(seed)
    g = _data(rng, (rows, width), dtype)
    col, row = _data(rng, (rows,), dtype), _data(rng, (width,), dtype)
    if dtype in ("bool", "complex128") and op != "equal":
        op = "equal"
    if dtype == "bool" and op == "subtract":
        op = "equal"
    f, fx = getattr(np, op), getattr(xp, op)
    G, C, R = xp.asarray(g), xp.asarray(col), xp.asarray(row)
    np.testing.assert_array_equal(np.asarray(fx(C[:, None], G)), f(col[:, None], g))
    np.testing.assert_array_equal(np.asarray(fx(G, R[None, :])), f(g, row[None, :]))
    np.testing.assert_array_equal(np.asarray(fx(C[:, None], R[None, :])), f(col[:, None], row))
    # a strided output and a reversed input
    out = xp.zeros((rows, 2 * width), dtype=getattr(xp, str(f(g, g).dtype)))
    out[:, ::2] = fx(G[::-1, :], R[None, :])
    np.testing.assert_array_equal(np.asarray(out)[:, ::2], f(g[::-1, :], row[None, :]))

"""The one-C-call paths of the calls library code makes in its loops
(issue 22; strided/_c/pyarray.c and fast.c): `@` and xp.matmul, vecdot
against a vector, .T and .mT, basic indexing and assignment, reshape,
astype, asarray of an Array or a Python scalar, and the attributes.
Each is checked against numpy and against the general (Python) path it
stands in for, on views of every layout (offsets, negative steps,
non-contiguous, empty, 0-d), and the cases C declines keep their errors."""

import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from compat_util import NAMES, check, np_of
from strided.core import base as _core, indexing as _indexing_core, ops as _ops, views as _views
from strided.compat import _array, _indexing

NUMERIC = [n for n in NAMES if n != "bool"]


def values(shape, name, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(name)
    if dt.kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if dt.kind in "iu":
        return np.asarray(rng.integers(0 if dt.kind == "u" else -5, 6, shape).astype(dt))
    v = rng.standard_normal(shape)
    return np.asarray((v + 1j * rng.standard_normal(shape) if dt.kind == "c" else v).astype(dt))


def layouts(a):
    """(numpy view, Array view) pairs with a's values: contiguous, inside a
    larger array at an offset, every other element, reversed."""
    yield a, xp.asarray(a.copy())
    if a.ndim == 0:
        return
    wide = np.zeros(a.shape[:-1] + (2 * a.shape[-1] + 1,), a.dtype)
    wide[..., 1::2] = a
    w = xp.asarray(wide.copy())
    yield wide[..., 1::2], w[..., 1::2]
    rev = a[..., ::-1].copy()
    yield rev[..., ::-1], xp.asarray(rev)[..., ::-1]


def outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:  # the error is what is compared
        return type(e), str(e)


# ---------------------------------------------------------------- attributes


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 4), (5, 1, 3)])
@pytest.mark.parametrize("name", ["bool", "int32", "float64", "complex64"])
def test_attributes_are_the_records(shape, name):
    x = xp.asarray(values(shape, name))
    c = x._c
    assert x.shape == c.shape and type(x.shape) is tuple
    assert all(type(n) is int for n in x.shape)
    assert x.ndim == c.ndim and x.size == c.size and x.dtype is c.dtype
    assert x.dtype == getattr(xp, name)
    # an Array made in Python (Array._new) reads the same
    y = xp.Array._new(c)
    assert (y.shape, y.ndim, y.size, y.dtype) == (x.shape, x.ndim, x.size, x.dtype)


def test_attributes_are_read_only():
    x = xp.zeros(3)
    for name in ("shape", "ndim", "size", "dtype", "T", "mT"):
        with pytest.raises(AttributeError):
            setattr(x, name, 1)


# ---------------------------------------------------------------- transposes


@pytest.mark.parametrize("shape", [(3, 4), (0, 2), (1, 1), (2, 3, 4), (2, 0, 5)])
def test_transposes_match_numpy_and_the_general_path(shape):
    a = values(shape, "float64")
    for na, x in layouts(a):
        if x.ndim == 2:
            check(x.T, na.T)
            check(x.T, np_of(_array._T(x)))
        check(x.mT, np.swapaxes(na, -1, -2))
        check(x.mT, np_of(_array._mT(x)))
        # a view: writes show through
        v = x.mT
        if v.size:
            v[(0,) * v.ndim] = 7.0
            assert float(x[(0,) * x.ndim]) == 7.0


@pytest.mark.parametrize("shape", [(), (3,), (2, 3, 4)])
def test_transpose_errors_unchanged(shape):
    x = xp.zeros(shape)
    if len(shape) != 2:
        with pytest.raises(
            ValueError, match=f"T needs a 2-D array, this one has {len(shape)} dims"
        ):
            x.T
    if len(shape) < 2:
        with pytest.raises(
            ValueError, match=f"mT needs at least 2 dims, this array has {len(shape)}"
        ):
            x.mT


# ---------------------------------------------------------------- indexing

KEYS = [
    0,
    -1,
    2,
    slice(None),
    slice(1, 3),
    slice(None, None, -1),
    slice(3, 0, -2),
    slice(10, 20),
    slice(-100, 100, 3),
    None,
    Ellipsis,
    (),
    (0, 1),
    (slice(1, 3), 2),
    (slice(None), None),
    (None, Ellipsis, None),
    (Ellipsis, 1),
    (1, Ellipsis, slice(None, 2)),
    (-1, -1, -1),
    (slice(None, None, -1), None, 0),
    (0, None, slice(2, None), None),
]


def slice_entries(n):
    bound = st.none() | st.integers(-n - 3, n + 3)
    return st.builds(slice, bound, bound, st.none() | st.integers(-4, 4).filter(bool))


@st.composite
def basic_keys(draw, shape):
    """A basic index of shape's array: ints in range and slices for its
    first dims (or, after an ellipsis, its last ones), Nones anywhere."""
    k = draw(st.integers(0, len(shape)))
    trailing = draw(st.booleans())
    dims = range(len(shape) - k, len(shape)) if trailing else range(k)
    entries = []
    for d in dims:
        n = shape[d]
        if draw(st.booleans()) and n:
            entries.append(draw(st.integers(-n, n - 1)))
        else:
            entries.append(draw(slice_entries(n)))
    for _ in range(draw(st.integers(0, 2))):
        entries.insert(draw(st.integers(0, len(entries))), None)
    if trailing:
        entries.insert(0, Ellipsis)
    elif draw(st.booleans()):
        entries.append(Ellipsis)
    if len(entries) == 1 and draw(st.booleans()):
        return entries[0]
    return tuple(entries)


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("name", ["bool", "int16", "float64", "complex128"])
def test_basic_getitem_matches_numpy_and_the_general_path(key, name):
    a = values((4, 5, 3), name)
    for na, x in layouts(a):
        check(x[key], na[key])
        check(x[key], np_of(_indexing.array_getitem(x, key)))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
def test_basic_getitem_any_key(data, shape):
    key = data.draw(basic_keys(shape))
    a = values(shape, "int64")
    for na, x in layouts(a):
        got = x[key]
        check(got, na[key])
        general = _indexing.array_getitem(x, key)
        assert got._c.strides == general._c.strides and got._c.offset == general._c.offset


def test_getitem_is_a_view():
    x = xp.asarray(values((4, 5), "float64"))
    v = x[1:3, ::-1]
    v[0, 0] = 42.0
    assert float(x[1, 4]) == 42.0


@pytest.mark.parametrize(
    "key",
    [
        5,
        -6,
        (0, 5),
        (slice(None), -4),
        (0, 0, 0),
        (Ellipsis, Ellipsis),
        slice(None, None, 0),
        slice(1.5, None),
        "a",
        1.0,
        True,
        (0, [1, 2]),
        np.int64(7),
    ],
    ids=repr,
)
def test_getitem_errors_unchanged(key):
    x = xp.asarray(values((5, 3), "float64"))
    fast, general = outcome(operator.getitem, x, key), outcome(_indexing.array_getitem, x, key)
    if isinstance(general, xp.Array):
        check(fast, np_of(general))
    else:
        assert fast == general
    if key in (5, -6):
        assert isinstance(fast, tuple) and fast[0] is IndexError and "index" in fast[1]


def test_getitem_of_0d():
    x = xp.asarray(3.5)
    check(x[()], np.float64(3.5))
    check(x[...], np.float64(3.5))
    check(x[None], np.array([3.5]))
    with pytest.raises(IndexError):
        x[0]


def test_getitem_declined_keys_take_the_general_path():
    a = values((4, 3), "float64")
    x = xp.asarray(a)
    check(x[xp.asarray([2, 0])], a[[2, 0]])
    check(x[x > 0], a[a > 0])
    check(x[np.int64(1)], a[1])
    check(x[xp.asarray(2)], a[2])


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("name", ["int16", "float32", "float64"])
def test_setitem_scalar_matches_numpy(key, name):
    a = values((4, 5, 3), name)
    for na, x in layouts(a):
        want = na.copy()
        want[key] = 3
        x[key] = 3
        check(x, want)
        if np.dtype(name).kind == "f":
            want[key] = -1.25
            x[key] = -1.25
            check(x, want)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_setitem_array_matches_numpy(key):
    a = values((4, 5, 3), "float64")
    for na, x in layouts(a):
        want = na.copy()
        src = values(want[key].shape, "float64", seed=3)
        want[key] = src
        x[key] = xp.asarray(src)
        check(x, want)
        # a 0-d value broadcasts
        want[key] = 2.5
        x[key] = xp.asarray(2.5)
        check(x, want)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
def test_setitem_fast_and_general_agree(data, shape):
    key = data.draw(basic_keys(shape))
    a = values(shape, "int32")
    value = data.draw(st.integers(-100, 100) | st.just("array"))
    x, y = xp.asarray(a.copy()), xp.asarray(a.copy())
    if value == "array":
        value = xp.asarray(values(a[key].shape, "int32", seed=5))
    x[key] = value
    _indexing.array_setitem(y, key, value)
    check(x, np_of(y))


def test_setitem_overlapping_views():
    a = np.arange(10.0)
    x = xp.asarray(a.copy())
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    check(x, a)
    x = xp.asarray(np.arange(10.0))
    x[::-1] = x
    check(x, np.arange(10.0)[::-1])


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        2**70,
        -1,
        300,
        True,
        1j,
        xp.asarray([1.0, 2.0]),
        xp.asarray([1, 2, 3], dtype=xp.int64),
        "a",
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["uint8", "int64", "float32"])
def test_setitem_errors_unchanged(value, name):
    def fast(x):
        x[0:3] = value
        return np_of(x)

    def general(x):
        _indexing.setitem(x._c, slice(0, 3), value)
        return np_of(x)

    got = outcome(fast, xp.asarray(values(4, name)))
    want = outcome(general, xp.asarray(values(4, name)))
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_array_equal(got, want)


def test_setitem_read_only_and_out_of_range_errors_unchanged():
    ro = np.arange(4.0)
    ro.flags.writeable = False
    x = xp.asarray(ro)
    assert outcome(operator.setitem, x, 0, 1.0) == outcome(_indexing.array_setitem, x, 0, 1.0)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        x[1:] = xp.asarray([1.0, 2.0, 3.0])
    y = xp.zeros(4)
    with pytest.raises(IndexError, match="index 4 out of range"):
        y[4] = 1.0
    with pytest.raises(TypeError, match="deletion"):
        del y[0]


# ---------------------------------------------------------------- matmul and vecdot


def general_matmul(a, b):
    return xp.Array._new(_ops.matmul(a._c, b._c))


MATMUL_SHAPES = [
    ((3, 4), (4, 2)),
    ((3, 4), (4,)),
    ((4,), (4, 2)),
    ((4,), (4,)),
    ((1, 1), (1, 1)),
    ((500, 8), (8,)),
    ((8, 500), (500, 8)),
    ((3, 4), (4, 0)),
    ((0, 4), (4,)),
    ((3, 0), (0, 2)),
    ((0,), (0,)),
]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES, ids=str)
@pytest.mark.parametrize("name", NUMERIC)
def test_matmul_matches_numpy_and_the_general_path(sa, sb, name):
    a, b = values(sa, name, 1), values(sb, name, 2)
    exact = np.dtype(name).kind in "iu"

    def close(got, want):
        if exact:
            return check(got, want)
        # the sums' order differs between BLAS builds (numpy's, ours): the
        # bound of a k-term float sum, k eps (|a| @ |b|), not a fixed rtol
        assert got.dtype.name == want.dtype.name and got.shape == want.shape
        k = sa[-1] if sa else 1
        bound = 2 * max(k, 1) * np.finfo(want.dtype).eps * (np.abs(na) @ np.abs(nb))
        assert np.all(np.abs(np_of(got) - want) <= bound + np.finfo(want.dtype).tiny)

    for (na, x), (nb, y) in zip(layouts(a), layouts(b)):
        want = na @ nb
        for got in (x @ y, xp.matmul(x, y), y.__rmatmul__(x)):
            close(got, want)
        close(x @ y, np_of(general_matmul(x, y)))


@pytest.mark.parametrize(
    "sa,sb",
    [((3, 4), (3, 4)), ((3,), (4,)), ((), (3,)), ((2, 3, 4), (4,)), ((3, 4), (2, 4, 5))],
    ids=str,
)
def test_matmul_declined_shapes_and_errors_unchanged(sa, sb):
    x, y = xp.zeros(sa), xp.zeros(sb)
    got = outcome(operator.matmul, x, y)
    if isinstance(got, xp.Array):
        check(got, np.zeros(sa) @ np.zeros(sb))
        check(xp.matmul(x, y), np.zeros(sa) @ np.zeros(sb))
    else:
        assert got == outcome(general_matmul, x, y) == outcome(xp.matmul, x, y)


def test_matmul_mixed_and_bool_dtypes_take_the_general_path():
    a, b = values((3, 4), "float32"), values((4,), "int64")
    check(xp.asarray(a) @ xp.asarray(b), a @ b, exact=False)
    t = xp.asarray(values((2, 2), "bool"))
    with pytest.raises(TypeError, match="matmul is not defined for bool"):
        t @ t
    with pytest.raises(TypeError):
        xp.zeros((2, 2)) @ 2.0
    with pytest.raises(TypeError, match="x2 must be an Array"):
        xp.matmul(xp.zeros((2, 2)), np.zeros((2, 2)).tolist())


@pytest.mark.parametrize(
    "sa,sb",
    [
        ((500, 8), (8,)),
        ((8,), (8,)),
        ((8,), (3, 8)),
        ((0,), (0,)),
        ((4, 3), (4, 3)),
        ((2, 3, 4), (4,)),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["int32", "float32", "float64", "complex128"])
def test_vecdot_matches_numpy(sa, sb, name):
    a, b = values(sa, name, 1), values(sb, name, 2)
    want = np.vecdot(a, b) if hasattr(np, "vecdot") else np.sum(np.conj(a) * b, axis=-1)
    for (_, x), (_, y) in zip(layouts(a), layouts(b)):
        check(xp.vecdot(x, y), want, exact=np.dtype(name).kind in "iu")


def test_vecdot_errors_unchanged():
    with pytest.raises(ValueError, match="contracted axis has size 3 in x1 and 4 in x2"):
        xp.vecdot(xp.zeros((2, 3)), xp.zeros(4))
    with pytest.raises(ValueError, match="axis must be in"):
        xp.vecdot(xp.zeros(3), xp.zeros(3), axis=-2)


# ---------------------------------------------------------------- reshape, astype, asarray


def general_reshape(x, shape):
    return xp.Array._new(_views.view_as_shape(_core.contiguous(x._c), shape))


@pytest.mark.parametrize(
    "shape,new",
    [
        ((4, 6), (24,)),
        ((4, 6), (-1, 3)),
        ((24,), (2, 3, 4)),
        ((1,), ()),
        ((), (1, 1)),
        ((2, 3), (3, -1)),
        ((0, 3), (3, 0)),
        ((0, 3), (-1,)),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["bool", "uint16", "float64"])
def test_reshape_matches_numpy_and_the_general_path(shape, new, name):
    a = values(shape, name)
    for na, x in layouts(a):
        got = xp.reshape(x, new)
        check(got, na.reshape(new))
        check(got, np_of(general_reshape(x, new)))
        check(xp.reshape(x, list(new)), na.reshape(new))  # (einops gives lists)
        check(xp.reshape(x, new, copy=True), na.reshape(new))
    x = xp.asarray(a)
    if x.size:
        v = xp.reshape(x, new)
        new_value = (a.flat[1] if a.size > 1 else a.flat[0]).item()
        v[(0,) * v.ndim] = xp.asarray(new_value, dtype=x.dtype)
        assert np_of(x).flat[0] == new_value  # a view


@pytest.mark.parametrize(
    "new",
    [(5,), (-1, -1), (7, -1), (-2, 3), (2.0, 3), [2, 3], (2**63, 2), [2.0, 3], [-1, -1], [3, -1]],
    ids=str,
)
def test_reshape_errors_and_other_shapes_unchanged(new):
    x = xp.asarray(values((2, 3), "float64"))
    got = outcome(xp.reshape, x, new)
    if isinstance(got, xp.Array):
        check(got, values((2, 3), "float64").reshape(new))
    else:
        assert got[0] in (ValueError, TypeError, OverflowError)
    with pytest.raises(ValueError, match="copy=False"):
        xp.reshape(x.T, (6,), copy=False)


@pytest.mark.parametrize("src", NAMES)
@pytest.mark.parametrize("dst", NAMES)
def test_astype_matches_numpy(src, dst):
    if np.dtype(src).kind == "c" and np.dtype(dst).kind != "c":
        pytest.skip("complex to real: the standard leaves it unspecified")
    a = values((3, 4), src)
    for na, x in layouts(a):
        got = xp.astype(x, getattr(xp, dst))
        check(got, na.astype(dst))
        assert got is not x and got._c.storage != x._c.storage
        check(x.astype(getattr(xp, dst)), na.astype(dst))
    x = xp.asarray(a)
    assert xp.astype(x, x.dtype, copy=False) is x


def test_astype_errors_unchanged():
    x = xp.zeros(3)
    with pytest.raises(ValueError, match="device"):
        xp.astype(x, xp.float32, device="gpu")
    got = outcome(xp.astype, x, "float32")
    assert isinstance(got, xp.Array) or got[0] is TypeError
    check(xp.astype(xp.zeros((0, 2)), xp.int8), np.zeros((0, 2), np.int8))
    check(xp.astype(xp.asarray(2.5), xp.int32), np.int32(2))


def test_asarray_of_an_array():
    a = values((3, 4), "float64")
    for na, x in layouts(a):
        y = xp.asarray(x)
        assert y is not x and y._c.storage == x._c.storage
        assert y._c.strides == x._c.strides and y._c.offset == x._c.offset
        check(y, na)
        check(xp.asarray(x, dtype=xp.float64), na)
        check(xp.asarray(x, copy=False), na)
        z = xp.asarray(x, copy=True)
        assert z._c.storage != x._c.storage
        check(xp.asarray(x, dtype=xp.float32), na.astype(np.float32))
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(xp.zeros(2), dtype=xp.int32, copy=False)


@pytest.mark.parametrize("src", ["float64", "int16", "bool", "complex64"])
@pytest.mark.parametrize("dst", [None, "float32", "int64", "bool", "complex128"])
def test_asarray_copies_and_converts_in_one_call(src, dst):
    """asarray(x, copy=True) and asarray(x, dtype=other) of an Array: one C
    call (pyarray astype), a C-contiguous copy, as the general path makes;
    a dtype given as numpy's declines to the general path, same values."""
    a = values((3, 4), src)
    for na, x in layouts(a):
        want, keep = na.astype(dst or src), xp.asarray(na.copy())  # (x may view na)
        for copy in (True, None) if dst not in (None, src) else (True,):
            y = xp.asarray(x, dtype=dst and getattr(xp, dst), copy=copy)
            check(y, want)
            assert y._c.storage != x._c.storage and np.asarray(y).flags.c_contiguous
            x[...] = xp.zeros_like(x)  # the copy is independent
            check(y, want)
            x[...] = keep
        if dst is not None:
            check(xp.asarray(x, dtype=np.dtype(dst)), want)


@settings(max_examples=150, deadline=None)
@given(
    hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4),
    st.one_of(
        st.none(),
        st.integers(-5, 5),
        st.lists(st.integers(-5, 5), max_size=4).map(tuple),
        st.lists(st.integers(0, 3), max_size=2),
    ),
)
def test_flip_is_numpy_s_view_and_errors_unchanged(shape, axis):
    """flip in one C call (pyarray flip: offset at the last element, the
    stride negated) on every layout; bad, repeated and list axes decline to
    the general path, whose result or error is kept."""
    a = values(shape, "int32")
    for na, x in layouts(a):
        got = outcome(lambda: xp.flip(x, axis=axis))
        want = outcome(lambda: np.flip(na, axis=axis))
        if isinstance(want, tuple):
            assert isinstance(got, tuple)
            continue
        check(got, want)
        assert got._c.storage == x._c.storage  # a view


@pytest.mark.parametrize(
    "v", [1.5, -0.0, float("nan"), 3, -(2**63), 2**63 - 1, 2**63, True, False, 1j], ids=repr
)
def test_asarray_of_a_python_scalar(v):
    got = outcome(xp.asarray, v)
    want = np.asarray(v)
    if v == 2**63 and not isinstance(v, bool):
        assert isinstance(got, tuple)  # beyond int64: the general path's error
        return
    check(
        got,
        want.astype(
            {"c": "complex128", "f": "float64", "i": "int64", "b": "bool"}[want.dtype.kind]
        ),
    )
    for dt in ("float32", "int8", "float64"):
        if isinstance(v, (bool, int)) and not isinstance(v, bool) and dt == "int8" and abs(v) > 127:
            continue
        r = outcome(lambda: xp.asarray(v, dtype=getattr(xp, dt)))
        if isinstance(r, xp.Array):
            assert r.dtype == getattr(xp, dt) and r.shape == ()


# ---------------------------------------------------------------- a row vector repeated


REPEAT_SHAPES = [
    ((6, 4), (4,)),
    ((4,), (6, 4)),
    ((6, 4), (1, 4)),
    ((1, 4), (6, 4)),
    ((2, 3, 4), (3, 4)),
    ((2, 3, 4), (1, 1, 4)),
    ((5, 3), ()),
    ((), (5, 3)),
    ((5, 1), (1,)),
    ((0, 4), (4,)),
    ((4, 0), (0,)),
    ((1000, 10), (10,)),
    ((3, 4), (1, 1, 4)),
]


@pytest.mark.parametrize("sa,sb", REPEAT_SHAPES, ids=str)
@pytest.mark.parametrize(
    "op",
    [
        operator.add,
        operator.sub,
        operator.mul,
        operator.truediv,
        operator.floordiv,
        operator.lt,
        operator.pow,
    ],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize("name", ["int32", "uint8", "float32", "float64", "complex64"])
def test_repeated_operand_matches_numpy_and_the_general_path(sa, sb, op, name):
    if np.dtype(name).kind == "c" and op in (operator.floordiv, operator.lt):
        return
    a, b = values(sa, name, 1), values(sb, name, 2)
    if np.dtype(name).kind in "iu":
        b = np.where(b == 0, 1, b).astype(name)  # defined: division by zero is tested below
        if op is operator.pow:
            b = np.abs(b) % 3
    x, y = xp.asarray(a), xp.asarray(b)
    got = op(x, y)
    with np.errstate(all="ignore"):
        want = op(a, b)
    exact = np.dtype(name).kind in "iub" and op is not operator.truediv
    check(got, want, exact=exact or op is operator.lt)
    # the general path: the same values in non-contiguous views, which C declines
    xs, ys = (
        xp.asarray(np.repeat(v[..., None], 2, -1))[..., 0] if v.ndim else xp.asarray(v)
        for v in (a, b)
    )
    general = op(xs, ys)
    if op is operator.pow and np.dtype(name).kind in "fc":
        np.testing.assert_allclose(np_of(got), np_of(general), rtol=1e-5)
    else:
        check(got, np_of(general), exact=exact or op is operator.lt)


def test_repeated_operand_errors_unchanged():
    x = xp.asarray(np.arange(12, dtype=np.int64).reshape(3, 4))
    zero_in_row = xp.asarray(np.array([1, 0, 2, 3], np.int64))
    x_general = xp.asarray(np.repeat(np.arange(12, dtype=np.int64).reshape(3, 4), 2, -1))[:, ::2]
    got = outcome(operator.floordiv, x, zero_in_row)
    assert isinstance(got, tuple) and got == outcome(operator.floordiv, x_general, zero_in_row)
    with pytest.raises(ValueError):
        x + xp.zeros(3, dtype=xp.int64)  # (3, 4) and (3,) do not broadcast
    big = xp.zeros((300, 200))
    check(big + xp.ones(200), np.ones((300, 200)))  # beyond one line: the general path


@pytest.mark.parametrize("name", ["bool", "int16", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)])
@pytest.mark.parametrize("value", [1, 2.5, True, 1j, 2**70], ids=repr)
def test_mask_of_the_arrays_shape_with_a_number(name, shape, value):
    a = values(shape, name)
    mask = values(shape, "bool", seed=9)

    def general(x):
        # the general path: the same mask with an ellipsis after it
        x[xp.asarray(mask), ...] = value
        return np_of(x)

    def fast(x):
        x[xp.asarray(mask)] = value
        return np_of(x)

    got, want = outcome(fast, xp.asarray(a.copy())), outcome(general, xp.asarray(a.copy()))
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_array_equal(got, want)
        ref = a.copy()
        ref[mask] = value
        np.testing.assert_array_equal(got, ref)


# ---------------------------------------------------------------- dimension views


from strided.compat import _manipulation, _statistical  # noqa: E402


def general(monkeypatch, module, name):
    """The function with its C path declined: the general path alone."""
    monkeypatch.setattr(module, name, lambda *args: None)


VIEW_CASES = [
    ("permute_dims", (2, 3, 4), (2, 0, 1)),
    ("permute_dims", (2, 3, 4), [1, 0, 2]),
    ("permute_dims", (2, 3, 4), (-1, 0, 1)),
    ("permute_dims", (), ()),
    ("permute_dims", (0, 3), (1, 0)),
    ("expand_dims", (2, 3), 0),
    ("expand_dims", (2, 3), -1),
    ("expand_dims", (2, 3), (0, 3)),
    ("expand_dims", (2, 3), (-1, 1)),
    ("expand_dims", (), 0),
    ("expand_dims", (0, 3), 1),
    ("squeeze", (1, 3, 1), 0),
    ("squeeze", (1, 3, 1), (0, -1)),
    ("squeeze", (1, 3, 1), None),
    ("squeeze", (1,), 0),
    ("squeeze", (1, 0), 0),
    ("broadcast_to", (3,), (2, 3)),
    ("broadcast_to", (1, 3), (4, 2, 3)),
    ("broadcast_to", (), (2, 2)),
    ("broadcast_to", (2, 1), [2, 5]),
    ("broadcast_to", (1,), (0,)),
    ("broadcast_to", (2, 3), (2, 3)),
]
C_NAME = {
    "permute_dims": "_permute_view",
    "expand_dims": "_expand_view",
    "squeeze": "_squeeze_view",
    "broadcast_to": "_broadcast_view",
}


def numpy_view(fname, a, arg):
    if fname == "permute_dims":
        return np.transpose(a, arg)
    if fname == "squeeze":
        return np.squeeze(a, arg)
    return getattr(np, fname)(a, tuple(arg) if isinstance(arg, list) else arg)


@pytest.mark.parametrize("fname,shape,arg", VIEW_CASES, ids=str)
@pytest.mark.parametrize("name", ["bool", "int16", "float64", "complex128"])
def test_dimension_views_match_numpy_and_the_general_path(fname, shape, arg, name, monkeypatch):
    a = values(shape, name)
    f = getattr(xp, fname)
    for na, x in layouts(a):
        got = f(x, arg)
        assert got._c.storage == x._c.storage  # a view
        check(got, numpy_view(fname, na, arg))
    with monkeypatch.context() as m:
        general(m, _manipulation, C_NAME[fname])
        for na, x in layouts(a):
            check(f(x, arg), numpy_view(fname, na, arg))


BAD_VIEW_CASES = [
    ("permute_dims", (2, 3), (0,)),
    ("permute_dims", (2, 3), (0, 0)),
    ("permute_dims", (2, 3), (0, 2)),
    ("permute_dims", (2, 3), (0, 1.0)),
    ("permute_dims", (2, 3), "ab"),
    ("expand_dims", (2, 3), 3),
    ("expand_dims", (2, 3), -4),
    ("expand_dims", (2, 3), (0, 0)),
    ("expand_dims", (2, 3), 1.0),
    ("expand_dims", (1,) * 64, 0),
    ("squeeze", (1, 3), 1),
    ("squeeze", (1, 3), 2),
    ("squeeze", (1, 3), (0, 0)),
    ("squeeze", (1, 3), "0"),
    ("broadcast_to", (2, 3), (3,)),
    ("broadcast_to", (2, 3), (4, 3)),
    ("broadcast_to", (2, 3), (-1, 3)),
    ("broadcast_to", (3,), (2**62, 2**62, 3)),
    ("broadcast_to", (3,), (2, 3.0)),
    ("broadcast_to", (3,), 3),
]


@pytest.mark.parametrize("fname,shape,arg", BAD_VIEW_CASES, ids=str)
def test_dimension_view_errors_unchanged(fname, shape, arg, monkeypatch):
    x = xp.asarray(values(shape, "float32"))
    f = getattr(xp, fname)
    got = outcome(f, x, arg)
    with monkeypatch.context() as m:
        general(m, _manipulation, C_NAME[fname])
        expected = outcome(f, x, arg)
    assert not isinstance(expected, xp.Array), expected
    assert got == expected


# ---------------------------------------------------------------- reductions


REDUCE_AXES = [None, 0, -1, (0, 2), (2, 0), (), (0, 1, 2), 1]


def reduce_with(f, x, axis, keepdims):
    return f(x, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("fname", ["sum", "prod", "max", "min", "all", "any", "mean"])
@pytest.mark.parametrize("name", NAMES)
def test_reductions_match_the_general_path(fname, name, monkeypatch):
    """Every dtype, axis form, keepdims and layout: the C path's result (or
    error) is the general path's, dtype and bits."""
    a = values((3, 4, 5), name, seed=3)
    f = getattr(xp, fname)
    cases = [
        (x, axis, keep) for _, x in layouts(a) for axis in REDUCE_AXES for keep in (False, True)
    ]
    cases += [
        (xp.asarray(values((), name)), axis, keep)
        for axis in (None, (), 0)
        for keep in (False, True)
    ]
    cases += [
        (xp.asarray(values((2, 0, 3), name)), axis, keep)
        for axis in (None, 1, 0, 2)
        for keep in (False, True)
    ]
    fast = [outcome(reduce_with, f, *c) for c in cases]
    with monkeypatch.context() as m:
        general(m, _statistical, "_reduce_new")
        slow = [outcome(reduce_with, f, *c) for c in cases]
    for c, got, expected in zip(cases, fast, slow):
        if isinstance(expected, xp.Array):
            assert isinstance(got, xp.Array), (c[1:], got)
            check(got, np_of(expected))
        else:
            assert got == expected, (c[1:], got, expected)


@pytest.mark.parametrize("name", ["float32", "float64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
def test_reductions_match_numpy(name, axis):
    a = values((40, 7), name, seed=5)
    x = xp.asarray(a)
    exact = name not in ("float32", "float64")
    if name != "bool":
        check(xp.max(x, axis=axis), np.max(a, axis=axis))
        check(xp.min(x, axis=axis, keepdims=True), np.min(a, axis=axis, keepdims=True))
    check(xp.all(x, axis=axis), np.all(a, axis=axis))
    check(xp.any(x, axis=axis, keepdims=True), np.any(a, axis=axis, keepdims=True))
    if np.dtype(name).kind == "f":
        check(xp.sum(x, axis=axis), np.sum(a, axis=axis), exact)
        check(xp.mean(x, axis=axis), np.mean(a, axis=axis), exact)


def test_reduction_results_are_new_and_bad_axes_raise():
    x = xp.asarray(values((3, 4), "float64"))
    s = xp.sum(x, axis=1)
    s[0] = 99.0
    assert np_of(x)[0, 0] != 99.0
    for bad in (2, -3, (0, 0), 1.0, (0, 5)):
        with pytest.raises((ValueError, TypeError, IndexError)):
            xp.sum(x, axis=bad)
    with pytest.raises(ValueError):
        xp.max(xp.zeros((0, 3)), axis=0)
    check(xp.max(xp.zeros((0, 3)), axis=1), np.zeros((0,)))


# ---------------------------------------------------------------- in-place operators


INPLACE = [
    ("__iadd__", np.add),
    ("__isub__", np.subtract),
    ("__imul__", np.multiply),
    ("__itruediv__", np.divide),
    ("__ipow__", np.power),
]


@pytest.mark.parametrize("method,np_op", INPLACE, ids=[m for m, _ in INPLACE])
@pytest.mark.parametrize("other_shape", [(4,), (3, 4), (1, 4), (3, 1), ()], ids=str)
def test_inplace_operators_write_into_the_array(method, np_op, other_shape):
    """x op= y computes straight into x's memory (no result to copy back),
    with numpy's values, for every layout of x and a broadcast y."""
    a = values((3, 4), "float64")
    b = values(other_shape, "float64", seed=1) + 3.0
    for na, x in layouts(a):
        storage, offset, strides = x._c.storage, x._c.offset, x._c.strides
        expected = np_op(na, b)
        y = getattr(x, method)(xp.asarray(b))
        assert (
            y is x and x._c.storage == storage and (x._c.offset, x._c.strides) == (offset, strides)
        )
        check(x, expected, exact=False)
        check(getattr(xp.asarray(na.copy()), method)(2.5), np_op(na, 2.5), exact=False)


def test_inplace_operators_on_overlapping_views_read_the_old_values():
    a = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(a.copy())
    x -= x[0]
    check(x, a - a[0])
    z = xp.asarray(np.arange(6.0))
    z[1:] += z[:-1]
    check(z, np.array([0.0, 1, 3, 5, 7, 9]))
    w = xp.asarray(a.copy())
    w *= w
    check(w, a * a)


def test_inplace_operator_errors_leave_the_array_untouched():
    i = xp.asarray([1, 2, 3])
    for bad, err in [
        (lambda: i.__itruediv__(2), TypeError),
        (lambda: i.__iadd__(xp.ones((2, 3), dtype=xp.int64)), ValueError),
        (lambda: i.__ifloordiv__(0), ZeroDivisionError),
        (lambda: i.__iadd__(xp.ones(3)), TypeError),
    ]:
        with pytest.raises(err):
            bad()
        check(i, np.array([1, 2, 3]))
    b = xp.asarray([True, False])
    with pytest.raises(TypeError, match="add is not defined for bool"):
        b += b
    ro = np.arange(3.0)
    ro.setflags(write=False)
    v = xp.from_dlpack(ro)
    with pytest.raises(Exception, match="read-only"):
        v += 1.0
    check(v, np.arange(3.0))


@pytest.mark.parametrize("name", NUMERIC)
def test_inplace_operators_every_dtype(name):
    a = values((5,), name)
    b = values((5,), name, seed=2)
    x = xp.asarray(a.copy())
    exact = np.dtype(name).kind in "iu"
    x += xp.asarray(b)
    check(x, (a + b).astype(name), exact)
    x = xp.asarray(a.copy())
    x *= xp.asarray(b)
    check(x, (a * b).astype(name), exact)


# ---------------------------------------------------------------- reshape of any layout


@pytest.mark.parametrize(
    "perm,new",
    [
        ((1, 0), (12,)),
        ((1, 0), (2, 6)),
        ((0, 2, 1), (3, 4)),
        ((2, 0, 1), (-1,)),
        ((0, 1, 2), (3, 2, 2)),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["int8", "float64", "complex128"])
def test_reshape_of_a_permuted_array(perm, new, name):
    """A view where the strides allow it, else a C-contiguous copy (copy=False
    raises), as numpy's reshape decides."""
    a = values((3, 2, 2) if len(perm) == 3 else (3, 4), name)
    na = np.transpose(a, perm)
    x = xp.permute_dims(xp.asarray(a), perm)
    got = xp.reshape(x, new)
    check(got, na.reshape(new))
    view_possible = np.shares_memory(na.reshape(new), na)
    assert (got._c.storage == x._c.storage) == view_possible
    if view_possible:
        check(xp.reshape(x, new, copy=False), na.reshape(new))
    else:
        with pytest.raises(ValueError, match="copy=False"):
            xp.reshape(x, new, copy=False)
    check(xp.reshape(x, new, copy=True), na.reshape(new))


@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=4, max_side=4))
@settings(max_examples=60, deadline=None)
def test_reshape_any_view_matches_numpy(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    steps = tuple(data.draw(st.sampled_from([1, -1, 2])) for _ in shape)
    na = np.transpose(a, perm)[tuple(slice(None, None, s) for s in steps)]
    x = xp.permute_dims(xp.asarray(a), tuple(perm))[tuple(slice(None, None, s) for s in steps)]
    new = data.draw(
        st.sampled_from(
            [(-1,), (na.size,), (1, -1), (-1, 1)] + ([na.shape[::-1]] if na.ndim else [])
        )
    )
    if na.size == 0 and -1 in new:
        return
    got = xp.reshape(x, new)
    check(got, na.reshape(new))
    assert (got._c.storage == x._c.storage) == np.shares_memory(na.reshape(new), a)


# ---------------------------------------------------------------- copies with a short inner dim


@pytest.mark.parametrize("name", ["bool", "int16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("inner", [1, 2, 3, 4, 8, 16])
def test_copies_of_views_with_a_short_inner_dim(name, inner):
    """einops' "(h p) (w q) -> (h w) (p q)": a permuted copy whose inner dim
    holds a few elements (moved a block at a time) matches numpy, at a
    size that runs on threads too."""
    for rows in (6, 20000):
        a = values((rows, 2, 3, inner), name)
        na = a.transpose(0, 2, 1, 3)
        x = xp.permute_dims(xp.asarray(a), (0, 2, 1, 3))
        check(xp.reshape(x, (-1, 2 * inner)), na.reshape(-1, 2 * inner))
        # broadcast source (einops repeat): a stride-0 inner dim
        r = xp.broadcast_to(xp.expand_dims(xp.asarray(a[:, 0, 0, 0]), axis=1), (rows, inner))
        check(xp.reshape(r, (-1,)), np.repeat(a[:, 0, 0, 0], inner))


# ---------------------------------------------------------------- argmax, argmin


@pytest.mark.parametrize("fname", ["argmax", "argmin"])
@pytest.mark.parametrize("name", [n for n in NUMERIC if np.dtype(n).kind != "c"])
def test_argreductions_match_numpy_and_the_general_path(fname, name, monkeypatch):
    from strided.compat import _searching

    a = values((4, 5, 3), name, seed=7)
    if np.dtype(name).kind == "f":
        a[1, 2, 0] = np.nan
    cases = [
        (x, axis, keep)
        for _, x in layouts(a)
        for axis in (None, 0, 1, -1, 3, 1.0)
        for keep in (False, True)
    ]
    cases += [
        (xp.asarray(values((), name)), axis, keep) for axis in (None, 0) for keep in (False, True)
    ]
    cases += [(xp.asarray(values((2, 0), name)), axis, False) for axis in (None, 0, 1)]
    f = getattr(xp, fname)
    call = lambda x, axis, keep: f(x, axis=axis, keepdims=keep)
    fast = [outcome(call, *c) for c in cases]
    monkeypatch.setattr(_searching, "_argreduce_new", lambda *args: None)
    for c, got in zip(cases, fast):
        expected = outcome(call, *c)
        if isinstance(expected, xp.Array):
            check(got, np_of(expected))
            if c[1] in (None, 0, 1, -1) and c[0].size:
                check(got, getattr(np, fname)(np_of(c[0]), axis=c[1], keepdims=c[2]))
        else:
            assert got == expected, (c[1:], got, expected)


# ---------------------------------------------------------------- where


WHERE_SHAPES = [
    ((5,), (5,), (5,)),
    ((3, 1), (4,), ()),
    ((), (2, 3), (2, 3)),
    ((0, 3), (3,), (1, 3)),
    ((2, 3), (3,), (4,)),
]


@pytest.mark.parametrize("name", NAMES)
def test_where_of_three_arrays_matches_numpy_and_the_general_path(name, monkeypatch):
    """cond ? x1 : x2 of a bool Array and two Arrays of one dtype goes to C
    whole (st_where_new): the general path's value, dtype and errors, for
    broadcast, empty, 0-d and non-contiguous operands."""
    from strided.compat import _searching

    rng = np.random.default_rng(9)
    cases = []
    for sc, sa, sb in WHERE_SHAPES:
        c = rng.random(sc) < 0.5
        a, b = values(sa, name, seed=1), values(sb, name, seed=2)
        cases.append((xp.asarray(c), xp.asarray(a), xp.asarray(b)))
    wide = values((4, 6), name, seed=3)
    cases.append(
        (xp.asarray(rng.random((4, 3)) < 0.5), xp.asarray(wide)[:, ::2], xp.asarray(wide)[:, 1::2])
    )
    cases.append(
        (
            xp.asarray(values((3,), name)),
            xp.asarray(values((3,), name)),
            xp.asarray(values((3,), name)),
        )
    )  # a condition of another dtype
    fast = [outcome(xp.where, *c) for c in cases]
    monkeypatch.setattr(_searching, "_where_new", lambda *args: None)
    for c, got in zip(cases, fast):
        expected = outcome(xp.where, *c)
        if isinstance(expected, xp.Array):
            check(got, np_of(expected))
            check(got, np.where(*(np_of(v) for v in c)))
        else:
            assert got == expected


def test_where_of_mixed_dtypes_and_scalars_takes_the_general_path():
    c = xp.asarray([True, False])
    check(
        xp.where(c, xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0], dtype=xp.float32)),
        np.array([1.0, 4.0]),
    )
    check(xp.where(c, xp.asarray([1, 2]), 0), np.array([1, 0]))


# ---------------------------------------------------------------- boolean masks over leading dims
# x[mask] and x[mask] = value for a bool Array over x's leading dims, in one
# C call (fast.c's st_mask_select_new / st_mask_assign); checked against
# numpy and against the general path (the same mask with an ellipsis after
# it, which compat/_indexing.py's mask kernels take)

MASK_SHAPES = [
    ((7,), 1),
    ((3, 4), 1),
    ((3, 4), 2),
    ((2, 3, 4), 1),
    ((2, 3, 4), 2),
    ((2, 3, 4), 3),
    ((0, 3), 1),
    ((3, 0), 1),
    ((3, 0), 2),
]


@pytest.mark.parametrize("shape, k", MASK_SHAPES)
@pytest.mark.parametrize("name", ["bool", "int16", "uint32", "float32", "float64", "complex128"])
def test_mask_getitem_matches_numpy_and_the_general_path(shape, k, name):
    a = values(shape, name)
    mask = values(shape[:k], "bool", seed=3)
    for a_view, x in layouts(a):
        for m_np, m in layouts(mask):
            got = x[m]
            check(got, a_view[m_np])
            check(got, np_of(_indexing.array_getitem(x, (m, Ellipsis))))
            got[...] = xp.zeros_like(got)  # a new array: x unchanged
            np.testing.assert_array_equal(np_of(x), a_view)


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_mask_getitem_and_setitem_any_mask(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5))
    k = data.draw(st.integers(1, len(shape)))
    mask = data.draw(hnp.arrays(np.bool_, shape[:k]))
    a = values(shape, "float64", seed=data.draw(st.integers(0, 9)))
    x = xp.asarray(a.copy())
    check(x[xp.asarray(mask)], a[mask])
    value = data.draw(st.sampled_from(["number", "array"]))
    if value == "number":
        x[xp.asarray(mask)] = 4.5
        a[mask] = 4.5
    else:
        v = values(a[mask].shape, "float64", seed=11)
        x[xp.asarray(mask)] = xp.asarray(v)
        a[mask] = v
    check(x, a)


@pytest.mark.parametrize("shape, k", MASK_SHAPES)
@pytest.mark.parametrize("name", ["int16", "float64", "complex64"])
def test_mask_setitem_array_matches_numpy_and_the_general_path(shape, k, name):
    a = values(shape, name)
    mask = values(shape[:k], "bool", seed=3)
    v = values(a[mask].shape, name, seed=4)
    for a_view, x in layouts(a):
        y = xp.asarray(np.ascontiguousarray(a_view))
        ref = a_view.copy()
        x[xp.asarray(mask)] = xp.asarray(v)
        _indexing.array_setitem(y, (xp.asarray(mask), Ellipsis), xp.asarray(v))
        ref[mask] = v
        check(x, ref)
        check(y, ref)


def test_mask_setitem_from_an_overlapping_source():
    a = np.arange(10.0)
    x = xp.asarray(a.copy())
    mask = a % 2 == 0
    x[xp.asarray(mask)] = x[1::2]  # reads odd elements, writes even ones
    a[mask] = a[1::2].copy()
    check(x, a)
    x = xp.asarray(np.arange(6.0))
    m = xp.asarray(np.array([True, True, True, False, False, False]))
    x[m] = x[:3][::-1]  # the source is the destination's elements
    check(x, np.array([2.0, 1.0, 0.0, 3.0, 4.0, 5.0]))


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        2**70,
        -1,
        300,
        True,
        1j,
        "a",
        xp.asarray([1.0, 2.0]),
        xp.asarray(1.0),
        xp.asarray([1, 2], dtype=xp.int64),
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["uint8", "int64", "float32", "bool"])
def test_mask_setitem_other_values_keep_the_general_paths_rules(value, name):
    mask = np.array([True, False, True, False])

    def fast(x):
        x[xp.asarray(mask)] = value
        return np_of(x)

    def general(x):
        _indexing.setitem(x._c, (xp.asarray(mask), Ellipsis), value)
        return np_of(x)

    got = outcome(fast, xp.asarray(values(4, name)))
    want = outcome(general, xp.asarray(values(4, name)))
    if isinstance(want, tuple):
        assert got[0] is want[0]
    else:
        np.testing.assert_array_equal(got, want)


def test_mask_errors_unchanged():
    x = xp.asarray(np.arange(12.0).reshape(3, 4))
    with pytest.raises(IndexError, match="boolean index of shape"):
        x[xp.asarray(np.ones(4, bool))]  # not x's leading dim
    with pytest.raises(IndexError):
        x[xp.asarray(np.ones((3, 4, 1), bool))]  # more dims than x
    ro = np.arange(4.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        xp.asarray(ro)[xp.asarray(np.ones(4, bool))] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        xp.asarray(ro)[xp.asarray(np.ones(4, bool))] = xp.ones(4)
    # a value of another shape than x[mask]'s: the general path's error
    y = xp.zeros(4)
    with pytest.raises((ValueError, IndexError)):
        y[xp.asarray(np.array([True, True, False, False]))] = xp.ones(3)
    check(y, np.zeros(4))


# the in-place operators are C slots (pyarray.c's inplace, fast.c's
# st_binary_into) in front of the Python operator (_operators.inplace_operator):
# both give the same array, values and errors
IOPS = [
    "__iadd__",
    "__isub__",
    "__imul__",
    "__itruediv__",
    "__ifloordiv__",
    "__imod__",
    "__ipow__",
    "__iand__",
    "__ior__",
    "__ixor__",
    "__ilshift__",
    "__irshift__",
]


@pytest.mark.parametrize("method", IOPS)
@pytest.mark.parametrize(
    "name", ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]
)
@pytest.mark.parametrize(
    "other", ["same", "row", "column", "bigger", "0-d", "int", "float", "zero", "other dtype"]
)
def test_inplace_slots_match_the_python_operator(method, name, other):
    from strided.compat import _elementwise, _operators

    fname = {
        "__iadd__": "add",
        "__isub__": "subtract",
        "__imul__": "multiply",
        "__itruediv__": "divide",
        "__ifloordiv__": "floor_divide",
        "__imod__": "remainder",
        "__ipow__": "pow",
        "__iand__": "bitwise_and",
        "__ior__": "bitwise_or",
        "__ixor__": "bitwise_xor",
        "__ilshift__": "bitwise_left_shift",
        "__irshift__": "bitwise_right_shift",
    }[method]
    python_operator = _operators.inplace_operator(getattr(_elementwise, fname))
    a = values((3, 4), name)
    if np.dtype(name).kind in "iu":
        a = np.abs(a) % 4  # shifts and powers in range
    shapes = {"same": (3, 4), "row": (4,), "column": (3, 1), "bigger": (2, 3, 4), "0-d": ()}
    if other in shapes:
        b = values(shapes[other], name, seed=6)
        if np.dtype(name).kind in "iu":
            b = np.abs(b) % 3 + 1
        make = lambda: xp.asarray(b.copy())
    else:
        v = {"int": 2, "float": 1.5, "zero": 0, "other dtype": None}[other]
        make = (
            (lambda: v)
            if v is not None
            else (lambda: xp.asarray(values((4,), "float32" if name != "float32" else "int16")))
        )
    for na, x in layouts(a):
        y = xp.asarray(np.ascontiguousarray(na))
        got = outcome(lambda: getattr(x, method)(make()))
        want = outcome(lambda: python_operator(y, make()))
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and got[0] is want[0], (got, want)
            check(x, na)  # untouched
        else:
            assert got is x
            np.testing.assert_array_equal(np_of(x), np_of(y))


def test_inplace_statement_keeps_the_object():
    x = xp.asarray(np.arange(12.0).reshape(3, 4))
    before = x
    x += 1
    x *= xp.asarray([1.0, 2.0, 3.0, 4.0])
    x **= 2
    x /= 2.0
    assert x is before
    a = (np.arange(12.0).reshape(3, 4) + 1) * np.array([1.0, 2, 3, 4])
    check(x, a**2 / 2.0, exact=False)


# ---------------------------------------------------------------- scalars out of arrays
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1)], ids=str)
def test_python_scalars_of_one_element_arrays_match_numpy(name, shape):
    a = values(shape, name, seed=4)
    for na, x in layouts(a):
        want = na.reshape(()).item()
        assert type(want) is type(_arraytype_item(x)) and _arraytype_item(x) == want
        assert bool(x) == bool(want)
        if np.dtype(name).kind != "c":
            assert float(x) == float(want) and type(float(x)) is float
            assert int(x) == int(want)
        assert complex(x) == complex(want)
    big = np.array([np.iinfo(np.uint64).max], np.uint64)
    assert int(xp.asarray(big)) == 2**64 - 1


def _arraytype_item(x):
    from strided.core import arraytype

    return arraytype.item(x)


def test_python_scalars_of_other_arrays_raise():
    for x in [xp.zeros(2), xp.zeros((0,)), xp.zeros((2, 1))]:
        with pytest.raises(TypeError, match="only a one-element array"):
            bool(x)
        with pytest.raises(TypeError, match="only a one-element array"):
            float(x)
    with pytest.raises(TypeError, match="complex"):
        float(xp.asarray(1j))


def test_finfo_is_shared_and_read_only():
    f = xp.finfo(xp.float32)
    assert xp.finfo(xp.float32) is f and xp.finfo(xp.complex64) is f
    assert xp.finfo(xp.asarray([1.0])) is xp.finfo(xp.float64)
    with pytest.raises(AttributeError, match="read-only"):
        f.eps = 1.0
    assert f.eps == 2.0**-23 and f.dtype is xp.float32


def test_array_namespace_is_the_module():
    import strided.compat

    assert xp.asarray(1.0).__array_namespace__() is strided.compat
    assert xp.asarray(1.0).__array_namespace__(api_version="2024.12") is strided.compat
    with pytest.raises(ValueError, match="not supported"):
        xp.asarray(1.0).__array_namespace__(api_version="1999.01")


@pytest.mark.parametrize("name", ["float64", "float32", "complex128", "float16", "int32", "bool"])
def test_sum_and_prod_with_the_arrays_own_dtype_named(name):
    """xp.sum(x, dtype=x.dtype) (SciPy's form): the values and dtype of the
    general path, keepdims and axes alike."""
    a = values((4, 6), name) if name != "float16" else values((4, 6), "float32")
    x = xp.asarray(a) if name != "float16" else xp.astype(xp.asarray(a), xp.float16)
    for f in (xp.sum, xp.prod):
        for axis in (None, 0, 1, (0, 1), -1):
            for keepdims in (False, True):
                got = outcome(lambda: f(x, axis=axis, dtype=x.dtype, keepdims=keepdims))
                want = outcome(lambda: f(x, axis=axis, keepdims=keepdims))
                if isinstance(want, tuple):  # an error: the same one
                    assert got == want
                    continue
                if x.dtype in (xp.float64, xp.float32, xp.complex128, xp.float16):
                    assert got.dtype == want.dtype and got.shape == want.shape
                    assert np.array_equal(
                        np.asarray(xp.astype(got, xp.complex128)),
                        np.asarray(xp.astype(want, xp.complex128)),
                    )
                else:  # an integer or bool array's own dtype named: that dtype
                    assert got.dtype == x.dtype


@settings(max_examples=150, deadline=None)
@given(
    hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4),
    st.integers(-3, 3),
    st.lists(st.integers(0, 3), min_size=1, max_size=4),
    st.sampled_from(["float64", "int8", "bool", "complex64", "mixed"]),
    st.sampled_from([list, tuple]),
)
def test_concat_in_one_call_matches_numpy(shape, axis, lengths, name, seq):
    """concat of Arrays of one dtype along an int axis is one C call (pyarray
    concat, core st_cat): every layout, empty parts, negative axes; mixed
    dtypes, axis None and mismatched shapes take the general path (which
    also ends in st_cat) with its promotion and errors."""
    d = axis % len(shape) if -len(shape) <= axis < len(shape) else None
    parts, nps = [], []
    for i, k in enumerate(lengths):
        s = list(shape)
        if d is not None:
            s[d] = k
        dt = (["float64", "float32", "int16"][i % 3]) if name == "mixed" else name
        a = values(tuple(s), dt, seed=i)
        na, x = list(layouts(a))[i % len(list(layouts(a)))]
        parts.append(x)
        nps.append(na)
    got = outcome(lambda: xp.concat(seq(parts), axis=axis))
    want = outcome(lambda: np.concatenate(nps, axis=axis))
    if isinstance(want, tuple):
        assert isinstance(got, tuple)
    else:
        check(got, want)
    flat = xp.concat(seq(parts), axis=None)
    check(flat, np.concatenate([n.ravel() for n in nps]))


def test_cat_in_the_core_checks_before_writing():
    out = _core.Core.empty((4, 3), "float64")
    _core.fill_(out, 7.0)
    a = _core.Core.empty((2, 3), "float64")
    _core.fill_(a, 1.0)
    b = _core.Core.empty((2, 2), "float64")
    for parts, dim, message in [
        ([a, b], 0, "part 1 has size 2 at dim 1"),
        ([a], 0, "add up to 2, not 4"),
        ([a, a], 2, "dim 2 out of range"),
        ([_core.Core.empty((8,), "float64")], 0, "part 0 has 1 dims"),
        ([], 0, "no tensors"),
    ]:
        with pytest.raises((ValueError, IndexError), match=message):
            _core.cat_(out, parts, dim)
        np.testing.assert_array_equal(
            np.asarray(xp.asarray(_core_array(out))), np.full((4, 3), 7.0)
        )
    got = _core.cat_(out, [a, _core.astype(a, _core.int32)], 0)  # converted to out's dtype
    np.testing.assert_array_equal(np.asarray(xp.asarray(_core_array(got))), np.ones((4, 3)))


def _core_array(c):
    return _array.Array._new(c)


def _var_general(x, axis, correction, keepdims, take_sqrt):
    f = _ops.std if take_sqrt else _ops.var
    axes = axis if axis is None or isinstance(axis, tuple) else (axis,)
    return _array.Array._new(f(x._c, axes, correction, keepdims))


@settings(max_examples=200, deadline=None)
@given(
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
    st.sampled_from(["float64", "float32"]),
    st.one_of(
        st.none(),
        st.integers(-3, 2),
        st.lists(st.integers(-3, 2), min_size=0, max_size=3).map(tuple),
    ),
    st.one_of(st.integers(0, 7), st.floats(0, 7), st.just(float("nan"))),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2),
)
def test_var_and_std_in_one_call_match_the_general_path(
    shape, name, axis, correction, keepdims, take_sqrt, layout
):
    """xp.var / xp.std of a float32 or float64 Array is one C call (pyarray
    var_new, core st_var_new): the general path's bits (the mean, the
    squared deviations, max(count - correction, 0)) on every layout, empty
    and 0-d inputs, corrections at or over the count; invalid or repeated
    axes keep the general path's errors."""
    a = values(shape, name, seed=len(shape))
    na, x = list(layouts(a))[layout % len(list(layouts(a)))]
    f = xp.std if take_sqrt else xp.var
    got = outcome(lambda: f(x, axis=axis, correction=correction, keepdims=keepdims))
    want = outcome(lambda: _var_general(x, axis, correction, keepdims, take_sqrt))
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and got[0] is want[0]
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    with np.errstate(all="ignore"):
        g = np.std if take_sqrt else np.var
        ref = outcome(g, na.astype(np.float64), axis, None, None, correction, keepdims)
    if not isinstance(ref, tuple):  # numpy takes no axis of a 0-d array; PyTorch and we do
        np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-4 if name == "float32" else 1e-10)


def test_var_and_std_other_inputs_keep_the_general_paths_rules():
    """Integer, bool, complex and float16 inputs, a bool or huge
    correction: C declines and the general path answers as before."""
    for x in (xp.asarray([1, 2, 3]), xp.asarray([True, False])):
        for f in (xp.var, xp.std):
            with pytest.raises(TypeError, match="needs real floating"):
                f(x)
    h = xp.astype(xp.asarray([1.0, 2.0, 4.0]), xp.float16)
    assert xp.var(h).dtype == xp.float16
    np.testing.assert_allclose(float(xp.var(h)), np.var([1.0, 2.0, 4.0]), rtol=1e-3)
    x = xp.asarray([1.0, 2.0, 4.0])
    for c in (True, 2**70):
        got = xp.var(x, correction=c)
        want = _var_general(x, None, c, False, False)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    with pytest.raises(IndexError):
        xp.std(x, axis=1)


@settings(max_examples=200, deadline=None)
@given(
    hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
    st.sampled_from(["float64", "int8", "bool", "complex64", "uint16"]),
    st.lists(st.integers(-6, 6), min_size=0, max_size=7),
    st.sampled_from(["int64", "int32"]),
    st.integers(-4, 3),
    st.integers(0, 2),
)
def test_take_and_integer_index_in_one_call(shape, name, idx, idx_name, axis, layout):
    """x[idx] (idx a 1-D int64 Array: rows of x) and take(x, idx, axis=...)
    are one C call each (pyarray take_new, core st_take_new): numpy's values
    on every layout, negative indices counting from the end, empty index
    and empty x; an index out of range, an int32 index array and a bad axis
    go to the general path, which answers as before."""
    a = values(shape, name)
    na, x = list(layouts(a))[layout % len(list(layouts(a)))]
    i = xp.asarray(np.asarray(idx, dtype=idx_name))
    in_range = all(-shape[0] <= k < shape[0] for k in idx)
    got = outcome(lambda: x[i])
    general = outcome(lambda: np_of(_indexing.array_getitem(x, (i,))))
    if in_range:
        check(got, na[np.asarray(idx, dtype=np.int64)])
        np.testing.assert_array_equal(np_of(got), general)
    else:
        assert isinstance(got, tuple) and got == general
    got = outcome(lambda: xp.take(x, i, axis=axis))
    i64 = _core.astype(i._c, _core.int64)
    general = outcome(lambda: _array.Array._new(_indexing_core.take(x._c, i64, axis)))
    if isinstance(general, tuple):
        assert got == general
        return
    d = axis % len(shape)
    want = np.take(na, np.asarray(idx, dtype=np.int64), axis=d)
    check(got, want)
    check(general, want)


def test_take_along_axis_none_of_a_1d_array():
    x = xp.asarray([5, 6, 7])
    check(xp.take(x, xp.asarray([-1, 0])), np.asarray([7, 5]))
    with pytest.raises(ValueError, match="axis is required"):
        xp.take(xp.ones((2, 2)), xp.asarray([0]))
    with pytest.raises(TypeError, match="integer array"):
        xp.take(x, xp.asarray([0.0]))


@pytest.mark.parametrize("name", ["bool", "int8", "uint32", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 0), (4, 5), (2, 3, 4)], ids=str)
def test_count_nonzero_in_one_call_matches_numpy(name, shape):
    """count_nonzero of an Array: x != 0 and its int64 sum, one C call each
    (NaN counts as nonzero, -0.0 as zero), every axis form and keepdims."""
    a = values(shape, name)
    if a.dtype.kind == "f" and a.size:
        a.flat[0] = np.nan
        a.flat[-1] = -0.0
    for na, x in layouts(a):
        axes = [None] + list(range(-len(shape), len(shape))) + ([(0, -1)] if len(shape) > 1 else [])
        for axis in axes:
            for keepdims in (False, True):
                got = xp.count_nonzero(x, axis=axis, keepdims=keepdims)
                want = np.count_nonzero(na, axis=axis, keepdims=keepdims)
                check(got, np.asarray(want, dtype=np.int64))


@pytest.mark.parametrize("name", ["bool", "int16", "float32", "complex128", "float16"])
def test_like_creation_in_one_call(name):
    """zeros_like/ones_like/full_like/empty_like of an Array in one C call:
    the shape and dtype of x unless given, empty_like zeroed."""
    x = xp.asarray(values((3, 4), "float64"))[:, ::2]
    x = xp.astype(x, getattr(xp, name))
    check(xp.zeros_like(x), np.zeros((3, 2), name))
    check(xp.empty_like(x), np.zeros((3, 2), name))
    check(xp.ones_like(x), np.ones((3, 2), name))
    check(xp.full_like(x, 1), np.full((3, 2), 1, name))
    check(xp.ones_like(x, dtype=xp.int8, shape=(5,)), np.ones(5, "int8"))
    check(xp.full_like(x, 2, shape=()), np.full((), 2, name))
    if name != "bool":  # (a bool fill takes any object's truth, as full does)
        with pytest.raises((TypeError, ValueError)):
            xp.full_like(x, "a")


def test_matrix_transpose_is_the_mT_view():
    a = values((2, 3, 4), "float64")
    for na, x in layouts(a):
        t = xp.matrix_transpose(x)
        check(t, np.swapaxes(na, -1, -2))
        assert t.shape == x.mT.shape
    with pytest.raises(ValueError, match="at least 2 dims"):
        xp.matrix_transpose(xp.asarray([1.0]))


@settings(max_examples=150, deadline=None)
@given(
    hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
    st.sampled_from(["float64", "int16", "uint8", "bool", "complex64"]),
    st.integers(-3, 2),
    st.integers(0, 3),
    st.integers(0, 2),
)
def test_diff_and_nonzero_through_array_ops_match_numpy(shape, name, axis, n, layout):
    """diff as x[1:] - x[:-1] (bool: !=) by the Arrays' one-call slices and
    operators, n times; nonzero's coordinates one contiguous row per dim
    (st_nonzero through the transposed view): numpy's values and dtypes
    on every layout, empty and unsigned inputs, bad axes as before."""
    a = values(shape, name)
    na, x = list(layouts(a))[layout % len(list(layouts(a)))]
    got = outcome(lambda: xp.diff(x, axis=axis, n=n))
    if -len(shape) <= axis < len(shape):
        check(got, np.diff(na, axis=axis, n=n))
    else:
        assert isinstance(got, tuple)
    rows = xp.nonzero(x)
    want = np.nonzero(na)
    assert len(rows) == len(want)
    for r, w in zip(rows, want):
        check(r, w.astype(np.int64))


@settings(max_examples=150, deadline=None)
@given(
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
    st.sampled_from(["float64", "int8", "bool", "complex64"]),
    st.one_of(st.none(), st.integers(-3, 2)),
    st.integers(0, 3),
    st.lists(st.integers(0, 3), min_size=0, max_size=4),
    st.integers(0, 2),
)
def test_repeat_and_tile_as_broadcast_copies(shape, name, axis, repeats, reps, layout):
    """repeat by an int and tile as one broadcast view copied out in one C
    call: numpy's values on every layout, 0-d and empty inputs, zero
    counts; the result is new memory (writing it leaves x alone), also
    where one element along the axis would let the merged dims be a view."""
    a = values(shape, name)
    na, x = list(layouts(a))[layout % len(list(layouts(a)))]
    got = outcome(lambda: xp.repeat(x, repeats, axis=axis))
    want = outcome(lambda: np.repeat(na, repeats, axis=axis))
    if isinstance(want, tuple):
        assert isinstance(got, tuple)
    else:
        check(got, want)
    t = xp.tile(x, tuple(reps))
    check(t, np.tile(na, tuple(reps)))
    for r in (got, t):
        if not isinstance(r, tuple) and r.size:
            r[...] = xp.zeros_like(r)
    np.testing.assert_array_equal(np_of(x), na)

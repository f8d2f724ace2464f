import numpy as np
import pytest

import strided.compat as xp
from compat_util import check, xp_of

A = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)

BASIC = [
    0, -1, (1, 2), (0, -1, 3, 4), slice(None), slice(1, None), slice(None, None, -1),
    (slice(None), slice(None, None, 2)), (slice(None), slice(2, 0, -1), slice(None, None, 3)),
    (Ellipsis, 1), (1, Ellipsis, slice(None, None, -2)), (None, 0), (Ellipsis, None),
    (0, None, slice(1, 3), None, Ellipsis), Ellipsis, (), (slice(5, 10),),
    (slice(-100, 100, 3), 2), (slice(None), slice(None), slice(None), slice(None)),
]


@pytest.mark.parametrize("key", BASIC, ids=repr)
def test_basic_indexing_is_a_view_matching_numpy(key):
    x = xp_of(A)
    v = x[key]
    check(v, A[key])
    if v.size:
        assert v._c.storage == x._c.storage   # a view, no copy


@pytest.mark.parametrize("key", [5, (0, 3), (0, 0, 0, 0, 0), (Ellipsis, Ellipsis)], ids=repr)
def test_bad_basic_indices_raise(key):
    with pytest.raises(IndexError):
        xp_of(A)[key]


def test_zero_step_raises():
    with pytest.raises(ValueError):
        xp_of(A)[::0]


@pytest.mark.parametrize("ndim", [0, 1, 2, 4])
def test_boolean_mask(ndim):
    mask = (A % 3 == 0)[(0,) * (4 - ndim)] if ndim else np.bool_(True)
    a = A if ndim else A
    idx = mask if ndim == 0 else mask
    x = xp_of(a)
    if ndim in (1, 2):
        mask = (np.arange(np.prod(A.shape[:ndim])) % 3 == 0).reshape(A.shape[:ndim])
        idx = mask
    check(x[xp.asarray(np.array(idx), copy=True)], a[idx])
    check(x[xp.asarray(np.array(idx), copy=True), ...], a[idx, ...])


def test_boolean_mask_of_a_non_contiguous_view():
    a = A[:, ::-1, ::2]
    m = a > 50
    check(xp_of(A)[:, ::-1, ::2][xp_of(m)], a[m])


@pytest.mark.parametrize("prefix", [(0,), (slice(None),), (slice(None, None, -1), 1)], ids=repr)
def test_boolean_mask_after_integers_and_slices(prefix):
    m = np.arange(12).reshape(3, 4) % 3 == 0
    x = xp_of(A)
    key = prefix + (m,) if len(prefix) < 2 else prefix + (m[0],)
    xkey = tuple(xp_of(k) if isinstance(k, np.ndarray) else k for k in key)
    check(x[xkey], A[key])


def test_boolean_mask_shape_mismatch():
    with pytest.raises(IndexError):
        xp_of(A)[xp.ones((3,), dtype=xp.bool)]


INT_KEYS = [
    (np.array([0, 1, 1]),),
    (np.array([1, 0]), np.array([2, -1])),
    (np.array([[0], [1]]), np.array([0, 1, 2])),            # broadcast
    (1, np.array([0, -3, 2])),
    (np.array([0, 1]), np.array([1, 2]), np.array([3, 0]), np.array([4, -5])),
    (np.array(1), np.array([0, 2])),
]


@pytest.mark.parametrize("key", INT_KEYS, ids=lambda k: str([np.asarray(i).tolist() for i in k]))
def test_integer_array_indexing(key):
    xkey = tuple(xp.asarray(np.array(k), copy=True) if isinstance(k, np.ndarray) else k
                 for k in key)
    check(xp_of(A)[xkey], A[key])
    check(xp_of(A)[:, :, ::-1][xkey], A[:, :, ::-1][key])


def test_integer_array_out_of_bounds():
    with pytest.raises(IndexError):
        xp_of(A)[xp.asarray([0, 2])]
    with pytest.raises(IndexError):
        xp_of(A)[xp.asarray([0]), xp.asarray([-4])]


def test_setitem_basic_and_broadcast():
    a = A.astype("float64")
    x = xp_of(a)
    x[0, 1] = 7.5
    a[0, 1] = 7.5
    x[..., ::2] = xp.asarray([1.0, 2.0, 3.0])
    a[..., ::2] = [1.0, 2.0, 3.0]
    x[1, :, None, 1] = xp.reshape(xp.arange(3.0), (3, 1, 1))
    a[1, :, None, 1] = np.arange(3.0).reshape(3, 1, 1)
    x[0, 0, 0, 0] = 3     # a Python int into a float array
    a[0, 0, 0, 0] = 3
    check(x, a)


def test_setitem_overlapping_views():
    a = np.arange(10)
    x = xp_of(a)
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    check(x, a)


def test_setitem_mask_and_integer_arrays():
    a = A.copy()
    x = xp_of(a)
    m = a % 4 == 1
    x[xp_of(m)] = -1
    a[m] = -1
    m2 = np.array([True, False, True])
    x[0, xp_of(m2)] = xp.reshape(xp.arange(40), (2, 4, 5))
    a[0, m2] = np.arange(40).reshape(2, 4, 5)
    x[xp.asarray([1, 0]), xp.asarray([2, -1])] = 99
    a[np.array([1, 0]), np.array([2, -1])] = 99
    check(x, a)


def test_setitem_type_rules():
    x = xp.zeros((3,), dtype=xp.int32)
    with pytest.raises(TypeError):
        x[0] = 1.5
    with pytest.raises(TypeError):
        x[:] = xp.ones((3,), dtype=xp.int64)
    x[:] = xp.ones((3,), dtype=xp.int8)      # promotes to the target's dtype
    check(x, np.ones(3, "int32"))


def test_setitem_array_through_mask_after_slice():
    a = A.copy()
    x = xp_of(a)
    m = np.arange(12).reshape(3, 4) % 5 == 0           # 3 selected
    val = np.arange(2 * 3 * 5).reshape(2, 3, 5) * -1
    x[:, xp_of(m)] = xp_of(val)
    a[:, m] = val
    check(x, a)
    x[:, xp_of(m)] = xp_of(np.arange(5))               # broadcast
    a[:, m] = np.arange(5)
    check(x, a)


def test_setitem_integer_arrays_into_a_non_contiguous_view():
    a = A.copy()
    x = xp_of(a)
    v = x[:, ::-1, ::2]            # no flat view over its first two dims
    v[xp.asarray([0, 1]), xp.asarray([2, 0])] = xp.reshape(xp.arange(20), (2, 2, 5))
    a[:, ::-1, ::2][np.array([0, 1]), np.array([2, 0])] = np.arange(20).reshape(2, 2, 5)
    check(x, a)

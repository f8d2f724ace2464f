"""Integer arrays mixed with integers, slices, None and an ellipsis: the
standard leaves the mix to us and we follow numpy (docs/array-api.md), so
numpy is the oracle for the values, the shape and where the broadcast
index dims go."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from compat_util import check, xp_of


@st.composite
def mixed_keys(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    kinds = draw(
        st.lists(
            st.sampled_from(["int", "slice", "array"]), min_size=1, max_size=len(shape)
        ).filter(lambda k: "array" in k)
    )
    n_arrays = kinds.count("array")
    index_shapes = iter(
        draw(
            hnp.mutually_broadcastable_shapes(
                num_shapes=n_arrays, min_dims=0, max_dims=3, max_side=3
            )
        ).input_shapes
    )
    # with a leading ellipsis the entries index the last dims
    lead = draw(st.booleans()) and len(kinds) < len(shape)
    dims = range(len(shape) - len(kinds), len(shape)) if lead else range(len(kinds))
    key = []
    for d, kind in zip(dims, kinds):
        n = shape[d]
        if kind == "int":
            key.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            key.append(
                slice(
                    draw(st.none() | st.integers(-n - 1, n + 1)),
                    draw(st.none() | st.integers(-n - 1, n + 1)),
                    draw(st.none() | st.sampled_from([1, 2, -1, -3])),
                )
            )
        else:
            key.append(
                draw(hnp.arrays(np.int64, next(index_shapes), elements=st.integers(-n, n - 1)))
            )
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    if lead:
        key.insert(0, Ellipsis)
    elif len(kinds) < len(shape) and draw(st.booleans()):
        key.append(Ellipsis)
    return shape, tuple(key)


def to_xp(key):
    return tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)


@given(mixed_keys())
def test_getitem_matches_numpy(shape_key):
    shape, key = shape_key
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    check(xp_of(a)[to_xp(key)], a[key])


@given(mixed_keys(), st.booleans())
def test_setitem_matches_numpy(shape_key, scalar):
    shape, key = shape_key
    a = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    x = xp_of(a)
    target = a[key]
    value = -5 if scalar else np.arange(-target.size, 0, dtype=np.int32).reshape(target.shape)
    want = a.copy()
    # duplicates in the index: the last write wins in numpy, and in ours
    # (index_copy runs in order); compare only keys without duplicates
    flat = np.arange(a.size).reshape(shape)[key].ravel()
    if not scalar and len(set(flat.tolist())) != flat.size:
        return
    want[key] = value
    x[to_xp(key)] = value if scalar else xp.asarray(value)
    check(x, want)


def test_placement_of_the_index_dims():
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    i = np.array([[0, 1], [1, 0]])
    x = xp_of(a)
    for key in [
        (slice(None), i, i),
        (i, slice(None), i),
        (slice(None), 1, i),
        (None, i, Ellipsis, 0),
        (Ellipsis, i),
        (i, None, i),
    ]:
        got = x[to_xp(key)]
        assert got.shape == a[key].shape, key
        check(got, a[key])


def test_zero_d_integer_arrays_are_integers():
    a = np.arange(12).reshape(3, 4)
    x = xp_of(a)
    v = x[xp.asarray(1), xp.asarray(-1)]
    check(v, a[1, -1])
    row = x[xp.asarray(2)]
    row[0] = 100  # a view, as for integer indices
    assert int(x[2, 0]) == 100


def test_bad_mixed_keys():
    x = xp.zeros((3, 4))
    with pytest.raises(IndexError):
        x[xp.asarray([0, 5])]  # out of range
    with pytest.raises(IndexError):
        x[xp.asarray([0]), xp.asarray([0]), xp.asarray([0])]
    with pytest.raises(IndexError):
        x[xp.asarray([0.0])]
    # a Python bool with integer arrays is numpy's 0-d mask (test_compat_clients.py)
    check(x[xp.asarray([0]), True], np.zeros((3, 4))[np.asarray([0]), True])
    with pytest.raises(
        IndexError,
        match="could not be broadcast together with shapes "
        r"\(2,\) \(3,\)",
    ):
        x[xp.asarray([0, 1]), xp.asarray([0, 1, 2])]  # shapes do not broadcast: numpy's error


def test_zero_size_mask_dims_select_nothing():
    x = xp.zeros((2, 3))
    assert x[xp.zeros((0, 3), dtype=xp.bool)].shape == (0,)
    assert x[xp.zeros((2, 0), dtype=xp.bool)].shape == (0,)
    assert x[xp.zeros((0,), dtype=xp.bool)].shape == (0, 3)
    x[xp.zeros((0,), dtype=xp.bool)] = 1.0
    check(x, np.zeros((2, 3)))
    with pytest.raises(IndexError):
        x[xp.zeros((1, 3), dtype=xp.bool)]

"""zeros/ones/empty/full of a plain shape, dtype and value are one C call
(pyarray.c's filled): the same values, dtype, shape, layout and errors as
the general path, and a reused block never shows a freed array's bytes."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided.compat as xp
from strided.compat import _creation

DTYPES = [
    xp.float64,
    xp.float32,
    xp.int64,
    xp.int32,
    xp.int8,
    xp.uint8,
    xp.uint64,
    xp.bool,
    xp.complex128,
    xp.complex64,
    xp.float16,
    xp.bfloat16,
    None,
]
SHAPES = [0, 1, 7, (), (0,), (3, 0), (2, 3), (1, 1, 1), (4, 1, 5), (65, 33)]
VALUES = [
    0,
    1,
    -3,
    2**40,
    2**63 - 1,
    2**63,
    -(2**70),
    0.0,
    -0.0,
    1.5,
    -2.25,
    math.inf,
    math.nan,
    1e300,
    True,
    False,
    1j,
]


def outcome(f, *args, **kwargs):
    try:
        a = f(*args, **kwargs)
    except Exception as e:  # (the type is what is compared)
        return type(e)
    return a


def to_numpy(a):
    """(numpy has no bfloat16: the 16-bit floats are compared as float64)"""
    return np.asarray(xp.astype(a, xp.float64) if a.dtype in (xp.float16, xp.bfloat16) else a)


def same(fast, general):
    if isinstance(general, type):
        assert fast is general, (fast, general)
        return
    assert not isinstance(fast, type), fast
    assert fast.dtype == general.dtype and fast.shape == general.shape
    f, g = to_numpy(fast), to_numpy(general)
    np.testing.assert_array_equal(f, g)
    if f.dtype.kind in "fc":
        assert np.array_equal(np.signbit(f.real), np.signbit(g.real))
    assert to_numpy(fast).flags.c_contiguous


def both(monkeypatch, f, *args, **kwargs):
    fast = outcome(f, *args, **kwargs)
    with monkeypatch.context() as m:
        m.setattr(_creation, "_filled", lambda *a: None)
        general = outcome(f, *args, **kwargs)
    return fast, general


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_zeros_ones_empty_match_the_general_path(monkeypatch, shape, dtype):
    for f in (xp.zeros, xp.ones, xp.empty):
        for device in (None, xp.asarray(0.0).device, "cpu"):
            same(*both(monkeypatch, f, shape, dtype=dtype, device=device))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_full_matches_the_general_path(monkeypatch, value, dtype):
    for shape in ((2, 3), 5, ()):
        same(*both(monkeypatch, xp.full, shape, value, dtype=dtype))


@pytest.mark.parametrize(
    "shape",
    [-1, (2, -1), (2**40, 2**40), (1.5,), [2, 3], (True, 2), (np.int64(3),), "3", (1,) * 65],
)
def test_odd_and_bad_shapes_go_the_general_way(monkeypatch, shape):
    for f in (xp.zeros, xp.ones, xp.empty):
        same(*both(monkeypatch, f, shape))
    same(*both(monkeypatch, xp.full, shape, 2.0))


def test_bad_device_and_dtype_raise_as_before():
    with pytest.raises(ValueError, match="device"):
        xp.zeros(3, device="gpu")
    with pytest.raises(TypeError, match="not a dtype"):
        xp.ones(3, dtype="float128")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 70), min_size=1, max_size=3), st.floats(allow_nan=False))
def test_reused_blocks_never_show_old_bytes(shape, value):
    """A block freed by full() and taken again by empty()/zeros() reads as zeros."""
    shape = tuple(shape)
    for _ in range(3):
        a = xp.full(shape, value if value != 0 else 7.0)
        del a
        np.testing.assert_array_equal(np.asarray(xp.empty(shape)), np.zeros(shape))
        np.testing.assert_array_equal(np.asarray(xp.zeros(shape)), np.zeros(shape))

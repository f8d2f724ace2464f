"""The core's random numbers: reproducible from a seed, in range, with
the right moments; bad arguments rejected."""
import numpy as np
import pytest

from strided.core import base as _core, rng as _rng
from helpers import to_numpy, borrow


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_uniform_range_and_moments(dt):
    _rng.manual_seed(1)
    x = to_numpy(_rng.uniform_(_core.Core.empty((200_000,), dt), -2.0, 3.0))
    assert x.min() >= -2.0 and x.max() < 3.0
    assert abs(x.mean() - 0.5) < 0.02 and abs(x.var() - 25 / 12) < 0.03


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_normal_moments(dt):
    _rng.manual_seed(2)
    x = to_numpy(_rng.normal_(_core.Core.empty((200_000,), dt), 1.5, 2.0))
    assert abs(x.mean() - 1.5) < 0.03 and abs(x.std() - 2.0) < 0.03
    # a normal sample has about 4.55% of its values beyond two std
    assert 0.04 < np.mean(np.abs(x - 1.5) > 4.0) < 0.051


@pytest.mark.parametrize("dt", ["int8", "int64", "uint8", "uint64", "float64"])
def test_integers_inclusive_range(dt):
    _rng.manual_seed(3)
    x = to_numpy(_rng.integers_(_core.Core.empty((50_000,), dt), 1, 6))
    assert set(np.unique(x).tolist()) == {1, 2, 3, 4, 5, 6}
    counts = np.bincount(x.astype(np.int64))[1:]
    assert counts.min() > 50_000 / 6 * 0.9


def test_seed_reproduces_values_whatever_the_layout():
    _rng.manual_seed(42)
    a = to_numpy(_rng.uniform_(_core.Core.empty((30, 40), "float64")))
    _rng.manual_seed(42)
    base = np.zeros((40, 30))
    t = borrow(base.T)      # a transposed view: filled in its own C order
    _rng.uniform_(t)
    np.testing.assert_array_equal(base.T, a)
    assert _rng.initial_seed() == 42


def test_state_roundtrip():
    state = _rng.get_state()
    a = to_numpy(_rng.normal_(_core.Core.empty((10,), "float64")))
    _rng.set_state(state)
    b = to_numpy(_rng.normal_(_core.Core.empty((10,), "float64")))
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="bytes"):
        _rng.set_state(b"short")


def test_bad_arguments():
    c = _core.Core.empty((3,), "float64")
    with pytest.raises(ValueError, match="lo <= hi"):
        _rng.uniform_(c, 2.0, 1.0)
    with pytest.raises(ValueError, match="std"):
        _rng.normal_(c, 0.0, -1.0)
    with pytest.raises(ValueError, match="lo <= hi"):
        _rng.integers_(c, 5, 4)
    with pytest.raises(TypeError, match="floating"):
        _rng.uniform_(_core.Core.empty((3,), "int32"))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _rng.uniform_(borrow(ro))

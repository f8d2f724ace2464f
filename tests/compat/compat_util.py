"""numpy oracle helpers for the strided.compat tests."""

import numpy as np

import strided.compat as xp
from helpers import DTYPE_NAMES, to_numpy

# every dtype of the standard, in its order
NAMES = DTYPE_NAMES


def np_of(x):
    """A numpy copy of Array x."""
    return to_numpy(x._c)


def xp_of(a):
    """An Array with a copy of numpy array a."""
    return xp.asarray(np.array(a, order="C"), copy=True)


def check(x, expected, exact=True):
    e = np.asarray(expected)
    assert isinstance(x, xp.Array)
    assert x.dtype.name == e.dtype.name, (x.dtype, e.dtype)
    assert x.shape == e.shape, (x.shape, e.shape)
    got = np_of(x)
    if exact:
        np.testing.assert_array_equal(got, e)
    else:
        np.testing.assert_allclose(got, e, rtol=1e-5, atol=1e-6, equal_nan=True)

"""Array-API-generic libraries run on strided.compat unchanged: einops
(its array API entry points), array-api-extra and scikit-learn with
array_api_dispatch.  numpy runs the same computation as the oracle."""

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # read by scipy/sklearn at import

import numpy as np
import pytest
from einops.array_api import rearrange, reduce, repeat

import strided.compat as xp
from compat_util import check, np_of

RNG = np.random.default_rng(7)


def test_einops():
    a = RNG.normal(size=(2, 3, 4))
    x = xp.asarray(a)
    check(rearrange(x, "a b c -> (a b) c"), a.reshape(6, 4))
    check(rearrange(x, "a b c -> c a b"), a.transpose(2, 0, 1))
    check(reduce(x, "a b c -> a c", "mean"), a.mean(axis=1), exact=False)
    check(reduce(x, "a b c -> b", "max"), a.max(axis=(0, 2)))
    check(repeat(xp.asarray([1, 2]), "a -> a b", b=3), np.repeat([[1], [2]], 3, axis=1))


# the pinned array-api-extra, scikit-learn and SciPy need Python >= 3.11:
# on 3.10 the [test] extra leaves them out and their tests skip
PEER = "not installed (the [test] extra pins a version for Python >= 3.11)"


def test_array_api_extra():
    xpx = pytest.importorskip("array_api_extra", reason=PEER)
    m = RNG.normal(size=(3, 5))
    check(xpx.cov(xp.asarray(m), xp=xp), np.cov(m), exact=False)
    check(xpx.pad(xp.asarray([1, 2]), 2, xp=xp), np.pad([1, 2], 2))
    check(xpx.atleast_nd(xp.asarray(1.0), ndim=3, xp=xp), np.ones((1, 1, 1)))
    check(xpx.kron(xp.asarray([1, 2]), xp.asarray([1, 1]), xp=xp), np.kron([1, 2], [1, 1]))
    check(
        xpx.setdiff1d(xp.asarray([3, 1, 2, 3]), xp.asarray([2]), xp=xp),
        np.setdiff1d([3, 1, 2, 3], [2]),
    )
    assert int(xpx.nunique(xp.asarray([1, 2, 2, 7]), xp=xp)) == 3
    v = np.array([0.0, 0.5, -1.5])
    check(xpx.sinc(xp.asarray(v), xp=xp), np.sinc(v), exact=False)


def test_scikit_learn_scalers():
    sklearn = pytest.importorskip("sklearn", reason=PEER)
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    a = RNG.normal(size=(40, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, -2.0]
    x = xp.asarray(a)
    with sklearn.config_context(array_api_dispatch=True):
        scaled = StandardScaler().fit_transform(x)
        ranged = MinMaxScaler().fit_transform(x)
    assert isinstance(scaled, xp.Array) and isinstance(ranged, xp.Array)
    np.testing.assert_allclose(np_of(scaled), StandardScaler().fit_transform(a), rtol=1e-12)
    np.testing.assert_allclose(np_of(ranged), MinMaxScaler().fit_transform(a), rtol=1e-12)

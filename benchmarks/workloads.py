"""The `workloads` section (issue 22, "fast in real use"): whole calls of
the libraries people run on array-API backends, and user code written
against the standard, each on numpy arrays, torch tensors and
strided.compat arrays, side by side in one process.

A workload is one line of WORKLOADS: its library, the input it builds (in
numpy, from the size) and the call, written once against the standard and
given each contestant's arrays:

- scikit-learn estimators, transformers and metrics under
  `sklearn.config_context(array_api_dispatch=True)` (for all three alike:
  numpy arrays then go through sklearn's array-API path too);
- SciPy's array-API functions (SCIPY_ARRAY_API=1, set in
  benchmarks/__init__.py before anything imports scipy);
- array-api-extra, einops' array-API functions (torch tensors have no
  `__array_namespace__`: torch's peer is einops' own torch backend, what a
  torch user calls), xarray's DataArray over each contestant's arrays;
- user code: a k-means step, an MLP forward, a logistic regression fitted
  by 100 steps of gradient descent, a standardisation, each through
  `array_api_compat.array_namespace` as such code is written.

Each workload comes at a small and a large size (`Workload.size`); the
large inputs shrink by `Sizes.workload_scale` (10 with --quick).  The
result must be the contestant's own kind of array (a library that quietly
hands back numpy for a torch tensor or a strided.compat array computed in
numpy: an ERROR naming the type), and agree with numpy's (np.allclose; up
to the sign of each component for SVD-like outputs).  Timed allocating,
whole, as a user calls it; the repeats shrink for slow calls (`budget`)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np

from .convert import to_numpy, torch

# the levels of issue 22: each workload at least as fast as numpy and torch,
# the geometric mean of the section 1.5x numpy's
WORKLOAD, WORKLOAD_GEOMEAN = 1.0, 1.5
BUDGET = 4.0  # seconds of timed samples a workload's case aims at (repeats adapt)


def _xp():
    import strided.compat as xp

    return xp


def _namespace(x):
    import array_api_compat

    return array_api_compat.array_namespace(x)


# contestant -> (its array from a numpy array (a copy), the type its results must have)
def _kinds():
    xp = _xp()
    kinds = {
        "ours": (lambda a: xp.asarray(np.array(a)), xp.Array),
        "numpy": (lambda a: np.array(a), (np.ndarray, np.generic)),
    }
    if torch is not None:
        kinds["torch"] = (lambda a: torch.from_numpy(np.array(a)), torch.Tensor)
    return kinds


class Spec(NamedTuple):
    """One workload: its library, its inputs, its call."""

    library: str  # shown in the table's inputs column, beside the largest input
    # (rows, cols, rng) -> {name: numpy input}
    data: Callable[[int, int, Any], dict]
    # (who, **inputs as that contestant's arrays) -> an array, a number or a tuple of them
    call: Callable[..., Any]
    small: tuple[int, int] = (1000, 10)
    large: tuple[int, int] = (20000, 200)
    sign: bool = False  # results are SVD-like: each row's sign is free
    rtol: float = 1e-7
    atol: float = 1e-9


# ------------------------------------------------------------------ inputs


def _matrix(rows, cols, rng):
    return {"x": rng.standard_normal((rows, cols))}


def _regression(rows, cols, rng):
    x = rng.standard_normal((rows, cols))
    return {"x": x, "y": x @ rng.standard_normal(cols) + 0.1 * rng.standard_normal(rows)}


def _classes(rows, cols, rng, k=3):
    """k clusters of rows, their labels (int64)."""
    y = rng.integers(0, k, rows)
    return {"x": rng.standard_normal((rows, cols)) + 2.0 * y[:, None], "y": y}


def _pair(rows, cols, rng):
    """x and a y of up to 1000 rows: an output of rows x 1000 at most."""
    return {
        "x": rng.standard_normal((rows, cols)),
        "y": rng.standard_normal((min(rows, 1000), cols)),
    }


def _predictions(rows, cols, rng):
    y = rng.standard_normal((rows, cols))
    return {"y": y, "p": y + 0.3 * rng.standard_normal((rows, cols))}


def _labels(rows, cols, rng):
    y = rng.integers(0, 5, rows * cols)
    return {
        "y": y,
        "p": np.where(rng.random(rows * cols) < 0.8, y, rng.integers(0, 5, rows * cols)),
    }


def _signal(rows, cols, rng):
    return {"x": rng.standard_normal(rows * cols), "k": rng.standard_normal(101)}


def _kron(rows, cols, rng):
    return {"x": rng.standard_normal((rows // 10, cols)), "k": rng.standard_normal((4, 4))}


def _kmeans(rows, cols, rng, k=8):
    return {"x": rng.standard_normal((rows, cols)), "c": rng.standard_normal((k, cols))}


def _mlp(rows, cols, rng, hidden=64, out=10):
    return {
        "x": rng.standard_normal((rows, cols)),
        "w1": rng.standard_normal((cols, hidden)) / math.sqrt(cols),
        "b1": rng.standard_normal(hidden),
        "w2": rng.standard_normal((hidden, out)) / math.sqrt(hidden),
        "b2": rng.standard_normal(out),
    }


def _logistic(rows, cols, rng):
    x = rng.standard_normal((rows, cols))
    return {"x": x, "y": (x @ rng.standard_normal(cols) > 0).astype(np.float64)}


# ------------------------------------------------------------------ calls


def _sklearn(fn):
    """fn under array-API dispatch, for every contestant alike."""

    @functools.wraps(fn)
    def call(who, **kw):
        import sklearn

        with sklearn.config_context(array_api_dispatch=True):
            return fn(**kw)

    return call


def _any(fn):
    """A call that does not depend on the contestant."""
    return lambda who, **kw: fn(**kw)


def _pca(solver):
    def fit(x):
        from sklearn.decomposition import PCA

        # QR: what the array-API path uses anyway (it has no LU), said so to silence its warning
        options = {"power_iteration_normalizer": "QR"} if solver == "randomized" else {}
        p = PCA(
            n_components=min(10, x.shape[1] // 2), svd_solver=solver, random_state=0, **options
        ).fit(x)
        return p.components_, p.explained_variance_

    return _sklearn(fit)


def _lda(x, y):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    return LinearDiscriminantAnalysis().fit(x, y).predict_proba(x)


def _ridge(x, y):
    from sklearn.linear_model import Ridge

    m = Ridge(alpha=1.0, solver="svd").fit(x, y)
    return m.coef_, m.intercept_


def _transformer(name):
    def fit_transform(x):
        import sklearn.preprocessing

        return getattr(sklearn.preprocessing, name)().fit_transform(x)

    return _sklearn(fit_transform)


def _pairwise(name, **options):
    def pairwise(x, y):
        import sklearn.metrics.pairwise

        return getattr(sklearn.metrics.pairwise, name)(x, y, **options)

    return _sklearn(pairwise)


def _metric(name):
    def metric(y, p):
        import sklearn.metrics

        return getattr(sklearn.metrics, name)(y, p)

    return _sklearn(metric)


def _scipy(module, name, **options):
    def call(**kw):
        import importlib

        from scipy._lib._array_api import SCIPY_ARRAY_API

        if not SCIPY_ARRAY_API:  # it would convert every input to numpy
            raise RuntimeError("scipy was imported before SCIPY_ARRAY_API=1 was set")
        return getattr(importlib.import_module(module), name)(*kw.values(), **options)

    return _any(call)


def _extra(name, **options):
    def call(**kw):
        import array_api_extra

        return getattr(array_api_extra, name)(*kw.values(), **options)

    return _any(call)


def _cov(x):
    """The features' covariance (cov takes variables as rows)."""
    import array_api_extra

    return array_api_extra.cov(x.T)


def _einops(name, pattern, *args, **axes):
    """einops.array_api for numpy and ours; einops' torch backend for torch
    tensors (which have no __array_namespace__)."""

    def call(who, x):
        import einops
        import einops.array_api

        module = einops if who == "torch" else einops.array_api
        return getattr(module, name)(x, pattern, *args, **axes)

    return call


def _xarray(x):
    """Anomalies and their variance along "time" on a DataArray over x
    (skipna=False: xarray's NaN-skipping reductions go through numpy)."""
    import xarray as xr

    d = xr.DataArray(x, dims=("time", "feature"))
    anomaly = d - d.mean("time", skipna=False)
    return (anomaly * anomaly).mean("time", skipna=False).data, anomaly.data


def _kmeans_step(x, c):
    """One Lloyd step: squared distances, nearest centre, new centres."""
    xp = _namespace(x)
    k = c.shape[0]
    d = xp.sum(x * x, axis=1)[:, None] - 2.0 * (x @ c.T) + xp.sum(c * c, axis=1)[None, :]
    labels = xp.argmin(d, axis=1)
    onehot = xp.astype(labels[:, None] == xp.arange(k)[None, :], x.dtype)
    counts = xp.sum(onehot, axis=0)
    return (onehot.T @ x) / xp.maximum(counts, 1.0)[:, None]


def _mlp_forward(x, w1, b1, w2, b2):
    """relu(x w1 + b1) w2 + b2, then a softmax."""
    xp = _namespace(x)
    h = xp.maximum(x @ w1 + b1, 0.0)
    z = h @ w2 + b2
    e = xp.exp(z - xp.max(z, axis=1, keepdims=True))
    return e / xp.sum(e, axis=1, keepdims=True)


def _logistic_fit(x, y, steps=100, rate=0.1):
    """Logistic regression by `steps` steps of gradient descent: many small calls."""
    xp = _namespace(x)
    n = x.shape[0]
    w = xp.zeros(x.shape[1], dtype=x.dtype)
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + xp.exp(-(x @ w + b)))
        g = p - y
        w = w - rate * (g @ x) / n
        b = b - rate * float(xp.sum(g)) / n
    return w


def _standardise(x):
    xp = _namespace(x)
    return (x - xp.mean(x, axis=0)) / xp.std(x, axis=0)


SK, SCI, XPX = "sklearn", "scipy", "xpx"
WORKLOADS = {
    "PCA full": Spec(SK, _matrix, _pca("full"), sign=True),
    "PCA randomized": Spec(SK, _matrix, _pca("randomized"), sign=True, rtol=1e-6),
    "PCA covariance_eigh": Spec(SK, _matrix, _pca("covariance_eigh"), sign=True, rtol=1e-6),
    "LinearDiscriminantAnalysis": Spec(SK, _classes, _sklearn(_lda), atol=1e-7),
    "Ridge svd": Spec(SK, _regression, _sklearn(_ridge)),
    "StandardScaler": Spec(SK, _matrix, _transformer("StandardScaler")),
    "MinMaxScaler": Spec(SK, _matrix, _transformer("MinMaxScaler")),
    "MaxAbsScaler": Spec(SK, _matrix, _transformer("MaxAbsScaler")),
    "euclidean_distances": Spec(SK, _pair, _pairwise("euclidean_distances"), atol=1e-7),
    "pairwise_distances cosine": Spec(SK, _pair, _pairwise("pairwise_distances", metric="cosine")),
    "rbf_kernel": Spec(SK, _pair, _pairwise("rbf_kernel", gamma=0.5 / 200)),
    "polynomial_kernel": Spec(SK, _pair, _pairwise("polynomial_kernel", degree=3)),
    "r2_score": Spec(SK, _predictions, _metric("r2_score")),
    "mean_squared_error": Spec(SK, _predictions, _metric("mean_squared_error")),
    "accuracy_score": Spec(SK, _labels, _metric("accuracy_score")),
    "logsumexp": Spec(SCI, _matrix, _scipy("scipy.special", "logsumexp", axis=1)),
    "zscore": Spec(SCI, _matrix, _scipy("scipy.stats", "zscore", axis=0)),
    "skew": Spec(SCI, _matrix, _scipy("scipy.stats", "skew", axis=0)),
    "kurtosis": Spec(SCI, _matrix, _scipy("scipy.stats", "kurtosis", axis=0)),
    "moment 3": Spec(SCI, _matrix, _scipy("scipy.stats", "moment", order=3, axis=0)),
    "fft.rfft": Spec(SCI, _matrix, _scipy("scipy.fft", "rfft", axis=0)),
    "signal.fftconvolve": Spec(SCI, _signal, _scipy("scipy.signal", "fftconvolve")),
    "ndimage.gaussian_filter": Spec(
        SCI, _matrix, _scipy("scipy.ndimage", "gaussian_filter", sigma=2.0)
    ),
    "xpx.cov": Spec(XPX, _matrix, _any(_cov)),
    "xpx.atleast_nd": Spec(XPX, _matrix, _extra("atleast_nd", ndim=4)),
    "xpx.kron": Spec(XPX, _kron, _extra("kron")),
    "xpx.pad": Spec(XPX, _matrix, _extra("pad", pad_width=3)),
    "xpx.sinc": Spec(XPX, _matrix, _extra("sinc")),
    "einops rearrange": Spec(
        "einops", _matrix, _einops("rearrange", "(h p) (w q) -> (h w) (p q)", p=2, q=2)
    ),
    "einops reduce": Spec("einops", _matrix, _einops("reduce", "(b p) c -> b c", "mean", p=10)),
    "einops repeat": Spec("einops", _matrix, _einops("repeat", "r c -> r c k", k=4)),
    "xarray anomaly": Spec("xarray", _matrix, _any(_xarray)),
    "k-means step": Spec("user code", _kmeans, _any(_kmeans_step), atol=1e-8),
    "MLP forward": Spec("user code", _mlp, _any(_mlp_forward)),
    "logistic GD 100": Spec("user code", _logistic, _any(_logistic_fit), small=(500, 8)),
    "standardise": Spec("user code", _matrix, _any(_standardise)),
}


# ------------------------------------------------------------------ checking


def _parts(value):
    return list(value) if isinstance(value, tuple) else [value]


def _own_kind(value, kind):
    """'' when every array of the result is of the contestant's own kind
    (numbers are anyone's), else what it is."""
    for v in _parts(value):
        if isinstance(v, (int, float)) or isinstance(v, kind):
            continue
        return f"the result is {type(v).__module__}.{type(v).__name__}, not the input's kind"
    return ""


def _fix_signs(a):
    """Each row flipped so that its largest-magnitude element is positive."""
    if a.ndim != 2:
        return a
    i = np.argmax(np.abs(a), axis=1)
    return a * np.sign(a[np.arange(a.shape[0]), i])[:, None]


def _reader(kind, sign):
    """The result as one flat float64 numpy array to compare; raises
    TypeError when a library handed back another kind of array."""

    def read(value):
        wrong = _own_kind(value, kind)
        if wrong:
            raise TypeError(wrong)
        parts = [np.asarray(to_numpy(v)) for v in _parts(value)]
        # complex parts (an FFT's) as their real and imaginary parts
        parts = [np.stack([p.real, p.imag]) if p.dtype.kind == "c" else p for p in parts]
        return np.concatenate(
            [(_fix_signs(p) if sign else p).astype(np.float64).ravel() for p in parts]
        )

    return read


@dataclass(frozen=True)
class Workload:
    """One workload (WORKLOADS[label]) at one size: the call on each
    contestant's arrays, allocating, whole; level WORKLOAD (numpy/ours)."""

    label: str
    size: str  # "small" | "large"
    level: float | None = WORKLOAD
    table = "compact"  # report.COMPACT_COLUMNS
    budget = BUDGET  # run.py shrinks the repeats of slow calls to about this

    @property
    def name(self):
        return f"{self.label} {self.size}"

    def shape(self, sizes):
        spec = WORKLOADS[self.label]
        rows, cols = spec.small if self.size == "small" else spec.large
        if self.size == "large":
            rows = max(rows // sizes.workload_scale, spec.small[0])
            cols = max(cols // sizes.workload_scale, spec.small[1])
        return rows, cols

    def prepare(self, sizes, rng):
        from .kinds import Prepared

        spec = WORKLOADS[self.label]
        rows, cols = self.shape(sizes)
        data = spec.data(rows, cols, rng)
        calls, read = {}, {}
        for who, (convert, kind) in _kinds().items():
            args = {k: convert(v) for k, v in data.items()}
            calls[who] = functools.partial(spec.call, who, **args)
            read[who] = _reader(kind, spec.sign)
        biggest = max(data.values(), key=lambda v: v.size)
        shape = f"{spec.library} {'x'.join(map(str, biggest.shape))}"
        return Prepared(calls, None, shape, spec.rtol, spec.atol, read=read)


WORKLOAD_CASES = [Workload(label, size) for label in WORKLOADS for size in ("small", "large")]

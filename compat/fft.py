"""The array API `fft` extension (2025.12) of strided.compat, as
`strided.compat.fft` (`xp.fft`).  Every transform is our own C
(strided/_c/fft.c through strided/_fft.py); docs/fft.md says how.

Data types follow the standard strictly: fft, ifft, fftn, ifftn, irfft,
irfftn and hfft take complex arrays; rfft, rfftn and ihfft take real
floating arrays (TypeError otherwise).  The result keeps the input's
precision.  Repeated axes are a ValueError (the standard leaves them
unspecified)."""

from __future__ import annotations

import math
import operator
from typing import Literal, Sequence

from strided.core import base as _core, fft as _fft, ops as _ops, views as _views

from . import _docstrings
from ._array import Array, check_device
from ._dtypes import KINDS, check_dtype, float64
from ._typing import DType, Device

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]


# ---------------------------------------------------------------- checks


def _array(x, name, kind):
    """x's core view, after checking it is an Array of the `kind` of dtype
    (a KINDS key) with at least one dimension."""
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an Array, got {type(x).__name__}")
    if x.dtype not in KINDS[kind]:
        raise TypeError(f"{name}: the input must have a {kind} data type, got {x.dtype.name}")
    if x.ndim == 0:
        raise ValueError(f"{name}: the input must have at least one dimension")
    return x._c


def _axis(axis, ndim, name):
    if isinstance(axis, bool):
        raise TypeError(f"{name}: axis must be an integer, got a bool")
    return _views.normalize_dim(axis, ndim, "axis")


def _axes(axes, ndim, name):
    """The axes as a list of distinct non-negative dims, in the given order
    (None: every dim)."""
    if axes is None:
        return list(range(ndim))
    if isinstance(axes, int) or hasattr(axes, "__index__"):
        raise TypeError(f"{name}: axes must be a sequence of integers, got {axes!r}")
    dims = [_axis(a, ndim, name) for a in axes]
    if len(set(dims)) != len(dims):
        raise ValueError(f"{name}: repeated axis in {tuple(axes)}")
    return dims


def _sizes(s, axes, shape, name):
    """The transform length of each of `axes`: s (its -1 entries: the
    axis' length) or the shape."""
    if s is None:
        return [shape[d] for d in axes]
    s = list(s)
    if len(s) != len(axes):
        raise ValueError(f"{name}: s has {len(s)} entries but there are {len(axes)} axes")
    return [shape[d] if v == -1 else _fft.length(v, "every entry of s") for v, d in zip(s, axes)]


def _nd_args(x, s, axes, name, kind, norm):
    c = _array(x, name, kind)
    _fft.scale_for(norm, 1, True)  # a bad norm fails even with no axes
    if s is not None and axes is None:
        raise ValueError(f"{name}: when s is given, axes must be given too")
    dims = _axes(axes, c.ndim, name)
    return c, dims, _sizes(s, dims, c.shape, name)


# ---------------------------------------------------------------- one dimension
# Each transform: (the dtype kind it takes, the C transform, forward sign?,
# the default n from the input's length m).


def _one(name, kind, run, forward, default_n, x, n, axis, norm):
    c = _array(x, name, kind)
    dim = _axis(axis, c.ndim, name)
    n = default_n(c.shape[dim]) if n is None else n
    n = _fft.length(n)
    return Array._new(run(c, dim, n, forward, _fft.scale_for(norm, n, forward)))


def _same(m):
    return m


def _hermitian(m):
    return 2 * (m - 1)


# The docstring sections several functions share (_docstrings.sections
# puts each, headed, in place of its {{section}} line)
_PARAMETERS_FFT = """\
x : Array
    Input array.
n : int or None, optional
    Number of elements over which to compute the transform along the axis
    (dimension) specified by ``axis``. Default: ``None``.
axis : int, optional
    Axis (dimension) of the input array over which to compute the transform.
    Default: ``-1``.
norm : {'backward', 'ortho', 'forward'}, optional
    Normalization mode. Default: ``'backward'``."""
_RETURNS_FFT = """\
Array
    An array transformed along the axis (dimension) specified by ``axis``."""
_RAISES_FFT = """\
TypeError
    expected an Array, got …; the input must have a … data type, got …; axis
    must be an integer, got a bool.
ValueError
    the input must have at least one dimension."""
_PARAMETERS_IRFFT = """\
x : Array
    Input array.
n : int or None, optional
    Number of elements along the transformed axis (dimension) specified by
    ``axis`` in the output array. Default: ``None``.
axis : int, optional
    Axis (dimension) of the input array over which to compute the transform.
    Default: ``-1``.
norm : {'backward', 'ortho', 'forward'}, optional
    Normalization mode. Default: ``'backward'``."""
_RETURNS_FFTN = """\
Array
    An array transformed along the axes (dimensions) specified by ``axes``."""
_RAISES_FFTN = """\
ValueError
    when s is given, axes must be given too.
TypeError
    If x is not an Array: the namespace's functions take its Arrays (asarray
    converts)."""
_RETURNS_RFFTN = """\
Array
    An array transformed along the axes (dimension) specified by ``axes``."""
_RAISES_RFFTN = """\
TypeError
    expected an Array, got …; the input must have a … data type, got …; axes
    must be a sequence of integers, got ….
ValueError
    the input must have at least one dimension; when s is given, axes must
    be given too; repeated axis in …."""
_PARAMETERS_FFTFREQ = """\
n : int
    Window length.
d : float, optional
    Sample spacing between individual samples of the Fourier transform
    input. Default: ``1.0``.
dtype : dtype or None, optional
    Output array data type. Default: ``None``.
device : device or None, optional
    Device on which to place the created array. Default: ``None``."""
_RAISES_FFTFREQ = """\
TypeError
    dtype must be a real floating data type, got …; n must be an integer,
    got a bool.
ValueError
    n must be >= 1, got …; the sample spacing d must be finite and nonzero,
    got …."""
_RETURNS_FFTSHIFT = """\
Array
    The shifted array."""
_RAISES_FFTSHIFT = """\
TypeError
    expected an Array, got …; axes must be a sequence of integers, got …;
    axis must be an integer, got a bool.
ValueError
    repeated axis in …."""


@_docstrings.sections(parameters=_PARAMETERS_FFT, returns=_RETURNS_FFT, raises=_RAISES_FFT)
def fft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional discrete Fourier transform.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    Our own C: mixed radix for sizes of small factors, Bluestein for large
    primes, four-step for large powers of two (docs/fft.md). The input must be
    complex, as the standard says.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.fft(xp.asarray([1.0, 0.0, 0.0, 0.0], dtype=xp.complex128))
    Array([(1+0j), (1+0j), (1+0j), (1+0j)], dtype=complex128)
    """
    return _one("fft", "complex floating", _fft.c2c, True, _same, x, n, axis, norm)


@_docstrings.sections(parameters=_PARAMETERS_FFT, returns=_RETURNS_FFT, raises=_RAISES_FFT)
def ifft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional inverse discrete Fourier transform.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    Our own C (docs/fft.md); norm 'backward' divides by n here.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0], dtype=xp.complex128))
    Array([(1+0j), (1+0j), (1+0j), (1+0j)], dtype=complex128)
    """
    return _one("ifft", "complex floating", _fft.c2c, False, _same, x, n, axis, norm)


@_docstrings.sections(parameters=_PARAMETERS_FFT, returns=_RETURNS_FFT, raises=_RAISES_FFT)
def rfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional discrete Fourier transform for real-valued
    input.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    A real input; the n // 2 + 1 non-negative frequencies (docs/fft.md).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
    Array([(10+0j), (-2+2j), (-2+0j)], dtype=complex128)
    """
    return _one("rfft", "real floating", _fft.r2c, True, _same, x, n, axis, norm)


@_docstrings.sections(returns=_RETURNS_FFT, raises=_RAISES_FFT, parameters=_PARAMETERS_IRFFT)
def irfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional inverse of ``rfft`` for complex-valued input.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    The inverse of rfft: n (default 2 (m - 1)) real values.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.irfft(xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0])), n=4)
    Array([1., 2., 3., 4.], dtype=float64)
    """
    return _one("irfft", "complex floating", _fft.c2r, False, _hermitian, x, n, axis, norm)


@_docstrings.sections(returns=_RETURNS_FFT, raises=_RAISES_FFT, parameters=_PARAMETERS_IRFFT)
def hfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional discrete Fourier transform of a signal with
    Hermitian symmetry.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    The transform of a Hermitian-symmetric signal given by its first half: real
    output.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.hfft(xp.asarray([1.0, 0.0, 0.0], dtype=xp.complex128))
    Array([1., 1., 1., 1.], dtype=float64)
    """
    return _one("hfft", "complex floating", _fft.c2r, True, _hermitian, x, n, axis, norm)


@_docstrings.sections(parameters=_PARAMETERS_FFT, returns=_RETURNS_FFT, raises=_RAISES_FFT)
def ihfft(
    x: Array,
    /,
    *,
    n: int | None = None,
    axis: int = -1,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the one-dimensional inverse discrete Fourier transform of a signal
    with Hermitian symmetry.

    {{parameters}}

    {{returns}}

    {{raises}}

    Notes
    -----
    The inverse of hfft: a real input, the n // 2 + 1 first terms.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.ihfft(xp.asarray([4.0, 0.0, 0.0, 0.0]))
    Array([(1+0j), (1+0j), (1+0j)], dtype=complex128)
    """
    return _one("ihfft", "real floating", _fft.r2c, False, _same, x, n, axis, norm)


# ---------------------------------------------------------------- n dimensions
# Successive one-dimensional transforms; "ortho" and "forward" divide by
# the product of the lengths, one factor per axis.


def _cnd(name, x, s, axes, norm, forward):
    c, dims, sizes = _nd_args(x, s, axes, name, "complex floating", norm)
    if not dims:
        return Array._new(_core.astype(c, c.dtype))
    for d, n in zip(dims, sizes):
        c = _fft.c2c(c, d, n, forward, _fft.scale_for(norm, n, forward))
    return Array._new(c)


@_docstrings.sections(returns=_RETURNS_FFTN, raises=_RAISES_FFTN)
def fftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the n-dimensional discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Input array.
    s : sequence of int or None, optional
        Number of elements over which to compute the transform along the axes
        (dimensions) specified by ``axes``. Default: ``None``.
    axes : sequence of int or None, optional
        Axes (dimensions) over which to compute the transform. Default:
        ``None``.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization mode. Default: ``'backward'``.

    {{returns}}

    {{raises}}

    Notes
    -----
    One 1-D transform per axis, in C (docs/fft.md).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.fftn(xp.ones((2, 2), dtype=xp.complex64))
    Array([[(4+0j), 0j], [0j, 0j]], dtype=complex64)
    """
    return _cnd("fftn", x, s, axes, norm, True)


@_docstrings.sections(returns=_RETURNS_FFTN, raises=_RAISES_FFTN)
def ifftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the n-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Input array.
    s : sequence of int or None, optional
        Number of elements over which to compute the transform along the axes
        (dimensions) specified by ``axes``. Default: ``None``.
    axes : sequence of int or None, optional
        Axes (dimensions) over which to compute the transform. Default:
        ``None``.
    norm : {'backward', 'ortho', 'forward'}, optional
        Specify the normalization mode. Default: ``'backward'``.

    {{returns}}

    {{raises}}

    Notes
    -----
    One 1-D transform per axis, in C (docs/fft.md).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.ifftn(xp.asarray([[4.0, 0.0], [0.0, 0.0]], dtype=xp.complex128))
    Array([[(1+0j), (1+0j)], [(1+0j), (1+0j)]], dtype=complex128)
    """
    return _cnd("ifftn", x, s, axes, norm, False)


@_docstrings.sections(returns=_RETURNS_RFFTN, raises=_RAISES_RFFTN)
def rfftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the n-dimensional discrete Fourier transform for real-valued input.

    Parameters
    ----------
    x : Array
        Input array.
    s : sequence of int or None, optional
        Number of elements over which to compute the transform along axes
        (dimensions) specified by ``axes``. Default: ``None``.
    axes : sequence of int or None, optional
        Axes (dimensions) over which to compute the transform. Default:
        ``None``.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization mode. Default: ``'backward'``.

    {{returns}}

    {{raises}}

    Notes
    -----
    rfft over the last axis, fft over the others.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.rfftn(xp.ones((2, 4)))
    Array([[(8+0j), 0j, 0j], [0j, 0j, 0j]], dtype=complex128)
    """
    c, dims, sizes = _nd_args(x, s, axes, "rfftn", "real floating", norm)
    if not dims:
        raise ValueError("rfftn: at least one axis to transform is needed")
    # the real transform on the last axis first, then the complex ones
    c = _fft.r2c(c, dims[-1], sizes[-1], True, _fft.scale_for(norm, sizes[-1], True))
    for d, n in zip(dims[:-1], sizes[:-1]):
        c = _fft.c2c(c, d, n, True, _fft.scale_for(norm, n, True))
    return Array._new(c)


@_docstrings.sections(returns=_RETURNS_RFFTN, raises=_RAISES_RFFTN)
def irfftn(
    x: Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Literal['backward', 'ortho', 'forward'] = 'backward',
) -> Array:
    """Computes the n-dimensional inverse of ``rfftn`` for complex-valued input.

    Parameters
    ----------
    x : Array
        Input array.
    s : sequence of int or None, optional
        Number of elements along the transformed axes (dimensions) specified by
        ``axes`` in the output array. Default: ``None``.
    axes : sequence of int or None, optional
        Axes (dimensions) over which to compute the transform. Default:
        ``None``.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization mode. Default: ``'backward'``.

    {{returns}}

    {{raises}}

    Notes
    -----
    The inverse of rfftn; when s is given, axes must be given too.

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.irfftn(xp.fft.rfftn(xp.ones((2, 4))), s=(2, 4), axes=(0, 1))
    Array([[1., 1., 1., 1.], [1., 1., 1., 1.]], dtype=float64)
    """
    c, dims, sizes = _nd_args(x, s, axes, "irfftn", "complex floating", norm)
    if not dims:
        raise ValueError("irfftn: at least one axis to transform is needed")
    if s is None or list(s)[-1] == -1:
        sizes[-1] = _fft.length(
            _hermitian(c.shape[dims[-1]]), "the output length 2*(m-1) of the last axis"
        )
    # the complex transforms first, the Hermitian one on the last axis last
    for d, n in zip(dims[:-1], sizes[:-1]):
        c = _fft.c2c(c, d, n, False, _fft.scale_for(norm, n, False))
    c = _fft.c2r(c, dims[-1], sizes[-1], False, _fft.scale_for(norm, sizes[-1], False))
    return Array._new(c)


# ---------------------------------------------------------------- frequencies


def _freq_args(n, d, dtype, device, name):
    check_device(device)
    dtype = float64 if dtype is None else check_dtype(dtype)
    if dtype not in KINDS["real floating"]:
        raise TypeError(f"{name}: dtype must be a real floating data type, got {dtype.name}")
    if isinstance(n, bool):
        raise TypeError(f"{name}: n must be an integer, got a bool")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{name}: n must be >= 1, got {n}")
    d = float(d)
    if d == 0 or not math.isfinite(d):
        raise ValueError(f"{name}: the sample spacing d must be finite and nonzero, got {d}")
    return n, 1.0 / (n * d), dtype


def _scaled(k, step, dtype):
    """float64 integers k times step, rounded once to dtype (in C)."""
    out = _ops.binary("multiply", _core.astype(k, float64), _core.scalar(step, float64))
    return Array._new(out if dtype is float64 else _core.astype(out, dtype))


@_docstrings.sections(parameters=_PARAMETERS_FFTFREQ, raises=_RAISES_FFTFREQ)
def fftfreq(
    n: int, /, *, d: float = 1.0, dtype: DType | None = None, device: Device | None = None
) -> Array:
    """Computes the discrete Fourier transform sample frequencies.

    {{parameters}}

    Returns
    -------
    Array
        An array of shape ``(n,)`` containing the sample frequencies.

    {{raises}}

    Notes
    -----
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d n).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.fftfreq(4)
    Array([0., 0.25, -0.5, -0.25], dtype=float64)
    >>> xp.fft.fftfreq(5, d=0.5)
    Array([0., 0.4, 0.8, -0.8, -0.4], dtype=float64)
    """
    n, step, dtype = _freq_args(n, d, dtype, device, "fftfreq")
    k = _ops.iota(n)
    neg = n - (n - 1) // 2 - 1  # how many negative frequencies
    if neg:
        tail = _views.narrow(k, 0, n - neg, neg)
        _ops.binary("subtract", tail, _core.scalar(n, _core.int64), out=tail)
    return _scaled(k, step, dtype)


@_docstrings.sections(parameters=_PARAMETERS_FFTFREQ, raises=_RAISES_FFTFREQ)
def rfftfreq(
    n: int, /, *, d: float = 1.0, dtype: DType | None = None, device: Device | None = None
) -> Array:
    """Computes the discrete Fourier transform sample frequencies (for ``rfft`` and
    ``irfft``).

    {{parameters}}

    Returns
    -------
    Array
        An array of shape ``(n//2+1,)`` containing the sample frequencies.

    {{raises}}

    Notes
    -----
    [0, 1, ..., n//2] / (d n).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.rfftfreq(4)
    Array([0., 0.25, 0.5], dtype=float64)
    """
    n, step, dtype = _freq_args(n, d, dtype, device, "rfftfreq")
    return _scaled(_ops.iota(n // 2 + 1), step, dtype)


# ---------------------------------------------------------------- shifts


def _shift(x, axes, name, sign):
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an Array, got {type(x).__name__}")
    if axes is None:
        dims = list(range(x.ndim))
    elif isinstance(axes, int) or hasattr(axes, "__index__"):
        dims = [_axis(axes, x.ndim, name)]
    else:
        dims = _axes(axes, x.ndim, name)
    if not dims:
        return Array._new(_core.astype(x._c, x.dtype))
    from ._manipulation import roll

    return roll(x, tuple(sign * (x.shape[d] // 2) for d in dims), axis=tuple(dims))


@_docstrings.sections(returns=_RETURNS_FFTSHIFT, raises=_RAISES_FFTSHIFT)
def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Shifts the zero-frequency component to the center of the spectrum.

    Parameters
    ----------
    x : Array
        Input array.
    axes : int or sequence of int or None, optional
        Axes over which to shift. Default: ``None``.

    {{returns}}

    {{raises}}

    Notes
    -----
    Zero frequency to the centre: roll each axis by n//2 (any dtype).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.fftshift(xp.fft.fftfreq(4))
    Array([-0.5, -0.25, 0., 0.25], dtype=float64)
    """
    return _shift(x, axes, "fftshift", 1)


@_docstrings.sections(returns=_RETURNS_FFTSHIFT, raises=_RAISES_FFTSHIFT)
def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Inverse of ``fftshift``.

    Parameters
    ----------
    x : Array
        Input array.
    axes : int or sequence of int or None, optional
        Axes over which to perform the inverse shift. Default: ``None``.

    {{returns}}

    {{raises}}

    Notes
    -----
    fftshift's inverse: roll each axis by -(n//2).

    Examples
    --------
    >>> import strided.compat as xp
    >>> xp.fft.ifftshift(xp.asarray([-2.0, -1.0, 0.0, 1.0]))
    Array([0., 1., -2., -1.], dtype=float64)
    """
    return _shift(x, axes, "ifftshift", -1)


# a non-Array where an Array is declared: TypeError naming the argument
from ._argcheck import check_namespace as _check_namespace  # noqa: E402

_check_namespace(globals(), __all__, prefix="fft.", own_only=True)

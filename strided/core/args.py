"""Argument checks shared by the kernel wrappers of the core (histogram,
select, norm, conv, matrix, rng): each raises with a message that names
the function and the argument."""

from __future__ import annotations

import math
import operator

from .base import Core, dtype
from .views import normalize_dim


def need_core(x, name, what):
    """x itself when it is a Core, else TypeError."""
    if not isinstance(x, Core):
        raise TypeError(f"{name}: {what} must be a Core, got {type(x).__name__}")
    return x


def need_int(v, name, what):
    """v as a Python int (bool refused), else TypeError."""
    if isinstance(v, bool):
        raise TypeError(f"{name}: {what} must be an integer, got bool")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer, got {type(v).__name__}") from None


def need_float(v, name, what, finite=False, allow_nan=False):
    """v as a Python float (a real number), else TypeError; NaN (and with
    finite=True an infinity) is a ValueError."""
    if (
        isinstance(v, (bool, complex))
        or not isinstance(v, (int, float))
        and not hasattr(v, "__float__")
    ):
        raise TypeError(f"{name}: {what} must be a real number, got {type(v).__name__}")
    v = float(v)
    if (v != v and not allow_nan) or (finite and math.isinf(v)):
        raise ValueError(f"{name}: {what} must be {'finite' if finite else 'a number'}, got {v}")
    return v


def need_dim(dim, c, name):
    """A 0-based dim of c (negative counts from the end)."""
    try:
        return normalize_dim(dim, c.ndim)
    except (TypeError, IndexError) as e:
        raise type(e)(f"{name}: {e}") from None


def need_dtype(c, kinds, name, what, allowed=""):
    """c's dtype must be of one of the kinds ('b', 'i', 'u', 'f', 'c')."""
    if c.dtype.kind not in kinds:
        raise TypeError(
            f"{name}: {what} must be {allowed or 'of kind ' + kinds}, got {c.dtype.name}"
        )


def out_core(out, shape, dt, name, what="out"):
    """`out` checked to be a writable Core of `shape` (and dtype `dt` unless
    None), or a new Core of that shape and dtype."""
    shape = tuple(shape)
    if out is None:
        return Core.empty(shape, dt)
    need_core(out, name, what)
    if out.shape != shape:
        raise ValueError(f"{name}: {what} has shape {out.shape}, expected {shape}")
    if dt is not None and out.dtype is not dtype(dt):
        raise TypeError(f"{name}: {what} must be {dtype(dt).name}, got {out.dtype.name}")
    if out.readonly:
        raise ValueError(f"{name}: {what} is read-only")
    return out


def out_pair(out, name):
    """(values, indices) from out=, or (None, None)."""
    if out is None:
        return None, None
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{name}: out must be a (values, indices) pair, got {type(out).__name__}")
    return out[0], out[1]

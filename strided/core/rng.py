"""The random number generator of the core (xoshiro256** in C), with
Torch7's seeding calls.  Values are produced in C; this module holds the
generator state and checks arguments."""
from __future__ import annotations

import operator
import os
import threading

from .._c._strided import ffi, lib
from .base import check

_lock = threading.Lock()   # one generator; fills are serial so a seed is reproducible
_state = ffi.new("st_rng *")
_initial_seed = [0]


def manual_seed(seed):
    """Seed the generator (any integer; reduced modulo 2**64)."""
    seed = operator.index(seed) & (2**64 - 1)
    with _lock:
        lib.st_rng_seed(_state, seed)
        _initial_seed[0] = seed
    return seed


def seed():
    """Seed from the operating system's entropy and return that seed."""
    return manual_seed(int.from_bytes(os.urandom(8), "little"))


def initial_seed():
    return _initial_seed[0]


def get_state():
    """The generator state as bytes (Torch7's getRNGState)."""
    return bytes(ffi.buffer(_state))


def set_state(state):
    state = bytes(state)
    if len(state) != ffi.sizeof("st_rng"):
        raise ValueError(f"RNG state must be {ffi.sizeof('st_rng')} bytes, got {len(state)}")
    with _lock:
        ffi.memmove(_state, state, len(state))


def uniform_(c, lo=0.0, hi=1.0):
    """Fill floating Core c with uniform values on [lo, hi)."""
    with _lock:
        check(lib.st_random_uniform(c.t, _state, float(lo), float(hi)))
    return c


def normal_(c, mean=0.0, std=1.0):
    with _lock:
        check(lib.st_random_normal(c.t, _state, float(mean), float(std)))
    return c


def integers_(c, lo, hi):
    """Fill c with integers uniform on [lo, hi] (inclusive)."""
    lo, hi = operator.index(lo), operator.index(hi)
    with _lock:
        check(lib.st_random_integers(c.t, _state, lo, hi))
    return c


seed()

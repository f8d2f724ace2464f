"""Random numbers over Cores: Torch7's generator (random.c).

A Generator is Lua Torch7's: MT19937 with 32-bit outputs and THRandom.c's
transforms, so `manual_seed(1); uniform_(x)` gives Torch7's numbers for
`torch.manualSeed(1); x:uniform()`, fill for fill (fills walk the Core in
C order, as Torch7's do).  Its state bytes are those of Torch7's
getRNGState.  Every function takes generator=None: the default generator,
seeded from the system's entropy at import (as Torch7's).  A generator's
calls are serialised by its lock; values are produced in C."""

from __future__ import annotations

import os
import threading

from .._c._strided import ffi, lib
from .args import need_core, need_dtype, need_float, need_int, out_core
from .base import Core, check, int64
from .setops import flatten
from .views import view_as_shape

_STATE_SIZE = lib.st_generator_state_size()
STATE_SIZE = _STATE_SIZE  # bytes of a generator's state (sizeof(THGenerator))


class Generator:
    """A Torch7 random number generator with its own stream (``torch.Generator``).

    Parameters
    ----------
    seed : int, optional
        The seed; left out: the system's entropy.

    Raises
    ------
    TypeError
        When seed is not an integer.
    MemoryError
        When the generator cannot be allocated.

    Notes
    -----
    Torch7's Mersenne Twister; pass it first to the random functions
    (``torch.rand(gen, 3)``), or to manualSeed, getRNGState....  Each generator
    has a lock: threads may share one.

    Examples
    --------
    >>> import strided as torch
    >>> g = torch.Generator(5)
    >>> a = torch.rand(g, 2)
    >>> torch.manualSeed(g, 5)
    >>> torch.equal(torch.rand(g, 2), a)
    True
    """

    __slots__ = ("_g", "_lock", "__weakref__")

    def __init__(self, seed: int | None = None, _default: bool = False) -> None:
        self._lock = threading.Lock()
        if _default:
            self._g = lib.st_generator_default()
        else:
            g = lib.st_generator_new(0)
            if g == ffi.NULL:
                check(lib.ST_E_MEMORY)
            self._g = ffi.gc(g, lib.st_generator_free)
        if seed is None:
            self.seed()
        else:
            self.manual_seed(seed)

    def manual_seed(self, seed: int) -> int:
        """Seed (any integer, reduced modulo 2**64; the stream depends on its
        low 32 bits, as Torch7's).  Returns the seed kept."""
        seed = need_int(seed, "manual_seed", "seed") & (2**64 - 1)
        with self._lock:
            lib.st_generator_seed(self._g, seed)
        return seed

    def seed(self) -> int:
        """Seed from the system's entropy (8 bytes, as Torch7 reads
        /dev/urandom) and return that seed."""
        return self.manual_seed(int.from_bytes(os.urandom(8), "little"))

    def initial_seed(self) -> int:
        """The seed the generator was last seeded with."""
        return int(lib.st_generator_initial_seed(self._g))

    def get_state(self) -> bytes:
        """The state as bytes: Torch7's getRNGState bytes (5048 of them)."""
        buf = ffi.new("char[]", _STATE_SIZE)
        with self._lock:
            lib.st_generator_get_state(self._g, buf)
        return bytes(ffi.buffer(buf))

    def set_state(self, state: bytes | bytearray | memoryview) -> None:
        """Restore a state from get_state (or Torch7's getRNGState bytes)."""
        try:
            state = bytes(state)
        except TypeError:
            raise TypeError(f"set_state: state must be bytes, got {type(state).__name__}") from None
        if len(state) != _STATE_SIZE:
            raise ValueError(
                f"set_state: a generator state is {_STATE_SIZE} bytes, got {len(state)}"
            )
        with self._lock:
            check(lib.st_generator_set_state(self._g, state, len(state)))

    def copy(self) -> Generator:
        """A new Generator in this one's state (it continues the same stream)."""
        g = Generator(0)
        with self._lock:
            lib.st_generator_copy(g._g, self._g)
        return g

    def __setstate__(self, state):  # after Generator(0), from __reduce__
        self.set_state(state)

    def __reduce__(self):
        return (Generator, (0,), self.get_state())

    def __repr__(self):
        return f"Generator(initial_seed={self.initial_seed()})"


default_generator = Generator(_default=True)


def _gen(generator):
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a Generator, got {type(generator).__name__}")
    return generator


# ---------------------------------------------------------------- seeding (the default generator)


def manual_seed(seed, generator=None):
    return _gen(generator).manual_seed(seed)


def seed(generator=None):
    return _gen(generator).seed()


def initial_seed(generator=None):
    return _gen(generator).initial_seed()


def get_state(generator=None):
    return _gen(generator).get_state()


def set_state(state, generator=None):
    _gen(generator).set_state(state)


# ---------------------------------------------------------------- draws and fills

_DIST = {
    "uniform": lib.ST_DIST_UNIFORM,
    "normal": lib.ST_DIST_NORMAL,
    "exponential": lib.ST_DIST_EXPONENTIAL,
    "cauchy": lib.ST_DIST_CAUCHY,
    "log_normal": lib.ST_DIST_LOG_NORMAL,
    "geometric": lib.ST_DIST_GEOMETRIC,
    "bernoulli": lib.ST_DIST_BERNOULLI,
}


def draw(dist, a=0.0, b=0.0, generator=None):
    """One value of a distribution (Torch7's torch.uniform(a, b),
    torch.normal(mean, std), ...) as a Python float; dist is one of
    uniform, normal, exponential, cauchy, log_normal, geometric,
    bernoulli (a and b as the fills take them)."""
    if dist not in _DIST:
        raise ValueError(f"draw: dist must be one of {sorted(_DIST)}, got {dist!r}")
    a, b = need_float(a, dist, "a"), need_float(b, dist, "b")
    g = _gen(generator)
    r = ffi.new("double *")
    with g._lock:
        check(lib.st_random_draw(g._g, _DIST[dist], a, b, r))
    return r[0]


def random_bits(generator=None):
    """The next 32-bit output of the generator (Torch7's torch.random())."""
    g = _gen(generator)
    with g._lock:
        return int(lib.st_generator_random(g._g))


def _fill(c, dist, a, b, generator):
    need_core(c, dist, "the tensor")
    a, b = need_float(a, dist, "a"), need_float(b, dist, "b")
    g = _gen(generator)
    with g._lock:
        check(lib.st_random_fill(c.t, g._g, _DIST[dist], a, b))
    return c


def uniform_(c, a=0.0, b=1.0, generator=None):
    """Fill float c with u * (b - a) + a, u = r / 2^32 (Torch7's uniform:
    [a, b) in float64; a float32 value may round to b; a > b is allowed)."""
    return _fill(c, "uniform", a, b, generator)


def normal_(c, mean=0.0, std=1.0, generator=None):
    """Fill float c with normal values (Box-Muller, Torch7's); std > 0."""
    return _fill(c, "normal", mean, std, generator)


def exponential_(c, lambd=1.0, generator=None):
    """Fill float c with -1 / lambd * log(1 - u)."""
    return _fill(c, "exponential", lambd, 0.0, generator)


def cauchy_(c, median=0.0, sigma=1.0, generator=None):
    """Fill float c with median + sigma * tan(pi * (u - 1/2))."""
    return _fill(c, "cauchy", median, sigma, generator)


def log_normal_(c, mean=1.0, std=2.0, generator=None):
    """Fill float c with exp(normal(mean, std)) (Torch7's defaults 1, 2)."""
    return _fill(c, "log_normal", mean, std, generator)


def geometric_(c, p, generator=None):
    """Fill integer or float c with int(log(1 - u) / log(p)) + 1, 0 < p < 1
    (the number of trials to the first success)."""
    return _fill(c, "geometric", p, 0.0, generator)


def bernoulli_(c, p=0.5, generator=None):
    """Fill c (bool, integer or float) with 1 where u <= p, else 0.  p is a
    number in [0, 1] or a float32/float64 Core of c's element count (paired
    in C order, Torch7's rule; every p checked before any draw)."""
    name = "bernoulli"
    need_core(c, name, "the tensor")
    g = _gen(generator)
    if isinstance(p, Core):
        need_dtype(p, "f", name, "p", "float32 or float64")
        if p.size != c.size:
            raise ValueError(f"{name}: p has {p.size} elements but the tensor has {c.size}")
        if p.shape != c.shape:
            p = view_as_shape(flatten(p), c.shape)
        with g._lock:
            check(lib.st_random_bernoulli_tensor(c.t, g._g, p.t))
        return c
    return _fill(c, name, p, 0.0, generator)


def random_(c, lo=None, hi=None, generator=None):
    """Torch7's random fills: random_(c): r % (the dtype's max + 1) (int8
    [0, 127], uint8 [0, 255], int16 [0, 32767], int32 [0, 2^31), float32
    [0, 2^24], wider types [0, 2^32)); random_(c, lo, hi): r % (hi - lo + 1)
    + lo, integers in [lo, hi] (Torch7's random(b) is random_(c, 1, b))."""
    name = "random"
    need_core(c, name, "the tensor")
    g = _gen(generator)
    if lo is None and hi is None:
        with g._lock:
            check(lib.st_random_bits(c.t, g._g))
        return c
    if lo is None or hi is None:
        raise TypeError(f"{name}: give both lo and hi, or neither")
    lo, hi = need_int(lo, name, "lo"), need_int(hi, name, "hi")
    for v, what in ((lo, "lo"), (hi, "hi")):
        if not -(2**63) <= v < 2**63:
            raise OverflowError(f"{name}: {what} = {v} does not fit in int64")
    with g._lock:
        check(lib.st_random_range(c.t, g._g, lo, hi))
    return c


def integers_(c, lo, hi, generator=None):
    """Fill c with integers in [lo, hi] (inclusive): random_(c, lo, hi)."""
    return random_(c, lo, hi, generator)


def multinomial(probs, n, replacement=False, generator=None, out=None):
    """n categories (0-based, int64) drawn from each row of probs (float,
    1-D or 2-D, finite, >= 0, not all 0; normalised here): shape (n,) or
    (rows, n).  Without replacement n must not exceed the categories.
    Torch7's algorithm (a binary search in the cumulative sums), so its
    numbers for the same seed."""
    name = "multinomial"
    need_core(probs, name, "probs")
    need_dtype(probs, "f", name, "probs", "float32 or float64")
    if probs.ndim not in (1, 2):
        raise ValueError(f"{name}: probs must be 1-D or 2-D, got {probs.ndim} dims")
    n = need_int(n, name, "n")
    if n < 0:
        raise ValueError(f"{name}: n must be >= 0, got {n}")
    ncat = probs.shape[-1]
    if not replacement and n > ncat:
        raise ValueError(
            f"{name}: cannot draw {n} samples from {ncat} categories without replacement"
        )
    out = out_core(out, probs.shape[:-1] + (n,), int64, name)
    g = _gen(generator)
    with g._lock:
        check(lib.st_random_multinomial(out.t, g._g, probs.t, bool(replacement)))
    return out


def multinomial_alias_setup(probs):
    """Walker's alias tables (J int64, q of probs' dtype) for 1-D float
    probs, which should sum to 1 (not normalised, as Torch7)."""
    name = "multinomial_alias_setup"
    need_core(probs, name, "probs")
    need_dtype(probs, "f", name, "probs", "float32 or float64")
    if probs.ndim != 1:
        raise ValueError(f"{name}: probs must be 1-D, got {probs.ndim} dims")
    J, q = Core.empty(probs.shape, int64), Core.empty(probs.shape, probs.dtype)
    check(lib.st_random_alias_setup(J.t, q.t, probs.t))
    return J, q


def multinomial_alias(J, q, n, generator=None, out=None):
    """n categories (int64, 0-based; n an int or a shape) drawn with the
    tables of multinomial_alias_setup: two uniforms per draw, Torch7's."""
    name = "multinomial_alias"
    need_core(J, name, "J")
    need_core(q, name, "q")
    shape = (need_int(n, name, "n"),) if not isinstance(n, (tuple, list)) else tuple(n)
    out = out_core(out, shape, int64, name)
    g = _gen(generator)
    with g._lock:
        check(lib.st_random_alias_draw(out.t, g._g, J.t, q.t))
    return out


def randperm(n, dtype=int64, generator=None, out=None):
    """A random permutation of 0 .. n-1 (Torch7's swaps: its randperm(n)
    minus 1), of an integer or float dtype that holds n - 1 exactly."""
    name = "randperm"
    n = need_int(n, name, "n")
    if n < 0:
        raise ValueError(f"{name}: n must be >= 0, got {n}")
    out = out_core(out, (n,), dtype if out is None else None, name)
    g = _gen(generator)
    with g._lock:
        check(lib.st_random_randperm(out.t, g._g))
    return out

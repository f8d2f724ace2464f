"""The core's random numbers (random.c): Torch7's generator.  The raw
stream is checked against numpy's MT19937 (init_genrand seeding), every
transform against Torch7's formula written in Python over that stream, and
whole sequences against numbers printed by Lua Torch7 itself."""

import math
import pickle

import numpy as np
import pytest

from strided.core import base as _core, rng as _rng
from helpers import borrow, to_core, to_numpy


def raw(seed, n):
    """MT19937's 32-bit outputs after init_genrand(seed & 0xffffffff) (numpy)."""
    mt = np.random.MT19937()
    mt._legacy_seeding(seed & 0xFFFFFFFF)
    return [int(v) for v in mt.random_raw(n)]


def empty(n, dt="float64"):
    return _core.Core.empty((n,) if isinstance(n, int) else n, dt)


def vals(c):
    return to_numpy(c).ravel().tolist()


# ---- the stream and the transforms, against numpy's MT19937 ----


def test_raw_stream_is_mt19937():
    g = _rng.Generator(123)
    assert [_rng.random_bits(g) for _ in range(700)] == raw(123, 700)  # crosses a regeneration
    g.manual_seed(2**40 + 5)  # the state depends on the low 32 bits
    assert _rng.random_bits(g) == raw(5, 1)[0] and g.initial_seed() == 2**40 + 5


def test_uniform_and_normal_formulas():
    g = _rng.Generator(9)
    r = raw(9, 12)
    u = [v / 4294967296.0 for v in r]
    assert vals(_rng.uniform_(empty(3), -2.0, 5.0, g)) == [x * (5.0 - -2.0) + -2.0 for x in u[:3]]
    # Box-Muller on the next two uniforms: cos first, then sin, no draw for the second
    rho = math.sqrt(-2.0 * math.log(1.0 - u[4]))
    want = [
        rho * math.cos(2.0 * math.pi * u[3]) * 2.0 + 1.0,
        rho * math.sin(2.0 * math.pi * u[3]) * 2.0 + 1.0,
    ]
    rho2 = math.sqrt(-2.0 * math.log(1.0 - u[6]))
    want.append(rho2 * math.cos(2.0 * math.pi * u[5]) * 2.0 + 1.0)
    assert vals(_rng.normal_(empty(3), 1.0, 2.0, g)) == want
    # the pending sin value is the generator's: a scalar draw takes it
    assert _rng.draw("normal", 0.0, 1.0, g) == rho2 * math.sin(2.0 * math.pi * u[5]) * 1.0 + 0.0
    assert vals(_rng.exponential_(empty(1), 2.0, g)) == [-1.0 / 2.0 * math.log(1 - u[7])]
    assert vals(_rng.cauchy_(empty(1), 1.0, 3.0, g)) == [
        1.0 + 3.0 * math.tan(math.pi * (u[8] - 0.5))
    ]
    assert vals(_rng.geometric_(empty(1, "int32"), 0.25, g)) == [
        int(math.log(1 - u[9]) / math.log(0.25)) + 1
    ]
    assert vals(_rng.bernoulli_(empty(2, "uint8"), 0.6, g)) == [
        int(u[10] <= 0.6),
        int(u[11] <= 0.6),
    ]


def test_integer_fills():
    g = _rng.Generator(4)
    r = raw(4, 40)
    assert vals(_rng.random_(empty(5, "int8"), generator=g)) == [v % 128 for v in r[:5]]
    assert vals(_rng.random_(empty(5, "float32"), generator=g)) == [
        v % (2**24 + 1) for v in r[5:10]
    ]
    assert vals(_rng.random_(empty(5, "int64"), generator=g)) == r[10:15]
    assert vals(_rng.random_(empty(5, "int16"), -7, 3, g)) == [v % 11 - 7 for v in r[15:20]]
    assert vals(_rng.random_(empty(5), -7, 3, g)) == [float(v % 11 - 7) for v in r[20:25]]
    g.manual_seed(4)
    assert vals(_rng.randperm(4, generator=g)) == _perm(r, 4)


def _perm(r, n):
    p = list(range(n))
    for i in range(n - 1):
        z = r[i] % (n - i)
        p[i], p[z + i] = p[z + i], p[i]
    return p


def test_fills_walk_c_order_whatever_the_layout():
    g = _rng.Generator(42)
    a = vals(_rng.uniform_(empty((30, 40)), generator=g))
    g.manual_seed(42)
    base = np.zeros((40, 30))
    _rng.uniform_(borrow(base.T), generator=g)  # a transposed view: its own C order
    assert base.T.ravel().tolist() == a


# ---- Lua Torch7's numbers (printed by /work/lua-torch7) ----


def test_lua_streams():
    _rng.manual_seed(1)
    # torch.manualSeed(1); torch.rand(3); torch.randn(4); torch.FloatTensor(3):uniform()
    assert vals(_rng.uniform_(empty(3))) == [
        0.41702199843712151,
        0.99718480813317001,
        0.72032448928803205,
    ]
    assert vals(_rng.normal_(empty(4))) == [
        0.013787506803775619,
        -0.0062193167753216722,
        0.58811666366989312,
        0.61167334879458324,
    ]
    assert vals(_rng.uniform_(empty(3, "float32"))) == [
        0.99904054403305054,
        0.1467558890581131,
        0.23608897626399994,
    ]
    _rng.manual_seed(1)
    assert vals(_rng.random_(empty(5))) == [1791095845, 4282876139, 3093770124, 4005303368, 491263]
    assert vals(_rng.random_(empty(5, "uint8"))) == [137, 203, 133, 79, 192]
    assert vals(_rng.random_(empty(5, "int8"))) == [16, 1, 76, 71, 109]
    assert vals(_rng.random_(empty(5, "int32"))) == [
        729053692,
        1704103302,
        1870626073,
        166716594,
        1487394068,
    ]
    assert vals(_rng.random_(empty(5, "int64"))) == [
        1800426750,
        1345499493,
        2942995346,
        2252917204,
        878115723,
    ]
    assert vals(_rng.random_(empty(5, "float32"))) == [
        8790155,
        13389066,
        12948066,
        188310,
        13588742,
    ]
    # Tensor(8):random(-5, 5): Torch7 gives 1.8446744073709552e+19 where the
    # unsigned sum wraps (a bug of a float tensor); the core gives the value
    # Torch7's LongTensor:random(-5, 5) gives for the same draws
    d = vals(_rng.random_(empty(8), -5, 5))
    lua = [1, 3, 1.8446744073709552e19, 2, 1, 5, 1.8446744073709552e19, 1.8446744073709552e19]
    assert [x for x, y in zip(d, lua) if y < 100] == [y for y in lua if y < 100]
    assert all(-5 <= x < 0 for x, y in zip(d, lua) if y > 100)
    assert vals(_rng.random_(empty(8, "int64"), -5, 5)) == [2, 5, -5, 3, -3, -1, 3, -2]
    assert vals(_rng.random_(empty(8, "int32"), -5, 5)) == [-1, -3, -4, 5, 1, -5, -1, -3]
    assert vals(_rng.random_(empty(8), 1, 6)) == [4, 2, 6, 3, 4, 1, 5, 2]  # random(6)
    assert _rng.random_bits() == 1808643459  # torch.random()
    assert _rng.random_bits() % (9 + 1 - 2) + 2 == 8  # torch.random(2, 9)
    assert _rng.random_bits() % 6 + 1 == 4  # torch.random(6)
    assert _rng.draw("uniform", 0, 1) == 0.41178787895478308
    assert _rng.draw("normal", 0, 1) == -0.64910304861421153
    assert _rng.draw("normal", 1, 2) == 0.72549009699686517
    assert vals(_rng.geometric_(empty(5), 0.3)) == [1, 1, 1, 1, 1]
    assert vals(_rng.bernoulli_(empty(5), 0.3)) == [0, 0, 0, 1, 1]
    assert vals(_rng.bernoulli_(empty(5), to_core(np.array([0, 0.5, 1, 0.2, 0.9])))) == [
        0,
        0,
        1,
        0,
        1,
    ]
    assert vals(_rng.exponential_(empty(3), 2)) == [
        0.17726383868637893,
        0.16456045653075302,
        0.29541670135291809,
    ]
    assert vals(_rng.cauchy_(empty(3), 1, 2)) == [
        3.5663656735211564,
        -1.3849930590249886,
        -4.9495145875741837,
    ]
    assert vals(_rng.log_normal_(empty(3), 1, 2)) == [
        19.151962704666431,
        7.16819563203945,
        0.037126294285305103,
    ]
    # FloatTensor(3):normal(0.1, 0.3): Torch7 passes the arguments as float32
    f32 = lambda v: float(np.float32(v))
    assert vals(_rng.normal_(empty(3, "float32"), f32(0.1), f32(0.3))) == [
        0.22604869306087494,
        0.30583953857421875,
        0.24211594462394714,
    ]
    assert vals(_rng.uniform_(empty(3, "float32"), f32(0.1), f32(0.3))) == [
        0.2806740403175354,
        0.15755507349967957,
        0.12389809638261795,
    ]
    # torch.randperm(10), 0-based
    assert vals(_rng.randperm(10, "float64")) == [v - 1 for v in [3, 9, 8, 5, 1, 7, 6, 4, 2, 10]]
    p = to_core(np.array([0.1, 0.2, 0.3, 0.4]))
    assert vals(_rng.multinomial(p, 6, True)) == [1, 2, 2, 0, 2, 2]
    assert vals(_rng.multinomial(p, 4, False)) == [3, 0, 2, 1]
    assert to_numpy(
        _rng.multinomial(to_core(np.array([[1.0, 0, 0], [0, 1, 3]])), 3, True)
    ).tolist() == [[0, 0, 0], [1, 2, 2]]
    # multinomialAliasSetup({0.1, 0.2, 0.3, 0.4}): J {4, 4, 1, 3} (1-based; 1 = unset)
    J, q = _rng.multinomial_alias_setup(p)
    assert vals(J) == [3, 3, 0, 2] and vals(q) == [
        0.40000000000000002,
        0.80000000000000004,
        1,
        0.80000000000000016,
    ]


def test_alias_tables_and_draws():
    # {0.5, 0.1, 0.1, 0.3}: Torch7 gives J {1,1,4,1}, q {1,1,0.4,1}, dropping the
    # aliases to category 0 (J = 0 means "none" there); the core keeps them
    J, q = _rng.multinomial_alias_setup(to_core(np.array([0.5, 0.1, 0.1, 0.3])))
    assert vals(J) == [0, 0, 3, 0]
    np.testing.assert_allclose(vals(q), [1, 0.4, 0.4, 0.6], rtol=1e-15)
    # float32: q in float32 (Torch7: q2f {1, 1, 0.40000000596046448, 1})
    Jf, qf = _rng.multinomial_alias_setup(to_core(np.array([0.5, 0.1, 0.1, 0.3], "float32")))
    assert vals(Jf) == [0, 0, 3, 0] and to_numpy(qf).dtype == np.float32
    # draws: r = int(uniform(0, K)), then bernoulli(q[r]): r, else J[r]
    g = _rng.Generator(11)
    out = vals(_rng.multinomial_alias(J, q, 50, g))
    r = raw(11, 100)
    want = []
    for i in range(50):
        c = int(r[2 * i] / 4294967296.0 * 4)
        want.append(c if r[2 * i + 1] / 4294967296.0 <= vals(q)[c] else vals(J)[c])
    assert out == want
    # the distribution: 0.5 0.1 0.1 0.3
    counts = np.bincount(to_numpy(_rng.multinomial_alias(J, q, 200_000, g)), minlength=4) / 200_000
    np.testing.assert_allclose(counts, [0.5, 0.1, 0.1, 0.3], atol=0.006)
    # zero probabilities are fine (Torch7 refuses them: "q_min is less than 0")
    J0, q0 = _rng.multinomial_alias_setup(to_core(np.array([0.0, 0.5, 0.5])))
    assert 0 not in to_numpy(_rng.multinomial_alias(J0, q0, 1000, g))


def test_multinomial_distribution():
    g = _rng.Generator(3)
    p = to_core(np.array([[0.2, 0.0, 0.8], [1.0, 1.0, 2.0]]))
    s = to_numpy(_rng.multinomial(p, 100_000, True, g))
    np.testing.assert_allclose(np.bincount(s[0], minlength=3) / 1e5, [0.2, 0, 0.8], atol=0.01)
    np.testing.assert_allclose(np.bincount(s[1], minlength=3) / 1e5, [0.25, 0.25, 0.5], atol=0.01)
    s = to_numpy(_rng.multinomial(to_core(np.arange(1.0, 11)), 10, False, g))
    assert sorted(s.tolist()) == list(range(10))


# ---- generators ----


def test_generators_are_independent_streams():
    a, b = _rng.Generator(5), _rng.Generator(5)
    x = vals(_rng.uniform_(empty(4), generator=a))
    _rng.uniform_(empty(7))  # the default generator moves on
    assert vals(_rng.uniform_(empty(4), generator=b)) == x
    c = a.copy()
    assert vals(_rng.normal_(empty(5), generator=a)) == vals(_rng.normal_(empty(5), generator=c))
    d = pickle.loads(pickle.dumps(a))
    assert vals(_rng.normal_(empty(3), generator=a)) == vals(_rng.normal_(empty(3), generator=d))


def test_state_roundtrip():
    state = _rng.get_state()
    assert len(state) == 5048  # Torch7's getRNGState size
    _rng.normal_(empty(1))  # leaves a pending normal in the state
    state = _rng.get_state()
    a = vals(_rng.normal_(empty(10)))
    _rng.set_state(state)
    assert vals(_rng.normal_(empty(10))) == a
    with pytest.raises(ValueError, match="5048 bytes"):
        _rng.set_state(b"short")
    with pytest.raises(ValueError, match="invalid generator state"):
        _rng.set_state(bytes(5048))  # never seeded


def test_seed():
    s = _rng.seed()
    assert _rng.initial_seed() == s
    _rng.manual_seed(-1)
    assert _rng.initial_seed() == 2**64 - 1


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_moments(dt):
    g = _rng.Generator(2)
    x = to_numpy(_rng.normal_(empty(200_000, dt), 1.5, 2.0, g))
    assert abs(x.mean() - 1.5) < 0.03 and abs(x.std() - 2.0) < 0.03
    x = to_numpy(_rng.uniform_(empty(200_000, dt), -2.0, 3.0, g))
    assert x.min() >= -2.0 and x.max() <= 3.0 and abs(x.mean() - 0.5) < 0.02
    x = to_numpy(_rng.exponential_(empty(200_000, dt), 4.0, g))
    assert abs(x.mean() - 0.25) < 0.01


@pytest.mark.parametrize("dt", ["int8", "int64", "uint8", "uint64", "float64"])
def test_integers_inclusive_range(dt):
    g = _rng.Generator(3)
    x = to_numpy(_rng.integers_(empty(50_000, dt), 1, 6, g))
    assert set(np.unique(x).tolist()) == {1, 2, 3, 4, 5, 6}


def test_bad_arguments():
    c = empty(3)
    with pytest.raises(ValueError, match="normal: std must be > 0"):
        _rng.normal_(c, 0.0, 0.0)  # Torch7: strictly positive
    with pytest.raises(ValueError, match="random: hi must be >= lo"):
        _rng.integers_(c, 5, 4)
    with pytest.raises(TypeError, match="float32 or float64"):
        _rng.uniform_(empty(3, "int32"))
    with pytest.raises(ValueError, match="geometric: p must be > 0 and < 1"):
        _rng.geometric_(c, 1.0)
    with pytest.raises(ValueError, match="bernoulli: p must be >= 0 and <= 1"):
        _rng.bernoulli_(c, 1.5)
    with pytest.raises(ValueError, match="bernoulli: every p must be >= 0 and <= 1, got 2"):
        _rng.bernoulli_(c, to_core(np.array([0.5, 2.0, 0.1])))
    with pytest.raises(ValueError, match="bernoulli: p has 2 elements but the tensor has 3"):
        _rng.bernoulli_(c, to_core(np.array([0.5, 0.1])))
    with pytest.raises(TypeError, match="bernoulli: p must be float32 or float64"):
        _rng.bernoulli_(c, to_core(np.array([1, 0, 1])))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _rng.uniform_(borrow(ro))
    p = to_core(np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="cannot draw 3 samples from 2 categories without"):
        _rng.multinomial(p, 3, False)
    with pytest.raises(
        ValueError, match=r"invalid distribution \(row 0: the probabilities sum to 0"
    ):
        _rng.multinomial(to_core(np.zeros(2)), 1, True)
    with pytest.raises(ValueError, match="probabilities must be finite and >= 0, got -1"):
        _rng.multinomial(to_core(np.array([-1.0, 2.0])), 1, True)  # Torch7 draws garbage
    with pytest.raises(ValueError, match="multinomial: probs must be 1-D or 2-D"):
        _rng.multinomial(to_core(np.ones((1, 1, 2))), 1)
    with pytest.raises(IndexError, match=r"J\[0\] = 7 out of range \[0, 2\)"):
        _rng.multinomial_alias(to_core(np.array([7, 0])), p, 3)
    with pytest.raises(ValueError, match="randperm: n = 300 values do not fit in int8"):
        _rng.randperm(300, "int8")
    with pytest.raises(TypeError, match="generator must be a Generator"):
        _rng.uniform_(c, generator=3)
    with pytest.raises(ValueError, match="draw: dist must be one of"):
        _rng.draw("gamma")


def test_empty_fills():
    assert to_numpy(_rng.uniform_(empty(0))).shape == (0,)
    assert to_numpy(_rng.randperm(0)).shape == (0,)
    assert to_numpy(_rng.multinomial(to_core(np.array([1.0])), 0)).shape == (0,)


# ---- the blocked fills (random.c: runs of tempered outputs, transforms in blocks) ----


@pytest.mark.parametrize(
    "dist,args",
    [
        ("uniform", (-2.0, 3.0)),
        ("exponential", (1.5,)),
        ("geometric", (0.3,)),
        ("bernoulli", (0.4,)),
    ],
)
@pytest.mark.parametrize("dt", ["float64", "float32", "int32"])
def test_blocked_fills_are_the_draws_one_at_a_time(dist, args, dt):
    # every length around the 624-word refill and the 512-element blocks, a
    # non-contiguous output, and a normal draw (one at a time, caching its
    # pair) in between: the fill gives the values of the same draws made
    # one by one, in C order
    if dist in ("uniform", "exponential") and dt == "int32":
        return
    fill = getattr(_rng, dist + "_")
    for n in (1, 511, 513, 623, 624, 625, 1300, 5000):
        for step in (1, 3):
            _rng.manual_seed(n + step)
            _rng.draw("normal", 0, 1)
            whole = empty(n * step, dt)
            view = whole.view(0, (n,), (step,))
            fill(view, *args)
            got = vals(view)
            _rng.manual_seed(n + step)
            _rng.draw("normal", 0, 1)
            dist_args = args if len(args) == 2 else (args[0], 0)
            want = [_rng.draw(dist, *dist_args) for _ in range(n)]
            cast = {"float32": lambda v: float(np.float32(v)), "int32": lambda v: int(v)}.get(
                dt, lambda v: v
            )
            assert got == [cast(v) for v in want], (dist, dt, n, step)
            assert (
                _rng.draw("uniform", 0, 1)
                == (
                    lambda: (
                        _rng.manual_seed(n + step),
                        _rng.draw("normal", 0, 1),
                        [_rng.draw(dist, *dist_args) for _ in range(n)],
                        _rng.draw("uniform", 0, 1),
                    )[-1]
                )()
            )


@pytest.mark.parametrize("kind", ["normal", "log_normal"])
@pytest.mark.parametrize("n", [1, 2, 3, 255, 256, 257, 511, 1500])
@pytest.mark.parametrize("pending", [False, True])
@pytest.mark.parametrize("dt", ["float64", "float32"])
def test_normal_fills_in_blocks_draw_as_one_at_a_time(kind, n, pending, dt):
    """normal/logNormal fill a block of pairs at a time (cos and sin of a
    pair together): every value, and the generator's state bytes after
    (the pending pair's sin, its x, y and rho), are those of drawing one
    at a time, as Torch7 does; also through a strided view."""
    fill = _rng.normal_ if kind == "normal" else _rng.log_normal_
    a, b = (0.5, 1.5) if kind == "normal" else (0.1, 0.3)
    g, h = _rng.Generator(2026), _rng.Generator(2026)
    if pending:  # one draw leaves a pair's sin pending in both
        _rng.draw("normal", 0.0, 1.0, g), _rng.draw("normal", 0.0, 1.0, h)
    got = vals(fill(empty(n, dt), a, b, g))
    want = [_rng.draw(kind, a, b, h) for _ in range(n)]
    want = np.array(want, np.float32 if dt == "float32" else np.float64).tolist()
    assert got == want
    assert g.get_state() == h.get_state()
    base = empty(2 * n, dt)
    view = _core.Core.over(base.storage, dt, 2 * n - 1, (n,), (-2,))
    assert vals(fill(view, a, b, g)) == [
        float(np.array(_rng.draw(kind, a, b, h), np.float32 if dt == "float32" else np.float64))
        for _ in range(n)
    ]
    assert g.get_state() == h.get_state()

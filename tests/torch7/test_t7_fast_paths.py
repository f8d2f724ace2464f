"""The Torch7 face's small calls in C (pyarray.c's Torch7 section, used
through strided.core.arraytype's t7_* functions): each does the plain case
and declines everything else to the general Python path.  Here every call
is made twice, once as it runs and once with the C functions declining
(`general()`), on random tensors of every type and layout and on random
arguments, good and bad: the results (values, sizes, strides, offsets, the
storage viewed, the types) and the errors (type and message) must be the
same.  The CPU levels: test_fast_paths_at_every_cpu_level runs this file
and tests/core/test_random.py in child processes at levels 0, 3 and 4 (st_fill,
st_copy, st_binary and random.c's refill and tempering are per-level
kernels)."""

import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import strided as torch
from strided.core import arraytype, base as _core
from strided.core.arraytype import DECLINED
from strided.torch7.storage import Storage
from strided.torch7.tensor import Tensor

TYPES = ["Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Half"]
# every t7_ function that declines (dim and nElement always answer)
_NAMES = [
    n
    for n in dir(arraytype)
    if n.startswith("t7_") and n not in ("t7_setup", "t7_storage_setup", "t7_ndim", "t7_numel")
]


def _decline(name):
    if name in ("t7_init", "t7_scalar_inplace"):
        return lambda *a: False
    return lambda *a: DECLINED


@contextlib.contextmanager
def general():
    """The C small calls made to decline: every call takes the general path."""
    saved = {n: getattr(arraytype, n) for n in _NAMES}
    try:
        for n in _NAMES:
            setattr(arraytype, n, _decline(n))
        yield
    finally:
        for n, f in saved.items():
            setattr(arraytype, n, f)


def describe(v, where):
    """What a result is, comparably: a tensor's type, geometry, storage (its
    address with `where`: views of one tensor; else whether it has one) and
    values; a number's type and value (NaN as a string)."""
    if isinstance(v, Tensor):
        c = v._c
        vals = v.double().tolist() if v.nElement() else []
        storage = (
            int(_core.ffi.cast("uintptr_t", c.storage)) if where else c.storage != _core.ffi.NULL
        )
        return ("tensor", v.type(), c.shape, c.strides, c.offset, storage, repr(vals))
    if isinstance(v, Storage):
        return ("storage", type(v).__name__, repr(v.tolist()))
    if isinstance(v, float) and v != v:
        return (float, "nan")
    return (type(v), v)


def geometry(t):
    """A new tensor's type, sizes, strides, offset and storage size (its
    elements are not set)."""
    s = t.storage()
    return (t.type(), t._c.shape, t._c.strides, t._c.offset, s.size() if s is not None else None)


def outcome(fn, where):
    try:
        return ("ok", describe(fn(), where))
    except Exception as e:  # compared
        return ("raised", type(e), str(e))


def same(fn, where=False):
    fast = outcome(fn, where)
    with general():
        slow = outcome(fn, where)
    assert fast == slow
    return fast


def make(name, shape, layout, seed):
    """A tensor of type name: contiguous, transposed, narrowed (an offset and
    gaps), expanded (stride 0) or the empty tensor."""
    cls = getattr(torch, name + "Tensor")
    if layout == "empty":
        return cls()
    if 0 in shape:
        return cls(*shape)
    rng = np.random.default_rng(seed)
    vals = rng.integers(-20, 20, int(np.prod(shape)) * 2).tolist()
    base = cls(len(vals))
    for i, v in enumerate(vals, 1):
        base[i] = v if name != "Byte" else abs(v)
    t = (
        base.narrow(1, 2, int(np.prod(shape)))
        if layout == "offset"
        else base.narrow(1, 1, int(np.prod(shape)))
    )
    t = t.view(*shape) if shape else t
    if layout == "transposed" and len(shape) >= 2:
        t = t.transpose(1, len(shape))
    if layout == "expanded" and len(shape) >= 1:
        t = t.narrow(1, 1, 1).expand(*shape)
    return t


shapes = st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple)
layouts = st.sampled_from(["contiguous", "offset", "transposed", "expanded", "empty"])
args = st.one_of(
    st.integers(-6, 6),
    st.floats(-6, 6),
    st.just(float("nan")),
    st.booleans(),
    st.none(),
    st.just("2"),
    st.integers(2**62, 2**70),
)
numbers = st.one_of(
    st.integers(-300, 300),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(2**62, 2**70),
    st.booleans(),
    st.just(np.float64(2.5)),
    st.just("x"),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    st.sampled_from(TYPES),
    shapes,
    layouts,
    st.integers(0, 99),
    st.lists(args, min_size=0, max_size=5),
)
def test_views_and_geometry(name, shape, layout, seed, a):
    x = make(name, shape, layout, seed)
    same(lambda: x.dim())
    same(lambda: x.nElement())
    for d in a[:2]:
        same(lambda: x.size(d))
        same(lambda: x.stride(d))
    same(lambda: x.size())
    same(lambda: x.stride())
    same(lambda: x.narrow(*a[:3]), where=True)
    same(lambda: x.select(*a[:2]), where=True)
    same(lambda: x.sub(*a[:4]), where=True)
    same(lambda: x.sub(*a[:2]), where=True)
    same(lambda: x.t(), where=True)
    same(lambda: x.clone())


@SETTINGS
@given(
    st.sampled_from(TYPES),
    shapes,
    layouts,
    st.integers(0, 99),
    st.lists(
        st.one_of(st.integers(-5, 5), st.booleans(), st.floats(-3, 3)), min_size=1, max_size=4
    ),
    numbers,
)
def test_indexing_reads_and_writes(name, shape, layout, seed, key, value):
    x = make(name, shape, layout, seed)
    for k in (key[0], tuple(key), tuple(key[:2])):
        same(lambda: x[k], where=True)

        def write():
            y = make(name, shape, layout, seed)
            y[k] = value
            return y

        same(write)
    if x.dim() >= 2 and min(shape) > 0:
        same(lambda: x[1][min(shape[1], 2)])


@SETTINGS
@given(st.sampled_from(TYPES), shapes, layouts, st.integers(0, 99), numbers)
def test_fill_copy(name, shape, layout, seed, value):
    if layout == "expanded":
        layout = "contiguous"

    def fill():
        return make(name, shape, layout, seed).fill(value)

    same(fill)

    def copy(src_type):
        y = make(name, shape, layout, seed)
        return y.copy(make(src_type, shape, "transposed", seed + 1))

    for src_type in (name, "Double", "Byte"):
        same(lambda: copy(src_type))
    same(lambda: make(name, shape, layout, seed).copy(value))


@SETTINGS
@given(
    st.sampled_from(TYPES),
    st.lists(
        st.one_of(st.integers(-2, 5), st.floats(-1, 4), st.booleans(), st.just(2**40)),
        min_size=0,
        max_size=4,
    ),
)
def test_construction(name, sizes):
    cls = getattr(torch, name + "Tensor")
    if 0 <= (np.prod([s for s in sizes if isinstance(s, int)]) if sizes else 0) <= 10**6:
        same(lambda: geometry(cls(*sizes)))
    same(lambda: geometry(cls()))
    if all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 50 for s in sizes):
        same(lambda: geometry(cls(torch.LongStorage(sizes))))
        same(lambda: torch.zeros(*sizes, "torch." + name + "Tensor"))
        same(lambda: torch.ones(*sizes, "torch." + name + "Tensor"))


@SETTINGS
@given(
    st.sampled_from(TYPES),
    st.recursive(
        st.one_of(st.integers(-200, 300), st.floats(-1e3, 1e3), st.booleans(), st.just(2**70)),
        lambda inner: st.one_of(
            st.lists(inner, min_size=0, max_size=3),
            st.lists(inner, min_size=2, max_size=2).map(tuple),
        ),
        max_leaves=12,
    ),
)
def test_tables(name, table):
    cls = getattr(torch, name + "Tensor")
    storage = getattr(torch, name + "Storage")
    if not isinstance(table, (list, tuple)):  # a number: sizes, elements not set
        return
    same(lambda: cls(table))
    same(lambda: storage(table))


def test_rectangular_tables():
    for name in TYPES:
        cls = getattr(torch, name + "Tensor")
        for table in (
            [[1, 2, 3], [4, 5, 6]],
            ((1.5, -2.5), (3.0, 4.25)),
            [[[1], [2]], [[3], [4]]],
            [1, 2.5, -3],
            [[1, 2], [3]],
            [[1, 2], 3],
            [300, -129],
            [[]],
            [],
        ):
            same(lambda: cls(table))
            same(lambda: getattr(torch, name + "Storage")(table))


@SETTINGS
@given(st.sampled_from(TYPES), st.integers(0, 5), args, numbers)
def test_storage_elements(name, n, i, value):
    # s[i] and s[i] = v are StorageBase's C slots: the general path is the
    # class's _getitem/_setitem
    s = getattr(torch, name + "Storage")(n)
    s.fill(3)
    assert outcome(lambda: s[i], False) == outcome(lambda: s._getitem(i), False)

    def write(general_path):
        t = getattr(torch, name + "Storage")(n)
        t.fill(1)
        if general_path:
            t._setitem(i, value)
        else:
            t[i] = value
        return t

    assert outcome(lambda: write(False), False) == outcome(lambda: write(True), False)
    with pytest.raises(TypeError, match="cannot be deleted"):
        del s[1]


def test_storage_made_in_c():
    # x:size() / x:stride(): a new LongStorage made in C, registered as the
    # storage over its C memory when Python code first reads it (_s)
    x = torch.DoubleTensor(2, 3).t()
    s, st_ = x.size(), x.stride()
    assert type(s) is torch.LongStorage and type(st_) is torch.LongStorage
    assert s.tolist() == [3, 2] and st_.tolist() == [1, 3] and len(s) == 2
    assert s[1] == 3 and s[2] == 2 and st_[2] == 3 and type(s[1]) is int
    assert x.size() is not s and x.size().tolist() == [3, 2]
    s[1] = 7  # its own memory: x is not changed
    assert s.tolist() == [7, 2] and x.size(1) == 3
    v = torch.LongTensor(s)  # a LongTensor views a LongStorage
    assert v.storage() is s and v.tolist() == [7, 2]
    v[2] = 9
    assert s[2] == 9
    t = torch.LongTensor(x.size())
    assert t.storage() is not None and t.tolist() == [3, 2]
    assert (
        torch.DoubleTensor(2).size().tolist() == [2] and torch.DoubleTensor().size().tolist() == []
    )
    # retain() on a storage made in C: the reference goes with the object
    r = torch.DoubleTensor(4).size()
    r.retain().retain()
    assert r._extra == 2 and r._s.refcount == 3
    r.free()
    assert r._extra == 1 and r._s.refcount == 2
    del r
    import pickle

    p = pickle.loads(pickle.dumps(x.stride()))
    assert type(p) is torch.LongStorage and p.tolist() == [1, 3]


@SETTINGS
@given(st.sampled_from(TYPES), st.lists(st.integers(-2, 6), min_size=0, max_size=4))
def test_tensor_of_sizes_storage(name, sizes):
    # Tensor(LongStorage) in t7_init (a LongTensor views the storage instead)
    cls = getattr(torch, name + "Tensor")
    ls = torch.LongStorage(sizes)
    same(lambda: geometry(cls(ls)))
    made = torch.DoubleTensor(*[max(v, 0) for v in sizes]).size() if sizes else torch.LongStorage()
    same(lambda: geometry(cls(made)))


_SIZED_TYPES = ["torch." + n + "Tensor" for n in TYPES]


@SETTINGS
@given(
    st.sampled_from(["zeros", "ones", "rand", "randn"]),
    st.sampled_from(_SIZED_TYPES),
    st.lists(
        st.one_of(
            st.integers(-1, 5),
            st.floats(0, 4),
            st.booleans(),
            st.just(200),
            st.just("torch.FloatTensor"),
        ),
        min_size=0,
        max_size=4,
    ),
)
def test_sized_front_door(fn, default, sizes):
    # torch.zeros/ones/rand/randn(n1, n2, ...) of int sizes: one C call
    # (t7_sized); the same tensor, values and random numbers as the general
    # path, whatever the default type; anything else declined (the sizes
    # kept to 10^5 elements: 200^4 doubles would fill 12.8 GB)
    assume(np.prod([s for s in sizes if type(s) is int and s > 0] or [1]) <= 10**5)

    def call(path):
        torch.manualSeed(11)
        return path(*sizes)

    saved = torch.getdefaulttensortype()
    f = getattr(torch, fn)
    try:
        torch.setdefaulttensortype(default)
        # the front door (a partial of the C function) against the path it
        # stands before, itself run with the C small calls declining
        fast = outcome(lambda: call(f), False)
        with general():
            slow = outcome(lambda: call(f.general), False)
        assert fast == slow
    finally:
        torch.setdefaulttensortype(saved)


def test_sized_front_door_lua_values():
    # torch.rand/randn of a few elements keep Lua's MT19937 numbers bit for
    # bit (printed by Lua Torch7 with %.17g)
    torch.manualSeed(1)
    a = torch.rand(3, 3)
    assert a.tolist() == [
        [0.41702199843712151, 0.99718480813317001, 0.72032448928803205],
        [0.93255736120045185, 0.00011438108049333096, 0.12812444777227938],
        [0.30233256774954498, 0.99904051539488137, 0.14675589255057275],
    ]
    b = torch.randn(2, 2)
    assert b.tolist() == [
        [0.0384261239841295, 0.43851018004245579],
        [-0.51120300885713965, 0.38845945948470278],
    ]
    saved = torch.getdefaulttensortype()
    try:
        torch.setdefaulttensortype("torch.FloatTensor")
        torch.manualSeed(2)
        c = torch.rand(2, 2)
        assert c.type() == "torch.FloatTensor" and torch.zeros(2).type() == "torch.FloatTensor"
        assert c.tolist() == [
            [0.43599489331245422, 0.1850820779800415],
            [0.025926228612661362, 0.931540846824646],
        ]
    finally:
        torch.setdefaulttensortype(saved)
    assert torch.zeros(2, 2).tolist() == [[0, 0], [0, 0]] and torch.ones(1, 3).tolist() == [
        [1, 1, 1]
    ]


def test_default_type_aliases_follow():
    # torch.Tensor / torch.Storage: plain attributes set by setdefaulttensortype
    import strided.torch7 as face

    saved = torch.getdefaulttensortype()
    try:
        for name in ("Float", "Long", "Double"):
            torch.setdefaulttensortype(f"torch.{name}Tensor")
            for m in (torch, face):
                assert m.Tensor is getattr(torch, name + "Tensor")
                assert m.Storage is getattr(torch, name + "Storage")
            assert torch.Tensor(2).type() == f"torch.{name}Tensor"
    finally:
        torch.setdefaulttensortype(saved)
    assert "Tensor" in dir(torch) and "Storage" in dir(face)


def test_readonly_memory_declines():
    import strided.compat as xp
    from strided import interop

    a = np.arange(6, dtype=np.float64)
    a.flags.writeable = False
    x = interop.to_tensor(xp.asarray(a))  # read-only memory, borrowed
    assert x._c.readonly
    for f in (
        lambda: x.fill(2),
        lambda: x.__setitem__(1, 5.0),
        lambda: x.add(1),
        lambda: x.copy(torch.DoubleTensor(6)),
        lambda: x.storage().__setitem__(1, 3),
    ):
        assert same(f)[0] == "raised"
    assert a.tolist() == [0, 1, 2, 3, 4, 5]


@SETTINGS
@given(
    st.sampled_from(["Float", "Double"]),
    shapes,
    st.sampled_from(["contiguous", "offset", "transposed", "empty"]),
    st.integers(0, 99),
    numbers,
    st.sampled_from(["add", "mul", "div", "csub"]),
)
def test_scalar_inplace_matches_numpy(name, shape, layout, seed, value, op):
    same(lambda: getattr(make(name, shape, layout, seed), op)(value))
    x = make(name, shape, layout, seed)
    np_dt = np.float32 if name == "Float" else np.float64
    before = np.array(x.double().tolist() if x.nElement() else [], dtype=np_dt)
    try:
        r = getattr(x, op)(value)
    except (TypeError, ValueError, OverflowError):
        return  # refused alike by both paths (same() above)
    assert r is x
    with np.errstate(all="ignore"):
        v = np_dt(value)
        want = {"add": before + v, "mul": before * v, "div": before / v, "csub": before - v}[op]
    got = np.array(x.double().tolist() if x.nElement() else [], dtype=np_dt)
    np.testing.assert_array_equal(got, want)


def test_scalar_inplace_declines_large_and_other_types():
    big = torch.DoubleTensor(40000).fill(1)
    assert big.add(1) is big and big[40000] == 2.0
    li = torch.LongTensor(3).fill(1)
    assert li.add(2.7).tolist() == [3, 3, 3]  # Long: the general path (TH truncates)
    with pytest.raises(TypeError):
        torch.DoubleTensor(3).add("x")


def test_views_share_storage_and_keep_it_alive():
    x = torch.DoubleTensor([[1, 2, 3], [4, 5, 6]])
    v = x.narrow(2, 2, 2).t()
    r = x[2]
    del x
    assert v.tolist() == [[2, 5], [3, 6]] and r.tolist() == [4, 5, 6]
    v[1][1] = 20
    assert r.storage() is v.storage() and v.storage()[2] == 20 and r.storage()[5] == 5


def test_decline_sentinel_and_types():
    assert arraytype.t7_size(object(), 1) is DECLINED
    assert arraytype.t7_init(object(), (3,), 10) is False
    assert arraytype.t7_narrow(3, 1, 1, 1) is DECLINED
    with pytest.raises(TypeError):
        arraytype.t7_narrow(torch.Tensor(2))


# the random streams (Lua's values, tests/core/test_random.py) at each level too:
# random.c's refill and tempering are per-level kernels
RANDOM_TESTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "core", "test_random.py")


@pytest.mark.skipif(os.environ.get("STRIDED_FAST_PATHS_CHILD") == "1", reason="the child itself")
@pytest.mark.parametrize("level", ["0", "3", "4"])
def test_fast_paths_at_every_cpu_level(level):
    if int(level) > _core.cpu_level():
        pytest.skip(f"this CPU has no level {level}")
    env = dict(
        os.environ,
        STRIDED_CPU_LEVEL=level,
        STRIDED_FAST_PATHS_CHILD="1",
        HYPOTHESIS_PROFILE="default",
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            __file__,
            RANDOM_TESTS,
            "-k",
            "not every_cpu_level",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]

"""x:add(y) and the other methods that are x = x op y (forms.py's small
in-place path: one C call, st_binary_inplace_small) give what the general
path gives: same values, same object returned, the same errors with x
left as it was.  The general path is reached with the same values in a
non-contiguous view of another shape, which the C path declines."""

import numpy as np
import pytest

import strided as torch
from strided.torch7 import forms, spec
from t7util import TYPES

METHODS = [
    "add",
    "csub",
    "cmul",
    "cdiv",
    "cpow",
    "cfmod",
    "cremainder",
    "cmod",
    "atan2",
    "cbitand",
    "cbitor",
    "cbitxor",
]
ENTRY = {e.name: e for e in spec.ENTRIES}
TYPES_DT = ("uint8", "int8", "int16", "int32", "int64", "float32", "float64")


def values(name, n, seed, nonzero=False):
    rng = np.random.default_rng(seed)
    if name in ("FloatTensor", "DoubleTensor"):
        return (rng.standard_normal(n) * 3).tolist()
    lo = 1 if nonzero or name == "ByteTensor" else -4
    return rng.integers(lo, 5, n).tolist()


def general_copy(cls, vals):
    """A tensor with vals in a non-contiguous 1 x n view (the general path)."""
    wide = cls(2, len(vals)).zero()
    wide.select(1, 1).copy(cls(vals))
    return wide.t().narrow(2, 1, 1).t()  # 1 x n, stride (1, 2)


def outcome(f):
    try:
        return f()
    except Exception as e:  # the error is what is compared
        return type(e)


@pytest.mark.parametrize(
    "method, name", [(m, t) for m in METHODS for t in TYPES if hasattr(getattr(torch, t), m)]
)
def test_matches_the_general_path(method, name):
    cls = getattr(torch, name)
    a, b = (
        values(name, 7, 1),
        values(name, 7, 2, nonzero=method in ("cdiv", "cfmod", "cremainder", "cmod", "cpow")),
    )
    if method == "cpow" and name not in ("FloatTensor", "DoubleTensor"):
        b = [abs(v) % 3 for v in b]
    x, y = cls(a), cls(b)
    gx, gy = general_copy(cls, a), general_copy(cls, b)
    r = outcome(lambda: getattr(x, method)(y))
    g = outcome(lambda: getattr(gx, method)(gy))
    if isinstance(g, type):
        assert r is g
        return
    assert r is x
    np.testing.assert_array_equal(np.asarray(x.tolist()), np.asarray(g.tolist()).reshape(-1))


def test_the_c_path_is_taken_for_plain_tensors():
    for name in ("add", "csub", "cmul", "cdiv"):
        assert forms._inplace_op(ENTRY[name], "float64") is not None
    assert forms._inplace_op(ENTRY["mul"], "float64") is None  # x:mul(y) of a tensor: no form
    assert forms._inplace_op(ENTRY["sum"], "float64") is None


# the calls x:f(y) (y a tensor) and x:f(v) (v a number) that are x = x op y:
# name -> the core op for floats, for integers (None: the call has no such
# form for those types); the op table gives them (spec.py names no op)
TENSOR_OPS = {
    "add": ("add", "add"),
    "csub": ("subtract", "subtract"),
    "cmul": ("multiply", "multiply"),
    "cdiv": ("divide", "trunc_divide"),
    "cpow": ("pow", "pow"),
    "cfmod": ("fmod", "fmod"),
    "cmod": ("fmod", "fmod"),
    "cremainder": ("torch7_remainder", "torch7_remainder"),
    "atan2": ("atan2", None),
    "cbitand": (None, "bitwise_and"),
    "cbitor": (None, "bitwise_or"),
    "cbitxor": (None, "bitwise_xor"),
}
NUMBER_OPS = {
    "add": ("add", "add"),
    "csub": ("subtract", "subtract"),
    "mul": ("multiply", "multiply"),
    "div": ("divide", "trunc_divide"),
    "pow": ("pow", "pow"),
    "fmod": ("fmod", "fmod"),
    "mod": ("fmod", "fmod"),
    "remainder": ("torch7_remainder", "torch7_remainder"),
    "bitand": (None, "bitwise_and"),
    "bitor": (None, "bitwise_or"),
    "bitxor": (None, "bitwise_xor"),
}


@pytest.mark.parametrize("number, table", [(False, TENSOR_OPS), (True, NUMBER_OPS)])
def test_exactly_these_calls_take_the_c_path(number, table):
    """Every method of every class: the in-place path's op is the one above,
    and no other method has one."""
    from strided.core.ops import BINARY

    for e in spec.ENTRIES:
        for dt in e.types & set(TYPES_DT):
            want = table.get(e.name, (None, None))[0 if dt.startswith("float") else 1]
            got = forms._inplace_op(e, dt, number)
            assert got == (None if want is None else BINARY[want]), (e.name, dt, got)


def test_integer_division_by_zero_leaves_x():
    x, y = torch.IntTensor([6, 7, 8]), torch.IntTensor([2, 0, 4])
    with pytest.raises(ZeroDivisionError):
        x.cdiv(y)
    assert x.tolist() == [6, 7, 8]


def test_aliasing_and_overlap():
    x = torch.DoubleTensor([1, 2, 3])
    assert x.add(x) is x and x.tolist() == [2, 4, 6]
    base = torch.DoubleTensor([1, 2, 3, 4])
    a, b = base.narrow(1, 1, 3), base.narrow(1, 2, 3)  # overlapping: the general path
    a.add(b)
    assert base.tolist() == [3, 5, 7, 4]


def test_shapes_and_types_that_differ_take_the_general_path():
    x, y = torch.DoubleTensor(2, 3).fill(1), torch.DoubleTensor(6).fill(2)
    assert x.add(y) is x and x.tolist() == [[3, 3, 3], [3, 3, 3]]
    with pytest.raises(TypeError):
        x.add(torch.FloatTensor(2, 3))
    with pytest.raises(ValueError):
        x.add(torch.DoubleTensor(5))


def test_empty_tensors():
    x, y = torch.DoubleTensor(), torch.DoubleTensor()
    assert x.add(y) is x and x.nElement() == 0
    z = torch.DoubleTensor(0)
    assert z.add(torch.DoubleTensor(0)) is z and z.nElement() == 0


def test_scaled_add_and_values_keep_their_forms():
    x, y = torch.DoubleTensor([1, 2]), torch.DoubleTensor([10, 20])
    assert x.add(2, y) is x and x.tolist() == [21, 42]
    assert x.add(1) is x and x.tolist() == [22, 43]
    r = torch.DoubleTensor()
    assert r.add(x, y) is r and r.tolist() == [32, 63]

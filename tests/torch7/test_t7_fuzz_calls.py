"""Every Torch7-face function and method, called with random mixes of
arguments of every kind (tensors of each type and shape, empty and
non-contiguous ones, numbers, huge and non-finite numbers, strings, lists,
storages, None), raises a clean Python exception or returns: never a
crash, never an internal error.  What Lua refuses with an argument error
must come back as TypeError/ValueError/IndexError/... naming what was
wrong; an AttributeError, KeyError, AssertionError or UnboundLocalError
escaping from the face would be a bug of ours, not a refusal."""

import math
import random

import pytest

import strided as torch
from strided.torch7 import functions

CLEAN = (
    TypeError,
    ValueError,
    IndexError,
    OverflowError,
    ZeroDivisionError,
    RuntimeError,
    NotImplementedError,
)

# names whose calls touch the outside world or global state that the draws
# could leave behind (files, the shell, the default type, the thread count)
SKIP = {
    "DiskFile",
    "MemoryFile",
    "PipeFile",
    "save",
    "load",
    "setdefaulttensortype",
    "setnumthreads",
    "class_",
    "factory",
    "getmetatable",
    "from_dlpack",
    "Timer",
    "setheaptracking",
    "seed",
    "manualSeed",
    "setRNGState",
    "Generator",
    "apply",
    "map",
    "map2",
    "data",
    "cdata",
    "pointer",
    "deserialize",
    "deserializeFromStorage",
}


def pool():
    torch.manualSeed(7)
    d = torch.randn(3, 3)
    return [
        0,
        1,
        2,
        3,
        -1,
        2.5,
        -0.5,
        math.nan,
        math.inf,
        1e30,
        2**63,
        True,
        False,
        None,
        "V",
        "F",
        "U",
        "L",
        "N",
        "torch.IntTensor",
        "x",
        [1, 2],
        [[1, 2], [3]],
        [],
        (2, 3),
        d,
        d.t(),
        torch.randn(5),
        torch.randn(2, 3, 4),
        torch.DoubleTensor(),
        torch.DoubleTensor(0),
        torch.DoubleTensor(2, 0),
        torch.randn(4, 4).float(),
        torch.IntTensor([3, 1, 2]),
        torch.LongTensor([1, 3]),
        torch.LongTensor([[1, 2], [3, 1]]),
        torch.ByteTensor([1, 0, 1]),
        torch.ByteTensor(3, 3).fill(1),
        torch.CharTensor([-1, 2]),
        torch.randn(6)[[2, 5]],
        torch.randn(3, 4)[[], [2, 3]],
        torch.range(1, 9).view(3, 3),
        torch.LongStorage([2, 3]),
        torch.DoubleStorage(4),
        torch.Generator(),
    ]


def calls(name, target, rng, values, count):
    for _ in range(count):
        args = [rng.choice(values) for _ in range(rng.randint(0, 5))]
        yield args


def short(v):
    if torch.isTensor(v):
        return f"{torch.typename(v)}({'x'.join(map(str, v.size().tolist())) or 'empty'})"
    return repr(v) if not torch.isStorage(v) else torch.typename(v)


def attempt(f, args, what):
    try:
        f(*args)
    except CLEAN:
        pass
    except Exception as e:  # the point of the test
        pytest.fail(
            f"{what}({', '.join(map(short, args))}) raised {type(e).__name__}: "
            f"{str(e).splitlines()[0] if str(e) else ''}"
        )


@pytest.mark.parametrize("name", sorted(set(functions.FUNCTIONS) - SKIP))
def test_functions_refuse_cleanly(name):
    rng = random.Random(name)
    values = pool()
    state = torch.getRNGState()
    for args in calls(name, None, rng, values, 150):
        attempt(getattr(torch, name), args, f"torch.{name}")
    torch.setRNGState(state)


METHOD_SKIP = SKIP | {"free", "retain", "set", "resize", "resizeAs", "storage"}


def method_names():
    x = torch.DoubleTensor(2)
    return sorted(
        n
        for n in dir(x)
        if not n.startswith("_") and callable(getattr(x, n)) and n not in METHOD_SKIP
    )


@pytest.mark.parametrize("name", method_names())
def test_methods_refuse_cleanly(name):
    rng = random.Random("method " + name)
    values = pool()
    tensors = [v for v in values if torch.isTensor(v)]
    for args in calls(name, None, rng, values, 100):
        x = rng.choice(tensors).clone() if rng.random() < 0.5 else rng.choice(tensors)
        if hasattr(x, name):  # atan2, histc, ...: not every type has them
            attempt(getattr(x, name), args, f"x.{name}")

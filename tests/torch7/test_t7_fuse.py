"""torch.fuse: a fused Torch7 expression gives what the unfused one gives
(same kernels: value for value, type and shape), with the face's rules (one
tensor type, no broadcasting, numbers in the tensor type, the first
operand's shape) and clear errors for what cannot be fused."""

import numpy as np
import pytest

import strided as torch
from t7util import TYPES


def tensor(name, shape, seed, positive=False):
    rng = np.random.default_rng(seed)
    cls = getattr(torch, name)
    n = int(np.prod(shape))
    if name in ("FloatTensor", "DoubleTensor"):
        v = rng.standard_normal(n) + (3 if positive else 0)
    else:
        v = rng.integers(1 if positive or name == "ByteTensor" else -9, 10, n)
    return cls(v.tolist()).resize(*shape)


def same(fused, unfused):
    assert type(fused) is type(unfused)
    assert fused.size().tolist() == unfused.size().tolist()
    np.testing.assert_array_equal(np.asarray(fused.tolist()), np.asarray(unfused.tolist()))


@pytest.mark.parametrize("name", TYPES)
def test_cmul_plus_every_type(name):
    x, y, z = (tensor(name, (4, 5), s) for s in (1, 2, 3))

    def f(a, b, c):
        return torch.cmul(a, b) + c

    same(torch.fuse(f)(x, y, z), f(x, y, z))


@pytest.mark.parametrize("name", ["FloatTensor", "DoubleTensor"])
def test_functions_and_numbers(name):
    x, y = tensor(name, (30,), 4, positive=True), tensor(name, (30,), 5)

    def f(a, b):
        return (
            torch.sqrt(a) * 2.5
            - torch.exp(torch.neg(b)) / 3
            + torch.add(a, 2, b)
            - torch.pow(a, 2)
            + torch.pow(2, b)
            - (1 - a)
        )

    same(torch.fuse(f)(x, y), f(x, y))


def test_integer_division_is_toward_zero_as_unfused():
    x, y = torch.IntTensor([7, -7, 9]), torch.IntTensor([2, 2, -4])
    f = torch.fuse(lambda a, b: torch.cdiv(a, b) + a / 2 + a % 3)
    same(f(x, y), torch.cdiv(x, y) + x / 2 + x % 3)
    with pytest.raises(ZeroDivisionError):
        f(x, torch.IntTensor([1, 0, 1]))


def test_first_operand_shape_and_element_counts():
    x, y = tensor("DoubleTensor", (2, 3), 6), tensor("DoubleTensor", (6,), 7)
    f = torch.fuse(lambda a, b: a + torch.cmul(b, b))
    same(f(x, y), x + torch.cmul(y, y))
    g = torch.fuse(lambda a, b: b - a)
    same(g(x, y), y - x)
    with pytest.raises(ValueError, match="elements"):
        f(x, torch.DoubleTensor(5))


def test_non_contiguous_and_empty():
    base = tensor("DoubleTensor", (6, 8), 8)
    x, y = base.t(), base.t().clone()
    f = torch.fuse(lambda a, b: torch.cmul(a, b) - a * 2)
    same(f(x, y), torch.cmul(x, y) - x * 2)
    e = torch.DoubleTensor()
    assert f(e, e).nElement() == 0


def test_number_conversion_as_unfused():
    x = torch.ByteTensor([1, 2])
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        torch.fuse(lambda a: a + 300)(x)


def test_errors():
    x = torch.DoubleTensor([1, 2])
    with pytest.raises(TypeError, match="matrix product"):
        torch.fuse(lambda a, b: a * b)(x, x)
    with pytest.raises(TypeError, match="FloatTensor"):
        torch.fuse(lambda a, b: a + b)(x, torch.FloatTensor([1, 2]))
    with pytest.raises(TypeError, match="must be a tensor"):
        torch.fuse(lambda a, b: a + b)(x, [1, 2])
    with pytest.raises(TypeError, match="no elementwise form"):
        torch.fuse(lambda a: torch.sum(a))(x)
    with pytest.raises(TypeError, match="given a tensor"):
        torch.fuse(lambda a: torch.add(torch.DoubleTensor(2), a, 1))(x)
    with pytest.raises(TypeError, match="must return one value"):
        torch.fuse(lambda a: 3)(x)
    with pytest.raises(TypeError, match="exp is not defined for int32"):  # as unfused
        torch.fuse(lambda a: torch.exp(a))(torch.IntTensor([1]))
    with pytest.raises(TypeError, match="expected a function"):
        torch.fuse(5)
    with pytest.raises(TypeError, match="at least one tensor"):
        torch.fuse(lambda: 1)()


def test_traced_once_per_class_and_count():
    seen = []

    @torch.fuse
    def f(a):
        seen.append(1)
        return a + 1

    for cls in (torch.DoubleTensor, torch.DoubleTensor, torch.IntTensor):
        same(f(cls([1, 2])), cls([2, 3]))
    assert len(seen) == 2

"""Bad input on the Torch7 face: IndexError for indices and dimensions out
of range (naming the value and the valid range), ValueError for bad sizes
and count mismatches, TypeError for wrong argument types; nothing written
when an index operation finds a bad index."""

import pytest

import strided as torch


@pytest.fixture
def x():
    return torch.Tensor(3, 4).fill(0)


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda x: x.narrow(3, 1, 1), IndexError, r"dim 3 out of range \[1, 2\]"),
        (lambda x: x.narrow(1, 4, 1), IndexError, r"narrow: index 4 out of range \[1, 3\]"),
        (lambda x: x.narrow(1, 2, 5), ValueError, r"narrow: size 5 out of range \[0, 2\]"),
        (
            lambda x: x.select(2, 0),
            IndexError,
            r"select: index 0 out of range \[1, 4\] for dimension 2",
        ),
        (lambda x: x.select(0, 1), IndexError, r"dim 0 out of range \[1, 2\]"),
        (lambda x: x[4], IndexError, r"index 4 out of range \[1, 3\]"),
        (lambda x: x[1, 5], IndexError, r"index 5 out of range \[1, 4\].*dimension 2"),
        (lambda x: x[-4], IndexError, r"index -4 out of range"),
        (lambda x: x[1, 2, 3], IndexError, r"3 indices for a tensor of 2 dimensions"),
        (lambda x: x[[3, 2]], IndexError, r"range end 2 out of range \[3, 3\]"),
        (lambda x: x[[0, 2]], IndexError, r"index 0 out of range \[1, 3\]"),
        (lambda x: x[1:2], TypeError, r"slices other than a bare ':'.*\[a, b\]"),
        (lambda x: x[float("nan")], TypeError, r"nan"),  # Lua truncates 1.5 (x[1.5] is x[1])
        (lambda x: x[torch.IntTensor(3, 4)], TypeError, r"ByteTensor mask, got torch.IntTensor"),
        (lambda x: x[torch.LongStorage([1])], IndexError, r"needs 2 numbers, got 1"),
        (lambda x: x.sub(1, 4), IndexError, r"sub: end 4 out of range \[1, 3\]"),
        (lambda x: x.sub(0, 2), IndexError, r"sub: start 0 out of range \[1, 3\]"),
        (lambda x: x.transpose(1, 3), IndexError, r"dim2 3 out of range \[1, 2\]"),
        (lambda x: x.permute(1, 1), ValueError, r"not a permutation"),
        (lambda x: x.permute(1), ValueError, r"1 dimensions given for a tensor of 2"),
        (lambda x: x.unfold(1, 4, 1), ValueError, r"unfold: size 4 out of range \[0, 3\]"),
        (lambda x: x.unfold(1, 2, 0), ValueError, r"step must be >= 1, got 0"),
        (lambda x: x.expand(4, 4), ValueError, r"expand:.*size 3"),
        (lambda x: x.view(5, 2), ValueError, r"view: .*12 elements"),
        (lambda x: x.t().view(12), ValueError, r"contiguous"),
        (lambda x: x.copy(torch.Tensor(5)), ValueError, r"source has 5 elements, destination 12"),
        (lambda x: x.copy(3), TypeError, r"expected a tensor"),
        (
            lambda x: x.index(1, torch.IntTensor([1])),
            TypeError,
            r"torch.LongTensor, got torch.IntTensor",
        ),
        (
            lambda x: x.index(1, torch.LongTensor([4])),
            IndexError,
            r"index: index 4 out of range \[1, 3\] for dimension 1",
        ),
        (
            lambda x: x.index(2, torch.LongTensor([1, 0])),
            IndexError,
            r"index: index 0 out of range \[1, 4\] for dimension 2",
        ),
        (
            lambda x: x.indexFill(2, torch.LongTensor([5]), 1),
            IndexError,
            r"indexFill: index 5 out of range \[1, 4\] for dimension 2",
        ),
        (
            lambda x: x.indexAdd(1, torch.LongTensor([-1]), torch.Tensor(1, 4)),
            IndexError,
            r"indexAdd: index -1 out of range \[1, 3\] for dimension 1",
        ),
        (
            lambda x: x.indexCopy(1, torch.LongTensor([1]), torch.Tensor(2, 4)),
            ValueError,
            r"indexCopy: source has size 2x4, expected 1x4",
        ),
        (
            lambda x: x.scatter(2, torch.LongTensor([[5]]), torch.Tensor(1, 1)),
            IndexError,
            r"scatter: index 5 out of range \[1, 4\] for dimension 2",
        ),
        (
            lambda x: x.scatter(1, torch.LongTensor([[1]]), torch.Tensor(1)),
            ValueError,
            r"scatter: source has 1 dimensions but the tensor has 2",
        ),
        (
            lambda x: x.gather(1, torch.LongTensor([1])),
            ValueError,
            r"gather: index has 1 dimensions but the tensor has 2",
        ),
        (
            lambda x: x.gather(1, torch.LongTensor([[1, 1, 1, 1, 1]])),
            ValueError,
            r"gather: index has size 5 in dimension 2 but the tensor only 4",
        ),
        (lambda x: x.index(3, torch.LongTensor([1])), IndexError, r"dim 3 out of range \[1, 2\]"),
        (
            lambda x: x.gather(1, torch.LongTensor([[0, 1, 1, 1]])),
            IndexError,
            r"gather: index 0 out of range \[1, 3\] for dimension 1",
        ),
        (
            lambda x: x.maskedFill(torch.ByteTensor(5), 1),
            ValueError,
            r"mask has 5 elements but the tensor has 12",
        ),
        (
            lambda x: x.maskedFill(torch.IntTensor(3, 4), 1),
            TypeError,
            r"mask must be a torch.ByteTensor",
        ),
        (
            lambda x: x.maskedCopy(torch.ByteTensor(3, 4).fill(1), torch.Tensor(2)),
            ValueError,
            r"mask sets 12",
        ),
        (
            lambda x: x.indexCopy(1, torch.LongTensor([1]), torch.IntTensor(1, 4)),
            TypeError,
            r"torch.IntTensor",
        ),
        (lambda x: x + torch.IntTensor(3, 4), TypeError, r"torch.DoubleTensor and torch.IntTensor"),
        (lambda x: x + torch.Tensor(5), ValueError, r"12 and 5 elements"),
        (lambda x: x * x, ValueError, r"\*: size mismatch, 3x4 and 3x4"),
        (lambda x: x.resize(-1), ValueError, r"size 1 must be >= 0, got -1"),
        (lambda x: x.type("torch.Foo"), ValueError, r"unknown tensor type 'torch.Foo'"),
        (
            lambda x: x.t().t().t().t().t().t().t().view(-1, -1),
            ValueError,
            r"only one dimension can be -1",
        ),
        (lambda x: x.split(0), ValueError, r"size must be >= 1, got 0"),
        (lambda x: x.chunk(0), ValueError, r"n must be >= 1, got 0"),
        (lambda x: x.max(3), IndexError, r"dim 3 out of range"),
        (lambda x: x.sum(0), IndexError, r"dim 0 out of range"),
        (lambda x: torch.Tensor(1).t(), ValueError, r"2 dimensions"),
    ],
)
def test_bad_input(x, call, exc, pattern):
    before = x.clone()
    with pytest.raises(exc, match=pattern):
        call(x)
    assert x.tolist() == before.tolist()  # nothing written


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda: torch.Tensor(-1), ValueError, r"size 1 must be >= 0, got -1"),
        (lambda: torch.Tensor(2, -3), ValueError, r"size 2 must be >= 0, got -3"),
        (lambda: torch.Tensor("abc"), TypeError, r"cannot construct from str"),
        (lambda: torch.Tensor(torch.IntTensor(2)), TypeError, r"needs a torch.DoubleTensor"),
        (
            lambda: torch.Tensor(torch.FloatStorage(3)),
            TypeError,
            r"storage must be a torch.DoubleStorage",
        ),
        (lambda: torch.Tensor(torch.Storage(4), 0), IndexError, r"storageOffset 0 out of range"),
        (
            lambda: torch.Tensor(torch.Storage(4), 1, 2.5),
            TypeError,
            r"argument 3 must be an integer",
        ),
        (lambda: torch.Tensor([[1, 2], [3]]), ValueError, r"ragged"),
        # mixed nesting (Lua: "invalid element (not a number)" / "invalid tensor definition")
        (lambda: torch.Tensor([1, [2]]), ValueError, r"ragged.*a sequence at depth 1"),
        (lambda: torch.DoubleTensor([1, [2]]), ValueError, r"ragged.*a sequence at depth 1"),
        (lambda: torch.LongTensor([[1], 2]), ValueError, r"ragged.*a number at depth 1"),
        (lambda: torch.Tensor([[1, 2], [3, [4]]]), ValueError, r"ragged.*a sequence at depth 2"),
        (lambda: torch.LongStorage(3)[0], IndexError, r"index 0 out of range \[1, 3\]"),
        (lambda: torch.LongStorage(3)[4], IndexError, r"index 4 out of range \[1, 3\]"),
        (lambda: torch.LongStorage(-2), ValueError, r"size must be >= 0, got -2"),
        (
            lambda: torch.LongStorage(torch.LongStorage(3), 5),
            IndexError,
            r"offset 5 out of range \[1, 3\]",
        ),
        (
            lambda: torch.LongStorage(torch.LongStorage(3), 2, 3),
            ValueError,
            r"size 3 out of range \[0, 2\]",
        ),
        (
            lambda: torch.LongStorage(torch.IntStorage(3), 1),
            TypeError,
            r"needs a torch.LongStorage",
        ),
        (lambda: torch.setdefaulttensortype("torch.Foo"), ValueError, r"unknown type 'torch.Foo'"),
        (lambda: torch.IntTensor(2).fill(1) / 0, ZeroDivisionError, r"by zero"),
        (lambda: torch.range(1, 5, 0), ValueError, r"step must be nonzero"),
        (lambda: torch.range(5, 1), ValueError, r"wrong way"),
        (
            lambda: torch.le(torch.Tensor(2), "a"),
            TypeError,
            r"le: argument 2 \(\w+\) must be a [\w.]+, got str",
        ),
    ],
)
def test_bad_construction(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


def test_borrowed_storage_cannot_grow():
    t = torch.Tensor(4).fill(1)
    s = torch.Storage(4, torch.data(t, True))
    with pytest.raises(ValueError, match="borrowed"):
        torch.Tensor(s, 1, 10)
    with pytest.raises(ValueError, match="borrowed"):
        torch.Tensor(s).resize(10)
    with pytest.raises(ValueError, match="borrowed"):
        s.resize(8)


def test_owned_storage_grows_for_a_view():
    s = torch.Storage(4).fill(1)
    x = torch.Tensor(s, 1, torch.LongStorage([3, 3]))
    assert s.size() == 9 and x.size().tolist() == [3, 3]


def test_index_bad_index_writes_nothing():
    x = torch.Tensor(3, 4).fill(0)
    with pytest.raises(IndexError):
        x.indexFill(1, torch.LongTensor([1, 2, 9]), 5)
    with pytest.raises(IndexError):
        x.indexCopy(1, torch.LongTensor([1, 9]), torch.Tensor(2, 4).fill(5))
    with pytest.raises(IndexError):
        x.scatter(1, torch.LongTensor([[1, 1, 1, 4]]), 5.0)
    assert x.sum() == 0


def test_free_misuse_never_crashes():
    t = torch.Tensor(3)
    for _ in range(5):
        t.free()
    t.retain()
    t.free()
    assert t.nElement() == 0
    assert str(t) == "[torch.DoubleTensor with no dimension]"
    t.resize(2).fill(1)
    assert t.tolist() == [1.0, 1.0]


def test_numbers_that_do_not_fit_raise_and_tensor_casts_wrap():
    with pytest.raises(OverflowError, match="300 is out of range \\[0, 255\\]"):
        torch.ByteTensor(2).fill(300)
    with pytest.raises(OverflowError):
        torch.ByteStorage(2)[1] = -1
    with pytest.raises(OverflowError):
        torch.ByteTensor([300])
    assert torch.IntTensor(2).fill(3.7).tolist() == [3, 3]
    assert torch.ByteTensor([1]).copy(torch.Tensor([300])).tolist() == [44]
    assert (torch.CharTensor([100]) * 2).tolist() == [-56]


def test_long_tensor_index_raises():
    # Lua: x[torch.LongTensor{1, 2}] is nil (the key is looked up as a
    # method name) and x[...] = 5 raises; we raise TypeError for both
    x = torch.Tensor([1, 2, 3])
    with pytest.raises(TypeError, match="ByteTensor mask"):
        x[torch.LongTensor([1, 2])]
    with pytest.raises(TypeError, match="ByteTensor mask"):
        x[torch.LongTensor([1, 2])] = 5
    assert x.totable() == [1, 2, 3]

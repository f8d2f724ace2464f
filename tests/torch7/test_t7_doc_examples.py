"""One test per documented example of the Torch7 Tensor page
(shared/seeds/000_fc3f51f0c883e84a.txt, Markdown source 003_...), typed in
Python by the mapping (shared/design/torch7-in-python.md).  Where the page
prints values, the printed text is the oracle (see t7util._norm for what is
normalised).  Examples that print random values rebuild the documented
input from its printed values and check the printed output."""

import math
import pathlib
import re

import pytest
from t7util import TYPES, assert_prints, assert_prints_exactly, counter

import strided as torch

# ------------------------------------------------------------ Multi-dimensional matrix


def test_multidimensional_matrix():
    z = torch.Tensor(4, 5, 6, 2)
    assert z.nDimension() == 4
    s = torch.LongStorage(6)
    for i, v in enumerate([4, 5, 6, 2, 7, 3], 1):
        s[i] = v
    x = torch.Tensor(s)
    assert x.nDimension() == 6
    assert_prints(
        x.size(),
        """
4
5
6
2
7
3
[torch.LongStorage of size 6]""",
    )


# ------------------------------------------------------------ Internal data representation


def test_element_through_storage():
    x = torch.Tensor(7, 7, 7)
    x.storage().fill(0)
    x[3][4][5] = 42
    assert x[3][4][5] == 42
    assert (
        x.storage()[
            x.storageOffset()
            + (3 - 1) * x.stride(1)
            + (4 - 1) * x.stride(2)
            + (5 - 1) * x.stride(3)
        ]
        == 42
    )


def test_storage_viewed_as_matrix():
    x = torch.Tensor(4, 5)
    s = x.storage()
    for i in range(1, s.size() + 1):
        s[i] = i
    assert_prints(
        x,
        """
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
[torch.DoubleTensor of dimension 4x5]""",
    )


def test_rows_contiguous_apply():
    x = torch.Tensor(4, 5)
    x.apply(counter())
    assert_prints_exactly(
        x,
        """
  1   2   3   4   5
  6   7   8   9  10
 11  12  13  14  15
 16  17  18  19  20
[torch.DoubleTensor of dimension 4x5]""",
    )
    assert_prints_exactly(
        x.stride(),
        """
 5
 1
[torch.LongStorage of size 2]""",
    )


def test_types_exist():
    for name in TYPES:
        assert getattr(torch, name)().type() == "torch." + name


def test_default_tensor_type():
    assert torch.getdefaulttensortype() == "torch.DoubleTensor"
    assert torch.Tensor is torch.DoubleTensor
    try:
        torch.setdefaulttensortype("torch.FloatTensor")
        assert torch.Tensor is torch.FloatTensor
        assert torch.Storage is torch.FloatStorage
        assert torch.Tensor(2).type() == "torch.FloatTensor"
        assert torch.zeros(2).type() == "torch.FloatTensor"
    finally:
        torch.setdefaulttensortype("torch.DoubleTensor")
    assert torch.Tensor is torch.DoubleTensor


# ------------------------------------------------------------ Efficient memory management


def test_narrow_fill_shares_storage():
    x = torch.Tensor(5).zero()
    # the page prints "0"; Lua Torch7 at 814ea4a prints " 0" (digit count of 0 is 1)
    assert_prints_exactly(
        x,
        """
 0
 0
 0
 0
 0
[torch.DoubleTensor of dimension 5]""",
    )
    x.narrow(1, 2, 3).fill(1)
    assert_prints(
        x,
        """
0
1
1
1
0
[torch.Tensor of dimension 5]""",
    )
    y = torch.Tensor(x.size()).copy(x)
    assert y.tolist() == x.tolist()
    y = x.clone()
    assert y.tolist() == x.tolist() and y.storage()._s != x.storage()._s


# ------------------------------------------------------------ constructors


def test_constructor_empty():
    x = torch.Tensor()
    assert x.nDimension() == 0 and x.nElement() == 0
    assert_prints(x, "[torch.DoubleTensor with no dimension]")


def test_constructor_from_tensor():
    x = torch.Tensor(2, 5).fill(3.14)
    assert_prints_exactly(
        x,
        """
 3.1400  3.1400  3.1400  3.1400  3.1400
 3.1400  3.1400  3.1400  3.1400  3.1400
[torch.DoubleTensor of dimension 2x5]""",
    )
    y = torch.Tensor(x)
    assert_prints(
        y,
        """
  3.1400  3.1400  3.1400  3.1400  3.1400
  3.1400  3.1400  3.1400  3.1400  3.1400
[torch.DoubleTensor of dimension 2x5]""",
    )
    y.zero()
    assert_prints(
        x,
        """
  0  0  0  0  0
  0  0  0  0  0
[torch.DoubleTensor of dimension 2x5]""",
    )
    assert y.isSetTo(x)


def test_constructor_sizes():
    assert torch.Tensor(2, 3, 4, 5).size().tolist() == [2, 3, 4, 5]
    x = torch.Tensor(torch.LongStorage([4, 4, 3, 2]))
    assert x.size().tolist() == [4, 4, 3, 2] and x.stride().tolist() == [24, 6, 2, 1]


def test_constructor_zero_stride():
    x = torch.Tensor(torch.LongStorage([4]), torch.LongStorage([0])).zero()
    x[1] = 1
    assert_prints(
        x,
        """
  1
1
1
1
[torch.DoubleTensor of dimension 4]""",
    )
    assert x.storage().size() == 1


def test_constructor_negative_stride_means_contiguous():
    x = torch.Tensor(torch.LongStorage([3, 4]), torch.LongStorage([-1, -1]))
    assert x.stride().tolist() == [4, 1]


def test_constructor_from_longstorage_float_and_long():
    a = torch.LongStorage([1, 2])
    b = torch.FloatTensor(a)
    assert_prints(
        b.size(),
        """
1
2
[torch.LongStorage of size 2]""",
    )
    c = torch.LongTensor(a)
    assert_prints(
        c,
        """
1
2
[torch.LongTensor of size 2]""",
    )
    c[1] = 7
    assert a[1] == 7  # c views a


def test_constructor_storage_offset_sizes():
    s = torch.Storage(10).fill(1)
    x = torch.Tensor(s, 1, torch.LongStorage([2, 5]))
    assert_prints(
        x,
        """
 1  1  1  1  1
 1  1  1  1  1
[torch.DoubleTensor of dimension 2x5]""",
    )
    x.zero()
    assert_prints(s, "\n".join(["0"] * 10) + "\n[torch.DoubleStorage of size 10]")


def test_constructor_storage_number_forms():
    s = torch.Storage(10)
    x = torch.Tensor(s, 1, 2, 5, 5, 1)
    assert x.size().tolist() == [2, 5] and x.stride().tolist() == [5, 1]
    y = torch.Tensor(s, 1, 2, 5)
    assert y.size().tolist() == [2] and y.stride().tolist() == [5]
    z = torch.Tensor(s, 1, 10)
    assert z.size().tolist() == [10]


def test_constructor_table():
    assert_prints(
        torch.Tensor([[1, 2, 3, 4], [5, 6, 7, 8]]),
        """
 1  2  3  4
 5  6  7  8
[torch.DoubleTensor of dimension 2x4]""",
    )


# ------------------------------------------------------------ clone, contiguous, type


def test_clone():
    x = torch.Tensor(5).apply(counter())
    assert_prints(x, "1\n2\n3\n4\n5\n[torch.DoubleTensor of dimension 5]")
    y = x.clone()
    assert_prints(y, "1\n2\n3\n4\n5\n[torch.DoubleTensor of dimension 5]")
    y.fill(1)
    assert_prints(y, "1\n1\n1\n1\n1\n[torch.DoubleTensor of dimension 5]")
    assert_prints(x, "1\n2\n3\n4\n5\n[torch.DoubleTensor of dimension 5]")


def test_contiguous():
    x = torch.Tensor(2, 3).fill(1)
    assert_prints(x, " 1  1  1\n 1  1  1\n[torch.DoubleTensor of dimension 2x3]")
    y = x.contiguous().fill(2)
    assert_prints(y, " 2  2  2\n 2  2  2\n[torch.DoubleTensor of dimension 2x3]")
    assert_prints(x, " 2  2  2\n 2  2  2\n[torch.DoubleTensor of dimension 2x3]")
    z = x.t().contiguous().fill(3.14)
    assert_prints(
        z,
        """
3.1400  3.1400
3.1400  3.1400
3.1400  3.1400
[torch.DoubleTensor of dimension 3x2]""",
    )
    assert_prints(x, " 2  2  2\n 2  2  2\n[torch.DoubleTensor of dimension 2x3]")


def test_type_query_and_same_type():
    assert torch.Tensor().type() == "torch.DoubleTensor"
    x = torch.Tensor(3).fill(3.14)
    assert_prints(x, "3.1400\n3.1400\n3.1400\n[torch.DoubleTensor of dimension 3]")
    y = x.type("torch.DoubleTensor")
    assert y is x
    y.zero()
    assert_prints(x, "0\n0\n0\n[torch.DoubleTensor of dimension 3]")


def test_type_conversion():
    x = torch.Tensor(3).fill(3.14)
    y = x.type("torch.IntTensor")
    assert_prints(y, "3\n3\n3\n[torch.IntTensor of dimension 3]")


def test_typeAs():
    x = torch.Tensor(3).fill(3.14)
    assert x.typeAs(torch.IntTensor()).type() == "torch.IntTensor"


def test_isTensor():
    assert torch.isTensor(torch.randn(3, 4)) is True
    assert torch.isTensor(torch.randn(3, 4)[1]) is True
    assert torch.isTensor(torch.randn(3, 4)[1][2]) is False


def test_byte_to_double_conversions():
    x = torch.Tensor(3).fill(3.14)
    assert_prints(x, "  3.1400\n  3.1400\n  3.1400\n[torch.DoubleTensor of dimension 3]")
    assert_prints(x.type("torch.IntTensor"), "  3\n  3\n  3\n[torch.IntTensor of dimension 3]")
    assert_prints(x.int(), "  3\n  3\n  3\n[torch.IntTensor of dimension 3]")
    for m, name in [
        ("byte", "Byte"),
        ("char", "Char"),
        ("short", "Short"),
        ("int", "Int"),
        ("long", "Long"),
        ("float", "Float"),
        ("double", "Double"),
    ]:
        assert getattr(x, m)().type() == f"torch.{name}Tensor"


# ------------------------------------------------------------ size and structure


def test_nDimension_dim():
    x = torch.Tensor(4, 5)
    assert x.nDimension() == 2 and x.dim() == 2


def test_size_dim():
    x = torch.Tensor(4, 5).zero()
    assert_prints(x, "\n".join([" 0 0 0 0 0"] * 4) + "\n[torch.DoubleTensor of dimension 4x5]")
    assert x.size(2) == 5


def test_size():
    x = torch.Tensor(4, 5).zero()
    assert_prints(x.size(), "4\n5\n[torch.LongStorage of size 2]")
    assert len(x) == 4


def test_stride_dim():
    x = torch.Tensor(4, 5).zero()
    assert x.stride(2) == 1
    assert x.stride(1) == 5


def test_stride():
    x = torch.Tensor(4, 5).zero()
    assert_prints(
        x.stride(),
        """
5
1 -- elements are contiguous in a row [last dimension]
[torch.LongStorage of size 2]""",
    )


def test_storage():
    x = torch.Tensor(4, 5)
    s = x.storage()
    for i in range(1, s.size() + 1):
        s[i] = i
    assert_prints(
        x,
        """
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
[torch.DoubleTensor of dimension 4x5]""",
    )


def test_isContiguous():
    x = torch.randn(4, 5)
    assert x.isContiguous() is True
    y = x.select(2, 3)
    assert y.isContiguous() is False
    assert_prints(y.stride(), "5\n[torch.LongStorage of size 1]")


def test_isSize():
    x = torch.Tensor(4, 5)
    y = torch.LongStorage([4, 5])
    z = torch.LongStorage([5, 4, 1])
    assert x.isSize(y) is True
    assert x.isSize(z) is False
    assert x.isSize(x.size()) is True


def test_isSameSizeAs():
    x = torch.Tensor(4, 5)
    y = torch.Tensor(4, 5)
    assert x.isSameSizeAs(y) is True
    y = torch.Tensor(4, 6)
    assert x.isSameSizeAs(y) is False


def test_nElement():
    assert torch.Tensor(4, 5).nElement() == 20


def test_storageOffset():
    x = torch.Tensor(4, 5)
    assert x.storageOffset() == 1
    assert x[2].storageOffset() == 6
    assert x.narrow(2, 3, 2).storageOffset() == 3


# ------------------------------------------------------------ querying elements


def test_querying_elements():
    x = torch.Tensor(3, 3)
    x.apply(counter())
    assert_prints(x, " 1  2  3\n 4  5  6\n 7  8  9\n[torch.DoubleTensor of dimension 3x3]")
    assert_prints(x[2], " 4\n 5\n 6\n[torch.DoubleTensor of dimension 3]")
    assert x[2][3] == 6
    assert x[2, 3] == 6
    assert x[torch.LongStorage([2, 3])] == 6
    assert_prints(x[torch.le(x, 3)], " 1\n 2\n 3\n[torch.DoubleTensor of dimension 3]")
    assert isinstance(x[2, 3], float)


# ------------------------------------------------------------ set


def test_set_equivalent_constructor():
    y = torch.Storage(10)
    x = torch.Tensor()
    x.set(y, 1, 10)
    assert x.size().tolist() == [10]
    x2 = torch.Tensor(y, 1, 10)
    assert x2.isSetTo(x)


def test_set_tensor():
    x = torch.Tensor(2, 5).fill(3.14)
    y = torch.Tensor().set(x)
    assert_prints(
        y,
        """
  3.1400  3.1400  3.1400  3.1400  3.1400
  3.1400  3.1400  3.1400  3.1400  3.1400
[torch.DoubleTensor of dimension 2x5]""",
    )
    y.zero()
    assert_prints(x, "0 0 0 0 0\n0 0 0 0 0\n[torch.DoubleTensor of dimension 2x5]")


def test_isSetTo():
    x = torch.Tensor(2, 5)
    y = torch.Tensor()
    assert y.isSetTo(x) is False
    y.set(x)
    assert y.isSetTo(x) is True
    assert y.t().isSetTo(x) is False


def test_set_storage():
    s = torch.Storage(10).fill(1)
    sz = torch.LongStorage([2, 5])
    x = torch.Tensor()
    assert x.set(s, 1, sz) is x
    assert_prints(x, "  1  1  1  1  1\n  1  1  1  1  1\n[torch.DoubleTensor of dimension 2x5]")
    x.zero()
    assert_prints(s, "\n".join(["  0"] * 10) + "\n[torch.DoubleStorage of size 10]")


def test_set_storage_number_form():
    s = torch.Storage(10).fill(1)
    x = torch.Tensor().set(s, 2, 3, 3, 3, 1)
    assert x.size().tolist() == [3, 3] and x.stride().tolist() == [3, 1]
    assert x.storageOffset() == 2


# ------------------------------------------------------------ copying and initializing


def test_copy():
    x = torch.Tensor(4).fill(1)
    y = torch.Tensor(2, 2).copy(x)
    assert_prints(x, "  1\n  1\n  1\n  1\n[torch.DoubleTensor of dimension 4]")
    assert_prints(y, "  1  1\n  1  1\n[torch.DoubleTensor of dimension 2x2]")
    z = torch.IntTensor(2, 2).copy(torch.Tensor(4).fill(2.7))
    assert z.tolist() == [[2, 2], [2, 2]]


def test_fill():
    assert_prints(
        torch.DoubleTensor(4).fill(3.14),
        " 3.1400\n 3.1400\n 3.1400\n 3.1400\n[torch.DoubleTensor of dimension 4]",
    )


def test_zero():
    assert_prints(torch.Tensor(4).zero(), " 0\n 0\n 0\n 0\n[torch.DoubleTensor of dimension 4]")


# ------------------------------------------------------------ resizing


def test_resize_and_resizeAs():
    x = torch.Tensor(2, 2)
    assert x.resize(3, 4) is x
    assert x.size().tolist() == [3, 4] and x.isContiguous()
    assert x.storage().size() >= 12
    x.resize(torch.LongStorage([2, 3]))
    assert x.size().tolist() == [2, 3]
    y = torch.Tensor(5, 5)
    assert x.resizeAs(y) is x and x.isSameSizeAs(y)


# ------------------------------------------------------------ extracting sub-tensors


def test_narrow():
    x = torch.Tensor(5, 6).zero()
    assert_prints(x, "\n".join(["0 0 0 0 0 0"] * 5) + "\n[torch.DoubleTensor of dimension 5x6]")
    y = x.narrow(1, 2, 3)
    y.fill(1)
    assert_prints(y, "\n".join(["1 1 1 1 1 1"] * 3) + "\n[torch.DoubleTensor of dimension 3x6]")
    assert_prints(
        x,
        """
0 0 0 0 0 0
1 1 1 1 1 1
1 1 1 1 1 1
1 1 1 1 1 1
0 0 0 0 0 0
[torch.DoubleTensor of dimension 5x6]""",
    )


def test_sub():
    x = torch.Tensor(5, 6).zero()
    y = x.sub(2, 4).fill(1)
    assert_prints(y, "\n".join(["1 1 1 1 1 1"] * 3) + "\n[torch.DoubleTensor of dimension 3x6]")
    assert_prints(
        x,
        """
  0  0  0  0  0  0
  1  1  1  1  1  1
  1  1  1  1  1  1
  1  1  1  1  1  1
  0  0  0  0  0  0
[torch.DoubleTensor of dimension 5x6]""",
    )
    z = x.sub(2, 4, 3, 4).fill(2)
    assert_prints(z, "  2  2\n  2  2\n  2  2\n[torch.DoubleTensor of dimension 3x2]")
    assert_prints(
        x,
        """
  0  0  0  0  0  0
  1  1  2  2  1  1
  1  1  2  2  1  1
  1  1  2  2  1  1
  0  0  0  0  0  0
[torch.DoubleTensor of dimension 5x6]""",
    )
    assert_prints(
        y,
        """
  1  1  2  2  1  1
  1  1  2  2  1  1
  1  1  2  2  1  1
[torch.DoubleTensor of dimension 3x6]""",
    )
    assert_prints(y.sub(-1, -1, 3, 4), "  2  2\n[torch.DoubleTensor of dimension 1x2]")


def test_select():
    x = torch.Tensor(5, 6).zero()
    y = x.select(1, 2).fill(2)
    assert_prints(y, "\n".join(["2"] * 6) + "\n[torch.DoubleTensor of dimension 6]")
    assert_prints(
        x,
        """
0  0  0  0  0  0
2  2  2  2  2  2
0  0  0  0  0  0
0  0  0  0  0  0
0  0  0  0  0  0
[torch.DoubleTensor of dimension 5x6]""",
    )
    z = x.select(2, 5).fill(5)
    assert_prints(z, "\n".join(["5"] * 5) + "\n[torch.DoubleTensor of dimension 5]")
    assert_prints(
        x,
        """
0  0  0  0  5  0
2  2  2  2  5  2
0  0  0  0  5  0
0  0  0  0  5  0
0  0  0  0  5  0
[torch.DoubleTensor of dimension 5x6]""",
    )


def test_indexing_operator_assignments():
    x = torch.Tensor(5, 6).zero()
    x[1, 3] = 1
    assert_prints(
        x,
        """
0 0 1 0 0 0
0 0 0 0 0 0
0 0 0 0 0 0
0 0 0 0 0 0
0 0 0 0 0 0
[torch.DoubleTensor of dimension 5x6]""",
    )
    x[2, [2, 4]] = 2
    assert_prints(
        x,
        """
0 0 1 0 0 0
0 2 2 2 0 0
0 0 0 0 0 0
0 0 0 0 0 0
0 0 0 0 0 0
[torch.DoubleTensor of dimension 5x6]""",
    )
    x[[], 4] = -1
    assert_prints(
        x,
        """
0 0 1 -1 0 0
0 2 2 -1 0 0
0 0 0 -1 0 0
0 0 0 -1 0 0
0 0 0 -1 0 0
[torch.DoubleTensor of dimension 5x6]""",
    )
    x[[], 2] = torch.range(1, 5)
    assert_prints(
        x,
        """
0 1 1 -1 0 0
0 2 2 -1 0 0
0 3 0 -1 0 0
0 4 0 -1 0 0
0 5 0 -1 0 0
[torch.DoubleTensor of dimension 5x6]""",
    )
    x[torch.lt(x, 0)] = -2
    assert_prints(
        x,
        """
0  1  1 -2  0  0
0  2  2 -2  0  0
0  3  0 -2  0  0
0  4  0 -2  0  0
0  5  0 -2  0  0
[torch.DoubleTensor of dimension 5x6]""",
    )


X55 = [
    [0.8020, 0.7246, 0.1204, 0.3419, 0.4385],
    [0.0369, 0.4158, 0.0985, 0.3024, 0.8186],
    [0.2746, 0.9362, 0.2546, 0.8586, 0.6674],
    [0.7473, 0.9028, 0.1046, 0.9085, 0.6622],
    [0.1412, 0.6784, 0.1624, 0.8113, 0.3949],
]
X55_TEXT = """
0.8020  0.7246  0.1204  0.3419  0.4385
0.0369  0.4158  0.0985  0.3024  0.8186
0.2746  0.9362  0.2546  0.8586  0.6674
0.7473  0.9028  0.1046  0.9085  0.6622
0.1412  0.6784  0.1624  0.8113  0.3949
[torch.DoubleTensor of dimension 5x5]"""


def test_index():
    x = torch.Tensor(X55)
    assert_prints(x, X55_TEXT)
    y = x.index(1, torch.LongTensor([3, 1]))
    assert_prints(
        y,
        """
0.2746  0.9362  0.2546  0.8586  0.6674
0.8020  0.7246  0.1204  0.3419  0.4385
[torch.DoubleTensor of dimension 2x5]""",
    )
    y.fill(1)
    assert_prints(y, "1  1  1  1  1\n1  1  1  1  1\n[torch.DoubleTensor of dimension 2x5]")
    assert_prints(x, X55_TEXT)


def test_index_into_result():
    x = torch.Tensor(X55)
    y = torch.Tensor()
    y.index(x, 1, torch.LongTensor([3, 1]))
    assert_prints(
        y,
        """
0.2746  0.9362  0.2546  0.8586  0.6674
0.8020  0.7246  0.1204  0.3419  0.4385
[torch.DoubleTensor of dimension 2x5]""",
    )
    r = torch.Tensor()
    torch.index(r, x, 1, torch.LongTensor([3, 1]))
    assert r.tolist() == y.tolist()


def test_indexCopy():
    x = torch.Tensor(X55)
    z = torch.Tensor(5, 2)
    z.select(2, 1).fill(-1)
    z.select(2, 2).fill(-2)
    assert_prints(z, "\n".join(["-1 -2"] * 5) + "\n[torch.DoubleTensor of dimension 5x2]")
    x.indexCopy(2, torch.LongTensor([5, 1]), z)
    assert_prints_exactly(
        x,
        """
-2.0000  0.7246  0.1204  0.3419 -1.0000
-2.0000  0.4158  0.0985  0.3024 -1.0000
-2.0000  0.9362  0.2546  0.8586 -1.0000
-2.0000  0.9028  0.1046  0.9085 -1.0000
-2.0000  0.6784  0.1624  0.8113 -1.0000
[torch.DoubleTensor of dimension 5x5]""",
    )


def test_indexAdd_example1():
    x = torch.Tensor(
        [
            [-2.1742, 0.5688, -1.0201, 0.1383, 1.0504],
            [0.0970, 0.2169, 0.1324, 0.9553, -1.9518],
            [-0.7607, 0.8947, 0.1658, -0.2181, -2.1237],
            [-1.4099, 0.2342, 0.4549, 0.6316, -0.2608],
            [0.0349, 0.4713, 0.0050, 0.1677, 0.2103],
        ]
    )
    z = torch.Tensor(5, 2)
    z.select(2, 1).fill(-1)
    z.select(2, 2).fill(-2)
    x.indexAdd(2, torch.LongTensor([5, 1]), z)
    assert_prints_exactly(
        x,
        """
-4.1742  0.5688 -1.0201  0.1383  0.0504
-1.9030  0.2169  0.1324  0.9553 -2.9518
-2.7607  0.8947  0.1658 -0.2181 -3.1237
-3.4099  0.2342  0.4549  0.6316 -1.2608
-1.9651  0.4713  0.0050  0.1677 -0.7897
[torch.DoubleTensor of size 5x5]""",
    )


def test_indexAdd_example2():
    a = torch.range(1, 5)
    assert_prints(a, "1\n2\n3\n4\n5\n[torch.DoubleTensor of size 5]")
    a.indexAdd(1, torch.LongTensor([1, 1, 3, 3]), torch.range(1, 4))
    assert_prints(a, "4\n2\n10\n4\n5\n[torch.DoubleTensor of size 5]")


def test_indexFill():
    x = torch.Tensor(
        [
            [0.8414, 0.4121, 0.3934, 0.5600, 0.5403],
            [0.3029, 0.2040, 0.7893, 0.6079, 0.6334],
            [0.3743, 0.1389, 0.1573, 0.1357, 0.8460],
            [0.2838, 0.9925, 0.0076, 0.7220, 0.5185],
            [0.8739, 0.6887, 0.4271, 0.0385, 0.9116],
        ]
    )
    x.indexFill(2, torch.LongTensor([4, 2]), -10)
    assert_prints(
        x,
        """
0.8414 -10.0000  0.3934 -10.0000  0.5403
0.3029 -10.0000  0.7893 -10.0000  0.6334
0.3743 -10.0000  0.1573 -10.0000  0.8460
0.2838 -10.0000  0.0076 -10.0000  0.5185
0.8739 -10.0000  0.4271 -10.0000  0.9116
[torch.DoubleTensor of dimension 5x5]""",
    )


G55 = [
    [0.7259, 0.5291, 0.4559, 0.4367, 0.4133],
    [0.0513, 0.4404, 0.4741, 0.0658, 0.0653],
    [0.3393, 0.1735, 0.6439, 0.1011, 0.7923],
    [0.7606, 0.5025, 0.5706, 0.7193, 0.1572],
    [0.1720, 0.3546, 0.8354, 0.8339, 0.3025],
]


def test_gather():
    x = torch.Tensor(G55)
    y = x.gather(1, torch.LongTensor([[1, 2, 3, 4, 5], [2, 3, 4, 5, 1]]))
    assert_prints(
        y,
        """
0.7259  0.4404  0.6439  0.7193  0.3025
0.0513  0.1735  0.5706  0.8339  0.4133
[torch.DoubleTensor of size 2x5]""",
    )
    z = x.gather(2, torch.LongTensor([[1, 2], [2, 3], [3, 4], [4, 5], [5, 1]]))
    assert_prints(
        z,
        """
0.7259  0.5291
0.4404  0.4741
0.6439  0.1011
0.7193  0.1572
0.3025  0.1720
[torch.DoubleTensor of size 5x2]""",
    )
    r = torch.Tensor()
    r.gather(x, 2, torch.LongTensor([[1, 2], [2, 3], [3, 4], [4, 5], [5, 1]]))
    assert r.tolist() == z.tolist()


def test_scatter():
    x = torch.Tensor(
        [[0.3227, 0.4294, 0.8476, 0.9414, 0.1159], [0.7338, 0.5185, 0.2947, 0.0578, 0.1273]]
    )
    y = torch.zeros(3, 5).scatter(1, torch.LongTensor([[1, 2, 3, 1, 1], [3, 1, 1, 2, 3]]), x)
    assert_prints_exactly(
        y,
        """
 0.3227  0.5185  0.2947  0.9414  0.1159
 0.0000  0.4294  0.0000  0.0578  0.0000
 0.7338  0.0000  0.8476  0.0000  0.1273
[torch.DoubleTensor of size 3x5]""",
    )
    z = torch.zeros(2, 4).scatter(2, torch.LongTensor([[3], [4]]), 1.23)
    assert_prints_exactly(
        z,
        """
 0.0000  0.0000  1.2300  0.0000
 0.0000  0.0000  0.0000  1.2300
[torch.DoubleTensor of size 2x4]""",
    )


def test_maskedSelect():
    x = torch.range(1, 12).double().resize(3, 4)
    assert_prints(x, " 1  2  3  4\n5  6  7  8\n9 10 11 12\n[torch.DoubleTensor of dimension 3x4]")
    mask = torch.ByteTensor([[1, 0, 1, 0, 0, 0], [1, 1, 0, 0, 0, 1]])  # the printed bernoulli draw
    assert_prints(mask, "1  0  1  0  0  0\n1  1  0  0  0  1\n[torch.ByteTensor of dimension 2x6]")
    y = x.maskedSelect(mask)
    assert_prints(y, "1\n3\n7\n8\n12\n[torch.DoubleTensor of dimension 5]")
    z = torch.DoubleTensor()
    z.maskedSelect(x, mask)
    assert_prints(z, "1\n3\n7\n8\n12\n[torch.DoubleTensor of dimension 5]")


def test_maskedSelect_bernoulli_mask_is_binary():
    m = torch.ByteTensor(2, 6).bernoulli()
    assert set(sum(m.tolist(), [])) <= {0, 1}


def test_maskedCopy():
    x = torch.Tensor([0, 0, 0, 0])
    mask = torch.ByteTensor([0, 1, 0, 1])
    y = torch.Tensor([10, 20])
    x.maskedCopy(mask, y)
    assert_prints(x, "0\n10\n0\n20\n[torch.DoubleTensor of size 4]")


def test_maskedCopy_sizes_differ():
    x = torch.range(1, 4).double().resize(2, 2)
    assert_prints(x, "1  2\n3  4\n[torch.DoubleTensor of dimension 2x2]")
    mask = torch.ByteTensor([[0, 0, 1, 1, 1, 0, 1, 0]])
    y = torch.DoubleTensor(2, 4).fill(-1)
    assert_prints(y, "-1 -1 -1 -1\n-1 -1 -1 -1\n[torch.DoubleTensor of dimension 2x4]")
    y.maskedCopy(mask, x)
    assert_prints(y, "-1 -1  1  2\n 3 -1  4 -1\n[torch.DoubleTensor of dimension 2x4]")


def test_maskedFill():
    x = torch.range(1, 4).double().resize(1, 4)
    assert_prints(x, " 1  2  3  4\n[torch.DoubleTensor of dimension 1x4]")
    mask = torch.ByteTensor([[0, 0], [1, 1]])
    x.maskedFill(mask, -1)
    assert_prints(x, " 1  2 -1 -1\n[torch.DoubleTensor of dimension 1x4]")


NZ = """
1  1
1  3
2  3
2  4
3  2
3  3
3  4
4  1
4  2
4  3
4  4
[torch.LongTensor of dimension 11x2]"""


def test_nonzero():
    x = torch.IntTensor([[2, 0, 2, 0], [0, 0, 1, 2], [0, 2, 2, 1], [2, 1, 2, 2]])
    assert_prints(
        x, "2  0  2  0\n0  0  1  2\n0  2  2  1\n2  1  2  2\n[torch.IntTensor of dimension 4x4]"
    )
    assert_prints(torch.nonzero(x), NZ)
    assert_prints(x.nonzero(), NZ)
    indices = torch.LongTensor()
    x.nonzero(indices, x)
    assert_prints(indices, NZ)
    assert_prints(x.eq(1).nonzero(), "2  3\n3  4\n4  2\n[torch.LongTensor of dimension 3x2]")
    idx2 = torch.LongTensor()
    torch.nonzero(idx2, x)
    assert_prints(idx2, NZ)


def test_nonzero_from_rand_floor_int():
    x = torch.rand(4, 4).mul(3).floor().int()
    assert x.type() == "torch.IntTensor"
    assert set(sum(x.tolist(), [])) <= {0, 1, 2}
    n = x.nonzero()
    assert n.size(1) == sum(v != 0 for v in sum(x.tolist(), []))


# ------------------------------------------------------------ expand, repeat, squeeze

X10 = [0.3837, 0.5966, 0.0763, 0.1896, 0.4958, 0.6841, 0.4038, 0.4068, 0.1502, 0.2239]


def test_expand():
    x = torch.Tensor([[v] for v in X10])
    assert_prints(
        x, "\n".join("%.4f" % v for v in X10) + "\n[torch.DoubleTensor of dimension 10x1]"
    )
    y = torch.expand(x, 10, 2)
    assert_prints(
        y,
        "\n".join("%.4f  %.4f" % (v, v) for v in X10) + "\n[torch.DoubleTensor of dimension 10x2]",
    )
    y.fill(1)
    assert_prints(y, "\n".join(["1  1"] * 10) + "\n[torch.DoubleTensor of dimension 10x2]")
    assert_prints(x, "\n".join(["1"] * 10) + "\n[torch.DoubleTensor of dimension 10x1]")
    y.apply(counter())
    # the documented output shows 2 4 ... 20: each of x's elements is written
    # twice (the two columns alias), the second write wins
    assert_prints(
        y,
        "\n".join(f"{2 * k} {2 * k}" for k in range(1, 11))
        + "\n[torch.DoubleTensor of dimension 10x2]",
    )
    assert_prints(
        x, "\n".join(str(2 * k) for k in range(1, 11)) + "\n[torch.DoubleTensor of dimension 10x1]"
    )


def test_expand_LongStorage_and_result_forms():
    x = torch.Tensor([[1], [2]])
    assert x.expand(torch.LongStorage([2, 3])).tolist() == [[1, 1, 1], [2, 2, 2]]
    r = torch.Tensor()
    torch.expand(r, x, 2, 2)
    assert r.tolist() == [[1, 1], [2, 2]] and r.stride().tolist() == [1, 0]


def test_expandAs():
    x = torch.Tensor([[1], [2]])
    assert x.expandAs(torch.Tensor(2, 4)).size().tolist() == [2, 4]


X5 = [0.7160, 0.6514, 0.0704, 0.7856, 0.7452]


def test_repeatTensor():
    x = torch.Tensor(X5)
    assert_prints(x, "\n".join("%.4f" % v for v in X5) + "\n[torch.DoubleTensor of dimension 5]")
    row = " ".join("%.4f" % v for v in X5 * 2)
    assert_prints(
        torch.repeatTensor(x, 3, 2),
        "\n".join([row] * 3) + "\n[torch.DoubleTensor of dimension 3x10]",
    )
    # the page prints the slices as "(1,...) ="; Torch7's printer writes "(1,.,.) ="
    row = " ".join("%.4f" % v for v in X5)
    text = (
        "\n".join(f"({i},.,.) =\n{row}\n{row}\n" for i in (1, 2, 3))
        + "[torch.DoubleTensor of dimension 3x2x5]"
    )
    assert_prints(torch.repeatTensor(x, 3, 2, 1), text)


def test_squeeze():
    vals = {
        (1, 1): [0.6020, 0.8897],
        (2, 1): [0.4713, 0.2645],
        (1, 2): [0.4441, 0.9792],
        (2, 2): [0.5467, 0.8648],
    }
    x = torch.Tensor(2, 1, 2, 1, 2)
    for (i, k), v in vals.items():
        x[i][1][k][1].copy(torch.Tensor(v))
    # the page writes "(1,1,1,...) =" and "(2,1,2,..) ="; the printer writes (i,j,k,.,.)
    text = (
        "\n".join(
            f"({i},1,{k},.,.) =\n" + " ".join("%.4f" % a for a in vals[(i, k)]) + "\n"
            for k in (1, 2)
            for i in (1, 2)
        )
        + "[torch.DoubleTensor of dimension 2x1x2x1x2]"
    )
    assert_prints(x, text)
    s = torch.squeeze(x)
    assert_prints(
        s,
        "(1,.,.) =\n0.6020 0.8897\n0.4441 0.9792\n\n(2,.,.) =\n0.4713 0.2645\n"
        "0.5467 0.8648\n[torch.DoubleTensor of dimension 2x2x2]",
    )
    s2 = torch.squeeze(x, 2)
    text = (
        "\n".join(
            f"({i},{k},.,.) =\n" + " ".join("%.4f" % a for a in vals[(i, k)]) + "\n"
            for k in (1, 2)
            for i in (1, 2)
        )
        + "[torch.DoubleTensor of dimension 2x2x1x2]"
    )
    assert_prints(s2, text)


# ------------------------------------------------------------ views


def test_view():
    x = torch.zeros(4)
    assert_prints(x.view(2, 2), "0 0\n0 0\n[torch.DoubleTensor of dimension 2x2]")
    assert_prints(x.view(2, -1), "0 0\n0 0\n[torch.DoubleTensor of dimension 2x2]")
    assert_prints(
        x.view(torch.LongStorage([2, 2])), "0 0\n0 0\n[torch.DoubleTensor of dimension 2x2]"
    )
    assert_prints(x, "0\n0\n0\n0\n[torch.DoubleTensor of dimension 4]")
    r = torch.Tensor()
    torch.view(r, x, 2, 2)
    assert r.size().tolist() == [2, 2] and r.storage()._s == x.storage()._s


def test_viewAs():
    x = torch.zeros(4)
    y = torch.Tensor(2, 2)
    assert_prints(x.viewAs(y), "0 0\n0 0\n[torch.DoubleTensor of dimension 2x2]")


def test_transpose():
    x = torch.Tensor(3, 4).zero()
    x.select(2, 3).fill(7)
    assert_prints(x, "0 0 7 0\n0 0 7 0\n0 0 7 0\n[torch.DoubleTensor of dimension 3x4]")
    y = x.transpose(1, 2)
    assert_prints(y, "0 0 0\n0 0 0\n7 7 7\n0 0 0\n[torch.DoubleTensor of dimension 4x3]")
    y.select(2, 3).fill(8)
    assert_prints(y, "0 0 8\n0 0 8\n7 7 8\n0 0 8\n[torch.DoubleTensor of dimension 4x3]")
    assert_prints(x, "0 0 7 0\n0 0 7 0\n8 8 8 8\n[torch.DoubleTensor of dimension 3x4]")


def test_t():
    x = torch.Tensor(3, 4).zero()
    x.select(2, 3).fill(7)
    y = x.t()
    assert_prints(
        y, "  0  0  0\n  0  0  0\n  7  7  7\n  0  0  0\n[torch.DoubleTensor of dimension 4x3]"
    )
    assert_prints(
        x, "  0  0  7  0\n  0  0  7  0\n  0  0  7  0\n[torch.DoubleTensor of dimension 3x4]"
    )


def test_permute():
    x = torch.Tensor(3, 4, 2, 5)
    assert_prints(x.size(), "3\n4\n2\n5\n[torch.LongStorage of size 4]")
    y = x.permute(2, 3, 1, 4)
    assert_prints(y.size(), "4\n2\n3\n5\n[torch.LongStorage of size 4]")
    assert y.isSetTo(x.transpose(1, 3).transpose(1, 2))


def test_unfold():
    x = torch.Tensor(7)
    for i in range(1, 8):
        x[i] = i
    assert_prints(
        x, "\n".join(str(i) for i in range(1, 8)) + "\n[torch.DoubleTensor of dimension 7]"
    )
    assert_prints(
        x.unfold(1, 2, 1),
        "1  2\n2  3\n3  4\n4  5\n5  6\n6  7\n[torch.DoubleTensor of dimension 6x2]",
    )
    assert_prints(x.unfold(1, 2, 2), "1  2\n3  4\n5  6\n[torch.DoubleTensor of dimension 3x2]")


# ------------------------------------------------------------ apply, map, map2


def test_apply():
    z = torch.Tensor(3, 3)
    z.apply(counter())
    assert_prints(z, " 1  2  3\n 4  5  6\n 7  8  9\n[torch.DoubleTensor of dimension 3x3]")
    z.apply(math.sin)
    assert_prints_exactly(
        z,
        """
 0.8415  0.9093  0.1411
-0.7568 -0.9589 -0.2794
 0.6570  0.9894  0.4121
[torch.DoubleTensor of dimension 3x3]""",
    )
    total = [0]

    def acc(v):
        total[0] += v

    z.apply(acc)
    assert "%.13g" % total[0] == "1.955209482107"  # documented: 1.9552094821074
    assert z.sum() == pytest.approx(total[0])


def test_map():
    x = torch.Tensor(3, 3)
    y = torch.Tensor(9)
    x.apply(counter())
    y.apply(counter())
    assert_prints(x, " 1  2  3\n 4  5  6\n 7  8  9\n[torch.DoubleTensor of dimension 3x3]")
    assert_prints(
        y, "\n".join(f" {i}" for i in range(1, 10)) + "\n[torch.DoubleTensor of dimension 9]"
    )
    x.map(y, lambda xx, yy: xx * yy)
    assert_prints_exactly(
        x,
        """
  1   4   9
 16  25  36
 49  64  81
[torch.DoubleTensor of dimension 3x3]""",
    )


def test_map2():
    x = torch.Tensor(3, 3)
    y = torch.Tensor(9)
    z = torch.Tensor(3, 3)
    i = counter()
    x.apply(lambda _: math.cos(i()) ** 2)
    y.apply(counter())
    z.apply(counter())
    assert_prints(
        x,
        """
 0.2919  0.1732  0.9801
 0.4272  0.0805  0.9219
 0.5684  0.0212  0.8302
[torch.DoubleTensor of dimension 3x3]""",
    )
    x.map2(y, z, lambda xx, yy, zz: xx + yy * zz)
    assert_prints(
        x,
        """
 1.2919  4.1732  9.9801
16.4272 25.0805 36.9219
49.5684 64.0212 81.8302
[torch.DoubleTensor of dimension 3x3]""",
    )


# ------------------------------------------------------------ split, chunk


def _sizes(lst):
    return ["x".join(map(str, t.size().tolist())) for t in lst]


def test_split():
    x = torch.randn(3, 4, 5)
    assert _sizes(x.split(2, 1)) == ["2x4x5", "1x4x5"]
    assert _sizes(x.split(3, 2)) == ["3x3x5", "3x1x5"]
    assert _sizes(x.split(2, 3)) == ["3x4x2", "3x4x2", "3x4x1"]
    res = ["junk"]
    out = torch.split(res, x, 2)
    assert out is res and _sizes(res) == ["2x4x5", "1x4x5"]


def test_chunk():
    x = torch.randn(3, 4, 5)
    assert _sizes(x.chunk(2, 1)) == ["2x4x5", "1x4x5"]
    assert _sizes(x.chunk(2, 2)) == ["3x2x5", "3x2x5"]
    assert _sizes(x.chunk(2, 3)) == ["3x4x3", "3x4x2"]


# ------------------------------------------------------------ FFI access


def test_data():
    t = torch.Tensor([[0.8008, -0.6103], [0.6473, -0.1870], [-0.0023, -0.4902]])
    assert_prints(
        t,
        """
  0.8008 -0.6103
  0.6473 -0.1870
 -0.0023 -0.4902
[torch.DoubleTensor of dimension 3x2]""",
    )
    t_data = torch.data(t)
    for i in range(t.nElement()):
        t_data[i] = 0
    assert_prints(t, "  0 0\n  0 0\n  0 0\n[torch.DoubleTensor of dimension 3x2]")


def test_data_contiguous_advice():
    t = torch.randn(3, 2)
    t_noncontiguous = t.transpose(1, 2)
    assert not t_noncontiguous.isContiguous()
    tc = t_noncontiguous.contiguous()
    data = torch.data(tc)
    assert data[1] == t[2][1]


def test_data_asnumber_storage_from_address():
    t = torch.randn(10)
    p = torch.data(t, True)
    assert isinstance(p, int)
    s = torch.Storage(10, p)
    tt = torch.Tensor(s)
    assert tt.tolist() == t.tolist()
    tt[3] = 99
    assert t[3] == 99
    with pytest.raises(ValueError):
        s.resize(20)


def test_cdata():
    t = torch.randn(2, 3)
    p = torch.cdata(t)
    assert p.ndim == 2 and p.sizes[0] == 2 and p.sizes[1] == 3


# ------------------------------------------------------------ reference counting


def test_retain_free():
    t = torch.Tensor(3).fill(1)
    t.retain()
    t.free()
    assert t.tolist() == [1, 1, 1]
    t.free()
    assert t.nElement() == 0
    t.free()  # misuse: no crash
    t.free()
    assert t.nDimension() == 0


DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "torch7.md"


def test_user_page_code_runs():
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S):
        exec(compile(block, str(DOC), "exec"), {})

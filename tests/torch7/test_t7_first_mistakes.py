"""A newcomer's first mistakes on the Torch7 face get errors that teach
(issue 25): `x * y` of two matrices says it is the matrix product and
names cmul; an index of 0 says the face counts from 1; LAPACK's messages
speak of the Torch7 function and Lua's 1-based positions.  And two
extensions beyond Lua that PyTorch and numpy habits expect: `x @ y`
(dot, mv, mm, bmm by the dimensions) and `torch.Tensor(array)` over a
numpy array, a DLPack producer or a buffer (its memory shared when the
element type is the class's, else converted).  numpy is the oracle."""

import array

import numpy as np
import pytest

import strided as torch
from helpers import needs_pytorch, pytorch

CLASSES = {
    "uint8": torch.ByteTensor,
    "int8": torch.CharTensor,
    "int16": torch.ShortTensor,
    "int32": torch.IntTensor,
    "int64": torch.LongTensor,
    "float32": torch.FloatTensor,
    "float64": torch.DoubleTensor,
}
ONE_BASED = r"the Torch7 face counts from 1"


def address(a):
    return a.__array_interface__["data"][0]


# ---------------------------------------------------------------- x * y, x @ y


def test_star_of_two_matrices_names_the_matrix_product_and_cmul():
    x, y = torch.ones(2, 3), torch.ones(2, 3)
    with pytest.raises(
        ValueError,
        match=r"\*: size mismatch, 2x3 and 2x3: .*matrix product "
        r"\(torch.mm\).*columns \(3\).*rows \(2\).*x.cmul\(y\)",
    ):
        x * y
    assert (x * y.t()).tolist() == [[3, 3], [3, 3]]


def test_star_of_unsupported_dimensions_names_the_forms_and_cmul():
    with pytest.raises(ValueError, match=r"between 3D and 3D.*2D \* 2D \(mm\).*cmul"):
        torch.ones(2, 2, 2) * torch.ones(2, 2, 2)


@pytest.mark.parametrize("name", sorted(CLASSES))
@pytest.mark.parametrize(
    "shapes",
    [
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((2, 3), (3, 4)),
        ((4, 2, 3), (4, 3, 5)),
        ((0, 3), (3, 2)),
        ((2, 0), (0, 3)),
        ((3, 2), (2, 3), "transposed"),
    ],
)
def test_matmul_operator_against_numpy(name, shapes):
    rng = np.random.default_rng(len(shapes[0]) * 7 + len(shapes[1]))
    a = rng.integers(0, 5, size=shapes[0]).astype(name)
    b = rng.integers(0, 5, size=shapes[1]).astype(name)
    if len(shapes) == 3:  # non-contiguous operands
        a, b = np.ascontiguousarray(a.T).T, np.ascontiguousarray(b.T).T
    x, y = CLASSES[name](a), CLASSES[name](b)
    got = x @ y
    want = a @ b
    if a.ndim == b.ndim == 1:
        assert got == want  # dot: a number, as Torch7's x * y
    else:
        assert type(got) is CLASSES[name]
        assert np.array_equal(got.numpy(), want)
        assert list(got.size()) == list(want.shape)


def test_matmul_operator_errors():
    with pytest.raises(ValueError, match=r"@: size mismatch, 2x3 and 2x3: .*torch.mm.*cmul"):
        torch.ones(2, 3) @ torch.ones(2, 3)
    with pytest.raises(ValueError, match=r"@: batch sizes differ: 2x2x3 and 3x3x4"):
        torch.ones(2, 2, 3) @ torch.ones(3, 3, 4)
    with pytest.raises(ValueError, match=r"between 1D and 2D.*3D @ 3D \(bmm\)"):
        torch.ones(2) @ torch.ones(2, 2)
    with pytest.raises(TypeError):
        torch.ones(2, 2) @ 2
    with pytest.raises(TypeError, match=r"same type|FloatTensor"):
        torch.ones(2, 2) @ torch.FloatTensor(2, 2).fill(1)


# ---------------------------------------------------------------- counting from 1


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x[0],
        lambda x: x[1, 0],
        lambda x: x[[0, 2]],
        lambda x: x.select(1, 0),
        lambda x: x.narrow(2, 0, 1),
        lambda x: x.size(0),
        lambda x: x.sum(0),
        lambda x: x.storage()[0],
        lambda x: x.index(1, torch.LongTensor([0])),
    ],
)
def test_index_zero_says_the_face_counts_from_one(call):
    x = torch.range(1, 6).view(2, 3)
    with pytest.raises(IndexError, match=ONE_BASED):
        call(x)


def test_other_bad_indices_keep_their_plain_message():
    x = torch.range(1, 6).view(2, 3)
    with pytest.raises(IndexError) as e:
        x[3]
    assert "counts from 1" not in str(e.value)


# ---------------------------------------------------------------- LAPACK in Torch7 terms


@pytest.mark.parametrize(
    "call, pattern",
    [
        (
            lambda z: torch.inverse(z),
            r"^inverse: the matrix is singular \(U\[1\]\[1\] .*\(LAPACK's getri\)$",
        ),
        (lambda z: torch.gesv(torch.ones(2, 1), z), r"^gesv: .*U\[1\]\[1\]"),
        (lambda z: torch.trtrs(torch.ones(2, 1), z), r"^trtrs: .*\(A\[1\]\[1\]\)$"),
        (lambda z: torch.potri(z), r"^potri: .*\(chol\[1\]\[1\]\)$"),
        (lambda z: torch.symeig(torch.Tensor(2, 3)), r"^symeig: A must be square, got size 2x3$"),
        (lambda z: torch.gesv(torch.ones(3, 1), torch.eye(2)), r"^gesv: B \(3x1\) .*\(A \(2x2\)\)"),
    ],
)
def test_lapack_messages_in_torch7_terms(call, pattern):
    with pytest.raises(ValueError, match=pattern) as e:
        call(torch.zeros(2, 2))
    assert "[0" not in str(e.value)


# ---------------------------------------------------------------- Tensor(array)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_tensor_of_a_numpy_array_shares_its_memory(name):
    a = (np.arange(20) % 9).astype(name).reshape(4, 5)
    for view in (a, a.T, a[::2, ::-2], a[1:3, 2:], a[:0]):
        t = CLASSES[name](view)
        assert type(t) is CLASSES[name]
        assert t.tolist() == view.tolist() or view.size == 0
        assert list(t.size()) == list(view.shape) or view.size == 0
        if view.size:
            assert address(t.numpy()) == address(view)
    t = CLASSES[name](a)
    t.fill(7)
    assert (a == 7).all()  # writes go to numpy's memory


@pytest.mark.parametrize("name", sorted(CLASSES))
@pytest.mark.parametrize("source", ["float64", "int32", "bool", "float16"])
def test_tensor_of_another_element_type_converts(name, source):
    a = (np.arange(6) % 3).astype(source).reshape(2, 3)
    t = CLASSES[name](a)
    assert type(t) is CLASSES[name]
    assert np.array_equal(t.numpy(), a.astype(name))
    if source != name:
        t.fill(2)
        assert not (a == 2).all()  # a copy: numpy's array is unchanged


def test_torch_Tensor_of_np_ones():
    a = np.ones(3)
    t = torch.Tensor(a)
    assert t.tolist() == [1.0, 1.0, 1.0] and t.dim() == 1
    t[2] = 5
    assert a[1] == 5


def test_tensor_of_a_zero_d_array_has_one_element():
    t = torch.Tensor(np.array(2.5))
    assert t.tolist() == [2.5] and t.dim() == 1


def test_tensor_of_a_read_only_array_reads_it_and_refuses_writes():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = torch.Tensor(a)
    assert t.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="read-only"):
        t.fill(1)
    assert a.tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize(
    "obj, cls, want",
    [
        (array.array("d", [1.5, 2.5]), torch.DoubleTensor, [1.5, 2.5]),
        (array.array("i", [1, 2, 3]), torch.IntTensor, [1, 2, 3]),
        (bytearray(b"\x01\x02"), torch.ByteTensor, [1, 2]),
        (memoryview(np.arange(6.0).reshape(2, 3)), torch.DoubleTensor, [[0, 1, 2], [3, 4, 5]]),
        (array.array("i", [1, 2, 3]), torch.DoubleTensor, [1.0, 2.0, 3.0]),
    ],
)
def test_tensor_of_a_buffer(obj, cls, want):
    t = cls(obj)
    assert type(t) is cls and t.tolist() == want


def test_tensor_of_a_writable_buffer_shares_it():
    buf = array.array("d", [0.0, 0.0])
    torch.Tensor(buf).fill(3)
    assert buf.tolist() == [3.0, 3.0]


@needs_pytorch
def test_tensor_of_a_pytorch_tensor_shares_its_memory():
    p = pytorch.zeros(2, 3, dtype=pytorch.float32)
    t = torch.FloatTensor(p)
    t.fill(4)
    assert bool((p == 4).all())


@pytest.mark.parametrize(
    "obj, exc, pattern",
    [
        (np.ones(2, complex), TypeError, r"no tensor type for complex128.*from_dlpack"),
        (np.ones(2, np.uint32), TypeError, r"no tensor type for uint32"),
        (memoryview(b"ab").cast("c"), TypeError, r"unsupported buffer \(format 'c'"),
        (object(), TypeError, r"cannot construct from object.*an array \(numpy, DLPack, buffer"),
    ],
)
def test_tensor_of_unsupported_objects(obj, exc, pattern):
    with pytest.raises(exc, match=pattern):
        torch.Tensor(obj)


@pytest.mark.parametrize("cls", [torch.Tensor, torch.ByteTensor, torch.LongTensor])
def test_constructor_keywords_say_arguments_go_by_position(cls):
    # PyTorch habit: torch.tensor(..., dtype=...); Torch7's constructors
    # (TensorBase's tp_init in C) take positional arguments only
    with pytest.raises(TypeError, match=rf"{cls._typename}\(\.\.\.\) takes no keyword arguments"):
        cls(3, dtype="float")


def test_subclass_constructor_reaches_the_c_front_door():
    # a user subclass's __init__ calling super().__init__ (TensorBase's
    # tp_init) gets every form: sizes in C, a storage through _init
    class Mine(torch.DoubleTensor):
        def __init__(self, *args):
            super().__init__(*args)
            self.tag = "mine"

    m = Mine(2, 3)
    assert m.size().totable() == [2, 3] and m.tag == "mine"
    s = torch.DoubleStorage([1, 2, 3, 4])
    v = Mine(s, 2, 3)
    assert v.totable() == [2, 3, 4] and v.storage() is not None
    assert Mine([[1, 2], [3, 4]]).sum() == 10

"""strided.interop, the one crossing between the faces: both directions
share memory, nothing else of one face reaches the other."""

import pytest

import strided
import strided.compat as xp
from strided import interop


def test_tensor_to_array_and_back_share_memory():
    t = strided.IntTensor([[1, 2, 3], [4, 5, 6]]).t()
    a = interop.to_array(t)
    assert a.shape == (3, 2) and a.dtype is xp.int32
    a[0, 1] = 40
    assert t[1][2] == 40
    back = interop.to_tensor(a)
    assert type(back) is strided.IntTensor and back.isSetTo(t)


def test_the_seam_is_a_new_record_over_the_same_memory():
    t = strided.DoubleTensor(4).fill(1)
    c = t.__strided_core__()
    assert c.address == t._c.address and c.t != t._c.t
    x = xp.asarray(t)
    assert x.__strided_core__().address == c.address


def test_refusals():
    with pytest.raises(TypeError, match="expected a Torch7 tensor"):
        interop.to_array([1, 2])
    with pytest.raises(TypeError, match="expected a strided.compat array"):
        interop.to_tensor(strided.Tensor(2).storage())
    with pytest.raises(TypeError, match="no tensor type for complex128"):
        interop.to_tensor(xp.asarray([1j]))
    with pytest.raises(ValueError, match="no 0-d form"):
        interop.to_tensor(xp.asarray(1.0))

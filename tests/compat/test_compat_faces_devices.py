"""The two faces share memory; every function that takes a device accepts
"cpu" and our arrays' device and refuses anything else with ValueError;
array_api_compat recognises our arrays."""

import inspect

import array_api_compat
import numpy as np
import pytest

import strided
import strided.compat as xp
from compat_util import check, np_of


def test_tensor_of_an_array_views_its_memory():
    x = xp.reshape(xp.arange(6.0), (2, 3))
    t = strided.Tensor(x)  # the default type, DoubleTensor
    assert type(t) is strided.DoubleTensor and list(t.size()) == [2, 3]
    t[2][3] = -1.0  # 1-based on the Torch7 face
    assert float(x[1, 2]) == -1.0
    x[0, 0] = 9.0
    assert t[1][1] == 9.0
    v = strided.Tensor(x.T)  # a non-contiguous view stays a view
    assert list(v.stride()) == [1, 3]
    v[1][2] = 4.0
    assert float(x[1, 0]) == 4.0


def test_typed_tensor_of_an_array():
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    t = strided.IntTensor(x)
    t[2] = 7
    check(x, np.array([1, 7, 3], np.int32))
    d = strided.DoubleTensor(x)  # another dtype: converted, a copy
    assert d.tolist() == [1.0, 7.0, 3.0]
    d.fill(0)
    check(x, np.array([1, 7, 3], np.int32))
    assert strided.Tensor(xp.asarray(1.5)).tolist() == [1.5]  # 0-d: one element
    with pytest.raises(TypeError):
        strided.Tensor(x, 2)


def test_array_of_a_tensor_views_its_memory_unless_copy():
    t = strided.FloatTensor(3).fill(2)
    for copy in (None, False):
        x = xp.asarray(t, copy=copy)
        assert x.dtype is xp.float32
        x[1] = 5.0
        assert t[2] == 5.0
    y = xp.asarray(t, copy=True)
    y[0] = -3.0
    assert t[1] == 2.0


DEVICE_CALLS = {
    "arange": lambda d: xp.arange(3, device=d),
    "asarray": lambda d: xp.asarray([1, 2], device=d),
    "astype": lambda d: xp.astype(xp.asarray([1, 2]), xp.float32, device=d),
    "empty": lambda d: xp.empty((2,), device=d),
    "empty_like": lambda d: xp.empty_like(xp.asarray([1.0]), device=d),
    "eye": lambda d: xp.eye(2, device=d),
    "from_dlpack": lambda d: xp.from_dlpack(xp.asarray([1.0]), device=d),
    "full": lambda d: xp.full((2,), 1.5, device=d),
    "full_like": lambda d: xp.full_like(xp.asarray([1.0]), 2.0, device=d),
    "linspace": lambda d: xp.linspace(0.0, 1.0, 3, device=d),
    "ones": lambda d: xp.ones((2,), device=d),
    "ones_like": lambda d: xp.ones_like(xp.asarray([1.0]), device=d),
    "zeros": lambda d: xp.zeros((2,), device=d),
    "zeros_like": lambda d: xp.zeros_like(xp.asarray([1.0]), device=d),
    "to_device": lambda d: xp.asarray([1.0]).to_device(d),
    "info.default_dtypes": lambda d: xp.__array_namespace_info__().default_dtypes(device=d),
    "info.dtypes": lambda d: xp.__array_namespace_info__().dtypes(device=d),
}


def test_every_function_taking_a_device_is_listed():
    takes = {
        n
        for n in dir(xp)
        if callable(getattr(xp, n))
        and not n.startswith("_")
        and "device" in inspect.signature(getattr(xp, n)).parameters
    }
    assert takes == {n for n in DEVICE_CALLS if "." not in n and n != "to_device"}


@pytest.mark.parametrize("name", sorted(DEVICE_CALLS))
def test_device_cpu_accepted_anything_else_refused(name):
    call = DEVICE_CALLS[name]
    for ok in ("cpu", xp.asarray(0).device, None):
        out = call(ok)
        if isinstance(out, xp.Array):
            assert out.device == "cpu"
    for bad in ("cuda", "gpu", "cpu:1", 0, object()):
        with pytest.raises(ValueError, match="device"):
            call(bad)


def test_array_api_compat_finds_our_namespace():
    x = xp.asarray([1.0, 2.0])
    assert array_api_compat.array_namespace(x) is xp
    assert array_api_compat.array_namespace(x, xp.asarray(1)) is xp
    assert array_api_compat.is_array_api_obj(x)
    assert x.__array_namespace__(api_version="2025.12") is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")


def test_repr_in_array_api_strict_style():
    assert repr(xp.asarray([1.0, 2.5])) == "Array([1., 2.5], dtype=float64)"
    assert repr(xp.asarray(3, dtype=xp.int8)) == "Array(3, dtype=int8)"
    assert repr(xp.asarray([[True], [False]])) == "Array([[True], [False]], dtype=bool)"
    assert repr(xp.zeros((0, 3))) == "Array([], shape=(0, 3), dtype=float64)"
    assert repr(xp.zeros((200,), dtype=xp.float32)) == "Array([...], shape=(200,), dtype=float32)"


def test_empty_bool_memory_holds_only_false():
    x = xp.empty((1000,), dtype=xp.bool)
    assert not bool(xp.any(x)) and np_of(x).view(np.uint8).max() == 0

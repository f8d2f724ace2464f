"""strided.compat's extension dtypes float16 and bfloat16: dtype functions,
astype, computing (float32's result rounded once: numpy's float16 and
PyTorch's bfloat16 the oracles), and DLPack both ways with PyTorch and
numpy, zero copy (shared memory checked by writing through one side)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from helpers import needs_pytorch, pytorch as torch

HALVES = [xp.float16, xp.bfloat16]


def f32(x):
    return np.asarray(xp.astype(x, xp.float32))


# ---------------------------------------------------------------- dtype functions


def test_promotion_and_casting():
    f16, bf16, f32_, f64 = xp.float16, xp.bfloat16, xp.float32, xp.float64
    assert xp.result_type(f16, f32_) is f32_ and xp.result_type(f16, f64) is f64
    assert xp.result_type(bf16, f32_) is f32_ and xp.result_type(f16, bf16) is f32_
    assert xp.result_type(f16, f16) is f16 and xp.result_type(bf16, bf16) is bf16
    assert xp.result_type(f16, xp.complex64) is xp.complex64
    assert xp.result_type(f16, xp.bool) is f16
    assert xp.result_type(f16, xp.int8) is f16 and xp.result_type(bf16, xp.int16) is f32_
    assert xp.result_type(f16, xp.int32) is f64
    assert xp.can_cast(f16, f32_) and xp.can_cast(bf16, f64) and xp.can_cast(xp.int8, f16)
    assert not xp.can_cast(f32_, f16) and not xp.can_cast(f16, bf16)
    assert not xp.can_cast(bf16, f16) and not xp.can_cast(xp.int16, f16)
    a = xp.asarray([1.0, 2.0], dtype=f16)
    assert xp.result_type(a, 1.5) is f16 and xp.result_type(a, 1j) is xp.complex64
    assert (a + 1.5).dtype is f16


def test_isdtype_finfo_and_info():
    for dt in HALVES:
        assert xp.isdtype(dt, "real floating") and xp.isdtype(dt, "numeric")
        assert not xp.isdtype(dt, "integral") and not xp.isdtype(dt, "complex floating")
    fi = xp.finfo(xp.float16)
    np_fi = np.finfo(np.float16)
    assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == (
        16,
        float(np_fi.eps),
        float(np_fi.max),
        float(np_fi.min),
        float(np_fi.smallest_normal),
    )
    if torch is not None:
        t_fi = torch.finfo(torch.bfloat16)
        fb = xp.finfo(xp.bfloat16)
        assert (fb.bits, fb.eps, fb.max, fb.smallest_normal) == (
            16,
            t_fi.eps,
            t_fi.max,
            t_fi.smallest_normal,
        )
    info = xp.__array_namespace_info__()
    assert "float16" not in info.dtypes() and "bfloat16" not in info.dtypes()
    assert "float16" not in info.dtypes(kind="real floating")
    assert info.dtypes(kind="extension") == {"float16": xp.float16, "bfloat16": xp.bfloat16}
    assert info.default_dtypes()["real floating"] is xp.float64
    assert xp.asarray([1.5]).dtype is xp.float64


def test_numpy_names_are_ours():
    assert xp.asarray(np.array([1.5], np.float16)).dtype is xp.float16
    assert xp.empty(2, dtype=np.float16).dtype is xp.float16
    assert xp.empty(2, dtype="bfloat16").dtype is xp.bfloat16


# ---------------------------------------------------------------- computing


values = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=6),
    elements=st.floats(-2e3, 2e3, width=32) | st.sampled_from([np.nan, np.inf]),
)


@given(x=values, y=values)
@settings(max_examples=40, deadline=None)
def test_float16_is_numpy_float16(x, y):
    """numpy's float16 loops compute in float32 and round once: the same
    bits for the exactly rounded operations."""
    try:
        shape = np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return
    a, b = x.astype(np.float16), y.astype(np.float16)
    xa, xb = xp.asarray(a), xp.asarray(b)
    for fn in ("add", "subtract", "multiply", "divide", "maximum", "minimum"):
        got = np.asarray(getattr(xp, fn)(xa, xb))
        want = np.float16(getattr(np, fn)(a.astype(np.float32), b.astype(np.float32)))
        assert got.dtype == np.float16 and got.shape == shape
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.asarray(xa < xb), a < b)
    np.testing.assert_array_equal(np.asarray(xp.sqrt(xp.abs(xa))), np.sqrt(np.abs(a)))


@needs_pytorch
@given(x=values)
@settings(max_examples=40, deadline=None)
def test_bfloat16_is_pytorch_bfloat16(x):
    t = torch.from_numpy(x.copy()).bfloat16()
    a = xp.from_dlpack(t)
    assert a.dtype is xp.bfloat16
    for fn, tfn in (("multiply", torch.mul), ("add", torch.add), ("divide", torch.div)):
        got = getattr(xp, fn)(a, a)
        want = tfn(t, t)
        np.testing.assert_array_equal(f32(got), want.float().numpy())
    np.testing.assert_array_equal(f32(-a), (-t).float().numpy())


@pytest.mark.parametrize("dt", HALVES)
def test_statistics_sort_matmul_indexing(dt):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 50)).astype(np.float32)
    a = xp.asarray(x, dtype=dt)
    w = f32(a)  # the 16-bit values, exactly
    s = xp.sum(a, axis=1)
    assert s.dtype is dt
    np.testing.assert_allclose(f32(s), w.sum(axis=1), rtol=2**-7, atol=1e-2)
    assert xp.mean(a).dtype is dt and xp.max(a).dtype is dt
    assert float(xp.max(a)) == w.max()
    np.testing.assert_array_equal(f32(xp.sort(a, axis=1)), np.sort(w, axis=1))
    np.testing.assert_array_equal(
        np.asarray(xp.argsort(a, axis=1, stable=True)), np.argsort(w, axis=1, kind="stable")
    )
    p = a @ xp.matrix_transpose(a)
    assert p.dtype is dt
    np.testing.assert_allclose(f32(p), w @ w.T, rtol=2**-6, atol=0.5)
    np.testing.assert_array_equal(f32(a[::2, 3]), w[::2, 3])
    np.testing.assert_array_equal(
        f32(xp.where(a > 0, a, xp.asarray(0.0, dtype=dt))), np.where(w > 0, w, 0)
    )
    np.testing.assert_array_equal(np.asarray(xp.argmax(a, axis=1)), np.argmax(w, axis=1))
    e = xp.empty((0, 3), dtype=dt)
    assert xp.sum(e, axis=0).shape == (3,) and (e * e).dtype is dt


@pytest.mark.parametrize("dt", HALVES)
def test_astype_round_trips(dt):
    x = xp.asarray([0.1, 1e6, -3.5, 1e-9], dtype=xp.float64)
    h = xp.astype(x, dt)
    assert h.dtype is dt
    back = xp.astype(h, xp.float64)
    assert float(back[2]) == -3.5
    assert xp.astype(h, xp.int32).dtype is xp.int32
    assert xp.astype(xp.astype(h, xp.float16 if dt is xp.bfloat16 else xp.bfloat16), dt).dtype is dt


@pytest.mark.parametrize("dt", HALVES)
def test_no_float32_kernel_is_a_type_error(dt):
    a = xp.asarray([1.0, 2.0], dtype=dt)
    with pytest.raises(TypeError):
        xp.bitwise_and(a, a)


# ---------------------------------------------------------------- DLPack


@needs_pytorch
@pytest.mark.parametrize("tdt", ["float16", "bfloat16"])
def test_pytorch_both_ways_zero_copy(tdt):
    t = torch.arange(12, dtype=getattr(torch, tdt)).reshape(3, 4)
    a = xp.from_dlpack(t)
    assert a.dtype.name == tdt and a.shape == (3, 4)
    a[1, 2] = 100.5  # written through ours ...
    assert float(t[1, 2]) == 100.5  # ... seen by PyTorch
    back = torch.from_dlpack(a)
    assert back.dtype == t.dtype and back.data_ptr() == t.data_ptr()
    back[0, 0] = -7  # written through PyTorch ...
    assert float(a[0, 0]) == -7.0  # ... seen by ours
    tt = t.T
    v = xp.from_dlpack(tt)
    np.testing.assert_array_equal(f32(v), tt.float().numpy())


def test_numpy_float16_both_ways_zero_copy():
    n = np.arange(6, dtype=np.float16).reshape(2, 3)
    a = xp.from_dlpack(n)
    assert a.dtype is xp.float16
    a[0, 1] = 2.5
    assert n[0, 1] == 2.5
    back = np.from_dlpack(a)
    assert back.dtype == np.float16 and back.ctypes.data == n.ctypes.data
    back[1, 2] = -1
    assert float(a[1, 2]) == -1.0
    assert np.asarray(a).dtype == np.float16


def test_numpy_has_no_bfloat16():
    a = xp.asarray([1.0], dtype=xp.bfloat16)
    with pytest.raises(TypeError, match="numpy has no bfloat16"):
        np.asarray(a)
    assert np.asarray(a, dtype=np.float32).dtype == np.float32


def test_scikit_learn_sees_float16_as_numpy_has_it():
    # the one peer test that differs by design (tests/peers/run_peers.py's
    # BY_DESIGN): scikit-learn's supported float types of our namespace are
    # numpy's (float16 included), not array-api-strict's
    array_api = pytest.importorskip("sklearn.utils._array_api")
    assert array_api.supported_float_dtypes(xp) == (xp.float64, xp.float32, xp.float16)

"""What a chunked engine such as Cubed needs from strided.compat beyond the
standard (docs/array-api.md, "Beyond the standard"; docs/scale.md): numpy's
dtypes wherever the namespace takes a dtype, pickling of arrays, dtypes and
the namespace's objects (in band, out of band, across spawned and forked
processes), len(), numpy's mixed-kind promotion, and the signatures Cubed
calls (mean(dtype=), take with an integer, nansum, squeeze without axis,
*_like(shape=), dtype names).  numpy is the oracle.  Runs without Cubed."""

import gc
import multiprocessing
import pickle
import sys

import numpy as np
import pytest

import strided
import strided.compat as xp
from compat_util import NAMES, check, xp_of

DT = {n: getattr(xp, n) for n in NAMES}
NUMPY_24 = tuple(int(v) for v in np.__version__.split(".")[:2]) >= (2, 4)


def sample(name, shape=(3, 4)):
    """A numpy array of `name` with distinct values (nonzero imaginary parts)."""
    a = np.arange(int(np.prod(shape))).reshape(shape) % 7
    if name == "bool":
        return a % 2 == 1
    a = a.astype(name)
    return a + 1j * a[::-1] if name.startswith("complex") else a


# ---------------------------------------------------------------- numpy's dtypes
@pytest.mark.parametrize("name", NAMES)
def test_numpy_dtypes_name_ours(name):
    dt = DT[name]
    for given in (np.dtype(name), getattr(np, name if name != "bool" else "bool_"), name):
        assert xp.empty((2,), dtype=given).dtype is dt
        assert xp.zeros((2,), dtype=given).dtype is dt
        assert xp.ones((), dtype=given).dtype is dt
        assert xp.full((1,), 1, dtype=given).dtype is dt
        assert xp.asarray([1, 0], dtype=given).dtype is dt
        assert xp.astype(xp.asarray([1, 0]), given).dtype is dt
        assert xp.zeros_like(xp.ones(2), dtype=given).dtype is dt
        assert xp.eye(2, dtype=given).dtype is dt
        assert xp.isdtype(given, dt)
        if not isinstance(given, str):  # a string kind is a kind ("integral")
            assert xp.isdtype(dt, given)
        assert xp.result_type(given) is dt
        assert xp.can_cast(given, dt) and xp.can_cast(dt, given)
    assert xp.asarray(sample(name)).dtype is dt
    # Zarr's dtypes spell the native byte order out ('<f8', byteorder '<')
    spelled = np.dtype(name).newbyteorder("<" if sys.byteorder == "little" else ">")
    assert xp.astype(xp.asarray([1, 0]), spelled).dtype is dt
    x = xp.asarray(sample(name))
    assert np.shares_memory(np.asarray(x, dtype=spelled), np.from_dlpack(x))  # no copy


@pytest.mark.skipif(not NUMPY_24, reason="numpy < 2.4 does not read __numpy_dtype__")
@pytest.mark.parametrize("name", NAMES)
def test_numpy_reads_our_dtypes(name):
    dt = DT[name]
    assert np.dtype(dt) == np.dtype(name)
    assert np.dtype(name) == dt and dt == np.dtype(name)
    assert not (np.dtype(name) != dt)
    other = "float32" if name != "float32" else "int8"
    assert np.dtype(other) != dt and not (np.dtype(other) == dt)
    assert np.zeros(2, dtype=dt).dtype == np.dtype(name)
    assert np.asarray(xp.ones(2, dtype=dt)).dtype == dt


def test_numpy_dtypes_in_reductions_and_statistics():
    x = xp_of(np.arange(12).reshape(3, 4))
    check(xp.sum(x, dtype=np.dtype("float64")), np.sum(np.arange(12), dtype="float64"))
    check(xp.prod(x[0] + 1, dtype=np.float32), np.prod(np.arange(1, 5), dtype="float32"))
    check(
        xp.cumulative_sum(x, axis=1, dtype=np.dtype("int32")),
        np.cumsum(np.arange(12).reshape(3, 4), axis=1, dtype="int32"),
    )
    check(
        xp.mean(x, axis=0, dtype=np.dtype("float32")),
        np.mean(np.arange(12).reshape(3, 4), axis=0, dtype="float32"),
        exact=False,
    )
    check(
        xp.linalg.trace(x[:, :3], dtype=np.dtype("float64")),
        np.trace(np.arange(12).reshape(3, 4)[:, :3]).astype("float64"),
    )
    assert xp.finfo(np.dtype("float32")).bits == 32 and xp.iinfo(np.int16).max == 2**15 - 1
    check(xp.fft.fftfreq(4, dtype=np.dtype("float32")), np.fft.fftfreq(4).astype("float32"))


def test_what_is_not_a_dtype_of_ours_is_refused():
    for bad in (
        np.dtype(">f2"),
        np.dtype(">f8"),
        np.dtype("U3"),
        "float",
        "f8",
        object,
        None,
        3,
        np.float64(1.0),
        xp.asarray(1.0),
    ):
        with pytest.raises(TypeError, match="not a dtype of strided.compat"):
            xp.astype(xp.ones(2), bad)
    with pytest.raises(TypeError):
        xp.zeros(2, dtype=np.dtype("datetime64[s]"))


def test_python_number_types_are_numpys_dtypes():
    for given, name in (
        (float, "float64"),
        (int, "int64"),
        (complex, "complex128"),
        (bool, "bool"),
    ):
        assert xp.asarray([1, 0], dtype=given).dtype is DT[name]
        assert xp.zeros(2, dtype=given).dtype is getattr(xp, np.dtype(given).name)
        assert xp.result_type(given, xp.int8) is xp.result_type(DT[name], xp.int8)


def test_astype_method():
    x = xp.asarray([1, 2, 3])
    check(x.astype(np.float64), np.array([1.0, 2.0, 3.0]))
    check(x.astype("int8"), np.array([1, 2, 3], dtype=np.int8))
    assert x.astype(xp.int64, copy=False) is x and x.astype(xp.int64) is not x


@pytest.mark.skipif(not NUMPY_24, reason="numpy < 2.4 does not read __numpy_dtype__")
def test_structured_numpy_dtypes_of_our_dtypes():
    # Cubed's intermediate dtypes: lists of (field, our dtype)
    dt = np.dtype([("n", xp.int64), ("total", xp.float64)])
    assert dt == np.dtype([("n", "int64"), ("total", "float64")])


# ---------------------------------------------------------------- pickling
def _np(x):
    return np.asarray(x)


ARRAYS = {
    "0-d": lambda n: xp_of(sample(n, (1,))[0]),
    "1-d": lambda n: xp_of(sample(n, (5,))),
    "2-d": lambda n: xp_of(sample(n)),
    "transposed": lambda n: xp_of(sample(n)).T,
    "stepped": lambda n: xp_of(sample(n, (4, 6)))[::-2, 1::3],
    "broadcast": lambda n: xp.broadcast_to(xp_of(sample(n, (3, 1))), (3, 4)),
    "empty": lambda n: xp_of(sample(n, (0, 3))),
}


@pytest.mark.parametrize("layout", sorted(ARRAYS))
@pytest.mark.parametrize("name", NAMES)
def test_pickle_every_dtype_and_layout(name, layout):
    x = ARRAYS[layout](name)
    want = _np(x).copy()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        y = pickle.loads(pickle.dumps(x, protocol=protocol))
        assert type(y) is xp.Array and y.dtype is x.dtype and y.shape == x.shape
        check(y, want)
        if y.size:  # a fresh, writable array, apart from x
            y[...] = xp.zeros((), dtype=y.dtype)
            check(x, want)


def _address(buf):
    return np.frombuffer(buf, dtype=np.uint8).ctypes.data


def _array_address(x):
    return np.from_dlpack(x).ctypes.data


def test_pickle_protocol_5_out_of_band_copies_nothing():
    x = xp.reshape(xp.arange(1_000_000, dtype=xp.float64), (1000, 1000))
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert len(data) < 200 and len(buffers) == 1
    assert _address(buffers[0]) == _array_address(x)  # a view of x's memory
    moved = bytearray(buffers[0])  # the transport's one copy
    y = pickle.loads(data, buffers=[moved])
    assert _array_address(y) == _address(moved)  # a view of the buffer
    check(y, np.arange(1_000_000, dtype=np.float64).reshape(1000, 1000))
    y[0, 0] = 5.0  # writable: a bytearray
    assert moved[:8] == np.float64(5.0).tobytes()
    # bytes handed back (read-only) give a read-only array, as numpy's
    z = pickle.loads(data, buffers=[bytes(buffers[0])])
    with pytest.raises(ValueError):
        z[0, 0] = 1.0
    check(z, np.arange(1_000_000, dtype=np.float64).reshape(1000, 1000))


def test_pickle_buffers_outlive_the_array():
    x = xp.arange(100_000, dtype=xp.int32)
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    del x
    gc.collect()
    y = pickle.loads(data, buffers=buffers)
    check(y, np.arange(100_000, dtype=np.int32))
    del buffers
    gc.collect()
    check(y, np.arange(100_000, dtype=np.int32))


def test_pickle_in_band_holds_one_copy():
    n = 1 << 20
    x = xp.ones(n, dtype=xp.uint8)
    for protocol in (4, 5):
        assert n < len(pickle.dumps(x, protocol=protocol)) < n + 200


def test_pickle_non_contiguous_copies_once_to_c_order():
    x = xp.reshape(xp.arange(24.0), (4, 6))[:, ::2]
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert memoryview(buffers[0]).nbytes == 12 * 8
    check(pickle.loads(data, buffers=buffers), np.arange(24.0).reshape(4, 6)[:, ::2])


def test_pickle_read_only_arrays_stay_read_only():
    a = np.arange(6.0)
    a.flags.writeable = False
    x = xp.asarray(a)
    y = pickle.loads(pickle.dumps(x, protocol=5))
    check(y, a)
    with pytest.raises(ValueError):
        y[0] = 1.0
    z = pickle.loads(pickle.dumps(x, protocol=4))  # protocol 4: a new array
    z[0] = 1.0
    check(z, np.array([1.0, 1, 2, 3, 4, 5]))


def test_unpickling_misaligned_buffers_copies_into_aligned_memory():
    x = xp.arange(10, dtype=xp.float64)
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    frame = bytearray(81)
    frame[1:] = bytes(buffers[0])
    y = pickle.loads(data, buffers=[memoryview(frame)[1:]])
    check(y, np.arange(10, dtype=np.float64))
    assert _array_address(y) % 8 == 0


def test_unpickling_checks_what_it_is_given():
    x = xp.arange(4, dtype=xp.int16)
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    with pytest.raises(
        ValueError, match="shape \\(4,\\) of int16 needs 8 bytes, the pickle holds 6"
    ):
        pickle.loads(data, buffers=[b"\0" * 6])
    with pytest.raises(TypeError, match="bytes or a buffer"):
        pickle.loads(data, buffers=[[0, 0, 0, 0]])
    fn, args = x.__reduce_ex__(5)
    assert args[:2] == ("int16", (4,))
    other = "big" if sys.byteorder == "little" else "little"
    with pytest.raises(ValueError, match="endian"):
        fn("int16", (4,), bytes(8), other, True)
    # the main branch's first pickles, (dtype name, shape, bytes), still load
    from strided.compat._pickle import unpickle as _unpickle

    check(
        _unpickle("int16", (4,), np.arange(4, dtype=np.int16).tobytes()),
        np.arange(4, dtype=np.int16),
    )


def test_unpickling_bool_views_only_zeros_and_ones():
    x = xp.asarray([True, False, True, True])
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    moved = bytearray(buffers[0])
    y = pickle.loads(data, buffers=[moved])
    assert _array_address(y) == _address(moved)  # 0 and 1 only: a view
    check(y, np.array([True, False, True, True]))
    moved[1] = 7  # not a C bool: cast into a copy
    z = pickle.loads(data, buffers=[moved])
    assert _array_address(z) != _address(moved)
    check(z, np.array([True, True, True, True]))


def test_pickle_dtypes_and_namespace_objects():
    for dt in DT.values():
        assert pickle.loads(pickle.dumps(dt)) is dt
    dev = xp.asarray(1).device
    assert pickle.loads(pickle.dumps(dev)) is dev
    for f in (xp.sum, xp.add, xp.nansum, xp.linalg.qr, xp.fft.fft, xp.Array, xp.asarray):
        assert pickle.loads(pickle.dumps(f)) is f
    info = pickle.loads(pickle.dumps(xp.__array_namespace_info__()))
    assert info.default_dtypes()["real floating"] is xp.float64
    fi = pickle.loads(pickle.dumps(xp.finfo(xp.float32)))
    assert (fi.bits, fi.eps, fi.dtype) == (32, float(np.finfo(np.float32).eps), xp.float32)
    ii = pickle.loads(pickle.dumps(xp.iinfo(xp.uint16)))
    assert (ii.bits, ii.min, ii.max, ii.dtype) == (16, 0, 65535, xp.uint16)


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_arrays_and_dtypes_cross_processes(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method on this platform")
    ctx = multiprocessing.get_context(method)
    arrays = [ARRAYS[layout](name) for layout in ("0-d", "stepped", "transposed") for name in NAMES]
    big = xp.reshape(xp.arange(10**6, dtype=xp.int64), (1000, 1000))
    xp.sum(big, axis=0)  # the parent's kernels have run on their threads before the fork
    with ctx.Pool(1) as pool:
        # there and back: the child unpickles, asarray returns the same array,
        # the child pickles it back (timeouts: a hang fails instead of blocking)
        back = pool.map_async(xp.asarray, arrays).get(timeout=120)
        summed = pool.apply_async(xp.sum, (big,), {"axis": 0}).get(timeout=120)
        cast = pool.apply_async(xp.astype, (xp.arange(5), xp.float32)).get(timeout=120)
        threads = pool.apply_async(strided.getnumthreads).get(timeout=120)
    for x, y in zip(arrays, back):
        assert y.dtype is x.dtype
        check(y, _np(x))
    check(summed, np.arange(10**6).reshape(1000, 1000).sum(axis=0))
    check(cast, np.arange(5, dtype=np.float32))
    # a forked child keeps the setting and runs on threads of its own
    # (docs/core-semantics.md, "Threads"); a spawned one starts from the default
    assert threads == strided.getnumthreads()


# ---------------------------------------------------------------- len
def test_len():
    assert len(xp.ones((5, 2))) == 5 and len(xp.ones((0,))) == 0
    assert len(xp.ones((3, 2)).T) == 2
    with pytest.raises(TypeError, match="0-d"):
        len(xp.asarray(1.0))


# ---------------------------------------------------------------- mixed kinds (the extension)
def test_mixed_kind_promotion_as_numpy():
    f, i = np.array([1.0, 2.5]), np.array([2, 4])
    check(xp_of(f) / xp_of(i), f / i)
    check(xp_of(i) / xp_of(f), i / f)
    check(xp_of(i) - 1.0, i - 1.0)
    check(1.5 * xp_of(i), 1.5 * i)
    check(xp_of(i) + 1j, i + 1j)
    check(xp.asarray([True, False]) + 1, np.array([True, False]) + 1)
    i32 = np.array([1, 2], dtype=np.int32)
    check(xp.concat([xp_of(i32), xp_of(f)]), np.concatenate([i32, f]))
    check(
        xp.concat([xp_of(i32), xp_of(i32.astype("uint8")), xp_of(f.astype("float32"))]),
        np.concatenate([i32, i32.astype("uint8"), f.astype("float32")]),
    )
    check(xp.where(xp.asarray([True, False]), xp_of(i), xp_of(f)), np.where([True, False], i, f))
    u = np.array([1, 2], dtype=np.uint64)
    check(xp_of(u) + xp_of(i), u + i)  # float64, as numpy
    check(xp.maximum(xp_of(i32), xp_of(f.astype("float32"))), np.maximum(i32, f.astype("float32")))


def test_reductions_of_bool_count_in_int64():
    b = np.array([[True, False, True], [True, True, False]])
    check(xp.sum(xp_of(b)), np.sum(b))
    check(xp.sum(xp_of(b), axis=1), np.sum(b, axis=1))
    check(xp.prod(xp_of(b), axis=0), np.prod(b, axis=0))
    check(xp.cumulative_sum(xp_of(b), axis=1), np.cumsum(b, axis=1))


# ---------------------------------------------------------------- Cubed's signatures
def test_mean_with_dtype():
    a = np.arange(12).reshape(3, 4)
    check(xp.mean(xp_of(a)), np.mean(a), exact=False)  # int: float64
    check(
        xp.mean(xp_of(a), axis=1, dtype=xp.float64),
        np.mean(a, axis=1, dtype="float64"),
        exact=False,
    )
    check(xp.mean(xp_of(a > 5), axis=0), np.mean(a > 5, axis=0), exact=False)
    f = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    check(
        xp.mean(xp_of(f), dtype="float64", keepdims=True),
        np.mean(f, dtype="float64", keepdims=True),
        exact=False,
    )
    c = f + 1j * f
    check(
        xp.mean(xp_of(c), axis=0, dtype=xp.complex128),
        np.mean(c, axis=0, dtype="complex128"),
        exact=False,
    )
    with pytest.raises(TypeError, match="floating"):
        xp.mean(xp_of(a), dtype=xp.int64)
    with pytest.raises(TypeError, match="complex"):
        xp.mean(xp_of(c), dtype=xp.float32)


def test_take_with_an_integer():
    a = np.arange(24).reshape(2, 3, 4)
    x = xp_of(a)
    for axis in (0, 1, 2, -1):
        for i in (0, 1, -1):
            check(xp.take(x, i, axis=axis), np.take(a, i, axis=axis))
    check(xp.take(x, 7), np.take(a, 7))  # flattened: a 0-d array
    y = xp.take(x, 0, axis=0)
    y[...] = 0  # a copy, as numpy's
    check(x, a)
    with pytest.raises(IndexError):
        xp.take(x, 3, axis=1)
    with pytest.raises(IndexError):
        xp.take(x, 0, axis=3)
    with pytest.raises(TypeError):
        xp.take(x, True, axis=0)
    with pytest.raises(ValueError):
        xp.take(xp.asarray(1), 0, axis=0)


def test_nansum():
    a = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 4.0]])
    check(xp.nansum(xp_of(a)), np.nansum(a))
    check(xp.nansum(xp_of(a), axis=0), np.nansum(a, axis=0))
    check(xp.nansum(xp_of(a), axis=1, keepdims=True), np.nansum(a, axis=1, keepdims=True))
    check(xp.nansum(xp_of(a.astype("float32")), dtype=xp.float64), np.nansum(a, dtype="float64"))
    c = np.array([1 + 1j, complex(np.nan, 1), complex(1, np.nan), 2j])
    check(xp.nansum(xp_of(c)), np.nansum(c))
    i = np.arange(6).reshape(2, 3)
    check(xp.nansum(xp_of(i), axis=1), np.nansum(i, axis=1))
    check(xp.nansum(xp_of(i > 2)), np.nansum(i > 2))
    x = xp_of(a)
    xp.nansum(x)
    check(x, a)  # x untouched


def test_squeeze_without_axis():
    a = np.zeros((1, 3, 1, 2, 1))
    check(xp.squeeze(xp_of(a)), np.squeeze(a))
    check(xp.squeeze(xp_of(np.zeros((1, 1)))), np.squeeze(np.zeros((1, 1))))
    check(xp.squeeze(xp_of(np.zeros((2, 3)))), np.zeros((2, 3)))
    check(xp.squeeze(xp_of(a), axis=2), np.squeeze(a, axis=2))


def test_like_functions_with_shape():
    x = xp.ones((2, 3), dtype=xp.int16)
    check(xp.full_like(x, 7, shape=(4,)), np.full_like(np.ones((2, 3), "int16"), 7, shape=(4,)))
    check(xp.full_like(x, 2.5, shape=(2, 2), dtype=xp.float32), np.full((2, 2), 2.5, "float32"))
    check(xp.zeros_like(x, shape=(3, 1)), np.zeros((3, 1), "int16"))
    check(xp.ones_like(x, shape=()), np.ones((), "int16"))
    y = xp.empty_like(x, shape=(0, 5))
    assert y.shape == (0, 5) and y.dtype is xp.int16
    check(xp.full_like(x, 3), np.full((2, 3), 3, "int16"))  # shape=None: x's


def test_dtype_names():
    for name in NAMES:
        assert xp.astype(xp.asarray([1, 0]), name).dtype is DT[name]
        assert xp.isdtype(name, DT[name]) and xp.result_type(name, name) is DT[name]
    with pytest.raises(ValueError, match="kind"):
        xp.isdtype(xp.int8, "int8")  # a string kind names a kind, not a dtype
    check(xp.sum(xp.asarray([1, 2]), dtype="float32"), np.float32(3))
    check(xp.arange(3, dtype="uint8"), np.arange(3, dtype="uint8"))
    check(xp.linspace(0, 1, 3, dtype="float32"), np.linspace(0, 1, 3, dtype="float32"))
    with pytest.raises(TypeError):
        xp.zeros(2, dtype="double")

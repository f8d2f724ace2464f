"""The 16-bit floats (float16, Torch7's Half, and bfloat16) in the kernels
that only move elements, and in those that have no float32 path
(half.c): they refuse them with TypeError instead of running a missing
loop (these entry points crashed before they checked: found by calling
every C entry point with float16 operands).  Computing with them:
tests/core/test_half_types.py; conversions against numpy:
tests/core/test_copy_cast.py.  Also the memory mapping of files, st_storage_map."""

import gc
import os

import numpy as np
import pytest

from strided.core import base as _core, indexing as _indexing, setops as _setops
from strided._c._strided import ffi, lib

from helpers import borrow, to_numpy


def half(values):
    return _core.astype(borrow(np.asarray(values, np.float64)), "float16")


def test_values_in_and_out():
    h = _core.from_nested([[0.1, 70000], [-0.0, 2**-25 * 1.5]], "float16")
    assert h.dtype is _core.float16 and h.dtype.itemsize == 2
    assert _core.tolist(h) == [[0.0999755859375, float("inf")], [-0.0, 2**-24]]
    _core.fill_(h, 1 / 3)
    assert _core.item(_core.Core.over(h.storage, "float16", 3, ())) == 0.333251953125
    np.testing.assert_array_equal(to_numpy(h), np.full((2, 2), 1 / 3, np.float16))


def test_kernels_that_only_move_elements_take_float16():
    h = half([1, 2, 3, 4])
    i = borrow(np.array([3, 0], np.int64))
    assert _core.tolist(_indexing.index_select(h, 0, i)) == [4.0, 1.0]
    assert _core.tolist(_indexing.gather(h, 0, i)) == [4.0, 1.0]


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
@pytest.mark.parametrize(
    "call",
    [
        lambda h: _setops.isin(h, h),
        lambda h: _setops.searchsorted(h, h),
        lambda h: _indexing.index_add(
            h,
            0,
            borrow(np.array([0], np.int64)),
            _core.Core.over(h.storage, h.dtype, 0, (1,), None),
        ),
        lambda h: _indexing.scatter_add(h, 0, borrow(np.array([0], np.int64)), h),
    ],
)
def test_kernels_without_a_float32_path_refuse_them(call, name):
    with pytest.raises(TypeError, match=name):
        call(_core.astype(half([1, 2, 3, 4]), name))


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_c_entry_points_refuse_them_themselves(name):
    # the Python layer may check first; C must too (st_isin and st_run_starts
    # ran a missing loop)
    h = _core.astype(half([1, 2, 3]), name)
    count = ffi.new("int64_t *")
    flags = _core.Core.empty((3,), "bool")
    assert lib.st_isin(flags.t, h.t, h.t, 0) == lib.ST_E_TYPE
    assert lib.st_run_starts(flags.t, h.t, count) == lib.ST_E_TYPE
    assert name in ffi.string(lib.st_last_error()).decode()


def test_map_errors_and_modes(tmp_path):
    err = ffi.new("int *")
    assert (
        lib.st_storage_map(str(tmp_path / "none").encode(), 0, 1, lib.ST_MAP_PRIVATE, err)
        == ffi.NULL
    )
    assert lib.st_last_status() == lib.ST_E_IO and err[0] == 2  # ENOENT
    assert lib.st_storage_map(str(tmp_path).encode(), 0, 1, lib.ST_MAP_PRIVATE, err) == ffi.NULL
    assert lib.st_last_status() == lib.ST_E_IO and err[0] == 21  # EISDIR
    p = tmp_path / "f.bin"
    p.write_bytes(bytes(range(10)))
    for nbytes, unit, mode in (
        (11, 1, lib.ST_MAP_PRIVATE),
        (-1, 1, lib.ST_MAP_SHARED),
        (0, 0, lib.ST_MAP_PRIVATE),
        (0, 1, 7),
    ):
        assert lib.st_storage_map(str(p).encode(), nbytes, unit, mode, err) == ffi.NULL
        assert lib.st_last_status() == lib.ST_E_VALUE and err[0] == 0
    s = ffi.gc(
        lib.st_storage_map(str(p).encode(), 0, 4, lib.ST_MAP_PRIVATE, err), lib.st_storage_release
    )
    assert s.nbytes == 8 and s.flags & lib.ST_STORAGE_MAPPED  # whole units of 4 bytes
    assert lib.st_storage_resize(s, 4) == lib.ST_E_BORROWED
    s.data[0] = b"\x63"  # copy-on-write
    assert p.read_bytes()[0] == 0
    w = ffi.gc(
        lib.st_storage_map(str(p).encode(), 12, 1, lib.ST_MAP_SHARED, err), lib.st_storage_release
    )
    w.data[0] = b"\x63"
    assert p.read_bytes() == bytes([99]) + bytes(range(1, 10)) + b"\0\0"
    del s, w
    gc.collect()
    assert os.path.getsize(p) == 12

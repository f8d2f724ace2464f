"""Errors as the core records them: the structured index error
(st_last_index_error -> CoreIndexError) and the reason behind a NULL from
an allocating function (st_last_status)."""

import numpy as np
import pytest

import strided as torch
from strided.core import base as _core, indexing as _indexing
from strided._c._strided import ffi, lib

from helpers import borrow

BASE1 = lib.ST_IDX_BASE1


def idx(values):
    return borrow(np.asarray(values, dtype=np.int64))


def raised(fn, *args):
    with pytest.raises(_core.CoreIndexError) as info:
        fn(*args)
    e = info.value
    assert isinstance(e, IndexError)
    return e


@pytest.mark.parametrize("flags, base", [(0, 0), (BASE1, 1)])
def test_index_select_records_the_index(flags, base):
    a = borrow(np.arange(12.0).reshape(3, 4))
    e = raised(_indexing.index_select, a, 1, idx([0 + base, 4 + base, 1 + base]), flags)
    assert (e.index, e.lo, e.hi, e.dim) == (4 + base, base, 4 + base, 1 + base)
    assert str(e) == ffi.string(lib.st_last_error()).decode()


@pytest.mark.parametrize("flags, base", [(0, 0), (BASE1, 1)])
def test_gather_records_the_first_bad_index(flags, base):
    a = borrow(np.arange(6.0).reshape(2, 3))
    # C order: the first bad value is -1 + base at [0, 2] (7 + base comes later)
    e = raised(_indexing.gather, a, 0, idx([[base, base, base - 1], [7 + base, base, base]]), flags)
    assert (e.index, e.lo, e.hi, e.dim) == (base - 1, base, 2 + base, base)


def test_take_records_the_index():
    a = borrow(np.arange(5.0))
    e = raised(_indexing.take, a, idx([1, 5]))
    assert (e.index, e.lo, e.hi, e.dim) == (5, -5, 5, 0)  # take wraps negative indices


def test_dim_errors_are_plain_index_errors():
    a = borrow(np.arange(5.0))
    with pytest.raises(IndexError) as info:
        _indexing.index_select(a, 3, idx([0]))
    assert not isinstance(info.value, _core.CoreIndexError)


def test_torch7_face_states_the_error_in_its_numbering():
    t = torch.Tensor([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(IndexError, match=r"^index: index 4 out of range \[1, 3\] for dimension 2$"):
        t.index(2, torch.LongTensor([1, 4]))
    with pytest.raises(
        IndexError, match=r"^gather: index 3 out of range \[1, 2\] for dimension 1$"
    ):
        t.gather(1, torch.LongTensor([[1, 3, 1], [1, 1, 1]]))


def test_record_is_cleared_by_the_next_error():
    a = borrow(np.arange(5.0))
    raised(_indexing.index_select, a, 0, idx([9]))
    s = ffi.gc(lib.st_storage_borrow(ffi.NULL, 0, 0, ffi.NULL, ffi.NULL), lib.st_storage_release)
    assert lib.st_storage_resize(s, 8) == lib.ST_E_BORROWED
    assert lib.st_last_index_error(ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == 0
    assert lib.st_last_status() == lib.ST_E_BORROWED


def test_overflowing_shape_is_overflow_not_memory():
    with pytest.raises(OverflowError):
        _core.Core.empty((2**62, 2**62), "float64")
    with pytest.raises(OverflowError):
        _core.Core.empty((2**60,), "float64")


def test_storage_null_says_why():
    with pytest.raises(OverflowError):
        _core.new_storage(2**63 - 1)
    with pytest.raises(ValueError):
        _core.new_storage(-1)
    with pytest.raises(MemoryError):
        _core.new_storage(2**61)  # a plain size no machine has
    with pytest.raises(ValueError):
        _core.borrow_storage(0, 16)  # NULL with bytes

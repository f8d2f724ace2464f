import itertools

import numpy as np
import pytest

import strided.compat as xp
from compat_util import NAMES

DT = {n: getattr(xp, n) for n in NAMES}
KIND = {n: ("b" if n == "bool" else "i" if n.startswith(("int", "uint")) else "f"
            if n.startswith("float") else "c") for n in NAMES}


def _standard_defines(a, b):
    ka, kb = KIND[a], KIND[b]
    if ka == "b" or kb == "b":
        return a == b == "bool"
    if ka == "i" and kb == "i":
        return {a, b} & {"uint64"} == set() or (a.startswith("u") and b.startswith("u"))
    return ka in "fc" and kb in "fc"


@pytest.mark.parametrize("a,b", list(itertools.product(NAMES, NAMES)))
def test_promotion_table_against_numpy(a, b):
    if _standard_defines(a, b):
        want = np.promote_types(a, b).name
        assert xp.result_type(DT[a], DT[b]).name == want
        x = xp.ones((2,), dtype=DT[a])
        y = xp.ones((2,), dtype=DT[b])
        if "bool" not in (a, b):
            assert (x + y).dtype.name == want
    else:
        with pytest.raises(TypeError):
            xp.result_type(DT[a], DT[b])


def test_promotion_spot_checks_from_standard():
    assert xp.result_type(xp.uint8, xp.int8) is xp.int16
    assert xp.result_type(xp.uint16, xp.int8) is xp.int32
    assert xp.result_type(xp.uint32, xp.int32) is xp.int64
    assert xp.result_type(xp.float64, xp.complex64) is xp.complex128
    assert xp.result_type(xp.float32, xp.complex64) is xp.complex64
    assert xp.result_type(xp.int8, xp.int16, xp.uint8) is xp.int16


def test_python_scalars():
    assert xp.result_type(xp.int8, 1) is xp.int8
    assert xp.result_type(xp.float32, 1) is xp.float32
    assert xp.result_type(xp.float32, 1.5) is xp.float32
    assert xp.result_type(xp.float32, 1j) is xp.complex64
    assert xp.result_type(xp.float64, 1j) is xp.complex128
    with pytest.raises(TypeError):
        xp.result_type(xp.int64, 1.5)
    with pytest.raises(TypeError):
        xp.result_type(xp.bool, 1)


def test_can_cast_isdtype():
    assert xp.can_cast(xp.int8, xp.int16) and not xp.can_cast(xp.int16, xp.int8)
    assert not xp.can_cast(xp.int64, xp.float64) and xp.can_cast(xp.float32, xp.complex128)
    assert xp.isdtype(xp.int8, "signed integer") and not xp.isdtype(xp.uint8, "signed integer")
    assert xp.isdtype(xp.float32, ("integral", "real floating"))
    assert xp.isdtype(xp.complex64, "numeric") and not xp.isdtype(xp.bool, "numeric")
    assert xp.isdtype(xp.float32, xp.float32)
    with pytest.raises(ValueError):
        xp.isdtype(xp.float32, "floats")


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo(name):
    f, g = xp.finfo(DT[name]), np.finfo(name)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
        (g.bits, float(g.eps), float(g.max), float(g.min), float(g.smallest_normal))


@pytest.mark.parametrize("name", [n for n in NAMES if KIND[n] == "i"])
def test_iinfo(name):
    f, g = xp.iinfo(DT[name]), np.iinfo(name)
    assert (f.bits, f.min, f.max) == (g.bits, g.min, g.max)


def test_info():
    info = xp.__array_namespace_info__()
    assert info.default_device() == "cpu" and info.devices() == (info.default_device(),)
    assert info.default_dtypes()["real floating"] is xp.float64
    assert info.default_dtypes()["indexing"] is xp.int64
    assert set(info.dtypes()) == set(NAMES)
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    with pytest.raises(ValueError):
        info.dtypes(device="cuda")

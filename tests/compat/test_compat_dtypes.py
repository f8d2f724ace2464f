"""Data types and type promotion of strided.compat against the array API
standard 2025.12: the full promotion table (result_type and real binary
operations, in-place forms), Python scalars with each dtype kind,
result_type with several arguments and scalars, can_cast, isdtype, and
finfo/iinfo against numpy.

The expected promotions are the standard's own tables ("Type Promotion
Rules", spec/2025.12/API_specification/type_promotion.rst), copied below
verbatim and parsed here -- independent of compat/_dtypes.PROMOTION_TABLE.
Pairs the standard leaves undefined (mixed kinds, int64/uint64 with the other
signedness) promote as numpy's promote_types in strided.compat's extension
(docs/array-api.md, "Beyond the standard"); numpy is the oracle for those.
"""

import itertools
import operator

import numpy as np
import pytest

import strided.compat as xp
from compat_util import NAMES, check, np_of, xp_of

DT = {n: getattr(xp, n) for n in NAMES}
SHORT = {
    "b": "bool",
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "u1": "uint8",
    "u2": "uint16",
    "u4": "uint32",
    "u8": "uint64",
    "f4": "float32",
    "f8": "float64",
    "c8": "complex64",
    "c16": "complex128",
}

# ---------------------------------------------------------------- the standard's tables
# The four tables of type_promotion.rst (2025.12), verbatim.
SPEC_TABLES = """
+--------+----+----+----+----+
|        | i1 | i2 | i4 | i8 |
+========+====+====+====+====+
| **i1** | i1 | i2 | i4 | i8 |
+--------+----+----+----+----+
| **i2** | i2 | i2 | i4 | i8 |
+--------+----+----+----+----+
| **i4** | i4 | i4 | i4 | i8 |
+--------+----+----+----+----+
| **i8** | i8 | i8 | i8 | i8 |
+--------+----+----+----+----+

+--------+----+----+----+----+
|        | u1 | u2 | u4 | u8 |
+========+====+====+====+====+
| **u1** | u1 | u2 | u4 | u8 |
+--------+----+----+----+----+
| **u2** | u2 | u2 | u4 | u8 |
+--------+----+----+----+----+
| **u4** | u4 | u4 | u4 | u8 |
+--------+----+----+----+----+
| **u8** | u8 | u8 | u8 | u8 |
+--------+----+----+----+----+

+--------+----+----+----+
|        | u1 | u2 | u4 |
+========+====+====+====+
| **i1** | i2 | i4 | i8 |
+--------+----+----+----+
| **i2** | i2 | i4 | i8 |
+--------+----+----+----+
| **i4** | i4 | i4 | i8 |
+--------+----+----+----+
| **i8** | i8 | i8 | i8 |
+--------+----+----+----+

+---------+-----+-----+-----+-----+
|         |  f4 |  f8 |  c8 | c16 |
+=========+=====+=====+=====+=====+
| **f4**  |  f4 |  f8 |  c8 | c16 |
+---------+-----+-----+-----+-----+
| **f8**  |  f8 |  f8 | c16 | c16 |
+---------+-----+-----+-----+-----+
| **c8**  |  c8 | c16 |  c8 | c16 |
+---------+-----+-----+-----+-----+
| **c16** | c16 | c16 | c16 | c16 |
+---------+-----+-----+-----+-----+
"""


def _parse_spec_tables(text):
    table = {("bool", "bool"): "bool"}  # bool promotes only with itself
    cols = None
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
        if cells[0] == "":
            cols = cells[1:]
            continue
        for col, res in zip(cols, cells[1:]):
            a, b, r = SHORT[cells[0]], SHORT[col], SHORT[res]
            table[a, b] = table[b, a] = r  # the tables are stated one way round
    return table


PROMOTION = _parse_spec_tables(SPEC_TABLES)
PAIRS = list(itertools.product(NAMES, NAMES))
# the extension: the standard's table, and numpy's promotion where it has none
EXTENDED = {(a, b): PROMOTION.get((a, b)) or np.promote_types(a, b).name for a, b in PAIRS}


def test_extension_is_numpy_where_the_standard_is_silent():
    assert all(EXTENDED[p] == np.promote_types(*p).name for p in PAIRS)  # numpy agrees on all
    assert len([p for p in PAIRS if p not in PROMOTION]) == 13 * 13 - len(PROMOTION) == 96


def test_spec_table_transcription():
    assert len(PROMOTION) == 1 + 16 + 16 + 2 * 12 + 16
    assert PROMOTION["uint8", "int8"] == "int16" and PROMOTION["int64", "uint32"] == "int64"
    assert ("int64", "uint64") not in PROMOTION and ("bool", "int8") not in PROMOTION
    assert all(PROMOTION[a, a] == a for a in NAMES)


def kind(name):
    return (
        "bool"
        if name == "bool"
        else "int"
        if name.startswith(("int", "uint"))
        else "float"
        if name.startswith("float")
        else "complex"
    )


def arr(name, shape=(2,)):
    """An Array of ones (True for bool) of dtype `name`."""
    return xp.ones(shape, dtype=DT[name]) if name != "bool" else xp.full(shape, True)


# ---------------------------------------------------------------- result_type
@pytest.mark.parametrize("a,b", PAIRS)
def test_result_type_pairs(a, b):
    want = EXTENDED[a, b]
    for args in (
        (DT[a], DT[b]),
        (DT[b], DT[a]),
        (arr(a), DT[b]),
        (arr(a), arr(b, ())),
        (arr(a, ()), arr(b, (0,))),
    ):
        assert xp.result_type(*args) is DT[want], (args, want)


def _fold(names):
    out = names[0]
    for n in names[1:]:
        out = PROMOTION.get((out, n))
        if out is None:
            return None
    return out


def test_result_type_three_and_more_arguments():
    """All ordered triples: the fold of the standard's table (associative)
    where it covers them, numpy's result_type where the extension does
    (order-independent, though numpy's pairwise promotion is not
    associative there); every permutation agrees."""
    for triple in itertools.combinations_with_replacement(NAMES, 3):
        want = _fold(triple)
        if want is None:
            want = np.result_type(*map(np.dtype, triple)).name
        for perm in set(itertools.permutations(triple)):
            assert _fold(perm) in (want, None)  # the tables are associative
            args = [DT[n] if i % 2 else arr(n) for i, n in enumerate(perm)]
            assert xp.result_type(*args) is DT[want], (perm, want)
    assert xp.result_type(xp.int8, xp.uint16, xp.float32) is xp.float32  # not float64
    assert xp.result_type(xp.uint16, xp.float32, xp.int16) is xp.float32
    assert xp.result_type(xp.int8, xp.uint8, xp.int16, xp.uint16, xp.int32) is xp.int32
    assert xp.result_type(xp.float32, xp.complex64, xp.float64) is xp.complex128
    assert xp.result_type(xp.uint8) is xp.uint8 and xp.result_type(arr("bool")) is xp.bool


# Python scalars (type_promotion.rst "Mixing arrays with Python scalars"): the
# scalar takes the array's dtype; a complex scalar with a real floating array
# gives the complex dtype of the same precision.
SCALARS = {"bool": True, "int": 1, "float": 1.5, "complex": 1j}
COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}


def scalar_result(name, skind):
    """The dtype the standard gives for array(name) op scalar; where it
    leaves it unspecified (a scalar of a higher kind), the extension's:
    numpy's, the default dtype of the scalar's kind."""
    k = kind(name)
    allowed = {
        "bool": {"bool"},
        "int": {"int"},
        "float": {"int", "float", "complex"},
        "complex": {"int", "float", "complex"},
    }[k]
    if skind not in allowed:
        return {"bool": None, "int": "int64", "float": "float64", "complex": "complex128"}[skind]
    if k == "float" and skind == "complex":
        return COMPLEX_OF[name]
    return name


SCALAR_CASES = [(n, s) for n in NAMES for s in SCALARS]


@pytest.mark.parametrize("name,skind", SCALAR_CASES)
def test_result_type_with_python_scalars(name, skind):
    want = scalar_result(name, skind)
    s = SCALARS[skind]
    if skind == "bool" and kind(name) != "bool":
        # unspecified by the standard and undocumented in strided.compat: either a
        # TypeError or the array's dtype (never some other type)
        try:
            assert xp.result_type(DT[name], s) is DT[name]
        except TypeError:
            pass
        return
    assert want == (np.ones(1, dtype=name) + s).dtype.name  # numpy agrees
    assert xp.result_type(DT[name], s) is DT[want]
    assert xp.result_type(s, DT[name]) is DT[want]  # scalar first
    assert xp.result_type(arr(name), s) is DT[want]
    assert xp.result_type(s, arr(name, ()), s) is DT[want]


def test_result_type_scalars_with_several_dtypes():
    """2025.12 result_type: dtypes promote by the table, then the scalars
    (in any position) follow the scalar rules for the promoted dtype."""
    assert xp.result_type(xp.int8, 1, xp.int16) is xp.int16
    assert xp.result_type(1, xp.uint8, xp.uint16, 2) is xp.uint16
    assert xp.result_type(xp.float32, 1.5, xp.float64) is xp.float64
    assert xp.result_type(xp.float32, 1j, xp.float32) is xp.complex64
    assert xp.result_type(1j, xp.float32, xp.float64) is xp.complex128
    assert xp.result_type(xp.complex64, 1.5, 1, 1j) is xp.complex64
    assert xp.result_type(True, arr("bool"), xp.bool, False) is xp.bool
    assert xp.result_type(xp.float32, xp.complex64, 1.0) is xp.complex64
    for args in ((1, 2), (1.5,), (True, 1j), ()):
        with pytest.raises((TypeError, ValueError)):  # at least one array or dtype
            xp.result_type(*args)
    # the extension (numpy's results)
    assert xp.result_type(xp.int8, xp.int16, 1.5) is xp.float64  # float scalar, integer result
    assert xp.result_type(xp.int8, xp.float32, 1) is xp.float32  # mixed kinds
    assert xp.result_type(xp.int8, "int16") is xp.int16  # a dtype's name
    assert xp.result_type(np.dtype("int8"), np.float32) is xp.float32
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, "int")  # not a name of ours


# ---------------------------------------------------------------- binary operations
def np_value(name):
    return np.ones(2, dtype=name)


@pytest.mark.parametrize("a,b", PAIRS)
def test_binary_operators_follow_the_table(a, b):
    """+, *, ==, & (where the promoted dtype allows) on 1-D and 0-d arrays:
    the result dtype is the table's (the extension's for mixed kinds), the
    values numpy's; + and * of bools and & of floating dtypes raise TypeError."""
    want = EXTENDED[a, b]
    numeric = want != "bool"
    bitwise = kind(want) in ("bool", "int")
    ops = [
        (operator.add, numeric),
        (operator.mul, numeric),
        (operator.eq, True),
        (operator.and_, bitwise),
    ]
    for shape_a, shape_b in (((2,), (2,)), ((), (2,)), ((2,), ()), ((), ())):
        x, y = arr(a, shape_a), arr(b, shape_b)
        for op, allowed in ops:
            if not allowed:
                with pytest.raises(TypeError):
                    op(x, y)
                continue
            out = op(x, y)
            res = "bool" if op is operator.eq else want
            expected = op(np.ones(shape_a, dtype=a), np.ones(shape_b, dtype=b)).astype(res)
            check(out, expected)


@pytest.mark.parametrize("a,b", PAIRS)
def test_inplace_operators(a, b):
    """x op= y works (and keeps x's dtype, writing into x) exactly when the
    promoted dtype (the extension's for mixed kinds) is x's; otherwise
    strided.compat raises TypeError (the standard leaves that case to the
    implementation)."""
    want = EXTENDED[a, b]
    cases = []
    if want != "bool":
        cases += [(operator.iadd, operator.add), (operator.imul, operator.mul)]
    if kind(want) in ("bool", "int"):
        cases += [(operator.iand, operator.and_)]
    for iop, op in cases:
        x = arr(a, (3,))
        x_np = np_of(x)
        view = x[1:]
        y = arr(b, (3,))
        if want != a:
            with pytest.raises(TypeError):
                iop(x, y)
            check(x, x_np)  # untouched
            continue
        out = iop(x, y)
        assert out is x and x.dtype is DT[a]
        expected = op(x_np, np.ones(3, dtype=b)).astype(a)
        check(x, expected)
        check(view, expected[1:])
        z = arr(a, (3,))
        iop(z, arr(b, ()))  # 0-d right operand broadcasts
        check(z, expected)


@pytest.mark.parametrize("name,skind", SCALAR_CASES)
def test_operators_with_python_scalars(name, skind):
    """array op scalar, scalar op array, array op= scalar for every dtype and
    Python scalar type: the standard's dtype where it defines one, the
    extension's (numpy's) where it does not."""
    s = SCALARS[skind]
    k = kind(name)
    want = scalar_result(name, skind)
    if skind == "bool" and k != "bool":
        return  # unspecified and undocumented (see the result_type test)
    ops = {
        "bool": [operator.eq, operator.and_, operator.or_],
        "int": [operator.add, operator.mul, operator.eq, operator.and_],
        "float": [operator.add, operator.mul, operator.eq],
        "complex": [operator.add, operator.mul, operator.eq],
    }[k]
    iops = {
        operator.add: operator.iadd,
        operator.mul: operator.imul,
        operator.and_: operator.iand,
        operator.or_: operator.ior,
    }
    base = np.array([1, 0, 1], dtype=name)
    for op in ops:
        for x in (xp_of(base), xp_of(base[0])):  # 1-D and 0-d
            xn = np_of(x)
            if op in (operator.and_, operator.or_) and kind(want) not in ("bool", "int"):
                with pytest.raises(TypeError):  # bitwise of a floating result
                    op(x, s)
                with pytest.raises(TypeError):
                    op(s, x)
                continue
            res = "bool" if op is operator.eq else want
            sv = np.array(s, dtype=want)  # the scalar as a 0-d array
            check(op(x, s), op(xn.astype(want), sv).astype(res))
            check(op(s, x), op(sv, xn.astype(want)).astype(res))
        if op in iops:
            x = xp_of(base)
            if want == name:
                out = iops[op](x, s)
                assert out is x and x.dtype is DT[name]
                check(x, op(base, np.array(s, dtype=name)).astype(name))
            else:
                with pytest.raises(TypeError):
                    iops[op](x, s)


INT_BOUNDS = {n: (int(np.iinfo(n).min), int(np.iinfo(n).max)) for n in NAMES if kind(n) == "int"}


@pytest.mark.parametrize("name", sorted(INT_BOUNDS))
def test_integer_scalars_at_and_beyond_the_dtype_range(name):
    """In range (the bounds included) the scalar takes the array's dtype; out
    of range the standard leaves the behavior open and strided.compat raises
    OverflowError (docs/array-api.md) in every operator form."""
    lo, hi = INT_BOUNDS[name]
    zero = xp.zeros((2,), dtype=DT[name])
    check(zero + hi, np.full(2, hi, dtype=name))
    check(lo + zero, np.full(2, lo, dtype=name))
    check(zero == hi, np.zeros(2, dtype=bool))
    z = xp.zeros((2,), dtype=DT[name])
    z += hi
    check(z, np.full(2, hi, dtype=name))
    for v in (hi + 1, lo - 1, 2**64, -(2**63) - 1):
        if lo <= v <= hi:
            continue
        for f in (
            lambda: zero + v,
            lambda: v + zero,
            lambda: zero * v,
            lambda: zero == v,
            lambda: zero & v,
        ):
            with pytest.raises(OverflowError):
                f()
        with pytest.raises(OverflowError):
            z += v
    check(z, np.full(2, hi, dtype=name))  # untouched by the failed updates


def test_large_integer_scalars_with_floating_arrays():
    # "a Python int ... for real-valued floating-point array data types"
    check(xp.zeros((2,)) + 2**64, np.full(2, 2.0**64))
    check(xp.zeros((2,), dtype=xp.complex128) - 2**70, np.full(2, -(2.0**70) + 0j))
    check(xp.zeros((1,), dtype=xp.float32) + 2**24, np.full(1, 2.0**24, "float32"))


# ---------------------------------------------------------------- can_cast, isdtype
@pytest.mark.parametrize("a,b", PAIRS)
def test_can_cast_table(a, b):
    """can_cast(from, to) is True exactly when promoting from with to gives to
    (the standard's "according to type promotion rules"), for dtypes and for
    arrays; with the extension's pairs, numpy's safe casting (np.can_cast)."""
    want = EXTENDED[a, b] == b
    assert want is bool(np.can_cast(a, b))
    if (a, b) in PROMOTION:
        assert want is (PROMOTION[a, b] == b)
    assert xp.can_cast(DT[a], DT[b]) is want
    assert xp.can_cast(arr(a), DT[b]) is want
    assert xp.can_cast(arr(a, ()), DT[b]) is want


KIND_MEMBERS = {
    "bool": {"bool"},
    "signed integer": {"int8", "int16", "int32", "int64"},
    "unsigned integer": {"uint8", "uint16", "uint32", "uint64"},
    "integral": {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"},
    "real floating": {"float32", "float64"},
    "complex floating": {"complex64", "complex128"},
}
KIND_MEMBERS["numeric"] = (
    KIND_MEMBERS["integral"] | KIND_MEMBERS["real floating"] | KIND_MEMBERS["complex floating"]
)


@pytest.mark.parametrize("name", NAMES)
def test_isdtype_kinds(name):
    dt = DT[name]
    for k, members in KIND_MEMBERS.items():
        assert xp.isdtype(dt, k) is (name in members), (name, k)
    for other in NAMES:
        assert xp.isdtype(dt, DT[other]) is (name == other)
    # tuples: a union of kinds and dtypes
    for k1, k2 in itertools.combinations(KIND_MEMBERS, 2):
        assert xp.isdtype(dt, (k1, k2)) is (name in KIND_MEMBERS[k1] | KIND_MEMBERS[k2])
    for other in NAMES:
        for k in KIND_MEMBERS:
            assert xp.isdtype(dt, (DT[other], k)) is (name == other or name in KIND_MEMBERS[k])
    assert xp.isdtype(dt, ("bool", "numeric")) is True
    assert xp.isdtype(dt, ()) is False
    with pytest.raises(ValueError):
        xp.isdtype(dt, "floats")
    with pytest.raises(ValueError):
        xp.isdtype(dt, ("real", "numeric"))


# ---------------------------------------------------------------- finfo, iinfo
FLOATS = ["float32", "float64", "complex64", "complex128"]
REAL_OF = {
    "float32": "float32",
    "float64": "float64",
    "complex64": "float32",
    "complex128": "float64",
}


@pytest.mark.parametrize("name", FLOATS)
def test_finfo(name):
    g = np.finfo(name)
    for arg in (DT[name], arr(name), arr(name, ()), arr(name).dtype):
        f = xp.finfo(arg)
        assert type(f.bits) is int and f.bits == g.bits
        for field in ("eps", "max", "min", "smallest_normal"):
            v = getattr(f, field)
            assert type(v) is float, (field, type(v))
            assert v == float(getattr(g, field)), field
        assert f.dtype is DT[REAL_OF[name]]
        assert f.min == -f.max and f.eps == 2.0 ** -np.finfo(REAL_OF[name]).nmant
    with pytest.raises(TypeError):
        xp.finfo(xp.int32)


@pytest.mark.parametrize("name", sorted(INT_BOUNDS))
def test_iinfo(name):
    g = np.iinfo(name)
    for arg in (DT[name], arr(name), arr(name, ()), arr(name).dtype):
        i = xp.iinfo(arg)
        assert type(i.bits) is int and type(i.min) is int and type(i.max) is int
        assert (i.bits, i.min, i.max) == (g.bits, int(g.min), int(g.max))
        assert i.dtype is DT[name]
    with pytest.raises(TypeError):
        xp.iinfo(xp.float32)
    with pytest.raises(TypeError):
        xp.iinfo(xp.bool)


# ---------------------------------------------------------------- inspection
def test_info():
    info = xp.__array_namespace_info__()
    assert info.default_device() == "cpu" and info.devices() == (info.default_device(),)
    assert info.default_dtypes()["real floating"] is xp.float64
    assert info.default_dtypes()["indexing"] is xp.int64
    assert set(info.dtypes()) == set(NAMES)
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {
        "bool",
        "complex64",
        "complex128",
    }
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    with pytest.raises(ValueError):
        info.dtypes(device="cuda")

"""The op table (strided/_c/inventory.py) against what was generated from
it (the C headers, compat's table and stub), what was compiled (the
kernels each row claims), and the faces that read it (compat's functions,
the Torch7 spec's elementwise forms)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import strided.compat as xp
from strided.core import base as _core, ops as _ops
from strided._c import inventory
from strided._c._strided import ffi, lib
from strided.compat import _elementwise_table
from strided.torch7 import spec

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "tools" / "gen_inventory.py"  # the generator: not in the package
C_DIR = Path(inventory.__file__).parent
COMPAT_DIR = ROOT / "compat"
GENERATED = [
    C_DIR / "strided.h",
    C_DIR / "st_op_names.h",
    C_DIR / "st_op_types.h",
    COMPAT_DIR / "_elementwise_table.py",
    COMPAT_DIR / "_elementwise.pyi",
]
# the dtypes of each type group a row names (inventory.GROUPS)
GROUP_DTYPES = {
    "bool": ["bool"],
    "int": ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"],
    "float": ["float32", "float64"],
    "complex": ["complex64", "complex128"],
}
FAMILY = {"unary": lib.ST_OPS_UNARY, "binary": lib.ST_OPS_BINARY, "reduce": lib.ST_OPS_REDUCE}
RESULT = {
    "unary": lib.st_unary_result,
    "binary": lib.st_binary_result,
    "reduce": lib.st_reduce_result,
}


def test_generated_files_are_current():
    r = subprocess.run([sys.executable, str(GEN), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("family", sorted(inventory.FAMILIES))
def test_lib_constants_match(family):
    prefix, ops = inventory.FAMILIES[family]
    assert getattr(lib, prefix + "COUNT") == len(ops)
    for code, op in enumerate(ops):
        assert getattr(lib, prefix + op.name.upper()) == code
    # and nothing in the header that the inventory does not list
    declared = {k for k in dir(lib) if k.startswith(prefix) and k != prefix + "COUNT"}
    assert declared == {prefix + op.name.upper() for op in ops}


@pytest.mark.parametrize("family", sorted(inventory.FAMILIES))
def test_compiled_names_and_kernels(family):
    _, ops = inventory.FAMILIES[family]
    for code, op in enumerate(ops):
        name = lib.st_op_name(FAMILY[family], code)
        assert name != ffi.NULL and ffi.string(name).decode() == (op.message or op.name)
        # every op has a kernel for some dtype: no name without an implementation
        assert any(RESULT[family](code, dt) >= 0 for dt in range(lib.ST_NTYPES)), op.name
    assert lib.st_op_name(FAMILY[family], len(ops)) == ffi.NULL
    assert lib.st_op_name(FAMILY[family], -1) == ffi.NULL


def test_python_maps_come_from_the_inventory():
    assert _ops.UNARY is inventory.UNARY
    assert _ops.BINARY is inventory.BINARY
    assert _ops.REDUCE is inventory.REDUCE
    assert _ops.UNARY["exp"] == lib.ST_U_EXP and _ops.REDUCE["sumsqdev"] == lib.ST_R_SUMSQDEV


@pytest.mark.parametrize(
    "stale, edit",
    [
        ("st_op_names.h", lambda t: t.replace('"exp"', '"exq"')),
        (
            "st_op_types.h",
            lambda t: t.replace(
                "#define ST_U_TYPES_SQRT (ST_GROUP_FLOAT | ", "#define ST_U_TYPES_SQRT ("
            ),
        ),
        ("_elementwise_table.py", lambda t: t.replace('"floating"', '"numeric"', 1)),
        ("_elementwise.pyi", lambda t: t.replace("def exp(x: Array", "def exp(x: object")),
    ],
)
def test_check_mode_detects_a_stale_file(tmp_path, stale, edit):
    spec_dir = tmp_path / "c"
    spec_dir.mkdir()
    for path in [C_DIR / "inventory.py"] + GENERATED:
        (spec_dir / path.name).write_text(path.read_text())
    r = subprocess.run(
        [sys.executable, str(GEN), "--check", "--dir", str(spec_dir)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    path = spec_dir / stale
    text = path.read_text()
    assert edit(text) != text
    path.write_text(edit(text))
    r = subprocess.run(
        [sys.executable, str(GEN), "--check", "--dir", str(spec_dir)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1 and stale in r.stderr


# ---------------------------------------------------------------- the rows' types


def _family_result(family):
    return lib.st_unary_result if family == "unary" else lib.st_binary_result


@pytest.mark.parametrize("family", ["unary", "binary"])
def test_each_row_names_exactly_the_types_with_kernels(family):
    """A row's types are the groups C has kernels for: elementwise.c's
    _Static_asserts hold that it names every group of a kernel, this that it
    names no group without one (every dtype of the group has a kernel)."""
    _, ops = inventory.FAMILIES[family]
    result = _family_result(family)
    for code, op in enumerate(ops):
        for group, names in GROUP_DTYPES.items():
            has = [result(code, _core.dtype(n).code) >= 0 for n in names]
            claimed = group in op.types.split()
            assert has == [claimed] * len(names), (op.name, group, has)


def _compile_elementwise(where):
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    return subprocess.run(
        [
            cc,
            "-std=gnu11",
            "-fsyntax-only",
            "-I",
            str(where),
            "-I",
            str(C_DIR),
            str(where / "elementwise.c"),
        ],
        capture_output=True,
        text=True,
    )


def test_a_row_that_lies_does_not_compile(tmp_path):
    """elementwise.c's kernel lists against st_op_types.h (the rows): the
    file compiles as it is, and not when a row leaves out a group of its
    kernels (sqrt's complex)."""
    for name in ("elementwise.c", "st_op_types.h"):
        shutil.copy(C_DIR / name, tmp_path / name)
    r = _compile_elementwise(tmp_path)
    assert r.returncode == 0, r.stderr
    types = tmp_path / "st_op_types.h"
    types.write_text(
        types.read_text().replace(
            "#define ST_U_TYPES_SQRT (ST_GROUP_FLOAT | ST_GROUP_COMPLEX)",
            "#define ST_U_TYPES_SQRT (ST_GROUP_FLOAT)",
        )
    )
    r = _compile_elementwise(tmp_path)
    assert r.returncode != 0 and "the row of SQRT lacks the COMPLEX group" in r.stderr


# ---------------------------------------------------------------- the faces


def test_compat_functions_are_the_rows_in_the_standard():
    for family, table in (
        ("unary", _elementwise_table.UNARY),
        ("binary", _elementwise_table.BINARY),
    ):
        _, ops = inventory.FAMILIES[family]
        rows = {
            op.api or op.name: (op.name, op.category, code, op.doc)
            for code, op in enumerate(ops)
            if op.category is not None
        }
        assert table == rows
        for name, (op, _, code, doc) in table.items():
            assert code == (_ops.UNARY if family == "unary" else _ops.BINARY)[op]
            f = getattr(xp, name)
            assert f.__name__ == name and f.__doc__.startswith(doc.split()[0])
            assert f"``{op}``" in f.__doc__


def test_torch7_names_are_spec_entries_that_run_them():
    """Every Torch7 name of a row is an entry of the spec with an elementwise
    form naming it, and every such form's name is in some row."""
    named = {}
    for e in spec.ENTRIES:
        for f in e.forms + (e.method_forms or []):
            if f.op is not None:
                assert f.op.name == e.name
                named[e.name] = f.op.kind
    assert set(named) == set(inventory.TORCH7)
    for name, kind in named.items():
        family, _ = inventory.TORCH7[name]
        assert family == ("unary" if kind == "unary" else "binary"), name


@pytest.mark.parametrize(
    "name, dt, op",
    [
        ("div", "float64", "divide"),
        ("div", "int32", "trunc_divide"),
        ("cdiv", "uint8", "trunc_divide"),
        ("cmul", "float32", "multiply"),
        ("bitand", "int64", "bitwise_and"),
        ("bitand", "float64", None),
        ("remainder", "float64", "torch7_remainder"),
        ("neg", "int8", "negative"),
        ("sqrt", "float32", "sqrt"),
    ],
)
def test_torch7_core_op_is_the_first_row_with_a_kernel(name, dt, op):
    from strided.torch7.core_ops import core_op

    assert core_op(name, dt) == op

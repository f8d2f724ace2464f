"""The op inventory (strided/_c/inventory.py) against what was generated
from it and what was compiled."""
import subprocess
import sys
from pathlib import Path

import pytest

from strided.core import ops as _ops
from strided._c import inventory
from strided._c._strided import ffi, lib

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "tools" / "gen_inventory.py"      # the generator: not in the package
C_DIR = Path(inventory.__file__).parent
FAMILY = {"unary": lib.ST_OPS_UNARY, "binary": lib.ST_OPS_BINARY, "reduce": lib.ST_OPS_REDUCE}
RESULT = {"unary": lib.st_unary_result, "binary": lib.st_binary_result,
          "reduce": lib.st_reduce_result}


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


def test_check_mode_detects_a_stale_file(tmp_path):
    spec_dir = tmp_path / "c"
    spec_dir.mkdir()
    for name in ("inventory.py", "strided.h", "st_op_names.h"):
        (spec_dir / name).write_text((C_DIR / name).read_text())
    names = spec_dir / "st_op_names.h"
    names.write_text(names.read_text().replace('"exp"', '"exq"'))
    r = subprocess.run([sys.executable, str(GEN), "--check", "--dir", str(spec_dir)],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "st_op_names.h" in r.stderr

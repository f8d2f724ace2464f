"""Annotations: every public function and class member of strided.compat
(and of its linalg and fft extensions) is annotated as a type checker
sees it (a def with every parameter and the return annotated, at module
level, in an `if TYPE_CHECKING:` block, or in the stub of a module whose
functions are made from a table: compat/_elementwise.pyi, generated from
the op table), py.typed and that stub are shipped, and the typed user code of tests/typing runs.
The type check itself is .ci/types (mypy --strict)."""

import ast
import pathlib
import runpy

import pytest

from tools import api_pages as _api

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _defs(tree):
    """Every function a type checker sees at module level or in a class
    body, TYPE_CHECKING blocks included: {(class or None, name): node}."""
    out = {}

    def walk(body, cls):
        for node in body:
            if isinstance(node, ast.FunctionDef):
                out.setdefault((cls, node.name), node)
            elif isinstance(node, ast.ClassDef) and cls is None:
                walk(node.body, node.name)
            elif isinstance(node, ast.If):
                walk(node.body, cls)
                walk(node.orelse, cls)

    walk(tree.body, None)
    return out


DEFS = {}
# a stub first: a type checker reads it instead of its module
for path in sorted((ROOT / "compat").glob("*.pyi")) + sorted((ROOT / "compat").glob("*.py")):
    for key, node in _defs(ast.parse(path.read_text())).items():
        DEFS.setdefault(key, node)


def _complete(node):
    a = node.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]
    params = [p for p in params if p.arg not in ("self", "cls")]
    return node.returns is not None and all(p.annotation is not None for p in params)


def _public_functions():
    for module in ("strided.compat", "strided.compat.linalg", "strided.compat.fft"):
        for qual, obj in _api.objects(module):
            if callable(obj) and not isinstance(obj, type):
                yield qual, obj.__name__


def annotation_coverage():
    """(annotated, total, the names short of it) over strided.compat's public
    functions and the Array's public methods and properties."""
    names = [(q, (None, n)) for q, n in _public_functions()]
    from strided.compat import Array

    names += [
        (f"strided.compat.Array.{n}", ("Array", n))
        for n in dir(Array)
        if not n.startswith("_") or n in ("__add__", "__getitem__", "__eq__", "__bool__")
    ]
    bad = [
        q
        for q, key in names
        if key in DEFS
        and not _complete(DEFS[key])
        or key not in DEFS
        and not isinstance(getattr(Array, key[1], None), int)
    ]
    return len(names) - len(bad), len(names), bad


def test_every_public_function_of_the_array_api_face_is_annotated():
    done, total, bad = annotation_coverage()
    assert not bad, f"{done}/{total} annotated; not: {bad}"


def test_py_typed_is_shipped():
    assert (ROOT / "strided" / "py.typed").exists() and (ROOT / "compat" / "py.typed").exists()
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["tool"]["setuptools"]["package-data"]["strided"] == ["py.typed", "__init__.pyi"]
    assert data["tool"]["setuptools"]["package-data"]["strided.compat"] == [
        "py.typed",
        "_elementwise.pyi",
    ]


def test_the_typed_user_code_runs(capsys):
    runpy.run_path(str(ROOT / "tests" / "typing" / "generic_user.py"), run_name="__main__")
    assert "(4, 3)" in capsys.readouterr().out


def test_the_typed_torch7_code_runs(capsys):
    runpy.run_path(str(ROOT / "tests" / "typing" / "torch7_user.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "[torch.LongStorage of size 2] 2 2 True True" in out
    assert "[4.0, 6.0] 4 9 True 1 ['real', 'sys', 'user']" in out

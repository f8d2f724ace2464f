"""The import rule (docs/architecture.md): layers go one way.

strided._c is the C core; strided.core the internal layer over it, which
imports no face; each face (strided.torch7, strided.compat) imports
strided.core only; the faces meet in strided.interop alone.  Every import
statement of every module is read from its AST, function-level imports
included, relative imports resolved."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {"strided": ROOT / "strided", "strided.compat": ROOT / "compat"}

# layer of a module -> the strided layers it may import (besides itself,
# the standard library and third-party packages)
ALLOWED = {
    "c": {"c"},
    "core": {"c", "core"},
    "torch7": {"core", "torch7"},
    "compat": {"core", "compat"},
    "interop": {"core", "torch7", "compat"},
    # the package itself re-exports the Torch7 face; the import shims for
    # old pickles name its modules; the tour shows everything
    "top": {"c", "core", "torch7", "compat", "interop", "top"},
}


def layer(module):
    parts = module.split(".")
    if parts[0] != "strided":
        return None
    if len(parts) == 1:
        return "top"
    head = parts[1]
    if head == "_c":
        return "c"
    if head in ("core", "torch7", "compat", "interop"):
        return head
    return "top"     # strided.__main__ and the pickle shims strided._core, ...


def modules():
    for pkg, base in PACKAGES.items():
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if pkg == "strided" and parts[:1] == ["compat"]:
                continue     # an untracked link to compat/ in some work trees
            yield ".".join([pkg, *parts]), path, path.name == "__init__.py"


def imports(module, path, is_pkg):
    tree = ast.parse(path.read_text(), str(path))
    package = module if is_pkg else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            # `from strided import x` may name a submodule: check each
            for a in node.names:
                sub = f"{target}.{a.name}"
                yield node.lineno, sub if layer(sub) not in (None, "top") else target


ALL = list(modules())


def test_the_walk_sees_every_layer():
    layers = {layer(m) for m, _, _ in ALL}
    assert {"c", "core", "torch7", "compat", "interop", "top"} <= layers


@pytest.mark.parametrize("module,path,is_pkg", ALL, ids=[m for m, _, _ in ALL])
def test_imports_go_one_way(module, path, is_pkg):
    mine = layer(module)
    bad = [f"line {line}: {target} ({layer(target)})"
           for line, target in imports(module, path, is_pkg)
           if layer(target) is not None and layer(target) not in ALLOWED[mine]]
    assert not bad, f"{module} ({mine} layer) imports upward or sideways: {bad}"


def test_an_upward_import_is_caught(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from ..torch7 import tensor\n    import strided.compat\n")
    found = [t for _, t in imports("strided.core.m", src, False)]
    assert found == ["strided.torch7.tensor", "strided.compat"]
    assert all(layer(t) not in ALLOWED["core"] for t in found)

"""The import rule (docs/architecture.md): layers go one way.

strided._c is the C core; strided.core the internal layer over it, which
imports no face; each face (strided.torch7, strided.compat) imports
strided.core only; the faces meet in strided.interop alone.  Every import
statement of every module is read from its AST, function-level imports
included, relative imports resolved."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = {"strided": ROOT / "strided", "strided.compat": ROOT / "compat"}

# layer of a module -> the strided layers it may import (besides itself,
# the standard library and third-party packages)
ALLOWED = {
    "c": {"c"},
    "core": {"c", "core"},
    "torch7": {"core", "torch7"},
    "compat": {"core", "compat"},
    "interop": {"core", "torch7", "compat"},
    # the package itself re-exports the Torch7 face; the tour shows everything
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
    return "top"  # strided.__main__, strided.memory


def modules():
    for pkg, base in PACKAGES.items():
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if pkg == "strided" and parts[:1] == ["compat"]:
                continue  # an untracked link to compat/ in some work trees
            yield ".".join([pkg, *parts]), path, path.name == "__init__.py"


def _import_nodes(tree):
    """Every import statement with where it stands: (node, in a function,
    under `if TYPE_CHECKING:`)."""

    def walk(node, in_function, typing_only):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function, typing_only
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.dump(child.test):
                for part in child.body:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), in_function, True)
                for part in child.orelse:
                    yield from walk(
                        ast.Module(body=[part], type_ignores=[]), in_function, typing_only
                    )
            else:
                yield from walk(
                    child,
                    in_function
                    or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                    typing_only,
                )

    yield from walk(tree, False, False)


def imports(module, path, is_pkg, *, where=False):
    """(line, module imported) of every import statement; with where,
    (line, module, in a function, under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if is_pkg else module.rpartition(".")[0]
    for node, in_function, typing_only in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            # `from strided import x` may name a submodule: check each
            targets = []
            for a in node.names:
                sub = f"{target}.{a.name}"
                targets.append(sub if layer(sub) not in (None, "top") else target)
        for t in targets:
            yield (node.lineno, t, in_function, typing_only) if where else (node.lineno, t)


ALL = list(modules())


def test_the_walk_sees_every_layer():
    layers = {layer(m) for m, _, _ in ALL}
    assert {"c", "core", "torch7", "compat", "interop", "top"} <= layers


@pytest.mark.parametrize("module,path,is_pkg", ALL, ids=[m for m, _, _ in ALL])
def test_imports_go_one_way(module, path, is_pkg):
    mine = layer(module)
    bad = [
        f"line {line}: {target} ({layer(target)})"
        for line, target in imports(module, path, is_pkg)
        if layer(target) is not None and layer(target) not in ALLOWED[mine]
    ]
    assert not bad, f"{module} ({mine} layer) imports upward or sideways: {bad}"


def test_an_upward_import_is_caught(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from ..torch7 import tensor\n    import strided.compat\n")
    found = [t for _, t in imports("strided.core.m", src, False)]
    assert found == ["strided.torch7.tensor", "strided.compat"]
    assert all(layer(t) not in ALLOWED["core"] for t in found)


# -------------------------------------------------------------- circles
# Within a face, modules import one way too: no circle of imports among
# them, function-level imports included (a function-level import that
# closes a circle is one the module order hides, not one that is gone).
# Not edges: imports under `if TYPE_CHECKING:` (they never run), and a
# function-level import of the face's package itself (`import
# strided.compat` in __array_namespace__: the namespace the package makes
# of its modules is what the function returns, and it is complete by then).
FACES = {"torch7": "strided.torch7", "compat": "strided.compat"}
MODULES = {m: (path, is_pkg) for m, path, is_pkg in ALL}
# No circle is allowed (the .t7 codec is t7format.py, apart from the File
# classes of files.py and the API of t7file.py).
ALLOWED_CIRCLES: set[frozenset[str]] = set()


def face_graph(face):
    """module -> {module it imports: first line} among the face's modules."""
    graph = {}
    for m, (path, is_pkg) in MODULES.items():
        if layer(m) != face:
            continue
        edges = graph.setdefault(m, {})
        for line, t, in_function, typing_only in imports(m, path, is_pkg, where=True):
            while t and t not in MODULES:  # `from .x import name`: module x
                t = t.rpartition(".")[0]
            if (
                typing_only
                or not t
                or t == m
                or layer(t) != face
                or (in_function and t == FACES[face])
            ):
                continue
            edges.setdefault(t, line)
    return graph


def circles(graph):
    """Each import a -> b that lies on a circle (b reaches a), as text."""

    def reach(a):
        seen, todo = set(), [a]
        while todo:
            for b in graph.get(todo.pop(), ()):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    reached = {m: reach(m) for m in graph}
    return [
        f"{a} -> {b} (line {line})"
        for a in sorted(graph)
        for b, line in graph[a].items()
        if a in reached[b]
    ]


def _allowed(edge_text):
    a, _, rest = edge_text.partition(" -> ")
    return frozenset({a, rest.split(" ")[0]}) in ALLOWED_CIRCLES


@pytest.mark.parametrize("face", sorted(FACES))
def test_no_import_circle_within_a_face(face):
    found = [e for e in circles(face_graph(face)) if not _allowed(e)]
    assert not found, f"imports in a circle among {FACES[face]}'s modules: {found}"


def test_a_circle_is_caught(tmp_path):
    graph = {"a": {"b": 3}, "b": {"c": 9}, "c": {"a": 12}, "d": {"a": 1}}
    assert circles(graph) == ["a -> b (line 3)", "b -> c (line 9)", "c -> a (line 12)"]
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from .forms import Arg\ndef f():\n    from .fuse import g\n"
    )
    found = list(imports("strided.torch7.m", src, False, where=True))
    assert [(t, f, c) for _, t, f, c in found] == [
        ("typing", False, False),
        ("strided.torch7.forms.Arg", False, True),
        ("strided.torch7.fuse.g", True, False),
    ]


# -------------------------------------------------------------- C through the core only
# A face reaches the C library only through strided.core's functions (the
# storage handle: strided/core/storage.py): no face module imports the cffi
# objects `lib`/`ffi` (from strided._c or as re-exported by strided.core)
# nor reads them as an attribute of a module (`_core.lib.X`).
# No face module is exempt.
C_USE_PENDING: set[str] = set()


def c_uses(path):
    """(line, what) of every import or attribute read of lib/ffi."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name in ("lib", "ffi"):
                    yield node.lineno, f"imports {a.name} from {node.module or '.'}"
        elif isinstance(node, ast.Attribute) and node.attr in ("lib", "ffi"):
            yield node.lineno, f"reads .{node.attr}"


FACE_MODULES = [
    (m, path)
    for m, path, _ in ALL
    if layer(m) in ("torch7", "compat", "interop") and m not in C_USE_PENDING
]


@pytest.mark.parametrize("module,path", FACE_MODULES, ids=[m for m, _ in FACE_MODULES])
def test_faces_reach_c_only_through_the_core(module, path):
    found = [f"line {line}: {what}" for line, what in c_uses(path)]
    assert not found, f"{module} uses the C library directly: {found}"


def test_a_direct_c_use_is_caught(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "from ..core.base import ffi, check\nimport strided.core.base as b\nx = b.lib.ST_MAX_DIMS\n"
    )
    assert [w for _, w in c_uses(src)] == ["imports ffi from core.base", "reads .lib"]

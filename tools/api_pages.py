"""The public names of both faces, in one place: the API reference pages
of the documentation site (docs/api/*.md) are written from them
(`python -m tools.api_pages docs/api`; tests/project/test_docs.py checks that the
committed pages are current), and the docstring and annotation coverage
tests enumerate them.

A public name of the Torch7 face is one of `strided.__all__` (the torch.*
functions of the spec table, the tensor, storage, file and utility
classes); of the array API face, one of `__all__` of `strided.compat`, of
`strided.compat.linalg` and of `strided.compat.fft`; and the two functions
of `strided.interop`.  Public methods are those of the classes listed here
whose names do not start with an underscore."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import strided
import strided.compat
import strided.compat.fft
import strided.compat.linalg
import strided.interop

MODULES: dict[str, ModuleType] = {
    "strided": strided,
    "strided.compat": strided.compat,
    "strided.compat.linalg": strided.compat.linalg,
    "strided.compat.fft": strided.compat.fft,
    "strided.interop": strided.interop,
}


def names(module: str) -> list[str]:
    """The public names of one of MODULES."""
    if module == "strided.interop":
        return ["to_array", "to_tensor"]
    return sorted(MODULES[module].__all__)


def objects(module: str) -> Iterator[tuple[str, Any]]:
    """(qualified name, object) of each public name of a module that is a
    function or a class (constants, dtypes and submodules are not)."""
    for name in names(module):
        obj = getattr(MODULES[module], name)
        if inspect.isroutine(obj) or inspect.isclass(obj):
            yield f"{module}.{name}", obj


def classes() -> Iterator[tuple[str, type]]:
    """The classes whose methods are public: each defining class once
    (the typed tensor and storage classes share their base's methods)."""
    # (modules by their full path: strided.torch7.storage, say, is also the
    # name of the torch.storage function in the package)
    from strided.core.rng import Generator
    from strided.torch7.files import File
    from strided.torch7.storage import Storage
    from strided.torch7.tensor import Tensor
    from strided.torch7.utility import Timer

    yield "strided.Tensor", Tensor
    yield "strided.DoubleTensor", strided.DoubleTensor  # the spec's methods
    yield "strided.Storage", Storage
    yield "strided.DiskFile", File
    yield "strided.Timer", Timer
    yield "strided.Generator", Generator
    yield "strided.compat.Array", strided.compat.Array


def methods(cls: type) -> Iterator[tuple[str, Any]]:
    """(name, function) of the public methods and properties a class
    defines itself (inherited ones belong to the base)."""
    for name, obj in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        if inspect.isfunction(obj) or isinstance(obj, property):
            yield name, obj


def everything() -> Iterator[tuple[str, Any]]:
    """Every public function, class, method and property of both faces."""
    for module in MODULES:
        yield from objects(module)
    for qual, cls in classes():
        for name, obj in methods(cls):
            yield f"{qual}.{name}", obj


# ---------------------------------------------------------------- docstring coverage

SECTIONS = ("Parameters", "Returns", "Raises", "Notes", "Examples")


def _has(doc: str, section: str) -> bool:
    return f"\n{section}\n{'-' * len(section)}\n" in f"\n{doc}\n"


def missing_sections(obj: Any) -> list[str]:
    """The numpy-style sections obj's docstring lacks: every public
    function and class has a summary, Parameters (unless it takes none),
    Returns (functions), Raises, Notes and Examples (with a `>>>` line)."""
    doc = inspect.cleandoc(obj.__doc__ or "") if isinstance(obj.__doc__, str) else ""
    if not doc:
        return ["docstring"]
    need = list(SECTIONS)
    if inspect.isclass(obj):
        need.remove("Returns")
    try:
        takes = any(
            p.name not in ("self", "cls") for p in inspect.signature(obj).parameters.values()
        )
    except (TypeError, ValueError):
        takes = True  # no signature to read: ask for the section
    if not takes:
        need.remove("Parameters")
    out = [s for s in need if not _has(doc, s)]
    if "Examples" not in out and ">>>" not in doc:
        out.append("Examples")
    return out


def coverage() -> dict[str, tuple[int, int, list[str]]]:
    """Per group, (documented, total, the names short of it): the public
    functions and classes (numpy style in full), and the public methods
    (a docstring)."""
    out = {}
    for module in MODULES:
        objs = list(objects(module))
        bad = [q for q, o in objs if missing_sections(o)]
        out[module] = (len(objs) - len(bad), len(objs), bad)
    meths = [(f"{q}.{n}", o) for q, c in classes() for n, o in methods(c)]
    bad = [q for q, o in meths if not (getattr(o, "__doc__", None) or "").strip()]
    out["methods"] = (len(meths) - len(bad), len(meths), bad)
    return out


# ---------------------------------------------------------------- the API pages

_COMPAT_GROUPS = {
    "_creation": "Creation functions",
    "_elementwise": "Elementwise functions",
    "_clip": "Elementwise functions",
    "_data_type_functions": "Data type functions",
    "_manipulation": "Manipulation functions",
    "_indexing": "Indexing functions",
    "_searching": "Searching functions",
    "_set": "Set functions",
    "_sorting": "Sorting functions",
    "_statistical": "Statistical functions",
    "_linalg": "Linear algebra functions",
    "_more": "Utility and other functions",
    "_interop": "Interchange (DLPack)",
    "_info": "Inspection",
    "_array": "The array object",
    "_fuse": "Fused expressions (strided's own)",
}


def _compat_page() -> str:
    lines = [
        "# `strided.compat`: the array API namespace",
        "",
        "Generated by `python -m tools.api_pages docs/api` from `strided.compat.__all__`;",
        "do not edit.  Every public function and class of the namespace, grouped by",
        "the module of `compat/` that defines it, with its docstring.  The",
        "[array API face's guide](../array-api.md) tells the choices made; the",
        "extensions have pages of their own: [linalg](compat-linalg.md),",
        "[fft](compat-fft.md).",
        "",
    ]
    xp = strided.compat
    groups: dict[str, list[str]] = {}
    constants = []
    for name in names("strided.compat"):
        obj = getattr(xp, name)
        if isinstance(obj, ModuleType):
            continue
        if not (inspect.isroutine(obj) or inspect.isclass(obj)):
            constants.append(name)
            continue
        mod = obj.__module__.rpartition(".")[2]
        groups.setdefault(_COMPAT_GROUPS.get(mod, mod), []).append(name)
    titles = list(dict.fromkeys(_COMPAT_GROUPS.values()))
    order = [t for t in titles if t in groups] + sorted(set(groups) - set(titles))
    for title in order:
        lines += [f"## {title}", ""]
        for name in sorted(groups[title]):
            lines += [f"::: strided.compat.{name}", ""]  # the public path: its anchor
    lines += ["## Constants and data types", "", "| name | value |", "|---|---|"]
    for name in constants:
        lines.append(f"| `{name}` | `{getattr(xp, name)!r}` |")
    lines.append("")
    return "\n".join(lines)


def _where(obj: Any) -> str:
    """The path of the module and name that define obj (what the
    documentation tool loads; the public name is an alias of it)."""
    return f"{obj.__module__}.{obj.__qualname__}"


def _module_page(module: str, title: str, intro: str) -> str:
    lines = [
        f"# `{module}`: {title}",
        "",
        "Generated by `python -m tools.api_pages docs/api`; do not edit.",
        "",
        intro,
        "",
    ]
    for qual, _ in objects(module):
        lines += [f"::: {qual}", ""]  # the public path: its anchor
    return "\n".join(lines)


def _classes_page() -> str:
    lines = [
        "# Torch7 classes",
        "",
        "Generated by `python -m tools.api_pages docs/api`; do not edit.  The torch.*",
        "functions and the methods the spec table declares are in the",
        "[function reference](../torch7-reference.md); here are the classes with",
        "their own methods.  `strided.Tensor` and `strided.Storage` are the default",
        "type's classes (DoubleTensor unless `setdefaulttensortype` changed it); the",
        "typed classes share the methods of their base.  `torch.Generator`, the",
        "random generator, is in the function reference (*Random*).",
        "",
        "| class | element type |",
        "|---|---|",
    ]
    for name in names("strided"):
        obj = getattr(strided, name)
        if (
            inspect.isclass(obj)
            and name.endswith(("Tensor", "Storage"))
            and name not in ("Tensor", "Storage")
        ):
            dt = getattr(obj, "_dt", None) or getattr(obj, "_dtype", None)
            lines.append(f"| `torch.{name}` | {getattr(dt, 'name', dt) or ''} |")
    lines.append("")
    from strided.torch7.files import File
    from strided.torch7.storage import Storage
    from strided.torch7.tensor import Tensor

    for qual, obj in [
        ("Tensor", Tensor),
        ("Storage", Storage),
        ("DiskFile", strided.DiskFile),
        ("MemoryFile", strided.MemoryFile),
        ("PipeFile", strided.PipeFile),
        ("File methods", File),
        ("Timer", strided.Timer),
    ]:
        lines += [f"## {qual}", "", f"::: {_where(obj)}"]
        if qual in ("DiskFile", "MemoryFile", "PipeFile"):
            # the constructor's parameters, which Python's signature of a
            # subclass of File does not always show
            lines += [
                "    options:",
                "      members: false",
                "      docstring_options:",
                "        warn_unknown_params: false",
            ]
        lines.append("")
    return "\n".join(lines)


def pages() -> dict[str, str]:
    """File name (under docs/api) -> text of each generated page."""
    return {
        "compat.md": _compat_page(),
        "compat-linalg.md": _module_page(
            "strided.compat.linalg",
            "the linalg extension",
            "On BLAS and LAPACK (OpenBLAS from `scipy-openblas32`); the choices: "
            "[Linear algebra](../linalg.md).",
        ),
        "compat-fft.md": _module_page(
            "strided.compat.fft",
            "the fft extension",
            "Our own C (mixed radix, Bluestein, four-step); the choices: "
            "[Fourier transforms](../fft.md).",
        ),
        "interop.md": _module_page(
            "strided.interop",
            "between the two faces",
            "A Torch7 tensor and a `strided.compat` Array over the same memory, no copy; "
            "see [Interop](../interop.md).",
        ),
        "torch7-classes.md": _classes_page(),
    }


def main(argv: list[str]) -> int:
    if argv == ["--coverage"]:
        for group, (done, total, bad) in coverage().items():
            print(
                f"{group}: {done}/{total} ({100 * done / max(total, 1):.1f}%)"
                + (f"; short: {' '.join(bad)}" if bad else "")
            )
        return 0
    if len(argv) != 1:
        print(
            "usage: python -m tools.api_pages DIR  (writes the API pages into DIR)\n"
            "       python -m tools.api_pages --coverage  (the docstring coverage)",
            file=sys.stderr,
        )
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, text in pages().items():
        (out / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

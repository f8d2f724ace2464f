"""The documentation: the generated API pages (docs/api/*.md, from
tools/api_pages.py) are current, the public names they list are those of the
faces, and the site's navigation names every page (mkdocs.yml)."""

import pathlib
import re

import strided.compat as xp
from tools import api_pages as _api

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_api_pages_are_current():
    for name, text in _api.pages().items():
        assert (DOCS / "api" / name).read_text() == text, (
            f"docs/api/{name} is stale: python -m tools.api_pages docs/api"
        )


def test_compat_all_names_the_namespace():
    # __all__ is what a type checker and the reference see: a public name
    # missing from it would be missing from both
    public = {n for n in dir(xp) if not n.startswith("_")}
    assert public == set(xp.__all__) - {"__array_api_version__", "__array_namespace_info__"}


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    listed = set(re.findall(r"([\w/.-]+\.md)\s*$", nav, re.M))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert pages == listed


# ---------------------------------------------------------------- docstrings

import doctest  # noqa: E402
import math  # noqa: E402

import pytest  # noqa: E402

import strided  # noqa: E402

_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


class _Close(doctest.OutputChecker):
    """Exact text, except that numbers with a fraction compare to 1e-12
    relative: the kernels of the lower CPU levels (.ci/cpu-levels) and
    OpenBLAS's may differ from the recorded output in the last bit."""

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        if _NUMBER.sub("#", want) != _NUMBER.sub("#", got):
            return False
        return all(
            math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
            for a, b in zip(_NUMBER.findall(want), _NUMBER.findall(got))
        )


def _documented():
    seen = set()
    for qual, obj in _api.everything():
        doc = obj.__doc__ if isinstance(getattr(obj, "__doc__", None), str) else ""
        if ">>>" in doc and id(obj) not in seen:
            seen.add(id(obj))
            yield qual, doc


DOCUMENTED = list(_documented())


@pytest.mark.parametrize("qual,doc", DOCUMENTED, ids=[q for q, _ in DOCUMENTED])
def test_docstring_examples_run(qual, doc):
    before = strided.getdefaulttensortype()
    test = doctest.DocTestParser().get_doctest(doc, {}, qual, None, 0)
    runner = doctest.DocTestRunner(checker=_Close(), optionflags=doctest.ELLIPSIS)
    out = []
    try:
        runner.run(test, out=out.append, clear_globs=True)
    finally:
        strided.setdefaulttensortype(before)
    assert runner.failures == 0, "".join(out)


def test_every_public_name_has_a_numpy_docstring():
    # python -m tools.api_pages --coverage prints the same figures
    short = {group: bad for group, (_, _, bad) in _api.coverage().items() if bad}
    assert not short, short


# ---------------------------------------------------------------- code blocks
# Every ```python block of the README and docs/*.md runs as written, so no
# example can rot.  A block runs alone, in a fresh namespace, unless its
# first line is CONTINUES: then it runs in the namespace the blocks before
# it left.  A block that cannot run here (it needs a cluster, a Zarr store,
# a file of the reader's) starts with NOT_RUN and a reason.  A block
# followed by a "prints" line and a plain fenced block must print exactly
# that.  The optional libraries a block imports (Cubed, Dask, PyTorch)
# skip it when absent.

import contextlib  # noqa: E402
import io  # noqa: E402

CONTINUES = "# continues the block above"
NOT_RUN = "# not run:"
_FENCE = re.compile(r"^( *)```python\n(.*?)^\1```\n(?:\nprints\n\n```\n(.*?)```)?", re.M | re.S)
# (and, on Python 3.10, the peers whose pinned versions need 3.11: .ci/pythons)
_OPTIONAL = {
    "cubed",
    "distributed",
    "dask",
    "torch",
    "zarr",
    "sklearn",
    "array_api_extra",
    "xarray",
}


def _blocks():
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = path.read_text()
        for m in _FENCE.finditer(text):
            indent = len(m.group(1))
            code = "\n".join(line[indent:] for line in m.group(2).splitlines()) + "\n"
            line = text[: m.start()].count("\n") + 1
            yield f"{path.relative_to(ROOT)}:{line}", code, m.group(3)


BLOCKS = list(_blocks())


def test_blocks_are_found():
    names = {name.split(":")[0] for name, _, _ in BLOCKS}
    assert {"README.md", "docs/torch7.md", "docs/array-api.md", "docs/interop.md"} <= names
    assert sum(1 for _, _, printed in BLOCKS if printed) >= 2  # the README's two faces


def run_blocks():
    """Run BLOCKS in order; (failures, skipped) as lists of texts."""
    namespace, failures, skipped = {}, [], []
    for name, code, printed in BLOCKS:
        if code.startswith(NOT_RUN):
            skipped.append(name)
            continue
        if not code.startswith(CONTINUES):
            namespace = {"__name__": "__docs__"}
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, name, "exec"), namespace)
        except ModuleNotFoundError as e:
            if e.name and e.name.split(".")[0] in _OPTIONAL:
                skipped.append(f"{name} (needs {e.name})")
                namespace = {}
                continue
            failures.append(f"{name}: {type(e).__name__}: {e}")
        except Exception as e:  # every failure is reported
            failures.append(f"{name}: {type(e).__name__}: {e}")
        else:
            if printed is not None and out.getvalue() != printed:
                failures.append(f"{name}: printed\n{out.getvalue()}\ninstead of\n{printed}")
    return failures, skipped


def test_doc_code_blocks_run(tmp_path):
    # in a fresh interpreter, in a scratch directory: the blocks change
    # global state (torch.class_ registers a class name once per process,
    # setdefaulttensortype) and may write files
    import json
    import os
    import subprocess
    import sys

    # the repository root too: this file imports tools/ (the page generator)
    path = os.pathsep.join(
        p for p in (str(ROOT / "tests"), str(ROOT), os.environ.get("PYTHONPATH")) if p
    )
    # the repository's fixtures where a block reads them from its root
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    out = subprocess.run(
        [sys.executable, __file__],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    failures, skipped = json.loads(out.stdout.splitlines()[-1])
    assert not failures, "\n\n".join(failures)


if __name__ == "__main__":
    import json

    print(json.dumps(run_blocks()))

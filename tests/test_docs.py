"""The documentation: the generated API pages (docs/api/*.md, from
tools/api_pages.py) are current, the public names they list are those of the
faces, and the site's navigation names every page (mkdocs.yml)."""
import pathlib
import re

import strided.compat as xp
from tools import api_pages as _api

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_api_pages_are_current():
    for name, text in _api.pages().items():
        assert (DOCS / "api" / name).read_text() == text, (
            f"docs/api/{name} is stale: python -m tools.api_pages docs/api")


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
        return all(math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
                   for a, b in zip(_NUMBER.findall(want), _NUMBER.findall(got)))


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

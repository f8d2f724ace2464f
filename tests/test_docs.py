"""The documentation: the generated API pages (docs/api/*.md, from
strided/_api.py) are current, the public names they list are those of the
faces, and the site's navigation names every page (mkdocs.yml)."""
import pathlib
import re

import strided.compat as xp
from strided import _api

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_api_pages_are_current():
    for name, text in _api.pages().items():
        assert (DOCS / "api" / name).read_text() == text, (
            f"docs/api/{name} is stale: python -m strided._api docs/api")


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

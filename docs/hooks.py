"""mkdocs hook (mkdocs.yml): the pages are plain Markdown that GitHub
renders too.  Two things make them site pages:

- a line `--8<-- "FILE"` or `--8<-- "FILE:SECTION"` is replaced by that
  file of the repository, or by its lines between the markers
  `--8<-- [start:SECTION]` and `--8<-- [end:SECTION]` (the README's
  set-up and tables, benchmarks/README.md: included, never copied);
- links to files outside docs/ by their repository path (as GitHub reads
  them, from the page's own file) are mapped to the site pages that
  show those files.

Every other link is left to mkdocs' own checks (strict: a broken one fails
the build).

It also gives mkdocstrings a tree in which `strided.compat` is found: see
on_config."""

import re
import shutil
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent

# repository path, as written in the file it appears in -> site page
MAPPED = {
    "../benchmarks/README.md": "benchmarks.md",  # from docs/*.md
    "benchmarks/README.md": "benchmarks.md",  # from README.md
    "docs/performance.md": "performance.md",  # from README.md
}
# from benchmarks/README.md (included in docs/benchmarks.md): ../docs/X.md
_DOCS_PAGE = re.compile(r"^\.\./docs/([\w-]+\.md)$")
_LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")
_INCLUDE = re.compile(r'^--8<-- "([^":]+)(?::([\w-]+))?"\s*$', re.M)


def _section(path, name):
    text = (ROOT / path).read_text()
    if name is None:
        return text
    start = re.search(rf"--8<-- \[start:{name}\].*\n", text)
    end = re.search(rf".*--8<-- \[end:{name}\]", text)
    if not start or not end:
        raise ValueError(f"{path} has no section {name!r} (--8<-- [start:{name}] ... [end:{name}])")
    return text[start.end() : end.start()]


def _map_links(markdown):
    def fix(m):
        target, anchor = m.group(1), m.group(2) or ""
        page = MAPPED.get(target)
        if page is None and (docs_page := _DOCS_PAGE.match(target)):
            page = docs_page.group(1)
        return f"]({page}{anchor})" if page else m.group(0)

    return _LINK.sub(fix, markdown)


def on_page_markdown(markdown, page, config, files):
    markdown = _INCLUDE.sub(lambda m: _section(m.group(1), m.group(2)), markdown)
    return _map_links(markdown)


# mkdocs.yml's mkdocstrings `paths` entry
GRIFFE_TREE = ROOT / "build" / "docs-griffe"


@event_priority(100)  # before mkdocstrings reads its paths
def on_config(config):
    """strided.compat is the repository's compat/, placed inside the package
    by pyproject.toml's package-dir; griffe finds submodules by reading
    directories and does not see it under strided/.  A tree of links in
    build/ (the package's entries plus compat) shows it the installed
    layout."""
    package = GRIFFE_TREE / "strided"
    shutil.rmtree(GRIFFE_TREE, ignore_errors=True)
    package.mkdir(parents=True)
    for entry in (ROOT / "strided").iterdir():
        # (a worktree may link strided/compat itself: the one link is made below)
        if entry.name not in ("__pycache__", "compat"):
            (package / entry.name).symlink_to(entry)
    (package / "compat").symlink_to(ROOT / "compat")
    return config

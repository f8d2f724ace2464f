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
the build)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# repository path, as written in the file it appears in -> site page
MAPPED = {
    "../benchmarks/README.md": "benchmarks.md",     # from docs/*.md
    "benchmarks/README.md": "benchmarks.md",        # from README.md
    "docs/performance.md": "performance.md",        # from README.md
    "../docs/performance.md": "performance.md",     # from benchmarks/README.md
    "../docs/core-semantics.md": "core-semantics.md",
    "../docs/architecture.md": "architecture.md",
    "../docs/torch7.md": "torch7.md",
    "../docs/interop.md": "interop.md",
}
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
    return text[start.end():end.start()]


def _map_links(markdown):
    def fix(m):
        target, anchor = m.group(1), m.group(2) or ""
        return f"]({MAPPED[target]}{anchor})" if target in MAPPED else m.group(0)
    return _LINK.sub(fix, markdown)


def on_page_markdown(markdown, page, config, files):
    markdown = _INCLUDE.sub(lambda m: _section(m.group(1), m.group(2)), markdown)
    return _map_links(markdown)

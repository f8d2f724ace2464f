"""The reference of every Torch7 function, written from the spec table:
`python -m tools.torch7_reference docs` writes docs/torch7-reference.md
(the index: every section's table of forms) and one page per section,
docs/torch7-reference/<section>.md (its table and its functions'
docstrings), so that no page is too large to read
(tests/torch7/test_t7_spec.py checks that the committed pages are current)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from strided.torch7 import docstrings as _docstrings
from strided.torch7.spec import ALL, ENTRIES

# the Lua type names: the face's, and the 16-bit floats' (whose forms the
# reference lists too)
_SHORT = {**_docstrings._SHORT, "float16": "Half", "bfloat16": "BFloat16"}
INDEX = "torch7-reference.md"
FOLDER = "torch7-reference"
_HOW = [
    "`[x]` is an optional argument (left out, it takes its default: a new tensor",
    "for a result); `x...` any number of them.  `torch.f(...)` dispatches on the",
    "type of its first tensor argument; the method `x.f(...)` is Lua's `x:f(...)`.",
    "Types: the tensor types the function exists for.",
]


def _types(entry):
    if entry.types >= set(ALL):
        return "all"
    return ", ".join(_SHORT[t] for t in ALL if t in entry.types)


def _groups():
    groups = []
    for e in ENTRIES:
        if (e.group or "Other") not in groups:
            groups.append(e.group or "Other")
    return groups


def _slug(group):
    return re.sub(r"[^a-z0-9]+", "-", group.lower()).strip("-")


def _table(group, page):
    """The table of group's functions; page: where their docstrings are
    ("" on that page itself)."""
    lines = ["| function | forms | types |", "|---|---|---|"]
    for e in (e for e in ENTRIES if (e.group or "Other") == group):
        forms = []
        if e.function:
            forms.append(e.usage(False))
        if e.method:
            forms.append(e.usage(True))
        text = "` <br> `".join(forms).replace(" | ", "` <br> `")
        doc = e.doc.split("\n")[0].replace("|", "\\|").replace("[", "\\[")
        where = _where(e)
        name = f"[`{e.name}`]({page}#{where})" if where else f"`{e.name}`"
        lines.append(f"| {name} | `{text}` <br> {doc} | {_types(e)} |")
    return lines


def pages():
    """{path under docs/: text}: the index and one page per section."""
    index = [
        "# Torch7 function reference",
        "",
        "Generated from `strided/torch7/spec.py` by `python -m tools.torch7_reference",
        "docs`; do not edit.  Every Torch7 function by section, with its forms; each",
        "section's page has the functions' full docstrings (`help(torch.add)`).",
        "",
        *_HOW,
        "",
    ]
    out = {}
    for g in _groups():
        page = f"{FOLDER}/{_slug(g)}.md"
        index += [f"## [{g}]({page})", "", *_table(g, page), ""]
        lines = [
            f"# Torch7 functions: {g}",
            "",
            f"Generated from `strided/torch7/spec.py`; do not edit.  All sections: "
            f"[the Torch7 function reference](../{INDEX}).",
            "",
            *_HOW,
            "",
            *_table(g, ""),
            "",
        ]
        for e in (e for e in ENTRIES if (e.group or "Other") == g):
            path = _where(e)
            if path is None:
                continue
            lines += [
                f"::: {path}",
                "    options:",
                "      heading_level: 2",
                "      show_signature: false",
                # a list: the table's default column would read the
                # Python signature (*args), not the forms' optional slots
                "      docstring_section_style: list",
                # the forms, not the Python signature (*args), say what is taken
                "      docstring_options:",
                "        warn_unknown_params: false",
                "        warn_missing_types: false",
                "",
            ]
        out[page] = "\n".join(lines)
    out[INDEX] = "\n".join(index)
    return out


def _where(e):
    """The documentation tool's path to entry e's function: the generated
    ones live in strided.torch7, a utility in the module that defines it;
    None for the classes (their page is api/torch7-classes.md) and for what
    cannot be loaded by path (strided.core's Generator: help(torch.Generator))."""
    if not e.function:
        return None
    fn = e.direct
    if fn is None:
        # torch.storage shares its name with the module strided.torch7.storage,
        # which a path would name instead: its docstring is help(torch.storage)
        return None if e.name == "storage" else f"strided.torch7.{e.name}"
    if fn.__module__.startswith("strided.core") or isinstance(fn, type):
        return None  # classes: the Torch7 classes page
    return f"{fn.__module__}.{fn.__qualname__}"


if __name__ == "__main__":
    from strided.torch7 import functions  # noqa: F401  (registers the utility entries)

    docs = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    for old in (docs / FOLDER).glob("*.md"):
        old.unlink()
    for name, text in pages().items():
        (docs / name).parent.mkdir(exist_ok=True)
        (docs / name).write_text(text + "\n")

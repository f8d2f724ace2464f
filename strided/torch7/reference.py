"""The reference of every Torch7 function, written from the spec table:
`python -m strided.torch7.reference > docs/torch7-reference.md`
(tests/torch7/test_t7_spec.py checks that the committed page is current)."""
from __future__ import annotations

from .spec import ALL, ENTRIES

_SHORT = {"uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
          "float32": "Float", "float64": "Double"}


def _types(entry):
    if entry.types >= set(ALL):
        return "all"
    return ", ".join(_SHORT[t] for t in ALL if t in entry.types)


def page():
    lines = ["# Torch7 function reference", "",
             "Generated from `strided/torch7/spec.py` by `python -m strided.torch7.reference`;",
             "do not edit.  `[x]` is an optional argument (left out, it takes its default:",
             "a new tensor for a result); `x...` any number of them.  `torch.f(...)`",
             "dispatches on the type of its first tensor argument; `x:f(...)` is written",
             "`x.f(...)` in Python.  Types: the tensor types the function exists for.", ""]
    groups = []
    for e in ENTRIES:
        if e.group not in groups:
            groups.append(e.group)
    for g in groups:
        lines += [f"## {g or 'Other'}", "", "| function | forms | types |", "|---|---|---|"]
        for e in (e for e in ENTRIES if e.group == g):
            forms = []
            if e.function:
                forms.append(e.usage(False))
            if e.method:
                forms.append(e.usage(True))
            text = "` <br> `".join(forms).replace(" | ", "` <br> `")
            doc = e.doc.split("\n")[0].replace("|", "\\|").replace("[", "\\[")
            lines.append(f"| `{e.name}` | `{text}` <br> {doc} | {_types(e)} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    from . import functions  # noqa: F401  (registers the utility entries)
    print(page())

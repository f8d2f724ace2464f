"""The reference of every Torch7 function, written from the spec table:
`python -m tools.torch7_reference > docs/torch7-reference.md` (from the
repository's root)
(tests/torch7/test_t7_spec.py checks that the committed page is current)."""
from __future__ import annotations

from strided.torch7.spec import ALL, ENTRIES

_SHORT = {"uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
          "float32": "Float", "float64": "Double"}


def _types(entry):
    if entry.types >= set(ALL):
        return "all"
    return ", ".join(_SHORT[t] for t in ALL if t in entry.types)


def page():
    lines = ["# Torch7 function reference", "",
             "Generated from `strided/torch7/spec.py` by `python -m tools.torch7_reference`;",
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
            where = _where(e)
            name = f"[`{e.name}`](#{where})" if where else f"`{e.name}`"
            lines.append(f"| {name} | `{text}` <br> {doc} | {_types(e)} |")
        lines.append("")
    lines += ["## Every function, with its docstring", "",
              "The docstrings the functions carry (`help(torch.add)`), written from the spec",
              "entries (`strided/torch7/docstrings.py`) or, for the utilities, by hand.", ""]
    for e in ENTRIES:
        path = _where(e)
        if path is None:
            continue
        lines += [f"::: {path}", "    options:", "      heading_level: 3",
                  "      show_signature: false",
                  # a list: the table's default column would read the
                  # Python signature (*args), not the forms' optional slots
                  "      docstring_section_style: list",
                  # the forms, not the Python signature (*args), say what is taken
                  "      docstring_options:", "        warn_unknown_params: false",
                  "        warn_missing_types: false", ""]
    return "\n".join(lines)


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
        return None           # classes: the Torch7 classes page
    return f"{fn.__module__}.{fn.__qualname__}"


if __name__ == "__main__":
    from strided.torch7 import functions  # noqa: F401  (registers the utility entries)
    print(page())

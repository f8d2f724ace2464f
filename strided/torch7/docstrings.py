"""The docstrings of the generated Torch7 functions and methods, written
from their spec entries (spec.py) rather than by hand: the one-line
summary is the entry's `doc`, the forms and the parameters come from its
argument slots (forms.py), the types from its type list, and the example
from examples.py (run as a doctest by tests/project/test_docs.py).  numpy style:
Parameters, Returns, Raises, Notes, Examples."""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING

from .examples import EXAMPLES

if TYPE_CHECKING:
    from .forms import Arg, Entry

_SHORT = {
    "uint8": "Byte",
    "int8": "Char",
    "int16": "Short",
    "int32": "Int",
    "int64": "Long",
    "float32": "Float",
    "float64": "Double",
}
_ORDER = tuple(_SHORT)

# what a slot of each name is, whatever the function (the spec's names)
_PARAM = {
    "res": "The result, resized to fit and returned.  Left out: a new tensor of the "
    "dispatch type (in the method, x itself).",
    "res1": "The first result, resized to fit and returned (left out: a new tensor).",
    "res2": "The second result, resized to fit and returned (left out: a new tensor).",
    "res3": "The third result, resized to fit and returned (left out: a new tensor).",
    "indices": "The 1-based indices of the results, resized and returned (left out: a new "
    "LongTensor).",
    "tensor": "The source (in the method: x, when left out).",
    "tensor2": "The second operand, with as many elements as tensor.",
    "tensors": "The tensors, a list or tuple.",
    "value": "A number: converted to the element type (OverflowError if it does not fit).",
    "dim": "A dimension, counted from 1 as in Lua.",
    "generator": "A torch.Generator; left out: the default generator.",
    "A": "The matrix of the LAPACK call (2-D).",
    "B": "The right-hand sides (2-D, one column each).",
    "C": "The matrix multiplied by Q.",
    "M": "The tensor the product is added to (left out in the method: x).",
    "v1": "The factor of M (default 1).",
    "v2": "The factor of the product (default 1).",
    "mat1": "The left operand of the product.",
    "mat2": "The right operand of the product.",
    "a": "The first operand, or the lower end.",
    "b": "The second operand, or the upper end.",
    "x": "The first value.",
    "y": "The last value (included).",
    "step": "The step (default 1).",
    "biased": "Normalise by n instead of n - 1 (default false).",
    "chol": "A Cholesky factor, from potrf.",
    "descending": "Sort in descending order (default false).",
    "dir": "True: the largest values (default false: the smallest).",
    "sort": "True: the results sorted (default false).",
    "k": "k (the count, the order, or the diagonal: 0 the main one).",
    "kernel": "The kernel tensor.",
    "lambda": "The rate.",
    "m": "The number of columns (default n).",
    "n": "The count.",
    "max": "The upper bound.",
    "min": "The lower bound.",
    "maxnorm": "The largest norm kept.",
    "mode": "'V' valid (the default) or 'F' full.",
    "nbins": "The number of bins (default 100).",
    "output": "The LongTensor filled with the draws.",
    "p": "The probability, or the norm's order.",
    "piv": "The IntTensor of the pivots (1-based).",
    "probs": "The probabilities (not necessarily normalised), one distribution per row.",
    "replacement": "Draw with replacement (default false).",
    "result": "The list the parts are put in.",
    "side": "'L' (the default): op(Q) C; 'R': C op(Q).",
    "sizes": "The sizes: numbers, or a LongStorage or a sequence of them.",
    "state": "The alias tables [J, q], from multinomialAliasSetup.",
    "tau": "The Householder scalars, from geqrf.",
    "tol": "The tolerance (default: LAPACK's).",
    "trans": "'N' (the default) or 'T': op(A) is A or its transpose.",
    "uplo": "'U' (the default) or 'L': the triangle used.",
    "diag": "'N' (the default) or 'U': a unit diagonal assumed.",
    "jobu": "'S' (the default): the reduced U; 'A': the whole of it.",
    "jobvr": "'N' (the default): no eigenvectors; 'V': the eigenvectors too.",
    "jobz": "'N' (the default): no eigenvectors; 'V': the eigenvectors too.",
    "weight": "The weight.",
    "args": "The arguments of the tensor method of the same name.",
}

# (tensors in lower case: any tensor class, that of the dispatch type)
_TYPE = {
    "tensor": "tensor",
    "number": "number",
    "dim": "int",
    "boolean": "bool",
    "torch.Generator": "Generator",
    "list": "list",
    "sizes": "int... or LongStorage",
    "table of tensors": "list of Tensor",
    "value": "object",
}

_DIVIDES = {"div", "cdiv", "fmod", "cfmod", "remainder", "cremainder", "mod", "cmod"}


def _types(entry: Entry) -> str:
    if entry.types >= set(_ORDER):
        return "every tensor type but Half"
    return ", ".join(f"{_SHORT[t]}Tensor" for t in _ORDER if t in entry.types)


def _slot_type(a: Arg) -> str:
    t = a.kind.text
    if t.startswith("'"):
        return "str, one of " + ", ".join(t.split("|"))
    return _TYPE.get(t, t.replace("|", " or "))


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 76, initial_indent="    ", subsequent_indent="    ")


def _parameters(entry: Entry, in_method: bool) -> list[str]:
    """Every slot name of the forms, in the order of the longest form; a
    slot is optional unless every form requires it."""
    forms = entry.forms_for(in_method)
    seen: dict[str, str] = {}
    required: dict[str, int] = {}
    for form in sorted(forms, key=lambda f: -len(f.args)):
        for a in form.args:
            if a.hidden:
                continue
            name = (a.name or a.kind.text) + ("..." if a.many else "")
            seen.setdefault(name, _slot_type(a))
            if a.required(in_method):
                required[name] = required.get(name, 0) + 1
    lines = ["Parameters", "----------"]
    for name, typ in seen.items():
        optional = required.get(name, 0) < len(forms)
        lines.append(f"{name} : {typ}{', optional' if optional else ''}")
        lines += _wrap(_PARAM.get(name.rstrip("."), "See the forms."))
    return lines


def _returns(entry: Entry) -> list[str]:
    names = {a.name for f in entry.forms for a in f.args}
    if "args" in names:
        what = (
            f"tensor or number\n    What ``x.{entry.name}(...)`` returns "
            f"(``torch.{entry.name}(x, ...)`` is that method)."
        )
    elif "res3" in names:
        what = "tuple of tensors\n    (res1, res2, res3)."
    elif "res2" in names and "res" not in names:
        what = "tuple of tensors\n    (res1, res2): the two results of the factorization."
    elif "indices" in names:
        what = (
            "tuple of tensors, or number\n    (res, indices): the values and their 1-based "
            "indices, as LongTensor; forms without dim (where the spec has them) return a "
            "number."
        )
    elif "res" in names:
        plain = any(not any(a.name == "res" for a in f.args) for f in entry.forms)
        what = (
            "tensor"
            + (" or number" if plain else "")
            + "\n    res"
            + (
                " (a new tensor when left out); a number (or a bool) for the forms without "
                "a result tensor."
                if plain
                else " (a new tensor when left out)."
            )
        )
    else:
        what = "number, bool or Tensor\n    As the summary says."
    typ, text = what.split("\n    ", 1)
    return ["Returns", "-------", typ, *_wrap(text)]


def _raises(entry: Entry) -> list[str]:
    kinds = {a.kind.text for f in entry.forms for a in f.args}
    lines = [
        "Raises",
        "------",
        "TypeError",
        *_wrap(
            "When the arguments match none of the forms (the message names the "
            "argument where the closest form stopped, what it wanted, and the forms), "
            "or for a tensor type the function does not exist for."
        ),
        "ValueError",
        *_wrap(
            "When the sizes of the tensors do not fit together"
            + (
                ", or LAPACK fails (a singular matrix, say)."
                if entry.group.startswith("Linear")
                else "."
            )
        ),
    ]
    if "dim" in kinds:
        lines += ["IndexError", "    When dim is out of range."]
    if "number" in kinds:
        lines += ["OverflowError", "    When a number does not fit the element type."]
    if entry.name in _DIVIDES:
        lines += ["ZeroDivisionError", "    For an integer division by zero (Lua's C crashes)."]
    return lines


def _notes(entry: Entry, in_method: bool) -> list[str]:
    rest = entry.doc.split("\n", 1)[1].strip() if "\n" in entry.doc else ""
    forms = [entry.usage(False)] if entry.function else []
    if entry.method:
        forms.append(entry.usage(True))
    lines = [
        "Notes",
        "-----",
        *textwrap.wrap(
            "The forms, after Torch7's ``TensorMath.lua`` (``[x]`` optional, "
            "``x...`` any number; the first form that accepts the arguments "
            "runs):",
            80,
        ),
        "",
    ]
    for f in forms:
        for alt in f.split(" | "):
            lines.append(f"- ``{alt}``")
    text = (
        f"Exists for {_types(entry)}.  ``torch.{entry.name}`` dispatches on the type of "
        f"its first tensor argument; the method ``x.{entry.name}(...)`` (Lua's "
        f"``x:{entry.name}(...)``) fills its result slot with x."
        if entry.method
        else f"Exists for {_types(entry)}."
    )
    lines += ["", *textwrap.wrap(text, 80)]
    if rest:
        lines += ["", rest]
    return lines


def _examples(entry: Entry) -> list[str]:
    text = EXAMPLES.get(entry.name)
    if not text:
        return []
    head = [">>> import strided as torch"]
    if "math." in text:
        head.append(">>> import math")
    return ["Examples", "--------", *head, *text.split("\n")]


def entry_doc(entry: Entry, in_method: bool) -> str:
    """The numpy-style docstring of entry's function (or method)."""
    summary = entry.doc.split("\n", 1)[0].strip() or f"Torch7's {entry.name}."
    # a Lua call in the summary (M:f([v1,] ...)) is code, not Markdown links
    summary = re.sub(r"(\b\w+:\w+\([^)]*\))", r"``\1``", summary)
    parts = [
        [summary],
        _parameters(entry, in_method),
        _returns(entry),
        _raises(entry),
        _notes(entry, in_method),
        _examples(entry),
    ]
    return "\n\n".join("\n".join(p) for p in parts if p)


def tensor_class_doc(name: str, dt: str) -> str:
    """The numpy-style docstring of the typed tensor class `name`."""
    maths = (
        "Half has no maths in Lua: copies, views, conversions and files only."
        if dt == "float16"
        else f"Its methods are Tensor's (Torch7's tensor.md) and those the spec table declares "
        f"for {dt} (the function reference)."
    )
    return f"""Torch7's {name}: a tensor of {dt} elements, counted from one.

Parameters
----------
*args : object
    The constructor forms, as Lua's: nothing (an empty tensor); sizes
    (``{name}(2, 3)``, or a LongStorage); a nested list of numbers; another
    {name} (a view of its storage); a storage, then an offset, sizes and
    strides; an array of this element type (numpy, strided.compat: a view).

Raises
------
TypeError
    For arguments of none of these forms.
ValueError
    For a 0-d array (Torch7 has no 0-d tensor).

Notes
-----
{maths}  The memory of ``{name}(n)`` is not initialised, as in Lua.

Examples
--------
>>> import strided as torch
>>> t = torch.{name}([[1, 2], [3, 4]])
>>> t.type(), t.dim(), t.nElement()
('torch.{name}', 2, 4)
>>> t.select(1, 2).size()
 2
[torch.LongStorage of size 1]"""


def storage_class_doc(name: str, dt: str) -> str:
    """The numpy-style docstring of the typed storage class `name`."""
    return f"""Torch7's {name}: a one-dimensional array of {dt} elements, indexed from one.

Parameters
----------
*args : object
    As Lua's: nothing (empty); a size; a list of numbers; a size and an
    address (memory owned elsewhere); another storage, an offset and a size
    (a view of it).

Raises
------
TypeError
    For arguments of none of these forms.
ValueError
    For a negative size, or a view outside its storage.

Notes
-----
Every element access is a C call; tensors view storages.

Examples
--------
>>> import strided as torch
>>> s = torch.{name}([1, 2, 3])
>>> s.size(), s.type()
(3, 'torch.{name}')"""

"""The type stub of the Torch7 face (`strided/__init__.pyi`), written from
the spec table: `python -m tools.torch7_stubs > strided/__init__.pyi`
(tests/torch7/test_t7_stubs.py checks that the committed stub is current
and that its return types are what the functions return).

A type checker cannot read the face's functions: they are made at import
time from spec.py (functions.py).  The stub declares each one as the
overloads of its forms, in the order the forms are matched at run time
(the first overload that accepts a call is the form that runs): a form
with optional slots gives one overload per choice of the slots given.
Slot kinds map to types (`_PARAM`); a tensor slot of the dispatch type is
the type variable `_T` in the function (torch.add(x, 5) has x's class)
and `Self` in a method.

What a form returns is read from the form itself: each form is called
once on sample arguments (a 3x3 tensor of the dispatch type, 2 for a
number, 1 for a dim, ...) and the type of what it returned is written
down; a form that cannot be sampled (a `value...` slot, arguments the
sample does not fit) returns `Any`.  The classes and the utilities that
are written by hand (tensor.py, storage.py, files.py, utility.py, ...) are
declared with the annotations of their source, `Any` where there is none,
and with the overloads their source declares (overloads.py); the function
form of a tensor.md method (torch.narrow(x, ...), which calls
x:narrow(...)) takes the method's.  The annotations name the stub's own
classes (strings, never evaluated at run time).
"""

from __future__ import annotations

import inspect
import keyword
import itertools
import re

from strided.torch7 import forms as _forms
from strided.torch7 import functions as _functions
from strided.torch7.core_ops import core_op
from strided.torch7.forms import REQUIRED
from strided.torch7.overloads import overloads as _overloads_of
from strided.torch7.spec import ALL, ENTRIES, TENSOR_METHODS
from strided.torch7.storage import STORAGE_TYPES, Storage
from strided.torch7.registry import HALF_TYPES, TYPES
from strided.torch7.tensor import Tensor

_CLASS_OF = {dt: name for name, dt in TYPES + HALF_TYPES}
# builtins by aliases: the tensor classes have methods named float, int,
# type, ... which, in a class body, a plain `float` would name
_BUILTIN = re.compile(r"\b(float|int|bool|str|type|list|tuple)\b")
_PARAM = {
    _forms.BYTE: "ByteTensor",
    _forms.LONG: "LongTensor",
    _forms.INT: "IntTensor",
    _forms.FLOAT_TENSOR: "FloatTensor | DoubleTensor",
    _forms.GENERATOR: "Generator",
    _forms.ANY_TENSOR: "Tensor",
    _forms.NUMBER: "float",
    _forms.INDEX: "int",
    _forms.BOOLEAN: "bool",
    _forms.NIL: "None",
    _forms.TABLE: "Sequence[Tensor]",
    _forms.LIST: "list[Any]",
    _forms.SIZES: "LongStorage | Sequence[int]",
    _forms.STRING: "str",
    _forms.ANYTHING: "Any",
}
_OPTION = re.compile(r"^'(\w)'")


def _aliased(annotation):
    return _BUILTIN.sub(r"_\1", annotation)


def _param_type(kind, self_type):
    if kind is _forms.TENSOR:
        return self_type
    if kind in _PARAM:
        return _PARAM[kind]
    if _OPTION.match(kind.text):
        return "str"  # an option letter: 'U', 'L', 'N', ...
    raise ValueError(f"no type for the slot kind {kind.text!r}")


# ---------------------------------------------------------------- samples

_SHAPES = {
    # a 3x3 symmetric positive definite matrix (potrf, gesv, eig and the
    # elementwise maths accept it), a vector, a batch of two matrices
    "matrix": lambda cls: cls([[4, 1, 1], [1, 4, 1], [1, 1, 4]]),
    "vector": lambda cls: cls([1, 2, 3]),
    "batch": lambda cls: cls([[[4, 1, 1], [1, 4, 1], [1, 1, 4]]] * 2),
}


# the slot kinds whose samples take each shape in turn
_SHAPED = (_forms.TENSOR, _forms.ANY_TENSOR, _forms.TABLE)


def _sample(kind, T, shape, number):
    """A value the slot accepts, or None: tensors of the dispatch type in
    the given shape, numbers the given number."""
    C = _functions.CLASSES
    values = {
        _forms.TENSOR: lambda: _SHAPES[shape](T),
        _forms.ANY_TENSOR: lambda: _SHAPES[shape](T),
        _forms.BYTE: lambda: C["ByteTensor"](3, 3).fill(1),
        _forms.LONG: lambda: C["LongTensor"](3, 3).fill(1),
        _forms.INT: lambda: C["IntTensor"](3, 3).fill(1),
        _forms.FLOAT_TENSOR: lambda: C["DoubleTensor"](3, 3).fill(0.5),
        _forms.GENERATOR: lambda: _functions.FUNCTIONS["Generator"](),
        _forms.NUMBER: lambda: number,
        _forms.INDEX: lambda: 1,
        _forms.BOOLEAN: lambda: False,
        _forms.NIL: lambda: None,
        _forms.TABLE: lambda: [_SHAPES[shape](T)] * 2,
        _forms.LIST: lambda: [],
        _forms.SIZES: lambda: [3, 3],
        _forms.STRING: lambda: "",
    }
    if kind in values:
        return values[kind]()
    option = _OPTION.match(kind.text)
    if option:
        return option.group(1)
    return None


def _type_text(value, T, self_type, given):
    """The annotation of a returned value: self_type when it is of the
    dispatch class and a tensor of that class was given (else the default
    class, Tensor), another tensor's class by name, `float` for a number."""
    if isinstance(value, Tensor):
        if type(value) is T:
            return self_type if given else "Tensor"
        return type(value).__name__
    if isinstance(value, Storage):
        return type(value).__name__
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "float"
    if value is None:
        return "None"
    if isinstance(value, str):
        return "str"
    if isinstance(value, tuple) and value:
        return "tuple[" + ", ".join(_type_text(v, T, self_type, given) for v in value) + "]"
    if isinstance(value, list):
        inner = {_type_text(v, T, self_type, given) for v in value}
        return f"list[{inner.pop()}]" if len(inner) == 1 else "list[Any]"
    return "Any"


def _observed_return(call, slots, T, self_type, in_method):
    """Call with sample values for slots, trying each tensor slot in each
    sample shape and the numbers 2, 0.5 and 3 until a call is accepted; the
    annotation of what it returns (Any when a slot cannot be sampled or
    no sample fits)."""
    tensors = sum(s.kind in _SHAPED for s in slots)
    for number in (2, 0.5, 3):
        for shapes in itertools.product(_SHAPES, repeat=tensors):
            args, shape = [], iter(shapes)
            for slot in slots:
                value = _sample(slot.kind, T, next(shape) if slot.kind in _SHAPED else None, number)
                if value is None and slot.kind is not _forms.NIL:
                    return "Any"
                args += [value, value] if slot.many else [value]
            try:
                result = call(*args)
            except Exception:  # a sample that does not fit: the next
                continue
            given = in_method or any(s.kind is _forms.TENSOR for s in slots)
            return _type_text(result, T, self_type, given)
    return "Any"


# ---------------------------------------------------------------- overloads


def _default(slot, in_method):
    return slot.method if in_method else slot.default


def _variants(slots, in_method):
    """Each choice of the optional slots given, the fullest first (as the
    matching tries a slot with its argument before its default)."""
    optional = [
        i for i, s in enumerate(slots) if _default(s, in_method) is not REQUIRED and not s.many
    ]
    for drop in itertools.chain.from_iterable(
        itertools.combinations(optional, k) for k in range(len(optional) + 1)
    ):
        yield [s for i, s in enumerate(slots) if i not in drop]


def _signature(slots, self_type, method):
    """The parameter list: positional-only, a `many` slot as *args (which
    must come last: anything else is `*args: Any`)."""
    names, params = {}, ["self"] if method else []
    for i, slot in enumerate(slots):
        base = re.sub(r"\W", "_", slot.name or slot.kind.text.split(".")[-1]).lower()
        names[base] = names.get(base, 0) + 1
        name = base if names[base] == 1 else f"{base}{names[base]}"
        name = name + "_" if keyword.iskeyword(name) else name
        kind = _param_type(slot.kind, self_type)
        if slot.many:
            if i != len(slots) - 1:
                return ["self", "*args: Any"] if method else ["*args: Any"]
            params.append(f"*{name}: {kind}")
        else:
            params.append(f"{name}: {kind}")
    if not any(s.many for s in slots) and len(params) > (1 if method else 0):
        params.append("/")
    return params


def _overloads(entry, in_method, T, self_type):
    """(parameters, return annotation) for each variant of each form, in
    matching order, without repeats."""
    out, seen = [], set()
    for form in entry.forms_for(in_method):
        slots = [s for s in form.args if not s.hidden]
        rests = [slots]
        if in_method:
            if slots and slots[0].kind is _forms.NUMBER:
                continue  # torch.exp(2): no method form
            # x takes the first slot of x:f(...); when that one is optional
            # in the method (a result: x:sum(2) makes a new one), the
            # matching goes on to the tensor slot after it (forms.py's _fill)
            rests = [slots[1:]]
            if (
                len(slots) > 1
                and _default(slots[0], True) is not REQUIRED
                and slots[1].kind is _forms.TENSOR
            ):
                rests.append(slots[2:])
        for variant in (v for rest in rests for v in _variants(rest, in_method)):
            params = _signature(variant, self_type, in_method)
            key = tuple(p.split(": ")[-1] for p in params)
            if key in seen:
                continue
            seen.add(key)
            if in_method:
                call = getattr(_SHAPES["matrix"](T), entry.name)
            else:
                call = _functions.FUNCTIONS[entry.name]
            out.append((params, _observed_return(call, variant, T, self_type, in_method)))
    return out


def _dispatch_class(entry):
    # bitand ... exist for floats only to raise (their rows in the op table
    # have no float kernel): their answers are observed on an integer class
    integer_only = any(
        f.op is not None and core_op(f.op.name, "float64") is None for f in entry.forms
    )
    for dt in ("float64", "float32", "int64") + ALL:
        if dt in entry.types and not (integer_only and dt.startswith("float")):
            return _functions.CLASSES[_CLASS_OF[dt]]
    raise ValueError(f"{entry.name}: no tensor type")


def _aliased_params(params):
    out = []
    for p in params:
        name, colon, ann = p.partition(": ")
        out.append(f"{name}: {_aliased(ann)}" if colon else p)
    return out


def _defs(name, overloads, indent=""):
    overloads = [(_aliased_params(p), _aliased(r)) for p, r in overloads]
    if len(overloads) == 1:
        params, ret = overloads[0]
        return [f"{indent}def {name}({', '.join(params)}) -> {ret}: ..."]
    lines = []
    for params, ret in overloads:
        lines += [f"{indent}@overload", f"{indent}def {name}({', '.join(params)}) -> {ret}: ..."]
    return lines


# ---------------------------------------------------------------- by hand


def _source_annotation(a):
    """An annotation as its source writes it (Any where there is none)."""
    if a is inspect.Parameter.empty:
        return "Any"
    return a if isinstance(a, str) else getattr(a, "__name__", "Any")


def _annotation(a):
    return _aliased(_source_annotation(a))


def _from_source(name, fn, method=False, indent=""):
    """The def lines of a hand-written function from its signature and
    annotations: its overloads' (overloads.py) when it declares some."""
    declared = _overloads_of(fn)
    if declared:
        lines = []
        for d in declared:
            lines += [f"{indent}@overload"] + _def_from_source(name, d, method, indent)
        return lines
    return _def_from_source(name, fn, method, indent)


def _def_from_source(name, fn, method, indent):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [f"{indent}def {name}(*args: Any, **kwargs: Any) -> Any: ..."]
    params, star = [], False
    values = list(sig.parameters.values())
    for i, p in enumerate(values):
        if method and i == 0:
            params.append(p.name)
        else:
            ann = _annotation(p.annotation)
            if p.kind is p.VAR_POSITIONAL:
                params.append(f"*{p.name}: {ann}")
                star = True
            elif p.kind is p.VAR_KEYWORD:
                params.append(f"**{p.name}: {ann}")
            else:
                if p.kind is p.KEYWORD_ONLY and not star:
                    params.append("*")
                    star = True
                default = "" if p.default is p.empty else " = ..."
                params.append(f"{p.name}: {ann}{default}")
        if p.kind is p.POSITIONAL_ONLY and (
            i + 1 == len(values) or values[i + 1].kind is not p.POSITIONAL_ONLY
        ):
            params.append("/")
    ret = "None" if name == "__init__" else _annotation(sig.return_annotation)
    return [f"{indent}def {name}({', '.join(params)}) -> {ret}: ..."]


# torch.f(x, ...) of a tensor.md method x:f(...) (spec.py): the forms
# `tensor, value...` and `result, tensor, value...` (split, chunk) call the
# method, whose annotations the stub takes
_METHOD_CALL = ["tensor: _T", "*args: Any"]


def _raw_annotation(a):
    """A method's annotation in its function form: x, Self there, is _T."""
    return re.sub(r"\bSelf\b", "_T", _source_annotation(a))


def _method_function(entry):
    """The overloads of torch.f for a tensor.md method: the spec's forms,
    each one that calls the method replaced by the method's declarations
    that fit it (those whose first parameters are the form's leading
    ones), x among them as `_T` (the method's Self) and every parameter
    positional (the function takes no keywords)."""
    out = []
    method = getattr(Tensor, entry.name)
    for params, ret in _overloads(entry, False, _dispatch_class(entry), "_T"):
        if params[-2:] != _METHOD_CALL:
            out.append((params, ret))
            continue
        lead = [p.split(":")[0] for p in params[:-2]]
        for d in _overloads_of(method) or [method]:
            sig = inspect.signature(d)
            rest = list(sig.parameters.values())[1:]
            if [p.name for p in rest[: len(lead)]] != lead:
                continue
            out_params = []
            for i, p in enumerate(rest):
                if i == len(lead):
                    out_params.append("tensor: _T")
                ann = _raw_annotation(p.annotation)
                name = p.name + "2" if p.name == "tensor" else p.name
                if p.kind is p.VAR_POSITIONAL:
                    out_params += ["/", f"*{name}: {ann}"]
                else:
                    out_params.append(f"{name}: {ann}" + ("" if p.default is p.empty else " = ..."))
            if len(rest) == len(lead):
                out_params.append("tensor: _T")
            if not out_params[-1].startswith("*"):
                out_params.append("/")
            out.append((out_params, _raw_annotation(sig.return_annotation)))
    return out


# the special methods a stub declares, with the public ones
_DUNDERS = (
    "__init__",
    "__len__",
    "__iter__",
    "__getitem__",
    "__setitem__",
    "__enter__",
    "__exit__",
)


def _class_from_source(name, cls, bases, skip=()):
    lines = [f"class {name}({bases}):" if bases else f"class {name}:"]
    if "__init__" not in vars(cls):
        # a constructor in C (Tensor's TensorBase) declared by overloads alone
        init = type(
            "declared",
            (),
            {"__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}.__init__"},
        )
        if _overloads_of(init):
            lines += _from_source("__init__", init, method=True, indent="    ")
    for attr, value in vars(cls).items():
        if attr in skip or attr.startswith("_") and attr not in _DUNDERS:
            continue
        if isinstance(value, property):
            ret = _annotation(
                getattr(value.fget, "__annotations__", {}).get("return", inspect.Parameter.empty)
            )
            lines.append(f"    @property\n    def {attr}(self) -> {ret}: ...")
        elif isinstance(value, (staticmethod, classmethod)):
            lines.append(f"    @{type(value).__name__}")
            lines += _from_source(
                attr, value.__func__, method=isinstance(value, classmethod), indent="    "
            )
        elif callable(value):
            lines += _from_source(attr, value, method=True, indent="    ")
    return lines if len(lines) > 1 else lines + ["    ..."]


# ---------------------------------------------------------------- the stub

_OPERATORS = """\
    def __len__(self) -> int: ...
    def __getitem__(self, key: Any) -> Any: ...
    def __setitem__(self, key: Any, value: Any) -> None: ...
    def __iter__(self) -> Iterator[Any]: ..."""

# the elements of a storage: ints for the integer types, floats for the
# others (storage.py's Storage declares floats, and lists of Any)
_ELEMENTS = """\
    def __getitem__(self, i: int) -> {0}: ...
    def __iter__(self) -> Iterator[{0}]: ...
    def tolist(self) -> list[{0}]: ...
    def totable(self) -> list[{0}]: ..."""

# a storage's element access, in C (the int and float elements of _ELEMENTS)
_STORAGE_SLOTS = """\
    def __getitem__(self, i: int) -> float: ...
    def __setitem__(self, i: int, value: float) -> None: ..."""

# Tensor(array) views an array of the other face (strided.compat.Array):
# any object with __strided_core__; or a DLPack producer's or a buffer's
# memory (tensor.py)
_STRIDED_ARRAY = """\
class _StridedArray(Protocol):
    def __strided_core__(self) -> Any: ...

class _DLPackProducer(Protocol):
    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ..."""

_ARITHMETIC = """\
    def __add__(self, other: Self | float) -> Self: ...
    def __radd__(self, other: float) -> Self: ...
    def __sub__(self, other: Self | float) -> Self: ...
    def __rsub__(self, other: float) -> Self: ...
    @overload
    def __mul__(self, other: float) -> Self: ...
    @overload
    def __mul__(self, other: Tensor) -> Any: ...
    def __matmul__(self, other: Tensor) -> Any: ...
    def __rmul__(self, other: float) -> Self: ...
    def __truediv__(self, other: float) -> Self: ...
    def __mod__(self, other: float) -> Self: ...
    def __neg__(self) -> Self: ..."""


def stub():
    """The text of strided/__init__.pyi."""
    from strided.core.rng import Generator
    from strided.torch7 import files, utility

    lines = [
        '"""Type stub of the Torch7 face, generated from the spec table by',
        "`python -m tools.torch7_stubs > strided/__init__.pyi`; do not edit.",
        'How it is made: tools/torch7_stubs.py."""',
        "from builtins import bool as _bool, float as _float, int as _int, list as _list",
        "from builtins import str as _str, tuple as _tuple, type as _type",
        "from os import PathLike",
        "from typing import (IO, Any, Callable, Iterable, Iterator, Literal, Protocol, Sequence,",
        "                    TypeVar, overload)",
        "from typing_extensions import Buffer, Self",
        "",
        "__all__: list[str]",
        "__version__: str",
        "",
        '_T = TypeVar("_T", bound="Tensor")',
        "",
        _STRIDED_ARRAY,
        "",
    ]
    spec_methods = {e.name for e in ENTRIES if e.method}
    # the tensors: what tensor.py writes by hand, then the spec's methods
    # (every type's on Tensor, the others on their classes)
    lines += _class_from_source(
        "_TensorBase",
        Tensor,
        "",
        skip=spec_methods | {"__len__", "__iter__", "__getitem__", "__setitem__"},
    )
    lines += _aliased(_OPERATORS).splitlines() + [""]
    lines += ["class Tensor(_TensorBase):"] + _aliased(_ARITHMETIC).splitlines()
    common = [e for e in ENTRIES if e.method and e.types >= set(ALL)]
    for e in common:
        lines += _defs(e.name, _overloads(e, True, _dispatch_class(e), "Self"), "    ")
    lines.append("")
    for name, dt in TYPES + HALF_TYPES:
        own = [e for e in ENTRIES if e.method and dt in e.types and not e.types >= set(ALL)]
        lines.append(f"class {name}(Tensor):" + ("" if own else " ..."))
        T = _functions.CLASSES[name]
        for e in own:
            lines += _defs(e.name, _overloads(e, True, T, name), "    ")
        lines.append("")
    # the storages, files, timer, generator: their source's annotations
    # s[i] and s[i] = v are StorageBase's C slots (pyarray.c): no source
    lines += (
        _class_from_source("Storage", Storage, "") + _aliased(_STORAGE_SLOTS).splitlines() + [""]
    )
    for cls in STORAGE_TYPES.values():
        own = [ln for ln in _class_from_source(cls.__name__, cls, "Storage") if ln != "    ..."]
        element = "int" if cls._dt[0] in "iu" else "float"
        lines += own + _aliased(_ELEMENTS.format(element)).splitlines()
    lines += [""] + _class_from_source("Generator", Generator, "") + [""]
    lines += _class_from_source("File", files.File, "") + [""]
    for cls in (files.DiskFile, files.MemoryFile, files.PipeFile):
        lines += _class_from_source(cls.__name__, cls, cls.__bases__[0].__name__) + [""]
    lines += _class_from_source("Timer", utility.Timer, "") + [""]
    # the functions: the spec's overloads, the utilities' own signatures
    for e in ENTRIES:
        if not e.function or isinstance(e.direct, type):
            continue
        if e.direct is not None:
            lines += _from_source(e.name, e.direct)
        elif e.group == TENSOR_METHODS:
            lines += _defs(e.name, _method_function(e))
        else:
            lines += _defs(e.name, _overloads(e, False, _dispatch_class(e), "_T"))
    lines += ["", "def __getattr__(name: str) -> Any: ...", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(stub(), end="")

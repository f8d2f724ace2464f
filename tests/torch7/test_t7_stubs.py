"""The Torch7 face's type stub (strided/__init__.pyi) is the one
tools/torch7_stubs.py writes from the spec table, and declares every
public name of the face; its return types are observed from the forms
themselves (stubs.py), so a change of what a form returns changes the stub
and fails here until the stub is regenerated."""

import ast
from pathlib import Path

import strided as torch
from tools import torch7_stubs as stubs
from strided.torch7.spec import ENTRIES

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "strided" / "__init__.pyi"


def _declared():
    tree = ast.parse(STUB.read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    classes = {
        n.name: {m.name for m in n.body if isinstance(m, ast.FunctionDef)}
        for n in tree.body
        if isinstance(n, ast.ClassDef)
    }
    return names, classes


def test_the_committed_stub_is_current():
    assert STUB.read_text() == stubs.stub(), (
        "strided/__init__.pyi is stale: python -m tools.torch7_stubs > strided/__init__.pyi"
    )


def test_every_public_name_is_declared():
    names, _ = _declared()
    missing = [n for n in torch.__all__ if n not in names]
    assert not missing, missing


def test_every_method_of_every_class_is_declared():
    _, classes = _declared()

    def declared(cls_name):
        own = classes[cls_name]
        base = {"Tensor": "_TensorBase"}.get(
            cls_name,
            "Tensor"
            if cls_name.endswith("Tensor") and cls_name not in ("_TensorBase", "HalfTensor")
            else None,
        )
        return own | (declared(base) if base else set())

    for name in ("ByteTensor", "IntTensor", "LongTensor", "FloatTensor", "DoubleTensor"):
        cls = getattr(torch, name)
        public = {m for m in dir(cls) if not m.startswith("_")}
        missing = public - declared(name)
        assert not missing, (name, sorted(missing))


def test_the_forms_returns_are_typed():
    """Every function form of the maths whose slots can all be sampled has
    an observed return type: fewer than one overload in ten stays Any."""
    text = STUB.read_text()
    spec_functions = {
        e.name
        for e in ENTRIES
        if e.function and e.direct is None and e.group != "Tensor methods (tensor.md)"
    }
    lines = [
        ln
        for ln in text.splitlines()
        if ln.startswith("def ")
        and ln[4:].split("(")[0] in spec_functions
        and "*args: Any" not in ln
    ]
    untyped = [ln for ln in lines if ln.endswith("-> Any: ...")]
    assert len(lines) > 500
    assert len(untyped) * 10 < len(lines), untyped


def test_the_return_of_a_form_is_what_it_returns():
    """Spot checks of the observed types against the calls themselves."""
    text = STUB.read_text()
    assert "def sum(tensor: _T, /) -> _float: ..." in text
    assert "def sum(tensor: _T, dim: _int, /) -> _T: ..." in text
    assert "def max(tensor: _T, dim: _int, /) -> _tuple[_T, LongTensor]: ..." in text
    assert "def lt(tensor: _T, value: _float, /) -> ByteTensor: ..." in text
    assert "def zeros(*sizes: _float) -> Tensor: ..." in text
    x = torch.DoubleTensor([[1, 2], [3, 4]])
    assert isinstance(torch.sum(x), float) and type(torch.sum(x, 1)) is torch.DoubleTensor
    values, indices = torch.max(x, 1)
    assert type(values) is torch.DoubleTensor and type(indices) is torch.LongTensor
    assert type(torch.lt(x, 2)) is torch.ByteTensor


def test_a_method_takes_x_after_an_optional_result():
    """x:sum(2) and x:gt(0.5) make their result: x is the tensor slot after
    it (forms.py's matching), and the stub declares those calls too."""
    text = STUB.read_text()
    assert "    def sum(self, dim: _int, /) -> Self: ..." in text
    assert "    def gt(self, value: _float, /) -> ByteTensor: ..." in text
    x = torch.DoubleTensor([[1, 2], [3, 4]])
    assert type(x.sum(2)) is torch.DoubleTensor and type(x.gt(0.5)) is torch.ByteTensor


def test_the_hand_written_api_has_its_annotations():
    """tensor.py's methods (their overloads too), the storages' element
    types, the files' generated readX/writeX and the utilities come with
    the types of their source; torch.f(x, ...) of a tensor.md method takes
    the method's."""
    text = STUB.read_text()
    for line in (
        "    def t(self) -> Self: ...",
        "    def size(self, dim: _int) -> _int: ...",
        "    def nonzero(self) -> LongTensor: ...",
        "    def __getitem__(self, i: _int) -> _int: ...",  # the integer storages
        "    def readInt(self, n: _int, /) -> IntStorage: ...",
        "    def writeDouble(self, storage: DoubleStorage, /) -> _int: ...",
        "def manualSeed(generator: Generator, seed: _int, /) -> None: ...",
        "def narrow(tensor: _T, dim: _int, index: _int, size: _int, /) -> _T: ...",
        "def split(result: _list[_T], tensor: _T, size: _int, dim: _int = ..., /) "
        "-> _list[_T]: ...",
    ):
        assert line in text, line
    x = torch.DoubleTensor([[1, 2], [3, 4]])
    assert type(x.t()) is torch.DoubleTensor and type(x.size(1)) is int
    assert type(x.nonzero()) is torch.LongTensor and type(x.size()[1]) is int
    assert type(torch.narrow(x, 1, 1, 1)) is torch.DoubleTensor
    result = []
    assert torch.split(result, x, 1) is result and type(result[0]) is torch.DoubleTensor
    f = torch.MemoryFile()
    f.binary().writeInt(torch.IntStorage([5, 6]))
    f.seek(1)
    assert type(f.readInt(2)) is torch.IntStorage

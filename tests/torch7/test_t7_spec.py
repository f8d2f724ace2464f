"""The declarative spec (strided/torch7/spec.py) drives the Torch7 face:
every torch.* function and every math method comes from one table entry,
forms are matched as TensorMath.lua's cwrap matches them, and results are
written straight into the given tensor."""

import numpy as np
import pytest

import strided as torch
from strided.torch7 import forms, spec
from strided.torch7.functions import CLASSES, FUNCTIONS, OPERATORS
from strided.torch7.tensor import Tensor

ENTRY = {e.name: e for e in spec.ENTRIES}


def test_every_function_is_a_table_entry():
    storages = {n for n in torch.__all__ if n.endswith("Storage") and n[0].isupper()}
    public = set(torch.__all__) - set(CLASSES) - storages - {"Tensor", "Storage"}
    assert public == set(FUNCTIONS)
    for name, f in FUNCTIONS.items():
        assert name in ENTRY and getattr(torch, name) is f


def test_every_method_of_a_typed_class_is_generated_or_of_tensor_md():
    for cls in CLASSES.values():
        own = {n for n in vars(cls) if not n.startswith("_")}
        for n in own:
            assert n in ENTRY and ENTRY[n].method and cls._dt in ENTRY[n].types, (cls, n)
        assert set(OPERATORS) <= set(vars(cls))
    # nothing is attached to the base class after it is made
    assert not any(n in ENTRY and ENTRY[n].method for n in vars(Tensor))


def test_methods_exist_only_for_the_declared_types():
    assert hasattr(torch.DoubleTensor, "atan2") and not hasattr(torch.IntTensor, "atan2")
    with pytest.raises(TypeError, match="atan2 is not defined for torch.IntTensor"):
        torch.atan2(torch.IntTensor(2), torch.IntTensor(2))


def test_defaults_and_method_overrides():
    x = torch.Tensor([1, 2, 3])
    assert torch.add(x, 1).tolist() == [2, 3, 4] and x.tolist() == [1, 2, 3]  # new result
    r = torch.Tensor()
    assert torch.add(r, x, 2, x) is r and r.tolist() == [3, 6, 9]  # [res], value, y
    assert x.add(1) is x and x.tolist() == [2, 3, 4]  # in place
    assert r.add(x, x).tolist() == [4, 6, 8] and x.tolist() == [2, 3, 4]  # res:add(x, y)
    assert x.csub(2, x).tolist() == [-2, -3, -4]  # x:csub(v, y)
    assert torch.pow(2, torch.Tensor([1, 2, 3])).tolist() == [2, 4, 8]  # value ^ tensor
    assert torch.exp(0) == 1.0  # a number form


def test_dispatch_and_explicit_self_calls():
    x = torch.Tensor([[0, 1], [1, 0]])
    idx = torch.LongTensor()
    assert x.nonzero(idx, x) is idx and idx.tolist() == [[1, 2], [2, 1]]  # Lua's x.nonzero(i, x)
    m = torch.ByteTensor()
    assert torch.lt(m, x, 1) is m and m.tolist() == [[1, 0], [0, 1]]
    f = torch.zeros(2, "torch.FloatTensor")  # a type name last
    assert f.type() == "torch.FloatTensor"


def test_messages_name_the_argument_and_the_forms():
    with pytest.raises(
        TypeError,
        match=r"cmul: argument 2 \(tensor2\) must be a torch.DoubleTensor, "
        r"got torch.IntTensor; expected torch.cmul",
    ):
        torch.cmul(torch.Tensor(2), torch.IntTensor(2))
    with pytest.raises(TypeError, match=r"sum: argument 2 \(dim\) must be a dim, got str"):
        torch.sum(torch.Tensor(2), "a")


def _address(t):
    return torch.data(t, True)


@pytest.mark.parametrize(
    "call",
    [
        lambda r, a, b: torch.cmul(r, a, b),
        lambda r, a, b: torch.add(r, a, b),
        lambda r, a, b: torch.exp(r, a),
        lambda r, a, b: torch.clamp(r, a, 0.2, 0.5),
        lambda r, a, b: torch.lt(r, a, b) if r.type() == a.type() else None,
    ],
)
def test_results_go_straight_into_res(call):
    a, b = torch.rand(4, 5), torch.rand(4, 5)
    r = torch.Tensor(5, 4).t()  # the right size, transposed: kept as it is
    where, strides = _address(r), r.stride().tolist()
    call(r, a, b)
    assert _address(r) == where and r.stride().tolist() == strides


def test_in_place_on_a_transposed_view_keeps_it():
    base = torch.Tensor([[1, 2, 3], [4, 5, 6]])
    v = base.t()
    assert v.mul(2) is v and v.stride().tolist() == [1, 3]
    assert base.tolist() == [[2, 4, 6], [8, 10, 12]]
    s = torch.Tensor(2, 1)
    assert torch.sum(s, base, 2) is s and s.tolist() == [[12], [30]]
    np.testing.assert_array_equal(np.asarray(torch.sum(base, 1)), [[10, 14, 18]])


def test_plans_are_cached_per_shape_of_call():
    e = ENTRY["cmul"]
    e._plans.clear()
    # same element count, another shape: not the small C path (which makes
    # no plan), the general one
    x, y = torch.Tensor(3), torch.Tensor(1, 3)
    for _ in range(3):
        x.cmul(y)
    assert len(e._plans) == 1


def test_matching_backtracks_over_optional_slots():
    T = torch.DoubleTensor
    slots = [
        forms.Arg(forms.TENSOR, forms.NEW),
        forms.Arg(forms.TENSOR),
        forms.Arg(forms.NUMBER, 1),
        forms.Arg(forms.TENSOR),
    ]
    x, y = T(2), T(2)
    assert forms._fill(slots, 0, (x, y), 0, T, False, []) == [(2, None), (0, 0), (4, 1), (0, 1)]
    assert forms._fill(slots, 0, (x, x, 3, y), 0, T, False, []) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert forms._fill(slots, 0, (x, "a"), 0, T, False, []) is None


def test_the_reference_pages_are_current():
    import pathlib
    from tools import torch7_reference as reference

    docs = pathlib.Path(__file__).resolve().parents[2] / "docs"
    pages = reference.pages()
    committed = {str(p.relative_to(docs)) for p in (docs / reference.FOLDER).glob("*.md")}
    assert committed | {reference.INDEX} == set(pages), "run: python -m tools.torch7_reference docs"
    for name, text in pages.items():
        assert (docs / name).read_text().strip() == text.strip(), (
            f"docs/{name} is stale: run python -m tools.torch7_reference docs"
        )

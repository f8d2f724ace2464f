"""The tour: `python -m strided` shows the core at work, then examples
from the Torch7 Tensor documentation typed as Python."""
import strided as torch

from . import _core, _ops, _views


def show(title, value):
    print(f"{title:<52} {value}")


def main():
    print("strided tour: the C core at work\n")
    a = _core.from_nested([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    show("a = [[1, 2, 3], [4, 5, 6]] (float64)", _core.tolist(a))
    t = _views.transpose(a, 0, 1)
    show("a transposed: a view, strides", f"{t.strides} -> {_core.tolist(t)}")
    row = _core.from_nested([10.0, 20.0, 30.0], "float64")
    show("a + [10, 20, 30] (broadcast)", _core.tolist(_ops.binary("add", a, row)))
    show("exp(a transposed)[0]", _core.tolist(_ops.unary("exp", t))[0])
    show("sum over all, over axis 0, over axis 1",
         (_core.tolist(_ops.reduce("sum", a)), _core.tolist(_ops.reduce("sum", a, 0)),
          _core.tolist(_ops.reduce("sum", a, 1))))
    show("var(a, axis 1), std(a)", (_core.tolist(_ops.var(a, 1)), round(_core.tolist(_ops.std(a)), 6)))
    show("cast to int8 after * 50 (wraps modulo 256)",
         _core.tolist(_core.astype(_ops.binary("multiply", a, _core.scalar(50.0, "float64")), "int8")))
    i = _core.from_nested([-7, 7], "int64")
    show("[-7, 7] // 2 and % 2 (Python semantics)",
         (_core.tolist(_ops.binary("floor_divide", i, _core.scalar(2, "int64"))),
          _core.tolist(_ops.binary("remainder", i, _core.scalar(2, "int64")))))
    try:
        _ops.binary("floor_divide", i, _core.scalar(0, "int64"))
    except ZeroDivisionError as e:
        show("[-7, 7] // 0", f"ZeroDivisionError: {e}")
    big = _core.full((1000, 1000), 0.5, "float32")
    show("sum of a 1000x1000 float32 of 0.5 (pairwise)", _core.tolist(_ops.reduce("sum", big)))
    show("threads", _core.getnumthreads())
    torch7_examples()


def example(lua, run):
    print(f"\n> {lua}")
    out = run()
    if out is not None:
        print(out)


def torch7_examples():
    print("\n\nTorch7, from the Tensor documentation (`import strided as torch`)")
    x = torch.Tensor(4, 5)
    s = x.storage()
    for i in range(1, s.size() + 1):   # fill the storage with 1..20
        s[i] = i
    example("x = torch.Tensor(4,5); s = x:storage(); for i=1,s:size() do s[i] = i end; print(x)",
            lambda: x)
    example("x:stride()", lambda: x.stride())
    example("x:narrow(1, 2, 2)  -- rows 2 and 3, sharing x's storage", lambda: x.narrow(1, 2, 2))
    example("x[{ 2,{2,4} }]", lambda: x[2, [2, 4]])
    y = torch.Tensor(5, 6).zero()
    y.select(1, 2).fill(1)
    example("y = torch.Tensor(5,6):zero(); y:select(1,2):fill(1); print(y)", lambda: y)
    example("x:t():size()", lambda: x.t().size())
    z = torch.LongTensor([[1, 2, 3], [4, 5, 6]])
    example("z = torch.LongTensor({{1,2,3},{4,5,6}}); z:unfold(2, 2, 1)", lambda: z.unfold(2, 2, 1))
    example("torch.range(1, 6):view(2, 3):sum(2)  -- along dim 2, kept with size 1",
            lambda: torch.range(1, 6).view(2, 3).sum(2))
    m = torch.range(1, 6).view(2, 3)
    example("m[torch.gt(m, 3)]  -- a ByteTensor mask", lambda: m[torch.gt(m, 3)])


if __name__ == "__main__":
    main()

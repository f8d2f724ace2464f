"""The tour: `python -m strided` shows the two public faces first:
examples from the Torch7 Tensor documentation typed as Python, the Torch7
library (maths, random numbers, files), zero-copy DLPack exchange with
numpy and PyTorch, the array API face under an array-API-generic
function, and Cubed over that face; then, underneath both, the internal
layer (strided.core) over the C core.  numpy, PyTorch
and Cubed are optional: a part whose library is missing says how to get
it and is skipped."""

import importlib
import io
import os

import strided as torch

from .core import base as _core, ops as _ops, views as _views


def show(title, value):
    print(f"{title:<52} {value}")


def heading(text):
    print(f"\n\n{text}\n{'=' * len(text)}")


def core_tour():
    heading("Underneath both faces: the C core at work (strided.core, internal and 0-based)")
    a = _core.from_nested([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    show("a = [[1, 2, 3], [4, 5, 6]] (float64)", _core.tolist(a))
    t = _views.transpose(a, 0, 1)
    show("a transposed: a view, strides", f"{t.strides} -> {_core.tolist(t)}")
    row = _core.from_nested([10.0, 20.0, 30.0], "float64")
    show("a + [10, 20, 30] (broadcast)", _core.tolist(_ops.binary("add", a, row)))
    show("exp(a transposed)[0]", _core.tolist(_ops.unary("exp", t))[0])
    show(
        "sum over all, over axis 0, over axis 1",
        (
            _core.tolist(_ops.reduce("sum", a)),
            _core.tolist(_ops.reduce("sum", a, 0)),
            _core.tolist(_ops.reduce("sum", a, 1)),
        ),
    )
    show(
        "var(a, axis 1), std(a)",
        (_core.tolist(_ops.var(a, 1)), round(_core.tolist(_ops.std(a)), 6)),
    )
    show(
        "cast to int8 after * 50 (wraps modulo 256)",
        _core.tolist(
            _core.astype(_ops.binary("multiply", a, _core.scalar(50.0, "float64")), "int8")
        ),
    )
    i = _core.from_nested([-7, 7], "int64")
    show(
        "[-7, 7] // 2 and % 2 (Python semantics)",
        (
            _core.tolist(_ops.binary("floor_divide", i, _core.scalar(2, "int64"))),
            _core.tolist(_ops.binary("remainder", i, _core.scalar(2, "int64"))),
        ),
    )
    try:
        _ops.binary("floor_divide", i, _core.scalar(0, "int64"))
    except ZeroDivisionError as e:
        show("[-7, 7] // 0", f"ZeroDivisionError: {e}")
    big = _core.full((1000, 1000), 0.5, "float32")
    show("sum of a 1000x1000 float32 of 0.5 (pairwise)", _core.tolist(_ops.reduce("sum", big)))
    show("threads", _core.getnumthreads())


def example(lua, run):
    print(f"\n> {lua}")
    out = run()
    if out is not None:
        print(out)


def torch7_examples():
    heading("Torch7, from the Tensor documentation (`import strided as torch`)")
    x = torch.Tensor(4, 5)
    s = x.storage()
    assert s is not None  # (only an empty tensor has no storage)
    for i in range(1, s.size() + 1):  # fill the storage with 1..20
        s[i] = i
    example(
        "x = torch.Tensor(4, 5); s = x.storage(); for i in range(1, s.size() + 1): s[i] = i",
        lambda: x,
    )
    example("x.stride()", lambda: x.stride())
    example("x.narrow(1, 2, 2)  # rows 2 and 3, sharing x's storage", lambda: x.narrow(1, 2, 2))
    example("x[2, [2, 4]]  # Lua's x[{ 2,{2,4} }]", lambda: x[2, [2, 4]])
    y = torch.Tensor(5, 6).zero()
    y.select(1, 2).fill(1)
    example("y = torch.Tensor(5, 6).zero(); y.select(1, 2).fill(1); y", lambda: y)
    example("x.t().size()", lambda: x.t().size())
    z = torch.LongTensor([[1, 2, 3], [4, 5, 6]])
    example(
        "z = torch.LongTensor([[1, 2, 3], [4, 5, 6]]); z.unfold(2, 2, 1)", lambda: z.unfold(2, 2, 1)
    )
    example(
        "torch.range(1, 6).view(2, 3).sum(2)  # along dim 2, kept with size 1",
        lambda: torch.range(1, 6).view(2, 3).sum(2),
    )
    m = torch.range(1, 6).view(2, 3)
    example("m[torch.gt(m, 3)]  # a ByteTensor mask", lambda: m[torch.gt(m, 3)])


def torch7_library():
    heading("The Torch7 library: maths, random numbers, files")
    a = torch.Tensor([[4, 1], [1, 3]])
    b = torch.Tensor([[1], [2]])
    example(
        "a = torch.Tensor([[4, 1], [1, 3]]); b = torch.Tensor([[1], [2]]); torch.gesv(b, a)[0]  "
        "# LAPACK: solves a x = b",
        lambda: torch.gesv(b, a)[0],
    )
    example("torch.mm(a, torch.inverse(a))", lambda: torch.mm(a, torch.inverse(a)))
    v = torch.Tensor([3, 1, 4, 1, 5, 9, 2, 6])
    example(
        "v = torch.Tensor([3, 1, 4, 1, 5, 9, 2, 6]); torch.topk(v, 3, 1, True, True)[0]  "
        "# the 3 largest, sorted",
        lambda: torch.topk(v, 3, 1, True, True)[0],
    )
    example(
        "values, indices = torch.sort(v); indices  # 1-based, a stable sort",
        lambda: torch.sort(v)[1],
    )
    example(
        "torch.conv2(torch.ones(3, 3), torch.Tensor([[1, 2], [3, 4]]))  # 2-D valid convolution",
        lambda: torch.conv2(torch.ones(3, 3), torch.Tensor([[1, 2], [3, 4]])),
    )
    example("torch.histc(v, 3)  # counts in 3 bins over [min, max]", lambda: torch.histc(v, 3))

    torch.manualSeed(42)
    example(
        "torch.manualSeed(42); torch.randn(3)  # Torch7's Mersenne Twister", lambda: torch.randn(3)
    )
    state = torch.getRNGState()
    first = torch.rand(2)
    torch.setRNGState(state)
    example(
        "state = torch.getRNGState(); torch.rand(2) twice, the state restored in between",
        lambda: f"{first.totable()} == {torch.rand(2).totable()}",
    )
    example(
        "torch.multinomial(torch.Tensor([0, 1, 0, 3]), 5, True)  # categories 2 and 4 only",
        lambda: torch.multinomial(torch.Tensor([0, 1, 0, 3]), 5, True),
    )

    f = torch.MemoryFile("rw")
    f.writeObject({"weights": a, "name": "net"})
    f.seek(1)
    back = f.readObject()
    example(
        "f = torch.MemoryFile('rw'); f.writeObject({'weights': a, 'name': 'net'}); "
        "f.seek(1); f.readObject()['weights']",
        lambda: back["weights"],
    )
    buf = io.BytesIO()
    torch.save(buf, v)
    example(
        "torch.save(file, v)  # the binary .t7 format Lua Torch7 reads and writes",
        lambda: (
            f"{len(buf.getvalue())} bytes, torch.load gives back "
            f"{torch.load(io.BytesIO(buf.getvalue())).totable()}"
        ),
    )
    example(
        "torch.serialize(v, 'ascii')  # Torch7's ascii format, its first lines joined by |",
        lambda: " | ".join(torch.serialize(v, "ascii").decode().splitlines()[:8]),
    )


def optional(module, what, how):
    """The module, or None after a line saying how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"\n({what}: {module} is not installed, skipped; {how})")
        return None


def dlpack_tour():
    heading("DLPack: zero-copy exchange with numpy and PyTorch")
    import strided.compat as xp

    np = optional("numpy", "numpy", "pip install numpy")
    if np is not None:
        a = np.arange(6.0).reshape(2, 3)
        t = torch.from_dlpack(a)  # a Torch7 view of numpy's memory
        t.select(1, 1).fill(-1)  # Torch7 writes, numpy sees
        example(
            "a = np.arange(6.0).reshape(2, 3); t = torch.from_dlpack(a); "
            "t.select(1, 1).fill(-1); a  # numpy sees the write",
            lambda: a,
        )
        x = xp.asarray(a.T)  # a strided.compat view of a.T
        back = np.from_dlpack(xp.sum(x * x, axis=1))
        example(
            "x = xp.asarray(a.T); np.from_dlpack(xp.sum(x * x, axis=1))  # and back", lambda: back
        )
    pytorch = optional("torch", "PyTorch", "pip install torch")  # not `strided as torch`
    if pytorch is None:
        return
    p = pytorch.arange(6, dtype=pytorch.float32).reshape(2, 3)
    t = torch.from_dlpack(p)
    t.mul(10)  # in place, in PyTorch's memory
    example(
        "p = pytorch.arange(6.).reshape(2, 3); t = torch.from_dlpack(p); t.mul(10); p", lambda: p
    )
    q = pytorch.from_dlpack(xp.linspace(0, 1, 5))
    example("pytorch.from_dlpack(xp.linspace(0, 1, 5))  # PyTorch views our memory", lambda: q)


def generic_tour():
    heading("The array API face under an array-API-generic function")
    import strided.compat as xp

    def standardize(x, /):
        """Written against the standard only: any conforming namespace."""
        ns = x.__array_namespace__()
        mu = ns.mean(x, axis=0)
        sd = ns.std(x, axis=0, correction=1)
        return (x - mu) / sd

    data = [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [6.0, 60.0]]
    z = standardize(xp.asarray(data))
    example(
        "standardize(xp.asarray(data))  # x.__array_namespace__() is strided.compat",
        lambda: f"{type(z).__module__}.{type(z).__name__}: {z!r}",
    )
    np = optional("numpy", "numpy", "pip install numpy")
    if np is not None:
        w = standardize(np.asarray(data))
        example(
            "the same function on numpy (numpy >= 2 is an array API namespace)",
            lambda: f"equal to ours: {bool(np.allclose(w, np.from_dlpack(z)))}",
        )
    info = xp.__array_namespace_info__()
    example(
        "xp.__array_api_version__, the default dtypes, the extensions",
        lambda: (
            xp.__array_api_version__,
            info.default_dtypes()["real floating"].name,
            "linalg, fft",
        ),
    )
    m = xp.asarray([[2.0, 1.0], [1.0, 3.0]])
    example(
        "xp.linalg.solve(m, xp.asarray([1.0, 2.0])), xp.fft.rfft(xp.ones(4))",
        lambda: f"{xp.linalg.solve(m, xp.asarray([1.0, 2.0]))!r}, {xp.fft.rfft(xp.ones(4))!r}",
    )


def cubed_tour():
    heading("Cubed: the array API face scaled out in bounded-memory chunks")
    # Cubed reads its backend namespace when it is first imported
    os.environ.setdefault("CUBED_BACKEND_ARRAY_API_MODULE", "strided.compat")
    cubed = optional("cubed", "Cubed", "pip install 'strided[distributed]' (Python >= 3.12)")
    if cubed is None:
        return
    import cubed.array_api as cxp

    spec = cubed.Spec(allowed_mem="200MB")
    a = cxp.reshape(
        cxp.arange(1_000_000, dtype=cxp.float64, chunks=100_000, spec=spec), (1000, 1000)
    )
    s = cxp.sum(a * 2.0, axis=0)
    out = s.compute()
    example(
        "a = cubed arange(10^6) in chunks of 10^5, as 1000 x 1000; sum(a * 2, axis=0)",
        lambda: (
            f"{type(out).__module__}.{type(out).__name__} of shape {out.shape}, "
            f"first {float(out[0])}, last {float(out[-1])}"
        ),
    )


def main():
    print(
        "strided tour: the Torch7 face (import strided as torch, 1-based, Lua Torch7's API),\n"
        "the array API face (import strided.compat as xp), and the core under both"
    )
    torch7_examples()
    torch7_library()
    dlpack_tour()
    generic_tour()
    cubed_tour()
    core_tour()


if __name__ == "__main__":
    main()

"""Torch7's creation functions as one threaded C pass each (issue 16):
range, linspace and logspace at sizes the threads share out, checked
against what real Lua Torch7 (814ea4a) printed for the same calls (%a of
the elements at the indices listed); zeros and eye on freshly zeroed
pages.  The float counts cross 2^24, where TH's float counter i stops
growing (i + 1 == i in float): the threads must start theirs where TH's
would be.  Also the forms of range, eye, linspace and logspace (into self,
into a view) at small sizes, as Lua gives them."""

import pytest
from helpers import on_fresh_pages

import strided as torch
import strided.memory

N = 2**24 + 1000
IDX = [1, 2, 1000, 2**24 - 1, 2**24, 2**24 + 1, 2**24 + 2, N]
M = 300001
IDX2 = [1, 2, 3, 77777, 150001, 262144, 299999, 300000, M]

LUA = {  # name -> (the call, indices, Lua's values)
    "flinspace": (
        lambda: torch.FloatTensor().linspace(-1.3, 2.9, N),
        IDX,
        "-0x1.4cccccp+0 -0x1.4cccc8p+0 -0x1.4cbc68p+0 0x1.732afap+1 0x1.732afap+1 "
        "0x1.732afep+1 0x1.732afep+1 0x1.732afep+1",
    ),
    "flogspace": (
        lambda: torch.FloatTensor().logspace(-3.3, 2.7, N),
        IDX,
        "0x1.06c438p-11 0x1.06c442p-11 0x1.06fb9p-11 0x1.f4c60ep+8 0x1.f4c632p+8 "
        "0x1.f4c656p+8 0x1.f4c656p+8 0x1.f4c656p+8",
    ),
    "frange": (
        lambda: torch.FloatTensor().range(0.5, 0.5 + 0.25 * (N - 1), 0.25),
        IDX,
        "0x1p-1 0x1.8p-1 0x1.f48p+7 0x1p+22 0x1p+22 0x1.000002p+22 0x1.000002p+22 0x1.000002p+22",
    ),
    "dlinspace": (
        lambda: torch.linspace(-1.3, 2.9, M),
        IDX2,
        "-0x1.4cccccccccccdp+0 -0x1.4ccbe1eb4202ep+0 -0x1.4ccaf709b738fp+0 "
        "-0x1.b068123810e88p-3 0x1.999999999999ap-1 0x1.2f5c39bcba302p+1 "
        "0x1.73324851a8696p+1 0x1.7332bdc26dce4p+1 0x1.7333333333334p+1",
    ),
    "dlogspace": (
        lambda: torch.logspace(-3.3, 2.7, M),
        IDX2,
        "0x1.06c4363887513p-11 0x1.06c74f47a6146p-11 0x1.06ca68601e622p-11 "
        "0x1.271482348f633p-6 0x1.009b9cf334254p-1 0x1.5eaff06751772p+6 "
        "0x1.f5241d78c32dep+8 0x1.f52a05f8f8103p+8 0x1.f52fee8b01d8cp+8",
    ),
    "drange": (
        lambda: torch.range(0.1, 0.1 + 0.3 * (M - 1), 0.3),
        IDX2,
        "0x1.999999999999ap-4 0x1.999999999999ap-2 0x1.6666666666666p-1 "
        "0x1.6c93999999999p+14 0x1.5f90333333333p+15 0x1.3333p+16 0x1.5f8f8p+16 "
        "0x1.5f8fccccccccdp+16 0x1.5f9019999999ap+16",
    ),
    "irange": (
        lambda: torch.IntTensor().range(-5, -5 + 7 * (M - 1), 7),
        IDX2,
        "-0x1.4p+2 0x1p+1 0x1.2p+3 0x1.09d56p+19 0x1.0058bp+20 0x1.bfff4p+20 "
        "0x1.005868p+21 0x1.0058ap+21 0x1.0058d8p+21",
    ),
    "brange": (
        lambda: torch.ByteTensor().range(3, 3 + 5 * (M - 1), 5),
        IDX2,  # wraps mod 256
        "0x1.8p+1 0x1p+3 0x1.ap+3 0x1.3p+4 0x1.66p+7 0x1.fcp+7 0x1.64p+6 0x1.78p+6 0x1.8cp+6",
    ),
}


@pytest.mark.parametrize("name", list(LUA))
def test_large_sequences_are_luas_bits(name):
    call, idx, values = LUA[name]
    t = call()
    assert [float(t[i]).hex() for i in idx] == [float.fromhex(v).hex() for v in values.split()]


def test_sequences_into_a_transposed_res():
    # res kept (a transposed view) when it has n elements: filled in row-major order
    res = torch.DoubleTensor(600, 500).t()
    torch.range(res, 1, 300000)
    assert res.size().tolist() == [500, 600]
    assert res[1][1] == 1 and res[1][2] == 2 and res[500][600] == 300000
    torch.linspace(res, 0, 299999, 300000)
    assert res[2][1] == 600 and res[500][600] == 299999


def test_zeros_and_eye_on_fresh_pages():
    strided.memory.release()  # no cached block: zeros takes fresh pages
    z = torch.zeros(700, 800)
    assert z.sum() == 0 and on_fresh_pages(z._c)
    z[700][800] = 3
    assert z.sum() == 3
    e = torch.eye(1500, 1700)
    assert e.sum() == 1500 and e[1500][1500] == 1 and e[1][2] == 0
    assert on_fresh_pages(e._c)
    # a given res is written whole (zeros and its ones), whatever it held
    res = torch.DoubleTensor(1200, 1000).fill(7)
    torch.eye(res, 1200, 1000)
    assert res.sum() == 1000 and res[1000][1000] == 1 and res[1200][1000] == 0
    t = torch.FloatTensor(400, 300).fill(5).t()
    torch.zeros(t, 300, 400)
    assert t.sum() == 0


def test_range_as_lua():
    # the length is (long)((y - x) / step + 1) in double: 3 - 2^-52 rounds to 3
    assert torch.range(0, 1 - 2**-53, 0.5).tolist() == [0, 0.5, 1]
    assert torch.range(0, 2.9999999999999996, 1).tolist() == [0, 1, 2]
    # x + i*step in double, then stored as float
    assert torch.range(0, 1, 0.1).tolist()[3] == 0.30000000000000004
    assert torch.FloatTensor().range(0, 1, 0.1).tolist()[6] == 0.60000002384185791
    # integer types: the bounds truncated (cwrap's long), integer arithmetic, wrapping
    assert torch.IntTensor().range(0.5, 3.7).tolist() == [0, 1, 2, 3]
    assert torch.IntTensor().range(1.9, 7.9, 2.9).tolist() == [1, 3, 5, 7]
    assert torch.LongTensor().range(7, -3, -4).tolist() == [7, 3, -1]
    assert torch.ByteTensor().range(250, 260).tolist() == [
        250,
        251,
        252,
        253,
        254,
        255,
        0,
        1,
        2,
        3,
        4,
    ]
    # Lua: "step must be a non-null number" (0.5 is 0 for an IntTensor), "upper
    # bound and larger bound incoherent with step sign"
    for f in (
        lambda: torch.IntTensor().range(0, 3, 0.5),
        lambda: torch.range(0, 3, 0),
        lambda: torch.range(3, 0),
    ):
        with pytest.raises(ValueError, match="range"):
            f()


def test_range_method_writes_into_self():
    # x:range(...) fills x, kept as it is (a non-contiguous view too) when it
    # has that many elements, else resized to 1-D (Lua prints the same)
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    assert y.range(0, 3) is y and y.size().tolist() == [2, 2]
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    z = torch.zeros(2, 3)
    assert z.range(1, 4) is z and z.tolist() == [1, 2, 3, 4]
    mxx = torch.Tensor()
    assert torch.range(mxx, 1, 0, -1) is mxx and mxx.tolist() == [1, 0]


def test_eye_as_lua():
    # x:eye(n, m) fills x; a transposed x of that size keeps its strides (Lua: 1 3)
    x = torch.Tensor(3, 3).fill(7).t()
    assert x.eye(3, 3) is x and x.stride().tolist() == [1, 3]
    assert x.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert torch.LongTensor().eye(2).tolist() == [[1, 0], [0, 1]]
    # m <= 0 is n; the sizes are truncated (cwrap's long); n <= 0 is refused
    assert torch.eye(2, -1).tolist() == [[1, 0], [0, 1]]
    assert torch.eye(2.7, 3.9).tolist() == [[1, 0, 0], [0, 1, 0]]
    mxx = torch.Tensor()
    assert torch.eye(mxx, 2) is mxx and mxx.size().tolist() == [2, 2]
    with pytest.raises(ValueError, match="eye"):
        torch.eye(0)


def _hex(t):
    return [v.hex() for v in t.tolist()]


def _lua_hex(*values):
    """Lua's string.format('%a') of the elements, read as Python floats."""
    return [float.fromhex(v).hex() for v in values]


def test_linspace_logspace_lua_bits():
    # a + i*(b-a)/(n-1) in the tensor's type (the last point is not forced to b)
    assert _hex(torch.linspace(-1.3, 2.9, 11))[-3:] == _lua_hex(
        "0x1.07ae147ae147cp+1", "0x1.3d70a3d70a3d8p+1", "0x1.7333333333334p+1"
    )
    assert _hex(torch.FloatTensor().linspace(0.1, 0.7, 7)) == _lua_hex(
        "0x1.99999ap-4",
        "0x1.999998p-3",
        "0x1.333332p-2",
        "0x1.999998p-2",
        "0x1.fffffep-2",
        "0x1.333332p-1",
        "0x1.666666p-1",
    )
    # 10^that by libm's scalar pow / powf
    assert _hex(torch.logspace(0.1, 0.7, 7)) == _lua_hex(
        "0x1.4248ef8fc2604p+0",
        "0x1.95bb8f6d46053p+0",
        "0x1.fec982d5bb8afp+0",
        "0x1.41857e9d4cc5fp+1",
        "0x1.94c583ada5b53p+1",
        "0x1.fd93c1f526ddfp+1",
        "0x1.40c28430012e6p+2",
    )
    assert _hex(torch.FloatTensor().logspace(-3.3, 9.7, 5)) == _lua_hex(
        "0x1.06c438p-11", "0x1.c8520ep-1", "0x1.8c392cp+10", "0x1.580a6ep+21", "0x1.2abb12p+32"
    )


def test_linspace_logspace_fill_a_view_in_place():
    # x:linspace(a, b, n) keeps x (non-contiguous too) when it has n elements
    x = torch.zeros(2, 3)
    y = x.narrow(2, 2, 2)
    assert y.linspace(0, 3, 4) is y and y.size().tolist() == [2, 2]
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    x = torch.zeros(2, 3)
    x.narrow(2, 2, 2).logspace(0, 3, 4)
    assert x.tolist() == [[0, 1, 10], [0, 100, 1000]]
    z = torch.zeros(2, 3)
    assert z.linspace(0, 1, 5).tolist() == [0, 0.25, 0.5, 0.75, 1]
    # Lua: "invalid number of points"
    with pytest.raises(ValueError, match="invalid number of points"):
        torch.linspace(0, 1, 1)
    assert torch.linspace(0, 0, 1).tolist() == [0] and torch.logspace(0, 0, 1).tolist() == [1]
